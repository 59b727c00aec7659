/* SPDX-License-Identifier: LGPL-2.1-or-later OR MIT */
/*
 * libncsync: the assembler's private interface, shared by its files
 * (Documentation/ncsync/asm.rst; Documentation/ncsync/architecture.rst,
 * "The library").  From the bottom up, each calling only those below:
 *
 *   asm_lex.c      diagnostics, the lexer, numbers
 *   asm_operand.c  operands (registers, slots) and the sync clauses
 *   asm_sym.c      labels
 *   asm_insn.c     records emitted, the instruction statements
 *   asm.c          the statement dispatch, "core N", ncsync_asm() and
 *                  ncsync_asm_cores()
 *
 * Not installed.
 */
#ifndef NCSYNC_ASM_H
#define NCSYNC_ASM_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "internal.h"
#include "text.h"

/* A label: its name is unique within its stream (or function body). */
struct asm_sym {
	const char *name;
	size_t len;
	const struct ncsync_stream *scope;
	bool bound;
	bool used;
	int label;
	uint32_t index;		/* where it is bound */
	unsigned int line;	/* where it was defined, or first used */
	unsigned int col;
};

struct asm_tok {
	const char *s;
	size_t len;
};

struct asm_ctx {
	struct ncsync_asm_error *err;
	struct ncsync_program *prog;
	struct ncsync_stream *cur;	/* the current engine's stream */
	uint8_t engine;
	const char *line;		/* first character of the line */
	const char *end;		/* its end: the '\n' or the NUL */
	const char *p;			/* the cursor */
	unsigned int lineno;
	struct asm_sym *syms;
	size_t nsyms;
	size_t cap;
	uint32_t *hash;			/* 1 + index into @syms, or 0 */
	size_t hash_size;		/* a power of 2, > 2 * @nsyms */
	bool barrier;			/* a barrier was added */
	struct ncsync_stream *outer;	/* in a func: the engine's stream */
	struct asm_tok func;		/* ... the func's name */
	unsigned int func_line;		/* ... and where it is opened */
	unsigned int func_col;
	struct asm_cores *cores;	/* ncsync_asm_cores(); else NULL */
	uint64_t devmem;		/* "devmem": DMA ranges' bound; 0 none */
};

/* A core statement and the program of its part. */
struct asm_core {
	unsigned int core;
	unsigned int line;
	unsigned int col;
	struct ncsync_program *prog;
};

/* The parts of ncsync_asm_cores(): at most @max, positions below @max. */
struct asm_cores {
	unsigned int max;
	unsigned int n;
	struct asm_core part[NCSYNC_MAX_LNC];
};

/* One value field of a record, and whether a clause has filled it. */
struct asm_field {
	bool set;
	bool shared;	/* lane 0: the wait's and the update's */
	uint32_t v;
};

/* A lane as written; lane 0 keeps its one value field in @wval. */
struct asm_lane {
	uint8_t wait_mode;
	uint8_t wait_idx;
	uint8_t upd_mode;
	uint8_t upd_idx;
	struct asm_field wval;
	struct asm_field uval;
};

struct asm_num {
	const char *at;
	bool neg;
	uint64_t mag;
};

/* Characters, for the lexer and the operands */

static inline bool is_space(char ch)
{
	return ch == ' ' || ch == '\t' || ch == '\r' || ch == '\v' ||
	       ch == '\f';
}

static inline bool is_digit(char ch)
{
	return ch >= '0' && ch <= '9';
}

static inline bool is_alpha(char ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z');
}

static inline bool is_ident0(char ch)
{
	return is_alpha(ch) || ch == '_' || ch == '.';
}

static inline bool is_ident(char ch)
{
	return is_ident0(ch) || is_digit(ch);
}

static inline unsigned int hex_val(char ch)
{
	if (is_digit(ch))
		return ch - '0';
	if (ch >= 'a' && ch <= 'f')
		return ch - 'a' + 10;
	if (ch >= 'A' && ch <= 'F')
		return ch - 'A' + 10;
	return 16;
}

/* asm_lex.c: diagnostics, lexing and numbers */
int __attribute__((format(printf, 4, 5)))
asm_fail(struct asm_ctx *c, const char *at, int ret, const char *fmt, ...);
void asm_skip_ws(struct asm_ctx *c);
bool asm_at_eol(struct asm_ctx *c);
char asm_peek(struct asm_ctx *c);
bool asm_read_ident(struct asm_ctx *c, struct asm_tok *t);
bool asm_tok_is(const struct asm_tok *t, const char *w);
bool asm_accept_word(struct asm_ctx *c, const char *w);
bool asm_accept(struct asm_ctx *c, const char *s);
int asm_expect(struct asm_ctx *c, const char *s);
int asm_expect_eol(struct asm_ctx *c);
int asm_devmem(struct asm_ctx *c, const struct asm_tok *mn);
int asm_parse_num(struct asm_ctx *c, struct asm_num *n);
int asm_num_u8(struct asm_ctx *c, const struct asm_num *n, uint8_t *v,
	       const char *what);
int asm_num_32(struct asm_ctx *c, const struct asm_num *n, uint32_t *v);
int asm_parse_u8(struct asm_ctx *c, uint8_t *v, const char *what);
int asm_parse_32(struct asm_ctx *c, uint32_t *v);
int asm_parse_u32(struct asm_ctx *c, uint32_t *v);
int asm_parse_u64(struct asm_ctx *c, uint64_t *v);

#define asm_err(c, at, ...) asm_fail(c, at, -EINVAL, __VA_ARGS__)

/* asm_operand.c: operands and sync clauses */
int asm_parse_reg(struct asm_ctx *c, uint8_t *r);
int asm_parse_reg_or_32(struct asm_ctx *c, bool *is_reg, uint32_t *v);
int asm_parse_sem(struct asm_ctx *c, uint8_t *idx);
int asm_parse_sync(struct asm_ctx *c, struct asm_lane lane[2],
		   bool two_lanes, bool dma);

/* asm_sym.c: labels */
struct asm_sym *asm_sym_get(struct asm_ctx *c, const struct asm_tok *t,
			    const char *at, int *ret);
int asm_sym_define(struct asm_ctx *c, const struct asm_tok *t);
int asm_syms_check(struct asm_ctx *c);

/* asm_insn.c: instruction statements */
int asm_need_stream(struct asm_ctx *c, const char *at);
int asm_engine(struct asm_ctx *c);
int asm_raw(struct asm_ctx *c, const struct asm_tok *mn);
int asm_alu(struct asm_ctx *c, const struct asm_tok *mn,
	    const struct ncsync_text *alu);
int asm_branch(struct asm_ctx *c, const struct asm_tok *mn);
int asm_br_hint(struct asm_ctx *c, const struct asm_tok *mn, uint8_t opcode);
int asm_sema_clear(struct asm_ctx *c, const struct asm_tok *mn,
		    uint8_t opcode);
int asm_poll(struct asm_ctx *c, const struct asm_tok *mn,
	      uint8_t opcode);
int asm_dma(struct asm_ctx *c, const struct asm_tok *mn,
	     uint8_t opcode);
int asm_plain(struct asm_ctx *c, const struct asm_tok *mn,
	      uint8_t opcode);
int asm_barrier(struct asm_ctx *c, const struct asm_tok *mn);
int asm_pseudo(struct asm_ctx *c, const struct asm_tok *mn,
	       uint8_t opcode);
int asm_call(struct asm_ctx *c, const struct asm_tok *mn);
int asm_core_barrier(struct asm_ctx *c, const struct asm_tok *mn);
int asm_func(struct asm_ctx *c, const struct asm_tok *mn);
int asm_endfunc(struct asm_ctx *c, const struct asm_tok *mn);

#endif /* NCSYNC_ASM_H */
