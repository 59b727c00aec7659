/* SPDX-License-Identifier: LGPL-2.1-or-later OR MIT */
/*
 * libncsync: private structures of programs, streams, labels and the
 * allocators, and the functions the library's files share.  Not
 * installed.
 *
 * The files form layers, each calling only those below it
 * (tools/check-layers checks it; Documentation/ncsync/architecture.rst):
 *
 *   alloc.c, program.c     the program representation
 *   builders.c             hardware records appended to a stream
 *   barrier.c              the all-engine barrier's records, both forms
 *   lower_call.c,          lowering passes: Calls inlined; core
 *   core_barrier.c         barriers checked and rewritten
 *   lower_own.c            what the program may not write
 *   lower.c                the lowering pipeline (ncsync_program_lower())
 *   finalize.c             lowering, branch targets, validation
 *   pseudo.c               builders of pseudo-ops and barriers
 *   asm*.c, disasm.c,      the text form, submission and the rest
 *   submit.c, ...
 */
#ifndef NCSYNC_INTERNAL_H
#define NCSYNC_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "ncsync.h"
#include "ncsync_pseudo.h"
#include "ncsync_record.h"

/* Engine ids are below 8; the datapath ones are in NCSYNC_ENGINE_MASK. */
#define NCSYNC_MAX_ENGINE_ID		8

/*
 * Registers the barrier lowerings own (Documentation/ncsync/barriers.rst).
 * A program that uses barriers must not write them.
 */
#define NCSYNC_REG_BARRIER_COUNT	31	/* counter form: threshold */
#define NCSYNC_REG_BARRIER_PHASE	30	/* event form: pass phase */

/* Counter form: two counters per program, each serving one epoch ... */
#define NCSYNC_BARRIER_COUNTERS		2
/* ... of this many passes: 2 * 5 * 2^27 stays below 2^31. */
#define NCSYNC_BARRIER_EPOCH		(1U << 27)
/* Event form: one event per engine per phase. */
#define NCSYNC_BARRIER_PHASES		3

/* Default reserved slices: the module's default rt_reserved_* (16 each). */
#define NCSYNC_DEFAULT_RESERVED		16

/**
 * struct ncsync_src - where a record of a stream came from.
 * @line: the 1-based text line ncsync_asm() read it from, 0 for none.
 * @col: the 1-based column of its statement on @line, 0 for none.
 * @lowered: a builder emitted it on the lowering's behalf
 *	(ncsync_add_sync_barrier(), ncsync_add_core_barrier()): it may write
 *	what the lowering owns (Documentation/ncsync/barriers.rst, "What a
 *	program may not write").
 */
struct ncsync_src {
	uint32_t line;
	uint32_t col;
	bool lowered;
};

/**
 * struct ncsync_stream - the records of one engine.
 * @prog: the program it belongs to.
 * @engine: its engine (NCSYNC_ENGINE_*).
 * @fn: 0 for the engine's stream; 1 + the index in @prog->funcs for the
 *	body of a function (ncsync_program_add_function()).
 * @count: records in @recs.
 * @cap: records @recs has room for.
 * @recs: @count records of NCSYNC_RECORD_SIZE bytes.
 * @lines: where each record came from: its text line and column
 *	(ncsync_asm();
 *	lowered barriers keep the line of their 0xD5), 0 for none.
 */
struct ncsync_stream {
	struct ncsync_program *prog;
	uint8_t engine;
	uint32_t fn;
	uint32_t count;
	uint32_t cap;
	uint8_t *recs;
	struct ncsync_src *lines;
};

/**
 * struct ncsync_label - a branch target.
 * @bound: whether ncsync_label_bind() gave it a place.
 * @engine: the engine of the stream it is bound in.
 * @fn: the @fn of that stream: 0, or a function body.
 * @index: the record index it stands for in that stream.
 */
struct ncsync_label {
	bool bound;
	uint8_t engine;
	uint32_t fn;
	uint32_t index;
};

/**
 * struct ncsync_fixup - a branch record whose target is a label.
 * @engine: the engine of the stream holding the branch.
 * @fn: the @fn of that stream: 0, or a function body.
 * @index: the branch record's index in that stream.
 * @label: the label.
 */
struct ncsync_fixup {
	uint8_t engine;
	uint32_t fn;
	uint32_t index;
	int label;
};

/**
 * struct ncsync_bank_alloc - an allocator over one bank of 256 ids.
 * @len: for the first id of each allocated chunk, its length; else 0.
 * @used: whether each id is allocated (or not allocatable).
 */
struct ncsync_bank_alloc {
	uint16_t len[NCSYNC_NUM_SEMS];
	bool used[NCSYNC_NUM_SEMS];
};

/**
 * struct ncsync_func - a named subroutine of one engine, inlined at each
 *	Call (0xD3) of that engine by the lowering
 *	(Documentation/ncsync/barriers.rst, "Call and Return").
 * @name: its name, NUL-terminated, at most NCSYNC_CALL_NAME_LEN bytes.
 * @body: its records; @body.fn is 1 + its index in the program's funcs.
 */
struct ncsync_func {
	char name[NCSYNC_CALL_NAME_LEN + 1];
	struct ncsync_stream body;
};

/* The longest lowering error message, NUL included. */
#define NCSYNC_LOWER_MSG_MAX		256

/**
 * struct ncsync_program - a program: streams, labels and allocations.
 * @streams: the stream of each engine, or NULL.
 * @labels: @nlabels labels; the id of a label is its index.
 * @nlabels: labels in use.
 * @labels_cap: room in @labels.
 * @fixups: @nfixups pending branch targets.
 * @nfixups: fixups in use.
 * @fixups_cap: room in @fixups.
 * @sems: the user's semaphore allocator (ncsync_sem_alloc()).
 * @events: the user's event allocator (ncsync_event_alloc()).
 * @res_sem_first: first semaphore of the reserved slice.
 * @res_sem_count: semaphores in the reserved slice.
 * @res_event_first: first event of the reserved slice.
 * @res_event_count: events in the reserved slice.
 * @res_sems: semaphores of the reserved slice the lowerings took.
 * @res_events: events of the reserved slice the lowerings took.
 * @own_regs: the registers the lowerings took, bit r for register r:
 *	NCSYNC_REG_BARRIER_COUNT, NCSYNC_REG_BARRIER_PHASE.
 * @own_core_sems: the semaphores of the program's core barriers.
 *	With @res_sems and @res_events, what the program may not write
 *	(lower_own.c).
 * @ctr_used: a counter-form barrier was emitted or lowered.
 * @ctr_mask: the engines of the program when it was.
 * @ctr_sem: the first of the two counter semaphores, or -1.
 * @ctr_epoch: passes per counter epoch, NCSYNC_BARRIER_EPOCH (a test may
 *	make it shorter, at least 2, before adding barriers).
 * @ctr_prologue: the counter prologue was inserted.
 * @ev_used: an event-form barrier was lowered.
 * @ev_prologue: the event prologue and epilogues were inserted.
 * @conf_bad: the lowering met a malformed 0xD5 record (the conformance
 *	profile refuses the program: NCSYNC_REC_CONF_PSEUDO).
 * @conf_engine: the engine of the first one.
 * @conf_index: its index in that stream before the lowering (of the
 *	barriers: after Calls are inlined, lower_call.c).
 * @frozen: lowered or finalized: no more records may be added.
 * @finalized: ncsync_program_finalize() succeeded.
 * @bad_engine: the engine of the record the last finalization refused.
 * @bad_index: its index.
 * @bad_reason: its enum ncsync_rec_reason, or 0 (ncsync_program_error()).
 * @cur_src: where the records appended now come from (line 0: none).
 * @funcs: @nfuncs functions (ncsync_program_add_function()), dropped by
 *	the lowering once inlined.
 * @nfuncs: functions in @funcs.
 * @lower_msg: why the last lowering failed, or "" (ncsync_program_lower_error()).
 * @lower_line: the text line of the record it names, or 0
 *	(ncsync_program_lower_where()).
 * @lower_col: the column of that record's statement, or 0.
 * @lnc: the logical core size set by ncsync_program_set_lnc(), or 0.
 * @dev_lnc: when @lnc is 0, the lnc of the device a submission lowers
 *	the program for, or 0.
 * @core_lnc: the lnc the 0xD8 records were lowered for, 0 when none was.
 * @fence_sem: the semaphore of the fences' core barrier legs, allocated
 *	by the first (ncsync_add_lower_control_fence()), or -1.
 */
struct ncsync_program {
	struct ncsync_stream *streams[NCSYNC_MAX_ENGINE_ID];
	struct ncsync_label *labels;
	unsigned int nlabels;
	unsigned int labels_cap;
	struct ncsync_fixup *fixups;
	unsigned int nfixups;
	unsigned int fixups_cap;
	struct ncsync_bank_alloc sems;
	struct ncsync_bank_alloc events;
	unsigned int res_sem_first;
	unsigned int res_sem_count;
	unsigned int res_event_first;
	unsigned int res_event_count;
	bool res_sems[NCSYNC_NUM_SEMS];
	bool res_events[NCSYNC_NUM_EVENTS];
	uint32_t own_regs;
	bool own_core_sems[NCSYNC_NUM_SEMS];
	bool ctr_used;
	unsigned int ctr_mask;
	int ctr_sem;
	uint32_t ctr_epoch;
	bool ctr_prologue;
	bool ev_used;
	bool ev_prologue;
	bool conf_bad;
	uint8_t conf_engine;
	uint32_t conf_index;
	bool frozen;
	bool finalized;
	uint8_t bad_engine;
	uint32_t bad_index;
	uint32_t bad_reason;
	struct ncsync_src cur_src;
	struct ncsync_func **funcs;
	unsigned int nfuncs;
	char lower_msg[NCSYNC_LOWER_MSG_MAX];
	uint32_t lower_line;
	uint32_t lower_col;
	unsigned int lnc;
	unsigned int dev_lnc;
	unsigned int core_lnc;
	int fence_sem;
};

/* device.c */
int ncsync_ioctl(const struct ncsync_dev *dev, unsigned long cmd, void *arg);

/* program.c */
bool ncsync_engine_valid(unsigned int engine);
struct ncsync_func *ncsync_func_find(const struct ncsync_program *prog,
				     uint8_t engine, const char *name);
void ncsync_funcs_free(struct ncsync_program *prog);
int __attribute__((format(printf, 3, 4)))
ncsync_lower_fail(struct ncsync_program *prog, int ret, const char *fmt, ...);
unsigned int ncsync_engine_slot(uint8_t engine);
unsigned int ncsync_program_nstreams(const struct ncsync_program *prog);

/**
 * struct ncsync_mark - where a program's streams ended: what a builder
 *	that appends to several streams rewinds to when it fails.
 * @counts: records of each engine's stream.
 * @nfixups: pending branch targets.
 */
struct ncsync_mark {
	uint32_t counts[NCSYNC_MAX_ENGINE_ID];
	unsigned int nfixups;
};

void ncsync_program_mark(const struct ncsync_program *prog,
			 struct ncsync_mark *m);
void ncsync_program_rewind(struct ncsync_program *prog,
			   const struct ncsync_mark *m);
uint8_t *ncsync_stream_at(const struct ncsync_stream *s, uint32_t index);
bool ncsync_stream_decode(const struct ncsync_stream *s, uint32_t index,
			  struct ncsync_insn *in);
uint8_t *ncsync_stream_append(struct ncsync_stream *s);
int ncsync_stream_put(struct ncsync_stream *s, const uint8_t *rec);
int ncsync_fixup_add(struct ncsync_program *prog, uint8_t engine,
		     uint32_t fn, uint32_t index, int label);
bool ncsync_is_pseudo(uint8_t opcode);
unsigned int ncsync_lower_kind(uint8_t opcode);

/* builders.c */
void ncsync_insn_events(struct ncsync_insn *insn,
			const struct ncsync_events *ev);
void ncsync_rec_init(uint8_t *rec, uint8_t opcode,
		     const struct ncsync_events *ev);
void ncsync_put_u32(uint8_t *p, uint32_t v);
void ncsync_put_u64(uint8_t *p, uint64_t v);
uint32_t ncsync_get_u32(const uint8_t *p);
int ncsync_check_isolated(const uint8_t *rec);
int ncsync_add_insn(struct ncsync_stream *s, const struct ncsync_insn *insn);
int ncsync_add_branch_insn(struct ncsync_stream *s,
			   const struct ncsync_insn *insn, int label);
bool ncsync_events_zero(const struct ncsync_events *ev);
void ncsync_events_get(const uint8_t *rec, struct ncsync_events *ev);
void ncsync_events_split(const struct ncsync_events *ev,
			 struct ncsync_events *wait,
			 struct ncsync_events *upd);

/* alloc.c */
void ncsync_alloc_init(struct ncsync_program *prog);
int ncsync_res_sem_take(struct ncsync_program *prog, unsigned int idx);
int ncsync_res_event_take(struct ncsync_program *prog, unsigned int idx);
void ncsync_alloc_sem_mask(const struct ncsync_program *prog,
			   uint32_t mask[8]);
bool ncsync_res_sem_in(const struct ncsync_program *prog, uint8_t sem);

/* analysis.c */
bool ncsync_dl_insn_can_post(const struct ncsync_insn *in,
			     const struct ncsync_wait_op *w, bool local,
			     bool land);

/* barrier.c */
int ncsync_ctr_take(struct ncsync_program *prog, unsigned int mask);
int ncsync_emit_ctr_pass(struct ncsync_stream *s,
			 const struct ncsync_program *prog);
int ncsync_emit_ctr_prologue(struct ncsync_stream *s,
			     const struct ncsync_program *prog);
int ncsync_ev_take(struct ncsync_program *prog, unsigned int mask);
int ncsync_emit_ev_pass(struct ncsync_stream *s, unsigned int mask);
int ncsync_emit_ev_prologue(struct ncsync_stream *s);
int ncsync_emit_ev_epilogue(struct ncsync_stream *s, unsigned int mask);
int ncsync_barrier_block_emit(struct ncsync_stream *t, const uint8_t *rec,
			      bool before);

/* lower.c */
int ncsync_lower_pending(const struct ncsync_program *prog);

/* lower_own.c */
int ncsync_lower_own_check(struct ncsync_program *prog);

/* core_barrier.c */
void ncsync_core_sems_take(struct ncsync_program *prog);
unsigned int ncsync_lower_lnc(const struct ncsync_program *prog);
int ncsync_core_arrive(struct ncsync_stream *s, uint8_t sem,
		       unsigned int lnc);
int ncsync_core_barriers_plan(struct ncsync_program *prog);
int ncsync_core_barrier_lower(struct ncsync_stream *t, const uint8_t *rec,
			      unsigned int lnc, unsigned int mask);

/* pseudo.c */
int ncsync_put_pseudo(struct ncsync_stream *s, uint8_t opcode,
		      const struct ncsync_events *ev);
int ncsync_put_core_barrier(struct ncsync_stream *s, uint8_t sem, uint32_t id,
			    const struct ncsync_events *ev);

/**
 * struct ncsync_call_undo - the program as it was before the lowering of
 *	Calls, Returns and DMA barriers (lower_call.c), to put back when the
 *	rest of the lowering fails.
 * @done: the streams were rewritten; the rest is valid.
 * @recs: each stream's records before.
 * @lines: their lines.
 * @count: their number.
 * @cap: the room of @recs.
 * @labels: a copy of the labels before.
 * @nlabels: their number.
 * @fixups: a copy of the fixups before.
 * @nfixups: their number.
 */
struct ncsync_call_undo {
	bool done;
	uint8_t *recs[NCSYNC_MAX_ENGINE_ID];
	struct ncsync_src *lines[NCSYNC_MAX_ENGINE_ID];
	uint32_t count[NCSYNC_MAX_ENGINE_ID];
	uint32_t cap[NCSYNC_MAX_ENGINE_ID];
	struct ncsync_label *labels;
	unsigned int nlabels;
	struct ncsync_fixup *fixups;
	unsigned int nfixups;
};

/* lower_call.c */
int ncsync_lower_calls(struct ncsync_program *prog,
		       struct ncsync_call_undo *undo);
void ncsync_lower_calls_end(struct ncsync_program *prog,
			    struct ncsync_call_undo *undo, int ret);

#endif /* NCSYNC_INTERNAL_H */
