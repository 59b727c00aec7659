// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * ncsync_program_deadlock(): posters from the records an engine may still
 * run (a branch back widens them), semaphore waits by direction, event
 * waits by state and by then-set/then-clear actions, group resets, DMA
 * completions; engines that ended post nothing; the stuck set, the cycle;
 * the refused arguments.
 */
#include <errno.h>
#include <string.h>

#include "ncsync.h"
#include "tap.h"

#define POOL	NCSYNC_ENGINE_POOL
#define ACT	NCSYNC_ENGINE_ACT
#define PE	NCSYNC_ENGINE_PE

/* Status entry @i: @engine at @pc, blocked on (@kind, @mode, @index). */
static void eng(struct ncsync_prog_status *st, unsigned int i, uint8_t engine,
		uint8_t state, uint32_t pc, uint8_t kind, uint8_t mode,
		uint8_t index)
{
	struct ncsync_engine_status *e = &st->engines[i];

	memset(e, 0, sizeof(*e));
	e->engine = engine;
	e->state = state;
	e->pc = pc;
	if (state == NCSYNC_ENG_BLOCKED) {
		e->wait_kind = kind;
		e->wait_mode = mode;
		e->wait_index = index;
	}
	if (st->nengines < i + 1)
		st->nengines = i + 1;
}

static struct ncsync_stream *stream(struct ncsync_program *p, uint8_t e)
{
	struct ncsync_stream *s = NULL;

	ncsync_program_stream(p, e, &s);
	return s;
}

/* pool: wait sem[1] > 0, sem[2]++; pe: wait sem[2] > 0, sem[1]++. */
static void two_locks(void)
{
	struct ncsync_prog_status st = { .state = NCSYNC_PROG_TIMED_OUT };
	struct ncsync_program *p;
	struct ncsync_deadlock dl;
	struct ncsync_stream *a, *b;

	ncsync_program_new(&p);
	a = stream(p, POOL);
	b = stream(p, PE);
	ncsync_add_semaphore_wait_gt(a, 1, 0);
	ncsync_add_semaphore_inc(a, 2);
	ncsync_add_semaphore_wait_gt(b, 2, 0);
	ncsync_add_semaphore_inc(b, 1);

	eng(&st, 0, POOL, NCSYNC_ENG_BLOCKED, 0, NCSYNC_BLOCK_SEM,
	    NCSYNC_WAIT_SEM_GT, 1);
	eng(&st, 1, PE, NCSYNC_ENG_BLOCKED, 0, NCSYNC_BLOCK_SEM,
	    NCSYNC_WAIT_SEM_GT, 2);
	TAP_CHECK(ncsync_program_deadlock(p, &st, &dl) == -EINVAL,
		  "a program never finalized: -EINVAL");
	TAP_CHECK(ncsync_program_finalize(p) == 0, "finalize");
	memset(&dl, 0xAA, sizeof(dl));
	TAP_CHECK(ncsync_program_deadlock(p, &st, &dl) == 0, "two locks");
	TAP_CHECK(dl.nengines == 2 && dl.nstuck == 2 &&
		  dl.engines[0].engine == POOL && dl.engines[1].engine == PE &&
		  dl.engines[0].stuck == 1 && dl.engines[1].stuck == 1,
		  "both engines stuck");
	TAP_CHECK(dl.engines[0].poster[0] == NCSYNC_NO_POSTER &&
		  dl.engines[0].poster[1] == 1 &&
		  dl.engines[1].poster[0] == 1 &&
		  dl.engines[1].poster[1] == NCSYNC_NO_POSTER,
		  "each posts the other's wait at record 1: %lld %lld",
		  (long long)dl.engines[0].poster[1],
		  (long long)dl.engines[1].poster[0]);
	TAP_CHECK(dl.ncycle == 2 && dl.cycle[0] == POOL && dl.cycle[1] == PE,
		  "the cycle pool -> pe");
	TAP_CHECK(dl.reserved == 0 && !dl.pad[0] && !dl.engines[0].pad[0] &&
		  dl.engines[2].poster[0] == NCSYNC_NO_POSTER,
		  "padding zero, unused posters none");

	/* pe runs: it may still post, so pool is not stuck. */
	eng(&st, 1, PE, NCSYNC_ENG_RUNNING, 0, 0, 0, 0);
	TAP_CHECK(ncsync_program_deadlock(p, &st, &dl) == 0 &&
		  dl.nstuck == 0 && dl.ncycle == 0 &&
		  dl.engines[0].poster[1] == 1 &&
		  dl.engines[1].poster[0] == NCSYNC_NO_POSTER,
		  "a running poster: nothing stuck, the poster still named");

	/* pe ended: nothing posts pool's wait any more. */
	eng(&st, 1, PE, NCSYNC_ENG_DONE, 2, 0, 0, 0);
	TAP_CHECK(ncsync_program_deadlock(p, &st, &dl) == 0 &&
		  dl.nstuck == 1 && dl.engines[0].stuck && dl.ncycle == 0 &&
		  dl.engines[0].poster[1] == NCSYNC_NO_POSTER,
		  "an ended engine posts nothing");

	/* pe is past its increment: no poster either. */
	eng(&st, 1, PE, NCSYNC_ENG_BLOCKED, 2, NCSYNC_BLOCK_DRAIN, 0, 0);
	TAP_CHECK(ncsync_program_deadlock(p, &st, &dl) == 0 &&
		  dl.engines[0].stuck && dl.engines[0].poster[1] < 0 &&
		  !dl.engines[1].stuck,
		  "records before the pc do not count; a drain is not stuck");

	/* pool waits for sem[2] < 1: pe's increment goes the wrong way. */
	eng(&st, 0, POOL, NCSYNC_ENG_BLOCKED, 0, NCSYNC_BLOCK_SEM,
	    NCSYNC_WAIT_SEM_LT, 1);
	eng(&st, 1, PE, NCSYNC_ENG_RUNNING, 0, 0, 0, 0);
	TAP_CHECK(ncsync_program_deadlock(p, &st, &dl) == 0 &&
		  dl.engines[0].poster[1] < 0 && dl.engines[0].stuck,
		  "an increment does not post a < wait");

	st.nengines = NCSYNC_NUM_ENGINES + 1;
	memset(&dl, 0x55, sizeof(dl));
	TAP_CHECK(ncsync_program_deadlock(p, &st, &dl) == -EINVAL &&
		  dl.nengines == 0x55555555,
		  "too many engines: -EINVAL, the result untouched");
	TAP_CHECK(ncsync_program_deadlock(NULL, &st, &dl) == -EINVAL &&
		  ncsync_program_deadlock(p, NULL, &dl) == -EINVAL &&
		  ncsync_program_deadlock(p, &st, NULL) == -EINVAL,
		  "NULL arguments: -EINVAL");
	ncsync_program_free(p);
}

/* A branch back makes the records before the pc reachable again. */
static void loop_back(void)
{
	struct ncsync_prog_status st = { 0 };
	struct ncsync_program *p;
	struct ncsync_deadlock dl;
	struct ncsync_stream *a, *b;
	int top;

	ncsync_program_new(&p);
	a = stream(p, POOL);
	b = stream(p, ACT);
	ncsync_add_semaphore_wait_ge(a, 7, 1);
	top = ncsync_label_new(p);
	ncsync_label_bind(b, top);
	ncsync_add_semaphore_add(b, 7, 2);		/* 0 */
	ncsync_add_semaphore_wait_gt(b, 8, 0);		/* 1 */
	ncsync_add_branch(b, top, NULL);		/* 2 */
	ncsync_program_finalize(p);
	eng(&st, 0, POOL, NCSYNC_ENG_BLOCKED, 0, NCSYNC_BLOCK_SEM,
	    NCSYNC_WAIT_SEM_GE, 7);
	eng(&st, 1, ACT, NCSYNC_ENG_BLOCKED, 1, NCSYNC_BLOCK_SEM,
	    NCSYNC_WAIT_SEM_GT, 8);
	TAP_CHECK(ncsync_program_deadlock(p, &st, &dl) == 0 &&
		  dl.engines[0].poster[1] == 0 && dl.nstuck == 2 &&
		  dl.ncycle == 0,
		  "a poster before the pc, reached by a branch back: record %lld",
		  (long long)dl.engines[0].poster[1]);
	ncsync_program_free(p);
}

/* Pool blocked at record 0 on a wait, act running at @pc: act's poster. */
struct poster_case {
	uint8_t kind;
	uint8_t mode;
	uint8_t index;
	uint32_t pc;
	int64_t want;	/* -1: none (and pool is stuck) */
	const char *what;
};

static void act_posters(const struct ncsync_program *p,
			const struct poster_case *c, size_t n)
{
	struct ncsync_prog_status st = { 0 };
	struct ncsync_deadlock dl;
	size_t i;

	for (i = 0; i < n; i++) {
		eng(&st, 0, POOL, NCSYNC_ENG_BLOCKED, 0, c[i].kind, c[i].mode,
		    c[i].index);
		eng(&st, 1, ACT, NCSYNC_ENG_RUNNING, c[i].pc, 0, 0, 0);
		TAP_CHECK(!ncsync_program_deadlock(p, &st, &dl) &&
			  dl.engines[0].poster[1] == c[i].want &&
			  dl.engines[0].stuck == (c[i].want < 0),
			  "%s (record %lld)", c[i].what,
			  (long long)dl.engines[0].poster[1]);
	}
}

#define EV(mode)	NCSYNC_BLOCK_EVENT, NCSYNC_WAIT_EVT_##mode
#define SEM(mode)	NCSYNC_BLOCK_SEM, NCSYNC_WAIT_SEM_##mode

/* Events: sets, clears, then-set and then-clear actions. */
static void events(void)
{
	static const struct poster_case cases[] = {
		{ EV(SET), 3, 0, 2, "a set wait: a clear-then-set wait" },
		{ EV(SET), 3, 3, 4, "a set wait: an event set" },
		{ EV(CLEAR_THEN_SET), 3, 1, 3,
		  "a clear wait: a set-then-clear wait" },
		{ EV(CLEAR), 3, 0, 0, "a clear wait: an event clear" },
		{ EV(SET), 4, 0, -1, "another event: no poster, stuck" },
	};
	struct ncsync_program *p;
	struct ncsync_stream *b;

	ncsync_program_new(&p);
	ncsync_add_event_wait(stream(p, POOL), 3, NCSYNC_WAIT_EVT_SET);
	b = stream(p, ACT);
	ncsync_add_event_clear(b, 3);				/* 0 */
	ncsync_add_event_wait(b, 3, NCSYNC_WAIT_EVT_SET);	/* 1 */
	ncsync_add_event_wait(b, 3, NCSYNC_WAIT_EVT_CLEAR_THEN_SET); /* 2 */
	ncsync_add_event_wait(b, 3, NCSYNC_WAIT_EVT_SET_THEN_CLEAR); /* 3 */
	ncsync_add_event_set(b, 3);				/* 4 */
	ncsync_program_finalize(p);
	act_posters(p, cases, sizeof(cases) / sizeof(cases[0]));
	ncsync_program_free(p);
}

/*
 * A group reset posts < and == waits, and > and >= waits that its 0 passes
 * (a report's threshold is taken at 0); a DMA completion posts too.
 */
static void resets_and_copies(void)
{
	static const struct poster_case cases[] = {
		{ SEM(LE), 4, 0, 0, "a <= wait: a group reset" },
		{ SEM(EQ), 6, 0, 0, "an == wait: a group reset" },
		{ SEM(GT), 4, 0, -1, "a > wait: not a group reset" },
		{ SEM(GE), 4, 0, 0, "a >= wait: a group reset (its 0 passes it)" },
		{ SEM(GT), 5, 0, 1, "a > wait: a DMA completion's +1" },
	};
	struct ncsync_program *p;
	struct ncsync_stream *b;

	ncsync_program_new(&p);
	ncsync_add_nop(stream(p, POOL), NULL);
	b = stream(p, ACT);
	ncsync_add_sema_clear(b, 4, 6, NULL);			/* 0 */
	ncsync_add_dma(b, 0, 64, 64, 0, NCSYNC_UPD_SEM_INC, 5, NULL); /* 1 */
	ncsync_program_finalize(p);
	act_posters(p, cases, sizeof(cases) / sizeof(cases[0]));
	ncsync_program_free(p);
}

/* Three engines in a ring, and one waiting outside it. */
static void ring(void)
{
	struct ncsync_prog_status st = { 0 };
	static const uint8_t e[3] = { POOL, ACT, PE };
	struct ncsync_program *p;
	struct ncsync_deadlock dl;
	unsigned int i;

	ncsync_program_new(&p);
	for (i = 0; i < 3; i++) {
		struct ncsync_stream *s = stream(p, e[i]);

		ncsync_add_semaphore_wait_gt(s, 10 + i, 0);
		ncsync_add_semaphore_inc(s, 10 + (i + 2) % 3);
	}
	ncsync_add_semaphore_wait_gt(stream(p, NCSYNC_ENGINE_DVE), 20, 0);
	ncsync_program_finalize(p);
	for (i = 0; i < 3; i++)
		eng(&st, i, e[i], NCSYNC_ENG_BLOCKED, 0, NCSYNC_BLOCK_SEM,
		    NCSYNC_WAIT_SEM_GT, 10 + i);
	eng(&st, 3, NCSYNC_ENGINE_DVE, NCSYNC_ENG_BLOCKED, 0,
	    NCSYNC_BLOCK_SEM, NCSYNC_WAIT_SEM_GT, 20);
	TAP_CHECK(ncsync_program_deadlock(p, &st, &dl) == 0 &&
		  dl.nstuck == 4 && dl.ncycle == 3 && dl.cycle[0] == POOL &&
		  dl.cycle[1] == ACT && dl.cycle[2] == PE,
		  "a ring of three: pool -> act -> pe (%u engines)",
		  dl.ncycle);
	ncsync_program_free(p);
}

int main(void)
{
	two_locks();
	loop_back();
	events();
	resets_and_copies();
	ring();
	return tap_done();
}
