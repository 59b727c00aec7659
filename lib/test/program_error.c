// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * ncsync_program_error(): the record the last finalization refused, for
 * every record of the shared bad-record table, at the first, a middle or
 * the last index of a stream on each engine; nothing after a success,
 * after a failure that is not a record's, or before any finalization.
 */
#include "asm_test.h"
#include "ncsync_record.h"

#define NRECS	5

static const uint8_t engines[] = {
	NCSYNC_ENGINE_POOL, NCSYNC_ENGINE_ACT, NCSYNC_ENGINE_PE,
	NCSYNC_ENGINE_DVE, NCSYNC_ENGINE_SP,
};

static bool names(const struct ncsync_submit_error *e, uint8_t engine,
		  uint32_t index, uint32_t reason)
{
	if (e->engine == engine && e->index == index && e->reason == reason)
		return true;
	printf("# got engine %u record %u reason %u (%s)\n", e->engine,
	       e->index, e->reason, ncsync_reason_name(e->reason));
	return false;
}

static bool cleared(const struct ncsync_submit_error *e)
{
	return !e->engine && !e->index && e->reason == NCSYNC_REC_OK;
}

/* The error of @p, after filling @e with junk. */
static int error_of(const struct ncsync_program *p,
		    struct ncsync_submit_error *e)
{
	memset(e, 0xA5, sizeof(*e));
	return ncsync_program_error(p, e);
}

/*
 * NRECS NoOps on @engine and on @other, with @bad in place of record
 * @index of @engine's stream.
 */
static struct ncsync_program *with_bad(uint8_t engine, uint8_t other,
				       uint32_t index, const uint8_t *bad)
{
	struct ncsync_stream *s, *t;
	struct ncsync_program *p;
	uint32_t i;

	if (ncsync_program_new(&p))
		abort();
	if (ncsync_program_stream(p, engine, &s) ||
	    ncsync_program_stream(p, other, &t))
		abort();
	for (i = 0; i < NRECS; i++) {
		if (ncsync_add_nop(t, NULL) < 0)
			abort();
		if ((i == index ? ncsync_add_raw(s, bad) :
				  ncsync_add_nop(s, NULL)) != (int)i)
			abort();
	}
	return p;
}

static uint8_t *rec_at(struct ncsync_program *p, uint8_t engine,
		       uint32_t index)
{
	return ncsync_stream_record(ncsync_program_find_stream(p, engine),
				    index);
}

/* Whether record @e->index of @e->engine's stream is @rec. */
static bool is_record(struct ncsync_program *p,
		      const struct ncsync_submit_error *e, const uint8_t *rec)
{
	const uint8_t *r = rec_at(p, e->engine, e->index);

	return r && !memcmp(r, rec, NCSYNC_RECORD_SIZE);
}

/*
 * Every record of the bad-record table (common/test/bad_records.h, which
 * KUnit and the selftests run too), in a stream of NRECS records: the
 * decoder refuses it for its reason, and so does the finalization, which
 * names its engine and index (the first, a middle or the last record, in
 * turn, on each engine in turn).  Two kinds of entry finalize: a range
 * that leaves only a real device memory (the library checks against
 * 2^64; the kernel refuses it), and a pseudo-op, which the lowering
 * rewrites or refuses before the validator sees it (see below).
 */
static void bad_table(void)
{
	static const uint32_t at[] = { 0, NRECS / 2, NRECS - 1 };
	const struct ncsync_bad_record *b;
	uint8_t bad[NCSYNC_RECORD_SIZE];
	struct ncsync_submit_error e;
	struct ncsync_insn insn;
	struct ncsync_program *p;
	enum ncsync_rec_reason why;
	unsigned int n, reasons = 0;
	uint8_t engine;
	uint32_t idx;
	int ret;

	for (n = 0; n < NCSYNC_NUM_BAD_RECORDS; n++) {
		b = &ncsync_bad_records[n];
		reasons |= 1U << b->reason;
		ncsync_bad_record_build(b, NRECS, bad);
		why = ncsync_record_decode(bad, NRECS, NCSYNC_BAD_DEVMEM, &insn);
		if (why == NCSYNC_REC_OK)
			why = ncsync_record_check_lnc(&insn, NCSYNC_BAD_LNC);
		TAP_CHECK(why == b->reason,
			  "decode %s: %s", b->name,
			  ncsync_reason_name(b->reason));
		if (b->reason == NCSYNC_REC_PSEUDO_OP)
			continue;
		engine = engines[n % ARRAY_LEN(engines)];
		idx = at[n % ARRAY_LEN(at)];
		p = with_bad(engine, engines[(n + 2) % ARRAY_LEN(engines)],
			     idx, bad);
		ret = ncsync_program_finalize(p);
		if (b->devmem || b->lnc)
			TAP_CHECK(ret == 0 && error_of(p, &e) == -ENOENT,
				  "finalize %s: accepted (the kernel knows the %s)",
				  b->name, b->devmem ? "device memory" :
						       "logical core");
		else
			TAP_CHECK(ret == -EINVAL && error_of(p, &e) == 0 &&
				  names(&e, engine, idx, b->reason) &&
				  is_record(p, &e, bad),
				  "finalize %s: engine %s record %u", b->name,
				  ncsync_engine_name(engine), idx);
		ncsync_program_free(p);
		if (!b->lnc)
			continue;
		/* Given the logical core, finalization refuses it too. */
		p = with_bad(engine, engines[(n + 2) % ARRAY_LEN(engines)],
			     idx, bad);
		ret = ncsync_program_set_lnc(p, NCSYNC_BAD_LNC) ?:
		      ncsync_program_finalize(p);
		TAP_CHECK(ret == -EINVAL && error_of(p, &e) == 0 &&
			  names(&e, engine, idx, b->reason) &&
			  is_record(p, &e, bad),
			  "finalize %s with lnc %u: engine %s record %u",
			  b->name, NCSYNC_BAD_LNC, ncsync_engine_name(engine),
			  idx);
		ncsync_program_free(p);
		p = with_bad(engine, engines[(n + 2) % ARRAY_LEN(engines)],
			     idx, bad);
		ret = ncsync_program_set_lnc(p, NCSYNC_MAX_LNC) ?:
		      ncsync_program_finalize(p);
		TAP_CHECK(ret == 0 && error_of(p, &e) == -ENOENT,
			  "finalize %s with lnc %u: accepted", b->name,
			  NCSYNC_MAX_LNC);
		ncsync_program_free(p);
	}
	TAP_CHECK(reasons == (((1U << NCSYNC_REC_CONF_FIRST) - 2) |
			      1U << NCSYNC_REC_UNMODELLED_OP),
		  "the table has every reason but NCSYNC_REC_OK: %#x", reasons);
}

/* Only the first record refused is reported: engine, then index order. */
static void first_refused(void)
{
	static const struct ncsync_submit_error want[] = {
		{ NCSYNC_ENGINE_PE, 1, NCSYNC_REC_BAD_POLL },
		{ NCSYNC_ENGINE_PE, 3, NCSYNC_REC_BAD_DRAIN_COUNT },
		{ NCSYNC_ENGINE_DVE, 4, NCSYNC_REC_BAD_EXIT_FLAGS },
	};
	const struct ncsync_submit_error *w = want;
	uint8_t rec[NCSYNC_RECORD_SIZE];
	struct ncsync_submit_error e;
	struct ncsync_program *p;
	unsigned int i;

	t_bad_rec(rec, w[2].reason);
	p = with_bad(w[2].engine, w[0].engine, w[2].index, rec);
	for (i = 0; i < 2; i++)
		t_bad_rec(rec_at(p, w[i].engine, w[i].index), w[i].reason);

	/* Mend them one by one: each finalization reports the next. */
	for (i = 0; i < ARRAY_LEN(want); i++) {
		TAP_CHECK(ncsync_program_finalize(p) == -EINVAL &&
			  error_of(p, &e) == 0 &&
			  names(&e, w[i].engine, w[i].index, w[i].reason),
			  "%u refused: the first is engine %s record %u",
			  (unsigned int)ARRAY_LEN(want) - i,
			  ncsync_engine_name(w[i].engine), w[i].index);
		t_rec(rec_at(p, w[i].engine, w[i].index), NCSYNC_OPC_NOOP);
	}
	TAP_CHECK(ncsync_program_finalize(p) == 0 &&
		  error_of(p, &e) == -ENOENT && cleared(&e),
		  "all mended: finalize succeeds, -ENOENT, err cleared");

	/* A later failure that is not a record's forgets the refusal. */
	t_bad_rec(rec_at(p, w[2].engine, 2), NCSYNC_REC_BAD_OPCODE);
	TAP_CHECK(ncsync_program_finalize(p) == -EINVAL &&
		  error_of(p, &e) == 0, "refused again");
	t_rec(rec_at(p, w[2].engine, 0), 0xC7);
	TAP_CHECK(ncsync_program_finalize(p) == -EOPNOTSUPP &&
		  error_of(p, &e) == -ENOENT && cleared(&e),
		  "then a pseudo-op the lowering refuses: -ENOENT");
	ncsync_program_free(p);
}

/* The index is the record's in the lowered stream. */
static void after_lowering(void)
{
	uint8_t bad[NCSYNC_RECORD_SIZE];
	struct ncsync_submit_error e;
	struct ncsync_stream *s, *t;
	struct ncsync_program *p;
	int idx;

	t_bad_rec(bad, NCSYNC_REC_BAD_WAIT_MODE);
	ncsync_program_new(&p);
	ncsync_program_stream(p, NCSYNC_ENGINE_ACT, &s);
	ncsync_program_stream(p, NCSYNC_ENGINE_SP, &t);
	ncsync_add_nop(s, NULL);
	ncsync_add_all_engine_barrier(p, NULL);
	idx = ncsync_add_raw(t, bad);
	ncsync_add_exit(s, NULL);
	ncsync_add_exit(t, NULL);
	TAP_CHECK(ncsync_program_finalize(p) == -EINVAL &&
		  error_of(p, &e) == 0 && e.engine == NCSYNC_ENGINE_SP &&
		  e.reason == NCSYNC_REC_BAD_WAIT_MODE && is_record(p, &e, bad),
		  "after the lowering: record %u of sp (added as %d) is it",
		  e.index, idx);
	TAP_CHECK(e.index > (uint32_t)idx,
		  "the lowering moved it past its builder index");
	ncsync_program_free(p);
}

/*
 * A NoOp and a branch on @from to a label bound, if @bind, at the end of
 * @to's stream; an exit follows it when @to is another stream.
 */
static struct ncsync_program *branch_to(uint8_t from, uint8_t to, bool bind,
					int *branch)
{
	struct ncsync_stream *s, *t;
	struct ncsync_program *p;
	int l;

	if (ncsync_program_new(&p) || ncsync_program_stream(p, from, &s) ||
	    ncsync_program_stream(p, to, &t))
		abort();
	l = ncsync_label_new(p);
	ncsync_add_nop(s, NULL);
	*branch = ncsync_add_branch(s, l, NULL);
	if (bind)
		ncsync_label_bind(t, l);
	if (t != s)
		ncsync_add_exit(t, NULL);
	return p;
}

/* Failures that are not a record's, and no finalization. */
static void not_a_record(void)
{
	uint8_t rec[NCSYNC_RECORD_SIZE];
	struct ncsync_submit_error e;
	struct ncsync_program *p;
	struct ncsync_stream *s;
	int b;

	ncsync_program_new(&p);
	TAP_CHECK(error_of(p, &e) == -ENOENT && cleared(&e),
		  "a new program: -ENOENT, err cleared");
	ncsync_program_stream(p, NCSYNC_ENGINE_PE, &s);
	ncsync_add_exit(s, NULL);
	TAP_CHECK(error_of(p, &e) == -ENOENT, "not finalized yet: -ENOENT");
	TAP_CHECK(ncsync_program_finalize(p) == 0 &&
		  error_of(p, &e) == -ENOENT && cleared(&e),
		  "finalized: -ENOENT");
	TAP_CHECK(ncsync_program_error(NULL, &e) == -EINVAL,
		  "NULL program: -EINVAL");
	TAP_CHECK(ncsync_program_error(p, NULL) == -EINVAL,
		  "NULL err: -EINVAL");
	ncsync_program_free(p);

	/* Labels: unbound, of another stream, past the last record. */
	p = branch_to(NCSYNC_ENGINE_PE, NCSYNC_ENGINE_PE, false, &b);
	TAP_CHECK(ncsync_program_finalize(p) == -ENOENT &&
		  error_of(p, &e) == -ENOENT && cleared(&e),
		  "unbound label: no record");
	ncsync_program_free(p);
	p = branch_to(NCSYNC_ENGINE_SP, NCSYNC_ENGINE_PE, true, &b);
	TAP_CHECK(ncsync_program_finalize(p) == -EXDEV &&
		  error_of(p, &e) == -ENOENT && cleared(&e),
		  "label of another stream: no record");
	ncsync_program_free(p);
	p = branch_to(NCSYNC_ENGINE_POOL, NCSYNC_ENGINE_POOL, true, &b);
	TAP_CHECK(ncsync_program_finalize(p) == -EINVAL &&
		  error_of(p, &e) == 0 &&
		  names(&e, NCSYNC_ENGINE_POOL, b, NCSYNC_REC_BAD_TARGET),
		  "label past the last record: the branch, bad target");
	ncsync_program_free(p);

	/* A pseudo-op other than the barrier: the lowering refuses it. */
	t_rec(rec, 0xCF);
	p = with_bad(NCSYNC_ENGINE_ACT, NCSYNC_ENGINE_DVE, 1, rec);
	TAP_CHECK(ncsync_program_finalize(p) == -EOPNOTSUPP &&
		  error_of(p, &e) == -ENOENT,
		  "pseudo-op: -EOPNOTSUPP from the lowering, no record");
	ncsync_program_free(p);
}

/* The finalization ncsync_program_submit() does is reported too. */
static void by_submit(void)
{
	/* Never used: the finalization fails before the device is. */
	static uint64_t no_dev[64];
	struct ncsync_dev *dev = (struct ncsync_dev *)no_dev;
	struct ncsync_submit_error e, se;
	uint8_t bad[NCSYNC_RECORD_SIZE];
	struct ncsync_program *p;

	t_bad_rec(bad, NCSYNC_REC_BAD_DMA);
	p = with_bad(NCSYNC_ENGINE_SP, NCSYNC_ENGINE_POOL, NRECS - 1, bad);
	TAP_CHECK(ncsync_program_submit(dev, p, 0, 0, NULL, &se) == -EINVAL &&
		  names(&se, NCSYNC_ENGINE_SP, NRECS - 1, NCSYNC_REC_BAD_DMA),
		  "submit reports the refused record in its err");
	TAP_CHECK(error_of(p, &e) == 0 && !memcmp(&e, &se, sizeof(e)),
		  "... and ncsync_program_error() the same afterwards");
	ncsync_program_free(p);

	p = with_bad(NCSYNC_ENGINE_PE, NCSYNC_ENGINE_ACT, 0, bad);
	TAP_CHECK(ncsync_program_submit(dev, p, 0, 0, NULL, NULL) == -EINVAL &&
		  error_of(p, &e) == 0 &&
		  names(&e, NCSYNC_ENGINE_PE, 0, NCSYNC_REC_BAD_DMA),
		  "submit without err: ncsync_program_error() names it");
	ncsync_program_free(p);
}

int main(void)
{
	bad_table();
	first_refused();
	after_lowering();
	not_a_record();
	by_submit();
	return tap_done();
}
