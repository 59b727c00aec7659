// SPDX-License-Identifier: GPL-2.0
/*
 * ncsync selftests of the engines of core 0 (ncsync_engine.h): every wait
 * mode (semaphore, in either lane, immediate or register; event) and every
 * update mode, in every place an update stands.
 *
 * Run inside the test VM:
 *   tools/vm-run build/selftests/ncsync_engine_waits_test
 */
#include "ncsync_engine.h"

/* ---------------------------------------------------------------------- */
/* Every wait mode                                                         */

struct sem_wait_case {
	__u8 mode;
	__s32 thr;
	__s32 block;	/* a value the wait does not pass */
	__s32 pass;	/* a value it passes */
};

static const struct sem_wait_case sem_wait_cases[] = {
	{ W_EQ, -5, -4, -5 },
	{ W_LT, -5, -5, -6 },
	{ W_LE, -5, -4, -5 },
	{ W_GT, -5, -5, -4 },
	{ W_GE, -5, -6, -5 },
	{ W_LT, 0, 0, INT_MIN },	/* signed: an unsigned compare fails */
	{ W_GE, -1, -2, 0 },
	{ W_GT, 100, 100, INT_MAX },
	{ W_EQ, INT_MIN, INT_MAX, INT_MIN },
};

/*
 * Run each semaphore wait case in one lane (0: NoOp events block, 1:
 * EventSemaphore extended block), immediate or register threshold: first
 * with a value that passes (no block), then blocked and woken by a write.
 */
static void sem_wait_modes(struct __test_metadata *_metadata, int fd,
			   unsigned int lane, bool reg)
{
	const int s = 50, t = 51, rg = 9;
	unsigned int i, round;

	for (i = 0; i < ARRAY_SIZE(sem_wait_cases); i++) {
		const struct sem_wait_case *c = &sem_wait_cases[i];
		__u8 mode = c->mode | (reg ? W_REG : 0);
		__u32 val = reg ? rg : (__u32)c->thr;

		for (round = 0; round < 2; round++) {
			struct ncsync_prog_status ps;
			struct rec_prog p = {};
			struct rec_queue *q;
			__u32 id;

			sem_set(_metadata, fd, t, 0);
			sem_set(_metadata, fd, s, round ? c->block : c->pass);
			q = rec_prog_queue(&p, engine_ids[i % 5]);
			if (reg)
				rec_movi(q, rg, c->thr);
			if (lane)
				rec_wait_then_inc(q, mode, s, val, t);
			else
				rec_noop(q, mode, s, U_INC, t, val);
			id = submit_ok(_metadata, fd, &p, 0, WD_LONG);
			if (round) {
				wait_blocked(_metadata, fd, id, 0, &ps);
				EXPECT_EQ(NCSYNC_BLOCK_SEM,
					  ps.engines[0].wait_kind);
				EXPECT_EQ(mode, ps.engines[0].wait_mode);
				EXPECT_EQ(s, ps.engines[0].wait_index);
				EXPECT_EQ(lane, ps.engines[0].wait_lane);
				EXPECT_EQ(c->thr, ps.engines[0].wait_threshold);
				EXPECT_EQ(c->block,
					  ps.engines[0].wait_current);
				EXPECT_EQ(0, sem_get(_metadata, fd, t));
				sem_set(_metadata, fd, s, c->pass);
			}
			ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, fd, id))
				TH_LOG("case %u mode 0x%x lane %u", i, mode,
				       lane);
			EXPECT_EQ(1, sem_get(_metadata, fd, t))
				TH_LOG("case %u", i);
			EXPECT_EQ(c->pass, sem_get(_metadata, fd, s));
			rec_prog_free(&p);
		}
	}
}

TEST_F(core, wait_sem_modes_lane0_immediate)
{
	sem_wait_modes(_metadata, self->fd, 0, false);
}

TEST_F(core, wait_sem_modes_lane1_immediate)
{
	sem_wait_modes(_metadata, self->fd, 1, false);
}

TEST_F(core, wait_sem_modes_lane0_register)
{
	sem_wait_modes(_metadata, self->fd, 0, true);
}

TEST_F(core, wait_sem_modes_lane1_register)
{
	sem_wait_modes(_metadata, self->fd, 1, true);
}

struct evt_wait_case {
	__u8 mode;
	bool block;	/* the state the wait does not pass */
	bool after;	/* the state once it passed */
};

static const struct evt_wait_case evt_wait_cases[] = {
	{ W_EVT_SET, false, true },
	{ W_EVT_SET_CLR, false, false },
	{ W_EVT_CLR, true, false },
	{ W_EVT_CLR_SET, true, true },
};

static void evt_wait_modes(struct __test_metadata *_metadata, int fd,
			   unsigned int lane)
{
	const int e = 60, t = 61;
	unsigned int i, round;

	for (i = 0; i < ARRAY_SIZE(evt_wait_cases); i++) {
		const struct evt_wait_case *c = &evt_wait_cases[i];

		for (round = 0; round < 2; round++) {
			struct ncsync_prog_status ps;
			struct rec_prog p = {};
			struct rec_queue *q;
			__u32 id;

			sem_set(_metadata, fd, t, 0);
			evt_set(_metadata, fd, e, round ? c->block : !c->block);
			q = rec_prog_queue(&p, engine_ids[i]);
			if (lane)
				rec_wait_then_inc(q, c->mode, e, 0, t);
			else
				rec_noop(q, c->mode, e, U_INC, t, 0);
			id = submit_ok(_metadata, fd, &p, 0, WD_LONG);
			if (round) {
				wait_blocked(_metadata, fd, id, 0, &ps);
				EXPECT_EQ(NCSYNC_BLOCK_EVENT,
					  ps.engines[0].wait_kind);
				EXPECT_EQ(c->mode, ps.engines[0].wait_mode);
				EXPECT_EQ(e, ps.engines[0].wait_index);
				EXPECT_EQ(lane, ps.engines[0].wait_lane);
				EXPECT_EQ(c->block,
					  ps.engines[0].wait_current);
				EXPECT_EQ(0, sem_get(_metadata, fd, t));
				evt_set(_metadata, fd, e, !c->block);
			}
			ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, fd, id))
				TH_LOG("mode 0x%x lane %u", c->mode, lane);
			EXPECT_EQ(1, sem_get(_metadata, fd, t));
			EXPECT_EQ(c->after, evt_get(_metadata, fd, e))
				TH_LOG("mode 0x%x lane %u", c->mode, lane);
			rec_prog_free(&p);
		}
	}
}

TEST_F(core, wait_event_modes_lane0)
{
	evt_wait_modes(_metadata, self->fd, 0);
}

TEST_F(core, wait_event_modes_lane1)
{
	evt_wait_modes(_metadata, self->fd, 1);
}

/* A then-clear wait consumes the edge: of two engines, one passes. */
TEST_F(core, wait_event_set_then_clear_consumes_once)
{
	const int e = 62, t = 63;
	struct ncsync_prog_status ps;
	struct rec_prog p = {};
	int done = 0, blocked = 0;
	unsigned int i;
	__u32 id;

	for (i = 0; i < 2; i++)
		rec_wait_then_inc(rec_prog_queue(&p, engine_ids[i]),
				  W_EVT_SET_CLR, e, 0, t);
	id = submit_ok(_metadata, self->fd, &p, 0, 300);
	evt_set(_metadata, self->fd, e, true);
	ASSERT_EQ(NCSYNC_PROG_TIMED_OUT, wait_end(_metadata, self->fd, id));
	status_get(_metadata, self->fd, id, &ps, NULL);
	for (i = 0; i < 2; i++) {
		done += ps.engines[i].state == NCSYNC_ENG_DONE;
		blocked += ps.engines[i].state == NCSYNC_ENG_BLOCKED;
	}
	EXPECT_EQ(1, done);
	EXPECT_EQ(1, blocked);
	EXPECT_EQ(1, sem_get(_metadata, self->fd, t));
	EXPECT_EQ(0, evt_get(_metadata, self->fd, e));
	rec_prog_free(&p);
}

/* ---------------------------------------------------------------------- */
/* Every update mode                                                       */

struct upd_case {
	__u8 mode;	/* the _READ form, with U_REG for register operands */
	__s32 preset;
	__u32 operand;	/* immediate, or the register's value */
	__s32 expect;
};

static const struct upd_case upd_cases[] = {
	{ U_INC, 41, 77, 42 },		/* the operand is ignored */
	{ U_DEC, -41, 77, -42 },
	{ U_ADD, -10, 1000, 990 },
	{ U_ADD, 5, (__u32)-10, -5 },
	{ U_SUB, 3, 10, -7 },
	{ U_WRITE, 1, (__u32)-123, -123 },
	{ U_REG | U_ADD, 1, 1000, 1001 },
	{ U_REG | U_SUB, 0, 50, -50 },
	{ U_REG | U_WRITE, 3, INT_MAX, INT_MAX },
};

/* placements of an update: NoOp lane 0 (_READ or _COMPLETE), EvSem lanes */
enum { PL_NOOP_READ, PL_NOOP_COMPLETE, PL_EVSEM_LANE0, PL_EVSEM_LANE1, PL_N };

/*
 * Add every update case, then an event set and an event clear, at
 * placement @pl to @q: from semaphore *@sem and event *@evt on, each
 * advanced past the ones used.  The semaphores' presets go to @v, the
 * events are preset on @fd.
 */
static void add_update_placement(struct __test_metadata *_metadata, int fd,
				 struct rec_queue *q, unsigned int pl,
				 __s32 *v, unsigned int *sem,
				 unsigned int *evt)
{
	bool complete = pl != PL_NOOP_READ;
	unsigned int i, reg;

	for (i = 0; i < ARRAY_SIZE(upd_cases); i++, (*sem)++) {
		const struct upd_case *c = &upd_cases[i];
		__u8 mode = c->mode | (complete ? U_COMPLETE : 0);
		__u32 val = c->operand;

		v[*sem] = c->preset;
		if (c->mode & U_REG) {
			reg = 1 + i;
			rec_movi(q, reg, c->operand);
			val = reg;
		}
		if (pl <= PL_NOOP_COMPLETE)
			rec_noop(q, 0, 0, mode, *sem, val);
		else if (pl == PL_EVSEM_LANE0)
			rec_lane0(rec_evsem(q), 0, 0, mode, *sem, val);
		else
			rec_lane1(rec_evsem(q), 0, 0, mode, *sem, 0, val);
	}
	/* events: set a clear one, clear a set one */
	for (i = 0; i < 2; i++, (*evt)++) {
		__u8 mode = (i ? U_EVT_CLR : U_EVT_SET) |
			    (complete ? U_COMPLETE : 0);

		evt_set(_metadata, fd, *evt, i);
		if (pl <= PL_NOOP_COMPLETE)
			rec_noop(q, 0, 0, mode, *evt, 0);
		else if (pl == PL_EVSEM_LANE0)
			rec_lane0(rec_evsem(q), 0, 0, mode, *evt, 0);
		else
			rec_lane1(rec_evsem(q), 0, 0, mode, *evt, 0, 0);
	}
}

TEST_F(core, update_modes_all_forms)
{
	__s32 v[256];
	struct rec_prog p = {};
	struct rec_queue *q;
	unsigned int pl, i, sem = 0, evt = 0;
	__u32 id;

	memset(v, 0, sizeof(v));
	q = rec_prog_queue(&p, NCSYNC_ENGINE_POOL);
	for (pl = 0; pl < PL_N; pl++)
		add_update_placement(_metadata, self->fd, q, pl, v, &sem, &evt);
	sems_set(_metadata, self->fd, v);
	id = submit_ok(_metadata, self->fd, &p, 0, WD_LONG);
	ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->fd, id));

	sem = 0;
	evt = 0;
	for (pl = 0; pl < PL_N; pl++) {
		for (i = 0; i < ARRAY_SIZE(upd_cases); i++, sem++)
			EXPECT_EQ(upd_cases[i].expect,
				  sem_get(_metadata, self->fd, sem))
				TH_LOG("placement %u mode 0x%x", pl,
				       upd_cases[i].mode);
		EXPECT_EQ(1, evt_get(_metadata, self->fd, evt))
			TH_LOG("placement %u event set", pl);
		EXPECT_EQ(0, evt_get(_metadata, self->fd, evt + 1))
			TH_LOG("placement %u event clear", pl);
		evt += 2;
	}
	rec_prog_free(&p);
}

/*
 * A lane-0 wait and update of the same semaphore share the value field:
 * wait >= 5, then subtract 5, atomically.
 */
TEST_F(core, lane0_wait_and_update_share_value)
{
	const int s = 70;
	struct rec_prog p = {};
	__u32 id;

	sem_set(_metadata, self->fd, s, 12);
	rec_noop(rec_prog_queue(&p, NCSYNC_ENGINE_DVE), W_GE, s, U_SUB, s, 5);
	id = submit_ok(_metadata, self->fd, &p, 0, WD_LONG);
	ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->fd, id));
	EXPECT_EQ(7, sem_get(_metadata, self->fd, s));
	rec_prog_free(&p);
}

TEST_HARNESS_MAIN
