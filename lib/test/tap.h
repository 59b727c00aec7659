/* SPDX-License-Identifier: LGPL-2.1-or-later OR MIT */
/*
 * Minimal TAP output for the library's host tests: one binary per
 * behaviour, each printing "ok N - ..." or "not ok N - ..." lines.
 */
#ifndef NCSYNC_TEST_TAP_H
#define NCSYNC_TEST_TAP_H

#include <stdio.h>

static int tap_n, tap_failed;

#define TAP_CHECK(cond, ...) do {					\
	tap_n++;							\
	if (cond) {							\
		printf("ok %d - ", tap_n);				\
	} else {							\
		printf("not ok %d - %s:%d: %s: ", tap_n, __FILE__,	\
		       __LINE__, #cond);				\
		tap_failed++;						\
	}								\
	printf(__VA_ARGS__);						\
	printf("\n");							\
} while (0)

static inline int tap_done(void)
{
	printf("1..%d\n", tap_n);
	return tap_failed ? 1 : 0;
}

#endif /* NCSYNC_TEST_TAP_H */
