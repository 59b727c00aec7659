// SPDX-License-Identifier: GPL-2.0
/*
 * ncsync: the DMA engine (engine 4), the core's asynchronous copy queue.
 *
 * A DMA record queues a copy within the core's device memory.  The copy
 * lands, in issue order, no earlier than its latency after it was issued;
 * then its completion update (semaphore +1 or event set) is applied.  Drain
 * waits until every copy its queue issued has landed.  Copies of a program
 * that was stopped are dropped.
 */
#include <linux/hrtimer.h>
#include <linux/kthread.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/vmalloc.h>

#include "ncsync_drv.h"

/**
 * ncsync_dma_issue() - queue a copy.
 * @q: the issuing queue.
 * @insn: the DMA record.
 *
 * Return: 0 or -ENOMEM.
 */
int ncsync_dma_issue(struct ncsync_equeue *q, const struct ncsync_insn *insn)
{
	struct ncsync_core *core = q->prog->core;
	struct ncsync_dma_copy *c;

	c = kmalloc(sizeof(*c), GFP_KERNEL);
	if (!c)
		return -ENOMEM;
	c->q = q;
	c->src = insn->dma.src;
	c->dst = insn->dma.dst;
	c->len = insn->dma.len;
	c->land = ktime_add_us(ktime_get(), insn->dma.latency_us);
	c->upd_mode = insn->lane[0].upd_mode;
	c->upd_idx = insn->lane[0].upd_idx;
	c->reset_gen = READ_ONCE(core->reset_gen);

	kref_get(&q->prog->ref);
	atomic_inc(&q->dma_outstanding);
	spin_lock(&core->dma_lock);
	list_add_tail(&c->node, &core->dma_list);
	spin_unlock(&core->dma_lock);
	wake_up(&core->dma_wq);
	return 0;
}

static struct ncsync_dma_copy *ncsync_dma_next(struct ncsync_core *core)
{
	struct ncsync_dma_copy *c;

	spin_lock(&core->dma_lock);
	c = list_first_entry_or_null(&core->dma_list, struct ncsync_dma_copy,
				     node);
	if (c)
		list_del(&c->node);
	spin_unlock(&core->dma_lock);
	return c;
}

/* Whether a copy is void: its program stopped or the core was reset. */
static bool ncsync_dma_void(struct ncsync_core *core,
			    struct ncsync_dma_copy *c)
{
	return READ_ONCE(c->q->prog->stop) ||
	       READ_ONCE(core->reset_gen) != c->reset_gen;
}

/* Sleep until a copy's landing time; false when it is to be dropped. */
static bool ncsync_dma_delay(struct ncsync_core *core,
			     struct ncsync_dma_copy *c)
{
	ktime_t land = c->land;

	while (ktime_before(ktime_get(), land)) {
		if (kthread_should_stop() || ncsync_dma_void(core, c))
			return false;
		set_current_state(TASK_INTERRUPTIBLE);
		schedule_hrtimeout(&land, HRTIMER_MODE_ABS);
	}
	return !kthread_should_stop();
}

/*
 * Land a copy: the bytes, then its update, unless it is void.  A program
 * stopped between the two checks gets its bytes but not its update.
 */
static void ncsync_dma_land(struct ncsync_core *core,
			    struct ncsync_dma_copy *c)
{
	struct ncsync_prog *prog = c->q->prog;
	bool update = c->upd_mode != NCSYNC_UPD_NONE;

	if (ncsync_dma_delay(core, c) && !ncsync_dma_void(core, c)) {
		memmove(core->devmem + c->dst, core->devmem + c->src, c->len);
		spin_lock(&core->lock);
		/* Checked again under the lock: ordered with a reset's clear. */
		if (update && !ncsync_dma_void(core, c)) {
			if (ncsync_upd_is_event(c->upd_mode))
				ncsync_event_write_locked(core, c->upd_idx, true);
			else
				ncsync_sem_update_locked(core, c->upd_idx,
							 NCSYNC_SEM_UPD_ADD, 1);
		}
		spin_unlock(&core->lock);
		ncsync_prog_progress(prog);
	}
	atomic_dec(&c->q->dma_outstanding);
	ncsync_wake(core, NULL);	/* the update's waiters and the Drain */
	ncsync_prog_put(prog);
	kfree(c);
}

static int ncsync_dma_thread(void *data)
{
	struct ncsync_core *core = data;
	struct ncsync_dma_copy *c = NULL;

	for (;;) {
		/* On stop, the copies still queued are dropped first. */
		wait_event_interruptible(core->dma_wq,
					 (c = ncsync_dma_next(core)) ||
					 kthread_should_stop());
		if (c) {
			ncsync_dma_land(core, c);
			c = NULL;
		} else if (kthread_should_stop()) {
			break;
		}
	}
	return 0;
}

/**
 * ncsync_dma_init() - allocate a core's device memory, start its DMA engine.
 * @core: the core.
 *
 * Return: 0 or a negative errno.
 */
int ncsync_dma_init(struct ncsync_core *core)
{
	spin_lock_init(&core->dma_lock);
	INIT_LIST_HEAD(&core->dma_list);
	init_waitqueue_head(&core->dma_wq);
	core->devmem_size = (size_t)ncsync_devmem_kb << 10;
	core->devmem = vmalloc_user(core->devmem_size);
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
 * ncsync_dma_fini() - stop a core's DMA engine and free its memory.
 * @core: the core; its programs have ended.
 */
void ncsync_dma_fini(struct ncsync_core *core)
{
	if (core->dma_thread)
		kthread_stop(core->dma_thread);
	core->dma_thread = NULL;
	vfree(core->devmem);
	core->devmem = NULL;
}
