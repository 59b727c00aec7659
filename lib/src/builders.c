// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * libncsync: the record builders, byte for byte the runtime's add_* (SYNC,
 * ENC): each appends one 64-byte record to a stream and returns its index,
 * or a negative errno and appends nothing.
 *
 * Each builder fills a struct ncsync_insn, which the shared encoder
 * (common/ncsync_encode.c) turns into the record.  Every record is checked
 * with the shared validator (common/ncsync_record.c) before it is appended,
 * as far as it can be checked on its own: branch targets are resolved by
 * ncsync_program_finalize() and DMA ranges are checked by the kernel
 * against the device memory.  The events-block helpers at the end are
 * the lowering passes' too: they sit above the program representation
 * (program.c) and below everything else.
 */
#include <errno.h>
#include <string.h>

#include "internal.h"
#include "ncsync_optab.h"

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

/*
 * Lane 0 of @insn from the events block @ev, one value for both halves;
 * a NULL @ev leaves it as it is.
 */
void ncsync_insn_events(struct ncsync_insn *insn,
			const struct ncsync_events *ev)
{
	struct ncsync_lane *l0 = &insn->lane[0];

	if (!ev)
		return;
	l0->wait_mode = ev->wait_mode;
	l0->wait_idx = ev->wait_idx;
	l0->upd_mode = ev->upd_mode;
	l0->upd_idx = ev->upd_idx;
	l0->wait_value = ev->value;
	l0->upd_value = ev->value;
}

/* The header (SYNC setupHeader) and the events block, all else zero. */
void ncsync_rec_init(uint8_t *rec, uint8_t opcode,
		     const struct ncsync_events *ev)
{
	struct ncsync_insn insn = { .opcode = opcode };

	ncsync_insn_events(&insn, ev);
	ncsync_record_encode(&insn, rec);
}

/* Check a record as far as it can be checked outside its program. */
int ncsync_check_isolated(const uint8_t *rec)
{
	struct ncsync_insn insn;

	if (ncsync_record_decode(rec, UINT32_MAX, UINT64_MAX, &insn))
		return -EINVAL;
	return 0;
}

/* Encode @insn, check its record and append it to @s. */
int ncsync_add_insn(struct ncsync_stream *s, const struct ncsync_insn *insn)
{
	uint8_t rec[NCSYNC_RECORD_SIZE];
	int ret;

	if (!s)
		return -EINVAL;
	ncsync_record_encode(insn, rec);
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
	struct ncsync_insn insn = {
		.opcode = NCSYNC_OPC_EVENT_SEMAPHORE,
		.lane[1] = {
			.wait_mode = wait_mode, .wait_idx = wait_idx,
			.wait_value = wait_value, .upd_mode = upd_mode,
			.upd_idx = upd_idx, .upd_value = upd_value,
		},
	};

	ncsync_insn_events(&insn, ev);
	return ncsync_add_insn(s, &insn);
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

/* The five immediate compares, one line each (SYNC comparator set). */
#define NCSYNC_WAIT_CMP_BUILDER(name, mode)				\
int ncsync_add_semaphore_wait_##name(struct ncsync_stream *s, uint8_t sem, \
				     int32_t value)			\
{									\
	return ncsync_add_semaphore_wait_cmp(s, sem, mode, value);	\
}

NCSYNC_WAIT_CMP_BUILDER(eq, NCSYNC_WAIT_SEM_EQ)
NCSYNC_WAIT_CMP_BUILDER(lt, NCSYNC_WAIT_SEM_LT)
NCSYNC_WAIT_CMP_BUILDER(le, NCSYNC_WAIT_SEM_LE)
NCSYNC_WAIT_CMP_BUILDER(gt, NCSYNC_WAIT_SEM_GT)
NCSYNC_WAIT_CMP_BUILDER(ge, NCSYNC_WAIT_SEM_GE)

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
	struct ncsync_insn insn = { .opcode = opcode };

	ncsync_insn_events(&insn, ev);
	return ncsync_add_insn(s, &insn);
}

/* lower_control's fence drain: count 1, a full drain (SYNC, ENC 5b). */
int ncsync_add_drain(struct ncsync_stream *s, const struct ncsync_events *ev)
{
	struct ncsync_insn insn = {
		.opcode = NCSYNC_OPC_DRAIN, .drain = { .count = 1 },
	};

	ncsync_insn_events(&insn, ev);
	return ncsync_add_insn(s, &insn);
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
	struct ncsync_insn insn = {
		.opcode = NCSYNC_OPC_GROUP_RESET,
		.gr = { .mode = NCSYNC_CLEAR_RANGE, .first = first, .last = last },
	};

	if (first > last)
		return -EINVAL;
	ncsync_insn_events(&insn, ev);
	return ncsync_add_insn(s, &insn);
}

/* ClearMode 2: the 256-bit mask at +0x20, little-endian u32[8]. */
int ncsync_add_sema_clear_mask(struct ncsync_stream *s,
			       const uint32_t mask[8],
			       const struct ncsync_events *ev)
{
	struct ncsync_insn insn = {
		.opcode = NCSYNC_OPC_GROUP_RESET,
		.gr = { .mode = NCSYNC_CLEAR_MASK },
	};

	if (!mask)
		return -EINVAL;
	memcpy(insn.gr.mask, mask, sizeof(insn.gr.mask));
	ncsync_insn_events(&insn, ev);
	return ncsync_add_insn(s, &insn);
}

int ncsync_add_poll_sem(struct ncsync_stream *s, uint8_t op, uint8_t dst,
			uint8_t first, uint8_t count,
			const struct ncsync_events *ev)
{
	struct ncsync_insn insn = {
		.opcode = NCSYNC_OPC_POLL_SEM,
		.poll = { .op = op, .dst = dst, .first = first, .count = count },
	};

	ncsync_insn_events(&insn, ev);
	return ncsync_add_insn(s, &insn);
}

int ncsync_add_poll_sem_writeback(struct ncsync_stream *s, uint8_t dst,
				  uint8_t first, uint8_t count,
				  const struct ncsync_events *ev)
{
	struct ncsync_insn insn = {
		.opcode = NCSYNC_OPC_POLL_SEM,
		.poll = { .op = NCSYNC_POLL_MIN, .dst = dst, .first = first,
			  .count = count,
			  .writeback = NCSYNC_POLL_WB_NONZERO },
	};

	ncsync_insn_events(&insn, ev);
	return ncsync_add_insn(s, &insn);
}

int ncsync_add_mov32(struct ncsync_stream *s, uint8_t alu, uint8_t dst,
		     uint8_t src, uint32_t imm, const struct ncsync_events *ev)
{
	struct ncsync_insn insn = {
		.opcode = NCSYNC_OPC_MOV32,
		.mov = { .alu = alu, .dst = dst, .src = src, .imm = imm },
	};

	ncsync_insn_events(&insn, ev);
	return ncsync_add_insn(s, &insn);
}

int ncsync_add_mov32_imm(struct ncsync_stream *s, uint8_t dst, uint32_t imm,
			 const struct ncsync_events *ev)
{
	return ncsync_add_mov32(s, NCSYNC_ALU_MOV_IMM, dst, 0, imm, ev);
}

/*
 * The branch or hint @insn, whose target (a Branch's +0x30, a record
 * index; a BranchHint's +0x10, relative to the hint) is written by
 * ncsync_program_finalize() from @label: zero until then (a hint's zero
 * is itself).
 */
int ncsync_add_branch_insn(struct ncsync_stream *s,
			   const struct ncsync_insn *insn, int label)
{
	uint8_t rec[NCSYNC_RECORD_SIZE];
	struct ncsync_program *prog;
	const struct ncsync_label *l;
	struct ncsync_insn b = *insn;
	int idx, ret;

	if (!s)
		return -EINVAL;
	prog = s->prog;
	if (label < 0 || (unsigned int)label >= prog->nlabels)
		return -EINVAL;
	l = &prog->labels[label];
	if (l->bound && (l->engine != s->engine || l->fn != s->fn))
		return -EXDEV;
	if (ncsync_op(b.opcode)->form == NCSYNC_FORM_BR_HINT)
		b.hint.offset = 0;
	else
		b.br.target = 0;
	ncsync_record_encode(&b, rec);
	ret = ncsync_check_isolated(rec);
	if (ret)
		return ret;
	ret = ncsync_fixup_add(prog, s->engine, s->fn, s->count, label);
	if (ret)
		return ret;
	idx = ncsync_stream_put(s, rec);
	if (idx < 0)
		prog->nfixups--;
	return idx;
}

/* A branch of comparison @comp: only the operands it uses are kept. */
static int ncsync_add_branch_cmp(struct ncsync_stream *s, uint8_t comp,
				 uint8_t dtype, uint8_t lhs, uint8_t rhs,
				 uint32_t imm, int label,
				 const struct ncsync_events *ev)
{
	struct ncsync_insn insn = {
		.opcode = NCSYNC_OPC_BRANCH, .br = { .comp = comp },
	};

	ncsync_insn_events(&insn, ev);
	if (comp != NCSYNC_BR_ALWAYS) {
		insn.br.dtype = dtype;
		insn.br.lhs = lhs;
		if (comp & NCSYNC_BR_REG)
			insn.br.rhs = rhs;
		else
			insn.br.imm = imm;
	}
	return ncsync_add_branch_insn(s, &insn, label);
}

int ncsync_add_branch(struct ncsync_stream *s, int label,
		      const struct ncsync_events *ev)
{
	return ncsync_add_branch_cmp(s, NCSYNC_BR_ALWAYS, 0, 0, 0, 0, label,
				     ev);
}

/* Compare register @lhs with @imm: @comp is 1-6 (LT LE EQ NE GE GT). */
int ncsync_add_branch_imm(struct ncsync_stream *s, uint8_t comp,
			  uint8_t dtype, uint8_t lhs, uint32_t imm, int label,
			  const struct ncsync_events *ev)
{
	if (comp < NCSYNC_BR_LT || comp > NCSYNC_BR_GT)
		return -EINVAL;
	return ncsync_add_branch_cmp(s, comp, dtype, lhs, 0, imm, label, ev);
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
	return ncsync_add_branch_cmp(s, cmp | NCSYNC_BR_REG, dtype, lhs, rhs, 0,
				     label, ev);
}

/*
 * The runtime's add_br_hint_rel_imm: a BranchHint (0xE1) whose relative
 * immediate (+0x10) is written by ncsync_program_finalize() from @label,
 * as a branch's target is (Documentation/ncsync/records.rst, "BranchHint
 * (0xE1)").
 */
int ncsync_add_br_hint_rel_imm(struct ncsync_stream *s, int label,
			       const struct ncsync_events *ev)
{
	struct ncsync_insn insn = { .opcode = NCSYNC_OPC_BR_HINT };

	ncsync_insn_events(&insn, ev);
	return ncsync_add_branch_insn(s, &insn, label);
}

/*
 * A copy on the core's DMA queue (model-defined opcode 0xE0).  The
 * completion update (+1 on a semaphore, or an event set; either form)
 * rides the events block, +0x06/+0x07, and is applied when the copy lands;
 * @ev may carry a wait but no update of its own.
 */
static int ncsync_add_dma_insn(struct ncsync_stream *s,
			       struct ncsync_insn *insn, uint8_t upd_mode,
			       uint8_t upd_idx, const struct ncsync_events *ev)
{
	if ((ev && upd_mode && (ev->upd_mode || ev->upd_idx)) ||
	    (!upd_mode && upd_idx))
		return -EINVAL;
	ncsync_insn_events(insn, ev);
	if (upd_mode) {
		insn->lane[0].upd_mode = upd_mode;
		insn->lane[0].upd_idx = upd_idx;
	}
	return ncsync_add_insn(s, insn);
}

int ncsync_add_dma(struct ncsync_stream *s, uint64_t src, uint64_t dst,
		   uint32_t len, uint32_t latency_us, uint8_t upd_mode,
		   uint8_t upd_idx, const struct ncsync_events *ev)
{
	struct ncsync_insn insn = {
		.opcode = NCSYNC_OPC_DMA,
		.dma = { .src = src, .dst = dst, .len = len,
			 .latency_us = latency_us },
	};

	return ncsync_add_dma_insn(s, &insn, upd_mode, upd_idx, ev);
}

/*
 * A copy whose completion update lands on the core at position @peer of
 * the issuer's logical core (NCSYNC_DMA_F_PEER): how one core signals
 * another.  The update is required; the kernel refuses a @peer beyond the
 * logical core at submission (NCSYNC_REC_DMA_PEER_OUTSIDE).
 */
int ncsync_add_dma_peer(struct ncsync_stream *s, uint8_t peer, uint64_t src,
			uint64_t dst, uint32_t len, uint32_t latency_us,
			uint8_t upd_mode, uint8_t upd_idx,
			const struct ncsync_events *ev)
{
	struct ncsync_insn insn = {
		.opcode = NCSYNC_OPC_DMA,
		.dma = { .src = src, .dst = dst, .len = len,
			 .latency_us = latency_us, .flags = NCSYNC_DMA_F_PEER,
			 .peer = peer },
	};

	if (!upd_mode)
		return -EINVAL;
	return ncsync_add_dma_insn(s, &insn, upd_mode, upd_idx, ev);
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
	uint8_t *rec, tmp[NCSYNC_RECORD_SIZE], nop[NCSYNC_RECORD_SIZE];

	if (!s)
		return -EINVAL;
	rec = ncsync_stream_at(s, index);
	if (!rec)
		return -EINVAL;
	if (s->prog->frozen)
		return -EBUSY;
	memcpy(tmp, rec, NCSYNC_RECORD_SIZE);
	if (ev && memcmp(tmp + NCSYNC_REC_EV_WAIT_MODE, zero, sizeof(zero)))
		return -EEXIST;
	/*
	 * The block as the encoder writes it, on a NoOp: the record a
	 * pseudo-op's block is checked on.
	 */
	ncsync_rec_init(nop, NCSYNC_OPC_NOOP, ev);
	memcpy(tmp + NCSYNC_REC_EV_WAIT_MODE, nop + NCSYNC_REC_EV_WAIT_MODE,
	       sizeof(zero));
	if (ncsync_check_isolated(ncsync_is_pseudo(tmp[0]) ? nop : tmp))
		return -EINVAL;
	memcpy(rec, tmp, NCSYNC_RECORD_SIZE);
	return (int)index;
}

/* Whether @ev (NULL or an events block) is empty. */
bool ncsync_events_zero(const struct ncsync_events *ev)
{
	return !ev || (!ev->wait_mode && !ev->wait_idx && !ev->upd_mode &&
		       !ev->upd_idx && !ev->value);
}

/* The events block of the record @rec into @ev. */
void ncsync_events_get(const uint8_t *rec, struct ncsync_events *ev)
{
	ev->wait_mode = rec[NCSYNC_REC_EV_WAIT_MODE];
	ev->wait_idx = rec[NCSYNC_REC_EV_WAIT_IDX];
	ev->upd_mode = rec[NCSYNC_REC_EV_UPD_MODE];
	ev->upd_idx = rec[NCSYNC_REC_EV_UPD_IDX];
	ev->value = ncsync_get_u32(rec + NCSYNC_REC_EV_VALUE);
}

/*
 * The two halves of a pseudo-op's events block: its wait (with the
 * threshold when the wait has one) and its update (with the operand when
 * the update has one).
 */
void ncsync_events_split(const struct ncsync_events *ev,
			 struct ncsync_events *wait,
			 struct ncsync_events *upd)
{
	uint8_t base = ev->upd_mode & 0x0F;

	memset(wait, 0, sizeof(*wait));
	memset(upd, 0, sizeof(*upd));
	wait->wait_mode = ev->wait_mode;
	wait->wait_idx = ev->wait_idx;
	if (ncsync_wait_mode_is_sem(ev->wait_mode))
		wait->value = ev->value;
	upd->upd_mode = ev->upd_mode;
	upd->upd_idx = ev->upd_idx;
	if (ev->upd_mode && (base == NCSYNC_UPD_SEM_ADD ||
			     base == NCSYNC_UPD_SEM_SUB ||
			     base == NCSYNC_UPD_SEM_WRITE))
		upd->value = ev->value;
}
