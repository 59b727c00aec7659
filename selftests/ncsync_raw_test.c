// SPDX-License-Identifier: GPL-2.0
/*
 * ncsync_raw_test: the CSR window of /dev/ncsyncN checked from
 * Documentation/ncsync/model.rst ("The CSR window") alone, with plain pread/pwrite/mmap and no project header.
 * Prints TAP; exits 1 when a check failed.
 *
 * Run inside the test VM:  tools/vm-run build/selftests/ncsync_raw_test
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* Documentation/ncsync/model.rst, "The CSR window" */
#define EVENTS		0x0000		/* events[256]: 0/1; !0 sets, 0 clears */
#define RESERVED	0x0400		/* 0x0400-0x0FFF: reads 0, refused */
#define SEM_READ	0x1000		/* value; writes refused */
#define SEM_SET		0x1400		/* value; value = w */
#define SEM_INC		0x1800		/* value; value += w */
#define SEM_DEC		0x1C00		/* value; value -= w */
#define WINDOW		0x2000
#define NREG		256
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

#define EVT(i)		(EVENTS + 4 * (i))
#define RD(i)		(SEM_READ + 4 * (i))
#define SET(i)		(SEM_SET + 4 * (i))
#define INC(i)		(SEM_INC + 4 * (i))
#define DEC(i)		(SEM_DEC + 4 * (i))

static int test_num;
static int failures;
static bool cur_failed;

static void diag(const char *fmt, ...)
{
	va_list ap;

	printf("# ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

#define CHECK(cond, ...) do {						\
		if (!(cond)) {						\
			diag("%s:%d: %s", __FILE__, __LINE__, #cond);	\
			diag(__VA_ARGS__);				\
			cur_failed = true;				\
		}							\
	} while (0)

static void result(const char *name)
{
	test_num++;
	printf("%sok %d %s\n", cur_failed ? "not " : "", test_num, name);
	fflush(stdout);
	if (cur_failed)
		failures++;
	cur_failed = false;
}

static void skip(const char *name, const char *why)
{
	test_num++;
	printf("ok %d %s # SKIP %s\n", test_num, name, why);
	fflush(stdout);
	cur_failed = false;
}

static int fd0 = -1, fd1 = -1;

/* 0 when all @len bytes moved, else -errno */
static int rd(int fd, void *buf, size_t len, off_t off)
{
	ssize_t n = pread(fd, buf, len, off);

	return n < 0 ? -errno : (size_t)n == len ? 0 : -EIO;
}

static int wr(int fd, const void *buf, size_t len, off_t off)
{
	ssize_t n = pwrite(fd, buf, len, off);

	return n < 0 ? -errno : (size_t)n == len ? 0 : -EIO;
}

static int wr32(int fd, off_t off, uint32_t v)
{
	return wr(fd, &v, 4, off);
}

static uint32_t rd32(int fd, off_t off)
{
	uint32_t v = 0xdeadbeef;
	int r = rd(fd, &v, 4, off);

	CHECK(r == 0, "pread @%#lx: %s", (long)off, strerror(-r));
	return v;
}

/* Bring a core to all-zero with plain writes: set window and events. */
static void zero_core(int fd)
{
	static const uint32_t z[NREG];
	int r;

	r = wr(fd, z, sizeof(z), SEM_SET);
	CHECK(r == 0, "zero sems: %s", strerror(-r));
	r = wr(fd, z, sizeof(z), EVENTS);
	CHECK(r == 0, "zero events: %s", strerror(-r));
}

/* Non-trivial contents, so that a wrongly applied write shows. */
static void pattern(int fd)
{
	uint32_t v[NREG];
	int i, r;

	for (i = 0; i < NREG; i++)
		v[i] = 0x1000u * i + 7;
	r = wr(fd, v, sizeof(v), SEM_SET);
	CHECK(r == 0, "writing sems: %s", strerror(-r));
	for (i = 0; i < NREG; i++)
		v[i] = i & 1;
	r = wr(fd, v, sizeof(v), EVENTS);
	CHECK(r == 0, "writing events: %s", strerror(-r));
}

static void window(int fd, uint32_t *w)
{
	int r = rd(fd, w, WINDOW, 0);

	CHECK(r == 0, "pread of the whole window: %s", strerror(-r));
}

static void same_window(int fd, const uint32_t *before, const char *what)
{
	static uint32_t now[WINDOW / 4];
	int i;

	window(fd, now);
	for (i = 0; i < WINDOW / 4; i++) {
		if (before[i] != now[i]) {
			CHECK(before[i] == now[i],
			      "%s: @%#x changed %#x -> %#x", what, i * 4,
			      before[i], now[i]);
			return;
		}
	}
}

static void t_window_layout(void)
{
	static uint32_t w[WINDOW / 4];
	int i;

	zero_core(fd0);
	window(fd0, w);
	for (i = 0; i < WINDOW / 4; i++)
		if (w[i])
			break;
	CHECK(i == WINDOW / 4, "zeroed core reads %#x at %#x", w[i], i * 4);

	pattern(fd0);
	window(fd0, w);
	for (i = 0; i < NREG; i++) {
		uint32_t v = 0x1000u * i + 7;

		CHECK(w[EVT(i) / 4] == (uint32_t)(i & 1), "event %d", i);
		CHECK(w[RD(i) / 4] == v, "read window %d", i);
		CHECK(w[SET(i) / 4] == v, "set window reads value %d", i);
		CHECK(w[INC(i) / 4] == v, "inc window reads value %d", i);
		CHECK(w[DEC(i) / 4] == v, "dec window reads value %d", i);
		if (cur_failed)
			break;
	}
	for (i = RESERVED / 4; i < SEM_READ / 4; i++)
		if (w[i])
			break;
	CHECK(i == SEM_READ / 4, "reserved reads %#x at %#x", w[i], i * 4);
	result("window_layout");
}

static void t_events(void)
{
	zero_core(fd0);
	CHECK(wr32(fd0, EVT(5), 1) == 0, "set event 5");
	CHECK(rd32(fd0, EVT(5)) == 1, "event 5 reads 1");
	CHECK(wr32(fd0, EVT(5), 0) == 0, "clear event 5");
	CHECK(rd32(fd0, EVT(5)) == 0, "event 5 reads 0");
	CHECK(wr32(fd0, EVT(5), 0xA5A5A5A5u) == 0, "set event 5");
	CHECK(rd32(fd0, EVT(5)) == 1, "any non-zero sets: reads 1");
	CHECK(wr32(fd0, EVT(255), 0x80000000u) == 0, "set event 255");
	CHECK(rd32(fd0, EVT(255)) == 1, "event 255 reads 1");
	CHECK(rd32(fd0, EVT(4)) == 0 && rd32(fd0, EVT(6)) == 0,
	      "neighbours of event 5 untouched");
	result("events_set_clear");
}

static void t_sem_windows(void)
{
	zero_core(fd0);
	CHECK(wr32(fd0, SET(3), (uint32_t)-5) == 0, "set -5");
	CHECK((int32_t)rd32(fd0, RD(3)) == -5, "signed value -5");
	CHECK(wr32(fd0, INC(3), 8) == 0, "inc 8");
	CHECK(rd32(fd0, RD(3)) == 3, "-5 + 8 = 3");
	CHECK(wr32(fd0, DEC(3), 10) == 0, "dec 10");
	CHECK((int32_t)rd32(fd0, RD(3)) == -7, "3 - 10 = -7");
	CHECK(rd32(fd0, SET(3)) == (uint32_t)-7 &&
	      rd32(fd0, INC(3)) == (uint32_t)-7 &&
	      rd32(fd0, DEC(3)) == (uint32_t)-7,
	      "set/inc/dec windows read the value");
	CHECK(rd32(fd0, RD(2)) == 0 && rd32(fd0, RD(4)) == 0,
	      "neighbours untouched");
	result("sem_set_inc_dec");

	CHECK(wr32(fd0, SET(9), 0x7FFFFFFF) == 0, "set INT_MAX");
	CHECK(wr32(fd0, INC(9), 1) == 0, "inc 1");
	CHECK(rd32(fd0, RD(9)) == 0x80000000u, "INT_MAX + 1 wraps");
	CHECK(wr32(fd0, DEC(9), 1) == 0, "dec 1");
	CHECK(rd32(fd0, RD(9)) == 0x7FFFFFFFu, "INT_MIN - 1 wraps");
	CHECK(wr32(fd0, SET(9), 0) == 0, "set 0");
	CHECK(wr32(fd0, DEC(9), 1) == 0, "dec 1");
	CHECK(rd32(fd0, RD(9)) == 0xFFFFFFFFu, "0 - 1 = -1");
	CHECK(wr32(fd0, INC(9), 0xFFFFFFFFu) == 0, "inc 2^32 - 1");
	CHECK(rd32(fd0, RD(9)) == 0xFFFFFFFEu, "mod 2^32");
	result("sem_wraps_mod_2_32");
}

static void t_refusals(void)
{
	static uint32_t before[WINDOW / 4];
	static uint32_t buf[WINDOW / 4 + 16];
	static const struct { off_t off; size_t len; } bad[] = {
		{ 1, 4 }, { 2, 4 }, { 0x1402, 4 }, { 0x1803, 8 },	/* align */
		{ 0x1800, 1 }, { 0x1800, 2 }, { 0x1800, 6 }, { 0, 3 },	/* len */
		{ 0x2000, 4 }, { 0x1FFC, 8 }, { 0x3000, 4 },		/* range */
		{ 0x1400, 0xC04 }, { 0, 0x2004 },
		{ RD(0), 4 }, { RD(255), 4 }, { SEM_READ, 0x400 },	/* read */
		{ RD(255), 8 }, { 0x0FFC, 8 },
		{ RESERVED, 4 }, { 0x800, 4 }, { 0xFFC, 4 },		/* rsvd */
		{ EVT(255), 8 }, { 0, 0x404 }, { 0, WINDOW },
	};
	unsigned int i;
	int r;

	pattern(fd0);
	window(fd0, before);
	memset(buf, 0, sizeof(buf));	/* zeros would clear/set */
	buf[1] = 1;
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		r = wr(fd0, buf, bad[i].len, bad[i].off);
		CHECK(r == -EINVAL, "pwrite %zu @%#lx: %d, want -EINVAL",
		      bad[i].len, (long)bad[i].off, r);
	}
	same_window(fd0, before, "refused writes");
	result("write_refusals_change_nothing");

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		bool ok = bad[i].off % 4 == 0 && bad[i].len % 4 == 0 &&
			  bad[i].off + bad[i].len <= WINDOW;

		r = rd(fd0, buf, bad[i].len, bad[i].off);
		CHECK(r == (ok ? 0 : -EINVAL), "pread %zu @%#lx: %d",
		      bad[i].len, (long)bad[i].off, r);
	}
	result("read_rules");
}

static void t_multi_register(void)
{
	static uint32_t buf[0xC00 / 4];
	int i;

	zero_core(fd0);
	for (i = 0; i < NREG; i++) {
		buf[i] = 1000 + i;	/* set */
		buf[NREG + i] = 3 * i;	/* inc */
		buf[2 * NREG + i] = i;	/* dec */
	}
	CHECK(wr(fd0, buf, sizeof(buf), SEM_SET) == 0, "0xC00-byte write");
	for (i = 0; i < NREG; i++) {
		CHECK(rd32(fd0, RD(i)) == (uint32_t)(1000 + 3 * i),
		      "sem %d: set, inc, dec in ascending order", i);
		if (cur_failed)
			break;
	}
	buf[0] = 2;
	buf[1] = 3;
	CHECK(wr(fd0, buf, 8, INC(10)) == 0, "8 bytes at inc(10)");
	CHECK(rd32(fd0, RD(10)) == 1000 + 30 + 2 && rd32(fd0, RD(11)) ==
	      1000 + 33 + 3, "incs sems 10 and 11");
	CHECK(rd32(fd0, RD(12)) == 1000 + 36, "sem 12 untouched");
	result("multi_register_ascending");
}

static void t_independent(void)
{
	if (fd1 < 0) {
		skip("cores_independent", "no /dev/ncsync1");
		return;
	}
	zero_core(fd0);
	zero_core(fd1);
	CHECK(wr32(fd0, SET(7), 77) == 0, "core 0 set");
	CHECK(wr32(fd0, EVT(7), 1) == 0, "core 0 event");
	CHECK(wr32(fd1, INC(8), 5) == 0, "core 1 inc");
	CHECK(rd32(fd1, RD(7)) == 0, "core 1 sem 7 still 0");
	CHECK(rd32(fd1, EVT(7)) == 0, "core 1 event 7 still 0");
	CHECK(rd32(fd0, RD(8)) == 0, "core 0 sem 8 still 0");
	CHECK(rd32(fd0, RD(7)) == 77 && rd32(fd1, RD(8)) == 5,
	      "own updates visible");
	zero_core(fd1);
	result("cores_independent");
}

static void t_mmap(void)
{
	volatile uint32_t *m;
	void *p;

	zero_core(fd0);
	m = mmap(NULL, WINDOW, PROT_READ, MAP_SHARED, fd0, 0);
	CHECK(m != MAP_FAILED, "mmap: %s", strerror(errno));
	if (m == MAP_FAILED) {
		result("mmap_live_view");
		return;
	}
	CHECK(wr32(fd0, SET(20), 1234) == 0, "set");
	CHECK(m[RD(20) / 4] == 1234, "semaphore read window live");
	CHECK(wr32(fd0, EVT(20), 1) == 0, "event");
	CHECK(m[EVT(20) / 4] == 1, "event window live");
	CHECK(wr32(fd0, DEC(20), 1234) == 0, "dec");
	CHECK(m[RD(20) / 4] == 0, "sem back to 0");
	CHECK(m[RESERVED / 4] == 0, "reserved reads 0");
	result("mmap_live_view");

	CHECK(mprotect((void *)m, WINDOW, PROT_READ | PROT_WRITE) == -1,
	      "mprotect cannot add PROT_WRITE");
	munmap((void *)m, WINDOW);
	p = mmap(NULL, WINDOW, PROT_READ | PROT_WRITE, MAP_SHARED, fd0, 0);
	CHECK(p == MAP_FAILED, "PROT_WRITE mapping refused");
	if (p != MAP_FAILED)
		munmap(p, WINDOW);
	result("mmap_read_only");
}

static void t_rdonly(void)
{
	static uint32_t before[WINDOW / 4];
	int ro = open("/dev/ncsync0", O_RDONLY | O_CLOEXEC);
	uint32_t v;

	CHECK(ro >= 0, "open O_RDONLY: %s", strerror(errno));
	if (ro < 0) {
		result("rdonly_changes_nothing");
		return;
	}
	pattern(fd0);
	window(fd0, before);
	CHECK(rd(ro, &v, 4, RD(1)) == 0 && v == 0x1007, "read-only can read");
	CHECK(wr32(ro, INC(1), 1) < 0, "read-only write refused");
	CHECK(wr32(ro, EVT(0), 1) < 0, "read-only write refused");
	same_window(fd0, before, "read-only writes");
	close(ro);
	result("rdonly_changes_nothing");
}

int main(void)
{
	printf("TAP version 13\n1..11\n");
	fflush(stdout);
	fd0 = open("/dev/ncsync0", O_RDWR | O_CLOEXEC);
	if (fd0 < 0) {
		printf("Bail out! open /dev/ncsync0: %s\n", strerror(errno));
		return 1;
	}
	fd1 = open("/dev/ncsync1", O_RDWR | O_CLOEXEC);

	t_window_layout();
	t_events();
	t_sem_windows();		/* 2 results */
	t_refusals();			/* 2 results */
	t_multi_register();
	t_independent();
	t_mmap();			/* 2 results */
	t_rdonly();

	zero_core(fd0);
	if (test_num != 11)
		diag("planned 11 tests, ran %d", test_num);
	diag("%d of %d tests failed", failures, test_num);
	return failures || test_num != 11 ? 1 : 0;
}
