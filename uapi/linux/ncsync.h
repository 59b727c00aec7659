/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * ncsync: a reference model of an AWS Trainium NeuronCore's sync fabric.
 *
 * Userspace ABI of /dev/ncsyncN.  Every structure uses fixed-size types,
 * pointers travel as __u64, and every pad, reserved or flags field must be
 * zero on input (EINVAL otherwise).  See Documentation/ncsync/uapi.rst.
 */
#ifndef _UAPI_LINUX_NCSYNC_H
#define _UAPI_LINUX_NCSYNC_H

#include <linux/ioctl.h>
#include <linux/types.h>

#define NCSYNC_API_VERSION		1

/* Bank geometry (SYNC: NumSemaphores = 256; BARRIER 3.1: 256 events). */
#define NCSYNC_NUM_SEMS			256
#define NCSYNC_NUM_EVENTS		256

/*
 * The CSR window of one core (Documentation/ncsync/model.rst, "The CSR
 * window").  The file offset of pread/pwrite is the CSR address; mmap uses
 * the same offsets.  Each window holds 256 registers of 4 bytes.
 */
#define NCSYNC_CSR_REG_SIZE		4
#define NCSYNC_CSR_WINDOW_SIZE		0x400
#define NCSYNC_CSR_EVENTS		0x0000	/* 0/1; write !0 sets, 0 clears */
#define NCSYNC_CSR_SEM_READ		0x1000	/* value; writes refused */
#define NCSYNC_CSR_SEM_SET		0x1400	/* value; write: value = w */
#define NCSYNC_CSR_SEM_INC		0x1800	/* value; write: value += w */
#define NCSYNC_CSR_SEM_DEC		0x1C00	/* value; write: value -= w */
#define NCSYNC_CSR_SIZE			0x2000	/* everything else reads 0 */
/* mmap offset of the core's device memory (model-defined) */
#define NCSYNC_DEVMEM_OFFSET		0x10000

/* Bank selector of struct ncsync_op and struct ncsync_wait. */
#define NCSYNC_BANK_SEM			0
#define NCSYNC_BANK_EVENT		1

/* Operations of struct ncsync_op. */
#define NCSYNC_OP_READ			0	/* both banks */
#define NCSYNC_OP_SET			1	/* sem: value = v; event: set */
#define NCSYNC_OP_INC			2	/* sem: value += v (mod 2^32) */
#define NCSYNC_OP_DEC			3	/* sem: value -= v (mod 2^32) */
#define NCSYNC_OP_CLEAR			4	/* event: clear */

/*
 * Wait modes.  These are the record wire values
 * (Documentation/ncsync/records.rst, "Wait modes"); the ioctl and the
 * engines share them.  The register forms (0x81..0x85) exist only for
 * engines: the wait ioctl refuses them with EINVAL.
 */
#define NCSYNC_WAIT_NONE		0x00
#define NCSYNC_WAIT_SEM_EQ		0x01
#define NCSYNC_WAIT_SEM_LT		0x02
#define NCSYNC_WAIT_SEM_LE		0x03
#define NCSYNC_WAIT_SEM_GT		0x04
#define NCSYNC_WAIT_SEM_GE		0x05
#define NCSYNC_WAIT_EVT_SET		0x06
#define NCSYNC_WAIT_EVT_SET_THEN_CLEAR	0x07
#define NCSYNC_WAIT_EVT_CLEAR		0x0E
#define NCSYNC_WAIT_EVT_CLEAR_THEN_SET	0x0F
#define NCSYNC_WAIT_REG			0x80	/* threshold is a register */

/**
 * struct ncsync_info - NCSYNC_IOC_INFO result.
 * @api_version: NCSYNC_API_VERSION of the running module.
 * @core: index N of this /dev/ncsyncN.
 * @num_cores: number of modeled cores (module parameter "cores").
 * @num_sems: semaphores per core (256).
 * @num_events: events per core (256).
 * @csr_size: size of the CSR window in bytes (NCSYNC_CSR_SIZE).
 * @rt_reserved_sem_first: first semaphore the runtime reserves for itself.
 * @rt_reserved_sem_count: number of reserved semaphores, up to index 255.
 * @rt_reserved_event_first: first event the runtime reserves for itself.
 * @rt_reserved_event_count: number of reserved events, up to index 255.
 * @devmem_offset: mmap offset of the core's device memory.
 * @devmem_size: size of the device memory in bytes (parameter devmem_kb).
 * @engine_mask: the datapath engines, bit i for engine i (0x6E).
 * @num_regs: registers per engine.
 * @watchdog_ms: the default program watchdog (parameter watchdog_ms).
 * @lnc: cores fused into one logical core (parameter lnc, default 1):
 *	this core is at position @core % @lnc of logical core @core / @lnc,
 *	and a DMA record's completion update can land on any core of it.
 *
 * The reserved slices model the runtime's RtReservedSemNum and
 * RtReservedEventsNum (SYNC): the driver does not enforce them, the library
 * keeps its own barriers there.
 */
struct ncsync_info {
	__u32 api_version;
	__u32 core;
	__u32 num_cores;
	__u32 num_sems;
	__u32 num_events;
	__u32 csr_size;
	__u32 rt_reserved_sem_first;
	__u32 rt_reserved_sem_count;
	__u32 rt_reserved_event_first;
	__u32 rt_reserved_event_count;
	__u32 devmem_offset;
	__u32 devmem_size;
	__u32 engine_mask;
	__u32 num_regs;
	__u32 watchdog_ms;
	__u32 lnc;
};

/**
 * struct ncsync_op - one read or update of a semaphore or an event.
 * @bank: NCSYNC_BANK_SEM or NCSYNC_BANK_EVENT.
 * @op: NCSYNC_OP_*; a semaphore takes READ, SET, INC and DEC, an event
 *	READ, SET and CLEAR.
 * @pad: zero.
 * @index: semaphore or event index, below 256.
 * @value: operand of a semaphore SET, INC or DEC; zero otherwise.
 * @before: out: the value (or event state) before the operation.
 * @after: out: the value (or event state) after the operation.
 * @reserved: zero.
 */
struct ncsync_op {
	__u8 bank;
	__u8 op;
	__u16 pad;
	__u32 index;
	__u32 value;
	__s32 before;
	__s32 after;
	__u32 reserved;
};

/* Most operations one NCSYNC_IOC_BATCH takes. */
#define NCSYNC_MAX_BATCH		1024

/**
 * struct ncsync_batch - several operations applied atomically, in order.
 * @ops: user pointer to @count struct ncsync_op; results are written back.
 * @count: 1 .. NCSYNC_MAX_BATCH.
 * @flags: zero.
 */
struct ncsync_batch {
	__u64 ops;
	__u32 count;
	__u32 flags;
};

/**
 * struct ncsync_timespec - an absolute CLOCK_MONOTONIC time.
 * @tv_sec: seconds, not negative.
 * @tv_nsec: nanoseconds, 0 .. 999999999.
 */
struct ncsync_timespec {
	__s64 tv_sec;
	__s64 tv_nsec;
};

/* struct ncsync_wait flags */
#define NCSYNC_WAIT_F_NO_DEADLINE	0x1U	/* deadline must be 0 */
#define NCSYNC_WAIT_F_ALL		NCSYNC_WAIT_F_NO_DEADLINE

/**
 * struct ncsync_wait - block until a semaphore condition or event state holds.
 * @bank: NCSYNC_BANK_SEM with a mode NCSYNC_WAIT_SEM_*, or NCSYNC_BANK_EVENT
 *	with a mode NCSYNC_WAIT_EVT_*.
 * @mode: one of NCSYNC_WAIT_* (not the register forms).
 * @flags: NCSYNC_WAIT_F_*.
 * @index: semaphore or event index, below 256.
 * @value: the signed threshold of a semaphore compare; zero for events.
 * @result: out: the value (or event state) that satisfied the wait, seen
 *	atomically with the test; for the then-clear and then-set event modes,
 *	the state before the action.
 * @deadline: absolute CLOCK_MONOTONIC deadline.  A deadline in the past
 *	tests the condition once.
 *
 * Errors: ETIMEDOUT at the deadline, EINTR on a signal (the ioctl restarts
 * under SA_RESTART, since the deadline is absolute), ECANCELED when the core
 * is reset, EBADF when the waiting process closes the descriptor.
 */
struct ncsync_wait {
	__u8 bank;
	__u8 mode;
	__u16 flags;
	__u32 index;
	__s32 value;
	__s32 result;
	struct ncsync_timespec deadline;
};

/**
 * struct ncsync_reset - NCSYNC_IOC_RESET argument.
 * @flags: zero.
 * @pad: zero.
 *
 * Clears every semaphore and event of the core and ends every wait on it
 * with ECANCELED.
 */
struct ncsync_reset {
	__u32 flags;
	__u32 pad;
};

/**
 * struct ncsync_seq - NCSYNC_IOC_ACK result.
 * @seq: the core's change sequence, now acknowledged by this descriptor.
 *
 * Each change of a core's banks (and each reset) advances its change
 * sequence.  poll() on a descriptor reports EPOLLIN | EPOLLRDNORM while the
 * sequence differs from the one the descriptor last acknowledged.
 */
struct ncsync_seq {
	__u64 seq;
};

/**
 * struct ncsync_stats - NCSYNC_IOC_STATS result: a core's counters.
 * @seq: the change sequence.
 * @resets: number of resets.
 * @event_set_while_set: sets of an event that was already set.
 * @event_clear_while_clear: clears of an event that was already clear.
 * @sem_overflows: semaphore updates that overflowed a signed 32-bit value.
 * @notify_drops: netlink notifications of this core that were dropped.
 * @log_suppressed: kernel log reports of this core (watchdog snapshots)
 *	left out by the rate limit.
 * @wakeups: sleepers woken by changes of the banks: engine and
 *	NCSYNC_IOC_WAIT waits on the semaphore or event that changed, and
 *	descriptors whose pollers were told of a change.
 *
 * The reference simulator treats the two event cases as errors; ncsync
 * counts them always (Documentation/ncsync/model.rst, "Events").
 */
struct ncsync_stats {
	__u64 seq;
	__u64 resets;
	__u64 event_set_while_set;
	__u64 event_clear_while_clear;
	__u64 sem_overflows;
	__u64 notify_drops;
	__u64 log_suppressed;
	__u64 wakeups;
};

/*
 * Programs: the 64-byte instruction record (Documentation/ncsync/records.rst;
 * SYNC, ENC).  Little-endian.  Byte 0 is the opcode, byte 1 is 0x10, bytes
 * 2-3 are zero, and every byte the layout of the opcode does not name is
 * zero.  Documentation/ncsync/records.rst marks each field "from the seeds",
 * "contract" or "model-defined".
 */
#define NCSYNC_RECORD_SIZE		64
#define NCSYNC_RECORD_WORDLEN		0x10	/* byte 1: 16 dwords */

/* Opcodes (byte 0) */
#define NCSYNC_OPC_ENGINE_NOP		0x9F	/* runs as a NoOp */
#define NCSYNC_OPC_EVENT_SEMAPHORE	0xA0
#define NCSYNC_OPC_HALT			0xA1
#define NCSYNC_OPC_DRAIN		0xA2
#define NCSYNC_OPC_NOOP			0xA4
#define NCSYNC_OPC_MOV32		0xA7
#define NCSYNC_OPC_BRANCH		0xA9
#define NCSYNC_OPC_GROUP_RESET		0xB0
/* SYNC's 0x10B1 "ordering" word: no effect given, refused (not modelled) */
#define NCSYNC_OPC_ORDERING		0xB1
#define NCSYNC_OPC_POLL_SEM		0xB3
#define NCSYNC_OPC_EXIT			0xDF
#define NCSYNC_OPC_DMA			0xE0	/* model-defined */
/* BranchHint: a hint to the front end, no effect (value model-defined) */
#define NCSYNC_OPC_BR_HINT		0xE1
/*
 * Pseudo-ops: never reach an engine; the library lowers them.  The range is
 * 0xC0-0xDF except its last opcode, NCSYNC_OPC_EXIT
 * (Documentation/ncsync/records.rst, "Pseudo-ops").
 */
#define NCSYNC_OPC_PSEUDO_FIRST		0xC0
#define NCSYNC_OPC_PSEUDO_LAST		0xDF
#define NCSYNC_OPC_DMA_BARRIER		0xC3
#define NCSYNC_OPC_TRIGGER_COLLECTIVE	0xC8	/* lowered: its events block */
#define NCSYNC_OPC_RETURN		0xD2
#define NCSYNC_OPC_CALL			0xD3
#define NCSYNC_OPC_ALL_ENGINE_BARRIER	0xD5
#define NCSYNC_OPC_CORE_BARRIER		0xD8
#define NCSYNC_OPC_TRIGGER_COLLECTIVE2	0xD9	/* lowered: its events block */
#define NCSYNC_OPC_TRIGGER_COLLECTIVE2_EXT 0xDA	/* lowered: its events block */

/* The events block, on every control op (ENC 8): lane 0 */
#define NCSYNC_REC_EV_WAIT_MODE		0x04
#define NCSYNC_REC_EV_WAIT_IDX		0x05
#define NCSYNC_REC_EV_UPD_MODE		0x06
#define NCSYNC_REC_EV_UPD_IDX		0x07
#define NCSYNC_REC_EV_VALUE		0x08	/* u32: threshold and operand */
/* The extended block, EventSemaphore only (SYNC): lane 1 */
#define NCSYNC_REC_EX_WAIT_MODE		0x20
#define NCSYNC_REC_EX_WAIT_IDX		0x21
#define NCSYNC_REC_EX_UPD_MODE		0x22
#define NCSYNC_REC_EX_UPD_IDX		0x23
#define NCSYNC_REC_EX_WAIT_VALUE	0x24	/* u32 */
#define NCSYNC_REC_EX_UPD_VALUE		0x28	/* u32 */
/* BranchHint (model-defined): the target relative to the hint itself */
#define NCSYNC_REC_HINT_OFFSET		0x10	/* s32 records */
/* Drain */
#define NCSYNC_REC_DRAIN_COUNT		0x28	/* u8, 1 = full drain */
/* Branch (ENC 3, 4) */
#define NCSYNC_REC_BR_COMP_OP		0x0C
#define NCSYNC_REC_BR_DTYPE		0x0D
#define NCSYNC_REC_BR_OPERAND_KIND	0x0E
#define NCSYNC_REC_BR_IMM		0x10	/* u32 */
#define NCSYNC_REC_BR_LHS_REG		0x20
#define NCSYNC_REC_BR_RHS_REG		0x21
#define NCSYNC_REC_BR_TARGET		0x30	/* u64 record index */
/* GroupResetSemaphores (SYNC numbering of ClearMode) */
#define NCSYNC_REC_GR_CLEAR_MODE	0x0C
#define NCSYNC_REC_GR_FIRST		0x0D
#define NCSYNC_REC_GR_LAST		0x0E
#define NCSYNC_REC_GR_MASK		0x20	/* 32 bytes, bit i: byte i/8 */
/* Exit */
#define NCSYNC_REC_EXIT_FLAGS		0x0C
/* Mov32 (model-defined) */
#define NCSYNC_REC_MOV_ALU		0x0C
#define NCSYNC_REC_MOV_DST		0x0D
#define NCSYNC_REC_MOV_SRC		0x0E
#define NCSYNC_REC_MOV_IMM		0x10	/* u32 */
/* PollSem (model-defined) */
#define NCSYNC_REC_POLL_OP		0x0C
#define NCSYNC_REC_POLL_DST		0x0D
#define NCSYNC_REC_POLL_FIRST		0x0E
#define NCSYNC_REC_POLL_COUNT		0x0F
#define NCSYNC_REC_POLL_WRITEBACK	0x10	/* NCSYNC_POLL_WB_* */
/* DMA (model-defined) */
#define NCSYNC_REC_DMA_FLAGS		0x0C	/* NCSYNC_DMA_F_* */
#define NCSYNC_REC_DMA_PEER		0x0D	/* with NCSYNC_DMA_F_PEER */
#define NCSYNC_REC_DMA_SRC		0x10	/* u64 device memory offset */
#define NCSYNC_REC_DMA_DST		0x18	/* u64 device memory offset */
#define NCSYNC_REC_DMA_LEN		0x20	/* u32 bytes */
#define NCSYNC_REC_DMA_LATENCY_US	0x24	/* u32 */
/*
 * NCSYNC_REC_DMA_FLAGS: the completion update lands on the core at
 * position NCSYNC_REC_DMA_PEER of the issuer's logical core (module
 * parameter lnc), not on the issuer's own core.
 */
#define NCSYNC_DMA_F_PEER		0x01
/* The most cores a logical core fuses: the bound of NCSYNC_REC_DMA_PEER. */
#define NCSYNC_MAX_LNC			64
/*
 * The largest device memory of a core, in KiB (module parameter
 * devmem_kb): a DMA range past it runs on no core, and the assembler
 * refuses it.
 */
#define NCSYNC_DEVMEM_MAX_KB		65536

/*
 * The record as a C type: one view per record family, each the whole 64
 * bytes, every byte a named field or a reserved one (zero).  Each view
 * starts with struct ncsync_rec_head; a view's field is at the offset of
 * its NCSYNC_REC_* constant above (checked at build time in
 * common/ncsync_encode.c).  Multi-byte fields are little-endian; every
 * field is naturally aligned, so the layout is the same on every ABI.  See
 * Documentation/ncsync/records.rst, "The record as a C type".
 */

/**
 * struct ncsync_rec_head - the header and the events block (lane 0) of
 *	every record, +0x00 - +0x0B.
 * @opcode: NCSYNC_OPC_*.
 * @wordlen: NCSYNC_RECORD_WORDLEN.
 * @reserved: zero.
 * @ev_wait_mode: NCSYNC_REC_EV_WAIT_MODE: NCSYNC_WAIT_*, or 0.
 * @ev_wait_idx: NCSYNC_REC_EV_WAIT_IDX: the semaphore or event tested.
 * @ev_upd_mode: NCSYNC_REC_EV_UPD_MODE: NCSYNC_UPD_*, or 0.
 * @ev_upd_idx: NCSYNC_REC_EV_UPD_IDX: the semaphore or event changed.
 * @ev_value: NCSYNC_REC_EV_VALUE: the wait's threshold and the update's
 *	operand, one field.
 */
struct ncsync_rec_head {
	__u8 opcode;
	__u8 wordlen;
	__u8 reserved[2];
	__u8 ev_wait_mode;
	__u8 ev_wait_idx;
	__u8 ev_upd_mode;
	__u8 ev_upd_idx;
	__le32 ev_value;
};

/**
 * struct ncsync_rec_evsem - EventSemaphore (0xA0): the extended block.
 * @head: the header and lane 0.
 * @reserved0: +0x0C - +0x1F, zero.
 * @ex_wait_mode: NCSYNC_REC_EX_WAIT_MODE: lane 1's wait mode.
 * @ex_wait_idx: NCSYNC_REC_EX_WAIT_IDX.
 * @ex_upd_mode: NCSYNC_REC_EX_UPD_MODE: lane 1's update mode.
 * @ex_upd_idx: NCSYNC_REC_EX_UPD_IDX.
 * @ex_wait_value: NCSYNC_REC_EX_WAIT_VALUE: lane 1's threshold.
 * @ex_upd_value: NCSYNC_REC_EX_UPD_VALUE: lane 1's operand.
 * @reserved1: +0x2C - +0x3F, zero.
 */
struct ncsync_rec_evsem {
	struct ncsync_rec_head head;
	__u8 reserved0[20];
	__u8 ex_wait_mode;
	__u8 ex_wait_idx;
	__u8 ex_upd_mode;
	__u8 ex_upd_idx;
	__le32 ex_wait_value;
	__le32 ex_upd_value;
	__u8 reserved1[20];
};

/**
 * struct ncsync_rec_drain - Drain (0xA2).
 * @head: the header and lane 0.
 * @reserved0: +0x0C - +0x27, zero.
 * @count: NCSYNC_REC_DRAIN_COUNT: 1.
 * @reserved1: +0x29 - +0x3F, zero.
 */
struct ncsync_rec_drain {
	struct ncsync_rec_head head;
	__u8 reserved0[28];
	__u8 count;
	__u8 reserved1[23];
};

/**
 * struct ncsync_rec_branch - Branch (0xA9).
 * @head: the header and lane 0.
 * @comp_op: NCSYNC_REC_BR_COMP_OP: NCSYNC_BR_*, + NCSYNC_BR_REG.
 * @dtype: NCSYNC_REC_BR_DTYPE: NCSYNC_DTYPE_*, or 0 with NCSYNC_BR_ALWAYS.
 * @operand_kind: NCSYNC_REC_BR_OPERAND_KIND: NCSYNC_BR_OPERANDS, or 0
 *	with NCSYNC_BR_ALWAYS.
 * @reserved0: +0x0F, zero.
 * @imm: NCSYNC_REC_BR_IMM: the immediate right-hand side.
 * @reserved1: +0x14 - +0x1F, zero.
 * @lhs_reg: NCSYNC_REC_BR_LHS_REG.
 * @rhs_reg: NCSYNC_REC_BR_RHS_REG.
 * @reserved2: +0x22 - +0x2F, zero.
 * @target: NCSYNC_REC_BR_TARGET: a record index in the same queue.
 * @reserved3: +0x38 - +0x3F, zero.
 */
struct ncsync_rec_branch {
	struct ncsync_rec_head head;
	__u8 comp_op;
	__u8 dtype;
	__u8 operand_kind;
	__u8 reserved0;
	__le32 imm;
	__u8 reserved1[12];
	__u8 lhs_reg;
	__u8 rhs_reg;
	__u8 reserved2[14];
	__le64 target;
	__u8 reserved3[8];
};

/**
 * struct ncsync_rec_br_hint - BranchHint (0xE1, model-defined).
 * @head: the header and lane 0.
 * @reserved0: +0x0C - +0x0F, zero.
 * @offset: NCSYNC_REC_HINT_OFFSET: the hinted target, in records, relative
 *	to the hint itself (signed; 0 is the hint), inside the same queue.
 * @reserved1: +0x14 - +0x3F, zero.
 */
struct ncsync_rec_br_hint {
	struct ncsync_rec_head head;
	__u8 reserved0[4];
	__le32 offset;
	__u8 reserved1[44];
};

/**
 * struct ncsync_rec_group_reset - GroupResetSemaphores (0xB0).
 * @head: the header and lane 0.
 * @clear_mode: NCSYNC_REC_GR_CLEAR_MODE: NCSYNC_CLEAR_*.
 * @first: NCSYNC_REC_GR_FIRST: the range's first semaphore.
 * @last: NCSYNC_REC_GR_LAST: its last, inclusive.
 * @reserved0: +0x0F - +0x1F, zero.
 * @mask: NCSYNC_REC_GR_MASK: semaphore i is bit i % 32 of @mask[i / 32].
 */
struct ncsync_rec_group_reset {
	struct ncsync_rec_head head;
	__u8 clear_mode;
	__u8 first;
	__u8 last;
	__u8 reserved0[17];
	__le32 mask[8];
};

/**
 * struct ncsync_rec_mov32 - Mov32 (0xA7).
 * @head: the header and lane 0.
 * @alu: NCSYNC_REC_MOV_ALU: NCSYNC_ALU_*.
 * @dst: NCSYNC_REC_MOV_DST: the destination register.
 * @src: NCSYNC_REC_MOV_SRC: the source register.
 * @reserved0: +0x0F, zero.
 * @imm: NCSYNC_REC_MOV_IMM: the immediate.
 * @reserved1: +0x14 - +0x3F, zero.
 */
struct ncsync_rec_mov32 {
	struct ncsync_rec_head head;
	__u8 alu;
	__u8 dst;
	__u8 src;
	__u8 reserved0;
	__le32 imm;
	__u8 reserved1[44];
};

/**
 * struct ncsync_rec_poll_sem - PollSem (0xB3).
 * @head: the header and lane 0.
 * @op: NCSYNC_REC_POLL_OP: NCSYNC_POLL_*.
 * @dst: NCSYNC_REC_POLL_DST: the destination register.
 * @first: NCSYNC_REC_POLL_FIRST: the first semaphore.
 * @count: NCSYNC_REC_POLL_COUNT: 1 .. NCSYNC_POLL_MAX_COUNT.
 * @writeback: NCSYNC_REC_POLL_WRITEBACK: NCSYNC_POLL_WB_*.
 * @reserved: +0x11 - +0x3F, zero.
 */
struct ncsync_rec_poll_sem {
	struct ncsync_rec_head head;
	__u8 op;
	__u8 dst;
	__u8 first;
	__u8 count;
	__u8 writeback;
	__u8 reserved[47];
};

/**
 * struct ncsync_rec_exit - Exit (0xDF).
 * @head: the header and lane 0.
 * @flags: NCSYNC_REC_EXIT_FLAGS: zero.
 * @reserved: +0x0D - +0x3F, zero.
 */
struct ncsync_rec_exit {
	struct ncsync_rec_head head;
	__u8 flags;
	__u8 reserved[51];
};

/**
 * struct ncsync_rec_dma - DMA (0xE0).
 * @head: the header and lane 0, whose update is the copy's completion.
 * @flags: NCSYNC_REC_DMA_FLAGS: 0, or NCSYNC_DMA_F_PEER.
 * @peer: NCSYNC_REC_DMA_PEER: with NCSYNC_DMA_F_PEER, the core of the
 *	issuer's logical core the completion update lands on, by its position
 *	there (0 .. lnc - 1); else zero.
 * @reserved0: +0x0E - +0x0F, zero.
 * @src: NCSYNC_REC_DMA_SRC: the source offset in device memory.
 * @dst: NCSYNC_REC_DMA_DST: the destination offset.
 * @len: NCSYNC_REC_DMA_LEN: bytes, at least 1.
 * @latency_us: NCSYNC_REC_DMA_LATENCY_US.
 * @reserved1: +0x28 - +0x3F, zero.
 */
struct ncsync_rec_dma {
	struct ncsync_rec_head head;
	__u8 flags;
	__u8 peer;
	__u8 reserved0[2];
	__le64 src;
	__le64 dst;
	__le32 len;
	__le32 latency_us;
	__u8 reserved1[24];
};

/**
 * struct ncsync_record - one 64-byte record, in the view of its family.
 * @bytes: the record as bytes.
 * @head: the header and the events block, any opcode (Halt and NoOp name
 *	nothing more).
 * @evsem: EventSemaphore.
 * @drain: Drain.
 * @br: Branch.
 * @hint: BranchHint.
 * @gr: GroupResetSemaphores.
 * @mov: Mov32.
 * @poll: PollSem.
 * @exit: Exit.
 * @dma: DMA.
 *
 * The union is anonymous (C11 and C++); __extension__ keeps a C99
 * -pedantic build of this header quiet.
 */
__extension__ struct ncsync_record {
	union {
		__u8 bytes[NCSYNC_RECORD_SIZE];
		struct ncsync_rec_head head;
		struct ncsync_rec_evsem evsem;
		struct ncsync_rec_drain drain;
		struct ncsync_rec_branch br;
		struct ncsync_rec_br_hint hint;
		struct ncsync_rec_group_reset gr;
		struct ncsync_rec_mov32 mov;
		struct ncsync_rec_poll_sem poll;
		struct ncsync_rec_exit exit;
		struct ncsync_rec_dma dma;
	};
};

/*
 * The size, checked wherever this header is compiled (the kernel, C89 and
 * later, C++): a bit-field of negative width does not compile.
 */
struct ncsync_record_size_check {
	unsigned int is_64 :
		sizeof(struct ncsync_record) == NCSYNC_RECORD_SIZE ? 1 : -1;
};

/*
 * Update modes (Documentation/ncsync/records.rst, "Update modes").  0x0X is
 * the _READ form, 0x1X the _COMPLETE form; EventSemaphore takes only
 * _COMPLETE forms.  NCSYNC_UPD_REG on add, subtract and write takes the
 * operand from the register named by the value.
 */
#define NCSYNC_UPD_NONE			0x00
#define NCSYNC_UPD_EVT_SET		0x01
#define NCSYNC_UPD_EVT_CLEAR		0x02
#define NCSYNC_UPD_SEM_INC		0x03
#define NCSYNC_UPD_SEM_DEC		0x04
#define NCSYNC_UPD_SEM_ADD		0x05
#define NCSYNC_UPD_SEM_SUB		0x07
#define NCSYNC_UPD_SEM_WRITE		0x09
#define NCSYNC_UPD_COMPLETE		0x10
#define NCSYNC_UPD_REG			0x80

/* Branch comparisons (ENC 3): +NCSYNC_BR_REG compares with a register */
#define NCSYNC_BR_ALWAYS		0
#define NCSYNC_BR_LT			1
#define NCSYNC_BR_LE			2
#define NCSYNC_BR_EQ			3
#define NCSYNC_BR_NE			4
#define NCSYNC_BR_GE			5
#define NCSYNC_BR_GT			6
#define NCSYNC_BR_REG			8
#define NCSYNC_BR_OPERANDS		3	/* operand kind with operands */
/* Branch dtypes (model-defined) */
#define NCSYNC_DTYPE_U32		1
#define NCSYNC_DTYPE_S32		2

/* GroupResetSemaphores ClearMode */
#define NCSYNC_CLEAR_RANGE		1
#define NCSYNC_CLEAR_MASK		2

/* Mov32 ALU operations (model-defined): dst = f(dst, src or imm) */
#define NCSYNC_ALU_MOV_IMM		0	/* dst = imm */
#define NCSYNC_ALU_MOV			1	/* dst = src */
#define NCSYNC_ALU_ADD_IMM		2	/* dst = src + imm */
#define NCSYNC_ALU_ADD			3	/* dst = dst + src */
#define NCSYNC_ALU_SUB_IMM		4	/* dst = src - imm */
#define NCSYNC_ALU_SUB			5	/* dst = dst - src */
#define NCSYNC_ALU_AND_IMM		6	/* dst = src & imm */
#define NCSYNC_ALU_OR_IMM		7	/* dst = src | imm */
#define NCSYNC_ALU_XOR_IMM		8	/* dst = src ^ imm */
#define NCSYNC_ALU_SHL_IMM		9	/* dst = src << (imm & 31) */
#define NCSYNC_ALU_SHR_IMM		10	/* dst = src >> (imm & 31) */
#define NCSYNC_ALU_LAST			NCSYNC_ALU_SHR_IMM

/* PollSem operations (model-defined) */
#define NCSYNC_POLL_MIN			0	/* dst = min of the semaphores */
#define NCSYNC_POLL_SUM			1	/* dst = sum, modulo 2^32 */
#define NCSYNC_POLL_MAX_COUNT		16
/* PollSem write-back (BARRIER §5; model-defined byte) */
#define NCSYNC_POLL_WB_NONE		0	/* the register only */
#define NCSYNC_POLL_WB_NONZERO		1	/* min != 0: into the range too */

/* Engines: BIR EngineType ordinals (SYNC) */
#define NCSYNC_ENGINE_POOL		1
#define NCSYNC_ENGINE_ACT		2
#define NCSYNC_ENGINE_PE		3
#define NCSYNC_ENGINE_DMA		4
#define NCSYNC_ENGINE_DVE		5
#define NCSYNC_ENGINE_SP		6
#define NCSYNC_ENGINE_MASK		0x6E	/* the datapath engines */
#define NCSYNC_NUM_ENGINES		5
#define NCSYNC_NUM_REGS			32	/* per engine, 32-bit */

/* Reasons a record is refused at submission (struct ncsync_submit.reason) */
enum ncsync_rec_reason {
	NCSYNC_REC_OK = 0,
	NCSYNC_REC_BAD_OPCODE,		/* not an opcode engines run */
	NCSYNC_REC_PSEUDO_OP,		/* 0xC0-0xDE: lower it first */
	NCSYNC_REC_BAD_WORDLEN,		/* byte 1 is not 0x10 */
	NCSYNC_REC_HEADER_RESERVED,	/* bytes 2-3 not zero */
	NCSYNC_REC_RESERVED_BYTE,	/* an unnamed byte is not zero */
	NCSYNC_REC_BAD_WAIT_MODE,
	NCSYNC_REC_BAD_UPDATE_MODE,
	NCSYNC_REC_UPDATE_NOT_COMPLETE,	/* EventSemaphore with a _READ form */
	NCSYNC_REC_UNUSED_FIELD,	/* index or value of an absent wait/update */
	NCSYNC_REC_BAD_REGISTER,	/* register number >= NCSYNC_NUM_REGS */
	NCSYNC_REC_BAD_COMP_OP,
	NCSYNC_REC_BAD_DTYPE,
	NCSYNC_REC_BAD_OPERAND_KIND,
	NCSYNC_REC_BAD_TARGET,		/* branch, hint target outside queue */
	NCSYNC_REC_BAD_CLEAR_MODE,
	NCSYNC_REC_BAD_RANGE,		/* first > last */
	NCSYNC_REC_BAD_DRAIN_COUNT,
	NCSYNC_REC_BAD_EXIT_FLAGS,
	NCSYNC_REC_BAD_ALU_OP,
	NCSYNC_REC_BAD_POLL,		/* op, count, range or write-back */
	/* DMA range outside device memory, length 0, latency above 1 s */
	NCSYNC_REC_BAD_DMA,
	NCSYNC_REC_BAD_DMA_UPDATE,	/* completion update not +1 or set */
	NCSYNC_REC_BAD_DMA_PEER,	/* flags, or a peer without an update */
	NCSYNC_REC_DMA_PEER_OUTSIDE,	/* peer beyond the logical core */
	/*
	 * Refused only with NCSYNC_SUBMIT_F_CONFORM: what the seeds' encoder
	 * or ISA checkers refuse (records.rst, "The conformance profile").
	 */
	NCSYNC_REC_CONF_EVSEM_WAIT,	/* EventSemaphore wait not GE (5, 85) */
	NCSYNC_REC_CONF_EVSEM_EMPTY,	/* EventSemaphore: no wait, no update */
	NCSYNC_REC_CONF_EVSEM_UPDATES,	/* EventSemaphore with two updates */
	NCSYNC_REC_CONF_GR_EMPTY,	/* GroupReset of no semaphore */
	NCSYNC_REC_CONF_GR_DUPLICATE,	/* a semaphore in two queues' groups */
	NCSYNC_REC_CONF_PSEUDO,		/* a malformed 0xD5 (the library) */
	/* Refused always; after the conformance reasons, whose numbers stay. */
	NCSYNC_REC_UNMODELLED_OP,	/* 0xB1: named, its effect not given */
	NCSYNC_REC_REASON_COUNT,
};

/* The first and the last reason only the conformance profile gives. */
#define NCSYNC_REC_CONF_FIRST		NCSYNC_REC_CONF_EVSEM_WAIT
#define NCSYNC_REC_CONF_LAST		NCSYNC_REC_CONF_PSEUDO

/**
 * struct ncsync_queue - the records of one engine in a submission.
 * @records: user pointer to @count records of NCSYNC_RECORD_SIZE bytes.
 * @count: 1 .. NCSYNC_MAX_RECORDS.
 * @engine: a datapath engine (NCSYNC_ENGINE_*, not DMA), once per program
 *	(with NCSYNC_SUBMIT_F_CORES: once per core).
 * @pad: zero; with NCSYNC_SUBMIT_F_CORES, @pad[0] is the position of the
 *	queue's core in the submitter's logical core (0 .. lnc - 1), the
 *	rest zero.
 */
struct ncsync_queue {
	__u64 records;
	__u32 count;
	__u8 engine;
	__u8 pad[3];
};

#define NCSYNC_MAX_RECORDS		0x100000U	/* 1 Mi */

/* struct ncsync_submit flags */
#define NCSYNC_SUBMIT_F_STRICT		0x1U	/* fault on event misuse, overflow */
#define NCSYNC_SUBMIT_F_CONFORM		0x2U	/* the conformance profile */
/* queues name (core, engine); the other cores' descriptors are in fds */
#define NCSYNC_SUBMIT_F_CORES		0x4U
#define NCSYNC_SUBMIT_F_ALL		(NCSYNC_SUBMIT_F_STRICT | \
					 NCSYNC_SUBMIT_F_CONFORM | \
					 NCSYNC_SUBMIT_F_CORES)

/**
 * struct ncsync_submit - NCSYNC_IOC_SUBMIT argument: one program.
 * @queues: user pointer to @nqueues struct ncsync_queue.
 * @nqueues: 1 .. NCSYNC_NUM_ENGINES.
 * @flags: NCSYNC_SUBMIT_F_*.
 * @watchdog_ms: the program faults as timed out after this long without
 *	progress; 0 takes the module's default (parameter watchdog_ms).
 * @id: out: the program's id, for the NCSYNC_IOC_PROG_* ioctls.
 * @bad_engine: out, on EINVAL for a record: the engine of the bad record.
 * @bad_index: out, likewise: its index in the queue.
 * @reason: out, likewise: an enum ncsync_rec_reason.
 * @reserved: zero.
 * @fds: user pointer to @nfds __s32 file descriptors, one per core of
 *	the logical core other than the submitter's own that the program
 *	runs on (NCSYNC_SUBMIT_F_CORES) or that a completion of its DMA
 *	records lands on (NCSYNC_DMA_F_PEER), each a descriptor of that
 *	core open for writing (Documentation/ncsync/security.rst, "Other
 *	cores"); zero when there is none.
 * @nfds: entries of @fds: 0 .. lnc - 1.
 * @bad_core: out, on EINVAL for a record: the position of its core in the
 *	logical core (0 without NCSYNC_SUBMIT_F_CORES).
 * @reserved2: zero.
 *
 * A program across cores (NCSYNC_SUBMIT_F_CORES) runs as one member
 * program per named core, started together; @nqueues is then
 * 1 .. lnc * NCSYNC_NUM_ENGINES, the submitter's core must name a queue,
 * and @id names the whole program (Documentation/ncsync/engines.rst,
 * "Programs across cores").  A binary built before @fds existed passes
 * the first 40 bytes (NCSYNC_IOC_SUBMIT_V1): the rest reads as zero.
 */
struct ncsync_submit {
	__u64 queues;
	__u32 nqueues;
	__u32 flags;
	__u32 watchdog_ms;
	__u32 id;
	__u32 bad_engine;
	__u32 bad_index;
	__u32 reason;
	__u32 reserved;
	__u64 fds;
	__u32 nfds;
	__u32 bad_core;
	__u32 reserved2[2];
};

/* Program states */
#define NCSYNC_PROG_QUEUED		0	/* waiting for its engines */
#define NCSYNC_PROG_RUNNING		1
#define NCSYNC_PROG_DONE		2
#define NCSYNC_PROG_HALTED		3
#define NCSYNC_PROG_FAULTED		4
#define NCSYNC_PROG_TIMED_OUT		5
#define NCSYNC_PROG_CANCELLED		6

/* Engine states within a program */
#define NCSYNC_ENG_QUEUED		0
#define NCSYNC_ENG_RUNNING		1
#define NCSYNC_ENG_BLOCKED		2	/* in a wait or a drain */
#define NCSYNC_ENG_DONE			3	/* Exit, or past the last record */
#define NCSYNC_ENG_HALTED		4
#define NCSYNC_ENG_FAULTED		5
#define NCSYNC_ENG_CANCELLED		6

/* Engine fault reasons */
#define NCSYNC_FAULT_NONE		0
#define NCSYNC_FAULT_EVENT_SET_WHILE_SET 1	/* strict mode */
#define NCSYNC_FAULT_EVENT_CLEAR_WHILE_CLEAR 2	/* strict mode */
#define NCSYNC_FAULT_SEM_OVERFLOW	3	/* strict mode */
#define NCSYNC_FAULT_WATCHDOG		4
#define NCSYNC_FAULT_CANCELLED		5
#define NCSYNC_FAULT_RESET		6
#define NCSYNC_FAULT_CLOSED		7
#define NCSYNC_FAULT_PEER		8	/* another engine faulted */
/* No longer produced: DMA copy slots are allocated at submission. */
#define NCSYNC_FAULT_NOMEM		9

/* What a blocked engine waits on (struct ncsync_engine_status.wait_kind) */
#define NCSYNC_BLOCK_NONE		0
#define NCSYNC_BLOCK_SEM		1
#define NCSYNC_BLOCK_EVENT		2
#define NCSYNC_BLOCK_DRAIN		3
/* A DMA record waits until one of its queue's dma_depth copies lands. */
#define NCSYNC_BLOCK_DMA_FULL		4

/**
 * struct ncsync_engine_status - one engine of a program.
 * @engine: NCSYNC_ENGINE_*.
 * @state: NCSYNC_ENG_*.
 * @fault: NCSYNC_FAULT_*.
 * @wait_kind: NCSYNC_BLOCK_* when @state is NCSYNC_ENG_BLOCKED.
 * @wait_mode: the wait mode (semaphore or event).
 * @wait_index: the semaphore or event index.
 * @wait_lane: 0 for the events block, 1 for the extended block.
 * @pad: zero.
 * @pc: index of the record being executed (or that halted, exited or
 *	faulted); the record count after running past the last record.
 * @wait_threshold: the threshold the wait compares with (register forms:
 *	the register's value).
 * @wait_current: the current value of the semaphore or event.
 * @dma_outstanding: copies this engine issued that have not landed.
 * @executed: records executed.
 */
struct ncsync_engine_status {
	__u8 engine;
	__u8 state;
	__u8 fault;
	__u8 wait_kind;
	__u8 wait_mode;
	__u8 wait_index;
	__u8 wait_lane;
	__u8 pad;
	__u32 pc;
	__s32 wait_threshold;
	__s32 wait_current;
	__u32 dma_outstanding;
	__u64 executed;
};

/**
 * struct ncsync_sem_value - a semaphore of a snapshot.
 * @index: its index.
 * @value: its value.
 */
struct ncsync_sem_value {
	__u32 index;
	__s32 value;
};

/* struct ncsync_prog_status flags */
#define NCSYNC_STATUS_F_RELEASE		0x1U	/* forget a finished program */
/* report the member of a program across cores at position core */
#define NCSYNC_STATUS_F_CORE		0x2U
#define NCSYNC_STATUS_F_ALL		(NCSYNC_STATUS_F_RELEASE | \
					 NCSYNC_STATUS_F_CORE)

/**
 * struct ncsync_prog_status - NCSYNC_IOC_PROG_STATUS: a program's state.
 * @id: the program.
 * @flags: NCSYNC_STATUS_F_*.
 * @sems: user pointer to NCSYNC_NUM_SEMS struct ncsync_sem_value, or 0;
 *	receives the non-zero semaphores (of the snapshot once finished).
 * @state: out: NCSYNC_PROG_*.
 * @nengines: out: entries of @engines used.
 * @nsems: out: entries written to @sems.
 * @core: with NCSYNC_STATUS_F_CORE, the position in the logical core of
 *	the core whose engines and semaphores are reported, one the program
 *	names; else zero, which reports the submitter's core.
 * @engines: out: the engines, in submission order.  For a finished program
 *	this is the snapshot taken when it ended.
 *
 * For a program across cores @state is the whole program's: running until
 * every core's member ended, then the state of the member whose fault,
 * timeout or cancellation stopped the others, or else the worst of theirs.
 */
struct ncsync_prog_status {
	__u32 id;
	__u32 flags;
	__u64 sems;
	__u32 state;
	__u32 nengines;
	__u32 nsems;
	__u32 core;
	struct ncsync_engine_status engines[NCSYNC_NUM_ENGINES];
};

/**
 * struct ncsync_prog_wait - NCSYNC_IOC_PROG_WAIT: wait for a program to end.
 * @id: the program.
 * @flags: NCSYNC_WAIT_F_NO_DEADLINE or 0.
 * @deadline: absolute CLOCK_MONOTONIC deadline.
 * @state: out: the final NCSYNC_PROG_* state.
 * @reserved: zero.
 */
struct ncsync_prog_wait {
	__u32 id;
	__u32 flags;
	struct ncsync_timespec deadline;
	__u32 state;
	__u32 reserved;
};

/**
 * struct ncsync_prog_cancel - NCSYNC_IOC_PROG_CANCEL argument.
 * @id: the program.
 * @flags: zero.
 */
struct ncsync_prog_cancel {
	__u32 id;
	__u32 flags;
};

#define NCSYNC_IOC_MAGIC		0xCE

/* ioctl numbers; errors of each are in Documentation/ncsync/uapi.rst */
#define NCSYNC_IOC_INFO		_IOR(NCSYNC_IOC_MAGIC, 0x00, struct ncsync_info)
#define NCSYNC_IOC_OP		_IOWR(NCSYNC_IOC_MAGIC, 0x01, struct ncsync_op)
#define NCSYNC_IOC_BATCH	_IOW(NCSYNC_IOC_MAGIC, 0x02, struct ncsync_batch)
#define NCSYNC_IOC_WAIT		_IOWR(NCSYNC_IOC_MAGIC, 0x03, struct ncsync_wait)
#define NCSYNC_IOC_RESET	_IOW(NCSYNC_IOC_MAGIC, 0x04, struct ncsync_reset)
#define NCSYNC_IOC_ACK		_IOR(NCSYNC_IOC_MAGIC, 0x05, struct ncsync_seq)
#define NCSYNC_IOC_STATS	_IOR(NCSYNC_IOC_MAGIC, 0x06, struct ncsync_stats)
#define NCSYNC_IOC_SUBMIT	_IOWR(NCSYNC_IOC_MAGIC, 0x10, struct ncsync_submit)
/* NCSYNC_IOC_SUBMIT of binaries built before ncsync_submit.fds (40 bytes) */
#define NCSYNC_IOC_SUBMIT_V1	_IOC(_IOC_READ | _IOC_WRITE, NCSYNC_IOC_MAGIC, \
				     0x10, 40)
#define NCSYNC_IOC_PROG_STATUS	_IOWR(NCSYNC_IOC_MAGIC, 0x11, struct ncsync_prog_status)
#define NCSYNC_IOC_PROG_WAIT	_IOWR(NCSYNC_IOC_MAGIC, 0x12, struct ncsync_prog_wait)
#define NCSYNC_IOC_PROG_CANCEL	_IOW(NCSYNC_IOC_MAGIC, 0x13, struct ncsync_prog_cancel)

/*
 * Generic netlink family "ncsync" (Documentation/ncsync/netlink.rst),
 * generated from its YNL spec by the kernel's tools/net/ynl/ynl-gen-c.py
 * --mode uapi: edit the spec and run tools/ynl-gen, which rewrites what
 * lies between the YNL-GEN markers (make check fails while they differ).
 * Attributes start at 1.  Notifications have command ids of their own and
 * go to the multicast group "notify".
 */
/* YNL-GEN uapi begin */
/* Do not edit directly, auto-generated from: */
/*	Documentation/netlink/ncsync.yaml */
/* YNL-GEN uapi header */

#define NCSYNC_GENL_NAME	"ncsync"
#define NCSYNC_GENL_VERSION	1

enum ncsync_genl_attr {
	NCSYNC_A_CORE = 1,
	NCSYNC_A_NOTIFY,
	NCSYNC_A_EVENT,
	NCSYNC_A_EVENT_STATE,
	NCSYNC_A_SEQ,
	NCSYNC_A_SEMS,
	NCSYNC_A_EVENTS,
	NCSYNC_A_DROPS,
	NCSYNC_A_PROG,
	NCSYNC_A_PROG_ID,
	NCSYNC_A_PROG_STATE,
	NCSYNC_A_PROG_PID,
	NCSYNC_A_ENGINE,
	NCSYNC_A_ENG_ID,
	NCSYNC_A_ENG_STATE,
	NCSYNC_A_ENG_FAULT,
	NCSYNC_A_ENG_PC,
	NCSYNC_A_ENG_WAIT_KIND,
	NCSYNC_A_ENG_WAIT_MODE,
	NCSYNC_A_ENG_WAIT_INDEX,
	NCSYNC_A_ENG_WAIT_THRESHOLD,
	NCSYNC_A_ENG_WAIT_CURRENT,
	NCSYNC_A_PAD,
	NCSYNC_A_TRUNCATED,
	NCSYNC_A_LNC,

	__NCSYNC_A_MAX,
	NCSYNC_A_MAX = (__NCSYNC_A_MAX - 1)
};

enum ncsync_genl_cmd {
	NCSYNC_CMD_GET_CORE = 1,
	NCSYNC_CMD_SET_NOTIFY,
	NCSYNC_CMD_EVENT_NTF,
	NCSYNC_CMD_PROG_NTF,
	NCSYNC_CMD_FAULT_NTF,
	NCSYNC_CMD_GET_PROGRAMS,

	__NCSYNC_CMD_MAX,
	NCSYNC_CMD_MAX = (__NCSYNC_CMD_MAX - 1)
};

#define NCSYNC_GENL_MCGRP_NOTIFY	"notify"
/* YNL-GEN uapi end */

#endif /* _UAPI_LINUX_NCSYNC_H */
