/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The effect of a record on an abstract bank (Documentation/ncsync/
 * engines.rst, "Executing a record"): its waits, its op's own effect and
 * its updates, written once over the callbacks of struct ncsync_bank_ops.
 * The kernel's engines (driver/ncsync_engine.c) call them under the core
 * lock and add only the locking, sleeping and wake-ups; the checker's host
 * executor (lib/src/check_exec.c) calls them on its explicit state, one
 * step at a time.  What the op's effect may touch is the opcode table's
 * footprint (ncsync_optab.h), which common/test checks against these
 * functions.
 *
 * The functions are __always_inline: a caller passes a pointer to a const
 * ops struct of its own, so that once inlined every callback is a direct
 * call (the engine's hot path has no indirect call).  Freestanding C.
 */
#ifndef _NCSYNC_EFFECT_H
#define _NCSYNC_EFFECT_H

#include "ncsync_exec.h"
#include "ncsync_optab.h"
#ifndef __KERNEL__
#include <sys/cdefs.h>		/* __always_inline */
#endif

/**
 * struct ncsync_bank_ops - the bank a record executes on.
 * @sem_read: the value of semaphore @i.
 * @sem_update: apply @op with @operand to semaphore @i; return whether the
 *	signed 32-bit result overflowed.
 * @event_read: the state of event @i.
 * @event_write: set or clear event @i; return whether it already was so.
 * @drain_pass: whether a Drain passes: none of the engine's copies is in
 *	flight.  A caller may note the pass (an engine that blocked on it
 *	progressed).
 * @dma_issue: issue the copy of DMA record @in; false, and nothing issued,
 *	when the engine has no free slot.
 */
struct ncsync_bank_ops {
	__s32 (*sem_read)(void *ctx, unsigned int i);
	bool (*sem_update)(void *ctx, unsigned int i, enum ncsync_sem_upd op,
			   __u32 operand);
	bool (*event_read)(void *ctx, unsigned int i);
	bool (*event_write)(void *ctx, unsigned int i, bool set);
	bool (*drain_pass)(void *ctx);
	bool (*dma_issue)(void *ctx, const struct ncsync_insn *in);
};

/**
 * enum ncsync_op_step - what the op's own effect leads to.
 * @NCSYNC_OP_NEXT: the next record.
 * @NCSYNC_OP_JUMP: the Branch's target.
 * @NCSYNC_OP_HALT: the queue halts (after the record's updates).
 * @NCSYNC_OP_EXIT: the queue ends (after the record's updates).
 * @NCSYNC_OP_DRAIN: a Drain with copies in flight: nothing done; block.
 * @NCSYNC_OP_DMA_FULL: a DMA record without a free slot: nothing done;
 *	block.
 */
enum ncsync_op_step {
	NCSYNC_OP_NEXT,
	NCSYNC_OP_JUMP,
	NCSYNC_OP_HALT,
	NCSYNC_OP_EXIT,
	NCSYNC_OP_DRAIN,
	NCSYNC_OP_DMA_FULL,
};

/**
 * ncsync_exec_update() - apply one update.
 * @u: the update (active).
 * @regs: the engine's registers; NULL for a copy's completion update,
 *	whose operand is an immediate.
 * @ops: the bank.
 * @ctx: its argument.
 *
 * Return: 0, or the strict-mode fault it is (NCSYNC_FAULT_EVENT_*,
 * NCSYNC_FAULT_SEM_OVERFLOW); the update is applied either way.
 */
static __always_inline __u8
ncsync_exec_update(const struct ncsync_update_op *u, const __u32 *regs,
		   const struct ncsync_bank_ops *ops, void *ctx)
{
	if (u->bank == NCSYNC_BANK_EVENT) {
		if (!ops->event_write(ctx, u->index, u->set))
			return 0;
		return u->set ? NCSYNC_FAULT_EVENT_SET_WHILE_SET :
				NCSYNC_FAULT_EVENT_CLEAR_WHILE_CLEAR;
	}
	if (ops->sem_update(ctx, u->index, u->op,
			    ncsync_update_operand(u, regs)))
		return NCSYNC_FAULT_SEM_OVERFLOW;
	return 0;
}

/**
 * ncsync_exec_wait_test() - whether a wait passes, without doing anything.
 * @w: the wait (active).
 * @regs: the engine's registers.
 * @ops: the bank.
 * @ctx: its argument.
 * @after: out, when an event wait passes: the event's state after its
 *	then-clear or then-set action.
 *
 * Return: true when the wait passes.
 */
static __always_inline bool
ncsync_exec_wait_test(const struct ncsync_wait_op *w, const __u32 *regs,
		      const struct ncsync_bank_ops *ops, void *ctx, bool *after)
{
	if (w->bank == NCSYNC_BANK_SEM)
		return ncsync_wait_sem_passes(w, ops->sem_read(ctx, w->index),
					      ncsync_wait_threshold(w, regs));
	return ncsync_wait_event_passes(w, ops->event_read(ctx, w->index),
					after);
}

/**
 * ncsync_exec_wait() - test one lane's wait; on a pass apply its then-clear
 *	or then-set action, or its paired update (one atomic test-and-modify).
 * @l: the lane; its wait is active.
 * @regs: the engine's registers.
 * @ops: the bank.
 * @ctx: its argument.
 * @fault: out: the paired update's fault (ncsync_exec_update()); left
 *	alone when there is none.
 *
 * Return: true when the wait passed; false, and nothing done, when not.
 */
static __always_inline bool
ncsync_exec_wait(const struct ncsync_lane *l, const __u32 *regs,
		 const struct ncsync_bank_ops *ops, void *ctx, __u8 *fault)
{
	const struct ncsync_wait_op *w = &l->wait;
	bool after = false;

	if (!ncsync_exec_wait_test(w, regs, ops, ctx, &after))
		return false;
	if (w->bank == NCSYNC_BANK_SEM) {
		if (l->paired)
			*fault = ncsync_exec_update(&l->upd, regs, ops, ctx);
	} else if (after != ops->event_read(ctx, w->index)) {
		ops->event_write(ctx, w->index, after);
	}
	return true;
}

/*
 * PollSem: each semaphore of the range is read once, in one step; with
 * the write-back, a nonzero minimum is written over each one it differs
 * from, in the same step (records.rst, "PollSem").
 */
static __always_inline void
ncsync_exec_poll(const struct ncsync_insn *in, __u32 *regs,
		 const struct ncsync_bank_ops *ops, void *ctx)
{
	__s32 values[NCSYNC_POLL_MAX_COUNT];
	unsigned int i;
	__u32 r;

	for (i = 0; i < in->poll.count; i++)
		values[i] = ops->sem_read(ctx, in->poll.first + i);
	r = ncsync_poll_reduce(in, values);
	regs[in->poll.dst] = r;
	if (!in->poll.writeback || !r)
		return;
	for (i = 0; i < in->poll.count; i++)
		if (values[i] != (__s32)r)
			ops->sem_update(ctx, in->poll.first + i,
					NCSYNC_SEM_UPD_SET, r);
}

/**
 * ncsync_exec_op() - the op's own effect, between a record's waits and its
 *	updates.
 * @in: the record.
 * @regs: the engine's registers, updated.
 * @ops: the bank.
 * @ctx: its argument.
 *
 * What it reads and writes is ncsync_op_footprint() of @in, besides the
 * control flow it returns and the DMA ring (NCSYNC_OPF_*).  One case per
 * effect (enum ncsync_op_effect), none per opcode: the decoder copies the
 * effect of the opcode's row into @in->effect, so that a new opcode with
 * an existing effect is a row of the table only.
 *
 * Return: where the engine goes on; NCSYNC_OP_DRAIN and _DMA_FULL mean
 * nothing was done and the engine must block before it tries again.
 */
static __always_inline enum ncsync_op_step
ncsync_exec_op(const struct ncsync_insn *in, __u32 *regs,
	       const struct ncsync_bank_ops *ops, void *ctx)
{
	unsigned int i;

	switch (in->effect) {
	case NCSYNC_EFF_HALT:
		return NCSYNC_OP_HALT;
	case NCSYNC_EFF_EXIT:
		return NCSYNC_OP_EXIT;
	case NCSYNC_EFF_DRAIN:
		return ops->drain_pass(ctx) ? NCSYNC_OP_NEXT : NCSYNC_OP_DRAIN;
	case NCSYNC_EFF_MOV:
		ncsync_mov_exec(in, regs);
		return NCSYNC_OP_NEXT;
	case NCSYNC_EFF_BRANCH:
		return ncsync_branch_taken(in, regs) ? NCSYNC_OP_JUMP :
						       NCSYNC_OP_NEXT;
	case NCSYNC_EFF_GROUP_RESET:
		for (i = 0; i < NCSYNC_NUM_SEMS; i++)
			if (ncsync_group_reset_clears(in, i))
				ops->sem_update(ctx, i, NCSYNC_SEM_UPD_SET, 0);
		return NCSYNC_OP_NEXT;
	case NCSYNC_EFF_POLL:
		ncsync_exec_poll(in, regs, ops, ctx);
		return NCSYNC_OP_NEXT;
	case NCSYNC_EFF_DMA:
		/* Like a full ring: the copy is issued once a slot is free. */
		return ops->dma_issue(ctx, in) ? NCSYNC_OP_NEXT :
						 NCSYNC_OP_DMA_FULL;
	default:	/* NCSYNC_EFF_NONE: EventSemaphore, NoOp */
		return NCSYNC_OP_NEXT;
	}
}

#endif /* _NCSYNC_EFFECT_H */
