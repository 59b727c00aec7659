// SPDX-License-Identifier: GPL-2.0
/*
 * ncsync selftest of logical cores (ncsync_lnc.h), run by
 * ncsync_lnc_test.sh with cores=4 lnc=2.
 *
 * A program across cores (NCSYNC_SUBMIT_F_CORES, engines.rst, "Programs
 * across cores"): a producer/consumer and a ping-pong in one program, its
 * parts starting together, its status covering both cores, cancel, a
 * fault, the watchdog, a reset (also of a core whose part ended), kill -9
 * of the submitter and a close stopping every part, and each refused
 * submission with nothing run.
 */
#include "ncsync_lnc.h"

TEST_F(lnc, cores_producer_consumer)
{
	struct rec_prog a = { 0 }, b = { 0 };
	struct rec_queue *q;

	NEED_LNC();
	q = rec_prog_queue(&a, NCSYNC_ENGINE_PE);
	rec_noop(q, NCSYNC_WAIT_SEM_GE, 9, 0, 0, 1);
	rec_exit(q);
	q = rec_prog_queue(&b, NCSYNC_ENGINE_POOL);
	rec_dma_peer(q, 0, 0, 0x100, 64, 1000, UPD_INC, 9);
	rec_drain(q);
	rec_exit(q);
	expect_done(_metadata, self->fd[0],
		    submit2(_metadata, self->fd, &a, &b, 0, LONG_MS));
	EXPECT_EQ(1, sem_of(self->fd[0], 9));
	EXPECT_EQ(0, sem_of(self->fd[1], 9));
	rec_prog_free(&a);
	rec_prog_free(&b);
}

/* Release program @id of @fd (NCSYNC_STATUS_F_RELEASE): 0 or -errno. */
static int release(int fd, __u32 id)
{
	struct ncsync_prog_status ps = { .id = id,
					 .flags = NCSYNC_STATUS_F_RELEASE };

	return ioctl(fd, NCSYNC_IOC_PROG_STATUS, &ps) ? -errno : 0;
}

/* Set semaphore @idx of @fd to @value: 0 or -errno. */
static int sem_set(int fd, unsigned int idx, __u32 value)
{
	struct ncsync_op op = { .bank = NCSYNC_BANK_SEM, .op = NCSYNC_OP_SET,
				.index = idx, .value = value };

	return ioctl(fd, NCSYNC_IOC_OP, &op) ? -errno : 0;
}

/*
 * A program across cores whose core-1 member (fd[1]'s first program, id 1)
 * ends at once while core 0 waits for sem[9] >= 1; its id, once core 0
 * blocks.
 */
static __u32 submit_waiting(struct __test_metadata *_metadata,
			    const int *fd, struct rec_prog *a,
			    struct rec_prog *b)
{
	struct rec_queue *q = rec_prog_queue(a, NCSYNC_ENGINE_PE);
	__u32 id;

	rec_noop(q, NCSYNC_WAIT_SEM_GE, 9, 0, 0, 1);
	rec_exit(q);
	rec_exit(rec_prog_queue(b, NCSYNC_ENGINE_POOL));
	id = submit2(_metadata, fd, a, b, 0, LONG_MS);
	EXPECT_TRUE(wait_blocked(fd[0], id, 0));
	return id;
}

/*
 * The other core's descriptor forgets the member with the program
 * (engines.rst, "Programs across cores", Accounting): its id there names
 * nothing once the submitter released the program.  fd[1] is fresh: the
 * member is its first program, id 1.
 */
TEST_F(lnc, cores_member_forgotten_with_program)
{
	struct rec_prog a = { 0 }, b = { 0 };
	struct ncsync_prog_status ps;
	__u32 id;

	NEED_LNC();
	rec_exit(rec_prog_queue(&a, NCSYNC_ENGINE_PE));
	rec_exit(rec_prog_queue(&b, NCSYNC_ENGINE_POOL));
	id = submit2(_metadata, self->fd, &a, &b, 0, LONG_MS);
	expect_done(_metadata, self->fd[0], id);
	ASSERT_EQ(0, status_of(self->fd[1], 1, -1, &ps, NULL));
	EXPECT_EQ((__u32)NCSYNC_PROG_DONE, ps.state);
	ASSERT_EQ(0, release(self->fd[0], id));
	EXPECT_EQ(-ENOENT, status_of(self->fd[1], 1, -1, &ps, NULL));
	EXPECT_EQ(-ENOENT, status_of(self->fd[0], id, -1, &ps, NULL));
	rec_prog_free(&a);
	rec_prog_free(&b);
}

/* The member of a program that still runs stays until it is released. */
TEST_F(lnc, cores_member_listed_until_release)
{
	struct rec_prog a = { 0 }, b = { 0 };
	struct ncsync_prog_status ps;
	__u32 id;

	NEED_LNC();
	id = submit_waiting(_metadata, self->fd, &a, &b);
	EXPECT_EQ(-EBUSY, release(self->fd[0], id));
	EXPECT_EQ(0, status_of(self->fd[1], 1, -1, &ps, NULL));
	ASSERT_EQ(0, sem_set(self->fd[0], 9, 1));
	expect_done(_metadata, self->fd[0], id);
	EXPECT_EQ(0, status_of(self->fd[1], 1, -1, &ps, NULL));
	rec_prog_free(&a);
	rec_prog_free(&b);
}

/*
 * PROG_WAIT on the member's id, on the other core's descriptor, waits for
 * the whole program and reports its final state (the fuzzer saw "final
 * state 1": the member's own end, with the program still running).
 */
TEST_F(lnc, cores_member_wait_is_the_program)
{
	struct rec_prog a = { 0 }, b = { 0 };
	__u32 id, state;

	NEED_LNC();
	id = submit_waiting(_metadata, self->fd, &a, &b);
	EXPECT_EQ(-ETIMEDOUT, prog_wait(self->fd[1], 1, 200, &state))
		TH_LOG("returned with state %u while core 0 still waits",
		       state);
	ASSERT_EQ(0, sem_set(self->fd[0], 9, 1));
	ASSERT_EQ(0, prog_wait(self->fd[1], 1, LONG_MS, &state));
	EXPECT_EQ((__u32)NCSYNC_PROG_DONE, state);
	expect_done(_metadata, self->fd[0], id);
	rec_prog_free(&a);
	rec_prog_free(&b);
}

/* The ping-pong of ping_pong_between_cores, as one program. */
TEST_F(lnc, cores_ping_pong)
{
	struct rec_prog a = { 0 }, b = { 0 };
	struct rec_queue *qa, *qb;

	NEED_LNC();
	qa = rec_prog_queue(&a, NCSYNC_ENGINE_ACT);
	qb = rec_prog_queue(&b, NCSYNC_ENGINE_ACT);
	ping_pong_queues(qa, qb);
	expect_done(_metadata, self->fd[0],
		    submit2(_metadata, self->fd, &a, &b, 0, LONG_MS));
	EXPECT_EQ(ROUNDS, sem_of(self->fd[0], 2));
	EXPECT_EQ(ROUNDS, sem_of(self->fd[1], 1));
	rec_prog_free(&a);
	rec_prog_free(&b);
}

/*
 * Core 1's ACT is busy with an earlier program: core 0's part, free to
 * run, does not start before core 1's may.
 */
TEST_F(lnc, cores_start_together)
{
	struct rec_prog blk = { 0 }, a = { 0 }, b = { 0 };
	struct ncsync_prog_status ps;
	struct ncsync_op op = { .bank = NCSYNC_BANK_SEM, .op = NCSYNC_OP_INC,
				.index = 20, .value = 1 };
	__u32 bid, id;

	NEED_LNC();
	rec_noop(rec_prog_queue(&blk, NCSYNC_ENGINE_ACT), NCSYNC_WAIT_SEM_GE,
		 20, 0, 0, 1);
	bid = submit(_metadata, self->fd[1], &blk);
	rec_inc(rec_prog_queue(&a, NCSYNC_ENGINE_PE), 21);
	rec_inc(rec_prog_queue(&b, NCSYNC_ENGINE_ACT), 22);
	id = submit2(_metadata, self->fd, &a, &b, 0, LONG_MS);
	usleep(200000);
	ASSERT_EQ(0, status_of(self->fd[0], id, 0, &ps, NULL));
	EXPECT_EQ((__u32)NCSYNC_PROG_QUEUED, ps.state);
	EXPECT_EQ(NCSYNC_ENG_QUEUED, ps.engines[0].state);
	EXPECT_EQ(0ULL, ps.engines[0].executed);
	EXPECT_EQ(0, sem_of(self->fd[0], 21));
	ASSERT_EQ(0, ioctl(self->fd[1], NCSYNC_IOC_OP, &op));
	expect_done(_metadata, self->fd[1], bid);
	expect_done(_metadata, self->fd[0], id);
	EXPECT_EQ(1, sem_of(self->fd[0], 21));
	EXPECT_EQ(1, sem_of(self->fd[1], 22));
	rec_prog_free(&blk);
	rec_prog_free(&a);
	rec_prog_free(&b);
}

/* The status reports each core's engines and semaphores, live and ended. */
TEST_F(lnc, cores_status_covers_every_core)
{
	struct ncsync_sem_value sems[NCSYNC_NUM_SEMS];
	struct rec_prog a = { 0 }, b = { 0 };
	struct ncsync_prog_status ps;
	struct ncsync_op op = { .bank = NCSYNC_BANK_SEM, .op = NCSYNC_OP_INC,
				.index = 33, .value = 1 };
	struct rec_queue *q;
	__u32 id;

	NEED_LNC();
	rec_inc(rec_prog_queue(&a, NCSYNC_ENGINE_PE), 30);
	q = rec_prog_queue(&b, NCSYNC_ENGINE_ACT);
	rec_noop(q, NCSYNC_WAIT_SEM_GE, 33, 0, 0, 1);
	rec_inc(q, 31);
	rec_inc(rec_prog_queue(&b, NCSYNC_ENGINE_DVE), 32);
	id = submit2(_metadata, self->fd, &a, &b, 0, LONG_MS);
	ASSERT_TRUE(wait_blocked(self->fd[0], id, 1));
	ASSERT_EQ(0, status_of(self->fd[0], id, 1, &ps, sems));
	EXPECT_EQ((__u32)NCSYNC_PROG_RUNNING, ps.state);
	EXPECT_EQ(2U, ps.nengines);
	EXPECT_EQ(NCSYNC_ENGINE_ACT, ps.engines[0].engine);
	EXPECT_EQ(33, ps.engines[0].wait_index);
	EXPECT_EQ(NCSYNC_ENGINE_DVE, ps.engines[1].engine);
	ASSERT_EQ(0, ioctl(self->fd[1], NCSYNC_IOC_OP, &op));
	expect_done(_metadata, self->fd[0], id);
	ASSERT_EQ(0, status_of(self->fd[0], id, -1, &ps, sems));
	EXPECT_EQ(1U, ps.nengines);
	EXPECT_EQ(NCSYNC_ENGINE_PE, ps.engines[0].engine);
	ASSERT_EQ(1U, ps.nsems);
	EXPECT_EQ(30U, sems[0].index);
	ASSERT_EQ(0, status_of(self->fd[0], id, 1, &ps, sems));
	EXPECT_EQ((__u32)NCSYNC_PROG_DONE, ps.state);
	EXPECT_EQ(2U, ps.nengines);
	EXPECT_EQ(NCSYNC_ENG_DONE, ps.engines[0].state);
	ASSERT_EQ(3U, ps.nsems);	/* 31, 32, 33 of core 1 */
	EXPECT_EQ(31U, sems[0].index);
	EXPECT_EQ(-EINVAL, status_of(self->fd[0], id, 2, &ps, NULL));
	ps.flags = 0;
	ps.core = 1;
	EXPECT_EQ(-1, ioctl(self->fd[0], NCSYNC_IOC_PROG_STATUS, &ps));
	EXPECT_EQ(EINVAL, errno);
	rec_prog_free(&a);
	rec_prog_free(&b);
}

/* Two parts that wait forever: a and b. */
static void forever2(struct rec_prog *a, struct rec_prog *b)
{
	rec_noop(rec_prog_queue(a, NCSYNC_ENGINE_PE), NCSYNC_WAIT_SEM_GE,
		 FOREVER, 0, 0, 1);
	rec_noop(rec_prog_queue(b, NCSYNC_ENGINE_ACT), NCSYNC_WAIT_SEM_GE,
		 FOREVER, 0, 0, 1);
}

TEST_F(lnc, cores_cancel_stops_every_core)
{
	static const __u8 st[2] = { NCSYNC_ENG_CANCELLED, NCSYNC_ENG_CANCELLED };
	static const __u8 f[2] = { NCSYNC_FAULT_CANCELLED, NCSYNC_FAULT_CANCELLED };
	struct rec_prog a = { 0 }, b = { 0 };
	struct ncsync_prog_cancel pc = { 0 };

	NEED_LNC();
	forever2(&a, &b);
	pc.id = submit2(_metadata, self->fd, &a, &b, 0, LONG_MS);
	ASSERT_TRUE(wait_blocked(self->fd[0], pc.id, 1));
	ASSERT_EQ(0, ioctl(self->fd[0], NCSYNC_IOC_PROG_CANCEL, &pc));
	expect_state(_metadata, self->fd[0], pc.id, NCSYNC_PROG_CANCELLED);
	expect_engines(_metadata, self->fd[0], pc.id, st, f);
	rec_prog_free(&a);
	rec_prog_free(&b);
}

/* A strict-mode fault on core 1 stops core 0's engine. */
TEST_F(lnc, cores_fault_stops_other_core)
{
	static const __u8 st[2] = { NCSYNC_ENG_CANCELLED, NCSYNC_ENG_FAULTED };
	static const __u8 f[2] = { NCSYNC_FAULT_PEER,
				   NCSYNC_FAULT_EVENT_SET_WHILE_SET };
	struct ncsync_op op = { .bank = NCSYNC_BANK_SEM, .op = NCSYNC_OP_INC,
				.index = 34, .value = 1 };
	struct rec_prog a = { 0 }, b = { 0 };
	struct rec_queue *q;
	__u32 id;

	NEED_LNC();
	rec_noop(rec_prog_queue(&a, NCSYNC_ENGINE_PE), NCSYNC_WAIT_SEM_GE,
		 FOREVER, 0, 0, 1);
	q = rec_prog_queue(&b, NCSYNC_ENGINE_ACT);
	rec_noop(q, NCSYNC_WAIT_SEM_GE, 34, 0, 0, 1);
	rec_noop(q, 0, 0, U_EVT_SET, 35, 0);
	rec_noop(q, 0, 0, U_EVT_SET, 35, 0);
	id = submit2(_metadata, self->fd, &a, &b, NCSYNC_SUBMIT_F_STRICT,
		     LONG_MS);
	ASSERT_TRUE(wait_blocked(self->fd[0], id, 0));
	ASSERT_TRUE(wait_blocked(self->fd[0], id, 1));
	ASSERT_EQ(0, ioctl(self->fd[1], NCSYNC_IOC_OP, &op));
	expect_state(_metadata, self->fd[0], id, NCSYNC_PROG_FAULTED);
	expect_engines(_metadata, self->fd[0], id, st, f);
	rec_prog_free(&a);
	rec_prog_free(&b);
}

/*
 * Both cores wait forever: the watchdog times the whole program out, and
 * each core's snapshot (the deadlock report) shows what its engine waited
 * on when it fired.
 */
TEST_F(lnc, cores_watchdog_times_out_every_core)
{
	static const __u8 st[2] = { NCSYNC_ENG_BLOCKED, NCSYNC_ENG_BLOCKED };
	static const __u8 f[2] = { NCSYNC_FAULT_NONE, NCSYNC_FAULT_NONE };
	struct rec_prog a = { 0 }, b = { 0 };
	struct ncsync_prog_status ps;
	__u32 id;
	int pos;

	NEED_LNC();
	forever2(&a, &b);
	id = submit2(_metadata, self->fd, &a, &b, 0, 300);
	expect_state(_metadata, self->fd[0], id, NCSYNC_PROG_TIMED_OUT);
	expect_engines(_metadata, self->fd[0], id, st, f);
	for (pos = 0; pos < 2; pos++) {
		ASSERT_EQ(0, status_of(self->fd[0], id, pos, &ps, NULL));
		EXPECT_EQ(FOREVER, ps.engines[0].wait_index);
		EXPECT_EQ(NCSYNC_BLOCK_SEM, ps.engines[0].wait_kind);
	}
	rec_prog_free(&a);
	rec_prog_free(&b);
}

/* A reset of core 1 fails the program: core 0's engine stops too. */
TEST_F(lnc, cores_reset_fails_program)
{
	static const __u8 st[2] = { NCSYNC_ENG_CANCELLED, NCSYNC_ENG_CANCELLED };
	static const __u8 f[2] = { NCSYNC_FAULT_RESET, NCSYNC_FAULT_RESET };
	struct rec_prog a = { 0 }, b = { 0 };
	__u32 id;

	NEED_LNC();
	forever2(&a, &b);
	id = submit2(_metadata, self->fd, &a, &b, 0, LONG_MS);
	ASSERT_TRUE(wait_blocked(self->fd[0], id, 0));
	ASSERT_EQ(0, reset(self->fd[1]));
	expect_state(_metadata, self->fd[0], id, NCSYNC_PROG_CANCELLED);
	expect_engines(_metadata, self->fd[0], id, st, f);
	rec_prog_free(&a);
	rec_prog_free(&b);
}

/* Core 1's part is done; a reset of core 1 still fails the program. */
TEST_F(lnc, cores_reset_after_part_ended)
{
	struct rec_prog a = { 0 }, b = { 0 };
	struct ncsync_prog_status ps;
	__u32 id;
	int i;

	NEED_LNC();
	rec_noop(rec_prog_queue(&a, NCSYNC_ENGINE_PE), NCSYNC_WAIT_SEM_GE,
		 FOREVER, 0, 0, 1);
	rec_inc(rec_prog_queue(&b, NCSYNC_ENGINE_ACT), 36);
	id = submit2(_metadata, self->fd, &a, &b, 0, LONG_MS);
	for (i = 0; i < 5000 && sem_of(self->fd[1], 36) != 1; i++)
		usleep(1000);
	ASSERT_TRUE(wait_blocked(self->fd[0], id, 0));
	ASSERT_EQ(0, status_of(self->fd[0], id, 1, &ps, NULL));
	ASSERT_EQ(NCSYNC_ENG_DONE, ps.engines[0].state);
	ASSERT_EQ(0, reset(self->fd[1]));
	expect_state(_metadata, self->fd[0], id, NCSYNC_PROG_CANCELLED);
	ASSERT_EQ(0, status_of(self->fd[0], id, 0, &ps, NULL));
	EXPECT_EQ(NCSYNC_FAULT_RESET, ps.engines[0].fault);
	rec_prog_free(&a);
	rec_prog_free(&b);
}

/* kill -9 of the submitter cancels every core's part: the engines free. */
TEST_F(lnc, cores_kill9_of_submitter)
{
	struct rec_prog a = { 0 }, b = { 0 }, c = { 0 }, d = { 0 };
	int pipefd[2];
	pid_t pid;
	char ok;

	NEED_LNC();
	forever2(&a, &b);
	ASSERT_EQ(0, pipe(pipefd));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		int fd[2] = { open_core(0), open_core(1) };
		struct part parts[2] = { { &a, 0 }, { &b, 1 } };
		struct ncsync_submit sub;

		if (fd[0] < 0 || fd[1] < 0 ||
		    cores_submit(fd[0], parts, 2, &fd[1], 1, 0, LONG_MS, &sub) ||
		    !wait_blocked(fd[0], sub.id, 1))
			_exit(1);
		if (write(pipefd[1], "k", 1) != 1)
			_exit(1);
		pause();
		_exit(0);
	}
	ASSERT_EQ(1, read(pipefd[0], &ok, 1));
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	/* The same engines again: they run only once the parts are gone. */
	rec_inc(rec_prog_queue(&c, NCSYNC_ENGINE_PE), 37);
	rec_inc(rec_prog_queue(&d, NCSYNC_ENGINE_ACT), 38);
	expect_done(_metadata, self->fd[0],
		    submit2(_metadata, self->fd, &c, &d, 0, LONG_MS));
	EXPECT_EQ(1, sem_of(self->fd[1], 38));
	close(pipefd[0]);
	close(pipefd[1]);
	rec_prog_free(&a);
	rec_prog_free(&b);
	rec_prog_free(&c);
	rec_prog_free(&d);
}

/* Closing core 1's descriptor while the program runs cancels it. */
TEST_F(lnc, cores_close_of_other_descriptor_cancels)
{
	struct rec_prog a = { 0 }, b = { 0 };
	struct part parts[2] = { { &a, 0 }, { &b, 1 } };
	struct ncsync_submit sub;
	int fd1;

	NEED_LNC();
	forever2(&a, &b);
	fd1 = open_core(1);
	ASSERT_LE(0, fd1);
	ASSERT_EQ(0, cores_submit(self->fd[0], parts, 2, &fd1, 1, 0, LONG_MS,
				  &sub));
	ASSERT_TRUE(wait_blocked(self->fd[0], sub.id, 1));
	close(fd1);
	expect_state(_metadata, self->fd[0], sub.id, NCSYNC_PROG_CANCELLED);
	rec_prog_free(&a);
	rec_prog_free(&b);
}

/*
 * Submit a program incrementing semaphore 50 on both cores with @fds:
 * the error, then check that nothing ran and nothing was named.
 */
static int refused(struct __test_metadata *_metadata, int fd0, int fd1,
		   const int *fds, unsigned int nfds, __u8 pos1)
{
	struct rec_prog a = { 0 }, b = { 0 };
	struct part parts[2] = { { &a, 0 }, { &b, pos1 } };
	struct ncsync_submit sub;
	int ret;

	rec_inc(rec_prog_queue(&a, NCSYNC_ENGINE_PE), 50);
	rec_inc(rec_prog_queue(&b, NCSYNC_ENGINE_ACT), 50);
	ret = cores_submit(fd0, parts, 2, fds, nfds, 0, LONG_MS, &sub);
	EXPECT_EQ(0U, sub.id);
	usleep(50000);
	EXPECT_EQ(0, sem_of(fd0, 50));
	EXPECT_EQ(0, sem_of(fd1, 50));
	rec_prog_free(&a);
	rec_prog_free(&b);
	return ret;
}

TEST_F(lnc, cores_readonly_descriptor_eacces)
{
	int ro;

	NEED_LNC();
	ro = open("/dev/ncsync1", O_RDONLY | O_CLOEXEC);
	ASSERT_LE(0, ro);
	EXPECT_EQ(-EACCES, refused(_metadata, self->fd[0], self->fd[1], &ro,
				   1, 1));
	close(ro);
}

TEST_F(lnc, cores_queue_outside_logical_core_einval)
{
	NEED_LNC();
	EXPECT_EQ(-EINVAL, refused(_metadata, self->fd[0], self->fd[1],
				   &self->fd[1], 1, self->info.lnc));
}

TEST_F(lnc, cores_descriptor_of_other_logical_core_exdev)
{
	int fd2;

	NEED_LNC();
	if (self->info.num_cores < 2 * self->info.lnc)
		SKIP(return, "one logical core only");
	fd2 = open_core(self->info.lnc);	/* the next logical core */
	ASSERT_LE(0, fd2);
	EXPECT_EQ(-EXDEV, refused(_metadata, self->fd[0], self->fd[1], &fd2,
				  1, 1));
	close(fd2);
}

TEST_F(lnc, cores_bad_fd_ebadf)
{
	int bad = -1;

	NEED_LNC();
	EXPECT_EQ(-EBADF, refused(_metadata, self->fd[0], self->fd[1], &bad,
				  1, 1));
}

TEST_F(lnc, cores_not_ncsync_fd_einval)
{
	int null = open("/dev/null", O_RDWR | O_CLOEXEC);

	NEED_LNC();
	ASSERT_LE(0, null);
	EXPECT_EQ(-EINVAL, refused(_metadata, self->fd[0], self->fd[1], &null,
				   1, 1));
	close(null);
}

TEST_F(lnc, cores_duplicate_core_einval)
{
	int fds[2] = { self->fd[1], -1 };

	NEED_LNC();
	fds[1] = dup(self->fd[1]);
	ASSERT_LE(0, fds[1]);
	EXPECT_EQ(-EINVAL, refused(_metadata, self->fd[0], self->fd[1], fds,
				   2, 1));
	close(fds[1]);
}

TEST_F(lnc, cores_own_core_as_fd_einval)
{
	NEED_LNC();
	EXPECT_EQ(-EINVAL, refused(_metadata, self->fd[0], self->fd[1],
				   &self->fd[0], 1, 1));
}

TEST_F(lnc, cores_named_core_without_fd_einval)
{
	NEED_LNC();
	EXPECT_EQ(-EINVAL, refused(_metadata, self->fd[0], self->fd[1], NULL,
				   0, 1));
}

/* A descriptor of a core no queue names. */
TEST_F(lnc, cores_unnamed_core_fd_einval)
{
	NEED_LNC();
	EXPECT_EQ(-EINVAL, refused(_metadata, self->fd[0], self->fd[1],
				   &self->fd[1], 1, 0));
}

TEST_F(lnc, cores_unreadable_fds_efault)
{
	NEED_LNC();
	EXPECT_EQ(-EFAULT, refused(_metadata, self->fd[0], self->fd[1],
				   (const int *)8, 1, 1));
}

TEST_F(lnc, cores_submitter_core_unnamed_einval)
{
	struct rec_prog b = { 0 };
	struct part parts[1] = { { &b, 1 } };
	struct ncsync_submit sub;

	NEED_LNC();
	rec_inc(rec_prog_queue(&b, NCSYNC_ENGINE_ACT), 51);
	EXPECT_EQ(-EINVAL, cores_submit(self->fd[0], parts, 1, &self->fd[1], 1,
					0, LONG_MS, &sub));
	usleep(50000);
	EXPECT_EQ(0, sem_of(self->fd[1], 51));
	rec_prog_free(&b);
}

TEST_F(lnc, cores_engine_twice_on_core_einval)
{
	struct rec_prog a = { 0 }, b = { 0 };
	struct part parts[3] = { { &a, 0 }, { &b, 1 }, { &b, 1 } };
	struct ncsync_submit sub;

	NEED_LNC();
	rec_inc(rec_prog_queue(&a, NCSYNC_ENGINE_PE), 52);
	rec_inc(rec_prog_queue(&b, NCSYNC_ENGINE_ACT), 52);
	EXPECT_EQ(-EINVAL, cores_submit(self->fd[0], parts, 3, &self->fd[1], 1,
					0, LONG_MS, &sub));
	usleep(50000);
	EXPECT_EQ(0, sem_of(self->fd[0], 52));
	EXPECT_EQ(0, sem_of(self->fd[1], 52));
	rec_prog_free(&a);
	rec_prog_free(&b);
}

/* A bad record on core 1 is named with its core; nothing runs. */
TEST_F(lnc, cores_bad_record_names_core)
{
	struct rec_prog a = { 0 }, b = { 0 };
	struct part parts[2] = { { &a, 0 }, { &b, 1 } };
	struct ncsync_submit sub;
	struct rec_queue *q;

	NEED_LNC();
	rec_inc(rec_prog_queue(&a, NCSYNC_ENGINE_PE), 53);
	q = rec_prog_queue(&b, NCSYNC_ENGINE_ACT);
	rec_inc(q, 53);
	rec_dma_peer(q, self->info.lnc, 0, 64, 8, 0, UPD_INC, 53);
	EXPECT_EQ(-EINVAL, cores_submit(self->fd[0], parts, 2, &self->fd[1], 1,
					0, LONG_MS, &sub));
	EXPECT_EQ(NCSYNC_REC_DMA_PEER_OUTSIDE, (int)sub.reason);
	EXPECT_EQ(1U, sub.bad_core);
	EXPECT_EQ(NCSYNC_ENGINE_ACT, (int)sub.bad_engine);
	EXPECT_EQ(1U, sub.bad_index);
	usleep(50000);
	EXPECT_EQ(0, sem_of(self->fd[0], 53));
	EXPECT_EQ(0, sem_of(self->fd[1], 53));
	rec_prog_free(&a);
	rec_prog_free(&b);
}

/*
 * Without the flag: a descriptor no completion lands through, a descriptor
 * pointer without a count, reserved2 and a position are refused; the
 * 40-byte form works.
 */
TEST_F(lnc, cores_fields_without_flag)
{
	struct rec_prog a = { 0 };
	struct ncsync_queue uq = { 0 };
	struct ncsync_submit sub = { 0 };

	NEED_LNC();
	rec_inc(rec_prog_queue(&a, NCSYNC_ENGINE_PE), 54);
	uq.records = (uintptr_t)a.q[0].r;
	uq.count = a.q[0].n;
	uq.engine = NCSYNC_ENGINE_PE;
	sub.queues = (uintptr_t)&uq;
	sub.nqueues = 1;
	sub.fds = (uintptr_t)&self->fd[1];	/* no completion on core 1 */
	sub.nfds = 1;
	EXPECT_EQ(-1, ioctl(self->fd[0], NCSYNC_IOC_SUBMIT, &sub));
	EXPECT_EQ(EINVAL, errno);
	sub.nfds = 0;			/* a pointer without a count */
	EXPECT_EQ(-1, ioctl(self->fd[0], NCSYNC_IOC_SUBMIT, &sub));
	EXPECT_EQ(EINVAL, errno);
	sub.fds = 0;
	sub.reserved2[1] = 1;
	EXPECT_EQ(-1, ioctl(self->fd[0], NCSYNC_IOC_SUBMIT, &sub));
	EXPECT_EQ(EINVAL, errno);
	sub.reserved2[1] = 0;
	uq.pad[0] = 1;		/* a position without the flag */
	EXPECT_EQ(-1, ioctl(self->fd[0], NCSYNC_IOC_SUBMIT, &sub));
	EXPECT_EQ(EINVAL, errno);
	uq.pad[0] = 0;
	sub.fds = 0xdead0000;	/* past the 40 bytes: not read */
	ASSERT_EQ(0, ioctl(self->fd[0], NCSYNC_IOC_SUBMIT_V1, &sub));
	expect_done(_metadata, self->fd[0], sub.id);
	EXPECT_EQ(1, sem_of(self->fd[0], 54));
	rec_prog_free(&a);
}

TEST_HARNESS_MAIN
