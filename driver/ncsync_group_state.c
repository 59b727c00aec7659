// SPDX-License-Identifier: GPL-2.0
/*
 * ncsync: the state of programs across cores (struct ncsync_group) as
 * their members run: when they may start, how the first stop spreads, and
 * the program's final state.  ncsync_group.c submits such programs and
 * runs the group's work; this file is below every other program file, and
 * calls only the banks.
 */
#include <linux/slab.h>
#include <linux/workqueue.h>

#include "ncsync_drv.h"

/* Runs the groups' works; drained before the module goes. */
static struct workqueue_struct *ncsync_group_wq;

/**
 * ncsync_groups_init() - set up what programs across cores need.
 *
 * Return: 0 or -ENOMEM.
 */
int ncsync_groups_init(void)
{
	ncsync_group_wq = alloc_workqueue("ncsync_group", 0, 0);
	return ncsync_group_wq ? 0 : -ENOMEM;
}

/**
 * ncsync_groups_drain() - wait for the groups' works, also those they
 *	queue.
 *
 * Module teardown, once no engine, DMA engine or watchdog of any core runs:
 * nothing else queues one.
 */
void ncsync_groups_drain(void)
{
	drain_workqueue(ncsync_group_wq);
}

/**
 * ncsync_groups_fini() - wait for the groups' works and free their queue.
 */
void ncsync_groups_fini(void)
{
	destroy_workqueue(ncsync_group_wq);
}

static void ncsync_group_free(struct kref *ref)
{
	kfree(container_of(ref, struct ncsync_group, ref));
}

/**
 * ncsync_group_put() - drop a reference to a group.
 * @g: the group; any context (freeing it frees nothing else).
 */
void ncsync_group_put(struct ncsync_group *g)
{
	kref_put(&g->ref, ncsync_group_free);
}

/**
 * ncsync_group_kick() - queue a group's work.
 * @g: the group; the caller holds a reference, so this never puts the last.
 */
void ncsync_group_kick(struct ncsync_group *g)
{
	kref_get(&g->ref);
	if (!queue_work(ncsync_group_wq, &g->work))
		ncsync_group_put(g);
}

/* A member's position in its logical core. */
static u32 ncsync_prog_pos(const struct ncsync_prog *prog)
{
	return prog->core->index - prog->core->lnc_first->index;
}

/**
 * ncsync_group_may_start_locked() - whether a member that may start on its
 *	core may start: whether every member may.
 * @prog: the member; no earlier program of its core shares an engine with
 *	it; its core's prog_lock held.
 *
 * The first call for a member counts it ready; the last member to become
 * ready releases them all and kicks their engines.  A member stays ready:
 * earlier programs only end.
 *
 * Return: true when the members start.
 */
bool ncsync_group_may_start_locked(struct ncsync_prog *prog)
{
	struct ncsync_group *g = prog->lnc.group;
	unsigned int i;

	lockdep_assert_held(&prog->core->prog_lock);
	if (!prog->lnc.ready) {
		prog->lnc.ready = true;
		if (atomic_inc_return(&g->nready) == g->n) {
			WRITE_ONCE(g->go, true);
			spin_lock(&g->lock);
			for (i = 0; i < g->n; i++)
				if (g->members[i])
					ncsync_engines_kick(g->members[i]->core,
							    g->members[i]->engine_mask);
			spin_unlock(&g->lock);
		}
	}
	return READ_ONCE(g->go);
}

/**
 * ncsync_group_stop() - a member stopped: stop the others.
 * @g: the group.
 * @origin: the member's index.
 * @reason: its NCSYNC_FAULT_* reason, which the others stop with too.
 *
 * The first stop wins; a program that ended stays as it ended.  Called
 * with a member's core's prog_lock held or not.
 */
void ncsync_group_stop(struct ncsync_group *g, unsigned int origin,
		       int reason)
{
	spin_lock(&g->lock);
	if (!g->stop && !g->ended) {
		g->stop = reason;
		g->origin = origin;
		ncsync_group_kick(g);
	}
	spin_unlock(&g->lock);
}

/* The final state of a group whose members all ended; g->lock held. */
static u32 ncsync_group_final_locked(struct ncsync_group *g)
{
	u32 state = NCSYNC_PROG_DONE;
	unsigned int i;

	lockdep_assert_held(&g->lock);
	switch (g->stop) {
	case 0:
		break;
	case NCSYNC_FAULT_WATCHDOG:
		return NCSYNC_PROG_TIMED_OUT;
	case NCSYNC_FAULT_PEER:		/* an engine faulted */
		return NCSYNC_PROG_FAULTED;
	default:
		return NCSYNC_PROG_CANCELLED;
	}
	for (i = 0; i < g->n; i++)
		state = max_t(u32, state, g->mstate[i]);
	return state;
}

/**
 * ncsync_group_member_end_locked() - a member ended.
 * @prog: the member, its final state set; its core's prog_lock held.
 *
 * The last member ends the program: its state is final, its waiters are
 * woken, and the primary's pollers by the work when the primary is not
 * the last (its core's lock is not held here).
 */
void ncsync_group_member_end_locked(struct ncsync_prog *prog)
{
	struct ncsync_group *g = prog->lnc.group;

	lockdep_assert_held(&prog->core->prog_lock);
	spin_lock(&g->lock);
	g->mstate[prog->lnc.idx] = prog->run.state;
	if (!--g->nlive) {
		g->state = ncsync_group_final_locked(g);
		/* @state before @ended: ncsync_group_ended()'s acquire. */
		smp_store_release(&g->ended, true);
		if (prog->lnc.idx) {
			g->poll_pending = true;
			ncsync_group_kick(g);
		}
	}
	spin_unlock(&g->lock);
	wake_up_all(&g->done_wq);
}

/**
 * ncsync_group_ended() - whether every member of a group ended.
 * @g: the group.
 *
 * Return: true if so; then ncsync_group_state() is final.
 */
bool ncsync_group_ended(struct ncsync_group *g)
{
	/* Pairs with the release in ncsync_group_member_end_locked(). */
	return smp_load_acquire(&g->ended);
}

/**
 * ncsync_group_state() - the NCSYNC_PROG_* state of a program across cores.
 * @g: the group.
 *
 * Return: queued until its members start, running until every one ended,
 * then its final state.
 */
u32 ncsync_group_state(struct ncsync_group *g)
{
	if (ncsync_group_ended(g))
		return g->state;
	return READ_ONCE(g->go) ? NCSYNC_PROG_RUNNING : NCSYNC_PROG_QUEUED;
}

/**
 * ncsync_group_member_get() - the member of a group on a core.
 * @g: the group.
 * @pos: the core's position in the logical core.
 *
 * Return: the member with a reference, or NULL when the program names no
 * queue on that core or was forgotten.
 */
struct ncsync_prog *ncsync_group_member_get(struct ncsync_group *g, u32 pos)
{
	struct ncsync_prog *m = NULL;
	unsigned int i;

	spin_lock(&g->lock);
	for (i = 0; i < g->n; i++) {
		if (g->members[i] && ncsync_prog_pos(g->members[i]) == pos) {
			m = g->members[i];
			kref_get(&m->ref);
			break;
		}
	}
	spin_unlock(&g->lock);
	return m;
}

