// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * A 0xD5 whose events block is the barrier's own (SYNC, "The resulting
 * per-engine 0xD5 bundle": +0x04 = 0x05 GE, +0x05 = S, +0x06 = 0x13 inc,
 * +0x07 = S, +0x08 = N; "Each of N engines does sema[S] += 1 (arrival)
 * and waits sema[S] >= N (release)") runs as a barrier: its arrival goes
 * before the rendezvous and its release after, in both lowerings, so that
 * the checker finds it safe and no engine passes before all arrived.  A
 * block on other semaphores keeps the order of an op's own wait and
 * update (Documentation/ncsync/barriers.rst, "The 0xD5 events block").
 */
#include <errno.h>
#include <string.h>

#include "check_test.h"

#define ENGINES "pool", "act", "pe", "dve", "sp"

/*
 * Five engines meeting at "barrier BLOCK" after a clear, then each
 * checking that all five arrived; @block is the barrier's events block.
 */
static void five(char *buf, size_t len, const char *block,
		 const char *after)
{
	static const char *const eng[] = { ENGINES };
	size_t n;
	int i;

	n = snprintf(buf, len, "engine pool\n\tsema_clear 30..31\n");
	for (i = 1; i < 5; i++)
		n += snprintf(buf + n, len - n, "engine %s\n\tnop\n", eng[i]);
	n += snprintf(buf + n, len - n, "barrier\nbarrier %s\n", block);
	for (i = 0; i < 5; i++)
		n += snprintf(buf + n, len - n, "engine %s\n%s\texit\n",
			      eng[i], after);
}

static enum ncsync_check_verdict verdict(const char *text,
					 enum ncsync_barrier_lowering how,
					 unsigned int *kind)
{
	struct ncsync_program *p = ck_build(text, how);
	struct ncsync_check_result *res = NULL;
	struct ncsync_check_opts o;
	enum ncsync_check_verdict v = NCSYNC_CHECK_INCONCLUSIVE;

	*kind = ~0U;
	ncsync_check_opts_init(&o);
	if (p && !ncsync_check(p, &o, &res)) {
		v = ncsync_check_verdict(res);
		if (ncsync_check_ndefects(res))
			*kind = ncsync_check_defect(res, 0)->kind;
	}
	ncsync_check_free(res);
	ncsync_program_free(p);
	return v;
}

/* Index of the first NoOp of @s whose text has @what, or -1. */
static int find(const struct ncsync_program *p, uint8_t engine,
		const char *what)
{
	struct ncsync_stream *s;
	char line[NCSYNC_DISASM_LINE_MAX];
	uint32_t i;

	s = ncsync_program_find_stream((struct ncsync_program *)p, engine);
	for (i = 0; s && i < ncsync_stream_count(s); i++) {
		ncsync_disasm(ncsync_stream_peek(s, i), line, sizeof(line));
		if (strstr(line, what))
			return (int)i;
	}
	return -1;
}

/* The order of the block's halves in pe's lowered stream. */
static void order(enum ncsync_barrier_lowering how, const char *hname)
{
	static char text[4096];
	struct ncsync_program *p;
	int arrive, release;

	five(text, sizeof(text), "wait sem[30] >= 5 then sem[30]++", "");
	p = ck_build(text, how);
	arrive = p ? find(p, NCSYNC_ENGINE_PE, "then sem[30]++") : -1;
	release = p ? find(p, NCSYNC_ENGINE_PE, "wait sem[30] >= 5") : -1;
	TAP_CHECK(arrive >= 0 && release > arrive,
		  "%s: the barrier's own block: its arrival (%d) before its "
		  "release (%d)", hname, arrive, release);
	ncsync_program_free(p);
	five(text, sizeof(text), "wait sem[31] >= 0 then sem[30]++", "");
	p = ck_build(text, how);
	arrive = p ? find(p, NCSYNC_ENGINE_PE, "then sem[30]++") : -1;
	release = p ? find(p, NCSYNC_ENGINE_PE, "wait sem[31] >= 0") : -1;
	TAP_CHECK(release >= 0 && arrive > release,
		  "%s: a block on two semaphores: its wait (%d) before its "
		  "update (%d), as an op's own", hname, release, arrive);
	ncsync_program_free(p);
}

static void checked(enum ncsync_barrier_lowering how, const char *hname)
{
	static char text[4096];
	unsigned int kind;

	five(text, sizeof(text), "wait sem[30] >= 5 then sem[30]++",
	     "\tnop wait sem[30] == 5\n");
	TAP_CHECK(verdict(text, how, &kind) == NCSYNC_CHECK_SAFE,
		  "%s: 'barrier wait sem[30] >= 5 then sem[30]++' on five "
		  "engines is safe, and every engine finds sem[30] = 5 after "
		  "it (kind %d)", hname, (int)kind);
	five(text, sizeof(text), "wait sem[30] >= 6 then sem[30]++", "");
	TAP_CHECK(verdict(text, how, &kind) == NCSYNC_CHECK_DEFECT,
		  "%s: with N = 6 for five engines nobody is released "
		  "(kind %u)", hname, kind);
	five(text, sizeof(text), "wait sem[31] >= 1 then sem[30]++", "");
	TAP_CHECK(verdict(text, how, &kind) == NCSYNC_CHECK_DEFECT,
		  "%s: a wait on a semaphore nobody posts still blocks "
		  "(kind %u)", hname, kind);
}

int main(void)
{
	order(NCSYNC_LOWER_COUNTER, "counter");
	order(NCSYNC_LOWER_EVENTS, "events");
	checked(NCSYNC_LOWER_COUNTER, "counter");
	checked(NCSYNC_LOWER_EVENTS, "events");
	return tap_done();
}
