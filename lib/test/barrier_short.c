// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * ncsync_program_barrier_short() and ncsync_program_barrier_owns(): a
 * barrier some engines wait in, named by its line, and the engine that
 * misses it with the branch that jumps over it (or the Exit before it, or
 * none when it waits elsewhere), in both lowerings; the same in the
 * deadlock and barrier-imbalance defects of ncsync_check(); nothing for a
 * deadlock outside barriers; the refused arguments.
 */
#include <errno.h>

#include "check_test.h"

#define DVE	NCSYNC_ENGINE_DVE

/* Lines 1-6: three engines meet at a barrier, dve with r1 = 1. */
#define MEET \
	"engine pool\n" \
	"engine act\n" \
	"engine dve\n" \
	"\tmovi r1, 1\n" \
	"barrier\n" \
	"engine dve\n"

/* dve branches (line 7) around the barrier of line 8. */
static const char skip_text[] =
	MEET
	"\tbr.eq.u32 r1, 1, skip\n"
	"barrier\n"
	"engine dve\n"
	"skip:\tnop then sem[1]++\n";

/* dve exits (line 8) before the barrier of line 10. */
static const char exit_text[] =
	MEET
	"\tbr.ne.u32 r1, 1, go\n"
	"\texit\n"
	"go:\tnop\n"
	"barrier\n";

/* dve waits (line 5) for what nobody posts, before the barrier. */
static const char wait_text[] =
	"engine pool\n"
	"engine act\n"
	"engine dve\n"
	"\tnop\n"
	"\tnop wait sem[9] > 0\n"
	"barrier\n";

static const char abba_text[] =
	"engine pool\n"
	"\tnop wait sem[1] > 0 then sem[1]--\n"
	"\tnop wait sem[2] > 0 then sem[2]--\n"
	"engine pe\n"
	"\tnop wait sem[2] > 0 then sem[2]--\n"
	"\tnop wait sem[1] > 0 then sem[1]--\n";

/* @b says pool and act wait in the barrier of @line, dve misses it. */
static void expect(const char *what, const struct ncsync_barrier_short *b,
		   uint32_t line, bool ended, uint32_t branch_line)
{
	const struct ncsync_barrier_miss *m = &b->missing[0];

	TAP_CHECK(b && b->line == line && b->nwaiting == 2 &&
		  b->waiting[0] == NCSYNC_ENGINE_POOL &&
		  b->waiting[1] == NCSYNC_ENGINE_ACT && b->nmissing == 1 &&
		  m->engine == DVE && m->ended == ended &&
		  m->line == branch_line && (m->branch >= 0) == !!branch_line,
		  "%s: pool, act wait in the barrier of line %u; dve %s, line %u",
		  what, line, ended ? "ended" : "waits elsewhere", branch_line);
}

/* Check @text; its deadlock and barrier-imbalance defects' barrier. */
static void check_case(const char *name, const char *text,
		       enum ncsync_barrier_lowering how, unsigned int kind,
		       uint32_t line, bool ended, uint32_t branch_line)
{
	struct ncsync_program *p = ck_build(text, how);
	struct ncsync_check_result *res = NULL;
	const struct ncsync_check_defect *d;
	struct ncsync_check_opts o;
	char what[128];

	if (!p)
		return;
	ncsync_check_opts_init(&o);
	TAP_CHECK(!ncsync_check(p, &o, &res), "%s: checked", name);
	d = ck_find(res, kind);
	snprintf(what, sizeof(what), "%s, %s", name, ncsync_defect_name(kind));
	TAP_CHECK(d && d->barrier, "%s: reported with its barrier", what);
	if (d && d->barrier)
		expect(what, d->barrier, line, ended, branch_line);
	ncsync_check_free(res);
	ncsync_program_free(p);
}

static void test_check(void)
{
	static const enum ncsync_barrier_lowering how[] = {
		NCSYNC_LOWER_COUNTER, NCSYNC_LOWER_EVENTS,
	};
	unsigned int i;

	for (i = 0; i < 2; i++) {
		check_case("branch around", skip_text, how[i],
			   NCSYNC_DEFECT_DEADLOCK, 8, true, 7);
		check_case("branch around", skip_text, how[i],
			   NCSYNC_DEFECT_BARRIER_IMBALANCE, 8, true, 7);
		check_case("exit before", exit_text, how[i],
			   NCSYNC_DEFECT_BARRIER_IMBALANCE, 10, true, 8);
		check_case("waits before", wait_text, how[i],
			   NCSYNC_DEFECT_DEADLOCK, 6, false, 0);
	}
}

/* A deadlock outside barriers has no barrier, in check and the API. */
static void test_no_barrier(void)
{
	struct ncsync_program *p = ck_build(abba_text, NCSYNC_LOWER_COUNTER);
	struct ncsync_check_result *res = NULL;
	const struct ncsync_check_defect *d;
	struct ncsync_barrier_short b;
	struct ncsync_asm_part part;
	struct ncsync_check_opts o;

	if (!p)
		return;
	ncsync_check_opts_init(&o);
	o.sems[1] = o.sems[2] = 1;
	TAP_CHECK(!ncsync_check(p, &o, &res), "abba: checked");
	d = ck_find(res, NCSYNC_DEFECT_DEADLOCK);
	TAP_CHECK(d && !d->barrier, "abba: a deadlock without a barrier");
	ncsync_check_free(res);
	part = (struct ncsync_asm_part){ .core = 0, .prog = p };
	memset(&b, 0xff, sizeof(b));
	TAP_CHECK(!ncsync_program_barrier_short(&part,
			&(struct ncsync_prog_status){ .nengines = 0 }, 1, &b) &&
		  !b.nwaiting && !b.nmissing && !b.line,
		  "a report without a barrier wait: nothing, all zero");
	TAP_CHECK(!ncsync_program_barrier_owns(p, NCSYNC_BANK_SEM, 240),
		  "a program without barriers owns no semaphore");
	ncsync_program_free(p);
}

/* The API on a report made by hand; ownership; refused arguments. */
static void test_api(void)
{
	struct ncsync_program *p = ck_build(skip_text, NCSYNC_LOWER_COUNTER);
	struct ncsync_prog_status st = { .nengines = 3 };
	struct ncsync_barrier_short b;
	struct ncsync_asm_part part;
	unsigned int i;

	if (!p)
		return;
	part = (struct ncsync_asm_part){ .core = 0, .prog = p };
	TAP_CHECK(ncsync_program_barrier_owns(p, NCSYNC_BANK_SEM, 240) &&
		  ncsync_program_barrier_owns(p, NCSYNC_BANK_SEM, 241) &&
		  !ncsync_program_barrier_owns(p, NCSYNC_BANK_SEM, 1) &&
		  !ncsync_program_barrier_owns(p, NCSYNC_BANK_EVENT, 240) &&
		  !ncsync_program_barrier_owns(NULL, NCSYNC_BANK_SEM, 240),
		  "the counters are the barrier's, sem[1] and events not");
	/* pool and act in the second barrier's release, dve done. */
	for (i = 0; i < 2; i++) {
		struct ncsync_engine_status *e = &st.engines[i];
		struct ncsync_stream *s = ncsync_program_find_stream(p, i + 1);
		uint32_t r;

		e->engine = i + 1;
		e->state = NCSYNC_ENG_BLOCKED;
		e->wait_kind = NCSYNC_BLOCK_SEM;
		e->wait_index = 240;
		for (r = ncsync_stream_count(s); r-- > 0;)
			if (ncsync_stream_line(s, r) == 8)
				break;
		e->pc = r;
	}
	st.engines[2].engine = DVE;
	st.engines[2].state = NCSYNC_ENG_DONE;
	TAP_CHECK(!ncsync_program_barrier_short(&part, &st, 1, &b),
		  "a report made by hand");
	expect("by hand", &b, 8, true, 7);
	TAP_CHECK(ncsync_program_barrier_short(NULL, &st, 1, &b) == -EINVAL &&
		  ncsync_program_barrier_short(&part, NULL, 1, &b) == -EINVAL &&
		  ncsync_program_barrier_short(&part, &st, 1, NULL) == -EINVAL &&
		  ncsync_program_barrier_short(&part, &st, 0, &b) == -EINVAL,
		  "NULL arguments and no part: -EINVAL");
	st.nengines = NCSYNC_NUM_ENGINES + 1;
	TAP_CHECK(ncsync_program_barrier_short(&part, &st, 1, &b) == -EINVAL,
		  "a report of too many engines: -EINVAL");
	ncsync_program_free(p);
}

int main(void)
{
	test_check();
	test_no_barrier();
	test_api();
	return tap_done();
}
