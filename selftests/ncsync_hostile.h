/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the ncsync_hostile_*_test selftests share: what a hostile local
 * user can do to the module, and the bounds that stop it; split by
 * concern (dma, mem, wake, log).  Records, ioctls, the system's
 * numbers and the "hostile" fixture (core 0, reset before and after).
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
 */
#ifndef NCSYNC_HOSTILE_H
#define NCSYNC_HOSTILE_H

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
static inline void wait_eq_record(__u8 *r, __u8 sem, __u32 threshold)
{
	enc_header(r, NCSYNC_OPC_EVENT_SEMAPHORE);
	rec_lane0(r, NCSYNC_WAIT_SEM_EQ, sem, NCSYNC_UPD_NONE, 0, threshold);
}

/* {DMA 64 bytes, latency 0, no update; Branch always -> 0}. */
static inline void recs_flood(struct rec *r)
{
	enc_dma(r[0].b, 0, 0x1000, 64, 0, NCSYNC_UPD_NONE, 0);
	enc_jump(r[1].b, 0);
}

/* {DMA 64 bytes, latency 0; Drain; Exit}. */
static inline void recs_one_copy(struct rec *r)
{
	enc_dma(r[0].b, 0x2000, 0x3000, 64, 0, NCSYNC_UPD_NONE, 0);
	enc_drain(r[1].b);
	enc_exit(r[2].b);
}

/* @n records: a wait on @sem == 1 that never passes, NoOps, then Exit. */
static inline void recs_blocker(struct rec *r, __u32 n, __u8 sem)
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
static inline struct rec *recs_fill_dma(long depth, __u8 upd_mode, __u8 sem)
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
static inline int submit(int fd, const __u8 *engines, unsigned int n,
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

static inline int status_get(int fd, __u32 id, struct ncsync_prog_status *ps)
{
	return prog_status(fd, id, 0, ps, NULL);
}

static inline int prog_cancel(int fd, __u32 id)
{
	struct ncsync_prog_cancel pc = { .id = id };

	return ioctl(fd, NCSYNC_IOC_PROG_CANCEL, &pc) ? -errno : 0;
}

static inline int core_reset(int fd)
{
	struct ncsync_reset r = { 0 };

	return ioctl(fd, NCSYNC_IOC_RESET, &r) ? -errno : 0;
}

static inline int sem_op(int fd, __u8 op, __u32 index, __u32 value)
{
	struct ncsync_op o = {
		.bank = NCSYNC_BANK_SEM, .op = op, .index = index,
		.value = value,
	};

	return ioctl(fd, NCSYNC_IOC_OP, &o) ? -errno : 0;
}

static inline __u64 wakeups(struct __test_metadata *_metadata, int fd)
{
	struct ncsync_stats st;

	ASSERT_EQ(0, ioctl(fd, NCSYNC_IOC_STATS, &st))
		TH_LOG("STATS: %s", strerror(errno));
	return st.wakeups;
}

static inline int ack(int fd)
{
	struct ncsync_seq s;

	return ioctl(fd, NCSYNC_IOC_ACK, &s) ? -errno : 0;
}

/* Submit through @fd; the program's id. */
static inline __u32 submit_ok(struct __test_metadata *_metadata, int fd,
		       const __u8 *engines, unsigned int n,
		       const struct rec *recs, __u32 count, __u32 wd)
{
	__u32 id = 0;
	int ret = submit(fd, engines, n, recs, count, wd, &id);

	ASSERT_EQ(0, ret) TH_LOG("SUBMIT: %s", strerror(-ret));
	return id;
}

/* Wait for a program to end; its final state. */
static inline int wait_end(struct __test_metadata *_metadata, int fd, __u32 id)
{
	__u32 state = ~0U;
	int ret = prog_wait(fd, id, LONG_MS, &state);

	ASSERT_EQ(0, ret) TH_LOG("PROG_WAIT %u: %s", id, strerror(-ret));
	return (int)state;
}

/* Poll until every engine of a running program is blocked on @kind. */
static inline void wait_all_blocked(struct __test_metadata *_metadata, int fd,
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
static inline long need_param(struct __test_metadata *_metadata, const char *name)
{
	long v = ncsync_param(name);

	ASSERT_LE(0, v)
		TH_LOG("the module has no parameter %s (%s%s): no such bound",
		       name, NCSYNC_PARAMS, name);
	return v;
}

/* Slab + VmallocUsed of /proc/meminfo in KiB: the kernel's own memory. */
static inline long kmem_kb(void)
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
static inline int threads_in_syscall(long nr)
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
static inline int open_b(struct __test_metadata *_metadata, int *fdb)
{
	*fdb = open(DEV0, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, *fdb) TH_LOG("open %s: %s", DEV0, strerror(errno));
	return *fdb;
}

/*
 * Submit programs of @n records that stay (the first blocks on a wait,
 * the others queue behind it on SP) until a submission fails: how many
 * succeeded, the error in @err, the last id in @last.
 */
static inline int fill(int fd, const struct rec *r, __u32 n, int *err, __u32 *last)
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

#endif /* NCSYNC_HOSTILE_H */
