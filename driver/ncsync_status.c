// SPDX-License-Identifier: GPL-2.0
/*
 * ncsync: what userspace asks of a submitted program: its status
 * (NCSYNC_IOC_PROG_STATUS, which may also release it), waiting for its end
 * (NCSYNC_IOC_PROG_WAIT) and cancelling it (NCSYNC_IOC_PROG_CANCEL).
 */
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "ncsync_drv.h"

/* Copy a program's status out under the lock; the caller copies to user. */
static void ncsync_status_fill_locked(struct ncsync_prog *prog,
				      struct ncsync_prog_status *ps,
				      struct ncsync_snapshot *tmp)
{
	lockdep_assert_held(&prog->core->prog_lock);
	ps->state = prog->lnc.group ? ncsync_group_state(prog->lnc.group) :
				      prog->run.state;
	ps->nengines = prog->nq;
	if (ncsync_prog_ended(prog) || prog->run.snapped)
		*tmp = *prog->snap;
	else
		ncsync_snapshot_fill_locked(prog, tmp);
	memcpy(ps->engines, tmp->engines, sizeof(ps->engines));
	ps->nsems = tmp->nsems;
}

/*
 * The program whose engines a status reports: @prog itself, or the member
 * of its group that @ps names; with a reference, or an ERR_PTR().
 */
static struct ncsync_prog *ncsync_status_target(struct ncsync_prog *prog,
						const struct ncsync_prog_status *ps)
{
	u32 pos = ps->core;
	struct ncsync_prog *m;

	if (!(ps->flags & NCSYNC_STATUS_F_CORE) && ps->core)
		return ERR_PTR(-EINVAL);
	if (!prog->lnc.group) {
		if (ps->flags & NCSYNC_STATUS_F_CORE &&
		    pos != prog->core->index - prog->core->lnc_first->index)
			return ERR_PTR(-EINVAL);
		kref_get(&prog->ref);
		return prog;
	}
	if (!(ps->flags & NCSYNC_STATUS_F_CORE))
		pos = prog->core->index - prog->core->lnc_first->index;
	m = ncsync_group_member_get(prog->lnc.group, pos);
	return m ?: ERR_PTR(-EINVAL);
}

/*
 * Fill @ps and @tmp for NCSYNC_IOC_PROG_STATUS, under the lock of the core
 * whose engines it reports; -EBUSY to release a program that runs,
 * -EINVAL for a core it does not name.
 */
static int ncsync_status_report(struct ncsync_prog *prog,
				struct ncsync_prog_status *ps,
				struct ncsync_snapshot *tmp)
{
	struct ncsync_prog *m = ncsync_status_target(prog, ps);

	if (IS_ERR(m))
		return PTR_ERR(m);
	if (ps->flags & NCSYNC_STATUS_F_RELEASE && !ncsync_prog_over(prog)) {
		ncsync_prog_put(m);
		return -EBUSY;
	}
	spin_lock(&m->core->prog_lock);
	ncsync_status_fill_locked(m, ps, tmp);
	spin_unlock(&m->core->prog_lock);
	ncsync_prog_put(m);
	return 0;
}

/**
 * ncsync_prog_status() - report a program's state.
 * @nfile: the descriptor that submitted it.
 * @ps: the request and the reply.
 *
 * Return: 0; -EINVAL for unknown flags, a non-zero @ps->core without
 * NCSYNC_STATUS_F_CORE or a core the program does not name; -ENOENT for an
 * unknown or released id; -EBUSY to release a program that has not ended;
 * -EFAULT when @ps->sems cannot be written.
 */
int ncsync_prog_status(struct ncsync_file *nfile,
		       struct ncsync_prog_status *ps)
{
	struct ncsync_core *core = nfile->core;
	void __user *usems = u64_to_user_ptr(ps->sems);
	struct ncsync_snapshot *tmp;
	struct ncsync_prog *prog;
	bool release;
	int ret = 0;

	if (ps->flags & ~NCSYNC_STATUS_F_ALL)
		return -EINVAL;
	prog = ncsync_prog_get(nfile, ps->id);
	if (!prog)
		return -ENOENT;
	tmp = ncsync_snapshot_alloc();
	if (!tmp) {
		ret = -ENOMEM;
		goto out;
	}
	ret = ncsync_status_report(prog, ps, tmp);
	if (ret)
		goto out;
	release = ps->flags & NCSYNC_STATUS_F_RELEASE;

	if (usems && copy_to_user(usems, tmp->sems,
				  ps->nsems * sizeof(tmp->sems[0]))) {
		ret = -EFAULT;
		goto out;
	}
	if (!usems)
		ps->nsems = 0;

	spin_lock(&core->prog_lock);
	if (ncsync_prog_over(prog))
		prog->run.seen = true;
	if (release && !list_empty(&prog->lists.file_node)) {
		ncsync_file_forget_locked(nfile, prog);
		spin_unlock(&core->prog_lock);
		ncsync_prog_put_forgotten(prog); /* the descriptor's reference */
	} else {
		spin_unlock(&core->prog_lock);
	}
out:
	ncsync_snapshot_free(tmp);
	ncsync_prog_put(prog);
	return ret;
}

/**
 * struct ncsync_prog_waiter - the state of one NCSYNC_IOC_PROG_WAIT.
 * @prog: the program.
 * @state: out: its final state.
 */
struct ncsync_prog_waiter {
	struct ncsync_prog *prog;
	u32 state;
};

static int ncsync_prog_wait_cond(void *arg)
{
	struct ncsync_prog_waiter *pw = arg;
	struct ncsync_core *core = pw->prog->core;
	struct ncsync_group *g = pw->prog->lnc.group;
	int ret = 0;

	spin_lock(&core->prog_lock);
	/*
	 * A member, waited for by its id on its own core's descriptor, waits
	 * for the whole program as the primary does: the state it reports
	 * (the group's, as NCSYNC_IOC_PROG_STATUS's) is final only then.
	 */
	if (g ? ncsync_group_ended(g) : ncsync_prog_ended(pw->prog)) {
		pw->state = g ? ncsync_group_state(g) : pw->prog->run.state;
		pw->prog->run.seen = true;
		ret = 1;
	}
	spin_unlock(&core->prog_lock);
	return ret;
}

/**
 * ncsync_prog_wait() - wait for a program to end.
 * @nfile: the descriptor that submitted it.
 * @pw: the request; @pw->state is set on success.
 *
 * Return: 0; -EINVAL for bad flags, reserved or deadline; -ENOENT for an
 * unknown id; -ETIMEDOUT, -ERESTARTSYS or -EBADF from ncsync_sleep().
 */
int ncsync_prog_wait(struct ncsync_file *nfile, struct ncsync_prog_wait *pw)
{
	struct ncsync_prog_waiter waiter = { };
	struct ncsync_group *g;
	ktime_t deadline;
	int ret;

	if (pw->flags & ~NCSYNC_WAIT_F_ALL || pw->reserved)
		return -EINVAL;
	ret = ncsync_deadline_get(&pw->deadline, pw->flags, &deadline);
	if (ret)
		return ret;
	waiter.prog = ncsync_prog_get(nfile, pw->id);
	if (!waiter.prog)
		return -ENOENT;
	g = waiter.prog->lnc.group;
	ret = ncsync_sleep(nfile, g ? &g->done_wq : &nfile->core->done_wq,
			   NULL, waiter.prog, &deadline, ncsync_prog_wait_cond,
			   &waiter);
	if (!ret)
		pw->state = waiter.state;
	ncsync_prog_put(waiter.prog);
	return ret;
}

/**
 * ncsync_prog_cancel() - stop a program; it ends as cancelled.
 * @nfile: the descriptor that submitted it.
 * @id: the program.
 *
 * Cancelling a program that has ended does nothing.
 *
 * Return: 0 or -ENOENT.
 */
int ncsync_prog_cancel(struct ncsync_file *nfile, u32 id)
{
	struct ncsync_core *core = nfile->core;
	struct ncsync_prog *prog = ncsync_prog_get(nfile, id);
	bool stopped;

	if (!prog)
		return -ENOENT;
	spin_lock(&core->prog_lock);
	stopped = ncsync_prog_stop_locked(prog, NCSYNC_FAULT_CANCELLED);
	spin_unlock(&core->prog_lock);
	if (stopped)
		ncsync_progs_wake(core, prog->engine_mask);
	ncsync_prog_put(prog);
	return 0;
}

/**
 * ncsync_file_progs_unseen() - whether a descriptor has a program whose end
 *	was not reported yet.
 * @nfile: the descriptor.
 *
 * Return: true if so.
 */
bool ncsync_file_progs_unseen(struct ncsync_file *nfile)
{
	struct ncsync_core *core = nfile->core;
	struct ncsync_prog *prog;
	bool unseen = false;

	spin_lock(&core->prog_lock);
	list_for_each_entry(prog, &nfile->progs, lists.file_node)
		if (ncsync_prog_over(prog) && !prog->run.seen)
			unseen = true;
	spin_unlock(&core->prog_lock);
	return unseen;
}
