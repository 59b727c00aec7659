// SPDX-License-Identifier: GPL-2.0
/*
 * Hostile wake-ups (ncsync_hostile.h): a change wakes only the waiters of
 * what changed whose condition it made true (a barrier's earlier arrivals
 * wake nobody), and a descriptor's pollers once until it acknowledges
 * (ncsync_stats.wakeups).
 *
 * Run inside the test VM:  tools/vm-run build/selftests/ncsync_hostile_wake_test
 */
#include "ncsync_hostile.h"

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

TEST_HARNESS_MAIN
