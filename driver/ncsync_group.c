// SPDX-License-Identifier: GPL-2.0
/*
 * ncsync: programs across the cores of a logical core
 * (NCSYNC_SUBMIT_F_CORES, Documentation/ncsync/engines.rst, "Programs
 * across cores").
 *
 * Such a program runs as one member program per named core, each an
 * ordinary struct ncsync_prog of that core (its own queues, engines, bank
 * and watchdog, charged to the descriptor of that core), tied by a struct
 * ncsync_group.  No member starts before every member may start; the
 * first member to stop stops the others with the same reason, through the
 * group's work, so that no two cores' prog_locks are ever held together.
 *
 * This file submits such programs and runs the group's work, above the
 * other program files; ncsync_group_state.c keeps the group's state as its
 * members run.
 */
#include <linux/file.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/workqueue.h>

#include "ncsync_drv.h"

/*
 * Orders the queueing of the members of programs across cores: two such
 * programs queue on every core they share in the same order, so that
 * neither waits on one core for what waits for it on another.
 */
static DEFINE_MUTEX(ncsync_group_mutex);

/* Wake the primary's pollers: the program ended on another core. */
static void ncsync_group_poll_primary(struct ncsync_group *g)
{
	struct ncsync_prog *m;

	spin_lock(&g->lock);
	m = g->poll_pending ? g->members[0] : NULL;
	g->poll_pending = false;
	if (m)
		kref_get(&m->ref);
	spin_unlock(&g->lock);
	if (!m)
		return;
	spin_lock(&m->core->prog_lock);
	/* Its descriptor is still open. */
	if (!list_empty(&m->lists.file_node))
		wake_up_all(&m->nfile->poll_wq);
	spin_unlock(&m->core->prog_lock);
	ncsync_prog_put(m);
}

/* The group's work: stop the members, wake the primary's pollers. */
static void ncsync_group_work(struct work_struct *work)
{
	struct ncsync_group *g = container_of(work, struct ncsync_group, work);
	struct ncsync_prog *m;
	unsigned int i;
	int reason, origin;

	for (i = 0; i < g->n; i++) {
		spin_lock(&g->lock);
		m = g->members[i];
		reason = g->stop;
		origin = g->origin;
		if (m)
			kref_get(&m->ref);
		spin_unlock(&g->lock);
		if (!m)
			continue;
		if (reason && (int)i != origin)
			ncsync_group_stop_member(m, reason);
		ncsync_prog_put(m);
	}
	ncsync_group_poll_primary(g);
	ncsync_group_put(g);
}

/**
 * struct ncsync_cores_req - a submission across cores being checked.
 * @uqs: the queues, @pad[0] (the position) cleared once read.
 * @pos: each queue's position.
 * @nq: entries of @uqs and @pos.
 * @used: bit p set when a queue names position p.
 * @fds: the descriptors named: the submitter's, one of each other named
 *	core, and of the cores completions land on (ncsync_peer.c).
 */
struct ncsync_cores_req {
	struct ncsync_queue *uqs;
	u8 *pos;
	u32 nq;
	u64 used;
	struct ncsync_fds fds;
};

/* Read and check the queues: positions within the logical core, pads. */
static int ncsync_cores_queues(struct ncsync_cores_req *req,
			       struct ncsync_submit *sub)
{
	u32 i;

	req->nq = sub->nqueues;
	req->uqs = memdup_user(u64_to_user_ptr(sub->queues),
			       array_size(req->nq, sizeof(*req->uqs)));
	if (IS_ERR(req->uqs)) {
		int ret = PTR_ERR(req->uqs);

		req->uqs = NULL;
		return ret;
	}
	req->pos = kmalloc(req->nq, GFP_KERNEL);
	if (!req->pos)
		return -ENOMEM;
	for (i = 0; i < req->nq; i++) {
		struct ncsync_queue *uq = &req->uqs[i];

		if (uq->pad[1] || uq->pad[2] || uq->pad[0] >= ncsync_lnc)
			return -EINVAL;
		req->pos[i] = uq->pad[0];
		uq->pad[0] = 0;
		req->used |= BIT_ULL(req->pos[i]);
	}
	return req->used & BIT_ULL(req->fds.own) ? 0 : -EINVAL;
}

/* Whether every named core has its descriptor: -EINVAL if not. */
static int ncsync_cores_all_named(const struct ncsync_cores_req *req)
{
	return req->used & ~req->fds.named ? -EINVAL : 0;
}

/*
 * Whether the members' completions land only on cores with a descriptor
 * (-EACCES), and every descriptor is of a core the program runs or lands
 * on (-EINVAL).
 */
static int ncsync_cores_lands_check(const struct ncsync_cores_req *req,
				    struct ncsync_prog **members, u32 n)
{
	u64 used = req->used;
	u32 i;
	int ret;

	for (i = 0; i < n; i++) {
		ret = ncsync_fds_lands_check(&req->fds, members[i]);
		if (ret)
			return ret;
		used |= members[i]->lnc.lands;
	}
	return ncsync_fds_used_check(&req->fds, used);
}

static struct ncsync_group *ncsync_group_alloc(u32 n)
{
	struct ncsync_group *g = kzalloc(sizeof(*g), GFP_KERNEL_ACCOUNT);

	if (!g)
		return NULL;
	kref_init(&g->ref);
	spin_lock_init(&g->lock);
	g->n = n;
	g->nlive = n;
	g->origin = -1;
	atomic_set(&g->nready, 0);
	init_waitqueue_head(&g->done_wq);
	INIT_WORK(&g->work, ncsync_group_work);
	return g;
}

/*
 * Make the member of position @pos, index @gidx, decoding its queues; on a
 * refused record, name it in @sub with @pos.
 */
static struct ncsync_prog *ncsync_cores_member(struct ncsync_cores_req *req,
					       struct ncsync_submit *sub,
					       struct ncsync_group *g,
					       u32 pos, u32 gidx)
{
	struct ncsync_queue uqs[NCSYNC_NUM_ENGINES];
	struct ncsync_prog *m;
	u32 i, n = 0, engine_mask;
	u64 records;
	int ret;

	for (i = 0; i < req->nq; i++) {
		if (req->pos[i] != pos)
			continue;
		if (n == NCSYNC_NUM_ENGINES)
			return ERR_PTR(-EINVAL);	/* an engine twice */
		uqs[n++] = req->uqs[i];
	}
	ret = ncsync_queues_check(uqs, n, &engine_mask, &records);
	if (ret)
		return ERR_PTR(ret);
	m = ncsync_prog_make(req->fds.nfiles[pos], uqs, n, sub, engine_mask,
			     records);
	if (IS_ERR(m)) {
		if (sub->reason)
			sub->bad_core = pos;
		return m;
	}
	/* The group is charged with the submitter's member. */
	ret = gidx ? 0 : ncsync_charge_more(m, ncsync_kmalloc_held(sizeof(*g)));
	if (ret) {
		ncsync_prog_put(m);
		return ERR_PTR(ret);
	}
	kref_get(&g->ref);
	m->lnc.group = g;
	m->lnc.idx = gidx;
	/* Reported through the primary: never unseen on its own descriptor. */
	m->run.seen = gidx != 0;
	return m;
}

/* The members in order: the submitter's first, then by position. */
static int ncsync_cores_members(struct ncsync_cores_req *req,
				struct ncsync_submit *sub,
				struct ncsync_group *g,
				struct ncsync_prog **members)
{
	u32 pos, n = 0;

	members[n] = ncsync_cores_member(req, sub, g, req->fds.own, 0);
	if (IS_ERR(members[n]))
		return PTR_ERR(members[n]);
	n++;
	for (pos = 0; pos < ncsync_lnc; pos++) {
		if (pos == req->fds.own || !(req->used & BIT_ULL(pos)))
			continue;
		members[n] = ncsync_cores_member(req, sub, g, pos, n);
		if (IS_ERR(members[n]))
			return PTR_ERR(members[n]);
		n++;
	}
	return ncsync_cores_lands_check(req, members, n);
}

/* Publish a queued member: the group's reference, the core's list. */
static void ncsync_group_publish(struct ncsync_group *g,
				 struct ncsync_prog *m)
{
	kref_get(&m->ref);
	spin_lock(&m->core->prog_lock);
	list_add_tail(&m->lnc.node, &m->core->gmembers);
	spin_lock(&g->lock);
	g->members[m->lnc.idx] = m;
	spin_unlock(&g->lock);
	spin_unlock(&m->core->prog_lock);
}

/*
 * Queue every member, under ncsync_group_mutex; on a failure take the
 * queued ones off their lists again.  Programs evicted to make room are
 * put in @evicted (ended programs of the same descriptors).
 */
static int ncsync_group_queue(struct ncsync_group *g,
			      struct ncsync_prog **members,
			      struct ncsync_prog **evicted)
{
	struct ncsync_prog *evict;
	u32 i, j;

	mutex_lock(&ncsync_group_mutex);
	for (i = 0; i < g->n; i++) {
		evict = ncsync_prog_queue(members[i]);
		if (IS_ERR(evict))
			break;
		evicted[i] = evict;
		ncsync_group_publish(g, members[i]);
	}
	if (i < g->n) {
		for (j = 0; j < i; j++)
			ncsync_prog_unqueue(members[j]);
	}
	mutex_unlock(&ncsync_group_mutex);
	return i < g->n ? PTR_ERR(evict) : 0;
}

/* Queue the members, then start them: their engines look for work. */
static int ncsync_group_submit(struct ncsync_group *g,
			       struct ncsync_prog **members,
			       struct ncsync_submit *sub)
{
	struct ncsync_prog *evicted[NCSYNC_MAX_LNC] = { };
	bool stopped;
	u32 i;
	int ret;

	ret = ncsync_group_queue(g, members, evicted);
	for (i = 0; i < g->n; i++)
		if (evicted[i])
			ncsync_prog_put_forgotten(evicted[i]);
	if (ret) {
		ncsync_group_forget(g);
		return ret;
	}
	sub->id = members[0]->id;
	/* A stop before every member was published missed the later ones. */
	spin_lock(&g->lock);
	stopped = g->stop;
	spin_unlock(&g->lock);
	if (stopped)
		ncsync_group_kick(g);
	for (i = 0; i < g->n; i++) {
		ncsync_engines_kick(members[i]->core, members[i]->engine_mask);
		members[i] = NULL;	/* the descriptor's reference now */
	}
	return 0;
}

static void ncsync_cores_req_free(struct ncsync_cores_req *req)
{
	ncsync_fds_put(&req->fds);
	kfree(req->pos);
	kfree(req->uqs);
	kfree(req);
}

/* Check the request: flags, counts, queues, descriptors. */
static int ncsync_cores_prepare(struct ncsync_cores_req *req,
				struct ncsync_file *nfile,
				struct ncsync_submit *sub)
{
	int ret;

	ret = ncsync_submit_check(sub);
	if (ret)
		return ret;
	if (sub->nqueues > ncsync_lnc * NCSYNC_NUM_ENGINES ||
	    sub->nfds >= ncsync_lnc)
		return -EINVAL;
	req->fds.own = nfile->core->index - nfile->core->lnc_first->index;
	ret = ncsync_cores_queues(req, sub);
	if (!ret)
		ret = ncsync_fds_take(&req->fds, nfile, sub);
	return ret ?: ncsync_cores_all_named(req);
}

/**
 * ncsync_submit_cores() - validate a program across cores and queue it.
 * @nfile: the submitting descriptor, open for writing.
 * @sub: the request, with NCSYNC_SUBMIT_F_CORES; out fields as
 *	ncsync_submit(), and @sub->bad_core.
 *
 * Return: 0; -EINVAL for counts, a queue's position outside the logical
 * core or pads, an engine twice on a core, no queue on the submitter's
 * core, a descriptor not of ncsync, of the submitter's core, of a core no
 * queue names or given twice, a named core without a descriptor, or a
 * refused record; -EBADF for a descriptor that is not open; -EXDEV for
 * one of another logical core; -EACCES for one not open for writing;
 * -EFAULT, -ENOMEM or -EAGAIN as ncsync_submit().  Nothing is queued on
 * any error.
 */
int ncsync_submit_cores(struct ncsync_file *nfile, struct ncsync_submit *sub)
{
	struct ncsync_prog *members[NCSYNC_MAX_LNC] = { };
	struct ncsync_cores_req *req;
	struct ncsync_group *g = NULL;
	u32 i;
	int ret;

	req = kzalloc(sizeof(*req), GFP_KERNEL);
	if (!req)
		return -ENOMEM;
	ret = ncsync_cores_prepare(req, nfile, sub);
	if (ret)
		goto out;
	g = ncsync_group_alloc(hweight64(req->used));
	ret = -ENOMEM;
	if (!g)
		goto out;
	ret = ncsync_cores_members(req, sub, g, members);
	if (!ret)
		ret = ncsync_group_submit(g, members, sub);
out:
	for (i = 0; i < NCSYNC_MAX_LNC; i++)
		if (!IS_ERR_OR_NULL(members[i]))
			ncsync_prog_put(members[i]);
	if (g)
		ncsync_group_put(g);
	ncsync_cores_req_free(req);
	return ret;
}
