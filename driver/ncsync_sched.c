// SPDX-License-Identifier: GPL-2.0
/*
 * ncsync: the order programs run in.
 *
 * A program holds one queue per engine.  It starts once every earlier
 * program of the core that shares an engine with it has ended; then all its
 * queues start together.  Programs on disjoint engines run concurrently.
 * The engines claim their queues here, and hand them back when done; the
 * last queue ends its program.  Stopping a program is also decided here.
 */
#include <linux/jiffies.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/workqueue.h>

#include "ncsync_drv.h"

/* A queued program starts: all its queues together. */
static void ncsync_prog_start_locked(struct ncsync_prog *prog)
{
	struct ncsync_core *core = prog->core;

	lockdep_assert_held(&core->prog_lock);
	prog->run.state = NCSYNC_PROG_RUNNING;
	ncsync_prog_progress(prog);
	schedule_delayed_work(&core->watchdog, 1);
	ncsync_engines_kick(core, prog->engine_mask);
}

/* The queue of a program that @engine has yet to run, or NULL. */
static struct ncsync_equeue *ncsync_prog_queue_of(struct ncsync_prog *prog,
						  u8 engine)
{
	unsigned int i;

	for (i = 0; i < prog->nq; i++) {
		struct ncsync_equeue *q = &prog->q[i];

		if (q->engine == engine && !q->finished &&
		    q->st.state == NCSYNC_ENG_QUEUED)
			return q;
	}
	return NULL;
}

/*
 * Walk the core's programs in submission order for @engine.  A queued
 * program starts once no earlier program shares an engine with it; the
 * walk ends at the first program that uses @engine.  With @take, start
 * what may start and claim @engine's queue (*@found); without, only tell
 * whether there is anything to do.
 */
static bool ncsync_prog_walk_locked(struct ncsync_core *core, u8 engine,
				    bool take, struct ncsync_equeue **found)
{
	struct ncsync_prog *prog;
	struct ncsync_equeue *q;
	u32 busy = 0, bit = BIT(engine);

	lockdep_assert_held(&core->prog_lock);
	list_for_each_entry(prog, &core->progs, lists.core_node) {
		bool mine = prog->engine_mask & bit;

		if (prog->run.state == NCSYNC_PROG_QUEUED && !prog->stop &&
		    !(prog->engine_mask & busy) &&
		    (!prog->lnc.group || ncsync_group_may_start_locked(prog))) {
			if (!take)
				return true;
			ncsync_prog_start_locked(prog);
		}
		q = mine && prog->run.state == NCSYNC_PROG_RUNNING ?
		    ncsync_prog_queue_of(prog, engine) : NULL;
		if (q) {
			if (!take)
				return true;
			q->st.state = NCSYNC_ENG_RUNNING;
			*found = q;
			return true;
		}
		busy |= prog->engine_mask;
		if (mine)
			break;
	}
	return false;
}

/**
 * ncsync_prog_next_queue() - start the programs that may start, and claim
 *	the queue an engine runs next.
 * @core: the core.
 * @engine: NCSYNC_ENGINE_*.
 *
 * A program starts when every earlier program of the core sharing an
 * engine with it has ended; a member of a program across cores, when every
 * member may start (ncsync_group_may_start_locked()).
 *
 * Return: the queue, now NCSYNC_ENG_RUNNING, or NULL.
 */
struct ncsync_equeue *ncsync_prog_next_queue(struct ncsync_core *core,
					     u8 engine)
{
	struct ncsync_equeue *q = NULL;

	spin_lock(&core->prog_lock);
	ncsync_prog_walk_locked(core, engine, true, &q);
	spin_unlock(&core->prog_lock);
	return q;
}

/**
 * ncsync_prog_work_ready() - whether ncsync_prog_next_queue() has work.
 * @core: the core.
 * @engine: NCSYNC_ENGINE_*.
 *
 * Changes nothing: the condition an idle engine sleeps on.
 *
 * Return: true if a program may start or @engine has a queue to run.
 */
bool ncsync_prog_work_ready(struct ncsync_core *core, u8 engine)
{
	bool ready;

	spin_lock(&core->prog_lock);
	ready = ncsync_prog_walk_locked(core, engine, false, NULL);
	spin_unlock(&core->prog_lock);
	return ready;
}

/**
 * ncsync_progs_wake() - wake what must notice that programs stopped.
 * @core: their core; no lock held.
 * @engine_mask: their engines.
 *
 * Their engines (whose waits also sleep on the engine's own queue), the
 * DMA engine (to drop their copies) and the waiters for programs.  Nothing
 * else: waits of other programs and of userspace sleep on.
 */
void ncsync_progs_wake(struct ncsync_core *core, u32 engine_mask)
{
	if (!engine_mask)
		return;
	ncsync_engines_kick(core, engine_mask);
	wake_up(&core->dma_wq);
	wake_up_all(&core->done_wq);
}

/**
 * ncsync_prog_stop_locked() - make a program's engines stop.
 * @prog: the program; prog_lock held.
 * @reason: a NCSYNC_FAULT_* reason.
 *
 * A program that has not started ends at once as cancelled.  The caller
 * wakes the engines and the waiters (ncsync_progs_wake()) after dropping
 * the lock.
 *
 * Return: true when this stopped it, false when it had ended or stopped.
 */
bool ncsync_prog_stop_locked(struct ncsync_prog *prog, int reason)
{
	unsigned int i;

	lockdep_assert_held(&prog->core->prog_lock);
	if (ncsync_prog_ended(prog) || prog->stop)
		return false;
	WRITE_ONCE(prog->stop, reason);
	if (prog->lnc.group)
		ncsync_group_stop(prog->lnc.group, prog->lnc.idx, reason);
	if (prog->run.state != NCSYNC_PROG_QUEUED)
		return true;
	for (i = 0; i < prog->nq; i++) {
		prog->q[i].st.state = NCSYNC_ENG_CANCELLED;
		prog->q[i].st.fault = reason;
		prog->q[i].finished = true;
	}
	ncsync_insns_reap_locked(prog);
	prog->run.nrunning = 0;
	ncsync_snapshot_locked(prog);
	prog->run.state = NCSYNC_PROG_CANCELLED;
	ncsync_prog_end_locked(prog);
	return true;
}

static u32 ncsync_prog_final_state(const struct ncsync_prog *prog)
{
	bool halted = false;
	unsigned int i;

	switch (prog->stop) {
	case NCSYNC_FAULT_WATCHDOG:
		return NCSYNC_PROG_TIMED_OUT;
	case NCSYNC_FAULT_CANCELLED:
	case NCSYNC_FAULT_RESET:
	case NCSYNC_FAULT_CLOSED:
		return NCSYNC_PROG_CANCELLED;
	}
	for (i = 0; i < prog->nq; i++) {
		if (prog->q[i].st.state == NCSYNC_ENG_FAULTED)
			return NCSYNC_PROG_FAULTED;
		halted |= prog->q[i].st.state == NCSYNC_ENG_HALTED;
	}
	/* A member of a program across cores another core's fault stopped. */
	if (prog->stop == NCSYNC_FAULT_PEER)
		return NCSYNC_PROG_CANCELLED;
	return halted ? NCSYNC_PROG_HALTED : NCSYNC_PROG_DONE;
}

/**
 * ncsync_prog_queue_done() - an engine is done with its queue.
 * @q: the queue; its final state is in @q->st.
 *
 * The last queue of a program ends it: its final state is computed, its
 * snapshot taken (unless the watchdog took one), its waiters woken, and
 * then its decoded records freed.  Called by the engine thread with no
 * lock held.
 */
void ncsync_prog_queue_done(struct ncsync_equeue *q)
{
	struct ncsync_prog *prog = q->prog;
	struct ncsync_core *core = prog->core;
	struct ncsync_insn *insns[NCSYNC_NUM_ENGINES] = { };
	bool ended = false, faulted;
	u32 engine_mask;
	unsigned int i;

	ncsync_prog_progress(prog);
	spin_lock(&core->prog_lock);
	q->finished = true;
	engine_mask = prog->engine_mask;
	faulted = q->st.state == NCSYNC_ENG_FAULTED;
	if (faulted)
		ncsync_prog_stop_locked(prog, NCSYNC_FAULT_PEER);
	if (!--prog->run.nrunning) {
		if (!prog->run.snapped)
			ncsync_snapshot_locked(prog);
		prog->run.state = ncsync_prog_final_state(prog);
		for (i = 0; i < prog->nq; i++) {
			insns[i] = prog->q[i].insns;
			prog->q[i].insns = NULL;
		}
		ended = true;
		ncsync_prog_end_locked(prog);
	}
	spin_unlock(&core->prog_lock);

	if (faulted)		/* its peers must stop */
		ncsync_progs_wake(core, engine_mask);
	if (!ended)
		return;
	/*
	 * Its waiters (keyed: the waiters of other programs sleep on) and
	 * the engines the next programs need; then the records, which no
	 * one reaches any more, are freed: a waiter does not wait for the
	 * kvfree() of a long queue (Documentation/ncsync/performance.rst,
	 * "Floors of the rows").  Nothing here reads @prog after the
	 * wake-up: it is only the key.
	 */
	__wake_up(&core->done_wq, TASK_NORMAL, 0, prog);
	ncsync_engines_kick(core, engine_mask);
	for (i = 0; i < NCSYNC_NUM_ENGINES; i++)
		kvfree(insns[i]);
}
