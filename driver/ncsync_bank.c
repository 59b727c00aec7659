// SPDX-License-Identifier: GPL-2.0
/*
 * ncsync: the semaphore and event banks of a core, and its CSR window.
 */
#include <linux/gfp.h>
#include <linux/mm.h>

#include "ncsync_drv.h"
#include "ncsync_trace.h"

/* Offsets of the semaphore windows within the semaphore page. */
static const u32 ncsync_sem_mirrors[] = {
	NCSYNC_CSR_SEM_READ - NCSYNC_CSR_SEM_READ,
	NCSYNC_CSR_SEM_SET - NCSYNC_CSR_SEM_READ,
	NCSYNC_CSR_SEM_INC - NCSYNC_CSR_SEM_READ,
	NCSYNC_CSR_SEM_DEC - NCSYNC_CSR_SEM_READ,
};

/**
 * ncsync_core_init() - allocate and clear a core's banks.
 * @core: the core, zeroed by the caller.
 * @index: its number.
 *
 * Return: 0 or -ENOMEM.
 */
int ncsync_core_init(struct ncsync_core *core, unsigned int index)
{
	core->index = index;
	spin_lock_init(&core->lock);
	init_waitqueue_head(&core->wq);
	init_waitqueue_head(&core->poll_wq);
	spin_lock_init(&core->prog_lock);
	INIT_LIST_HEAD(&core->progs);
	init_waitqueue_head(&core->done_wq);
	INIT_DELAYED_WORK(&core->watchdog, ncsync_watchdog_fn);
	ncsync_nl_core_init(core);
	init_llist_head(&core->reap);
	INIT_WORK(&core->reap_work, ncsync_reap_fn);

	core->event_page = alloc_page(GFP_KERNEL | __GFP_ZERO);
	core->sem_page = alloc_page(GFP_KERNEL | __GFP_ZERO);
	if (!core->event_page || !core->sem_page) {
		ncsync_core_fini(core);
		return -ENOMEM;
	}
	core->events = page_address(core->event_page);
	core->sems = page_address(core->sem_page);
	return 0;
}

/**
 * ncsync_core_fini() - free a core's banks.
 * @core: the core; no descriptor is open.
 *
 * A page still mapped somewhere stays alive until its last mapping goes.
 */
void ncsync_core_fini(struct ncsync_core *core)
{
	cancel_delayed_work_sync(&core->watchdog);
	flush_work(&core->reap_work);
	if (core->event_page)
		__free_page(core->event_page);
	if (core->sem_page)
		__free_page(core->sem_page);
	core->event_page = NULL;
	core->sem_page = NULL;
}

/**
 * ncsync_sem_get() - read a semaphore without the lock.
 * @core: the core.
 * @i: the index, below NCSYNC_NUM_SEMS.
 *
 * Return: its value.
 */
s32 ncsync_sem_get(struct ncsync_core *core, unsigned int i)
{
	return READ_ONCE(core->sems[i]);
}

/**
 * ncsync_event_get() - read an event without the lock.
 * @core: the core.
 * @i: the index, below NCSYNC_NUM_EVENTS.
 *
 * Return: its state.
 */
bool ncsync_event_get(struct ncsync_core *core, unsigned int i)
{
	return READ_ONCE(core->events[i]);
}

static void ncsync_sem_store_locked(struct ncsync_core *core, unsigned int i,
				    s32 val)
{
	unsigned int m;

	for (m = 0; m < ARRAY_SIZE(ncsync_sem_mirrors); m++)
		WRITE_ONCE(core->sems[ncsync_sem_mirrors[m] / 4 + i], val);
}

/**
 * ncsync_changed_locked() - note a change of the banks.
 * @core: the core, lock held.
 *
 * The caller wakes the sleepers with ncsync_wake() once it has dropped the
 * lock.
 */
void ncsync_changed_locked(struct ncsync_core *core)
{
	lockdep_assert_held(&core->lock);
	core->seq++;
	core->stats.seq = core->seq;
}

/* Wake a keyed waiter only for a change of what it waits on. */
static int ncsync_wake_fn(struct wait_queue_entry *wq, unsigned int mode,
			  int flags, void *key)
{
	struct ncsync_wait_entry *e = container_of(wq, struct ncsync_wait_entry,
						   wq);
	const struct ncsync_wake_key *k = key;

	if (k && k->bank != NCSYNC_WAKE_ANY &&
	    e->key.bank != NCSYNC_WAKE_ANY &&
	    (k->bank != e->key.bank || k->index != e->key.index))
		return 0;
	return autoremove_wake_function(wq, mode, flags, key);
}

/**
 * ncsync_wait_entry_init() - prepare a keyed entry for ncsync_core.wq.
 * @e: the entry.
 * @bank: NCSYNC_BANK_SEM, NCSYNC_BANK_EVENT or NCSYNC_WAKE_ANY.
 * @index: the semaphore or event waited on.
 */
void ncsync_wait_entry_init(struct ncsync_wait_entry *e, u8 bank, u8 index)
{
	init_wait(&e->wq);
	e->wq.func = ncsync_wake_fn;
	e->key.bank = bank;
	e->key.index = index;
}

/**
 * ncsync_wake() - wake the waiters of a change, and poll().
 * @core: the core, lock not held.
 * @key: what changed; NULL or bank NCSYNC_WAKE_ANY wakes every waiter.
 */
void ncsync_wake(struct ncsync_core *core, const struct ncsync_wake_key *key)
{
	trace_ncsync_wake(core->index, READ_ONCE(core->seq));
	if (wq_has_sleeper(&core->wq))
		__wake_up(&core->wq, TASK_NORMAL, 0, (void *)key);
	if (wq_has_sleeper(&core->poll_wq))
		wake_up_all(&core->poll_wq);
}

/**
 * ncsync_wake_all() - wake every sleeper of a core: waits, engines,
 *	poll() and waiters for programs.
 * @core: the core, no lock held.
 */
void ncsync_wake_all(struct ncsync_core *core)
{
	ncsync_wake(core, NULL);
	wake_up_all(&core->done_wq);
	ncsync_engines_kick(core, NCSYNC_ENGINE_MASK);
}

/**
 * ncsync_sem_update_locked() - update a semaphore.
 * @core: the core, lock held.
 * @i: the index, below NCSYNC_NUM_SEMS.
 * @upd: the arithmetic.
 * @operand: its operand.
 *
 * Return: true when the update overflowed a signed 32-bit value (counted).
 */
bool ncsync_sem_update_locked(struct ncsync_core *core, unsigned int i,
			      enum ncsync_sem_upd upd, u32 operand)
{
	bool overflow;
	s32 val;

	lockdep_assert_held(&core->lock);
	val = ncsync_sem_apply(upd, core->sems[i], operand, &overflow);
	if (overflow)
		core->stats.sem_overflows++;
	ncsync_sem_store_locked(core, i, val);
	ncsync_changed_locked(core);
	return overflow;
}

/**
 * ncsync_event_write_locked() - set or clear an event.
 * @core: the core, lock held.
 * @i: the index, below NCSYNC_NUM_EVENTS.
 * @set: set (true) or clear (false).
 *
 * Setting a set event and clearing a clear event are counted (MODEL.md,
 * "Event bank strictness").
 *
 * Return: true for such a write.
 */
bool ncsync_event_write_locked(struct ncsync_core *core, unsigned int i,
			       bool set)
{
	bool same = core->events[i] == set;

	lockdep_assert_held(&core->lock);
	if (same && set)
		core->stats.event_set_while_set++;
	else if (same)
		core->stats.event_clear_while_clear++;
	WRITE_ONCE(core->events[i], set);
	ncsync_changed_locked(core);
	ncsync_nl_event_locked(core, i, set);
	return same;
}

/**
 * ncsync_csr_read() - read registers of the CSR window.
 * @core: the core.
 * @addr: the first address; the access was checked by
 *	ncsync_csr_access_ok().
 * @buf: out: @nregs values.
 * @nregs: the number of registers.
 *
 * Each register is read atomically; the range as a whole is not a snapshot.
 */
void ncsync_csr_read(struct ncsync_core *core, u32 addr, u32 *buf,
		     unsigned int nregs)
{
	unsigned int n, i;

	for (n = 0; n < nregs; n++, addr += NCSYNC_CSR_REG_SIZE) {
		switch (ncsync_csr_decode(addr, &i)) {
		case NCSYNC_WIN_EVENTS:
			buf[n] = ncsync_event_get(core, i);
			break;
		case NCSYNC_WIN_RESERVED:
			buf[n] = 0;
			break;
		default:
			buf[n] = ncsync_sem_get(core, i);
			break;
		}
	}
}

/**
 * ncsync_csr_write_locked() - write registers of the CSR window.
 * @core: the core, lock held.
 * @addr: the first address; ncsync_csr_access_ok() and
 *	ncsync_csr_write_ok() have passed.
 * @buf: @nregs values.
 * @nregs: the number of registers, written in ascending address order.
 */
void ncsync_csr_write_locked(struct ncsync_core *core, u32 addr,
			     const u32 *buf, unsigned int nregs)
{
	unsigned int n, i;

	for (n = 0; n < nregs; n++, addr += NCSYNC_CSR_REG_SIZE) {
		switch (ncsync_csr_decode(addr, &i)) {
		case NCSYNC_WIN_EVENTS:
			ncsync_event_write_locked(core, i, buf[n] != 0);
			break;
		case NCSYNC_WIN_SEM_SET:
			ncsync_sem_update_locked(core, i, NCSYNC_SEM_UPD_SET,
						 buf[n]);
			break;
		case NCSYNC_WIN_SEM_INC:
			ncsync_sem_update_locked(core, i, NCSYNC_SEM_UPD_ADD,
						 buf[n]);
			break;
		case NCSYNC_WIN_SEM_DEC:
			ncsync_sem_update_locked(core, i, NCSYNC_SEM_UPD_SUB,
						 buf[n]);
			break;
		default:
			WARN_ON_ONCE(1);	/* ncsync_csr_write_ok() refused */
			break;
		}
	}
}

/**
 * ncsync_op_apply_locked() - apply an operation checked by ncsync_op_check().
 * @core: the core, lock held.
 * @op: the operation; @op->before and @op->after are filled in.
 */
void ncsync_op_apply_locked(struct ncsync_core *core, struct ncsync_op *op)
{
	static const enum ncsync_sem_upd sem_upd[] = {
		[NCSYNC_OP_SET] = NCSYNC_SEM_UPD_SET,
		[NCSYNC_OP_INC] = NCSYNC_SEM_UPD_ADD,
		[NCSYNC_OP_DEC] = NCSYNC_SEM_UPD_SUB,
	};
	unsigned int i = op->index;

	lockdep_assert_held(&core->lock);
	if (op->bank == NCSYNC_BANK_SEM) {
		op->before = core->sems[i];
		if (op->op != NCSYNC_OP_READ)
			ncsync_sem_update_locked(core, i, sem_upd[op->op],
						 op->value);
		op->after = core->sems[i];
	} else {
		op->before = core->events[i];
		if (op->op != NCSYNC_OP_READ)
			ncsync_event_write_locked(core, i,
						  op->op == NCSYNC_OP_SET);
		op->after = core->events[i];
	}
}

/**
 * ncsync_nonzero_sems_locked() - list the non-zero semaphores.
 * @core: the core, lock held.
 * @out: NCSYNC_NUM_SEMS entries.
 *
 * Return: the number of entries written.
 */
u32 ncsync_nonzero_sems_locked(struct ncsync_core *core,
			       struct ncsync_sem_value *out)
{
	u32 i, n = 0;

	lockdep_assert_held(&core->lock);
	for (i = 0; i < NCSYNC_NUM_SEMS; i++) {
		if (core->sems[i]) {
			out[n].index = i;
			out[n].value = core->sems[i];
			n++;
		}
	}
	return n;
}

/**
 * ncsync_banks_clear() - clear a core's banks and cancel its waits.
 * @core: the core, lock not held; its programs have stopped.
 *
 * Every wait in progress ends with ECANCELED.
 */
void ncsync_banks_clear(struct ncsync_core *core)
{
	unsigned int i;

	spin_lock(&core->lock);
	for (i = 0; i < NCSYNC_NUM_EVENTS; i++)
		WRITE_ONCE(core->events[i], 0);
	for (i = 0; i < NCSYNC_NUM_SEMS; i++)
		ncsync_sem_store_locked(core, i, 0);
	core->reset_gen++;
	core->stats.resets++;
	ncsync_changed_locked(core);
	spin_unlock(&core->lock);
	ncsync_wake(core, NULL);
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
