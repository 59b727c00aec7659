// SPDX-License-Identifier: GPL-2.0
/*
 * ncsync selftest: logical cores (Documentation/ncsync/engines.rst,
 * "Logical cores"; records.rst, DMA).  Needs the module loaded with lnc
 * of 2 or more, which ncsync_lnc_test.sh does (cores=4 lnc=2); with lnc 1
 * every test is skipped.  Records come from the selftests' own encoder
 * (ncsync_rec.h).
 *
 * A DMA record with the peer flag lands its completion update on another
 * core of its logical core: a producer/consumer across cores, a
 * ping-pong, an event, the issuer's own position; a peer outside the
 * logical core is refused with nothing run; a reset of the peer before
 * the landing voids the update.
 *
 * A program across cores (NCSYNC_SUBMIT_F_CORES, engines.rst, "Programs
 * across cores"): a producer/consumer and a ping-pong in one program, its
 * parts starting together, its status covering both cores, cancel, a
 * fault, the watchdog, a reset (also of a core whose part ended), kill -9
 * of the submitter and a close stopping every part, and each refused
 * submission with nothing run.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <signal.h>
#include <grp.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/ncsync.h>

#include "kselftest_harness.h"
#include "ncsync_selftest.h"
#include "ncsync_rec.h"

#define LONG_MS		20000
#define UPD_INC		(NCSYNC_UPD_COMPLETE | NCSYNC_UPD_SEM_INC)
#define UPD_SET		(NCSYNC_UPD_COMPLETE | NCSYNC_UPD_EVT_SET)
#define ROUNDS		10

static int open_core(unsigned int core)
{
	char path[32];

	snprintf(path, sizeof(path), "/dev/ncsync%u", core);
	return open(path, O_RDWR | O_CLOEXEC);
}

static __s32 sem_of(int fd, unsigned int idx)
{
	struct ncsync_op op = { .bank = NCSYNC_BANK_SEM, .op = NCSYNC_OP_READ,
				.index = idx };

	if (ioctl(fd, NCSYNC_IOC_OP, &op))
		return -12345;
	return op.after;
}

static int event_of(int fd, unsigned int idx)
{
	struct ncsync_op op = { .bank = NCSYNC_BANK_EVENT,
				.op = NCSYNC_OP_READ, .index = idx };

	if (ioctl(fd, NCSYNC_IOC_OP, &op))
		return -1;
	return op.after;
}

static int reset(int fd)
{
	struct ncsync_reset r = { 0 };

	return ioctl(fd, NCSYNC_IOC_RESET, &r);
}

/* Cores 0 and 1: the first logical core. */
FIXTURE(lnc) {
	int fd[2];
	struct ncsync_info info;
};

FIXTURE_SETUP(lnc)
{
	unsigned int i;

	for (i = 0; i < 2; i++) {
		self->fd[i] = open_core(i);
		ASSERT_LE(0, self->fd[i]);
		ASSERT_EQ(0, reset(self->fd[i]));
	}
	ASSERT_EQ(0, ioctl(self->fd[0], NCSYNC_IOC_INFO, &self->info));
}

/* The harness of 6.1 runs a test whose setup skipped: each test checks. */
#define NEED_LNC()							\
	do {								\
		if (self->info.lnc < 2)					\
			SKIP(return, "lnc is %u: load with lnc=2 (ncsync_lnc_test.sh)", \
			     self->info.lnc);				\
	} while (0)

FIXTURE_TEARDOWN(lnc)
{
	close(self->fd[0]);
	close(self->fd[1]);
}

/* Submit @p on @fd: its id. */
static __u32 submit(struct __test_metadata *_metadata, int fd,
		    const struct rec_prog *p)
{
	struct ncsync_submit sub;
	int ret = rec_prog_submit(fd, p, 0, LONG_MS, &sub);

	EXPECT_EQ(0, ret) TH_LOG("SUBMIT: %s (engine %u record %u reason %u)",
				 strerror(-ret), sub.bad_engine, sub.bad_index,
				 sub.reason);
	return sub.id;
}

/*
 * Submit @p on @fd naming @peer, the descriptor of the core its
 * completions land on: its id.
 */
static __u32 submit_peer(struct __test_metadata *_metadata, int fd,
			 const struct rec_prog *p, int peer)
{
	struct ncsync_submit sub;
	int ret = rec_prog_submit_fds(fd, p, 0, LONG_MS, &peer, 1, &sub);

	EXPECT_EQ(0, ret) TH_LOG("SUBMIT: %s (engine %u record %u reason %u)",
				 strerror(-ret), sub.bad_engine, sub.bad_index,
				 sub.reason);
	return sub.id;
}

static void expect_done(struct __test_metadata *_metadata, int fd, __u32 id)
{
	__u32 state;

	ASSERT_EQ(0, prog_wait(fd, id, LONG_MS, &state));
	EXPECT_EQ((__u32)NCSYNC_PROG_DONE, state);
}

TEST_F(lnc, info_reports_the_grouping)
{
	struct ncsync_info info;
	unsigned int c;

	NEED_LNC();
	EXPECT_EQ(0U, self->info.num_cores % self->info.lnc);
	for (c = 0; c < self->info.num_cores; c++) {
		int fd = open_core(c);

		ASSERT_LE(0, fd);
		ASSERT_EQ(0, ioctl(fd, NCSYNC_IOC_INFO, &info));
		EXPECT_EQ(self->info.lnc, info.lnc);
		EXPECT_EQ(c, info.core);
		close(fd);
	}
}

/* Core 1 waits for a semaphore only core 0's copy posts. */
TEST_F(lnc, producer_consumer_across_cores)
{
	struct rec_prog prod = { 0 }, cons = { 0 };
	struct rec_queue *q;
	__u32 pid, cid;

	NEED_LNC();
	q = rec_prog_queue(&cons, NCSYNC_ENGINE_PE);
	rec_noop(q, NCSYNC_WAIT_SEM_GE, 9, 0, 0, 1);
	rec_exit(q);
	cid = submit(_metadata, self->fd[1], &cons);
	q = rec_prog_queue(&prod, NCSYNC_ENGINE_POOL);
	rec_dma_peer(q, 1, 0, 0x100, 64, 1000, UPD_INC, 9);
	rec_drain(q);
	rec_exit(q);
	pid = submit_peer(_metadata, self->fd[0], &prod, self->fd[1]);
	expect_done(_metadata, self->fd[0], pid);
	expect_done(_metadata, self->fd[1], cid);
	EXPECT_EQ(1, sem_of(self->fd[1], 9));
	EXPECT_EQ(0, sem_of(self->fd[0], 9));
	rec_prog_free(&prod);
	rec_prog_free(&cons);
}

/* Round i: core 0 posts core 1's sem[1], core 1 answers on core 0's sem[2]. */
TEST_F(lnc, ping_pong_between_cores)
{
	struct rec_prog a = { 0 }, b = { 0 };
	struct rec_queue *qa, *qb;
	__u32 ida, idb;
	int i;

	NEED_LNC();
	qa = rec_prog_queue(&a, NCSYNC_ENGINE_ACT);
	qb = rec_prog_queue(&b, NCSYNC_ENGINE_DVE);
	for (i = 1; i <= ROUNDS; i++) {
		rec_dma_peer(qa, 1, 0, 64, 4, 0, UPD_INC, 1);
		rec_noop(qa, NCSYNC_WAIT_SEM_GE, 2, 0, 0, i);
		rec_noop(qb, NCSYNC_WAIT_SEM_GE, 1, 0, 0, i);
		rec_dma_peer(qb, 0, 0, 64, 4, 0, UPD_INC, 2);
	}
	rec_exit(qa);
	rec_drain(qb);
	rec_exit(qb);
	idb = submit_peer(_metadata, self->fd[1], &b, self->fd[0]);
	ida = submit_peer(_metadata, self->fd[0], &a, self->fd[1]);
	expect_done(_metadata, self->fd[0], ida);
	expect_done(_metadata, self->fd[1], idb);
	EXPECT_EQ(ROUNDS, sem_of(self->fd[0], 2));
	EXPECT_EQ(ROUNDS, sem_of(self->fd[1], 1));
	EXPECT_EQ(0, sem_of(self->fd[0], 1));
	EXPECT_EQ(0, sem_of(self->fd[1], 2));
	rec_prog_free(&a);
	rec_prog_free(&b);
}

TEST_F(lnc, event_set_on_peer)
{
	struct rec_prog p = { 0 };
	struct rec_queue *q = rec_prog_queue(&p, NCSYNC_ENGINE_SP);

	NEED_LNC();
	rec_dma_peer(q, 1, 0, 64, 8, 0, UPD_SET, 3);
	rec_drain(q);
	rec_exit(q);
	expect_done(_metadata, self->fd[0],
		    submit_peer(_metadata, self->fd[0], &p, self->fd[1]));
	EXPECT_EQ(1, event_of(self->fd[1], 3));
	EXPECT_EQ(0, event_of(self->fd[0], 3));
	rec_prog_free(&p);
}

/* Position 0 is core 0 itself: the update is local. */
TEST_F(lnc, own_position_is_local)
{
	struct rec_prog p = { 0 };
	struct rec_queue *q = rec_prog_queue(&p, NCSYNC_ENGINE_PE);

	NEED_LNC();
	rec_dma_peer(q, 0, 0, 64, 8, 0, UPD_INC, 4);
	rec_drain(q);
	rec_exit(q);
	expect_done(_metadata, self->fd[0], submit(_metadata, self->fd[0], &p));
	EXPECT_EQ(1, sem_of(self->fd[0], 4));
	EXPECT_EQ(0, sem_of(self->fd[1], 4));
	rec_prog_free(&p);
}

/* Position lnc is outside the logical core: refused, nothing runs. */
TEST_F(lnc, peer_outside_refused)
{
	struct rec_prog p = { 0 };
	struct rec_queue *q = rec_prog_queue(&p, NCSYNC_ENGINE_PE);
	struct ncsync_submit sub;

	NEED_LNC();
	rec_inc(q, 6);
	rec_dma_peer(q, self->info.lnc, 0, 64, 8, 0, UPD_INC, 6);
	rec_exit(q);
	EXPECT_EQ(-EINVAL, rec_prog_submit(self->fd[0], &p, 0, LONG_MS, &sub));
	EXPECT_EQ(NCSYNC_REC_DMA_PEER_OUTSIDE, (int)sub.reason);
	EXPECT_EQ(NCSYNC_ENGINE_PE, (int)sub.bad_engine);
	EXPECT_EQ(1U, sub.bad_index);
	EXPECT_EQ(0U, sub.id);
	usleep(50000);
	EXPECT_EQ(0, sem_of(self->fd[0], 6));
	EXPECT_EQ(0, sem_of(self->fd[1], 6));
	rec_prog_free(&p);
}

/* Whether engine 0 of program @id is blocked in a Drain: its copy issued. */
static bool in_drain(int fd, __u32 id)
{
	struct ncsync_prog_status ps = { .id = id };

	return !ioctl(fd, NCSYNC_IOC_PROG_STATUS, &ps) && ps.nengines &&
	       ps.engines[0].state == NCSYNC_ENG_BLOCKED &&
	       ps.engines[0].wait_kind == NCSYNC_BLOCK_DRAIN;
}

/*
 * A copy that lands 500 ms after its issue; the peer is reset once it is
 * issued (its engine waits in the Drain behind it).
 * The update, issued before the reset, must not reach the cleared peer.
 */
TEST_F(lnc, reset_of_peer_voids_update)
{
	struct rec_prog p = { 0 };
	struct rec_queue *q = rec_prog_queue(&p, NCSYNC_ENGINE_POOL);
	__u32 id;
	int i;

	NEED_LNC();
	rec_dma_peer(q, 1, 0, 64, 8, 500000, UPD_INC, 7);
	rec_drain(q);
	rec_exit(q);
	id = submit_peer(_metadata, self->fd[0], &p, self->fd[1]);
	for (i = 0; i < 5000 && !in_drain(self->fd[0], id); i++)
		usleep(1000);
	ASSERT_TRUE(in_drain(self->fd[0], id));
	ASSERT_EQ(0, reset(self->fd[1]));
	expect_done(_metadata, self->fd[0], id);
	EXPECT_EQ(0, sem_of(self->fd[1], 7));
	rec_prog_free(&p);
}

/* ---------------------------------------------------------------------- */
/* Programs across cores (engines.rst, "Programs across cores")           */

#define U_EVT_SET	0x01	/* records.rst: the update modes */
#define FOREVER		250	/* a semaphore no test posts */

/* A part of a program across cores: the records of one core. */
struct part {
	const struct rec_prog *p;
	__u8 pos;
};

/*
 * NCSYNC_IOC_SUBMIT with NCSYNC_SUBMIT_F_CORES of @n parts on @fd, with
 * the other cores' descriptors @fds; @sub receives what was written back.
 * Return: 0 or -errno.
 */
static int cores_submit(int fd, const struct part *parts, unsigned int n,
			const int *fds, unsigned int nfds, __u32 flags,
			__u32 wd, struct ncsync_submit *sub)
{
	struct ncsync_queue uq[4 * NCSYNC_NUM_ENGINES];
	unsigned int i, j, nq = 0;

	memset(uq, 0, sizeof(uq));
	for (i = 0; i < n; i++) {
		for (j = 0; j < parts[i].p->nq; j++, nq++) {
			uq[nq].records = (uintptr_t)parts[i].p->q[j].r;
			uq[nq].count = parts[i].p->q[j].n;
			uq[nq].engine = parts[i].p->q[j].engine;
			uq[nq].pad[0] = parts[i].pos;
		}
	}
	memset(sub, 0, sizeof(*sub));
	sub->queues = (uintptr_t)uq;
	sub->nqueues = nq;
	sub->flags = flags | NCSYNC_SUBMIT_F_CORES;
	sub->watchdog_ms = wd;
	sub->fds = (uintptr_t)fds;
	sub->nfds = nfds;
	return ioctl(fd, NCSYNC_IOC_SUBMIT, sub) ? -errno : 0;
}

/* Submit @a on core 0 and @b on core 1 through fd[0]: the program's id. */
static __u32 submit2(struct __test_metadata *_metadata, const int *fd,
		     const struct rec_prog *a, const struct rec_prog *b,
		     __u32 flags, __u32 wd)
{
	struct part parts[2] = { { a, 0 }, { b, 1 } };
	struct ncsync_submit sub;
	int ret = cores_submit(fd[0], parts, 2, &fd[1], 1, flags, wd, &sub);

	EXPECT_EQ(0, ret) TH_LOG("SUBMIT: %s (core %u engine %u record %u reason %u)",
				 strerror(-ret), sub.bad_core, sub.bad_engine,
				 sub.bad_index, sub.reason);
	return sub.id;
}

/* The status of program @id, reporting core @pos (-1: the default). */
static int status_of(int fd, __u32 id, int pos, struct ncsync_prog_status *ps,
		     struct ncsync_sem_value *sems)
{
	memset(ps, 0, sizeof(*ps));
	ps->id = id;
	ps->sems = (uintptr_t)sems;
	if (pos >= 0) {
		ps->flags = NCSYNC_STATUS_F_CORE;
		ps->core = pos;
	}
	return ioctl(fd, NCSYNC_IOC_PROG_STATUS, ps) ? -errno : 0;
}

/* Wait until engine 0 reported for core @pos of @id is blocked. */
static bool wait_blocked(int fd, __u32 id, int pos)
{
	struct ncsync_prog_status ps;
	int i;

	for (i = 0; i < 5000; i++) {
		if (!status_of(fd, id, pos, &ps, NULL) && ps.nengines &&
		    ps.engines[0].state == NCSYNC_ENG_BLOCKED)
			return true;
		usleep(1000);
	}
	return false;
}

static void expect_state(struct __test_metadata *_metadata, int fd, __u32 id,
			 __u32 want)
{
	__u32 state;

	ASSERT_EQ(0, prog_wait(fd, id, LONG_MS, &state));
	EXPECT_EQ(want, state);
}

/* Both cores' engine 0 of @id, once ended: state and fault. */
static void expect_engines(struct __test_metadata *_metadata, int fd,
			   __u32 id, const __u8 state[2], const __u8 fault[2])
{
	struct ncsync_prog_status ps;
	int pos;

	for (pos = 0; pos < 2; pos++) {
		ASSERT_EQ(0, status_of(fd, id, pos, &ps, NULL));
		EXPECT_EQ(state[pos], ps.engines[0].state) TH_LOG("core %d", pos);
		EXPECT_EQ(fault[pos], ps.engines[0].fault) TH_LOG("core %d", pos);
	}
}

/* Core 0 waits for a semaphore only core 1's copy posts: one program. */
TEST_F(lnc, cores_producer_consumer)
{
	struct rec_prog a = { 0 }, b = { 0 };
	struct rec_queue *q;

	NEED_LNC();
	q = rec_prog_queue(&a, NCSYNC_ENGINE_PE);
	rec_noop(q, NCSYNC_WAIT_SEM_GE, 9, 0, 0, 1);
	rec_exit(q);
	q = rec_prog_queue(&b, NCSYNC_ENGINE_POOL);
	rec_dma_peer(q, 0, 0, 0x100, 64, 1000, UPD_INC, 9);
	rec_drain(q);
	rec_exit(q);
	expect_done(_metadata, self->fd[0],
		    submit2(_metadata, self->fd, &a, &b, 0, LONG_MS));
	EXPECT_EQ(1, sem_of(self->fd[0], 9));
	EXPECT_EQ(0, sem_of(self->fd[1], 9));
	rec_prog_free(&a);
	rec_prog_free(&b);
}

/* Release program @id of @fd (NCSYNC_STATUS_F_RELEASE): 0 or -errno. */
static int release(int fd, __u32 id)
{
	struct ncsync_prog_status ps = { .id = id,
					 .flags = NCSYNC_STATUS_F_RELEASE };

	return ioctl(fd, NCSYNC_IOC_PROG_STATUS, &ps) ? -errno : 0;
}

/* Set semaphore @idx of @fd to @value: 0 or -errno. */
static int sem_set(int fd, unsigned int idx, __u32 value)
{
	struct ncsync_op op = { .bank = NCSYNC_BANK_SEM, .op = NCSYNC_OP_SET,
				.index = idx, .value = value };

	return ioctl(fd, NCSYNC_IOC_OP, &op) ? -errno : 0;
}

/*
 * A program across cores whose core-1 member (fd[1]'s first program, id 1)
 * ends at once while core 0 waits for sem[9] >= 1; its id, once core 0
 * blocks.
 */
static __u32 submit_waiting(struct __test_metadata *_metadata,
			    const int *fd, struct rec_prog *a,
			    struct rec_prog *b)
{
	struct rec_queue *q = rec_prog_queue(a, NCSYNC_ENGINE_PE);
	__u32 id;

	rec_noop(q, NCSYNC_WAIT_SEM_GE, 9, 0, 0, 1);
	rec_exit(q);
	rec_exit(rec_prog_queue(b, NCSYNC_ENGINE_POOL));
	id = submit2(_metadata, fd, a, b, 0, LONG_MS);
	EXPECT_TRUE(wait_blocked(fd[0], id, 0));
	return id;
}

/*
 * The other core's descriptor forgets the member with the program
 * (engines.rst, "Programs across cores", Accounting): its id there names
 * nothing once the submitter released the program.  fd[1] is fresh: the
 * member is its first program, id 1.
 */
TEST_F(lnc, cores_member_forgotten_with_program)
{
	struct rec_prog a = { 0 }, b = { 0 };
	struct ncsync_prog_status ps;
	__u32 id;

	NEED_LNC();
	rec_exit(rec_prog_queue(&a, NCSYNC_ENGINE_PE));
	rec_exit(rec_prog_queue(&b, NCSYNC_ENGINE_POOL));
	id = submit2(_metadata, self->fd, &a, &b, 0, LONG_MS);
	expect_done(_metadata, self->fd[0], id);
	ASSERT_EQ(0, status_of(self->fd[1], 1, -1, &ps, NULL));
	EXPECT_EQ((__u32)NCSYNC_PROG_DONE, ps.state);
	ASSERT_EQ(0, release(self->fd[0], id));
	EXPECT_EQ(-ENOENT, status_of(self->fd[1], 1, -1, &ps, NULL));
	EXPECT_EQ(-ENOENT, status_of(self->fd[0], id, -1, &ps, NULL));
	rec_prog_free(&a);
	rec_prog_free(&b);
}

/* The member of a program that still runs stays until it is released. */
TEST_F(lnc, cores_member_listed_until_release)
{
	struct rec_prog a = { 0 }, b = { 0 };
	struct ncsync_prog_status ps;
	__u32 id;

	NEED_LNC();
	id = submit_waiting(_metadata, self->fd, &a, &b);
	EXPECT_EQ(-EBUSY, release(self->fd[0], id));
	EXPECT_EQ(0, status_of(self->fd[1], 1, -1, &ps, NULL));
	ASSERT_EQ(0, sem_set(self->fd[0], 9, 1));
	expect_done(_metadata, self->fd[0], id);
	EXPECT_EQ(0, status_of(self->fd[1], 1, -1, &ps, NULL));
	rec_prog_free(&a);
	rec_prog_free(&b);
}

/*
 * PROG_WAIT on the member's id, on the other core's descriptor, waits for
 * the whole program and reports its final state (the fuzzer saw "final
 * state 1": the member's own end, with the program still running).
 */
TEST_F(lnc, cores_member_wait_is_the_program)
{
	struct rec_prog a = { 0 }, b = { 0 };
	__u32 id, state;

	NEED_LNC();
	id = submit_waiting(_metadata, self->fd, &a, &b);
	EXPECT_EQ(-ETIMEDOUT, prog_wait(self->fd[1], 1, 200, &state))
		TH_LOG("returned with state %u while core 0 still waits",
		       state);
	ASSERT_EQ(0, sem_set(self->fd[0], 9, 1));
	ASSERT_EQ(0, prog_wait(self->fd[1], 1, LONG_MS, &state));
	EXPECT_EQ((__u32)NCSYNC_PROG_DONE, state);
	expect_done(_metadata, self->fd[0], id);
	rec_prog_free(&a);
	rec_prog_free(&b);
}

/* The ping-pong of ping_pong_between_cores, as one program. */
TEST_F(lnc, cores_ping_pong)
{
	struct rec_prog a = { 0 }, b = { 0 };
	struct rec_queue *qa, *qb;
	int i;

	NEED_LNC();
	qa = rec_prog_queue(&a, NCSYNC_ENGINE_ACT);
	qb = rec_prog_queue(&b, NCSYNC_ENGINE_ACT);
	for (i = 1; i <= ROUNDS; i++) {
		rec_dma_peer(qa, 1, 0, 64, 4, 0, UPD_INC, 1);
		rec_noop(qa, NCSYNC_WAIT_SEM_GE, 2, 0, 0, i);
		rec_noop(qb, NCSYNC_WAIT_SEM_GE, 1, 0, 0, i);
		rec_dma_peer(qb, 0, 0, 64, 4, 0, UPD_INC, 2);
	}
	rec_exit(qa);
	rec_drain(qb);
	rec_exit(qb);
	expect_done(_metadata, self->fd[0],
		    submit2(_metadata, self->fd, &a, &b, 0, LONG_MS));
	EXPECT_EQ(ROUNDS, sem_of(self->fd[0], 2));
	EXPECT_EQ(ROUNDS, sem_of(self->fd[1], 1));
	rec_prog_free(&a);
	rec_prog_free(&b);
}

/*
 * Core 1's ACT is busy with an earlier program: core 0's part, free to
 * run, does not start before core 1's may.
 */
TEST_F(lnc, cores_start_together)
{
	struct rec_prog blk = { 0 }, a = { 0 }, b = { 0 };
	struct ncsync_prog_status ps;
	struct ncsync_op op = { .bank = NCSYNC_BANK_SEM, .op = NCSYNC_OP_INC,
				.index = 20, .value = 1 };
	__u32 bid, id;

	NEED_LNC();
	rec_noop(rec_prog_queue(&blk, NCSYNC_ENGINE_ACT), NCSYNC_WAIT_SEM_GE,
		 20, 0, 0, 1);
	bid = submit(_metadata, self->fd[1], &blk);
	rec_inc(rec_prog_queue(&a, NCSYNC_ENGINE_PE), 21);
	rec_inc(rec_prog_queue(&b, NCSYNC_ENGINE_ACT), 22);
	id = submit2(_metadata, self->fd, &a, &b, 0, LONG_MS);
	usleep(200000);
	ASSERT_EQ(0, status_of(self->fd[0], id, 0, &ps, NULL));
	EXPECT_EQ((__u32)NCSYNC_PROG_QUEUED, ps.state);
	EXPECT_EQ(NCSYNC_ENG_QUEUED, ps.engines[0].state);
	EXPECT_EQ(0ULL, ps.engines[0].executed);
	EXPECT_EQ(0, sem_of(self->fd[0], 21));
	ASSERT_EQ(0, ioctl(self->fd[1], NCSYNC_IOC_OP, &op));
	expect_done(_metadata, self->fd[1], bid);
	expect_done(_metadata, self->fd[0], id);
	EXPECT_EQ(1, sem_of(self->fd[0], 21));
	EXPECT_EQ(1, sem_of(self->fd[1], 22));
	rec_prog_free(&blk);
	rec_prog_free(&a);
	rec_prog_free(&b);
}

/* The status reports each core's engines and semaphores, live and ended. */
TEST_F(lnc, cores_status_covers_every_core)
{
	struct ncsync_sem_value sems[NCSYNC_NUM_SEMS];
	struct rec_prog a = { 0 }, b = { 0 };
	struct ncsync_prog_status ps;
	struct ncsync_op op = { .bank = NCSYNC_BANK_SEM, .op = NCSYNC_OP_INC,
				.index = 33, .value = 1 };
	struct rec_queue *q;
	__u32 id;

	NEED_LNC();
	rec_inc(rec_prog_queue(&a, NCSYNC_ENGINE_PE), 30);
	q = rec_prog_queue(&b, NCSYNC_ENGINE_ACT);
	rec_noop(q, NCSYNC_WAIT_SEM_GE, 33, 0, 0, 1);
	rec_inc(q, 31);
	rec_inc(rec_prog_queue(&b, NCSYNC_ENGINE_DVE), 32);
	id = submit2(_metadata, self->fd, &a, &b, 0, LONG_MS);
	ASSERT_TRUE(wait_blocked(self->fd[0], id, 1));
	ASSERT_EQ(0, status_of(self->fd[0], id, 1, &ps, sems));
	EXPECT_EQ((__u32)NCSYNC_PROG_RUNNING, ps.state);
	EXPECT_EQ(2U, ps.nengines);
	EXPECT_EQ(NCSYNC_ENGINE_ACT, ps.engines[0].engine);
	EXPECT_EQ(33, ps.engines[0].wait_index);
	EXPECT_EQ(NCSYNC_ENGINE_DVE, ps.engines[1].engine);
	ASSERT_EQ(0, ioctl(self->fd[1], NCSYNC_IOC_OP, &op));
	expect_done(_metadata, self->fd[0], id);
	ASSERT_EQ(0, status_of(self->fd[0], id, -1, &ps, sems));
	EXPECT_EQ(1U, ps.nengines);
	EXPECT_EQ(NCSYNC_ENGINE_PE, ps.engines[0].engine);
	ASSERT_EQ(1U, ps.nsems);
	EXPECT_EQ(30U, sems[0].index);
	ASSERT_EQ(0, status_of(self->fd[0], id, 1, &ps, sems));
	EXPECT_EQ((__u32)NCSYNC_PROG_DONE, ps.state);
	EXPECT_EQ(2U, ps.nengines);
	EXPECT_EQ(NCSYNC_ENG_DONE, ps.engines[0].state);
	ASSERT_EQ(3U, ps.nsems);	/* 31, 32, 33 of core 1 */
	EXPECT_EQ(31U, sems[0].index);
	EXPECT_EQ(-EINVAL, status_of(self->fd[0], id, 2, &ps, NULL));
	ps.flags = 0;
	ps.core = 1;
	EXPECT_EQ(-1, ioctl(self->fd[0], NCSYNC_IOC_PROG_STATUS, &ps));
	EXPECT_EQ(EINVAL, errno);
	rec_prog_free(&a);
	rec_prog_free(&b);
}

/* Two parts that wait forever: a and b. */
static void forever2(struct rec_prog *a, struct rec_prog *b)
{
	rec_noop(rec_prog_queue(a, NCSYNC_ENGINE_PE), NCSYNC_WAIT_SEM_GE,
		 FOREVER, 0, 0, 1);
	rec_noop(rec_prog_queue(b, NCSYNC_ENGINE_ACT), NCSYNC_WAIT_SEM_GE,
		 FOREVER, 0, 0, 1);
}

TEST_F(lnc, cores_cancel_stops_every_core)
{
	static const __u8 st[2] = { NCSYNC_ENG_CANCELLED, NCSYNC_ENG_CANCELLED };
	static const __u8 f[2] = { NCSYNC_FAULT_CANCELLED, NCSYNC_FAULT_CANCELLED };
	struct rec_prog a = { 0 }, b = { 0 };
	struct ncsync_prog_cancel pc = { 0 };

	NEED_LNC();
	forever2(&a, &b);
	pc.id = submit2(_metadata, self->fd, &a, &b, 0, LONG_MS);
	ASSERT_TRUE(wait_blocked(self->fd[0], pc.id, 1));
	ASSERT_EQ(0, ioctl(self->fd[0], NCSYNC_IOC_PROG_CANCEL, &pc));
	expect_state(_metadata, self->fd[0], pc.id, NCSYNC_PROG_CANCELLED);
	expect_engines(_metadata, self->fd[0], pc.id, st, f);
	rec_prog_free(&a);
	rec_prog_free(&b);
}

/* A strict-mode fault on core 1 stops core 0's engine. */
TEST_F(lnc, cores_fault_stops_other_core)
{
	static const __u8 st[2] = { NCSYNC_ENG_CANCELLED, NCSYNC_ENG_FAULTED };
	static const __u8 f[2] = { NCSYNC_FAULT_PEER,
				   NCSYNC_FAULT_EVENT_SET_WHILE_SET };
	struct ncsync_op op = { .bank = NCSYNC_BANK_SEM, .op = NCSYNC_OP_INC,
				.index = 34, .value = 1 };
	struct rec_prog a = { 0 }, b = { 0 };
	struct rec_queue *q;
	__u32 id;

	NEED_LNC();
	rec_noop(rec_prog_queue(&a, NCSYNC_ENGINE_PE), NCSYNC_WAIT_SEM_GE,
		 FOREVER, 0, 0, 1);
	q = rec_prog_queue(&b, NCSYNC_ENGINE_ACT);
	rec_noop(q, NCSYNC_WAIT_SEM_GE, 34, 0, 0, 1);
	rec_noop(q, 0, 0, U_EVT_SET, 35, 0);
	rec_noop(q, 0, 0, U_EVT_SET, 35, 0);
	id = submit2(_metadata, self->fd, &a, &b, NCSYNC_SUBMIT_F_STRICT,
		     LONG_MS);
	ASSERT_TRUE(wait_blocked(self->fd[0], id, 0));
	ASSERT_TRUE(wait_blocked(self->fd[0], id, 1));
	ASSERT_EQ(0, ioctl(self->fd[1], NCSYNC_IOC_OP, &op));
	expect_state(_metadata, self->fd[0], id, NCSYNC_PROG_FAULTED);
	expect_engines(_metadata, self->fd[0], id, st, f);
	rec_prog_free(&a);
	rec_prog_free(&b);
}

/*
 * Both cores wait forever: the watchdog times the whole program out, and
 * each core's snapshot (the deadlock report) shows what its engine waited
 * on when it fired.
 */
TEST_F(lnc, cores_watchdog_times_out_every_core)
{
	static const __u8 st[2] = { NCSYNC_ENG_BLOCKED, NCSYNC_ENG_BLOCKED };
	static const __u8 f[2] = { NCSYNC_FAULT_NONE, NCSYNC_FAULT_NONE };
	struct rec_prog a = { 0 }, b = { 0 };
	struct ncsync_prog_status ps;
	__u32 id;
	int pos;

	NEED_LNC();
	forever2(&a, &b);
	id = submit2(_metadata, self->fd, &a, &b, 0, 300);
	expect_state(_metadata, self->fd[0], id, NCSYNC_PROG_TIMED_OUT);
	expect_engines(_metadata, self->fd[0], id, st, f);
	for (pos = 0; pos < 2; pos++) {
		ASSERT_EQ(0, status_of(self->fd[0], id, pos, &ps, NULL));
		EXPECT_EQ(FOREVER, ps.engines[0].wait_index);
		EXPECT_EQ(NCSYNC_BLOCK_SEM, ps.engines[0].wait_kind);
	}
	rec_prog_free(&a);
	rec_prog_free(&b);
}

/* A reset of core 1 fails the program: core 0's engine stops too. */
TEST_F(lnc, cores_reset_fails_program)
{
	static const __u8 st[2] = { NCSYNC_ENG_CANCELLED, NCSYNC_ENG_CANCELLED };
	static const __u8 f[2] = { NCSYNC_FAULT_RESET, NCSYNC_FAULT_RESET };
	struct rec_prog a = { 0 }, b = { 0 };
	__u32 id;

	NEED_LNC();
	forever2(&a, &b);
	id = submit2(_metadata, self->fd, &a, &b, 0, LONG_MS);
	ASSERT_TRUE(wait_blocked(self->fd[0], id, 0));
	ASSERT_EQ(0, reset(self->fd[1]));
	expect_state(_metadata, self->fd[0], id, NCSYNC_PROG_CANCELLED);
	expect_engines(_metadata, self->fd[0], id, st, f);
	rec_prog_free(&a);
	rec_prog_free(&b);
}

/* Core 1's part is done; a reset of core 1 still fails the program. */
TEST_F(lnc, cores_reset_after_part_ended)
{
	struct rec_prog a = { 0 }, b = { 0 };
	struct ncsync_prog_status ps;
	__u32 id;
	int i;

	NEED_LNC();
	rec_noop(rec_prog_queue(&a, NCSYNC_ENGINE_PE), NCSYNC_WAIT_SEM_GE,
		 FOREVER, 0, 0, 1);
	rec_inc(rec_prog_queue(&b, NCSYNC_ENGINE_ACT), 36);
	id = submit2(_metadata, self->fd, &a, &b, 0, LONG_MS);
	for (i = 0; i < 5000 && sem_of(self->fd[1], 36) != 1; i++)
		usleep(1000);
	ASSERT_TRUE(wait_blocked(self->fd[0], id, 0));
	ASSERT_EQ(0, status_of(self->fd[0], id, 1, &ps, NULL));
	ASSERT_EQ(NCSYNC_ENG_DONE, ps.engines[0].state);
	ASSERT_EQ(0, reset(self->fd[1]));
	expect_state(_metadata, self->fd[0], id, NCSYNC_PROG_CANCELLED);
	ASSERT_EQ(0, status_of(self->fd[0], id, 0, &ps, NULL));
	EXPECT_EQ(NCSYNC_FAULT_RESET, ps.engines[0].fault);
	rec_prog_free(&a);
	rec_prog_free(&b);
}

/* kill -9 of the submitter cancels every core's part: the engines free. */
TEST_F(lnc, cores_kill9_of_submitter)
{
	struct rec_prog a = { 0 }, b = { 0 }, c = { 0 }, d = { 0 };
	int pipefd[2];
	pid_t pid;
	char ok;

	NEED_LNC();
	forever2(&a, &b);
	ASSERT_EQ(0, pipe(pipefd));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		int fd[2] = { open_core(0), open_core(1) };
		struct part parts[2] = { { &a, 0 }, { &b, 1 } };
		struct ncsync_submit sub;

		if (fd[0] < 0 || fd[1] < 0 ||
		    cores_submit(fd[0], parts, 2, &fd[1], 1, 0, LONG_MS, &sub) ||
		    !wait_blocked(fd[0], sub.id, 1))
			_exit(1);
		if (write(pipefd[1], "k", 1) != 1)
			_exit(1);
		pause();
		_exit(0);
	}
	ASSERT_EQ(1, read(pipefd[0], &ok, 1));
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	/* The same engines again: they run only once the parts are gone. */
	rec_inc(rec_prog_queue(&c, NCSYNC_ENGINE_PE), 37);
	rec_inc(rec_prog_queue(&d, NCSYNC_ENGINE_ACT), 38);
	expect_done(_metadata, self->fd[0],
		    submit2(_metadata, self->fd, &c, &d, 0, LONG_MS));
	EXPECT_EQ(1, sem_of(self->fd[1], 38));
	close(pipefd[0]);
	close(pipefd[1]);
	rec_prog_free(&a);
	rec_prog_free(&b);
	rec_prog_free(&c);
	rec_prog_free(&d);
}

/* Closing core 1's descriptor while the program runs cancels it. */
TEST_F(lnc, cores_close_of_other_descriptor_cancels)
{
	struct rec_prog a = { 0 }, b = { 0 };
	struct part parts[2] = { { &a, 0 }, { &b, 1 } };
	struct ncsync_submit sub;
	int fd1;

	NEED_LNC();
	forever2(&a, &b);
	fd1 = open_core(1);
	ASSERT_LE(0, fd1);
	ASSERT_EQ(0, cores_submit(self->fd[0], parts, 2, &fd1, 1, 0, LONG_MS,
				  &sub));
	ASSERT_TRUE(wait_blocked(self->fd[0], sub.id, 1));
	close(fd1);
	expect_state(_metadata, self->fd[0], sub.id, NCSYNC_PROG_CANCELLED);
	rec_prog_free(&a);
	rec_prog_free(&b);
}

/*
 * Submit a program incrementing semaphore 50 on both cores with @fds:
 * the error, then check that nothing ran and nothing was named.
 */
static int refused(struct __test_metadata *_metadata, int fd0, int fd1,
		   const int *fds, unsigned int nfds, __u8 pos1)
{
	struct rec_prog a = { 0 }, b = { 0 };
	struct part parts[2] = { { &a, 0 }, { &b, pos1 } };
	struct ncsync_submit sub;
	int ret;

	rec_inc(rec_prog_queue(&a, NCSYNC_ENGINE_PE), 50);
	rec_inc(rec_prog_queue(&b, NCSYNC_ENGINE_ACT), 50);
	ret = cores_submit(fd0, parts, 2, fds, nfds, 0, LONG_MS, &sub);
	EXPECT_EQ(0U, sub.id);
	usleep(50000);
	EXPECT_EQ(0, sem_of(fd0, 50));
	EXPECT_EQ(0, sem_of(fd1, 50));
	rec_prog_free(&a);
	rec_prog_free(&b);
	return ret;
}

TEST_F(lnc, cores_readonly_descriptor_eacces)
{
	int ro;

	NEED_LNC();
	ro = open("/dev/ncsync1", O_RDONLY | O_CLOEXEC);
	ASSERT_LE(0, ro);
	EXPECT_EQ(-EACCES, refused(_metadata, self->fd[0], self->fd[1], &ro,
				   1, 1));
	close(ro);
}

TEST_F(lnc, cores_queue_outside_logical_core_einval)
{
	NEED_LNC();
	EXPECT_EQ(-EINVAL, refused(_metadata, self->fd[0], self->fd[1],
				   &self->fd[1], 1, self->info.lnc));
}

TEST_F(lnc, cores_descriptor_of_other_logical_core_exdev)
{
	int fd2;

	NEED_LNC();
	if (self->info.num_cores < 2 * self->info.lnc)
		SKIP(return, "one logical core only");
	fd2 = open_core(self->info.lnc);	/* the next logical core */
	ASSERT_LE(0, fd2);
	EXPECT_EQ(-EXDEV, refused(_metadata, self->fd[0], self->fd[1], &fd2,
				  1, 1));
	close(fd2);
}

TEST_F(lnc, cores_bad_fd_ebadf)
{
	int bad = -1;

	NEED_LNC();
	EXPECT_EQ(-EBADF, refused(_metadata, self->fd[0], self->fd[1], &bad,
				  1, 1));
}

TEST_F(lnc, cores_not_ncsync_fd_einval)
{
	int null = open("/dev/null", O_RDWR | O_CLOEXEC);

	NEED_LNC();
	ASSERT_LE(0, null);
	EXPECT_EQ(-EINVAL, refused(_metadata, self->fd[0], self->fd[1], &null,
				   1, 1));
	close(null);
}

TEST_F(lnc, cores_duplicate_core_einval)
{
	int fds[2] = { self->fd[1], -1 };

	NEED_LNC();
	fds[1] = dup(self->fd[1]);
	ASSERT_LE(0, fds[1]);
	EXPECT_EQ(-EINVAL, refused(_metadata, self->fd[0], self->fd[1], fds,
				   2, 1));
	close(fds[1]);
}

TEST_F(lnc, cores_own_core_as_fd_einval)
{
	NEED_LNC();
	EXPECT_EQ(-EINVAL, refused(_metadata, self->fd[0], self->fd[1],
				   &self->fd[0], 1, 1));
}

TEST_F(lnc, cores_named_core_without_fd_einval)
{
	NEED_LNC();
	EXPECT_EQ(-EINVAL, refused(_metadata, self->fd[0], self->fd[1], NULL,
				   0, 1));
}

/* A descriptor of a core no queue names. */
TEST_F(lnc, cores_unnamed_core_fd_einval)
{
	NEED_LNC();
	EXPECT_EQ(-EINVAL, refused(_metadata, self->fd[0], self->fd[1],
				   &self->fd[1], 1, 0));
}

TEST_F(lnc, cores_unreadable_fds_efault)
{
	NEED_LNC();
	EXPECT_EQ(-EFAULT, refused(_metadata, self->fd[0], self->fd[1],
				   (const int *)8, 1, 1));
}

TEST_F(lnc, cores_submitter_core_unnamed_einval)
{
	struct rec_prog b = { 0 };
	struct part parts[1] = { { &b, 1 } };
	struct ncsync_submit sub;

	NEED_LNC();
	rec_inc(rec_prog_queue(&b, NCSYNC_ENGINE_ACT), 51);
	EXPECT_EQ(-EINVAL, cores_submit(self->fd[0], parts, 1, &self->fd[1], 1,
					0, LONG_MS, &sub));
	usleep(50000);
	EXPECT_EQ(0, sem_of(self->fd[1], 51));
	rec_prog_free(&b);
}

TEST_F(lnc, cores_engine_twice_on_core_einval)
{
	struct rec_prog a = { 0 }, b = { 0 };
	struct part parts[3] = { { &a, 0 }, { &b, 1 }, { &b, 1 } };
	struct ncsync_submit sub;

	NEED_LNC();
	rec_inc(rec_prog_queue(&a, NCSYNC_ENGINE_PE), 52);
	rec_inc(rec_prog_queue(&b, NCSYNC_ENGINE_ACT), 52);
	EXPECT_EQ(-EINVAL, cores_submit(self->fd[0], parts, 3, &self->fd[1], 1,
					0, LONG_MS, &sub));
	usleep(50000);
	EXPECT_EQ(0, sem_of(self->fd[0], 52));
	EXPECT_EQ(0, sem_of(self->fd[1], 52));
	rec_prog_free(&a);
	rec_prog_free(&b);
}

/* A bad record on core 1 is named with its core; nothing runs. */
TEST_F(lnc, cores_bad_record_names_core)
{
	struct rec_prog a = { 0 }, b = { 0 };
	struct part parts[2] = { { &a, 0 }, { &b, 1 } };
	struct ncsync_submit sub;
	struct rec_queue *q;

	NEED_LNC();
	rec_inc(rec_prog_queue(&a, NCSYNC_ENGINE_PE), 53);
	q = rec_prog_queue(&b, NCSYNC_ENGINE_ACT);
	rec_inc(q, 53);
	rec_dma_peer(q, self->info.lnc, 0, 64, 8, 0, UPD_INC, 53);
	EXPECT_EQ(-EINVAL, cores_submit(self->fd[0], parts, 2, &self->fd[1], 1,
					0, LONG_MS, &sub));
	EXPECT_EQ(NCSYNC_REC_DMA_PEER_OUTSIDE, (int)sub.reason);
	EXPECT_EQ(1U, sub.bad_core);
	EXPECT_EQ(NCSYNC_ENGINE_ACT, (int)sub.bad_engine);
	EXPECT_EQ(1U, sub.bad_index);
	usleep(50000);
	EXPECT_EQ(0, sem_of(self->fd[0], 53));
	EXPECT_EQ(0, sem_of(self->fd[1], 53));
	rec_prog_free(&a);
	rec_prog_free(&b);
}

/*
 * Without the flag: a descriptor no completion lands through, a descriptor
 * pointer without a count, reserved2 and a position are refused; the
 * 40-byte form works.
 */
TEST_F(lnc, cores_fields_without_flag)
{
	struct rec_prog a = { 0 };
	struct ncsync_queue uq = { 0 };
	struct ncsync_submit sub = { 0 };

	NEED_LNC();
	rec_inc(rec_prog_queue(&a, NCSYNC_ENGINE_PE), 54);
	uq.records = (uintptr_t)a.q[0].r;
	uq.count = a.q[0].n;
	uq.engine = NCSYNC_ENGINE_PE;
	sub.queues = (uintptr_t)&uq;
	sub.nqueues = 1;
	sub.fds = (uintptr_t)&self->fd[1];	/* no completion on core 1 */
	sub.nfds = 1;
	EXPECT_EQ(-1, ioctl(self->fd[0], NCSYNC_IOC_SUBMIT, &sub));
	EXPECT_EQ(EINVAL, errno);
	sub.nfds = 0;			/* a pointer without a count */
	EXPECT_EQ(-1, ioctl(self->fd[0], NCSYNC_IOC_SUBMIT, &sub));
	EXPECT_EQ(EINVAL, errno);
	sub.fds = 0;
	sub.reserved2[1] = 1;
	EXPECT_EQ(-1, ioctl(self->fd[0], NCSYNC_IOC_SUBMIT, &sub));
	EXPECT_EQ(EINVAL, errno);
	sub.reserved2[1] = 0;
	uq.pad[0] = 1;		/* a position without the flag */
	EXPECT_EQ(-1, ioctl(self->fd[0], NCSYNC_IOC_SUBMIT, &sub));
	EXPECT_EQ(EINVAL, errno);
	uq.pad[0] = 0;
	sub.fds = 0xdead0000;	/* past the 40 bytes: not read */
	ASSERT_EQ(0, ioctl(self->fd[0], NCSYNC_IOC_SUBMIT_V1, &sub));
	expect_done(_metadata, self->fd[0], sub.id);
	EXPECT_EQ(1, sem_of(self->fd[0], 54));
	rec_prog_free(&a);
}

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
