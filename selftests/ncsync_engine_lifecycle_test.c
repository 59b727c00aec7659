// SPDX-License-Identifier: GPL-2.0
/*
 * ncsync selftests of the engines of core 0 (ncsync_engine.h): the life of
 * a program: the watchdog, PROG_WAIT, cancel, status and release, program
 * ids private to a descriptor, reset, poll, kill -9 of a submitter, close
 * while mapped, concurrent submitters, order on an engine.
 *
 * Run inside the test VM:
 *   tools/vm-run build/selftests/ncsync_engine_lifecycle_test
 */
#include "ncsync_engine.h"

/* ---------------------------------------------------------------------- */
/* Watchdog                                                                */

/* Two engines each wait for what the other posts after its own wait. */
TEST_F(core, watchdog_deadlock_snapshot)
{
	const int a = 150, b = 151;
	struct ncsync_sem_value sems[NCSYNC_NUM_SEMS];
	struct ncsync_prog_status ps;
	struct rec_prog p = {};
	unsigned int i;
	int found = 0;
	__u32 id;

	sem_set(_metadata, self->fd, 152, 42);
	sem_set(_metadata, self->fd, 200, -7);
	rec_wait_then_inc(rec_prog_queue(&p, NCSYNC_ENGINE_PE), W_GE, a, 1, b);
	rec_noop(rec_prog_queue(&p, NCSYNC_ENGINE_DVE), W_EQ, b, U_INC, a, 1);
	id = submit_ok(_metadata, self->fd, &p, 0, WD_SHORT);
	ASSERT_EQ(NCSYNC_PROG_TIMED_OUT, wait_end(_metadata, self->fd, id));

	memset(sems, 0xA5, sizeof(sems));
	status_get(_metadata, self->fd, id, &ps, sems);
	EXPECT_EQ(NCSYNC_PROG_TIMED_OUT, (int)ps.state);
	ASSERT_EQ(2, (int)ps.nengines);
	EXPECT_EQ(NCSYNC_ENGINE_PE, ps.engines[0].engine);
	EXPECT_EQ(NCSYNC_ENG_BLOCKED, ps.engines[0].state);
	EXPECT_EQ(NCSYNC_BLOCK_SEM, ps.engines[0].wait_kind);
	EXPECT_EQ(W_GE, ps.engines[0].wait_mode);
	EXPECT_EQ(a, ps.engines[0].wait_index);
	EXPECT_EQ(1, ps.engines[0].wait_lane);
	EXPECT_EQ(1, ps.engines[0].wait_threshold);
	EXPECT_EQ(0, ps.engines[0].wait_current);
	EXPECT_EQ(0, (int)ps.engines[0].pc);
	EXPECT_EQ(NCSYNC_ENGINE_DVE, ps.engines[1].engine);
	EXPECT_EQ(NCSYNC_ENG_BLOCKED, ps.engines[1].state);
	EXPECT_EQ(NCSYNC_BLOCK_SEM, ps.engines[1].wait_kind);
	EXPECT_EQ(W_EQ, ps.engines[1].wait_mode);
	EXPECT_EQ(b, ps.engines[1].wait_index);
	EXPECT_EQ(0, ps.engines[1].wait_lane);
	EXPECT_EQ(1, ps.engines[1].wait_threshold);
	EXPECT_EQ(0, ps.engines[1].wait_current);
	ASSERT_EQ(2, (int)ps.nsems);
	for (i = 0; i < ps.nsems; i++) {
		if (sems[i].index == 152 && sems[i].value == 42)
			found |= 1;
		if (sems[i].index == 200 && sems[i].value == -7)
			found |= 2;
	}
	EXPECT_EQ(3, found);
	EXPECT_EQ(0xA5A5A5A5, (__u32)sems[2].index) TH_LOG("wrote past nsems");

	/* without a sems pointer, nsems is 0 */
	status_get(_metadata, self->fd, id, &ps, NULL);
	EXPECT_EQ(0, (int)ps.nsems);

	/* the engines are free again */
	rec_prog_free(&p);
	rec_inc(rec_prog_queue(&p, NCSYNC_ENGINE_PE), a);
	rec_inc(rec_prog_queue(&p, NCSYNC_ENGINE_DVE), a);
	id = submit_ok(_metadata, self->fd, &p, 0, WD_LONG);
	ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->fd, id));
	EXPECT_EQ(2, sem_get(_metadata, self->fd, a));
	rec_prog_free(&p);
}

/* Branch-always to itself on every engine: the watchdog ends it. */
TEST_F(core, watchdog_infinite_branch_loop)
{
	struct ncsync_prog_status ps;
	struct rec_prog p = {};
	unsigned int k;
	__u32 id;

	for (k = 0; k < 5; k++)
		rec_jmp(rec_prog_queue(&p, engine_ids[k]), 0);
	/*
	 * Not WD_SHORT: five engines that never sleep share the VM's CPUs,
	 * and each must have run a record before the watchdog ends them.
	 */
	id = submit_ok(_metadata, self->fd, &p, 0, 2000);
	ASSERT_EQ(NCSYNC_PROG_TIMED_OUT, wait_end(_metadata, self->fd, id));
	status_get(_metadata, self->fd, id, &ps, NULL);
	for (k = 0; k < 5; k++) {
		EXPECT_EQ(NCSYNC_ENG_RUNNING, ps.engines[k].state);
		EXPECT_EQ(0, (int)ps.engines[k].pc);
		EXPECT_LT(0, (int)ps.engines[k].executed);
	}
	rec_prog_free(&p);

	for (k = 0; k < 5; k++)
		rec_inc(rec_prog_queue(&p, engine_ids[k]), 160);
	id = submit_ok(_metadata, self->fd, &p, 0, WD_LONG);
	ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->fd, id));
	EXPECT_EQ(5, sem_get(_metadata, self->fd, 160));
	rec_prog_free(&p);
}

/* A program waiting for the test does not time out before its watchdog. */
TEST_F(core, prog_wait_deadline_etimedout)
{
	struct rec_prog p = {};
	__u32 id, state;

	rec_wait_then_inc(rec_prog_queue(&p, NCSYNC_ENGINE_POOL), W_GE, 1, 1,
			  2);
	id = submit_ok(_metadata, self->fd, &p, 0, WD_LONG);
	EXPECT_EQ(-ETIMEDOUT, prog_wait(self->fd, id, 50, &state));
	sem_set(_metadata, self->fd, 1, 1);
	ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->fd, id));
	rec_prog_free(&p);
}

/*
 * Eight programs queued on one engine, each waited for by its own child
 * (the same descriptor): the end of each wakes its waiter, whose wait is
 * keyed with it, and no other waiter returns before its program ends.
 */
TEST_F(core, prog_wait_each_waiter_woken_by_its_program)
{
	enum { N = 8 };
	struct rec_prog p[N] = {};
	__u32 id[N], state;
	pid_t pid[N];
	int i, j, st;

	sem_set(_metadata, self->fd, 3, 0);
	for (i = 0; i < N; i++) {
		rec_wait_then_inc(rec_prog_queue(&p[i], NCSYNC_ENGINE_POOL),
				  W_GE, 3, i + 1, 4);
		id[i] = submit_ok(_metadata, self->fd, &p[i], 0, WD_LONG);
	}
	for (i = 0; i < N; i++) {
		pid[i] = fork();
		ASSERT_LE(0, pid[i]);
		if (!pid[i])
			_exit(prog_wait(self->fd, id[i], LONG_MS, &state) ||
			      state != NCSYNC_PROG_DONE);
	}
	for (i = 0; i < N; i++) {
		sem_set(_metadata, self->fd, 3, i + 1);
		ASSERT_EQ(pid[i], waitpid(pid[i], &st, 0));
		EXPECT_TRUE(WIFEXITED(st) && !WEXITSTATUS(st))
			TH_LOG("the waiter of program %d: status %#x", i, st);
		for (j = i + 1; j < N; j++)
			EXPECT_EQ(0, waitpid(pid[j], &st, WNOHANG))
				TH_LOG("the waiter of program %d returned", j);
	}
	EXPECT_EQ(N, sem_get(_metadata, self->fd, 4));
	for (i = 0; i < N; i++)
		rec_prog_free(&p[i]);
}

TEST_F(core, prog_wait_bad_arguments)
{
	struct ncsync_prog_wait pw;
	struct rec_prog p = {};
	__u32 id;

	rec_inc(rec_prog_queue(&p, NCSYNC_ENGINE_DVE), 1);
	id = submit_ok(_metadata, self->fd, &p, 0, WD_LONG);
	memset(&pw, 0, sizeof(pw));
	pw.id = id;
	pw.flags = 2;
	pw.deadline = deadline_ms(LONG_MS);
	EXPECT_EQ(-1, ioctl(self->fd, NCSYNC_IOC_PROG_WAIT, &pw));
	EXPECT_EQ(EINVAL, errno);
	pw.flags = 0;
	pw.reserved = 1;
	EXPECT_EQ(-1, ioctl(self->fd, NCSYNC_IOC_PROG_WAIT, &pw));
	EXPECT_EQ(EINVAL, errno);
	pw.reserved = 0;
	pw.deadline.tv_nsec = NSEC_PER_SEC;
	EXPECT_EQ(-1, ioctl(self->fd, NCSYNC_IOC_PROG_WAIT, &pw));
	EXPECT_EQ(EINVAL, errno);
	pw.flags = NCSYNC_WAIT_F_NO_DEADLINE;
	pw.deadline = deadline_ms(LONG_MS);
	EXPECT_EQ(-1, ioctl(self->fd, NCSYNC_IOC_PROG_WAIT, &pw));
	EXPECT_EQ(EINVAL, errno);
	memset(&pw.deadline, 0, sizeof(pw.deadline));
	ASSERT_EQ(0, ioctl(self->fd, NCSYNC_IOC_PROG_WAIT, &pw));
	EXPECT_EQ(NCSYNC_PROG_DONE, (int)pw.state);
	EXPECT_EQ(-1, ioctl(self->fd, NCSYNC_IOC_PROG_WAIT, NULL));
	EXPECT_EQ(EFAULT, errno);
	rec_prog_free(&p);
}

/*
 * watchdog_ms 0 in a submission takes the module's watchdog_ms (reported by
 * NCSYNC_IOC_INFO).  Run with -p 'watchdog_ms=500' or less to test it.
 */
TEST_F(core, watchdog_default_from_module_parameter)
{
	struct ncsync_info info;
	struct rec_prog p = {};
	__s64 t0;
	__u32 id;

	ASSERT_EQ(0, ioctl(self->fd, NCSYNC_IOC_INFO, &info));
	if (info.watchdog_ms > 2000)
		SKIP(return, "module watchdog_ms %u: too long for this test",
		     info.watchdog_ms);
	rec_wait_then_inc(rec_prog_queue(&p, NCSYNC_ENGINE_PE), W_GE, 1, 1, 2);
	t0 = now_ns();
	id = submit_ok(_metadata, self->fd, &p, 0, 0);
	ASSERT_EQ(NCSYNC_PROG_TIMED_OUT, wait_end(_metadata, self->fd, id));
	EXPECT_LE((__s64)info.watchdog_ms * NSEC_PER_MSEC, now_ns() - t0);
	rec_prog_free(&p);
}

/* ---------------------------------------------------------------------- */
/* Cancel, status, release                                                 */

TEST_F(core, cancel_blocked_program)
{
	const int s = 170, t = 171;
	struct ncsync_prog_status ps;
	struct rec_prog p = {};
	__u32 id;

	rec_wait_then_inc(rec_prog_queue(&p, NCSYNC_ENGINE_DVE), W_GE, s, 1, t);
	rec_inc(rec_prog_queue(&p, NCSYNC_ENGINE_SP), t);
	id = submit_ok(_metadata, self->fd, &p, 0, WD_LONG);
	wait_blocked(_metadata, self->fd, id, 0, NULL);
	wait_engine(_metadata, self->fd, id, 1, NCSYNC_ENG_DONE, NULL);
	ASSERT_EQ(0, cancel(self->fd, id, 0));
	ASSERT_EQ(NCSYNC_PROG_CANCELLED, wait_end(_metadata, self->fd, id));
	status_get(_metadata, self->fd, id, &ps, NULL);
	EXPECT_EQ(NCSYNC_PROG_CANCELLED, (int)ps.state);
	EXPECT_EQ(NCSYNC_ENG_CANCELLED, ps.engines[0].state);
	EXPECT_EQ(NCSYNC_FAULT_CANCELLED, ps.engines[0].fault);
	EXPECT_EQ(NCSYNC_ENG_DONE, ps.engines[1].state);
	/* the wait's increment never ran, even once the wait would pass */
	sem_set(_metadata, self->fd, s, 1);
	sleep_ms(20);
	EXPECT_EQ(1, sem_get(_metadata, self->fd, t));
	/* cancelling an ended program changes nothing */
	EXPECT_EQ(0, cancel(self->fd, id, 0));
	EXPECT_EQ(NCSYNC_PROG_CANCELLED, wait_end(_metadata, self->fd, id));
	rec_prog_free(&p);
}

/* A program queued behind another on its engine is cancelled at once. */
TEST_F(core, cancel_queued_program)
{
	const int s = 172, t = 173, u = 174;
	struct ncsync_prog_status ps;
	struct rec_prog p = {}, p2 = {};
	__u32 id, id2;

	rec_wait_then_inc(rec_prog_queue(&p, NCSYNC_ENGINE_PE), W_GE, s, 1, t);
	id = submit_ok(_metadata, self->fd, &p, 0, WD_LONG);
	wait_blocked(_metadata, self->fd, id, 0, NULL);
	rec_inc(rec_prog_queue(&p2, NCSYNC_ENGINE_PE), u);
	id2 = submit_ok(_metadata, self->fd, &p2, 0, WD_LONG);
	status_get(_metadata, self->fd, id2, &ps, NULL);
	EXPECT_EQ(NCSYNC_PROG_QUEUED, (int)ps.state);
	ASSERT_EQ(0, cancel(self->fd, id2, 0));
	ASSERT_EQ(NCSYNC_PROG_CANCELLED, wait_end(_metadata, self->fd, id2));
	status_get(_metadata, self->fd, id2, &ps, NULL);
	EXPECT_EQ(NCSYNC_ENG_CANCELLED, ps.engines[0].state);
	EXPECT_EQ(NCSYNC_FAULT_CANCELLED, ps.engines[0].fault);
	sem_set(_metadata, self->fd, s, 1);
	ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->fd, id));
	sleep_ms(20);
	EXPECT_EQ(1, sem_get(_metadata, self->fd, t));
	EXPECT_EQ(0, sem_get(_metadata, self->fd, u));
	rec_prog_free(&p);
	rec_prog_free(&p2);
}

TEST_F(core, cancel_flags_nonzero_einval)
{
	struct rec_prog p = {};
	__u32 id;

	rec_wait_then_inc(rec_prog_queue(&p, NCSYNC_ENGINE_PE), W_GE, 1, 1, 2);
	id = submit_ok(_metadata, self->fd, &p, 0, WD_LONG);
	EXPECT_EQ(-EINVAL, cancel(self->fd, id, 1));
	EXPECT_EQ(0, cancel(self->fd, id, 0));
	EXPECT_EQ(NCSYNC_PROG_CANCELLED, wait_end(_metadata, self->fd, id));
	rec_prog_free(&p);
}

TEST_F(core, unknown_id_enoent)
{
	struct ncsync_prog_status ps;
	__u32 state;

	EXPECT_EQ(-ENOENT, cancel(self->fd, 12345, 0));
	EXPECT_EQ(-ENOENT, cancel(self->fd, 0, 0));
	EXPECT_EQ(-ENOENT, prog_status(self->fd, 12345, 0, &ps, NULL));
	EXPECT_EQ(-ENOENT, prog_status(self->fd, 0, 0, &ps, NULL));
	EXPECT_EQ(-ENOENT, prog_wait(self->fd, 12345, 100, &state));
	EXPECT_EQ(-ENOENT, prog_status(self->fd, 12345,
				       NCSYNC_STATUS_F_RELEASE, &ps, NULL));
}

/* Program ids belong to the descriptor that submitted them. */
TEST_F(core, prog_ids_private_to_descriptor)
{
	struct ncsync_prog_status ps;
	struct rec_prog p = {};
	__u32 id, state;
	int fd2;

	fd2 = open(DEV0, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, fd2);
	rec_wait_then_inc(rec_prog_queue(&p, NCSYNC_ENGINE_ACT), W_GE, 1, 1, 2);
	id = submit_ok(_metadata, self->fd, &p, 0, WD_LONG);
	EXPECT_EQ(-ENOENT, prog_status(fd2, id, 0, &ps, NULL));
	EXPECT_EQ(-ENOENT, cancel(fd2, id, 0));
	EXPECT_EQ(-ENOENT, prog_wait(fd2, id, 50, &state));
	sem_set(_metadata, self->fd, 1, 1);
	ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->fd, id));
	close(fd2);
	rec_prog_free(&p);
}

TEST_F(core, status_release_running_ebusy_ended_then_enoent)
{
	struct ncsync_prog_status ps;
	struct rec_prog p = {};
	__u32 id, state;

	rec_wait_then_inc(rec_prog_queue(&p, NCSYNC_ENGINE_ACT), W_GE, 1, 1, 2);
	id = submit_ok(_metadata, self->fd, &p, 0, WD_LONG);
	wait_blocked(_metadata, self->fd, id, 0, NULL);
	EXPECT_EQ(-EBUSY, prog_status(self->fd, id, NCSYNC_STATUS_F_RELEASE,
				      &ps, NULL));
	status_get(_metadata, self->fd, id, &ps, NULL);
	EXPECT_EQ(NCSYNC_PROG_RUNNING, (int)ps.state);
	sem_set(_metadata, self->fd, 1, 1);
	ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->fd, id));
	EXPECT_EQ(0, prog_status(self->fd, id, NCSYNC_STATUS_F_RELEASE, &ps,
				 NULL));
	EXPECT_EQ(NCSYNC_PROG_DONE, (int)ps.state);
	EXPECT_EQ(NCSYNC_ENG_DONE, ps.engines[0].state);
	EXPECT_EQ(-ENOENT, prog_status(self->fd, id, 0, &ps, NULL));
	EXPECT_EQ(-ENOENT, prog_wait(self->fd, id, 50, &state));
	EXPECT_EQ(-ENOENT, cancel(self->fd, id, 0));
	rec_prog_free(&p);
}

TEST_F(core, status_bad_flags_reserved_einval)
{
	struct ncsync_prog_status ps;
	struct rec_prog p = {};
	__u32 id;

	rec_inc(rec_prog_queue(&p, NCSYNC_ENGINE_ACT), 1);
	id = submit_ok(_metadata, self->fd, &p, 0, WD_LONG);
	ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->fd, id));
	EXPECT_EQ(-EINVAL, prog_status(self->fd, id, 4, &ps, NULL));
	memset(&ps, 0, sizeof(ps));
	ps.id = id;
	ps.core = 1;
	EXPECT_EQ(-1, ioctl(self->fd, NCSYNC_IOC_PROG_STATUS, &ps));
	EXPECT_EQ(EINVAL, errno);
	rec_prog_free(&p);
}

/* ---------------------------------------------------------------------- */
/* Reset, poll, processes                                                  */

TEST_F(core, reset_cancels_blocked_program_and_clears_banks)
{
	const int s = 180, e = 181;
	struct ncsync_prog_status ps;
	__u32 evts[256];
	__s32 sems[256];
	struct rec_prog p = {}, p2 = {};
	unsigned int i;
	__u32 id, id2;

	sem_set(_metadata, self->fd, 5, 55);
	evt_set(_metadata, self->fd, 6, true);
	rec_wait_then_inc(rec_prog_queue(&p, NCSYNC_ENGINE_POOL), W_GE, s, 1,
			  s);
	rec_noop(rec_prog_queue(&p, NCSYNC_ENGINE_SP), W_EVT_SET, e, U_INC, 7,
		 0);
	id = submit_ok(_metadata, self->fd, &p, 0, WD_LONG);
	wait_blocked(_metadata, self->fd, id, 0, NULL);
	wait_blocked(_metadata, self->fd, id, 1, NULL);
	/* queued behind */
	rec_inc(rec_prog_queue(&p2, NCSYNC_ENGINE_SP), 8);
	id2 = submit_ok(_metadata, self->fd, &p2, 0, WD_LONG);
	core_reset(_metadata, self->fd);
	ASSERT_EQ(NCSYNC_PROG_CANCELLED, wait_end(_metadata, self->fd, id));
	ASSERT_EQ(NCSYNC_PROG_CANCELLED, wait_end(_metadata, self->fd, id2));
	status_get(_metadata, self->fd, id, &ps, NULL);
	for (i = 0; i < 2; i++) {
		EXPECT_EQ(NCSYNC_ENG_CANCELLED, ps.engines[i].state);
		EXPECT_EQ(NCSYNC_FAULT_RESET, ps.engines[i].fault);
	}
	status_get(_metadata, self->fd, id2, &ps, NULL);
	EXPECT_EQ(NCSYNC_ENG_CANCELLED, ps.engines[0].state);
	EXPECT_EQ(NCSYNC_FAULT_RESET, ps.engines[0].fault);
	sems_get(_metadata, self->fd, sems);
	ASSERT_EQ((ssize_t)sizeof(evts), pread(self->fd, evts, sizeof(evts), EVT(0)));
	for (i = 0; i < 256; i++) {
		EXPECT_EQ(0, sems[i]) TH_LOG("sem %u", i);
		EXPECT_EQ(0U, evts[i]) TH_LOG("event %u", i);
	}
	/* the engines run new programs */
	rec_prog_free(&p);
	rec_inc(rec_prog_queue(&p, NCSYNC_ENGINE_POOL), s);
	id = submit_ok(_metadata, self->fd, &p, 0, WD_LONG);
	ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->fd, id));
	EXPECT_EQ(1, sem_get(_metadata, self->fd, s));
	EXPECT_EQ(0, sem_get(_metadata, self->fd, 8));
	rec_prog_free(&p);
	rec_prog_free(&p2);
}

TEST_F(core, poll_epollpri_when_program_ends)
{
	struct pollfd pfd = { .fd = self->fd, .events = POLLPRI };
	struct ncsync_prog_status ps;
	struct rec_prog p = {}, p2 = {};
	__u32 id, state;

	rec_wait_then_inc(rec_prog_queue(&p, NCSYNC_ENGINE_POOL), W_GE, 1, 1,
			  2);
	id = submit_ok(_metadata, self->fd, &p, 0, WD_LONG);
	wait_blocked(_metadata, self->fd, id, 0, NULL);
	EXPECT_EQ(0, poll(&pfd, 1, 0));
	sem_set(_metadata, self->fd, 1, 1);
	ASSERT_EQ(1, poll(&pfd, 1, LONG_MS));
	EXPECT_TRUE((pfd.revents & POLLPRI) != 0);
	/* still there, until the end is reported */
	ASSERT_EQ(1, poll(&pfd, 1, 0));
	EXPECT_TRUE((pfd.revents & POLLPRI) != 0);
	status_get(_metadata, self->fd, id, &ps, NULL);
	EXPECT_EQ(NCSYNC_PROG_DONE, (int)ps.state);
	EXPECT_EQ(0, poll(&pfd, 1, 0)) TH_LOG("EPOLLPRI after PROG_STATUS");

	/* PROG_WAIT reports the end too */
	rec_inc(rec_prog_queue(&p2, NCSYNC_ENGINE_ACT), 3);
	id = submit_ok(_metadata, self->fd, &p2, 0, WD_LONG);
	ASSERT_EQ(1, poll(&pfd, 1, LONG_MS));
	EXPECT_TRUE((pfd.revents & POLLPRI) != 0);
	ASSERT_EQ(0, prog_wait(self->fd, id, LONG_MS, &state));
	EXPECT_EQ(NCSYNC_PROG_DONE, (int)state);
	EXPECT_EQ(0, poll(&pfd, 1, 0)) TH_LOG("EPOLLPRI after PROG_WAIT");
	rec_prog_free(&p);
	rec_prog_free(&p2);
}

/* A child whose program is blocked is killed: its program goes away. */
TEST_F(core, kill9_child_program_does_not_linger)
{
	const int s = 190, t = 191, u = 192;
	struct rec_prog p = {};
	int pipefd[2], status;
	char c = 0;
	pid_t pid;
	__u32 id;

	ASSERT_EQ(0, pipe(pipefd));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		struct ncsync_prog_status ps;
		struct ncsync_submit sub;
		struct rec_prog cp = {};
		int cfd = open(DEV0, O_RDWR);

		close(pipefd[0]);
		if (cfd < 0)
			_exit(1);
		rec_wait_then_inc(rec_prog_queue(&cp, NCSYNC_ENGINE_POOL), W_GE,
				  s, 1, u);
		if (rec_prog_submit(cfd, &cp, 0, WD_LONG, &sub))
			_exit(2);
		do {
			usleep(1000);
			if (prog_status(cfd, sub.id, 0, &ps, NULL))
				_exit(3);
		} while (ps.engines[0].state != NCSYNC_ENG_BLOCKED);
		if (write(pipefd[1], "B", 1) != 1)
			_exit(4);
		for (;;)
			pause();
	}
	close(pipefd[1]);
	ASSERT_EQ(1, read(pipefd[0], &c, 1));
	close(pipefd[0]);
	ASSERT_EQ('B', c);
	ASSERT_EQ(0, kill(pid, SIGKILL));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFSIGNALED(status));

	/* the engine is free; the child's wait never passes now */
	sem_set(_metadata, self->fd, s, 1);
	rec_inc(rec_prog_queue(&p, NCSYNC_ENGINE_POOL), t);
	id = submit_ok(_metadata, self->fd, &p, 0, WD_LONG);
	ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->fd, id));
	EXPECT_EQ(1, sem_get(_metadata, self->fd, t));
	EXPECT_EQ(0, sem_get(_metadata, self->fd, u))
		TH_LOG("the killed child's program ran on");
	core_reset(_metadata, self->fd);
	id = submit_ok(_metadata, self->fd, &p, 0, WD_LONG);
	ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->fd, id));
	EXPECT_EQ(1, sem_get(_metadata, self->fd, t));
	rec_prog_free(&p);
}

/*
 * A mapping holds the open file: after close(2), the program goes on until
 * the mapping is gone too.
 */
TEST_F(core, program_survives_close_while_mapped)
{
	const int s = 193, t = 194;
	struct rec_prog p = {};
	void *map;
	int fd2;

	fd2 = open(DEV0, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, fd2);
	map = mmap(NULL, 8192, PROT_READ, MAP_SHARED, fd2, 0);
	ASSERT_NE(MAP_FAILED, map);
	rec_wait_then_inc(rec_prog_queue(&p, NCSYNC_ENGINE_DVE), W_GE, s, 1, t);
	submit_ok(_metadata, fd2, &p, 0, WD_LONG);
	close(fd2);
	sleep_ms(20);
	sem_set(_metadata, self->fd, s, 1);
	ASSERT_EQ(0, sem_wait_ioctl(self->fd, t, W_GE, 1, LONG_MS))
		TH_LOG("the program did not survive the close");
	munmap(map, 8192);
	rec_prog_free(&p);
}

#define NPROC		4
#define NPROG		16
#define NREC		10
#define SEM_TOTAL	200

static int child_submitter(unsigned int c, int gate)
{
	char x;
	int fd, k;

	fd = open(DEV0, O_RDWR);
	if (fd < 0)
		return 10;
	if (read(gate, &x, 1) != 0)	/* wait for the parent's close */
		return 11;
	for (k = 0; k < NPROG; k++) {
		struct ncsync_prog_status ps;
		struct ncsync_submit sub;
		struct rec_prog p = {};
		unsigned int e, i;
		__u32 state;

		for (e = 0; e < 2; e++) {
			struct rec_queue *q;

			q = rec_prog_queue(&p, engine_ids[(c + e + k) % 5]);
			for (i = 0; i < NREC; i++) {
				__u8 *r = rec_evsem(q);

				rec_lane0(r, 0, 0, U_COMPLETE | U_INC,
					 SEM_TOTAL, 0);
				rec_lane1(r, 0, 0, U_COMPLETE | U_INC, 201 + c,
					 0, 1);
			}
		}
		if (rec_prog_submit(fd, &p, 0, WD_LONG, &sub))
			return 12;
		if (prog_wait(fd, sub.id, LONG_MS, &state))
			return 13;
		if (state != NCSYNC_PROG_DONE)
			return 14;
		if (prog_status(fd, sub.id, NCSYNC_STATUS_F_RELEASE, &ps, NULL))
			return 15;
		rec_prog_free(&p);
	}
	close(fd);
	return 0;
}

TEST_F_TIMEOUT(core, fork4_concurrent_submitters, 120)
{
	pid_t pids[NPROC];
	unsigned int c;
	int gate[2], status;

	ASSERT_EQ(0, pipe(gate));
	for (c = 0; c < NPROC; c++) {
		pids[c] = fork();
		ASSERT_LE(0, pids[c]);
		if (pids[c] == 0) {
			close(gate[1]);
			_exit(child_submitter(c, gate[0]));
		}
	}
	close(gate[0]);
	close(gate[1]);
	for (c = 0; c < NPROC; c++) {
		ASSERT_EQ(pids[c], waitpid(pids[c], &status, 0));
		EXPECT_TRUE(WIFEXITED(status));
		EXPECT_EQ(0, WEXITSTATUS(status)) TH_LOG("child %u", c);
	}
	EXPECT_EQ(NPROC * NPROG * 2 * NREC,
		  sem_get(_metadata, self->fd, SEM_TOTAL));
	for (c = 0; c < NPROC; c++)
		EXPECT_EQ(NPROG * 2 * NREC,
			  sem_get(_metadata, self->fd, 201 + c));
}

/*
 * Programs sharing an engine run in submission order: B (Pool + Act) waits
 * for A (Pool, blocked) to end, and so does C (Act) queued behind B; D (PE)
 * shares no engine and runs at once.
 */
TEST_F(core, same_engine_programs_run_in_order)
{
	const int s = 210, t = 211, r = 212, v = 213, w = 214,
			   x = 215;
	struct rec_prog a = {}, b = {}, c = {}, d = {};
	struct ncsync_prog_status ps;
	struct rec_queue *q;
	__u32 ia, ib, ic, id;

	rec_wait_then_inc(rec_prog_queue(&a, NCSYNC_ENGINE_POOL), W_GE, s, 1,
			  t);
	ia = submit_ok(_metadata, self->fd, &a, 0, WD_LONG);
	wait_blocked(_metadata, self->fd, ia, 0, NULL);

	q = rec_prog_queue(&b, NCSYNC_ENGINE_POOL);
	rec_poll(q, NCSYNC_POLL_MIN, 1, t, 1);
	rec_store_reg(q, r, 1);			/* R = T as B sees it */
	rec_inc(rec_prog_queue(&b, NCSYNC_ENGINE_ACT), v);
	ib = submit_ok(_metadata, self->fd, &b, 0, WD_LONG);
	rec_inc(rec_prog_queue(&c, NCSYNC_ENGINE_ACT), w);
	ic = submit_ok(_metadata, self->fd, &c, 0, WD_LONG);
	rec_inc(rec_prog_queue(&d, NCSYNC_ENGINE_PE), x);
	id = submit_ok(_metadata, self->fd, &d, 0, WD_LONG);
	ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->fd, id));
	EXPECT_EQ(1, sem_get(_metadata, self->fd, x));

	sleep_ms(50);
	status_get(_metadata, self->fd, ib, &ps, NULL);
	EXPECT_EQ(NCSYNC_PROG_QUEUED, (int)ps.state);
	EXPECT_EQ(NCSYNC_ENG_QUEUED, ps.engines[0].state);
	EXPECT_EQ(NCSYNC_ENG_QUEUED, ps.engines[1].state);
	status_get(_metadata, self->fd, ic, &ps, NULL);
	EXPECT_EQ(NCSYNC_PROG_QUEUED, (int)ps.state);
	EXPECT_EQ(0, sem_get(_metadata, self->fd, v));
	EXPECT_EQ(0, sem_get(_metadata, self->fd, w));
	EXPECT_EQ(0, sem_get(_metadata, self->fd, r));

	sem_set(_metadata, self->fd, s, 1);
	ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->fd, ia));
	ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->fd, ib));
	ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->fd, ic));
	EXPECT_EQ(1, sem_get(_metadata, self->fd, r))
		TH_LOG("B ran before A ended");
	EXPECT_EQ(1, sem_get(_metadata, self->fd, v));
	EXPECT_EQ(1, sem_get(_metadata, self->fd, w));
	rec_prog_free(&a);
	rec_prog_free(&b);
	rec_prog_free(&c);
	rec_prog_free(&d);
}

TEST_HARNESS_MAIN
