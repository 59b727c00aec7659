// SPDX-License-Identifier: GPL-2.0
/*
 * ncsync selftests of the tracepoints and the debugfs file
 * (Documentation/ncsync/tracing.rst), with the helpers of ncsync_netlink.h.
 *
 * Run inside the test VM, as root:
 *	tools/vm-run build/selftests/ncsync_trace_test
 */
#include "ncsync_netlink.h"

/* Write @s to the file @path; 0 or -errno. */
static int write_file(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, s, strlen(s));
	close(fd);
	return n == (ssize_t)strlen(s) ? 0 : -errno;
}

/* Read the file @path into a malloc'd string (NULL on error). */
static char *read_file(const char *path)
{
	size_t len = 0, cap = 65536;
	char *buf = malloc(cap);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0 || !buf) {
		if (fd >= 0)
			close(fd);
		free(buf);
		return NULL;
	}
	for (;;) {
		if (cap - len < 4096) {
			char *p = realloc(buf, cap * 2);

			if (!p)
				break;
			buf = p;
			cap *= 2;
		}
		n = read(fd, buf + len, cap - len - 1);
		if (n <= 0)
			break;
		len += n;
	}
	close(fd);
	buf[len] = '\0';
	return buf;
}

/* ---------------------------------------------------------------------- */
/* Tracepoints and debugfs                                                 */

static const char * const tracepoints[] = {
	"ncsync_exec", "ncsync_wait_begin", "ncsync_wait_end", "ncsync_wake",
	"ncsync_dma_issue", "ncsync_dma_land",
};

FIXTURE(trace) {
	int fd;
	bool enabled;
};

FIXTURE_SETUP(trace)
{
	struct ncsync_reset rst = { 0 };

	self->fd = open(DEV0, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, self->fd) TH_LOG("open %s: %s", DEV0, strerror(errno));
	ASSERT_EQ(0, ioctl(self->fd, NCSYNC_IOC_RESET, &rst));
}

FIXTURE_TEARDOWN(trace)
{
	if (self->enabled) {
		EXPECT_EQ(0, write_file(TRACEFS "/events/ncsync/enable", "0"));
		EXPECT_EQ(0, write_file(TRACEFS "/trace", ""));
	}
	if (self->fd >= 0)
		close(self->fd);
}

TEST_F(trace, tracepoints_exist)
{
	char path[128];
	unsigned int i;

	if (access(TRACEFS "/events", F_OK))
		SKIP(return, "no tracefs at " TRACEFS);
	for (i = 0; i < ARRAY_SIZE(tracepoints); i++) {
		snprintf(path, sizeof(path), TRACEFS "/events/ncsync/%s/format",
			 tracepoints[i]);
		EXPECT_EQ(0, access(path, R_OK)) TH_LOG("%s", path);
	}
}

/* Clear the trace and enable every ncsync event; false: skipped. */
static bool trace_on(struct __test_metadata *_metadata,
		     FIXTURE_DATA(trace) *self)
{
	if (access(TRACEFS "/events/ncsync", F_OK))
		SKIP(return false, "no tracefs at " TRACEFS);
	EXPECT_EQ(0, write_file(TRACEFS "/trace", ""));
	EXPECT_EQ(0, write_file(TRACEFS "/events/ncsync/enable", "1"));
	self->enabled = true;
	return _metadata->passed;
}

/* A program that waits, is woken by a pwrite, then exits. */
TEST_F(trace, tracepoints_record_a_program)
{
	const int s = 70;
	char want[160], *trace;
	struct rec_prog p = {};
	struct rec_queue *q;
	__u32 id;

	if (!trace_on(_metadata, self))
		return;

	q = rec_prog_queue(&p, NCSYNC_ENGINE_POOL);
	rec_noop(q, W_GE, s, 0, 0, 2);
	rec_exit(q);
	id = submit_ok(_metadata, self->fd, &p, 0, WD_LONG);
	wait_blocked(_metadata, self->fd, id, 0);
	ASSERT_EQ(0, pwrite32(self->fd, SEM_SET(s), 3));
	ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->fd, id));
	ASSERT_EQ(0, write_file(TRACEFS "/events/ncsync/enable", "0"));

	trace = read_file(TRACEFS "/trace");
	ASSERT_NE(NULL, trace);
	snprintf(want, sizeof(want),
		 "ncsync_exec: core=0 engine=1 prog=%u pc=0 op=0xa4", id);
	EXPECT_NE(NULL, strstr(trace, want)) TH_LOG("no \"%s\"", want);
	snprintf(want, sizeof(want),
		 "ncsync_exec: core=0 engine=1 prog=%u pc=1 op=0xdf", id);
	EXPECT_NE(NULL, strstr(trace, want)) TH_LOG("no \"%s\"", want);
	snprintf(want, sizeof(want),
		 "ncsync_wait_begin: core=0 engine=1 prog=%u pc=0 kind=1 mode=0x05 index=%d threshold=2 current=0",
		 id, s);
	EXPECT_NE(NULL, strstr(trace, want)) TH_LOG("no \"%s\"", want);
	snprintf(want, sizeof(want),
		 "ncsync_wait_end: core=0 engine=1 prog=%u pc=0 passed=1", id);
	EXPECT_NE(NULL, strstr(trace, want)) TH_LOG("no \"%s\"", want);
	EXPECT_NE(NULL, strstr(trace, "ncsync_wake: core=0 seq="));
	free(trace);

	/* disabled: nothing more is recorded */
	ASSERT_EQ(0, write_file(TRACEFS "/trace", ""));
	rec_prog_free(&p);
	rec_exit(rec_prog_queue(&p, NCSYNC_ENGINE_POOL));
	id = submit_ok(_metadata, self->fd, &p, 0, WD_LONG);
	ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->fd, id));
	trace = read_file(TRACEFS "/trace");
	ASSERT_NE(NULL, trace);
	EXPECT_EQ(NULL, strstr(trace, "ncsync_exec:"));
	free(trace);
	rec_prog_free(&p);
}

/*
 * A copy, issued by pool's record 1 and drained: ncsync_dma_issue names
 * its record, number, size, latency and completion, ncsync_dma_land its
 * landing and the completion applied.
 */
TEST_F(trace, tracepoints_record_a_copy)
{
	const int s = 71;
	char want[200], *trace;
	struct rec_prog p = {};
	struct rec_queue *q;
	__u32 id;

	if (!trace_on(_metadata, self))
		return;

	q = rec_prog_queue(&p, NCSYNC_ENGINE_POOL);
	rec_noop(q, 0, 0, 0, 0, 0);
	rec_dma(q, 0, 0x40, 64, 3, 0x13, s);	/* on_land sem[s]++ */
	rec_drain(q);
	rec_exit(q);
	id = submit_ok(_metadata, self->fd, &p, 0, WD_LONG);
	ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->fd, id));
	ASSERT_EQ(0, write_file(TRACEFS "/events/ncsync/enable", "0"));

	trace = read_file(TRACEFS "/trace");
	ASSERT_NE(NULL, trace);
	snprintf(want, sizeof(want),
		 "ncsync_dma_issue: core=0 engine=1 prog=%u pc=1 copy=0 len=64 latency=3 to=0 upd=1 bank=0 index=%d",
		 id, s);
	EXPECT_NE(NULL, strstr(trace, want)) TH_LOG("no \"%s\"", want);
	snprintf(want, sizeof(want),
		 "ncsync_dma_land: core=0 engine=1 prog=%u copy=0 to=0 landed=1 updated=1",
		 id);
	EXPECT_NE(NULL, strstr(trace, want)) TH_LOG("no \"%s\"", want);
	free(trace);
	rec_prog_free(&p);
}

TEST_F(trace, debugfs_shows_banks)
{
	char *text, want[64];
	int fd1;

	if (access(DEBUGFS_CORE0, R_OK))
		SKIP(return, "no %s (debugfs not mounted?)", DEBUGFS_CORE0);
	ASSERT_EQ(0, pwrite32(self->fd, SEM_SET(17), 12345));
	ASSERT_EQ(0, pwrite32(self->fd, SEM_SET(201), -3));
	ASSERT_EQ(0, pwrite32(self->fd, EVT(9), 1));

	text = read_file(DEBUGFS_CORE0);
	ASSERT_NE(NULL, text);
	EXPECT_EQ(text, strstr(text, "core 0\n"));
	EXPECT_NE(NULL, strstr(text, "semaphores: [17]=12345 [201]=-3\n"))
		TH_LOG("%s", text);
	EXPECT_NE(NULL, strstr(text, "events set: 9\n")) TH_LOG("%s", text);
	snprintf(want, sizeof(want), "seq %llu ",
		 (unsigned long long)core_seq(_metadata, self->fd));
	EXPECT_EQ(text + strlen("core 0\n"), strstr(text, want))
		TH_LOG("%s", text);
	free(text);

	/* core 1's file is its own */
	fd1 = open("/sys/kernel/debug/ncsync/core1", O_RDONLY | O_CLOEXEC);
	if (fd1 >= 0) {
		close(fd1);
		text = read_file("/sys/kernel/debug/ncsync/core1");
		ASSERT_NE(NULL, text);
		EXPECT_EQ(text, strstr(text, "core 1\n"));
		EXPECT_EQ(NULL, strstr(text, "[17]=12345"));
		free(text);
	}
}

/*
 * GET_CORE with more programs than fit one message: the reply still comes,
 * lists the programs that fit, in order, and carries NCSYNC_A_TRUNCATED.
 */
TEST_F(nl, get_core_many_programs_truncated)
{
	static const __u8 e[] = { 1, 2, 3, 5, 6 };
	const int s = 90, nq = 40;
	struct ncsync_msg m;
	struct rec_prog p = {};
	struct reply r;
	unsigned int k;
	int i, ret;
	__u32 id0;

	for (k = 0; k < NCSYNC_NUM_ENGINES; k++)
		rec_noop(rec_prog_queue(&p, e[k]), W_EQ, s, 0, 0, 1);
	id0 = submit_ok(_metadata, self->fd, &p, 0, WD_LONG);
	wait_blocked(_metadata, self->fd, id0, 0);
	for (i = 0; i < nq; i++) {
		rec_prog_free(&p);
		for (k = 0; k < NCSYNC_NUM_ENGINES; k++)
			rec_exit(rec_prog_queue(&p, e[k]));
		submit_ok(_metadata, self->fd, &p, 0, WD_LONG);
	}
	ret = get_core(self->req, self->fam, 0, &r);
	EXPECT_EQ(0, ret) TH_LOG("GET_CORE with %d programs: %d (%s)", nq + 1,
				 ret, strerror(-ret));
	if (!ret) {
		parse_msg(_metadata, r.msg, &m);
		EXPECT_NE(0U, m.present & BIT_A(NCSYNC_A_TRUNCATED));
		EXPECT_LT(0, m.nprogs);
		EXPECT_GT(nq + 1, m.nprogs);
		EXPECT_EQ(id0, m.progs[0].id);
	}
	reply_free(&r);
	ASSERT_EQ(0, pwrite32(self->fd, SEM_SET(s), 1));
	ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->fd, id0));
	rec_prog_free(&p);
}

TEST_HARNESS_MAIN
