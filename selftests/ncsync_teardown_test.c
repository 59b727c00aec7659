// SPDX-License-Identifier: GPL-2.0
/*
 * ncsync selftest: teardown while programs across cores land copies on a
 * peer core (Documentation/ncsync/engines.rst, "Teardown").
 *
 * Needs the module loaded with at least two cores in one logical core
 * (cores=2 lnc=2); every test is skipped otherwise.  ncsync_hostile_test.sh
 * reloads the module so and runs:
 *
 *  - teardown.reset_soak: rounds of a program across cores 0 and 1 whose
 *    members land copies on each other's core in a loop, plus a program of
 *    core 1 alone whose copies land later on core 0, then a reset of one
 *    of the cores: when the reset returns, the program across cores has
 *    ended (cancelled), and the reset core's banks stay zero: no update of
 *    a copy issued before the reset, nor of a member the reset stopped,
 *    lands after it;
 *  - teardown.close_soak: the same program, submitted on fresh
 *    descriptors, then a close of the submitter's descriptor or of the
 *    peer's descriptor passed with it: once close() returns, nothing of
 *    the program changes either core;
 *  - teardown.other_uid: the same, the peer's descriptor opened by
 *    another user (uid NOBODY) and passed through SCM_RIGHTS, so that the
 *    member on core 1 is charged to that user; the close of either
 *    descriptor ends the program everywhere before it returns, and every
 *    charge goes back (a charge left when a user's last reference goes is
 *    a kernel warning, which the script fails on);
 *  - teardown.inflight_exit: programs of core 1 alone and across cores end
 *    with copies in flight that land on the peer core (up to 600 ms
 *    later); the test exits at once, and the script unloads the module
 *    while they are in flight.
 *
 * Each soak runs NCSYNC_SOAK_MS milliseconds (default 10000);
 * inflight_exit leaves NCSYNC_INFLIGHT_PROGS programs of each kind (default
 * 8, at most 120) in flight.  With
 * NCSYNC_TEARDOWN set to a list of test names (e.g. "reset_soak close_soak"),
 * the other tests are skipped: the script runs inflight_exit alone, before
 * each unload.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <grp.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/ncsync.h>

#include "kselftest_harness.h"
#include "ncsync_selftest.h"
#include "ncsync_rec.h"

#define SEM_RD(i)	(NCSYNC_CSR_SEM_READ + 4 * (i))
#define LONG_MS		20000	/* deadline of a wait that must end */
#define WD_LONG		60000	/* watchdog of a program that must not time out */

#define SEM_LOOP	20	/* the looping members' completions */
#define SEM_LATE	21	/* the late copies' completions */
#define NLATE		64	/* copies of a program that ends at once */
#define LATE_MIN_US	20000	/* their latencies: LATE_MIN_US + i * step */
#define LATE_MAX_US	600000
#define NPROGS_EXIT	8	/* programs of each kind left in flight */
#define NPROGS_EXIT_MAX	120	/* NCSYNC_INFLIGHT_PROGS: within one fd's 256 */
#define SETTLE_MS	50	/* how long a round watches the banks settle */
#define NOBODY		65534	/* the other user */
#define UID_ROUNDS	20	/* rounds of other_uid, at most */

static long soak_ms(void)
{
	const char *s = getenv("NCSYNC_SOAK_MS");

	return s && atol(s) > 0 ? atol(s) : 10000;
}

/* Whether NCSYNC_TEARDOWN, when set, names the test @name. */
static bool chosen(const char *name)
{
	const char *list = getenv("NCSYNC_TEARDOWN");
	size_t len = strlen(name);
	const char *p;

	if (!list)
		return true;
	for (p = strstr(list, name); p; p = strstr(p + 1, name))
		if ((p == list || p[-1] == ' ' || p[-1] == ',') &&
		    (!p[len] || p[len] == ' ' || p[len] == ','))
			return true;
	return false;
}

static int open_core(unsigned int i)
{
	char path[32];

	snprintf(path, sizeof(path), "/dev/ncsync%u", i);
	return open(path, O_RDWR | O_CLOEXEC);
}

static __s32 sem_read(int fd, unsigned int i)
{
	__s32 v = -1;

	if (pread(fd, &v, sizeof(v), SEM_RD(i)) != sizeof(v))
		return -1;
	return v;
}

static int core_reset(int fd)
{
	struct ncsync_reset r = { 0 };

	return ioctl(fd, NCSYNC_IOC_RESET, &r) ? -errno : 0;
}

static int prog_state(int fd, __u32 id, __u32 *state)
{
	struct ncsync_prog_status ps;

	memset(&ps, 0, sizeof(ps));
	ps.id = id;
	if (ioctl(fd, NCSYNC_IOC_PROG_STATUS, &ps))
		return -errno;
	*state = ps.state;
	return 0;
}

/* On @engine: copies landing +1 on @sem of position @peer, forever. */
static void prog_loop(struct rec_prog *p, __u8 peer, __u8 sem)
{
	struct rec_queue *q = rec_prog_queue(p, NCSYNC_ENGINE_POOL);

	rec_dma_peer(q, peer, 0x1000, 0x2000, 64, 0, NCSYNC_UPD_SEM_INC, sem);
	rec_jmp(q, 0);
}

/*
 * On every datapath engine: NLATE copies landing +1 on @sem of position
 * @peer, their latencies spread from LATE_MIN_US to LATE_MAX_US, then
 * Exit: the program ends with them in flight.
 */
static void prog_late(struct rec_prog *p, __u8 peer, __u8 sem)
{
	static const __u8 engines[] = {
		NCSYNC_ENGINE_POOL, NCSYNC_ENGINE_ACT, NCSYNC_ENGINE_PE,
		NCSYNC_ENGINE_DVE, NCSYNC_ENGINE_SP,
	};
	const __u32 step = (LATE_MAX_US - LATE_MIN_US) / NLATE;
	unsigned int e, i;

	for (e = 0; e < sizeof(engines); e++) {
		struct rec_queue *q = rec_prog_queue(p, engines[e]);

		for (i = 0; i < NLATE; i++)
			rec_dma_peer(q, peer, 0x3000 + 64 * e, 0x8000 + 64 * e,
				     64, LATE_MIN_US + i * step + e * 997,
				     NCSYNC_UPD_SEM_INC, sem);
		rec_exit(q);
	}
}

/*
 * A program across cores 0 and 1 (@a on 0, @b on 1), submitted on @fd0
 * with @fd1: its id, or -errno.
 */
static long submit_cores(int fd0, int fd1, const struct rec_prog *a,
			 const struct rec_prog *b)
{
	struct ncsync_queue uq[2 * NCSYNC_NUM_ENGINES];
	const struct rec_prog *parts[2] = { a, b };
	struct ncsync_submit sub;
	unsigned int i, j, nq = 0;

	memset(uq, 0, sizeof(uq));
	for (i = 0; i < 2; i++) {
		for (j = 0; j < parts[i]->nq; j++, nq++) {
			uq[nq].records = (uintptr_t)parts[i]->q[j].r;
			uq[nq].count = parts[i]->q[j].n;
			uq[nq].engine = parts[i]->q[j].engine;
			uq[nq].pad[0] = i;
		}
	}
	memset(&sub, 0, sizeof(sub));
	sub.queues = (uintptr_t)uq;
	sub.nqueues = nq;
	sub.flags = NCSYNC_SUBMIT_F_CORES;
	sub.watchdog_ms = WD_LONG;
	sub.fds = (uintptr_t)&fd1;
	sub.nfds = 1;
	if (ioctl(fd0, NCSYNC_IOC_SUBMIT, &sub))
		return -errno;
	return sub.id;
}

/* The looping program across cores 0 and 1 on @sem: its id. */
static __u32 submit_loop(struct __test_metadata *_metadata, int fd0, int fd1,
			 __u8 sem)
{
	struct rec_prog a = { 0 }, b = { 0 };
	long id;

	prog_loop(&a, 1, sem);
	prog_loop(&b, 0, sem);
	id = submit_cores(fd0, fd1, &a, &b);
	rec_prog_free(&a);
	rec_prog_free(&b);
	ASSERT_LT(0, id) TH_LOG("SUBMIT across cores: %s", strerror(-id));
	return id;
}

/* Wait until both cores' @sem moved: the looping members both run. */
static void wait_running(struct __test_metadata *_metadata, const int *fd,
			 __u8 sem)
{
	__s64 end = now_ns() + LONG_MS * NSEC_PER_MSEC;

	while (sem_read(fd[0], sem) <= 0 || sem_read(fd[1], sem) <= 0) {
		ASSERT_GT(end, now_ns())
			TH_LOG("the members never landed a copy on sem %u", sem);
		usleep(1000);
	}
}

FIXTURE(teardown) {
	int fd[2];	/* cores 0 and 1 */
	bool keep;	/* leave the copies in flight: no reset at the end */
};

FIXTURE_SETUP(teardown)
{
	self->fd[0] = self->fd[1] = -1;
	self->keep = false;
	if (!chosen(_metadata->name))
		SKIP(return, "not named in NCSYNC_TEARDOWN");
	if (ncsync_param("cores") < 2 || ncsync_param("lnc") < 2)
		SKIP(return,
		     "needs cores=2 lnc=2 at least (cores %ld, lnc %ld; ncsync_hostile_test.sh loads it so)",
		     ncsync_param("cores"), ncsync_param("lnc"));
	self->fd[0] = open_core(0);
	ASSERT_LE(0, self->fd[0]) TH_LOG("open core 0: %s", strerror(errno));
	self->fd[1] = open_core(1);
	ASSERT_LE(0, self->fd[1]) TH_LOG("open core 1: %s", strerror(errno));
	ASSERT_EQ(0, core_reset(self->fd[0]));
	ASSERT_EQ(0, core_reset(self->fd[1]));
}

FIXTURE_TEARDOWN(teardown)
{
	unsigned int i;

	for (i = 0; i < 2; i++) {
		if (self->fd[i] < 0)
			continue;
		if (!self->keep)
			core_reset(self->fd[i]);
		close(self->fd[i]);
	}
}

/*
 * The late program of core 1 alone, landing on core 0, whose writable
 * descriptor @fd[0] it names (security.rst, "Other cores"): its id.
 */
static __u32 submit_late(struct __test_metadata *_metadata, const int *fd)
{
	struct rec_prog p = { 0 };
	struct ncsync_submit sub;
	int ret;

	prog_late(&p, 0, SEM_LATE);
	ret = rec_prog_submit_fds(fd[1], &p, 0, WD_LONG, &fd[0], 1, &sub);
	rec_prog_free(&p);
	ASSERT_EQ(0, ret) TH_LOG("SUBMIT on core 1: %s", strerror(-ret));
	return sub.id;
}

/* One round of reset_soak: reset core @round % 2 while both members loop. */
static void reset_round(struct __test_metadata *_metadata, const int *fd,
			const char *unused, unsigned int round)
{
	unsigned int r = round % 2;
	__u32 id, state = 0;
	__s32 v;

	submit_late(_metadata, fd);
	id = submit_loop(_metadata, fd[0], fd[1], SEM_LOOP);
	wait_running(_metadata, fd, SEM_LOOP);
	ASSERT_EQ(0, core_reset(fd[r]));
	ASSERT_EQ(0, prog_state(fd[0], id, &state));
	EXPECT_EQ((__u32)NCSYNC_PROG_CANCELLED, state)
		TH_LOG("reset of core %u returned, the program across cores is in state %u",
		       r, state);
	EXPECT_EQ(0, sem_read(fd[r], SEM_LOOP))
		TH_LOG("a copy of a member the reset of core %u stopped landed after it", r);
	usleep(SETTLE_MS * 1000);
	v = sem_read(fd[r], SEM_LOOP);
	EXPECT_EQ(0, v)
		TH_LOG("%d copies of the stopped program landed on core %u after its reset",
		       v, r);
	if (r == 0) {
		/* The late copies of core 1 were all issued before it. */
		usleep(LATE_MAX_US + 5 * 997 + SETTLE_MS * 1000);
		v = sem_read(fd[0], SEM_LATE);
		EXPECT_EQ(0, v)
			TH_LOG("%d copies issued before the reset of core 0 landed on it",
			       v);
	}
	ASSERT_EQ(0, prog_wait(fd[0], id, LONG_MS, &state));
	ASSERT_EQ(0, core_reset(fd[0]));
	ASSERT_EQ(0, core_reset(fd[1]));
}

/* Both cores' SEM_LOOP stay as they are from now on: @what was closed. */
static void expect_still(struct __test_metadata *_metadata, const int *fd,
			 const char *what)
{
	__s32 before[2], after;
	unsigned int i;

	for (i = 0; i < 2; i++)
		before[i] = sem_read(fd[i], SEM_LOOP);
	usleep(SETTLE_MS * 1000);
	for (i = 0; i < 2; i++) {
		after = sem_read(fd[i], SEM_LOOP);
		EXPECT_EQ(before[i], after)
			TH_LOG("core %u: sem %u went %d -> %d after the close of the %s descriptor returned",
			       i, SEM_LOOP, before[i], after, what);
	}
}

typedef void soak_round_fn(struct __test_metadata *_metadata, const int *fd,
			   const char *arg, unsigned int round);

/* Rounds of @fn for NCSYNC_SOAK_MS, at most @max, until one fails. */
static void soak(struct __test_metadata *_metadata, const int *fd,
		 soak_round_fn *fn, const char *arg, unsigned int max)
{
	__s64 end = now_ns() + soak_ms() * NSEC_PER_MSEC;
	unsigned int rounds = 0;

	while (rounds < max && now_ns() < end && _metadata->passed)
		fn(_metadata, fd, arg, rounds++);
	TH_LOG("%u rounds", rounds);
}

TEST_F_TIMEOUT(teardown, reset_soak, 300)
{
	if (_metadata->skip)	/* the setup skipped: the harness goes on */
		return;
	soak(_metadata, self->fd, reset_round, NULL, UINT32_MAX);
}

/*
 * One round of close_soak: close the submitter's (even @round) or the
 * peer's (odd) descriptor of the looping program; both cores must be
 * still from then on.
 */
static void close_round(struct __test_metadata *_metadata, const int *fd,
			const char *unused, unsigned int round)
{
	unsigned int which = round % 2;
	int own[2];

	own[0] = open_core(0);
	own[1] = open_core(1);
	ASSERT_LE(0, own[0]);
	ASSERT_LE(0, own[1]);
	submit_loop(_metadata, own[0], own[1], SEM_LOOP);
	wait_running(_metadata, fd, SEM_LOOP);
	close(own[which]);
	expect_still(_metadata, fd, which ? "peer's" : "submitter's");
	close(own[!which]);
	ASSERT_EQ(0, core_reset(fd[0]));
	ASSERT_EQ(0, core_reset(fd[1]));
}

TEST_F_TIMEOUT(teardown, close_soak, 300)
{
	if (_metadata->skip)
		return;
	soak(_metadata, self->fd, close_round, NULL, UINT32_MAX);
}

/* The child: as NOBODY, open @node and send the descriptor over @sock. */
static void nobody_send(const char *node, int sock)
{
	char cbuf[CMSG_SPACE(sizeof(int))] = { 0 };
	char byte = 0;
	struct iovec iov = { .iov_base = &byte, .iov_len = 1 };
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = cbuf, .msg_controllen = sizeof(cbuf),
	};
	struct cmsghdr *cm = CMSG_FIRSTHDR(&msg);
	int fd;

	if (setgroups(0, NULL) || setresgid(NOBODY, NOBODY, NOBODY) ||
	    setresuid(NOBODY, NOBODY, NOBODY))
		_exit(1);
	fd = open(node, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		_exit(2);
	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_RIGHTS;
	cm->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(cm), &fd, sizeof(int));
	_exit(sendmsg(sock, &msg, 0) == 1 ? 0 : 3);
}

/* A descriptor of core 1 that NOBODY opened, received over a socket. */
static int nobody_fd(struct __test_metadata *_metadata, const char *node)
{
	char cbuf[CMSG_SPACE(sizeof(int))] = { 0 };
	char byte;
	struct iovec iov = { .iov_base = &byte, .iov_len = 1 };
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = cbuf, .msg_controllen = sizeof(cbuf),
	};
	struct cmsghdr *cm;
	int sv[2], fd = -1, status = -1;
	pid_t pid;

	ASSERT_EQ(0, socketpair(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0, sv));
	fflush(stderr);
	pid = fork();
	if (!pid)
		nobody_send(node, sv[1]);
	close(sv[1]);
	if (pid > 0 && recvmsg(sv[0], &msg, 0) == 1 &&
	    (cm = CMSG_FIRSTHDR(&msg)) && cm->cmsg_type == SCM_RIGHTS)
		memcpy(&fd, CMSG_DATA(cm), sizeof(int));
	close(sv[0]);
	if (pid > 0)
		waitpid(pid, &status, 0);
	ASSERT_LE(0, fd) TH_LOG("no descriptor from uid %d (child status 0x%x)",
				NOBODY, status);
	return fd;
}

/*
 * One round of other_uid: a program across cores submitted on a fresh
 * descriptor of core 0 with NOBODY's descriptor of core 1, looping and
 * with copies in flight on both cores; close NOBODY's (@first 1) or the
 * submitter's (@first 0) descriptor first.
 */
static void other_uid_round(struct __test_metadata *_metadata, const int *fd,
			    const char *node, unsigned int round)
{
	struct rec_prog a = { 0 }, b = { 0 };
	unsigned int first = round % 2;
	int own[2];
	__u32 id, state = 0;
	long late;

	own[0] = open_core(0);
	ASSERT_LE(0, own[0]);
	own[1] = nobody_fd(_metadata, node);
	prog_late(&a, 1, SEM_LATE);
	prog_late(&b, 0, SEM_LATE);
	late = submit_cores(own[0], own[1], &a, &b);
	rec_prog_free(&a);
	rec_prog_free(&b);
	ASSERT_LT(0, late) TH_LOG("SUBMIT across cores: %s", strerror(-late));
	id = submit_loop(_metadata, own[0], own[1], SEM_LOOP);
	wait_running(_metadata, fd, SEM_LOOP);
	if (first == 0)	/* the state, while it can still be asked */
		ASSERT_EQ(0, prog_state(own[0], id, &state));
	close(own[first]);
	if (first == 1) {
		ASSERT_EQ(0, prog_state(own[0], id, &state));
		EXPECT_EQ((__u32)NCSYNC_PROG_CANCELLED, state)
			TH_LOG("the close of uid %d's descriptor returned, the program across cores is in state %u",
			       NOBODY, state);
	}
	expect_still(_metadata, fd, first ? "other user's" : "submitter's");
	close(own[!first]);
	ASSERT_EQ(0, core_reset(fd[0]));
	ASSERT_EQ(0, core_reset(fd[1]));
}

TEST_F_TIMEOUT(teardown, other_uid, 300)
{
	char dir[64], node[96];

	if (_metadata->skip)
		return;
	if (geteuid())
		SKIP(return, "needs root (a node for uid %d)", NOBODY);
	ncsync_private_node(_metadata, 1, dir, node);
	soak(_metadata, self->fd, other_uid_round, node, UID_ROUNDS);
	unlink(node);
	rmdir(dir);
}

/*
 * Leave programs whose copies land on the peer core in flight, and exit:
 * ncsync_hostile_test.sh unloads the module at once.
 */
TEST_F_TIMEOUT(teardown, inflight_exit, 300)
{
	struct rec_prog a = { 0 }, b = { 0 };
	unsigned int i;
	long id;

	const char *env = getenv("NCSYNC_INFLIGHT_PROGS");
	unsigned int n = env ? strtoul(env, NULL, 10) : NPROGS_EXIT;

	if (_metadata->skip)
		return;
	if (!n || n > NPROGS_EXIT_MAX)
		n = NPROGS_EXIT;
	self->keep = true;
	prog_late(&a, 1, SEM_LATE);
	prog_late(&b, 0, SEM_LATE);
	for (i = 0; i < n; i++) {
		submit_late(_metadata, self->fd);
		id = submit_cores(self->fd[0], self->fd[1], &a, &b);
		EXPECT_LT(0, id) TH_LOG("SUBMIT across cores: %s",
					strerror(-id));
	}
	rec_prog_free(&a);
	rec_prog_free(&b);
}

TEST_HARNESS_MAIN
