// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * The builders refuse bad arguments with -EINVAL and append nothing; a
 * record they build passes the shared validator.  insert_events' rules.
 */
#include <errno.h>
#include <string.h>

#include "ncsync.h"
#include "ncsync_record.h"
#include "tap.h"

static struct ncsync_stream *s;

#define REFUSED(call, what) do {					\
	uint32_t n0 = ncsync_stream_count(s);				\
	int r = (call);							\
	TAP_CHECK(r == -EINVAL && ncsync_stream_count(s) == n0,	\
		  "%s refused (%d)", what, r);				\
} while (0)

int main(void)
{
	struct ncsync_events bad_wait = { .wait_mode = 0x08, .wait_idx = 1 };
	struct ncsync_events read_inc = { .upd_mode = 0x03, .upd_idx = 1 };
	struct ncsync_events set_ev = { .upd_mode = 0x11, .upd_idx = 4 };
	struct ncsync_events unused = { .wait_idx = 3 };
	struct ncsync_program *p;
	struct ncsync_insn insn;
	uint8_t before[NCSYNC_RECORD_SIZE];
	uint32_t i;
	int lbl, idx;

	if (ncsync_program_new(&p) || ncsync_program_stream(p, 2, &s))
		return 1;
	lbl = ncsync_label_new(p);

	REFUSED(ncsync_add_semaphore_wait_cmp(s, 1, 0, 0), "wait_cmp mode 0");
	REFUSED(ncsync_add_semaphore_wait_cmp(s, 1, 6, 0), "wait_cmp mode 6");
	REFUSED(ncsync_add_semaphore_wait_cmp(s, 1, 0x85, 0),
		"wait_cmp register mode");
	REFUSED(ncsync_add_semaphore_wait_reg(s, 1, 0x85, 32),
		"wait_reg register 32");
	REFUSED(ncsync_add_semaphore_wait_reg(s, 1, 0x86, 1),
		"wait_reg mode 0x86");
	REFUSED(ncsync_add_semaphore_wait_reg(s, 1, 0, 1), "wait_reg mode 0");
	REFUSED(ncsync_add_event_wait(s, 1, NCSYNC_WAIT_SEM_GE),
		"event_wait with a semaphore mode");
	REFUSED(ncsync_add_evsem(s, NULL, 0, 0, 0, 0x05, 1, 1),
		"evsem lane 1 _READ update");
	REFUSED(ncsync_add_evsem(s, &read_inc, 0, 0, 0, 0, 0, 0),
		"evsem lane 0 _READ update");
	REFUSED(ncsync_add_evsem(s, &bad_wait, 0, 0, 0, 0, 0, 0),
		"evsem wait mode 0x08");
	REFUSED(ncsync_add_evsem(s, NULL, 0, 4, 0, 0, 0, 0),
		"evsem index of an absent wait");
	REFUSED(ncsync_add_evsem(s, NULL, 0x06, 4, 0, 0x91, 1, 1),
		"evsem register update on an event");
	REFUSED(ncsync_add_nop(s, &unused), "nop index of an absent wait");
	REFUSED(ncsync_add_drain(s, &bad_wait), "drain bad wait mode");
	REFUSED(ncsync_add_sema_clear(s, 20, 10, NULL), "sema_clear 20..10");
	REFUSED(ncsync_add_sema_clear_mask(s, NULL, NULL), "mask NULL");
	REFUSED(ncsync_add_poll_sem(s, 0, 1, 0, 0, NULL), "poll count 0");
	REFUSED(ncsync_add_poll_sem(s, 0, 1, 0, 17, NULL), "poll count 17");
	REFUSED(ncsync_add_poll_sem(s, 0, 1, 250, 8, NULL),
		"poll past semaphore 255");
	REFUSED(ncsync_add_poll_sem(s, 2, 1, 0, 1, NULL), "poll op 2");
	REFUSED(ncsync_add_poll_sem(s, 0, 32, 0, 1, NULL), "poll r32");
	REFUSED(ncsync_add_mov32(s, 11, 1, 1, 0, NULL), "mov32 ALU 11");
	REFUSED(ncsync_add_mov32(s, NCSYNC_ALU_MOV, 32, 1, 0, NULL),
		"mov32 dst r32");
	REFUSED(ncsync_add_mov32(s, NCSYNC_ALU_MOV, 1, 32, 0, NULL),
		"mov32 src r32");
	REFUSED(ncsync_add_mov32(s, NCSYNC_ALU_MOV_IMM, 1, 2, 0, NULL),
		"mov32 MOV_IMM with a source");
	REFUSED(ncsync_add_mov32(s, NCSYNC_ALU_ADD, 1, 2, 3, NULL),
		"mov32 ADD with an immediate");
	REFUSED(ncsync_add_mov32_imm(s, 40, 0, NULL), "mov32_imm r40");
	REFUSED(ncsync_add_branch_imm(s, 0, NCSYNC_DTYPE_U32, 1, 0, lbl, NULL),
		"branch_imm comp 0");
	REFUSED(ncsync_add_branch_imm(s, 7, NCSYNC_DTYPE_U32, 1, 0, lbl, NULL),
		"branch_imm comp 7");
	REFUSED(ncsync_add_branch_imm(s, 9, NCSYNC_DTYPE_U32, 1, 0, lbl, NULL),
		"branch_imm register comp");
	REFUSED(ncsync_add_branch_imm(s, 1, 0, 1, 0, lbl, NULL),
		"branch_imm dtype 0");
	REFUSED(ncsync_add_branch_imm(s, 1, 3, 1, 0, lbl, NULL),
		"branch_imm dtype 3");
	REFUSED(ncsync_add_branch_imm(s, 1, NCSYNC_DTYPE_S32, 32, 0, lbl,
				      NULL), "branch_imm lhs r32");
	REFUSED(ncsync_add_branch_reg(s, 15, NCSYNC_DTYPE_S32, 1, 2, lbl,
				      NULL), "branch_reg comp 15");
	REFUSED(ncsync_add_branch_reg(s, 0, NCSYNC_DTYPE_S32, 1, 2, lbl,
				      NULL), "branch_reg comp 0");
	REFUSED(ncsync_add_branch_reg(s, 12, NCSYNC_DTYPE_S32, 1, 32, lbl,
				      NULL), "branch_reg rhs r32");
	REFUSED(ncsync_add_branch(s, -1, NULL), "branch label -1");
	REFUSED(ncsync_add_branch(s, 99, NULL), "branch unknown label");
	REFUSED(ncsync_add_dma(s, 0, 64, 0, 0, 0, 0, NULL), "dma len 0");
	REFUSED(ncsync_add_dma(s, 0, 64, 8, 2000000, 0, 0, NULL),
		"dma latency above 1 s");
	REFUSED(ncsync_add_dma(s, 0, 64, 8, 0, 0x15, 1, NULL),
		"dma completion add");
	REFUSED(ncsync_add_dma(s, 0, 64, 8, 0, 0x13, 1, &set_ev),
		"dma two completion updates");
	REFUSED(ncsync_add_dma(s, 0, 64, 8, 0, 0, 1, NULL),
		"dma update index without mode");
	REFUSED(ncsync_add_dma_peer(s, 1, 0, 64, 8, 0, 0, 0, NULL),
		"dma_peer without a completion update");
	REFUSED(ncsync_add_dma_peer(s, NCSYNC_MAX_LNC, 0, 64, 8, 0, 0x13, 1,
				    NULL), "dma_peer position 64");
	TAP_CHECK(ncsync_add_semaphore_inc(NULL, 1) == -EINVAL,
		  "NULL stream refused");
	TAP_CHECK(ncsync_stream_count(s) == 0, "nothing was appended");

	/* What the builders accept validates. */
	ncsync_add_dma(s, 0, 64, 8, 0, 0, 0, &set_ev);
	ncsync_add_semaphore_wait_reg(s, 200, 0x81, 0);
	ncsync_add_poll_sem(s, NCSYNC_POLL_MIN, 31, 240, 16, NULL);
	ncsync_add_mov32(s, NCSYNC_ALU_SHR_IMM, 31, 0, 33, NULL);
	for (i = 0; i < ncsync_stream_count(s); i++)
		if (ncsync_record_decode(ncsync_stream_record(s, i), 1,
					 UINT64_MAX, &insn))
			break;
	TAP_CHECK(i == 4 && ncsync_stream_count(s) == 4,
		  "accepted records pass ncsync_record_decode");

	/* insert_events */
	idx = ncsync_add_nop(s, NULL);
	TAP_CHECK(ncsync_insert_events(s, idx, &set_ev) == idx,
		  "insert_events into an empty block");
	TAP_CHECK(ncsync_insert_events(s, idx, &read_inc) == -EEXIST,
		  "insert_events does not overwrite a used block");
	TAP_CHECK(ncsync_insert_events(s, idx, NULL) == idx &&
		  ncsync_stream_record(s, idx)[6] == 0,
		  "insert_events NULL clears the block");
	TAP_CHECK(ncsync_insert_events(s, 1000, &set_ev) == -EINVAL,
		  "insert_events past the stream");
	idx = ncsync_add_semaphore_inc(s, 3);
	memcpy(before, ncsync_stream_record(s, idx), sizeof(before));
	TAP_CHECK(ncsync_insert_events(s, idx, &read_inc) == -EINVAL &&
		  !memcmp(before, ncsync_stream_record(s, idx),
			  sizeof(before)),
		  "insert_events: _READ update on an EventSemaphore refused, "
		  "record unchanged");
	TAP_CHECK(ncsync_insert_events(s, idx, &bad_wait) == -EINVAL,
		  "insert_events: bad wait mode refused");

	/* Program-wide builders. */
	TAP_CHECK(ncsync_add_all_engine_barrier(p, &bad_wait) == -EINVAL,
		  "all_engine_barrier bad events block");
	ncsync_program_free(p);
	ncsync_program_new(&p);
	TAP_CHECK(ncsync_add_all_engine_barrier(p, NULL) == -EINVAL,
		  "all_engine_barrier without streams");
	TAP_CHECK(ncsync_add_sync_barrier(p) == -EINVAL,
		  "sync_barrier without streams");
	TAP_CHECK(ncsync_add_lower_control_fence(p) == -EINVAL,
		  "lower_control_fence without streams");
	ncsync_program_free(p);
	return tap_done();
}
