// SPDX-License-Identifier: GPL-2.0
/*
 * ncsync selftests of the engines of core 0 (ncsync_engine.h): P()
 * atomicity across engines, the stress tests of lost wake-ups and updates,
 * waits woken from outside the engine (pwrite, ioctl, a later program),
 * multi-engine protocols (a token ring, a barrier loop).
 *
 * Run inside the test VM:
 *   tools/vm-run build/selftests/ncsync_engine_stress_test
 */
#include "ncsync_engine.h"

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

TEST_HARNESS_MAIN
