// SPDX-License-Identifier: GPL-2.0
/*
 * ncsync selftests of the generic netlink family "ncsync" (ncsync_netlink.h):
 * the family, GET_CORE, and who may do what (CAP_NET_ADMIN, the group).
 *
 * Run inside the test VM, as root:
 *	tools/vm-run build/selftests/ncsync_netlink_core_test
 */
#include "ncsync_netlink.h"

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
/* Who may do what                                                         */


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

TEST_HARNESS_MAIN
