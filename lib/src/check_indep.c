// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * libncsync: which steps of ncsync_check()'s executor commute with every
 * step the other actors may still take (Documentation/ncsync/check.rst,
 * "The reduction").
 *
 * Each access of a semaphore has a class.  Two steps on one semaphore
 * commute when both only read it, when both add non-negative immediates
 * (or both subtract them), and when one adds and the other only tests for
 * > or >= (an addition cannot make that test fail), or one subtracts and
 * the other only tests for < or <=.  Two steps on one event commute when
 * both only test it, or one sets it and the other only tests for set, or
 * one clears it and the other only tests for clear.  Any other pair does
 * not.  What an actor may still do is read from the records it
 * may still run: those on the path it takes from its record and registers
 * (check_path.c), or, where that path is not followed, those from its
 * record on and from the target of any branch among them that goes back.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "ncsync_optab.h"

/* The classes that commute with an access of class @c (one bit). */
static uint8_t ck_commutes(uint8_t c)
{
	switch (c) {
	case CK_C_INC:
		return CK_C_INC | CK_C_GE;
	case CK_C_DEC:
		return CK_C_DEC | CK_C_LE;
	case CK_C_GE:
		return CK_C_READS | CK_C_INC;
	case CK_C_LE:
		return CK_C_READS | CK_C_DEC;
	case CK_C_EQ:
	case CK_C_POLL:
		return CK_C_READS;
	default:
		return 0;
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

/*
 * How slot @j may still touch the semaphore or event of index @d of a row
 * (ck_prog.nacc): it, and its copies to come; along its path (check_path.c)
 * where it can tell, else the static row.
 */
static uint8_t ck_fut_of(const struct ck_prog *cp, const struct ck_state *st,
			 unsigned int j, unsigned int d)
{
	/* A path depends on registers, which a class of a loop shifts. */
	const uint8_t *row = cp->static_fut ? NULL : ck_path_row(cp, st, j);

	if (!row)
		row = ck_fut_static(cp, j, st->eng[j].pc);
	return row[d] | row[cp->nacc + d];
}

/*
 * How every actor but engine @e may still touch semaphore or event @g
 * (CK_G()) of bank @bank: the other engines that have not ended, with the
 * copies they may issue, and every copy in flight (@e's own too: they land
 * while it steps).
 */
static uint8_t ck_others(const struct ck_prog *cp, const struct ck_state *st,
			 unsigned int e, uint8_t bank, unsigned int g)
{
	unsigned int d, j, i;
	uint8_t c = 0, k;

	d = bank == NCSYNC_BANK_SEM ? cp->sem_dense[g] : cp->ev_dense[g];
	for (j = 0; j < cp->n; j++) {
		if (j == e || ck_ended(st, j))
			continue;
		if (!ck_path_cut(cp, st, j, e, d, &k))
			k = ck_fut_of(cp, st, j, d);
		c |= k;
	}
	for (i = 0; i < st->ncopies; i++) {
		const struct ck_copy *cy = &st->copies[i];
		const struct ncsync_insn *in = &cp->insns[cy->eng][cy->rec];
		const struct ncsync_update_op *u = &in->lane[0].upd;

		if (!u->active || u->bank != bank ||
		    CK_G(ck_land_core(cp, cy->eng, in), u->index) != g)
			continue;
		c |= bank == NCSYNC_BANK_SEM ? ck_upd_class(u) :
					       ck_ev_upd_class(u);
	}
	return c;
}

/* Whether an access of class @c by @e to its semaphore @idx commutes. */
static bool ck_sem_free(const struct ck_prog *cp, const struct ck_state *st,
			unsigned int e, unsigned int idx, uint8_t c)
{
	return !(ck_others(cp, st, e, NCSYNC_BANK_SEM,
			   CK_G(cp->core[e], idx)) & ~ck_commutes(c));
}

/* Whether an access of class @c by @e to its event @idx commutes. */
static bool ck_event_free(const struct ck_prog *cp, const struct ck_state *st,
			  unsigned int e, unsigned int idx, uint8_t c)
{
	return !(ck_others(cp, st, e, NCSYNC_BANK_EVENT,
			   CK_G(cp->core[e], idx)) & ~ck_ev_commutes(c));
}

/*
 * The op's own effect: private when no other actor may touch what its
 * footprint names in a way that does not commute.  A DMA record never is
 * (a copy's bytes are what a race is about); Halt, Exit, Mov32, Branch
 * touch the engine's own registers and flow only; a Drain that can run has
 * no copy in flight, and none can be.
 */
static bool ck_effect_private(const struct ck_prog *cp,
			      const struct ck_state *st,
			      const struct ncsync_insn *in, unsigned int e)
{
	struct ncsync_footprint fp;
	uint8_t c;
	unsigned int i;

	if (ncsync_op_has(in->opcode, NCSYNC_OPF_DMA))
		return false;
	if (!ncsync_op_has(in->opcode, NCSYNC_OPF_SEM_READ |
				       NCSYNC_OPF_SEM_WRITE))
		return true;
	ncsync_op_footprint(in, &fp);
	for (i = 0; i < NCSYNC_NUM_SEMS; i++) {
		c = ck_op_class(&fp, i);
		if (c && !ck_sem_free(cp, st, e, i, c))
			return false;
	}
	return true;
}

/*
 * Whether enabled step @s commutes with every step any other engine or any
 * landing can still take.  Landings never do, nor DMA records (a copy's
 * bytes are what a race is about).
 */
bool ck_step_private(const struct ck_prog *cp, const struct ck_state *st,
		     struct ck_step s)
{
	const struct ncsync_insn *in;
	const struct ncsync_lane *l;
	const struct ck_eng *x;

	if (s.land)
		return false;
	x = &st->eng[s.idx];
	in = ck_insn(cp, st, s.idx);
	if (x->sub == CK_SUB_EFFECT)
		return ck_effect_private(cp, st, in, s.idx);
	if (x->sub < CK_SUB_EFFECT) {
		l = &in->lane[x->sub];
		if (l->wait.bank == NCSYNC_BANK_EVENT)
			return ck_event_free(cp, st, s.idx, l->wait.index,
					     ck_ev_wait_class(&l->wait));
		return ck_sem_free(cp, st, s.idx, l->wait.index,
				   ck_wait_class(l));
	}
	l = &in->lane[x->sub - CK_SUB_UPD];
	if (l->upd.bank == NCSYNC_BANK_EVENT)
		return ck_event_free(cp, st, s.idx, l->upd.index,
				     ck_ev_upd_class(&l->upd));
	return ck_sem_free(cp, st, s.idx, l->upd.index, ck_upd_class(&l->upd));
}

/**
 * ck_reduction_init() - the futures the reduction reads: the static rows
 *	(check_fut.c), then the caches of the paths (check_path.c).
 * @cp: a program ck_prog_init() decoded.
 *
 * Return: 0 or -ENOMEM; ck_reduction_fini() frees what was made either way.
 */
int ck_reduction_init(struct ck_prog *cp)
{
	int ret = ck_fut_init(cp);

	return ret ?: ck_path_init(cp);
}

/**
 * ck_reduction_fini() - free what ck_reduction_init() made.
 * @cp: the program.
 */
void ck_reduction_fini(struct ck_prog *cp)
{
	ck_path_fini(cp);
	ck_fut_fini(cp);
}
