// SPDX-License-Identifier: GPL-2.0
/*
 * ncsync selftests: faults the driver must survive.
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
 * The load/unload cycles are in ncsync_faults_test.sh; it runs this binary
 * with --cycle-activity as the activity of each cycle.
 *
 * Run inside the test VM:  tools/vm-run build/selftests/ncsync_faults_test
 */
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
static void rec_inc2(struct rec_queue *q, __u8 a, __u8 b)
{
	__u8 *r = rec_inc(q, b);

	rec_lane0(r, 0, 0, U_INC, a, 0);
}

/* EventSemaphore: wait for @sem >= @thr (lane 1), then +1 of @inc. */
static void rec_wait_inc(struct rec_queue *q, __u8 sem, __u32 thr, __u8 inc)
{
	rec_wait_then_inc(q, W_GE, sem, thr, inc);
}

static int submit(int fd, const struct rec_prog *p, __u32 wd, __u32 *id)
{
	struct ncsync_submit sub;
	int ret = rec_prog_submit(fd, p, 0, wd, &sub);

	if (!ret)
		*id = sub.id;
	return ret;
}

static int release(int fd, __u32 id)
{
	struct ncsync_prog_status ps;

	return prog_status(fd, id, NCSYNC_STATUS_F_RELEASE, &ps, NULL);
}

/* Poll until engine @e of program @id is blocked; 0 or -errno. */
static int await_engine_blocked(int fd, __u32 id, unsigned int e)
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

static int sem_op(int fd, __u8 op, unsigned int i, __u32 v, __s32 *after)
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

static __s32 sem_get(struct __test_metadata *_metadata, int fd, unsigned int i)
{
	__s32 v = 0;

	ASSERT_EQ(0, sem_op(fd, NCSYNC_OP_READ, i, 0, &v));
	return v;
}

static void sem_set(struct __test_metadata *_metadata, int fd, unsigned int i,
		    __s32 v)
{
	ASSERT_EQ(0, sem_op(fd, NCSYNC_OP_SET, i, (__u32)v, NULL));
}

static int sem_wait(int fd, unsigned int i, __u8 mode, __s32 value, int ms,
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

static int core_reset(int fd)
{
	struct ncsync_reset r = { 0 };

	return ioctl(fd, NCSYNC_IOC_RESET, &r) ? -errno : 0;
}

/* ---------------------------------------------------------------------- */
/* Processes, threads, debugfs                                             */

/* Reap @pid, waiting at most JOIN_MS; kill it past that.  Wait status. */
static int reap(pid_t pid, bool *hung)
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

static void reap_ok(struct __test_metadata *_metadata, pid_t pid,
		    const char *what)
{
	bool hung;
	int status = reap(pid, &hung);

	ASSERT_FALSE(hung) TH_LOG("%s did not end", what);
	ASSERT_TRUE(WIFEXITED(status))
		TH_LOG("%s: wait status %#x", what, status);
	ASSERT_EQ(0, WEXITSTATUS(status)) TH_LOG("%s failed", what);
}

static void join_ok(struct __test_metadata *_metadata, pthread_t th,
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
static int dbg_programs(unsigned int core, pid_t pid)
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

static unsigned int num_cores(void)
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
static void no_programs_left(struct __test_metadata *_metadata)
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

static void *waiter_main(void *arg)
{
	struct waiter *w = arg;

	__atomic_store_n(&w->tid, my_tid(), __ATOMIC_SEQ_CST);
	w->ret = sem_wait(w->fd, w->index, w->mode, w->value, w->ms,
			  &w->result);
	__atomic_store_n(&w->done, 1, __ATOMIC_SEQ_CST);
	return NULL;
}

static void waiter_start(struct __test_metadata *_metadata, struct waiter *w,
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

/* ---------------------------------------------------------------------- */
/* kill -9                                                                 */

/*
 * Two children block in NCSYNC_IOC_WAIT with no deadline, one on an open
 * file of its own, one on the fixture's (inherited); a thread of ours
 * waits for the same condition.  Both children are killed: they die, our
 * wait goes on, and ends when the condition comes true.
 */
TEST_F(faults, kill9_during_blocked_wait)
{
	const unsigned int s = 30;
	struct waiter own;
	pid_t pid[2];
	unsigned int c;
	int status;
	bool hung;

	for (c = 0; c < 2; c++) {
		pid[c] = fork();
		ASSERT_LE(0, pid[c]);
		if (pid[c] == 0) {
			int fd = c ? self->fd : open(DEV0, O_RDWR);

			if (fd < 0)
				_exit(2);
			sem_wait(fd, s, NCSYNC_WAIT_SEM_EQ, 77, -1, NULL);
			_exit(3);	/* must not return */
		}
	}
	waiter_start(_metadata, &own, self->fd, s, NCSYNC_WAIT_SEM_EQ, 77,
		     LONG_MS);
	for (c = 0; c < 2; c++) {
		EXPECT_TRUE(await_blocked(pid[c], pid[c], SYS_ioctl))
			TH_LOG("child %u never blocked", c);
	}
	for (c = 0; c < 2; c++) {
		ASSERT_EQ(0, kill(pid[c], SIGKILL));
		status = reap(pid[c], &hung);
		ASSERT_FALSE(hung) TH_LOG("child %u survived SIGKILL", c);
		ASSERT_TRUE(WIFSIGNALED(status)) TH_LOG("child %u: %#x", c,
							status);
		ASSERT_EQ(SIGKILL, WTERMSIG(status));
	}
	sleep_ms(50);
	EXPECT_FALSE(__atomic_load_n(&own.done, __ATOMIC_SEQ_CST))
		TH_LOG("our wait ended (%d) when the children died", own.ret);
	sem_set(_metadata, self->fd, s, 77);
	join_ok(_metadata, own.th, "our waiter");
	EXPECT_EQ(0, own.ret) TH_LOG("our wait: %s", strerror(-own.ret));
	EXPECT_EQ(77, own.result);
	/* the core works as before */
	EXPECT_EQ(0, sem_wait(self->fd, s, NCSYNC_WAIT_SEM_EQ, 77, 0, NULL));
	no_programs_left(_metadata);
}

/*
 * A child has programs blocked on three engines and one queued behind
 * them, a thread in NCSYNC_IOC_PROG_WAIT and another in NCSYNC_IOC_WAIT,
 * both with no deadline.  kill -9: by the time it is reaped its programs
 * are gone (the last close waits for the engines), the engines are free,
 * and what its programs waited for never makes them run.
 */
struct kill_child {
	int fd;
	__u32 id;
};

static void *kill_child_prog_wait(void *arg)
{
	struct kill_child *k = arg;
	struct ncsync_prog_wait pw = {
		.id = k->id, .flags = NCSYNC_WAIT_F_NO_DEADLINE,
	};

	ioctl(k->fd, NCSYNC_IOC_PROG_WAIT, &pw);
	_exit(5);	/* must not return */
	return NULL;
}

/*
 * The child of kill9_during_blocked_programs: submit three programs (two
 * block on sem[@s], one queued behind them), block a thread in PROG_WAIT,
 * tell the parent through @wfd, then block in a semaphore wait on sem[@v].
 * It never returns: its exit code says where it failed.
 */
static void kill9_child(int rfd, int wfd, unsigned int s, unsigned int t,
			unsigned int u, unsigned int v)
{
	static struct rec_prog a, b, q;
	struct kill_child k;
	__u32 idb, idq;
	pthread_t th;

	close(rfd);
	k.fd = open(DEV0, O_RDWR);
	if (k.fd < 0)
		_exit(1);
	rec_wait_inc(rec_prog_queue(&a, NCSYNC_ENGINE_POOL), s, 1, t);
	rec_wait_inc(rec_prog_queue(&b, NCSYNC_ENGINE_ACT), s, 1, t);
	rec_wait_inc(rec_prog_queue(&b, NCSYNC_ENGINE_PE), s, 1, t);
	rec_inc(rec_prog_queue(&q, NCSYNC_ENGINE_POOL), u);
	if (submit(k.fd, &a, WD_LONG, &k.id) ||
	    submit(k.fd, &b, WD_LONG, &idb) ||
	    submit(k.fd, &q, WD_LONG, &idq))
		_exit(2);
	if (await_engine_blocked(k.fd, k.id, 0) ||
	    await_engine_blocked(k.fd, idb, 0) ||
	    await_engine_blocked(k.fd, idb, 1))
		_exit(3);
	if (pthread_create(&th, NULL, kill_child_prog_wait, &k))
		_exit(4);
	if (write(wfd, "B", 1) != 1)
		_exit(4);
	sem_wait(k.fd, v, NCSYNC_WAIT_SEM_EQ, 1, -1, NULL);
	_exit(6);	/* must not return */
}

TEST_F(faults, kill9_during_blocked_programs)
{
	const unsigned int s = 40, t = 41, u = 42, v = 43;
	struct rec_prog p = {};
	int pipefd[2], status;
	__u32 id, state;
	char c = 0;
	bool hung;
	pid_t pid;

	ASSERT_EQ(0, pipe(pipefd));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0)
		kill9_child(pipefd[0], pipefd[1], s, t, u, v);
	close(pipefd[1]);
	ASSERT_EQ(1, read(pipefd[0], &c, 1)) TH_LOG("the child failed");
	close(pipefd[0]);
	ASSERT_EQ('B', c);
	EXPECT_TRUE(await_blocked(pid, pid, SYS_ioctl));
	if (dbg_programs(0, 0) >= 0) {
		EXPECT_EQ(3, dbg_programs(0, pid));
	}

	ASSERT_EQ(0, kill(pid, SIGKILL));
	status = reap(pid, &hung);
	ASSERT_FALSE(hung) TH_LOG("the child survived SIGKILL");
	ASSERT_TRUE(WIFSIGNALED(status)) TH_LOG("wait status %#x", status);
	ASSERT_EQ(SIGKILL, WTERMSIG(status));
	/* gone by the time the child is reaped: no grace period */
	if (dbg_programs(0, 0) >= 0) {
		ASSERT_EQ(0, dbg_programs(0, pid))
			TH_LOG("the killed child's programs are still there");
	}

	sem_set(_metadata, self->fd, s, 1);
	sem_set(_metadata, self->fd, v, 1);
	rec_inc(rec_prog_queue(&p, NCSYNC_ENGINE_POOL), 44);
	rec_inc(rec_prog_queue(&p, NCSYNC_ENGINE_ACT), 44);
	rec_inc(rec_prog_queue(&p, NCSYNC_ENGINE_PE), 44);
	ASSERT_EQ(0, submit(self->fd, &p, WD_LONG, &id));
	rec_prog_free(&p);
	ASSERT_EQ(0, prog_wait(self->fd, id, LONG_MS, &state));
	EXPECT_EQ(NCSYNC_PROG_DONE, state);
	EXPECT_EQ(3, sem_get(_metadata, self->fd, 44));
	sleep_ms(20);
	EXPECT_EQ(0, sem_get(_metadata, self->fd, t))
		TH_LOG("a killed child's program ran on");
	EXPECT_EQ(0, sem_get(_metadata, self->fd, u))
		TH_LOG("a killed child's queued program ran");
	no_programs_left(_metadata);
}

/* ---------------------------------------------------------------------- */
/* close() racing                                                          */

#define RACE_ITERS	200

struct race {
	int fd;
	volatile __u32 last_id;
	/* outcomes */
	int submits, submit_errs, bad_errno;
	int waits_ebadf, waits_timedout;
	int pwaits, polls_nval;
	int bad_line;
};

static void race_bad(struct race *r, int line, int err)
{
	if (!r->bad_errno) {
		r->bad_errno = err;
		r->bad_line = line;
	}
}

static void *race_submitter(void *arg)
{
	struct race *r = arg;
	struct rec_prog p = {};
	struct rec_queue *q;
	unsigned int k;
	int ret;

	q = rec_prog_queue(&p, NCSYNC_ENGINE_POOL);
	rec_inc(q, 50);
	rec_inc(q, 50);
	for (k = 0;; k++) {
		__u32 id;

		/* every fourth program blocks; the close must cancel it */
		q->n = 2;
		if (k % 4 == 3)
			rec_wait_inc(q, 51, 1, 50);
		ret = submit(r->fd, &p, WD_SHORT, &id);
		if (ret == -EBADF)
			break;
		if (!ret) {
			r->submits++;
			__atomic_store_n(&r->last_id, id, __ATOMIC_SEQ_CST);
		} else if (ret == -EAGAIN) {
			r->submit_errs++;
			sleep_ms(1);
		} else {
			race_bad(r, __LINE__, ret);
			break;
		}
	}
	rec_prog_free(&p);
	return NULL;
}

static void *race_waiter(void *arg)
{
	struct race *r = arg;

	for (;;) {
		int ret = sem_wait(r->fd, 52, W_GE, 1, 10000, NULL);

		if (ret == -EBADF) {
			r->waits_ebadf++;
			/* the next call sees the closed descriptor */
			if (fcntl(r->fd, F_GETFD) < 0)
				break;
			continue;
		}
		if (ret == -ETIMEDOUT) {
			r->waits_timedout++;
			continue;
		}
		race_bad(r, __LINE__, ret);
		break;
	}
	return NULL;
}

static void *race_prog_waiter(void *arg)
{
	struct race *r = arg;

	for (;;) {
		__u32 id = __atomic_load_n(&r->last_id, __ATOMIC_SEQ_CST);
		__u32 state;
		int ret;

		ret = prog_wait(r->fd, id, 300, &state);
		r->pwaits++;
		if (ret == -EBADF) {
			if (fcntl(r->fd, F_GETFD) < 0)
				break;
			continue;
		}
		if (!ret || ret == -ETIMEDOUT || ret == -ENOENT) {
			if (ret == -ENOENT)
				sleep_ms(1);
			continue;
		}
		race_bad(r, __LINE__, ret);
		break;
	}
	return NULL;
}

static void *race_poller(void *arg)
{
	struct race *r = arg;

	for (;;) {
		struct pollfd pfd = { .fd = r->fd, .events = POLLIN | POLLPRI };
		struct ncsync_seq seq;
		int n = poll(&pfd, 1, 20);

		if (n < 0) {
			race_bad(r, __LINE__, -errno);
			break;
		}
		if (pfd.revents & POLLNVAL) {
			r->polls_nval++;
			break;
		}
		if (pfd.revents & ~(POLLIN | POLLRDNORM | POLLPRI)) {
			race_bad(r, __LINE__, pfd.revents);
			break;
		}
		if ((pfd.revents & POLLIN) &&
		    ioctl(r->fd, NCSYNC_IOC_ACK, &seq) && errno != EBADF) {
			race_bad(r, __LINE__, -errno);
			break;
		}
	}
	return NULL;
}

TEST_F_TIMEOUT(faults, close_races_submit_wait_poll, 900)
{
	void *(*const fn[4])(void *) = {
		race_submitter, race_waiter, race_prog_waiter, race_poller,
	};
	static const char *const name[4] = {
		"submitter", "waiter", "program waiter", "poller",
	};
	int submits = 0, ebadf = 0, timedout = 0, nval = 0;
	unsigned int i, t, seed = 1;

	for (i = 0; i < RACE_ITERS; i++) {
		struct race r = { 0 };
		pthread_t th[4];

		r.fd = open(DEV0, O_RDWR | O_CLOEXEC);
		ASSERT_LE(0, r.fd);
		for (t = 0; t < 4; t++)
			ASSERT_EQ(0, pthread_create(&th[t], NULL, fn[t], &r));
		usleep(rand_r(&seed) % 5000);
		ASSERT_EQ(0, close(r.fd));
		for (t = 0; t < 4; t++)
			join_ok(_metadata, th[t], name[t]);
		ASSERT_EQ(0, r.bad_errno)
			TH_LOG("iteration %u: unexpected result %d (%s) at line %d",
			       i, r.bad_errno, strerror(-r.bad_errno),
			       r.bad_line);
		submits += r.submits;
		ebadf += r.waits_ebadf;
		timedout += r.waits_timedout;
		nval += r.polls_nval;
		/* the descriptor's programs went with its last reference */
		if (dbg_programs(0, 0) >= 0) {
			ASSERT_EQ(0, dbg_programs(0, getpid()))
				TH_LOG("iteration %u: programs left", i);
		}
	}
	TH_LOG("%d iterations: %d programs, %d waits ended by close, %d by their deadline, %d polls saw the close",
	       RACE_ITERS, submits, ebadf, timedout, nval);
	EXPECT_EQ(RACE_ITERS, nval);
	/*
	 * Every wait ends with the close, even one that was entering the
	 * kernel as the close ran (engines.rst, "Close and process exit"):
	 * none may sleep to its deadline.
	 */
	EXPECT_EQ(0, timedout);
	no_programs_left(_metadata);
}

/* ---------------------------------------------------------------------- */
/* close() while a wait is entering the kernel                             */

/*
 * The window between the ioctl's fdget() and the wait being listed for
 * close() to find is a few instructions wide.  userfaultfd holds a wait
 * there: its argument is on a page that is not there yet, so the ioctl
 * sleeps in copy_from_user() until the test supplies the page, after the
 * close.
 */
struct late_wait {
	int fd;
	unsigned long cmd;
	void *page;
	int ret;
	pthread_t th;
};

static void *late_wait_main(void *arg)
{
	struct late_wait *lw = arg;

	int ret = ioctl(lw->fd, lw->cmd, lw->page) ? -errno : 0;

	__atomic_store_n(&lw->ret, ret, __ATOMIC_SEQ_CST);
	return NULL;
}

/*
 * Start a thread's ioctl @cmd on @fd with its argument on a missing page
 * registered with a new userfaultfd; return when the ioctl is held in the
 * page fault.  The caller then calls late_wait_supply() and
 * late_wait_end().  Returns false (the test is skipped) when userfaultfd
 * is not available.
 */
static bool late_wait_start(struct __test_metadata *_metadata,
			    struct late_wait *lw, int *uffd, int fd,
			    unsigned long cmd)
{
	long psize = sysconf(_SC_PAGESIZE);
	struct uffdio_api api = { .api = UFFD_API };
	struct uffdio_register reg = { 0 };
	struct pollfd pfd;
	struct uffd_msg msg;

	*uffd = syscall(SYS_userfaultfd, O_CLOEXEC);
	if (*uffd < 0)
		return false;
	EXPECT_EQ(0, ioctl(*uffd, UFFDIO_API, &api));
	lw->page = mmap(NULL, psize, PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	EXPECT_NE(MAP_FAILED, lw->page);
	reg.range.start = (uintptr_t)lw->page;
	reg.range.len = psize;
	reg.mode = UFFDIO_REGISTER_MODE_MISSING;
	EXPECT_EQ(0, ioctl(*uffd, UFFDIO_REGISTER, &reg));
	lw->fd = fd;
	lw->cmd = cmd;
	lw->ret = 1;
	EXPECT_EQ(0, pthread_create(&lw->th, NULL, late_wait_main, lw));

	pfd.fd = *uffd;
	pfd.events = POLLIN;
	EXPECT_EQ(1, poll(&pfd, 1, LONG_MS)) TH_LOG("the ioctl never faulted");
	EXPECT_EQ(sizeof(msg), read(*uffd, &msg, sizeof(msg)));
	EXPECT_EQ(UFFD_EVENT_PAGEFAULT, msg.event);
	return true;
}

/* Supply the page, with @arg (@len bytes) at its start: the ioctl goes on. */
static void late_wait_supply(struct __test_metadata *_metadata,
			     struct late_wait *lw, int uffd, const void *arg,
			     size_t len)
{
	long psize = sysconf(_SC_PAGESIZE);
	void *src = calloc(1, psize);
	struct uffdio_copy copy = {
		.dst = (uintptr_t)lw->page,
		.src = (uintptr_t)src,
		.len = psize,
	};

	ASSERT_NE(NULL, src);
	memcpy(src, arg, len);
	EXPECT_EQ(0, ioctl(uffd, UFFDIO_COPY, &copy));
	free(src);
}

/* Wait for the ioctl to end; free what late_wait_start() made. */
static void late_wait_end(struct __test_metadata *_metadata,
			  struct late_wait *lw, int uffd)
{
	join_ok(_metadata, lw->th, "the late wait");
	munmap(lw->page, sysconf(_SC_PAGESIZE));
	close(uffd);
}

#define LATE_NO_UFFD	INT_MIN

/*
 * Hold ioctl @cmd on @fd, with @arg (@len bytes), in its page fault, close
 * @fd, let the ioctl go on: its result (0 or -errno), or LATE_NO_UFFD.
 */
static int late_wait_after_close(struct __test_metadata *_metadata, int fd,
				 unsigned long cmd, const void *arg,
				 size_t len)
{
	struct late_wait lw;
	int uffd;

	if (!late_wait_start(_metadata, &lw, &uffd, fd, cmd)) {
		close(fd);
		return LATE_NO_UFFD;
	}
	EXPECT_EQ(0, close(fd));
	late_wait_supply(_metadata, &lw, uffd, arg, len);
	late_wait_end(_metadata, &lw, uffd);
	return lw.ret;
}

/* A wait on a descriptor closed while the wait was entering: EBADF. */
TEST_F(faults, close_while_wait_enters_kernel)
{
	struct ncsync_wait w = {
		.bank = NCSYNC_BANK_SEM, .mode = W_GE, .index = 60,
		.value = 1, .deadline = deadline_ms(LONG_MS),
	};
	int fd, ret;

	fd = open(DEV0, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, fd);
	ret = late_wait_after_close(_metadata, fd, NCSYNC_IOC_WAIT, &w,
				    sizeof(w));
	if (ret == LATE_NO_UFFD)
		SKIP(return, "userfaultfd is not available");
	EXPECT_EQ(-EBADF, ret) TH_LOG("the wait ended with %d (%s)",
				      ret, strerror(-ret));
}

/* The same for NCSYNC_IOC_PROG_WAIT on a blocked program. */
TEST_F(faults, close_while_prog_wait_enters_kernel)
{
	struct ncsync_prog_wait pw = { .deadline = deadline_ms(LONG_MS) };
	struct rec_prog p = {};
	int fd, ret;

	fd = open(DEV0, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, fd);
	rec_wait_inc(rec_prog_queue(&p, NCSYNC_ENGINE_POOL), 61, 1, 62);
	ASSERT_EQ(0, submit(fd, &p, WD_LONG, &pw.id));
	rec_prog_free(&p);
	ASSERT_EQ(0, await_engine_blocked(fd, pw.id, 0));
	ret = late_wait_after_close(_metadata, fd, NCSYNC_IOC_PROG_WAIT, &pw,
				    sizeof(pw));
	if (ret == LATE_NO_UFFD)
		SKIP(return, "userfaultfd is not available");
	EXPECT_EQ(-EBADF, ret) TH_LOG("the wait ended with %d (%s)",
				      ret, strerror(-ret));
	/* the last reference went with the ioctl: the program is stopped */
	no_programs_left(_metadata);
}

/*
 * With a dup() of the descriptor left, such a late wait goes on, as one
 * started after the close would, and ends on its condition.
 */
TEST_F(faults, late_wait_goes_on_with_a_dup_left)
{
	struct ncsync_wait w = {
		.bank = NCSYNC_BANK_SEM, .mode = W_GE, .index = 63,
		.value = 1, .deadline = deadline_ms(LONG_MS),
	};
	struct late_wait lw;
	int fd, dupfd, uffd;

	fd = open(DEV0, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, fd);
	dupfd = dup(fd);
	ASSERT_LE(0, dupfd);
	if (!late_wait_start(_metadata, &lw, &uffd, fd, NCSYNC_IOC_WAIT)) {
		close(fd);
		close(dupfd);
		SKIP(return, "userfaultfd is not available");
	}
	ASSERT_EQ(0, close(fd));
	sem_set(_metadata, self->fd, 63, 0);
	late_wait_supply(_metadata, &lw, uffd, &w, sizeof(w));
	/* the wait sleeps on: its process still has a descriptor */
	sleep_ms(200);
	EXPECT_EQ(1, __atomic_load_n(&lw.ret, __ATOMIC_SEQ_CST))
		TH_LOG("the wait ended early: %d", lw.ret);
	sem_set(_metadata, self->fd, 63, 1);
	late_wait_end(_metadata, &lw, uffd);
	EXPECT_EQ(0, lw.ret) TH_LOG("the wait ended with %d (%s)",
				    lw.ret, strerror(-lw.ret));
	close(dupfd);
}

/* ---------------------------------------------------------------------- */
/* fork() with the window mapped                                           */

static bool map_sem_is(const volatile __s32 *csr, unsigned int i, __s32 v)
{
	__s64 end = now_ns() + LONG_MS * NSEC_PER_MSEC;

	while (csr[(NCSYNC_CSR_SEM_READ >> 2) + i] != v) {
		if (now_ns() > end)
			return false;
		usleep(500);
	}
	return true;
}

/*
 * The child of fork_with_window_mapped: through the mappings @csr and @mem
 * and the descriptor @fd it inherited, see the parent's update, make its
 * own, and leave a blocked program behind.  Its exit code says where it
 * failed.
 */
static void fork_window_child(int fd, const volatile __s32 *csr,
			      volatile __u8 *mem)
{
	struct rec_prog p = {};
	__u32 id;

	/* the parent's update, seen through the inherited mapping */
	if (!map_sem_is(csr, 5, 42))
		_exit(10);
	if (sem_op(fd, NCSYNC_OP_SET, 6, 43, NULL))
		_exit(11);
	mem[0] = 0x5a;
	/* a program of the shared open file outlives the child */
	rec_wait_inc(rec_prog_queue(&p, NCSYNC_ENGINE_POOL), 7, 1, 8);
	if (submit(fd, &p, WD_LONG, &id))
		_exit(12);
	if (await_engine_blocked(fd, id, 0))
		_exit(13);
	if (sem_op(fd, NCSYNC_OP_SET, 9, 1, NULL))
		_exit(14);
	close(fd);
	_exit(0);	/* the mappings go with the child */
}

TEST_F(faults, fork_with_window_mapped)
{
	volatile __s32 *csr;
	volatile __u8 *mem;
	int fd2;
	pid_t pid;

	csr = mmap(NULL, NCSYNC_CSR_SIZE, PROT_READ, MAP_SHARED, self->fd, 0);
	ASSERT_NE(MAP_FAILED, csr);
	mem = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, self->fd,
		   NCSYNC_DEVMEM_OFFSET);
	ASSERT_NE(MAP_FAILED, mem);
	mem[0] = 0;

	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0)
		fork_window_child(self->fd, csr, mem);

	sem_set(_metadata, self->fd, 5, 42);
	EXPECT_TRUE(map_sem_is(csr, 6, 43)) TH_LOG("child's update not seen");
	EXPECT_TRUE(map_sem_is(csr, 9, 1));
	EXPECT_EQ(0x5a, mem[0]);
	reap_ok(_metadata, pid, "the child");

	/* the child's program, still blocked, runs once released */
	sem_set(_metadata, self->fd, 7, 1);
	EXPECT_TRUE(map_sem_is(csr, 8, 1)) TH_LOG("the child's program");

	/* the parent goes on; then close with the window still mapped */
	sem_set(_metadata, self->fd, 10, 44);
	EXPECT_TRUE(map_sem_is(csr, 10, 44));
	ASSERT_EQ(0, close(self->fd));
	self->fd = -1;
	fd2 = open(DEV0, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, fd2);
	sem_set(_metadata, fd2, 11, 45);
	EXPECT_TRUE(map_sem_is(csr, 11, 45)) TH_LOG("mapping after close");
	mem[1] = 0x77;
	ASSERT_EQ(0, munmap((void *)csr, NCSYNC_CSR_SIZE));
	ASSERT_EQ(0, munmap((void *)mem, 4096));
	/* the device memory stays the core's */
	mem = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd2,
		   NCSYNC_DEVMEM_OFFSET);
	ASSERT_NE(MAP_FAILED, mem);
	EXPECT_EQ(0x5a, mem[0]);
	EXPECT_EQ(0x77, mem[1]);
	ASSERT_EQ(0, munmap((void *)mem, 4096));
	close(fd2);
	no_programs_left(_metadata);
}

/* ---------------------------------------------------------------------- */
/* Reset during submissions                                                */

#define RESET_PROGS	120

struct reset_race {
	int fd;
	unsigned int which;
	volatile int stop;
	int done, cancelled, timed_out, other;
	int err, err_line;
};

static void *reset_submitter(void *arg)
{
	struct reset_race *r = arg;
	static const __u8 engines[2][2] = {
		{ NCSYNC_ENGINE_POOL, NCSYNC_ENGINE_ACT },
		{ NCSYNC_ENGINE_PE, NCSYNC_ENGINE_DVE },
	};
	unsigned int k, e, i;

	for (k = 0; k < RESET_PROGS; k++) {
		struct rec_prog p = {};
		__u32 id, state;
		int ret;

		for (e = 0; e < 2; e++) {
			struct rec_queue *q;

			q = rec_prog_queue(&p, engines[r->which][e]);

			for (i = 0; i < 8; i++)
				rec_inc2(q, 60 + r->which, 62);
			/* one in five blocks until a reset ends it */
			if (k % 5 == 4)
				rec_wait_inc(q, 63, 1, 62);
		}
		ret = submit(r->fd, &p, WD_LONG, &id);
		rec_prog_free(&p);
		if (ret) {
			r->err = ret;
			r->err_line = __LINE__;
			break;
		}
		ret = prog_wait(r->fd, id, LONG_MS, &state);
		if (ret) {
			r->err = ret;
			r->err_line = __LINE__;
			break;
		}
		if (state == NCSYNC_PROG_DONE)
			r->done++;
		else if (state == NCSYNC_PROG_CANCELLED)
			r->cancelled++;
		else if (state == NCSYNC_PROG_TIMED_OUT)
			r->timed_out++;
		else
			r->other++;
		ret = release(r->fd, id);
		if (ret) {
			r->err = ret;
			r->err_line = __LINE__;
			break;
		}
	}
	return NULL;
}

static void *reset_resetter(void *arg)
{
	struct reset_race *r = arg;
	unsigned int seed = 7;

	while (!r->stop) {
		int ret = core_reset(r->fd);

		if (ret) {
			r->err = ret;
			r->err_line = __LINE__;
			break;
		}
		r->done++;
		usleep(200 + rand_r(&seed) % 3000);
	}
	return NULL;
}

static void *reset_waiter(void *arg)
{
	struct reset_race *r = arg;

	while (!r->stop) {
		int ret = sem_wait(r->fd, 64, W_GE, 1, 200, NULL);

		if (ret == -ECANCELED) {
			r->cancelled++;
		} else if (ret == -ETIMEDOUT) {
			r->timed_out++;
		} else {
			r->err = ret;
			r->err_line = __LINE__;
			break;
		}
	}
	return NULL;
}

TEST_F_TIMEOUT(faults, reset_during_submission, 600)
{
	struct reset_race sub[2] = { 0 }, rs = { 0 }, wt = { 0 };
	pthread_t th[4];
	struct rec_prog p = {};
	unsigned int i;
	__u32 id, state;

	for (i = 0; i < 2; i++) {
		sub[i].fd = open(DEV0, O_RDWR | O_CLOEXEC);
		ASSERT_LE(0, sub[i].fd);
		sub[i].which = i;
		ASSERT_EQ(0, pthread_create(&th[i], NULL, reset_submitter,
					    &sub[i]));
	}
	rs.fd = self->fd;
	wt.fd = open(DEV0, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, wt.fd);
	ASSERT_EQ(0, pthread_create(&th[2], NULL, reset_resetter, &rs));
	ASSERT_EQ(0, pthread_create(&th[3], NULL, reset_waiter, &wt));
	for (i = 0; i < 2; i++)
		join_ok(_metadata, th[i], "a submitter");
	rs.stop = 1;
	wt.stop = 1;
	join_ok(_metadata, th[2], "the resetter");
	join_ok(_metadata, th[3], "the waiter");

	for (i = 0; i < 2; i++) {
		EXPECT_EQ(0, sub[i].err)
			TH_LOG("submitter %u: %s at line %d", i,
			       strerror(-sub[i].err), sub[i].err_line);
		EXPECT_EQ(0, sub[i].other);
		EXPECT_EQ(0, sub[i].timed_out)
			TH_LOG("submitter %u: a program outlived the resets", i);
		EXPECT_EQ(RESET_PROGS, sub[i].done + sub[i].cancelled +
				       sub[i].timed_out);
		TH_LOG("submitter %u: %d done, %d cancelled", i, sub[i].done,
		       sub[i].cancelled);
		close(sub[i].fd);
	}
	EXPECT_EQ(0, rs.err) TH_LOG("reset: %s", strerror(-rs.err));
	EXPECT_EQ(0, wt.err) TH_LOG("wait: %s", strerror(-wt.err));
	TH_LOG("%d resets; the waiter: %d cancelled, %d timed out", rs.done,
	       wt.cancelled, wt.timed_out);
	close(wt.fd);

	/* the core works: a program runs to its end */
	ASSERT_EQ(0, core_reset(self->fd));
	rec_inc(rec_prog_queue(&p, NCSYNC_ENGINE_POOL), 65);
	rec_inc(rec_prog_queue(&p, NCSYNC_ENGINE_DVE), 65);
	ASSERT_EQ(0, submit(self->fd, &p, WD_LONG, &id));
	rec_prog_free(&p);
	ASSERT_EQ(0, prog_wait(self->fd, id, LONG_MS, &state));
	EXPECT_EQ(NCSYNC_PROG_DONE, state);
	EXPECT_EQ(2, sem_get(_metadata, self->fd, 65));
	no_programs_left(_metadata);
}

/* ---------------------------------------------------------------------- */
/* Many processes                                                          */

#define NPROC		8
#define NPROG		8
#define NREC		10
#define SEM_TOTAL	100

static int many_child(unsigned int c, unsigned int core, int gate)
{
	__u32 ids[NPROG], state;
	char path[32], x;
	unsigned int k, e, i;
	__s32 result;
	int fd;

	snprintf(path, sizeof(path), DEV_FMT, core);
	fd = open(path, O_RDWR);
	if (fd < 0)
		return 10;
	if (read(gate, &x, 1) != 0)
		return 11;
	for (k = 0; k < NPROG; k++) {
		static struct rec_prog p;

		rec_prog_free(&p);
		for (e = 0; e < 2; e++) {
			struct rec_queue *q;

			q = rec_prog_queue(&p, engine_ids[(c + e + k) % 5]);
			for (i = 0; i < NREC; i++)
				rec_inc2(q, SEM_TOTAL, SEM_TOTAL + 1 + c);
		}
		if (submit(fd, &p, WD_LONG, &ids[k]))
			return 12;
	}
	/* a wait for our own total, then every program's end */
	if (sem_wait(fd, SEM_TOTAL + 1 + c, NCSYNC_WAIT_SEM_EQ,
		     NPROG * 2 * NREC, LONG_MS * 3, &result))
		return 13;
	for (k = 0; k < NPROG; k++) {
		if (prog_wait(fd, ids[k], LONG_MS, &state))
			return 14;
		if (state != NCSYNC_PROG_DONE)
			return 15;
		/* leave the last one for close() to forget */
		if (k < NPROG - 1 && release(fd, ids[k]))
			return 16;
	}
	close(fd);
	return 0;
}

TEST_F_TIMEOUT(faults, many_processes_with_programs, 600)
{
	unsigned int c, ncores = num_cores(), per_core[64] = { 0 };
	pid_t pids[NPROC];
	int gate[2], fds[64];

	if (ncores > 64)
		ncores = 64;
	ASSERT_EQ(0, pipe(gate));
	for (c = 0; c < NPROC; c++) {
		per_core[c % ncores]++;
		pids[c] = fork();
		ASSERT_LE(0, pids[c]);
		if (pids[c] == 0) {
			close(gate[1]);
			_exit(many_child(c, c % ncores, gate[0]));
		}
	}
	for (c = 0; c < ncores && c < NPROC; c++) {
		char path[32];

		snprintf(path, sizeof(path), DEV_FMT, c);
		fds[c] = open(path, O_RDWR | O_CLOEXEC);
		ASSERT_LE(0, fds[c]);
		if (c)
			ASSERT_EQ(0, core_reset(fds[c]));
	}
	close(gate[0]);
	close(gate[1]);	/* go */
	for (c = 0; c < NPROC; c++) {
		char what[32];

		snprintf(what, sizeof(what), "child %u", c);
		reap_ok(_metadata, pids[c], what);
	}
	for (c = 0; c < ncores && c < NPROC; c++) {
		EXPECT_EQ(per_core[c] * NPROG * 2 * NREC,
			  sem_get(_metadata, fds[c], SEM_TOTAL))
			TH_LOG("core %u", c);
		close(fds[c]);
	}
	for (c = 0; c < NPROC; c++) {
		char path[32];
		int fd;

		snprintf(path, sizeof(path), DEV_FMT, c % ncores);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		ASSERT_LE(0, fd);
		EXPECT_EQ(NPROG * 2 * NREC,
			  sem_get(_metadata, fd, SEM_TOTAL + 1 + c))
			TH_LOG("child %u", c);
		close(fd);
	}
	no_programs_left(_metadata);
}

/* ---------------------------------------------------------------------- */
/* A descriptor left open                                                  */

#define OTHERS		4
#define ROUNDS		10

static int other_worker(unsigned int w)
{
	static const __u8 engines[4] = {
		NCSYNC_ENGINE_ACT, NCSYNC_ENGINE_PE, NCSYNC_ENGINE_DVE,
		NCSYNC_ENGINE_SP,
	};
	unsigned int k, i;

	for (k = 0; k < ROUNDS; k++) {
		struct rec_prog p = {};
		struct rec_queue *q;
		__u32 id, state;
		int fd = open(DEV0, O_RDWR);
		int ret;

		if (fd < 0)
			return 10;
		q = rec_prog_queue(&p, engines[(w + k) % 4]);
		for (i = 0; i < 5; i++)
			rec_inc(q, 30);
		ret = submit(fd, &p, WD_LONG, &id);
		rec_prog_free(&p);
		if (ret)
			return 11;
		if (prog_wait(fd, id, LONG_MS, &state) ||
		    state != NCSYNC_PROG_DONE)
			return 12;
		if (sem_op(fd, NCSYNC_OP_INC, 31, 1, NULL))
			return 13;
		close(fd);
	}
	return 0;
}

TEST_F_TIMEOUT(faults, descriptor_left_open_while_others_work, 300)
{
	struct ncsync_prog_status before, after;
	struct waiter w;
	struct rec_prog p = {};
	pid_t pids[OTHERS];
	unsigned int i;
	__u32 id, state;
	int idle;

	/* left open: a blocked program, a blocked wait, an idle descriptor */
	rec_wait_inc(rec_prog_queue(&p, NCSYNC_ENGINE_POOL), 20, 1, 21);
	ASSERT_EQ(0, submit(self->fd, &p, 10 * WD_LONG, &id));
	rec_prog_free(&p);
	ASSERT_EQ(0, await_engine_blocked(self->fd, id, 0));
	ASSERT_EQ(0, prog_status(self->fd, id, 0, &before, NULL));
	waiter_start(_metadata, &w, self->fd, 22, NCSYNC_WAIT_SEM_EQ, 7,
		     10 * LONG_MS);
	idle = open(DEV0, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, idle);

	for (i = 0; i < OTHERS; i++) {
		pids[i] = fork();
		ASSERT_LE(0, pids[i]);
		if (pids[i] == 0)
			_exit(other_worker(i));
	}
	for (i = 0; i < OTHERS; i++)
		reap_ok(_metadata, pids[i], "a worker");
	EXPECT_EQ(OTHERS * ROUNDS * 5, sem_get(_metadata, self->fd, 30));
	EXPECT_EQ(OTHERS * ROUNDS, sem_get(_metadata, self->fd, 31));

	/* nothing of ours moved */
	ASSERT_EQ(0, prog_status(self->fd, id, 0, &after, NULL));
	EXPECT_EQ(NCSYNC_PROG_RUNNING, after.state);
	EXPECT_EQ(NCSYNC_ENG_BLOCKED, after.engines[0].state);
	EXPECT_EQ(0, memcmp(&before.engines[0], &after.engines[0],
			    sizeof(before.engines[0])));
	EXPECT_FALSE(__atomic_load_n(&w.done, __ATOMIC_SEQ_CST))
		TH_LOG("the wait left open ended: %d", w.ret);

	sem_set(_metadata, self->fd, 22, 7);
	join_ok(_metadata, w.th, "the waiter left open");
	EXPECT_EQ(0, w.ret) TH_LOG("%s", strerror(-w.ret));
	sem_set(_metadata, self->fd, 20, 1);
	ASSERT_EQ(0, prog_wait(self->fd, id, LONG_MS, &state));
	EXPECT_EQ(NCSYNC_PROG_DONE, state);
	EXPECT_EQ(1, sem_get(_metadata, self->fd, 21));
	close(idle);
	ASSERT_EQ(0, close(self->fd));
	self->fd = -1;
	no_programs_left(_metadata);
}

/* ---------------------------------------------------------------------- */
/* The activity of a load/unload cycle (ncsync_faults_test.sh)            */

struct cycle_waiter {
	int fd;
	int ret;
	pid_t tid;
};

static void *cycle_waiter_main(void *arg)
{
	struct cycle_waiter *cw = arg;

	__atomic_store_n(&cw->tid, my_tid(), __ATOMIC_SEQ_CST);
	cw->ret = sem_wait(cw->fd, 5, NCSYNC_WAIT_SEM_EQ, 1, LONG_MS, NULL);
	return NULL;
}

static int __attribute__((format(printf, 2, 3)))
cycle_fail(int n, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "cycle activity: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n");
	return n;
}

/*
 * Open, a program that ends, a program left blocked, a mapping, a wait
 * left blocked in another thread; then close with all of that in flight.
 * The module must unload right after this process exits.
 */
static int cycle_activity_core(unsigned int core)
{
	struct cycle_waiter cw = { 0 };
	struct rec_prog a = {}, b = {};
	struct ncsync_info info;
	struct rec_queue *q;
	__u32 id, state;
	char path[32];
	pthread_t th;
	__s32 v = 0;
	void *map;
	int ret;

	snprintf(path, sizeof(path), DEV_FMT, core);
	cw.fd = open(path, O_RDWR | O_CLOEXEC);
	if (cw.fd < 0)
		return cycle_fail(10, "open %s: %s", path, strerror(errno));
	if (ioctl(cw.fd, NCSYNC_IOC_INFO, &info) || info.core != core)
		return cycle_fail(11, "INFO");
	if (core_reset(cw.fd) || sem_op(cw.fd, NCSYNC_OP_SET, 1, 5, NULL))
		return cycle_fail(12, "reset or set");
	map = mmap(NULL, NCSYNC_CSR_SIZE, PROT_READ, MAP_SHARED, cw.fd, 0);
	if (map == MAP_FAILED ||
	    ((__s32 *)map)[(NCSYNC_CSR_SEM_READ >> 2) + 1] != 5)
		return cycle_fail(13, "mapping");

	q = rec_prog_queue(&a, NCSYNC_ENGINE_POOL);
	rec_inc(q, 2);
	rec_inc(q, 2);
	rec_inc(q, 2);
	rec_wait_inc(q, 2, 3, 3);
	rec_inc(rec_prog_queue(&a, NCSYNC_ENGINE_SP), 3);
	ret = submit(cw.fd, &a, WD_LONG, &id);
	rec_prog_free(&a);
	if (ret)
		return cycle_fail(14, "submit: %s", strerror(-ret));
	if (prog_wait(cw.fd, id, LONG_MS, &state) || state != NCSYNC_PROG_DONE)
		return cycle_fail(15, "program did not end DONE");
	if (pread(cw.fd, &v, 4, NCSYNC_CSR_SEM_READ + 4 * 3) != 4 || v != 2)
		return cycle_fail(16, "sem 3 is %d", v);

	rec_wait_inc(rec_prog_queue(&b, NCSYNC_ENGINE_ACT), 4, 1, 4);
	ret = submit(cw.fd, &b, WD_LONG, &id);
	rec_prog_free(&b);
	if (ret || await_engine_blocked(cw.fd, id, 0))
		return cycle_fail(17, "blocked program");
	if (pthread_create(&th, NULL, cycle_waiter_main, &cw))
		return cycle_fail(18, "pthread_create");
	while (!__atomic_load_n(&cw.tid, __ATOMIC_SEQ_CST))
		usleep(100);
	await_blocked(getpid(), cw.tid, SYS_ioctl);
	close(cw.fd);
	pthread_join(th, NULL);
	if (cw.ret != -EBADF)
		return cycle_fail(19, "the wait ended with %d, not EBADF", cw.ret);
	munmap(map, NCSYNC_CSR_SIZE);
	return 0;
}

static int cycle_activity(void)
{
	unsigned int c, n = num_cores();
	int ret;

	for (c = 0; c < n && c < 2; c++) {
		ret = cycle_activity_core(c);
		if (ret)
			return ret;
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "--cycle-activity"))
		return cycle_activity();
	return test_harness_run(argc, argv);
}
