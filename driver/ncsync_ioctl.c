// SPDX-License-Identifier: GPL-2.0
/*
 * ncsync: the ioctls of /dev/ncsyncN.
 *
 * ncsync_ioctl() copies the argument in, calls the handler on the kernel
 * copy and copies it back out on success.  Common errors of every ioctl:
 * ENOTTY for an unknown command, EFAULT when the argument cannot be read
 * or written back (checked before anything changes), EBADF for a change
 * through a read-only descriptor.
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

/*
 * NCSYNC_IOC_OP: read or update one semaphore or event.
 * Errors: EINVAL from ncsync_op_check(); EBADF for an update through a
 * read-only descriptor.
 */
static int ncsync_op_ioctl(struct ncsync_file *nfile, void *data)
{
	struct ncsync_core *core = nfile->core;
	struct ncsync_op *op = data;
	struct ncsync_wake_q wake;
	bool update;
	int ret;

	ret = ncsync_op_check(op, &update);
	if (ret)
		return ret;
	if (update && !nfile->writable)
		return -EBADF;
	/* A read of one register is one load: no lock, as a poll reads. */
	if (!update) {
		op->before = op->bank == NCSYNC_BANK_SEM ?
			     ncsync_sem_get(core, op->index) :
			     ncsync_event_get(core, op->index);
		op->after = op->before;
		return 0;
	}

	ncsync_core_lock(core, &wake);
	ncsync_op_apply_locked(core, op);
	ncsync_core_unlock(core, &wake);
	return 0;
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
	nfile->seen_seq = core->seq;
	seq->seq = core->seq;
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

/**
 * struct ncsync_ioctl_desc - one ioctl.
 * @cmd: the command number, with its direction and size.
 * @fn: the handler, called on a kernel copy of the argument.
 * @out_on_einval: write the argument back when the handler fails with
 *	EINVAL too (it names what was refused).
 */
struct ncsync_ioctl_desc {
	unsigned int cmd;
	ncsync_ioctl_fn fn;
	bool out_on_einval;
};

static const struct ncsync_ioctl_desc ncsync_ioctls[] = {
	{ NCSYNC_IOC_INFO, ncsync_info_ioctl },
	{ NCSYNC_IOC_OP, ncsync_op_ioctl },
	{ NCSYNC_IOC_BATCH, ncsync_batch_ioctl },
	{ NCSYNC_IOC_WAIT, ncsync_wait_ioctl },
	{ NCSYNC_IOC_RESET, ncsync_reset_ioctl },
	{ NCSYNC_IOC_ACK, ncsync_ack_ioctl },
	{ NCSYNC_IOC_STATS, ncsync_stats_ioctl },
	{ NCSYNC_IOC_SUBMIT, ncsync_submit_ioctl, true },
	{ NCSYNC_IOC_SUBMIT_V1, ncsync_submit_ioctl, true },
	{ NCSYNC_IOC_PROG_STATUS, ncsync_prog_status_ioctl },
	{ NCSYNC_IOC_PROG_WAIT, ncsync_prog_wait_ioctl },
	{ NCSYNC_IOC_PROG_CANCEL, ncsync_prog_cancel_ioctl },
};

/* Large enough for the largest argument of ncsync_ioctls[]. */
#define NCSYNC_IOCTL_MAX_SIZE	256

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
	void __user *uarg = (void __user *)arg;
	const struct ncsync_ioctl_desc *desc = NULL;
	u8 kdata[NCSYNC_IOCTL_MAX_SIZE] __aligned(8);
	unsigned int i, size;
	int ret;

	for (i = 0; i < ARRAY_SIZE(ncsync_ioctls); i++) {
		if (ncsync_ioctls[i].cmd == cmd) {
			desc = &ncsync_ioctls[i];
			break;
		}
	}
	if (!desc)
		return -ENOTTY;

	size = _IOC_SIZE(cmd);
	if (WARN_ON_ONCE(size > sizeof(kdata)))
		return -ENOTTY;
	/* All of it: NCSYNC_IOC_SUBMIT_V1 reads the fields past its size. */
	memset(kdata, 0, sizeof(kdata));
	if ((_IOC_DIR(cmd) & _IOC_WRITE) && copy_from_user(kdata, uarg, size))
		return -EFAULT;
	/* An argument that cannot be written back must change nothing. */
	if ((_IOC_DIR(cmd) & _IOC_READ) && copy_to_user(uarg, kdata, size))
		return -EFAULT;

	ret = desc->fn(file->private_data, kdata);
	if (ret == -EINVAL && desc->out_on_einval &&
	    copy_to_user(uarg, kdata, size))
		return -EFAULT;
	if (ret)
		return ret;
	if ((_IOC_DIR(cmd) & _IOC_READ) && copy_to_user(uarg, kdata, size))
		return -EFAULT;
	return 0;
}
