// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * ck_accel_finite(), the test that every run of a program is finite, on
 * which a verdict by induction over a loop's passes rests
 * (Documentation/ncsync/check.rst, "Waits that never pass"): loops it must
 * accept (forward branches in the body on both sides of the counter's
 * step, nested loops, loops sharing a head, a branch in from before the
 * loop), loops it must refuse (a forward branch that skips the step, a
 * second write of the counter on one path, a branch into the body from a
 * loop that crosses it, a branch back inside the body around the step);
 * and, end to end, a program whose crossing loops run for ever keeps its
 * unposted wait, and a loop whose counter steps after forward branches is
 * proved by induction.
 */
#include <errno.h>
#include <stdio.h>

#include "check.h"
#include "check_test.h"

/* ck_accel_finite() of @text's program (one core, counter lowering). */
static int ends(const char *text)
{
	struct ncsync_asm_part part = { .core = 0 };
	struct ck_prog cp;
	int ret = -EINVAL;

	part.prog = ck_build(text, NCSYNC_LOWER_COUNTER);
	if (part.prog && !ck_prog_init(&cp, &part, 1, false, NULL, NULL)) {
		ret = ck_accel_finite(NULL, &cp);
		ck_prog_fini(&cp);
	}
	ncsync_program_free(part.prog);
	return ret;
}

static const struct {
	const char *what;
	const char *text;
	int want;
} cases[] = {
	{ "a counted loop", "engine pool\n\tmovi r1, 0\ntop:\tnop\n"
	  "\taddi r1, r1, 1\n\tbr.lt.u32 r1, 10, top\n", 1 },
	{ "forward branches before the step, landing before it",
	  "engine pool\n\tmovi r1, 0\ntop:\tbr.eq.u32 r2, 0, mid\n\tnop\n"
	  "mid:\tbr.ne.u32 r3, 4, step\n\tnop then sem[1]++\n\tbr step\n"
	  "step:\taddi r1, r1, 1\n\tbr.lt.u32 r1, 10, top\n", 1 },
	{ "an if-else after the step",
	  "engine pool\n\tmovi r1, 0\ntop:\taddi r1, r1, 1\n"
	  "\tbr.eq.u32 r2, 0, else\n\tnop\n\tbr end\nelse:\tnop then sem[1]++\n"
	  "end:\tbr.lt.u32 r1, 10, top\n", 1 },
	{ "a loop that exits early (break)",
	  "engine pool\n\tmovi r1, 0\ntop:\tbr.eq.u32 r2, 1, out\n"
	  "\taddi r1, r1, 1\n\tbr.lt.u32 r1, 10, top\nout:\tnop\n", 1 },
	{ "a counter that goes down",
	  "engine pool\n\tmovi r1, 9\ntop:\tnop\n\tsubi r1, r1, 3\n"
	  "\tbr.gt.s32 r1, 0, top\n", 1 },
	{ "nested loops, the inner one's counter set in the outer body",
	  "engine pool\n\tmovi r1, 0\nout:\tmovi r2, 0\nin:\tnop\n"
	  "\taddi r2, r2, 1\n\tbr.lt.u32 r2, 3, in\n\taddi r1, r1, 1\n"
	  "\tbr.lt.u32 r1, 4, out\n", 1 },
	{ "two loops with one head, the step after the inner branch",
	  "engine pool\ntop:\taddi r2, r2, 1\n\tbr.lt.u32 r2, 3, top\n"
	  "\taddi r1, r1, 1\n\tbr.lt.u32 r1, 4, top\n", 1 },
	{ "a forward branch from before the loop into its body",
	  "engine pool\n\tbr.eq.u32 r2, 0, in\ntop:\taddi r1, r1, 1\n"
	  "in:\tnop\n\tbr.lt.u32 r1, 10, top\n", 1 },
	{ "barriers (their epochs' branches) between head and step",
	  "engine pool\n\tmovi r1, 0\nengine act\n\tmovi r1, 0\n"
	  "engine pool\ntop:\tnop then sem[2]++\nengine act\ntop:\tnop\n"
	  "barrier\nengine pool\n\tnop\nengine act\n\tnop\nbarrier\n"
	  "engine pool\n\taddi r1, r1, 1\n\tbr.lt.u32 r1, 5, top\n"
	  "engine act\n\taddi r1, r1, 1\n\tbr.lt.u32 r1, 5, top\n", 1 },
	{ "a forward branch that skips the step",
	  "engine pool\n\tmovi r1, 0\ntop:\tbr.eq.u32 r2, 0, skip\n"
	  "\taddi r1, r1, 1\nskip:\tbr.lt.u32 r1, 10, top\n", 0 },
	{ "a second write of the counter on one path",
	  "engine pool\n\tmovi r1, 0\ntop:\taddi r1, r1, 1\n"
	  "\tbr.eq.u32 r2, 0, skip\n\tmovi r1, 0\nskip:\tbr.lt.u32 r1, 10, top\n",
	  0 },
	{ "two steps on every path",
	  "engine pool\ntop:\taddi r1, r1, 1\n\tsubi r1, r1, 1\n"
	  "\tbr.lt.u32 r1, 10, top\n", 0 },
	{ "a branch into the body from a loop that crosses it",
	  "engine pool\na:\tmovi r2, 0\n\taddi r1, r1, 1\nb:\taddi r2, r2, 1\n"
	  "\tbr.lt.u32 r1, 3, a\n\tmovi r1, 0\n\tbr.lt.u32 r2, 3, b\n", 0 },
	{ "a branch back inside the body around the step",
	  "engine pool\n\tmovi r1, 0\nout:\tmovi r2, 0\nin:\taddi r1, r1, 1\n"
	  "\taddi r2, r2, 1\n\tbr.lt.u32 r2, 3, in\n\tbr.lt.u32 r1, 30, out\n",
	  0 },
	{ "an endless loop inside a counted one",
	  "engine pool\ntop:\taddi r1, r1, 1\nspin:\tnop\n\tbr spin\n"
	  "\tbr.lt.u32 r1, 10, top\n", 0 },
	{ "a loop on br.ne, which may wrap",
	  "engine pool\ntop:\taddi r1, r1, 2\n\tbr.ne.u32 r1, 7, top\n", 0 },
	{ "a bound too near the end of the range",
	  "engine pool\ntop:\taddi r1, r1, 1\n\tbr.lt.u32 r1, 0xFFFFFFF0, top\n",
	  0 },
};

static void test_cases(void)
{
	unsigned int i;
	int got;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		got = ends(cases[i].text);
		TAP_CHECK(got == cases[i].want, "%s: %s (%d)", cases[i].what,
			  cases[i].want ? "every run ends" : "refused", got);
	}
}

/*
 * End to end.  Two crossing loops whose counters pass each one's own
 * test, and that run for ever (each resets the other's counter outside
 * the other's body), while sem[1] counts up by 2 and act waits for it to
 * be 3: the wait never passes, and the search, pass by pass, cannot end
 * (sem[1] grows for ever): inconclusive.  A verdict by induction, which
 * needs every run to end, would call it safe (the test before
 * 2026-12-06, which did not ask the loops to nest, did).  And a
 * loop whose counter steps after forward branches (its barriers' epochs)
 * is proved by induction, safe.
 */
static void test_end_to_end(void)
{
	static const char crossing[] =
		"engine pool\na:\tmovi r2, 0\n\taddi r1, r1, 1\n"
		"b:\taddi r2, r2, 1\n\tnop then sem[1] += 2\n"
		"\tbr.lt.u32 r1, 3, a\n\tmovi r1, 0\n\tbr.lt.u32 r2, 3, b\n"
		"engine act\n\tnop wait sem[1] == 3\n";
	static const char epochs[] =
		"engine pool\n\tmovi r1, 0\nengine act\n\tmovi r1, 0\n"
		"engine pool\ntop:\tnop then sem[2]++\n"
		"engine act\ntop:\tnop wait sem[2] >= r1\nbarrier\n"
		"engine pool\n\taddi r1, r1, 1\n\tbr.lt.u32 r1, 500, top\n"
		"engine act\n\taddi r1, r1, 1\n\tbr.lt.u32 r1, 500, top\n";
	struct ncsync_check_result *res = NULL;
	struct ncsync_check_accel a = { 0 };
	struct ncsync_check_opts o;
	struct ncsync_program *p;

	ncsync_check_opts_init(&o);
	o.max_states = 20000;
	p = ck_build(crossing, NCSYNC_LOWER_COUNTER);
	if (p && ncsync_check(p, &o, &res))
		res = NULL;
	TAP_CHECK(ends(crossing) == 0 && res &&
		  ncsync_check_verdict(res) == NCSYNC_CHECK_INCONCLUSIVE,
		  "crossing loops that run for ever: refused, and act's wait for an odd value of an ever growing even counter is not called safe");
	ncsync_check_free(res);
	ncsync_program_free(p);
	res = NULL;
	ncsync_check_opts_init(&o);
	p = ck_build(epochs, NCSYNC_LOWER_COUNTER);
	if (p && ncsync_check(p, &o, &res))
		res = NULL;
	if (res)
		ncsync_check_accel(res, &a);
	TAP_CHECK(ends(epochs) == 1 && res &&
		  ncsync_check_verdict(res) == NCSYNC_CHECK_SAFE &&
		  a.status == NCSYNC_ACCEL_APPLIED,
		  "a loop of 500 passes whose counter steps after its barrier's branches: safe by induction");
	ncsync_check_free(res);
	ncsync_program_free(p);
}

int main(void)
{
	test_cases();
	test_end_to_end();
	return tap_done();
}
