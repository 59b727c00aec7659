// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * libncsync: loop acceleration of ncsync_check() (Documentation/ncsync/
 * check.rst, "Loops of any trip count").
 *
 * The explicit search looks, at each loop head it reaches (a state just
 * after a branch back), for an ancestor on its stack that equals the state
 * but for the values of registers and semaphores: the difference is the
 * shift of one pass, delta.  The search then starts again on an abstract
 * system.  Every state lies on the line { s + k * delta }; the comparisons
 * the records can ever make (waits, branches, the overflow of updates)
 * cut each line into classes, in which every comparison has one outcome.
 * A class is one abstract state, its first state the representative.
 * Within a class every step does the same thing shifted, provided every
 * write it makes is compatible with delta (an add of a constant, a copy
 * between variables of one delta, an absolute write of a variable whose
 * delta is 0); a state where an engine is at an incompatible record, where
 * a copy in flight would land incompatibly, where an engine has not
 * reached the loop and may still run such a record (CK_BEFORE), or where
 * a comparison whose outcome moves with the passes differs from the
 * loop's (the prologue, the last passes) is a class of its own.  From a representative the
 * search takes each step and follows its successor's line across the
 * classes it meets within the class's length: the abstract successors.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "ncsync_exec.h"
#include "ncsync_optab.h"

/* The variables: the registers of each slot, then the used semaphores. */
#define CK_VREGS	(CK_MAX_SLOTS * NCSYNC_NUM_REGS)
#define CK_NVARS	(CK_VREGS + CK_MAX_SEMS)
#define CK_NOVAR	0xFFFF

/* Farther than any class: the lines have period 2^32 at most. */
#define CK_FAR		CK_LINE_FAR

/* The classes one step may reach along its successor's line, at most. */
#define CK_ACCEL_MAX_SEGS	64

/*
 * A comparison the records make: L = coef[0] * I(var[0]) + coef[1] *
 * I(var[1]) + c, with I() the signed (@sgn) or unsigned view of a 32-bit
 * value; its outcome is L == 0 (@eq) or L < 0, inverted by @neg.
 */
struct ck_pred {
	uint16_t var[2];
	int8_t coef[2];
	bool sgn[2];
	bool eq;
	bool neg;
	int64_t c;
};

/* A variable as a comparison reads it: where it wraps depends on @sgn. */
struct ck_wvar {
	uint16_t var;
	bool sgn;
};

/* ck_accel.incompat[][]: the record's writes; the engine's position. */
#define CK_INCOMPAT	0x01
#define CK_BEFORE	0x02

/* The loop heads a search scans back at most, for one new head. */
#define CK_ACCEL_MAX_SCAN	4096

/*
 * A frame of the explicit search, for the detection: the shape hash of
 * the loop head it is (0: none), and the depth of the nearest loop head
 * below it (SIZE_MAX: none).
 */
struct ck_head {
	uint64_t h;
	size_t below;
};

struct ck_accel {
	/* Detection: per depth of the search's stack. */
	struct ck_head *heads;
	size_t nheads;
	/* The shift, once found. */
	bool on;
	unsigned int slot;
	uint32_t rec;
	uint32_t delta[CK_NVARS];
	/* Comparisons whose outcome moves along the lines, their outcome in
	 * the loop; and the variables whose wrap may change an outcome.
	 */
	struct ck_pred *preds;
	unsigned int npreds;
	uint8_t *ref;
	struct ck_wvar *wvars;
	unsigned int nwvars;
	/*
	 * Per slot and record: CK_INCOMPAT, it writes incompatibly with
	 * delta; CK_BEFORE, the engine there has not reached the loop yet
	 * and may still run such a record.
	 */
	uint8_t *incompat[CK_MAX_SLOTS];
	/* The loop head the shift was found at (the outcomes of @ref). */
	struct ck_state *head;
	const char *why;
};

static unsigned int ck_vsem(const struct ck_prog *cp, unsigned int core,
			    unsigned int index)
{
	return CK_VREGS + cp->sem_dense[CK_G(core, index)];
}

static uint32_t ck_get(const struct ck_prog *cp, const struct ck_state *st,
		       unsigned int v)
{
	unsigned int g;

	if (v < CK_VREGS)
		return st->eng[v / NCSYNC_NUM_REGS].regs[v % NCSYNC_NUM_REGS];
	g = cp->sem_used[v - CK_VREGS];
	return (uint32_t)st->bank[g / NCSYNC_NUM_SEMS]
			.sems[g % NCSYNC_NUM_SEMS];
}

static void ck_put(const struct ck_prog *cp, struct ck_state *st,
		   unsigned int v, uint32_t x)
{
	unsigned int g;

	if (v < CK_VREGS) {
		st->eng[v / NCSYNC_NUM_REGS].regs[v % NCSYNC_NUM_REGS] = x;
		return;
	}
	g = cp->sem_used[v - CK_VREGS];
	st->bank[g / NCSYNC_NUM_SEMS].sems[g % NCSYNC_NUM_SEMS] = (int32_t)x;
}

static unsigned int ck_nvars(const struct ck_prog *cp)
{
	return CK_VREGS + cp->nsem_used;
}

static bool ck_is_var(const struct ck_prog *cp, unsigned int v)
{
	return v < cp->n * NCSYNC_NUM_REGS ||
	       (v >= CK_VREGS && v < ck_nvars(cp));
}

struct ck_accel *ck_accel_new(void)
{
	return calloc(1, sizeof(struct ck_accel));
}

void ck_accel_free(struct ck_accel *a)
{
	unsigned int e;

	if (!a)
		return;
	for (e = 0; e < CK_MAX_SLOTS; e++)
		free(a->incompat[e]);
	free(a->heads);
	free(a->preds);
	free(a->ref);
	free(a->wvars);
	free(a->head);
	free(a);
}

bool ck_accel_on(const struct ck_accel *a)
{
	return a && a->on;
}

const char *ck_accel_why(const struct ck_accel *a)
{
	return a ? a->why : NULL;
}

void ck_accel_loop(const struct ck_accel *a, unsigned int *slot,
		   uint32_t *rec)
{
	*slot = a->slot;
	*rec = a->rec;
}

/**
 * ck_accel_moved() - what the shift of a loop moves, for the reduction on
 *	its classes (check_path.c, ck_path_cut()).
 * @a: the loop's shift, found (ck_accel_on()).
 * @cp: the program: its ck_prog.cls_regs, cls_delta and cls_sems are set.
 */
void ck_accel_moved(const struct ck_accel *a, struct ck_prog *cp)
{
	unsigned int e, r, i;

	for (e = 0; e < cp->n; e++) {
		cp->cls_regs[e] = 0;
		for (r = 0; r < NCSYNC_NUM_REGS; r++) {
			cp->cls_delta[e][r] = a->delta[e * NCSYNC_NUM_REGS + r];
			if (cp->cls_delta[e][r])
				cp->cls_regs[e] |= 1U << r;
		}
	}
	memset(cp->cls_sems, 0, sizeof(cp->cls_sems));
	for (i = 0; i < cp->nsem_used; i++)
		cp->cls_sems[cp->sem_used[i]] = a->delta[CK_VREGS + i] != 0;
}

void ck_accel_fail(struct ck_accel *a, const char *why)
{
	if (!a->why)
		a->why = why;
}

/* What of a state is not a value: positions, statuses, copies, events. */
static uint64_t ck_shape_hash(const struct ck_prog *cp,
			      const struct ck_state *st)
{
	uint64_t h = 0xCBF29CE484222325ULL;
	unsigned int i;

	for (i = 0; i < cp->n; i++) {
		const struct ck_eng *x = &st->eng[i];

		h = (h ^ ((uint64_t)x->pc << 32 | x->next)) * 0x100000001B3ULL;
		h = (h ^ ((uint64_t)x->sub << 24 | x->status << 16 |
			  x->ending << 8 | x->inflight)) * 0x100000001B3ULL;
	}
	for (i = 0; i < st->ncopies; i++)
		h = (h ^ ((uint64_t)st->copies[i].eng << 32 |
			  st->copies[i].rec)) * 0x100000001B3ULL;
	for (i = 0; i < cp->nev_used; i++) {
		unsigned int g = cp->ev_used[i];

		h = (h ^ (st->bank[g / NCSYNC_NUM_EVENTS]
				  .events[g % NCSYNC_NUM_EVENTS] + 2 * i)) *
		    0x100000001B3ULL;
	}
	return (h ^ st->ncopies) | 1;
}

bool ck_accel_same_shape(const struct ck_prog *cp, const struct ck_state *a,
			  const struct ck_state *b)
{
	unsigned int i;

	if (a->ncopies != b->ncopies)
		return false;
	for (i = 0; i < cp->n; i++) {
		const struct ck_eng *x = &a->eng[i], *y = &b->eng[i];

		if (x->pc != y->pc || x->next != y->next || x->sub != y->sub ||
		    x->status != y->status || x->ending != y->ending ||
		    x->inflight != y->inflight)
			return false;
	}
	for (i = 0; i < a->ncopies; i++)
		if (a->copies[i].eng != b->copies[i].eng ||
		    a->copies[i].rec != b->copies[i].rec)
			return false;
	for (i = 0; i < cp->nev_used; i++) {
		unsigned int g = cp->ev_used[i], c = g / NCSYNC_NUM_EVENTS;

		if (a->bank[c].events[g % NCSYNC_NUM_EVENTS] !=
		    b->bank[c].events[g % NCSYNC_NUM_EVENTS])
			return false;
	}
	return true;
}

static int32_t ck_sdelta(const struct ck_accel *a, unsigned int v)
{
	return v == CK_NOVAR ? 0 : (int32_t)a->delta[v];
}

/* L of @p in @st, and its change per position in direction @dir. */
static int64_t ck_pred_l(const struct ck_accel *a, const struct ck_prog *cp,
			 const struct ck_pred *p, const struct ck_state *st,
			 int dir, int64_t *m)
{
	int64_t l = p->c;
	unsigned int i;

	*m = 0;
	for (i = 0; i < 2; i++) {
		if (p->var[i] == CK_NOVAR)
			continue;
		l += p->coef[i] * ck_view(ck_get(cp, st, p->var[i]), p->sgn[i]);
		*m += (int64_t)dir * p->coef[i] * ck_sdelta(a, p->var[i]);
	}
	return l;
}

static bool ck_pred_value(const struct ck_accel *a, const struct ck_prog *cp,
			  const struct ck_pred *p, const struct ck_state *st)
{
	int64_t m, l = ck_pred_l(a, cp, p, st, 1, &m);

	return (p->eq ? l == 0 : l < 0) != p->neg;
}

static bool ck_pred_same(const struct ck_pred *p, const struct ck_pred *q)
{
	return p->var[0] == q->var[0] && p->var[1] == q->var[1] &&
	       p->coef[0] == q->coef[0] && p->coef[1] == q->coef[1] &&
	       p->sgn[0] == q->sgn[0] && p->sgn[1] == q->sgn[1] &&
	       p->eq == q->eq && p->neg == q->neg && p->c == q->c;
}

/* Whether an engine or a copy of @st is at a record incompatible. */
static bool ck_at_incompat(const struct ck_accel *a, const struct ck_prog *cp,
			   const struct ck_state *st)
{
	unsigned int i;

	for (i = 0; i < cp->n; i++)
		if (!ck_ended(st, i) && a->incompat[i][st->eng[i].pc])
			return true;
	for (i = 0; i < st->ncopies; i++)
		if (a->incompat[st->copies[i].eng][st->copies[i].rec] &
		    CK_INCOMPAT)
			return true;
	return false;
}

static int64_t ck_min(int64_t a, int64_t b)
{
	return a < b ? a : b;
}

/*
 * min(@best, ck_cross_dist()), without its division when L cannot reach
 * zero within @best - 1 positions (the common case: most comparisons are
 * far from changing).
 */
static int64_t ck_cross_min(bool eq, int64_t l, int64_t m, int64_t best)
{
	__int128 reach = (__int128)(best - 1) * (m < 0 ? -m : m);

	if (!m || (l < 0 ? -(__int128)l : l) > reach)
		return best;
	return ck_min(best, ck_cross_dist(eq, l, m));
}

/*
 * The class of @st: how many positions it reaches back (*@back) and on
 * (*@on) from @st; both 0 when @st is a class of its own (see the file's
 * comment).  False when a line is not cut at all.
 */
static bool ck_class(struct ck_accel *a, const struct ck_prog *cp,
		     const struct ck_state *st, int64_t *back, int64_t *on)
{
	int64_t b = CK_FAR, f = CK_FAR, m, l;
	unsigned int i;

	*back = *on = 0;
	if (ck_at_incompat(a, cp, st))
		return true;
	for (i = 0; i < a->nwvars; i++) {
		const struct ck_wvar *w = &a->wvars[i];
		uint32_t x = ck_get(cp, st, w->var);
		int64_t d = ck_sdelta(a, w->var);

		f = ck_min(f, ck_wrap_dist(x, w->sgn, d));
		b = ck_min(b, ck_wrap_dist(x, w->sgn, -d));
	}
	for (i = 0; i < a->npreds; i++) {
		const struct ck_pred *p = &a->preds[i];

		l = ck_pred_l(a, cp, p, st, 1, &m);
		if (((p->eq ? l == 0 : l < 0) != p->neg) != a->ref[i]) {
			*back = *on = 0;
			return true;
		}
		f = ck_cross_min(p->eq, l, m, f);
		b = ck_cross_min(p->eq, l, -m, b);
	}
	if (f >= CK_FAR || b >= CK_FAR) {
		ck_accel_fail(a, "a counter that no comparison reads");
		return false;
	}
	*back = b - 1;
	*on = f - 1;
	return true;
}

static void ck_shift(const struct ck_accel *a, const struct ck_prog *cp,
		     struct ck_state *st, int64_t k)
{
	unsigned int v, n = ck_nvars(cp);
	uint32_t add;

	for (v = 0; v < n; v++) {
		if (!a->delta[v] || !ck_is_var(cp, v))
			continue;
		add = (uint32_t)((uint64_t)k * a->delta[v]);
		ck_put(cp, st, v, ck_get(cp, st, v) + add);
	}
}

uint64_t ck_accel_canon(struct ck_accel *a, const struct ck_prog *cp,
			struct ck_state *st)
{
	int64_t back, on;

	if (!ck_class(a, cp, st, &back, &on))
		return 0;
	if (back)
		ck_shift(a, cp, st, -back);
	return back + on;
}

int ck_accel_segment(struct ck_accel *a, const struct ck_prog *cp,
		     struct ck_state *t, uint64_t seg, uint64_t hi,
		     uint64_t *next, unsigned int *nseg, uint64_t *thi)
{
	int64_t back, on;

	if (seg)
		ck_shift(a, cp, t, (int64_t)seg);
	if (!ck_class(a, cp, t, &back, &on))
		return -E2BIG;
	*next = seg + on + 1 <= hi ? seg + on + 1 : 0;
	if (*next && ++*nseg > CK_ACCEL_MAX_SEGS) {
		ck_accel_fail(a, "a step that reaches too many classes");
		return -E2BIG;
	}
	if (back)
		ck_shift(a, cp, t, -back);
	*thi = back + on;
	return 0;
}

/* The predicates of the records, built once the shift is known. */
struct ck_pbuild {
	struct ck_accel *a;
	const struct ck_prog *cp;
	struct ck_pred *all;
	unsigned int n, cap;
	int ret;
};

static void ck_pred_add(struct ck_pbuild *b, const struct ck_pred *p)
{
	struct ck_pred *all;

	if (b->ret)
		return;
	if (b->n == b->cap) {
		b->cap = b->cap ? 2 * b->cap : 256;
		all = realloc(b->all, b->cap * sizeof(*all));
		if (!all) {
			b->ret = -ENOMEM;
			return;
		}
		b->all = all;
	}
	b->all[b->n++] = *p;
}

/*
 * Comparison @cmp (NCSYNC_BR_* without NCSYNC_BR_REG) of I(@x) with I(@y)
 * (CK_NOVAR: the constant @k).
 */
static void ck_pred_cmp(struct ck_pbuild *b, unsigned int x, unsigned int y,
			int64_t k, bool sgn, unsigned int cmp)
{
	struct ck_pred p = {
		.var = { x, y }, .coef = { 1, -1 }, .sgn = { sgn, sgn },
		.c = y == CK_NOVAR ? -k : 0,
	};

	ck_cmp_shape(cmp, &p.c, &p.eq, &p.neg);
	ck_pred_add(b, &p);
}

static unsigned int ck_wait_cmp(uint8_t cmp)
{
	switch (cmp) {
	case NCSYNC_CMP_EQ:
		return NCSYNC_BR_EQ;
	case NCSYNC_CMP_LT:
		return NCSYNC_BR_LT;
	case NCSYNC_CMP_LE:
		return NCSYNC_BR_LE;
	case NCSYNC_CMP_GT:
		return NCSYNC_BR_GT;
	default:
		return NCSYNC_BR_GE;
	}
}

/*
 * The overflow of update @u of semaphore variable @s: old +- (s32)operand
 * above INT32_MAX or below INT32_MIN; the operand is register variable
 * @r, or the immediate when @r is CK_NOVAR.
 */
static void ck_pred_ovf(struct ck_pbuild *b, const struct ncsync_update_op *u,
			unsigned int s, unsigned int r)
{
	int8_t sign = u->op == NCSYNC_SEM_UPD_ADD ? 1 : -1;
	int64_t k = r == CK_NOVAR ? sign * (int64_t)(int32_t)u->operand : 0;
	struct ck_pred hi = {
		.var = { s, r }, .coef = { -1, -sign }, .sgn = { true, true },
		.c = INT32_MAX - k,
	}, lo = {
		.var = { s, r }, .coef = { 1, sign }, .sgn = { true, true },
		.c = k - (int64_t)INT32_MIN,
	};

	if (u->op == NCSYNC_SEM_UPD_SET)
		return;
	ck_pred_add(b, &hi);
	ck_pred_add(b, &lo);
}

static void ck_pred_lane(struct ck_pbuild *b, unsigned int e,
			 const struct ncsync_insn *in,
			 const struct ncsync_lane *ln)
{
	const struct ck_prog *cp = b->cp;
	unsigned int c = cp->core[e], reg = e * NCSYNC_NUM_REGS;
	const struct ncsync_update_op *u = &ln->upd;

	if (ln->wait.active && ln->wait.bank == NCSYNC_BANK_SEM)
		ck_pred_cmp(b, ck_vsem(cp, c, ln->wait.index),
			    ln->wait.reg ? reg + ln->wait.value : CK_NOVAR,
			    (int32_t)ln->wait.value, true,
			    ck_wait_cmp(ln->wait.cmp));
	if (!u->active || u->bank != NCSYNC_BANK_SEM)
		return;
	if (u->on_land)
		ck_pred_ovf(b, u, ck_vsem(cp, ck_land_core(cp, e, in),
					  u->index), CK_NOVAR);
	else
		ck_pred_ovf(b, u, ck_vsem(cp, c, u->index),
			    u->reg ? reg + u->operand : CK_NOVAR);
}

static void ck_pred_insn(struct ck_pbuild *b, unsigned int e,
			 const struct ncsync_insn *in)
{
	unsigned int l, reg = e * NCSYNC_NUM_REGS, cmp;

	for (l = 0; l < in->nlanes; l++)
		ck_pred_lane(b, e, in, &in->lane[l]);
	if (!ncsync_op_has(in->opcode, NCSYNC_OPF_FLOW) ||
	    in->br.comp == NCSYNC_BR_ALWAYS)
		return;
	cmp = in->br.comp & ~NCSYNC_BR_REG;
	ck_pred_cmp(b, reg + in->br.lhs,
		    in->br.comp & NCSYNC_BR_REG ? reg + in->br.rhs : CK_NOVAR,
		    in->br.dtype == NCSYNC_DTYPE_S32 ? (int64_t)(int32_t)
			in->br.imm : (int64_t)in->br.imm,
		    in->br.dtype == NCSYNC_DTYPE_S32, cmp);
}

static int ck_wvar_add(struct ck_accel *a, unsigned int v, bool sgn)
{
	unsigned int i;

	if (v == CK_NOVAR || !a->delta[v])
		return 0;
	for (i = 0; i < a->nwvars; i++)
		if (a->wvars[i].var == v && a->wvars[i].sgn == sgn)
			return 0;
	a->wvars[a->nwvars++] = (struct ck_wvar){ .var = v, .sgn = sgn };
	return 0;
}

/*
 * Keep of @b's predicates those the shift moves: their variables' wraps
 * go to a->wvars, and those whose L moves with it to a->preds, with their
 * outcome in @st.
 */
static int ck_pred_keep(struct ck_pbuild *b, const struct ck_state *st)
{
	struct ck_accel *a = b->a;
	unsigned int i, k;
	int64_t m;

	a->preds = calloc(b->n + 1, sizeof(*a->preds));
	a->ref = calloc(b->n + 1, 1);
	a->wvars = calloc(2 * b->n + 1, sizeof(*a->wvars));
	if (!a->preds || !a->ref || !a->wvars)
		return -ENOMEM;
	for (i = 0; i < b->n; i++) {
		const struct ck_pred *p = &b->all[i];

		for (k = 0; k < 2; k++)
			ck_wvar_add(a, p->var[k], p->sgn[k]);
		ck_pred_l(a, b->cp, p, st, 1, &m);
		for (k = 0; k < a->npreds && !ck_pred_same(p, &a->preds[k]);
		     k++)
			;
		if (!m || k < a->npreds)
			continue;
		a->ref[a->npreds] = ck_pred_value(a, b->cp, p, st);
		a->preds[a->npreds++] = *p;
	}
	return 0;
}

static int ck_preds_init(struct ck_accel *a, const struct ck_prog *cp,
			 const struct ck_state *st)
{
	struct ck_pbuild b = { .a = a, .cp = cp };
	unsigned int e;
	uint32_t i;

	for (e = 0; e < cp->n; e++)
		for (i = 0; i < cp->count[e]; i++)
			ck_pred_insn(&b, e, &cp->insns[e][i]);
	if (!b.ret)
		b.ret = ck_pred_keep(&b, st);
	free(b.all);
	return b.ret;
}

/* Whether update @u of slot @e (core @c) keeps the shift. */
static bool ck_upd_ok(const struct ck_accel *a, const struct ck_prog *cp,
		      unsigned int e, unsigned int c,
		      const struct ncsync_update_op *u)
{
	uint32_t ds, dr;

	if (!u->active || u->bank != NCSYNC_BANK_SEM)
		return true;
	ds = a->delta[ck_vsem(cp, c, u->index)];
	dr = u->reg && !u->on_land ?
	     a->delta[e * NCSYNC_NUM_REGS + u->operand] : 0;
	if (u->op == NCSYNC_SEM_UPD_SET)
		return ds == dr;
	return !dr;
}

/*
 * Whether the op's own effect keeps the shift: Mov32 by its ALU operation;
 * an op that reads or writes semaphores (the opcode table's footprint)
 * when none of them, and no register it loads from them, is shifted.
 */
static bool ck_op_ok(const struct ck_accel *a, const struct ck_prog *cp,
		     unsigned int e, const struct ncsync_insn *in)
{
	const uint32_t *d = a->delta + e * NCSYNC_NUM_REGS;
	unsigned int c = cp->core[e], i;
	struct ncsync_footprint fp;

	if (ncsync_op(in->opcode)->effect == NCSYNC_EFF_MOV)
		return ck_line_mov_ok(d, in);
	if (!ncsync_op_has(in->opcode, NCSYNC_OPF_SEM_READ |
				       NCSYNC_OPF_SEM_WRITE))
		return true;
	ncsync_op_footprint(in, &fp);
	for (i = 0; i < NCSYNC_NUM_SEMS; i++)
		if ((ncsync_footprint_sem(fp.sem_read, i) ||
		     ncsync_footprint_sem(fp.sem_write, i)) &&
		    cp->sem_dense[CK_G(c, i)] != 0xFFFF &&
		    a->delta[ck_vsem(cp, c, i)])
			return false;
	for (i = 0; i < NCSYNC_NUM_REGS; i++)
		if ((fp.reg_write & (1U << i)) && d[i])
			return false;
	return true;
}

static bool ck_insn_ok(const struct ck_accel *a, const struct ck_prog *cp,
		       unsigned int e, const struct ncsync_insn *in)
{
	unsigned int c = cp->core[e], l;

	for (l = 0; l < in->nlanes; l++)
		if (!ck_upd_ok(a, cp, e, in->lane[l].upd.on_land ?
				   ck_land_core(cp, e, in) : c,
			       &in->lane[l].upd))
			return false;
	return ck_op_ok(a, cp, e, in);
}

/*
 * Mark CK_BEFORE the records of slot @e its position at the loop's head
 * does not reach (below its static future, ck_prog.reach) from which an
 * incompatible record may be run.
 */
static void ck_before_init(struct ck_accel *a, const struct ck_prog *cp,
			   unsigned int e)
{
	uint32_t n = cp->count[e], from, i, last = 0;
	uint8_t *m = a->incompat[e];
	bool any = false;

	if (ck_ended(a->head, e))
		return;
	from = cp->reach[e][a->head->eng[e].pc];
	for (i = n; i-- > 0;) {
		if (m[i] & CK_INCOMPAT) {
			any = true;
			last = i;
			break;
		}
	}
	for (i = 0; any && i < from; i++)
		if (cp->reach[e][i] <= last)
			m[i] |= CK_BEFORE;
}

static int ck_incompat_init(struct ck_accel *a, const struct ck_prog *cp)
{
	unsigned int e;
	uint32_t i;

	for (e = 0; e < cp->n; e++) {
		a->incompat[e] = calloc(cp->count[e] + 1, 1);
		if (!a->incompat[e])
			return -ENOMEM;
		for (i = 0; i < cp->count[e]; i++)
			a->incompat[e][i] = !ck_insn_ok(a, cp, e,
							&cp->insns[e][i]);
		ck_before_init(a, cp, e);
	}
	return 0;
}

/* The shift from @from to @to, and what the abstract search needs of it. */
static int ck_accel_setup(struct ck_accel *a, const struct ck_prog *cp,
			  const struct ck_state *from,
			  const struct ck_state *to)
{
	unsigned int v, n = ck_nvars(cp);
	bool any = false;
	int ret;

	memset(a->delta, 0, sizeof(a->delta));
	for (v = 0; v < n; v++) {
		if (!ck_is_var(cp, v))
			continue;
		a->delta[v] = ck_get(cp, to, v) - ck_get(cp, from, v);
		any |= a->delta[v] != 0;
	}
	if (!any)
		return 0;
	a->head = malloc(sizeof(*a->head));
	if (!a->head)
		return -ENOMEM;
	ck_state_copy(cp, a->head, to);
	ret = ck_preds_init(a, cp, to);
	if (!ret)
		ret = ck_incompat_init(a, cp);
	a->on = !ret;
	return ret;
}

/* @p with the registers of slot @x read as those of slot @y. */
static struct ck_pred ck_pred_rename(const struct ck_pred *p, unsigned int x,
				     unsigned int y)
{
	struct ck_pred q = *p;
	unsigned int k;

	for (k = 0; k < 2; k++)
		if (q.var[k] < CK_VREGS && q.var[k] / NCSYNC_NUM_REGS == x)
			q.var[k] = y * NCSYNC_NUM_REGS +
				   q.var[k] % NCSYNC_NUM_REGS;
	return q;
}

struct ck_twins {
	const struct ck_accel *a;
	const struct ck_prog *cp;
};

/*
 * Whether exchanging slots @x and @y (one core, the same records) maps the
 * classes to the classes: each register is shifted alike in both, each
 * record is incompatible, or before the loop (CK_BEFORE), in both, and each
 * comparison that moves with the passes has, at the loop's head, the
 * outcome its twin has (the cut of a class whose outcome differs from the
 * head's).  The comparisons of @y are those of @x renamed (the same
 * records), so one direction covers both.
 */
static bool ck_accel_twins(const void *arg, unsigned int x, unsigned int y)
{
	const struct ck_twins *t = arg;
	const struct ck_accel *a = t->a;
	unsigned int i, k;

	if (memcmp(a->delta + x * NCSYNC_NUM_REGS,
		   a->delta + y * NCSYNC_NUM_REGS,
		   NCSYNC_NUM_REGS * sizeof(a->delta[0])) ||
	    memcmp(a->incompat[x], a->incompat[y], t->cp->count[x]))
		return false;
	for (i = 0; i < a->npreds; i++) {
		const struct ck_pred *p = &a->preds[i];
		struct ck_pred q;

		for (k = 0; k < 2; k++)
			if (p->var[k] < CK_VREGS &&
			    p->var[k] / NCSYNC_NUM_REGS == x)
				break;
		if (k == 2)
			continue;
		q = ck_pred_rename(p, x, y);
		if (ck_pred_value(a, t->cp, &q, a->head) != a->ref[i])
			return false;
	}
	return true;
}

/**
 * ck_accel_sym() - the symmetry of the search on the classes of a loop.
 * @a: the loop's shift, found (ck_accel_on()).
 * @cp: the decoded program.
 * @in: the classes of interchangeable slots of @cp (ck_sym_init()).
 * @out: those of their slots whose exchange maps classes to classes
 *	(Documentation/ncsync/check.rst, "Symmetry", "On the classes of a
 *	loop").
 */
void ck_accel_sym(const struct ck_accel *a, const struct ck_prog *cp,
		  const struct ck_sym *in, struct ck_sym *out)
{
	struct ck_twins t = { .a = a, .cp = cp };

	ck_sym_refine(out, in, ck_accel_twins, &t);
}

/* Whether step @s from @from is a taken branch back. */
static bool ck_back_branch(const struct ck_prog *cp,
			   const struct ck_state *from, struct ck_step s,
			   const struct ck_state *to)
{
	const struct ck_eng *x = &from->eng[s.idx];
	const struct ncsync_insn *in;

	if (s.land || x->status != CK_RUNNING || x->sub != CK_SUB_EFFECT)
		return false;
	in = ck_insn(cp, from, s.idx);
	return ncsync_op_has(in->opcode, NCSYNC_OPF_FLOW) &&
	       in->br.target <= x->pc &&
	       to->eng[s.idx].status == CK_RUNNING &&
	       to->eng[s.idx].pc == in->br.target;
}

int ck_accel_note(struct ck_accel *a, const struct ck_prog *cp, size_t depth,
		  const struct ck_state *from, struct ck_step s,
		  const struct ck_state *to, ck_accel_at_fn *at, void *arg)
{
	struct ck_head *heads, *below;
	unsigned int scanned = 0;
	uint64_t h = 0;
	size_t d;

	if (depth >= a->nheads) {
		size_t n = a->nheads ? 2 * a->nheads : 1024;

		while (n <= depth)
			n *= 2;
		heads = realloc(a->heads, n * sizeof(*heads));
		if (!heads)
			return -ENOMEM;
		for (d = a->nheads; d < n; d++)
			heads[d] = (struct ck_head){ .below = SIZE_MAX };
		a->heads = heads;
		a->nheads = n;
	}
	if (ck_back_branch(cp, from, s, to))
		h = ck_shape_hash(cp, to);
	below = depth ? &a->heads[depth - 1] : NULL;
	a->heads[depth] = (struct ck_head){ .h = h, .below = SIZE_MAX };
	if (below)
		a->heads[depth].below = below->h ? depth - 1 : below->below;
	for (d = a->heads[depth].below; h && d != SIZE_MAX &&
	     scanned++ < CK_ACCEL_MAX_SCAN; d = a->heads[d].below) {
		const struct ck_state *anc;

		if (a->heads[d].h != h)
			continue;
		anc = at(arg, d);
		if (!ck_accel_same_shape(cp, anc, to))
			continue;
		a->slot = s.idx;
		a->rec = from->eng[s.idx].pc;
		return ck_accel_setup(a, cp, anc, to);
	}
	return 0;
}
