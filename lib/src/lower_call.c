// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * libncsync: the first lowering pass (lower.c): functions, Call (0xD3),
 * Return (0xD2) and the DMA barrier (0xC3) (Documentation/ncsync/
 * barriers.rst, "Call, Return and the DMA barrier"; ENC 7; BARRIER 6.2).
 * Their builders are in pseudo.c.
 *
 * A function is a named block of records of one engine, built like a
 * stream (ncsync_program_add_function()).  The lowering inlines the body
 * of the engine's function at each Call, branch targets relocated to the
 * copy, before the barriers are lowered: a Return ends the copy (a branch
 * to its end, or nothing when it is the body's last record), the Call's
 * events block is split around the copy (its wait on a NoOp before, its
 * update on a NoOp after).  A DMA barrier and a TriggerCollective
 * (NCSYNC_LOWER_NOOP) become a NoOp with their events block byte for byte.  Everything is checked before anything changes:
 * malformed records, a Call to an unknown function, recursion, a nesting
 * deeper than NCSYNC_CALL_MAX_DEPTH, a Return outside a function and a
 * branch across a function's edge fail with a message
 * (ncsync_program_lower_error()).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "ncsync_names.h"
#include "ncsync_optab.h"

/* Calls nest at most this deep (a Call in a body is one level more). */
#define NCSYNC_CALL_MAX_DEPTH	16

/**
 * struct ncsync_fn_label - a label bound in a function's body.
 * @index: where, in the body.
 * @id: the label.
 */
struct ncsync_fn_label {
	uint32_t index;
	int id;
};

/**
 * struct ncsync_fn_info - what the lowering knows of one function.
 * @state: 0 not seen, 1 being checked (on the call path), 2 checked.
 * @height: the deepest nesting of Calls it makes, itself included.
 * @labels: the labels bound in its body, by index.
 * @nlabels: their number.
 * @fixups: the indices in the program's fixups of its branches, by index.
 * @nfixups: their number.
 */
struct ncsync_fn_info {
	uint8_t state;
	unsigned int height;
	struct ncsync_fn_label *labels;
	unsigned int nlabels;
	unsigned int *fixups;
	unsigned int nfixups;
};

/**
 * struct ncsync_calls - one lowering of Calls.
 * @prog: the program.
 * @info: per function.
 * @path: the functions on the call path being checked.
 * @depth: their number.
 */
struct ncsync_calls {
	struct ncsync_program *prog;
	struct ncsync_fn_info *info;
	const struct ncsync_func *path[NCSYNC_CALL_MAX_DEPTH + 1];
	unsigned int depth;
};

/* Whether this file lowers @op: a Call, a Return or a NoOp-lowered one. */
static bool ncsync_stream_lowered(uint8_t op)
{
	unsigned int k = ncsync_lower_kind(op);

	return k == NCSYNC_LOWER_CALL || k == NCSYNC_LOWER_RETURN ||
	       k == NCSYNC_LOWER_NOOP;
}

static const char *ncsync_eng(uint8_t engine)
{
	const char *name = ncsync_engine_name(engine);

	return name ? name : "?";
}

/* Checking */

static const char *ncsync_where(const struct ncsync_stream *s, char *buf,
				size_t len)
{
	const struct ncsync_program *prog = s->prog;

	if (s->fn)
		snprintf(buf, len, "engine %s function %s", ncsync_eng(s->engine),
			 prog->funcs[s->fn - 1]->name);
	else
		snprintf(buf, len, "engine %s", ncsync_eng(s->engine));
	return buf;
}

static int ncsync_call_height(struct ncsync_calls *cx,
			      const struct ncsync_func *f);

/* The call path ending at @f, as "a -> b -> a", into the message. */
static int ncsync_fail_recursion(struct ncsync_calls *cx,
				 const struct ncsync_func *f)
{
	char path[NCSYNC_LOWER_MSG_MAX] = "";
	size_t n = 0;
	unsigned int i;

	for (i = 0; i < cx->depth; i++)
		if (cx->path[i] == f)
			break;
	for (; i < cx->depth && n < sizeof(path); i++)
		n += snprintf(path + n, sizeof(path) - n, "%s -> ",
			      cx->path[i]->name);
	if (n < sizeof(path))
		snprintf(path + n, sizeof(path) - n, "%s", f->name);
	return ncsync_lower_fail(cx->prog, -ELOOP,
				 "engine %s: recursive call: %s",
				 ncsync_eng(f->body.engine), path);
}

/*
 * Record @i of @s, a pseudo-op: check it; for a Call, return the height
 * of its callee (0 for anything else).
 */
static int ncsync_check_pseudo(struct ncsync_calls *cx,
			       const struct ncsync_stream *s, uint32_t i)
{
	const uint8_t *rec = ncsync_stream_at(s, i);
	struct ncsync_pseudo p;
	enum ncsync_pseudo_reason r;
	struct ncsync_func *g;
	char at[80];

	r = ncsync_pseudo_decode(rec, &p);
	if (r)
		return ncsync_lower_fail(cx->prog, -EINVAL,
					 "%s record %u: malformed %s (0x%02x): %s",
					 ncsync_where(s, at, sizeof(at)), i,
					 ncsync_text_name(ncsync_text_opcodes,
							  rec[0]),
					 rec[0], ncsync_pseudo_reason_name(r));
	if (ncsync_lower_kind(p.opcode) == NCSYNC_LOWER_RETURN && !s->fn)
		return ncsync_lower_fail(cx->prog, -EINVAL,
					 "%s record %u: ret outside a function",
					 ncsync_where(s, at, sizeof(at)), i);
	if (ncsync_lower_kind(p.opcode) != NCSYNC_LOWER_CALL)
		return 0;
	g = ncsync_func_find(cx->prog, s->engine, p.name);
	if (!g)
		return ncsync_lower_fail(cx->prog, -ENOENT,
					 "%s record %u: call to unknown function '%s'",
					 ncsync_where(s, at, sizeof(at)), i,
					 p.name);
	return ncsync_call_height(cx, g);
}

/* The Calls of @s nest at most this deep (0: none), or an error. */
static int ncsync_check_stream(struct ncsync_calls *cx,
			       const struct ncsync_stream *s)
{
	int h, height = 0;
	uint32_t i;

	for (i = 0; i < s->count; i++) {
		uint8_t op = ncsync_stream_at(s, i)[0];

		if (!ncsync_stream_lowered(op))
			continue;
		h = ncsync_check_pseudo(cx, s, i);
		if (h < 0)
			return h;
		if (h > height)
			height = h;
	}
	return height;
}

/* 1 + the deepest nesting of the Calls in @f's body, or an error. */
static int ncsync_call_height(struct ncsync_calls *cx,
			      const struct ncsync_func *f)
{
	struct ncsync_fn_info *in = &cx->info[f->body.fn - 1];
	int h;

	if (in->state == 1)
		return ncsync_fail_recursion(cx, f);
	/* Checked once, but reached again on a longer path, maybe. */
	if (cx->depth + (in->state == 2 ? in->height : 1) >
	    NCSYNC_CALL_MAX_DEPTH)
		return ncsync_lower_fail(cx->prog, -ELOOP,
					 "engine %s function %s: calls nested deeper than %u",
					 ncsync_eng(f->body.engine), f->name,
					 NCSYNC_CALL_MAX_DEPTH);
	if (in->state == 2)
		return (int)in->height;
	in->state = 1;
	cx->path[cx->depth++] = f;
	h = ncsync_check_stream(cx, &f->body);
	cx->depth--;
	if (h < 0)
		return h;
	in->state = 2;
	in->height = (unsigned int)h + 1;
	return (int)in->height;
}

/* A branch may not cross a function's edge, either way. */
static int ncsync_check_fixups(struct ncsync_calls *cx)
{
	struct ncsync_program *prog = cx->prog;
	unsigned int i;

	for (i = 0; i < prog->nfixups; i++) {
		const struct ncsync_fixup *f = &prog->fixups[i];
		const struct ncsync_label *l = &prog->labels[f->label];

		if ((f->fn && (!l->bound || l->fn != f->fn)) ||
		    (!f->fn && l->bound && l->fn))
			return ncsync_lower_fail(prog, -EXDEV,
						 "engine %s%s%s record %u: branch to a label %s",
						 ncsync_eng(f->engine),
						 f->fn ? " function " : "",
						 f->fn ? prog->funcs[f->fn - 1]->name : "",
						 f->index,
						 f->fn ? "outside the function" :
							 "inside a function");
	}
	return 0;
}

/* Everything the inlining reads, checked before anything changes. */
static int ncsync_calls_check(struct ncsync_calls *cx)
{
	struct ncsync_program *prog = cx->prog;
	unsigned int e, i;
	int ret;

	for (e = 0; e < NCSYNC_MAX_ENGINE_ID; e++) {
		if (!prog->streams[e])
			continue;
		ret = ncsync_check_stream(cx, prog->streams[e]);
		if (ret < 0)
			return ret;
	}
	for (i = 0; i < prog->nfuncs; i++) {
		ret = ncsync_call_height(cx, prog->funcs[i]);
		if (ret < 0)
			return ret;
	}
	return ncsync_check_fixups(cx);
}

static int ncsync_fn_label_cmp(const void *a, const void *b)
{
	const struct ncsync_fn_label *x = a, *y = b;

	if (x->index != y->index)
		return x->index < y->index ? -1 : 1;
	return x->id - y->id;
}

/* The labels and branches of each function's body. */
static int ncsync_calls_index(struct ncsync_calls *cx)
{
	struct ncsync_program *prog = cx->prog;
	struct ncsync_fn_info *in;
	unsigned int i, k;

	for (i = 0; i < prog->nlabels; i++)
		if (prog->labels[i].bound && prog->labels[i].fn)
			cx->info[prog->labels[i].fn - 1].nlabels++;
	for (i = 0; i < prog->nfixups; i++)
		if (prog->fixups[i].fn)
			cx->info[prog->fixups[i].fn - 1].nfixups++;
	for (k = 0; k < prog->nfuncs; k++) {
		in = &cx->info[k];
		in->labels = calloc(in->nlabels + 1, sizeof(*in->labels));
		in->fixups = calloc(in->nfixups + 1, sizeof(*in->fixups));
		if (!in->labels || !in->fixups)
			return -ENOMEM;
		in->nlabels = in->nfixups = 0;
	}
	for (i = 0; i < prog->nlabels; i++) {
		const struct ncsync_label *l = &prog->labels[i];

		if (!l->bound || !l->fn)
			continue;
		in = &cx->info[l->fn - 1];
		in->labels[in->nlabels].index = l->index;
		in->labels[in->nlabels++].id = (int)i;
	}
	for (i = 0; i < prog->nfixups; i++)
		if (prog->fixups[i].fn) {
			in = &cx->info[prog->fixups[i].fn - 1];
			in->fixups[in->nfixups++] = i;
		}
	for (k = 0; k < prog->nfuncs; k++)
		qsort(cx->info[k].labels, cx->info[k].nlabels,
		      sizeof(*cx->info[k].labels), ncsync_fn_label_cmp);
	return 0;
}

/* Inlining */

static int ncsync_inline_call(struct ncsync_calls *cx, struct ncsync_stream *t,
			      const uint8_t *rec);

/* The NoOp that carries @rec's events block. */
static int ncsync_put_noop_of(struct ncsync_stream *t, const uint8_t *rec)
{
	uint8_t nop[NCSYNC_RECORD_SIZE];

	ncsync_pseudo_noop(rec, nop);
	return ncsync_stream_put(t, nop);
}

/*
 * A branch of a body, record @i, whose fixup is @fx: copied, its target
 * the copy's label of the one it named.
 */
static int ncsync_inline_branch(struct ncsync_calls *cx,
				struct ncsync_stream *t,
				const struct ncsync_fn_info *in,
				const int *copy, const uint8_t *rec,
				unsigned int fx)
{
	int label = cx->prog->fixups[fx].label, idx;
	unsigned int k;

	for (k = 0; k < in->nlabels && in->labels[k].id != label; k++)
		;
	if (k == in->nlabels)
		return -EXDEV;	/* ncsync_check_fixups() refused it */
	idx = ncsync_stream_put(t, rec);
	if (idx < 0)
		return idx;
	return ncsync_fixup_add(cx->prog, t->engine, 0, (uint32_t)idx,
				copy[k]);
}

/* Record @i of the body of @f, copied into @t; @end is the copy's end. */
static int ncsync_inline_record(struct ncsync_calls *cx,
				struct ncsync_stream *t,
				const struct ncsync_func *f, const int *copy,
				uint32_t i, int end, unsigned int *fx)
{
	const struct ncsync_fn_info *in = &cx->info[f->body.fn - 1];
	const uint8_t *rec = ncsync_stream_at(&f->body, i);
	struct ncsync_events ev;

	if (*fx < in->nfixups &&
	    cx->prog->fixups[in->fixups[*fx]].index == i)
		return ncsync_inline_branch(cx, t, in, copy, rec,
					    in->fixups[(*fx)++]);
	switch (ncsync_lower_kind(rec[0])) {
	case NCSYNC_LOWER_CALL:
		return ncsync_inline_call(cx, t, rec);
	case NCSYNC_LOWER_NOOP:
		return ncsync_put_noop_of(t, rec);
	case NCSYNC_LOWER_RETURN:
		ncsync_events_get(rec, &ev);
		if (i + 1 < f->body.count)
			return ncsync_add_branch(t, end, &ev);
		return ncsync_events_zero(&ev) ? 0 : ncsync_put_noop_of(t, rec);
	default:
		return ncsync_stream_put(t, rec);
	}
}

/* A copy of the body of @f at the end of @t, with labels of its own. */
static int ncsync_inline_body(struct ncsync_calls *cx, struct ncsync_stream *t,
			      const struct ncsync_func *f)
{
	const struct ncsync_fn_info *in = &cx->info[f->body.fn - 1];
	unsigned int k, li = 0, fx = 0;
	int *copy, end, ret = 0;
	uint32_t i;

	copy = calloc(in->nlabels + 1, sizeof(*copy));
	if (!copy)
		return -ENOMEM;
	for (k = 0; k <= in->nlabels && ret >= 0; k++)
		ret = copy[k] = ncsync_label_new(cx->prog);
	end = copy[in->nlabels];
	for (i = 0; ret >= 0 && i <= f->body.count; i++) {
		while (ret >= 0 && li < in->nlabels &&
		       in->labels[li].index == i)
			ret = ncsync_label_bind(t, copy[li++]);
		if (ret >= 0 && i < f->body.count) {
			cx->prog->cur_src = f->body.lines[i];
			ret = ncsync_inline_record(cx, t, f, copy, i, end, &fx);
		}
	}
	if (ret >= 0)
		ret = ncsync_label_bind(t, end);
	free(copy);
	return ret < 0 ? ret : 0;
}

/*
 * A Call: its wait on a NoOp, the copy of the callee's body, its update
 * on a NoOp (the events block split as a 0xD5's).  The args table id is
 * not modelled: it is dropped.
 */
static int ncsync_inline_call(struct ncsync_calls *cx, struct ncsync_stream *t,
			      const uint8_t *rec)
{
	struct ncsync_events ev, wait, upd;
	struct ncsync_src src = cx->prog->cur_src;
	const struct ncsync_func *f;
	struct ncsync_pseudo p;
	int ret = 0;

	ncsync_pseudo_decode(rec, &p);
	f = ncsync_func_find(cx->prog, t->engine, p.name);
	if (!f)
		return -ENOENT;	/* ncsync_calls_check() refused it */
	ncsync_events_get(rec, &ev);
	ncsync_events_split(&ev, &wait, &upd);
	if (!ncsync_events_zero(&wait))
		ret = ncsync_add_nop(t, &wait);
	if (ret >= 0)
		ret = ncsync_inline_body(cx, t, f);
	cx->prog->cur_src = src;
	if (ret >= 0 && !ncsync_events_zero(&upd))
		ret = ncsync_add_nop(t, &upd);
	return ret < 0 ? ret : 0;
}

/* Stream @s rewritten into @t; @map gets the new index of each record. */
static int ncsync_calls_stream(struct ncsync_calls *cx,
			       const struct ncsync_stream *s,
			       struct ncsync_stream *t, uint32_t *map)
{
	uint32_t i;
	int ret;

	for (i = 0; i < s->count; i++) {
		const uint8_t *rec = ncsync_stream_at(s, i);

		map[i] = t->count;
		cx->prog->cur_src = s->lines[i];
		if (ncsync_lower_kind(rec[0]) == NCSYNC_LOWER_CALL)
			ret = ncsync_inline_call(cx, t, rec);
		else if (ncsync_lower_kind(rec[0]) == NCSYNC_LOWER_NOOP)
			ret = ncsync_put_noop_of(t, rec);
		else
			ret = ncsync_stream_put(t, rec);
		if (ret < 0)
			return ret;
	}
	map[s->count] = t->count;
	cx->prog->cur_src = (struct ncsync_src){ 0 };
	return 0;
}

/* Keep a copy of the labels and fixups as they were, for the undo. */
static int ncsync_calls_save(struct ncsync_program *prog,
			     struct ncsync_call_undo *u, unsigned int nlabels,
			     unsigned int nfixups)
{
	u->labels = malloc((nlabels + 1) * sizeof(*u->labels));
	u->fixups = malloc((nfixups + 1) * sizeof(*u->fixups));
	if (!u->labels || !u->fixups) {
		free(u->labels);
		free(u->fixups);
		u->labels = NULL;
		u->fixups = NULL;
		return -ENOMEM;
	}
	memcpy(u->labels, prog->labels, nlabels * sizeof(*u->labels));
	memcpy(u->fixups, prog->fixups, nfixups * sizeof(*u->fixups));
	u->nlabels = nlabels;
	u->nfixups = nfixups;
	return 0;
}

/*
 * Relocate the labels and fixups bound before the rewrite, drop the
 * functions' fixups, and put the rewritten streams in place (the old ones
 * into @u).
 */
static void ncsync_calls_commit(struct ncsync_program *prog,
				struct ncsync_call_undo *u,
				struct ncsync_stream *tmp, uint32_t **map)
{
	unsigned int i, n = 0;

	for (i = 0; i < u->nlabels; i++) {
		struct ncsync_label *l = &prog->labels[i];

		if (l->bound && !l->fn && map[l->engine])
			l->index = map[l->engine][l->index];
	}
	for (i = 0; i < prog->nfixups; i++) {
		struct ncsync_fixup f = prog->fixups[i];

		if (f.fn)
			continue;
		if (i < u->nfixups && map[f.engine])
			f.index = map[f.engine][f.index];
		prog->fixups[n++] = f;
	}
	prog->nfixups = n;
	for (i = 0; i < NCSYNC_MAX_ENGINE_ID; i++) {
		struct ncsync_stream *s = prog->streams[i];

		if (!s)
			continue;
		u->recs[i] = s->recs;
		u->lines[i] = s->lines;
		u->count[i] = s->count;
		u->cap[i] = s->cap;
		s->recs = tmp[i].recs;
		s->lines = tmp[i].lines;
		s->count = tmp[i].count;
		s->cap = tmp[i].cap;
		tmp[i].recs = NULL;
		tmp[i].lines = NULL;
	}
	u->done = true;
}

/* Rewrite every stream; on success commit, else drop what was added. */
static int ncsync_calls_rewrite(struct ncsync_calls *cx,
				struct ncsync_call_undo *u)
{
	struct ncsync_program *prog = cx->prog;
	struct ncsync_stream tmp[NCSYNC_MAX_ENGINE_ID] = { 0 };
	unsigned int nlabels = prog->nlabels, nfixups = prog->nfixups, e;
	uint32_t *map[NCSYNC_MAX_ENGINE_ID] = { 0 };
	int ret = ncsync_calls_save(prog, u, nlabels, nfixups);

	for (e = 0; !ret && e < NCSYNC_MAX_ENGINE_ID; e++) {
		struct ncsync_stream *s = prog->streams[e];

		if (!s)
			continue;
		tmp[e].prog = prog;
		tmp[e].engine = s->engine;
		map[e] = calloc((size_t)s->count + 1, sizeof(*map[e]));
		ret = map[e] ? ncsync_calls_stream(cx, s, &tmp[e], map[e]) :
			       -ENOMEM;
	}
	if (!ret) {
		ncsync_calls_commit(prog, u, tmp, map);
	} else {
		prog->nlabels = nlabels;
		prog->nfixups = nfixups;
	}
	for (e = 0; e < NCSYNC_MAX_ENGINE_ID; e++) {
		free(tmp[e].recs);
		free(tmp[e].lines);
		free(map[e]);
	}
	return ret;
}

static bool ncsync_calls_pending(const struct ncsync_program *prog)
{
	unsigned int e;
	uint32_t i;

	if (prog->nfuncs)
		return true;
	for (e = 0; e < NCSYNC_MAX_ENGINE_ID; e++) {
		const struct ncsync_stream *s = prog->streams[e];

		for (i = 0; s && i < s->count; i++) {
			uint8_t op = ncsync_stream_at(s, i)[0];

			if (ncsync_stream_lowered(op))
				return true;
		}
	}
	return false;
}

/**
 * ncsync_lower_calls() - inline the Calls, lower Returns and DMA barriers.
 * @prog: the program.
 * @undo: out: what changed, for ncsync_lower_calls_end(); zeroed first.
 *
 * Return: 0, or a negative errno with the program unchanged (the message
 * of ncsync_program_lower_error() set for what the program is refused for).
 */
int ncsync_lower_calls(struct ncsync_program *prog,
		       struct ncsync_call_undo *undo)
{
	struct ncsync_calls cx = { .prog = prog };
	unsigned int i;
	int ret;

	memset(undo, 0, sizeof(*undo));
	if (!ncsync_calls_pending(prog))
		return 0;
	cx.info = calloc(prog->nfuncs + 1, sizeof(*cx.info));
	if (!cx.info)
		return -ENOMEM;
	ret = ncsync_calls_check(&cx);
	if (ret >= 0)
		ret = ncsync_calls_index(&cx);
	if (ret >= 0)
		ret = ncsync_calls_rewrite(&cx, undo);
	for (i = 0; i < prog->nfuncs; i++) {
		free(cx.info[i].labels);
		free(cx.info[i].fixups);
	}
	free(cx.info);
	return ret < 0 ? ret : 0;
}

/**
 * ncsync_lower_calls_end() - keep or undo what ncsync_lower_calls() did.
 * @prog: the program.
 * @undo: what it changed.
 * @ret: the result of the whole lowering: 0 keeps the rewrite and drops
 *	the functions, a failure puts the program back as it was.
 */
void ncsync_lower_calls_end(struct ncsync_program *prog,
			    struct ncsync_call_undo *undo, int ret)
{
	unsigned int i;

	if (!undo->done)
		return;
	for (i = 0; i < NCSYNC_MAX_ENGINE_ID; i++) {
		struct ncsync_stream *s = prog->streams[i];

		if (!s || ret >= 0) {
			free(undo->recs[i]);
			free(undo->lines[i]);
			continue;
		}
		free(s->recs);
		free(s->lines);
		s->recs = undo->recs[i];
		s->lines = undo->lines[i];
		s->count = undo->count[i];
		s->cap = undo->cap[i];
	}
	if (ret >= 0) {
		ncsync_funcs_free(prog);
	} else {
		memcpy(prog->labels, undo->labels,
		       undo->nlabels * sizeof(*undo->labels));
		memcpy(prog->fixups, undo->fixups,
		       undo->nfixups * sizeof(*undo->fixups));
		prog->nlabels = undo->nlabels;
		prog->nfixups = undo->nfixups;
	}
	free(undo->labels);
	free(undo->fixups);
	undo->done = false;
}
