/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The 64-byte record: decoding and validation (ncsync_record.c) and
 * encoding (ncsync_encode.c), written once and compiled into the module
 * (submission), the library (builders, assembler, disassembler) and the
 * fuzzers.  Freestanding C.
 */
#ifndef _NCSYNC_RECORD_H
#define _NCSYNC_RECORD_H

#include "ncsync_model.h"

/**
 * enum ncsync_cmp - the signed comparison of a semaphore wait.
 * @NCSYNC_CMP_EQ: value == threshold.
 * @NCSYNC_CMP_LT: value < threshold.
 * @NCSYNC_CMP_LE: value <= threshold.
 * @NCSYNC_CMP_GT: value > threshold.
 * @NCSYNC_CMP_GE: value >= threshold.
 */
enum ncsync_cmp {
	NCSYNC_CMP_EQ,
	NCSYNC_CMP_LT,
	NCSYNC_CMP_LE,
	NCSYNC_CMP_GT,
	NCSYNC_CMP_GE,
};

/**
 * enum ncsync_then - what an event wait does to the event once it passes.
 * @NCSYNC_THEN_NONE: nothing.
 * @NCSYNC_THEN_CLEAR: clears it (set-then-clear).
 * @NCSYNC_THEN_SET: sets it (clear-then-set).
 */
enum ncsync_then {
	NCSYNC_THEN_NONE,
	NCSYNC_THEN_CLEAR,
	NCSYNC_THEN_SET,
};

/**
 * struct ncsync_wait_op - what a wait tests, decoded once.
 * @active: the lane has a wait.
 * @bank: NCSYNC_BANK_SEM or NCSYNC_BANK_EVENT.
 * @index: the semaphore or event.
 * @cmp: a semaphore wait's comparison (enum ncsync_cmp).
 * @want: an event wait's state waited for: set (true) or clear.
 * @then: an event wait's action once it passes (enum ncsync_then).
 * @reg: a semaphore wait's threshold is the engine register @value.
 * @value: the threshold, or the register number.
 */
struct ncsync_wait_op {
	bool active;
	__u8 bank;
	__u8 index;
	__u8 cmp;
	bool want;
	__u8 then;
	bool reg;
	__u32 value;
};

/**
 * struct ncsync_update_op - what an update does, decoded once.
 * @active: the lane has an update.
 * @bank: NCSYNC_BANK_SEM or NCSYNC_BANK_EVENT.
 * @index: the semaphore or event.
 * @op: a semaphore update's arithmetic (enum ncsync_sem_upd); +1 and -1
 *	are NCSYNC_SEM_UPD_ADD and NCSYNC_SEM_UPD_SUB of 1.
 * @set: an event update sets (true) or clears the event.
 * @reg: the operand is the engine register @operand.
 * @on_land: a DMA record's update: applied when its copy lands, not by
 *	the engine.
 * @operand: the operand (1 for +1 and -1), or the register number.
 */
struct ncsync_update_op {
	bool active;
	__u8 bank;
	__u8 index;
	__u8 op;
	bool set;
	bool reg;
	bool on_land;
	__u32 operand;
};

/**
 * struct ncsync_lane - one wait/update lane of a record.
 * @wait_mode: NCSYNC_WAIT_*, or NCSYNC_WAIT_NONE, as encoded.
 * @wait_idx: the semaphore or event the wait tests.
 * @upd_mode: NCSYNC_UPD_* as encoded, or NCSYNC_UPD_NONE.
 * @upd_idx: the semaphore or event the update changes.
 * @paired: the wait and the update are on the same semaphore: one atomic
 *	test-and-modify (P() semantics).
 * @wait_value: the threshold, or the register number of a register form.
 * @upd_value: the operand, or the register number of a register form.
 * @wait: what the wait does.
 * @upd: what the update does.
 *
 * The encoded fields are what the encoder and the disassembler read;
 * execution reads @paired, @wait and @upd only (common/ncsync_exec.h).
 * They are kept beside the semantic form on purpose: the encoder writes
 * records the semantic form cannot express (the _READ and _COMPLETE forms
 * of one update, and the invalid modes of the bad-record tables), and the
 * disassembler prints the encoding as it is.
 */
struct ncsync_lane {
	__u8 wait_mode;
	__u8 wait_idx;
	__u8 upd_mode;
	__u8 upd_idx;
	bool paired;
	__u32 wait_value;
	__u32 upd_value;
	struct ncsync_wait_op wait;
	struct ncsync_update_op upd;
};

/**
 * struct ncsync_insn - a decoded, validated record.
 * @opcode: NCSYNC_OPC_*.
 * @nlanes: 1, or 2 for EventSemaphore.
 * @effect: the op's own effect, enum ncsync_op_effect: its opcode table
 *	row's (ncsync_optab.h), which ncsync_exec_op() switches on.
 * @lane: lane 0 is the events block at +0x04, lane 1 the extended block.
 * @drain: Drain: @count, always 1.
 * @mov: Mov32: the ALU operation, registers and immediate.
 * @br: Branch: comparison, dtype, registers, immediate, target index.
 * @hint: BranchHint: the target relative to the record's own index
 *	(ncsync_insn_target() gives the index).
 * @gr: GroupResetSemaphores: the clear mode, the range and the mask (the
 *	range form fills the mask too, so execution uses the mask only).
 * @poll: PollSem: operation, destination register, semaphore range and
 *	write-back (NCSYNC_POLL_WB_*).
 * @dma: DMA: source and destination offsets, length and latency; flags
 *	(NCSYNC_DMA_F_PEER) and the peer the completion update lands on, by
 *	its position in the logical core.
 */
struct ncsync_insn {
	__u8 opcode;
	__u8 nlanes;
	__u8 effect;
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
			__s32 offset;
		} hint;
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
			__u8 writeback;
		} poll;
		struct {
			__u64 src;
			__u64 dst;
			__u32 len;
			__u32 latency_us;
			__u8 flags;
			__u8 peer;
		} dma;
	};
};

#define NCSYNC_DMA_MAX_LATENCY_US	1000000

void ncsync_wait_op_decode(__u8 mode, __u8 index, __u32 value,
			   struct ncsync_wait_op *w);
__u8 ncsync_wait_op_mode(const struct ncsync_wait_op *w);
void ncsync_update_op_decode(__u8 mode, __u8 index, __u32 value,
			     struct ncsync_update_op *u);
enum ncsync_rec_reason ncsync_record_decode(const __u8 *rec, __u32 nrecords,
					    __u64 devmem_size,
					    struct ncsync_insn *insn);
enum ncsync_rec_reason ncsync_record_check_lnc(const struct ncsync_insn *insn,
					       __u32 lnc);
enum ncsync_rec_reason ncsync_record_check_at(const struct ncsync_insn *insn,
					      __u32 index, __u32 nrecords);
bool ncsync_insn_target(const struct ncsync_insn *insn, __u32 index,
			__u32 *target);
const char *ncsync_rec_reason_name(unsigned int reason);

/**
 * ncsync_rec_reason_conform() - whether only the conformance profile gives
 *	a reason.
 * @reason: an enum ncsync_rec_reason.
 *
 * Return: true for NCSYNC_REC_CONF_FIRST .. NCSYNC_REC_CONF_LAST.
 */
static inline bool ncsync_rec_reason_conform(unsigned int reason)
{
	return reason >= NCSYNC_REC_CONF_FIRST &&
	       reason <= NCSYNC_REC_CONF_LAST;
}

/* The distinct GroupResetSemaphores groups the profile remembers. */
#define NCSYNC_CONFORM_GROUPS	64

/**
 * struct ncsync_conform_group - a GroupResetSemaphores group of a
 *	submission, as the conformance profile remembers it.
 * @mask: its semaphores.
 * @queue: the queue that named it first.
 */
struct ncsync_conform_group {
	__u32 mask[8];
	__u32 queue;
};

/**
 * struct ncsync_conform - the conformance profile over one submission
 *	(Documentation/ncsync/records.rst, "The conformance profile").
 * @earlier: the union of the GroupResetSemaphores groups of the queues
 *	checked before.
 * @queue: that of the queue being checked.
 * @nqueue: the queue being checked, from 0.
 * @ngroups: entries of @groups.
 * @groups: the first NCSYNC_CONFORM_GROUPS distinct groups, each once.
 *
 * Zero it (ncsync_conform_init()), check every record of a queue with
 * ncsync_record_conform(), then call ncsync_conform_next_queue().  About
 * 2.4 KiB: the kernel allocates it.
 */
struct ncsync_conform {
	__u32 earlier[8];
	__u32 queue[8];
	__u32 nqueue;
	__u32 ngroups;
	struct ncsync_conform_group groups[NCSYNC_CONFORM_GROUPS];
};

void ncsync_conform_init(struct ncsync_conform *c);
void ncsync_conform_next_queue(struct ncsync_conform *c);
enum ncsync_rec_reason ncsync_record_conform(struct ncsync_conform *c,
					     const struct ncsync_insn *insn);
enum ncsync_rec_reason ncsync_barrier_record_conform(const __u8 *rec);

/**
 * ncsync_record_encode() - write the record of a decoded instruction.
 * @insn: the instruction.  Only its wire-level fields are read: @opcode;
 *	the modes, indices and values of lane 0 and, for EventSemaphore, of
 *	lane 1; and the member of the opcode's family (@drain, @mov, @br,
 *	@gr, @poll, @dma).  The branch operand kind follows from @br.comp.
 *	Lane 0 has one value field: its @wait_value when it has a wait, else
 *	its @upd_value.  The range form of GroupResetSemaphores encodes
 *	@gr.first and @gr.last, not the mask.  Exit's flag byte is zero.
 * @rec: out: the NCSYNC_RECORD_SIZE bytes.
 *
 * The exact inverse of ncsync_record_decode(): for every record r that it
 * accepts, ncsync_record_encode() of the decoded r is r byte for byte.
 * Any other instruction is encoded field by field as it is, so that the
 * decoder refuses the record for the field that is wrong.  Every byte the
 * opcode's layout does not name is zero; an opcode engines do not run (a
 * pseudo-op) gets the header and the events block only.
 */
void ncsync_record_encode(const struct ncsync_insn *insn,
			  __u8 rec[NCSYNC_RECORD_SIZE]);

bool ncsync_upd_is_sem(__u8 mode);
bool ncsync_upd_is_event(__u8 mode);
enum ncsync_sem_upd ncsync_upd_sem_arith(__u8 mode, __u32 *operand);
bool ncsync_br_test(__u8 comp, __u8 dtype, __u32 lhs, __u32 rhs);
__u32 ncsync_alu(__u8 alu, __u32 dst, __u32 src, __u32 imm);

#endif /* _NCSYNC_RECORD_H */
