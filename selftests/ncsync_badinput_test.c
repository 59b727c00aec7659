// SPDX-License-Identifier: GPL-2.0
/*
 * ncsync selftests: the bad-input table.
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
 *
 * Run inside the test VM:  tools/vm-run build/selftests/ncsync_badinput_test
 */
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
static void rec_noop_inc(__u8 *r, __u8 sem)
{
	enc_noop(r, NCSYNC_WAIT_NONE, 0, NCSYNC_UPD_SEM_INC, sem, 0);
}

/* The core's state after the fixture's set-up. */
static __s32 sem_pat(unsigned int i)
{
	return (__s32)(i * 2654435761U) >> 3 | 1;
}

static __s32 seed_sem(unsigned int i)
{
	if (i == BLK_SEM)
		return 0;
	if (i == DONE_SEM)
		return sem_pat(i) + 1;
	return sem_pat(i);
}

static __u32 seed_evt(unsigned int i)
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

static size_t arg_size(unsigned int cmd)
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
static void *region_put(struct region *r, int kind, const void *src,
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

static int fd_of(FIXTURE_DATA(badinput) *self, int kind)
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

static void region_init(struct __test_metadata *_metadata, struct region *r,
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

static int submit_one(int fd, __u8 engine, const __u8 *recs, __u32 n,
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

static int kmsg_open(void)
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

static void state_take(struct __test_metadata *_metadata,
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

static int first_diff(const void *a, const void *b, size_t size, size_t unit)
{
	size_t i;

	for (i = 0; i < size; i += unit)
		if (memcmp((const char *)a + i, (const char *)b + i, unit))
			return i / unit;
	return -1;
}

static void state_check(struct __test_metadata *_metadata,
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
static bool kmsg_is_report(const char *msg)
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

static void kmsg_check(struct __test_metadata *_metadata, int fd)
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

static __u32 prog_id(FIXTURE_DATA(badinput) *self,
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

static void fill_deadline(const FIXTURE_VARIANT(badinput) *v,
			  struct ncsync_timespec *ts)
{
	if (v->dl == DL_RECENT)
		*ts = ts_of(now_ns() - NSEC_PER_SEC);
}

static void fill_batch(FIXTURE_DATA(badinput) *self,
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

static void fill_submit(FIXTURE_DATA(badinput) *self,
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

static void fill_arg(FIXTURE_DATA(badinput) *self,
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
static void check_submit_writeback(struct __test_metadata *_metadata,
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

static int call_ioctl(struct __test_metadata *_metadata,
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

/* ---- checks of successful calls ---- */

static void check_info(struct __test_metadata *_metadata,
		       FIXTURE_DATA(badinput) *self, const union arg *a)
{
	const struct ncsync_info *i = &a->info;
	long sems = ncsync_param("rt_reserved_sems");
	long events = ncsync_param("rt_reserved_events");

	EXPECT_EQ(NCSYNC_API_VERSION, i->api_version);
	EXPECT_EQ(0, i->core);
	EXPECT_EQ(ncsync_param("cores"), (long)i->num_cores);
	EXPECT_EQ(NCSYNC_NUM_SEMS, i->num_sems);
	EXPECT_EQ(NCSYNC_NUM_EVENTS, i->num_events);
	EXPECT_EQ(NCSYNC_CSR_SIZE, i->csr_size);
	EXPECT_EQ(sems, (long)i->rt_reserved_sem_count);
	EXPECT_EQ(256 - sems, (long)i->rt_reserved_sem_first);
	EXPECT_EQ(events, (long)i->rt_reserved_event_count);
	EXPECT_EQ(256 - events, (long)i->rt_reserved_event_first);
	EXPECT_EQ(NCSYNC_DEVMEM_OFFSET, i->devmem_offset);
	EXPECT_EQ(ncsync_param("devmem_kb") * 1024, (long)i->devmem_size);
	EXPECT_EQ(NCSYNC_ENGINE_MASK, i->engine_mask);
	EXPECT_EQ(NCSYNC_NUM_REGS, i->num_regs);
	EXPECT_EQ(ncsync_param("watchdog_ms"), (long)i->watchdog_ms);
	EXPECT_EQ(ncsync_param("lnc"), (long)i->lnc);
}

static void check_op_read(struct __test_metadata *_metadata,
			  FIXTURE_DATA(badinput) *self, const union arg *a)
{
	const struct ncsync_op *op = &a->op;
	__s32 want = op->bank == NCSYNC_BANK_SEM ? seed_sem(op->index) :
						   (__s32)seed_evt(op->index);

	EXPECT_EQ(want, op->before);
	EXPECT_EQ(want, op->after);
	EXPECT_EQ(0, op->pad);
	EXPECT_EQ(0, op->reserved);
}

static void check_batch_read(struct __test_metadata *_metadata,
			     FIXTURE_DATA(badinput) *self, const union arg *a)
{
	const struct ncsync_op *ops = (void *)(uintptr_t)a->batch.ops;
	__u32 i;

	for (i = 0; i < a->batch.count; i++) {
		ASSERT_EQ(seed_sem(i % 256), ops[i].before) TH_LOG("op %u", i);
		ASSERT_EQ(seed_sem(i % 256), ops[i].after) TH_LOG("op %u", i);
		ASSERT_EQ(i % 256, ops[i].index);
		ASSERT_EQ(0, ops[i].pad);
		ASSERT_EQ(0, ops[i].reserved);
	}
}

static void check_wait_result(struct __test_metadata *_metadata,
			      FIXTURE_DATA(badinput) *self,
			      const union arg *a)
{
	const struct ncsync_wait *w = &a->wait;

	EXPECT_EQ(w->bank == NCSYNC_BANK_SEM ? seed_sem(w->index) :
					       (__s32)seed_evt(w->index),
		  w->result);
}

static void check_ack(struct __test_metadata *_metadata,
		      FIXTURE_DATA(badinput) *self, const union arg *a)
{
	struct ncsync_stats st;

	ASSERT_EQ(0, ioctl(self->fd, NCSYNC_IOC_STATS, &st));
	EXPECT_EQ(st.seq, a->seq.seq);
}

static void check_stats(struct __test_metadata *_metadata,
			FIXTURE_DATA(badinput) *self, const union arg *a)
{
	const struct ncsync_stats *st = &a->stats;
	const __u64 pat = 0xA5A5A5A5A5A5A5A5ULL;

	EXPECT_NE(pat, st->seq);
	EXPECT_LE(1, st->resets);
	EXPECT_NE(pat, st->event_set_while_set);
	EXPECT_NE(pat, st->event_clear_while_clear);
	EXPECT_NE(pat, st->sem_overflows);
	EXPECT_NE(pat, st->notify_drops);
	EXPECT_NE(pat, st->log_suppressed);
	EXPECT_NE(pat, st->wakeups);
}

static void check_submit_ok(struct __test_metadata *_metadata,
			    FIXTURE_DATA(badinput) *self, const union arg *a)
{
	const struct ncsync_submit *s = &a->submit;
	struct ncsync_prog_wait pw = { .id = s->id };
	struct ncsync_prog_status ps;

	EXPECT_NE(0, s->id);
	EXPECT_NE(A5, s->id);
	EXPECT_EQ(0, s->bad_engine);
	EXPECT_EQ(0, s->bad_index);
	EXPECT_EQ(0, s->reason);
	EXPECT_EQ(0, s->reserved);
	pw.deadline = ts_of(now_ns() + LONG_MS * NSEC_PER_MSEC);
	ASSERT_EQ(0, ioctl(self->fd, NCSYNC_IOC_PROG_WAIT, &pw));
	EXPECT_EQ(NCSYNC_PROG_DONE, pw.state);
	EXPECT_EQ(0, prog_status(self->fd, s->id, NCSYNC_STATUS_F_RELEASE, &ps,
			       NULL));
}

static void check_status(struct __test_metadata *_metadata,
			 FIXTURE_DATA(badinput) *self, const union arg *a)
{
	const struct ncsync_prog_status *ps = &a->ps;
	const struct ncsync_sem_value *sv = (void *)(uintptr_t)ps->sems;
	const struct ncsync_engine_status *e = &ps->engines[0];
	bool done = ps->id == self->done_id;
	unsigned int i, nonzero = 0;
	const __u8 *b;

	EXPECT_EQ(done ? NCSYNC_PROG_DONE : NCSYNC_PROG_RUNNING, ps->state);
	EXPECT_EQ(0, ps->flags);
	EXPECT_EQ(1, ps->nengines);
	EXPECT_EQ(0, ps->core);
	EXPECT_EQ(done ? NCSYNC_ENGINE_PE : NCSYNC_ENGINE_POOL, e->engine);
	EXPECT_EQ(done ? NCSYNC_ENG_DONE : NCSYNC_ENG_BLOCKED, e->state);
	EXPECT_EQ(NCSYNC_FAULT_NONE, e->fault);
	EXPECT_EQ(done ? NCSYNC_BLOCK_NONE : NCSYNC_BLOCK_SEM, e->wait_kind);
	EXPECT_EQ(done ? 0 : NCSYNC_WAIT_SEM_GE, e->wait_mode);
	EXPECT_EQ(done ? 0 : BLK_SEM, e->wait_index);
	EXPECT_EQ(done ? 0 : 1, e->wait_lane);
	EXPECT_EQ(0, e->pad);
	EXPECT_EQ(done ? 1 : 0, e->pc);
	EXPECT_EQ(done ? 0 : 1, e->wait_threshold);
	EXPECT_EQ(0, e->wait_current);
	EXPECT_EQ(0, e->dma_outstanding);
	EXPECT_EQ(done ? 1 : 0, e->executed);

	/* the entries past nengines: zero, not kernel memory */
	b = (const __u8 *)&ps->engines[1];
	for (i = 0; i < (NCSYNC_NUM_ENGINES - 1) * sizeof(*e); i++) {
		ASSERT_EQ(0, b[i])
			TH_LOG("unused engines[%zu] byte %zu is %#x, not 0 (%s program)",
			       1 + i / sizeof(*e), i % sizeof(*e), b[i],
			       done ? "ended" : "running");
	}

	if (!sv) {
		EXPECT_EQ(0, ps->nsems);
		return;
	}
	for (i = 0; i < 256; i++)
		nonzero += seed_sem(i) != 0;
	EXPECT_EQ(nonzero, ps->nsems);
	for (i = 0; i < ps->nsems && i < 256; i++) {
		ASSERT_GT(256, sv[i].index) TH_LOG("entry %u", i);
		if (i) {
			ASSERT_LT(sv[i - 1].index, sv[i].index);
		}
		ASSERT_EQ(seed_sem(sv[i].index), sv[i].value)
			TH_LOG("entry %u", i);
	}
	/* nothing written past nsems */
	b = (const __u8 *)&sv[ps->nsems < 256 ? ps->nsems : 256];
	for (i = 0; i < (256 - (ps->nsems < 256 ? ps->nsems : 256)) *
			sizeof(*sv); i++) {
		ASSERT_EQ(0xA5, b[i]) TH_LOG("written past nsems");
	}
}

static void check_prog_wait(struct __test_metadata *_metadata,
			    FIXTURE_DATA(badinput) *self, const union arg *a)
{
	EXPECT_EQ(self->done_id, a->pw.id);
	EXPECT_EQ(NCSYNC_PROG_DONE, a->pw.state);
	EXPECT_EQ(0, a->pw.reserved);
}

/* ---- fixes and preparations ---- */

/* sems: room for 10 entries only, then an unmapped page */
static void fix_sems_short(FIXTURE_DATA(badinput) *self, union arg *a,
			   struct ncsync_queue *qs)
{
	char *end = self->b.base + self->b.size;

	memset(end - 80, 0xA5, 80);
	a->ps.sems = (uintptr_t)(end - 80);
}

static void fix_queue_pad0(FIXTURE_DATA(badinput) *self, union arg *a,
			   struct ncsync_queue *qs)
{
	qs[0].pad[0] = 1;
}

static void fix_queue_pad2_last(FIXTURE_DATA(badinput) *self, union arg *a,
				struct ncsync_queue *qs)
{
	qs[4].pad[2] = 0x80;
}

#define FIX_ENGINE(_e)							\
static void fix_engine_##_e(FIXTURE_DATA(badinput) *self, union arg *a,	\
			    struct ncsync_queue *qs)			\
{									\
	qs[0].engine = _e;						\
}
FIX_ENGINE(0)
FIX_ENGINE(4)
FIX_ENGINE(7)
FIX_ENGINE(8)
FIX_ENGINE(255)

static void fix_engine_4_last(FIXTURE_DATA(badinput) *self, union arg *a,
			      struct ncsync_queue *qs)
{
	qs[4].engine = NCSYNC_ENGINE_DMA;
}

static void fix_engine_dup(FIXTURE_DATA(badinput) *self, union arg *a,
			   struct ncsync_queue *qs)
{
	qs[1].engine = qs[0].engine;
}

static void fix_engine_dup_last(FIXTURE_DATA(badinput) *self, union arg *a,
				struct ncsync_queue *qs)
{
	qs[4].engine = qs[0].engine;
}

#define FIX_COUNT(_name, _q, _n)					\
static void fix_count_##_name(FIXTURE_DATA(badinput) *self, union arg *a,\
			      struct ncsync_queue *qs)			\
{									\
	qs[_q].count = _n;						\
}
FIX_COUNT(0, 0, 0)
FIX_COUNT(0_last, 4, 0)
FIX_COUNT(over, 0, NCSYNC_MAX_RECORDS + 1)
FIX_COUNT(max, 0, 0xFFFFFFFFU)
FIX_COUNT(over_last, 4, NCSYNC_MAX_RECORDS + 1)

/* four queues of the most records: past fd_mem_mb before anything is read */
static void fix_huge_program(FIXTURE_DATA(badinput) *self, union arg *a,
			     struct ncsync_queue *qs)
{
	unsigned int i;

	for (i = 0; i < 4; i++) {
		qs[i].count = NCSYNC_MAX_RECORDS;
		qs[i].records = 0;
	}
}

/* the second queue's records are not readable */
static void fix_records_second_null(FIXTURE_DATA(badinput) *self,
				    union arg *a, struct ncsync_queue *qs)
{
	qs[1].records = 0;
}

/* the records of a plain NoOp that changes nothing */
static void fix_plain_noop(FIXTURE_DATA(badinput) *self, union arg *a,
			   struct ncsync_queue *qs)
{
	static __u8 rec[REC];

	enc_header(rec, NCSYNC_OPC_NOOP);
	qs[0].records = (uintptr_t)rec;
	qs[0].count = 1;
}

/* The descriptor holds NCSYNC_MAX_PROGS_PER_FD programs, none ended. */
static void prep_full_of_programs(struct __test_metadata *_metadata,
				  FIXTURE_DATA(badinput) *self)
{
	struct ncsync_prog_status ps;
	__u8 rec[REC];
	unsigned int i;
	__u32 id;

	ASSERT_EQ(0, prog_status(self->fd, self->done_id,
			       NCSYNC_STATUS_F_RELEASE, &ps, NULL));
	self->done_id = 0;
	rec_noop_inc(rec, CANARY_SEM);
	/* queued behind the blocked program on Pool */
	for (i = 1; i < 256; i++) {
		ASSERT_EQ(0, submit_one(self->fd, NCSYNC_ENGINE_POOL, rec, 1,
					WD_MAX, &id))
			TH_LOG("program %u", i);
	}
}

/* ---------------------------------------------------------------------- */
/* File operation cases                                                    */

/* A buffer of @len bytes of value-1 registers placed as @kind says. */
static void *file_buf(FIXTURE_DATA(badinput) *self, int kind, size_t len)
{
	static __u32 ones[LONG_Q * REC / 4];
	unsigned int i;

	for (i = 0; i < sizeof(ones) / 4; i++)
		ones[i] = 1;
	if (len > self->c.size || !len)
		return kind == P_OK ? self->c.base :
				      region_put(&self->c, kind, ones, 4);
	return region_put(&self->c, kind, ones, len);
}

static int call_pread(struct __test_metadata *_metadata,
		      FIXTURE_DATA(badinput) *self,
		      const FIXTURE_VARIANT(badinput) *v)
{
	void *buf = file_buf(self, v->ptr, v->len);
	ssize_t n = pread(fd_of(self, v->fdk), buf, v->len, v->off);

	return n < 0 ? -errno : (int)n;
}

static int call_pwrite(struct __test_metadata *_metadata,
		       FIXTURE_DATA(badinput) *self,
		       const FIXTURE_VARIANT(badinput) *v)
{
	void *buf = file_buf(self, v->ptr, v->len);
	ssize_t n = pwrite(fd_of(self, v->fdk), buf, v->len, v->off);

	return n < 0 ? -errno : (int)n;
}

/* read(2) or write(2) at the file position @off; it must not move. */
static int call_rw_at(struct __test_metadata *_metadata,
		      FIXTURE_DATA(badinput) *self,
		      const FIXTURE_VARIANT(badinput) *v)
{
	int fd = fd_of(self, v->fdk);
	void *buf = file_buf(self, P_OK, v->len);
	ssize_t n;
	int ret;

	EXPECT_EQ(v->off, lseek(fd, v->off, SEEK_SET));
	n = v->rw == RW_READ ? read(fd, buf, v->len) : write(fd, buf, v->len);
	ret = n < 0 ? -errno : (int)n;
	if (ret < 0) {
		EXPECT_EQ(v->off, lseek(fd, 0, SEEK_CUR))
			TH_LOG("the file position moved");
	}
	return ret;
}

/* lseek(2) from position 0x100; a failure must not move it. */
static int call_lseek(struct __test_metadata *_metadata,
		      FIXTURE_DATA(badinput) *self,
		      const FIXTURE_VARIANT(badinput) *v)
{
	int fd = fd_of(self, v->fdk);
	off_t r;

	EXPECT_EQ(0x100, lseek(fd, 0x100, SEEK_SET));
	r = lseek(fd, v->off, v->whence);
	if (r >= 0)
		return (int)r;
	r = -errno;
	EXPECT_EQ(0x100, lseek(fd, 0, SEEK_CUR))
		TH_LOG("the file position moved");
	return (int)r;
}

static size_t map_len(FIXTURE_DATA(badinput) *self,
		      const FIXTURE_VARIANT(badinput) *v)
{
	return v->len_devmem ? self->devmem_size + v->len : v->len;
}

static int call_mmap(struct __test_metadata *_metadata,
		     FIXTURE_DATA(badinput) *self,
		     const FIXTURE_VARIANT(badinput) *v)
{
	size_t len = map_len(self, v);
	void *p = mmap(NULL, len, v->prot, v->mflags, fd_of(self, v->fdk),
		       v->off);

	if (p == MAP_FAILED)
		return -errno;
	munmap(p, len);
	return 0;
}

/* Map @len at @off readable (and shared), then mprotect(@prot). */
static int call_mprotect(struct __test_metadata *_metadata,
			 FIXTURE_DATA(badinput) *self,
			 const FIXTURE_VARIANT(badinput) *v)
{
	size_t len = map_len(self, v);
	void *p = mmap(NULL, len, PROT_READ, MAP_SHARED, fd_of(self, v->fdk),
		       v->off);
	int ret;

	ASSERT_NE(MAP_FAILED, p) TH_LOG("mmap: %s", strerror(errno));
	ret = mprotect(p, len, v->prot) ? -errno : 0;
	munmap(p, len);
	return ret;
}

/* Map @len at @off, then mremap() it to @len2. */
static int call_mremap(struct __test_metadata *_metadata,
		       FIXTURE_DATA(badinput) *self,
		       const FIXTURE_VARIANT(badinput) *v)
{
	size_t len = map_len(self, v);
	void *p = mmap(NULL, len, PROT_READ, MAP_SHARED, fd_of(self, v->fdk),
		       v->off);
	void *q;

	ASSERT_NE(MAP_FAILED, p) TH_LOG("mmap: %s", strerror(errno));
	q = mremap(p, len, v->len2, v->mflags);
	if (q == MAP_FAILED) {
		int ret = -errno;

		munmap(p, len);
		return ret;
	}
	munmap(q, v->len2);
	return 0;
}

/*
 * open(2) of a node with the module's major and the minor @off past the
 * last core (@off < 0: /dev/ncsync<cores>, which must not exist).
 */
static int call_open_core(struct __test_metadata *_metadata,
			  FIXTURE_DATA(badinput) *self,
			  const FIXTURE_VARIANT(badinput) *v)
{
	char path[64];
	struct stat st;
	int fd, ret;

	if (v->off < 0) {
		snprintf(path, sizeof(path), "/dev/ncsync%u", self->num_cores);
	} else {
		ASSERT_EQ(0, stat(DEV0, &st));
		unlink(NODE_PATH);
		if (mknod(NODE_PATH, S_IFCHR | 0600,
			  makedev(major(st.st_rdev),
				  minor(st.st_rdev) + self->num_cores +
				  v->off)))
			SKIP(return -v->err, "mknod: %s", strerror(errno));
		snprintf(path, sizeof(path), "%s", NODE_PATH);
	}
	fd = open(path, O_RDWR | O_CLOEXEC);
	ret = fd < 0 ? -errno : 0;
	if (fd >= 0)
		close(fd);
	if (v->off >= 0)
		unlink(NODE_PATH);
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

/* The same command with another size or direction. */
#define IOC_RESIZE(_c, _size)						\
	_IOC(_IOC_DIR(_c), _IOC_TYPE(_c), _IOC_NR(_c), (_size))
#define IOC_REDIR(_c)							\
	_IOC(_IOC_DIR(_c) == (_IOC_READ | _IOC_WRITE) ? _IOC_WRITE :	\
	     _IOC_DIR(_c) ^ (_IOC_READ | _IOC_WRITE),			\
	     _IOC_TYPE(_c), _IOC_NR(_c), _IOC_SIZE(_c))

/* ENOTTY: a wrong _IOC_SIZE (shorter, longer, none), a wrong direction */
#define NOTTY_CASES(_n, _cmd)						\
	IOCTL_CASE(_n##_size_short, IOC_RESIZE(_cmd, _IOC_SIZE(_cmd) - 1),\
		   ENOTTY);						\
	IOCTL_CASE(_n##_size_long, IOC_RESIZE(_cmd, _IOC_SIZE(_cmd) + 8),\
		   ENOTTY);						\
	IOCTL_CASE(_n##_size_none, _IO(NCSYNC_IOC_MAGIC, _IOC_NR(_cmd)),\
		   ENOTTY);						\
	IOCTL_CASE(_n##_wrong_direction, IOC_REDIR(_cmd), ENOTTY)

NOTTY_CASES(info, NCSYNC_IOC_INFO);
NOTTY_CASES(op, NCSYNC_IOC_OP);
NOTTY_CASES(batch, NCSYNC_IOC_BATCH);
NOTTY_CASES(wait, NCSYNC_IOC_WAIT);
NOTTY_CASES(reset, NCSYNC_IOC_RESET);
NOTTY_CASES(ack, NCSYNC_IOC_ACK);
NOTTY_CASES(stats, NCSYNC_IOC_STATS);
NOTTY_CASES(submit, NCSYNC_IOC_SUBMIT);
NOTTY_CASES(prog_status, NCSYNC_IOC_PROG_STATUS);
NOTTY_CASES(prog_wait, NCSYNC_IOC_PROG_WAIT);
NOTTY_CASES(prog_cancel, NCSYNC_IOC_PROG_CANCEL);
IOCTL_CASE(ioctl_nr_07, _IOWR(NCSYNC_IOC_MAGIC, 0x07, struct ncsync_op),
	   ENOTTY);
IOCTL_CASE(ioctl_nr_14, _IOWR(NCSYNC_IOC_MAGIC, 0x14, struct ncsync_op),
	   ENOTTY);
IOCTL_CASE(ioctl_nr_ff, _IOR(NCSYNC_IOC_MAGIC, 0xFF, struct ncsync_info),
	   ENOTTY);
IOCTL_CASE(ioctl_other_magic, _IOR(0xCF, 0x00, struct ncsync_info), ENOTTY);
IOCTL_CASE(ioctl_zero, 0, ENOTTY);
IOCTL_CASE(ioctl_tcgets, TCGETS, ENOTTY);

/*
 * Bad argument pointers.  The templates are valid requests that change
 * the core (or, for the _IOR commands, acknowledge the change sequence),
 * so a pointer wrongly accepted shows up.
 */
#define T_OP_SET	.arg.op = { .bank = NCSYNC_BANK_SEM,		\
				    .op = NCSYNC_OP_SET, .index = 7,	\
				    .value = 0x1234 }
#define T_OP_READ	.arg.op = { .bank = NCSYNC_BANK_SEM,		\
				    .op = NCSYNC_OP_READ, .index = 7 }
#define T_BATCH		.arg.batch = { .count = 16 }
#define T_WAIT_CONSUME	.arg.wait = { .bank = NCSYNC_BANK_EVENT,	\
				      .mode = NCSYNC_WAIT_EVT_SET_THEN_CLEAR }
#define T_SUBMIT	.arg.submit = { .nqueues = 1 }
#define T_RELEASE_DONE	.idk = ID_DONE,					\
			.arg.ps = { .flags = NCSYNC_STATUS_F_RELEASE }
#define T_NONE		.fdk = F_RW

#define PTR_CASES(_n, _cmd, ...)					\
	IOCTL_CASE(_n##_arg_null, _cmd, EFAULT, .ptr = P_NULL,		\
		   __VA_ARGS__);					\
	IOCTL_CASE(_n##_arg_unmapped, _cmd, EFAULT, .ptr = P_UNMAPPED,	\
		   __VA_ARGS__);					\
	IOCTL_CASE(_n##_arg_kernel, _cmd, EFAULT, .ptr = P_KERNEL,	\
		   __VA_ARGS__);					\
	IOCTL_CASE(_n##_arg_above_user, _cmd, EFAULT, .ptr = P_HIGH,	\
		   __VA_ARGS__);					\
	IOCTL_CASE(_n##_arg_straddles_hole, _cmd, EFAULT,		\
		   .ptr = P_STRADDLE, __VA_ARGS__)
/* and, for the commands that write their argument back: */
#define RO_CASE(_n, _cmd, ...)						\
	IOCTL_CASE(_n##_arg_read_only, _cmd, EFAULT, .ptr = P_RO,	\
		   __VA_ARGS__)

PTR_CASES(info, NCSYNC_IOC_INFO, T_NONE);
RO_CASE(info, NCSYNC_IOC_INFO, T_NONE);
PTR_CASES(op, NCSYNC_IOC_OP, T_OP_SET);
RO_CASE(op, NCSYNC_IOC_OP, T_OP_SET);
/* A read writes its argument once, at the end: it must fail there. */
PTR_CASES(op_read, NCSYNC_IOC_OP, T_OP_READ);
RO_CASE(op_read, NCSYNC_IOC_OP, T_OP_READ);
PTR_CASES(batch, NCSYNC_IOC_BATCH, T_BATCH);
PTR_CASES(wait, NCSYNC_IOC_WAIT, T_WAIT_CONSUME);
RO_CASE(wait, NCSYNC_IOC_WAIT, T_WAIT_CONSUME);
PTR_CASES(reset, NCSYNC_IOC_RESET, T_NONE);
PTR_CASES(ack, NCSYNC_IOC_ACK, T_NONE);
RO_CASE(ack, NCSYNC_IOC_ACK, T_NONE);
PTR_CASES(stats, NCSYNC_IOC_STATS, T_NONE);
RO_CASE(stats, NCSYNC_IOC_STATS, T_NONE);
PTR_CASES(submit, NCSYNC_IOC_SUBMIT, T_SUBMIT);
RO_CASE(submit, NCSYNC_IOC_SUBMIT, T_SUBMIT);
PTR_CASES(prog_status, NCSYNC_IOC_PROG_STATUS, T_RELEASE_DONE);
RO_CASE(prog_status, NCSYNC_IOC_PROG_STATUS, T_RELEASE_DONE);
PTR_CASES(prog_wait, NCSYNC_IOC_PROG_WAIT, .idk = ID_DONE);
RO_CASE(prog_wait, NCSYNC_IOC_PROG_WAIT, .idk = ID_DONE);
PTR_CASES(prog_cancel, NCSYNC_IOC_PROG_CANCEL, .idk = ID_BLOCKED);

/* ---- NCSYNC_IOC_OP ---- */
#define OP(_bank, _op, _index, _value, ...)				\
	.arg.op = { .bank = (_bank), .op = (_op), .index = (_index),	\
		    .value = (_value), __VA_ARGS__ }
#define S	NCSYNC_BANK_SEM
#define E	NCSYNC_BANK_EVENT

IOCTL_CASE(op_pad_1, NCSYNC_IOC_OP, EINVAL,
	   OP(S, NCSYNC_OP_SET, 7, 1, .pad = 1));
IOCTL_CASE(op_pad_8000, NCSYNC_IOC_OP, EINVAL,
	   OP(S, NCSYNC_OP_SET, 7, 1, .pad = 0x8000));
IOCTL_CASE(op_reserved_1, NCSYNC_IOC_OP, EINVAL,
	   OP(S, NCSYNC_OP_SET, 7, 1, .reserved = 1));
IOCTL_CASE(op_reserved_80000000, NCSYNC_IOC_OP, EINVAL,
	   OP(S, NCSYNC_OP_SET, 7, 1, .reserved = 0x80000000U));
IOCTL_CASE(op_sem_index_256, NCSYNC_IOC_OP, EINVAL,
	   OP(S, NCSYNC_OP_SET, 256, 1));
IOCTL_CASE(op_sem_index_max, NCSYNC_IOC_OP, EINVAL,
	   OP(S, NCSYNC_OP_INC, 0xFFFFFFFFU, 1));
IOCTL_CASE(op_event_index_256, NCSYNC_IOC_OP, EINVAL,
	   OP(E, NCSYNC_OP_CLEAR, 256, 0));
IOCTL_CASE(op_event_index_100000, NCSYNC_IOC_OP, EINVAL,
	   OP(E, NCSYNC_OP_SET, 0x100000, 0));
IOCTL_CASE(op_bank_2, NCSYNC_IOC_OP, EINVAL, OP(2, NCSYNC_OP_SET, 7, 1));
IOCTL_CASE(op_bank_ff, NCSYNC_IOC_OP, EINVAL,
	   OP(0xFF, NCSYNC_OP_SET, 7, 1));
IOCTL_CASE(op_op_5, NCSYNC_IOC_OP, EINVAL, OP(S, 5, 7, 1));
IOCTL_CASE(op_op_ff, NCSYNC_IOC_OP, EINVAL, OP(S, 0xFF, 7, 1));
IOCTL_CASE(op_sem_clear, NCSYNC_IOC_OP, EINVAL,
	   OP(S, NCSYNC_OP_CLEAR, 7, 0));
IOCTL_CASE(op_event_inc, NCSYNC_IOC_OP, EINVAL, OP(E, NCSYNC_OP_INC, 1, 0));
IOCTL_CASE(op_event_dec, NCSYNC_IOC_OP, EINVAL, OP(E, NCSYNC_OP_DEC, 0, 0));
IOCTL_CASE(op_event_op_5, NCSYNC_IOC_OP, EINVAL, OP(E, 5, 0, 0));
IOCTL_CASE(op_sem_read_value, NCSYNC_IOC_OP, EINVAL,
	   OP(S, NCSYNC_OP_READ, 7, 1));
IOCTL_CASE(op_event_read_value, NCSYNC_IOC_OP, EINVAL,
	   OP(E, NCSYNC_OP_READ, 0, 1));
IOCTL_CASE(op_event_set_value, NCSYNC_IOC_OP, EINVAL,
	   OP(E, NCSYNC_OP_SET, 1, 1));
IOCTL_CASE(op_event_clear_value, NCSYNC_IOC_OP, EINVAL,
	   OP(E, NCSYNC_OP_CLEAR, 0, 0x80000000U));
IOCTL_CASE(op_rdonly_sem_set, NCSYNC_IOC_OP, EBADF, .fdk = F_RO,
	   OP(S, NCSYNC_OP_SET, 7, 5));
IOCTL_CASE(op_rdonly_sem_inc, NCSYNC_IOC_OP, EBADF, .fdk = F_RO,
	   OP(S, NCSYNC_OP_INC, 7, 5));
IOCTL_CASE(op_rdonly_sem_dec, NCSYNC_IOC_OP, EBADF, .fdk = F_RO,
	   OP(S, NCSYNC_OP_DEC, 7, 5));
IOCTL_CASE(op_rdonly_sem_inc_zero, NCSYNC_IOC_OP, EBADF, .fdk = F_RO,
	   OP(S, NCSYNC_OP_INC, 7, 0));
IOCTL_CASE(op_rdonly_event_set, NCSYNC_IOC_OP, EBADF, .fdk = F_RO,
	   OP(E, NCSYNC_OP_SET, 1, 0));
IOCTL_CASE(op_rdonly_event_clear, NCSYNC_IOC_OP, EBADF, .fdk = F_RO,
	   OP(E, NCSYNC_OP_CLEAR, 0, 0));
IOCTL_CASE(op_rdonly_einval_before_ebadf, NCSYNC_IOC_OP, EINVAL,
	   .fdk = F_RO, OP(S, NCSYNC_OP_SET, 7, 5, .pad = 1));

/* ---- NCSYNC_IOC_BATCH ---- */
IOCTL_CASE(batch_flags_1, NCSYNC_IOC_BATCH, EINVAL,
	   .arg.batch = { .count = 4, .flags = 1 });
IOCTL_CASE(batch_flags_80000000, NCSYNC_IOC_BATCH, EINVAL,
	   .arg.batch = { .count = 4, .flags = 0x80000000U });
IOCTL_CASE(batch_count_0, NCSYNC_IOC_BATCH, EINVAL,
	   .arg.batch = { .count = 0 });
IOCTL_CASE(batch_count_1025, NCSYNC_IOC_BATCH, EINVAL,
	   .arg.batch = { .count = NCSYNC_MAX_BATCH + 1 });
IOCTL_CASE(batch_count_max, NCSYNC_IOC_BATCH, EINVAL,
	   .arg.batch = { .count = 0xFFFFFFFFU });
IOCTL_CASE(batch_count_1025_ops_null, NCSYNC_IOC_BATCH, EINVAL,
	   .arg.batch = { .count = NCSYNC_MAX_BATCH + 1 }, .inner = P_NULL);
IOCTL_CASE(batch_ops_null, NCSYNC_IOC_BATCH, EFAULT,
	   .arg.batch = { .count = 4 }, .inner = P_NULL);
IOCTL_CASE(batch_ops_unmapped, NCSYNC_IOC_BATCH, EFAULT,
	   .arg.batch = { .count = 4 }, .inner = P_UNMAPPED);
IOCTL_CASE(batch_ops_kernel, NCSYNC_IOC_BATCH, EFAULT,
	   .arg.batch = { .count = 4 }, .inner = P_KERNEL);
IOCTL_CASE(batch_ops_above_user, NCSYNC_IOC_BATCH, EFAULT,
	   .arg.batch = { .count = 4 }, .inner = P_HIGH);
IOCTL_CASE(batch_ops_last_straddles_hole, NCSYNC_IOC_BATCH, EFAULT,
	   .arg.batch = { .count = NCSYNC_MAX_BATCH }, .inner = P_STRADDLE);
IOCTL_CASE(batch_ops_read_only, NCSYNC_IOC_BATCH, EFAULT,
	   .arg.batch = { .count = 16 }, .inner = P_RO);
IOCTL_CASE(batch_bad_first_pad, NCSYNC_IOC_BATCH, EINVAL,
	   .arg.batch = { .count = NCSYNC_MAX_BATCH }, .patch_op = true,
	   .at = 0, .op = { .op = NCSYNC_OP_INC, .value = 1, .pad = 1 });
IOCTL_CASE(batch_bad_last_index, NCSYNC_IOC_BATCH, EINVAL,
	   .arg.batch = { .count = NCSYNC_MAX_BATCH }, .patch_op = true,
	   .at = -1, .op = { .op = NCSYNC_OP_INC, .index = 256, .value = 1 });
IOCTL_CASE(batch_bad_middle_bank, NCSYNC_IOC_BATCH, EINVAL,
	   .arg.batch = { .count = NCSYNC_MAX_BATCH }, .patch_op = true,
	   .at = 512, .op = { .bank = 2, .op = NCSYNC_OP_INC, .value = 1 });
IOCTL_CASE(batch_bad_last_event_inc, NCSYNC_IOC_BATCH, EINVAL,
	   .arg.batch = { .count = 100 }, .patch_op = true, .at = -1,
	   .op = { .bank = E, .op = NCSYNC_OP_INC });
IOCTL_CASE(batch_bad_last_reserved, NCSYNC_IOC_BATCH, EINVAL,
	   .arg.batch = { .count = 2 }, .patch_op = true, .at = -1,
	   .op = { .op = NCSYNC_OP_SET, .reserved = 1 });
IOCTL_CASE(batch_rdonly_update_last, NCSYNC_IOC_BATCH, EBADF, .fdk = F_RO,
	   .arg.batch = { .count = NCSYNC_MAX_BATCH }, .opsk = OPS_READ,
	   .patch_op = true, .at = -1,
	   .op = { .op = NCSYNC_OP_SET, .index = 3, .value = 9 });
IOCTL_CASE(batch_rdonly_einval_before_ebadf, NCSYNC_IOC_BATCH, EINVAL,
	   .fdk = F_RO, .arg.batch = { .count = 8 }, .patch_op = true,
	   .at = -1, .op = { .op = NCSYNC_OP_READ, .value = 1 });

/* ---- NCSYNC_IOC_WAIT ---- */
#define W(_bank, _mode, _index, _value, ...)				\
	.arg.wait = { .bank = (_bank), .mode = (_mode), .index = (_index),\
		      .value = (_value), __VA_ARGS__ }
#define GE	NCSYNC_WAIT_SEM_GE
#define ESET	NCSYNC_WAIT_EVT_SET
#define ECONS	NCSYNC_WAIT_EVT_SET_THEN_CLEAR
#define EPROD	NCSYNC_WAIT_EVT_CLEAR_THEN_SET
#define NODL	NCSYNC_WAIT_F_NO_DEADLINE

/* event 0 is set: each of these would clear it if accepted */
IOCTL_CASE(wait_flags_2, NCSYNC_IOC_WAIT, EINVAL,
	   W(E, ECONS, 0, 0, .flags = 2));
IOCTL_CASE(wait_flags_8000, NCSYNC_IOC_WAIT, EINVAL,
	   W(E, ECONS, 0, 0, .flags = 0x8000));
IOCTL_CASE(wait_flags_ffff, NCSYNC_IOC_WAIT, EINVAL,
	   W(E, ECONS, 0, 0, .flags = 0xFFFF));
IOCTL_CASE(wait_sem_index_256, NCSYNC_IOC_WAIT, EINVAL,
	   W(S, GE, 256, INT_MIN));
IOCTL_CASE(wait_sem_index_max, NCSYNC_IOC_WAIT, EINVAL,
	   W(S, GE, 0xFFFFFFFFU, INT_MIN));
IOCTL_CASE(wait_event_index_256, NCSYNC_IOC_WAIT, EINVAL,
	   W(E, ECONS, 256, 0));
IOCTL_CASE(wait_bank_2, NCSYNC_IOC_WAIT, EINVAL, W(2, ECONS, 0, 0));
IOCTL_CASE(wait_bank_ff, NCSYNC_IOC_WAIT, EINVAL, W(0xFF, GE, 0, INT_MIN));
IOCTL_CASE(wait_sem_mode_none, NCSYNC_IOC_WAIT, EINVAL, W(S, 0, 0, 0));
IOCTL_CASE(wait_event_mode_none, NCSYNC_IOC_WAIT, EINVAL, W(E, 0, 0, 0));
IOCTL_CASE(wait_sem_mode_08, NCSYNC_IOC_WAIT, EINVAL, W(S, 0x08, 0, 0));
IOCTL_CASE(wait_event_mode_08, NCSYNC_IOC_WAIT, EINVAL, W(E, 0x08, 0, 0));
IOCTL_CASE(wait_sem_mode_register_81, NCSYNC_IOC_WAIT, EINVAL,
	   W(S, NCSYNC_WAIT_REG | NCSYNC_WAIT_SEM_EQ, 7, 0));
IOCTL_CASE(wait_sem_mode_register_85, NCSYNC_IOC_WAIT, EINVAL,
	   W(S, NCSYNC_WAIT_REG | GE, 7, 0));
IOCTL_CASE(wait_event_mode_register_87, NCSYNC_IOC_WAIT, EINVAL,
	   W(E, NCSYNC_WAIT_REG | ECONS, 0, 0));
IOCTL_CASE(wait_mode_ff, NCSYNC_IOC_WAIT, EINVAL, W(S, 0xFF, 0, 0));
IOCTL_CASE(wait_sem_bank_event_mode, NCSYNC_IOC_WAIT, EINVAL,
	   W(S, ESET, 7, 0));
IOCTL_CASE(wait_event_bank_sem_mode, NCSYNC_IOC_WAIT, EINVAL,
	   W(E, GE, 0, 0));
IOCTL_CASE(wait_event_value_1, NCSYNC_IOC_WAIT, EINVAL, W(E, ECONS, 0, 1));
IOCTL_CASE(wait_event_value_min, NCSYNC_IOC_WAIT, EINVAL,
	   W(E, ECONS, 0, INT_MIN));
IOCTL_CASE(wait_deadline_nsec_1e9, NCSYNC_IOC_WAIT, EINVAL,
	   W(E, ECONS, 0, 0, .deadline = { 0, NSEC_PER_SEC }));
IOCTL_CASE(wait_deadline_nsec_negative, NCSYNC_IOC_WAIT, EINVAL,
	   W(E, ECONS, 0, 0, .deadline = { 1, -1 }));
IOCTL_CASE(wait_deadline_nsec_huge, NCSYNC_IOC_WAIT, EINVAL,
	   W(E, ECONS, 0, 0, .deadline = { 0, LLONG_MAX }));
IOCTL_CASE(wait_deadline_sec_negative, NCSYNC_IOC_WAIT, EINVAL,
	   W(E, ECONS, 0, 0, .deadline = { -1, 0 }));
IOCTL_CASE(wait_deadline_sec_min, NCSYNC_IOC_WAIT, EINVAL,
	   W(E, ECONS, 0, 0, .deadline = { LLONG_MIN, 0 }));
IOCTL_CASE(wait_no_deadline_with_sec, NCSYNC_IOC_WAIT, EINVAL,
	   W(E, ECONS, 0, 0, .flags = NODL, .deadline = { 1, 0 }));
IOCTL_CASE(wait_no_deadline_with_nsec, NCSYNC_IOC_WAIT, EINVAL,
	   W(E, ECONS, 0, 0, .flags = NODL, .deadline = { 0, 1 }));
IOCTL_CASE(wait_no_deadline_with_bad_nsec, NCSYNC_IOC_WAIT, EINVAL,
	   W(E, ECONS, 0, 0, .flags = NODL, .deadline = { 0, -1 }));
/* past deadlines: the condition is tested once */
IOCTL_CASE(wait_past_deadline_zero, NCSYNC_IOC_WAIT, ETIMEDOUT,
	   W(S, GE, BLK_SEM, 1));
IOCTL_CASE(wait_past_deadline_1ns, NCSYNC_IOC_WAIT, ETIMEDOUT,
	   W(S, NCSYNC_WAIT_SEM_LT, BLK_SEM, INT_MIN,
	     .deadline = { 0, 1 }));
IOCTL_CASE(wait_past_deadline_second_ago, NCSYNC_IOC_WAIT, ETIMEDOUT,
	   .dl = DL_RECENT, W(S, NCSYNC_WAIT_SEM_EQ, 7, 0));
IOCTL_CASE(wait_past_event_set, NCSYNC_IOC_WAIT, ETIMEDOUT,
	   W(E, ESET, 1, 0));
IOCTL_CASE(wait_past_event_consume_clear, NCSYNC_IOC_WAIT, ETIMEDOUT,
	   W(E, ECONS, 1, 0));
IOCTL_CASE(wait_past_event_produce_set, NCSYNC_IOC_WAIT, ETIMEDOUT,
	   W(E, EPROD, 0, 0));
IOCTL_CASE(wait_rdonly_consume, NCSYNC_IOC_WAIT, EBADF, .fdk = F_RO,
	   W(E, ECONS, 0, 0));
IOCTL_CASE(wait_rdonly_produce, NCSYNC_IOC_WAIT, EBADF, .fdk = F_RO,
	   W(E, EPROD, 1, 0));
IOCTL_CASE(wait_rdonly_bad_deadline_einval_first, NCSYNC_IOC_WAIT, EINVAL,
	   .fdk = F_RO, W(E, ECONS, 0, 0, .deadline = { 0, -1 }));

/* ---- NCSYNC_IOC_RESET ---- */
IOCTL_CASE(reset_flags_1, NCSYNC_IOC_RESET, EINVAL,
	   .arg.reset = { .flags = 1 });
IOCTL_CASE(reset_flags_max, NCSYNC_IOC_RESET, EINVAL,
	   .arg.reset = { .flags = 0xFFFFFFFFU });
IOCTL_CASE(reset_pad_1, NCSYNC_IOC_RESET, EINVAL,
	   .arg.reset = { .pad = 1 });
IOCTL_CASE(reset_pad_80000000, NCSYNC_IOC_RESET, EINVAL,
	   .arg.reset = { .pad = 0x80000000U });
IOCTL_CASE(reset_rdonly, NCSYNC_IOC_RESET, EBADF, .fdk = F_RO);
IOCTL_CASE(reset_rdonly_einval_first, NCSYNC_IOC_RESET, EINVAL,
	   .fdk = F_RO, .arg.reset = { .flags = 1 });

/* ---- NCSYNC_IOC_SUBMIT ---- */
#define SUB(...)	.arg.submit = { .nqueues = 1, __VA_ARGS__ }

IOCTL_CASE(submit_flags_8, NCSYNC_IOC_SUBMIT, EINVAL, SUB(.flags = 8));
IOCTL_CASE(submit_flags_80000000, NCSYNC_IOC_SUBMIT, EINVAL,
	   SUB(.flags = 0x80000000U));
IOCTL_CASE(submit_reserved_1, NCSYNC_IOC_SUBMIT, EINVAL,
	   SUB(.reserved = 1));
IOCTL_CASE(submit_nqueues_0, NCSYNC_IOC_SUBMIT, EINVAL,
	   .arg.submit = { .nqueues = 0 });
IOCTL_CASE(submit_nqueues_6, NCSYNC_IOC_SUBMIT, EINVAL,
	   .arg.submit = { .nqueues = 6 });
IOCTL_CASE(submit_nqueues_max, NCSYNC_IOC_SUBMIT, EINVAL,
	   .arg.submit = { .nqueues = 0xFFFFFFFFU });
IOCTL_CASE(submit_nqueues_0_queues_null, NCSYNC_IOC_SUBMIT, EINVAL,
	   .arg.submit = { .nqueues = 0 }, .inner = P_NULL);
IOCTL_CASE(submit_watchdog_over_max, NCSYNC_IOC_SUBMIT, EINVAL,
	   SUB(.watchdog_ms = 3600001));
IOCTL_CASE(submit_watchdog_u32_max, NCSYNC_IOC_SUBMIT, EINVAL,
	   SUB(.watchdog_ms = 0xFFFFFFFFU));
IOCTL_CASE(submit_queues_null, NCSYNC_IOC_SUBMIT, EFAULT, SUB(),
	   .inner = P_NULL);
IOCTL_CASE(submit_queues_unmapped, NCSYNC_IOC_SUBMIT, EFAULT, SUB(),
	   .inner = P_UNMAPPED);
IOCTL_CASE(submit_queues_kernel, NCSYNC_IOC_SUBMIT, EFAULT, SUB(),
	   .inner = P_KERNEL);
IOCTL_CASE(submit_queues_above_user, NCSYNC_IOC_SUBMIT, EFAULT, SUB(),
	   .inner = P_HIGH);
IOCTL_CASE(submit_queues_last_straddles_hole, NCSYNC_IOC_SUBMIT, EFAULT,
	   .arg.submit = { .nqueues = 5 }, .inner = P_STRADDLE);
IOCTL_CASE(submit_queue_pad0, NCSYNC_IOC_SUBMIT, EINVAL, SUB(),
	   .fix = fix_queue_pad0);
IOCTL_CASE(submit_queue_pad2_of_fifth, NCSYNC_IOC_SUBMIT, EINVAL,
	   .arg.submit = { .nqueues = 5 }, .fix = fix_queue_pad2_last);
IOCTL_CASE(submit_engine_0, NCSYNC_IOC_SUBMIT, EINVAL, SUB(),
	   .fix = fix_engine_0);
IOCTL_CASE(submit_engine_4_dma, NCSYNC_IOC_SUBMIT, EINVAL, SUB(),
	   .fix = fix_engine_4);
IOCTL_CASE(submit_engine_7, NCSYNC_IOC_SUBMIT, EINVAL, SUB(),
	   .fix = fix_engine_7);
IOCTL_CASE(submit_engine_8, NCSYNC_IOC_SUBMIT, EINVAL, SUB(),
	   .fix = fix_engine_8);
IOCTL_CASE(submit_engine_255, NCSYNC_IOC_SUBMIT, EINVAL, SUB(),
	   .fix = fix_engine_255);
IOCTL_CASE(submit_engine_4_in_fifth, NCSYNC_IOC_SUBMIT, EINVAL,
	   .arg.submit = { .nqueues = 5 }, .fix = fix_engine_4_last);
IOCTL_CASE(submit_engine_twice, NCSYNC_IOC_SUBMIT, EINVAL,
	   .arg.submit = { .nqueues = 2 }, .fix = fix_engine_dup);
IOCTL_CASE(submit_engine_twice_first_and_fifth, NCSYNC_IOC_SUBMIT, EINVAL,
	   .arg.submit = { .nqueues = 5 }, .fix = fix_engine_dup_last);
IOCTL_CASE(submit_count_0, NCSYNC_IOC_SUBMIT, EINVAL, SUB(),
	   .fix = fix_count_0);
IOCTL_CASE(submit_count_0_in_fifth, NCSYNC_IOC_SUBMIT, EINVAL,
	   .arg.submit = { .nqueues = 5 }, .fix = fix_count_0_last);
IOCTL_CASE(submit_count_over_max, NCSYNC_IOC_SUBMIT, EINVAL, SUB(),
	   .fix = fix_count_over);
IOCTL_CASE(submit_count_u32_max, NCSYNC_IOC_SUBMIT, EINVAL, SUB(),
	   .fix = fix_count_max);
IOCTL_CASE(submit_count_over_max_in_fifth, NCSYNC_IOC_SUBMIT, EINVAL,
	   .arg.submit = { .nqueues = 5 }, .fix = fix_count_over_last);
IOCTL_CASE(submit_huge_program_enomem, NCSYNC_IOC_SUBMIT, ENOMEM,
	   .arg.submit = { .nqueues = 4 }, .fix = fix_huge_program);
IOCTL_CASE(submit_records_null, NCSYNC_IOC_SUBMIT, EFAULT, SUB(),
	   .inner2 = P_NULL);
IOCTL_CASE(submit_records_unmapped, NCSYNC_IOC_SUBMIT, EFAULT, SUB(),
	   .inner2 = P_UNMAPPED);
IOCTL_CASE(submit_records_kernel, NCSYNC_IOC_SUBMIT, EFAULT, SUB(),
	   .inner2 = P_KERNEL);
IOCTL_CASE(submit_records_above_user, NCSYNC_IOC_SUBMIT, EFAULT, SUB(),
	   .inner2 = P_HIGH);
IOCTL_CASE(submit_records_last_straddles_hole, NCSYNC_IOC_SUBMIT, EFAULT,
	   SUB(), .count = LONG_Q, .inner2 = P_STRADDLE);
IOCTL_CASE(submit_records_of_second_queue_null, NCSYNC_IOC_SUBMIT, EFAULT,
	   .arg.submit = { .nqueues = 2 }, .count = 100,
	   .fix = fix_records_second_null);
/* decoded 64 at a time: a refused record before the hole wins */
IOCTL_CASE(submit_bad_first_record_then_hole, NCSYNC_IOC_SUBMIT, EINVAL,
	   SUB(), .count = LONG_Q, .inner2 = P_STRADDLE, .rec = true,
	   .opcode = 0xA3, .reason = NCSYNC_REC_BAD_OPCODE);
IOCTL_CASE(submit_bad_last_record_in_hole, NCSYNC_IOC_SUBMIT, EFAULT,
	   .arg.submit = { .nqueues = 2 }, .count = LONG_Q, .at_last = true,
	   .inner2 = P_STRADDLE, .rec = true, .opcode = 0xA3);
IOCTL_CASE(submit_rdonly, NCSYNC_IOC_SUBMIT, EBADF, .fdk = F_RO, SUB());
IOCTL_CASE(submit_rdonly_ebadf_before_einval, NCSYNC_IOC_SUBMIT, EBADF,
	   .fdk = F_RO, SUB(.flags = 2));
IOCTL_CASE(submit_full_descriptor_eagain, NCSYNC_IOC_SUBMIT, EAGAIN, SUB(),
	   .prep = prep_full_of_programs);

/*
 * Every record of the bad-record table (common/test/bad_records.h, which
 * KUnit and the library's host tests run too), at the first record of a
 * long queue (the only queue) and at the last record of a long queue (the
 * second, after a short one).  Filler records are NoOps that would
 * increment CANARY_SEM.
 */
static void __attribute__((constructor)) rec_cases(void)
{
	static FIXTURE_VARIANT(badinput) v[2 * NCSYNC_NUM_BAD_RECORDS];
	static struct __fixture_variant_metadata m[2 * NCSYNC_NUM_BAD_RECORDS];
	static char names[2 * NCSYNC_NUM_BAD_RECORDS][64];
	const struct ncsync_bad_record *b;
	unsigned int i;

	for (i = 0; i < 2 * NCSYNC_NUM_BAD_RECORDS; i++) {
		b = &ncsync_bad_records[i / 2];
		v[i] = (FIXTURE_VARIANT(badinput)) {
			.call = call_ioctl, .cmd = NCSYNC_IOC_SUBMIT,
			.err = EINVAL, .arg.submit = { .nqueues = 1 + i % 2 },
			.count = LONG_Q, .rec = true, .bad = b,
			.reason = b->reason, .at_last = i % 2,
		};
		snprintf(names[i], sizeof(names[i]), "rec_%s_%s", b->name,
			 i % 2 ? "last" : "first");
		m[i].name = names[i];
		m[i].data = &v[i];
	}
	register_variants(&_badinput_fixture_object, m,
			  2 * NCSYNC_NUM_BAD_RECORDS);
}

/* ---- NCSYNC_IOC_PROG_STATUS ---- */
IOCTL_CASE(status_flags_4, NCSYNC_IOC_PROG_STATUS, EINVAL,
	   .arg.ps = { .flags = 4 });
IOCTL_CASE(status_flags_80000000, NCSYNC_IOC_PROG_STATUS, EINVAL,
	   .idk = ID_DONE,
	   .arg.ps = { .flags = 0x80000000U | NCSYNC_STATUS_F_RELEASE });
IOCTL_CASE(status_core_1_without_flag, NCSYNC_IOC_PROG_STATUS, EINVAL,
	   .idk = ID_DONE, .arg.ps = { .flags = NCSYNC_STATUS_F_RELEASE,
				       .core = 1 });
IOCTL_CASE(status_id_0, NCSYNC_IOC_PROG_STATUS, ENOENT, .idk = ID_RAW,
	   .arg.ps = { .id = 0 });
IOCTL_CASE(status_id_999, NCSYNC_IOC_PROG_STATUS, ENOENT, .idk = ID_RAW,
	   .arg.ps = { .id = 999 });
IOCTL_CASE(status_id_max, NCSYNC_IOC_PROG_STATUS, ENOENT, .idk = ID_RAW,
	   .arg.ps = { .id = 0xFFFFFFFFU });
IOCTL_CASE(status_other_open_file, NCSYNC_IOC_PROG_STATUS, ENOENT,
	   .fdk = F_OTHER, .idk = ID_DONE,
	   .arg.ps = { .flags = NCSYNC_STATUS_F_RELEASE });
IOCTL_CASE(status_rdonly_open_file, NCSYNC_IOC_PROG_STATUS, ENOENT,
	   .fdk = F_RO);
IOCTL_CASE(status_release_running_ebusy, NCSYNC_IOC_PROG_STATUS, EBUSY,
	   .arg.ps = { .flags = NCSYNC_STATUS_F_RELEASE });
IOCTL_CASE(status_sems_unmapped, NCSYNC_IOC_PROG_STATUS, EFAULT,
	   T_RELEASE_DONE, .inner = P_UNMAPPED);
IOCTL_CASE(status_sems_kernel, NCSYNC_IOC_PROG_STATUS, EFAULT,
	   T_RELEASE_DONE, .inner = P_KERNEL);
IOCTL_CASE(status_sems_above_user, NCSYNC_IOC_PROG_STATUS, EFAULT,
	   T_RELEASE_DONE, .inner = P_HIGH);
IOCTL_CASE(status_sems_read_only, NCSYNC_IOC_PROG_STATUS, EFAULT,
	   T_RELEASE_DONE, .inner = P_RO);
IOCTL_CASE(status_sems_too_short, NCSYNC_IOC_PROG_STATUS, EFAULT,
	   T_RELEASE_DONE, .fix = fix_sems_short);
IOCTL_CASE(status_running_sems_kernel, NCSYNC_IOC_PROG_STATUS, EFAULT,
	   .inner = P_KERNEL);

/* ---- NCSYNC_IOC_PROG_WAIT ---- */
#define PW(...)		.arg.pw = { __VA_ARGS__ }

IOCTL_CASE(prog_wait_flags_2, NCSYNC_IOC_PROG_WAIT, EINVAL,
	   .idk = ID_DONE, PW(.flags = 2));
IOCTL_CASE(prog_wait_flags_max, NCSYNC_IOC_PROG_WAIT, EINVAL,
	   .idk = ID_DONE, PW(.flags = 0xFFFFFFFFU));
IOCTL_CASE(prog_wait_reserved_1, NCSYNC_IOC_PROG_WAIT, EINVAL,
	   .idk = ID_DONE, PW(.reserved = 1));
IOCTL_CASE(prog_wait_nsec_1e9, NCSYNC_IOC_PROG_WAIT, EINVAL,
	   .idk = ID_DONE, PW(.deadline = { 0, NSEC_PER_SEC }));
IOCTL_CASE(prog_wait_nsec_negative, NCSYNC_IOC_PROG_WAIT, EINVAL,
	   .idk = ID_DONE, PW(.deadline = { 5, -5 }));
IOCTL_CASE(prog_wait_sec_negative, NCSYNC_IOC_PROG_WAIT, EINVAL,
	   .idk = ID_DONE, PW(.deadline = { -1, 0 }));
IOCTL_CASE(prog_wait_no_deadline_with_sec, NCSYNC_IOC_PROG_WAIT, EINVAL,
	   .idk = ID_DONE, PW(.flags = NODL, .deadline = { 1, 0 }));
IOCTL_CASE(prog_wait_no_deadline_with_nsec, NCSYNC_IOC_PROG_WAIT, EINVAL,
	   .idk = ID_DONE, PW(.flags = NODL, .deadline = { 0, 1 }));
IOCTL_CASE(prog_wait_bad_flags_before_unknown_id, NCSYNC_IOC_PROG_WAIT,
	   EINVAL, .idk = ID_RAW, PW(.id = 999, .flags = 2));
IOCTL_CASE(prog_wait_id_0, NCSYNC_IOC_PROG_WAIT, ENOENT, .idk = ID_RAW,
	   PW(.id = 0));
IOCTL_CASE(prog_wait_id_999, NCSYNC_IOC_PROG_WAIT, ENOENT, .idk = ID_RAW,
	   PW(.id = 999));
IOCTL_CASE(prog_wait_other_open_file, NCSYNC_IOC_PROG_WAIT, ENOENT,
	   .fdk = F_OTHER, .idk = ID_DONE);
IOCTL_CASE(prog_wait_past_deadline_zero, NCSYNC_IOC_PROG_WAIT, ETIMEDOUT);
IOCTL_CASE(prog_wait_past_deadline_1ns, NCSYNC_IOC_PROG_WAIT, ETIMEDOUT,
	   PW(.deadline = { 0, 1 }));
IOCTL_CASE(prog_wait_past_deadline_second_ago, NCSYNC_IOC_PROG_WAIT,
	   ETIMEDOUT, .dl = DL_RECENT);

/* ---- NCSYNC_IOC_PROG_CANCEL: the blocked program would be cancelled ---- */
IOCTL_CASE(cancel_flags_1, NCSYNC_IOC_PROG_CANCEL, EINVAL,
	   .arg.pc = { .flags = 1 });
IOCTL_CASE(cancel_flags_max, NCSYNC_IOC_PROG_CANCEL, EINVAL,
	   .arg.pc = { .flags = 0xFFFFFFFFU });
IOCTL_CASE(cancel_id_0, NCSYNC_IOC_PROG_CANCEL, ENOENT, .idk = ID_RAW,
	   .arg.pc = { .id = 0 });
IOCTL_CASE(cancel_id_999, NCSYNC_IOC_PROG_CANCEL, ENOENT, .idk = ID_RAW,
	   .arg.pc = { .id = 999 });
IOCTL_CASE(cancel_id_max, NCSYNC_IOC_PROG_CANCEL, ENOENT, .idk = ID_RAW,
	   .arg.pc = { .id = 0xFFFFFFFFU });
IOCTL_CASE(cancel_other_open_file, NCSYNC_IOC_PROG_CANCEL, ENOENT,
	   .fdk = F_OTHER);
IOCTL_CASE(cancel_rdonly_open_file, NCSYNC_IOC_PROG_CANCEL, ENOENT,
	   .fdk = F_RO);

/* ---- successful calls: out fields defined, pads zero, nothing changed ---- */
IOCTL_CASE(ok_info, NCSYNC_IOC_INFO, 0, .check = check_info);
IOCTL_CASE(ok_info_rdonly, NCSYNC_IOC_INFO, 0, .fdk = F_RO,
	   .check = check_info);
IOCTL_CASE(ok_info_wronly, NCSYNC_IOC_INFO, 0, .fdk = F_WO,
	   .check = check_info);
IOCTL_CASE(ok_op_read_sem, NCSYNC_IOC_OP, 0, T_OP_READ,
	   .check = check_op_read);
IOCTL_CASE(ok_op_read_sem_255_rdonly, NCSYNC_IOC_OP, 0, .fdk = F_RO,
	   OP(S, NCSYNC_OP_READ, 255, 0), .check = check_op_read);
IOCTL_CASE(ok_op_read_event, NCSYNC_IOC_OP, 0,
	   OP(E, NCSYNC_OP_READ, 3, 0), .check = check_op_read);
IOCTL_CASE(ok_batch_1024_reads, NCSYNC_IOC_BATCH, 0,
	   .arg.batch = { .count = NCSYNC_MAX_BATCH }, .opsk = OPS_READ,
	   .check = check_batch_read);
IOCTL_CASE(ok_batch_read_rdonly, NCSYNC_IOC_BATCH, 0, .fdk = F_RO,
	   .arg.batch = { .count = 1 }, .opsk = OPS_READ,
	   .check = check_batch_read);
IOCTL_CASE(ok_wait_true_past_deadline, NCSYNC_IOC_WAIT, 0,
	   W(S, GE, 9, INT_MIN), .check = check_wait_result);
IOCTL_CASE(ok_wait_event_set_rdonly, NCSYNC_IOC_WAIT, 0, .fdk = F_RO,
	   W(E, ESET, 0, 0), .check = check_wait_result);
IOCTL_CASE(ok_ack, NCSYNC_IOC_ACK, 0, .check = check_ack,
	   .poll_changes = true);
IOCTL_CASE(ok_stats, NCSYNC_IOC_STATS, 0, .check = check_stats);
IOCTL_CASE(ok_submit_plain_noop, NCSYNC_IOC_SUBMIT, 0, SUB(),
	   .fix = fix_plain_noop, .check = check_submit_ok);
IOCTL_CASE(ok_status_ended, NCSYNC_IOC_PROG_STATUS, 0, .idk = ID_DONE,
	   .check = check_status);
IOCTL_CASE(ok_status_running, NCSYNC_IOC_PROG_STATUS, 0,
	   .check = check_status);
IOCTL_CASE(ok_status_running_no_sems, NCSYNC_IOC_PROG_STATUS, 0,
	   .inner = P_NULL, .check = check_status);
IOCTL_CASE(ok_status_ended_no_sems, NCSYNC_IOC_PROG_STATUS, 0,
	   .idk = ID_DONE, .inner = P_NULL, .check = check_status);
IOCTL_CASE(ok_prog_wait_ended, NCSYNC_IOC_PROG_WAIT, 0, .idk = ID_DONE,
	   .check = check_prog_wait);
IOCTL_CASE(ok_cancel_ended_does_nothing, NCSYNC_IOC_PROG_CANCEL, 0,
	   .idk = ID_DONE);

/* ---- pread(2) ---- */
#define RD(_name, _err, ...)	FILE_CASE(pread_##_name, call_pread, _err, \
					  __VA_ARGS__)
#define WR(_name, _err, ...)	FILE_CASE(pwrite_##_name, call_pwrite, _err,\
					  __VA_ARGS__)

RD(offset_2, EINVAL, .off = 2, .len = 4);
RD(offset_sem_plus_1, EINVAL, .off = NCSYNC_CSR_SEM_READ + 1, .len = 4);
RD(length_6, EINVAL, .off = 0, .len = 6);
RD(length_1, EINVAL, .off = NCSYNC_CSR_SEM_READ, .len = 1);
RD(length_3, EINVAL, .off = NCSYNC_CSR_SEM_READ, .len = 3);
RD(at_end, EINVAL, .off = NCSYNC_CSR_SIZE, .len = 4);
RD(crosses_end, EINVAL, .off = NCSYNC_CSR_SIZE - 4, .len = 8);
RD(whole_window_plus_4, EINVAL, .off = 0, .len = NCSYNC_CSR_SIZE + 4);
RD(devmem_offset, EINVAL, .off = NCSYNC_DEVMEM_OFFSET, .len = 4);
RD(offset_negative, EINVAL, .off = -4, .len = 4);
RD(offset_2_pow_40, EINVAL, .off = 1LL << 40, .len = 4);
RD(offset_llong_max, EINVAL, .off = LLONG_MAX - 3, .len = 4);
RD(length_1_gib, EINVAL, .off = 0, .len = 1U << 30);
RD(length_size_max, EFAULT, .off = 0, .len = SIZE_MAX);
RD(buffer_null, EFAULT, .off = 0, .len = 4, .ptr = P_NULL);
RD(buffer_unmapped, EFAULT, .off = 0, .len = 4, .ptr = P_UNMAPPED);
RD(buffer_kernel, EFAULT, .off = 0, .len = 4, .ptr = P_KERNEL);
RD(buffer_above_user, EFAULT, .off = 0, .len = 4, .ptr = P_HIGH);
RD(buffer_read_only, EFAULT, .off = NCSYNC_CSR_SEM_READ, .len = 1024,
	.ptr = P_RO);
RD(buffer_straddles_hole, EFAULT, .off = 0, .len = NCSYNC_CSR_SIZE,
	.ptr = P_STRADDLE);
RD(wronly, EBADF, .off = 0, .len = 4, .fdk = F_WO);
RD(ok_length_0_odd_offset, 0, .off = 3, .len = 0);
RD(ok_length_0_past_end, 0, .off = 1LL << 40, .len = 0);
RD(ok_last_register, 0, .off = NCSYNC_CSR_SIZE - 4, .len = 4, .expect = 4);

/* ---- pwrite(2): every register written would be 1 ---- */
WR(offset_2, EINVAL, .off = NCSYNC_CSR_SEM_SET + 2, .len = 4);
WR(length_5, EINVAL, .off = NCSYNC_CSR_SEM_SET, .len = 5);
WR(length_2, EINVAL, .off = NCSYNC_CSR_EVENTS, .len = 2);
WR(sem_read_window, EINVAL, .off = NCSYNC_CSR_SEM_READ, .len = 4);
WR(sem_read_window_last, EINVAL, .off = NCSYNC_CSR_SEM_SET - 4, .len = 4);
WR(reserved_first, EINVAL, .off = NCSYNC_CSR_WINDOW_SIZE, .len = 4);
WR(reserved_last, EINVAL, .off = NCSYNC_CSR_SEM_READ - 4, .len = 4);
WR(events_into_reserved, EINVAL, .off = NCSYNC_CSR_WINDOW_SIZE - 4,
	.len = 8);
WR(reserved_into_sem_read, EINVAL, .off = NCSYNC_CSR_SEM_READ - 4, .len = 8);
WR(sem_read_into_sem_set, EINVAL, .off = NCSYNC_CSR_SEM_SET - 4, .len = 8);
WR(whole_window, EINVAL, .off = 0, .len = NCSYNC_CSR_SIZE);
WR(set_inc_dec_windows_and_past_end, EINVAL, .off = NCSYNC_CSR_SEM_SET,
	.len = NCSYNC_CSR_SIZE - NCSYNC_CSR_SEM_SET + 4);
WR(at_end, EINVAL, .off = NCSYNC_CSR_SIZE, .len = 4);
WR(crosses_end, EINVAL, .off = NCSYNC_CSR_SIZE - 4, .len = 8);
WR(offset_negative, EINVAL, .off = -4, .len = 4);
WR(offset_2_pow_40, EINVAL, .off = 1LL << 40, .len = 4);
WR(devmem_offset, EINVAL, .off = NCSYNC_DEVMEM_OFFSET, .len = 4);
WR(length_1_gib, EINVAL, .off = NCSYNC_CSR_SEM_SET, .len = 1U << 30);
WR(length_size_max, EFAULT, .off = NCSYNC_CSR_SEM_SET, .len = SIZE_MAX);
WR(buffer_null, EFAULT, .off = NCSYNC_CSR_SEM_SET, .len = 4, .ptr = P_NULL);
WR(buffer_unmapped, EFAULT, .off = NCSYNC_CSR_SEM_INC, .len = 4,
	.ptr = P_UNMAPPED);
WR(buffer_kernel, EFAULT, .off = NCSYNC_CSR_SEM_DEC, .len = 4,
	.ptr = P_KERNEL);
WR(buffer_above_user, EFAULT, .off = NCSYNC_CSR_EVENTS, .len = 4,
	.ptr = P_HIGH);
WR(buffer_straddles_hole_events, EFAULT, .off = NCSYNC_CSR_EVENTS,
	.len = NCSYNC_CSR_WINDOW_SIZE, .ptr = P_STRADDLE);
WR(buffer_straddles_hole_sems, EFAULT, .off = NCSYNC_CSR_SEM_SET,
	.len = 3 * NCSYNC_CSR_WINDOW_SIZE, .ptr = P_STRADDLE);
WR(rdonly, EBADF, .off = NCSYNC_CSR_SEM_SET, .len = 4, .fdk = F_RO);
WR(ok_length_0_sem_read_window, 0, .off = NCSYNC_CSR_SEM_READ, .len = 0);
WR(ok_length_0_odd_offset, 0, .off = 7, .len = 0);

/* ---- read(2) and write(2) at the file position ---- */
FILE_CASE(read_at_end, call_rw_at, EINVAL, .rw = RW_READ,
	  .off = NCSYNC_CSR_SIZE, .len = 4);
FILE_CASE(read_at_odd_position, call_rw_at, EINVAL, .rw = RW_READ,
	  .off = 0x101, .len = 4);
FILE_CASE(write_at_end, call_rw_at, EINVAL, .rw = RW_WRITE,
	  .off = NCSYNC_CSR_SIZE, .len = 4);
FILE_CASE(write_at_odd_position, call_rw_at, EINVAL, .rw = RW_WRITE,
	  .off = NCSYNC_CSR_SEM_SET + 1, .len = 4);
FILE_CASE(write_at_sem_read_window, call_rw_at, EINVAL, .rw = RW_WRITE,
	  .off = NCSYNC_CSR_SEM_READ, .len = 4);
FILE_CASE(write_rdonly, call_rw_at, EBADF, .rw = RW_WRITE, .fdk = F_RO,
	  .off = NCSYNC_CSR_SEM_SET, .len = 4);
FILE_CASE(read_wronly, call_rw_at, EBADF, .rw = RW_READ, .fdk = F_WO,
	  .off = 0, .len = 4);

/* ---- lseek(2), from position 0x100 ---- */
#define SK(_name, _err, _off, _whence, ...)				\
	FILE_CASE(lseek_##_name, call_lseek, _err, .off = (_off),	\
		  .whence = (_whence), __VA_ARGS__)

SK(set_negative, EINVAL, -4, SEEK_SET);
SK(set_past_end, EINVAL, NCSYNC_CSR_SIZE + 4, SEEK_SET);
SK(set_llong_max, EINVAL, LLONG_MAX, SEEK_SET);
SK(set_llong_min, EINVAL, LLONG_MIN, SEEK_SET);
SK(cur_before_start, EINVAL, -0x104, SEEK_CUR);
SK(cur_past_end, EINVAL, NCSYNC_CSR_SIZE, SEEK_CUR);
SK(cur_llong_max, EINVAL, LLONG_MAX, SEEK_CUR);
SK(end_positive, EINVAL, 4, SEEK_END);
SK(end_before_start, EINVAL, -NCSYNC_CSR_SIZE - 4, SEEK_END);
SK(seek_data, EINVAL, 0, SEEK_DATA);
SK(seek_hole, EINVAL, 0, SEEK_HOLE);
SK(whence_5, EINVAL, 0, 5);
SK(whence_negative, EINVAL, 0, -1);
SK(ok_set_end, 0, NCSYNC_CSR_SIZE, SEEK_SET, .expect = NCSYNC_CSR_SIZE);
SK(ok_end_0, 0, 0, SEEK_END, .expect = NCSYNC_CSR_SIZE);
SK(ok_end_whole_window, 0, -NCSYNC_CSR_SIZE, SEEK_END, .expect = 0);
SK(ok_cur_0, 0, 0, SEEK_CUR, .expect = 0x100);

/* ---- mmap(2), mprotect(2), mremap(2) ---- */
#define MM(_name, _err, ...)	FILE_CASE(mmap_##_name, call_mmap, _err, \
					  __VA_ARGS__)
#define SH		MAP_SHARED
#define PR		PROT_READ
#define PG		4096

MM(private, EINVAL, .len = PG, .prot = PR, .mflags = MAP_PRIVATE);
MM(private_devmem, EINVAL, .off = NCSYNC_DEVMEM_OFFSET, .len = PG,
	.prot = PR, .mflags = MAP_PRIVATE);
MM(offset_page_1, EINVAL, .off = PG, .len = PG, .prot = PR, .mflags = SH);
MM(offset_page_2, EINVAL, .off = 2 * PG, .len = PG, .prot = PR,
	.mflags = SH);
MM(offset_devmem_plus_page, EINVAL, .off = NCSYNC_DEVMEM_OFFSET + PG,
	.len = PG, .prot = PR, .mflags = SH);
MM(offset_2_pow_40, EINVAL, .off = 1LL << 40, .len = PG, .prot = PR,
	.mflags = SH);
MM(offset_unaligned, EINVAL, .off = 0x10, .len = PG, .prot = PR,
	.mflags = SH);
MM(length_3_pages, EINVAL, .len = 3 * PG, .prot = PR, .mflags = SH);
MM(length_window_plus_1, EINVAL, .len = NCSYNC_CSR_SIZE + 1, .prot = PR,
	.mflags = SH);
MM(length_0, EINVAL, .len = 0, .prot = PR, .mflags = SH);
MM(prot_write, EACCES, .len = PG, .prot = PR | PROT_WRITE, .mflags = SH);
MM(prot_write_only, EACCES, .len = PG, .prot = PROT_WRITE, .mflags = SH);
MM(prot_exec, EACCES, .len = PG, .prot = PR | PROT_EXEC, .mflags = SH);
MM(devmem_too_long, EINVAL, .off = NCSYNC_DEVMEM_OFFSET, .len = PG,
	.len_devmem = true, .prot = PR, .mflags = SH);
MM(devmem_exec, EACCES, .off = NCSYNC_DEVMEM_OFFSET, .len = PG,
	.prot = PR | PROT_EXEC, .mflags = SH);
MM(rdonly_prot_write, EACCES, .fdk = F_RO, .len = PG,
	.prot = PR | PROT_WRITE, .mflags = SH);
MM(rdonly_devmem_prot_write, EACCES, .fdk = F_RO,
	.off = NCSYNC_DEVMEM_OFFSET, .len = PG, .prot = PR | PROT_WRITE,
	.mflags = SH);
MM(wronly, EACCES, .fdk = F_WO, .len = PG, .prot = PR, .mflags = SH);
MM(ok_window, 0, .len = NCSYNC_CSR_SIZE, .prot = PR, .mflags = SH);
MM(ok_devmem_rdonly, 0, .fdk = F_RO, .off = NCSYNC_DEVMEM_OFFSET,
	.len = PG, .prot = PR, .mflags = SH);
FILE_CASE(mprotect_window_write, call_mprotect, EACCES, .len = PG,
	  .prot = PR | PROT_WRITE);
FILE_CASE(mprotect_window_exec, call_mprotect, EACCES, .len = 2 * PG,
	  .prot = PR | PROT_EXEC);
FILE_CASE(mprotect_devmem_exec, call_mprotect, EACCES,
	  .off = NCSYNC_DEVMEM_OFFSET, .len = PG, .prot = PR | PROT_EXEC);
FILE_CASE(mprotect_rdonly_devmem_write, call_mprotect, EACCES,
	  .fdk = F_RO, .off = NCSYNC_DEVMEM_OFFSET, .len = PG,
	  .prot = PR | PROT_WRITE);
FILE_CASE(mremap_window_grow, call_mremap, EFAULT, .len = PG,
	  .len2 = 2 * PG, .mflags = MREMAP_MAYMOVE);
FILE_CASE(mremap_window_grow_in_place, call_mremap, EFAULT, .len = PG,
	  .len2 = 2 * PG, .mflags = 0);
FILE_CASE(mremap_devmem_grow, call_mremap, EFAULT,
	  .off = NCSYNC_DEVMEM_OFFSET, .len = 0, .len_devmem = true,
	  .len2 = 1U << 30, .mflags = MREMAP_MAYMOVE);

/* ---- open(2) of a core that does not exist ---- */
FILE_CASE(open_core_past_last_no_node, call_open_core, ENOENT, .off = -1);
FILE_CASE(open_minor_past_last_core, call_open_core, ENXIO, .off = 0);
FILE_CASE(open_minor_far_past_last_core, call_open_core, ENXIO,
	  .off = 200);

TEST_HARNESS_MAIN
