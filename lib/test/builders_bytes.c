// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * The builders emit exactly the seeds' bytes: every expected record below
 * is written by hand from SYNC / ENC / BARRIER (and the model-defined
 * layouts of uapi/linux/ncsync.h), all unnamed bytes zero.
 */
#include <string.h>

#include "ncsync.h"
#include "tap.h"

#define R(...) ((const uint8_t [NCSYNC_RECORD_SIZE]) { __VA_ARGS__ })

static struct ncsync_stream *s;

static void dump(const uint8_t *rec)
{
	int i;

	printf("#");
	for (i = 0; i < NCSYNC_RECORD_SIZE; i++)
		printf(" %02x", rec[i]);
	printf("\n");
}

static void expect(int idx, const uint8_t *exp, const char *what)
{
	const uint8_t *rec = idx >= 0 ? ncsync_stream_record(s, idx) : NULL;
	bool same = rec && !memcmp(rec, exp, NCSYNC_RECORD_SIZE);

	TAP_CHECK(same, "%s (index %d)", what, idx);
	if (!same && rec)
		dump(rec);
}

int main(void)
{
	struct ncsync_events ev = {
		.wait_mode = NCSYNC_WAIT_SEM_GE, .wait_idx = 2, .value = 10,
	};
	struct ncsync_events upd = {
		.upd_mode = 0x13, .upd_idx = 9,
	};
	uint32_t mask[8] = { 0 };
	struct ncsync_program *p;
	int idx, lbl, br[3];

	if (ncsync_program_new(&p) || ncsync_program_stream(p, 6, &s))
		return 1;

	/* SYNC "the richest record": add_semaphore_wait_eq_and_inc. */
	expect(ncsync_add_semaphore_wait_eq_and_inc(s, 7, 3),
	       R([0] = 0xA0, [1] = 0x10, [0x20] = 0x01, [0x21] = 7,
		 [0x22] = 0x13, [0x23] = 7, [0x24] = 3, [0x28] = 1),
	       "wait_eq_and_inc: EQ 0x01, INC 0x13, value, act 1");
	/* SYNC: the bare wait is GT 0 then -1, the runtime's act value 1. */
	expect(ncsync_add_semaphore_wait(s, 9),
	       R([0] = 0xA0, [1] = 0x10, [0x20] = 0x04, [0x21] = 9,
		 [0x22] = 0x14, [0x23] = 9, [0x28] = 1),
	       "semaphore_wait: cmp 0x04, subtype 0x14, threshold 0");
	expect(ncsync_add_semaphore_wait_lt(s, 5, -2),
	       R([0] = 0xA0, [1] = 0x10, [0x20] = 0x02, [0x21] = 5,
		 [0x24] = 0xFE, [0x25] = 0xFF, [0x26] = 0xFF, [0x27] = 0xFF),
	       "wait_lt -2: lane 1 wait only");
	expect(ncsync_add_semaphore_wait_eq(s, 1, 1),
	       R([0] = 0xA0, [1] = 0x10, [0x20] = 0x01, [0x21] = 1,
		 [0x24] = 1), "wait_eq");
	expect(ncsync_add_semaphore_wait_le(s, 1, 2),
	       R([0] = 0xA0, [1] = 0x10, [0x20] = 0x03, [0x21] = 1,
		 [0x24] = 2), "wait_le");
	expect(ncsync_add_semaphore_wait_gt(s, 1, 3),
	       R([0] = 0xA0, [1] = 0x10, [0x20] = 0x04, [0x21] = 1,
		 [0x24] = 3), "wait_gt");
	expect(ncsync_add_semaphore_wait_ge(s, 255, 0x12345678),
	       R([0] = 0xA0, [1] = 0x10, [0x20] = 0x05, [0x21] = 0xFF,
		 [0x24] = 0x78, [0x25] = 0x56, [0x26] = 0x34, [0x27] = 0x12),
	       "wait_ge");
	expect(ncsync_add_semaphore_wait_cmp(s, 3, NCSYNC_WAIT_SEM_GT, 0),
	       R([0] = 0xA0, [1] = 0x10, [0x20] = 0x04, [0x21] = 3),
	       "wait_cmp GT 0");
	expect(ncsync_add_semaphore_wait_reg(s, 4, 0x85, 12),
	       R([0] = 0xA0, [1] = 0x10, [0x20] = 0x85, [0x21] = 4,
		 [0x24] = 12), "wait_reg GE r12: 0x85, register number");
	expect(ncsync_add_semaphore_wait_reg(s, 4, NCSYNC_WAIT_SEM_LE, 31),
	       R([0] = 0xA0, [1] = 0x10, [0x20] = 0x83, [0x21] = 4,
		 [0x24] = 31), "wait_reg LE given as 0x03 gets 0x80");

	expect(ncsync_add_semaphore_inc(s, 3),
	       R([0] = 0xA0, [1] = 0x10, [0x22] = 0x13, [0x23] = 3,
		 [0x28] = 1), "inc: 0x13, +0x28 = 1");
	expect(ncsync_add_semaphore_dec(s, 3),
	       R([0] = 0xA0, [1] = 0x10, [0x22] = 0x14, [0x23] = 3,
		 [0x28] = 1), "dec: 0x14, +0x28 = 1");
	expect(ncsync_add_semaphore_add(s, 3, 0x01020304),
	       R([0] = 0xA0, [1] = 0x10, [0x22] = 0x15, [0x23] = 3,
		 [0x28] = 4, [0x29] = 3, [0x2A] = 2, [0x2B] = 1),
	       "add: 0x15, operand at +0x28");
	expect(ncsync_add_semaphore_sub(s, 3, 7),
	       R([0] = 0xA0, [1] = 0x10, [0x22] = 0x17, [0x23] = 3,
		 [0x28] = 7), "sub: 0x17");
	expect(ncsync_add_semaphore_set(s, 3, 0xFFFFFFFF),
	       R([0] = 0xA0, [1] = 0x10, [0x22] = 0x19, [0x23] = 3,
		 [0x28] = 0xFF, [0x29] = 0xFF, [0x2A] = 0xFF, [0x2B] = 0xFF),
	       "set: 0x19");

	expect(ncsync_add_event_set(s, 250),
	       R([0] = 0xA0, [1] = 0x10, [0x22] = 0x11, [0x23] = 250),
	       "event_set: 0x11 on the event index");
	expect(ncsync_add_event_clear(s, 0),
	       R([0] = 0xA0, [1] = 0x10, [0x22] = 0x12, [0x23] = 0),
	       "event_clear: 0x12");
	expect(ncsync_add_event_wait(s, 17, NCSYNC_WAIT_EVT_SET_THEN_CLEAR),
	       R([0] = 0xA0, [1] = 0x10, [0x20] = 0x07, [0x21] = 17),
	       "event_wait set-then-clear: 0x07");
	expect(ncsync_add_event_wait(s, 17, NCSYNC_WAIT_EVT_CLEAR),
	       R([0] = 0xA0, [1] = 0x10, [0x20] = 0x0E, [0x21] = 17),
	       "event_wait clear: 0x0E");

	expect(ncsync_add_evsem(s, &ev, 0, 0, 0, 0x15, 3, 5),
	       R([0] = 0xA0, [1] = 0x10, [4] = 0x05, [5] = 2, [8] = 10,
		 [0x22] = 0x15, [0x23] = 3, [0x28] = 5),
	       "evsem: lane 0 from @ev, lane 1 update");
	expect(ncsync_add_evsem(s, NULL, 0x06, 40, 0, 0x13, 8, 1),
	       R([0] = 0xA0, [1] = 0x10, [0x20] = 0x06, [0x21] = 40,
		 [0x22] = 0x13, [0x23] = 8, [0x28] = 1),
	       "evsem: lane 1 event wait and semaphore update");

	expect(ncsync_add_drain(s, NULL),
	       R([0] = 0xA2, [1] = 0x10, [0x28] = 1), "drain: count 1");
	expect(ncsync_add_drain(s, &upd),
	       R([0] = 0xA2, [1] = 0x10, [6] = 0x13, [7] = 9, [0x28] = 1),
	       "drain with an events-block +1");
	expect(ncsync_add_halt(s, NULL), R([0] = 0xA1, [1] = 0x10), "halt");
	expect(ncsync_add_nop(s, &ev),
	       R([0] = 0xA4, [1] = 0x10, [4] = 0x05, [5] = 2, [8] = 10),
	       "nop carrying a wait");
	expect(ncsync_add_exit(s, NULL), R([0] = 0xDF, [1] = 0x10),
	       "exit: flags 0");

	expect(ncsync_add_sema_clear(s, 10, 20, NULL),
	       R([0] = 0xB0, [1] = 0x10, [0x0C] = 1, [0x0D] = 10,
		 [0x0E] = 20), "sema_clear: ClearMode 1, first, last");
	mask[0] = 1;
	mask[1] = 1U << 5;
	mask[7] = 1U << 31;
	expect(ncsync_add_sema_clear_mask(s, mask, NULL),
	       R([0] = 0xB0, [1] = 0x10, [0x0C] = 2, [0x20] = 0x01,
		 [0x24] = 0x20, [0x3F] = 0x80),
	       "sema_clear_mask: ClearMode 2, bits 0, 37, 255");
	expect(ncsync_add_poll_sem(s, NCSYNC_POLL_SUM, 3, 8, 4, NULL),
	       R([0] = 0xB3, [1] = 0x10, [0x0C] = 1, [0x0D] = 3,
		 [0x0E] = 8, [0x0F] = 4), "poll_sem");
	expect(ncsync_add_poll_sem_writeback(s, 5, 16, 16, NULL),
	       R([0] = 0xB3, [1] = 0x10, [0x0C] = 0, [0x0D] = 5,
		 [0x0E] = 16, [0x0F] = 16, [0x10] = 1),
	       "poll_sem_writeback: Min, write-back 1 at +0x10");
	expect(ncsync_add_mov32_imm(s, 7, 0xDEADBEEF, NULL),
	       R([0] = 0xA7, [1] = 0x10, [0x0D] = 7, [0x10] = 0xEF,
		 [0x11] = 0xBE, [0x12] = 0xAD, [0x13] = 0xDE),
	       "mov32_imm: ALU 0");
	expect(ncsync_add_mov32(s, NCSYNC_ALU_ADD_IMM, 1, 2, 5, NULL),
	       R([0] = 0xA7, [1] = 0x10, [0x0C] = 2, [0x0D] = 1,
		 [0x0E] = 2, [0x10] = 5), "mov32 ADD_IMM");
	expect(ncsync_add_dma(s, 0x1000, 0x2000, 256, 10, 0x13, 5, NULL),
	       R([0] = 0xE0, [1] = 0x10, [6] = 0x13, [7] = 5,
		 [0x11] = 0x10, [0x19] = 0x20, [0x21] = 0x01, [0x24] = 10),
	       "dma: src, dst, len, latency, completion +1");
	expect(ncsync_add_dma_peer(s, 1, 0x1000, 0x2000, 256, 10, 0x11, 5,
				   NULL),
	       R([0] = 0xE0, [1] = 0x10, [6] = 0x11, [7] = 5, [0x0C] = 1,
		 [0x0D] = 1, [0x11] = 0x10, [0x19] = 0x20, [0x21] = 0x01,
		 [0x24] = 10),
	       "dma_peer: the peer flag and position, completion event set");

	/* insert_events: the 8-byte block at +0x04 of an existing record. */
	idx = ncsync_add_drain(s, NULL);
	TAP_CHECK(ncsync_insert_events(s, idx, &upd) == idx,
		  "insert_events returns the index");
	expect(idx, R([0] = 0xA2, [1] = 0x10, [6] = 0x13, [7] = 9,
		      [0x28] = 1), "insert_events wrote +0x04..+0x0B");

	/* Branches: the target (+0x30) is the label's record index. */
	lbl = ncsync_label_new(p);
	ncsync_label_bind(s, lbl);
	br[0] = ncsync_add_branch(s, lbl, NULL);
	br[1] = ncsync_add_branch_imm(s, NCSYNC_BR_LE, NCSYNC_DTYPE_S32, 4,
				      100, lbl, NULL);
	br[2] = ncsync_add_branch_reg(s, NCSYNC_BR_GT, NCSYNC_DTYPE_U32, 1, 2,
				      lbl, NULL);
	TAP_CHECK(ncsync_program_finalize(p) == 0, "finalize");
	expect(br[0], R([0] = 0xA9, [1] = 0x10, [0x30] = (uint8_t)br[0]),
	       "branch: comp 0, no operands, target");
	expect(br[1], R([0] = 0xA9, [1] = 0x10, [0x0C] = 2, [0x0D] = 2,
			[0x0E] = 3, [0x10] = 100, [0x20] = 4,
			[0x30] = (uint8_t)br[0]),
	       "branch_imm LE s32: comp 2, kind 3, imm, LHS");
	expect(br[2], R([0] = 0xA9, [1] = 0x10, [0x0C] = 14, [0x0D] = 1,
			[0x0E] = 3, [0x20] = 1, [0x21] = 2,
			[0x30] = (uint8_t)br[0]),
	       "branch_reg GT: comp 14, RHS register");
	ncsync_program_free(p);

	/* BARRIER 1: 0xD5, the events block, reserved0[52] zero. */
	ncsync_program_new(&p);
	ncsync_program_stream(p, 1, &s);
	TAP_CHECK(ncsync_add_all_engine_barrier(p, &ev) == 0,
		  "all_engine_barrier");
	expect(0, R([0] = 0xD5, [1] = 0x10, [4] = 0x05, [5] = 2, [8] = 10),
	       "pseudo 0xD5: header and events block only");
	ncsync_program_free(p);
	return tap_done();
}
