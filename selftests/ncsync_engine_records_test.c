// SPDX-License-Identifier: GPL-2.0
/*
 * ncsync selftests of the engines of core 0 (ncsync_engine.h): every op:
 * EventSemaphore lanes, Halt and Exit, the end of a queue, the status of
 * unused engines, Drain, NoOp and EngineNop, Mov32, branches and counted
 * loops, GroupResetSemaphores, PollSem.
 *
 * Run inside the test VM:
 *   tools/vm-run build/selftests/ncsync_engine_records_test
 */
#include "ncsync_engine.h"

/* ---------------------------------------------------------------------- */
/* Every op                                                                */

/*
 * One EventSemaphore: lane 0 waits for E set-then-clear and sets E again,
 * lane 1 waits for E clear and increments S.  It completes only if lane 0's
 * wait (and its clear) comes before lane 1's wait, and the updates after
 * both waits (lane 0's set before lane 1's wait would block it for ever).
 */
TEST_F(core, evsem_waits_in_lane_order_then_updates)
{
	const int e = 9, s = 4;
	struct ncsync_stats st0, st1;
	struct rec_prog p = {};
	struct rec_queue *q;
	__u8 *r;
	__u32 id;

	evt_set(_metadata, self->fd, e, true);
	stats_get(_metadata, self->fd, &st0);
	q = rec_prog_queue(&p, NCSYNC_ENGINE_POOL);
	r = rec_evsem(q);
	rec_lane0(r, W_EVT_SET_CLR, e, U_COMPLETE | U_EVT_SET, e, 0);
	rec_lane1(r, W_EVT_CLR, e, U_COMPLETE | U_INC, s, 0, 1);
	id = submit_ok(_metadata, self->fd, &p, 0, WD_LONG);
	ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->fd, id));
	EXPECT_EQ(1, evt_get(_metadata, self->fd, e));
	EXPECT_EQ(1, sem_get(_metadata, self->fd, s));
	stats_get(_metadata, self->fd, &st1);
	EXPECT_EQ(st0.event_set_while_set, st1.event_set_while_set);
	EXPECT_EQ(st0.event_clear_while_clear, st1.event_clear_while_clear);
	rec_prog_free(&p);
}

/* With both waits unsatisfied, the engine blocks in lane 0 first. */
TEST_F(core, evsem_lane0_wait_before_lane1_wait)
{
	const int a = 10, b = 11, c = 12;
	struct ncsync_prog_status ps;
	struct rec_prog p = {};
	struct rec_queue *q;
	__u8 *r;
	__u32 id;

	q = rec_prog_queue(&p, NCSYNC_ENGINE_ACT);
	r = rec_evsem(q);
	rec_lane0(r, W_EQ, a, 0, 0, 1);
	rec_lane1(r, W_EQ, b, U_COMPLETE | U_INC, c, 1, 1);
	id = submit_ok(_metadata, self->fd, &p, 0, WD_LONG);

	wait_blocked(_metadata, self->fd, id, 0, &ps);
	EXPECT_EQ(0, ps.engines[0].wait_lane);
	EXPECT_EQ(a, ps.engines[0].wait_index);
	sem_set(_metadata, self->fd, b, 1);
	sleep_ms(30);
	wait_blocked(_metadata, self->fd, id, 0, &ps);
	EXPECT_EQ(0, ps.engines[0].wait_lane);
	EXPECT_EQ(a, ps.engines[0].wait_index);
	EXPECT_EQ(0, sem_get(_metadata, self->fd, c));
	sem_set(_metadata, self->fd, a, 1);
	ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->fd, id));
	EXPECT_EQ(1, sem_get(_metadata, self->fd, c));

	/* lane 0 satisfied, lane 1 not: it blocks in lane 1 */
	sem_set(_metadata, self->fd, b, 0);
	id = submit_ok(_metadata, self->fd, &p, 0, WD_LONG);
	wait_blocked(_metadata, self->fd, id, 0, &ps);
	EXPECT_EQ(1, ps.engines[0].wait_lane);
	EXPECT_EQ(b, ps.engines[0].wait_index);
	sem_set(_metadata, self->fd, b, 1);
	ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->fd, id));
	EXPECT_EQ(2, sem_get(_metadata, self->fd, c));
	rec_prog_free(&p);
}

TEST_F(core, halt_ends_program_halted)
{
	const int s = 3, t = 4, u = 5;
	struct ncsync_prog_status ps;
	struct rec_prog p = {};
	struct rec_queue *q;
	__u32 id;

	q = rec_prog_queue(&p, NCSYNC_ENGINE_POOL);
	rec_inc(q, s);
	rec_lane0(rec_halt(q), 0, 0, U_INC, u, 0);	/* its update runs */
	rec_inc(q, s);
	rec_inc(q, s);
	q = rec_prog_queue(&p, NCSYNC_ENGINE_DVE);
	rec_inc(q, t);
	rec_inc(q, t);
	id = submit_ok(_metadata, self->fd, &p, 0, WD_LONG);
	ASSERT_EQ(NCSYNC_PROG_HALTED, wait_end(_metadata, self->fd, id));
	status_get(_metadata, self->fd, id, &ps, NULL);
	EXPECT_EQ(NCSYNC_PROG_HALTED, (int)ps.state);
	EXPECT_EQ(2, (int)ps.nengines);
	EXPECT_EQ(NCSYNC_ENGINE_POOL, ps.engines[0].engine);
	EXPECT_EQ(NCSYNC_ENG_HALTED, ps.engines[0].state);
	EXPECT_EQ(NCSYNC_FAULT_NONE, ps.engines[0].fault);
	EXPECT_EQ(1, (int)ps.engines[0].pc);	/* the Halt */
	EXPECT_EQ(2, (int)ps.engines[0].executed);
	EXPECT_EQ(NCSYNC_ENGINE_DVE, ps.engines[1].engine);
	EXPECT_EQ(NCSYNC_ENG_DONE, ps.engines[1].state);
	EXPECT_EQ(1, sem_get(_metadata, self->fd, s));
	EXPECT_EQ(2, sem_get(_metadata, self->fd, t));
	EXPECT_EQ(1, sem_get(_metadata, self->fd, u));
	rec_prog_free(&p);
}

TEST_F(core, exit_ends_queue_done)
{
	const int s = 3, u = 4;
	struct ncsync_prog_status ps;
	struct rec_prog p = {};
	struct rec_queue *q;
	__u32 id;

	q = rec_prog_queue(&p, NCSYNC_ENGINE_SP);
	rec_inc(q, s);
	rec_lane0(rec_exit(q), 0, 0, U_INC, u, 0);	/* its update runs */
	rec_inc(q, s);
	id = submit_ok(_metadata, self->fd, &p, 0, WD_LONG);
	ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->fd, id));
	status_get(_metadata, self->fd, id, &ps, NULL);
	EXPECT_EQ(NCSYNC_ENG_DONE, ps.engines[0].state);
	EXPECT_EQ(1, (int)ps.engines[0].pc);	/* the Exit */
	EXPECT_EQ(2, (int)ps.engines[0].executed);
	EXPECT_EQ(1, sem_get(_metadata, self->fd, s));
	EXPECT_EQ(1, sem_get(_metadata, self->fd, u));
	rec_prog_free(&p);
}

/* A queue that runs past its last record ends DONE with pc == count. */
TEST_F(core, queue_end_done_status)
{
	struct ncsync_prog_status ps;
	struct rec_prog p = {};
	unsigned int i;
	__u32 id;

	/* submission order, not engine order, is the order of the status */
	for (i = 0; i < 3; i++) {
		struct rec_queue *q = rec_prog_queue(&p, engine_ids[4 - 2 * i]);
		unsigned int k;

		for (k = 0; k <= i; k++)
			rec_inc(q, 20 + i);
	}
	id = submit_ok(_metadata, self->fd, &p, 0, WD_LONG);
	ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->fd, id));
	status_get(_metadata, self->fd, id, &ps, NULL);
	ASSERT_EQ(3, (int)ps.nengines);
	for (i = 0; i < 3; i++) {
		EXPECT_EQ(engine_ids[4 - 2 * i], ps.engines[i].engine);
		EXPECT_EQ(NCSYNC_ENG_DONE, ps.engines[i].state);
		EXPECT_EQ(NCSYNC_FAULT_NONE, ps.engines[i].fault);
		EXPECT_EQ(i + 1, ps.engines[i].pc);
		EXPECT_EQ((int)i + 1, (int)ps.engines[i].executed);
		EXPECT_EQ((int)i + 1, sem_get(_metadata, self->fd, 20 + i));
	}
	rec_prog_free(&p);
}

/* Run a program of @n engines, one inc each, to its end; return its id. */
static __u32 run_incs(struct __test_metadata *_metadata, int fd,
		      unsigned int n)
{
	struct rec_prog p = {};
	unsigned int i;
	__u32 id;

	for (i = 0; i < n; i++)
		rec_inc(rec_prog_queue(&p, engine_ids[i]), 30 + i);
	id = submit_ok(_metadata, fd, &p, 0, WD_LONG);
	rec_prog_free(&p);
	EXPECT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, fd, id));
	return id;
}

/*
 * The engines a program has no queue for read as zero in its status, also
 * when the kernel memory of its snapshot held a wider program's before.
 */
TEST_F(core, status_unused_engines_zero_after_wider_program)
{
	static const struct ncsync_engine_status zero;
	struct ncsync_prog_status ps;
	unsigned int round, i;
	__u32 id;

	for (round = 0; round < 8; round++) {
		id = run_incs(_metadata, self->fd, NCSYNC_NUM_ENGINES);
		ASSERT_EQ(0, prog_status(self->fd, id, NCSYNC_STATUS_F_RELEASE,
					 &ps, NULL));
		ASSERT_EQ(NCSYNC_NUM_ENGINES, (int)ps.nengines);
		id = run_incs(_metadata, self->fd, 1);
		status_get(_metadata, self->fd, id, &ps, NULL);
		ASSERT_EQ(1, (int)ps.nengines);
		EXPECT_EQ(1, (int)ps.engines[0].executed);
		for (i = 1; i < NCSYNC_NUM_ENGINES; i++) {
			EXPECT_EQ(0, memcmp(&zero, &ps.engines[i], sizeof(zero)))
				TH_LOG("round %u: engines[%u] is not zero",
				       round, i);
		}
		ASSERT_EQ(0, prog_status(self->fd, id, NCSYNC_STATUS_F_RELEASE,
					 &ps, NULL));
	}
}

TEST_F(core, drain_without_copies_passes)
{
	const int s = 5;
	struct rec_prog p = {};
	struct rec_queue *q;
	__u32 id;

	q = rec_prog_queue(&p, NCSYNC_ENGINE_PE);
	rec_drain(q);
	rec_inc(q, s);
	rec_drain(q);
	id = submit_ok(_metadata, self->fd, &p, 0, WD_LONG);
	ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->fd, id));
	EXPECT_EQ(1, sem_get(_metadata, self->fd, s));
	rec_prog_free(&p);
}

/* A NoOp carries a wait and an update in its events block (ENC 8). */
TEST_F(core, noop_events_block_wait_and_update)
{
	const int s = 6, t = 7, e = 8, f = 9;
	struct ncsync_prog_status ps;
	struct rec_prog p = {};
	struct rec_queue *q;
	__u32 id;

	q = rec_prog_queue(&p, NCSYNC_ENGINE_POOL);
	rec_noop(q, W_GE, s, U_INC, t, 3);
	rec_noop(q, W_EVT_SET, e, U_EVT_SET, f, 0);
	id = submit_ok(_metadata, self->fd, &p, 0, WD_LONG);

	wait_blocked(_metadata, self->fd, id, 0, &ps);
	EXPECT_EQ(0, (int)ps.engines[0].pc);
	EXPECT_EQ(NCSYNC_BLOCK_SEM, ps.engines[0].wait_kind);
	EXPECT_EQ(W_GE, ps.engines[0].wait_mode);
	EXPECT_EQ(s, ps.engines[0].wait_index);
	EXPECT_EQ(0, ps.engines[0].wait_lane);
	EXPECT_EQ(3, ps.engines[0].wait_threshold);
	sem_set(_metadata, self->fd, s, 2);
	sleep_ms(20);
	EXPECT_EQ(0, sem_get(_metadata, self->fd, t));
	sem_set(_metadata, self->fd, s, 3);

	/* now in the second NoOp, on the event */
	for (;;) {
		wait_blocked(_metadata, self->fd, id, 0, &ps);
		if (ps.engines[0].pc == 1)
			break;
		usleep(1000);
	}
	EXPECT_EQ(NCSYNC_BLOCK_EVENT, ps.engines[0].wait_kind);
	EXPECT_EQ(W_EVT_SET, ps.engines[0].wait_mode);
	EXPECT_EQ(e, ps.engines[0].wait_index);
	EXPECT_EQ(0, ps.engines[0].wait_current);
	EXPECT_EQ(1, sem_get(_metadata, self->fd, t));
	EXPECT_EQ(0, evt_get(_metadata, self->fd, f));
	evt_set(_metadata, self->fd, e, true);
	ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->fd, id));
	EXPECT_EQ(1, evt_get(_metadata, self->fd, f));
	EXPECT_EQ(1, evt_get(_metadata, self->fd, e));	/* 0x06 does not clear */
	EXPECT_EQ(3, sem_get(_metadata, self->fd, s));	/* a wait is a poll */
	rec_prog_free(&p);
}

/*
 * EngineNop (0x9F) runs as a NoOp (records.rst, "EngineNop"): the layout
 * of a NoOp, its events block's wait and update, no effect of its own.
 */
TEST_F(core, engine_nop_runs_as_noop)
{
	struct rec_prog p = {};
	struct rec_queue *q = rec_prog_queue(&p, NCSYNC_ENGINE_POOL);
	struct ncsync_prog_status ps;
	const int s = 6, t = 7;
	__u32 id;

	rec_noop(q, W_GE, s, U_INC, t, 1)[0] = 0x9F;
	rec_noop(q, 0, 0, U_INC, t, 0)[0] = 0x9F;
	id = submit_ok(_metadata, self->fd, &p, 0, WD_LONG);

	wait_blocked(_metadata, self->fd, id, 0, &ps);
	EXPECT_EQ(0, (int)ps.engines[0].pc);
	EXPECT_EQ(NCSYNC_BLOCK_SEM, ps.engines[0].wait_kind);
	EXPECT_EQ(s, ps.engines[0].wait_index);
	EXPECT_EQ(0, sem_get(_metadata, self->fd, t));
	sem_set(_metadata, self->fd, s, 1);
	ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->fd, id));
	EXPECT_EQ(2, sem_get(_metadata, self->fd, t));
	EXPECT_EQ(1, sem_get(_metadata, self->fd, s));
	rec_prog_free(&p);
}

/* Mov32: every NCSYNC_ALU_* operation; results stored with update 0x89. */
TEST_F(core, mov32_alu_operations)
{
	static const struct {
		__u8 reg;
		__u32 expect;
	} out[] = {
		{ 1, 0x12345678 }, { 2, 0x12345678 }, { 3, 0x23456789 },
		{ 4, 0x12345682 }, { 5, 0xFFFFFFFF }, { 6, (__u32)-30 },
		{ 7, 130 }, { 8, 0x12005600 }, { 9, 0x1234567F },
		{ 10, 0xEDCBA987 }, { 11, 0x23456780 }, { 12, 0x23456780 },
		{ 13, 0x08000000 }, { 14, 0x00123456 }, { 31, 0xCAFEF00D },
		{ 0, 0x12345678 },
	};
	struct rec_prog p = {};
	struct rec_queue *q;
	unsigned int i;
	__u32 id;

	q = rec_prog_queue(&p, NCSYNC_ENGINE_ACT);
	rec_movi(q, 1, 0x12345678);				/* r1 = imm */
	rec_mov(q, NCSYNC_ALU_MOV, 2, 1, 0);			/* r2 = r1 */
	rec_mov(q, NCSYNC_ALU_ADD_IMM, 3, 1, 0x11111111);	/* r3 = r1 + i */
	rec_movi(q, 4, 10);
	rec_mov(q, NCSYNC_ALU_ADD, 4, 1, 0);			/* r4 += r1 */
	rec_mov(q, NCSYNC_ALU_SUB_IMM, 5, 1, 0x12345679);	/* wraps */
	rec_movi(q, 6, 100);
	rec_movi(q, 7, 130);
	rec_mov(q, NCSYNC_ALU_SUB, 6, 7, 0);			/* r6 -= r7 */
	rec_mov(q, NCSYNC_ALU_AND_IMM, 8, 1, 0xFF00FF00);
	rec_mov(q, NCSYNC_ALU_OR_IMM, 9, 1, 0x0F);
	rec_mov(q, NCSYNC_ALU_XOR_IMM, 10, 1, 0xFFFFFFFF);
	rec_mov(q, NCSYNC_ALU_SHL_IMM, 11, 1, 4);
	rec_mov(q, NCSYNC_ALU_SHL_IMM, 12, 1, 36);		/* imm & 31 */
	rec_movi(q, 13, 0x80000000);
	rec_mov(q, NCSYNC_ALU_SHR_IMM, 13, 13, 4);		/* logical */
	rec_mov(q, NCSYNC_ALU_SHR_IMM, 14, 1, 8);
	rec_movi(q, 31, 0xCAFEF00D);
	rec_mov(q, NCSYNC_ALU_MOV, 0, 1, 0);
	for (i = 0; i < ARRAY_SIZE(out); i++)
		rec_store_reg(q, 100 + i, out[i].reg);
	id = submit_ok(_metadata, self->fd, &p, 0, WD_LONG);
	ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->fd, id));
	for (i = 0; i < ARRAY_SIZE(out); i++)
		EXPECT_EQ(out[i].expect,
			  (__u32)sem_get(_metadata, self->fd, 100 + i))
			TH_LOG("register r%u", out[i].reg);
	rec_prog_free(&p);
}

TEST_F(core, branch_unconditional)
{
	const int a = 1, b = 2, x = 3;
	struct rec_prog p = {};
	struct rec_queue *q;
	__u32 id;

	q = rec_prog_queue(&p, NCSYNC_ENGINE_SP);
	rec_jmp(q, 3);		/* 0: forward */
	rec_inc(q, b);		/* 1 */
	rec_jmp(q, 6);		/* 2 */
	rec_inc(q, a);		/* 3 */
	rec_jmp(q, 1);		/* 4: backward */
	rec_inc(q, x);		/* 5: never */
	rec_exit(q);		/* 6 */
	id = submit_ok(_metadata, self->fd, &p, 0, WD_LONG);
	ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->fd, id));
	EXPECT_EQ(1, sem_get(_metadata, self->fd, a));
	EXPECT_EQ(1, sem_get(_metadata, self->fd, b));
	EXPECT_EQ(0, sem_get(_metadata, self->fd, x));
	rec_prog_free(&p);
}

static bool br_expect(__u8 comp, __u8 dtype, __u32 lhs, __u32 rhs)
{
	long long a = dtype == NCSYNC_DTYPE_S32 ? (long long)(__s32)lhs : lhs;
	long long b = dtype == NCSYNC_DTYPE_S32 ? (long long)(__s32)rhs : rhs;

	switch (comp & 7) {
	case 1: return a < b;
	case 2: return a <= b;
	case 3: return a == b;
	case 4: return a != b;
	case 5: return a >= b;
	default: return a > b;
	}
}

static const __u32 br_pairs[][2] = {
	{ 0xFFFFFFFF, 1 }, { 5, 5 }, { 1, 0xFFFFFFFF },
	{ 0x80000000, 0x7FFFFFFF }, { 7, 3 },
};

/*
 * Conditional branches: every comparison, both dtypes, immediate or register
 * right-hand side.  Each case writes 2 (taken) or 1 (not taken) into its own
 * semaphore.
 */
static void branch_cases(struct __test_metadata *_metadata, int fd, bool reg)
{
	struct rec_prog p = {};
	struct rec_queue *q;
	unsigned int k = 0, pi, dt, c;
	__u32 id;

	q = rec_prog_queue(&p, NCSYNC_ENGINE_DVE);
	for (pi = 0; pi < ARRAY_SIZE(br_pairs); pi++) {
		for (dt = NCSYNC_DTYPE_U32; dt <= NCSYNC_DTYPE_S32; dt++) {
			for (c = 1; c <= 6; c++, k++) {
				__u32 br_at, jmp_at;

				rec_movi(q, 1, br_pairs[pi][0]);
				if (reg) {
					rec_movi(q, 2, br_pairs[pi][1]);
					br_at = q->n;
					rec_br(q, c | 8, dt, 1, 2, 0, 0);
				} else {
					br_at = q->n;
					rec_br(q, c, dt, 1, 0,
					       br_pairs[pi][1], 0);
				}
				rec_noop(q, 0, 0, U_WRITE, k, 1);
				jmp_at = q->n;
				rec_jmp(q, 0);
				rec_set_target(q, br_at, q->n);
				rec_noop(q, 0, 0, U_WRITE, k, 2);
				rec_set_target(q, jmp_at, q->n);
			}
		}
	}
	rec_exit(q);
	id = submit_ok(_metadata, fd, &p, 0, WD_LONG);
	ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, fd, id));

	k = 0;
	for (pi = 0; pi < ARRAY_SIZE(br_pairs); pi++) {
		for (dt = NCSYNC_DTYPE_U32; dt <= NCSYNC_DTYPE_S32; dt++) {
			for (c = 1; c <= 6; c++, k++) {
				bool t = br_expect(c, dt, br_pairs[pi][0],
						   br_pairs[pi][1]);

				EXPECT_EQ(t ? 2 : 1, sem_get(_metadata, fd, k))
					TH_LOG("comp %u dtype %u: 0x%x vs 0x%x",
					       c | (reg ? 8 : 0), dt,
					       br_pairs[pi][0], br_pairs[pi][1]);
			}
		}
	}
	rec_prog_free(&p);
}

TEST_F(core, branch_conditional_immediate)
{
	branch_cases(_metadata, self->fd, false);
}

TEST_F(core, branch_conditional_register)
{
	branch_cases(_metadata, self->fd, true);
}

/* Mov32 counters and conditional branches: counted loops. */
TEST_F(core, counted_loop_increments_n_times)
{
	const int s = 30, s2 = 31, n = 37;
	struct rec_prog p = {};
	struct rec_queue *q;
	__u32 id;

	/* up: r1 = 0; do { S++; r1 += 1; } while (r1 <u n) */
	q = rec_prog_queue(&p, NCSYNC_ENGINE_POOL);
	rec_movi(q, 1, 0);
	rec_inc(q, s);
	rec_mov(q, NCSYNC_ALU_ADD_IMM, 1, 1, 1);
	rec_br(q, NCSYNC_BR_LT, NCSYNC_DTYPE_U32, 1, 0, n, 1);
	rec_exit(q);
	/* down, signed: r3 = 10; do { S2++; r3 -= 1; } while (r3 >s 0) */
	q = rec_prog_queue(&p, NCSYNC_ENGINE_PE);
	rec_movi(q, 3, 10);
	rec_noop(q, 0, 0, U_INC, s2, 0);
	rec_mov(q, NCSYNC_ALU_SUB_IMM, 3, 3, 1);
	rec_br(q, NCSYNC_BR_GT, NCSYNC_DTYPE_S32, 3, 0, 0, 1);
	id = submit_ok(_metadata, self->fd, &p, 0, WD_LONG);
	ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->fd, id));
	EXPECT_EQ(n, sem_get(_metadata, self->fd, s));
	EXPECT_EQ(10, sem_get(_metadata, self->fd, s2));
	rec_prog_free(&p);
}

TEST_F(core, group_reset_range)
{
	__s32 v[256], got[256];
	struct rec_prog p = {};
	struct rec_queue *q;
	unsigned int i;
	__u32 id;

	for (i = 0; i < 256; i++)
		v[i] = 1000 + i;
	sems_set(_metadata, self->fd, v);
	q = rec_prog_queue(&p, NCSYNC_ENGINE_SP);
	rec_gr_range(q, 5, 9);
	rec_gr_range(q, 20, 20);
	rec_gr_range(q, 255, 255);
	id = submit_ok(_metadata, self->fd, &p, 0, WD_LONG);
	ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->fd, id));
	sems_get(_metadata, self->fd, got);
	for (i = 0; i < 256; i++) {
		bool cleared = (i >= 5 && i <= 9) || i == 20 || i == 255;

		EXPECT_EQ(cleared ? 0 : v[i], got[i]) TH_LOG("sem %u", i);
	}
	rec_prog_free(&p);

	q = rec_prog_queue(&p, NCSYNC_ENGINE_SP);
	rec_gr_range(q, 0, 255);
	id = submit_ok(_metadata, self->fd, &p, 0, WD_LONG);
	ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->fd, id));
	sems_get(_metadata, self->fd, got);
	for (i = 0; i < 256; i++)
		EXPECT_EQ(0, got[i]) TH_LOG("sem %u", i);
	rec_prog_free(&p);
}

TEST_F(core, group_reset_mask)
{
	static const __u8 clr[] = { 0, 7, 8, 63, 64, 130, 200, 254, 255 };
	__s32 v[256], got[256];
	struct rec_prog p = {};
	struct rec_queue *q;
	unsigned int i, k;
	__u32 id;

	for (i = 0; i < 256; i++)
		v[i] = -1 - (__s32)i;
	sems_set(_metadata, self->fd, v);
	q = rec_prog_queue(&p, NCSYNC_ENGINE_ACT);
	rec_gr_mask(q, clr, ARRAY_SIZE(clr));
	id = submit_ok(_metadata, self->fd, &p, 0, WD_LONG);
	ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->fd, id));
	sems_get(_metadata, self->fd, got);
	for (i = 0; i < 256; i++) {
		bool cleared = false;

		for (k = 0; k < ARRAY_SIZE(clr); k++)
			cleared |= clr[k] == i;
		EXPECT_EQ(cleared ? 0 : v[i], got[i]) TH_LOG("sem %u", i);
	}
	rec_prog_free(&p);
}

/* A GroupResetSemaphores of one program wakes a wait of another. */
TEST_F(core, group_reset_wakes_waiter)
{
	const int s = 40, t = 41;
	struct rec_prog p = {}, p2 = {};
	__u32 id, id2;

	sem_set(_metadata, self->fd, s, 5);
	rec_noop(rec_prog_queue(&p, NCSYNC_ENGINE_POOL), W_LE, s, U_INC, t, 0);
	id = submit_ok(_metadata, self->fd, &p, 0, WD_LONG);
	wait_blocked(_metadata, self->fd, id, 0, NULL);
	rec_gr_range(rec_prog_queue(&p2, NCSYNC_ENGINE_ACT), s, s);
	id2 = submit_ok(_metadata, self->fd, &p2, 0, WD_LONG);
	ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->fd, id2));
	ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->fd, id));
	EXPECT_EQ(0, sem_get(_metadata, self->fd, s));
	EXPECT_EQ(1, sem_get(_metadata, self->fd, t));
	rec_prog_free(&p);
	rec_prog_free(&p2);
}

/*
 * PollSem's write-back (BARRIER §5: "if nonzero write the result back to
 * all 16 plus a GP register"): a nonzero minimum lowers every semaphore of
 * the range to it, in the one step of the read, and wakes a wait of
 * another program that needed it; a zero minimum goes to the register only.
 */
TEST_F(core, pollsem_writeback)
{
	static const int vals[] = { 4, 2, 9, 5 };
	struct rec_prog p = {}, p2 = {};
	struct rec_queue *q;
	unsigned int i;
	__u32 id, id2;

	for (i = 0; i < 4; i++)
		sem_set(_metadata, self->fd, 60 + i, vals[i]);
	sem_set(_metadata, self->fd, 70, 0);
	sem_set(_metadata, self->fd, 71, 3);
	/* pool waits for sem 62 <= 2, then +1 of sem 64 */
	rec_noop(rec_prog_queue(&p, NCSYNC_ENGINE_POOL), W_LE, 62, U_INC, 64,
		 2);
	id = submit_ok(_metadata, self->fd, &p, 0, WD_LONG);
	wait_blocked(_metadata, self->fd, id, 0, NULL);

	q = rec_prog_queue(&p2, NCSYNC_ENGINE_ACT);
	rec_poll_writeback(q, 5, 60, 4);		/* min 2: written back */
	rec_poll_writeback(q, 6, 70, 2);		/* min 0: not */
	rec_store_reg(q, 65, 5);
	rec_store_reg(q, 66, 6);
	id2 = submit_ok(_metadata, self->fd, &p2, 0, WD_LONG);
	ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->fd, id2));
	ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->fd, id));
	for (i = 0; i < 4; i++)
		EXPECT_EQ(2, sem_get(_metadata, self->fd, 60 + i));
	EXPECT_EQ(1, sem_get(_metadata, self->fd, 64));
	EXPECT_EQ(2, sem_get(_metadata, self->fd, 65));
	EXPECT_EQ(0, sem_get(_metadata, self->fd, 70));
	EXPECT_EQ(3, sem_get(_metadata, self->fd, 71));
	EXPECT_EQ(0, sem_get(_metadata, self->fd, 66));
	rec_prog_free(&p);
	rec_prog_free(&p2);
}

/* PollSem min and sum into a register, then the register in use. */
TEST_F(core, pollsem_min_sum_register_use)
{
	struct ncsync_prog_status ps;
	struct rec_prog p = {};
	struct rec_queue *q;
	unsigned int i;
	__u32 id;

	sem_set(_metadata, self->fd, 10, 5);
	sem_set(_metadata, self->fd, 11, -3);
	sem_set(_metadata, self->fd, 12, 7);
	sem_set(_metadata, self->fd, 13, 2);
	sem_set(_metadata, self->fd, 40, INT_MAX);
	sem_set(_metadata, self->fd, 41, INT_MAX);
	sem_set(_metadata, self->fd, 22, 100);
	for (i = 240; i < 256; i++)
		sem_set(_metadata, self->fd, i, i - 239);

	q = rec_prog_queue(&p, NCSYNC_ENGINE_PE);
	rec_poll(q, NCSYNC_POLL_MIN, 3, 10, 4);		/* -3 */
	rec_poll(q, NCSYNC_POLL_SUM, 4, 10, 4);		/* 11 */
	rec_poll(q, NCSYNC_POLL_SUM, 5, 10, 1);		/* 5 */
	rec_poll(q, NCSYNC_POLL_SUM, 6, 40, 2);		/* wraps: -2 */
	rec_poll(q, NCSYNC_POLL_SUM, 7, 240, 16);	/* 136 */
	rec_poll(q, NCSYNC_POLL_MIN, 8, 240, 16);	/* 1 */
	rec_store_reg(q, 20, 3);
	rec_store_reg(q, 21, 4);
	rec_store_reg(q, 23, 5);
	rec_store_reg(q, 24, 6);
	rec_store_reg(q, 25, 7);
	rec_store_reg(q, 26, 8);
	/* EventSemaphore lane-1 add of a register (0x95): sem 22 += r4 */
	rec_lane1(rec_evsem(q), 0, 0, U_REG | U_COMPLETE | U_ADD, 22, 0, 4);
	/* register-form wait (0x85): sem 30 >= r4, then +1 of sem 31 */
	rec_wait_then_inc(q, W_REG | W_GE, 30, 4, 31);
	id = submit_ok(_metadata, self->fd, &p, 0, WD_LONG);

	wait_blocked(_metadata, self->fd, id, 0, &ps);
	EXPECT_EQ(W_REG | W_GE, ps.engines[0].wait_mode);
	EXPECT_EQ(30, ps.engines[0].wait_index);
	EXPECT_EQ(11, ps.engines[0].wait_threshold);
	EXPECT_EQ(-3, sem_get(_metadata, self->fd, 20));
	EXPECT_EQ(11, sem_get(_metadata, self->fd, 21));
	EXPECT_EQ(111, sem_get(_metadata, self->fd, 22));
	EXPECT_EQ(5, sem_get(_metadata, self->fd, 23));
	EXPECT_EQ(-2, sem_get(_metadata, self->fd, 24));
	EXPECT_EQ(136, sem_get(_metadata, self->fd, 25));
	EXPECT_EQ(1, sem_get(_metadata, self->fd, 26));
	sem_set(_metadata, self->fd, 30, 10);
	sleep_ms(20);
	EXPECT_EQ(0, sem_get(_metadata, self->fd, 31));
	sem_set(_metadata, self->fd, 30, 11);
	ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->fd, id));
	EXPECT_EQ(1, sem_get(_metadata, self->fd, 31));
	rec_prog_free(&p);
}

TEST_HARNESS_MAIN
