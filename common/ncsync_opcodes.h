/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The opcode table's rows (Documentation/ncsync/records.rst, "The opcode
 * table"): every opcode, once, as
 *
 *   NCSYNC_OP(OPC, has_mnemonic, mnemonic, title, nlanes, flags,
 *             FORM, EFFECT, LOWER,
 *             layout, decode, encode, conform, footprint)
 *
 * OPC names NCSYNC_OPC_OPC; has_mnemonic is 1 or 0; FORM, EFFECT and LOWER
 * name NCSYNC_FORM_*, NCSYNC_EFF_* and NCSYNC_LOWER_*; a hook may be NULL
 * (struct ncsync_opdesc, common/ncsync_optab.h, says what each column is).
 * No include guard, on purpose: a consumer defines NCSYNC_OP(), includes
 * this file, and undefines it (as the kernel's bpf_types.h), so that every
 * list of opcodes is derived from these rows.  Adding an opcode of an
 * existing form, effect and lowering is adding its row here and its tests
 * (records.rst, "How to add an opcode").
 */
NCSYNC_OP(EVENT_SEMAPHORE, 1, "evsem", "EventSemaphore", 2, 0,
	  SYNC, NONE, NONE,
	  ncsync_layout_evsem, NULL, NULL, ncsync_conform_evsem, NULL)
NCSYNC_OP(HALT, 1, "halt", "Halt", 1,
	  NCSYNC_OPF_EFFECT | NCSYNC_OPF_ENDS,
	  SYNC, HALT, NONE,
	  ncsync_layout_none, NULL, NULL, NULL, NULL)
NCSYNC_OP(DRAIN, 1, "drain", "Drain", 1,
	  NCSYNC_OPF_EFFECT | NCSYNC_OPF_DRAIN,
	  DRAIN, DRAIN, NONE,
	  ncsync_layout_drain, ncsync_decode_drain, ncsync_encode_drain,
	  NULL, NULL)
NCSYNC_OP(NOOP, 1, "nop", "NoOp", 1, 0,
	  SYNC, NONE, NONE,
	  ncsync_layout_none, NULL, NULL, NULL, NULL)
NCSYNC_OP(ENGINE_NOP, 1, "engine_nop", "EngineNop", 1, 0,
	  SYNC, NONE, NONE,
	  ncsync_layout_none, NULL, NULL, NULL, NULL)
NCSYNC_OP(MOV32, 0, NULL, "Mov32", 1, NCSYNC_OPF_EFFECT,
	  ALU, MOV, NONE,
	  ncsync_layout_mov, ncsync_decode_mov, ncsync_encode_mov,
	  NULL, ncsync_footprint_mov)
NCSYNC_OP(BRANCH, 1, "br", "Branch", 1,
	  NCSYNC_OPF_EFFECT | NCSYNC_OPF_FLOW,
	  BRANCH, BRANCH, NONE,
	  ncsync_layout_br, ncsync_decode_br, ncsync_encode_br,
	  NULL, ncsync_footprint_br)
NCSYNC_OP(BR_HINT, 1, "br_hint", "BranchHint", 1, 0,
	  BR_HINT, NONE, NONE,
	  ncsync_layout_hint, ncsync_decode_hint, ncsync_encode_hint,
	  NULL, NULL)
NCSYNC_OP(GROUP_RESET, 1, "sema_clear", "GroupResetSemaphores", 1,
	  NCSYNC_OPF_EFFECT | NCSYNC_OPF_SEM_WRITE,
	  SEMA_CLEAR, GROUP_RESET, NONE,
	  ncsync_layout_gr, ncsync_decode_gr, ncsync_encode_gr,
	  ncsync_conform_gr, ncsync_footprint_gr)
NCSYNC_OP(ORDERING, 0, NULL, "Ordering", 1, NCSYNC_OPF_UNMODELLED,
	  SYNC, NONE, NONE,
	  ncsync_layout_none, NULL, NULL, NULL, NULL)
NCSYNC_OP(POLL_SEM, 1, "poll", "PollSem", 1,
	  NCSYNC_OPF_EFFECT | NCSYNC_OPF_SEM_READ | NCSYNC_OPF_SEM_WRITE,
	  POLL, POLL, NONE,
	  ncsync_layout_poll, ncsync_decode_poll, ncsync_encode_poll,
	  NULL, ncsync_footprint_poll)
NCSYNC_OP(EXIT, 1, "exit", "Exit", 1,
	  NCSYNC_OPF_EFFECT | NCSYNC_OPF_ENDS,
	  SYNC, EXIT, NONE,
	  ncsync_layout_exit, ncsync_decode_exit, NULL, NULL, NULL)
NCSYNC_OP(DMA, 1, "dma", "DMA", 1,
	  NCSYNC_OPF_EFFECT | NCSYNC_OPF_DMA,
	  DMA, DMA, NONE,
	  ncsync_layout_dma, ncsync_decode_dma, ncsync_encode_dma,
	  NULL, NULL)
NCSYNC_OP(ALL_ENGINE_BARRIER, 1, "barrier", "AllEngineBarrier", 1,
	  NCSYNC_OPF_PSEUDO, BARRIER, NONE, ALL_ENGINES,
	  NULL, NULL, NULL, NULL, NULL)
NCSYNC_OP(DMA_BARRIER, 1, "dma_barrier", "DmaBarrier", 1,
	  NCSYNC_OPF_PSEUDO, PSEUDO, NONE, NOOP,
	  NULL, NULL, NULL, NULL, NULL)
NCSYNC_OP(TRIGGER_COLLECTIVE, 1, "trigger_collective", "TriggerCollective", 1,
	  NCSYNC_OPF_PSEUDO, PSEUDO, NONE, NOOP,
	  NULL, NULL, NULL, NULL, NULL)
NCSYNC_OP(TRIGGER_COLLECTIVE2, 1, "trigger_collective2",
	  "TriggerCollective2", 1,
	  NCSYNC_OPF_PSEUDO, PSEUDO, NONE, NOOP,
	  NULL, NULL, NULL, NULL, NULL)
NCSYNC_OP(TRIGGER_COLLECTIVE2_EXT, 1, "trigger_collective2_ext",
	  "TriggerCollective2Ext", 1,
	  NCSYNC_OPF_PSEUDO, PSEUDO, NONE, NOOP,
	  NULL, NULL, NULL, NULL, NULL)
NCSYNC_OP(RETURN, 1, "ret", "Return", 1,
	  NCSYNC_OPF_PSEUDO, PSEUDO, NONE, RETURN,
	  NULL, NULL, NULL, NULL, NULL)
NCSYNC_OP(CALL, 1, "call", "Call", 1,
	  NCSYNC_OPF_PSEUDO, CALL, NONE, CALL,
	  NULL, NULL, NULL, NULL, NULL)
NCSYNC_OP(CORE_BARRIER, 1, "core_barrier", "CoreBarrier", 1,
	  NCSYNC_OPF_PSEUDO, CORE_BARRIER, NONE, CORES,
	  NULL, NULL, NULL, NULL, NULL)
