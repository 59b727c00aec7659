// SPDX-License-Identifier: GPL-2.0
/*
 * ncsync selftests: libncsync against the real driver.
 *
 * The host-only tests of lib/test/ check what the library builds; these run
 * what it builds on core 0 of the loaded module, through the library's own
 * device API (ncsync_open() and friends): the banks and their mapping,
 * waits, programs built with the builders, the barriers and their two
 * lowerings, the lower_control fence, DMA and Drain, the text form, and the
 * submission and program ioctls.
 *
 * Every test of the "core" fixture starts from a freshly reset core 0.  Run
 * inside the test VM:  tools/vm-run build/selftests/ncsync_lib_test
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

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * NSEC_PER_SEC + ts.tv_nsec;
}

static struct timespec deadline_ms(int64_t ms)
{
	struct timespec ts;

	ncsync_deadline_after(&ts, ms * NSEC_PER_MSEC);
	return ts;
}

static void sleep_ms(int ms)
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

static struct ncsync_program *prog_new(struct __test_metadata *_metadata)
{
	struct ncsync_program *prog = NULL;

	ASSERT_EQ(0, ncsync_program_new(&prog));
	ASSERT_NE(NULL, prog);
	return prog;
}

static struct ncsync_stream *stream(struct __test_metadata *_metadata,
				    struct ncsync_program *prog,
				    uint8_t engine)
{
	struct ncsync_stream *s = NULL;

	ASSERT_EQ(0, ncsync_program_stream(prog, engine, &s));
	ASSERT_NE(NULL, s);
	return s;
}

static uint32_t submit(struct __test_metadata *_metadata,
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
static int wait_end(struct __test_metadata *_metadata,
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

static void status_get(struct __test_metadata *_metadata,
		       struct ncsync_dev *dev, uint32_t id,
		       struct ncsync_prog_status *st,
		       struct ncsync_sem_value *sems)
{
	int ret = ncsync_program_status(dev, id, false, st, sems);

	ASSERT_EQ(0, ret) TH_LOG("status of %u: %s", id, strerror(-ret));
}

/* The status entry of @engine, or NULL. */
static const struct ncsync_engine_status *
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
static void status_log(struct __test_metadata *_metadata,
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
static void wait_blocked(struct __test_metadata *_metadata,
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
static int32_t snap_sem(const struct ncsync_sem_value *sems, uint32_t n,
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

/* ---------------------------------------------------------------------- */
/* The device API                                                          */

static long sysfs_param(const char *name)
{
	char path[128], buf[32];
	long v = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/module/ncsync/parameters/%s", name);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (fgets(buf, sizeof(buf), f))
		v = strtol(buf, NULL, 10);
	fclose(f);
	return v;
}

TEST_F(core, get_info)
{
	const struct ncsync_info *info = self->info;
	struct ncsync_dev *other;
	long wd;

	EXPECT_EQ((unsigned int)(NCSYNC_API_VERSION), info->api_version);
	EXPECT_EQ(0U, info->core);
	EXPECT_LE(1U, info->num_cores);
	EXPECT_EQ((unsigned int)(NCSYNC_NUM_SEMS), info->num_sems);
	EXPECT_EQ((unsigned int)(NCSYNC_NUM_EVENTS), info->num_events);
	EXPECT_EQ((unsigned int)(NCSYNC_CSR_SIZE), info->csr_size);
	EXPECT_EQ((unsigned int)(NCSYNC_NUM_SEMS),
		  info->rt_reserved_sem_first + info->rt_reserved_sem_count);
	EXPECT_EQ((unsigned int)(NCSYNC_NUM_EVENTS),
		  info->rt_reserved_event_first +
		  info->rt_reserved_event_count);
	EXPECT_EQ((unsigned int)(NCSYNC_DEVMEM_OFFSET), info->devmem_offset);
	EXPECT_LE(4096U, info->devmem_size);
	EXPECT_EQ((unsigned int)(NCSYNC_ENGINE_MASK), info->engine_mask);
	EXPECT_EQ((unsigned int)(NCSYNC_NUM_REGS), info->num_regs);
	EXPECT_LE(1U, info->watchdog_ms);
	EXPECT_LE(1U, info->lnc);
	wd = sysfs_param("watchdog_ms");
	if (wd >= 0)
		EXPECT_EQ(wd, (long)info->watchdog_ms);
	EXPECT_EQ(sysfs_param("cores"), (long)info->num_cores);

	/* The last core, read-only, and one past it. */
	ASSERT_EQ(0, ncsync_open(info->num_cores - 1, false, &other));
	EXPECT_EQ(info->num_cores - 1, ncsync_get_info(other)->core);
	EXPECT_EQ(info->num_cores, ncsync_get_info(other)->num_cores);
	EXPECT_LE(0, ncsync_fd(other));
	EXPECT_NE(ncsync_fd(self->dev), ncsync_fd(other));
	ncsync_close(other);
	other = NULL;
	EXPECT_EQ(-ENOENT, ncsync_open(info->num_cores, true, &other));
	EXPECT_EQ(NULL, other);
	ncsync_close(NULL);
}

/*
 * A read-only open reads everything (mapping, pread, READ batches, plain
 * waits, info, stats, ack) and changes nothing: every update is -EBADF and
 * leaves the banks as they were.
 */
/* Everything that only reads works through read-only descriptor @ro. */
static void ro_reads(struct __test_metadata *_metadata, struct ncsync_dev *ro)
{
	struct ncsync_op ops[2] = {
		{ .bank = NCSYNC_BANK_SEM, .op = NCSYNC_OP_READ, .index = 7 },
		{ .bank = NCSYNC_BANK_EVENT, .op = NCSYNC_OP_READ, .index = 9 },
	};
	struct ncsync_stats stats;
	struct timespec past = { 0, 0 };
	int32_t seen = 0;
	uint32_t val;
	uint64_t seq;

	EXPECT_EQ(1234, ncsync_sem_read(ro, 7));
	EXPECT_TRUE(ncsync_event_read(ro, 9));
	EXPECT_EQ(0, ncsync_csr_read(ro, NCSYNC_CSR_SEM_READ + 4 * 7, &val, 1));
	EXPECT_EQ(1234U, val);
	EXPECT_EQ(0, ncsync_batch(ro, ops, 2));
	EXPECT_EQ(1234, ops[0].after);
	EXPECT_EQ(1, ops[1].after);
	EXPECT_EQ(0, ncsync_wait_sem(ro, 7, NCSYNC_WAIT_SEM_EQ, 1234, &past,
				     &seen));
	EXPECT_EQ(1234, seen);
	EXPECT_EQ(0, ncsync_wait_event(ro, 9, NCSYNC_WAIT_EVT_SET, &past));
	EXPECT_EQ(0, ncsync_stats(ro, &stats));
	EXPECT_EQ(0, ncsync_ack(ro, &seq));
	EXPECT_EQ(stats.seq, seq);
}

/* Every update through read-only descriptor @ro is refused with EBADF. */
static void ro_updates_refused(struct __test_metadata *_metadata,
			       struct ncsync_dev *ro)
{
	struct ncsync_op upd = {
		.bank = NCSYNC_BANK_SEM, .op = NCSYNC_OP_INC, .index = 7,
		.value = 1,
	};
	struct timespec past = { 0, 0 };
	uint32_t val;

	EXPECT_EQ(-EBADF, ncsync_sem_set(ro, 7, 1, NULL));
	EXPECT_EQ(-EBADF, ncsync_sem_inc(ro, 7, 1, NULL));
	EXPECT_EQ(-EBADF, ncsync_sem_dec(ro, 7, 1, NULL));
	EXPECT_EQ(-EBADF, ncsync_event_set(ro, 8));
	EXPECT_EQ(-EBADF, ncsync_event_clear(ro, 9));
	EXPECT_EQ(-EBADF, ncsync_batch(ro, &upd, 1));
	EXPECT_EQ(-EBADF, ncsync_reset(ro));
	val = 5;
	EXPECT_EQ(-EBADF, ncsync_csr_write(ro, NCSYNC_CSR_SEM_SET + 4 * 7,
					   &val, 1));
	/* A consuming wait is an update. */
	EXPECT_EQ(-EBADF, ncsync_wait_event(ro, 9,
					    NCSYNC_WAIT_EVT_SET_THEN_CLEAR,
					    &past));
}

TEST_F(core, open_read_only_vs_writable)
{
	struct ncsync_program *prog;
	struct ncsync_prog_status st;
	struct ncsync_dev *ro;
	uint32_t id = 0;

	ASSERT_EQ(0, ncsync_sem_set(self->dev, 7, 1234, NULL));
	ASSERT_EQ(0, ncsync_event_set(self->dev, 9));
	ASSERT_EQ(0, ncsync_open(0, false, &ro));

	/* Reads */
	ro_reads(_metadata, ro);

	/* Updates */
	ro_updates_refused(_metadata, ro);
	prog = prog_new(_metadata);
	ADD(ncsync_add_semaphore_inc(stream(_metadata, prog,
					    NCSYNC_ENGINE_POOL), 7));
	EXPECT_EQ(-EBADF, ncsync_program_submit(ro, prog, 0, WD_LONG, &id,
						NULL));
	EXPECT_EQ(-ENOENT, ncsync_program_status(ro, 1, false, &st, NULL));

	/* Nothing changed. */
	EXPECT_EQ(1234, ncsync_sem_read(self->dev, 7));
	EXPECT_TRUE(ncsync_event_read(self->dev, 9));
	EXPECT_FALSE(ncsync_event_read(self->dev, 8));

	/* The same program through the writable descriptor runs. */
	id = submit(_metadata, self->dev, prog, 0, WD_LONG);
	EXPECT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->dev, id));
	EXPECT_EQ(1235, ncsync_sem_read(ro, 7));

	ncsync_program_free(prog);
	ncsync_close(ro);
}

/* Semaphore set, increment and decrement, with the value after each. */
static void sem_updates(struct __test_metadata *_metadata,
			struct ncsync_dev *dev)
{
	int32_t after = 0;

	EXPECT_EQ(0, ncsync_sem_set(dev, 3, -17, &after));
	EXPECT_EQ(-17, after);
	EXPECT_EQ(-17, ncsync_sem_read(dev, 3));
	EXPECT_EQ(0, ncsync_sem_inc(dev, 3, 20, &after));
	EXPECT_EQ(3, after);
	EXPECT_EQ(0, ncsync_sem_dec(dev, 3, 5, &after));
	EXPECT_EQ(-2, after);
	EXPECT_EQ(-2, ncsync_sem_read(dev, 3));
	/* NULL @after is allowed */
	EXPECT_EQ(0, ncsync_sem_inc(dev, 3, 2, NULL));
	EXPECT_EQ(0, ncsync_sem_read(dev, 3));

	/* Wrap-around, counted as an overflow. */
	EXPECT_EQ(0, ncsync_sem_set(dev, 4, INT32_MAX, NULL));
	EXPECT_EQ(0, ncsync_sem_inc(dev, 4, 1, &after));
	EXPECT_EQ(INT32_MIN, after);
	EXPECT_EQ(INT32_MIN, ncsync_sem_read(dev, 4));
}

/* Several CSRs at once; the window's bounds. */
static void csr_ranges(struct __test_metadata *_metadata,
		       struct ncsync_dev *dev)
{
	uint32_t vals[3];

	EXPECT_EQ(0, ncsync_csr_read(dev,
				     NCSYNC_CSR_SEM_READ + 4 * 3,
				     vals, 3));
	EXPECT_EQ(0U, vals[0]);
	EXPECT_EQ((uint32_t)INT32_MIN, vals[1]);
	EXPECT_EQ(0U, vals[2]);
	vals[0] = 1;
	vals[1] = 2;
	EXPECT_EQ(0, ncsync_csr_write(dev,
				      NCSYNC_CSR_SEM_SET + 4 * 5,
				      vals, 2));
	EXPECT_EQ(1, ncsync_sem_read(dev, 5));
	EXPECT_EQ(2, ncsync_sem_read(dev, 6));
	EXPECT_EQ(-EINVAL, ncsync_csr_read(dev,
					   NCSYNC_CSR_SIZE - 4, vals,
					   2));
	EXPECT_EQ(-EINVAL, ncsync_csr_write(dev,
					    NCSYNC_CSR_SEM_READ, vals,
					    1));
}

TEST_F(core, sem_and_event_updates)
{
	struct ncsync_stats st0, st1;
	uint32_t v;

	ASSERT_EQ(0, ncsync_stats(self->dev, &st0));

	sem_updates(_metadata, self->dev);

	/* Events, including the two counted misuses. */
	EXPECT_FALSE(ncsync_event_read(self->dev, 200));
	EXPECT_EQ(0, ncsync_event_set(self->dev, 200));
	EXPECT_TRUE(ncsync_event_read(self->dev, 200));
	EXPECT_EQ(0, ncsync_event_set(self->dev, 200));
	EXPECT_TRUE(ncsync_event_read(self->dev, 200));
	EXPECT_EQ(0, ncsync_event_clear(self->dev, 200));
	EXPECT_FALSE(ncsync_event_read(self->dev, 200));
	EXPECT_EQ(0, ncsync_event_clear(self->dev, 200));
	EXPECT_FALSE(ncsync_event_read(self->dev, 200));

	/* Index 255 is the last of each bank. */
	EXPECT_EQ(0, ncsync_sem_set(self->dev, 255, 9, NULL));
	EXPECT_EQ(9, ncsync_sem_read(self->dev, 255));
	EXPECT_EQ(0, ncsync_event_set(self->dev, 255));
	EXPECT_TRUE(ncsync_event_read(self->dev, 255));
	EXPECT_EQ(0, ncsync_csr_read(self->dev, NCSYNC_CSR_EVENTS + 4 * 255,
				     &v, 1));
	EXPECT_EQ(1U, v);

	/* Bad indices */
	EXPECT_EQ(-EINVAL, ncsync_sem_set(self->dev, 256, 1, NULL));
	EXPECT_EQ(-EINVAL, ncsync_event_set(self->dev, 256));

	csr_ranges(_metadata, self->dev);

	ASSERT_EQ(0, ncsync_stats(self->dev, &st1));
	EXPECT_EQ(st0.sem_overflows + 1, st1.sem_overflows);
	EXPECT_EQ(st0.event_set_while_set + 1, st1.event_set_while_set);
	EXPECT_EQ(st0.event_clear_while_clear + 1,
		  st1.event_clear_while_clear);
	EXPECT_LT(st0.seq, st1.seq);
	EXPECT_EQ(st0.resets, st1.resets);
}

/*
 * The mapping is a live view: a child confined by seccomp strict mode
 * (read, write and exit only) watches semaphores and events change through
 * a read-only descriptor's mapping while the parent updates them by ioctl
 * and by pwrite.  Any system call in ncsync_sem_read() or
 * ncsync_event_read() would kill the child.
 */
#define SPIN_MAX	0x100000000ULL

static bool spin_sem(const struct ncsync_dev *dev, unsigned int idx,
		     int32_t want)
{
	uint64_t i;

	for (i = 0; i < SPIN_MAX; i++)
		if (ncsync_sem_read(dev, idx) == want)
			return true;
	return false;
}

static bool spin_event(const struct ncsync_dev *dev, unsigned int idx,
		       bool want)
{
	uint64_t i;

	for (i = 0; i < SPIN_MAX; i++)
		if (ncsync_event_read(dev, idx) == want)
			return true;
	return false;
}

static void mapping_child(const struct ncsync_dev *ro, int tx, int rx)
{
	static const struct {
		bool event;
		unsigned int idx;
		int32_t want;
	} steps[] = {
		{ false, 21, 11 },	/* ioctl set */
		{ false, 21, 22 },	/* pwrite SEM_SET */
		{ false, 21, 27 },	/* pwrite SEM_INC */
		{ false, 21, 24 },	/* ioctl dec */
		{ true, 33, 1 },	/* ioctl event set */
		{ true, 33, 0 },	/* pwrite event clear */
		{ true, 34, 1 },	/* pwrite event set */
	};
	unsigned int i;
	char c;

	if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_STRICT))
		syscall(SYS_exit, 3);
	for (i = 0; i < ARRAY_SIZE(steps); i++) {
		bool ok;

		/* Wait for the parent's go, then spin on the mapping. */
		if (read(rx, &c, 1) != 1)
			syscall(SYS_exit, 4);
		if (steps[i].event)
			ok = spin_event(ro, steps[i].idx, steps[i].want);
		else
			ok = spin_sem(ro, steps[i].idx, steps[i].want);
		c = ok ? 'a' + i : 'x';
		if (write(tx, &c, 1) != 1 || !ok)
			syscall(SYS_exit, 5);
	}
	syscall(SYS_exit, 0);
}

/* Make update @step (0 to 6) of the mapping test through @dev. */
static void mapping_step(struct __test_metadata *_metadata,
			 struct ncsync_dev *dev, unsigned int step)
{
	uint32_t v;

	switch (step) {
	case 0:
		ASSERT_EQ(0, ncsync_sem_set(dev, 21, 11, NULL));
		break;
	case 1:
		v = 22;
		ASSERT_EQ(0, ncsync_csr_write(dev,
					      NCSYNC_CSR_SEM_SET + 4 * 21,
					      &v, 1));
		break;
	case 2:
		v = 5;
		ASSERT_EQ(0, ncsync_csr_write(dev,
					      NCSYNC_CSR_SEM_INC + 4 * 21,
					      &v, 1));
		break;
	case 3:
		ASSERT_EQ(0, ncsync_sem_dec(dev, 21, 3, NULL));
		break;
	case 4:
		ASSERT_EQ(0, ncsync_event_set(dev, 33));
		break;
	case 5:
		v = 0;
		ASSERT_EQ(0, ncsync_csr_write(dev,
					      NCSYNC_CSR_EVENTS + 4 * 33,
					      &v, 1));
		break;
	case 6:
		v = 1;
		ASSERT_EQ(0, ncsync_csr_write(dev,
					      NCSYNC_CSR_EVENTS + 4 * 34,
					      &v, 1));
		break;
	}
}

TEST_F_TIMEOUT(core, mapping_sees_updates_without_syscalls, 300)
{
	struct ncsync_dev *ro;
	int up[2], down[2], status;
	unsigned int step;
	pid_t pid;
	char c;

	ASSERT_EQ(0, ncsync_open(0, false, &ro));
	ASSERT_EQ(0, pipe(up));
	ASSERT_EQ(0, pipe(down));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		close(up[0]);
		close(down[1]);
		mapping_child(ro, up[1], down[0]);
	}
	close(up[1]);
	close(down[0]);

	for (step = 0; step < 7; step++) {
		mapping_step(_metadata, self->dev, step);
		c = 'g';
		ASSERT_EQ(1, write(down[1], &c, 1));
		ASSERT_EQ(1, read(up[0], &c, 1))
			TH_LOG("the child died at step %u", step);
		ASSERT_EQ('a' + (int)step, c)
			TH_LOG("step %u: the mapping never showed the update",
			       step);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status))
		TH_LOG("child killed by signal %d (a system call under seccomp?)",
		       WIFSIGNALED(status) ? WTERMSIG(status) : 0);
	EXPECT_EQ(0, WEXITSTATUS(status));
	close(up[0]);
	close(down[1]);
	ncsync_close(ro);
}

TEST_F(core, batch)
{
	struct ncsync_op ops[] = {
		{ .bank = NCSYNC_BANK_SEM, .op = NCSYNC_OP_SET, .index = 10,
		  .value = 5 },
		{ .bank = NCSYNC_BANK_SEM, .op = NCSYNC_OP_INC, .index = 10,
		  .value = 2 },
		{ .bank = NCSYNC_BANK_SEM, .op = NCSYNC_OP_INC, .index = 10,
		  .value = 2 },
		{ .bank = NCSYNC_BANK_SEM, .op = NCSYNC_OP_DEC, .index = 10,
		  .value = 1 },
		{ .bank = NCSYNC_BANK_SEM, .op = NCSYNC_OP_READ, .index = 10 },
		{ .bank = NCSYNC_BANK_EVENT, .op = NCSYNC_OP_SET, .index = 3 },
		{ .bank = NCSYNC_BANK_EVENT, .op = NCSYNC_OP_READ, .index = 3 },
		{ .bank = NCSYNC_BANK_EVENT, .op = NCSYNC_OP_CLEAR, .index = 3 },
		{ .bank = NCSYNC_BANK_EVENT, .op = NCSYNC_OP_SET, .index = 4 },
	};
	static const int32_t before[] = { 0, 5, 7, 9, 8, 0, 1, 1, 0 };
	static const int32_t after[] = { 5, 7, 9, 8, 8, 1, 1, 0, 1 };
	struct ncsync_op bad[] = {
		{ .bank = NCSYNC_BANK_SEM, .op = NCSYNC_OP_INC, .index = 11,
		  .value = 1 },
		{ .bank = NCSYNC_BANK_EVENT, .op = NCSYNC_OP_INC, .index = 5,
		  .value = 1 },
	};
	unsigned int i;

	ASSERT_EQ(0, ncsync_batch(self->dev, ops, ARRAY_SIZE(ops)));
	for (i = 0; i < ARRAY_SIZE(ops); i++) {
		EXPECT_EQ(before[i], ops[i].before) TH_LOG("op %u", i);
		EXPECT_EQ(after[i], ops[i].after) TH_LOG("op %u", i);
	}
	EXPECT_EQ(8, ncsync_sem_read(self->dev, 10));
	EXPECT_FALSE(ncsync_event_read(self->dev, 3));
	EXPECT_TRUE(ncsync_event_read(self->dev, 4));

	/* A bad entry refuses the whole batch; nothing is applied. */
	EXPECT_EQ(-EINVAL, ncsync_batch(self->dev, bad, 2));
	EXPECT_EQ(0, ncsync_sem_read(self->dev, 11));
	EXPECT_EQ(-EINVAL, ncsync_batch(self->dev, ops, 0));
	EXPECT_EQ(-EINVAL, ncsync_batch(self->dev, ops, NCSYNC_MAX_BATCH + 1));
}

/* ---------------------------------------------------------------------- */
/* Waits                                                                   */

struct waiter {
	struct ncsync_dev *dev;
	unsigned int idx;
	bool event;
	uint8_t mode;
	int32_t threshold;
	int64_t ms;		/* deadline; < 0 for none */
	int ret;
	int32_t seen;
	int done;
};

static void *waiter_fn(void *arg)
{
	struct waiter *w = arg;
	struct timespec dl;

	if (w->ms >= 0)
		dl = deadline_ms(w->ms);
	if (w->event)
		w->ret = ncsync_wait_event(w->dev, w->idx, w->mode,
					   w->ms >= 0 ? &dl : NULL);
	else
		w->ret = ncsync_wait_sem(w->dev, w->idx, w->mode,
					 w->threshold,
					 w->ms >= 0 ? &dl : NULL, &w->seen);
	__atomic_store_n(&w->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

static bool waiter_done(struct waiter *w)
{
	return __atomic_load_n(&w->done, __ATOMIC_ACQUIRE);
}

struct prog_waiter {
	struct ncsync_dev *dev;
	uint32_t id;
	int ret;
	int done;
};

static void *prog_waiter_fn(void *arg)
{
	struct prog_waiter *w = arg;
	struct timespec dl = deadline_ms(LONG_MS);

	w->ret = ncsync_program_wait(w->dev, w->id, &dl, NULL);
	__atomic_store_n(&w->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

TEST_F(core, wait_deadlines)
{
	struct timespec dl, past = { 0, 0 };
	int32_t seen = -1;
	int64_t t0, t1;

	/* A past deadline tests once. */
	EXPECT_EQ(-ETIMEDOUT, ncsync_wait_sem(self->dev, 12,
					      NCSYNC_WAIT_SEM_GE, 1, &past,
					      &seen));
	EXPECT_EQ(-1, seen);
	ASSERT_EQ(0, ncsync_sem_set(self->dev, 12, 4, NULL));
	EXPECT_EQ(0, ncsync_wait_sem(self->dev, 12, NCSYNC_WAIT_SEM_GE, 1,
				     &past, &seen));
	EXPECT_EQ(4, seen);
	EXPECT_EQ(0, ncsync_wait_sem(self->dev, 12, NCSYNC_WAIT_SEM_LT, 5,
				     &past, NULL));
	EXPECT_EQ(-ETIMEDOUT, ncsync_wait_sem(self->dev, 12,
					      NCSYNC_WAIT_SEM_LT, 4, &past,
					      NULL));
	EXPECT_EQ(-ETIMEDOUT, ncsync_wait_event(self->dev, 12,
						NCSYNC_WAIT_EVT_SET, &past));
	EXPECT_EQ(0, ncsync_wait_event(self->dev, 12, NCSYNC_WAIT_EVT_CLEAR,
				       &past));

	/* A future deadline that passes: never early. */
	t0 = now_ns();
	dl = deadline_ms(100);
	EXPECT_EQ(-ETIMEDOUT, ncsync_wait_sem(self->dev, 12,
					      NCSYNC_WAIT_SEM_EQ, 5, &dl,
					      NULL));
	t1 = now_ns();
	EXPECT_LE(100 * NSEC_PER_MSEC, t1 - t0);
	dl = deadline_ms(50);
	EXPECT_EQ(-ETIMEDOUT, ncsync_wait_event(self->dev, 13,
						NCSYNC_WAIT_EVT_SET, &dl));
	EXPECT_LE(150 * NSEC_PER_MSEC, now_ns() - t0);

	/* Bad arguments fail before blocking. */
	EXPECT_EQ(-EINVAL, ncsync_wait_sem(self->dev, 12,
					   NCSYNC_WAIT_EVT_SET, 0, NULL,
					   NULL));
	EXPECT_EQ(-EINVAL, ncsync_wait_sem(self->dev, 12,
					   NCSYNC_WAIT_REG | NCSYNC_WAIT_SEM_GE,
					   0, NULL, NULL));
	EXPECT_EQ(-EINVAL, ncsync_wait_event(self->dev, 12,
					     NCSYNC_WAIT_SEM_EQ, NULL));
	EXPECT_EQ(-EINVAL, ncsync_wait_sem(self->dev, 256,
					   NCSYNC_WAIT_SEM_EQ, 0, NULL, NULL));
}

/* Waits in another thread end when the banks change. */
TEST_F(core, wait_woken_by_updates)
{
	struct waiter ws = {
		.dev = self->dev, .idx = 14, .mode = NCSYNC_WAIT_SEM_GE,
		.threshold = 3, .ms = LONG_MS, .ret = 1,
	};
	struct waiter we = {
		.dev = self->dev, .idx = 15, .event = true,
		.mode = NCSYNC_WAIT_EVT_SET_THEN_CLEAR, .ms = -1, .ret = 1,
	};
	pthread_t ts, te;
	uint32_t v = 1;

	ASSERT_EQ(0, pthread_create(&ts, NULL, waiter_fn, &ws));
	ASSERT_EQ(0, pthread_create(&te, NULL, waiter_fn, &we));
	sleep_ms(50);
	ASSERT_EQ(0, ncsync_sem_inc(self->dev, 14, 1, NULL));
	ASSERT_EQ(0, ncsync_sem_inc(self->dev, 14, 1, NULL));
	sleep_ms(50);
	EXPECT_FALSE(waiter_done(&ws));
	ASSERT_EQ(0, ncsync_sem_inc(self->dev, 14, 1, NULL));
	/* The event waiter has no deadline: the event set ends it. */
	ASSERT_EQ(0, ncsync_csr_write(self->dev, NCSYNC_CSR_EVENTS + 4 * 15,
				      &v, 1));
	ASSERT_EQ(0, pthread_join(ts, NULL));
	ASSERT_EQ(0, pthread_join(te, NULL));
	EXPECT_EQ(0, ws.ret);
	EXPECT_EQ(3, ws.seen);
	EXPECT_EQ(0, we.ret);
	/* set-then-clear consumed the event */
	EXPECT_FALSE(ncsync_event_read(self->dev, 15));
}

/*
 * A reset from another thread ends waits in progress with -ECANCELED, with
 * or without a deadline, through a read-only descriptor too.  The main
 * thread resets every 20 ms until the waiters return, so that a reset
 * before a waiter has started waiting only delays the test.
 */
TEST_F(core, wait_canceled_by_reset)
{
	struct waiter w[3] = {
		{ .idx = 16, .mode = NCSYNC_WAIT_SEM_GE, .threshold = 1,
		  .ms = LONG_MS, .ret = 1 },
		{ .idx = 17, .mode = NCSYNC_WAIT_SEM_EQ, .threshold = 9,
		  .ms = -1, .ret = 1 },
		{ .idx = 18, .event = true, .mode = NCSYNC_WAIT_EVT_SET,
		  .ms = LONG_MS, .ret = 1 },
	};
	struct ncsync_stats st0, st1;
	struct ncsync_dev *ro;
	int64_t end = now_ns() + LONG_MS * NSEC_PER_MSEC;
	pthread_t t[3];
	unsigned int i, resets = 0;
	bool all;

	ASSERT_EQ(0, ncsync_open(0, false, &ro));
	w[0].dev = self->dev;
	w[1].dev = ro;
	w[2].dev = self->dev;
	ASSERT_EQ(0, ncsync_stats(self->dev, &st0));
	for (i = 0; i < 3; i++)
		ASSERT_EQ(0, pthread_create(&t[i], NULL, waiter_fn, &w[i]));
	do {
		sleep_ms(20);
		ASSERT_EQ(0, ncsync_reset(self->dev));
		resets++;
		all = true;
		for (i = 0; i < 3; i++)
			all = all && waiter_done(&w[i]);
	} while (!all && now_ns() < end);
	for (i = 0; i < 3; i++) {
		if (!waiter_done(&w[i]))
			ncsync_sem_set(self->dev, w[i].idx, 9, NULL);
		ASSERT_EQ(0, pthread_join(t[i], NULL));
		EXPECT_EQ(-ECANCELED, w[i].ret) TH_LOG("waiter %u", i);
	}
	ASSERT_EQ(0, ncsync_stats(self->dev, &st1));
	EXPECT_EQ(st0.resets + resets, st1.resets);
	ncsync_close(ro);
}

/* ---------------------------------------------------------------------- */
/* Change sequence, poll() and statistics                                  */

TEST_F(core, ack_poll_stats)
{
	struct pollfd pfd = {
		.fd = ncsync_fd(self->dev), .events = POLLIN | POLLRDNORM,
	};
	struct ncsync_program *prog;
	struct ncsync_prog_status st;
	struct ncsync_stats s0, s1;
	uint64_t seq0, seq1, seq2;
	uint32_t id;

	ASSERT_EQ(0, ncsync_ack(self->dev, &seq0));
	EXPECT_EQ(0, poll(&pfd, 1, 0));
	ASSERT_EQ(0, ncsync_stats(self->dev, &s0));
	EXPECT_EQ(seq0, s0.seq);

	/* One update: one step of the sequence, and POLLIN until acked. */
	ASSERT_EQ(0, ncsync_sem_inc(self->dev, 40, 1, NULL));
	ASSERT_EQ(1, poll(&pfd, 1, 0));
	EXPECT_EQ(POLLIN | POLLRDNORM, pfd.revents & (POLLIN | POLLRDNORM));
	ASSERT_EQ(1, poll(&pfd, 1, 0));
	ASSERT_EQ(0, ncsync_ack(self->dev, &seq1));
	EXPECT_EQ(seq0 + 1, seq1);
	EXPECT_EQ(0, poll(&pfd, 1, 0));

	/* A reset is a change too, and is counted. */
	ASSERT_EQ(0, ncsync_reset(self->dev));
	ASSERT_EQ(1, poll(&pfd, 1, 0));
	ASSERT_EQ(0, ncsync_ack(self->dev, &seq2));
	EXPECT_LT(seq1, seq2);
	ASSERT_EQ(0, ncsync_stats(self->dev, &s1));
	EXPECT_EQ(s0.resets + 1, s1.resets);
	EXPECT_EQ(seq2, s1.seq);

	/* A program's updates are changes; its end is POLLPRI. */
	prog = prog_new(_metadata);
	ADD(ncsync_add_semaphore_add(stream(_metadata, prog,
					    NCSYNC_ENGINE_SP), 41, 6));
	id = submit(_metadata, self->dev, prog, 0, WD_LONG);
	pfd.events = POLLPRI;
	ASSERT_EQ(1, poll(&pfd, 1, LONG_MS));
	EXPECT_EQ(POLLPRI, pfd.revents & POLLPRI);
	pfd.events = POLLIN | POLLRDNORM;
	ASSERT_EQ(1, poll(&pfd, 1, 0));
	EXPECT_EQ(6, ncsync_sem_read(self->dev, 41));
	/* A status report marks the end as reported. */
	status_get(_metadata, self->dev, id, &st, NULL);
	EXPECT_EQ(NCSYNC_PROG_DONE, (int)st.state);
	pfd.events = POLLPRI;
	EXPECT_EQ(0, poll(&pfd, 1, 0));
	ncsync_program_free(prog);
}

/* ---------------------------------------------------------------------- */
/* Programs: rings and semaphores                                          */

/*
 * ncsync_add_semaphore_wait_eq_and_inc() on all five engines: engine k
 * waits S == 5r + k and increments it, for R rounds.  The ring completes
 * only if every record's wait and increment are one atomic step and the
 * turns come in order.
 */
TEST_F(core, token_ring_five_engines)
{
	const unsigned int rounds = 100;
	struct ncsync_program *prog = prog_new(_metadata);
	struct ncsync_prog_status st;
	unsigned int k, r;
	uint32_t id;
	int s;

	s = ncsync_sem_alloc(prog, 1);
	ADD(s);
	for (k = 0; k < NCSYNC_NUM_ENGINES; k++) {
		struct ncsync_stream *q = stream(_metadata, prog,
						 engine_ids[k]);

		for (r = 0; r < rounds; r++)
			ADD(ncsync_add_semaphore_wait_eq_and_inc(q, s,
								 5 * r + k));
	}
	id = submit(_metadata, self->dev, prog, 0, WD_LONG);
	ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->dev, id));
	EXPECT_EQ((int32_t)(5 * rounds), ncsync_sem_read(self->dev, s));
	status_get(_metadata, self->dev, id, &st, NULL);
	EXPECT_EQ((unsigned int)(NCSYNC_NUM_ENGINES), st.nengines);
	for (k = 0; k < NCSYNC_NUM_ENGINES; k++) {
		EXPECT_EQ(engine_ids[k], st.engines[k].engine);
		EXPECT_EQ(NCSYNC_ENG_DONE, st.engines[k].state);
		EXPECT_EQ(rounds, st.engines[k].pc);
		EXPECT_EQ(rounds, st.engines[k].executed);
	}
	ncsync_program_free(prog);
}

/*
 * ncsync_add_semaphore_wait() is a P(): with S = 1 and two engines each
 * doing P(S) then marking their own semaphore, exactly one passes; the
 * other blocks until the (short) watchdog stops the program.  The snapshot
 * shows one engine done and the other blocked on S > 0 in lane 1.
 */
TEST_F(core, semaphore_wait_is_p)
{
	static const uint8_t two[2] = { NCSYNC_ENGINE_POOL, NCSYNC_ENGINE_DVE };
	struct ncsync_program *prog = prog_new(_metadata);
	struct ncsync_sem_value sems[NCSYNC_NUM_SEMS];
	const struct ncsync_engine_status *e[2];
	struct ncsync_prog_status st;
	int s, mark, winner;
	unsigned int k;
	bool found;
	uint32_t id;

	s = ncsync_sem_alloc(prog, 1);
	ADD(s);
	mark = ncsync_sem_alloc(prog, 2);
	ADD(mark);
	for (k = 0; k < 2; k++) {
		struct ncsync_stream *q = stream(_metadata, prog, two[k]);

		ADD(ncsync_add_semaphore_wait(q, s));
		ADD(ncsync_add_semaphore_inc(q, mark + k));
	}
	ASSERT_EQ(0, ncsync_sem_set(self->dev, s, 1, NULL));
	id = submit(_metadata, self->dev, prog, 0, WD_SETTLE);
	ASSERT_EQ(NCSYNC_PROG_TIMED_OUT, wait_end(_metadata, self->dev, id));

	EXPECT_EQ(0, ncsync_sem_read(self->dev, s));
	EXPECT_EQ(1, ncsync_sem_read(self->dev, mark) +
		     ncsync_sem_read(self->dev, mark + 1));

	status_get(_metadata, self->dev, id, &st, sems);
	EXPECT_EQ(NCSYNC_PROG_TIMED_OUT, (int)st.state);
	ASSERT_EQ(2U, st.nengines);
	e[0] = eng_status(&st, two[0]);
	e[1] = eng_status(&st, two[1]);
	ASSERT_NE(NULL, e[0]);
	ASSERT_NE(NULL, e[1]);
	winner = e[0]->state == NCSYNC_ENG_DONE ? 0 : 1;
	if (e[winner]->state != NCSYNC_ENG_DONE ||
	    e[!winner]->state != NCSYNC_ENG_BLOCKED)
		status_log(_metadata, &st);
	ASSERT_EQ(NCSYNC_ENG_DONE, e[winner]->state);
	EXPECT_EQ(2U, e[winner]->pc);
	EXPECT_EQ(2U, e[winner]->executed);
	ASSERT_EQ(NCSYNC_ENG_BLOCKED, e[!winner]->state);
	EXPECT_EQ(0U, e[!winner]->pc);
	EXPECT_EQ(0U, e[!winner]->executed);
	EXPECT_EQ(NCSYNC_BLOCK_SEM, e[!winner]->wait_kind);
	EXPECT_EQ(NCSYNC_WAIT_SEM_GT, e[!winner]->wait_mode);
	EXPECT_EQ(s, e[!winner]->wait_index);
	EXPECT_EQ(1, e[!winner]->wait_lane);
	EXPECT_EQ(0, e[!winner]->wait_threshold);
	EXPECT_EQ(0, e[!winner]->wait_current);
	EXPECT_EQ(1, ncsync_sem_read(self->dev, mark + winner));

	/* The snapshot's semaphores: the winner's mark and nothing else. */
	EXPECT_EQ(1U, st.nsems);
	EXPECT_EQ(1, snap_sem(sems, st.nsems, mark + winner, &found));
	EXPECT_TRUE(found);
	ncsync_program_free(prog);
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
static void barrier_loop_alloc(struct __test_metadata *_metadata,
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
static void barrier_loop_barrier(struct __test_metadata *_metadata,
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
static void barrier_loop_pass_end(struct __test_metadata *_metadata,
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
static void barrier_loop_lower(struct __test_metadata *_metadata,
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
static void build_barrier_loop(struct __test_metadata *_metadata,
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
static void check_barrier_loop(struct __test_metadata *_metadata,
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
static unsigned int engine_slot(uint8_t engine)
{
	return engine < NCSYNC_ENGINE_DMA ? engine - 1U : engine - 2U;
}

/*
 * C0, the first counter of the counter form: reserved first + 2 * slot of
 * the lowest engine (Documentation/ncsync/barriers.rst).  After a program
 * of P passes on N engines it holds N * P: every program starts it at 0.
 */
static unsigned int counter_of(const struct ncsync_info *info,
			       unsigned int mask)
{
	return info->rt_reserved_sem_first +
	       2 * engine_slot(__builtin_ctz(mask));
}

/* The counter of the counter form on all five engines: Pool's. */
static unsigned int barrier_counter(const struct ncsync_info *info)
{
	return counter_of(info, ALL_ENGINES);
}

static void check_event_bits_clear(struct __test_metadata *_metadata,
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

TEST_F_TIMEOUT(core, sync_barrier_loop_1000, BARRIER_TIMEOUT)
{
	struct ncsync_program *prog = prog_new(_metadata);
	struct barrier_loop bl;
	uint32_t id;

	build_barrier_loop(_metadata, prog, self->info, BK_SYNC,
			   ALL_ENGINES, BARRIER_ITERS, 0, false, &bl);
	id = submit(_metadata, self->dev, prog, 0, WD_LONG);
	check_barrier_loop(_metadata, self->dev, id, &bl, BARRIER_ITERS);
	/* Every pass adds exactly one +1 per engine to the counter. */
	EXPECT_EQ(5 * BARRIER_ITERS,
		  ncsync_sem_read(self->dev, barrier_counter(self->info)));
	ncsync_program_free(prog);
}

/* What a stream does to the two counters of the counter form. */
struct seed_shape {
	unsigned int inc;	/* +1 sem-inc (0x13) */
	unsigned int write;	/* wr-imm (0x19): the start, the re-arms */
	unsigned int ge_reg;	/* sem-ge-reg (0x85) on register 31 */
	unsigned int other;	/* any other update, or wait not GE or LT */
};

/* A (mode, index) byte pair of a record, the seeds' offsets, on C0 or C1. */
static bool on_counter(const uint8_t *r, unsigned int off, unsigned int c0)
{
	return r[off] && (r[off + 1] == c0 || r[off + 1] == c0 + 1);
}

/*
 * Classify a record by the seeds' bytes alone (SYNC "The per-engine
 * wait/update"): the events block's wait at +0x04/+0x05 and update at
 * +0x06/+0x07, the lane's wait at +0x20/+0x21 (register at +0x24) and
 * update at +0x22/+0x23.
 */
static void seed_classify(const uint8_t *r, unsigned int c0,
			  struct seed_shape *sh)
{
	static const unsigned int upd[] = { 0x06, 0x22 }, wait[] = { 0x04, 0x20 };
	unsigned int i;

	for (i = 0; i < 2; i++) {
		if (on_counter(r, upd[i], c0)) {
			if (r[upd[i]] == 0x13)
				sh->inc++;
			else if (r[upd[i]] == 0x19)
				sh->write++;
			else
				sh->other++;
		}
		if (!on_counter(r, wait[i], c0))
			continue;
		if (r[wait[i]] == 0x85 && i == 1 && r[0x24] == 31)
			sh->ge_reg++;
		else if (r[wait[i]] != 0x05 && r[wait[i]] != 0x02)
			sh->other++;
	}
}

/*
 * The issue's seeds-only test, as this suite writes it: ncsync_add_sync_
 * barrier() in a loop of 10,000 passes across the five engines.  Each
 * barrier is, per engine, two arms (one per counter) of a +1 sem-inc
 * arrival and a sem-ge-reg release on r31, and the only other updates of
 * the counters are the wr-imm writes Documentation/ncsync/barriers.rst
 * names (the start write of the lowest engine, one re-arm per arm); then
 * the program runs all its passes and the counter holds 5 x 10,000.
 */
TEST_F_TIMEOUT(core, sync_barrier_loop_10000_seed_shape, BARRIER_TIMEOUT)
{
	struct ncsync_program *prog = prog_new(_metadata);
	unsigned int c0 = barrier_counter(self->info), k;
	struct barrier_loop bl;
	uint32_t id, i;

	build_barrier_loop(_metadata, prog, self->info, BK_SYNC,
			   ALL_ENGINES, 10000, 0, false, &bl);
	for (k = 0; k < NCSYNC_NUM_ENGINES; k++) {
		struct ncsync_stream *q =
			ncsync_program_find_stream(prog, engine_ids[k]);
		struct seed_shape sh = { 0 };

		ASSERT_NE(NULL, q);
		for (i = 0; i < ncsync_stream_count(q); i++)
			seed_classify(ncsync_stream_peek(q, i), c0, &sh);
		/* One barrier: two arms; followers' start arrival is +1 too. */
		EXPECT_EQ(k ? 3U : 2U, sh.inc) TH_LOG("engine %u", k);
		EXPECT_EQ(2U, sh.ge_reg) TH_LOG("engine %u", k);
		EXPECT_EQ(k ? 2U : 3U, sh.write) TH_LOG("engine %u", k);
		EXPECT_EQ(0U, sh.other) TH_LOG("engine %u", k);
	}
	id = submit(_metadata, self->dev, prog, 0, WD_LONG);
	check_barrier_loop(_metadata, self->dev, id, &bl, 10000);
	EXPECT_EQ(5 * 10000, ncsync_sem_read(self->dev, c0));
	ncsync_program_free(prog);
}

TEST_F_TIMEOUT(core, barrier_loop_1000_lower_counter, BARRIER_TIMEOUT)
{
	struct ncsync_program *prog = prog_new(_metadata);
	struct barrier_loop bl;
	uint32_t id;

	build_barrier_loop(_metadata, prog, self->info, BK_COUNTER,
			   ALL_ENGINES, BARRIER_ITERS, 0, false, &bl);
	id = submit(_metadata, self->dev, prog, 0, WD_LONG);
	check_barrier_loop(_metadata, self->dev, id, &bl, BARRIER_ITERS);
	EXPECT_EQ(5 * BARRIER_ITERS,
		  ncsync_sem_read(self->dev, barrier_counter(self->info)));
	ncsync_program_free(prog);
}

/* Strict mode: the event form never sets a set or clears a clear event. */
TEST_F_TIMEOUT(core, barrier_loop_1000_lower_events, BARRIER_TIMEOUT)
{
	struct ncsync_program *prog = prog_new(_metadata);
	struct barrier_loop bl;
	uint32_t id;

	build_barrier_loop(_metadata, prog, self->info, BK_EVENTS,
			   ALL_ENGINES, BARRIER_ITERS, 0, false, &bl);
	id = submit(_metadata, self->dev, prog, NCSYNC_SUBMIT_F_STRICT,
		    WD_LONG);
	check_barrier_loop(_metadata, self->dev, id, &bl, BARRIER_ITERS);
	/* No semaphore of the reserved slice is used ... */
	EXPECT_EQ(0, ncsync_sem_read(self->dev, barrier_counter(self->info)));
	/* ... and the epilogue leaves every bit clear for the next program. */
	check_event_bits_clear(_metadata, self->dev, self->info);
	ncsync_program_free(prog);
}

/*
 * Two counter-form programs queued back to back, without a reset: the
 * second starts where the first left the counter, and its start
 * rendezvous sets it again.  A third program with the sync barrier
 * follows.  The programs share Pool, hence the counter, and run one after
 * the other.
 */
TEST_F_TIMEOUT(core, counter_barrier_programs_back_to_back, BARRIER_TIMEOUT)
{
	static const enum barrier_kind kinds[3] = {
		BK_COUNTER, BK_COUNTER, BK_SYNC,
	};
	static const unsigned int iters[3] = { 300, 177, 250 };
	struct ncsync_program *prog[3];
	struct barrier_loop bl[3];
	uint32_t id[3];
	unsigned int i;

	for (i = 0; i < 3; i++) {
		prog[i] = prog_new(_metadata);
		build_barrier_loop(_metadata, prog[i], self->info, kinds[i],
				   ALL_ENGINES, iters[i], 8 * i, false, &bl[i]);
	}
	for (i = 0; i < 3; i++)
		id[i] = submit(_metadata, self->dev, prog[i], 0, WD_LONG);
	for (i = 0; i < 3; i++) {
		check_barrier_loop(_metadata, self->dev, id[i], &bl[i],
				   iters[i]);
		ncsync_program_free(prog[i]);
	}
	/* Each program starts the counter from 0: the last one's passes. */
	EXPECT_EQ(5 * 250,
		  ncsync_sem_read(self->dev, barrier_counter(self->info)));
}

/* The same with the event form: each program leaves its bits clear. */
TEST_F_TIMEOUT(core, event_barrier_programs_back_to_back, BARRIER_TIMEOUT)
{
	static const unsigned int iters[3] = { 200, 101, 150 };
	struct ncsync_program *prog[3];
	struct barrier_loop bl[3];
	uint32_t id[3];
	unsigned int i;

	for (i = 0; i < 3; i++) {
		prog[i] = prog_new(_metadata);
		build_barrier_loop(_metadata, prog[i], self->info, BK_EVENTS,
				   ALL_ENGINES, iters[i], 8 * i, false, &bl[i]);
	}
	for (i = 0; i < 3; i++)
		id[i] = submit(_metadata, self->dev, prog[i],
			       NCSYNC_SUBMIT_F_STRICT, WD_LONG);
	for (i = 0; i < 3; i++) {
		check_barrier_loop(_metadata, self->dev, id[i], &bl[i],
				   iters[i]);
		ncsync_program_free(prog[i]);
	}
	check_event_bits_clear(_metadata, self->dev, self->info);
}

/*
 * Both lowerings (and the sync barrier) on one to four engines: the counter
 * weights (8 / N, the first 8 % N engines one more) and the event form's
 * waits (two peers a record, none for a lone engine) for every N.  Each
 * set has a different lowest engine, hence a different counter.
 */
TEST_F_TIMEOUT(core, barrier_loops_on_engine_subsets, BARRIER_TIMEOUT)
{
	static const unsigned int masks[] = {
		1U << NCSYNC_ENGINE_SP,
		(1U << NCSYNC_ENGINE_PE) | (1U << NCSYNC_ENGINE_DVE),
		(1U << NCSYNC_ENGINE_ACT) | (1U << NCSYNC_ENGINE_PE) |
			(1U << NCSYNC_ENGINE_SP),
		(1U << NCSYNC_ENGINE_POOL) | (1U << NCSYNC_ENGINE_ACT) |
			(1U << NCSYNC_ENGINE_DVE) | (1U << NCSYNC_ENGINE_SP),
	};
	static const enum barrier_kind kinds[] = {
		BK_SYNC, BK_COUNTER, BK_EVENTS, BK_MIXED,
	};
	const unsigned int iters = 100;
	unsigned int m, k;

	for (m = 0; m < ARRAY_SIZE(masks); m++) {
		int32_t base = 0;

		for (k = 0; k < ARRAY_SIZE(kinds); k++) {
			struct ncsync_program *prog = prog_new(_metadata);
			unsigned int c = counter_of(self->info, masks[m]);
			struct barrier_loop bl;
			uint32_t id;

			TH_LOG("engines 0x%x, barrier kind %u", masks[m],
			       kinds[k]);
			/* counters of their own: no reset in between */
			build_barrier_loop(_metadata, prog, self->info,
					   kinds[k], masks[m], iters,
					   8 * (4 * m + k), false, &bl);
			id = submit(_metadata, self->dev, prog,
				    NCSYNC_SUBMIT_F_STRICT, WD_LONG);
			check_barrier_loop(_metadata, self->dev, id, &bl,
					   iters);
			if (kinds[k] != BK_EVENTS)
				base = __builtin_popcount(masks[m]) * iters;
			EXPECT_EQ(base, ncsync_sem_read(self->dev, c));
			check_event_bits_clear(_metadata, self->dev,
					       self->info);
			ncsync_program_free(prog);
		}
	}
}

/*
 * Two barrier programs on disjoint engines run at the same time: their
 * counters (by lowest engine) and event bits (by engine) are their own.
 * Each holds its first engine at a gate until both have started.
 */
static void concurrent_loops(struct __test_metadata *_metadata,
			     struct ncsync_dev *dev,
			     const struct ncsync_info *info,
			     enum barrier_kind kind)
{
	static const unsigned int masks[2] = {
		(1U << NCSYNC_ENGINE_POOL) | (1U << NCSYNC_ENGINE_DVE),
		(1U << NCSYNC_ENGINE_ACT) | (1U << NCSYNC_ENGINE_PE) |
			(1U << NCSYNC_ENGINE_SP),
	};
	const unsigned int iters = 400;
	struct ncsync_program *prog[2];
	struct ncsync_prog_status st;
	struct barrier_loop bl[2];
	uint32_t id[2];
	unsigned int i;

	for (i = 0; i < 2; i++) {
		prog[i] = prog_new(_metadata);
		build_barrier_loop(_metadata, prog[i], info, kind, masks[i],
				   iters, 8 * i, true, &bl[i]);
	}
	for (i = 0; i < 2; i++)
		id[i] = submit(_metadata, dev, prog[i],
			       NCSYNC_SUBMIT_F_STRICT, WD_LONG);
	/* Both are running: neither waits for the other. */
	for (i = 0; i < 2; i++)
		wait_blocked(_metadata, dev, id[i], bl[i].eng[0], &st);
	for (i = 0; i < 2; i++)
		ASSERT_EQ(0, ncsync_sem_set(dev, bl[i].gate, 1, NULL));
	for (i = 0; i < 2; i++) {
		check_barrier_loop(_metadata, dev, id[i], &bl[i], iters);
		ncsync_program_free(prog[i]);
	}
	for (i = 0; i < 2; i++)
		EXPECT_EQ(kind == BK_EVENTS ? 0 :
			  __builtin_popcount(masks[i]) * (int32_t)iters,
			  ncsync_sem_read(dev, counter_of(info, masks[i])));
	check_event_bits_clear(_metadata, dev, info);
}

TEST_F_TIMEOUT(core, concurrent_counter_barriers, BARRIER_TIMEOUT)
{
	concurrent_loops(_metadata, self->dev, self->info, BK_COUNTER);
}

TEST_F_TIMEOUT(core, concurrent_event_barriers, BARRIER_TIMEOUT)
{
	concurrent_loops(_metadata, self->dev, self->info, BK_EVENTS);
}

/* A sync barrier and an event-lowered barrier in every pass. */
TEST_F_TIMEOUT(core, mixed_barriers_loop, BARRIER_TIMEOUT)
{
	struct ncsync_program *prog = prog_new(_metadata);
	struct barrier_loop bl;
	uint32_t id;

	build_barrier_loop(_metadata, prog, self->info, BK_MIXED, ALL_ENGINES,
			   500, 0, false, &bl);
	id = submit(_metadata, self->dev, prog, NCSYNC_SUBMIT_F_STRICT,
		    WD_LONG);
	check_barrier_loop(_metadata, self->dev, id, &bl, 500);
	EXPECT_EQ(5 * 500,
		  ncsync_sem_read(self->dev, barrier_counter(self->info)));
	check_event_bits_clear(_metadata, self->dev, self->info);
	ncsync_program_free(prog);
}

/*
 * Wait until every engine but SP of program @id is blocked in the release
 * of a counter-form pass (wait C0 >= r31, 0x85) and SP in a wait on @gate.
 */
static void wait_held_by_sp(struct __test_metadata *_metadata,
			    struct ncsync_dev *dev, uint32_t id,
			    unsigned int c0, int gate)
{
	int64_t end = now_ns() + LONG_MS * NSEC_PER_MSEC;
	struct ncsync_prog_status st;
	unsigned int k, held;

	for (;;) {
		status_get(_metadata, dev, id, &st, NULL);
		held = 0;
		for (k = 0; k < st.nengines; k++) {
			const struct ncsync_engine_status *e = &st.engines[k];
			bool sp = e->engine == NCSYNC_ENGINE_SP;

			if (e->state == NCSYNC_ENG_BLOCKED &&
			    e->wait_index == (sp ? (unsigned int)gate : c0) &&
			    (sp || e->wait_mode == 0x85))
				held++;
		}
		if (held == NCSYNC_NUM_ENGINES)
			return;
		if (now_ns() > end) {
			status_log(_metadata, &st);
			ASSERT_EQ(NCSYNC_NUM_ENGINES, (int)held);
		}
		sleep_ms(5);
	}
}

/*
 * A counter-form program on @info's five engines: @before sync barriers,
 * SP waits for @gate >= 1, one more barrier, then every engine adds 1 to
 * @passed.
 */
static struct ncsync_program *
gated_barriers(struct __test_metadata *_metadata,
	       const struct ncsync_info *info, unsigned int before,
	       int *gate, int *passed)
{
	struct ncsync_program *prog = prog_new(_metadata);
	unsigned int k;

	ASSERT_EQ(0, ncsync_program_set_reserved(prog,
						 info->rt_reserved_sem_first,
						 info->rt_reserved_sem_count,
						 info->rt_reserved_event_first,
						 info->rt_reserved_event_count));
	*gate = ncsync_sem_alloc(prog, 1);
	*passed = ncsync_sem_alloc(prog, 1);
	for (k = 0; k < NCSYNC_NUM_ENGINES; k++)
		stream(_metadata, prog, engine_ids[k]);
	for (k = 0; k < before; k++)
		ASSERT_EQ(0, ncsync_add_sync_barrier(prog));
	ADD(ncsync_add_semaphore_wait_ge(ncsync_program_find_stream(
				prog, NCSYNC_ENGINE_SP), *gate, 1));
	ASSERT_EQ(0, ncsync_add_sync_barrier(prog));
	for (k = 0; k < NCSYNC_NUM_ENGINES; k++)
		ADD(ncsync_add_semaphore_inc(ncsync_program_find_stream(
					prog, engine_ids[k]), *passed));
	return prog;
}

/*
 * Documentation/ncsync/barriers.rst, "A program cancelled inside a
 * barrier": a program is cancelled while four engines wait in its third
 * barrier (the counter is left between passes).  The next program's
 * first barrier still holds those four until SP arrives: none of them
 * passes (adds to its semaphore) while SP waits at its gate.
 */
TEST_F_TIMEOUT(core, counter_barrier_after_cancel, BARRIER_TIMEOUT)
{
	unsigned int c0 = barrier_counter(self->info);
	struct ncsync_program *prog;
	int gate, passed;
	uint32_t id;

	prog = gated_barriers(_metadata, self->info, 2, &gate, &passed);
	id = submit(_metadata, self->dev, prog, NCSYNC_SUBMIT_F_STRICT,
		    WD_LONG);
	wait_held_by_sp(_metadata, self->dev, id, c0, gate);
	ASSERT_EQ(0, ncsync_program_cancel(self->dev, id));
	ASSERT_EQ(NCSYNC_PROG_CANCELLED, wait_end(_metadata, self->dev, id));
	/* Left inside pass 3: two passes and four arrivals. */
	EXPECT_EQ(5 * 2 + 4, ncsync_sem_read(self->dev, c0));
	ncsync_program_free(prog);

	prog = gated_barriers(_metadata, self->info, 0, &gate, &passed);
	id = submit(_metadata, self->dev, prog, NCSYNC_SUBMIT_F_STRICT,
		    WD_LONG);
	wait_held_by_sp(_metadata, self->dev, id, c0, gate);
	EXPECT_EQ(0, ncsync_sem_read(self->dev, passed));
	EXPECT_EQ(4, ncsync_sem_read(self->dev, c0));
	ASSERT_EQ(0, ncsync_sem_set(self->dev, gate, 1, NULL));
	ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->dev, id));
	EXPECT_EQ(5, ncsync_sem_read(self->dev, passed));
	EXPECT_EQ(5, ncsync_sem_read(self->dev, c0));
	ncsync_program_free(prog);
}

/*
 * The conformance profile (records.rst, "The conformance profile"): the
 * library's barriers (the counter form) pass the kernel's rules and run
 * (the fence: lower_control_fence_loop_conformance); a malformed raw 0xD5
 * is refused by the library (rule 28) with
 * its engine, its index and NCSYNC_REC_CONF_PSEUDO; the event form is
 * refused by the kernel (rule 23).
 */
TEST_F_TIMEOUT(core, conformance_profile_barriers, BARRIER_TIMEOUT)
{
	uint8_t d5[NCSYNC_RECORD_SIZE] = { NCSYNC_OPC_ALL_ENGINE_BARRIER, 0x10 };
	const uint32_t flags = NCSYNC_SUBMIT_F_CONFORM | NCSYNC_SUBMIT_F_STRICT;
	struct ncsync_submit_error err;
	struct ncsync_program *prog;
	struct barrier_loop bl;
	uint32_t id = 0;
	unsigned int k;

	prog = prog_new(_metadata);
	build_barrier_loop(_metadata, prog, self->info, BK_SYNC, ALL_ENGINES,
			   50, 0, false, &bl);
	id = submit(_metadata, self->dev, prog, flags, WD_LONG);
	check_barrier_loop(_metadata, self->dev, id, &bl, 50);
	ncsync_program_free(prog);

	prog = prog_new(_metadata);
	build_barrier_loop(_metadata, prog, self->info, BK_EVENTS,
			   ALL_ENGINES, 5, 0, false, &bl);
	EXPECT_EQ(-EINVAL, ncsync_program_submit(self->dev, prog, flags, 0,
						 &id, &err));
	EXPECT_EQ(NCSYNC_REC_CONF_EVSEM_WAIT, (int)err.reason);
	ncsync_program_free(prog);

	ASSERT_EQ(0, ncsync_reset(self->dev));
	d5[0x3F] = 1;
	prog = prog_new(_metadata);
	for (k = 0; k < NCSYNC_NUM_ENGINES; k++) {
		struct ncsync_stream *s = stream(_metadata, prog,
						 engine_ids[k]);

		ADD(ncsync_add_semaphore_inc(s, 1));
		ADD(ncsync_add_raw(s, d5));
	}
	EXPECT_EQ(-EINVAL, ncsync_program_submit(self->dev, prog, flags, 0,
						 &id, &err));
	EXPECT_EQ(NCSYNC_REC_CONF_PSEUDO, (int)err.reason);
	EXPECT_EQ(engine_ids[0], err.engine);
	EXPECT_EQ(1U, err.index);
	EXPECT_EQ(0, ncsync_sem_read(self->dev, 1)) TH_LOG("a record ran");
	/* Without the profile the library lowers it and the program runs. */
	id = submit(_metadata, self->dev, prog, 0, WD_LONG);
	EXPECT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->dev, id));
	EXPECT_EQ(5, ncsync_sem_read(self->dev, 1));
	ncsync_program_free(prog);
}

/*
 * The negative controls of the barrier check: without a barrier, and Pool
 * held at a gate, the other four engines find Pool's counter behind at
 * pass 1 (the lower bound); Pool, released, then finds them ahead.  With
 * one counter preset to 5, every engine finds it more than one pass ahead
 * at pass 0 (the upper bound).  Each ends HALTED with every engine failed.
 */
TEST_F(core, barrier_check_detects_drift)
{
	struct ncsync_program *prog = prog_new(_metadata);
	struct ncsync_prog_status st;
	struct barrier_loop bl;
	struct timespec dl;
	unsigned int k;
	uint32_t id;

	build_barrier_loop(_metadata, prog, self->info, BK_NONE, ALL_ENGINES,
			   10, 0, true, &bl);
	id = submit(_metadata, self->dev, prog, 0, WD_LONG);
	dl = deadline_ms(LONG_MS);
	ASSERT_EQ(0, ncsync_wait_sem(self->dev, bl.fail, NCSYNC_WAIT_SEM_GE,
				     4, &dl, NULL));
	EXPECT_EQ(0, ncsync_sem_read(self->dev, bl.cnt));
	ASSERT_EQ(0, ncsync_sem_set(self->dev, bl.gate, 1, NULL));
	ASSERT_EQ(NCSYNC_PROG_HALTED, wait_end(_metadata, self->dev, id));
	EXPECT_EQ(5, ncsync_sem_read(self->dev, bl.fail));
	status_get(_metadata, self->dev, id, &st, NULL);
	for (k = 0; k < NCSYNC_NUM_ENGINES; k++) {
		EXPECT_EQ(NCSYNC_ENG_HALTED, st.engines[k].state);
		/* Pool failed at pass 2, the others at pass 1. */
		EXPECT_EQ(k ? 1 : 2, ncsync_sem_read(self->dev, bl.cnt + k));
	}

	ASSERT_EQ(0, ncsync_reset(self->dev));
	ASSERT_EQ(0, ncsync_sem_set(self->dev, bl.cnt + 1, 5, NULL));
	ASSERT_EQ(0, ncsync_sem_set(self->dev, bl.gate, 1, NULL));
	id = submit(_metadata, self->dev, prog, 0, WD_LONG);
	ASSERT_EQ(NCSYNC_PROG_HALTED, wait_end(_metadata, self->dev, id));
	EXPECT_EQ(5, ncsync_sem_read(self->dev, bl.fail));
	for (k = 0; k < NCSYNC_NUM_ENGINES; k++)
		EXPECT_EQ(k == 1 ? 5 : 0,
			  ncsync_sem_read(self->dev, bl.cnt + k));
	ncsync_program_free(prog);
}

/*
 * Build fence_loop's streams: @iters passes of A++, barrier, check A == 5
 * (else sem[@sentinel + 1 + k] = 1 and halt), sem[@passes + k]++, fence;
 * @spare is freed before the fence.
 */
static void build_fence_loop(struct __test_metadata *_metadata,
			     struct ncsync_program *prog, int a, int spare,
			     unsigned int iters, unsigned int sentinel,
			     unsigned int passes)
{
	struct ncsync_stream *q[NCSYNC_NUM_ENGINES];
	int loop[NCSYNC_NUM_ENGINES], fail[NCSYNC_NUM_ENGINES];
	unsigned int k;

	for (k = 0; k < NCSYNC_NUM_ENGINES; k++) {
		q[k] = stream(_metadata, prog, engine_ids[k]);
		loop[k] = ncsync_label_new(prog);
		ADD(loop[k]);
		fail[k] = ncsync_label_new(prog);
		ADD(fail[k]);
		ADD(ncsync_add_mov32_imm(q[k], 1, 0, NULL));
		ADD(ncsync_label_bind(q[k], loop[k]));
		ADD(ncsync_add_semaphore_inc(q[k], a));
	}
	ASSERT_EQ(0, ncsync_sem_free(prog, spare, 1));
	ASSERT_EQ(0, ncsync_add_all_engine_barrier(prog, NULL));
	for (k = 0; k < NCSYNC_NUM_ENGINES; k++) {
		ADD(ncsync_add_poll_sem(q[k], NCSYNC_POLL_MIN, 2, a, 1, NULL));
		ADD(ncsync_add_branch_imm(q[k], NCSYNC_BR_NE, NCSYNC_DTYPE_S32,
					  2, NCSYNC_NUM_ENGINES, fail[k],
					  NULL));
		ADD(ncsync_add_semaphore_inc(q[k], passes + k));
	}
	ASSERT_EQ(0, ncsync_add_lower_control_fence(prog));
	for (k = 0; k < NCSYNC_NUM_ENGINES; k++) {
		ADD(ncsync_add_mov32(q[k], NCSYNC_ALU_ADD_IMM, 1, 1, 1, NULL));
		ADD(ncsync_add_branch_imm(q[k], NCSYNC_BR_LT, NCSYNC_DTYPE_U32,
					  1, iters, loop[k], NULL));
		ADD(ncsync_add_exit(q[k], NULL));
		ADD(ncsync_label_bind(q[k], fail[k]));
		ADD(ncsync_add_semaphore_set(q[k], sentinel + 1 + k, 1));
		ADD(ncsync_add_halt(q[k], NULL));
	}
}

/*
 * The lower_control fence in a loop.  Each pass, every engine adds 1 to an
 * allocated semaphore A, meets the others at a barrier, checks A == 5 (all
 * added, nobody reset it yet: the reset comes after the fence's first
 * barrier), then runs the fence (barrier, reset of the allocated
 * semaphores, barrier, drain).  A == 5 at every check holds only if the
 * fence resets A on every pass, and only after every engine checked it.
 * A semaphore that is not allocated is not reset by the fence.  @flags
 * are added to the submission's.
 */
static void fence_loop(struct __test_metadata *_metadata,
		       struct ncsync_dev *dev, const struct ncsync_info *info,
		       bool lower_events, uint32_t flags)
{
	const unsigned int iters = 150, sentinel = 200, passes = 100;
	struct ncsync_program *prog = prog_new(_metadata);
	struct ncsync_prog_status st;
	unsigned int k;
	int a, spare, state;
	uint32_t id;

	a = ncsync_sem_alloc(prog, 1);
	ADD(a);
	/* Allocated and freed before the fence: not in its mask. */
	spare = ncsync_sem_alloc(prog, 1);
	ADD(spare);
	build_fence_loop(_metadata, prog, a, spare, iters, sentinel, passes);
	if (lower_events)
		ASSERT_EQ(0, ncsync_program_lower(prog, NCSYNC_LOWER_EVENTS));

	ASSERT_EQ(0, ncsync_sem_set(dev, sentinel, 77, NULL));
	ASSERT_EQ(0, ncsync_sem_set(dev, spare, 55, NULL));
	id = submit(_metadata, dev, prog,
		    (lower_events ? NCSYNC_SUBMIT_F_STRICT : 0) | flags,
		    WD_LONG);
	state = wait_end(_metadata, dev, id);
	status_get(_metadata, dev, id, &st, NULL);
	if (state != NCSYNC_PROG_DONE) {
		status_log(_metadata, &st);
		for (k = 0; k < NCSYNC_NUM_ENGINES; k++)
			TH_LOG("  %s: %d passes, check failed: %d",
			       ncsync_engine_name(engine_ids[k]),
			       ncsync_sem_read(dev, passes + k),
			       ncsync_sem_read(dev, sentinel + 1 + k));
	}
	ASSERT_EQ(NCSYNC_PROG_DONE, state);
	for (k = 0; k < NCSYNC_NUM_ENGINES; k++) {
		EXPECT_EQ((int32_t)iters, ncsync_sem_read(dev, passes + k));
		EXPECT_EQ(0, ncsync_sem_read(dev, sentinel + 1 + k));
	}
	/* The last fence reset A; the others were never reset. */
	EXPECT_EQ(0, ncsync_sem_read(dev, a));
	EXPECT_EQ(77, ncsync_sem_read(dev, sentinel));
	EXPECT_EQ(55, ncsync_sem_read(dev, spare));
	/* Three barriers a pass */
	if (!lower_events)
		EXPECT_EQ(5 * 3 * (int32_t)iters,
			  ncsync_sem_read(dev, barrier_counter(info)));
	if (lower_events)
		check_event_bits_clear(_metadata, dev, info);
	ncsync_program_free(prog);
}

TEST_F_TIMEOUT(core, lower_control_fence_loop_counter, BARRIER_TIMEOUT)
{
	fence_loop(_metadata, self->dev, self->info, false, 0);
}

/* The fence conforms: each engine resets its own share of the group. */
TEST_F_TIMEOUT(core, lower_control_fence_loop_conformance, BARRIER_TIMEOUT)
{
	fence_loop(_metadata, self->dev, self->info, false,
		   NCSYNC_SUBMIT_F_CONFORM);
}

TEST_F_TIMEOUT(core, lower_control_fence_loop_events, BARRIER_TIMEOUT)
{
	fence_loop(_metadata, self->dev, self->info, true, 0);
}

/* ---------------------------------------------------------------------- */
/* DMA and Drain                                                           */

struct devmem {
	uint8_t *p;
	size_t size;
};

static void devmem_map(struct __test_metadata *_metadata,
		       struct ncsync_dev *dev, const struct ncsync_info *info,
		       struct devmem *m)
{
	m->size = info->devmem_size;
	m->p = mmap(NULL, m->size, PROT_READ | PROT_WRITE, MAP_SHARED,
		    ncsync_fd(dev), info->devmem_offset);
	ASSERT_NE(MAP_FAILED, m->p) TH_LOG("mmap devmem: %s", strerror(errno));
}

/*
 * Act copies LEN bytes with a latency, the copy's landing increments D,
 * then drains: its Drain's update (S++) comes only after the copy landed.
 * PE waits for S and checks D == 1 (or halts).  Userspace, woken by S,
 * finds the bytes already there.  A second copy lands with an event set.
 */
/*
 * Build dma_and_drain's streams: Act copies @src to @dst (D++ on landing),
 * drains with S++, copies @src to @dst2 (event E on landing) and drains;
 * PE waits for S and checks D == 1, or halts.
 */
static void build_dma_and_drain(struct __test_metadata *_metadata,
				struct ncsync_program *prog, uint64_t src,
				uint64_t dst, uint64_t dst2, uint32_t len,
				uint32_t lat_us, int s, int d, int e)
{
	struct ncsync_stream *act, *pe;
	struct ncsync_events ev;
	int fail;

	act = stream(_metadata, prog, NCSYNC_ENGINE_ACT);
	pe = stream(_metadata, prog, NCSYNC_ENGINE_PE);

	ADD(ncsync_add_dma(act, src, dst, len, lat_us,
			   NCSYNC_UPD_COMPLETE | NCSYNC_UPD_SEM_INC, d, NULL));
	memset(&ev, 0, sizeof(ev));
	ev.upd_mode = NCSYNC_UPD_COMPLETE | NCSYNC_UPD_SEM_INC;
	ev.upd_idx = s;
	ADD(ncsync_add_drain(act, &ev));
	ADD(ncsync_add_dma(act, src, dst2, len, lat_us,
			   NCSYNC_UPD_COMPLETE | NCSYNC_UPD_EVT_SET, e, NULL));
	ADD(ncsync_add_drain(act, NULL));

	fail = ncsync_label_new(prog);
	ADD(fail);
	ADD(ncsync_add_semaphore_wait_ge(pe, s, 1));
	ADD(ncsync_add_poll_sem(pe, NCSYNC_POLL_MIN, 1, d, 1, NULL));
	ADD(ncsync_add_branch_imm(pe, NCSYNC_BR_NE, NCSYNC_DTYPE_S32, 1, 1,
				  fail, NULL));
	ADD(ncsync_add_exit(pe, NULL));
	ADD(ncsync_label_bind(pe, fail));
	ADD(ncsync_add_halt(pe, NULL));
}

TEST_F(core, dma_and_drain)
{
	const uint32_t len = 4096, lat_us = 100000;
	struct ncsync_program *prog = prog_new(_metadata);
	struct ncsync_prog_status st;
	struct timespec dl;
	struct devmem m;
	uint64_t src, dst, dst2;
	int s, d, e;
	uint32_t i, id;

	devmem_map(_metadata, self->dev, self->info, &m);
	ASSERT_LE(4 * len, m.size);
	src = 0;
	dst = m.size / 2;
	dst2 = m.size / 2 + 2 * len;
	for (i = 0; i < len; i++)
		m.p[src + i] = (uint8_t)(i * 7 + 3);
	memset(m.p + dst, 0x11, len);
	memset(m.p + dst2, 0x22, len);

	s = ncsync_sem_alloc(prog, 1);
	d = ncsync_sem_alloc(prog, 1);
	e = ncsync_event_alloc(prog, 1);
	ADD(s);
	ADD(d);
	ADD(e);
	build_dma_and_drain(_metadata, prog, src, dst, dst2, len, lat_us,
			    s, d, e);

	id = submit(_metadata, self->dev, prog, 0, WD_LONG);
	dl = deadline_ms(LONG_MS);
	ASSERT_EQ(0, ncsync_wait_sem(self->dev, s, NCSYNC_WAIT_SEM_GE, 1, &dl,
				     NULL));
	EXPECT_EQ(0, memcmp(m.p + src, m.p + dst, len));
	EXPECT_EQ(1, ncsync_sem_read(self->dev, d));

	ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->dev, id));
	EXPECT_TRUE(ncsync_event_read(self->dev, e));
	EXPECT_EQ(0, memcmp(m.p + src, m.p + dst2, len));
	status_get(_metadata, self->dev, id, &st, NULL);
	for (i = 0; i < st.nengines; i++) {
		EXPECT_EQ(NCSYNC_ENG_DONE, st.engines[i].state);
		EXPECT_EQ(0U, st.engines[i].dma_outstanding);
	}
	ncsync_program_free(prog);
	munmap(m.p, m.size);
}

/*
 * A barrier leads with a Drain ("drain, then post"): no engine passes it
 * while a peer's copies are in flight.  Act issues a slow copy before each
 * barrier, without draining; after the barrier every engine must see the
 * copy's completion (D == pass + 1), or halt.  For the sync barrier and
 * both lowerings.
 */
static void dma_then_barrier(struct __test_metadata *_metadata,
			     struct ncsync_dev *dev,
			     const struct ncsync_info *info,
			     enum barrier_kind kind)
{
	const unsigned int iters = 5, lat_us = 30000, len = 256;
	struct ncsync_program *prog = prog_new(_metadata);
	struct ncsync_stream *q[NCSYNC_NUM_ENGINES];
	int loop[NCSYNC_NUM_ENGINES], fail[NCSYNC_NUM_ENGINES];
	struct ncsync_prog_status st;
	unsigned int k;
	int d, bad, state, ret;
	uint32_t id;

	d = ncsync_sem_alloc(prog, 1);
	ADD(d);
	bad = ncsync_sem_alloc(prog, 1);
	ADD(bad);
	for (k = 0; k < NCSYNC_NUM_ENGINES; k++) {
		q[k] = stream(_metadata, prog, engine_ids[k]);
		loop[k] = ncsync_label_new(prog);
		ADD(loop[k]);
		fail[k] = ncsync_label_new(prog);
		ADD(fail[k]);
		ADD(ncsync_add_mov32_imm(q[k], 1, 0, NULL));
		ADD(ncsync_label_bind(q[k], loop[k]));
		if (engine_ids[k] == NCSYNC_ENGINE_ACT)
			ADD(ncsync_add_dma(q[k], 0, info->devmem_size / 2, len,
					   lat_us,
					   NCSYNC_UPD_COMPLETE |
					   NCSYNC_UPD_SEM_INC, d, NULL));
	}
	ret = kind == BK_SYNC ? ncsync_add_sync_barrier(prog) :
				ncsync_add_all_engine_barrier(prog, NULL);
	ASSERT_EQ(0, ret);
	for (k = 0; k < NCSYNC_NUM_ENGINES; k++) {
		ADD(ncsync_add_poll_sem(q[k], NCSYNC_POLL_MIN, 2, d, 1, NULL));
		ADD(ncsync_add_mov32(q[k], NCSYNC_ALU_ADD_IMM, 1, 1, 1, NULL));
		ADD(ncsync_add_branch_reg(q[k], NCSYNC_BR_NE, NCSYNC_DTYPE_S32,
					  2, 1, fail[k], NULL));
		ADD(ncsync_add_branch_imm(q[k], NCSYNC_BR_LT, NCSYNC_DTYPE_U32,
					  1, iters, loop[k], NULL));
		ADD(ncsync_add_exit(q[k], NULL));
		ADD(ncsync_label_bind(q[k], fail[k]));
		ADD(ncsync_add_semaphore_inc(q[k], bad));
		ADD(ncsync_add_halt(q[k], NULL));
	}
	if (kind == BK_EVENTS)
		ASSERT_EQ(0, ncsync_program_lower(prog, NCSYNC_LOWER_EVENTS));
	id = submit(_metadata, dev, prog, 0, WD_LONG);
	state = wait_end(_metadata, dev, id);
	if (state != NCSYNC_PROG_DONE) {
		status_get(_metadata, dev, id, &st, NULL);
		status_log(_metadata, &st);
		TH_LOG("  copies landed %d, failed checks %d",
		       ncsync_sem_read(dev, d), ncsync_sem_read(dev, bad));
	}
	ASSERT_EQ(NCSYNC_PROG_DONE, state);
	EXPECT_EQ((int32_t)iters, ncsync_sem_read(dev, d));
	EXPECT_EQ(0, ncsync_sem_read(dev, bad));
	ncsync_program_free(prog);
}

TEST_F(core, dma_then_sync_barrier)
{
	dma_then_barrier(_metadata, self->dev, self->info, BK_SYNC);
}

TEST_F(core, dma_then_counter_barrier)
{
	dma_then_barrier(_metadata, self->dev, self->info, BK_COUNTER);
}

TEST_F(core, dma_then_event_barrier)
{
	dma_then_barrier(_metadata, self->dev, self->info, BK_EVENTS);
}

/*
 * The copies of a cancelled program are dropped, bytes and completion,
 * when their landing time comes.
 */
TEST_F(core, dma_of_cancelled_program_dropped)
{
	const uint32_t len = 1024, lat_us = 300000;
	struct ncsync_program *prog = prog_new(_metadata);
	struct ncsync_prog_status st;
	struct ncsync_stream *q;
	struct devmem m;
	uint64_t dst;
	uint32_t id, i;

	devmem_map(_metadata, self->dev, self->info, &m);
	dst = m.size - len;
	for (i = 0; i < len; i++)
		m.p[i] = (uint8_t)(i + 1);
	memset(m.p + dst, 0x33, len);
	q = stream(_metadata, prog, NCSYNC_ENGINE_SP);
	ADD(ncsync_add_dma(q, 0, dst, len, lat_us,
			   NCSYNC_UPD_COMPLETE | NCSYNC_UPD_SEM_INC, 95, NULL));
	ADD(ncsync_add_event_wait(q, 96, NCSYNC_WAIT_EVT_SET));
	id = submit(_metadata, self->dev, prog, 0, WD_LONG);
	wait_blocked(_metadata, self->dev, id, NCSYNC_ENGINE_SP, &st);
	ASSERT_EQ(0, ncsync_program_cancel(self->dev, id));
	ASSERT_EQ(NCSYNC_PROG_CANCELLED, wait_end(_metadata, self->dev, id));
	sleep_ms(2 * lat_us / 1000);
	EXPECT_EQ(0, ncsync_sem_read(self->dev, 95));
	for (i = 0; i < len; i++)
		if (m.p[dst + i] != 0x33)
			break;
	EXPECT_EQ(len, i) TH_LOG("a dropped copy wrote its bytes");
	ncsync_program_free(prog);
	munmap(m.p, m.size);
}

/* ---------------------------------------------------------------------- */
/* The text form                                                           */

/*
 * Three engines count 60 barrier passes in loops written in the text form:
 * labels (the same name in each stream), a barrier inside the loops with a
 * sync clause (a NoOp that counts every engine's passes), PollSem and a
 * register branch checking that no engine is behind.
 */
static const char asm_loop[] =
	"# three engines, 60 barrier passes\n"
	"engine pool\n"
	"\tmovi r1, 0\n"
	"loop:\n"
	"engine act\n"
	"\tmovi r1, 0\n"
	"loop:\n"
	"engine sp\n"
	"\tmovi r1, 0\n"
	"loop:\n"
	"barrier then sem[30]++\n"
	"engine pool\n"
	"\tpoll min r2, sem[20]..sem[22]\n"
	"\tbr.lt.s32 r2, r1, bad\n"
	"\tevsem lane1 then sem[20]++\n"
	"\taddi r1, r1, 1\n"
	"\tbr.lt.u32 r1, 60, loop\n"
	"\texit\n"
	"bad:\thalt\n"
	"engine act\n"
	"\tpoll min r2, sem[20]..sem[22]\n"
	"\tbr.lt.s32 r2, r1, bad\n"
	"\tevsem lane1 then sem[21]++\n"
	"\taddi r1, r1, 1\n"
	"\tbr.lt.u32 r1, 60, loop\n"
	"\texit\n"
	"bad:\thalt\n"
	"engine sp\n"
	"\tpoll min r2, sem[20]..sem[22]   ; the same check\n"
	"\tbr.lt.s32 r2, r1, bad\n"
	"\tevsem lane1 then sem[22]++\n"
	"\taddi r1, r1, 1\n"
	"\tbr.lt.u32 r1, 60, loop\n"
	"\texit\n"
	"bad:\thalt\n";

TEST_F(core, asm_program_with_labels_and_barrier)
{
	struct ncsync_program *prog = NULL;
	struct ncsync_asm_error err;
	struct ncsync_prog_status st;
	unsigned int k;
	int ret, state;
	uint32_t id;

	ret = ncsync_asm(asm_loop, &prog, &err);
	ASSERT_EQ(0, ret) TH_LOG("%u:%u: %s", err.line, err.col, err.msg);
	EXPECT_EQ((1U << NCSYNC_ENGINE_POOL) | (1U << NCSYNC_ENGINE_ACT) |
		  (1U << NCSYNC_ENGINE_SP), ncsync_program_engines(prog));
	id = submit(_metadata, self->dev, prog, 0, WD_LONG);
	state = wait_end(_metadata, self->dev, id);
	status_get(_metadata, self->dev, id, &st, NULL);
	if (state != NCSYNC_PROG_DONE)
		status_log(_metadata, &st);
	ASSERT_EQ(NCSYNC_PROG_DONE, state);
	for (k = 0; k < 3; k++) {
		EXPECT_EQ(NCSYNC_ENG_DONE, st.engines[k].state);
		EXPECT_EQ(60, ncsync_sem_read(self->dev, 20 + k));
	}
	EXPECT_EQ(3 * 60, ncsync_sem_read(self->dev, 30));
	/* 3 engines, one +1 each per pass, on Pool's counter */
	EXPECT_EQ(3 * 60,
		  ncsync_sem_read(self->dev, barrier_counter(self->info)));

	/* A finalized program runs again; its start resets the counter. */
	for (k = 0; k < 3; k++)
		ASSERT_EQ(0, ncsync_sem_set(self->dev, 20 + k, 0, NULL));
	id = submit(_metadata, self->dev, prog, 0, WD_LONG);
	ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->dev, id));
	for (k = 0; k < 3; k++)
		EXPECT_EQ(60, ncsync_sem_read(self->dev, 20 + k));
	EXPECT_EQ(3 * 60,
		  ncsync_sem_read(self->dev, barrier_counter(self->info)));
	EXPECT_EQ(2 * 3 * 60, ncsync_sem_read(self->dev, 30));
	ncsync_program_free(prog);
}

/*
 * Functions, Call and Return (lowered by the library, inlined): pool's
 * "post" adds 1 to sem[40] and, on odd passes, 1 more (an early ret on
 * even ones); act's "twice" calls its "one" twice (nested calls), each
 * adding 3 to sem[41]; both call in a loop of 10 passes.
 */
static const char asm_calls[] =
	"engine pool\n"
	"func post\n"
	"\tnop then sem[40]++\n"
	"\tandi r2, r1, 1\n"
	"\tbr.eq.u32 r2, 0, even\n"
	"\tret then sem[40]++\n"
	"even:\tret\n"
	"endfunc\n"
	"\tmovi r1, 0\n"
	"loop:\tcall post, args=5\n"
	"\taddi r1, r1, 1\n"
	"\tbr.lt.u32 r1, 10, loop\n"
	"\texit\n"
	"engine act\n"
	"func one\n"
	"\tnop then sem[41] += 3\n"
	"endfunc\n"
	"func twice\n"
	"\tcall one\n"
	"\tcall one\n"
	"endfunc\n"
	"\tmovi r1, 0\n"
	"loop:\tcall twice wait sem[40] >= 0 then sem[42]++\n"
	"\taddi r1, r1, 1\n"
	"\tbr.lt.u32 r1, 10, loop\n"
	"\texit\n";

/*
 * Pool's lowered stream, byte by byte (selftests/ncsync_rec.h): the body
 * inlined at the Call, its early ret a branch to the copy's end with the
 * ret's update, the last ret nothing, the loop's target relocated.
 */
static void check_pool_calls(struct __test_metadata *_metadata,
			     struct ncsync_program *prog)
{
	struct ncsync_stream *s;
	__u8 want[8][REC_SIZE];
	unsigned int i;

	enc_mov(want[0], NCSYNC_ALU_MOV_IMM, 1, 0, 0);
	enc_noop(want[1], 0, 0, NCSYNC_UPD_COMPLETE | NCSYNC_UPD_SEM_INC, 40,
		 0);
	enc_mov(want[2], NCSYNC_ALU_AND_IMM, 2, 1, 1);
	enc_branch(want[3], NCSYNC_BR_EQ, NCSYNC_DTYPE_U32, 2, 0, 0, 5);
	enc_jump(want[4], 5);
	rec_lane0(want[4], 0, 0, NCSYNC_UPD_COMPLETE | NCSYNC_UPD_SEM_INC, 40,
		  0);
	enc_mov(want[5], NCSYNC_ALU_ADD_IMM, 1, 1, 1);
	enc_branch(want[6], NCSYNC_BR_LT, NCSYNC_DTYPE_U32, 1, 0, 10, 1);
	enc_exit(want[7]);
	s = ncsync_program_find_stream(prog, NCSYNC_ENGINE_POOL);
	ASSERT_EQ(8U, ncsync_stream_count(s));
	for (i = 0; i < 8; i++)
		EXPECT_EQ(0, memcmp(ncsync_stream_peek(s, i), want[i],
				    REC_SIZE)) TH_LOG("pool record %u", i);
}

TEST_F(core, asm_call_return_lowered)
{
	struct ncsync_program *prog = NULL;
	struct ncsync_asm_error err;
	int ret;
	uint32_t id;

	ret = ncsync_asm(asm_calls, &prog, &err);
	ASSERT_EQ(0, ret) TH_LOG("%u:%u: %s", err.line, err.col, err.msg);
	ret = ncsync_program_finalize(prog);
	ASSERT_EQ(0, ret) TH_LOG("%s", ncsync_program_lower_error(prog));
	check_pool_calls(_metadata, prog);
	id = submit(_metadata, self->dev, prog, 0, WD_LONG);
	ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->dev, id));
	EXPECT_EQ(15, ncsync_sem_read(self->dev, 40));
	EXPECT_EQ(10 * 2 * 3, ncsync_sem_read(self->dev, 41));
	EXPECT_EQ(10, ncsync_sem_read(self->dev, 42));
	ncsync_program_free(prog);
}

/*
 * A pseudo-op of @add with an events block, lowered to a NoOp that keeps
 * it: pool's waits for act's sem[43] >= 1 and then sets ev[40], which act
 * waits on before it writes sem[44] = 7.  The record pool runs is that
 * NoOp, byte by byte.  The device is reset first.
 */
static void noop_pseudo_runs(struct __test_metadata *_metadata,
			     struct ncsync_dev *dev,
			     int (*add)(struct ncsync_stream *s,
					const struct ncsync_events *ev))
{
	const struct ncsync_events ev = {
		.wait_mode = NCSYNC_WAIT_SEM_GE, .wait_idx = 43, .value = 1,
		.upd_mode = NCSYNC_UPD_COMPLETE | NCSYNC_UPD_EVT_SET,
		.upd_idx = 40,
	};
	struct ncsync_program *prog = prog_new(_metadata);
	struct ncsync_stream *p, *a;
	__u8 want[REC_SIZE];
	const uint8_t *rec;
	uint32_t id;

	ASSERT_EQ(0, ncsync_reset(dev));
	ADD(ncsync_program_stream(prog, NCSYNC_ENGINE_POOL, &p));
	ADD(ncsync_program_stream(prog, NCSYNC_ENGINE_ACT, &a));
	ADD(add(p, &ev));
	ADD(ncsync_add_exit(p, NULL));
	ADD(ncsync_add_semaphore_inc(a, 43));
	ADD(ncsync_add_event_wait(a, 40, NCSYNC_WAIT_EVT_SET));
	ADD(ncsync_add_semaphore_set(a, 44, 7));
	ADD(ncsync_add_exit(a, NULL));
	ASSERT_EQ(0, ncsync_program_finalize(prog));
	rec = ncsync_stream_peek(p, 0);
	ASSERT_NE(NULL, rec);
	enc_noop(want, NCSYNC_WAIT_SEM_GE, 43,
		 NCSYNC_UPD_COMPLETE | NCSYNC_UPD_EVT_SET, 40, 1);
	EXPECT_EQ(0, memcmp(rec, want, REC_SIZE));
	id = submit(_metadata, dev, prog, 0, WD_LONG);
	ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, dev, id));
	EXPECT_TRUE(ncsync_event_read(dev, 40));
	EXPECT_EQ(1, ncsync_sem_read(dev, 43));
	EXPECT_EQ(7, ncsync_sem_read(dev, 44));
	ncsync_program_free(prog);
}

/* A DMA barrier (0xC3): BARRIER 6.2, "KRT lowers it to Nop(NUM_ROWS)". */
TEST_F(core, dma_barrier_lowered_with_events)
{
	noop_pseudo_runs(_metadata, self->dev, ncsync_add_dma_barrier);
}

/*
 * BARRIER, "See also": "TriggerCollective (0xC8) - the canonical collective
 * pseudo-op that carries the same events block"; "TriggerCollective2 + Ext
 * (0xD9/0xDA) - the SBUF-tensor v2 collective carrier".  Each is lowered as
 * the DMA barrier is, its events block kept, and runs on the engines.
 */
TEST_F(core, trigger_collective_lowered_with_events)
{
	noop_pseudo_runs(_metadata, self->dev, ncsync_add_trigger_collective);
	noop_pseudo_runs(_metadata, self->dev, ncsync_add_trigger_collective2);
	noop_pseudo_runs(_metadata, self->dev,
			 ncsync_add_trigger_collective2_ext);
}

/*
 * The text form is exact: a finalized program (lowered barriers, resolved
 * branches) printed by ncsync_disasm_program() assembles back into the
 * same records, and runs the same.  For both lowerings.
 */
static void disasm_roundtrip(struct __test_metadata *_metadata,
			     struct ncsync_dev *dev,
			     const struct ncsync_info *info,
			     enum barrier_kind kind)
{
	const unsigned int iters = 200;
	struct ncsync_program *prog = prog_new(_metadata);
	struct ncsync_program *again = NULL;
	struct ncsync_asm_error err;
	struct barrier_loop bl;
	unsigned int k;
	char *text = NULL;
	size_t len = 0;
	uint32_t id, i;
	FILE *f;
	int ret;

	build_barrier_loop(_metadata, prog, info, kind, ALL_ENGINES, iters, 0,
			   false, &bl);
	f = open_memstream(&text, &len);
	ASSERT_NE(NULL, f);
	ASSERT_EQ(0, ncsync_disasm_program(prog, f));
	ASSERT_EQ(0, fclose(f));
	ret = ncsync_asm(text, &again, &err);
	ASSERT_EQ(0, ret) TH_LOG("%u:%u: %s", err.line, err.col, err.msg);
	ASSERT_EQ(0, ncsync_program_finalize(again));
	ASSERT_EQ(ncsync_program_engines(prog),
		  ncsync_program_engines(again));
	for (k = 0; k < NCSYNC_NUM_ENGINES; k++) {
		struct ncsync_stream *a, *b;

		a = ncsync_program_find_stream(prog, engine_ids[k]);
		b = ncsync_program_find_stream(again, engine_ids[k]);
		ASSERT_NE(NULL, b);
		ASSERT_EQ(ncsync_stream_count(a), ncsync_stream_count(b));
		for (i = 0; i < ncsync_stream_count(a); i++)
			ASSERT_EQ(0, memcmp(ncsync_stream_record(a, i),
					    ncsync_stream_record(b, i),
					    NCSYNC_RECORD_SIZE))
				TH_LOG("engine %u record %u", engine_ids[k], i);
	}
	id = submit(_metadata, dev, again, 0, WD_LONG);
	check_barrier_loop(_metadata, dev, id, &bl, iters);
	free(text);
	ncsync_program_free(again);
	ncsync_program_free(prog);
}

TEST_F(core, disasm_roundtrip_counter_lowering)
{
	disasm_roundtrip(_metadata, self->dev, self->info, BK_SYNC);
}

TEST_F(core, disasm_roundtrip_event_lowering)
{
	disasm_roundtrip(_metadata, self->dev, self->info, BK_EVENTS);
}

/* ---------------------------------------------------------------------- */
/* Submission errors                                                       */

/* The 64 bytes of @rec as the hex of a .raw line. */
static void raw_hex(const uint8_t *rec, char *buf)
{
	unsigned int i;

	for (i = 0; i < NCSYNC_RECORD_SIZE; i++)
		sprintf(buf + 2 * i, "%02x", rec[i]);
}

static void submit_refused(struct __test_metadata *_metadata,
			   struct ncsync_dev *dev, const char *text,
			   uint8_t engine, uint32_t index, uint32_t reason)
{
	struct ncsync_program *prog = NULL;
	struct ncsync_submit_error err;
	struct ncsync_asm_error aerr;
	struct ncsync_stats s0, s1;
	uint32_t id = 12345;
	int ret;

	ret = ncsync_asm(text, &prog, &aerr);
	ASSERT_EQ(0, ret) TH_LOG("%u:%u: %s", aerr.line, aerr.col, aerr.msg);
	ASSERT_EQ(0, ncsync_stats(dev, &s0));
	memset(&err, 0xa5, sizeof(err));
	ret = ncsync_program_submit(dev, prog, 0, WD_LONG, &id, &err);
	EXPECT_EQ(-EINVAL, ret);
	EXPECT_EQ(engine, err.engine);
	EXPECT_EQ(index, err.index);
	EXPECT_EQ(reason, err.reason)
		TH_LOG("reason %u (%s), expected %u (%s)", err.reason,
		       ncsync_reason_name(err.reason), reason,
		       ncsync_reason_name(reason));
	EXPECT_NE(NULL, ncsync_reason_name(err.reason));
	EXPECT_EQ(12345U, id);
	/* Nothing ran. */
	ASSERT_EQ(0, ncsync_stats(dev, &s1));
	EXPECT_EQ(s0.seq, s1.seq);
	ncsync_program_free(prog);
}

/* Records the library or the kernel refuses, each at its engine and index. */
static void submit_bad_records(struct __test_metadata *_metadata,
			       struct ncsync_dev *dev,
			       const struct ncsync_info *info)
{
	uint8_t rec[NCSYNC_RECORD_SIZE];
	char hex[2 * NCSYNC_RECORD_SIZE + 1], text[1024];
	struct ncsync_program *prog;
	struct ncsync_submit_error err;
	uint32_t id = 0;

	/* A NoOp with a reserved byte set, on PE at index 2. */
	enc_header(rec, NCSYNC_OPC_NOOP);
	rec[0x0c] = 0xff;
	raw_hex(rec, hex);
	snprintf(text, sizeof(text),
		 "engine pool\n\tnop\n\tnop\n\tnop\n"
		 "engine pe\n\tnop\n\tevsem lane1 then sem[1]++\n\t.raw %s\n"
		 "\tnop\n", hex);
	submit_refused(_metadata, dev, text, NCSYNC_ENGINE_PE, 2,
		       NCSYNC_REC_RESERVED_BYTE);

	/* A bad word length, first record of SP, after valid streams. */
	rec[0x0c] = 0;
	rec[1] = 0x0f;
	raw_hex(rec, hex);
	snprintf(text, sizeof(text),
		 "engine act\n\tnop\nengine sp\n\t.raw %s\n", hex);
	submit_refused(_metadata, dev, text, NCSYNC_ENGINE_SP, 0,
		       NCSYNC_REC_BAD_WORDLEN);

	/* A pseudo-op with no lowering (0xC7; CoreBarrier 0xD8 has one) */
	rec[1] = NCSYNC_RECORD_WORDLEN;
	rec[0] = 0xC7;
	raw_hex(rec, hex);
	snprintf(text, sizeof(text), "engine dve\n\tnop\n\t.raw %s\n", hex);
	prog = NULL;
	ASSERT_EQ(0, ncsync_asm(text, &prog, NULL));
	EXPECT_EQ(-EOPNOTSUPP, ncsync_program_submit(dev, prog, 0,
						     WD_LONG, &id, &err));
	ncsync_program_free(prog);

	/*
	 * A copy past the end of the device memory: only the kernel knows
	 * its size, so the kernel refuses it and the library passes its
	 * report on.
	 */
	snprintf(text, sizeof(text),
		 "engine pool\n\tnop\nengine dve\n\tnop\n\tnop\n"
		 "\tdma 0x0, 0x%x, 64\n\tnop\n",
		 info->devmem_size - 32);
	submit_refused(_metadata, dev, text, NCSYNC_ENGINE_DVE, 2,
		       NCSYNC_REC_BAD_DMA);
}

/* A valid .raw record runs. */
static void submit_valid_raw(struct __test_metadata *_metadata,
			     struct ncsync_dev *dev)
{
	uint8_t rec[NCSYNC_RECORD_SIZE];
	char hex[2 * NCSYNC_RECORD_SIZE + 1], text[1024];
	struct ncsync_program *prog;
	uint32_t id;

	enc_noop(rec, NCSYNC_WAIT_NONE, 0,
		 NCSYNC_UPD_COMPLETE | NCSYNC_UPD_SEM_ADD, 50, 3);
	raw_hex(rec, hex);
	snprintf(text, sizeof(text), "engine pe\n\t.raw %s\n\t.raw %s\n", hex,
		 hex);
	prog = NULL;
	ASSERT_EQ(0, ncsync_asm(text, &prog, NULL));
	id = submit(_metadata, dev, prog, 0, WD_LONG);
	EXPECT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, dev, id));
	EXPECT_EQ(6, ncsync_sem_read(dev, 50));
	ncsync_program_free(prog);
}

/* Programs the library refuses: empty, unbound or out-of-range labels. */
static void submit_bad_programs(struct __test_metadata *_metadata,
				struct ncsync_dev *dev)
{
	struct ncsync_program *prog;
	struct ncsync_submit_error err;
	struct ncsync_stream *q;
	uint32_t id = 0;
	int label;

	/* An empty program; a branch to a label never bound. */
	prog = prog_new(_metadata);
	stream(_metadata, prog, NCSYNC_ENGINE_POOL);
	memset(&err, 0xa5, sizeof(err));
	EXPECT_EQ(-ENODATA, ncsync_program_submit(dev, prog, 0, WD_LONG,
						  &id, &err));
	EXPECT_EQ((unsigned int)(NCSYNC_REC_OK), err.reason);
	ncsync_program_free(prog);
	prog = prog_new(_metadata);
	ADD(ncsync_add_branch(stream(_metadata, prog, NCSYNC_ENGINE_POOL),
			      ncsync_label_new(prog), NULL));
	EXPECT_EQ(-ENOENT, ncsync_program_submit(dev, prog, 0, WD_LONG,
						 &id, &err));
	ncsync_program_free(prog);

	/* A branch to a label past the last record (refused by finalize). */
	prog = prog_new(_metadata);
	q = stream(_metadata, prog, NCSYNC_ENGINE_SP);
	label = ncsync_label_new(prog);
	ADD(label);
	ADD(ncsync_add_nop(q, NULL));
	ADD(ncsync_add_branch(q, label, NULL));
	ADD(ncsync_label_bind(q, label));
	memset(&err, 0, sizeof(err));
	EXPECT_EQ(-EINVAL, ncsync_program_submit(dev, prog, 0, WD_LONG,
						 &id, &err));
	EXPECT_EQ(NCSYNC_ENGINE_SP, err.engine);
	EXPECT_EQ(1U, err.index);
	EXPECT_EQ((uint32_t)NCSYNC_REC_BAD_TARGET, err.reason);
	ncsync_program_free(prog);
}

TEST_F(core, submit_errors)
{
	struct ncsync_program *prog;
	struct ncsync_submit_error err;
	uint32_t id = 0;

	submit_bad_records(_metadata, self->dev, self->info);
	submit_valid_raw(_metadata, self->dev);
	submit_bad_programs(_metadata, self->dev);

	/* Bad flags, bad watchdog */
	memset(&err, 0, sizeof(err));
	prog = prog_new(_metadata);
	ADD(ncsync_add_nop(stream(_metadata, prog, NCSYNC_ENGINE_POOL), NULL));
	EXPECT_EQ(-EINVAL, ncsync_program_submit(self->dev, prog, 0x80,
						 WD_LONG, &id, &err));
	EXPECT_EQ((unsigned int)(NCSYNC_REC_OK), err.reason);
	EXPECT_EQ(-EINVAL, ncsync_program_submit(self->dev, prog, 0,
						 3600001, &id, &err));
	EXPECT_EQ(-EINVAL, ncsync_program_submit(NULL, prog, 0, WD_LONG, &id,
						 &err));
	EXPECT_EQ(-EINVAL, ncsync_program_submit(self->dev, NULL, 0, WD_LONG,
						 &id, &err));
	ncsync_program_free(prog);
}

/* ---------------------------------------------------------------------- */
/* Program status, wait, cancel                                            */

/*
 * A finished program's status is its snapshot: the semaphores it left,
 * not what they became later.  Release forgets it.
 */
TEST_F(core, program_status_sems_snapshot)
{
	struct ncsync_program *prog = prog_new(_metadata);
	struct ncsync_sem_value sems[NCSYNC_NUM_SEMS];
	struct ncsync_prog_status st;
	struct ncsync_stream *q;
	uint32_t id, i;
	bool found;

	ASSERT_EQ(0, ncsync_sem_set(self->dev, 90, 5, NULL));
	q = stream(_metadata, prog, NCSYNC_ENGINE_PE);
	ADD(ncsync_add_semaphore_set(q, 60, 42));
	ADD(ncsync_add_semaphore_set(q, 61, (uint32_t)-3));
	ADD(ncsync_add_semaphore_set(q, 90, 0));
	ADD(ncsync_add_semaphore_add(q, 255, 7));
	ADD(ncsync_add_exit(q, NULL));
	ADD(ncsync_add_semaphore_inc(q, 62));	/* never reached */
	id = submit(_metadata, self->dev, prog, 0, WD_LONG);
	ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->dev, id));

	/* Later changes are not in the snapshot. */
	ASSERT_EQ(0, ncsync_sem_set(self->dev, 60, 1, NULL));
	ASSERT_EQ(0, ncsync_sem_set(self->dev, 70, 9, NULL));

	memset(sems, 0xa5, sizeof(sems));
	status_get(_metadata, self->dev, id, &st, sems);
	EXPECT_EQ(id, st.id);
	EXPECT_EQ(NCSYNC_PROG_DONE, (int)st.state);
	ASSERT_EQ(1U, st.nengines);
	EXPECT_EQ(NCSYNC_ENGINE_PE, st.engines[0].engine);
	EXPECT_EQ(NCSYNC_ENG_DONE, st.engines[0].state);
	EXPECT_EQ(NCSYNC_FAULT_NONE, st.engines[0].fault);
	EXPECT_EQ(4U, st.engines[0].pc);		/* the Exit */
	EXPECT_EQ(5U, st.engines[0].executed);
	ASSERT_EQ(3U, st.nsems);
	for (i = 1; i < st.nsems; i++)
		EXPECT_LT(sems[i - 1].index, sems[i].index);
	EXPECT_EQ(42, snap_sem(sems, st.nsems, 60, &found));
	EXPECT_TRUE(found);
	EXPECT_EQ(-3, snap_sem(sems, st.nsems, 61, &found));
	EXPECT_TRUE(found);
	EXPECT_EQ(7, snap_sem(sems, st.nsems, 255, &found));
	EXPECT_TRUE(found);
	snap_sem(sems, st.nsems, 90, &found);
	EXPECT_FALSE(found);
	snap_sem(sems, st.nsems, 70, &found);
	EXPECT_FALSE(found);
	EXPECT_EQ(0, ncsync_sem_read(self->dev, 62));

	/* Without a sems buffer, nsems is 0. */
	status_get(_metadata, self->dev, id, &st, NULL);
	EXPECT_EQ(0U, st.nsems);

	/* Release forgets it. */
	EXPECT_EQ(0, ncsync_program_status(self->dev, id, true, &st, NULL));
	EXPECT_EQ(NCSYNC_PROG_DONE, (int)st.state);
	EXPECT_EQ(-ENOENT, ncsync_program_status(self->dev, id, false, &st,
						 NULL));
	EXPECT_EQ(-ENOENT, ncsync_program_wait(self->dev, id, NULL, NULL));
	EXPECT_EQ(-ENOENT, ncsync_program_cancel(self->dev, id));
	ncsync_program_free(prog);
}

/*
 * A running program's status is live; it cannot be released; its wait
 * times out at the deadline; cancel ends it CANCELLED.
 */
/* SP of program @id blocks on sem[@s] == 3, and its report is live. */
static void check_sp_blocked_live(struct __test_metadata *_metadata,
				  struct ncsync_dev *dev, uint32_t id, int s)
{
	struct ncsync_prog_status st;
	const struct ncsync_engine_status *e;

	wait_blocked(_metadata, dev, id, NCSYNC_ENGINE_SP, &st);
	EXPECT_EQ(NCSYNC_PROG_RUNNING, (int)st.state);
	e = ENG(&st, NCSYNC_ENGINE_SP);
	EXPECT_EQ(NCSYNC_BLOCK_SEM, e->wait_kind);
	EXPECT_EQ(NCSYNC_WAIT_SEM_EQ, e->wait_mode);
	EXPECT_EQ(s, e->wait_index);
	EXPECT_EQ(3, e->wait_threshold);
	EXPECT_EQ(0, e->wait_current);
	/* Live: a change shows at once. */
	ASSERT_EQ(0, ncsync_sem_set(dev, s, 2, NULL));
	wait_blocked(_metadata, dev, id, NCSYNC_ENGINE_SP, &st);
	EXPECT_EQ(2, ENG(&st, NCSYNC_ENGINE_SP)->wait_current);
	EXPECT_EQ(-EBUSY, ncsync_program_status(dev, id, true, &st, NULL));
}

/* The report of cancelled program @id: Act done, SP cancelled at 0. */
static void check_cancelled_report(struct __test_metadata *_metadata,
				   struct ncsync_dev *dev, uint32_t id, int s)
{
	struct ncsync_prog_status st;
	const struct ncsync_engine_status *e;

	status_get(_metadata, dev, id, &st, NULL);
	EXPECT_EQ(NCSYNC_PROG_CANCELLED, (int)st.state);
	e = ENG(&st, NCSYNC_ENGINE_ACT);
	EXPECT_EQ(NCSYNC_ENG_DONE, e->state);
	EXPECT_EQ(NCSYNC_FAULT_NONE, e->fault);
	e = ENG(&st, NCSYNC_ENGINE_SP);
	EXPECT_EQ(NCSYNC_ENG_CANCELLED, e->state);
	EXPECT_EQ(NCSYNC_FAULT_CANCELLED, e->fault);
	EXPECT_EQ(0U, e->pc);
	EXPECT_EQ(1, ncsync_sem_read(dev, s + 1));
}

TEST_F(core, program_wait_deadline_and_cancel)
{
	struct ncsync_program *prog = prog_new(_metadata);
	struct timespec dl;
	uint32_t id, state = 99;
	int64_t t0;
	int s;

	s = ncsync_sem_alloc(prog, 1);
	ADD(s);
	ADD(ncsync_add_semaphore_inc(stream(_metadata, prog,
					    NCSYNC_ENGINE_ACT), s + 1));
	ADD(ncsync_add_semaphore_wait_eq(stream(_metadata, prog,
						NCSYNC_ENGINE_SP), s, 3));
	id = submit(_metadata, self->dev, prog, 0, WD_LONG);

	check_sp_blocked_live(_metadata, self->dev, id, s);

	t0 = now_ns();
	dl = deadline_ms(100);
	EXPECT_EQ(-ETIMEDOUT, ncsync_program_wait(self->dev, id, &dl, &state));
	EXPECT_LE(100 * NSEC_PER_MSEC, now_ns() - t0);
	EXPECT_EQ(99U, state);
	dl.tv_sec = 0;
	dl.tv_nsec = 0;
	EXPECT_EQ(-ETIMEDOUT, ncsync_program_wait(self->dev, id, &dl, &state));

	ASSERT_EQ(0, ncsync_program_cancel(self->dev, id));
	ASSERT_EQ(NCSYNC_PROG_CANCELLED, wait_end(_metadata, self->dev, id));
	check_cancelled_report(_metadata, self->dev, id, s);
	/* Cancelling an ended program does nothing. */
	EXPECT_EQ(0, ncsync_program_cancel(self->dev, id));
	ASSERT_EQ(0, ncsync_program_wait(self->dev, id, NULL, &state));
	EXPECT_EQ(NCSYNC_PROG_CANCELLED, (int)state);
	/* Unknown ids */
	EXPECT_EQ(-ENOENT, ncsync_program_cancel(self->dev, id + 100));
	EXPECT_EQ(-ENOENT, ncsync_program_wait(self->dev, id + 100, &dl,
					       NULL));
	ncsync_program_free(prog);
}

/* A program queued behind another on a shared engine, cancelled queued. */
TEST_F(core, program_cancel_queued)
{
	struct ncsync_program *p1 = prog_new(_metadata);
	struct ncsync_program *p2 = prog_new(_metadata);
	struct ncsync_prog_status st;
	uint32_t id1, id2;

	ADD(ncsync_add_semaphore_wait_ge(stream(_metadata, p1,
						NCSYNC_ENGINE_DVE), 80, 1));
	ADD(ncsync_add_semaphore_inc(stream(_metadata, p2, NCSYNC_ENGINE_DVE),
				     81));
	id1 = submit(_metadata, self->dev, p1, 0, WD_LONG);
	id2 = submit(_metadata, self->dev, p2, 0, WD_LONG);
	EXPECT_LT(id1, id2);
	wait_blocked(_metadata, self->dev, id1, NCSYNC_ENGINE_DVE, &st);
	status_get(_metadata, self->dev, id2, &st, NULL);
	EXPECT_EQ(NCSYNC_PROG_QUEUED, (int)st.state);
	EXPECT_EQ(NCSYNC_ENG_QUEUED, st.engines[0].state);
	ASSERT_EQ(0, ncsync_program_cancel(self->dev, id2));
	ASSERT_EQ(NCSYNC_PROG_CANCELLED, wait_end(_metadata, self->dev, id2));
	ASSERT_EQ(0, ncsync_sem_set(self->dev, 80, 1, NULL));
	ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->dev, id1));
	EXPECT_EQ(0, ncsync_sem_read(self->dev, 81));
	ncsync_program_free(p1);
	ncsync_program_free(p2);
}

/*
 * A program blocked on an event times out after its (short) watchdog;
 * userspace changes to other semaphores are not its progress.  The
 * snapshot shows the engine blocked on the event, and the core's
 * semaphores as they were.
 */
TEST_F(core, watchdog_times_out_blocked_program)
{
	struct ncsync_program *prog = prog_new(_metadata);
	struct ncsync_sem_value sems[NCSYNC_NUM_SEMS];
	struct ncsync_prog_status st;
	struct ncsync_stream *q;
	uint32_t id, n = 0, one = 1;
	bool found;

	q = stream(_metadata, prog, NCSYNC_ENGINE_ACT);
	ADD(ncsync_add_semaphore_set(q, 85, 12));
	ADD(ncsync_add_event_wait(q, 86, NCSYNC_WAIT_EVT_SET));

	/* Userspace keeps changing the banks: the program still times out. */
	id = submit(_metadata, self->dev, prog, 0, WD_SHORT);
	do {
		ASSERT_EQ(0, ncsync_csr_write(self->dev,
					      NCSYNC_CSR_SEM_INC + 4 * 87,
					      &one, 1));
		n++;
		sleep_ms(20);
		status_get(_metadata, self->dev, id, &st, NULL);
	} while (st.state == NCSYNC_PROG_RUNNING ||
		 st.state == NCSYNC_PROG_QUEUED);
	EXPECT_EQ(NCSYNC_PROG_TIMED_OUT, (int)st.state);
	EXPECT_EQ(NCSYNC_PROG_TIMED_OUT, wait_end(_metadata, self->dev, id));

	/* Its snapshot: the engine blocked on the event, the semaphores. */
	id = submit(_metadata, self->dev, prog, 0, WD_SETTLE);
	ASSERT_EQ(NCSYNC_PROG_TIMED_OUT, wait_end(_metadata, self->dev, id));
	status_get(_metadata, self->dev, id, &st, sems);
	ASSERT_EQ(1U, st.nengines);
	EXPECT_EQ(NCSYNC_ENG_BLOCKED, st.engines[0].state);
	EXPECT_EQ(NCSYNC_BLOCK_EVENT, st.engines[0].wait_kind);
	EXPECT_EQ(NCSYNC_WAIT_EVT_SET, st.engines[0].wait_mode);
	EXPECT_EQ(86, st.engines[0].wait_index);
	EXPECT_EQ(1, st.engines[0].wait_lane);
	EXPECT_EQ(0, st.engines[0].wait_current);
	EXPECT_EQ(1U, st.engines[0].pc);
	EXPECT_EQ(12, snap_sem(sems, st.nsems, 85, &found));
	EXPECT_TRUE(found);
	EXPECT_EQ((int32_t)n, snap_sem(sems, st.nsems, 87, &found));
	EXPECT_TRUE(found);

	/* The core still runs programs. */
	ASSERT_EQ(0, ncsync_event_set(self->dev, 86));
	id = submit(_metadata, self->dev, prog, 0, WD_LONG);
	EXPECT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->dev, id));
	ncsync_program_free(prog);
}

/*
 * A queued program has no watchdog: behind a blocked one it stays queued
 * well past its own (short) watchdog, then runs.  (Its watchdog leaves its
 * engines time to run once it starts.)
 */
TEST_F(core, queued_program_has_no_watchdog)
{
	struct ncsync_program *p1 = prog_new(_metadata);
	struct ncsync_program *p2 = prog_new(_metadata);
	struct ncsync_prog_status st;
	uint32_t id1, id2;

	ADD(ncsync_add_semaphore_wait_ge(stream(_metadata, p1,
						NCSYNC_ENGINE_POOL), 82, 1));
	ADD(ncsync_add_semaphore_inc(stream(_metadata, p2,
					    NCSYNC_ENGINE_POOL), 83));
	ADD(ncsync_add_semaphore_inc(stream(_metadata, p2, NCSYNC_ENGINE_SP),
				     83));
	id1 = submit(_metadata, self->dev, p1, 0, WD_LONG);
	id2 = submit(_metadata, self->dev, p2, 0, WD_SETTLE);
	wait_blocked(_metadata, self->dev, id1, NCSYNC_ENGINE_POOL, &st);
	sleep_ms(2 * WD_SETTLE);
	status_get(_metadata, self->dev, id2, &st, NULL);
	EXPECT_EQ(NCSYNC_PROG_QUEUED, (int)st.state);
	EXPECT_EQ(0, ncsync_sem_read(self->dev, 83));
	ASSERT_EQ(0, ncsync_sem_set(self->dev, 82, 1, NULL));
	EXPECT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->dev, id1));
	EXPECT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->dev, id2));
	EXPECT_EQ(2, ncsync_sem_read(self->dev, 83));
	ncsync_program_free(p1);
	ncsync_program_free(p2);
}

/*
 * A reset ends a running program CANCELLED (engines: NCSYNC_FAULT_RESET);
 * ncsync_program_wait() in another thread returns that state, not
 * -ECANCELED.
 */
TEST_F(core, program_wait_across_reset)
{
	struct ncsync_program *prog = prog_new(_metadata);
	struct prog_waiter pw = { .dev = self->dev, .ret = 1 };
	struct ncsync_prog_status st;
	uint32_t state = 99;
	pthread_t t;

	ADD(ncsync_add_event_wait(stream(_metadata, prog, NCSYNC_ENGINE_DVE),
				  84, NCSYNC_WAIT_EVT_SET));
	pw.id = submit(_metadata, self->dev, prog, 0, WD_LONG);
	wait_blocked(_metadata, self->dev, pw.id, NCSYNC_ENGINE_DVE, &st);
	ASSERT_EQ(0, pthread_create(&t, NULL, prog_waiter_fn, &pw));
	sleep_ms(50);
	ASSERT_EQ(0, ncsync_reset(self->dev));
	ASSERT_EQ(0, pthread_join(t, NULL));
	EXPECT_EQ(0, pw.ret);
	ASSERT_EQ(0, ncsync_program_wait(self->dev, pw.id, NULL, &state));
	EXPECT_EQ(NCSYNC_PROG_CANCELLED, (int)state);
	status_get(_metadata, self->dev, pw.id, &st, NULL);
	EXPECT_EQ(NCSYNC_ENG_CANCELLED, st.engines[0].state);
	EXPECT_EQ(NCSYNC_FAULT_RESET, st.engines[0].fault);
	ncsync_program_free(prog);
}

/*
 * ncsync_close() stops the programs its descriptor submitted: a blocked
 * program never gets to its update once its device is closed.  Programs
 * of other descriptors go on.
 */
TEST_F(core, close_stops_programs)
{
	struct ncsync_program *prog = prog_new(_metadata);
	struct ncsync_prog_status st;
	struct ncsync_stream *q;
	struct ncsync_dev *dev2;
	uint32_t id2, id;

	q = stream(_metadata, prog, NCSYNC_ENGINE_PE);
	ADD(ncsync_add_semaphore_wait_ge(q, 86, 1));
	ADD(ncsync_add_semaphore_inc(q, 87));
	ASSERT_EQ(0, ncsync_open(0, true, &dev2));
	id2 = submit(_metadata, dev2, prog, 0, WD_LONG);
	wait_blocked(_metadata, dev2, id2, NCSYNC_ENGINE_PE, &st);
	/* The other descriptor does not see it. */
	EXPECT_EQ(-ENOENT, ncsync_program_status(self->dev, id2, false, &st,
						 NULL));
	ncsync_close(dev2);
	/* Its engine is free at once: a program of ours runs on it. */
	id = submit(_metadata, self->dev, prog, 0, WD_LONG);
	wait_blocked(_metadata, self->dev, id, NCSYNC_ENGINE_PE, &st);
	ASSERT_EQ(0, ncsync_sem_set(self->dev, 86, 1, NULL));
	EXPECT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->dev, id));
	EXPECT_EQ(1, ncsync_sem_read(self->dev, 87));
	ncsync_program_free(prog);
}

/*
 * A descriptor retains 256 programs: a 257th is -EAGAIN while none has
 * ended, and once they have, a submission forgets the oldest.
 */
TEST_F(core, program_limit_per_descriptor)
{
	const unsigned int max = 256;
	struct ncsync_program *prog = prog_new(_metadata);
	struct ncsync_prog_status st;
	uint32_t first = 0, id = 0, last = 0;
	unsigned int i;

	ADD(ncsync_add_semaphore_wait_ge(stream(_metadata, prog,
						NCSYNC_ENGINE_ACT), 88, 1));
	for (i = 0; i < max; i++) {
		id = submit(_metadata, self->dev, prog, 0, WD_LONG);
		if (!i)
			first = id;
		last = id;
	}
	EXPECT_EQ(first + max - 1, last);
	EXPECT_EQ(-EAGAIN, ncsync_program_submit(self->dev, prog, 0, WD_LONG,
						 &id, NULL));
	/* A reset ends them all: the running one and the 255 queued. */
	ASSERT_EQ(0, ncsync_reset(self->dev));
	EXPECT_EQ(NCSYNC_PROG_CANCELLED, wait_end(_metadata, self->dev, last));
	ASSERT_EQ(0, ncsync_sem_set(self->dev, 88, 1, NULL));
	id = submit(_metadata, self->dev, prog, 0, WD_LONG);
	EXPECT_EQ(last + 1, id);
	EXPECT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->dev, id));
	EXPECT_EQ(-ENOENT, ncsync_program_status(self->dev, first, false, &st,
						 NULL));
	status_get(_metadata, self->dev, first + 1, &st, NULL);
	EXPECT_EQ(NCSYNC_PROG_CANCELLED, (int)st.state);
	ncsync_program_free(prog);
}

/* ---------------------------------------------------------------------- */
/* Strict mode                                                             */

/*
 * Strict mode: setting a set event faults Pool at record 1 and cancels SP;
 * the same program without strict mode runs to the end (SP freed).
 */
static void strict_set_while_set(struct __test_metadata *_metadata,
				 struct ncsync_dev *dev)
{
	struct ncsync_program *prog;
	struct ncsync_prog_status st;
	const struct ncsync_engine_status *e;
	struct ncsync_stream *q;
	uint32_t id;

	prog = prog_new(_metadata);
	q = stream(_metadata, prog, NCSYNC_ENGINE_POOL);
	ADD(ncsync_add_event_set(q, 70));
	ADD(ncsync_add_event_set(q, 70));
	ADD(ncsync_add_semaphore_inc(q, 71));
	ADD(ncsync_add_semaphore_wait_ge(stream(_metadata, prog,
						NCSYNC_ENGINE_SP), 72, 1));
	id = submit(_metadata, dev, prog, NCSYNC_SUBMIT_F_STRICT, WD_LONG);
	ASSERT_EQ(NCSYNC_PROG_FAULTED, wait_end(_metadata, dev, id));
	status_get(_metadata, dev, id, &st, NULL);
	e = ENG(&st, NCSYNC_ENGINE_POOL);
	EXPECT_EQ(NCSYNC_ENG_FAULTED, e->state);
	EXPECT_EQ(NCSYNC_FAULT_EVENT_SET_WHILE_SET, e->fault);
	EXPECT_EQ(1U, e->pc);
	e = ENG(&st, NCSYNC_ENGINE_SP);
	EXPECT_EQ(NCSYNC_ENG_CANCELLED, e->state);
	EXPECT_EQ(NCSYNC_FAULT_PEER, e->fault);
	EXPECT_TRUE(ncsync_event_read(dev, 70));
	EXPECT_EQ(0, ncsync_sem_read(dev, 71));

	ASSERT_EQ(0, ncsync_event_clear(dev, 70));
	ASSERT_EQ(0, ncsync_sem_set(dev, 72, 1, NULL));
	id = submit(_metadata, dev, prog, 0, WD_LONG);
	ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, dev, id));
	EXPECT_EQ(1, ncsync_sem_read(dev, 71));
	ncsync_program_free(prog);
}

/* Strict mode: clearing a clear event faults Act at record 1. */
static void strict_clear_while_clear(struct __test_metadata *_metadata,
				     struct ncsync_dev *dev)
{
	struct ncsync_program *prog;
	struct ncsync_prog_status st;
	struct ncsync_stream *q;
	uint32_t id;

	prog = prog_new(_metadata);
	q = stream(_metadata, prog, NCSYNC_ENGINE_ACT);
	ADD(ncsync_add_nop(q, NULL));
	ADD(ncsync_add_event_clear(q, 73));
	id = submit(_metadata, dev, prog, NCSYNC_SUBMIT_F_STRICT, WD_LONG);
	ASSERT_EQ(NCSYNC_PROG_FAULTED, wait_end(_metadata, dev, id));
	status_get(_metadata, dev, id, &st, NULL);
	EXPECT_EQ(NCSYNC_ENG_FAULTED, st.engines[0].state);
	EXPECT_EQ(NCSYNC_FAULT_EVENT_CLEAR_WHILE_CLEAR, st.engines[0].fault);
	EXPECT_EQ(1U, st.engines[0].pc);
	ncsync_program_free(prog);
}

/* Strict mode: a semaphore overflow is applied (it wraps), then faults. */
static void strict_sem_overflow(struct __test_metadata *_metadata,
				struct ncsync_dev *dev)
{
	struct ncsync_program *prog;
	struct ncsync_prog_status st;
	struct ncsync_stream *q;
	uint32_t id;

	prog = prog_new(_metadata);
	q = stream(_metadata, prog, NCSYNC_ENGINE_PE);
	ADD(ncsync_add_semaphore_set(q, 74, INT32_MAX));
	ADD(ncsync_add_semaphore_inc(q, 74));
	ADD(ncsync_add_semaphore_inc(q, 75));
	id = submit(_metadata, dev, prog, NCSYNC_SUBMIT_F_STRICT, WD_LONG);
	ASSERT_EQ(NCSYNC_PROG_FAULTED, wait_end(_metadata, dev, id));
	status_get(_metadata, dev, id, &st, NULL);
	EXPECT_EQ(NCSYNC_ENG_FAULTED, st.engines[0].state);
	EXPECT_EQ(NCSYNC_FAULT_SEM_OVERFLOW, st.engines[0].fault);
	EXPECT_EQ(1U, st.engines[0].pc);
	EXPECT_EQ(INT32_MIN, ncsync_sem_read(dev, 74));
	EXPECT_EQ(0, ncsync_sem_read(dev, 75));
	ncsync_program_free(prog);
}

/* Strict mode: DMA completions are outside it, counted only. */
static void strict_dma_counted_only(struct __test_metadata *_metadata,
				    struct ncsync_dev *dev)
{
	struct ncsync_program *prog;
	struct ncsync_stream *q;
	uint32_t id;

	prog = prog_new(_metadata);
	q = stream(_metadata, prog, NCSYNC_ENGINE_DVE);
	ADD(ncsync_add_dma(q, 0, 64, 64, 1000,
			   NCSYNC_UPD_COMPLETE | NCSYNC_UPD_EVT_SET, 76, NULL));
	ADD(ncsync_add_drain(q, NULL));
	ADD(ncsync_add_dma(q, 0, 64, 64, 1000,
			   NCSYNC_UPD_COMPLETE | NCSYNC_UPD_EVT_SET, 76, NULL));
	ADD(ncsync_add_drain(q, NULL));
	id = submit(_metadata, dev, prog, NCSYNC_SUBMIT_F_STRICT, WD_LONG);
	ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, dev, id));
	EXPECT_TRUE(ncsync_event_read(dev, 76));
	ncsync_program_free(prog);
}

TEST_F(core, strict_mode_faults)
{
	struct ncsync_stats s0, s1;

	ASSERT_EQ(0, ncsync_stats(self->dev, &s0));

	strict_set_while_set(_metadata, self->dev);
	strict_clear_while_clear(_metadata, self->dev);
	strict_sem_overflow(_metadata, self->dev);
	strict_dma_counted_only(_metadata, self->dev);

	ASSERT_EQ(0, ncsync_stats(self->dev, &s1));
	EXPECT_EQ(s0.event_set_while_set + 3, s1.event_set_while_set);
	EXPECT_EQ(s0.event_clear_while_clear + 1,
		  s1.event_clear_while_clear);
	EXPECT_EQ(s0.sem_overflows + 1, s1.sem_overflows);
}

/* ---------------------------------------------------------------------- */
/* Signals                                                                 */

static void on_signal(int sig)
{
}

static void set_handler(struct __test_metadata *_metadata, bool restart)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sa.sa_flags = restart ? SA_RESTART : 0;
	sigemptyset(&sa.sa_mask);
	ASSERT_EQ(0, sigaction(SIGUSR1, &sa, NULL));
}

/*
 * A signal handled without SA_RESTART ends the library's waits with
 * -EINTR (ncsync_wait_*() and ncsync_program_wait() pass it on); with
 * SA_RESTART they restart and still end at their absolute deadline.
 */
TEST_F(core, waits_and_signals)
{
	struct waiter w = {
		.dev = self->dev, .idx = 88, .mode = NCSYNC_WAIT_SEM_GE,
		.threshold = 1, .ms = LONG_MS, .ret = 1,
	};
	struct ncsync_program *prog = prog_new(_metadata);
	struct prog_waiter pw = { .dev = self->dev, .ret = 1 };
	int64_t end = now_ns() + LONG_MS * NSEC_PER_MSEC, t0;
	pthread_t t;

	set_handler(_metadata, false);
	ASSERT_EQ(0, pthread_create(&t, NULL, waiter_fn, &w));
	while (!waiter_done(&w) && now_ns() < end) {
		sleep_ms(20);
		pthread_kill(t, SIGUSR1);
	}
	ASSERT_EQ(0, pthread_join(t, NULL));
	EXPECT_EQ(-EINTR, w.ret);

	ADD(ncsync_add_semaphore_wait_ge(stream(_metadata, prog,
						NCSYNC_ENGINE_PE), 88, 1));
	pw.id = submit(_metadata, self->dev, prog, 0, WD_LONG);
	ASSERT_EQ(0, pthread_create(&t, NULL, prog_waiter_fn, &pw));
	while (!__atomic_load_n(&pw.done, __ATOMIC_ACQUIRE) &&
	       now_ns() < end) {
		sleep_ms(20);
		pthread_kill(t, SIGUSR1);
	}
	ASSERT_EQ(0, pthread_join(t, NULL));
	EXPECT_EQ(-EINTR, pw.ret);

	/* SA_RESTART: the signals do not end the wait, the deadline does. */
	set_handler(_metadata, true);
	w.ms = 300;
	w.done = 0;
	w.ret = 1;
	t0 = now_ns();
	ASSERT_EQ(0, pthread_create(&t, NULL, waiter_fn, &w));
	while (!waiter_done(&w) && now_ns() < end) {
		sleep_ms(20);
		pthread_kill(t, SIGUSR1);
	}
	ASSERT_EQ(0, pthread_join(t, NULL));
	EXPECT_EQ(-ETIMEDOUT, w.ret);
	EXPECT_LE(300 * NSEC_PER_MSEC, now_ns() - t0);

	/* Other calls are retried, whatever the handler: the program ends. */
	set_handler(_metadata, false);
	ASSERT_EQ(0, ncsync_sem_set(self->dev, 88, 1, NULL));
	EXPECT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->dev, pw.id));
	signal(SIGUSR1, SIG_DFL);
	ncsync_program_free(prog);
}

/* ---------------------------------------------------------------------- */
/* Several cores                                                           */

/*
 * Core 1 has banks, a counter and event bits of its own: the same barrier
 * programs run on both cores at once, and neither sees the other.
 */
TEST_F_TIMEOUT(core, second_core_is_independent, BARRIER_TIMEOUT)
{
	const unsigned int iters = 300;
	struct ncsync_program *prog[2];
	struct barrier_loop bl[2];
	struct ncsync_dev *dev[2];
	uint32_t id[4];
	unsigned int i;

	if (self->info->num_cores < 2)
		SKIP(return, "only one core (module parameter cores)");
	dev[0] = self->dev;
	ASSERT_EQ(0, ncsync_open(1, true, &dev[1]));
	ASSERT_EQ(1U, ncsync_get_info(dev[1])->core);
	ASSERT_EQ(0, ncsync_reset(dev[1]));

	ASSERT_EQ(0, ncsync_sem_set(dev[0], 5, 1, NULL));
	ASSERT_EQ(0, ncsync_event_set(dev[1], 5));
	EXPECT_EQ(0, ncsync_sem_read(dev[1], 5));
	EXPECT_FALSE(ncsync_event_read(dev[0], 5));
	ASSERT_EQ(0, ncsync_sem_set(dev[0], 5, 0, NULL));
	ASSERT_EQ(0, ncsync_event_clear(dev[1], 5));

	/* A counter-form program, then an event-form one, on each core. */
	for (i = 0; i < 2; i++) {
		prog[i] = prog_new(_metadata);
		build_barrier_loop(_metadata, prog[i], self->info,
				   i ? BK_EVENTS : BK_COUNTER, ALL_ENGINES,
				   iters, 8 * i, false, &bl[i]);
	}
	for (i = 0; i < 4; i++)
		id[i] = submit(_metadata, dev[i % 2], prog[i / 2], 0, WD_LONG);
	for (i = 0; i < 4; i++)
		check_barrier_loop(_metadata, dev[i % 2], id[i], &bl[i / 2],
				   iters);
	for (i = 0; i < 2; i++) {
		EXPECT_EQ(5 * (int32_t)iters,
			  ncsync_sem_read(dev[i], barrier_counter(self->info)));
		check_event_bits_clear(_metadata, dev[i], self->info);
	}
	for (i = 0; i < 2; i++)
		ncsync_program_free(prog[i]);
	ncsync_close(dev[1]);
}

/* ---------------------------------------------------------------------- */
/* The allocator                                                           */

/*
 * Ids from the allocators, reserved slices from ncsync_get_info(), in a
 * program with a sync barrier: the user's semaphores (first fit, reused
 * after a free, up to the last id below the reserved slice) and the
 * barrier's counter (in the slice) do not collide.  The snapshot lists
 * exactly the semaphores the program touched.
 */
/*
 * Build the allocator test's streams.  Pool: sem[c] += 3, ev set, barrier,
 * wait sem[top] == 1, sem[c]++.  Act: barrier, wait ev set-then-clear,
 * sem[top]++, ev+1 set.  PE: sem[b + 1] = -9, barrier, wait ev+1 set,
 * sem[big]++.  top is the last id below the reserved slice (@user - 1).
 */
static void build_alloc_program(struct __test_metadata *_metadata,
				struct ncsync_program *prog, unsigned int user,
				int c, int b, int big, int ev)
{
	struct ncsync_stream *pool, *act, *pe;

	pool = stream(_metadata, prog, NCSYNC_ENGINE_POOL);
	act = stream(_metadata, prog, NCSYNC_ENGINE_ACT);
	pe = stream(_metadata, prog, NCSYNC_ENGINE_PE);
	ADD(ncsync_add_semaphore_add(pool, c, 3));
	ADD(ncsync_add_event_set(pool, ev));
	ADD(ncsync_add_semaphore_set(pe, b + 1, (uint32_t)-9));
	ASSERT_EQ(0, ncsync_add_sync_barrier(prog));
	ADD(ncsync_add_semaphore_wait_eq(pool, user - 1, 1));
	ADD(ncsync_add_semaphore_inc(pool, c));
	ADD(ncsync_add_event_wait(act, ev, NCSYNC_WAIT_EVT_SET_THEN_CLEAR));
	ADD(ncsync_add_semaphore_inc(act, user - 1));
	ADD(ncsync_add_event_set(act, ev + 1));
	ADD(ncsync_add_event_wait(pe, ev + 1, NCSYNC_WAIT_EVT_SET));
	ADD(ncsync_add_semaphore_inc(pe, big));
}

/* Check the allocator test's semaphores in the program's end snapshot. */
static void check_alloc_snapshot(struct __test_metadata *_metadata,
				 const struct ncsync_info *info,
				 const struct ncsync_sem_value *sems,
				 uint32_t nsems, unsigned int user,
				 int c, int b, int big)
{
	bool found;

	EXPECT_EQ(6U, nsems);
	EXPECT_EQ(4, snap_sem(sems, nsems, c, &found));
	EXPECT_TRUE(found);
	EXPECT_EQ(-9, snap_sem(sems, nsems, b + 1, &found));
	EXPECT_TRUE(found);
	EXPECT_EQ(1, snap_sem(sems, nsems, big, &found));
	EXPECT_TRUE(found);
	EXPECT_EQ(1, snap_sem(sems, nsems, user - 1, &found));
	EXPECT_TRUE(found);
	EXPECT_EQ(3, snap_sem(sems, nsems, barrier_counter(info), &found));
	EXPECT_TRUE(found);
	/* the other counter, re-armed at the first pass: 3 * 2^27 */
	EXPECT_EQ(3 << 27, snap_sem(sems, nsems, barrier_counter(info) + 1,
				    &found));
	EXPECT_TRUE(found);
}

TEST_F(core, allocator_ids_in_a_program)
{
	const struct ncsync_info *info = self->info;
	struct ncsync_program *prog = prog_new(_metadata);
	struct ncsync_sem_value sems[NCSYNC_NUM_SEMS];
	struct ncsync_prog_status st;
	unsigned int user = info->rt_reserved_sem_first;
	int a, b, c, big, last, ev, ev2;
	uint32_t id;

	ASSERT_LE(8U, user);
	ASSERT_EQ(0, ncsync_program_set_reserved(prog,
						 info->rt_reserved_sem_first,
						 info->rt_reserved_sem_count,
						 info->rt_reserved_event_first,
						 info->rt_reserved_event_count));
	a = ncsync_sem_alloc(prog, 4);
	EXPECT_EQ(0, a);
	b = ncsync_sem_alloc(prog, 2);
	EXPECT_EQ(4, b);
	ASSERT_EQ(0, ncsync_sem_free(prog, a, 4));
	c = ncsync_sem_alloc(prog, 3);
	EXPECT_EQ(0, c);			/* first fit: reused */
	big = ncsync_sem_alloc(prog, user - 6);	/* up to the slice */
	EXPECT_EQ(6, big);
	EXPECT_EQ(-ENOSPC, ncsync_sem_alloc(prog, 2));
	last = ncsync_sem_alloc(prog, 1);
	EXPECT_EQ(3, last);			/* the one hole left */
	EXPECT_EQ(-ENOSPC, ncsync_sem_alloc(prog, 1));
	EXPECT_EQ(-EINVAL, ncsync_sem_free(prog, big, user - 7));
	ASSERT_EQ(0, ncsync_sem_free(prog, big, user - 6));
	big = ncsync_sem_alloc(prog, user - 6);
	EXPECT_EQ(6, big);
	ev = ncsync_event_alloc(prog, 2);
	EXPECT_EQ(0, ev);
	ev2 = ncsync_event_alloc(prog, 1);
	EXPECT_EQ(2, ev2);
	ADD(c);
	ADD(b);
	ADD(big);
	ADD(ev);

	build_alloc_program(_metadata, prog, user, c, b, big, ev);

	id = submit(_metadata, self->dev, prog, NCSYNC_SUBMIT_F_STRICT,
		    WD_LONG);
	ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->dev, id));
	status_get(_metadata, self->dev, id, &st, sems);
	check_alloc_snapshot(_metadata, info, sems, st.nsems, user, c, b, big);
	EXPECT_FALSE(ncsync_event_read(self->dev, ev));
	EXPECT_TRUE(ncsync_event_read(self->dev, ev + 1));
	ncsync_program_free(prog);
}

TEST_HARNESS_MAIN
