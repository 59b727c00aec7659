// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * libncsync: the lowering pipeline, ncsync_program_lower(): the passes
 * that rewrite a program's pseudo-ops into hardware records, run in
 * order over the one program representation (program.c)
 * (Documentation/ncsync/barriers.rst; Documentation/ncsync/architecture.rst,
 * "The library").
 *
 *   1. Calls, Returns and DMA barriers (lower_call.c): function bodies
 *      inlined at each Call, undone if a later pass fails.
 *   2. The plan: every pseudo-op left has a lowering, the core barriers
 *      (0xD8) agree across the streams (core_barrier.c), the resources the
 *      prologues need are taken from the reserved slice (barrier.c);
 *      the program must not write what the lowering owns (lower_own.c).
 *   3. The rewrite: each stream copied record by record, a 0xD5 into the
 *      barrier's records in the asked form (barrier.c), a 0xD8 into the
 *      core barrier's, always in the counter form (core_barrier.c); the
 *      prologues and epilogues inserted; labels and branches moved to the
 *      new indices.
 *
 * Other pseudo-ops fail with -EOPNOTSUPP, the message of
 * ncsync_program_lower_error() naming the opcode.  A pass never calls the
 * pipeline, nor the builders (pseudo.c, builders.c's public ones) above
 * it; finalize.c runs the pipeline, then resolves and validates.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "ncsync_optab.h"

/**
 * struct ncsync_lowering - one run of ncsync_program_lower().
 * @how: the form of the 0xD5 records.
 * @mask: the engines of the program.
 * @pseudo: the program holds 0xD5 records.
 * @core: the program holds 0xD8 records.
 * @lnc: the logical core size they are lowered for.
 * @ctr_prologue: insert the counter prologue.
 * @ev_prologue: insert the event prologue and epilogues.
 * @tmp: the rewritten streams.
 * @map: for each stream, the new index of every old record, and of the end.
 * @undo: what the lowering of Calls changed, undone when the rest fails.
 */
struct ncsync_lowering {
	enum ncsync_barrier_lowering how;
	unsigned int mask;
	bool pseudo;
	bool core;
	unsigned int lnc;
	bool ctr_prologue;
	bool ev_prologue;
	struct ncsync_stream tmp[NCSYNC_MAX_ENGINE_ID];
	uint32_t *map[NCSYNC_MAX_ENGINE_ID];
	struct ncsync_call_undo undo;
};

/*
 * A 0xD5 record: the half of its events block that goes before this
 * engine's arrival, the pass, the half that goes after the rendezvous.
 */
static int ncsync_lower_barrier(struct ncsync_lowering *lw,
				struct ncsync_stream *t, const uint8_t *rec)
{
	int ret;

	ret = ncsync_barrier_block_emit(t, rec, true);
	if (!ret && lw->how == NCSYNC_LOWER_COUNTER)
		ret = ncsync_emit_ctr_pass(t, t->prog);
	else if (!ret)
		ret = ncsync_emit_ev_pass(t, lw->mask);
	if (ret >= 0)
		ret = ncsync_barrier_block_emit(t, rec, false);
	return ret < 0 ? ret : 0;
}

/* Record @rec of a stream, rewritten at the end of @t. */
static int ncsync_lower_record(struct ncsync_lowering *lw,
			       struct ncsync_stream *t, const uint8_t *rec)
{
	int ret;

	if (ncsync_lower_kind(rec[0]) == NCSYNC_LOWER_ALL_ENGINES)
		return ncsync_lower_barrier(lw, t, rec);
	if (ncsync_lower_kind(rec[0]) == NCSYNC_LOWER_CORES)
		return ncsync_core_barrier_lower(t, rec, lw->lnc, lw->mask);
	if (ncsync_op_has(rec[0], NCSYNC_OPF_ENDS) && lw->ev_prologue &&
	    ncsync_op(rec[0])->effect == NCSYNC_EFF_EXIT) {
		ret = ncsync_emit_ev_epilogue(t, lw->mask);
		if (ret < 0)
			return ret;
	}
	ret = ncsync_stream_put(t, rec);
	return ret < 0 ? ret : 0;
}

/* Rewrite stream @s into lw->tmp[e], filling lw->map[e]. */
static int ncsync_lower_stream(struct ncsync_lowering *lw,
			       struct ncsync_stream *s)
{
	struct ncsync_stream *t = &lw->tmp[s->engine];
	uint32_t *map;
	uint32_t i;
	int ret;

	t->prog = s->prog;
	t->engine = s->engine;
	map = calloc((size_t)s->count + 1, sizeof(*map));
	if (!map)
		return -ENOMEM;
	lw->map[s->engine] = map;
	s->prog->cur_src = (struct ncsync_src){ 0 };

	if (lw->ctr_prologue) {
		ret = ncsync_emit_ctr_prologue(t, s->prog);
		if (ret < 0)
			return ret;
	}
	if (lw->ev_prologue) {
		ret = ncsync_emit_ev_prologue(t);
		if (ret < 0)
			return ret;
	}
	for (i = 0; i < s->count; i++) {
		s->prog->cur_src = s->lines[i];
		map[i] = t->count;
		ret = ncsync_lower_record(lw, t, ncsync_stream_at(s, i));
		if (ret < 0)
			return ret;
	}
	map[s->count] = t->count;
	s->prog->cur_src = (struct ncsync_src){ 0 };
	if (lw->ev_prologue) {
		/* Falling off the end is an Exit: give it the epilogue. */
		ret = ncsync_emit_ev_epilogue(t, lw->mask);
		if (ret < 0)
			return ret;
		ret = ncsync_add_exit(t, NULL);
		if (ret < 0)
			return ret;
	}
	return 0;
}

/* Move labels and branches bound before the lowering to the new indices. */
static void ncsync_lower_commit(struct ncsync_program *prog,
				struct ncsync_lowering *lw,
				unsigned int nlabels, unsigned int nfixups)
{
	unsigned int i;

	for (i = 0; i < nlabels; i++) {
		struct ncsync_label *l = &prog->labels[i];

		/* A function's labels died with it (lower_call.c). */
		if (l->bound && !l->fn && lw->map[l->engine])
			l->index = lw->map[l->engine][l->index];
	}
	for (i = 0; i < nfixups; i++) {
		struct ncsync_fixup *f = &prog->fixups[i];

		if (lw->map[f->engine])
			f->index = lw->map[f->engine][f->index];
	}
	for (i = 0; i < NCSYNC_MAX_ENGINE_ID; i++) {
		struct ncsync_stream *s = prog->streams[i];
		struct ncsync_stream *t = &lw->tmp[i];
		struct ncsync_src *lines;
		uint8_t *recs;

		if (!s || !lw->map[i])
			continue;
		recs = s->recs;
		lines = s->lines;
		s->recs = t->recs;
		s->lines = t->lines;
		s->count = t->count;
		s->cap = t->cap;
		t->recs = recs;
		t->lines = lines;
	}
}

/*
 * Record @i of @s is a 0xD5: remember the first malformed one for the
 * conformance profile (BARRIER 1, 8).
 */
static void ncsync_lower_note_barrier(struct ncsync_program *prog,
				      struct ncsync_lowering *lw,
				      struct ncsync_stream *s,
				      uint32_t i)
{
	lw->pseudo = true;
	if (prog->conf_bad ||
	    !ncsync_barrier_record_conform(ncsync_stream_at(s, i)))
		return;
	prog->conf_bad = true;
	prog->conf_engine = s->engine;
	prog->conf_index = i;
}

/* Check the program can be lowered; decide what the lowering does. */
static int ncsync_lower_plan(struct ncsync_program *prog,
			     struct ncsync_lowering *lw)
{
	unsigned int e;
	uint32_t i;
	int ret;

	for (e = 0; e < NCSYNC_MAX_ENGINE_ID; e++) {
		struct ncsync_stream *s = prog->streams[e];

		if (!s)
			continue;
		for (i = 0; i < s->count; i++) {
			uint8_t op = ncsync_stream_at(s, i)[0];

			if (ncsync_lower_kind(op) == NCSYNC_LOWER_ALL_ENGINES)
				ncsync_lower_note_barrier(prog, lw, s, i);
			else if (ncsync_is_pseudo(op) &&
				 ncsync_lower_kind(op) != NCSYNC_LOWER_CORES)
				return ncsync_lower_fail(prog, -EOPNOTSUPP,
							 "engine %s record %u: pseudo-op 0x%02x has no lowering",
							 ncsync_engine_name(e),
							 i, op);
		}
	}
	ret = ncsync_core_barriers_plan(prog);
	if (ret < 0)
		return ret;
	lw->core = ret;
	lw->lnc = ncsync_lower_lnc(prog);
	lw->mask = ncsync_program_engines(prog);
	lw->ctr_prologue = !prog->ctr_prologue &&
			   (prog->ctr_used || lw->core ||
			    (lw->pseudo && lw->how == NCSYNC_LOWER_COUNTER));
	lw->ev_prologue = !prog->ev_prologue && lw->pseudo &&
			  lw->how == NCSYNC_LOWER_EVENTS;
	if (prog->ctr_used && prog->ctr_mask != lw->mask)
		return ncsync_lower_fail(prog, -EINVAL,
					 "the program's engines (mask 0x%02x) changed after ncsync_add_sync_barrier(), which counts the engines of mask 0x%02x: add every engine's stream before the first barrier",
					 lw->mask, prog->ctr_mask);
	return 0;
}

int ncsync_lower_pending(const struct ncsync_program *prog)
{
	unsigned int e;
	uint32_t i;

	if (prog->ctr_used && !prog->ctr_prologue)
		return 1;
	if (prog->nfuncs)
		return 1;
	for (e = 0; e < NCSYNC_MAX_ENGINE_ID; e++) {
		struct ncsync_stream *s = prog->streams[e];

		for (i = 0; s && i < s->count; i++)
			if (ncsync_is_pseudo(ncsync_stream_at(s, i)[0]))
				return 1;
	}
	return 0;
}

/* Take the counter and the events the planned prologues need. */
static int ncsync_lower_take(struct ncsync_program *prog,
			     const struct ncsync_lowering *lw)
{
	int ret;

	if (lw->ctr_prologue) {
		ret = ncsync_ctr_take(prog, lw->mask);
		if (ret < 0)
			return ret;
		/* What the passes and the prologue count on. */
		prog->ctr_mask = lw->mask;
	}
	if (lw->ev_prologue) {
		ret = ncsync_ev_take(prog, lw->mask);
		if (ret < 0)
			return ret;
	}
	if (lw->core)
		ncsync_core_sems_take(prog);
	/* Now that it owns them, the program must not write them. */
	return ncsync_lower_own_check(prog);
}

/*
 * Rewrite every stream; on failure drop what the rewrite added, so that
 * nothing changed.
 */
static int ncsync_lower_streams(struct ncsync_program *prog,
				struct ncsync_lowering *lw)
{
	unsigned int nlabels = prog->nlabels, nfixups = prog->nfixups, e;
	int ret;

	for (e = 0; e < NCSYNC_MAX_ENGINE_ID; e++) {
		if (!prog->streams[e])
			continue;
		ret = ncsync_lower_stream(lw, prog->streams[e]);
		if (ret < 0) {
			prog->nlabels = nlabels;
			prog->nfixups = nfixups;
			return ret;
		}
	}
	ncsync_lower_commit(prog, lw, nlabels, nfixups);
	if (lw->ctr_prologue) {
		prog->ctr_used = true;
		prog->ctr_mask = lw->mask;
		prog->ctr_prologue = true;
	}
	if (lw->ev_prologue) {
		prog->ev_used = true;
		prog->ev_prologue = true;
	}
	if (lw->core)
		prog->core_lnc = lw->lnc;
	prog->frozen = true;
	return 0;
}

int ncsync_program_lower(struct ncsync_program *prog,
			 enum ncsync_barrier_lowering how)
{
	struct ncsync_lowering *lw;
	unsigned int e;
	int ret;

	if (!prog ||
	    (how != NCSYNC_LOWER_COUNTER && how != NCSYNC_LOWER_EVENTS))
		return -EINVAL;
	prog->lower_msg[0] = '\0';
	if (!ncsync_lower_pending(prog)) {
		prog->frozen = true;
		return 0;
	}
	lw = calloc(1, sizeof(*lw));
	if (!lw)
		return -ENOMEM;
	lw->how = how;
	ret = ncsync_lower_calls(prog, &lw->undo);
	if (!ret)
		ret = ncsync_lower_plan(prog, lw);
	if (!ret)
		ret = ncsync_lower_take(prog, lw);
	if (!ret)
		ret = ncsync_lower_streams(prog, lw);
	ncsync_lower_calls_end(prog, &lw->undo, ret);
	prog->cur_src = (struct ncsync_src){ 0 };
	for (e = 0; e < NCSYNC_MAX_ENGINE_ID; e++) {
		free(lw->tmp[e].recs);
		free(lw->tmp[e].lines);
		free(lw->map[e]);
	}
	free(lw);
	return ret;
}
