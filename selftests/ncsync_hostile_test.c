// SPDX-License-Identifier: GPL-2.0
/*
 * ncsync selftests: what a hostile local user can do to the module, and
 * the bounds that stop it.
 *
 *  - a DMA flood: at most dma_depth copies in flight per queue, a full
 *    queue blocks its engine (NCSYNC_BLOCK_DMA_FULL), and the kernel's
 *    memory does not grow while the flood runs;
 *  - fair DMA: one program's copies, due or not, never hold back another
 *    program's due copy for more than one landing;
 *  - the per-user cap user_mem_mb on the kernel memory of programs, next
 *    to the per-descriptor fd_mem_mb (run with small caps by
 *    ncsync_hostile_test.sh, skipped at the defaults);
 *  - wake-ups: a change wakes only the waiters of what changed whose
 *    condition it made true (a barrier's earlier arrivals wake nobody),
 *    and a descriptor's pollers once until it acknowledges
 *    (ncsync_stats.wakeups);
 *  - the watchdog's kernel log reports are rate-limited, and each report
 *    left out is counted (ncsync_stats.log_suppressed);
 *  - large overlapping copies land exactly as memmove().
 *
 * The module load that must fail cleanly (4 GiB of device memory) is in
 * ncsync_hostile_test.sh.
 *
 * Records are encoded here, byte by byte, from
 * Documentation/ncsync/records.rst: this test is an oracle independent of
 * the library.  No test asserts how long anything takes; deadlines only
 * keep a broken module from hanging the test.
 *
 * The 6.1 harness runs every test; main() below adds -l (list),
 * -r FIXTURE.TEST, -f FIXTURE and -t TEST (each repeatable).
 *
 * Run inside the test VM:  tools/vm-run build/selftests/ncsync_hostile_test
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/ncsync.h>

#include "kselftest_harness.h"
#include "ncsync_selftest.h"
#include "ncsync_rec.h"

#define DEV0		"/dev/ncsync0"
#define REC		NCSYNC_RECORD_SIZE

#define SEM_RD(i)	(NCSYNC_CSR_SEM_READ + 4 * (i))
#define SEM_INC(i)	(NCSYNC_CSR_SEM_INC + 4 * (i))

#define LONG_MS		20000	/* deadline of a wait that must end */
#define WD_LONG		60000	/* watchdog of a program that must not time out */
#define WD_MAX		3600000	/* the largest watchdog */
#define LAT_MAX_US	1000000	/* the largest DMA latency */

#define FLOOD_MS	3000	/* how long a flood is watched */
#define KMEM_SLACK_KB	4096	/* the kernel may grow less than this */
#define KMEM_GUARD_KB	(256 * 1024)	/* stop a flood that grew this much */

#define NOBODY		65534	/* the other user */
#define NWAITERS	1000	/* threads in NCSYNC_IOC_WAIT */
#define WAKEUPS_TIMEOUT_S 300	/* the wake-up test's own timeout */
#define NEPOLL		2000	/* epoll instances on one descriptor */
#define NWATCHDOG	100	/* programs that time out in a row */
#define LOG_BURST	10	/* watchdog reports per LOG_INTERVAL_S */
#define LOG_INTERVAL_S	5
#define BIG_RECORDS	16384	/* records of a program of the memory tests */
#define MAX_FILL	300	/* more than NCSYNC_MAX_PROGS_PER_FD */

static const __u8 datapath[NCSYNC_NUM_ENGINES] = {
	NCSYNC_ENGINE_POOL, NCSYNC_ENGINE_ACT, NCSYNC_ENGINE_PE,
	NCSYNC_ENGINE_DVE, NCSYNC_ENGINE_SP,
};

static const __u8 engine_sp = NCSYNC_ENGINE_SP;

/* ---------------------------------------------------------------------- */
/* Records (records.rst), little-endian                                    */

struct rec {
	__u8 b[REC];
};

/* EventSemaphore 0xA0 with a lane-0 wait for @sem == @threshold. */
static void wait_eq_record(__u8 *r, __u8 sem, __u32 threshold)
{
	enc_header(r, NCSYNC_OPC_EVENT_SEMAPHORE);
	rec_lane0(r, NCSYNC_WAIT_SEM_EQ, sem, NCSYNC_UPD_NONE, 0, threshold);
}

/* {DMA 64 bytes, latency 0, no update; Branch always -> 0}. */
static void recs_flood(struct rec *r)
{
	enc_dma(r[0].b, 0, 0x1000, 64, 0, NCSYNC_UPD_NONE, 0);
	enc_jump(r[1].b, 0);
}

/* {DMA 64 bytes, latency 0; Drain; Exit}. */
static void recs_one_copy(struct rec *r)
{
	enc_dma(r[0].b, 0x2000, 0x3000, 64, 0, NCSYNC_UPD_NONE, 0);
	enc_drain(r[1].b);
	enc_exit(r[2].b);
}

/* @n records: a wait on @sem == 1 that never passes, NoOps, then Exit. */
static void recs_blocker(struct rec *r, __u32 n, __u8 sem)
{
	__u32 i;

	wait_eq_record(r[0].b, sem, 1);
	for (i = 1; i + 1 < n; i++)
		enc_header(r[i].b, NCSYNC_OPC_NOOP);
	enc_exit(r[n - 1].b);
}

/*
 * @depth + 1 DMA records of latency 1 s, completion @upd_mode on @sem,
 * then Exit: the last DMA record finds its queue full.
 */
static struct rec *recs_fill_dma(long depth, __u8 upd_mode, __u8 sem)
{
	struct rec *r = calloc(depth + 2, sizeof(*r));
	long i;

	if (!r)
		return NULL;
	for (i = 0; i <= depth; i++)
		enc_dma(r[i].b, 0x4000, 0x5000, 64, LAT_MAX_US, upd_mode, sem);
	enc_exit(r[depth + 1].b);
	return r;
}

/* ---------------------------------------------------------------------- */
/* ioctls                                                                  */

/* One program: the same @count records on each of the @n @engines. */
static int submit(int fd, const __u8 *engines, unsigned int n,
		  const struct rec *recs, __u32 count, __u32 wd, __u32 *id)
{
	struct ncsync_queue uq[NCSYNC_NUM_ENGINES];
	struct ncsync_submit sub;
	unsigned int i;

	memset(uq, 0, sizeof(uq));
	for (i = 0; i < n; i++) {
		uq[i].records = (uintptr_t)recs;
		uq[i].count = count;
		uq[i].engine = engines[i];
	}
	memset(&sub, 0, sizeof(sub));
	sub.queues = (uintptr_t)uq;
	sub.nqueues = n;
	sub.watchdog_ms = wd;
	if (ioctl(fd, NCSYNC_IOC_SUBMIT, &sub))
		return -errno;
	*id = sub.id;
	return 0;
}

static int status_get(int fd, __u32 id, struct ncsync_prog_status *ps)
{
	memset(ps, 0, sizeof(*ps));
	ps->id = id;
	return ioctl(fd, NCSYNC_IOC_PROG_STATUS, ps) ? -errno : 0;
}

static int prog_cancel(int fd, __u32 id)
{
	struct ncsync_prog_cancel pc = { .id = id };

	return ioctl(fd, NCSYNC_IOC_PROG_CANCEL, &pc) ? -errno : 0;
}

static int core_reset(int fd)
{
	struct ncsync_reset r = { 0 };

	return ioctl(fd, NCSYNC_IOC_RESET, &r) ? -errno : 0;
}

static int sem_op(int fd, __u8 op, __u32 index, __u32 value)
{
	struct ncsync_op o = {
		.bank = NCSYNC_BANK_SEM, .op = op, .index = index,
		.value = value,
	};

	return ioctl(fd, NCSYNC_IOC_OP, &o) ? -errno : 0;
}

static __u64 wakeups(struct __test_metadata *_metadata, int fd)
{
	struct ncsync_stats st;

	ASSERT_EQ(0, ioctl(fd, NCSYNC_IOC_STATS, &st))
		TH_LOG("STATS: %s", strerror(errno));
	return st.wakeups;
}

static int ack(int fd)
{
	struct ncsync_seq s;

	return ioctl(fd, NCSYNC_IOC_ACK, &s) ? -errno : 0;
}

/* Submit through @fd; the program's id. */
static __u32 submit_ok(struct __test_metadata *_metadata, int fd,
		       const __u8 *engines, unsigned int n,
		       const struct rec *recs, __u32 count, __u32 wd)
{
	__u32 id = 0;
	int ret = submit(fd, engines, n, recs, count, wd, &id);

	ASSERT_EQ(0, ret) TH_LOG("SUBMIT: %s", strerror(-ret));
	return id;
}

/* Wait for a program to end; its final state. */
static int wait_end(struct __test_metadata *_metadata, int fd, __u32 id)
{
	__u32 state = ~0U;
	int ret = prog_wait(fd, id, LONG_MS, &state);

	ASSERT_EQ(0, ret) TH_LOG("PROG_WAIT %u: %s", id, strerror(-ret));
	return (int)state;
}

/* Poll until every engine of a running program is blocked on @kind. */
static void wait_all_blocked(struct __test_metadata *_metadata, int fd,
			     __u32 id, __u8 kind,
			     struct ncsync_prog_status *ps)
{
	__s64 end = now_ns() + LONG_MS * NSEC_PER_MSEC;
	unsigned int i, n;

	for (;;) {
		ASSERT_EQ(0, status_get(fd, id, ps));
		for (i = n = 0; i < ps->nengines; i++)
			n += ps->engines[i].state == NCSYNC_ENG_BLOCKED &&
			     ps->engines[i].wait_kind == kind;
		if (n == ps->nengines)
			return;
		ASSERT_GT(NCSYNC_PROG_DONE, (int)ps->state)
			TH_LOG("program %u ended (%u; engine 0: %u, pc %u) before wait kind %u",
			       id, ps->state, ps->engines[0].state,
			       ps->engines[0].pc, kind);
		ASSERT_GT(end, now_ns())
			TH_LOG("program %u: %u of %u engines in wait kind %u (engine 0: %u, %u)",
			       id, n, ps->nengines, kind,
			       ps->engines[0].state, ps->engines[0].wait_kind);
		usleep(1000);
	}
}

/* ---------------------------------------------------------------------- */
/* The system                                                              */

/* A parameter the new module always has: fail when it is missing. */
static long need_param(struct __test_metadata *_metadata, const char *name)
{
	long v = ncsync_param(name);

	ASSERT_LE(0, v)
		TH_LOG("the module has no parameter %s (%s%s): no such bound",
		       name, NCSYNC_PARAMS, name);
	return v;
}

/* Slab + VmallocUsed of /proc/meminfo in KiB: the kernel's own memory. */
static long kmem_kb(void)
{
	FILE *f = fopen("/proc/meminfo", "re");
	char line[128];
	long kb, sum = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Slab: %ld kB", &kb) == 1 ||
		    sscanf(line, "VmallocUsed: %ld kB", &kb) == 1)
			sum += kb;
	fclose(f);
	return sum;
}

/* How many threads of this process sleep in system call @nr. */
static int threads_in_syscall(long nr)
{
	DIR *d = opendir("/proc/self/task");
	struct dirent *de;
	char path[300], buf[32];
	int n = 0;

	if (!d)
		return -1;
	while ((de = readdir(d))) {
		ssize_t len;
		int fd;

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/self/task/%s/syscall",
			 de->d_name);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		len = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		if (len > 0 && buf[0] >= '0' && buf[0] <= '9') {
			buf[len] = 0;
			n += strtol(buf, NULL, 10) == nr;
		}
	}
	closedir(d);
	return n;
}

/* ---------------------------------------------------------------------- */
/* The fixture: core 0, reset before and after                             */

FIXTURE(hostile) {
	int fd;		/* descriptor A */
	int fdb;	/* descriptor B, when a test opens it */
};

FIXTURE_SETUP(hostile)
{
	self->fdb = -1;
	self->fd = open(DEV0, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, self->fd) TH_LOG("open %s: %s", DEV0, strerror(errno));
	ASSERT_EQ(0, core_reset(self->fd));
}

/* The reset stops whatever a failed test left running. */
FIXTURE_TEARDOWN(hostile)
{
	if (self->fd >= 0) {
		core_reset(self->fd);
		close(self->fd);
	}
	if (self->fdb >= 0)
		close(self->fdb);
}

/* Open descriptor B into @fdb, which the teardown closes. */
static int open_b(struct __test_metadata *_metadata, int *fdb)
{
	*fdb = open(DEV0, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, *fdb) TH_LOG("open %s: %s", DEV0, strerror(errno));
	return *fdb;
}

/* ---------------------------------------------------------------------- */
/* 1. Bounded DMA in flight                                                */

/* What watching a flood saw. */
struct flood {
	__u32 id;		/* the flooding program, on descriptor A */
	long guard_kb;		/* stop watching once the kernel grew this much */
	long kmem0_kb;		/* the kernel's memory when the flood began */
	long grow_kb;		/* the largest growth seen */
	__u32 out_max;		/* the largest dma_outstanding seen */
	int left_state;		/* a state other than RUNNING seen, or -1 */
	int err;		/* a failed PROG_STATUS, or 0 */
	unsigned int samples;
	bool tripped;		/* stopped at guard_kb */
};

static void flood_sample(int fd, struct flood *f)
{
	struct ncsync_prog_status ps;
	unsigned int i;
	long kb;

	f->err = f->err ?: status_get(fd, f->id, &ps);
	if (!f->err) {
		if (ps.state != NCSYNC_PROG_RUNNING && f->left_state < 0)
			f->left_state = ps.state;
		for (i = 0; i < ps.nengines; i++)
			if (ps.engines[i].dma_outstanding > f->out_max)
				f->out_max = ps.engines[i].dma_outstanding;
	}
	kb = kmem_kb() - f->kmem0_kb;
	if (kb > f->grow_kb)
		f->grow_kb = kb;
	f->tripped |= kb >= f->guard_kb;
	f->samples++;
}

/*
 * Sample a flood for @ms, or until program @bid of descriptor @bfd ends
 * (when @bfd >= 0), or until the kernel grew by f->guard_kb: then the
 * flood is eating the guest, and it is cancelled at once.
 */
static void flood_watch(int fd, struct flood *f, int ms, int bfd, __u32 bid)
{
	__s64 end = now_ns() + (__s64)ms * NSEC_PER_MSEC;
	struct ncsync_prog_status ps;

	while (now_ns() < end && !f->tripped) {
		flood_sample(fd, f);
		if (bfd >= 0 && !status_get(bfd, bid, &ps) &&
		    ps.state >= NCSYNC_PROG_DONE)
			break;
		usleep(2000);
	}
	if (f->tripped)
		prog_cancel(fd, f->id);
}

/* Start the flood on @n engines of descriptor A. */
static void flood_start(struct __test_metadata *_metadata, int fd,
			struct flood *f, const __u8 *engines, unsigned int n,
			long guard_kb)
{
	struct ncsync_prog_status ps;
	struct rec r[2];
	int i;

	memset(f, 0, sizeof(*f));
	f->left_state = -1;
	f->guard_kb = guard_kb;
	recs_flood(r);
	/* A short watchdog: the copies that land are its progress. */
	f->id = submit_ok(_metadata, fd, engines, n, r, 2, 1000);
	for (i = 0; i < 1000; i++) {
		ASSERT_EQ(0, status_get(fd, f->id, &ps));
		if (ps.state != NCSYNC_PROG_QUEUED)
			break;
		usleep(1000);
	}
	ASSERT_EQ(NCSYNC_PROG_RUNNING, (int)ps.state);
	f->kmem0_kb = kmem_kb();
}

/* Cancel the flood (if the watch has not); it must end CANCELLED. */
static void flood_stop(struct __test_metadata *_metadata, int fd,
		       const struct flood *f)
{
	ASSERT_EQ(0, prog_cancel(fd, f->id));
	EXPECT_EQ(NCSYNC_PROG_CANCELLED, wait_end(_metadata, fd, f->id));
}

/*
 * Every datapath engine loops {DMA; Branch always -> 0} for a few seconds:
 * no queue ever has more than dma_depth copies in flight, the kernel does
 * not grow, the program never times out (landed copies are progress), and
 * it cancels.  Without the bound the copies pile up until the guest runs
 * out of memory; the watch stops at a growth of KMEM_SLACK_KB to spare it.
 */
TEST_F_TIMEOUT(hostile, dma_flood_bounded, 60)
{
	long depth = ncsync_param("dma_depth");
	struct flood f;

	EXPECT_LE(1, depth)
		TH_LOG("the module has no parameter dma_depth (checking with 64)");
	if (depth < 1)
		depth = 64;
	flood_start(_metadata, self->fd, &f, datapath, NCSYNC_NUM_ENGINES,
		    KMEM_SLACK_KB);
	flood_watch(self->fd, &f, FLOOD_MS, -1, 0);
	flood_stop(_metadata, self->fd, &f);

	EXPECT_EQ(0, f.err) TH_LOG("PROG_STATUS: %s", strerror(-f.err));
	EXPECT_GE(depth, (long)f.out_max)
		TH_LOG("a queue had %u copies in flight; dma_depth is %ld",
		       f.out_max, depth);
	EXPECT_GT(KMEM_SLACK_KB, f.grow_kb)
		TH_LOG("Slab + VmallocUsed grew by %ld KiB in %u samples of the flood%s",
		       f.grow_kb, f.samples,
		       f.tripped ? " (stopped there)" : "");
	EXPECT_EQ(-1, f.left_state)
		TH_LOG("the flood left RUNNING (state %d) while it ran",
		       f.left_state);
}

/*
 * dma_depth + 1 copies of latency 1 s: the last DMA record finds its
 * queue full and the engine blocks on NCSYNC_BLOCK_DMA_FULL, with the
 * copies in flight and dma_depth as current value and threshold; once a
 * copy lands it goes on and the program ends DONE.
 */
TEST_F(hostile, dma_full_blocks_engine)
{
	long depth = need_param(_metadata, "dma_depth");
	struct ncsync_prog_status ps;
	struct ncsync_engine_status *e = &ps.engines[0];
	struct rec *r = recs_fill_dma(depth, NCSYNC_UPD_NONE, 0);
	__u32 id;

	ASSERT_NE(NULL, r);
	id = submit_ok(_metadata, self->fd, &engine_sp, 1, r, depth + 2,
		       WD_LONG);
	free(r);
	wait_all_blocked(_metadata, self->fd, id, NCSYNC_BLOCK_DMA_FULL, &ps);
	EXPECT_EQ(NCSYNC_ENG_BLOCKED, e->state);
	EXPECT_EQ(NCSYNC_BLOCK_DMA_FULL, e->wait_kind);
	EXPECT_EQ(depth, (long)e->pc);
	EXPECT_EQ(depth, (long)e->wait_current);
	EXPECT_EQ(depth, (long)e->wait_threshold);
	EXPECT_EQ(depth, (long)e->dma_outstanding);
	EXPECT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->fd, id));
}

/* ---------------------------------------------------------------------- */
/* 2. Fair DMA                                                             */

/*
 * Descriptor A floods from Pool, Activation, PE and DVE; descriptor B's
 * program on SP issues one copy and drains, with a 2 s watchdog.  Its copy
 * waits at most one landing of A's, so it ends DONE; in one FIFO behind
 * A's backlog it would wait until its watchdog fired.
 */
TEST_F_TIMEOUT(hostile, dma_fair_flood_does_not_starve_other, 60)
{
	struct rec r[3];
	struct flood f;
	__u32 bid;
	int state;
	int fdb = open_b(_metadata, &self->fdb);

	flood_start(_metadata, self->fd, &f, datapath, 4, KMEM_GUARD_KB);
	flood_watch(self->fd, &f, 1000, -1, 0);
	recs_one_copy(r);
	bid = submit_ok(_metadata, fdb, &engine_sp, 1, r, 3, 2000);
	flood_watch(self->fd, &f, LONG_MS, fdb, bid);
	state = wait_end(_metadata, fdb, bid);
	flood_stop(_metadata, self->fd, &f);

	ASSERT_FALSE(f.tripped)
		TH_LOG("the kernel grew by %ld KiB under the flood: stopped before B ended",
		       f.grow_kb);
	EXPECT_EQ(NCSYNC_PROG_DONE, state)
		TH_LOG("B ended in state %d (5: TIMED_OUT): its copy waited behind A's flood",
		       state);
}

/*
 * A's four queues fill up with copies due in 1 s (each +1 on sem[10] when
 * it lands) and block on NCSYNC_BLOCK_DMA_FULL.  B's copy of latency 0 is
 * due at once and must not wait behind copies that are not due: B ends
 * DONE while sem[10] is still 0.
 */
TEST_F(hostile, dma_fair_not_due_does_not_delay_other)
{
	long depth = need_param(_metadata, "dma_depth");
	struct rec *r = recs_fill_dma(depth, NCSYNC_UPD_COMPLETE |
				      NCSYNC_UPD_SEM_INC, 10);
	struct ncsync_prog_status ps;
	int fdb = open_b(_metadata, &self->fdb);
	struct rec rb[3];
	__u32 id, bid;
	__s32 sem10 = -1;

	ASSERT_NE(NULL, r);
	id = submit_ok(_metadata, self->fd, datapath, 4, r, depth + 2,
		       WD_LONG);
	free(r);
	wait_all_blocked(_metadata, self->fd, id, NCSYNC_BLOCK_DMA_FULL, &ps);

	recs_one_copy(rb);
	bid = submit_ok(_metadata, fdb, &engine_sp, 1, rb, 3, 2000);
	EXPECT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, fdb, bid));
	ASSERT_EQ(4, pread(fdb, &sem10, 4, SEM_RD(10)));
	EXPECT_EQ(0, sem10)
		TH_LOG("%d copies of A landed before B ended: B's copy waited for them",
		       sem10);
	/* A may have ended by now: its copies land 1 s after issue. */
	ASSERT_EQ(0, prog_cancel(self->fd, id));
	wait_end(_metadata, self->fd, id);
}

/* ---------------------------------------------------------------------- */
/* 3. The per-user memory cap                                              */

/*
 * Submit programs of @n records that stay (the first blocks on a wait,
 * the others queue behind it on SP) until a submission fails: how many
 * succeeded, the error in @err, the last id in @last.
 */
static int fill(int fd, const struct rec *r, __u32 n, int *err, __u32 *last)
{
	int count = 0;
	__u32 id = 0;

	for (*err = 0; count < MAX_FILL; count++) {
		*err = submit(fd, &engine_sp, 1, r, n, WD_MAX, &id);
		if (*err)
			break;
		*last = id;
	}
	return count;
}

/* As uid and gid NOBODY, open @node and submit a program that stays. */
static void nobody_submit(const char *node)
{
	struct rec r[2];
	__u32 id;
	int fd, ret;

	if (setgroups(0, NULL) || setresgid(NOBODY, NOBODY, NOBODY) ||
	    setresuid(NOBODY, NOBODY, NOBODY)) {
		fprintf(stderr, "#  uid %d: setresuid: %s\n", NOBODY,
			strerror(errno));
		_exit(1);
	}
	fd = open(node, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "#  uid %d: open %s: %s\n", NOBODY, node,
			strerror(errno));
		_exit(1);
	}
	recs_blocker(r, 2, 200);
	ret = submit(fd, &engine_sp, 1, r, 2, WD_MAX, &id);
	if (ret) {
		fprintf(stderr, "#  uid %d: SUBMIT: %s\n", NOBODY,
			strerror(-ret));
		_exit(1);
	}
	_exit(0);
}

/* Another user, at the cap of this one, can still submit. */
static void other_user_submits(struct __test_metadata *_metadata)
{
	char dir[64], node[96];
	int status = -1;
	pid_t pid;

	ncsync_private_node(_metadata, 0, dir, node);
	fflush(stderr);
	pid = fork();
	if (!pid)
		nobody_submit(node);
	if (pid > 0)	/* the node stays until the child is done with it */
		waitpid(pid, &status, 0);
	unlink(node);
	rmdir(dir);
	ASSERT_LT(0, pid) TH_LOG("fork: %s", strerror(errno));
	EXPECT_TRUE(WIFEXITED(status) && !WEXITSTATUS(status))
		TH_LOG("a descriptor of uid %d could not submit (0x%x)",
		       NOBODY, status);
}

/*
 * Fill descriptor 1 to fd_mem_mb, then descriptor 2 of the same user to
 * user_mem_mb: fd2 gets ENOMEM holding clearly less than fd1.  Another
 * user can still submit; closing fd1 gives its memory back to fd2, whose
 * ENOMEM consumed no id; once all is closed a fresh descriptor fills as
 * fd1 did.  @fd1 and @fd2 are left for the caller to close.
 */
static void user_cap_check(struct __test_metadata *_metadata,
			   const struct rec *r, long user_mb, long fd_mb,
			   int *fd1, int *fd2)
{
	int n1, n2, n3, err;
	__u32 last1 = 0, last2 = 0, id = 0;

	*fd1 = open(DEV0, O_RDWR | O_CLOEXEC);
	*fd2 = open(DEV0, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, *fd1);
	ASSERT_LE(0, *fd2);
	n1 = fill(*fd1, r, BIG_RECORDS, &err, &last1);
	ASSERT_EQ(-ENOMEM, err) TH_LOG("fd1 after %d programs: %s", n1,
				       strerror(-err));
	ASSERT_LE(2, n1);
	n2 = fill(*fd2, r, BIG_RECORDS, &err, &last2);
	ASSERT_EQ(-ENOMEM, err) TH_LOG("fd2 after %d programs: %s", n2,
				       strerror(-err));
	EXPECT_GT(n1, n2)
		TH_LOG("fd2 took %d programs, fd1 %d: no cap for the user",
		       n2, n1);
	EXPECT_GE(n1 * (user_mb - fd_mb) + user_mb, n2 * fd_mb)
		TH_LOG("fd2 took %d programs, fd1 %d: more than %ld MiB for the user",
		       n2, n1, user_mb);
	other_user_submits(_metadata);

	/* fd1's memory comes back; ENOMEM consumed no id of fd2 */
	close(*fd1);
	*fd1 = -1;
	ASSERT_EQ(0, submit(*fd2, &engine_sp, 1, r, BIG_RECORDS, WD_MAX, &id))
		TH_LOG("fd2 cannot submit after fd1 closed");
	EXPECT_EQ(last2 + 1, id);
	close(*fd2);
	*fd2 = -1;

	/* nothing leaked: a fresh descriptor fills as fd1 did */
	*fd1 = open(DEV0, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, *fd1);
	n3 = fill(*fd1, r, BIG_RECORDS, &err, &last1);
	EXPECT_EQ(-ENOMEM, err);
	EXPECT_EQ(n1, n3)
		TH_LOG("after closing everything a descriptor took %d programs, at first %d",
		       n3, n1);
}

/*
 * user_mem_mb caps every descriptor of one user together, fd_mem_mb each
 * one.  At the defaults (256 MiB each) filling them is too slow for TCG:
 * ncsync_hostile_test.sh runs this with user_mem_mb=32 fd_mem_mb=24.
 */
TEST_F_TIMEOUT(hostile, user_mem_cap, 180)
{
	long user_mb = need_param(_metadata, "user_mem_mb");
	long fd_mb = need_param(_metadata, "fd_mem_mb");
	int fd1 = -1, fd2 = -1;
	struct rec *r;

	if (user_mb > 64 || fd_mb >= user_mb || 2 * fd_mb <= user_mb)
		SKIP(return,
		     "user_mem_mb %ld, fd_mem_mb %ld: needs user_mem_mb/2 < fd_mem_mb < user_mem_mb <= 64 (ncsync_hostile_test.sh runs it with 32 and 24)",
		     user_mb, fd_mb);
	r = calloc(BIG_RECORDS, sizeof(*r));
	ASSERT_NE(NULL, r);
	recs_blocker(r, BIG_RECORDS, 200);
	user_cap_check(_metadata, r, user_mb, fd_mb, &fd1, &fd2);
	free(r);
	if (fd1 >= 0)
		close(fd1);
	if (fd2 >= 0)
		close(fd2);
}

/*
 * What the allocators hold is charged, not what was asked for (issue 32): a
 * queue of HELD_RECORDS records asks for 1 MiB + 128 B of decoded records,
 * which kvmalloc() would have rounded to 2 MiB.  Users NOBODY - i each fill
 * a descriptor with such programs, as the hostile user would, and hold
 * them while /proc/meminfo's MemFree is read.
 */
#define HELD_RECORDS	8193
#define HELD_BYTES	((long)HELD_RECORDS * 128)
#define NUSERS		4
#define MIB		(1024L * 1024)

/* A field of /proc/meminfo or /proc/vmstat ("MemFree:", "oom_kill "). */
static long proc_field(const char *file, const char *fmt)
{
	FILE *f = fopen(file, "re");
	char line[128];
	long v = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, fmt, &v) == 1)
			break;
	fclose(f);
	return v;
}

/* MemFree in bytes, once the page cache was dropped. */
static long mem_free(void)
{
	int fd = open("/proc/sys/vm/drop_caches", O_WRONLY | O_CLOEXEC);

	sync();
	/* Not root: the caches stay, the slack covers them. */
	if (fd >= 0 && write(fd, "3", 1) == 1)
		usleep(200000);
	if (fd >= 0)
		close(fd);
	return proc_field("/proc/meminfo", "MemFree: %ld kB") * 1024;
}

/*
 * What the module lets every user together hold, in bytes; LONG_MAX for a
 * module without total_mem_mb.
 */
static long total_limit(void)
{
	long mb = ncsync_param("total_mem_mb");

	if (mb < 0)
		return LONG_MAX;
	if (mb)
		return mb * MIB;
	return proc_field("/proc/meminfo", "MemTotal: %ld kB") * 1024 / 4;
}

/* One user holding what it could submit. */
struct holder {
	pid_t pid;
	int report;	/* reads its count and error */
	int hold;	/* closing it lets the user go */
	int n, err;
};

/*
 * As uid @uid: open @node, submit HELD_RECORDS programs that stay until
 * one is refused, report how many and the error on @out, hold them until
 * @in closes.
 */
static void __attribute__((noreturn)) holder_main(const char *node, uid_t uid,
						  int out, int in)
{
	int msg[2] = { 0, 0 }, fd;
	struct rec *r;
	__u32 last;
	char c;

	if (setgroups(0, NULL) || setresgid(uid, uid, uid) ||
	    setresuid(uid, uid, uid))
		_exit(1);
	fd = open(node, O_RDWR | O_CLOEXEC);
	r = calloc(HELD_RECORDS, sizeof(*r));
	if (fd < 0 || !r)
		_exit(2);
	recs_blocker(r, HELD_RECORDS, 200);
	msg[0] = fill(fd, r, HELD_RECORDS, &msg[1], &last);
	free(r);
	if (write(out, msg, sizeof(msg)) != sizeof(msg))
		_exit(3);
	if (read(in, &c, 1) < 0)
		_exit(4);
	_exit(0);
}

/* Start holder @i, as uid NOBODY - @i, on @node: 0 once it reported. */
static int holder_start(struct holder *h, int i, const char *node)
{
	int rep[2], hold[2], msg[2];

	if (pipe2(rep, O_CLOEXEC) || pipe2(hold, O_CLOEXEC))
		return -1;
	fflush(stderr);
	h->pid = fork();
	if (!h->pid) {
		close(rep[0]);
		close(hold[1]);
		holder_main(node, NOBODY - i, rep[1], hold[0]);
	}
	close(rep[1]);
	close(hold[0]);
	h->report = rep[0];
	h->hold = hold[1];
	if (h->pid < 0 || read(h->report, msg, sizeof(msg)) != sizeof(msg))
		return -1;
	h->n = msg[0];
	h->err = msg[1];
	return 0;
}

/* Let the holders go, and reap them. */
static void holders_stop(struct holder *h, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		close(h[i].hold);
		close(h[i].report);
	}
	for (i = 0; i < n; i++)
		if (h[i].pid > 0)
			waitpid(h[i].pid, NULL, 0);
}

/* Slack for MemFree: what else moves in the VM, and KASAN's shadow. */
static long mem_slack(long bytes)
{
	return bytes / 4 + 8 * MIB;
}

/*
 * One user fills user_mem_mb with programs of HELD_RECORDS records:
 * MemFree drops by no more than the cap (issue 32: twice the cap), and
 * nearly the whole cap is usable (the charge is not grossly pessimistic).
 * ncsync_hostile_test.sh runs it with user_mem_mb=64 fd_mem_mb=64.
 */
TEST_F_TIMEOUT(hostile, held_memory_within_user_cap, 300)
{
	long user_mb = need_param(_metadata, "user_mem_mb");
	long fd_mb = need_param(_metadata, "fd_mem_mb");
	char dir[64], node[96];
	struct holder h;
	long before, drop;
	int ret;

	if (user_mb > 64 || fd_mb < user_mb || user_mb * MIB > total_limit())
		SKIP(return,
		     "user_mem_mb %ld, fd_mem_mb %ld: needs user_mem_mb <= 64, fd_mem_mb >= user_mem_mb (ncsync_hostile_test.sh runs it with 64 and 64)",
		     user_mb, fd_mb);
	ncsync_private_node(_metadata, 0, dir, node);
	before = mem_free();
	ret = holder_start(&h, 0, node);
	drop = before - mem_free();
	holders_stop(&h, 1);
	unlink(node);
	rmdir(dir);
	ASSERT_EQ(0, ret) TH_LOG("uid %d did not report", NOBODY);
	fprintf(stderr, "#  %d programs of %d records, then %s; MemFree -%ld MiB (user_mem_mb %ld)\n",
		h.n, HELD_RECORDS, strerror(-h.err), drop / MIB, user_mb);
	EXPECT_EQ(ENOMEM, -h.err) TH_LOG("after %d programs: %s", h.n,
					 strerror(-h.err));
	EXPECT_GE(user_mb * MIB + mem_slack(user_mb * MIB), drop)
		TH_LOG("%d programs of %ld B took %ld MiB of MemFree: more than user_mem_mb %ld",
		       h.n, HELD_BYTES, drop / MIB, user_mb);
	EXPECT_LE(user_mb * MIB * 9 / 10, (long)h.n * HELD_BYTES)
		TH_LOG("only %d programs of %ld B within %ld MiB", h.n,
		       HELD_BYTES, user_mb);
}

/*
 * NUSERS users, each allowed user_mem_mb, together more than the module's
 * total_mem_mb (by default a quarter of the RAM): each fills until
 * ENOMEM, together they hold no more than the total, MemFree drops by no
 * more than it, the OOM killer never runs, and it comes back (but for
 * what the slab caches keep).
 */
TEST_F_TIMEOUT(hostile, users_together_within_total, 600)
{
	long user_mb = need_param(_metadata, "user_mem_mb");
	long oom0 = proc_field("/proc/vmstat", "oom_kill %ld");
	struct holder h[NUSERS];
	char dir[64], node[96];
	long before, drop, after, back, held = 0;
	int i, started = 0;
	long total;

	need_param(_metadata, "total_mem_mb");
	total = total_limit();
	if (NUSERS * user_mb * MIB <= total)
		SKIP(return, "%d x user_mem_mb %ld fit in total_mem_mb %ld MiB",
		     NUSERS, user_mb, total / MIB);
	ncsync_private_node(_metadata, 0, dir, node);
	before = mem_free();
	for (i = 0; i < NUSERS; i++, started++)
		if (holder_start(&h[i], i, node))
			break;
	drop = before - mem_free();
	holders_stop(h, started);
	/*
	 * The records of cancelled programs are freed by a work item: give
	 * it up to 100 rounds of mem_free().  What must come back is the
	 * total less a sixteenth and 8 MiB: the slab caches keep some of
	 * the freed records' pages, which drop_caches does not shrink (seen:
	 * 12 and 15 MiB of the quarter of the guest's 1 GiB, on a loaded
	 * host); a leak of what the users held would be most of the total.
	 */
	back = total / 16 + 8 * MIB;
	for (i = 0; i < 100; i++) {
		after = mem_free();
		if (after >= before - back)
			break;
		usleep(100 * 1000);
	}
	unlink(node);
	rmdir(dir);
	ASSERT_EQ(NUSERS, started) TH_LOG("uid %d did not report",
					  NOBODY - started);
	fprintf(stderr, "#  %d users: %d, %d, %d, %d programs; MemFree -%ld MiB (total %ld MiB), %ld MiB not back\n",
		NUSERS, h[0].n, h[1].n, h[2].n, h[3].n, drop / MIB,
		total / MIB, (before - after) / MIB);
	for (i = 0; i < NUSERS; i++) {
		EXPECT_EQ(ENOMEM, -h[i].err)
			TH_LOG("uid %d after %d programs: %s", NOBODY - i,
			       h[i].n, strerror(-h[i].err));
		held += (long)h[i].n * HELD_BYTES;
	}
	EXPECT_GE(total, held) TH_LOG("the users hold %ld MiB of records, past %ld MiB",
				      held / MIB, total / MIB);
	EXPECT_GE(total + mem_slack(total), drop)
		TH_LOG("%ld MiB of MemFree taken, total_mem_mb %ld MiB",
		       drop / MIB, total / MIB);
	EXPECT_EQ(oom0, proc_field("/proc/vmstat", "oom_kill %ld"));
	EXPECT_LE(before - back, after)
		TH_LOG("%ld MiB not back once the users left",
		       (before - after) / MIB);
}

/* ---------------------------------------------------------------------- */
/* 4. Wake-ups                                                             */

struct waiter {
	pthread_t thread;
	int fd;
	int ret;
};

/*
 * NCSYNC_IOC_WAIT for sem[0] == 123456, which holds only when the test sets
 * it.  The deadline only bounds a test gone wrong: it is the test's own
 * timeout less a minute, since under the debug kernel on a loaded host
 * creating the thousand threads and waiting for them all to sleep took
 * longer than 60 s, and the first waiters timed out before the set (899
 * of 1000 woke, 2026-12-06).
 */
static void *waiter_main(void *arg)
{
	struct waiter *w = arg;
	struct ncsync_wait wt = {
		.bank = NCSYNC_BANK_SEM, .mode = NCSYNC_WAIT_SEM_EQ,
		.index = 0, .value = 123456,
		.deadline = deadline_ms(WAKEUPS_TIMEOUT_S * 1000 - 60000),
	};

	w->ret = ioctl(w->fd, NCSYNC_IOC_WAIT, &wt) ? -errno : 0;
	return NULL;
}

/* Start @n threads waiting on sem[0]; return once they all sleep. */
static void waiters_start(struct __test_metadata *_metadata,
			  struct waiter *w, int n, int fd)
{
	pthread_attr_t attr;
	int i, asleep = 0;
	__s64 end;

	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 64 * 1024);
	for (i = 0; i < n; i++) {
		w[i].fd = fd;
		w[i].ret = 1;
		ASSERT_EQ(0, pthread_create(&w[i].thread, &attr, waiter_main,
					    &w[i])) TH_LOG("thread %d", i);
	}
	pthread_attr_destroy(&attr);
	/*
	 * From the last thread's creation: under the debug kernel creating
	 * a thousand threads alone can take longer than LONG_MS.
	 */
	end = now_ns() + LONG_MS * NSEC_PER_MSEC;
	while (now_ns() < end) {
		asleep = threads_in_syscall(SYS_ioctl);
		if (asleep >= n)
			break;
		usleep(10000);
	}
	ASSERT_LE(n, asleep) TH_LOG("%d of %d waiters asleep", asleep, n);
}

/* 100 increments of sem[2] by pwrite, 100 by NCSYNC_IOC_OP. */
static void bump_sem2(struct __test_metadata *_metadata, int fd)
{
	__u32 one = 1;
	int i;

	for (i = 0; i < 100; i++) {
		ASSERT_EQ(4, pwrite(fd, &one, 4, SEM_INC(2)));
		ASSERT_EQ(0, sem_op(fd, NCSYNC_OP_INC, 2, 1));
	}
}

/*
 * NWAITERS threads wait on sem[0] == 123456 through one descriptor and five
 * engines on sem[1] == 1: 200 changes of sem[2] wake nobody (wakeups
 * unchanged); a change of sem[0] to 1 wakes nobody either, since no
 * waiter's condition holds; setting it to 123456 wakes the threads, and
 * only them, and their waits succeed.
 */
TEST_F_TIMEOUT(hostile, wakeups_only_waiters_of_changed_sem,
	       WAKEUPS_TIMEOUT_S)
{
	struct waiter *w = calloc(NWAITERS, sizeof(*w));
	struct ncsync_prog_status ps;
	__u64 w0, w1, w2, w3;
	struct rec r[2];
	int i, passed = 0;
	__u32 id;

	ASSERT_NE(NULL, w);
	recs_blocker(r, 2, 1);
	id = submit_ok(_metadata, self->fd, datapath, NCSYNC_NUM_ENGINES, r,
		       2, WD_LONG);
	wait_all_blocked(_metadata, self->fd, id, NCSYNC_BLOCK_SEM, &ps);
	waiters_start(_metadata, w, NWAITERS, self->fd);

	w0 = wakeups(_metadata, self->fd);
	bump_sem2(_metadata, self->fd);
	w1 = wakeups(_metadata, self->fd);
	ASSERT_EQ(0, sem_op(self->fd, NCSYNC_OP_SET, 0, 1));
	w2 = wakeups(_metadata, self->fd);
	ASSERT_EQ(0, sem_op(self->fd, NCSYNC_OP_SET, 0, 123456));
	w3 = wakeups(_metadata, self->fd);

	for (i = 0; i < NWAITERS; i++) {
		pthread_join(w[i].thread, NULL);
		passed += w[i].ret == 0;
	}
	ASSERT_EQ(0, core_reset(self->fd));
	free(w);
	EXPECT_EQ(w0, w1)
		TH_LOG("200 changes of sem[2] woke %llu sleepers; none waits on it",
		       (unsigned long long)(w1 - w0));
	EXPECT_EQ(w1, w2)
		TH_LOG("sem[0] = 1 woke %llu sleepers; all wait for 123456",
		       (unsigned long long)(w2 - w1));
	EXPECT_EQ(w2 + NWAITERS, w3)
		TH_LOG("sem[0] = 123456 woke %llu sleepers; %d wait for it",
		       (unsigned long long)(w3 - w2), NWAITERS);
	EXPECT_EQ(NWAITERS, passed);
}

/* Poll until engine @e of program @id is blocked on semaphore @sem. */
static void engine_blocked_on(struct __test_metadata *_metadata, int fd,
			      __u32 id, unsigned int e, __u8 sem)
{
	__s64 end = now_ns() + LONG_MS * NSEC_PER_MSEC;
	struct ncsync_prog_status ps;

	for (;;) {
		ASSERT_EQ(0, status_get(fd, id, &ps));
		ASSERT_LT(e, ps.nengines);
		if (ps.engines[e].state == NCSYNC_ENG_BLOCKED &&
		    ps.engines[e].wait_kind == NCSYNC_BLOCK_SEM &&
		    ps.engines[e].wait_index == sem)
			return;
		ASSERT_GT(end, now_ns())
			TH_LOG("engine %u never blocked on sem[%u]", e, sem);
		usleep(1000);
	}
}

/*
 * A barrier of the five engines on sem[3]: each waits for its turn
 * (sem[10 + e] >= 1), arrives (+1) and waits for sem[3] >= 5.  The test
 * gives the turns one by one.  A turn wakes its engine only; the first
 * four arrivals wake nobody, since no waiter's condition holds; the last
 * wakes the four engines at the barrier, once each: 5 + 4 wake-ups in all
 * (where every change woke every waiter, 5 + 0 + 1 + 2 + 3 + 4).
 */
TEST_F_TIMEOUT(hostile, barrier_arrivals_wake_only_at_the_last, 120)
{
	struct rec_prog p = { 0 };
	struct ncsync_submit sub;
	__u64 before, now;
	unsigned int e;
	__u32 id;

	for (e = 0; e < NCSYNC_NUM_ENGINES; e++) {
		struct rec_queue *q = rec_prog_queue(&p, datapath[e]);

		rec_noop(q, NCSYNC_WAIT_SEM_GE, 10 + e, 0, 0, 1);
		rec_inc(q, 3);
		rec_noop(q, NCSYNC_WAIT_SEM_GE, 3, 0, 0, NCSYNC_NUM_ENGINES);
		rec_exit(q);
	}
	ASSERT_EQ(0, rec_prog_submit(self->fd, &p, 0, WD_LONG, &sub));
	id = sub.id;
	for (e = 0; e < NCSYNC_NUM_ENGINES; e++)
		engine_blocked_on(_metadata, self->fd, id, e, 10 + e);
	before = wakeups(_metadata, self->fd);
	for (e = 0; e + 1 < NCSYNC_NUM_ENGINES; e++) {
		ASSERT_EQ(0, sem_op(self->fd, NCSYNC_OP_SET, 10 + e, 1));
		engine_blocked_on(_metadata, self->fd, id, e, 3);
		now = wakeups(_metadata, self->fd);
		EXPECT_EQ(before + e + 1, now)
			TH_LOG("turn and arrival %u: %llu wake-ups in all", e + 1,
			       (unsigned long long)(now - before));
	}
	ASSERT_EQ(0, sem_op(self->fd, NCSYNC_OP_SET, 10 + e, 1));
	EXPECT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->fd, id));
	now = wakeups(_metadata, self->fd);
	EXPECT_EQ(before + 2 * NCSYNC_NUM_ENGINES - 1, now)
		TH_LOG("last arrival: %llu wake-ups in all",
		       (unsigned long long)(now - before));
	rec_prog_free(&p);
}

/* How many of @n epoll instances report EPOLLIN now. */
static int epoll_ready(const int *ep, int n)
{
	struct epoll_event ev;
	int i, ready = 0;

	for (i = 0; i < n; i++)
		ready += epoll_wait(ep[i], &ev, 1, 0) == 1 &&
			 (ev.events & EPOLLIN);
	return ready;
}

/* @n epoll instances, each watching @fd for EPOLLIN. */
static int *epolls_open(struct __test_metadata *_metadata, int fd, int n)
{
	struct rlimit rl = { n + 64, n + 64 };
	struct epoll_event ev = { .events = EPOLLIN };
	int *ep = calloc(n, sizeof(*ep));
	int i;

	ASSERT_NE(NULL, ep);
	ASSERT_EQ(0, setrlimit(RLIMIT_NOFILE, &rl))
		TH_LOG("RLIMIT_NOFILE %d: %s", n + 64, strerror(errno));
	for (i = 0; i < n; i++) {
		ep[i] = epoll_create1(EPOLL_CLOEXEC);
		ASSERT_LE(0, ep[i]) TH_LOG("epoll %d: %s", i, strerror(errno));
		ASSERT_EQ(0, epoll_ctl(ep[i], EPOLL_CTL_ADD, fd, &ev));
	}
	return ep;
}

/* One change of the banks through @fd. */
static void change(struct __test_metadata *_metadata, int fd)
{
	__u32 one = 1;

	ASSERT_EQ(4, pwrite(fd, &one, 4, SEM_INC(5)));
}

/*
 * NEPOLL epoll instances watch one read-only descriptor.  After an ack a
 * change wakes the descriptor's pollers once (wakeups + 1) and every
 * instance reports EPOLLIN; more changes before the next ack wake nobody,
 * and EPOLLIN stays; after the ack the next change wakes them again.
 */
TEST_F_TIMEOUT(hostile, wakeups_poll_once_until_ack, 120)
{
	int ro = open(DEV0, O_RDONLY | O_CLOEXEC);
	__u64 w0, w1, w2, w3;
	int *ep, i;

	ASSERT_LE(0, ro);
	ep = epolls_open(_metadata, ro, NEPOLL);
	ASSERT_EQ(0, ack(ro));
	EXPECT_EQ(0, epoll_ready(ep, NEPOLL));

	w0 = wakeups(_metadata, self->fd);
	change(_metadata, self->fd);
	w1 = wakeups(_metadata, self->fd);
	EXPECT_EQ(w0 + 1, w1) TH_LOG("one change: wakeups %llu -> %llu",
				     (unsigned long long)w0,
				     (unsigned long long)w1);
	EXPECT_EQ(NEPOLL, epoll_ready(ep, NEPOLL));

	for (i = 0; i < 100; i++)
		change(_metadata, self->fd);
	w2 = wakeups(_metadata, self->fd);
	EXPECT_EQ(w1, w2) TH_LOG("100 changes before an ack: wakeups %llu -> %llu",
				 (unsigned long long)w1,
				 (unsigned long long)w2);
	EXPECT_EQ(NEPOLL, epoll_ready(ep, NEPOLL));

	ASSERT_EQ(0, ack(ro));
	w2 = wakeups(_metadata, self->fd);
	change(_metadata, self->fd);
	w3 = wakeups(_metadata, self->fd);
	EXPECT_EQ(w2 + 1, w3) TH_LOG("one change after the ack: wakeups %llu -> %llu",
				     (unsigned long long)w2,
				     (unsigned long long)w3);
	for (i = 0; i < NEPOLL; i++)
		close(ep[i]);
	free(ep);
	close(ro);
}

/* ---------------------------------------------------------------------- */
/* 5. The rate-limited kernel log                                          */

/* Watchdog headers of core 0, programs @first..@last, in one record. */
static int headers_in(const char *text, __u32 first, __u32 last)
{
	static const char head[] = "ncsync: core 0 program ";
	const char *p = text;
	int n = 0;
	__u32 id;
	int end;

	while ((p = strstr(p, head))) {
		p += strlen(head);
		end = 0;
		if (sscanf(p, "%u timed out: no progress for %n", &id,
			   &end) == 1 && end && id >= first && id <= last)
			n++;
	}
	return n;
}

/* The watchdog headers in the kernel log records after @kmsg's position. */
static int headers_logged(int kmsg, __u32 first, __u32 last)
{
	static char buf[8192];
	int n = 0;

	for (;;) {
		ssize_t len = read(kmsg, buf, sizeof(buf) - 1);

		if (len < 0 && errno == EPIPE)
			continue;	/* records were overwritten */
		if (len <= 0)
			return n;	/* EAGAIN: no more */
		buf[len] = 0;
		n += headers_in(buf, first, last);
	}
}

/*
 * NWATCHDOG programs in a row time out (one engine blocked on a wait,
 * watchdog 1 ms).  At most LOG_BURST reports per LOG_INTERVAL_S reach the
 * kernel log (one interval more for the boundary), and those printed and
 * those counted in log_suppressed make NWATCHDOG.
 */
TEST_F_TIMEOUT(hostile, watchdog_log_rate_limited, 120)
{
	int kmsg = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	struct ncsync_stats st0, st1;
	__u32 first = 0, id = 0;
	int i, printed, timed_out = 0;
	long suppressed, allowed;
	struct rec r[2];
	__s64 t0;

	ASSERT_LE(0, kmsg) TH_LOG("/dev/kmsg: %s", strerror(errno));
	ASSERT_LE(0, lseek(kmsg, 0, SEEK_END));
	ASSERT_EQ(0, ioctl(self->fd, NCSYNC_IOC_STATS, &st0));
	recs_blocker(r, 2, 30);
	t0 = now_ns();
	for (i = 0; i < NWATCHDOG; i++) {
		id = submit_ok(_metadata, self->fd, &engine_sp, 1, r, 2, 1);
		first = first ?: id;
	}
	for (id = first; id < first + NWATCHDOG; id++) {
		timed_out += wait_end(_metadata, self->fd, id) ==
			     NCSYNC_PROG_TIMED_OUT;
	}
	ASSERT_EQ(0, ioctl(self->fd, NCSYNC_IOC_STATS, &st1));
	allowed = LOG_BURST *
		  (2 + (now_ns() - t0) / (LOG_INTERVAL_S * NSEC_PER_SEC));
	printed = headers_logged(kmsg, first, first + NWATCHDOG - 1);
	close(kmsg);
	suppressed = st1.log_suppressed - st0.log_suppressed;

	ASSERT_EQ(NWATCHDOG, timed_out);
	EXPECT_EQ(NWATCHDOG, printed + suppressed)
		TH_LOG("%d reports printed, %ld counted as suppressed",
		       printed, suppressed);
	EXPECT_GE(allowed, printed)
		TH_LOG("%d of %d reports printed: no rate limit", printed,
		       NWATCHDOG);
}

/* ---------------------------------------------------------------------- */
/* 7. Large copies                                                         */

/* Fill @n bytes with a sequence of period far above any copy's length. */
static void fill_pattern(__u8 *p, size_t n)
{
	__u32 x = 0x9E3779B9;
	size_t i;

	for (i = 0; i < n; i++) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		p[i] = x >> 24;
	}
}

/* The first byte where @a and @b differ, or @n. */
static size_t first_diff(const __u8 *a, const __u8 *b, size_t n)
{
	size_t i;

	for (i = 0; i < n && a[i] == b[i]; i++)
		;
	return i;
}

/*
 * Fill the device memory through its mapping, copy half of it from @src
 * to @dst with one DMA record, and compare with memmove() of the same.
 */
static void large_copy(struct __test_metadata *_metadata, int fd,
		       __u64 src, __u64 dst)
{
	const size_t size = 1 << 20, len = size / 2;
	struct ncsync_info info;
	struct rec r[3];
	__u8 *mem, *want;
	size_t at;
	__u32 id;

	ASSERT_EQ(0, ioctl(fd, NCSYNC_IOC_INFO, &info));
	ASSERT_LE(size, info.devmem_size) TH_LOG("devmem_kb below 1024");
	mem = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		   NCSYNC_DEVMEM_OFFSET);
	ASSERT_NE(MAP_FAILED, mem) TH_LOG("mmap: %s", strerror(errno));
	want = malloc(size);
	ASSERT_NE(NULL, want);
	fill_pattern(mem, size);
	memcpy(want, mem, size);
	memmove(want + dst, want + src, len);

	enc_dma(r[0].b, src, dst, len, 0, NCSYNC_UPD_NONE, 0);
	enc_drain(r[1].b);
	enc_exit(r[2].b);
	id = submit_ok(_metadata, fd, &engine_sp, 1, r, 3, WD_LONG);
	EXPECT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, fd, id));
	at = first_diff(mem, want, size);
	EXPECT_EQ(size, at)
		TH_LOG("copy 0x%llx -> 0x%llx: byte 0x%zx is 0x%02x, memmove() gives 0x%02x",
		       (unsigned long long)src, (unsigned long long)dst, at,
		       at < size ? mem[at] : 0, at < size ? want[at] : 0);
	free(want);
	munmap(mem, size);
}

/* 512 KiB forward over itself (dst > src, overlapping by ~320 KiB). */
TEST_F(hostile, dma_large_copy_overlap_forward)
{
	large_copy(_metadata, self->fd, 0x3003, 0x3003 + 0x2F001);
}

/* 512 KiB backward over itself (dst < src). */
TEST_F(hostile, dma_large_copy_overlap_backward)
{
	large_copy(_metadata, self->fd, 0x3003 + 0x2F001, 0x3003);
}

/* ---------------------------------------------------------------------- */
/* Test selection                                                          */

static struct {
	int kind;		/* 'r', 'f' or 't' */
	const char *name;
} sel[32];
static unsigned int nsel;

static bool selected(const char *fixture, const char *test)
{
	char full[256];
	unsigned int i;

	if (!nsel)
		return true;
	snprintf(full, sizeof(full), "%s.%s", fixture, test);
	for (i = 0; i < nsel; i++)
		if (!strcmp(sel[i].name, sel[i].kind == 'r' ? full :
				       sel[i].kind == 'f' ? fixture : test))
			return true;
	return false;
}

/* Keep (or list) only the selected tests in the harness's lists. */
static void select_tests(bool list)
{
	struct __fixture_metadata *f;
	struct __test_metadata *t, *next, *head, *tail;

	for (f = __fixture_list; f; f = f->next) {
		head = NULL;
		tail = NULL;
		for (t = f->tests; t; t = next) {
			next = t->next;
			if (!selected(f->name, t->name))
				continue;
			if (list)
				printf("%s.%s\n", f->name, t->name);
			t->next = NULL;
			if (tail)
				tail->next = t;
			else
				head = t;
			tail = t;
		}
		f->tests = head;
		if (head)
			head->prev = tail;
	}
}

int main(int argc, char **argv)
{
	bool list = false;
	int c;

	while ((c = getopt(argc, argv, "lr:f:t:")) != -1) {
		if (c == 'l') {
			list = true;
		} else if (c != '?' && nsel < ARRAY_SIZE(sel)) {
			sel[nsel].kind = c;
			sel[nsel++].name = optarg;
		} else {
			fprintf(stderr, "usage: %s [-l] [-r FIX.TEST] [-f FIX] [-t TEST]...\n",
				argv[0]);
			return 2;
		}
	}
	select_tests(list);
	return list ? 0 : test_harness_run(argc, argv);
}
