// SPDX-License-Identifier: GPL-2.0
/*
 * ncsync(1): the generic netlink family "ncsync" through libnl-genl-3
 * (uapi/linux/ncsync.h): a core's state (NCSYNC_CMD_GET_CORE, and the
 * NCSYNC_CMD_GET_PROGRAMS dump when not every program fit its reply),
 * event notifications on or off (NCSYNC_CMD_SET_NOTIFY) and the
 * notifications of the multicast group "notify".
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <netlink/netlink.h>

#include "nl.h"

void nl_ctx_close(struct nl_ctx *nl)
{
	if (nl->sock)
		nl_socket_free(nl->sock);
	nl->sock = NULL;
}

int nl_ctx_open(struct nl_ctx *nl)
{
	int ret;

	memset(nl, 0, sizeof(*nl));
	nl->sock = nl_socket_alloc();
	if (!nl->sock)
		return fail_err(ENOMEM, "netlink socket");
	ret = genl_connect(nl->sock);
	if (ret < 0) {
		nl_ctx_close(nl);
		return fail_msg("netlink: connect: %s", nl_geterror(ret));
	}
	nl->family = genl_ctrl_resolve(nl->sock, NCSYNC_GENL_NAME);
	if (nl->family < 0) {
		ret = nl->family;
		nl_ctx_close(nl);
		if (ret == -NLE_OBJ_NOTFOUND)
			return fail_msg("netlink: family %s: %s (module not loaded: ncsync load)",
					NCSYNC_GENL_NAME, strerror(ENOENT));
		return fail_msg("netlink: family %s: %s", NCSYNC_GENL_NAME,
				nl_geterror(ret));
	}
	return 0;
}

static int nl_err_cb(struct sockaddr_nl *nla, struct nlmsgerr *e, void *arg)
{
	struct nl_ctx *nl = arg;

	nl->err = e->error < 0 ? -e->error : e->error;
	nl->done = true;
	return NL_STOP;
}

/*
 * The ack of a request, or the NLMSG_DONE of a dump, which carries the
 * error that ended the dump early, if one did: the answer is whole.
 */
static int nl_done_cb(struct nl_msg *msg, void *arg)
{
	struct nlmsghdr *nlh = nlmsg_hdr(msg);
	struct nl_ctx *nl = arg;
	int err;

	if (nlh->nlmsg_type == NLMSG_DONE &&
	    nlmsg_datalen(nlh) >= (int)sizeof(err)) {
		memcpy(&err, nlmsg_data(nlh), sizeof(err));
		if (err < 0)
			nl->err = -err;
	}
	nl->done = true;
	return NL_STOP;
}

int nl_request(struct nl_ctx *nl, struct nl_msg *msg,
	       nl_recvmsg_msg_cb_t cb, void *arg, const char **why)
{
	struct nl_cb *cbs = nl_cb_alloc(NL_CB_DEFAULT);
	int ret;

	*why = NULL;
	if (!cbs) {
		nlmsg_free(msg);
		return -ENOMEM;
	}
	nl_cb_err(cbs, NL_CB_CUSTOM, nl_err_cb, nl);
	nl_cb_set(cbs, NL_CB_ACK, NL_CB_CUSTOM, nl_done_cb, nl);
	nl_cb_set(cbs, NL_CB_FINISH, NL_CB_CUSTOM, nl_done_cb, nl);
	if (cb)
		nl_cb_set(cbs, NL_CB_VALID, NL_CB_CUSTOM, cb, arg);
	nl->err = 0;
	nl->done = false;
	ret = nl_send_auto(nl->sock, msg);
	nlmsg_free(msg);
	/* Each nl_recvmsgs() reads a reply, or a dump's datagrams, or the end. */
	while (ret >= 0 && !nl->done)
		ret = nl_recvmsgs(nl->sock, cbs);
	nl_cb_put(cbs);
	if (nl->err)
		return -nl->err;
	if (ret < 0) {
		*why = nl_geterror(ret);
		return -EIO;
	}
	return 0;
}

struct nl_msg *nl_new(struct nl_ctx *nl, uint8_t cmd, int flags)
{
	struct nl_msg *msg = nlmsg_alloc();

	if (!msg)
		return NULL;
	if (!genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, nl->family, 0, flags,
			 cmd, NCSYNC_GENL_VERSION)) {
		nlmsg_free(msg);
		return NULL;
	}
	return msg;
}

static void parse_engine(struct nlattr *nest, struct nl_engine *e)
{
	struct nlattr *tb[NCSYNC_A_MAX + 1];

	memset(e, 0, sizeof(*e));
	if (nla_parse_nested(tb, NCSYNC_A_MAX, nest, NULL) < 0)
		return;
	if (tb[NCSYNC_A_ENG_ID])
		e->id = nla_get_u8(tb[NCSYNC_A_ENG_ID]);
	if (tb[NCSYNC_A_ENG_STATE])
		e->state = nla_get_u8(tb[NCSYNC_A_ENG_STATE]);
	if (tb[NCSYNC_A_ENG_FAULT])
		e->fault = nla_get_u8(tb[NCSYNC_A_ENG_FAULT]);
	if (tb[NCSYNC_A_ENG_PC])
		e->pc = nla_get_u32(tb[NCSYNC_A_ENG_PC]);
	if (tb[NCSYNC_A_ENG_WAIT_KIND]) {
		e->blocked = true;
		e->wait_kind = nla_get_u8(tb[NCSYNC_A_ENG_WAIT_KIND]);
	}
	if (tb[NCSYNC_A_ENG_WAIT_MODE])
		e->wait_mode = nla_get_u8(tb[NCSYNC_A_ENG_WAIT_MODE]);
	if (tb[NCSYNC_A_ENG_WAIT_INDEX])
		e->wait_index = nla_get_u8(tb[NCSYNC_A_ENG_WAIT_INDEX]);
	if (tb[NCSYNC_A_ENG_WAIT_THRESHOLD])
		e->wait_threshold =
			(int32_t)nla_get_u32(tb[NCSYNC_A_ENG_WAIT_THRESHOLD]);
	if (tb[NCSYNC_A_ENG_WAIT_CURRENT])
		e->wait_current =
			(int32_t)nla_get_u32(tb[NCSYNC_A_ENG_WAIT_CURRENT]);
}

void nl_parse_prog(struct nlattr *nest, struct nl_prog *p)
{
	struct nlattr *a;
	int rem;

	memset(p, 0, sizeof(*p));
	nla_for_each_nested(a, nest, rem) {
		switch (nla_type(a)) {
		case NCSYNC_A_PROG_ID:
			p->id = nla_get_u32(a);
			break;
		case NCSYNC_A_PROG_STATE:
			p->state = nla_get_u32(a);
			break;
		case NCSYNC_A_PROG_PID:
			p->pid = nla_get_u32(a);
			break;
		case NCSYNC_A_ENGINE:
			if (p->nengines < NCSYNC_NUM_ENGINES)
				parse_engine(a, &p->engines[p->nengines++]);
			break;
		}
	}
}

void nl_core_release(struct nl_core *c)
{
	free(c->progs);
	c->progs = NULL;
	c->nprogs = 0;
	c->progs_cap = 0;
}

/* Append the program of @nest to @c; mark @c truncated if out of memory. */
static void core_add_prog(struct nl_core *c, struct nlattr *nest)
{
	if (c->nprogs == c->progs_cap) {
		unsigned int cap = c->progs_cap ? 2 * c->progs_cap : 64;
		struct nl_prog *p = realloc(c->progs, cap * sizeof(*p));

		if (!p) {
			c->progs_truncated = true;
			return;
		}
		c->progs = p;
		c->progs_cap = cap;
	}
	nl_parse_prog(nest, &c->progs[c->nprogs++]);
}

static int get_core_cb(struct nl_msg *msg, void *arg)
{
	struct genlmsghdr *gh = nlmsg_data(nlmsg_hdr(msg));
	struct nl_core *c = arg;
	struct nlattr *a;
	int rem;

	nla_for_each_attr(a, genlmsg_attrdata(gh, 0), genlmsg_attrlen(gh, 0),
			  rem) {
		switch (nla_type(a)) {
		case NCSYNC_A_CORE:
			c->core = nla_get_u32(a);
			break;
		case NCSYNC_A_NOTIFY:
			c->notify = nla_get_u8(a);
			break;
		case NCSYNC_A_SEQ:
			c->seq = nla_get_u64(a);
			break;
		case NCSYNC_A_DROPS:
			c->drops = nla_get_u64(a);
			break;
		case NCSYNC_A_SEMS:
			if (nla_len(a) == sizeof(c->sems))
				memcpy(c->sems, nla_data(a), sizeof(c->sems));
			break;
		case NCSYNC_A_EVENTS:
			if (nla_len(a) == sizeof(c->events))
				memcpy(c->events, nla_data(a),
				       sizeof(c->events));
			break;
		case NCSYNC_A_PROG:
			core_add_prog(c, a);
			break;
		case NCSYNC_A_TRUNCATED:
			c->progs_truncated = true;
			break;
		}
	}
	return NL_OK;
}

/* A message of the GET_PROGRAMS dump: one program. */
static int get_progs_cb(struct nl_msg *msg, void *arg)
{
	struct genlmsghdr *gh = nlmsg_data(nlmsg_hdr(msg));
	struct nl_core *c = arg;
	struct nlattr *a;
	int rem;

	if (gh->cmd != NCSYNC_CMD_GET_PROGRAMS)
		return NL_OK;
	nla_for_each_attr(a, genlmsg_attrdata(gh, 0), genlmsg_attrlen(gh, 0),
			  rem)
		if (nla_type(a) == NCSYNC_A_PROG)
			core_add_prog(c, a);
	return NL_OK;
}

/*
 * GET_CORE left programs out: list them all with the GET_PROGRAMS dump,
 * which replaces the programs of *@c.  If the dump fails, *@c keeps those
 * of GET_CORE, still marked truncated: silently for a module without the
 * dump (EOPNOTSUPP), with a message otherwise.
 */
static void nl_get_progs_on(struct nl_ctx *nl, unsigned int core,
			    struct nl_core *c)
{
	struct nl_msg *msg = nl_new(nl, NCSYNC_CMD_GET_PROGRAMS, NLM_F_DUMP);
	struct nl_core all = { 0 };
	const char *why;
	int ret;

	if (!msg || nla_put_u32(msg, NCSYNC_A_CORE, core) < 0) {
		nlmsg_free(msg);
		fail_err(ENOMEM, "netlink: programs of core %u", core);
		return;
	}
	ret = nl_request(nl, msg, get_progs_cb, &all, &why);
	if (ret) {
		nl_core_release(&all);
		if (ret == -EIO && why)
			fail_msg("netlink: programs of core %u: %s", core, why);
		else if (ret != -EOPNOTSUPP)
			fail_err(ret, "netlink: programs of core %u", core);
		return;
	}
	nl_core_release(c);
	c->progs = all.progs;
	c->nprogs = all.nprogs;
	c->progs_cap = all.progs_cap;
	c->progs_truncated = all.progs_truncated;
}

int nl_get_core_on(struct nl_ctx *nl, unsigned int core,
		   struct nl_core *out)
{
	struct nl_msg *msg = nl_new(nl, NCSYNC_CMD_GET_CORE, 0);
	const char *why;
	int ret;

	memset(out, 0, sizeof(*out));
	if (!msg || nla_put_u32(msg, NCSYNC_A_CORE, core) < 0) {
		nlmsg_free(msg);
		return fail_err(ENOMEM, "netlink: get core %u", core);
	}
	ret = nl_request(nl, msg, get_core_cb, out, &why);
	if (ret) {
		nl_core_release(out);
		if (ret == -EIO && why)
			return fail_msg("netlink: get core %u: %s", core, why);
		return fail_err(ret, "netlink: get core %u", core);
	}
	if (out->progs_truncated)
		nl_get_progs_on(nl, core, out);
	return 0;
}

int nl_get_core(unsigned int core, struct nl_core *out, bool quiet)
{
	struct nl_ctx nl;
	int ret, saved = -1;

	/* Quiet: stderr goes nowhere for the duration. */
	if (quiet) {
		fflush(stderr);
		saved = dup(STDERR_FILENO);
		if (saved >= 0) {
			int null = open("/dev/null", O_WRONLY | O_CLOEXEC);

			if (null >= 0) {
				dup2(null, STDERR_FILENO);
				close(null);
			}
		}
	}
	ret = nl_ctx_open(&nl);
	if (!ret) {
		ret = nl_get_core_on(&nl, core, out);
		nl_ctx_close(&nl);
	}
	if (saved >= 0) {
		fflush(stderr);
		dup2(saved, STDERR_FILENO);
		close(saved);
	}
	return ret;
}
