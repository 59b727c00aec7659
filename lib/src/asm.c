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
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

static int __attribute__((format(printf, 4, 5)))
asm_fail(struct asm_ctx *c, const char *at, int ret, const char *fmt, ...)
{
	struct ncsync_asm_error *e = c->err;
	va_list ap;

	if (!e)
		return ret;
	e->line = c->lineno;
	e->col = at ? (unsigned int)(at - c->line) + 1 : 1;
	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
	va_end(ap);
	return ret;
}

#define asm_err(c, at, ...) asm_fail(c, at, -EINVAL, __VA_ARGS__)

/* Lexing */

static bool is_space(char ch)
{
	return ch == ' ' || ch == '\t' || ch == '\r' || ch == '\v' ||
	       ch == '\f';
}

static bool is_digit(char ch)
{
	return ch >= '0' && ch <= '9';
}

static bool is_alpha(char ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z');
}

static bool is_ident0(char ch)
{
	return is_alpha(ch) || ch == '_' || ch == '.';
}

static bool is_ident(char ch)
{
	return is_ident0(ch) || is_digit(ch);
}

static unsigned int hex_val(char ch)
{
	if (is_digit(ch))
		return ch - '0';
	if (ch >= 'a' && ch <= 'f')
		return ch - 'a' + 10;
	if (ch >= 'A' && ch <= 'F')
		return ch - 'A' + 10;
	return 16;
}

static void skip_ws(struct asm_ctx *c)
{
	while (c->p < c->end && is_space(*c->p))
		c->p++;
}

static bool at_eol(struct asm_ctx *c)
{
	skip_ws(c);
	return c->p == c->end || *c->p == '#' || *c->p == ';';
}

static char peek(struct asm_ctx *c)
{
	skip_ws(c);
	return c->p < c->end ? *c->p : '\0';
}

static bool read_ident(struct asm_ctx *c, struct asm_tok *t)
{
	skip_ws(c);
	t->s = c->p;
	while (c->p < c->end && (c->p == t->s ? is_ident0(*c->p) :
						 is_ident(*c->p)))
		c->p++;
	t->len = c->p - t->s;
	return t->len;
}

static bool tok_is(const struct asm_tok *t, const char *w)
{
	return strlen(w) == t->len && !memcmp(t->s, w, t->len);
}

/* Consume the identifier @w if it comes next. */
static bool accept_word(struct asm_ctx *c, const char *w)
{
	const char *save = c->p;
	struct asm_tok t;

	if (read_ident(c, &t) && tok_is(&t, w))
		return true;
	c->p = save;
	return false;
}

/* Consume the punctuation @s if it comes next. */
static bool accept(struct asm_ctx *c, const char *s)
{
	size_t n = strlen(s);

	skip_ws(c);
	if ((size_t)(c->end - c->p) < n || memcmp(c->p, s, n))
		return false;
	c->p += n;
	return true;
}

static int expect(struct asm_ctx *c, const char *s)
{
	if (accept(c, s))
		return 0;
	return asm_err(c, c->p, "expected '%s'", s);
}

/* The next token, for messages: a word, or a run of other characters. */
static struct asm_tok next_tok(struct asm_ctx *c)
{
	struct asm_tok t;
	const char *save = c->p;

	if (!read_ident(c, &t)) {
		while (c->p < c->end && !is_space(*c->p) && *c->p != '#' &&
		       *c->p != ';' && c->p - t.s < 16)
			c->p++;
		t.len = c->p - t.s;
	}
	c->p = save;
	if (t.len > 32)
		t.len = 32;
	return t;
}

static int err_unexpected(struct asm_ctx *c)
{
	struct asm_tok t;

	skip_ws(c);
	if (c->p == c->end)
		return asm_err(c, c->p, "unexpected end of line");
	t = next_tok(c);
	return asm_err(c, t.s, "unexpected '%.*s'", (int)t.len, t.s);
}

static int expect_eol(struct asm_ctx *c)
{
	struct asm_tok t;

	if (at_eol(c))
		return 0;
	t = next_tok(c);
	if (tok_is(&t, "wait") || tok_is(&t, "then") || tok_is(&t, "on_land"))
		return asm_err(c, t.s, "only one wait and one update per lane");
	return err_unexpected(c);
}

/* Numbers */

struct asm_num {
	const char *at;
	bool neg;
	uint64_t mag;
};

/* [-]decimal or [-]0xhex, up to 64 bits of magnitude. */
static int parse_num(struct asm_ctx *c, struct asm_num *n)
{
	const char *q, *digits;
	unsigned int base = 10, d;

	skip_ws(c);
	n->at = c->p;
	n->neg = false;
	n->mag = 0;
	q = c->p;
	if (q < c->end && *q == '-') {
		n->neg = true;
		q++;
	}
	if (c->end - q >= 2 && q[0] == '0' && (q[1] == 'x' || q[1] == 'X')) {
		base = 16;
		q += 2;
	}
	for (digits = q; q < c->end && (d = hex_val(*q)) < base; q++) {
		if (n->mag > (UINT64_MAX - d) / base)
			return asm_err(c, n->at, "number too large");
		n->mag = n->mag * base + d;
	}
	if (q == digits)
		return asm_err(c, n->at, "expected a number");
	if (q < c->end && (is_alpha(*q) || is_digit(*q) || *q == '_'))
		return asm_err(c, n->at, "invalid number");
	c->p = q;
	return 0;
}

static int num_u8(struct asm_ctx *c, const struct asm_num *n, uint8_t *v,
		  const char *what)
{
	if (n->neg || n->mag > 255)
		return asm_err(c, n->at, "%s out of range (0-255)", what);
	*v = (uint8_t)n->mag;
	return 0;
}

/* A 32-bit field: -2^31 .. 2^32 - 1, negative numbers in two's complement. */
static int num_32(struct asm_ctx *c, const struct asm_num *n, uint32_t *v)
{
	if (n->neg ? n->mag > 0x80000000ULL : n->mag > 0xFFFFFFFFULL)
		return asm_err(c, n->at, "number out of 32-bit range");
	*v = n->neg ? (uint32_t)-(int64_t)n->mag : (uint32_t)n->mag;
	return 0;
}

static int num_u32(struct asm_ctx *c, const struct asm_num *n, uint32_t *v)
{
	if (n->neg || n->mag > 0xFFFFFFFFULL)
		return asm_err(c, n->at, "number out of range (0-4294967295)");
	*v = (uint32_t)n->mag;
	return 0;
}

static int parse_u8(struct asm_ctx *c, uint8_t *v, const char *what)
{
	struct asm_num n;

	return parse_num(c, &n) ?: num_u8(c, &n, v, what);
}

static int parse_32(struct asm_ctx *c, uint32_t *v)
{
	struct asm_num n;

	return parse_num(c, &n) ?: num_32(c, &n, v);
}

static int parse_u32(struct asm_ctx *c, uint32_t *v)
{
	struct asm_num n;

	return parse_num(c, &n) ?: num_u32(c, &n, v);
}

static int parse_u64(struct asm_ctx *c, uint64_t *v)
{
	struct asm_num n;
	int ret = parse_num(c, &n);

	if (ret)
		return ret;
	if (n.neg)
		return asm_err(c, n.at, "negative number");
	*v = n.mag;
	return 0;
}

/* Operands */

static bool peek_reg(struct asm_ctx *c)
{
	skip_ws(c);
	return c->end - c->p >= 2 && c->p[0] == 'r' && is_digit(c->p[1]);
}

static int parse_reg(struct asm_ctx *c, uint8_t *r)
{
	const char *at;
	struct asm_tok t;
	unsigned int v = 0;
	size_t i;

	skip_ws(c);
	at = c->p;
	if (!peek_reg(c))
		return asm_err(c, at, "expected a register (r0-r%u)",
			       NCSYNC_NUM_REGS - 1);
	read_ident(c, &t);
	for (i = 1; i < t.len; i++) {
		if (!is_digit(t.s[i]))
			return asm_err(c, at, "invalid register '%.*s'",
				       (int)(t.len > 32 ? 32 : t.len), t.s);
		if (v < NCSYNC_NUM_REGS)
			v = v * 10 + (t.s[i] - '0');
	}
	if (v >= NCSYNC_NUM_REGS)
		return asm_err(c, at, "register out of range (r0-r%u)",
			       NCSYNC_NUM_REGS - 1);
	*r = (uint8_t)v;
	return 0;
}

/* A 32-bit operand that may be a register: *is_reg tells which. */
static int parse_reg_or_32(struct asm_ctx *c, bool *is_reg, uint32_t *v)
{
	uint8_t r;
	int ret;

	*is_reg = peek_reg(c);
	if (!*is_reg && is_alpha(peek(c)))
		return asm_err(c, c->p, "expected a number or a register");
	if (!*is_reg)
		return parse_32(c, v);
	ret = parse_reg(c, &r);
	*v = r;
	return ret;
}

/* sem[N] or ev[N] */
static int parse_slot(struct asm_ctx *c, bool *is_ev, uint8_t *idx)
{
	struct asm_tok t;
	const char *at;
	int ret;

	skip_ws(c);
	at = c->p;
	if (!read_ident(c, &t) || !(tok_is(&t, "sem") || tok_is(&t, "ev")))
		return asm_err(c, at, "expected sem[N] or ev[N]");
	*is_ev = tok_is(&t, "ev");
	ret = expect(c, "[");
	if (!ret)
		ret = parse_u8(c, idx, *is_ev ? "event index" :
						"semaphore index");
	return ret ?: expect(c, "]");
}

static int parse_sem(struct asm_ctx *c, uint8_t *idx)
{
	const char *at;
	bool is_ev;
	int ret;

	skip_ws(c);
	at = c->p;
	ret = parse_slot(c, &is_ev, idx);
	if (!ret && is_ev)
		return asm_err(c, at, "expected sem[N]");
	return ret;
}

/* Sync clauses */

static int field_set(struct asm_ctx *c, struct asm_field *f, uint32_t v,
		     const char *at)
{
	if (f->set && f->v != v)
		return asm_err(c, at, f->shared ?
			       "%d conflicts with %d: lane 0 has one value field" :
			       "%d conflicts with %d in the same value field",
			       (int32_t)v, (int32_t)f->v);
	f->set = true;
	f->v = v;
	return 0;
}

/* [value=N]: the value field of a wait or update that does not use it. */
static int parse_value_opt(struct asm_ctx *c, struct asm_field *f)
{
	struct asm_num n;
	uint32_t v = 0;
	int ret;

	if (!accept_word(c, "value"))
		return 0;
	ret = expect(c, "=");
	if (!ret)
		ret = parse_num(c, &n);
	if (!ret)
		ret = num_32(c, &n, &v);
	return ret ?: field_set(c, f, v, n.at);
}

/* The entry of @t whose name is the next identifier, or NULL. */
static const struct ncsync_text *accept_name(struct asm_ctx *c,
					     const struct ncsync_text *t)
{
	struct asm_tok tok;

	if (!read_ident(c, &tok))
		return NULL;
	return ncsync_text_find(t, tok.s, tok.len);
}

/* The entry of @t whose operator comes next, the longest one, or NULL. */
static const struct ncsync_text *accept_op(struct asm_ctx *c,
					   const struct ncsync_text *t)
{
	const struct ncsync_text *best = NULL;
	size_t n;

	skip_ws(c);
	for (; t->name; t++) {
		n = strlen(t->name);
		if ((size_t)(c->end - c->p) >= n && !memcmp(c->p, t->name, n) &&
		    (!best || n > strlen(best->name)))
			best = t;
	}
	if (best)
		c->p += strlen(best->name);
	return best;
}

/* A register or a 32-bit number, into the value field @f. */
static int parse_operand(struct asm_ctx *c, struct asm_field *f, bool *reg)
{
	const char *at;
	uint32_t v = 0;
	int ret;

	skip_ws(c);
	at = c->p;
	ret = parse_reg_or_32(c, reg, &v);
	return ret ?: field_set(c, f, v, at);
}

static int parse_wait(struct asm_ctx *c, struct asm_lane *l,
		      struct asm_field *f)
{
	const struct ncsync_text *e;
	const char *at;
	bool is_ev, reg;
	int ret;

	ret = parse_slot(c, &is_ev, &l->wait_idx);
	if (ret)
		return ret;
	skip_ws(c);
	at = c->p;
	if (is_ev) {
		e = accept_name(c, ncsync_text_wait_ev);
		if (!e)
			return asm_err(c, at, "expected set, set_then_clear, clear or clear_then_set");
		l->wait_mode = e->val;
	} else {
		e = accept_op(c, ncsync_text_wait_sem);
		if (!e)
			return asm_err(c, at, "expected ==, <, <=, > or >=");
		ret = parse_operand(c, f, &reg);
		if (ret)
			return ret;
		l->wait_mode = e->val | (reg ? NCSYNC_WAIT_REG : 0);
	}
	return parse_value_opt(c, f);
}

static int parse_update(struct asm_ctx *c, struct asm_lane *l,
			struct asm_field *f)
{
	const struct ncsync_text *e;
	bool is_ev, reg = false;
	const char *at;
	uint8_t mode;
	int ret;

	ret = parse_slot(c, &is_ev, &l->upd_idx);
	if (ret)
		return ret;
	skip_ws(c);
	at = c->p;
	e = is_ev ? accept_name(c, ncsync_text_upd_ev) :
		    accept_op(c, ncsync_text_upd_sem);
	if (!e)
		return asm_err(c, at, is_ev ? "expected set or clear" :
				      "expected ++, --, +=, -= or =");
	mode = e->val;
	if (!is_ev && e->arg) {
		ret = parse_operand(c, f, &reg);
		if (ret)
			return ret;
		if (reg)
			mode |= NCSYNC_UPD_REG;
	}
	if (!accept_word(c, NCSYNC_TEXT_READ))
		mode |= NCSYNC_UPD_COMPLETE;
	l->upd_mode = mode;
	return parse_value_opt(c, f);
}

/* [wait ...] [then|on_land ...]; lane 0 has one value field for both. */
static int parse_lane(struct asm_ctx *c, struct asm_lane *l, bool shared,
		      bool dma)
{
	const char *at;
	int ret;

	l->wval.shared = shared;
	if (accept_word(c, "wait")) {
		ret = parse_wait(c, l, &l->wval);
		if (ret)
			return ret;
	}
	skip_ws(c);
	at = c->p;
	if (accept_word(c, "on_land")) {
		if (!dma)
			return asm_err(c, at, "on_land is only for dma");
	} else if (!accept_word(c, "then")) {
		return 0;
	}
	return parse_update(c, l, shared ? &l->wval : &l->uval);
}

/* The sync clauses that end every instruction, and the end of the line. */
static int parse_sync(struct asm_ctx *c, struct asm_lane lane[2],
		      bool two_lanes, bool dma)
{
	const char *at;
	uint8_t base;
	int ret;

	memset(lane, 0, 2 * sizeof(*lane));
	accept_word(c, "lane0");
	ret = parse_lane(c, &lane[0], true, dma);
	if (ret)
		return ret;
	skip_ws(c);
	at = c->p;
	if (accept_word(c, "lane1")) {
		if (!two_lanes)
			return asm_err(c, at, "lane1 is only for evsem");
		ret = parse_lane(c, &lane[1], false, false);
		if (ret)
			return ret;
		/* ++ and -- hold 1 in lane 1, as the runtime writes them */
		base = lane[1].upd_mode & 0x0F;
		if (lane[1].upd_mode && !lane[1].uval.set &&
		    (base == NCSYNC_UPD_SEM_INC || base == NCSYNC_UPD_SEM_DEC))
			lane[1].uval.v = 1;
	}
	return expect_eol(c);
}

/* Labels */

/* FNV-1a of a label's stream and name. */
static size_t sym_hash(const struct ncsync_stream *scope, const char *s,
		       size_t len)
{
	uint32_t h = 2166136261U ^ (uint32_t)((uintptr_t)scope >> 4);
	size_t i;

	for (i = 0; i < len; i++)
		h = (h ^ (uint8_t)s[i]) * 16777619U;
	return h;
}

/* The hash slot of a label: its own, or the free one it would take. */
static uint32_t *sym_slot(struct asm_ctx *c,
			  const struct ncsync_stream *scope, const char *s,
			  size_t len)
{
	size_t i = sym_hash(scope, s, len) & (c->hash_size - 1);

	for (;; i = (i + 1) & (c->hash_size - 1)) {
		const struct asm_sym *sym;

		if (!c->hash[i])
			return &c->hash[i];
		sym = &c->syms[c->hash[i] - 1];
		if (sym->scope == scope && sym->len == len &&
		    !memcmp(sym->name, s, len))
			return &c->hash[i];
	}
}

/* Room for one more label in @syms and in the hash. */
static int sym_grow(struct asm_ctx *c)
{
	size_t i, size = c->hash_size ? 2 * c->hash_size : 64;
	struct asm_sym *syms;
	uint32_t *hash;

	if (c->nsyms == c->cap) {
		syms = realloc(c->syms, 2 * (c->cap + 16) * sizeof(*syms));
		if (!syms)
			return -ENOMEM;
		c->syms = syms;
		c->cap = 2 * (c->cap + 16);
	}
	if (2 * (c->nsyms + 1) < c->hash_size)
		return 0;
	if (c->nsyms >= UINT32_MAX / 4)
		return -ENOMEM;
	hash = calloc(size, sizeof(*hash));
	if (!hash)
		return -ENOMEM;
	free(c->hash);
	c->hash = hash;
	c->hash_size = size;
	for (i = 0; i < c->nsyms; i++)
		*sym_slot(c, c->syms[i].scope, c->syms[i].name,
			  c->syms[i].len) = i + 1;
	return 0;
}

/* The label @t of the current stream, created on first sight. */
static struct asm_sym *sym_get(struct asm_ctx *c, const struct asm_tok *t,
			       const char *at, int *ret)
{
	struct asm_sym *sym;
	uint32_t *slot;
	int label;

	if (c->hash_size) {
		slot = sym_slot(c, c->cur, t->s, t->len);
		if (*slot)
			return &c->syms[*slot - 1];
	}
	if (sym_grow(c)) {
		*ret = asm_fail(c, at, -ENOMEM, "out of memory");
		return NULL;
	}
	slot = sym_slot(c, c->cur, t->s, t->len);
	label = ncsync_label_new(c->prog);
	if (label < 0) {
		*ret = asm_fail(c, at, label, "cannot create label: %s",
				strerror(-label));
		return NULL;
	}
	sym = &c->syms[c->nsyms++];
	*slot = c->nsyms;
	sym->name = t->s;
	sym->len = t->len;
	sym->scope = c->cur;
	sym->bound = false;
	sym->used = false;
	sym->label = label;
	sym->line = c->lineno;
	sym->col = (unsigned int)(at - c->line) + 1;
	return sym;
}

static int sym_define(struct asm_ctx *c, const struct asm_tok *t)
{
	struct asm_sym *sym;
	int ret = 0;

	if (!c->cur)
		return asm_err(c, t->s, "label outside an engine section");
	sym = sym_get(c, t, t->s, &ret);
	if (!sym)
		return ret;
	if (sym->bound)
		return asm_err(c, t->s, "label '%.*s' already defined on line %u",
			       (int)(t->len > 32 ? 32 : t->len), t->s,
			       sym->line);
	ret = ncsync_label_bind(c->cur, sym->label);
	if (ret < 0)
		return asm_fail(c, t->s, ret, "cannot bind label: %s",
				strerror(-ret));
	sym->bound = true;
	sym->index = (uint32_t)ret;
	sym->line = c->lineno;
	sym->col = (unsigned int)(t->s - c->line) + 1;
	return 0;
}

/*
 * Every label a branch uses must be defined in the branch's stream, before
 * one of its records.
 */
static int syms_check(struct asm_ctx *c)
{
	const struct ncsync_stream *s;
	const char *fmt;
	size_t i;

	for (i = 0; i < c->nsyms; i++) {
		struct asm_sym *sym = &c->syms[i];

		if (!sym->bound) {
			fmt = "undefined label '%.*s'";
		} else {
			s = sym->scope;
			/* A function's end is the end of each inlined copy. */
			if (!sym->used || sym->index < ncsync_stream_count(s) ||
			    s->fn)
				continue;
			fmt = "label '%.*s' is past the last record of its stream";
		}
		if (c->err) {
			c->err->line = sym->line;
			c->err->col = sym->col;
			snprintf(c->err->msg, sizeof(c->err->msg), fmt,
				 (int)(sym->len > 32 ? 32 : sym->len), sym->name);
		}
		return -EINVAL;
	}
	return 0;
}

/* Emitting records */

/* A zero instruction of @opcode. */
static void asm_insn(struct ncsync_insn *in, uint8_t opcode)
{
	memset(in, 0, sizeof(*in));
	in->opcode = opcode;
}

static void lane_events(const struct asm_lane *l, struct ncsync_events *ev)
{
	ev->wait_mode = l->wait_mode;
	ev->wait_idx = l->wait_idx;
	ev->upd_mode = l->upd_mode;
	ev->upd_idx = l->upd_idx;
	ev->value = l->wval.v;
}

/* The lanes as written into @in; lane 1 is zero but on evsem. */
static void asm_lanes(struct ncsync_insn *in, const struct asm_lane lane[2])
{
	struct ncsync_lane *l1 = &in->lane[1];
	struct ncsync_events ev;

	lane_events(&lane[0], &ev);
	ncsync_insn_events(in, &ev);
	l1->wait_mode = lane[1].wait_mode;
	l1->wait_idx = lane[1].wait_idx;
	l1->upd_mode = lane[1].upd_mode;
	l1->upd_idx = lane[1].upd_idx;
	l1->wait_value = lane[1].wval.v;
	l1->upd_value = lane[1].uval.v;
}

/*
 * Refuse the record of @in when the validator the driver runs would, with
 * its reason.  A branch to a label is checked with the target it has until
 * ncsync_program_finalize(), zero.
 */
static int asm_check(struct asm_ctx *c, const struct asm_tok *mn,
		     const struct ncsync_insn *in)
{
	uint8_t rec[NCSYNC_RECORD_SIZE];
	enum ncsync_rec_reason r;
	struct ncsync_insn out;

	ncsync_record_encode(in, rec);
	r = ncsync_record_decode(rec, UINT32_MAX, UINT64_MAX, &out);
	if (r)
		return asm_err(c, mn->s, "invalid %.*s: %s",
			       (int)(mn->len > 32 ? 32 : mn->len), mn->s,
			       ncsync_rec_reason_name(r));
	return 0;
}

/* A builder's result @idx: the index of the record it appended, or an errno. */
static int asm_added(struct asm_ctx *c, const struct asm_tok *mn, int idx)
{
	if (idx == -ENOMEM)
		return asm_fail(c, mn->s, idx, "out of memory");
	if (idx < 0)
		return asm_fail(c, mn->s, idx, "%.*s: %s",
				(int)(mn->len > 32 ? 32 : mn->len), mn->s,
				strerror(-idx));
	return 0;
}

/*
 * @in with its @lane as written: check its record and append it.  A branch
 * to the label @sym gets its target from ncsync_program_finalize(); one to
 * a record index keeps it as it is.
 */
static int asm_emit(struct asm_ctx *c, const struct asm_tok *mn,
		    struct ncsync_insn *in, const struct asm_lane lane[2],
		    const struct asm_sym *sym)
{
	int ret;

	asm_lanes(in, lane);
	ret = asm_check(c, mn, in);
	if (ret)
		return ret;
	if (sym)
		return asm_added(c, mn, ncsync_add_branch_insn(c->cur, in,
							       sym->label));
	return asm_added(c, mn, ncsync_add_insn(c->cur, in));
}

/**
 * ncsync_add_raw() - append a record as it is.
 * @s: the stream.
 * @rec: NCSYNC_RECORD_SIZE bytes.
 *
 * The escape of the text form's .raw directive: the bytes are appended
 * unchecked (ncsync_program_finalize() and the driver check them), and
 * a branch's target is not relocated by the lowering.
 *
 * Return: the index of the record, or -EINVAL, -EBUSY (the program is
 * lowered or finalized), -E2BIG or -ENOMEM.
 */
int ncsync_add_raw(struct ncsync_stream *s, const uint8_t *rec)
{
	uint8_t *p;
	int idx;

	if (!s || !rec)
		return -EINVAL;
	idx = ncsync_add_nop(s, NULL);
	if (idx < 0)
		return idx;
	p = ncsync_stream_at(s, idx);
	if (!p)
		return -EINVAL;
	memcpy(p, rec, NCSYNC_RECORD_SIZE);
	return idx;
}

static int need_stream(struct asm_ctx *c, const char *at)
{
	if (c->cur)
		return 0;
	return asm_err(c, at, "no engine: write 'engine <name>' first");
}

/* Statements */

static int asm_engine(struct asm_ctx *c)
{
	const struct ncsync_text *e;
	struct ncsync_stream *s;
	struct asm_tok t;
	const char *at, *end;
	uint8_t engine = 0;
	int ret;

	skip_ws(c);
	at = c->p;
	if (read_ident(c, &t)) {
		e = ncsync_text_find(ncsync_text_engines, t.s, t.len);
		if (!e)
			return asm_err(c, at, "unknown engine '%.*s'",
				       (int)(t.len > 32 ? 32 : t.len), t.s);
		engine = e->val;
	} else {
		ret = parse_u8(c, &engine, "engine");
		if (ret)
			return ret;
	}
	end = c->p;
	ret = expect_eol(c);
	if (ret)
		return ret;
	if (c->barrier && !ncsync_program_find_stream(c->prog, engine))
		return asm_err(c, at, "engine %.*s first appears after a barrier; declare every engine before the first barrier",
			       (int)(end - at), at);
	ret = ncsync_program_stream(c->prog, engine, &s);
	if (ret == -EINVAL)
		return asm_err(c, at, "engine %u is not a datapath engine",
			       engine);
	if (ret < 0)
		return asm_fail(c, at, ret, "engine %u: %s", engine,
				strerror(-ret));
	c->cur = s;
	c->engine = engine;
	return 0;
}

/* .raw: 64 bytes in hex, in record order; spaces anywhere between bytes. */
static int asm_raw(struct asm_ctx *c, const struct asm_tok *mn)
{
	uint8_t rec[NCSYNC_RECORD_SIZE];
	unsigned int n = 0;
	const char *tok;

	while (!at_eol(c)) {
		tok = c->p;
		while (c->p < c->end && !is_space(*c->p) && *c->p != '#' &&
		       *c->p != ';') {
			if (hex_val(*c->p) > 15)
				return asm_err(c, c->p, "expected hex digits");
			c->p++;
		}
		if ((c->p - tok) % 2)
			return asm_err(c, tok, "odd number of hex digits");
		for (; tok < c->p; tok += 2) {
			if (n == NCSYNC_RECORD_SIZE)
				return asm_err(c, tok, "more than %u bytes",
					       NCSYNC_RECORD_SIZE);
			rec[n++] = hex_val(tok[0]) << 4 | hex_val(tok[1]);
		}
	}
	if (n != NCSYNC_RECORD_SIZE)
		return asm_err(c, c->p, "expected %u bytes, got %u",
			       NCSYNC_RECORD_SIZE, n);
	return asm_added(c, mn, ncsync_add_raw(c->cur, rec));
}

static int asm_alu(struct asm_ctx *c, const struct asm_tok *mn,
		   const struct ncsync_text *alu)
{
	struct asm_lane lane[2];
	struct ncsync_insn in;
	int ret;

	asm_insn(&in, NCSYNC_OPC_MOV32);
	in.mov.alu = alu->val;
	ret = parse_reg(c, &in.mov.dst);
	if (!ret)
		ret = expect(c, ",");
	if (!ret && alu->arg != NCSYNC_ALU_SHAPE_IMM) {
		ret = parse_reg(c, &in.mov.src);
		if (!ret && alu->arg == NCSYNC_ALU_SHAPE_REG_IMM)
			ret = expect(c, ",");
	}
	if (!ret && alu->arg != NCSYNC_ALU_SHAPE_REG)
		ret = parse_32(c, &in.mov.imm);
	if (!ret)
		ret = parse_sync(c, lane, false, false);
	if (ret)
		return ret;
	return asm_emit(c, mn, &in, lane, NULL);
}

/* .<comp>.<dtype> rL, imm|rR, of a conditional branch, into @in */
static int parse_br_cond(struct asm_ctx *c, const struct asm_tok *mn,
			 struct ncsync_insn *in)
{
	const struct ncsync_text *cmp, *dt = NULL;
	const char *dot, *end = mn->s + mn->len;
	bool reg = false;
	uint32_t v = 0;
	int ret;

	dot = memchr(mn->s + 3, '.', mn->len - 3);
	cmp = ncsync_text_find(ncsync_text_br_comp, mn->s + 3,
			       (dot ? dot : end) - (mn->s + 3));
	if (!cmp)
		return asm_err(c, mn->s + 3,
			       "expected a comparison: lt, le, eq, ne, ge or gt");
	if (dot)
		dt = ncsync_text_find(ncsync_text_dtype, dot + 1,
				      end - (dot + 1));
	if (!dt)
		return asm_err(c, dot ? dot + 1 : end,
			       "expected a dtype: .u32 or .s32");
	ret = parse_reg(c, &in->br.lhs);
	if (!ret)
		ret = expect(c, ",");
	if (!ret)
		ret = parse_reg_or_32(c, &reg, &v);
	if (!ret)
		ret = expect(c, ",");
	if (ret)
		return ret;
	in->br.comp = cmp->val | (reg ? NCSYNC_BR_REG : 0);
	in->br.dtype = dt->val;
	if (reg)
		in->br.rhs = v;
	else
		in->br.imm = v;
	return 0;
}

/*
 * TARGET: a label, *@sym, or @N, a record index.  UINT32_MAX, past every
 * queue, stands for the larger ones: the validator refuses them all alike.
 */
static int parse_br_target(struct asm_ctx *c, struct ncsync_insn *in,
			   struct asm_sym **sym)
{
	const char *at;
	uint64_t index = 0;
	struct asm_tok t;
	int ret = 0;

	skip_ws(c);
	at = c->p;
	if (accept(c, "@")) {
		ret = parse_u64(c, &index);
		in->br.target = index < UINT32_MAX ? index : UINT32_MAX;
	} else if (read_ident(c, &t)) {
		*sym = sym_get(c, &t, at, &ret);
	} else {
		return asm_err(c, at, "expected a label or @index");
	}
	return ret;
}

/* br TARGET | br.<comp>.<dtype> rL, imm|rR, TARGET; TARGET: label | @N */
static int asm_branch(struct asm_ctx *c, const struct asm_tok *mn)
{
	struct asm_sym *sym = NULL;
	struct asm_lane lane[2];
	struct ncsync_insn in;
	int ret = 0;

	asm_insn(&in, NCSYNC_OPC_BRANCH);
	if (mn->len > 2)
		ret = parse_br_cond(c, mn, &in);
	if (!ret)
		ret = parse_br_target(c, &in, &sym);
	if (!ret)
		ret = parse_sync(c, lane, false, false);
	if (ret)
		return ret;
	if (sym)
		sym->used = true;
	return asm_emit(c, mn, &in, lane, sym);
}

/* A .. B, or A alone, of semaphore indices */
static int parse_sem_range(struct asm_ctx *c, uint8_t *first, uint8_t *last)
{
	struct asm_num n;
	int ret;

	ret = parse_u8(c, first, "semaphore index");
	if (ret)
		return ret;
	*last = *first;
	if (!accept(c, ".."))
		return 0;
	ret = parse_num(c, &n) ?: num_u8(c, &n, last, "semaphore index");
	if (!ret && *first > *last)
		return asm_err(c, n.at, "range first > last");
	return ret;
}

/* 0x<up to 64 hex digits>: bit i is semaphore i. */
static int parse_mask_hex(struct asm_ctx *c, uint32_t mask[8])
{
	const char *at;
	unsigned int i, d, n = 0;

	skip_ws(c);
	at = c->p;
	if (!accept(c, "0x") && !accept(c, "0X"))
		return asm_err(c, at, "expected '{' or a 0x mask");
	for (; c->p < c->end && (d = hex_val(*c->p)) < 16; c->p++, n++) {
		if (mask[7] >> 28)
			return asm_err(c, at, "mask wider than 256 bits");
		for (i = 7; i > 0; i--)
			mask[i] = mask[i] << 4 | mask[i - 1] >> 28;
		mask[0] = mask[0] << 4 | d;
	}
	if (!n || (c->p < c->end && is_ident(*c->p)))
		return asm_err(c, at, "invalid mask");
	return 0;
}

/* sema_clear A..B | sema_clear mask {A, B..C} | sema_clear mask 0xHEX */
static int asm_sema_clear(struct asm_ctx *c, const struct asm_tok *mn)
{
	uint8_t first = 0, last = 0;
	struct asm_lane lane[2];
	struct ncsync_insn in;
	unsigned int i;
	bool is_mask;
	int ret;

	asm_insn(&in, NCSYNC_OPC_GROUP_RESET);
	is_mask = accept_word(c, "mask");
	if (!is_mask) {
		ret = parse_sem_range(c, &first, &last);
	} else if (accept(c, "{")) {
		for (ret = 0; !ret && !accept(c, "}");) {
			ret = parse_sem_range(c, &first, &last);
			if (ret)
				break;
			for (i = first; i <= last; i++)
				in.gr.mask[i / 32] |= 1U << (i % 32);
			if (peek(c) != '}')
				ret = expect(c, ",");
		}
		first = last = 0;
	} else {
		ret = parse_mask_hex(c, in.gr.mask);
	}
	if (!ret)
		ret = parse_sync(c, lane, false, false);
	if (ret)
		return ret;
	in.gr.mode = is_mask ? NCSYNC_CLEAR_MASK : NCSYNC_CLEAR_RANGE;
	in.gr.first = first;
	in.gr.last = last;
	return asm_emit(c, mn, &in, lane, NULL);
}

/* poll min|sum rD, sem[A]..sem[B] */
static int asm_poll(struct asm_ctx *c, const struct asm_tok *mn)
{
	const struct ncsync_text *op = NULL;
	uint8_t dst, first, last;
	struct asm_lane lane[2];
	struct ncsync_insn in;
	struct asm_tok t;
	const char *at;
	int ret;

	skip_ws(c);
	at = c->p;
	if (read_ident(c, &t))
		op = ncsync_text_find(ncsync_text_poll, t.s, t.len);
	if (!op)
		return asm_err(c, at, "expected min or sum");
	ret = parse_reg(c, &dst);
	if (!ret)
		ret = expect(c, ",");
	if (!ret)
		ret = parse_sem(c, &first);
	if (ret)
		return ret;
	last = first;
	if (accept(c, "..")) {
		skip_ws(c);
		at = c->p;
		ret = parse_sem(c, &last);
		if (ret)
			return ret;
		if (last < first)
			return asm_err(c, at, "range first > last");
		if (last - first >= NCSYNC_POLL_MAX_COUNT)
			return asm_err(c, at, "more than %u semaphores",
				       NCSYNC_POLL_MAX_COUNT);
	}
	ret = parse_sync(c, lane, false, false);
	if (ret)
		return ret;
	asm_insn(&in, NCSYNC_OPC_POLL_SEM);
	in.poll.op = op->val;
	in.poll.dst = dst;
	in.poll.first = first;
	in.poll.count = last - first + 1;
	return asm_emit(c, mn, &in, lane, NULL);
}

/* The options after a dma's length: [, latency=US] [, peer=P] */
static int parse_dma_opts(struct asm_ctx *c, struct ncsync_insn *in)
{
	uint32_t peer = 0;
	int ret = 0;

	while (!ret && accept(c, ",")) {
		skip_ws(c);
		if (accept_word(c, "latency")) {
			ret = expect(c, "=");
			if (!ret)
				ret = parse_u32(c, &in->dma.latency_us);
		} else if (accept_word(c, "peer")) {
			ret = expect(c, "=");
			if (!ret)
				ret = parse_u32(c, &peer);
			if (ret)
				break;
			if (peer > 0xFF)
				return asm_err(c, c->p, "peer out of range");
			in->dma.flags = NCSYNC_DMA_F_PEER;
			in->dma.peer = peer;
		} else {
			return asm_err(c, c->p, "expected 'latency' or 'peer'");
		}
	}
	return ret;
}

/*
 * dma SRC, DST, LEN [, latency=US] [, peer=P]; on_land is the events
 * block update, applied on the core at position P of the logical core
 * with peer=P.
 */
static int asm_dma(struct asm_ctx *c, const struct asm_tok *mn)
{
	struct asm_lane lane[2];
	struct ncsync_insn in;
	uint64_t src = 0, dst = 0;
	int ret;

	asm_insn(&in, NCSYNC_OPC_DMA);
	ret = parse_u64(c, &src);
	if (!ret)
		ret = expect(c, ",");
	if (!ret)
		ret = parse_u64(c, &dst);
	if (!ret)
		ret = expect(c, ",");
	if (!ret)
		ret = parse_u32(c, &in.dma.len);
	if (!ret)
		ret = parse_dma_opts(c, &in);
	if (!ret)
		ret = parse_sync(c, lane, false, true);
	if (ret)
		return ret;
	in.dma.src = src;
	in.dma.dst = dst;
	return asm_emit(c, mn, &in, lane, NULL);
}

/* Instructions that have only the sync clauses. */
static int asm_plain(struct asm_ctx *c, const struct asm_tok *mn,
		     uint8_t opcode)
{
	struct asm_lane lane[2];
	struct ncsync_insn in;
	int ret;

	ret = parse_sync(c, lane, opcode == NCSYNC_OPC_EVENT_SEMAPHORE, false);
	if (ret)
		return ret;
	asm_insn(&in, opcode);
	if (opcode == NCSYNC_OPC_DRAIN)
		in.drain.count = 1;
	return asm_emit(c, mn, &in, lane, NULL);
}

/*
 * The sync clauses of a pseudo-op into @ev: lane 0, valid on a NoOp (the
 * record that carries them once lowered).
 */
static int parse_pseudo_sync(struct asm_ctx *c, const struct asm_tok *mn,
			     struct ncsync_events *ev)
{
	struct asm_lane lane[2];
	struct ncsync_insn in;
	int ret;

	ret = parse_sync(c, lane, false, false);
	if (ret)
		return ret;
	lane_events(&lane[0], ev);
	asm_insn(&in, NCSYNC_OPC_NOOP);
	ncsync_insn_events(&in, ev);
	return asm_check(c, mn, &in);
}

/* barrier: one pseudo-op in every engine's stream, at once */
static int asm_barrier(struct asm_ctx *c, const struct asm_tok *mn)
{
	struct ncsync_events ev;
	int ret;

	if (!c->cur)
		return asm_err(c, mn->s, "barrier before any engine");
	/* The events block must be valid on its own (on a NoOp). */
	ret = parse_pseudo_sync(c, mn, &ev);
	if (ret)
		return ret;
	ret = ncsync_add_all_engine_barrier(c->prog, &ev);
	if (ret == -ENOMEM)
		return asm_fail(c, mn->s, ret, "out of memory");
	if (ret < 0)
		return asm_fail(c, mn->s, ret, "barrier: %s", strerror(-ret));
	c->barrier = true;
	return 0;
}

/* dma_barrier and ret: the sync clauses of lane 0 */
static int asm_pseudo(struct asm_ctx *c, const struct asm_tok *mn,
		      uint8_t opcode)
{
	struct ncsync_events ev;
	int ret;

	ret = parse_pseudo_sync(c, mn, &ev);
	if (ret)
		return ret;
	if (opcode == NCSYNC_OPC_RETURN)
		return asm_added(c, mn, ncsync_add_return(c->cur, &ev));
	return asm_added(c, mn, ncsync_add_dma_barrier(c->cur, &ev));
}

/* A function name: a word of at most NCSYNC_CALL_NAME_LEN characters. */
static int parse_func_name(struct asm_ctx *c, struct asm_tok *t, char *name)
{
	const char *at;

	skip_ws(c);
	at = c->p;
	if (!read_ident(c, t))
		return asm_err(c, at, "expected a function name");
	if (t->len > NCSYNC_CALL_NAME_LEN ||
	    !ncsync_call_name_valid(t->s, t->len))
		return asm_err(c, at, "function name longer than %u characters",
			       NCSYNC_CALL_NAME_LEN);
	memcpy(name, t->s, t->len);
	name[t->len] = '\0';
	return 0;
}

/* call NAME [, args=N]: a Call of a function of this engine */
static int asm_call(struct asm_ctx *c, const struct asm_tok *mn)
{
	char name[NCSYNC_CALL_NAME_LEN + 1];
	struct ncsync_events ev;
	struct asm_tok t;
	uint32_t args = 0;
	int ret;

	ret = parse_func_name(c, &t, name);
	if (!ret && accept(c, ",")) {
		skip_ws(c);
		if (!accept_word(c, "args"))
			return asm_err(c, c->p, "expected 'args'");
		ret = expect(c, "=");
		if (!ret)
			ret = parse_u32(c, &args);
	}
	if (!ret)
		ret = parse_pseudo_sync(c, mn, &ev);
	if (ret)
		return ret;
	return asm_added(c, mn, ncsync_add_call(c->cur, name, args, &ev));
}

/* core_barrier sem[S] [, id=N]: a CoreBarrier (0xD8) on this engine */
static int asm_core_barrier(struct asm_ctx *c, const struct asm_tok *mn)
{
	struct ncsync_events ev;
	uint32_t id = 0;
	uint8_t sem;
	int ret;

	ret = parse_sem(c, &sem);
	if (!ret && accept(c, ",")) {
		skip_ws(c);
		if (!accept_word(c, "id"))
			return asm_err(c, c->p, "expected 'id'");
		ret = expect(c, "=");
		if (!ret)
			ret = parse_u32(c, &id);
	}
	if (!ret)
		ret = parse_pseudo_sync(c, mn, &ev);
	if (ret)
		return ret;
	return asm_added(c, mn, ncsync_put_core_barrier(c->cur, sem, id, &ev));
}

/* func NAME: the following records are the body of a function */
static int asm_func(struct asm_ctx *c, const struct asm_tok *mn)
{
	char name[NCSYNC_CALL_NAME_LEN + 1];
	struct ncsync_stream *body;
	struct asm_tok t;
	int ret;

	if (c->outer)
		return asm_err(c, mn->s, "func inside func '%.*s'",
			       (int)c->func.len, c->func.s);
	if (!c->cur)
		return asm_err(c, mn->s, "func before any engine");
	ret = parse_func_name(c, &t, name);
	if (!ret)
		ret = expect_eol(c);
	if (ret)
		return ret;
	ret = ncsync_program_add_function(c->prog, c->engine, name, &body);
	if (ret == -EEXIST)
		return asm_err(c, t.s, "function '%s' already defined for engine %s",
			       name, ncsync_engine_name(c->engine));
	if (ret < 0)
		return asm_fail(c, t.s, ret, "func: %s", strerror(-ret));
	c->outer = c->cur;
	c->cur = body;
	c->func = t;
	c->func_line = c->lineno;
	c->func_col = (unsigned int)(mn->s - c->line) + 1;
	return 0;
}

static int asm_endfunc(struct asm_ctx *c, const struct asm_tok *mn)
{
	int ret;

	if (!c->outer)
		return asm_err(c, mn->s, "endfunc outside a func");
	ret = expect_eol(c);
	if (ret)
		return ret;
	c->cur = c->outer;
	c->outer = NULL;
	return 0;
}

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

	ret = parse_num(c, &n);
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
	return expect_eol(c);
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
		c->prog->cur_line = 0;
		prog->cur_line = c->lineno;
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
	if (tok_is(mn, "func"))
		return asm_func(c, mn);
	if (tok_is(mn, "endfunc"))
		return asm_endfunc(c, mn);
	if (c->outer)
		return asm_err(c, mn->s, "%.*s inside func '%.*s': close it with endfunc",
			       (int)mn->len, mn->s, (int)c->func.len,
			       c->func.s);
	if (tok_is(mn, "engine"))
		return asm_engine(c);
	if (tok_is(mn, "core"))
		return asm_core(c, mn);
	return asm_barrier(c, mn);
}

static int asm_stmt(struct asm_ctx *c)
{
	const struct ncsync_text *e;
	struct asm_tok mn;
	int ret;

	if (!read_ident(c, &mn))
		return asm_err(c, c->p, "expected an instruction or a label");
	if (tok_is(&mn, "engine") || tok_is(&mn, "barrier") ||
	    tok_is(&mn, "func") || tok_is(&mn, "endfunc") ||
	    tok_is(&mn, "core"))
		return asm_section(c, &mn);

	ret = need_stream(c, mn.s);
	if (ret)
		return ret;
	if (tok_is(&mn, ".raw"))
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
	switch (e->val) {
	case NCSYNC_OPC_GROUP_RESET:
		return asm_sema_clear(c, &mn);
	case NCSYNC_OPC_POLL_SEM:
		return asm_poll(c, &mn);
	case NCSYNC_OPC_DMA:
		return asm_dma(c, &mn);
	case NCSYNC_OPC_CALL:
		return asm_call(c, &mn);
	case NCSYNC_OPC_CORE_BARRIER:
		return asm_core_barrier(c, &mn);
	case NCSYNC_OPC_RETURN:
	case NCSYNC_OPC_DMA_BARRIER:
		return asm_pseudo(c, &mn, e->val);
	default:
		return asm_plain(c, &mn, e->val);
	}
}

/* [label:]... [statement] [# comment] */
static int asm_line(struct asm_ctx *c)
{
	const char *save;
	struct asm_tok t;
	int ret;

	for (;;) {
		if (at_eol(c))
			return 0;
		save = c->p;
		if (!read_ident(c, &t) || peek(c) != ':') {
			c->p = save;
			return asm_stmt(c);
		}
		c->p++;
		ret = sym_define(c, &t);
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
		c->prog->cur_line = c->lineno;
		ret = asm_line(c);
		if (ret || !*c->end)
			break;
	}
	c->prog->cur_line = 0;
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
		ret = syms_check(c);
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
