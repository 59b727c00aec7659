// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * The event lowering of AllEngineBarrier (0xD5): bits per engine and
 * phase in the reserved event slice, the phase switch, set (0x11) on the
 * Drain, peer waits (0x06) two per record, the clear of the previous
 * phase's bit after the waits, the prologue and the epilogues; every
 * record passes ncsync_record_decode().
 */
#include <errno.h>
#include <string.h>

#include "ncsync.h"
#include "ncsync_record.h"
#include "tap.h"

#define R(...) ((const uint8_t [NCSYNC_RECORD_SIZE]) { __VA_ARGS__ })

static struct ncsync_stream *s;

static bool same(uint32_t idx, const uint8_t *exp)
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
		struct ncsync_stream *t = ncsync_program_find_stream(p, e);

		for (i = 0; t && i < ncsync_stream_count(t); i++)
			if (ncsync_record_decode(ncsync_stream_record(t, i),
						 ncsync_stream_count(t),
						 UINT64_MAX, &insn))
				return false;
	}
	return true;
}

/* A branch on r30 == @val to @target. */
#define BR_PHASE(val, target)						\
	R([0] = 0xA9, [1] = 0x10, [0x0C] = 3, [0x0D] = 1, [0x0E] = 3,	\
	  [0x10] = (val), [0x20] = 30, [0x30] = (target))
#define BR(target) R([0] = 0xA9, [1] = 0x10, [0x30] = (target))
#define SET_DRAIN(bit)							\
	R([0] = 0xA2, [1] = 0x10, [6] = 0x11, [7] = (bit), [0x28] = 1)
#define WAIT2(mode, a, b)						\
	R([0] = 0xA0, [1] = 0x10, [4] = (mode), [5] = (a),		\
	  [0x20] = (mode), [0x21] = (b))
#define WAIT2_CLEAR(mode, a, b, own)					\
	R([0] = 0xA0, [1] = 0x10, [4] = (mode), [5] = (a),		\
	  [0x20] = (mode), [0x21] = (b), [0x22] = 0x12, [0x23] = (own))
#define PHASE(n) R([0] = 0xA7, [1] = 0x10, [0x0D] = 30, [0x10] = (n))

int main(void)
{
	struct ncsync_program *p;
	struct ncsync_stream *t;
	unsigned int e;
	bool ok;

	ncsync_program_new(&p);
	for (e = 1; e <= 6; e++)
		if (e != NCSYNC_ENGINE_DMA)
			ncsync_program_stream(p, e, &t);
	ncsync_add_all_engine_barrier(p, NULL);
	for (e = 1; e <= 6; e++) {
		t = ncsync_program_find_stream(p, e);
		if (t)
			ncsync_add_exit(t, NULL);
	}
	TAP_CHECK(ncsync_program_lower(p, NCSYNC_LOWER_EVENTS) == 0,
		  "lower, event form");
	TAP_CHECK(ncsync_program_finalize(p) == 0, "finalize");
	TAP_CHECK(all_decode(p), "every record passes ncsync_record_decode");

	/* PE: slot 2, bits 246 247 248; peers' bits 240.. 243.. 249.. 252.. */
	s = ncsync_program_find_stream(p, NCSYNC_ENGINE_PE);
	TAP_CHECK(same(0, R([0] = 0xA0, [1] = 0x10, [0x22] = 0x11,
			    [0x23] = 248)),
		  "prologue: set bit(PE, 2), a pass -1");
	TAP_CHECK(same(1, BR_PHASE(1, 8)) && same(2, BR_PHASE(2, 13)),
		  "phase switch on r30");
	TAP_CHECK(same(3, SET_DRAIN(246)) &&
		  same(4, WAIT2(0x06, 240, 243)) &&
		  same(5, WAIT2_CLEAR(0x06, 249, 252, 248)) &&
		  same(6, PHASE(1)) && same(7, BR(17)),
		  "phase 0: drain + set, wait 4 peers, clear bit 2, r30 = 1");
	TAP_CHECK(same(8, SET_DRAIN(247)) &&
		  same(9, WAIT2(0x06, 241, 244)) &&
		  same(10, WAIT2_CLEAR(0x06, 250, 253, 246)) &&
		  same(11, PHASE(2)) && same(12, BR(17)),
		  "phase 1: set bit 1, clear bit 0, r30 = 2");
	TAP_CHECK(same(13, SET_DRAIN(248)) &&
		  same(14, WAIT2(0x06, 242, 245)) &&
		  same(15, WAIT2_CLEAR(0x06, 251, 254, 247)) &&
		  same(16, PHASE(0)),
		  "phase 2: set bit 2, clear bit 1, r30 = 0");
	TAP_CHECK(same(17, BR_PHASE(1, 22)) && same(18, BR_PHASE(2, 25)),
		  "epilogue before the Exit: phase switch");
	TAP_CHECK(same(19, WAIT2(0x0E, 241, 244)) &&
		  same(20, WAIT2_CLEAR(0x0E, 250, 253, 248)) &&
		  same(21, BR(27)),
		  "next phase 0: peers' bit 1 clear, then clear own bit 2");
	TAP_CHECK(same(22, WAIT2(0x0E, 242, 245)) &&
		  same(23, WAIT2_CLEAR(0x0E, 251, 254, 246)) &&
		  same(24, BR(27)),
		  "next phase 1: peers' bit 2 clear, then clear own bit 0");
	TAP_CHECK(same(25, WAIT2(0x0E, 240, 243)) &&
		  same(26, WAIT2_CLEAR(0x0E, 249, 252, 247)),
		  "next phase 2: peers' bit 0 clear, then clear own bit 1");
	TAP_CHECK(same(27, R([0] = 0xDF, [1] = 0x10)), "the user's Exit");
	TAP_CHECK(ncsync_stream_count(s) == 28 + 10 + 1 &&
		  same(38, R([0] = 0xDF, [1] = 0x10)),
		  "an epilogue and an Exit at the end of the stream");
	ncsync_program_free(p);

	/* two engines: one peer, a wait record with one wait */
	ncsync_program_new(&p);
	ncsync_program_stream(p, NCSYNC_ENGINE_POOL, &t);
	ncsync_program_stream(p, NCSYNC_ENGINE_SP, &s);
	ncsync_add_all_engine_barrier(p, NULL);
	ncsync_program_lower(p, NCSYNC_LOWER_EVENTS);
	TAP_CHECK(ncsync_program_finalize(p) == 0 && all_decode(p),
		  "Pool + SP: finalize");
	TAP_CHECK(same(4, R([0] = 0xA0, [1] = 0x10, [4] = 0x06, [5] = 240,
			    [0x22] = 0x12, [0x23] = 254)),
		  "SP phase 0: wait bit(Pool, 0), clear bit(SP, 2)");
	ncsync_program_free(p);

	/* one engine: no waits, the clear alone */
	ncsync_program_new(&p);
	ncsync_program_stream(p, NCSYNC_ENGINE_ACT, &s);
	ncsync_add_all_engine_barrier(p, NULL);
	ncsync_program_lower(p, NCSYNC_LOWER_EVENTS);
	ok = ncsync_program_finalize(p) == 0 && all_decode(p);
	TAP_CHECK(ok && same(4, R([0] = 0xA0, [1] = 0x10, [0x22] = 0x12,
				  [0x23] = 245)),
		  "Act alone: no peer waits, clear bit(Act, 2)");
	ncsync_program_free(p);

	/* the slice must hold 3 bits per engine, keyed by engine */
	ncsync_program_new(&p);
	ncsync_program_stream(p, NCSYNC_ENGINE_SP, &s);
	ncsync_add_all_engine_barrier(p, NULL);
	ncsync_program_set_reserved(p, 240, 16, 240, 14);
	TAP_CHECK(ncsync_program_lower(p, NCSYNC_LOWER_EVENTS) == -ENOSPC,
		  "SP's bits past a 14-event slice: -ENOSPC");
	ncsync_program_free(p);

	/*
	 * The 0xD5's events block: its wait on a NoOp before the arrival (the
	 * first Drain), its update on a NoOp after the rendezvous (the last
	 * phase update of the pass), before the epilogue.
	 */
	ncsync_program_new(&p);
	ncsync_program_stream(p, NCSYNC_ENGINE_POOL, &t);
	ncsync_program_stream(p, NCSYNC_ENGINE_PE, &s);
	ncsync_add_all_engine_barrier(p, &(struct ncsync_events) {
		.wait_mode = 0x05, .wait_idx = 9, .value = 3,
		.upd_mode = 0x13, .upd_idx = 7 });
	TAP_CHECK(ncsync_program_lower(p, NCSYNC_LOWER_EVENTS) == 0 &&
		  ncsync_program_finalize(p) == 0 && all_decode(p),
		  "a 0xD5 with a wait and an update, event form");
	{
		int wait_at = -1, upd_at = -1, drain_at = -1, phase_at = -1;
		uint32_t i;

		for (i = 0; i < ncsync_stream_count(s); i++) {
			const uint8_t *r = ncsync_stream_record(s, i);

			if (r[0] == 0xA4 && r[4] == 0x05 && r[5] == 9 &&
			    r[8] == 3 && !r[6])
				wait_at = i;
			if (r[0] == 0xA4 && r[6] == 0x13 && r[7] == 7 &&
			    !r[4] && !r[8])
				upd_at = i;
			if (r[0] == 0xA2 && drain_at < 0)
				drain_at = i;
			if (r[0] == 0xA7 && r[0x0D] == 30 && upd_at < 0)
				phase_at = i;
		}
		TAP_CHECK(wait_at >= 0 && wait_at < drain_at &&
			  upd_at > phase_at && phase_at > drain_at,
			  "wait at %d before the arrival at %d, update at %d "
			  "after the last phase record %d", wait_at, drain_at,
			  upd_at, phase_at);
	}
	ncsync_program_free(p);

	/* both forms in one program */
	ncsync_program_new(&p);
	ncsync_program_stream(p, NCSYNC_ENGINE_POOL, &t);
	ncsync_program_stream(p, NCSYNC_ENGINE_PE, &s);
	ncsync_add_sync_barrier(p);
	ncsync_add_all_engine_barrier(p, NULL);
	TAP_CHECK(ncsync_program_lower(p, NCSYNC_LOWER_EVENTS) == 0 &&
		  ncsync_program_finalize(p) == 0 && all_decode(p),
		  "sync_barrier (counter) and a 0xD5 lowered as events");
	TAP_CHECK(ncsync_stream_record(s, 0)[0] == NCSYNC_OPC_NOOP &&
		  ncsync_stream_record(s, 0)[4] == NCSYNC_WAIT_SEM_LT &&
		  ncsync_stream_record(s, 3)[0x22] == 0x11,
		  "both prologues: the counters' start, then the bits'");
	ncsync_program_free(p);
	return tap_done();
}
