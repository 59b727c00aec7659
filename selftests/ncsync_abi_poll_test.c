// SPDX-License-Identifier: GPL-2.0
/*
 * ncsync selftests of the /dev/ncsyncN ABI (ncsync_abi.h): poll() and
 * NCSYNC_IOC_ACK, NCSYNC_IOC_STATS.
 *
 * Run inside the test VM:
 *   tools/vm-run build/selftests/ncsync_abi_poll_test
 */
#include "ncsync_abi.h"

/* ---------------------------------------------------------------------- */
/* poll() and NCSYNC_IOC_ACK                                               */

static short poll_all(int fd)
{
	struct pollfd p = {
		.fd = fd,
		.events = POLLIN | POLLRDNORM | POLLOUT | POLLWRNORM |
			  POLLPRI | POLLRDBAND,
	};
	int n = poll(&p, 1, 0);

	if (n < 0)
		return -1;
	return n ? p.revents : 0;
}


TEST_F(core, poll_fresh_descriptor_quiet)
{
	int fd2;

	sem_put(_metadata, self->fd, 0, 1);
	/* a new descriptor starts at the core's current sequence */
	fd2 = open_dev(_metadata, 0, O_RDWR);
	EXPECT_EQ(0, poll_fd(fd2, 0));
	EXPECT_EQ(0, poll_all(fd2));
	sem_put(_metadata, self->fd, 0, 2);
	EXPECT_EQ(POLL_READABLE, poll_fd(fd2, 0));
	close(fd2);
}

TEST_F(core, poll_ack_shared_by_dup)
{
	int fd2 = dup(self->fd);

	ASSERT_LE(0, fd2);
	ack(_metadata, self->fd);
	sem_put(_metadata, self->fd, 0, 1);
	EXPECT_EQ(POLL_READABLE, poll_fd(fd2, 0));
	ack(_metadata, fd2);
	EXPECT_EQ(0, poll_fd(self->fd, 0));
	close(fd2);
}

TEST_F(core, poll_quiet_after_ack)
{
	__u64 s1, s2;

	s1 = ack(_metadata, self->fd);
	EXPECT_EQ(0, poll_fd(self->fd, 0));
	EXPECT_EQ(0, poll_fd(self->fd, 50));
	s2 = ack(_metadata, self->fd);
	EXPECT_EQ(s1, s2);
}

TEST_F(core, poll_change_by_other_fd)
{
	int fd2 = open_dev(_metadata, 0, O_RDWR);
	__u64 s1, s2;
	short ev;

	s1 = ack(_metadata, self->fd);
	ASSERT_EQ(0, do_op(fd2, SEM, NCSYNC_OP_INC, 0, 1, NULL));
	/* exactly EPOLLIN | EPOLLRDNORM, even when asked for more */
	ev = poll_fd(self->fd, 0);
	EXPECT_EQ(POLL_READABLE, ev) TH_LOG("revents %#x", ev);
	ev = poll_all(self->fd);
	EXPECT_EQ(POLL_READABLE, ev) TH_LOG("revents %#x", ev);
	/* level-triggered until acknowledged */
	ev = poll_fd(self->fd, 0);
	EXPECT_EQ(POLL_READABLE, ev);
	s2 = ack(_metadata, self->fd);
	EXPECT_LT(s1, s2);
	EXPECT_EQ(0, poll_fd(self->fd, 0));
	close(fd2);
}

TEST_F(core, poll_every_kind_of_change)
{
	struct ncsync_op ops[2] = {
		mkop(SEM, NCSYNC_OP_READ, 0, 0),
		mkop(SEM, NCSYNC_OP_DEC, 0, 1),
	};
	__u64 prev, seq;
	int step;

	prev = ack(_metadata, self->fd);
	for (step = 0; step < 8; step++) {
		switch (step) {
		case 0:
			csr_put(_metadata, self->fd, EVT(0), 1);
			break;
		case 1:
			csr_put(_metadata, self->fd, SEM_INC(0), 1);
			break;
		case 2:
			csr_put(_metadata, self->fd, SEM_SET(0), 9);
			break;
		case 3:
			ASSERT_EQ(0, do_op(self->fd, SEM, NCSYNC_OP_DEC, 0, 1,
					   NULL));
			break;
		case 4:
			evt_put(_metadata, self->fd, 0, false);
			break;
		case 5:
			ASSERT_EQ(0, do_batch(self->fd, ops, 2, 0));
			break;
		case 6:
			/* a consuming wait changes the event */
			evt_put(_metadata, self->fd, 1, true);
			ack(_metadata, self->fd);
			ASSERT_EQ(0, do_wait(self->fd, EVENT,
					     NCSYNC_WAIT_EVT_SET_THEN_CLEAR, 1,
					     0, PAST_MS, NULL));
			break;
		case 7:
			core_reset(_metadata, self->fd);
			break;
		}
		EXPECT_EQ(POLL_READABLE, poll_fd(self->fd, 0))
			TH_LOG("change %d", step);
		seq = ack(_metadata, self->fd);
		EXPECT_LT(prev, seq) TH_LOG("change %d", step);
		EXPECT_EQ(0, poll_fd(self->fd, 0));
		prev = seq;
	}
}

TEST_F(core, poll_reads_are_not_changes)
{
	struct ncsync_op ops[2] = {
		mkop(SEM, NCSYNC_OP_READ, 0, 0),
		mkop(EVENT, NCSYNC_OP_READ, 0, 0),
	};
	struct ncsync_info info;
	struct ncsync_stats st;
	__u32 buf[4];
	__u64 s1, s2;

	seed(_metadata, self->fd);
	s1 = ack(_metadata, self->fd);
	EXPECT_EQ(0, rd(self->fd, buf, 16, 0x1000));
	sem_get(_metadata, self->fd, 0);
	evt_get(_metadata, self->fd, 0);
	EXPECT_EQ(0, do_batch(self->fd, ops, 2, 0));
	EXPECT_EQ(0, ioctl(self->fd, NCSYNC_IOC_INFO, &info));
	stats_get(_metadata, self->fd, &st);
	/* non-consuming waits, a timed-out wait, refused updates */
	EXPECT_EQ(0, do_wait(self->fd, EVENT, NCSYNC_WAIT_EVT_SET, 0, 0,
			     PAST_MS, NULL));
	EXPECT_EQ(-ETIMEDOUT, do_wait(self->fd, EVENT,
				      NCSYNC_WAIT_EVT_SET_THEN_CLEAR, 1, 0,
				      PAST_MS, NULL));
	EXPECT_EQ(-EINVAL, wr32(self->fd, SEM_RD(0), 1));
	EXPECT_EQ(-EINVAL, do_op(self->fd, SEM, NCSYNC_OP_INC, 256, 1, NULL));
	EXPECT_EQ(0, poll_fd(self->fd, 0));
	s2 = ack(_metadata, self->fd);
	EXPECT_EQ(s1, s2);
}

static void *poll_thread(void *arg)
{
	int *fdp = arg;
	struct pollfd p = { .fd = fdp[0], .events = POLLIN };
	struct timespec ts = { .tv_sec = LONG_MS / 1000 };

	fdp[2] = my_tid();
	fdp[1] = ppoll(&p, 1, &ts, NULL);
	if (fdp[1] == 1)
		fdp[1] = 100 + (p.revents & POLLIN ? 1 : 0);
	return NULL;
}

TEST_F(core, poll_blocked_wakes_on_change)
{
	int fd2 = open_dev(_metadata, 0, O_RDWR);
	int arg[3] = { self->fd, -5, 0 };
	pthread_t th;

	ack(_metadata, self->fd);
	ASSERT_EQ(0, pthread_create(&th, NULL, poll_thread, arg));
	while (!__atomic_load_n(&arg[2], __ATOMIC_SEQ_CST))
		usleep(100);
	if (!await_blocked(getpid(), arg[2], SYS_ppoll))
		TH_LOG("could not observe the poller sleep");
	ASSERT_EQ(0, do_op(fd2, EVENT, NCSYNC_OP_SET, 50, 0, NULL));
	pthread_join(th, NULL);
	EXPECT_EQ(101, arg[1]) TH_LOG("ppoll returned %d", arg[1]);
	close(fd2);
}

TEST_F(core, ack_seq_matches_stats)
{
	int fd2 = open_dev(_metadata, 0, O_RDWR);
	struct ncsync_seq zero = { 0 };
	struct ncsync_stats st;
	void *ro;
	__u64 s1, s2;

	s1 = ack(_metadata, self->fd);
	stats_get(_metadata, self->fd, &st);
	EXPECT_EQ(s1, st.seq);
	EXPECT_EQ(s1, ack(_metadata, fd2));
	sem_put(_metadata, fd2, 0, 1);
	s2 = ack(_metadata, self->fd);
	stats_get(_metadata, self->fd, &st);
	EXPECT_LT(s1, s2);
	EXPECT_EQ(s2, st.seq);
	EXPECT_EQ(-1, ioctl(self->fd, NCSYNC_IOC_ACK, NULL));
	EXPECT_EQ(EFAULT, errno);
	/* a failed ACK acknowledges nothing */
	sem_put(_metadata, fd2, 0, 2);
	ro = ro_copy(&zero, sizeof(zero));
	ASSERT_NE(NULL, ro);
	EXPECT_EQ(-1, ioctl(self->fd, NCSYNC_IOC_ACK, ro));
	EXPECT_EQ(EFAULT, errno);
	EXPECT_EQ(POLL_READABLE, poll_fd(self->fd, 0));
	close(fd2);
}

TEST_F(core, ack_is_per_descriptor)
{
	int fd2 = open_dev(_metadata, 0, O_RDWR);

	ack(_metadata, self->fd);
	ack(_metadata, fd2);
	EXPECT_EQ(0, poll_fd(fd2, 0));
	sem_put(_metadata, self->fd, 0, 1);
	EXPECT_EQ(POLL_READABLE, poll_fd(self->fd, 0));
	EXPECT_EQ(POLL_READABLE, poll_fd(fd2, 0));
	ack(_metadata, self->fd);
	EXPECT_EQ(0, poll_fd(self->fd, 0));
	EXPECT_EQ(POLL_READABLE, poll_fd(fd2, 0));
	ack(_metadata, fd2);
	EXPECT_EQ(0, poll_fd(fd2, 0));
	close(fd2);
}

/* ---------------------------------------------------------------------- */
/* NCSYNC_IOC_STATS                                                        */

TEST_F(core, stats_event_counters)
{
	struct ncsync_op ops[2] = {
		mkop(EVENT, NCSYNC_OP_SET, 1, 0),
		mkop(EVENT, NCSYNC_OP_SET, 1, 0),
	};
	struct ncsync_stats s0, s1;

	stats_get(_metadata, self->fd, &s0);
	evt_put(_metadata, self->fd, 0, true);		/* clear -> set */
	evt_put(_metadata, self->fd, 0, true);		/* +1 set */
	csr_put(_metadata, self->fd, EVT(0), 5);	/* +1 set */
	evt_put(_metadata, self->fd, 0, false);		/* set -> clear */
	evt_put(_metadata, self->fd, 0, false);		/* +1 clear */
	csr_put(_metadata, self->fd, EVT(0), 0);	/* +1 clear */
	ASSERT_EQ(0, do_batch(self->fd, ops, 2, 0));	/* +1 set */
	stats_get(_metadata, self->fd, &s1);
	EXPECT_EQ(s0.event_set_while_set + 3, s1.event_set_while_set);
	EXPECT_EQ(s0.event_clear_while_clear + 2, s1.event_clear_while_clear);
	EXPECT_EQ(s0.sem_overflows, s1.sem_overflows);
	EXPECT_EQ(s0.resets, s1.resets);
	EXPECT_LT(s0.seq, s1.seq);
}

TEST_F(core, stats_sem_overflows)
{
	struct ncsync_stats s0, s1;

	stats_get(_metadata, self->fd, &s0);
	sem_put(_metadata, self->fd, 0, INT_MAX);
	ASSERT_EQ(0, do_op(self->fd, SEM, NCSYNC_OP_INC, 0, 1, NULL)); /* +1 */
	ASSERT_EQ(0, do_op(self->fd, SEM, NCSYNC_OP_DEC, 0, 1, NULL)); /* +1 */
	csr_put(_metadata, self->fd, SEM_INC(0), 1);			/* +1 */
	csr_put(_metadata, self->fd, SEM_DEC(0), 1);			/* +1 */
	/* no overflow */
	sem_put(_metadata, self->fd, 1, INT_MIN);
	csr_put(_metadata, self->fd, SEM_DEC(2), 1);
	csr_put(_metadata, self->fd, SEM_INC(2), 2);
	ASSERT_EQ(0, do_op(self->fd, SEM, NCSYNC_OP_INC, 3, 100, NULL));
	stats_get(_metadata, self->fd, &s1);
	EXPECT_EQ(s0.sem_overflows + 4, s1.sem_overflows);
	EXPECT_EQ(s0.event_set_while_set, s1.event_set_while_set);
	EXPECT_EQ(s0.event_clear_while_clear, s1.event_clear_while_clear);
}

/*
 * The change sequence advances once per register written, per updating
 * operation, per consuming wait and per reset; never for reads.
 */
TEST_F(core, stats_seq_counts_changes)
{
	struct ncsync_op ops[3] = {
		mkop(SEM, NCSYNC_OP_READ, 0, 0),
		mkop(SEM, NCSYNC_OP_INC, 0, 0),
		mkop(EVENT, NCSYNC_OP_SET, 0, 0),
	};
	struct ncsync_stats st;
	__u32 three[3] = { 1, 0, 0 };
	__u64 seq;

	stats_get(_metadata, self->fd, &st);
	seq = st.seq;
#define SEQ_DELTA(n, what) do {						\
		stats_get(_metadata, self->fd, &st);			\
		EXPECT_EQ(seq + (n), st.seq) TH_LOG("%s", what);	\
		seq = st.seq;						\
	} while (0)
	ASSERT_EQ(0, wr(self->fd, three, sizeof(three), SEM_INC(0)));
	SEQ_DELTA(3, "3-register pwrite");
	ASSERT_EQ(0, do_op(self->fd, SEM, NCSYNC_OP_INC, 5, 0, NULL));
	SEQ_DELTA(1, "INC by 0");
	sem_put(_metadata, self->fd, 0, 1);
	SEQ_DELTA(1, "SET to the same value");
	ASSERT_EQ(0, do_batch(self->fd, ops, 3, 0));
	SEQ_DELTA(2, "batch of a read and two updates");
	ASSERT_EQ(0, do_wait(self->fd, EVENT, NCSYNC_WAIT_EVT_SET, 0, 0,
			     PAST_MS, NULL));
	SEQ_DELTA(0, "non-consuming wait");
	ASSERT_EQ(0, do_wait(self->fd, EVENT, NCSYNC_WAIT_EVT_SET_THEN_CLEAR,
			     0, 0, PAST_MS, NULL));
	SEQ_DELTA(1, "consuming wait");
	evt_put(_metadata, self->fd, 0, false);
	SEQ_DELTA(1, "clear of a clear event");
	sem_get(_metadata, self->fd, 0);
	csr_get(_metadata, self->fd, SEM_RD(0));
	ASSERT_EQ(0, do_batch(self->fd, ops, 1, 0));
	SEQ_DELTA(0, "reads");
	EXPECT_EQ(-EINVAL, wr(self->fd, three, sizeof(three), 0x0FFC));
	SEQ_DELTA(0, "refused pwrite");
	core_reset(_metadata, self->fd);
	SEQ_DELTA(1, "reset");
#undef SEQ_DELTA
}

TEST_F(core, stats_efault)
{
	struct ncsync_stats zero = { 0 };
	void *ro = ro_copy(&zero, sizeof(zero));

	ASSERT_NE(NULL, ro);
	EXPECT_EQ(-1, ioctl(self->fd, NCSYNC_IOC_STATS, ro));
	EXPECT_EQ(EFAULT, errno);
	EXPECT_EQ(-1, ioctl(self->fd, NCSYNC_IOC_STATS, NULL));
	EXPECT_EQ(EFAULT, errno);
}

TEST_HARNESS_MAIN
