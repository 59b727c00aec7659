// SPDX-License-Identifier: GPL-2.0
/*
 * ncsync selftests: the generic netlink family "ncsync"
 * (Documentation/netlink/ncsync.yaml, Documentation/ncsync/netlink.rst),
 * the tracepoints and the debugfs file (Documentation/ncsync/tracing.rst).
 *
 * Requests go out on one socket ("req"), which never joins a group;
 * notifications are read from another ("mon"), which joins "notify"; each
 * dump (GET_PROGRAMS) has a socket of its own, read with plain recv(2).
 * Every test of the "nl" fixture starts from a freshly reset core 0 with
 * event notifications disabled on every core, and leaves them disabled.
 * Programs are 64-byte records encoded by hand (see ncsync_engine.h).
 *
 * Run inside the test VM, as root:
 *	tools/vm-run build/selftests/ncsync_netlink_test
 *
 * Notifications that must come are waited for with a long timeout
 * (LONG_MS); the absence of one is checked with QUIET_MS.  No test asserts
 * an upper bound on any duration.
 */
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

static int pwrite32(int fd, __u32 addr, __u32 v)
{
	return pwrite(fd, &v, 4, addr) == 4 ? 0 : -errno;
}

static int stats_get(int fd, struct ncsync_stats *st)
{
	memset(st, 0, sizeof(*st));
	return ioctl(fd, NCSYNC_IOC_STATS, st) ? -errno : 0;
}

static int num_cores(void)
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

/* Write @s to the file @path; 0 or -errno. */
static int write_file(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, s, strlen(s));
	close(fd);
	return n == (ssize_t)strlen(s) ? 0 : -errno;
}

/* Read the file @path into a malloc'd string (NULL on error). */
static char *read_file(const char *path)
{
	size_t len = 0, cap = 65536;
	char *buf = malloc(cap);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0 || !buf) {
		if (fd >= 0)
			close(fd);
		free(buf);
		return NULL;
	}
	for (;;) {
		if (cap - len < 4096) {
			char *p = realloc(buf, cap * 2);

			if (!p)
				break;
			buf = p;
			cap *= 2;
		}
		n = read(fd, buf + len, cap - len - 1);
		if (n <= 0)
			break;
		len += n;
	}
	close(fd);
	buf[len] = '\0';
	return buf;
}

/* ---------------------------------------------------------------------- */
/* Programs: hand-encoded records                                          */

static __u32 submit_ok(struct __test_metadata *_metadata, int fd,
		       const struct rec_prog *p, __u32 flags, __u32 wd)
{
	struct ncsync_submit sub;
	int ret = rec_prog_submit(fd, p, flags, wd, &sub);

	ASSERT_EQ(0, ret) TH_LOG("SUBMIT: %s", strerror(-ret));
	ASSERT_NE(0, (int)sub.id);
	return sub.id;
}

/* Wait for a program to end; return its final state. */
static int wait_end(struct __test_metadata *_metadata, int fd, __u32 id)
{
	struct ncsync_prog_wait pw = {
		.id = id, .deadline = deadline_ms(LONG_MS),
	};

	ASSERT_EQ(0, ioctl(fd, NCSYNC_IOC_PROG_WAIT, &pw))
		TH_LOG("PROG_WAIT %u: %s", id, strerror(errno));
	return (int)pw.state;
}

static void status_get(struct __test_metadata *_metadata, int fd, __u32 id,
		       struct ncsync_prog_status *ps)
{
	memset(ps, 0, sizeof(*ps));
	ps->id = id;
	ASSERT_EQ(0, ioctl(fd, NCSYNC_IOC_PROG_STATUS, ps))
		TH_LOG("PROG_STATUS %u: %s", id, strerror(errno));
}

/* Poll until engine @e (submission order) of a running program blocks. */
static void wait_blocked(struct __test_metadata *_metadata, int fd, __u32 id,
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

static int msgq_cb(struct nl_msg *msg, void *arg)
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

static void msgq_free(struct msgq *q)
{
	while (q->head < q->n)
		free(q->m[q->head++]);
	free(q->m);
	memset(q, 0, sizeof(*q));
}

/* A socket connected to generic netlink; NULL on error. */
static struct nl_sock *nl_open(void)
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
static int nl_listen(struct nl_sock *sk, int grp, struct msgq *q, int rcvbuf)
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
static struct nlmsghdr *nl_next(struct nl_sock *sk, struct msgq *q, int ms)
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

static int reply_valid_cb(struct nl_msg *msg, void *arg)
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

static int reply_ack_cb(struct nl_msg *msg, void *arg)
{
	struct reply *r = arg;

	r->done = true;
	return NL_STOP;
}

static int reply_err_cb(struct sockaddr_nl *nla, struct nlmsgerr *e,
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
static struct nl_msg *req_new(int fam, __u8 cmd)
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
static int req_send(struct nl_sock *sk, struct nl_msg *msg, struct reply *r)
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

static void reply_free(struct reply *r)
{
	free(r->msg);
	r->msg = NULL;
}

static int get_core(struct nl_sock *sk, int fam, __u32 core, struct reply *r)
{
	struct nl_msg *msg = req_new(fam, NCSYNC_CMD_GET_CORE);

	nla_put_u32(msg, NCSYNC_A_CORE, core);
	return req_send(sk, msg, r);
}

static int set_notify(struct nl_sock *sk, int fam, __u32 core, __u8 on)
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
static int attr_check(struct __test_metadata *_metadata,
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

static void parse_engine(struct __test_metadata *_metadata,
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

static void parse_prog(struct __test_metadata *_metadata,
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
static void parse_msg(struct __test_metadata *_metadata,
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
static void expect_engine(struct __test_metadata *_metadata,
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
static void expect_prog(struct __test_metadata *_metadata,
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
static bool notify_all_off(FIXTURE_DATA(nl) *self)
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

/* The next notification, parsed; fails if none comes within LONG_MS. */
static void next_ntf(struct __test_metadata *_metadata,
		     FIXTURE_DATA(nl) *self, __u8 cmd, struct ncsync_msg *m)
{
	struct nlmsghdr *nlh = nl_next(self->mon, &self->q, LONG_MS);

	ASSERT_NE(NULL, nlh) TH_LOG("no notification (command %u) came", cmd);
	parse_msg(_metadata, nlh, m);
	free(nlh);
	EXPECT_EQ(NCSYNC_GENL_VERSION, m->version);
	ASSERT_EQ(cmd, m->cmd);
}

/* Nothing arrives on mon within QUIET_MS. */
static void expect_quiet(struct __test_metadata *_metadata,
			 FIXTURE_DATA(nl) *self)
{
	struct nlmsghdr *nlh = nl_next(self->mon, &self->q, QUIET_MS);

	if (nlh) {
		struct genlmsghdr *gh = nlmsg_data(nlh);

		FAIL_LOG("unexpected notification, command %u", gh->cmd);
		free(nlh);
	}
}

/* GET_CORE of @core, which must succeed, parsed. */
static void get_core_ok(struct __test_metadata *_metadata,
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

static void notify_on(struct __test_metadata *_metadata,
		      FIXTURE_DATA(nl) *self, __u32 core, __u8 on)
{
	int ret = set_notify(self->req, self->fam, core, on);

	ASSERT_EQ(0, ret) TH_LOG("SET_NOTIFY %u %u: %d", core, on, ret);
}

static void evt_write(struct __test_metadata *_metadata, int fd,
		      unsigned int i, __u32 v)
{
	ASSERT_EQ(0, pwrite32(fd, EVT(i), v));
}

static __u64 core_seq(struct __test_metadata *_metadata, int fd)
{
	struct ncsync_stats st;

	ASSERT_EQ(0, stats_get(fd, &st));
	return st.seq;
}

/* ---------------------------------------------------------------------- */
/* The family                                                              */

TEST_F(nl, family_version_maxattr_and_group)
{
	struct genl_family *family;
	struct nl_cache *cache;

	ASSERT_EQ(0, genl_ctrl_alloc_cache(self->req, &cache));
	family = genl_ctrl_search_by_name(cache, NCSYNC_GENL_NAME);
	ASSERT_NE(NULL, family);
	EXPECT_EQ(self->fam, (int)genl_family_get_id(family));
	EXPECT_EQ(NCSYNC_GENL_VERSION, (int)genl_family_get_version(family));
	EXPECT_EQ(NCSYNC_A_MAX, (int)genl_family_get_maxattr(family));
	EXPECT_EQ(0, (int)genl_family_get_hdrsize(family));
	genl_family_put(family);
	nl_cache_free(cache);

	EXPECT_GT(0, genl_ctrl_resolve_grp(self->req, NCSYNC_GENL_NAME,
					   "nosuchgroup"));
}

/* ---------------------------------------------------------------------- */
/* GET_CORE                                                                */

TEST_F(nl, get_core_banks_seq_drops_notify)
{
	static const struct { unsigned int i; __s32 v; } sv[] = {
		{ 0, 1 }, { 3, 7 }, { 100, -5 }, { 200, INT_MAX },
		{ 255, INT_MIN },
	};
	static const unsigned int ev[] = { 0, 9, 128, 255 };
	__s32 sems[NCSYNC_NUM_SEMS] = { 0 };
	__u8 bits[NCSYNC_NUM_EVENTS / 8] = { 0 };
	struct ncsync_info info;
	struct ncsync_stats st;
	struct ncsync_msg m;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(sv); i++) {
		ASSERT_EQ(0, pwrite32(self->fd, SEM_SET(sv[i].i), sv[i].v));
		sems[sv[i].i] = sv[i].v;
	}
	for (i = 0; i < ARRAY_SIZE(ev); i++) {
		evt_write(_metadata, self->fd, ev[i], 1);
		bits[ev[i] / 8] |= 1 << (ev[i] % 8);
	}
	ASSERT_EQ(0, stats_get(self->fd, &st));

	ASSERT_EQ(0, ioctl(self->fd, NCSYNC_IOC_INFO, &info));

	get_core_ok(_metadata, self, 0, &m);
	EXPECT_EQ(GET_CORE_ATTRS, m.present);
	EXPECT_EQ(info.lnc, m.lnc);
	EXPECT_EQ(0, m.nprogs);
	EXPECT_EQ(0, memcmp(sems, m.sems, sizeof(sems)));
	for (i = 0; i < NCSYNC_NUM_SEMS; i++)
		EXPECT_EQ(sems[i], m.sems[i]) TH_LOG("semaphore %u", i);
	EXPECT_EQ(0, memcmp(bits, m.events, sizeof(bits)));
	EXPECT_EQ(st.seq, m.seq);
	EXPECT_EQ(st.notify_drops, m.drops);
	EXPECT_EQ(0, m.notify);

	/* the reply follows the banks */
	evt_write(_metadata, self->fd, 9, 0);
	bits[1] &= ~(1 << 1);
	get_core_ok(_metadata, self, 0, &m);
	EXPECT_EQ(0, memcmp(bits, m.events, sizeof(bits)));
	EXPECT_EQ(st.seq + 1, m.seq);
}

TEST_F(nl, get_core_other_core)
{
	char path[32];
	struct ncsync_msg m0, m1;
	int fd1;

	if (self->ncores < 2)
		SKIP(return, "one core (load with cores=2 or more)");
	snprintf(path, sizeof(path), DEV_FMT, 1);
	fd1 = open(path, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, fd1);
	ASSERT_EQ(0, ioctl(fd1, NCSYNC_IOC_RESET, &(struct ncsync_reset){ 0 }));
	ASSERT_EQ(0, pwrite32(fd1, SEM_SET(17), 1234));
	ASSERT_EQ(0, pwrite32(fd1, EVT(33), 1));
	ASSERT_EQ(0, pwrite32(self->fd, SEM_SET(17), 99));

	get_core_ok(_metadata, self, 1, &m1);
	EXPECT_EQ(1234, m1.sems[17]);
	EXPECT_EQ(1 << 1, m1.events[4]);
	EXPECT_EQ(core_seq(_metadata, fd1), m1.seq);
	get_core_ok(_metadata, self, 0, &m0);
	EXPECT_EQ(99, m0.sems[17]);
	EXPECT_EQ(0, m0.events[4]);
	ASSERT_EQ(0, ioctl(fd1, NCSYNC_IOC_RESET, &(struct ncsync_reset){ 0 }));
	close(fd1);
}

/* A blocked program shows in GET_CORE with its engines; an ended one not. */
TEST_F(nl, get_core_lists_running_program)
{
	const int s = 40;
	struct ncsync_prog_status ps;
	struct rec_prog p = {};
	struct ncsync_msg m;
	struct rec_queue *q;
	__s64 end;
	__u32 id;

	q = rec_prog_queue(&p, NCSYNC_ENGINE_POOL);
	rec_noop(q, W_EQ, s, 0, 0, 1);
	rec_exit(q);
	rec_exit(rec_prog_queue(&p, NCSYNC_ENGINE_SP));
	id = submit_ok(_metadata, self->fd, &p, 0, WD_LONG);
	wait_blocked(_metadata, self->fd, id, 0);
	/* the SP queue ends at once; wait for it */
	end = now_ns() + LONG_MS * NSEC_PER_MSEC;
	for (;;) {
		status_get(_metadata, self->fd, id, &ps);
		if (ps.engines[1].state == NCSYNC_ENG_DONE)
			break;
		ASSERT_GT(end, now_ns()) TH_LOG("SP never exited");
		usleep(1000);
	}

	get_core_ok(_metadata, self, 0, &m);
	EXPECT_EQ(GET_CORE_ATTRS | BIT_A(NCSYNC_A_PROG), m.present);
	ASSERT_EQ(1, m.nprogs);
	status_get(_metadata, self->fd, id, &ps);
	EXPECT_EQ(NCSYNC_PROG_RUNNING, (int)ps.state);
	expect_prog(_metadata, &m.progs[0], &ps);
	ASSERT_EQ(2, m.progs[0].neng);
	EXPECT_EQ(NCSYNC_ENGINE_POOL, m.progs[0].eng[0].id);
	EXPECT_EQ(NCSYNC_ENG_BLOCKED, m.progs[0].eng[0].state);
	EXPECT_EQ(NCSYNC_BLOCK_SEM, m.progs[0].eng[0].kind);
	EXPECT_EQ(W_EQ, m.progs[0].eng[0].mode);
	EXPECT_EQ(s, m.progs[0].eng[0].index);
	EXPECT_EQ(1, m.progs[0].eng[0].threshold);
	EXPECT_EQ(0, m.progs[0].eng[0].current);
	EXPECT_EQ(NCSYNC_ENGINE_SP, m.progs[0].eng[1].id);
	EXPECT_EQ(NCSYNC_ENG_DONE, m.progs[0].eng[1].state);

	ASSERT_EQ(0, pwrite32(self->fd, SEM_SET(s), 1));
	ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->fd, id));
	get_core_ok(_metadata, self, 0, &m);
	EXPECT_EQ(GET_CORE_ATTRS, m.present);
	EXPECT_EQ(0, m.nprogs);
	rec_prog_free(&p);
}

TEST_F(nl, get_core_without_core_einval)
{
	struct reply r;

	EXPECT_EQ(-EINVAL, req_send(self->req,
				    req_new(self->fam, NCSYNC_CMD_GET_CORE),
				    &r));
	EXPECT_EQ(NCSYNC_A_CORE, r.miss_type) TH_LOG("extack: %s", r.extack);
	EXPECT_EQ(NULL, r.msg);
	reply_free(&r);
}

TEST_F(nl, get_core_out_of_range_enodev)
{
	const __u32 bad[] = { self->ncores, 64, UINT_MAX };
	struct reply r;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		EXPECT_EQ(-ENODEV, get_core(self->req, self->fam, bad[i], &r))
			TH_LOG("core %u", bad[i]);
		EXPECT_STREQ("no such core", r.extack);
		EXPECT_EQ(NULL, r.msg);
		reply_free(&r);
	}
}

/* Strict validation: an attribute GET_CORE does not take is refused. */
TEST_F(nl, get_core_unknown_attribute_einval)
{
	const int extra[] = { NCSYNC_A_NOTIFY, NCSYNC_A_EVENT, NCSYNC_A_PAD,
			      NCSYNC_A_MAX + 1, 1000 };
	struct nl_msg *msg;
	struct reply r;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(extra); i++) {
		msg = req_new(self->fam, NCSYNC_CMD_GET_CORE);
		nla_put_u32(msg, NCSYNC_A_CORE, 0);
		nla_put_u32(msg, extra[i], 0);
		EXPECT_EQ(-EINVAL, req_send(self->req, msg, &r))
			TH_LOG("attribute %d: extack \"%s\"", extra[i],
			       r.extack);
		EXPECT_EQ(NULL, r.msg);
		reply_free(&r);
	}
}

/* Strict validation: NCSYNC_A_CORE must be exactly a u32. */
TEST_F(nl, get_core_wrong_width_einval)
{
	struct nl_msg *msg;
	struct reply r;

	msg = req_new(self->fam, NCSYNC_CMD_GET_CORE);
	nla_put_u16(msg, NCSYNC_A_CORE, 0);
	EXPECT_EQ(-EINVAL, req_send(self->req, msg, &r))
		TH_LOG("u16 core: extack \"%s\"", r.extack);
	EXPECT_EQ(NULL, r.msg);
	reply_free(&r);

	msg = req_new(self->fam, NCSYNC_CMD_GET_CORE);
	nla_put_u64(msg, NCSYNC_A_CORE, 0);
	EXPECT_EQ(-EINVAL, req_send(self->req, msg, &r))
		TH_LOG("u64 core: extack \"%s\"", r.extack);
	reply_free(&r);
}

/*
 * The notification commands and unknown ones (0, which the generated
 * enum ncsync_genl_cmd does not name, among them) are not requests.
 */
TEST_F(nl, notification_commands_not_requests_eopnotsupp)
{
	const __u8 cmds[] = { 0, NCSYNC_CMD_EVENT_NTF,
			      NCSYNC_CMD_PROG_NTF, NCSYNC_CMD_FAULT_NTF,
			      NCSYNC_CMD_MAX + 1, 255 };
	struct nl_msg *msg;
	struct reply r;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cmds); i++) {
		msg = req_new(self->fam, cmds[i]);
		nla_put_u32(msg, NCSYNC_A_CORE, 0);
		EXPECT_EQ(-EOPNOTSUPP, req_send(self->req, msg, &r))
			TH_LOG("command %u", cmds[i]);
		reply_free(&r);
	}
}

/* ---------------------------------------------------------------------- */
/* SET_NOTIFY                                                              */

TEST_F(nl, set_notify_shows_in_get_core)
{
	struct ncsync_msg m;

	notify_on(_metadata, self, 0, 1);
	get_core_ok(_metadata, self, 0, &m);
	EXPECT_EQ(1, m.notify);
	if (self->ncores > 1) {
		get_core_ok(_metadata, self, 1, &m);
		EXPECT_EQ(0, m.notify);
	}
	notify_on(_metadata, self, 0, 0);
	get_core_ok(_metadata, self, 0, &m);
	EXPECT_EQ(0, m.notify);
}

TEST_F(nl, set_notify_errors)
{
	struct nl_msg *msg;
	struct reply r;

	/* no NCSYNC_A_NOTIFY */
	msg = req_new(self->fam, NCSYNC_CMD_SET_NOTIFY);
	nla_put_u32(msg, NCSYNC_A_CORE, 0);
	EXPECT_EQ(-EINVAL, req_send(self->req, msg, &r));
	EXPECT_EQ(NCSYNC_A_NOTIFY, r.miss_type);
	reply_free(&r);

	/* no NCSYNC_A_CORE */
	msg = req_new(self->fam, NCSYNC_CMD_SET_NOTIFY);
	nla_put_u8(msg, NCSYNC_A_NOTIFY, 1);
	EXPECT_EQ(-EINVAL, req_send(self->req, msg, &r));
	EXPECT_EQ(NCSYNC_A_CORE, r.miss_type);
	reply_free(&r);

	/* no such core */
	msg = req_new(self->fam, NCSYNC_CMD_SET_NOTIFY);
	nla_put_u32(msg, NCSYNC_A_CORE, self->ncores);
	nla_put_u8(msg, NCSYNC_A_NOTIFY, 1);
	EXPECT_EQ(-ENODEV, req_send(self->req, msg, &r));
	EXPECT_STREQ("no such core", r.extack);
	reply_free(&r);

	/* NCSYNC_A_NOTIFY above 1: the policy's range check */
	msg = req_new(self->fam, NCSYNC_CMD_SET_NOTIFY);
	nla_put_u32(msg, NCSYNC_A_CORE, 0);
	nla_put_u8(msg, NCSYNC_A_NOTIFY, 2);
	EXPECT_EQ(-ERANGE, req_send(self->req, msg, &r))
		TH_LOG("notify 2: extack \"%s\"", r.extack);
	reply_free(&r);

	/* NCSYNC_A_NOTIFY as a u32 */
	msg = req_new(self->fam, NCSYNC_CMD_SET_NOTIFY);
	nla_put_u32(msg, NCSYNC_A_CORE, 0);
	nla_put_u32(msg, NCSYNC_A_NOTIFY, 1);
	EXPECT_EQ(-EINVAL, req_send(self->req, msg, &r))
		TH_LOG("u32 notify: extack \"%s\"", r.extack);
	reply_free(&r);

	/* an attribute SET_NOTIFY does not take */
	msg = req_new(self->fam, NCSYNC_CMD_SET_NOTIFY);
	nla_put_u32(msg, NCSYNC_A_CORE, 0);
	nla_put_u8(msg, NCSYNC_A_NOTIFY, 1);
	nla_put_u32(msg, NCSYNC_A_EVENT, 1);
	EXPECT_EQ(-EINVAL, req_send(self->req, msg, &r));
	reply_free(&r);

	/* none of them changed anything */
	{
		struct ncsync_msg m;

		get_core_ok(_metadata, self, 0, &m);
		EXPECT_EQ(0, m.notify);
	}
}

/* ---------------------------------------------------------------------- */
/* EVENT_NTF                                                               */

TEST_F(nl, event_set_and_clear_notify)
{
	struct ncsync_msg m;
	__u64 seq;

	notify_on(_metadata, self, 0, 1);
	evt_write(_metadata, self->fd, 7, 1);
	seq = core_seq(_metadata, self->fd);
	next_ntf(_metadata, self, NCSYNC_CMD_EVENT_NTF, &m);
	EXPECT_EQ(EVENT_NTF_ATTRS, m.present);
	EXPECT_EQ(0, m.core);
	EXPECT_EQ(7, m.event);
	EXPECT_EQ(1, m.event_state);
	EXPECT_EQ(seq, m.seq);

	evt_write(_metadata, self->fd, 7, 0);
	next_ntf(_metadata, self, NCSYNC_CMD_EVENT_NTF, &m);
	EXPECT_EQ(EVENT_NTF_ATTRS, m.present);
	EXPECT_EQ(7, m.event);
	EXPECT_EQ(0, m.event_state);
	EXPECT_EQ(seq + 1, m.seq);
	EXPECT_EQ(seq + 1, core_seq(_metadata, self->fd));

	/* every write counts, even one that changes nothing */
	evt_write(_metadata, self->fd, 7, 0);
	next_ntf(_metadata, self, NCSYNC_CMD_EVENT_NTF, &m);
	EXPECT_EQ(7, m.event);
	EXPECT_EQ(0, m.event_state);
	EXPECT_EQ(seq + 2, m.seq);

	/* semaphore writes are not notified */
	ASSERT_EQ(0, pwrite32(self->fd, SEM_SET(7), 5));
	expect_quiet(_metadata, self);
}

/* A pwrite of several registers: one notification each, in order. */
TEST_F(nl, event_range_write_notifies_each)
{
	__u32 v[8] = { 1, 0, 1, 1, 0, 0, 1, 0 };
	struct ncsync_msg m;
	unsigned int i;
	__u64 seq;

	notify_on(_metadata, self, 0, 1);
	seq = core_seq(_metadata, self->fd);
	ASSERT_EQ((ssize_t)sizeof(v), pwrite(self->fd, v, sizeof(v), EVT(248)));
	for (i = 0; i < 8; i++) {
		next_ntf(_metadata, self, NCSYNC_CMD_EVENT_NTF, &m);
		EXPECT_EQ((int)(248 + i), m.event);
		EXPECT_EQ(v[i], m.event_state);
		EXPECT_EQ(seq + 1 + i, m.seq);
	}
	expect_quiet(_metadata, self);
}

/* The ioctls and the engines write events too. */
TEST_F(nl, event_notify_from_ioctl_and_program)
{
	struct ncsync_op op = {
		.bank = NCSYNC_BANK_EVENT, .op = NCSYNC_OP_SET, .index = 20,
	};
	struct ncsync_msg m;
	struct rec_prog p = {};
	__u32 id;

	notify_on(_metadata, self, 0, 1);
	ASSERT_EQ(0, ioctl(self->fd, NCSYNC_IOC_OP, &op));
	next_ntf(_metadata, self, NCSYNC_CMD_EVENT_NTF, &m);
	EXPECT_EQ(20, m.event);
	EXPECT_EQ(1, m.event_state);
	EXPECT_EQ(core_seq(_metadata, self->fd), m.seq);

	/* a NoOp setting event 21 on Pool */
	rec_noop(rec_prog_queue(&p, NCSYNC_ENGINE_POOL), 0, 0, U_EVT_SET, 21,
		 0);
	id = submit_ok(_metadata, self->fd, &p, 0, WD_LONG);
	ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->fd, id));
	next_ntf(_metadata, self, NCSYNC_CMD_EVENT_NTF, &m);
	EXPECT_EQ(21, m.event);
	EXPECT_EQ(1, m.event_state);
	next_ntf(_metadata, self, NCSYNC_CMD_PROG_NTF, &m);
	EXPECT_EQ(id, m.progs[0].id);
	expect_quiet(_metadata, self);
	rec_prog_free(&p);
}

TEST_F(nl, no_event_notify_while_disabled)
{
	struct ncsync_msg m;

	/* never enabled */
	evt_write(_metadata, self->fd, 3, 1);
	expect_quiet(_metadata, self);

	/* enabled, then disabled again */
	notify_on(_metadata, self, 0, 1);
	evt_write(_metadata, self->fd, 3, 0);
	next_ntf(_metadata, self, NCSYNC_CMD_EVENT_NTF, &m);
	EXPECT_EQ(3, m.event);
	notify_on(_metadata, self, 0, 0);
	evt_write(_metadata, self->fd, 3, 1);
	evt_write(_metadata, self->fd, 4, 1);
	expect_quiet(_metadata, self);
}

TEST_F(nl, event_notify_carries_its_core)
{
	struct ncsync_msg m;
	char path[32];
	int fd1;

	if (self->ncores < 2)
		SKIP(return, "one core (load with cores=2 or more)");
	snprintf(path, sizeof(path), DEV_FMT, 1);
	fd1 = open(path, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, fd1);

	/* enabled on core 1 only: core 0's write is not notified */
	notify_on(_metadata, self, 1, 1);
	evt_write(_metadata, self->fd, 5, 1);
	evt_write(_metadata, fd1, 6, 1);
	next_ntf(_metadata, self, NCSYNC_CMD_EVENT_NTF, &m);
	EXPECT_EQ(1, m.core);
	EXPECT_EQ(6, m.event);
	EXPECT_EQ(core_seq(_metadata, fd1), m.seq);
	expect_quiet(_metadata, self);

	/* enabled on both */
	notify_on(_metadata, self, 0, 1);
	evt_write(_metadata, self->fd, 5, 0);
	next_ntf(_metadata, self, NCSYNC_CMD_EVENT_NTF, &m);
	EXPECT_EQ(0, m.core);
	EXPECT_EQ(5, m.event);
	EXPECT_EQ(0, m.event_state);
	evt_write(_metadata, fd1, 6, 0);
	next_ntf(_metadata, self, NCSYNC_CMD_EVENT_NTF, &m);
	EXPECT_EQ(1, m.core);
	EXPECT_EQ(6, m.event);
	EXPECT_EQ(0, m.event_state);
	close(fd1);
}

/* ---------------------------------------------------------------------- */
/* PROG_NTF and FAULT_NTF                                                  */

/* One Exit record on Pool; notified whether or not events are. */
TEST_F(nl, prog_end_notify)
{
	struct ncsync_prog_status ps;
	struct ncsync_msg m;
	struct rec_prog p = {};
	__u32 id;

	rec_exit(rec_prog_queue(&p, NCSYNC_ENGINE_POOL));
	id = submit_ok(_metadata, self->fd, &p, 0, WD_LONG);
	ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->fd, id));

	next_ntf(_metadata, self, NCSYNC_CMD_PROG_NTF, &m);
	EXPECT_EQ(PROG_NTF_ATTRS, m.present);
	EXPECT_EQ(0, m.core);
	ASSERT_EQ(1, m.nprogs);
	EXPECT_EQ(id, m.progs[0].id);
	EXPECT_EQ(NCSYNC_PROG_DONE, m.progs[0].state);
	EXPECT_EQ((__u32)getpid(), m.progs[0].pid);
	ASSERT_EQ(1, m.progs[0].neng);
	EXPECT_EQ(ENG_ATTRS, m.progs[0].eng[0].present);
	EXPECT_EQ(NCSYNC_ENGINE_POOL, m.progs[0].eng[0].id);
	EXPECT_EQ(NCSYNC_ENG_DONE, m.progs[0].eng[0].state);
	EXPECT_EQ(NCSYNC_FAULT_NONE, m.progs[0].eng[0].fault);
	EXPECT_EQ(0, (int)m.progs[0].eng[0].pc);
	status_get(_metadata, self->fd, id, &ps);
	expect_prog(_metadata, &m.progs[0], &ps);
	/* exactly one notification per program */
	expect_quiet(_metadata, self);
	rec_prog_free(&p);
}

/* A cancelled program is an end, not a fault. */
TEST_F(nl, prog_cancel_notify)
{
	struct ncsync_prog_cancel pc = { 0 };
	struct ncsync_prog_status ps;
	struct ncsync_msg m;
	struct rec_prog p = {};
	__u32 id;

	rec_noop(rec_prog_queue(&p, NCSYNC_ENGINE_ACT), W_EQ, 41, 0, 0, 1);
	id = submit_ok(_metadata, self->fd, &p, 0, WD_LONG);
	wait_blocked(_metadata, self->fd, id, 0);
	pc.id = id;
	ASSERT_EQ(0, ioctl(self->fd, NCSYNC_IOC_PROG_CANCEL, &pc));
	ASSERT_EQ(NCSYNC_PROG_CANCELLED, wait_end(_metadata, self->fd, id));

	next_ntf(_metadata, self, NCSYNC_CMD_PROG_NTF, &m);
	EXPECT_EQ(PROG_NTF_ATTRS, m.present);
	ASSERT_EQ(1, m.nprogs);
	EXPECT_EQ(id, m.progs[0].id);
	EXPECT_EQ(NCSYNC_PROG_CANCELLED, m.progs[0].state);
	status_get(_metadata, self->fd, id, &ps);
	expect_prog(_metadata, &m.progs[0], &ps);
	expect_quiet(_metadata, self);
	rec_prog_free(&p);
}

/* Two engines each wait for what the other posts: the watchdog fires. */
TEST_F(nl, watchdog_fault_notify)
{
	const int a = 150, b = 151;
	struct ncsync_prog_status ps;
	struct ncsync_msg m;
	struct rec_prog p = {};
	const struct eng_nl *e;
	unsigned int i;
	__u32 id;

	ASSERT_EQ(0, pwrite32(self->fd, SEM_SET(152), 42));
	ASSERT_EQ(0, pwrite32(self->fd, SEM_SET(200), -7));
	rec_wait_then_inc(rec_prog_queue(&p, NCSYNC_ENGINE_PE), W_GE, a, 1, b);
	rec_noop(rec_prog_queue(&p, NCSYNC_ENGINE_DVE), W_EQ, b, U_INC, a, 1);
	id = submit_ok(_metadata, self->fd, &p, 0, WD_SHORT);
	ASSERT_EQ(NCSYNC_PROG_TIMED_OUT, wait_end(_metadata, self->fd, id));

	next_ntf(_metadata, self, NCSYNC_CMD_FAULT_NTF, &m);
	EXPECT_EQ(FAULT_NTF_ATTRS, m.present);
	EXPECT_EQ(0, m.core);
	ASSERT_EQ(1, m.nprogs);
	EXPECT_EQ(id, m.progs[0].id);
	EXPECT_EQ(NCSYNC_PROG_TIMED_OUT, m.progs[0].state);
	EXPECT_EQ((__u32)getpid(), m.progs[0].pid);
	ASSERT_EQ(2, m.progs[0].neng);

	e = &m.progs[0].eng[0];
	EXPECT_EQ(ENG_WAIT_ATTRS, e->present);
	EXPECT_EQ(NCSYNC_ENGINE_PE, e->id);
	EXPECT_EQ(NCSYNC_ENG_BLOCKED, e->state);
	EXPECT_EQ(NCSYNC_BLOCK_SEM, e->kind);
	EXPECT_EQ(W_GE, e->mode);
	EXPECT_EQ(a, e->index);
	EXPECT_EQ(1, e->threshold);
	EXPECT_EQ(0, e->current);
	EXPECT_EQ(0, (int)e->pc);
	e = &m.progs[0].eng[1];
	EXPECT_EQ(ENG_WAIT_ATTRS, e->present);
	EXPECT_EQ(NCSYNC_ENGINE_DVE, e->id);
	EXPECT_EQ(NCSYNC_ENG_BLOCKED, e->state);
	EXPECT_EQ(NCSYNC_BLOCK_SEM, e->kind);
	EXPECT_EQ(W_EQ, e->mode);
	EXPECT_EQ(b, e->index);
	EXPECT_EQ(1, e->threshold);
	EXPECT_EQ(0, e->current);

	/* the snapshot's semaphores, as the full bank */
	for (i = 0; i < NCSYNC_NUM_SEMS; i++)
		EXPECT_EQ(i == 152 ? 42 : i == 200 ? -7 : 0, m.sems[i])
			TH_LOG("semaphore %u", i);

	status_get(_metadata, self->fd, id, &ps);
	expect_prog(_metadata, &m.progs[0], &ps);
	expect_quiet(_metadata, self);
	rec_prog_free(&p);
}

/* A strict-mode fault: setting a set event. */
TEST_F(nl, strict_fault_notify)
{
	const int e = 60;
	struct ncsync_prog_status ps;
	struct ncsync_msg m;
	struct rec_prog p = {};
	__u32 id;

	evt_write(_metadata, self->fd, e, 1);
	ASSERT_EQ(0, pwrite32(self->fd, SEM_SET(9), 3));
	rec_noop(rec_prog_queue(&p, NCSYNC_ENGINE_ACT), 0, 0, U_EVT_SET, e, 0);
	id = submit_ok(_metadata, self->fd, &p, NCSYNC_SUBMIT_F_STRICT,
		       WD_LONG);
	ASSERT_EQ(NCSYNC_PROG_FAULTED, wait_end(_metadata, self->fd, id));

	next_ntf(_metadata, self, NCSYNC_CMD_FAULT_NTF, &m);
	EXPECT_EQ(FAULT_NTF_ATTRS, m.present);
	ASSERT_EQ(1, m.nprogs);
	EXPECT_EQ(id, m.progs[0].id);
	EXPECT_EQ(NCSYNC_PROG_FAULTED, m.progs[0].state);
	ASSERT_EQ(1, m.progs[0].neng);
	EXPECT_EQ(NCSYNC_ENGINE_ACT, m.progs[0].eng[0].id);
	EXPECT_EQ(NCSYNC_ENG_FAULTED, m.progs[0].eng[0].state);
	EXPECT_EQ(NCSYNC_FAULT_EVENT_SET_WHILE_SET, m.progs[0].eng[0].fault);
	EXPECT_EQ(3, m.sems[9]);
	status_get(_metadata, self->fd, id, &ps);
	expect_prog(_metadata, &m.progs[0], &ps);
	expect_quiet(_metadata, self);
	rec_prog_free(&p);
}

/* ---------------------------------------------------------------------- */
/* Who may do what                                                         */

/* Remove @cap from the effective, permitted and inheritable sets. */
static int cap_drop(int cap)
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

static int wait_child(pid_t pid)
{
	int status;

	if (waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/*
 * Without CAP_NET_ADMIN: GET_CORE and SET_NOTIFY are refused, whether the
 * socket was opened before or after the drop.
 */
TEST_F(nl, admin_commands_need_cap_net_admin)
{
	struct child_res res = { 0 };
	struct ncsync_msg m;
	int pfd[2];
	pid_t pid;

	ASSERT_EQ(0, pipe(pfd));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		struct nl_sock *early = nl_open(), *sk = NULL;
		struct reply r;

		close(pfd[0]);
		if (!early)
			res.step = 1;
		else if (cap_drop(CAP_NET_ADMIN))
			res.step = 2;
		else
			sk = nl_open();
		if (!res.step && !sk)
			res.step = 3;
		if (!res.step) {
			res.get_core = get_core(sk, self->fam, 0, &r);
			reply_free(&r);
			res.set_notify = set_notify(sk, self->fam, 0, 1);
			res.set_notify_early = set_notify(early, self->fam, 0,
							  1);
		}
		if (write(pfd[1], &res, sizeof(res)) != sizeof(res))
			_exit(2);
		_exit(0);
	}
	close(pfd[1]);
	ASSERT_EQ((ssize_t)sizeof(res), read(pfd[0], &res, sizeof(res)));
	close(pfd[0]);
	ASSERT_EQ(0, wait_child(pid));
	ASSERT_EQ(0, res.step);
	EXPECT_EQ(-EPERM, res.get_core);
	EXPECT_EQ(-EPERM, res.set_notify);
	EXPECT_EQ(-EPERM, res.set_notify_early);

	get_core_ok(_metadata, self, 0, &m);
	EXPECT_EQ(0, m.notify);
}

/*
 * An unprivileged user (nobody, no capability) can neither read a core's
 * state, nor switch notifications, nor join the notify group: the device
 * nodes are not theirs either.
 */
TEST_F(nl, unprivileged_user_refused)
{
	struct child_res res = { 0 };
	int pfd[2];
	pid_t pid;

	ASSERT_EQ(0, pipe(pfd));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		struct nl_sock *sk, *lsk;
		struct reply r;
		int grp = self->grp;

		close(pfd[0]);
		if (prctl(PR_SET_KEEPCAPS, 0) || setgroups(0, NULL) ||
		    setgid(NOBODY) || setuid(NOBODY)) {
			res.step = 1;
			goto out;
		}
		sk = nl_open();
		lsk = nl_open();
		if (!sk || !lsk) {
			res.step = 2;
			goto out;
		}
		res.get_core = get_core(sk, self->fam, 0, &r);
		reply_free(&r);
		res.set_notify = set_notify(sk, self->fam, 0, 1);
		res.ntf_cmd = setsockopt(nl_socket_get_fd(lsk), SOL_NETLINK,
					 NETLINK_ADD_MEMBERSHIP, &grp,
					 sizeof(grp)) ? -errno : 0;
out:
		if (write(pfd[1], &res, sizeof(res)) != sizeof(res))
			_exit(2);
		_exit(0);
	}
	close(pfd[1]);
	ASSERT_EQ((ssize_t)sizeof(res), read(pfd[0], &res, sizeof(res)));
	close(pfd[0]);
	ASSERT_EQ(0, wait_child(pid));
	ASSERT_EQ(0, res.step);
	EXPECT_EQ(-EPERM, res.get_core);
	EXPECT_EQ(-EPERM, res.set_notify);
	EXPECT_EQ(-EPERM, res.ntf_cmd);	/* joining the notify group */
}

/* ---------------------------------------------------------------------- */
/* Drops                                                                   */

/*
 * Read the drop counter through NCSYNC_IOC_STATS and NCSYNC_A_DROPS once
 * the worker is idle: both agree, and are stable across 100 ms.
 */
static __u64 drops_settled(struct __test_metadata *_metadata,
			   FIXTURE_DATA(nl) *self)
{
	__s64 end = now_ns() + LONG_MS * NSEC_PER_MSEC;
	struct ncsync_stats a, b;
	struct ncsync_msg m;

	for (;;) {
		ASSERT_EQ(0, stats_get(self->fd, &a));
		get_core_ok(_metadata, self, 0, &m);
		usleep(100 * 1000);
		ASSERT_EQ(0, stats_get(self->fd, &b));
		if (a.notify_drops == b.notify_drops &&
		    m.drops == a.notify_drops)
			return a.notify_drops;
		ASSERT_GT(end, now_ns())
			TH_LOG("drops never settled: %llu %llu %llu",
			       (unsigned long long)a.notify_drops,
			       (unsigned long long)m.drops,
			       (unsigned long long)b.notify_drops);
	}
}

/* Receive @n EVENT_NTF of core 0 and check their sequence numbers follow. */
static void expect_event_run(struct __test_metadata *_metadata,
			     FIXTURE_DATA(nl) *self, unsigned int n,
			     __u64 seq0)
{
	struct ncsync_msg m;
	unsigned int i;

	for (i = 0; i < n; i++) {
		next_ntf(_metadata, self, NCSYNC_CMD_EVENT_NTF, &m);
		ASSERT_EQ(seq0 + 1 + i, m.seq) TH_LOG("notification %u", i);
		ASSERT_EQ((int)(i % NCSYNC_NUM_EVENTS), m.event);
	}
}

/*
 * 1024 event writes in one NCSYNC_IOC_BATCH, under the core's lock: the
 * worker (bound to this CPU, queued by the first write) cannot run before
 * the lock is dropped, so the 256-entry FIFO takes the first 256 writes and
 * the other 768 are dropped, every time.
 */
TEST_F(nl, fifo_overflow_drops_counted)
{
	struct ncsync_op ops[NCSYNC_MAX_BATCH];
	struct ncsync_batch b = {
		.ops = (uintptr_t)ops, .count = NCSYNC_MAX_BATCH,
	};
	__u64 d0, seq0;
	unsigned int i;

	for (i = 0; i < NCSYNC_MAX_BATCH; i++) {
		memset(&ops[i], 0, sizeof(ops[i]));
		ops[i].bank = NCSYNC_BANK_EVENT;
		ops[i].op = (i / NCSYNC_NUM_EVENTS) % 2 ? NCSYNC_OP_CLEAR :
							   NCSYNC_OP_SET;
		ops[i].index = i % NCSYNC_NUM_EVENTS;
	}
	d0 = drops_settled(_metadata, self);
	seq0 = core_seq(_metadata, self->fd);
	notify_on(_metadata, self, 0, 1);
	ASSERT_EQ(0, ioctl(self->fd, NCSYNC_IOC_BATCH, &b));
	EXPECT_EQ(seq0 + NCSYNC_MAX_BATCH, core_seq(_metadata, self->fd));

	expect_event_run(_metadata, self, NCSYNC_NUM_EVENTS, seq0);
	expect_quiet(_metadata, self);
	EXPECT_EQ(d0 + NCSYNC_MAX_BATCH - NCSYNC_NUM_EVENTS,
		  drops_settled(_metadata, self));
}

/*
 * The same with four pwrite()s of the whole event window (256 writes
 * each), from a SCHED_FIFO thread pinned to its CPU: the worker, bound to
 * that CPU too, cannot run between them, so again 768 are dropped.
 */
TEST_F(nl, fifo_overflow_pwrite_burst)
{
	__u32 win[4][NCSYNC_NUM_EVENTS];
	struct sched_param sp = { .sched_priority = 1 };
	struct sched_param sp0 = { 0 };
	cpu_set_t set;
	__u64 d0, seq0;
	unsigned int k, i;
	int ret = 0;

	for (k = 0; k < 4; k++)
		for (i = 0; i < NCSYNC_NUM_EVENTS; i++)
			win[k][i] = !(k % 2);
	d0 = drops_settled(_metadata, self);
	seq0 = core_seq(_metadata, self->fd);
	notify_on(_metadata, self, 0, 1);

	CPU_ZERO(&set);
	CPU_SET(sched_getcpu(), &set);
	ASSERT_EQ(0, sched_setaffinity(0, sizeof(set), &set));
	if (sched_setscheduler(0, SCHED_FIFO, &sp))
		SKIP(return, "SCHED_FIFO: %s", strerror(errno));
	for (k = 0; k < 4 && !ret; k++)
		if (pwrite(self->fd, win[k], sizeof(win[k]), EVT(0)) !=
		    sizeof(win[k]))
			ret = -errno;
	ASSERT_EQ(0, sched_setscheduler(0, SCHED_OTHER, &sp0));
	ASSERT_EQ(0, ret) TH_LOG("pwrite: %s", strerror(-ret));
	EXPECT_EQ(seq0 + 4 * NCSYNC_NUM_EVENTS, core_seq(_metadata, self->fd));

	expect_event_run(_metadata, self, NCSYNC_NUM_EVENTS, seq0);
	expect_quiet(_metadata, self);
	EXPECT_EQ(d0 + 3 * NCSYNC_NUM_EVENTS, drops_settled(_metadata, self));
}

/*
 * A listener that asked for NETLINK_BROADCAST_ERROR and does not read: each
 * message its full receive buffer refuses is counted as a drop.  The other
 * listener (mon) gets every message.
 */
TEST_F(nl, listener_overflow_drops_counted)
{
	const int n = 64;
	struct nl_sock *slow;
	struct msgq sq = { 0 };
	int got = 0, one = 1, zero = 0, fd, i;
	char buf[8192];
	__u64 d0, seq0;
	ssize_t len;

	slow = nl_open();
	ASSERT_NE(NULL, slow);
	fd = nl_socket_get_fd(slow);
	ASSERT_EQ(0, setsockopt(fd, SOL_NETLINK, NETLINK_BROADCAST_ERROR,
				&one, sizeof(one)));
	ASSERT_EQ(0, setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &zero,
				sizeof(zero)));
	ASSERT_EQ(0, nl_listen(slow, self->grp, &sq, 0));

	d0 = drops_settled(_metadata, self);
	seq0 = core_seq(_metadata, self->fd);
	notify_on(_metadata, self, 0, 1);
	for (i = 0; i < n; i++)
		evt_write(_metadata, self->fd, i, 1);
	expect_event_run(_metadata, self, n, seq0);

	/* what the slow listener got: an ENOBUFS, then what fitted */
	for (;;) {
		len = recv(fd, buf, sizeof(buf), MSG_DONTWAIT);
		if (len < 0 && errno == ENOBUFS)
			continue;
		if (len <= 0)
			break;
		got++;
	}
	EXPECT_LT(0, got);
	EXPECT_GT(n, got);
	EXPECT_EQ(d0 + n - got, drops_settled(_metadata, self))
		TH_LOG("slow listener got %u of %u", got, n);
	nl_socket_free(slow);
	msgq_free(&sq);
}

/* With nobody in the group, nothing is queued and nothing is a drop. */
TEST_F(nl, no_listener_no_drops)
{
	struct ncsync_op ops[NCSYNC_MAX_BATCH];
	struct ncsync_batch b = {
		.ops = (uintptr_t)ops, .count = NCSYNC_MAX_BATCH,
	};
	struct rec_prog p = {};
	unsigned int i;
	__u64 d0;
	__u32 id;

	for (i = 0; i < NCSYNC_MAX_BATCH; i++) {
		memset(&ops[i], 0, sizeof(ops[i]));
		ops[i].bank = NCSYNC_BANK_EVENT;
		ops[i].op = NCSYNC_OP_SET;
		ops[i].index = i % NCSYNC_NUM_EVENTS;
	}
	d0 = drops_settled(_metadata, self);
	notify_on(_metadata, self, 0, 1);
	ASSERT_EQ(0, nl_socket_drop_membership(self->mon, self->grp));
	ASSERT_EQ(0, ioctl(self->fd, NCSYNC_IOC_BATCH, &b));
	rec_exit(rec_prog_queue(&p, NCSYNC_ENGINE_POOL));
	id = submit_ok(_metadata, self->fd, &p, 0, WD_LONG);
	ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->fd, id));
	EXPECT_EQ(d0, drops_settled(_metadata, self));

	/* nothing was kept for later listeners either */
	ASSERT_EQ(0, nl_socket_add_membership(self->mon, self->grp));
	expect_quiet(_metadata, self);
	rec_prog_free(&p);
}

/* ---------------------------------------------------------------------- */
/* Tracepoints and debugfs                                                 */

static const char * const tracepoints[] = {
	"ncsync_exec", "ncsync_wait_begin", "ncsync_wait_end", "ncsync_wake",
	"ncsync_dma_issue", "ncsync_dma_land",
};

FIXTURE(trace) {
	int fd;
	bool enabled;
};

FIXTURE_SETUP(trace)
{
	struct ncsync_reset rst = { 0 };

	self->fd = open(DEV0, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, self->fd) TH_LOG("open %s: %s", DEV0, strerror(errno));
	ASSERT_EQ(0, ioctl(self->fd, NCSYNC_IOC_RESET, &rst));
}

FIXTURE_TEARDOWN(trace)
{
	if (self->enabled) {
		EXPECT_EQ(0, write_file(TRACEFS "/events/ncsync/enable", "0"));
		EXPECT_EQ(0, write_file(TRACEFS "/trace", ""));
	}
	if (self->fd >= 0)
		close(self->fd);
}

TEST_F(trace, tracepoints_exist)
{
	char path[128];
	unsigned int i;

	if (access(TRACEFS "/events", F_OK))
		SKIP(return, "no tracefs at " TRACEFS);
	for (i = 0; i < ARRAY_SIZE(tracepoints); i++) {
		snprintf(path, sizeof(path), TRACEFS "/events/ncsync/%s/format",
			 tracepoints[i]);
		EXPECT_EQ(0, access(path, R_OK)) TH_LOG("%s", path);
	}
}

/* Clear the trace and enable every ncsync event; false: skipped. */
static bool trace_on(struct __test_metadata *_metadata,
		     FIXTURE_DATA(trace) *self)
{
	if (access(TRACEFS "/events/ncsync", F_OK))
		SKIP(return false, "no tracefs at " TRACEFS);
	EXPECT_EQ(0, write_file(TRACEFS "/trace", ""));
	EXPECT_EQ(0, write_file(TRACEFS "/events/ncsync/enable", "1"));
	self->enabled = true;
	return _metadata->passed;
}

/* A program that waits, is woken by a pwrite, then exits. */
TEST_F(trace, tracepoints_record_a_program)
{
	const int s = 70;
	char want[160], *trace;
	struct rec_prog p = {};
	struct rec_queue *q;
	__u32 id;

	if (!trace_on(_metadata, self))
		return;

	q = rec_prog_queue(&p, NCSYNC_ENGINE_POOL);
	rec_noop(q, W_GE, s, 0, 0, 2);
	rec_exit(q);
	id = submit_ok(_metadata, self->fd, &p, 0, WD_LONG);
	wait_blocked(_metadata, self->fd, id, 0);
	ASSERT_EQ(0, pwrite32(self->fd, SEM_SET(s), 3));
	ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->fd, id));
	ASSERT_EQ(0, write_file(TRACEFS "/events/ncsync/enable", "0"));

	trace = read_file(TRACEFS "/trace");
	ASSERT_NE(NULL, trace);
	snprintf(want, sizeof(want),
		 "ncsync_exec: core=0 engine=1 prog=%u pc=0 op=0xa4", id);
	EXPECT_NE(NULL, strstr(trace, want)) TH_LOG("no \"%s\"", want);
	snprintf(want, sizeof(want),
		 "ncsync_exec: core=0 engine=1 prog=%u pc=1 op=0xdf", id);
	EXPECT_NE(NULL, strstr(trace, want)) TH_LOG("no \"%s\"", want);
	snprintf(want, sizeof(want),
		 "ncsync_wait_begin: core=0 engine=1 prog=%u pc=0 kind=1 mode=0x05 index=%d threshold=2 current=0",
		 id, s);
	EXPECT_NE(NULL, strstr(trace, want)) TH_LOG("no \"%s\"", want);
	snprintf(want, sizeof(want),
		 "ncsync_wait_end: core=0 engine=1 prog=%u pc=0 passed=1", id);
	EXPECT_NE(NULL, strstr(trace, want)) TH_LOG("no \"%s\"", want);
	EXPECT_NE(NULL, strstr(trace, "ncsync_wake: core=0 seq="));
	free(trace);

	/* disabled: nothing more is recorded */
	ASSERT_EQ(0, write_file(TRACEFS "/trace", ""));
	rec_prog_free(&p);
	rec_exit(rec_prog_queue(&p, NCSYNC_ENGINE_POOL));
	id = submit_ok(_metadata, self->fd, &p, 0, WD_LONG);
	ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->fd, id));
	trace = read_file(TRACEFS "/trace");
	ASSERT_NE(NULL, trace);
	EXPECT_EQ(NULL, strstr(trace, "ncsync_exec:"));
	free(trace);
	rec_prog_free(&p);
}

/*
 * A copy, issued by pool's record 1 and drained: ncsync_dma_issue names
 * its record, number, size, latency and completion, ncsync_dma_land its
 * landing and the completion applied.
 */
TEST_F(trace, tracepoints_record_a_copy)
{
	const int s = 71;
	char want[200], *trace;
	struct rec_prog p = {};
	struct rec_queue *q;
	__u32 id;

	if (!trace_on(_metadata, self))
		return;

	q = rec_prog_queue(&p, NCSYNC_ENGINE_POOL);
	rec_noop(q, 0, 0, 0, 0, 0);
	rec_dma(q, 0, 0x40, 64, 3, 0x13, s);	/* on_land sem[s]++ */
	rec_drain(q);
	rec_exit(q);
	id = submit_ok(_metadata, self->fd, &p, 0, WD_LONG);
	ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->fd, id));
	ASSERT_EQ(0, write_file(TRACEFS "/events/ncsync/enable", "0"));

	trace = read_file(TRACEFS "/trace");
	ASSERT_NE(NULL, trace);
	snprintf(want, sizeof(want),
		 "ncsync_dma_issue: core=0 engine=1 prog=%u pc=1 copy=0 len=64 latency=3 to=0 upd=1 bank=0 index=%d",
		 id, s);
	EXPECT_NE(NULL, strstr(trace, want)) TH_LOG("no \"%s\"", want);
	snprintf(want, sizeof(want),
		 "ncsync_dma_land: core=0 engine=1 prog=%u copy=0 to=0 landed=1 updated=1",
		 id);
	EXPECT_NE(NULL, strstr(trace, want)) TH_LOG("no \"%s\"", want);
	free(trace);
	rec_prog_free(&p);
}

TEST_F(trace, debugfs_shows_banks)
{
	char *text, want[64];
	int fd1;

	if (access(DEBUGFS_CORE0, R_OK))
		SKIP(return, "no %s (debugfs not mounted?)", DEBUGFS_CORE0);
	ASSERT_EQ(0, pwrite32(self->fd, SEM_SET(17), 12345));
	ASSERT_EQ(0, pwrite32(self->fd, SEM_SET(201), -3));
	ASSERT_EQ(0, pwrite32(self->fd, EVT(9), 1));

	text = read_file(DEBUGFS_CORE0);
	ASSERT_NE(NULL, text);
	EXPECT_EQ(text, strstr(text, "core 0\n"));
	EXPECT_NE(NULL, strstr(text, "semaphores: [17]=12345 [201]=-3\n"))
		TH_LOG("%s", text);
	EXPECT_NE(NULL, strstr(text, "events set: 9\n")) TH_LOG("%s", text);
	snprintf(want, sizeof(want), "seq %llu ",
		 (unsigned long long)core_seq(_metadata, self->fd));
	EXPECT_EQ(text + strlen("core 0\n"), strstr(text, want))
		TH_LOG("%s", text);
	free(text);

	/* core 1's file is its own */
	fd1 = open("/sys/kernel/debug/ncsync/core1", O_RDONLY | O_CLOEXEC);
	if (fd1 >= 0) {
		close(fd1);
		text = read_file("/sys/kernel/debug/ncsync/core1");
		ASSERT_NE(NULL, text);
		EXPECT_EQ(text, strstr(text, "core 1\n"));
		EXPECT_EQ(NULL, strstr(text, "[17]=12345"));
		free(text);
	}
}

/*
 * GET_CORE with more programs than fit one message: the reply still comes,
 * lists the programs that fit, in order, and carries NCSYNC_A_TRUNCATED.
 */
TEST_F(nl, get_core_many_programs_truncated)
{
	static const __u8 e[] = { 1, 2, 3, 5, 6 };
	const int s = 90, nq = 40;
	struct ncsync_msg m;
	struct rec_prog p = {};
	struct reply r;
	unsigned int k;
	int i, ret;
	__u32 id0;

	for (k = 0; k < NCSYNC_NUM_ENGINES; k++)
		rec_noop(rec_prog_queue(&p, e[k]), W_EQ, s, 0, 0, 1);
	id0 = submit_ok(_metadata, self->fd, &p, 0, WD_LONG);
	wait_blocked(_metadata, self->fd, id0, 0);
	for (i = 0; i < nq; i++) {
		rec_prog_free(&p);
		for (k = 0; k < NCSYNC_NUM_ENGINES; k++)
			rec_exit(rec_prog_queue(&p, e[k]));
		submit_ok(_metadata, self->fd, &p, 0, WD_LONG);
	}
	ret = get_core(self->req, self->fam, 0, &r);
	EXPECT_EQ(0, ret) TH_LOG("GET_CORE with %d programs: %d (%s)", nq + 1,
				 ret, strerror(-ret));
	if (!ret) {
		parse_msg(_metadata, r.msg, &m);
		EXPECT_NE(0U, m.present & BIT_A(NCSYNC_A_TRUNCATED));
		EXPECT_LT(0, m.nprogs);
		EXPECT_GT(nq + 1, m.nprogs);
		EXPECT_EQ(id0, m.progs[0].id);
	}
	reply_free(&r);
	ASSERT_EQ(0, pwrite32(self->fd, SEM_SET(s), 1));
	ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->fd, id0));
	rec_prog_free(&p);
}

/* ---------------------------------------------------------------------- */
/* GET_PROGRAMS: the dump                                                  */

#define DUMP_BUF	32768	/* no datagram of a dump is larger */
#define DUMP_ATTRS	(BIT_A(NCSYNC_A_CORE) | BIT_A(NCSYNC_A_PROG))
#define NFD		3	/* descriptors of the many-programs tests */
#define PER_FD		200	/* programs each of them submits */
#define NEW_PROGS	10	/* programs submitted during a dump */
#define MAX_SUBS	(1 + NFD * PER_FD + NEW_PROGS)

/* The datapath engines, which every program of these tests shares. */
static const __u8 dp_eng[NCSYNC_NUM_ENGINES] = {
	NCSYNC_ENGINE_POOL, NCSYNC_ENGINE_ACT, NCSYNC_ENGINE_PE,
	NCSYNC_ENGINE_DVE, NCSYNC_ENGINE_SP,
};

/* A program a dump listed, and the datagram it came in (1 for the first). */
struct dumped {
	struct prog_nl p;
	int datagram;
};

/*
 * A dump, on a socket of its own that does nothing else, read with plain
 * recv(2) one datagram at a time.  Netlink fills the next datagram of a
 * dump when the previous one is read: when the k-th has been read, the
 * k+1-th is built and nothing after it.
 */
struct dump {
	struct nl_sock *sk;
	int fam;
	__u32 core;			/* the core asked for */
	__u32 seq;			/* of the request */
	int datagrams;			/* read so far */
	bool done;			/* NLMSG_DONE or NLMSG_ERROR came */
	int err;			/* the error it carried: 0 or -errno */
	int n, cap;
	struct dumped *progs;		/* the programs, in the order listed */
	char *buf;			/* DUMP_BUF bytes */
	struct ncsync_msg *m;		/* the message being parsed */
};

/* A GET_PROGRAMS dump request, to be filled with attributes. */
static struct nl_msg *dump_req(int fam)
{
	struct nl_msg *msg = req_new(fam, NCSYNC_CMD_GET_PROGRAMS);

	nlmsg_hdr(msg)->nlmsg_flags |= NLM_F_DUMP;
	return msg;
}

/* Send the dump request @msg (freed) on a new socket; @core is expected. */
static void dump_send(struct __test_metadata *_metadata, int fam,
		      struct nl_msg *msg, __u32 core, struct dump *d)
{
	int ret;

	memset(d, 0, sizeof(*d));
	d->fam = fam;
	d->core = core;
	d->buf = malloc(DUMP_BUF);
	d->m = malloc(sizeof(*d->m));
	d->sk = nl_open();
	if (!d->buf || !d->m || !d->sk)
		nlmsg_free(msg);
	ASSERT_TRUE(d->buf && d->m && d->sk);
	/* a dump is not acknowledged: nothing but its messages comes */
	nl_socket_disable_auto_ack(d->sk);
	ret = nl_send_auto(d->sk, msg);
	d->seq = nlmsg_hdr(msg)->nlmsg_seq;
	nlmsg_free(msg);
	ASSERT_LT(0, ret) TH_LOG("send: %s", nl_geterror(ret));
}

/* Send a GET_PROGRAMS dump request for @core (none when negative). */
static void dump_start(struct __test_metadata *_metadata, int fam,
		       long long core, struct dump *d)
{
	struct nl_msg *msg = dump_req(fam);

	if (core >= 0)
		nla_put_u32(msg, NCSYNC_A_CORE, core);
	dump_send(_metadata, fam, msg, core, d);
}

static void dump_free(struct dump *d)
{
	if (d->sk)
		nl_socket_free(d->sk);
	free(d->progs);
	free(d->buf);
	free(d->m);
	memset(d, 0, sizeof(*d));
}

static void dump_add(struct dump *d, const struct prog_nl *p)
{
	if (d->n == d->cap) {
		struct dumped *v;

		d->cap = d->cap ? 2 * d->cap : 256;
		v = realloc(d->progs, d->cap * sizeof(*v));
		if (!v)
			abort();
		d->progs = v;
	}
	d->progs[d->n].p = *p;
	d->progs[d->n++].datagram = d->datagrams;
}

/*
 * Read the next datagram of the dump (it must come within LONG_MS) and
 * collect its programs, checking every message: the request's sequence
 * number, NLM_F_MULTI, NCSYNC_A_CORE and exactly one NCSYNC_A_PROG.
 */
static void dump_next(struct __test_metadata *_metadata, struct dump *d)
{
	struct pollfd pfd = { .fd = nl_socket_get_fd(d->sk), .events = POLLIN };
	struct nlmsghdr *nlh;
	struct reply r;
	int len;

	ASSERT_FALSE(d->done);
	ASSERT_EQ(1, poll(&pfd, 1, LONG_MS))
		TH_LOG("datagram %d of the dump did not come",
		       d->datagrams + 1);
	len = recv(pfd.fd, d->buf, DUMP_BUF, MSG_TRUNC);
	ASSERT_LT(0, len) TH_LOG("recv: %s", strerror(errno));
	ASSERT_GE(DUMP_BUF, len) TH_LOG("a datagram of %d bytes", len);
	d->datagrams++;
	for (nlh = (struct nlmsghdr *)d->buf; NLMSG_OK(nlh, len);
	     nlh = NLMSG_NEXT(nlh, len)) {
		ASSERT_FALSE(d->done) TH_LOG("a message after the end");
		EXPECT_EQ(d->seq, nlh->nlmsg_seq);
		if (nlh->nlmsg_type == NLMSG_ERROR) {
			memset(&r, 0, sizeof(r));
			reply_err_cb(NULL, NLMSG_DATA(nlh), &r);
			d->err = r.err;
			d->done = true;
			continue;
		}
		if (nlh->nlmsg_type == NLMSG_DONE) {
			ASSERT_LE((int)NLMSG_LENGTH(sizeof(int)),
				  (int)nlh->nlmsg_len);
			memcpy(&d->err, NLMSG_DATA(nlh), sizeof(int));
			d->done = true;
			continue;
		}
		ASSERT_EQ(d->fam, nlh->nlmsg_type);
		EXPECT_TRUE(nlh->nlmsg_flags & NLM_F_MULTI);
		parse_msg(_metadata, nlh, d->m);
		EXPECT_EQ(NCSYNC_CMD_GET_PROGRAMS, d->m->cmd);
		EXPECT_EQ(NCSYNC_GENL_VERSION, d->m->version);
		EXPECT_EQ(DUMP_ATTRS, d->m->present);
		EXPECT_EQ((int)d->core, d->m->core);
		ASSERT_EQ(1, d->m->nprogs);
		dump_add(d, &d->m->progs[0]);
	}
	EXPECT_EQ(0, len) TH_LOG("%d bytes after the last message", len);
}

/* The whole dump of @core (none when negative); its error is in d->err. */
static void dump_all(struct __test_metadata *_metadata, int fam,
		     long long core, struct dump *d)
{
	dump_start(_metadata, fam, core, d);
	while (!d->done)
		dump_next(_metadata, d);
}

/*
 * The error a dump of core 0 starts with, without the harness (for a
 * child): that of the NLMSG_ERROR or NLMSG_DONE that comes first, 0 if a
 * program comes first, -1000 on a local failure.
 */
static int dump_first_err(int fam)
{
	struct nl_sock *sk = nl_open();
	struct nlmsghdr *nlh;
	struct nl_msg *msg;
	char buf[8192];
	int len, err = -1000;

	if (!sk)
		return err;
	nl_socket_disable_auto_ack(sk);
	msg = dump_req(fam);
	nla_put_u32(msg, NCSYNC_A_CORE, 0);
	if (nl_send_auto(sk, msg) < 0)
		goto out;
	len = recv(nl_socket_get_fd(sk), buf, sizeof(buf), 0);
	nlh = (struct nlmsghdr *)buf;
	if (!NLMSG_OK(nlh, len))
		goto out;
	if (nlh->nlmsg_type == NLMSG_ERROR || nlh->nlmsg_type == NLMSG_DONE)
		memcpy(&err, NLMSG_DATA(nlh), sizeof(int));
	else
		err = 0;
out:
	nlmsg_free(msg);
	nl_socket_free(sk);
	return err;
}

/* A program submitted by a test: who submitted it, on which engines. */
struct sub {
	int fd;
	__u32 mask;			/* BIT_A() of its engines */
	__u32 id;
};

/*
 * Many programs that stay queued: a blocker on every datapath engine
 * waiting for semaphore @sem == 1, submitted on the fixture's descriptor,
 * then PER_FD programs on each of NFD more descriptors, in turn.  Every
 * program after the blocker shares an engine with it and waits for it.
 * Descriptor k submits on every engine but dp_eng[k], so that the engines
 * and the id tell the programs apart (ids count per descriptor).
 */
struct many {
	int fds[NFD];
	int sem;
	int n;
	struct sub s[MAX_SUBS];		/* in submission order */
};

/* Submit on descriptor k a program of one Exit on each of its engines. */
static void many_submit(struct __test_metadata *_metadata, struct many *m,
			int k)
{
	struct sub *s = &m->s[m->n];
	struct rec_prog p = {};
	unsigned int e;

	ASSERT_GT(MAX_SUBS, m->n);
	s->fd = m->fds[k];
	s->mask = 0;
	for (e = 0; e < NCSYNC_NUM_ENGINES; e++) {
		if (e == (unsigned int)k)
			continue;
		rec_exit(rec_prog_queue(&p, dp_eng[e]));
		s->mask |= BIT_A(dp_eng[e]);
	}
	s->id = submit_ok(_metadata, s->fd, &p, 0, WD_LONG);
	m->n++;
	rec_prog_free(&p);
}

static void many_setup(struct __test_metadata *_metadata,
		       FIXTURE_DATA(nl) *self, struct many *m)
{
	struct rec_prog p = {};
	unsigned int e;
	int i, k;

	memset(m, 0, sizeof(*m));
	m->sem = 90;
	for (k = 0; k < NFD; k++)
		m->fds[k] = -1;
	for (e = 0; e < NCSYNC_NUM_ENGINES; e++) {
		rec_noop(rec_prog_queue(&p, dp_eng[e]), W_EQ, m->sem, 0, 0, 1);
		m->s[0].mask |= BIT_A(dp_eng[e]);
	}
	m->s[0].fd = self->fd;
	m->s[0].id = submit_ok(_metadata, self->fd, &p, 0, WD_LONG);
	m->n = 1;
	wait_blocked(_metadata, self->fd, m->s[0].id, 0);
	for (k = 0; k < NFD; k++) {
		m->fds[k] = open(DEV0, O_RDWR | O_CLOEXEC);
		ASSERT_LE(0, m->fds[k]) TH_LOG("open: %s", strerror(errno));
	}
	for (i = 0; i < PER_FD; i++)
		for (k = 0; k < NFD; k++)
			many_submit(_metadata, m, k);
	rec_prog_free(&p);
}

/* Close the descriptors (cancelling their programs), release the blocker. */
static void many_teardown(struct __test_metadata *_metadata,
			  FIXTURE_DATA(nl) *self, struct many *m)
{
	int k;

	for (k = 0; k < NFD; k++)
		if (m->fds[k] >= 0)
			close(m->fds[k]);
	ASSERT_EQ(0, pwrite32(self->fd, SEM_SET(m->sem), 1));
	ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->fd, m->s[0].id));
}

static __u32 prog_mask(const struct prog_nl *p)
{
	__u32 mask = 0;
	int i;

	for (i = 0; i < p->neng; i++)
		mask |= BIT_A(p->eng[i].id);
	return mask;
}

/* Index in m->s of the program @p lists; -1 if none. */
static int many_find(const struct many *m, const struct prog_nl *p)
{
	__u32 mask = prog_mask(p);
	int i;

	for (i = 0; i < m->n; i++)
		if (m->s[i].id == p->id && m->s[i].mask == mask)
			return i;
	return -1;
}

/*
 * The dump lists every program of the core, more than GET_CORE's one
 * message holds, once each, oldest first, over several datagrams, each
 * nest as NCSYNC_IOC_PROG_STATUS sees the program; GET_CORE lists the
 * first of them, nest for nest, and says it left the others out.
 */
TEST_F(nl, get_programs_lists_every_program)
{
	struct ncsync_prog_status ps;
	struct ncsync_msg *gc;
	struct many *m;
	struct dump d;
	int i;

	m = malloc(sizeof(*m));
	gc = malloc(sizeof(*gc));
	ASSERT_TRUE(m && gc);
	many_setup(_metadata, self, m);

	dump_all(_metadata, self->fam, 0, &d);
	ASSERT_EQ(0, d.err) TH_LOG("dump: %s", strerror(-d.err));
	EXPECT_LT(1, d.datagrams);
	ASSERT_EQ(m->n, d.n);
	for (i = 0; i < d.n; i++) {
		ASSERT_EQ(i, many_find(m, &d.progs[i].p))
			TH_LOG("program %d of the dump: id %u", i,
			       d.progs[i].p.id);
		status_get(_metadata, m->s[i].fd, m->s[i].id, &ps);
		EXPECT_EQ(i ? NCSYNC_PROG_QUEUED : NCSYNC_PROG_RUNNING,
			  (int)ps.state);
		expect_prog(_metadata, &d.progs[i].p, &ps);
	}

	get_core_ok(_metadata, self, 0, gc);
	EXPECT_NE(0U, gc->present & BIT_A(NCSYNC_A_TRUNCATED));
	EXPECT_LT(0, gc->nprogs);
	EXPECT_GT(m->n, gc->nprogs);
	for (i = 0; i < gc->nprogs && i < d.n; i++)
		EXPECT_EQ(0, memcmp(&gc->progs[i], &d.progs[i].p,
				    sizeof(gc->progs[i])))
			TH_LOG("program %d differs", i);

	dump_free(&d);
	many_teardown(_metadata, self, m);
	free(gc);
	free(m);
}

/*
 * Cancel ten programs the first datagram of @d listed (@gone 1) and the
 * last ten of the @n0 submitted (@gone 2), then submit ten more.
 */
static void change_after_first_datagram(struct __test_metadata *_metadata,
					struct many *m, const struct dump *d,
					int *gone, int n0)
{
	struct ncsync_prog_cancel pc = { 0 };
	int i, j;

	for (i = 1; i <= NEW_PROGS; i++) {
		j = many_find(m, &d->progs[i].p);
		ASSERT_LE(1, j);
		pc.id = m->s[j].id;
		ASSERT_EQ(0, ioctl(m->s[j].fd, NCSYNC_IOC_PROG_CANCEL, &pc));
		gone[j] = 1;
	}
	for (j = n0 - NEW_PROGS; j < n0; j++) {
		pc.id = m->s[j].id;
		ASSERT_EQ(0, ioctl(m->s[j].fd, NCSYNC_IOC_PROG_CANCEL, &pc));
		gone[j] = 2;
	}
	for (i = 0; i < NEW_PROGS; i++)
		many_submit(_metadata, m, i % NFD);
}

/*
 * Check the whole dump @d: each program listed at most once and in order,
 * as often as @gone says it should be, the new ones (from @n0) last.
 */
static void check_listed_once(struct __test_metadata *_metadata,
			      const struct many *m, const struct dump *d,
			      int *seen, const int *gone, int *when, int n0)
{
	int i, j, k, last;

	last = -1;
	for (i = 0; i < d->n; i++) {
		j = many_find(m, &d->progs[i].p);
		ASSERT_LE(0, j) TH_LOG("program %d of the dump: unknown", i);
		EXPECT_EQ(0, seen[j]) TH_LOG("program %d listed twice", j);
		seen[j]++;
		when[j] = d->progs[i].datagram;
		EXPECT_LT(last, j) TH_LOG("program %d after %d", j, last);
		last = j;
	}
	for (j = 0; j < m->n; j++) {
		if (gone[j] == 2 && when[j] <= 2 && seen[j])
			continue;	/* sent before it was cancelled */
		k = gone[j] == 2 ? 0 : 1;
		EXPECT_EQ(k, seen[j])
			TH_LOG("program %d (cancelled: %d) listed %d times", j,
			       gone[j], seen[j]);
	}
	for (j = n0; j < m->n; j++)
		EXPECT_LT(2, when[j]) TH_LOG("new program %d in datagram %d",
					    j, when[j]);
}

/*
 * Programs that end, and programs submitted, between two datagrams of the
 * dump move no other: after the first datagram is read, ten programs it
 * listed and the last ten submitted are cancelled, and ten are submitted.
 * Every program is listed at most once; those on the core throughout
 * exactly once and in order; the ten cancelled after being listed once;
 * the ten cancelled before the dump got to them never; the new ones once,
 * last.
 */
TEST_F(nl, get_programs_exactly_once_while_changing)
{
	int *seen, *gone, *when;
	struct many *m;
	struct dump d;
	int n0;

	m = malloc(sizeof(*m));
	ASSERT_NE(NULL, m);
	many_setup(_metadata, self, m);
	n0 = m->n;
	seen = calloc(MAX_SUBS, sizeof(*seen));
	gone = calloc(MAX_SUBS, sizeof(*gone));
	when = calloc(MAX_SUBS, sizeof(*when));
	ASSERT_TRUE(seen && gone && when);

	dump_start(_metadata, self->fam, 0, &d);
	dump_next(_metadata, &d);
	ASSERT_FALSE(d.done);
	ASSERT_LE(NEW_PROGS + 1, d.n) TH_LOG("first datagram: %d", d.n);

	/* the second datagram is built: change what comes after it */
	change_after_first_datagram(_metadata, m, &d, gone, n0);

	while (!d.done)
		dump_next(_metadata, &d);
	ASSERT_EQ(0, d.err);
	ASSERT_LT(2, d.datagrams) TH_LOG("the dump ended before the changes");

	check_listed_once(_metadata, m, &d, seen, gone, when, n0);

	dump_free(&d);
	many_teardown(_metadata, self, m);
	free(seen);
	free(gone);
	free(when);
	free(m);
}

/* A core with no program: the dump is its end alone. */
TEST_F(nl, get_programs_empty_core)
{
	const int s = 41;
	struct rec_prog p = {};
	struct dump d;
	__u32 id;

	dump_all(_metadata, self->fam, 0, &d);
	EXPECT_EQ(0, d.err);
	EXPECT_EQ(0, d.n);
	EXPECT_EQ(1, d.datagrams);
	dump_free(&d);

	/* a program on core 0 is not core 1's */
	rec_noop(rec_prog_queue(&p, NCSYNC_ENGINE_POOL), W_EQ, s, 0, 0, 1);
	id = submit_ok(_metadata, self->fd, &p, 0, WD_LONG);
	wait_blocked(_metadata, self->fd, id, 0);
	if (self->ncores > 1) {
		dump_all(_metadata, self->fam, 1, &d);
		EXPECT_EQ(0, d.err);
		EXPECT_EQ(0, d.n);
		dump_free(&d);
	}
	dump_all(_metadata, self->fam, 0, &d);
	EXPECT_EQ(0, d.err);
	ASSERT_EQ(1, d.n);
	EXPECT_EQ(id, d.progs[0].p.id);
	dump_free(&d);

	/* an ended program is not listed */
	ASSERT_EQ(0, pwrite32(self->fd, SEM_SET(s), 1));
	ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->fd, id));
	dump_all(_metadata, self->fam, 0, &d);
	EXPECT_EQ(0, d.err);
	EXPECT_EQ(0, d.n);
	dump_free(&d);
	rec_prog_free(&p);
}

TEST_F(nl, get_programs_without_core_einval)
{
	struct dump d;

	dump_all(_metadata, self->fam, -1, &d);
	EXPECT_EQ(-EINVAL, d.err);
	EXPECT_EQ(0, d.n);
	EXPECT_EQ(1, d.datagrams);
	dump_free(&d);
}

TEST_F(nl, get_programs_out_of_range_enodev)
{
	const __u32 bad[] = { self->ncores, 64, UINT_MAX };
	struct dump d;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		dump_all(_metadata, self->fam, bad[i], &d);
		EXPECT_EQ(-ENODEV, d.err) TH_LOG("core %u", bad[i]);
		EXPECT_EQ(0, d.n);
		dump_free(&d);
	}
}

/* Strict validation, as for GET_CORE: only NCSYNC_A_CORE, as a u32. */
TEST_F(nl, get_programs_unknown_attribute_einval)
{
	const int extra[] = { NCSYNC_A_NOTIFY, NCSYNC_A_PROG_ID, 1000 };
	struct nl_msg *msg;
	struct dump d;
	unsigned int i;

	for (i = 0; i <= ARRAY_SIZE(extra); i++) {
		msg = dump_req(self->fam);
		if (i < ARRAY_SIZE(extra)) {
			nla_put_u32(msg, NCSYNC_A_CORE, 0);
			nla_put_u32(msg, extra[i], 0);
		} else {
			nla_put_u16(msg, NCSYNC_A_CORE, 0);
		}
		dump_send(_metadata, self->fam, msg, 0, &d);
		while (!d.done)
			dump_next(_metadata, &d);
		EXPECT_EQ(-EINVAL, d.err) TH_LOG("case %u", i);
		EXPECT_EQ(0, d.n);
		dump_free(&d);
	}
}

/* GET_PROGRAMS has no do: without NLM_F_DUMP it is not supported. */
TEST_F(nl, get_programs_is_dump_only)
{
	struct nl_msg *msg = req_new(self->fam, NCSYNC_CMD_GET_PROGRAMS);
	struct reply r;

	nla_put_u32(msg, NCSYNC_A_CORE, 0);
	EXPECT_EQ(-EOPNOTSUPP, req_send(self->req, msg, &r));
	EXPECT_EQ(NULL, r.msg);
	reply_free(&r);
}

/* Without CAP_NET_ADMIN the dump is refused, as GET_CORE is. */
TEST_F(nl, get_programs_needs_cap_net_admin)
{
	struct dump d;
	int pfd[2], res = 0;
	pid_t pid;

	ASSERT_EQ(0, pipe(pfd));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		close(pfd[0]);
		res = -2000;
		if (!cap_drop(CAP_NET_ADMIN))
			res = dump_first_err(self->fam);
		if (write(pfd[1], &res, sizeof(res)) != sizeof(res))
			_exit(2);
		_exit(0);
	}
	close(pfd[1]);
	ASSERT_EQ((ssize_t)sizeof(res), read(pfd[0], &res, sizeof(res)));
	close(pfd[0]);
	ASSERT_EQ(0, wait_child(pid));
	EXPECT_EQ(-EPERM, res);

	/* with it, the same request works */
	dump_all(_metadata, self->fam, 0, &d);
	EXPECT_EQ(0, d.err);
	dump_free(&d);
}

TEST_HARNESS_MAIN
