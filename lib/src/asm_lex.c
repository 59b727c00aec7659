// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * libncsync: the assembler's bottom layer (asm.h): its diagnostics (the
 * first error, with its line and column), the lexer over one line, and
 * numbers (Documentation/ncsync/asm.rst, "Syntax").
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "asm.h"

/* Report the first error, at @at on the current line; return @ret. */
int __attribute__((format(printf, 4, 5)))
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


/* Lexing */

void asm_skip_ws(struct asm_ctx *c)
{
	while (c->p < c->end && is_space(*c->p))
		c->p++;
}

bool asm_at_eol(struct asm_ctx *c)
{
	asm_skip_ws(c);
	return c->p == c->end || *c->p == '#' || *c->p == ';';
}

char asm_peek(struct asm_ctx *c)
{
	asm_skip_ws(c);
	return c->p < c->end ? *c->p : '\0';
}

bool asm_read_ident(struct asm_ctx *c, struct asm_tok *t)
{
	asm_skip_ws(c);
	t->s = c->p;
	while (c->p < c->end && (c->p == t->s ? is_ident0(*c->p) :
						 is_ident(*c->p)))
		c->p++;
	t->len = c->p - t->s;
	return t->len;
}

bool asm_tok_is(const struct asm_tok *t, const char *w)
{
	return strlen(w) == t->len && !memcmp(t->s, w, t->len);
}

/* Consume the identifier @w if it comes next. */
bool asm_accept_word(struct asm_ctx *c, const char *w)
{
	const char *save = c->p;
	struct asm_tok t;

	if (asm_read_ident(c, &t) && asm_tok_is(&t, w))
		return true;
	c->p = save;
	return false;
}

/* Consume the punctuation @s if it comes next. */
bool asm_accept(struct asm_ctx *c, const char *s)
{
	size_t n = strlen(s);

	asm_skip_ws(c);
	if ((size_t)(c->end - c->p) < n || memcmp(c->p, s, n))
		return false;
	c->p += n;
	return true;
}

int asm_expect(struct asm_ctx *c, const char *s)
{
	if (asm_accept(c, s))
		return 0;
	return asm_err(c, c->p, "expected '%s'", s);
}

/* The next token, for messages: a word, or a run of other characters. */
static struct asm_tok next_tok(struct asm_ctx *c)
{
	struct asm_tok t;
	const char *save = c->p;

	if (!asm_read_ident(c, &t)) {
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

	asm_skip_ws(c);
	if (c->p == c->end)
		return asm_err(c, c->p, "unexpected end of line");
	t = next_tok(c);
	return asm_err(c, t.s, "unexpected '%.*s'", (int)t.len, t.s);
}

int asm_expect_eol(struct asm_ctx *c)
{
	struct asm_tok t;

	if (asm_at_eol(c))
		return 0;
	t = next_tok(c);
	if (asm_tok_is(&t, "wait") || asm_tok_is(&t, "then") ||
	    asm_tok_is(&t, "on_land"))
		return asm_err(c, t.s, "only one wait and one update per lane");
	return err_unexpected(c);
}

/* Numbers */

/* [-]decimal or [-]0xhex, up to 64 bits of magnitude. */
int asm_parse_num(struct asm_ctx *c, struct asm_num *n)
{
	const char *q, *digits;
	unsigned int base = 10, d;

	asm_skip_ws(c);
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

int asm_num_u8(struct asm_ctx *c, const struct asm_num *n, uint8_t *v,
	       const char *what)
{
	if (n->neg || n->mag > 255)
		return asm_err(c, n->at, "%s out of range (0-255)", what);
	*v = (uint8_t)n->mag;
	return 0;
}

/* A 32-bit field: -2^31 .. 2^32 - 1, negative numbers in two's complement. */
int asm_num_32(struct asm_ctx *c, const struct asm_num *n, uint32_t *v)
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

int asm_parse_u8(struct asm_ctx *c, uint8_t *v, const char *what)
{
	struct asm_num n;

	return asm_parse_num(c, &n) ?: asm_num_u8(c, &n, v, what);
}

int asm_parse_32(struct asm_ctx *c, uint32_t *v)
{
	struct asm_num n;

	return asm_parse_num(c, &n) ?: asm_num_32(c, &n, v);
}

int asm_parse_u32(struct asm_ctx *c, uint32_t *v)
{
	struct asm_num n;

	return asm_parse_num(c, &n) ?: num_u32(c, &n, v);
}

int asm_parse_u64(struct asm_ctx *c, uint64_t *v)
{
	struct asm_num n;
	int ret = asm_parse_num(c, &n);

	if (ret)
		return ret;
	if (n.neg)
		return asm_err(c, n.at, "negative number");
	*v = n.mag;
	return 0;
}
