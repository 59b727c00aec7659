/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the ncsync_engine_*_test selftests share: programs of 64-byte engine
 * records (NCSYNC_IOC_SUBMIT, NCSYNC_IOC_PROG_*), run by the datapath
 * engines of core 0, and the "core" fixture, each of its tests starting
 * from a freshly reset core 0.
 *
 * Every record is encoded byte by byte by ncsync_rec.h, at the offsets of
 * Documentation/ncsync/records.rst (from the seeds' byte maps, or
 * model-defined: Mov32, PollSem, DMA); no library builder is used.
 *
 * Programs that must end get a long watchdog (WD_LONG) and are waited for
 * with a long deadline (LONG_MS), so that a lost wake-up fails instead of
 * hanging; programs that must time out get a short watchdog.  No test
 * asserts an upper bound on any duration.
 */
#ifndef NCSYNC_ENGINE_H
#define NCSYNC_ENGINE_H

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/epoll.h>
#include <sys/mman.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/ncsync.h>

#include "kselftest_harness.h"
#include "ncsync_selftest.h"
#include "ncsync_rec.h"

#define DEV0		"/dev/ncsync0"

#define EVT(i)		(NCSYNC_CSR_EVENTS + 4 * (i))
#define SEM_RD(i)	(NCSYNC_CSR_SEM_READ + 4 * (i))
#define SEM_SET(i)	(NCSYNC_CSR_SEM_SET + 4 * (i))
#define SEM_INC(i)	(NCSYNC_CSR_SEM_INC + 4 * (i))

#define LONG_MS		20000	/* deadline of a wait that must end */
#define WD_LONG		20000	/* watchdog of a program that must not time out */
#define WD_SHORT	200	/* watchdog of a program that must time out */

#define NSEC_PER_SEC	1000000000LL
#define NSEC_PER_MSEC	1000000LL

#define REC		NCSYNC_RECORD_SIZE

/* Wire values of records.rst / SYNC, spelled out as the seeds give them. */
#define W_EQ		0x01
#define W_LT		0x02
#define W_LE		0x03
#define W_GT		0x04
#define W_GE		0x05
#define W_EVT_SET	0x06
#define W_EVT_SET_CLR	0x07
#define W_EVT_CLR	0x0E
#define W_EVT_CLR_SET	0x0F
#define W_REG		0x80

#define U_EVT_SET	0x01
#define U_EVT_CLR	0x02
#define U_INC		0x03
#define U_DEC		0x04
#define U_ADD		0x05
#define U_SUB		0x07
#define U_WRITE		0x09
#define U_COMPLETE	0x10
#define U_REG		0x80

static const __u8 engine_ids[NCSYNC_NUM_ENGINES] = { 1, 2, 3, 5, 6 };

/* ---------------------------------------------------------------------- */
/* Records of this test (ncsync_rec.h has the record families)             */

/* NoOp writing register @reg into @sem (update 0x89, register operand). */
static inline __u8 *rec_store_reg(struct rec_queue *q, __u8 sem, __u8 reg)
{
	return rec_noop(q, 0, 0, U_REG | U_WRITE, sem, reg);
}

static inline __u8 *rec_movi(struct rec_queue *q, __u8 dst, __u32 imm)
{
	return rec_mov(q, NCSYNC_ALU_MOV_IMM, dst, 0, imm);
}

/* ---------------------------------------------------------------------- */
/* ioctl helpers                                                           */

static inline int submit_raw(int fd, struct ncsync_submit *sub)
{
	return ioctl(fd, NCSYNC_IOC_SUBMIT, sub) ? -errno : 0;
}

static inline __u32 submit_ok(struct __test_metadata *_metadata, int fd,
		       const struct rec_prog *p, __u32 flags, __u32 wd)
{
	struct ncsync_submit sub;
	int ret = rec_prog_submit(fd, p, flags, wd, &sub);

	ASSERT_EQ(0, ret) TH_LOG("SUBMIT: %s (engine %u record %u reason %u)",
				 strerror(-ret), sub.bad_engine, sub.bad_index,
				 sub.reason);
	ASSERT_NE(0, (int)sub.id);
	return sub.id;
}

/* Wait for a program to end; return its final state. */
static inline int wait_end(struct __test_metadata *_metadata, int fd, __u32 id)
{
	__u32 state = ~0U;
	int ret = prog_wait(fd, id, LONG_MS, &state);

	ASSERT_EQ(0, ret) TH_LOG("PROG_WAIT %u: %s", id, strerror(-ret));
	return (int)state;
}

static inline void status_get(struct __test_metadata *_metadata, int fd, __u32 id,
		       struct ncsync_prog_status *ps,
		       struct ncsync_sem_value *sems)
{
	int ret = prog_status(fd, id, 0, ps, sems);

	ASSERT_EQ(0, ret) TH_LOG("PROG_STATUS %u: %s", id, strerror(-ret));
}

/* Poll until engine @e (submission order) of a running program is @state. */
static inline void wait_engine(struct __test_metadata *_metadata, int fd, __u32 id,
			unsigned int e, __u8 state,
			struct ncsync_prog_status *out)
{
	__s64 end = now_ns() + LONG_MS * NSEC_PER_MSEC;
	struct ncsync_prog_status ps;

	for (;;) {
		status_get(_metadata, fd, id, &ps, NULL);
		if (ps.engines[e].state == state)
			break;
		ASSERT_GT(NCSYNC_PROG_DONE, (int)ps.state)
			TH_LOG("program %u ended (state %u) before engine %u reached state %u",
			       id, ps.state, e, state);
		ASSERT_GT(end, now_ns())
			TH_LOG("engine %u of program %u never reached state %u (%u)",
			       e, id, state, ps.engines[e].state);
		usleep(1000);
	}
	if (out)
		*out = ps;
}

static inline void wait_blocked(struct __test_metadata *_metadata, int fd, __u32 id,
			 unsigned int e, struct ncsync_prog_status *out)
{
	wait_engine(_metadata, fd, id, e, NCSYNC_ENG_BLOCKED, out);
}

static inline int cancel(int fd, __u32 id, __u32 flags)
{
	struct ncsync_prog_cancel pc = { .id = id, .flags = flags };

	return ioctl(fd, NCSYNC_IOC_PROG_CANCEL, &pc) ? -errno : 0;
}

static inline void core_reset(struct __test_metadata *_metadata, int fd)
{
	struct ncsync_reset r = { 0 };

	ASSERT_EQ(0, ioctl(fd, NCSYNC_IOC_RESET, &r))
		TH_LOG("RESET: %s", strerror(errno));
}

static inline __s32 sem_get(struct __test_metadata *_metadata, int fd, unsigned int i)
{
	__s32 v = 0;

	ASSERT_EQ(4, pread(fd, &v, 4, SEM_RD(i)))
		TH_LOG("pread sem %u: %s", i, strerror(errno));
	return v;
}

static inline void sem_set(struct __test_metadata *_metadata, int fd, unsigned int i,
		    __s32 v)
{
	ASSERT_EQ(4, pwrite(fd, &v, 4, SEM_SET(i)))
		TH_LOG("pwrite sem %u: %s", i, strerror(errno));
}

static inline void sems_get(struct __test_metadata *_metadata, int fd, __s32 *v)
{
	ASSERT_EQ(1024, pread(fd, v, 1024, SEM_RD(0)));
}

static inline void sems_set(struct __test_metadata *_metadata, int fd,
		     const __s32 *v)
{
	ASSERT_EQ(1024, pwrite(fd, v, 1024, SEM_SET(0)));
}

static inline int evt_get(struct __test_metadata *_metadata, int fd, unsigned int i)
{
	__u32 v = 0;

	ASSERT_EQ(4, pread(fd, &v, 4, EVT(i)));
	return v;
}

static inline void evt_set(struct __test_metadata *_metadata, int fd, unsigned int i,
		    bool set)
{
	__u32 v = set;

	ASSERT_EQ(4, pwrite(fd, &v, 4, EVT(i)));
}

static inline int sem_wait_ioctl(int fd, unsigned int i, __u8 mode, __s32 value,
			  int ms)
{
	struct ncsync_wait w = {
		.bank = NCSYNC_BANK_SEM, .mode = mode, .index = i,
		.value = value, .deadline = deadline_ms(ms),
	};

	return ioctl(fd, NCSYNC_IOC_WAIT, &w) ? -errno : 0;
}

static inline void stats_get(struct __test_metadata *_metadata, int fd,
		      struct ncsync_stats *st)
{
	ASSERT_EQ(0, ioctl(fd, NCSYNC_IOC_STATS, st));
}

/* The device memory of a core, mapped, and a copy from half to half. */
struct devmem {
	__u8 *p;
	size_t size;
	__u64 src;
	__u64 dst;
	__u32 len;
};

static inline void devmem_map(struct __test_metadata *_metadata, int fd,
			      struct devmem *m)
{
	struct ncsync_info info;

	ASSERT_EQ(0, ioctl(fd, NCSYNC_IOC_INFO, &info));
	ASSERT_EQ(NCSYNC_DEVMEM_OFFSET, (int)info.devmem_offset);
	ASSERT_LE(8192, (int)info.devmem_size);
	m->size = info.devmem_size;
	m->p = mmap(NULL, m->size, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		    NCSYNC_DEVMEM_OFFSET);
	ASSERT_NE(MAP_FAILED, m->p) TH_LOG("mmap devmem: %s", strerror(errno));
	m->len = m->size / 2 < 4096 ? m->size / 2 : 4096;
	m->src = 0;
	m->dst = m->size / 2;
}

/* ---------------------------------------------------------------------- */
/* The fixture                                                             */

NCSYNC_CORE_FIXTURE();

#endif /* NCSYNC_ENGINE_H */
