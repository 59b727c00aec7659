// SPDX-License-Identifier: GPL-2.0
/*
 * ncsync selftests of libncsync against the driver (ncsync_lib.h): barrier
 * loops of 1000 and more passes, the sync barrier and its two lowerings,
 * back to back, on engine subsets, concurrent, after a cancel, in the
 * conformance profile; the check detecting drift; the lower_control fence.
 *
 * Run inside the test VM:
 *   tools/vm-run build/selftests/ncsync_lib_barrier_test
 */
#include "ncsync_lib.h"

/* ---------------------------------------------------------------------- */
/* Barrier loops                                                           */
TEST_F_TIMEOUT(core, sync_barrier_loop_1000, BARRIER_TIMEOUT)
{
	struct ncsync_program *prog = prog_new(_metadata);
	struct barrier_loop bl;
	uint32_t id;

	build_barrier_loop(_metadata, prog, self->info, BK_SYNC,
			   ALL_ENGINES, BARRIER_ITERS, 0, false, &bl);
	id = submit(_metadata, self->dev, prog, 0, WD_LONG);
	check_barrier_loop(_metadata, self->dev, id, &bl, BARRIER_ITERS);
	/* Every pass adds exactly one +1 per engine to the counter. */
	EXPECT_EQ(5 * BARRIER_ITERS,
		  ncsync_sem_read(self->dev, barrier_counter(self->info)));
	ncsync_program_free(prog);
}

/* What a stream does to the two counters of the counter form. */
struct seed_shape {
	unsigned int inc;	/* +1 sem-inc (0x13) */
	unsigned int write;	/* wr-imm (0x19): the start, the re-arms */
	unsigned int ge_reg;	/* sem-ge-reg (0x85) on register 31 */
	unsigned int other;	/* any other update, or wait not GE or LT */
};

/* A (mode, index) byte pair of a record, the seeds' offsets, on C0 or C1. */
static bool on_counter(const uint8_t *r, unsigned int off, unsigned int c0)
{
	return r[off] && (r[off + 1] == c0 || r[off + 1] == c0 + 1);
}

/*
 * Classify a record by the seeds' bytes alone (SYNC "The per-engine
 * wait/update"): the events block's wait at +0x04/+0x05 and update at
 * +0x06/+0x07, the lane's wait at +0x20/+0x21 (register at +0x24) and
 * update at +0x22/+0x23.
 */
static void seed_classify(const uint8_t *r, unsigned int c0,
			  struct seed_shape *sh)
{
	static const unsigned int upd[] = { 0x06, 0x22 }, wait[] = { 0x04, 0x20 };
	unsigned int i;

	for (i = 0; i < 2; i++) {
		if (on_counter(r, upd[i], c0)) {
			if (r[upd[i]] == 0x13)
				sh->inc++;
			else if (r[upd[i]] == 0x19)
				sh->write++;
			else
				sh->other++;
		}
		if (!on_counter(r, wait[i], c0))
			continue;
		if (r[wait[i]] == 0x85 && i == 1 && r[0x24] == 31)
			sh->ge_reg++;
		else if (r[wait[i]] != 0x05 && r[wait[i]] != 0x02)
			sh->other++;
	}
}

/*
 * The seeds-only test, as this suite writes it: ncsync_add_sync_
 * barrier() in a loop of 10,000 passes across the five engines.  Each
 * barrier is, per engine, two arms (one per counter) of a +1 sem-inc
 * arrival and a sem-ge-reg release on r31, and the only other updates of
 * the counters are the wr-imm writes Documentation/ncsync/barriers.rst
 * names (the start write of the lowest engine, one re-arm per arm); then
 * the program runs all its passes and the counter holds 5 x 10,000.
 */
TEST_F_TIMEOUT(core, sync_barrier_loop_10000_seed_shape, BARRIER_TIMEOUT)
{
	struct ncsync_program *prog = prog_new(_metadata);
	unsigned int c0 = barrier_counter(self->info), k;
	struct barrier_loop bl;
	uint32_t id, i;

	build_barrier_loop(_metadata, prog, self->info, BK_SYNC,
			   ALL_ENGINES, 10000, 0, false, &bl);
	for (k = 0; k < NCSYNC_NUM_ENGINES; k++) {
		struct ncsync_stream *q =
			ncsync_program_find_stream(prog, engine_ids[k]);
		struct seed_shape sh = { 0 };

		ASSERT_NE(NULL, q);
		for (i = 0; i < ncsync_stream_count(q); i++)
			seed_classify(ncsync_stream_peek(q, i), c0, &sh);
		/* One barrier: two arms; followers' start arrival is +1 too. */
		EXPECT_EQ(k ? 3U : 2U, sh.inc) TH_LOG("engine %u", k);
		EXPECT_EQ(2U, sh.ge_reg) TH_LOG("engine %u", k);
		EXPECT_EQ(k ? 2U : 3U, sh.write) TH_LOG("engine %u", k);
		EXPECT_EQ(0U, sh.other) TH_LOG("engine %u", k);
	}
	id = submit(_metadata, self->dev, prog, 0, WD_LONG);
	check_barrier_loop(_metadata, self->dev, id, &bl, 10000);
	EXPECT_EQ(5 * 10000, ncsync_sem_read(self->dev, c0));
	ncsync_program_free(prog);
}

TEST_F_TIMEOUT(core, barrier_loop_1000_lower_counter, BARRIER_TIMEOUT)
{
	struct ncsync_program *prog = prog_new(_metadata);
	struct barrier_loop bl;
	uint32_t id;

	build_barrier_loop(_metadata, prog, self->info, BK_COUNTER,
			   ALL_ENGINES, BARRIER_ITERS, 0, false, &bl);
	id = submit(_metadata, self->dev, prog, 0, WD_LONG);
	check_barrier_loop(_metadata, self->dev, id, &bl, BARRIER_ITERS);
	EXPECT_EQ(5 * BARRIER_ITERS,
		  ncsync_sem_read(self->dev, barrier_counter(self->info)));
	ncsync_program_free(prog);
}

/* Strict mode: the event form never sets a set or clears a clear event. */
TEST_F_TIMEOUT(core, barrier_loop_1000_lower_events, BARRIER_TIMEOUT)
{
	struct ncsync_program *prog = prog_new(_metadata);
	struct barrier_loop bl;
	uint32_t id;

	build_barrier_loop(_metadata, prog, self->info, BK_EVENTS,
			   ALL_ENGINES, BARRIER_ITERS, 0, false, &bl);
	id = submit(_metadata, self->dev, prog, NCSYNC_SUBMIT_F_STRICT,
		    WD_LONG);
	check_barrier_loop(_metadata, self->dev, id, &bl, BARRIER_ITERS);
	/* No semaphore of the reserved slice is used ... */
	EXPECT_EQ(0, ncsync_sem_read(self->dev, barrier_counter(self->info)));
	/* ... and the epilogue leaves every bit clear for the next program. */
	check_event_bits_clear(_metadata, self->dev, self->info);
	ncsync_program_free(prog);
}

/*
 * Two counter-form programs queued back to back, without a reset: the
 * second starts where the first left the counter, and its start
 * rendezvous sets it again.  A third program with the sync barrier
 * follows.  The programs share Pool, hence the counter, and run one after
 * the other.
 */
TEST_F_TIMEOUT(core, counter_barrier_programs_back_to_back, BARRIER_TIMEOUT)
{
	static const enum barrier_kind kinds[3] = {
		BK_COUNTER, BK_COUNTER, BK_SYNC,
	};
	static const unsigned int iters[3] = { 300, 177, 250 };
	struct ncsync_program *prog[3];
	struct barrier_loop bl[3];
	uint32_t id[3];
	unsigned int i;

	for (i = 0; i < 3; i++) {
		prog[i] = prog_new(_metadata);
		build_barrier_loop(_metadata, prog[i], self->info, kinds[i],
				   ALL_ENGINES, iters[i], 8 * i, false, &bl[i]);
	}
	for (i = 0; i < 3; i++)
		id[i] = submit(_metadata, self->dev, prog[i], 0, WD_LONG);
	for (i = 0; i < 3; i++) {
		check_barrier_loop(_metadata, self->dev, id[i], &bl[i],
				   iters[i]);
		ncsync_program_free(prog[i]);
	}
	/* Each program starts the counter from 0: the last one's passes. */
	EXPECT_EQ(5 * 250,
		  ncsync_sem_read(self->dev, barrier_counter(self->info)));
}

/* The same with the event form: each program leaves its bits clear. */
TEST_F_TIMEOUT(core, event_barrier_programs_back_to_back, BARRIER_TIMEOUT)
{
	static const unsigned int iters[3] = { 200, 101, 150 };
	struct ncsync_program *prog[3];
	struct barrier_loop bl[3];
	uint32_t id[3];
	unsigned int i;

	for (i = 0; i < 3; i++) {
		prog[i] = prog_new(_metadata);
		build_barrier_loop(_metadata, prog[i], self->info, BK_EVENTS,
				   ALL_ENGINES, iters[i], 8 * i, false, &bl[i]);
	}
	for (i = 0; i < 3; i++)
		id[i] = submit(_metadata, self->dev, prog[i],
			       NCSYNC_SUBMIT_F_STRICT, WD_LONG);
	for (i = 0; i < 3; i++) {
		check_barrier_loop(_metadata, self->dev, id[i], &bl[i],
				   iters[i]);
		ncsync_program_free(prog[i]);
	}
	check_event_bits_clear(_metadata, self->dev, self->info);
}

/*
 * Both lowerings (and the sync barrier) on one to four engines: the counter
 * weights (8 / N, the first 8 % N engines one more) and the event form's
 * waits (two peers a record, none for a lone engine) for every N.  Each
 * set has a different lowest engine, hence a different counter.
 */
TEST_F_TIMEOUT(core, barrier_loops_on_engine_subsets, BARRIER_TIMEOUT)
{
	static const unsigned int masks[] = {
		1U << NCSYNC_ENGINE_SP,
		(1U << NCSYNC_ENGINE_PE) | (1U << NCSYNC_ENGINE_DVE),
		(1U << NCSYNC_ENGINE_ACT) | (1U << NCSYNC_ENGINE_PE) |
			(1U << NCSYNC_ENGINE_SP),
		(1U << NCSYNC_ENGINE_POOL) | (1U << NCSYNC_ENGINE_ACT) |
			(1U << NCSYNC_ENGINE_DVE) | (1U << NCSYNC_ENGINE_SP),
	};
	static const enum barrier_kind kinds[] = {
		BK_SYNC, BK_COUNTER, BK_EVENTS, BK_MIXED,
	};
	const unsigned int iters = 100;
	unsigned int m, k;

	for (m = 0; m < ARRAY_SIZE(masks); m++) {
		int32_t base = 0;

		for (k = 0; k < ARRAY_SIZE(kinds); k++) {
			struct ncsync_program *prog = prog_new(_metadata);
			unsigned int c = counter_of(self->info, masks[m]);
			struct barrier_loop bl;
			uint32_t id;

			TH_LOG("engines 0x%x, barrier kind %u", masks[m],
			       kinds[k]);
			/* counters of their own: no reset in between */
			build_barrier_loop(_metadata, prog, self->info,
					   kinds[k], masks[m], iters,
					   8 * (4 * m + k), false, &bl);
			id = submit(_metadata, self->dev, prog,
				    NCSYNC_SUBMIT_F_STRICT, WD_LONG);
			check_barrier_loop(_metadata, self->dev, id, &bl,
					   iters);
			if (kinds[k] != BK_EVENTS)
				base = __builtin_popcount(masks[m]) * iters;
			EXPECT_EQ(base, ncsync_sem_read(self->dev, c));
			check_event_bits_clear(_metadata, self->dev,
					       self->info);
			ncsync_program_free(prog);
		}
	}
}

/*
 * Two barrier programs on disjoint engines run at the same time: their
 * counters (by lowest engine) and event bits (by engine) are their own.
 * Each holds its first engine at a gate until both have started.
 */
static void concurrent_loops(struct __test_metadata *_metadata,
			     struct ncsync_dev *dev,
			     const struct ncsync_info *info,
			     enum barrier_kind kind)
{
	static const unsigned int masks[2] = {
		(1U << NCSYNC_ENGINE_POOL) | (1U << NCSYNC_ENGINE_DVE),
		(1U << NCSYNC_ENGINE_ACT) | (1U << NCSYNC_ENGINE_PE) |
			(1U << NCSYNC_ENGINE_SP),
	};
	const unsigned int iters = 400;
	struct ncsync_program *prog[2];
	struct ncsync_prog_status st;
	struct barrier_loop bl[2];
	uint32_t id[2];
	unsigned int i;

	for (i = 0; i < 2; i++) {
		prog[i] = prog_new(_metadata);
		build_barrier_loop(_metadata, prog[i], info, kind, masks[i],
				   iters, 8 * i, true, &bl[i]);
	}
	for (i = 0; i < 2; i++)
		id[i] = submit(_metadata, dev, prog[i],
			       NCSYNC_SUBMIT_F_STRICT, WD_LONG);
	/* Both are running: neither waits for the other. */
	for (i = 0; i < 2; i++)
		wait_blocked(_metadata, dev, id[i], bl[i].eng[0], &st);
	for (i = 0; i < 2; i++)
		ASSERT_EQ(0, ncsync_sem_set(dev, bl[i].gate, 1, NULL));
	for (i = 0; i < 2; i++) {
		check_barrier_loop(_metadata, dev, id[i], &bl[i], iters);
		ncsync_program_free(prog[i]);
	}
	for (i = 0; i < 2; i++)
		EXPECT_EQ(kind == BK_EVENTS ? 0 :
			  __builtin_popcount(masks[i]) * (int32_t)iters,
			  ncsync_sem_read(dev, counter_of(info, masks[i])));
	check_event_bits_clear(_metadata, dev, info);
}

TEST_F_TIMEOUT(core, concurrent_counter_barriers, BARRIER_TIMEOUT)
{
	concurrent_loops(_metadata, self->dev, self->info, BK_COUNTER);
}

TEST_F_TIMEOUT(core, concurrent_event_barriers, BARRIER_TIMEOUT)
{
	concurrent_loops(_metadata, self->dev, self->info, BK_EVENTS);
}

/* A sync barrier and an event-lowered barrier in every pass. */
TEST_F_TIMEOUT(core, mixed_barriers_loop, BARRIER_TIMEOUT)
{
	struct ncsync_program *prog = prog_new(_metadata);
	struct barrier_loop bl;
	uint32_t id;

	build_barrier_loop(_metadata, prog, self->info, BK_MIXED, ALL_ENGINES,
			   500, 0, false, &bl);
	id = submit(_metadata, self->dev, prog, NCSYNC_SUBMIT_F_STRICT,
		    WD_LONG);
	check_barrier_loop(_metadata, self->dev, id, &bl, 500);
	EXPECT_EQ(5 * 500,
		  ncsync_sem_read(self->dev, barrier_counter(self->info)));
	check_event_bits_clear(_metadata, self->dev, self->info);
	ncsync_program_free(prog);
}

/*
 * Wait until every engine but SP of program @id is blocked in the release
 * of a counter-form pass (wait C0 >= r31, 0x85) and SP in a wait on @gate.
 */
static void wait_held_by_sp(struct __test_metadata *_metadata,
			    struct ncsync_dev *dev, uint32_t id,
			    unsigned int c0, int gate)
{
	int64_t end = now_ns() + LONG_MS * NSEC_PER_MSEC;
	struct ncsync_prog_status st;
	unsigned int k, held;

	for (;;) {
		status_get(_metadata, dev, id, &st, NULL);
		held = 0;
		for (k = 0; k < st.nengines; k++) {
			const struct ncsync_engine_status *e = &st.engines[k];
			bool sp = e->engine == NCSYNC_ENGINE_SP;

			if (e->state == NCSYNC_ENG_BLOCKED &&
			    e->wait_index == (sp ? (unsigned int)gate : c0) &&
			    (sp || e->wait_mode == 0x85))
				held++;
		}
		if (held == NCSYNC_NUM_ENGINES)
			return;
		if (now_ns() > end) {
			status_log(_metadata, &st);
			ASSERT_EQ(NCSYNC_NUM_ENGINES, (int)held);
		}
		sleep_ms(5);
	}
}

/*
 * A counter-form program on @info's five engines: @before sync barriers,
 * SP waits for @gate >= 1, one more barrier, then every engine adds 1 to
 * @passed.
 */
static struct ncsync_program *
gated_barriers(struct __test_metadata *_metadata,
	       const struct ncsync_info *info, unsigned int before,
	       int *gate, int *passed)
{
	struct ncsync_program *prog = prog_new(_metadata);
	unsigned int k;

	ASSERT_EQ(0, ncsync_program_set_reserved(prog,
						 info->rt_reserved_sem_first,
						 info->rt_reserved_sem_count,
						 info->rt_reserved_event_first,
						 info->rt_reserved_event_count));
	*gate = ncsync_sem_alloc(prog, 1);
	*passed = ncsync_sem_alloc(prog, 1);
	for (k = 0; k < NCSYNC_NUM_ENGINES; k++)
		stream(_metadata, prog, engine_ids[k]);
	for (k = 0; k < before; k++)
		ASSERT_EQ(0, ncsync_add_sync_barrier(prog));
	ADD(ncsync_add_semaphore_wait_ge(ncsync_program_find_stream(
				prog, NCSYNC_ENGINE_SP), *gate, 1));
	ASSERT_EQ(0, ncsync_add_sync_barrier(prog));
	for (k = 0; k < NCSYNC_NUM_ENGINES; k++)
		ADD(ncsync_add_semaphore_inc(ncsync_program_find_stream(
					prog, engine_ids[k]), *passed));
	return prog;
}

/*
 * Documentation/ncsync/barriers.rst, "A program cancelled inside a
 * barrier": a program is cancelled while four engines wait in its third
 * barrier (the counter is left between passes).  The next program's
 * first barrier still holds those four until SP arrives: none of them
 * passes (adds to its semaphore) while SP waits at its gate.
 */
TEST_F_TIMEOUT(core, counter_barrier_after_cancel, BARRIER_TIMEOUT)
{
	unsigned int c0 = barrier_counter(self->info);
	struct ncsync_program *prog;
	int gate, passed;
	uint32_t id;

	prog = gated_barriers(_metadata, self->info, 2, &gate, &passed);
	id = submit(_metadata, self->dev, prog, NCSYNC_SUBMIT_F_STRICT,
		    WD_LONG);
	wait_held_by_sp(_metadata, self->dev, id, c0, gate);
	ASSERT_EQ(0, ncsync_program_cancel(self->dev, id));
	ASSERT_EQ(NCSYNC_PROG_CANCELLED, wait_end(_metadata, self->dev, id));
	/* Left inside pass 3: two passes and four arrivals. */
	EXPECT_EQ(5 * 2 + 4, ncsync_sem_read(self->dev, c0));
	ncsync_program_free(prog);

	prog = gated_barriers(_metadata, self->info, 0, &gate, &passed);
	id = submit(_metadata, self->dev, prog, NCSYNC_SUBMIT_F_STRICT,
		    WD_LONG);
	wait_held_by_sp(_metadata, self->dev, id, c0, gate);
	EXPECT_EQ(0, ncsync_sem_read(self->dev, passed));
	EXPECT_EQ(4, ncsync_sem_read(self->dev, c0));
	ASSERT_EQ(0, ncsync_sem_set(self->dev, gate, 1, NULL));
	ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->dev, id));
	EXPECT_EQ(5, ncsync_sem_read(self->dev, passed));
	EXPECT_EQ(5, ncsync_sem_read(self->dev, c0));
	ncsync_program_free(prog);
}

/*
 * The conformance profile (records.rst, "The conformance profile"): the
 * library's barriers (the counter form) pass the kernel's rules and run
 * (the fence: lower_control_fence_loop_conformance); a malformed raw 0xD5
 * is refused by the library (rule 28) with
 * its engine, its index and NCSYNC_REC_CONF_PSEUDO; the event form is
 * refused by the kernel (rule 23).
 */
TEST_F_TIMEOUT(core, conformance_profile_barriers, BARRIER_TIMEOUT)
{
	uint8_t d5[NCSYNC_RECORD_SIZE] = { NCSYNC_OPC_ALL_ENGINE_BARRIER, 0x10 };
	const uint32_t flags = NCSYNC_SUBMIT_F_CONFORM | NCSYNC_SUBMIT_F_STRICT;
	struct ncsync_submit_error err;
	struct ncsync_program *prog;
	struct barrier_loop bl;
	uint32_t id = 0;
	unsigned int k;

	prog = prog_new(_metadata);
	build_barrier_loop(_metadata, prog, self->info, BK_SYNC, ALL_ENGINES,
			   50, 0, false, &bl);
	id = submit(_metadata, self->dev, prog, flags, WD_LONG);
	check_barrier_loop(_metadata, self->dev, id, &bl, 50);
	ncsync_program_free(prog);

	prog = prog_new(_metadata);
	build_barrier_loop(_metadata, prog, self->info, BK_EVENTS,
			   ALL_ENGINES, 5, 0, false, &bl);
	EXPECT_EQ(-EINVAL, ncsync_program_submit(self->dev, prog, flags, 0,
						 &id, &err));
	EXPECT_EQ(NCSYNC_REC_CONF_EVSEM_WAIT, (int)err.reason);
	ncsync_program_free(prog);

	ASSERT_EQ(0, ncsync_reset(self->dev));
	d5[0x3F] = 1;
	prog = prog_new(_metadata);
	for (k = 0; k < NCSYNC_NUM_ENGINES; k++) {
		struct ncsync_stream *s = stream(_metadata, prog,
						 engine_ids[k]);

		ADD(ncsync_add_semaphore_inc(s, 1));
		ADD(ncsync_add_raw(s, d5));
	}
	EXPECT_EQ(-EINVAL, ncsync_program_submit(self->dev, prog, flags, 0,
						 &id, &err));
	EXPECT_EQ(NCSYNC_REC_CONF_PSEUDO, (int)err.reason);
	EXPECT_EQ(engine_ids[0], err.engine);
	EXPECT_EQ(1U, err.index);
	EXPECT_EQ(0, ncsync_sem_read(self->dev, 1)) TH_LOG("a record ran");
	/* Without the profile the library lowers it and the program runs. */
	id = submit(_metadata, self->dev, prog, 0, WD_LONG);
	EXPECT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->dev, id));
	EXPECT_EQ(5, ncsync_sem_read(self->dev, 1));
	ncsync_program_free(prog);
}

/*
 * The negative controls of the barrier check: without a barrier, and Pool
 * held at a gate, the other four engines find Pool's counter behind at
 * pass 1 (the lower bound); Pool, released, then finds them ahead.  With
 * one counter preset to 5, every engine finds it more than one pass ahead
 * at pass 0 (the upper bound).  Each ends HALTED with every engine failed.
 */
TEST_F(core, barrier_check_detects_drift)
{
	struct ncsync_program *prog = prog_new(_metadata);
	struct ncsync_prog_status st;
	struct barrier_loop bl;
	struct timespec dl;
	unsigned int k;
	uint32_t id;

	build_barrier_loop(_metadata, prog, self->info, BK_NONE, ALL_ENGINES,
			   10, 0, true, &bl);
	id = submit(_metadata, self->dev, prog, 0, WD_LONG);
	dl = deadline_ms(LONG_MS);
	ASSERT_EQ(0, ncsync_wait_sem(self->dev, bl.fail, NCSYNC_WAIT_SEM_GE,
				     4, &dl, NULL));
	EXPECT_EQ(0, ncsync_sem_read(self->dev, bl.cnt));
	ASSERT_EQ(0, ncsync_sem_set(self->dev, bl.gate, 1, NULL));
	ASSERT_EQ(NCSYNC_PROG_HALTED, wait_end(_metadata, self->dev, id));
	EXPECT_EQ(5, ncsync_sem_read(self->dev, bl.fail));
	status_get(_metadata, self->dev, id, &st, NULL);
	for (k = 0; k < NCSYNC_NUM_ENGINES; k++) {
		EXPECT_EQ(NCSYNC_ENG_HALTED, st.engines[k].state);
		/* Pool failed at pass 2, the others at pass 1. */
		EXPECT_EQ(k ? 1 : 2, ncsync_sem_read(self->dev, bl.cnt + k));
	}

	ASSERT_EQ(0, ncsync_reset(self->dev));
	ASSERT_EQ(0, ncsync_sem_set(self->dev, bl.cnt + 1, 5, NULL));
	ASSERT_EQ(0, ncsync_sem_set(self->dev, bl.gate, 1, NULL));
	id = submit(_metadata, self->dev, prog, 0, WD_LONG);
	ASSERT_EQ(NCSYNC_PROG_HALTED, wait_end(_metadata, self->dev, id));
	EXPECT_EQ(5, ncsync_sem_read(self->dev, bl.fail));
	for (k = 0; k < NCSYNC_NUM_ENGINES; k++)
		EXPECT_EQ(k == 1 ? 5 : 0,
			  ncsync_sem_read(self->dev, bl.cnt + k));
	ncsync_program_free(prog);
}

/*
 * Build fence_loop's streams: @iters passes of A++, barrier, check A == 5
 * (else sem[@sentinel + 1 + k] = 1 and halt), sem[@passes + k]++, fence;
 * @spare is freed before the fence.
 */
static void build_fence_loop(struct __test_metadata *_metadata,
			     struct ncsync_program *prog, int a, int spare,
			     unsigned int iters, unsigned int sentinel,
			     unsigned int passes)
{
	struct ncsync_stream *q[NCSYNC_NUM_ENGINES];
	int loop[NCSYNC_NUM_ENGINES], fail[NCSYNC_NUM_ENGINES];
	unsigned int k;

	for (k = 0; k < NCSYNC_NUM_ENGINES; k++) {
		q[k] = stream(_metadata, prog, engine_ids[k]);
		loop[k] = ncsync_label_new(prog);
		ADD(loop[k]);
		fail[k] = ncsync_label_new(prog);
		ADD(fail[k]);
		ADD(ncsync_add_mov32_imm(q[k], 1, 0, NULL));
		ADD(ncsync_label_bind(q[k], loop[k]));
		ADD(ncsync_add_semaphore_inc(q[k], a));
	}
	ASSERT_EQ(0, ncsync_sem_free(prog, spare, 1));
	ASSERT_EQ(0, ncsync_add_all_engine_barrier(prog, NULL));
	for (k = 0; k < NCSYNC_NUM_ENGINES; k++) {
		ADD(ncsync_add_poll_sem(q[k], NCSYNC_POLL_MIN, 2, a, 1, NULL));
		ADD(ncsync_add_branch_imm(q[k], NCSYNC_BR_NE, NCSYNC_DTYPE_S32,
					  2, NCSYNC_NUM_ENGINES, fail[k],
					  NULL));
		ADD(ncsync_add_semaphore_inc(q[k], passes + k));
	}
	ASSERT_EQ(0, ncsync_add_lower_control_fence(prog));
	for (k = 0; k < NCSYNC_NUM_ENGINES; k++) {
		ADD(ncsync_add_mov32(q[k], NCSYNC_ALU_ADD_IMM, 1, 1, 1, NULL));
		ADD(ncsync_add_branch_imm(q[k], NCSYNC_BR_LT, NCSYNC_DTYPE_U32,
					  1, iters, loop[k], NULL));
		ADD(ncsync_add_exit(q[k], NULL));
		ADD(ncsync_label_bind(q[k], fail[k]));
		ADD(ncsync_add_semaphore_set(q[k], sentinel + 1 + k, 1));
		ADD(ncsync_add_halt(q[k], NULL));
	}
}

/*
 * The lower_control fence in a loop.  Each pass, every engine adds 1 to an
 * allocated semaphore A, meets the others at a barrier, checks A == 5 (all
 * added, nobody reset it yet: the reset comes after the fence's first
 * barrier), then runs the fence (barrier, reset of the allocated
 * semaphores, barrier, drain).  A == 5 at every check holds only if the
 * fence resets A on every pass, and only after every engine checked it.
 * A semaphore that is not allocated is not reset by the fence.  @flags
 * are added to the submission's.
 */
static void fence_loop(struct __test_metadata *_metadata,
		       struct ncsync_dev *dev, const struct ncsync_info *info,
		       bool lower_events, uint32_t flags)
{
	const unsigned int iters = 150, sentinel = 200, passes = 100;
	struct ncsync_program *prog = prog_new(_metadata);
	struct ncsync_prog_status st;
	unsigned int k;
	int a, spare, state;
	uint32_t id;

	a = ncsync_sem_alloc(prog, 1);
	ADD(a);
	/* Allocated and freed before the fence: not in its mask. */
	spare = ncsync_sem_alloc(prog, 1);
	ADD(spare);
	build_fence_loop(_metadata, prog, a, spare, iters, sentinel, passes);
	if (lower_events)
		ASSERT_EQ(0, ncsync_program_lower(prog, NCSYNC_LOWER_EVENTS));

	ASSERT_EQ(0, ncsync_sem_set(dev, sentinel, 77, NULL));
	ASSERT_EQ(0, ncsync_sem_set(dev, spare, 55, NULL));
	id = submit(_metadata, dev, prog,
		    (lower_events ? NCSYNC_SUBMIT_F_STRICT : 0) | flags,
		    WD_LONG);
	state = wait_end(_metadata, dev, id);
	status_get(_metadata, dev, id, &st, NULL);
	if (state != NCSYNC_PROG_DONE) {
		status_log(_metadata, &st);
		for (k = 0; k < NCSYNC_NUM_ENGINES; k++)
			TH_LOG("  %s: %d passes, check failed: %d",
			       ncsync_engine_name(engine_ids[k]),
			       ncsync_sem_read(dev, passes + k),
			       ncsync_sem_read(dev, sentinel + 1 + k));
	}
	ASSERT_EQ(NCSYNC_PROG_DONE, state);
	for (k = 0; k < NCSYNC_NUM_ENGINES; k++) {
		EXPECT_EQ((int32_t)iters, ncsync_sem_read(dev, passes + k));
		EXPECT_EQ(0, ncsync_sem_read(dev, sentinel + 1 + k));
	}
	/* The last fence reset A; the others were never reset. */
	EXPECT_EQ(0, ncsync_sem_read(dev, a));
	EXPECT_EQ(77, ncsync_sem_read(dev, sentinel));
	EXPECT_EQ(55, ncsync_sem_read(dev, spare));
	/* Three barriers a pass */
	if (!lower_events)
		EXPECT_EQ(5 * 3 * (int32_t)iters,
			  ncsync_sem_read(dev, barrier_counter(info)));
	if (lower_events)
		check_event_bits_clear(_metadata, dev, info);
	ncsync_program_free(prog);
}

TEST_F_TIMEOUT(core, lower_control_fence_loop_counter, BARRIER_TIMEOUT)
{
	fence_loop(_metadata, self->dev, self->info, false, 0);
}

/* The fence conforms: each engine resets its own share of the group. */
TEST_F_TIMEOUT(core, lower_control_fence_loop_conformance, BARRIER_TIMEOUT)
{
	fence_loop(_metadata, self->dev, self->info, false,
		   NCSYNC_SUBMIT_F_CONFORM);
}

TEST_F_TIMEOUT(core, lower_control_fence_loop_events, BARRIER_TIMEOUT)
{
	fence_loop(_metadata, self->dev, self->info, true, 0);
}

TEST_HARNESS_MAIN
