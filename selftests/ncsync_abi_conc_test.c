// SPDX-License-Identifier: GPL-2.0
/*
 * ncsync selftests of the /dev/ncsyncN ABI (ncsync_abi.h): concurrency:
 * increments from threads and processes, ping-pong hand-offs, a producer
 * and a consumer; a lost update or wake-up fails.
 *
 * Run inside the test VM:
 *   tools/vm-run build/selftests/ncsync_abi_conc_test
 */
#include "ncsync_abi.h"

/* ---------------------------------------------------------------------- */
/* Concurrency                                                           */

#define CONC_THREADS	8
#define CONC_ITERS	2000

struct inc_ctx {
	pthread_t th;
	int fd;
	/* 0 OP INC, 1 pwrite INC, 2 OP DEC, 3 pwrite DEC, 4 BATCH +a -1 +1 */
	int kind;
	__u32 index;
	__u32 amount;
	int iters;
	int err;
};

static void *inc_main(void *arg)
{
	struct inc_ctx *c = arg;
	struct ncsync_op ops[3];
	int i, r = 0;

	for (i = 0; i < c->iters && !r; i++) {
		switch (c->kind) {
		case 0:
			r = do_op(c->fd, SEM, NCSYNC_OP_INC, c->index,
				  c->amount, NULL);
			break;
		case 1:
			r = wr32(c->fd, SEM_INC(c->index), c->amount);
			break;
		case 2:
			r = do_op(c->fd, SEM, NCSYNC_OP_DEC, c->index,
				  c->amount, NULL);
			break;
		case 3:
			r = wr32(c->fd, SEM_DEC(c->index), c->amount);
			break;
		case 4:
			ops[0] = mkop(SEM, NCSYNC_OP_INC, c->index, c->amount);
			ops[1] = mkop(SEM, NCSYNC_OP_DEC, c->index, 1);
			ops[2] = mkop(SEM, NCSYNC_OP_INC, c->index, 1);
			r = do_batch(c->fd, ops, 3, 0);
			break;
		}
	}
	c->err = r;
	return NULL;
}

static void run_incs(struct __test_metadata *_metadata, struct inc_ctx *c,
		     int n)
{
	int i;

	for (i = 0; i < n; i++) {
		ASSERT_EQ(0, pthread_create(&c[i].th, NULL, inc_main, &c[i]));
	}
	for (i = 0; i < n; i++)
		pthread_join(c[i].th, NULL);
	for (i = 0; i < n; i++) {
		EXPECT_EQ(0, c[i].err) TH_LOG("thread %d: %s", i,
					      strerror(-c[i].err));
	}
}

TEST_F(core, conc_threads_ioctl_inc)
{
	struct inc_ctx c[CONC_THREADS];
	int i;

	for (i = 0; i < CONC_THREADS; i++)
		c[i] = (struct inc_ctx){ .fd = self->fd, .kind = 0,
					 .index = 60, .amount = 1,
					 .iters = CONC_ITERS };
	run_incs(_metadata, c, CONC_THREADS);
	EXPECT_EQ(CONC_THREADS * CONC_ITERS, sem_get(_metadata, self->fd, 60));
}

TEST_F(core, conc_threads_pwrite_inc)
{
	struct inc_ctx c[CONC_THREADS];
	int i;

	for (i = 0; i < CONC_THREADS; i++)
		c[i] = (struct inc_ctx){ .fd = self->fd, .kind = 1,
					 .index = 61, .amount = 1,
					 .iters = CONC_ITERS };
	run_incs(_metadata, c, CONC_THREADS);
	EXPECT_EQ(CONC_THREADS * CONC_ITERS, sem_get(_metadata, self->fd, 61));
}

TEST_F(core, conc_threads_mixed)
{
	struct inc_ctx c[10];
	int fd2 = open_dev(_metadata, 0, O_RDWR);
	int i;

	/* 2 x 1000 x (+3 OP, +3 pwrite, -1 OP, -1 pwrite, +1 batch) = 10000 */
	for (i = 0; i < 10; i++)
		c[i] = (struct inc_ctx){ .fd = i % 2 ? fd2 : self->fd,
					 .kind = i % 5, .index = 62,
					 .amount = i % 5 < 2 ? 3 : 1,
					 .iters = 1000 };
	c[4].amount = 1;
	c[9].amount = 1;
	run_incs(_metadata, c, 10);
	EXPECT_EQ(10000, sem_get(_metadata, self->fd, 62));
	close(fd2);
}

TEST_F(core, conc_processes_inc)
{
	pid_t pid[4];
	int i, j;

	for (i = 0; i < 4; i++) {
		pid[i] = fork();
		ASSERT_LE(0, pid[i]);
		if (pid[i] == 0) {
			int fd = open(DEV0, O_RDWR | O_CLOEXEC);

			if (fd < 0)
				_exit(2);
			for (j = 0; j < CONC_ITERS; j++) {
				if (j % 2 ? wr32(fd, SEM_INC(63), 1) :
				    do_op(fd, SEM, NCSYNC_OP_INC, 63, 1, NULL))
					_exit(1);
			}
			_exit(0);
		}
	}
	for (i = 0; i < 4; i++) {
		EXPECT_EQ(0, reap(pid[i])) TH_LOG("child %d", i);
	}
	EXPECT_EQ(4 * CONC_ITERS, sem_get(_metadata, self->fd, 63));
}

/* Two threads hand a token back and forth; any lost wake-up times out. */
struct pingpong {
	pthread_t th;
	int fd;
	int parity;
	int rounds;
	bool events;
	int err;
	int at;
};

#define PP_SEM		70
#define PP_EVT_A	70
#define PP_EVT_B	71

static void *pingpong_main(void *arg)
{
	struct pingpong *p = arg;
	__s32 res = 0;
	int i, r = 0;

	for (i = 0; i < p->rounds && !r; i++) {
		if (!p->events) {
			__s32 want = 2 * i + p->parity;

			r = do_wait(p->fd, SEM, NCSYNC_WAIT_SEM_EQ, PP_SEM,
				    want, LONG_MS, &res);
			if (!r && res != want)
				r = -EPROTO;
			if (!r)
				r = do_op(p->fd, SEM, NCSYNC_OP_INC, PP_SEM, 1,
					  NULL);
		} else if (p->parity) {
			r = do_wait(p->fd, EVENT,
				    NCSYNC_WAIT_EVT_SET_THEN_CLEAR, PP_EVT_A, 0,
				    LONG_MS, NULL);
			if (!r)
				r = do_op(p->fd, EVENT, NCSYNC_OP_SET, PP_EVT_B,
					  0, NULL);
		} else {
			r = do_op(p->fd, EVENT, NCSYNC_OP_SET, PP_EVT_A, 0,
				  NULL);
			if (!r)
				r = do_wait(p->fd, EVENT,
					    NCSYNC_WAIT_EVT_SET_THEN_CLEAR,
					    PP_EVT_B, 0, LONG_MS, NULL);
		}
		p->at = i;
	}
	p->err = r;
	/* wake the partner (ECANCELED) rather than let it time out */
	if (r)
		do_reset(p->fd, 0, 0);
	return NULL;
}

static void run_pingpong(struct __test_metadata *_metadata, int fd,
			 bool events, int rounds)
{
	struct pingpong p[2];
	int i;

	for (i = 0; i < 2; i++) {
		p[i] = (struct pingpong){ .fd = fd, .parity = i,
					  .rounds = rounds, .events = events };
		ASSERT_EQ(0, pthread_create(&p[i].th, NULL, pingpong_main,
					    &p[i]));
	}
	for (i = 0; i < 2; i++)
		pthread_join(p[i].th, NULL);
	for (i = 0; i < 2; i++) {
		EXPECT_EQ(0, p[i].err) TH_LOG("thread %d round %d: %s", i,
					      p[i].at, strerror(-p[i].err));
	}
}

TEST_F(core, conc_pingpong_sem)
{
	run_pingpong(_metadata, self->fd, false, 1000);
	EXPECT_EQ(2000, sem_get(_metadata, self->fd, PP_SEM));
}

TEST_F(core, conc_pingpong_event)
{
	struct ncsync_stats s0, s1;

	stats_get(_metadata, self->fd, &s0);
	run_pingpong(_metadata, self->fd, true, 1000);
	stats_get(_metadata, self->fd, &s1);
	EXPECT_EQ(0, evt_get(_metadata, self->fd, PP_EVT_A));
	EXPECT_EQ(0, evt_get(_metadata, self->fd, PP_EVT_B));
	/* every set found its event clear: each one was consumed in time */
	EXPECT_EQ(s0.event_set_while_set, s1.event_set_while_set);
}

struct prodcons {
	int fd;
	int n;
	int err;
};

static void *producer_main(void *arg)
{
	struct prodcons *pc = arg;
	int i, r;

	for (i = 0; i < pc->n; i++) {
		r = do_op(pc->fd, SEM, NCSYNC_OP_INC, 80, 1, NULL);
		if (r) {
			pc->err = r;
			break;
		}
		if (i % 64 == 0)
			sched_yield();
	}
	return NULL;
}

TEST_F(core, conc_producer_consumer)
{
	struct prodcons pc = { .fd = self->fd, .n = 2000 };
	struct ncsync_op op;
	int got = 0, r = 0;
	pthread_t th;
	__s32 res;

	ASSERT_EQ(0, pthread_create(&th, NULL, producer_main, &pc));
	while (got < pc.n) {
		r = do_wait(self->fd, SEM, NCSYNC_WAIT_SEM_GE, 80, 1, LONG_MS,
			    &res);
		if (r)
			break;
		if (res < 1) {
			r = -EPROTO;
			break;
		}
		op = mkop(SEM, NCSYNC_OP_DEC, 80, 1);
		r = do_batch(self->fd, &op, 1, 0);
		if (r)
			break;
		if (op.before < 1) {
			r = -ERANGE;
			break;
		}
		got++;
	}
	pthread_join(th, NULL);
	EXPECT_EQ(0, r) TH_LOG("consumer stopped after %d: %s", got,
			       strerror(-r));
	EXPECT_EQ(0, pc.err);
	EXPECT_EQ(pc.n, got);
	EXPECT_EQ(0, sem_get(_metadata, self->fd, 80));
}

TEST_HARNESS_MAIN
