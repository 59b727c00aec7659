// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * Every valid record round-trips through the text form: asm(disasm(r)) is
 * r byte for byte, and disasm of that is the same line.  The records are
 * written byte by byte here and cover every opcode, wait and update mode
 * (both forms, register operands, unused values), ALU operation, branch
 * comparison and dtype, ClearMode, PollSem operation and DMA option.
 */
#include "asm_test.h"
#include "ncsync_optab.h"
#include "ncsync_record.h"

#define MAX_RECS 2048

static uint8_t recs[MAX_RECS][NCSYNC_RECORD_SIZE];
static unsigned int nrecs;

static uint8_t *add(uint8_t op)
{
	uint8_t *r = recs[nrecs++ % MAX_RECS];

	t_rec(r, op);
	return r;
}

struct lane0 {
	uint8_t wm, wi, um, ui;
	uint32_t v;
};

static const struct lane0 lane0s[] = {
	{ 0, 0, 0, 0, 0 },
	/* semaphore compares with an immediate, signed */
	{ 0x01, 3, 0, 0, 5 },
	{ 0x02, 0, 0, 0, 0xFFFFFFFF },
	{ 0x03, 255, 0, 0, 0x80000000 },
	{ 0x04, 7, 0, 0, 0x7FFFFFFF },
	{ 0x05, 1, 0, 0, 0 },
	/* with a register */
	{ 0x81, 3, 0, 0, 0 },
	{ 0x82, 4, 0, 0, 31 },
	{ 0x83, 5, 0, 0, 7 },
	{ 0x84, 6, 0, 0, 1 },
	{ 0x85, 200, 0, 0, 30 },
	/* events, with and without a value nobody uses */
	{ 0x06, 4, 0, 0, 0 },
	{ 0x07, 4, 0, 0, 0 },
	{ 0x0E, 255, 0, 0, 0 },
	{ 0x0F, 0, 0, 0, 0 },
	{ 0x06, 1, 0, 0, 9 },
	{ 0x0F, 2, 0, 0, 0xDEADBEEF },
	/* every update, _READ and _COMPLETE */
	{ 0, 0, 0x01, 4, 0 },
	{ 0, 0, 0x11, 4, 0 },
	{ 0, 0, 0x02, 4, 0 },
	{ 0, 0, 0x12, 255, 0 },
	{ 0, 0, 0x03, 3, 0 },
	{ 0, 0, 0x13, 3, 0 },
	{ 0, 0, 0x04, 3, 0 },
	{ 0, 0, 0x14, 0, 0 },
	{ 0, 0, 0x05, 3, 1 },
	{ 0, 0, 0x15, 3, 7 },
	{ 0, 0, 0x07, 3, 1 },
	{ 0, 0, 0x17, 3, 0xFFFFFFFF },
	{ 0, 0, 0x09, 3, 0 },
	{ 0, 0, 0x19, 3, 0x80000000 },
	{ 0, 0, 0x85, 3, 4 },
	{ 0, 0, 0x95, 3, 31 },
	{ 0, 0, 0x87, 3, 0 },
	{ 0, 0, 0x97, 3, 5 },
	{ 0, 0, 0x89, 3, 2 },
	{ 0, 0, 0x99, 3, 3 },
	/* values the update ignores */
	{ 0, 0, 0x13, 3, 0x1234 },
	{ 0, 0, 0x04, 3, 1 },
	{ 0, 0, 0x11, 4, 99 },
	{ 0, 0, 0x02, 4, 0xFFFFFFFF },
	/* a wait and an update sharing the value */
	{ 0x05, 3, 0x15, 3, 5 },
	{ 0x04, 3, 0x14, 3, 0 },
	{ 0x04, 3, 0x04, 3, 1 },
	{ 0x06, 4, 0x13, 3, 77 },
	{ 0x85, 3, 0x15, 4, 5 },
	{ 0x01, 3, 0x99, 9, 7 },
	{ 0x0E, 1, 0x12, 1, 0 },
	{ 0x07, 2, 0x05, 3, 10 },
	{ 0x0F, 2, 0x01, 2, 3 },
	{ 0x02, 9, 0x11, 9, 0xFFFFFF00 },
};

struct lane1 {
	uint8_t wm, wi;
	uint32_t wv;
	uint8_t um, ui;
	uint32_t uv;
};

static const struct lane1 lane1s[] = {
	{ 0x01, 3, 5, 0, 0, 0 },
	{ 0x02, 0, 0xFFFFFFFF, 0, 0, 0 },
	{ 0x03, 255, 0x80000000, 0, 0, 0 },
	{ 0x04, 3, 0, 0x14, 3, 1 },
	{ 0x05, 1, 0x7FFFFFFF, 0, 0, 0 },
	{ 0x81, 3, 0, 0, 0, 0 },
	{ 0x85, 240, 31, 0, 0, 0 },
	{ 0x06, 4, 0, 0, 0, 0 },
	{ 0x07, 4, 3, 0, 0, 0 },
	{ 0x0E, 4, 0, 0, 0, 0 },
	{ 0x0F, 4, 0, 0, 0, 0 },
	{ 0, 0, 0, 0x11, 5, 0 },
	{ 0, 0, 0, 0x11, 5, 17 },
	{ 0, 0, 0, 0x12, 5, 0 },
	{ 0, 0, 0, 0x13, 1, 1 },
	{ 0, 0, 0, 0x14, 1, 0 },
	{ 0, 0, 0, 0x15, 2, 100 },
	{ 0, 0, 0, 0x17, 2, 0x80000000 },
	{ 0, 0, 0, 0x19, 2, 0xFFFFFFFF },
	{ 0, 0, 0, 0x95, 2, 31 },
	{ 0, 0, 0, 0x97, 2, 0 },
	{ 0, 0, 0, 0x99, 2, 30 },
	{ 0x01, 3, 9, 0x13, 3, 1 },
	{ 0x06, 7, 0, 0x12, 7, 0 },
	{ 0x05, 2, 4, 0x17, 2, 4 },
	{ 0x85, 2, 4, 0x97, 2, 4 },
	{ 0x06, 7, 8, 0x13, 8, 9 },
};

static void lane0_set(uint8_t *r, const struct lane0 *l)
{
	t_ev(r, l->wm, l->wi, l->um, l->ui, l->v);
}

/* Mask patterns: empty, single bits, all, 128, 8 and 9 runs, ... */
static bool mask_bit(unsigned int pattern, unsigned int k)
{
	switch (pattern) {
	case 0:
		return false;
	case 1:
		return k == 0;
	case 2:
		return k == 255;
	case 3:
		return true;
	case 4:
		return k % 2;
	case 5:
		return k < 16 && k % 2;
	case 6:
		return k < 18 && k % 2;
	case 7:
		return k >= 3 && k <= 7;
	case 8:
		return k == 31 || k == 32;
	case 9:
		return k >= 224;
	case 10:
		return k % 37 == 0;
	default:
		return k % 8 == 5 || k == 100;
	}
}

static void build(void)
{
	static const uint8_t plain[] = {
		NCSYNC_OPC_HALT, NCSYNC_OPC_DRAIN, NCSYNC_OPC_EXIT,
	};
	static const uint32_t imms[] = {
		0, 1, 5, 0xFFFF, 0x10000, 0xFFFFFFFB, 0x80000000,
		0x7FFFFFFF, 0xFFFFFFFF,
	};
	static const uint32_t targets[] = { 0, 1, 5, 0x10000, 0xFFFFFFFE };
	static const struct {
		uint64_t src, dst;
		uint32_t len, lat;
	} dmas[] = {
		{ 0, 0, 1, 0 },
		{ 0x100, 0x2000, 64, 10 },
		{ 0xFFFFFFFFFFFFFFF0ULL, 0, 0xF, 1000000 },
		{ 0, 0xFFFFFFFF00000000ULL, 0xFFFFFFFF, 1 },
	};
	static const struct lane0 dma_lanes[] = {
		{ 0, 0, 0, 0, 0 },
		{ 0, 0, 0x03, 3, 0 },
		{ 0, 0, 0x13, 3, 0 },
		{ 0, 0, 0x01, 4, 0 },
		{ 0, 0, 0x11, 255, 0 },
		{ 0, 0, 0x13, 3, 42 },
		{ 0x05, 1, 0x13, 2, 3 },
		{ 0x06, 1, 0x11, 2, 0 },
		{ 0x81, 1, 0, 0, 1 },
	};
	static const uint8_t polls[][2] = {
		{ 0, 1 }, { 0, 16 }, { 240, 16 }, { 255, 1 }, { 10, 5 },
	};
	static const uint8_t ranges[][2] = {
		{ 0, 0 }, { 0, 255 }, { 3, 7 }, { 255, 255 },
	};
	unsigned int i, j, k, alu, cmp, dt;
	uint8_t *r;

	/*
	 * NoOp and EngineNop with every lane 0; EventSemaphore with its
	 * _COMPLETE ones
	 */
	for (i = 0; i < ARRAY_LEN(lane0s); i++) {
		lane0_set(add(NCSYNC_OPC_NOOP), &lane0s[i]);
		lane0_set(add(NCSYNC_OPC_ENGINE_NOP), &lane0s[i]);
		if (lane0s[i].um && !(lane0s[i].um & NCSYNC_UPD_COMPLETE))
			continue;
		lane0_set(add(NCSYNC_OPC_EVENT_SEMAPHORE), &lane0s[i]);
	}
	/* lane 1 alone, and with lane 0 */
	for (i = 0; i < ARRAY_LEN(lane1s); i++) {
		const struct lane1 *l = &lane1s[i];

		r = add(NCSYNC_OPC_EVENT_SEMAPHORE);
		t_ex(r, l->wm, l->wi, l->wv, l->um, l->ui, l->uv);
		r = add(NCSYNC_OPC_EVENT_SEMAPHORE);
		t_ex(r, l->wm, l->wi, l->wv, l->um, l->ui, l->uv);
		t_ev(r, 0x05, 3, 0x14, 3, 0);
		r = add(NCSYNC_OPC_EVENT_SEMAPHORE);
		t_ex(r, l->wm, l->wi, l->wv, l->um, l->ui, l->uv);
		t_ev(r, 0x06, 1, 0x13, 1, 6);
	}
	/* Halt, Drain, Exit with some lane 0s */
	for (i = 0; i < ARRAY_LEN(plain); i++) {
		for (j = 0; j < ARRAY_LEN(lane0s); j += 7) {
			r = add(plain[i]);
			if (plain[i] == NCSYNC_OPC_DRAIN)
				r[NCSYNC_REC_DRAIN_COUNT] = 1;
			lane0_set(r, &lane0s[j]);
		}
	}
	/* Mov32: every ALU operation */
	for (alu = 0; alu <= NCSYNC_ALU_LAST; alu++) {
		bool reg = alu == NCSYNC_ALU_MOV || alu == NCSYNC_ALU_ADD ||
			   alu == NCSYNC_ALU_SUB;

		for (i = 0; i < ARRAY_LEN(imms); i++) {
			r = add(NCSYNC_OPC_MOV32);
			r[NCSYNC_REC_MOV_ALU] = alu;
			r[NCSYNC_REC_MOV_DST] = i % 2 ? 31 : i;
			if (alu != NCSYNC_ALU_MOV_IMM)
				r[NCSYNC_REC_MOV_SRC] = (i * 7) % 32;
			if (!reg)
				t_put32(r + NCSYNC_REC_MOV_IMM, imms[i]);
			lane0_set(r, &lane0s[(i * 5 + alu) %
					     ARRAY_LEN(lane0s)]);
		}
	}
	/*
	 * BranchHint: its offset from itself, .+N or .-N alone (every offset
	 * a queue of 2^32 - 1 records may hold), with the events block.
	 */
	for (i = 0; i < ARRAY_LEN(imms); i++) {
		r = add(NCSYNC_OPC_BR_HINT);
		t_put32(r + NCSYNC_REC_HINT_OFFSET, imms[i]);
		lane0_set(r, &lane0s[i * 2]);
	}
	/* Branch: always, and every comparison, dtype and operand kind */
	for (i = 0; i < ARRAY_LEN(targets); i++) {
		r = add(NCSYNC_OPC_BRANCH);
		t_put64(r + NCSYNC_REC_BR_TARGET, targets[i]);
		lane0_set(r, &lane0s[i * 3]);
	}
	for (cmp = NCSYNC_BR_LT; cmp <= NCSYNC_BR_GT; cmp++) {
		for (dt = NCSYNC_DTYPE_U32; dt <= NCSYNC_DTYPE_S32; dt++) {
			for (i = 0; i < ARRAY_LEN(imms); i++) {
				r = add(NCSYNC_OPC_BRANCH);
				r[NCSYNC_REC_BR_COMP_OP] = cmp;
				r[NCSYNC_REC_BR_DTYPE] = dt;
				r[NCSYNC_REC_BR_OPERAND_KIND] = 3;
				r[NCSYNC_REC_BR_LHS_REG] = i * 3;
				t_put32(r + NCSYNC_REC_BR_IMM, imms[i]);
				t_put64(r + NCSYNC_REC_BR_TARGET,
					targets[i % ARRAY_LEN(targets)]);
			}
			for (i = 0; i < 4; i++) {
				r = add(NCSYNC_OPC_BRANCH);
				r[NCSYNC_REC_BR_COMP_OP] = cmp | NCSYNC_BR_REG;
				r[NCSYNC_REC_BR_DTYPE] = dt;
				r[NCSYNC_REC_BR_OPERAND_KIND] = 3;
				r[NCSYNC_REC_BR_LHS_REG] = i * 10;
				r[NCSYNC_REC_BR_RHS_REG] = 31 - i;
				t_put64(r + NCSYNC_REC_BR_TARGET, targets[i]);
				lane0_set(r, &lane0s[cmp * 4 + i]);
			}
		}
	}
	/* GroupResetSemaphores: ranges and masks */
	for (i = 0; i < ARRAY_LEN(ranges); i++) {
		r = add(NCSYNC_OPC_GROUP_RESET);
		r[NCSYNC_REC_GR_CLEAR_MODE] = NCSYNC_CLEAR_RANGE;
		r[NCSYNC_REC_GR_FIRST] = ranges[i][0];
		r[NCSYNC_REC_GR_LAST] = ranges[i][1];
		lane0_set(r, &lane0s[i * 11]);
	}
	for (i = 0; i < 12; i++) {
		r = add(NCSYNC_OPC_GROUP_RESET);
		r[NCSYNC_REC_GR_CLEAR_MODE] = NCSYNC_CLEAR_MASK;
		for (k = 0; k < 256; k++)
			if (mask_bit(i, k))
				r[NCSYNC_REC_GR_MASK + k / 8] |= 1 << (k % 8);
		lane0_set(r, &lane0s[i * 4]);
	}
	/* PollSem */
	for (i = 0; i < 2; i++) {
		for (j = 0; j < ARRAY_LEN(polls); j++) {
			r = add(NCSYNC_OPC_POLL_SEM);
			r[NCSYNC_REC_POLL_OP] = i;
			r[NCSYNC_REC_POLL_DST] = j % 2 ? 31 : j;
			r[NCSYNC_REC_POLL_FIRST] = polls[j][0];
			r[NCSYNC_REC_POLL_COUNT] = polls[j][1];
			lane0_set(r, &lane0s[i * 10 + j * 3]);
		}
	}
	/* PollSem min with its write-back */
	for (j = 0; j < ARRAY_LEN(polls); j++) {
		r = add(NCSYNC_OPC_POLL_SEM);
		r[NCSYNC_REC_POLL_DST] = j;
		r[NCSYNC_REC_POLL_FIRST] = polls[j][0];
		r[NCSYNC_REC_POLL_COUNT] = polls[j][1];
		r[NCSYNC_REC_POLL_WRITEBACK] = NCSYNC_POLL_WB_NONZERO;
		lane0_set(r, &lane0s[j * 5]);
	}
	/* DMA: ranges, latency, completion updates, waits */
	for (i = 0; i < ARRAY_LEN(dmas); i++) {
		for (j = 0; j < ARRAY_LEN(dma_lanes); j++) {
			r = add(NCSYNC_OPC_DMA);
			t_put64(r + NCSYNC_REC_DMA_SRC, dmas[i].src);
			t_put64(r + NCSYNC_REC_DMA_DST, dmas[i].dst);
			t_put32(r + NCSYNC_REC_DMA_LEN, dmas[i].len);
			t_put32(r + NCSYNC_REC_DMA_LATENCY_US, dmas[i].lat);
			lane0_set(r, &dma_lanes[j]);
		}
	}
}

int main(void)
{
	bool opcodes[256] = { false };
	char line[NCSYNC_DISASM_LINE_MAX];
	unsigned int i, bad_valid = 0, bad_trip = 0, missing;
	struct ncsync_insn in;

	build();
	TAP_CHECK(nrecs <= MAX_RECS, "%u records fit the table", nrecs);
	for (i = 0; i < nrecs; i++) {
		enum ncsync_rec_reason r;

		r = ncsync_record_decode(recs[i], UINT32_MAX, UINT64_MAX, &in);
		if (r) {
			char hex[2 * NCSYNC_RECORD_SIZE + 1];

			t_hex(recs[i], hex);
			printf("# record %u invalid (%s): %s\n", i,
			       ncsync_reason_name(r), hex);
			bad_valid++;
			continue;
		}
		opcodes[recs[i][0]] = true;
		if (!t_roundtrip(recs[i], line) || !strncmp(line, ".raw", 4)) {
			printf("# record %u\n", i);
			bad_trip++;
		}
	}
	TAP_CHECK(!bad_valid, "all %u hand-made records are valid", nrecs);
	TAP_CHECK(!bad_trip, "all %u records round-trip byte for byte",
		  nrecs);
	/*
	 * Every opcode the engines run: the rows of the opcode table but the
	 * pseudo-ops and those refused as unmodelled (disasm_raw.c prints
	 * them as .raw).
	 */
	for (i = 0, missing = 0; i < ncsync_optab_size; i++)
		if (!(ncsync_optab[i].flags &
		      (NCSYNC_OPF_PSEUDO | NCSYNC_OPF_UNMODELLED)) &&
		    !opcodes[ncsync_optab[i].opcode]) {
			printf("# opcode 0x%02x (%s) not covered\n",
			       ncsync_optab[i].opcode, ncsync_optab[i].title);
			missing++;
		}
	TAP_CHECK(!missing, "every opcode of the table is covered");
	return tap_done();
}
