// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * SYNC's lower_control fence: Barrier, GroupResetSemaphores, Barrier,
 * Drain on every engine; the resets clear the semaphores the program
 * allocated, each engine its own share (disjoint, none empty: the
 * conformance profile's rules), and never the reserved slice (the barrier
 * counters).
 */
#include <errno.h>
#include <string.h>

#include "ncsync.h"
#include "ncsync_record.h"
#include "tap.h"

static uint32_t mask_word(const uint8_t *rec, unsigned int w)
{
	const uint8_t *m = rec + NCSYNC_REC_GR_MASK + 4 * w;

	return m[0] | m[1] << 8 | m[2] << 16 | (uint32_t)m[3] << 24;
}

int main(void)
{
	struct ncsync_stream *s, *t;
	struct ncsync_program *p;
	struct ncsync_insn insn;
	const uint8_t *gr;
	uint32_t i;
	bool ok;
	int a, b;

	ncsync_program_new(&p);
	ncsync_program_stream(p, NCSYNC_ENGINE_ACT, &s);
	ncsync_program_stream(p, NCSYNC_ENGINE_SP, &t);
	a = ncsync_sem_alloc(p, 3);		/* 0 1 2 */
	b = ncsync_sem_alloc(p, 2);		/* 3 4 */
	ncsync_sem_free(p, a, 3);
	a = ncsync_sem_alloc(p, 1);		/* 0 */
	TAP_CHECK(ncsync_add_lower_control_fence(p) == 0, "fence");
	ok = true;
	for (i = 0; i < 2; i++) {
		struct ncsync_stream *x = i ? t : s;
		const uint8_t *r0 = ncsync_stream_record(x, 0);
		const uint8_t *r3 = ncsync_stream_record(x, 3);

		ok &= ncsync_stream_count(x) == 4 && r0[0] == 0xD5 &&
		      ncsync_stream_record(x, 2)[0] == 0xD5 &&
		      r3[0] == NCSYNC_OPC_DRAIN && r3[0x28] == 1;
	}
	TAP_CHECK(ok, "each engine: 0xD5, GroupReset, 0xD5, Drain");
	gr = ncsync_stream_record(s, 1);
	TAP_CHECK(gr[0] == 0xB0 && gr[NCSYNC_REC_GR_CLEAR_MODE] == 2 &&
		  mask_word(gr, 0) == (1U << a | 1U << (b + 1)) &&
		  ncsync_stream_record(t, 1)[0] == 0xB0 &&
		  mask_word(ncsync_stream_record(t, 1), 0) == 1U << b,
		  "GroupReset: mask form; of the allocated 0 3 4, Act (rank 0) "
		  "resets 0 and 4, SP (rank 1) 3");
	ok = true;
	for (i = 1; i < 8; i++)
		ok &= mask_word(gr, i) == 0 &&
		      mask_word(ncsync_stream_record(t, 1), i) == 0;
	TAP_CHECK(ok, "nothing else in the masks, the reserved slice least");
	TAP_CHECK(ncsync_program_finalize(p) == 0, "finalize lowers both");
	ok = true;
	for (i = 0; i < ncsync_stream_count(s); i++) {
		const uint8_t *r = ncsync_stream_record(s, i);

		ok &= !ncsync_record_decode(r, ncsync_stream_count(s),
					    UINT64_MAX, &insn);
		if (r[0] == NCSYNC_OPC_GROUP_RESET)
			ok &= !(insn.gr.mask[7] & 0xFFFF0000U) &&
			      insn.gr.mask[0] == 0x11;
	}
	TAP_CHECK(ok, "lowered: valid; the reset leaves 240..255 alone");
	ncsync_program_free(p);

	/* nothing allocated: no reset at all (an empty group is refused) */
	ncsync_program_new(&p);
	ncsync_program_stream(p, NCSYNC_ENGINE_PE, &s);
	TAP_CHECK(ncsync_add_lower_control_fence(p) == 0 &&
		  ncsync_stream_count(s) == 3 &&
		  ncsync_stream_record(s, 1)[0] == 0xD5 &&
		  ncsync_stream_record(s, 2)[0] == NCSYNC_OPC_DRAIN,
		  "fence with no semaphores allocated: 0xD5, 0xD5, Drain");
	TAP_CHECK(ncsync_program_finalize(p) == 0 &&
		  ncsync_add_lower_control_fence(p) == -EBUSY,
		  "no fence after finalize");
	ncsync_program_free(p);

	/* one semaphore, three engines: only the first resets it */
	ncsync_program_new(&p);
	ncsync_program_stream(p, NCSYNC_ENGINE_POOL, &s);
	ncsync_program_stream(p, NCSYNC_ENGINE_PE, &t);
	ncsync_program_stream(p, NCSYNC_ENGINE_SP, &t);
	a = ncsync_sem_alloc(p, 1);
	TAP_CHECK(ncsync_add_lower_control_fence(p) == 0 &&
		  ncsync_stream_count(s) == 4 &&
		  mask_word(ncsync_stream_record(s, 1), 0) == 1U << a &&
		  ncsync_stream_count(t) == 3 &&
		  ncsync_stream_count(ncsync_program_find_stream(
			  p, NCSYNC_ENGINE_PE)) == 3,
		  "one semaphore: Pool resets it, PE and SP have no reset");
	ncsync_program_free(p);
	return tap_done();
}
