// SPDX-License-Identifier: GPL-2.0
/*
 * ncsync: submitting a program on one core: the request's checks, the
 * decoding and validation of its records, and its queueing on its
 * descriptor's and its core's lists.  Programs across cores
 * (ncsync_group.c) are made and queued with the functions here, one
 * member per core.
 */
#include <linux/overflow.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>

#include "ncsync_drv.h"
#include "ncsync_optab.h"

/* Records copied from userspace at a time while decoding. */
#define NCSYNC_DECODE_CHUNK	64

/*
 * Validate and decode the record @rec, record @index of @uq, into @insn;
 * with @conf (the conformance profile), check it against the profile too.
 */
static enum ncsync_rec_reason ncsync_rec_decode(struct ncsync_core *core,
						const u8 *rec, u32 index,
						const struct ncsync_queue *uq,
						struct ncsync_conform *conf,
						struct ncsync_insn *insn)
{
	enum ncsync_rec_reason r;

	r = ncsync_record_decode(rec, uq->count, core->devmem_size, insn);
	if (!r)
		r = ncsync_record_check_at(insn, index, uq->count);
	if (!r)
		r = ncsync_record_check_lnc(insn, ncsync_lnc);
	if (!r && conf)
		r = ncsync_record_conform(conf, insn);
	return r;
}

/* The core a decoded record's completion lands on, if another: a bit. */
static u64 ncsync_insn_lands(const struct ncsync_insn *insn)
{
	if (!ncsync_op_has(insn->opcode, NCSYNC_OPF_DMA) ||
	    !(insn->dma.flags & NCSYNC_DMA_F_PEER))
		return 0;
	return BIT_ULL(insn->dma.peer);
}

/*
 * Decode one queue, chunk by chunk, into q->insns; note in q->prog->lnc.lands
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
					      base + i, uq, conf,
					      &q->insns[base + i]);
			if (!r)
				q->prog->lnc.lands |=
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

/* The bytes of one queue's DMA ring: none without a DMA record. */
static size_t ncsync_queue_dma_mem(const struct ncsync_equeue *q)
{
	u32 i;

	for (i = 0; i < q->count; i++)
		if (ncsync_op_has(q->insns[i].opcode, NCSYNC_OPF_DMA))
			return array_size(ncsync_dma_depth,
					  sizeof(struct ncsync_dma_copy));
	return 0;
}

/* Decode the queues and give the ones with DMA records their rings. */
static int ncsync_prog_decode(struct ncsync_prog *prog,
			      const struct ncsync_queue *uqs,
			      struct ncsync_submit *sub)
{
	struct ncsync_conform *conf = NULL;
	size_t ring;
	u32 i;
	int ret = 0;

	if (sub->flags & NCSYNC_SUBMIT_F_CONFORM) {
		conf = kmalloc(sizeof(*conf), GFP_KERNEL_ACCOUNT);
		if (!conf)
			return -ENOMEM;
		ncsync_conform_init(conf);
	}
	for (i = 0; i < prog->nq; i++) {
		struct ncsync_equeue *q = &prog->q[i];

		q->prog = prog;
		q->engine = uqs[i].engine;
		q->count = uqs[i].count;
		q->st.engine = q->engine;
		q->st.state = NCSYNC_ENG_QUEUED;
		ret = ncsync_queue_decode(prog->core, q, &uqs[i], conf, sub);
		if (ret)
			break;
		if (conf)
			ncsync_conform_next_queue(conf);
		ring = ncsync_queue_dma_mem(q);
		if (!ring)
			continue;
		ret = ncsync_charge_more(prog, ncsync_kv_held(ring));
		if (ret)
			break;
		q->dma_slots = ncsync_kv_alloc(ring,
					       GFP_KERNEL_ACCOUNT | __GFP_ZERO);
		if (!q->dma_slots) {
			ret = -ENOMEM;
			break;
		}
	}
	kfree(conf);
	return ret;
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
	struct ncsync_charge charge;
	size_t mem, insn_mem;
	u32 i;
	int ret;

	/* Refuse what cannot fit before allocating or reading anything. */
	mem = ncsync_charge_prog_size(uqs, nq, &insn_mem);
	ret = ncsync_charge_begin(&charge, nfile, mem, insn_mem);
	if (ret)
		return ERR_PTR(ret);
	for (i = 0; i < nq; i++)
		counts[i] = uqs[i].count;
	prog = ncsync_prog_alloc(nq, counts);
	if (!prog) {
		ncsync_charge_end(&charge);
		return ERR_PTR(-ENOMEM);
	}
	prog->charge = charge;
	prog->core = nfile->core;
	prog->nfile = nfile;
	prog->flags = sub->flags;
	prog->watchdog_ms = sub->watchdog_ms ?: ncsync_watchdog_ms;
	prog->engine_mask = engine_mask;
	prog->pid = task_tgid_nr(current);
	prog->run.state = NCSYNC_PROG_QUEUED;
	prog->run.nrunning = nq;
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
	int ret;

	spin_lock(&core->prog_lock);
	ret = ncsync_charge_file_check_locked(prog);
	if (ret) {
		evict = ERR_PTR(ret);
		goto out;
	}
	evict = ncsync_file_evict_locked(nfile);
	if (IS_ERR(evict))
		goto out;
	prog->id = nfile->next_id++;
	if (!nfile->next_id)
		nfile->next_id = 1;
	ncsync_charge_file_add_locked(prog);
	nfile->nprogs++;
	list_add_tail(&prog->lists.file_node, &nfile->progs);
	/* core->progs stays in increasing seq order. */
	prog->lists.seq = ++core->prog_seq;
	list_add_tail(&prog->lists.core_node, &core->progs);
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
		prog->run.state = NCSYNC_PROG_CANCELLED;
		if (prog->lnc.group)
			ncsync_group_member_end_locked(prog);
		/* What ncsync_prog_end_locked() would give back. */
		list_del(&prog->lists.core_node);
		ncsync_charge_insns_end_locked(prog);
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
		return prog->lnc.lands & ~own ? -EACCES : 0;
	return ncsync_fds_lands_check(fds, prog) ?:
	       ncsync_fds_used_check(fds, prog->lnc.lands);
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
