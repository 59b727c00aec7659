// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * The counter lowering of AllEngineBarrier (0xD5)
 * (Documentation/ncsync/barriers.rst): the start rendezvous, the records of
 * a pass (+1 arrivals, a GE release on r31), the counters per engine set,
 * the events block split around the pass, and the records passing
 * ncsync_record_decode().  Also ncsync_add_sync_barrier(), which emits the
 * same form at once.
 */
#include <errno.h>
#include <string.h>

#include "ncsync.h"
#include "ncsync_record.h"
#include "internal.h"
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

/* Record @idx of @engine's stream. */
static const uint8_t *rec(struct ncsync_program *p, uint8_t engine,
			  uint32_t idx)
{
	return ncsync_stream_record(ncsync_program_find_stream(p, engine), idx);
}

/*
 * Every update of the counters @c0, @c0 + 1 in @engine's stream: count the
 * +1 arrivals (0x13, always on a Drain) and the writes (0x19); anything
 * else (an add, a subtract) makes it return false.
 */
static bool arrivals(struct ncsync_program *p, uint8_t engine, uint8_t c0,
		     unsigned int *inc, unsigned int *set)
{
	struct ncsync_stream *s = ncsync_program_find_stream(p, engine);
	uint32_t i;
	int l;

	*inc = *set = 0;
	for (i = 0; i < ncsync_stream_count(s); i++) {
		const uint8_t *r = ncsync_stream_record(s, i);

		for (l = 0; l < 2; l++) {
			uint8_t mode = r[l ? 0x22 : 0x06];
			uint8_t idx = r[l ? 0x23 : 0x07];

			if (!mode || (idx != c0 && idx != c0 + 1))
				continue;
			if (mode == 0x13 && (r[0] == 0xA2 || r[0] == 0xA4))
				(*inc)++;
			else if (mode == 0x19 && r[0] == 0xA0)
				(*set)++;
			else
				return false;
		}
	}
	return true;
}

/* The Mov32 that ends every pass: r31 += @n. */
static bool pass_end(const uint8_t *r, uint32_t n)
{
	return r[0] == 0xA7 && r[0x0C] == 2 && r[0x0D] == 31 &&
	       r[0x0E] == 31 && ncsync_get_u32(r + 0x10) == n;
}

static void five_engines(void)
{
	struct ncsync_events ev = {
		.wait_mode = 0x05, .wait_idx = 9, .value = 3,
		.upd_mode = 0x13, .upd_idx = 7,
	};
	unsigned int e, inc, set, ok = 1;
	struct ncsync_program *p;
	struct ncsync_stream *s;

	p = build(NCSYNC_ENGINE_MASK, &ev);
	TAP_CHECK(ncsync_program_lower(p, NCSYNC_LOWER_COUNTER) == 0,
		  "lower, counter form");
	TAP_CHECK(all_decode(p), "every record passes ncsync_record_decode");
	s = ncsync_program_find_stream(p, NCSYNC_ENGINE_PE);
	TAP_CHECK(ncsync_stream_count(s) == 3 + 1 + 1 + 13 + 1 + 1,
		  "PE: prologue 3, nop, wait, pass 13, update, exit");
	TAP_CHECK(same(ncsync_program_find_stream(p, NCSYNC_ENGINE_POOL), 0,
		       R([0] = 0xA0, [1] = 0x10, [0x22] = 0x19, [0x23] = 240,
			 [0x28] = 0xFC, [0x29] = 0xFF, [0x2A] = 0xFF,
			 [0x2B] = 0xFF)),
		  "Pool (lowest) starts by writing C0 = 1 - 5");
	TAP_CHECK(same(s, 0, R([0] = 0xA4, [1] = 0x10, [4] = 0x02,
			       [5] = 240, [6] = 0x13, [7] = 240)),
		  "PE starts by waiting C0 < 0 and adding 1, one atomic step");
	TAP_CHECK(same(s, 1, R([0] = 0xA0, [1] = 0x10, [0x20] = 0x05,
			       [0x21] = 240)) &&
		  same(s, 2, R([0] = 0xA7, [1] = 0x10, [0x0D] = 31,
			       [0x10] = 5)),
		  "then waits C0 >= 0 and sets r31 = N = 5");
	TAP_CHECK(same(s, 3, R([0] = 0xA4, [1] = 0x10)), "the user's nop");
	TAP_CHECK(same(s, 4, R([0] = 0xA4, [1] = 0x10, [4] = 0x05, [5] = 9,
			       [8] = 3)),
		  "the 0xD5's wait on a NoOp before the arrival");
	TAP_CHECK(ncsync_stream_record(s, 5)[0] == 0xA9 &&
		  ncsync_stream_record(s, 5)[0x0C] == 6 &&
		  ncsync_get_u32(ncsync_stream_record(s, 5) + 0x10) ==
			  5U << 27,
		  "the pass picks the counter: branch r31 > 5 * 2^27");
	TAP_CHECK(same(s, 6, R([0] = 0xA2, [1] = 0x10, [6] = 0x13,
			       [7] = 240, [0x28] = 1)),
		  "Drain, then C0 += 1 (0x13): the arrival");
	TAP_CHECK(same(s, 7, R([0] = 0xA0, [1] = 0x10, [0x20] = 0x85,
			       [0x21] = 240, [0x24] = 31)),
		  "EventSemaphore wait C0 >= r31 (0x85): the release");
	TAP_CHECK(pass_end(ncsync_stream_record(s, 17), 5),
		  "the pass ends with r31 += 5");
	TAP_CHECK(same(s, 18, R([0] = 0xA4, [1] = 0x10, [6] = 0x13,
				[7] = 7)),
		  "the 0xD5's update on a NoOp after the rendezvous");
	TAP_CHECK(same(s, 19, R([0] = 0xDF, [1] = 0x10)), "exit");
	for (e = 1; e <= 6; e++) {
		if (e == NCSYNC_ENGINE_DMA)
			continue;
		if (!arrivals(p, e, 240, &inc, &set) ||
		    inc != (e == 1 ? 2U : 3U) || set != (e == 1 ? 3U : 2U))
			ok = 0;
	}
	TAP_CHECK(ok, "every arrival is +1 (0x13): one per counter, and the "
		  "start's for the followers; the rest are writes");
	TAP_CHECK(ncsync_program_finalize(p) == 0, "finalize");
	TAP_CHECK(ncsync_program_lower(p, NCSYNC_LOWER_COUNTER) == 0 &&
		  ncsync_stream_count(s) == 20,
		  "lowering again changes nothing");
	ncsync_program_free(p);
}

/* Counter by lowest engine; the threshold steps by N. */
static void subsets(void)
{
	static const struct {
		unsigned int mask;
		uint8_t lowest, other, c0;
	} t[] = {
		{ 1U << 3 | 1U << 6, 3, 6, 244 },
		{ 1U << 2 | 1U << 5 | 1U << 6, 2, 5, 242 },
		{ 1U << 6, 6, 6, 248 },
	};
	unsigned int i;

	for (i = 0; i < 3; i++) {
		struct ncsync_program *p = build(t[i].mask, NULL);
		uint32_t n = __builtin_popcount(t[i].mask);
		unsigned int inc, set;

		TAP_CHECK(ncsync_program_finalize(p) == 0 && all_decode(p),
			  "%#x: finalize lowers by default (counter)",
			  t[i].mask);
		TAP_CHECK(rec(p, t[i].lowest, 0)[0x23] == t[i].c0 &&
			  ncsync_get_u32(rec(p, t[i].lowest, 0) + 0x28) ==
				  1 - n &&
			  rec(p, t[i].other, 5)[7] == t[i].c0 &&
			  rec(p, t[i].other, 5)[6] == 0x13 &&
			  pass_end(rec(p, t[i].other, 16), n),
			  "%#x: C0 = 240 + 2 * slot(lowest) = %u, +1 "
			  "arrivals, r31 steps by %u", t[i].mask, t[i].c0, n);
		TAP_CHECK(arrivals(p, t[i].other, t[i].c0, &inc, &set) &&
			  ncsync_stream_count(ncsync_program_find_stream(
				  p, t[i].other)) == 18,
			  "%#x: no NoOp for an empty events block",
			  t[i].mask);
		ncsync_program_free(p);
	}
}

static void refusals(void)
{
	struct ncsync_program *p;
	struct ncsync_stream *s;

	p = build(NCSYNC_ENGINE_MASK, NULL);
	ncsync_program_set_reserved(p, 256, 0, 240, 16);
	TAP_CHECK(ncsync_program_lower(p, NCSYNC_LOWER_COUNTER) == -ENOSPC,
		  "no reserved semaphores: -ENOSPC");
	TAP_CHECK(rec(p, 1, 1)[0] == 0xD5, "... and the program is unchanged");
	ncsync_program_free(p);
	p = build(1U << 6, NULL);
	ncsync_program_set_reserved(p, 200, 9, 240, 16);
	TAP_CHECK(ncsync_program_finalize(p) == -ENOSPC,
		  "SP's counters (slot 4: ids 8, 9) outside a 9-id slice: "
		  "-ENOSPC");
	ncsync_program_free(p);
	p = build(1U << 6, NULL);
	ncsync_program_set_reserved(p, 200, 10, 240, 16);
	TAP_CHECK(ncsync_program_finalize(p) == 0 && rec(p, 6, 0)[0x23] == 208,
		  "a moved slice: C0 = 200 + 8");
	ncsync_program_free(p);
	p = build(1U << 1, NULL);
	s = ncsync_program_find_stream(p, 1);
	ncsync_stream_record(s, 0)[0] = 0xC7;
	TAP_CHECK(ncsync_program_lower(p, NCSYNC_LOWER_COUNTER) == -EOPNOTSUPP,
		  "a pseudo-op with no lowering (0xC7): -EOPNOTSUPP");
	TAP_CHECK(ncsync_program_lower_error(p) &&
		  strstr(ncsync_program_lower_error(p),
			 "record 0: pseudo-op 0xc7 has no lowering"),
		  "... its message names the record and the opcode");
	ncsync_stream_record(s, 0)[0] = 0xDE;
	TAP_CHECK(ncsync_program_finalize(p) == -EOPNOTSUPP &&
		  strstr(ncsync_program_lower_error(p), "pseudo-op 0xde"),
		  "0xDE from finalize: -EOPNOTSUPP, named");
	ncsync_program_free(p);
	p = build(1U << 1, NULL);
	TAP_CHECK(ncsync_program_lower(p, 7) == -EINVAL, "unknown lowering");
	ncsync_program_free(p);
}

/* ncsync_add_sync_barrier: the same form, emitted at once. */
static void sync_barrier(void)
{
	struct ncsync_program *p;
	struct ncsync_stream *s;
	unsigned int inc, set;

	ncsync_program_new(&p);
	ncsync_program_stream(p, NCSYNC_ENGINE_POOL, &s);
	ncsync_program_stream(p, NCSYNC_ENGINE_DVE, &s);
	TAP_CHECK(ncsync_add_sync_barrier(p) == 0, "sync_barrier");
	TAP_CHECK(ncsync_stream_count(s) == 13 &&
		  same(s, 1, R([0] = 0xA2, [1] = 0x10, [6] = 0x13,
			       [7] = 240, [0x28] = 1)) &&
		  same(s, 2, R([0] = 0xA0, [1] = 0x10, [0x20] = 0x85,
			       [0x21] = 240, [0x24] = 31)) &&
		  pass_end(ncsync_stream_record(s, 12), 2),
		  "sync_barrier: the pass at once, +1 arrivals, GE r31");
	ncsync_add_all_engine_barrier(p, NULL);
	TAP_CHECK(ncsync_program_finalize(p) == 0 && all_decode(p) &&
		  ncsync_stream_count(s) == 3 + 13 + 13 &&
		  ncsync_stream_record(s, 0)[0x05] == 240 &&
		  ncsync_stream_record(s, 18)[0x21] == 240 &&
		  arrivals(p, NCSYNC_ENGINE_DVE, 240, &inc, &set) &&
		  inc == 5 && set == 4,
		  "finalize adds the prologue; a 0xD5 shares the counters");
	ncsync_program_free(p);
	ncsync_program_new(&p);
	ncsync_program_stream(p, NCSYNC_ENGINE_POOL, &s);
	ncsync_add_sync_barrier(p);
	ncsync_program_stream(p, NCSYNC_ENGINE_SP, &s);
	TAP_CHECK(ncsync_add_sync_barrier(p) == -EINVAL,
		  "sync_barrier after a new stream: -EINVAL");
	TAP_CHECK(ncsync_program_finalize(p) == -EINVAL,
		  "... and finalize: the threshold no longer steps by N");
	ncsync_program_free(p);
}

int main(void)
{
	five_engines();
	subsets();
	refusals();
	sync_barrier();
	return tap_done();
}
