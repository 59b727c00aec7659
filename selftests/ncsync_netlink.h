/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the ncsync_netlink_*_test selftests and ncsync_trace_test share:
 * the generic netlink family "ncsync" (Documentation/netlink/ncsync.yaml,
 * Documentation/ncsync/netlink.rst), its sockets, requests and parsed
 * messages, programs of hand-encoded records, and the "nl" fixture.
 *
 * Requests go out on one socket ("req"), which never joins a group;
 * notifications are read from another ("mon"), which joins "notify"; each
 * dump (GET_PROGRAMS) has a socket of its own, read with plain recv(2).
 * Every test of the "nl" fixture starts from a freshly reset core 0 with
 * event notifications disabled on every core, and leaves them disabled.
 * Programs are 64-byte records encoded by hand (see ncsync_engine.h).
 *
 * Notifications that must come are waited for with a long timeout
 * (LONG_MS); the absence of one is checked with QUIET_MS.  No test asserts
 * an upper bound on any duration.
 */
#ifndef NCSYNC_NETLINK_H
#define NCSYNC_NETLINK_H

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <grp.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/capability.h>
#include <linux/ncsync.h>
#include <linux/netlink.h>

#include <netlink/genl/ctrl.h>
#include <netlink/genl/family.h>
#include <netlink/genl/genl.h>
#include <netlink/netlink.h>

#include "kselftest_harness.h"
#include "ncsync_selftest.h"
#include "ncsync_rec.h"

#define DEV_FMT		"/dev/ncsync%u"
#define DEV0		"/dev/ncsync0"

#define EVT(i)		(NCSYNC_CSR_EVENTS + 4 * (i))
#define SEM_SET(i)	(NCSYNC_CSR_SEM_SET + 4 * (i))

#define LONG_MS		10000	/* a notification that must come */
#define QUIET_MS	200	/* how long "nothing comes" is watched */
#define WD_LONG		20000	/* watchdog of a program that must not time out */
#define WD_SHORT	200	/* watchdog of a program that must time out */

#define NSEC_PER_SEC	1000000000LL
#define NSEC_PER_MSEC	1000000LL

#define MAX_PROGS	64	/* programs a parsed message keeps */
#define NOBODY		65534

#define TRACEFS		"/sys/kernel/tracing"
#define DEBUGFS_CORE0	"/sys/kernel/debug/ncsync/core0"

/* Wire values of records.rst, as ncsync_engine.h spells them. */
#define W_EQ		0x01
#define W_GE		0x05
#define U_EVT_SET	0x01
#define U_INC		0x03

#define BIT_A(a)	(1U << (a))

/* Fail the test, and say why. */
#define FAIL_LOG(fmt, ...) do {					\
	_metadata->passed = 0;						\
	TH_LOG(fmt, ##__VA_ARGS__);					\
} while (0)

/* ---------------------------------------------------------------------- */
/* Plain helpers                                                           */

static inline int pwrite32(int fd, __u32 addr, __u32 v)
{
	return pwrite(fd, &v, 4, addr) == 4 ? 0 : -errno;
}

static inline int stats_get(int fd, struct ncsync_stats *st)
{
	memset(st, 0, sizeof(*st));
	return ioctl(fd, NCSYNC_IOC_STATS, st) ? -errno : 0;
}

static inline int num_cores(void)
{
	struct ncsync_info info;
	int fd = open(DEV0, O_RDONLY | O_CLOEXEC);
	int ret;

	if (fd < 0)
		return -errno;
	ret = ioctl(fd, NCSYNC_IOC_INFO, &info) ? -errno : (int)info.num_cores;
	close(fd);
	return ret;
}

/* ---------------------------------------------------------------------- */
/* Programs: hand-encoded records                                          */

static inline __u32 submit_ok(struct __test_metadata *_metadata, int fd,
		       const struct rec_prog *p, __u32 flags, __u32 wd)
{
	struct ncsync_submit sub;
	int ret = rec_prog_submit(fd, p, flags, wd, &sub);

	ASSERT_EQ(0, ret) TH_LOG("SUBMIT: %s", strerror(-ret));
	ASSERT_NE(0, (int)sub.id);
	return sub.id;
}

/* Wait for a program to end; return its final state. */
static inline int wait_end(struct __test_metadata *_metadata, int fd, __u32 id)
{
	struct ncsync_prog_wait pw = {
		.id = id, .deadline = deadline_ms(LONG_MS),
	};

	ASSERT_EQ(0, ioctl(fd, NCSYNC_IOC_PROG_WAIT, &pw))
		TH_LOG("PROG_WAIT %u: %s", id, strerror(errno));
	return (int)pw.state;
}

static inline void status_get(struct __test_metadata *_metadata, int fd, __u32 id,
		       struct ncsync_prog_status *ps)
{
	memset(ps, 0, sizeof(*ps));
	ps->id = id;
	ASSERT_EQ(0, ioctl(fd, NCSYNC_IOC_PROG_STATUS, ps))
		TH_LOG("PROG_STATUS %u: %s", id, strerror(errno));
}

/* Poll until engine @e (submission order) of a running program blocks. */
static inline void wait_blocked(struct __test_metadata *_metadata, int fd, __u32 id,
			 unsigned int e)
{
	__s64 end = now_ns() + LONG_MS * NSEC_PER_MSEC;
	struct ncsync_prog_status ps;

	for (;;) {
		status_get(_metadata, fd, id, &ps);
		if (ps.engines[e].state == NCSYNC_ENG_BLOCKED)
			return;
		ASSERT_GT(NCSYNC_PROG_DONE, (int)ps.state)
			TH_LOG("program %u ended before engine %u blocked", id, e);
		ASSERT_GT(end, now_ns())
			TH_LOG("engine %u of program %u never blocked", e, id);
		usleep(1000);
	}
}

/* ---------------------------------------------------------------------- */
/* Netlink: sockets, requests, notifications                               */

/* Messages a socket's valid callback collected, each a malloc'd copy. */
struct msgq {
	struct nlmsghdr **m;
	unsigned int head, n, cap;
};

static inline int msgq_cb(struct nl_msg *msg, void *arg)
{
	struct nlmsghdr *nlh = nlmsg_hdr(msg);
	struct msgq *q = arg;
	struct nlmsghdr *copy;

	if (q->n == q->cap) {
		struct nlmsghdr **m;

		q->cap = q->cap ? 2 * q->cap : 64;
		m = realloc(q->m, q->cap * sizeof(*m));
		if (!m)
			abort();
		q->m = m;
	}
	copy = malloc(nlh->nlmsg_len);
	if (!copy)
		abort();
	memcpy(copy, nlh, nlh->nlmsg_len);
	q->m[q->n++] = copy;
	return NL_OK;
}

static inline void msgq_free(struct msgq *q)
{
	while (q->head < q->n)
		free(q->m[q->head++]);
	free(q->m);
	memset(q, 0, sizeof(*q));
}

/* A socket connected to generic netlink; NULL on error. */
static inline struct nl_sock *nl_open(void)
{
	struct nl_sock *sk = nl_socket_alloc();
	int one = 1;

	if (!sk)
		return NULL;
	if (genl_connect(sk)) {
		nl_socket_free(sk);
		return NULL;
	}
	/* extended acks: the kernel's error message and missing attribute */
	setsockopt(nl_socket_get_fd(sk), SOL_NETLINK, NETLINK_EXT_ACK, &one,
		   sizeof(one));
	return sk;
}

/* Join "notify" on @sk and collect what it receives in @q. */
static inline int nl_listen(struct nl_sock *sk, int grp, struct msgq *q, int rcvbuf)
{
	int ret;

	nl_socket_disable_seq_check(sk);
	ret = nl_socket_modify_cb(sk, NL_CB_VALID, NL_CB_CUSTOM, msgq_cb, q);
	if (ret)
		return ret;
	if (rcvbuf &&
	    setsockopt(nl_socket_get_fd(sk), SOL_SOCKET, SO_RCVBUFFORCE,
		       &rcvbuf, sizeof(rcvbuf)))
		return -errno;
	return nl_socket_add_membership(sk, grp);
}

/*
 * Next message of a listening socket, within @ms milliseconds; NULL if none
 * came.  The caller frees it.
 */
static inline struct nlmsghdr *nl_next(struct nl_sock *sk, struct msgq *q, int ms)
{
	__s64 end = now_ns() + (__s64)ms * NSEC_PER_MSEC;
	struct pollfd pfd = { .fd = nl_socket_get_fd(sk), .events = POLLIN };

	while (q->head == q->n) {
		__s64 left = (end - now_ns()) / NSEC_PER_MSEC;

		if (left < 0 || poll(&pfd, 1, (int)left) <= 0)
			return NULL;
		if (nl_recvmsgs_default(sk) < 0)
			return NULL;
	}
	return q->m[q->head++];
}

/* Outcome of one request. */
struct reply {
	int err;			/* 0 or the kernel's -errno */
	bool done;
	struct nlmsghdr *msg;		/* the reply message, malloc'd */
	char extack[128];		/* NLMSGERR_ATTR_MSG */
	int miss_type;			/* NLMSGERR_ATTR_MISS_TYPE, or -1 */
};

static inline int reply_valid_cb(struct nl_msg *msg, void *arg)
{
	struct nlmsghdr *nlh = nlmsg_hdr(msg);
	struct reply *r = arg;

	free(r->msg);
	r->msg = malloc(nlh->nlmsg_len);
	if (!r->msg)
		abort();
	memcpy(r->msg, nlh, nlh->nlmsg_len);
	return NL_OK;
}

static inline int reply_ack_cb(struct nl_msg *msg, void *arg)
{
	struct reply *r = arg;

	r->done = true;
	return NL_STOP;
}

static inline int reply_err_cb(struct sockaddr_nl *nla, struct nlmsgerr *e,
			void *arg)
{
	struct nlmsghdr *nlh = (void *)((char *)e - NLMSG_HDRLEN);
	struct nlattr *tb[NLMSGERR_ATTR_MAX + 1];
	struct reply *r = arg;
	unsigned int off = sizeof(*e);

	r->err = e->error;
	r->done = true;
	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS))
		return NL_STOP;
	if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
		off += e->msg.nlmsg_len - NLMSG_HDRLEN;
	if (nlh->nlmsg_len < NLMSG_HDRLEN + off ||
	    nla_parse(tb, NLMSGERR_ATTR_MAX, (void *)((char *)e + off),
		      nlh->nlmsg_len - NLMSG_HDRLEN - off, NULL))
		return NL_STOP;
	if (tb[NLMSGERR_ATTR_MSG])
		snprintf(r->extack, sizeof(r->extack), "%s",
			 nla_get_string(tb[NLMSGERR_ATTR_MSG]));
	if (tb[NLMSGERR_ATTR_MISS_TYPE])
		r->miss_type = nla_get_u32(tb[NLMSGERR_ATTR_MISS_TYPE]);
	return NL_STOP;
}

/* A request of @cmd to the family @fam, to be filled with attributes. */
static inline struct nl_msg *req_new(int fam, __u8 cmd)
{
	struct nl_msg *msg = nlmsg_alloc();

	if (!msg)
		abort();
	if (!genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, fam, 0, 0, cmd,
			 NCSYNC_GENL_VERSION))
		abort();
	return msg;
}

/*
 * Send @msg (freed) and collect the reply and the ack or error.
 * Return the kernel's 0 or -errno, or a libnl error below -1000.
 */
static inline int req_send(struct nl_sock *sk, struct nl_msg *msg, struct reply *r)
{
	struct nl_cb *cb = nl_cb_alloc(NL_CB_DEFAULT);
	int ret;

	memset(r, 0, sizeof(*r));
	r->miss_type = -1;
	if (!cb)
		abort();
	nl_cb_set(cb, NL_CB_VALID, NL_CB_CUSTOM, reply_valid_cb, r);
	nl_cb_set(cb, NL_CB_ACK, NL_CB_CUSTOM, reply_ack_cb, r);
	nl_cb_err(cb, NL_CB_CUSTOM, reply_err_cb, r);
	ret = nl_send_auto(sk, msg);
	nlmsg_free(msg);
	while (ret >= 0 && !r->done)
		ret = nl_recvmsgs(sk, cb);
	nl_cb_put(cb);
	if (!r->done)
		return -1000 + (ret < 0 ? ret : 0);
	return r->err;
}

static inline void reply_free(struct reply *r)
{
	free(r->msg);
	r->msg = NULL;
}

static inline int get_core(struct nl_sock *sk, int fam, __u32 core, struct reply *r)
{
	struct nl_msg *msg = req_new(fam, NCSYNC_CMD_GET_CORE);

	nla_put_u32(msg, NCSYNC_A_CORE, core);
	return req_send(sk, msg, r);
}

static inline int set_notify(struct nl_sock *sk, int fam, __u32 core, __u8 on)
{
	struct nl_msg *msg = req_new(fam, NCSYNC_CMD_SET_NOTIFY);
	struct reply r;
	int ret;

	nla_put_u32(msg, NCSYNC_A_CORE, core);
	nla_put_u8(msg, NCSYNC_A_NOTIFY, on);
	ret = req_send(sk, msg, &r);
	reply_free(&r);
	return ret;
}

/* ---------------------------------------------------------------------- */
/* Parsing messages of the family                                         */

struct eng_nl {
	__u32 present;			/* BIT_A(NCSYNC_A_ENG_*) */
	__u8 id, state, fault, kind, mode, index;
	__u32 pc;
	__s32 threshold, current;
};

struct prog_nl {
	__u32 present;			/* BIT_A(NCSYNC_A_PROG_*, ENGINE) */
	__u32 id, pid;
	int state;
	int neng;
	struct eng_nl eng[NCSYNC_NUM_ENGINES];
};

struct ncsync_msg {
	__u8 cmd, version;
	__u32 present;			/* BIT_A() of top-level attributes */
	int core, event;
	__u8 event_state, notify;
	__u32 lnc;
	__u64 seq, drops;
	__s32 sems[NCSYNC_NUM_SEMS];
	__u8 events[NCSYNC_NUM_EVENTS / 8];
	int nprogs;
	struct prog_nl progs[MAX_PROGS];
};

/* Payload length of each attribute; -1 for a nest. */
static const int attr_len[NCSYNC_A_MAX + 1] = {
	[NCSYNC_A_CORE] = 4,
	[NCSYNC_A_NOTIFY] = 1,
	[NCSYNC_A_EVENT] = 4,
	[NCSYNC_A_EVENT_STATE] = 1,
	[NCSYNC_A_SEQ] = 8,
	[NCSYNC_A_SEMS] = NCSYNC_NUM_SEMS * 4,
	[NCSYNC_A_EVENTS] = NCSYNC_NUM_EVENTS / 8,
	[NCSYNC_A_DROPS] = 8,
	[NCSYNC_A_PROG] = -1,
	[NCSYNC_A_PROG_ID] = 4,
	[NCSYNC_A_PROG_STATE] = 4,
	[NCSYNC_A_PROG_PID] = 4,
	[NCSYNC_A_ENGINE] = -1,
	[NCSYNC_A_ENG_ID] = 1,
	[NCSYNC_A_ENG_STATE] = 1,
	[NCSYNC_A_ENG_FAULT] = 1,
	[NCSYNC_A_ENG_PC] = 4,
	[NCSYNC_A_ENG_WAIT_KIND] = 1,
	[NCSYNC_A_ENG_WAIT_MODE] = 1,
	[NCSYNC_A_ENG_WAIT_INDEX] = 1,
	[NCSYNC_A_ENG_WAIT_THRESHOLD] = 4,
	[NCSYNC_A_ENG_WAIT_CURRENT] = 4,
	[NCSYNC_A_LNC] = 4,
};

/* Check an attribute's type and length; 0 or -EINVAL. */
static inline int attr_check(struct __test_metadata *_metadata,
		      const struct nlattr *a, const char *where)
{
	int type = nla_type(a);

	if (type == NCSYNC_A_TRUNCATED) {
		EXPECT_EQ(0, nla_len(a)) TH_LOG("%s: TRUNCATED not a flag", where);
		return 0;
	}
	EXPECT_TRUE(type > 0 && type <= NCSYNC_A_MAX && type != NCSYNC_A_PAD)
		TH_LOG("%s: unexpected attribute %d", where, type);
	if (type <= 0 || type > NCSYNC_A_MAX || type == NCSYNC_A_PAD)
		return -EINVAL;
	if (attr_len[type] >= 0) {
		EXPECT_EQ(attr_len[type], nla_len(a))
			TH_LOG("%s: attribute %d has length %d", where, type,
			       nla_len(a));
		if (attr_len[type] != nla_len(a))
			return -EINVAL;
	}
	return 0;
}

static inline void parse_engine(struct __test_metadata *_metadata,
			 struct nlattr *nest, struct eng_nl *e)
{
	struct nlattr *a;
	int rem;

	memset(e, 0, sizeof(*e));
	nla_for_each_nested(a, nest, rem) {
		int type = nla_type(a);

		if (attr_check(_metadata, a, "engine nest"))
			continue;
		EXPECT_FALSE(!!(e->present & BIT_A(type)))
			TH_LOG("engine nest: attribute %d twice", type);
		e->present |= BIT_A(type);
		switch (type) {
		case NCSYNC_A_ENG_ID:
			e->id = nla_get_u8(a);
			break;
		case NCSYNC_A_ENG_STATE:
			e->state = nla_get_u8(a);
			break;
		case NCSYNC_A_ENG_FAULT:
			e->fault = nla_get_u8(a);
			break;
		case NCSYNC_A_ENG_PC:
			e->pc = nla_get_u32(a);
			break;
		case NCSYNC_A_ENG_WAIT_KIND:
			e->kind = nla_get_u8(a);
			break;
		case NCSYNC_A_ENG_WAIT_MODE:
			e->mode = nla_get_u8(a);
			break;
		case NCSYNC_A_ENG_WAIT_INDEX:
			e->index = nla_get_u8(a);
			break;
		case NCSYNC_A_ENG_WAIT_THRESHOLD:
			e->threshold = (__s32)nla_get_u32(a);
			break;
		case NCSYNC_A_ENG_WAIT_CURRENT:
			e->current = (__s32)nla_get_u32(a);
			break;
		default:
			FAIL_LOG("engine nest: attribute %d", type);
		}
	}
}

static inline void parse_prog(struct __test_metadata *_metadata,
		       struct nlattr *nest, struct prog_nl *p)
{
	struct nlattr *a;
	int rem;

	memset(p, 0, sizeof(*p));
	nla_for_each_nested(a, nest, rem) {
		int type = nla_type(a);

		if (attr_check(_metadata, a, "program nest"))
			continue;
		EXPECT_FALSE(type != NCSYNC_A_ENGINE &&
			     (p->present & BIT_A(type)))
			TH_LOG("program nest: attribute %d twice", type);
		p->present |= BIT_A(type);
		switch (type) {
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
			ASSERT_GT(NCSYNC_NUM_ENGINES, p->neng);
			parse_engine(_metadata, a, &p->eng[p->neng++]);
			break;
		default:
			FAIL_LOG("program nest: attribute %d", type);
		}
	}
}

/*
 * Parse a message of the family into @m, checking the header, the type and
 * length of every attribute, and that only PROG repeats at the top level.
 */
static inline void parse_msg(struct __test_metadata *_metadata,
		      const struct nlmsghdr *nlh, struct ncsync_msg *m)
{
	struct genlmsghdr *gh = nlmsg_data(nlh);
	struct nlattr *a;
	int rem;

	memset(m, 0, sizeof(*m));
	ASSERT_LE((int)NLMSG_LENGTH(GENL_HDRLEN), (int)nlh->nlmsg_len);
	m->cmd = gh->cmd;
	m->version = gh->version;
	nla_for_each_attr(a, genlmsg_attrdata(gh, 0), genlmsg_attrlen(gh, 0),
			  rem) {
		int type = nla_type(a);

		if (type == NCSYNC_A_PAD)
			continue;
		if (attr_check(_metadata, a, "message"))
			continue;
		EXPECT_FALSE(type != NCSYNC_A_PROG && (m->present & BIT_A(type)))
			TH_LOG("message: attribute %d twice", type);
		m->present |= BIT_A(type);
		switch (type) {
		case NCSYNC_A_CORE:
			m->core = nla_get_u32(a);
			break;
		case NCSYNC_A_NOTIFY:
			m->notify = nla_get_u8(a);
			break;
		case NCSYNC_A_EVENT:
			m->event = nla_get_u32(a);
			break;
		case NCSYNC_A_EVENT_STATE:
			m->event_state = nla_get_u8(a);
			break;
		case NCSYNC_A_SEQ:
			m->seq = nla_get_u64(a);
			break;
		case NCSYNC_A_DROPS:
			m->drops = nla_get_u64(a);
			break;
		case NCSYNC_A_SEMS:
			memcpy(m->sems, nla_data(a), sizeof(m->sems));
			break;
		case NCSYNC_A_EVENTS:
			memcpy(m->events, nla_data(a), sizeof(m->events));
			break;
		case NCSYNC_A_TRUNCATED:
			break;
		case NCSYNC_A_LNC:
			m->lnc = nla_get_u32(a);
			break;
		case NCSYNC_A_PROG:
			ASSERT_GT(MAX_PROGS, m->nprogs);
			parse_prog(_metadata, a, &m->progs[m->nprogs++]);
			break;
		default:
			FAIL_LOG("message: attribute %d at the top", type);
		}
	}
}

/* The attributes each message carries (NCSYNC_A_PROG: once per program). */
#define GET_CORE_ATTRS	(BIT_A(NCSYNC_A_CORE) | BIT_A(NCSYNC_A_SEMS) | \
			 BIT_A(NCSYNC_A_EVENTS) | BIT_A(NCSYNC_A_NOTIFY) | \
			 BIT_A(NCSYNC_A_SEQ) | BIT_A(NCSYNC_A_DROPS) | \
			 BIT_A(NCSYNC_A_LNC))
#define EVENT_NTF_ATTRS	(BIT_A(NCSYNC_A_CORE) | BIT_A(NCSYNC_A_EVENT) | \
			 BIT_A(NCSYNC_A_EVENT_STATE) | BIT_A(NCSYNC_A_SEQ))
#define PROG_NTF_ATTRS	(BIT_A(NCSYNC_A_CORE) | BIT_A(NCSYNC_A_PROG))
#define FAULT_NTF_ATTRS	(PROG_NTF_ATTRS | BIT_A(NCSYNC_A_SEMS))
#define PROG_ATTRS	(BIT_A(NCSYNC_A_PROG_ID) | BIT_A(NCSYNC_A_PROG_STATE) | \
			 BIT_A(NCSYNC_A_PROG_PID) | BIT_A(NCSYNC_A_ENGINE))
#define ENG_ATTRS	(BIT_A(NCSYNC_A_ENG_ID) | BIT_A(NCSYNC_A_ENG_STATE) | \
			 BIT_A(NCSYNC_A_ENG_FAULT) | BIT_A(NCSYNC_A_ENG_PC))
#define ENG_WAIT_ATTRS	(ENG_ATTRS | BIT_A(NCSYNC_A_ENG_WAIT_KIND) | \
			 BIT_A(NCSYNC_A_ENG_WAIT_MODE) | \
			 BIT_A(NCSYNC_A_ENG_WAIT_INDEX) | \
			 BIT_A(NCSYNC_A_ENG_WAIT_THRESHOLD) | \
			 BIT_A(NCSYNC_A_ENG_WAIT_CURRENT))

/* An engine nest matches the ioctl's view of the same engine. */
static inline void expect_engine(struct __test_metadata *_metadata,
			  const struct eng_nl *e,
			  const struct ncsync_engine_status *st)
{
	EXPECT_EQ(st->state == NCSYNC_ENG_BLOCKED ? ENG_WAIT_ATTRS : ENG_ATTRS,
		  e->present);
	EXPECT_EQ(st->engine, e->id);
	EXPECT_EQ(st->state, e->state);
	EXPECT_EQ(st->fault, e->fault);
	EXPECT_EQ(st->pc, e->pc);
	if (st->state != NCSYNC_ENG_BLOCKED)
		return;
	EXPECT_EQ(st->wait_kind, e->kind);
	EXPECT_EQ(st->wait_mode, e->mode);
	EXPECT_EQ(st->wait_index, e->index);
	EXPECT_EQ(st->wait_threshold, e->threshold);
	EXPECT_EQ(st->wait_current, e->current);
}

/* A program nest matches NCSYNC_IOC_PROG_STATUS of the same program. */
static inline void expect_prog(struct __test_metadata *_metadata,
			const struct prog_nl *p,
			const struct ncsync_prog_status *ps)
{
	int i;

	EXPECT_EQ(PROG_ATTRS, p->present);
	EXPECT_EQ(ps->id, p->id);
	EXPECT_EQ((int)ps->state, p->state);
	EXPECT_EQ((__u32)getpid(), p->pid);
	ASSERT_EQ((int)ps->nengines, p->neng);
	for (i = 0; i < p->neng; i++)
		expect_engine(_metadata, &p->eng[i], &ps->engines[i]);
}

/* ---------------------------------------------------------------------- */
/* The fixture                                                             */

FIXTURE(nl) {
	int fd;				/* /dev/ncsync0, read-write */
	int ncores;
	int fam;			/* family id */
	int grp;			/* "notify" group id */
	struct nl_sock *req;		/* requests; joins no group */
	struct nl_sock *mon;		/* joins "notify" */
	struct msgq q;			/* what mon received */
};

/* Event notifications off on every core; false if a request failed. */
static inline bool notify_all_off(FIXTURE_DATA(nl) *self)
{
	bool ok = true;
	int c;

	for (c = 0; c < self->ncores; c++)
		ok &= !set_notify(self->req, self->fam, c, 0);
	return ok;
}

FIXTURE_SETUP(nl)
{
	struct ncsync_reset rst = { 0 };

	self->fd = -1;
	self->ncores = num_cores();
	ASSERT_LT(0, self->ncores) TH_LOG("%s: %s", DEV0,
					  strerror(-self->ncores));
	self->req = nl_open();
	ASSERT_NE(NULL, self->req);
	self->fam = genl_ctrl_resolve(self->req, NCSYNC_GENL_NAME);
	ASSERT_LT(0, self->fam) TH_LOG("family %s: %s", NCSYNC_GENL_NAME,
				       nl_geterror(self->fam));
	self->grp = genl_ctrl_resolve_grp(self->req, NCSYNC_GENL_NAME,
					  NCSYNC_GENL_MCGRP_NOTIFY);
	ASSERT_LT(0, self->grp) TH_LOG("group %s: %s",
				       NCSYNC_GENL_MCGRP_NOTIFY,
				       nl_geterror(self->grp));
	/* a previous test may have died with notifications enabled */
	ASSERT_TRUE(notify_all_off(self));

	self->fd = open(DEV0, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, self->fd) TH_LOG("open %s: %s", DEV0, strerror(errno));
	ASSERT_EQ(0, ioctl(self->fd, NCSYNC_IOC_RESET, &rst));

	self->mon = nl_open();
	ASSERT_NE(NULL, self->mon);
	ASSERT_EQ(0, nl_listen(self->mon, self->grp, &self->q, 4 << 20));
}

FIXTURE_TEARDOWN(nl)
{
	/* no ASSERT here: it would jump back into the teardown */
	if (self->req)
		EXPECT_TRUE(notify_all_off(self));
	if (self->mon)
		nl_socket_free(self->mon);
	if (self->req)
		nl_socket_free(self->req);
	msgq_free(&self->q);
	if (self->fd >= 0)
		close(self->fd);
}

/* GET_CORE of @core, which must succeed, parsed. */
static inline void get_core_ok(struct __test_metadata *_metadata,
			FIXTURE_DATA(nl) *self, __u32 core,
			struct ncsync_msg *m)
{
	struct reply r;
	int ret = get_core(self->req, self->fam, core, &r);

	ASSERT_EQ(0, ret) TH_LOG("GET_CORE %u: %d %s", core, ret, r.extack);
	ASSERT_NE(NULL, r.msg);
	parse_msg(_metadata, r.msg, m);
	reply_free(&r);
	EXPECT_EQ(NCSYNC_CMD_GET_CORE, m->cmd);
	EXPECT_EQ((int)core, m->core);
}

static inline void evt_write(struct __test_metadata *_metadata, int fd,
		      unsigned int i, __u32 v)
{
	ASSERT_EQ(0, pwrite32(fd, EVT(i), v));
}

static inline __u64 core_seq(struct __test_metadata *_metadata, int fd)
{
	struct ncsync_stats st;

	ASSERT_EQ(0, stats_get(fd, &st));
	return st.seq;
}

/* Remove @cap from the effective, permitted and inheritable sets. */
static inline int cap_drop(int cap)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3];
	__u32 bit = 1U << (cap % 32);

	if (syscall(SYS_capget, &hdr, data))
		return -errno;
	data[cap / 32].effective &= ~bit;
	data[cap / 32].permitted &= ~bit;
	data[cap / 32].inheritable &= ~bit;
	return syscall(SYS_capset, &hdr, data) ? -errno : 0;
}

/* Results of a child, sent through a pipe. */
struct child_res {
	int step;			/* what failed in the child; 0 if none */
	int get_core;			/* GET_CORE, 0 or -errno */
	int set_notify;			/* SET_NOTIFY, 0 or -errno */
	int set_notify_early;		/* SET_NOTIFY on the earlier socket */
	int ntf_cmd;			/* joining the group: 0 or -errno */
};

static inline int wait_child(pid_t pid)
{
	int status;

	if (waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

#endif /* NCSYNC_NETLINK_H */
