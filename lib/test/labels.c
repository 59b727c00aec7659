// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * Labels and branch fixups: forward and backward branches, unbound and
 * doubly bound labels, branches across streams, and labels that survive
 * the lowering (which moves records).
 */
#include <errno.h>

#include "ncsync.h"
#include "tap.h"

static uint64_t target(struct ncsync_stream *s, int idx)
{
	const uint8_t *r = ncsync_stream_record(s, idx);
	uint64_t t = 0;
	int i;

	for (i = 7; i >= 0; i--)
		t = t << 8 | r[NCSYNC_REC_BR_TARGET + i];
	return t;
}

int main(void)
{
	struct ncsync_stream *s, *t;
	struct ncsync_program *p;
	int fwd, back, l, b1, b2, b3, r;

	/* forward and backward */
	ncsync_program_new(&p);
	ncsync_program_stream(p, NCSYNC_ENGINE_PE, &s);
	back = ncsync_label_new(p);
	fwd = ncsync_label_new(p);
	TAP_CHECK(back == 0 && fwd == 1, "label ids count from 0");
	ncsync_add_nop(s, NULL);
	TAP_CHECK(ncsync_label_bind(s, back) == 1,
		  "bind returns the next record index");
	TAP_CHECK(ncsync_label_bind(s, back) == -EEXIST, "double bind");
	TAP_CHECK(ncsync_label_bind(s, 7) == -EINVAL, "bind unknown label");
	ncsync_add_nop(s, NULL);
	b1 = ncsync_add_branch_imm(s, NCSYNC_BR_NE, NCSYNC_DTYPE_U32, 0, 0,
				   fwd, NULL);
	b2 = ncsync_add_branch(s, back, NULL);
	ncsync_add_nop(s, NULL);
	ncsync_label_bind(s, fwd);
	ncsync_add_exit(s, NULL);
	TAP_CHECK(ncsync_program_finalize(p) == 0, "finalize");
	TAP_CHECK(target(s, b1) == 5, "forward target");
	TAP_CHECK(target(s, b2) == 1, "backward target");
	TAP_CHECK(ncsync_add_nop(s, NULL) == -EBUSY,
		  "no records after finalize");
	TAP_CHECK(ncsync_label_bind(s, ncsync_label_new(p)) == -EBUSY,
		  "no binding after finalize");
	TAP_CHECK(ncsync_program_finalize(p) == 0, "finalize is repeatable");
	ncsync_program_free(p);

	/* unbound */
	ncsync_program_new(&p);
	ncsync_program_stream(p, NCSYNC_ENGINE_PE, &s);
	l = ncsync_label_new(p);
	ncsync_add_branch(s, l, NULL);
	TAP_CHECK(ncsync_program_finalize(p) == -ENOENT, "unbound: -ENOENT");
	ncsync_program_free(p);

	/* a label at the end of its stream is not a record */
	ncsync_program_new(&p);
	ncsync_program_stream(p, NCSYNC_ENGINE_PE, &s);
	l = ncsync_label_new(p);
	ncsync_add_branch(s, l, NULL);
	ncsync_label_bind(s, l);
	TAP_CHECK(ncsync_program_finalize(p) == -EINVAL,
		  "target past the last record refused by validation");
	ncsync_program_free(p);

	/* across streams */
	ncsync_program_new(&p);
	ncsync_program_stream(p, NCSYNC_ENGINE_PE, &s);
	ncsync_program_stream(p, NCSYNC_ENGINE_SP, &t);
	l = ncsync_label_new(p);
	ncsync_add_branch(t, l, NULL);
	ncsync_label_bind(s, l);
	ncsync_add_exit(s, NULL);
	TAP_CHECK(ncsync_program_finalize(p) == -EXDEV,
		  "branch to another stream's label: -EXDEV at finalize");
	ncsync_program_free(p);
	ncsync_program_new(&p);
	ncsync_program_stream(p, NCSYNC_ENGINE_PE, &s);
	ncsync_program_stream(p, NCSYNC_ENGINE_SP, &t);
	l = ncsync_label_new(p);
	ncsync_label_bind(s, l);
	ncsync_add_exit(s, NULL);
	r = ncsync_add_branch(t, l, NULL);
	TAP_CHECK(r == -EXDEV && ncsync_stream_count(t) == 0,
		  "... and at once when the label is already bound");
	ncsync_program_free(p);

	/* labels across a lowering: both forms */
	for (r = 0; r < 2; r++) {
		enum ncsync_barrier_lowering how = r ? NCSYNC_LOWER_EVENTS :
						       NCSYNC_LOWER_COUNTER;
		uint32_t top_idx, after_idx, n;

		ncsync_program_new(&p);
		ncsync_program_stream(p, NCSYNC_ENGINE_PE, &s);
		ncsync_program_stream(p, NCSYNC_ENGINE_SP, &t);
		back = ncsync_label_new(p);
		fwd = ncsync_label_new(p);
		l = ncsync_label_new(p);
		ncsync_label_bind(s, back);		/* at 0 */
		ncsync_add_mov32(s, NCSYNC_ALU_ADD_IMM, 1, 1, 1, NULL);
		b1 = ncsync_add_branch_imm(s, NCSYNC_BR_EQ, NCSYNC_DTYPE_U32,
					   1, 5, fwd, NULL);
		ncsync_label_bind(s, l);		/* at the barrier */
		ncsync_add_all_engine_barrier(p, NULL);
		b2 = ncsync_add_branch(s, back, NULL);
		ncsync_label_bind(s, fwd);
		b3 = ncsync_add_branch_imm(s, NCSYNC_BR_EQ, NCSYNC_DTYPE_U32,
					   1, 6, l, NULL);
		ncsync_add_exit(s, NULL);
		ncsync_add_exit(t, NULL);
		TAP_CHECK(ncsync_program_lower(p, how) == 0, "lower (%s)",
			  r ? "events" : "counter");
		TAP_CHECK(ncsync_program_finalize(p) == 0, "finalize");
		n = ncsync_stream_count(s);
		/* find the moved records: the branches, in order */
		b1 = b2 = b3 = -1;
		top_idx = after_idx = 0;
		for (uint32_t i = 0, k = 0; i < n; i++) {
			const uint8_t *rec = ncsync_stream_record(s, i);

			if (rec[0] == NCSYNC_OPC_MOV32 && rec[0x0D] == 1)
				top_idx = i;
			if (rec[0] == NCSYNC_OPC_BRANCH && rec[0x20] == 1) {
				if (k++ == 0)
					b1 = i;
				else
					b3 = i;
			}
		}
		/* b2 is the unconditional branch right before b3 */
		b2 = b3 - 1;
		after_idx = b3;
		TAP_CHECK(target(s, b1) == after_idx,
			  "forward branch over the barrier lands after it");
		TAP_CHECK(target(s, b2) == top_idx,
			  "backward branch lands on the moved record (%u)",
			  top_idx);
		TAP_CHECK(target(s, b3) == (uint32_t)b1 + 1,
			  "branch to a barrier lands on its first record");
		TAP_CHECK(ncsync_stream_record(s, b1 + 1)[0] !=
			  NCSYNC_OPC_EXIT &&
			  ncsync_stream_record(s, b2)[0] == NCSYNC_OPC_BRANCH,
			  "layout as expected");
		ncsync_program_free(p);
	}
	return tap_done();
}
