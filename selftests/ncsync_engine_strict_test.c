// SPDX-License-Identifier: GPL-2.0
/*
 * ncsync selftests of the engines of core 0 (ncsync_engine.h): strict mode
 * and the statistics: what faults under strict and is counted without it, a
 * fault stopping the peer engines.
 *
 * Run inside the test VM:
 *   tools/vm-run build/selftests/ncsync_engine_strict_test
 */
#include "ncsync_engine.h"

/* ---------------------------------------------------------------------- */
/* Strict mode and the statistics                                          */

static void strict_case(struct __test_metadata *_metadata, int fd,
			bool strict, __u8 fault)
{
	const int e = 130, s = 131, after = 132;
	struct ncsync_stats st0, st1;
	struct ncsync_prog_status ps;
	struct rec_prog p = {};
	struct rec_queue *q;
	__u32 id, state;

	q = rec_prog_queue(&p, NCSYNC_ENGINE_ACT);
	switch (fault) {
	case NCSYNC_FAULT_EVENT_SET_WHILE_SET:
		evt_set(_metadata, fd, e, true);
		rec_noop(q, 0, 0, U_EVT_SET, e, 0);
		break;
	case NCSYNC_FAULT_EVENT_CLEAR_WHILE_CLEAR:
		rec_lane1(rec_evsem(q), 0, 0, U_COMPLETE | U_EVT_CLR, e, 0, 0);
		break;
	default:
		sem_set(_metadata, fd, s, INT_MAX);
		rec_inc(q, s);
		break;
	}
	rec_inc(q, after);
	stats_get(_metadata, fd, &st0);
	id = submit_ok(_metadata, fd, &p, strict ? NCSYNC_SUBMIT_F_STRICT : 0,
		       WD_LONG);
	state = wait_end(_metadata, fd, id);
	stats_get(_metadata, fd, &st1);
	status_get(_metadata, fd, id, &ps, NULL);
	if (strict) {
		EXPECT_EQ(NCSYNC_PROG_FAULTED, (int)state);
		EXPECT_EQ(NCSYNC_ENG_FAULTED, ps.engines[0].state);
		EXPECT_EQ(fault, ps.engines[0].fault);
		EXPECT_EQ(0, (int)ps.engines[0].pc);
		EXPECT_EQ(0, sem_get(_metadata, fd, after))
			TH_LOG("the record after the fault ran");
	} else {
		EXPECT_EQ(NCSYNC_PROG_DONE, (int)state);
		EXPECT_EQ(NCSYNC_ENG_DONE, ps.engines[0].state);
		EXPECT_EQ(NCSYNC_FAULT_NONE, ps.engines[0].fault);
		EXPECT_EQ(1, sem_get(_metadata, fd, after));
	}
	switch (fault) {
	case NCSYNC_FAULT_EVENT_SET_WHILE_SET:
		EXPECT_EQ(st0.event_set_while_set + 1, st1.event_set_while_set);
		EXPECT_EQ(1, evt_get(_metadata, fd, e));
		break;
	case NCSYNC_FAULT_EVENT_CLEAR_WHILE_CLEAR:
		EXPECT_EQ(st0.event_clear_while_clear + 1,
			  st1.event_clear_while_clear);
		EXPECT_EQ(0, evt_get(_metadata, fd, e));
		break;
	default:
		EXPECT_EQ(st0.sem_overflows + 1, st1.sem_overflows);
		if (!strict)
			EXPECT_EQ(INT_MIN, sem_get(_metadata, fd, s));
		break;
	}
	rec_prog_free(&p);
}

TEST_F(core, strict_event_set_while_set_faults)
{
	strict_case(_metadata, self->fd, true,
		    NCSYNC_FAULT_EVENT_SET_WHILE_SET);
}

TEST_F(core, nonstrict_event_set_while_set_counts)
{
	strict_case(_metadata, self->fd, false,
		    NCSYNC_FAULT_EVENT_SET_WHILE_SET);
}

TEST_F(core, strict_event_clear_while_clear_faults)
{
	strict_case(_metadata, self->fd, true,
		    NCSYNC_FAULT_EVENT_CLEAR_WHILE_CLEAR);
}

TEST_F(core, nonstrict_event_clear_while_clear_counts)
{
	strict_case(_metadata, self->fd, false,
		    NCSYNC_FAULT_EVENT_CLEAR_WHILE_CLEAR);
}

TEST_F(core, strict_sem_overflow_faults)
{
	strict_case(_metadata, self->fd, true, NCSYNC_FAULT_SEM_OVERFLOW);
}

TEST_F(core, nonstrict_sem_overflow_wraps_counts)
{
	strict_case(_metadata, self->fd, false, NCSYNC_FAULT_SEM_OVERFLOW);
}

/* Overflow by subtraction, by register operand, and through a paired P(). */
TEST_F(core, strict_sem_overflow_other_forms)
{
	struct ncsync_prog_status ps;
	struct ncsync_stats st0, st1;
	unsigned int i;

	for (i = 0; i < 3; i++) {
		struct rec_prog p = {};
		struct rec_queue *q = rec_prog_queue(&p, NCSYNC_ENGINE_SP);
		__u32 id;

		stats_get(_metadata, self->fd, &st0);
		sem_set(_metadata, self->fd, 140, INT_MIN);
		sem_set(_metadata, self->fd, 141, INT_MAX - 5);
		if (i == 0) {
			rec_noop(q, 0, 0, U_SUB, 140, 1);
		} else if (i == 1) {
			rec_movi(q, 4, 6);
			rec_lane1(rec_evsem(q), 0, 0,
				  U_REG | U_COMPLETE | U_ADD, 141, 0, 4);
		} else {
			rec_noop(q, W_LT, 140, U_DEC, 140, 0);
		}
		id = submit_ok(_metadata, self->fd, &p, NCSYNC_SUBMIT_F_STRICT,
			       WD_LONG);
		ASSERT_EQ(NCSYNC_PROG_FAULTED, wait_end(_metadata, self->fd, id))
			TH_LOG("form %u", i);
		status_get(_metadata, self->fd, id, &ps, NULL);
		EXPECT_EQ(NCSYNC_FAULT_SEM_OVERFLOW, ps.engines[0].fault);
		stats_get(_metadata, self->fd, &st1);
		EXPECT_EQ(st0.sem_overflows + 1, st1.sem_overflows);
		rec_prog_free(&p);
	}
}

/* A strict fault of one engine stops the others (fault PEER). */
TEST_F(core, strict_fault_stops_peer_engines)
{
	const int e = 142, s = 143;
	struct ncsync_prog_status ps;
	struct rec_prog p = {};
	__u32 id;

	evt_set(_metadata, self->fd, e, true);
	rec_wait_then_inc(rec_prog_queue(&p, NCSYNC_ENGINE_POOL), W_GE, s, 1,
			  s);
	rec_noop(rec_prog_queue(&p, NCSYNC_ENGINE_ACT), 0, 0, U_EVT_SET, e, 0);
	id = submit_ok(_metadata, self->fd, &p, NCSYNC_SUBMIT_F_STRICT,
		       WD_LONG);
	ASSERT_EQ(NCSYNC_PROG_FAULTED, wait_end(_metadata, self->fd, id));
	status_get(_metadata, self->fd, id, &ps, NULL);
	EXPECT_EQ(NCSYNC_ENG_CANCELLED, ps.engines[0].state);
	EXPECT_EQ(NCSYNC_FAULT_PEER, ps.engines[0].fault);
	EXPECT_EQ(NCSYNC_ENG_FAULTED, ps.engines[1].state);
	EXPECT_EQ(NCSYNC_FAULT_EVENT_SET_WHILE_SET, ps.engines[1].fault);
	rec_prog_free(&p);
}

/* Strict mode does not cover a DMA's completion update: it is counted. */
TEST_F(core, strict_dma_completion_counted_not_faulted)
{
	const int e = 144;
	struct ncsync_stats st0, st1;
	struct devmem m;
	struct rec_prog p = {};
	struct rec_queue *q;
	__u32 id;

	devmem_map(_metadata, self->fd, &m);
	evt_set(_metadata, self->fd, e, true);
	stats_get(_metadata, self->fd, &st0);
	q = rec_prog_queue(&p, NCSYNC_ENGINE_PE);
	rec_dma(q, m.src, m.dst, 64, 1000, U_COMPLETE | U_EVT_SET, e);
	rec_drain(q);
	id = submit_ok(_metadata, self->fd, &p, NCSYNC_SUBMIT_F_STRICT,
		       WD_LONG);
	ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->fd, id));
	stats_get(_metadata, self->fd, &st1);
	EXPECT_EQ(st0.event_set_while_set + 1, st1.event_set_while_set);
	munmap(m.p, m.size);
	rec_prog_free(&p);
}

TEST_HARNESS_MAIN
