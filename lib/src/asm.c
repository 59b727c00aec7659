// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * libncsync: the assembler, the text form (Documentation/ncsync/asm.rst) to
 * a program.
 *
 * One pass over the text, one statement per line.  Each instruction is
 * parsed into a struct ncsync_insn, encoded by the shared encoder
 * (ncsync_record_encode()) and checked with ncsync_record_decode(), the
 * validator the driver runs at submission, so that a refusal names its
 * reason; then the builders append it (ncsync_add_insn()).  Labels are the
 * builders' labels, resolved by ncsync_program_finalize().  The first
 * error stops the assembly and is reported with its line and column.
 *
 * This file holds the statement dispatch, "core N" and the entry points;
 * the lexer, operands, labels and instruction statements are the layers
 * below it (asm.h lists them).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "asm.h"
#include "ncsync_optab.h"

/* Programs across cores: "core N" statements (ncsync_asm_cores()) */

/* The error of a core statement @p, at its line and column. */
static int core_err(struct asm_ctx *c, const struct asm_core *p,
		    const char *msg)
{
	if (c->err) {
		c->err->line = p->line;
		c->err->col = p->col;
		snprintf(c->err->msg, sizeof(c->err->msg), "core %u %s",
			 p->core, msg);
	}
	return -EINVAL;
}

/* The part being written, if any, ends: it must have an engine section. */
static int core_close(struct asm_ctx *c)
{
	struct asm_cores *cs = c->cores;

	if (!cs || !cs->n || c->cur)
		return 0;
	return core_err(c, &cs->part[cs->n - 1], "has no engine section");
}

/* The position N of "core N", below cs->max and not yet named. */
static int parse_core_pos(struct asm_ctx *c, unsigned int *pos)
{
	struct asm_cores *cs = c->cores;
	struct asm_num n;
	unsigned int i;
	int ret;

	ret = asm_parse_num(c, &n);
	if (ret)
		return ret;
	if (n.neg || n.mag >= cs->max)
		return asm_err(c, n.at, "core out of range (0-%u)",
			       cs->max - 1);
	for (i = 0; i < cs->n; i++)
		if (cs->part[i].core == n.mag)
			return asm_err(c, n.at, "core %u already named on line %u",
				       (unsigned int)n.mag, cs->part[i].line);
	*pos = (unsigned int)n.mag;
	return asm_expect_eol(c);
}

/* core N: the engine sections that follow are the core at position N's. */
static int asm_core(struct asm_ctx *c, const struct asm_tok *mn)
{
	struct asm_cores *cs = c->cores;
	struct ncsync_program *prog;
	struct asm_core *p;
	unsigned int pos = 0;
	int ret;

	if (!cs)
		return asm_err(c, mn->s, "core: a program across cores; assemble it with ncsync_asm_cores()");
	if (!cs->n && c->cur)
		return asm_err(c, mn->s, "core after an engine section of no core: once a core is named, every engine section follows a core statement");
	ret = parse_core_pos(c, &pos) ?: core_close(c);
	if (ret)
		return ret;
	p = &cs->part[cs->n];
	/* The first part takes the program ncsync_asm_cores() made. */
	prog = c->prog;
	if (cs->n) {
		ret = ncsync_program_new(&prog);
		if (ret < 0)
			return asm_fail(c, mn->s, ret, "out of memory");
		c->prog->cur_src.line = 0;
		prog->cur_src.line = c->lineno;
	}
	p->core = pos;
	p->line = c->lineno;
	p->col = (unsigned int)(mn->s - c->line) + 1;
	p->prog = prog;
	c->prog = prog;
	cs->n++;
	c->cur = NULL;
	c->barrier = false;
	return 0;
}

/* Statements that change where records go. */
static int asm_section(struct asm_ctx *c, const struct asm_tok *mn)
{
	if (asm_tok_is(mn, "func"))
		return asm_func(c, mn);
	if (asm_tok_is(mn, "endfunc"))
		return asm_endfunc(c, mn);
	if (c->outer)
		return asm_err(c, mn->s, "%.*s inside func '%.*s': close it with endfunc",
			       (int)mn->len, mn->s, (int)c->func.len,
			       c->func.s);
	if (asm_tok_is(mn, "engine"))
		return asm_engine(c);
	if (asm_tok_is(mn, "core"))
		return asm_core(c, mn);
	return asm_barrier(c, mn);
}

/*
 * The statement of opcode @opcode, spelt @mn: parsed by the shape of its
 * text form, the opcode table's form column (common/ncsync_optab.h).
 */
static int asm_form(struct asm_ctx *c, const struct asm_tok *mn,
		    uint8_t opcode)
{
	switch (ncsync_op(opcode)->form) {
	case NCSYNC_FORM_SEMA_CLEAR:
		return asm_sema_clear(c, mn, opcode);
	case NCSYNC_FORM_BR_HINT:
		return asm_br_hint(c, mn, opcode);
	case NCSYNC_FORM_POLL:
		return asm_poll(c, mn, opcode);
	case NCSYNC_FORM_DMA:
		return asm_dma(c, mn, opcode);
	case NCSYNC_FORM_CALL:
		return asm_call(c, mn);
	case NCSYNC_FORM_CORE_BARRIER:
		return asm_core_barrier(c, mn);
	case NCSYNC_FORM_PSEUDO:
		return asm_pseudo(c, mn, opcode);
	case NCSYNC_FORM_BARRIER:
		return asm_barrier(c, mn);
	case NCSYNC_FORM_SYNC:
	case NCSYNC_FORM_DRAIN:
		return asm_plain(c, mn, opcode);
	default:	/* ALU and BRANCH are spelt by their own mnemonics */
		return asm_err(c, mn->s, "'%.*s' has no text form",
			       (int)mn->len, mn->s);
	}
}

static int asm_stmt(struct asm_ctx *c)
{
	const struct ncsync_text *e;
	struct asm_tok mn;
	int ret;

	if (!asm_read_ident(c, &mn))
		return asm_err(c, c->p, "expected an instruction or a label");
	/* The records of the statement have its column. */
	c->prog->cur_src.col = (uint32_t)(mn.s - c->line) + 1;
	if (asm_tok_is(&mn, "engine") || asm_tok_is(&mn, "barrier") ||
	    asm_tok_is(&mn, "func") || asm_tok_is(&mn, "endfunc") ||
	    asm_tok_is(&mn, "core"))
		return asm_section(c, &mn);

	if (asm_tok_is(&mn, "devmem"))
		return asm_devmem(c, &mn);
	ret = asm_need_stream(c, mn.s);
	if (ret)
		return ret;
	if (asm_tok_is(&mn, ".raw"))
		return asm_raw(c, &mn);
	if (mn.len >= 2 && !memcmp(mn.s, "br", 2) &&
	    (mn.len == 2 || mn.s[2] == '.'))
		return asm_branch(c, &mn);
	e = ncsync_text_find(ncsync_text_alu, mn.s, mn.len);
	if (e)
		return asm_alu(c, &mn, e);
	e = ncsync_text_find(ncsync_text_opcodes, mn.s, mn.len);
	if (!e)
		return asm_err(c, mn.s, "unknown instruction '%.*s'",
			       (int)(mn.len > 32 ? 32 : mn.len), mn.s);
	return asm_form(c, &mn, e->val);
}

/* [label:]... [statement] [# comment] */
static int asm_line(struct asm_ctx *c)
{
	const char *save;
	struct asm_tok t;
	int ret;

	for (;;) {
		if (asm_at_eol(c))
			return 0;
		save = c->p;
		if (!asm_read_ident(c, &t) || asm_peek(c) != ':') {
			c->p = save;
			return asm_stmt(c);
		}
		c->p++;
		ret = asm_sym_define(c, &t);
		if (ret)
			return ret;
	}
}

/* Assemble @text into c->prog (and c->cores' parts): 0 or an error. */
static int asm_text(struct asm_ctx *c, const char *text)
{
	const char *line;
	int ret;

	for (line = text;; line = c->end + 1) {
		c->lineno++;
		c->line = line;
		c->p = line;
		for (c->end = line; *c->end && *c->end != '\n'; c->end++)
			;
		c->prog->cur_src.line = c->lineno;
		c->prog->cur_src.col = 0;
		ret = asm_line(c);
		if (ret || !*c->end)
			break;
	}
	c->prog->cur_src = (struct ncsync_src){ 0 };
	if (!ret && c->outer) {
		ret = -EINVAL;
		if (c->err) {
			c->err->line = c->func_line;
			c->err->col = c->func_col;
			snprintf(c->err->msg, sizeof(c->err->msg),
				 "func '%.*s' is not closed with endfunc",
				 (int)c->func.len, c->func.s);
		}
	}
	if (!ret)
		ret = core_close(c);
	if (!ret)
		ret = asm_syms_check(c);
	if (!ret && c->err)
		c->err->line = c->err->col = 0;
	free(c->syms);
	free(c->hash);
	return ret;
}

/* Start the assembly of @text: 0, or -EINVAL or -ENOMEM (@err says). */
static int asm_start(struct asm_ctx *c, const char *text, const void *out)
{
	struct ncsync_asm_error *err = c->err;
	int ret;

	if (err)
		memset(err, 0, sizeof(*err));
	if (!out || !text) {
		if (err)
			snprintf(err->msg, sizeof(err->msg), "invalid argument");
		return -EINVAL;
	}
	ret = ncsync_program_new(&c->prog);
	if (ret < 0 && err)
		snprintf(err->msg, sizeof(err->msg), "%s", strerror(-ret));
	return ret;
}

/**
 * ncsync_asm() - build a program from its text form.
 * @text: the program, NUL-terminated (Documentation/ncsync/asm.rst).
 * @progp: out: the new program, to free with ncsync_program_free().
 * @err: out, may be NULL: where and why the text was refused.
 *
 * The program is neither lowered nor finalized: ncsync_program_finalize()
 * lowers its barriers and resolves its labels.  Every label is checked here.
 * A text of "core" statements is refused: ncsync_asm_cores() builds it.
 *
 * Return: 0, -EINVAL for text it refuses (@err says where), -ENOMEM, or
 * the error of a builder (@err says where).
 */
int ncsync_asm(const char *text, struct ncsync_program **progp,
	       struct ncsync_asm_error *err)
{
	struct asm_ctx c = { .err = err };
	int saved_errno = errno;
	int ret;

	ret = asm_start(&c, text, progp);
	if (progp)
		*progp = NULL;
	if (!ret)
		ret = asm_text(&c, text);
	if (!ret)
		*progp = c.prog;
	else
		ncsync_program_free(c.prog);
	errno = saved_errno;
	return ret;
}

/* Sort @cs's parts by position into @parts. */
static void cores_out(const struct asm_cores *cs,
		      struct ncsync_asm_part *parts)
{
	unsigned int i, j, k = 0;

	for (i = 0; i < cs->max; i++)
		for (j = 0; j < cs->n; j++)
			if (cs->part[j].core == i) {
				parts[k].core = i;
				parts[k++].prog = cs->part[j].prog;
			}
}

/**
 * ncsync_asm_cores() - build the parts of a program across cores.
 * @text: the program, NUL-terminated (Documentation/ncsync/asm.rst,
 *	"Programs across cores").
 * @parts: out: room for @max parts; written only on success.
 * @max: the number of cores: "core N" takes N from 0 to @max - 1 (at most
 *	NCSYNC_MAX_LNC), the position of a core in its logical core.
 * @err: out, may be NULL: where and why the text was refused.
 *
 * Each "core N" statement opens the part of the core at position N: the
 * engine sections that follow, up to the next "core", are its program,
 * with its own labels, functions and barriers, as ncsync_asm() builds one.
 * The parts are stored in the order of their positions, each program to
 * free with ncsync_program_free().  A text without "core" statements is
 * one program, stored in @parts[0] with position 0.
 *
 * Return: the number of parts stored, 0 for a text without "core"
 * statements (one program in @parts[0]); -EINVAL for text it refuses
 * (@err says where) or a bad argument, -ENOMEM, or a builder's error.
 */
int ncsync_asm_cores(const char *text, struct ncsync_asm_part *parts,
		     unsigned int max, struct ncsync_asm_error *err)
{
	struct asm_cores *cs = calloc(1, sizeof(*cs));
	struct asm_ctx c = { .err = err, .cores = cs };
	int saved_errno = errno;
	unsigned int i;
	int ret;

	ret = asm_start(&c, text, max ? parts : NULL);
	if (!ret && !cs)
		ret = asm_fail(&c, NULL, -ENOMEM, "out of memory");
	if (ret) {
		ncsync_program_free(c.prog);
		goto out;
	}
	cs->max = max < NCSYNC_MAX_LNC ? max : NCSYNC_MAX_LNC;
	ret = asm_text(&c, text);
	if (!ret && !cs->n) {
		parts[0].core = 0;
		parts[0].prog = c.prog;
	} else if (!ret) {
		cores_out(cs, parts);
		ret = cs->n;
	} else if (!cs->n) {
		ncsync_program_free(c.prog);
	}
	for (i = 0; ret < 0 && i < cs->n; i++)
		ncsync_program_free(cs->part[i].prog);
out:
	free(cs);
	errno = saved_errno;
	return ret;
}
