// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * ncsync_check(): each limit that ends a search is named in the result
 * (ncsync_check_limit()), and there is no other: a schedule deeper than
 * the 65536 steps of the bound the search once had is explored to its
 * end within the memory limit, and a smaller memory limit ends the same
 * search with the limit "memory"; 65 copies in flight at once, reached
 * only by one order of the issues and landings, end it with "copies".
 */
#include <stdio.h>

#include "check_test.h"

/* One engine counting to @n: a schedule of 2 * @n + 2 steps, no branch. */
static char *ck_counter(unsigned int n)
{
	static char text[128];

	snprintf(text, sizeof(text),
		 "engine pool\n\tmovi r1, 0\nloop:\taddi r1, r1, 1\n"
		 "\tbr.lt.u32 r1, %u, loop\n", n);
	return text;
}

/* Check @text with @o; the result's verdict and limit, and its states. */
static void ck_limit_case(const char *name, const char *text,
			  const struct ncsync_check_opts *o,
			  enum ncsync_check_verdict verdict,
			  enum ncsync_check_limit limit)
{
	struct ncsync_program *p = ck_build(text, NCSYNC_LOWER_COUNTER);
	struct ncsync_check_result *res = NULL;
	struct ncsync_check_opts po;
	int ret;

	if (!p)
		return;
	/* The limits of the search pass by pass (check_accel.c has its own). */
	po = *o;
	po.flags |= NCSYNC_CHECK_F_NO_ACCEL;
	ret = ncsync_check(p, &po, &res);
	TAP_CHECK(!ret && ncsync_check_verdict(res) == verdict &&
		  ncsync_check_limit(res) == limit &&
		  ncsync_check_complete(res) ==
		  (limit == NCSYNC_CHECK_LIMIT_NONE),
		  "%s: %d, verdict %d, limit %s, %llu states", name, ret,
		  ncsync_check_verdict(res),
		  ncsync_check_limit_name(ncsync_check_limit(res)),
		  (unsigned long long)ncsync_check_states(res));
	ncsync_check_free(res);
	ncsync_program_free(p);
}

/*
 * 40 copies in flight on each of two engines: 80, more than it follows.
 * Each copy races with the one before it too.
 */
static const char copies[] =
	"engine pool\n\tmovi r1, 0\n"
	"l:\tdma 0x0, 0x1000, 64\n\taddi r1, r1, 1\n\tbr.lt.u32 r1, 40, l\n"
	"engine act\n\tmovi r1, 0\n"
	"l:\tdma 0x2000, 0x3000, 64\n\taddi r1, r1, 1\n\tbr.lt.u32 r1, 40, l\n";

/*
 * Engines pool and act issue @a and @b copies that race with none, with
 * no Drain: all in flight at once only where every issue comes before
 * the landings.  The reduction lets such copies commute only where the
 * records bound the copies in flight below the limit (check_dma.c): with
 * @a + @b = 65 a search that let them commute would land each copy before
 * the next issue and never reach the limit.
 */
static char *ck_spread(unsigned int a, unsigned int b)
{
	static char text[8192];
	size_t n = 0;
	unsigned int i;

	n += snprintf(text + n, sizeof(text) - n, "engine pool\n");
	for (i = 0; i < a + b; i++) {
		if (i == a)
			n += snprintf(text + n, sizeof(text) - n,
				      "engine act\n");
		n += snprintf(text + n, sizeof(text) - n,
			      "\tdma 0x%x, 0x%x, 4\n", 8 * i, 0x1000 + 8 * i);
	}
	return text;
}

int main(void)
{
	struct ncsync_check_opts o;

	ncsync_check_opts_init(&o);
	TAP_CHECK(o.max_memory_mb == 0 && !o.reserved,
		  "the default memory limit is 0, NCSYNC_CHECK_MAX_MEMORY_MB");
	TAP_CHECK(!strcmp(ncsync_check_limit_name(NCSYNC_CHECK_LIMIT_NONE),
			  "none") &&
		  !strcmp(ncsync_check_limit_name(NCSYNC_CHECK_LIMIT_MEMORY),
			  "memory") &&
		  !ncsync_check_limit_name(NCSYNC_CHECK_LIMITS),
		  "the limits' names");
	ck_limit_case("a schedule of 66002 steps, default limits",
		      ck_counter(33000), &o, NCSYNC_CHECK_SAFE,
		      NCSYNC_CHECK_LIMIT_NONE);
	o.max_states = 1000;
	ck_limit_case("1000 states at most", ck_counter(33000), &o,
		      NCSYNC_CHECK_INCONCLUSIVE, NCSYNC_CHECK_LIMIT_STATES);
	o.max_states = 0;
	o.max_memory_mb = 16;
	ck_limit_case("16 MiB at most", ck_counter(33000), &o,
		      NCSYNC_CHECK_INCONCLUSIVE, NCSYNC_CHECK_LIMIT_MEMORY);
	o.max_memory_mb = 0;
	ck_limit_case("80 copies in flight", copies, &o,
		      NCSYNC_CHECK_DEFECT, NCSYNC_CHECK_LIMIT_COPIES);
	ck_limit_case("33 and 32 copies that race with none, no Drain",
		      ck_spread(33, 32), &o, NCSYNC_CHECK_INCONCLUSIVE,
		      NCSYNC_CHECK_LIMIT_COPIES);
	ck_limit_case("32 and 32 of them: safe",
		      ck_spread(32, 32), &o, NCSYNC_CHECK_SAFE,
		      NCSYNC_CHECK_LIMIT_NONE);
	o.max_states = 0;
	o.timeout_ms = 1;
	ck_limit_case("1 ms at most, on a search of millions of states",
		      "engine pool\n\tmovi r1, 0\n"
		      "l:\taddi r1, r1, 1\n\tbr.ne.u32 r1, 0, l\n",
		      &o, NCSYNC_CHECK_INCONCLUSIVE, NCSYNC_CHECK_LIMIT_TIME);
	return tap_done();
}
