// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * libncsync: a program against the conformance profile, as the kernel
 * checks a submission with NCSYNC_SUBMIT_F_CONFORM (the rules of
 * common/ncsync_record.c, Documentation/ncsync/records.rst "The
 * conformance profile"), for callers that do not submit: ncsync check.
 */
#include <errno.h>
#include <string.h>

#include "internal.h"

static int ncsync_conform_refuse(struct ncsync_submit_error *err,
				 uint8_t engine, uint32_t index,
				 uint32_t reason)
{
	if (err) {
		err->engine = engine;
		err->index = index;
		err->reason = reason;
	}
	return -EINVAL;
}

/* The queue of @s, in the kernel's order; 0 or -EINVAL with @err set. */
static int ncsync_conform_stream(struct ncsync_conform *c,
				 const struct ncsync_stream *s,
				 struct ncsync_submit_error *err)
{
	struct ncsync_insn in;
	enum ncsync_rec_reason r;
	uint32_t i;

	for (i = 0; i < s->count; i++) {
		r = ncsync_record_decode(ncsync_stream_at(s, i), s->count,
					 UINT64_MAX, &in);
		if (!r)
			r = ncsync_record_check_at(&in, i, s->count);
		if (!r)
			r = ncsync_record_conform(c, &in);
		if (r)
			return ncsync_conform_refuse(err, s->engine, i, r);
	}
	ncsync_conform_next_queue(c);
	return 0;
}

/**
 * ncsync_program_conform() - check a program against the conformance
 *	profile.
 * @prog: a finalized program.
 * @err: out (may be NULL): the first record refused, as
 *	ncsync_program_submit() with NCSYNC_SUBMIT_F_CONFORM would report it
 *	(a malformed 0xD5 by its index before the lowering); cleared when
 *	none is.
 *
 * The queues are checked in engine order, as the library submits them.
 *
 * Return: 0 when the profile accepts every record; -EINVAL when it
 * refuses one (@err names it), or for a NULL or unfinalized @prog
 * (reason NCSYNC_REC_OK).
 */
int ncsync_program_conform(const struct ncsync_program *prog,
			   struct ncsync_submit_error *err)
{
	struct ncsync_conform c;
	unsigned int e;
	int ret;

	if (err)
		memset(err, 0, sizeof(*err));
	if (!prog || !prog->finalized)
		return -EINVAL;
	if (prog->conf_bad)
		return ncsync_conform_refuse(err, prog->conf_engine,
					     prog->conf_index,
					     NCSYNC_REC_CONF_PSEUDO);
	ncsync_conform_init(&c);
	for (e = 0; e < NCSYNC_MAX_ENGINE_ID; e++) {
		if (!prog->streams[e] || !prog->streams[e]->count)
			continue;
		ret = ncsync_conform_stream(&c, prog->streams[e], err);
		if (ret)
			return ret;
	}
	return 0;
}
