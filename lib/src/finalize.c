// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * libncsync: the finalization of a program, the last step before
 * submission: every label bound, the lowering pipeline run (lower.c) when
 * pseudo-ops remain, the branch and hint targets written from their
 * labels (after the lowering, which moves records), and every record
 * checked with the shared validator the kernel runs
 * (common/ncsync_record.c).
 */
#include <errno.h>
#include <string.h>

#include "internal.h"
#include "ncsync_optab.h"

/* Refuse a branch to a label that is never bound, with the message. */
static int ncsync_fixup_unbound(struct ncsync_program *prog,
				const struct ncsync_fixup *f)
{
	return ncsync_lower_fail(prog, -ENOENT,
				 "engine %s record %u: branch to label %u, which is never bound",
				 ncsync_engine_name(f->engine), f->index,
				 f->label);
}

/*
 * The target @target of record @index, @rec, written by the form of its
 * opcode's row: a Branch's as a record index, a BranchHint's relative to
 * @index (Documentation/ncsync/records.rst, "BranchHint (0xE1)").
 */
static void ncsync_fixup_write(uint8_t *rec, uint32_t index, uint32_t target)
{
	if (ncsync_op(rec[0])->form == NCSYNC_FORM_BR_HINT)
		ncsync_put_u32(rec + NCSYNC_REC_HINT_OFFSET, target - index);
	else
		ncsync_put_u64(rec + NCSYNC_REC_BR_TARGET, target);
}

/*
 * Write the target of every branch and hint; the first failure is
 * returned.
 */
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
		ncsync_fixup_write(rec, f->index, l->index);
	}
	return 0;
}

/*
 * Check every record with the shared validator, as the kernel will, and,
 * when the program was given its logical core (ncsync_program_set_lnc()),
 * the rule that needs it: a DMA record's peer inside it.
 */
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
			if (!r)
				r = ncsync_record_check_at(&insn, i, s->count);
			/* A logical core set: its peers, as submission does. */
			if (!r && prog->lnc)
				r = ncsync_record_check_lnc(&insn, prog->lnc);
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
