// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Encoding of the 64-byte record, the inverse of ncsync_record_decode():
 * written once and compiled into the module, the library and the fuzzers.
 * Freestanding C.  See ncsync_record.h and Documentation/ncsync/records.rst.
 */
#include "ncsync_optab.h"

/*
 * Every field of struct ncsync_record is at the offset of its NCSYNC_REC_*
 * constant, and every view is the whole record: a bit-field of negative
 * width does not compile (the uapi header checks the size the same way).
 * Here rather than in the header, which has no offsetof(): every build of
 * common/ (the module, the library, the fuzzers, KUnit) checks it.
 */
#define NCSYNC_REC_CHECK(cond)		unsigned int : (cond) ? 1 : -1
#define NCSYNC_REC_AT(field, off)					\
	NCSYNC_REC_CHECK(offsetof(struct ncsync_record, field) == (off))
#define NCSYNC_REC_VIEW(type)						\
	NCSYNC_REC_CHECK(sizeof(type) == NCSYNC_RECORD_SIZE)

struct ncsync_record_layout_check {
	NCSYNC_REC_VIEW(struct ncsync_record);
	NCSYNC_REC_VIEW(struct ncsync_rec_evsem);
	NCSYNC_REC_VIEW(struct ncsync_rec_drain);
	NCSYNC_REC_VIEW(struct ncsync_rec_branch);
	NCSYNC_REC_VIEW(struct ncsync_rec_br_hint);
	NCSYNC_REC_VIEW(struct ncsync_rec_group_reset);
	NCSYNC_REC_VIEW(struct ncsync_rec_mov32);
	NCSYNC_REC_VIEW(struct ncsync_rec_poll_sem);
	NCSYNC_REC_VIEW(struct ncsync_rec_exit);
	NCSYNC_REC_VIEW(struct ncsync_rec_dma);
	NCSYNC_REC_AT(head.opcode, 0x00);
	NCSYNC_REC_AT(head.wordlen, 0x01);
	NCSYNC_REC_AT(head.reserved, 0x02);
	NCSYNC_REC_AT(head.ev_wait_mode, NCSYNC_REC_EV_WAIT_MODE);
	NCSYNC_REC_AT(head.ev_wait_idx, NCSYNC_REC_EV_WAIT_IDX);
	NCSYNC_REC_AT(head.ev_upd_mode, NCSYNC_REC_EV_UPD_MODE);
	NCSYNC_REC_AT(head.ev_upd_idx, NCSYNC_REC_EV_UPD_IDX);
	NCSYNC_REC_AT(head.ev_value, NCSYNC_REC_EV_VALUE);
	NCSYNC_REC_AT(evsem.ex_wait_mode, NCSYNC_REC_EX_WAIT_MODE);
	NCSYNC_REC_AT(evsem.ex_wait_idx, NCSYNC_REC_EX_WAIT_IDX);
	NCSYNC_REC_AT(evsem.ex_upd_mode, NCSYNC_REC_EX_UPD_MODE);
	NCSYNC_REC_AT(evsem.ex_upd_idx, NCSYNC_REC_EX_UPD_IDX);
	NCSYNC_REC_AT(evsem.ex_wait_value, NCSYNC_REC_EX_WAIT_VALUE);
	NCSYNC_REC_AT(evsem.ex_upd_value, NCSYNC_REC_EX_UPD_VALUE);
	NCSYNC_REC_AT(drain.count, NCSYNC_REC_DRAIN_COUNT);
	NCSYNC_REC_AT(br.comp_op, NCSYNC_REC_BR_COMP_OP);
	NCSYNC_REC_AT(br.dtype, NCSYNC_REC_BR_DTYPE);
	NCSYNC_REC_AT(br.operand_kind, NCSYNC_REC_BR_OPERAND_KIND);
	NCSYNC_REC_AT(br.imm, NCSYNC_REC_BR_IMM);
	NCSYNC_REC_AT(br.lhs_reg, NCSYNC_REC_BR_LHS_REG);
	NCSYNC_REC_AT(br.rhs_reg, NCSYNC_REC_BR_RHS_REG);
	NCSYNC_REC_AT(br.target, NCSYNC_REC_BR_TARGET);
	NCSYNC_REC_AT(hint.offset, NCSYNC_REC_HINT_OFFSET);
	NCSYNC_REC_AT(gr.clear_mode, NCSYNC_REC_GR_CLEAR_MODE);
	NCSYNC_REC_AT(gr.first, NCSYNC_REC_GR_FIRST);
	NCSYNC_REC_AT(gr.last, NCSYNC_REC_GR_LAST);
	NCSYNC_REC_AT(gr.mask, NCSYNC_REC_GR_MASK);
	NCSYNC_REC_AT(exit.flags, NCSYNC_REC_EXIT_FLAGS);
	NCSYNC_REC_AT(mov.alu, NCSYNC_REC_MOV_ALU);
	NCSYNC_REC_AT(mov.dst, NCSYNC_REC_MOV_DST);
	NCSYNC_REC_AT(mov.src, NCSYNC_REC_MOV_SRC);
	NCSYNC_REC_AT(mov.imm, NCSYNC_REC_MOV_IMM);
	NCSYNC_REC_AT(poll.op, NCSYNC_REC_POLL_OP);
	NCSYNC_REC_AT(poll.dst, NCSYNC_REC_POLL_DST);
	NCSYNC_REC_AT(poll.first, NCSYNC_REC_POLL_FIRST);
	NCSYNC_REC_AT(poll.count, NCSYNC_REC_POLL_COUNT);
	NCSYNC_REC_AT(poll.writeback, NCSYNC_REC_POLL_WRITEBACK);
	NCSYNC_REC_AT(dma.src, NCSYNC_REC_DMA_SRC);
	NCSYNC_REC_AT(dma.dst, NCSYNC_REC_DMA_DST);
	NCSYNC_REC_AT(dma.len, NCSYNC_REC_DMA_LEN);
	NCSYNC_REC_AT(dma.latency_us, NCSYNC_REC_DMA_LATENCY_US);
	NCSYNC_REC_AT(dma.flags, NCSYNC_REC_DMA_FLAGS);
	NCSYNC_REC_AT(dma.peer, NCSYNC_REC_DMA_PEER);
	unsigned int checked : 1;	/* a named member, as C wants */
};

/* @n bytes of @v, little-endian. */
static void put_le(__u8 *p, __u64 v, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		p[i] = (__u8)(v >> (8 * i));
}

/*
 * Lane 0 has one value field: the wait's, or the update's without one.
 * Lane 1 is written for an opcode of two lanes (EventSemaphore).
 */
void ncsync_lanes_encode(const struct ncsync_insn *insn, __u8 nlanes,
			 __u8 *rec)
{
	const struct ncsync_lane *l0 = &insn->lane[0], *l1 = &insn->lane[1];

	rec[NCSYNC_REC_EV_WAIT_MODE] = l0->wait_mode;
	rec[NCSYNC_REC_EV_WAIT_IDX] = l0->wait_idx;
	rec[NCSYNC_REC_EV_UPD_MODE] = l0->upd_mode;
	rec[NCSYNC_REC_EV_UPD_IDX] = l0->upd_idx;
	put_le(rec + NCSYNC_REC_EV_VALUE,
	       l0->wait_mode ? l0->wait_value : l0->upd_value, 4);
	if (nlanes < 2)
		return;
	rec[NCSYNC_REC_EX_WAIT_MODE] = l1->wait_mode;
	rec[NCSYNC_REC_EX_WAIT_IDX] = l1->wait_idx;
	rec[NCSYNC_REC_EX_UPD_MODE] = l1->upd_mode;
	rec[NCSYNC_REC_EX_UPD_IDX] = l1->upd_idx;
	put_le(rec + NCSYNC_REC_EX_WAIT_VALUE, l1->wait_value, 4);
	put_le(rec + NCSYNC_REC_EX_UPD_VALUE, l1->upd_value, 4);
}

/* Branch: the operand kind follows from the comparison. */
void ncsync_encode_br(const struct ncsync_insn *insn, __u8 *rec)
{
	rec[NCSYNC_REC_BR_COMP_OP] = insn->br.comp;
	rec[NCSYNC_REC_BR_DTYPE] = insn->br.dtype;
	rec[NCSYNC_REC_BR_OPERAND_KIND] =
		insn->br.comp == NCSYNC_BR_ALWAYS ? 0 : NCSYNC_BR_OPERANDS;
	put_le(rec + NCSYNC_REC_BR_IMM, insn->br.imm, 4);
	rec[NCSYNC_REC_BR_LHS_REG] = insn->br.lhs;
	rec[NCSYNC_REC_BR_RHS_REG] = insn->br.rhs;
	put_le(rec + NCSYNC_REC_BR_TARGET, insn->br.target, 8);
}

/* BranchHint: the offset, two's complement. */
void ncsync_encode_hint(const struct ncsync_insn *insn, __u8 *rec)
{
	put_le(rec + NCSYNC_REC_HINT_OFFSET, (__u32)insn->hint.offset, 4);
}

/*
 * GroupResetSemaphores: the range form's mask is the decoder's expansion
 * of the range.
 */
void ncsync_encode_gr(const struct ncsync_insn *insn, __u8 *rec)
{
	unsigned int i;

	rec[NCSYNC_REC_GR_CLEAR_MODE] = insn->gr.mode;
	rec[NCSYNC_REC_GR_FIRST] = insn->gr.first;
	rec[NCSYNC_REC_GR_LAST] = insn->gr.last;
	if (insn->gr.mode == NCSYNC_CLEAR_RANGE)
		return;
	for (i = 0; i < 8; i++)
		put_le(rec + NCSYNC_REC_GR_MASK + 4 * i, insn->gr.mask[i], 4);
}

/* Drain: its count. */
void ncsync_encode_drain(const struct ncsync_insn *insn, __u8 *rec)
{
	rec[NCSYNC_REC_DRAIN_COUNT] = insn->drain.count;
}

/* Mov32: the ALU operation, registers and immediate. */
void ncsync_encode_mov(const struct ncsync_insn *insn, __u8 *rec)
{
	rec[NCSYNC_REC_MOV_ALU] = insn->mov.alu;
	rec[NCSYNC_REC_MOV_DST] = insn->mov.dst;
	rec[NCSYNC_REC_MOV_SRC] = insn->mov.src;
	put_le(rec + NCSYNC_REC_MOV_IMM, insn->mov.imm, 4);
}

/* PollSem: operation, register, range, write-back. */
void ncsync_encode_poll(const struct ncsync_insn *insn, __u8 *rec)
{
	rec[NCSYNC_REC_POLL_OP] = insn->poll.op;
	rec[NCSYNC_REC_POLL_DST] = insn->poll.dst;
	rec[NCSYNC_REC_POLL_FIRST] = insn->poll.first;
	rec[NCSYNC_REC_POLL_COUNT] = insn->poll.count;
	rec[NCSYNC_REC_POLL_WRITEBACK] = insn->poll.writeback;
}

/* DMA: the copy, its latency, flags and peer. */
void ncsync_encode_dma(const struct ncsync_insn *insn, __u8 *rec)
{
	put_le(rec + NCSYNC_REC_DMA_SRC, insn->dma.src, 8);
	put_le(rec + NCSYNC_REC_DMA_DST, insn->dma.dst, 8);
	put_le(rec + NCSYNC_REC_DMA_LEN, insn->dma.len, 4);
	put_le(rec + NCSYNC_REC_DMA_LATENCY_US, insn->dma.latency_us, 4);
	rec[NCSYNC_REC_DMA_FLAGS] = insn->dma.flags;
	rec[NCSYNC_REC_DMA_PEER] = insn->dma.peer;
}
