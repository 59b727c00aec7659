/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * One table of cases for the execution core (common/ncsync_exec.c), run
 * on the host by common/test/model_test.c and in the kernel by KUnit
 * (kunit/ncsync_kunit.c): the same expectations in both places.  Each case
 * goes through the decoding the engines use (ncsync_wait_op_decode(),
 * ncsync_update_op_decode()), from the encoded modes of the seeds.
 * The PollSem cases run the effect function (ncsync_effect.h).
 */
#ifndef NCSYNC_EXEC_CASES_H
#define NCSYNC_EXEC_CASES_H

#include "ncsync_effect.h"

#define EXEC_S32_MAX	0x7FFFFFFF
#define EXEC_S32_MIN	(-EXEC_S32_MAX - 1)

/* Register forms name register 1, which holds @reg. */
#define EXEC_REG	1

/**
 * struct exec_wait_case - a wait against a semaphore value or event state.
 * @mode: the encoded wait mode.
 * @value: the encoded value: threshold, or EXEC_REG for a register form.
 * @reg: the value of register EXEC_REG.
 * @cur: the semaphore, or the event (0/1).
 * @pass: whether the wait passes.
 * @after: an event's state after a passing wait.
 */
struct exec_wait_case {
	__u8 mode;
	__u32 value;
	__u32 reg;
	__s32 cur;
	bool pass;
	bool after;
};

static const struct exec_wait_case exec_wait_cases[] = {
	{ NCSYNC_WAIT_SEM_EQ, 4, 0, 4, true, false },
	{ NCSYNC_WAIT_SEM_EQ, 4, 0, 5, false, false },
	{ NCSYNC_WAIT_SEM_LT, 0, 0, -1, true, false },
	{ NCSYNC_WAIT_SEM_LT, 0, 0, 0, false, false },
	{ NCSYNC_WAIT_SEM_LE, 0, 0, 0, true, false },
	{ NCSYNC_WAIT_SEM_LE, (__u32)-1, 0, 0, false, false },
	{ NCSYNC_WAIT_SEM_GT, 0, 0, 1, true, false },
	{ NCSYNC_WAIT_SEM_GT, 0, 0, EXEC_S32_MIN, false, false }, /* signed */
	{ NCSYNC_WAIT_SEM_GE, (__u32)EXEC_S32_MIN, 0, EXEC_S32_MAX, true,
	  false },
	{ NCSYNC_WAIT_SEM_GE, 1, 0, 0, false, false },
	{ NCSYNC_WAIT_SEM_GE | NCSYNC_WAIT_REG, EXEC_REG, 8, 8, true, false },
	{ NCSYNC_WAIT_SEM_GE | NCSYNC_WAIT_REG, EXEC_REG, 9, 8, false, false },
	{ NCSYNC_WAIT_SEM_EQ | NCSYNC_WAIT_REG, EXEC_REG, (__u32)-3, -3, true,
	  false },
	{ NCSYNC_WAIT_EVT_SET, 0, 0, 1, true, true },
	{ NCSYNC_WAIT_EVT_SET, 0, 0, 0, false, false },
	{ NCSYNC_WAIT_EVT_SET_THEN_CLEAR, 0, 0, 1, true, false },
	{ NCSYNC_WAIT_EVT_SET_THEN_CLEAR, 0, 0, 0, false, false },
	{ NCSYNC_WAIT_EVT_CLEAR, 0, 0, 0, true, false },
	{ NCSYNC_WAIT_EVT_CLEAR, 0, 0, 1, false, false },
	{ NCSYNC_WAIT_EVT_CLEAR_THEN_SET, 0, 0, 0, true, true },
	{ NCSYNC_WAIT_EVT_CLEAR_THEN_SET, 0, 0, 1, false, false },
};

/* Whether a wait case behaves as its table says. */
static inline bool exec_wait_case_ok(const struct exec_wait_case *c)
{
	__u32 regs[NCSYNC_NUM_REGS] = { [EXEC_REG] = c->reg };
	struct ncsync_wait_op w;
	bool after = !c->after;

	ncsync_wait_op_decode(c->mode, 7, c->value, &w);
	if (!w.active || w.index != 7 || ncsync_wait_op_mode(&w) != c->mode)
		return false;
	if (w.bank == NCSYNC_BANK_SEM)
		return ncsync_wait_sem_passes(&w, c->cur,
					      ncsync_wait_threshold(&w, regs)) ==
		       c->pass;
	if (ncsync_wait_event_passes(&w, c->cur, &after) != c->pass)
		return false;
	return !c->pass || after == c->after;
}

/**
 * struct exec_update_case - an update of a semaphore or an event.
 * @mode: the encoded update mode.
 * @value: the encoded operand, or EXEC_REG for a register form.
 * @reg: the value of register EXEC_REG.
 * @old: the semaphore before (unused for events).
 * @new: the semaphore after, or the event's new state (0/1).
 * @overflow: the signed 32-bit result overflowed.
 */
struct exec_update_case {
	__u8 mode;
	__u32 value;
	__u32 reg;
	__s32 old;
	__s32 new;
	bool overflow;
};

static const struct exec_update_case exec_update_cases[] = {
	{ NCSYNC_UPD_SEM_INC, 99, 0, 1, 2, false },	/* operand ignored */
	{ NCSYNC_UPD_SEM_INC | NCSYNC_UPD_COMPLETE, 0, 0, EXEC_S32_MAX,
	  EXEC_S32_MIN, true },
	{ NCSYNC_UPD_SEM_DEC, 99, 0, 0, -1, false },
	{ NCSYNC_UPD_SEM_DEC | NCSYNC_UPD_COMPLETE, 0, 0, EXEC_S32_MIN,
	  EXEC_S32_MAX, true },
	{ NCSYNC_UPD_SEM_ADD, 5, 0, 1, 6, false },
	{ NCSYNC_UPD_SEM_ADD, 0xFFFFFFFF, 0, 5, 4, false },	/* wraps */
	{ NCSYNC_UPD_SEM_SUB, 3, 0, 1, -2, false },
	{ NCSYNC_UPD_SEM_WRITE, (__u32)-5, 0, 7, -5, false },
	{ NCSYNC_UPD_SEM_ADD | NCSYNC_UPD_REG, EXEC_REG, 8, 8, 16, false },
	{ NCSYNC_UPD_SEM_SUB | NCSYNC_UPD_REG | NCSYNC_UPD_COMPLETE, EXEC_REG,
	  8, 8, 0, false },
	{ NCSYNC_UPD_SEM_WRITE | NCSYNC_UPD_REG, EXEC_REG, 42, 0, 42, false },
	{ NCSYNC_UPD_EVT_SET, 0, 0, 0, 1, false },
	{ NCSYNC_UPD_EVT_CLEAR | NCSYNC_UPD_COMPLETE, 0, 0, 0, 0, false },
};

/* Whether an update case behaves as its table says. */
static inline bool exec_update_case_ok(const struct exec_update_case *c)
{
	__u32 regs[NCSYNC_NUM_REGS] = { [EXEC_REG] = c->reg };
	struct ncsync_update_op u;
	bool overflow = !c->overflow;

	ncsync_update_op_decode(c->mode, 9, c->value, &u);
	if (!u.active || u.index != 9 || u.on_land)
		return false;
	if (u.bank == NCSYNC_BANK_EVENT)
		return u.set == (c->new != 0);
	return ncsync_update_sem(&u, c->old, regs, &overflow) == c->new &&
	       overflow == c->overflow;
}

/**
 * struct exec_branch_case - a Branch on register 2 against an immediate or
 *	register 3.
 * @comp: NCSYNC_BR_*, with NCSYNC_BR_REG for register 3.
 * @dtype: NCSYNC_DTYPE_*.
 * @lhs: register 2.
 * @rhs: the immediate, or register 3.
 * @taken: whether it jumps.
 */
struct exec_branch_case {
	__u8 comp;
	__u8 dtype;
	__u32 lhs;
	__u32 rhs;
	bool taken;
};

static const struct exec_branch_case exec_branch_cases[] = {
	{ NCSYNC_BR_ALWAYS, 0, 0, 0, true },
	{ NCSYNC_BR_LT, NCSYNC_DTYPE_U32, 1, 2, true },
	{ NCSYNC_BR_LT, NCSYNC_DTYPE_U32, 0xFFFFFFFF, 0, false },
	{ NCSYNC_BR_LT, NCSYNC_DTYPE_S32, 0xFFFFFFFF, 0, true },
	{ NCSYNC_BR_LE, NCSYNC_DTYPE_S32, 5, 5, true },
	{ NCSYNC_BR_EQ, NCSYNC_DTYPE_U32, 7, 7, true },
	{ NCSYNC_BR_NE, NCSYNC_DTYPE_U32, 7, 7, false },
	{ NCSYNC_BR_GE, NCSYNC_DTYPE_S32, 0x80000000, 0, false },
	{ NCSYNC_BR_GT, NCSYNC_DTYPE_U32, 0x80000000, 0, true },
	{ NCSYNC_BR_GT | NCSYNC_BR_REG, NCSYNC_DTYPE_U32, 3, 2, true },
	{ NCSYNC_BR_EQ | NCSYNC_BR_REG, NCSYNC_DTYPE_S32, 3, 2, false },
};

/* Whether a branch case behaves as its table says. */
static inline bool exec_branch_case_ok(const struct exec_branch_case *c)
{
	__u32 regs[NCSYNC_NUM_REGS] = { [2] = c->lhs, [3] = c->rhs };
	struct ncsync_insn in = { .opcode = NCSYNC_OPC_BRANCH };

	in.br.comp = c->comp;
	in.br.dtype = c->dtype;
	in.br.lhs = 2;
	in.br.rhs = c->comp & NCSYNC_BR_REG ? 3 : 0;
	in.br.imm = c->comp & NCSYNC_BR_REG ? 0 : c->rhs;
	return ncsync_branch_taken(&in, regs) == c->taken;
}

/**
 * struct exec_mov_case - a Mov32 into register 4 from register 5.
 * @alu: NCSYNC_ALU_*.
 * @dst: register 4 before.
 * @src: register 5.
 * @imm: the immediate.
 * @result: register 4 after.
 */
struct exec_mov_case {
	__u8 alu;
	__u32 dst;
	__u32 src;
	__u32 imm;
	__u32 result;
};

static const struct exec_mov_case exec_mov_cases[] = {
	{ NCSYNC_ALU_MOV_IMM, 1, 2, 3, 3 },
	{ NCSYNC_ALU_MOV, 1, 2, 0, 2 },
	{ NCSYNC_ALU_ADD_IMM, 1, 0xFFFFFFFF, 2, 1 },
	{ NCSYNC_ALU_ADD, 0xFFFFFFFF, 2, 0, 1 },
	{ NCSYNC_ALU_SUB_IMM, 9, 0, 1, 0xFFFFFFFF },
	{ NCSYNC_ALU_SUB, 0, 1, 0, 0xFFFFFFFF },
	{ NCSYNC_ALU_AND_IMM, 0, 0xF0F0, 0xFF00, 0xF000 },
	{ NCSYNC_ALU_OR_IMM, 0, 0xF0F0, 0x0F00, 0xFFF0 },
	{ NCSYNC_ALU_XOR_IMM, 0, 0xFFFF, 0xFF, 0xFF00 },
	{ NCSYNC_ALU_SHL_IMM, 0, 1, 31, 0x80000000 },
	{ NCSYNC_ALU_SHL_IMM, 0, 1, 32, 1 },		/* shift mod 32 */
	{ NCSYNC_ALU_SHR_IMM, 0, 0x80000000, 31, 1 },
};

/* Whether a Mov32 case behaves as its table says. */
static inline bool exec_mov_case_ok(const struct exec_mov_case *c)
{
	__u32 regs[NCSYNC_NUM_REGS] = { [4] = c->dst, [5] = c->src };
	struct ncsync_insn in = { .opcode = NCSYNC_OPC_MOV32 };

	in.mov.alu = c->alu;
	in.mov.dst = 4;
	in.mov.src = 5;
	in.mov.imm = c->imm;
	ncsync_mov_exec(&in, regs);
	return regs[4] == c->result && regs[5] == c->src;
}

/**
 * struct exec_poll_case - a PollSem over up to four semaphores.
 * @op: NCSYNC_POLL_*.
 * @wb: NCSYNC_POLL_WB_*.
 * @count: how many.
 * @values: their values.
 * @result: what it writes to its register.
 * @after: the semaphores after it (the write-back's effect).
 */
struct exec_poll_case {
	__u8 op;
	__u8 wb;
	__u8 count;
	__s32 values[4];
	__u32 result;
	__s32 after[4];
};

static const struct exec_poll_case exec_poll_cases[] = {
	{ NCSYNC_POLL_MIN, 0, 1, { 5 }, 5, { 5 } },
	{ NCSYNC_POLL_MIN, 0, 3, { 5, -2, 7 }, (__u32)-2, { 5, -2, 7 } },
	{ NCSYNC_POLL_SUM, 0, 4, { 1, 2, 3, 4 }, 10, { 1, 2, 3, 4 } },
	{ NCSYNC_POLL_SUM, 0, 2, { EXEC_S32_MAX, 1 }, 0x80000000,	/* wraps */
	  { EXEC_S32_MAX, 1 } },
	/*
	 * The write-back (BARRIER §5: "if nonzero write the result back to
	 * all 16 plus a GP register"): a nonzero minimum to every semaphore
	 * of the range, a zero one to the register only.
	 */
	{ NCSYNC_POLL_MIN, NCSYNC_POLL_WB_NONZERO, 4, { 4, 2, 9, 5 }, 2,
	  { 2, 2, 2, 2 } },
	{ NCSYNC_POLL_MIN, NCSYNC_POLL_WB_NONZERO, 3, { 5, -2, 7 },
	  (__u32)-2, { -2, -2, -2 } },
	{ NCSYNC_POLL_MIN, NCSYNC_POLL_WB_NONZERO, 3, { 3, 0, 1 }, 0,
	  { 3, 0, 1 } },
	{ NCSYNC_POLL_MIN, NCSYNC_POLL_WB_NONZERO, 1, { 6 }, 6, { 6 } },
};

/* Semaphores 0-3 for the PollSem cases; nothing else is touched. */
static inline __s32 exec_poll_sem_read(void *ctx, unsigned int i)
{
	return ((__s32 *)ctx)[i];
}

static inline bool exec_poll_sem_update(void *ctx, unsigned int i,
					enum ncsync_sem_upd op, __u32 operand)
{
	bool ovf;

	((__s32 *)ctx)[i] = ncsync_sem_apply(op, ((__s32 *)ctx)[i], operand,
					     &ovf);
	return ovf;
}

/* Whether a PollSem case behaves as its table says, by the effect. */
static inline bool exec_poll_case_ok(const struct exec_poll_case *c)
{
	static const struct ncsync_bank_ops ops = {
		.sem_read = exec_poll_sem_read,
		.sem_update = exec_poll_sem_update,
	};
	struct ncsync_insn in = { .opcode = NCSYNC_OPC_POLL_SEM };
	__u32 regs[NCSYNC_NUM_REGS] = { 0 };
	__s32 sems[4];
	unsigned int i;

	in.effect = ncsync_op(NCSYNC_OPC_POLL_SEM)->effect;	/* as decoded */
	in.poll.op = c->op;
	in.poll.dst = 3;
	in.poll.count = c->count;
	in.poll.writeback = c->wb;
	for (i = 0; i < 4; i++)
		sems[i] = c->values[i];
	if (ncsync_poll_reduce(&in, c->values) != c->result ||
	    ncsync_exec_op(&in, regs, &ops, sems) != NCSYNC_OP_NEXT ||
	    regs[3] != c->result)
		return false;
	for (i = 0; i < 4; i++)
		if (sems[i] != c->after[i])
			return false;
	return true;
}

#define EXEC_NCASES(table)	(sizeof(table) / sizeof((table)[0]))

/**
 * exec_case_run() - run one case of the tables, all numbered in a row.
 * @n: the case, below exec_cases_count().
 * @table: out: the name of its table.
 * @index: out: its index in that table.
 *
 * Return: whether it behaves as its table says.
 */
static inline bool exec_case_run(unsigned int n, const char **table,
				 unsigned int *index)
{
	*table = "exec_wait_cases";
	if (n < EXEC_NCASES(exec_wait_cases))
		return exec_wait_case_ok(&exec_wait_cases[*index = n]);
	n -= EXEC_NCASES(exec_wait_cases);
	*table = "exec_update_cases";
	if (n < EXEC_NCASES(exec_update_cases))
		return exec_update_case_ok(&exec_update_cases[*index = n]);
	n -= EXEC_NCASES(exec_update_cases);
	*table = "exec_branch_cases";
	if (n < EXEC_NCASES(exec_branch_cases))
		return exec_branch_case_ok(&exec_branch_cases[*index = n]);
	n -= EXEC_NCASES(exec_branch_cases);
	*table = "exec_mov_cases";
	if (n < EXEC_NCASES(exec_mov_cases))
		return exec_mov_case_ok(&exec_mov_cases[*index = n]);
	n -= EXEC_NCASES(exec_mov_cases);
	*table = "exec_poll_cases";
	*index = n;
	return n < EXEC_NCASES(exec_poll_cases) &&
	       exec_poll_case_ok(&exec_poll_cases[n]);
}

/* The number of cases exec_case_run() takes. */
static inline unsigned int exec_cases_count(void)
{
	return EXEC_NCASES(exec_wait_cases) + EXEC_NCASES(exec_update_cases) +
	       EXEC_NCASES(exec_branch_cases) + EXEC_NCASES(exec_mov_cases) +
	       EXEC_NCASES(exec_poll_cases);
}

#endif /* NCSYNC_EXEC_CASES_H */
