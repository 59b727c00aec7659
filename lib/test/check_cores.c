// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * ncsync_check_cores() and ncsync_check_replay_cores(): programs across
 * the cores of a logical core (Documentation/ncsync/check.rst, "Programs
 * across cores").  Each core has its own banks and device memory; a copy's
 * completion update lands on the peer its record names.
 */
#include <errno.h>
#include <stdio.h>

#include "check_test.h"

/* The parts of @text ("core N" statements), lowered for @lnc cores. */
static int parts_build(const char *text, unsigned int lnc,
		       struct ncsync_asm_part *parts)
{
	struct ncsync_asm_error err;
	int n, i, ret = 0;

	n = ncsync_asm_cores(text, parts, NCSYNC_MAX_LNC, &err);
	for (i = 0; i < n && !ret; i++)
		ret = ncsync_program_set_lnc(parts[i].prog, lnc) ?:
		      ncsync_program_lower(parts[i].prog,
					   NCSYNC_LOWER_COUNTER) ?:
		      ncsync_program_finalize(parts[i].prog);
	if (n <= 0 || ret)
		TAP_CHECK(0, "build: %d/%d at %u:%u: %s", n, ret, err.line,
			  err.col, err.msg);
	return ret ? ret : n;
}

static void parts_free(struct ncsync_asm_part *parts, int n)
{
	int i;

	for (i = 0; i < n; i++)
		ncsync_program_free(parts[i].prog);
}

/* Check @text across @lnc cores with default options. */
static struct ncsync_check_result *check_text(const char *text,
					      unsigned int lnc, int *ret)
{
	struct ncsync_asm_part parts[NCSYNC_MAX_LNC];
	struct ncsync_check_result *res = NULL;
	struct ncsync_check_opts o;
	int n = parts_build(text, lnc, parts);

	ncsync_check_opts_init(&o);
	*ret = n > 0 ? ncsync_check_cores(parts, n, &o, &res) : n;
	parts_free(parts, n);
	return res;
}

#define PING \
	"core 0\nengine pool\n" \
	"\tdma 0x0, 0x100, 64, peer=1 on_land sem[3]++\n" \
	"\tnop wait sem[4] >= 1 then sem[4]--\n" \
	"core 1\nengine pool\n" \
	"\tnop wait sem[3] >= 1 then sem[3]--\n" \
	"\tdma 0x0, 0x100, 64, peer=0 on_land sem[4]++\n" \
	"\tdrain\n"

static void pingpong_safe(void)
{
	struct ncsync_check_result *res;
	int ret;

	res = check_text(PING, 2, &ret);
	TAP_CHECK(!ret && ncsync_check_verdict(res) == NCSYNC_CHECK_SAFE &&
		  ncsync_check_complete(res) && ncsync_check_states(res) > 1,
		  "a ping-pong across two cores: safe on every schedule");
	ncsync_check_free(res);
}

/* Each core waits for the other's copy before it sends its own. */
static void crossed_waits_deadlock(void)
{
	static const char text[] =
		"core 0\nengine pool\n"
		"\tnop wait sem[4] >= 1\n"
		"\tdma 0x0, 0x100, 64, peer=1 on_land sem[3]++\n"
		"core 1\nengine act\n"
		"\tnop wait sem[3] >= 1\n"
		"\tdma 0x0, 0x100, 64, peer=0 on_land sem[4]++\n";
	const struct ncsync_check_defect *d, *u;
	struct ncsync_check_result *res;
	int ret;

	res = check_text(text, 2, &ret);
	d = ck_find(res, NCSYNC_DEFECT_DEADLOCK);
	TAP_CHECK(!ret && d && d->ncores == 2 && d->core == 0 &&
		  d->engine == NCSYNC_ENGINE_POOL && d->cores[0].core == 0 &&
		  d->cores[1].core == 1 &&
		  d->cores[1].state.nengines == 1 &&
		  d->cores[1].state.engines[0].engine == NCSYNC_ENGINE_ACT &&
		  d->cores[1].state.engines[0].state == NCSYNC_ENG_BLOCKED &&
		  !memcmp(&d->state, &d->cores[0].state, sizeof(d->state)),
		  "crossed waits across cores: a deadlock, both cores' states");
	TAP_CHECK(d && d->deadlock_cores && d->deadlock_cores->nstuck == 2 &&
		  d->deadlock_cores->ncycle == 2 &&
		  d->deadlock_cores->engines[d->deadlock_cores->cycle[0]].core !=
		  d->deadlock_cores->engines[d->deadlock_cores->cycle[1]].core &&
		  !d->deadlock.ncycle,
		  "its analysis across cores: a cycle of the two cores' engines");
	u = ck_find(res, NCSYNC_DEFECT_UNPOSTED_WAIT);
	TAP_CHECK(u && u->values && u->nvalues == 1 && !u->values[0],
		  "a wait a peer's landing posts passes the poster test; its posts sit behind the crossed waits, so no reached value passes it: unposted-wait, sem[4] only 0");
	ncsync_check_free(res);
}

/* A wait on a semaphore only another core's bank of the index gets. */
static void wrong_core_unposted(void)
{
	static const char text[] =
		"core 0\nengine pool\n"
		"\tdma 0x0, 0x100, 64 on_land sem[3]++\n"
		"\tdrain\n"
		"core 1\nengine pool\n"
		"\tnop wait sem[3] >= 1\n";
	const struct ncsync_check_defect *d;
	struct ncsync_check_result *res;
	int ret;

	res = check_text(text, 2, &ret);
	d = ck_find(res, NCSYNC_DEFECT_UNPOSTED_WAIT);
	TAP_CHECK(!ret && d && d->core == 1 &&
		  d->engine == NCSYNC_ENGINE_POOL && !d->record,
		  "a copy that lands on its own core posts no wait of another: unposted-wait on core 1");
	ncsync_check_free(res);
}

/* The same bytes copied on two cores: two device memories, no race. */
static void races_per_core(void)
{
	static const char two[] =
		"core 0\nengine pool\n\tdma 0x0, 0x100, 64\n\tdrain\n"
		"core 1\nengine pool\n\tdma 0x0, 0x100, 64\n\tdrain\n";
	static const char one[] =
		"core 0\nengine pool\n\tdma 0x0, 0x100, 64\n\tdrain\n"
		"engine act\n\tdma 0x0, 0x100, 64\n\tdrain\n"
		"core 1\nengine pool\n\tnop\n";
	const struct ncsync_check_defect *d;
	struct ncsync_check_result *res;
	int ret;

	res = check_text(two, 2, &ret);
	TAP_CHECK(!ret && ncsync_check_verdict(res) == NCSYNC_CHECK_SAFE,
		  "one range copied on each of two cores: no dma-race");
	ncsync_check_free(res);
	res = check_text(one, 2, &ret);
	d = ck_find(res, NCSYNC_DEFECT_DMA_RACE);
	TAP_CHECK(!ret && d && d->core == 0 && d->other.core == 0,
		  "two engines of one core copying a range: dma-race on core 0");
	ncsync_check_free(res);
}

/* A peer's landing sets an event its own engine sets too. */
static void event_by_landing(void)
{
	static const char text[] =
		"core 0\nengine pool\n"
		"\tdma 0x0, 0x100, 64, peer=1 on_land ev[5] set\n"
		"\tdrain\n"
		"core 1\nengine pool\n\tnop then ev[5] set\n";
	const struct ncsync_check_defect *d;
	struct ncsync_check_result *res;
	int ret;

	res = check_text(text, 2, &ret);
	d = ck_find(res, NCSYNC_DEFECT_EVENT);
	TAP_CHECK(!ret && d && d->nsteps >= 2 && !d->deadlock_cores,
		  "a peer landing and a local update set one event: event");
	TAP_CHECK(d && (d->core == 0 ?
			d->steps[d->nsteps - 1].part == NCSYNC_PART_LAND &&
			d->steps[d->nsteps - 1].core == 0 :
			d->steps[d->nsteps - 1].core == 1),
		  "the step at fault names its engine's core");
	ncsync_check_free(res);
}

/* Two core barriers a pass, two engines a core, three passes. */
static void core_barrier_loop(void)
{
	static const char part[] =
		"engine pool\n\tmovi r1, 0\nloop:\tcore_barrier sem[20]\n"
		"\taddi r1, r1, 1\n\tbr.lt.u32 r1, 3, loop\n"
		"engine act\n\tmovi r1, 0\nloop:\tcore_barrier sem[20]\n"
		"\taddi r1, r1, 1\n\tbr.lt.u32 r1, 3, loop\n";
	struct ncsync_check_result *res;
	char text[1024];
	int ret;

	snprintf(text, sizeof(text), "core 0\n%score 1\n%s", part, part);
	res = check_text(text, 2, &ret);
	TAP_CHECK(!ret && ncsync_check_verdict(res) == NCSYNC_CHECK_SAFE &&
		  ncsync_check_complete(res),
		  "a loop of core barriers across two cores: safe");
	ncsync_check_free(res);
	snprintf(text, sizeof(text), "core 0\n%s", part);
	res = check_text(text, 2, &ret);
	TAP_CHECK(!ret && ncsync_check_verdict(res) == NCSYNC_CHECK_DEFECT &&
		  ck_find(res, NCSYNC_DEFECT_DEADLOCK),
		  "the core barrier of lnc 2 with only core 0's part: deadlock");
	ncsync_check_free(res);
}

/* The last state of a replay across cores. */
struct keep_cores {
	struct ncsync_check_core c[NCSYNC_CHECK_MAX_CORES];
	unsigned int n;
};

static int keep_cores(void *arg, size_t i,
		      const struct ncsync_check_core *cores, unsigned int n)
{
	struct keep_cores *k = arg;

	(void)i;
	memcpy(k->c, cores, n * sizeof(*cores));
	k->n = n;
	return 0;
}

/* Replay: the peer's banks after a landing; a step of the wrong core. */
static void replay_peer(void)
{
	static struct keep_cores k;
	struct ncsync_check_step steps[2] = {
		{ .engine = NCSYNC_ENGINE_POOL, .part = NCSYNC_PART_EFFECT },
		{ .engine = NCSYNC_ENGINE_POOL, .part = NCSYNC_PART_LAND },
	};
	struct ncsync_asm_part parts[NCSYNC_MAX_LNC];
	struct ncsync_check_opts o;
	size_t done = 0;
	int n, ret;

	n = parts_build("core 2\nengine pool\n"
			"\tdma 0x0, 0x100, 64, peer=3 on_land sem[7]++\n",
			4, parts);
	ncsync_check_opts_init(&o);
	o.sems[9] = 2;
	ret = ncsync_check_replay_cores(parts, n, &o, steps, 2, NULL, NULL,
					&done);
	TAP_CHECK(ret == -EPERM && done == 0,
		  "replay: a step named on core 0 of a part at 2: -EPERM");
	steps[0].core = 2;
	steps[1].core = 2;
	ret = ncsync_check_replay_cores(parts, n, &o, steps, 2, keep_cores,
					&k, &done);
	TAP_CHECK(!ret && done == 2 && k.n == 2 && k.c[0].core == 2 &&
		  k.c[1].core == 3 && k.c[0].state.nengines == 1 &&
		  !k.c[1].state.nengines && k.c[1].state.sems[7] == 1 &&
		  !k.c[0].state.sems[7] && k.c[0].state.sems[9] == 2 &&
		  k.c[1].state.sems[9] == 2,
		  "replay: the landing on the peer at 3, the initial values on both");
	parts_free(parts, n);
}

/* More cores or engines than the checker follows; bad parts. */
static void refusals(void)
{
	static const char five[] =
		"engine pool\n\tnop\nengine act\n\tnop\nengine pe\n\tnop\n"
		"engine dve\n\tnop\nengine sp\n\tnop\n";
	struct ncsync_asm_part parts[NCSYNC_MAX_LNC], dup[2];
	struct ncsync_check_result *res = NULL;
	struct ncsync_check_opts o;
	char text[2048];
	int n, ret;

	ncsync_check_opts_init(&o);
	n = parts_build("core 0\nengine pool\n\tnop\ncore 1\nengine pool\n"
			"\tnop\ncore 2\nengine pool\n\tnop\ncore 3\n"
			"engine pool\n\tdma 0x0, 0x100, 64, peer=4 on_land sem[1]++\n",
			8, parts);
	ret = ncsync_check_cores(parts, n, &o, &res);
	TAP_CHECK(ret == -E2BIG && !res,
		  "four parts and a fifth core their copies signal: -E2BIG");
	TAP_CHECK(ncsync_check_cores(parts, 0, &o, &res) == -EINVAL &&
		  ncsync_check_cores(NULL, 1, &o, &res) == -EINVAL &&
		  ncsync_check_cores(parts, 1, NULL, &res) == -EINVAL &&
		  ncsync_check_cores(parts, 1, &o, NULL) == -EINVAL && !res,
		  "no part, NULL parts, options or result: -EINVAL");
	dup[0] = parts[0];
	dup[1] = parts[1];
	dup[1].core = 0;
	TAP_CHECK(ncsync_check_cores(dup, 2, &o, &res) == -EINVAL && !res,
		  "two parts at one position: -EINVAL");
	parts_free(parts, n);
	snprintf(text, sizeof(text), "core 0\n%score 1\n%score 2\n%score 3\n%s",
		 five, five, five, five);
	n = parts_build(text, 4, parts);
	TAP_CHECK(ncsync_check_cores(parts, n, &o, &res) == -E2BIG && !res,
		  "twenty engines on four cores: -E2BIG");
	TAP_CHECK(ncsync_check_cores(parts, 3, &o, &res) == 0 && res,
		  "fifteen engines on three cores: checked");
	ncsync_check_free(res);
	parts_free(parts, n);
}

int main(void)
{
	pingpong_safe();
	crossed_waits_deadlock();
	wrong_core_unposted();
	races_per_core();
	event_by_landing();
	core_barrier_loop();
	replay_peer();
	refusals();
	return tap_done();
}
