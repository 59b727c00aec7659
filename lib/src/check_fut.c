// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * libncsync: the static futures of the reduction (Documentation/ncsync/
 * check.rst, "The reduction"): the class of each access a record makes to
 * a semaphore or an event (its lanes', and its op's from the opcode
 * table's footprint), and per engine and record the union of the classes of every
 * record it may still run: from it on, and from the target of any branch
 * among them that goes back.  Below the paths (check_path.c) and the
 * reduction's queries (check_indep.c); above the state (check_state.c).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "ncsync_optab.h"

/* The largest table of futures, in bytes per slot. */
#define CK_FUT_MAX	(4U << 20)

uint8_t ck_upd_class(const struct ncsync_update_op *u)
{
	if (u->reg || u->operand > INT32_MAX)
		return CK_C_SET;
	if (u->op == NCSYNC_SEM_UPD_ADD)
		return CK_C_INC;
	return u->op == NCSYNC_SEM_UPD_SUB ? CK_C_DEC : CK_C_SET;
}

uint8_t ck_wait_class(const struct ncsync_lane *l)
{
	if (l->paired)
		return CK_C_SET;
	switch (l->wait.cmp) {
	case NCSYNC_CMP_GT:
	case NCSYNC_CMP_GE:
		return CK_C_GE;
	case NCSYNC_CMP_LT:
	case NCSYNC_CMP_LE:
		return CK_C_LE;
	default:
		return CK_C_EQ;
	}
}

/*
 * The class of the op's own access to semaphore @i, from its footprint: a
 * write is any write (a GroupResetSemaphores zeroes), a read is a read of
 * a value (PollSem), which commutes with reads only.  0 when none.
 */
uint8_t ck_op_class(const struct ncsync_footprint *fp, unsigned int i)
{
	if (ncsync_footprint_sem(fp->sem_write, i))
		return CK_C_SET;
	return ncsync_footprint_sem(fp->sem_read, i) ? CK_C_POLL : 0;
}

/*
 * The class of an event wait: one that only tests (no then-action) reads
 * the event; a then-clear or then-set writes it too.
 */
uint8_t ck_ev_wait_class(const struct ncsync_wait_op *w)
{
	if (w->then != NCSYNC_THEN_NONE)
		return CK_E_ANY;
	return w->want ? CK_E_WSET : CK_E_WCLR;
}

uint8_t ck_ev_upd_class(const struct ncsync_update_op *u)
{
	return u->set ? CK_E_SET : CK_E_CLR;
}

/* The index in a row of the semaphore or event @idx of core @c. */
unsigned int ck_dense(const struct ck_prog *cp, unsigned int c,
			     uint8_t bank, unsigned int idx)
{
	if (bank == NCSYNC_BANK_SEM)
		return cp->sem_dense[CK_G(c, idx)];
	return cp->ev_dense[CK_G(c, idx)];
}

/* The class of the wait of lane @ln (active). */
uint8_t ck_lane_wait_class(const struct ncsync_lane *ln)
{
	if (ln->wait.bank == NCSYNC_BANK_SEM)
		return ck_wait_class(ln);
	return ck_ev_wait_class(&ln->wait);
}

/* The class of update @u of lane @ln: a paired one is a test-and-modify. */
static uint8_t ck_lane_upd_class(const struct ncsync_lane *ln)
{
	if (ln->upd.bank == NCSYNC_BANK_EVENT)
		return ck_ev_upd_class(&ln->upd);
	return ln->paired ? CK_C_SET : ck_upd_class(&ln->upd);
}

/*
 * OR the accesses of record @in of slot @e, to semaphores and events, into
 * @row (engine, then landings).
 */
void ck_fut_insn(const struct ck_prog *cp, unsigned int e,
		 const struct ncsync_insn *in, uint8_t *row)
{
	const uint16_t *dense = cp->sem_dense + CK_G(cp->core[e], 0);
	uint8_t *land = row + cp->nacc;
	unsigned int l, i, c = cp->core[e];
	struct ncsync_footprint fp;
	uint8_t k;

	for (l = 0; l < in->nlanes; l++) {
		const struct ncsync_lane *ln = &in->lane[l];
		const struct ncsync_wait_op *w = &ln->wait;

		if (w->active)
			row[ck_dense(cp, c, w->bank, w->index)] |=
				ck_lane_wait_class(ln);
		if (!ln->upd.active)
			continue;
		if (ln->upd.on_land)
			land[ck_dense(cp, ck_land_core(cp, e, in),
				      ln->upd.bank, ln->upd.index)] |=
				ck_lane_upd_class(ln);
		else
			row[ck_dense(cp, c, ln->upd.bank, ln->upd.index)] |=
				ck_lane_upd_class(ln);
	}
	/* The op's own effect: the opcode table's footprint. */
	ncsync_op_footprint(in, &fp);
	for (i = 0; i < NCSYNC_NUM_SEMS; i++) {
		k = ck_op_class(&fp, i);
		if (k)
			row[dense[i]] |= k;
	}
}

/**
 * ck_rec_succ() - the records a run may take after record @i of slot @e.
 * @cp: the program.
 * @e: the slot.
 * @i: a record of its stream.
 * @s: out: the successors, records of the stream: the next record unless
 *	@i ends the engine (Halt, Exit) or branches always, and a branch's
 *	target; both for a conditional branch, whatever its condition.
 *
 * Return: how many, 0 to 2.
 */
unsigned int ck_rec_succ(const struct ck_prog *cp, unsigned int e,
			 uint32_t i, uint32_t s[2])
{
	const struct ncsync_insn *in = &cp->insns[e][i];
	bool flow = ncsync_op_has(in->opcode, NCSYNC_OPF_FLOW);
	unsigned int n = 0;

	if (i + 1 < cp->count[e] &&
	    !ncsync_op_has(in->opcode, NCSYNC_OPF_ENDS) &&
	    (!flow || in->br.comp != NCSYNC_BR_ALWAYS))
		s[n++] = i + 1;
	if (flow && in->br.target < cp->count[e])
		s[n++] = in->br.target;
	return n;
}

/* reach[pc]: lowered by the earliest target of a branch back from it on. */
static void ck_reach_init(const struct ck_prog *cp, unsigned int e,
			  uint32_t *reach)
{
	uint32_t n = cp->count[e], i, s;

	reach[n] = n;
	for (i = n; i-- > 0;) {
		const struct ncsync_insn *in = &cp->insns[e][i];

		reach[i] = reach[i + 1] < i ? reach[i + 1] : i;
		if (ncsync_op_has(in->opcode, NCSYNC_OPF_FLOW) &&
		    in->br.target < reach[i])
			reach[i] = in->br.target;
	}
	/* reach[] is now the earliest target from i on: close it. */
	for (i = 0; i <= n; i++) {
		for (s = reach[i]; reach[s] < s; s = reach[s])
			;
		reach[i] = s;
	}
}

/* The table of slot @e: suffix unions of its records' classes. */
static int ck_fut_slot(struct ck_prog *cp, unsigned int e)
{
	uint32_t n = cp->count[e], rows, i;
	size_t w = ck_fut_width(cp);
	uint8_t *fut;

	rows = (size_t)(n + 1) * w <= CK_FUT_MAX ? n + 1 : 1;
	cp->reach[e] = calloc(n + 1, sizeof(*cp->reach[e]));
	fut = calloc(rows * w + 1, 1);
	cp->fut[e] = fut;
	cp->fut_rows[e] = rows;
	if (!fut || !cp->reach[e])
		return -ENOMEM;
	ck_reach_init(cp, e, cp->reach[e]);
	if ((size_t)n * w <= CK_FUT_MAX) {
		cp->rec[e] = calloc((size_t)n * w + 1, 1);
		if (!cp->rec[e])
			return -ENOMEM;
		for (i = 0; i < n; i++)
			ck_fut_insn(cp, e, &cp->insns[e][i],
				    cp->rec[e] + (size_t)i * w);
	}
	cp->cuts[e] &= !!cp->rec[e];
	for (i = n; i-- > 0;) {
		uint8_t *row = rows > 1 ? fut + i * w : fut;

		if (rows > 1)
			memcpy(row, row + w, w);
		ck_fut_insn(cp, e, &cp->insns[e][i], row);
	}
	return 0;
}

/* Note that the actors @who write the semaphore or event @idx of core @c. */
static void ck_wr(struct ck_prog *cp, uint8_t bank, unsigned int c,
		  unsigned int idx, uint32_t who)
{
	if (bank == NCSYNC_BANK_SEM)
		cp->sem_wr[CK_G(c, idx)] |= who;
	else
		cp->ev_wr[CK_G(c, idx)] |= who;
}

/* The writers of what record @in of slot @e writes. */
static void ck_wr_insn(struct ck_prog *cp, unsigned int e,
		       const struct ncsync_insn *in)
{
	unsigned int l, i, c = cp->core[e];
	struct ncsync_footprint fp;

	for (l = 0; l < in->nlanes; l++) {
		const struct ncsync_lane *ln = &in->lane[l];

		if (ln->wait.active && ln->wait.bank == NCSYNC_BANK_EVENT &&
		    ln->wait.then != NCSYNC_THEN_NONE)
			ck_wr(cp, NCSYNC_BANK_EVENT, c, ln->wait.index,
			      CK_ACTOR_ENG(e));
		if (ln->upd.active && ln->upd.on_land)
			ck_wr(cp, ln->upd.bank, ck_land_core(cp, e, in),
			      ln->upd.index, CK_ACTOR_DMA(e));
		else if (ln->upd.active)
			ck_wr(cp, ln->upd.bank, c, ln->upd.index,
			      CK_ACTOR_ENG(e));
	}
	ncsync_op_footprint(in, &fp);
	for (i = 0; i < NCSYNC_NUM_SEMS; i++)
		if (ncsync_footprint_sem(fp.sem_write, i))
			cp->sem_wr[CK_G(c, i)] |= CK_ACTOR_ENG(e);
}

/*
 * The writers of every semaphore and event; which slots wait at all (where
 * a path may be cut, ck_prog.cuts); and the end of each slot's DMA records
 * (ck_prog.dma_end).
 */
static void ck_writers(struct ck_prog *cp)
{
	unsigned int e, l;
	uint32_t i;

	for (e = 0; e < cp->n; e++) {
		for (i = 0; i < cp->count[e]; i++) {
			const struct ncsync_insn *in = &cp->insns[e][i];

			ck_wr_insn(cp, e, in);
			if (ncsync_op_has(in->opcode, NCSYNC_OPF_DMA))
				cp->dma_end[e] = i + 1;
			for (l = 0; l < in->nlanes; l++)
				cp->cuts[e] |= in->lane[l].wait.active;
		}
	}
}

int ck_fut_init(struct ck_prog *cp)
{
	unsigned int e;
	int ret;

	ck_writers(cp);
	for (e = 0; e < cp->n; e++) {
		ret = ck_fut_slot(cp, e);
		if (ret)
			return ret;
	}
	return 0;
}

void ck_fut_fini(struct ck_prog *cp)
{
	unsigned int e;

	for (e = 0; e < CK_MAX_SLOTS; e++) {
		free(cp->fut[e]);
		free(cp->reach[e]);
		free(cp->rec[e]);
		cp->rec[e] = NULL;
		cp->fut[e] = NULL;
		cp->reach[e] = NULL;
	}
}

/* The static row of slot @e at record @pc: what the records from it reach. */
const uint8_t *ck_fut_static(const struct ck_prog *cp, unsigned int e,
			     uint32_t pc)
{
	uint32_t r = cp->fut_rows[e] > 1 ? cp->reach[e][pc] : 0;

	return cp->fut[e] + (size_t)r * ck_fut_width(cp);
}

