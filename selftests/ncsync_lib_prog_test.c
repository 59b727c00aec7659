// SPDX-License-Identifier: GPL-2.0
/*
 * ncsync selftests of libncsync against the driver (ncsync_lib.h): programs:
 * token rings and semaphores, status, wait and cancel, the watchdog,
 * limits, strict mode, a second core, the allocator.
 *
 * Run inside the test VM:
 *   tools/vm-run build/selftests/ncsync_lib_prog_test
 */
#include "ncsync_lib.h"

/* ---------------------------------------------------------------------- */
/* Programs: rings and semaphores                                          */

/*
 * ncsync_add_semaphore_wait_eq_and_inc() on all five engines: engine k
 * waits S == 5r + k and increments it, for R rounds.  The ring completes
 * only if every record's wait and increment are one atomic step and the
 * turns come in order.
 */
TEST_F(core, token_ring_five_engines)
{
	const unsigned int rounds = 100;
	struct ncsync_program *prog = prog_new(_metadata);
	struct ncsync_prog_status st;
	unsigned int k, r;
	uint32_t id;
	int s;

	s = ncsync_sem_alloc(prog, 1);
	ADD(s);
	for (k = 0; k < NCSYNC_NUM_ENGINES; k++) {
		struct ncsync_stream *q = stream(_metadata, prog,
						 engine_ids[k]);

		for (r = 0; r < rounds; r++)
			ADD(ncsync_add_semaphore_wait_eq_and_inc(q, s,
								 5 * r + k));
	}
	id = submit(_metadata, self->dev, prog, 0, WD_LONG);
	ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->dev, id));
	EXPECT_EQ((int32_t)(5 * rounds), ncsync_sem_read(self->dev, s));
	status_get(_metadata, self->dev, id, &st, NULL);
	EXPECT_EQ((unsigned int)(NCSYNC_NUM_ENGINES), st.nengines);
	for (k = 0; k < NCSYNC_NUM_ENGINES; k++) {
		EXPECT_EQ(engine_ids[k], st.engines[k].engine);
		EXPECT_EQ(NCSYNC_ENG_DONE, st.engines[k].state);
		EXPECT_EQ(rounds, st.engines[k].pc);
		EXPECT_EQ(rounds, st.engines[k].executed);
	}
	ncsync_program_free(prog);
}

/*
 * ncsync_add_semaphore_wait() is a P(): with S = 1 and two engines each
 * doing P(S) then marking their own semaphore, exactly one passes; the
 * other blocks until the (short) watchdog stops the program.  The snapshot
 * shows one engine done and the other blocked on S > 0 in lane 1.
 */
TEST_F(core, semaphore_wait_is_p)
{
	static const uint8_t two[2] = { NCSYNC_ENGINE_POOL, NCSYNC_ENGINE_DVE };
	struct ncsync_program *prog = prog_new(_metadata);
	struct ncsync_sem_value sems[NCSYNC_NUM_SEMS];
	const struct ncsync_engine_status *e[2];
	struct ncsync_prog_status st;
	int s, mark, winner;
	unsigned int k;
	bool found;
	uint32_t id;

	s = ncsync_sem_alloc(prog, 1);
	ADD(s);
	mark = ncsync_sem_alloc(prog, 2);
	ADD(mark);
	for (k = 0; k < 2; k++) {
		struct ncsync_stream *q = stream(_metadata, prog, two[k]);

		ADD(ncsync_add_semaphore_wait(q, s));
		ADD(ncsync_add_semaphore_inc(q, mark + k));
	}
	ASSERT_EQ(0, ncsync_sem_set(self->dev, s, 1, NULL));
	id = submit(_metadata, self->dev, prog, 0, WD_SETTLE);
	ASSERT_EQ(NCSYNC_PROG_TIMED_OUT, wait_end(_metadata, self->dev, id));

	EXPECT_EQ(0, ncsync_sem_read(self->dev, s));
	EXPECT_EQ(1, ncsync_sem_read(self->dev, mark) +
		     ncsync_sem_read(self->dev, mark + 1));

	status_get(_metadata, self->dev, id, &st, sems);
	EXPECT_EQ(NCSYNC_PROG_TIMED_OUT, (int)st.state);
	ASSERT_EQ(2U, st.nengines);
	e[0] = eng_status(&st, two[0]);
	e[1] = eng_status(&st, two[1]);
	ASSERT_NE(NULL, e[0]);
	ASSERT_NE(NULL, e[1]);
	winner = e[0]->state == NCSYNC_ENG_DONE ? 0 : 1;
	if (e[winner]->state != NCSYNC_ENG_DONE ||
	    e[!winner]->state != NCSYNC_ENG_BLOCKED)
		status_log(_metadata, &st);
	ASSERT_EQ(NCSYNC_ENG_DONE, e[winner]->state);
	EXPECT_EQ(2U, e[winner]->pc);
	EXPECT_EQ(2U, e[winner]->executed);
	ASSERT_EQ(NCSYNC_ENG_BLOCKED, e[!winner]->state);
	EXPECT_EQ(0U, e[!winner]->pc);
	EXPECT_EQ(0U, e[!winner]->executed);
	EXPECT_EQ(NCSYNC_BLOCK_SEM, e[!winner]->wait_kind);
	EXPECT_EQ(NCSYNC_WAIT_SEM_GT, e[!winner]->wait_mode);
	EXPECT_EQ(s, e[!winner]->wait_index);
	EXPECT_EQ(1, e[!winner]->wait_lane);
	EXPECT_EQ(0, e[!winner]->wait_threshold);
	EXPECT_EQ(0, e[!winner]->wait_current);
	EXPECT_EQ(1, ncsync_sem_read(self->dev, mark + winner));

	/* The snapshot's semaphores: the winner's mark and nothing else. */
	EXPECT_EQ(1U, st.nsems);
	EXPECT_EQ(1, snap_sem(sems, st.nsems, mark + winner, &found));
	EXPECT_TRUE(found);
	ncsync_program_free(prog);
}

/* ---------------------------------------------------------------------- */
/* Program status, wait, cancel                                            */

/*
 * A finished program's status is its snapshot: the semaphores it left,
 * not what they became later.  Release forgets it.
 */
TEST_F(core, program_status_sems_snapshot)
{
	struct ncsync_program *prog = prog_new(_metadata);
	struct ncsync_sem_value sems[NCSYNC_NUM_SEMS];
	struct ncsync_prog_status st;
	struct ncsync_stream *q;
	uint32_t id, i;
	bool found;

	ASSERT_EQ(0, ncsync_sem_set(self->dev, 90, 5, NULL));
	q = stream(_metadata, prog, NCSYNC_ENGINE_PE);
	ADD(ncsync_add_semaphore_set(q, 60, 42));
	ADD(ncsync_add_semaphore_set(q, 61, (uint32_t)-3));
	ADD(ncsync_add_semaphore_set(q, 90, 0));
	ADD(ncsync_add_semaphore_add(q, 255, 7));
	ADD(ncsync_add_exit(q, NULL));
	ADD(ncsync_add_semaphore_inc(q, 62));	/* never reached */
	id = submit(_metadata, self->dev, prog, 0, WD_LONG);
	ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->dev, id));

	/* Later changes are not in the snapshot. */
	ASSERT_EQ(0, ncsync_sem_set(self->dev, 60, 1, NULL));
	ASSERT_EQ(0, ncsync_sem_set(self->dev, 70, 9, NULL));

	memset(sems, 0xa5, sizeof(sems));
	status_get(_metadata, self->dev, id, &st, sems);
	EXPECT_EQ(id, st.id);
	EXPECT_EQ(NCSYNC_PROG_DONE, (int)st.state);
	ASSERT_EQ(1U, st.nengines);
	EXPECT_EQ(NCSYNC_ENGINE_PE, st.engines[0].engine);
	EXPECT_EQ(NCSYNC_ENG_DONE, st.engines[0].state);
	EXPECT_EQ(NCSYNC_FAULT_NONE, st.engines[0].fault);
	EXPECT_EQ(4U, st.engines[0].pc);		/* the Exit */
	EXPECT_EQ(5U, st.engines[0].executed);
	ASSERT_EQ(3U, st.nsems);
	for (i = 1; i < st.nsems; i++)
		EXPECT_LT(sems[i - 1].index, sems[i].index);
	EXPECT_EQ(42, snap_sem(sems, st.nsems, 60, &found));
	EXPECT_TRUE(found);
	EXPECT_EQ(-3, snap_sem(sems, st.nsems, 61, &found));
	EXPECT_TRUE(found);
	EXPECT_EQ(7, snap_sem(sems, st.nsems, 255, &found));
	EXPECT_TRUE(found);
	snap_sem(sems, st.nsems, 90, &found);
	EXPECT_FALSE(found);
	snap_sem(sems, st.nsems, 70, &found);
	EXPECT_FALSE(found);
	EXPECT_EQ(0, ncsync_sem_read(self->dev, 62));

	/* Without a sems buffer, nsems is 0. */
	status_get(_metadata, self->dev, id, &st, NULL);
	EXPECT_EQ(0U, st.nsems);

	/* Release forgets it. */
	EXPECT_EQ(0, ncsync_program_status(self->dev, id, true, &st, NULL));
	EXPECT_EQ(NCSYNC_PROG_DONE, (int)st.state);
	EXPECT_EQ(-ENOENT, ncsync_program_status(self->dev, id, false, &st,
						 NULL));
	EXPECT_EQ(-ENOENT, ncsync_program_wait(self->dev, id, NULL, NULL));
	EXPECT_EQ(-ENOENT, ncsync_program_cancel(self->dev, id));
	ncsync_program_free(prog);
}

/*
 * A running program's status is live; it cannot be released; its wait
 * times out at the deadline; cancel ends it CANCELLED.
 */
/* SP of program @id blocks on sem[@s] == 3, and its report is live. */
static void check_sp_blocked_live(struct __test_metadata *_metadata,
				  struct ncsync_dev *dev, uint32_t id, int s)
{
	struct ncsync_prog_status st;
	const struct ncsync_engine_status *e;

	wait_blocked(_metadata, dev, id, NCSYNC_ENGINE_SP, &st);
	EXPECT_EQ(NCSYNC_PROG_RUNNING, (int)st.state);
	e = ENG(&st, NCSYNC_ENGINE_SP);
	EXPECT_EQ(NCSYNC_BLOCK_SEM, e->wait_kind);
	EXPECT_EQ(NCSYNC_WAIT_SEM_EQ, e->wait_mode);
	EXPECT_EQ(s, e->wait_index);
	EXPECT_EQ(3, e->wait_threshold);
	EXPECT_EQ(0, e->wait_current);
	/* Live: a change shows at once. */
	ASSERT_EQ(0, ncsync_sem_set(dev, s, 2, NULL));
	wait_blocked(_metadata, dev, id, NCSYNC_ENGINE_SP, &st);
	EXPECT_EQ(2, ENG(&st, NCSYNC_ENGINE_SP)->wait_current);
	EXPECT_EQ(-EBUSY, ncsync_program_status(dev, id, true, &st, NULL));
}

/* The report of cancelled program @id: Act done, SP cancelled at 0. */
static void check_cancelled_report(struct __test_metadata *_metadata,
				   struct ncsync_dev *dev, uint32_t id, int s)
{
	struct ncsync_prog_status st;
	const struct ncsync_engine_status *e;

	status_get(_metadata, dev, id, &st, NULL);
	EXPECT_EQ(NCSYNC_PROG_CANCELLED, (int)st.state);
	e = ENG(&st, NCSYNC_ENGINE_ACT);
	EXPECT_EQ(NCSYNC_ENG_DONE, e->state);
	EXPECT_EQ(NCSYNC_FAULT_NONE, e->fault);
	e = ENG(&st, NCSYNC_ENGINE_SP);
	EXPECT_EQ(NCSYNC_ENG_CANCELLED, e->state);
	EXPECT_EQ(NCSYNC_FAULT_CANCELLED, e->fault);
	EXPECT_EQ(0U, e->pc);
	EXPECT_EQ(1, ncsync_sem_read(dev, s + 1));
}

TEST_F(core, program_wait_deadline_and_cancel)
{
	struct ncsync_program *prog = prog_new(_metadata);
	struct timespec dl;
	uint32_t id, state = 99;
	int64_t t0;
	int s;

	s = ncsync_sem_alloc(prog, 1);
	ADD(s);
	ADD(ncsync_add_semaphore_inc(stream(_metadata, prog,
					    NCSYNC_ENGINE_ACT), s + 1));
	ADD(ncsync_add_semaphore_wait_eq(stream(_metadata, prog,
						NCSYNC_ENGINE_SP), s, 3));
	id = submit(_metadata, self->dev, prog, 0, WD_LONG);

	check_sp_blocked_live(_metadata, self->dev, id, s);

	t0 = now_ns();
	dl = deadline_ms(100);
	EXPECT_EQ(-ETIMEDOUT, ncsync_program_wait(self->dev, id, &dl, &state));
	EXPECT_LE(100 * NSEC_PER_MSEC, now_ns() - t0);
	EXPECT_EQ(99U, state);
	dl.tv_sec = 0;
	dl.tv_nsec = 0;
	EXPECT_EQ(-ETIMEDOUT, ncsync_program_wait(self->dev, id, &dl, &state));

	ASSERT_EQ(0, ncsync_program_cancel(self->dev, id));
	ASSERT_EQ(NCSYNC_PROG_CANCELLED, wait_end(_metadata, self->dev, id));
	check_cancelled_report(_metadata, self->dev, id, s);
	/* Cancelling an ended program does nothing. */
	EXPECT_EQ(0, ncsync_program_cancel(self->dev, id));
	ASSERT_EQ(0, ncsync_program_wait(self->dev, id, NULL, &state));
	EXPECT_EQ(NCSYNC_PROG_CANCELLED, (int)state);
	/* Unknown ids */
	EXPECT_EQ(-ENOENT, ncsync_program_cancel(self->dev, id + 100));
	EXPECT_EQ(-ENOENT, ncsync_program_wait(self->dev, id + 100, &dl,
					       NULL));
	ncsync_program_free(prog);
}

/* A program queued behind another on a shared engine, cancelled queued. */
TEST_F(core, program_cancel_queued)
{
	struct ncsync_program *p1 = prog_new(_metadata);
	struct ncsync_program *p2 = prog_new(_metadata);
	struct ncsync_prog_status st;
	uint32_t id1, id2;

	ADD(ncsync_add_semaphore_wait_ge(stream(_metadata, p1,
						NCSYNC_ENGINE_DVE), 80, 1));
	ADD(ncsync_add_semaphore_inc(stream(_metadata, p2, NCSYNC_ENGINE_DVE),
				     81));
	id1 = submit(_metadata, self->dev, p1, 0, WD_LONG);
	id2 = submit(_metadata, self->dev, p2, 0, WD_LONG);
	EXPECT_LT(id1, id2);
	wait_blocked(_metadata, self->dev, id1, NCSYNC_ENGINE_DVE, &st);
	status_get(_metadata, self->dev, id2, &st, NULL);
	EXPECT_EQ(NCSYNC_PROG_QUEUED, (int)st.state);
	EXPECT_EQ(NCSYNC_ENG_QUEUED, st.engines[0].state);
	ASSERT_EQ(0, ncsync_program_cancel(self->dev, id2));
	ASSERT_EQ(NCSYNC_PROG_CANCELLED, wait_end(_metadata, self->dev, id2));
	ASSERT_EQ(0, ncsync_sem_set(self->dev, 80, 1, NULL));
	ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->dev, id1));
	EXPECT_EQ(0, ncsync_sem_read(self->dev, 81));
	ncsync_program_free(p1);
	ncsync_program_free(p2);
}

/*
 * A program blocked on an event times out after its (short) watchdog;
 * userspace changes to other semaphores are not its progress.  The
 * snapshot shows the engine blocked on the event, and the core's
 * semaphores as they were.
 */
TEST_F(core, watchdog_times_out_blocked_program)
{
	struct ncsync_program *prog = prog_new(_metadata);
	struct ncsync_sem_value sems[NCSYNC_NUM_SEMS];
	struct ncsync_prog_status st;
	struct ncsync_stream *q;
	uint32_t id, n = 0, one = 1;
	bool found;

	q = stream(_metadata, prog, NCSYNC_ENGINE_ACT);
	ADD(ncsync_add_semaphore_set(q, 85, 12));
	ADD(ncsync_add_event_wait(q, 86, NCSYNC_WAIT_EVT_SET));

	/* Userspace keeps changing the banks: the program still times out. */
	id = submit(_metadata, self->dev, prog, 0, WD_SHORT);
	do {
		ASSERT_EQ(0, ncsync_csr_write(self->dev,
					      NCSYNC_CSR_SEM_INC + 4 * 87,
					      &one, 1));
		n++;
		sleep_ms(20);
		status_get(_metadata, self->dev, id, &st, NULL);
	} while (st.state == NCSYNC_PROG_RUNNING ||
		 st.state == NCSYNC_PROG_QUEUED);
	EXPECT_EQ(NCSYNC_PROG_TIMED_OUT, (int)st.state);
	EXPECT_EQ(NCSYNC_PROG_TIMED_OUT, wait_end(_metadata, self->dev, id));

	/* Its snapshot: the engine blocked on the event, the semaphores. */
	id = submit(_metadata, self->dev, prog, 0, WD_SETTLE);
	ASSERT_EQ(NCSYNC_PROG_TIMED_OUT, wait_end(_metadata, self->dev, id));
	status_get(_metadata, self->dev, id, &st, sems);
	ASSERT_EQ(1U, st.nengines);
	EXPECT_EQ(NCSYNC_ENG_BLOCKED, st.engines[0].state);
	EXPECT_EQ(NCSYNC_BLOCK_EVENT, st.engines[0].wait_kind);
	EXPECT_EQ(NCSYNC_WAIT_EVT_SET, st.engines[0].wait_mode);
	EXPECT_EQ(86, st.engines[0].wait_index);
	EXPECT_EQ(1, st.engines[0].wait_lane);
	EXPECT_EQ(0, st.engines[0].wait_current);
	EXPECT_EQ(1U, st.engines[0].pc);
	EXPECT_EQ(12, snap_sem(sems, st.nsems, 85, &found));
	EXPECT_TRUE(found);
	EXPECT_EQ((int32_t)n, snap_sem(sems, st.nsems, 87, &found));
	EXPECT_TRUE(found);

	/* The core still runs programs. */
	ASSERT_EQ(0, ncsync_event_set(self->dev, 86));
	id = submit(_metadata, self->dev, prog, 0, WD_LONG);
	EXPECT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->dev, id));
	ncsync_program_free(prog);
}

/*
 * A queued program has no watchdog: behind a blocked one it stays queued
 * well past its own (short) watchdog, then runs.  (Its watchdog leaves its
 * engines time to run once it starts.)
 */
TEST_F(core, queued_program_has_no_watchdog)
{
	struct ncsync_program *p1 = prog_new(_metadata);
	struct ncsync_program *p2 = prog_new(_metadata);
	struct ncsync_prog_status st;
	uint32_t id1, id2;

	ADD(ncsync_add_semaphore_wait_ge(stream(_metadata, p1,
						NCSYNC_ENGINE_POOL), 82, 1));
	ADD(ncsync_add_semaphore_inc(stream(_metadata, p2,
					    NCSYNC_ENGINE_POOL), 83));
	ADD(ncsync_add_semaphore_inc(stream(_metadata, p2, NCSYNC_ENGINE_SP),
				     83));
	id1 = submit(_metadata, self->dev, p1, 0, WD_LONG);
	id2 = submit(_metadata, self->dev, p2, 0, WD_SETTLE);
	wait_blocked(_metadata, self->dev, id1, NCSYNC_ENGINE_POOL, &st);
	sleep_ms(2 * WD_SETTLE);
	status_get(_metadata, self->dev, id2, &st, NULL);
	EXPECT_EQ(NCSYNC_PROG_QUEUED, (int)st.state);
	EXPECT_EQ(0, ncsync_sem_read(self->dev, 83));
	ASSERT_EQ(0, ncsync_sem_set(self->dev, 82, 1, NULL));
	EXPECT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->dev, id1));
	EXPECT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->dev, id2));
	EXPECT_EQ(2, ncsync_sem_read(self->dev, 83));
	ncsync_program_free(p1);
	ncsync_program_free(p2);
}

/*
 * A reset ends a running program CANCELLED (engines: NCSYNC_FAULT_RESET);
 * ncsync_program_wait() in another thread returns that state, not
 * -ECANCELED.
 */
TEST_F(core, program_wait_across_reset)
{
	struct ncsync_program *prog = prog_new(_metadata);
	struct prog_waiter pw = { .dev = self->dev, .ret = 1 };
	struct ncsync_prog_status st;
	uint32_t state = 99;
	pthread_t t;

	ADD(ncsync_add_event_wait(stream(_metadata, prog, NCSYNC_ENGINE_DVE),
				  84, NCSYNC_WAIT_EVT_SET));
	pw.id = submit(_metadata, self->dev, prog, 0, WD_LONG);
	wait_blocked(_metadata, self->dev, pw.id, NCSYNC_ENGINE_DVE, &st);
	ASSERT_EQ(0, pthread_create(&t, NULL, prog_waiter_fn, &pw));
	sleep_ms(50);
	ASSERT_EQ(0, ncsync_reset(self->dev));
	ASSERT_EQ(0, pthread_join(t, NULL));
	EXPECT_EQ(0, pw.ret);
	ASSERT_EQ(0, ncsync_program_wait(self->dev, pw.id, NULL, &state));
	EXPECT_EQ(NCSYNC_PROG_CANCELLED, (int)state);
	status_get(_metadata, self->dev, pw.id, &st, NULL);
	EXPECT_EQ(NCSYNC_ENG_CANCELLED, st.engines[0].state);
	EXPECT_EQ(NCSYNC_FAULT_RESET, st.engines[0].fault);
	ncsync_program_free(prog);
}

/*
 * ncsync_close() stops the programs its descriptor submitted: a blocked
 * program never gets to its update once its device is closed.  Programs
 * of other descriptors go on.
 */
TEST_F(core, close_stops_programs)
{
	struct ncsync_program *prog = prog_new(_metadata);
	struct ncsync_prog_status st;
	struct ncsync_stream *q;
	struct ncsync_dev *dev2;
	uint32_t id2, id;

	q = stream(_metadata, prog, NCSYNC_ENGINE_PE);
	ADD(ncsync_add_semaphore_wait_ge(q, 86, 1));
	ADD(ncsync_add_semaphore_inc(q, 87));
	ASSERT_EQ(0, ncsync_open(0, true, &dev2));
	id2 = submit(_metadata, dev2, prog, 0, WD_LONG);
	wait_blocked(_metadata, dev2, id2, NCSYNC_ENGINE_PE, &st);
	/* The other descriptor does not see it. */
	EXPECT_EQ(-ENOENT, ncsync_program_status(self->dev, id2, false, &st,
						 NULL));
	ncsync_close(dev2);
	/* Its engine is free at once: a program of ours runs on it. */
	id = submit(_metadata, self->dev, prog, 0, WD_LONG);
	wait_blocked(_metadata, self->dev, id, NCSYNC_ENGINE_PE, &st);
	ASSERT_EQ(0, ncsync_sem_set(self->dev, 86, 1, NULL));
	EXPECT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->dev, id));
	EXPECT_EQ(1, ncsync_sem_read(self->dev, 87));
	ncsync_program_free(prog);
}

/*
 * A descriptor retains 256 programs: a 257th is -EAGAIN while none has
 * ended, and once they have, a submission forgets the oldest.
 */
TEST_F(core, program_limit_per_descriptor)
{
	const unsigned int max = 256;
	struct ncsync_program *prog = prog_new(_metadata);
	struct ncsync_prog_status st;
	uint32_t first = 0, id = 0, last = 0;
	unsigned int i;

	ADD(ncsync_add_semaphore_wait_ge(stream(_metadata, prog,
						NCSYNC_ENGINE_ACT), 88, 1));
	for (i = 0; i < max; i++) {
		id = submit(_metadata, self->dev, prog, 0, WD_LONG);
		if (!i)
			first = id;
		last = id;
	}
	EXPECT_EQ(first + max - 1, last);
	EXPECT_EQ(-EAGAIN, ncsync_program_submit(self->dev, prog, 0, WD_LONG,
						 &id, NULL));
	/* A reset ends them all: the running one and the 255 queued. */
	ASSERT_EQ(0, ncsync_reset(self->dev));
	EXPECT_EQ(NCSYNC_PROG_CANCELLED, wait_end(_metadata, self->dev, last));
	ASSERT_EQ(0, ncsync_sem_set(self->dev, 88, 1, NULL));
	id = submit(_metadata, self->dev, prog, 0, WD_LONG);
	EXPECT_EQ(last + 1, id);
	EXPECT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->dev, id));
	EXPECT_EQ(-ENOENT, ncsync_program_status(self->dev, first, false, &st,
						 NULL));
	status_get(_metadata, self->dev, first + 1, &st, NULL);
	EXPECT_EQ(NCSYNC_PROG_CANCELLED, (int)st.state);
	ncsync_program_free(prog);
}

/* ---------------------------------------------------------------------- */
/* Strict mode                                                             */

/*
 * Strict mode: setting a set event faults Pool at record 1 and cancels SP;
 * the same program without strict mode runs to the end (SP freed).
 */
static void strict_set_while_set(struct __test_metadata *_metadata,
				 struct ncsync_dev *dev)
{
	struct ncsync_program *prog;
	struct ncsync_prog_status st;
	const struct ncsync_engine_status *e;
	struct ncsync_stream *q;
	uint32_t id;

	prog = prog_new(_metadata);
	q = stream(_metadata, prog, NCSYNC_ENGINE_POOL);
	ADD(ncsync_add_event_set(q, 70));
	ADD(ncsync_add_event_set(q, 70));
	ADD(ncsync_add_semaphore_inc(q, 71));
	ADD(ncsync_add_semaphore_wait_ge(stream(_metadata, prog,
						NCSYNC_ENGINE_SP), 72, 1));
	id = submit(_metadata, dev, prog, NCSYNC_SUBMIT_F_STRICT, WD_LONG);
	ASSERT_EQ(NCSYNC_PROG_FAULTED, wait_end(_metadata, dev, id));
	status_get(_metadata, dev, id, &st, NULL);
	e = ENG(&st, NCSYNC_ENGINE_POOL);
	EXPECT_EQ(NCSYNC_ENG_FAULTED, e->state);
	EXPECT_EQ(NCSYNC_FAULT_EVENT_SET_WHILE_SET, e->fault);
	EXPECT_EQ(1U, e->pc);
	e = ENG(&st, NCSYNC_ENGINE_SP);
	EXPECT_EQ(NCSYNC_ENG_CANCELLED, e->state);
	EXPECT_EQ(NCSYNC_FAULT_PEER, e->fault);
	EXPECT_TRUE(ncsync_event_read(dev, 70));
	EXPECT_EQ(0, ncsync_sem_read(dev, 71));

	ASSERT_EQ(0, ncsync_event_clear(dev, 70));
	ASSERT_EQ(0, ncsync_sem_set(dev, 72, 1, NULL));
	id = submit(_metadata, dev, prog, 0, WD_LONG);
	ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, dev, id));
	EXPECT_EQ(1, ncsync_sem_read(dev, 71));
	ncsync_program_free(prog);
}

/* Strict mode: clearing a clear event faults Act at record 1. */
static void strict_clear_while_clear(struct __test_metadata *_metadata,
				     struct ncsync_dev *dev)
{
	struct ncsync_program *prog;
	struct ncsync_prog_status st;
	struct ncsync_stream *q;
	uint32_t id;

	prog = prog_new(_metadata);
	q = stream(_metadata, prog, NCSYNC_ENGINE_ACT);
	ADD(ncsync_add_nop(q, NULL));
	ADD(ncsync_add_event_clear(q, 73));
	id = submit(_metadata, dev, prog, NCSYNC_SUBMIT_F_STRICT, WD_LONG);
	ASSERT_EQ(NCSYNC_PROG_FAULTED, wait_end(_metadata, dev, id));
	status_get(_metadata, dev, id, &st, NULL);
	EXPECT_EQ(NCSYNC_ENG_FAULTED, st.engines[0].state);
	EXPECT_EQ(NCSYNC_FAULT_EVENT_CLEAR_WHILE_CLEAR, st.engines[0].fault);
	EXPECT_EQ(1U, st.engines[0].pc);
	ncsync_program_free(prog);
}

/* Strict mode: a semaphore overflow is applied (it wraps), then faults. */
static void strict_sem_overflow(struct __test_metadata *_metadata,
				struct ncsync_dev *dev)
{
	struct ncsync_program *prog;
	struct ncsync_prog_status st;
	struct ncsync_stream *q;
	uint32_t id;

	prog = prog_new(_metadata);
	q = stream(_metadata, prog, NCSYNC_ENGINE_PE);
	ADD(ncsync_add_semaphore_set(q, 74, INT32_MAX));
	ADD(ncsync_add_semaphore_inc(q, 74));
	ADD(ncsync_add_semaphore_inc(q, 75));
	id = submit(_metadata, dev, prog, NCSYNC_SUBMIT_F_STRICT, WD_LONG);
	ASSERT_EQ(NCSYNC_PROG_FAULTED, wait_end(_metadata, dev, id));
	status_get(_metadata, dev, id, &st, NULL);
	EXPECT_EQ(NCSYNC_ENG_FAULTED, st.engines[0].state);
	EXPECT_EQ(NCSYNC_FAULT_SEM_OVERFLOW, st.engines[0].fault);
	EXPECT_EQ(1U, st.engines[0].pc);
	EXPECT_EQ(INT32_MIN, ncsync_sem_read(dev, 74));
	EXPECT_EQ(0, ncsync_sem_read(dev, 75));
	ncsync_program_free(prog);
}

/* Strict mode: DMA completions are outside it, counted only. */
static void strict_dma_counted_only(struct __test_metadata *_metadata,
				    struct ncsync_dev *dev)
{
	struct ncsync_program *prog;
	struct ncsync_stream *q;
	uint32_t id;

	prog = prog_new(_metadata);
	q = stream(_metadata, prog, NCSYNC_ENGINE_DVE);
	ADD(ncsync_add_dma(q, 0, 64, 64, 1000,
			   NCSYNC_UPD_COMPLETE | NCSYNC_UPD_EVT_SET, 76, NULL));
	ADD(ncsync_add_drain(q, NULL));
	ADD(ncsync_add_dma(q, 0, 64, 64, 1000,
			   NCSYNC_UPD_COMPLETE | NCSYNC_UPD_EVT_SET, 76, NULL));
	ADD(ncsync_add_drain(q, NULL));
	id = submit(_metadata, dev, prog, NCSYNC_SUBMIT_F_STRICT, WD_LONG);
	ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, dev, id));
	EXPECT_TRUE(ncsync_event_read(dev, 76));
	ncsync_program_free(prog);
}

TEST_F(core, strict_mode_faults)
{
	struct ncsync_stats s0, s1;

	ASSERT_EQ(0, ncsync_stats(self->dev, &s0));

	strict_set_while_set(_metadata, self->dev);
	strict_clear_while_clear(_metadata, self->dev);
	strict_sem_overflow(_metadata, self->dev);
	strict_dma_counted_only(_metadata, self->dev);

	ASSERT_EQ(0, ncsync_stats(self->dev, &s1));
	EXPECT_EQ(s0.event_set_while_set + 3, s1.event_set_while_set);
	EXPECT_EQ(s0.event_clear_while_clear + 1,
		  s1.event_clear_while_clear);
	EXPECT_EQ(s0.sem_overflows + 1, s1.sem_overflows);
}

/* ---------------------------------------------------------------------- */
/* Several cores                                                           */

/*
 * Core 1 has banks, a counter and event bits of its own: the same barrier
 * programs run on both cores at once, and neither sees the other.
 */
TEST_F_TIMEOUT(core, second_core_is_independent, BARRIER_TIMEOUT)
{
	const unsigned int iters = 300;
	struct ncsync_program *prog[2];
	struct barrier_loop bl[2];
	struct ncsync_dev *dev[2];
	uint32_t id[4];
	unsigned int i;

	if (self->info->num_cores < 2)
		SKIP(return, "only one core (module parameter cores)");
	dev[0] = self->dev;
	ASSERT_EQ(0, ncsync_open(1, true, &dev[1]));
	ASSERT_EQ(1U, ncsync_get_info(dev[1])->core);
	ASSERT_EQ(0, ncsync_reset(dev[1]));

	ASSERT_EQ(0, ncsync_sem_set(dev[0], 5, 1, NULL));
	ASSERT_EQ(0, ncsync_event_set(dev[1], 5));
	EXPECT_EQ(0, ncsync_sem_read(dev[1], 5));
	EXPECT_FALSE(ncsync_event_read(dev[0], 5));
	ASSERT_EQ(0, ncsync_sem_set(dev[0], 5, 0, NULL));
	ASSERT_EQ(0, ncsync_event_clear(dev[1], 5));

	/* A counter-form program, then an event-form one, on each core. */
	for (i = 0; i < 2; i++) {
		prog[i] = prog_new(_metadata);
		build_barrier_loop(_metadata, prog[i], self->info,
				   i ? BK_EVENTS : BK_COUNTER, ALL_ENGINES,
				   iters, 8 * i, false, &bl[i]);
	}
	for (i = 0; i < 4; i++)
		id[i] = submit(_metadata, dev[i % 2], prog[i / 2], 0, WD_LONG);
	for (i = 0; i < 4; i++)
		check_barrier_loop(_metadata, dev[i % 2], id[i], &bl[i / 2],
				   iters);
	for (i = 0; i < 2; i++) {
		EXPECT_EQ(5 * (int32_t)iters,
			  ncsync_sem_read(dev[i], barrier_counter(self->info)));
		check_event_bits_clear(_metadata, dev[i], self->info);
	}
	for (i = 0; i < 2; i++)
		ncsync_program_free(prog[i]);
	ncsync_close(dev[1]);
}

/* ---------------------------------------------------------------------- */
/* The allocator                                                           */

/*
 * Ids from the allocators, reserved slices from ncsync_get_info(), in a
 * program with a sync barrier: the user's semaphores (first fit, reused
 * after a free, up to the last id below the reserved slice) and the
 * barrier's counter (in the slice) do not collide.  The snapshot lists
 * exactly the semaphores the program touched.
 */
/*
 * Build the allocator test's streams.  Pool: sem[c] += 3, ev set, barrier,
 * wait sem[top] == 1, sem[c]++.  Act: barrier, wait ev set-then-clear,
 * sem[top]++, ev+1 set.  PE: sem[b + 1] = -9, barrier, wait ev+1 set,
 * sem[big]++.  top is the last id below the reserved slice (@user - 1).
 */
static void build_alloc_program(struct __test_metadata *_metadata,
				struct ncsync_program *prog, unsigned int user,
				int c, int b, int big, int ev)
{
	struct ncsync_stream *pool, *act, *pe;

	pool = stream(_metadata, prog, NCSYNC_ENGINE_POOL);
	act = stream(_metadata, prog, NCSYNC_ENGINE_ACT);
	pe = stream(_metadata, prog, NCSYNC_ENGINE_PE);
	ADD(ncsync_add_semaphore_add(pool, c, 3));
	ADD(ncsync_add_event_set(pool, ev));
	ADD(ncsync_add_semaphore_set(pe, b + 1, (uint32_t)-9));
	ASSERT_EQ(0, ncsync_add_sync_barrier(prog));
	ADD(ncsync_add_semaphore_wait_eq(pool, user - 1, 1));
	ADD(ncsync_add_semaphore_inc(pool, c));
	ADD(ncsync_add_event_wait(act, ev, NCSYNC_WAIT_EVT_SET_THEN_CLEAR));
	ADD(ncsync_add_semaphore_inc(act, user - 1));
	ADD(ncsync_add_event_set(act, ev + 1));
	ADD(ncsync_add_event_wait(pe, ev + 1, NCSYNC_WAIT_EVT_SET));
	ADD(ncsync_add_semaphore_inc(pe, big));
}

/* Check the allocator test's semaphores in the program's end snapshot. */
static void check_alloc_snapshot(struct __test_metadata *_metadata,
				 const struct ncsync_info *info,
				 const struct ncsync_sem_value *sems,
				 uint32_t nsems, unsigned int user,
				 int c, int b, int big)
{
	bool found;

	EXPECT_EQ(6U, nsems);
	EXPECT_EQ(4, snap_sem(sems, nsems, c, &found));
	EXPECT_TRUE(found);
	EXPECT_EQ(-9, snap_sem(sems, nsems, b + 1, &found));
	EXPECT_TRUE(found);
	EXPECT_EQ(1, snap_sem(sems, nsems, big, &found));
	EXPECT_TRUE(found);
	EXPECT_EQ(1, snap_sem(sems, nsems, user - 1, &found));
	EXPECT_TRUE(found);
	EXPECT_EQ(3, snap_sem(sems, nsems, barrier_counter(info), &found));
	EXPECT_TRUE(found);
	/* the other counter, re-armed at the first pass: 3 * 2^27 */
	EXPECT_EQ(3 << 27, snap_sem(sems, nsems, barrier_counter(info) + 1,
				    &found));
	EXPECT_TRUE(found);
}

TEST_F(core, allocator_ids_in_a_program)
{
	const struct ncsync_info *info = self->info;
	struct ncsync_program *prog = prog_new(_metadata);
	struct ncsync_sem_value sems[NCSYNC_NUM_SEMS];
	struct ncsync_prog_status st;
	unsigned int user = info->rt_reserved_sem_first;
	int a, b, c, big, last, ev, ev2;
	uint32_t id;

	ASSERT_LE(8U, user);
	ASSERT_EQ(0, ncsync_program_set_reserved(prog,
						 info->rt_reserved_sem_first,
						 info->rt_reserved_sem_count,
						 info->rt_reserved_event_first,
						 info->rt_reserved_event_count));
	a = ncsync_sem_alloc(prog, 4);
	EXPECT_EQ(0, a);
	b = ncsync_sem_alloc(prog, 2);
	EXPECT_EQ(4, b);
	ASSERT_EQ(0, ncsync_sem_free(prog, a, 4));
	c = ncsync_sem_alloc(prog, 3);
	EXPECT_EQ(0, c);			/* first fit: reused */
	big = ncsync_sem_alloc(prog, user - 6);	/* up to the slice */
	EXPECT_EQ(6, big);
	EXPECT_EQ(-ENOSPC, ncsync_sem_alloc(prog, 2));
	last = ncsync_sem_alloc(prog, 1);
	EXPECT_EQ(3, last);			/* the one hole left */
	EXPECT_EQ(-ENOSPC, ncsync_sem_alloc(prog, 1));
	EXPECT_EQ(-EINVAL, ncsync_sem_free(prog, big, user - 7));
	ASSERT_EQ(0, ncsync_sem_free(prog, big, user - 6));
	big = ncsync_sem_alloc(prog, user - 6);
	EXPECT_EQ(6, big);
	ev = ncsync_event_alloc(prog, 2);
	EXPECT_EQ(0, ev);
	ev2 = ncsync_event_alloc(prog, 1);
	EXPECT_EQ(2, ev2);
	ADD(c);
	ADD(b);
	ADD(big);
	ADD(ev);

	build_alloc_program(_metadata, prog, user, c, b, big, ev);

	id = submit(_metadata, self->dev, prog, NCSYNC_SUBMIT_F_STRICT,
		    WD_LONG);
	ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->dev, id));
	status_get(_metadata, self->dev, id, &st, sems);
	check_alloc_snapshot(_metadata, info, sems, st.nsems, user, c, b, big);
	EXPECT_FALSE(ncsync_event_read(self->dev, ev));
	EXPECT_TRUE(ncsync_event_read(self->dev, ev + 1));
	ncsync_program_free(prog);
}

TEST_HARNESS_MAIN
