/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The 64-byte record: decoding and validation, written once and compiled
 * into the module (submission), the library (disassembler, assembler) and
 * the fuzzers.  Freestanding C.
 */
#ifndef _NCSYNC_RECORD_H
#define _NCSYNC_RECORD_H

#include "ncsync_model.h"

/**
 * struct ncsync_lane - one wait/update lane of a record.
 * @wait_mode: NCSYNC_WAIT_*, or NCSYNC_WAIT_NONE.
 * @wait_idx: the semaphore or event the wait tests.
 * @upd_mode: NCSYNC_UPD_* as encoded, or NCSYNC_UPD_NONE.
 * @upd_idx: the semaphore or event the update changes.
 * @paired: the wait and the update are on the same semaphore: one atomic
 *	test-and-modify (P() semantics).
 * @wait_value: the threshold, or the register number of a register form.
 * @upd_value: the operand, or the register number of a register form.
 */
struct ncsync_lane {
	__u8 wait_mode;
	__u8 wait_idx;
	__u8 upd_mode;
	__u8 upd_idx;
	bool paired;
	__u32 wait_value;
	__u32 upd_value;
};

/**
 * struct ncsync_insn - a decoded, validated record.
 * @opcode: NCSYNC_OPC_*.
 * @nlanes: 1, or 2 for EventSemaphore.
 * @lane: lane 0 is the events block at +0x04, lane 1 the extended block.
 * @drain: Drain: @count, always 1.
 * @mov: Mov32: the ALU operation, registers and immediate.
 * @br: Branch: comparison, dtype, registers, immediate, target index.
 * @gr: GroupResetSemaphores: the clear mode, the range and the mask (the
 *	range form fills the mask too, so execution uses the mask only).
 * @poll: PollSem: operation, destination register and semaphore range.
 * @dma: DMA: source and destination offsets, length and latency.
 */
struct ncsync_insn {
	__u8 opcode;
	__u8 nlanes;
	struct ncsync_lane lane[2];
	union {
		struct {
			__u8 count;
		} drain;
		struct {
			__u8 alu;
			__u8 dst;
			__u8 src;
			__u32 imm;
		} mov;
		struct {
			__u8 comp;
			__u8 dtype;
			__u8 lhs;
			__u8 rhs;
			__u32 imm;
			__u32 target;
		} br;
		struct {
			__u8 mode;
			__u8 first;
			__u8 last;
			__u32 mask[8];
		} gr;
		struct {
			__u8 op;
			__u8 dst;
			__u8 first;
			__u8 count;
		} poll;
		struct {
			__u64 src;
			__u64 dst;
			__u32 len;
			__u32 latency_us;
		} dma;
	};
};

#define NCSYNC_DMA_MAX_LATENCY_US	1000000

enum ncsync_rec_reason ncsync_record_decode(const __u8 *rec, __u32 nrecords,
					    __u64 devmem_size,
					    struct ncsync_insn *insn);
const char *ncsync_rec_reason_name(unsigned int reason);

bool ncsync_upd_is_sem(__u8 mode);
bool ncsync_upd_is_event(__u8 mode);
enum ncsync_sem_upd ncsync_upd_sem_arith(__u8 mode, __u32 *operand);
bool ncsync_br_test(__u8 comp, __u8 dtype, __u32 lhs, __u32 rhs);
__u32 ncsync_alu(__u8 alu, __u32 dst, __u32 src, __u32 imm);

#endif /* _NCSYNC_RECORD_H */
