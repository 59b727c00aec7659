// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * libncsync: an engine's registers along a line (Documentation/ncsync/
 * check.rst, "Loops of any trip count", "Paths across passes").
 *
 * A line is the points regs + k * d (k = 0, 1, ...; mod 2^32, d read as
 * signed 32-bit steps) of one engine at one record: the same engine one,
 * two, ... passes of a loop on, or the states of a class of the loop's
 * shift.  ck_line_span() says for how many of them, from k = 0, the record
 * does the same thing shifted: the same branch outcome, and registers
 * after it again of the form regs' + k * d.  The comparisons are those of
 * the loop acceleration (check_accel.c builds its predicates with
 * ck_cmp_shape()): a comparison of views that do not wrap is affine in k.
 */
#include "check.h"
#include "ncsync_optab.h"

/**
 * ck_view() - a 32-bit value as a comparison reads it.
 * @x: the value.
 * @sgn: signed (else unsigned).
 *
 * Return: its value.
 */
int64_t ck_view(uint32_t x, bool sgn)
{
	return sgn ? (int64_t)(int32_t)x : (int64_t)x;
}

/**
 * ck_wrap_dist() - the first j >= 1 where x + j * e wraps in its view.
 * @x: the value at 0.
 * @sgn: the view: signed or unsigned.
 * @e: the step, not 0.
 *
 * Return: that j.
 */
int64_t ck_wrap_dist(uint32_t x, bool sgn, int64_t e)
{
	int64_t i = ck_view(x, sgn);
	int64_t lo = sgn ? INT32_MIN : 0, hi = sgn ? INT32_MAX : UINT32_MAX;

	return e > 0 ? (hi - i) / e + 1 : (i - lo) / -e + 1;
}

/**
 * ck_cross_dist() - where an affine comparison may change its outcome.
 * @eq: the comparison is L == 0 (else L < 0).
 * @l: L at position 0.
 * @m: L's change at each position.
 *
 * Not counting the wraps of its variables, between which L is affine.
 *
 * Return: the first j >= 1 such that the outcome may differ between the
 * positions j - 1 and j; CK_LINE_FAR when none.
 */
int64_t ck_cross_dist(bool eq, int64_t l, int64_t m)
{
	if (!m)
		return CK_LINE_FAR;
	if (eq) {
		if (!l)
			return 1;
		return (-l) % m == 0 && -l / m > 0 ? -l / m : CK_LINE_FAR;
	}
	if (m > 0)
		return l < 0 ? (-l + m - 1) / m : CK_LINE_FAR;
	return l >= 0 ? l / -m + 1 : CK_LINE_FAR;
}

/**
 * ck_cmp_shape() - a branch or wait comparison as L = x - y + *@c, its
 *	outcome L == 0 (*@eq) or L < 0, inverted by *@neg.
 * @cmp: NCSYNC_BR_* without NCSYNC_BR_REG.
 * @c: the constant: on entry -y's immediate (or 0), adjusted.
 * @eq: set.
 * @neg: set.
 */
void ck_cmp_shape(unsigned int cmp, int64_t *c, bool *eq, bool *neg)
{
	*eq = *neg = false;
	switch (cmp) {
	case NCSYNC_BR_LT:	/* x - y < 0 */
		break;
	case NCSYNC_BR_GE:
		*neg = true;
		break;
	case NCSYNC_BR_LE:	/* x - y - 1 < 0 */
		--*c;
		break;
	case NCSYNC_BR_GT:
		--*c;
		*neg = true;
		break;
	case NCSYNC_BR_NE:
		*neg = true;
		/* fall through */
	default:		/* NCSYNC_BR_EQ */
		*eq = true;
		break;
	}
}

/**
 * ck_line_mov_ok() - whether Mov32 @in keeps registers of the form
 *	r + k * d[r]: an add of a constant, a copy between registers of one
 *	step, a write of a register whose step is 0 from ones whose step is.
 * @d: the step of each register of the engine.
 * @in: the Mov32 record.
 *
 * Return: true if it does.
 */
bool ck_line_mov_ok(const uint32_t *d, const struct ncsync_insn *in)
{
	switch (in->mov.alu) {
	case NCSYNC_ALU_MOV_IMM:
		return !d[in->mov.dst];
	case NCSYNC_ALU_MOV:
	case NCSYNC_ALU_ADD_IMM:
	case NCSYNC_ALU_SUB_IMM:
		return d[in->mov.dst] == d[in->mov.src];
	case NCSYNC_ALU_ADD:
	case NCSYNC_ALU_SUB:
		return !d[in->mov.src];
	default:
		return !d[in->mov.dst] && !d[in->mov.src];
	}
}

static int64_t ck_lmin(int64_t a, int64_t b)
{
	return a < b ? a : b;
}

/* Positions from 0 on which register @r's view does not wrap. */
static int64_t ck_line_nowrap(const uint32_t *regs, const uint32_t *d,
			      unsigned int r, bool sgn)
{
	return d[r] ? ck_wrap_dist(regs[r], sgn, (int32_t)d[r]) : CK_LINE_FAR;
}

/* ck_line_span() of a conditional branch. */
static int64_t ck_line_branch(const struct ncsync_insn *in,
			      const uint32_t *regs, const uint32_t *d)
{
	bool sgn = in->br.dtype == NCSYNC_DTYPE_S32, reg, eq, neg;
	unsigned int x = in->br.lhs, y = in->br.rhs;
	int64_t l, m, c, span;

	reg = in->br.comp & NCSYNC_BR_REG;
	c = reg ? 0 : -ck_view(in->br.imm, sgn);
	ck_cmp_shape(in->br.comp & ~NCSYNC_BR_REG, &c, &eq, &neg);
	l = ck_view(regs[x], sgn) + c;
	m = (int32_t)d[x];
	span = ck_line_nowrap(regs, d, x, sgn);
	if (reg) {
		l -= ck_view(regs[y], sgn);
		m -= (int32_t)d[y];
		span = ck_lmin(span, ck_line_nowrap(regs, d, y, sgn));
	}
	return ck_lmin(span, ck_cross_dist(eq, l, m));
}

/**
 * ck_line_span() - on how many points of a line a record does the same.
 * @in: the record, of the engine whose registers these are.
 * @regs: the registers at k = 0.
 * @d: their steps.
 *
 * The points k = 0 .. span - 1 take the same branch outcome at @in and
 * leave its registers of the form regs' + k * d.  A record that loads a
 * register from the banks (PollSem) or writes one incompatibly with @d
 * has span 0.
 *
 * Return: the span, CK_LINE_FAR when the line never changes what @in does.
 */
int64_t ck_line_span(const struct ncsync_insn *in, const uint32_t *regs,
		     const uint32_t *d)
{
	if (ncsync_op_has(in->opcode, NCSYNC_OPF_SEM_READ))
		return 0;
	if (ncsync_op(in->opcode)->effect == NCSYNC_EFF_MOV &&
	    !ck_line_mov_ok(d, in))
		return 0;
	if (!ncsync_op_has(in->opcode, NCSYNC_OPF_FLOW) ||
	    in->br.comp == NCSYNC_BR_ALWAYS)
		return CK_LINE_FAR;
	return ck_line_branch(in, regs, d);
}
