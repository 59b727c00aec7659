// SPDX-License-Identifier: GPL-2.0
/*
 * ncsync selftest of logical cores (ncsync_lnc.h), run by
 * ncsync_lnc_test.sh with cores=4 lnc=2.
 *
 * Completions on other cores need their descriptor (security.rst, "Other
 * cores"): a peer's completion without its descriptor, or with a read-only
 * one, is refused with nothing run, from root and from an unprivileged
 * user, through a node or a descriptor passed by SCM_RIGHTS; one closed
 * while the program runs; a program across cores landing on a peer.
 */
#include "ncsync_lnc.h"

/* ---------------------------------------------------------------------- */
/* Completions on other cores need their descriptor (security.rst,         */
/* "Other cores")                                                          */

#define NOBODY		65534	/* the unprivileged user */
#define PEER_SEM	9	/* what the hostile program changes on core 1 */

/*
 * The hostile program of issue 32 on core 0: sem[9]++ locally (proof that
 * it ran), then copies whose completions are sem[9]++ and ev[9] set on
 * core 1 (position 1, or @peer).
 */
static void hostile_prog(struct rec_prog *p, __u8 peer)
{
	struct rec_queue *q = rec_prog_queue(p, NCSYNC_ENGINE_PE);

	rec_inc(q, PEER_SEM);
	rec_dma_peer(q, peer, 0, 64, 8, 0, UPD_INC, PEER_SEM);
	rec_dma_peer(q, peer, 0, 64, 8, 0, UPD_SET, PEER_SEM);
	rec_drain(q);
	rec_exit(q);
}

/* One record, run and waited for on @fd: its id. */
static __u32 run_trivial(struct __test_metadata *_metadata, int fd)
{
	struct rec_prog p = { 0 };
	__u32 id;

	rec_exit(rec_prog_queue(&p, NCSYNC_ENGINE_ACT));
	id = submit(_metadata, fd, &p);
	expect_done(_metadata, fd, id);
	rec_prog_free(&p);
	return id;
}

/*
 * Submitting @p on @fd naming @fds fails with @err, and nothing happens:
 * no id consumed, sem[9] and ev[9] unchanged on both cores.
 */
static void expect_refused(struct __test_metadata *_metadata, int *fd,
			   const struct rec_prog *p, const int *fds,
			   unsigned int nfds, int err)
{
	struct ncsync_submit sub;
	__u32 before = run_trivial(_metadata, fd[0]);

	EXPECT_EQ(-err, rec_prog_submit_fds(fd[0], p, 0, LONG_MS, fds, nfds,
					    &sub));
	EXPECT_EQ(0U, sub.id);
	usleep(50000);
	EXPECT_EQ(before + 1, run_trivial(_metadata, fd[0]));
	EXPECT_EQ(0, sem_of(fd[0], PEER_SEM));
	EXPECT_EQ(0, sem_of(fd[1], PEER_SEM));
	EXPECT_EQ(0, event_of(fd[1], PEER_SEM));
}

TEST_F(lnc, peer_without_descriptor_eacces)
{
	struct rec_prog p = { 0 };

	NEED_LNC();
	hostile_prog(&p, 1);
	expect_refused(_metadata, self->fd, &p, NULL, 0, EACCES);
	rec_prog_free(&p);
}

TEST_F(lnc, peer_readonly_descriptor_eacces)
{
	struct rec_prog p = { 0 };
	int ro = open("/dev/ncsync1", O_RDONLY | O_CLOEXEC);

	NEED_LNC();
	ASSERT_LE(0, ro);
	hostile_prog(&p, 1);
	expect_refused(_metadata, self->fd, &p, &ro, 1, EACCES);
	close(ro);
	rec_prog_free(&p);
}

/* With the writable descriptor named, the completions land. */
TEST_F(lnc, peer_with_descriptor_lands)
{
	struct rec_prog p = { 0 };

	NEED_LNC();
	hostile_prog(&p, 1);
	expect_done(_metadata, self->fd[0],
		    submit_peer(_metadata, self->fd[0], &p, self->fd[1]));
	EXPECT_EQ(1, sem_of(self->fd[0], PEER_SEM));
	EXPECT_EQ(1, sem_of(self->fd[1], PEER_SEM));
	EXPECT_EQ(1, event_of(self->fd[1], PEER_SEM));
	rec_prog_free(&p);
}

TEST_F(lnc, peer_index_out_of_range_einval)
{
	struct rec_prog p = { 0 };
	struct ncsync_submit sub;

	NEED_LNC();
	hostile_prog(&p, 255);
	expect_refused(_metadata, self->fd, &p, &self->fd[1], 1, EINVAL);
	EXPECT_EQ(-EINVAL, rec_prog_submit_fds(self->fd[0], &p, 0, LONG_MS,
					       &self->fd[1], 1, &sub));
	EXPECT_EQ(NCSYNC_REC_BAD_DMA_PEER, (int)sub.reason);
	EXPECT_EQ(1U, sub.bad_index);
	rec_prog_free(&p);
}

/* Position lnc, with a descriptor of core 1 named: still outside. */
TEST_F(lnc, peer_outside_with_descriptor_einval)
{
	struct rec_prog p = { 0 };
	struct ncsync_submit sub;

	NEED_LNC();
	hostile_prog(&p, self->info.lnc);
	expect_refused(_metadata, self->fd, &p, &self->fd[1], 1, EINVAL);
	EXPECT_EQ(-EINVAL, rec_prog_submit_fds(self->fd[0], &p, 0, LONG_MS,
					       &self->fd[1], 1, &sub));
	EXPECT_EQ(NCSYNC_REC_DMA_PEER_OUTSIDE, (int)sub.reason);
	rec_prog_free(&p);
}

/* The descriptor of a core of another logical core is EXDEV. */
TEST_F(lnc, peer_descriptor_of_other_logical_core_exdev)
{
	struct rec_prog p = { 0 };
	int other;

	NEED_LNC();
	if (self->info.num_cores < 2 * self->info.lnc)
		SKIP(return, "one logical core only");
	other = open_core(self->info.lnc + 1);
	ASSERT_LE(0, other);
	hostile_prog(&p, 1);
	expect_refused(_metadata, self->fd, &p, &other, 1, EXDEV);
	close(other);
	rec_prog_free(&p);
}

TEST_F(lnc, peer_descriptor_errors)
{
	struct rec_prog p = { 0 };
	int two[2] = { self->fd[1], self->fd[1] };
	int own = open_core(0), null = open("/dev/null", O_RDWR | O_CLOEXEC);
	int bad = 1000;

	NEED_LNC();
	ASSERT_LE(0, own);
	ASSERT_LE(0, null);
	hostile_prog(&p, 1);
	expect_refused(_metadata, self->fd, &p, &own, 1, EINVAL);
	expect_refused(_metadata, self->fd, &p, two, 2, EINVAL);
	expect_refused(_metadata, self->fd, &p, &null, 1, EINVAL);
	expect_refused(_metadata, self->fd, &p, &bad, 1, EBADF);
	expect_refused(_metadata, self->fd, &p, (int *)8, 1, EFAULT);
	close(own);
	close(null);
	rec_prog_free(&p);
}

/* A private directory with nodes of cores 0 (mode 0666) and 1 (0444). */
static void make_nodes(struct __test_metadata *_metadata, char *dir,
		       char node[2][96])
{
	static const mode_t mode[2] = { 0666, 0444 };
	struct stat st;
	int i;

	strcpy(dir, "/tmp/ncsync-lnc.XXXXXX");
	ASSERT_NE(NULL, mkdtemp(dir));
	ASSERT_EQ(0, chmod(dir, 0755));
	for (i = 0; i < 2; i++) {
		sprintf(node[i], "/dev/ncsync%d", i);
		ASSERT_EQ(0, stat(node[i], &st));
		sprintf(node[i], "%s/ncsync%d", dir, i);
		ASSERT_EQ(0, mknod(node[i], S_IFCHR | 0600, st.st_rdev));
		ASSERT_EQ(0, chmod(node[i], mode[i]));
	}
}

static void drop_nodes(char *dir, char node[2][96])
{
	unlink(node[0]);
	unlink(node[1]);
	rmdir(dir);
}

static void become_nobody(void)
{
	if (setgroups(0, NULL) || setresgid(NOBODY, NOBODY, NOBODY) ||
	    setresuid(NOBODY, NOBODY, NOBODY))
		_exit(90);
}

/* Run @fn(@node, @sock) as uid NOBODY; its exit status (0: as wanted). */
static int as_nobody(int (*fn)(char node[2][96], int sock), char node[2][96],
		     int sock)
{
	int status = -1;
	pid_t pid;

	fflush(stderr);
	pid = fork();
	if (!pid) {
		become_nobody();
		_exit(fn(node, sock));
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

/*
 * Issue 32, as uid NOBODY: core 1's node is 0444, so it opens core 1
 * read-only; the hostile program is refused with or without that
 * descriptor.
 */
static int nobody_readonly_peer(char node[2][96], int sock)
{
	struct rec_prog p = { 0 };
	struct ncsync_submit sub;
	int fd0, ro;

	(void)sock;
	if (open(node[1], O_RDWR) >= 0 || errno != EACCES)
		return 10;
	fd0 = open(node[0], O_RDWR);
	ro = open(node[1], O_RDONLY);
	if (fd0 < 0 || ro < 0)
		return 11;
	hostile_prog(&p, 1);
	if (rec_prog_submit_fds(fd0, &p, 0, LONG_MS, NULL, 0, &sub) != -EACCES)
		return 12;
	if (rec_prog_submit_fds(fd0, &p, 0, LONG_MS, &ro, 1, &sub) != -EACCES)
		return 13;
	return 0;
}

TEST_F(lnc, peer_readonly_node_unprivileged)
{
	char dir[64], node[2][96];
	int ret;

	NEED_LNC();
	make_nodes(_metadata, dir, node);
	ret = as_nobody(nobody_readonly_peer, node, -1);
	drop_nodes(dir, node);
	EXPECT_EQ(0, ret) TH_LOG("uid %d: step %d failed", NOBODY, ret);
	usleep(50000);
	EXPECT_EQ(0, sem_of(self->fd[1], PEER_SEM));
	EXPECT_EQ(0, event_of(self->fd[1], PEER_SEM));
}

/* Send @fd over the socket @sock (SCM_RIGHTS). */
static int send_fd(int sock, int fd)
{
	char byte = 0, cbuf[CMSG_SPACE(sizeof(int))] = { 0 };
	struct iovec iov = { &byte, 1 };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1,
			      .msg_control = cbuf,
			      .msg_controllen = sizeof(cbuf) };
	struct cmsghdr *c = CMSG_FIRSTHDR(&msg);

	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(c), &fd, sizeof(int));
	return sendmsg(sock, &msg, 0) == 1 ? 0 : -1;
}

/* Receive a descriptor sent by send_fd(), or -1. */
static int recv_fd(int sock)
{
	char byte, cbuf[CMSG_SPACE(sizeof(int))];
	struct iovec iov = { &byte, 1 };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1,
			      .msg_control = cbuf,
			      .msg_controllen = sizeof(cbuf) };
	struct cmsghdr *c;
	int fd;

	if (recvmsg(sock, &msg, MSG_CMSG_CLOEXEC) != 1)
		return -1;
	c = CMSG_FIRSTHDR(&msg);
	if (!c || c->cmsg_type != SCM_RIGHTS)
		return -1;
	memcpy(&fd, CMSG_DATA(c), sizeof(int));
	return fd;
}

/*
 * As uid NOBODY, which cannot open core 1 for writing: the read-only
 * descriptor received is refused, the writable one root sent is
 * accepted and the completions land.
 */
static int nobody_scm_peer(char node[2][96], int sock)
{
	struct rec_prog p = { 0 };
	struct ncsync_submit sub;
	int fd0, ro, rw;
	__u32 state;

	if (open(node[1], O_RDWR) >= 0 || errno != EACCES)
		return 20;
	fd0 = open(node[0], O_RDWR);
	ro = recv_fd(sock);
	rw = recv_fd(sock);
	if (fd0 < 0 || ro < 0 || rw < 0)
		return 21;
	hostile_prog(&p, 1);
	if (rec_prog_submit_fds(fd0, &p, 0, LONG_MS, &ro, 1, &sub) != -EACCES)
		return 22;
	if (rec_prog_submit_fds(fd0, &p, 0, LONG_MS, &rw, 1, &sub))
		return 23;
	if (prog_wait(fd0, sub.id, LONG_MS, &state) ||
	    state != NCSYNC_PROG_DONE)
		return 24;
	return 0;
}

TEST_F(lnc, peer_descriptor_by_scm_rights)
{
	char dir[64], node[2][96];
	int sv[2], ro, ret;

	NEED_LNC();
	ASSERT_EQ(0, socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv));
	ro = open("/dev/ncsync1", O_RDONLY | O_CLOEXEC);
	ASSERT_LE(0, ro);
	ASSERT_EQ(0, send_fd(sv[0], ro));
	ASSERT_EQ(0, send_fd(sv[0], self->fd[1]));
	close(ro);
	make_nodes(_metadata, dir, node);
	ret = as_nobody(nobody_scm_peer, node, sv[1]);
	drop_nodes(dir, node);
	close(sv[0]);
	close(sv[1]);
	EXPECT_EQ(0, ret) TH_LOG("uid %d: step %d failed", NOBODY, ret);
	EXPECT_EQ(1, sem_of(self->fd[1], PEER_SEM));
	EXPECT_EQ(1, event_of(self->fd[1], PEER_SEM));
}

/*
 * The descriptor is checked at submission: closed while the program runs
 * (blocked before its copy), the program goes on and its completion lands
 * (security.rst, "Other cores").
 */
TEST_F(lnc, peer_descriptor_closed_while_running)
{
	struct rec_prog p = { 0 };
	struct rec_queue *q = rec_prog_queue(&p, NCSYNC_ENGINE_PE);
	int d = dup(self->fd[1]);
	__u32 id;

	NEED_LNC();
	ASSERT_LE(0, d);
	rec_noop(q, NCSYNC_WAIT_SEM_GE, 20, 0, 0, 1);
	rec_dma_peer(q, 1, 0, 64, 8, 0, UPD_INC, PEER_SEM);
	rec_drain(q);
	rec_exit(q);
	id = submit_peer(_metadata, self->fd[0], &p, d);
	ASSERT_TRUE(wait_blocked(self->fd[0], id, -1));
	EXPECT_EQ(0, close(d));
	EXPECT_EQ(0, sem_of(self->fd[1], PEER_SEM));
	ASSERT_EQ(0, ioctl(self->fd[0], NCSYNC_IOC_OP,
			   &(struct ncsync_op){ .bank = NCSYNC_BANK_SEM,
						.op = NCSYNC_OP_INC,
						.index = 20, .value = 1 }));
	expect_done(_metadata, self->fd[0], id);
	EXPECT_EQ(1, sem_of(self->fd[1], PEER_SEM));
	rec_prog_free(&p);
}

/*
 * A program across cores whose part on core 0 lands a completion on core
 * 1, where it runs nothing: core 1's descriptor is needed all the same.
 */
TEST_F(lnc, cores_peer_landing_needs_descriptor)
{
	struct rec_prog a = { 0 };
	struct part part = { &a, 0 };
	struct ncsync_submit sub;
	__u32 before;

	NEED_LNC();
	hostile_prog(&a, 1);
	before = run_trivial(_metadata, self->fd[0]);
	EXPECT_EQ(-EACCES, cores_submit(self->fd[0], &part, 1, NULL, 0, 0,
					LONG_MS, &sub));
	usleep(50000);
	EXPECT_EQ(0, sem_of(self->fd[0], PEER_SEM));
	EXPECT_EQ(0, sem_of(self->fd[1], PEER_SEM));
	EXPECT_EQ(before + 1, run_trivial(_metadata, self->fd[0]));
	ASSERT_EQ(0, cores_submit(self->fd[0], &part, 1, &self->fd[1], 1, 0,
				  LONG_MS, &sub));
	expect_state(_metadata, self->fd[0], sub.id, NCSYNC_PROG_DONE);
	EXPECT_EQ(1, sem_of(self->fd[1], PEER_SEM));
	EXPECT_EQ(1, event_of(self->fd[1], PEER_SEM));
	rec_prog_free(&a);
}

TEST_HARNESS_MAIN
