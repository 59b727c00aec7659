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
 * the other only tests for < or <=.  Any other pair, and any pair on an
 * event, does not.  What an actor may still do is read from the records it
 * may still run: those on the path it takes from its record and registers
 * (check_path.c), or, where that path is not followed, those from its
 * record on and from the target of any branch among them that goes back.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "ncsync_optab.h"

/* Access classes of a semaphore. */
#define CK_C_INC	0x01	/* + a non-negative immediate */
#define CK_C_DEC	0x02	/* - a non-negative immediate */
#define CK_C_SET	0x04	/* any other write, or a wait with its update */
#define CK_C_GE		0x08	/* a wait for > or >=, alone */
#define CK_C_LE		0x10	/* a wait for < or <=, alone */
#define CK_C_EQ		0x20	/* a wait for ==, alone */
#define CK_C_POLL	0x40	/* PollSem */
#define CK_C_READS	(CK_C_GE | CK_C_LE | CK_C_EQ | CK_C_POLL)

/* The largest table of futures, in bytes per slot. */
#define CK_FUT_MAX	(4U << 20)

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

static uint8_t ck_upd_class(const struct ncsync_update_op *u)
{
	if (u->reg || u->operand > INT32_MAX)
		return CK_C_SET;
	if (u->op == NCSYNC_SEM_UPD_ADD)
		return CK_C_INC;
	return u->op == NCSYNC_SEM_UPD_SUB ? CK_C_DEC : CK_C_SET;
}

static uint8_t ck_wait_class(const struct ncsync_lane *l)
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
static uint8_t ck_op_class(const struct ncsync_footprint *fp, unsigned int i)
{
	if (ncsync_footprint_sem(fp->sem_write, i))
		return CK_C_SET;
	return ncsync_footprint_sem(fp->sem_read, i) ? CK_C_POLL : 0;
}

/*
 * OR the semaphore accesses of record @in of slot @e into @row (engine,
 * then landings).
 */
void ck_fut_insn(const struct ck_prog *cp, unsigned int e,
		 const struct ncsync_insn *in, uint8_t *row)
{
	const uint16_t *dense = cp->sem_dense + CK_G(cp->core[e], 0);
	uint8_t *land = row + cp->nsem_used;
	struct ncsync_footprint fp;
	unsigned int l, i;
	uint8_t c;

	for (l = 0; l < in->nlanes; l++) {
		const struct ncsync_lane *ln = &in->lane[l];

		if (ln->wait.active && ln->wait.bank == NCSYNC_BANK_SEM)
			row[dense[ln->wait.index]] |= ck_wait_class(ln);
		if (!ln->upd.active || ln->upd.bank != NCSYNC_BANK_SEM)
			continue;
		if (ln->upd.on_land)
			land[cp->sem_dense[CK_G(ck_land_core(cp, e, in),
						ln->upd.index)]] |=
				ck_upd_class(&ln->upd);
		else
			row[dense[ln->upd.index]] |=
				ln->paired ? CK_C_SET : ck_upd_class(&ln->upd);
	}
	/* The op's own effect: the opcode table's footprint. */
	ncsync_op_footprint(in, &fp);
	for (i = 0; i < NCSYNC_NUM_SEMS; i++) {
		c = ck_op_class(&fp, i);
		if (c)
			row[dense[i]] |= c;
	}
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
	size_t w = 2 * (size_t)cp->nsem_used;
	uint8_t *fut;

	rows = (size_t)(n + 1) * w <= CK_FUT_MAX ? n + 1 : 1;
	cp->reach[e] = calloc(n + 1, sizeof(*cp->reach[e]));
	fut = calloc(rows * w + 1, 1);
	cp->fut[e] = fut;
	cp->fut_rows[e] = rows;
	if (!fut || !cp->reach[e])
		return -ENOMEM;
	ck_reach_init(cp, e, cp->reach[e]);
	for (i = n; i-- > 0;) {
		uint8_t *row = rows > 1 ? fut + i * w : fut;

		if (rows > 1)
			memcpy(row, row + w, w);
		ck_fut_insn(cp, e, &cp->insns[e][i], row);
	}
	return 0;
}

int ck_fut_init(struct ck_prog *cp)
{
	unsigned int e, i;
	int ret;

	memset(cp->sem_dense, 0xff, sizeof(cp->sem_dense));
	for (i = 0; i < cp->nsem_used; i++)
		cp->sem_dense[cp->sem_used[i]] = i;
	for (e = 0; e < cp->n; e++) {
		ret = ck_fut_slot(cp, e);
		if (ret)
			return ret;
	}
	return ck_path_init(cp);
}

void ck_fut_fini(struct ck_prog *cp)
{
	unsigned int e;

	ck_path_fini(cp);
	for (e = 0; e < CK_MAX_SLOTS; e++) {
		free(cp->fut[e]);
		free(cp->reach[e]);
		cp->fut[e] = NULL;
		cp->reach[e] = NULL;
	}
}

/* The static row of slot @e at record @pc: what the records from it reach. */
const uint8_t *ck_fut_static(const struct ck_prog *cp, unsigned int e,
			     uint32_t pc)
{
	uint32_t r = cp->fut_rows[e] > 1 ? cp->reach[e][pc] : 0;

	return cp->fut[e] + (size_t)r * 2 * cp->nsem_used;
}

/*
 * How slot @j may still touch semaphore @d: it, and its copies to come;
 * along its path (check_path.c) where it can tell, else the static row.
 */
static uint8_t ck_fut_of(const struct ck_prog *cp, const struct ck_state *st,
			 unsigned int j, unsigned int d)
{
	/* A path depends on registers, which a class of a loop shifts. */
	const uint8_t *row = cp->static_fut ? NULL : ck_path_row(cp, st, j);

	if (!row)
		row = ck_fut_static(cp, j, st->eng[j].pc);
	return row[d] | row[cp->nsem_used + d];
}

/*
 * How every actor but engine @e may still touch semaphore @g (CK_G()): the
 * other engines that have not ended, with the copies they may issue, and
 * every copy in flight (@e's own too: they land while it steps).
 */
static uint8_t ck_others(const struct ck_prog *cp, const struct ck_state *st,
			 unsigned int e, unsigned int g)
{
	unsigned int d = cp->sem_dense[g], j, i;
	uint8_t c = 0;

	for (j = 0; j < cp->n; j++)
		if (j != e && !ck_ended(st, j))
			c |= ck_fut_of(cp, st, j, d);
	for (i = 0; i < st->ncopies; i++) {
		const struct ck_copy *cy = &st->copies[i];
		const struct ncsync_insn *in = &cp->insns[cy->eng][cy->rec];
		const struct ncsync_update_op *u = &in->lane[0].upd;

		if (u->active && u->bank == NCSYNC_BANK_SEM &&
		    CK_G(ck_land_core(cp, cy->eng, in), u->index) == g)
			c |= ck_upd_class(u);
	}
	return c;
}

/* Whether an access of class @c by @e to its semaphore @idx commutes. */
static bool ck_sem_free(const struct ck_prog *cp, const struct ck_state *st,
			unsigned int e, unsigned int idx, uint8_t c)
{
	return !(ck_others(cp, st, e, CK_G(cp->core[e], idx)) &
		 ~ck_commutes(c));
}

/* Whether no engine but @e that can still step names its event @idx. */
static bool ck_event_free(const struct ck_prog *cp, const struct ck_state *st,
			  unsigned int e, unsigned int idx)
{
	uint32_t live = 0;
	unsigned int j;

	for (j = 0; j < cp->n; j++) {
		if (!ck_ended(st, j))
			live |= CK_ACTOR_ENG(j) | CK_ACTOR_DMA(j);
		else if (st->eng[j].inflight)
			live |= CK_ACTOR_DMA(j);
	}
	return !(cp->ev_users[CK_G(cp->core[e], idx)] & live &
		 ~CK_ACTOR_ENG(e));
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
			return ck_event_free(cp, st, s.idx, l->wait.index);
		return ck_sem_free(cp, st, s.idx, l->wait.index,
				   ck_wait_class(l));
	}
	l = &in->lane[x->sub - CK_SUB_UPD];
	if (l->upd.bank == NCSYNC_BANK_EVENT)
		return ck_event_free(cp, st, s.idx, l->upd.index);
	return ck_sem_free(cp, st, s.idx, l->upd.index, ck_upd_class(&l->upd));
}
