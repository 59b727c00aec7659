// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * libncsync: submitting a program to a core (NCSYNC_IOC_SUBMIT).
 */
#include <errno.h>
#include <string.h>

#include "internal.h"

static void ncsync_submit_error_set(struct ncsync_submit_error *err,
				    uint8_t engine, uint32_t index,
				    uint32_t reason)
{
	if (!err)
		return;
	err->engine = engine;
	err->index = index;
	err->reason = reason;
}

/*
 * Finalize @prog if needed and run it on @dev: one queue per non-empty
 * stream, in engine order.  On -EINVAL for a record (refused by
 * finalization or by the kernel) @err says which and why; otherwise its
 * reason is NCSYNC_REC_OK.  With NCSYNC_SUBMIT_F_CONFORM a malformed 0xD5
 * record the lowering met is refused here (NCSYNC_REC_CONF_PSEUDO, its
 * index before the lowering); the kernel checks the other rules.
 */
int ncsync_program_submit(struct ncsync_dev *dev, struct ncsync_program *prog,
			  uint32_t flags, uint32_t watchdog_ms, uint32_t *id,
			  struct ncsync_submit_error *err)
{
	struct ncsync_queue qs[NCSYNC_NUM_ENGINES];
	struct ncsync_submit sub;
	unsigned int e, nq = 0;
	int ret;

	ncsync_submit_error_set(err, 0, 0, NCSYNC_REC_OK);
	if (!dev || !prog)
		return -EINVAL;
	ret = ncsync_program_finalize(prog);
	if (ret) {
		if (err)
			ncsync_program_error(prog, err);
		return ret;
	}
	/* The kernel never sees a 0xD5: the profile's rule for it is here. */
	if ((flags & NCSYNC_SUBMIT_F_CONFORM) && prog->conf_bad) {
		ncsync_submit_error_set(err, prog->conf_engine,
					prog->conf_index,
					NCSYNC_REC_CONF_PSEUDO);
		return -EINVAL;
	}

	memset(qs, 0, sizeof(qs));
	for (e = 0; e < NCSYNC_MAX_ENGINE_ID; e++) {
		const struct ncsync_stream *s = prog->streams[e];

		if (!s || !s->count)
			continue;
		qs[nq].records = (uintptr_t)s->recs;
		qs[nq].count = s->count;
		qs[nq].engine = s->engine;
		nq++;
	}
	if (!nq)
		return -ENODATA;

	memset(&sub, 0, sizeof(sub));
	sub.queues = (uintptr_t)qs;
	sub.nqueues = nq;
	sub.flags = flags;
	sub.watchdog_ms = watchdog_ms;
	ret = ncsync_ioctl(dev, NCSYNC_IOC_SUBMIT, &sub);
	if (ret) {
		if (ret == -EINVAL && sub.reason)
			ncsync_submit_error_set(err, sub.bad_engine,
						sub.bad_index, sub.reason);
		return ret;
	}
	if (id)
		*id = sub.id;
	return 0;
}
