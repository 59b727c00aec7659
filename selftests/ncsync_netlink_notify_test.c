// SPDX-License-Identifier: GPL-2.0
/*
 * ncsync selftests of the generic netlink family "ncsync" (ncsync_netlink.h):
 * SET_NOTIFY, EVENT_NTF, PROG_NTF and FAULT_NTF, and the drops of
 * notifications.
 *
 * Run inside the test VM, as root:
 *	tools/vm-run build/selftests/ncsync_netlink_notify_test
 */
#include "ncsync_netlink.h"

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

static void notify_on(struct __test_metadata *_metadata,
		      FIXTURE_DATA(nl) *self, __u32 core, __u8 on)
{
	int ret = set_notify(self->req, self->fam, core, on);

	ASSERT_EQ(0, ret) TH_LOG("SET_NOTIFY %u %u: %d", core, on, ret);
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

TEST_HARNESS_MAIN
