// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * libncsync: barriers, and the lowering of the AllEngineBarrier pseudo-op
 * (0xD5) into hardware records (Documentation/ncsync/barriers.rst, which
 * gives the records, the proofs and the limits; SYNC "The per-engine
 * wait/update", BARRIER 4-5, 8).
 *
 * A barrier involves every stream of the program: N engines.  Both
 * lowerings lead with a Drain whose update is the arrival, stay correct
 * when a barrier runs again and again in a loop, and work across programs
 * that follow each other on a core without a reset.
 *
 * Counter form (NCSYNC_LOWER_COUNTER, the default; also
 * ncsync_add_sync_barrier()): every arrival is a +1 (0x13) on a counter,
 * every release a wait counter >= r31 (0x85), r31 growing by N a pass.
 * Two counters C0, C1 (reserved slice, keyed by the lowest engine) serve
 * alternate epochs of NCSYNC_BARRIER_EPOCH passes; an engine re-arms the
 * other counter right after passing an epoch's first pass, when nobody
 * can be waiting on it or arriving at it, so the counters stay in
 * [0, 2 * N * epoch] for any number of passes.  A start rendezvous sets
 * the counter at program start: the lowest engine writes C0 = 1 - N, the
 * others wait for C0 < 0 (a value no pass leaves) before adding 1, and all
 * wait for C0 >= 0; what a cancelled program left cannot release a
 * barrier early.
 *
 * Event form (NCSYNC_LOWER_EVENTS): one event bit per engine per pass
 * phase (pass mod 3), set by its owner, waited on by the peers and
 * cleared by the owner after the next pass; r30 holds the phase.
 *
 * The events block of a 0xD5 record is split: its wait on a NoOp before
 * the arrival, its update on a NoOp after the rendezvous.  Calls, Returns
 * and DMA barriers are lowered first (lower_call.c); core barriers (0xD8)
 * with the 0xD5s, always in the counter form (core_barrier.c); other
 * pseudo-ops fail with -EOPNOTSUPP, the message of
 * ncsync_program_lower_error() naming the opcode.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

bool ncsync_events_zero(const struct ncsync_events *ev)
{
	return !ev || (!ev->wait_mode && !ev->wait_idx && !ev->upd_mode &&
		       !ev->upd_idx && !ev->value);
}

void ncsync_events_get(const uint8_t *rec, struct ncsync_events *ev)
{
	ev->wait_mode = rec[NCSYNC_REC_EV_WAIT_MODE];
	ev->wait_idx = rec[NCSYNC_REC_EV_WAIT_IDX];
	ev->upd_mode = rec[NCSYNC_REC_EV_UPD_MODE];
	ev->upd_idx = rec[NCSYNC_REC_EV_UPD_IDX];
	ev->value = ncsync_get_u32(rec + NCSYNC_REC_EV_VALUE);
}

/* Check that @ev is a valid events block (on a NoOp). */
static int ncsync_events_check(const struct ncsync_events *ev)
{
	uint8_t rec[NCSYNC_RECORD_SIZE];

	ncsync_rec_init(rec, NCSYNC_OPC_NOOP, ev);
	return ncsync_check_isolated(rec);
}

static int ncsync_new_labels(struct ncsync_program *prog, int *labels,
			     unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		labels[i] = ncsync_label_new(prog);
		if (labels[i] < 0)
			return labels[i];
	}
	return 0;
}

static unsigned int ncsync_lowest_engine(unsigned int mask)
{
	return __builtin_ctz(mask);
}

/* Take the two counters of the program (idempotent). */
static int ncsync_ctr_take(struct ncsync_program *prog, unsigned int mask)
{
	unsigned int c0;
	int ret;

	if (prog->ctr_sem >= 0)
		return prog->ctr_sem;
	c0 = prog->res_sem_first + NCSYNC_BARRIER_COUNTERS *
		ncsync_engine_slot(ncsync_lowest_engine(mask));
	/* Check first: nothing is taken when the slice is too small. */
	if (c0 + NCSYNC_BARRIER_COUNTERS >
	    prog->res_sem_first + prog->res_sem_count ||
	    c0 + NCSYNC_BARRIER_COUNTERS > NCSYNC_NUM_SEMS)
		return ncsync_lower_fail(prog, -ENOSPC,
					 "the barrier needs sem[%u..%u], outside the reserved semaphores %u-%u (ncsync_program_set_reserved())",
					 c0, c0 + NCSYNC_BARRIER_COUNTERS - 1,
					 prog->res_sem_first,
					 prog->res_sem_first +
					 prog->res_sem_count - 1);
	ret = ncsync_res_sem_take(prog, c0);
	if (ret >= 0)
		ret = ncsync_res_sem_take(prog, c0 + 1);
	if (ret < 0)
		return ret;
	prog->ctr_sem = (int)c0;
	return prog->ctr_sem;
}

/*
 * One counter's leg of a pass on @s: arrive on @sem (+1 on a Drain), wait
 * until @sem >= r31, and at the first pass of the epoch (r31 == @first)
 * re-arm the other counter @other to @base; then go to @out.
 */
static int ncsync_emit_ctr_leg(struct ncsync_stream *s, uint8_t sem,
			       uint8_t other, uint32_t first, uint32_t base,
			       int out)
{
	struct ncsync_events arrive = {
		.upd_mode = NCSYNC_UPD_COMPLETE | NCSYNC_UPD_SEM_INC,
		.upd_idx = sem,
	};
	int ret;

	ret = ncsync_add_drain(s, &arrive);
	if (ret >= 0)
		ret = ncsync_add_semaphore_wait_reg(s, sem, NCSYNC_WAIT_SEM_GE,
						    NCSYNC_REG_BARRIER_COUNT);
	if (ret >= 0)
		ret = ncsync_add_branch_imm(s, NCSYNC_BR_NE, NCSYNC_DTYPE_U32,
					    NCSYNC_REG_BARRIER_COUNT, first,
					    out, NULL);
	if (ret >= 0)
		ret = ncsync_add_semaphore_set(s, other, base);
	return ret < 0 ? ret : 0;
}

/*
 * One counter-form pass on @s (Documentation/ncsync/barriers.rst): r31
 * holds this pass's threshold; C0 serves the first epoch of a cycle, C1
 * the second.  Return the index of the first record.
 */
int ncsync_emit_ctr_pass(struct ncsync_stream *s,
			 const struct ncsync_program *prog)
{
	uint32_t n = __builtin_popcount(prog->ctr_mask);
	uint32_t e = n * prog->ctr_epoch;
	uint8_t c0 = (uint8_t)prog->ctr_sem, c1 = c0 + 1;
	int first = (int)s->count, labels[3], ret;

	ret = ncsync_new_labels(s->prog, labels, 3);
	if (ret >= 0)
		ret = ncsync_add_branch_imm(s, NCSYNC_BR_GT, NCSYNC_DTYPE_U32,
					    NCSYNC_REG_BARRIER_COUNT, e,
					    labels[0], NULL);
	if (ret >= 0)
		ret = ncsync_emit_ctr_leg(s, c0, c1, n, e, labels[2]);
	if (ret >= 0)
		ret = ncsync_add_branch(s, labels[2], NULL);
	if (ret >= 0)
		ret = ncsync_label_bind(s, labels[0]);
	if (ret >= 0)
		ret = ncsync_emit_ctr_leg(s, c1, c0, e + n, 0, labels[1]);
	if (ret >= 0)
		ret = ncsync_label_bind(s, labels[1]);
	if (ret >= 0)
		ret = ncsync_add_branch_imm(s, NCSYNC_BR_NE, NCSYNC_DTYPE_U32,
					    NCSYNC_REG_BARRIER_COUNT, 2 * e,
					    labels[2], NULL);
	if (ret >= 0)
		ret = ncsync_add_mov32_imm(s, NCSYNC_REG_BARRIER_COUNT, 0,
					   NULL);
	if (ret >= 0)
		ret = ncsync_label_bind(s, labels[2]);
	if (ret >= 0)
		ret = ncsync_add_mov32(s, NCSYNC_ALU_ADD_IMM,
				       NCSYNC_REG_BARRIER_COUNT,
				       NCSYNC_REG_BARRIER_COUNT, n, NULL);
	return ret < 0 ? ret : first;
}

/*
 * The start rendezvous: the program's lowest engine writes C0 = 1 - N (its
 * own arrival included); every other engine waits until C0 is negative
 * and adds 1 in the same atomic step; all wait for C0 >= 0; r31 = N.
 */
static int ncsync_emit_ctr_prologue(struct ncsync_stream *s,
				    const struct ncsync_program *prog)
{
	uint32_t n = __builtin_popcount(prog->ctr_mask);
	uint8_t c0 = (uint8_t)prog->ctr_sem;
	int ret;

	if (s->engine == ncsync_lowest_engine(prog->ctr_mask)) {
		ret = ncsync_add_semaphore_set(s, c0, 1 - n);
	} else {
		struct ncsync_events ev = {
			.wait_mode = NCSYNC_WAIT_SEM_LT, .wait_idx = c0,
			.upd_mode = NCSYNC_UPD_COMPLETE | NCSYNC_UPD_SEM_INC,
			.upd_idx = c0,
		};

		ret = ncsync_add_nop(s, &ev);
	}
	if (ret >= 0)
		ret = ncsync_add_semaphore_wait_ge(s, c0, 0);
	if (ret >= 0)
		ret = ncsync_add_mov32_imm(s, NCSYNC_REG_BARRIER_COUNT, n,
					   NULL);
	return ret < 0 ? ret : 0;
}

static unsigned int ncsync_ev_bit(const struct ncsync_program *prog,
				  uint8_t engine, unsigned int phase)
{
	return prog->res_event_first +
	       NCSYNC_BARRIER_PHASES * ncsync_engine_slot(engine) + phase;
}

static int ncsync_ev_take(struct ncsync_program *prog, unsigned int mask)
{
	unsigned int e, p;
	int ret;

	/* Check first: nothing is taken when the slice is too small. */
	for (e = 0; e < NCSYNC_MAX_ENGINE_ID; e++) {
		if (!(mask & (1U << e)))
			continue;
		if (ncsync_ev_bit(prog, e, NCSYNC_BARRIER_PHASES - 1) >=
		    prog->res_event_first + prog->res_event_count)
			return ncsync_lower_fail(prog, -ENOSPC,
						 "the %s barrier events ev[%u..%u] fall outside the reserved events %u-%u (ncsync_program_set_reserved())",
						 ncsync_engine_name(e),
						 ncsync_ev_bit(prog, e, 0),
						 ncsync_ev_bit(prog, e, NCSYNC_BARRIER_PHASES - 1),
						 prog->res_event_first,
						 prog->res_event_first +
						 prog->res_event_count - 1);
	}
	for (e = 0; e < NCSYNC_MAX_ENGINE_ID; e++) {
		if (!(mask & (1U << e)))
			continue;
		for (p = 0; p < NCSYNC_BARRIER_PHASES; p++) {
			ret = ncsync_res_event_take(prog,
						    ncsync_ev_bit(prog, e, p));
			if (ret < 0)
				return ret;
		}
	}
	return 0;
}

/*
 * EventSemaphores waiting on @wait_phase bits of every peer of @s with
 * @wait_mode, two waits per record; the last one then clears bit(e,
 * @clear_phase).
 */
static int ncsync_emit_ev_waits(struct ncsync_stream *s, unsigned int mask,
				uint8_t wait_mode, unsigned int wait_phase,
				unsigned int clear_phase)
{
	struct ncsync_program *prog = s->prog;
	uint8_t peers[NCSYNC_MAX_ENGINE_ID];
	unsigned int n = 0, i, e;
	int ret = 0;

	for (e = 0; e < NCSYNC_MAX_ENGINE_ID; e++)
		if ((mask & (1U << e)) && e != s->engine)
			peers[n++] = e;
	for (i = 0; i < n || i == 0; i += 2) {
		struct ncsync_events ev0 = { 0 }, *ev = NULL;
		bool last = i + 2 >= n;
		uint8_t m1 = 0, w1 = 0, um = 0, ui = 0;

		if (i < n) {
			ev0.wait_mode = wait_mode;
			ev0.wait_idx = ncsync_ev_bit(prog, peers[i],
						     wait_phase);
			ev = &ev0;
		}
		if (i + 1 < n) {
			m1 = wait_mode;
			w1 = ncsync_ev_bit(prog, peers[i + 1], wait_phase);
		}
		if (last) {
			um = NCSYNC_UPD_COMPLETE | NCSYNC_UPD_EVT_CLEAR;
			ui = ncsync_ev_bit(prog, s->engine, clear_phase);
		}
		ret = ncsync_add_evsem(s, ev, m1, w1, 0, um, ui, 0);
		if (ret < 0)
			return ret;
	}
	return ret;
}

/* Branch to one of three labels on the phase register. */
static int ncsync_emit_phase_switch(struct ncsync_stream *s,
				    const int *labels)
{
	unsigned int p;
	int ret;

	for (p = 1; p < NCSYNC_BARRIER_PHASES; p++) {
		ret = ncsync_add_branch_imm(s, NCSYNC_BR_EQ, NCSYNC_DTYPE_U32,
					    NCSYNC_REG_BARRIER_PHASE, p,
					    labels[p], NULL);
		if (ret < 0)
			return ret;
	}
	return 0;
}

typedef int (*ncsync_phase_fn)(struct ncsync_stream *s, unsigned int mask,
			       unsigned int p);

/*
 * The phase switch, then one block per phase made by @fn, each but the
 * last followed by a branch to the end.
 */
static int ncsync_emit_phase_blocks(struct ncsync_stream *s, unsigned int mask,
				    ncsync_phase_fn fn)
{
	int labels[NCSYNC_BARRIER_PHASES + 1], ret;
	int end = NCSYNC_BARRIER_PHASES;
	unsigned int p;

	ret = ncsync_new_labels(s->prog, labels, NCSYNC_BARRIER_PHASES + 1);
	if (ret < 0)
		return ret;
	ret = ncsync_emit_phase_switch(s, labels);
	for (p = 0; ret >= 0 && p < NCSYNC_BARRIER_PHASES; p++) {
		if (p)
			ret = ncsync_label_bind(s, labels[p]);
		if (ret >= 0)
			ret = fn(s, mask, p);
		if (ret >= 0 && p + 1 < NCSYNC_BARRIER_PHASES)
			ret = ncsync_add_branch(s, labels[end], NULL);
	}
	if (ret >= 0)
		ret = ncsync_label_bind(s, labels[end]);
	return ret < 0 ? ret : 0;
}

/* Phase @p of an event-form pass: arrive, wait for the peers, next phase. */
static int ncsync_emit_ev_phase(struct ncsync_stream *s, unsigned int mask,
				unsigned int p)
{
	struct ncsync_events arrive = {
		.upd_mode = NCSYNC_UPD_COMPLETE | NCSYNC_UPD_EVT_SET,
		.upd_idx = ncsync_ev_bit(s->prog, s->engine, p),
	};
	unsigned int prev = (p + NCSYNC_BARRIER_PHASES - 1) %
			    NCSYNC_BARRIER_PHASES;
	int ret;

	ret = ncsync_add_drain(s, &arrive);
	if (ret >= 0)
		ret = ncsync_emit_ev_waits(s, mask, NCSYNC_WAIT_EVT_SET, p,
					   prev);
	if (ret >= 0)
		ret = ncsync_add_mov32_imm(s, NCSYNC_REG_BARRIER_PHASE,
					   (p + 1) % NCSYNC_BARRIER_PHASES,
					   NULL);
	return ret;
}

/* One event-form pass: the phase switch and three blocks. */
static int ncsync_emit_ev_pass(struct ncsync_stream *s, unsigned int mask)
{
	return ncsync_emit_phase_blocks(s, mask, ncsync_emit_ev_phase);
}

static int ncsync_emit_ev_prologue(struct ncsync_stream *s)
{
	unsigned int bit = ncsync_ev_bit(s->prog, s->engine,
					 NCSYNC_BARRIER_PHASES - 1);

	return ncsync_add_event_set(s, bit);
}

/*
 * Phase @n of the epilogue: with n the phase of the next pass, the last
 * pass had phase n - 1; wait until every peer cleared its bit of phase
 * n - 2 (it does so right after passing the last pass), then clear
 * bit(e, n - 1).
 */
static int ncsync_emit_ev_final(struct ncsync_stream *s, unsigned int mask,
				unsigned int n)
{
	return ncsync_emit_ev_waits(s, mask, NCSYNC_WAIT_EVT_CLEAR,
				    (n + 1) % NCSYNC_BARRIER_PHASES,
				    (n + 2) % NCSYNC_BARRIER_PHASES);
}

static int ncsync_emit_ev_epilogue(struct ncsync_stream *s, unsigned int mask)
{
	return ncsync_emit_phase_blocks(s, mask, ncsync_emit_ev_final);
}

/**
 * struct ncsync_lowering - one run of ncsync_program_lower().
 * @how: the form of the 0xD5 records.
 * @mask: the engines of the program.
 * @pseudo: the program holds 0xD5 records.
 * @core: the program holds 0xD8 records.
 * @lnc: the logical core size they are lowered for.
 * @ctr_prologue: insert the counter prologue.
 * @ev_prologue: insert the event prologue and epilogues.
 * @tmp: the rewritten streams.
 * @map: for each stream, the new index of every old record, and of the end.
 * @undo: what the lowering of Calls changed, undone when the rest fails.
 */
struct ncsync_lowering {
	enum ncsync_barrier_lowering how;
	unsigned int mask;
	bool pseudo;
	bool core;
	unsigned int lnc;
	bool ctr_prologue;
	bool ev_prologue;
	struct ncsync_stream tmp[NCSYNC_MAX_ENGINE_ID];
	uint32_t *map[NCSYNC_MAX_ENGINE_ID];
	struct ncsync_call_undo undo;
};

/*
 * The two halves of a pseudo-op's events block: its wait (with the
 * threshold when the wait has one) and its update (with the operand when
 * the update has one).
 */
void ncsync_events_split(const struct ncsync_events *ev,
			 struct ncsync_events *wait,
			 struct ncsync_events *upd)
{
	uint8_t base = ev->upd_mode & 0x0F;

	memset(wait, 0, sizeof(*wait));
	memset(upd, 0, sizeof(*upd));
	wait->wait_mode = ev->wait_mode;
	wait->wait_idx = ev->wait_idx;
	if (ncsync_wait_mode_is_sem(ev->wait_mode))
		wait->value = ev->value;
	upd->upd_mode = ev->upd_mode;
	upd->upd_idx = ev->upd_idx;
	if (ev->upd_mode && (base == NCSYNC_UPD_SEM_ADD ||
			     base == NCSYNC_UPD_SEM_SUB ||
			     base == NCSYNC_UPD_SEM_WRITE))
		upd->value = ev->value;
}

/*
 * Whether a barrier's events block is the barrier's own (SYNC, "The
 * resulting per-engine 0xD5 bundle"): its update adds to the semaphore its
 * wait tests, each engine's arrival (sem[S] += 1) and its release (sem[S]
 * >= N).  Such a wait can only pass once the updates of the other engines
 * were made, which they make on reaching the barrier.
 */
static bool ncsync_events_own_barrier(const struct ncsync_events *ev)
{
	uint8_t base = ev->upd_mode & 0x0F;

	return ncsync_wait_mode_is_sem(ev->wait_mode) &&
	       (base == NCSYNC_UPD_SEM_INC ||
		(base == NCSYNC_UPD_SEM_ADD && (int32_t)ev->value > 0)) &&
	       ev->wait_idx == ev->upd_idx;
}

/**
 * ncsync_barrier_block_emit() - a half of a barrier's events block.
 * @t: the stream being rewritten.
 * @rec: the 0xD5 or 0xD8 record.
 * @before: the half that goes before the rendezvous, else the one after.
 *
 * A block is kept in the order of an op's own wait and update, its wait
 * on a NoOp before the engine's arrival and its update on a NoOp after the
 * rendezvous, unless it is the barrier's own (its update adds to the
 * semaphore its wait tests): then the update, the arrival, goes before the
 * rendezvous and the wait, the release, after it, so that every engine
 * has arrived when any tests the count (Documentation/ncsync/barriers.rst,
 * "The 0xD5 events block").  An empty half emits nothing.
 *
 * Return: 0 or a negative errno.
 */
int ncsync_barrier_block_emit(struct ncsync_stream *t, const uint8_t *rec,
			      bool before)
{
	struct ncsync_events ev, wait, upd;
	const struct ncsync_events *half;
	int ret;

	ncsync_events_get(rec, &ev);
	ncsync_events_split(&ev, &wait, &upd);
	if (ncsync_events_own_barrier(&ev))
		half = before ? &upd : &wait;
	else
		half = before ? &wait : &upd;
	if (ncsync_events_zero(half))
		return 0;
	ret = ncsync_add_nop(t, half);
	return ret < 0 ? ret : 0;
}

/*
 * A 0xD5 record: the half of its events block that goes before this
 * engine's arrival, the pass, the half that goes after the rendezvous.
 */
static int ncsync_lower_barrier(struct ncsync_lowering *lw,
				struct ncsync_stream *t, const uint8_t *rec)
{
	int ret;

	ret = ncsync_barrier_block_emit(t, rec, true);
	if (!ret && lw->how == NCSYNC_LOWER_COUNTER)
		ret = ncsync_emit_ctr_pass(t, t->prog);
	else if (!ret)
		ret = ncsync_emit_ev_pass(t, lw->mask);
	if (ret >= 0)
		ret = ncsync_barrier_block_emit(t, rec, false);
	return ret < 0 ? ret : 0;
}

/* Record @rec of a stream, rewritten at the end of @t. */
static int ncsync_lower_record(struct ncsync_lowering *lw,
			       struct ncsync_stream *t, const uint8_t *rec)
{
	int ret;

	if (rec[0] == NCSYNC_OPC_ALL_ENGINE_BARRIER)
		return ncsync_lower_barrier(lw, t, rec);
	if (rec[0] == NCSYNC_OPC_CORE_BARRIER)
		return ncsync_core_barrier_lower(t, rec, lw->lnc, lw->mask);
	if (rec[0] == NCSYNC_OPC_EXIT && lw->ev_prologue) {
		ret = ncsync_emit_ev_epilogue(t, lw->mask);
		if (ret < 0)
			return ret;
	}
	ret = ncsync_stream_put(t, rec);
	return ret < 0 ? ret : 0;
}

/* Rewrite stream @s into lw->tmp[e], filling lw->map[e]. */
static int ncsync_lower_stream(struct ncsync_lowering *lw,
			       struct ncsync_stream *s)
{
	struct ncsync_stream *t = &lw->tmp[s->engine];
	uint32_t *map;
	uint32_t i;
	int ret;

	t->prog = s->prog;
	t->engine = s->engine;
	map = calloc((size_t)s->count + 1, sizeof(*map));
	if (!map)
		return -ENOMEM;
	lw->map[s->engine] = map;
	s->prog->cur_line = 0;

	if (lw->ctr_prologue) {
		ret = ncsync_emit_ctr_prologue(t, s->prog);
		if (ret < 0)
			return ret;
	}
	if (lw->ev_prologue) {
		ret = ncsync_emit_ev_prologue(t);
		if (ret < 0)
			return ret;
	}
	for (i = 0; i < s->count; i++) {
		s->prog->cur_line = s->lines[i];
		map[i] = t->count;
		ret = ncsync_lower_record(lw, t, ncsync_stream_at(s, i));
		if (ret < 0)
			return ret;
	}
	map[s->count] = t->count;
	s->prog->cur_line = 0;
	if (lw->ev_prologue) {
		/* Falling off the end is an Exit: give it the epilogue. */
		ret = ncsync_emit_ev_epilogue(t, lw->mask);
		if (ret < 0)
			return ret;
		ret = ncsync_add_exit(t, NULL);
		if (ret < 0)
			return ret;
	}
	return 0;
}

/* Move labels and branches bound before the lowering to the new indices. */
static void ncsync_lower_commit(struct ncsync_program *prog,
				struct ncsync_lowering *lw,
				unsigned int nlabels, unsigned int nfixups)
{
	unsigned int i;

	for (i = 0; i < nlabels; i++) {
		struct ncsync_label *l = &prog->labels[i];

		/* A function's labels died with it (lower_call.c). */
		if (l->bound && !l->fn && lw->map[l->engine])
			l->index = lw->map[l->engine][l->index];
	}
	for (i = 0; i < nfixups; i++) {
		struct ncsync_fixup *f = &prog->fixups[i];

		if (lw->map[f->engine])
			f->index = lw->map[f->engine][f->index];
	}
	for (i = 0; i < NCSYNC_MAX_ENGINE_ID; i++) {
		struct ncsync_stream *s = prog->streams[i];
		struct ncsync_stream *t = &lw->tmp[i];
		uint32_t *lines;
		uint8_t *recs;

		if (!s || !lw->map[i])
			continue;
		recs = s->recs;
		lines = s->lines;
		s->recs = t->recs;
		s->lines = t->lines;
		s->count = t->count;
		s->cap = t->cap;
		t->recs = recs;
		t->lines = lines;
	}
}

/*
 * Record @i of @s is a 0xD5: remember the first malformed one for the
 * conformance profile (BARRIER 1, 8).
 */
static void ncsync_lower_note_barrier(struct ncsync_program *prog,
				      struct ncsync_lowering *lw,
				      struct ncsync_stream *s,
				      uint32_t i)
{
	lw->pseudo = true;
	if (prog->conf_bad ||
	    !ncsync_barrier_record_conform(ncsync_stream_at(s, i)))
		return;
	prog->conf_bad = true;
	prog->conf_engine = s->engine;
	prog->conf_index = i;
}

/* Check the program can be lowered; decide what the lowering does. */
static int ncsync_lower_plan(struct ncsync_program *prog,
			     struct ncsync_lowering *lw)
{
	unsigned int e;
	uint32_t i;
	int ret;

	for (e = 0; e < NCSYNC_MAX_ENGINE_ID; e++) {
		struct ncsync_stream *s = prog->streams[e];

		if (!s)
			continue;
		for (i = 0; i < s->count; i++) {
			uint8_t op = ncsync_stream_at(s, i)[0];

			if (op == NCSYNC_OPC_ALL_ENGINE_BARRIER)
				ncsync_lower_note_barrier(prog, lw, s, i);
			else if (ncsync_is_pseudo(op) &&
				 op != NCSYNC_OPC_CORE_BARRIER)
				return ncsync_lower_fail(prog, -EOPNOTSUPP,
							 "engine %s record %u: pseudo-op 0x%02x has no lowering",
							 ncsync_engine_name(e),
							 i, op);
		}
	}
	ret = ncsync_core_barriers_plan(prog);
	if (ret < 0)
		return ret;
	lw->core = ret;
	lw->lnc = ncsync_lower_lnc(prog);
	lw->mask = ncsync_program_engines(prog);
	lw->ctr_prologue = !prog->ctr_prologue &&
			   (prog->ctr_used || lw->core ||
			    (lw->pseudo && lw->how == NCSYNC_LOWER_COUNTER));
	lw->ev_prologue = !prog->ev_prologue && lw->pseudo &&
			  lw->how == NCSYNC_LOWER_EVENTS;
	if (prog->ctr_used && prog->ctr_mask != lw->mask)
		return ncsync_lower_fail(prog, -EINVAL,
					 "the program's engines (mask 0x%02x) changed after ncsync_add_sync_barrier(), which counts the engines of mask 0x%02x: add every engine's stream before the first barrier",
					 lw->mask, prog->ctr_mask);
	return 0;
}

int ncsync_lower_pending(const struct ncsync_program *prog)
{
	unsigned int e;
	uint32_t i;

	if (prog->ctr_used && !prog->ctr_prologue)
		return 1;
	if (prog->nfuncs)
		return 1;
	for (e = 0; e < NCSYNC_MAX_ENGINE_ID; e++) {
		struct ncsync_stream *s = prog->streams[e];

		for (i = 0; s && i < s->count; i++)
			if (ncsync_is_pseudo(ncsync_stream_at(s, i)[0]))
				return 1;
	}
	return 0;
}

/* Take the counter and the events the planned prologues need. */
static int ncsync_lower_take(struct ncsync_program *prog,
			     const struct ncsync_lowering *lw)
{
	int ret;

	if (lw->ctr_prologue) {
		ret = ncsync_ctr_take(prog, lw->mask);
		if (ret < 0)
			return ret;
		/* What the passes and the prologue count on. */
		prog->ctr_mask = lw->mask;
	}
	if (lw->ev_prologue) {
		ret = ncsync_ev_take(prog, lw->mask);
		if (ret < 0)
			return ret;
	}
	return 0;
}

/*
 * Rewrite every stream; on failure drop what the rewrite added, so that
 * nothing changed.
 */
static int ncsync_lower_streams(struct ncsync_program *prog,
				struct ncsync_lowering *lw)
{
	unsigned int nlabels = prog->nlabels, nfixups = prog->nfixups, e;
	int ret;

	for (e = 0; e < NCSYNC_MAX_ENGINE_ID; e++) {
		if (!prog->streams[e])
			continue;
		ret = ncsync_lower_stream(lw, prog->streams[e]);
		if (ret < 0) {
			prog->nlabels = nlabels;
			prog->nfixups = nfixups;
			return ret;
		}
	}
	ncsync_lower_commit(prog, lw, nlabels, nfixups);
	if (lw->ctr_prologue) {
		prog->ctr_used = true;
		prog->ctr_mask = lw->mask;
		prog->ctr_prologue = true;
	}
	if (lw->ev_prologue) {
		prog->ev_used = true;
		prog->ev_prologue = true;
	}
	if (lw->core)
		prog->core_lnc = lw->lnc;
	prog->frozen = true;
	return 0;
}

/**
 * ncsync_lower_fail() - record why the lowering fails.
 * @prog: the program.
 * @ret: the negative errno returned.
 * @fmt: the message (ncsync_program_lower_error()), printf-style.
 *
 * Return: @ret.
 */
int ncsync_lower_fail(struct ncsync_program *prog, int ret, const char *fmt,
		      ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(prog->lower_msg, sizeof(prog->lower_msg), fmt, ap);
	va_end(ap);
	return ret;
}

/**
 * ncsync_program_lower_error() - why the last lowering failed.
 * @prog: the program.
 *
 * The last ncsync_program_lower(), or the one ncsync_program_finalize()
 * or ncsync_program_submit() runs, is the one reported: an unknown
 * pseudo-op (naming its opcode), a Call to an unknown function or a
 * recursive one (naming the functions), a Return outside a function.
 * Every failure of ncsync_program_finalize() leaves one: a label, the
 * validator's refusal, or the error's name.
 *
 * Return: a message, valid until the program changes or is freed; NULL
 * when the last lowering or finalization did not fail, or @prog is NULL.
 */
const char *ncsync_program_lower_error(const struct ncsync_program *prog)
{
	if (!prog || !prog->lower_msg[0])
		return NULL;
	return prog->lower_msg;
}

int ncsync_program_lower(struct ncsync_program *prog,
			 enum ncsync_barrier_lowering how)
{
	struct ncsync_lowering *lw;
	unsigned int e;
	int ret;

	if (!prog ||
	    (how != NCSYNC_LOWER_COUNTER && how != NCSYNC_LOWER_EVENTS))
		return -EINVAL;
	prog->lower_msg[0] = '\0';
	if (!ncsync_lower_pending(prog)) {
		prog->frozen = true;
		return 0;
	}
	lw = calloc(1, sizeof(*lw));
	if (!lw)
		return -ENOMEM;
	lw->how = how;
	ret = ncsync_lower_calls(prog, &lw->undo);
	if (!ret)
		ret = ncsync_lower_plan(prog, lw);
	if (!ret)
		ret = ncsync_lower_take(prog, lw);
	if (!ret)
		ret = ncsync_lower_streams(prog, lw);
	ncsync_lower_calls_end(prog, &lw->undo, ret);
	prog->cur_line = 0;
	for (e = 0; e < NCSYNC_MAX_ENGINE_ID; e++) {
		free(lw->tmp[e].recs);
		free(lw->tmp[e].lines);
		free(lw->map[e]);
	}
	free(lw);
	return ret;
}

typedef int (*ncsync_stream_fn)(struct ncsync_stream *s, const void *arg);

/* Append records to every stream with @fn; undo everything on failure. */
static int ncsync_append_all(struct ncsync_program *prog, ncsync_stream_fn fn,
			     const void *arg)
{
	struct ncsync_mark mark;
	unsigned int e;
	int ret = 0;

	if (!prog)
		return -EINVAL;
	if (prog->frozen)
		return -EBUSY;
	if (!ncsync_program_engines(prog))
		return -EINVAL;
	ncsync_program_mark(prog, &mark);
	for (e = 0; e < NCSYNC_MAX_ENGINE_ID; e++) {
		if (!prog->streams[e])
			continue;
		ret = fn(prog->streams[e], arg);
		if (ret < 0)
			break;
	}
	if (ret < 0) {
		ncsync_program_rewind(prog, &mark);
		return ret;
	}
	return 0;
}

static int ncsync_put_barrier(struct ncsync_stream *s, const void *arg)
{
	uint8_t rec[NCSYNC_RECORD_SIZE];

	ncsync_rec_init(rec, NCSYNC_OPC_ALL_ENGINE_BARRIER, arg);
	return ncsync_stream_put(s, rec);
}

/*
 * BARRIER 1, 8: the pseudo record, header and events block, reserved0
 * zero, on every stream; ncsync_program_lower() rewrites it.
 */
int ncsync_add_all_engine_barrier(struct ncsync_program *prog,
				  const struct ncsync_events *ev)
{
	if (ev && ncsync_events_check(ev))
		return -EINVAL;
	return ncsync_append_all(prog, ncsync_put_barrier, ev);
}

static int ncsync_put_sync_barrier(struct ncsync_stream *s, const void *arg)
{
	const struct ncsync_program *prog = arg;

	return ncsync_emit_ctr_pass(s, prog);
}

/*
 * The runtime's add_sync_barrier (SYNC "The runtime composite"): a Drain
 * leads, then the all-engine rendezvous on the barrier counter, emitted
 * in the counter form at once (the arrival rides the Drain); the start
 * rendezvous is inserted at finalization.  Every stream
 * must exist already: adding a stream afterwards makes finalization fail
 * (-EINVAL).
 */
int ncsync_add_sync_barrier(struct ncsync_program *prog)
{
	unsigned int mask;
	int ret;

	if (!prog)
		return -EINVAL;
	if (prog->frozen)
		return -EBUSY;
	mask = ncsync_program_engines(prog);
	if (!mask)
		return -EINVAL;
	if (prog->ctr_used && prog->ctr_mask != mask)
		return -EINVAL;
	ret = ncsync_ctr_take(prog, mask);
	if (ret < 0)
		return ret;
	prog->ctr_mask = mask;
	ret = ncsync_append_all(prog, ncsync_put_sync_barrier, prog);
	if (ret < 0)
		return ret;
	prog->ctr_used = true;
	return 0;
}

/**
 * struct ncsync_fence - one lower_control fence.
 * @mask: the semaphores its resets clear.
 * @engines: the program's engines.
 * @core: whether it has the core barrier leg.
 * @sem: the leg's semaphore.
 */
struct ncsync_fence {
	uint32_t mask[8];
	unsigned int engines;
	bool core;
	uint8_t sem;
};

/*
 * The share of @engine in the fence's group: the semaphores whose place
 * among those of the group is its rank among the program's engines,
 * modulo their number.
 */
static bool ncsync_fence_share(const struct ncsync_fence *f, uint8_t engine,
			       uint32_t share[8])
{
	unsigned int n = __builtin_popcount(f->engines);
	unsigned int r = __builtin_popcount(f->engines & ((1U << engine) - 1));
	unsigned int i, k = 0;
	bool any = false;

	memset(share, 0, 8 * sizeof(*share));
	for (i = 0; i < NCSYNC_NUM_SEMS; i++) {
		if (!(f->mask[i / 32] & (1U << (i % 32))))
			continue;
		if (k++ % n == r) {
			share[i / 32] |= 1U << (i % 32);
			any = true;
		}
	}
	return any;
}

static int ncsync_put_fence(struct ncsync_stream *s, const void *arg)
{
	const struct ncsync_fence *f = arg;
	uint32_t share[8];
	int ret;

	ret = ncsync_put_barrier(s, NULL);
	if (ret >= 0 && ncsync_fence_share(f, s->engine, share))
		ret = ncsync_add_sema_clear_mask(s, share, NULL);
	if (ret >= 0)
		ret = ncsync_put_barrier(s, NULL);
	if (ret >= 0)
		ret = ncsync_add_drain(s, NULL);
	if (ret >= 0 && f->core)
		ret = ncsync_put_core_barrier(s, f->sem, 0, NULL);
	return ret < 0 ? ret : 0;
}

/*
 * SYNC lower_control: Barrier, GroupResetSemaphores, Barrier, Drain on
 * every engine, then CoreBarrier when the program's lnc
 * (ncsync_program_set_lnc()) is above 1.  The reset clears the
 * semaphores allocated with ncsync_sem_alloc() when the fence is added
 * (ClearMode 2, a mask), each engine its own share ("so each engine
 * resets its own range"; ENC 6b: no group is empty or shares a semaphore
 * with another), so that the fence passes the conformance profile; an
 * engine with no share has no reset.  The reserved slice, and so the
 * barrier counters, is never in the mask, nor the core barrier's
 * semaphore: ncsync_sem_alloc()'ed by the program's first fence with the
 * leg, shared by all its fences.  The barriers are 0xD5 and 0xD8
 * records, lowered later.
 */
int ncsync_add_lower_control_fence(struct ncsync_program *prog)
{
	struct ncsync_fence f = { .core = prog && prog->lnc > 1 };
	int sem = prog ? prog->fence_sem : -1, ret;

	if (!prog)
		return -EINVAL;
	ncsync_alloc_sem_mask(prog, f.mask);
	if (sem >= 0)
		f.mask[sem / 32] &= ~(1U << (sem % 32));
	f.engines = ncsync_program_engines(prog);
	if (f.core && sem < 0 && !prog->frozen && f.engines) {
		sem = ncsync_sem_alloc(prog, 1);
		if (sem < 0)
			return sem;
	}
	f.sem = (uint8_t)sem;
	ret = ncsync_append_all(prog, ncsync_put_fence, &f);
	if (ret < 0) {
		/* Nothing changed: a semaphore taken here is given back. */
		if (f.core && prog->fence_sem < 0 && sem >= 0)
			ncsync_sem_free(prog, sem, 1);
		return ret;
	}
	if (f.core)
		prog->fence_sem = sem;
	return 0;
}
