// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The execution core: what a decoded record does (Documentation/ncsync/
 * engines.rst, "Executing a record").  See ncsync_exec.h.
 */
#include "ncsync_exec.h"

/**
 * ncsync_wait_threshold() - the threshold a semaphore wait compares with.
 * @w: the wait.
 * @regs: the engine's NCSYNC_NUM_REGS registers.
 *
 * Return: the immediate, or the register's value for a register form.
 */
__s32 ncsync_wait_threshold(const struct ncsync_wait_op *w, const __u32 *regs)
{
	return (__s32)(w->reg ? regs[w->value] : w->value);
}

/**
 * ncsync_wait_sem_passes() - the signed compare of a semaphore wait.
 * @w: the wait, on a semaphore.
 * @value: the semaphore.
 * @threshold: from ncsync_wait_threshold().
 *
 * Return: true when the wait is satisfied.
 */
bool ncsync_wait_sem_passes(const struct ncsync_wait_op *w, __s32 value,
			    __s32 threshold)
{
	switch (w->cmp) {
	case NCSYNC_CMP_EQ:
		return value == threshold;
	case NCSYNC_CMP_LT:
		return value < threshold;
	case NCSYNC_CMP_LE:
		return value <= threshold;
	case NCSYNC_CMP_GT:
		return value > threshold;
	default:
		return value >= threshold;
	}
}

/**
 * ncsync_wait_event_passes() - the test of an event wait, and its action.
 * @w: the wait, on an event.
 * @state: the event.
 * @after: out, when it passes: the event's state after the then-clear or
 *	then-set action.
 *
 * Return: true when the wait is satisfied.
 */
bool ncsync_wait_event_passes(const struct ncsync_wait_op *w, bool state,
			      bool *after)
{
	if (state != w->want)
		return false;
	if (w->then == NCSYNC_THEN_CLEAR)
		*after = false;
	else if (w->then == NCSYNC_THEN_SET)
		*after = true;
	else
		*after = state;
	return true;
}

/**
 * ncsync_update_sem() - the new value of a semaphore an update changes.
 * @u: the update, on a semaphore.
 * @old: the semaphore's value.
 * @regs: the engine's registers.
 * @overflow: out: whether the signed 32-bit result overflowed.
 *
 * Return: the new value (add and subtract wrap modulo 2^32).
 */
__s32 ncsync_update_sem(const struct ncsync_update_op *u, __s32 old,
			const __u32 *regs, bool *overflow)
{
	return ncsync_sem_apply(u->op, old, ncsync_update_operand(u, regs),
				overflow);
}

/**
 * ncsync_branch_taken() - evaluate a Branch.
 * @in: the Branch record.
 * @regs: the engine's registers.
 *
 * Return: whether it jumps to @in->br.target.
 */
bool ncsync_branch_taken(const struct ncsync_insn *in, const __u32 *regs)
{
	__u32 rhs;

	if (in->br.comp == NCSYNC_BR_ALWAYS)
		return true;
	rhs = in->br.comp & NCSYNC_BR_REG ? regs[in->br.rhs] : in->br.imm;
	return ncsync_br_test(in->br.comp, in->br.dtype, regs[in->br.lhs], rhs);
}

/**
 * ncsync_mov_exec() - execute a Mov32.
 * @in: the Mov32 record.
 * @regs: the engine's registers, updated.
 */
void ncsync_mov_exec(const struct ncsync_insn *in, __u32 *regs)
{
	regs[in->mov.dst] = ncsync_alu(in->mov.alu, regs[in->mov.dst],
				       regs[in->mov.src], in->mov.imm);
}

/**
 * ncsync_poll_reduce() - the value a PollSem writes to its register.
 * @in: the PollSem record.
 * @values: the @in->poll.count semaphores from @in->poll.first, read by
 *	the caller.
 *
 * Return: their minimum, or their sum modulo 2^32.
 */
__u32 ncsync_poll_reduce(const struct ncsync_insn *in, const __s32 *values)
{
	__s32 acc = values[0];
	unsigned int i;

	for (i = 1; i < in->poll.count; i++) {
		if (in->poll.op == NCSYNC_POLL_MIN)
			acc = acc < values[i] ? acc : values[i];
		else
			acc = (__s32)((__u32)acc + (__u32)values[i]);
	}
	return (__u32)acc;
}

/**
 * ncsync_group_reset_clears() - whether a GroupResetSemaphores zeroes a
 *	semaphore.
 * @in: the GroupResetSemaphores record (its range form fills the mask).
 * @index: the semaphore.
 *
 * Return: true if it does.
 */
bool ncsync_group_reset_clears(const struct ncsync_insn *in,
			       unsigned int index)
{
	return in->gr.mask[index / 32] & (1U << (index % 32));
}
