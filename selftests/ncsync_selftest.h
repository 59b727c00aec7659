/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the ncsync selftests: time, deadlines, waiting for a
 * program to end or for a thread to block in a system call, the module's
 * parameters, private device nodes, and fixture variants made at run
 * time; and the choice of tests on the command line (ncsync_harness.h).
 * Include after <linux/ncsync.h> and "kselftest_harness.h".
 */
#ifndef NCSYNC_SELFTEST_H
#define NCSYNC_SELFTEST_H

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#include "ncsync_harness.h"

#ifndef NSEC_PER_SEC
#define NSEC_PER_SEC	1000000000LL
#endif
#ifndef NSEC_PER_MSEC
#define NSEC_PER_MSEC	1000000LL
#endif

/* CLOCK_MONOTONIC now, in nanoseconds. */
static inline __s64 now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (__s64)ts.tv_sec * NSEC_PER_SEC + ts.tv_nsec;
}

/* @ns nanoseconds of CLOCK_MONOTONIC as the ABI's timespec. */
static inline struct ncsync_timespec ts_of(__s64 ns)
{
	struct ncsync_timespec ts = {
		.tv_sec = ns / NSEC_PER_SEC,
		.tv_nsec = ns % NSEC_PER_SEC,
	};

	return ts;
}

/* The absolute deadline @ms milliseconds from now. */
static inline struct ncsync_timespec deadline_ms(int ms)
{
	return ts_of(now_ns() + (__s64)ms * NSEC_PER_MSEC);
}

/*
 * Wait up to @ms for program @id to end: 0 and its state in *@state, or
 * -errno and 0 there.
 */
static inline int prog_wait(int fd, __u32 id, int ms, __u32 *state)
{
	struct ncsync_prog_wait pw = { .id = id, .deadline = deadline_ms(ms) };

	*state = 0;
	if (ioctl(fd, NCSYNC_IOC_PROG_WAIT, &pw))
		return -errno;
	*state = pw.state;
	return 0;
}

/*
 * The status of program @id (NCSYNC_IOC_PROG_STATUS with @flags), its
 * semaphores into @sems (NULL: none): 0 or -errno.
 */
static inline int prog_status(int fd, __u32 id, __u32 flags,
			      struct ncsync_prog_status *ps,
			      struct ncsync_sem_value *sems)
{
	memset(ps, 0, sizeof(*ps));
	ps->id = id;
	ps->flags = flags;
	ps->sems = (uintptr_t)sems;
	return ioctl(fd, NCSYNC_IOC_PROG_STATUS, ps) ? -errno : 0;
}

#define NCSYNC_PARAMS	"/sys/module/ncsync/parameters/"

/* A module parameter's value, or -1 when the module does not have it. */
static inline long ncsync_param(const char *name)
{
	char path[128], buf[32];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), NCSYNC_PARAMS "%s", name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = 0;
	return strtol(buf, NULL, 10);
}

#define NCSYNC_DEV0	"/dev/ncsync0"

/* Open /dev/ncsync0 read-write into *@fd, then reset core 0. */
static inline void core0_open_reset(struct __test_metadata *_metadata,
				    int *fd)
{
	struct ncsync_reset r = { 0 };

	*fd = open(NCSYNC_DEV0, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, *fd) TH_LOG("open %s: %s", NCSYNC_DEV0, strerror(errno));
	ASSERT_EQ(0, ioctl(*fd, NCSYNC_IOC_RESET, &r))
		TH_LOG("RESET: %s", strerror(errno));
}

/*
 * The "core" fixture: self->fd is /dev/ncsync0 open read-write, core 0
 * freshly reset before each test.  A selftest that wants it says
 * NCSYNC_CORE_FIXTURE() once.
 */
#define NCSYNC_CORE_FIXTURE()						\
FIXTURE(core) {								\
	int fd;								\
};									\
									\
FIXTURE_SETUP(core)							\
{									\
	core0_open_reset(_metadata, &self->fd);				\
}									\
									\
FIXTURE_TEARDOWN(core)							\
{									\
	if (self->fd >= 0)						\
		close(self->fd);					\
}

/*
 * A device node of core @core in a fresh directory under /tmp, mode 0666,
 * for a test that opens it as another user: @dir (64 bytes) and @node (96
 * bytes) receive their paths; the test removes both.
 */
static inline void ncsync_private_node(struct __test_metadata *_metadata,
				       unsigned int core, char *dir,
				       char *node)
{
	struct stat st;

	snprintf(node, 96, "/dev/ncsync%u", core);
	ASSERT_EQ(0, stat(node, &st));
	strcpy(dir, "/tmp/ncsync-selftest.XXXXXX");
	ASSERT_NE(NULL, mkdtemp(dir)) TH_LOG("mkdtemp: %s", strerror(errno));
	ASSERT_EQ(0, chmod(dir, 0755));
	snprintf(node, 96, "%s/ncsync%u", dir, core);
	ASSERT_EQ(0, mknod(node, S_IFCHR | 0600, st.st_rdev))
		TH_LOG("mknod %s: %s", node, strerror(errno));
	ASSERT_EQ(0, chmod(node, 0666));
}

static inline void sleep_ms(int ms)
{
	usleep(ms * 1000);
}

static inline pid_t my_tid(void)
{
	return (pid_t)syscall(SYS_gettid);
}

/*
 * Best effort: wait until task @tid of process @pid sleeps inside syscall
 * @nr (seen twice in a row in /proc/PID/task/TID/syscall), so that a
 * wake-up test really wakes a sleeper.  Without procfs, give the task
 * 200 ms.  Gives up after about 20 s.
 */
static inline bool await_blocked(pid_t pid, pid_t tid, long nr)
{
	char path[64], buf[160];
	int seen = 0, i;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/syscall", pid, tid);
	for (i = 0; i < 10000; i++) {
		int fd = open(path, O_RDONLY | O_CLOEXEC);
		ssize_t n;

		if (fd < 0) {
			sleep_ms(200);
			return false;
		}
		n = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		if (n > 0 && buf[0] >= '0' && buf[0] <= '9') {
			buf[n] = 0;
			if (strtol(buf, NULL, 10) == nr) {
				if (++seen >= 2)
					return true;
			} else {
				seen = 0;
			}
		} else {
			seen = 0;
		}
		sleep_ms(2);
	}
	return false;
}

/*
 * Register the @n variants @m of fixture @f, in their order: what
 * FIXTURE_VARIANT_ADD() does for one variant written out, for variants
 * made from a table (call it from a constructor).  The harness builds its
 * lists in the order its constructors run, whichever it is.
 */
static inline void register_variants(struct __fixture_metadata *f,
				     struct __fixture_variant_metadata *m,
				     unsigned int n)
{
	bool forward = __constructor_order == _CONSTRUCTOR_ORDER_FORWARD;
	unsigned int i;

	for (i = 0; i < n; i++)
		__register_fixture_variant(f, &m[forward ? i : n - 1 - i]);
}

#endif /* NCSYNC_SELFTEST_H */
