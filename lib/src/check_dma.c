// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * libncsync: which issues and landings of copies commute, for the
 * reduction (Documentation/ncsync/check.rst, "The reduction", "Copies").
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

/* The records after @i a run may take: *@a, *@b (UINT32_MAX: none). */
static void ck_dma_succ(const struct ck_prog *cp, unsigned int e, uint32_t i,
			uint32_t *a, uint32_t *b)
{
	const struct ncsync_insn *in = &cp->insns[e][i];

	*a = i + 1 < cp->count[e] ? i + 1 : UINT32_MAX;
	*b = UINT32_MAX;
	if (ncsync_op_has(in->opcode, NCSYNC_OPF_ENDS))
		*a = UINT32_MAX;
	if (!ncsync_op_has(in->opcode, NCSYNC_OPF_FLOW))
		return;
	*b = in->br.target < cp->count[e] ? in->br.target : UINT32_MAX;
	if (in->br.comp == NCSYNC_BR_ALWAYS)
		*a = UINT32_MAX;
}

static void ck_dma_relax(uint32_t *run, uint32_t to, uint32_t v, bool *moved)
{
	if (to != UINT32_MAX && run[to] < v) {
		run[to] = v;
		*moved = true;
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
	uint32_t n = cp->count[e], i, a, b, v, most = 0, round;
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
			ck_dma_succ(cp, e, i, &a, &b);
			ck_dma_relax(run, a, v, &moved);
			ck_dma_relax(run, b, v, &moved);
		}
	}
	return moved ? CK_DEPTH : most;	/* not settled: no bound */
}

/**
 * ck_dma_init() - bound the copies in flight (ck_prog.dma_free).
 * @cp: the program, decoded.
 *
 * Return: 0, or -ENOMEM.
 */
int ck_dma_init(struct ck_prog *cp)
{
	uint32_t most, total = 0, *run;
	unsigned int e;
	bool free_ = !cp->fifo;

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
 * reaches (ck_prog.reach) that does not commute with it.
 */
bool ck_dma_may_hit(const struct ck_prog *cp, const struct ck_state *st,
		    unsigned int j, unsigned int i,
		    const struct ncsync_insn *x)
{
	uint32_t k;

	for (k = cp->reach[j][st->eng[j].pc]; k < cp->dma_end[j]; k++)
		if (ncsync_op_has(cp->insns[j][k].opcode, NCSYNC_OPF_DMA) &&
		    !ck_dma_commute(cp, i, x, j, &cp->insns[j][k]))
			return true;
	return false;
}
