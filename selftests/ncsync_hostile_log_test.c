// SPDX-License-Identifier: GPL-2.0
/*
 * Hostile watchdog reports (ncsync_hostile.h): the kernel log reports are
 * rate-limited, and each report left out is counted
 * (ncsync_stats.log_suppressed).
 *
 * Run inside the test VM:  tools/vm-run build/selftests/ncsync_hostile_log_test
 */
#include "ncsync_hostile.h"

/* ---------------------------------------------------------------------- */
/* 5. The rate-limited kernel log                                          */

/* Watchdog headers of core 0, programs @first..@last, in one record. */
static int headers_in(const char *text, __u32 first, __u32 last)
{
	static const char head[] = "ncsync: core 0 program ";
	const char *p = text;
	int n = 0;
	__u32 id;
	int end;

	while ((p = strstr(p, head))) {
		p += strlen(head);
		end = 0;
		if (sscanf(p, "%u timed out: no progress for %n", &id,
			   &end) == 1 && end && id >= first && id <= last)
			n++;
	}
	return n;
}

/* The watchdog headers in the kernel log records after @kmsg's position. */
static int headers_logged(int kmsg, __u32 first, __u32 last)
{
	static char buf[8192];
	int n = 0;

	for (;;) {
		ssize_t len = read(kmsg, buf, sizeof(buf) - 1);

		if (len < 0 && errno == EPIPE)
			continue;	/* records were overwritten */
		if (len <= 0)
			return n;	/* EAGAIN: no more */
		buf[len] = 0;
		n += headers_in(buf, first, last);
	}
}

/*
 * NWATCHDOG programs in a row time out (one engine blocked on a wait,
 * watchdog 1 ms).  At most LOG_BURST reports per LOG_INTERVAL_S reach the
 * kernel log (one interval more for the boundary), and those printed and
 * those counted in log_suppressed make NWATCHDOG.
 */
TEST_F_TIMEOUT(hostile, watchdog_log_rate_limited, 120)
{
	int kmsg = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	struct ncsync_stats st0, st1;
	__u32 first = 0, id = 0;
	int i, printed, timed_out = 0;
	long suppressed, allowed;
	struct rec r[2];
	__s64 t0;

	ASSERT_LE(0, kmsg) TH_LOG("/dev/kmsg: %s", strerror(errno));
	ASSERT_LE(0, lseek(kmsg, 0, SEEK_END));
	ASSERT_EQ(0, ioctl(self->fd, NCSYNC_IOC_STATS, &st0));
	recs_blocker(r, 2, 30);
	t0 = now_ns();
	for (i = 0; i < NWATCHDOG; i++) {
		id = submit_ok(_metadata, self->fd, &engine_sp, 1, r, 2, 1);
		first = first ?: id;
	}
	for (id = first; id < first + NWATCHDOG; id++) {
		timed_out += wait_end(_metadata, self->fd, id) ==
			     NCSYNC_PROG_TIMED_OUT;
	}
	ASSERT_EQ(0, ioctl(self->fd, NCSYNC_IOC_STATS, &st1));
	allowed = LOG_BURST *
		  (2 + (now_ns() - t0) / (LOG_INTERVAL_S * NSEC_PER_SEC));
	printed = headers_logged(kmsg, first, first + NWATCHDOG - 1);
	close(kmsg);
	suppressed = st1.log_suppressed - st0.log_suppressed;

	ASSERT_EQ(NWATCHDOG, timed_out);
	EXPECT_EQ(NWATCHDOG, printed + suppressed)
		TH_LOG("%d reports printed, %ld counted as suppressed",
		       printed, suppressed);
	EXPECT_GE(allowed, printed)
		TH_LOG("%d of %d reports printed: no rate limit", printed,
		       NWATCHDOG);
}

TEST_HARNESS_MAIN
