// SPDX-License-Identifier: GPL-2.0
/*
 * ncsync selftests: programs of 64-byte engine records (NCSYNC_IOC_SUBMIT,
 * NCSYNC_IOC_PROG_*), run by the datapath engines of core 0.
 *
 * Every record is encoded byte by byte by ncsync_rec.h, at the offsets of
 * Documentation/ncsync/records.rst (from the seeds' byte maps, or
 * model-defined: Mov32, PollSem, DMA); no library builder is used.  The
 * refused records are the shared bad-record table (bad_records.h).
 *
 * Every test of the "core" fixture starts from a freshly reset core 0.  Run
 * inside the test VM:  tools/vm-run build/selftests/ncsync_engine_test
 *
 * Programs that must end get a long watchdog (WD_LONG) and are waited for
 * with a long deadline (LONG_MS), so that a lost wake-up fails instead of
 * hanging; programs that must time out get a short watchdog.  No test
 * asserts an upper bound on any duration.
 */
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
#include <sys/ioctl.h>
#include <sys/epoll.h>
#include <sys/mman.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/ncsync.h>

#include "kselftest_harness.h"
#include "ncsync_selftest.h"
#include "ncsync_rec.h"
#include "bad_records.h"
#include "conform_records.h"

#define DEV0		"/dev/ncsync0"

#define EVT(i)		(NCSYNC_CSR_EVENTS + 4 * (i))
#define SEM_RD(i)	(NCSYNC_CSR_SEM_READ + 4 * (i))
#define SEM_SET(i)	(NCSYNC_CSR_SEM_SET + 4 * (i))
#define SEM_INC(i)	(NCSYNC_CSR_SEM_INC + 4 * (i))

#define LONG_MS		20000	/* deadline of a wait that must end */
#define WD_LONG		20000	/* watchdog of a program that must not time out */
#define WD_SHORT	200	/* watchdog of a program that must time out */

#define NSEC_PER_SEC	1000000000LL
#define NSEC_PER_MSEC	1000000LL

#define REC		NCSYNC_RECORD_SIZE

/* Wire values of records.rst / SYNC, spelled out as the seeds give them. */
#define W_EQ		0x01
#define W_LT		0x02
#define W_LE		0x03
#define W_GT		0x04
#define W_GE		0x05
#define W_EVT_SET	0x06
#define W_EVT_SET_CLR	0x07
#define W_EVT_CLR	0x0E
#define W_EVT_CLR_SET	0x0F
#define W_REG		0x80

#define U_EVT_SET	0x01
#define U_EVT_CLR	0x02
#define U_INC		0x03
#define U_DEC		0x04
#define U_ADD		0x05
#define U_SUB		0x07
#define U_WRITE		0x09
#define U_COMPLETE	0x10
#define U_REG		0x80

static const __u8 engine_ids[NCSYNC_NUM_ENGINES] = { 1, 2, 3, 5, 6 };

/* ---------------------------------------------------------------------- */
/* Records of this test (ncsync_rec.h has the record families)             */

/* NoOp writing register @reg into @sem (update 0x89, register operand). */
static __u8 *rec_store_reg(struct rec_queue *q, __u8 sem, __u8 reg)
{
	return rec_noop(q, 0, 0, U_REG | U_WRITE, sem, reg);
}

static __u8 *rec_movi(struct rec_queue *q, __u8 dst, __u32 imm)
{
	return rec_mov(q, NCSYNC_ALU_MOV_IMM, dst, 0, imm);
}

/* ---------------------------------------------------------------------- */
/* ioctl helpers                                                           */

static int submit_raw(int fd, struct ncsync_submit *sub)
{
	return ioctl(fd, NCSYNC_IOC_SUBMIT, sub) ? -errno : 0;
}

static __u32 submit_ok(struct __test_metadata *_metadata, int fd,
		       const struct rec_prog *p, __u32 flags, __u32 wd)
{
	struct ncsync_submit sub;
	int ret = rec_prog_submit(fd, p, flags, wd, &sub);

	ASSERT_EQ(0, ret) TH_LOG("SUBMIT: %s (engine %u record %u reason %u)",
				 strerror(-ret), sub.bad_engine, sub.bad_index,
				 sub.reason);
	ASSERT_NE(0, (int)sub.id);
	return sub.id;
}

/* Wait for a program to end; return its final state. */
static int wait_end(struct __test_metadata *_metadata, int fd, __u32 id)
{
	__u32 state = ~0U;
	int ret = prog_wait(fd, id, LONG_MS, &state);

	ASSERT_EQ(0, ret) TH_LOG("PROG_WAIT %u: %s", id, strerror(-ret));
	return (int)state;
}

static int status_raw(int fd, __u32 id, __u32 flags,
		      struct ncsync_prog_status *ps,
		      struct ncsync_sem_value *sems)
{
	memset(ps, 0, sizeof(*ps));
	ps->id = id;
	ps->flags = flags;
	ps->sems = (uintptr_t)sems;
	return ioctl(fd, NCSYNC_IOC_PROG_STATUS, ps) ? -errno : 0;
}

static void status_get(struct __test_metadata *_metadata, int fd, __u32 id,
		       struct ncsync_prog_status *ps,
		       struct ncsync_sem_value *sems)
{
	int ret = status_raw(fd, id, 0, ps, sems);

	ASSERT_EQ(0, ret) TH_LOG("PROG_STATUS %u: %s", id, strerror(-ret));
}

/* Poll until engine @e (submission order) of a running program is @state. */
static void wait_engine(struct __test_metadata *_metadata, int fd, __u32 id,
			unsigned int e, __u8 state,
			struct ncsync_prog_status *out)
{
	__s64 end = now_ns() + LONG_MS * NSEC_PER_MSEC;
	struct ncsync_prog_status ps;

	for (;;) {
		status_get(_metadata, fd, id, &ps, NULL);
		if (ps.engines[e].state == state)
			break;
		ASSERT_GT(NCSYNC_PROG_DONE, (int)ps.state)
			TH_LOG("program %u ended (state %u) before engine %u reached state %u",
			       id, ps.state, e, state);
		ASSERT_GT(end, now_ns())
			TH_LOG("engine %u of program %u never reached state %u (%u)",
			       e, id, state, ps.engines[e].state);
		usleep(1000);
	}
	if (out)
		*out = ps;
}

static void wait_blocked(struct __test_metadata *_metadata, int fd, __u32 id,
			 unsigned int e, struct ncsync_prog_status *out)
{
	wait_engine(_metadata, fd, id, e, NCSYNC_ENG_BLOCKED, out);
}

static int cancel(int fd, __u32 id, __u32 flags)
{
	struct ncsync_prog_cancel pc = { .id = id, .flags = flags };

	return ioctl(fd, NCSYNC_IOC_PROG_CANCEL, &pc) ? -errno : 0;
}

static void core_reset(struct __test_metadata *_metadata, int fd)
{
	struct ncsync_reset r = { 0 };

	ASSERT_EQ(0, ioctl(fd, NCSYNC_IOC_RESET, &r))
		TH_LOG("RESET: %s", strerror(errno));
}

static __s32 sem_get(struct __test_metadata *_metadata, int fd, unsigned int i)
{
	__s32 v = 0;

	ASSERT_EQ(4, pread(fd, &v, 4, SEM_RD(i)))
		TH_LOG("pread sem %u: %s", i, strerror(errno));
	return v;
}

static void sem_set(struct __test_metadata *_metadata, int fd, unsigned int i,
		    __s32 v)
{
	ASSERT_EQ(4, pwrite(fd, &v, 4, SEM_SET(i)))
		TH_LOG("pwrite sem %u: %s", i, strerror(errno));
}

static void sems_get(struct __test_metadata *_metadata, int fd, __s32 *v)
{
	ASSERT_EQ(1024, pread(fd, v, 1024, SEM_RD(0)));
}

static void sems_set(struct __test_metadata *_metadata, int fd,
		     const __s32 *v)
{
	ASSERT_EQ(1024, pwrite(fd, v, 1024, SEM_SET(0)));
}

static int evt_get(struct __test_metadata *_metadata, int fd, unsigned int i)
{
	__u32 v = 0;

	ASSERT_EQ(4, pread(fd, &v, 4, EVT(i)));
	return v;
}

static void evt_set(struct __test_metadata *_metadata, int fd, unsigned int i,
		    bool set)
{
	__u32 v = set;

	ASSERT_EQ(4, pwrite(fd, &v, 4, EVT(i)));
}

static int sem_wait_ioctl(int fd, unsigned int i, __u8 mode, __s32 value,
			  int ms)
{
	struct ncsync_wait w = {
		.bank = NCSYNC_BANK_SEM, .mode = mode, .index = i,
		.value = value, .deadline = deadline_ms(ms),
	};

	return ioctl(fd, NCSYNC_IOC_WAIT, &w) ? -errno : 0;
}

static void stats_get(struct __test_metadata *_metadata, int fd,
		      struct ncsync_stats *st)
{
	ASSERT_EQ(0, ioctl(fd, NCSYNC_IOC_STATS, st));
}

/* ---------------------------------------------------------------------- */
/* The fixture                                                             */

FIXTURE(core) {
	int fd;
};

FIXTURE_SETUP(core)
{
	self->fd = open(DEV0, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, self->fd) TH_LOG("open %s: %s", DEV0, strerror(errno));
	core_reset(_metadata, self->fd);
}

FIXTURE_TEARDOWN(core)
{
	if (self->fd >= 0)
		close(self->fd);
}

/* ---------------------------------------------------------------------- */
/* Every op                                                                */

/*
 * One EventSemaphore: lane 0 waits for E set-then-clear and sets E again,
 * lane 1 waits for E clear and increments S.  It completes only if lane 0's
 * wait (and its clear) comes before lane 1's wait, and the updates after
 * both waits (lane 0's set before lane 1's wait would block it for ever).
 */
TEST_F(core, evsem_waits_in_lane_order_then_updates)
{
	const int e = 9, s = 4;
	struct ncsync_stats st0, st1;
	struct rec_prog p = {};
	struct rec_queue *q;
	__u8 *r;
	__u32 id;

	evt_set(_metadata, self->fd, e, true);
	stats_get(_metadata, self->fd, &st0);
	q = rec_prog_queue(&p, NCSYNC_ENGINE_POOL);
	r = rec_evsem(q);
	rec_lane0(r, W_EVT_SET_CLR, e, U_COMPLETE | U_EVT_SET, e, 0);
	rec_lane1(r, W_EVT_CLR, e, U_COMPLETE | U_INC, s, 0, 1);
	id = submit_ok(_metadata, self->fd, &p, 0, WD_LONG);
	ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->fd, id));
	EXPECT_EQ(1, evt_get(_metadata, self->fd, e));
	EXPECT_EQ(1, sem_get(_metadata, self->fd, s));
	stats_get(_metadata, self->fd, &st1);
	EXPECT_EQ(st0.event_set_while_set, st1.event_set_while_set);
	EXPECT_EQ(st0.event_clear_while_clear, st1.event_clear_while_clear);
	rec_prog_free(&p);
}

/* With both waits unsatisfied, the engine blocks in lane 0 first. */
TEST_F(core, evsem_lane0_wait_before_lane1_wait)
{
	const int a = 10, b = 11, c = 12;
	struct ncsync_prog_status ps;
	struct rec_prog p = {};
	struct rec_queue *q;
	__u8 *r;
	__u32 id;

	q = rec_prog_queue(&p, NCSYNC_ENGINE_ACT);
	r = rec_evsem(q);
	rec_lane0(r, W_EQ, a, 0, 0, 1);
	rec_lane1(r, W_EQ, b, U_COMPLETE | U_INC, c, 1, 1);
	id = submit_ok(_metadata, self->fd, &p, 0, WD_LONG);

	wait_blocked(_metadata, self->fd, id, 0, &ps);
	EXPECT_EQ(0, ps.engines[0].wait_lane);
	EXPECT_EQ(a, ps.engines[0].wait_index);
	sem_set(_metadata, self->fd, b, 1);
	sleep_ms(30);
	wait_blocked(_metadata, self->fd, id, 0, &ps);
	EXPECT_EQ(0, ps.engines[0].wait_lane);
	EXPECT_EQ(a, ps.engines[0].wait_index);
	EXPECT_EQ(0, sem_get(_metadata, self->fd, c));
	sem_set(_metadata, self->fd, a, 1);
	ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->fd, id));
	EXPECT_EQ(1, sem_get(_metadata, self->fd, c));

	/* lane 0 satisfied, lane 1 not: it blocks in lane 1 */
	sem_set(_metadata, self->fd, b, 0);
	id = submit_ok(_metadata, self->fd, &p, 0, WD_LONG);
	wait_blocked(_metadata, self->fd, id, 0, &ps);
	EXPECT_EQ(1, ps.engines[0].wait_lane);
	EXPECT_EQ(b, ps.engines[0].wait_index);
	sem_set(_metadata, self->fd, b, 1);
	ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->fd, id));
	EXPECT_EQ(2, sem_get(_metadata, self->fd, c));
	rec_prog_free(&p);
}

TEST_F(core, halt_ends_program_halted)
{
	const int s = 3, t = 4, u = 5;
	struct ncsync_prog_status ps;
	struct rec_prog p = {};
	struct rec_queue *q;
	__u32 id;

	q = rec_prog_queue(&p, NCSYNC_ENGINE_POOL);
	rec_inc(q, s);
	rec_lane0(rec_halt(q), 0, 0, U_INC, u, 0);	/* its update runs */
	rec_inc(q, s);
	rec_inc(q, s);
	q = rec_prog_queue(&p, NCSYNC_ENGINE_DVE);
	rec_inc(q, t);
	rec_inc(q, t);
	id = submit_ok(_metadata, self->fd, &p, 0, WD_LONG);
	ASSERT_EQ(NCSYNC_PROG_HALTED, wait_end(_metadata, self->fd, id));
	status_get(_metadata, self->fd, id, &ps, NULL);
	EXPECT_EQ(NCSYNC_PROG_HALTED, (int)ps.state);
	EXPECT_EQ(2, (int)ps.nengines);
	EXPECT_EQ(NCSYNC_ENGINE_POOL, ps.engines[0].engine);
	EXPECT_EQ(NCSYNC_ENG_HALTED, ps.engines[0].state);
	EXPECT_EQ(NCSYNC_FAULT_NONE, ps.engines[0].fault);
	EXPECT_EQ(1, (int)ps.engines[0].pc);	/* the Halt */
	EXPECT_EQ(2, (int)ps.engines[0].executed);
	EXPECT_EQ(NCSYNC_ENGINE_DVE, ps.engines[1].engine);
	EXPECT_EQ(NCSYNC_ENG_DONE, ps.engines[1].state);
	EXPECT_EQ(1, sem_get(_metadata, self->fd, s));
	EXPECT_EQ(2, sem_get(_metadata, self->fd, t));
	EXPECT_EQ(1, sem_get(_metadata, self->fd, u));
	rec_prog_free(&p);
}

TEST_F(core, exit_ends_queue_done)
{
	const int s = 3, u = 4;
	struct ncsync_prog_status ps;
	struct rec_prog p = {};
	struct rec_queue *q;
	__u32 id;

	q = rec_prog_queue(&p, NCSYNC_ENGINE_SP);
	rec_inc(q, s);
	rec_lane0(rec_exit(q), 0, 0, U_INC, u, 0);	/* its update runs */
	rec_inc(q, s);
	id = submit_ok(_metadata, self->fd, &p, 0, WD_LONG);
	ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->fd, id));
	status_get(_metadata, self->fd, id, &ps, NULL);
	EXPECT_EQ(NCSYNC_ENG_DONE, ps.engines[0].state);
	EXPECT_EQ(1, (int)ps.engines[0].pc);	/* the Exit */
	EXPECT_EQ(2, (int)ps.engines[0].executed);
	EXPECT_EQ(1, sem_get(_metadata, self->fd, s));
	EXPECT_EQ(1, sem_get(_metadata, self->fd, u));
	rec_prog_free(&p);
}

/* A queue that runs past its last record ends DONE with pc == count. */
TEST_F(core, queue_end_done_status)
{
	struct ncsync_prog_status ps;
	struct rec_prog p = {};
	unsigned int i;
	__u32 id;

	/* submission order, not engine order, is the order of the status */
	for (i = 0; i < 3; i++) {
		struct rec_queue *q = rec_prog_queue(&p, engine_ids[4 - 2 * i]);
		unsigned int k;

		for (k = 0; k <= i; k++)
			rec_inc(q, 20 + i);
	}
	id = submit_ok(_metadata, self->fd, &p, 0, WD_LONG);
	ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->fd, id));
	status_get(_metadata, self->fd, id, &ps, NULL);
	ASSERT_EQ(3, (int)ps.nengines);
	for (i = 0; i < 3; i++) {
		EXPECT_EQ(engine_ids[4 - 2 * i], ps.engines[i].engine);
		EXPECT_EQ(NCSYNC_ENG_DONE, ps.engines[i].state);
		EXPECT_EQ(NCSYNC_FAULT_NONE, ps.engines[i].fault);
		EXPECT_EQ(i + 1, ps.engines[i].pc);
		EXPECT_EQ((int)i + 1, (int)ps.engines[i].executed);
		EXPECT_EQ((int)i + 1, sem_get(_metadata, self->fd, 20 + i));
	}
	rec_prog_free(&p);
}

/* Run a program of @n engines, one inc each, to its end; return its id. */
static __u32 run_incs(struct __test_metadata *_metadata, int fd,
		      unsigned int n)
{
	struct rec_prog p = {};
	unsigned int i;
	__u32 id;

	for (i = 0; i < n; i++)
		rec_inc(rec_prog_queue(&p, engine_ids[i]), 30 + i);
	id = submit_ok(_metadata, fd, &p, 0, WD_LONG);
	rec_prog_free(&p);
	EXPECT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, fd, id));
	return id;
}

/*
 * The engines a program has no queue for read as zero in its status, also
 * when the kernel memory of its snapshot held a wider program's before.
 */
TEST_F(core, status_unused_engines_zero_after_wider_program)
{
	static const struct ncsync_engine_status zero;
	struct ncsync_prog_status ps;
	unsigned int round, i;
	__u32 id;

	for (round = 0; round < 8; round++) {
		id = run_incs(_metadata, self->fd, NCSYNC_NUM_ENGINES);
		ASSERT_EQ(0, status_raw(self->fd, id, NCSYNC_STATUS_F_RELEASE,
					&ps, NULL));
		ASSERT_EQ(NCSYNC_NUM_ENGINES, (int)ps.nengines);
		id = run_incs(_metadata, self->fd, 1);
		status_get(_metadata, self->fd, id, &ps, NULL);
		ASSERT_EQ(1, (int)ps.nengines);
		EXPECT_EQ(1, (int)ps.engines[0].executed);
		for (i = 1; i < NCSYNC_NUM_ENGINES; i++) {
			EXPECT_EQ(0, memcmp(&zero, &ps.engines[i], sizeof(zero)))
				TH_LOG("round %u: engines[%u] is not zero",
				       round, i);
		}
		ASSERT_EQ(0, status_raw(self->fd, id, NCSYNC_STATUS_F_RELEASE,
					&ps, NULL));
	}
}

TEST_F(core, drain_without_copies_passes)
{
	const int s = 5;
	struct rec_prog p = {};
	struct rec_queue *q;
	__u32 id;

	q = rec_prog_queue(&p, NCSYNC_ENGINE_PE);
	rec_drain(q);
	rec_inc(q, s);
	rec_drain(q);
	id = submit_ok(_metadata, self->fd, &p, 0, WD_LONG);
	ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->fd, id));
	EXPECT_EQ(1, sem_get(_metadata, self->fd, s));
	rec_prog_free(&p);
}

/* A NoOp carries a wait and an update in its events block (ENC 8). */
TEST_F(core, noop_events_block_wait_and_update)
{
	const int s = 6, t = 7, e = 8, f = 9;
	struct ncsync_prog_status ps;
	struct rec_prog p = {};
	struct rec_queue *q;
	__u32 id;

	q = rec_prog_queue(&p, NCSYNC_ENGINE_POOL);
	rec_noop(q, W_GE, s, U_INC, t, 3);
	rec_noop(q, W_EVT_SET, e, U_EVT_SET, f, 0);
	id = submit_ok(_metadata, self->fd, &p, 0, WD_LONG);

	wait_blocked(_metadata, self->fd, id, 0, &ps);
	EXPECT_EQ(0, (int)ps.engines[0].pc);
	EXPECT_EQ(NCSYNC_BLOCK_SEM, ps.engines[0].wait_kind);
	EXPECT_EQ(W_GE, ps.engines[0].wait_mode);
	EXPECT_EQ(s, ps.engines[0].wait_index);
	EXPECT_EQ(0, ps.engines[0].wait_lane);
	EXPECT_EQ(3, ps.engines[0].wait_threshold);
	sem_set(_metadata, self->fd, s, 2);
	sleep_ms(20);
	EXPECT_EQ(0, sem_get(_metadata, self->fd, t));
	sem_set(_metadata, self->fd, s, 3);

	/* now in the second NoOp, on the event */
	for (;;) {
		wait_blocked(_metadata, self->fd, id, 0, &ps);
		if (ps.engines[0].pc == 1)
			break;
		usleep(1000);
	}
	EXPECT_EQ(NCSYNC_BLOCK_EVENT, ps.engines[0].wait_kind);
	EXPECT_EQ(W_EVT_SET, ps.engines[0].wait_mode);
	EXPECT_EQ(e, ps.engines[0].wait_index);
	EXPECT_EQ(0, ps.engines[0].wait_current);
	EXPECT_EQ(1, sem_get(_metadata, self->fd, t));
	EXPECT_EQ(0, evt_get(_metadata, self->fd, f));
	evt_set(_metadata, self->fd, e, true);
	ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->fd, id));
	EXPECT_EQ(1, evt_get(_metadata, self->fd, f));
	EXPECT_EQ(1, evt_get(_metadata, self->fd, e));	/* 0x06 does not clear */
	EXPECT_EQ(3, sem_get(_metadata, self->fd, s));	/* a wait is a poll */
	rec_prog_free(&p);
}

/*
 * EngineNop (0x9F) runs as a NoOp (records.rst, "EngineNop"): the layout
 * of a NoOp, its events block's wait and update, no effect of its own.
 */
TEST_F(core, engine_nop_runs_as_noop)
{
	struct rec_prog p = {};
	struct rec_queue *q = rec_prog_queue(&p, NCSYNC_ENGINE_POOL);
	struct ncsync_prog_status ps;
	const int s = 6, t = 7;
	__u32 id;

	rec_noop(q, W_GE, s, U_INC, t, 1)[0] = 0x9F;
	rec_noop(q, 0, 0, U_INC, t, 0)[0] = 0x9F;
	id = submit_ok(_metadata, self->fd, &p, 0, WD_LONG);

	wait_blocked(_metadata, self->fd, id, 0, &ps);
	EXPECT_EQ(0, (int)ps.engines[0].pc);
	EXPECT_EQ(NCSYNC_BLOCK_SEM, ps.engines[0].wait_kind);
	EXPECT_EQ(s, ps.engines[0].wait_index);
	EXPECT_EQ(0, sem_get(_metadata, self->fd, t));
	sem_set(_metadata, self->fd, s, 1);
	ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->fd, id));
	EXPECT_EQ(2, sem_get(_metadata, self->fd, t));
	EXPECT_EQ(1, sem_get(_metadata, self->fd, s));
	rec_prog_free(&p);
}

/* Mov32: every NCSYNC_ALU_* operation; results stored with update 0x89. */
TEST_F(core, mov32_alu_operations)
{
	static const struct {
		__u8 reg;
		__u32 expect;
	} out[] = {
		{ 1, 0x12345678 }, { 2, 0x12345678 }, { 3, 0x23456789 },
		{ 4, 0x12345682 }, { 5, 0xFFFFFFFF }, { 6, (__u32)-30 },
		{ 7, 130 }, { 8, 0x12005600 }, { 9, 0x1234567F },
		{ 10, 0xEDCBA987 }, { 11, 0x23456780 }, { 12, 0x23456780 },
		{ 13, 0x08000000 }, { 14, 0x00123456 }, { 31, 0xCAFEF00D },
		{ 0, 0x12345678 },
	};
	struct rec_prog p = {};
	struct rec_queue *q;
	unsigned int i;
	__u32 id;

	q = rec_prog_queue(&p, NCSYNC_ENGINE_ACT);
	rec_movi(q, 1, 0x12345678);				/* r1 = imm */
	rec_mov(q, NCSYNC_ALU_MOV, 2, 1, 0);			/* r2 = r1 */
	rec_mov(q, NCSYNC_ALU_ADD_IMM, 3, 1, 0x11111111);	/* r3 = r1 + i */
	rec_movi(q, 4, 10);
	rec_mov(q, NCSYNC_ALU_ADD, 4, 1, 0);			/* r4 += r1 */
	rec_mov(q, NCSYNC_ALU_SUB_IMM, 5, 1, 0x12345679);	/* wraps */
	rec_movi(q, 6, 100);
	rec_movi(q, 7, 130);
	rec_mov(q, NCSYNC_ALU_SUB, 6, 7, 0);			/* r6 -= r7 */
	rec_mov(q, NCSYNC_ALU_AND_IMM, 8, 1, 0xFF00FF00);
	rec_mov(q, NCSYNC_ALU_OR_IMM, 9, 1, 0x0F);
	rec_mov(q, NCSYNC_ALU_XOR_IMM, 10, 1, 0xFFFFFFFF);
	rec_mov(q, NCSYNC_ALU_SHL_IMM, 11, 1, 4);
	rec_mov(q, NCSYNC_ALU_SHL_IMM, 12, 1, 36);		/* imm & 31 */
	rec_movi(q, 13, 0x80000000);
	rec_mov(q, NCSYNC_ALU_SHR_IMM, 13, 13, 4);		/* logical */
	rec_mov(q, NCSYNC_ALU_SHR_IMM, 14, 1, 8);
	rec_movi(q, 31, 0xCAFEF00D);
	rec_mov(q, NCSYNC_ALU_MOV, 0, 1, 0);
	for (i = 0; i < ARRAY_SIZE(out); i++)
		rec_store_reg(q, 100 + i, out[i].reg);
	id = submit_ok(_metadata, self->fd, &p, 0, WD_LONG);
	ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->fd, id));
	for (i = 0; i < ARRAY_SIZE(out); i++)
		EXPECT_EQ(out[i].expect,
			  (__u32)sem_get(_metadata, self->fd, 100 + i))
			TH_LOG("register r%u", out[i].reg);
	rec_prog_free(&p);
}

TEST_F(core, branch_unconditional)
{
	const int a = 1, b = 2, x = 3;
	struct rec_prog p = {};
	struct rec_queue *q;
	__u32 id;

	q = rec_prog_queue(&p, NCSYNC_ENGINE_SP);
	rec_jmp(q, 3);		/* 0: forward */
	rec_inc(q, b);		/* 1 */
	rec_jmp(q, 6);		/* 2 */
	rec_inc(q, a);		/* 3 */
	rec_jmp(q, 1);		/* 4: backward */
	rec_inc(q, x);		/* 5: never */
	rec_exit(q);		/* 6 */
	id = submit_ok(_metadata, self->fd, &p, 0, WD_LONG);
	ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->fd, id));
	EXPECT_EQ(1, sem_get(_metadata, self->fd, a));
	EXPECT_EQ(1, sem_get(_metadata, self->fd, b));
	EXPECT_EQ(0, sem_get(_metadata, self->fd, x));
	rec_prog_free(&p);
}

static bool br_expect(__u8 comp, __u8 dtype, __u32 lhs, __u32 rhs)
{
	long long a = dtype == NCSYNC_DTYPE_S32 ? (long long)(__s32)lhs : lhs;
	long long b = dtype == NCSYNC_DTYPE_S32 ? (long long)(__s32)rhs : rhs;

	switch (comp & 7) {
	case 1: return a < b;
	case 2: return a <= b;
	case 3: return a == b;
	case 4: return a != b;
	case 5: return a >= b;
	default: return a > b;
	}
}

static const __u32 br_pairs[][2] = {
	{ 0xFFFFFFFF, 1 }, { 5, 5 }, { 1, 0xFFFFFFFF },
	{ 0x80000000, 0x7FFFFFFF }, { 7, 3 },
};

/*
 * Conditional branches: every comparison, both dtypes, immediate or register
 * right-hand side.  Each case writes 2 (taken) or 1 (not taken) into its own
 * semaphore.
 */
static void branch_cases(struct __test_metadata *_metadata, int fd, bool reg)
{
	struct rec_prog p = {};
	struct rec_queue *q;
	unsigned int k = 0, pi, dt, c;
	__u32 id;

	q = rec_prog_queue(&p, NCSYNC_ENGINE_DVE);
	for (pi = 0; pi < ARRAY_SIZE(br_pairs); pi++) {
		for (dt = NCSYNC_DTYPE_U32; dt <= NCSYNC_DTYPE_S32; dt++) {
			for (c = 1; c <= 6; c++, k++) {
				__u32 br_at, jmp_at;

				rec_movi(q, 1, br_pairs[pi][0]);
				if (reg) {
					rec_movi(q, 2, br_pairs[pi][1]);
					br_at = q->n;
					rec_br(q, c | 8, dt, 1, 2, 0, 0);
				} else {
					br_at = q->n;
					rec_br(q, c, dt, 1, 0,
					       br_pairs[pi][1], 0);
				}
				rec_noop(q, 0, 0, U_WRITE, k, 1);
				jmp_at = q->n;
				rec_jmp(q, 0);
				rec_set_target(q, br_at, q->n);
				rec_noop(q, 0, 0, U_WRITE, k, 2);
				rec_set_target(q, jmp_at, q->n);
			}
		}
	}
	rec_exit(q);
	id = submit_ok(_metadata, fd, &p, 0, WD_LONG);
	ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, fd, id));

	k = 0;
	for (pi = 0; pi < ARRAY_SIZE(br_pairs); pi++) {
		for (dt = NCSYNC_DTYPE_U32; dt <= NCSYNC_DTYPE_S32; dt++) {
			for (c = 1; c <= 6; c++, k++) {
				bool t = br_expect(c, dt, br_pairs[pi][0],
						   br_pairs[pi][1]);

				EXPECT_EQ(t ? 2 : 1, sem_get(_metadata, fd, k))
					TH_LOG("comp %u dtype %u: 0x%x vs 0x%x",
					       c | (reg ? 8 : 0), dt,
					       br_pairs[pi][0], br_pairs[pi][1]);
			}
		}
	}
	rec_prog_free(&p);
}

TEST_F(core, branch_conditional_immediate)
{
	branch_cases(_metadata, self->fd, false);
}

TEST_F(core, branch_conditional_register)
{
	branch_cases(_metadata, self->fd, true);
}

/* Mov32 counters and conditional branches: counted loops. */
TEST_F(core, counted_loop_increments_n_times)
{
	const int s = 30, s2 = 31, n = 37;
	struct rec_prog p = {};
	struct rec_queue *q;
	__u32 id;

	/* up: r1 = 0; do { S++; r1 += 1; } while (r1 <u n) */
	q = rec_prog_queue(&p, NCSYNC_ENGINE_POOL);
	rec_movi(q, 1, 0);
	rec_inc(q, s);
	rec_mov(q, NCSYNC_ALU_ADD_IMM, 1, 1, 1);
	rec_br(q, NCSYNC_BR_LT, NCSYNC_DTYPE_U32, 1, 0, n, 1);
	rec_exit(q);
	/* down, signed: r3 = 10; do { S2++; r3 -= 1; } while (r3 >s 0) */
	q = rec_prog_queue(&p, NCSYNC_ENGINE_PE);
	rec_movi(q, 3, 10);
	rec_noop(q, 0, 0, U_INC, s2, 0);
	rec_mov(q, NCSYNC_ALU_SUB_IMM, 3, 3, 1);
	rec_br(q, NCSYNC_BR_GT, NCSYNC_DTYPE_S32, 3, 0, 0, 1);
	id = submit_ok(_metadata, self->fd, &p, 0, WD_LONG);
	ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->fd, id));
	EXPECT_EQ(n, sem_get(_metadata, self->fd, s));
	EXPECT_EQ(10, sem_get(_metadata, self->fd, s2));
	rec_prog_free(&p);
}

TEST_F(core, group_reset_range)
{
	__s32 v[256], got[256];
	struct rec_prog p = {};
	struct rec_queue *q;
	unsigned int i;
	__u32 id;

	for (i = 0; i < 256; i++)
		v[i] = 1000 + i;
	sems_set(_metadata, self->fd, v);
	q = rec_prog_queue(&p, NCSYNC_ENGINE_SP);
	rec_gr_range(q, 5, 9);
	rec_gr_range(q, 20, 20);
	rec_gr_range(q, 255, 255);
	id = submit_ok(_metadata, self->fd, &p, 0, WD_LONG);
	ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->fd, id));
	sems_get(_metadata, self->fd, got);
	for (i = 0; i < 256; i++) {
		bool cleared = (i >= 5 && i <= 9) || i == 20 || i == 255;

		EXPECT_EQ(cleared ? 0 : v[i], got[i]) TH_LOG("sem %u", i);
	}
	rec_prog_free(&p);

	q = rec_prog_queue(&p, NCSYNC_ENGINE_SP);
	rec_gr_range(q, 0, 255);
	id = submit_ok(_metadata, self->fd, &p, 0, WD_LONG);
	ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->fd, id));
	sems_get(_metadata, self->fd, got);
	for (i = 0; i < 256; i++)
		EXPECT_EQ(0, got[i]) TH_LOG("sem %u", i);
	rec_prog_free(&p);
}

TEST_F(core, group_reset_mask)
{
	static const __u8 clr[] = { 0, 7, 8, 63, 64, 130, 200, 254, 255 };
	__s32 v[256], got[256];
	struct rec_prog p = {};
	struct rec_queue *q;
	unsigned int i, k;
	__u32 id;

	for (i = 0; i < 256; i++)
		v[i] = -1 - (__s32)i;
	sems_set(_metadata, self->fd, v);
	q = rec_prog_queue(&p, NCSYNC_ENGINE_ACT);
	rec_gr_mask(q, clr, ARRAY_SIZE(clr));
	id = submit_ok(_metadata, self->fd, &p, 0, WD_LONG);
	ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->fd, id));
	sems_get(_metadata, self->fd, got);
	for (i = 0; i < 256; i++) {
		bool cleared = false;

		for (k = 0; k < ARRAY_SIZE(clr); k++)
			cleared |= clr[k] == i;
		EXPECT_EQ(cleared ? 0 : v[i], got[i]) TH_LOG("sem %u", i);
	}
	rec_prog_free(&p);
}

/* A GroupResetSemaphores of one program wakes a wait of another. */
TEST_F(core, group_reset_wakes_waiter)
{
	const int s = 40, t = 41;
	struct rec_prog p = {}, p2 = {};
	__u32 id, id2;

	sem_set(_metadata, self->fd, s, 5);
	rec_noop(rec_prog_queue(&p, NCSYNC_ENGINE_POOL), W_LE, s, U_INC, t, 0);
	id = submit_ok(_metadata, self->fd, &p, 0, WD_LONG);
	wait_blocked(_metadata, self->fd, id, 0, NULL);
	rec_gr_range(rec_prog_queue(&p2, NCSYNC_ENGINE_ACT), s, s);
	id2 = submit_ok(_metadata, self->fd, &p2, 0, WD_LONG);
	ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->fd, id2));
	ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->fd, id));
	EXPECT_EQ(0, sem_get(_metadata, self->fd, s));
	EXPECT_EQ(1, sem_get(_metadata, self->fd, t));
	rec_prog_free(&p);
	rec_prog_free(&p2);
}

/*
 * PollSem's write-back (BARRIER §5: "if nonzero write the result back to
 * all 16 plus a GP register"): a nonzero minimum lowers every semaphore of
 * the range to it, in the one step of the read, and wakes a wait of
 * another program that needed it; a zero minimum goes to the register only.
 */
TEST_F(core, pollsem_writeback)
{
	static const int vals[] = { 4, 2, 9, 5 };
	struct rec_prog p = {}, p2 = {};
	struct rec_queue *q;
	unsigned int i;
	__u32 id, id2;

	for (i = 0; i < 4; i++)
		sem_set(_metadata, self->fd, 60 + i, vals[i]);
	sem_set(_metadata, self->fd, 70, 0);
	sem_set(_metadata, self->fd, 71, 3);
	/* pool waits for sem 62 <= 2, then +1 of sem 64 */
	rec_noop(rec_prog_queue(&p, NCSYNC_ENGINE_POOL), W_LE, 62, U_INC, 64,
		 2);
	id = submit_ok(_metadata, self->fd, &p, 0, WD_LONG);
	wait_blocked(_metadata, self->fd, id, 0, NULL);

	q = rec_prog_queue(&p2, NCSYNC_ENGINE_ACT);
	rec_poll_writeback(q, 5, 60, 4);		/* min 2: written back */
	rec_poll_writeback(q, 6, 70, 2);		/* min 0: not */
	rec_store_reg(q, 65, 5);
	rec_store_reg(q, 66, 6);
	id2 = submit_ok(_metadata, self->fd, &p2, 0, WD_LONG);
	ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->fd, id2));
	ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->fd, id));
	for (i = 0; i < 4; i++)
		EXPECT_EQ(2, sem_get(_metadata, self->fd, 60 + i));
	EXPECT_EQ(1, sem_get(_metadata, self->fd, 64));
	EXPECT_EQ(2, sem_get(_metadata, self->fd, 65));
	EXPECT_EQ(0, sem_get(_metadata, self->fd, 70));
	EXPECT_EQ(3, sem_get(_metadata, self->fd, 71));
	EXPECT_EQ(0, sem_get(_metadata, self->fd, 66));
	rec_prog_free(&p);
	rec_prog_free(&p2);
}

/* PollSem min and sum into a register, then the register in use. */
TEST_F(core, pollsem_min_sum_register_use)
{
	struct ncsync_prog_status ps;
	struct rec_prog p = {};
	struct rec_queue *q;
	unsigned int i;
	__u32 id;

	sem_set(_metadata, self->fd, 10, 5);
	sem_set(_metadata, self->fd, 11, -3);
	sem_set(_metadata, self->fd, 12, 7);
	sem_set(_metadata, self->fd, 13, 2);
	sem_set(_metadata, self->fd, 40, INT_MAX);
	sem_set(_metadata, self->fd, 41, INT_MAX);
	sem_set(_metadata, self->fd, 22, 100);
	for (i = 240; i < 256; i++)
		sem_set(_metadata, self->fd, i, i - 239);

	q = rec_prog_queue(&p, NCSYNC_ENGINE_PE);
	rec_poll(q, NCSYNC_POLL_MIN, 3, 10, 4);		/* -3 */
	rec_poll(q, NCSYNC_POLL_SUM, 4, 10, 4);		/* 11 */
	rec_poll(q, NCSYNC_POLL_SUM, 5, 10, 1);		/* 5 */
	rec_poll(q, NCSYNC_POLL_SUM, 6, 40, 2);		/* wraps: -2 */
	rec_poll(q, NCSYNC_POLL_SUM, 7, 240, 16);	/* 136 */
	rec_poll(q, NCSYNC_POLL_MIN, 8, 240, 16);	/* 1 */
	rec_store_reg(q, 20, 3);
	rec_store_reg(q, 21, 4);
	rec_store_reg(q, 23, 5);
	rec_store_reg(q, 24, 6);
	rec_store_reg(q, 25, 7);
	rec_store_reg(q, 26, 8);
	/* EventSemaphore lane-1 add of a register (0x95): sem 22 += r4 */
	rec_lane1(rec_evsem(q), 0, 0, U_REG | U_COMPLETE | U_ADD, 22, 0, 4);
	/* register-form wait (0x85): sem 30 >= r4, then +1 of sem 31 */
	rec_wait_then_inc(q, W_REG | W_GE, 30, 4, 31);
	id = submit_ok(_metadata, self->fd, &p, 0, WD_LONG);

	wait_blocked(_metadata, self->fd, id, 0, &ps);
	EXPECT_EQ(W_REG | W_GE, ps.engines[0].wait_mode);
	EXPECT_EQ(30, ps.engines[0].wait_index);
	EXPECT_EQ(11, ps.engines[0].wait_threshold);
	EXPECT_EQ(-3, sem_get(_metadata, self->fd, 20));
	EXPECT_EQ(11, sem_get(_metadata, self->fd, 21));
	EXPECT_EQ(111, sem_get(_metadata, self->fd, 22));
	EXPECT_EQ(5, sem_get(_metadata, self->fd, 23));
	EXPECT_EQ(-2, sem_get(_metadata, self->fd, 24));
	EXPECT_EQ(136, sem_get(_metadata, self->fd, 25));
	EXPECT_EQ(1, sem_get(_metadata, self->fd, 26));
	sem_set(_metadata, self->fd, 30, 10);
	sleep_ms(20);
	EXPECT_EQ(0, sem_get(_metadata, self->fd, 31));
	sem_set(_metadata, self->fd, 30, 11);
	ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->fd, id));
	EXPECT_EQ(1, sem_get(_metadata, self->fd, 31));
	rec_prog_free(&p);
}

/* ---------------------------------------------------------------------- */
/* Every wait mode                                                         */

struct sem_wait_case {
	__u8 mode;
	__s32 thr;
	__s32 block;	/* a value the wait does not pass */
	__s32 pass;	/* a value it passes */
};

static const struct sem_wait_case sem_wait_cases[] = {
	{ W_EQ, -5, -4, -5 },
	{ W_LT, -5, -5, -6 },
	{ W_LE, -5, -4, -5 },
	{ W_GT, -5, -5, -4 },
	{ W_GE, -5, -6, -5 },
	{ W_LT, 0, 0, INT_MIN },	/* signed: an unsigned compare fails */
	{ W_GE, -1, -2, 0 },
	{ W_GT, 100, 100, INT_MAX },
	{ W_EQ, INT_MIN, INT_MAX, INT_MIN },
};

/*
 * Run each semaphore wait case in one lane (0: NoOp events block, 1:
 * EventSemaphore extended block), immediate or register threshold: first
 * with a value that passes (no block), then blocked and woken by a write.
 */
static void sem_wait_modes(struct __test_metadata *_metadata, int fd,
			   unsigned int lane, bool reg)
{
	const int s = 50, t = 51, rg = 9;
	unsigned int i, round;

	for (i = 0; i < ARRAY_SIZE(sem_wait_cases); i++) {
		const struct sem_wait_case *c = &sem_wait_cases[i];
		__u8 mode = c->mode | (reg ? W_REG : 0);
		__u32 val = reg ? rg : (__u32)c->thr;

		for (round = 0; round < 2; round++) {
			struct ncsync_prog_status ps;
			struct rec_prog p = {};
			struct rec_queue *q;
			__u32 id;

			sem_set(_metadata, fd, t, 0);
			sem_set(_metadata, fd, s, round ? c->block : c->pass);
			q = rec_prog_queue(&p, engine_ids[i % 5]);
			if (reg)
				rec_movi(q, rg, c->thr);
			if (lane)
				rec_wait_then_inc(q, mode, s, val, t);
			else
				rec_noop(q, mode, s, U_INC, t, val);
			id = submit_ok(_metadata, fd, &p, 0, WD_LONG);
			if (round) {
				wait_blocked(_metadata, fd, id, 0, &ps);
				EXPECT_EQ(NCSYNC_BLOCK_SEM,
					  ps.engines[0].wait_kind);
				EXPECT_EQ(mode, ps.engines[0].wait_mode);
				EXPECT_EQ(s, ps.engines[0].wait_index);
				EXPECT_EQ(lane, ps.engines[0].wait_lane);
				EXPECT_EQ(c->thr, ps.engines[0].wait_threshold);
				EXPECT_EQ(c->block,
					  ps.engines[0].wait_current);
				EXPECT_EQ(0, sem_get(_metadata, fd, t));
				sem_set(_metadata, fd, s, c->pass);
			}
			ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, fd, id))
				TH_LOG("case %u mode 0x%x lane %u", i, mode,
				       lane);
			EXPECT_EQ(1, sem_get(_metadata, fd, t))
				TH_LOG("case %u", i);
			EXPECT_EQ(c->pass, sem_get(_metadata, fd, s));
			rec_prog_free(&p);
		}
	}
}

TEST_F(core, wait_sem_modes_lane0_immediate)
{
	sem_wait_modes(_metadata, self->fd, 0, false);
}

TEST_F(core, wait_sem_modes_lane1_immediate)
{
	sem_wait_modes(_metadata, self->fd, 1, false);
}

TEST_F(core, wait_sem_modes_lane0_register)
{
	sem_wait_modes(_metadata, self->fd, 0, true);
}

TEST_F(core, wait_sem_modes_lane1_register)
{
	sem_wait_modes(_metadata, self->fd, 1, true);
}

struct evt_wait_case {
	__u8 mode;
	bool block;	/* the state the wait does not pass */
	bool after;	/* the state once it passed */
};

static const struct evt_wait_case evt_wait_cases[] = {
	{ W_EVT_SET, false, true },
	{ W_EVT_SET_CLR, false, false },
	{ W_EVT_CLR, true, false },
	{ W_EVT_CLR_SET, true, true },
};

static void evt_wait_modes(struct __test_metadata *_metadata, int fd,
			   unsigned int lane)
{
	const int e = 60, t = 61;
	unsigned int i, round;

	for (i = 0; i < ARRAY_SIZE(evt_wait_cases); i++) {
		const struct evt_wait_case *c = &evt_wait_cases[i];

		for (round = 0; round < 2; round++) {
			struct ncsync_prog_status ps;
			struct rec_prog p = {};
			struct rec_queue *q;
			__u32 id;

			sem_set(_metadata, fd, t, 0);
			evt_set(_metadata, fd, e, round ? c->block : !c->block);
			q = rec_prog_queue(&p, engine_ids[i]);
			if (lane)
				rec_wait_then_inc(q, c->mode, e, 0, t);
			else
				rec_noop(q, c->mode, e, U_INC, t, 0);
			id = submit_ok(_metadata, fd, &p, 0, WD_LONG);
			if (round) {
				wait_blocked(_metadata, fd, id, 0, &ps);
				EXPECT_EQ(NCSYNC_BLOCK_EVENT,
					  ps.engines[0].wait_kind);
				EXPECT_EQ(c->mode, ps.engines[0].wait_mode);
				EXPECT_EQ(e, ps.engines[0].wait_index);
				EXPECT_EQ(lane, ps.engines[0].wait_lane);
				EXPECT_EQ(c->block,
					  ps.engines[0].wait_current);
				EXPECT_EQ(0, sem_get(_metadata, fd, t));
				evt_set(_metadata, fd, e, !c->block);
			}
			ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, fd, id))
				TH_LOG("mode 0x%x lane %u", c->mode, lane);
			EXPECT_EQ(1, sem_get(_metadata, fd, t));
			EXPECT_EQ(c->after, evt_get(_metadata, fd, e))
				TH_LOG("mode 0x%x lane %u", c->mode, lane);
			rec_prog_free(&p);
		}
	}
}

TEST_F(core, wait_event_modes_lane0)
{
	evt_wait_modes(_metadata, self->fd, 0);
}

TEST_F(core, wait_event_modes_lane1)
{
	evt_wait_modes(_metadata, self->fd, 1);
}

/* A then-clear wait consumes the edge: of two engines, one passes. */
TEST_F(core, wait_event_set_then_clear_consumes_once)
{
	const int e = 62, t = 63;
	struct ncsync_prog_status ps;
	struct rec_prog p = {};
	int done = 0, blocked = 0;
	unsigned int i;
	__u32 id;

	for (i = 0; i < 2; i++)
		rec_wait_then_inc(rec_prog_queue(&p, engine_ids[i]),
				  W_EVT_SET_CLR, e, 0, t);
	id = submit_ok(_metadata, self->fd, &p, 0, 300);
	evt_set(_metadata, self->fd, e, true);
	ASSERT_EQ(NCSYNC_PROG_TIMED_OUT, wait_end(_metadata, self->fd, id));
	status_get(_metadata, self->fd, id, &ps, NULL);
	for (i = 0; i < 2; i++) {
		done += ps.engines[i].state == NCSYNC_ENG_DONE;
		blocked += ps.engines[i].state == NCSYNC_ENG_BLOCKED;
	}
	EXPECT_EQ(1, done);
	EXPECT_EQ(1, blocked);
	EXPECT_EQ(1, sem_get(_metadata, self->fd, t));
	EXPECT_EQ(0, evt_get(_metadata, self->fd, e));
	rec_prog_free(&p);
}

/* ---------------------------------------------------------------------- */
/* Every update mode                                                       */

struct upd_case {
	__u8 mode;	/* the _READ form, with U_REG for register operands */
	__s32 preset;
	__u32 operand;	/* immediate, or the register's value */
	__s32 expect;
};

static const struct upd_case upd_cases[] = {
	{ U_INC, 41, 77, 42 },		/* the operand is ignored */
	{ U_DEC, -41, 77, -42 },
	{ U_ADD, -10, 1000, 990 },
	{ U_ADD, 5, (__u32)-10, -5 },
	{ U_SUB, 3, 10, -7 },
	{ U_WRITE, 1, (__u32)-123, -123 },
	{ U_REG | U_ADD, 1, 1000, 1001 },
	{ U_REG | U_SUB, 0, 50, -50 },
	{ U_REG | U_WRITE, 3, INT_MAX, INT_MAX },
};

/* placements of an update: NoOp lane 0 (_READ or _COMPLETE), EvSem lanes */
enum { PL_NOOP_READ, PL_NOOP_COMPLETE, PL_EVSEM_LANE0, PL_EVSEM_LANE1, PL_N };

/*
 * Add every update case, then an event set and an event clear, at
 * placement @pl to @q: from semaphore *@sem and event *@evt on, each
 * advanced past the ones used.  The semaphores' presets go to @v, the
 * events are preset on @fd.
 */
static void add_update_placement(struct __test_metadata *_metadata, int fd,
				 struct rec_queue *q, unsigned int pl,
				 __s32 *v, unsigned int *sem,
				 unsigned int *evt)
{
	bool complete = pl != PL_NOOP_READ;
	unsigned int i, reg;

	for (i = 0; i < ARRAY_SIZE(upd_cases); i++, (*sem)++) {
		const struct upd_case *c = &upd_cases[i];
		__u8 mode = c->mode | (complete ? U_COMPLETE : 0);
		__u32 val = c->operand;

		v[*sem] = c->preset;
		if (c->mode & U_REG) {
			reg = 1 + i;
			rec_movi(q, reg, c->operand);
			val = reg;
		}
		if (pl <= PL_NOOP_COMPLETE)
			rec_noop(q, 0, 0, mode, *sem, val);
		else if (pl == PL_EVSEM_LANE0)
			rec_lane0(rec_evsem(q), 0, 0, mode, *sem, val);
		else
			rec_lane1(rec_evsem(q), 0, 0, mode, *sem, 0, val);
	}
	/* events: set a clear one, clear a set one */
	for (i = 0; i < 2; i++, (*evt)++) {
		__u8 mode = (i ? U_EVT_CLR : U_EVT_SET) |
			    (complete ? U_COMPLETE : 0);

		evt_set(_metadata, fd, *evt, i);
		if (pl <= PL_NOOP_COMPLETE)
			rec_noop(q, 0, 0, mode, *evt, 0);
		else if (pl == PL_EVSEM_LANE0)
			rec_lane0(rec_evsem(q), 0, 0, mode, *evt, 0);
		else
			rec_lane1(rec_evsem(q), 0, 0, mode, *evt, 0, 0);
	}
}

TEST_F(core, update_modes_all_forms)
{
	__s32 v[256];
	struct rec_prog p = {};
	struct rec_queue *q;
	unsigned int pl, i, sem = 0, evt = 0;
	__u32 id;

	memset(v, 0, sizeof(v));
	q = rec_prog_queue(&p, NCSYNC_ENGINE_POOL);
	for (pl = 0; pl < PL_N; pl++)
		add_update_placement(_metadata, self->fd, q, pl, v, &sem, &evt);
	sems_set(_metadata, self->fd, v);
	id = submit_ok(_metadata, self->fd, &p, 0, WD_LONG);
	ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->fd, id));

	sem = 0;
	evt = 0;
	for (pl = 0; pl < PL_N; pl++) {
		for (i = 0; i < ARRAY_SIZE(upd_cases); i++, sem++)
			EXPECT_EQ(upd_cases[i].expect,
				  sem_get(_metadata, self->fd, sem))
				TH_LOG("placement %u mode 0x%x", pl,
				       upd_cases[i].mode);
		EXPECT_EQ(1, evt_get(_metadata, self->fd, evt))
			TH_LOG("placement %u event set", pl);
		EXPECT_EQ(0, evt_get(_metadata, self->fd, evt + 1))
			TH_LOG("placement %u event clear", pl);
		evt += 2;
	}
	rec_prog_free(&p);
}

/*
 * A lane-0 wait and update of the same semaphore share the value field:
 * wait >= 5, then subtract 5, atomically.
 */
TEST_F(core, lane0_wait_and_update_share_value)
{
	const int s = 70;
	struct rec_prog p = {};
	__u32 id;

	sem_set(_metadata, self->fd, s, 12);
	rec_noop(rec_prog_queue(&p, NCSYNC_ENGINE_DVE), W_GE, s, U_SUB, s, 5);
	id = submit_ok(_metadata, self->fd, &p, 0, WD_LONG);
	ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->fd, id));
	EXPECT_EQ(7, sem_get(_metadata, self->fd, s));
	rec_prog_free(&p);
}

/* ---------------------------------------------------------------------- */
/* P() atomicity                                                           */

static void p_atomic(struct __test_metadata *_metadata, int fd,
		     int nengines, int initial, bool noop)
{
	const int s = 80;
	struct ncsync_prog_status ps;
	int done = 0, blocked = 0;
	int i;
	struct rec_prog p = {};
	__u32 id;

	sem_set(_metadata, fd, s, initial);
	for (i = 0; i < nengines; i++) {
		struct rec_queue *q = rec_prog_queue(&p, engine_ids[i]);

		if (noop)
			rec_noop(q, W_GT, s, U_DEC, s, 0);
		else
			rec_sem_wait_dec(q, s);
	}
	id = submit_ok(_metadata, fd, &p, 0, 300);
	ASSERT_EQ(NCSYNC_PROG_TIMED_OUT, wait_end(_metadata, fd, id));
	status_get(_metadata, fd, id, &ps, NULL);
	ASSERT_EQ(nengines, (int)ps.nengines);
	for (i = 0; i < nengines; i++) {
		if (ps.engines[i].state == NCSYNC_ENG_DONE) {
			done++;
			continue;
		}
		EXPECT_EQ(NCSYNC_ENG_BLOCKED, ps.engines[i].state);
		EXPECT_EQ(NCSYNC_BLOCK_SEM, ps.engines[i].wait_kind);
		EXPECT_EQ(W_GT, ps.engines[i].wait_mode);
		EXPECT_EQ(s, ps.engines[i].wait_index);
		EXPECT_EQ(noop ? 0 : 1, ps.engines[i].wait_lane);
		EXPECT_EQ(0, ps.engines[i].wait_threshold);
		EXPECT_EQ(0, ps.engines[i].wait_current);
		blocked++;
	}
	EXPECT_EQ(initial, done);
	EXPECT_EQ(nengines - initial, blocked);
	EXPECT_EQ(0, sem_get(_metadata, fd, s));
	rec_prog_free(&p);
}

TEST_F(core, p_atomic_two_engines_evsem)
{
	unsigned int i;

	for (i = 0; i < 3; i++) {
		core_reset(_metadata, self->fd);
		p_atomic(_metadata, self->fd, 2, 1, false);
	}
}

TEST_F(core, p_atomic_five_engines_noop)
{
	unsigned int i;

	for (i = 0; i < 3; i++) {
		core_reset(_metadata, self->fd);
		p_atomic(_metadata, self->fd, 5, 2, true);
	}
}

/*
 * Stress of P() and V() (no lost update, no lost wake-up): five engines
 * take one lock semaphore L (wait L > 0 and decrement, one atomic step),
 * mark the critical section with event E, increment the counter C, and
 * give L back, many times each.  In strict mode a second engine inside the
 * section would set E while set and fault the program; a lost wake-up
 * leaves an engine asleep with L at 1, and the watchdog ends the program
 * TIMED_OUT; a lost update leaves C short.
 */
TEST_F_TIMEOUT(core, stress_p_v_five_engines_no_lost_wakeup, 600)
{
	const int l = 120, c = 121, e = 30, rounds = 150, runs = 3;
	struct rec_prog p = {};
	unsigned int k, r, run;
	__u32 id;

	for (k = 0; k < 5; k++) {
		struct rec_queue *q = rec_prog_queue(&p, engine_ids[k]);

		for (r = 0; r < rounds; r++) {
			rec_sem_wait_dec(q, l);
			rec_noop(q, 0, 0, U_EVT_SET, e, 0);
			rec_inc(q, c);
			rec_noop(q, 0, 0, U_EVT_CLR, e, 0);
			rec_inc(q, l);
		}
	}
	for (run = 0; run < runs; run++) {
		core_reset(_metadata, self->fd);
		sem_set(_metadata, self->fd, l, 1);
		id = submit_ok(_metadata, self->fd, &p, NCSYNC_SUBMIT_F_STRICT,
			       WD_LONG);
		ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->fd, id));
		EXPECT_EQ(5 * rounds, sem_get(_metadata, self->fd, c));
		EXPECT_EQ(1, sem_get(_metadata, self->fd, l));
	}
	rec_prog_free(&p);
}

/*
 * A userspace thread's updates, on its own descriptor: @count times, add 1
 * to @sem and then to @counter, through NCSYNC_IOC_OP or pwrite().
 */
struct stress_giver {
	pthread_t th;
	unsigned int sem, counter, count, delay_us;
	bool by_pwrite;
	int err;
};

static int stress_inc(int fd, unsigned int i, bool by_pwrite)
{
	struct ncsync_op op = { .bank = NCSYNC_BANK_SEM, .op = NCSYNC_OP_INC,
				.index = i, .value = 1 };
	__u32 one = 1;

	if (by_pwrite)
		return pwrite(fd, &one, 4, SEM_INC(i)) == 4 ? 0 : errno;
	return ioctl(fd, NCSYNC_IOC_OP, &op) ? errno : 0;
}

static void *stress_giver_main(void *arg)
{
	struct stress_giver *g = arg;
	int fd = open(DEV0, O_RDWR | O_CLOEXEC);
	unsigned int n;

	if (fd < 0) {
		g->err = errno;
		return NULL;
	}
	for (n = 0; n < g->count && !g->err; n++) {
		g->err = stress_inc(fd, g->sem, g->by_pwrite);
		if (!g->err)
			g->err = stress_inc(fd, g->counter, g->by_pwrite);
		if (g->delay_us)
			usleep(g->delay_us);
		else if (n % 16 == 0)
			sched_yield();
	}
	close(fd);
	return NULL;
}

/*
 * Stress of P() by engines against V() by userspace (no lost update, no
 * lost wake-up): five engines each take semaphore L (wait L > 0 and
 * decrement, one atomic step) and increment C, many times; four threads,
 * two through NCSYNC_IOC_OP and two through pwrite(), give L exactly as
 * many units, each followed by an increment of C.  A lost wake-up leaves
 * an engine asleep with L above 0 and the watchdog ends the program
 * TIMED_OUT; a P() that is not atomic takes a unit twice and leaves L
 * negative; a lost update leaves C short.
 */
TEST_F_TIMEOUT(core, stress_userspace_v_engines_p_no_lost_update, 600)
{
	const int l = 122, c = 123, rounds = 120, runs = 3, nthreads = 4;
	struct stress_giver g[4];
	struct rec_prog p = {};
	unsigned int k, r, run;
	__u32 id;

	for (k = 0; k < 5; k++) {
		struct rec_queue *q = rec_prog_queue(&p, engine_ids[k]);

		for (r = 0; r < rounds; r++) {
			rec_sem_wait_dec(q, l);
			rec_inc(q, c);
		}
	}
	for (run = 0; run < runs; run++) {
		core_reset(_metadata, self->fd);
		id = submit_ok(_metadata, self->fd, &p, 0, WD_LONG);
		for (k = 0; k < nthreads; k++) {
			g[k] = (struct stress_giver){
				.sem = l, .counter = c,
				.count = 5 * rounds / nthreads,
				.by_pwrite = k & 1,
			};
			ASSERT_EQ(0, pthread_create(&g[k].th, NULL,
						    stress_giver_main, &g[k]));
		}
		for (k = 0; k < nthreads; k++) {
			ASSERT_EQ(0, pthread_join(g[k].th, NULL));
			EXPECT_EQ(0, g[k].err) TH_LOG("thread %u: %s", k,
						      strerror(g[k].err));
		}
		ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->fd, id));
		EXPECT_EQ(0, sem_get(_metadata, self->fd, l));
		EXPECT_EQ(2 * 5 * rounds, sem_get(_metadata, self->fd, c));
	}
	rec_prog_free(&p);
}

/*
 * Stress of the driver's poll (no lost wake-up): a thread increments X
 * many times, through its own descriptor, pausing between increments so
 * that the poller sleeps; the test acknowledges the core and, while X has
 * not reached its end, waits in epoll_wait() with a long timeout.  A change
 * always follows the acknowledgment then, so a wait that times out lost a
 * wake-up.  (epoll, not poll(): poll() asks the driver once more when its
 * timeout expires, so a lost wake-up would only be late.)
 */
TEST_F_TIMEOUT(core, stress_poll_no_lost_wakeup, 600)
{
	const int x = 124, y = 125, count = 300;
	struct epoll_event ev = { .events = EPOLLIN };
	struct stress_giver g = { .sem = x, .counter = y, .count = count,
				  .delay_us = 300 };
	struct ncsync_seq seq;
	unsigned int waits = 0;
	int epfd = epoll_create1(EPOLL_CLOEXEC);

	ASSERT_LE(0, epfd);
	ASSERT_EQ(0, epoll_ctl(epfd, EPOLL_CTL_ADD, self->fd, &ev));
	ASSERT_EQ(0, pthread_create(&g.th, NULL, stress_giver_main, &g));
	for (;;) {
		ASSERT_EQ(0, ioctl(self->fd, NCSYNC_IOC_ACK, &seq));
		if (sem_get(_metadata, self->fd, x) == count)
			break;
		ASSERT_EQ(1, epoll_wait(epfd, &ev, 1, LONG_MS))
			TH_LOG("wait %u: a lost wake-up", waits);
		EXPECT_EQ((__u32)EPOLLIN, ev.events & EPOLLIN);
		waits++;
	}
	ASSERT_EQ(0, pthread_join(g.th, NULL));
	EXPECT_EQ(0, g.err);
	EXPECT_LT(0U, waits);
	EXPECT_EQ(count, sem_get(_metadata, self->fd, y));
	close(epfd);
}

/* ---------------------------------------------------------------------- */
/* Waits woken from outside the engine                                     */

TEST_F(core, engine_woken_by_pwrite_inc)
{
	const int s = 90, t = 91;
	struct ncsync_prog_status ps;
	struct rec_prog p = {};
	__u32 v, id;

	rec_wait_then_inc(rec_prog_queue(&p, NCSYNC_ENGINE_POOL), W_GE, s, 3,
			  t);
	id = submit_ok(_metadata, self->fd, &p, 0, WD_LONG);
	wait_blocked(_metadata, self->fd, id, 0, NULL);
	v = 2;
	ASSERT_EQ(4, pwrite(self->fd, &v, 4, SEM_INC(s)));
	sleep_ms(20);
	wait_blocked(_metadata, self->fd, id, 0, &ps);
	EXPECT_EQ(2, ps.engines[0].wait_current);
	EXPECT_EQ(0, sem_get(_metadata, self->fd, t));
	v = 1;
	ASSERT_EQ(4, pwrite(self->fd, &v, 4, SEM_INC(s)));
	ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->fd, id));
	EXPECT_EQ(1, sem_get(_metadata, self->fd, t));
	rec_prog_free(&p);
}

TEST_F(core, engine_woken_by_ioctl_op)
{
	const int s = 92, t = 93, e = 94;
	struct rec_prog p = {};
	struct rec_queue *q;
	struct ncsync_op op;
	__u32 id;

	q = rec_prog_queue(&p, NCSYNC_ENGINE_SP);
	rec_wait_then_inc(q, W_EQ, s, 1, t);
	rec_wait_then_inc(q, W_EVT_SET_CLR, e, 0, t);
	id = submit_ok(_metadata, self->fd, &p, 0, WD_LONG);
	wait_blocked(_metadata, self->fd, id, 0, NULL);
	memset(&op, 0, sizeof(op));
	op.bank = NCSYNC_BANK_SEM;
	op.op = NCSYNC_OP_INC;
	op.index = s;
	op.value = 1;
	ASSERT_EQ(0, ioctl(self->fd, NCSYNC_IOC_OP, &op));
	for (;;) {
		struct ncsync_prog_status ps;

		wait_blocked(_metadata, self->fd, id, 0, &ps);
		if (ps.engines[0].pc == 1)
			break;
		usleep(1000);
	}
	EXPECT_EQ(1, sem_get(_metadata, self->fd, t));
	memset(&op, 0, sizeof(op));
	op.bank = NCSYNC_BANK_EVENT;
	op.op = NCSYNC_OP_SET;
	op.index = e;
	ASSERT_EQ(0, ioctl(self->fd, NCSYNC_IOC_OP, &op));
	ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->fd, id));
	EXPECT_EQ(2, sem_get(_metadata, self->fd, t));
	EXPECT_EQ(0, evt_get(_metadata, self->fd, e));
	rec_prog_free(&p);
}

TEST_F(core, engine_woken_by_later_program)
{
	const int s = 95, t = 96;
	struct rec_prog p = {}, p2 = {};
	__u32 id, id2;

	rec_wait_then_inc(rec_prog_queue(&p, NCSYNC_ENGINE_POOL), W_EQ, s, 1,
			  t);
	id = submit_ok(_metadata, self->fd, &p, 0, WD_LONG);
	wait_blocked(_metadata, self->fd, id, 0, NULL);
	rec_inc(rec_prog_queue(&p2, NCSYNC_ENGINE_ACT), s);
	id2 = submit_ok(_metadata, self->fd, &p2, 0, WD_LONG);
	ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->fd, id2));
	ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->fd, id));
	EXPECT_EQ(1, sem_get(_metadata, self->fd, t));
	rec_prog_free(&p);
	rec_prog_free(&p2);
}

/* ---------------------------------------------------------------------- */
/* Multi-engine protocols                                                  */

/* Engine k of 5 waits sem == 5r + k, then +1; R rounds. */
TEST_F(core, token_ring_five_engines)
{
	const int s = 100, rounds = 40;
	struct rec_prog p = {};
	unsigned int k, r;
	__u32 id;

	for (k = 0; k < 5; k++) {
		struct rec_queue *q = rec_prog_queue(&p, engine_ids[k]);

		for (r = 0; r < rounds; r++)
			rec_wait_eq_and_inc(q, s, 5 * r + k);
	}
	id = submit_ok(_metadata, self->fd, &p, 0, WD_LONG);
	ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->fd, id));
	EXPECT_EQ(5 * rounds, sem_get(_metadata, self->fd, s));
	rec_prog_free(&p);
}

/*
 * The shared-counter barrier of SYNC, 1000 times on all five engines with a
 * monotonic counter: each pass increments S, then waits S >= 5 * (i + 1)
 * with the threshold in a register.  Each engine also checks, right after
 * every pass, that S reached the threshold (PollSem + branch to a Halt).
 */
TEST_F_TIMEOUT(core, barrier_loop_1000_all_engines, 600)
{
	const int s = 110, iters = 1000;
	struct ncsync_prog_status ps;
	struct rec_prog p = {};
	unsigned int k;
	__u32 id;

	for (k = 0; k < 5; k++) {
		struct rec_queue *q = rec_prog_queue(&p, engine_ids[k]);

		rec_movi(q, 1, 0);			/* 0: threshold */
		rec_movi(q, 2, 0);			/* 1: i */
		rec_inc(q, s);				/* 2: arrive */
		rec_mov(q, NCSYNC_ALU_ADD_IMM, 1, 1, 5);	/* 3 */
		rec_wait_then_inc(q, W_REG | W_GE, s, 1, 111 + k); /* 4 */
		rec_poll(q, NCSYNC_POLL_MIN, 3, s, 1);	/* 5 */
		rec_br(q, NCSYNC_BR_REG | NCSYNC_BR_LT, NCSYNC_DTYPE_S32,
		       3, 1, 0, 11);			/* 6: S < r1: bad */
		rec_mov(q, NCSYNC_ALU_ADD_IMM, 2, 2, 1);	/* 7 */
		rec_br(q, NCSYNC_BR_LT, NCSYNC_DTYPE_U32, 2, 0, iters, 2);
		rec_exit(q);				/* 9 */
		rec_exit(q);				/* 10 */
		rec_halt(q);				/* 11 */
	}
	id = submit_ok(_metadata, self->fd, &p, 0, WD_LONG);
	ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->fd, id));
	EXPECT_EQ(5 * iters, sem_get(_metadata, self->fd, s));
	status_get(_metadata, self->fd, id, &ps, NULL);
	for (k = 0; k < 5; k++) {
		EXPECT_EQ(NCSYNC_ENG_DONE, ps.engines[k].state);
		EXPECT_EQ(iters, sem_get(_metadata, self->fd, 111 + k));
	}
	rec_prog_free(&p);
}

/* ---------------------------------------------------------------------- */
/* DMA and Drain                                                           */

struct devmem {
	__u8 *p;
	size_t size;
	__u64 src;
	__u64 dst;
	__u32 len;
};

static void devmem_map(struct __test_metadata *_metadata, int fd,
		       struct devmem *m)
{
	struct ncsync_info info;

	ASSERT_EQ(0, ioctl(fd, NCSYNC_IOC_INFO, &info));
	ASSERT_EQ(NCSYNC_DEVMEM_OFFSET, (int)info.devmem_offset);
	ASSERT_LE(8192, (int)info.devmem_size);
	m->size = info.devmem_size;
	m->p = mmap(NULL, m->size, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		    NCSYNC_DEVMEM_OFFSET);
	ASSERT_NE(MAP_FAILED, m->p) TH_LOG("mmap devmem: %s", strerror(errno));
	m->len = m->size / 2 < 4096 ? m->size / 2 : 4096;
	m->src = 0;
	m->dst = m->size / 2;
}

static void devmem_fill(struct devmem *m, __u8 seed)
{
	__u32 i;

	for (i = 0; i < m->len; i++)
		m->p[m->src + i] = (__u8)(seed + i * 7);
	memset(m->p + m->dst, 0x11, m->len);
}

static bool devmem_is_new(const struct devmem *m, const __u8 *buf)
{
	return !memcmp(buf, m->p + m->src, m->len);
}

static bool devmem_is_stale(const struct devmem *m, const __u8 *buf)
{
	__u32 i;

	for (i = 0; i < m->len; i++)
		if (buf[i] != 0x11)
			return false;
	return true;
}

#define DMA_LAT_US	200000

/*
 * Without Drain, the engine's increment after a DMA does not wait for the
 * copy: a peer that waits for the increment and reads at once sees the old
 * bytes.  The completion update (+1) fires when the copy lands, after the
 * bytes.  A read is conclusive only if it ended before the latency passed
 * since the submission; the experiment is retried otherwise.
 */
TEST_F(core, dma_without_drain_peer_reads_stale)
{
	const int s = 120, d = 121;
	static __u8 buf[4096];
	bool conclusive = false;
	struct devmem m;
	unsigned int attempt;

	devmem_map(_metadata, self->fd, &m);
	for (attempt = 0; attempt < 5 && !conclusive; attempt++) {
		struct rec_prog p = {};
		struct rec_queue *q;
		__s64 t0, t1;
		__s32 dv;
		__u32 id;

		core_reset(_metadata, self->fd);
		devmem_fill(&m, attempt * 31 + 1);
		q = rec_prog_queue(&p, NCSYNC_ENGINE_ACT);
		rec_dma(q, m.src, m.dst, m.len, DMA_LAT_US,
			U_COMPLETE | U_INC, d);
		rec_inc(q, s);
		t0 = now_ns();
		id = submit_ok(_metadata, self->fd, &p, 0, WD_LONG);
		ASSERT_EQ(0, sem_wait_ioctl(self->fd, s, W_GE, 1, LONG_MS));
		dv = sem_get(_metadata, self->fd, d);
		memcpy(buf, m.p + m.dst, m.len);
		t1 = now_ns();
		if (t1 - t0 < DMA_LAT_US * 1000LL) {
			conclusive = true;
			EXPECT_EQ(0, dv);
			EXPECT_TRUE(devmem_is_stale(&m, buf))
				TH_LOG("the copy landed before its latency");
		}
		/* the completion update fires once the bytes have landed */
		ASSERT_EQ(0, sem_wait_ioctl(self->fd, d, W_GE, 1, LONG_MS));
		memcpy(buf, m.p + m.dst, m.len);
		EXPECT_TRUE(devmem_is_new(&m, buf));
		EXPECT_LE(DMA_LAT_US * 1000LL - NSEC_PER_MSEC, now_ns() - t0);
		ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->fd, id));
		sleep_ms(20);
		EXPECT_EQ(1, sem_get(_metadata, self->fd, d));
		EXPECT_EQ(1, sem_get(_metadata, self->fd, s));
		rec_prog_free(&p);
	}
	munmap(m.p, m.size);
	if (!conclusive)
		SKIP(return, "never read within %d us of the submission",
		     DMA_LAT_US);
}

/* With Drain before the increment, the peer always sees the new bytes. */
TEST_F(core, dma_with_drain_peer_reads_new)
{
	const int s = 122, e = 123;
	static __u8 buf[4096];
	struct ncsync_prog_status ps;
	struct devmem m;
	unsigned int attempt;

	devmem_map(_metadata, self->fd, &m);
	for (attempt = 0; attempt < 3; attempt++) {
		struct rec_prog p = {};
		struct rec_queue *q;
		__s64 t0;
		__u32 id;

		core_reset(_metadata, self->fd);
		devmem_fill(&m, attempt * 17 + 3);
		q = rec_prog_queue(&p, NCSYNC_ENGINE_DVE);
		rec_dma(q, m.src, m.dst, m.len, DMA_LAT_US,
			U_COMPLETE | U_EVT_SET, e);
		rec_drain(q);
		rec_inc(q, s);
		t0 = now_ns();
		id = submit_ok(_metadata, self->fd, &p, 0, WD_LONG);
		/* while it drains, the status says so */
		status_get(_metadata, self->fd, id, &ps, NULL);
		if (ps.engines[0].state == NCSYNC_ENG_BLOCKED) {
			EXPECT_EQ(NCSYNC_BLOCK_DRAIN, ps.engines[0].wait_kind);
			EXPECT_EQ(1, (int)ps.engines[0].dma_outstanding);
			EXPECT_EQ(1, (int)ps.engines[0].pc);
		}
		ASSERT_EQ(0, sem_wait_ioctl(self->fd, s, W_GE, 1, LONG_MS));
		memcpy(buf, m.p + m.dst, m.len);
		EXPECT_TRUE(devmem_is_new(&m, buf))
			TH_LOG("Drain passed before the copy landed");
		EXPECT_EQ(1, evt_get(_metadata, self->fd, e));
		EXPECT_LE(DMA_LAT_US * 1000LL - NSEC_PER_MSEC, now_ns() - t0);
		ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->fd, id));
		status_get(_metadata, self->fd, id, &ps, NULL);
		EXPECT_EQ(0, (int)ps.engines[0].dma_outstanding);
		rec_prog_free(&p);
	}
	munmap(m.p, m.size);
}

/* Copies land in issue order; Drain waits for all of them. */
TEST_F(core, dma_several_copies_drain_all)
{
	const int d = 124, s = 125;
	struct devmem m;
	struct rec_prog p = {};
	struct rec_queue *q;
	unsigned int i;
	__u32 id;

	devmem_map(_metadata, self->fd, &m);
	devmem_fill(&m, 5);
	q = rec_prog_queue(&p, NCSYNC_ENGINE_POOL);
	/* four quarters, the first with the longest latency */
	for (i = 0; i < 4; i++)
		rec_dma(q, m.src + i * m.len / 4, m.dst + i * m.len / 4,
			m.len / 4, (4 - i) * 30000, U_INC, d);
	rec_drain(q);
	rec_inc(q, s);
	id = submit_ok(_metadata, self->fd, &p, 0, WD_LONG);
	ASSERT_EQ(0, sem_wait_ioctl(self->fd, s, W_GE, 1, LONG_MS));
	EXPECT_EQ(4, sem_get(_metadata, self->fd, d));
	EXPECT_TRUE(devmem_is_new(&m, m.p + m.dst));
	ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->fd, id));
	munmap(m.p, m.size);
	rec_prog_free(&p);
}

/*
 * A DMA whose events block waits on the semaphore its completion update
 * increments.  The update is the copy's completion: it must be applied
 * once, when the copy lands, not also as the wait's paired test-and-modify.
 */
TEST_F(core, dma_wait_and_completion_on_same_sem)
{
	const int d = 126;
	static __u8 buf[4096];
	struct devmem m;
	struct rec_prog p = {};
	struct rec_queue *q;
	__u8 *r;
	__u32 id;

	devmem_map(_metadata, self->fd, &m);
	devmem_fill(&m, 9);
	q = rec_prog_queue(&p, NCSYNC_ENGINE_PE);
	r = rec_dma(q, m.src, m.dst, m.len, 100000, U_COMPLETE | U_INC, d);
	/* wait d >= 0 (the lane-0 value is 0) */
	r[NCSYNC_REC_EV_WAIT_MODE] = W_GE;
	r[NCSYNC_REC_EV_WAIT_IDX] = d;
	rec_drain(q);
	id = submit_ok(_metadata, self->fd, &p, 0, WD_LONG);
	ASSERT_EQ(0, sem_wait_ioctl(self->fd, d, W_GE, 1, LONG_MS));
	memcpy(buf, m.p + m.dst, m.len);
	EXPECT_TRUE(devmem_is_new(&m, buf))
		TH_LOG("the completion update came before the copy landed");
	ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->fd, id));
	EXPECT_EQ(1, sem_get(_metadata, self->fd, d))
		TH_LOG("completion update applied more than once");
	munmap(m.p, m.size);
	rec_prog_free(&p);
}

/* The copies of a cancelled program are dropped: no bytes, no update. */
TEST_F(core, dma_dropped_when_program_cancelled)
{
	const int d = 127, s = 128;
	struct devmem m;
	struct rec_prog p = {};
	struct rec_queue *q;
	__u32 id;

	devmem_map(_metadata, self->fd, &m);
	devmem_fill(&m, 11);
	q = rec_prog_queue(&p, NCSYNC_ENGINE_SP);
	rec_dma(q, m.src, m.dst, m.len, 300000, U_COMPLETE | U_INC, d);
	rec_wait_then_inc(q, W_GE, s, 1, s);
	id = submit_ok(_metadata, self->fd, &p, 0, WD_LONG);
	wait_blocked(_metadata, self->fd, id, 0, NULL);
	ASSERT_EQ(0, cancel(self->fd, id, 0));
	ASSERT_EQ(NCSYNC_PROG_CANCELLED, wait_end(_metadata, self->fd, id));
	sleep_ms(600);
	EXPECT_EQ(0, sem_get(_metadata, self->fd, d));
	EXPECT_TRUE(devmem_is_stale(&m, m.p + m.dst));
	munmap(m.p, m.size);
	rec_prog_free(&p);
}

/*
 * A program that ended without a Drain leaves its copy in flight; a reset
 * clears the banks, and the completion update of a copy issued before the
 * reset must not change them afterwards.
 */
TEST_F(core, reset_drops_in_flight_dma_completion)
{
	const int d = 129;
	struct devmem m;
	struct rec_prog p = {};
	__u32 id;

	devmem_map(_metadata, self->fd, &m);
	devmem_fill(&m, 13);
	rec_dma(rec_prog_queue(&p, NCSYNC_ENGINE_ACT), m.src, m.dst, m.len,
		300000, U_COMPLETE | U_INC, d);
	id = submit_ok(_metadata, self->fd, &p, 0, WD_LONG);
	ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->fd, id));
	core_reset(_metadata, self->fd);
	sleep_ms(600);
	EXPECT_EQ(0, sem_get(_metadata, self->fd, d))
		TH_LOG("a copy issued before the reset updated the bank after it");
	munmap(m.p, m.size);
	rec_prog_free(&p);
}

/*
 * Add to @q one record of every opcode, record i waiting for sem @g + i >= 1
 * and updating @x, @y or the next of the semaphores from @base.  Return:
 * how many of those from @base it updates.
 */
static int add_events_block_records(struct rec_queue *q,
				    const struct devmem *m, int g, int x,
				    int y, int base)
{
	int n = 0;
	__u8 *r;

	/* record i waits for sem g + i >= 1 (the shared value is 1) */
	r = rec_movi(q, 1, 9);
	rec_lane0(r, W_GE, g + q->n - 1, U_INC, base + n++, 1);
	r = rec_poll(q, NCSYNC_POLL_SUM, 2, y, 1);
	rec_lane0(r, W_GE, g + q->n - 1, U_INC, y, 1);
	r = rec_br(q, NCSYNC_BR_EQ, NCSYNC_DTYPE_U32, 1, 0, 9, q->n + 1);
	rec_lane0(r, W_GE, g + q->n - 1, U_INC, base + n++, 1);
	r = rec_gr_range(q, x, x);
	rec_lane0(r, W_GE, g + q->n - 1, U_INC, x, 1);
	r = rec_drain(q);
	rec_lane0(r, W_GE, g + q->n - 1, U_INC, base + n++, 1);
	r = rec_dma(q, m->src, m->dst, 4, 0, 0, 0);
	rec_lane0(r, W_GE, g + q->n - 1, U_INC, base + n++, 1);
	r = rec_noop(q, 0, 0, 0, 0, 0);
	rec_lane0(r, W_GE, g + q->n - 1, U_INC, base + n++, 1);
	r = rec_evsem(q);
	rec_lane0(r, W_GE, g + q->n - 1, U_COMPLETE | U_INC, base + n++, 1);
	r = rec_halt(q);
	rec_lane0(r, W_GE, g + q->n - 1, U_INC, base + n++, 1);
	return n;
}

/*
 * Every opcode carries the events block (ENC 8, SYNC, records.rst): a lane-0
 * wait that must pass first, and an update applied after the op's effect.
 * GroupResetSemaphores zeroes a semaphore its own update then increments;
 * PollSem reads a semaphore its own update then increments.
 */
TEST_F(core, events_block_on_every_opcode)
{
	const int g = 60, x = 41, y = 42, base = 50;
	struct ncsync_prog_status ps;
	struct devmem m;
	struct rec_prog p = {};
	struct rec_queue *q;
	unsigned int i;
	__u32 id;
	int n;

	devmem_map(_metadata, self->fd, &m);
	sem_set(_metadata, self->fd, x, 5);
	sem_set(_metadata, self->fd, y, 7);
	q = rec_prog_queue(&p, NCSYNC_ENGINE_ACT);
	n = add_events_block_records(q, &m, g, x, y, base);
	id = submit_ok(_metadata, self->fd, &p, 0, WD_LONG);

	for (i = 0; i < q->n; i++) {
		for (;;) {
			wait_blocked(_metadata, self->fd, id, 0, &ps);
			if (ps.engines[0].pc == i)
				break;
			usleep(1000);
		}
		EXPECT_EQ(W_GE, ps.engines[0].wait_mode);
		EXPECT_EQ(g + (int)i, ps.engines[0].wait_index);
		EXPECT_EQ(0, ps.engines[0].wait_lane);
		EXPECT_EQ(1, ps.engines[0].wait_threshold);
		sem_set(_metadata, self->fd, g + i, 1);
	}
	ASSERT_EQ(NCSYNC_PROG_HALTED, wait_end(_metadata, self->fd, id));
	/* no Drain: the DMA's completion update may land after the end */
	ASSERT_EQ(0, sem_wait_ioctl(self->fd, base + 3, W_GE, 1, LONG_MS));
	for (i = 0; i < (unsigned int)n; i++)
		EXPECT_EQ(1, sem_get(_metadata, self->fd, base + i))
			TH_LOG("update %u", i);
	EXPECT_EQ(1, sem_get(_metadata, self->fd, x));	/* zeroed, then +1 */
	EXPECT_EQ(8, sem_get(_metadata, self->fd, y));
	munmap(m.p, m.size);
	rec_prog_free(&p);

	/* the register PollSem wrote holds the value before its own +1 */
	q = rec_prog_queue(&p, NCSYNC_ENGINE_ACT);
	rec_noop(q, 0, 0, U_WRITE, y, 7);
	rec_lane0(rec_poll(q, NCSYNC_POLL_SUM, 2, y, 1), 0, 0, U_INC, y, 0);
	rec_store_reg(q, 43, 2);
	id = submit_ok(_metadata, self->fd, &p, 0, WD_LONG);
	ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->fd, id));
	EXPECT_EQ(7, sem_get(_metadata, self->fd, 43));
	EXPECT_EQ(8, sem_get(_metadata, self->fd, y));
	rec_prog_free(&p);
}

/* Registers are zero when a queue starts, in every program. */
TEST_F(core, registers_start_at_zero)
{
	struct rec_prog p = {};
	unsigned int round, r;
	__u32 id;

	for (round = 0; round < 2; round++) {
		struct rec_queue *q = rec_prog_queue(&p, NCSYNC_ENGINE_PE);

		for (r = 0; r < NCSYNC_NUM_REGS; r++)
			rec_store_reg(q, r, r);
		for (r = 0; r < NCSYNC_NUM_REGS; r++)
			rec_movi(q, r, 0xDEAD0000 + r);
		for (r = 0; r < NCSYNC_NUM_SEMS; r++)
			sem_set(_metadata, self->fd, r, -1);
		id = submit_ok(_metadata, self->fd, &p, 0, WD_LONG);
		ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->fd, id));
		for (r = 0; r < NCSYNC_NUM_REGS; r++)
			EXPECT_EQ(0, sem_get(_metadata, self->fd, r))
				TH_LOG("program %u register r%u", round, r);
		rec_prog_free(&p);
	}
}

/* ---------------------------------------------------------------------- */
/* Invalid records: every reason, at index 0 and at the end of 1000        */

/*
 * One variant per record of the bad-record table (common/test/
 * bad_records.h, which KUnit and the library's host tests run too).
 */
FIXTURE(badrec) {
	int fd;
};

FIXTURE_VARIANT(badrec) {
	const struct ncsync_bad_record *bad;
};

static void __attribute__((constructor)) badrec_variants(void)
{
	static FIXTURE_VARIANT(badrec) v[NCSYNC_NUM_BAD_RECORDS];
	static struct __fixture_variant_metadata m[NCSYNC_NUM_BAD_RECORDS];
	unsigned int i;

	for (i = 0; i < NCSYNC_NUM_BAD_RECORDS; i++) {
		v[i].bad = &ncsync_bad_records[i];
		m[i].name = ncsync_bad_records[i].name;
		m[i].data = &v[i];
	}
	register_variants(&_badrec_fixture_object, m, NCSYNC_NUM_BAD_RECORDS);
}

/* core 0, opened read-write and reset */
static int reset_core_fd(struct __test_metadata *_metadata)
{
	int fd = open(DEV0, O_RDWR | O_CLOEXEC);

	ASSERT_LE(0, fd) TH_LOG("open %s: %s", DEV0, strerror(errno));
	core_reset(_metadata, fd);
	return fd;
}

FIXTURE_SETUP(badrec)
{
	self->fd = reset_core_fd(_metadata);
}

FIXTURE_TEARDOWN(badrec)
{
	if (self->fd >= 0)
		close(self->fd);
}

static void badrec_check(struct __test_metadata *_metadata, int fd,
			 const struct rec_prog *p, __u32 flags, int engine,
			 int index, int reason)
{
	struct ncsync_prog_status ps;
	__s32 before[256], after[256];
	struct ncsync_submit sub;
	int ret;

	sems_get(_metadata, fd, before);
	ret = rec_prog_submit(fd, p, flags, WD_LONG, &sub);
	ASSERT_EQ(-EINVAL, ret);
	EXPECT_EQ(engine, (int)sub.bad_engine);
	EXPECT_EQ(index, (int)sub.bad_index);
	EXPECT_EQ(reason, (int)sub.reason);
	EXPECT_EQ(0, (int)sub.id);
	sleep_ms(20);
	sems_get(_metadata, fd, after);
	EXPECT_EQ(0, memcmp(before, after, sizeof(before)))
		TH_LOG("a record of a refused program ran");
	EXPECT_EQ(-ENOENT, status_raw(fd, 1, 0, &ps, NULL));
}

TEST_F(badrec, alone_at_index_0)
{
	struct rec_prog p = {};
	struct rec_queue *q;

	sem_set(_metadata, self->fd, 1, 7);
	q = rec_prog_queue(&p, NCSYNC_ENGINE_ACT);
	ncsync_bad_record_build(variant->bad, 1, rec_emit(q, 0));
	badrec_check(_metadata, self->fd, &p, 0, NCSYNC_ENGINE_ACT, 0,
		     variant->bad->reason);
	rec_prog_free(&p);
}

TEST_F(badrec, last_of_1000_in_second_queue)
{
	const __u32 n = 1000;
	struct rec_prog p = {};
	struct rec_queue *q;
	unsigned int i;

	q = rec_prog_queue(&p, NCSYNC_ENGINE_POOL);
	for (i = 0; i < 10; i++)
		rec_inc(q, 1);
	q = rec_prog_queue(&p, NCSYNC_ENGINE_SP);
	for (i = 0; i < n - 1; i++)
		rec_inc(q, 2);
	ncsync_bad_record_build(variant->bad, n, rec_emit(q, 0));
	badrec_check(_metadata, self->fd, &p, 0, NCSYNC_ENGINE_SP, n - 1,
		     variant->bad->reason);
	rec_prog_free(&p);
}

/*
 * One variant per kernel rule of the conformance table (common/test/
 * conform_records.h; the 0xD5 entries are the library's, ncsync_lib_test):
 * with NCSYNC_SUBMIT_F_CONFORM the kernel refuses the record for its
 * reason and nothing runs; without it the same program runs to the end.
 */
FIXTURE(conform) {
	int fd;
};

FIXTURE_VARIANT(conform) {
	const struct ncsync_conform_record *c;
};

static void __attribute__((constructor)) conform_variants(void)
{
	static FIXTURE_VARIANT(conform) v[NCSYNC_NUM_CONFORM_RECORDS];
	static struct __fixture_variant_metadata m[NCSYNC_NUM_CONFORM_RECORDS];
	unsigned int i, n = 0;

	for (i = 0; i < NCSYNC_NUM_CONFORM_RECORDS; i++) {
		const struct ncsync_conform_record *c =
			&ncsync_conform_records[i];

		if (c->rec.opcode == NCSYNC_OPC_ALL_ENGINE_BARRIER)
			continue;
		v[n].c = c;
		m[n].name = c->rec.name;
		m[n].data = &v[n];
		n++;
	}
	register_variants(&_conform_fixture_object, m, n);
}

/* The same core as badrec's: reset before each test. */
FIXTURE_SETUP(conform)
{
	self->fd = reset_core_fd(_metadata);
}

FIXTURE_TEARDOWN(conform)
{
	close(self->fd);
}

/*
 * Pool: +1 on sem 1, for a duplicate an overlapping group
 * (ncsync_conform_earlier()), Exit; SP: +1 on sem 1, the record, Exit.
 */
static void conform_prog(const struct ncsync_conform_record *c,
			 struct rec_prog *p)
{
	struct rec_queue *q;

	__u8 r[REC_SIZE];

	q = rec_prog_queue(p, NCSYNC_ENGINE_POOL);
	rec_inc(q, 1);
	if (c->dup_earlier) {
		ncsync_bad_record_build(&c->rec, 3, r);
		ncsync_conform_earlier(r, rec_emit(q, 0));
	}
	rec_exit(q);
	q = rec_prog_queue(p, NCSYNC_ENGINE_SP);
	rec_inc(q, 1);
	ncsync_bad_record_build(&c->rec, 3, rec_emit(q, 0));
	rec_exit(q);
}

/*
 * A fence as the compiler emits it: every engine resets the same group
 * (SYNC: GroupResetSemaphores "deep-copies its sema_group vector per
 * engine"), and the profile accepts it; a group overlapping it without
 * being it is refused (conform.gr_duplicate_range).
 */
TEST_F(core, conform_same_group_in_every_queue)
{
	static const __u8 engines[] = {
		NCSYNC_ENGINE_POOL, NCSYNC_ENGINE_ACT, NCSYNC_ENGINE_PE,
		NCSYNC_ENGINE_DVE, NCSYNC_ENGINE_SP,
	};
	struct rec_prog p = {};
	unsigned int i;
	__u32 id;

	sem_set(_metadata, self->fd, 6, 9);
	for (i = 0; i < ARRAY_SIZE(engines); i++)
		rec_gr_range(rec_prog_queue(&p, engines[i]), 5, 7);
	id = submit_ok(_metadata, self->fd, &p, NCSYNC_SUBMIT_F_CONFORM,
		       WD_LONG);
	ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->fd, id));
	EXPECT_EQ(0, sem_get(_metadata, self->fd, 6));
	rec_prog_free(&p);
}

TEST_F(conform, refused_with_the_profile)
{
	struct rec_prog p = {};

	conform_prog(variant->c, &p);
	badrec_check(_metadata, self->fd, &p, NCSYNC_SUBMIT_F_CONFORM,
		     NCSYNC_ENGINE_SP, 1, variant->c->rec.reason);
	rec_prog_free(&p);
}

TEST_F(conform, runs_without_it)
{
	struct rec_prog p = {};
	__u32 id;

	conform_prog(variant->c, &p);
	id = submit_ok(_metadata, self->fd, &p, 0, WD_LONG);
	EXPECT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->fd, id));
	EXPECT_EQ(2, sem_get(_metadata, self->fd, 1));
	rec_prog_free(&p);
}

/* ---------------------------------------------------------------------- */
/* Submission errors                                                       */

/* A one-record program on engine Pool, as raw descriptors. */
struct rawsub {
	__u8 rec[REC];
	struct ncsync_queue q[NCSYNC_NUM_ENGINES + 1];
	struct ncsync_submit sub;
};

static void rawsub_init(struct rawsub *rs, unsigned int nq)
{
	unsigned int i;

	memset(rs, 0, sizeof(*rs));
	enc_inc(rs->rec, 1);
	for (i = 0; i < NCSYNC_NUM_ENGINES + 1; i++) {
		rs->q[i].records = (uintptr_t)rs->rec;
		rs->q[i].count = 1;
		rs->q[i].engine = engine_ids[i % NCSYNC_NUM_ENGINES];
	}
	rs->sub.queues = (uintptr_t)rs->q;
	rs->sub.nqueues = nq;
	rs->sub.watchdog_ms = WD_LONG;
}

/* Submit; expect @err; check that nothing ran. */
static void rawsub_fails(struct __test_metadata *_metadata, int fd,
			 struct rawsub *rs, int err)
{
	struct ncsync_prog_status ps;

	EXPECT_EQ(-err, submit_raw(fd, &rs->sub));
	sleep_ms(20);
	EXPECT_EQ(0, sem_get(_metadata, fd, 1)) TH_LOG("a record ran");
	EXPECT_EQ(-ENOENT, status_raw(fd, 1, 0, &ps, NULL));
}

TEST_F(core, submit_valid_reference)
{
	struct rawsub rs;
	__u32 id;

	rawsub_init(&rs, 1);
	ASSERT_EQ(0, submit_raw(self->fd, &rs.sub));
	id = rs.sub.id;
	EXPECT_NE(0U, id);
	ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->fd, id));
	EXPECT_EQ(1, sem_get(_metadata, self->fd, 1));
	rawsub_init(&rs, 5);
	ASSERT_EQ(0, submit_raw(self->fd, &rs.sub));
	EXPECT_NE(id, rs.sub.id);
	ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->fd, rs.sub.id));
	EXPECT_EQ(6, sem_get(_metadata, self->fd, 1));
}

TEST_F(core, submit_nqueues_0_einval)
{
	struct rawsub rs;

	rawsub_init(&rs, 0);
	rawsub_fails(_metadata, self->fd, &rs, EINVAL);
}

TEST_F(core, submit_nqueues_6_einval)
{
	struct rawsub rs;

	rawsub_init(&rs, 6);
	rs.q[5].engine = 4;
	rawsub_fails(_metadata, self->fd, &rs, EINVAL);
	rawsub_init(&rs, 6);
	rawsub_fails(_metadata, self->fd, &rs, EINVAL);
}

TEST_F(core, submit_duplicate_engine_einval)
{
	struct rawsub rs;

	rawsub_init(&rs, 3);
	rs.q[2].engine = rs.q[0].engine;
	rawsub_fails(_metadata, self->fd, &rs, EINVAL);
}

static void bad_engine(struct __test_metadata *_metadata, int fd, __u8 engine)
{
	struct rawsub rs;

	rawsub_init(&rs, 2);
	rs.q[1].engine = engine;
	rawsub_fails(_metadata, fd, &rs, EINVAL);
	rawsub_init(&rs, 1);
	rs.q[0].engine = engine;
	rawsub_fails(_metadata, fd, &rs, EINVAL);
}

TEST_F(core, submit_engine_4_dma_einval)
{
	bad_engine(_metadata, self->fd, NCSYNC_ENGINE_DMA);
}

TEST_F(core, submit_engine_0_einval)
{
	bad_engine(_metadata, self->fd, 0);
}

TEST_F(core, submit_engine_7_einval)
{
	bad_engine(_metadata, self->fd, 7);
	bad_engine(_metadata, self->fd, 8);
	bad_engine(_metadata, self->fd, 33);
	bad_engine(_metadata, self->fd, 255);
}

TEST_F(core, submit_count_0_einval)
{
	struct rawsub rs;

	rawsub_init(&rs, 2);
	rs.q[1].count = 0;
	rawsub_fails(_metadata, self->fd, &rs, EINVAL);
}

/* Refused before any record is read: EINVAL, not EFAULT. */
TEST_F(core, submit_count_too_big_einval)
{
	struct rawsub rs;

	rawsub_init(&rs, 1);
	rs.q[0].count = NCSYNC_MAX_RECORDS + 1;
	rawsub_fails(_metadata, self->fd, &rs, EINVAL);
	rs.q[0].count = 0xFFFFFFFF;
	rawsub_fails(_metadata, self->fd, &rs, EINVAL);
}

TEST_F(core, submit_flags_unknown_einval)
{
	struct rawsub rs;
	unsigned int bit;

	for (bit = 0; bit < 32; bit++) {
		if (NCSYNC_SUBMIT_F_ALL & (1U << bit))
			continue;
		rawsub_init(&rs, 1);
		rs.sub.flags = 1U << bit;
		rawsub_fails(_metadata, self->fd, &rs, EINVAL);
	}
}

TEST_F(core, submit_reserved_nonzero_einval)
{
	struct rawsub rs;

	rawsub_init(&rs, 1);
	rs.sub.reserved = 1;
	rawsub_fails(_metadata, self->fd, &rs, EINVAL);
}

TEST_F(core, submit_queue_pad_nonzero_einval)
{
	struct rawsub rs;
	unsigned int i;

	for (i = 0; i < 3; i++) {
		rawsub_init(&rs, 2);
		rs.q[1].pad[i] = 1;
		rawsub_fails(_metadata, self->fd, &rs, EINVAL);
	}
}

TEST_F(core, submit_queues_pointer_efault)
{
	struct rawsub rs;

	rawsub_init(&rs, 1);
	rs.sub.queues = 0;
	rawsub_fails(_metadata, self->fd, &rs, EFAULT);
	rs.sub.queues = 1;
	rawsub_fails(_metadata, self->fd, &rs, EFAULT);
	rs.sub.queues = ~0ULL - 8;
	rawsub_fails(_metadata, self->fd, &rs, EFAULT);
}

TEST_F(core, submit_records_pointer_efault)
{
	struct rawsub rs;

	rawsub_init(&rs, 2);
	rs.q[1].records = 0;
	rawsub_fails(_metadata, self->fd, &rs, EFAULT);
	rs.q[1].records = 0xFFFF800000000000ULL;
	rawsub_fails(_metadata, self->fd, &rs, EFAULT);
}

/* Records running into an unmapped page: EFAULT, nothing ran. */
TEST_F(core, submit_records_partly_unmapped_efault)
{
	long pg = sysconf(_SC_PAGESIZE);
	unsigned int i, per = pg / REC;
	struct rawsub rs;
	__u8 *buf;

	buf = mmap(NULL, 2 * pg, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, buf);
	for (i = 0; i < 2 * per; i++)
		enc_inc(buf + i * REC, 1);
	ASSERT_EQ(0, munmap(buf + pg, pg));
	rawsub_init(&rs, 1);
	rs.q[0].records = (uintptr_t)buf;
	rs.q[0].count = 2 * per;
	rawsub_fails(_metadata, self->fd, &rs, EFAULT);
	rs.q[0].count = per;	/* the mapped part alone is fine */
	ASSERT_EQ(0, submit_raw(self->fd, &rs.sub));
	ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->fd, rs.sub.id));
	EXPECT_EQ((int)per, sem_get(_metadata, self->fd, 1));
	munmap(buf, pg);
}

TEST_F(core, submit_argument_efault)
{
	EXPECT_EQ(-1, ioctl(self->fd, NCSYNC_IOC_SUBMIT, NULL));
	EXPECT_EQ(EFAULT, errno);
	EXPECT_EQ(-1, ioctl(self->fd, NCSYNC_IOC_SUBMIT, (void *)8));
	EXPECT_EQ(EFAULT, errno);
}

TEST_F(core, submit_read_only_descriptor_ebadf)
{
	struct rawsub rs;
	int ro = open(DEV0, O_RDONLY | O_CLOEXEC);

	ASSERT_LE(0, ro);
	rawsub_init(&rs, 1);
	rawsub_fails(_metadata, ro, &rs, EBADF);
	close(ro);
}

TEST_F(core, submit_pseudo_op_d5_refused)
{
	struct rec_prog p = {};
	struct rec_queue *q;
	struct ncsync_submit sub;

	q = rec_prog_queue(&p, NCSYNC_ENGINE_PE);
	rec_inc(q, 1);
	rec_emit(q, NCSYNC_OPC_ALL_ENGINE_BARRIER);
	rec_inc(q, 1);
	EXPECT_EQ(-EINVAL, rec_prog_submit(self->fd, &p, 0, WD_LONG, &sub));
	EXPECT_EQ(NCSYNC_ENGINE_PE, (int)sub.bad_engine);
	EXPECT_EQ(1, (int)sub.bad_index);
	EXPECT_EQ(NCSYNC_REC_PSEUDO_OP, (int)sub.reason);
	sleep_ms(20);
	EXPECT_EQ(0, sem_get(_metadata, self->fd, 1));
	rec_prog_free(&p);
}

/* ---------------------------------------------------------------------- */
/* Strict mode and the statistics                                          */

static void strict_case(struct __test_metadata *_metadata, int fd,
			bool strict, __u8 fault)
{
	const int e = 130, s = 131, after = 132;
	struct ncsync_stats st0, st1;
	struct ncsync_prog_status ps;
	struct rec_prog p = {};
	struct rec_queue *q;
	__u32 id, state;

	q = rec_prog_queue(&p, NCSYNC_ENGINE_ACT);
	switch (fault) {
	case NCSYNC_FAULT_EVENT_SET_WHILE_SET:
		evt_set(_metadata, fd, e, true);
		rec_noop(q, 0, 0, U_EVT_SET, e, 0);
		break;
	case NCSYNC_FAULT_EVENT_CLEAR_WHILE_CLEAR:
		rec_lane1(rec_evsem(q), 0, 0, U_COMPLETE | U_EVT_CLR, e, 0, 0);
		break;
	default:
		sem_set(_metadata, fd, s, INT_MAX);
		rec_inc(q, s);
		break;
	}
	rec_inc(q, after);
	stats_get(_metadata, fd, &st0);
	id = submit_ok(_metadata, fd, &p, strict ? NCSYNC_SUBMIT_F_STRICT : 0,
		       WD_LONG);
	state = wait_end(_metadata, fd, id);
	stats_get(_metadata, fd, &st1);
	status_get(_metadata, fd, id, &ps, NULL);
	if (strict) {
		EXPECT_EQ(NCSYNC_PROG_FAULTED, (int)state);
		EXPECT_EQ(NCSYNC_ENG_FAULTED, ps.engines[0].state);
		EXPECT_EQ(fault, ps.engines[0].fault);
		EXPECT_EQ(0, (int)ps.engines[0].pc);
		EXPECT_EQ(0, sem_get(_metadata, fd, after))
			TH_LOG("the record after the fault ran");
	} else {
		EXPECT_EQ(NCSYNC_PROG_DONE, (int)state);
		EXPECT_EQ(NCSYNC_ENG_DONE, ps.engines[0].state);
		EXPECT_EQ(NCSYNC_FAULT_NONE, ps.engines[0].fault);
		EXPECT_EQ(1, sem_get(_metadata, fd, after));
	}
	switch (fault) {
	case NCSYNC_FAULT_EVENT_SET_WHILE_SET:
		EXPECT_EQ(st0.event_set_while_set + 1, st1.event_set_while_set);
		EXPECT_EQ(1, evt_get(_metadata, fd, e));
		break;
	case NCSYNC_FAULT_EVENT_CLEAR_WHILE_CLEAR:
		EXPECT_EQ(st0.event_clear_while_clear + 1,
			  st1.event_clear_while_clear);
		EXPECT_EQ(0, evt_get(_metadata, fd, e));
		break;
	default:
		EXPECT_EQ(st0.sem_overflows + 1, st1.sem_overflows);
		if (!strict)
			EXPECT_EQ(INT_MIN, sem_get(_metadata, fd, s));
		break;
	}
	rec_prog_free(&p);
}

TEST_F(core, strict_event_set_while_set_faults)
{
	strict_case(_metadata, self->fd, true,
		    NCSYNC_FAULT_EVENT_SET_WHILE_SET);
}

TEST_F(core, nonstrict_event_set_while_set_counts)
{
	strict_case(_metadata, self->fd, false,
		    NCSYNC_FAULT_EVENT_SET_WHILE_SET);
}

TEST_F(core, strict_event_clear_while_clear_faults)
{
	strict_case(_metadata, self->fd, true,
		    NCSYNC_FAULT_EVENT_CLEAR_WHILE_CLEAR);
}

TEST_F(core, nonstrict_event_clear_while_clear_counts)
{
	strict_case(_metadata, self->fd, false,
		    NCSYNC_FAULT_EVENT_CLEAR_WHILE_CLEAR);
}

TEST_F(core, strict_sem_overflow_faults)
{
	strict_case(_metadata, self->fd, true, NCSYNC_FAULT_SEM_OVERFLOW);
}

TEST_F(core, nonstrict_sem_overflow_wraps_counts)
{
	strict_case(_metadata, self->fd, false, NCSYNC_FAULT_SEM_OVERFLOW);
}

/* Overflow by subtraction, by register operand, and through a paired P(). */
TEST_F(core, strict_sem_overflow_other_forms)
{
	struct ncsync_prog_status ps;
	struct ncsync_stats st0, st1;
	unsigned int i;

	for (i = 0; i < 3; i++) {
		struct rec_prog p = {};
		struct rec_queue *q = rec_prog_queue(&p, NCSYNC_ENGINE_SP);
		__u32 id;

		stats_get(_metadata, self->fd, &st0);
		sem_set(_metadata, self->fd, 140, INT_MIN);
		sem_set(_metadata, self->fd, 141, INT_MAX - 5);
		if (i == 0) {
			rec_noop(q, 0, 0, U_SUB, 140, 1);
		} else if (i == 1) {
			rec_movi(q, 4, 6);
			rec_lane1(rec_evsem(q), 0, 0,
				  U_REG | U_COMPLETE | U_ADD, 141, 0, 4);
		} else {
			rec_noop(q, W_LT, 140, U_DEC, 140, 0);
		}
		id = submit_ok(_metadata, self->fd, &p, NCSYNC_SUBMIT_F_STRICT,
			       WD_LONG);
		ASSERT_EQ(NCSYNC_PROG_FAULTED, wait_end(_metadata, self->fd, id))
			TH_LOG("form %u", i);
		status_get(_metadata, self->fd, id, &ps, NULL);
		EXPECT_EQ(NCSYNC_FAULT_SEM_OVERFLOW, ps.engines[0].fault);
		stats_get(_metadata, self->fd, &st1);
		EXPECT_EQ(st0.sem_overflows + 1, st1.sem_overflows);
		rec_prog_free(&p);
	}
}

/* A strict fault of one engine stops the others (fault PEER). */
TEST_F(core, strict_fault_stops_peer_engines)
{
	const int e = 142, s = 143;
	struct ncsync_prog_status ps;
	struct rec_prog p = {};
	__u32 id;

	evt_set(_metadata, self->fd, e, true);
	rec_wait_then_inc(rec_prog_queue(&p, NCSYNC_ENGINE_POOL), W_GE, s, 1,
			  s);
	rec_noop(rec_prog_queue(&p, NCSYNC_ENGINE_ACT), 0, 0, U_EVT_SET, e, 0);
	id = submit_ok(_metadata, self->fd, &p, NCSYNC_SUBMIT_F_STRICT,
		       WD_LONG);
	ASSERT_EQ(NCSYNC_PROG_FAULTED, wait_end(_metadata, self->fd, id));
	status_get(_metadata, self->fd, id, &ps, NULL);
	EXPECT_EQ(NCSYNC_ENG_CANCELLED, ps.engines[0].state);
	EXPECT_EQ(NCSYNC_FAULT_PEER, ps.engines[0].fault);
	EXPECT_EQ(NCSYNC_ENG_FAULTED, ps.engines[1].state);
	EXPECT_EQ(NCSYNC_FAULT_EVENT_SET_WHILE_SET, ps.engines[1].fault);
	rec_prog_free(&p);
}

/* Strict mode does not cover a DMA's completion update: it is counted. */
TEST_F(core, strict_dma_completion_counted_not_faulted)
{
	const int e = 144;
	struct ncsync_stats st0, st1;
	struct devmem m;
	struct rec_prog p = {};
	struct rec_queue *q;
	__u32 id;

	devmem_map(_metadata, self->fd, &m);
	evt_set(_metadata, self->fd, e, true);
	stats_get(_metadata, self->fd, &st0);
	q = rec_prog_queue(&p, NCSYNC_ENGINE_PE);
	rec_dma(q, m.src, m.dst, 64, 1000, U_COMPLETE | U_EVT_SET, e);
	rec_drain(q);
	id = submit_ok(_metadata, self->fd, &p, NCSYNC_SUBMIT_F_STRICT,
		       WD_LONG);
	ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->fd, id));
	stats_get(_metadata, self->fd, &st1);
	EXPECT_EQ(st0.event_set_while_set + 1, st1.event_set_while_set);
	munmap(m.p, m.size);
	rec_prog_free(&p);
}

/* ---------------------------------------------------------------------- */
/* Watchdog                                                                */

/* Two engines each wait for what the other posts after its own wait. */
TEST_F(core, watchdog_deadlock_snapshot)
{
	const int a = 150, b = 151;
	struct ncsync_sem_value sems[NCSYNC_NUM_SEMS];
	struct ncsync_prog_status ps;
	struct rec_prog p = {};
	unsigned int i;
	int found = 0;
	__u32 id;

	sem_set(_metadata, self->fd, 152, 42);
	sem_set(_metadata, self->fd, 200, -7);
	rec_wait_then_inc(rec_prog_queue(&p, NCSYNC_ENGINE_PE), W_GE, a, 1, b);
	rec_noop(rec_prog_queue(&p, NCSYNC_ENGINE_DVE), W_EQ, b, U_INC, a, 1);
	id = submit_ok(_metadata, self->fd, &p, 0, WD_SHORT);
	ASSERT_EQ(NCSYNC_PROG_TIMED_OUT, wait_end(_metadata, self->fd, id));

	memset(sems, 0xA5, sizeof(sems));
	status_get(_metadata, self->fd, id, &ps, sems);
	EXPECT_EQ(NCSYNC_PROG_TIMED_OUT, (int)ps.state);
	ASSERT_EQ(2, (int)ps.nengines);
	EXPECT_EQ(NCSYNC_ENGINE_PE, ps.engines[0].engine);
	EXPECT_EQ(NCSYNC_ENG_BLOCKED, ps.engines[0].state);
	EXPECT_EQ(NCSYNC_BLOCK_SEM, ps.engines[0].wait_kind);
	EXPECT_EQ(W_GE, ps.engines[0].wait_mode);
	EXPECT_EQ(a, ps.engines[0].wait_index);
	EXPECT_EQ(1, ps.engines[0].wait_lane);
	EXPECT_EQ(1, ps.engines[0].wait_threshold);
	EXPECT_EQ(0, ps.engines[0].wait_current);
	EXPECT_EQ(0, (int)ps.engines[0].pc);
	EXPECT_EQ(NCSYNC_ENGINE_DVE, ps.engines[1].engine);
	EXPECT_EQ(NCSYNC_ENG_BLOCKED, ps.engines[1].state);
	EXPECT_EQ(NCSYNC_BLOCK_SEM, ps.engines[1].wait_kind);
	EXPECT_EQ(W_EQ, ps.engines[1].wait_mode);
	EXPECT_EQ(b, ps.engines[1].wait_index);
	EXPECT_EQ(0, ps.engines[1].wait_lane);
	EXPECT_EQ(1, ps.engines[1].wait_threshold);
	EXPECT_EQ(0, ps.engines[1].wait_current);
	ASSERT_EQ(2, (int)ps.nsems);
	for (i = 0; i < ps.nsems; i++) {
		if (sems[i].index == 152 && sems[i].value == 42)
			found |= 1;
		if (sems[i].index == 200 && sems[i].value == -7)
			found |= 2;
	}
	EXPECT_EQ(3, found);
	EXPECT_EQ(0xA5A5A5A5, (__u32)sems[2].index) TH_LOG("wrote past nsems");

	/* without a sems pointer, nsems is 0 */
	status_get(_metadata, self->fd, id, &ps, NULL);
	EXPECT_EQ(0, (int)ps.nsems);

	/* the engines are free again */
	rec_prog_free(&p);
	rec_inc(rec_prog_queue(&p, NCSYNC_ENGINE_PE), a);
	rec_inc(rec_prog_queue(&p, NCSYNC_ENGINE_DVE), a);
	id = submit_ok(_metadata, self->fd, &p, 0, WD_LONG);
	ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->fd, id));
	EXPECT_EQ(2, sem_get(_metadata, self->fd, a));
	rec_prog_free(&p);
}

/* Branch-always to itself on every engine: the watchdog ends it. */
TEST_F(core, watchdog_infinite_branch_loop)
{
	struct ncsync_prog_status ps;
	struct rec_prog p = {};
	unsigned int k;
	__u32 id;

	for (k = 0; k < 5; k++)
		rec_jmp(rec_prog_queue(&p, engine_ids[k]), 0);
	/*
	 * Not WD_SHORT: five engines that never sleep share the VM's CPUs,
	 * and each must have run a record before the watchdog ends them.
	 */
	id = submit_ok(_metadata, self->fd, &p, 0, 2000);
	ASSERT_EQ(NCSYNC_PROG_TIMED_OUT, wait_end(_metadata, self->fd, id));
	status_get(_metadata, self->fd, id, &ps, NULL);
	for (k = 0; k < 5; k++) {
		EXPECT_EQ(NCSYNC_ENG_RUNNING, ps.engines[k].state);
		EXPECT_EQ(0, (int)ps.engines[k].pc);
		EXPECT_LT(0, (int)ps.engines[k].executed);
	}
	rec_prog_free(&p);

	for (k = 0; k < 5; k++)
		rec_inc(rec_prog_queue(&p, engine_ids[k]), 160);
	id = submit_ok(_metadata, self->fd, &p, 0, WD_LONG);
	ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->fd, id));
	EXPECT_EQ(5, sem_get(_metadata, self->fd, 160));
	rec_prog_free(&p);
}

/* A program waiting for the test does not time out before its watchdog. */
TEST_F(core, prog_wait_deadline_etimedout)
{
	struct rec_prog p = {};
	__u32 id, state;

	rec_wait_then_inc(rec_prog_queue(&p, NCSYNC_ENGINE_POOL), W_GE, 1, 1,
			  2);
	id = submit_ok(_metadata, self->fd, &p, 0, WD_LONG);
	EXPECT_EQ(-ETIMEDOUT, prog_wait(self->fd, id, 50, &state));
	sem_set(_metadata, self->fd, 1, 1);
	ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->fd, id));
	rec_prog_free(&p);
}

/*
 * Eight programs queued on one engine, each waited for by its own child
 * (the same descriptor): the end of each wakes its waiter, whose wait is
 * keyed with it, and no other waiter returns before its program ends.
 */
TEST_F(core, prog_wait_each_waiter_woken_by_its_program)
{
	enum { N = 8 };
	struct rec_prog p[N] = {};
	__u32 id[N], state;
	pid_t pid[N];
	int i, j, st;

	sem_set(_metadata, self->fd, 3, 0);
	for (i = 0; i < N; i++) {
		rec_wait_then_inc(rec_prog_queue(&p[i], NCSYNC_ENGINE_POOL),
				  W_GE, 3, i + 1, 4);
		id[i] = submit_ok(_metadata, self->fd, &p[i], 0, WD_LONG);
	}
	for (i = 0; i < N; i++) {
		pid[i] = fork();
		ASSERT_LE(0, pid[i]);
		if (!pid[i])
			_exit(prog_wait(self->fd, id[i], LONG_MS, &state) ||
			      state != NCSYNC_PROG_DONE);
	}
	for (i = 0; i < N; i++) {
		sem_set(_metadata, self->fd, 3, i + 1);
		ASSERT_EQ(pid[i], waitpid(pid[i], &st, 0));
		EXPECT_TRUE(WIFEXITED(st) && !WEXITSTATUS(st))
			TH_LOG("the waiter of program %d: status %#x", i, st);
		for (j = i + 1; j < N; j++)
			EXPECT_EQ(0, waitpid(pid[j], &st, WNOHANG))
				TH_LOG("the waiter of program %d returned", j);
	}
	EXPECT_EQ(N, sem_get(_metadata, self->fd, 4));
	for (i = 0; i < N; i++)
		rec_prog_free(&p[i]);
}

TEST_F(core, prog_wait_bad_arguments)
{
	struct ncsync_prog_wait pw;
	struct rec_prog p = {};
	__u32 id;

	rec_inc(rec_prog_queue(&p, NCSYNC_ENGINE_DVE), 1);
	id = submit_ok(_metadata, self->fd, &p, 0, WD_LONG);
	memset(&pw, 0, sizeof(pw));
	pw.id = id;
	pw.flags = 2;
	pw.deadline = deadline_ms(LONG_MS);
	EXPECT_EQ(-1, ioctl(self->fd, NCSYNC_IOC_PROG_WAIT, &pw));
	EXPECT_EQ(EINVAL, errno);
	pw.flags = 0;
	pw.reserved = 1;
	EXPECT_EQ(-1, ioctl(self->fd, NCSYNC_IOC_PROG_WAIT, &pw));
	EXPECT_EQ(EINVAL, errno);
	pw.reserved = 0;
	pw.deadline.tv_nsec = NSEC_PER_SEC;
	EXPECT_EQ(-1, ioctl(self->fd, NCSYNC_IOC_PROG_WAIT, &pw));
	EXPECT_EQ(EINVAL, errno);
	pw.flags = NCSYNC_WAIT_F_NO_DEADLINE;
	pw.deadline = deadline_ms(LONG_MS);
	EXPECT_EQ(-1, ioctl(self->fd, NCSYNC_IOC_PROG_WAIT, &pw));
	EXPECT_EQ(EINVAL, errno);
	memset(&pw.deadline, 0, sizeof(pw.deadline));
	ASSERT_EQ(0, ioctl(self->fd, NCSYNC_IOC_PROG_WAIT, &pw));
	EXPECT_EQ(NCSYNC_PROG_DONE, (int)pw.state);
	EXPECT_EQ(-1, ioctl(self->fd, NCSYNC_IOC_PROG_WAIT, NULL));
	EXPECT_EQ(EFAULT, errno);
	rec_prog_free(&p);
}

/*
 * watchdog_ms 0 in a submission takes the module's watchdog_ms (reported by
 * NCSYNC_IOC_INFO).  Run with -p 'watchdog_ms=500' or less to test it.
 */
TEST_F(core, watchdog_default_from_module_parameter)
{
	struct ncsync_info info;
	struct rec_prog p = {};
	__s64 t0;
	__u32 id;

	ASSERT_EQ(0, ioctl(self->fd, NCSYNC_IOC_INFO, &info));
	if (info.watchdog_ms > 2000)
		SKIP(return, "module watchdog_ms %u: too long for this test",
		     info.watchdog_ms);
	rec_wait_then_inc(rec_prog_queue(&p, NCSYNC_ENGINE_PE), W_GE, 1, 1, 2);
	t0 = now_ns();
	id = submit_ok(_metadata, self->fd, &p, 0, 0);
	ASSERT_EQ(NCSYNC_PROG_TIMED_OUT, wait_end(_metadata, self->fd, id));
	EXPECT_LE((__s64)info.watchdog_ms * NSEC_PER_MSEC, now_ns() - t0);
	rec_prog_free(&p);
}

/* ---------------------------------------------------------------------- */
/* Cancel, status, release                                                 */

TEST_F(core, cancel_blocked_program)
{
	const int s = 170, t = 171;
	struct ncsync_prog_status ps;
	struct rec_prog p = {};
	__u32 id;

	rec_wait_then_inc(rec_prog_queue(&p, NCSYNC_ENGINE_DVE), W_GE, s, 1, t);
	rec_inc(rec_prog_queue(&p, NCSYNC_ENGINE_SP), t);
	id = submit_ok(_metadata, self->fd, &p, 0, WD_LONG);
	wait_blocked(_metadata, self->fd, id, 0, NULL);
	wait_engine(_metadata, self->fd, id, 1, NCSYNC_ENG_DONE, NULL);
	ASSERT_EQ(0, cancel(self->fd, id, 0));
	ASSERT_EQ(NCSYNC_PROG_CANCELLED, wait_end(_metadata, self->fd, id));
	status_get(_metadata, self->fd, id, &ps, NULL);
	EXPECT_EQ(NCSYNC_PROG_CANCELLED, (int)ps.state);
	EXPECT_EQ(NCSYNC_ENG_CANCELLED, ps.engines[0].state);
	EXPECT_EQ(NCSYNC_FAULT_CANCELLED, ps.engines[0].fault);
	EXPECT_EQ(NCSYNC_ENG_DONE, ps.engines[1].state);
	/* the wait's increment never ran, even once the wait would pass */
	sem_set(_metadata, self->fd, s, 1);
	sleep_ms(20);
	EXPECT_EQ(1, sem_get(_metadata, self->fd, t));
	/* cancelling an ended program changes nothing */
	EXPECT_EQ(0, cancel(self->fd, id, 0));
	EXPECT_EQ(NCSYNC_PROG_CANCELLED, wait_end(_metadata, self->fd, id));
	rec_prog_free(&p);
}

/* A program queued behind another on its engine is cancelled at once. */
TEST_F(core, cancel_queued_program)
{
	const int s = 172, t = 173, u = 174;
	struct ncsync_prog_status ps;
	struct rec_prog p = {}, p2 = {};
	__u32 id, id2;

	rec_wait_then_inc(rec_prog_queue(&p, NCSYNC_ENGINE_PE), W_GE, s, 1, t);
	id = submit_ok(_metadata, self->fd, &p, 0, WD_LONG);
	wait_blocked(_metadata, self->fd, id, 0, NULL);
	rec_inc(rec_prog_queue(&p2, NCSYNC_ENGINE_PE), u);
	id2 = submit_ok(_metadata, self->fd, &p2, 0, WD_LONG);
	status_get(_metadata, self->fd, id2, &ps, NULL);
	EXPECT_EQ(NCSYNC_PROG_QUEUED, (int)ps.state);
	ASSERT_EQ(0, cancel(self->fd, id2, 0));
	ASSERT_EQ(NCSYNC_PROG_CANCELLED, wait_end(_metadata, self->fd, id2));
	status_get(_metadata, self->fd, id2, &ps, NULL);
	EXPECT_EQ(NCSYNC_ENG_CANCELLED, ps.engines[0].state);
	EXPECT_EQ(NCSYNC_FAULT_CANCELLED, ps.engines[0].fault);
	sem_set(_metadata, self->fd, s, 1);
	ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->fd, id));
	sleep_ms(20);
	EXPECT_EQ(1, sem_get(_metadata, self->fd, t));
	EXPECT_EQ(0, sem_get(_metadata, self->fd, u));
	rec_prog_free(&p);
	rec_prog_free(&p2);
}

TEST_F(core, cancel_flags_nonzero_einval)
{
	struct rec_prog p = {};
	__u32 id;

	rec_wait_then_inc(rec_prog_queue(&p, NCSYNC_ENGINE_PE), W_GE, 1, 1, 2);
	id = submit_ok(_metadata, self->fd, &p, 0, WD_LONG);
	EXPECT_EQ(-EINVAL, cancel(self->fd, id, 1));
	EXPECT_EQ(0, cancel(self->fd, id, 0));
	EXPECT_EQ(NCSYNC_PROG_CANCELLED, wait_end(_metadata, self->fd, id));
	rec_prog_free(&p);
}

TEST_F(core, unknown_id_enoent)
{
	struct ncsync_prog_status ps;
	__u32 state;

	EXPECT_EQ(-ENOENT, cancel(self->fd, 12345, 0));
	EXPECT_EQ(-ENOENT, cancel(self->fd, 0, 0));
	EXPECT_EQ(-ENOENT, status_raw(self->fd, 12345, 0, &ps, NULL));
	EXPECT_EQ(-ENOENT, status_raw(self->fd, 0, 0, &ps, NULL));
	EXPECT_EQ(-ENOENT, prog_wait(self->fd, 12345, 100, &state));
	EXPECT_EQ(-ENOENT, status_raw(self->fd, 12345,
				      NCSYNC_STATUS_F_RELEASE, &ps, NULL));
}

/* Program ids belong to the descriptor that submitted them. */
TEST_F(core, prog_ids_private_to_descriptor)
{
	struct ncsync_prog_status ps;
	struct rec_prog p = {};
	__u32 id, state;
	int fd2;

	fd2 = open(DEV0, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, fd2);
	rec_wait_then_inc(rec_prog_queue(&p, NCSYNC_ENGINE_ACT), W_GE, 1, 1, 2);
	id = submit_ok(_metadata, self->fd, &p, 0, WD_LONG);
	EXPECT_EQ(-ENOENT, status_raw(fd2, id, 0, &ps, NULL));
	EXPECT_EQ(-ENOENT, cancel(fd2, id, 0));
	EXPECT_EQ(-ENOENT, prog_wait(fd2, id, 50, &state));
	sem_set(_metadata, self->fd, 1, 1);
	ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->fd, id));
	close(fd2);
	rec_prog_free(&p);
}

TEST_F(core, status_release_running_ebusy_ended_then_enoent)
{
	struct ncsync_prog_status ps;
	struct rec_prog p = {};
	__u32 id, state;

	rec_wait_then_inc(rec_prog_queue(&p, NCSYNC_ENGINE_ACT), W_GE, 1, 1, 2);
	id = submit_ok(_metadata, self->fd, &p, 0, WD_LONG);
	wait_blocked(_metadata, self->fd, id, 0, NULL);
	EXPECT_EQ(-EBUSY, status_raw(self->fd, id, NCSYNC_STATUS_F_RELEASE,
				     &ps, NULL));
	status_get(_metadata, self->fd, id, &ps, NULL);
	EXPECT_EQ(NCSYNC_PROG_RUNNING, (int)ps.state);
	sem_set(_metadata, self->fd, 1, 1);
	ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->fd, id));
	EXPECT_EQ(0, status_raw(self->fd, id, NCSYNC_STATUS_F_RELEASE, &ps,
				NULL));
	EXPECT_EQ(NCSYNC_PROG_DONE, (int)ps.state);
	EXPECT_EQ(NCSYNC_ENG_DONE, ps.engines[0].state);
	EXPECT_EQ(-ENOENT, status_raw(self->fd, id, 0, &ps, NULL));
	EXPECT_EQ(-ENOENT, prog_wait(self->fd, id, 50, &state));
	EXPECT_EQ(-ENOENT, cancel(self->fd, id, 0));
	rec_prog_free(&p);
}

TEST_F(core, status_bad_flags_reserved_einval)
{
	struct ncsync_prog_status ps;
	struct rec_prog p = {};
	__u32 id;

	rec_inc(rec_prog_queue(&p, NCSYNC_ENGINE_ACT), 1);
	id = submit_ok(_metadata, self->fd, &p, 0, WD_LONG);
	ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->fd, id));
	EXPECT_EQ(-EINVAL, status_raw(self->fd, id, 4, &ps, NULL));
	memset(&ps, 0, sizeof(ps));
	ps.id = id;
	ps.core = 1;
	EXPECT_EQ(-1, ioctl(self->fd, NCSYNC_IOC_PROG_STATUS, &ps));
	EXPECT_EQ(EINVAL, errno);
	rec_prog_free(&p);
}

/* ---------------------------------------------------------------------- */
/* Reset, poll, processes                                                  */

TEST_F(core, reset_cancels_blocked_program_and_clears_banks)
{
	const int s = 180, e = 181;
	struct ncsync_prog_status ps;
	__u32 evts[256];
	__s32 sems[256];
	struct rec_prog p = {}, p2 = {};
	unsigned int i;
	__u32 id, id2;

	sem_set(_metadata, self->fd, 5, 55);
	evt_set(_metadata, self->fd, 6, true);
	rec_wait_then_inc(rec_prog_queue(&p, NCSYNC_ENGINE_POOL), W_GE, s, 1,
			  s);
	rec_noop(rec_prog_queue(&p, NCSYNC_ENGINE_SP), W_EVT_SET, e, U_INC, 7,
		 0);
	id = submit_ok(_metadata, self->fd, &p, 0, WD_LONG);
	wait_blocked(_metadata, self->fd, id, 0, NULL);
	wait_blocked(_metadata, self->fd, id, 1, NULL);
	/* queued behind */
	rec_inc(rec_prog_queue(&p2, NCSYNC_ENGINE_SP), 8);
	id2 = submit_ok(_metadata, self->fd, &p2, 0, WD_LONG);
	core_reset(_metadata, self->fd);
	ASSERT_EQ(NCSYNC_PROG_CANCELLED, wait_end(_metadata, self->fd, id));
	ASSERT_EQ(NCSYNC_PROG_CANCELLED, wait_end(_metadata, self->fd, id2));
	status_get(_metadata, self->fd, id, &ps, NULL);
	for (i = 0; i < 2; i++) {
		EXPECT_EQ(NCSYNC_ENG_CANCELLED, ps.engines[i].state);
		EXPECT_EQ(NCSYNC_FAULT_RESET, ps.engines[i].fault);
	}
	status_get(_metadata, self->fd, id2, &ps, NULL);
	EXPECT_EQ(NCSYNC_ENG_CANCELLED, ps.engines[0].state);
	EXPECT_EQ(NCSYNC_FAULT_RESET, ps.engines[0].fault);
	sems_get(_metadata, self->fd, sems);
	ASSERT_EQ((ssize_t)sizeof(evts), pread(self->fd, evts, sizeof(evts), EVT(0)));
	for (i = 0; i < 256; i++) {
		EXPECT_EQ(0, sems[i]) TH_LOG("sem %u", i);
		EXPECT_EQ(0U, evts[i]) TH_LOG("event %u", i);
	}
	/* the engines run new programs */
	rec_prog_free(&p);
	rec_inc(rec_prog_queue(&p, NCSYNC_ENGINE_POOL), s);
	id = submit_ok(_metadata, self->fd, &p, 0, WD_LONG);
	ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->fd, id));
	EXPECT_EQ(1, sem_get(_metadata, self->fd, s));
	EXPECT_EQ(0, sem_get(_metadata, self->fd, 8));
	rec_prog_free(&p);
	rec_prog_free(&p2);
}

TEST_F(core, poll_epollpri_when_program_ends)
{
	struct pollfd pfd = { .fd = self->fd, .events = POLLPRI };
	struct ncsync_prog_status ps;
	struct rec_prog p = {}, p2 = {};
	__u32 id, state;

	rec_wait_then_inc(rec_prog_queue(&p, NCSYNC_ENGINE_POOL), W_GE, 1, 1,
			  2);
	id = submit_ok(_metadata, self->fd, &p, 0, WD_LONG);
	wait_blocked(_metadata, self->fd, id, 0, NULL);
	EXPECT_EQ(0, poll(&pfd, 1, 0));
	sem_set(_metadata, self->fd, 1, 1);
	ASSERT_EQ(1, poll(&pfd, 1, LONG_MS));
	EXPECT_TRUE((pfd.revents & POLLPRI) != 0);
	/* still there, until the end is reported */
	ASSERT_EQ(1, poll(&pfd, 1, 0));
	EXPECT_TRUE((pfd.revents & POLLPRI) != 0);
	status_get(_metadata, self->fd, id, &ps, NULL);
	EXPECT_EQ(NCSYNC_PROG_DONE, (int)ps.state);
	EXPECT_EQ(0, poll(&pfd, 1, 0)) TH_LOG("EPOLLPRI after PROG_STATUS");

	/* PROG_WAIT reports the end too */
	rec_inc(rec_prog_queue(&p2, NCSYNC_ENGINE_ACT), 3);
	id = submit_ok(_metadata, self->fd, &p2, 0, WD_LONG);
	ASSERT_EQ(1, poll(&pfd, 1, LONG_MS));
	EXPECT_TRUE((pfd.revents & POLLPRI) != 0);
	ASSERT_EQ(0, prog_wait(self->fd, id, LONG_MS, &state));
	EXPECT_EQ(NCSYNC_PROG_DONE, (int)state);
	EXPECT_EQ(0, poll(&pfd, 1, 0)) TH_LOG("EPOLLPRI after PROG_WAIT");
	rec_prog_free(&p);
	rec_prog_free(&p2);
}

/* A child whose program is blocked is killed: its program goes away. */
TEST_F(core, kill9_child_program_does_not_linger)
{
	const int s = 190, t = 191, u = 192;
	struct rec_prog p = {};
	int pipefd[2], status;
	char c = 0;
	pid_t pid;
	__u32 id;

	ASSERT_EQ(0, pipe(pipefd));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		struct ncsync_prog_status ps;
		struct ncsync_submit sub;
		struct rec_prog cp = {};
		int cfd = open(DEV0, O_RDWR);

		close(pipefd[0]);
		if (cfd < 0)
			_exit(1);
		rec_wait_then_inc(rec_prog_queue(&cp, NCSYNC_ENGINE_POOL), W_GE,
				  s, 1, u);
		if (rec_prog_submit(cfd, &cp, 0, WD_LONG, &sub))
			_exit(2);
		do {
			usleep(1000);
			if (status_raw(cfd, sub.id, 0, &ps, NULL))
				_exit(3);
		} while (ps.engines[0].state != NCSYNC_ENG_BLOCKED);
		if (write(pipefd[1], "B", 1) != 1)
			_exit(4);
		for (;;)
			pause();
	}
	close(pipefd[1]);
	ASSERT_EQ(1, read(pipefd[0], &c, 1));
	close(pipefd[0]);
	ASSERT_EQ('B', c);
	ASSERT_EQ(0, kill(pid, SIGKILL));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFSIGNALED(status));

	/* the engine is free; the child's wait never passes now */
	sem_set(_metadata, self->fd, s, 1);
	rec_inc(rec_prog_queue(&p, NCSYNC_ENGINE_POOL), t);
	id = submit_ok(_metadata, self->fd, &p, 0, WD_LONG);
	ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->fd, id));
	EXPECT_EQ(1, sem_get(_metadata, self->fd, t));
	EXPECT_EQ(0, sem_get(_metadata, self->fd, u))
		TH_LOG("the killed child's program ran on");
	core_reset(_metadata, self->fd);
	id = submit_ok(_metadata, self->fd, &p, 0, WD_LONG);
	ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->fd, id));
	EXPECT_EQ(1, sem_get(_metadata, self->fd, t));
	rec_prog_free(&p);
}

/*
 * A mapping holds the open file: after close(2), the program goes on until
 * the mapping is gone too.
 */
TEST_F(core, program_survives_close_while_mapped)
{
	const int s = 193, t = 194;
	struct rec_prog p = {};
	void *map;
	int fd2;

	fd2 = open(DEV0, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, fd2);
	map = mmap(NULL, 8192, PROT_READ, MAP_SHARED, fd2, 0);
	ASSERT_NE(MAP_FAILED, map);
	rec_wait_then_inc(rec_prog_queue(&p, NCSYNC_ENGINE_DVE), W_GE, s, 1, t);
	submit_ok(_metadata, fd2, &p, 0, WD_LONG);
	close(fd2);
	sleep_ms(20);
	sem_set(_metadata, self->fd, s, 1);
	ASSERT_EQ(0, sem_wait_ioctl(self->fd, t, W_GE, 1, LONG_MS))
		TH_LOG("the program did not survive the close");
	munmap(map, 8192);
	rec_prog_free(&p);
}

#define NPROC		4
#define NPROG		16
#define NREC		10
#define SEM_TOTAL	200

static int child_submitter(unsigned int c, int gate)
{
	char x;
	int fd, k;

	fd = open(DEV0, O_RDWR);
	if (fd < 0)
		return 10;
	if (read(gate, &x, 1) != 0)	/* wait for the parent's close */
		return 11;
	for (k = 0; k < NPROG; k++) {
		struct ncsync_prog_status ps;
		struct ncsync_submit sub;
		struct rec_prog p = {};
		unsigned int e, i;
		__u32 state;

		for (e = 0; e < 2; e++) {
			struct rec_queue *q;

			q = rec_prog_queue(&p, engine_ids[(c + e + k) % 5]);
			for (i = 0; i < NREC; i++) {
				__u8 *r = rec_evsem(q);

				rec_lane0(r, 0, 0, U_COMPLETE | U_INC,
					 SEM_TOTAL, 0);
				rec_lane1(r, 0, 0, U_COMPLETE | U_INC, 201 + c,
					 0, 1);
			}
		}
		if (rec_prog_submit(fd, &p, 0, WD_LONG, &sub))
			return 12;
		if (prog_wait(fd, sub.id, LONG_MS, &state))
			return 13;
		if (state != NCSYNC_PROG_DONE)
			return 14;
		if (status_raw(fd, sub.id, NCSYNC_STATUS_F_RELEASE, &ps, NULL))
			return 15;
		rec_prog_free(&p);
	}
	close(fd);
	return 0;
}

TEST_F_TIMEOUT(core, fork4_concurrent_submitters, 120)
{
	pid_t pids[NPROC];
	unsigned int c;
	int gate[2], status;

	ASSERT_EQ(0, pipe(gate));
	for (c = 0; c < NPROC; c++) {
		pids[c] = fork();
		ASSERT_LE(0, pids[c]);
		if (pids[c] == 0) {
			close(gate[1]);
			_exit(child_submitter(c, gate[0]));
		}
	}
	close(gate[0]);
	close(gate[1]);
	for (c = 0; c < NPROC; c++) {
		ASSERT_EQ(pids[c], waitpid(pids[c], &status, 0));
		EXPECT_TRUE(WIFEXITED(status));
		EXPECT_EQ(0, WEXITSTATUS(status)) TH_LOG("child %u", c);
	}
	EXPECT_EQ(NPROC * NPROG * 2 * NREC,
		  sem_get(_metadata, self->fd, SEM_TOTAL));
	for (c = 0; c < NPROC; c++)
		EXPECT_EQ(NPROG * 2 * NREC,
			  sem_get(_metadata, self->fd, 201 + c));
}

/*
 * Programs sharing an engine run in submission order: B (Pool + Act) waits
 * for A (Pool, blocked) to end, and so does C (Act) queued behind B; D (PE)
 * shares no engine and runs at once.
 */
TEST_F(core, same_engine_programs_run_in_order)
{
	const int s = 210, t = 211, r = 212, v = 213, w = 214,
			   x = 215;
	struct rec_prog a = {}, b = {}, c = {}, d = {};
	struct ncsync_prog_status ps;
	struct rec_queue *q;
	__u32 ia, ib, ic, id;

	rec_wait_then_inc(rec_prog_queue(&a, NCSYNC_ENGINE_POOL), W_GE, s, 1,
			  t);
	ia = submit_ok(_metadata, self->fd, &a, 0, WD_LONG);
	wait_blocked(_metadata, self->fd, ia, 0, NULL);

	q = rec_prog_queue(&b, NCSYNC_ENGINE_POOL);
	rec_poll(q, NCSYNC_POLL_MIN, 1, t, 1);
	rec_store_reg(q, r, 1);			/* R = T as B sees it */
	rec_inc(rec_prog_queue(&b, NCSYNC_ENGINE_ACT), v);
	ib = submit_ok(_metadata, self->fd, &b, 0, WD_LONG);
	rec_inc(rec_prog_queue(&c, NCSYNC_ENGINE_ACT), w);
	ic = submit_ok(_metadata, self->fd, &c, 0, WD_LONG);
	rec_inc(rec_prog_queue(&d, NCSYNC_ENGINE_PE), x);
	id = submit_ok(_metadata, self->fd, &d, 0, WD_LONG);
	ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->fd, id));
	EXPECT_EQ(1, sem_get(_metadata, self->fd, x));

	sleep_ms(50);
	status_get(_metadata, self->fd, ib, &ps, NULL);
	EXPECT_EQ(NCSYNC_PROG_QUEUED, (int)ps.state);
	EXPECT_EQ(NCSYNC_ENG_QUEUED, ps.engines[0].state);
	EXPECT_EQ(NCSYNC_ENG_QUEUED, ps.engines[1].state);
	status_get(_metadata, self->fd, ic, &ps, NULL);
	EXPECT_EQ(NCSYNC_PROG_QUEUED, (int)ps.state);
	EXPECT_EQ(0, sem_get(_metadata, self->fd, v));
	EXPECT_EQ(0, sem_get(_metadata, self->fd, w));
	EXPECT_EQ(0, sem_get(_metadata, self->fd, r));

	sem_set(_metadata, self->fd, s, 1);
	ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->fd, ia));
	ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->fd, ib));
	ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->fd, ic));
	EXPECT_EQ(1, sem_get(_metadata, self->fd, r))
		TH_LOG("B ran before A ended");
	EXPECT_EQ(1, sem_get(_metadata, self->fd, v));
	EXPECT_EQ(1, sem_get(_metadata, self->fd, w));
	rec_prog_free(&a);
	rec_prog_free(&b);
	rec_prog_free(&c);
	rec_prog_free(&d);
}

TEST_HARNESS_MAIN
