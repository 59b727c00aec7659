// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * libncsync: the public views of the checker's executor (struct
 * ncsync_check_state, struct ncsync_check_step), the deadlock analysis of a
 * checked state, and ncsync_check_replay().
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "ncsync_exec.h"

static uint8_t ck_state_of(const struct ck_prog *cp, const struct ck_state *st,
			   unsigned int e)
{
	if (st->eng[e].status == CK_DONE)
		return NCSYNC_ENG_DONE;
	if (st->eng[e].status == CK_HALTED)
		return NCSYNC_ENG_HALTED;
	return ck_step_enabled(cp, st, (struct ck_step){ .idx = e }) ?
	       NCSYNC_ENG_RUNNING : NCSYNC_ENG_BLOCKED;
}

void ck_copy_out(const struct ck_prog *cp, const struct ck_copy *c,
		 struct ncsync_check_copy *out)
{
	memset(out, 0, sizeof(*out));
	out->engine = cp->engine[c->eng];
	out->core = cp->pos[cp->core[c->eng]];
	out->record = c->rec;
	out->copy = c->seq;
}

/* The state of core @core (its index in the check) in @st. */
void ck_snapshot(const struct ck_prog *cp, const struct ck_state *st,
		 unsigned int core, struct ncsync_check_state *out)
{
	unsigned int e, i;

	memset(out, 0, sizeof(*out));
	for (e = 0; e < cp->n; e++) {
		struct ncsync_check_engine *o = &out->engines[out->nengines];
		const struct ck_eng *x = &st->eng[e];

		if (cp->core[e] != core)
			continue;
		out->nengines++;
		o->engine = cp->engine[e];
		o->state = ck_state_of(cp, st, e);
		o->part = x->sub;
		o->inflight = x->inflight;
		o->pc = x->pc;
		memcpy(o->regs, x->regs, sizeof(o->regs));
	}
	for (i = 0; i < st->ncopies; i++)
		if (cp->core[st->copies[i].eng] == core)
			ck_copy_out(cp, &st->copies[i],
				    &out->copies[out->ncopies++]);
	memcpy(out->sems, st->bank[core].sems, sizeof(out->sems));
	memcpy(out->events, st->bank[core].events, sizeof(out->events));
}

/* Every core of @st, into @out[cp->ncores]. */
void ck_snapshot_cores(const struct ck_prog *cp, const struct ck_state *st,
		       struct ncsync_check_core *out)
{
	unsigned int c;

	for (c = 0; c < cp->ncores; c++) {
		memset(&out[c], 0, offsetof(struct ncsync_check_core, state));
		out[c].core = cp->pos[c];
		ck_snapshot(cp, st, c, &out[c].state);
	}
}

void ck_step_out(const struct ck_prog *cp, const struct ck_state *st,
		 struct ck_step s, struct ncsync_check_step *out)
{
	unsigned int e = s.land ? st->copies[s.idx].eng : s.idx;
	const struct ncsync_stream *ps =
		cp->prog[cp->core[e]]->streams[cp->engine[e]];

	memset(out, 0, sizeof(*out));
	out->engine = cp->engine[e];
	out->core = cp->pos[cp->core[e]];
	if (s.land) {
		out->part = NCSYNC_PART_LAND;
		out->record = st->copies[s.idx].rec;
		out->copy = st->copies[s.idx].seq;
	} else {
		out->part = st->eng[s.idx].sub;
		out->record = st->eng[s.idx].pc;
	}
	out->line = out->record < ps->count ? ps->lines[out->record].line : 0;
}

/* The status report of core @core in a state, as the driver would give it. */
static void ck_status_of(const struct ck_prog *cp, const struct ck_state *st,
			 unsigned int core, struct ncsync_prog_status *ps)
{
	const struct ck_bank *b = &st->bank[core];
	unsigned int e;

	memset(ps, 0, sizeof(*ps));
	for (e = 0; e < cp->n; e++) {
		struct ncsync_engine_status *es = &ps->engines[ps->nengines];
		const struct ncsync_lane *l = ck_wait_at(cp, st, e);
		const struct ck_eng *x = &st->eng[e];

		if (cp->core[e] != core)
			continue;
		ps->nengines++;
		es->engine = cp->engine[e];
		es->state = ck_state_of(cp, st, e);
		es->pc = x->pc;
		es->dma_outstanding = x->inflight;
		if (es->state != NCSYNC_ENG_BLOCKED || !l)
			continue;
		es->wait_kind = l->wait.bank == NCSYNC_BANK_SEM ?
				NCSYNC_BLOCK_SEM : NCSYNC_BLOCK_EVENT;
		es->wait_mode = ncsync_wait_op_mode(&l->wait);
		es->wait_index = l->wait.index;
		es->wait_lane = x->sub;
		es->wait_threshold = l->wait.bank == NCSYNC_BANK_SEM ?
			ncsync_wait_threshold(&l->wait, x->regs) : 0;
		es->wait_current = l->wait.bank == NCSYNC_BANK_SEM ?
				   b->sems[l->wait.index] :
				   b->events[l->wait.index];
	}
}

/*
 * The analysis across the parts' reports in @st, malloc'd; NULL when out
 * of memory (the parts never have more engines than it follows).
 */
static struct ncsync_deadlock_cores *ck_deadlock_cores(const struct ck_prog *cp,
						       const struct ck_state *st)
{
	struct ncsync_prog_status ps[CK_MAX_CORES];
	struct ncsync_asm_part parts[CK_MAX_CORES];
	struct ncsync_deadlock_cores *dl = malloc(sizeof(*dl));
	unsigned int c;

	for (c = 0; dl && c < cp->nparts; c++) {
		parts[c].core = cp->pos[c];
		parts[c].prog = (struct ncsync_program *)cp->prog[c];
		ck_status_of(cp, st, c, &ps[c]);
	}
	if (dl && ncsync_program_deadlock_cores(parts, ps, cp->nparts, dl)) {
		free(dl);
		dl = NULL;
	}
	return dl;
}

/*
 * The barrier engines wait in in @st that another will not reach, into
 * @d->barrier (malloc'd); none leaves it NULL.  0 or -ENOMEM.
 */
static int ck_barrier_short(const struct ck_prog *cp,
			    const struct ck_state *st,
			    struct ncsync_check_defect *d)
{
	struct ncsync_prog_status ps[CK_MAX_CORES];
	struct ncsync_asm_part parts[CK_MAX_CORES];
	struct ncsync_barrier_short *b = malloc(sizeof(*b));
	unsigned int c;

	if (!b)
		return -ENOMEM;
	for (c = 0; c < cp->nparts; c++) {
		parts[c].core = cp->pos[c];
		parts[c].prog = (struct ncsync_program *)cp->prog[c];
		ck_status_of(cp, st, c, &ps[c]);
	}
	if (ncsync_program_barrier_short(parts, ps, cp->nparts, b) ||
	    !b->nwaiting) {
		free(b);
		b = NULL;
	}
	d->barrier = b;
	return 0;
}

int ck_deadlock_of(const struct ck_prog *cp, const struct ck_state *st,
		   unsigned int e, struct ncsync_check_defect *d)
{
	struct ncsync_prog_status ps;

	ck_status_of(cp, st, cp->core[e], &ps);
	ncsync_program_deadlock(cp->prog[cp->core[e]], &ps, &d->deadlock);
	d->engine = cp->engine[e];
	d->record = st->eng[e].pc;
	if (ck_barrier_short(cp, st, d))
		return -ENOMEM;
	if (cp->nparts > 1) {
		d->deadlock_cores = ck_deadlock_cores(cp, st);
		if (!d->deadlock_cores)
			return -ENOMEM;
	}
	return 0;
}

/* The executor's step for @in in @st; false if it cannot run now. */
static bool ck_step_in(const struct ck_prog *cp, const struct ck_state *st,
		       const struct ncsync_check_step *in, struct ck_step *s)
{
	unsigned int e, i = 0;

	for (e = 0; e < cp->n && (cp->engine[e] != in->engine ||
				  cp->pos[cp->core[e]] != in->core); e++)
		;
	if (e == cp->n)
		return false;
	if (in->part == NCSYNC_PART_LAND) {
		for (i = 0; i < st->ncopies; i++) {
			const struct ck_copy *c = &st->copies[i];

			if (c->eng == e && c->seq == in->copy &&
			    c->rec == in->record)
				break;
		}
		*s = (struct ck_step){ .land = true, .idx = i };
	} else {
		if (st->eng[e].status != CK_RUNNING ||
		    st->eng[e].pc != in->record || st->eng[e].sub != in->part)
			return false;
		*s = (struct ck_step){ .idx = e };
	}
	return ck_step_enabled(cp, st, *s);
}

typedef int ck_replay_fn(void *arg, size_t i,
			 const struct ncsync_check_core *cores,
			 unsigned int ncores);

/* Run @steps from the initial state, calling @fn after each. */
static int ck_replay(const struct ck_prog *cp, struct ck_state *st,
		     struct ncsync_check_core *snap,
		     const struct ncsync_check_step *steps, size_t nsteps,
		     ck_replay_fn *fn, void *arg, size_t *done)
{
	struct ck_effects fx;
	struct ck_step s;
	size_t i;
	int ret;

	ck_snapshot_cores(cp, st, snap);
	ret = fn ? fn(arg, 0, snap, cp->ncores) : 0;
	for (i = 0; !ret && i < nsteps; i++) {
		if (!ck_step_in(cp, st, &steps[i], &s)) {
			ret = -EPERM;
			break;
		}
		ck_apply(cp, st, s, &fx);
		ck_snapshot_cores(cp, st, snap);
		ret = fn ? fn(arg, i + 1, snap, cp->ncores) : 0;
	}
	if (done)
		*done = i;
	return ret;
}

int ncsync_check_replay_cores(const struct ncsync_asm_part *parts,
			      unsigned int n,
			      const struct ncsync_check_opts *opts,
			      const struct ncsync_check_step *steps,
			      size_t nsteps, ck_replay_fn *fn, void *arg,
			      size_t *done)
{
	struct ncsync_check_core *snap;
	struct ck_state *st;
	struct ck_prog *cp;
	int ret;

	if (!parts || !opts || (!steps && nsteps) ||
	    (opts->flags & ~NCSYNC_CHECK_F_DMA_FIFO))
		return -EINVAL;
	cp = malloc(sizeof(*cp));
	if (!cp)
		return -ENOMEM;
	ret = ck_prog_init(cp, parts, n, opts->flags & NCSYNC_CHECK_F_DMA_FIFO,
			   opts->sems, opts->events);
	if (ret) {
		free(cp);
		return ret;
	}
	st = malloc(sizeof(*st));
	snap = calloc(cp->ncores, sizeof(*snap));
	if (st && snap) {
		ck_state_init(cp, st, opts->sems, opts->events);
		ret = ck_replay(cp, st, snap, steps, nsteps, fn, arg, done);
	} else {
		ret = -ENOMEM;
	}
	free(st);
	free(snap);
	ck_prog_fini(cp);
	free(cp);
	return ret;
}

/* ncsync_check_replay()'s callback, called with the state of its core. */
struct ck_replay_one {
	int (*fn)(void *arg, size_t i, const struct ncsync_check_state *st);
	void *arg;
};

static int ck_replay_one(void *arg, size_t i,
			 const struct ncsync_check_core *cores,
			 unsigned int ncores)
{
	const struct ck_replay_one *one = arg;

	(void)ncores;
	return one->fn ? one->fn(one->arg, i, &cores[0].state) : 0;
}

int ncsync_check_replay(const struct ncsync_program *prog,
			const struct ncsync_check_opts *opts,
			const struct ncsync_check_step *steps, size_t nsteps,
			int (*fn)(void *arg, size_t i,
				  const struct ncsync_check_state *st),
			void *arg, size_t *done)
{
	struct ncsync_asm_part part = {
		.core = 0, .prog = (struct ncsync_program *)prog,
	};
	struct ck_replay_one one = { .fn = fn, .arg = arg };

	if (!prog)
		return -EINVAL;
	return ncsync_check_replay_cores(&part, 1, opts, steps, nsteps,
					 ck_replay_one, &one, done);
}
