// SPDX-License-Identifier: GPL-2.0
/*
 * ncsync selftests of the generic netlink family "ncsync" (ncsync_netlink.h):
 * GET_PROGRAMS, the dump: every program once, across datagrams, changes
 * while dumping, errors.
 *
 * Run inside the test VM, as root:
 *	tools/vm-run build/selftests/ncsync_netlink_dump_test
 */
#include "ncsync_netlink.h"

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
