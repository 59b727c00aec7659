// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Decoding and validation of the 64-byte record
 * (Documentation/ncsync/records.rst; ENC, SYNC).  See ncsync_record.h.
 */
#include "ncsync_optab.h"

static __u32 get_u32(const __u8 *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (__u32)p[3] << 24;
}

static __u64 get_u64(const __u8 *p)
{
	return get_u32(p) | (__u64)get_u32(p + 4) << 32;
}

/*
 * The bytes each opcode names beyond the header (0x00-0x03) and the events
 * block (0x04-0x0B), which every opcode has: the layouts of the opcode
 * table (ncsync_optab.h).
 */
const struct ncsync_span ncsync_layout_none[] = { { 0, 0 } };
const struct ncsync_span ncsync_layout_evsem[] = { { 0x20, 0x2B }, { 0, 0 } };
const struct ncsync_span ncsync_layout_drain[] = { { 0x28, 0x28 }, { 0, 0 } };
const struct ncsync_span ncsync_layout_mov[] = {
	{ 0x0C, 0x0E }, { 0x10, 0x13 }, { 0, 0 } };
const struct ncsync_span ncsync_layout_br[] = {
	{ 0x0C, 0x0E }, { 0x10, 0x13 }, { 0x20, 0x21 }, { 0x30, 0x37 },
	{ 0, 0 } };
const struct ncsync_span ncsync_layout_hint[] = { { 0x10, 0x13 }, { 0, 0 } };
const struct ncsync_span ncsync_layout_gr[] = {
	{ 0x0C, 0x0E }, { 0x20, 0x3F }, { 0, 0 } };
const struct ncsync_span ncsync_layout_poll[] = { { 0x0C, 0x10 }, { 0, 0 } };
const struct ncsync_span ncsync_layout_exit[] = { { 0x0C, 0x0C }, { 0, 0 } };
const struct ncsync_span ncsync_layout_dma[] = {
	{ 0x0C, 0x0D }, { 0x10, 0x27 }, { 0, 0 } };

/* Whether every byte from 0x0C that @named does not name is zero. */
bool ncsync_reserved_clear(const __u8 *rec, const struct ncsync_span *named)
{
	unsigned int i;

	for (i = 0x0C; i < NCSYNC_RECORD_SIZE; i++) {
		const struct ncsync_span *s;
		bool is_named = false;

		for (s = named; s->last; s++)
			if (i >= s->first && i <= s->last)
				is_named = true;
		if (!is_named && rec[i])
			return false;
	}
	return true;
}

/**
 * ncsync_upd_is_sem() - whether an update mode changes a semaphore.
 * @mode: an update mode as encoded.
 *
 * Return: true for +1, -1, add, subtract and write, any form.
 */
bool ncsync_upd_is_sem(__u8 mode)
{
	switch (mode & 0x0F) {
	case NCSYNC_UPD_SEM_INC:
	case NCSYNC_UPD_SEM_DEC:
	case NCSYNC_UPD_SEM_ADD:
	case NCSYNC_UPD_SEM_SUB:
	case NCSYNC_UPD_SEM_WRITE:
		return mode != NCSYNC_UPD_NONE;
	default:
		return false;
	}
}

/**
 * ncsync_upd_is_event() - whether an update mode sets or clears an event.
 * @mode: an update mode as encoded.
 *
 * Return: true for event set and clear, either form.
 */
bool ncsync_upd_is_event(__u8 mode)
{
	__u8 base = mode & 0x0F;

	return mode != NCSYNC_UPD_NONE &&
	       (base == NCSYNC_UPD_EVT_SET || base == NCSYNC_UPD_EVT_CLEAR);
}

/**
 * ncsync_upd_sem_arith() - the arithmetic of a semaphore update mode.
 * @mode: a semaphore update mode (ncsync_upd_is_sem()).
 * @operand: in: the resolved operand; out: 1 for +1 and -1.
 *
 * Return: the arithmetic.
 */
enum ncsync_sem_upd ncsync_upd_sem_arith(__u8 mode, __u32 *operand)
{
	switch (mode & 0x0F) {
	case NCSYNC_UPD_SEM_INC:
		*operand = 1;
		return NCSYNC_SEM_UPD_ADD;
	case NCSYNC_UPD_SEM_DEC:
		*operand = 1;
		return NCSYNC_SEM_UPD_SUB;
	case NCSYNC_UPD_SEM_ADD:
		return NCSYNC_SEM_UPD_ADD;
	case NCSYNC_UPD_SEM_SUB:
		return NCSYNC_SEM_UPD_SUB;
	default:
		return NCSYNC_SEM_UPD_SET;
	}
}

/**
 * ncsync_wait_op_decode() - what a valid wait mode does.
 * @mode: NCSYNC_WAIT_NONE, or a semaphore or event wait mode, as encoded.
 * @index: the semaphore or event.
 * @value: the threshold, or the register number of a register form.
 * @w: out: the wait.
 */
void ncsync_wait_op_decode(__u8 mode, __u8 index, __u32 value,
			   struct ncsync_wait_op *w)
{
	static const __u8 cmp[] = {
		[NCSYNC_WAIT_SEM_EQ] = NCSYNC_CMP_EQ,
		[NCSYNC_WAIT_SEM_LT] = NCSYNC_CMP_LT,
		[NCSYNC_WAIT_SEM_LE] = NCSYNC_CMP_LE,
		[NCSYNC_WAIT_SEM_GT] = NCSYNC_CMP_GT,
		[NCSYNC_WAIT_SEM_GE] = NCSYNC_CMP_GE,
	};

	*w = (struct ncsync_wait_op){ .index = index, .value = value };
	w->active = mode != NCSYNC_WAIT_NONE;
	if (ncsync_wait_mode_is_sem(mode)) {
		w->bank = NCSYNC_BANK_SEM;
		w->cmp = cmp[mode & ~NCSYNC_WAIT_REG];
		w->reg = mode & NCSYNC_WAIT_REG;
		return;
	}
	w->bank = NCSYNC_BANK_EVENT;
	w->want = mode == NCSYNC_WAIT_EVT_SET ||
		  mode == NCSYNC_WAIT_EVT_SET_THEN_CLEAR;
	if (mode == NCSYNC_WAIT_EVT_SET_THEN_CLEAR)
		w->then = NCSYNC_THEN_CLEAR;
	else if (mode == NCSYNC_WAIT_EVT_CLEAR_THEN_SET)
		w->then = NCSYNC_THEN_SET;
}

/**
 * ncsync_update_op_decode() - what a valid update mode does.
 * @mode: NCSYNC_UPD_NONE, or a semaphore or event update mode, as encoded.
 * @index: the semaphore or event.
 * @value: the operand, or the register number of a register form.
 * @u: out: the update; +1 and -1 become an add and a subtract of 1.
 */
void ncsync_update_op_decode(__u8 mode, __u8 index, __u32 value,
			     struct ncsync_update_op *u)
{
	*u = (struct ncsync_update_op){ .index = index, .operand = value };
	u->active = mode != NCSYNC_UPD_NONE;
	if (ncsync_upd_is_event(mode)) {
		u->bank = NCSYNC_BANK_EVENT;
		u->set = (mode & 0x0F) == NCSYNC_UPD_EVT_SET;
		u->operand = 0;
		return;
	}
	u->bank = NCSYNC_BANK_SEM;
	u->reg = mode & NCSYNC_UPD_REG;
	u->op = ncsync_upd_sem_arith(mode, &u->operand);
}

/**
 * ncsync_wait_op_mode() - the encoded mode of a wait.
 * @w: the wait, from ncsync_wait_op_decode().
 *
 * Return: its NCSYNC_WAIT_* mode, or NCSYNC_WAIT_NONE.
 */
__u8 ncsync_wait_op_mode(const struct ncsync_wait_op *w)
{
	if (!w->active)
		return NCSYNC_WAIT_NONE;
	if (w->bank == NCSYNC_BANK_SEM)
		return (NCSYNC_WAIT_SEM_EQ + w->cmp) |
		       (w->reg ? NCSYNC_WAIT_REG : 0);
	if (w->then == NCSYNC_THEN_CLEAR)
		return NCSYNC_WAIT_EVT_SET_THEN_CLEAR;
	if (w->then == NCSYNC_THEN_SET)
		return NCSYNC_WAIT_EVT_CLEAR_THEN_SET;
	return w->want ? NCSYNC_WAIT_EVT_SET : NCSYNC_WAIT_EVT_CLEAR;
}

static bool ncsync_wait_mode_valid(__u8 mode)
{
	return mode == NCSYNC_WAIT_NONE || ncsync_wait_mode_is_sem(mode) ||
	       ncsync_wait_mode_is_event(mode);
}

static bool ncsync_upd_mode_valid(__u8 mode)
{
	__u8 base = mode & 0x0F, form = mode & 0x70;

	if (mode == NCSYNC_UPD_NONE)
		return true;
	if (form != 0 && form != NCSYNC_UPD_COMPLETE)
		return false;
	if (mode & NCSYNC_UPD_REG)
		return base == NCSYNC_UPD_SEM_ADD || base == NCSYNC_UPD_SEM_SUB ||
		       base == NCSYNC_UPD_SEM_WRITE;
	return ncsync_upd_is_sem(mode) || ncsync_upd_is_event(mode);
}

/* Validate one lane; the wait and update share @value in lane 0. */
static enum ncsync_rec_reason ncsync_lane_check(struct ncsync_lane *l,
						bool evsem)
{
	if (!ncsync_wait_mode_valid(l->wait_mode) ||
	    (ncsync_wait_mode_is_event(l->wait_mode) &&
	     (l->wait_mode & NCSYNC_WAIT_REG)))
		return NCSYNC_REC_BAD_WAIT_MODE;
	if (!ncsync_upd_mode_valid(l->upd_mode))
		return NCSYNC_REC_BAD_UPDATE_MODE;
	if (evsem && l->upd_mode && !(l->upd_mode & NCSYNC_UPD_COMPLETE))
		return NCSYNC_REC_UPDATE_NOT_COMPLETE;
	if ((l->wait_mode & NCSYNC_WAIT_REG) &&
	    l->wait_value >= NCSYNC_NUM_REGS)
		return NCSYNC_REC_BAD_REGISTER;
	if ((l->upd_mode & NCSYNC_UPD_REG) && l->upd_value >= NCSYNC_NUM_REGS)
		return NCSYNC_REC_BAD_REGISTER;
	if (!l->wait_mode && l->wait_idx)
		return NCSYNC_REC_UNUSED_FIELD;
	if (!l->upd_mode && l->upd_idx)
		return NCSYNC_REC_UNUSED_FIELD;
	ncsync_wait_op_decode(l->wait_mode, l->wait_idx, l->wait_value,
			      &l->wait);
	ncsync_update_op_decode(l->upd_mode, l->upd_idx, l->upd_value,
				&l->upd);
	l->paired = l->wait.active && l->upd.active &&
		    l->wait.bank == NCSYNC_BANK_SEM &&
		    l->upd.bank == NCSYNC_BANK_SEM &&
		    l->wait.index == l->upd.index;
	return NCSYNC_REC_OK;
}

/* The lanes of an opcode of @nlanes lanes: only EventSemaphore has two. */
enum ncsync_rec_reason ncsync_lanes_decode(const __u8 *rec, __u8 nlanes,
					   struct ncsync_insn *insn)
{
	struct ncsync_lane *l0 = &insn->lane[0], *l1 = &insn->lane[1];
	bool evsem = nlanes == 2;
	enum ncsync_rec_reason r;

	l0->wait_mode = rec[NCSYNC_REC_EV_WAIT_MODE];
	l0->wait_idx = rec[NCSYNC_REC_EV_WAIT_IDX];
	l0->upd_mode = rec[NCSYNC_REC_EV_UPD_MODE];
	l0->upd_idx = rec[NCSYNC_REC_EV_UPD_IDX];
	l0->wait_value = get_u32(rec + NCSYNC_REC_EV_VALUE);
	l0->upd_value = l0->wait_value;
	r = ncsync_lane_check(l0, evsem);
	if (r)
		return r;
	if (!l0->wait_mode && !l0->upd_mode && l0->wait_value)
		return NCSYNC_REC_UNUSED_FIELD;

	insn->nlanes = nlanes;
	if (!evsem)
		return NCSYNC_REC_OK;
	l1->wait_mode = rec[NCSYNC_REC_EX_WAIT_MODE];
	l1->wait_idx = rec[NCSYNC_REC_EX_WAIT_IDX];
	l1->upd_mode = rec[NCSYNC_REC_EX_UPD_MODE];
	l1->upd_idx = rec[NCSYNC_REC_EX_UPD_IDX];
	l1->wait_value = get_u32(rec + NCSYNC_REC_EX_WAIT_VALUE);
	l1->upd_value = get_u32(rec + NCSYNC_REC_EX_UPD_VALUE);
	r = ncsync_lane_check(l1, evsem);
	if (r)
		return r;
	if ((!l1->wait_mode && l1->wait_value) ||
	    (!l1->upd_mode && l1->upd_value))
		return NCSYNC_REC_UNUSED_FIELD;
	return NCSYNC_REC_OK;
}

/* Mov32: ALU operation, registers, immediate (a hook of ncsync_optab.h). */
enum ncsync_rec_reason ncsync_decode_mov(const __u8 *rec, __u32 nrecords,
					 __u64 devmem_size,
					 struct ncsync_insn *insn)
{
	__u8 alu = rec[NCSYNC_REC_MOV_ALU];
	bool reg_src = alu == NCSYNC_ALU_MOV || alu == NCSYNC_ALU_ADD ||
		       alu == NCSYNC_ALU_SUB;

	insn->mov.alu = alu;
	insn->mov.dst = rec[NCSYNC_REC_MOV_DST];
	insn->mov.src = rec[NCSYNC_REC_MOV_SRC];
	insn->mov.imm = get_u32(rec + NCSYNC_REC_MOV_IMM);
	if (alu > NCSYNC_ALU_LAST)
		return NCSYNC_REC_BAD_ALU_OP;
	if (insn->mov.dst >= NCSYNC_NUM_REGS ||
	    insn->mov.src >= NCSYNC_NUM_REGS)
		return NCSYNC_REC_BAD_REGISTER;
	if ((alu == NCSYNC_ALU_MOV_IMM && insn->mov.src) ||
	    (reg_src && insn->mov.imm))
		return NCSYNC_REC_UNUSED_FIELD;
	return NCSYNC_REC_OK;
}

/* Branch: comparison, operands, a target inside the queue. */
enum ncsync_rec_reason ncsync_decode_br(const __u8 *rec, __u32 nrecords,
					__u64 devmem_size,
					struct ncsync_insn *insn)
{
	__u8 comp = rec[NCSYNC_REC_BR_COMP_OP];
	__u8 kind = rec[NCSYNC_REC_BR_OPERAND_KIND];
	__u64 target = get_u64(rec + NCSYNC_REC_BR_TARGET);
	bool reg = comp & NCSYNC_BR_REG;
	__u8 cmp = comp & ~NCSYNC_BR_REG;

	insn->br.comp = comp;
	insn->br.dtype = rec[NCSYNC_REC_BR_DTYPE];
	insn->br.imm = get_u32(rec + NCSYNC_REC_BR_IMM);
	insn->br.lhs = rec[NCSYNC_REC_BR_LHS_REG];
	insn->br.rhs = rec[NCSYNC_REC_BR_RHS_REG];

	if (comp == NCSYNC_BR_ALWAYS) {
		if (kind)
			return NCSYNC_REC_BAD_OPERAND_KIND;
		if (insn->br.dtype || insn->br.imm || insn->br.lhs ||
		    insn->br.rhs)
			return NCSYNC_REC_UNUSED_FIELD;
	} else {
		if (comp > (NCSYNC_BR_REG | NCSYNC_BR_GT) ||
		    cmp < NCSYNC_BR_LT || cmp > NCSYNC_BR_GT)
			return NCSYNC_REC_BAD_COMP_OP;
		if (kind != NCSYNC_BR_OPERANDS)
			return NCSYNC_REC_BAD_OPERAND_KIND;
		if (insn->br.dtype != NCSYNC_DTYPE_U32 &&
		    insn->br.dtype != NCSYNC_DTYPE_S32)
			return NCSYNC_REC_BAD_DTYPE;
		if (insn->br.lhs >= NCSYNC_NUM_REGS ||
		    insn->br.rhs >= NCSYNC_NUM_REGS)
			return NCSYNC_REC_BAD_REGISTER;
		if ((reg && insn->br.imm) || (!reg && insn->br.rhs))
			return NCSYNC_REC_UNUSED_FIELD;
	}
	if (target >= nrecords)
		return NCSYNC_REC_BAD_TARGET;
	insn->br.target = (__u32)target;
	return NCSYNC_REC_OK;
}

/*
 * BranchHint: the offset of its target from itself.  Alone, the decoder
 * knows the queue's length but not the record's index: an offset no index
 * of the queue can reach is refused here, the rest by
 * ncsync_record_check_at().
 */
enum ncsync_rec_reason ncsync_decode_hint(const __u8 *rec, __u32 nrecords,
					  __u64 devmem_size,
					  struct ncsync_insn *insn)
{
	__s32 off = (__s32)get_u32(rec + NCSYNC_REC_HINT_OFFSET);
	__u32 mag = off < 0 ? -(__u32)off : (__u32)off;

	insn->hint.offset = off;
	if (mag >= nrecords)
		return NCSYNC_REC_BAD_TARGET;
	return NCSYNC_REC_OK;
}

/* GroupResetSemaphores: the clear mode, the range or the mask. */
enum ncsync_rec_reason ncsync_decode_gr(const __u8 *rec, __u32 nrecords,
					__u64 devmem_size,
					struct ncsync_insn *insn)
{
	unsigned int i;
	__u32 any = 0;

	insn->gr.mode = rec[NCSYNC_REC_GR_CLEAR_MODE];
	insn->gr.first = rec[NCSYNC_REC_GR_FIRST];
	insn->gr.last = rec[NCSYNC_REC_GR_LAST];
	for (i = 0; i < 8; i++) {
		insn->gr.mask[i] = get_u32(rec + NCSYNC_REC_GR_MASK + 4 * i);
		any |= insn->gr.mask[i];
	}

	switch (insn->gr.mode) {
	case NCSYNC_CLEAR_RANGE:
		if (any)
			return NCSYNC_REC_UNUSED_FIELD;
		if (insn->gr.first > insn->gr.last)
			return NCSYNC_REC_BAD_RANGE;
		for (i = insn->gr.first; i <= insn->gr.last; i++)
			insn->gr.mask[i / 32] |= 1U << (i % 32);
		return NCSYNC_REC_OK;
	case NCSYNC_CLEAR_MASK:
		if (insn->gr.first || insn->gr.last)
			return NCSYNC_REC_UNUSED_FIELD;
		return NCSYNC_REC_OK;
	default:
		return NCSYNC_REC_BAD_CLEAR_MODE;
	}
}

/*
 * PollSem: operation, register, a range of semaphores, and the write-back,
 * which the hardware has for Min only (BARRIER §5): a minimum written back
 * over the values it came from never raises one of them.
 */
enum ncsync_rec_reason ncsync_decode_poll(const __u8 *rec, __u32 nrecords,
					  __u64 devmem_size,
					  struct ncsync_insn *insn)
{
	insn->poll.op = rec[NCSYNC_REC_POLL_OP];
	insn->poll.dst = rec[NCSYNC_REC_POLL_DST];
	insn->poll.first = rec[NCSYNC_REC_POLL_FIRST];
	insn->poll.count = rec[NCSYNC_REC_POLL_COUNT];
	insn->poll.writeback = rec[NCSYNC_REC_POLL_WRITEBACK];
	if (insn->poll.dst >= NCSYNC_NUM_REGS)
		return NCSYNC_REC_BAD_REGISTER;
	if (insn->poll.op > NCSYNC_POLL_SUM || !insn->poll.count ||
	    insn->poll.count > NCSYNC_POLL_MAX_COUNT ||
	    insn->poll.first + insn->poll.count > NCSYNC_NUM_SEMS ||
	    insn->poll.writeback > NCSYNC_POLL_WB_NONZERO ||
	    (insn->poll.writeback && insn->poll.op != NCSYNC_POLL_MIN))
		return NCSYNC_REC_BAD_POLL;
	return NCSYNC_REC_OK;
}

/* DMA: the copy's range and latency, its completion update, its peer. */
enum ncsync_rec_reason ncsync_decode_dma(const __u8 *rec, __u32 nrecords,
					 __u64 devmem_size,
					 struct ncsync_insn *insn)
{
	__u8 upd = insn->lane[0].upd_mode & ~NCSYNC_UPD_COMPLETE;

	insn->dma.src = get_u64(rec + NCSYNC_REC_DMA_SRC);
	insn->dma.dst = get_u64(rec + NCSYNC_REC_DMA_DST);
	insn->dma.len = get_u32(rec + NCSYNC_REC_DMA_LEN);
	insn->dma.latency_us = get_u32(rec + NCSYNC_REC_DMA_LATENCY_US);
	if (!insn->dma.len || insn->dma.src > devmem_size ||
	    insn->dma.dst > devmem_size ||
	    insn->dma.len > devmem_size - insn->dma.src ||
	    insn->dma.len > devmem_size - insn->dma.dst ||
	    insn->dma.latency_us > NCSYNC_DMA_MAX_LATENCY_US)
		return NCSYNC_REC_BAD_DMA;
	if (upd != NCSYNC_UPD_NONE && upd != NCSYNC_UPD_SEM_INC &&
	    upd != NCSYNC_UPD_EVT_SET)
		return NCSYNC_REC_BAD_DMA_UPDATE;
	insn->dma.flags = rec[NCSYNC_REC_DMA_FLAGS];
	insn->dma.peer = rec[NCSYNC_REC_DMA_PEER];
	if ((insn->dma.flags & ~NCSYNC_DMA_F_PEER) ||
	    (insn->dma.flags ? upd == NCSYNC_UPD_NONE ||
			       insn->dma.peer >= NCSYNC_MAX_LNC :
			       insn->dma.peer != 0))
		return NCSYNC_REC_BAD_DMA_PEER;
	/* The update is the copy's completion, never part of the wait. */
	insn->lane[0].paired = false;
	insn->lane[0].upd.on_land = insn->lane[0].upd.active;
	return NCSYNC_REC_OK;
}

/* Drain: its count, always 1. */
enum ncsync_rec_reason ncsync_decode_drain(const __u8 *rec, __u32 nrecords,
					   __u64 devmem_size,
					   struct ncsync_insn *insn)
{
	insn->drain.count = rec[NCSYNC_REC_DRAIN_COUNT];
	return insn->drain.count == 1 ? NCSYNC_REC_OK :
					NCSYNC_REC_BAD_DRAIN_COUNT;
}

/* Exit: its flag byte, zero. */
enum ncsync_rec_reason ncsync_decode_exit(const __u8 *rec, __u32 nrecords,
					  __u64 devmem_size,
					  struct ncsync_insn *insn)
{
	return rec[NCSYNC_REC_EXIT_FLAGS] ? NCSYNC_REC_BAD_EXIT_FLAGS :
					    NCSYNC_REC_OK;
}

/**
 * ncsync_record_check_lnc() - the rule of a decoded record that needs the
 *	size of the logical core: a DMA record's peer is one of its cores.
 * @insn: a record ncsync_record_decode() accepted.
 * @lnc: the cores of a logical core (module parameter lnc).
 *
 * The kernel checks it at submission; the library, which does not know
 * the module's parameters, leaves it to the kernel.
 *
 * Return: NCSYNC_REC_OK, or NCSYNC_REC_DMA_PEER_OUTSIDE.
 */
enum ncsync_rec_reason ncsync_record_check_lnc(const struct ncsync_insn *insn,
					       __u32 lnc)
{
	if (insn->effect == NCSYNC_EFF_DMA &&
	    (insn->dma.flags & NCSYNC_DMA_F_PEER) && insn->dma.peer >= lnc)
		return NCSYNC_REC_DMA_PEER_OUTSIDE;
	return NCSYNC_REC_OK;
}

/**
 * ncsync_conform_init() - start checking a submission with the profile.
 * @c: the state.
 */
void ncsync_conform_init(struct ncsync_conform *c)
{
	unsigned int i;

	for (i = 0; i < 8; i++) {
		c->earlier[i] = 0;
		c->queue[i] = 0;
	}
	c->nqueue = 0;
	c->ngroups = 0;
}

/**
 * ncsync_conform_next_queue() - the current queue is checked.
 * @c: the state.
 */
void ncsync_conform_next_queue(struct ncsync_conform *c)
{
	unsigned int i;

	for (i = 0; i < 8; i++) {
		c->earlier[i] |= c->queue[i];
		c->queue[i] = 0;
	}
	c->nqueue++;
}

/* ENC 2: what the compile-time EventSemaphore encoder would refuse. */
enum ncsync_rec_reason ncsync_conform_evsem(struct ncsync_conform *c,
					    const struct ncsync_insn *insn)
{
	const struct ncsync_lane *l = insn->lane;
	unsigned int i;

	for (i = 0; i < 2; i++)
		if (l[i].wait_mode && l[i].wait_mode != NCSYNC_WAIT_SEM_GE &&
		    l[i].wait_mode != (NCSYNC_WAIT_REG | NCSYNC_WAIT_SEM_GE))
			return NCSYNC_REC_CONF_EVSEM_WAIT;
	if (!l[0].wait_mode && !l[0].upd_mode && !l[1].wait_mode &&
	    !l[1].upd_mode)
		return NCSYNC_REC_CONF_EVSEM_EMPTY;
	if (l[0].upd_mode && l[1].upd_mode)
		return NCSYNC_REC_CONF_EVSEM_UPDATES;
	return NCSYNC_REC_OK;
}

/* The index of @mask among the groups remembered, or c->ngroups. */
static unsigned int ncsync_conform_find(const struct ncsync_conform *c,
					const __u32 *mask)
{
	unsigned int g, i;

	for (g = 0; g < c->ngroups; g++) {
		for (i = 0; i < 8 && c->groups[g].mask[i] == mask[i]; i++)
			;
		if (i == 8)
			break;
	}
	return g;
}

/*
 * ENC 6b: a group that is empty, or that shares a semaphore with the
 * groups of an earlier queue without being one of them.  A group equal
 * to one of an earlier queue is that fence's copy for this engine (SYNC:
 * GroupResetSemaphores "deep-copies its sema_group vector per engine";
 * ENC 6b: "fullClones per datapath engine").  Earlier groups are disjoint
 * from the other queues' or equal to one, so equal is the one overlap
 * the clones make.
 */
enum ncsync_rec_reason ncsync_conform_gr(struct ncsync_conform *c,
					 const struct ncsync_insn *insn)
{
	__u32 any = 0, dup = 0;
	unsigned int i, g;

	for (i = 0; i < 8; i++) {
		any |= insn->gr.mask[i];
		dup |= insn->gr.mask[i] & c->earlier[i];
	}
	if (!any)
		return NCSYNC_REC_CONF_GR_EMPTY;
	g = ncsync_conform_find(c, insn->gr.mask);
	if (dup)	/* a group this queue named first is disjoint */
		return g < c->ngroups ? NCSYNC_REC_OK :
					NCSYNC_REC_CONF_GR_DUPLICATE;
	if (g == c->ngroups && g < NCSYNC_CONFORM_GROUPS) {
		for (i = 0; i < 8; i++)
			c->groups[g].mask[i] = insn->gr.mask[i];
		c->groups[g].queue = c->nqueue;
		c->ngroups++;
	}
	for (i = 0; i < 8; i++)
		c->queue[i] |= insn->gr.mask[i];
	return NCSYNC_REC_OK;
}

/**
 * ncsync_rec_reason_name() - a short name for a refusal reason.
 * @reason: an enum ncsync_rec_reason.
 *
 * Return: a constant string.
 */
const char *ncsync_rec_reason_name(unsigned int reason)
{
	static const char * const names[NCSYNC_REC_REASON_COUNT] = {
		[NCSYNC_REC_OK] = "ok",
		[NCSYNC_REC_BAD_OPCODE] = "unknown opcode",
		[NCSYNC_REC_PSEUDO_OP] = "pseudo-op (lower it first)",
		[NCSYNC_REC_BAD_WORDLEN] = "byte 1 is not 0x10",
		[NCSYNC_REC_HEADER_RESERVED] = "header bytes 2-3 not zero",
		[NCSYNC_REC_RESERVED_BYTE] = "reserved byte not zero",
		[NCSYNC_REC_BAD_WAIT_MODE] = "invalid wait mode",
		[NCSYNC_REC_BAD_UPDATE_MODE] = "invalid update mode",
		[NCSYNC_REC_UPDATE_NOT_COMPLETE] =
			"EventSemaphore update not a _COMPLETE form",
		[NCSYNC_REC_UNUSED_FIELD] = "field of an absent operand not zero",
		[NCSYNC_REC_BAD_REGISTER] = "register out of range",
		[NCSYNC_REC_BAD_COMP_OP] = "invalid branch comparison",
		[NCSYNC_REC_BAD_DTYPE] = "invalid branch dtype",
		[NCSYNC_REC_BAD_OPERAND_KIND] = "invalid branch operand kind",
		[NCSYNC_REC_BAD_TARGET] =
			"branch or hint target outside the queue",
		[NCSYNC_REC_BAD_CLEAR_MODE] = "invalid ClearMode",
		[NCSYNC_REC_BAD_RANGE] = "range first > last",
		[NCSYNC_REC_BAD_DRAIN_COUNT] = "drain count not 1",
		[NCSYNC_REC_BAD_EXIT_FLAGS] = "invalid exit flags",
		[NCSYNC_REC_BAD_ALU_OP] = "invalid Mov32 ALU operation",
		[NCSYNC_REC_BAD_POLL] = "invalid PollSem operation, range or write-back",
		[NCSYNC_REC_BAD_DMA] = "DMA range or latency out of bounds",
		[NCSYNC_REC_BAD_DMA_UPDATE] =
			"DMA completion update not +1 or event set",
		[NCSYNC_REC_BAD_DMA_PEER] =
			"DMA peer flags invalid, or a peer without an update",
		[NCSYNC_REC_DMA_PEER_OUTSIDE] =
			"DMA completion update on a core outside the logical core",
		[NCSYNC_REC_CONF_EVSEM_WAIT] =
			"conformance: EventSemaphore wait not GE (0x05, 0x85)",
		[NCSYNC_REC_CONF_EVSEM_EMPTY] =
			"conformance: EventSemaphore without wait or update",
		[NCSYNC_REC_CONF_EVSEM_UPDATES] =
			"conformance: EventSemaphore with two updates",
		[NCSYNC_REC_CONF_GR_EMPTY] =
			"conformance: GroupResetSemaphores of no semaphore",
		[NCSYNC_REC_CONF_GR_DUPLICATE] =
			"conformance: semaphore in the groups of two engines",
		[NCSYNC_REC_CONF_PSEUDO] =
			"conformance: malformed AllEngineBarrier (0xD5)",
		[NCSYNC_REC_UNMODELLED_OP] =
			"opcode named by the seeds, its effect not modelled",
	};

	if (reason >= NCSYNC_REC_REASON_COUNT)
		return "unknown reason";
	return names[reason];
}

/**
 * ncsync_br_test() - evaluate a branch condition.
 * @comp: the comparison, immediate or register family.
 * @dtype: NCSYNC_DTYPE_U32 or NCSYNC_DTYPE_S32.
 * @lhs: the left-hand register's value.
 * @rhs: the immediate or the right-hand register's value.
 *
 * Return: whether the branch is taken.
 */
bool ncsync_br_test(__u8 comp, __u8 dtype, __u32 lhs, __u32 rhs)
{
	__s64 a = dtype == NCSYNC_DTYPE_S32 ? (__s64)(__s32)lhs : lhs;
	__s64 b = dtype == NCSYNC_DTYPE_S32 ? (__s64)(__s32)rhs : rhs;

	switch (comp & ~NCSYNC_BR_REG) {
	case NCSYNC_BR_ALWAYS:
		return true;
	case NCSYNC_BR_LT:
		return a < b;
	case NCSYNC_BR_LE:
		return a <= b;
	case NCSYNC_BR_EQ:
		return a == b;
	case NCSYNC_BR_NE:
		return a != b;
	case NCSYNC_BR_GE:
		return a >= b;
	default:
		return a > b;
	}
}

/**
 * ncsync_alu() - compute a Mov32 operation.
 * @alu: NCSYNC_ALU_*.
 * @dst: the destination register's value.
 * @src: the source register's value.
 * @imm: the immediate.
 *
 * Return: the destination's new value.
 */
__u32 ncsync_alu(__u8 alu, __u32 dst, __u32 src, __u32 imm)
{
	switch (alu) {
	case NCSYNC_ALU_MOV_IMM:
		return imm;
	case NCSYNC_ALU_MOV:
		return src;
	case NCSYNC_ALU_ADD_IMM:
		return src + imm;
	case NCSYNC_ALU_ADD:
		return dst + src;
	case NCSYNC_ALU_SUB_IMM:
		return src - imm;
	case NCSYNC_ALU_SUB:
		return dst - src;
	case NCSYNC_ALU_AND_IMM:
		return src & imm;
	case NCSYNC_ALU_OR_IMM:
		return src | imm;
	case NCSYNC_ALU_XOR_IMM:
		return src ^ imm;
	case NCSYNC_ALU_SHL_IMM:
		return src << (imm & 31);
	default:
		return src >> (imm & 31);
	}
}
