// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * libFuzzer target: the record decoder and validator, common/ncsync_record.c,
 * the very source the module compiles (fuzz/Makefile builds it from
 * common/, no copy).
 *
 * Input: any number of 64-byte records, then up to 63 bytes of parameters:
 * a little-endian u32 queue length (default: the number of records) and a
 * u64 device memory size (default 1 MiB), each as many bytes as are left.
 * A plain 64-byte record is thus a complete input (fuzz/corpus/record/).
 *
 * Each record is copied into a buffer of exactly 64 bytes of its own, so
 * that AddressSanitizer reports any read past it.  Checked for each:
 *
 * - the reason is in range and has a name;
 * - a refused record is refused for the same reason whatever the queue
 *   length and device memory, but for a branch target or a DMA range;
 * - an accepted record is accepted again with a longer queue and a larger
 *   device memory, decodes to the same struct, and that struct holds only
 *   values in range: opcode, modes, registers, indices, branch target below
 *   the queue length, a hint's offset shorter than it, DMA range inside the
 *   device memory, ...;
 * - at the record's index in the input, ncsync_record_check_at() accepts
 *   a hint exactly when its target is in the queue, and
 *   ncsync_insn_target() names a branch's and a hint's target only;
 * - re-encoding the struct with the shared encoder, common/ncsync_encode.c
 *   (the module's and the library's), gives back the record byte for byte
 *   (so every byte was read and checked, and the encoder is the decoder's
 *   exact inverse), and any change to a byte no field names makes the
 *   record refused.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ncsync_record.h"

#define REC	NCSYNC_RECORD_SIZE

#define CHECK(cond) do {						\
	if (!(cond)) {							\
		fprintf(stderr, "fuzz_record: %s:%d: check failed: %s\n", \
			__FILE__, __LINE__, #cond);			\
		abort();						\
	}								\
} while (0)

static uint32_t get32(const uint8_t *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

/*
 * The bytes each opcode names past the events block (0x0C-0x3F), written
 * from <linux/ncsync.h> here, apart from the decoder's own table.
 */
static bool named(uint8_t opcode, unsigned int i)
{
	switch (opcode) {
	case NCSYNC_OPC_EVENT_SEMAPHORE:
		return i >= NCSYNC_REC_EX_WAIT_MODE &&
		       i < NCSYNC_REC_EX_UPD_VALUE + 4;
	case NCSYNC_OPC_DRAIN:
		return i == NCSYNC_REC_DRAIN_COUNT;
	case NCSYNC_OPC_MOV32:
		return (i >= NCSYNC_REC_MOV_ALU && i <= NCSYNC_REC_MOV_SRC) ||
		       (i >= NCSYNC_REC_MOV_IMM && i < NCSYNC_REC_MOV_IMM + 4);
	case NCSYNC_OPC_BRANCH:
		return (i >= NCSYNC_REC_BR_COMP_OP &&
			i <= NCSYNC_REC_BR_OPERAND_KIND) ||
		       (i >= NCSYNC_REC_BR_IMM && i < NCSYNC_REC_BR_IMM + 4) ||
		       i == NCSYNC_REC_BR_LHS_REG ||
		       i == NCSYNC_REC_BR_RHS_REG ||
		       (i >= NCSYNC_REC_BR_TARGET &&
			i < NCSYNC_REC_BR_TARGET + 8);
	case NCSYNC_OPC_GROUP_RESET:
		return (i >= NCSYNC_REC_GR_CLEAR_MODE &&
			i <= NCSYNC_REC_GR_LAST) ||
		       i >= NCSYNC_REC_GR_MASK;
	case NCSYNC_OPC_POLL_SEM:
		return i >= NCSYNC_REC_POLL_OP && i <= NCSYNC_REC_POLL_WRITEBACK;
	case NCSYNC_OPC_EXIT:
		return i == NCSYNC_REC_EXIT_FLAGS;
	case NCSYNC_OPC_BR_HINT:
		return i >= NCSYNC_REC_HINT_OFFSET &&
		       i < NCSYNC_REC_HINT_OFFSET + 4;
	case NCSYNC_OPC_DMA:
		return i == NCSYNC_REC_DMA_FLAGS || i == NCSYNC_REC_DMA_PEER ||
		       (i >= NCSYNC_REC_DMA_SRC &&
			i < NCSYNC_REC_DMA_LATENCY_US + 4);
	default:
		return false;
	}
}

static bool wait_ok(uint8_t m, bool *is_sem)
{
	*is_sem = (m & 0x7F) >= NCSYNC_WAIT_SEM_EQ &&
		  (m & 0x7F) <= NCSYNC_WAIT_SEM_GE;
	switch (m) {
	case NCSYNC_WAIT_EVT_SET:
	case NCSYNC_WAIT_EVT_SET_THEN_CLEAR:
	case NCSYNC_WAIT_EVT_CLEAR:
	case NCSYNC_WAIT_EVT_CLEAR_THEN_SET:
		return true;
	default:
		return *is_sem;
	}
}

static bool upd_ok(uint8_t m, bool evsem)
{
	uint8_t base = m & 0x0F;

	if (m & 0x60)
		return false;
	if (evsem && !(m & NCSYNC_UPD_COMPLETE))
		return false;
	if (m & NCSYNC_UPD_REG)
		return base == NCSYNC_UPD_SEM_ADD ||
		       base == NCSYNC_UPD_SEM_SUB ||
		       base == NCSYNC_UPD_SEM_WRITE;
	switch (base) {
	case NCSYNC_UPD_EVT_SET:
	case NCSYNC_UPD_EVT_CLEAR:
	case NCSYNC_UPD_SEM_INC:
	case NCSYNC_UPD_SEM_DEC:
	case NCSYNC_UPD_SEM_ADD:
	case NCSYNC_UPD_SEM_SUB:
	case NCSYNC_UPD_SEM_WRITE:
		return true;
	default:
		return false;
	}
}

static void check_lane(const struct ncsync_lane *l, bool evsem, bool lane0,
		       bool dma)
{
	bool wsem = false;

	if (l->wait_mode) {
		CHECK(wait_ok(l->wait_mode, &wsem));
		if (l->wait_mode & NCSYNC_WAIT_REG)
			CHECK(l->wait_value < NCSYNC_NUM_REGS);
	} else {
		CHECK(!l->wait_idx);
	}
	if (l->upd_mode) {
		CHECK(upd_ok(l->upd_mode, evsem));
		if (l->upd_mode & NCSYNC_UPD_REG)
			CHECK(l->upd_value < NCSYNC_NUM_REGS);
	} else {
		CHECK(!l->upd_idx);
	}
	if (lane0)
		CHECK(l->wait_value == l->upd_value);
	/* A DMA's update is its copy's completion, never paired. */
	CHECK(l->paired == (!dma && wsem && l->upd_mode &&
			    ncsync_upd_is_sem(l->upd_mode) &&
			    l->wait_idx == l->upd_idx));
}

static void check_gr(const struct ncsync_insn *in)
{
	unsigned int i;

	CHECK(in->gr.mode == NCSYNC_CLEAR_RANGE ||
	      in->gr.mode == NCSYNC_CLEAR_MASK);
	if (in->gr.mode == NCSYNC_CLEAR_RANGE) {
		CHECK(in->gr.first <= in->gr.last);
		for (i = 0; i < NCSYNC_NUM_SEMS; i++)
			CHECK(!!(in->gr.mask[i / 32] & 1U << (i % 32)) ==
			      (i >= in->gr.first && i <= in->gr.last));
	} else {
		CHECK(!in->gr.first && !in->gr.last);
	}
}

static void check_dma(const struct ncsync_insn *in, uint64_t devmem)
{
	CHECK(in->dma.len > 0);
	CHECK(in->dma.latency_us <= NCSYNC_DMA_MAX_LATENCY_US);
	CHECK(in->dma.src <= devmem && in->dma.len <= devmem - in->dma.src);
	CHECK(in->dma.dst <= devmem && in->dma.len <= devmem - in->dma.dst);
	CHECK(!in->lane[0].upd_mode ||
	      (in->lane[0].upd_mode & 0x0F) == NCSYNC_UPD_SEM_INC ||
	      (in->lane[0].upd_mode & 0x0F) == NCSYNC_UPD_EVT_SET);
	CHECK(!(in->lane[0].upd_mode & NCSYNC_UPD_REG));
}

/* The fields of an accepted record, each in its range. */
static void check_insn(const struct ncsync_insn *in, uint32_t nrecords,
		       uint64_t devmem)
{
	bool evsem = in->opcode == NCSYNC_OPC_EVENT_SEMAPHORE;

	CHECK(in->nlanes == (evsem ? 2 : 1));
	check_lane(&in->lane[0], evsem, true, in->opcode == NCSYNC_OPC_DMA);
	if (evsem)
		check_lane(&in->lane[1], true, false, false);

	switch (in->opcode) {
	case NCSYNC_OPC_EVENT_SEMAPHORE:
	case NCSYNC_OPC_HALT:
	case NCSYNC_OPC_NOOP:
	case NCSYNC_OPC_ENGINE_NOP:
	case NCSYNC_OPC_EXIT:
		break;
	case NCSYNC_OPC_DRAIN:
		CHECK(in->drain.count == 1);
		break;
	case NCSYNC_OPC_MOV32:
		CHECK(in->mov.alu <= NCSYNC_ALU_LAST);
		CHECK(in->mov.dst < NCSYNC_NUM_REGS);
		CHECK(in->mov.src < NCSYNC_NUM_REGS);
		CHECK(ncsync_alu(in->mov.alu, 1, 2, 3) ==
		      ncsync_alu(in->mov.alu, 1, 2, 3));
		break;
	case NCSYNC_OPC_BRANCH:
		CHECK(in->br.target < nrecords);
		if (in->br.comp == NCSYNC_BR_ALWAYS)
			break;
		CHECK((in->br.comp & ~NCSYNC_BR_REG) >= NCSYNC_BR_LT &&
		      (in->br.comp & ~NCSYNC_BR_REG) <= NCSYNC_BR_GT &&
		      in->br.comp <= (NCSYNC_BR_REG | NCSYNC_BR_GT));
		CHECK(in->br.dtype == NCSYNC_DTYPE_U32 ||
		      in->br.dtype == NCSYNC_DTYPE_S32);
		CHECK(in->br.lhs < NCSYNC_NUM_REGS);
		CHECK(in->br.rhs < NCSYNC_NUM_REGS);
		break;
	case NCSYNC_OPC_BR_HINT:
		CHECK((in->hint.offset < 0 ? -(int64_t)in->hint.offset :
					     in->hint.offset) < nrecords);
		break;
	case NCSYNC_OPC_GROUP_RESET:
		check_gr(in);
		break;
	case NCSYNC_OPC_POLL_SEM:
		CHECK(in->poll.op <= NCSYNC_POLL_SUM);
		CHECK(in->poll.dst < NCSYNC_NUM_REGS);
		CHECK(in->poll.count >= 1 &&
		      in->poll.count <= NCSYNC_POLL_MAX_COUNT);
		CHECK((unsigned int)in->poll.first + in->poll.count <=
		      NCSYNC_NUM_SEMS);
		CHECK(in->poll.writeback == 0 ||
		      (in->poll.writeback == NCSYNC_POLL_WB_NONZERO &&
		       in->poll.op == NCSYNC_POLL_MIN));
		break;
	case NCSYNC_OPC_DMA:
		check_dma(in, devmem);
		break;
	default:
		CHECK(!"accepted an opcode engines do not run");
	}
}

static enum ncsync_rec_reason decode(const uint8_t *rec, uint32_t nrecords,
				     uint64_t devmem, struct ncsync_insn *in)
{
	enum ncsync_rec_reason r;

	/* Garbage in, so that a field the decoder forgets shows. */
	memset(in, 0xA5, sizeof(*in));
	r = ncsync_record_decode(rec, nrecords, devmem, in);
	CHECK((unsigned int)r < NCSYNC_REC_REASON_COUNT);
	CHECK(strcmp(ncsync_rec_reason_name(r), "unknown reason"));
	return r;
}

/*
 * Every byte was read, and the shared encoder is the decoder's inverse:
 * encoding the decoded @in gives back @rec (@enc is scratch).
 */
static void check_encode(const uint8_t *rec, uint8_t *enc,
			 const struct ncsync_insn *in, uint32_t nrecords,
			 uint64_t devmem)
{
	struct ncsync_insn again;
	unsigned int i;

	ncsync_record_encode(in, enc);
	if (memcmp(enc, rec, REC)) {
		for (i = 0; i < REC; i++)
			fprintf(stderr, "%02x%s", rec[i], i % 4 == 3 ? " " : "");
		fprintf(stderr, "\n");
		for (i = 0; i < REC; i++)
			fprintf(stderr, "%02x%s", enc[i], i % 4 == 3 ? " " : "");
		fprintf(stderr, "\n");
		CHECK(!"re-encoded record differs");
	}
	CHECK(decode(enc, nrecords, devmem, &again) == NCSYNC_REC_OK);
	CHECK(!memcmp(in, &again, sizeof(again)));
}

/* Every byte no field names must be zero, and the header as it is. */
static void check_reserved(const uint8_t *rec, uint8_t *enc,
			   uint32_t nrecords, uint64_t devmem)
{
	struct ncsync_insn again;
	enum ncsync_rec_reason r;
	unsigned int i;

	for (i = 0x0C; i < REC; i++) {
		if (named(rec[0], i))
			continue;
		memcpy(enc, rec, REC);
		enc[i] = 1 + (rec[i] ^ (uint8_t)(i * 37));
		if (!enc[i])
			enc[i] = 0x80;
		r = decode(enc, nrecords, devmem, &again);
		if (r != NCSYNC_REC_RESERVED_BYTE) {
			fprintf(stderr, "byte 0x%02x of opcode 0x%02x\n", i,
				rec[0]);
			CHECK(!"a reserved byte set was not refused");
		}
	}
	memcpy(enc, rec, REC);
	enc[2 + (rec[5] & 1)] = 0x01;
	CHECK(decode(enc, nrecords, devmem, &again) ==
	      NCSYNC_REC_HEADER_RESERVED);
	memcpy(enc, rec, REC);
	enc[1] = NCSYNC_RECORD_WORDLEN + 1 + (rec[6] & 0x7F);
	CHECK(decode(enc, nrecords, devmem, &again) == NCSYNC_REC_BAD_WORDLEN);
}

/*
 * At its place, record @index of the queue: a hint's target inside it, a
 * branch's and a hint's target named, no other record's.
 */
static void check_place(const struct ncsync_insn *in, uint32_t index,
			uint32_t nrecords)
{
	int64_t t = (int64_t)index + in->hint.offset;
	bool hint = in->opcode == NCSYNC_OPC_BR_HINT;
	enum ncsync_rec_reason r = ncsync_record_check_at(in, index, nrecords);
	uint32_t target;

	CHECK(r == (hint && (t < 0 || t >= nrecords) ? NCSYNC_REC_BAD_TARGET :
						       NCSYNC_REC_OK));
	if (!ncsync_insn_target(in, index, &target)) {
		CHECK(!hint && in->opcode != NCSYNC_OPC_BRANCH);
		return;
	}
	CHECK(hint || in->opcode == NCSYNC_OPC_BRANCH);
	CHECK(target == (hint ? (uint32_t)t : in->br.target));
}

static void one(const uint8_t *data, uint32_t index, uint32_t nrecords,
		uint64_t devmem)
{
	struct ncsync_insn in, again;
	enum ncsync_rec_reason r, r2;
	uint8_t *rec, *enc;

	/* Exactly 64 bytes on the heap: ASan catches a read past them. */
	rec = malloc(REC);
	enc = malloc(REC);
	CHECK(rec && enc);
	memcpy(rec, data, REC);

	r = decode(rec, nrecords, devmem, &in);
	CHECK(!memcmp(rec, data, REC));		/* the input is const */
	r2 = decode(rec, UINT32_MAX, UINT64_MAX, &again);
	if (r != NCSYNC_REC_BAD_TARGET && r != NCSYNC_REC_BAD_DMA)
		CHECK(r2 == r);
	/*
	 * SYNC's "0x10B1 ordering" word: named, its effect not given; refused
	 * for that whatever its other bytes.
	 */
	if (rec[0] == NCSYNC_OPC_ORDERING)
		CHECK(r == NCSYNC_REC_UNMODELLED_OP);
	else
		CHECK(r != NCSYNC_REC_UNMODELLED_OP);
	if (r) {
		/* The header is checked before anything but the opcode. */
		if (rec[1] != NCSYNC_RECORD_WORDLEN || rec[2] || rec[3])
			CHECK(r <= NCSYNC_REC_HEADER_RESERVED ||
			      r == NCSYNC_REC_UNMODELLED_OP);
		goto out;
	}

	CHECK(in.opcode == rec[0]);
	CHECK(rec[1] == NCSYNC_RECORD_WORDLEN && !rec[2] && !rec[3]);
	check_insn(&in, nrecords, devmem);
	check_place(&in, index, nrecords);

	/* The same record decodes the same way, with any larger bounds. */
	CHECK(decode(rec, nrecords, devmem, &again) == NCSYNC_REC_OK);
	CHECK(!memcmp(&in, &again, sizeof(in)));
	CHECK(r2 == NCSYNC_REC_OK);

	check_encode(rec, enc, &in, nrecords, devmem);
	check_reserved(rec, enc, nrecords, devmem);
out:
	free(enc);
	free(rec);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t n = size / REC, rem = size % REC, i;
	const uint8_t *tail = data + n * REC;
	uint64_t devmem = 1 << 20;
	uint32_t nrecords = n;
	uint8_t p[12] = { 0 };

	if (!n)
		return 0;
	if (rem) {
		memcpy(p, tail, rem < sizeof(p) ? rem : sizeof(p));
		nrecords = get32(p);
		if (rem > 4)
			devmem = get32(p + 4) | (uint64_t)get32(p + 8) << 32;
	}
	for (i = 0; i < n; i++)
		one(data + i * REC, i, nrecords, devmem);
	return 0;
}
