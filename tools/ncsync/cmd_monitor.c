// SPDX-License-Identifier: GPL-2.0
/*
 * ncsync(1): ncsync monitor [--count N] [--timeout MS] [--timestamp]: the
 * notifications of the generic netlink family's multicast group "notify"
 * as they come.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>

#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <netlink/netlink.h>

#include "cmds.h"
#include "opts.h"
#include "print.h"

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
	nl_parse_prog(tb[NCSYNC_A_PROG], &p);
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
		print_nl_engine(&p.engines[i], "  ");
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

int cmd_monitor(const struct cmd *c, int argc, char **argv)
{
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
	ret = nl_ctx_open(&nl);
	if (!ret)
		ret = mon_join(&nl, &m, &notify);
	if (ret) {
		nl_ctx_close(&nl);
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
	nl_ctx_close(&nl);
	if (ret)
		return ret;
	if (timed_out && m.count && m.seen < m.count)
		return fail_msg("monitor: %u of %u notifications in %u ms",
				m.seen, m.count, o.timeout);
	return EXIT_OK;
}
