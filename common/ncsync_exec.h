/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The execution core: what a decoded record does, as pure functions over
 * explicit state (bank values, engine registers).  Written once and
 * compiled into the module, whose engines add only the locking, sleeping
 * and wake-ups around them, and into the library's host executors.
 * Freestanding C.
 */
#ifndef _NCSYNC_EXEC_H
#define _NCSYNC_EXEC_H

#include "ncsync_record.h"

/**
 * ncsync_update_operand() - the operand of a semaphore update.
 * @u: the update, on a semaphore.
 * @regs: the engine's registers.
 *
 * Return: the immediate (1 for +1 and -1), or the register's value.
 */
static inline __u32 ncsync_update_operand(const struct ncsync_update_op *u,
					  const __u32 *regs)
{
	return u->reg ? regs[u->operand] : u->operand;
}

__s32 ncsync_wait_threshold(const struct ncsync_wait_op *w,
			    const __u32 *regs);
bool ncsync_wait_sem_passes(const struct ncsync_wait_op *w, __s32 value,
			    __s32 threshold);
bool ncsync_wait_event_passes(const struct ncsync_wait_op *w, bool state,
			      bool *after);
__s32 ncsync_update_sem(const struct ncsync_update_op *u, __s32 old,
			const __u32 *regs, bool *overflow);
bool ncsync_branch_taken(const struct ncsync_insn *in, const __u32 *regs);
void ncsync_mov_exec(const struct ncsync_insn *in, __u32 *regs);
__u32 ncsync_poll_reduce(const struct ncsync_insn *in, const __s32 *values);
bool ncsync_group_reset_clears(const struct ncsync_insn *in,
			       unsigned int index);

#endif /* _NCSYNC_EXEC_H */
