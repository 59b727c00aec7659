// SPDX-License-Identifier: GPL-2.0
/*
 * ncsync: programs: submission, ordering, completion, cancellation, the
 * watchdog and snapshots.
 *
 * A program holds one queue per engine.  It starts once every earlier
 * program of the core that shares an engine with it has ended; then all its
 * queues start together.  Programs on disjoint engines run concurrently.
 */
#include <linux/jiffies.h>
#include <linux/overflow.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>
#include <linux/workqueue.h>

#include "ncsync_drv.h"
#include "ncsync_names.h"

/* Records copied from userspace at a time while decoding. */
#define NCSYNC_DECODE_CHUNK	64
/* Period of the watchdog while programs run. */
#define NCSYNC_WATCHDOG_PERIOD	msecs_to_jiffies(20)

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

/*
 * What a snapshot holds: the cache's object, and the free pointer SLUB
 * keeps after the object of a cache with a constructor.
 */
static size_t ncsync_snap_held(void)
{
	return ALIGN(kmem_cache_size(ncsync_snap_cache) + sizeof(void *),
		     sizeof(void *));
}

static struct ncsync_snapshot *ncsync_snap_alloc(void)
{
	return kmem_cache_alloc(ncsync_snap_cache, GFP_KERNEL_ACCOUNT);
}

static void ncsync_snap_free(struct ncsync_snapshot *snap)
{
	if (snap)
		kmem_cache_free(ncsync_snap_cache, snap);
}

static void ncsync_prog_free(struct kref *ref)
{
	struct ncsync_prog *prog = container_of(ref, struct ncsync_prog, ref);
	unsigned int i;

	for (i = 0; i < prog->nq; i++) {
		kvfree(prog->q[i].insns);
		kvfree(prog->q[i].dma_slots);
	}
	if (prog->user) {
		ncsync_user_uncharge(prog->user, prog->user_mem);
		ncsync_user_put(prog->user);
	}
	if (prog->group) {
		if (!list_empty(&prog->gnode)) {
			spin_lock(&prog->core->prog_lock);
			list_del(&prog->gnode);
			spin_unlock(&prog->core->prog_lock);
		}
		ncsync_group_put(prog->group);
	}
	ncsync_snap_free(prog->snap);
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
	if (prog->group && !prog->gidx)
		ncsync_group_forget(prog->group);
	ncsync_prog_put(prog);
}

/* Where a program's progress is kept: its group's, for a member. */
static unsigned long *ncsync_prog_progress_ptr(struct ncsync_prog *prog)
{
	return prog->group ? &prog->group->last_progress :
			     &prog->last_progress;
}

/**
 * ncsync_prog_progress() - note that a program made progress.
 * @prog: the program.
 */
void ncsync_prog_progress(struct ncsync_prog *prog)
{
	WRITE_ONCE(*ncsync_prog_progress_ptr(prog), jiffies);
}

/*
 * Free a program's decoded records from under a spinlock: kvfree() may
 * sleep, so the program, with a reference, goes to the core's reaper.
 */
static void ncsync_insns_reap_locked(struct ncsync_prog *prog)
{
	lockdep_assert_held(&prog->core->prog_lock);
	kref_get(&prog->ref);
	llist_add(&prog->reap_node, &prog->core->reap);
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
				  reap_node) {
		for (i = 0; i < prog->nq; i++) {
			kvfree(prog->q[i].insns);
			prog->q[i].insns = NULL;
		}
		ncsync_prog_put(prog);
	}
}

static bool ncsync_prog_ended(const struct ncsync_prog *prog)
{
	return prog->state >= NCSYNC_PROG_DONE;
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
	if (prog->group && !prog->gidx)
		return ncsync_group_ended(prog->group);
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
	if (prog->group)
		ncsync_group_member_end_locked(prog);
	list_del(&prog->core_node);
	prog->nfile->mem -= prog->insn_mem;
	prog->user_mem -= prog->insn_mem;
	ncsync_user_uncharge(prog->user, prog->insn_mem);
	/* Under prog_lock: the descriptor cannot be released meanwhile. */
	wake_up_all(&prog->nfile->poll_wq);
	prog->core->ntf_prog_ended(prog);
}

/*
 * Validate and decode the record @rec of @uq into @insn; with @conf (the
 * conformance profile), check it against the profile too.
 */
static enum ncsync_rec_reason ncsync_rec_decode(struct ncsync_core *core,
						const u8 *rec,
						const struct ncsync_queue *uq,
						struct ncsync_conform *conf,
						struct ncsync_insn *insn)
{
	enum ncsync_rec_reason r;

	r = ncsync_record_decode(rec, uq->count, core->devmem_size, insn);
	if (!r)
		r = ncsync_record_check_lnc(insn, ncsync_lnc);
	if (!r && conf)
		r = ncsync_record_conform(conf, insn);
	return r;
}

/* The core a decoded record's completion lands on, if another: a bit. */
static u64 ncsync_insn_lands(const struct ncsync_insn *insn)
{
	if (insn->opcode != NCSYNC_OPC_DMA ||
	    !(insn->dma.flags & NCSYNC_DMA_F_PEER))
		return 0;
	return BIT_ULL(insn->dma.peer);
}

/*
 * Decode one queue, chunk by chunk, into q->insns; note in q->prog->lands
 * the cores its completions land on.
 */
static int ncsync_queue_decode(struct ncsync_core *core,
			       struct ncsync_equeue *q,
			       const struct ncsync_queue *uq,
			       struct ncsync_conform *conf,
			       struct ncsync_submit *sub)
{
	const u8 __user *urec = u64_to_user_ptr(uq->records);
	u8 *buf;
	u32 i, n, base;
	int ret = 0;

	/* As large as the queue, up to a chunk: init_on_alloc zeroes it. */
	buf = kmalloc_array(min_t(u32, uq->count, NCSYNC_DECODE_CHUNK),
			    NCSYNC_RECORD_SIZE, GFP_KERNEL_ACCOUNT);
	if (!buf)
		return -ENOMEM;

	for (base = 0; base < uq->count; base += n) {
		n = min_t(u32, uq->count - base, NCSYNC_DECODE_CHUNK);
		if (copy_from_user(buf, urec + (size_t)base * NCSYNC_RECORD_SIZE,
				   (size_t)n * NCSYNC_RECORD_SIZE)) {
			ret = -EFAULT;
			break;
		}
		for (i = 0; i < n; i++) {
			enum ncsync_rec_reason r;

			r = ncsync_rec_decode(core, buf + i * NCSYNC_RECORD_SIZE,
					      uq, conf, &q->insns[base + i]);
			if (!r)
				q->prog->lands |=
					ncsync_insn_lands(&q->insns[base + i]);
			if (r) {
				sub->bad_engine = uq->engine;
				sub->bad_index = base + i;
				sub->reason = r;
				ret = -EINVAL;
				goto out;
			}
		}
		cond_resched();
	}
out:
	kfree(buf);
	return ret;
}

/**
 * ncsync_queues_check() - check the queue descriptors of one core: engines,
 *	counts, pads.
 * @uqs: the queues.
 * @nq: entries of @uqs.
 * @engine_mask: out: bit i for engine i.
 * @records: out: the records of all queues.
 *
 * Return: 0 or -EINVAL.
 */
int ncsync_queues_check(const struct ncsync_queue *uqs, u32 nq,
			u32 *engine_mask, u64 *records)
{
	u32 i;

	*engine_mask = 0;
	*records = 0;
	for (i = 0; i < nq; i++) {
		const struct ncsync_queue *uq = &uqs[i];
		u32 bit;

		if (uq->pad[0] || uq->pad[1] || uq->pad[2])
			return -EINVAL;
		if (uq->engine >= 8 || !(NCSYNC_ENGINE_MASK & BIT(uq->engine)))
			return -EINVAL;
		bit = BIT(uq->engine);
		if (*engine_mask & bit)
			return -EINVAL;
		*engine_mask |= bit;
		if (!uq->count || uq->count > NCSYNC_MAX_RECORDS)
			return -EINVAL;
		*records += uq->count;
	}
	return 0;
}

/*
 * A descriptor forgets an ended program (release or eviction): the rest of
 * its memory charge goes back to the descriptor.  The caller puts the
 * descriptor's reference; the user's charge goes when the program is freed.
 */
static void ncsync_file_forget_locked(struct ncsync_file *nfile,
				      struct ncsync_prog *prog)
{
	lockdep_assert_held(&nfile->core->prog_lock);
	list_del_init(&prog->file_node);
	nfile->nprogs--;
	nfile->mem -= prog->mem - prog->insn_mem;
}

/*
 * Make room for one more program on a descriptor: forget its oldest ended
 * program when it has NCSYNC_MAX_PROGS_PER_FD.  Return the program to free,
 * ERR_PTR(-EAGAIN) when none has ended, or NULL when there is room.
 */
static struct ncsync_prog *ncsync_file_evict_locked(struct ncsync_file *nfile)
{
	struct ncsync_prog *prog;

	lockdep_assert_held(&nfile->core->prog_lock);
	if (nfile->nprogs < NCSYNC_MAX_PROGS_PER_FD)
		return NULL;
	list_for_each_entry(prog, &nfile->progs, file_node) {
		if (ncsync_prog_over(prog)) {
			ncsync_file_forget_locked(nfile, prog);
			return prog;
		}
	}
	return ERR_PTR(-EAGAIN);
}

/* The bytes of @count decoded records. */
static size_t ncsync_insns_size(u32 count)
{
	return array_size(count, sizeof(struct ncsync_insn));
}

static struct ncsync_prog *ncsync_prog_alloc(u32 nq, const u32 *counts)
{
	struct ncsync_prog *prog;
	u32 i;

	prog = kzalloc(struct_size(prog, q, nq), GFP_KERNEL_ACCOUNT);
	if (!prog)
		return NULL;
	kref_init(&prog->ref);
	INIT_LIST_HEAD(&prog->dma_copies);
	INIT_LIST_HEAD(&prog->dma_node);
	INIT_LIST_HEAD(&prog->gnode);
	prog->nq = nq;
	prog->snap = ncsync_snap_alloc();
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

/* The bytes of one queue's DMA ring: none without a DMA record. */
static size_t ncsync_queue_dma_mem(const struct ncsync_equeue *q)
{
	u32 i;

	for (i = 0; i < q->count; i++)
		if (q->insns[i].opcode == NCSYNC_OPC_DMA)
			return array_size(ncsync_dma_depth,
					  sizeof(struct ncsync_dma_copy));
	return 0;
}

/**
 * ncsync_prog_charge() - charge a program @mem bytes more.
 * @prog: the program; its descriptor and user are set.
 * @mem: the bytes.
 *
 * Charges @prog's user and checks the descriptor's cap, so that a refusal
 * comes before the records are read.  The charge goes with the program.
 *
 * Return: 0, or -ENOMEM with nothing charged.
 */
int ncsync_prog_charge(struct ncsync_prog *prog, size_t mem)
{
	struct ncsync_file *nfile = prog->nfile;
	size_t cap = (size_t)ncsync_fd_mem_mb << 20;
	int ret;

	spin_lock(&nfile->core->prog_lock);
	ret = nfile->mem + prog->mem + mem > cap ? -ENOMEM : 0;
	spin_unlock(&nfile->core->prog_lock);
	if (!ret)
		ret = ncsync_user_charge(prog->user, mem);
	if (ret)
		return ret;
	prog->mem += mem;
	prog->user_mem += mem;
	return 0;
}

/* Decode the queues and give the ones with DMA records their rings. */
static int ncsync_prog_decode(struct ncsync_prog *prog,
			      const struct ncsync_queue *uqs,
			      struct ncsync_submit *sub)
{
	struct ncsync_conform conf;
	size_t ring;
	u32 i;
	int ret;

	ncsync_conform_init(&conf);
	for (i = 0; i < prog->nq; i++) {
		struct ncsync_equeue *q = &prog->q[i];

		q->prog = prog;
		q->engine = uqs[i].engine;
		q->count = uqs[i].count;
		q->st.engine = q->engine;
		q->st.state = NCSYNC_ENG_QUEUED;
		ret = ncsync_queue_decode(prog->core, q, &uqs[i],
					  sub->flags & NCSYNC_SUBMIT_F_CONFORM ?
					  &conf : NULL, sub);
		if (ret)
			return ret;
		ncsync_conform_next_queue(&conf);
		ring = ncsync_queue_dma_mem(q);
		if (!ring)
			continue;
		ret = ncsync_prog_charge(prog, ncsync_kv_held(ring));
		if (ret)
			return ret;
		q->dma_slots = ncsync_kv_alloc(ring,
					       GFP_KERNEL_ACCOUNT | __GFP_ZERO);
		if (!q->dma_slots)
			return -ENOMEM;
	}
	return 0;
}

/**
 * ncsync_prog_make() - allocate and decode a program whose queues passed
 *	ncsync_queues_check().
 * @nfile: the descriptor it is charged to.
 * @uqs: its queues.
 * @nq: entries of @uqs.
 * @sub: the request: flags and watchdog; names a refused record.
 * @engine_mask: the engines of @uqs.
 * @records: their records.
 *
 * Return: the program, with one reference, or an ERR_PTR().
 */
struct ncsync_prog *ncsync_prog_make(struct ncsync_file *nfile,
				     const struct ncsync_queue *uqs, u32 nq,
				     struct ncsync_submit *sub,
				     u32 engine_mask, u64 records)
{
	struct ncsync_prog *prog;
	u32 counts[NCSYNC_NUM_ENGINES];
	struct ncsync_prog stub = { .nfile = nfile, .user = nfile->user };
	size_t mem, insn_mem = 0;
	u32 i;
	int ret;

	/*
	 * Refuse what cannot fit before allocating or reading anything; what
	 * is charged is what the allocators hold (ncsync_kv_held()).
	 */
	for (i = 0; i < nq; i++) {
		counts[i] = uqs[i].count;
		insn_mem += ncsync_kv_held(ncsync_insns_size(counts[i]));
	}
	mem = insn_mem + ncsync_kmalloc_held(struct_size(prog, q, nq)) +
	      ncsync_snap_held();
	ret = ncsync_prog_charge(&stub, mem);
	if (ret)
		return ERR_PTR(ret);
	prog = ncsync_prog_alloc(nq, counts);
	if (!prog) {
		ncsync_user_uncharge(nfile->user, mem);
		return ERR_PTR(-ENOMEM);
	}
	prog->user = ncsync_user_ref(nfile->user);
	prog->core = nfile->core;
	prog->nfile = nfile;
	prog->mem = mem;
	prog->user_mem = mem;
	prog->insn_mem = insn_mem;
	prog->flags = sub->flags;
	prog->watchdog_ms = sub->watchdog_ms ?: ncsync_watchdog_ms;
	prog->engine_mask = engine_mask;
	prog->pid = task_tgid_nr(current);
	prog->state = NCSYNC_PROG_QUEUED;
	prog->nrunning = nq;
	ret = ncsync_prog_decode(prog, uqs, sub);
	if (ret) {
		ncsync_prog_put(prog);
		return ERR_PTR(ret);
	}
	return prog;
}

/**
 * ncsync_prog_queue() - put a decoded program on its descriptor's and its
 *	core's lists.
 * @prog: the program.
 *
 * Return: an ended program evicted to make room (to be put with
 * ncsync_prog_put_forgotten()), NULL, or an ERR_PTR() (-ENOMEM, -EAGAIN).
 */
struct ncsync_prog *ncsync_prog_queue(struct ncsync_prog *prog)
{
	struct ncsync_file *nfile = prog->nfile;
	struct ncsync_core *core = nfile->core;
	struct ncsync_prog *evict;

	spin_lock(&core->prog_lock);
	if (nfile->mem + prog->mem > (size_t)ncsync_fd_mem_mb << 20) {
		evict = ERR_PTR(-ENOMEM);
		goto out;
	}
	evict = ncsync_file_evict_locked(nfile);
	if (IS_ERR(evict))
		goto out;
	prog->id = nfile->next_id++;
	if (!nfile->next_id)
		nfile->next_id = 1;
	nfile->mem += prog->mem;
	nfile->nprogs++;
	list_add_tail(&prog->file_node, &nfile->progs);
	/* core->progs stays in increasing seq order. */
	prog->seq = ++core->prog_seq;
	list_add_tail(&prog->core_node, &core->progs);
out:
	spin_unlock(&core->prog_lock);
	return evict;
}

/**
 * ncsync_prog_unqueue() - take a queued program that never started off
 *	its lists again: a program across cores whose other members could not
 *	be queued.
 * @prog: the program, queued by ncsync_prog_queue(); it cannot have
 *	started (its group never let it).  The caller puts its reference.
 */
void ncsync_prog_unqueue(struct ncsync_prog *prog)
{
	struct ncsync_file *nfile = prog->nfile;
	struct ncsync_core *core = prog->core;

	spin_lock(&core->prog_lock);
	if (!ncsync_prog_ended(prog)) {
		/*
		 * It ends cancelled without having run: a stop of its group
		 * still under way passes it by.
		 */
		WRITE_ONCE(prog->stop, NCSYNC_FAULT_CANCELLED);
		prog->state = NCSYNC_PROG_CANCELLED;
		if (prog->group)
			ncsync_group_member_end_locked(prog);
		/* What ncsync_prog_end_locked() would give back. */
		list_del(&prog->core_node);
		nfile->mem -= prog->insn_mem;
		prog->user_mem -= prog->insn_mem;
		ncsync_user_uncharge(prog->user, prog->insn_mem);
	}
	ncsync_file_forget_locked(nfile, prog);
	spin_unlock(&core->prog_lock);
}

/**
 * ncsync_submit_check() - what every submission checks first.
 * @sub: the request; its out fields are reset.
 *
 * Return: 0, or -EINVAL for unknown flags, a non-zero reserved field, no
 * queue or a watchdog past NCSYNC_MAX_WATCHDOG_MS.  The checks of one
 * core or of several (ncsync_submit_cores()) follow.
 */
int ncsync_submit_check(struct ncsync_submit *sub)
{
	sub->bad_engine = 0;
	sub->bad_index = 0;
	sub->reason = NCSYNC_REC_OK;
	sub->id = 0;
	sub->bad_core = 0;
	if (sub->flags & ~NCSYNC_SUBMIT_F_ALL || sub->reserved ||
	    sub->reserved2[0] || sub->reserved2[1] || !sub->nqueues ||
	    sub->watchdog_ms > NCSYNC_MAX_WATCHDOG_MS)
		return -EINVAL;
	return 0;
}

/*
 * Take the descriptors of other cores a submission on one core names, the
 * cores its completions land on: into *@fdsp, allocated, or NULL when it
 * names none.
 */
static int ncsync_submit_fds(struct ncsync_file *nfile,
			     const struct ncsync_submit *sub,
			     struct ncsync_fds **fdsp)
{
	*fdsp = NULL;
	if (!sub->nfds)
		return sub->fds ? -EINVAL : 0;
	*fdsp = kzalloc(sizeof(**fdsp), GFP_KERNEL);
	if (!*fdsp)
		return -ENOMEM;
	return ncsync_fds_take(*fdsp, nfile, sub);
}

/*
 * Whether a program on one core lands completions only on its own core
 * and the cores of @fds (-EACCES), and each of @fds is of such a core
 * (-EINVAL).
 */
static int ncsync_submit_lands_check(const struct ncsync_fds *fds,
				     const struct ncsync_prog *prog)
{
	u64 own = BIT_ULL(prog->core->index - prog->core->lnc_first->index);

	if (!fds)
		return prog->lands & ~own ? -EACCES : 0;
	return ncsync_fds_lands_check(fds, prog) ?:
	       ncsync_fds_used_check(fds, prog->lands);
}

/* Queue a checked program on its core; its id in @sub. */
static int ncsync_submit_queue(struct ncsync_prog *prog,
			       struct ncsync_submit *sub)
{
	struct ncsync_prog *evict = ncsync_prog_queue(prog);

	if (IS_ERR(evict))
		return PTR_ERR(evict);
	sub->id = prog->id;
	if (evict)
		ncsync_prog_put_forgotten(evict);
	ncsync_engines_kick(prog->core, prog->engine_mask);
	return 0;
}

/**
 * ncsync_submit() - validate a program and queue it on the core.
 * @nfile: the descriptor, open for writing.
 * @sub: the request; on success @sub->id is set, and when a record is
 *	refused, @sub->bad_engine, @sub->bad_index and @sub->reason.
 *
 * Return: 0; -EINVAL for bad flags, counts, engines, pads, a refused
 * record, or a descriptor in @sub->fds not of ncsync, of the submitter's
 * core, given twice or of a core no completion lands on; -EFAULT for
 * unreadable queues, records or descriptors; -EBADF for a descriptor that
 * is not open; -EXDEV for one of another logical core; -EACCES for one
 * not open for writing, or a completion landing on another core without
 * its descriptor; -ENOMEM when the program would take the descriptor past
 * fd_mem_mb, its user past user_mem_mb or all users past total_mem_mb, or
 * on allocation failure; -EAGAIN when the descriptor holds
 * NCSYNC_MAX_PROGS_PER_FD programs and none has ended.  Nothing is queued
 * on any error.
 */
int ncsync_submit(struct ncsync_file *nfile, struct ncsync_submit *sub)
{
	struct ncsync_queue uqs[NCSYNC_NUM_ENGINES];
	struct ncsync_fds *fds = NULL;
	struct ncsync_prog *prog;
	u32 engine_mask;
	u64 records;
	int ret;

	ret = ncsync_submit_check(sub);
	if (ret)
		return ret;
	/* NCSYNC_SUBMIT_F_CORES: ncsync_submit_cores(). */
	if (sub->flags & NCSYNC_SUBMIT_F_CORES ||
	    sub->nqueues > NCSYNC_NUM_ENGINES)
		return -EINVAL;
	if (copy_from_user(uqs, u64_to_user_ptr(sub->queues),
			   sub->nqueues * sizeof(uqs[0])))
		return -EFAULT;
	ret = ncsync_queues_check(uqs, sub->nqueues, &engine_mask, &records);
	if (!ret)
		ret = ncsync_submit_fds(nfile, sub, &fds);
	if (ret)
		goto out;

	prog = ncsync_prog_make(nfile, uqs, sub->nqueues, sub, engine_mask,
				records);
	if (IS_ERR(prog)) {
		ret = PTR_ERR(prog);
		goto out;
	}
	ret = ncsync_submit_lands_check(fds, prog);
	if (!ret)
		ret = ncsync_submit_queue(prog, sub);
	if (ret)
		ncsync_prog_put(prog);
out:
	if (fds)
		ncsync_fds_put(fds);
	kfree(fds);
	return ret;
}

/* A queued program starts: all its queues together. */
static void ncsync_prog_start_locked(struct ncsync_prog *prog)
{
	struct ncsync_core *core = prog->core;

	lockdep_assert_held(&core->prog_lock);
	prog->state = NCSYNC_PROG_RUNNING;
	WRITE_ONCE(*ncsync_prog_progress_ptr(prog), jiffies);
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
	list_for_each_entry(prog, &core->progs, core_node) {
		bool mine = prog->engine_mask & bit;

		if (prog->state == NCSYNC_PROG_QUEUED && !prog->stop &&
		    !(prog->engine_mask & busy) &&
		    (!prog->group || ncsync_group_may_start_locked(prog))) {
			if (!take)
				return true;
			ncsync_prog_start_locked(prog);
		}
		q = mine && prog->state == NCSYNC_PROG_RUNNING ?
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

/* Find a program of a descriptor and take a reference. */
static struct ncsync_prog *ncsync_prog_get(struct ncsync_file *nfile, u32 id)
{
	struct ncsync_core *core = nfile->core;
	struct ncsync_prog *prog;

	spin_lock(&core->prog_lock);
	list_for_each_entry(prog, &nfile->progs, file_node) {
		if (prog->id == id) {
			kref_get(&prog->ref);
			spin_unlock(&core->prog_lock);
			return prog;
		}
	}
	spin_unlock(&core->prog_lock);
	return NULL;
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

/*
 * The state of @prog now into @snap: every byte that is read of a
 * snapshot, the engines it has no queue for as zero; only the first
 * @snap->nsems semaphores are read.
 */
static void ncsync_snapshot_fill_locked(struct ncsync_prog *prog,
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
	if (prog->group)
		ncsync_group_stop(prog->group, prog->gidx, reason);
	if (prog->state != NCSYNC_PROG_QUEUED)
		return true;
	for (i = 0; i < prog->nq; i++) {
		prog->q[i].st.state = NCSYNC_ENG_CANCELLED;
		prog->q[i].st.fault = reason;
		prog->q[i].finished = true;
	}
	ncsync_insns_reap_locked(prog);
	prog->nrunning = 0;
	ncsync_snapshot_locked(prog);
	prog->state = NCSYNC_PROG_CANCELLED;
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
	if (!--prog->nrunning) {
		if (!prog->snapped)
			ncsync_snapshot_locked(prog);
		prog->state = ncsync_prog_final_state(prog);
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

/* Copy a program's status out under the lock; the caller copies to user. */
static void ncsync_status_fill_locked(struct ncsync_prog *prog,
				      struct ncsync_prog_status *ps,
				      struct ncsync_snapshot *tmp)
{
	lockdep_assert_held(&prog->core->prog_lock);
	ps->state = prog->group ? ncsync_group_state(prog->group) : prog->state;
	ps->nengines = prog->nq;
	if (ncsync_prog_ended(prog) || prog->snapped)
		*tmp = *prog->snap;
	else
		ncsync_snapshot_fill_locked(prog, tmp);
	memcpy(ps->engines, tmp->engines, sizeof(ps->engines));
	ps->nsems = tmp->nsems;
}

/*
 * The program whose engines a status reports: @prog itself, or the member
 * of its group that @ps names; with a reference, or an ERR_PTR().
 */
static struct ncsync_prog *ncsync_status_target(struct ncsync_prog *prog,
						const struct ncsync_prog_status *ps)
{
	u32 pos = ps->core;
	struct ncsync_prog *m;

	if (!(ps->flags & NCSYNC_STATUS_F_CORE) && ps->core)
		return ERR_PTR(-EINVAL);
	if (!prog->group) {
		if (ps->flags & NCSYNC_STATUS_F_CORE &&
		    pos != prog->core->index - prog->core->lnc_first->index)
			return ERR_PTR(-EINVAL);
		kref_get(&prog->ref);
		return prog;
	}
	if (!(ps->flags & NCSYNC_STATUS_F_CORE))
		pos = prog->core->index - prog->core->lnc_first->index;
	m = ncsync_group_member_get(prog->group, pos);
	return m ?: ERR_PTR(-EINVAL);
}

/*
 * Fill @ps and @tmp for NCSYNC_IOC_PROG_STATUS, under the lock of the core
 * whose engines it reports; -EBUSY to release a program that runs,
 * -EINVAL for a core it does not name.
 */
static int ncsync_status_report(struct ncsync_prog *prog,
				struct ncsync_prog_status *ps,
				struct ncsync_snapshot *tmp)
{
	struct ncsync_prog *m = ncsync_status_target(prog, ps);

	if (IS_ERR(m))
		return PTR_ERR(m);
	if (ps->flags & NCSYNC_STATUS_F_RELEASE && !ncsync_prog_over(prog)) {
		ncsync_prog_put(m);
		return -EBUSY;
	}
	spin_lock(&m->core->prog_lock);
	ncsync_status_fill_locked(m, ps, tmp);
	spin_unlock(&m->core->prog_lock);
	ncsync_prog_put(m);
	return 0;
}

/**
 * ncsync_prog_status() - report a program's state.
 * @nfile: the descriptor that submitted it.
 * @ps: the request and the reply.
 *
 * Return: 0; -EINVAL for unknown flags, a non-zero @ps->core without
 * NCSYNC_STATUS_F_CORE or a core the program does not name; -ENOENT for an
 * unknown or released id; -EBUSY to release a program that has not ended;
 * -EFAULT when @ps->sems cannot be written.
 */
int ncsync_prog_status(struct ncsync_file *nfile,
		       struct ncsync_prog_status *ps)
{
	struct ncsync_core *core = nfile->core;
	void __user *usems = u64_to_user_ptr(ps->sems);
	struct ncsync_snapshot *tmp;
	struct ncsync_prog *prog;
	bool release;
	int ret = 0;

	if (ps->flags & ~NCSYNC_STATUS_F_ALL)
		return -EINVAL;
	prog = ncsync_prog_get(nfile, ps->id);
	if (!prog)
		return -ENOENT;
	tmp = ncsync_snap_alloc();
	if (!tmp) {
		ret = -ENOMEM;
		goto out;
	}
	ret = ncsync_status_report(prog, ps, tmp);
	if (ret)
		goto out;
	release = ps->flags & NCSYNC_STATUS_F_RELEASE;

	if (usems && copy_to_user(usems, tmp->sems,
				  ps->nsems * sizeof(tmp->sems[0]))) {
		ret = -EFAULT;
		goto out;
	}
	if (!usems)
		ps->nsems = 0;

	spin_lock(&core->prog_lock);
	if (ncsync_prog_over(prog))
		prog->seen = true;
	if (release && !list_empty(&prog->file_node)) {
		ncsync_file_forget_locked(nfile, prog);
		spin_unlock(&core->prog_lock);
		ncsync_prog_put_forgotten(prog); /* the descriptor's reference */
	} else {
		spin_unlock(&core->prog_lock);
	}
out:
	ncsync_snap_free(tmp);
	ncsync_prog_put(prog);
	return ret;
}

/**
 * struct ncsync_prog_waiter - the state of one NCSYNC_IOC_PROG_WAIT.
 * @prog: the program.
 * @state: out: its final state.
 */
struct ncsync_prog_waiter {
	struct ncsync_prog *prog;
	u32 state;
};

static int ncsync_prog_wait_cond(void *arg)
{
	struct ncsync_prog_waiter *pw = arg;
	struct ncsync_core *core = pw->prog->core;
	int ret = 0;

	spin_lock(&core->prog_lock);
	if (ncsync_prog_over(pw->prog)) {
		pw->state = pw->prog->group ?
			    ncsync_group_state(pw->prog->group) :
			    pw->prog->state;
		pw->prog->seen = true;
		ret = 1;
	}
	spin_unlock(&core->prog_lock);
	return ret;
}

/**
 * ncsync_prog_wait() - wait for a program to end.
 * @nfile: the descriptor that submitted it.
 * @pw: the request; @pw->state is set on success.
 *
 * Return: 0; -EINVAL for bad flags, reserved or deadline; -ENOENT for an
 * unknown id; -ETIMEDOUT, -ERESTARTSYS or -EBADF from ncsync_sleep().
 */
int ncsync_prog_wait(struct ncsync_file *nfile, struct ncsync_prog_wait *pw)
{
	struct ncsync_prog_waiter waiter = { };
	ktime_t deadline;
	int ret;

	if (pw->flags & ~NCSYNC_WAIT_F_ALL || pw->reserved)
		return -EINVAL;
	ret = ncsync_deadline_get(&pw->deadline, pw->flags, &deadline);
	if (ret)
		return ret;
	waiter.prog = ncsync_prog_get(nfile, pw->id);
	if (!waiter.prog)
		return -ENOENT;
	ret = ncsync_sleep(nfile, waiter.prog->group ?
			   &waiter.prog->group->done_wq : &nfile->core->done_wq,
			   NULL, waiter.prog, &deadline, ncsync_prog_wait_cond,
			   &waiter);
	if (!ret)
		pw->state = waiter.state;
	ncsync_prog_put(waiter.prog);
	return ret;
}

/**
 * ncsync_prog_cancel() - stop a program; it ends as cancelled.
 * @nfile: the descriptor that submitted it.
 * @id: the program.
 *
 * Cancelling a program that has ended does nothing.
 *
 * Return: 0 or -ENOENT.
 */
int ncsync_prog_cancel(struct ncsync_file *nfile, u32 id)
{
	struct ncsync_core *core = nfile->core;
	struct ncsync_prog *prog = ncsync_prog_get(nfile, id);
	bool stopped;

	if (!prog)
		return -ENOENT;
	spin_lock(&core->prog_lock);
	stopped = ncsync_prog_stop_locked(prog, NCSYNC_FAULT_CANCELLED);
	spin_unlock(&core->prog_lock);
	if (stopped)
		ncsync_progs_wake(core, prog->engine_mask);
	ncsync_prog_put(prog);
	return 0;
}

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
	list_for_each_entry(prog, &core->progs, core_node)
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
	    m->state == NCSYNC_PROG_RUNNING) {
		ncsync_snapshot_locked(m);
		m->snapped = true;
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
	list_for_each_entry(p, &core->gmembers, gnode) {
		if (nfile && p->nfile != nfile)
			continue;
		g = p->group;
		spin_lock(&g->lock);
		for (i = 0; g->stop && i < g->n && !m; i++) {
			if (i == p->gidx || !g->members[i] || g->mstate[i])
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
		struct ncsync_group *g = m->group;

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
	list_for_each_entry_safe(prog, tmp, &core->progs, core_node)
		if ((!nfile || prog->nfile == nfile) &&
		    ncsync_prog_stop_locked(prog, reason))
			mask |= prog->engine_mask;
	/* Programs across cores whose member here ended stop too. */
	list_for_each_entry(prog, &core->gmembers, gnode)
		if (!nfile || prog->nfile == nfile)
			ncsync_group_stop(prog->group, prog->gidx, reason);
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
	struct ncsync_prog *prog, *tmp;
	LIST_HEAD(gone);

	ncsync_progs_stop(core, NCSYNC_FAULT_CLOSED, nfile);
	spin_lock(&core->prog_lock);
	list_splice_init(&nfile->progs, &gone);
	nfile->nprogs = 0;
	spin_unlock(&core->prog_lock);
	list_for_each_entry_safe(prog, tmp, &gone, file_node) {
		list_del_init(&prog->file_node);
		ncsync_prog_put_forgotten(prog);
	}
}

/**
 * ncsync_file_progs_unseen() - whether a descriptor has a program whose end
 *	was not reported yet.
 * @nfile: the descriptor.
 *
 * Return: true if so.
 */
bool ncsync_file_progs_unseen(struct ncsync_file *nfile)
{
	struct ncsync_core *core = nfile->core;
	struct ncsync_prog *prog;
	bool unseen = false;

	spin_lock(&core->prog_lock);
	list_for_each_entry(prog, &nfile->progs, file_node)
		if (ncsync_prog_over(prog) && !prog->seen)
			unseen = true;
	spin_unlock(&core->prog_lock);
	return unseen;
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
		prog->group ? " (a member of a program across cores)" : "");
	for (i = 0; i < prog->nq; i++)
		ncsync_snapshot_log_engine(&prog->snap->engines[i]);
	ncsync_snapshot_log_sems(prog->snap);
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
	list_for_each_entry(prog, &core->progs, core_node) {
		unsigned long limit = READ_ONCE(*ncsync_prog_progress_ptr(prog)) +
				      msecs_to_jiffies(prog->watchdog_ms);

		if (prog->state != NCSYNC_PROG_RUNNING || prog->stop ||
		    !time_after(jiffies, limit) || nfired == ARRAY_SIZE(fired))
			continue;
		ncsync_snapshot_locked(prog);
		prog->snapped = true;
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

/* ---- the state of programs across cores (ncsync_group.c submits them) */

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
	struct ncsync_group *g = prog->group;
	unsigned int i;

	lockdep_assert_held(&prog->core->prog_lock);
	if (!prog->gready) {
		prog->gready = true;
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
	struct ncsync_group *g = prog->group;

	lockdep_assert_held(&prog->core->prog_lock);
	spin_lock(&g->lock);
	g->mstate[prog->gidx] = prog->state;
	if (!--g->nlive) {
		g->state = ncsync_group_final_locked(g);
		/* @state before @ended: ncsync_group_ended()'s acquire. */
		smp_store_release(&g->ended, true);
		if (prog->gidx) {
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

/**
 * ncsync_group_forget() - drop the group's references to its members.
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
		if (m)
			ncsync_prog_put(m);
	}
}
