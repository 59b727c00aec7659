// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * ncsync_check(): unposted-wait decided on the reachable states.  A wait
 * that records of other engines could post, but whose test holds for no
 * value its semaphore takes in any state the search reaches, is reported,
 * with those values and a schedule that, replayed, reaches the state
 * reported; a wait that only deadlocks because of the order of the steps
 * (its test holds in some reachable state) stays a deadlock alone.
 */
#include <stdio.h>

#include "check_test.h"

#define K(kind)	(1U << NCSYNC_DEFECT_##kind)

struct ck_case {
	const char *name;
	const char *text;
	unsigned int kinds;	/* exactly these are reported */
	unsigned int nvalues;	/* of the unposted-wait */
	int32_t values[8];
};

static const struct ck_case cases[] = {
	{ "== 5 on a counter that takes even values",
	  "engine pool\n\tmovi r1, 0\nl:\tnop then sem[2] += 2\n"
	  "\taddi r1, r1, 1\n\tbr.lt.u32 r1, 4, l\n"
	  "engine act\n\tnop wait sem[2] == 5\n",
	  K(DEADLOCK) | K(UNPOSTED_WAIT), 5, { 0, 2, 4, 6, 8 } },
	{ ">= 4 with three posts",
	  "engine pool\n\tnop then sem[2]++\n\tnop then sem[2]++\n"
	  "engine pe\n\tnop then sem[2]++\n"
	  "engine act\n\tnop wait sem[2] >= 4\n",
	  K(DEADLOCK) | K(UNPOSTED_WAIT), 4, { 0, 1, 2, 3 } },
	{ "a threshold from a register that no value reaches",
	  "engine pool\n\tnop then sem[2]++\n"
	  "engine act\n\tmovi r1, 2\n\tnop wait sem[2] >= r1\n",
	  K(DEADLOCK) | K(UNPOSTED_WAIT), 2, { 0, 1 } },
	{ "an endless loop posting what the wait never sees (no deadlock)",
	  "engine pool\nl:\tnop then sem[2] += 2\n\tnop then sem[2] -= 2\n"
	  "\tbr.eq.u32 r0, 0, l\n"
	  "engine act\n\tnop wait sem[2] == 1\n",
	  K(UNPOSTED_WAIT), 2, { 0, 2 } },
	{ "<= -1 on a counter that only grows: the poster test, no values",
	  "engine pool\n\tnop then sem[2]++\n\tnop then sem[2]++\n"
	  "engine act\n\tnop wait sem[2] <= -1\n",
	  K(DEADLOCK) | K(UNPOSTED_WAIT), 0, { 0 } },
	{ "an event only a blocked record sets",
	  "engine pool\n\tnop wait ev[5] set\n"
	  "engine act\n\tnop wait sem[3] >= 1\n\tnop then ev[5] set\n",
	  K(DEADLOCK) | K(UNPOSTED_WAIT), 1, { 0 } },
	{ "an ordering deadlock is no unposted-wait",
	  "engine pool\n\tnop wait sem[1] > 0 then sem[1]--\n"
	  "\tnop wait sem[2] > 0 then sem[2]--\n"
	  "\tnop then sem[2]++\n\tnop then sem[1]++\n"
	  "engine pe\n\tnop wait sem[2] > 0 then sem[2]--\n"
	  "\tnop wait sem[1] > 0 then sem[1]--\n"
	  "\tnop then sem[1]++\n\tnop then sem[2]++\n"
	  "engine act\n\tnop then sem[1]++\n\tnop then sem[2]++\n",
	  K(DEADLOCK), 0, { 0 } },
	{ "a wait posted late in one order only is no unposted-wait",
	  "engine pool\n\tnop then sem[2] = 7\n\tnop then sem[2] = 0\n"
	  "engine act\n\tnop wait sem[2] == 7\n",
	  K(DEADLOCK), 0, { 0 } },
	{ "a group reset raises a negative semaphore: no unposted-wait",
	  "engine pool\n\tnop then sem[2] -= 3\n\tnop then ev[1] set\n"
	  "\tsema_clear 2\n"
	  "engine act\n\tnop wait ev[1] set\n\tnop wait sem[2] >= -1\n",
	  0, 0, { 0 } },
	{ "a counter that reaches the threshold is safe",
	  "engine pool\n\tnop then sem[2]++\n\tnop then sem[2]++\n"
	  "engine act\n\tnop wait sem[2] >= 2\n", 0, 0, { 0 } },
};

/* Whether the engine of @d is blocked in the state reported. */
static bool ck_blocked(const struct ncsync_check_defect *d)
{
	uint32_t i;

	for (i = 0; i < d->state.nengines; i++)
		if (d->state.engines[i].engine == d->engine)
			return d->state.engines[i].state == NCSYNC_ENG_BLOCKED;
	return false;
}

static void ck_run_case(const struct ck_case *c)
{
	struct ncsync_program *p = ck_build(c->text, NCSYNC_LOWER_COUNTER);
	struct ncsync_check_result *res = NULL;
	const struct ncsync_check_defect *d;
	struct ncsync_check_opts o;
	int ret;

	if (!p)
		return;
	ncsync_check_opts_init(&o);
	ret = ncsync_check(p, &o, &res);
	TAP_CHECK(!ret && ncsync_check_complete(res) &&
		  ck_kinds(res) == c->kinds,
		  "%s: %d, kinds %#x", c->name, ret, res ? ck_kinds(res) : 0);
	d = res ? ck_find(res, NCSYNC_DEFECT_UNPOSTED_WAIT) : NULL;
	if (c->nvalues)	/* decided on the values */
		TAP_CHECK(d && d->nvalues == c->nvalues &&
			  !memcmp(d->values, c->values,
				  c->nvalues * sizeof(*c->values)) &&
			  ck_blocked(d) && ck_replays(p, &o, d),
			  "%s: the values it takes, %u; the schedule replays",
			  c->name, d ? d->nvalues : 0);
	ncsync_check_free(res);
	ncsync_program_free(p);
}

int main(void)
{
	unsigned int i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		ck_run_case(&cases[i]);
	return tap_done();
}
