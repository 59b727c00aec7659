// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * libncsync: whether every run of a program is finite, the test a verdict
 * by induction over a loop's passes needs (Documentation/ncsync/check.rst,
 * "Loops of any trip count", "Waits that never pass").
 *
 * The test reads the records only: every branch back must close a loop
 * whose counter moves towards a bound it reaches without wrapping.
 */
#include <stdint.h>

#include "check.h"
#include "ncsync_optab.h"

/* The largest step of a loop's counter ck_accel_finite() accepts. */
#define CK_STEP_MAX	65536

/*
 * The step of the first record of [@t, @i) that writes register @r of
 * slot @e (the opcode table's footprint), if it comes before any branch of
 * the range and is a Mov32 (effect NCSYNC_EFF_MOV) that adds or subtracts
 * a constant of at most CK_STEP_MAX to @r itself; its index in *@w.  0 if
 * there is none such: a first write of another kind (a PollSem's load)
 * gives no step.
 */
static int64_t ck_loop_step(const struct ck_prog *cp, unsigned int e,
			    uint32_t t, uint32_t i, unsigned int r,
			    uint32_t *w)
{
	struct ncsync_footprint fp;
	int64_t c;
	uint32_t k;

	for (k = t; k < i; k++) {
		const struct ncsync_insn *in = &cp->insns[e][k];

		if (ncsync_op_has(in->opcode, NCSYNC_OPF_FLOW))
			return 0;
		ncsync_op_footprint(in, &fp);
		if (!(fp.reg_write & (1U << r)))
			continue;
		if (ncsync_op(in->opcode)->effect != NCSYNC_EFF_MOV ||
		    in->mov.src != r || (in->mov.alu != NCSYNC_ALU_ADD_IMM &&
					 in->mov.alu != NCSYNC_ALU_SUB_IMM))
			return 0;
		c = (int32_t)in->mov.imm;
		if (in->mov.alu == NCSYNC_ALU_SUB_IMM)
			c = -c;
		*w = k;
		return c >= -CK_STEP_MAX && c <= CK_STEP_MAX ? c : 0;
	}
	return 0;
}

/* Whether a record of [@from, @i) of slot @e writes register @r. */
static bool ck_writes_reg(const struct ck_prog *cp, unsigned int e,
			  uint32_t from, uint32_t i, unsigned int r)
{
	struct ncsync_footprint fp;
	uint32_t k;

	for (k = from; k < i; k++) {
		ncsync_op_footprint(&cp->insns[e][k], &fp);
		if (fp.reg_write & (1U << r))
			return true;
	}
	return false;
}

/* Whether a branch of slot @e other than record @i targets (@t, @w]. */
static bool ck_enters(const struct ck_prog *cp, unsigned int e, uint32_t i,
		      uint32_t t, uint32_t w)
{
	uint32_t k;

	for (k = 0; k < cp->count[e]; k++) {
		const struct ncsync_insn *in = &cp->insns[e][k];

		if (k != i && ncsync_op_has(in->opcode, NCSYNC_OPF_FLOW) &&
		    in->br.target > t && in->br.target <= w)
			return true;
	}
	return false;
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

/* Whether the loop closed by branch @i of slot @e ends (ck_accel_finite()). */
static bool ck_loop_ends(const struct ck_prog *cp, unsigned int e,
			 uint32_t i)
{
	const struct ncsync_insn *in = &cp->insns[e][i];
	bool sgn = in->br.dtype == NCSYNC_DTYPE_S32;
	uint32_t t = (uint32_t)in->br.target, w = 0;
	int64_t c, k;

	if (in->br.comp == NCSYNC_BR_ALWAYS || (in->br.comp & NCSYNC_BR_REG))
		return false;
	c = ck_loop_step(cp, e, t, i, in->br.lhs, &w);
	k = sgn ? (int64_t)(int32_t)in->br.imm : (int64_t)in->br.imm;
	return c && ck_bound_reached(in->br.comp, c, k, sgn) &&
	       !ck_writes_reg(cp, e, w + 1, i, in->br.lhs) &&
	       !ck_enters(cp, e, i, t, w);
}

/**
 * ck_accel_finite() - whether every run of the program is finite.
 * @a: the acceleration, with its shift found.
 * @cp: the program.
 *
 * Every branch back of every engine must close a loop that ends: its body
 * starts, before any branch and with no branch from elsewhere into it
 * before that point, with the one write in the body of the register the
 * branch compares with a constant, an addition or subtraction of at most
 * CK_STEP_MAX, and the loop goes on while that register is below a bound
 * (when it goes up) or above one (when it goes down) at least twice that
 * far from the end of its range.  Each round then moves the register
 * towards the bound without wrapping, and the loop ends; an engine whose
 * every loop ends runs a finite number of records.  In a program whose
 * runs are all finite, a wait that never passes ends in a state without a
 * step, which the search reports as a deadlock (Documentation/ncsync/
 * check.rst, "Loops of any trip count").
 *
 * Return: true when that holds for every branch back.
 */
bool ck_accel_finite(const struct ck_accel *a, const struct ck_prog *cp)
{
	unsigned int e;
	uint32_t i;

	for (e = 0; e < cp->n; e++)
		for (i = 0; i < cp->count[e]; i++)
			if (ncsync_op_has(cp->insns[e][i].opcode,
					  NCSYNC_OPF_FLOW) &&
			    cp->insns[e][i].br.target <= i &&
			    !ck_loop_ends(cp, e, i))
				return false;
	return true;
}
