// SPDX-License-Identifier: GPL-2.0
/*
 * ncsync: the DMA engine (engine 4), the core's asynchronous copy queues.
 *
 * A DMA record issues a copy within the core's device memory into a slot
 * of its queue's ring of dma_depth copies, allocated at submission; with
 * every slot in flight the record blocks its engine until one lands, as a
 * full hardware ring does.  Each program's copies wait on a list of their
 * own, in issue order.  The DMA engine lands them program by program in
 * round robin: it takes the oldest copy of the next program whose oldest
 * copy is due (its latency has passed), so that a due copy waits for at
 * most one landing of each other program with a due copy, and a copy not
 * yet due delays no other program's.  Landing copies the bytes, in chunks
 * between which the engine yields, then applies the completion update
 * (semaphore +1 or event set).  Drain waits until every copy its queue
 * issued has landed.  Copies of a program that was stopped are dropped.
 */
#include <linux/hrtimer.h>
#include <linux/kthread.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/vmalloc.h>

#include "ncsync_drv.h"
#include "ncsync_trace.h"

/* Bytes copied between two chances to reschedule. */
#define NCSYNC_DMA_CHUNK	(64 * 1024)

/**
 * ncsync_dma_full() - whether every slot of a queue's ring is in flight.
 * @q: the queue.
 *
 * Return: true if a DMA record must wait.
 */
bool ncsync_dma_full(struct ncsync_equeue *q)
{
	return atomic_read(&q->dma_outstanding) >= ncsync_dma_depth;
}

/**
 * ncsync_dma_issue() - issue a copy into a free slot of its queue's ring.
 * @q: the issuing queue, which has a free slot (!ncsync_dma_full()).
 * @insn: the DMA record.
 * @pc: the record's index in @q, for the tracepoint.
 *
 * Slots are taken in issue order and freed in the same order, since a
 * program's copies land (or are dropped) in issue order.
 */
void ncsync_dma_issue(struct ncsync_equeue *q, const struct ncsync_insn *insn,
		      u32 pc)
{
	struct ncsync_prog *prog = q->prog;
	struct ncsync_core *core = prog->core;
	struct ncsync_dma_copy *c;

	c = &q->dma_slots[q->dma_issued % ncsync_dma_depth];
	c->seq = q->dma_issued++;
	c->q = q;
	c->src = insn->dma.src;
	c->dst = insn->dma.dst;
	c->len = insn->dma.len;
	c->land = ktime_add_us(ktime_get(), insn->dma.latency_us);
	c->upd = insn->lane[0].upd;
	c->reset_gen = READ_ONCE(core->reset_gen);
	c->upd_core = core;
	if (insn->dma.flags & NCSYNC_DMA_F_PEER)
		c->upd_core = core->lnc_first + insn->dma.peer;
	c->upd_reset_gen = READ_ONCE(c->upd_core->reset_gen);
	trace_ncsync_dma_issue(core->index, q->engine, prog->id, pc, c->seq,
			       c->len, insn->dma.latency_us,
			       c->upd_core->index, c->upd.active,
			       c->upd.bank, c->upd.index);

	kref_get(&prog->ref);
	atomic_inc(&q->dma_outstanding);
	spin_lock(&core->dma_lock);
	if (list_empty(&prog->dma.copies))
		list_add_tail(&prog->dma.node, &core->dma_progs);
	list_add_tail(&c->node, &prog->dma.copies);
	spin_unlock(&core->dma_lock);
	wake_up(&core->dma_wq);
}

/* Whether a copy is void: its program stopped or the core was reset. */
static bool ncsync_dma_void(struct ncsync_core *core,
			    struct ncsync_dma_copy *c)
{
	return READ_ONCE(c->q->prog->stop) ||
	       READ_ONCE(core->reset_gen) != c->reset_gen;
}

/*
 * Take the next copy to land or drop, round robin over the programs; or
 * NULL, with *next the earliest time a copy becomes due (KTIME_MAX: none
 * queued).  On stop every copy is taken, to be dropped.
 */
static struct ncsync_dma_copy *ncsync_dma_next(struct ncsync_core *core,
					       ktime_t *next)
{
	ktime_t now = ktime_get();
	bool stopping = kthread_should_stop();
	struct ncsync_dma_copy *c, *found = NULL;
	struct ncsync_prog *prog;

	*next = KTIME_MAX;
	spin_lock(&core->dma_lock);
	list_for_each_entry(prog, &core->dma_progs, dma.node) {
		c = list_first_entry(&prog->dma.copies, struct ncsync_dma_copy,
				     node);
		if (stopping || !ktime_after(c->land, now) ||
		    ncsync_dma_void(core, c)) {
			found = c;
			break;
		}
		*next = min(*next, c->land);
	}
	if (found) {
		prog = found->q->prog;
		list_del(&found->node);
		/* This program goes to the back of the round. */
		list_del_init(&prog->dma.node);
		if (!list_empty(&prog->dma.copies))
			list_add_tail(&prog->dma.node, &core->dma_progs);
	}
	spin_unlock(&core->dma_lock);
	return found;
}

/* memmove() within the device memory, in chunks between reschedules. */
static void ncsync_dma_move(struct ncsync_core *core, u64 dst, u64 src,
			    u32 len)
{
	u8 *mem = core->devmem;
	u32 n, done;

	for (done = 0; done < len; done += n) {
		n = min_t(u32, len - done, NCSYNC_DMA_CHUNK);
		/* Copy away from the overlap: forward when dst is below src. */
		if (dst <= src)
			memmove(mem + dst + done, mem + src + done, n);
		else
			memmove(mem + dst + len - done - n,
				mem + src + len - done - n, n);
		cond_resched();
	}
}

/*
 * Apply a landed copy's completion update on its core: the issuer's, or a
 * peer of its logical core.  Checked again under that core's lock, so
 * that it is ordered with a reset's clear of either core: a copy issued
 * before a reset of the core it updates lands without its update; and
 * with the stop of a program across cores by a reset or close on another
 * core (ncsync_groups_stop_peers()).  Whether it was applied.
 */
static bool ncsync_dma_update(struct ncsync_core *core,
			      struct ncsync_dma_copy *c)
{
	struct ncsync_core *to = c->upd_core;
	bool done = false;

	spin_lock(&to->lock);
	/* Teardown stops every DMA engine before any bank goes. */
	if (WARN_ON_ONCE(to->banks_gone))
		goto out;
	if (!ncsync_dma_void(core, c) &&
	    READ_ONCE(to->reset_gen) == c->upd_reset_gen) {
		if (c->upd.bank == NCSYNC_BANK_EVENT)
			ncsync_event_write_locked(to, c->upd.index, c->upd.set);
		else
			ncsync_sem_update_locked(to, c->upd.index, c->upd.op,
						 c->upd.operand);
		done = true;
	}
out:
	spin_unlock(&to->lock);
	return done;
}

/*
 * Land a copy: the bytes, then its update, unless it is void.  A program
 * stopped between the two checks gets its bytes but not its update.  Then
 * free its slot and wake its engine (Drain, or a DMA record waiting for a
 * slot).  Traced either way (ncsync_dma_land: landed 0 for a dropped copy).
 */
static void ncsync_dma_land(struct ncsync_core *core,
			    struct ncsync_dma_copy *c)
{
	struct ncsync_equeue *q = c->q;
	struct ncsync_prog *prog = q->prog;
	bool landed = false, updated = false;

	if (!kthread_should_stop() && !ncsync_dma_void(core, c)) {
		ncsync_dma_move(core, c->dst, c->src, c->len);
		if (c->upd.active)
			updated = ncsync_dma_update(core, c);
		ncsync_prog_progress(prog);
		landed = true;
	}
	trace_ncsync_dma_land(core->index, q->engine, prog->id, c->seq,
			      c->upd_core->index, landed, updated);
	/* The slot is free once every use of it is done. */
	smp_mb__before_atomic();
	atomic_dec(&q->dma_outstanding);
	ncsync_engines_kick(core, BIT(q->engine));
	ncsync_prog_put(prog);
}

static int ncsync_dma_thread(void *data)
{
	struct ncsync_core *core = data;
	struct ncsync_dma_copy *c;
	DEFINE_WAIT(wait);
	ktime_t next;

	for (;;) {
		prepare_to_wait(&core->dma_wq, &wait, TASK_INTERRUPTIBLE);
		c = ncsync_dma_next(core, &next);
		if (c) {
			finish_wait(&core->dma_wq, &wait);
			ncsync_dma_land(core, c);
			continue;
		}
		/* On stop, the copies still queued were dropped first. */
		if (kthread_should_stop())
			break;
		if (next == KTIME_MAX)
			schedule();
		else
			schedule_hrtimeout(&next, HRTIMER_MODE_ABS);
	}
	finish_wait(&core->dma_wq, &wait);
	return 0;
}

/**
 * ncsync_dma_init() - allocate a core's device memory, start its DMA engine.
 * @core: the core.
 *
 * Return: 0 or a negative errno.  The device memory is allocated without
 * the OOM killer: a load asking for more than the machine has fails with
 * -ENOMEM.
 */
int ncsync_dma_init(struct ncsync_core *core)
{
	spin_lock_init(&core->dma_lock);
	INIT_LIST_HEAD(&core->dma_progs);
	init_waitqueue_head(&core->dma_wq);
	core->devmem_size = (size_t)ncsync_devmem_kb << 10;
	core->devmem = __vmalloc(core->devmem_size,
				 GFP_KERNEL | __GFP_ZERO | __GFP_RETRY_MAYFAIL |
				 __GFP_NOWARN);
	if (!core->devmem)
		return -ENOMEM;
	core->dma_thread = kthread_run(ncsync_dma_thread, core, "ncsync%u-DMA",
				       core->index);
	if (IS_ERR(core->dma_thread)) {
		int ret = PTR_ERR(core->dma_thread);

		core->dma_thread = NULL;
		vfree(core->devmem);
		core->devmem = NULL;
		return ret;
	}
	return 0;
}

/**
 * ncsync_dma_stop() - stop a core's DMA engine, dropping its copies.
 * @core: the core; its engines are stopped (nothing issues a copy).
 *
 * The copies still queued are dropped, bytes and update, each putting its
 * program; a landing in progress completes first.  After this no copy of
 * the core lands, on it or on a peer.
 */
void ncsync_dma_stop(struct ncsync_core *core)
{
	if (core->dma_thread)
		kthread_stop(core->dma_thread);
	core->dma_thread = NULL;
}

/**
 * ncsync_dma_fini() - stop a core's DMA engine and free its memory.
 * @core: the core; its programs have ended.
 */
void ncsync_dma_fini(struct ncsync_core *core)
{
	ncsync_dma_stop(core);
	vfree(core->devmem);
	core->devmem = NULL;
}
