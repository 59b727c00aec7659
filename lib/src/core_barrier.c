// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * libncsync: the core barrier, CoreBarrier (0xD8): emitted at once by
 * ncsync_add_core_barrier() (pseudo.c), or a 0xD8 record on every stream
 * lowered by this pass of ncsync_program_lower() (lower.c) into the same
 * records, for the program's logical
 * core size (ncsync_program_set_lnc()) (Documentation/ncsync/barriers.rst,
 * "The core barrier"; SYNC "Drain & anti-race ordering", ENC 6d).
 *
 * Every core of a logical core runs a program that reaches the same
 * sequence of core barriers.  A pass, on each of them:
 *
 *   every engine   the all-engine barrier (counter form)
 *   lowest engine  for each core position p: DMA, on landing sem[S] += 1
 *                  on the core at p (a copy of the word at device memory
 *                  4 x p onto itself: it changes no byte, and the
 *                  arrivals of a pass touch no common byte)
 *                  wait sem[S] >= lnc, then sem[S] -= lnc
 *   every engine   the all-engine barrier
 *
 * sem[S] of a core counts the arrivals landed there that its lowest engine
 * has not yet consumed.  Its wait passes pass k only once lnc x k
 * arrivals have landed in all, which needs every core to have arrived at
 * k; the subtraction commutes with the landings (both add), so no
 * arrival of a fast core is lost, and the value stays between 0 and
 * 2 x lnc - 1: no pass limit, no reset between passes.  A completed
 * program leaves sem[S] at 0 on every core.
 *
 * A 0xD8 record's events block is split as a 0xD5's: its wait on a NoOp
 * before the first pass, its update on a NoOp after the second.  Every
 * engine must have the same core barriers (the same semaphores and ids,
 * in the same order); the lowering checks that before it rewrites
 * anything.
 */
#include <errno.h>

#include "internal.h"
#include "ncsync_optab.h"

/* The lowest engine's part of a pass: the arrivals, the wait, the take. */
int ncsync_core_arrive(struct ncsync_stream *s, uint8_t sem,
		       unsigned int lnc)
{
	unsigned int p;
	int ret;

	for (p = 0; p < lnc; p++) {
		ret = ncsync_add_dma_peer(s, p, 4 * p, 4 * p, 4, 0,
					  NCSYNC_UPD_COMPLETE |
					  NCSYNC_UPD_SEM_INC, sem, NULL);
		if (ret < 0)
			return ret;
	}
	ret = ncsync_add_semaphore_wait_ge(s, sem, lnc);
	if (ret >= 0)
		ret = ncsync_add_semaphore_sub(s, sem, lnc);
	return ret < 0 ? ret : 0;
}

/* The lnc the lowering uses: set, else the submission's device's, else 1. */
unsigned int ncsync_lower_lnc(const struct ncsync_program *prog)
{
	if (prog->lnc)
		return prog->lnc;
	return prog->dev_lnc ? prog->dev_lnc : 1;
}

/* Record @i of @s, a 0xD8: decoded into @p, or a lowering failure. */
static int ncsync_cb_decode(struct ncsync_program *prog,
			    const struct ncsync_stream *s, uint32_t i,
			    struct ncsync_pseudo *p)
{
	enum ncsync_pseudo_reason r;

	r = ncsync_pseudo_decode(ncsync_stream_at(s, i), p);
	if (r)
		return ncsync_lower_fail(prog, -EINVAL,
					 "engine %s record %u: malformed core_barrier (0xd8): %s",
					 ncsync_engine_name(s->engine), i,
					 ncsync_pseudo_reason_name(r));
	if (ncsync_res_sem_in(prog, p->sem))
		return ncsync_lower_fail(prog, -EINVAL,
					 "engine %s record %u: core_barrier sem[%u] is in the reserved slice (%u-%u)",
					 ncsync_engine_name(s->engine), i,
					 p->sem, prog->res_sem_first,
					 prog->res_sem_first +
					 prog->res_sem_count - 1);
	return 0;
}

/*
 * The next 0xD8 of @s from *@i on, decoded into @p and *@i its index:
 * 1, 0 when there is none, or a lowering failure.
 */
static int ncsync_cb_next(struct ncsync_program *prog,
			  const struct ncsync_stream *s, uint32_t *i,
			  struct ncsync_pseudo *p)
{
	int ret;

	for (; *i < s->count; (*i)++) {
		if (ncsync_lower_kind(ncsync_stream_at(s, *i)[0]) !=
		    NCSYNC_LOWER_CORES)
			continue;
		ret = ncsync_cb_decode(prog, s, *i, p);
		return ret < 0 ? ret : 1;
	}
	return 0;
}

/* The core barriers of @s are those of @ref: 0 or a lowering failure. */
static int ncsync_cb_agree(struct ncsync_program *prog,
			   const struct ncsync_stream *ref,
			   const struct ncsync_stream *s)
{
	const struct ncsync_stream *on, *off;
	struct ncsync_pseudo a, b;
	uint32_t i = 0, j = 0;
	unsigned int k;
	int ra, rb;

	for (k = 0;; k++, i++, j++) {
		ra = ncsync_cb_next(prog, ref, &i, &a);
		rb = ra < 0 ? ra : ncsync_cb_next(prog, s, &j, &b);
		if (ra < 0 || rb < 0)
			return ra < 0 ? ra : rb;
		if (!ra && !rb)
			return 0;
		on = ra ? ref : s;
		off = ra ? s : ref;
		if (ra != rb)
			return ncsync_lower_fail(prog, -EINVAL,
						 "core_barrier on some engines only: core barrier %u is on engine %s, not on engine %s",
						 k + 1, ncsync_engine_name(on->engine),
						 ncsync_engine_name(off->engine));
		if (a.sem != b.sem || a.id != b.id)
			return ncsync_lower_fail(prog, -EINVAL,
						 "core barrier %u: sem[%u] id %u on engine %s, sem[%u] id %u on engine %s",
						 k + 1, a.sem, a.id,
						 ncsync_engine_name(ref->engine),
						 b.sem, b.id,
						 ncsync_engine_name(s->engine));
	}
}

/**
 * ncsync_core_barriers_plan() - check the 0xD8 records of a program.
 * @prog: the program, Calls inlined.
 *
 * Every record is well-formed with its semaphore outside the reserved
 * slice, and every stream has the same core barriers as the lowest
 * engine's; the lnc the lowering uses is in range.
 *
 * Return: 1 when the program has 0xD8 records, 0 when it has none, or a
 * negative errno with the message of ncsync_program_lower_error() set.
 */
int ncsync_core_barriers_plan(struct ncsync_program *prog)
{
	unsigned int mask = ncsync_program_engines(prog), e, lnc;
	const struct ncsync_stream *ref;
	struct ncsync_pseudo p;
	uint32_t i = 0;
	int ret;

	if (!mask)
		return 0;
	ref = prog->streams[__builtin_ctz(mask)];
	/* Against itself too: every record of @ref is checked. */
	for (e = 0; e < NCSYNC_MAX_ENGINE_ID; e++) {
		if (!prog->streams[e])
			continue;
		ret = ncsync_cb_agree(prog, ref, prog->streams[e]);
		if (ret < 0)
			return ret;
	}
	ret = ncsync_cb_next(prog, ref, &i, &p);
	lnc = ncsync_lower_lnc(prog);
	if (ret > 0 && lnc > NCSYNC_MAX_LNC)
		return ncsync_lower_fail(prog, -EINVAL,
					 "core_barrier: lnc %u out of range (1-%u)",
					 lnc, NCSYNC_MAX_LNC);
	return ret;
}

/* The lowering owns the semaphore of every 0xD8, checked by the plan. */
void ncsync_core_sems_take(struct ncsync_program *prog)
{
	unsigned int mask = ncsync_program_engines(prog);
	const struct ncsync_stream *ref;
	struct ncsync_pseudo p;
	uint32_t i;

	if (!mask)
		return;
	ref = prog->streams[__builtin_ctz(mask)];
	for (i = 0; i < ref->count; i++) {
		if (ncsync_stream_at(ref, i)[0] != NCSYNC_OPC_CORE_BARRIER)
			continue;
		ncsync_pseudo_decode(ncsync_stream_at(ref, i), &p);
		prog->own_core_sems[p.sem] = true;
	}
}

/**
 * ncsync_core_barrier_lower() - the records of one 0xD8 on one stream.
 * @t: the stream being rewritten.
 * @rec: the 0xD8, checked by ncsync_core_barriers_plan().
 * @lnc: the logical core size.
 * @mask: the program's engines: the lowest one arrives.
 *
 * The records ncsync_add_core_barrier() emits, with the halves of the
 * events block before and after (ncsync_barrier_block_emit()).
 *
 * Return: 0 or a negative errno.
 */
int ncsync_core_barrier_lower(struct ncsync_stream *t, const uint8_t *rec,
			      unsigned int lnc, unsigned int mask)
{
	struct ncsync_pseudo p;
	int ret;

	ncsync_pseudo_decode(rec, &p);
	ret = ncsync_barrier_block_emit(t, rec, true);
	if (ret >= 0)
		ret = ncsync_emit_ctr_pass(t, t->prog);
	if (ret >= 0 && t->engine == __builtin_ctz(mask))
		ret = ncsync_core_arrive(t, p.sem, lnc);
	if (ret >= 0)
		ret = ncsync_emit_ctr_pass(t, t->prog);
	if (ret >= 0)
		ret = ncsync_barrier_block_emit(t, rec, false);
	return ret < 0 ? ret : 0;
}
