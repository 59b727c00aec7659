// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * libncsync: programs, streams and labels.
 *
 * A program holds one growable stream of 64-byte records per datapath
 * engine.  Branch builders name their target by a label; the label is bound
 * to a record index of one stream, and ncsync_program_finalize() writes the
 * index into every branch (after the lowering, which moves records).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

bool ncsync_engine_valid(unsigned int engine)
{
	return engine < NCSYNC_MAX_ENGINE_ID &&
	       (NCSYNC_ENGINE_MASK & (1U << engine));
}

/* The position of a datapath engine in {1, 2, 3, 5, 6}: 0 .. 4. */
unsigned int ncsync_engine_slot(uint8_t engine)
{
	return engine < NCSYNC_ENGINE_DMA ? engine - 1U : engine - 2U;
}

bool ncsync_is_pseudo(uint8_t opcode)
{
	return opcode >= NCSYNC_OPC_PSEUDO_FIRST && opcode < NCSYNC_OPC_EXIT;
}

int ncsync_program_new(struct ncsync_program **progp)
{
	struct ncsync_program *prog;

	if (!progp)
		return -EINVAL;
	prog = calloc(1, sizeof(*prog));
	if (!prog)
		return -ENOMEM;
	prog->res_sem_first = NCSYNC_NUM_SEMS - NCSYNC_DEFAULT_RESERVED;
	prog->res_sem_count = NCSYNC_DEFAULT_RESERVED;
	prog->res_event_first = NCSYNC_NUM_EVENTS - NCSYNC_DEFAULT_RESERVED;
	prog->res_event_count = NCSYNC_DEFAULT_RESERVED;
	prog->ctr_sem = -1;
	prog->ctr_epoch = NCSYNC_BARRIER_EPOCH;
	prog->fence_sem = -1;
	ncsync_alloc_init(prog);
	*progp = prog;
	return 0;
}

static void ncsync_stream_free(struct ncsync_stream *s)
{
	if (!s)
		return;
	free(s->recs);
	free(s->lines);
	free(s);
}

void ncsync_program_free(struct ncsync_program *prog)
{
	unsigned int i;

	if (!prog)
		return;
	for (i = 0; i < NCSYNC_MAX_ENGINE_ID; i++)
		ncsync_stream_free(prog->streams[i]);
	ncsync_funcs_free(prog);
	free(prog->labels);
	free(prog->fixups);
	free(prog);
}

int ncsync_program_stream(struct ncsync_program *prog, uint8_t engine,
			  struct ncsync_stream **streamp)
{
	struct ncsync_stream *s;

	if (!prog || !streamp || !ncsync_engine_valid(engine))
		return -EINVAL;
	s = prog->streams[engine];
	if (!s) {
		if (prog->frozen)
			return -EBUSY;
		s = calloc(1, sizeof(*s));
		if (!s)
			return -ENOMEM;
		s->prog = prog;
		s->engine = engine;
		prog->streams[engine] = s;
	}
	*streamp = s;
	return 0;
}

struct ncsync_stream *ncsync_program_find_stream(struct ncsync_program *prog,
						 uint8_t engine)
{
	if (!prog || engine >= NCSYNC_MAX_ENGINE_ID)
		return NULL;
	return prog->streams[engine];
}

unsigned int ncsync_program_engines(const struct ncsync_program *prog)
{
	unsigned int i, mask = 0;

	if (!prog)
		return 0;
	for (i = 0; i < NCSYNC_MAX_ENGINE_ID; i++)
		if (prog->streams[i])
			mask |= 1U << i;
	return mask;
}

/* Where every stream ends now, for ncsync_program_rewind(). */
void ncsync_program_mark(const struct ncsync_program *prog,
			 struct ncsync_mark *m)
{
	unsigned int e;

	for (e = 0; e < NCSYNC_MAX_ENGINE_ID; e++)
		m->counts[e] = prog->streams[e] ? prog->streams[e]->count : 0;
	m->nfixups = prog->nfixups;
}

/* Drop every record and fixup added since @m. */
void ncsync_program_rewind(struct ncsync_program *prog,
			   const struct ncsync_mark *m)
{
	unsigned int e;

	for (e = 0; e < NCSYNC_MAX_ENGINE_ID; e++)
		if (prog->streams[e])
			prog->streams[e]->count = m->counts[e];
	prog->nfixups = m->nfixups;
}

unsigned int ncsync_program_nstreams(const struct ncsync_program *prog)
{
	return __builtin_popcount(ncsync_program_engines(prog));
}

uint8_t ncsync_stream_engine(const struct ncsync_stream *s)
{
	return s ? s->engine : 0;
}

uint32_t ncsync_stream_count(const struct ncsync_stream *s)
{
	return s ? s->count : 0;
}

/*
 * Record @index of @s, or NULL: the library's own access, which keeps the
 * program's finalization.
 */
uint8_t *ncsync_stream_at(const struct ncsync_stream *s, uint32_t index)
{
	if (!s || index >= s->count)
		return NULL;
	return s->recs + (size_t)index * NCSYNC_RECORD_SIZE;
}

/*
 * Writable access: the caller may change the record, so a finalized
 * program is validated again by the next ncsync_program_finalize() or
 * ncsync_program_submit().
 */
uint8_t *ncsync_stream_record(struct ncsync_stream *s, uint32_t index)
{
	uint8_t *rec = ncsync_stream_at(s, index);

	if (rec)
		s->prog->finalized = false;
	return rec;
}

/* Read-only access: a finalized program stays finalized. */
const uint8_t *ncsync_stream_peek(const struct ncsync_stream *s,
				  uint32_t index)
{
	return ncsync_stream_at(s, index);
}

/* A new zeroed record at the end of @s, or NULL. */
uint8_t *ncsync_stream_append(struct ncsync_stream *s)
{
	uint8_t *rec;

	if (s->count >= NCSYNC_MAX_RECORDS)
		return NULL;
	if (s->count == s->cap) {
		uint32_t cap = s->cap ? s->cap * 2 : 64, *lines;
		uint8_t *recs;

		if (cap > NCSYNC_MAX_RECORDS)
			cap = NCSYNC_MAX_RECORDS;
		recs = realloc(s->recs, (size_t)cap * NCSYNC_RECORD_SIZE);
		if (!recs)
			return NULL;
		s->recs = recs;
		lines = realloc(s->lines, (size_t)cap * sizeof(*lines));
		if (!lines)
			return NULL;
		s->lines = lines;
		s->cap = cap;
	}
	rec = s->recs + (size_t)s->count * NCSYNC_RECORD_SIZE;
	memset(rec, 0, NCSYNC_RECORD_SIZE);
	s->lines[s->count] = s->prog ? s->prog->cur_line : 0;
	s->count++;
	return rec;
}

/* Append a copy of @rec; return its index or a negative errno. */
int ncsync_stream_put(struct ncsync_stream *s, const uint8_t *rec)
{
	uint8_t *dst;

	if (s->prog->frozen)
		return -EBUSY;
	if (s->count >= NCSYNC_MAX_RECORDS)
		return -E2BIG;
	dst = ncsync_stream_append(s);
	if (!dst)
		return -ENOMEM;
	memcpy(dst, rec, NCSYNC_RECORD_SIZE);
	return (int)(s->count - 1);
}

int ncsync_label_new(struct ncsync_program *prog)
{
	struct ncsync_label *l;

	if (!prog)
		return -EINVAL;
	if (prog->nlabels >= INT32_MAX)
		return -ENOSPC;
	if (prog->nlabels == prog->labels_cap) {
		unsigned int cap = prog->labels_cap ? prog->labels_cap * 2 : 16;

		l = realloc(prog->labels, cap * sizeof(*l));
		if (!l)
			return -ENOMEM;
		prog->labels = l;
		prog->labels_cap = cap;
	}
	l = &prog->labels[prog->nlabels];
	memset(l, 0, sizeof(*l));
	return (int)prog->nlabels++;
}

int ncsync_label_bind(struct ncsync_stream *s, int label)
{
	struct ncsync_program *prog;
	struct ncsync_label *l;

	if (!s)
		return -EINVAL;
	prog = s->prog;
	if (label < 0 || (unsigned int)label >= prog->nlabels)
		return -EINVAL;
	if (prog->frozen)
		return -EBUSY;
	l = &prog->labels[label];
	if (l->bound)
		return -EEXIST;
	l->bound = true;
	l->engine = s->engine;
	l->fn = s->fn;
	l->index = s->count;
	return (int)s->count;
}

int ncsync_fixup_add(struct ncsync_program *prog, uint8_t engine,
		     uint32_t fn, uint32_t index, int label)
{
	struct ncsync_fixup *f;

	if (prog->nfixups == prog->fixups_cap) {
		unsigned int cap = prog->fixups_cap ? prog->fixups_cap * 2 : 16;

		f = realloc(prog->fixups, cap * sizeof(*f));
		if (!f)
			return -ENOMEM;
		prog->fixups = f;
		prog->fixups_cap = cap;
	}
	f = &prog->fixups[prog->nfixups++];
	f->engine = engine;
	f->fn = fn;
	f->index = index;
	f->label = label;
	return 0;
}

/* Refuse a branch to a label that is never bound, with the message. */
static int ncsync_fixup_unbound(struct ncsync_program *prog,
				const struct ncsync_fixup *f)
{
	return ncsync_lower_fail(prog, -ENOENT,
				 "engine %s record %u: branch to label %u, which is never bound",
				 ncsync_engine_name(f->engine), f->index,
				 f->label);
}

/* Write the target of every branch; the first failure is returned. */
static int ncsync_fixups_resolve(struct ncsync_program *prog)
{
	unsigned int i;

	for (i = 0; i < prog->nfixups; i++) {
		const struct ncsync_fixup *f = &prog->fixups[i];
		const struct ncsync_label *l = &prog->labels[f->label];
		uint8_t *rec;

		if (!l->bound)
			return ncsync_fixup_unbound(prog, f);
		/* Function bodies are inlined by the lowering: none is left. */
		if (l->engine != f->engine || l->fn || f->fn)
			return ncsync_lower_fail(prog, -EXDEV,
						 "engine %s record %u: branch to label %u of another stream",
						 ncsync_engine_name(f->engine),
						 f->index, f->label);
		rec = ncsync_stream_at(prog->streams[f->engine], f->index);
		if (!rec)
			return ncsync_lower_fail(prog, -EINVAL,
						 "engine %s: branch record %u is gone",
						 ncsync_engine_name(f->engine),
						 f->index);
		ncsync_put_u64(rec + NCSYNC_REC_BR_TARGET, l->index);
	}
	return 0;
}

/* Check every record with the shared validator, as the kernel will. */
static int ncsync_program_validate(struct ncsync_program *prog)
{
	struct ncsync_insn insn;
	unsigned int e;
	uint32_t i;

	prog->bad_reason = NCSYNC_REC_OK;
	for (e = 0; e < NCSYNC_MAX_ENGINE_ID; e++) {
		struct ncsync_stream *s = prog->streams[e];

		if (!s)
			continue;
		for (i = 0; i < s->count; i++) {
			enum ncsync_rec_reason r;

			/*
			 * The program does not know the device: DMA ranges
			 * are checked against the largest bound here and
			 * against the device memory by the kernel.
			 */
			r = ncsync_record_decode(ncsync_stream_at(s, i),
						 s->count, UINT64_MAX, &insn);
			if (r) {
				prog->bad_engine = s->engine;
				prog->bad_index = i;
				prog->bad_reason = r;
				return ncsync_lower_fail(prog, -EINVAL,
							 "engine %s record %u: %s",
							 ncsync_engine_name(s->engine),
							 i, ncsync_reason_name(r));
			}
		}
	}
	return 0;
}

static int ncsync_finalize(struct ncsync_program *prog)
{
	unsigned int i;
	int ret;

	/* Validated once: until a record is handed out writable again. */
	if (prog->finalized)
		return 0;
	/* Only this finalization's refusal and message are reported. */
	prog->bad_reason = NCSYNC_REC_OK;
	prog->lower_msg[0] = '\0';
	/* An unbound label is reported before anything is rewritten. */
	for (i = 0; i < prog->nfixups; i++) {
		const struct ncsync_fixup *f = &prog->fixups[i];

		if (!prog->labels[f->label].bound)
			return ncsync_fixup_unbound(prog, f);
	}
	if (ncsync_lower_pending(prog)) {
		ret = ncsync_program_lower(prog, NCSYNC_LOWER_COUNTER);
		if (ret)
			return ret;
	}
	prog->frozen = true;
	ret = ncsync_fixups_resolve(prog);
	if (ret)
		return ret;
	ret = ncsync_program_validate(prog);
	if (ret)
		return ret;
	prog->finalized = true;
	return 0;
}

int ncsync_program_finalize(struct ncsync_program *prog)
{
	int ret;

	if (!prog)
		return -EINVAL;
	ret = ncsync_finalize(prog);
	/* Every failure leaves a message (ncsync_program_lower_error()). */
	if (ret < 0 && !prog->lower_msg[0])
		ncsync_lower_fail(prog, ret, "finalization failed: %s",
				  strerror(-ret));
	return ret;
}

/**
 * ncsync_program_error() - the record the last finalization refused.
 * @prog: the program.
 * @err: out: the record's engine, its index in that engine's stream (as
 *	finalized: after the lowering) and the validator's reason; cleared
 *	(reason NCSYNC_REC_OK) when there is none.
 *
 * The last ncsync_program_finalize(), or the one ncsync_program_submit()
 * does, is the one reported.  A failure that is not a record's (a label,
 * the lowering, memory) and a refusal by the kernel are not.
 *
 * Return: 0 when that finalization refused a record, -ENOENT when it
 * refused none, failed otherwise or never ran, -EINVAL when @prog or
 * @err is NULL.
 */
int ncsync_program_error(const struct ncsync_program *prog,
			 struct ncsync_submit_error *err)
{
	if (!prog || !err)
		return -EINVAL;
	memset(err, 0, sizeof(*err));
	if (prog->bad_reason == NCSYNC_REC_OK)
		return -ENOENT;
	err->engine = prog->bad_engine;
	err->index = prog->bad_index;
	err->reason = prog->bad_reason;
	return 0;
}
