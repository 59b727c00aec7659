/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ncsync tracepoints: record execution, engine waits, DMA copies (issued
 * and landed) and wake-ups.
 * Enable with perf (-e 'ncsync:*') or trace-cmd (-e ncsync).
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM ncsync

#if !defined(_NCSYNC_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _NCSYNC_TRACE_H

#include <linux/tracepoint.h>

TRACE_EVENT(ncsync_exec,
	TP_PROTO(u32 core, u8 engine, u32 prog_id, u32 pc, u8 opcode),
	TP_ARGS(core, engine, prog_id, pc, opcode),
	TP_STRUCT__entry(
		__field(u32, core)
		__field(u8, engine)
		__field(u8, opcode)
		__field(u32, prog)
		__field(u32, pc)
	),
	TP_fast_assign(
		__entry->core = core;
		__entry->engine = engine;
		__entry->opcode = opcode;
		__entry->prog = prog_id;
		__entry->pc = pc;
	),
	TP_printk("core=%u engine=%u prog=%u pc=%u op=0x%02x",
		  __entry->core, __entry->engine, __entry->prog, __entry->pc,
		  __entry->opcode)
);

TRACE_EVENT(ncsync_wait_begin,
	TP_PROTO(u32 core, u8 engine, u32 prog_id, u32 pc, u8 kind, u8 mode,
		 u8 index, s32 threshold, s32 current_value),
	TP_ARGS(core, engine, prog_id, pc, kind, mode, index, threshold,
		current_value),
	TP_STRUCT__entry(
		__field(u32, core)
		__field(u8, engine)
		__field(u8, kind)
		__field(u8, mode)
		__field(u8, index)
		__field(u32, prog)
		__field(u32, pc)
		__field(s32, threshold)
		__field(s32, current_value)
	),
	TP_fast_assign(
		__entry->core = core;
		__entry->engine = engine;
		__entry->kind = kind;
		__entry->mode = mode;
		__entry->index = index;
		__entry->prog = prog_id;
		__entry->pc = pc;
		__entry->threshold = threshold;
		__entry->current_value = current_value;
	),
	TP_printk("core=%u engine=%u prog=%u pc=%u kind=%u mode=0x%02x index=%u threshold=%d current=%d",
		  __entry->core, __entry->engine, __entry->prog, __entry->pc,
		  __entry->kind, __entry->mode, __entry->index,
		  __entry->threshold, __entry->current_value)
);

TRACE_EVENT(ncsync_wait_end,
	TP_PROTO(u32 core, u8 engine, u32 prog_id, u32 pc, bool passed),
	TP_ARGS(core, engine, prog_id, pc, passed),
	TP_STRUCT__entry(
		__field(u32, core)
		__field(u8, engine)
		__field(bool, passed)
		__field(u32, prog)
		__field(u32, pc)
	),
	TP_fast_assign(
		__entry->core = core;
		__entry->engine = engine;
		__entry->passed = passed;
		__entry->prog = prog_id;
		__entry->pc = pc;
	),
	TP_printk("core=%u engine=%u prog=%u pc=%u passed=%d",
		  __entry->core, __entry->engine, __entry->prog, __entry->pc,
		  __entry->passed)
);

TRACE_EVENT(ncsync_dma_issue,
	TP_PROTO(u32 core, u8 engine, u32 prog_id, u32 pc, u32 copy, u32 len,
		 u32 latency_us, u32 to, bool upd, u8 bank, u8 index),
	TP_ARGS(core, engine, prog_id, pc, copy, len, latency_us, to, upd,
		bank, index),
	TP_STRUCT__entry(
		__field(u32, core)
		__field(u8, engine)
		__field(bool, upd)
		__field(u8, bank)
		__field(u8, index)
		__field(u32, prog)
		__field(u32, pc)
		__field(u32, copy)
		__field(u32, len)
		__field(u32, latency_us)
		__field(u32, to)
	),
	TP_fast_assign(
		__entry->core = core;
		__entry->engine = engine;
		__entry->upd = upd;
		__entry->bank = bank;
		__entry->index = index;
		__entry->prog = prog_id;
		__entry->pc = pc;
		__entry->copy = copy;
		__entry->len = len;
		__entry->latency_us = latency_us;
		__entry->to = to;
	),
	TP_printk("core=%u engine=%u prog=%u pc=%u copy=%u len=%u latency=%u to=%u upd=%d bank=%u index=%u",
		  __entry->core, __entry->engine, __entry->prog, __entry->pc,
		  __entry->copy, __entry->len, __entry->latency_us,
		  __entry->to, __entry->upd, __entry->bank, __entry->index)
);

TRACE_EVENT(ncsync_dma_land,
	TP_PROTO(u32 core, u8 engine, u32 prog_id, u32 copy, u32 to,
		 bool landed, bool updated),
	TP_ARGS(core, engine, prog_id, copy, to, landed, updated),
	TP_STRUCT__entry(
		__field(u32, core)
		__field(u8, engine)
		__field(bool, landed)
		__field(bool, updated)
		__field(u32, prog)
		__field(u32, copy)
		__field(u32, to)
	),
	TP_fast_assign(
		__entry->core = core;
		__entry->engine = engine;
		__entry->landed = landed;
		__entry->updated = updated;
		__entry->prog = prog_id;
		__entry->copy = copy;
		__entry->to = to;
	),
	TP_printk("core=%u engine=%u prog=%u copy=%u to=%u landed=%d updated=%d",
		  __entry->core, __entry->engine, __entry->prog,
		  __entry->copy, __entry->to, __entry->landed,
		  __entry->updated)
);

TRACE_EVENT(ncsync_wake,
	TP_PROTO(u32 core, u64 seq),
	TP_ARGS(core, seq),
	TP_STRUCT__entry(
		__field(u32, core)
		__field(u64, seq)
	),
	TP_fast_assign(
		__entry->core = core;
		__entry->seq = seq;
	),
	TP_printk("core=%u seq=%llu", __entry->core, __entry->seq)
);

#endif /* _NCSYNC_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE ncsync_trace
#include <trace/define_trace.h>
