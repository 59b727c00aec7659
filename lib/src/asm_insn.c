// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * libncsync: the assembler's records and instruction statements: each
 * statement parsed into a struct ncsync_insn, checked with the shared
 * validator, and appended by the builders (builders.c, pseudo.c)
 * (Documentation/ncsync/asm.rst; asm.h).
 */
#include <errno.h>
#include <string.h>

#include "asm.h"
#include "ncsync_optab.h"

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

int asm_need_stream(struct asm_ctx *c, const char *at)
{
	if (c->cur)
		return 0;
	return asm_err(c, at, "no engine: write 'engine <name>' first");
}

/* Statements */

int asm_engine(struct asm_ctx *c)
{
	const struct ncsync_text *e;
	struct ncsync_stream *s;
	struct asm_tok t;
	const char *at, *end;
	uint8_t engine = 0;
	int ret;

	asm_skip_ws(c);
	at = c->p;
	if (asm_read_ident(c, &t)) {
		e = ncsync_text_find(ncsync_text_engines, t.s, t.len);
		if (!e)
			return asm_err(c, at, "unknown engine '%.*s'",
				       (int)(t.len > 32 ? 32 : t.len), t.s);
		engine = e->val;
	} else {
		ret = asm_parse_u8(c, &engine, "engine");
		if (ret)
			return ret;
	}
	end = c->p;
	ret = asm_expect_eol(c);
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
int asm_raw(struct asm_ctx *c, const struct asm_tok *mn)
{
	uint8_t rec[NCSYNC_RECORD_SIZE];
	unsigned int n = 0;
	const char *tok;

	while (!asm_at_eol(c)) {
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

int asm_alu(struct asm_ctx *c, const struct asm_tok *mn,
	    const struct ncsync_text *alu)
{
	struct asm_lane lane[2];
	struct ncsync_insn in;
	int ret;

	asm_insn(&in, NCSYNC_OPC_MOV32);
	in.mov.alu = alu->val;
	ret = asm_parse_reg(c, &in.mov.dst);
	if (!ret)
		ret = asm_expect(c, ",");
	if (!ret && alu->arg != NCSYNC_ALU_SHAPE_IMM) {
		ret = asm_parse_reg(c, &in.mov.src);
		if (!ret && alu->arg == NCSYNC_ALU_SHAPE_REG_IMM)
			ret = asm_expect(c, ",");
	}
	if (!ret && alu->arg != NCSYNC_ALU_SHAPE_REG)
		ret = asm_parse_32(c, &in.mov.imm);
	if (!ret)
		ret = asm_parse_sync(c, lane, false, false);
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
	ret = asm_parse_reg(c, &in->br.lhs);
	if (!ret)
		ret = asm_expect(c, ",");
	if (!ret)
		ret = asm_parse_reg_or_32(c, &reg, &v);
	if (!ret)
		ret = asm_expect(c, ",");
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

	asm_skip_ws(c);
	at = c->p;
	if (asm_accept(c, "@")) {
		ret = asm_parse_u64(c, &index);
		in->br.target = index < UINT32_MAX ? index : UINT32_MAX;
	} else if (asm_read_ident(c, &t)) {
		*sym = asm_sym_get(c, &t, at, &ret);
	} else {
		return asm_err(c, at, "expected a label or @index");
	}
	return ret;
}

/*
 * The sync clauses of @in, a record with a target (a Branch, a
 * BranchHint), then @in: its target label @sym, or NULL when written as
 * a number.
 */
static int asm_emit_targeted(struct asm_ctx *c, const struct asm_tok *mn,
			     struct ncsync_insn *in, struct asm_sym *sym)
{
	struct asm_lane lane[2];
	int ret;

	ret = asm_parse_sync(c, lane, false, false);
	if (ret)
		return ret;
	if (sym)
		sym->used = true;
	return asm_emit(c, mn, in, lane, sym);
}

/* br TARGET | br.<comp>.<dtype> rL, imm|rR, TARGET; TARGET: label | @N */
int asm_branch(struct asm_ctx *c, const struct asm_tok *mn)
{
	struct asm_sym *sym = NULL;
	struct ncsync_insn in;
	int ret = 0;

	asm_insn(&in, NCSYNC_OPC_BRANCH);
	if (mn->len > 2)
		ret = parse_br_cond(c, mn, &in);
	if (!ret)
		ret = parse_br_target(c, &in, &sym);
	return ret ?: asm_emit_targeted(c, mn, &in, sym);
}

/*
 * .+N or .-N: a BranchHint's offset from itself, as it is (the lowering
 * does not move it, as it does not move br's @N).
 */
static int parse_hint_offset(struct asm_ctx *c, const char *at,
			     struct ncsync_insn *in)
{
	bool plus = asm_accept(c, "+");
	struct asm_num n;
	int ret;

	ret = asm_parse_num(c, &n);
	if (ret)
		return ret;
	if (plus == n.neg)
		return asm_err(c, at, "expected .+N or .-N");
	if (n.mag > (n.neg ? 0x80000000ULL : 0x7FFFFFFFULL))
		return asm_err(c, n.at, "hint offset out of the signed 32-bit range");
	in->hint.offset = n.neg ? (int32_t)-(int64_t)n.mag : (int32_t)n.mag;
	return 0;
}

/* br_hint TARGET; TARGET: label | .+N | .-N (Documentation/ncsync/asm.rst) */
int asm_br_hint(struct asm_ctx *c, const struct asm_tok *mn, uint8_t opcode)
{
	struct asm_sym *sym = NULL;
	struct ncsync_insn in;
	struct asm_tok t;
	const char *at;
	int ret = 0;

	asm_insn(&in, opcode);
	asm_skip_ws(c);
	at = c->p;
	if (asm_accept(c, "."))
		ret = parse_hint_offset(c, at, &in);
	else if (asm_read_ident(c, &t))
		sym = asm_sym_get(c, &t, at, &ret);
	else
		return asm_err(c, at, "expected a label, .+N or .-N");
	return ret ?: asm_emit_targeted(c, mn, &in, sym);
}

/* A .. B, or A alone, of semaphore indices */
static int parse_sem_range(struct asm_ctx *c, uint8_t *first, uint8_t *last)
{
	struct asm_num n;
	int ret;

	ret = asm_parse_u8(c, first, "semaphore index");
	if (ret)
		return ret;
	*last = *first;
	if (!asm_accept(c, ".."))
		return 0;
	ret = asm_parse_num(c, &n) ?: asm_num_u8(c, &n, last, "semaphore index");
	if (!ret && *first > *last)
		return asm_err(c, n.at, "range first > last");
	return ret;
}

/* 0x<up to 64 hex digits>: bit i is semaphore i. */
static int parse_mask_hex(struct asm_ctx *c, uint32_t mask[8])
{
	const char *at;
	unsigned int i, d, n = 0;

	asm_skip_ws(c);
	at = c->p;
	if (!asm_accept(c, "0x") && !asm_accept(c, "0X"))
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
int asm_sema_clear(struct asm_ctx *c, const struct asm_tok *mn, uint8_t opcode)
{
	uint8_t first = 0, last = 0;
	struct asm_lane lane[2];
	struct ncsync_insn in;
	unsigned int i;
	bool is_mask;
	int ret;

	asm_insn(&in, opcode);
	is_mask = asm_accept_word(c, "mask");
	if (!is_mask) {
		ret = parse_sem_range(c, &first, &last);
	} else if (asm_accept(c, "{")) {
		for (ret = 0; !ret && !asm_accept(c, "}");) {
			ret = parse_sem_range(c, &first, &last);
			if (ret)
				break;
			for (i = first; i <= last; i++)
				in.gr.mask[i / 32] |= 1U << (i % 32);
			if (asm_peek(c) != '}')
				ret = asm_expect(c, ",");
		}
		first = last = 0;
	} else {
		ret = parse_mask_hex(c, in.gr.mask);
	}
	if (!ret)
		ret = asm_parse_sync(c, lane, false, false);
	if (ret)
		return ret;
	in.gr.mode = is_mask ? NCSYNC_CLEAR_MASK : NCSYNC_CLEAR_RANGE;
	in.gr.first = first;
	in.gr.last = last;
	return asm_emit(c, mn, &in, lane, NULL);
}

/* poll min|sum rD, sem[A]..sem[B] [, writeback] */
int asm_poll(struct asm_ctx *c, const struct asm_tok *mn, uint8_t opcode)
{
	const struct ncsync_text *op = NULL;
	uint8_t dst, first, last;
	struct asm_lane lane[2];
	struct ncsync_insn in;
	struct asm_tok t;
	const char *at;
	int ret;

	asm_skip_ws(c);
	at = c->p;
	if (asm_read_ident(c, &t))
		op = ncsync_text_find(ncsync_text_poll, t.s, t.len);
	if (!op)
		return asm_err(c, at, "expected min or sum");
	ret = asm_parse_reg(c, &dst);
	if (!ret)
		ret = asm_expect(c, ",");
	if (!ret)
		ret = asm_parse_sem(c, &first);
	if (ret)
		return ret;
	last = first;
	if (asm_accept(c, "..")) {
		asm_skip_ws(c);
		at = c->p;
		ret = asm_parse_sem(c, &last);
		if (ret)
			return ret;
		if (last < first)
			return asm_err(c, at, "range first > last");
		if (last - first >= NCSYNC_POLL_MAX_COUNT)
			return asm_err(c, at, "more than %u semaphores",
				       NCSYNC_POLL_MAX_COUNT);
	}
	asm_insn(&in, opcode);
	if (asm_accept(c, ",")) {
		asm_skip_ws(c);
		at = c->p;
		if (!asm_accept_word(c, "writeback"))
			return asm_err(c, at, "expected 'writeback'");
		if (op->val != NCSYNC_POLL_MIN)
			return asm_err(c, at, "writeback needs min");
		in.poll.writeback = NCSYNC_POLL_WB_NONZERO;
	}
	ret = asm_parse_sync(c, lane, false, false);
	if (ret)
		return ret;
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

	while (!ret && asm_accept(c, ",")) {
		asm_skip_ws(c);
		if (asm_accept_word(c, "latency")) {
			ret = asm_expect(c, "=");
			if (!ret)
				ret = asm_parse_u32(c, &in->dma.latency_us);
		} else if (asm_accept_word(c, "peer")) {
			ret = asm_expect(c, "=");
			if (!ret)
				ret = asm_parse_u32(c, &peer);
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
 * devmem SIZE: the device memory the DMA records that follow are checked
 * against, in bytes; at most NCSYNC_DEVMEM_MAX_KB KiB, the largest the
 * module takes (module parameter devmem_kb).
 */
int asm_devmem(struct asm_ctx *c, const struct asm_tok *mn)
{
	const uint64_t max = (uint64_t)NCSYNC_DEVMEM_MAX_KB << 10;
	struct asm_num n;
	int ret;

	ret = asm_parse_num(c, &n);
	if (ret)
		return ret;
	if (n.neg || !n.mag || n.mag > max)
		return asm_err(c, n.at, "devmem out of range (1-%llu bytes)",
			       (unsigned long long)max);
	c->devmem = n.mag;
	return asm_expect_eol(c);
}

/*
 * Refuse the range of @len bytes at @off (the operand at @at) past the
 * device memory a "devmem" statement gave; without one, the driver checks
 * it against the core's at submit.
 */
static int dma_range(struct asm_ctx *c, const char *at, const char *what,
		     uint64_t off, uint32_t len)
{
	if (!c->devmem || (off <= c->devmem && len <= c->devmem - off))
		return 0;
	return asm_err(c, at, "dma %s 0x%llx + %u bytes is past the device memory (devmem %llu)",
		       what, (unsigned long long)off, len,
		       (unsigned long long)c->devmem);
}

/*
 * dma SRC, DST, LEN [, latency=US] [, peer=P]; on_land is the events
 * block update, applied on the core at position P of the logical core
 * with peer=P.
 */
int asm_dma(struct asm_ctx *c, const struct asm_tok *mn, uint8_t opcode)
{
	struct asm_lane lane[2];
	struct ncsync_insn in;
	uint64_t src = 0, dst = 0;
	const char *at_src, *at_dst;
	int ret;

	asm_insn(&in, opcode);
	asm_skip_ws(c);
	at_src = c->p;
	ret = asm_parse_u64(c, &src);
	if (!ret)
		ret = asm_expect(c, ",");
	asm_skip_ws(c);
	at_dst = c->p;
	if (!ret)
		ret = asm_parse_u64(c, &dst);
	if (!ret)
		ret = asm_expect(c, ",");
	if (!ret)
		ret = asm_parse_u32(c, &in.dma.len);
	if (!ret)
		ret = dma_range(c, at_src, "source", src, in.dma.len);
	if (!ret)
		ret = dma_range(c, at_dst, "destination", dst, in.dma.len);
	if (!ret)
		ret = parse_dma_opts(c, &in);
	if (!ret)
		ret = asm_parse_sync(c, lane, false, true);
	if (ret)
		return ret;
	in.dma.src = src;
	in.dma.dst = dst;
	return asm_emit(c, mn, &in, lane, NULL);
}

/* Instructions that have only the sync clauses, of their lanes. */
int asm_plain(struct asm_ctx *c, const struct asm_tok *mn,
	      uint8_t opcode)
{
	const struct ncsync_opdesc *d = ncsync_op(opcode);
	struct asm_lane lane[2];
	struct ncsync_insn in;
	int ret;

	ret = asm_parse_sync(c, lane, d->nlanes > 1, false);
	if (ret)
		return ret;
	asm_insn(&in, opcode);
	if (d->form == NCSYNC_FORM_DRAIN)
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

	ret = asm_parse_sync(c, lane, false, false);
	if (ret)
		return ret;
	lane_events(&lane[0], ev);
	asm_insn(&in, NCSYNC_OPC_NOOP);
	ncsync_insn_events(&in, ev);
	return asm_check(c, mn, &in);
}

/* barrier: one pseudo-op in every engine's stream, at once */
int asm_barrier(struct asm_ctx *c, const struct asm_tok *mn)
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

/* dma_barrier, ret (NCSYNC_FORM_PSEUDO): the sync clauses of lane 0 */
int asm_pseudo(struct asm_ctx *c, const struct asm_tok *mn,
	       uint8_t opcode)
{
	struct ncsync_events ev;
	int ret;

	ret = parse_pseudo_sync(c, mn, &ev);
	if (ret)
		return ret;
	return asm_added(c, mn, ncsync_put_pseudo(c->cur, opcode, &ev));
}

/* A function name: a word of at most NCSYNC_CALL_NAME_LEN characters. */
static int parse_func_name(struct asm_ctx *c, struct asm_tok *t, char *name)
{
	const char *at;

	asm_skip_ws(c);
	at = c->p;
	if (!asm_read_ident(c, t))
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
int asm_call(struct asm_ctx *c, const struct asm_tok *mn)
{
	char name[NCSYNC_CALL_NAME_LEN + 1];
	struct ncsync_events ev;
	struct asm_tok t;
	uint32_t args = 0;
	int ret;

	ret = parse_func_name(c, &t, name);
	if (!ret && asm_accept(c, ",")) {
		asm_skip_ws(c);
		if (!asm_accept_word(c, "args"))
			return asm_err(c, c->p, "expected 'args'");
		ret = asm_expect(c, "=");
		if (!ret)
			ret = asm_parse_u32(c, &args);
	}
	if (!ret)
		ret = parse_pseudo_sync(c, mn, &ev);
	if (ret)
		return ret;
	return asm_added(c, mn, ncsync_add_call(c->cur, name, args, &ev));
}

/* core_barrier sem[S] [, id=N]: a CoreBarrier (0xD8) on this engine */
int asm_core_barrier(struct asm_ctx *c, const struct asm_tok *mn)
{
	struct ncsync_events ev;
	uint32_t id = 0;
	uint8_t sem;
	int ret;

	ret = asm_parse_sem(c, &sem);
	if (!ret && asm_accept(c, ",")) {
		asm_skip_ws(c);
		if (!asm_accept_word(c, "id"))
			return asm_err(c, c->p, "expected 'id'");
		ret = asm_expect(c, "=");
		if (!ret)
			ret = asm_parse_u32(c, &id);
	}
	if (!ret)
		ret = parse_pseudo_sync(c, mn, &ev);
	if (ret)
		return ret;
	return asm_added(c, mn, ncsync_put_core_barrier(c->cur, sem, id, &ev));
}

/* func NAME: the following records are the body of a function */
int asm_func(struct asm_ctx *c, const struct asm_tok *mn)
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
		ret = asm_expect_eol(c);
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

int asm_endfunc(struct asm_ctx *c, const struct asm_tok *mn)
{
	int ret;

	if (!c->outer)
		return asm_err(c, mn->s, "endfunc outside a func");
	ret = asm_expect_eol(c);
	if (ret)
		return ret;
	c->cur = c->outer;
	c->outer = NULL;
	return 0;
}
