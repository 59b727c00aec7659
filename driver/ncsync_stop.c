// SPDX-License-Identifier: GPL-2.0
/*
 * ncsync: stopping programs from outside them: a core's reset, a
 * descriptor's close (each waits until the stopped programs, and the
 * members on other cores of the programs across cores it stopped, have
 * ended), and the watchdog, which times out programs without progress.
 */
#include <linux/jiffies.h>
#include <linux/slab.h>
#include <linux/wait.h>
#include <linux/workqueue.h>

#include "ncsync_drv.h"

/* Period of the watchdog while programs run. */
#define NCSYNC_WATCHDOG_PERIOD	msecs_to_jiffies(20)

/*
 * Whether a stopped program of the core (of @nfile only, when given: any of
 * its programs) still runs.
 */
static bool ncsync_core_stopping(struct ncsync_core *core,
				 struct ncsync_file *nfile)
{
	struct ncsync_prog *prog;
	bool busy = false;

	spin_lock(&core->prog_lock);
	list_for_each_entry(prog, &core->progs, lists.core_node)
		if (nfile ? prog->nfile == nfile : prog->stop)
			busy = true;
	spin_unlock(&core->prog_lock);
	return busy;
}

/**
 * ncsync_group_stop_member() - stop one member with the group's reason.
 * @m: the member, with a reference; no lock held.
 * @reason: the group's NCSYNC_FAULT_* reason.
 *
 * One that times out with the program takes its snapshot and logs it, as
 * the watchdog of its core would: each core reports its own member.
 */
void ncsync_group_stop_member(struct ncsync_prog *m, int reason)
{
	bool stopped, log = false;

	spin_lock(&m->core->prog_lock);
	if (reason == NCSYNC_FAULT_WATCHDOG && !m->stop &&
	    m->run.state == NCSYNC_PROG_RUNNING) {
		ncsync_snapshot_locked(m);
		m->run.snapped = true;
		log = true;
	}
	stopped = ncsync_prog_stop_locked(m, reason);
	spin_unlock(&m->core->prog_lock);
	if (!stopped)
		return;
	ncsync_progs_wake(m->core, m->engine_mask);
	if (log)
		ncsync_snapshot_log(m);
}

/*
 * The next member of a stopped program across cores that spans @core (of
 * @nfile's members there only, when given), on another core and not
 * ended: with a reference, its index in *@idx and the program's reason in
 * *@reason; or NULL.
 */
static struct ncsync_prog *ncsync_group_next_peer(struct ncsync_core *core,
						  struct ncsync_file *nfile,
						  unsigned int *idx,
						  int *reason)
{
	struct ncsync_prog *p, *m = NULL;
	struct ncsync_group *g;
	unsigned int i;

	spin_lock(&core->prog_lock);
	list_for_each_entry(p, &core->gmembers, lnc.node) {
		if (nfile && p->nfile != nfile)
			continue;
		g = p->lnc.group;
		spin_lock(&g->lock);
		for (i = 0; g->stop && i < g->n && !m; i++) {
			if (i == p->lnc.idx || !g->members[i] || g->mstate[i])
				continue;
			m = g->members[i];
			kref_get(&m->ref);
			*idx = i;
			*reason = g->stop;
		}
		spin_unlock(&g->lock);
		if (m)
			break;
	}
	spin_unlock(&core->prog_lock);
	return m;
}

/* Whether member @i of @g ended. */
static bool ncsync_group_member_ended(struct ncsync_group *g, unsigned int i)
{
	bool ended;

	spin_lock(&g->lock);
	ended = g->mstate[i] || !g->members[i];
	spin_unlock(&g->lock);
	return ended;
}

/*
 * ncsync_groups_stop_peers() - stop, and wait for, the members on other
 *	cores of the programs across cores a reset or close of @core stopped.
 * @core: the core; its own programs were stopped and have ended.
 * @nfile: the closing descriptor, or NULL for a reset.
 *
 * Without this the group's work would stop them a little later, and a
 * member on another core could meanwhile land a copy on @core after its
 * reset, or on any core after the close returned.  Each member is stopped
 * under its own core's prog_lock, with none held here: no two prog_locks
 * are held together.  Each round ends one member, so this ends.
 */
static void ncsync_groups_stop_peers(struct ncsync_core *core,
				     struct ncsync_file *nfile)
{
	struct ncsync_prog *m;
	unsigned int i;
	int reason;

	while ((m = ncsync_group_next_peer(core, nfile, &i, &reason))) {
		struct ncsync_group *g = m->lnc.group;

		ncsync_group_stop_member(m, reason);
		wait_event(m->core->done_wq, ncsync_group_member_ended(g, i));
		ncsync_prog_put(m);
	}
}

/*
 * Wait for the DMA completion updates being applied to any core of @core's
 * logical core: one that checked its program's stop before the caller set
 * it is done once each core's lock was taken after it.  Later ones see the
 * stop (ncsync_dma_update()).
 */
static void ncsync_lnc_sync(struct ncsync_core *core)
{
	struct ncsync_core *c = core->lnc_first;
	unsigned int i;

	for (i = 0; i < ncsync_lnc; i++, c++) {
		spin_lock(&c->lock);
		spin_unlock(&c->lock);
	}
}

/*
 * Stop the programs of a core (or of one descriptor) and wait until their
 * engines have left them; then the members of the programs across cores
 * this stopped, on the other cores, likewise; then no update of a stopped
 * copy is being applied on any core of the logical core.  Engines check
 * for a stop at least every 32 records and in every wait, so this takes
 * at most one run's time on each core.
 */
static void ncsync_progs_stop(struct ncsync_core *core, int reason,
			      struct ncsync_file *nfile)
{
	struct ncsync_prog *prog, *tmp;
	u32 mask = 0;

	spin_lock(&core->prog_lock);
	list_for_each_entry_safe(prog, tmp, &core->progs, lists.core_node)
		if ((!nfile || prog->nfile == nfile) &&
		    ncsync_prog_stop_locked(prog, reason))
			mask |= prog->engine_mask;
	/* Programs across cores whose member here ended stop too. */
	list_for_each_entry(prog, &core->gmembers, lnc.node)
		if (!nfile || prog->nfile == nfile)
			ncsync_group_stop(prog->lnc.group, prog->lnc.idx,
					  reason);
	spin_unlock(&core->prog_lock);
	ncsync_progs_wake(core, mask);
	wait_event(core->done_wq, !ncsync_core_stopping(core, nfile));
	ncsync_groups_stop_peers(core, nfile);
	ncsync_lnc_sync(core);
}

/**
 * ncsync_progs_stop_core() - stop every program of a core and wait.
 * @core: the core; no lock held.
 * @reason: NCSYNC_FAULT_RESET.
 */
void ncsync_progs_stop_core(struct ncsync_core *core, int reason)
{
	ncsync_progs_stop(core, reason, NULL);
}

/**
 * ncsync_progs_release_file() - a descriptor closes: cancel and forget its
 *	programs.
 * @nfile: the descriptor; no lock held.
 */
void ncsync_progs_release_file(struct ncsync_file *nfile)
{
	struct ncsync_core *core = nfile->core;
	struct ncsync_prog *prog;

	ncsync_progs_stop(core, NCSYNC_FAULT_CLOSED, nfile);
	/*
	 * One at a time, each off the list under the lock: a program is on
	 * its descriptor's list exactly while its file_node is not empty,
	 * which the forgetting of a group's members reads under that lock
	 * (ncsync_group_forget()).
	 */
	for (;;) {
		spin_lock(&core->prog_lock);
		prog = list_first_entry_or_null(&nfile->progs,
						struct ncsync_prog,
						lists.file_node);
		if (prog) {
			list_del_init(&prog->lists.file_node);
			nfile->nprogs--;
		}
		spin_unlock(&core->prog_lock);
		if (!prog)
			break;
		ncsync_prog_put_forgotten(prog);
	}
}

/**
 * ncsync_watchdog_fn() - time out the programs that stopped making progress.
 * @work: ncsync_core.watchdog.
 *
 * Runs every few milliseconds while the core has programs.
 */
void ncsync_watchdog_fn(struct work_struct *work)
{
	struct ncsync_core *core = container_of(to_delayed_work(work),
						struct ncsync_core, watchdog);
	struct ncsync_prog *prog, *fired[8];
	unsigned int i, nfired = 0;
	u32 mask = 0;
	bool again;

	spin_lock(&core->prog_lock);
	list_for_each_entry(prog, &core->progs, lists.core_node) {
		unsigned long limit = ncsync_prog_last_progress(prog) +
				      msecs_to_jiffies(prog->watchdog_ms);

		if (prog->run.state != NCSYNC_PROG_RUNNING || prog->stop ||
		    !time_after(jiffies, limit) || nfired == ARRAY_SIZE(fired))
			continue;
		ncsync_snapshot_locked(prog);
		prog->run.snapped = true;
		ncsync_prog_stop_locked(prog, NCSYNC_FAULT_WATCHDOG);
		mask |= prog->engine_mask;
		kref_get(&prog->ref);
		fired[nfired++] = prog;
	}
	again = !list_empty(&core->progs);
	spin_unlock(&core->prog_lock);

	ncsync_progs_wake(core, mask);
	for (i = 0; i < nfired; i++) {
		ncsync_snapshot_log(fired[i]);
		ncsync_prog_put(fired[i]);
	}
	if (again)
		schedule_delayed_work(&core->watchdog, NCSYNC_WATCHDOG_PERIOD);
}
