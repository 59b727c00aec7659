// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * libncsync: ncsync_check(), the exhaustive exploration of a program's
 * schedules (Documentation/ncsync/check.rst).
 *
 * A depth-first search over the steps of the host executor (check_exec.c)
 * from the initial state.  Every state reached is hashed (128 bits) into a
 * visited set; a state seen before is not explored again.  The reduction:
 * from a state, the steps of a persistent set (check_stub.c: the next
 * steps of a group of actors that commute with every step the others may
 * take first) are explored, the smallest one none of whose successors is
 * on the search's stack (the cycle proviso); with none, every enabled step.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "ncsync_optab.h"
#include "text.h"

/*
 * A frame of the search: the step to it, its steps to explore, a state.
 * Frames are ck_run.fsize bytes apart: only the cores a check follows
 * are kept of @st.
 */
struct ck_frame {
	struct ncsync_check_step via;
	uint8_t nsteps;
	uint8_t next;
	struct ck_step steps[CK_MAX_SLOTS + CK_MAX_COPIES];
	/*
	 * Loop acceleration: the step to the frame (replayed to check a
	 * defect), how far its class reaches, the next class the step at
	 * @next leads to, and the classes it led to so far.
	 */
	struct ck_step in;
	uint64_t hi;
	uint64_t seg;
	unsigned int nseg;
	uint64_t h[2];
	struct ck_state st;	/* last */
};

/* One search. */
struct ck_run {
	struct ck_prog cp;
	const struct ncsync_check_opts *opts;
	bool full;
	bool limited;
	enum ncsync_check_limit limit;	/* the first that ended it */
	size_t mem_max;		/* bytes of visited set and frames, at most */
	int err;		/* -ENOMEM: ends the search, never "safe" */
	struct ck_finals *finals;
	struct ck_visited seen;
	struct ck_frame *frames;
	size_t fsize;
	size_t depth;
	size_t cap;
	uint8_t *unposted;	/* per slot and record: 0 unknown, 1 no, 2 yes */
	struct ck_values vals;	/* values taken, waits blocked */
	bool rerun;		/* searching again to report vals.unposted */
	uint32_t unposted_off[CK_MAX_SLOTS];
	int64_t deadline_ns;
	struct ncsync_check_result *res;
	/*
	 * Loop acceleration (check_accel.c): its state, whether the search
	 * runs on its classes, whether it stopped to change mode, and the
	 * state a replayed defect reaches.
	 */
	struct ck_accel *accel;
	bool abstract;
	bool stop;
	struct ck_state *conc;
	uint64_t class_states;	/* the search on the classes explored */
	/*
	 * Symmetry (check_sym.c): the classes, whether the search uses them,
	 * and those that stay on the classes of a loop (ck_accel_sym()).
	 */
	struct ck_sym sym;
	bool sym_on;
	struct ck_sym asym;
	struct ck_stub *stub;	/* the persistent sets' room (check_stub.c) */
};

/* Limit @l ends the search; the first one hit is the one reported. */
static void ck_limit(struct ck_run *r, enum ncsync_check_limit l)
{
	if (!r->limited)
		r->limit = l;
	r->limited = true;
}

/* The bytes the visited set and the frames take now. */
static size_t ck_mem(const struct ck_run *r)
{
	return r->seen.cap * 2 * sizeof(uint64_t) + r->cap * r->fsize +
	       ck_values_mem(&r->vals);
}

static int64_t ck_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int ck_seen_h(struct ck_run *r, const struct ck_state *st, bool add,
		     uint64_t h[2])
{
	/* On the classes of a loop, its twins alike on them (ck_accel_sym()). */
	ck_sym_hash(&r->cp, !r->sym_on ? NULL : r->abstract ? &r->asym :
		    &r->sym, st, h);
	return ck_visited_find(&r->seen, h, add, r->mem_max - ck_mem(r));
}

static int ck_seen(struct ck_run *r, const struct ck_state *st, bool add)
{
	uint64_t h[2];

	return ck_seen_h(r, st, add, h);
}

static struct ck_frame *ck_frame_at(const struct ck_run *r, size_t depth)
{
	return (struct ck_frame *)((char *)r->frames + depth * r->fsize);
}

/*
 * The frame of depth r->depth, made room for: the stack doubles, or grows
 * to what r->mem_max leaves, counting the old stack, which realloc() may
 * hold next to the new one.  NULL when out of memory, or (r->limited) out
 * of the budget.
 */
static struct ck_frame *ck_frame_new(struct ck_run *r)
{
	struct ck_frame *f;

	if (r->depth == r->cap) {
		size_t avail = (r->mem_max - ck_mem(r)) / r->fsize;
		size_t cap = r->cap ? r->cap * 2 : 256;

		if (cap > avail)
			cap = avail;
		if (cap <= r->cap) {
			ck_limit(r, NCSYNC_CHECK_LIMIT_MEMORY);
			return NULL;
		}
		f = realloc(r->frames, cap * r->fsize);
		if (!f)
			return NULL;
		r->frames = f;
		r->cap = cap;
	}
	return ck_frame_at(r, r->depth);
}

/*
 * Whether every state step @s leads to from frame @f is new: one, or with
 * loop acceleration one per class it meets.
 */
static bool ck_succ_new(struct ck_run *r, const struct ck_frame *f,
			struct ck_step s)
{
	uint64_t seg = 0, next = 0, hi;
	struct ck_effects fx;
	unsigned int nseg = 0;
	struct ck_state t;

	do {
		ck_state_copy(&r->cp, &t, &f->st);
		ck_apply(&r->cp, &t, s, &fx);
		if (r->abstract && ck_accel_segment(r->accel, &r->cp, &t, seg,
						    f->hi, &next, &nseg, &hi)) {
			r->stop = true;
			return false;
		}
		if (ck_seen(r, &t, false) == 2)
			return false;
		seg = next;
	} while (seg);
	return true;
}

/* The frame whose steps are chosen, for ck_fresh(). */
struct ck_fresh_arg {
	struct ck_run *r;
	const struct ck_frame *f;
};

/* Whether step @s of the frame leads to new states only (ck_succ_new()). */
static bool ck_fresh(void *arg, struct ck_step s)
{
	struct ck_fresh_arg *a = arg;

	return ck_succ_new(a->r, a->f, s);
}

/*
 * The steps to explore from frame @f: a persistent set whose successors
 * are new, or every enabled step.  Return how many.
 */
static unsigned int ck_frame_steps(struct ck_run *r, struct ck_frame *f)
{
	struct ck_step all[CK_MAX_SLOTS + CK_MAX_COPIES];
	unsigned int n = ck_enabled(&r->cp, &f->st, all);
	struct ck_fresh_arg a = { r, f };

	f->nsteps = 0;
	if (!r->full && n > 1) {
		r->cp.cls_hi = f->hi;
		ck_stub_init(r->stub, &r->cp, &f->st, all, n);
		f->nsteps = ck_stub_choose(r->stub, ck_fresh, &a, f->steps);
	}
	if (f->nsteps)
		return f->nsteps;
	memcpy(f->steps, all, n * sizeof(all[0]));
	return f->nsteps = n;
}

static bool ck_accel_real(struct ck_run *r, unsigned int kind,
			  unsigned int e);

/* The state a defect reports: with loop acceleration, the replayed one. */
static const struct ck_state *ck_defect_state(const struct ck_run *r,
					      const struct ck_state *st)
{
	return r->abstract ? r->conc : st;
}

/*
 * A defect of @kind of slot @e at the top frame, reached by its frames'
 * steps: keep it unless one of the kind with a schedule as short is kept.
 * The returned defect is new and has its schedule, engine and states;
 * NULL otherwise.  Out of memory, the defect cannot be kept: r->err ends
 * the search with -ENOMEM (a search that dropped it could end "safe").
 */
static struct ncsync_check_defect *ck_report(struct ck_run *r,
					     unsigned int kind, unsigned int e)
{
	struct ncsync_check_defect **slot = &r->res->defects[kind], *d;
	const struct ck_frame *top = ck_frame_at(r, r->depth);
	struct ncsync_check_step *steps;
	struct ncsync_check_core *cores;
	size_t i, n = r->depth;

	if (*slot && (*slot)->nsteps <= n)
		return NULL;
	if (r->abstract && !ck_accel_real(r, kind, e))
		return NULL;
	d = calloc(1, sizeof(*d));
	steps = calloc(n ? n : 1, sizeof(*steps));
	cores = calloc(r->cp.ncores, sizeof(*cores));
	if (!d || !steps || !cores) {
		free(d);
		free(steps);
		free(cores);
		r->err = -ENOMEM;
		return NULL;
	}
	for (i = 0; i < n; i++)
		steps[i] = ck_frame_at(r, i + 1)->via;
	d->kind = kind;
	d->nsteps = n;
	d->steps = steps;
	d->engine = r->cp.engine[e];
	d->core = r->cp.pos[r->cp.core[e]];
	d->ncores = r->cp.ncores;
	d->cores = cores;
	ck_snapshot_cores(&r->cp, ck_defect_state(r, &top->st), cores);
	d->state = cores[r->cp.core[e]].state;
	ck_defect_free(*slot);
	*slot = d;
	return d;
}

/* A defect a step of slot @e (the one to the top frame) did. */
static void ck_step_defects(struct ck_run *r, const struct ck_effects *fx,
			    unsigned int e)
{
	const struct ncsync_check_step *via = &ck_frame_at(r, r->depth)->via;
	static const unsigned int kinds[] = {
		NCSYNC_DEFECT_EVENT, NCSYNC_DEFECT_OVERFLOW,
		NCSYNC_DEFECT_DMA_RACE,
	};
	const bool hit[] = { fx->event, fx->overflow, fx->race };
	struct ncsync_check_defect *d;
	unsigned int k;

	for (k = 0; k < ARRAY_SIZE(kinds); k++) {
		if (!hit[k])
			continue;
		d = ck_report(r, kinds[k], e);
		if (!d)
			continue;
		d->record = via->record;
		if (kinds[k] == NCSYNC_DEFECT_DMA_RACE)
			ck_copy_out(&r->cp, &fx->race_with, &d->other);
	}
	if (fx->full)
		ck_limit(r, NCSYNC_CHECK_LIMIT_COPIES);
}

/* Whether wait @w of slot @e waits on what a barrier lowering owns. */
static bool ck_barrier_wait(const struct ck_run *r, unsigned int e,
			    const struct ncsync_wait_op *w)
{
	const struct ncsync_program *p = r->cp.prog[r->cp.core[e]];

	return w->bank == NCSYNC_BANK_SEM ? p->res_sems[w->index] :
					    p->res_events[w->index];
}

/*
 * Whether anything in the program could ever post wait @w of slot @e: the
 * other engines of its core, and the landings of every copy that lands
 * on its core (its own copies' too: they land while it waits).
 */
static bool ck_postable(const struct ck_run *r, unsigned int e,
			const struct ncsync_wait_op *w)
{
	const struct ck_prog *cp = &r->cp;
	unsigned int j;
	uint32_t i;

	for (j = 0; j < cp->n; j++) {
		bool local = cp->core[j] == cp->core[e] && j != e;

		for (i = 0; i < cp->count[j]; i++) {
			const struct ncsync_insn *in = &cp->insns[j][i];
			bool land = ncsync_op_has(in->opcode,
						  NCSYNC_OPF_DMA) &&
				    ck_land_core(cp, j, in) == cp->core[e];

			if ((local || land) &&
			    ncsync_dl_insn_can_post(in, w, local, land))
				return true;
		}
	}
	return false;
}

/* Cached per record and lane: whether its wait can ever be posted. */
static bool ck_unposted(struct ck_run *r, unsigned int e,
			const struct ck_state *st)
{
	const struct ck_eng *x = &st->eng[e];
	uint8_t *c = &r->unposted[r->unposted_off[e] + 2 * x->pc + x->sub];
	const struct ncsync_lane *l = ck_wait_at(&r->cp, st, e);

	if (!*c)
		*c = ck_barrier_wait(r, e, &l->wait) ||
		     ck_postable(r, e, &l->wait) ? 1 : 2;
	return *c == 2;
}

/*
 * Whether the wait slot @e blocks in, in @st, is unposted: no poster (the
 * static test), or, in the search run again, no value the search reached
 * passes it (r->vals.unposted).  Otherwise, in the first search, note it
 * among the blocked waits.
 */
static bool ck_blocked_unposted(struct ck_run *r, const struct ck_state *st,
				unsigned int e)
{
	const struct ncsync_lane *l;
	int ret;

	if (ck_unposted(r, e, st))
		return true;
	l = ck_wait_at(&r->cp, st, e);
	if (ck_barrier_wait(r, e, &l->wait))
		return false;
	if (r->rerun)
		return ck_values_unposted(&r->vals, &r->cp, st, e);
	ret = ck_values_blocked(&r->vals, &r->cp, st, e,
				r->mem_max - ck_mem(r));
	if (ret == -ENOSPC)
		ck_limit(r, NCSYNC_CHECK_LIMIT_MEMORY);
	else if (ret)
		r->err = ret;
	return false;
}

/* Blocked waits nothing can post, in the state of the top frame. */
static void ck_state_defects(struct ck_run *r)
{
	const struct ck_state *st = &ck_frame_at(r, r->depth)->st;
	struct ncsync_check_defect *d;
	unsigned int e;

	for (e = 0; e < r->cp.n; e++) {
		struct ck_step s = { .idx = e };

		if (!ck_wait_at(&r->cp, st, e) ||
		    ck_step_enabled(&r->cp, st, s) ||
		    !ck_blocked_unposted(r, st, e))
			continue;
		d = ck_report(r, NCSYNC_DEFECT_UNPOSTED_WAIT, e);
		if (d)
			d->record = st->eng[e].pc;
		if (d && r->rerun &&
		    ck_values_of(&r->vals, &r->cp, st, e,
				 (int32_t **)&d->values, &d->nvalues))
			r->err = -ENOMEM;
	}
}

/* Note the values of the new state @st, reached from @parent (or NULL). */
static void ck_note_values(struct ck_run *r, const struct ck_state *st,
			   const struct ck_state *parent)
{
	int ret;

	if (r->rerun)
		return;
	ret = ck_values_state(&r->vals, &r->cp, st, parent,
			      r->mem_max - ck_mem(r));
	if (ret == -ENOSPC)
		ck_limit(r, NCSYNC_CHECK_LIMIT_MEMORY);
	else if (ret)
		r->err = ret;
}

/*
 * A state without a step: a deadlock unless every engine ended; also a
 * barrier imbalance when an engine waits in a barrier and every other has
 * ended or waits in a barrier too.
 */
static void ck_terminal(struct ck_run *r)
{
	const struct ck_state *st = &ck_frame_at(r, r->depth)->st;
	int first = -1, barrier = -1, other = 0;
	struct ncsync_check_defect *d;
	unsigned int e;

	for (e = 0; e < r->cp.n; e++) {
		const struct ncsync_lane *l = ck_wait_at(&r->cp, st, e);

		if (ck_ended(st, e))
			continue;
		if (first < 0)
			first = e;
		if (l && ck_barrier_wait(r, e, &l->wait))
			barrier = barrier < 0 ? (int)e : barrier;
		else
			other++;
	}
	if (first < 0)
		return;
	d = ck_report(r, NCSYNC_DEFECT_DEADLOCK, first);
	if (d && ck_deadlock_of(&r->cp, ck_defect_state(r, st), first, d))
		r->err = -ENOMEM;
	if (barrier >= 0 && !other) {
		d = ck_report(r, NCSYNC_DEFECT_BARRIER_IMBALANCE, barrier);
		if (d && ck_deadlock_of(&r->cp, ck_defect_state(r, st),
					barrier, d))
			r->err = -ENOMEM;
	}
}

/*
 * Whether a defect of @kind of slot @e holds in state @st, reached by a
 * step that did @fx.
 */
static bool ck_kind_holds(struct ck_run *r, unsigned int kind, unsigned int e,
			  const struct ck_state *st,
			  const struct ck_effects *fx)
{
	struct ck_step all[CK_MAX_SLOTS + CK_MAX_COPIES];
	struct ck_step s = { .idx = e };

	switch (kind) {
	case NCSYNC_DEFECT_EVENT:
		return fx->event;
	case NCSYNC_DEFECT_OVERFLOW:
		return fx->overflow;
	case NCSYNC_DEFECT_DMA_RACE:
		return fx->race;
	case NCSYNC_DEFECT_UNPOSTED_WAIT:
		return ck_wait_at(&r->cp, st, e) &&
		       !ck_step_enabled(&r->cp, st, s) && ck_unposted(r, e, st);
	default:	/* deadlock, barrier-imbalance: no step */
		return !ck_enabled(&r->cp, st, all) && !ck_ended(st, e);
	}
}

/*
 * A defect the search on classes found (ck_report()): real when its
 * schedule, replayed from the initial state, runs through the same
 * positions (so that its words name the records run) and has the defect.
 * Then r->conc is the state it reaches; otherwise the acceleration is
 * given up.
 */
static bool ck_accel_real(struct ck_run *r, unsigned int kind,
			  unsigned int e)
{
	const struct ck_state *top = &ck_frame_at(r, r->depth)->st;
	struct ck_effects fx = { 0 };
	size_t i;

	ck_state_init(&r->cp, r->conc, r->opts->sems, r->opts->events);
	for (i = 1; i <= r->depth; i++) {
		struct ck_step s = ck_frame_at(r, i)->in;

		if (!ck_accel_same_shape(&r->cp, r->conc,
					 &ck_frame_at(r, i - 1)->st) ||
		    !ck_step_enabled(&r->cp, r->conc, s))
			break;
		ck_apply(&r->cp, r->conc, s, &fx);
	}
	if (i > r->depth && ck_accel_same_shape(&r->cp, r->conc, top) &&
	    ck_kind_holds(r, kind, e, r->conc, &fx))
		return true;
	ck_accel_fail(r->accel, "a defect found on the classes of its passes, whose schedule is searched pass by pass");
	r->stop = true;
	return false;
}

static bool ck_all_ended(const struct ck_run *r, const struct ck_state *st)
{
	unsigned int e;

	for (e = 0; e < r->cp.n; e++)
		if (!ck_ended(st, e))
			return false;
	return true;
}

/* Note a state without a step, or where every engine ended, in r->finals. */
static void ck_final(struct ck_run *r, const struct ck_state *st)
{
	struct ck_finals *f = r->finals;
	size_t n = f ? f->n + 1 : 0;
	bool ended;
	uint64_t *h;
	int32_t *s;
	bool *d;

	if (!f || r->rerun)	/* the search again reaches the same ones */
		return;
	ended = ck_all_ended(r, st);
	h = realloc(f->h, 2 * n * sizeof(*h));
	f->h = h ? h : f->h;
	d = realloc(f->ended, n * sizeof(*d));
	f->ended = d ? d : f->ended;
	s = f->nsems ? realloc(f->sems, n * f->nsems * sizeof(*s)) : NULL;
	f->sems = s ? s : f->sems;
	if (!h || !d || (f->nsems && !s)) {
		r->err = -ENOMEM;
		return;
	}
	ck_sym_hash(&r->cp, &r->sym, st, h + 2 * f->n);
	d[f->n] = ended;
	if (f->nsems)
		memcpy(s + f->n * f->nsems, st->bank[0].sems,
		       f->nsems * sizeof(*s));
	f->n = n;
}

/* Analyse the new top frame and give it its steps. */
static void ck_enter(struct ck_run *r)
{
	struct ck_frame *f = ck_frame_at(r, r->depth);

	f->next = 0;
	f->seg = 0;
	f->nseg = 0;
	ck_state_defects(r);
	if (!ck_frame_steps(r, f)) {
		ck_final(r, &f->st);
		ck_terminal(r);
	} else if (r->finals && r->finals->all_ended &&
		   ck_all_ended(r, &f->st)) {
		ck_final(r, &f->st);
	}
}

/* The limits of states and time: end the search at one. */
static void ck_bounds(struct ck_run *r)
{
	const struct ncsync_check_opts *o = r->opts;

	if (o->max_states && r->res->states >= o->max_states)
		ck_limit(r, NCSYNC_CHECK_LIMIT_STATES);
	else if (r->deadline_ns && !(r->res->states & 255) &&
		 ck_now_ns() >= r->deadline_ns)
		ck_limit(r, NCSYNC_CHECK_LIMIT_TIME);
}

static const struct ck_state *ck_state_at(void *arg, size_t depth)
{
	return &ck_frame_at(arg, depth)->st;
}

/*
 * The successor @t of frame @f by its step at f->next: with loop
 * acceleration, the class of the next part of its line, and the step
 * stays until the last; -E2BIG when the acceleration gave up.
 */
static int ck_next_class(struct ck_run *r, struct ck_frame *f,
			 struct ck_frame *t)
{
	uint64_t next = 0;

	t->hi = 0;
	if (r->abstract && ck_accel_segment(r->accel, &r->cp, &t->st, f->seg,
					    f->hi, &next, &f->nseg, &t->hi)) {
		r->stop = true;
		return -E2BIG;
	}
	f->seg = next;
	if (!next)
		f->next++;
	return 0;
}

/* Look for a loop, in the explicit search, at the new top frame @t. */
static int ck_find_loop(struct ck_run *r, const struct ck_frame *f,
			const struct ck_frame *t)
{
	int ret;

	if (!r->accel || r->abstract || ck_accel_on(r->accel))
		return 0;
	ret = ck_accel_note(r->accel, &r->cp, r->depth, &f->st, t->in, &t->st,
			    ck_state_at, r);
	r->stop = ck_accel_on(r->accel);
	return ret;
}

/* Take the next step of the top frame; 0 or -ENOMEM. */
static int ck_advance(struct ck_run *r)
{
	struct ck_frame *f = ck_frame_at(r, r->depth - 1), *t;
	struct ck_effects fx;
	struct ck_step s;
	unsigned int e;
	int seen;

	s = f->steps[f->next];
	t = ck_frame_new(r);
	if (!t)
		return r->limited ? 0 : -ENOMEM;
	f = ck_frame_at(r, r->depth - 1);
	ck_state_copy(&r->cp, &t->st, &f->st);
	ck_step_out(&r->cp, &f->st, s, &t->via);
	t->in = s;
	e = s.land ? f->st.copies[s.idx].eng : s.idx;
	ck_apply(&r->cp, &t->st, s, &fx);
	if (ck_next_class(r, f, t))
		return 0;
	ck_step_defects(r, &fx, e);
	if (fx.full)	/* a copy the executor could not follow */
		return 0;
	seen = ck_seen_h(r, &t->st, true, t->h);
	if (seen == -ENOSPC)
		ck_limit(r, NCSYNC_CHECK_LIMIT_MEMORY);
	if (seen)
		return seen < 0 && seen != -ENOSPC ? seen : 0;
	r->res->states++;
	ck_visited_stack(&r->seen, t->h, true);
	ck_note_values(r, &t->st, &f->st);
	ck_enter(r);
	seen = ck_find_loop(r, f, t);
	if (seen)
		return seen;
	r->depth++;
	ck_bounds(r);
	return 0;
}

static int ck_search(struct ck_run *r)
{
	struct ck_frame *f = ck_frame_new(r);
	int ret;

	if (!f)
		return r->limited ? 0 : -ENOMEM;
	ck_state_init(&r->cp, &f->st, r->opts->sems, r->opts->events);
	f->hi = r->abstract ? ck_accel_canon(r->accel, &r->cp, &f->st) : 0;
	ret = ck_seen_h(r, &f->st, true, f->h);
	if (ret == -ENOSPC) {
		ck_limit(r, NCSYNC_CHECK_LIMIT_MEMORY);
		return 0;
	}
	if (ret < 0)
		return ret;
	r->res->states = 1;
	ck_visited_stack(&r->seen, f->h, true);
	ck_note_values(r, &f->st, NULL);
	ck_enter(r);
	r->depth = 1;
	if (r->err)
		return r->err;
	while (r->depth && !r->limited && !r->err && !r->stop) {
		f = ck_frame_at(r, r->depth - 1);
		if (f->next == f->nsteps) {
			ck_visited_stack(&r->seen, f->h, false);
			r->depth--;
			continue;
		}
		ret = ck_advance(r);
		if (ret)
			return ret;
	}
	return r->err;
}

/* The unposted-wait cache: two entries (lanes) per record of each slot. */
static int ck_run_init(struct ck_run *r)
{
	uint32_t total = 0;
	unsigned int e;

	r->fsize = (offsetof(struct ck_frame, st) + r->cp.state_size + 7) &
		   ~(size_t)7;
	for (e = 0; e < r->cp.n; e++) {
		r->unposted_off[e] = total;
		total += 2 * r->cp.count[e];
	}
	if (!(r->opts->flags & NCSYNC_CHECK_F_NO_SYMMETRY))
		ck_sym_init(&r->sym, &r->cp);
	r->sym_on = !r->full && r->sym.nclass;
	r->unposted = calloc(total ? total : 1, 1);
	r->stub = malloc(ck_stub_size());
	r->res = calloc(1, sizeof(*r->res));
	r->mem_max = (size_t)(r->opts->max_memory_mb ?:
			      NCSYNC_CHECK_MAX_MEMORY_MB) << 20;
	if (r->opts->timeout_ms)
		r->deadline_ns = ck_now_ns() +
				 r->opts->timeout_ms * 1000000LL;
	return r->unposted && r->stub && r->res ? 0 : -ENOMEM;
}

static void ck_run_fini(struct ck_run *r)
{
	ck_reduction_fini(&r->cp);
	ck_prog_fini(&r->cp);
	free(r->seen.keys);
	free(r->frames);
	free(r->unposted);
	free(r->stub);
	ck_values_fini(&r->vals);
	free(r->conc);
	ck_accel_free(r->accel);
}

/*
 * After a complete search: when blocked waits no reached value passes
 * were found, search again, with the same limits, to report them with
 * a schedule (the search is deterministic: it reaches them again).
 */
static int ck_search_values(struct ck_run *r)
{
	int n = ck_values_decide(&r->vals, &r->cp);
	unsigned int k;

	if (n <= 0)
		return n;
	for (k = 0; k < NCSYNC_DEFECT_KINDS; k++) {
		ck_defect_free(r->res->defects[k]);
		r->res->defects[k] = NULL;
	}
	free(r->seen.keys);
	memset(&r->seen, 0, sizeof(r->seen));
	r->depth = 0;
	r->rerun = true;
	if (r->opts->timeout_ms)
		r->deadline_ns = ck_now_ns() +
				 r->opts->timeout_ms * 1000000LL;
	n = ck_search(r);
	/*
	 * The search again takes the same steps, unless an allocation of the
	 * reduction's cache of paths failed in one search and not in the
	 * other: never end without the defect then.
	 */
	if (!n && !r->limited &&
	    !r->res->defects[NCSYNC_DEFECT_UNPOSTED_WAIT])
		n = -ENOMEM;
	return n;
}

static enum ncsync_check_verdict ck_verdict(const struct ck_run *r)
{
	unsigned int k;

	for (k = 0; k < NCSYNC_DEFECT_KINDS; k++)
		if (r->res->defects[k])
			return NCSYNC_CHECK_DEFECT;
	return r->limited ? NCSYNC_CHECK_INCONCLUSIVE : NCSYNC_CHECK_SAFE;
}

/* A new search from the initial state: on classes when @abstract. */
static int ck_restart(struct ck_run *r, bool abstract)
{
	free(r->seen.keys);
	memset(&r->seen, 0, sizeof(r->seen));
	ncsync_check_free(r->res);
	r->res = calloc(1, sizeof(*r->res));
	r->depth = 0;
	r->limited = false;
	r->limit = NCSYNC_CHECK_LIMIT_NONE;
	r->stop = false;
	r->abstract = abstract;
	r->cp.static_fut = abstract;
	if (abstract)
		ck_accel_moved(r->accel, &r->cp);
	/* The values of a search are its own (check_values.c). */
	ck_values_fini(&r->vals);
	memset(&r->vals, 0, sizeof(r->vals));
	if (abstract && !r->conc)
		r->conc = malloc(sizeof(*r->conc));
	return r->res && (!abstract || r->conc) ? 0 : -ENOMEM;
}

/* What the acceleration did, with @status, for the result. */
static void ck_accel_out(const struct ck_run *r, uint32_t status)
{
	struct ncsync_check_accel *o = &r->res->accel;
	const struct ncsync_stream *ps;
	unsigned int e;
	uint32_t rec;

	ck_accel_loop(r->accel, &e, &rec);
	ps = r->cp.prog[r->cp.core[e]]->streams[r->cp.engine[e]];
	o->status = status;
	o->engine = r->cp.engine[e];
	o->core = r->cp.pos[r->cp.core[e]];
	o->record = rec;
	o->line = rec < ps->count ? ps->lines[rec].line : 0;
	o->why = status == NCSYNC_ACCEL_FELL_BACK ? ck_accel_why(r->accel) :
						    NULL;
}

/*
 * The search on the classes of the loop found, and what it leaves to the
 * explicit search: a limit reached, a defect (ck_accel_why() then says
 * why).  A program that may run for ever is not searched on its classes
 * at all: its verdict is the explicit search's whatever they give
 * (Documentation/ncsync/check.rst, "Waits that never pass").
 */
static int ck_class_search(struct ck_run *r)
{
	int ret;

	/*
	 * Waits no reached value passes are decided on concrete states only
	 * (check_values.c): by induction, only in a program whose runs are
	 * all finite, where such a wait ends in a deadlock.
	 */
	ret = ck_accel_finite(r->accel, &r->cp);
	if (ret <= 0) {
		if (ret)
			return ret;
		ck_accel_fail(r->accel, "an engine may run for ever: its waits are decided pass by pass");
		return 0;
	}
	if (r->sym_on)
		ck_accel_sym(r->accel, &r->cp, &r->sym, &r->asym);
	ret = ck_restart(r, true);
	if (!ret)
		ret = ck_search(r);
	if (!ret)
		r->class_states = r->res->states;
	if (!ret && r->limited)
		ck_accel_fail(r->accel, "the search on the classes of its passes reached a limit");
	/* Every kind of a defect, unposted waits too, pass by pass. */
	if (!ret && !r->limited && !ck_accel_why(r->accel) &&
	    ck_verdict(r) == NCSYNC_CHECK_DEFECT)
		ck_accel_fail(r->accel, "a defect: its kinds are found pass by pass");
	return ret;
}

/*
 * The explicit search, watching for a loop; once one is found, the search
 * on its classes; if that gives up or reaches a limit, the explicit search
 * again, without.
 */
static int ck_phases(struct ck_run *r)
{
	int ret;

	if (!r->full && !r->finals &&
	    !(r->opts->flags & NCSYNC_CHECK_F_NO_ACCEL)) {
		r->accel = ck_accel_new();
		if (!r->accel)
			return -ENOMEM;
	}
	ret = ck_search(r);
	if (ret || !ck_accel_on(r->accel))
		return ret;
	ret = ck_class_search(r);
	if (ret || !ck_accel_why(r->accel)) {
		if (!ret)
			ck_accel_out(r, NCSYNC_ACCEL_APPLIED);
		return ret;
	}
	ret = ck_restart(r, false);
	if (!ret)
		ret = ck_search(r);
	if (!ret) {
		ck_accel_out(r, NCSYNC_ACCEL_FELL_BACK);
		r->res->class_states = r->class_states;
	}
	return ret;
}

int ncsync_check_run(const struct ncsync_asm_part *parts, unsigned int n,
		     const struct ncsync_check_opts *opts, bool full,
		     struct ck_finals *finals,
		     struct ncsync_check_result **resp)
{
	struct ck_run *r;
	int ret;

	if (!parts || !opts || !resp ||
	    (opts->flags & ~(NCSYNC_CHECK_F_DMA_FIFO | NCSYNC_CHECK_F_NO_ACCEL |
			     NCSYNC_CHECK_F_NO_SYMMETRY)))
		return -EINVAL;
	r = calloc(1, sizeof(*r));
	if (!r)
		return -ENOMEM;
	*r = (struct ck_run){ .opts = opts, .full = full, .finals = finals };
	ret = ck_prog_init(&r->cp, parts, n,
			   opts->flags & NCSYNC_CHECK_F_DMA_FIFO, opts->sems,
			   opts->events);
	if (!ret) {
		ret = ck_reduction_init(&r->cp, opts->sems) ?:
		      ck_run_init(r);
		if (!ret)
			ret = ck_phases(r);
		if (!ret && !r->limited && !r->abstract)
			ret = ck_search_values(r);
		if (!ret && r->sym_on)
			ck_sym_out(&r->cp, r->abstract ? &r->asym : &r->sym,
				   &r->res->sym);
		ck_run_fini(r);
	}
	if (!ret) {
		r->res->verdict = ck_verdict(r);
		r->res->limited = r->limited;
		r->res->limit = r->limit;
		*resp = r->res;
	} else {
		ncsync_check_free(r->res);
	}
	free(r);
	return ret;
}

int ncsync_check_cores(const struct ncsync_asm_part *parts, unsigned int n,
		       const struct ncsync_check_opts *opts,
		       struct ncsync_check_result **resp)
{
	return ncsync_check_run(parts, n, opts, false, NULL, resp);
}

int ncsync_check(const struct ncsync_program *prog,
		 const struct ncsync_check_opts *opts,
		 struct ncsync_check_result **resp)
{
	struct ncsync_asm_part part = {
		.core = 0, .prog = (struct ncsync_program *)prog,
	};

	return prog ? ncsync_check_run(&part, 1, opts, false, NULL, resp) :
		      -EINVAL;
}
