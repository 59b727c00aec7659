// SPDX-License-Identifier: GPL-2.0
/*
 * ncsync(1): the generic netlink family "ncsync" through libnl-genl-3
 * (uapi/linux/ncsync.h): a core's state (NCSYNC_CMD_GET_CORE, and the
 * NCSYNC_CMD_GET_PROGRAMS dump when not every program fit its reply),
 * event notifications on or off (NCSYNC_CMD_SET_NOTIFY) and the
 * notifications of the multicast group "notify".
 *
 *   ncsync notify [on|off]
 *   ncsync monitor [--count N] [--timeout MS] [--timestamp]
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <netlink/netlink.h>

#include "tool.h"

struct nl_ctx {
	struct nl_sock *sock;
	int family;
	int err;		/* errno of the kernel's error message */
	bool done;		/* the ack, the error or the end of a dump came */
};

static void ctx_close(struct nl_ctx *nl)
{
	if (nl->sock)
		nl_socket_free(nl->sock);
	nl->sock = NULL;
}

/* Connect and resolve the family; print the error.  0 or EXIT_FAIL. */
static int ctx_open(struct nl_ctx *nl)
{
	int ret;

	memset(nl, 0, sizeof(*nl));
	nl->sock = nl_socket_alloc();
	if (!nl->sock)
		return fail_err(ENOMEM, "netlink socket");
	ret = genl_connect(nl->sock);
	if (ret < 0) {
		ctx_close(nl);
		return fail_msg("netlink: connect: %s", nl_geterror(ret));
	}
	nl->family = genl_ctrl_resolve(nl->sock, NCSYNC_GENL_NAME);
	if (nl->family < 0) {
		ret = nl->family;
		ctx_close(nl);
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

/*
 * Send @msg (freed) and receive the answer into @cb: a reply and the ack
 * (libnl asks for one), the messages of a dump (NLM_F_DUMP) up to its
 * NLMSG_DONE, or an error; nothing of it is left on the socket.  Return
 * 0, a negative errno from the kernel, or -EIO for other failures
 * (printed by libnl's string into *why).
 */
static int nl_request(struct nl_ctx *nl, struct nl_msg *msg,
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

static struct nl_msg *nl_new(struct nl_ctx *nl, uint8_t cmd, int flags)
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

static void parse_prog(struct nlattr *nest, struct nl_prog *p)
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
	parse_prog(nest, &c->progs[c->nprogs++]);
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

/* The state of @core; prints the error.  0 or EXIT_FAIL. */
static int nl_get_core_on(struct nl_ctx *nl, unsigned int core,
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
	ret = ctx_open(&nl);
	if (!ret) {
		ret = nl_get_core_on(&nl, core, out);
		ctx_close(&nl);
	}
	if (saved >= 0) {
		fflush(stderr);
		dup2(saved, STDERR_FILENO);
		close(saved);
	}
	return ret;
}

static void print_engine_line(const struct nl_engine *e, const char *indent)
{
	char what[64];

	printf("%sengine %u %-4s pc %-5u %s", indent, e->id,
	       engine_label(e->id), e->pc, ncsync_engine_state_name(e->state));
	if (e->blocked) {
		describe_wait(what, sizeof(what), e->wait_kind, e->wait_mode,
			      e->wait_index, e->wait_threshold);
		if (e->wait_kind == NCSYNC_BLOCK_DRAIN)
			printf(": in a drain");
		else if (e->wait_kind == NCSYNC_BLOCK_DMA_FULL)
			printf(": waits for a DMA slot");
		else
			printf(": waits for %s, now %d", what,
			       e->wait_current);
	}
	if (e->fault)
		printf(" (fault: %s)", ncsync_fault_name(e->fault));
	putchar('\n');
}

void print_nl_prog(const struct nl_prog *p, const char *indent)
{
	char sub[32];
	unsigned int i;

	printf("%sprogram %u of pid %u: %s\n", indent, p->id, p->pid,
	       ncsync_prog_state_name(p->state));
	snprintf(sub, sizeof(sub), "%s  ", indent);
	for (i = 0; i < p->nengines; i++)
		print_engine_line(&p->engines[i], sub);
}

void json_nl_prog(const char *key, const struct nl_prog *p)
{
	unsigned int i;
	char what[64];

	j_obj(key);
	j_uint("id", p->id);
	j_uint("pid", p->pid);
	j_str("state", ncsync_prog_state_name(p->state));
	j_arr("engines");
	for (i = 0; i < p->nengines; i++) {
		const struct nl_engine *e = &p->engines[i];

		j_obj(NULL);
		j_uint("id", e->id);
		j_str("engine", engine_label(e->id));
		j_str("state", ncsync_engine_state_name(e->state));
		j_str("fault", ncsync_fault_name(e->fault));
		j_uint("pc", e->pc);
		if (e->blocked) {
			describe_wait(what, sizeof(what), e->wait_kind,
				      e->wait_mode, e->wait_index,
				      e->wait_threshold);
			j_wait(what, e->wait_kind, e->wait_mode,
			       e->wait_index, -1, e->wait_threshold,
			       e->wait_current);
		}
		j_end();
	}
	j_end();
	j_end();
}

/* notify: the setting of core -c. */
static int notify_show(struct nl_ctx *nl)
{
	struct nl_core *core = malloc(sizeof(*core));
	int ret;

	ret = core ? nl_get_core_on(nl, opt_core, core) :
		     fail_err(ENOMEM, "notify");
	if (!ret) {
		if (opt_json) {
			j_obj(NULL);
			j_uint("core", opt_core);
			j_bool("notify", core->notify);
			j_uint("notify_drops", core->drops);
			j_end();
			j_done();
		} else {
			printf("%s\n", core->notify ? "on" : "off");
		}
		nl_core_release(core);
	}
	free(core);
	return ret;
}

/* notify on|off (@word). */
static int notify_set(struct nl_ctx *nl, const char *word)
{
	bool on = !strcmp(word, "on");
	struct nl_msg *msg;
	const char *why;
	int ret;

	msg = nl_new(nl, NCSYNC_CMD_SET_NOTIFY, NLM_F_ACK);
	if (!msg || nla_put_u32(msg, NCSYNC_A_CORE, opt_core) < 0 ||
	    nla_put_u8(msg, NCSYNC_A_NOTIFY, on) < 0) {
		nlmsg_free(msg);
		return fail_err(ENOMEM, "notify %s", word);
	}
	ret = nl_request(nl, msg, NULL, NULL, &why);
	if (ret == -EIO && why)
		return fail_msg("notify %s on core %u: %s", word, opt_core,
				why);
	if (ret)
		return fail_err(ret, "notify %s on core %u", word, opt_core);
	if (opt_json) {
		j_obj(NULL);
		j_uint("core", opt_core);
		j_bool("notify", on);
		j_end();
		j_done();
	}
	return EXIT_OK;
}

int cmd_notify(int argc, char **argv)
{
	const struct cmd *c = find_cmd("notify");
	struct nl_ctx nl;
	struct args a;
	int ret;

	ret = parse_one(c, argc, argv, NULL, NULL, &a);
	if (ret)
		return OPTS_EXIT(ret);
	if (a.npos && strcmp(a.pos[0], "on") && strcmp(a.pos[0], "off"))
		return usage_err(c, "expected 'on' or 'off', not '%s'",
				 a.pos[0]);
	ret = ctx_open(&nl);
	if (ret)
		return ret;
	ret = a.npos ? notify_set(&nl, a.pos[0]) : notify_show(&nl);
	ctx_close(&nl);
	return ret;
}

/* monitor */

struct mon {
	uint32_t count;		/* stop after this many; 0: no limit */
	uint32_t seen;
	bool timestamp;
	int64_t start;
};

static volatile sig_atomic_t mon_stop;

static void mon_signal(int sig)
{
	mon_stop = 1;
}

static void mon_prefix(const struct mon *m)
{
	int64_t t = now_ns() - m->start;

	if (m->timestamp)
		printf("[%5lld.%06lld] ", (long long)(t / 1000000000),
		       (long long)(t % 1000000000 / 1000));
}

static void mon_sems(const int32_t *sems, bool json)
{
	unsigned int i, n = 0;

	if (json)
		j_arr("sems");
	else
		printf("  non-zero semaphores:");
	for (i = 0; i < NCSYNC_NUM_SEMS; i++) {
		if (!sems[i])
			continue;
		n++;
		if (json) {
			j_obj(NULL);
			j_uint("index", i);
			j_int("value", sems[i]);
			j_end();
		} else {
			printf(" [%u]=%d", i, sems[i]);
		}
	}
	if (json)
		j_end();
	else
		printf("%s\n", n ? "" : " none");
}

/* An event notification; false if it lacks its attributes. */
static bool mon_event(const struct mon *m, uint32_t core, struct nlattr **tb)
{
	if (!tb[NCSYNC_A_EVENT] || !tb[NCSYNC_A_EVENT_STATE])
		return false;
	if (opt_json) {
		j_obj(NULL);
		j_str("type", "event");
		j_uint("time_ns", now_ns() - m->start);
		j_uint("core", core);
		j_uint("index", nla_get_u32(tb[NCSYNC_A_EVENT]));
		j_bool("set", nla_get_u8(tb[NCSYNC_A_EVENT_STATE]));
		if (tb[NCSYNC_A_SEQ])
			j_uint("seq", nla_get_u64(tb[NCSYNC_A_SEQ]));
		j_end();
		return true;
	}
	mon_prefix(m);
	printf("core %u: ev[%u] %s", core, nla_get_u32(tb[NCSYNC_A_EVENT]),
	       nla_get_u8(tb[NCSYNC_A_EVENT_STATE]) ? "set" : "clear");
	if (tb[NCSYNC_A_SEQ])
		printf(" (seq %llu)",
		       (unsigned long long)nla_get_u64(tb[NCSYNC_A_SEQ]));
	putchar('\n');
	return true;
}

/*
 * A program's end (@fault: a fault's); false if it lacks its program.
 * @sems: the core's semaphores, or NULL.
 */
static bool mon_prog(const struct mon *m, uint32_t core, bool fault,
		     struct nlattr **tb, const int32_t *sems)
{
	struct nl_prog p;
	unsigned int i;

	if (!tb[NCSYNC_A_PROG])
		return false;
	parse_prog(tb[NCSYNC_A_PROG], &p);
	if (opt_json) {
		j_obj(NULL);
		j_str("type", fault ? "fault" : "program");
		j_uint("time_ns", now_ns() - m->start);
		j_uint("core", core);
		json_nl_prog("program", &p);
		if (sems)
			mon_sems(sems, true);
		j_end();
		return true;
	}
	mon_prefix(m);
	printf("core %u: program %u of pid %u ended %s", core, p.id, p.pid,
	       ncsync_prog_state_name(p.state));
	if (!fault) {
		/* One line: the engines' final records. */
		for (i = 0; i < p.nengines; i++)
			printf("%s %s@%u", i ? "," : ":",
			       engine_label(p.engines[i].id), p.engines[i].pc);
		putchar('\n');
		return true;
	}
	putchar('\n');
	for (i = 0; i < p.nengines; i++)
		print_engine_line(&p.engines[i], "  ");
	if (sems)
		mon_sems(sems, false);
	return true;
}

static int mon_cb(struct nl_msg *msg, void *arg)
{
	struct genlmsghdr *gh = nlmsg_data(nlmsg_hdr(msg));
	struct nlattr *tb[NCSYNC_A_MAX + 1];
	const int32_t *sems = NULL;
	struct mon *m = arg;
	uint32_t core;
	bool shown;

	if (m->count && m->seen >= m->count)
		return NL_OK;
	if (genlmsg_parse(nlmsg_hdr(msg), 0, tb, NCSYNC_A_MAX, NULL) < 0 ||
	    !tb[NCSYNC_A_CORE])
		return NL_OK;
	core = nla_get_u32(tb[NCSYNC_A_CORE]);
	if (opt_core_given && core != opt_core)
		return NL_OK;
	if (tb[NCSYNC_A_SEMS] &&
	    nla_len(tb[NCSYNC_A_SEMS]) == NCSYNC_NUM_SEMS * sizeof(int32_t))
		sems = nla_data(tb[NCSYNC_A_SEMS]);
	if (gh->cmd == NCSYNC_CMD_EVENT_NTF)
		shown = mon_event(m, core, tb);
	else if (gh->cmd == NCSYNC_CMD_PROG_NTF ||
		 gh->cmd == NCSYNC_CMD_FAULT_NTF)
		shown = mon_prog(m, core, gh->cmd == NCSYNC_CMD_FAULT_NTF, tb,
				 sems);
	else
		shown = false;
	if (!shown)
		return NL_OK;
	m->seen++;
	if (opt_json)
		putchar('\n');
	fflush(stdout);
	return NL_OK;
}

struct mon_opts {
	uint32_t count;		/* 0: no limit */
	uint32_t timeout;	/* UINT32_MAX: none */
	bool timestamp;
};

static const struct opt mon_opt_table[] = {
	{ "count", 'n', OPT_U32, OPT_FIELD(struct mon_opts, count),
	  .min = 1, .max = UINT32_MAX - 1 },
	OPT_TIMEOUT(struct mon_opts, timeout),
	{ "timestamp", 'T', OPT_FLAG, OPT_FIELD(struct mon_opts, timestamp) },
	{ /* sentinel */ }
};

/*
 * Join the group "notify", with mon_cb() as the receiver.  *@notify: the
 * event notification setting of core -c, or -1 (no -c, or no memory).
 * 0 or EXIT_FAIL.
 */
static int mon_join(struct nl_ctx *nl, struct mon *m, int *notify)
{
	struct nl_core *core;
	int grp, ret;

	*notify = -1;
	grp = genl_ctrl_resolve_grp(nl->sock, NCSYNC_GENL_NAME,
				    NCSYNC_GENL_MCGRP_NOTIFY);
	if (grp < 0)
		return fail_msg("monitor: group %s: %s",
				NCSYNC_GENL_MCGRP_NOTIFY, nl_geterror(grp));
	/* Notification state for the header, before we are subscribed. */
	core = calloc(1, sizeof(*core));
	if (core && opt_core_given) {
		if (nl_get_core_on(nl, opt_core, core)) {
			free(core);
			return EXIT_FAIL;
		}
		nl_core_release(core);	/* only the notification state */
		*notify = core->notify;
	}
	free(core);
	nl_socket_disable_seq_check(nl->sock);
	nl_socket_modify_cb(nl->sock, NL_CB_VALID, NL_CB_CUSTOM, mon_cb, m);
	nl_socket_set_buffer_size(nl->sock, 4 << 20, 0);
	ret = nl_socket_add_membership(nl->sock, grp);
	if (ret < 0)
		return fail_msg("monitor: join group %s: %s",
				NCSYNC_GENL_MCGRP_NOTIFY, nl_geterror(ret));
	nl_socket_set_nonblocking(nl->sock);
	return 0;
}

/* Read what came; 0 or EXIT_FAIL. */
static int mon_receive(struct nl_ctx *nl)
{
	int ret = nl_recvmsgs_default(nl->sock);

	if (ret == -NLE_NOMEM) {
		/* ENOBUFS: the socket overran, messages were lost */
		fprintf(stderr,
			"ncsync: monitor: notifications lost (receive buffer overrun)\n");
		return 0;
	}
	if (ret < 0 && ret != -NLE_AGAIN)
		return fail_msg("monitor: receive: %s", nl_geterror(ret));
	return 0;
}

/*
 * Receive until --count notifications came, a signal, or @deadline
 * (*@timed_out; 0: none).  0 or EXIT_FAIL.
 */
static int mon_loop(struct nl_ctx *nl, struct mon *m, int64_t deadline,
		    bool *timed_out)
{
	struct pollfd pfd = {
		.fd = nl_socket_get_fd(nl->sock),
		.events = POLLIN,
	};
	int ret = EXIT_OK;

	while (!ret && !mon_stop && (!m->count || m->seen < m->count)) {
		int wait_ms = -1;

		if (deadline) {
			int64_t left = deadline - now_ns();

			if (left <= 0) {
				*timed_out = true;
				break;
			}
			wait_ms = (left + 999999) / 1000000;
		}
		if (poll(&pfd, 1, wait_ms) < 0) {
			if (errno != EINTR)
				ret = fail_err(errno, "monitor: poll");
			continue;
		}
		if (pfd.revents & POLLIN)
			ret = mon_receive(nl);
	}
	return ret;
}

int cmd_monitor(int argc, char **argv)
{
	const struct cmd *c = find_cmd("monitor");
	struct mon_opts o = { .timeout = UINT32_MAX };
	struct sigaction sa = { .sa_handler = mon_signal };
	struct mon m = { 0 };
	bool timed_out = false;
	struct nl_ctx nl;
	int ret, notify;

	ret = parse_none(c, argc, argv, mon_opt_table, &o);
	if (ret)
		return OPTS_EXIT(ret);
	m.count = o.count;
	m.timestamp = o.timestamp;
	ret = ctx_open(&nl);
	if (!ret)
		ret = mon_join(&nl, &m, &notify);
	if (ret) {
		ctx_close(&nl);
		return ret;
	}
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);

	/* The first line says we listen: scripts may wait for it. */
	m.start = now_ns();
	if (opt_json)
		printf("[\n");
	else if (notify >= 0)
		printf("listening on core %u (event notifications %s)\n",
		       opt_core, notify ? "on" : "off: ncsync notify on");
	else
		printf("listening on every core\n");
	fflush(stdout);
	ret = mon_loop(&nl, &m, o.timeout != UINT32_MAX ?
		       m.start + o.timeout * 1000000LL : 0, &timed_out);
	if (opt_json)
		printf("]\n");
	fflush(stdout);
	ctx_close(&nl);
	if (ret)
		return ret;
	if (timed_out && m.count && m.seen < m.count)
		return fail_msg("monitor: %u of %u notifications in %u ms",
				m.seen, m.count, o.timeout);
	return EXIT_OK;
}
