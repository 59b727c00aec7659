// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * The counter lowering of AllEngineBarrier (0xD5): the prologue, the three
 * records per pass, the counter and the weights per engine set, the kept
 * events block, and the records passing ncsync_record_decode().  Also
 * ncsync_add_sync_barrier(), which emits the same form at once.
 */
#include <errno.h>
#include <string.h>

#include "ncsync.h"
#include "ncsync_record.h"
#include "tap.h"

#define R(...) ((const uint8_t [NCSYNC_RECORD_SIZE]) { __VA_ARGS__ })

static bool same(struct ncsync_stream *s, uint32_t idx, const uint8_t *exp)
{
	const uint8_t *rec = ncsync_stream_record(s, idx);
	int i;

	if (rec && !memcmp(rec, exp, NCSYNC_RECORD_SIZE))
		return true;
	printf("# record %u:", idx);
	for (i = 0; rec && i < NCSYNC_RECORD_SIZE; i++)
		printf(" %02x", rec[i]);
	printf("\n");
	return false;
}

static bool all_decode(struct ncsync_program *p)
{
	struct ncsync_insn insn;
	unsigned int e;
	uint32_t i;

	for (e = 0; e < 8; e++) {
		struct ncsync_stream *s = ncsync_program_find_stream(p, e);

		for (i = 0; s && i < ncsync_stream_count(s); i++)
			if (ncsync_record_decode(ncsync_stream_record(s, i),
						 ncsync_stream_count(s),
						 UINT64_MAX, &insn))
				return false;
	}
	return true;
}

/* A program over @mask: nop, barrier (with @ev), exit on each engine. */
static struct ncsync_program *build(unsigned int mask,
				    const struct ncsync_events *ev)
{
	struct ncsync_program *p;
	struct ncsync_stream *s;
	unsigned int e;

	ncsync_program_new(&p);
	for (e = 0; e < 8; e++)
		if (mask & (1U << e))
			ncsync_program_stream(p, e, &s);
	for (e = 0; e < 8; e++) {
		s = ncsync_program_find_stream(p, e);
		if (s)
			ncsync_add_nop(s, NULL);
	}
	ncsync_add_all_engine_barrier(p, ev);
	for (e = 0; e < 8; e++) {
		s = ncsync_program_find_stream(p, e);
		if (s)
			ncsync_add_exit(s, NULL);
	}
	return p;
}

/* The drain's arrival: its update mode and value. */
static unsigned int weight(struct ncsync_program *p, uint8_t engine,
			   uint32_t idx, uint8_t *sem)
{
	const uint8_t *r = ncsync_stream_record(
		ncsync_program_find_stream(p, engine), idx);

	*sem = r[7];
	if (r[6] == 0x13)
		return 1;
	return r[6] == 0x15 ? r[8] : 0;
}

int main(void)
{
	struct ncsync_events ev = { .upd_mode = 0x13, .upd_idx = 7 };
	struct ncsync_program *p;
	struct ncsync_stream *s;
	unsigned int e, sum;
	uint8_t sem;
	int r;

	/* five engines */
	p = build(NCSYNC_ENGINE_MASK, &ev);
	TAP_CHECK(ncsync_program_lower(p, NCSYNC_LOWER_COUNTER) == 0,
		  "lower, counter form");
	TAP_CHECK(all_decode(p), "every record passes ncsync_record_decode");
	s = ncsync_program_find_stream(p, NCSYNC_ENGINE_PE);
	TAP_CHECK(ncsync_stream_count(s) == 8, "PE: 2 + nop + 1 + 3 + exit");
	TAP_CHECK(same(s, 0, R([0] = 0xB3, [1] = 0x10, [0x0D] = 31,
			       [0x0E] = 240, [0x0F] = 1)),
		  "prologue: PollSem MIN r31 = sem 240");
	TAP_CHECK(same(s, 1, R([0] = 0xA7, [1] = 0x10, [0x0C] = 6,
			       [0x0D] = 31, [0x0E] = 31, [0x10] = 0xF8,
			       [0x11] = 0xFF, [0x12] = 0xFF, [0x13] = 0xFF)),
		  "prologue: r31 &= ~7");
	TAP_CHECK(same(s, 2, R([0] = 0xA4, [1] = 0x10)), "the user's nop");
	TAP_CHECK(same(s, 3, R([0] = 0xA4, [1] = 0x10, [6] = 0x13,
			       [7] = 7)),
		  "the 0xD5's events block kept on a NoOp before");
	TAP_CHECK(same(s, 4, R([0] = 0xA7, [1] = 0x10, [0x0C] = 2,
			       [0x0D] = 31, [0x0E] = 31, [0x10] = 8)),
		  "Mov32 ADD_IMM r31 = r31 + 8");
	TAP_CHECK(same(s, 5, R([0] = 0xA2, [1] = 0x10, [6] = 0x15,
			       [7] = 240, [8] = 2, [0x28] = 1)),
		  "Drain, then C += 2 (PE has rank 2 of 5)");
	TAP_CHECK(same(s, 6, R([0] = 0xA0, [1] = 0x10, [0x20] = 0x85,
			       [0x21] = 240, [0x24] = 31)),
		  "EventSemaphore wait C >= r31 (0x85)");
	TAP_CHECK(same(s, 7, R([0] = 0xDF, [1] = 0x10)), "exit");
	sum = 0;
	r = 1;
	for (e = 1; e <= 6; e++) {
		unsigned int w;

		if (e == NCSYNC_ENGINE_DMA)
			continue;
		w = weight(p, e, 5, &sem);
		sum += w;
		if (sem != 240 || w != (e <= 3 ? 2U : 1U))
			r = 0;
	}
	TAP_CHECK(r && sum == 8, "weights 2 2 2 1 1 on one counter, sum 8");
	TAP_CHECK(same(ncsync_program_find_stream(p, 6), 5,
		       R([0] = 0xA2, [1] = 0x10, [6] = 0x13, [7] = 240,
			 [0x28] = 1)),
		  "a weight of 1 is a plain +1 (0x13)");
	TAP_CHECK(ncsync_program_finalize(p) == 0, "finalize");
	TAP_CHECK(ncsync_program_lower(p, NCSYNC_LOWER_COUNTER) == 0 &&
		  ncsync_stream_count(s) == 8,
		  "lowering again changes nothing");
	ncsync_program_free(p);

	/* engine subsets: counter by lowest engine, weights sum to 8 */
	p = build(1U << 3 | 1U << 6, NULL);
	TAP_CHECK(ncsync_program_finalize(p) == 0 && all_decode(p),
		  "finalize lowers by default (counter)");
	TAP_CHECK(weight(p, 3, 4, &sem) == 4 && sem == 242 &&
		  weight(p, 6, 4, &sem) == 4,
		  "PE + SP: counter 240 + slot(PE) = 242, weights 4 4");
	TAP_CHECK(ncsync_stream_count(ncsync_program_find_stream(p, 3)) == 7,
		  "no NoOp for an empty events block");
	ncsync_program_free(p);
	p = build(1U << 2 | 1U << 5 | 1U << 6, NULL);
	ncsync_program_finalize(p);
	TAP_CHECK(weight(p, 2, 4, &sem) == 3 && sem == 241 &&
		  weight(p, 5, 4, &sem) == 3 && weight(p, 6, 4, &sem) == 2,
		  "Act + DVE + SP: counter 241, weights 3 3 2");
	ncsync_program_free(p);
	p = build(1U << 6, NULL);
	ncsync_program_finalize(p);
	TAP_CHECK(weight(p, 6, 4, &sem) == 8 && sem == 244,
		  "SP alone: counter 244, weight 8");
	ncsync_program_free(p);

	/* resources and refusals */
	p = build(NCSYNC_ENGINE_MASK, NULL);
	ncsync_program_set_reserved(p, 256, 0, 240, 16);
	TAP_CHECK(ncsync_program_lower(p, NCSYNC_LOWER_COUNTER) == -ENOSPC,
		  "no reserved semaphores: -ENOSPC");
	TAP_CHECK(ncsync_stream_record(ncsync_program_find_stream(p, 1),
				       1)[0] == 0xD5,
		  "... and the program is unchanged");
	ncsync_program_free(p);
	p = build(1U << 6, NULL);
	ncsync_program_set_reserved(p, 200, 4, 240, 16);
	TAP_CHECK(ncsync_program_finalize(p) == -ENOSPC,
		  "SP's counter slot outside a 4-id slice: -ENOSPC");
	ncsync_program_free(p);
	p = build(1U << 6, NULL);
	ncsync_program_set_reserved(p, 200, 5, 240, 16);
	TAP_CHECK(ncsync_program_finalize(p) == 0 &&
		  ncsync_stream_record(ncsync_program_find_stream(p, 6),
				       0)[0x0E] == 204,
		  "a moved slice: counter 200 + 4");
	ncsync_program_free(p);
	p = build(1U << 1, NULL);
	s = ncsync_program_find_stream(p, 1);
	ncsync_stream_record(s, 0)[0] = NCSYNC_OPC_DMA_BARRIER;
	TAP_CHECK(ncsync_program_lower(p, NCSYNC_LOWER_COUNTER) == -EOPNOTSUPP,
		  "another pseudo-op (0xC3): -EOPNOTSUPP");
	ncsync_stream_record(s, 0)[0] = NCSYNC_OPC_CALL;
	TAP_CHECK(ncsync_program_finalize(p) == -EOPNOTSUPP,
		  "Call (0xD3) from finalize: -EOPNOTSUPP");
	ncsync_program_free(p);
	p = build(1U << 1, NULL);
	TAP_CHECK(ncsync_program_lower(p, 7) == -EINVAL, "unknown lowering");
	ncsync_program_free(p);

	/* ncsync_add_sync_barrier: the same form, emitted at once */
	ncsync_program_new(&p);
	ncsync_program_stream(p, NCSYNC_ENGINE_POOL, &s);
	ncsync_program_stream(p, NCSYNC_ENGINE_DVE, &s);
	TAP_CHECK(ncsync_add_sync_barrier(p) == 0, "sync_barrier");
	TAP_CHECK(ncsync_stream_count(s) == 3 &&
		  same(s, 0, R([0] = 0xA7, [1] = 0x10, [0x0C] = 2,
			       [0x0D] = 31, [0x0E] = 31, [0x10] = 8)) &&
		  same(s, 1, R([0] = 0xA2, [1] = 0x10, [6] = 0x15,
			       [7] = 240, [8] = 4, [0x28] = 1)) &&
		  same(s, 2, R([0] = 0xA0, [1] = 0x10, [0x20] = 0x85,
			       [0x21] = 240, [0x24] = 31)),
		  "sync_barrier: Mov32, Drain + arrival, wait, lowered");
	ncsync_add_all_engine_barrier(p, NULL);
	TAP_CHECK(ncsync_program_finalize(p) == 0 && all_decode(p) &&
		  ncsync_stream_count(s) == 8 &&
		  ncsync_stream_record(s, 0)[0] == NCSYNC_OPC_POLL_SEM &&
		  ncsync_stream_record(s, 7)[0x21] == 240,
		  "finalize adds the prologue; a 0xD5 shares the counter");
	ncsync_program_free(p);
	ncsync_program_new(&p);
	ncsync_program_stream(p, NCSYNC_ENGINE_POOL, &s);
	ncsync_add_sync_barrier(p);
	ncsync_program_stream(p, NCSYNC_ENGINE_SP, &s);
	TAP_CHECK(ncsync_add_sync_barrier(p) == -EINVAL,
		  "sync_barrier after a new stream: -EINVAL");
	TAP_CHECK(ncsync_program_finalize(p) == -EINVAL,
		  "... and finalize: the weights no longer sum to 8");
	ncsync_program_free(p);
	return tap_done();
}
