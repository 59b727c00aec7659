/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The ncsync model rules, written once and compiled into the module, the
 * library and the tools: the CSR map, the wait tests and the semaphore
 * arithmetic of Documentation/ncsync/model.rst.  Freestanding C: no libc,
 * no kernel API.
 */
#ifndef _NCSYNC_MODEL_H
#define _NCSYNC_MODEL_H

#include <linux/types.h>
#ifdef __KERNEL__
#include <linux/stddef.h>
#else
#include <stdbool.h>
#include <stddef.h>
#endif
#include <linux/ncsync.h>

/**
 * enum ncsync_win - the window a CSR address falls in.
 * @NCSYNC_WIN_EVENTS: events[256], 0/1; writes set (non-zero) or clear.
 * @NCSYNC_WIN_SEM_READ: semaphore read window; writes refused.
 * @NCSYNC_WIN_SEM_SET: semaphore set window.
 * @NCSYNC_WIN_SEM_INC: semaphore increment window.
 * @NCSYNC_WIN_SEM_DEC: semaphore decrement window.
 * @NCSYNC_WIN_RESERVED: reserved below NCSYNC_CSR_SIZE; reads 0, writes
 *	refused.
 */
enum ncsync_win {
	NCSYNC_WIN_EVENTS,
	NCSYNC_WIN_SEM_READ,
	NCSYNC_WIN_SEM_SET,
	NCSYNC_WIN_SEM_INC,
	NCSYNC_WIN_SEM_DEC,
	NCSYNC_WIN_RESERVED,
};

enum ncsync_win ncsync_csr_decode(__u32 addr, unsigned int *index);
bool ncsync_csr_win_writable(enum ncsync_win win);
bool ncsync_csr_access_ok(__u64 addr, __u64 len);
bool ncsync_csr_write_ok(__u32 addr, __u32 len);

/**
 * enum ncsync_sem_upd - the arithmetic a semaphore update applies.
 * @NCSYNC_SEM_UPD_SET: value = operand.
 * @NCSYNC_SEM_UPD_ADD: value += operand, modulo 2^32.
 * @NCSYNC_SEM_UPD_SUB: value -= operand, modulo 2^32.
 */
enum ncsync_sem_upd {
	NCSYNC_SEM_UPD_SET,
	NCSYNC_SEM_UPD_ADD,
	NCSYNC_SEM_UPD_SUB,
};

/**
 * ncsync_sem_apply() - compute a semaphore update.
 * @upd: the arithmetic.
 * @old: the value before.
 * @operand: the operand; add and subtract wrap modulo 2^32.
 * @overflow: out: set when the signed 32-bit result overflowed.
 *
 * Inline: an engine applies one per semaphore update it executes.
 *
 * Return: the value after.
 */
static inline __s32 ncsync_sem_apply(enum ncsync_sem_upd upd, __s32 old,
				     __u32 operand, bool *overflow)
{
	__s64 wide;

	switch (upd) {
	case NCSYNC_SEM_UPD_ADD:
		wide = (__s64)old + (__s32)operand;
		break;
	case NCSYNC_SEM_UPD_SUB:
		wide = (__s64)old - (__s32)operand;
		break;
	default:
		*overflow = false;
		return (__s32)operand;
	}
	*overflow = wide != (__s32)wide;
	return (__s32)((__u32)old + (upd == NCSYNC_SEM_UPD_ADD ?
				     operand : -operand));
}

bool ncsync_wait_mode_is_sem(__u8 mode);
bool ncsync_wait_mode_is_event(__u8 mode);

int ncsync_op_check(const struct ncsync_op *op, bool *is_update);

#endif /* _NCSYNC_MODEL_H */
