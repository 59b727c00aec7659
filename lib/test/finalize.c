// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * Finalization happens once: a finalized program stays finalized through
 * read-only access (ncsync_stream_peek()) and a second finalization, and
 * is validated again only after a record was handed out writable
 * (ncsync_stream_record()), which is when it may have changed.
 */
#include <errno.h>
#include <string.h>

#include "ncsync.h"
#include "tap.h"

/* ncsync_program_deadlock() accepts finalized programs only. */
static bool is_finalized(const struct ncsync_program *p)
{
	struct ncsync_prog_status st;
	struct ncsync_deadlock dl;

	memset(&st, 0, sizeof(st));
	return ncsync_program_deadlock(p, &st, &dl) == 0;
}

static struct ncsync_program *two_records(struct ncsync_stream **sp)
{
	struct ncsync_program *p;

	if (ncsync_program_new(&p) ||
	    ncsync_program_stream(p, NCSYNC_ENGINE_PE, sp) ||
	    ncsync_add_semaphore_inc(*sp, 3) != 0 ||
	    ncsync_add_exit(*sp, NULL) != 1)
		return NULL;
	return p;
}

/* A stream added after ncsync_add_sync_barrier(): refused, with why. */
static void stream_after_barrier(void)
{
	struct ncsync_program *p;
	struct ncsync_stream *s;
	const char *m;

	if (ncsync_program_new(&p) ||
	    ncsync_program_stream(p, NCSYNC_ENGINE_POOL, &s))
		return;
	ncsync_add_semaphore_inc(s, 3);
	TAP_CHECK(ncsync_add_sync_barrier(p) == 0, "sync barrier of pool");
	ncsync_program_stream(p, NCSYNC_ENGINE_ACT, &s);
	ncsync_add_semaphore_inc(s, 4);
	TAP_CHECK(ncsync_program_finalize(p) == -EINVAL &&
		  (m = ncsync_program_lower_error(p)) &&
		  strstr(m, "after ncsync_add_sync_barrier()"),
		  "a stream added after the barrier: -EINVAL with a message");
	ncsync_program_free(p);
}

/* A branch to a label never bound: -ENOENT, with the record. */
static void unbound_label(void)
{
	struct ncsync_program *p;
	struct ncsync_stream *s;
	const char *m;
	int l;

	if (ncsync_program_new(&p) ||
	    ncsync_program_stream(p, NCSYNC_ENGINE_DVE, &s))
		return;
	l = ncsync_label_new(p);
	ncsync_add_semaphore_inc(s, 3);
	ncsync_add_branch(s, l, NULL);
	TAP_CHECK(ncsync_program_finalize(p) == -ENOENT &&
		  (m = ncsync_program_lower_error(p)) &&
		  strstr(m, "engine dve record 1") && strstr(m, "never bound"),
		  "an unbound label: -ENOENT with the branch's record");
	ncsync_program_free(p);
}

int main(void)
{
	struct ncsync_submit_error err;
	struct ncsync_program *p;
	struct ncsync_stream *s;
	uint8_t before[NCSYNC_RECORD_SIZE];
	uint8_t *rec;

	p = two_records(&s);
	TAP_CHECK(p && !is_finalized(p), "a new program is not finalized");
	TAP_CHECK(ncsync_program_finalize(p) == 0 && is_finalized(p),
		  "finalize");
	memcpy(before, ncsync_stream_peek(s, 0), sizeof(before));
	TAP_CHECK(ncsync_program_finalize(p) == 0 && is_finalized(p) &&
		  !memcmp(before, ncsync_stream_peek(s, 0), sizeof(before)),
		  "finalizing again changes nothing");
	TAP_CHECK(ncsync_stream_peek(s, 1) && !ncsync_stream_peek(s, 2) &&
		  !ncsync_stream_peek(NULL, 0) && is_finalized(p),
		  "peek: NULL past the end; the program stays finalized");

	rec = ncsync_stream_record(s, 0);
	TAP_CHECK(rec && !memcmp(rec, before, sizeof(before)) &&
		  !is_finalized(p),
		  "writable access: the program must be validated again");
	TAP_CHECK(ncsync_program_finalize(p) == 0 && is_finalized(p),
		  "an unchanged record passes again");

	rec = ncsync_stream_record(s, 0);
	rec[0x30] = 1;
	TAP_CHECK(ncsync_program_finalize(p) == -EINVAL && !is_finalized(p),
		  "a record changed after finalization is refused");
	TAP_CHECK(ncsync_program_error(p, &err) == 0 &&
		  err.engine == NCSYNC_ENGINE_PE && err.index == 0 &&
		  err.reason == NCSYNC_REC_RESERVED_BYTE,
		  "and the reason is kept");
	TAP_CHECK(ncsync_program_lower_error(p) &&
		  strstr(ncsync_program_lower_error(p), "engine pe record 0"),
		  "the refusal leaves a message naming the record");
	TAP_CHECK(ncsync_program_finalize(p) == -EINVAL &&
		  ncsync_program_error(p, &err) == 0 &&
		  err.reason == NCSYNC_REC_RESERVED_BYTE,
		  "until the record is mended");
	ncsync_stream_record(s, 0)[0x30] = 0;
	TAP_CHECK(ncsync_program_finalize(p) == 0 && is_finalized(p) &&
		  ncsync_program_error(p, &err) == -ENOENT,
		  "mended: finalized, no error");
	TAP_CHECK(ncsync_program_lower_error(p) == NULL,
		  "and no message");
	ncsync_program_free(p);
	stream_after_barrier();
	unbound_label();
	return tap_done();
}
