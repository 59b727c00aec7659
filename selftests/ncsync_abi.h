/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the ncsync_abi_*_test selftests share: the /dev/ncsyncN ABI of
 * <linux/ncsync.h> and the CSR window of Documentation/ncsync/model.rst,
 * one test per behaviour and per error path, split by concern (info and
 * access modes, CSR window, mmap, OP/BATCH/RESET, WAIT, poll/ACK/STATS,
 * concurrency); plain and asserting helpers and the "core" fixture, each
 * of its tests starting from a freshly reset core 0.
 *
 * Waits that must be woken use a long deadline (LONG_MS), so that a missed
 * wake-up fails with ETIMEDOUT instead of hanging; waits that must time out
 * use a short one.  No test asserts an upper bound on any duration.
 */
#ifndef NCSYNC_ABI_H
#define NCSYNC_ABI_H

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
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include <linux/ncsync.h>

#include "kselftest_harness.h"
#include "ncsync_selftest.h"

#define DEV_FMT		"/dev/ncsync%u"
#define DEV0		"/dev/ncsync0"
#define DEV1		"/dev/ncsync1"
#define CSR_REGS	(NCSYNC_CSR_SIZE / 4)

#define EVT(i)		(NCSYNC_CSR_EVENTS + 4 * (i))
#define SEM_RD(i)	(NCSYNC_CSR_SEM_READ + 4 * (i))
#define SEM_SET(i)	(NCSYNC_CSR_SEM_SET + 4 * (i))
#define SEM_INC(i)	(NCSYNC_CSR_SEM_INC + 4 * (i))
#define SEM_DEC(i)	(NCSYNC_CSR_SEM_DEC + 4 * (i))

#define SEM		NCSYNC_BANK_SEM
#define EVENT		NCSYNC_BANK_EVENT

#define LONG_MS		10000	/* deadline of a wait that must be woken */
#define SHORT_MS	100	/* deadline of a wait that must time out */
#define PAST_MS		(-1)	/* deadline {0, 0}: test once */
#define FOREVER_MS	(-2)	/* NCSYNC_WAIT_F_NO_DEADLINE */
#define EARLY_NS	1000000LL	/* tolerated early return at a deadline */

#define NSEC_PER_SEC	1000000000LL
#define NSEC_PER_MSEC	1000000LL

/* ---------------------------------------------------------------------- */
/* Plain helpers: return 0 or -errno.                                      */

static inline __s64 ns_of(struct ncsync_timespec ts)
{
	return ts.tv_sec * NSEC_PER_SEC + ts.tv_nsec;
}

static inline struct ncsync_op mkop(__u8 bank, __u8 op, __u32 index, __u32 value)
{
	struct ncsync_op o = {
		.bank = bank, .op = op, .index = index, .value = value,
	};

	return o;
}

static inline int op_ioctl(int fd, struct ncsync_op *op)
{
	return ioctl(fd, NCSYNC_IOC_OP, op) ? -errno : 0;
}

static inline int do_op(int fd, __u8 bank, __u8 opc, __u32 index, __u32 value,
		 struct ncsync_op *out)
{
	struct ncsync_op op = mkop(bank, opc, index, value);
	int ret = op_ioctl(fd, &op);

	if (out)
		*out = op;
	return ret;
}

static inline int do_batch(int fd, struct ncsync_op *ops, __u32 count, __u32 flags)
{
	struct ncsync_batch b = {
		.ops = (__u64)(uintptr_t)ops, .count = count, .flags = flags,
	};

	return ioctl(fd, NCSYNC_IOC_BATCH, &b) ? -errno : 0;
}

static inline int do_reset(int fd, __u32 flags, __u32 pad)
{
	struct ncsync_reset r = { .flags = flags, .pad = pad };

	return ioctl(fd, NCSYNC_IOC_RESET, &r) ? -errno : 0;
}

/* pread/pwrite: 0 when the whole length was transferred, else -errno. */
static inline int rd(int fd, void *buf, size_t len, off_t off)
{
	ssize_t n = pread(fd, buf, len, off);

	if (n < 0)
		return -errno;
	return (size_t)n == len ? 0 : -EIO;
}

static inline int wr(int fd, const void *buf, size_t len, off_t off)
{
	ssize_t n = pwrite(fd, buf, len, off);

	if (n < 0)
		return -errno;
	return (size_t)n == len ? 0 : -EIO;
}

static inline int wr32(int fd, off_t off, __u32 v)
{
	return wr(fd, &v, 4, off);
}

/*
 * A wait request: @ms > 0 is a deadline that many ms from now, PAST_MS the
 * deadline {0, 0}, FOREVER_MS the NO_DEADLINE flag.
 */
static inline struct ncsync_wait mkwait(__u8 bank, __u8 mode, __u32 index,
				 __s32 value, long ms)
{
	struct ncsync_wait w = {
		.bank = bank, .mode = mode, .index = index, .value = value,
	};

	if (ms == FOREVER_MS)
		w.flags = NCSYNC_WAIT_F_NO_DEADLINE;
	else if (ms >= 0)
		w.deadline = ts_of(now_ns() + ms * NSEC_PER_MSEC);
	return w;
}

static inline int wait_ioctl(int fd, struct ncsync_wait *w)
{
	return ioctl(fd, NCSYNC_IOC_WAIT, w) ? -errno : 0;
}

static inline int do_wait(int fd, __u8 bank, __u8 mode, __u32 index, __s32 value,
		   long ms, __s32 *result)
{
	struct ncsync_wait w = mkwait(bank, mode, index, value, ms);
	int ret = wait_ioctl(fd, &w);

	if (result)
		*result = w.result;
	return ret;
}

/* A page followed by an unmapped one: returns the first unmapped byte. */
static inline char *guard_end(void)
{
	long pg = sysconf(_SC_PAGESIZE);
	char *p = mmap(NULL, 2 * pg, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
	munmap(p + pg, pg);
	return p + pg;
}

/* A read-only anonymous page holding a copy of @len bytes of @src. */
static inline void *ro_copy(const void *src, size_t len)
{
	long pg = sysconf(_SC_PAGESIZE);
	size_t sz = (len + pg - 1) / pg * pg;
	void *p = mmap(NULL, sz, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
	memcpy(p, src, len);
	if (mprotect(p, sz, PROT_READ)) {
		munmap(p, sz);
		return NULL;
	}
	return p;
}

/* The pattern seed() writes: sem i = sem_pat(i), event i = !(i % 3). */
static inline __s32 sem_pat(unsigned int i)
{
	return (__s32)(i * 2654435761U) >> 3 | 1;
}

/* ---------------------------------------------------------------------- */
/* Asserting helpers (usable from the test's own thread only).             */

static inline int open_dev(struct __test_metadata *_metadata, unsigned int core,
		    int flags)
{
	char path[32];
	int fd;

	snprintf(path, sizeof(path), DEV_FMT, core);
	fd = open(path, flags | O_CLOEXEC);
	ASSERT_LE(0, fd) TH_LOG("open %s: %s", path, strerror(errno));
	return fd;
}

static inline __s32 sem_get(struct __test_metadata *_metadata, int fd, __u32 i)
{
	struct ncsync_op op;

	ASSERT_EQ(0, do_op(fd, SEM, NCSYNC_OP_READ, i, 0, &op))
		TH_LOG("OP READ sem %u: %s", i, strerror(errno));
	ASSERT_EQ(op.before, op.after);
	return op.after;
}

static inline int evt_get(struct __test_metadata *_metadata, int fd, __u32 i)
{
	struct ncsync_op op;

	ASSERT_EQ(0, do_op(fd, EVENT, NCSYNC_OP_READ, i, 0, &op))
		TH_LOG("OP READ event %u: %s", i, strerror(errno));
	ASSERT_EQ(op.before, op.after);
	return op.after;
}

static inline void sem_put(struct __test_metadata *_metadata, int fd, __u32 i,
		    __s32 v)
{
	ASSERT_EQ(0, do_op(fd, SEM, NCSYNC_OP_SET, i, (__u32)v, NULL))
		TH_LOG("OP SET sem %u: %s", i, strerror(errno));
}

static inline void evt_put(struct __test_metadata *_metadata, int fd, __u32 i,
		    bool on)
{
	ASSERT_EQ(0, do_op(fd, EVENT, on ? NCSYNC_OP_SET : NCSYNC_OP_CLEAR, i,
			   0, NULL))
		TH_LOG("OP %s event %u: %s", on ? "SET" : "CLEAR", i,
		       strerror(errno));
}

static inline __u32 csr_get(struct __test_metadata *_metadata, int fd, off_t off)
{
	__u32 v = 0xdeadbeef;

	ASSERT_EQ(0, rd(fd, &v, 4, off))
		TH_LOG("pread 4 @%#lx: %s", (long)off, strerror(errno));
	return v;
}

static inline void csr_put(struct __test_metadata *_metadata, int fd, off_t off,
		    __u32 v)
{
	ASSERT_EQ(0, wr32(fd, off, v))
		TH_LOG("pwrite 4 @%#lx: %s", (long)off, strerror(errno));
}

static inline void stats_get(struct __test_metadata *_metadata, int fd,
		      struct ncsync_stats *st)
{
	memset(st, 0xa5, sizeof(*st));
	ASSERT_EQ(0, ioctl(fd, NCSYNC_IOC_STATS, st))
		TH_LOG("STATS: %s", strerror(errno));
}

static inline __u64 ack(struct __test_metadata *_metadata, int fd)
{
	struct ncsync_seq s = { .seq = 0 };

	ASSERT_EQ(0, ioctl(fd, NCSYNC_IOC_ACK, &s))
		TH_LOG("ACK: %s", strerror(errno));
	return s.seq;
}

static inline void core_reset(struct __test_metadata *_metadata, int fd)
{
	ASSERT_EQ(0, do_reset(fd, 0, 0)) TH_LOG("RESET: %s", strerror(errno));
}

/* Fill every semaphore and event with a known, mostly non-zero pattern. */
static inline void seed(struct __test_metadata *_metadata, int fd)
{
	__u32 v[256];
	unsigned int i;

	for (i = 0; i < 256; i++)
		v[i] = (__u32)sem_pat(i);
	ASSERT_EQ(0, wr(fd, v, sizeof(v), NCSYNC_CSR_SEM_SET))
		TH_LOG("seed sems: %s", strerror(errno));
	for (i = 0; i < 256; i++)
		v[i] = !(i % 3);
	ASSERT_EQ(0, wr(fd, v, sizeof(v), NCSYNC_CSR_EVENTS))
		TH_LOG("seed events: %s", strerror(errno));
}

/* The whole CSR window and the change sequence: "nothing changed" checks. */
struct snap {
	__u32 csr[CSR_REGS];
	__u64 seq;
};

static inline void snap_take(struct __test_metadata *_metadata, int fd,
		      struct snap *s)
{
	struct ncsync_stats st;

	ASSERT_EQ(0, rd(fd, s->csr, sizeof(s->csr), 0))
		TH_LOG("pread whole window: %s", strerror(errno));
	stats_get(_metadata, fd, &st);
	s->seq = st.seq;
}

static inline void snap_check(struct __test_metadata *_metadata, int fd,
		       const struct snap *before)
{
	static struct snap now;
	unsigned int i;

	snap_take(_metadata, fd, &now);
	for (i = 0; i < CSR_REGS; i++) {
		ASSERT_EQ(before->csr[i], now.csr[i])
			TH_LOG("CSR @%#x changed: %#x -> %#x", i * 4,
			       before->csr[i], now.csr[i]);
	}
	ASSERT_EQ(before->seq, now.seq) TH_LOG("change sequence advanced");
}

/* A thread blocked in NCSYNC_IOC_WAIT. */
struct waiter {
	pthread_t th;
	int fd;
	struct ncsync_wait w;
	int ret;
	pid_t tid;
	int done;
};

static inline void *waiter_main(void *arg)
{
	struct waiter *wt = arg;

	__atomic_store_n(&wt->tid, my_tid(), __ATOMIC_SEQ_CST);
	wt->ret = wait_ioctl(wt->fd, &wt->w);
	__atomic_store_n(&wt->done, 1, __ATOMIC_SEQ_CST);
	return NULL;
}

static inline void waiter_start(struct __test_metadata *_metadata, struct waiter *wt,
			 int fd, __u8 bank, __u8 mode, __u32 index,
			 __s32 value, long ms)
{
	memset(wt, 0, sizeof(*wt));
	wt->fd = fd;
	wt->w = mkwait(bank, mode, index, value, ms);
	ASSERT_EQ(0, pthread_create(&wt->th, NULL, waiter_main, wt));
	while (!__atomic_load_n(&wt->tid, __ATOMIC_SEQ_CST))
		usleep(100);
}

static inline bool waiter_blocked(struct waiter *wt)
{
	return await_blocked(getpid(), wt->tid, SYS_ioctl);
}

static inline int waiter_join(struct waiter *wt)
{
	pthread_join(wt->th, NULL);
	return wt->ret;
}

static inline int reap(pid_t pid)
{
	int status;

	if (waitpid(pid, &status, 0) != pid)
		return -1;
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return 128 + WTERMSIG(status);
}

/* poll() of @fd for reading, up to @timeout_ms: its revents, 0 or -1. */
static inline short poll_fd(int fd, int timeout_ms)
{
	struct pollfd p = { .fd = fd, .events = POLLIN | POLLRDNORM };
	int n = poll(&p, 1, timeout_ms);

	if (n < 0)
		return -1;
	return n ? p.revents : 0;
}

#define POLL_READABLE	(POLLIN | POLLRDNORM)

NCSYNC_CORE_FIXTURE();
#endif /* NCSYNC_ABI_H */
