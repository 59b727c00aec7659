// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * Any 64 bytes round-trip: records derived from valid ones by changing one
 * byte to a set of telling values, and sparse random records, print as an
 * instruction exactly when the validator accepts them (as .raw otherwise)
 * and assemble back to the same bytes.
 */
#include "asm_test.h"
#include "ncsync_record.h"

static uint64_t rng = 0x9E3779B97F4A7C15ULL;

static uint32_t rnd(void)
{
	return t_rnd(&rng);
}

static unsigned int nseeds;
static uint8_t seeds[16][NCSYNC_RECORD_SIZE];

static uint8_t *seed(uint8_t op)
{
	uint8_t *r = seeds[nseeds++];

	t_rec(r, op);
	return r;
}

static void make_seeds(void)
{
	uint8_t *r;

	r = seed(NCSYNC_OPC_EVENT_SEMAPHORE);
	t_ev(r, 0x05, 3, 0x15, 3, 5);
	t_ex(r, 0x06, 4, 0, 0x13, 7, 1);
	r = seed(NCSYNC_OPC_EVENT_SEMAPHORE);
	t_ex(r, 0x85, 4, 31, 0x99, 7, 30);
	r = seed(NCSYNC_OPC_NOOP);
	t_ev(r, 0x07, 9, 0x04, 9, 0);
	r = seed(NCSYNC_OPC_HALT);
	r = seed(NCSYNC_OPC_DRAIN);
	r[NCSYNC_REC_DRAIN_COUNT] = 1;
	t_ev(r, 0, 0, 0x13, 1, 0);
	r = seed(NCSYNC_OPC_MOV32);
	r[NCSYNC_REC_MOV_ALU] = NCSYNC_ALU_ADD_IMM;
	r[NCSYNC_REC_MOV_DST] = 3;
	r[NCSYNC_REC_MOV_SRC] = 4;
	t_put32(r + NCSYNC_REC_MOV_IMM, 0x01020304);
	r = seed(NCSYNC_OPC_BRANCH);
	r[NCSYNC_REC_BR_COMP_OP] = NCSYNC_BR_GE;
	r[NCSYNC_REC_BR_DTYPE] = NCSYNC_DTYPE_S32;
	r[NCSYNC_REC_BR_OPERAND_KIND] = 3;
	r[NCSYNC_REC_BR_LHS_REG] = 2;
	t_put32(r + NCSYNC_REC_BR_IMM, 0xFFFFFF00);
	t_put64(r + NCSYNC_REC_BR_TARGET, 12);
	r = seed(NCSYNC_OPC_BRANCH);
	r[NCSYNC_REC_BR_COMP_OP] = NCSYNC_BR_NE | NCSYNC_BR_REG;
	r[NCSYNC_REC_BR_DTYPE] = NCSYNC_DTYPE_U32;
	r[NCSYNC_REC_BR_OPERAND_KIND] = 3;
	r[NCSYNC_REC_BR_LHS_REG] = 2;
	r[NCSYNC_REC_BR_RHS_REG] = 5;
	r = seed(NCSYNC_OPC_GROUP_RESET);
	r[NCSYNC_REC_GR_CLEAR_MODE] = NCSYNC_CLEAR_RANGE;
	r[NCSYNC_REC_GR_FIRST] = 2;
	r[NCSYNC_REC_GR_LAST] = 9;
	r = seed(NCSYNC_OPC_GROUP_RESET);
	r[NCSYNC_REC_GR_CLEAR_MODE] = NCSYNC_CLEAR_MASK;
	memset(r + NCSYNC_REC_GR_MASK, 0x41, 32);
	r = seed(NCSYNC_OPC_POLL_SEM);
	r[NCSYNC_REC_POLL_OP] = NCSYNC_POLL_SUM;
	r[NCSYNC_REC_POLL_DST] = 7;
	r[NCSYNC_REC_POLL_FIRST] = 100;
	r[NCSYNC_REC_POLL_COUNT] = 8;
	r = seed(NCSYNC_OPC_EXIT);
	t_ev(r, 0x0E, 1, 0x11, 1, 0);
	r = seed(NCSYNC_OPC_DMA);
	t_put64(r + NCSYNC_REC_DMA_SRC, 0x1000);
	t_put64(r + NCSYNC_REC_DMA_DST, 0x2000);
	t_put32(r + NCSYNC_REC_DMA_LEN, 0x100);
	t_put32(r + NCSYNC_REC_DMA_LATENCY_US, 50);
	t_ev(r, 0x01, 2, 0x13, 3, 1);
}

/* Round trip, and .raw exactly for refused records. */
static bool check(const uint8_t *r)
{
	char line[NCSYNC_DISASM_LINE_MAX];
	struct ncsync_insn in;
	bool valid = !ncsync_record_decode(r, UINT32_MAX, UINT64_MAX, &in);

	if (!t_roundtrip(r, line))
		return false;
	if (valid == !strncmp(line, ".raw", 4)) {
		printf("# valid %d but '%s'\n", valid, line);
		return false;
	}
	return true;
}

int main(void)
{
	static const uint8_t vals[] = {
		0x00, 0x01, 0x02, 0x03, 0x05, 0x06, 0x07, 0x09, 0x0E, 0x0F,
		0x10, 0x11, 0x13, 0x14, 0x15, 0x17, 0x19, 0x1F, 0x20, 0x7F,
		0x80, 0x81, 0x85, 0x86, 0x95, 0x99, 0xA0, 0xD5, 0xFF,
	};
	unsigned int s, pos, v, i, tried = 0, bad = 0, valid = 0;
	uint8_t r[NCSYNC_RECORD_SIZE];
	struct ncsync_insn in;

	make_seeds();
	for (s = 0; s < nseeds; s++) {
		TAP_CHECK(!ncsync_record_decode(seeds[s], UINT32_MAX,
						UINT64_MAX, &in),
			  "seed %u is valid", s);
		for (pos = 0; pos < NCSYNC_RECORD_SIZE; pos++) {
			for (v = 0; v <= ARRAY_LEN(vals); v++) {
				memcpy(r, seeds[s], sizeof(r));
				r[pos] = v < ARRAY_LEN(vals) ? vals[v] :
							      r[pos] ^ 1;
				tried++;
				valid += !ncsync_record_decode(r, UINT32_MAX,
							       UINT64_MAX, &in);
				bad += !check(r);
			}
		}
	}
	TAP_CHECK(!bad, "%u one-byte mutations (%u valid) round-trip", tried,
		  valid);

	bad = valid = 0;
	for (i = 0; i < 20000; i++) {
		static const uint8_t ops[] = {
			0xA0, 0xA1, 0xA2, 0xA4, 0xA7, 0xA9, 0xB0, 0xB3, 0xDF,
			0xE0,
		};
		unsigned int k, n = rnd() % 6;

		t_rec(r, ops[rnd() % ARRAY_LEN(ops)]);
		for (k = 0; k < n; k++)
			r[4 + rnd() % 60] = rnd() % 3 ? rnd() % 20 : rnd();
		valid += !ncsync_record_decode(r, UINT32_MAX, UINT64_MAX, &in);
		bad += !check(r);
	}
	TAP_CHECK(!bad, "20000 sparse random records (%u valid) round-trip",
		  valid);
	return tap_done();
}
