// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * Host test: a program may not write what its lowering owns
 * (Documentation/ncsync/barriers.rst, "What a program may not write"):
 * the counters and r31 of the counter form, the event bits and r30 of the
 * event form, the semaphore of a core barrier.  Each kind of write (an
 * update in either lane, a Mov32, a PollSem, a GroupResetSemaphores, a
 * DMA's landing, a barrier's own events block) is refused by the lowering
 * and by ncsync_program_finalize() with the engine, the record, the line
 * and column and the resource; reading them is allowed; a program without
 * the barrier that owns them may write them; the records the builders
 * emit on the lowering's behalf are not the program's.
 */
#include <errno.h>
#include <string.h>

#include "ncsync.h"
#include "tap.h"

#define TWO "engine pool\nengine act\n"

/*
 * Assemble @text and finalize it (lowered in the form @how first when
 * @how is not -1): 0 or the error; the message in @msg.
 */
static int build(const char *text, int how, char *msg, size_t len,
		 unsigned int *line, unsigned int *col)
{
	struct ncsync_asm_error e;
	struct ncsync_program *p = NULL;
	const char *m;
	int ret;

	ret = ncsync_asm(text, &p, &e);
	if (ret)
		return -ENOEXEC;
	if (how >= 0)
		ret = ncsync_program_lower(p, how);
	if (!ret)
		ret = ncsync_program_finalize(p);
	m = ncsync_program_lower_error(p);
	snprintf(msg, len, "%s", m ? m : "");
	*line = *col = 99;
	ncsync_program_lower_where(p, line, col);
	ncsync_program_free(p);
	return ret;
}

/*
 * A program and what finalizing it (lowered in the form @how first when
 * @how is not -1) gives: refused at @line:@col, its message naming @res;
 * or, when @res is NULL, accepted.
 */
struct own_case {
	const char *name;
	const char *text;
	int how;
	unsigned int line, col;
	const char *res;
};

#define EV NCSYNC_LOWER_EVENTS

static const struct own_case cases[] = {
	/* The counter form owns its counters and r31. */
	{ "an update of C0 (the issue's program)",
	  TWO "engine pool\n\tnop then sem[240]++\n\tbarrier\n"
	  "engine act\n\tbarrier\n", -1, 4, 2, "sem[240]" },
	{ "an update of C1 in lane 1",
	  TWO "engine act\n\tbarrier\n"
	  "engine pool\n\tbarrier\n\tevsem lane1 then sem[241] = 0\n",
	  -1, 7, 2, "sem[241]" },
	{ "r31 by a Mov32",
	  TWO "engine pool\n\tbarrier\nengine act\n\tbarrier\n"
	  "\tmovi r31, 0\n", -1, 7, 2, "r31" },
	{ "r31 by a PollSem",
	  TWO "engine pool\n\tbarrier\n  poll min r31, sem[3]\n"
	  "engine act\n\tbarrier\n", -1, 5, 3, "r31" },
	{ "C0 by a GroupResetSemaphores",
	  TWO "engine pool\n\tbarrier\n\tsema_clear 239..240\n"
	  "engine act\n\tbarrier\n", -1, 5, 2, "sem[240]" },
	{ "C0 by a DMA's landing",
	  TWO "engine pool\n\tbarrier\n"
	  "\tdma 0x0, 0x100, 16 on_land sem[240]++\n"
	  "engine act\n\tbarrier\n", -1, 5, 2, "sem[240]" },
	{ "C0 by a barrier's own events block",
	  TWO "engine pool\n\tbarrier then sem[240]++\n"
	  "engine act\n\tbarrier then sem[240]++\n", -1, 4, 2, "sem[240]" },
	{ "the counters of act, the lowest engine",
	  "engine act\nengine pe\nengine pe\n\tbarrier\n"
	  "engine act\n\tbarrier\n\tnop then sem[243]++\n", -1, 7, 2,
	  "sem[243]" },
	{ "reading the counters and r31",
	  TWO "engine pool\n\tbarrier\n\tnop wait sem[240] >= 0\n"
	  "\tbr.eq.u32 r31, 0, end\nend:\nengine act\n\tbarrier\n",
	  -1, 0, 0, NULL },
	{ "another lowest engine's counters",
	  "engine act\nengine pe\nengine act\n\tbarrier\n"
	  "\tnop then sem[240]++\nengine pe\n\tbarrier\n", -1, 0, 0, NULL },
	{ "no barrier: sem[240] and r31 are the program's",
	  TWO "engine pool\n\tnop then sem[240]++\n\tmovi r31, 0\n",
	  -1, 0, 0, NULL },
	{ "the event form does not own r31 or the counters",
	  TWO "engine pool\n\tbarrier\n\tmovi r31, 0\n"
	  "\tnop then sem[240]++\nengine act\n\tbarrier\n", EV, 0, 0, NULL },
	/* The event form owns its event bits and r30. */
	{ "r30", TWO "engine pool\n\tbarrier\n\tmovi r30, 1\n"
	  "engine act\n\tbarrier\n", EV, 5, 2, "r30" },
	{ "an event bit", TWO "engine pool\n\tbarrier\n"
	  "engine act\n\tbarrier\n\tnop then ev[243] set\n", EV, 7, 2,
	  "ev[243]" },
	{ "the counter form does not own r30 or the bits",
	  TWO "engine pool\n\tbarrier\n\tmovi r30, 1\n"
	  "\tnop then ev[243] set\nengine act\n\tbarrier\n", -1, 0, 0, NULL },
	/* A core barrier owns its semaphore, and r31. */
	{ "the core barrier's semaphore",
	  TWO "engine pool\n\tcore_barrier sem[20]\n"
	  "\tnop then sem[20]++\nengine act\n\tcore_barrier sem[20]\n",
	  -1, 5, 2, "sem[20]" },
	{ "r31 with a core barrier",
	  TWO "engine pool\n\tcore_barrier sem[20]\n\tmovi r31, 1\n"
	  "engine act\n\tcore_barrier sem[20]\n", -1, 5, 2, "r31" },
	{ "waiting on it",
	  TWO "engine pool\n\tcore_barrier sem[20]\n"
	  "\tnop wait sem[20] == 0\nengine act\n\tcore_barrier sem[20]\n",
	  -1, 0, 0, NULL },
};

/* Finalize @c's program: refused or accepted, as @c says. */
static void own_case(const struct own_case *c)
{
	unsigned int line, col;
	char msg[256];
	int ret = build(c->text, c->how, msg, sizeof(msg), &line, &col);

	if (!c->res) {
		TAP_CHECK(ret == 0 && !msg[0] && line == 0 && col == 0,
			  "%s: accepted: %d '%s'", c->name, ret, msg);
		return;
	}
	TAP_CHECK(ret == -EINVAL && line == c->line && col == c->col &&
		  strstr(msg, c->res) && strstr(msg, "the lowering owns it"),
		  "%s: refused at %u:%u naming %s: %d %u:%u '%s'", c->name,
		  c->line, c->col, c->res, ret, line, col, msg);
}

/* The builders' records are the lowering's; the program's are not. */
static void builders(void)
{
	struct ncsync_program *p;
	struct ncsync_stream *s, *t;
	struct ncsync_events ev = {
		.upd_mode = NCSYNC_UPD_COMPLETE | NCSYNC_UPD_SEM_INC,
		.upd_idx = 20,
	};
	unsigned int l, c;
	int ret;

	TAP_CHECK(!ncsync_program_new(&p) &&
		  !ncsync_program_stream(p, NCSYNC_ENGINE_POOL, &s) &&
		  !ncsync_program_stream(p, NCSYNC_ENGINE_ACT, &t) &&
		  !ncsync_add_core_barrier(p, 20, 1) &&
		  !ncsync_add_sync_barrier(p) &&
		  !ncsync_program_finalize(p),
		  "a core barrier and a sync barrier, built: accepted");
	ncsync_program_free(p);
	ret = ncsync_program_new(&p);
	if (!ret)
		ret = ncsync_program_stream(p, NCSYNC_ENGINE_POOL, &s) ?:
		      ncsync_program_stream(p, NCSYNC_ENGINE_ACT, &t) ?:
		      ncsync_add_core_barrier(p, 20, 1);
	if (!ret && ncsync_add_nop(s, &ev) < 0)
		ret = -1;
	TAP_CHECK(!ret && ncsync_program_finalize(p) == -EINVAL &&
		  strstr(ncsync_program_lower_error(p), "sem[20]") &&
		  strstr(ncsync_program_lower_error(p), "engine pool record") &&
		  ncsync_program_lower_where(p, &l, &c) == -ENOENT &&
		  l == 0 && c == 0,
		  "a built program's write: refused, no text position: %s",
		  ncsync_program_lower_error(p));
	ncsync_program_free(p);
	TAP_CHECK(ncsync_program_lower_where(NULL, &l, &c) == -EINVAL,
		  "lower_where: NULL program");
}

int main(void)
{
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		own_case(&cases[i]);
	builders();
	return tap_done();
}
