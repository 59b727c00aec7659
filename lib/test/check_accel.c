// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * The loop acceleration of ncsync_check() (Documentation/ncsync/check.rst,
 * "Loops of any trip count") is sound: on random looped programs with
 * small trip counts it reaches the verdict and the defect kinds of the
 * search without it (NCSYNC_CHECK_F_NO_ACCEL); a defect at any pass of a
 * loop is found; programs it must not prove (absolute writes, constants
 * compared with a shifted semaphore, wrap-around, a counter nothing
 * compares) get the plain search's answer; so do programs across cores;
 * a defect reached only by an order that a future cut on the classes past
 * a branch on a shifted counter would prune is found (test_cut_on_classes());
 * so is one that a class's futures taken on its representative's path
 * alone would prune (test_class_rows()), and one on a pass that a path
 * skipping passes would jump over (test_path_skip());
 * random looped programs of interchangeable engines get the same verdict
 * and kinds by induction with symmetry, without it and pass by pass, in
 * both lowerings of their barriers; and examples/barrier-loop.s is safe
 * at 20, 1000 and 1000000 passes in the same number of states, fewer
 * than without symmetry, and by induction with event barriers too.
 */
#include <stdio.h>

#include "check.h"
#include "check_test.h"

#ifndef NCSYNC_TEST_TOP
#define NCSYNC_TEST_TOP "."
#endif

static uint64_t rng = 0xD1B54A32D192ED03ULL;

static unsigned int rnd(unsigned int n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (unsigned int)(rng >> 11) % n;
}

/* How check_text() lowers the barriers of a program. */
static enum ncsync_barrier_lowering lowering = NCSYNC_LOWER_COUNTER;

static unsigned int kinds_of(const struct ncsync_check_result *res)
{
	unsigned int i, k = 0;

	for (i = 0; i < ncsync_check_ndefects(res); i++)
		k |= 1U << ncsync_check_defect(res, i)->kind;
	return k;
}

/* One check of @text's program; NULL if it does not build or check. */
static struct ncsync_check_result *check_text(const char *text, bool accel,
					      uint64_t max_states,
					      const struct ncsync_check_opts *base)
{
	struct ncsync_check_result *res = NULL;
	struct ncsync_check_opts o;
	struct ncsync_program *p;

	p = ck_build(text, lowering);
	if (!p)
		return NULL;
	if (base)
		o = *base;
	else
		ncsync_check_opts_init(&o);
	o.max_states = max_states;
	o.flags |= accel ? 0 : NCSYNC_CHECK_F_NO_ACCEL;
	if (ncsync_check(p, &o, &res))
		res = NULL;
	ncsync_program_free(p);
	return res;
}

static uint32_t accel_status(const struct ncsync_check_result *res)
{
	struct ncsync_check_accel a;

	return ncsync_check_accel(res, &a) ? ~0U : a.status;
}

/*
 * Whether the accelerated result @ra agrees with the plain one @rp: 1; 0
 * if not (a verdict or a defect kind the plain search does not have); 2
 * when the accelerated one was cut short by a limit where the plain one
 * was not, and found nothing the plain one does not; -1 when the plain
 * search was cut short (not compared).
 */
static int same_result(const char *text,
		       const struct ncsync_check_result *ra,
		       const struct ncsync_check_result *rp)
{
	unsigned int ka = ra ? kinds_of(ra) : 0, kp = rp ? kinds_of(rp) : 0;
	int same;

	if (!ra || !rp)
		same = 0;
	else if (!ncsync_check_complete(rp))
		same = -1;
	else if (ka & ~kp)
		same = 0;
	else if (!ncsync_check_complete(ra))
		same = ncsync_check_verdict(ra) == NCSYNC_CHECK_SAFE ? 0 : 2;
	else
		same = ncsync_check_verdict(ra) == ncsync_check_verdict(rp) &&
		       ka == kp;
	if (same == 0)
		printf("# differs (accelerated %d/%x, plain %d/%x):\n%s",
		       ra ? (int)ncsync_check_verdict(ra) : -1, ka,
		       rp ? (int)ncsync_check_verdict(rp) : -1, kp, text);
	return same;
}

/*
 * Whether the accelerated check of @text agrees with the plain one
 * (same_result()).  *@applied: whether the acceleration gave the verdict.
 */
static int agree(const char *text, const struct ncsync_check_opts *base,
		 bool *applied)
{
	struct ncsync_check_result *ra, *rp;
	int same;

	ra = check_text(text, true, 200000, base);
	rp = check_text(text, false, 200000, base);
	*applied = ra && accel_status(ra) == NCSYNC_ACCEL_APPLIED;
	same = same_result(text, ra, rp);
	ncsync_check_free(ra);
	ncsync_check_free(rp);
	return same;
}

static const char *const body_menu[] = {
	"nop then sem[%u]++", "nop then sem[%u] += 2", "nop then sem[%u]--",
	"nop wait sem[%u] >= r2", "nop wait sem[%u] <= r3",
	"nop wait sem[%u] > 0 then sem[%u]--", "nop wait sem[%u] >= 1",
	"addi r2, r2, 1", "addi r3, r3, 1", "nop then sem[%u] += r4",
	"nop then ev[%u] set", "nop wait ev[%u] set_then_clear",
	"br.eq.u32 r1, %u, top", "nop wait sem[%u] == 1",
	"nop then sem[%u] = 2", "nop wait sem[%u] < 4",
	"dma 0x%x, 0x40, 64, latency=1 on_land sem[%u]++", "drain",
	"br.eq.u32 r4, 0, step",
};

static void body_line(char *buf, size_t len)
{
	unsigned int m = rnd(sizeof(body_menu) / sizeof(body_menu[0]));
	unsigned int a = 1 + rnd(3);

	if (m == 5)
		snprintf(buf, len, body_menu[m], a, a);
	else if (m == 16)
		snprintf(buf, len, body_menu[m], 0x40 * rnd(3), a);
	else
		snprintf(buf, len, body_menu[m], a);
}

/*
 * Lines that engines running one body can all run every pass without a
 * deadlock when a barrier separates the passes (each engine posts and
 * then waits for as many posts as passes so far), so that more of the
 * random programs of interchangeable engines are proved by induction.
 */
static const char *const twin_menu[] = {
	"nop then sem[%u]++", "nop wait sem[%u] >= r1", "addi r2, r2, 1",
	"nop then sem[%u] += r4", "nop wait sem[%u] >= 0", "drain",
	"dma 0x%x, 0x40, 64, latency=1 on_land sem[%u]++",
};

static void twin_line(char *buf, size_t len)
{
	unsigned int m = rnd(sizeof(twin_menu) / sizeof(twin_menu[0]));
	unsigned int a = 1 + rnd(3);

	if (rnd(3) == 0)
		body_line(buf, len);
	else if (m == 6)
		snprintf(buf, len, twin_menu[m], 0x40 * rnd(3), a);
	else
		snprintf(buf, len, twin_menu[m], a);
}

/*
 * A random program of 2 or 3 engines, each a counted loop of @passes
 * passes over a few random lines, with a barrier in it or not; a line may
 * be a forward branch to the counter's step, over the lines (and the
 * barrier) between.
 */
static void random_looped(char *text, size_t len, unsigned int passes)
{
	static const char *const engines[] = { "pool", "act", "pe" };
	unsigned int n = 2 + rnd(2), e, i, half, k = 1 + rnd(3);
	bool barrier = rnd(2);
	size_t off = 0;
	char line[96];

	for (e = 0; e < n; e++)
		off += snprintf(text + off, len - off,
				"engine %s\n\tmovi r1, 0\n\tmovi r4, %u\n",
				engines[e], rnd(2));
	for (half = 0; half < 2; half++) {
		for (e = 0; e < n; e++) {
			off += snprintf(text + off, len - off, "engine %s\n%s",
					engines[e], half ? "" : "top:\n");
			for (i = 0; i < k; i++) {
				body_line(line, sizeof(line));
				off += snprintf(text + off, len - off,
						"\t%s\n", line);
			}
			if (half)
				off += snprintf(text + off, len - off,
						"step:\taddi r1, r1, 1\n\tbr.lt.u32 r1, %u, top\n\tnop then sem[5]++\n",
						passes);
		}
		if (barrier && !half)
			off += snprintf(text + off, len - off, "barrier\n");
	}
}

/*
 * @n random looped programs in each lowering of their barriers: counters,
 * or one event per engine (its phase register, r30, cycles through three
 * sets of events), whose steps the reduction on the classes takes as
 * private where the futures are cut (check_path.c).
 */
static void test_random(unsigned int n)
{
	unsigned int i, same = 0, bad = 0, open = 0, applied[2] = { 0 };
	unsigned int cut = 0, ev;
	char text[4096];
	bool ap;
	int ret;

	for (i = 0; i < 2 * n; i++) {
		ev = i % 2;
		lowering = ev ? NCSYNC_LOWER_EVENTS : NCSYNC_LOWER_COUNTER;
		random_looped(text, sizeof(text), 2 + rnd(5));
		ret = agree(text, NULL, &ap);
		same += ret == 1;
		cut += ret == 2;
		open += ret < 0;
		bad += !ret;
		applied[ev] += ret == 1 && ap;
	}
	lowering = NCSYNC_LOWER_COUNTER;
	TAP_CHECK(!bad && same >= n && cut <= n / 10,
		  "%u random looped programs, both lowerings: the accelerated search has the plain one's verdict and defect kinds in %u of those that end, a limit first in %u, never a verdict or kind of its own (%u cut short pass by pass)",
		  2 * n, same, cut, open);
	/* Most random programs deadlock, and a defect is found pass by pass. */
	TAP_CHECK(applied[0] > 0 && applied[1] > 0,
		  "the acceleration gave the verdict of %u of them with counter barriers, %u with event barriers",
		  applied[0], applied[1]);
}

/*
 * A random program of 2 or 3 engines that run one body: a counted loop of
 * @passes passes over a few random lines, with a barrier in it or not;
 * with @off, the last engine has one line more.
 */
static void random_twins(char *text, size_t len, unsigned int passes,
			 bool off)
{
	static const char *const engines[] = { "act", "pe", "dve" };
	unsigned int n = 2 + rnd(2), e, i, half, k = 1 + rnd(3), r4 = rnd(2);
	char lines[2][4][96];
	bool barrier = rnd(4);
	size_t o = 0;

	for (half = 0; half < 2; half++)
		for (i = 0; i < 4; i++)
			twin_line(lines[half][i], sizeof(lines[half][i]));
	for (e = 0; e < n; e++)
		o += snprintf(text + o, len - o,
			      "engine %s\n\tmovi r1, 0\n\tmovi r4, %u\n",
			      engines[e], r4);
	for (half = 0; half < 2; half++) {
		for (e = 0; e < n; e++) {
			bool more = off && e == n - 1 && half;

			o += snprintf(text + o, len - o, "engine %s\n%s",
				      engines[e], half ? "" : "top:\n");
			for (i = 0; i < k + more; i++)
				o += snprintf(text + o, len - o, "\t%s\n",
					      lines[half][i]);
			if (half)
				o += snprintf(text + o, len - o,
					      "step:\taddi r1, r1, 1\n\tbr.lt.u32 r1, %u, top\n\tnop then sem[5]++\n",
					      passes);
		}
		if (barrier && !half)
			o += snprintf(text + o, len - o, "barrier\n");
	}
}

struct twins {
	unsigned int same, bad, open, cut, applied, merged;
	unsigned int counted, applied_ev;
	uint64_t sym, nosym;
};

/*
 * Check @text by induction with symmetry, without it, and pass by pass
 * (--no-accel, the explicit search): the same verdict and defect kinds.
 */
static void twins_agree(const char *text, struct twins *t)
{
	struct ncsync_check_result *ra, *rn, *rp;
	struct ncsync_check_symmetry sy = { 0 };
	struct ncsync_check_opts o;
	int a, b;

	ncsync_check_opts_init(&o);
	o.flags = NCSYNC_CHECK_F_NO_SYMMETRY;
	ra = check_text(text, true, 200000, NULL);
	rn = check_text(text, true, 200000, &o);
	rp = check_text(text, false, 200000, NULL);
	a = same_result(text, ra, rp);
	b = same_result(text, rn, rp);
	t->bad += !a || !b;
	t->open += a < 0;
	t->cut += a == 2 || b == 2;
	t->same += a == 1 && b == 1;
	if (a == 1 && b == 1 && accel_status(ra) == NCSYNC_ACCEL_APPLIED &&
	    accel_status(rn) == NCSYNC_ACCEL_APPLIED) {
		t->applied++;
		t->sym += ncsync_check_states(ra);
		t->nosym += ncsync_check_states(rn);
		t->merged += !ncsync_check_symmetry(ra, &sy) &&
			     sy.nclasses > 0;
	}
	ncsync_check_free(ra);
	ncsync_check_free(rn);
	ncsync_check_free(rp);
}

static void test_random_twins(unsigned int n)
{
	struct twins t = { 0 };
	char text[4096];
	unsigned int i;

	for (i = 0; i < n; i++) {
		lowering = i % 2 ? NCSYNC_LOWER_EVENTS : NCSYNC_LOWER_COUNTER;
		random_twins(text, sizeof(text), 2 + rnd(5), i % 3 == 2);
		twins_agree(text, &t);
		t.applied_ev += lowering == NCSYNC_LOWER_EVENTS &&
				t.applied > t.counted;
		t.counted = t.applied;
	}
	lowering = NCSYNC_LOWER_COUNTER;
	TAP_CHECK(!t.bad && t.same >= n / 2 && t.cut <= n / 20,
		  "%u random looped programs of interchangeable engines: by induction with symmetry, without it, and pass by pass the same verdict and defect kinds in %u (%u cut short pass by pass, %u by a limit first)",
		  n, t.same, t.open, t.cut);
	TAP_CHECK(t.merged > 0 && t.sym < t.nosym && t.applied_ev > 0,
		  "by induction on %u (%u with event barriers), with engines merged on the classes in %u: %llu states with symmetry, %llu without",
		  t.applied, t.applied_ev, t.merged, (unsigned long long)t.sym,
		  (unsigned long long)t.nosym);
}

/*
 * A loop of @passes passes on 3 engines where pool, at pass @k, waits for
 * good (unposted-wait, deadlock).
 */
static void bug_at(char *text, size_t len, unsigned int passes,
		   unsigned int k)
{
	static const char *const engines[] = { "pool", "act", "pe" };
	size_t off = 0;
	unsigned int e;

	for (e = 0; e < 3; e++) {
		off += snprintf(text + off, len - off,
				"engine %s\n\tmovi r1, 0\ntop:\n\tnop then sem[1]++\n\taddi r1, r1, 1\n",
				engines[e]);
		if (!e)
			off += snprintf(text + off, len - off,
					"\tbr.ne.u32 r1, %u, skip\n\tnop wait sem[9] == 1\nskip:\n",
					k);
		off += snprintf(text + off, len - off,
				"\tbr.lt.u32 r1, %u, top\n\texit\n", passes);
	}
}

static void test_bug_at_pass(void)
{
	static const unsigned int ks[] = { 1, 2, 3, 5, 8, 12, 13 };
	unsigned int i, found = 0, wrong = 0;
	char text[2048];
	bool ap;

	for (i = 0; i < sizeof(ks) / sizeof(ks[0]); i++) {
		struct ncsync_check_result *res;
		bool want = ks[i] <= 12;

		bug_at(text, sizeof(text), 12, ks[i]);
		res = check_text(text, true, 2000000, NULL);
		if (!res ||
		    (ncsync_check_verdict(res) == NCSYNC_CHECK_DEFECT) != want ||
		    (want && !ck_find(res, NCSYNC_DEFECT_UNPOSTED_WAIT)) ||
		    agree(text, NULL, &ap) != 1)
			wrong++;
		found += want && res &&
			 ncsync_check_verdict(res) == NCSYNC_CHECK_DEFECT;
		ncsync_check_free(res);
	}
	TAP_CHECK(!wrong && found == 6,
		  "a wait for good at pass k of 12 is found for k = 1..12 (%u), and not for k = 13, as by the plain search",
		  found);
}

/*
 * A loop on 2 engines with @line in pool's body: the accelerated verdict
 * and defect kinds are the plain search's; *@status is the acceleration's.
 */
static bool loop_with(const char *line, unsigned int passes,
		      const struct ncsync_check_opts *base,
		      uint32_t *status, unsigned int *kinds)
{
	struct ncsync_check_result *res;
	char text[2048];
	bool ap;

	snprintf(text, sizeof(text),
		 "engine pool\n\tmovi r1, 0\ntop:\n\tnop then sem[1]++\n\t%s\n\taddi r1, r1, 1\n\tbr.lt.u32 r1, %u, top\n"
		 "engine act\n\tmovi r1, 0\nl:\tnop wait sem[1] >= r1\n\taddi r1, r1, 1\n\tbr.lt.u32 r1, %u, l\n",
		 line, passes, passes);
	res = check_text(text, true, 2000000, base);
	*status = res ? accel_status(res) : ~0U;
	*kinds = res ? kinds_of(res) : ~0U;
	ncsync_check_free(res);
	return agree(text, base, &ap) == 1;
}

static void test_must_not_apply(void)
{
	struct ncsync_check_opts o;
	unsigned int kinds;
	uint32_t st;
	bool ok;

	ok = loop_with("nop then sem[2] = r1", 9, NULL, &st, &kinds);
	TAP_CHECK(ok && !kinds, "an absolute write of a shifted value: the plain verdict (safe)");
	ok = loop_with("nop then sem[1] = 0", 9, NULL, &st, &kinds);
	TAP_CHECK(ok, "an absolute write to a shifted semaphore: the plain verdict (kinds %x)",
		  kinds);
	ok = loop_with("nop wait sem[1] <= 7", 9, NULL, &st, &kinds);
	TAP_CHECK(ok && kinds, "a constant compared with a shifted semaphore: the defect the plain search finds (kinds %x)",
		  kinds);
	ok = loop_with("nop wait sem[1] <= 70", 9, NULL, &st, &kinds);
	TAP_CHECK(ok && !kinds, "a constant out of reach of a shifted semaphore: safe");
	ncsync_check_opts_init(&o);
	o.sems[1] = INT32_MAX - 5;
	ok = loop_with("nop", 9, &o, &st, &kinds);
	TAP_CHECK(ok && (kinds & 1U << NCSYNC_DEFECT_OVERFLOW),
		  "a shifted semaphore that overflows in the last passes: the overflow is found");
	o.sems[1] = 0;
	o.sems[2] = INT32_MAX - 5;
	ok = loop_with("nop then sem[2]++", 9, &o, &st, &kinds);
	TAP_CHECK(ok && (kinds & 1U << NCSYNC_DEFECT_OVERFLOW),
		  "a shifted semaphore that nothing waits on overflows in the last passes: the overflow is found");
	ok = loop_with("movi r7, 0", 9, NULL, &st, &kinds);
	TAP_CHECK(ok && !kinds, "an absolute write of an unshifted register: safe");
}

/*
 * A non-linear function of the counter (r2 = r1 >> 1, which a shift of r1
 * does not shift alike) that a wait compares: with @posts posts, a
 * deadlock at the pass where r2 passes them, found as by the plain search.
 */
static bool halves(unsigned int posts, unsigned int *kinds)
{
	struct ncsync_check_result *res;
	char text[1024];
	size_t off;
	bool ap;

	off = snprintf(text, sizeof(text),
		       "engine pool\n\tmovi r1, 0\ntop:\tshri r2, r1, 1\n\tnop wait sem[1] >= r2\n\taddi r1, r1, 1\n\tbr.lt.u32 r1, 10, top\nengine act\n");
	while (posts--)
		off += snprintf(text + off, sizeof(text) - off,
				"\tnop then sem[1]++\n");
	res = check_text(text, true, 200000, NULL);
	*kinds = res ? kinds_of(res) : ~0U;
	ncsync_check_free(res);
	return agree(text, NULL, &ap) == 1;
}

static void test_nonlinear(void)
{
	unsigned int k3, k4;
	bool ok3 = halves(3, &k3), ok4 = halves(4, &k4);

	TAP_CHECK(ok3 && (k3 & 1U << NCSYNC_DEFECT_DEADLOCK) && ok4 && !k4,
		  "a wait on r1 >> 1 of the counter: a deadlock with 3 posts, safe with 4, as by the plain search");
}

/*
 * A semaphore nothing reads, counted up by a loop of 1000 passes from
 * INT32_MAX - 500: it overflows at pass 501, in the middle of the loop,
 * where only its own overflow test cuts the line.
 */
static void test_overflow_mid_loop(void)
{
	const char *text =
		"engine pool\n\tmovi r1, 0\ntop:\n\tnop then sem[2]++\n\taddi r1, r1, 1\n\tbr.lt.u32 r1, 1000, top\n";
	struct ncsync_check_result *res;
	struct ncsync_check_opts o;
	bool ap;

	ncsync_check_opts_init(&o);
	o.sems[2] = INT32_MAX - 500;
	res = check_text(text, true, 200000, &o);
	TAP_CHECK(res && ck_find(res, NCSYNC_DEFECT_OVERFLOW) &&
		  ncsync_check_defect(res, 0)->nsteps == 1502 &&
		  agree(text, &o, &ap) == 1,
		  "an overflow at pass 501 of 1000 of a semaphore nothing reads: found, after 1502 steps");
	ncsync_check_free(res);
}

/* A loop whose counter wraps: from 0xFFFFFFF8 up to 3 through 0. */
static void test_wrap(void)
{
	const char *text =
		"engine pool\n\tmovi r1, 0xFFFFFFF8\ntop:\n\tnop then sem[1]++\n\taddi r1, r1, 1\n\tbr.ne.u32 r1, 3, top\n"
		"engine act\n\tnop wait sem[1] >= 11\n\tnop wait sem[1] <= 11\n";
	struct ncsync_check_result *res = check_text(text, true, 2000000,
						     NULL);
	bool ap;

	TAP_CHECK(res && ncsync_check_verdict(res) == NCSYNC_CHECK_SAFE &&
		  agree(text, NULL, &ap) == 1,
		  "a counter that wraps: safe, as by the plain search");
	ncsync_check_free(res);
}

/*
 * A counter that nothing compares: the acceleration gives up, says why.
 * No comparison reads it, so no branch shows its loop to end, and that
 * is decided first (check.rst, "Waits that never pass").
 */
static void test_unread_counter(void)
{
	const char *text =
		"engine pool\ntop:\n\taddi r5, r5, 1\n\tbr top\n"
		"engine act\n\tnop then sem[1]++\n";
	struct ncsync_check_result *res = check_text(text, true, 20000, NULL);
	struct ncsync_check_accel a = { 0 };

	if (res)
		ncsync_check_accel(res, &a);
	TAP_CHECK(res && a.status == NCSYNC_ACCEL_FELL_BACK && a.why &&
		  strstr(a.why, "run for ever") &&
		  ncsync_check_verdict(res) == NCSYNC_CHECK_INCONCLUSIVE,
		  "a counter no comparison reads: the plain search (%s), inconclusive",
		  a.why ? a.why : "-");
	ncsync_check_free(res);
}

/*
 * A token on ev[2], set by act and taken by pool, each pass; on its last
 * pass act sets ev[2] once more, past a branch on its counter (r1 == 6
 * after it steps), when @twice, else ev[5].  The second set finds ev[2]
 * set (an event defect) only when it comes before pool's clear: from
 * pool at the clear and act at the step of its counter, an order that
 * lets act go first.  On the classes that state's class is one from an
 * early pass to the last, and act's path from its representative takes
 * the branch the other way, to a wait that only pool releases: a cut
 * there that took that Branch (on a register the shift moves, written on
 * the path) as one way across the class, or every test as the
 * representative's, would make pool's clear private, explored alone, and
 * miss the defect.  pool is the first slot so that its step is the one
 * the reduction tries first.
 */
static void token_twice(char *text, size_t len, bool twice)
{
	snprintf(text, len,
		 "engine pool\n\tmovi r1, 0\n"
		 "top:\tnop wait ev[2] set\n\tnop then sem[4]++\n"
		 "\tnop then ev[2] clear\n\tnop then sem[3]++\n"
		 "\taddi r1, r1, 1\n\tbr.lt.u32 r1, 6, top\n"
		 "engine act\n\tmovi r1, 0\n\tmovi r2, 1\n"
		 "top:\tnop then ev[2] set\n\tnop wait sem[4] >= r2\n"
		 "\taddi r1, r1, 1\n\tbr.ne.u32 r1, 6, norm\n"
		 "\tnop then ev[%u] set\n"
		 "norm:\tnop wait sem[3] >= r2\n"
		 "\taddi r2, r2, 1\n\tbr.lt.u32 r1, 6, top\n",
		 twice ? 2 : 5);
}

/*
 * @bad's event defect found with the acceleration, as pass by pass; @ok,
 * its twin, safe by induction, as pass by pass.
 */
static void event_pair(const char *bad_text, const char *ok_text,
		       const char *bad_msg, const char *ok_msg)
{
	struct ncsync_check_result *res;
	bool ap, bad, safe;

	res = check_text(bad_text, true, 200000, NULL);
	bad = res && ncsync_check_verdict(res) == NCSYNC_CHECK_DEFECT &&
	      kinds_of(res) == 1U << NCSYNC_DEFECT_EVENT &&
	      agree(bad_text, NULL, &ap) == 1;
	ncsync_check_free(res);
	TAP_CHECK(bad, "%s", bad_msg);
	res = check_text(ok_text, true, 200000, NULL);
	safe = res && ncsync_check_verdict(res) == NCSYNC_CHECK_SAFE &&
	       agree(ok_text, NULL, &ap) == 1 && ap;
	ncsync_check_free(res);
	TAP_CHECK(safe, "%s", ok_msg);
}

/*
 * The futures cut on the classes (check_path.c, ck_path_cut()) only as
 * far as the path is the same in every state of the class: the event
 * defect of token_twice() is found with the acceleration, as pass by
 * pass; without the second set of ev[2] both searches say safe, and the
 * accelerated one by induction.
 */
static void test_cut_on_classes(void)
{
	char bad[1024], ok[1024];

	token_twice(bad, sizeof(bad), true);
	token_twice(ok, sizeof(ok), false);
	event_pair(bad, ok,
		   "a second set of a token past a branch on the last pass, before the token is taken: the event defect found on the classes, as pass by pass",
		   "the same program with another event set there: safe by induction, as pass by pass");
}

/*
 * act's loop tests r2 = r1 + 4 against 6 and leaves r2 = r1 + 100 at its
 * head, so that its head's comparisons do not see the test: the class of
 * its second pass (r1 = 4) reaches back to r1 = 0, whose path leaves the
 * loop at r1 = 2 for the halt at "away", while every state act reaches
 * (r1 from 3) goes round to the set of ev[@ev] after the loop.  With
 * @ev 5 that set finds ev[5] set if it comes between pool's set and clear
 * or before them (an event defect); with 6 nothing does.
 */
static void off_path(char *text, size_t len, unsigned int ev)
{
	snprintf(text, len,
		 "engine pool\n\tnop then ev[5] set\n\tnop then ev[5] clear\n"
		 "engine act\n\tmovi r1, 3\n"
		 "top:\taddi r2, r1, 4\n\tbr.eq.u32 r2, 6, away\n"
		 "\taddi r2, r1, 100\n\taddi r1, r1, 1\n"
		 "\tbr.lt.u32 r1, 12, top\n\tnop then ev[%u] set\n\thalt\n"
		 "away:\thalt\n", ev);
}

/*
 * The futures on the classes follow a path (check_path.c,
 * ck_path_class_row()) only where every state of the class is on the
 * representative's: in off_path() the representative's path misses the
 * set after the loop, and taking its row for the class would make pool's
 * set private there and miss the defect (planting it does: safe).
 */
static void test_class_rows(void)
{
	char bad[1024], ok[1024];

	off_path(bad, sizeof(bad), 5);
	off_path(ok, sizeof(ok), 6);
	event_pair(bad, ok,
		   "a class whose representative's path leaves the loop early, the states reached going round it to a set after it: the event defect found, as pass by pass",
		   "the same program setting another event after the loop: safe by induction, as pass by pass");
}

/*
 * A path is followed across the passes of a loop by skipping those that
 * run alike (check_path.c, ck_path_skip()): act sets ev[@ev] on its pass
 * 150 of 300 only; with 5 it races pool's set and clear of ev[5].  The
 * search pass by pass (its futures along paths, cut at the skip's end)
 * finds it, as with the acceleration; a skip over pass 150 (planting a
 * span that ignores the branch) makes pool's steps private and misses it.
 */
static void test_path_skip(void)
{
	struct ncsync_check_result *res;
	char text[512];
	unsigned int ev;

	for (ev = 5; ev <= 6; ev++) {
		snprintf(text, sizeof(text),
			 "engine pool\n\tnop then ev[5] set\n"
			 "\tnop then ev[5] clear\n"
			 "engine act\n\tmovi r1, 0\n"
			 "top:\tbr.ne.u32 r1, 150, on\n\tnop then ev[%u] set\n"
			 "on:\taddi r1, r1, 1\n\tbr.lt.u32 r1, 300, top\n",
			 ev);
		res = check_text(text, false, 200000, NULL);
		TAP_CHECK(res && ncsync_check_complete(res) &&
			  ncsync_check_verdict(res) ==
			  (ev == 5 ? NCSYNC_CHECK_DEFECT : NCSYNC_CHECK_SAFE) &&
			  kinds_of(res) ==
			  (ev == 5 ? 1U << NCSYNC_DEFECT_EVENT : 0),
			  "a set of ev[%u] on pass 150 of 300, pass by pass: %s",
			  ev, ev == 5 ? "the event defect found" : "safe");
		ncsync_check_free(res);
	}
}

/*
 * A loop that may not end (br.ne on its counter, which wraps before it
 * stops): no verdict by induction, whose waits that never pass need every
 * run to be finite (check.rst, "Waits that never pass"); the same loop
 * with br.lt is proved.
 */
static void test_endless_falls_back(void)
{
	static const char *const br[] = { "br.ne.u32", "br.lt.u32" };
	struct ncsync_check_accel a = { 0 };
	struct ncsync_check_result *res;
	char text[512];
	unsigned int i;

	for (i = 0; i < 2; i++) {
		snprintf(text, sizeof(text),
			 "engine pool\n\tmovi r1, 0\ntop:\taddi r1, r1, 1\n"
			 "\tnop then sem[1]++\n\t%s r1, 7, top\n"
			 "engine act\ntop:\taddi r1, r1, 1\n"
			 "\tnop wait sem[1] >= r1\n\tbr.lt.u32 r1, 7, top\n",
			 br[i]);
		res = check_text(text, true, 2000000, NULL);
		memset(&a, 0, sizeof(a));
		if (res)
			ncsync_check_accel(res, &a);
		TAP_CHECK(res && ncsync_check_verdict(res) == NCSYNC_CHECK_SAFE &&
			  (i ? a.status == NCSYNC_ACCEL_APPLIED :
			   a.status == NCSYNC_ACCEL_FELL_BACK && a.why &&
			   strstr(a.why, "run for ever")),
			  "%s: safe, %s (%s)", br[i],
			  i ? "by induction" : "pass by pass, a loop may not end",
			  a.why ? a.why : "-");
		ncsync_check_free(res);
	}
}

/*
 * @text across 2 cores ("core N" statements), with or without, in at most
 * @max_states states a search (0: the default).
 */
static struct ncsync_check_result *check_cores_text(const char *text,
						    bool accel,
						    uint64_t max_states)
{
	struct ncsync_asm_part parts[NCSYNC_MAX_LNC];
	struct ncsync_check_result *res = NULL;
	struct ncsync_check_opts o;
	struct ncsync_asm_error err;
	int n, i;

	n = ck_build_cores(text, parts, &err);
	ncsync_check_opts_init(&o);
	o.flags = accel ? 0 : NCSYNC_CHECK_F_NO_ACCEL;
	if (max_states)
		o.max_states = max_states;
	if (n > 0 && ncsync_check_cores(parts, n, &o, &res))
		res = NULL;
	for (i = 0; i < n; i++)
		ncsync_program_free(parts[i].prog);
	return res;
}

/*
 * A core barrier in a loop, 2 cores x 2 engines: its lowering's barriers
 * branch forward before the counter's addi, within the body, so every path
 * round it steps the counter once and the loop is shown to end
 * (check_finite.c).  Within 25000 states a search, the verdict of the
 * unaccelerated search: by induction, or, when the search on the classes
 * reaches that limit first, by the explicit search.
 */
static void test_core_barrier_loop(void)
{
	static const char eng[] =
		"engine %s\n\tmovi r1, 0\nloop:\tnop then sem[22]++\n"
		"\tcore_barrier sem[20]\n\taddi r1, r1, 1\n"
		"\tbr.lt.u32 r1, %u, loop\n";
	static const char *const names[] = { "pool", "act" };
	struct ncsync_check_accel a;
	unsigned int passes, c, e, good = 0;
	char text[1024];
	size_t len;

	for (passes = 2; passes <= 3; passes++) {
		struct ncsync_check_result *ra, *rp;

		len = 0;
		for (c = 0; c < 2; c++) {
			len += snprintf(text + len, sizeof(text) - len,
					"core %u\n", c);
			for (e = 0; e < 2; e++)
				len += snprintf(text + len, sizeof(text) - len,
						eng, names[e], passes);
		}
		ra = check_cores_text(text, true, 25000);
		rp = check_cores_text(text, false, 25000);
		memset(&a, 0, sizeof(a));
		if (ra)
			ncsync_check_accel(ra, &a);
		good += ra && rp && ncsync_check_complete(ra) &&
			ncsync_check_verdict(ra) == NCSYNC_CHECK_SAFE &&
			ncsync_check_verdict(rp) == NCSYNC_CHECK_SAFE &&
			kinds_of(ra) == kinds_of(rp) &&
			(a.status == NCSYNC_ACCEL_NONE ||
			 a.status == NCSYNC_ACCEL_APPLIED ||
			 (a.status == NCSYNC_ACCEL_FELL_BACK && a.why &&
			  !strstr(a.why, "run for ever")));
		ncsync_check_free(ra);
		ncsync_check_free(rp);
	}
	TAP_CHECK(good == 2,
		  "a core barrier in a loop, 2 cores x 2 engines x 2 and 3 passes: safe as by the plain search, the loop shown to end (%u of 2)",
		  good);
}

/*
 * A ball passed @ping times by core 0 and @pong times by core 1, by copies
 * landing on the other core: safe when they are equal, a deadlock when
 * not, with the acceleration as without.
 */
static void test_cores(void)
{
	static const unsigned int runs[][2] = {
		{ 5, 5 }, { 40, 40 }, { 40, 39 }, { 39, 40 }, { 6, 3 },
	};
	unsigned int i, good = 0, applied = 0;
	char text[1024];

	for (i = 0; i < sizeof(runs) / sizeof(runs[0]); i++) {
		struct ncsync_check_result *ra, *rp;
		bool want = runs[i][0] == runs[i][1];

		snprintf(text, sizeof(text),
			 "core 0\nengine pool\n\tmovi r1, 0\nping:\tdma 0x0, 0x40, 64, peer=1 on_land sem[10]++\n"
			 "\tnop wait sem[11] >= 1 then sem[11]--\n\taddi r1, r1, 1\n\tbr.lt.u32 r1, %u, ping\n"
			 "core 1\nengine pool\n\tmovi r1, 0\npong:\tnop wait sem[10] >= 1 then sem[10]--\n"
			 "\tdma 0x40, 0x80, 64, peer=0 on_land sem[11]++\n\taddi r1, r1, 1\n\tbr.lt.u32 r1, %u, pong\n\tdrain\n",
			 runs[i][0], runs[i][1]);
		ra = check_cores_text(text, true, 0);
		rp = check_cores_text(text, false, 0);
		good += ra && rp && ncsync_check_complete(ra) &&
			ncsync_check_verdict(ra) == ncsync_check_verdict(rp) &&
			kinds_of(ra) == kinds_of(rp) &&
			(ncsync_check_verdict(ra) == NCSYNC_CHECK_SAFE) == want;
		applied += ra && want &&
			   accel_status(ra) == NCSYNC_ACCEL_APPLIED;
		ncsync_check_free(ra);
		ncsync_check_free(rp);
	}
	TAP_CHECK(good == 5 && applied == 2,
		  "across cores: a ball passed as often each way is safe (by induction: %u of 2), once less a deadlock, as by the plain search (%u of 5)",
		  applied, good);
}

static char *read_example(const char *name)
{
	char path[512];
	char *text;
	size_t n;
	FILE *f;

	snprintf(path, sizeof(path), "%s/examples/%s", NCSYNC_TEST_TOP, name);
	f = fopen(path, "r");
	text = f ? calloc(1, 1 << 16) : NULL;
	if (text) {
		n = fread(text, 1, (1 << 16) - 1, f);
		text[n] = '\0';
	}
	if (f)
		fclose(f);
	return text;
}

/* examples/barrier-loop.s with @passes passes. */
static uint64_t barrier_loop(const char *text, unsigned int passes,
			     uint32_t flags, bool *safe)
{
	struct ncsync_check_opts opt;
	struct ncsync_check_result *res;
	char *prog = malloc(strlen(text) + 512), *o = prog;
	const char *p = text, *hit;
	char num[16];
	uint64_t states;

	snprintf(num, sizeof(num), "%u", passes);
	while ((hit = strstr(p, "r1, 20, loop"))) {
		memcpy(o, p, hit + 4 - p);
		o += hit + 4 - p;
		o += sprintf(o, "%s", num);
		p = hit + 6;
	}
	strcpy(o, p);
	ncsync_check_opts_init(&opt);
	opt.flags = flags;
	res = check_text(prog, true, 10000000, &opt);
	*safe = res && ncsync_check_verdict(res) == NCSYNC_CHECK_SAFE &&
		accel_status(res) == NCSYNC_ACCEL_APPLIED;
	states = res ? ncsync_check_states(res) : 0;
	ncsync_check_free(res);
	free(prog);
	return states;
}

static void test_barrier_loop(void)
{
	char *text = read_example("barrier-loop.s");
	uint64_t s20, s1k, s1m, nosym;
	bool a, b, c, d;

	if (!text) {
		TAP_CHECK(0, "examples/barrier-loop.s");
		return;
	}
	s20 = barrier_loop(text, 20, 0, &a);
	s1k = barrier_loop(text, 1000, 0, &b);
	s1m = barrier_loop(text, 1000000, 0, &c);
	TAP_CHECK(a && b && c && s20 == s1k && s1k == s1m,
		  "barrier-loop.s safe by induction at 20, 1000 and 1000000 passes, in %llu, %llu and %llu states",
		  (unsigned long long)s20, (unsigned long long)s1k,
		  (unsigned long long)s1m);
	/* Its four workers are twins on the classes too (check_sym.c). */
	nosym = barrier_loop(text, 20, NCSYNC_CHECK_F_NO_SYMMETRY, &d);
	TAP_CHECK(a && d && 4 * s20 < nosym,
		  "with its four interchangeable engines merged on the classes: %llu states, %llu without",
		  (unsigned long long)s20, (unsigned long long)nosym);
	/*
	 * With event barriers: the prologue's classes kept concrete (its
	 * comparisons have the loop's outcomes) and the barrier's steps
	 * private on the classes (the futures cut there).
	 */
	lowering = NCSYNC_LOWER_EVENTS;
	s20 = barrier_loop(text, 20, 0, &a);
	s1k = barrier_loop(text, 1000, 0, &b);
	s1m = barrier_loop(text, 1000000, 0, &c);
	lowering = NCSYNC_LOWER_COUNTER;
	TAP_CHECK(a && b && c && s1k == s1m && s20 < 200000,
		  "barrier-loop.s --lowering events safe by induction at 20, 1000 and 1000000 passes, in %llu, %llu and %llu states",
		  (unsigned long long)s20, (unsigned long long)s1k,
		  (unsigned long long)s1m);
	free(text);
}

int main(int argc, char **argv)
{
	test_random(argc > 1 ? atoi(argv[1]) : 150);
	test_random_twins(argc > 1 ? atoi(argv[1]) : 150);
	test_bug_at_pass();
	test_must_not_apply();
	test_wrap();
	test_nonlinear();
	test_overflow_mid_loop();
	test_unread_counter();
	test_endless_falls_back();
	test_cut_on_classes();
	test_class_rows();
	test_path_skip();
	test_cores();
	test_core_barrier_loop();
	test_barrier_loop();
	return tap_done();
}
