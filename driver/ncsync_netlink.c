// SPDX-License-Identifier: GPL-2.0
/*
 * ncsync: the generic netlink family "ncsync" (Documentation/netlink/
 * ncsync.yaml): a core's state on request, a dump of its programs, and
 * multicast notifications of event writes (while enabled on the core,
 * modelling notific_ctrl.notifications_en, BARRIER 3), program ends, faults
 * and watchdogs.
 *
 * Whoever writes an event or ends a program never blocks on netlink: it
 * queues a small record (events: a per-core FIFO; programs: a list) and
 * kicks a work item, which builds and sends the messages.  A record that
 * does not fit, or a message that cannot be sent, is dropped and counted
 * (NCSYNC_IOC_STATS notify_drops, NCSYNC_A_DROPS).
 */
#include <linux/kfifo.h>
#include <linux/slab.h>
#include <net/genetlink.h>

#include "ncsync_compat.h"
#include "ncsync_drv.h"

static struct genl_family ncsync_genl_family;

/* The cores, given at registration; they outlive the family. */
static struct ncsync_core *ncsync_nl_cores;
static unsigned int ncsync_nl_ncores;

static struct ncsync_core *ncsync_core_by_index(u32 index)
{
	return index < ncsync_nl_ncores ? &ncsync_nl_cores[index] : NULL;
}

/*
 * The family is registered: notifications may be queued and sent.  Set
 * after registration; cleared, and every core's work flushed, before
 * unregistration.
 */
static bool ncsync_nl_ready;

enum ncsync_mcgrp {
	NCSYNC_MCGRP_NOTIFY,
};

static bool ncsync_nl_listening(void)
{
	return READ_ONCE(ncsync_nl_ready) &&
	       genl_has_listeners(&ncsync_genl_family, &init_net,
				  NCSYNC_MCGRP_NOTIFY);
}

static void ncsync_nl_drop(struct ncsync_core *core)
{
	spin_lock(&core->lock);
	core->stats.notify_drops++;
	spin_unlock(&core->lock);
}

/*
 * Note an event write for the notify group: ncsync_core.ntf_event, which
 * the banks call under the core lock while notifications are enabled.
 */
static void ncsync_nl_event_locked(struct ncsync_core *core,
				   unsigned int index, bool state)
{
	struct ncsync_event_ntf ntf = {
		.index = index, .state = state,
		.seq = atomic64_read(&core->seq),
	};

	lockdep_assert_held(&core->lock);
	if (!READ_ONCE(core->notify) || !ncsync_nl_listening())
		return;
	if (!kfifo_put(&core->ntf_fifo, ntf)) {
		core->stats.notify_drops++;
		return;
	}
	queue_work(system_wq, &core->ntf_work);
}

/*
 * Queue the notification of a program's end: ncsync_core.ntf_prog_ended,
 * which the programs call when one ends; prog_lock may be held.
 */
static void ncsync_nl_prog_ended(struct ncsync_prog *prog)
{
	struct ncsync_core *core = prog->core;

	if (!ncsync_nl_listening())
		return;
	kref_get(&prog->ref);
	spin_lock(&core->ntf_lock);
	list_add_tail(&prog->lists.ntf_node, &core->ntf_progs);
	spin_unlock(&core->ntf_lock);
	queue_work(system_wq, &core->ntf_work);
}

static int ncsync_nl_put_engine(struct sk_buff *skb,
				const struct ncsync_engine_status *st)
{
	struct nlattr *nest = nla_nest_start(skb, NCSYNC_A_ENGINE);

	if (!nest ||
	    nla_put_u8(skb, NCSYNC_A_ENG_ID, st->engine) ||
	    nla_put_u8(skb, NCSYNC_A_ENG_STATE, st->state) ||
	    nla_put_u8(skb, NCSYNC_A_ENG_FAULT, st->fault) ||
	    nla_put_u32(skb, NCSYNC_A_ENG_PC, st->pc))
		return -EMSGSIZE;
	if (st->state == NCSYNC_ENG_BLOCKED &&
	    (nla_put_u8(skb, NCSYNC_A_ENG_WAIT_KIND, st->wait_kind) ||
	     nla_put_u8(skb, NCSYNC_A_ENG_WAIT_MODE, st->wait_mode) ||
	     nla_put_u8(skb, NCSYNC_A_ENG_WAIT_INDEX, st->wait_index) ||
	     nla_put_s32(skb, NCSYNC_A_ENG_WAIT_THRESHOLD,
			 st->wait_threshold) ||
	     nla_put_s32(skb, NCSYNC_A_ENG_WAIT_CURRENT, st->wait_current)))
		return -EMSGSIZE;
	nla_nest_end(skb, nest);
	return 0;
}

static int ncsync_nl_put_prog(struct sk_buff *skb, u32 id, u32 state,
			      u32 pid, const struct ncsync_engine_status *st,
			      unsigned int nq)
{
	struct nlattr *nest = nla_nest_start(skb, NCSYNC_A_PROG);
	unsigned int i;

	if (!nest ||
	    nla_put_u32(skb, NCSYNC_A_PROG_ID, id) ||
	    nla_put_u32(skb, NCSYNC_A_PROG_STATE, state) ||
	    nla_put_u32(skb, NCSYNC_A_PROG_PID, pid))
		return -EMSGSIZE;
	for (i = 0; i < nq; i++)
		if (ncsync_nl_put_engine(skb, &st[i]))
			return -EMSGSIZE;
	nla_nest_end(skb, nest);
	return 0;
}

/**
 * ncsync_nl_put_live_prog_locked() - put a program that is on the core, its
 *	engines as they are now.
 * @skb: the message.
 * @prog: the program; its core's prog_lock held.
 *
 * Return: 0, or -EMSGSIZE with the nest left partly written (the caller
 * trims the message).
 */
static int ncsync_nl_put_live_prog_locked(struct sk_buff *skb,
					  struct ncsync_prog *prog)
{
	struct ncsync_engine_status st[NCSYNC_NUM_ENGINES];
	unsigned int i;

	lockdep_assert_held(&prog->core->prog_lock);
	for (i = 0; i < prog->nq; i++)
		ncsync_status_read_locked(&prog->q[i], &st[i]);
	return ncsync_nl_put_prog(skb, prog->id, prog->run.state, prog->pid, st,
				  prog->nq);
}

/* Build and multicast one notification; count it as dropped on failure. */
static void ncsync_nl_send(struct ncsync_core *core, struct sk_buff *skb)
{
	int ret;

	if (!READ_ONCE(ncsync_nl_ready)) {
		nlmsg_free(skb);
		return;
	}
	ret = genlmsg_multicast(&ncsync_genl_family, skb, 0,
				NCSYNC_MCGRP_NOTIFY, GFP_KERNEL);
	if (ret && ret != -ESRCH)
		ncsync_nl_drop(core);
}

static void ncsync_nl_send_event(struct ncsync_core *core,
				 const struct ncsync_event_ntf *ntf)
{
	struct sk_buff *skb;
	void *hdr;

	skb = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!skb)
		goto drop;
	hdr = genlmsg_put(skb, 0, 0, &ncsync_genl_family, 0,
			  NCSYNC_CMD_EVENT_NTF);
	if (!hdr ||
	    nla_put_u32(skb, NCSYNC_A_CORE, core->index) ||
	    nla_put_u32(skb, NCSYNC_A_EVENT, ntf->index) ||
	    nla_put_u8(skb, NCSYNC_A_EVENT_STATE, ntf->state) ||
	    nla_put_u64_64bit(skb, NCSYNC_A_SEQ, ntf->seq, NCSYNC_A_PAD)) {
		nlmsg_free(skb);
		goto drop;
	}
	genlmsg_end(skb, hdr);
	ncsync_nl_send(core, skb);
	return;
drop:
	ncsync_nl_drop(core);
}

static void ncsync_nl_send_prog(struct ncsync_core *core,
				struct ncsync_prog *prog)
{
	const struct ncsync_snapshot *snap = prog->snap;
	bool fault = prog->run.state == NCSYNC_PROG_FAULTED ||
		     prog->run.state == NCSYNC_PROG_TIMED_OUT;
	struct nlattr *sems;
	struct sk_buff *skb;
	unsigned int i;
	void *hdr;

	skb = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!skb)
		goto drop;
	hdr = genlmsg_put(skb, 0, 0, &ncsync_genl_family, 0,
			  fault ? NCSYNC_CMD_FAULT_NTF : NCSYNC_CMD_PROG_NTF);
	if (!hdr || nla_put_u32(skb, NCSYNC_A_CORE, core->index) ||
	    ncsync_nl_put_prog(skb, prog->id, prog->run.state, prog->pid,
			       snap->engines, prog->nq))
		goto free;
	if (fault) {
		/* The snapshot's semaphores, as the full bank. */
		sems = nla_reserve(skb, NCSYNC_A_SEMS,
				   NCSYNC_NUM_SEMS * sizeof(s32));
		if (!sems)
			goto free;
		memset(nla_data(sems), 0, NCSYNC_NUM_SEMS * sizeof(s32));
		for (i = 0; i < snap->nsems; i++)
			((s32 *)nla_data(sems))[snap->sems[i].index] =
				snap->sems[i].value;
	}
	genlmsg_end(skb, hdr);
	ncsync_nl_send(core, skb);
	return;
free:
	nlmsg_free(skb);
drop:
	ncsync_nl_drop(core);
}

static void ncsync_nl_work(struct work_struct *work)
{
	struct ncsync_core *core = container_of(work, struct ncsync_core,
						ntf_work);
	struct ncsync_event_ntf ntf;
	struct ncsync_prog *prog;

	while (kfifo_get(&core->ntf_fifo, &ntf))
		ncsync_nl_send_event(core, &ntf);

	for (;;) {
		spin_lock(&core->ntf_lock);
		prog = list_first_entry_or_null(&core->ntf_progs,
						struct ncsync_prog,
						lists.ntf_node);
		if (prog)
			list_del(&prog->lists.ntf_node);
		spin_unlock(&core->ntf_lock);
		if (!prog)
			break;
		ncsync_nl_send_prog(core, prog);
		ncsync_prog_put(prog);
	}
}

/**
 * ncsync_nl_core_init() - set up a core's notification queue.
 * @core: the core.
 */
void ncsync_nl_core_init(struct ncsync_core *core)
{
	INIT_KFIFO(core->ntf_fifo);
	spin_lock_init(&core->ntf_lock);
	INIT_LIST_HEAD(&core->ntf_progs);
	INIT_WORK(&core->ntf_work, ncsync_nl_work);
	core->ntf_event = ncsync_nl_event_locked;
	core->ntf_prog_ended = ncsync_nl_prog_ended;
}

/**
 * ncsync_nl_core_fini() - drop a core's pending notifications.
 * @core: the core; nothing writes its events or ends its programs any more.
 */
void ncsync_nl_core_fini(struct ncsync_core *core)
{
	struct ncsync_prog *prog, *tmp;

	cancel_work_sync(&core->ntf_work);
	kfifo_reset(&core->ntf_fifo);
	list_for_each_entry_safe(prog, tmp, &core->ntf_progs, lists.ntf_node) {
		list_del(&prog->lists.ntf_node);
		ncsync_prog_put(prog);
	}
}

/* Put a core's live state: banks and the programs on it. */
static int ncsync_nl_fill_core(struct sk_buff *skb, struct ncsync_core *core)
{
	struct nlattr *sems, *events;
	struct ncsync_prog *prog;
	bool truncated = false;
	unsigned int i;
	u8 *bits;
	s32 *vals;
	int ret = 0;

	sems = nla_reserve(skb, NCSYNC_A_SEMS, NCSYNC_NUM_SEMS * sizeof(s32));
	events = nla_reserve(skb, NCSYNC_A_EVENTS, NCSYNC_NUM_EVENTS / 8);
	if (!sems || !events ||
	    nla_put_u8(skb, NCSYNC_A_NOTIFY, READ_ONCE(core->notify)) ||
	    nla_put_u32(skb, NCSYNC_A_LNC, ncsync_lnc))
		return -EMSGSIZE;
	vals = nla_data(sems);
	bits = nla_data(events);
	memset(bits, 0, NCSYNC_NUM_EVENTS / 8);

	spin_lock(&core->lock);
	for (i = 0; i < NCSYNC_NUM_SEMS; i++)
		vals[i] = core->sems[i];
	for (i = 0; i < NCSYNC_NUM_EVENTS; i++)
		if (core->events[i])
			bits[i / 8] |= 1 << (i % 8);
	ret = nla_put_u64_64bit(skb, NCSYNC_A_SEQ,
				atomic64_read(&core->seq), NCSYNC_A_PAD) ||
	      nla_put_u64_64bit(skb, NCSYNC_A_DROPS, core->stats.notify_drops,
				NCSYNC_A_PAD);
	spin_unlock(&core->lock);
	if (ret)
		return -EMSGSIZE;

	spin_lock(&core->prog_lock);
	list_for_each_entry(prog, &core->progs, lists.core_node) {
		void *mark = nlmsg_get_pos(skb);

		/* Keep room for NCSYNC_A_TRUNCATED. */
		if (skb_tailroom(skb) < nla_total_size(0) + 64 ||
		    ncsync_nl_put_live_prog_locked(skb, prog)) {
			nlmsg_trim(skb, mark);
			truncated = true;
			break;
		}
	}
	spin_unlock(&core->prog_lock);
	if (truncated && nla_put_flag(skb, NCSYNC_A_TRUNCATED))
		return -EMSGSIZE;
	return 0;
}

static struct ncsync_core *ncsync_nl_core(struct genl_info *info)
{
	struct ncsync_core *core;

	if (GENL_REQ_ATTR_CHECK(info, NCSYNC_A_CORE))
		return ERR_PTR(-EINVAL);
	core = ncsync_core_by_index(nla_get_u32(info->attrs[NCSYNC_A_CORE]));
	if (!core) {
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[NCSYNC_A_CORE],
				    "no such core");
		return ERR_PTR(-ENODEV);
	}
	return core;
}

/*
 * NCSYNC_CMD_GET_CORE: a core's banks, sequence, drops and programs (as
 * many as fit one message; NCSYNC_A_TRUNCATED says some did not, and
 * NCSYNC_CMD_GET_PROGRAMS lists them all).  Needs CAP_NET_ADMIN: it shows
 * every descriptor's programs, where a device node shows only one's own.
 * Errors: EPERM; EINVAL without NCSYNC_A_CORE; ENODEV for no such core;
 * ENOMEM; EMSGSIZE.
 */
static int ncsync_nl_get_core_doit(struct sk_buff *skb,
				   struct genl_info *info)
{
	struct ncsync_core *core = ncsync_nl_core(info);
	struct sk_buff *msg;
	void *hdr;
	int ret;

	if (IS_ERR(core))
		return PTR_ERR(core);
	msg = genlmsg_new(NLMSG_GOODSIZE * 2, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	hdr = genlmsg_put_reply(msg, info, &ncsync_genl_family, 0,
				info->genlhdr->cmd);
	if (!hdr || nla_put_u32(msg, NCSYNC_A_CORE, core->index)) {
		ret = -EMSGSIZE;
		goto err;
	}
	ret = ncsync_nl_fill_core(msg, core);
	if (ret)
		goto err;
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);
err:
	nlmsg_free(msg);
	return ret;
}

/**
 * struct ncsync_nl_dump_ctx - where a NCSYNC_CMD_GET_PROGRAMS dump stands,
 *	kept in netlink_callback.ctx from one call of the dump to the next.
 * @seq: the ncsync_prog.lists.seq of the last program sent; 0 before the
 *	first.
 * @core: the index of the core, checked when the dump started.
 *
 * The dump resumes at the first program of the core with a larger seq.
 * core->progs is in increasing seq order and a program never changes its
 * seq, so programs that end or are submitted between two calls move no
 * other: each program on the core from the start to the end of the dump
 * is sent exactly once, one that ends during the dump at most once, one
 * submitted during the dump once if it is still there when the dump
 * reaches the end of the list.
 */
struct ncsync_nl_dump_ctx {
	u64 seq;
	u32 core;
};

static struct ncsync_nl_dump_ctx *
ncsync_nl_dump_ctx(struct netlink_callback *cb)
{
	BUILD_BUG_ON(sizeof(struct ncsync_nl_dump_ctx) > sizeof(cb->ctx));
	return (struct ncsync_nl_dump_ctx *)cb->ctx;
}

static const struct nla_policy ncsync_get_core_policy[NCSYNC_A_CORE + 1] = {
	[NCSYNC_A_CORE] = { .type = NLA_U32 },
};

/*
 * NCSYNC_CMD_GET_PROGRAMS, start of the dump: which core.  Generic netlink
 * has validated the request against the policy already, but keeps the
 * attributes where 6.1 and later kernels differ (genl_dumpit_info()->attrs,
 * genl_info_dump()->attrs): they are parsed again here.  An error here is
 * the answer to the request, as for a do; 6.1 gives the start of a dump no
 * extended ack (cb->extack is NULL), later kernels do.
 * Errors: EPERM (from generic netlink, GENL_ADMIN_PERM); EINVAL without
 * NCSYNC_A_CORE; ENODEV for no such core.
 */
static int ncsync_nl_get_progs_start(struct netlink_callback *cb)
{
	struct ncsync_nl_dump_ctx *ctx = ncsync_nl_dump_ctx(cb);
	struct nlattr *tb[NCSYNC_A_CORE + 1];
	int ret;

	ret = nlmsg_parse(cb->nlh, GENL_HDRLEN, tb, NCSYNC_A_CORE,
			  ncsync_get_core_policy, cb->extack);
	if (ret)
		return ret;
	if (NL_REQ_ATTR_CHECK(cb->extack, NULL, tb, NCSYNC_A_CORE))
		return -EINVAL;
	ctx->core = nla_get_u32(tb[NCSYNC_A_CORE]);
	if (!ncsync_core_by_index(ctx->core)) {
		NL_SET_ERR_MSG_ATTR(cb->extack, tb[NCSYNC_A_CORE],
				    "no such core");
		return -ENODEV;
	}
	ctx->seq = 0;
	return 0;
}

/**
 * ncsync_nl_put_prog_msg_locked() - one message of a NCSYNC_CMD_GET_PROGRAMS
 *	dump: the core and one of its programs.
 * @skb: the dump's buffer.
 * @cb: the dump.
 * @prog: the program; its core's prog_lock held.
 *
 * Return: 0, or -EMSGSIZE with @skb as it was.
 */
static int ncsync_nl_put_prog_msg_locked(struct sk_buff *skb,
					 struct netlink_callback *cb,
					 struct ncsync_prog *prog)
{
	void *hdr;

	lockdep_assert_held(&prog->core->prog_lock);
	hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq,
			  &ncsync_genl_family, NLM_F_MULTI,
			  NCSYNC_CMD_GET_PROGRAMS);
	if (!hdr)
		return -EMSGSIZE;
	if (nla_put_u32(skb, NCSYNC_A_CORE, prog->core->index) ||
	    ncsync_nl_put_live_prog_locked(skb, prog)) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

/*
 * NCSYNC_CMD_GET_PROGRAMS: every program queued or running on a core, one
 * message each (NCSYNC_A_CORE and the NCSYNC_A_PROG nest of GET_CORE),
 * oldest first, as many messages in each call as fit; see struct
 * ncsync_nl_dump_ctx for where the next call resumes.  Needs CAP_NET_ADMIN,
 * as GET_CORE.  Each program is read under prog_lock, as GET_CORE does; the
 * lock is not held from one call to the next.
 * Errors (in NLMSG_DONE): EMSGSIZE if a program did not fit an empty
 * buffer (none is that large); ENODEV if the core went away (cores live as
 * long as the family).  The request's errors come from
 * ncsync_nl_get_progs_start().
 */
static int ncsync_nl_get_progs_dumpit(struct sk_buff *skb,
				      struct netlink_callback *cb)
{
	struct ncsync_nl_dump_ctx *ctx = ncsync_nl_dump_ctx(cb);
	struct ncsync_core *core = ncsync_core_by_index(ctx->core);
	struct ncsync_prog *prog;
	int ret = 0;

	if (!core)
		return -ENODEV;
	spin_lock(&core->prog_lock);
	list_for_each_entry(prog, &core->progs, lists.core_node) {
		if (prog->lists.seq <= ctx->seq)
			continue;
		ret = ncsync_nl_put_prog_msg_locked(skb, cb, prog);
		if (ret)
			break;
		ctx->seq = prog->lists.seq;
	}
	spin_unlock(&core->prog_lock);
	/* A full buffer ends this call; an empty one would end the dump. */
	if (ret && !skb->len)
		return ret;
	return skb->len;
}

/*
 * NCSYNC_CMD_SET_NOTIFY: turn a core's event notifications on or off.
 * Needs CAP_NET_ADMIN (GENL_ADMIN_PERM).
 * Errors: EPERM; EINVAL without NCSYNC_A_CORE or NCSYNC_A_NOTIFY; ENODEV.
 */
static int ncsync_nl_set_notify_doit(struct sk_buff *skb,
				     struct genl_info *info)
{
	struct ncsync_core *core = ncsync_nl_core(info);

	if (IS_ERR(core))
		return PTR_ERR(core);
	if (GENL_REQ_ATTR_CHECK(info, NCSYNC_A_NOTIFY))
		return -EINVAL;
	WRITE_ONCE(core->notify, nla_get_u8(info->attrs[NCSYNC_A_NOTIFY]));
	return 0;
}

static const struct nla_policy ncsync_set_notify_policy[NCSYNC_A_NOTIFY + 1] = {
	[NCSYNC_A_CORE] = { .type = NLA_U32 },
	[NCSYNC_A_NOTIFY] = NLA_POLICY_MAX(NLA_U8, 1),
};

static const struct genl_ops ncsync_genl_ops[] = {
	{
		.cmd = NCSYNC_CMD_GET_CORE,
		.doit = ncsync_nl_get_core_doit,
		.policy = ncsync_get_core_policy,
		.maxattr = NCSYNC_A_CORE,
		.flags = GENL_ADMIN_PERM,
	},
	{
		.cmd = NCSYNC_CMD_SET_NOTIFY,
		.doit = ncsync_nl_set_notify_doit,
		.policy = ncsync_set_notify_policy,
		.maxattr = NCSYNC_A_NOTIFY,
		.flags = GENL_ADMIN_PERM,
	},
	{
		.cmd = NCSYNC_CMD_GET_PROGRAMS,
		.start = ncsync_nl_get_progs_start,
		.dumpit = ncsync_nl_get_progs_dumpit,
		.policy = ncsync_get_core_policy,
		.maxattr = NCSYNC_A_CORE,
		.flags = GENL_ADMIN_PERM,
	},
};

static const struct genl_multicast_group ncsync_genl_mcgrps[] = {
	/* Joining needs CAP_NET_ADMIN, as GET_CORE does. */
	[NCSYNC_MCGRP_NOTIFY] = { .name = NCSYNC_GENL_MCGRP_NOTIFY,
				  .flags = NCSYNC_GENL_MCAST_ADMIN },
};

static struct genl_family ncsync_genl_family __ro_after_init = {
	.name = NCSYNC_GENL_NAME,
	.version = NCSYNC_GENL_VERSION,
	.maxattr = NCSYNC_A_MAX,
	.netnsok = false,
	.module = THIS_MODULE,
	.ops = ncsync_genl_ops,
	.n_ops = ARRAY_SIZE(ncsync_genl_ops),
	.resv_start_op = NCSYNC_CMD_FAULT_NTF + 1,
	.mcgrps = ncsync_genl_mcgrps,
	.n_mcgrps = ARRAY_SIZE(ncsync_genl_mcgrps),
};

/**
 * ncsync_nl_register() - register the generic netlink family.
 * @cores: the cores its commands name; they outlive the family.
 * @ncores: how many.
 *
 * Return: 0 or a negative errno.
 */
int ncsync_nl_register(struct ncsync_core *cores, unsigned int ncores)
{
	int ret;

	ncsync_nl_cores = cores;
	ncsync_nl_ncores = ncores;
	ret = genl_register_family(&ncsync_genl_family);

	if (!ret)
		WRITE_ONCE(ncsync_nl_ready, true);
	return ret;
}

/**
 * ncsync_nl_unregister() - unregister the generic netlink family.
 *
 * Called when nothing queues notifications any more; drops those pending.
 */
void ncsync_nl_unregister(void)
{
	struct ncsync_core *core;
	unsigned int i;

	WRITE_ONCE(ncsync_nl_ready, false);
	for (i = 0; (core = ncsync_core_by_index(i)); i++)
		ncsync_nl_core_fini(core);
	genl_unregister_family(&ncsync_genl_family);
}
