// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * libncsync: which issues and landings of copies commute, for the
 * reduction (Documentation/ncsync/check.rst, "The reduction", *DMA*).
 *
 * Without --dma-fifo a state keeps its copies in flight in one canonical
 * order (check_exec.c), so that the order of two issues is not state.
 * What couples an issue to another issue or to a landing is then the race
 * rule (a copy issued over a byte a copy in flight of its core moves, one
 * of them writing it), the room of the issuer's ring (CK_DEPTH) and the
 * limit of copies in flight (CK_MAX_COPIES).  ck_dma_init() bounds, from
 * the records, the copies each engine can have in flight: the most DMA
 * records any path runs between two Drains.  When no engine can fill its
 * ring and all together cannot reach the limit, two copies of different
 * issuers, or of one issuer, commute unless they race (ck_dma_commute()).
 * With --dma-fifo, or without the bounds, every issue conflicts with
 * every issue and landing, as before 2026-12-06.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "ncsync_optab.h"

/* Raise the count of the successors of record @i of slot @e to @v. */
static void ck_dma_relax(const struct ck_prog *cp, unsigned int e,
			 uint32_t i, uint32_t *run, uint32_t v, bool *moved)
{
	uint32_t s[2];
	unsigned int k, n = ck_rec_succ(cp, e, i, s);

	for (k = 0; k < n; k++) {
		if (run[s[k]] < v) {
			run[s[k]] = v;
			*moved = true;
		}
	}
}

/*
 * The most copies slot @e can have in flight: the most DMA records a path
 * runs from its start or a Drain, counted up to CK_DEPTH (a loop that
 * issues without a Drain can fill its ring); CK_DEPTH when the count has
 * not settled within its rounds.
 */
static uint32_t ck_dma_run(const struct ck_prog *cp, unsigned int e,
			   uint32_t *run)
{
	uint32_t n = cp->count[e], i, v, most = 0, round;
	bool moved = true;

	memset(run, 0, n * sizeof(*run));
	for (round = 0; moved && round <= CK_DEPTH + n + 1; round++) {
		moved = false;
		for (i = 0; i < n; i++) {
			const struct ncsync_insn *in = &cp->insns[e][i];

			v = ncsync_op_has(in->opcode, NCSYNC_OPF_DRAIN) ? 0 :
			    run[i];
			v += ncsync_op_has(in->opcode, NCSYNC_OPF_DMA);
			if (v > CK_DEPTH)
				v = CK_DEPTH;
			most = v > most ? v : most;
			ck_dma_relax(cp, e, i, run, v, &moved);
		}
	}
	return moved ? CK_DEPTH : most;	/* not settled: no bound */
}

/* One pass of ck_dma_masks(): false when nothing changed. */
static bool ck_dma_mask_pass(const struct ck_prog *cp, unsigned int e,
			     uint64_t *m, const uint32_t *ord)
{
	uint32_t i, s[2];
	unsigned int k, n;
	uint64_t v;
	bool moved = false;

	for (i = cp->count[e]; i-- > 0;) {
		const struct ncsync_insn *in = &cp->insns[e][i];

		if (ncsync_op_has(in->opcode, NCSYNC_OPF_DRAIN))
			continue;
		n = ck_rec_succ(cp, e, i, s);
		for (v = m[i], k = 0; k < n; k++)
			v |= m[s[k]];
		if (ncsync_op_has(in->opcode, NCSYNC_OPF_DMA))
			v |= 1ULL << ord[i];
		moved |= v != m[i];
		m[i] = v;
	}
	return moved;
}

/*
 * ck_prog.dma_nd[@e]: per record, the DMA records (bit k: the k-th of the
 * slot, ck_prog.dma_rec) a run from it may issue before a Drain runs;
 * none when the slot has more than 64 DMA records.
 */
static int ck_dma_masks(struct ck_prog *cp, unsigned int e)
{
	uint32_t n = cp->count[e], i, k = 0, round, *ord;
	uint64_t *m;
	bool moved = true;

	for (i = 0; i < n; i++)
		k += ncsync_op_has(cp->insns[e][i].opcode, NCSYNC_OPF_DMA);
	if (!k || k > 64)
		return 0;
	m = calloc(n + 1, sizeof(*m));
	ord = calloc(n + 1, sizeof(*ord));
	cp->dma_rec[e] = calloc(k, sizeof(*cp->dma_rec[e]));
	if (!m || !ord || !cp->dma_rec[e]) {
		free(m);
		free(ord);
		return -ENOMEM;
	}
	for (i = 0, k = 0; i < n; i++)
		if (ncsync_op_has(cp->insns[e][i].opcode, NCSYNC_OPF_DMA)) {
			cp->dma_rec[e][k] = i;
			ord[i] = k++;
		}
	for (round = 0; moved && round <= 64 + n; round++)
		moved = ck_dma_mask_pass(cp, e, m, ord);
	for (i = 0; moved && i < n; i++)	/* not settled: every one */
		m[i] = ~0ULL >> (64 - k);
	free(ord);
	cp->dma_nd[e] = m;
	return 0;
}

/**
 * ck_dma_init() - bound the copies in flight (ck_prog.dma_free), and find
 *	the copies each record may issue before a Drain (ck_prog.dma_nd).
 * @cp: the program, decoded.
 *
 * Return: 0, or -ENOMEM.
 */
int ck_dma_init(struct ck_prog *cp)
{
	uint32_t most, total = 0, *run;
	unsigned int e;
	bool free_ = !cp->fifo;
	int ret;

	for (e = 0; e < cp->n; e++) {
		ret = ck_dma_masks(cp, e);
		if (ret)
			return ret;
	}

	for (e = 0; e < cp->n && free_; e++) {
		run = malloc((cp->count[e] + 1) * sizeof(*run));
		if (!run)
			return -ENOMEM;
		most = ck_dma_run(cp, e, run);
		free(run);
		free_ = most < CK_DEPTH;
		total += most;
	}
	cp->dma_free = free_ && total <= CK_MAX_COPIES;
	return 0;
}

/**
 * ck_dma_fini() - free what ck_dma_init() made.
 * @cp: the program.
 */
void ck_dma_fini(struct ck_prog *cp)
{
	unsigned int e;

	for (e = 0; e < CK_MAX_SLOTS; e++) {
		free(cp->dma_nd[e]);
		free(cp->dma_rec[e]);
		cp->dma_nd[e] = NULL;
		cp->dma_rec[e] = NULL;
	}
}

/**
 * ck_dma_commute() - whether a copy of record @x of slot @i, issued or
 *	landing, commutes with the issue of record @z by slot @j.
 * @cp: the program.
 * @i: the first copy's issuer.
 * @x: its DMA record.
 * @j: the second issuer (@i when a landing and an issue of one engine).
 * @z: its DMA record.
 *
 * Return: true when they commute: the bounds hold (ck_dma_init()) and the
 * copies do not race (they are of different cores or move no byte of
 * each other's).
 */
bool ck_dma_commute(const struct ck_prog *cp, unsigned int i,
		    const struct ncsync_insn *x, unsigned int j,
		    const struct ncsync_insn *z)
{
	if (!cp->dma_free)
		return false;
	return cp->core[i] != cp->core[j] || !ck_copies_race(x, z);
}

/**
 * ck_dma_may_hit() - whether slot @j may still issue a copy that does not
 *	commute with a copy of record @x of slot @i (ck_dma_commute()).
 * @cp: the program.
 * @st: the state.
 * @j: a slot that has not ended.
 * @i: the copy's issuer.
 * @x: its DMA record.
 *
 * Return: true if it may: a DMA record among those its static future
 * reaches (ck_prog.reach) that does not commute with it; for @i's own
 * future, among those it may issue before its next Drain, which waits
 * for every copy of its own, this one too, to land (ck_prog.dma_nd).
 */
bool ck_dma_may_hit(const struct ck_prog *cp, const struct ck_state *st,
		    unsigned int j, unsigned int i,
		    const struct ncsync_insn *x)
{
	uint64_t m;
	uint32_t k;

	if (i == j && cp->dma_nd[j]) {	/* its own: up to its next Drain */
		for (m = cp->dma_nd[j][st->eng[j].pc]; m; m &= m - 1) {
			k = cp->dma_rec[j][__builtin_ctzll(m)];
			if (!ck_dma_commute(cp, i, x, j, &cp->insns[j][k]))
				return true;
		}
		return false;
	}
	for (k = cp->reach[j][st->eng[j].pc]; k < cp->dma_end[j]; k++)
		if (ncsync_op_has(cp->insns[j][k].opcode, NCSYNC_OPF_DMA) &&
		    !ck_dma_commute(cp, i, x, j, &cp->insns[j][k]))
			return true;
	return false;
}
