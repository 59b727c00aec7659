/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the ncsync_faults_*_test selftests share: faults the driver must
 * survive, split by concern (close: kill -9 and close() racing the other
 * calls; procs: fork, resets, many processes, a descriptor left open,
 * and the activity of a load/unload cycle).
 *
 *  - kill -9 of a process blocked in NCSYNC_IOC_WAIT, and of one whose
 *    programs are blocked (and that waits for them);
 *  - close() racing submissions, waits, program waits and poll() in other
 *    threads, many times, and close() while a wait is held (by
 *    userfaultfd) between entering the ioctl and sleeping;
 *  - fork() with the CSR window and the device memory mapped;
 *  - resets racing submissions and waits;
 *  - eight processes with programs of their own at once;
 *  - a descriptor left open, with a blocked program and a blocked wait,
 *    while other processes work.
 *
 * Every test checks that every wait ended (threads are joined and children
 * reaped with a generous deadline, never an upper bound on how long the
 * work itself takes) and, at its end, that no program is left on any core
 * (/sys/kernel/debug/ncsync/coreN lists the programs that have not ended).
 *
 * The load/unload cycles are in ncsync_faults_test.sh; it runs
 * ncsync_faults_procs_test with --cycle-activity as the activity of each
 * cycle.
 */
#ifndef NCSYNC_FAULTS_H
#define NCSYNC_FAULTS_H

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/ncsync.h>
#include <linux/userfaultfd.h>

#include "kselftest_harness.h"
#include "ncsync_selftest.h"
#include "ncsync_rec.h"

#pragma GCC diagnostic ignored "-Wsign-compare"

#define DEV_FMT		"/dev/ncsync%u"
#define DEV0		"/dev/ncsync0"
#define DEBUGFS_FMT	"/sys/kernel/debug/ncsync/core%u"

#define LONG_MS		20000	/* deadline of a wait that must end */
#define JOIN_MS		60000	/* deadline of a thread or child to end */
#define WD_LONG		20000	/* watchdog of a program that must not time out */
#define WD_SHORT	1000	/* watchdog of a program left blocked in a race */

#define NSEC_PER_SEC	1000000000LL
#define NSEC_PER_MSEC	1000000LL

#define W_GE		NCSYNC_WAIT_SEM_GE
#define U_INC		(NCSYNC_UPD_COMPLETE | NCSYNC_UPD_SEM_INC)

static const __u8 engine_ids[NCSYNC_NUM_ENGINES] = { 1, 2, 3, 5, 6 };

/* ---------------------------------------------------------------------- */
/* Records and programs                                                    */

/* EventSemaphore: +1 of @a (lane 0) and of @b (lane 1). */
static inline void rec_inc2(struct rec_queue *q, __u8 a, __u8 b)
{
	__u8 *r = rec_inc(q, b);

	rec_lane0(r, 0, 0, U_INC, a, 0);
}

/* EventSemaphore: wait for @sem >= @thr (lane 1), then +1 of @inc. */
static inline void rec_wait_inc(struct rec_queue *q, __u8 sem, __u32 thr, __u8 inc)
{
	rec_wait_then_inc(q, W_GE, sem, thr, inc);
}

/* Submit @p with watchdog @wd: 0 and its id in *@id, or -errno and 0. */
static inline int submit(int fd, const struct rec_prog *p, __u32 wd, __u32 *id)
{
	struct ncsync_submit sub;
	int ret = rec_prog_submit(fd, p, 0, wd, &sub);

	*id = ret ? 0 : sub.id;
	return ret;
}

static inline int release(int fd, __u32 id)
{
	struct ncsync_prog_status ps;

	return prog_status(fd, id, NCSYNC_STATUS_F_RELEASE, &ps, NULL);
}

/* Poll until engine @e of program @id is blocked; 0 or -errno. */
static inline int await_engine_blocked(int fd, __u32 id, unsigned int e)
{
	__s64 end = now_ns() + LONG_MS * NSEC_PER_MSEC;
	struct ncsync_prog_status ps;
	int ret;

	for (;;) {
		ret = prog_status(fd, id, 0, &ps, NULL);
		if (ret)
			return ret;
		if (ps.engines[e].state == NCSYNC_ENG_BLOCKED)
			return 0;
		if (ps.state >= NCSYNC_PROG_DONE || now_ns() > end)
			return -ETIMEDOUT;
		usleep(1000);
	}
}

/* ---------------------------------------------------------------------- */
/* Banks                                                                   */

static inline int sem_op(int fd, __u8 op, unsigned int i, __u32 v, __s32 *after)
{
	struct ncsync_op o = {
		.bank = NCSYNC_BANK_SEM, .op = op, .index = i, .value = v,
	};

	if (ioctl(fd, NCSYNC_IOC_OP, &o))
		return -errno;
	if (after)
		*after = o.after;
	return 0;
}

static inline __s32 sem_get(struct __test_metadata *_metadata, int fd, unsigned int i)
{
	__s32 v = 0;

	ASSERT_EQ(0, sem_op(fd, NCSYNC_OP_READ, i, 0, &v));
	return v;
}

static inline void sem_set(struct __test_metadata *_metadata, int fd, unsigned int i,
		    __s32 v)
{
	ASSERT_EQ(0, sem_op(fd, NCSYNC_OP_SET, i, (__u32)v, NULL));
}

static inline int sem_wait(int fd, unsigned int i, __u8 mode, __s32 value, int ms,
		    __s32 *result)
{
	struct ncsync_wait w = {
		.bank = NCSYNC_BANK_SEM, .mode = mode, .index = i,
		.value = value,
	};

	if (ms < 0)
		w.flags = NCSYNC_WAIT_F_NO_DEADLINE;
	else
		w.deadline = deadline_ms(ms);
	if (ioctl(fd, NCSYNC_IOC_WAIT, &w))
		return -errno;
	if (result)
		*result = w.result;
	return 0;
}

static inline int core_reset(int fd)
{
	struct ncsync_reset r = { 0 };

	return ioctl(fd, NCSYNC_IOC_RESET, &r) ? -errno : 0;
}

/* ---------------------------------------------------------------------- */
/* Processes, threads, debugfs                                             */

/* Reap @pid, waiting at most JOIN_MS; kill it past that.  Wait status. */
static inline int reap(pid_t pid, bool *hung)
{
	__s64 end = now_ns() + JOIN_MS * NSEC_PER_MSEC;
	int status = 0;

	*hung = false;
	for (;;) {
		pid_t r = waitpid(pid, &status, WNOHANG);

		if (r == pid)
			return status;
		if (r < 0)
			return -1;
		if (now_ns() > end) {
			*hung = true;
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			return status;
		}
		sleep_ms(5);
	}
}

static inline void reap_ok(struct __test_metadata *_metadata, pid_t pid,
		    const char *what)
{
	bool hung;
	int status = reap(pid, &hung);

	ASSERT_FALSE(hung) TH_LOG("%s did not end", what);
	ASSERT_TRUE(WIFEXITED(status))
		TH_LOG("%s: wait status %#x", what, status);
	ASSERT_EQ(0, WEXITSTATUS(status)) TH_LOG("%s failed", what);
}

static inline void join_ok(struct __test_metadata *_metadata, pthread_t th,
		    const char *what)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_sec += JOIN_MS / 1000;
	ASSERT_EQ(0, pthread_timedjoin_np(th, NULL, &ts))
		TH_LOG("%s did not end", what);
}

/*
 * Programs listed in /sys/kernel/debug/ncsync/core@core (those that have
 * not ended): of process @pid, or all of them for 0.  -1 without debugfs.
 */
static inline int dbg_programs(unsigned int core, pid_t pid)
{
	char path[64], line[512];
	int n = 0;
	FILE *f;

	snprintf(path, sizeof(path), DEBUGFS_FMT, core);
	f = fopen(path, "re");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		unsigned int id;
		int p;

		if (sscanf(line, "program %u pid %d", &id, &p) == 2 &&
		    (!pid || p == pid))
			n++;
	}
	fclose(f);
	return n;
}

static inline unsigned int num_cores(void)
{
	struct ncsync_info info;
	int fd = open(DEV0, O_RDONLY | O_CLOEXEC);
	unsigned int n = 1;

	if (fd < 0)
		return 1;
	if (!ioctl(fd, NCSYNC_IOC_INFO, &info))
		n = info.num_cores;
	close(fd);
	return n;
}

/* No core has a program left. */
static inline void no_programs_left(struct __test_metadata *_metadata)
{
	unsigned int c, n = num_cores();

	for (c = 0; c < n; c++) {
		int left = dbg_programs(c, 0);

		if (left < 0)
			continue;	/* no debugfs */
		ASSERT_EQ(0, left) TH_LOG("core %u has %d programs left", c,
					  left);
	}
}

/* A thread blocked in NCSYNC_IOC_WAIT. */
struct waiter {
	pthread_t th;
	int fd;
	unsigned int index;
	__u8 mode;
	__s32 value;
	int ms;
	int ret;
	__s32 result;
	pid_t tid;
	int done;
};

static inline void *waiter_main(void *arg)
{
	struct waiter *w = arg;

	__atomic_store_n(&w->tid, my_tid(), __ATOMIC_SEQ_CST);
	w->ret = sem_wait(w->fd, w->index, w->mode, w->value, w->ms,
			  &w->result);
	__atomic_store_n(&w->done, 1, __ATOMIC_SEQ_CST);
	return NULL;
}

static inline void waiter_start(struct __test_metadata *_metadata, struct waiter *w,
			 int fd, unsigned int index, __u8 mode, __s32 value,
			 int ms)
{
	memset(w, 0, sizeof(*w));
	w->fd = fd;
	w->index = index;
	w->mode = mode;
	w->value = value;
	w->ms = ms;
	ASSERT_EQ(0, pthread_create(&w->th, NULL, waiter_main, w));
	while (!__atomic_load_n(&w->tid, __ATOMIC_SEQ_CST))
		usleep(100);
	await_blocked(getpid(), w->tid, SYS_ioctl);
}

/* ---------------------------------------------------------------------- */
/* The fixture                                                             */

FIXTURE(faults) {
	int fd;
};

FIXTURE_SETUP(faults)
{
	self->fd = open(DEV0, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, self->fd) TH_LOG("open %s: %s", DEV0, strerror(errno));
	ASSERT_EQ(0, core_reset(self->fd));
	no_programs_left(_metadata);
}

FIXTURE_TEARDOWN(faults)
{
	if (self->fd >= 0)
		close(self->fd);
}

#endif /* NCSYNC_FAULTS_H */
