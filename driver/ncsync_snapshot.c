// SPDX-License-Identifier: GPL-2.0
/*
 * ncsync: program snapshots: the state of a program when it ended or its
 * watchdog fired (struct ncsync_snapshot), the status of one engine's
 * queue, and the timed-out program's report in the kernel log.
 *
 * A leaf among the program files: it reads the banks and calls no other
 * program file.  Names of engines, states and wait modes come from
 * common/ncsync_names.c.
 */
#include <linux/slab.h>

#include "ncsync_drv.h"
#include "ncsync_names.h"

/*
 * Snapshots come from a cache whose constructor zeroes an object once, when
 * its slab is made, instead of from kmalloc(), which the distribution's
 * init_on_alloc makes zero all 2.2 KiB at every submission: under TCG that
 * memset was a third of a one-record submission (performance.rst,
 * "Submissions without zeroing").  Nothing reads what a previous program
 * left in one: ncsync_snapshot_fill_locked() writes every byte read.
 */
static struct kmem_cache *ncsync_snap_cache;

static void ncsync_snap_ctor(void *obj)
{
	memset(obj, 0, sizeof(struct ncsync_snapshot));
}

/**
 * ncsync_snapshots_init() - create the cache of program snapshots.
 *
 * Return: 0 or -ENOMEM.
 */
int ncsync_snapshots_init(void)
{
	const unsigned int size = sizeof(struct ncsync_snapshot);
	const unsigned int off = offsetof(struct ncsync_snapshot, sems);
	const unsigned int len = sizeof_field(struct ncsync_snapshot, sems);

	/* NCSYNC_IOC_PROG_STATUS copies the semaphores out of one. */
	ncsync_snap_cache = kmem_cache_create_usercopy("ncsync_snapshot", size,
						       0, SLAB_ACCOUNT, off, len,
						       ncsync_snap_ctor);
	return ncsync_snap_cache ? 0 : -ENOMEM;
}

/**
 * ncsync_snapshots_fini() - destroy it, once every program is freed.
 */
void ncsync_snapshots_fini(void)
{
	kmem_cache_destroy(ncsync_snap_cache);
}

/**
 * ncsync_snapshot_held() - what a snapshot holds: the cache's object, and
 *	the free pointer SLUB keeps after the object of a cache with a
 *	constructor.
 *
 * Return: the bytes a program is charged for its snapshot.
 */
size_t ncsync_snapshot_held(void)
{
	return ALIGN(kmem_cache_size(ncsync_snap_cache) + sizeof(void *),
		     sizeof(void *));
}

/**
 * ncsync_snapshot_alloc() - allocate a snapshot from the cache.
 *
 * Return: the snapshot, its bytes as a previous user left them, or NULL.
 */
struct ncsync_snapshot *ncsync_snapshot_alloc(void)
{
	return kmem_cache_alloc(ncsync_snap_cache, GFP_KERNEL_ACCOUNT);
}

/**
 * ncsync_snapshot_free() - free a snapshot of ncsync_snapshot_alloc().
 * @snap: the snapshot, or NULL.
 */
void ncsync_snapshot_free(struct ncsync_snapshot *snap)
{
	if (snap)
		kmem_cache_free(ncsync_snap_cache, snap);
}

/**
 * ncsync_status_read_locked() - an engine's status, with the current value
 *	of what it waits on.
 * @q: the engine's queue; prog_lock held.
 * @st: out: the status.
 */
void ncsync_status_read_locked(struct ncsync_equeue *q,
			       struct ncsync_engine_status *st)
{
	struct ncsync_core *core = q->prog->core;

	lockdep_assert_held(&q->prog->core->prog_lock);
	*st = q->st;
	st->pc = READ_ONCE(q->st.pc);
	st->executed = READ_ONCE(q->st.executed);
	st->dma_outstanding = atomic_read(&q->dma_outstanding);
	if (st->state != NCSYNC_ENG_BLOCKED)
		return;
	if (st->wait_kind == NCSYNC_BLOCK_SEM)
		st->wait_current = ncsync_sem_get(core, st->wait_index);
	else if (st->wait_kind == NCSYNC_BLOCK_EVENT)
		st->wait_current = ncsync_event_get(core, st->wait_index);
	else if (st->wait_kind == NCSYNC_BLOCK_DRAIN ||
		 st->wait_kind == NCSYNC_BLOCK_DMA_FULL)
		st->wait_current = st->dma_outstanding;
}

/**
 * ncsync_snapshot_fill_locked() - the state of a program now.
 * @prog: the program; prog_lock held.
 * @snap: out: every byte that is read of a snapshot, the engines @prog has
 *	no queue for as zero; only the first @snap->nsems semaphores are
 *	read.
 */
void ncsync_snapshot_fill_locked(struct ncsync_prog *prog,
				 struct ncsync_snapshot *snap)
{
	struct ncsync_core *core = prog->core;
	unsigned int i;

	lockdep_assert_held(&core->prog_lock);
	for (i = 0; i < prog->nq; i++)
		ncsync_status_read_locked(&prog->q[i], &snap->engines[i]);
	memset(&snap->engines[i], 0,
	       (NCSYNC_NUM_ENGINES - i) * sizeof(*snap->engines));
	spin_lock(&core->lock);
	snap->nsems = ncsync_nonzero_sems_locked(core, snap->sems);
	spin_unlock(&core->lock);
}

/**
 * ncsync_snapshot_locked() - record a program's state in its snapshot.
 * @prog: the program; prog_lock held.
 */
void ncsync_snapshot_locked(struct ncsync_prog *prog)
{
	ncsync_snapshot_fill_locked(prog, prog->snap);
}

static const char *ncsync_eng_state_name(u8 state)
{
	return ncsync_text_name(ncsync_text_eng_states, state) ?: "?";
}

/* A wait mode as the text form spells it: ">=", "set_then_clear". */
static const char *ncsync_wait_mode_name(u8 mode)
{
	const char *name = ncsync_wait_mode_is_sem(mode) ?
			   ncsync_text_name(ncsync_text_wait_sem,
					    mode & ~NCSYNC_WAIT_REG) :
			   ncsync_text_name(ncsync_text_wait_ev, mode);

	return name ?: "?";
}

/* Log what one engine of a snapshot was doing. */
static void ncsync_snapshot_log_engine(const struct ncsync_engine_status *st)
{
	const char *name = ncsync_engine_title(st->engine);

	if (st->state != NCSYNC_ENG_BLOCKED)
		pr_info("ncsync:   engine %u %-10s record %u: %s\n", st->engine,
			name, st->pc, ncsync_eng_state_name(st->state));
	else if (st->wait_kind == NCSYNC_BLOCK_DRAIN)
		pr_info("ncsync:   engine %u %-10s record %u: waits in Drain, %d copies in flight\n",
			st->engine, name, st->pc, st->wait_current);
	else if (st->wait_kind == NCSYNC_BLOCK_DMA_FULL)
		pr_info("ncsync:   engine %u %-10s record %u: waits for a DMA slot, %d copies in flight\n",
			st->engine, name, st->pc, st->wait_current);
	else if (st->wait_kind == NCSYNC_BLOCK_SEM)
		pr_info("ncsync:   engine %u %-10s record %u: waits for sem[%u] %s %d (lane %u), now %d\n",
			st->engine, name, st->pc, st->wait_index,
			ncsync_wait_mode_name(st->wait_mode),
			st->wait_threshold, st->wait_lane, st->wait_current);
	else
		pr_info("ncsync:   engine %u %-10s record %u: waits for event[%u] %s (lane %u), now %d\n",
			st->engine, name, st->pc, st->wait_index,
			ncsync_wait_mode_name(st->wait_mode), st->wait_lane,
			st->wait_current);
}

/* Log the non-zero semaphores of a snapshot, in lines under 1 KiB. */
static void ncsync_snapshot_log_sems(const struct ncsync_snapshot *snap)
{
	const size_t size = 512;
	unsigned int i = 0;
	size_t len;
	char *buf;

	buf = kmalloc(size, GFP_KERNEL);
	if (!buf)
		return;
	len = scnprintf(buf, size, "ncsync:   %u non-zero semaphores:",
			snap->nsems);
	do {
		while (i < snap->nsems && len < size - 32) {
			len += scnprintf(buf + len, size - len, " [%u]=%d",
					 snap->sems[i].index,
					 snap->sems[i].value);
			i++;
		}
		pr_info("%s\n", buf);
		len = scnprintf(buf, size, "ncsync:    ");
	} while (i < snap->nsems);
	kfree(buf);
}

/**
 * ncsync_snapshot_log() - write a program's snapshot to the kernel log.
 * @prog: the program, timed out; no lock held.
 *
 * One printk record per line (a record is cut near 1 KiB), within the
 * module's rate limit.  A member of a program across cores says so.
 */
void ncsync_snapshot_log(struct ncsync_prog *prog)
{
	unsigned int i;

	if (!ncsync_log_allowed(prog->core))
		return;
	pr_info("ncsync: core %u program %u timed out: no progress for %u ms%s\n",
		prog->core->index, prog->id, prog->watchdog_ms,
		prog->lnc.group ? " (a member of a program across cores)" : "");
	for (i = 0; i < prog->nq; i++)
		ncsync_snapshot_log_engine(&prog->snap->engines[i]);
	ncsync_snapshot_log_sems(prog->snap);
}
