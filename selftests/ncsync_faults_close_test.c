// SPDX-License-Identifier: GPL-2.0
/*
 * Faults the driver must survive (ncsync_faults.h): kill -9 of a process
 * blocked in NCSYNC_IOC_WAIT, and of one whose programs are blocked; close()
 * racing submissions, waits, program waits and poll() in other threads,
 * and close() while a wait is held between entering the ioctl and sleeping.
 *
 * Run inside the test VM:  tools/vm-run build/selftests/ncsync_faults_close_test
 */
#include "ncsync_faults.h"

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

TEST_HARNESS_MAIN
