// SPDX-License-Identifier: GPL-2.0
/*
 * ncsync: the ioctls of /dev/ncsyncN.
 *
 * ncsync_ioctl() picks the handler by a switch.  NCSYNC_IOC_OP, the one
 * a runtime issues per register, copies its 24 bytes in itself and writes
 * back only its two out fields; the others
 * get a kernel copy of exactly their argument (ncsync_ioctl_call()) and it
 * is copied back out on success.  Common errors of every ioctl: ENOTTY for
 * an unknown command, EFAULT when the argument cannot be read or written
 * back (checked before anything changes: an ioctl that changes something
 * and writes back first writes the argument back unchanged; the read-only
 * ones, NCSYNC_IOC_INFO, NCSYNC_IOC_STATS and a read by NCSYNC_IOC_OP,
 * write once), EBADF for a change through a read-only descriptor.
 */
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "ncsync_drv.h"

/*
 * NCSYNC_IOC_INFO: the core's geometry and the runtime's reserved slices.
 * Errors: none of its own.
 */
static int ncsync_info_ioctl(struct ncsync_file *nfile, void *data)
{
	struct ncsync_info *info = data;

	memset(info, 0, sizeof(*info));
	info->api_version = NCSYNC_API_VERSION;
	info->core = nfile->core->index;
	info->num_cores = ncsync_num_cores;
	info->num_sems = NCSYNC_NUM_SEMS;
	info->num_events = NCSYNC_NUM_EVENTS;
	info->csr_size = NCSYNC_CSR_SIZE;
	info->rt_reserved_sem_count = ncsync_rt_reserved_sems;
	info->rt_reserved_sem_first = NCSYNC_NUM_SEMS - ncsync_rt_reserved_sems;
	info->rt_reserved_event_count = ncsync_rt_reserved_events;
	info->rt_reserved_event_first =
		NCSYNC_NUM_EVENTS - ncsync_rt_reserved_events;
	info->devmem_offset = NCSYNC_DEVMEM_OFFSET;
	info->devmem_size = nfile->core->devmem_size;
	info->engine_mask = NCSYNC_ENGINE_MASK;
	info->num_regs = NCSYNC_NUM_REGS;
	info->watchdog_ms = READ_ONCE(ncsync_watchdog_ms);
	info->lnc = ncsync_lnc;
	return 0;
}

/* Write NCSYNC_IOC_OP's out fields, the only bytes it writes back. */
static int ncsync_op_put(struct ncsync_op __user *uop,
			 const struct ncsync_op *op)
{
	/* The two fields are adjacent: one window of user access for both. */
	if (!user_write_access_begin(&uop->before, 2 * sizeof(uop->before)))
		return -EFAULT;
	unsafe_put_user(op->before, &uop->before, efault);
	unsafe_put_user(op->after, &uop->after, efault);
	user_write_access_end();
	return 0;
efault:
	user_write_access_end();
	return -EFAULT;
}

/*
 * NCSYNC_IOC_OP: read or update one semaphore or event, on its own typed
 * copy of the argument.
 * Errors: EFAULT; EINVAL from ncsync_op_check(); EBADF for an update
 * through a read-only descriptor.
 */
static int ncsync_op_ioctl(struct ncsync_file *nfile,
			   struct ncsync_op __user *uop)
{
	struct ncsync_core *core = nfile->core;
	struct ncsync_wake_q wake;
	struct ncsync_op op;
	bool update;
	int ret;

	if (copy_from_user(&op, uop, sizeof(op)))
		return -EFAULT;
	ret = ncsync_op_check(&op, &update);
	if (ret)
		return ret;
	/* A read of one register is one load: no lock, as a poll reads. */
	if (!update) {
		op.before = op.bank == NCSYNC_BANK_SEM ?
			    ncsync_sem_get(core, op.index) :
			    ncsync_event_get(core, op.index);
		op.after = op.before;
		return ncsync_op_put(uop, &op);
	}
	if (!nfile->writable)
		return -EBADF;
	/*
	 * An update whose result cannot be written back must not happen:
	 * write the two out fields back unchanged first.
	 */
	if (ncsync_op_put(uop, &op))
		return -EFAULT;

	ncsync_core_lock(core, &wake);
	ncsync_op_apply_locked(core, &op);
	ncsync_core_unlock(core, &wake);
	return ncsync_op_put(uop, &op);
}

/*
 * NCSYNC_IOC_BATCH: apply up to NCSYNC_MAX_BATCH operations atomically, in
 * order, and write their results back.
 * Errors: EINVAL for non-zero flags, a count of 0 or above
 * NCSYNC_MAX_BATCH, or any invalid operation; EBADF for an update through
 * a read-only descriptor; EFAULT when the array cannot be read or written.
 * Nothing is applied on any error.
 */
static int ncsync_batch_ioctl(struct ncsync_file *nfile, void *data)
{
	struct ncsync_core *core = nfile->core;
	struct ncsync_batch *batch = data;
	void __user *uops = u64_to_user_ptr(batch->ops);
	bool update, any_update = false;
	struct ncsync_op *ops;
	struct ncsync_wake_q wake;
	size_t size;
	u32 n;
	int ret;

	if (batch->flags || !batch->count || batch->count > NCSYNC_MAX_BATCH)
		return -EINVAL;

	size = array_size(batch->count, sizeof(*ops));
	ops = vmemdup_user(uops, size);
	if (IS_ERR(ops))
		return PTR_ERR(ops);

	for (n = 0; n < batch->count; n++) {
		ret = ncsync_op_check(&ops[n], &update);
		if (ret)
			goto out;
		any_update |= update;
	}
	ret = -EBADF;
	if (any_update && !nfile->writable)
		goto out;
	/* The results must be writable before anything changes. */
	ret = -EFAULT;
	if (copy_to_user(uops, ops, size))
		goto out;

	ncsync_core_lock(core, &wake);
	for (n = 0; n < batch->count; n++)
		ncsync_op_apply_locked(core, &ops[n]);
	ncsync_core_unlock(core, &wake);

	ret = copy_to_user(uops, ops, size) ? -EFAULT : 0;
out:
	kvfree(ops);
	return ret;
}

/*
 * NCSYNC_IOC_WAIT: block until a semaphore condition or event state holds.
 * Errors: EINVAL for an unknown bank, mode or flag, a mode of the other
 * bank or a register form, an index out of range, a non-zero value on an
 * event wait, or a bad deadline; EBADF for a then-clear or then-set wait
 * through a read-only descriptor; then ETIMEDOUT, EINTR, ECANCELED or EBADF
 * from ncsync_wait().
 */
static int ncsync_wait_ioctl(struct ncsync_file *nfile, void *data)
{
	struct ncsync_wait *w = data;
	ktime_t deadline;
	bool valid;
	int ret;

	if (w->flags & ~NCSYNC_WAIT_F_ALL || w->index >= NCSYNC_NUM_SEMS ||
	    w->mode & NCSYNC_WAIT_REG)
		return -EINVAL;
	if (w->bank == NCSYNC_BANK_SEM)
		valid = ncsync_wait_mode_is_sem(w->mode);
	else if (w->bank == NCSYNC_BANK_EVENT)
		valid = ncsync_wait_mode_is_event(w->mode) && !w->value;
	else
		valid = false;
	if (!valid)
		return -EINVAL;
	ret = ncsync_deadline_get(&w->deadline, w->flags, &deadline);
	if (ret)
		return ret;
	if (!nfile->writable && (w->mode == NCSYNC_WAIT_EVT_SET_THEN_CLEAR ||
				 w->mode == NCSYNC_WAIT_EVT_CLEAR_THEN_SET))
		return -EBADF;

	return ncsync_wait(nfile, w, &deadline);
}

/*
 * NCSYNC_IOC_RESET: clear the core's banks, end its waits with ECANCELED.
 * Errors: EINVAL for non-zero flags or pad; EBADF through a read-only
 * descriptor.
 */
static int ncsync_reset_ioctl(struct ncsync_file *nfile, void *data)
{
	struct ncsync_reset *reset = data;

	if (reset->flags || reset->pad)
		return -EINVAL;
	if (!nfile->writable)
		return -EBADF;
	ncsync_core_reset(nfile->core);
	return 0;
}

/*
 * NCSYNC_IOC_ACK: acknowledge the core's change sequence for poll().
 * Errors: none of its own.
 */
static int ncsync_ack_ioctl(struct ncsync_file *nfile, void *data)
{
	struct ncsync_core *core = nfile->core;
	struct ncsync_seq *seq = data;

	spin_lock(&core->lock);
	seq->seq = atomic64_read(&core->seq);
	WRITE_ONCE(nfile->seen_seq, seq->seq);
	ncsync_poll_arm_locked(nfile);
	spin_unlock(&core->lock);
	return 0;
}

/*
 * NCSYNC_IOC_STATS: the core's counters.
 * Errors: none of its own.
 */
static int ncsync_stats_ioctl(struct ncsync_file *nfile, void *data)
{
	struct ncsync_core *core = nfile->core;

	spin_lock(&core->lock);
	memcpy(data, &core->stats, sizeof(core->stats));
	spin_unlock(&core->lock);
	return 0;
}

/*
 * NCSYNC_IOC_SUBMIT: validate a program and queue it.
 * Errors: EBADF through a read-only descriptor; the rest from
 * ncsync_submit().  The argument is written back on EINVAL too, to name a
 * refused record.  NCSYNC_IOC_SUBMIT_V1 is the same with the first 40
 * bytes: the fields after them read as zero (ncsync_ioctl() zeroes the
 * kernel copy), none is written back.
 */
static int ncsync_submit_ioctl(struct ncsync_file *nfile, void *data)
{
	struct ncsync_submit *sub = data;

	if (!nfile->writable)
		return -EBADF;
	if (sub->flags & NCSYNC_SUBMIT_F_CORES)
		return ncsync_submit_cores(nfile, sub);
	return ncsync_submit(nfile, sub);
}

/*
 * NCSYNC_IOC_PROG_STATUS: a program's state or snapshot.
 * Errors: from ncsync_prog_status().
 */
static int ncsync_prog_status_ioctl(struct ncsync_file *nfile, void *data)
{
	return ncsync_prog_status(nfile, data);
}

/*
 * NCSYNC_IOC_PROG_WAIT: wait for a program to end.
 * Errors: from ncsync_prog_wait().
 */
static int ncsync_prog_wait_ioctl(struct ncsync_file *nfile, void *data)
{
	return ncsync_prog_wait(nfile, data);
}

/*
 * NCSYNC_IOC_PROG_CANCEL: stop a program.
 * Errors: EINVAL for non-zero flags; ENOENT for an unknown id.
 */
static int ncsync_prog_cancel_ioctl(struct ncsync_file *nfile, void *data)
{
	struct ncsync_prog_cancel *pc = data;

	if (pc->flags)
		return -EINVAL;
	return ncsync_prog_cancel(nfile, pc->id);
}

typedef int (*ncsync_ioctl_fn)(struct ncsync_file *nfile, void *data);

/* How ncsync_ioctl_call() copies an argument. */
#define NCSYNC_IOCTL_PURE	BIT(0)	/* changes nothing: no write-back first */
#define NCSYNC_IOCTL_OUT_EINVAL	BIT(1)	/* written back on EINVAL: names what */

/* Large enough for the largest argument of ncsync_ioctl(). */
#define NCSYNC_IOCTL_MAX_SIZE	256

/*
 * Call @fn on a kernel copy of the argument of @cmd: exactly its bytes, and
 * for NCSYNC_IOC_SUBMIT_V1 zeroes after them (fields it has not); an
 * argument the kernel only writes starts zeroed, so no byte goes out
 * uninitialised.
 */
static int ncsync_ioctl_call(struct ncsync_file *nfile, unsigned int cmd,
			     void __user *uarg, ncsync_ioctl_fn fn,
			     unsigned int how)
{
	u8 kdata[NCSYNC_IOCTL_MAX_SIZE] __aligned(8);
	unsigned int size = _IOC_SIZE(cmd);
	int ret;

	if (WARN_ON_ONCE(size > sizeof(kdata)))
		return -ENOTTY;
	if (cmd == NCSYNC_IOC_SUBMIT_V1)
		memset(kdata + size, 0, sizeof(struct ncsync_submit) - size);
	if (!(_IOC_DIR(cmd) & _IOC_WRITE))
		memset(kdata, 0, size);
	else if (copy_from_user(kdata, uarg, size))
		return -EFAULT;
	/* An argument that cannot be written back must change nothing. */
	if ((_IOC_DIR(cmd) & _IOC_READ) && !(how & NCSYNC_IOCTL_PURE) &&
	    copy_to_user(uarg, kdata, size))
		return -EFAULT;

	ret = fn(nfile, kdata);
	if (ret == -EINVAL && (how & NCSYNC_IOCTL_OUT_EINVAL) &&
	    copy_to_user(uarg, kdata, size))
		return -EFAULT;
	if (ret)
		return ret;
	if ((_IOC_DIR(cmd) & _IOC_READ) && copy_to_user(uarg, kdata, size))
		return -EFAULT;
	return 0;
}

/**
 * ncsync_ioctl() - dispatch an ioctl of /dev/ncsyncN.
 * @file: the descriptor.
 * @cmd: the command.
 * @arg: the user pointer to its argument.
 *
 * Return: 0, or a negative errno; ENOTTY for an unknown command.
 */
long ncsync_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct ncsync_file *nfile = file->private_data;
	void __user *uarg = (void __user *)arg;
	unsigned int how = 0;
	ncsync_ioctl_fn fn;

	switch (cmd) {
	case NCSYNC_IOC_OP:
		return ncsync_op_ioctl(nfile, uarg);
	case NCSYNC_IOC_INFO:
		fn = ncsync_info_ioctl;
		how = NCSYNC_IOCTL_PURE;
		break;
	case NCSYNC_IOC_STATS:
		fn = ncsync_stats_ioctl;
		how = NCSYNC_IOCTL_PURE;
		break;
	case NCSYNC_IOC_BATCH:
		fn = ncsync_batch_ioctl;
		break;
	case NCSYNC_IOC_WAIT:
		fn = ncsync_wait_ioctl;
		break;
	case NCSYNC_IOC_RESET:
		fn = ncsync_reset_ioctl;
		break;
	case NCSYNC_IOC_ACK:
		fn = ncsync_ack_ioctl;
		break;
	case NCSYNC_IOC_SUBMIT:
	case NCSYNC_IOC_SUBMIT_V1:
		fn = ncsync_submit_ioctl;
		how = NCSYNC_IOCTL_OUT_EINVAL;
		break;
	case NCSYNC_IOC_PROG_STATUS:
		fn = ncsync_prog_status_ioctl;
		break;
	case NCSYNC_IOC_PROG_WAIT:
		fn = ncsync_prog_wait_ioctl;
		break;
	case NCSYNC_IOC_PROG_CANCEL:
		fn = ncsync_prog_cancel_ioctl;
		break;
	default:
		return -ENOTTY;
	}
	return ncsync_ioctl_call(nfile, cmd, uarg, fn, how);
}
