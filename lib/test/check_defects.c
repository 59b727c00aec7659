// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * ncsync_check(): every defect kind, found in a small program and not in
 * its fixed version; each reported schedule, replayed, reaches the state
 * reported with it.
 */
#include <limits.h>
#include <stdio.h>

#include "check_test.h"

#define K(kind)	(1U << NCSYNC_DEFECT_##kind)

/* One AllEngineBarrier record (0xD5) in one stream only. */
#define RAW_D5	"\t.raw d5100000" \
		"000000000000000000000000000000000000000000000000000000000000" \
		"000000000000000000000000000000000000000000000000000000000000\n"

/* Two locks, both free at the start (the initial values of the case). */
#define LOCKS	"engine pool\n" \
		"\tnop wait sem[1] > 0 then sem[1]--\n" \
		"\tnop wait sem[2] > 0 then sem[2]--\n" \
		"\tnop then sem[2]++\n" \
		"\tnop then sem[1]++\n" \
		"engine pe\n"

struct ck_case {
	const char *name;
	const char *text;
	enum ncsync_barrier_lowering how;
	uint32_t flags;
	int sem, value;		/* an initial value; sem 0: none */
	bool locks;		/* sem[1] = sem[2] = 1 at the start */
	enum ncsync_check_verdict verdict;
	unsigned int kinds;	/* exactly these are reported */
};

static const struct ck_case cases[] = {
	{ "ABBA locks deadlock", LOCKS
	  "\tnop wait sem[2] > 0 then sem[2]--\n"
	  "\tnop wait sem[1] > 0 then sem[1]--\n"
	  "\tnop then sem[1]++\n\tnop then sem[2]++\n",
	  .locks = true, .verdict = NCSYNC_CHECK_DEFECT, .kinds = K(DEADLOCK) },
	{ "locks in one order are safe", LOCKS
	  "\tnop wait sem[1] > 0 then sem[1]--\n"
	  "\tnop wait sem[2] > 0 then sem[2]--\n"
	  "\tnop then sem[2]++\n\tnop then sem[1]++\n",
	  .locks = true, .verdict = NCSYNC_CHECK_SAFE },
	{ "publish before drain is a dma-race",
	  "engine pool\n\tdma 0x0, 0x1000, 64, latency=1\n"
	  "\tnop then sem[5]++\n\tdrain\n"
	  "engine act\n\tnop wait sem[5] >= 1\n\tdma 0x1000, 0x3000, 64, latency=1\n",
	  .verdict = NCSYNC_CHECK_DEFECT, .kinds = K(DMA_RACE) },
	{ "drain then publish is safe",
	  "engine pool\n\tdma 0x0, 0x1000, 64, latency=1\n"
	  "\tdrain then sem[5]++\n"
	  "engine act\n\tnop wait sem[5] >= 1\n\tdma 0x1000, 0x3000, 64, latency=1\n",
	  .verdict = NCSYNC_CHECK_SAFE },
	{ "an on-land update orders the reader",
	  "engine pool\n\tdma 0x0, 0x1000, 64, latency=1 on_land sem[5]++\n"
	  "engine act\n\tnop wait sem[5] >= 1\n\tdma 0x1000, 0x3000, 64, latency=1\n",
	  .verdict = NCSYNC_CHECK_SAFE },
	{ "two copies of one engine race on several queues",
	  "engine pool\n\tdma 0x0, 0x1000, 64, latency=1\n"
	  "\tdma 0x1000, 0x2000, 64, latency=1\n",
	  .verdict = NCSYNC_CHECK_DEFECT, .kinds = K(DMA_RACE) },
	{ "... and not in the one queue of --dma-fifo",
	  "engine pool\n\tdma 0x0, 0x1000, 64, latency=1\n"
	  "\tdma 0x1000, 0x2000, 64, latency=1\n",
	  .flags = NCSYNC_CHECK_F_DMA_FIFO, .verdict = NCSYNC_CHECK_SAFE },
	{ "disjoint copies do not race",
	  "engine pool\n\tdma 0x0, 0x1000, 64, latency=1\n"
	  "engine act\n\tdma 0x0, 0x2000, 64, latency=1\n",
	  .verdict = NCSYNC_CHECK_SAFE },
	{ "two engines set one event: event",
	  "engine pool\n\tnop then ev[5] set\nengine pe\n\tnop then ev[5] set\n",
	  .verdict = NCSYNC_CHECK_DEFECT, .kinds = K(EVENT) },
	{ "clearing a clear event: event, and the search goes on to the deadlock",
	  "engine pool\n\tnop then ev[6] clear\n\tnop wait sem[9] > 0\n"
	  "engine pe\n\tnop wait sem[9] < 0\n\tnop then sem[9]++\n",
	  .verdict = NCSYNC_CHECK_DEFECT,
	  .kinds = K(EVENT) | K(DEADLOCK) | K(UNPOSTED_WAIT) },
	{ "an increment past INT32_MAX: overflow",
	  "engine pool\n\tnop then sem[3]++\n", .sem = 3, .value = INT_MAX,
	  .verdict = NCSYNC_CHECK_DEFECT, .kinds = K(OVERFLOW) },
	{ "a wait nothing posts: unposted-wait and deadlock",
	  "engine pool\n\tnop wait sem[7] == 3\nengine pe\n\tnop then sem[8]++\n",
	  .verdict = NCSYNC_CHECK_DEFECT,
	  .kinds = K(UNPOSTED_WAIT) | K(DEADLOCK) },
	{ "... which passes when the initial value makes it true",
	  "engine pool\n\tnop wait sem[7] == 3\nengine pe\n\tnop then sem[8]++\n",
	  .sem = 7, .value = 3, .verdict = NCSYNC_CHECK_SAFE },
	{ "an extra barrier: barrier-imbalance (counter)",
	  "engine pool\nengine pe\nbarrier\nengine pool\n" RAW_D5,
	  .verdict = NCSYNC_CHECK_DEFECT,
	  .kinds = K(BARRIER_IMBALANCE) | K(DEADLOCK) },
	{ "an extra barrier: barrier-imbalance (events)",
	  "engine pool\nengine pe\nbarrier\nengine pool\n" RAW_D5,
	  .how = NCSYNC_LOWER_EVENTS, .verdict = NCSYNC_CHECK_DEFECT,
	  .kinds = K(BARRIER_IMBALANCE) | K(DEADLOCK) },
	{ "balanced barriers in a loop are safe (events)",
	  "engine pool\nl:\taddi r1, r1, 1\nengine pe\nl:\taddi r1, r1, 1\n"
	  "barrier\nengine pool\n\tbr.lt.u32 r1, 3, l\n"
	  "engine pe\n\tbr.lt.u32 r1, 3, l\n",
	  .how = NCSYNC_LOWER_EVENTS, .verdict = NCSYNC_CHECK_SAFE },
	{ "balanced barriers in a loop are safe (counter)",
	  "engine pool\nl:\taddi r1, r1, 1\nengine pe\nl:\taddi r1, r1, 1\n"
	  "barrier\nengine pool\n\tbr.lt.u32 r1, 3, l\n"
	  "engine pe\n\tbr.lt.u32 r1, 3, l\n",
	  .verdict = NCSYNC_CHECK_SAFE },
	{ "a consumer whose post sits behind a branch not taken: deadlock, and unposted-wait (sem[4] is 0 in every state reached)",
	  "engine pool\n\tmovi r1, 1\n\tbr.eq.u32 r1, 0, skip\n\texit\n"
	  "skip:\tnop then sem[4]++\nengine act\n\tnop wait sem[4] > 0\n",
	  .verdict = NCSYNC_CHECK_DEFECT,
	  .kinds = K(DEADLOCK) | K(UNPOSTED_WAIT) },
	/*
	 * PollSem's write-back (BARRIER §5: "if nonzero write the result
	 * back to all 16 plus a GP register") lowers sem[4] to the minimum,
	 * 1, which is what the wait needs ...
	 */
	{ "a PollSem's write-back posts a wait",
	  "engine pool\n\tnop then sem[3]++\n"
	  "\tpoll min r2, sem[3]..sem[4], writeback\n"
	  "engine pe\n\tnop wait sem[4] <= 1\n",
	  .sem = 4, .value = 5, .verdict = NCSYNC_CHECK_SAFE },
	/* ... and a zero minimum writes nothing back: sem[4] stays 5 */
	{ "a PollSem whose minimum is zero writes nothing back: deadlock, and unposted-wait",
	  "engine pool\n\tpoll min r2, sem[3]..sem[4], writeback\n"
	  "engine pe\n\tnop wait sem[4] <= 1\n",
	  .sem = 4, .value = 5, .verdict = NCSYNC_CHECK_DEFECT,
	  .kinds = K(DEADLOCK) | K(UNPOSTED_WAIT) },
	{ "an endless loop without a defect ends by state repetition",
	  "engine pool\nl:\tnop\n\tbr l\n",
	  .verdict = NCSYNC_CHECK_SAFE },
};

static void run_case(const struct ck_case *c)
{
	struct ncsync_program *p = ck_build(c->text, c->how);
	struct ncsync_check_result *res = NULL;
	struct ncsync_check_opts o;
	unsigned int i, replayed = 0;
	int ret;

	if (!p)
		return;
	ncsync_check_opts_init(&o);
	o.flags = c->flags;
	if (c->sem)
		o.sems[c->sem] = c->value;
	if (c->locks)
		o.sems[1] = o.sems[2] = 1;
	ret = ncsync_check(p, &o, &res);
	TAP_CHECK(!ret && ncsync_check_verdict(res) == c->verdict &&
		  ck_kinds(res) == c->kinds && ncsync_check_complete(res),
		  "%s: verdict %d (want %d), kinds %#x (want %#x), %llu states",
		  c->name, ncsync_check_verdict(res), c->verdict,
		  ck_kinds(res), c->kinds,
		  (unsigned long long)ncsync_check_states(res));
	for (i = 0; i < ncsync_check_ndefects(res); i++)
		replayed += ck_replays(p, &o, ncsync_check_defect(res, i));
	if (ncsync_check_ndefects(res))
		TAP_CHECK(replayed == ncsync_check_ndefects(res),
			  "%s: the schedule of each of its %u defects replays "
			  "to the state reported", c->name,
			  ncsync_check_ndefects(res));
	ncsync_check_free(res);
	ncsync_program_free(p);
}

/* The deadlock of ABBA names the cycle and the blocked engines. */
static void abba_details(void)
{
	struct ncsync_program *p = ck_build(cases[0].text,
					    NCSYNC_LOWER_COUNTER);
	const struct ncsync_check_defect *d;
	struct ncsync_check_result *res;
	struct ncsync_check_opts o;
	uint32_t i, lines;

	if (!p)
		return;
	ncsync_check_opts_init(&o);
	o.sems[1] = o.sems[2] = 1;
	ncsync_check(p, &o, &res);
	d = ck_find(res, NCSYNC_DEFECT_DEADLOCK);
	for (i = 0, lines = 0; d && i < d->nsteps; i++)
		lines += d->steps[i].line >= 2 && d->steps[i].line <= 11 &&
			 (d->steps[i].line <= 5) ==
			 (d->steps[i].engine == NCSYNC_ENGINE_POOL);
	TAP_CHECK(d && lines == d->nsteps,
		  "ABBA: every step names the line of its record");
	TAP_CHECK(d && d->deadlock.ncycle == 2 &&
		  d->state.engines[0].state == NCSYNC_ENG_BLOCKED &&
		  d->state.engines[1].state == NCSYNC_ENG_BLOCKED &&
		  d->state.engines[0].pc == 1 && d->state.engines[1].pc == 1 &&
		  !d->state.sems[1] && !d->state.sems[2] && d->nsteps >= 2,
		  "ABBA: the cycle pool -> pe, both blocked in their second P()");
	ncsync_check_free(res);
	ncsync_program_free(p);
}

int main(void)
{
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		run_case(&cases[i]);
	abba_details();
	return tap_done();
}
