// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * libncsync: the core barrier, CoreBarrier (0xD8) as the runtime would
 * build it, emitted at once (Documentation/ncsync/barriers.rst, "The core
 * barrier"; SYNC "Drain & anti-race ordering", ENC 6d).
 *
 * Every core of a logical core runs a program that reaches the same
 * sequence of core barriers.  A pass, on each of them:
 *
 *   every engine   the all-engine barrier (counter form)
 *   lowest engine  for each core position p: DMA, on landing sem[S] += 1
 *                  on the core at p (a 4-byte copy of a word onto
 *                  itself: it changes no byte)
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
 */
#include <errno.h>

#include "internal.h"

/* The lowest engine's part of a pass: the arrivals, the wait, the take. */
static int ncsync_core_arrive(struct ncsync_stream *s, uint8_t sem,
			      unsigned int lnc)
{
	unsigned int p;
	int ret;

	for (p = 0; p < lnc; p++) {
		ret = ncsync_add_dma_peer(s, p, 0, 0, 4, 0,
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

/* The checks before anything is added: 0 or -errno. */
static int ncsync_core_barrier_check(const struct ncsync_program *prog,
				     uint8_t sem, unsigned int lnc)
{
	if (!prog || !lnc || lnc > NCSYNC_MAX_LNC)
		return -EINVAL;
	if (prog->frozen)
		return -EBUSY;
	if (!ncsync_program_engines(prog))
		return -EINVAL;
	/* The lowerings own the reserved slice. */
	if (sem >= prog->res_sem_first &&
	    sem < prog->res_sem_first + prog->res_sem_count)
		return -EINVAL;
	return 0;
}

/**
 * ncsync_add_core_barrier() - a core barrier over a logical core.
 * @prog: the program one core of the logical core runs; every stream
 *	exists already.
 * @sem: the barrier semaphore (CoreBarrier's index at +0x10), the same on
 *	every core, outside the reserved slice, 0 on every core when the
 *	programs start, and written by nothing else.
 * @lnc: the cores of the logical core (NCSYNC_IOC_INFO lnc), 1 to
 *	NCSYNC_MAX_LNC: each runs a program with the same core barriers.
 *
 * Return: 0; -EINVAL for a NULL @prog, a program without streams, @lnc out
 * of range or @sem in the reserved slice; -EBUSY once lowered or
 * finalized; -ENOMEM.  On an error no stream has a record more.
 */
int ncsync_add_core_barrier(struct ncsync_program *prog, uint8_t sem,
			    unsigned int lnc)
{
	struct ncsync_mark mark;
	unsigned int mask;
	int ret;

	ret = ncsync_core_barrier_check(prog, sem, lnc);
	if (ret < 0)
		return ret;
	mask = ncsync_program_engines(prog);
	ncsync_program_mark(prog, &mark);
	ret = ncsync_add_sync_barrier(prog);
	if (!ret)
		ret = ncsync_core_arrive(prog->streams[__builtin_ctz(mask)],
					 sem, lnc);
	if (!ret)
		ret = ncsync_add_sync_barrier(prog);
	if (ret < 0)
		ncsync_program_rewind(prog, &mark);
	return ret;
}
