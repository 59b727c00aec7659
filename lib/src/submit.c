// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * libncsync: submitting a program to a core, or across the cores of a
 * logical core (NCSYNC_IOC_SUBMIT).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"
#include "ncsync_optab.h"

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

/* The position of @dev's core in its logical core. */
static unsigned int ncsync_dev_pos(const struct ncsync_dev *dev)
{
	const struct ncsync_info *info = ncsync_get_info(dev);

	return info->lnc ? info->core % info->lnc : 0;
}

/*
 * The cores a completion of @prog's DMA records lands on: bit p for the
 * core at position p of the logical core (NCSYNC_DMA_F_PEER).  A record
 * the validator refuses counts for nothing: the kernel refuses it.
 */
static uint64_t ncsync_program_lands(const struct ncsync_program *prog)
{
	uint64_t lands = 0;
	struct ncsync_insn in;
	unsigned int e;
	uint32_t i;

	for (e = 0; e < NCSYNC_MAX_ENGINE_ID; e++) {
		const struct ncsync_stream *s = prog->streams[e];

		for (i = 0; s && i < s->count; i++) {
			if (!ncsync_stream_decode(s, i, &in) ||
			    !ncsync_op_has(in.opcode, NCSYNC_OPF_DMA) ||
			    !(in.dma.flags & NCSYNC_DMA_F_PEER) ||
			    in.dma.peer >= NCSYNC_MAX_LNC)
				continue;
			lands |= 1ULL << in.dma.peer;
		}
	}
	return lands;
}

/* @lands within @dev's logical core: a peer outside is refused anyway. */
static uint64_t ncsync_lands_within(uint64_t lands, const struct ncsync_dev *dev)
{
	unsigned int lnc = ncsync_dev_lnc(dev);

	return lnc >= NCSYNC_MAX_LNC ? lands : lands & ((1ULL << lnc) - 1);
}

/*
 * The kernel lets a program land completions on another core only through
 * a descriptor of that core open for writing, which the submission names
 * (Documentation/ncsync/uapi.rst, "Other cores"): open one for each core
 * of @dev's logical core in @lands, appended to @fds at *@nfds.  Return 0,
 * or -errno of the open (EACCES: the caller may not write that core), with
 * the descriptors opened so far closed.
 */
static int ncsync_peers_open(const struct ncsync_dev *dev, uint64_t lands,
			     int32_t *fds, unsigned int *nfds)
{
	const struct ncsync_info *info = ncsync_get_info(dev);
	unsigned int p, first = info->core - ncsync_dev_pos(dev);
	unsigned int n0 = *nfds;
	char path[32];

	for (p = 0; p < NCSYNC_MAX_LNC; p++) {
		if (!(lands & (1ULL << p)))
			continue;
		snprintf(path, sizeof(path), "/dev/ncsync%u", first + p);
		fds[*nfds] = open(path, O_RDWR | O_CLOEXEC);
		if (fds[*nfds] < 0) {
			int ret = -errno;

			while (*nfds > n0)
				close(fds[--*nfds]);
			return ret;
		}
		(*nfds)++;
	}
	return 0;
}

/* Close the descriptors ncsync_peers_open() appended from @from on. */
static void ncsync_peers_close(const int32_t *fds, unsigned int from,
			       unsigned int to)
{
	while (to > from)
		close(fds[--to]);
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
	int32_t fds[NCSYNC_MAX_LNC];
	struct ncsync_submit sub;
	unsigned int nq, nfds = 0;
	uint64_t lands;
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
	/* Completions on other cores: their descriptors, for the submission. */
	lands = ncsync_lands_within(ncsync_program_lands(prog), dev) &
		~(1ULL << ncsync_dev_pos(dev));
	ret = ncsync_peers_open(dev, lands, fds, &nfds);
	if (ret)
		return ret;

	memset(&sub, 0, sizeof(sub));
	sub.queues = (uintptr_t)qs;
	sub.nqueues = nq;
	sub.flags = flags;
	sub.watchdog_ms = watchdog_ms;
	sub.fds = nfds ? (uintptr_t)fds : 0;
	sub.nfds = nfds;
	ret = ncsync_ioctl(dev, NCSYNC_IOC_SUBMIT, &sub);
	ncsync_peers_close(fds, 0, nfds);
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
	unsigned int i, nq = 0, nq1, nfds;
	uint64_t lands = 0, runs = 0;
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
		runs |= 1ULL << ncsync_dev_pos(devs[i]);
		lands |= ncsync_program_lands(progs[i]);
	}
	/* Cores completions land on that run nothing: their descriptors. */
	nfds = n - 1;
	lands = ncsync_lands_within(lands, devs[0]) & ~runs;
	ret = ncsync_peers_open(devs[0], lands, fds, &nfds);
	if (ret)
		return ret;
	memset(&sub, 0, sizeof(sub));
	sub.queues = (uintptr_t)qs;
	sub.nqueues = nq;
	sub.flags = flags | NCSYNC_SUBMIT_F_CORES;
	sub.watchdog_ms = watchdog_ms;
	sub.fds = (uintptr_t)fds;
	sub.nfds = nfds;
	ret = ncsync_ioctl(devs[0], NCSYNC_IOC_SUBMIT, &sub);
	ncsync_peers_close(fds, n - 1, nfds);
	if (ret) {
		if (ret == -EINVAL && sub.reason)
			ncsync_cores_refused(devs, n, &sub, err, err_part);
		return ret;
	}
	if (id)
		*id = sub.id;
	return 0;
}
