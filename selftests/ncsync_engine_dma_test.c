// SPDX-License-Identifier: GPL-2.0
/*
 * ncsync selftests of the engines of core 0 (ncsync_engine.h): DMA and
 * Drain: a peer reads stale data without a Drain and new data with one,
 * several copies, a wait and a completion on one semaphore, copies dropped
 * by cancel and reset; the events block of every opcode; registers start at
 * zero.
 *
 * Run inside the test VM:
 *   tools/vm-run build/selftests/ncsync_engine_dma_test
 */
#include "ncsync_engine.h"

/* ---------------------------------------------------------------------- */
/* DMA and Drain                                                           */

static void devmem_fill(struct devmem *m, __u8 seed)
{
	__u32 i;

	for (i = 0; i < m->len; i++)
		m->p[m->src + i] = (__u8)(seed + i * 7);
	memset(m->p + m->dst, 0x11, m->len);
}

static bool devmem_is_new(const struct devmem *m, const __u8 *buf)
{
	return !memcmp(buf, m->p + m->src, m->len);
}

static bool devmem_is_stale(const struct devmem *m, const __u8 *buf)
{
	__u32 i;

	for (i = 0; i < m->len; i++)
		if (buf[i] != 0x11)
			return false;
	return true;
}

#define DMA_LAT_US	200000

/*
 * Without Drain, the engine's increment after a DMA does not wait for the
 * copy: a peer that waits for the increment and reads at once sees the old
 * bytes.  The completion update (+1) fires when the copy lands, after the
 * bytes.  A read is conclusive only if it ended before the latency passed
 * since the submission; the experiment is retried otherwise.
 */
TEST_F(core, dma_without_drain_peer_reads_stale)
{
	const int s = 120, d = 121;
	static __u8 buf[4096];
	bool conclusive = false;
	struct devmem m;
	unsigned int attempt;

	devmem_map(_metadata, self->fd, &m);
	for (attempt = 0; attempt < 5 && !conclusive; attempt++) {
		struct rec_prog p = {};
		struct rec_queue *q;
		__s64 t0, t1;
		__s32 dv;
		__u32 id;

		core_reset(_metadata, self->fd);
		devmem_fill(&m, attempt * 31 + 1);
		q = rec_prog_queue(&p, NCSYNC_ENGINE_ACT);
		rec_dma(q, m.src, m.dst, m.len, DMA_LAT_US,
			U_COMPLETE | U_INC, d);
		rec_inc(q, s);
		t0 = now_ns();
		id = submit_ok(_metadata, self->fd, &p, 0, WD_LONG);
		ASSERT_EQ(0, sem_wait_ioctl(self->fd, s, W_GE, 1, LONG_MS));
		dv = sem_get(_metadata, self->fd, d);
		memcpy(buf, m.p + m.dst, m.len);
		t1 = now_ns();
		if (t1 - t0 < DMA_LAT_US * 1000LL) {
			conclusive = true;
			EXPECT_EQ(0, dv);
			EXPECT_TRUE(devmem_is_stale(&m, buf))
				TH_LOG("the copy landed before its latency");
		}
		/* the completion update fires once the bytes have landed */
		ASSERT_EQ(0, sem_wait_ioctl(self->fd, d, W_GE, 1, LONG_MS));
		memcpy(buf, m.p + m.dst, m.len);
		EXPECT_TRUE(devmem_is_new(&m, buf));
		EXPECT_LE(DMA_LAT_US * 1000LL - NSEC_PER_MSEC, now_ns() - t0);
		ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->fd, id));
		sleep_ms(20);
		EXPECT_EQ(1, sem_get(_metadata, self->fd, d));
		EXPECT_EQ(1, sem_get(_metadata, self->fd, s));
		rec_prog_free(&p);
	}
	munmap(m.p, m.size);
	if (!conclusive)
		SKIP(return, "never read within %d us of the submission",
		     DMA_LAT_US);
}

/* With Drain before the increment, the peer always sees the new bytes. */
TEST_F(core, dma_with_drain_peer_reads_new)
{
	const int s = 122, e = 123;
	static __u8 buf[4096];
	struct ncsync_prog_status ps;
	struct devmem m;
	unsigned int attempt;

	devmem_map(_metadata, self->fd, &m);
	for (attempt = 0; attempt < 3; attempt++) {
		struct rec_prog p = {};
		struct rec_queue *q;
		__s64 t0;
		__u32 id;

		core_reset(_metadata, self->fd);
		devmem_fill(&m, attempt * 17 + 3);
		q = rec_prog_queue(&p, NCSYNC_ENGINE_DVE);
		rec_dma(q, m.src, m.dst, m.len, DMA_LAT_US,
			U_COMPLETE | U_EVT_SET, e);
		rec_drain(q);
		rec_inc(q, s);
		t0 = now_ns();
		id = submit_ok(_metadata, self->fd, &p, 0, WD_LONG);
		/* while it drains, the status says so */
		status_get(_metadata, self->fd, id, &ps, NULL);
		if (ps.engines[0].state == NCSYNC_ENG_BLOCKED) {
			EXPECT_EQ(NCSYNC_BLOCK_DRAIN, ps.engines[0].wait_kind);
			EXPECT_EQ(1, (int)ps.engines[0].dma_outstanding);
			EXPECT_EQ(1, (int)ps.engines[0].pc);
		}
		ASSERT_EQ(0, sem_wait_ioctl(self->fd, s, W_GE, 1, LONG_MS));
		memcpy(buf, m.p + m.dst, m.len);
		EXPECT_TRUE(devmem_is_new(&m, buf))
			TH_LOG("Drain passed before the copy landed");
		EXPECT_EQ(1, evt_get(_metadata, self->fd, e));
		EXPECT_LE(DMA_LAT_US * 1000LL - NSEC_PER_MSEC, now_ns() - t0);
		ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->fd, id));
		status_get(_metadata, self->fd, id, &ps, NULL);
		EXPECT_EQ(0, (int)ps.engines[0].dma_outstanding);
		rec_prog_free(&p);
	}
	munmap(m.p, m.size);
}

/* Copies land in issue order; Drain waits for all of them. */
TEST_F(core, dma_several_copies_drain_all)
{
	const int d = 124, s = 125;
	struct devmem m;
	struct rec_prog p = {};
	struct rec_queue *q;
	unsigned int i;
	__u32 id;

	devmem_map(_metadata, self->fd, &m);
	devmem_fill(&m, 5);
	q = rec_prog_queue(&p, NCSYNC_ENGINE_POOL);
	/* four quarters, the first with the longest latency */
	for (i = 0; i < 4; i++)
		rec_dma(q, m.src + i * m.len / 4, m.dst + i * m.len / 4,
			m.len / 4, (4 - i) * 30000, U_INC, d);
	rec_drain(q);
	rec_inc(q, s);
	id = submit_ok(_metadata, self->fd, &p, 0, WD_LONG);
	ASSERT_EQ(0, sem_wait_ioctl(self->fd, s, W_GE, 1, LONG_MS));
	EXPECT_EQ(4, sem_get(_metadata, self->fd, d));
	EXPECT_TRUE(devmem_is_new(&m, m.p + m.dst));
	ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->fd, id));
	munmap(m.p, m.size);
	rec_prog_free(&p);
}

/*
 * A DMA whose events block waits on the semaphore its completion update
 * increments.  The update is the copy's completion: it must be applied
 * once, when the copy lands, not also as the wait's paired test-and-modify.
 */
TEST_F(core, dma_wait_and_completion_on_same_sem)
{
	const int d = 126;
	static __u8 buf[4096];
	struct devmem m;
	struct rec_prog p = {};
	struct rec_queue *q;
	__u8 *r;
	__u32 id;

	devmem_map(_metadata, self->fd, &m);
	devmem_fill(&m, 9);
	q = rec_prog_queue(&p, NCSYNC_ENGINE_PE);
	r = rec_dma(q, m.src, m.dst, m.len, 100000, U_COMPLETE | U_INC, d);
	/* wait d >= 0 (the lane-0 value is 0) */
	r[NCSYNC_REC_EV_WAIT_MODE] = W_GE;
	r[NCSYNC_REC_EV_WAIT_IDX] = d;
	rec_drain(q);
	id = submit_ok(_metadata, self->fd, &p, 0, WD_LONG);
	ASSERT_EQ(0, sem_wait_ioctl(self->fd, d, W_GE, 1, LONG_MS));
	memcpy(buf, m.p + m.dst, m.len);
	EXPECT_TRUE(devmem_is_new(&m, buf))
		TH_LOG("the completion update came before the copy landed");
	ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->fd, id));
	EXPECT_EQ(1, sem_get(_metadata, self->fd, d))
		TH_LOG("completion update applied more than once");
	munmap(m.p, m.size);
	rec_prog_free(&p);
}

/* The copies of a cancelled program are dropped: no bytes, no update. */
TEST_F(core, dma_dropped_when_program_cancelled)
{
	const int d = 127, s = 128;
	struct devmem m;
	struct rec_prog p = {};
	struct rec_queue *q;
	__u32 id;

	devmem_map(_metadata, self->fd, &m);
	devmem_fill(&m, 11);
	q = rec_prog_queue(&p, NCSYNC_ENGINE_SP);
	rec_dma(q, m.src, m.dst, m.len, 300000, U_COMPLETE | U_INC, d);
	rec_wait_then_inc(q, W_GE, s, 1, s);
	id = submit_ok(_metadata, self->fd, &p, 0, WD_LONG);
	wait_blocked(_metadata, self->fd, id, 0, NULL);
	ASSERT_EQ(0, cancel(self->fd, id, 0));
	ASSERT_EQ(NCSYNC_PROG_CANCELLED, wait_end(_metadata, self->fd, id));
	sleep_ms(600);
	EXPECT_EQ(0, sem_get(_metadata, self->fd, d));
	EXPECT_TRUE(devmem_is_stale(&m, m.p + m.dst));
	munmap(m.p, m.size);
	rec_prog_free(&p);
}

/*
 * A program that ended without a Drain leaves its copy in flight; a reset
 * clears the banks, and the completion update of a copy issued before the
 * reset must not change them afterwards.
 */
TEST_F(core, reset_drops_in_flight_dma_completion)
{
	const int d = 129;
	struct devmem m;
	struct rec_prog p = {};
	__u32 id;

	devmem_map(_metadata, self->fd, &m);
	devmem_fill(&m, 13);
	rec_dma(rec_prog_queue(&p, NCSYNC_ENGINE_ACT), m.src, m.dst, m.len,
		300000, U_COMPLETE | U_INC, d);
	id = submit_ok(_metadata, self->fd, &p, 0, WD_LONG);
	ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->fd, id));
	core_reset(_metadata, self->fd);
	sleep_ms(600);
	EXPECT_EQ(0, sem_get(_metadata, self->fd, d))
		TH_LOG("a copy issued before the reset updated the bank after it");
	munmap(m.p, m.size);
	rec_prog_free(&p);
}

/*
 * Add to @q one record of every opcode, record i waiting for sem @g + i >= 1
 * and updating @x, @y or the next of the semaphores from @base.  Return:
 * how many of those from @base it updates.
 */
static int add_events_block_records(struct rec_queue *q,
				    const struct devmem *m, int g, int x,
				    int y, int base)
{
	int n = 0;
	__u8 *r;

	/* record i waits for sem g + i >= 1 (the shared value is 1) */
	r = rec_movi(q, 1, 9);
	rec_lane0(r, W_GE, g + q->n - 1, U_INC, base + n++, 1);
	r = rec_poll(q, NCSYNC_POLL_SUM, 2, y, 1);
	rec_lane0(r, W_GE, g + q->n - 1, U_INC, y, 1);
	r = rec_br(q, NCSYNC_BR_EQ, NCSYNC_DTYPE_U32, 1, 0, 9, q->n + 1);
	rec_lane0(r, W_GE, g + q->n - 1, U_INC, base + n++, 1);
	r = rec_gr_range(q, x, x);
	rec_lane0(r, W_GE, g + q->n - 1, U_INC, x, 1);
	r = rec_drain(q);
	rec_lane0(r, W_GE, g + q->n - 1, U_INC, base + n++, 1);
	r = rec_dma(q, m->src, m->dst, 4, 0, 0, 0);
	rec_lane0(r, W_GE, g + q->n - 1, U_INC, base + n++, 1);
	r = rec_noop(q, 0, 0, 0, 0, 0);
	rec_lane0(r, W_GE, g + q->n - 1, U_INC, base + n++, 1);
	r = rec_evsem(q);
	rec_lane0(r, W_GE, g + q->n - 1, U_COMPLETE | U_INC, base + n++, 1);
	r = rec_halt(q);
	rec_lane0(r, W_GE, g + q->n - 1, U_INC, base + n++, 1);
	return n;
}

/*
 * Every opcode carries the events block (ENC 8, SYNC, records.rst): a lane-0
 * wait that must pass first, and an update applied after the op's effect.
 * GroupResetSemaphores zeroes a semaphore its own update then increments;
 * PollSem reads a semaphore its own update then increments.
 */
TEST_F(core, events_block_on_every_opcode)
{
	const int g = 60, x = 41, y = 42, base = 50;
	struct ncsync_prog_status ps;
	struct devmem m;
	struct rec_prog p = {};
	struct rec_queue *q;
	unsigned int i;
	__u32 id;
	int n;

	devmem_map(_metadata, self->fd, &m);
	sem_set(_metadata, self->fd, x, 5);
	sem_set(_metadata, self->fd, y, 7);
	q = rec_prog_queue(&p, NCSYNC_ENGINE_ACT);
	n = add_events_block_records(q, &m, g, x, y, base);
	id = submit_ok(_metadata, self->fd, &p, 0, WD_LONG);

	for (i = 0; i < q->n; i++) {
		for (;;) {
			wait_blocked(_metadata, self->fd, id, 0, &ps);
			if (ps.engines[0].pc == i)
				break;
			usleep(1000);
		}
		EXPECT_EQ(W_GE, ps.engines[0].wait_mode);
		EXPECT_EQ(g + (int)i, ps.engines[0].wait_index);
		EXPECT_EQ(0, ps.engines[0].wait_lane);
		EXPECT_EQ(1, ps.engines[0].wait_threshold);
		sem_set(_metadata, self->fd, g + i, 1);
	}
	ASSERT_EQ(NCSYNC_PROG_HALTED, wait_end(_metadata, self->fd, id));
	/* no Drain: the DMA's completion update may land after the end */
	ASSERT_EQ(0, sem_wait_ioctl(self->fd, base + 3, W_GE, 1, LONG_MS));
	for (i = 0; i < (unsigned int)n; i++)
		EXPECT_EQ(1, sem_get(_metadata, self->fd, base + i))
			TH_LOG("update %u", i);
	EXPECT_EQ(1, sem_get(_metadata, self->fd, x));	/* zeroed, then +1 */
	EXPECT_EQ(8, sem_get(_metadata, self->fd, y));
	munmap(m.p, m.size);
	rec_prog_free(&p);

	/* the register PollSem wrote holds the value before its own +1 */
	q = rec_prog_queue(&p, NCSYNC_ENGINE_ACT);
	rec_noop(q, 0, 0, U_WRITE, y, 7);
	rec_lane0(rec_poll(q, NCSYNC_POLL_SUM, 2, y, 1), 0, 0, U_INC, y, 0);
	rec_store_reg(q, 43, 2);
	id = submit_ok(_metadata, self->fd, &p, 0, WD_LONG);
	ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->fd, id));
	EXPECT_EQ(7, sem_get(_metadata, self->fd, 43));
	EXPECT_EQ(8, sem_get(_metadata, self->fd, y));
	rec_prog_free(&p);
}

/* Registers are zero when a queue starts, in every program. */
TEST_F(core, registers_start_at_zero)
{
	struct rec_prog p = {};
	unsigned int round, r;
	__u32 id;

	for (round = 0; round < 2; round++) {
		struct rec_queue *q = rec_prog_queue(&p, NCSYNC_ENGINE_PE);

		for (r = 0; r < NCSYNC_NUM_REGS; r++)
			rec_store_reg(q, r, r);
		for (r = 0; r < NCSYNC_NUM_REGS; r++)
			rec_movi(q, r, 0xDEAD0000 + r);
		for (r = 0; r < NCSYNC_NUM_SEMS; r++)
			sem_set(_metadata, self->fd, r, -1);
		id = submit_ok(_metadata, self->fd, &p, 0, WD_LONG);
		ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->fd, id));
		for (r = 0; r < NCSYNC_NUM_REGS; r++)
			EXPECT_EQ(0, sem_get(_metadata, self->fd, r))
				TH_LOG("program %u register r%u", round, r);
		rec_prog_free(&p);
	}
}

TEST_HARNESS_MAIN
