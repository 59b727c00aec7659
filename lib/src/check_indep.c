// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * libncsync: which steps of ncsync_check()'s executor commute, what a step
 * accesses and what an actor may still access (Documentation/ncsync/
 * check.rst, "The reduction").
 *
 * Each access of a semaphore has a class.  Two steps on one semaphore
 * commute when both only read it, when both add non-negative immediates
 * (or both subtract them); and, when no run can overflow the semaphore
 * (check_bound.c), when one adds and the other subtracts, or one adds
 * and the other only tests for > or >= (an addition cannot make that
 * test fail), or one subtracts and the other only tests for < or <=.
 * Two steps on one event commute when both only test it, or one sets it
 * and the other only tests for set, or one clears it and the other only
 * tests for clear.  Any other pair does not.  What an actor may still do
 * is read from the records it may still run: those on the path it takes
 * from its record and registers (check_path.c), or, where that path is
 * not followed, those from its record on and from the target of any
 * branch among them that goes back.  check_stub.c builds the persistent
 * sets from these.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "ncsync_optab.h"

/*
 * The classes that commute with an access of class @c (one bit) to a
 * semaphore some run may overflow: an addition that wraps can make a > or
 * >= test fail, and take another addition's overflow, so only like
 * updates and reads commute.
 */
static uint8_t ck_commutes(uint8_t c)
{
	switch (c) {
	case CK_C_INC:
	case CK_C_DEC:
		return c;
	case CK_C_GE:
	case CK_C_LE:
	case CK_C_EQ:
	case CK_C_POLL:
		return CK_C_READS;
	default:
		return 0;
	}
}

/*
 * The same for a semaphore no run overflows (check_bound.c): an addition
 * and a subtraction reach one state in either order, an addition never
 * makes a > or >= test fail, a subtraction a < or <= test.
 */
static uint8_t ck_commutes_nowrap(uint8_t c)
{
	switch (c) {
	case CK_C_INC:
		return CK_C_INC | CK_C_DEC | CK_C_GE;
	case CK_C_DEC:
		return CK_C_DEC | CK_C_INC | CK_C_LE;
	case CK_C_GE:
		return CK_C_READS | CK_C_INC;
	case CK_C_LE:
		return CK_C_READS | CK_C_DEC;
	default:
		return ck_commutes(c);
	}
}

/*
 * The classes of event accesses that commute with one of class @c (one
 * bit): two tests; a set and a test for set (a set never makes that test
 * fail, the test changes nothing, and the set finds the event set in
 * either order when both can run); a clear and a test for clear, alike.
 * Not two sets (the second is the defect, whichever it is), nor a set and
 * a clear, nor a set and a test for clear, nor a then-action.
 */
static uint8_t ck_ev_commutes(uint8_t c)
{
	switch (c) {
	case CK_E_WSET:
		return CK_E_WSET | CK_E_WCLR | CK_E_SET;
	case CK_E_WCLR:
		return CK_E_WSET | CK_E_WCLR | CK_E_CLR;
	case CK_E_SET:
		return CK_E_WSET;
	case CK_E_CLR:
		return CK_E_WCLR;
	default:
		return 0;
	}
}

/**
 * ck_commutes_at() - the classes of accesses to a resource that commute
 *	with one of class @c.
 * @cp: the program.
 * @d: the resource's index in a row: a semaphore below ck_prog.nsem_used,
 *	else an event.
 * @c: one class (CK_C_* or CK_E_*).
 *
 * Return: the classes, a mask of the bank's CK_C_* or CK_E_*.
 */
uint8_t ck_commutes_at(const struct ck_prog *cp, unsigned int d, uint8_t c)
{
	if (d >= cp->nsem_used)
		return ck_ev_commutes(c);
	return cp->sem_nowrap[d] ? ck_commutes_nowrap(c) : ck_commutes(c);
}

/**
 * ck_fut_row() - what slot @j may still do in @st: along its path
 *	(check_path.c) where it can tell, else the static row.
 * @cp: the program.
 * @st: the state.
 * @j: a slot that has not ended.
 *
 * Return: a row of ck_fut_width() classes: its own accesses, then those of
 * the landings of the copies it may still issue.
 */
const uint8_t *ck_fut_row(const struct ck_prog *cp, const struct ck_state *st,
			  unsigned int j)
{
	/* A path depends on registers, which a class of a loop shifts. */
	const uint8_t *row = cp->static_fut ? ck_path_class_row(cp, st, j) :
					      ck_path_row(cp, st, j);

	return row ? row : ck_fut_static(cp, j, st->eng[j].pc);
}

/**
 * ck_may_issue() - whether slot @j may still issue a copy: a DMA record is
 *	among the records its static future reaches.
 * @cp: the program.
 * @st: the state.
 * @j: a slot that has not ended.
 *
 * Return: true if it may.
 */
bool ck_may_issue(const struct ck_prog *cp, const struct ck_state *st,
		  unsigned int j)
{
	return cp->reach[j][st->eng[j].pc] < cp->dma_end[j];
}

/* The accesses of the op of record @in of slot @e: its footprint's. */
static unsigned int ck_effect_acc(const struct ck_prog *cp, unsigned int e,
				  const struct ncsync_insn *in,
				  struct ck_acc *acc, unsigned int *kind)
{
	struct ncsync_footprint fp;
	unsigned int i, n = 0;
	uint8_t c;

	if (ncsync_op_has(in->opcode, NCSYNC_OPF_DMA))
		*kind = CK_STEP_ISSUE;
	if (!ncsync_op_has(in->opcode, NCSYNC_OPF_SEM_READ |
				       NCSYNC_OPF_SEM_WRITE))
		return 0;
	ncsync_op_footprint(in, &fp);
	for (i = 0; i < NCSYNC_NUM_SEMS; i++) {
		c = ck_op_class(&fp, i);
		if (c)
			acc[n++] = (struct ck_acc){
				.d = ck_dense(cp, cp->core[e], NCSYNC_BANK_SEM,
					      i),
				.c = c,
			};
	}
	return n;
}

/* The access of a copy's landing: its completion update, if any. */
static unsigned int ck_land_acc(const struct ck_prog *cp,
				const struct ck_copy *cy, struct ck_acc *acc)
{
	const struct ncsync_insn *in = &cp->insns[cy->eng][cy->rec];
	const struct ncsync_update_op *u = &in->lane[0].upd;

	if (!u->active)
		return 0;
	acc->d = ck_dense(cp, ck_land_core(cp, cy->eng, in), u->bank,
			  u->index);
	acc->c = u->bank == NCSYNC_BANK_SEM ? ck_upd_class(u) :
					      ck_ev_upd_class(u);
	return 1;
}

/**
 * ck_step_acc() - what an enabled step does to the banks and the copies.
 * @cp: the program.
 * @st: the state.
 * @s: an enabled step.
 * @acc: out: its accesses, at most CK_ACC_MAX.
 * @kind: out: 0, CK_STEP_ISSUE (a DMA record's effect) or CK_STEP_LAND.
 *
 * The accesses are those of the wait, op or update the step runs (the
 * paired update with its wait, a then-action with its event wait), or of
 * a landing's completion update; Halt, Exit, Mov32, Branch, a Drain that
 * can run touch their engine's registers and flow only.
 *
 * Return: the number of accesses.
 */
unsigned int ck_step_acc(const struct ck_prog *cp, const struct ck_state *st,
			 struct ck_step s, struct ck_acc *acc,
			 unsigned int *kind)
{
	const struct ck_eng *x = &st->eng[s.idx];
	const struct ncsync_insn *in;
	const struct ncsync_lane *l;
	unsigned int c = cp->core[s.idx];

	*kind = 0;
	if (s.land) {
		*kind = CK_STEP_LAND;
		return ck_land_acc(cp, &st->copies[s.idx], acc);
	}
	in = ck_insn(cp, st, s.idx);
	if (x->sub == CK_SUB_EFFECT)
		return ck_effect_acc(cp, s.idx, in, acc, kind);
	if (x->sub < CK_SUB_EFFECT) {
		l = &in->lane[x->sub];
		acc->d = ck_dense(cp, c, l->wait.bank, l->wait.index);
		acc->c = ck_lane_wait_class(l);
		return 1;
	}
	l = &in->lane[x->sub - CK_SUB_UPD];
	acc->d = ck_dense(cp, c, l->upd.bank, l->upd.index);
	acc->c = l->upd.bank == NCSYNC_BANK_EVENT ? ck_ev_upd_class(&l->upd) :
						    ck_upd_class(&l->upd);
	return 1;
}

/**
 * ck_reduction_init() - the futures the reduction reads: the static rows
 *	(check_fut.c), the bounds of the copies (check_dma.c), the caches of
 *	the paths (check_path.c), then the semaphores no run overflows
 *	(check_bound.c).
 * @cp: a program ck_prog_init() decoded.
 * @sems: the initial semaphores of every core, or NULL (all 0).
 *
 * Return: 0 or -ENOMEM; ck_reduction_fini() frees what was made either way.
 */
int ck_reduction_init(struct ck_prog *cp, const int32_t *sems)
{
	int ret = ck_fut_init(cp);

	if (!ret)
		ret = ck_dma_init(cp);
	if (!ret)
		ret = ck_path_init(cp);
	return ret ?: ck_bound_init(cp, sems);
}

/**
 * ck_reduction_fini() - free what ck_reduction_init() made.
 * @cp: the program.
 */
void ck_reduction_fini(struct ck_prog *cp)
{
	ck_path_fini(cp);
	ck_dma_fini(cp);
	ck_fut_fini(cp);
}
