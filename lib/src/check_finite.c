// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * libncsync: whether every run of a program is finite, the test a verdict
 * by induction over a loop's passes needs (Documentation/ncsync/check.rst,
 * "Loops of any trip count", "Waits that never pass").
 *
 * The test reads the records only: the loops of each engine must nest
 * (two bodies are disjoint or one holds the other), and every branch back
 * must close a loop whose counter every path round the body moves once,
 * towards a bound it reaches without wrapping.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "ncsync_optab.h"

/* The largest step of a loop's counter ck_accel_finite() accepts. */
#define CK_STEP_MAX	65536

/*
 * The body of a loop of slot @e, records [@t, @i], @i its branch back, and
 * the scratch its paths are followed with: @seen, per record of the body
 * (by its index less @t), whether it was reached; @todo, the records
 * reached whose successors are still to follow.
 */
struct ck_body {
	const struct ck_prog *cp;
	unsigned int e;
	uint32_t t;
	uint32_t i;
	uint8_t *seen;
	uint32_t *todo;
};

/*
 * The step of the one record of [@b->t, @b->i) that writes register @r,
 * its index in *@w: a Mov32 (effect NCSYNC_EFF_MOV) that adds or subtracts
 * a constant of at most CK_STEP_MAX to @r itself.  0 if no record or more
 * than one writes @r (the opcode table's footprint), or if that write is
 * of another kind (a PollSem's load, a movi).
 */
static int64_t ck_loop_step(const struct ck_body *b, unsigned int r,
			    uint32_t *w)
{
	const struct ncsync_insn *in, *one = NULL;
	struct ncsync_footprint fp;
	int64_t c;
	uint32_t k;

	for (k = b->t; k < b->i; k++) {
		in = &b->cp->insns[b->e][k];
		ncsync_op_footprint(in, &fp);
		if (!(fp.reg_write & (1U << r)))
			continue;
		if (one)
			return 0;
		one = in;
		*w = k;
	}
	if (!one || ncsync_op(one->opcode)->effect != NCSYNC_EFF_MOV ||
	    one->mov.src != r || (one->mov.alu != NCSYNC_ALU_ADD_IMM &&
				  one->mov.alu != NCSYNC_ALU_SUB_IMM))
		return 0;
	c = (int32_t)one->mov.imm;
	if (one->mov.alu == NCSYNC_ALU_SUB_IMM)
		c = -c;
	return c >= -CK_STEP_MAX && c <= CK_STEP_MAX ? c : 0;
}

/*
 * The successors of record @k of the body @b that are in it, into @s
 * (ck_rec_succ()'s: a record that ends the engine has no next one).  The
 * branch back @b->i has none (a path round the body ends there).
 */
static unsigned int ck_succ(const struct ck_body *b, uint32_t k,
			    uint32_t s[2])
{
	unsigned int j, n, m = 0;

	if (k == b->i)
		return 0;
	n = ck_rec_succ(b->cp, b->e, k, s);
	for (j = 0; j < n; j++)
		if (s[j] >= b->t && s[j] <= b->i)
			s[m++] = s[j];
	return m;
}

/*
 * Whether a path of the body @b from a successor of record @from reaches
 * record @goal without going through record @avoid.
 */
static bool ck_reaches(struct ck_body *b, uint32_t from, uint32_t avoid,
		       uint32_t goal)
{
	uint32_t n = 0, k = from, s[2];
	unsigned int m, j;

	memset(b->seen, 0, b->i - b->t + 1);
	for (;;) {
		m = ck_succ(b, k, s);
		for (j = 0; j < m; j++) {
			if (s[j] == goal)
				return true;
			if (s[j] == avoid || b->seen[s[j] - b->t])
				continue;
			b->seen[s[j] - b->t] = 1;
			b->todo[n++] = s[j];
		}
		if (!n)
			return false;
		k = b->todo[--n];
	}
}

/*
 * Whether a loop that goes on while its counter, moved by @c a round,
 * compares @cmp with @k, stops before the counter wraps: it goes up while
 * below a bound that is at least CK_STEP_MAX under the largest value, or
 * down while above one at least CK_STEP_MAX over the smallest.
 */
static bool ck_bound_reached(unsigned int cmp, int64_t c, int64_t k,
			     bool sgn)
{
	int64_t lo = sgn ? INT32_MIN : 0, hi = sgn ? INT32_MAX : UINT32_MAX;

	if (c > 0 && (cmp == NCSYNC_BR_LT || cmp == NCSYNC_BR_LE))
		return k <= hi - 2 * CK_STEP_MAX;
	if (c < 0 && (cmp == NCSYNC_BR_GT || cmp == NCSYNC_BR_GE))
		return k >= lo + 2 * CK_STEP_MAX;
	return false;
}

/*
 * Whether the loop closed by the branch back @b->i ends: it compares a
 * register with a constant, the one record of the body that writes that
 * register steps it towards the bound, and every path round the body
 * (from @b->t to @b->i, within it) goes through that step once: it cannot
 * reach @b->i without it, nor come back to it.
 */
static bool ck_loop_ends(struct ck_body *b)
{
	const struct ncsync_insn *in = &b->cp->insns[b->e][b->i];
	bool sgn = in->br.dtype == NCSYNC_DTYPE_S32;
	uint32_t w = 0;
	int64_t c, k;

	if (in->br.comp == NCSYNC_BR_ALWAYS || (in->br.comp & NCSYNC_BR_REG))
		return false;
	c = ck_loop_step(b, in->br.lhs, &w);
	k = sgn ? (int64_t)(int32_t)in->br.imm : (int64_t)in->br.imm;
	if (!c || !ck_bound_reached(in->br.comp, c, k, sgn))
		return false;
	if (w != b->t && ck_reaches(b, b->t, w, b->i))
		return false;
	return !ck_reaches(b, w, UINT32_MAX, w);
}

/*
 * Whether the loops of slot @e nest and each ends.  The branches back come
 * in the order of their records, so of the bodies met so far @nest holds
 * (as pairs: first record, branch back) those no later one held, disjoint
 * and in order; a new body holds those on top that start in it, and must
 * start after the end of the one below them.
 */
static bool ck_slot_finite(struct ck_body *b, uint32_t *nest)
{
	const struct ck_prog *cp = b->cp;
	uint32_t i, t, top = 0;

	for (i = 0; i < cp->count[b->e]; i++) {
		const struct ncsync_insn *in = &cp->insns[b->e][i];

		if (!ncsync_op_has(in->opcode, NCSYNC_OPF_FLOW) ||
		    in->br.target > i)
			continue;
		t = in->br.target;
		while (top && nest[2 * (top - 1)] >= t)
			top--;
		if (top && nest[2 * (top - 1) + 1] >= t)
			return false;
		nest[2 * top] = t;
		nest[2 * top + 1] = i;
		top++;
		b->t = t;
		b->i = i;
		if (!ck_loop_ends(b))
			return false;
	}
	return true;
}

/**
 * ck_accel_finite() - whether every run of the program is finite.
 * @a: the acceleration, with its shift found.
 * @cp: the program.
 *
 * The loops of every engine must nest: the bodies of two branches back
 * (from a branch's target to the branch) are disjoint or one holds the
 * other.  Every branch back must close a loop that ends: it compares a
 * register with a constant, the body holds one record that writes that
 * register, an addition or subtraction of at most CK_STEP_MAX, every path
 * from the body's first record to the branch within the body (forward
 * branches and inner loops included, each conditional branch both ways)
 * goes through that record once, and the loop goes on while the register
 * is below a bound (when it goes up) or above one (when it goes down) at
 * least twice that far from the end of its range.  Then an engine runs
 * finitely many records: in an endless run, of the records met for ever
 * the last one is a branch back taken every time, whose body (by the
 * nesting) is where the run stays, so its counter moves the step each
 * round and would pass the bound (Documentation/ncsync/check.rst, "Waits
 * that never pass").  In a program whose runs are all finite, a wait that
 * never passes ends in a state without a step, which the search reports
 * as a deadlock.
 *
 * Return: 1 when that holds for every engine, 0 when not, -ENOMEM.
 */
int ck_accel_finite(const struct ck_accel *a, const struct ck_prog *cp)
{
	struct ck_body b = { .cp = cp };
	uint32_t max = 1, *nest;
	int ret = 1;

	for (b.e = 0; b.e < cp->n; b.e++)
		if (cp->count[b.e] > max)
			max = cp->count[b.e];
	b.seen = malloc(max);
	b.todo = calloc(max, sizeof(*b.todo));
	nest = calloc(max, 2 * sizeof(*nest));
	if (!b.seen || !b.todo || !nest)
		ret = -ENOMEM;
	for (b.e = 0; ret > 0 && b.e < cp->n; b.e++)
		ret = ck_slot_finite(&b, nest);
	free(b.seen);
	free(b.todo);
	free(nest);
	return ret;
}
