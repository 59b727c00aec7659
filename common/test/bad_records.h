/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The bad-record table: records the validator must refuse, each with the
 * reason it must give (enum ncsync_rec_reason), covering every reason and
 * the boundaries of each rule of Documentation/ncsync/records.rst.  One
 * table for every test of the validator:
 *
 *  - KUnit (kunit/ncsync_kunit.c): ncsync_record_decode() returns the
 *    reason;
 *  - the library's host test (lib/test/program_error.c): the decoder,
 *    then ncsync_program_finalize() and ncsync_program_error();
 *  - the selftests (ncsync_engine_submit_test, ncsync_badinput_prog_test):
 *    NCSYNC_IOC_SUBMIT fails with EINVAL, names the record and the reason,
 *    and nothing runs.
 *
 * Plain data and two small helpers (the bytes of an entry; the first entry
 * of a reason), freestanding: it includes <linux/ncsync.h> only, and
 * builds in the kernel, in a host test and in a selftest.
 *
 * A record is its header (the opcode, 0x10, zero; records.rst "The
 * header") with every other byte zero, then the entry's patches: u8, u32
 * or u64 values written little-endian at their offsets.  Every non-zero
 * byte of the record is in the entry.
 *
 * The queue a record sits in matters to one rule only, the Branch target:
 * an entry with @target_is_qlen gets the length of its queue as its
 * target, one past the last record.  Runners that decode a record alone
 * take a queue of NCSYNC_BAD_QLEN records; the selftests take the length
 * of the queue they submit.
 *
 * The device memory matters to the DMA ranges: an entry with @devmem is
 * refused only because the range leaves a device memory below 2^40 bytes
 * (every size the module takes, and NCSYNC_BAD_DEVMEM); the library, which
 * does not know the device, checks ranges against 2^64 and accepts it.
 * Every other DMA entry is refused whatever the size.
 *
 * The logical core matters to a DMA record's peer: an entry with @lnc is
 * refused only by ncsync_record_check_lnc() for a logical core of fewer
 * than NCSYNC_MAX_LNC cores (every lnc the module takes but 64, and
 * NCSYNC_BAD_LNC); the decoder accepts it, and so does the library but for
 * a program given its logical core (ncsync_program_set_lnc()).
 */
#ifndef _NCSYNC_TEST_BAD_RECORDS_H
#define _NCSYNC_TEST_BAD_RECORDS_H

#include <linux/ncsync.h>

#define NCSYNC_BAD_PATCHES	6
/* A record decoded alone: in a queue of 16, a device memory of 64 KiB */
#define NCSYNC_BAD_QLEN		16
#define NCSYNC_BAD_DEVMEM	0x10000ULL
/* ... and a logical core of one core */
#define NCSYNC_BAD_LNC		1

/**
 * struct ncsync_bad_patch - a value written into a record.
 * @off: byte offset.
 * @len: 1, 4 or 8 bytes, little-endian; 0 ends the list.
 * @val: the value.
 */
struct ncsync_bad_patch {
	__u8 off;
	__u8 len;
	__u64 val;
};

/**
 * struct ncsync_bad_record - a record the validator refuses.
 * @name: a short name, unique in the table (a C identifier).
 * @opcode: byte 0.
 * @reason: the enum ncsync_rec_reason it is refused for.
 * @set: the values written over the header.
 * @target_is_qlen: the Branch target is the length of the queue.
 * @devmem: refused only by a device memory below 2^40 bytes.
 * @lnc: refused only by a logical core below NCSYNC_MAX_LNC cores.
 */
struct ncsync_bad_record {
	const char *name;
	__u8 opcode;
	__u8 reason;
	struct ncsync_bad_patch set[NCSYNC_BAD_PATCHES];
	__u8 target_is_qlen;
	__u8 devmem;
	__u8 lnc;
};

#define BAD(n, opc, why)	.name = (n), .opcode = (opc), .reason = (why)
#define P8(off, v)	{ (off), 1, (v) }
#define P32(off, v)	{ (off), 4, (v) }
#define P64(off, v)	{ (off), 8, (v) }
/* A Branch's comparison, dtype and operand kind 3 (with operands) */
#define BR_OP(comp)	P8(NCSYNC_REC_BR_COMP_OP, (comp))
#define BR_DT(dtype)	P8(NCSYNC_REC_BR_DTYPE, (dtype))
#define BR_K3		P8(NCSYNC_REC_BR_OPERAND_KIND, NCSYNC_BR_OPERANDS)
#define BR_U32		BR_DT(NCSYNC_DTYPE_U32)
#define BR_S32		BR_DT(NCSYNC_DTYPE_S32)
/* A DMA of 4 bytes from 0 to 0: valid in every device memory. */
#define DMA4		P32(NCSYNC_REC_DMA_LEN, 4)
#define UPD_C(m)	(NCSYNC_UPD_COMPLETE | (m))
#define UREG(m)		(NCSYNC_UPD_REG | (m))
#define WREG(m)		(NCSYNC_WAIT_REG | (m))

static const struct ncsync_bad_record ncsync_bad_records[] = {
	/* The opcode: below, between and above the opcodes engines run */
	{ BAD("opcode_00", 0x00, NCSYNC_REC_BAD_OPCODE) },
	{ BAD("opcode_9e", 0x9E, NCSYNC_REC_BAD_OPCODE) },
	{ BAD("opcode_a3", 0xA3, NCSYNC_REC_BAD_OPCODE) },
	{ BAD("opcode_b4", 0xB4, NCSYNC_REC_BAD_OPCODE) },
	/*
	 * SYNC names "0x10B1 ordering" in "The opcode-word family" and gives
	 * it the "simpler +0x04..+0x08 shared sync block" ("The other
	 * sync-word records"), but no effect: refused for that, before its
	 * header and bytes are looked at.
	 */
	{ BAD("opcode_b1_ordering", NCSYNC_OPC_ORDERING,
	      NCSYNC_REC_UNMODELLED_OP) },
	{ BAD("opcode_b1_ordering_sync_block", NCSYNC_OPC_ORDERING,
	      NCSYNC_REC_UNMODELLED_OP),
	  .set = { P8(0x04, 0x05), P8(0x05, 3), P8(0x08, 1) } },
	{ BAD("opcode_b1_ordering_reserved", NCSYNC_OPC_ORDERING,
	      NCSYNC_REC_UNMODELLED_OP),
	  .set = { P8(0x01, 0x0F), P8(0x30, 1) } },
	{ BAD("opcode_bf", 0xBF, NCSYNC_REC_BAD_OPCODE) },
	{ BAD("opcode_e2", 0xE2, NCSYNC_REC_BAD_OPCODE) },
	{ BAD("opcode_ff", 0xFF, NCSYNC_REC_BAD_OPCODE) },
	/* Pseudo-ops: 0xC0 - 0xDE (0xDF is Exit) */
	{ BAD("pseudo_d5_all_engine_barrier", NCSYNC_OPC_ALL_ENGINE_BARRIER,
	      NCSYNC_REC_PSEUDO_OP) },
	{ BAD("pseudo_d8_core_barrier", NCSYNC_OPC_CORE_BARRIER,
	      NCSYNC_REC_PSEUDO_OP) },
	{ BAD("pseudo_c3_dma_barrier", NCSYNC_OPC_DMA_BARRIER,
	      NCSYNC_REC_PSEUDO_OP) },
	/*
	 * The collective triggers (BARRIER, "See also": 0xC8 "carries the
	 * same events block"; 0xD9/0xDA): the library lowers them.
	 */
	{ BAD("pseudo_c8_trigger_collective", NCSYNC_OPC_TRIGGER_COLLECTIVE,
	      NCSYNC_REC_PSEUDO_OP) },
	{ BAD("pseudo_d9_trigger_collective2", NCSYNC_OPC_TRIGGER_COLLECTIVE2,
	      NCSYNC_REC_PSEUDO_OP) },
	{ BAD("pseudo_da_trigger_collective2_ext",
	      NCSYNC_OPC_TRIGGER_COLLECTIVE2_EXT, NCSYNC_REC_PSEUDO_OP) },
	{ BAD("pseudo_d3_call", NCSYNC_OPC_CALL, NCSYNC_REC_PSEUDO_OP) },
	{ BAD("pseudo_d2_return", NCSYNC_OPC_RETURN, NCSYNC_REC_PSEUDO_OP) },
	{ BAD("pseudo_c0", NCSYNC_OPC_PSEUDO_FIRST, NCSYNC_REC_PSEUDO_OP) },
	{ BAD("pseudo_de", 0xDE, NCSYNC_REC_PSEUDO_OP) },
	/* The header */
	{ BAD("wordlen_0f", NCSYNC_OPC_NOOP, NCSYNC_REC_BAD_WORDLEN),
	  .set = { P8(0x01, 0x0F) } },
	{ BAD("wordlen_11", NCSYNC_OPC_NOOP, NCSYNC_REC_BAD_WORDLEN),
	  .set = { P8(0x01, 0x11) } },
	{ BAD("wordlen_00", NCSYNC_OPC_EVENT_SEMAPHORE, NCSYNC_REC_BAD_WORDLEN),
	  .set = { P8(0x01, 0x00) } },
	{ BAD("header_byte2", NCSYNC_OPC_NOOP, NCSYNC_REC_HEADER_RESERVED),
	  .set = { P8(0x02, 1) } },
	{ BAD("header_byte3", NCSYNC_OPC_EXIT, NCSYNC_REC_HEADER_RESERVED),
	  .set = { P8(0x03, 0x80) } },
	{ BAD("header_byte3_noop", NCSYNC_OPC_NOOP, NCSYNC_REC_HEADER_RESERVED),
	  .set = { P8(0x03, 0x80) } },
	/* A byte the opcode's layout does not name */
	{ BAD("reserved_noop_0c", NCSYNC_OPC_NOOP, NCSYNC_REC_RESERVED_BYTE),
	  .set = { P8(0x0C, 1) } },
	{ BAD("reserved_noop_3f", NCSYNC_OPC_NOOP, NCSYNC_REC_RESERVED_BYTE),
	  .set = { P8(0x3F, 1) } },
	{ BAD("reserved_engine_nop_0c", NCSYNC_OPC_ENGINE_NOP,
	      NCSYNC_REC_RESERVED_BYTE), .set = { P8(0x0C, 1) } },
	{ BAD("reserved_engine_nop_3f", NCSYNC_OPC_ENGINE_NOP,
	      NCSYNC_REC_RESERVED_BYTE), .set = { P8(0x3F, 1) } },
	{ BAD("header_byte3_engine_nop", NCSYNC_OPC_ENGINE_NOP,
	      NCSYNC_REC_HEADER_RESERVED), .set = { P8(0x03, 1) } },
	{ BAD("reserved_halt_20", NCSYNC_OPC_HALT, NCSYNC_REC_RESERVED_BYTE),
	  .set = { P8(0x20, 1) } },
	{ BAD("reserved_evsem_0c_setter_signature", NCSYNC_OPC_EVENT_SEMAPHORE,
	      NCSYNC_REC_RESERVED_BYTE),
	  .set = { P8(0x0C, 1) } },
	{ BAD("reserved_evsem_2c", NCSYNC_OPC_EVENT_SEMAPHORE,
	      NCSYNC_REC_RESERVED_BYTE),
	  .set = { P8(0x2C, 1) } },
	{ BAD("reserved_evsem_10", NCSYNC_OPC_EVENT_SEMAPHORE,
	      NCSYNC_REC_RESERVED_BYTE),
	  .set = { P8(0x10, 1) } },
	{ BAD("reserved_drain_29", NCSYNC_OPC_DRAIN, NCSYNC_REC_RESERVED_BYTE),
	  .set = { P8(NCSYNC_REC_DRAIN_COUNT, 1), P8(0x29, 1) } },
	{ BAD("reserved_mov_0f", NCSYNC_OPC_MOV32, NCSYNC_REC_RESERVED_BYTE),
	  .set = { P8(0x0F, 1) } },
	{ BAD("reserved_branch_14", NCSYNC_OPC_BRANCH,
	      NCSYNC_REC_RESERVED_BYTE),
	  .set = { P8(0x14, 1) } },
	{ BAD("reserved_exit_0d", NCSYNC_OPC_EXIT, NCSYNC_REC_RESERVED_BYTE),
	  .set = { P8(0x0D, 1) } },
	{ BAD("reserved_gr_0f", NCSYNC_OPC_GROUP_RESET,
	      NCSYNC_REC_RESERVED_BYTE),
	  .set = { P8(NCSYNC_REC_GR_CLEAR_MODE, NCSYNC_CLEAR_RANGE),
		   P8(0x0F, 1) } },
	{ BAD("reserved_poll_11", NCSYNC_OPC_POLL_SEM,
	      NCSYNC_REC_RESERVED_BYTE),
	  .set = { P8(NCSYNC_REC_POLL_COUNT, 1), P8(0x11, 1) } },
	{ BAD("reserved_dma_28", NCSYNC_OPC_DMA, NCSYNC_REC_RESERVED_BYTE),
	  .set = { DMA4, P8(0x28, 1) } },
	/* Wait modes */
	{ BAD("wait_mode_08", NCSYNC_OPC_NOOP, NCSYNC_REC_BAD_WAIT_MODE),
	  .set = { P8(NCSYNC_REC_EV_WAIT_MODE, 0x08) } },
	{ BAD("wait_mode_event_reg_86", NCSYNC_OPC_NOOP,
	      NCSYNC_REC_BAD_WAIT_MODE),
	  .set = { P8(NCSYNC_REC_EV_WAIT_MODE, WREG(NCSYNC_WAIT_EVT_SET)) } },
	{ BAD("wait_mode_10", NCSYNC_OPC_NOOP, NCSYNC_REC_BAD_WAIT_MODE),
	  .set = { P8(NCSYNC_REC_EV_WAIT_MODE, 0x10) } },
	{ BAD("wait_mode_reg_none_80", NCSYNC_OPC_NOOP,
	      NCSYNC_REC_BAD_WAIT_MODE),
	  .set = { P8(NCSYNC_REC_EV_WAIT_MODE, NCSYNC_WAIT_REG) } },
	{ BAD("wait_mode_lane1_0d", NCSYNC_OPC_EVENT_SEMAPHORE,
	      NCSYNC_REC_BAD_WAIT_MODE),
	  .set = { P8(NCSYNC_REC_EX_WAIT_MODE, 0x0D) } },
	/* Update modes */
	{ BAD("update_mode_06", NCSYNC_OPC_NOOP, NCSYNC_REC_BAD_UPDATE_MODE),
	  .set = { P8(NCSYNC_REC_EV_UPD_MODE, 0x06) } },
	{ BAD("update_mode_0a", NCSYNC_OPC_NOOP, NCSYNC_REC_BAD_UPDATE_MODE),
	  .set = { P8(NCSYNC_REC_EV_UPD_MODE, 0x0A) } },
	{ BAD("update_mode_reg_event_81", NCSYNC_OPC_NOOP,
	      NCSYNC_REC_BAD_UPDATE_MODE),
	  .set = { P8(NCSYNC_REC_EV_UPD_MODE, UREG(NCSYNC_UPD_EVT_SET)) } },
	{ BAD("update_mode_reg_inc_83", NCSYNC_OPC_NOOP,
	      NCSYNC_REC_BAD_UPDATE_MODE),
	  .set = { P8(NCSYNC_REC_EV_UPD_MODE, UREG(NCSYNC_UPD_SEM_INC)) } },
	{ BAD("update_mode_23", NCSYNC_OPC_NOOP, NCSYNC_REC_BAD_UPDATE_MODE),
	  .set = { P8(NCSYNC_REC_EV_UPD_MODE, 0x20 | NCSYNC_UPD_SEM_INC) } },
	{ BAD("update_mode_lane1_16", NCSYNC_OPC_EVENT_SEMAPHORE,
	      NCSYNC_REC_BAD_UPDATE_MODE),
	  .set = { P8(NCSYNC_REC_EX_UPD_MODE, 0x16) } },
	/* EventSemaphore takes _COMPLETE forms only, in both lanes */
	{ BAD("update_not_complete_lane1", NCSYNC_OPC_EVENT_SEMAPHORE,
	      NCSYNC_REC_UPDATE_NOT_COMPLETE),
	  .set = { P8(NCSYNC_REC_EX_UPD_MODE, NCSYNC_UPD_SEM_INC),
		   P32(NCSYNC_REC_EX_UPD_VALUE, 1) } },
	{ BAD("update_not_complete_lane0", NCSYNC_OPC_EVENT_SEMAPHORE,
	      NCSYNC_REC_UPDATE_NOT_COMPLETE),
	  .set = { P8(NCSYNC_REC_EV_UPD_MODE, NCSYNC_UPD_EVT_SET) } },
	{ BAD("update_not_complete_reg", NCSYNC_OPC_EVENT_SEMAPHORE,
	      NCSYNC_REC_UPDATE_NOT_COMPLETE),
	  .set = { P8(NCSYNC_REC_EX_UPD_MODE, UREG(NCSYNC_UPD_SEM_WRITE)) } },
	/* Fields of an absent wait or update */
	{ BAD("unused_wait_index", NCSYNC_OPC_NOOP, NCSYNC_REC_UNUSED_FIELD),
	  .set = { P8(NCSYNC_REC_EV_WAIT_IDX, 5) } },
	{ BAD("unused_update_index", NCSYNC_OPC_NOOP, NCSYNC_REC_UNUSED_FIELD),
	  .set = { P8(NCSYNC_REC_EV_UPD_IDX, 5) } },
	{ BAD("unused_lane0_value", NCSYNC_OPC_NOOP, NCSYNC_REC_UNUSED_FIELD),
	  .set = { P32(NCSYNC_REC_EV_VALUE, 1) } },
	{ BAD("unused_lane1_wait_index", NCSYNC_OPC_EVENT_SEMAPHORE,
	      NCSYNC_REC_UNUSED_FIELD),
	  .set = { P8(NCSYNC_REC_EX_WAIT_IDX, 1) } },
	{ BAD("unused_lane1_update_index", NCSYNC_OPC_EVENT_SEMAPHORE,
	      NCSYNC_REC_UNUSED_FIELD),
	  .set = { P8(NCSYNC_REC_EX_UPD_IDX, 1) } },
	{ BAD("unused_lane1_wait_value", NCSYNC_OPC_EVENT_SEMAPHORE,
	      NCSYNC_REC_UNUSED_FIELD),
	  .set = { P32(NCSYNC_REC_EX_WAIT_VALUE, 1) } },
	{ BAD("unused_lane1_update_value", NCSYNC_OPC_EVENT_SEMAPHORE,
	      NCSYNC_REC_UNUSED_FIELD),
	  .set = { P32(NCSYNC_REC_EX_UPD_VALUE, 1) } },
	/* ... and the unused fields of Mov32, Branch, GroupReset */
	{ BAD("unused_mov_imm_src", NCSYNC_OPC_MOV32, NCSYNC_REC_UNUSED_FIELD),
	  .set = { P8(NCSYNC_REC_MOV_SRC, 1) } },
	{ BAD("unused_mov_mov_imm", NCSYNC_OPC_MOV32, NCSYNC_REC_UNUSED_FIELD),
	  .set = { P8(NCSYNC_REC_MOV_ALU, NCSYNC_ALU_MOV),
		   P32(NCSYNC_REC_MOV_IMM, 1) } },
	{ BAD("unused_mov_add_imm", NCSYNC_OPC_MOV32, NCSYNC_REC_UNUSED_FIELD),
	  .set = { P8(NCSYNC_REC_MOV_ALU, NCSYNC_ALU_ADD),
		   P32(NCSYNC_REC_MOV_IMM, 1) } },
	{ BAD("unused_mov_sub_imm", NCSYNC_OPC_MOV32, NCSYNC_REC_UNUSED_FIELD),
	  .set = { P8(NCSYNC_REC_MOV_ALU, NCSYNC_ALU_SUB),
		   P32(NCSYNC_REC_MOV_IMM, 0x80000000U) } },
	{ BAD("unused_branch_always_lhs", NCSYNC_OPC_BRANCH,
	      NCSYNC_REC_UNUSED_FIELD),
	  .set = { P8(NCSYNC_REC_BR_LHS_REG, 1) } },
	{ BAD("unused_branch_imm_rhs", NCSYNC_OPC_BRANCH,
	      NCSYNC_REC_UNUSED_FIELD),
	  .set = { BR_OP(NCSYNC_BR_LT), BR_U32, BR_K3,
		   P8(NCSYNC_REC_BR_RHS_REG, 1) } },
	{ BAD("unused_branch_reg_imm", NCSYNC_OPC_BRANCH,
	      NCSYNC_REC_UNUSED_FIELD),
	  .set = { BR_OP(NCSYNC_BR_REG | NCSYNC_BR_LT), BR_U32, BR_K3,
		   P32(NCSYNC_REC_BR_IMM, 1) } },
	{ BAD("unused_gr_range_mask", NCSYNC_OPC_GROUP_RESET,
	      NCSYNC_REC_UNUSED_FIELD),
	  .set = { P8(NCSYNC_REC_GR_CLEAR_MODE, NCSYNC_CLEAR_RANGE),
		   P8(NCSYNC_REC_GR_MASK + 31, 0x80) } },
	{ BAD("unused_gr_mask_first", NCSYNC_OPC_GROUP_RESET,
	      NCSYNC_REC_UNUSED_FIELD),
	  .set = { P8(NCSYNC_REC_GR_CLEAR_MODE, NCSYNC_CLEAR_MASK),
		   P8(NCSYNC_REC_GR_FIRST, 1) } },
	{ BAD("unused_gr_mask_last", NCSYNC_OPC_GROUP_RESET,
	      NCSYNC_REC_UNUSED_FIELD),
	  .set = { P8(NCSYNC_REC_GR_CLEAR_MODE, NCSYNC_CLEAR_MASK),
		   P8(NCSYNC_REC_GR_LAST, 1) } },
	/* Register numbers: 32 and up */
	{ BAD("register_mov_dst", NCSYNC_OPC_MOV32, NCSYNC_REC_BAD_REGISTER),
	  .set = { P8(NCSYNC_REC_MOV_DST, NCSYNC_NUM_REGS) } },
	{ BAD("register_mov_src", NCSYNC_OPC_MOV32, NCSYNC_REC_BAD_REGISTER),
	  .set = { P8(NCSYNC_REC_MOV_ALU, NCSYNC_ALU_MOV),
		   P8(NCSYNC_REC_MOV_SRC, 40) } },
	{ BAD("register_wait_reg", NCSYNC_OPC_NOOP, NCSYNC_REC_BAD_REGISTER),
	  .set = { P8(NCSYNC_REC_EV_WAIT_MODE, WREG(NCSYNC_WAIT_SEM_GE)),
		   P32(NCSYNC_REC_EV_VALUE, NCSYNC_NUM_REGS) } },
	{ BAD("register_wait_lane1", NCSYNC_OPC_EVENT_SEMAPHORE,
	      NCSYNC_REC_BAD_REGISTER),
	  .set = { P8(NCSYNC_REC_EX_WAIT_MODE, WREG(NCSYNC_WAIT_SEM_EQ)),
		   P32(NCSYNC_REC_EX_WAIT_VALUE, NCSYNC_NUM_REGS) } },
	{ BAD("register_update_reg", NCSYNC_OPC_EVENT_SEMAPHORE,
	      NCSYNC_REC_BAD_REGISTER),
	  .set = { P8(NCSYNC_REC_EX_UPD_MODE,
		      UPD_C(UREG(NCSYNC_UPD_SEM_WRITE))),
		   P32(NCSYNC_REC_EX_UPD_VALUE, 0x100) } },
	{ BAD("register_update_add_32", NCSYNC_OPC_NOOP,
	      NCSYNC_REC_BAD_REGISTER),
	  .set = { P8(NCSYNC_REC_EV_UPD_MODE, UREG(NCSYNC_UPD_SEM_ADD)),
		   P32(NCSYNC_REC_EV_VALUE, NCSYNC_NUM_REGS) } },
	{ BAD("register_update_write_u32_max", NCSYNC_OPC_NOOP,
	      NCSYNC_REC_BAD_REGISTER),
	  .set = { P8(NCSYNC_REC_EV_UPD_MODE, UREG(NCSYNC_UPD_SEM_WRITE)),
		   P8(NCSYNC_REC_EV_UPD_IDX, 4),
		   P32(NCSYNC_REC_EV_VALUE, 0xFFFFFFFFU) } },
	{ BAD("register_branch_lhs", NCSYNC_OPC_BRANCH,
	      NCSYNC_REC_BAD_REGISTER),
	  .set = { BR_OP(NCSYNC_BR_LT), BR_U32, BR_K3,
		   P8(NCSYNC_REC_BR_LHS_REG, NCSYNC_NUM_REGS) } },
	{ BAD("register_branch_rhs", NCSYNC_OPC_BRANCH,
	      NCSYNC_REC_BAD_REGISTER),
	  .set = { BR_OP(NCSYNC_BR_REG | NCSYNC_BR_LT), BR_S32, BR_K3,
		   P8(NCSYNC_REC_BR_RHS_REG, 255) } },
	{ BAD("register_poll_dst", NCSYNC_OPC_POLL_SEM,
	      NCSYNC_REC_BAD_REGISTER),
	  .set = { P8(NCSYNC_REC_POLL_DST, NCSYNC_NUM_REGS),
		   P8(NCSYNC_REC_POLL_COUNT, 1) } },
	/* Branch comparisons: 0, 1 - 6, 9 - 14 */
	{ BAD("comp_op_7", NCSYNC_OPC_BRANCH, NCSYNC_REC_BAD_COMP_OP),
	  .set = { BR_OP(7), BR_U32, BR_K3 } },
	{ BAD("comp_op_8", NCSYNC_OPC_BRANCH, NCSYNC_REC_BAD_COMP_OP),
	  .set = { BR_OP(NCSYNC_BR_REG), BR_U32, BR_K3 } },
	{ BAD("comp_op_15", NCSYNC_OPC_BRANCH, NCSYNC_REC_BAD_COMP_OP),
	  .set = { BR_OP(15), BR_U32, BR_K3 } },
	{ BAD("comp_op_0x11", NCSYNC_OPC_BRANCH, NCSYNC_REC_BAD_COMP_OP),
	  .set = { BR_OP(0x10 | NCSYNC_BR_LT), BR_U32, BR_K3 } },
	{ BAD("comp_op_0x21", NCSYNC_OPC_BRANCH, NCSYNC_REC_BAD_COMP_OP),
	  .set = { BR_OP(0x21), BR_U32, BR_K3 } },
	/* Branch dtypes and operand kinds */
	{ BAD("dtype_0", NCSYNC_OPC_BRANCH, NCSYNC_REC_BAD_DTYPE),
	  .set = { BR_OP(NCSYNC_BR_EQ), BR_DT(0), BR_K3 } },
	{ BAD("dtype_3", NCSYNC_OPC_BRANCH, NCSYNC_REC_BAD_DTYPE),
	  .set = { BR_OP(NCSYNC_BR_EQ), BR_DT(3), BR_K3 } },
	{ BAD("operand_kind_0", NCSYNC_OPC_BRANCH, NCSYNC_REC_BAD_OPERAND_KIND),
	  .set = { P8(NCSYNC_REC_BR_COMP_OP, NCSYNC_BR_LT),
		   P8(NCSYNC_REC_BR_DTYPE, NCSYNC_DTYPE_U32) } },
	{ BAD("operand_kind_2", NCSYNC_OPC_BRANCH, NCSYNC_REC_BAD_OPERAND_KIND),
	  .set = { P8(NCSYNC_REC_BR_COMP_OP, NCSYNC_BR_LT),
		   P8(NCSYNC_REC_BR_DTYPE, NCSYNC_DTYPE_U32),
		   P8(NCSYNC_REC_BR_OPERAND_KIND, 2) } },
	{ BAD("operand_kind_always_3", NCSYNC_OPC_BRANCH,
	      NCSYNC_REC_BAD_OPERAND_KIND),
	  .set = { P8(NCSYNC_REC_BR_OPERAND_KIND, NCSYNC_BR_OPERANDS) } },
	/* Branch targets: one past the queue, and no truncation to 32 bits */
	{ BAD("target_count", NCSYNC_OPC_BRANCH, NCSYNC_REC_BAD_TARGET),
	  .target_is_qlen = 1 },
	{ BAD("target_u32_max", NCSYNC_OPC_BRANCH, NCSYNC_REC_BAD_TARGET),
	  .set = { P64(NCSYNC_REC_BR_TARGET, 0xFFFFFFFFU) } },
	{ BAD("target_huge_always", NCSYNC_OPC_BRANCH, NCSYNC_REC_BAD_TARGET),
	  .set = { P64(NCSYNC_REC_BR_TARGET, 1ULL << 32) } },
	{ BAD("target_huge", NCSYNC_OPC_BRANCH, NCSYNC_REC_BAD_TARGET),
	  .set = { BR_OP(NCSYNC_BR_NE), BR_U32, BR_K3,
		   P64(NCSYNC_REC_BR_TARGET, 1ULL << 32) } },
	/*
	 * BranchHint: an offset no record of any queue of NCSYNC_BAD_QLEN
	 * (or of the selftests' queues) can reach, refused wherever the
	 * record sits; a byte past the offset.  A target just outside the
	 * queue depends on the record's place: lib/test/br_hint.c, KUnit,
	 * the selftest br_hint.
	 */
	{ BAD("hint_offset_s32_min", NCSYNC_OPC_BR_HINT, NCSYNC_REC_BAD_TARGET),
	  .set = { P32(NCSYNC_REC_HINT_OFFSET, 0x80000000U) } },
	{ BAD("hint_offset_s32_max", NCSYNC_OPC_BR_HINT, NCSYNC_REC_BAD_TARGET),
	  .set = { P32(NCSYNC_REC_HINT_OFFSET, 0x7FFFFFFFU) } },
	{ BAD("hint_reserved_14", NCSYNC_OPC_BR_HINT,
	      NCSYNC_REC_RESERVED_BYTE),
	  .set = { P8(0x14, 1) } },
	{ BAD("hint_reserved_0c", NCSYNC_OPC_BR_HINT,
	      NCSYNC_REC_RESERVED_BYTE),
	  .set = { P8(0x0C, 1) } },
	/* GroupResetSemaphores */
	{ BAD("clear_mode_0", NCSYNC_OPC_GROUP_RESET,
	      NCSYNC_REC_BAD_CLEAR_MODE) },
	{ BAD("clear_mode_3", NCSYNC_OPC_GROUP_RESET,
	      NCSYNC_REC_BAD_CLEAR_MODE),
	  .set = { P8(NCSYNC_REC_GR_CLEAR_MODE, 3) } },
	{ BAD("range_first_after_last", NCSYNC_OPC_GROUP_RESET,
	      NCSYNC_REC_BAD_RANGE),
	  .set = { P8(NCSYNC_REC_GR_CLEAR_MODE, NCSYNC_CLEAR_RANGE),
		   P8(NCSYNC_REC_GR_FIRST, 9), P8(NCSYNC_REC_GR_LAST, 5) } },
	{ BAD("range_first_one_past_last", NCSYNC_OPC_GROUP_RESET,
	      NCSYNC_REC_BAD_RANGE),
	  .set = { P8(NCSYNC_REC_GR_CLEAR_MODE, NCSYNC_CLEAR_RANGE),
		   P8(NCSYNC_REC_GR_FIRST, 255),
		   P8(NCSYNC_REC_GR_LAST, 254) } },
	/* Drain, Exit, Mov32 */
	{ BAD("drain_count_0", NCSYNC_OPC_DRAIN, NCSYNC_REC_BAD_DRAIN_COUNT) },
	{ BAD("drain_count_2", NCSYNC_OPC_DRAIN, NCSYNC_REC_BAD_DRAIN_COUNT),
	  .set = { P8(NCSYNC_REC_DRAIN_COUNT, 2) } },
	{ BAD("exit_flags_1", NCSYNC_OPC_EXIT, NCSYNC_REC_BAD_EXIT_FLAGS),
	  .set = { P8(NCSYNC_REC_EXIT_FLAGS, 1) } },
	{ BAD("exit_flags_ff", NCSYNC_OPC_EXIT, NCSYNC_REC_BAD_EXIT_FLAGS),
	  .set = { P8(NCSYNC_REC_EXIT_FLAGS, 0xFF) } },
	{ BAD("alu_op_11", NCSYNC_OPC_MOV32, NCSYNC_REC_BAD_ALU_OP),
	  .set = { P8(NCSYNC_REC_MOV_ALU, NCSYNC_ALU_LAST + 1) } },
	{ BAD("alu_op_ff", NCSYNC_OPC_MOV32, NCSYNC_REC_BAD_ALU_OP),
	  .set = { P8(NCSYNC_REC_MOV_ALU, 0xFF) } },
	/*
	 * PollSem: the operation, the count, the end of the bank, the
	 * write-back (BARRIER §5: for Min only)
	 */
	{ BAD("poll_writeback_2", NCSYNC_OPC_POLL_SEM, NCSYNC_REC_BAD_POLL),
	  .set = { P8(NCSYNC_REC_POLL_COUNT, 2),
		   P8(NCSYNC_REC_POLL_WRITEBACK, NCSYNC_POLL_WB_NONZERO + 1) } },
	{ BAD("poll_writeback_sum", NCSYNC_OPC_POLL_SEM, NCSYNC_REC_BAD_POLL),
	  .set = { P8(NCSYNC_REC_POLL_OP, NCSYNC_POLL_SUM),
		   P8(NCSYNC_REC_POLL_COUNT, 2),
		   P8(NCSYNC_REC_POLL_WRITEBACK, NCSYNC_POLL_WB_NONZERO) } },
	{ BAD("poll_op_2", NCSYNC_OPC_POLL_SEM, NCSYNC_REC_BAD_POLL),
	  .set = { P8(NCSYNC_REC_POLL_OP, NCSYNC_POLL_SUM + 1),
		   P8(NCSYNC_REC_POLL_COUNT, 1) } },
	{ BAD("poll_count_0", NCSYNC_OPC_POLL_SEM, NCSYNC_REC_BAD_POLL) },
	{ BAD("poll_count_17", NCSYNC_OPC_POLL_SEM, NCSYNC_REC_BAD_POLL),
	  .set = { P8(NCSYNC_REC_POLL_COUNT, NCSYNC_POLL_MAX_COUNT + 1) } },
	{ BAD("poll_past_bank", NCSYNC_OPC_POLL_SEM, NCSYNC_REC_BAD_POLL),
	  .set = { P8(NCSYNC_REC_POLL_FIRST, 250),
		   P8(NCSYNC_REC_POLL_COUNT, 7) } },
	{ BAD("poll_one_past_bank", NCSYNC_OPC_POLL_SEM, NCSYNC_REC_BAD_POLL),
	  .set = { P8(NCSYNC_REC_POLL_FIRST,
		      NCSYNC_NUM_SEMS - NCSYNC_POLL_MAX_COUNT + 1),
		   P8(NCSYNC_REC_POLL_COUNT, NCSYNC_POLL_MAX_COUNT) } },
	/* DMA: length, ranges, latency (at most 1000000 us) */
	{ BAD("dma_len_0", NCSYNC_OPC_DMA, NCSYNC_REC_BAD_DMA) },
	{ BAD("dma_src_outside", NCSYNC_OPC_DMA, NCSYNC_REC_BAD_DMA),
	  .set = { P64(NCSYNC_REC_DMA_SRC, 1ULL << 40), DMA4 },
	  .devmem = 1 },
	{ BAD("dma_len_too_long", NCSYNC_OPC_DMA, NCSYNC_REC_BAD_DMA),
	  .set = { P32(NCSYNC_REC_DMA_LEN, 0xFFFFFFF0U) },
	  .devmem = 1 },
	{ BAD("dma_dst_end_outside", NCSYNC_OPC_DMA, NCSYNC_REC_BAD_DMA),
	  .set = { P64(NCSYNC_REC_DMA_DST, ~0ULL - 1), DMA4 } },
	{ BAD("dma_src_end_wraps_to_0", NCSYNC_OPC_DMA, NCSYNC_REC_BAD_DMA),
	  .set = { P64(NCSYNC_REC_DMA_SRC, 0xFFFFFFFFFFFFF000ULL),
		   P32(NCSYNC_REC_DMA_LEN, 0x1000) } },
	{ BAD("dma_latency_one_over", NCSYNC_OPC_DMA, NCSYNC_REC_BAD_DMA),
	  .set = { DMA4, P32(NCSYNC_REC_DMA_LATENCY_US, 1000001) } },
	{ BAD("dma_latency_too_long", NCSYNC_OPC_DMA, NCSYNC_REC_BAD_DMA),
	  .set = { DMA4, P32(NCSYNC_REC_DMA_LATENCY_US, 0xFFFFFFFFU) } },
	/* DMA completion: none, event set, +1 */
	{ BAD("dma_update_add", NCSYNC_OPC_DMA, NCSYNC_REC_BAD_DMA_UPDATE),
	  .set = { DMA4, P8(NCSYNC_REC_EV_UPD_MODE, UPD_C(NCSYNC_UPD_SEM_ADD)),
		   P8(NCSYNC_REC_EV_UPD_IDX, 1) } },
	{ BAD("dma_update_add_read", NCSYNC_OPC_DMA, NCSYNC_REC_BAD_DMA_UPDATE),
	  .set = { DMA4, P8(NCSYNC_REC_EV_UPD_MODE, NCSYNC_UPD_SEM_ADD) } },
	{ BAD("dma_update_clear", NCSYNC_OPC_DMA, NCSYNC_REC_BAD_DMA_UPDATE),
	  .set = { DMA4,
		   P8(NCSYNC_REC_EV_UPD_MODE, UPD_C(NCSYNC_UPD_EVT_CLEAR)) } },
	{ BAD("dma_update_dec", NCSYNC_OPC_DMA, NCSYNC_REC_BAD_DMA_UPDATE),
	  .set = { DMA4, P8(NCSYNC_REC_EV_UPD_MODE, NCSYNC_UPD_SEM_DEC) } },
	{ BAD("dma_update_dec_complete", NCSYNC_OPC_DMA,
	      NCSYNC_REC_BAD_DMA_UPDATE),
	  .set = { DMA4, P8(NCSYNC_REC_EV_UPD_MODE, UPD_C(NCSYNC_UPD_SEM_DEC)),
		   P8(NCSYNC_REC_EV_UPD_IDX, 1) } },
	/* DMA peer: flag 0x01 only, with an update, a position below 64 */
	{ BAD("dma_peer_unknown_flag", NCSYNC_OPC_DMA, NCSYNC_REC_BAD_DMA_PEER),
	  .set = { DMA4, P8(NCSYNC_REC_EV_UPD_MODE, UPD_C(NCSYNC_UPD_SEM_INC)),
		   P8(NCSYNC_REC_DMA_FLAGS, 0x02) } },
	{ BAD("dma_peer_without_update", NCSYNC_OPC_DMA,
	      NCSYNC_REC_BAD_DMA_PEER),
	  .set = { DMA4, P8(NCSYNC_REC_DMA_FLAGS, NCSYNC_DMA_F_PEER) } },
	{ BAD("dma_peer_position_64", NCSYNC_OPC_DMA, NCSYNC_REC_BAD_DMA_PEER),
	  .set = { DMA4, P8(NCSYNC_REC_EV_UPD_MODE, UPD_C(NCSYNC_UPD_SEM_INC)),
		   P8(NCSYNC_REC_DMA_FLAGS, NCSYNC_DMA_F_PEER),
		   P8(NCSYNC_REC_DMA_PEER, NCSYNC_MAX_LNC) } },
	{ BAD("dma_peer_position_without_flag", NCSYNC_OPC_DMA,
	      NCSYNC_REC_BAD_DMA_PEER),
	  .set = { DMA4, P8(NCSYNC_REC_EV_UPD_MODE, UPD_C(NCSYNC_UPD_SEM_INC)),
		   P8(NCSYNC_REC_DMA_PEER, 1) } },
	{ BAD("dma_peer_outside", NCSYNC_OPC_DMA, NCSYNC_REC_DMA_PEER_OUTSIDE),
	  .set = { DMA4, P8(NCSYNC_REC_EV_UPD_MODE, UPD_C(NCSYNC_UPD_SEM_INC)),
		   P8(NCSYNC_REC_EV_UPD_IDX, 5),
		   P8(NCSYNC_REC_DMA_FLAGS, NCSYNC_DMA_F_PEER),
		   P8(NCSYNC_REC_DMA_PEER, NCSYNC_MAX_LNC - 1) },
	  .lnc = 1 },
};

#undef BAD
#undef P8
#undef P32
#undef P64
#undef BR_OP
#undef BR_DT
#undef BR_K3
#undef BR_U32
#undef BR_S32
#undef DMA4
#undef UPD_C
#undef UREG
#undef WREG

#define NCSYNC_NUM_BAD_RECORDS						\
	(sizeof(ncsync_bad_records) / sizeof(ncsync_bad_records[0]))

/*
 * The 64 bytes of @b, in a queue of @qlen records, into @r.  Written out
 * byte by byte: no library, no kernel helper.
 */
static inline void ncsync_bad_record_build(const struct ncsync_bad_record *b,
					   __u32 qlen, __u8 *r)
{
	const struct ncsync_bad_patch *p;
	unsigned int i;

	for (i = 0; i < NCSYNC_RECORD_SIZE; i++)
		r[i] = 0;
	r[0] = b->opcode;
	r[1] = NCSYNC_RECORD_WORDLEN;
	for (p = b->set; p < b->set + NCSYNC_BAD_PATCHES && p->len; p++)
		for (i = 0; i < p->len; i++)
			r[p->off + i] = (__u8)(p->val >> (8 * i));
	if (!b->target_is_qlen)
		return;
	for (i = 0; i < 8; i++)
		r[NCSYNC_REC_BR_TARGET + i] = (__u8)((__u64)qlen >> (8 * i));
}

/*
 * The first entry refused for @reason in any queue and any device memory
 * (neither @target_is_qlen nor @devmem), refused by the decoder (not
 * @lnc), or NULL.
 */
static inline const struct ncsync_bad_record *
ncsync_bad_record_of(unsigned int reason)
{
	const struct ncsync_bad_record *b;

	for (b = ncsync_bad_records;
	     b < ncsync_bad_records + NCSYNC_NUM_BAD_RECORDS; b++)
		if (b->reason == reason && !b->target_is_qlen && !b->devmem &&
		    !b->lnc)
			return b;
	return (const struct ncsync_bad_record *)0;
}

#endif /* _NCSYNC_TEST_BAD_RECORDS_H */
