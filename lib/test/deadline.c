// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * ncsync_deadline_after(): now + ns, normalised, saturated at both ends.
 */
#include <stdint.h>
#include <time.h>

#include "ncsync.h"
#include "tap.h"

#define NSEC_PER_SEC	1000000000LL

static int64_t ts_ns(const struct timespec *ts)
{
	return (int64_t)ts->tv_sec * NSEC_PER_SEC + ts->tv_nsec;
}

static int normalised(const struct timespec *ts)
{
	return ts->tv_sec >= 0 && ts->tv_nsec >= 0 &&
	       ts->tv_nsec < NSEC_PER_SEC;
}

/* ncsync_deadline_after(@ns) lies between now + @ns before and after. */
static void check_offset(int64_t ns)
{
	struct timespec before, after, ts;

	clock_gettime(CLOCK_MONOTONIC, &before);
	ncsync_deadline_after(&ts, ns);
	clock_gettime(CLOCK_MONOTONIC, &after);
	TAP_CHECK(normalised(&ts) && ts_ns(&ts) >= ts_ns(&before) + ns &&
		  ts_ns(&ts) <= ts_ns(&after) + ns,
		  "now %+lld ns: normalised, within the call", (long long)ns);
}

int main(void)
{
	static const int64_t offsets[] = {
		0, 1, 999999999, 1000000000, 1000000001, 1999999999,
		3600 * NSEC_PER_SEC + 123, -1, -999999999,
	};
	struct timespec now, ts;
	unsigned int i;

	for (i = 0; i < sizeof(offsets) / sizeof(offsets[0]); i++)
		check_offset(offsets[i]);

	clock_gettime(CLOCK_MONOTONIC, &now);
	/* more than has passed since boot: the earliest time, 0 */
	ncsync_deadline_after(&ts, -(ts_ns(&now) + 5 * NSEC_PER_SEC));
	TAP_CHECK(ts.tv_sec == 0 && ts.tv_nsec == 0,
		  "a negative offset beyond boot gives 0, not a negative time");
	ncsync_deadline_after(&ts, INT64_MIN);
	TAP_CHECK(ts.tv_sec == 0 && ts.tv_nsec == 0, "INT64_MIN gives 0");

	ncsync_deadline_after(&ts, INT64_MAX);
	TAP_CHECK(normalised(&ts) && ts.tv_sec >= INT64_MAX / NSEC_PER_SEC,
		  "INT64_MAX: normalised, about 292 years from now");
	ncsync_deadline_after(&ts, INT64_MAX - 1);
	TAP_CHECK(normalised(&ts), "INT64_MAX - 1: normalised");
	return tap_done();
}
