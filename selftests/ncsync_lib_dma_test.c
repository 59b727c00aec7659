// SPDX-License-Identifier: GPL-2.0
/*
 * ncsync selftests of libncsync against the driver (ncsync_lib.h): DMA and
 * Drain, a DMA before each barrier, the copies of a cancelled program.
 *
 * Run inside the test VM:
 *   tools/vm-run build/selftests/ncsync_lib_dma_test
 */
#include "ncsync_lib.h"

/* ---------------------------------------------------------------------- */
/* DMA and Drain                                                           */

struct devmem {
	uint8_t *p;
	size_t size;
};

static void devmem_map(struct __test_metadata *_metadata,
		       struct ncsync_dev *dev, const struct ncsync_info *info,
		       struct devmem *m)
{
	m->size = info->devmem_size;
	m->p = mmap(NULL, m->size, PROT_READ | PROT_WRITE, MAP_SHARED,
		    ncsync_fd(dev), info->devmem_offset);
	ASSERT_NE(MAP_FAILED, m->p) TH_LOG("mmap devmem: %s", strerror(errno));
}

/*
 * Act copies LEN bytes with a latency, the copy's landing increments D,
 * then drains: its Drain's update (S++) comes only after the copy landed.
 * PE waits for S and checks D == 1 (or halts).  Userspace, woken by S,
 * finds the bytes already there.  A second copy lands with an event set.
 */
/*
 * Build dma_and_drain's streams: Act copies @src to @dst (D++ on landing),
 * drains with S++, copies @src to @dst2 (event E on landing) and drains;
 * PE waits for S and checks D == 1, or halts.
 */
static void build_dma_and_drain(struct __test_metadata *_metadata,
				struct ncsync_program *prog, uint64_t src,
				uint64_t dst, uint64_t dst2, uint32_t len,
				uint32_t lat_us, int s, int d, int e)
{
	struct ncsync_stream *act, *pe;
	struct ncsync_events ev;
	int fail;

	act = stream(_metadata, prog, NCSYNC_ENGINE_ACT);
	pe = stream(_metadata, prog, NCSYNC_ENGINE_PE);

	ADD(ncsync_add_dma(act, src, dst, len, lat_us,
			   NCSYNC_UPD_COMPLETE | NCSYNC_UPD_SEM_INC, d, NULL));
	memset(&ev, 0, sizeof(ev));
	ev.upd_mode = NCSYNC_UPD_COMPLETE | NCSYNC_UPD_SEM_INC;
	ev.upd_idx = s;
	ADD(ncsync_add_drain(act, &ev));
	ADD(ncsync_add_dma(act, src, dst2, len, lat_us,
			   NCSYNC_UPD_COMPLETE | NCSYNC_UPD_EVT_SET, e, NULL));
	ADD(ncsync_add_drain(act, NULL));

	fail = ncsync_label_new(prog);
	ADD(fail);
	ADD(ncsync_add_semaphore_wait_ge(pe, s, 1));
	ADD(ncsync_add_poll_sem(pe, NCSYNC_POLL_MIN, 1, d, 1, NULL));
	ADD(ncsync_add_branch_imm(pe, NCSYNC_BR_NE, NCSYNC_DTYPE_S32, 1, 1,
				  fail, NULL));
	ADD(ncsync_add_exit(pe, NULL));
	ADD(ncsync_label_bind(pe, fail));
	ADD(ncsync_add_halt(pe, NULL));
}

TEST_F(core, dma_and_drain)
{
	const uint32_t len = 4096, lat_us = 100000;
	struct ncsync_program *prog = prog_new(_metadata);
	struct ncsync_prog_status st;
	struct timespec dl;
	struct devmem m;
	uint64_t src, dst, dst2;
	int s, d, e;
	uint32_t i, id;

	devmem_map(_metadata, self->dev, self->info, &m);
	ASSERT_LE(4 * len, m.size);
	src = 0;
	dst = m.size / 2;
	dst2 = m.size / 2 + 2 * len;
	for (i = 0; i < len; i++)
		m.p[src + i] = (uint8_t)(i * 7 + 3);
	memset(m.p + dst, 0x11, len);
	memset(m.p + dst2, 0x22, len);

	s = ncsync_sem_alloc(prog, 1);
	d = ncsync_sem_alloc(prog, 1);
	e = ncsync_event_alloc(prog, 1);
	ADD(s);
	ADD(d);
	ADD(e);
	build_dma_and_drain(_metadata, prog, src, dst, dst2, len, lat_us,
			    s, d, e);

	id = submit(_metadata, self->dev, prog, 0, WD_LONG);
	dl = deadline_ms(LONG_MS);
	ASSERT_EQ(0, ncsync_wait_sem(self->dev, s, NCSYNC_WAIT_SEM_GE, 1, &dl,
				     NULL));
	EXPECT_EQ(0, memcmp(m.p + src, m.p + dst, len));
	EXPECT_EQ(1, ncsync_sem_read(self->dev, d));

	ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->dev, id));
	EXPECT_TRUE(ncsync_event_read(self->dev, e));
	EXPECT_EQ(0, memcmp(m.p + src, m.p + dst2, len));
	status_get(_metadata, self->dev, id, &st, NULL);
	for (i = 0; i < st.nengines; i++) {
		EXPECT_EQ(NCSYNC_ENG_DONE, st.engines[i].state);
		EXPECT_EQ(0U, st.engines[i].dma_outstanding);
	}
	ncsync_program_free(prog);
	munmap(m.p, m.size);
}

/*
 * A barrier leads with a Drain ("drain, then post"): no engine passes it
 * while a peer's copies are in flight.  Act issues a slow copy before each
 * barrier, without draining; after the barrier every engine must see the
 * copy's completion (D == pass + 1), or halt.  For the sync barrier and
 * both lowerings.
 */
static void dma_then_barrier(struct __test_metadata *_metadata,
			     struct ncsync_dev *dev,
			     const struct ncsync_info *info,
			     enum barrier_kind kind)
{
	const unsigned int iters = 5, lat_us = 30000, len = 256;
	struct ncsync_program *prog = prog_new(_metadata);
	struct ncsync_stream *q[NCSYNC_NUM_ENGINES];
	int loop[NCSYNC_NUM_ENGINES], fail[NCSYNC_NUM_ENGINES];
	struct ncsync_prog_status st;
	unsigned int k;
	int d, bad, state, ret;
	uint32_t id;

	d = ncsync_sem_alloc(prog, 1);
	ADD(d);
	bad = ncsync_sem_alloc(prog, 1);
	ADD(bad);
	for (k = 0; k < NCSYNC_NUM_ENGINES; k++) {
		q[k] = stream(_metadata, prog, engine_ids[k]);
		loop[k] = ncsync_label_new(prog);
		ADD(loop[k]);
		fail[k] = ncsync_label_new(prog);
		ADD(fail[k]);
		ADD(ncsync_add_mov32_imm(q[k], 1, 0, NULL));
		ADD(ncsync_label_bind(q[k], loop[k]));
		if (engine_ids[k] == NCSYNC_ENGINE_ACT)
			ADD(ncsync_add_dma(q[k], 0, info->devmem_size / 2, len,
					   lat_us,
					   NCSYNC_UPD_COMPLETE |
					   NCSYNC_UPD_SEM_INC, d, NULL));
	}
	ret = kind == BK_SYNC ? ncsync_add_sync_barrier(prog) :
				ncsync_add_all_engine_barrier(prog, NULL);
	ASSERT_EQ(0, ret);
	for (k = 0; k < NCSYNC_NUM_ENGINES; k++) {
		ADD(ncsync_add_poll_sem(q[k], NCSYNC_POLL_MIN, 2, d, 1, NULL));
		ADD(ncsync_add_mov32(q[k], NCSYNC_ALU_ADD_IMM, 1, 1, 1, NULL));
		ADD(ncsync_add_branch_reg(q[k], NCSYNC_BR_NE, NCSYNC_DTYPE_S32,
					  2, 1, fail[k], NULL));
		ADD(ncsync_add_branch_imm(q[k], NCSYNC_BR_LT, NCSYNC_DTYPE_U32,
					  1, iters, loop[k], NULL));
		ADD(ncsync_add_exit(q[k], NULL));
		ADD(ncsync_label_bind(q[k], fail[k]));
		ADD(ncsync_add_semaphore_inc(q[k], bad));
		ADD(ncsync_add_halt(q[k], NULL));
	}
	if (kind == BK_EVENTS)
		ASSERT_EQ(0, ncsync_program_lower(prog, NCSYNC_LOWER_EVENTS));
	id = submit(_metadata, dev, prog, 0, WD_LONG);
	state = wait_end(_metadata, dev, id);
	if (state != NCSYNC_PROG_DONE) {
		status_get(_metadata, dev, id, &st, NULL);
		status_log(_metadata, &st);
		TH_LOG("  copies landed %d, failed checks %d",
		       ncsync_sem_read(dev, d), ncsync_sem_read(dev, bad));
	}
	ASSERT_EQ(NCSYNC_PROG_DONE, state);
	EXPECT_EQ((int32_t)iters, ncsync_sem_read(dev, d));
	EXPECT_EQ(0, ncsync_sem_read(dev, bad));
	ncsync_program_free(prog);
}

TEST_F(core, dma_then_sync_barrier)
{
	dma_then_barrier(_metadata, self->dev, self->info, BK_SYNC);
}

TEST_F(core, dma_then_counter_barrier)
{
	dma_then_barrier(_metadata, self->dev, self->info, BK_COUNTER);
}

TEST_F(core, dma_then_event_barrier)
{
	dma_then_barrier(_metadata, self->dev, self->info, BK_EVENTS);
}

/*
 * The copies of a cancelled program are dropped, bytes and completion,
 * when their landing time comes.
 */
TEST_F(core, dma_of_cancelled_program_dropped)
{
	const uint32_t len = 1024, lat_us = 300000;
	struct ncsync_program *prog = prog_new(_metadata);
	struct ncsync_prog_status st;
	struct ncsync_stream *q;
	struct devmem m;
	uint64_t dst;
	uint32_t id, i;

	devmem_map(_metadata, self->dev, self->info, &m);
	dst = m.size - len;
	for (i = 0; i < len; i++)
		m.p[i] = (uint8_t)(i + 1);
	memset(m.p + dst, 0x33, len);
	q = stream(_metadata, prog, NCSYNC_ENGINE_SP);
	ADD(ncsync_add_dma(q, 0, dst, len, lat_us,
			   NCSYNC_UPD_COMPLETE | NCSYNC_UPD_SEM_INC, 95, NULL));
	ADD(ncsync_add_event_wait(q, 96, NCSYNC_WAIT_EVT_SET));
	id = submit(_metadata, self->dev, prog, 0, WD_LONG);
	wait_blocked(_metadata, self->dev, id, NCSYNC_ENGINE_SP, &st);
	ASSERT_EQ(0, ncsync_program_cancel(self->dev, id));
	ASSERT_EQ(NCSYNC_PROG_CANCELLED, wait_end(_metadata, self->dev, id));
	sleep_ms(2 * lat_us / 1000);
	EXPECT_EQ(0, ncsync_sem_read(self->dev, 95));
	for (i = 0; i < len; i++)
		if (m.p[dst + i] != 0x33)
			break;
	EXPECT_EQ(len, i) TH_LOG("a dropped copy wrote its bytes");
	ncsync_program_free(prog);
	munmap(m.p, m.size);
}

TEST_HARNESS_MAIN
