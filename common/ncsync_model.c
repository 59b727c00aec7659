// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The ncsync model rules shared by the module, the library and the tools.
 * See ncsync_model.h and Documentation/ncsync/model.rst.
 */
#include <linux/errno.h>
#include "ncsync_model.h"

/**
 * ncsync_csr_decode() - find the window of a CSR address.
 * @addr: a 4-byte aligned address below NCSYNC_CSR_SIZE.
 * @index: out: the register index within its window.
 *
 * Return: the window.
 */
enum ncsync_win ncsync_csr_decode(__u32 addr, unsigned int *index)
{
	*index = (addr % NCSYNC_CSR_WINDOW_SIZE) / NCSYNC_CSR_REG_SIZE;

	switch (addr & ~(__u32)(NCSYNC_CSR_WINDOW_SIZE - 1)) {
	case NCSYNC_CSR_EVENTS:
		return NCSYNC_WIN_EVENTS;
	case NCSYNC_CSR_SEM_READ:
		return NCSYNC_WIN_SEM_READ;
	case NCSYNC_CSR_SEM_SET:
		return NCSYNC_WIN_SEM_SET;
	case NCSYNC_CSR_SEM_INC:
		return NCSYNC_WIN_SEM_INC;
	case NCSYNC_CSR_SEM_DEC:
		return NCSYNC_WIN_SEM_DEC;
	default:
		return NCSYNC_WIN_RESERVED;
	}
}

/**
 * ncsync_csr_win_writable() - whether a window takes writes.
 * @win: the window.
 *
 * Return: true for the event, set, inc and dec windows.
 */
bool ncsync_csr_win_writable(enum ncsync_win win)
{
	return win != NCSYNC_WIN_SEM_READ && win != NCSYNC_WIN_RESERVED;
}

/**
 * ncsync_csr_access_ok() - check the shape of a CSR access.
 * @addr: the first byte.
 * @len: the length in bytes, not zero.
 *
 * Return: true when the access is 4-byte aligned, a multiple of 4 long and
 * inside the window.
 */
bool ncsync_csr_access_ok(__u64 addr, __u64 len)
{
	if (addr % NCSYNC_CSR_REG_SIZE || len % NCSYNC_CSR_REG_SIZE || !len)
		return false;
	return addr < NCSYNC_CSR_SIZE && len <= NCSYNC_CSR_SIZE - addr;
}

/**
 * ncsync_csr_write_ok() - check that every register of a write takes writes.
 * @addr: the first byte, already checked by ncsync_csr_access_ok().
 * @len: the length in bytes, already checked.
 *
 * Return: true when no register of the range is in the semaphore read
 * window or reserved space.
 */
bool ncsync_csr_write_ok(__u32 addr, __u32 len)
{
	unsigned int idx;
	__u32 a;

	for (a = addr; a < addr + len; a += NCSYNC_CSR_REG_SIZE)
		if (!ncsync_csr_win_writable(ncsync_csr_decode(a, &idx)))
			return false;
	return true;
}

/**
 * ncsync_wait_mode_is_sem() - whether a wait mode compares a semaphore.
 * @mode: a wait mode, immediate or register form.
 *
 * Return: true for EQ, LT, LE, GT and GE in either form.
 */
bool ncsync_wait_mode_is_sem(__u8 mode)
{
	__u8 cmp = mode & ~NCSYNC_WAIT_REG;

	return cmp >= NCSYNC_WAIT_SEM_EQ && cmp <= NCSYNC_WAIT_SEM_GE;
}

/**
 * ncsync_wait_mode_is_event() - whether a wait mode tests an event.
 * @mode: a wait mode.
 *
 * Return: true for the four event modes.
 */
bool ncsync_wait_mode_is_event(__u8 mode)
{
	return mode == NCSYNC_WAIT_EVT_SET ||
	       mode == NCSYNC_WAIT_EVT_SET_THEN_CLEAR ||
	       mode == NCSYNC_WAIT_EVT_CLEAR ||
	       mode == NCSYNC_WAIT_EVT_CLEAR_THEN_SET;
}

/**
 * ncsync_op_check() - validate a struct ncsync_op from userspace.
 * @op: the operation.
 * @is_update: out: whether it changes state.
 *
 * Return: 0, or -EINVAL for an unknown bank or op, an op the bank does not
 * take, an index out of range, a non-zero operand where none is taken, or
 * non-zero pad or reserved fields.
 */
int ncsync_op_check(const struct ncsync_op *op, bool *is_update)
{
	if (op->pad || op->reserved || op->index >= NCSYNC_NUM_SEMS)
		return -EINVAL;

	*is_update = op->op != NCSYNC_OP_READ;
	switch (op->bank) {
	case NCSYNC_BANK_SEM:
		if (op->op == NCSYNC_OP_READ)
			return op->value ? -EINVAL : 0;
		if (op->op == NCSYNC_OP_SET || op->op == NCSYNC_OP_INC ||
		    op->op == NCSYNC_OP_DEC)
			return 0;
		return -EINVAL;
	case NCSYNC_BANK_EVENT:
		if (op->op != NCSYNC_OP_READ && op->op != NCSYNC_OP_SET &&
		    op->op != NCSYNC_OP_CLEAR)
			return -EINVAL;
		return op->value ? -EINVAL : 0;
	default:
		return -EINVAL;
	}
}
