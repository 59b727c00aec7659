// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * libncsync: the program representation, the bottom of the library's
 * layers (Documentation/ncsync/architecture.rst): programs, streams,
 * labels, branch fixups, functions, the lowering's message, and the
 * names of engines and refusal reasons.  The builders, the lowering
 * passes, the finalization, the assembler and the disassembler all work
 * on it; it calls none of them.
 *
 * A program holds one growable stream of 64-byte records per datapath
 * engine.  Branch builders name their target by a label; the label is bound
 * to a record index of one stream, and ncsync_program_finalize() writes the
 * index into every branch (after the lowering, which moves records).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "ncsync_names.h"
#include "ncsync_optab.h"

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

/*
 * How the library lowers @opcode: its opcode table row's lower column
 * (enum ncsync_op_lower); NCSYNC_LOWER_NONE for an opcode the engines run
 * or one the table does not have.
 */
unsigned int ncsync_lower_kind(uint8_t opcode)
{
	const struct ncsync_opdesc *d = ncsync_op(opcode);

	return d ? d->lower : NCSYNC_LOWER_NONE;
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

/**
 * ncsync_stream_decode() - a record of a stream, through the validator.
 * @s: the stream.
 * @index: the record.
 * @in: the decoded record.
 *
 * The branch targets are bound by the stream's length; DMA addresses by
 * the largest bound (the device's is the kernel's to check).
 *
 * Return: true if there is a record @index and the validator accepts it.
 */
bool ncsync_stream_decode(const struct ncsync_stream *s, uint32_t index,
			  struct ncsync_insn *in)
{
	const uint8_t *rec = ncsync_stream_at(s, index);

	return rec && ncsync_record_decode(rec, s->count, UINT64_MAX, in) ==
		      NCSYNC_REC_OK &&
	       ncsync_record_check_at(in, index, s->count) == NCSYNC_REC_OK;
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

/**
 * ncsync_stream_line() - the text line a record was assembled from.
 * @s: the stream.
 * @index: the record.
 *
 * Return: the 1-based line of the text ncsync_asm() read (a lowered
 * barrier's records: the barrier's line); 0 for a record built otherwise
 * or past the end.
 */
uint32_t ncsync_stream_line(const struct ncsync_stream *s, uint32_t index)
{
	if (!s || index >= s->count || !s->lines)
		return 0;
	return s->lines[index].line;
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
		uint32_t cap = s->cap ? s->cap * 2 : 64;
		struct ncsync_src *lines;
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
	if (s->prog)
		s->lines[s->count] = s->prog->cur_src;
	else
		memset(&s->lines[s->count], 0, sizeof(s->lines[s->count]));
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

/**
 * ncsync_lower_fail() - record why the lowering fails.
 * @prog: the program.
 * @ret: the negative errno returned.
 * @fmt: the message (ncsync_program_lower_error()), printf-style.
 *
 * Return: @ret.
 */
int ncsync_lower_fail(struct ncsync_program *prog, int ret, const char *fmt,
		      ...)
{
	va_list ap;

	prog->lower_line = 0;
	prog->lower_col = 0;
	va_start(ap, fmt);
	vsnprintf(prog->lower_msg, sizeof(prog->lower_msg), fmt, ap);
	va_end(ap);
	return ret;
}

/**
 * ncsync_program_lower_error() - why the last lowering failed.
 * @prog: the program.
 *
 * The last ncsync_program_lower(), or the one ncsync_program_finalize()
 * or ncsync_program_submit() runs, is the one reported: an unknown
 * pseudo-op (naming its opcode), a Call to an unknown function or a
 * recursive one (naming the functions), a Return outside a function.
 * Every failure of ncsync_program_finalize() leaves one: a label, the
 * validator's refusal, or the error's name.
 *
 * Return: a message, valid until the program changes or is freed; NULL
 * when the last lowering or finalization did not fail, or @prog is NULL.
 */
const char *ncsync_program_lower_error(const struct ncsync_program *prog)
{
	if (!prog || !prog->lower_msg[0])
		return NULL;
	return prog->lower_msg;
}

/**
 * ncsync_program_lower_where() - the text position of the last lowering
 *	failure.
 * @prog: the program.
 * @line: out: the 1-based line of the record the failure names (a text
 *	ncsync_asm() read).
 * @col: out: the 1-based column of its statement.
 *
 * A failure that names a record of the text has one: a write to what the
 * lowering owns (Documentation/ncsync/barriers.rst, "What a program may
 * not write").  A tool prints it as the assembler's errors, file:line:col.
 *
 * Return: 0 with @line and @col set; -ENOENT when the last lowering or
 * finalization did not fail or its failure has no text position (@line
 * and @col are then 0); -EINVAL for a NULL argument.
 */
int ncsync_program_lower_where(const struct ncsync_program *prog,
			       unsigned int *line, unsigned int *col)
{
	if (!prog || !line || !col)
		return -EINVAL;
	*line = 0;
	*col = 0;
	if (!prog->lower_msg[0] || !prog->lower_line)
		return -ENOENT;
	*line = prog->lower_line;
	*col = prog->lower_col;
	return 0;
}

/* The function @name of @engine, or NULL. */
struct ncsync_func *ncsync_func_find(const struct ncsync_program *prog,
				     uint8_t engine, const char *name)
{
	unsigned int i;

	for (i = 0; i < prog->nfuncs; i++)
		if (prog->funcs[i]->body.engine == engine &&
		    !strcmp(prog->funcs[i]->name, name))
			return prog->funcs[i];
	return NULL;
}

/* Free every function of @prog: at its end, or once they are inlined. */
void ncsync_funcs_free(struct ncsync_program *prog)
{
	unsigned int i;

	for (i = 0; i < prog->nfuncs; i++) {
		free(prog->funcs[i]->body.recs);
		free(prog->funcs[i]->body.lines);
		free(prog->funcs[i]);
	}
	free(prog->funcs);
	prog->funcs = NULL;
	prog->nfuncs = 0;
}

/**
 * ncsync_reason_name() - a short description of a record refusal reason.
 * @reason: an enum ncsync_rec_reason, as struct ncsync_submit_error holds.
 *
 * Return: a constant string; "unknown reason" for values out of range.
 */
const char *ncsync_reason_name(unsigned int reason)
{
	return ncsync_rec_reason_name(reason);
}

/**
 * ncsync_engine_name() - the text form's name of an engine.
 * @engine: NCSYNC_ENGINE_*.
 *
 * Return: "pool", "act", "pe", "dma", "dve" or "sp", or NULL when @engine
 * is not an engine id.
 */
const char *ncsync_engine_name(uint8_t engine)
{
	return ncsync_text_name(ncsync_text_engines, engine);
}
