// SPDX-License-Identifier: GPL-2.0
/*
 * ncsync: the semaphore and event banks of a core, its CSR window, and the
 * wake-ups of what waits on them (waits, pollers, engines).  The bottom of
 * the driver: it calls into no other file of it.
 */
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/sched.h>
#include <linux/sched/task.h>
#include <linux/slab.h>

#include "ncsync_drv.h"
#include "ncsync_exec.h"
#include "ncsync_trace.h"

/* Datapath engines, in the order of ncsync_core.engines (SYNC ordinals). */
const u8 ncsync_engine_ids[NCSYNC_NUM_ENGINES] = {
	NCSYNC_ENGINE_POOL, NCSYNC_ENGINE_ACT, NCSYNC_ENGINE_PE,
	NCSYNC_ENGINE_DVE, NCSYNC_ENGINE_SP,
};

/* Offsets of the semaphore windows within the semaphore page. */
static const u32 ncsync_sem_mirrors[] = {
	NCSYNC_CSR_SEM_READ - NCSYNC_CSR_SEM_READ,
	NCSYNC_CSR_SEM_SET - NCSYNC_CSR_SEM_READ,
	NCSYNC_CSR_SEM_INC - NCSYNC_CSR_SEM_READ,
	NCSYNC_CSR_SEM_DEC - NCSYNC_CSR_SEM_READ,
};

/* Wait queues of the banks: one per semaphore, then one per event. */
#define NCSYNC_BANK_WQS		(NCSYNC_NUM_SEMS + NCSYNC_NUM_EVENTS)

static int ncsync_bank_wq_init(struct ncsync_core *core)
{
	unsigned int i;

	core->bank_wq = kcalloc(NCSYNC_BANK_WQS, sizeof(*core->bank_wq),
				GFP_KERNEL);
	if (!core->bank_wq)
		return -ENOMEM;
	for (i = 0; i < NCSYNC_BANK_WQS; i++)
		init_waitqueue_head(&core->bank_wq[i]);
	return 0;
}

/**
 * ncsync_banks_init() - allocate and clear a core's banks.
 * @core: the core, zeroed by the caller.
 * @index: its number.
 *
 * Return: 0 or -ENOMEM; ncsync_banks_fini() frees what was allocated.
 */
int ncsync_banks_init(struct ncsync_core *core, unsigned int index)
{
	core->index = index;
	spin_lock_init(&core->lock);
	INIT_LIST_HEAD(&core->poll_armed);
	core->event_page = alloc_page(GFP_KERNEL | __GFP_ZERO);
	core->sem_page = alloc_page(GFP_KERNEL | __GFP_ZERO);
	if (!core->event_page || !core->sem_page || ncsync_bank_wq_init(core))
		return -ENOMEM;
	core->events = page_address(core->event_page);
	core->sems = page_address(core->sem_page);
	return 0;
}

/**
 * ncsync_banks_fini() - free a core's banks.
 * @core: the core; no descriptor is open, and no engine, DMA engine or
 *	work of any core of its logical core runs (ncsync_cores_remove()).
 *
 * A page still mapped somewhere stays alive until its last mapping goes.
 */
void ncsync_banks_fini(struct ncsync_core *core)
{
	/* Whatever still held a way to them checks this under the lock. */
	spin_lock(&core->lock);
	core->banks_gone = true;
	core->events = NULL;
	core->sems = NULL;
	spin_unlock(&core->lock);
	if (core->event_page)
		__free_page(core->event_page);
	if (core->sem_page)
		__free_page(core->sem_page);
	core->event_page = NULL;
	core->sem_page = NULL;
	kfree(core->bank_wq);
	core->bank_wq = NULL;
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

	lockdep_assert_held(&core->lock);
	for (m = 0; m < ARRAY_SIZE(ncsync_sem_mirrors); m++)
		WRITE_ONCE(core->sems[ncsync_sem_mirrors[m] / 4 + i], val);
}

/**
 * ncsync_bank_wq() - the wait queue of a semaphore or an event.
 * @core: the core.
 * @bank: NCSYNC_BANK_SEM or NCSYNC_BANK_EVENT.
 * @index: the semaphore or event.
 *
 * Return: the queue its waiters sleep on.
 */
wait_queue_head_t *ncsync_bank_wq(struct ncsync_core *core, u8 bank,
				  unsigned int index)
{
	return &core->bank_wq[(bank == NCSYNC_BANK_EVENT ? NCSYNC_NUM_SEMS : 0) +
			      index];
}

/*
 * The key of a bank queue's wake-up for a change of its register: it wakes
 * only the waiters whose condition now holds.  Other wake-ups (reset,
 * close) pass no key and wake every waiter.
 */
static char ncsync_wake_change;
#define NCSYNC_WAKE_CHANGE	((void *)&ncsync_wake_change)

/**
 * ncsync_wait_holds() - whether a wait's condition holds now.
 * @core: the core.
 * @w: the wait.
 * @threshold: its threshold, for a semaphore wait.
 *
 * It reads the one register: taken under the lock, the answer is exact;
 * taken without, as an engine's bounded spin does, a hint.
 *
 * Return: true when the wait would pass.
 */
bool ncsync_wait_holds(struct ncsync_core *core,
		       const struct ncsync_wait_op *w, s32 threshold)
{
	bool after;

	if (w->bank == NCSYNC_BANK_SEM)
		return ncsync_wait_sem_passes(w, ncsync_sem_get(core, w->index),
					      threshold);
	return ncsync_wait_event_passes(w, ncsync_event_get(core, w->index),
					&after);
}

/*
 * Collect a waiter's wake-up for after the core lock is dropped, if the
 * holder collects them and has room: take the entry off its queue, as
 * autoremove_wake_function() would, and keep a reference on its task.
 */
static bool ncsync_wake_defer(struct ncsync_core *core,
			      struct wait_queue_entry *wq)
{
	struct ncsync_wake_q *q = core->wake_q;
	struct task_struct *task = wq->private;

	if (!q || q->n == ARRAY_SIZE(q->task))
		return false;
	get_task_struct(task);
	q->task[q->n++] = task;
	list_del_init_careful(&wq->entry);
	return true;
}

/*
 * Wake a waiter, unless the wake-up is a change that leaves its condition
 * false; count the wake-ups.  Every waker of a bank queue holds the core
 * lock, so the condition is read as the change left it: a waiter that
 * tested before the change and sleeps is woken by it if it holds.  When
 * the lock's holder collects wake-ups (ncsync_core_lock()), the waiter
 * leaves the queue now and its task is woken after the lock is dropped.
 */
static int ncsync_wake_fn(struct wait_queue_entry *wq, unsigned int mode,
			  int flags, void *key)
{
	struct ncsync_wait_entry *e = container_of(wq, struct ncsync_wait_entry,
						   wq);

	if (key == NCSYNC_WAKE_CHANGE && e->cond && e->core &&
	    !ncsync_wait_holds(e->core, e->cond, e->threshold))
		return 0;
	if (key && e->key && key != e->key)	/* another program ended */
		return 0;
	if (!e->core)
		return autoremove_wake_function(wq, mode, flags, key);
	e->core->stats.wakeups++;
	if (ncsync_wake_defer(e->core, wq))
		return 1;
	return autoremove_wake_function(wq, mode, flags, key);
}

/**
 * ncsync_core_lock() - take the core lock, collecting the wake-ups.
 * @core: the core.
 * @q: where the wake-ups of the bank queues' waiters are collected while
 *	the lock is held; on the caller's stack.
 *
 * The waiters whose condition a change makes true leave their queues
 * under the lock, as before, but their tasks are woken by
 * ncsync_core_unlock(), so that a woken engine does not spin on the lock
 * its waker still holds.  Past NCSYNC_WAKE_Q_MAX of them, or on a queue
 * that is not a bank queue, a wake-up happens in place.
 */
void ncsync_core_lock(struct ncsync_core *core, struct ncsync_wake_q *q)
	__acquires(&core->lock)
{
	q->n = 0;
	spin_lock(&core->lock);
	core->wake_q = q;
}

/**
 * ncsync_core_unlock() - drop the core lock, then issue its wake-ups.
 * @core: the core, locked by ncsync_core_lock() with @q.
 * @q: the collected wake-ups.
 *
 * A task woken here may already have left its wait for another reason
 * and be sleeping elsewhere: every sleep of the driver re-tests its
 * condition in a loop, so such a wake-up is spurious and harmless, as
 * with the kernel's wake_q.
 */
void ncsync_core_unlock(struct ncsync_core *core, struct ncsync_wake_q *q)
	__releases(&core->lock)
{
	unsigned int i;

	lockdep_assert_held(&core->lock);
	core->wake_q = NULL;
	spin_unlock(&core->lock);
	for (i = 0; i < q->n; i++) {
		wake_up_process(q->task[i]);
		put_task_struct(q->task[i]);
	}
}

/**
 * ncsync_wait_entry_init() - prepare an entry for a wait queue.
 * @e: the entry.
 * @core: the core whose wake-ups it counts (for a queue of
 *	ncsync_core.bank_wq, woken under the core lock only), or NULL.
 */
void ncsync_wait_entry_init(struct ncsync_wait_entry *e,
			    struct ncsync_core *core)
{
	init_wait(&e->wq);
	e->wq.func = ncsync_wake_fn;
	e->core = core;
	e->cond = NULL;
	e->threshold = 0;
	e->key = NULL;
}

/**
 * ncsync_wait_entry_cond() - wake an entry only when its wait can pass.
 * @e: an entry of a bank queue (ncsync_wait_entry_init() with a core).
 * @cond: the wait; it must stay valid while @e is queued.
 * @threshold: its threshold, for a semaphore wait.
 *
 * A change of the register then wakes @e only when @cond holds after it,
 * so that the arrivals before a barrier's last wake nobody.
 */
void ncsync_wait_entry_cond(struct ncsync_wait_entry *e,
			    const struct ncsync_wait_op *cond, s32 threshold)
{
	e->cond = cond;
	e->threshold = threshold;
}

/**
 * ncsync_poll_arm_locked() - let the next change wake a descriptor's pollers.
 * @nfile: the descriptor; its @seen_seq is the core's sequence.
 */
void ncsync_poll_arm_locked(struct ncsync_file *nfile)
{
	lockdep_assert_held(&nfile->core->lock);
	if (list_empty(&nfile->armed_node))
		list_add_tail(&nfile->armed_node, &nfile->core->poll_armed);
}

/*
 * Wake the pollers of every descriptor not told of a change since its last
 * acknowledgment; the others already report EPOLLIN.
 */
static void ncsync_poll_wake_locked(struct ncsync_core *core)
{
	struct ncsync_file *nfile, *tmp;

	lockdep_assert_held(&core->lock);
	list_for_each_entry_safe(nfile, tmp, &core->poll_armed, armed_node) {
		list_del_init(&nfile->armed_node);
		if (wq_has_sleeper(&nfile->poll_wq)) {
			core->stats.wakeups++;
			wake_up_all(&nfile->poll_wq);
		}
	}
}

/*
 * Wake one queue of ncsync_core.bank_wq; the caller holds the core lock.
 * @key: NCSYNC_WAKE_CHANGE for a change, NULL to wake every waiter.
 */
static void ncsync_bank_wake_queue(wait_queue_head_t *wq, void *key)
{
	/*
	 * Safe without a barrier: a waiter enqueues itself before it takes
	 * the core lock to test, and the caller holds that lock.
	 */
	if (waitqueue_active(wq))
		__wake_up(wq, TASK_NORMAL, 0, key);
}

/*
 * Advance the change sequence and tell the descriptors' pollers.  Only the
 * lock's holder writes the sequence, so a read and a set advance it; poll()
 * reads it without the lock: the walk's wq_has_sleeper() orders this store
 * before its look at a poller's queue, and ncsync_poll() orders its
 * queueing before its read, so a poller that read the old value is woken.
 */
static void ncsync_seq_advance_locked(struct ncsync_core *core)
{
	u64 seq = atomic64_read(&core->seq) + 1;

	lockdep_assert_held(&core->lock);
	atomic64_set(&core->seq, seq);
	core->stats.seq = seq;
	trace_ncsync_wake(core->index, seq);
	if (!list_empty(&core->poll_armed))
		ncsync_poll_wake_locked(core);
}

/* Note a change of a semaphore or an event; wake that register's waiters. */
static void ncsync_changed_locked(struct ncsync_core *core, u8 bank,
				  unsigned int index)
{
	lockdep_assert_held(&core->lock);
	ncsync_seq_advance_locked(core);
	ncsync_bank_wake_queue(ncsync_bank_wq(core, bank, index),
			       NCSYNC_WAKE_CHANGE);
}

/* A reset: every wait of the core must notice. */
static void ncsync_bank_wake_all_locked(struct ncsync_core *core)
{
	unsigned int i;

	lockdep_assert_held(&core->lock);
	for (i = 0; i < NCSYNC_BANK_WQS; i++)
		ncsync_bank_wake_queue(&core->bank_wq[i], NULL);
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
	ncsync_changed_locked(core, NCSYNC_BANK_SEM, i);
	return overflow;
}

/**
 * ncsync_event_write_locked() - set or clear an event.
 * @core: the core, lock held.
 * @i: the index, below NCSYNC_NUM_EVENTS.
 * @set: set (true) or clear (false).
 *
 * Setting a set event and clearing a clear event are counted
 * (Documentation/ncsync/model.rst, "Events").
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
	ncsync_changed_locked(core, NCSYNC_BANK_EVENT, i);
	if (READ_ONCE(core->notify))
		core->ntf_event(core, i, set);
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

	lockdep_assert_held(&core->lock);
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
	struct ncsync_wake_q wq;
	unsigned int i;

	ncsync_core_lock(core, &wq);
	for (i = 0; i < NCSYNC_NUM_EVENTS; i++)
		WRITE_ONCE(core->events[i], 0);
	for (i = 0; i < NCSYNC_NUM_SEMS; i++)
		ncsync_sem_store_locked(core, i, 0);
	core->reset_gen++;
	core->stats.resets++;
	ncsync_seq_advance_locked(core);
	ncsync_bank_wake_all_locked(core);
	ncsync_core_unlock(core, &wq);
}

/**
 * ncsync_engines_kick() - make engines look for work.
 * @core: the core.
 * @engine_mask: bit i for engine i.
 *
 * Called after a submission, a program's start or end, a stop, or a
 * landing of a copy the engine waits for (Drain, a free DMA slot).
 */
void ncsync_engines_kick(struct ncsync_core *core, u32 engine_mask)
{
	unsigned int i;

	for (i = 0; i < NCSYNC_NUM_ENGINES; i++)
		if (engine_mask & BIT(ncsync_engine_ids[i]))
			wake_up(&core->engines[i].wq);
}
