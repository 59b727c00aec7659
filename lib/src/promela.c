// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * libncsync: ncsync_check_promela(), the lowered program as a Promela model
 * for SPIN, an oracle independent of ncsync_check()'s search
 * (Documentation/ncsync/check.rst, "SPIN: the same program, another
 * checker").
 *
 * The model is built from the checker's own decoded form (struct ck_prog:
 * the records ncsync_record_decode() accepted, the cores, the semaphores
 * and events the program uses), so the two checkers explore the same
 * records.  Each step of check.rst "Steps" is one Promela statement, or one
 * d_step when it reads and writes the banks (a wait with its action or its
 * paired update, a landing), so that both models interleave the same
 * atomic steps:
 *
 *   - an engine is a proctype; its registers are local ints, the records
 *     are labels R<n>, a Branch is an if whose arms run the record's
 *     updates and jump;
 *   - a semaphore is a global int (signed 32 bits: compile pan with
 *     -fwrapv, so that additions wrap as the model's do), an event a bit;
 *   - the copies in flight are counters, per engine (f<slot>, at most
 *     CK_DEPTH) and per DMA record (d<slot>_<record>), or with
 *     NCSYNC_CHECK_F_DMA_FIFO a channel; the proctype dma lands them, one
 *     d_step per landing, with the completion update;
 *   - more than CK_MAX_COPIES copies in flight in all is the checker's
 *     limit: an assertion.
 *
 * A state where no step can run and an engine has not ended is SPIN's
 * invalid end state: an engine blocked where it has no end label.  With
 * the other kinds (ck_promela()) the model asserts, inside each step that
 * could commit one, that it does not: overflow and event at each update,
 * dma-race at each issue.  The first variable an assertion names tells its
 * kind: e (event), s or r (overflow), d (dma-race), ncopies (the limit).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "ncsync_exec.h"
#include "ncsync_optab.h"
#include "text.h"

/**
 * struct pml - a model being written.
 * @out: where.
 * @cp: the program, decoded as the checker decodes it.
 * @fifo: copies land in issue order: a channel instead of counters.
 * @dma_id: per slot, the id of its first DMA record on the channel (fifo).
 * @ndma: DMA records of every slot.
 * @drain: some slot has a Drain (the counters are declared for it).
 * @first: the next statement is a record's first, whose label a Branch
 *	may jump to: a d_step there is wrapped in an if (SPIN refuses a jump
 *	into a d_step).
 * @wrap: the d_step being written is wrapped so.
 * @bad: a record the model cannot express.
 * @kinds: the defects whose assertions are written, 1 << NCSYNC_DEFECT_*
 *	(the deadlock's are the invalid end states: none written).
 * @counts: the copies in flight are counted per record too (not fifo, or
 *	for the dma-race assertions).
 * @nassert: per kind, the assertions written.
 */
struct pml {
	FILE *out;
	const struct ck_prog *cp;
	bool fifo;
	unsigned int dma_id[CK_MAX_SLOTS];
	unsigned int ndma;
	bool drain;
	bool first;
	bool wrap;
	bool bad;
	uint32_t kinds;
	bool counts;
	unsigned int nassert[NCSYNC_DEFECT_KINDS];
};

/* A signed 32-bit literal (SPIN's lexer has no -2147483648). */
static void pml_int(FILE *f, uint32_t v)
{
	if (v == 0x80000000U)
		fputs("(-2147483647 - 1)", f);
	else
		fprintf(f, "%d", (int)(int32_t)v);
}

/* Open a d_step (wrapped at a record's first statement); close it. */
static void pml_dstep(struct pml *p)
{
	fputs(p->first ? "\tif :: d_step { " : "\td_step { ", p->out);
	p->wrap = p->first;
	p->first = false;
}

static void pml_dstep_end(struct pml *p)
{
	fputs(p->wrap ? " } fi;\n" : " };\n", p->out);
}

/* Semaphore or event @index of core @c, by its position. */
static void pml_res(const struct pml *p, unsigned int c, uint8_t bank,
		    unsigned int index)
{
	fprintf(p->out, "%c%u_%u", bank == NCSYNC_BANK_SEM ? 's' : 'e',
		p->cp->pos[c], index);
}

/* An operand: register @v when @reg, else the immediate. */
static void pml_operand(const struct pml *p, bool reg, uint32_t v)
{
	if (reg)
		fprintf(p->out, "r%u", v);
	else
		pml_int(p->out, v);
}

static const char *const pml_cmp[] = {
	[NCSYNC_CMP_EQ] = "==", [NCSYNC_CMP_LT] = "<", [NCSYNC_CMP_LE] = "<=",
	[NCSYNC_CMP_GT] = ">", [NCSYNC_CMP_GE] = ">=",
};

/*
 * An update on core @c's banks, as ck_update() does it: from an engine
 * (@regs: a register operand is its register), or a landing (immediate).
 */
static void pml_update(const struct pml *p, unsigned int c,
		       const struct ncsync_update_op *u, bool regs)
{
	pml_res(p, c, u->bank, u->index);
	if (u->bank == NCSYNC_BANK_EVENT) {
		fprintf(p->out, " = %d", u->set);
		return;
	}
	fputs(" = ", p->out);
	if (u->op != NCSYNC_SEM_UPD_SET) {
		pml_res(p, c, u->bank, u->index);
		fputs(u->op == NCSYNC_SEM_UPD_ADD ? " + " : " - ", p->out);
	}
	pml_operand(p, regs && u->reg, u->operand);
}

/*
 * Whether update @u gets an assertion of the model's kind: an event write,
 * or an addition or a subtraction that can overflow (not an immediate 0).
 */
static bool pml_checks(const struct pml *p, const struct ncsync_update_op *u,
		       bool regs)
{
	if (u->bank == NCSYNC_BANK_EVENT)
		return p->kinds & 1U << NCSYNC_DEFECT_EVENT;
	return p->kinds & 1U << NCSYNC_DEFECT_OVERFLOW &&
	       u->op != NCSYNC_SEM_UPD_SET && ((regs && u->reg) || u->operand);
}

/*
 * "S OP X" leaves the signed 32-bit range, for register X (ncsync_sem_apply()
 * computes it 64 bits wide): compared with bounds that do not overflow.
 */
static void pml_overflow_reg(const struct pml *p, unsigned int c,
			     const struct ncsync_update_op *u)
{
	bool add = u->op == NCSYNC_SEM_UPD_ADD;

	fprintf(p->out, "!((r%u %c 0 && ", u->operand, add ? '>' : '<');
	pml_res(p, c, u->bank, u->index);
	fprintf(p->out, " > 2147483647 %c r%u) || (r%u %c 0 && ",
		add ? '-' : '+', u->operand, u->operand, add ? '<' : '>');
	pml_res(p, c, u->bank, u->index);
	fprintf(p->out, " < MSB %c r%u))", add ? '-' : '+', u->operand);
}

/* The same for an immediate X (not 0): one bound, computed here. */
static void pml_overflow_imm(const struct pml *p, unsigned int c,
			     const struct ncsync_update_op *u)
{
	int64_t x = (int32_t)u->operand, bound;
	bool up;

	if (u->op == NCSYNC_SEM_UPD_SUB)
		x = -x;
	/* S + x stays in range: S <= MAX - x when x > 0, S >= MIN - x. */
	up = x > 0;
	bound = up ? INT32_MAX - x : INT32_MIN - x;
	pml_res(p, c, u->bank, u->index);
	fputs(up ? " <= " : " >= ", p->out);
	pml_int(p->out, (uint32_t)bound);
}

/*
 * The assertion of update @u, inside its step's d_step and before the
 * write: the overflow of ncsync_sem_apply(), or the fault of
 * ncsync_exec_update() on an event (set while set, cleared while clear).
 */
static void pml_check(struct pml *p, unsigned int c,
		      const struct ncsync_update_op *u, bool regs)
{
	fputs("assert(", p->out);
	if (u->bank == NCSYNC_BANK_EVENT) {
		pml_res(p, c, u->bank, u->index);
		fprintf(p->out, " != %d", u->set);
	} else if (regs && u->reg) {
		pml_overflow_reg(p, c, u);
	} else {
		pml_overflow_imm(p, c, u);
	}
	fputs("); ", p->out);
	p->nassert[u->bank == NCSYNC_BANK_EVENT ? NCSYNC_DEFECT_EVENT :
		   NCSYNC_DEFECT_OVERFLOW]++;
}

/* An update, with its assertion if it has one. */
static void pml_update_checked(struct pml *p, unsigned int c,
			       const struct ncsync_update_op *u, bool regs)
{
	if (pml_checks(p, u, regs))
		pml_check(p, c, u, regs);
	pml_update(p, c, u, regs);
}

/*
 * An unpaired update, a statement of its own; with an assertion, a d_step
 * (wrapped at a record's first statement, as pml_dstep()).
 */
static void pml_update_stmt(struct pml *p, unsigned int c,
			    const struct ncsync_update_op *u,
			    const char *indent)
{
	bool chk = pml_checks(p, u, true), wrap = chk && p->first;

	fprintf(p->out, "%s%s", indent,
		wrap ? "if :: d_step { " : chk ? "d_step { " : "");
	p->first = false;
	pml_update_checked(p, c, u, true);
	fputs(wrap ? " } fi;\n" : chk ? " };\n" : ";\n", p->out);
}

/* The test of a wait, as ck_wait_passes(). */
static void pml_test(const struct pml *p, unsigned int c,
		     const struct ncsync_wait_op *w)
{
	fputc('(', p->out);
	pml_res(p, c, w->bank, w->index);
	if (w->bank == NCSYNC_BANK_EVENT) {
		fprintf(p->out, " == %d)", w->want);
		return;
	}
	fprintf(p->out, " %s ", pml_cmp[w->cmp]);
	pml_operand(p, w->reg, w->value);
	fputc(')', p->out);
}

/* Step w0 or w1: the test, with its event action or paired update. */
static void pml_wait(struct pml *p, unsigned int e,
		     const struct ncsync_lane *ln)
{
	unsigned int c = p->cp->core[e];
	const struct ncsync_wait_op *w = &ln->wait;
	bool act = w->bank == NCSYNC_BANK_EVENT ? w->then != NCSYNC_THEN_NONE :
						  ln->paired;

	if (act)
		pml_dstep(p);
	else
		fputc('\t', p->out);
	p->first = false;
	pml_test(p, c, w);
	if (act && w->bank == NCSYNC_BANK_EVENT) {
		fputs(" -> ", p->out);
		pml_res(p, c, w->bank, w->index);
		fprintf(p->out, " = %d", w->then == NCSYNC_THEN_SET);
	} else if (act) {
		fputs(" -> ", p->out);
		pml_update_checked(p, c, &ln->upd, true);
	}
	if (act)
		pml_dstep_end(p);
	else
		fputs(";\n", p->out);
}

/* Whether lane @l has step u0 or u1: an update not paired, not a landing's. */
static bool pml_has_update(const struct ncsync_insn *in, unsigned int l)
{
	const struct ncsync_lane *ln = &in->lane[l];

	return l < in->nlanes && ln->upd.active && !ln->paired &&
	       !ln->upd.on_land;
}

/* Steps u0 and u1. */
static void pml_updates(struct pml *p, unsigned int e,
			const struct ncsync_insn *in, const char *indent)
{
	unsigned int l;

	for (l = 0; l < in->nlanes; l++) {
		const struct ncsync_lane *ln = &in->lane[l];

		if (pml_has_update(in, l))
			pml_update_stmt(p, p->cp->core[e], &ln->upd, indent);
	}
}

/* The unsigned or signed compare of a Branch, as ncsync_br_test(). */
static void pml_branch_test(const struct pml *p, const struct ncsync_insn *in)
{
	static const char *const ops[] = {
		[NCSYNC_BR_LT] = "<", [NCSYNC_BR_LE] = "<=",
		[NCSYNC_BR_EQ] = "==", [NCSYNC_BR_NE] = "!=",
		[NCSYNC_BR_GE] = ">=", [NCSYNC_BR_GT] = ">",
	};
	unsigned int comp = in->br.comp & ~NCSYNC_BR_REG;
	bool u = in->br.dtype != NCSYNC_DTYPE_S32;
	bool reg = in->br.comp & NCSYNC_BR_REG;

	if (comp == NCSYNC_BR_ALWAYS) {
		fputs("true", p->out);
		return;
	}
	/* Unsigned: flip the sign bits, then compare signed. */
	fprintf(p->out, u ? "((r%u ^ MSB) %s (" : "(r%u %s ", in->br.lhs,
		comp < ARRAY_SIZE(ops) && ops[comp] ? ops[comp] :
		">");
	pml_operand(p, reg, reg ? in->br.rhs : in->br.imm);
	fputs(u ? " ^ MSB))" : ")", p->out);
}

/* The effect of a Branch, then the updates, then the jump. */
static void pml_branch(struct pml *p, unsigned int e,
		       const struct ncsync_insn *in)
{
	uint32_t t = in->br.target;

	fputs("\tif\n\t:: ", p->out);
	pml_branch_test(p, in);
	fputs(" ->\n", p->out);
	pml_updates(p, e, in, "\t\t");
	if (t < p->cp->count[e])
		fprintf(p->out, "\t\tgoto R%u\n", t);
	else
		fputs("\t\tgoto REND\n", p->out);
	fputs("\t:: else", p->out);
	if (pml_has_update(in, 0) || pml_has_update(in, 1)) {
		fputs(" ->\n", p->out);
		pml_updates(p, e, in, "\t\t");
	} else {
		fputc('\n', p->out);
	}
	fputs("\tfi;\n", p->out);
}

/* The ALU of a Mov32, as ncsync_alu(). */
static void pml_mov(const struct pml *p, const struct ncsync_insn *in)
{
	static const char *const ops[] = {
		[NCSYNC_ALU_ADD_IMM] = "+", [NCSYNC_ALU_SUB_IMM] = "-",
		[NCSYNC_ALU_AND_IMM] = "&", [NCSYNC_ALU_OR_IMM] = "|",
		[NCSYNC_ALU_XOR_IMM] = "^", [NCSYNC_ALU_SHL_IMM] = "<<",
	};
	unsigned int d = in->mov.dst, s = in->mov.src, k;
	FILE *f = p->out;

	fprintf(f, "\tr%u = ", d);
	switch (in->mov.alu) {
	case NCSYNC_ALU_MOV_IMM:
		pml_int(f, in->mov.imm);
		break;
	case NCSYNC_ALU_MOV:
		fprintf(f, "r%u", s);
		break;
	case NCSYNC_ALU_ADD:
	case NCSYNC_ALU_SUB:
		fprintf(f, "r%u %c r%u", d,
			in->mov.alu == NCSYNC_ALU_ADD ? '+' : '-', s);
		break;
	case NCSYNC_ALU_SHL_IMM:
		fprintf(f, "r%u << %u", s, in->mov.imm & 31);
		break;
	case NCSYNC_ALU_SHR_IMM:
		/* A logical shift: the arithmetic one, masked. */
		k = in->mov.imm & 31;
		if (k)
			fprintf(f, "(r%u >> %u) & %u", s, k,
				(1U << (32 - k)) - 1);
		else
			fprintf(f, "r%u", s);
		break;
	default:
		fprintf(f, "r%u %s ", s, ops[in->mov.alu]);
		pml_int(f, in->mov.imm);
		break;
	}
	fputs(";\n", f);
}

/*
 * A PollSem: the minimum or the sum of its semaphores, and the write-back
 * of a nonzero minimum, in one step.
 */
static void pml_poll(struct pml *p, unsigned int e,
		     const struct ncsync_insn *in)
{
	unsigned int c = p->cp->core[e], d = in->poll.dst, i;
	FILE *f = p->out;

	pml_dstep(p);
	fprintf(f, "r%u = ", d);
	pml_res(p, c, NCSYNC_BANK_SEM, in->poll.first);
	for (i = 1; i < in->poll.count; i++) {
		fputs(";\n\t\t", f);
		if (in->poll.op == NCSYNC_POLL_MIN) {
			fputs("if :: ", f);
			pml_res(p, c, NCSYNC_BANK_SEM, in->poll.first + i);
			fprintf(f, " < r%u -> r%u = ", d, d);
			pml_res(p, c, NCSYNC_BANK_SEM, in->poll.first + i);
			fputs(" :: else fi", f);
		} else {
			fprintf(f, "r%u = r%u + ", d, d);
			pml_res(p, c, NCSYNC_BANK_SEM, in->poll.first + i);
		}
	}
	if (in->poll.writeback) {
		/* a nonzero minimum over the range, in the same step */
		fprintf(f, ";\n\t\tif :: r%u != 0 -> skip", d);
		for (i = 0; i < in->poll.count; i++) {
			fputs("; ", f);
			pml_res(p, c, NCSYNC_BANK_SEM, in->poll.first + i);
			fprintf(f, " = r%u", d);
		}
		fputs(" :: else fi", f);
	}
	pml_dstep_end(p);
}

/* A GroupResetSemaphores: the semaphores it clears, in one step. */
static void pml_group_reset(struct pml *p, unsigned int e,
			    const struct ncsync_insn *in)
{
	unsigned int c = p->cp->core[e], i, n = 0;

	pml_dstep(p);
	fputs("skip", p->out);
	for (i = 0; i < NCSYNC_NUM_SEMS; i++) {
		if (!ncsync_group_reset_clears(in, i))
			continue;
		fputs(n++ % 4 ? "; " : ";\n\t\t", p->out);
		pml_res(p, c, NCSYNC_BANK_SEM, i);
		fputs(" = 0", p->out);
	}
	pml_dstep_end(p);
}

/* The bytes [@a, @a + @la) and [@b, @b + @lb) have one in common. */
static bool pml_common_byte(uint64_t a, uint32_t la, uint64_t b, uint32_t lb)
{
	uint64_t lo = a > b ? a : b, hi_a = a + la, hi_b = b + lb;

	return lo < (hi_a < hi_b ? hi_a : hi_b);
}

/*
 * Copies of DMA records @a and @b conflict: a byte one writes the other
 * reads or writes (check.rst "Defects").  Written from the definition here,
 * not taken from the checker's ck_issue(): the oracle shares no test with
 * what it checks.  A DMA record's ranges are immediates (no register
 * operand), so the answer is exact per pair of records.
 */
static bool pml_conflict(const struct ncsync_insn *a,
			 const struct ncsync_insn *b)
{
	return pml_common_byte(a->dma.dst, a->dma.len, b->dma.dst, b->dma.len) ||
	       pml_common_byte(a->dma.dst, a->dma.len, b->dma.src, b->dma.len) ||
	       pml_common_byte(a->dma.src, a->dma.len, b->dma.dst, b->dma.len);
}

/*
 * dma-race, as check.rst "Defects": at the issue of record @rec of slot
 * @e, no copy in flight of a record of its core whose bytes conflict, but
 * its own engine's with fifo (they land in issue order).
 */
static void pml_race(struct pml *p, unsigned int e, uint32_t rec)
{
	const struct ck_prog *cp = p->cp;
	const struct ncsync_insn *in = &cp->insns[e][rec];
	unsigned int o;
	uint32_t r;

	for (o = 0; o < cp->n; o++) {
		if (cp->core[o] != cp->core[e] || (p->fifo && o == e))
			continue;
		for (r = 0; r < cp->count[o]; r++) {
			if (!ncsync_op_has(cp->insns[o][r].opcode,
					   NCSYNC_OPF_DMA) ||
			    !pml_conflict(in, &cp->insns[o][r]))
				continue;
			fprintf(p->out, "assert(d%u_%u == 0); ", o, r);
			p->nassert[NCSYNC_DEFECT_DMA_RACE]++;
		}
	}
}

/* The issue of a copy: one more in flight, of the engine and in all. */
static void pml_dma(struct pml *p, unsigned int e, uint32_t rec)
{
	FILE *f = p->out;

	pml_dstep(p);
	fprintf(f, "f%u < %u -> ", e, CK_DEPTH);
	if (p->kinds & 1U << NCSYNC_DEFECT_DMA_RACE)
		pml_race(p, e, rec);
	fprintf(f, "assert(ncopies < %u); ncopies++; f%u++; ", CK_MAX_COPIES,
		e);
	if (p->fifo)
		fprintf(f, "q!%u%s", p->dma_id[e] + rec, p->counts ? "; " : "");
	if (p->counts)
		fprintf(f, "d%u_%u++", e, rec);
	pml_dstep_end(p);
}

/*
 * Step fx of record @rec of slot @e, the updates and where it goes next:
 * the translation of the op's effect, by the opcode table's effect column
 * (one case per NCSYNC_EFF_*, as ncsync_exec_op()).
 */
static void pml_effect(struct pml *p, unsigned int e, uint32_t rec,
		       const struct ncsync_insn *in)
{
	unsigned int eff = ncsync_op(in->opcode)->effect;

	/* These begin with a statement that is not a d_step. */
	if (eff == NCSYNC_EFF_BRANCH || eff == NCSYNC_EFF_HALT ||
	    eff == NCSYNC_EFF_EXIT || eff == NCSYNC_EFF_MOV ||
	    eff == NCSYNC_EFF_DRAIN)
		p->first = false;
	switch (eff) {
	case NCSYNC_EFF_BRANCH:
		pml_branch(p, e, in);
		return;
	case NCSYNC_EFF_HALT:
	case NCSYNC_EFF_EXIT:
		fputs("\tskip;\n", p->out);
		pml_updates(p, e, in, "\t");
		fputs("\tgoto REND;\n", p->out);
		return;
	case NCSYNC_EFF_MOV:
		pml_mov(p, in);
		break;
	case NCSYNC_EFF_DRAIN:
		fprintf(p->out, "\t(f%u == 0);\n", e);
		break;
	case NCSYNC_EFF_DMA:
		pml_dma(p, e, rec);
		break;
	case NCSYNC_EFF_POLL:
		pml_poll(p, e, in);
		break;
	case NCSYNC_EFF_GROUP_RESET:
		pml_group_reset(p, e, in);
		break;
	case NCSYNC_EFF_NONE:
		break;
	default:
		p->bad = true;
		return;
	}
	pml_updates(p, e, in, "\t");
}

/* The registers slot @e's records name, as a mask. */
static uint32_t pml_regs(const struct ck_prog *cp, unsigned int e)
{
	struct ncsync_footprint fp;
	uint32_t m = 0, i, l;

	for (i = 0; i < cp->count[e]; i++) {
		const struct ncsync_insn *in = &cp->insns[e][i];

		for (l = 0; l < in->nlanes; l++) {
			if (in->lane[l].wait.active && in->lane[l].wait.reg)
				m |= 1U << in->lane[l].wait.value;
			if (in->lane[l].upd.active && in->lane[l].upd.reg &&
			    !in->lane[l].upd.on_land)
				m |= 1U << in->lane[l].upd.operand;
		}
		/* The op's own: the opcode table's footprint. */
		ncsync_op_footprint(in, &fp);
		m |= fp.reg_read | fp.reg_write;
	}
	return m;
}

/* The proctype of slot @e: its registers, then its records. */
static void pml_engine(struct pml *p, unsigned int e)
{
	const struct ck_prog *cp = p->cp;
	const char *name = ncsync_engine_name(cp->engine[e]);
	uint32_t regs = pml_regs(cp, e), i, l;
	FILE *f = p->out;

	fprintf(f, "\n/* core %u, engine %s (%u records) */\n",
		cp->pos[cp->core[e]], name ? name : "?", cp->count[e]);
	if (name)
		fprintf(f, "active proctype c%u_%s()\n{\n",
			cp->pos[cp->core[e]], name);
	else
		fprintf(f, "active proctype c%u_e%u()\n{\n",
			cp->pos[cp->core[e]], cp->engine[e]);
	for (i = 0; i < NCSYNC_NUM_REGS; i++)
		if (regs & 1U << i)
			fprintf(f, "\tint r%u = 0;\n", i);
	for (i = 0; i < cp->count[e] && !p->bad; i++) {
		const struct ncsync_insn *in = &cp->insns[e][i];

		fprintf(f, "R%u:\n", i);
		p->first = true;
		for (l = 0; l < in->nlanes; l++)
			if (in->lane[l].wait.active)
				pml_wait(p, e, &in->lane[l]);
		pml_effect(p, e, i, in);
	}
	fputs("REND:\n\tskip\n}\n", f);
}

/* The landing of the copies of DMA record @rec of slot @e, one d_step. */
static void pml_landing(struct pml *p, unsigned int e, uint32_t rec,
			const char *indent)
{
	const struct ncsync_insn *in = &p->cp->insns[e][rec];

	fprintf(p->out, "f%u--; ncopies--", e);
	if (p->counts)
		fprintf(p->out, "; d%u_%u--", e, rec);
	if (in->lane[0].upd.active) {
		fprintf(p->out, ";\n%s", indent);
		pml_update_checked(p, ck_land_core(p->cp, e, in),
				   &in->lane[0].upd, false);
	}
}

/* The DMA engine: lands any copy in flight (fifo: the oldest). */
static void pml_landings(struct pml *p)
{
	const struct ck_prog *cp = p->cp;
	FILE *f = p->out;
	unsigned int e;
	uint32_t i;

	fputs("\n/* the copies in flight land */\nactive proctype dma()\n{\n",
	      f);
	if (p->fifo)
		fputs("\tint id;\nend:\tdo\n\t:: d_step { q?id ->\n\t\tif\n", f);
	else
		fputs("end:\tdo\n", f);
	for (e = 0; e < cp->n; e++) {
		for (i = 0; i < cp->count[e]; i++) {
			if (!ncsync_op_has(cp->insns[e][i].opcode,
					   NCSYNC_OPF_DMA))
				continue;
			if (p->fifo) {
				fprintf(f, "\t\t:: id == %u -> ",
					p->dma_id[e] + i);
				pml_landing(p, e, i, "\t\t\t");
				fputc('\n', f);
			} else {
				fprintf(f, "\t:: d_step { d%u_%u > 0 -> ", e, i);
				pml_landing(p, e, i, "\t\t");
				fputs(" }\n", f);
			}
		}
	}
	if (p->fifo)
		fputs("\t\tfi;\n\t\tid = 0 }\n", f);
	fputs("\tod\n}\n", f);
}

/* The banks, the counters of the copies in flight. */
static void pml_globals(struct pml *p, const struct ncsync_check_opts *o)
{
	const struct ck_prog *cp = p->cp;
	FILE *f = p->out;
	unsigned int i, e, g;
	uint32_t r;

	fputs("#define MSB (-2147483647 - 1)\n\n/* the banks */\n", f);
	for (i = 0; i < cp->nsem_used; i++) {
		g = cp->sem_used[i];
		fputs("int ", f);
		pml_res(p, g / NCSYNC_NUM_SEMS, NCSYNC_BANK_SEM,
			g % NCSYNC_NUM_SEMS);
		fputs(" = ", f);
		pml_int(f, o->sems[g % NCSYNC_NUM_SEMS]);
		fputs(";\n", f);
	}
	for (i = 0; i < cp->nev_used; i++) {
		g = cp->ev_used[i];
		fputs("bit ", f);
		pml_res(p, g / NCSYNC_NUM_EVENTS, NCSYNC_BANK_EVENT,
			g % NCSYNC_NUM_EVENTS);
		fprintf(f, " = %d;\n", !!o->events[g % NCSYNC_NUM_EVENTS]);
	}
	for (e = 0; e < cp->n; e++) {
		/* A DMA record's id on the channel: its slot's base + index. */
		p->dma_id[e] = e ? p->dma_id[e - 1] + cp->count[e - 1] : 0;
		for (r = 0; r < cp->count[e]; r++) {
			p->ndma += ncsync_op_has(cp->insns[e][r].opcode,
						 NCSYNC_OPF_DMA);
			p->drain |= ncsync_op_has(cp->insns[e][r].opcode,
						  NCSYNC_OPF_DRAIN);
		}
	}
	if (!p->ndma && !p->drain)
		return;
	fputs("\n/* the copies in flight: in all, per engine, per record */\nbyte ncopies;\n",
	      f);
	for (e = 0; e < cp->n; e++)
		fprintf(f, "byte f%u;\n", e);
	if (p->fifo)
		fprintf(f, "chan q = [%u] of { int };\n", CK_MAX_COPIES);
	for (e = 0; e < cp->n && p->counts; e++)
		for (r = 0; r < cp->count[e]; r++)
			if (ncsync_op_has(cp->insns[e][r].opcode,
					  NCSYNC_OPF_DMA))
				fprintf(f, "byte d%u_%u;\n", e, r);
}

static int pml_write(struct pml *p, const struct ncsync_check_opts *o)
{
	const struct ck_prog *cp = p->cp;
	unsigned int e;

	fprintf(p->out, "/*\n * Generated by libncsync's ncsync_check_promela(): the lowered program\n * of %u core%s and %u engine%s (Documentation/ncsync/check.rst).\n * spin -a FILE && cc -O2 -fwrapv -DSAFETY -o pan pan.c && ./pan\n",
		cp->nparts, cp->nparts == 1 ? "" : "s", cp->n,
		cp->n == 1 ? "" : "s");
	fputs(" * An invalid end state is a deadlock", p->out);
	if (p->kinds & ~(1U << NCSYNC_DEFECT_DEADLOCK))
		fputs("; an assertion violated, by the first variable it\n * names: e an event fault, s or r an overflow, d a dma-race, ncopies\n * the checker's limit of copies in flight (./pan -c0 reports each)",
		      p->out);
	fputs(".\n */\n", p->out);
	pml_globals(p, o);
	for (e = 0; e < cp->n && !p->bad; e++)
		pml_engine(p, e);
	if (p->ndma && !p->bad)
		pml_landings(p);
	if (p->bad)
		return -EOPNOTSUPP;
	return ferror(p->out) ? -EIO : 0;
}

/**
 * ck_promela() - the model of ncsync_check_promela(), with the assertions
 *	of other defect kinds.
 * @parts: as ncsync_check_promela().
 * @n: entries of @parts.
 * @opts: as ncsync_check_promela().
 * @kinds: 1 << NCSYNC_DEFECT_OVERFLOW, _EVENT, _DMA_RACE, or'ed (0 or
 *	1 << NCSYNC_DEFECT_DEADLOCK: ncsync_check_promela()'s model).  Each
 *	assertion names its kind by its first variable (Documentation/
 *	ncsync/check.rst, "SPIN: the same program, another checker").
 * @out: where to write the model.
 * @nassert: out, if not NULL: per kind, the assertions written (0: SPIN
 *	cannot find the kind, nor can ncsync_check()).
 *
 * Return: as ncsync_check_promela(); -EINVAL for another kind.
 */
int ck_promela(const struct ncsync_asm_part *parts, unsigned int n,
	       const struct ncsync_check_opts *opts, uint32_t kinds, FILE *out,
	       unsigned int nassert[NCSYNC_DEFECT_KINDS])
{
	struct ncsync_check_opts dflt;
	struct pml p = { .out = out, .kinds = kinds };
	struct ck_prog *cp;
	int ret;

	if (!opts) {
		ncsync_check_opts_init(&dflt);
		opts = &dflt;
	}
	/*
	 * The limits, the acceleration and the symmetry are the search's:
	 * not a model's.
	 */
	if (!out || opts->reserved ||
	    (opts->flags & ~(NCSYNC_CHECK_F_DMA_FIFO | NCSYNC_CHECK_F_NO_ACCEL |
			     NCSYNC_CHECK_F_NO_SYMMETRY)) ||
	    (kinds & ~NCSYNC_PROMELA_KINDS))
		return -EINVAL;
	cp = malloc(sizeof(*cp));
	if (!cp)
		return -ENOMEM;
	p.fifo = opts->flags & NCSYNC_CHECK_F_DMA_FIFO;
	p.counts = !p.fifo || kinds & 1U << NCSYNC_DEFECT_DMA_RACE;
	ret = ck_prog_init(cp, parts, n, p.fifo, opts->sems, opts->events);
	if (!ret) {
		p.cp = cp;
		ret = pml_write(&p, opts);
		ck_prog_fini(cp);
	}
	free(cp);
	if (nassert)
		memcpy(nassert, p.nassert, sizeof(p.nassert));
	return ret;
}

/**
 * ncsync_check_promela() - write a program as a Promela model for SPIN.
 * @parts: the finalized programs of the cores, each with its position (one
 *	part at position 0 for a program of one core).
 * @n: entries of @parts.
 * @opts: the initial semaphores and events, and NCSYNC_CHECK_F_DMA_FIFO;
 *	NULL for ncsync_check_opts_init()'s.  The limits are not modelled.
 * @out: where to write the model.
 *
 * The model has the steps of ncsync_check_cores() on the same decoded
 * records (Documentation/ncsync/check.rst, "Steps"): SPIN reports an
 * invalid end state exactly when ncsync_check_cores() finds a deadlock,
 * and an assertion violation where it would stop at its limit of copies
 * in flight.  Compile SPIN's pan.c with -fwrapv.
 *
 * Return: 0; -EINVAL for bad arguments, -E2BIG for more cores or engines
 * than the checker follows, -EOPNOTSUPP for a record the model cannot
 * express, -ENOMEM, -EIO when writing failed.
 */
int ncsync_check_promela(const struct ncsync_asm_part *parts, unsigned int n,
			 const struct ncsync_check_opts *opts, FILE *out)
{
	return ck_promela(parts, n, opts, 0, out, NULL);
}

/**
 * ncsync_check_promela_kinds() - write a program as a Promela model for
 *	SPIN that asserts the defects @kinds too.
 * @parts: as ncsync_check_promela()'s.
 * @n: entries of @parts.
 * @opts: as ncsync_check_promela()'s.
 * @kinds: bits 1 << NCSYNC_DEFECT_* of NCSYNC_PROMELA_KINDS: overflow,
 *	event and dma-race are asserted inside each step that could commit
 *	one (Documentation/ncsync/check.rst, "SPIN: the same program, another
 *	checker"); the deadlock is the invalid end state whatever @kinds.
 * @out: where to write the model.
 *
 * ncsync_check_promela() is this with @kinds 0.  SPIN reports an
 * assertion violation exactly when ncsync_check_cores() finds one of
 * @kinds, or stops at its limit of copies in flight; the first variable
 * the assertion names tells its kind: e (event), s or r (overflow), d
 * (dma-race), ncopies (the limit).
 *
 * Return: as ncsync_check_promela(); -EINVAL for a kind not in
 * NCSYNC_PROMELA_KINDS too.
 */
int ncsync_check_promela_kinds(const struct ncsync_asm_part *parts,
			       unsigned int n,
			       const struct ncsync_check_opts *opts,
			       uint32_t kinds, FILE *out)
{
	return ck_promela(parts, n, opts, kinds, out, NULL);
}
