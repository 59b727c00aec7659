/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the ncsync_lnc_*_test selftests of logical cores share
 * (Documentation/ncsync/engines.rst, "Logical cores"): the "lnc" fixture,
 * a descriptor of core 0 and of core 1, both reset; submission on a core
 * and with a peer's descriptor; and programs across cores
 * (NCSYNC_SUBMIT_F_CORES, engines.rst, "Programs across cores"): their
 * parts, their submission and their status.  The tests need the module
 * loaded with lnc of 2 or more, which ncsync_lnc_test.sh does (cores=4
 * lnc=2); with lnc 1 every test is skipped.  Records come from the
 * selftests' own encoder (ncsync_rec.h).
 */
#ifndef NCSYNC_LNC_H
#define NCSYNC_LNC_H

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

static inline int open_core(unsigned int core)
{
	char path[32];

	snprintf(path, sizeof(path), "/dev/ncsync%u", core);
	return open(path, O_RDWR | O_CLOEXEC);
}

static inline __s32 sem_of(int fd, unsigned int idx)
{
	struct ncsync_op op = { .bank = NCSYNC_BANK_SEM, .op = NCSYNC_OP_READ,
				.index = idx };

	if (ioctl(fd, NCSYNC_IOC_OP, &op))
		return -12345;
	return op.after;
}

static inline int event_of(int fd, unsigned int idx)
{
	struct ncsync_op op = { .bank = NCSYNC_BANK_EVENT,
				.op = NCSYNC_OP_READ, .index = idx };

	if (ioctl(fd, NCSYNC_IOC_OP, &op))
		return -1;
	return op.after;
}

static inline int reset(int fd)
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

/*
 * ROUNDS rounds of a ping-pong: in round i, @qa (core 0) posts core 1's
 * sem[1] and waits for its own sem[2] >= i; @qb (core 1) waits for sem[1]
 * >= i and answers on core 0's sem[2]; @qb drains before it exits.
 */
static inline void ping_pong_queues(struct rec_queue *qa, struct rec_queue *qb)
{
	int i;

	for (i = 1; i <= ROUNDS; i++) {
		rec_dma_peer(qa, 1, 0, 64, 4, 0, UPD_INC, 1);
		rec_noop(qa, NCSYNC_WAIT_SEM_GE, 2, 0, 0, i);
		rec_noop(qb, NCSYNC_WAIT_SEM_GE, 1, 0, 0, i);
		rec_dma_peer(qb, 0, 0, 64, 4, 0, UPD_INC, 2);
	}
	rec_exit(qa);
	rec_drain(qb);
	rec_exit(qb);
}

/* Submit @p on @fd: its id. */
static inline __u32 submit(struct __test_metadata *_metadata, int fd,
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
static inline __u32 submit_peer(struct __test_metadata *_metadata, int fd,
			 const struct rec_prog *p, int peer)
{
	struct ncsync_submit sub;
	int ret = rec_prog_submit_fds(fd, p, 0, LONG_MS, &peer, 1, &sub);

	EXPECT_EQ(0, ret) TH_LOG("SUBMIT: %s (engine %u record %u reason %u)",
				 strerror(-ret), sub.bad_engine, sub.bad_index,
				 sub.reason);
	return sub.id;
}

static inline void expect_done(struct __test_metadata *_metadata, int fd, __u32 id)
{
	__u32 state;

	ASSERT_EQ(0, prog_wait(fd, id, LONG_MS, &state));
	EXPECT_EQ((__u32)NCSYNC_PROG_DONE, state);
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
static inline int cores_submit(int fd, const struct part *parts, unsigned int n,
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
static inline __u32 submit2(struct __test_metadata *_metadata, const int *fd,
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
static inline int status_of(int fd, __u32 id, int pos, struct ncsync_prog_status *ps,
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
static inline bool wait_blocked(int fd, __u32 id, int pos)
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

static inline void expect_state(struct __test_metadata *_metadata, int fd, __u32 id,
			 __u32 want)
{
	__u32 state;

	ASSERT_EQ(0, prog_wait(fd, id, LONG_MS, &state));
	EXPECT_EQ(want, state);
}

/* Both cores' engine 0 of @id, once ended: state and fault. */
static inline void expect_engines(struct __test_metadata *_metadata, int fd,
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

#endif /* NCSYNC_LNC_H */
