// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * libncsync: semaphore and event allocation.
 *
 * Each bank has 256 ids.  A slice of each is reserved for the runtime
 * (SYNC "the runtime reserves part of each bank": RtReservedSemNum,
 * RtReservedEventsNum); by default the top 16, as the module's default
 * rt_reserved_sems and rt_reserved_events.  ncsync_sem_alloc() and
 * ncsync_event_alloc() hand out chunks of contiguous ids outside that
 * slice, first fit from id 0: a freed chunk is reused and adjacent free
 * chunks merge, since the allocator works on a per-id map.  A chunk is
 * freed whole, by its first id and length.
 *
 * The barrier lowerings take their counters and event bits inside the
 * reserved slice (lower.c), never from the user's allocator.
 */
#include <errno.h>
#include <string.h>

#include "internal.h"

void ncsync_alloc_init(struct ncsync_program *prog)
{
	memset(&prog->sems, 0, sizeof(prog->sems));
	memset(&prog->events, 0, sizeof(prog->events));
}

static bool ncsync_in_slice(unsigned int idx, unsigned int first,
			    unsigned int count)
{
	return idx >= first && idx - first < count;
}

static int ncsync_bank_alloc(struct ncsync_bank_alloc *a, unsigned int n,
			     unsigned int res_first, unsigned int res_count)
{
	unsigned int start, run = 0, i;

	if (!n || n > NCSYNC_NUM_SEMS)
		return -EINVAL;
	for (i = 0; i < NCSYNC_NUM_SEMS; i++) {
		if (a->used[i] || ncsync_in_slice(i, res_first, res_count)) {
			run = 0;
			continue;
		}
		if (++run < n)
			continue;
		start = i + 1 - n;
		memset(&a->used[start], true, n);
		a->len[start] = n;
		return (int)start;
	}
	return -ENOSPC;
}

static int ncsync_bank_free(struct ncsync_bank_alloc *a, unsigned int first,
			    unsigned int n)
{
	if (first >= NCSYNC_NUM_SEMS || !n || a->len[first] != n)
		return -EINVAL;
	a->len[first] = 0;
	memset(&a->used[first], false, n);
	return 0;
}

int ncsync_sem_alloc(struct ncsync_program *prog, unsigned int n)
{
	if (!prog)
		return -EINVAL;
	return ncsync_bank_alloc(&prog->sems, n, prog->res_sem_first,
				 prog->res_sem_count);
}

int ncsync_sem_free(struct ncsync_program *prog, unsigned int first,
		    unsigned int n)
{
	if (!prog)
		return -EINVAL;
	return ncsync_bank_free(&prog->sems, first, n);
}

int ncsync_event_alloc(struct ncsync_program *prog, unsigned int n)
{
	if (!prog)
		return -EINVAL;
	return ncsync_bank_alloc(&prog->events, n, prog->res_event_first,
				 prog->res_event_count);
}

int ncsync_event_free(struct ncsync_program *prog, unsigned int first,
		      unsigned int n)
{
	if (!prog)
		return -EINVAL;
	return ncsync_bank_free(&prog->events, first, n);
}

static bool ncsync_any_used(const bool *used, unsigned int first,
			    unsigned int count)
{
	unsigned int i;

	for (i = first; i < first + count; i++)
		if (used[i])
			return true;
	return false;
}

/*
 * Move the reserved slices, for instance to the module's (ncsync_get_info()
 * rt_reserved_*).  A slice ends at or below id 255; a count of 0 reserves
 * nothing (the barriers then fail with -ENOSPC).  -EBUSY when ids the user
 * allocated fall in a new slice, or when a barrier already took ids of the
 * current one.
 */
int ncsync_program_set_reserved(struct ncsync_program *prog,
				unsigned int sem_first, unsigned int nsems,
				unsigned int event_first,
				unsigned int nevents)
{
	if (!prog || sem_first > NCSYNC_NUM_SEMS ||
	    nsems > NCSYNC_NUM_SEMS - sem_first ||
	    event_first > NCSYNC_NUM_EVENTS ||
	    nevents > NCSYNC_NUM_EVENTS - event_first)
		return -EINVAL;
	if (prog->ctr_used || prog->ev_used || prog->frozen ||
	    ncsync_any_used(prog->res_sems, 0, NCSYNC_NUM_SEMS) ||
	    ncsync_any_used(prog->res_events, 0, NCSYNC_NUM_EVENTS))
		return -EBUSY;
	if (ncsync_any_used(prog->sems.used, sem_first, nsems) ||
	    ncsync_any_used(prog->events.used, event_first, nevents))
		return -EBUSY;
	prog->res_sem_first = sem_first;
	prog->res_sem_count = nsems;
	prog->res_event_first = event_first;
	prog->res_event_count = nevents;
	return 0;
}

/* The lowering takes reserved semaphore @idx (shared by its barriers). */
int ncsync_res_sem_take(struct ncsync_program *prog, unsigned int idx)
{
	if (!ncsync_in_slice(idx, prog->res_sem_first, prog->res_sem_count) ||
	    idx >= NCSYNC_NUM_SEMS)
		return -ENOSPC;
	prog->res_sems[idx] = true;
	return (int)idx;
}

int ncsync_res_event_take(struct ncsync_program *prog, unsigned int idx)
{
	if (!ncsync_in_slice(idx, prog->res_event_first,
			     prog->res_event_count) ||
	    idx >= NCSYNC_NUM_EVENTS)
		return -ENOSPC;
	prog->res_events[idx] = true;
	return (int)idx;
}

/* The semaphores the user allocated, as a GroupResetSemaphores mask. */
void ncsync_alloc_sem_mask(const struct ncsync_program *prog,
			   uint32_t mask[8])
{
	unsigned int i;

	memset(mask, 0, 8 * sizeof(*mask));
	for (i = 0; i < NCSYNC_NUM_SEMS; i++)
		if (prog->sems.used[i])
			mask[i / 32] |= 1U << (i % 32);
}

bool ncsync_res_sem_in(const struct ncsync_program *prog, uint8_t sem)
{
	return sem >= prog->res_sem_first &&
	       sem < prog->res_sem_first + prog->res_sem_count;
}
