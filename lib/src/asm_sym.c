// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * libncsync: the assembler's labels, one namespace per stream or function
 * body, hashed; each is a builders' label (program.c), resolved by
 * ncsync_program_finalize() (Documentation/ncsync/asm.rst; asm.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "asm.h"

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
struct asm_sym *asm_sym_get(struct asm_ctx *c, const struct asm_tok *t,
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

int asm_sym_define(struct asm_ctx *c, const struct asm_tok *t)
{
	struct asm_sym *sym;
	int ret = 0;

	if (!c->cur)
		return asm_err(c, t->s, "label outside an engine section");
	sym = asm_sym_get(c, t, t->s, &ret);
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
int asm_syms_check(struct asm_ctx *c)
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
