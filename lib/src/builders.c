// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * libncsync: the record builders, byte for byte the runtime's add_* (SYNC,
 * ENC): each appends one 64-byte record to a stream and returns its index,
 * or a negative errno and appends nothing.
 *
 * Every record is checked with the shared validator (common/
 * ncsync_record.c) before it is appended, as far as it can be checked on
 * its own: branch targets are resolved by ncsync_program_finalize() and DMA
 * ranges are checked by the kernel against the device memory.
 */
#include <errno.h>
#include <string.h>

#include "internal.h"

void ncsync_put_u32(uint8_t *p, uint32_t v)
{
	p[0] = v;
	p[1] = v >> 8;
	p[2] = v >> 16;
	p[3] = v >> 24;
}

void ncsync_put_u64(uint8_t *p, uint64_t v)
{
	ncsync_put_u32(p, (uint32_t)v);
	ncsync_put_u32(p + 4, (uint32_t)(v >> 32));
}

uint32_t ncsync_get_u32(const uint8_t *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Zero @rec, stamp the header (SYNC setupHeader) and the events block. */
void ncsync_rec_init(uint8_t *rec, uint8_t opcode,
		     const struct ncsync_events *ev)
{
	memset(rec, 0, NCSYNC_RECORD_SIZE);
	rec[0] = opcode;
	rec[1] = NCSYNC_RECORD_WORDLEN;
	if (ev) {
		rec[NCSYNC_REC_EV_WAIT_MODE] = ev->wait_mode;
		rec[NCSYNC_REC_EV_WAIT_IDX] = ev->wait_idx;
		rec[NCSYNC_REC_EV_UPD_MODE] = ev->upd_mode;
		rec[NCSYNC_REC_EV_UPD_IDX] = ev->upd_idx;
		ncsync_put_u32(rec + NCSYNC_REC_EV_VALUE, ev->value);
	}
}

/* Check a record as far as it can be checked outside its program. */
int ncsync_check_isolated(const uint8_t *rec)
{
	struct ncsync_insn insn;

	if (ncsync_record_decode(rec, UINT32_MAX, UINT64_MAX, &insn))
		return -EINVAL;
	return 0;
}

/* Check @rec and append it to @s. */
static int ncsync_emit(struct ncsync_stream *s, const uint8_t *rec)
{
	int ret;

	if (!s)
		return -EINVAL;
	ret = ncsync_check_isolated(rec);
	if (ret)
		return ret;
	return ncsync_stream_put(s, rec);
}

/* An EventSemaphore with lane 1 (the extended block) filled in. */
static int ncsync_add_lane1(struct ncsync_stream *s,
			    const struct ncsync_events *ev,
			    uint8_t wait_mode, uint8_t wait_idx,
			    uint32_t wait_value, uint8_t upd_mode,
			    uint8_t upd_idx, uint32_t upd_value)
{
	uint8_t rec[NCSYNC_RECORD_SIZE];

	ncsync_rec_init(rec, NCSYNC_OPC_EVENT_SEMAPHORE, ev);
	rec[NCSYNC_REC_EX_WAIT_MODE] = wait_mode;
	rec[NCSYNC_REC_EX_WAIT_IDX] = wait_idx;
	rec[NCSYNC_REC_EX_UPD_MODE] = upd_mode;
	rec[NCSYNC_REC_EX_UPD_IDX] = upd_idx;
	ncsync_put_u32(rec + NCSYNC_REC_EX_WAIT_VALUE, wait_value);
	ncsync_put_u32(rec + NCSYNC_REC_EX_UPD_VALUE, upd_value);
	return ncsync_emit(s, rec);
}

int ncsync_add_evsem(struct ncsync_stream *s, const struct ncsync_events *ev,
		     uint8_t wait_mode, uint8_t wait_idx, uint32_t wait_value,
		     uint8_t upd_mode, uint8_t upd_idx, uint32_t upd_value)
{
	return ncsync_add_lane1(s, ev, wait_mode, wait_idx, wait_value,
				upd_mode, upd_idx, upd_value);
}

/*
 * SYNC "CORRECTION - the bare wait is a wait-and-decrement": comparator
 * 0x04 (GT) at +0x20 and subtype 0x14 (sem-dec) at +0x22 on the same
 * semaphore, threshold 0; the runtime stores the implicit 1 at +0x28.  The
 * wait and the update of one lane on one semaphore are one atomic step: a
 * counting-semaphore P().
 */
int ncsync_add_semaphore_wait(struct ncsync_stream *s, uint8_t sem)
{
	return ncsync_add_lane1(s, NULL, NCSYNC_WAIT_SEM_GT, sem, 0,
				NCSYNC_UPD_COMPLETE | NCSYNC_UPD_SEM_DEC, sem,
				1);
}

/* SYNC "the richest record": add_semaphore_wait_eq_and_inc @ 0x2739d0. */
int ncsync_add_semaphore_wait_eq_and_inc(struct ncsync_stream *s,
					 uint8_t sem, uint32_t value)
{
	return ncsync_add_lane1(s, NULL, NCSYNC_WAIT_SEM_EQ, sem, value,
				NCSYNC_UPD_COMPLETE | NCSYNC_UPD_SEM_INC, sem,
				1);
}

static bool ncsync_sem_cmp_valid(uint8_t mode)
{
	return mode >= NCSYNC_WAIT_SEM_EQ && mode <= NCSYNC_WAIT_SEM_GE;
}

int ncsync_add_semaphore_wait_cmp(struct ncsync_stream *s, uint8_t sem,
				  uint8_t mode, int32_t value)
{
	if (!ncsync_sem_cmp_valid(mode))
		return -EINVAL;
	return ncsync_add_lane1(s, NULL, mode, sem, (uint32_t)value, 0, 0, 0);
}

int ncsync_add_semaphore_wait_eq(struct ncsync_stream *s, uint8_t sem,
				 int32_t value)
{
	return ncsync_add_semaphore_wait_cmp(s, sem, NCSYNC_WAIT_SEM_EQ, value);
}

int ncsync_add_semaphore_wait_lt(struct ncsync_stream *s, uint8_t sem,
				 int32_t value)
{
	return ncsync_add_semaphore_wait_cmp(s, sem, NCSYNC_WAIT_SEM_LT, value);
}

int ncsync_add_semaphore_wait_le(struct ncsync_stream *s, uint8_t sem,
				 int32_t value)
{
	return ncsync_add_semaphore_wait_cmp(s, sem, NCSYNC_WAIT_SEM_LE, value);
}

int ncsync_add_semaphore_wait_gt(struct ncsync_stream *s, uint8_t sem,
				 int32_t value)
{
	return ncsync_add_semaphore_wait_cmp(s, sem, NCSYNC_WAIT_SEM_GT, value);
}

int ncsync_add_semaphore_wait_ge(struct ncsync_stream *s, uint8_t sem,
				 int32_t value)
{
	return ncsync_add_semaphore_wait_cmp(s, sem, NCSYNC_WAIT_SEM_GE, value);
}

/*
 * A compare with an engine register: @mode is 0x81-0x85, or 0x01-0x05
 * (the register flag is added).  The value field holds the register
 * number.
 */
int ncsync_add_semaphore_wait_reg(struct ncsync_stream *s, uint8_t sem,
				  uint8_t mode, uint8_t reg)
{
	if (!ncsync_sem_cmp_valid(mode & ~NCSYNC_WAIT_REG) ||
	    reg >= NCSYNC_NUM_REGS)
		return -EINVAL;
	return ncsync_add_lane1(s, NULL, mode | NCSYNC_WAIT_REG, sem, reg, 0,
				0, 0);
}

/* Updates: +0x28 is 1 for +1 and -1, as the runtime writes it. */
int ncsync_add_semaphore_inc(struct ncsync_stream *s, uint8_t sem)
{
	return ncsync_add_lane1(s, NULL, 0, 0, 0,
				NCSYNC_UPD_COMPLETE | NCSYNC_UPD_SEM_INC, sem,
				1);
}

int ncsync_add_semaphore_dec(struct ncsync_stream *s, uint8_t sem)
{
	return ncsync_add_lane1(s, NULL, 0, 0, 0,
				NCSYNC_UPD_COMPLETE | NCSYNC_UPD_SEM_DEC, sem,
				1);
}

int ncsync_add_semaphore_add(struct ncsync_stream *s, uint8_t sem,
			     uint32_t value)
{
	return ncsync_add_lane1(s, NULL, 0, 0, 0,
				NCSYNC_UPD_COMPLETE | NCSYNC_UPD_SEM_ADD, sem,
				value);
}

int ncsync_add_semaphore_sub(struct ncsync_stream *s, uint8_t sem,
			     uint32_t value)
{
	return ncsync_add_lane1(s, NULL, 0, 0, 0,
				NCSYNC_UPD_COMPLETE | NCSYNC_UPD_SEM_SUB, sem,
				value);
}

int ncsync_add_semaphore_set(struct ncsync_stream *s, uint8_t sem,
			     uint32_t value)
{
	return ncsync_add_lane1(s, NULL, 0, 0, 0,
				NCSYNC_UPD_COMPLETE | NCSYNC_UPD_SEM_WRITE, sem,
				value);
}

/* Events: the extended-block update 0x11/0x12 on the event index. */
int ncsync_add_event_set(struct ncsync_stream *s, uint8_t event)
{
	return ncsync_add_lane1(s, NULL, 0, 0, 0,
				NCSYNC_UPD_COMPLETE | NCSYNC_UPD_EVT_SET, event,
				0);
}

int ncsync_add_event_clear(struct ncsync_stream *s, uint8_t event)
{
	return ncsync_add_lane1(s, NULL, 0, 0, 0,
				NCSYNC_UPD_COMPLETE | NCSYNC_UPD_EVT_CLEAR,
				event, 0);
}

int ncsync_add_event_wait(struct ncsync_stream *s, uint8_t event,
			  uint8_t mode)
{
	if (!ncsync_wait_mode_is_event(mode))
		return -EINVAL;
	return ncsync_add_lane1(s, NULL, mode, event, 0, 0, 0, 0);
}

static int ncsync_add_plain(struct ncsync_stream *s, uint8_t opcode,
			    const struct ncsync_events *ev)
{
	uint8_t rec[NCSYNC_RECORD_SIZE];

	ncsync_rec_init(rec, opcode, ev);
	return ncsync_emit(s, rec);
}

/* lower_control's fence drain: count 1, a full drain (SYNC, ENC 5b). */
int ncsync_add_drain(struct ncsync_stream *s, const struct ncsync_events *ev)
{
	uint8_t rec[NCSYNC_RECORD_SIZE];

	ncsync_rec_init(rec, NCSYNC_OPC_DRAIN, ev);
	rec[NCSYNC_REC_DRAIN_COUNT] = 1;
	return ncsync_emit(s, rec);
}

int ncsync_add_halt(struct ncsync_stream *s, const struct ncsync_events *ev)
{
	return ncsync_add_plain(s, NCSYNC_OPC_HALT, ev);
}

int ncsync_add_nop(struct ncsync_stream *s, const struct ncsync_events *ev)
{
	return ncsync_add_plain(s, NCSYNC_OPC_NOOP, ev);
}

/* Exit with the flag byte +0x0C zero (the only value the model takes). */
int ncsync_add_exit(struct ncsync_stream *s, const struct ncsync_events *ev)
{
	return ncsync_add_plain(s, NCSYNC_OPC_EXIT, ev);
}

/* SYNC add_sema_clear: ClearMode 1, range first +0x0D .. last +0x0E. */
int ncsync_add_sema_clear(struct ncsync_stream *s, uint8_t first,
			  uint8_t last, const struct ncsync_events *ev)
{
	uint8_t rec[NCSYNC_RECORD_SIZE];

	if (first > last)
		return -EINVAL;
	ncsync_rec_init(rec, NCSYNC_OPC_GROUP_RESET, ev);
	rec[NCSYNC_REC_GR_CLEAR_MODE] = NCSYNC_CLEAR_RANGE;
	rec[NCSYNC_REC_GR_FIRST] = first;
	rec[NCSYNC_REC_GR_LAST] = last;
	return ncsync_emit(s, rec);
}

/* ClearMode 2: the 256-bit mask at +0x20, little-endian u32[8]. */
int ncsync_add_sema_clear_mask(struct ncsync_stream *s,
			       const uint32_t mask[8],
			       const struct ncsync_events *ev)
{
	uint8_t rec[NCSYNC_RECORD_SIZE];
	unsigned int i;

	if (!mask)
		return -EINVAL;
	ncsync_rec_init(rec, NCSYNC_OPC_GROUP_RESET, ev);
	rec[NCSYNC_REC_GR_CLEAR_MODE] = NCSYNC_CLEAR_MASK;
	for (i = 0; i < 8; i++)
		ncsync_put_u32(rec + NCSYNC_REC_GR_MASK + 4 * i, mask[i]);
	return ncsync_emit(s, rec);
}

int ncsync_add_poll_sem(struct ncsync_stream *s, uint8_t op, uint8_t dst,
			uint8_t first, uint8_t count,
			const struct ncsync_events *ev)
{
	uint8_t rec[NCSYNC_RECORD_SIZE];

	ncsync_rec_init(rec, NCSYNC_OPC_POLL_SEM, ev);
	rec[NCSYNC_REC_POLL_OP] = op;
	rec[NCSYNC_REC_POLL_DST] = dst;
	rec[NCSYNC_REC_POLL_FIRST] = first;
	rec[NCSYNC_REC_POLL_COUNT] = count;
	return ncsync_emit(s, rec);
}

int ncsync_add_mov32(struct ncsync_stream *s, uint8_t alu, uint8_t dst,
		     uint8_t src, uint32_t imm, const struct ncsync_events *ev)
{
	uint8_t rec[NCSYNC_RECORD_SIZE];

	ncsync_rec_init(rec, NCSYNC_OPC_MOV32, ev);
	rec[NCSYNC_REC_MOV_ALU] = alu;
	rec[NCSYNC_REC_MOV_DST] = dst;
	rec[NCSYNC_REC_MOV_SRC] = src;
	ncsync_put_u32(rec + NCSYNC_REC_MOV_IMM, imm);
	return ncsync_emit(s, rec);
}

int ncsync_add_mov32_imm(struct ncsync_stream *s, uint8_t dst, uint32_t imm,
			 const struct ncsync_events *ev)
{
	return ncsync_add_mov32(s, NCSYNC_ALU_MOV_IMM, dst, 0, imm, ev);
}

/*
 * A branch record; its target (+0x30, a record index) is written by
 * ncsync_program_finalize() from @label.
 */
int ncsync_add_branch_rec(struct ncsync_stream *s, uint8_t comp,
			  uint8_t dtype, uint8_t lhs, uint8_t rhs,
			  uint32_t imm, int label,
			  const struct ncsync_events *ev)
{
	uint8_t rec[NCSYNC_RECORD_SIZE];
	struct ncsync_program *prog;
	const struct ncsync_label *l;
	int idx, ret;

	if (!s)
		return -EINVAL;
	prog = s->prog;
	if (label < 0 || (unsigned int)label >= prog->nlabels)
		return -EINVAL;
	l = &prog->labels[label];
	if (l->bound && l->engine != s->engine)
		return -EXDEV;
	ncsync_rec_init(rec, NCSYNC_OPC_BRANCH, ev);
	rec[NCSYNC_REC_BR_COMP_OP] = comp;
	if (comp != NCSYNC_BR_ALWAYS) {
		rec[NCSYNC_REC_BR_DTYPE] = dtype;
		rec[NCSYNC_REC_BR_OPERAND_KIND] = NCSYNC_BR_OPERANDS;
		rec[NCSYNC_REC_BR_LHS_REG] = lhs;
		if (comp & NCSYNC_BR_REG)
			rec[NCSYNC_REC_BR_RHS_REG] = rhs;
		else
			ncsync_put_u32(rec + NCSYNC_REC_BR_IMM, imm);
	}
	ret = ncsync_check_isolated(rec);
	if (ret)
		return ret;
	ret = ncsync_fixup_add(prog, s->engine, s->count, label);
	if (ret)
		return ret;
	idx = ncsync_stream_put(s, rec);
	if (idx < 0)
		prog->nfixups--;
	return idx;
}

int ncsync_add_branch(struct ncsync_stream *s, int label,
		      const struct ncsync_events *ev)
{
	return ncsync_add_branch_rec(s, NCSYNC_BR_ALWAYS, 0, 0, 0, 0, label,
				     ev);
}

/* Compare register @lhs with @imm: @comp is 1-6 (LT LE EQ NE GE GT). */
int ncsync_add_branch_imm(struct ncsync_stream *s, uint8_t comp,
			  uint8_t dtype, uint8_t lhs, uint32_t imm, int label,
			  const struct ncsync_events *ev)
{
	if (comp < NCSYNC_BR_LT || comp > NCSYNC_BR_GT)
		return -EINVAL;
	return ncsync_add_branch_rec(s, comp, dtype, lhs, 0, imm, label, ev);
}

/* Compare registers @lhs and @rhs: @comp is 9-14, or 1-6 (8 is added). */
int ncsync_add_branch_reg(struct ncsync_stream *s, uint8_t comp,
			  uint8_t dtype, uint8_t lhs, uint8_t rhs, int label,
			  const struct ncsync_events *ev)
{
	uint8_t cmp = comp & ~NCSYNC_BR_REG;

	if (comp > (NCSYNC_BR_REG | NCSYNC_BR_GT) || cmp < NCSYNC_BR_LT ||
	    cmp > NCSYNC_BR_GT)
		return -EINVAL;
	return ncsync_add_branch_rec(s, cmp | NCSYNC_BR_REG, dtype, lhs, rhs, 0,
				     label, ev);
}

/*
 * A copy on the core's DMA queue (model-defined opcode 0xE0).  The
 * completion update (+1 on a semaphore, or an event set; either form)
 * rides the events block, +0x06/+0x07, and is applied when the copy lands;
 * @ev may carry a wait but no update of its own.
 */
int ncsync_add_dma(struct ncsync_stream *s, uint64_t src, uint64_t dst,
		   uint32_t len, uint32_t latency_us, uint8_t upd_mode,
		   uint8_t upd_idx, const struct ncsync_events *ev)
{
	uint8_t rec[NCSYNC_RECORD_SIZE];

	if (ev && upd_mode && (ev->upd_mode || ev->upd_idx))
		return -EINVAL;
	ncsync_rec_init(rec, NCSYNC_OPC_DMA, ev);
	if (upd_mode) {
		rec[NCSYNC_REC_EV_UPD_MODE] = upd_mode;
		rec[NCSYNC_REC_EV_UPD_IDX] = upd_idx;
	} else if (upd_idx) {
		return -EINVAL;
	}
	ncsync_put_u64(rec + NCSYNC_REC_DMA_SRC, src);
	ncsync_put_u64(rec + NCSYNC_REC_DMA_DST, dst);
	ncsync_put_u32(rec + NCSYNC_REC_DMA_LEN, len);
	ncsync_put_u32(rec + NCSYNC_REC_DMA_LATENCY_US, latency_us);
	return ncsync_emit(s, rec);
}

/*
 * The runtime's insert_events (@ 0x271910): store the 8-byte events block
 * at +0x04 of an existing record.  Unlike the runtime's blind store, a
 * block that is already in use is not overwritten (-EEXIST): that would
 * silently drop a wait or an update.  A NULL @ev clears the block, so a
 * caller that means to replace it clears it first.  The record must still
 * validate afterwards (-EINVAL, unchanged, otherwise); pseudo-ops carry
 * the block too (the lowering keeps it).
 */
int ncsync_insert_events(struct ncsync_stream *s, uint32_t index,
			 const struct ncsync_events *ev)
{
	static const uint8_t zero[8];
	uint8_t *rec, tmp[NCSYNC_RECORD_SIZE];

	if (!s)
		return -EINVAL;
	rec = ncsync_stream_record(s, index);
	if (!rec)
		return -EINVAL;
	if (s->prog->frozen)
		return -EBUSY;
	memcpy(tmp, rec, NCSYNC_RECORD_SIZE);
	if (ev && memcmp(tmp + NCSYNC_REC_EV_WAIT_MODE, zero, 8))
		return -EEXIST;
	tmp[NCSYNC_REC_EV_WAIT_MODE] = ev ? ev->wait_mode : 0;
	tmp[NCSYNC_REC_EV_WAIT_IDX] = ev ? ev->wait_idx : 0;
	tmp[NCSYNC_REC_EV_UPD_MODE] = ev ? ev->upd_mode : 0;
	tmp[NCSYNC_REC_EV_UPD_IDX] = ev ? ev->upd_idx : 0;
	ncsync_put_u32(tmp + NCSYNC_REC_EV_VALUE, ev ? ev->value : 0);
	if (ncsync_is_pseudo(tmp[0])) {
		/* Check the block alone, on a NoOp. */
		uint8_t nop[NCSYNC_RECORD_SIZE];

		ncsync_rec_init(nop, NCSYNC_OPC_NOOP, ev);
		if (ncsync_check_isolated(nop))
			return -EINVAL;
	} else if (ncsync_check_isolated(tmp)) {
		return -EINVAL;
	}
	memcpy(rec, tmp, NCSYNC_RECORD_SIZE);
	return (int)index;
}
