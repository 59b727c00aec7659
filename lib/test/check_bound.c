// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * ncsync_check(): an addition and a subtraction of one semaphore commute
 * in the reduction only where no run can overflow it (lib/src/
 * check_bound.c; Documentation/ncsync/check.rst, "The reduction",
 * *Additions against subtractions*).  Each program here overflows only
 * when the addition comes first: a reduction that let pool's subtraction,
 * its first step, go first alone would never see the overflow.  The
 * bound counts every run of a loop's records (its passes skipped alike):
 * 128 passes overflow, 127 do not; and the landings of copies, on the
 * core they land on.  Nor does an addition commute with a wait for >=
 * there: wrapped, it makes the wait fail for ever.
 */
#include <stdio.h>

#include "check_test.h"

/*
 * pool subtracts @sub once; act adds @add @passes times.  From @init,
 * the overflow is reachable when @init + @passes * @add > INT32_MAX.
 */
static char *ck_race(unsigned int sub, unsigned int add, unsigned int passes)
{
	static char text[512];

	snprintf(text, sizeof(text),
		 "core 0\nengine pool\n\tnop then sem[1] -= %u\n"
		 "engine act\n\tmovi r1, 0\n"
		 "l:\tnop then sem[1] += %u\n\taddi r1, r1, 1\n"
		 "\tbr.lt.u32 r1, %u, l\n", sub, add, passes);
	return text;
}

/*
 * Check @text ("core N" statements, each lowered for two cores) from
 * sem[1] = @init on every core, under @flags: its defect kinds, ~0U if
 * the check failed or was cut short.
 */
static unsigned int ck_kinds_of(const char *text, int32_t init,
				uint32_t flags)
{
	struct ncsync_asm_part parts[NCSYNC_MAX_LNC];
	struct ncsync_check_result *res = NULL;
	struct ncsync_asm_error err;
	struct ncsync_check_opts o;
	unsigned int k = ~0U;
	int i, n = ck_build_cores(text, parts, &err);

	TAP_CHECK(n > 0, "build: %d at %u:%u: %s", n, err.line, err.col,
		  err.msg);
	ncsync_check_opts_init(&o);
	o.sems[1] = init;
	o.flags = flags;
	if (n > 0 && !ncsync_check_cores(parts, n, &o, &res) &&
	    ncsync_check_complete(res))
		k = ck_kinds(res);
	ncsync_check_free(res);
	for (i = 0; i < n; i++)
		ncsync_program_free(parts[i].prog);
	return k;
}

/* @text from sem[1] = @init finds the kinds @want in every mode. */
static void ck_case(const char *name, const char *text, int32_t init,
		    unsigned int want)
{
	static const uint32_t flags[] = {
		0, NCSYNC_CHECK_F_NO_ACCEL,
		NCSYNC_CHECK_F_NO_ACCEL | NCSYNC_CHECK_F_NO_SYMMETRY,
	};
	unsigned int i, k;

	for (i = 0; i < sizeof(flags) / sizeof(flags[0]); i++) {
		k = ck_kinds_of(text, init, flags[i]);
		TAP_CHECK(k == want, "%s (flags %#x): kinds %#x, want %#x",
			  name, flags[i], k, want);
	}
}

#define OVF	(1U << NCSYNC_DEFECT_OVERFLOW)

int main(void)
{
	ck_case("one addition of 3 from INT32_MAX - 1, a subtraction of 5",
		ck_race(5, 3, 1), INT32_MAX - 1, OVF);
	ck_case("the same from INT32_MAX - 3: never overflows",
		ck_race(5, 3, 1), INT32_MAX - 3, 0);
	ck_case("a subtraction of 5 from INT32_MIN + 4, an addition of 3",
		"core 0\nengine pool\n\tnop then sem[1] += 3\n"
		"engine act\n\tnop then sem[1] -= 5\n", INT32_MIN + 4, OVF);
	ck_case("128 passes adding 2^24 from 0, a subtraction of 2^30",
		ck_race(1U << 30, 1U << 24, 128), 0, OVF);
	ck_case("127 passes of them: never overflows",
		ck_race(1U << 30, 1U << 24, 127), 0, 0);
	ck_case("64 passes adding 2^25 from 2^24 - 1: overflows",
		ck_race(1U << 30, 1U << 25, 64), (1 << 24) - 1, OVF);
	ck_case("two copies landing sem[1]++ from INT32_MAX - 1",
		"core 0\nengine pool\n\tnop then sem[1] -= 5\n"
		"engine act\n\tdma 0x0, 0x100, 4 on_land sem[1]++\n"
		"\tdma 0x200, 0x300, 4 on_land sem[1]++\n", INT32_MAX - 1,
		OVF);
	ck_case("the same landing on the peer core",
		"core 0\nengine pool\n\tnop then sem[1] -= 5\n"
		"core 1\nengine act\n"
		"\tdma 0x0, 0x100, 4, peer=0 on_land sem[1]++\n"
		"\tdma 0x200, 0x300, 4, peer=0 on_land sem[1]++\n",
		INT32_MAX - 1, OVF);
	ck_case("a wait for >= 1 that sem[1] += 3 from INT32_MAX - 1 wraps below",
		"core 0\nengine pool\n\tnop wait sem[1] >= 1\n"
		"engine act\n\tnop then sem[1] += 3\n", INT32_MAX - 1,
		OVF | 1U << NCSYNC_DEFECT_DEADLOCK);
	return tap_done();
}
