// SPDX-License-Identifier: GPL-2.0
/*
 * ncsync: a core's construction, teardown and reset, above the files that
 * own its parts: the banks (ncsync_bank.c), the programs (ncsync_prog.c,
 * ncsync_stop.c) and the notifications (ncsync_netlink.c).
 */
#include "ncsync_drv.h"

/**
 * ncsync_core_init() - set up a core's banks, programs and notifications.
 * @core: the core, zeroed by the caller.
 * @index: its number.
 *
 * Return: 0 or -ENOMEM, with nothing left allocated.
 */
int ncsync_core_init(struct ncsync_core *core, unsigned int index)
{
	int ret;

	spin_lock_init(&core->prog_lock);
	INIT_LIST_HEAD(&core->progs);
	INIT_LIST_HEAD(&core->gmembers);
	init_waitqueue_head(&core->done_wq);
	INIT_DELAYED_WORK(&core->watchdog, ncsync_watchdog_fn);
	init_llist_head(&core->reap);
	INIT_WORK(&core->reap_work, ncsync_reap_fn);
	ncsync_nl_core_init(core);
	ret = ncsync_banks_init(core, index);
	if (ret)
		ncsync_banks_fini(core);
	return ret;
}

/**
 * ncsync_core_quiesce() - stop a core's watchdog.
 * @core: the core; its engines are stopped, so no program starts and
 *	nothing schedules the watchdog again.
 *
 * The watchdog stops programs, which may queue the works of their groups:
 * it goes before those are drained (ncsync_groups_drain()).
 */
void ncsync_core_quiesce(struct ncsync_core *core)
{
	cancel_delayed_work_sync(&core->watchdog);
}

/**
 * ncsync_core_fini() - tear down what ncsync_core_init() set up.
 * @core: the core; no descriptor is open, no program of it is left, and
 *	nothing of any other core of its logical core runs any more.
 */
void ncsync_core_fini(struct ncsync_core *core)
{
	ncsync_core_quiesce(core);
	flush_work(&core->reap_work);
	/* A member left would be freed later, on this core's lists. */
	WARN_ON_ONCE(!list_empty(&core->gmembers));
	ncsync_banks_fini(core);
}

/**
 * ncsync_core_reset() - reset a core.
 * @core: the core, no lock held.
 *
 * Stops its programs (they end as cancelled, fault NCSYNC_FAULT_RESET),
 * waits for its engines to leave them, then clears the banks and ends
 * every wait with ECANCELED.
 */
void ncsync_core_reset(struct ncsync_core *core)
{
	ncsync_progs_stop_core(core, NCSYNC_FAULT_RESET);
	ncsync_banks_clear(core);
}
