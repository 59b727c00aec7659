// SPDX-License-Identifier: GPL-2.0
/*
 * ncsync selftests: the /dev/ncsyncN ABI of <linux/ncsync.h> and the CSR
 * window of Documentation/ncsync/model.rst, one test per behaviour and per
 * error path.
 *
 * Every test of the "core" fixture starts from a freshly reset core 0.  Run
 * inside the test VM:  tools/vm-run build/selftests/ncsync_test
 *
 * Waits that must be woken use a long deadline (LONG_MS), so that a missed
 * wake-up fails with ETIMEDOUT instead of hanging; waits that must time out
 * use a short one.  No test asserts an upper bound on any duration.
 */
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

static __s64 ns_of(struct ncsync_timespec ts)
{
	return ts.tv_sec * NSEC_PER_SEC + ts.tv_nsec;
}

static struct ncsync_op mkop(__u8 bank, __u8 op, __u32 index, __u32 value)
{
	struct ncsync_op o = {
		.bank = bank, .op = op, .index = index, .value = value,
	};

	return o;
}

static int op_ioctl(int fd, struct ncsync_op *op)
{
	return ioctl(fd, NCSYNC_IOC_OP, op) ? -errno : 0;
}

static int do_op(int fd, __u8 bank, __u8 opc, __u32 index, __u32 value,
		 struct ncsync_op *out)
{
	struct ncsync_op op = mkop(bank, opc, index, value);
	int ret = op_ioctl(fd, &op);

	if (out)
		*out = op;
	return ret;
}

static int do_batch(int fd, struct ncsync_op *ops, __u32 count, __u32 flags)
{
	struct ncsync_batch b = {
		.ops = (__u64)(uintptr_t)ops, .count = count, .flags = flags,
	};

	return ioctl(fd, NCSYNC_IOC_BATCH, &b) ? -errno : 0;
}

static int do_reset(int fd, __u32 flags, __u32 pad)
{
	struct ncsync_reset r = { .flags = flags, .pad = pad };

	return ioctl(fd, NCSYNC_IOC_RESET, &r) ? -errno : 0;
}

/* pread/pwrite: 0 when the whole length was transferred, else -errno. */
static int rd(int fd, void *buf, size_t len, off_t off)
{
	ssize_t n = pread(fd, buf, len, off);

	if (n < 0)
		return -errno;
	return (size_t)n == len ? 0 : -EIO;
}

static int wr(int fd, const void *buf, size_t len, off_t off)
{
	ssize_t n = pwrite(fd, buf, len, off);

	if (n < 0)
		return -errno;
	return (size_t)n == len ? 0 : -EIO;
}

static int wr32(int fd, off_t off, __u32 v)
{
	return wr(fd, &v, 4, off);
}

/*
 * A wait request: @ms > 0 is a deadline that many ms from now, PAST_MS the
 * deadline {0, 0}, FOREVER_MS the NO_DEADLINE flag.
 */
static struct ncsync_wait mkwait(__u8 bank, __u8 mode, __u32 index,
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

static int wait_ioctl(int fd, struct ncsync_wait *w)
{
	return ioctl(fd, NCSYNC_IOC_WAIT, w) ? -errno : 0;
}

static int do_wait(int fd, __u8 bank, __u8 mode, __u32 index, __s32 value,
		   long ms, __s32 *result)
{
	struct ncsync_wait w = mkwait(bank, mode, index, value, ms);
	int ret = wait_ioctl(fd, &w);

	if (result)
		*result = w.result;
	return ret;
}

/* NULL, hidden from the compiler's nonnull checks */
static volatile uintptr_t null_addr;
#define BADPTR	((void *)null_addr)

/* A page followed by an unmapped one: returns the first unmapped byte. */
static char *guard_end(void)
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
static void *ro_copy(const void *src, size_t len)
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
static __s32 sem_pat(unsigned int i)
{
	return (__s32)(i * 2654435761U) >> 3 | 1;
}

/* ---------------------------------------------------------------------- */
/* Asserting helpers (usable from the test's own thread only).             */

static int open_dev(struct __test_metadata *_metadata, unsigned int core,
		    int flags)
{
	char path[32];
	int fd;

	snprintf(path, sizeof(path), DEV_FMT, core);
	fd = open(path, flags | O_CLOEXEC);
	ASSERT_LE(0, fd) TH_LOG("open %s: %s", path, strerror(errno));
	return fd;
}

static __s32 sem_get(struct __test_metadata *_metadata, int fd, __u32 i)
{
	struct ncsync_op op;

	ASSERT_EQ(0, do_op(fd, SEM, NCSYNC_OP_READ, i, 0, &op))
		TH_LOG("OP READ sem %u: %s", i, strerror(errno));
	ASSERT_EQ(op.before, op.after);
	return op.after;
}

static int evt_get(struct __test_metadata *_metadata, int fd, __u32 i)
{
	struct ncsync_op op;

	ASSERT_EQ(0, do_op(fd, EVENT, NCSYNC_OP_READ, i, 0, &op))
		TH_LOG("OP READ event %u: %s", i, strerror(errno));
	ASSERT_EQ(op.before, op.after);
	return op.after;
}

static void sem_put(struct __test_metadata *_metadata, int fd, __u32 i,
		    __s32 v)
{
	ASSERT_EQ(0, do_op(fd, SEM, NCSYNC_OP_SET, i, (__u32)v, NULL))
		TH_LOG("OP SET sem %u: %s", i, strerror(errno));
}

static void evt_put(struct __test_metadata *_metadata, int fd, __u32 i,
		    bool on)
{
	ASSERT_EQ(0, do_op(fd, EVENT, on ? NCSYNC_OP_SET : NCSYNC_OP_CLEAR, i,
			   0, NULL))
		TH_LOG("OP %s event %u: %s", on ? "SET" : "CLEAR", i,
		       strerror(errno));
}

static __u32 csr_get(struct __test_metadata *_metadata, int fd, off_t off)
{
	__u32 v = 0xdeadbeef;

	ASSERT_EQ(0, rd(fd, &v, 4, off))
		TH_LOG("pread 4 @%#lx: %s", (long)off, strerror(errno));
	return v;
}

static void csr_put(struct __test_metadata *_metadata, int fd, off_t off,
		    __u32 v)
{
	ASSERT_EQ(0, wr32(fd, off, v))
		TH_LOG("pwrite 4 @%#lx: %s", (long)off, strerror(errno));
}

static void stats_get(struct __test_metadata *_metadata, int fd,
		      struct ncsync_stats *st)
{
	memset(st, 0xa5, sizeof(*st));
	ASSERT_EQ(0, ioctl(fd, NCSYNC_IOC_STATS, st))
		TH_LOG("STATS: %s", strerror(errno));
}

static __u64 ack(struct __test_metadata *_metadata, int fd)
{
	struct ncsync_seq s = { .seq = 0 };

	ASSERT_EQ(0, ioctl(fd, NCSYNC_IOC_ACK, &s))
		TH_LOG("ACK: %s", strerror(errno));
	return s.seq;
}

static void core_reset(struct __test_metadata *_metadata, int fd)
{
	ASSERT_EQ(0, do_reset(fd, 0, 0)) TH_LOG("RESET: %s", strerror(errno));
}

/* Fill every semaphore and event with a known, mostly non-zero pattern. */
static void seed(struct __test_metadata *_metadata, int fd)
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

static void snap_take(struct __test_metadata *_metadata, int fd,
		      struct snap *s)
{
	struct ncsync_stats st;

	ASSERT_EQ(0, rd(fd, s->csr, sizeof(s->csr), 0))
		TH_LOG("pread whole window: %s", strerror(errno));
	stats_get(_metadata, fd, &st);
	s->seq = st.seq;
}

static void snap_check(struct __test_metadata *_metadata, int fd,
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

static void *waiter_main(void *arg)
{
	struct waiter *wt = arg;

	__atomic_store_n(&wt->tid, my_tid(), __ATOMIC_SEQ_CST);
	wt->ret = wait_ioctl(wt->fd, &wt->w);
	__atomic_store_n(&wt->done, 1, __ATOMIC_SEQ_CST);
	return NULL;
}

static void waiter_start(struct __test_metadata *_metadata, struct waiter *wt,
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

static bool waiter_blocked(struct waiter *wt)
{
	return await_blocked(getpid(), wt->tid, SYS_ioctl);
}

static int waiter_join(struct waiter *wt)
{
	pthread_join(wt->th, NULL);
	return wt->ret;
}

/* A forked process blocked in NCSYNC_IOC_WAIT; results in shared memory. */
struct shared_result {
	int ret;
	__s32 result;
};

static pid_t fork_waiter(struct shared_result *sr, __u8 bank, __u8 mode,
			 __u32 index, __s32 value, long ms)
{
	pid_t pid = fork();

	if (pid == 0) {
		int fd = open(DEV0, O_RDWR | O_CLOEXEC);

		if (fd < 0)
			_exit(2);
		sr->ret = do_wait(fd, bank, mode, index, value, ms,
				  &sr->result);
		_exit(0);
	}
	return pid;
}

static int reap(pid_t pid)
{
	int status;

	if (waitpid(pid, &status, 0) != pid)
		return -1;
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return 128 + WTERMSIG(status);
}

static volatile sig_atomic_t sig_count;

static void count_sig(int sig)
{
	sig_count++;
}

static void catch_sigusr1(struct __test_metadata *_metadata, bool restart)
{
	struct sigaction sa = { .sa_handler = count_sig };

	sigemptyset(&sa.sa_mask);
	sa.sa_flags = restart ? SA_RESTART : 0;
	ASSERT_EQ(0, sigaction(SIGUSR1, &sa, NULL));
	sig_count = 0;
}

FIXTURE(core) {
	int fd;
};

FIXTURE_SETUP(core)
{
	self->fd = open(DEV0, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, self->fd) TH_LOG("open %s: %s", DEV0, strerror(errno));
	core_reset(_metadata, self->fd);
}

FIXTURE_TEARDOWN(core)
{
	if (self->fd >= 0)
		close(self->fd);
}

/* ---------------------------------------------------------------------- */
/* NCSYNC_IOC_INFO, cores                                                  */

static long module_param(const char *name)
{
	char path[96], buf[32];
	long v = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/module/ncsync/parameters/%s", name);
	f = fopen(path, "re");
	if (!f)
		return -1;
	if (fgets(buf, sizeof(buf), f))
		v = strtol(buf, NULL, 0);
	fclose(f);
	return v;
}

TEST_F(core, info_fields)
{
	struct ncsync_info info;
	long param = module_param("cores");
	long rsv = module_param("rt_reserved_sems");

	memset(&info, 0xa5, sizeof(info));
	ASSERT_EQ(0, ioctl(self->fd, NCSYNC_IOC_INFO, &info));
	EXPECT_EQ((__u32)NCSYNC_API_VERSION, info.api_version);
	EXPECT_EQ(1U, info.api_version);
	EXPECT_EQ(0U, info.core);
	EXPECT_LE(1U, info.num_cores);
	EXPECT_EQ(256U, info.num_sems);
	EXPECT_EQ(256U, info.num_events);
	EXPECT_EQ(0x2000U, info.csr_size);
	EXPECT_LT(0U, info.rt_reserved_sem_count);
	EXPECT_EQ(256U, info.rt_reserved_sem_first +
		  info.rt_reserved_sem_count);
	EXPECT_LT(0U, info.rt_reserved_event_count);
	EXPECT_EQ(256U, info.rt_reserved_event_first +
		  info.rt_reserved_event_count);
	EXPECT_LE(1U, info.lnc);
	EXPECT_EQ(0U, info.num_cores % info.lnc);
	if (rsv >= 0) {
		EXPECT_EQ((__u32)rsv, info.rt_reserved_sem_count);
	}
	if (param >= 0) {
		EXPECT_EQ((__u32)param, info.num_cores);
	} else {
		TH_LOG("no /sys/module/ncsync/parameters/cores; %u cores",
		       info.num_cores);
	}
}

TEST_F(core, info_each_core)
{
	struct ncsync_info info0, info;
	char path[32];
	unsigned int c;
	int fd;

	ASSERT_EQ(0, ioctl(self->fd, NCSYNC_IOC_INFO, &info0));
	for (c = 0; c < info0.num_cores; c++) {
		fd = open_dev(_metadata, c, O_RDWR);
		ASSERT_EQ(0, ioctl(fd, NCSYNC_IOC_INFO, &info));
		EXPECT_EQ(c, info.core);
		EXPECT_EQ(info0.num_cores, info.num_cores);
		EXPECT_EQ(0x2000U, info.csr_size);
		close(fd);
	}
	snprintf(path, sizeof(path), DEV_FMT, info0.num_cores);
	fd = open(path, O_RDWR | O_CLOEXEC);
	EXPECT_EQ(-1, fd) TH_LOG("%s exists with num_cores %u", path,
				 info0.num_cores);
	if (fd >= 0)
		close(fd);
}

TEST_F(core, info_efault)
{
	struct ncsync_info zero = { 0 };
	void *ro = ro_copy(&zero, sizeof(zero));

	ASSERT_NE(NULL, ro);
	EXPECT_EQ(-1, ioctl(self->fd, NCSYNC_IOC_INFO, ro));
	EXPECT_EQ(EFAULT, errno);
	EXPECT_EQ(-1, ioctl(self->fd, NCSYNC_IOC_INFO, NULL));
	EXPECT_EQ(EFAULT, errno);
	EXPECT_EQ(-1, ioctl(self->fd, NCSYNC_IOC_INFO, (void *)8));
	EXPECT_EQ(EFAULT, errno);
}

TEST_F(core, unknown_ioctl_enotty)
{
	struct ncsync_op op[2];
	struct termios tio;
	struct snap s;
	__u64 buf[8];

	seed(_metadata, self->fd);
	snap_take(_metadata, self->fd, &s);
	memset(buf, 0, sizeof(buf));
	memset(op, 0, sizeof(op));
	op[0] = mkop(SEM, NCSYNC_OP_SET, 0, 1);

	EXPECT_EQ(-1, ioctl(self->fd, _IO(NCSYNC_IOC_MAGIC, 0x7f)));
	EXPECT_EQ(ENOTTY, errno);
	EXPECT_EQ(-1, ioctl(self->fd, _IOWR(NCSYNC_IOC_MAGIC, 0x07, __u64),
			    buf));
	EXPECT_EQ(ENOTTY, errno);
	/* a known number with a different size is a different ioctl */
	EXPECT_EQ(-1, ioctl(self->fd, _IOR(NCSYNC_IOC_MAGIC, 0x00, __u32),
			    buf));
	EXPECT_EQ(ENOTTY, errno);
	EXPECT_EQ(-1, ioctl(self->fd,
			    _IOWR(NCSYNC_IOC_MAGIC, 0x01, struct ncsync_op[2]),
			    op));
	EXPECT_EQ(ENOTTY, errno);
	EXPECT_EQ(-1, ioctl(self->fd, _IOWR('x', 1, int), buf));
	EXPECT_EQ(ENOTTY, errno);
	EXPECT_EQ(-1, tcgetattr(self->fd, &tio));
	EXPECT_EQ(ENOTTY, errno);
	snap_check(_metadata, self->fd, &s);
}

TEST_F(core, cores_independent)
{
	struct ncsync_info info;
	int fd1 = open(DEV1, O_RDWR | O_CLOEXEC);

	if (fd1 < 0 && errno == ENOENT)
		SKIP(return, "only one core");
	ASSERT_LE(0, fd1);
	ASSERT_EQ(0, ioctl(fd1, NCSYNC_IOC_INFO, &info));
	EXPECT_EQ(1U, info.core);
	core_reset(_metadata, fd1);

	sem_put(_metadata, self->fd, 5, 77);
	csr_put(_metadata, self->fd, EVT(9), 1);
	csr_put(_metadata, fd1, SEM_INC(6), 3);
	evt_put(_metadata, fd1, 10, true);

	EXPECT_EQ(77, sem_get(_metadata, self->fd, 5));
	EXPECT_EQ(0, sem_get(_metadata, fd1, 5));
	EXPECT_EQ(0U, csr_get(_metadata, fd1, SEM_RD(5)));
	EXPECT_EQ(1, evt_get(_metadata, self->fd, 9));
	EXPECT_EQ(0, evt_get(_metadata, fd1, 9));
	EXPECT_EQ(0U, csr_get(_metadata, fd1, EVT(9)));
	EXPECT_EQ(3, sem_get(_metadata, fd1, 6));
	EXPECT_EQ(0, sem_get(_metadata, self->fd, 6));
	EXPECT_EQ(1, evt_get(_metadata, fd1, 10));
	EXPECT_EQ(0, evt_get(_metadata, self->fd, 10));

	/* a reset of core 1 leaves core 0 alone, and the other way round */
	core_reset(_metadata, fd1);
	EXPECT_EQ(77, sem_get(_metadata, self->fd, 5));
	EXPECT_EQ(1, evt_get(_metadata, self->fd, 9));
	csr_put(_metadata, fd1, SEM_SET(6), 4);
	core_reset(_metadata, self->fd);
	EXPECT_EQ(4, sem_get(_metadata, fd1, 6));
	core_reset(_metadata, fd1);
	close(fd1);
}

TEST_F(core, cores_reset_other_core_waiter_unaffected)
{
	struct waiter wt;
	int fd1 = open(DEV1, O_RDWR | O_CLOEXEC), i;

	if (fd1 < 0 && errno == ENOENT)
		SKIP(return, "only one core");
	ASSERT_LE(0, fd1);
	core_reset(_metadata, fd1);
	waiter_start(_metadata, &wt, fd1, SEM, NCSYNC_WAIT_SEM_EQ, 0, 1,
		     300);
	waiter_blocked(&wt);
	for (i = 0; i < 5; i++) {
		core_reset(_metadata, self->fd);
		csr_put(_metadata, self->fd, SEM_SET(0), 1);
		sleep_ms(10);
	}
	EXPECT_EQ(-ETIMEDOUT, waiter_join(&wt));
	close(fd1);
}

/* ---------------------------------------------------------------------- */
/* The CSR window through pread/pwrite                                     */

TEST_F(core, csr_zero_after_reset)
{
	static __u32 win[CSR_REGS];
	unsigned int i;

	seed(_metadata, self->fd);
	core_reset(_metadata, self->fd);
	ASSERT_EQ(0, rd(self->fd, win, sizeof(win), 0));
	for (i = 0; i < CSR_REGS; i++) {
		ASSERT_EQ(0U, win[i]) TH_LOG("CSR @%#x", i * 4);
	}
}

TEST_F(core, csr_whole_window_read)
{
	static __u32 win[CSR_REGS];
	unsigned int i;

	seed(_metadata, self->fd);
	ASSERT_EQ(NCSYNC_CSR_SIZE, pread(self->fd, win, sizeof(win), 0));
	for (i = 0; i < 256; i++) {
		ASSERT_EQ((__u32)!(i % 3), win[EVT(i) / 4]) TH_LOG("event %u", i);
		ASSERT_EQ((__u32)sem_pat(i), win[SEM_RD(i) / 4]);
		ASSERT_EQ((__u32)sem_pat(i), win[SEM_SET(i) / 4]);
		ASSERT_EQ((__u32)sem_pat(i), win[SEM_INC(i) / 4]);
		ASSERT_EQ((__u32)sem_pat(i), win[SEM_DEC(i) / 4]);
	}
	for (i = 0x400 / 4; i < 0x1000 / 4; i++) {
		ASSERT_EQ(0U, win[i]) TH_LOG("reserved @%#x", i * 4);
	}
	/* a read spanning windows */
	ASSERT_EQ(0, rd(self->fd, win, 16, 0x0FF8));
	EXPECT_EQ(0U, win[0]);
	EXPECT_EQ(0U, win[1]);
	EXPECT_EQ((__u32)sem_pat(0), win[2]);
	EXPECT_EQ((__u32)sem_pat(1), win[3]);
	/* the last register */
	EXPECT_EQ((__u32)sem_pat(255), csr_get(_metadata, self->fd, 0x1FFC));
	EXPECT_EQ(1U, csr_get(_metadata, self->fd, EVT(255)));
}

TEST_F(core, csr_length_zero)
{
	struct snap s;
	__u32 v = 5;

	seed(_metadata, self->fd);
	snap_take(_metadata, self->fd, &s);
	EXPECT_EQ(0, pread(self->fd, &v, 0, 0));
	EXPECT_EQ(0, pread(self->fd, &v, 0, SEM_RD(3)));
	EXPECT_EQ(0, pwrite(self->fd, &v, 0, SEM_INC(3)));
	EXPECT_EQ(0, pwrite(self->fd, &v, 0, EVT(0)));
	/* "a length of 0 returns 0 at any offset" */
	EXPECT_EQ(0, pread(self->fd, &v, 0, 1));
	EXPECT_EQ(0, pread(self->fd, &v, 0, 0x2000));
	EXPECT_EQ(0, pread(self->fd, &v, 0, 0x100000));
	EXPECT_EQ(0, pwrite(self->fd, &v, 0, SEM_RD(0)));
	EXPECT_EQ(0, pwrite(self->fd, &v, 0, 0x400));
	EXPECT_EQ(0, pwrite(self->fd, &v, 0, 0x1803));
	EXPECT_EQ(0, pwrite(self->fd, &v, 0, 0x2000));
	EXPECT_EQ(5U, v);
	snap_check(_metadata, self->fd, &s);
}

TEST_F(core, csr_pread_unaligned_offset)
{
	static const off_t offs[] = { 1, 2, 3, 0x1001, 0x1402, 0x1FFD };
	__u32 v[2];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(offs); i++) {
		EXPECT_EQ(-EINVAL, rd(self->fd, v, 4, offs[i]))
			TH_LOG("offset %#lx", (long)offs[i]);
		EXPECT_EQ(-EINVAL, rd(self->fd, v, 8, offs[i]))
			TH_LOG("offset %#lx", (long)offs[i]);
	}
}

TEST_F(core, csr_pread_bad_length)
{
	static const size_t lens[] = { 1, 2, 3, 5, 6, 7, 4095 };
	static char buf[8192];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(lens); i++) {
		EXPECT_EQ(-EINVAL, rd(self->fd, buf, lens[i], 0))
			TH_LOG("length %zu", lens[i]);
		EXPECT_EQ(-EINVAL, rd(self->fd, buf, lens[i], 0x1000))
			TH_LOG("length %zu", lens[i]);
	}
}

TEST_F(core, csr_pread_out_of_range)
{
	static const struct { off_t off; size_t len; } bad[] = {
		{ 0x2000, 4 }, { 0x1FFC, 8 }, { 0x1000, 0x1004 },
		{ 0, 0x2004 }, { 0x4000, 4 }, { 0x100000000LL, 4 },
		{ -4, 4 },
	};
	static char buf[0x3000];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		EXPECT_EQ(-EINVAL, rd(self->fd, buf, bad[i].len, bad[i].off))
			TH_LOG("%zu bytes @%#llx", bad[i].len,
			       (long long)bad[i].off);
	}
	EXPECT_EQ(0, rd(self->fd, buf, 4, 0x1FFC));
	EXPECT_EQ(0, rd(self->fd, buf, 0x2000, 0));
	EXPECT_EQ(0, rd(self->fd, buf, 0x1000, 0x1000));
}

TEST_F(core, csr_pwrite_unaligned_offset)
{
	static const off_t offs[] = { 1, 2, 3, 0x1401, 0x1802, 0x1C03,
				      0x1FFE };
	__u32 v[2] = { 1, 1 };
	struct snap s;
	unsigned int i;

	seed(_metadata, self->fd);
	snap_take(_metadata, self->fd, &s);
	for (i = 0; i < ARRAY_SIZE(offs); i++) {
		EXPECT_EQ(-EINVAL, wr(self->fd, v, 4, offs[i]))
			TH_LOG("offset %#lx", (long)offs[i]);
		EXPECT_EQ(-EINVAL, wr(self->fd, v, 8, offs[i]))
			TH_LOG("offset %#lx", (long)offs[i]);
	}
	snap_check(_metadata, self->fd, &s);
}

TEST_F(core, csr_pwrite_bad_length)
{
	static const size_t lens[] = { 1, 2, 3, 5, 6, 7, 1023 };
	static __u32 buf[256] = { 1, 1, 1 };
	struct snap s;
	unsigned int i;

	seed(_metadata, self->fd);
	snap_take(_metadata, self->fd, &s);
	for (i = 0; i < ARRAY_SIZE(lens); i++) {
		EXPECT_EQ(-EINVAL, wr(self->fd, buf, lens[i], SEM_INC(0)))
			TH_LOG("length %zu", lens[i]);
		EXPECT_EQ(-EINVAL, wr(self->fd, buf, lens[i], EVT(0)))
			TH_LOG("length %zu", lens[i]);
	}
	snap_check(_metadata, self->fd, &s);
}

TEST_F(core, csr_pwrite_out_of_range)
{
	static const struct { off_t off; size_t len; } bad[] = {
		{ 0x2000, 4 }, { 0x1FFC, 8 }, { 0x1C00, 0x404 },
		{ 0x1400, 0xC04 }, { 0x10000, 4 }, { 0x100001800LL, 4 },
		{ -4, 4 },
	};
	static __u32 buf[0x1000] = { 7, 7, 7, 7 };
	struct snap s;
	unsigned int i;

	seed(_metadata, self->fd);
	snap_take(_metadata, self->fd, &s);
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		EXPECT_EQ(-EINVAL, wr(self->fd, buf, bad[i].len, bad[i].off))
			TH_LOG("%zu bytes @%#llx", bad[i].len,
			       (long long)bad[i].off);
	}
	snap_check(_metadata, self->fd, &s);
}

TEST_F(core, csr_events_window)
{
	struct ncsync_op op;

	EXPECT_EQ(0U, csr_get(_metadata, self->fd, EVT(7)));
	csr_put(_metadata, self->fd, EVT(7), 1);
	EXPECT_EQ(1U, csr_get(_metadata, self->fd, EVT(7)));
	EXPECT_EQ(1, evt_get(_metadata, self->fd, 7));
	csr_put(_metadata, self->fd, EVT(7), 0);
	EXPECT_EQ(0U, csr_get(_metadata, self->fd, EVT(7)));
	EXPECT_EQ(0, evt_get(_metadata, self->fd, 7));
	csr_put(_metadata, self->fd, EVT(7), 0x80000000U);
	EXPECT_EQ(1U, csr_get(_metadata, self->fd, EVT(7)));
	csr_put(_metadata, self->fd, EVT(7), 0);
	csr_put(_metadata, self->fd, EVT(7), 2);
	EXPECT_EQ(1U, csr_get(_metadata, self->fd, EVT(7)));
	csr_put(_metadata, self->fd, EVT(255), 0xFFFFFFFFU);
	EXPECT_EQ(1U, csr_get(_metadata, self->fd, EVT(255)));
	ASSERT_EQ(0, do_op(self->fd, EVENT, NCSYNC_OP_READ, 255, 0, &op));
	EXPECT_EQ(1, op.after);
	/* neighbours untouched */
	EXPECT_EQ(0U, csr_get(_metadata, self->fd, EVT(6)));
	EXPECT_EQ(0U, csr_get(_metadata, self->fd, EVT(8)));
	EXPECT_EQ(0U, csr_get(_metadata, self->fd, EVT(254)));
}

TEST_F(core, csr_events_multi_register)
{
	__u32 v[256], r[256];
	unsigned int i;

	for (i = 0; i < 256; i++)
		v[i] = i % 5 ? 0 : i * 0x01010101U | 1;
	ASSERT_EQ(0, wr(self->fd, v, sizeof(v), 0));
	ASSERT_EQ(0, rd(self->fd, r, sizeof(r), 0));
	for (i = 0; i < 256; i++) {
		ASSERT_EQ((__u32)!(i % 5), r[i]) TH_LOG("event %u", i);
		ASSERT_EQ(!(i % 5), evt_get(_metadata, self->fd, i));
	}
}

TEST_F(core, csr_sem_read_window_refused)
{
	static __u32 buf[512];
	struct snap s;

	seed(_metadata, self->fd);
	snap_take(_metadata, self->fd, &s);
	EXPECT_EQ(-EINVAL, wr32(self->fd, SEM_RD(0), 0));
	EXPECT_EQ(-EINVAL, wr32(self->fd, SEM_RD(0), 5));
	EXPECT_EQ(-EINVAL, wr32(self->fd, SEM_RD(255), 5));
	EXPECT_EQ(-EINVAL, wr(self->fd, buf, sizeof(buf), SEM_RD(0)));
	/* partly in the read window: all or nothing */
	EXPECT_EQ(-EINVAL, wr(self->fd, buf, 8, SEM_RD(255)));
	EXPECT_EQ(-EINVAL, wr(self->fd, buf, 8, 0x0FFC));
	EXPECT_EQ(-EINVAL, wr(self->fd, buf, 0x800, 0x1000));
	snap_check(_metadata, self->fd, &s);
}

TEST_F(core, csr_sem_set_window)
{
	__u32 v[2] = { (__u32)-5, 0x7FFFFFFF };

	csr_put(_metadata, self->fd, SEM_SET(3), (__u32)-5);
	EXPECT_EQ(-5, sem_get(_metadata, self->fd, 3));
	EXPECT_EQ((__u32)-5, csr_get(_metadata, self->fd, SEM_RD(3)));
	EXPECT_EQ((__u32)-5, csr_get(_metadata, self->fd, SEM_SET(3)));
	EXPECT_EQ((__u32)-5, csr_get(_metadata, self->fd, SEM_INC(3)));
	EXPECT_EQ((__u32)-5, csr_get(_metadata, self->fd, SEM_DEC(3)));
	csr_put(_metadata, self->fd, SEM_SET(3), 9);
	EXPECT_EQ(9, sem_get(_metadata, self->fd, 3));
	ASSERT_EQ(0, wr(self->fd, v, 8, SEM_SET(254)));
	EXPECT_EQ(-5, sem_get(_metadata, self->fd, 254));
	EXPECT_EQ(INT_MAX, sem_get(_metadata, self->fd, 255));
	EXPECT_EQ(0, sem_get(_metadata, self->fd, 2));
	EXPECT_EQ(0, sem_get(_metadata, self->fd, 4));
}

TEST_F(core, csr_sem_inc_window)
{
	sem_put(_metadata, self->fd, 4, 10);
	EXPECT_EQ(4, pwrite(self->fd, &(__u32){ 5 }, 4, SEM_INC(4)));
	EXPECT_EQ(15, sem_get(_metadata, self->fd, 4));
	EXPECT_EQ(15U, csr_get(_metadata, self->fd, SEM_INC(4)));
	csr_put(_metadata, self->fd, SEM_INC(4), 0);
	EXPECT_EQ(15, sem_get(_metadata, self->fd, 4));
	csr_put(_metadata, self->fd, SEM_INC(5), 1);
	EXPECT_EQ(1, sem_get(_metadata, self->fd, 5));
}

TEST_F(core, csr_sem_dec_window)
{
	sem_put(_metadata, self->fd, 4, 10);
	csr_put(_metadata, self->fd, SEM_DEC(4), 3);
	EXPECT_EQ(7, sem_get(_metadata, self->fd, 4));
	EXPECT_EQ(7U, csr_get(_metadata, self->fd, SEM_DEC(4)));
	csr_put(_metadata, self->fd, SEM_DEC(5), 1);
	EXPECT_EQ(-1, sem_get(_metadata, self->fd, 5));
	EXPECT_EQ((__u32)-1, csr_get(_metadata, self->fd, SEM_RD(5)));
}

TEST_F(core, csr_sem_wraps)
{
	sem_put(_metadata, self->fd, 0, INT_MAX);
	csr_put(_metadata, self->fd, SEM_INC(0), 1);
	EXPECT_EQ(INT_MIN, sem_get(_metadata, self->fd, 0));
	csr_put(_metadata, self->fd, SEM_DEC(0), 1);
	EXPECT_EQ(INT_MAX, sem_get(_metadata, self->fd, 0));
	sem_put(_metadata, self->fd, 0, 5);
	csr_put(_metadata, self->fd, SEM_INC(0), 0xFFFFFFFFU);
	EXPECT_EQ(4, sem_get(_metadata, self->fd, 0));
	csr_put(_metadata, self->fd, SEM_DEC(0), 0xFFFFFFFFU);
	EXPECT_EQ(5, sem_get(_metadata, self->fd, 0));
	csr_put(_metadata, self->fd, SEM_DEC(0), 0x80000000U);
	EXPECT_EQ((__s32)0x80000005U, sem_get(_metadata, self->fd, 0));
}

TEST_F(core, csr_reserved_window)
{
	static __u32 buf[0x1000 / 4];
	struct snap s;
	unsigned int i;

	seed(_metadata, self->fd);
	memset(buf, 0xff, sizeof(buf));
	ASSERT_EQ(0, rd(self->fd, buf, 0xC00, 0x400));
	for (i = 0; i < 0xC00 / 4; i++) {
		ASSERT_EQ(0U, buf[i]) TH_LOG("@%#x", 0x400 + i * 4);
	}
	EXPECT_EQ(0U, csr_get(_metadata, self->fd, 0xFFC));

	snap_take(_metadata, self->fd, &s);
	memset(buf, 0, sizeof(buf));
	EXPECT_EQ(-EINVAL, wr32(self->fd, 0x400, 1));
	EXPECT_EQ(-EINVAL, wr32(self->fd, 0x800, 0));
	EXPECT_EQ(-EINVAL, wr32(self->fd, 0xFFC, 1));
	EXPECT_EQ(-EINVAL, wr(self->fd, buf, 0xC00, 0x400));
	/* event 255 (set by seed) + reserved: the clear must not happen */
	EXPECT_EQ(-EINVAL, wr(self->fd, buf, 8, EVT(255)));
	EXPECT_EQ(-EINVAL, wr(self->fd, buf, 0x404, 0));
	snap_check(_metadata, self->fd, &s);
}

/* A multi-register write is register writes in ascending address order. */
TEST_F(core, csr_multi_register_ascending)
{
	static __u32 buf[0xC00 / 4];
	unsigned int i;

	for (i = 0; i < 256; i++) {
		buf[i] = 100 + i;		/* 0x1400: set */
		buf[256 + i] = i;		/* 0x1800: inc */
		buf[512 + i] = 2;		/* 0x1C00: dec */
	}
	ASSERT_EQ(0xC00, pwrite(self->fd, buf, 0xC00, NCSYNC_CSR_SEM_SET));
	for (i = 0; i < 256; i++) {
		ASSERT_EQ((__s32)(98 + 2 * i), sem_get(_metadata, self->fd, i))
			TH_LOG("sem %u", i);
	}

	/* 8 bytes at inc(i) increment sems i and i + 1 */
	core_reset(_metadata, self->fd);
	ASSERT_EQ(0, wr(self->fd, (__u32[]){ 3, 4 }, 8, SEM_INC(10)));
	EXPECT_EQ(0, sem_get(_metadata, self->fd, 9));
	EXPECT_EQ(3, sem_get(_metadata, self->fd, 10));
	EXPECT_EQ(4, sem_get(_metadata, self->fd, 11));
	EXPECT_EQ(0, sem_get(_metadata, self->fd, 12));

	/* across windows: set sem 255, then inc sem 0 */
	ASSERT_EQ(0, wr(self->fd, (__u32[]){ 42, 5 }, 8, SEM_SET(255)));
	EXPECT_EQ(42, sem_get(_metadata, self->fd, 255));
	EXPECT_EQ(5, sem_get(_metadata, self->fd, 0));
	/* dec window into the end: dec sem 254 and 255 */
	ASSERT_EQ(0, wr(self->fd, (__u32[]){ 1, 2 }, 8, SEM_DEC(254)));
	EXPECT_EQ(-1, sem_get(_metadata, self->fd, 254));
	EXPECT_EQ(40, sem_get(_metadata, self->fd, 255));
}

TEST_F(core, csr_multi_register_all_or_nothing)
{
	static __u32 buf[CSR_REGS];
	struct snap s;

	seed(_metadata, self->fd);
	snap_take(_metadata, self->fd, &s);
	memset(buf, 0, sizeof(buf));
	buf[0] = 1;
	/* everything: includes reserved and the read window */
	EXPECT_EQ(-EINVAL, wr(self->fd, buf, sizeof(buf), 0));
	/* set/inc/dec are fine, the read window in front is not */
	EXPECT_EQ(-EINVAL, wr(self->fd, buf, 0x1000, 0x1000));
	EXPECT_EQ(-EINVAL, wr(self->fd, buf, 0x404, SEM_RD(0)));
	/* events, then the first reserved register */
	EXPECT_EQ(-EINVAL, wr(self->fd, buf, 0x404, 0));
	/* the last reserved register, then the read window */
	EXPECT_EQ(-EINVAL, wr(self->fd, buf, 0x408, 0x0FFC));
	snap_check(_metadata, self->fd, &s);
}

TEST_F(core, csr_pwrite_efault)
{
	char *end = guard_end();
	struct snap s;

	ASSERT_NE(NULL, end);
	seed(_metadata, self->fd);
	snap_take(_metadata, self->fd, &s);
	EXPECT_EQ(-EFAULT, wr(self->fd, BADPTR, 4, SEM_SET(0)));
	EXPECT_EQ(-EFAULT, wr(self->fd, end, 4, SEM_INC(0)));
	/* first register readable, second not: nothing may be applied */
	memcpy(end - 4, &(__u32){ 1 }, 4);
	EXPECT_EQ(-EFAULT, wr(self->fd, end - 4, 8, SEM_INC(0)));
	memcpy(end - 4, &(__u32){ 0 }, 4);
	EXPECT_EQ(-EFAULT, wr(self->fd, end - 4, 8, EVT(0)));
	snap_check(_metadata, self->fd, &s);
}

TEST_F(core, csr_pread_efault)
{
	char *end = guard_end();
	void *ro = ro_copy("abcd", 4);

	ASSERT_NE(NULL, end);
	ASSERT_NE(NULL, ro);
	EXPECT_EQ(-EFAULT, rd(self->fd, BADPTR, 4, 0));
	EXPECT_EQ(-EFAULT, rd(self->fd, end, 4, SEM_RD(0)));
	EXPECT_EQ(-EFAULT, rd(self->fd, ro, 4, SEM_RD(0)));
	EXPECT_EQ(0, memcmp(ro, "abcd", 4));
}

TEST_F(core, csr_read_write_file_position)
{
	__s32 v[2] = { 7, -7 }, r[2] = { 0, 0 };
	__u32 one = 1;

	EXPECT_EQ(0x1400, lseek(self->fd, 0x1400, SEEK_SET));
	EXPECT_EQ(8, write(self->fd, v, 8));
	EXPECT_EQ(0x1408, lseek(self->fd, 0, SEEK_CUR));
	EXPECT_EQ(7, sem_get(_metadata, self->fd, 0));
	EXPECT_EQ(-7, sem_get(_metadata, self->fd, 1));
	EXPECT_EQ(0x1800, lseek(self->fd, -0x800, SEEK_END));
	EXPECT_EQ(8, read(self->fd, r, 8));
	EXPECT_EQ(7, r[0]);
	EXPECT_EQ(-7, r[1]);
	EXPECT_EQ(0x1808, lseek(self->fd, 0, SEEK_CUR));
	EXPECT_EQ(4, write(self->fd, &one, 4));	/* inc sem 2 */
	EXPECT_EQ(1, sem_get(_metadata, self->fd, 2));
	EXPECT_EQ(0x180C, lseek(self->fd, 0, SEEK_CUR));
	EXPECT_EQ(0x1000, lseek(self->fd, -0x80C, SEEK_CUR));
	EXPECT_EQ(4, read(self->fd, r, 4));
	EXPECT_EQ(7, r[0]);
	/* pread/pwrite leave the position alone */
	EXPECT_EQ(0, rd(self->fd, r, 4, 0));
	EXPECT_EQ(0, wr32(self->fd, SEM_INC(3), 1));
	EXPECT_EQ(0x1004, lseek(self->fd, 0, SEEK_CUR));
	/* a refused write (read window) moves nothing */
	EXPECT_EQ(-1, write(self->fd, &one, 4));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(0x1004, lseek(self->fd, 0, SEEK_CUR));
	EXPECT_EQ(-7, sem_get(_metadata, self->fd, 1));
}

TEST_F(core, csr_lseek_bounds)
{
	__u32 v;

	EXPECT_EQ(0x2000, lseek(self->fd, 0x2000, SEEK_SET));
	EXPECT_EQ(0x2000, lseek(self->fd, 0, SEEK_END));
	EXPECT_EQ(0, lseek(self->fd, -0x2000, SEEK_END));
	EXPECT_EQ(0x1800, lseek(self->fd, 0x1800, SEEK_SET));

	EXPECT_EQ(-1, lseek(self->fd, 0x2001, SEEK_SET));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, lseek(self->fd, 0x2004, SEEK_SET));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, lseek(self->fd, -1, SEEK_SET));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, lseek(self->fd, 4, SEEK_END));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, lseek(self->fd, -0x2004, SEEK_END));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, lseek(self->fd, 0x1000, SEEK_CUR));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, lseek(self->fd, -0x1804, SEEK_CUR));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, lseek(self->fd, 0, SEEK_DATA));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, lseek(self->fd, 0, SEEK_HOLE));
	EXPECT_EQ(EINVAL, errno);
	/* failed seeks leave the position */
	EXPECT_EQ(0x1800, lseek(self->fd, 0, SEEK_CUR));

	/* an access at the end of the window is outside it */
	EXPECT_EQ(0x2000, lseek(self->fd, 0, SEEK_END));
	EXPECT_EQ(-1, read(self->fd, &v, 4));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, write(self->fd, &v, 4));
	EXPECT_EQ(EINVAL, errno);
}

/* ---------------------------------------------------------------------- */
/* mmap                                                                    */

TEST_F(core, mmap_live_view)
{
	static __u32 win[CSR_REGS];
	struct ncsync_op ops[2] = {
		mkop(SEM, NCSYNC_OP_INC, 255, 3),
		mkop(EVENT, NCSYNC_OP_SET, 200, 0),
	};
	volatile __u32 *m;

	m = mmap(NULL, NCSYNC_CSR_SIZE, PROT_READ, MAP_SHARED, self->fd, 0);
	ASSERT_NE(MAP_FAILED, m) TH_LOG("mmap: %s", strerror(errno));

	sem_put(_metadata, self->fd, 9, -3);
	EXPECT_EQ((__u32)-3, m[SEM_RD(9) / 4]);
	EXPECT_EQ((__u32)-3, m[SEM_SET(9) / 4]);
	EXPECT_EQ((__u32)-3, m[SEM_INC(9) / 4]);
	EXPECT_EQ((__u32)-3, m[SEM_DEC(9) / 4]);
	csr_put(_metadata, self->fd, EVT(7), 1);
	EXPECT_EQ(1U, m[EVT(7) / 4]);
	csr_put(_metadata, self->fd, EVT(7), 0);
	EXPECT_EQ(0U, m[EVT(7) / 4]);
	csr_put(_metadata, self->fd, SEM_INC(9), 4);
	EXPECT_EQ(1U, m[SEM_RD(9) / 4]);
	ASSERT_EQ(0, do_batch(self->fd, ops, 2, 0));
	EXPECT_EQ(3U, m[SEM_RD(255) / 4]);
	EXPECT_EQ(1U, m[EVT(200) / 4]);

	/* the whole mapping is what pread sees */
	seed(_metadata, self->fd);
	ASSERT_EQ(0, rd(self->fd, win, sizeof(win), 0));
	ASSERT_EQ(0, memcmp(win, (void *)m, sizeof(win)));

	core_reset(_metadata, self->fd);
	EXPECT_EQ(0U, m[SEM_RD(255) / 4]);
	EXPECT_EQ(0U, m[EVT(0) / 4]);
	munmap((void *)m, NCSYNC_CSR_SIZE);
}

TEST_F(core, mmap_shorter_length)
{
	volatile __u32 *m;

	m = mmap(NULL, 0x1000, PROT_READ, MAP_SHARED, self->fd, 0);
	ASSERT_NE(MAP_FAILED, m) TH_LOG("mmap 0x1000: %s", strerror(errno));
	csr_put(_metadata, self->fd, EVT(3), 1);
	EXPECT_EQ(1U, m[3]);
	munmap((void *)m, 0x1000);

	m = mmap(NULL, 4, PROT_READ, MAP_SHARED, self->fd, 0);
	ASSERT_NE(MAP_FAILED, m) TH_LOG("mmap 4: %s", strerror(errno));
	EXPECT_EQ(0U, m[0]);
	munmap((void *)m, 4);
}

TEST_F(core, mmap_prot_write_eacces)
{
	void *m;

	m = mmap(NULL, NCSYNC_CSR_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED,
		 self->fd, 0);
	EXPECT_EQ(MAP_FAILED, m);
	EXPECT_EQ(EACCES, errno);
	m = mmap(NULL, NCSYNC_CSR_SIZE, PROT_WRITE, MAP_SHARED, self->fd, 0);
	EXPECT_EQ(MAP_FAILED, m);
	EXPECT_EQ(EACCES, errno);
}

TEST_F(core, mmap_private_einval)
{
	void *m = mmap(NULL, NCSYNC_CSR_SIZE, PROT_READ, MAP_PRIVATE,
		       self->fd, 0);

	EXPECT_EQ(MAP_FAILED, m);
	EXPECT_EQ(EINVAL, errno);
}

TEST_F(core, mmap_bad_offset_einval)
{
	struct ncsync_info info;
	void *m;

	/* skip offsets that map something else (device memory) */
	ASSERT_EQ(0, ioctl(self->fd, NCSYNC_IOC_INFO, &info));
	if (info.devmem_size && info.devmem_offset <= 0x2000)
		SKIP(return, "device memory at %#x", info.devmem_offset);

	m = mmap(NULL, 0x1000, PROT_READ, MAP_SHARED, self->fd, 0x1000);
	EXPECT_EQ(MAP_FAILED, m);
	EXPECT_EQ(EINVAL, errno);
	m = mmap(NULL, 0x1000, PROT_READ, MAP_SHARED, self->fd, 0x2000);
	EXPECT_EQ(MAP_FAILED, m);
	EXPECT_EQ(EINVAL, errno);
}

TEST_F(core, mmap_too_long_einval)
{
	void *m;

	m = mmap(NULL, 0x3000, PROT_READ, MAP_SHARED, self->fd, 0);
	EXPECT_EQ(MAP_FAILED, m);
	EXPECT_EQ(EINVAL, errno);
	m = mmap(NULL, 0x100000, PROT_READ, MAP_SHARED, self->fd, 0);
	EXPECT_EQ(MAP_FAILED, m);
	EXPECT_EQ(EINVAL, errno);
}

TEST_F(core, mmap_mprotect_write_refused)
{
	volatile __u32 *m;

	m = mmap(NULL, NCSYNC_CSR_SIZE, PROT_READ, MAP_SHARED, self->fd, 0);
	ASSERT_NE(MAP_FAILED, m);
	EXPECT_EQ(-1, mprotect((void *)m, NCSYNC_CSR_SIZE,
			       PROT_READ | PROT_WRITE));
	EXPECT_EQ(EACCES, errno);
	EXPECT_EQ(-1, mprotect((void *)m, 0x1000, PROT_WRITE));
	EXPECT_EQ(EACCES, errno);
	csr_put(_metadata, self->fd, EVT(1), 1);
	EXPECT_EQ(1U, m[1]);
	munmap((void *)m, NCSYNC_CSR_SIZE);
}

TEST_F(core, mmap_cannot_grow)
{
	void *m, *m2;

	m = mmap(NULL, 0x1000, PROT_READ, MAP_SHARED, self->fd, 0);
	ASSERT_NE(MAP_FAILED, m);
	m2 = mremap(m, 0x1000, 0x2000, 0);
	EXPECT_EQ(MAP_FAILED, m2);
	EXPECT_EQ(EFAULT, errno);
	m2 = mremap(m, 0x1000, 0x3000, MREMAP_MAYMOVE);
	EXPECT_EQ(MAP_FAILED, m2);
	EXPECT_EQ(EFAULT, errno);
	munmap(m, 0x1000);
}

TEST_F(core, mmap_survives_fork)
{
	volatile __u32 *m;
	pid_t pid;

	m = mmap(NULL, NCSYNC_CSR_SIZE, PROT_READ, MAP_SHARED, self->fd, 0);
	ASSERT_NE(MAP_FAILED, m);
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		__s64 end = now_ns() + LONG_MS * NSEC_PER_MSEC;

		while (m[SEM_RD(3) / 4] != 42 || m[EVT(5) / 4] != 1) {
			if (now_ns() > end)
				_exit(1);
			usleep(1000);
		}
		_exit(m[SEM_DEC(3) / 4] == 42 ? 0 : 3);
	}
	sleep_ms(20);
	evt_put(_metadata, self->fd, 5, true);
	csr_put(_metadata, self->fd, SEM_SET(3), 42);
	EXPECT_EQ(0, reap(pid)) TH_LOG("child did not see the updates");
	munmap((void *)m, NCSYNC_CSR_SIZE);
}

TEST_F(core, mmap_outlives_close)
{
	volatile __u32 *m;
	int fd2 = open_dev(_metadata, 0, O_RDWR);

	m = mmap(NULL, NCSYNC_CSR_SIZE, PROT_READ, MAP_SHARED, fd2, 0);
	ASSERT_NE(MAP_FAILED, m);
	close(fd2);
	sem_put(_metadata, self->fd, 100, 1234);
	EXPECT_EQ(1234U, m[SEM_RD(100) / 4]);
	munmap((void *)m, NCSYNC_CSR_SIZE);
}

/* MADV_DONTNEED drops the pages; the next loads fault the live ones in. */
TEST_F(core, mmap_dontneed_csr_live)
{
	volatile __u32 *m;

	m = mmap(NULL, NCSYNC_CSR_SIZE, PROT_READ, MAP_SHARED, self->fd, 0);
	ASSERT_NE(MAP_FAILED, m) TH_LOG("mmap: %s", strerror(errno));
	sem_put(_metadata, self->fd, 9, -3);
	EXPECT_EQ((__u32)-3, m[SEM_RD(9) / 4]);

	ASSERT_EQ(0, madvise((void *)m, NCSYNC_CSR_SIZE, MADV_DONTNEED))
		TH_LOG("madvise: %s", strerror(errno));
	csr_put(_metadata, self->fd, SEM_SET(9), 77);
	csr_put(_metadata, self->fd, EVT(7), 1);
	EXPECT_EQ(77U, m[SEM_RD(9) / 4]);
	EXPECT_EQ(77U, m[SEM_DEC(9) / 4]);
	EXPECT_EQ(1U, m[EVT(7) / 4]);
	/* still a live view, not a copy taken at the fault */
	csr_put(_metadata, self->fd, SEM_INC(9), 3);
	EXPECT_EQ(80U, m[SEM_RD(9) / 4]);
	munmap((void *)m, NCSYNC_CSR_SIZE);
}

/* Each page faults back in at its own place, also in a mapping of page 2. */
TEST_F(core, mmap_dontneed_second_page)
{
	static __u32 win[CSR_REGS];
	volatile __u32 *m, *s;

	seed(_metadata, self->fd);
	m = mmap(NULL, NCSYNC_CSR_SIZE, PROT_READ, MAP_SHARED, self->fd, 0);
	ASSERT_NE(MAP_FAILED, m) TH_LOG("mmap: %s", strerror(errno));
	ASSERT_EQ(0, madvise((void *)m, NCSYNC_CSR_SIZE, MADV_DONTNEED))
		TH_LOG("madvise: %s", strerror(errno));
	ASSERT_EQ(0, rd(self->fd, win, sizeof(win), 0));
	EXPECT_EQ(0, memcmp(win, (void *)m, 0x1000));
	EXPECT_EQ(0, memcmp(win + 0x1000 / 4, (void *)(m + 0x1000 / 4),
			    0x1000));

	/* what is left of it maps the semaphore page only */
	ASSERT_EQ(0, munmap((void *)m, 0x1000));
	s = m + 0x1000 / 4;
	ASSERT_EQ(0, madvise((void *)s, 0x1000, MADV_DONTNEED))
		TH_LOG("madvise: %s", strerror(errno));
	csr_put(_metadata, self->fd, SEM_SET(5), 555);
	EXPECT_EQ(555U, s[(SEM_RD(5) - 0x1000) / 4]);
	EXPECT_EQ(555U, s[(SEM_INC(5) - 0x1000) / 4]);
	EXPECT_EQ((__u32)sem_pat(6), s[(SEM_RD(6) - 0x1000) / 4]);
	munmap((void *)s, 0x1000);
}

/* The byte the device-memory tests store at @i: differs from page to page. */
static __u8 devmem_pat(size_t i, __u8 seed)
{
	return (__u8)(seed + i * 7 + (i >> 12) * 101);
}

/* Map the whole device memory of @fd with @prot; its size in *@size. */
static volatile __u8 *devmem_mmap(struct __test_metadata *_metadata, int fd,
				  int prot, size_t *size)
{
	struct ncsync_info info;
	void *p;

	ASSERT_EQ(0, ioctl(fd, NCSYNC_IOC_INFO, &info));
	ASSERT_EQ(NCSYNC_DEVMEM_OFFSET, (int)info.devmem_offset);
	ASSERT_LE(0x2000, (int)info.devmem_size);
	*size = info.devmem_size;
	p = mmap(NULL, *size, prot, MAP_SHARED, fd, NCSYNC_DEVMEM_OFFSET);
	ASSERT_NE(MAP_FAILED, p) TH_LOG("mmap devmem: %s", strerror(errno));
	return p;
}

static void devmem_set(volatile __u8 *m, size_t size, __u8 seed)
{
	size_t i;

	for (i = 0; i < size; i++)
		m[i] = devmem_pat(i, seed);
}

/* The offset of the first byte that is not devmem_pat()'s, or @size. */
static size_t devmem_diff(const volatile __u8 *m, size_t size, __u8 seed)
{
	size_t i;

	for (i = 0; i < size && m[i] == devmem_pat(i, seed); i++)
		;
	return i;
}

TEST_F(core, mmap_dontneed_devmem_keeps_bytes)
{
	__u8 seed = (__u8)getpid();
	volatile __u8 *m, *m2;
	size_t size;

	m = devmem_mmap(_metadata, self->fd, PROT_READ | PROT_WRITE, &size);
	devmem_set(m, size, seed);
	ASSERT_EQ(0, madvise((void *)m, size, MADV_DONTNEED))
		TH_LOG("madvise: %s", strerror(errno));
	EXPECT_EQ(size, devmem_diff(m, size, seed));

	/* stores after it reach the device memory: another mapping sees them */
	ASSERT_EQ(0, madvise((void *)m, size, MADV_DONTNEED));
	devmem_set(m, size, seed + 1);
	m2 = devmem_mmap(_metadata, self->fd, PROT_READ, &size);
	EXPECT_EQ(size, devmem_diff(m2, size, seed + 1));
	munmap((void *)m2, size);
	munmap((void *)m, size);
}

TEST_F(core, mmap_dontneed_devmem_rdonly)
{
	int ro = open_dev(_metadata, 0, O_RDONLY);
	__u8 seed = (__u8)getpid() + 50;
	volatile __u8 *w, *r;
	size_t size;

	w = devmem_mmap(_metadata, self->fd, PROT_READ | PROT_WRITE, &size);
	r = devmem_mmap(_metadata, ro, PROT_READ, &size);
	devmem_set(w, size, seed);
	EXPECT_EQ(size, devmem_diff(r, size, seed));
	ASSERT_EQ(0, madvise((void *)r, size, MADV_DONTNEED))
		TH_LOG("madvise: %s", strerror(errno));
	EXPECT_EQ(size, devmem_diff(r, size, seed));
	ASSERT_EQ(0, madvise((void *)r, size, MADV_DONTNEED));
	devmem_set(w, size, seed + 1);
	EXPECT_EQ(size, devmem_diff(r, size, seed + 1));
	/* and it stays read-only */
	EXPECT_EQ(-1, mprotect((void *)r, size, PROT_READ | PROT_WRITE));
	EXPECT_EQ(EACCES, errno);
	munmap((void *)r, size);
	munmap((void *)w, size);
	close(ro);
}

/* ---------------------------------------------------------------------- */
/* NCSYNC_IOC_OP                                                           */

TEST_F(core, op_sem_read_set_inc_dec)
{
	struct ncsync_op op;

	ASSERT_EQ(0, do_op(self->fd, SEM, NCSYNC_OP_SET, 17, 5, &op));
	EXPECT_EQ(0, op.before);
	EXPECT_EQ(5, op.after);
	ASSERT_EQ(0, do_op(self->fd, SEM, NCSYNC_OP_INC, 17, 3, &op));
	EXPECT_EQ(5, op.before);
	EXPECT_EQ(8, op.after);
	ASSERT_EQ(0, do_op(self->fd, SEM, NCSYNC_OP_DEC, 17, 10, &op));
	EXPECT_EQ(8, op.before);
	EXPECT_EQ(-2, op.after);
	ASSERT_EQ(0, do_op(self->fd, SEM, NCSYNC_OP_READ, 17, 0, &op));
	EXPECT_EQ(-2, op.before);
	EXPECT_EQ(-2, op.after);
	/* the op's input fields come back unchanged */
	EXPECT_EQ(SEM, op.bank);
	EXPECT_EQ(NCSYNC_OP_READ, op.op);
	EXPECT_EQ(17U, op.index);
	EXPECT_EQ(0U, op.value);
	EXPECT_EQ((__u32)-2, csr_get(_metadata, self->fd, SEM_RD(17)));
	ASSERT_EQ(0, do_op(self->fd, SEM, NCSYNC_OP_SET, 255, (__u32)-9, &op));
	EXPECT_EQ(-9, op.after);
	EXPECT_EQ(-9, sem_get(_metadata, self->fd, 255));
	EXPECT_EQ(0, sem_get(_metadata, self->fd, 16));
	EXPECT_EQ(0, sem_get(_metadata, self->fd, 18));
}

TEST_F(core, op_sem_wraps)
{
	struct ncsync_op op;

	sem_put(_metadata, self->fd, 1, INT_MAX);
	ASSERT_EQ(0, do_op(self->fd, SEM, NCSYNC_OP_INC, 1, 1, &op));
	EXPECT_EQ(INT_MAX, op.before);
	EXPECT_EQ(INT_MIN, op.after);
	ASSERT_EQ(0, do_op(self->fd, SEM, NCSYNC_OP_DEC, 1, 1, &op));
	EXPECT_EQ(INT_MIN, op.before);
	EXPECT_EQ(INT_MAX, op.after);
	ASSERT_EQ(0, do_op(self->fd, SEM, NCSYNC_OP_INC, 1, 0xFFFFFFFFU, &op));
	EXPECT_EQ(INT_MAX - 1, op.after);
}

TEST_F(core, op_event_read_set_clear)
{
	struct ncsync_op op;

	ASSERT_EQ(0, do_op(self->fd, EVENT, NCSYNC_OP_READ, 33, 0, &op));
	EXPECT_EQ(0, op.before);
	EXPECT_EQ(0, op.after);
	ASSERT_EQ(0, do_op(self->fd, EVENT, NCSYNC_OP_SET, 33, 0, &op));
	EXPECT_EQ(0, op.before);
	EXPECT_EQ(1, op.after);
	EXPECT_EQ(1U, csr_get(_metadata, self->fd, EVT(33)));
	ASSERT_EQ(0, do_op(self->fd, EVENT, NCSYNC_OP_SET, 33, 0, &op));
	EXPECT_EQ(1, op.before);
	EXPECT_EQ(1, op.after);
	ASSERT_EQ(0, do_op(self->fd, EVENT, NCSYNC_OP_CLEAR, 33, 0, &op));
	EXPECT_EQ(1, op.before);
	EXPECT_EQ(0, op.after);
	EXPECT_EQ(0U, csr_get(_metadata, self->fd, EVT(33)));
	ASSERT_EQ(0, do_op(self->fd, EVENT, NCSYNC_OP_CLEAR, 33, 0, &op));
	EXPECT_EQ(0, op.before);
	EXPECT_EQ(0, op.after);
	ASSERT_EQ(0, do_op(self->fd, EVENT, NCSYNC_OP_SET, 255, 0, &op));
	EXPECT_EQ(1U, csr_get(_metadata, self->fd, EVT(255)));
	EXPECT_EQ(0U, csr_get(_metadata, self->fd, EVT(254)));
}

TEST_F(core, op_index_out_of_range)
{
	static const __u32 idx[] = { 256, 257, 1024, 0x10000, 0xFFFFFFFFU };
	struct snap s;
	unsigned int i;

	seed(_metadata, self->fd);
	snap_take(_metadata, self->fd, &s);
	for (i = 0; i < ARRAY_SIZE(idx); i++) {
		EXPECT_EQ(-EINVAL, do_op(self->fd, SEM, NCSYNC_OP_READ, idx[i],
					 0, NULL));
		EXPECT_EQ(-EINVAL, do_op(self->fd, SEM, NCSYNC_OP_SET, idx[i],
					 1, NULL));
		EXPECT_EQ(-EINVAL, do_op(self->fd, SEM, NCSYNC_OP_INC, idx[i],
					 1, NULL));
		EXPECT_EQ(-EINVAL, do_op(self->fd, EVENT, NCSYNC_OP_READ,
					 idx[i], 0, NULL));
		EXPECT_EQ(-EINVAL, do_op(self->fd, EVENT, NCSYNC_OP_CLEAR,
					 idx[i], 0, NULL));
	}
	snap_check(_metadata, self->fd, &s);
}

TEST_F(core, op_bad_bank)
{
	struct snap s;

	seed(_metadata, self->fd);
	snap_take(_metadata, self->fd, &s);
	EXPECT_EQ(-EINVAL, do_op(self->fd, 2, NCSYNC_OP_READ, 0, 0, NULL));
	EXPECT_EQ(-EINVAL, do_op(self->fd, 2, NCSYNC_OP_SET, 0, 0, NULL));
	EXPECT_EQ(-EINVAL, do_op(self->fd, 0xFF, NCSYNC_OP_CLEAR, 0, 0, NULL));
	snap_check(_metadata, self->fd, &s);
}

TEST_F(core, op_bad_op)
{
	struct snap s;

	seed(_metadata, self->fd);
	snap_take(_metadata, self->fd, &s);
	EXPECT_EQ(-EINVAL, do_op(self->fd, SEM, NCSYNC_OP_CLEAR, 0, 0, NULL));
	EXPECT_EQ(-EINVAL, do_op(self->fd, SEM, 5, 0, 1, NULL));
	EXPECT_EQ(-EINVAL, do_op(self->fd, SEM, 99, 0, 1, NULL));
	EXPECT_EQ(-EINVAL, do_op(self->fd, EVENT, NCSYNC_OP_INC, 0, 0, NULL));
	EXPECT_EQ(-EINVAL, do_op(self->fd, EVENT, NCSYNC_OP_DEC, 0, 0, NULL));
	EXPECT_EQ(-EINVAL, do_op(self->fd, EVENT, NCSYNC_OP_INC, 1, 1, NULL));
	EXPECT_EQ(-EINVAL, do_op(self->fd, EVENT, 99, 0, 0, NULL));
	EXPECT_EQ(-EINVAL, do_op(self->fd, EVENT, 0xFF, 0, 0, NULL));
	snap_check(_metadata, self->fd, &s);
}

TEST_F(core, op_pad_reserved_nonzero)
{
	struct ncsync_op op;
	struct snap s;

	seed(_metadata, self->fd);
	snap_take(_metadata, self->fd, &s);
	op = mkop(SEM, NCSYNC_OP_SET, 0, 1);
	op.pad = 1;
	EXPECT_EQ(-EINVAL, op_ioctl(self->fd, &op));
	op = mkop(SEM, NCSYNC_OP_INC, 0, 1);
	op.pad = 0x8000;
	EXPECT_EQ(-EINVAL, op_ioctl(self->fd, &op));
	op = mkop(SEM, NCSYNC_OP_INC, 0, 1);
	op.reserved = 1;
	EXPECT_EQ(-EINVAL, op_ioctl(self->fd, &op));
	op = mkop(EVENT, NCSYNC_OP_CLEAR, 0, 0);
	op.reserved = 0x80000000U;
	EXPECT_EQ(-EINVAL, op_ioctl(self->fd, &op));
	op = mkop(SEM, NCSYNC_OP_READ, 0, 0);
	op.pad = 1;
	EXPECT_EQ(-EINVAL, op_ioctl(self->fd, &op));
	snap_check(_metadata, self->fd, &s);
}

TEST_F(core, op_value_must_be_zero)
{
	struct snap s;

	seed(_metadata, self->fd);
	snap_take(_metadata, self->fd, &s);
	EXPECT_EQ(-EINVAL, do_op(self->fd, SEM, NCSYNC_OP_READ, 0, 1, NULL));
	EXPECT_EQ(-EINVAL, do_op(self->fd, EVENT, NCSYNC_OP_READ, 0, 1, NULL));
	EXPECT_EQ(-EINVAL, do_op(self->fd, EVENT, NCSYNC_OP_SET, 1, 1, NULL));
	EXPECT_EQ(-EINVAL, do_op(self->fd, EVENT, NCSYNC_OP_CLEAR, 0, 1,
				 NULL));
	EXPECT_EQ(-EINVAL, do_op(self->fd, EVENT, NCSYNC_OP_CLEAR, 0,
				 0x80000000U, NULL));
	snap_check(_metadata, self->fd, &s);
}

TEST_F(core, op_efault)
{
	struct ncsync_op op = mkop(SEM, NCSYNC_OP_SET, 0, 77);
	struct ncsync_op *ro = ro_copy(&op, sizeof(op));
	char *end = guard_end();
	struct snap s;

	ASSERT_NE(NULL, ro);
	ASSERT_NE(NULL, end);
	seed(_metadata, self->fd);
	snap_take(_metadata, self->fd, &s);
	EXPECT_EQ(-EFAULT, op_ioctl(self->fd, NULL));
	EXPECT_EQ(-EFAULT, op_ioctl(self->fd, (void *)8));
	/* struct straddling into an unmapped page */
	memcpy(end - 8, &op, 8);
	EXPECT_EQ(-EFAULT, op_ioctl(self->fd, (void *)(end - 8)));
	/* valid op, but the results cannot be written back */
	EXPECT_EQ(-EFAULT, op_ioctl(self->fd, ro));
	snap_check(_metadata, self->fd, &s);
}

/* ---------------------------------------------------------------------- */
/* NCSYNC_IOC_BATCH                                                        */

TEST_F(core, batch_in_order)
{
	struct ncsync_op ops[] = {
		mkop(SEM, NCSYNC_OP_SET, 2, 5),
		mkop(SEM, NCSYNC_OP_INC, 2, 3),
		mkop(SEM, NCSYNC_OP_DEC, 2, 10),
		mkop(SEM, NCSYNC_OP_READ, 2, 0),
		mkop(EVENT, NCSYNC_OP_SET, 2, 0),
		mkop(EVENT, NCSYNC_OP_READ, 2, 0),
		mkop(EVENT, NCSYNC_OP_CLEAR, 2, 0),
		mkop(EVENT, NCSYNC_OP_SET, 3, 0),
		mkop(SEM, NCSYNC_OP_SET, 255, (__u32)INT_MIN),
	};
	static const __s32 before[] = { 0, 5, 8, -2, 0, 1, 1, 0, 0 };
	static const __s32 after[] = { 5, 8, -2, -2, 1, 1, 0, 1, INT_MIN };
	unsigned int i;

	ASSERT_EQ(0, do_batch(self->fd, ops, ARRAY_SIZE(ops), 0));
	for (i = 0; i < ARRAY_SIZE(ops); i++) {
		EXPECT_EQ(before[i], ops[i].before) TH_LOG("op %u", i);
		EXPECT_EQ(after[i], ops[i].after) TH_LOG("op %u", i);
	}
	/* inputs preserved by the write-back */
	EXPECT_EQ(SEM, ops[2].bank);
	EXPECT_EQ(NCSYNC_OP_DEC, ops[2].op);
	EXPECT_EQ(2U, ops[2].index);
	EXPECT_EQ(10U, ops[2].value);
	EXPECT_EQ(-2, sem_get(_metadata, self->fd, 2));
	EXPECT_EQ(0, evt_get(_metadata, self->fd, 2));
	EXPECT_EQ(1, evt_get(_metadata, self->fd, 3));
	EXPECT_EQ(INT_MIN, sem_get(_metadata, self->fd, 255));
}

TEST_F(core, batch_max_count)
{
	static struct ncsync_op ops[NCSYNC_MAX_BATCH];
	unsigned int i;

	for (i = 0; i < NCSYNC_MAX_BATCH; i++)
		ops[i] = mkop(SEM, NCSYNC_OP_INC, 1, 1);
	ASSERT_EQ(0, do_batch(self->fd, ops, NCSYNC_MAX_BATCH, 0));
	for (i = 0; i < NCSYNC_MAX_BATCH; i++) {
		ASSERT_EQ((__s32)i, ops[i].before) TH_LOG("op %u", i);
		ASSERT_EQ((__s32)i + 1, ops[i].after) TH_LOG("op %u", i);
	}
	EXPECT_EQ(NCSYNC_MAX_BATCH, sem_get(_metadata, self->fd, 1));

	ops[0] = mkop(EVENT, NCSYNC_OP_SET, 0, 0);
	ASSERT_EQ(0, do_batch(self->fd, ops, 1, 0));
	EXPECT_EQ(1, ops[0].after);
}

TEST_F(core, batch_bad_count)
{
	static struct ncsync_op ops[NCSYNC_MAX_BATCH + 1];
	struct snap s;
	unsigned int i;

	for (i = 0; i <= NCSYNC_MAX_BATCH; i++)
		ops[i] = mkop(SEM, NCSYNC_OP_INC, 1, 1);
	seed(_metadata, self->fd);
	snap_take(_metadata, self->fd, &s);
	EXPECT_EQ(-EINVAL, do_batch(self->fd, ops, 0, 0));
	EXPECT_EQ(-EINVAL, do_batch(self->fd, ops, NCSYNC_MAX_BATCH + 1, 0));
	EXPECT_EQ(-EINVAL, do_batch(self->fd, ops, 0xFFFFFFFFU, 0));
	snap_check(_metadata, self->fd, &s);
}

TEST_F(core, batch_bad_flags)
{
	struct ncsync_op op = mkop(SEM, NCSYNC_OP_INC, 1, 1);
	struct snap s;

	seed(_metadata, self->fd);
	snap_take(_metadata, self->fd, &s);
	EXPECT_EQ(-EINVAL, do_batch(self->fd, &op, 1, 1));
	EXPECT_EQ(-EINVAL, do_batch(self->fd, &op, 1, 0x80000000U));
	snap_check(_metadata, self->fd, &s);
}

TEST_F(core, batch_bad_op_none_applied)
{
	struct ncsync_op ops[8], bad[7];
	static const unsigned int where[] = { 0, 3, 7 };
	unsigned int i, j, k;
	struct snap s;

	bad[0] = mkop(SEM, NCSYNC_OP_INC, 256, 1);
	bad[1] = mkop(2, NCSYNC_OP_READ, 0, 0);
	bad[2] = mkop(SEM, 99, 0, 0);
	bad[3] = mkop(EVENT, NCSYNC_OP_INC, 0, 0);
	bad[4] = mkop(SEM, NCSYNC_OP_SET, 0, 1);
	bad[4].pad = 1;
	bad[5] = mkop(SEM, NCSYNC_OP_SET, 0, 1);
	bad[5].reserved = 1;
	bad[6] = mkop(EVENT, NCSYNC_OP_READ, 0, 1);

	seed(_metadata, self->fd);
	snap_take(_metadata, self->fd, &s);
	for (k = 0; k < ARRAY_SIZE(bad); k++) {
		for (j = 0; j < ARRAY_SIZE(where); j++) {
			for (i = 0; i < 8; i++)
				ops[i] = i % 2 ?
					mkop(SEM, NCSYNC_OP_INC, i, 1000) :
					mkop(EVENT, NCSYNC_OP_CLEAR, i, 0);
			ops[where[j]] = bad[k];
			EXPECT_EQ(-EINVAL, do_batch(self->fd, ops, 8, 0))
				TH_LOG("bad op %u at %u", k, where[j]);
		}
	}
	snap_check(_metadata, self->fd, &s);
}

TEST_F(core, batch_efault)
{
	struct ncsync_op op = mkop(SEM, NCSYNC_OP_INC, 0, 1);
	char *end = guard_end();
	struct ncsync_batch b = { 0 };
	struct snap s;

	ASSERT_NE(NULL, end);
	seed(_metadata, self->fd);
	snap_take(_metadata, self->fd, &s);
	EXPECT_EQ(-1, ioctl(self->fd, NCSYNC_IOC_BATCH, NULL));
	EXPECT_EQ(EFAULT, errno);
	EXPECT_EQ(-EFAULT, do_batch(self->fd, NULL, 1, 0));
	EXPECT_EQ(-EFAULT, do_batch(self->fd, (void *)8, 1, 0));
	EXPECT_EQ(-EFAULT, do_batch(self->fd, (void *)end, 1, 0));
	/* first op readable, second one not: nothing applied */
	memcpy(end - sizeof(op), &op, sizeof(op));
	EXPECT_EQ(-EFAULT, do_batch(self->fd, (void *)(end - sizeof(op)), 2,
				    0));
	/* a pointer that is not a user address at all */
	b.ops = 0xFFFF800000000000ULL;
	b.count = 1;
	EXPECT_EQ(-1, ioctl(self->fd, NCSYNC_IOC_BATCH, &b));
	EXPECT_EQ(EFAULT, errno);
	snap_check(_metadata, self->fd, &s);
}

TEST_F(core, batch_results_not_writable)
{
	struct ncsync_op ops[3] = {
		mkop(SEM, NCSYNC_OP_INC, 0, 1),
		mkop(EVENT, NCSYNC_OP_CLEAR, 0, 0),
		mkop(SEM, NCSYNC_OP_SET, 1, 99),
	};
	struct ncsync_op *ro = ro_copy(ops, sizeof(ops));
	struct snap s;

	ASSERT_NE(NULL, ro);
	seed(_metadata, self->fd);
	snap_take(_metadata, self->fd, &s);
	EXPECT_EQ(-EFAULT, do_batch(self->fd, ro, 3, 0));
	snap_check(_metadata, self->fd, &s);
	/* the same ops from writable memory work */
	ASSERT_EQ(0, do_batch(self->fd, ops, 3, 0));
	EXPECT_EQ(99, sem_get(_metadata, self->fd, 1));
}

struct atom_ctx {
	int fd;
	int stop;
	int writer_err;
	int reader_err;
	long mismatches;
	long reads;
};

static void *atom_writer(void *arg)
{
	struct atom_ctx *c = arg;
	struct ncsync_op ops[2];
	int i, r;

	for (i = 0; i < 3000; i++) {
		ops[0] = mkop(SEM, NCSYNC_OP_INC, 40, 1);
		ops[1] = mkop(SEM, NCSYNC_OP_INC, 41, 1);
		r = do_batch(c->fd, ops, 2, 0);
		if (r) {
			c->writer_err = r;
			break;
		}
	}
	__atomic_store_n(&c->stop, 1, __ATOMIC_SEQ_CST);
	return NULL;
}

static void *atom_reader(void *arg)
{
	struct atom_ctx *c = arg;
	struct ncsync_op ops[2];
	int r;

	while (!__atomic_load_n(&c->stop, __ATOMIC_SEQ_CST)) {
		ops[0] = mkop(SEM, NCSYNC_OP_READ, 40, 0);
		ops[1] = mkop(SEM, NCSYNC_OP_READ, 41, 0);
		r = do_batch(c->fd, ops, 2, 0);
		if (r) {
			c->reader_err = r;
			break;
		}
		c->reads++;
		if (ops[0].after != ops[1].after)
			c->mismatches++;
	}
	return NULL;
}

TEST_F(core, batch_atomic)
{
	struct atom_ctx c = { .fd = self->fd };
	pthread_t w, r;

	ASSERT_EQ(0, pthread_create(&r, NULL, atom_reader, &c));
	ASSERT_EQ(0, pthread_create(&w, NULL, atom_writer, &c));
	pthread_join(w, NULL);
	pthread_join(r, NULL);
	EXPECT_EQ(0, c.writer_err);
	EXPECT_EQ(0, c.reader_err);
	EXPECT_EQ(0, c.mismatches) TH_LOG("%ld of %ld reads saw a half batch",
					  c.mismatches, c.reads);
	EXPECT_EQ(3000, sem_get(_metadata, self->fd, 40));
	EXPECT_EQ(3000, sem_get(_metadata, self->fd, 41));
}

/* ---------------------------------------------------------------------- */
/* NCSYNC_IOC_WAIT                                                         */

TEST_F(core, wait_sem_compare_immediate)
{
	static const struct {
		__s32 val;
		__u8 mode;
		__s32 thr;
		bool pass;
	} t[] = {
		{ 5, NCSYNC_WAIT_SEM_EQ, 5, true },
		{ 5, NCSYNC_WAIT_SEM_EQ, 4, false },
		{ 5, NCSYNC_WAIT_SEM_EQ, 6, false },
		{ 5, NCSYNC_WAIT_SEM_LT, 6, true },
		{ 5, NCSYNC_WAIT_SEM_LT, 5, false },
		{ 5, NCSYNC_WAIT_SEM_LE, 5, true },
		{ 5, NCSYNC_WAIT_SEM_LE, 4, false },
		{ 5, NCSYNC_WAIT_SEM_GT, 4, true },
		{ 5, NCSYNC_WAIT_SEM_GT, 5, false },
		{ 5, NCSYNC_WAIT_SEM_GE, 5, true },
		{ 5, NCSYNC_WAIT_SEM_GE, 6, false },
		/* signed compares */
		{ -1, NCSYNC_WAIT_SEM_LT, 0, true },
		{ -1, NCSYNC_WAIT_SEM_GT, 0, false },
		{ -1, NCSYNC_WAIT_SEM_GE, 0, false },
		{ -1, NCSYNC_WAIT_SEM_EQ, -1, true },
		{ INT_MIN, NCSYNC_WAIT_SEM_LE, INT_MIN, true },
		{ INT_MIN, NCSYNC_WAIT_SEM_GT, INT_MAX, false },
		{ INT_MAX, NCSYNC_WAIT_SEM_GT, INT_MIN, true },
		{ INT_MAX, NCSYNC_WAIT_SEM_GE, INT_MAX, true },
		{ 0, NCSYNC_WAIT_SEM_LT, INT_MIN, false },
	};
	unsigned int i;
	__s32 res;

	for (i = 0; i < ARRAY_SIZE(t); i++) {
		sem_put(_metadata, self->fd, 12, t[i].val);
		res = 0x5a5a5a5a;
		EXPECT_EQ(t[i].pass ? 0 : -ETIMEDOUT,
			  do_wait(self->fd, SEM, t[i].mode, 12, t[i].thr,
				  PAST_MS, &res))
			TH_LOG("case %u: %d mode %#x %d", i, t[i].val,
			       t[i].mode, t[i].thr);
		if (t[i].pass) {
			EXPECT_EQ(t[i].val, res) TH_LOG("case %u", i);
		}
		EXPECT_EQ(t[i].val, sem_get(_metadata, self->fd, 12));
	}
}

TEST_F(core, wait_event_modes_immediate)
{
	__s32 res;

	/* event 8 clear */
	EXPECT_EQ(-ETIMEDOUT, do_wait(self->fd, EVENT, NCSYNC_WAIT_EVT_SET, 8,
				      0, PAST_MS, NULL));
	EXPECT_EQ(-ETIMEDOUT, do_wait(self->fd, EVENT,
				      NCSYNC_WAIT_EVT_SET_THEN_CLEAR, 8, 0,
				      PAST_MS, NULL));
	EXPECT_EQ(0, evt_get(_metadata, self->fd, 8));
	res = 7;
	EXPECT_EQ(0, do_wait(self->fd, EVENT, NCSYNC_WAIT_EVT_CLEAR, 8, 0,
			     PAST_MS, &res));
	EXPECT_EQ(0, res);
	EXPECT_EQ(0, evt_get(_metadata, self->fd, 8));
	res = 7;
	EXPECT_EQ(0, do_wait(self->fd, EVENT, NCSYNC_WAIT_EVT_CLEAR_THEN_SET,
			     8, 0, PAST_MS, &res));
	EXPECT_EQ(0, res);
	EXPECT_EQ(1, evt_get(_metadata, self->fd, 8));

	/* event 8 set */
	EXPECT_EQ(-ETIMEDOUT, do_wait(self->fd, EVENT, NCSYNC_WAIT_EVT_CLEAR,
				      8, 0, PAST_MS, NULL));
	EXPECT_EQ(-ETIMEDOUT, do_wait(self->fd, EVENT,
				      NCSYNC_WAIT_EVT_CLEAR_THEN_SET, 8, 0,
				      PAST_MS, NULL));
	EXPECT_EQ(1, evt_get(_metadata, self->fd, 8));
	res = 7;
	EXPECT_EQ(0, do_wait(self->fd, EVENT, NCSYNC_WAIT_EVT_SET, 8, 0,
			     PAST_MS, &res));
	EXPECT_EQ(1, res);
	EXPECT_EQ(1, evt_get(_metadata, self->fd, 8));
	res = 7;
	EXPECT_EQ(0, do_wait(self->fd, EVENT, NCSYNC_WAIT_EVT_SET_THEN_CLEAR,
			     8, 0, PAST_MS, &res));
	EXPECT_EQ(1, res);
	EXPECT_EQ(0, evt_get(_metadata, self->fd, 8));
	EXPECT_EQ(0U, csr_get(_metadata, self->fd, EVT(8)));
}

TEST_F(core, wait_past_deadline_tests_once)
{
	struct ncsync_wait w;
	__s64 t0;

	sem_put(_metadata, self->fd, 0, 3);
	/* an absolute deadline one second ago */
	w = mkwait(SEM, NCSYNC_WAIT_SEM_GE, 0, 4, PAST_MS);
	w.deadline = ts_of(now_ns() - NSEC_PER_SEC);
	t0 = now_ns();
	EXPECT_EQ(-ETIMEDOUT, wait_ioctl(self->fd, &w));
	TH_LOG("past-deadline wait took %lld us",
	       (long long)(now_ns() - t0) / 1000);
	w = mkwait(SEM, NCSYNC_WAIT_SEM_GE, 0, 3, PAST_MS);
	w.deadline = ts_of(now_ns() - NSEC_PER_SEC);
	EXPECT_EQ(0, wait_ioctl(self->fd, &w));
	EXPECT_EQ(3, w.result);
	/* deadline {0, 0} and {0, 999999999} */
	w = mkwait(SEM, NCSYNC_WAIT_SEM_GE, 0, 4, PAST_MS);
	EXPECT_EQ(-ETIMEDOUT, wait_ioctl(self->fd, &w));
	w.deadline.tv_nsec = NSEC_PER_SEC - 1;
	EXPECT_EQ(-ETIMEDOUT, wait_ioctl(self->fd, &w));
}

TEST_F(core, wait_timeout)
{
	struct ncsync_wait w = mkwait(SEM, NCSYNC_WAIT_SEM_EQ, 0, 1, SHORT_MS);
	__s64 end;

	w.result = 0x5a5a;
	EXPECT_EQ(-ETIMEDOUT, wait_ioctl(self->fd, &w));
	end = now_ns();
	EXPECT_EQ(0x5a5a, w.result) TH_LOG("argument written back on error");
	EXPECT_LE(ns_of(w.deadline) - EARLY_NS, end)
		TH_LOG("returned %lld us before the deadline",
		       (long long)(ns_of(w.deadline) - end) / 1000);

	w = mkwait(EVENT, NCSYNC_WAIT_EVT_SET_THEN_CLEAR, 1, 0, SHORT_MS);
	EXPECT_EQ(-ETIMEDOUT, wait_ioctl(self->fd, &w));
	end = now_ns();
	EXPECT_LE(ns_of(w.deadline) - EARLY_NS, end);
	EXPECT_EQ(0, evt_get(_metadata, self->fd, 1));
	EXPECT_EQ(0, sem_get(_metadata, self->fd, 0));
}

TEST_F(core, wait_woken_by_pwrite_thread)
{
	struct waiter wt;

	waiter_start(_metadata, &wt, self->fd, SEM, NCSYNC_WAIT_SEM_GE, 30, 3,
		     LONG_MS);
	if (!waiter_blocked(&wt))
		TH_LOG("could not observe the waiter sleep");
	csr_put(_metadata, self->fd, SEM_INC(30), 2);
	sleep_ms(10);
	EXPECT_EQ(0, __atomic_load_n(&wt.done, __ATOMIC_SEQ_CST));
	csr_put(_metadata, self->fd, SEM_INC(30), 1);
	ASSERT_EQ(0, waiter_join(&wt));
	EXPECT_EQ(3, wt.w.result);
	EXPECT_EQ(3, sem_get(_metadata, self->fd, 30));
}

TEST_F(core, wait_woken_by_ioctl_process)
{
	struct shared_result *sr;
	pid_t pid;

	sr = mmap(NULL, sizeof(*sr), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, sr);
	sr->ret = 1;
	pid = fork_waiter(sr, SEM, NCSYNC_WAIT_SEM_EQ, 31, 7, LONG_MS);
	ASSERT_LE(0, pid);
	if (!await_blocked(pid, pid, SYS_ioctl))
		TH_LOG("could not observe the waiter sleep");
	sem_put(_metadata, self->fd, 31, 7);
	EXPECT_EQ(0, reap(pid));
	EXPECT_EQ(0, sr->ret);
	EXPECT_EQ(7, sr->result);
}

TEST_F(core, wait_woken_event_by_other_process)
{
	int fd2 = open_dev(_metadata, 0, O_RDWR);
	struct waiter wt;
	pid_t pid;

	waiter_start(_metadata, &wt, self->fd, EVENT, NCSYNC_WAIT_EVT_SET, 32,
		     0, LONG_MS);
	waiter_blocked(&wt);
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0)
		_exit(wr32(fd2, EVT(32), 1) ? 1 : 0);
	EXPECT_EQ(0, reap(pid));
	ASSERT_EQ(0, waiter_join(&wt));
	EXPECT_EQ(1, wt.w.result);
	EXPECT_EQ(1, evt_get(_metadata, self->fd, 32));
	close(fd2);
}

TEST_F(core, wait_no_deadline)
{
	struct waiter wt;
	__s32 res;

	EXPECT_EQ(0, do_wait(self->fd, SEM, NCSYNC_WAIT_SEM_EQ, 0, 0,
			     FOREVER_MS, &res));
	EXPECT_EQ(0, res);
	waiter_start(_metadata, &wt, self->fd, SEM, NCSYNC_WAIT_SEM_LT, 33, -4,
		     FOREVER_MS);
	waiter_blocked(&wt);
	csr_put(_metadata, self->fd, SEM_DEC(33), 5);
	ASSERT_EQ(0, waiter_join(&wt));
	EXPECT_EQ(-5, wt.w.result);
}

TEST_F(core, wait_set_then_clear_consumes)
{
	struct waiter wt;

	waiter_start(_metadata, &wt, self->fd, EVENT,
		     NCSYNC_WAIT_EVT_SET_THEN_CLEAR, 34, 0, LONG_MS);
	waiter_blocked(&wt);
	evt_put(_metadata, self->fd, 34, true);
	ASSERT_EQ(0, waiter_join(&wt));
	EXPECT_EQ(1, wt.w.result);
	EXPECT_EQ(0, evt_get(_metadata, self->fd, 34));
}

TEST_F(core, wait_clear_then_set)
{
	struct waiter wt;

	evt_put(_metadata, self->fd, 35, true);
	waiter_start(_metadata, &wt, self->fd, EVENT,
		     NCSYNC_WAIT_EVT_CLEAR_THEN_SET, 35, 0, LONG_MS);
	waiter_blocked(&wt);
	csr_put(_metadata, self->fd, EVT(35), 0);
	ASSERT_EQ(0, waiter_join(&wt));
	EXPECT_EQ(0, wt.w.result);
	EXPECT_EQ(1, evt_get(_metadata, self->fd, 35));
}

TEST_F(core, wait_event_clear)
{
	struct waiter wt;

	evt_put(_metadata, self->fd, 36, true);
	waiter_start(_metadata, &wt, self->fd, EVENT, NCSYNC_WAIT_EVT_CLEAR,
		     36, 0, LONG_MS);
	waiter_blocked(&wt);
	evt_put(_metadata, self->fd, 36, false);
	ASSERT_EQ(0, waiter_join(&wt));
	EXPECT_EQ(0, wt.w.result);
	EXPECT_EQ(0, evt_get(_metadata, self->fd, 36));
}

TEST_F(core, wait_set_then_clear_one_of_two)
{
	struct waiter a, b;
	int ra, rb;

	waiter_start(_metadata, &a, self->fd, EVENT,
		     NCSYNC_WAIT_EVT_SET_THEN_CLEAR, 37, 0, 2000);
	waiter_start(_metadata, &b, self->fd, EVENT,
		     NCSYNC_WAIT_EVT_SET_THEN_CLEAR, 37, 0, 2000);
	waiter_blocked(&a);
	waiter_blocked(&b);
	evt_put(_metadata, self->fd, 37, true);
	ra = waiter_join(&a);
	rb = waiter_join(&b);
	EXPECT_TRUE((ra == 0 && rb == -ETIMEDOUT) ||
		    (ra == -ETIMEDOUT && rb == 0))
		TH_LOG("waiters returned %d and %d", ra, rb);
	EXPECT_EQ(1, ra == 0 ? a.w.result : b.w.result);
	EXPECT_EQ(0, evt_get(_metadata, self->fd, 37));
}

TEST_F(core, wait_ge_all_waiters_pass)
{
	struct waiter wt[6];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(wt); i++)
		waiter_start(_metadata, &wt[i], self->fd, SEM,
			     NCSYNC_WAIT_SEM_GE, 38, 1, LONG_MS);
	for (i = 0; i < ARRAY_SIZE(wt); i++)
		waiter_blocked(&wt[i]);
	ASSERT_EQ(0, do_op(self->fd, SEM, NCSYNC_OP_INC, 38, 1, NULL));
	for (i = 0; i < ARRAY_SIZE(wt); i++) {
		EXPECT_EQ(0, waiter_join(&wt[i])) TH_LOG("waiter %u", i);
		EXPECT_EQ(1, wt[i].w.result) TH_LOG("waiter %u", i);
	}
	EXPECT_EQ(1, sem_get(_metadata, self->fd, 38));
}

TEST_F(core, wait_other_index_not_woken)
{
	struct waiter wt;

	waiter_start(_metadata, &wt, self->fd, SEM, NCSYNC_WAIT_SEM_EQ, 2, 1,
		     300);
	waiter_blocked(&wt);
	sem_put(_metadata, self->fd, 1, 1);
	sem_put(_metadata, self->fd, 3, 1);
	evt_put(_metadata, self->fd, 2, true);
	EXPECT_EQ(-ETIMEDOUT, waiter_join(&wt));
}

TEST_F(core, wait_register_modes_einval)
{
	struct ncsync_wait w;
	__u8 mode;

	for (mode = 0x81; mode <= 0x85; mode++) {
		w = mkwait(SEM, mode, 0, 0, PAST_MS);
		EXPECT_EQ(-EINVAL, wait_ioctl(self->fd, &w))
			TH_LOG("mode %#x", mode);
		w = mkwait(SEM, mode, 0, 0, SHORT_MS);
		EXPECT_EQ(-EINVAL, wait_ioctl(self->fd, &w))
			TH_LOG("mode %#x", mode);
	}
	w = mkwait(SEM, NCSYNC_WAIT_REG, 0, 0, PAST_MS);
	EXPECT_EQ(-EINVAL, wait_ioctl(self->fd, &w));
}

TEST_F(core, wait_bad_mode_einval)
{
	static const __u8 sem_bad[] = { 0x00, 0x06, 0x07, 0x08, 0x0E, 0x0F,
					0x10, 0x86, 0xFF };
	static const __u8 evt_bad[] = { 0x00, 0x01, 0x02, 0x03, 0x04, 0x05,
					0x08, 0x0D, 0x10, 0x86, 0x8E, 0xFF };
	struct ncsync_wait w;
	struct snap s;
	unsigned int i;

	seed(_metadata, self->fd);
	snap_take(_metadata, self->fd, &s);
	for (i = 0; i < ARRAY_SIZE(sem_bad); i++) {
		w = mkwait(SEM, sem_bad[i], 0, 0, PAST_MS);
		EXPECT_EQ(-EINVAL, wait_ioctl(self->fd, &w))
			TH_LOG("sem mode %#x", sem_bad[i]);
	}
	for (i = 0; i < ARRAY_SIZE(evt_bad); i++) {
		w = mkwait(EVENT, evt_bad[i], 0, 0, PAST_MS);
		EXPECT_EQ(-EINVAL, wait_ioctl(self->fd, &w))
			TH_LOG("event mode %#x", evt_bad[i]);
	}
	w = mkwait(2, NCSYNC_WAIT_SEM_GE, 0, 0, PAST_MS);
	EXPECT_EQ(-EINVAL, wait_ioctl(self->fd, &w));
	w = mkwait(2, NCSYNC_WAIT_EVT_SET, 0, 0, PAST_MS);
	EXPECT_EQ(-EINVAL, wait_ioctl(self->fd, &w));
	snap_check(_metadata, self->fd, &s);
}

TEST_F(core, wait_bad_flags_einval)
{
	struct ncsync_wait w;

	/* satisfied conditions: a wrongly accepted wait would return 0 */
	w = mkwait(SEM, NCSYNC_WAIT_SEM_GE, 0, 0, PAST_MS);
	w.flags = 2;
	EXPECT_EQ(-EINVAL, wait_ioctl(self->fd, &w));
	w.flags = 0x8000;
	EXPECT_EQ(-EINVAL, wait_ioctl(self->fd, &w));
	w.flags = NCSYNC_WAIT_F_NO_DEADLINE | 0x100;
	EXPECT_EQ(-EINVAL, wait_ioctl(self->fd, &w));
}

TEST_F(core, wait_bad_deadline_einval)
{
	struct ncsync_wait w, base;
	struct snap s;

	/* a consuming, satisfied wait: a wrong accept changes the event */
	evt_put(_metadata, self->fd, 9, true);
	snap_take(_metadata, self->fd, &s);
	base = mkwait(EVENT, NCSYNC_WAIT_EVT_SET_THEN_CLEAR, 9, 0, PAST_MS);

	w = base;
	w.deadline.tv_nsec = -1;
	EXPECT_EQ(-EINVAL, wait_ioctl(self->fd, &w));
	w = base;
	w.deadline.tv_nsec = NSEC_PER_SEC;
	EXPECT_EQ(-EINVAL, wait_ioctl(self->fd, &w));
	w = base;
	w.deadline.tv_sec = -1;
	EXPECT_EQ(-EINVAL, wait_ioctl(self->fd, &w));
	w = base;
	w.deadline.tv_sec = INT64_MIN;
	EXPECT_EQ(-EINVAL, wait_ioctl(self->fd, &w));
	w = base;
	w.flags = NCSYNC_WAIT_F_NO_DEADLINE;
	w.deadline.tv_sec = 1;
	EXPECT_EQ(-EINVAL, wait_ioctl(self->fd, &w));
	w = base;
	w.flags = NCSYNC_WAIT_F_NO_DEADLINE;
	w.deadline.tv_nsec = 1;
	EXPECT_EQ(-EINVAL, wait_ioctl(self->fd, &w));
	snap_check(_metadata, self->fd, &s);
}

TEST_F(core, wait_index_out_of_range)
{
	struct ncsync_wait w;

	w = mkwait(SEM, NCSYNC_WAIT_SEM_GE, 256, 0, PAST_MS);
	EXPECT_EQ(-EINVAL, wait_ioctl(self->fd, &w));
	w = mkwait(SEM, NCSYNC_WAIT_SEM_GE, 0xFFFFFFFFU, 0, PAST_MS);
	EXPECT_EQ(-EINVAL, wait_ioctl(self->fd, &w));
	w = mkwait(EVENT, NCSYNC_WAIT_EVT_CLEAR, 256, 0, PAST_MS);
	EXPECT_EQ(-EINVAL, wait_ioctl(self->fd, &w));
	w = mkwait(EVENT, NCSYNC_WAIT_EVT_CLEAR, 0x100000U, 0, SHORT_MS);
	EXPECT_EQ(-EINVAL, wait_ioctl(self->fd, &w));
	/* index 255 is fine */
	w = mkwait(EVENT, NCSYNC_WAIT_EVT_CLEAR, 255, 0, PAST_MS);
	EXPECT_EQ(0, wait_ioctl(self->fd, &w));
	w = mkwait(SEM, NCSYNC_WAIT_SEM_EQ, 255, 0, PAST_MS);
	EXPECT_EQ(0, wait_ioctl(self->fd, &w));
}

/* uapi: "@value: the signed threshold of a semaphore compare; zero for events" */
TEST_F(core, wait_event_value_nonzero_einval)
{
	struct ncsync_wait w;

	w = mkwait(EVENT, NCSYNC_WAIT_EVT_CLEAR, 0, 1, PAST_MS);
	EXPECT_EQ(-EINVAL, wait_ioctl(self->fd, &w));
	w = mkwait(EVENT, NCSYNC_WAIT_EVT_CLEAR_THEN_SET, 0, -1, PAST_MS);
	EXPECT_EQ(-EINVAL, wait_ioctl(self->fd, &w));
	EXPECT_EQ(0, evt_get(_metadata, self->fd, 0));
}

TEST_F(core, wait_efault)
{
	struct ncsync_wait w = mkwait(EVENT, NCSYNC_WAIT_EVT_CLEAR, 0, 0,
				      PAST_MS);
	char *end = guard_end();

	ASSERT_NE(NULL, end);
	EXPECT_EQ(-EFAULT, wait_ioctl(self->fd, NULL));
	EXPECT_EQ(-EFAULT, wait_ioctl(self->fd, (void *)8));
	memcpy(end - 8, &w, 8);
	EXPECT_EQ(-EFAULT, wait_ioctl(self->fd, (void *)(end - 8)));
	EXPECT_EQ(0, evt_get(_metadata, self->fd, 0));
}

/*
 * Sends SIGUSR1 to a thread once it sleeps in an ioctl, then optionally
 * every @period_ms until told to stop, then optionally sets a semaphore.
 */
struct kicker {
	pthread_t th;
	pthread_t target;
	pid_t target_tid;
	int period_ms;
	int stop;
	int sent;
	int set_fd;
	__u32 set_index;
	__s32 set_value;
};

static void *kicker_main(void *arg)
{
	struct kicker *k = arg;

	await_blocked(getpid(), k->target_tid, SYS_ioctl);
	do {
		pthread_kill(k->target, SIGUSR1);
		k->sent++;
		if (k->period_ms)
			sleep_ms(k->period_ms);
	} while (k->period_ms && !__atomic_load_n(&k->stop, __ATOMIC_SEQ_CST));
	if (k->set_fd >= 0) {
		sleep_ms(50);
		do_op(k->set_fd, SEM, NCSYNC_OP_SET, k->set_index,
		      (__u32)k->set_value, NULL);
	}
	return NULL;
}

static void kicker_start(struct __test_metadata *_metadata, struct kicker *k,
			 int period_ms, int set_fd, __u32 idx, __s32 val)
{
	memset(k, 0, sizeof(*k));
	k->target = pthread_self();
	k->target_tid = my_tid();
	k->period_ms = period_ms;
	k->set_fd = set_fd;
	k->set_index = idx;
	k->set_value = val;
	ASSERT_EQ(0, pthread_create(&k->th, NULL, kicker_main, k));
}

TEST_F(core, wait_signal_eintr)
{
	struct kicker k;
	int ret;

	catch_sigusr1(_metadata, false);
	kicker_start(_metadata, &k, 0, -1, 0, 0);
	ret = do_wait(self->fd, SEM, NCSYNC_WAIT_SEM_EQ, 0, 1, LONG_MS, NULL);
	pthread_join(k.th, NULL);
	EXPECT_EQ(-EINTR, ret);
	EXPECT_EQ(1, sig_count);
	EXPECT_EQ(0, sem_get(_metadata, self->fd, 0));
}

TEST_F(core, wait_signal_sa_restart_continues)
{
	struct kicker k;
	__s32 res = 0;
	int ret;

	catch_sigusr1(_metadata, true);
	kicker_start(_metadata, &k, 0, self->fd, 39, 1);
	ret = do_wait(self->fd, SEM, NCSYNC_WAIT_SEM_EQ, 39, 1, LONG_MS, &res);
	pthread_join(k.th, NULL);
	EXPECT_EQ(0, ret);
	EXPECT_EQ(1, res);
	EXPECT_EQ(1, sig_count);
}

TEST_F(core, wait_signal_sa_restart_keeps_deadline)
{
	struct ncsync_wait w = mkwait(SEM, NCSYNC_WAIT_SEM_EQ, 0, 1, 300);
	struct kicker k;
	__s64 end;
	int ret;

	catch_sigusr1(_metadata, true);
	kicker_start(_metadata, &k, 20, -1, 0, 0);
	ret = wait_ioctl(self->fd, &w);
	end = now_ns();
	__atomic_store_n(&k.stop, 1, __ATOMIC_SEQ_CST);
	pthread_join(k.th, NULL);
	EXPECT_EQ(-ETIMEDOUT, ret);
	EXPECT_LE(ns_of(w.deadline) - EARLY_NS, end);
	TH_LOG("%d signals during the wait", (int)sig_count);
	EXPECT_LE(1, sig_count);
}

TEST_F(core, wait_reset_ecanceled)
{
	int fd2 = open_dev(_metadata, 0, O_RDWR);
	struct waiter wt[3];
	unsigned int i;
	int n;

	waiter_start(_metadata, &wt[0], self->fd, SEM, NCSYNC_WAIT_SEM_EQ, 0,
		     1, LONG_MS);
	waiter_start(_metadata, &wt[1], fd2, EVENT, NCSYNC_WAIT_EVT_SET, 200,
		     0, LONG_MS);
	waiter_start(_metadata, &wt[2], fd2, SEM, NCSYNC_WAIT_SEM_GE, 201, 5,
		     FOREVER_MS);
	for (i = 0; i < ARRAY_SIZE(wt); i++)
		waiter_blocked(&wt[i]);
	/* reset until every waiter is gone (normally the first one does) */
	for (n = 0; n < 250; n++) {
		bool all = true;

		core_reset(_metadata, self->fd);
		sleep_ms(20);
		for (i = 0; i < ARRAY_SIZE(wt); i++)
			all &= __atomic_load_n(&wt[i].done, __ATOMIC_SEQ_CST);
		if (all)
			break;
	}
	TH_LOG("%d resets", n + 1);
	for (i = 0; i < ARRAY_SIZE(wt); i++) {
		EXPECT_EQ(-ECANCELED, waiter_join(&wt[i])) TH_LOG("waiter %u",
								  i);
	}
	close(fd2);
}

TEST_F(core, wait_close_ebadf)
{
	int fd2 = open_dev(_metadata, 0, O_RDWR);
	struct waiter a, b;
	bool seen;

	waiter_start(_metadata, &a, fd2, SEM, NCSYNC_WAIT_SEM_EQ, 0, 1,
		     LONG_MS);
	seen = waiter_blocked(&a);
	/* a waiter on another descriptor of the same core is not affected */
	waiter_start(_metadata, &b, self->fd, SEM, NCSYNC_WAIT_SEM_EQ, 0, 1,
		     400);
	waiter_blocked(&b);
	EXPECT_EQ(0, close(fd2));
	EXPECT_EQ(-EBADF, waiter_join(&a))
		TH_LOG("waiter %s sleeping", seen ? "was seen" : "not seen");
	EXPECT_EQ(-ETIMEDOUT, waiter_join(&b));
	EXPECT_EQ(0, sem_get(_metadata, self->fd, 0));
}

/* ---------------------------------------------------------------------- */
/* NCSYNC_IOC_RESET                                                        */

/* Closing a dup of the descriptor also ends the process's waits. */
TEST_F(core, wait_close_dup_ebadf)
{
	int fd2 = open_dev(_metadata, 0, O_RDWR);
	int fd3 = dup(fd2);
	struct waiter a;

	ASSERT_LE(0, fd3);
	waiter_start(_metadata, &a, fd2, EVENT, NCSYNC_WAIT_EVT_SET, 0, 0,
		     LONG_MS);
	waiter_blocked(&a);
	EXPECT_EQ(0, close(fd3));
	EXPECT_EQ(-EBADF, waiter_join(&a));
	/* the original descriptor still works */
	EXPECT_EQ(0, do_op(fd2, EVENT, NCSYNC_OP_SET, 0, 0, NULL));
	EXPECT_EQ(0, do_wait(fd2, EVENT, NCSYNC_WAIT_EVT_SET, 0, 0, PAST_MS,
			     NULL));
	close(fd2);
}

/* Another process closing its copy of the open file does not end our wait. */
TEST_F(core, wait_close_by_other_process_continues)
{
	int fd2 = open_dev(_metadata, 0, O_RDWR);
	struct waiter a;
	pid_t pid;

	waiter_start(_metadata, &a, fd2, SEM, NCSYNC_WAIT_SEM_EQ, 3, 1,
		     LONG_MS);
	waiter_blocked(&a);
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0)
		_exit(close(fd2) ? 1 : 0);
	EXPECT_EQ(0, reap(pid));
	sleep_ms(50);
	EXPECT_EQ(0, __atomic_load_n(&a.done, __ATOMIC_SEQ_CST));
	sem_put(_metadata, self->fd, 3, 1);
	EXPECT_EQ(0, waiter_join(&a));
	EXPECT_EQ(1, a.w.result);
	close(fd2);
}

TEST_F(core, reset_zeroes_everything)
{
	static __u32 win[CSR_REGS];
	struct ncsync_stats s0, s1;
	unsigned int i;

	seed(_metadata, self->fd);
	stats_get(_metadata, self->fd, &s0);
	core_reset(_metadata, self->fd);
	stats_get(_metadata, self->fd, &s1);
	ASSERT_EQ(0, rd(self->fd, win, sizeof(win), 0));
	for (i = 0; i < CSR_REGS; i++) {
		ASSERT_EQ(0U, win[i]) TH_LOG("CSR @%#x", i * 4);
	}
	for (i = 0; i < 256; i += 51) {
		EXPECT_EQ(0, sem_get(_metadata, self->fd, i));
		EXPECT_EQ(0, evt_get(_metadata, self->fd, i));
	}
	EXPECT_EQ(s0.resets + 1, s1.resets);
	EXPECT_EQ(s0.seq + 1, s1.seq);
	/* counters are not cleared, nor is the reset a redundant clear */
	EXPECT_EQ(s0.event_set_while_set, s1.event_set_while_set);
	EXPECT_EQ(s0.event_clear_while_clear, s1.event_clear_while_clear);
	EXPECT_EQ(s0.sem_overflows, s1.sem_overflows);
}

TEST_F(core, reset_bad_args)
{
	struct snap s;

	seed(_metadata, self->fd);
	snap_take(_metadata, self->fd, &s);
	EXPECT_EQ(-EINVAL, do_reset(self->fd, 1, 0));
	EXPECT_EQ(-EINVAL, do_reset(self->fd, 0x80000000U, 0));
	EXPECT_EQ(-EINVAL, do_reset(self->fd, 0, 1));
	EXPECT_EQ(-1, ioctl(self->fd, NCSYNC_IOC_RESET, NULL));
	EXPECT_EQ(EFAULT, errno);
	snap_check(_metadata, self->fd, &s);
}

/* ---------------------------------------------------------------------- */
/* poll() and NCSYNC_IOC_ACK                                               */

static short poll_fd(int fd, int timeout_ms)
{
	struct pollfd p = { .fd = fd, .events = POLLIN | POLLRDNORM };
	int n = poll(&p, 1, timeout_ms);

	if (n < 0)
		return -1;
	return n ? p.revents : 0;
}

static short poll_all(int fd)
{
	struct pollfd p = {
		.fd = fd,
		.events = POLLIN | POLLRDNORM | POLLOUT | POLLWRNORM |
			  POLLPRI | POLLRDBAND,
	};
	int n = poll(&p, 1, 0);

	if (n < 0)
		return -1;
	return n ? p.revents : 0;
}

#define POLL_READABLE	(POLLIN | POLLRDNORM)

TEST_F(core, poll_fresh_descriptor_quiet)
{
	int fd2;

	sem_put(_metadata, self->fd, 0, 1);
	/* a new descriptor starts at the core's current sequence */
	fd2 = open_dev(_metadata, 0, O_RDWR);
	EXPECT_EQ(0, poll_fd(fd2, 0));
	EXPECT_EQ(0, poll_all(fd2));
	sem_put(_metadata, self->fd, 0, 2);
	EXPECT_EQ(POLL_READABLE, poll_fd(fd2, 0));
	close(fd2);
}

TEST_F(core, poll_ack_shared_by_dup)
{
	int fd2 = dup(self->fd);

	ASSERT_LE(0, fd2);
	ack(_metadata, self->fd);
	sem_put(_metadata, self->fd, 0, 1);
	EXPECT_EQ(POLL_READABLE, poll_fd(fd2, 0));
	ack(_metadata, fd2);
	EXPECT_EQ(0, poll_fd(self->fd, 0));
	close(fd2);
}

TEST_F(core, poll_quiet_after_ack)
{
	__u64 s1, s2;

	s1 = ack(_metadata, self->fd);
	EXPECT_EQ(0, poll_fd(self->fd, 0));
	EXPECT_EQ(0, poll_fd(self->fd, 50));
	s2 = ack(_metadata, self->fd);
	EXPECT_EQ(s1, s2);
}

TEST_F(core, poll_change_by_other_fd)
{
	int fd2 = open_dev(_metadata, 0, O_RDWR);
	__u64 s1, s2;
	short ev;

	s1 = ack(_metadata, self->fd);
	ASSERT_EQ(0, do_op(fd2, SEM, NCSYNC_OP_INC, 0, 1, NULL));
	/* exactly EPOLLIN | EPOLLRDNORM, even when asked for more */
	ev = poll_fd(self->fd, 0);
	EXPECT_EQ(POLL_READABLE, ev) TH_LOG("revents %#x", ev);
	ev = poll_all(self->fd);
	EXPECT_EQ(POLL_READABLE, ev) TH_LOG("revents %#x", ev);
	/* level-triggered until acknowledged */
	ev = poll_fd(self->fd, 0);
	EXPECT_EQ(POLL_READABLE, ev);
	s2 = ack(_metadata, self->fd);
	EXPECT_LT(s1, s2);
	EXPECT_EQ(0, poll_fd(self->fd, 0));
	close(fd2);
}

TEST_F(core, poll_every_kind_of_change)
{
	struct ncsync_op ops[2] = {
		mkop(SEM, NCSYNC_OP_READ, 0, 0),
		mkop(SEM, NCSYNC_OP_DEC, 0, 1),
	};
	__u64 prev, seq;
	int step;

	prev = ack(_metadata, self->fd);
	for (step = 0; step < 8; step++) {
		switch (step) {
		case 0:
			csr_put(_metadata, self->fd, EVT(0), 1);
			break;
		case 1:
			csr_put(_metadata, self->fd, SEM_INC(0), 1);
			break;
		case 2:
			csr_put(_metadata, self->fd, SEM_SET(0), 9);
			break;
		case 3:
			ASSERT_EQ(0, do_op(self->fd, SEM, NCSYNC_OP_DEC, 0, 1,
					   NULL));
			break;
		case 4:
			evt_put(_metadata, self->fd, 0, false);
			break;
		case 5:
			ASSERT_EQ(0, do_batch(self->fd, ops, 2, 0));
			break;
		case 6:
			/* a consuming wait changes the event */
			evt_put(_metadata, self->fd, 1, true);
			ack(_metadata, self->fd);
			ASSERT_EQ(0, do_wait(self->fd, EVENT,
					     NCSYNC_WAIT_EVT_SET_THEN_CLEAR, 1,
					     0, PAST_MS, NULL));
			break;
		case 7:
			core_reset(_metadata, self->fd);
			break;
		}
		EXPECT_EQ(POLL_READABLE, poll_fd(self->fd, 0))
			TH_LOG("change %d", step);
		seq = ack(_metadata, self->fd);
		EXPECT_LT(prev, seq) TH_LOG("change %d", step);
		EXPECT_EQ(0, poll_fd(self->fd, 0));
		prev = seq;
	}
}

TEST_F(core, poll_reads_are_not_changes)
{
	struct ncsync_op ops[2] = {
		mkop(SEM, NCSYNC_OP_READ, 0, 0),
		mkop(EVENT, NCSYNC_OP_READ, 0, 0),
	};
	struct ncsync_info info;
	struct ncsync_stats st;
	__u32 buf[4];
	__u64 s1, s2;

	seed(_metadata, self->fd);
	s1 = ack(_metadata, self->fd);
	EXPECT_EQ(0, rd(self->fd, buf, 16, 0x1000));
	sem_get(_metadata, self->fd, 0);
	evt_get(_metadata, self->fd, 0);
	EXPECT_EQ(0, do_batch(self->fd, ops, 2, 0));
	EXPECT_EQ(0, ioctl(self->fd, NCSYNC_IOC_INFO, &info));
	stats_get(_metadata, self->fd, &st);
	/* non-consuming waits, a timed-out wait, refused updates */
	EXPECT_EQ(0, do_wait(self->fd, EVENT, NCSYNC_WAIT_EVT_SET, 0, 0,
			     PAST_MS, NULL));
	EXPECT_EQ(-ETIMEDOUT, do_wait(self->fd, EVENT,
				      NCSYNC_WAIT_EVT_SET_THEN_CLEAR, 1, 0,
				      PAST_MS, NULL));
	EXPECT_EQ(-EINVAL, wr32(self->fd, SEM_RD(0), 1));
	EXPECT_EQ(-EINVAL, do_op(self->fd, SEM, NCSYNC_OP_INC, 256, 1, NULL));
	EXPECT_EQ(0, poll_fd(self->fd, 0));
	s2 = ack(_metadata, self->fd);
	EXPECT_EQ(s1, s2);
}

static void *poll_thread(void *arg)
{
	int *fdp = arg;
	struct pollfd p = { .fd = fdp[0], .events = POLLIN };
	struct timespec ts = { .tv_sec = LONG_MS / 1000 };

	fdp[2] = my_tid();
	fdp[1] = ppoll(&p, 1, &ts, NULL);
	if (fdp[1] == 1)
		fdp[1] = 100 + (p.revents & POLLIN ? 1 : 0);
	return NULL;
}

TEST_F(core, poll_blocked_wakes_on_change)
{
	int fd2 = open_dev(_metadata, 0, O_RDWR);
	int arg[3] = { self->fd, -5, 0 };
	pthread_t th;

	ack(_metadata, self->fd);
	ASSERT_EQ(0, pthread_create(&th, NULL, poll_thread, arg));
	while (!__atomic_load_n(&arg[2], __ATOMIC_SEQ_CST))
		usleep(100);
	if (!await_blocked(getpid(), arg[2], SYS_ppoll))
		TH_LOG("could not observe the poller sleep");
	ASSERT_EQ(0, do_op(fd2, EVENT, NCSYNC_OP_SET, 50, 0, NULL));
	pthread_join(th, NULL);
	EXPECT_EQ(101, arg[1]) TH_LOG("ppoll returned %d", arg[1]);
	close(fd2);
}

TEST_F(core, ack_seq_matches_stats)
{
	int fd2 = open_dev(_metadata, 0, O_RDWR);
	struct ncsync_seq zero = { 0 };
	struct ncsync_stats st;
	void *ro;
	__u64 s1, s2;

	s1 = ack(_metadata, self->fd);
	stats_get(_metadata, self->fd, &st);
	EXPECT_EQ(s1, st.seq);
	EXPECT_EQ(s1, ack(_metadata, fd2));
	sem_put(_metadata, fd2, 0, 1);
	s2 = ack(_metadata, self->fd);
	stats_get(_metadata, self->fd, &st);
	EXPECT_LT(s1, s2);
	EXPECT_EQ(s2, st.seq);
	EXPECT_EQ(-1, ioctl(self->fd, NCSYNC_IOC_ACK, NULL));
	EXPECT_EQ(EFAULT, errno);
	/* a failed ACK acknowledges nothing */
	sem_put(_metadata, fd2, 0, 2);
	ro = ro_copy(&zero, sizeof(zero));
	ASSERT_NE(NULL, ro);
	EXPECT_EQ(-1, ioctl(self->fd, NCSYNC_IOC_ACK, ro));
	EXPECT_EQ(EFAULT, errno);
	EXPECT_EQ(POLL_READABLE, poll_fd(self->fd, 0));
	close(fd2);
}

TEST_F(core, ack_is_per_descriptor)
{
	int fd2 = open_dev(_metadata, 0, O_RDWR);

	ack(_metadata, self->fd);
	ack(_metadata, fd2);
	EXPECT_EQ(0, poll_fd(fd2, 0));
	sem_put(_metadata, self->fd, 0, 1);
	EXPECT_EQ(POLL_READABLE, poll_fd(self->fd, 0));
	EXPECT_EQ(POLL_READABLE, poll_fd(fd2, 0));
	ack(_metadata, self->fd);
	EXPECT_EQ(0, poll_fd(self->fd, 0));
	EXPECT_EQ(POLL_READABLE, poll_fd(fd2, 0));
	ack(_metadata, fd2);
	EXPECT_EQ(0, poll_fd(fd2, 0));
	close(fd2);
}

/* ---------------------------------------------------------------------- */
/* NCSYNC_IOC_STATS                                                        */

TEST_F(core, stats_event_counters)
{
	struct ncsync_op ops[2] = {
		mkop(EVENT, NCSYNC_OP_SET, 1, 0),
		mkop(EVENT, NCSYNC_OP_SET, 1, 0),
	};
	struct ncsync_stats s0, s1;

	stats_get(_metadata, self->fd, &s0);
	evt_put(_metadata, self->fd, 0, true);		/* clear -> set */
	evt_put(_metadata, self->fd, 0, true);		/* +1 set */
	csr_put(_metadata, self->fd, EVT(0), 5);	/* +1 set */
	evt_put(_metadata, self->fd, 0, false);		/* set -> clear */
	evt_put(_metadata, self->fd, 0, false);		/* +1 clear */
	csr_put(_metadata, self->fd, EVT(0), 0);	/* +1 clear */
	ASSERT_EQ(0, do_batch(self->fd, ops, 2, 0));	/* +1 set */
	stats_get(_metadata, self->fd, &s1);
	EXPECT_EQ(s0.event_set_while_set + 3, s1.event_set_while_set);
	EXPECT_EQ(s0.event_clear_while_clear + 2, s1.event_clear_while_clear);
	EXPECT_EQ(s0.sem_overflows, s1.sem_overflows);
	EXPECT_EQ(s0.resets, s1.resets);
	EXPECT_LT(s0.seq, s1.seq);
}

TEST_F(core, stats_sem_overflows)
{
	struct ncsync_stats s0, s1;

	stats_get(_metadata, self->fd, &s0);
	sem_put(_metadata, self->fd, 0, INT_MAX);
	ASSERT_EQ(0, do_op(self->fd, SEM, NCSYNC_OP_INC, 0, 1, NULL)); /* +1 */
	ASSERT_EQ(0, do_op(self->fd, SEM, NCSYNC_OP_DEC, 0, 1, NULL)); /* +1 */
	csr_put(_metadata, self->fd, SEM_INC(0), 1);			/* +1 */
	csr_put(_metadata, self->fd, SEM_DEC(0), 1);			/* +1 */
	/* no overflow */
	sem_put(_metadata, self->fd, 1, INT_MIN);
	csr_put(_metadata, self->fd, SEM_DEC(2), 1);
	csr_put(_metadata, self->fd, SEM_INC(2), 2);
	ASSERT_EQ(0, do_op(self->fd, SEM, NCSYNC_OP_INC, 3, 100, NULL));
	stats_get(_metadata, self->fd, &s1);
	EXPECT_EQ(s0.sem_overflows + 4, s1.sem_overflows);
	EXPECT_EQ(s0.event_set_while_set, s1.event_set_while_set);
	EXPECT_EQ(s0.event_clear_while_clear, s1.event_clear_while_clear);
}

/*
 * The change sequence advances once per register written, per updating
 * operation, per consuming wait and per reset; never for reads.
 */
TEST_F(core, stats_seq_counts_changes)
{
	struct ncsync_op ops[3] = {
		mkop(SEM, NCSYNC_OP_READ, 0, 0),
		mkop(SEM, NCSYNC_OP_INC, 0, 0),
		mkop(EVENT, NCSYNC_OP_SET, 0, 0),
	};
	struct ncsync_stats st;
	__u32 three[3] = { 1, 0, 0 };
	__u64 seq;

	stats_get(_metadata, self->fd, &st);
	seq = st.seq;
#define SEQ_DELTA(n, what) do {						\
		stats_get(_metadata, self->fd, &st);			\
		EXPECT_EQ(seq + (n), st.seq) TH_LOG("%s", what);	\
		seq = st.seq;						\
	} while (0)
	ASSERT_EQ(0, wr(self->fd, three, sizeof(three), SEM_INC(0)));
	SEQ_DELTA(3, "3-register pwrite");
	ASSERT_EQ(0, do_op(self->fd, SEM, NCSYNC_OP_INC, 5, 0, NULL));
	SEQ_DELTA(1, "INC by 0");
	sem_put(_metadata, self->fd, 0, 1);
	SEQ_DELTA(1, "SET to the same value");
	ASSERT_EQ(0, do_batch(self->fd, ops, 3, 0));
	SEQ_DELTA(2, "batch of a read and two updates");
	ASSERT_EQ(0, do_wait(self->fd, EVENT, NCSYNC_WAIT_EVT_SET, 0, 0,
			     PAST_MS, NULL));
	SEQ_DELTA(0, "non-consuming wait");
	ASSERT_EQ(0, do_wait(self->fd, EVENT, NCSYNC_WAIT_EVT_SET_THEN_CLEAR,
			     0, 0, PAST_MS, NULL));
	SEQ_DELTA(1, "consuming wait");
	evt_put(_metadata, self->fd, 0, false);
	SEQ_DELTA(1, "clear of a clear event");
	sem_get(_metadata, self->fd, 0);
	csr_get(_metadata, self->fd, SEM_RD(0));
	ASSERT_EQ(0, do_batch(self->fd, ops, 1, 0));
	SEQ_DELTA(0, "reads");
	EXPECT_EQ(-EINVAL, wr(self->fd, three, sizeof(three), 0x0FFC));
	SEQ_DELTA(0, "refused pwrite");
	core_reset(_metadata, self->fd);
	SEQ_DELTA(1, "reset");
#undef SEQ_DELTA
}

TEST_F(core, stats_efault)
{
	struct ncsync_stats zero = { 0 };
	void *ro = ro_copy(&zero, sizeof(zero));

	ASSERT_NE(NULL, ro);
	EXPECT_EQ(-1, ioctl(self->fd, NCSYNC_IOC_STATS, ro));
	EXPECT_EQ(EFAULT, errno);
	EXPECT_EQ(-1, ioctl(self->fd, NCSYNC_IOC_STATS, NULL));
	EXPECT_EQ(EFAULT, errno);
}

/* ---------------------------------------------------------------------- */
/* A read-only descriptor                                                  */

TEST_F(core, rdonly_can_read_and_wait)
{
	int ro = open_dev(_metadata, 0, O_RDONLY);
	struct ncsync_op ops[2] = {
		mkop(SEM, NCSYNC_OP_READ, 4, 0),
		mkop(EVENT, NCSYNC_OP_READ, 3, 0),
	};
	struct ncsync_info info;
	struct ncsync_stats st;
	struct waiter wt;
	__u32 v;

	seed(_metadata, self->fd);
	ASSERT_EQ(0, rd(ro, &v, 4, SEM_RD(4)));
	EXPECT_EQ((__u32)sem_pat(4), v);
	EXPECT_EQ(sem_pat(4), sem_get(_metadata, ro, 4));
	EXPECT_EQ(1, evt_get(_metadata, ro, 3));
	ASSERT_EQ(0, do_batch(ro, ops, 2, 0));
	EXPECT_EQ(sem_pat(4), ops[0].after);
	EXPECT_EQ(1, ops[1].after);
	ASSERT_EQ(0, ioctl(ro, NCSYNC_IOC_INFO, &info));
	EXPECT_EQ(0U, info.core);
	stats_get(_metadata, ro, &st);
	ack(_metadata, ro);
	EXPECT_EQ(0, poll_fd(ro, 0));

	EXPECT_EQ(0, do_wait(ro, SEM, NCSYNC_WAIT_SEM_EQ, 4, sem_pat(4),
			     PAST_MS, NULL));
	EXPECT_EQ(0, do_wait(ro, EVENT, NCSYNC_WAIT_EVT_CLEAR, 1, 0,
			     PAST_MS, NULL));
	waiter_start(_metadata, &wt, ro, EVENT, NCSYNC_WAIT_EVT_SET, 1, 0,
		     LONG_MS);
	waiter_blocked(&wt);
	evt_put(_metadata, self->fd, 1, true);
	EXPECT_EQ(0, waiter_join(&wt));
	EXPECT_EQ(1, wt.w.result);
	EXPECT_EQ(POLL_READABLE, poll_fd(ro, 0));
	close(ro);
}

/* model.rst, "Read-only descriptors": they can read, map and wait */
TEST_F(core, rdonly_can_map)
{
	int ro = open_dev(_metadata, 0, O_RDONLY);
	volatile __u32 *m;

	m = mmap(NULL, NCSYNC_CSR_SIZE, PROT_READ, MAP_SHARED, ro, 0);
	ASSERT_NE(MAP_FAILED, m)
		TH_LOG("mmap of an O_RDONLY fd: %s", strerror(errno));
	sem_put(_metadata, self->fd, 4, 44);
	EXPECT_EQ(44U, m[SEM_RD(4) / 4]);
	evt_put(_metadata, self->fd, 1, true);
	EXPECT_EQ(1U, m[EVT(1) / 4]);
	EXPECT_EQ(-1, mprotect((void *)m, NCSYNC_CSR_SIZE,
			       PROT_READ | PROT_WRITE));
	EXPECT_EQ(EACCES, errno);
	munmap((void *)m, NCSYNC_CSR_SIZE);
	close(ro);
}

TEST_F(core, rdonly_cannot_change)
{
	int ro = open_dev(_metadata, 0, O_RDONLY);
	struct ncsync_op ops[2] = {
		mkop(SEM, NCSYNC_OP_READ, 0, 0),
		mkop(SEM, NCSYNC_OP_INC, 0, 1),
	};
	struct snap s;

	seed(_metadata, self->fd);
	snap_take(_metadata, self->fd, &s);
	EXPECT_EQ(-EBADF, wr32(ro, SEM_INC(0), 1));
	EXPECT_EQ(-EBADF, wr32(ro, EVT(1), 1));
	EXPECT_EQ(-1, write(ro, &(__u32){ 1 }, 4));
	EXPECT_EQ(EBADF, errno);
	EXPECT_EQ(-EBADF, do_op(ro, SEM, NCSYNC_OP_SET, 0, 1, NULL));
	EXPECT_EQ(-EBADF, do_op(ro, SEM, NCSYNC_OP_INC, 0, 1, NULL));
	EXPECT_EQ(-EBADF, do_op(ro, SEM, NCSYNC_OP_DEC, 0, 1, NULL));
	EXPECT_EQ(-EBADF, do_op(ro, EVENT, NCSYNC_OP_SET, 1, 0, NULL));
	EXPECT_EQ(-EBADF, do_op(ro, EVENT, NCSYNC_OP_CLEAR, 0, 0, NULL));
	EXPECT_EQ(-EBADF, do_batch(ro, ops, 2, 0));
	EXPECT_EQ(-EBADF, do_batch(ro, &ops[1], 1, 0));
	EXPECT_EQ(-EBADF, do_reset(ro, 0, 0));
	/* consuming waits change the event */
	EXPECT_EQ(-EBADF, do_wait(ro, EVENT, NCSYNC_WAIT_EVT_SET_THEN_CLEAR, 0,
				  0, PAST_MS, NULL));
	EXPECT_EQ(-EBADF, do_wait(ro, EVENT, NCSYNC_WAIT_EVT_CLEAR_THEN_SET, 1,
				  0, PAST_MS, NULL));
	/* argument checks come first */
	EXPECT_EQ(-EINVAL, do_op(ro, SEM, NCSYNC_OP_INC, 256, 1, NULL));
	EXPECT_EQ(-EINVAL, do_op(ro, EVENT, NCSYNC_OP_SET, 0, 1, NULL));
	EXPECT_EQ(-EINVAL, do_reset(ro, 1, 0));
	EXPECT_EQ(-EINVAL, do_wait(ro, EVENT, NCSYNC_WAIT_EVT_SET_THEN_CLEAR,
				   256, 0, PAST_MS, NULL));
	EXPECT_EQ(MAP_FAILED, mmap(NULL, NCSYNC_CSR_SIZE, PROT_READ | PROT_WRITE,
				   MAP_SHARED, ro, 0));
	EXPECT_EQ(EACCES, errno);
	snap_check(_metadata, self->fd, &s);
	close(ro);
}

TEST_F(core, wronly_cannot_read_or_map)
{
	int wo = open_dev(_metadata, 0, O_WRONLY);
	__u32 v;

	EXPECT_EQ(-EBADF, rd(wo, &v, 4, SEM_RD(0)));
	EXPECT_EQ(MAP_FAILED, mmap(NULL, NCSYNC_CSR_SIZE, PROT_READ,
				   MAP_SHARED, wo, 0));
	EXPECT_EQ(EACCES, errno);
	EXPECT_EQ(0, wr32(wo, SEM_INC(0), 2));
	EXPECT_EQ(2, sem_get(_metadata, wo, 0));
	close(wo);
}

/* ---------------------------------------------------------------------- */
/* Concurrency                                                           */

#define CONC_THREADS	8
#define CONC_ITERS	2000

struct inc_ctx {
	pthread_t th;
	int fd;
	/* 0 OP INC, 1 pwrite INC, 2 OP DEC, 3 pwrite DEC, 4 BATCH +a -1 +1 */
	int kind;
	__u32 index;
	__u32 amount;
	int iters;
	int err;
};

static void *inc_main(void *arg)
{
	struct inc_ctx *c = arg;
	struct ncsync_op ops[3];
	int i, r = 0;

	for (i = 0; i < c->iters && !r; i++) {
		switch (c->kind) {
		case 0:
			r = do_op(c->fd, SEM, NCSYNC_OP_INC, c->index,
				  c->amount, NULL);
			break;
		case 1:
			r = wr32(c->fd, SEM_INC(c->index), c->amount);
			break;
		case 2:
			r = do_op(c->fd, SEM, NCSYNC_OP_DEC, c->index,
				  c->amount, NULL);
			break;
		case 3:
			r = wr32(c->fd, SEM_DEC(c->index), c->amount);
			break;
		case 4:
			ops[0] = mkop(SEM, NCSYNC_OP_INC, c->index, c->amount);
			ops[1] = mkop(SEM, NCSYNC_OP_DEC, c->index, 1);
			ops[2] = mkop(SEM, NCSYNC_OP_INC, c->index, 1);
			r = do_batch(c->fd, ops, 3, 0);
			break;
		}
	}
	c->err = r;
	return NULL;
}

static void run_incs(struct __test_metadata *_metadata, struct inc_ctx *c,
		     int n)
{
	int i;

	for (i = 0; i < n; i++) {
		ASSERT_EQ(0, pthread_create(&c[i].th, NULL, inc_main, &c[i]));
	}
	for (i = 0; i < n; i++)
		pthread_join(c[i].th, NULL);
	for (i = 0; i < n; i++) {
		EXPECT_EQ(0, c[i].err) TH_LOG("thread %d: %s", i,
					      strerror(-c[i].err));
	}
}

TEST_F(core, conc_threads_ioctl_inc)
{
	struct inc_ctx c[CONC_THREADS];
	int i;

	for (i = 0; i < CONC_THREADS; i++)
		c[i] = (struct inc_ctx){ .fd = self->fd, .kind = 0,
					 .index = 60, .amount = 1,
					 .iters = CONC_ITERS };
	run_incs(_metadata, c, CONC_THREADS);
	EXPECT_EQ(CONC_THREADS * CONC_ITERS, sem_get(_metadata, self->fd, 60));
}

TEST_F(core, conc_threads_pwrite_inc)
{
	struct inc_ctx c[CONC_THREADS];
	int i;

	for (i = 0; i < CONC_THREADS; i++)
		c[i] = (struct inc_ctx){ .fd = self->fd, .kind = 1,
					 .index = 61, .amount = 1,
					 .iters = CONC_ITERS };
	run_incs(_metadata, c, CONC_THREADS);
	EXPECT_EQ(CONC_THREADS * CONC_ITERS, sem_get(_metadata, self->fd, 61));
}

TEST_F(core, conc_threads_mixed)
{
	struct inc_ctx c[10];
	int fd2 = open_dev(_metadata, 0, O_RDWR);
	int i;

	/* 2 x 1000 x (+3 OP, +3 pwrite, -1 OP, -1 pwrite, +1 batch) = 10000 */
	for (i = 0; i < 10; i++)
		c[i] = (struct inc_ctx){ .fd = i % 2 ? fd2 : self->fd,
					 .kind = i % 5, .index = 62,
					 .amount = i % 5 < 2 ? 3 : 1,
					 .iters = 1000 };
	c[4].amount = 1;
	c[9].amount = 1;
	run_incs(_metadata, c, 10);
	EXPECT_EQ(10000, sem_get(_metadata, self->fd, 62));
	close(fd2);
}

TEST_F(core, conc_processes_inc)
{
	pid_t pid[4];
	int i, j;

	for (i = 0; i < 4; i++) {
		pid[i] = fork();
		ASSERT_LE(0, pid[i]);
		if (pid[i] == 0) {
			int fd = open(DEV0, O_RDWR | O_CLOEXEC);

			if (fd < 0)
				_exit(2);
			for (j = 0; j < CONC_ITERS; j++) {
				if (j % 2 ? wr32(fd, SEM_INC(63), 1) :
				    do_op(fd, SEM, NCSYNC_OP_INC, 63, 1, NULL))
					_exit(1);
			}
			_exit(0);
		}
	}
	for (i = 0; i < 4; i++) {
		EXPECT_EQ(0, reap(pid[i])) TH_LOG("child %d", i);
	}
	EXPECT_EQ(4 * CONC_ITERS, sem_get(_metadata, self->fd, 63));
}

/* Two threads hand a token back and forth; any lost wake-up times out. */
struct pingpong {
	pthread_t th;
	int fd;
	int parity;
	int rounds;
	bool events;
	int err;
	int at;
};

#define PP_SEM		70
#define PP_EVT_A	70
#define PP_EVT_B	71

static void *pingpong_main(void *arg)
{
	struct pingpong *p = arg;
	__s32 res = 0;
	int i, r = 0;

	for (i = 0; i < p->rounds && !r; i++) {
		if (!p->events) {
			__s32 want = 2 * i + p->parity;

			r = do_wait(p->fd, SEM, NCSYNC_WAIT_SEM_EQ, PP_SEM,
				    want, LONG_MS, &res);
			if (!r && res != want)
				r = -EPROTO;
			if (!r)
				r = do_op(p->fd, SEM, NCSYNC_OP_INC, PP_SEM, 1,
					  NULL);
		} else if (p->parity) {
			r = do_wait(p->fd, EVENT,
				    NCSYNC_WAIT_EVT_SET_THEN_CLEAR, PP_EVT_A, 0,
				    LONG_MS, NULL);
			if (!r)
				r = do_op(p->fd, EVENT, NCSYNC_OP_SET, PP_EVT_B,
					  0, NULL);
		} else {
			r = do_op(p->fd, EVENT, NCSYNC_OP_SET, PP_EVT_A, 0,
				  NULL);
			if (!r)
				r = do_wait(p->fd, EVENT,
					    NCSYNC_WAIT_EVT_SET_THEN_CLEAR,
					    PP_EVT_B, 0, LONG_MS, NULL);
		}
		p->at = i;
	}
	p->err = r;
	/* wake the partner (ECANCELED) rather than let it time out */
	if (r)
		do_reset(p->fd, 0, 0);
	return NULL;
}

static void run_pingpong(struct __test_metadata *_metadata, int fd,
			 bool events, int rounds)
{
	struct pingpong p[2];
	int i;

	for (i = 0; i < 2; i++) {
		p[i] = (struct pingpong){ .fd = fd, .parity = i,
					  .rounds = rounds, .events = events };
		ASSERT_EQ(0, pthread_create(&p[i].th, NULL, pingpong_main,
					    &p[i]));
	}
	for (i = 0; i < 2; i++)
		pthread_join(p[i].th, NULL);
	for (i = 0; i < 2; i++) {
		EXPECT_EQ(0, p[i].err) TH_LOG("thread %d round %d: %s", i,
					      p[i].at, strerror(-p[i].err));
	}
}

TEST_F(core, conc_pingpong_sem)
{
	run_pingpong(_metadata, self->fd, false, 1000);
	EXPECT_EQ(2000, sem_get(_metadata, self->fd, PP_SEM));
}

TEST_F(core, conc_pingpong_event)
{
	struct ncsync_stats s0, s1;

	stats_get(_metadata, self->fd, &s0);
	run_pingpong(_metadata, self->fd, true, 1000);
	stats_get(_metadata, self->fd, &s1);
	EXPECT_EQ(0, evt_get(_metadata, self->fd, PP_EVT_A));
	EXPECT_EQ(0, evt_get(_metadata, self->fd, PP_EVT_B));
	/* every set found its event clear: each one was consumed in time */
	EXPECT_EQ(s0.event_set_while_set, s1.event_set_while_set);
}

struct prodcons {
	int fd;
	int n;
	int err;
};

static void *producer_main(void *arg)
{
	struct prodcons *pc = arg;
	int i, r;

	for (i = 0; i < pc->n; i++) {
		r = do_op(pc->fd, SEM, NCSYNC_OP_INC, 80, 1, NULL);
		if (r) {
			pc->err = r;
			break;
		}
		if (i % 64 == 0)
			sched_yield();
	}
	return NULL;
}

TEST_F(core, conc_producer_consumer)
{
	struct prodcons pc = { .fd = self->fd, .n = 2000 };
	struct ncsync_op op;
	int got = 0, r = 0;
	pthread_t th;
	__s32 res;

	ASSERT_EQ(0, pthread_create(&th, NULL, producer_main, &pc));
	while (got < pc.n) {
		r = do_wait(self->fd, SEM, NCSYNC_WAIT_SEM_GE, 80, 1, LONG_MS,
			    &res);
		if (r)
			break;
		if (res < 1) {
			r = -EPROTO;
			break;
		}
		op = mkop(SEM, NCSYNC_OP_DEC, 80, 1);
		r = do_batch(self->fd, &op, 1, 0);
		if (r)
			break;
		if (op.before < 1) {
			r = -ERANGE;
			break;
		}
		got++;
	}
	pthread_join(th, NULL);
	EXPECT_EQ(0, r) TH_LOG("consumer stopped after %d: %s", got,
			       strerror(-r));
	EXPECT_EQ(0, pc.err);
	EXPECT_EQ(pc.n, got);
	EXPECT_EQ(0, sem_get(_metadata, self->fd, 80));
}

/* ---------------------------------------------------------------------- */
/* The module stays while a descriptor is open.  Last: it must not unload. */

TEST_F(core, zz_module_busy_while_open)
{
	FILE *f = fopen("/sys/module/ncsync/refcnt", "re");
	long refcnt = -1;
	int ret;

	if (!f)
		SKIP(return, "no /sys/module/ncsync/refcnt");
	if (fscanf(f, "%ld", &refcnt) != 1)
		refcnt = -1;
	fclose(f);
	/* with refcnt 0 delete_module would succeed: do not try it */
	ASSERT_LT(0, refcnt) TH_LOG("module refcount %ld with %s open",
				    refcnt, DEV0);
	ret = syscall(SYS_delete_module, "ncsync", O_NONBLOCK);
	if (ret == -1 && errno == EPERM)
		SKIP(return, "delete_module needs CAP_SYS_MODULE");
	ASSERT_EQ(-1, ret) TH_LOG("ncsync was unloaded!");
	EXPECT_TRUE(errno == EWOULDBLOCK || errno == EBUSY)
		TH_LOG("delete_module: %s", strerror(errno));
}

TEST_HARNESS_MAIN
