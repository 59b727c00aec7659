// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * libncsync: the static futures of the reduction (Documentation/ncsync/
 * check.rst, "The reduction"): the class of each access a record makes to
 * a semaphore (its lanes', and its op's from the opcode table's
 * footprint), and per engine and record the union of the classes of every
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
	unsigned int e;
	int ret;

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

