// SPDX-License-Identifier: GPL-2.0
/*
 * ncsync: blocking waits for a semaphore condition or an event state.
 *
 * A wait sleeps on the wait queue of the semaphore or event it waits on
 * and re-tests its condition under the core lock after every wake-up.  It
 * ends when the condition holds, at its absolute CLOCK_MONOTONIC deadline
 * (ETIMEDOUT), on a signal
 * (ERESTARTSYS: the deadline is absolute, so a restart is exact), when the
 * core is reset (ECANCELED) or when the waiting process closes the
 * descriptor (EBADF).
 */
#include <linux/fdtable.h>
#include <linux/hrtimer.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/time64.h>

#include "ncsync_drv.h"
#include "ncsync_exec.h"

/* Timer slack of a wait deadline: waits are for people, not for hardware. */
#define NCSYNC_WAIT_SLACK_NS	(50 * NSEC_PER_USEC)

/**
 * ncsync_deadline_get() - check and convert a deadline from userspace.
 * @ts: absolute CLOCK_MONOTONIC time.
 * @flags: NCSYNC_WAIT_F_* of the request.
 * @deadline: out: the deadline, or KTIME_MAX with NCSYNC_WAIT_F_NO_DEADLINE.
 *
 * Return: 0, or -EINVAL for a negative or unnormalised time, or a non-zero
 * time together with NCSYNC_WAIT_F_NO_DEADLINE.
 */
int ncsync_deadline_get(const struct ncsync_timespec *ts, u32 flags,
			ktime_t *deadline)
{
	if (flags & NCSYNC_WAIT_F_NO_DEADLINE) {
		if (ts->tv_sec || ts->tv_nsec)
			return -EINVAL;
		*deadline = KTIME_MAX;
		return 0;
	}
	if (ts->tv_sec < 0 || ts->tv_nsec < 0 || ts->tv_nsec >= NSEC_PER_SEC)
		return -EINVAL;
	*deadline = ktime_set(ts->tv_sec, ts->tv_nsec);
	return 0;
}

/*
 * Test a wait and, when it passes, apply its then-clear or then-set action.
 * Return true when the wait is over, with *result set.
 */
static bool ncsync_wait_test_locked(struct ncsync_core *core,
				    const struct ncsync_wait_op *w,
				    s32 *result)
{
	bool state, after;
	s32 val;

	lockdep_assert_held(&core->lock);
	if (w->bank == NCSYNC_BANK_SEM) {
		val = core->sems[w->index];
		if (!ncsync_wait_sem_passes(w, val, (s32)w->value))
			return false;
		*result = val;
		return true;
	}

	state = core->events[w->index];
	if (!ncsync_wait_event_passes(w, state, &after))
		return false;
	if (after != state)
		ncsync_event_write_locked(core, w->index, after);
	*result = state;
	return true;
}

static int ncsync_fd_is(const void *file, struct file *f, unsigned int fd)
{
	return f == file;
}

/*
 * Whether the calling process has closed every descriptor of @nfile's open
 * file.  Called once a waiter is on @nfile->waiters: a close() that removed
 * the last such descriptor before then ran its flush before the waiter
 * was listed, so it could not end the wait; one that removes it later
 * finds the waiter listed.
 */
static bool ncsync_file_closed_by_current(struct ncsync_file *nfile)
{
	struct files_struct *files = current->files;

	return files && !iterate_fd(files, 0, ncsync_fd_is, nfile->file);
}

/**
 * ncsync_sleep() - sleep until a condition holds, interruptibly.
 * @nfile: the descriptor the wait is made through.
 * @wq: the wait queue @cond's changes are signalled on.
 * @bank_op: for a queue of ncsync_core.bank_wq, the wait @cond tests: a
 *	change wakes the sleeper only when it holds (and the wake-ups are
 *	counted); NULL for another queue.
 * @key: for ncsync_core.done_wq, the program @cond waits for: the end of
 *	another one does not wake the sleeper; NULL for any wake-up.
 * @deadline: absolute CLOCK_MONOTONIC deadline, KTIME_MAX for none.
 * @cond: called after every wake-up; returns 1 when the wait is over, a
 *	negative errno to end it with that error, 0 to sleep again.
 * @arg: its argument.
 *
 * The wait also ends when the calling process closes @nfile, including a
 * close() that ran while the wait was entering the kernel: before it first
 * sleeps, a wait whose process has no descriptor of the open file left
 * ends with -EBADF.
 *
 * Return: 0, the error of @cond, -ETIMEDOUT, -ERESTARTSYS or -EBADF.
 */
int ncsync_sleep(struct ncsync_file *nfile, wait_queue_head_t *wq,
		 const struct ncsync_wait_op *bank_op, const void *key,
		 const ktime_t *deadline, int (*cond)(void *arg), void *arg)
{
	struct ncsync_core *core = nfile->core;
	struct ncsync_waiter waiter = { .owner = current->files, .wq = wq };
	struct ncsync_wait_entry entry;
	ktime_t expires = *deadline;
	bool checked = false;
	int ret;

	ncsync_wait_entry_init(&entry, bank_op ? core : NULL);
	if (bank_op)
		ncsync_wait_entry_cond(&entry, bank_op, (s32)bank_op->value);
	entry.key = key;

	spin_lock(&core->lock);
	list_add(&waiter.node, &nfile->waiters);
	spin_unlock(&core->lock);

	for (;;) {
		prepare_to_wait(wq, &entry.wq, TASK_INTERRUPTIBLE);
		if (READ_ONCE(waiter.closed)) {
			ret = -EBADF;
			break;
		}
		ret = cond(arg);
		if (ret)
			break;
		if (signal_pending(current)) {
			ret = -ERESTARTSYS;
			break;
		}
		if (ktime_compare(ktime_get(), expires) >= 0) {
			ret = -ETIMEDOUT;
			break;
		}
		if (!checked) {
			checked = true;
			if (ncsync_file_closed_by_current(nfile)) {
				ret = -EBADF;
				break;
			}
		}
		if (expires == KTIME_MAX)
			schedule();
		else
			schedule_hrtimeout_range(&expires, NCSYNC_WAIT_SLACK_NS,
						 HRTIMER_MODE_ABS);
	}
	finish_wait(wq, &entry.wq);

	spin_lock(&core->lock);
	list_del(&waiter.node);
	spin_unlock(&core->lock);
	return ret < 0 ? ret : 0;
}

/**
 * struct ncsync_bank_wait - the state of one NCSYNC_IOC_WAIT.
 * @core: the core.
 * @w: the request.
 * @op: what it waits for, decoded as an engine's wait is.
 * @gen: the core's reset generation when the wait began.
 */
struct ncsync_bank_wait {
	struct ncsync_core *core;
	struct ncsync_wait *w;
	struct ncsync_wait_op op;
	u64 gen;
};

static int ncsync_bank_wait_cond(void *arg)
{
	struct ncsync_bank_wait *bw = arg;
	struct ncsync_core *core = bw->core;
	struct ncsync_wake_q wake;
	int ret = 0;

	ncsync_core_lock(core, &wake);
	if (core->reset_gen != bw->gen)
		ret = -ECANCELED;
	else if (ncsync_wait_test_locked(core, &bw->op, &bw->w->result))
		ret = 1;
	ncsync_core_unlock(core, &wake);
	return ret;
}

/**
 * ncsync_wait() - block until a wait request is satisfied.
 * @nfile: the descriptor; its permissions were checked by the caller.
 * @w: the request, validated by the caller; @w->result is set on success.
 * @deadline: absolute CLOCK_MONOTONIC deadline, KTIME_MAX for none.
 *
 * Return: 0, -ETIMEDOUT, -ERESTARTSYS, -ECANCELED or -EBADF.
 */
int ncsync_wait(struct ncsync_file *nfile, struct ncsync_wait *w,
		const ktime_t *deadline)
{
	struct ncsync_core *core = nfile->core;
	struct ncsync_bank_wait bw = { .core = core, .w = w };

	ncsync_wait_op_decode(w->mode, w->index, w->value, &bw.op);
	spin_lock(&core->lock);
	bw.gen = core->reset_gen;
	spin_unlock(&core->lock);

	return ncsync_sleep(nfile, ncsync_bank_wq(core, w->bank, w->index),
			    &bw.op, NULL, deadline, ncsync_bank_wait_cond, &bw);
}

/**
 * ncsync_flush_waiters() - end the waits a process has on a descriptor.
 * @nfile: the descriptor being closed.
 * @owner: the files_struct of the closing process.
 *
 * Called from the flush method, that is on every close(); waits of other
 * processes sharing the open file (after fork()) go on.  Only the queues
 * those waits sleep on are woken.
 */
void ncsync_flush_waiters(struct ncsync_file *nfile, fl_owner_t owner)
{
	struct ncsync_core *core = nfile->core;
	struct ncsync_waiter *waiter;
	struct ncsync_wake_q wake;

	ncsync_core_lock(core, &wake);
	list_for_each_entry(waiter, &nfile->waiters, node) {
		if (waiter->owner == owner) {
			waiter->closed = true;
			wake_up_all(waiter->wq);
		}
	}
	ncsync_core_unlock(core, &wake);
}
