/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the ncsync_lib_*_test selftests share: libncsync against the real
 * driver.  The host-only tests of lib/test/ check what the library builds;
 * these run what it builds on core 0 of the loaded module, through the
 * library's own device API (ncsync_open() and friends).  Split by concern:
 * the device API (banks, mapping, waits, poll, signals), barrier loops and
 * the lower_control fence, DMA and Drain, the text form and submission
 * errors, programs (status, wait, cancel, strict mode, cores, allocator).
 * Every test of the "core" fixture starts from a freshly reset core 0.
 *
 * Programs that must end get a long watchdog (WD_LONG): one that stalls (a
 * lost wake-up, a broken barrier) ends TIMED_OUT and its snapshot is
 * logged, instead of hanging.  They are waited for with a deadline longer
 * still (PROG_MS), which only bounds a program that progresses.  Programs
 * that must time out get a short watchdog.  No test asserts an upper bound
 * on any duration.
 *
 * Barrier loops check themselves: after each pass every engine checks, with
 * PollSem and branches, that no engine is behind or more than one pass
 * ahead, and halts if one is (build_barrier_loop()); barrier_check_detects_
 * drift shows that the check fails when it should.
 */
#ifndef NCSYNC_LIB_H
#define NCSYNC_LIB_H

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/seccomp.h>

#include <ncsync.h>

#include "kselftest_harness.h"
#include "ncsync_harness.h"
#include "ncsync_rec.h"

#define LONG_MS		30000	/* deadline of a wait that must end */
#define PROG_MS		600000	/* deadline of a program that must end */
#define WD_LONG		20000	/* watchdog of a program that must not time out */
#define WD_SHORT	200	/* watchdog of a program that must time out */
/* watchdog of a program whose snapshot must show its engines settled */
#define WD_SETTLE	1000

#define NSEC_PER_MSEC	1000000LL
#define NSEC_PER_SEC	1000000000LL

/* Barrier loops: passes of the long loops, and their test timeout (s). */
#define BARRIER_ITERS	1000
#define BARRIER_TIMEOUT	900

/* The five datapath engines, in id order (the order of a status report). */
static const uint8_t engine_ids[NCSYNC_NUM_ENGINES] = {
	NCSYNC_ENGINE_POOL, NCSYNC_ENGINE_ACT, NCSYNC_ENGINE_PE,
	NCSYNC_ENGINE_DVE, NCSYNC_ENGINE_SP,
};

/* ---------------------------------------------------------------------- */
/* Time                                                                    */

static inline int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * NSEC_PER_SEC + ts.tv_nsec;
}

static inline struct timespec deadline_ms(int64_t ms)
{
	struct timespec ts;

	ncsync_deadline_after(&ts, ms * NSEC_PER_MSEC);
	return ts;
}

static inline void sleep_ms(int ms)
{
	usleep(ms * 1000);
}

/* ---------------------------------------------------------------------- */
/* The fixture                                                             */

FIXTURE(core) {
	struct ncsync_dev *dev;
	const struct ncsync_info *info;
};

FIXTURE_SETUP(core)
{
	int ret;

	ret = ncsync_open(0, true, &self->dev);
	ASSERT_EQ(0, ret) TH_LOG("ncsync_open(0, true): %s", strerror(-ret));
	self->info = ncsync_get_info(self->dev);
	ASSERT_NE(NULL, self->info);
	ASSERT_EQ(0, ncsync_reset(self->dev));
}

FIXTURE_TEARDOWN(core)
{
	ncsync_close(self->dev);
}

/* ---------------------------------------------------------------------- */
/* Helpers                                                                 */

/* A builder or allocator call that must succeed (an index or an id). */
#define ADD(call)	ASSERT_LE(0, (call))

static inline struct ncsync_program *prog_new(struct __test_metadata *_metadata)
{
	struct ncsync_program *prog = NULL;

	ASSERT_EQ(0, ncsync_program_new(&prog));
	ASSERT_NE(NULL, prog);
	return prog;
}

static inline struct ncsync_stream *stream(struct __test_metadata *_metadata,
				    struct ncsync_program *prog,
				    uint8_t engine)
{
	struct ncsync_stream *s = NULL;

	ASSERT_EQ(0, ncsync_program_stream(prog, engine, &s));
	ASSERT_NE(NULL, s);
	return s;
}

static inline uint32_t submit(struct __test_metadata *_metadata,
		       struct ncsync_dev *dev, struct ncsync_program *prog,
		       uint32_t flags, uint32_t watchdog_ms)
{
	struct ncsync_submit_error err;
	uint32_t id = 0;
	int ret;

	ret = ncsync_program_submit(dev, prog, flags, watchdog_ms, &id, &err);
	ASSERT_EQ(0, ret) TH_LOG("program submission: %s; engine %u record %u: %s",
				 strerror(-ret), err.engine, err.index,
				 ncsync_reason_name(err.reason));
	ASSERT_NE(0U, id);
	return id;
}

/*
 * Wait for program @id to end; return its state.  A program that stalls is
 * stopped by its watchdog (WD_LONG) long before PROG_MS: the deadline only
 * bounds one that progresses, however slowly.
 */
static inline int wait_end(struct __test_metadata *_metadata,
		    struct ncsync_dev *dev, uint32_t id)
{
	struct timespec dl = deadline_ms(PROG_MS);
	uint32_t state = UINT32_MAX;
	int ret;

	ret = ncsync_program_wait(dev, id, &dl, &state);
	ASSERT_EQ(0, ret) TH_LOG("program %u did not end: %s", id,
				 strerror(-ret));
	return (int)state;
}

static inline void status_get(struct __test_metadata *_metadata,
		       struct ncsync_dev *dev, uint32_t id,
		       struct ncsync_prog_status *st,
		       struct ncsync_sem_value *sems)
{
	int ret = ncsync_program_status(dev, id, false, st, sems);

	ASSERT_EQ(0, ret) TH_LOG("status of %u: %s", id, strerror(-ret));
}

/* The status entry of @engine, or NULL. */
static inline const struct ncsync_engine_status *
eng_status(const struct ncsync_prog_status *st, uint8_t engine)
{
	unsigned int i;

	for (i = 0; i < st->nengines && i < NCSYNC_NUM_ENGINES; i++)
		if (st->engines[i].engine == engine)
			return &st->engines[i];
	return NULL;
}

/* The status entry of @engine, which must exist. */
#define ENG(st, engine) ({						\
	uint8_t __eng = (engine);					\
	const struct ncsync_engine_status *__e = eng_status(st, __eng);	\
	ASSERT_NE(NULL, __e) TH_LOG("engine %u not in the report", __eng); \
	__e;								\
})

/* Log every engine of a report: what a failing test needs to be read. */
static inline void status_log(struct __test_metadata *_metadata,
		       const struct ncsync_prog_status *st)
{
	unsigned int i;

	TH_LOG("program %u state %u, %u engines", st->id, st->state,
	       st->nengines);
	for (i = 0; i < st->nengines && i < NCSYNC_NUM_ENGINES; i++) {
		const struct ncsync_engine_status *e = &st->engines[i];

		TH_LOG("  engine %u (%s) state %u fault %u pc %u executed %llu",
		       e->engine, ncsync_engine_name(e->engine), e->state,
		       e->fault, e->pc, (unsigned long long)e->executed);
		TH_LOG("    wait kind %u mode 0x%x index %u lane %u threshold %d current %d",
		       e->wait_kind, e->wait_mode, e->wait_index, e->wait_lane,
		       e->wait_threshold, e->wait_current);
	}
}

/* Poll the status of @id until engine @engine blocks; return the report. */
static inline void wait_blocked(struct __test_metadata *_metadata,
			 struct ncsync_dev *dev, uint32_t id, uint8_t engine,
			 struct ncsync_prog_status *st)
{
	int64_t end = now_ns() + LONG_MS * NSEC_PER_MSEC;
	const struct ncsync_engine_status *e;

	for (;;) {
		status_get(_metadata, dev, id, st, NULL);
		e = eng_status(st, engine);
		ASSERT_NE(NULL, e);
		if (e->state == NCSYNC_ENG_BLOCKED)
			return;
		if (now_ns() > end) {
			status_log(_metadata, st);
			ASSERT_EQ(NCSYNC_ENG_BLOCKED, e->state)
				TH_LOG("engine %u never blocked", engine);
		}
		sleep_ms(5);
	}
}

/* The value of semaphore @idx in a status report's list (0 if absent). */
static inline int32_t snap_sem(const struct ncsync_sem_value *sems, uint32_t n,
			uint32_t idx, bool *found)
{
	uint32_t i;

	*found = false;
	for (i = 0; i < n; i++) {
		if (sems[i].index == idx) {
			*found = true;
			return sems[i].value;
		}
	}
	return 0;
}

/* A thread waiting for a program to end (ncsync_program_wait()). */
struct prog_waiter {
	struct ncsync_dev *dev;
	uint32_t id;
	int ret;
	int done;
};

static inline void *prog_waiter_fn(void *arg)
{
	struct prog_waiter *w = arg;
	struct timespec dl = deadline_ms(LONG_MS);

	w->ret = ncsync_program_wait(w->dev, w->id, &dl, NULL);
	__atomic_store_n(&w->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

/* ---------------------------------------------------------------------- */
/* Barrier loops                                                           */

enum barrier_kind {
	BK_SYNC,	/* ncsync_add_sync_barrier() */
	BK_COUNTER,	/* all-engine barrier, NCSYNC_LOWER_COUNTER */
	BK_EVENTS,	/* all-engine barrier, NCSYNC_LOWER_EVENTS */
	BK_NONE,	/* no barrier: the negative control of the check */
	/* a sync barrier then an all-engine barrier, NCSYNC_LOWER_EVENTS */
	BK_MIXED,
};

#define ALL_ENGINES	NCSYNC_ENGINE_MASK

/**
 * struct barrier_loop - a counted barrier loop over some engines.
 * @n: the number of engines.
 * @eng: the engines, in id order (the order of a status report).
 * @cnt: first of the @n pass counters, one per engine (@eng order).
 * @fail: incremented by an engine whose check fails, before it halts.
 * @gate: the semaphore the first engine waits >= 1 on first, or -1.
 */
struct barrier_loop {
	unsigned int n;
	uint8_t eng[NCSYNC_NUM_ENGINES];
	int cnt;
	int fail;
	int gate;
};

/*
 * Fill @bl with the engines of @mask; reserve the runtime's slice of
 * @prog, skip @skip semaphores and allocate the counters, fail and gate.
 */
static inline void barrier_loop_alloc(struct __test_metadata *_metadata,
			       struct ncsync_program *prog,
			       const struct ncsync_info *info,
			       unsigned int mask, unsigned int skip,
			       bool gate, struct barrier_loop *bl)
{
	unsigned int k, n = 0;

	for (k = 0; k < NCSYNC_NUM_ENGINES; k++)
		if (mask & (1U << engine_ids[k]))
			bl->eng[n++] = engine_ids[k];
	ASSERT_LT(0U, n);
	bl->n = n;
	ASSERT_EQ(0, ncsync_program_set_reserved(prog,
						 info->rt_reserved_sem_first,
						 info->rt_reserved_sem_count,
						 info->rt_reserved_event_first,
						 info->rt_reserved_event_count));
	if (skip)
		ADD(ncsync_sem_alloc(prog, skip));
	bl->cnt = ncsync_sem_alloc(prog, n);
	ADD(bl->cnt);
	bl->fail = ncsync_sem_alloc(prog, 1);
	ADD(bl->fail);
	bl->gate = -1;
	if (gate) {
		bl->gate = ncsync_sem_alloc(prog, 1);
		ADD(bl->gate);
	}
}

/* Add the barrier of @kind (none for BK_NONE) to every stream of @prog. */
static inline void barrier_loop_barrier(struct __test_metadata *_metadata,
				 struct ncsync_program *prog,
				 enum barrier_kind kind)
{
	switch (kind) {
	case BK_SYNC:
		ASSERT_EQ(0, ncsync_add_sync_barrier(prog));
		break;
	case BK_COUNTER:
	case BK_EVENTS:
		ASSERT_EQ(0, ncsync_add_all_engine_barrier(prog, NULL));
		break;
	case BK_MIXED:
		ASSERT_EQ(0, ncsync_add_sync_barrier(prog));
		ASSERT_EQ(0, ncsync_add_all_engine_barrier(prog, NULL));
		break;
	case BK_NONE:
		break;
	}
}

/*
 * Add engine @k's checks after the barrier, its count, the loop's branch
 * back to @loop, the exit and the @fail path to stream @q.
 */
static inline void barrier_loop_pass_end(struct __test_metadata *_metadata,
				  struct ncsync_stream *q,
				  const struct barrier_loop *bl,
				  unsigned int k, unsigned int iters,
				  int loop, int fail)
{
	unsigned int j, n = bl->n;

	ADD(ncsync_add_poll_sem(q, NCSYNC_POLL_MIN, 2, bl->cnt, n, NULL));
	ADD(ncsync_add_branch_reg(q, NCSYNC_BR_LT, NCSYNC_DTYPE_S32,
				  2, 1, fail, NULL));
	ADD(ncsync_add_mov32(q, NCSYNC_ALU_ADD_IMM, 3, 1, 1, NULL));
	for (j = 0; j < n; j++) {
		ADD(ncsync_add_poll_sem(q, NCSYNC_POLL_MIN, 4,
					bl->cnt + j, 1, NULL));
		ADD(ncsync_add_branch_reg(q, NCSYNC_BR_GT,
					  NCSYNC_DTYPE_S32, 4, 3,
					  fail, NULL));
	}
	ADD(ncsync_add_semaphore_inc(q, bl->cnt + k));
	ADD(ncsync_add_mov32(q, NCSYNC_ALU_ADD_IMM, 1, 1, 1, NULL));
	ADD(ncsync_add_branch_imm(q, NCSYNC_BR_LT, NCSYNC_DTYPE_U32,
				  1, iters, loop, NULL));
	ADD(ncsync_add_exit(q, NULL));
	ADD(ncsync_label_bind(q, fail));
	ADD(ncsync_add_semaphore_inc(q, bl->fail));
	ADD(ncsync_add_halt(q, NULL));
}

/* Lower the barriers of @prog as @kind asks (sync barriers stay). */
static inline void barrier_loop_lower(struct __test_metadata *_metadata,
			       struct ncsync_program *prog,
			       enum barrier_kind kind)
{
	switch (kind) {
	case BK_COUNTER:
		ASSERT_EQ(0, ncsync_program_lower(prog, NCSYNC_LOWER_COUNTER));
		break;
	case BK_EVENTS:
	case BK_MIXED:
		ASSERT_EQ(0, ncsync_program_lower(prog, NCSYNC_LOWER_EVENTS));
		break;
	default:
		break;
	}
}

/*
 * Build, on the engines of @mask, with r1 the pass number i (from 0):
 *
 *	movi r1, 0
 * loop:
 *	BARRIER
 *	poll min r2, cnt[0..n-1]	every engine arrived at pass i, so
 *	br.lt.s32 r2, r1, fail		  each counted i passes at least
 *	addi r3, r1, 1
 *	poll min r4, cnt[j]		no engine is past pass i + 1: none
 *	br.gt.s32 r4, r3, fail		  counted more than i + 1 (each j)
 *	cnt[k]++
 *	addi r1, r1, 1
 *	br.lt.u32 r1, ITERS, loop
 *	exit
 * fail:
 *	fail++
 *	halt
 *
 * A barrier that lets an engine run two passes ahead, or passes an engine
 * before all have arrived, makes some engine's check fail: the program
 * ends HALTED (or, with the event lowering whose epilogue a halted engine
 * skips, TIMED_OUT) with @fail non-zero, instead of DONE.  @skip
 * semaphores are allocated first, so that programs that run back to back
 * or at the same time use different counters.
 */
static inline void build_barrier_loop(struct __test_metadata *_metadata,
			       struct ncsync_program *prog,
			       const struct ncsync_info *info,
			       enum barrier_kind kind, unsigned int mask,
			       unsigned int iters, unsigned int skip,
			       bool gate, struct barrier_loop *bl)
{
	struct ncsync_stream *q[NCSYNC_NUM_ENGINES];
	int loop[NCSYNC_NUM_ENGINES], fail[NCSYNC_NUM_ENGINES];
	unsigned int k, n;

	barrier_loop_alloc(_metadata, prog, info, mask, skip, gate, bl);
	n = bl->n;

	/* Every stream exists before the first barrier. */
	for (k = 0; k < n; k++) {
		q[k] = stream(_metadata, prog, bl->eng[k]);
		loop[k] = ncsync_label_new(prog);
		ADD(loop[k]);
		fail[k] = ncsync_label_new(prog);
		ADD(fail[k]);
		if (gate && k == 0)
			ADD(ncsync_add_semaphore_wait_ge(q[k], bl->gate, 1));
		ADD(ncsync_add_mov32_imm(q[k], 1, 0, NULL));
		ADD(ncsync_label_bind(q[k], loop[k]));
	}

	barrier_loop_barrier(_metadata, prog, kind);

	for (k = 0; k < n; k++)
		barrier_loop_pass_end(_metadata, q[k], bl, k, iters, loop[k],
				      fail[k]);

	barrier_loop_lower(_metadata, prog, kind);
	ASSERT_EQ(0, ncsync_program_finalize(prog));
}

/* Check a barrier loop that must have completed; log it if it did not. */
static inline void check_barrier_loop(struct __test_metadata *_metadata,
			       struct ncsync_dev *dev, uint32_t id,
			       const struct barrier_loop *bl,
			       unsigned int iters)
{
	struct ncsync_prog_status st;
	unsigned int k;
	int state;

	state = wait_end(_metadata, dev, id);
	status_get(_metadata, dev, id, &st, NULL);
	if (state != NCSYNC_PROG_DONE) {
		status_log(_metadata, &st);
		for (k = 0; k < bl->n; k++)
			TH_LOG("  pass counter of %s: %d",
			       ncsync_engine_name(bl->eng[k]),
			       ncsync_sem_read(dev, bl->cnt + k));
		TH_LOG("  failed checks: %d", ncsync_sem_read(dev, bl->fail));
	}
	ASSERT_EQ(NCSYNC_PROG_DONE, state);
	EXPECT_EQ(0, ncsync_sem_read(dev, bl->fail));
	ASSERT_EQ(bl->n, st.nengines);
	for (k = 0; k < bl->n; k++) {
		EXPECT_EQ((int32_t)iters, ncsync_sem_read(dev, bl->cnt + k))
			TH_LOG("engine %u", bl->eng[k]);
		EXPECT_EQ(bl->eng[k], st.engines[k].engine);
		EXPECT_EQ(NCSYNC_ENG_DONE, st.engines[k].state);
	}
}

/* The slot of a datapath engine (Pool 0, Act 1, PE 2, DVE 3, SP 4). */
static inline unsigned int engine_slot(uint8_t engine)
{
	return engine < NCSYNC_ENGINE_DMA ? engine - 1U : engine - 2U;
}

/*
 * C0, the first counter of the counter form: reserved first + 2 * slot of
 * the lowest engine (Documentation/ncsync/barriers.rst).  After a program
 * of P passes on N engines it holds N * P: every program starts it at 0.
 */
static inline unsigned int counter_of(const struct ncsync_info *info,
			       unsigned int mask)
{
	return info->rt_reserved_sem_first +
	       2 * engine_slot(__builtin_ctz(mask));
}

/* The counter of the counter form on all five engines: Pool's. */
static inline unsigned int barrier_counter(const struct ncsync_info *info)
{
	return counter_of(info, ALL_ENGINES);
}

static inline void check_event_bits_clear(struct __test_metadata *_metadata,
				   struct ncsync_dev *dev,
				   const struct ncsync_info *info)
{
	unsigned int i;

	for (i = 0; i < 3 * NCSYNC_NUM_ENGINES; i++)
		EXPECT_FALSE(ncsync_event_read(dev,
					       info->rt_reserved_event_first + i))
			TH_LOG("barrier event %u left set",
			       info->rt_reserved_event_first + i);
}

#endif /* NCSYNC_LIB_H */
