// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * libncsync: the host executor of ncsync_check() (Documentation/ncsync/
 * check.rst, "Steps").  The cores a program runs on are an explicit struct
 * ck_state; a step changes it the way an engine or the DMA engine of the
 * driver would, by the effect function the engines use
 * (common/ncsync_effect.h), on the state's banks; the state itself
 * (decoding, copy, hash) is check_state.c's, below this file:
 *
 *   - a wait's test, with its then-clear or then-set action or its paired
 *     same-lane update: one step, enabled when the test passes;
 *   - the op's own effect: one step (Drain: enabled once the engine's
 *     copies have landed; DMA: once it has fewer than CK_DEPTH in flight).
 *     An opcode without NCSYNC_OPF_EFFECT (NoOp, EventSemaphore) has no
 *     effect step;
 *   - each unpaired update, in lane order: one step each;
 *   - the landing of a copy in flight: one step of its own, enabled at any
 *     time (with fifo: for the oldest copy only), that applies its
 *     completion update, on the issuer's core or (NCSYNC_DMA_F_PEER) on
 *     the peer's.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "ncsync_effect.h"
#include "ncsync_optab.h"

/* Whether the record's op has an effect step: the opcode table says. */
static bool ck_has_effect(uint8_t opcode)
{
	return ncsync_op_has(opcode, NCSYNC_OPF_EFFECT);
}

static bool ck_has_update(const struct ncsync_insn *in, unsigned int l)
{
	const struct ncsync_lane *ln = &in->lane[l];

	return l < in->nlanes && ln->upd.active && !ln->paired &&
	       !ln->upd.on_land;
}

/* The record is over: the next one, or the end of the queue. */
static void ck_next_record(const struct ck_prog *cp, struct ck_eng *x,
			   unsigned int e)
{
	if (x->ending) {
		x->status = x->ending;
		return;
	}
	x->pc = x->next;
	x->next = x->pc + 1;
	x->sub = 0;
	if (x->pc >= cp->count[e]) {
		x->pc = cp->count[e];
		x->status = CK_DONE;
	}
}

/* Move engine @e to its next step: skip what a record does not have. */
static void ck_normalize(const struct ck_prog *cp, struct ck_state *st,
			 unsigned int e)
{
	struct ck_eng *x = &st->eng[e];

	while (x->status == CK_RUNNING) {
		const struct ncsync_insn *in = ck_insn(cp, st, e);

		if (x->sub < CK_SUB_EFFECT) {
			if (x->sub < in->nlanes && in->lane[x->sub].wait.active)
				return;
			x->sub++;
		} else if (x->sub == CK_SUB_EFFECT) {
			if (ck_has_effect(in->opcode))
				return;
			x->sub = CK_SUB_UPD;
		} else if (x->sub < CK_SUB_UPD + 2) {
			if (ck_has_update(in, x->sub - CK_SUB_UPD))
				return;
			x->sub++;
		} else {
			ck_next_record(cp, x, e);
		}
	}
}

void ck_state_init(const struct ck_prog *cp, struct ck_state *st,
		   const int32_t *sems, const uint8_t *events)
{
	unsigned int c, e;

	memset(st, 0, cp->state_size);
	for (c = 0; c < cp->ncores; c++) {
		if (sems)
			memcpy(st->bank[c].sems, sems, sizeof(st->bank[c].sems));
		if (events)
			memcpy(st->bank[c].events, events,
			       sizeof(st->bank[c].events));
	}
	for (e = 0; e < cp->n; e++) {
		st->eng[e].next = 1;
		if (!cp->count[e])
			st->eng[e].status = CK_DONE;
		ck_normalize(cp, st, e);
	}
}

static bool ck_overlap(uint64_t a, uint64_t b, uint32_t len_a,
		       uint32_t len_b)
{
	return a < b + len_b && b < a + len_a;
}

/**
 * ck_copies_race() - whether copies @a and @b touch a common byte, one of
 *	them writing it (the race rule, for copies of one core).
 * @a: a DMA record.
 * @b: another.
 *
 * Return: true if they do.
 */
bool ck_copies_race(const struct ncsync_insn *a, const struct ncsync_insn *b)
{
	uint32_t la = a->dma.len, lb = b->dma.len;

	return ck_overlap(a->dma.dst, b->dma.dst, la, lb) ||
	       ck_overlap(a->dma.dst, b->dma.src, la, lb) ||
	       ck_overlap(a->dma.src, b->dma.dst, la, lb);
}

/*
 * Whether copy @c comes after a new copy of record @rec of slot @e in the
 * canonical order of the copies in flight (by issuer, record, then issue:
 * a new copy comes after the issuer's earlier ones).
 */
static bool ck_copy_after(const struct ck_copy *c, unsigned int e,
			  uint32_t rec)
{
	return c->eng > e || (c->eng == e && c->rec > rec);
}

/*
 * Issue the copy of DMA record @in of slot @e: in issue order with
 * --dma-fifo (the order they land in), else in the canonical order, so
 * that two states that differ only in the order of two issues are one.
 */
static void ck_issue(const struct ck_prog *cp, struct ck_state *st,
		     unsigned int e, struct ck_effects *fx)
{
	const struct ncsync_insn *in = ck_insn(cp, st, e);
	struct ck_eng *x = &st->eng[e];
	unsigned int i;

	for (i = 0; i < st->ncopies; i++) {
		const struct ck_copy *c = &st->copies[i];

		/* Each core's copies move its own device memory. */
		if ((cp->fifo && c->eng == e) || cp->core[c->eng] != cp->core[e])
			continue;
		if (!fx->race && ck_copies_race(in, &cp->insns[c->eng][c->rec])) {
			fx->race = true;
			fx->race_with = *c;
		}
	}
	if (st->ncopies == CK_MAX_COPIES) {
		fx->full = true;
		return;
	}
	for (i = st->ncopies; !cp->fifo && i > 0 &&
	     ck_copy_after(&st->copies[i - 1], e, x->pc); i--)
		;
	memmove(&st->copies[i + 1], &st->copies[i],
		(st->ncopies - i) * sizeof(st->copies[0]));
	st->copies[i] = (struct ck_copy){
		.eng = e, .rec = x->pc, .seq = x->issued++,
	};
	st->ncopies++;
	x->inflight++;
}

/*
 * The bank of a step as common/ncsync_effect.h sees it: the core of engine
 * @e (or, for a landing, the core the update lands on), and what the step
 * did that is a defect.
 */
struct ck_ctx {
	const struct ck_prog *cp;
	struct ck_state *st;
	struct ck_bank *b;
	unsigned int e;
	struct ck_effects *fx;
};

static int32_t ck_sem_read(void *ctx, unsigned int i)
{
	return ((struct ck_ctx *)ctx)->b->sems[i];
}

static bool ck_sem_update(void *ctx, unsigned int i, enum ncsync_sem_upd op,
			  uint32_t operand)
{
	struct ck_bank *b = ((struct ck_ctx *)ctx)->b;
	bool ovf = false;

	b->sems[i] = ncsync_sem_apply(op, b->sems[i], operand, &ovf);
	return ovf;
}

static bool ck_event_read(void *ctx, unsigned int i)
{
	return ((struct ck_ctx *)ctx)->b->events[i];
}

static bool ck_event_write(void *ctx, unsigned int i, bool set)
{
	struct ck_bank *b = ((struct ck_ctx *)ctx)->b;
	bool same = b->events[i] == set;

	b->events[i] = set;
	return same;
}

/* A Drain's effect step is enabled only once it passes. */
static bool ck_drain_pass(void *ctx)
{
	struct ck_ctx *k = ctx;

	return !k->st->eng[k->e].inflight;
}

/* A DMA record's effect step is enabled only while a slot is free. */
static bool ck_dma_issue(void *ctx, const struct ncsync_insn *in)
{
	struct ck_ctx *k = ctx;

	if (k->st->eng[k->e].inflight >= CK_DEPTH)
		return false;
	ck_issue(k->cp, k->st, k->e, k->fx);
	return true;
}

static const struct ncsync_bank_ops ck_bank_ops = {
	.sem_read = ck_sem_read,
	.sem_update = ck_sem_update,
	.event_read = ck_event_read,
	.event_write = ck_event_write,
	.drain_pass = ck_drain_pass,
	.dma_issue = ck_dma_issue,
};

/* Whether a wait passes on banks @b. */
static bool ck_wait_passes(struct ck_bank *b, const struct ck_eng *x,
			   const struct ncsync_wait_op *w)
{
	struct ck_ctx k = { .b = b };
	bool after;

	return ncsync_exec_wait_test(w, x->regs, &ck_bank_ops, &k, &after);
}

static bool ck_engine_enabled(const struct ck_prog *cp,
			      const struct ck_state *st, unsigned int e)
{
	const struct ck_eng *x = &st->eng[e];
	const struct ncsync_insn *in;

	if (x->status != CK_RUNNING)
		return false;
	in = ck_insn(cp, st, e);
	if (x->sub < CK_SUB_EFFECT)
		return ck_wait_passes((struct ck_bank *)&st->bank[cp->core[e]],
				      x, &in->lane[x->sub].wait);
	if (x->sub > CK_SUB_EFFECT)
		return true;
	/* The op's effect blocks (ncsync_exec_op()) until these hold. */
	if (ncsync_op_has(in->opcode, NCSYNC_OPF_DRAIN))
		return !x->inflight;
	if (ncsync_op_has(in->opcode, NCSYNC_OPF_DMA))
		return x->inflight < CK_DEPTH;
	return true;
}

bool ck_step_enabled(const struct ck_prog *cp, const struct ck_state *st,
		     struct ck_step s)
{
	if (!s.land)
		return s.idx < cp->n && ck_engine_enabled(cp, st, s.idx);
	return s.idx < st->ncopies && (!cp->fifo || !s.idx);
}

unsigned int ck_enabled(const struct ck_prog *cp, const struct ck_state *st,
			struct ck_step *steps)
{
	unsigned int e, i, n = 0;

	for (e = 0; e < cp->n; e++)
		if (ck_engine_enabled(cp, st, e))
			steps[n++] = (struct ck_step){ .idx = e };
	for (i = 0; i < st->ncopies && (!cp->fifo || !i); i++)
		steps[n++] = (struct ck_step){ .land = true, .idx = i };
	return n;
}

/* Note the strict-mode fault of an update as a defect of the step. */
static void ck_fault(struct ck_effects *fx, uint8_t fault)
{
	if (fault == NCSYNC_FAULT_SEM_OVERFLOW)
		fx->overflow = true;
	else if (fault)
		fx->event = true;
}

/* The op's own effect, by the engines' effect function. */
static void ck_effect(struct ck_ctx *k)
{
	const struct ncsync_insn *in = ck_insn(k->cp, k->st, k->e);
	struct ck_eng *x = &k->st->eng[k->e];

	switch (ncsync_exec_op(in, x->regs, &ck_bank_ops, k)) {
	case NCSYNC_OP_HALT:
		x->ending = CK_HALTED;
		break;
	case NCSYNC_OP_EXIT:
		x->ending = CK_DONE;
		break;
	case NCSYNC_OP_JUMP:
		x->next = in->br.target;
		break;
	default:	/* Drain and DMA: enabled only once they pass */
		break;
	}
}

/* A copy lands: its completion update, on the issuer's core or the peer's. */
static void ck_land(const struct ck_prog *cp, struct ck_state *st,
		    unsigned int idx, struct ck_effects *fx)
{
	struct ck_copy c = st->copies[idx];
	const struct ncsync_insn *in = &cp->insns[c.eng][c.rec];
	struct ck_ctx k = {
		.cp = cp, .st = st, .e = c.eng, .fx = fx,
		.b = &st->bank[ck_land_core(cp, c.eng, in)],
	};

	if (in->lane[0].upd.active)
		ck_fault(fx, ncsync_exec_update(&in->lane[0].upd, NULL,
						&ck_bank_ops, &k));
	memmove(&st->copies[idx], &st->copies[idx + 1],
		(st->ncopies - idx - 1) * sizeof(st->copies[0]));
	st->ncopies--;
	st->eng[c.eng].inflight--;
}

void ck_apply(const struct ck_prog *cp, struct ck_state *st, struct ck_step s,
	      struct ck_effects *fx)
{
	struct ck_ctx k = { .cp = cp, .st = st, .e = s.idx, .fx = fx };
	const struct ncsync_insn *in;
	struct ck_eng *x;
	uint8_t fault = 0;

	memset(fx, 0, sizeof(*fx));
	if (s.land) {
		ck_land(cp, st, s.idx, fx);
		return;
	}
	x = &st->eng[s.idx];
	in = ck_insn(cp, st, s.idx);
	k.b = ck_bank_of(cp, st, s.idx);
	if (x->sub < CK_SUB_EFFECT)
		ncsync_exec_wait(&in->lane[x->sub], x->regs, &ck_bank_ops, &k,
				 &fault);
	else if (x->sub == CK_SUB_EFFECT)
		ck_effect(&k);
	else
		fault = ncsync_exec_update(&in->lane[x->sub - CK_SUB_UPD].upd,
					   x->regs, &ck_bank_ops, &k);
	ck_fault(fx, fault);
	x->sub++;
	ck_normalize(cp, st, s.idx);
}

const struct ncsync_lane *ck_wait_at(const struct ck_prog *cp,
				     const struct ck_state *st, unsigned int e)
{
	const struct ck_eng *x = &st->eng[e];

	if (x->status != CK_RUNNING || x->sub >= CK_SUB_EFFECT)
		return NULL;
	return &ck_insn(cp, st, e)->lane[x->sub];
}

