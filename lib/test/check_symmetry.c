// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * The symmetry reduction of ncsync_check() (Documentation/ncsync/check.rst,
 * "Symmetry"): engines of one core that run the same records are searched
 * as interchangeable.  On random programs whose engines share a body, the
 * search with it reaches the same orbits of states without a step, the
 * same defect kinds and the same verdict as the full search and as the
 * reduced search without it, in fewer states, and every defect's schedule
 * replays; and so on programs where one engine's body differs in a line.
 * Engines that differ in one record, in a register's initial
 * value or in the semaphore they name, and engines of two cores, are not
 * merged; nor, on the classes of a loop, twins its shift moves apart.
 */
#include <errno.h>
#include <stdio.h>

#include "check.h"
#include "check_random.h"
#include "check_test.h"

/* Sort and drop repeats; the number left. */
static size_t uniq(struct ck_finals *f)
{
	return f->n = ck_uniq_hashes(f->h, f->n);
}

struct totals {
	struct ck_tally n;
	unsigned int defects, replayed;
	uint64_t sym, nosym;
};

/* One search of @p: with @full, every step; @flags; its final states. */
static struct ncsync_check_result *run(struct ncsync_program *p,
				       uint32_t flags, bool full,
				       struct ck_finals *f)
{
	struct ncsync_asm_part part = { .prog = p };
	struct ncsync_check_result *res = NULL;
	struct ncsync_check_opts o;

	ncsync_check_opts_init(&o);
	o.flags = flags;
	o.max_states = 20000;
	if (ncsync_check_run(&part, 1, &o, full, f, &res))
		return NULL;
	if (!ncsync_check_complete(res)) {
		ncsync_check_free(res);
		return NULL;
	}
	return res;
}

/* Whether every defect of @res replays to its state. */
static bool all_replay(struct ncsync_program *p, uint32_t flags,
		       const struct ncsync_check_result *res,
		       struct totals *t)
{
	struct ncsync_check_opts o;
	unsigned int i;

	ncsync_check_opts_init(&o);
	o.flags = flags;
	for (i = 0; i < ncsync_check_ndefects(res); i++) {
		t->defects++;
		if (!ck_replays(p, &o, ncsync_check_defect(res, i)))
			return false;
		t->replayed++;
	}
	return true;
}

/*
 * Check @p with symmetry, without it and in full: 1 when all agree, 0 when
 * not, -1 when a search was cut short.
 */
static int compare(struct ncsync_program *p, uint32_t flags, void *arg)
{
	struct totals *t = arg;
	struct ck_finals fs = { 0 }, fn = { 0 }, ff = { 0 };
	struct ncsync_check_result *rs, *rn, *rf;
	int same = -1;

	rs = run(p, flags, false, &fs);
	rn = run(p, flags | NCSYNC_CHECK_F_NO_SYMMETRY, false, &fn);
	rf = run(p, flags, true, &ff);
	if (rs && rn && rf) {
		same = ncsync_check_verdict(rs) == ncsync_check_verdict(rn) &&
		       ncsync_check_verdict(rs) == ncsync_check_verdict(rf) &&
		       ck_kinds(rs) == ck_kinds(rn) &&
		       ck_kinds(rs) == ck_kinds(rf) &&
		       uniq(&fs) == uniq(&ff) &&
		       (!fs.n || !memcmp(fs.h, ff.h, 2 * fs.n * 8)) &&
		       all_replay(p, flags, rs, t);
		t->sym += ncsync_check_states(rs);
		t->nosym += ncsync_check_states(rn);
	}
	free(fs.h);
	free(fn.h);
	free(ff.h);
	free(fs.ended);
	free(fn.ended);
	free(ff.ended);
	ncsync_check_free(rs);
	ncsync_check_free(rn);
	ncsync_check_free(rf);
	return same;
}

static void random_set(unsigned int n, struct totals *t)
{
	char text[4096];
	unsigned int i;

	for (i = 0; i < n; i++) {
		/* One in three has an engine one line off its twins. */
		ck_random_symmetric(text, sizeof(text), i % 3 == 2);
		ck_tally_text(&t->n, text, NCSYNC_LOWER_COUNTER,
			      i & 1 ? NCSYNC_CHECK_F_DMA_FIFO : 0, compare, t);
	}
}

/* One search of the @n parts: @flags, @full; its final states. */
static struct ncsync_check_result *run_parts(struct ncsync_asm_part *parts,
					     int n, uint32_t flags, bool full,
					     struct ck_finals *f)
{
	struct ncsync_check_result *res = NULL;
	struct ncsync_check_opts o;

	ncsync_check_opts_init(&o);
	o.flags = flags;
	o.max_states = 20000;
	if (ncsync_check_run(parts, n, &o, full, f, &res) ||
	    !ncsync_check_complete(res)) {
		ncsync_check_free(res);
		return NULL;
	}
	return res;
}

/*
 * Random programs across two cores whose engines of a core run one body
 * (ck_random_cores()): with symmetry and the persistent sets, and in full,
 * the same verdict, defect kinds and final states.
 */
static void cores_random(unsigned int n)
{
	struct ncsync_asm_part parts[NCSYNC_MAX_LNC];
	unsigned int i, same = 0, open = 0, bad = 0;
	struct ck_finals fs, ff;
	struct ncsync_check_result *rs, *rf;
	struct ncsync_asm_error err;
	char text[4096];
	int np, j;

	for (i = 0; i < n; i++) {
		ck_random_cores(text, sizeof(text), true);
		np = ck_build_cores(text, parts, &err);
		if (np <= 0) {
			bad++;
			continue;
		}
		memset(&fs, 0, sizeof(fs));
		memset(&ff, 0, sizeof(ff));
		rs = run_parts(parts, np, i & 1 ? NCSYNC_CHECK_F_DMA_FIFO : 0,
			       false, &fs);
		rf = run_parts(parts, np, i & 1 ? NCSYNC_CHECK_F_DMA_FIFO : 0,
			       true, &ff);
		if (!rs || !rf)
			open++;
		else if (ncsync_check_verdict(rs) == ncsync_check_verdict(rf) &&
			 ck_kinds(rs) == ck_kinds(rf) && uniq(&fs) == uniq(&ff) &&
			 (!fs.n || !memcmp(fs.h, ff.h, 2 * fs.n * 8)))
			same++;
		else
			bad++;
		free(fs.h);
		free(ff.h);
		free(fs.ended);
		free(ff.ended);
		ncsync_check_free(rs);
		ncsync_check_free(rf);
		for (j = 0; j < np; j++)
			ncsync_program_free(parts[j].prog);
	}
	TAP_CHECK(!bad && same >= n / 2,
		  "%u random programs across two cores, each core's engines one body: with symmetry and the persistent sets as in full in all %u that end (%u cut short)",
		  n, same, open);
}

/*
 * The symmetry the search of @text used: classes, and their members; with
 * @induction, only of a safe verdict by induction (else -EINVAL).
 */
static int sym_of(const char *text, struct ncsync_check_symmetry *s,
		  bool induction)
{
	struct ncsync_program *p = ck_build(text, NCSYNC_LOWER_COUNTER);
	struct ncsync_check_result *res = NULL;
	struct ncsync_check_accel a = { 0 };
	struct ncsync_check_opts o;
	int ret;

	memset(s, 0xA5, sizeof(*s));
	ncsync_check_opts_init(&o);
	ret = p ? ncsync_check(p, &o, &res) : -EINVAL;
	if (!ret && induction &&
	    (ncsync_check_accel(res, &a) || a.status != NCSYNC_ACCEL_APPLIED ||
	     ncsync_check_verdict(res) != NCSYNC_CHECK_SAFE))
		ret = -EINVAL;
	if (!ret)
		ret = ncsync_check_symmetry(res, s);
	ncsync_check_free(res);
	ncsync_program_free(p);
	return ret;
}

#define BODY(e, x) "engine " e "\n\tnop wait sem[1] >= 1\n\t" x "\n"

static void not_merged(void)
{
	struct ncsync_check_symmetry s;

	TAP_CHECK(!sym_of(BODY("act", "nop then sem[2]++")
			  BODY("pe", "nop then sem[2]++")
			  BODY("dve", "nop then sem[2]++"), &s, false) &&
		  s.nclasses == 1 && s.nmembers == 3,
		  "three engines with one body: one class of three");
	TAP_CHECK(!sym_of(BODY("act", "nop then sem[2]++")
			  BODY("pe", "nop then sem[2]++")
			  BODY("dve", "nop then sem[2] += 2"), &s, false) &&
		  s.nclasses == 1 && s.nmembers == 2 &&
		  s.engine[0] == NCSYNC_ENGINE_ACT &&
		  s.engine[1] == NCSYNC_ENGINE_PE,
		  "one engine's record differs: the other two only");
	TAP_CHECK(!sym_of(BODY("act", "movi r1, 0")
			  BODY("pe", "movi r1, 1"), &s, false) && !s.nclasses,
		  "a register set to another value: not merged");
	TAP_CHECK(!sym_of(BODY("act", "nop then sem[2]++")
			  BODY("pe", "nop then sem[3]++"), &s, false) && !s.nclasses,
		  "a semaphore not renamed with its engine: not merged");
	TAP_CHECK(!sym_of("engine act\n\tnop then sem[2]++\n"
			  "engine pe\n\tnop then sem[2]++\n", &s, false) &&
		  s.nclasses == 1, "two engines, one record each: merged");
}

/*
 * On the classes of a loop (check_accel.c) twins stay merged only when
 * their exchange maps classes to classes: the same shift of their
 * registers, the same outcomes at the loop's head.  Two engines that
 * count passes on their own: the search runs one of them round its loop
 * first, so the shift moves its counter and not its twin's: not merged
 * there (a merge of them would key a class by the orbit of a state whose
 * exchange is not a class).  Two engines in step at a barrier: merged.
 */
#define LOOP(e, x) "engine " e "\n\tmovi r1, 0\ntop:\taddi r1, r1, 1\n" \
		   "\tnop then sem[1]++\n" x \
		   "\tbr.lt.u32 r1, 6, top\n"

#define STEP(e) "engine " e "\n\tmovi r1, 0\ntop:\taddi r1, r1, 1\n"
#define BACK(e) "engine " e "\n\tbr.lt.u32 r1, 6, top\n"

static void loop_twins(void)
{
	struct ncsync_check_symmetry s;
	bool apart, step;

	apart = !sym_of(LOOP("act", "") LOOP("pe", ""), &s, true) &&
		!s.nclasses;
	TAP_CHECK(apart,
		  "twins shifted apart by the loop's pass: safe by induction, not merged on its classes");
	/* pool, the barrier's first engine, runs records of its own. */
	step = !sym_of(STEP("pool") STEP("act") STEP("pe") "barrier\n"
		       BACK("pool") BACK("act") BACK("pe"), &s, true) &&
	       s.nclasses == 1 && s.nmembers == 2;
	TAP_CHECK(step,
		  "twins in step at a barrier: safe by induction, merged on its classes");
}

/*
 * The parts of the same program on two cores: an engine is merged with
 * its twin on its own core, never with one on the other core.
 */
static void cores_apart(void)
{
	static const char text[] =
		"core 0\nengine act\n\tnop then sem[2]++\n"
		"engine pe\n\tnop then sem[2]++\n"
		"core 1\nengine act\n\tnop then sem[2]++\n"
		"engine pe\n\tnop then sem[2]++\n";
	struct ncsync_asm_part parts[NCSYNC_MAX_LNC];
	struct ncsync_check_result *res = NULL;
	struct ncsync_check_symmetry s = { 0 };
	struct ncsync_asm_error err;
	struct ncsync_check_opts o;
	int n = ck_build_cores(text, parts, &err), i;

	ncsync_check_opts_init(&o);
	if (n == 2 && !ncsync_check_cores(parts, n, &o, &res))
		ncsync_check_symmetry(res, &s);
	TAP_CHECK(s.nclasses == 2 && s.nmembers == 4 &&
		  s.core[0] == s.core[1] && s.core[2] == s.core[3] &&
		  s.core[0] != s.core[2] && s.cls[0] != s.cls[2],
		  "two cores with the same part: a class per core");
	ncsync_check_free(res);
	for (i = 0; i < n; i++)
		ncsync_program_free(parts[i].prog);
}

/*
 * Three engines take two units of a semaphore of two, one at a time: two
 * can each take one and wait for good.  Found under symmetry, with a
 * schedule that replays, in fewer states.
 */
static void symmetric_deadlock(void)
{
	static const char take[] = "\tnop wait sem[1] > 0 then sem[1]--\n";
	char text[512];
	struct ncsync_program *p;
	struct ncsync_check_result *rs = NULL, *rn = NULL;
	const struct ncsync_check_defect *d = NULL;
	struct ncsync_check_opts o;
	int ret;

	snprintf(text, sizeof(text),
		 "engine act\n%s%s\tnop then sem[1] += 2\n"
		 "engine pe\n%s%s\tnop then sem[1] += 2\n"
		 "engine dve\n%s%s\tnop then sem[1] += 2\n",
		 take, take, take, take, take, take);
	p = ck_build(text, NCSYNC_LOWER_COUNTER);
	ncsync_check_opts_init(&o);
	o.sems[1] = 2;
	ret = p ? ncsync_check(p, &o, &rs) : -EINVAL;
	o.flags = NCSYNC_CHECK_F_NO_SYMMETRY;
	ret = ret ?: ncsync_check(p, &o, &rn);
	o.flags = 0;
	if (!ret)
		d = ck_find(rs, NCSYNC_DEFECT_DEADLOCK);
	TAP_CHECK(d && ck_find(rn, NCSYNC_DEFECT_DEADLOCK) &&
		  ck_replays(p, &o, d),
		  "a deadlock of interchangeable engines: found, and its schedule replays");
	TAP_CHECK(!ret && ncsync_check_states(rs) < ncsync_check_states(rn),
		  "in fewer states: %llu instead of %llu",
		  (unsigned long long)ncsync_check_states(rs),
		  (unsigned long long)ncsync_check_states(rn));
	ncsync_check_free(rs);
	ncsync_check_free(rn);
	ncsync_program_free(p);
}

/*
 * The orbit hash itself: a state and the state with two interchangeable
 * engines exchanged, with the issuers of their copies, hash the same; the
 * engines exchanged without their copies is another state, and so is
 * another hash.
 */
static void orbit_hash(void)
{
	static const char text[] =
		"engine act\n\tdma 0x0, 0x40, 64\n\tdma 0x80, 0xc0, 64\n"
		"\tdrain\n"
		"engine pe\n\tdma 0x0, 0x40, 64\n\tdma 0x80, 0xc0, 64\n"
		"\tdrain\n";
	struct ncsync_program *p = ck_build(text, NCSYNC_LOWER_COUNTER);
	struct ncsync_asm_part part = { .prog = p };
	struct ck_state *a = calloc(3, sizeof(*a)), *b = a + 1, *c = a + 2;
	uint64_t ha[2] = { 0 }, hb[2] = { 1 }, hc[2] = { 0 };
	struct ck_prog *cp = calloc(1, sizeof(*cp));
	struct ck_sym sy = { 0 };

	if (p && a && cp && !ck_prog_init(cp, &part, 1, false, NULL, NULL)) {
		ck_sym_init(&sy, cp);
		ck_state_init(cp, a, NULL, NULL);
		/* act issued record 0's copy, pe record 1's; both in flight */
		a->eng[0].pc = 1;
		a->eng[1].pc = 2;
		a->eng[0].inflight = a->eng[1].inflight = 1;
		a->copies[0] = (struct ck_copy){ .eng = 0, .rec = 0 };
		a->copies[1] = (struct ck_copy){ .eng = 1, .rec = 1 };
		a->ncopies = 2;
		*b = *a;
		b->eng[0] = a->eng[1];
		b->eng[1] = a->eng[0];
		*c = *b;
		b->copies[0].eng = 1;
		b->copies[1].eng = 0;
		ck_sym_hash(cp, &sy, a, ha);
		ck_sym_hash(cp, &sy, b, hb);
		ck_sym_hash(cp, &sy, c, hc);
		ck_prog_fini(cp);
	}
	TAP_CHECK(sy.nclass == 1 && !memcmp(ha, hb, sizeof(ha)),
		  "two engines exchanged with their copies: one orbit, one hash");
	TAP_CHECK(sy.nclass == 1 && memcmp(ha, hc, sizeof(ha)),
		  "exchanged without their copies: another state, another hash");
	free(a);
	free(cp);
	ncsync_program_free(p);
}

int main(int argc, char **argv)
{
	unsigned int n = argc > 1 ? atoi(argv[1]) : 300;
	struct totals t = { 0 };

	random_set(n, &t);
	TAP_CHECK(t.n.programs == n && !t.n.bad && t.n.same >= n / 2,
		  "%u random programs of interchangeable engines: with symmetry, without it and in full the same orbits of final states, defects and verdict in all %u that end (%u cut short by a limit)",
		  n, t.n.same, t.n.open);
	TAP_CHECK(t.defects && t.replayed == t.defects,
		  "the schedules of all %u defects found with symmetry replay",
		  t.defects);
	TAP_CHECK(t.sym < t.nosym,
		  "the symmetry explores fewer states: %llu instead of %llu",
		  (unsigned long long)t.sym, (unsigned long long)t.nosym);
	not_merged();
	cores_apart();
	loop_twins();
	symmetric_deadlock();
	orbit_hash();
	cores_random(n / 2);
	return tap_done();
}
