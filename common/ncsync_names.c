// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The names of ncsync, one table per kind, written once and compiled into
 * the module (thread names, kernel log), the library (the text form of
 * Documentation/ncsync/asm.rst, which the assembler parses and the
 * disassembler prints, and the names it exports) and through the library
 * the tools.  Freestanding C.
 */
#include "ncsync_names.h"
#include "ncsync_optab.h"

/*
 * Mnemonics of the opcodes that have a fixed one (Mov32 uses its ALU
 * name): the mnemonic column of the opcode table (ncsync_optab.h).
 */
#define NCSYNC_IF_0(...)
#define NCSYNC_IF_1(...) __VA_ARGS__,

const struct ncsync_text ncsync_text_opcodes[] = {
#define NCSYNC_OP(opc, has_mn, mn, ...) \
	NCSYNC_IF_##has_mn({ NCSYNC_OPC_##opc, 0, mn })
#include "ncsync_opcodes.h"
#undef NCSYNC_OP
	NCSYNC_TEXT_END
};

const struct ncsync_text ncsync_text_alu[] = {
	{ NCSYNC_ALU_MOV_IMM, NCSYNC_ALU_SHAPE_IMM, "movi" },
	{ NCSYNC_ALU_MOV, NCSYNC_ALU_SHAPE_REG, "mov" },
	{ NCSYNC_ALU_ADD_IMM, NCSYNC_ALU_SHAPE_REG_IMM, "addi" },
	{ NCSYNC_ALU_ADD, NCSYNC_ALU_SHAPE_REG, "add" },
	{ NCSYNC_ALU_SUB_IMM, NCSYNC_ALU_SHAPE_REG_IMM, "subi" },
	{ NCSYNC_ALU_SUB, NCSYNC_ALU_SHAPE_REG, "sub" },
	{ NCSYNC_ALU_AND_IMM, NCSYNC_ALU_SHAPE_REG_IMM, "andi" },
	{ NCSYNC_ALU_OR_IMM, NCSYNC_ALU_SHAPE_REG_IMM, "ori" },
	{ NCSYNC_ALU_XOR_IMM, NCSYNC_ALU_SHAPE_REG_IMM, "xori" },
	{ NCSYNC_ALU_SHL_IMM, NCSYNC_ALU_SHAPE_REG_IMM, "shli" },
	{ NCSYNC_ALU_SHR_IMM, NCSYNC_ALU_SHAPE_REG_IMM, "shri" },
	NCSYNC_TEXT_END
};

/* Branch comparisons, without NCSYNC_BR_REG: br.<comp>.<dtype> */
const struct ncsync_text ncsync_text_br_comp[] = {
	{ NCSYNC_BR_LT, 0, "lt" },
	{ NCSYNC_BR_LE, 0, "le" },
	{ NCSYNC_BR_EQ, 0, "eq" },
	{ NCSYNC_BR_NE, 0, "ne" },
	{ NCSYNC_BR_GE, 0, "ge" },
	{ NCSYNC_BR_GT, 0, "gt" },
	NCSYNC_TEXT_END
};

const struct ncsync_text ncsync_text_dtype[] = {
	{ NCSYNC_DTYPE_U32, 0, "u32" },
	{ NCSYNC_DTYPE_S32, 0, "s32" },
	NCSYNC_TEXT_END
};

const struct ncsync_text ncsync_text_poll[] = {
	{ NCSYNC_POLL_MIN, 0, "min" },
	{ NCSYNC_POLL_SUM, 0, "sum" },
	NCSYNC_TEXT_END
};

/* Semaphore waits, without NCSYNC_WAIT_REG: wait sem[i] <op> value|rN */
const struct ncsync_text ncsync_text_wait_sem[] = {
	{ NCSYNC_WAIT_SEM_EQ, 0, "==" },
	{ NCSYNC_WAIT_SEM_LT, 0, "<" },
	{ NCSYNC_WAIT_SEM_LE, 0, "<=" },
	{ NCSYNC_WAIT_SEM_GT, 0, ">" },
	{ NCSYNC_WAIT_SEM_GE, 0, ">=" },
	NCSYNC_TEXT_END
};

/* Event waits: wait ev[i] <name> */
const struct ncsync_text ncsync_text_wait_ev[] = {
	{ NCSYNC_WAIT_EVT_SET, 0, "set" },
	{ NCSYNC_WAIT_EVT_SET_THEN_CLEAR, 0, "set_then_clear" },
	{ NCSYNC_WAIT_EVT_CLEAR, 0, "clear" },
	{ NCSYNC_WAIT_EVT_CLEAR_THEN_SET, 0, "clear_then_set" },
	NCSYNC_TEXT_END
};

/*
 * Semaphore updates, the low nibble of the mode: then sem[i] <op> [operand].
 * @arg is 1 when the operation takes an operand (immediate or register).
 */
const struct ncsync_text ncsync_text_upd_sem[] = {
	{ NCSYNC_UPD_SEM_INC, 0, "++" },
	{ NCSYNC_UPD_SEM_DEC, 0, "--" },
	{ NCSYNC_UPD_SEM_ADD, 1, "+=" },
	{ NCSYNC_UPD_SEM_SUB, 1, "-=" },
	{ NCSYNC_UPD_SEM_WRITE, 1, "=" },
	NCSYNC_TEXT_END
};

/* Event updates, the low nibble of the mode: then ev[i] <name> */
const struct ncsync_text ncsync_text_upd_ev[] = {
	{ NCSYNC_UPD_EVT_SET, 0, "set" },
	{ NCSYNC_UPD_EVT_CLEAR, 0, "clear" },
	NCSYNC_TEXT_END
};

const struct ncsync_text ncsync_text_engines[] = {
	{ NCSYNC_ENGINE_POOL, 0, "pool" },
	{ NCSYNC_ENGINE_ACT, 0, "act" },
	{ NCSYNC_ENGINE_PE, 0, "pe" },
	{ NCSYNC_ENGINE_DMA, 0, "dma" },
	{ NCSYNC_ENGINE_DVE, 0, "dve" },
	{ NCSYNC_ENGINE_SP, 0, "sp" },
	NCSYNC_TEXT_END
};

/* Engines as the kernel names its threads and its log: ncsync0-Pool */
const struct ncsync_text ncsync_text_engine_titles[] = {
	{ NCSYNC_ENGINE_POOL, 0, "Pool" },
	{ NCSYNC_ENGINE_ACT, 0, "Activation" },
	{ NCSYNC_ENGINE_PE, 0, "PE" },
	{ NCSYNC_ENGINE_DMA, 0, "DMA" },
	{ NCSYNC_ENGINE_DVE, 0, "DVE" },
	{ NCSYNC_ENGINE_SP, 0, "SP" },
	NCSYNC_TEXT_END
};

/* Program states (NCSYNC_PROG_*) */
const struct ncsync_text ncsync_text_prog_states[] = {
	{ NCSYNC_PROG_QUEUED, 0, "queued" },
	{ NCSYNC_PROG_RUNNING, 0, "running" },
	{ NCSYNC_PROG_DONE, 0, "done" },
	{ NCSYNC_PROG_HALTED, 0, "halted" },
	{ NCSYNC_PROG_FAULTED, 0, "faulted" },
	{ NCSYNC_PROG_TIMED_OUT, 0, "timed_out" },
	{ NCSYNC_PROG_CANCELLED, 0, "cancelled" },
	NCSYNC_TEXT_END
};

/* Engine states (NCSYNC_ENG_*) */
const struct ncsync_text ncsync_text_eng_states[] = {
	{ NCSYNC_ENG_QUEUED, 0, "queued" },
	{ NCSYNC_ENG_RUNNING, 0, "running" },
	{ NCSYNC_ENG_BLOCKED, 0, "blocked" },
	{ NCSYNC_ENG_DONE, 0, "done" },
	{ NCSYNC_ENG_HALTED, 0, "halted" },
	{ NCSYNC_ENG_FAULTED, 0, "faulted" },
	{ NCSYNC_ENG_CANCELLED, 0, "cancelled" },
	NCSYNC_TEXT_END
};

/* Fault reasons (NCSYNC_FAULT_*) */
const struct ncsync_text ncsync_text_faults[] = {
	{ NCSYNC_FAULT_NONE, 0, "none" },
	{ NCSYNC_FAULT_EVENT_SET_WHILE_SET, 0, "event_set_while_set" },
	{ NCSYNC_FAULT_EVENT_CLEAR_WHILE_CLEAR, 0, "event_clear_while_clear" },
	{ NCSYNC_FAULT_SEM_OVERFLOW, 0, "sem_overflow" },
	{ NCSYNC_FAULT_WATCHDOG, 0, "watchdog" },
	{ NCSYNC_FAULT_CANCELLED, 0, "cancelled" },
	{ NCSYNC_FAULT_RESET, 0, "reset" },
	{ NCSYNC_FAULT_CLOSED, 0, "closed" },
	{ NCSYNC_FAULT_PEER, 0, "peer" },
	{ NCSYNC_FAULT_NOMEM, 0, "nomem" },
	NCSYNC_TEXT_END
};

/* What a blocked engine waits on (NCSYNC_BLOCK_*) */
const struct ncsync_text ncsync_text_blocks[] = {
	{ NCSYNC_BLOCK_NONE, 0, "none" },
	{ NCSYNC_BLOCK_SEM, 0, "sem" },
	{ NCSYNC_BLOCK_EVENT, 0, "event" },
	{ NCSYNC_BLOCK_DRAIN, 0, "drain" },
	{ NCSYNC_BLOCK_DMA_FULL, 0, "dma_full" },
	NCSYNC_TEXT_END
};

/**
 * ncsync_engine_title() - an engine's name in the kernel's thread names and
 *	log: "Pool", "Activation", "PE", "DMA", "DVE", "SP".
 * @id: NCSYNC_ENGINE_*.
 *
 * Return: a constant string, "?" for another id.
 */
const char *ncsync_engine_title(__u8 id)
{
	const char *name = ncsync_text_name(ncsync_text_engine_titles, id);

	return name ? name : "?";
}

/**
 * ncsync_text_entry() - the entry of a table for a value.
 * @t: the table.
 * @val: the value.
 *
 * Return: the entry, or NULL when the table has no name for @val.
 */
const struct ncsync_text *ncsync_text_entry(const struct ncsync_text *t,
					    unsigned int val)
{
	for (; t->name; t++)
		if (t->val == val)
			return t;
	return NULL;
}

/**
 * ncsync_text_name() - the name of a value.
 * @t: the table.
 * @val: the value.
 *
 * Return: the name, or NULL.
 */
const char *ncsync_text_name(const struct ncsync_text *t, unsigned int val)
{
	const struct ncsync_text *e = ncsync_text_entry(t, val);

	return e ? e->name : NULL;
}

/* Whether @name is exactly the @len characters at @s. */
static bool ncsync_text_is(const char *name, const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (name[i] != s[i])
			return false;
	return !name[len];
}

/**
 * ncsync_text_find() - the entry of a name.
 * @t: the table.
 * @s: the name, not necessarily NUL-terminated.
 * @len: its length.
 *
 * Return: the entry, or NULL when @s is not a name of the table.
 */
const struct ncsync_text *ncsync_text_find(const struct ncsync_text *t,
					   const char *s, size_t len)
{
	for (; t->name; t++)
		if (ncsync_text_is(t->name, s, len))
			return t;
	return NULL;
}
