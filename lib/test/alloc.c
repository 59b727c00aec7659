// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * Semaphore and event allocation: first fit below the reserved slice,
 * freed chunks reused and merged, -ENOSPC, the reserved slice untouched,
 * frees of what was not allocated refused, ncsync_program_set_reserved().
 */
#include <errno.h>

#include "ncsync.h"
#include "tap.h"

int main(void)
{
	struct ncsync_program *p;
	struct ncsync_stream *s;
	int a, b, c, d, i, n, last;

	ncsync_program_new(&p);
	a = ncsync_sem_alloc(p, 4);
	b = ncsync_sem_alloc(p, 2);
	c = ncsync_sem_alloc(p, 1);
	TAP_CHECK(a == 0 && b == 4 && c == 6, "first fit from 0: %d %d %d",
		  a, b, c);
	TAP_CHECK(ncsync_sem_free(p, 4, 2) == 0, "free a chunk");
	TAP_CHECK(ncsync_sem_alloc(p, 1) == 4, "freed chunk reused");
	TAP_CHECK(ncsync_sem_alloc(p, 2) == 7, "a chunk too small is skipped");
	TAP_CHECK(ncsync_sem_free(p, 0, 4) == 0 &&
		  ncsync_sem_free(p, 4, 1) == 0,
		  "free two adjacent chunks");
	TAP_CHECK(ncsync_sem_alloc(p, 5) == 0, "adjacent free chunks merge");
	TAP_CHECK(ncsync_sem_free(p, 0, 4) == -EINVAL,
		  "free with the wrong length refused");
	TAP_CHECK(ncsync_sem_free(p, 1, 1) == -EINVAL,
		  "free inside a chunk refused");
	TAP_CHECK(ncsync_sem_free(p, 100, 1) == -EINVAL,
		  "free of an unallocated id refused");
	TAP_CHECK(ncsync_sem_free(p, 300, 1) == -EINVAL,
		  "free out of range refused");
	TAP_CHECK(ncsync_sem_alloc(p, 0) == -EINVAL, "alloc 0 refused");
	TAP_CHECK(ncsync_sem_free(p, 0, 5) == 0 &&
		  ncsync_sem_free(p, 6, 1) == 0 &&
		  ncsync_sem_free(p, 7, 2) == 0, "free everything");

	/* the reserved slice: 240..255 by default */
	TAP_CHECK(ncsync_sem_alloc(p, 241) == -ENOSPC,
		  "more than the 240 free ids: -ENOSPC");
	a = ncsync_sem_alloc(p, 240);
	TAP_CHECK(a == 0, "all 240 ids below the slice");
	TAP_CHECK(ncsync_sem_alloc(p, 1) == -ENOSPC,
		  "the reserved slice is never handed out");
	ncsync_sem_free(p, 0, 240);
	last = -1;
	for (i = 0, n = 0; i < 300; i++) {
		c = ncsync_sem_alloc(p, 1);
		if (c < 0)
			break;
		last = c;
		n++;
	}
	TAP_CHECK(n == 240 && last == 239 && c == -ENOSPC,
		  "one by one: 240 ids, the last 239, then -ENOSPC");
	TAP_CHECK(ncsync_sem_free(p, 120, 1) == 0 &&
		  ncsync_sem_alloc(p, 2) == -ENOSPC &&
		  ncsync_sem_alloc(p, 1) == 120,
		  "a hole of 1 fits 1, not 2");

	/* events: the same, independent of semaphores */
	a = ncsync_event_alloc(p, 3);
	b = ncsync_event_alloc(p, 3);
	TAP_CHECK(a == 0 && b == 3, "events first fit, independent bank");
	TAP_CHECK(ncsync_event_free(p, 0, 3) == 0 &&
		  ncsync_event_alloc(p, 2) == 0 &&
		  ncsync_event_alloc(p, 2) == 6,
		  "event chunk reuse");
	TAP_CHECK(ncsync_event_free(p, 3, 2) == -EINVAL,
		  "event free with the wrong length refused");
	TAP_CHECK(ncsync_event_alloc(p, 240) == -ENOSPC, "event -ENOSPC");
	ncsync_program_free(p);

	/* moving the reserved slice */
	ncsync_program_new(&p);
	TAP_CHECK(ncsync_program_set_reserved(p, 250, 7, 0, 0) == -EINVAL,
		  "slice past 255 refused");
	TAP_CHECK(ncsync_program_set_reserved(p, 257, 0, 0, 0) == -EINVAL,
		  "first past 256 refused");
	TAP_CHECK(ncsync_program_set_reserved(p, 256, 0, 224, 32) == 0,
		  "no reserved semaphores, 32 reserved events");
	TAP_CHECK(ncsync_sem_alloc(p, 256) == 0, "all 256 semaphores");
	TAP_CHECK(ncsync_event_alloc(p, 225) == -ENOSPC &&
		  ncsync_event_alloc(p, 224) == 0, "224 events");
	TAP_CHECK(ncsync_program_set_reserved(p, 240, 16, 224, 32) == -EBUSY,
		  "a slice over allocated ids: -EBUSY");
	ncsync_sem_free(p, 0, 256);
	TAP_CHECK(ncsync_program_set_reserved(p, 100, 16, 224, 32) == 0,
		  "a slice in the middle");
	a = ncsync_sem_alloc(p, 100);
	b = ncsync_sem_alloc(p, 10);
	d = ncsync_sem_alloc(p, 140);
	TAP_CHECK(a == 0 && b == 116 && d == -ENOSPC,
		  "allocation goes around the slice: %d %d %d", a, b, d);

	/* once a barrier took reserved ids, the slice stays */
	ncsync_program_stream(p, NCSYNC_ENGINE_POOL, &s);
	TAP_CHECK(ncsync_add_sync_barrier(p) == 0, "sync_barrier");
	TAP_CHECK(ncsync_program_set_reserved(p, 240, 16, 240, 16) == -EBUSY,
		  "slice fixed once the barriers took ids");
	ncsync_program_free(p);
	return tap_done();
}
