// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * libncsync: the assembler's operands (registers, semaphores and events)
 * and the sync clauses every instruction ends with: the waits and updates
 * of its lanes (Documentation/ncsync/asm.rst; asm.h).
 */
#include <errno.h>
#include <string.h>

#include "asm.h"

/* Operands */

static bool peek_reg(struct asm_ctx *c)
{
	asm_skip_ws(c);
	return c->end - c->p >= 2 && c->p[0] == 'r' && is_digit(c->p[1]);
}

int asm_parse_reg(struct asm_ctx *c, uint8_t *r)
{
	const char *at;
	struct asm_tok t;
	unsigned int v = 0;
	size_t i;

	asm_skip_ws(c);
	at = c->p;
	if (!peek_reg(c))
		return asm_err(c, at, "expected a register (r0-r%u)",
			       NCSYNC_NUM_REGS - 1);
	asm_read_ident(c, &t);
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
int asm_parse_reg_or_32(struct asm_ctx *c, bool *is_reg, uint32_t *v)
{
	uint8_t r;
	int ret;

	*is_reg = peek_reg(c);
	if (!*is_reg && is_alpha(asm_peek(c)))
		return asm_err(c, c->p, "expected a number or a register");
	if (!*is_reg)
		return asm_parse_32(c, v);
	ret = asm_parse_reg(c, &r);
	*v = r;
	return ret;
}

/* sem[N] or ev[N] */
static int parse_slot(struct asm_ctx *c, bool *is_ev, uint8_t *idx)
{
	struct asm_tok t;
	const char *at;
	int ret;

	asm_skip_ws(c);
	at = c->p;
	if (!asm_read_ident(c, &t) || !(asm_tok_is(&t, "sem") || asm_tok_is(&t, "ev")))
		return asm_err(c, at, "expected sem[N] or ev[N]");
	*is_ev = asm_tok_is(&t, "ev");
	ret = asm_expect(c, "[");
	if (!ret)
		ret = asm_parse_u8(c, idx, *is_ev ? "event index" :
						"semaphore index");
	return ret ?: asm_expect(c, "]");
}

int asm_parse_sem(struct asm_ctx *c, uint8_t *idx)
{
	const char *at;
	bool is_ev;
	int ret;

	asm_skip_ws(c);
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

	if (!asm_accept_word(c, "value"))
		return 0;
	ret = asm_expect(c, "=");
	if (!ret)
		ret = asm_parse_num(c, &n);
	if (!ret)
		ret = asm_num_32(c, &n, &v);
	return ret ?: field_set(c, f, v, n.at);
}

/* The entry of @t whose name is the next identifier, or NULL. */
static const struct ncsync_text *accept_name(struct asm_ctx *c,
					     const struct ncsync_text *t)
{
	struct asm_tok tok;

	if (!asm_read_ident(c, &tok))
		return NULL;
	return ncsync_text_find(t, tok.s, tok.len);
}

/* The entry of @t whose operator comes next, the longest one, or NULL. */
static const struct ncsync_text *accept_op(struct asm_ctx *c,
					   const struct ncsync_text *t)
{
	const struct ncsync_text *best = NULL;
	size_t n;

	asm_skip_ws(c);
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

	asm_skip_ws(c);
	at = c->p;
	ret = asm_parse_reg_or_32(c, reg, &v);
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
	asm_skip_ws(c);
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
	asm_skip_ws(c);
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
	if (!asm_accept_word(c, NCSYNC_TEXT_READ))
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
	if (asm_accept_word(c, "wait")) {
		ret = parse_wait(c, l, &l->wval);
		if (ret)
			return ret;
	}
	asm_skip_ws(c);
	at = c->p;
	if (asm_accept_word(c, "on_land")) {
		if (!dma)
			return asm_err(c, at, "on_land is only for dma");
	} else if (!asm_accept_word(c, "then")) {
		return 0;
	}
	return parse_update(c, l, shared ? &l->wval : &l->uval);
}

/* The sync clauses that end every instruction, and the end of the line. */
int asm_parse_sync(struct asm_ctx *c, struct asm_lane lane[2],
		   bool two_lanes, bool dma)
{
	const char *at;
	uint8_t base;
	int ret;

	memset(lane, 0, 2 * sizeof(*lane));
	asm_accept_word(c, "lane0");
	ret = parse_lane(c, &lane[0], true, dma);
	if (ret)
		return ret;
	asm_skip_ws(c);
	at = c->p;
	if (asm_accept_word(c, "lane1")) {
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
	return asm_expect_eol(c);
}
