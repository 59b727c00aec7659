// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * libncsync: path-sensitive futures of the reduction (Documentation/
 * ncsync/check.rst, "The reduction").
 *
 * An engine's control flow depends on its registers alone: a Branch tests
 * registers, Mov32 computes them from registers and immediates, and the
 * one record that loads a register from the banks is PollSem.  So from a
 * state, the records an engine runs next are one path, whatever the other
 * engines do: its waits may hold it back, never send it elsewhere.  What
 * it may still do is what the records of that path do, a subset of what
 * every record its loops reach does (the static rows of check_fut.c).
 *
 * ck_path_row() follows the path from the engine's position and registers
 * and ORs the classes of its records into a row: up to the end of the
 * stream, Halt or Exit; up to a point of the path seen before (the rest
 * repeats, or was computed by an earlier walk); and where it cannot or
 * will not follow, after a PollSem or CK_PATH_WALK records, it takes the
 * static row of the record it stopped at.  Every point of the walk gets
 * its own row, the suffix from it on, cached by a 128-bit hash of the
 * position and the registers (as the visited set keys states).  The
 * passes of a loop that run alike are skipped (ck_path_skip()), so a
 * walk's length does not grow with the trip count.
 *
 * ck_path_class_row() gives the row of a class of a loop's states: the
 * representative's, when every state of the class is on its path
 * (ck_path_on_line(), by check_line.c's spans).
 *
 * ck_path_cut() follows the same path, uncached, up to the first wait that
 * fails on what only actors that do not step write (those of a persistent
 * set, check_stub.c): until one of them steps, the path cannot go past it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "ncsync_effect.h"
#include "ncsync_optab.h"

/* Records one walk follows at most, and points a slot caches at most. */
#define CK_PATH_WALK	(1U << 16)
#define CK_PATH_MAX	(1U << 17)
/* Passes one walk skips at most (ck_path_skip()). */
#define CK_PATH_JUMPS	64U
/* Records ck_path_on_line() follows at most. */
#define CK_LINE_WALK	4096U
/* Records a cut (ck_path_cut()) follows at most. */
#define CK_CUT_WALK	1024U

/*
 * A point of a path: its hash, its row; @gen, the walk that noted it, and
 * @idx its index in that walk (its row is filled at the walk's end).
 */
struct ck_path_ent {
	uint64_t h[2];
	uint32_t row;
	uint32_t gen;
	uint32_t idx;
};

/* The last point of the walk @gen at a record: its walk index, registers. */
struct ck_path_seen {
	uint32_t gen;
	uint32_t idx;
	uint32_t regs[NCSYNC_NUM_REGS];
};

/* Passes skipped: the points from @at on are after the skip of @from..@at. */
struct ck_path_jump {
	uint32_t at;
	uint32_t from;
};

/**
 * struct ck_paths - the cached rows of one slot.
 * @ents: open addressing over the points' hashes; h all 0 is empty.
 * @cap: entries of @ents, a power of two.
 * @n: entries used, and rows: row i is the i-th point noted.
 * @rows: room for @cap / 2 rows of ck_fut_width() classes.
 * @gen: the walk under way.
 * @walk: per point of the walk under way, its row and record.
 * @seen: per record of the slot, the walk's last point there.
 * @jumps: the passes the walk under way skipped, @njumps of them.
 */
struct ck_paths {
	struct ck_path_ent *ents;
	size_t cap;
	size_t n;
	uint8_t *rows;
	uint32_t gen;
	struct { uint32_t row, pc; } *walk;
	struct ck_path_seen *seen;
	struct ck_path_jump jumps[CK_PATH_JUMPS];
	unsigned int njumps;
};

static void ck_point_hash(const struct ck_point *p, uint64_t h[2])
{
	unsigned int r;

	h[0] = 0xBB67AE8584CAA73BULL;
	h[1] = 0x3C6EF372FE94F82BULL;
	ck_mix(h, (uint64_t)p->pc << 32 | (p->ran ? p->next : UINT32_MAX));
	for (r = 0; r < NCSYNC_NUM_REGS; r += 2)
		ck_mix(h, (uint64_t)p->regs[r] << 32 | p->regs[r + 1]);
	if (!h[0] && !h[1])
		h[0] = 1;
}

static size_t ck_path_slot(const struct ck_paths *ps, const uint64_t h[2])
{
	size_t j;

	for (j = h[0] & (ps->cap - 1);
	     (ps->ents[j].h[0] || ps->ents[j].h[1]) &&
	     (ps->ents[j].h[0] != h[0] || ps->ents[j].h[1] != h[1]);
	     j = (j + 1) & (ps->cap - 1))
		;
	return j;
}

/* Room for one more point, or false (full, or out of memory). */
static bool ck_path_room(struct ck_paths *ps, size_t w)
{
	struct ck_paths n = *ps;
	size_t i;

	if (2 * (ps->n + 1) <= ps->cap)
		return true;
	if (ps->n >= CK_PATH_MAX)
		return false;
	n.cap = ps->cap * 2;
	n.ents = calloc(n.cap, sizeof(*n.ents));
	n.rows = realloc(ps->rows, n.cap / 2 * w);
	if (n.rows)
		ps->rows = n.rows;
	if (!n.ents || !n.rows) {
		free(n.ents);
		return false;
	}
	for (i = 0; i < ps->cap; i++)
		if (ps->ents[i].h[0] || ps->ents[i].h[1])
			n.ents[ck_path_slot(&n, ps->ents[i].h)] = ps->ents[i];
	free(ps->ents);
	*ps = n;
	return true;
}

/*
 * The banks of a path: none.  A path runs a record's effect on registers
 * only; an op that reads the banks ends it before it runs (ck_path_step()),
 * and what an op writes to them is not followed.
 */
static int32_t ck_path_sem_read(void *ctx, unsigned int i)
{
	return 0;
}

static bool ck_path_sem_update(void *ctx, unsigned int i,
			       enum ncsync_sem_upd op, uint32_t operand)
{
	return false;
}

static bool ck_path_event(void *ctx, unsigned int i)
{
	return false;
}

static bool ck_path_event_write(void *ctx, unsigned int i, bool set)
{
	return false;
}

static bool ck_path_pass(void *ctx)
{
	return true;
}

static bool ck_path_issue(void *ctx, const struct ncsync_insn *in)
{
	return true;
}

static const struct ncsync_bank_ops ck_path_bank = {
	.sem_read = ck_path_sem_read,
	.sem_update = ck_path_sem_update,
	.event_read = ck_path_event,
	.event_write = ck_path_event_write,
	.drain_pass = ck_path_pass,
	.dma_issue = ck_path_issue,
};

/**
 * ck_path_step() - run the record of @p on its registers, by the engines'
 *	effect function, and move @p to the next record.
 * @cp: the program.
 * @e: the slot.
 * @p: the point; moved.
 * @tail: out, when it returns false: NULL for the end of the path, else
 *	the static row to take from there (after a PollSem).
 *
 * Return: false when the path ends there or cannot be followed past it.
 */
bool ck_path_step(const struct ck_prog *cp, unsigned int e,
		  struct ck_point *p, const uint8_t **tail)
{
	const struct ncsync_insn *in = &cp->insns[e][p->pc];
	uint32_t np = p->pc + 1;

	if (p->ran) {
		np = p->next;
	} else if (ncsync_op_has(in->opcode, NCSYNC_OPF_SEM_READ)) {
		/* its registers may come from the banks: the static rows on */
		*tail = np < cp->count[e] ? ck_fut_static(cp, e, np) : NULL;
		return false;
	} else {
		switch (ncsync_exec_op(in, p->regs, &ck_path_bank, NULL)) {
		case NCSYNC_OP_HALT:
		case NCSYNC_OP_EXIT:
			*tail = NULL;
			return false;
		case NCSYNC_OP_JUMP:
			np = in->br.target;
			break;
		default:
			break;
		}
	}
	p->pc = np;
	p->ran = false;
	if (np >= cp->count[e]) {
		*tail = NULL;
		return false;
	}
	return true;
}

/**
 * ck_path_pass_span() - how many points of a line run a pass alike.
 * @cp: the program.
 * @e: the slot.
 * @pc: where the pass starts.
 * @regs: the registers at its start, the line's first point.
 * @len: the records of the pass.
 * @d: the registers' step from one point of the line to the next.
 *
 * Return: the least ck_line_span() of the @len records from (@pc, @regs):
 * how many points of that line run those records alike, each ending where
 * the next starts; CK_LINE_FAR for ever, 0 when the path ends in the pass.
 */
int64_t ck_path_pass_span(const struct ck_prog *cp, unsigned int e,
			  uint32_t pc, const uint32_t *regs, uint32_t len,
			  const uint32_t *d)
{
	struct ck_point q = { .pc = pc };
	int64_t span = CK_LINE_FAR, k;
	const uint8_t *tail;

	memcpy(q.regs, regs, sizeof(q.regs));
	while (len--) {
		k = ck_line_span(&cp->insns[e][q.pc], q.regs, d);
		if (k < span)
			span = k;
		if (span < 2)
			return span;
		if (!ck_path_step(cp, e, &q, &tail))
			return 0;	/* the path ends inside the pass */
	}
	return span;
}

/*
 * Point @i of the walk, @p, at a record the walk ran before: @p is the
 * point of then with its registers moved by d.  If the records between
 * run alike on k more points of that line (ck_path_pass_span()), the
 * path passes them all: move @p to the last, noting the skip (the rows of
 * the points before it hold the skipped records, ck_path_rows()).  False
 * when they run alike for ever (*@cycle: where that pass starts): the path
 * repeats it.  Only a pass without a skip of its own is skipped.
 */
static bool ck_path_skip(const struct ck_prog *cp, unsigned int e,
			 struct ck_point *p, uint32_t i, uint32_t *cycle)
{
	struct ck_paths *ps = cp->paths[e];
	struct ck_path_seen *s = &ps->seen[p->pc];
	uint32_t d[NCSYNC_NUM_REGS], moved = 0;
	unsigned int r;
	int64_t k;

	if (s->gen == ps->gen && ps->njumps < CK_PATH_JUMPS &&
	    (!ps->njumps || ps->jumps[ps->njumps - 1].at <= s->idx)) {
		for (r = 0; r < NCSYNC_NUM_REGS; r++)
			moved |= d[r] = p->regs[r] - s->regs[r];
		k = 0;
		if (moved)
			k = ck_path_pass_span(cp, e, p->pc, s->regs,
					      i - s->idx, d);
		if (k >= CK_LINE_FAR) {
			*cycle = s->idx;
			return false;
		}
		if (k >= 2) {
			for (r = 0; r < NCSYNC_NUM_REGS; r++)
				p->regs[r] += (uint32_t)((uint64_t)(k - 1) *
							 d[r]);
			ps->jumps[ps->njumps++] = (struct ck_path_jump){
				.at = i, .from = s->idx,
			};
		}
	}
	s->gen = ps->gen;
	s->idx = i;
	memcpy(s->regs, p->regs, sizeof(s->regs));
	return true;
}

/*
 * Follow the path from @p, noting each new point as pending; stop at a
 * point known (*@tail its row; *@cycle its walk index if it is pending)
 * or where ck_path_step() stops.  Return the points walked.
 */
static uint32_t ck_path_walk(const struct ck_prog *cp, unsigned int e,
			     struct ck_point *p, const uint8_t **tail,
			     uint32_t *cycle)
{
	struct ck_paths *ps = cp->paths[e];
	size_t w = ck_fut_width(cp), j;
	uint32_t i;
	uint64_t h[2];

	*cycle = UINT32_MAX;
	*tail = NULL;
	ps->gen++;
	ps->njumps = 0;
	for (i = 0; i < CK_PATH_WALK; i++) {
		if (!p->ran && !ck_path_skip(cp, e, p, i, cycle))
			return i;
		ck_point_hash(p, h);
		j = ck_path_slot(ps, h);
		if (ps->ents[j].h[0] || ps->ents[j].h[1]) {
			if (ps->ents[j].gen == ps->gen)
				*cycle = ps->ents[j].idx;
			else
				*tail = ps->rows + ps->ents[j].row * w;
			return i;
		}
		if (!ck_path_room(ps, w))
			break;
		j = ck_path_slot(ps, h);
		ps->ents[j] = (struct ck_path_ent){
			.h = { h[0], h[1] }, .row = ps->n, .gen = ps->gen,
			.idx = i,
		};
		ps->walk[i].row = ps->n++;
		ps->walk[i].pc = p->pc;
		if (!ck_path_step(cp, e, p, tail))
			return i + 1;
	}
	*tail = ck_fut_static(cp, e, p->pc);
	return i;
}

/*
 * Give each point of a walk of @n points its row: its record's classes
 * and those of every point after it, then @tail's (or, when the path
 * closed on its own point @cycle, the classes of the cycle's records);
 * a point before a skip, those of the skipped pass.
 */
static void ck_path_rows(const struct ck_prog *cp, unsigned int e,
			 uint32_t n, const uint8_t *tail, uint32_t cycle)
{
	struct ck_paths *ps = cp->paths[e];
	size_t w = ck_fut_width(cp);
	uint8_t acc[2 * (CK_MAX_SEMS + CK_MAX_EVENTS)];
	uint32_t i;
	unsigned int j;

	memset(acc, 0, w);
	if (tail)
		memcpy(acc, tail, w);
	for (i = cycle; i < n; i++)
		ck_fut_insn(cp, e, &cp->insns[e][ps->walk[i].pc], acc);
	j = ps->njumps;
	while (n--) {
		for (; j && ps->jumps[j - 1].at > n; j--)
			for (i = ps->jumps[j - 1].from;
			     i < ps->jumps[j - 1].at; i++)
				ck_fut_insn(cp, e,
					    &cp->insns[e][ps->walk[i].pc], acc);
		ck_fut_insn(cp, e, &cp->insns[e][ps->walk[n].pc], acc);
		memcpy(ps->rows + (size_t)ps->walk[n].row * w, acc, w);
	}
}

/*
 * The row of what slot @e may still do in @st, along its path; NULL when
 * it has none (then the static row applies).
 */
const uint8_t *ck_path_row(const struct ck_prog *cp,
			   const struct ck_state *st, unsigned int e)
{
	const struct ck_eng *x = &st->eng[e];
	struct ck_paths *ps = cp->paths[e];
	size_t w = ck_fut_width(cp);
	struct ck_point p = {
		.pc = x->pc, .next = x->next, .ran = x->sub > CK_SUB_EFFECT,
	};
	const uint8_t *tail;
	uint32_t n, cycle;
	uint64_t h[2];
	size_t j;

	if (!ps || !w)
		return NULL;
	memcpy(p.regs, x->regs, sizeof(p.regs));
	ck_point_hash(&p, h);
	j = ck_path_slot(ps, h);
	if (ps->ents[j].h[0] || ps->ents[j].h[1])
		return ps->rows + (size_t)ps->ents[j].row * w;
	n = ck_path_walk(cp, e, &p, &tail, &cycle);
	if (!n)		/* no room for the first point */
		return NULL;
	ck_path_rows(cp, e, n, tail, cycle == UINT32_MAX ? n : cycle);
	return ps->rows + (size_t)ps->walk[0].row * w;
}

/* The banks of a state, read-only: where a cut tests its waits. */
static int32_t ck_cut_sem(void *ctx, unsigned int i)
{
	return ((const struct ck_bank *)ctx)->sems[i];
}

static bool ck_cut_event(void *ctx, unsigned int i)
{
	return ((const struct ck_bank *)ctx)->events[i];
}

static const struct ncsync_bank_ops ck_cut_bank = {
	.sem_read = ck_cut_sem,
	.event_read = ck_cut_event,
};

/*
 * Whether in every state of the class of @st (slot @e's registers moved by
 * k * ck_prog.cls_delta, k = 0 .. ck_prog.cls_hi) the engine is on the
 * path from @st's point, so that its row holds theirs: the path comes back
 * to the same record with the registers moved once, each record on the
 * way running alike on the cls_hi first points of its line (then point k
 * comes to point k + 1, ck_line_span()); or it ends, each record running
 * alike on all of them.
 */
static bool ck_path_on_line(const struct ck_prog *cp,
			    const struct ck_state *st, unsigned int e)
{
	const uint32_t *d = cp->cls_delta[e];
	const struct ck_eng *x = &st->eng[e];
	struct ck_point p = {
		.pc = x->pc, .next = x->next, .ran = x->sub > CK_SUB_EFFECT,
	};
	int64_t span = CK_LINE_FAR, hi = (int64_t)cp->cls_hi, k;
	uint32_t start[NCSYNC_NUM_REGS], pc0, i;
	const uint8_t *tail;
	unsigned int r;

	memcpy(p.regs, x->regs, sizeof(p.regs));
	if (p.ran && !ck_path_step(cp, e, &p, &tail))
		return true;
	pc0 = p.pc;
	for (r = 0; r < NCSYNC_NUM_REGS; r++)
		start[r] = p.regs[r] + d[r];
	for (i = 0; i < CK_LINE_WALK; i++) {
		k = ck_line_span(&cp->insns[e][p.pc], p.regs, d);
		if (k < span)
			span = k;
		if (span < hi)
			return false;
		if (!ck_path_step(cp, e, &p, &tail))
			return span > hi;
		if (p.pc == pc0 && !memcmp(p.regs, start, sizeof(start)))
			return true;
	}
	return false;
}

/**
 * ck_path_class_row() - what slot @e may still do in every state of the
 *	class of a loop whose first state is @st (ck_prog.static_fut).
 * @cp: the program, with the class's shift and length (cls_delta, cls_hi).
 * @st: the class's first state.
 * @e: a slot that has not ended.
 *
 * Return: the row of @st's path when every state of the class is on it
 * (ck_path_on_line()) or the shift does not move the engine's registers;
 * else NULL (then the static row applies).
 */
const uint8_t *ck_path_class_row(const struct ck_prog *cp,
				 const struct ck_state *st, unsigned int e)
{
	if (cp->cls_regs[e] && cp->cls_hi && !ck_path_on_line(cp, st, e))
		return NULL;
	return ck_path_row(cp, st, e);
}

/*
 * On the classes of a loop (ck_prog.static_fut), what of a path is the
 * same in every state of a class: registers not @moved since the state
 * hold its values, and any comparison of the records (check_accel.c) on
 * the state's values has one outcome across its class; registers not in
 * @vary hold one value across it.
 */
struct ck_cut_regs {
	uint32_t vary;
	uint32_t moved;
};

/* Whether a test that reads registers @regs has one outcome in a class. */
static bool ck_cut_one(const struct ck_cut_regs *cr, uint32_t regs,
		       bool fixed)
{
	return !(regs & cr->moved) || (fixed && !(regs & cr->vary));
}

/*
 * Whether wait @w of slot @j tests the same in every state of a class of a
 * loop: an event's (the events are the class's); a semaphore's (the
 * state's value: the path does not follow the banks) against an immediate
 * or a register the path has not written, or against a register of one
 * value when the shift does not move the semaphore.  Outside the classes,
 * every wait.
 */
static bool ck_cut_fixed(const struct ck_prog *cp, unsigned int j,
			 const struct ncsync_wait_op *w,
			 const struct ck_cut_regs *cr)
{
	if (!cp->static_fut || w->bank == NCSYNC_BANK_EVENT || !w->reg)
		return true;
	return ck_cut_one(cr, 1U << w->value,
			  !cp->cls_sems[CK_G(cp->core[j], w->index)]);
}

/*
 * The first wait of record @in, of lane @from on, that blocks slot @j for
 * as long as none of the actors @frozen steps: it fails in @st with
 * registers @regs (in every state of its class, on the classes of a loop:
 * @cr), on a semaphore or event that no actor but those writes.  Its lane,
 * or -1 when none does.
 */
static int ck_cut_at(const struct ck_prog *cp, const struct ck_state *st,
		     unsigned int j, uint32_t frozen,
		     const struct ncsync_insn *in, const uint32_t *regs,
		     const struct ck_cut_regs *cr, unsigned int from)
{
	const struct ck_bank *b = &st->bank[cp->core[j]];
	unsigned int l, g;
	uint32_t wr;
	bool after;

	for (l = from; l < in->nlanes; l++) {
		const struct ncsync_wait_op *w = &in->lane[l].wait;

		if (!w->active)
			continue;
		g = CK_G(cp->core[j], w->index);
		wr = w->bank == NCSYNC_BANK_SEM ? cp->sem_wr[g] : cp->ev_wr[g];
		if (!(wr & ~frozen) && ck_cut_fixed(cp, j, w, cr) &&
		    !ncsync_exec_wait_test(w, regs, &ck_cut_bank, (void *)b,
					   &after))
			return l;
	}
	return -1;
}

/*
 * On the classes of a loop (ck_prog.static_fut): whether record @in, run
 * at a point of the path (@cr), sends the path the same way in every state
 * of the class (a Branch whose test has one outcome in it); @cr then
 * follows what it writes.  Outside the classes, always.
 */
static bool ck_cut_same(const struct ck_prog *cp, const struct ncsync_insn *in,
			struct ck_cut_regs *cr)
{
	struct ncsync_footprint fp;

	if (!cp->static_fut)
		return true;
	ncsync_op_footprint(in, &fp);
	if (ncsync_op_has(in->opcode, NCSYNC_OPF_FLOW) &&
	    in->br.comp != NCSYNC_BR_ALWAYS &&
	    !ck_cut_one(cr, fp.reg_read, true))
		return false;
	if (fp.reg_read & cr->vary)
		cr->vary |= fp.reg_write;
	else
		cr->vary &= ~fp.reg_write;
	cr->moved |= fp.reg_write;
	return true;
}

/*
 * OR into @row the classes of the waits of lanes @from to @to of record
 * @in of slot @j: what it may do in a record where the wait of lane @to
 * blocks it (its effect and updates come after every wait).
 */
static void ck_cut_waits(const struct ck_prog *cp, unsigned int j,
			 const struct ncsync_insn *in, unsigned int from,
			 unsigned int to, uint8_t *row)
{
	for (; from <= to; from++) {
		const struct ncsync_lane *ln = &in->lane[from];

		if (ln->wait.active)
			row[ck_dense(cp, cp->core[j], ln->wait.bank,
				     ln->wait.index)] |= ck_lane_wait_class(ln);
	}
}

/**
 * ck_path_cut() - what slot @j may do before any of the actors @frozen
 *	steps, when its path is cut short by a wait only they release.
 * @cp: the program.
 * @st: the state.
 * @j: a slot that has not ended and is not among @frozen.
 * @frozen: the actors (CK_ACTOR_*) that take no step before the steps in
 *	question: the engines of a persistent set, engines blocked for as
 *	long, ended ones, and the landings of copies that cannot land.
 * @row: out: a row (ck_fut_width() bytes) of the classes of @j's accesses,
 *	and its copies', on its path up to the first wait that fails in @st
 *	on a semaphore or event only @frozen write: the records before it,
 *	and the waits of its record up to it (its record's effect and updates
 *	come after every wait).
 *
 * Until one of @frozen steps, what only they write keeps its value in
 * @st, so such a wait blocks @j, and nothing after it on the path can run.
 *
 * Return: true when such a wait was found within CK_CUT_WALK records (or
 * the path ends before); false, @row undefined, when not: then the whole
 * future applies.
 */
bool ck_path_cut(const struct ck_prog *cp, const struct ck_state *st,
		 unsigned int j, uint32_t frozen, uint8_t *row)
{
	const struct ck_eng *x = &st->eng[j];
	struct ck_point p = {
		.pc = x->pc, .next = x->next, .ran = x->sub > CK_SUB_EFFECT,
	};
	unsigned int from = x->sub < CK_SUB_EFFECT ? x->sub : 0;
	struct ck_cut_regs cr = { .vary = cp->cls_regs[j] };
	size_t w = ck_fut_width(cp), b;
	const uint8_t *tail, *r;
	uint32_t i;

	if (!cp->cuts[j])
		return false;
	memset(row, 0, w);
	memcpy(p.regs, x->regs, sizeof(p.regs));
	for (i = 0; i < CK_CUT_WALK; i++) {
		const struct ncsync_insn *in = &cp->insns[j][p.pc];
		int l = p.ran ? -1 : ck_cut_at(cp, st, j, frozen, in, p.regs,
					       &cr, from);

		if (l >= 0) {
			ck_cut_waits(cp, j, in, from, l, row);
			return true;
		}
		r = cp->rec[j] + (size_t)p.pc * w;
		for (b = 0; b < w; b++)
			row[b] |= r[b];
		from = 0;
		/* on classes, a path that forks across the class: all of it */
		if (!p.ran && !ck_cut_same(cp, in, &cr))
			return false;
		if (!ck_path_step(cp, j, &p, &tail))
			return !tail;	/* past a PollSem: not followed */
	}
	return false;
}

int ck_path_init(struct ck_prog *cp)
{
	size_t w = ck_fut_width(cp);
	unsigned int e;

	for (e = 0; e < cp->n; e++) {
		struct ck_paths *ps = calloc(1, sizeof(*ps));

		cp->paths[e] = ps;
		if (!ps)
			return -ENOMEM;
		ps->cap = 1024;
		ps->ents = calloc(ps->cap, sizeof(*ps->ents));
		ps->rows = malloc(ps->cap / 2 * (w ? w : 1));
		ps->walk = malloc(CK_PATH_WALK * sizeof(*ps->walk));
		ps->seen = calloc(cp->count[e] + 1, sizeof(*ps->seen));
		if (!ps->ents || !ps->rows || !ps->walk || !ps->seen)
			return -ENOMEM;
	}
	return 0;
}

void ck_path_fini(struct ck_prog *cp)
{
	unsigned int e;

	for (e = 0; e < CK_MAX_SLOTS; e++) {
		if (!cp->paths[e])
			continue;
		free(cp->paths[e]->ents);
		free(cp->paths[e]->rows);
		free(cp->paths[e]->walk);
		free(cp->paths[e]->seen);
		free(cp->paths[e]);
		cp->paths[e] = NULL;
	}
}
