// SPDX-License-Identifier: GPL-2.0
/*
 * ncsync: a program's lifetime: its allocation, references and release;
 * its end; the reaper that frees decoded records handed over under a
 * lock; a descriptor's list of its programs (lookup, eviction, forgetting).
 *
 * A program holds one queue per engine (struct ncsync_prog).  It is
 * submitted by ncsync_submit.c, run in order by ncsync_sched.c, reported
 * by ncsync_status.c and stopped by ncsync_stop.c, all above this file.
 */
#include <linux/jiffies.h>
#include <linux/overflow.h>
#include <linux/slab.h>
#include <linux/workqueue.h>

#include "ncsync_drv.h"

static void ncsync_prog_free(struct kref *ref)
{
	struct ncsync_prog *prog = container_of(ref, struct ncsync_prog, ref);
	unsigned int i;

	for (i = 0; i < prog->nq; i++) {
		kvfree(prog->q[i].insns);
		kvfree(prog->q[i].dma_slots);
	}
	ncsync_charge_end(&prog->charge);
	if (prog->lnc.group) {
		if (!list_empty(&prog->lnc.node)) {
			spin_lock(&prog->core->prog_lock);
			list_del(&prog->lnc.node);
			spin_unlock(&prog->core->prog_lock);
		}
		ncsync_group_put(prog->lnc.group);
	}
	ncsync_snapshot_free(prog->snap);
	kfree(prog);
}

/**
 * ncsync_prog_put() - drop a reference to a program.
 * @prog: the program; no spinlock held (freeing may sleep).
 */
void ncsync_prog_put(struct ncsync_prog *prog)
{
	kref_put(&prog->ref, ncsync_prog_free);
}

/**
 * ncsync_prog_put_forgotten() - drop the reference of the descriptor that
 *	forgot a program.
 * @prog: the program, off its descriptor's list; no spinlock held.
 *
 * The primary of a program across cores takes the group's references on
 * its members with it: nothing can name the program any more.
 */
void ncsync_prog_put_forgotten(struct ncsync_prog *prog)
{
	if (prog->lnc.group && !prog->lnc.idx)
		ncsync_group_forget(prog->lnc.group);
	ncsync_prog_put(prog);
}

/* Where a program's progress is kept: its group's, for a member. */
static unsigned long *ncsync_prog_progress_ptr(struct ncsync_prog *prog)
{
	return prog->lnc.group ? &prog->lnc.group->last_progress :
				 &prog->run.last_progress;
}

/**
 * ncsync_prog_progress() - note that a program made progress.
 * @prog: the program.
 */
void ncsync_prog_progress(struct ncsync_prog *prog)
{
	WRITE_ONCE(*ncsync_prog_progress_ptr(prog), jiffies);
}

/**
 * ncsync_prog_last_progress() - when a program last made progress.
 * @prog: the program.
 *
 * Return: the jiffies of its last progress, or of its group's for a member
 * of a program across cores: its watchdog measures the whole program.
 */
unsigned long ncsync_prog_last_progress(struct ncsync_prog *prog)
{
	return READ_ONCE(*ncsync_prog_progress_ptr(prog));
}

/**
 * ncsync_insns_reap_locked() - free a program's decoded records from under
 *	a spinlock.
 * @prog: the program; prog_lock held.
 *
 * kvfree() may sleep, so the program, with a reference, goes to the core's
 * reaper.
 */
void ncsync_insns_reap_locked(struct ncsync_prog *prog)
{
	lockdep_assert_held(&prog->core->prog_lock);
	kref_get(&prog->ref);
	llist_add(&prog->lists.reap_node, &prog->core->reap);
	schedule_work(&prog->core->reap_work);
}

/**
 * ncsync_reap_fn() - free the decoded records of programs handed over
 *	under a lock.
 * @work: ncsync_core.reap_work.
 */
void ncsync_reap_fn(struct work_struct *work)
{
	struct ncsync_core *core = container_of(work, struct ncsync_core,
						reap_work);
	struct ncsync_prog *prog, *next;
	unsigned int i;

	llist_for_each_entry_safe(prog, next, llist_del_all(&core->reap),
				  lists.reap_node) {
		for (i = 0; i < prog->nq; i++) {
			kvfree(prog->q[i].insns);
			prog->q[i].insns = NULL;
		}
		ncsync_prog_put(prog);
	}
}

/**
 * ncsync_prog_over() - whether what a descriptor's id names has ended: the
 *	program, or for the primary of a program across cores, every member.
 * @prog: the program; its core's prog_lock held or not.
 *
 * Return: true if so.
 */
bool ncsync_prog_over(struct ncsync_prog *prog)
{
	if (prog->lnc.group && !prog->lnc.idx)
		return ncsync_group_ended(prog->lnc.group);
	return ncsync_prog_ended(prog);
}

/**
 * ncsync_prog_end_locked() - a program ended: give its decoded records'
 *	memory back to the descriptor and the user, wake the descriptor's
 *	pollers (EPOLLPRI), notify netlink and its group.
 * @prog: the program; prog_lock held.
 */
void ncsync_prog_end_locked(struct ncsync_prog *prog)
{
	lockdep_assert_held(&prog->core->prog_lock);
	if (prog->lnc.group)
		ncsync_group_member_end_locked(prog);
	list_del(&prog->lists.core_node);
	ncsync_charge_insns_end_locked(prog);
	/* Under prog_lock: the descriptor cannot be released meanwhile. */
	wake_up_all(&prog->nfile->poll_wq);
	prog->core->ntf_prog_ended(prog);
}

/**
 * ncsync_file_forget_locked() - a descriptor forgets a program.
 * @nfile: the descriptor; its core's prog_lock held.
 * @prog: its program, ended (release or eviction) or never started (a
 *	member ncsync_prog_unqueue() took back).
 *
 * The rest of its memory charge goes back to the descriptor.  The caller
 * puts the descriptor's reference; the user's charge goes when the program
 * is freed.
 */
void ncsync_file_forget_locked(struct ncsync_file *nfile,
			       struct ncsync_prog *prog)
{
	lockdep_assert_held(&nfile->core->prog_lock);
	list_del_init(&prog->lists.file_node);
	nfile->nprogs--;
	ncsync_charge_file_forget_locked(prog);
}

/**
 * ncsync_file_evict_locked() - make room for one more program on a
 *	descriptor.
 * @nfile: the descriptor; its core's prog_lock held.
 *
 * Forgets its oldest ended program when it has NCSYNC_MAX_PROGS_PER_FD.
 *
 * Return: the program to free (with ncsync_prog_put_forgotten()),
 * ERR_PTR(-EAGAIN) when none has ended, or NULL when there is room.
 */
struct ncsync_prog *ncsync_file_evict_locked(struct ncsync_file *nfile)
{
	struct ncsync_prog *prog;

	lockdep_assert_held(&nfile->core->prog_lock);
	if (nfile->nprogs < NCSYNC_MAX_PROGS_PER_FD)
		return NULL;
	list_for_each_entry(prog, &nfile->progs, lists.file_node) {
		if (ncsync_prog_over(prog)) {
			ncsync_file_forget_locked(nfile, prog);
			return prog;
		}
	}
	return ERR_PTR(-EAGAIN);
}

/**
 * ncsync_prog_alloc() - allocate a program, its snapshot and the arrays of
 *	its decoded records.
 * @nq: its queues.
 * @counts: each queue's records.
 *
 * Nothing is charged here: ncsync_prog_make() charged it all before.
 *
 * Return: the program with one reference, zeroed but for the records, or
 * NULL.
 */
struct ncsync_prog *ncsync_prog_alloc(u32 nq, const u32 *counts)
{
	struct ncsync_prog *prog;
	u32 i;

	prog = kzalloc(struct_size(prog, q, nq), GFP_KERNEL_ACCOUNT);
	if (!prog)
		return NULL;
	kref_init(&prog->ref);
	INIT_LIST_HEAD(&prog->dma.copies);
	INIT_LIST_HEAD(&prog->dma.node);
	INIT_LIST_HEAD(&prog->lnc.node);
	prog->nq = nq;
	prog->snap = ncsync_snapshot_alloc();
	if (!prog->snap)
		goto err;
	for (i = 0; i < nq; i++) {
		prog->q[i].insns = ncsync_kv_alloc(ncsync_insns_size(counts[i]),
						   GFP_KERNEL_ACCOUNT);
		if (!prog->q[i].insns)
			goto err;
	}
	return prog;
err:
	ncsync_prog_put(prog);
	return NULL;
}

/**
 * ncsync_prog_get() - find a program of a descriptor.
 * @nfile: the descriptor.
 * @id: the program's id.
 *
 * Return: the program with a reference, or NULL when the descriptor does
 * not hold one of that id.
 */
struct ncsync_prog *ncsync_prog_get(struct ncsync_file *nfile, u32 id)
{
	struct ncsync_core *core = nfile->core;
	struct ncsync_prog *prog;

	spin_lock(&core->prog_lock);
	list_for_each_entry(prog, &nfile->progs, lists.file_node) {
		if (prog->id == id) {
			kref_get(&prog->ref);
			spin_unlock(&core->prog_lock);
			return prog;
		}
	}
	spin_unlock(&core->prog_lock);
	return NULL;
}

/*
 * The descriptor of a member's core forgets it with the program, once it
 * ended (Documentation/ncsync/engines.rst, "Programs across cores"): its
 * charge and its place among the descriptor's programs go back.  Its
 * descriptor is alive while the member is on its list, which a close
 * empties under the same lock.
 */
static void ncsync_member_forget(struct ncsync_prog *m)
{
	struct ncsync_core *core = m->core;
	bool listed;

	spin_lock(&core->prog_lock);
	listed = !list_empty(&m->lists.file_node) && ncsync_prog_over(m);
	if (listed)
		ncsync_file_forget_locked(m->nfile, m);
	spin_unlock(&core->prog_lock);
	if (listed)
		ncsync_prog_put(m);	/* the descriptor's reference */
}

/**
 * ncsync_group_forget() - drop the group's references to its members, and
 *	the other cores' descriptors' references to those that ended.
 * @g: the group; its primary was forgotten by its descriptor (the caller
 *	holds the primary's reference); no spinlock held.
 */
void ncsync_group_forget(struct ncsync_group *g)
{
	struct ncsync_prog *m;
	unsigned int i;

	for (i = 0; i < g->n; i++) {
		spin_lock(&g->lock);
		m = g->members[i];
		g->members[i] = NULL;
		spin_unlock(&g->lock);
		if (!m)
			continue;
		if (i)
			ncsync_member_forget(m);
		ncsync_prog_put(m);
	}
}

