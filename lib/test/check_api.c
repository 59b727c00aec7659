// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * ncsync_check() and its accessors: every error path, the defaults, the
 * limits, the names of the defect kinds, ncsync_check_replay()'s
 * refusals, and the states of a search on a loop's classes that fell back
 * (ncsync_check_class_states()).
 */
#include <errno.h>
#include <stdio.h>

#include "check_test.h"

static const char *const names[] = {
	"deadlock", "dma-race", "event", "overflow", "barrier-imbalance",
	"unposted-wait",
};

static void names_and_defaults(void)
{
	struct ncsync_check_opts o;
	unsigned int k, ok = 0;

	for (k = 0; k < NCSYNC_DEFECT_KINDS; k++)
		ok += ncsync_defect_name(k) &&
		      !strcmp(ncsync_defect_name(k), names[k]);
	TAP_CHECK(ok == NCSYNC_DEFECT_KINDS &&
		  !ncsync_defect_name(NCSYNC_DEFECT_KINDS),
		  "ncsync_defect_name(): the interface names, NULL past them");
	memset(&o, 0xff, sizeof(o));
	ncsync_check_opts_init(&o);
	ncsync_check_opts_init(NULL);
	TAP_CHECK(o.max_states == NCSYNC_CHECK_MAX_STATES && !o.timeout_ms &&
		  !o.flags && !o.sems[0] && !o.events[255],
		  "ncsync_check_opts_init(): the defaults, banks zero");
	TAP_CHECK(ncsync_check_verdict(NULL) == NCSYNC_CHECK_INCONCLUSIVE &&
		  !ncsync_check_states(NULL) && !ncsync_check_class_states(NULL) &&
		  !ncsync_check_complete(NULL) &&
		  !ncsync_check_ndefects(NULL) &&
		  !ncsync_check_defect(NULL, 0),
		  "the accessors of a NULL result");
	ncsync_check_free(NULL);
}

static void errors(struct ncsync_program *p)
{
	struct ncsync_check_result *res = (void *)1;
	struct ncsync_program *raw = NULL;
	struct ncsync_check_opts o;
	struct ncsync_asm_error err;

	ncsync_check_opts_init(&o);
	TAP_CHECK(ncsync_check(NULL, &o, &res) == -EINVAL &&
		  ncsync_check(p, NULL, &res) == -EINVAL &&
		  ncsync_check(p, &o, NULL) == -EINVAL,
		  "ncsync_check(): NULL arguments are -EINVAL");
	o.flags = 0x80;
	TAP_CHECK(ncsync_check(p, &o, &res) == -EINVAL &&
		  res == (void *)1, "an unknown flag is -EINVAL, no result");
	o.flags = 0;
	ncsync_asm("engine pool\n\tnop\n", &raw, &err);
	TAP_CHECK(raw && ncsync_check(raw, &o, &res) == -EINVAL,
		  "a program never finalized is -EINVAL");
	TAP_CHECK(ncsync_check_replay(NULL, &o, NULL, 0, NULL, NULL,
				      NULL) == -EINVAL &&
		  ncsync_check_replay(p, NULL, NULL, 0, NULL, NULL,
				      NULL) == -EINVAL &&
		  ncsync_check_replay(p, &o, NULL, 1, NULL, NULL,
				      NULL) == -EINVAL &&
		  ncsync_check_replay(raw, &o, NULL, 0, NULL, NULL,
				      NULL) == -EINVAL,
		  "ncsync_check_replay(): NULL arguments, no steps, a program "
		  "never finalized are -EINVAL");
	ncsync_program_free(raw);
}

static void replay_refusals(struct ncsync_program *p)
{
	struct ncsync_check_step bad[] = {
		{ .engine = NCSYNC_ENGINE_POOL, .part = NCSYNC_PART_WAIT0 },
		{ .engine = NCSYNC_ENGINE_SP, .part = NCSYNC_PART_EFFECT },
		{ .engine = NCSYNC_ENGINE_POOL, .part = NCSYNC_PART_LAND },
		{ .engine = NCSYNC_ENGINE_POOL, .part = NCSYNC_PART_UPDATE0,
		  .record = 7 },
	};
	struct ncsync_check_opts o;
	unsigned int i, refused = 0;
	size_t done = 99;

	ncsync_check_opts_init(&o);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		refused += ncsync_check_replay(p, &o, &bad[i], 1, NULL, NULL,
					       &done) == -EPERM && !done;
	TAP_CHECK(refused == 4,
		  "ncsync_check_replay(): a step of the wrong part, of an "
		  "engine without a stream, of a copy not in flight, at the "
		  "wrong record: -EPERM, none done");
	TAP_CHECK(!ncsync_check_replay(p, &o, bad, 0, NULL, NULL, &done) &&
		  !done, "an empty schedule replays");
}

/* A counter that grows for ever: the state limit ends the search. */
static void limits(void)
{
	struct ncsync_program *p =
		ck_build("engine pool\nl:\tnop then sem[1]++\n\tbr l\n",
			 NCSYNC_LOWER_COUNTER);
	struct ncsync_check_result *res;
	struct ncsync_check_opts o;

	if (!p)
		return;
	ncsync_check_opts_init(&o);
	o.max_states = 100;
	TAP_CHECK(!ncsync_check(p, &o, &res) &&
		  ncsync_check_verdict(res) == NCSYNC_CHECK_INCONCLUSIVE &&
		  ncsync_check_states(res) == 100 &&
		  !ncsync_check_complete(res) && !ncsync_check_ndefects(res),
		  "max_states 100: inconclusive after 100 states");
	ncsync_check_free(res);
	ncsync_program_free(p);
}

/* More copies in flight than the checker follows: inconclusive. */
static void too_many_copies(void)
{
	static char text[8192];
	struct ncsync_check_result *res = NULL;
	struct ncsync_program *p;
	struct ncsync_check_opts o;
	size_t off = 0;
	unsigned int e, i;

	for (e = 0; e < 2; e++) {
		off += snprintf(text + off, sizeof(text) - off, "engine %s\n",
				e ? "act" : "pool");
		for (i = 0; i < 40; i++)
			off += snprintf(text + off, sizeof(text) - off,
					"\tdma 0x0, 0x%x, 64, latency=1\n",
					0x1000 + 0x40 * (40 * e + i));
	}
	p = ck_build(text, NCSYNC_LOWER_COUNTER);
	ncsync_check_opts_init(&o);
	TAP_CHECK(p && !ncsync_check(p, &o, &res) &&
		  ncsync_check_verdict(res) == NCSYNC_CHECK_INCONCLUSIVE &&
		  !ncsync_check_ndefects(res),
		  "80 copies that may all be in flight: inconclusive, no "
		  "defect");
	ncsync_check_free(res);
	ncsync_program_free(p);
}

/*
 * A copy that signals another core: that core is followed too, with no
 * engine (lib/test/check_cores.c has the programs across cores).
 */
static void peer_followed(void)
{
	struct ncsync_check_result *res = NULL;
	struct ncsync_program *p;
	struct ncsync_check_opts o;

	p = ck_build("engine pool\n\tdma 0x0, 0x100, 64, peer=1 on_land sem[3]++\n"
		     "\tdrain\n\texit\n", NCSYNC_LOWER_COUNTER);
	ncsync_check_opts_init(&o);
	TAP_CHECK(p && !ncsync_check(p, &o, &res) &&
		  ncsync_check_verdict(res) == NCSYNC_CHECK_SAFE &&
		  ncsync_check_complete(res),
		  "a DMA record with peer=: the peer followed, safe");
	ncsync_check_free(res);
	ncsync_program_free(p);
}

#ifndef NCSYNC_TEST_TOP
#define NCSYNC_TEST_TOP "."
#endif

/*
 * A timeout of 1 ms ends a search of hundreds of thousands of states
 * (barrier-loop.s, some 658000, seconds of work) inconclusive, short of
 * the end.
 */
static void timeout(void)
{
	struct ncsync_check_result *res = NULL;
	struct ncsync_program *p = NULL;
	struct ncsync_check_opts o;
	static char text[1 << 16];
	FILE *f = fopen(NCSYNC_TEST_TOP "/examples/barrier-loop.s", "r");
	size_t n = f ? fread(text, 1, sizeof(text) - 1, f) : 0;

	if (f)
		fclose(f);
	text[n] = '\0';
	p = n ? ck_build(text, NCSYNC_LOWER_COUNTER) : NULL;
	ncsync_check_opts_init(&o);
	o.max_states = 0;
	o.timeout_ms = 1;
	TAP_CHECK(p && !ncsync_check(p, &o, &res) &&
		  ncsync_check_verdict(res) == NCSYNC_CHECK_INCONCLUSIVE &&
		  ncsync_check_states(res) < 658000,
		  "timeout_ms 1 on barrier-loop.s: inconclusive after %llu "
		  "states", (unsigned long long)ncsync_check_states(res));
	ncsync_check_free(res);
	ncsync_program_free(p);
}

/* examples/abba.s: a deadlock, found on the classes of pe's loop first. */
static const char abba[] =
	"engine pool\n\tsema_clear 3\n\tnop then sem[1] = 1\n"
	"\tnop then sem[2] = 1\n\tnop wait sem[1] > 0 then sem[1]--\n"
	"\tnop wait sem[2] > 0 then sem[2]--\n\tnop then sem[3]++\n"
	"\tnop then sem[2]++\n\tnop then sem[1]++\n\texit\n"
	"engine pe\n\tmovi r1, 0\nspin:\taddi r1, r1, 1\n"
	"\tbr.lt.u32 r1, 64, spin\n\tnop wait sem[2] > 0 then sem[2]--\n"
	"\tnop wait sem[1] > 0 then sem[1]--\n\tnop then sem[3]++\n"
	"\tnop then sem[1]++\n\tnop then sem[2]++\n\texit\n";

/* ncsync_check() of @p with @flags and @max_states; NULL on an error. */
static struct ncsync_check_result *
check_with(const struct ncsync_program *p, uint32_t flags, uint64_t max_states)
{
	struct ncsync_check_result *res = NULL;
	struct ncsync_check_opts o;

	ncsync_check_opts_init(&o);
	o.flags = flags;
	o.max_states = max_states;
	return ncsync_check(p, &o, &res) ? NULL : res;
}

/*
 * The states of the search on a loop's classes when it falls back: not in
 * ncsync_check_states(), which is the search pass by pass's alone (the
 * same as without the acceleration); each search has the whole state
 * limit; 0 when it did not fall back or never ran.
 */
static void class_states(void)
{
	struct ncsync_program *p = ck_build(abba, NCSYNC_LOWER_COUNTER);
	struct ncsync_check_result *fb = NULL, *off = NULL, *lim = NULL;
	struct ncsync_check_accel a = { 0 }, al = { 0 };

	if (p) {
		fb = check_with(p, 0, NCSYNC_CHECK_MAX_STATES);
		off = check_with(p, NCSYNC_CHECK_F_NO_ACCEL,
				 NCSYNC_CHECK_MAX_STATES);
		lim = check_with(p, 0, 20);
	}
	ncsync_check_accel(fb, &a);
	ncsync_check_accel(lim, &al);
	TAP_CHECK(fb && off && a.status == NCSYNC_ACCEL_FELL_BACK &&
		  ncsync_check_class_states(fb) > 0 &&
		  !ncsync_check_class_states(off) &&
		  ncsync_check_states(fb) == ncsync_check_states(off),
		  "a defect on the classes: %llu states on them, %llu pass by pass (%llu without the acceleration)",
		  (unsigned long long)ncsync_check_class_states(fb),
		  (unsigned long long)ncsync_check_states(fb),
		  (unsigned long long)ncsync_check_states(off));
	TAP_CHECK(lim && al.status == NCSYNC_ACCEL_FELL_BACK &&
		  ncsync_check_class_states(lim) == 20 &&
		  ncsync_check_states(lim) == 20 &&
		  ncsync_check_limit(lim) == NCSYNC_CHECK_LIMIT_STATES,
		  "max_states 20: the classes' search and the search pass by pass reach it each (%llu, %llu)",
		  (unsigned long long)ncsync_check_class_states(lim),
		  (unsigned long long)ncsync_check_states(lim));
	ncsync_check_free(fb);
	ncsync_check_free(off);
	ncsync_check_free(lim);
	ncsync_program_free(p);
}

int main(void)
{
	struct ncsync_program *p =
		ck_build("engine pool\n\tnop then sem[1]++\n",
			 NCSYNC_LOWER_COUNTER);

	names_and_defaults();
	if (p) {
		errors(p);
		replay_refusals(p);
	}
	limits();
	timeout();
	too_many_copies();
	peer_followed();
	class_states();
	ncsync_program_free(p);
	return tap_done();
}
