/* SPDX-License-Identifier: LGPL-2.1-or-later OR MIT */
/*
 * libncsync: the names of the text form (Documentation/ncsync/asm.rst).
 *
 * One table per kind of name, used by both directions: the disassembler
 * (disasm.c) prints through ncsync_text_name(), the assembler (asm.c) parses
 * through ncsync_text_find().  Private to the library.
 */
#ifndef NCSYNC_TEXT_H
#define NCSYNC_TEXT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <linux/ncsync.h>

/**
 * struct ncsync_text - one name of the text form.
 * @val: the value it stands for (an opcode, a mode, an ALU operation...).
 * @name: its spelling.
 * @arg: a per-table attribute (the operand shape of an ALU operation).
 */
struct ncsync_text {
	uint8_t val;
	uint8_t arg;
	const char *name;
};

#define NCSYNC_TEXT_END { 0, 0, NULL }

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#endif

/* Mnemonics of the opcodes that have a fixed one (Mov32 uses its ALU name). */
static const struct ncsync_text ncsync_text_opcodes[] = {
	{ NCSYNC_OPC_EVENT_SEMAPHORE, 0, "evsem" },
	{ NCSYNC_OPC_HALT, 0, "halt" },
	{ NCSYNC_OPC_DRAIN, 0, "drain" },
	{ NCSYNC_OPC_NOOP, 0, "nop" },
	{ NCSYNC_OPC_BRANCH, 0, "br" },
	{ NCSYNC_OPC_GROUP_RESET, 0, "sema_clear" },
	{ NCSYNC_OPC_POLL_SEM, 0, "poll" },
	{ NCSYNC_OPC_EXIT, 0, "exit" },
	{ NCSYNC_OPC_DMA, 0, "dma" },
	{ NCSYNC_OPC_ALL_ENGINE_BARRIER, 0, "barrier" },
	NCSYNC_TEXT_END
};

/* Operand shapes of the Mov32 ALU operations (struct ncsync_text.arg). */
enum ncsync_text_alu_shape {
	NCSYNC_ALU_SHAPE_IMM,		/* rD, imm */
	NCSYNC_ALU_SHAPE_REG,		/* rD, rS */
	NCSYNC_ALU_SHAPE_REG_IMM,	/* rD, rS, imm */
};

static const struct ncsync_text ncsync_text_alu[] = {
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
static const struct ncsync_text ncsync_text_br_comp[] = {
	{ NCSYNC_BR_LT, 0, "lt" },
	{ NCSYNC_BR_LE, 0, "le" },
	{ NCSYNC_BR_EQ, 0, "eq" },
	{ NCSYNC_BR_NE, 0, "ne" },
	{ NCSYNC_BR_GE, 0, "ge" },
	{ NCSYNC_BR_GT, 0, "gt" },
	NCSYNC_TEXT_END
};

static const struct ncsync_text ncsync_text_dtype[] = {
	{ NCSYNC_DTYPE_U32, 0, "u32" },
	{ NCSYNC_DTYPE_S32, 0, "s32" },
	NCSYNC_TEXT_END
};

static const struct ncsync_text ncsync_text_poll[] = {
	{ NCSYNC_POLL_MIN, 0, "min" },
	{ NCSYNC_POLL_SUM, 0, "sum" },
	NCSYNC_TEXT_END
};

/* Semaphore waits, without NCSYNC_WAIT_REG: wait sem[i] <op> value|rN */
static const struct ncsync_text ncsync_text_wait_sem[] = {
	{ NCSYNC_WAIT_SEM_EQ, 0, "==" },
	{ NCSYNC_WAIT_SEM_LT, 0, "<" },
	{ NCSYNC_WAIT_SEM_LE, 0, "<=" },
	{ NCSYNC_WAIT_SEM_GT, 0, ">" },
	{ NCSYNC_WAIT_SEM_GE, 0, ">=" },
	NCSYNC_TEXT_END
};

/* Event waits: wait ev[i] <name> */
static const struct ncsync_text ncsync_text_wait_ev[] = {
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
static const struct ncsync_text ncsync_text_upd_sem[] = {
	{ NCSYNC_UPD_SEM_INC, 0, "++" },
	{ NCSYNC_UPD_SEM_DEC, 0, "--" },
	{ NCSYNC_UPD_SEM_ADD, 1, "+=" },
	{ NCSYNC_UPD_SEM_SUB, 1, "-=" },
	{ NCSYNC_UPD_SEM_WRITE, 1, "=" },
	NCSYNC_TEXT_END
};

/* Event updates, the low nibble of the mode: then ev[i] <name> */
static const struct ncsync_text ncsync_text_upd_ev[] = {
	{ NCSYNC_UPD_EVT_SET, 0, "set" },
	{ NCSYNC_UPD_EVT_CLEAR, 0, "clear" },
	NCSYNC_TEXT_END
};

static const struct ncsync_text ncsync_text_engines[] = {
	{ NCSYNC_ENGINE_POOL, 0, "pool" },
	{ NCSYNC_ENGINE_ACT, 0, "act" },
	{ NCSYNC_ENGINE_PE, 0, "pe" },
	{ NCSYNC_ENGINE_DMA, 0, "dma" },
	{ NCSYNC_ENGINE_DVE, 0, "dve" },
	{ NCSYNC_ENGINE_SP, 0, "sp" },
	NCSYNC_TEXT_END
};

/* The suffix of an update's _READ form: then sem[3]++ .read */
#define NCSYNC_TEXT_READ	".read"

/* Branch target as a raw record index in ncsync_disasm(): br @5 */
#define NCSYNC_TEXT_INDEX	'@'

/* Label ncsync_disasm_program() prints for a branch target: L<index> */
#define NCSYNC_TEXT_LABEL	"L"

/* Mask forms of sema_clear with up to this many runs print as a list. */
#define NCSYNC_TEXT_MASK_RUNS	8

/**
 * ncsync_text_entry() - the entry of a table for a value.
 * @t: the table.
 * @val: the value.
 *
 * Return: the entry, or NULL when the table has no name for @val.
 */
static inline const struct ncsync_text *
ncsync_text_entry(const struct ncsync_text *t, unsigned int val)
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
static inline const char *ncsync_text_name(const struct ncsync_text *t,
					   unsigned int val)
{
	const struct ncsync_text *e = ncsync_text_entry(t, val);

	return e ? e->name : NULL;
}

/**
 * ncsync_text_find() - the entry of a name.
 * @t: the table.
 * @s: the name, not necessarily NUL-terminated.
 * @len: its length.
 *
 * Return: the entry, or NULL when @s is not a name of the table.
 */
static inline const struct ncsync_text *
ncsync_text_find(const struct ncsync_text *t, const char *s, size_t len)
{
	for (; t->name; t++)
		if (strlen(t->name) == len && !memcmp(t->name, s, len))
			return t;
	return NULL;
}

#endif /* NCSYNC_TEXT_H */
