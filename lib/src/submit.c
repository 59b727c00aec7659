// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * libncsync: submitting a program to a core, or across the cores of a
 * logical core (NCSYNC_IOC_SUBMIT).
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

/* The lnc of @dev's logical core: 1 for a module that reports none. */
static unsigned int ncsync_dev_lnc(const struct ncsync_dev *dev)
{
	const struct ncsync_info *info = ncsync_get_info(dev);

	return info->lnc ? info->lnc : 1;
}

/*
 * Finalize @prog for a device of logical core size @lnc (its 0xD8 records
 * lowered for @lnc unless ncsync_program_set_lnc() said otherwise) and
 * check it for @flags; on a refusal fill @err.  Return 0 or the negative
 * error.
 */
static int ncsync_submit_prepare(struct ncsync_program *prog, uint32_t flags,
				 unsigned int lnc,
				 struct ncsync_submit_error *err)
{
	int ret;

	if (!prog->frozen && !prog->lnc)
		prog->dev_lnc = lnc;
	ret = ncsync_program_finalize(prog);
	if (ret) {
		if (err)
			ncsync_program_error(prog, err);
		return ret;
	}
	/* Core barriers for another logical core would hang or not hold. */
	if (prog->core_lnc && prog->core_lnc != lnc)
		return ncsync_lower_fail(prog, -EXDEV,
					 "core barriers lowered for lnc %u, the device's logical core has %u cores",
					 prog->core_lnc, lnc);
	/* The kernel never sees a 0xD5: the profile's rule for it is here. */
	if ((flags & NCSYNC_SUBMIT_F_CONFORM) && prog->conf_bad) {
		ncsync_submit_error_set(err, prog->conf_engine,
					prog->conf_index,
					NCSYNC_REC_CONF_PSEUDO);
		return -EINVAL;
	}
	return 0;
}

/*
 * Append the queues of @prog's non-empty streams, in engine order, to
 * @qs (room for NCSYNC_NUM_ENGINES more), each at core position @pos:
 * the number appended.
 */
static unsigned int ncsync_submit_queues(const struct ncsync_program *prog,
					 struct ncsync_queue *qs, uint8_t pos)
{
	unsigned int e, nq = 0;

	for (e = 0; e < NCSYNC_MAX_ENGINE_ID; e++) {
		const struct ncsync_stream *s = prog->streams[e];

		if (!s || !s->count)
			continue;
		memset(&qs[nq], 0, sizeof(qs[nq]));
		qs[nq].records = (uintptr_t)s->recs;
		qs[nq].count = s->count;
		qs[nq].engine = s->engine;
		qs[nq].pad[0] = pos;
		nq++;
	}
	return nq;
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
	unsigned int nq;
	int ret;

	ncsync_submit_error_set(err, 0, 0, NCSYNC_REC_OK);
	if (!dev || !prog)
		return -EINVAL;
	ret = ncsync_submit_prepare(prog, flags, ncsync_dev_lnc(dev), err);
	if (ret)
		return ret;
	nq = ncsync_submit_queues(prog, qs, 0);
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

/* The position of @dev's core in its logical core. */
static unsigned int ncsync_dev_pos(const struct ncsync_dev *dev)
{
	const struct ncsync_info *info = ncsync_get_info(dev);

	return info->lnc ? info->core % info->lnc : 0;
}

/*
 * Check that @devs are distinct cores of @devs[0]'s logical core, and
 * finalize @progs; @err and *@err_part name a refused record.
 */
static int ncsync_cores_prepare(struct ncsync_dev *const devs[],
				struct ncsync_program *const progs[],
				unsigned int n, uint32_t flags,
				struct ncsync_submit_error *err,
				unsigned int *err_part)
{
	const struct ncsync_info *i0;
	unsigned int i, j;
	int ret;

	if (!devs || !progs || !n || n > NCSYNC_MAX_LNC || !devs[0])
		return -EINVAL;
	i0 = ncsync_get_info(devs[0]);
	for (i = 0; i < n; i++) {
		const struct ncsync_info *info;

		if (!devs[i] || !progs[i])
			return -EINVAL;
		info = ncsync_get_info(devs[i]);
		if (!i0->lnc || info->core / i0->lnc != i0->core / i0->lnc)
			return -EXDEV;
		for (j = 0; j < i; j++)
			if (ncsync_get_info(devs[j])->core == info->core)
				return -EINVAL;
	}
	for (i = 0; i < n; i++) {
		if (err_part)
			*err_part = i;
		ret = ncsync_submit_prepare(progs[i], flags,
					    ncsync_dev_lnc(devs[0]), err);
		if (ret)
			return ret;
	}
	if (err_part)
		*err_part = 0;
	return 0;
}

/* Report a record the kernel refused: its part, from its core's position. */
static void ncsync_cores_refused(struct ncsync_dev *const devs[],
				 unsigned int n, const struct ncsync_submit *sub,
				 struct ncsync_submit_error *err,
				 unsigned int *err_part)
{
	unsigned int i;

	ncsync_submit_error_set(err, sub->bad_engine, sub->bad_index,
				sub->reason);
	for (i = 0; i < n && err_part; i++)
		if (ncsync_dev_pos(devs[i]) == sub->bad_core)
			*err_part = i;
}

/*
 * Run @progs[i] on the core of @devs[i], for every i < @n, as one program
 * across the cores of @devs[0]'s logical core, submitted on @devs[0]
 * (NCSYNC_SUBMIT_F_CORES).  On a refused record @err says which and
 * *@err_part in which program.
 */
int ncsync_program_submit_cores(struct ncsync_dev *const devs[],
				struct ncsync_program *const progs[],
				unsigned int n, uint32_t flags,
				uint32_t watchdog_ms, uint32_t *id,
				struct ncsync_submit_error *err,
				unsigned int *err_part)
{
	struct ncsync_queue qs[NCSYNC_MAX_LNC * NCSYNC_NUM_ENGINES];
	int32_t fds[NCSYNC_MAX_LNC];
	struct ncsync_submit sub;
	unsigned int i, nq = 0, nq1;
	int ret;

	ncsync_submit_error_set(err, 0, 0, NCSYNC_REC_OK);
	ret = ncsync_cores_prepare(devs, progs, n, flags, err, err_part);
	if (ret)
		return ret;
	for (i = 0; i < n; i++) {
		nq1 = ncsync_submit_queues(progs[i], qs + nq,
					   ncsync_dev_pos(devs[i]));
		if (!nq1)
			return -ENODATA;
		nq += nq1;
		if (i)
			fds[i - 1] = ncsync_fd(devs[i]);
	}
	memset(&sub, 0, sizeof(sub));
	sub.queues = (uintptr_t)qs;
	sub.nqueues = nq;
	sub.flags = flags | NCSYNC_SUBMIT_F_CORES;
	sub.watchdog_ms = watchdog_ms;
	sub.fds = (uintptr_t)fds;
	sub.nfds = n - 1;
	ret = ncsync_ioctl(devs[0], NCSYNC_IOC_SUBMIT, &sub);
	if (ret) {
		if (ret == -EINVAL && sub.reason)
			ncsync_cores_refused(devs, n, &sub, err, err_part);
		return ret;
	}
	if (id)
		*id = sub.id;
	return 0;
}
