/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the ncsync_badinput_*_test selftests share: the bad-input table's
 * fixture, its variants' layout, the "nothing changed" checks, the call of
 * an ioctl case and the one test every case runs (errno_and_state).  The
 * table is split by concern: the ioctls of the banks (ioctl), submission
 * and the program ioctls (prog), the file operations (file).
 *
 * One fixture variant per case, so that each case is a TAP result of its
 * own: every ioctl of <linux/ncsync.h> and every field it carries (bad
 * argument pointers, command numbers with a wrong size or direction,
 * non-zero pad, reserved and flag bits, out-of-range indices, engines and
 * registers, zero and huge counts, past and unnormalised deadlines, every
 * record of the shared bad-record table at the first and the last record
 * of a long queue), then the edge cases of pread, pwrite, read, write,
 * lseek, mmap, mprotect, mremap and open.  Each case expects the exact errno of
 * Documentation/ncsync/uapi.rst.
 *
 * Around every case the test checks that nothing changed:
 *
 *  - the event and semaphore windows (pread of 0x0000 and 0x1000), the
 *    core's counters and change sequence (NCSYNC_IOC_STATS), poll() of the
 *    descriptor and /sys/kernel/debug/ncsync/core0;
 *  - two programs of the fixture, one that ended (DONE) and one blocked in
 *    a wait (NCSYNC_IOC_PROG_STATUS, with its semaphore list);
 *  - the kernel log, read from /dev/kmsg from where the case started: no
 *    WARNING, BUG, Oops, lockdep or sanitizer report;
 *  - the argument: a failed ioctl leaves it as it was, except for the
 *    documented write-back of NCSYNC_IOC_SUBMIT on EINVAL, whose out fields
 *    are checked instead.
 *
 * Every bad case starts from a valid request that would change the core
 * (a semaphore set, a reset, a cancel, a release...) and breaks one thing,
 * so that a request wrongly accepted shows up as a change too.
 *
 * Output-only fields go in as 0xA5 bytes.  The ok_* cases are successful
 * calls that check every out field came back defined and every pad,
 * reserved and unused byte zero (no uninitialised kernel bytes).
 */
#ifndef NCSYNC_BADINPUT_H
#define NCSYNC_BADINPUT_H

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/types.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include <linux/ncsync.h>

#include "kselftest_harness.h"
#include "ncsync_selftest.h"
#include "ncsync_rec.h"
#include "bad_records.h"

/*
 * EXPECT_EQ(0, field) and the like compare an int with __u32 and __u64
 * fields all over the table; the values involved are small.
 */
#pragma GCC diagnostic ignored "-Wsign-compare"

#define DEV0		"/dev/ncsync0"
#define DEBUGFS0	"/sys/kernel/debug/ncsync/core0"
#define NODE_PATH	"/dev/ncsync-badinput-node"

#define REC		NCSYNC_RECORD_SIZE
#define LONG_Q		4096	/* records of a long queue: 64 decode chunks */
#define SHORT_Q		10	/* records of the queue before it */
#define LONG_MS		20000	/* deadline of a wait that must end */
#define WD_MAX		3600000	/* the blocked program never times out */

#define BLK_SEM		250	/* the blocked program waits for it >= 1 */
#define BLK_INC		251	/* ... and would then increment this one */
#define DONE_SEM	252	/* the ended program incremented it once */
#define CANARY_SEM	210	/* every record of a refused program bumps it */

#define A5		0xA5A5A5A5U
#define KADDR		0xffffffff81000000ULL	/* kernel text */
#define HIGHADDR	0x0000800000000000ULL	/* just above user space */

#define NSEC_PER_SEC	1000000000LL
#define NSEC_PER_MSEC	1000000LL

#define DBG_MAX		(256 * 1024)

/* Where an argument (or an array it points to) is put. */
enum {
	P_OK,		/* readable and writable memory */
	P_NULL,
	P_UNMAPPED,	/* the first byte of an unmapped page */
	P_KERNEL,	/* a kernel address */
	P_HIGH,		/* the first address above user space */
	P_RO,		/* a read-only page */
	P_STRADDLE,	/* the last byte in an unmapped page */
};

/* Which descriptor a case uses. */
enum {
	F_RW,		/* the fixture's: it submitted the two programs */
	F_RO,		/* O_RDONLY */
	F_WO,		/* O_WRONLY */
	F_OTHER,	/* another O_RDWR open file */
};

/* Program id of NCSYNC_IOC_PROG_* */
enum { ID_BLOCKED, ID_DONE, ID_RAW };
/* Deadline of a wait */
enum { DL_RAW, DL_RECENT };
/* Operations of a batch */
enum { OPS_INC, OPS_READ };
/* Calls of the file operation cases */
enum { RW_READ, RW_WRITE };

/* ---------------------------------------------------------------------- */
/* Time, records                                                           */

/* NoOp whose events-block update is +1 of @sem (the _READ form). */
static inline void rec_noop_inc(__u8 *r, __u8 sem)
{
	enc_noop(r, NCSYNC_WAIT_NONE, 0, NCSYNC_UPD_SEM_INC, sem, 0);
}

/* The core's state after the fixture's set-up. */
static inline __s32 sem_pat(unsigned int i)
{
	return (__s32)(i * 2654435761U) >> 3 | 1;
}

static inline __s32 seed_sem(unsigned int i)
{
	if (i == BLK_SEM)
		return 0;
	if (i == DONE_SEM)
		return sem_pat(i) + 1;
	return sem_pat(i);
}

static inline __u32 seed_evt(unsigned int i)
{
	return !(i % 3);
}

/* ---------------------------------------------------------------------- */
/* Arguments and the places they live in                                   */

union arg {
	struct ncsync_info info;
	struct ncsync_op op;
	struct ncsync_batch batch;
	struct ncsync_wait wait;
	struct ncsync_reset reset;
	struct ncsync_seq seq;
	struct ncsync_stats stats;
	struct ncsync_submit submit;
	struct ncsync_prog_status ps;
	struct ncsync_prog_wait pw;
	struct ncsync_prog_cancel pc;
	__u8 raw[256];
};

/* @size bytes of read-write memory, then an unmapped page. */
struct region {
	char *base;
	size_t size;
};

static inline size_t arg_size(unsigned int cmd)
{
	switch (cmd) {
	case NCSYNC_IOC_INFO:
	case NCSYNC_IOC_OP:
	case NCSYNC_IOC_BATCH:
	case NCSYNC_IOC_WAIT:
	case NCSYNC_IOC_RESET:
	case NCSYNC_IOC_ACK:
	case NCSYNC_IOC_STATS:
	case NCSYNC_IOC_SUBMIT:
	case NCSYNC_IOC_PROG_STATUS:
	case NCSYNC_IOC_PROG_WAIT:
	case NCSYNC_IOC_PROG_CANCEL:
		return _IOC_SIZE(cmd);
	default:
		return sizeof(union arg);
	}
}

/* Put @size bytes of @src where @kind says; return the address. */
static inline void *region_put(struct region *r, int kind, const void *src,
			size_t size)
{
	char *end = r->base + r->size;

	if (size > r->size)
		size = r->size;
	switch (kind) {
	case P_NULL:
		return NULL;
	case P_UNMAPPED:
		return end;
	case P_KERNEL:
		return (void *)(uintptr_t)KADDR;
	case P_HIGH:
		return (void *)(uintptr_t)HIGHADDR;
	case P_STRADDLE:
		memcpy(end - size + 1, src, size - 1);
		return end - size + 1;
	case P_RO:
		memcpy(end - size, src, size);
		mprotect(r->base, r->size, PROT_READ);
		return end - size;
	default:
		memcpy(end - size, src, size);
		return end - size;
	}
}

/* ---------------------------------------------------------------------- */
/* The fixture                                                             */

FIXTURE(badinput) {
	int fd;			/* O_RDWR: submitted the two programs */
	int rofd, wofd, fd2;
	int kmsg;
	__u32 done_id;		/* ended DONE; 0 once released */
	__u32 blocked_id;	/* blocked in its first record */
	__u32 num_cores;
	__u32 devmem_size;
	struct region a;	/* the argument */
	struct region b;	/* the array it points to */
	struct region c;	/* records */
};

FIXTURE_VARIANT(badinput) {
	int (*call)(struct __test_metadata *_metadata,
		    FIXTURE_DATA(badinput) *self,
		    const FIXTURE_VARIANT(badinput) *v);
	/* set-up of its own, before the "nothing changed" snapshot */
	void (*prep)(struct __test_metadata *_metadata,
		     FIXTURE_DATA(badinput) *self);
	/* last touch to the argument (and the queue array) */
	void (*fix)(FIXTURE_DATA(badinput) *self, union arg *a,
		    struct ncsync_queue *qs);
	/* checks of a successful ioctl's result */
	void (*check)(struct __test_metadata *_metadata,
		      FIXTURE_DATA(badinput) *self, const union arg *a);
	int err;		/* the expected errno; 0 for success */
	long long expect;	/* the return value of a success */
	bool poll_changes;	/* the case acknowledges the change sequence */

	/* ioctl cases */
	unsigned int cmd;
	union arg arg;		/* template */
	__u8 ptr;		/* P_*: the argument */
	__u8 fdk;		/* F_* */
	__u8 inner;		/* P_*: ops, queues or sems */
	__u8 inner2;		/* P_*: the records of a submission */
	__u8 idk;		/* ID_* */
	__u8 dl;		/* DL_* */
	__u8 opsk;		/* OPS_* */
	bool patch_op;		/* replace operation @at of a batch by @op */
	int at;			/* negative: from the end */
	struct ncsync_op op;
	__u32 count;		/* records per queue; 0 for 1 */
	bool rec;		/* one record is refused: */
	const struct ncsync_bad_record *bad;	/* an entry of the table */
	__u8 opcode;		/* ... or this opcode, all else zero */
	bool at_last;		/* ... the last of the second queue */
	__u32 reason;		/* its expected reason */

	/* file operation cases */
	long long off;
	size_t len;
	size_t len2;
	int whence;
	int prot;
	int mflags;
	int rw;
	bool len_devmem;	/* @len is added to the device memory size */
};

static inline int fd_of(FIXTURE_DATA(badinput) *self, int kind)
{
	switch (kind) {
	case F_RO:
		return self->rofd;
	case F_WO:
		return self->wofd;
	case F_OTHER:
		return self->fd2;
	default:
		return self->fd;
	}
}

static inline void region_init(struct __test_metadata *_metadata, struct region *r,
			size_t size)
{
	long pg = sysconf(_SC_PAGESIZE);
	char *p;

	size = (size + pg - 1) / pg * pg;
	p = mmap(NULL, size + pg, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, p);
	ASSERT_EQ(0, munmap(p + size, pg));
	r->base = p;
	r->size = size;
}

static inline int submit_one(int fd, __u8 engine, const __u8 *recs, __u32 n,
		      __u32 wd, __u32 *id)
{
	struct ncsync_queue q = {
		.records = (uintptr_t)recs, .count = n, .engine = engine,
	};
	struct ncsync_submit sub = {
		.queues = (uintptr_t)&q, .nqueues = 1, .watchdog_ms = wd,
	};

	if (ioctl(fd, NCSYNC_IOC_SUBMIT, &sub))
		return -errno;
	*id = sub.id;
	return 0;
}

static inline int kmsg_open(void)
{
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	if (fd >= 0)
		lseek(fd, 0, SEEK_END);
	return fd;
}

FIXTURE_SETUP(badinput)
{
	struct ncsync_prog_wait pw = { .flags = NCSYNC_WAIT_F_NO_DEADLINE };
	struct ncsync_reset reset = { 0 };
	struct ncsync_prog_status ps;
	struct ncsync_info info;
	__u32 v[256], zero = 0;
	__u8 rec[REC];
	unsigned int i;
	__s64 end;

	self->fd = open(DEV0, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, self->fd) TH_LOG("open %s: %s", DEV0, strerror(errno));
	self->rofd = open(DEV0, O_RDONLY | O_CLOEXEC);
	ASSERT_LE(0, self->rofd);
	self->wofd = open(DEV0, O_WRONLY | O_CLOEXEC);
	ASSERT_LE(0, self->wofd);
	self->fd2 = open(DEV0, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, self->fd2);
	self->kmsg = -1;
	ASSERT_EQ(0, ioctl(self->fd, NCSYNC_IOC_INFO, &info));
	self->num_cores = info.num_cores;
	self->devmem_size = info.devmem_size;
	ASSERT_EQ(0, ioctl(self->fd, NCSYNC_IOC_RESET, &reset));

	/* every semaphore non-zero (but one), every third event set */
	for (i = 0; i < 256; i++)
		v[i] = (__u32)sem_pat(i);
	ASSERT_EQ(1024, pwrite(self->fd, v, 1024, NCSYNC_CSR_SEM_SET));
	for (i = 0; i < 256; i++)
		v[i] = seed_evt(i);
	ASSERT_EQ(1024, pwrite(self->fd, v, 1024, NCSYNC_CSR_EVENTS));
	ASSERT_EQ(4, pwrite(self->fd, &zero, 4, NCSYNC_CSR_SEM_SET + 4 * BLK_SEM));

	/* a program that ended: PE, +1 of DONE_SEM */
	rec_noop_inc(rec, DONE_SEM);
	ASSERT_EQ(0, submit_one(self->fd, NCSYNC_ENGINE_PE, rec, 1, WD_MAX,
				&self->done_id));
	pw.id = self->done_id;
	ASSERT_EQ(0, ioctl(self->fd, NCSYNC_IOC_PROG_WAIT, &pw));
	ASSERT_EQ(NCSYNC_PROG_DONE, pw.state);

	/* a program blocked for ever: Pool waits for BLK_SEM >= 1 (lane 1) */
	enc_wait_then_inc(rec, NCSYNC_WAIT_SEM_GE, BLK_SEM, 1, BLK_INC);
	ASSERT_EQ(0, submit_one(self->fd, NCSYNC_ENGINE_POOL, rec, 1, WD_MAX,
				&self->blocked_id));
	end = now_ns() + LONG_MS * NSEC_PER_MSEC;
	for (;;) {
		ASSERT_EQ(0, prog_status(self->fd, self->blocked_id, 0, &ps,
					 NULL));
		if (ps.engines[0].state == NCSYNC_ENG_BLOCKED)
			break;
		ASSERT_GT(end, now_ns()) TH_LOG("the program never blocked");
		usleep(1000);
	}

	region_init(_metadata, &self->a, sizeof(union arg));
	region_init(_metadata, &self->b,
		    NCSYNC_MAX_BATCH * sizeof(struct ncsync_op));
	region_init(_metadata, &self->c, LONG_Q * REC);
	self->kmsg = kmsg_open();
}

FIXTURE_TEARDOWN(badinput)
{
	if (self->kmsg >= 0)
		close(self->kmsg);
	close(self->fd2);
	close(self->wofd);
	close(self->rofd);
	close(self->fd);
}

/* ---------------------------------------------------------------------- */
/* "Nothing changed"                                                       */

struct state {
	__u32 events[256];
	__s32 sems[256];
	struct ncsync_stats st;
	struct ncsync_prog_status ps[2];
	struct ncsync_sem_value sv[2][256];
	short revents;
	ssize_t dbglen;
	char dbg[DBG_MAX];
};

static inline void state_take(struct __test_metadata *_metadata,
		       FIXTURE_DATA(badinput) *self, struct state *s)
{
	struct pollfd pfd = { .fd = self->fd, .events = POLLIN | POLLPRI };
	unsigned int k;
	int fd;

	memset(s, 0, sizeof(*s));
	ASSERT_EQ(1024, pread(self->fd, s->events, 1024, NCSYNC_CSR_EVENTS))
		TH_LOG("pread events: %s", strerror(errno));
	ASSERT_EQ(1024, pread(self->fd, s->sems, 1024, NCSYNC_CSR_SEM_READ))
		TH_LOG("pread semaphores: %s", strerror(errno));
	ASSERT_EQ(0, ioctl(self->fd, NCSYNC_IOC_STATS, &s->st))
		TH_LOG("STATS: %s", strerror(errno));
	for (k = 0; k < 2; k++) {
		__u32 id = k ? self->blocked_id : self->done_id;
		struct ncsync_prog_status *ps = &s->ps[k];
		int ret;

		if (!id)
			continue;
		ret = prog_status(self->fd, id, 0, ps, s->sv[k]);
		ASSERT_EQ(0, ret) TH_LOG("PROG_STATUS of the %s program %u: %s",
					 k ? "blocked" : "ended", id,
					 strerror(-ret));
		ps->sems = 0;	/* differs between snapshots */
		ASSERT_GE(NCSYNC_NUM_ENGINES, ps->nengines);
		/* unused entries are checked by the ok_status_* cases */
		memset(&ps->engines[ps->nengines], 0,
		       (NCSYNC_NUM_ENGINES - ps->nengines) *
		       sizeof(ps->engines[0]));
		ASSERT_GE(256, ps->nsems);
		memset(&s->sv[k][ps->nsems], 0,
		       (256 - ps->nsems) * sizeof(s->sv[k][0]));
	}
	ASSERT_LE(0, poll(&pfd, 1, 0));
	s->revents = pfd.revents;

	s->dbglen = -1;
	fd = open(DEBUGFS0, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		ssize_t n;

		s->dbglen = 0;
		while ((n = read(fd, s->dbg + s->dbglen,
				 DBG_MAX - 1 - s->dbglen)) > 0)
			s->dbglen += n;
		close(fd);
	}
}

static inline int first_diff(const void *a, const void *b, size_t size, size_t unit)
{
	size_t i;

	for (i = 0; i < size; i += unit)
		if (memcmp((const char *)a + i, (const char *)b + i, unit))
			return i / unit;
	return -1;
}

static inline void state_check(struct __test_metadata *_metadata,
			const FIXTURE_VARIANT(badinput) *v,
			const struct state *b, const struct state *a)
{
	const char *const what[2] = { "ended", "blocked" };
	unsigned int k;
	int i;

	i = first_diff(b->events, a->events, sizeof(a->events), 4);
	EXPECT_EQ(-1, i) TH_LOG("event %d changed: %u -> %u", i,
				b->events[i], a->events[i]);
	i = first_diff(b->sems, a->sems, sizeof(a->sems), 4);
	EXPECT_EQ(-1, i) TH_LOG("semaphore %d changed: %d -> %d", i,
				b->sems[i], a->sems[i]);
	i = first_diff(&b->st, &a->st, sizeof(a->st), 8);
	EXPECT_EQ(-1, i) TH_LOG("STATS word %d changed: %llu -> %llu", i,
				(unsigned long long)((const __u64 *)&b->st)[i],
				(unsigned long long)((const __u64 *)&a->st)[i]);
	for (k = 0; k < 2; k++) {
		i = first_diff(&b->ps[k], &a->ps[k], sizeof(a->ps[k]), 4);
		EXPECT_EQ(-1, i)
			TH_LOG("PROG_STATUS of the %s program: word %d changed: %#x -> %#x",
			       what[k], i, ((const __u32 *)&b->ps[k])[i],
			       ((const __u32 *)&a->ps[k])[i]);
		i = first_diff(b->sv[k], a->sv[k], sizeof(a->sv[k]), 8);
		EXPECT_EQ(-1, i)
			TH_LOG("PROG_STATUS of the %s program: semaphore entry %d changed",
			       what[k], i);
	}
	if (!v->poll_changes) {
		EXPECT_EQ(b->revents, a->revents)
			TH_LOG("poll() changed: %#x -> %#x", b->revents,
			       a->revents);
	}
	if (b->dbglen >= 0 && a->dbglen >= 0) {
		EXPECT_TRUE(b->dbglen == a->dbglen &&
			    !memcmp(b->dbg, a->dbg, a->dbglen))
			TH_LOG("%s changed:\n%.*s\n---- now:\n%.*s", DEBUGFS0,
			       (int)b->dbglen, b->dbg, (int)a->dbglen, a->dbg);
	}
}

/* A kernel log line that vm-run would fail the run for. */
static inline bool kmsg_is_report(const char *msg)
{
	static const char *const pat[] = {
		"WARNING", "BUG", "Oops", "Call Trace", "general protection",
		"UBSAN", "KASAN", "KFENCE", "kmemleak", "lockdep",
		"circular locking", "recursive locking", "refcount_t",
		"list_add corruption", "list_del corruption", "usercopy",
		"stack-protector", "hung_task", "blocked for more than",
		"soft lockup", "hard LOCKUP", "rcu_sched", "self-detected stall",
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(pat); i++)
		if (strstr(msg, pat[i]))
			return true;
	return false;
}

static inline void kmsg_check(struct __test_metadata *_metadata, int fd)
{
	char rec[2048], first[256] = "";
	int reports = 0;

	if (fd < 0)
		return;
	for (;;) {
		ssize_t n = read(fd, rec, sizeof(rec) - 1);
		char *msg;

		if (n < 0 && errno == EPIPE)
			continue;	/* overwritten: go on with the next */
		if (n <= 0)
			break;
		rec[n] = 0;
		msg = strchr(rec, ';');
		msg = msg ? msg + 1 : rec;
		if (kmsg_is_report(msg) && !reports++)
			snprintf(first, sizeof(first), "%.200s", msg);
	}
	EXPECT_EQ(0, reports) TH_LOG("kernel log: %s", first);
}

/* ---------------------------------------------------------------------- */
/* ioctl cases                                                             */

static inline __u32 prog_id(FIXTURE_DATA(badinput) *self,
		     const FIXTURE_VARIANT(badinput) *v, __u32 raw)
{
	switch (v->idk) {
	case ID_DONE:
		return self->done_id;
	case ID_RAW:
		return raw;
	default:
		return self->blocked_id;
	}
}

static inline void fill_deadline(const FIXTURE_VARIANT(badinput) *v,
			  struct ncsync_timespec *ts)
{
	if (v->dl == DL_RECENT)
		*ts = ts_of(now_ns() - NSEC_PER_SEC);
}

static inline void fill_batch(FIXTURE_DATA(badinput) *self,
		       const FIXTURE_VARIANT(badinput) *v, union arg *a)
{
	static struct ncsync_op ops[NCSYNC_MAX_BATCH];
	__u32 n = a->batch.count, i;

	if (!n || n > NCSYNC_MAX_BATCH)
		n = 4;
	for (i = 0; i < n; i++) {
		memset(&ops[i], 0, sizeof(ops[i]));
		ops[i].bank = NCSYNC_BANK_SEM;
		if (v->opsk == OPS_READ) {
			ops[i].op = NCSYNC_OP_READ;
			ops[i].index = i % 256;
		} else {
			ops[i].op = NCSYNC_OP_INC;
			ops[i].index = i % 200;
			ops[i].value = 1;
		}
	}
	if (v->patch_op)
		ops[v->at < 0 ? (int)n + v->at : v->at] = v->op;
	for (i = 0; i < n; i++)
		ops[i].before = ops[i].after = A5;
	a->batch.ops = (uintptr_t)region_put(&self->b, v->inner, ops,
					     n * sizeof(ops[0]));
}

static inline void fill_submit(FIXTURE_DATA(badinput) *self,
			const FIXTURE_VARIANT(badinput) *v, union arg *a)
{
	static const __u8 order[6] = { 6, 5, 3, 2, 1, 6 };
	static __u8 recs[LONG_Q][REC];
	struct ncsync_queue qs[6];
	__u32 count = v->count ?: 1, n, i;
	void *recp;

	for (i = 0; i < count && i < LONG_Q; i++)
		rec_noop_inc(recs[i], CANARY_SEM);
	if (v->rec && v->bad)
		ncsync_bad_record_build(v->bad, count,
					recs[v->at_last ? count - 1 : 0]);
	else if (v->rec)
		enc_header(recs[v->at_last ? count - 1 : 0], v->opcode);
	recp = region_put(&self->c, v->inner2, recs,
			  (size_t)(count < LONG_Q ? count : LONG_Q) * REC);
	memset(qs, 0, sizeof(qs));
	for (i = 0; i < 6; i++) {
		qs[i].records = (uintptr_t)recp;
		qs[i].count = count;
		qs[i].engine = order[i];
	}
	if (v->at_last) {
		/* a short queue on DVE first, the long one second */
		static __u8 shortq[SHORT_Q][REC];

		for (i = 0; i < SHORT_Q; i++)
			rec_noop_inc(shortq[i], CANARY_SEM);
		qs[0].records = (uintptr_t)shortq;
		qs[0].count = SHORT_Q;
		qs[0].engine = NCSYNC_ENGINE_DVE;
		qs[1].engine = NCSYNC_ENGINE_SP;
	}
	if (v->fix)
		v->fix(self, a, qs);
	n = a->submit.nqueues;
	if (!n || n > 6)
		n = 1;
	a->submit.queues = (uintptr_t)region_put(&self->b, v->inner, qs,
						 n * sizeof(qs[0]));
	a->submit.id = A5;
	a->submit.bad_engine = A5;
	a->submit.bad_index = A5;
	a->submit.reason = A5;
}

static inline void fill_arg(FIXTURE_DATA(badinput) *self,
		     const FIXTURE_VARIANT(badinput) *v, union arg *a)
{
	static struct ncsync_sem_value sv[256];

	switch (v->cmd) {
	case NCSYNC_IOC_INFO:
	case NCSYNC_IOC_ACK:
	case NCSYNC_IOC_STATS:
		memset(a, 0xA5, sizeof(*a));
		break;
	case NCSYNC_IOC_OP:
		a->op.before = a->op.after = A5;
		break;
	case NCSYNC_IOC_BATCH:
		fill_batch(self, v, a);
		break;
	case NCSYNC_IOC_WAIT:
		a->wait.result = A5;
		fill_deadline(v, &a->wait.deadline);
		break;
	case NCSYNC_IOC_SUBMIT:
		fill_submit(self, v, a);
		return;
	case NCSYNC_IOC_PROG_STATUS:
		a->ps.id = prog_id(self, v, a->ps.id);
		memset(sv, 0xA5, sizeof(sv));
		a->ps.sems = (uintptr_t)region_put(&self->b, v->inner, sv,
						   sizeof(sv));
		a->ps.state = a->ps.nengines = a->ps.nsems = A5;
		memset(a->ps.engines, 0xA5, sizeof(a->ps.engines));
		break;
	case NCSYNC_IOC_PROG_WAIT:
		a->pw.id = prog_id(self, v, a->pw.id);
		fill_deadline(v, &a->pw.deadline);
		a->pw.state = A5;
		break;
	case NCSYNC_IOC_PROG_CANCEL:
		a->pc.id = prog_id(self, v, a->pc.id);
		break;
	}
	if (v->fix)
		v->fix(self, a, NULL);
}

/* NCSYNC_IOC_SUBMIT failed with EINVAL: what it wrote back. */
static inline void check_submit_writeback(struct __test_metadata *_metadata,
				   const FIXTURE_VARIANT(badinput) *v,
				   const union arg *in, const union arg *out)
{
	const struct ncsync_submit *s = &out->submit;

	EXPECT_EQ(in->submit.queues, s->queues);
	EXPECT_EQ(in->submit.nqueues, s->nqueues);
	EXPECT_EQ(in->submit.flags, s->flags);
	EXPECT_EQ(in->submit.watchdog_ms, s->watchdog_ms);
	EXPECT_EQ(in->submit.reserved, s->reserved);
	EXPECT_EQ(0, s->id);
	if (v->reason) {
		EXPECT_EQ(NCSYNC_ENGINE_SP, s->bad_engine);
		EXPECT_EQ(v->at_last ? v->count - 1 : 0, s->bad_index);
		EXPECT_EQ(v->reason, s->reason);
	} else {
		/* the submission's own fields: reason 0, no record named */
		EXPECT_EQ(0, s->bad_engine);
		EXPECT_EQ(0, s->bad_index);
		EXPECT_EQ(0, s->reason);
	}
}

static inline int call_ioctl(struct __test_metadata *_metadata,
		      FIXTURE_DATA(badinput) *self,
		      const FIXTURE_VARIANT(badinput) *v)
{
	static union arg a, out;
	size_t size = arg_size(v->cmd);
	void *p;
	int ret;

	a = v->arg;
	fill_arg(self, v, &a);
	p = region_put(&self->a, v->ptr, &a, size);
	ret = ioctl(fd_of(self, v->fdk), v->cmd, p) ? -errno : 0;
	if (v->ptr != P_OK && v->ptr != P_RO)
		return ret;
	memcpy(&out, p, size);
	if (!ret) {
		if (v->check)
			v->check(_metadata, self, &out);
	} else if (v->cmd == NCSYNC_IOC_SUBMIT && ret == -EINVAL) {
		check_submit_writeback(_metadata, v, &a, &out);
	} else {
		int i = first_diff(&a, &out, size, 1);

		EXPECT_EQ(-1, i)
			TH_LOG("failed ioctl changed byte %d of its argument: %#x -> %#x",
			       i, a.raw[i], out.raw[i]);
	}
	return ret;
}

/* ---------------------------------------------------------------------- */
/* The test                                                                */

TEST_F(badinput, errno_and_state)
{
	static struct state before, after;
	int ret;

	if (variant->prep)
		variant->prep(_metadata, self);
	state_take(_metadata, self, &before);
	if (self->kmsg >= 0)
		lseek(self->kmsg, 0, SEEK_END);

	ret = variant->call(_metadata, self, variant);

	if (variant->cmd == NCSYNC_IOC_SUBMIT)
		sleep_ms(20);	/* a program wrongly queued would run now */
	if (variant->err) {
		EXPECT_EQ(-variant->err, ret)
			TH_LOG("expected %s, got %s", strerror(variant->err),
			       ret < 0 ? strerror(-ret) : "success");
	} else {
		EXPECT_EQ(variant->expect, ret)
			TH_LOG("expected success (%lld), got %s",
			       variant->expect,
			       ret < 0 ? strerror(-ret) : "another value");
	}
	state_take(_metadata, self, &after);
	state_check(_metadata, variant, &before, &after);
	kmsg_check(_metadata, self->kmsg);
}

/* ---------------------------------------------------------------------- */
/* The table                                                               */

#define IOCTL_CASE(_name, _cmd, _err, ...)				\
	FIXTURE_VARIANT_ADD(badinput, _name) {				\
		.call = call_ioctl, .cmd = (_cmd), .err = (_err),	\
		__VA_ARGS__						\
	}

#define FILE_CASE(_name, _call, _err, ...)				\
	FIXTURE_VARIANT_ADD(badinput, _name) {				\
		.call = (_call), .err = (_err), __VA_ARGS__		\
	}

/* Templates more than one part of the table uses. */
#define T_RELEASE_DONE	.idk = ID_DONE,					\
			.arg.ps = { .flags = NCSYNC_STATUS_F_RELEASE }
#define NODL	NCSYNC_WAIT_F_NO_DEADLINE

#endif /* NCSYNC_BADINPUT_H */
