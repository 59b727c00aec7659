// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * libncsync: barriers, and the lowering of the AllEngineBarrier pseudo-op
 * (0xD5) into hardware records (Documentation/ncsync/records.rst,
 * "Pseudo-ops"; SYNC "The per-engine wait/update", BARRIER 4-5, 8).
 *
 * A barrier involves every stream of the program: N engines.  Every engine
 * must execute the same sequence of barriers; the k-th barrier one engine
 * executes meets the k-th of every other (loops included).  Two lowerings
 * exist; both lead with a Drain whose update is the arrival ("drain, then
 * post": a peer never proceeds while this engine's copies are in flight),
 * both are correct when a barrier runs again and again in a loop, and both
 * work across programs that follow each other on a core without any reset.
 *
 * Counter form (NCSYNC_LOWER_COUNTER, the default)
 * ------------------------------------------------
 * One counter semaphore C, the reserved semaphore first + slot of the
 * program's lowest engine (slots: Pool 0, Act 1, PE 2, DVE 3, SP 4).  Two
 * programs that run at the same time have no engine in common, hence
 * different lowest engines and different counters; two that share the
 * lowest engine are run one after the other by the driver.
 *
 * Every pass adds exactly W = 8 to C: engine e of rank r (0 .. N-1, by
 * engine id) adds w_e = 8 / N, plus 1 when r < 8 % N (5 engines: 2 2 2 1 1).
 * Register r31 holds the value C reaches when pass k is complete.  Per
 * barrier, each engine runs
 *
 *	Mov32 ADD_IMM r31 = r31 + 8
 *	Drain, events block: C += w_e (0x13, or 0x15 with w_e)
 *	EventSemaphore, lane 1: wait C >= r31 (0x85, value 31)
 *
 * C only grows, so nothing ever resets it under a late engine.  Proof,
 * passes numbered from 1 and C counted from its base B (below): let g be
 * the first engine to arrive at pass k + 1.  Until then no engine arrived
 * more than k times, and g passed pass k, so C >= B + 8k; as the weights
 * sum to 8, every engine has then arrived exactly k times.  So all engines
 * arrive at pass k before any arrives at k + 1.  An engine passing pass k
 * sees C >= B + 8k: if nobody arrived at k + 1 yet, the same count shows
 * that all arrived at k; otherwise all did before the first arrival at
 * k + 1.  Liveness: once all arrived at k, C >= B + 8k holds for good, so
 * every waiter of pass k passes.
 *
 * Every stream starts with a prologue that finds the base B, the value C
 * had when the program started: a finished program leaves C at a multiple
 * of 8 (every pass adds 8), and before this engine's first arrival its
 * peers can have arrived at most once each, adding at most 8 - w_e < 8.
 *
 *	PollSem MIN r31 = C
 *	Mov32 AND_IMM r31 = r31 & ~7
 *
 * Limits: C is compared as a signed 32-bit value, so a core supports 2^28
 * passes of one counter between resets (NCSYNC_IOC_RESET); a program that
 * is cancelled inside a barrier leaves C off a multiple of 8 and the core
 * must be reset (or C zeroed while no program runs) before the next one.
 *
 * Event form (NCSYNC_LOWER_EVENTS)
 * --------------------------------
 * BARRIER 4-5: each engine owns event bits and sets them (0x11), its peers
 * wait for them (0x06).  One bit per engine per pass *phase*:
 * bit(e, p) = reserved event first + 3 * slot(e) + p, p = pass mod 3,
 * again keyed by engine so that concurrent programs never share a bit.
 * Register r30 holds the phase of the engine's next pass (0 at program
 * start).  Pass k, phase p, for engine e:
 *
 *	Drain, events block: set bit(e, p)
 *	EventSemaphore: wait bit(f, p) set, for every peer f (two per record)
 *	  ... the last of them also clears bit(e, p - 1)  (after the waits)
 *	Mov32 MOV_IMM r30 = p + 1 mod 3
 *
 * selected by two branches on r30.  An engine clears its bit of the
 * previous pass only after passing the current pass: then every peer has
 * arrived at the current pass, so has passed the previous one and no
 * longer waits for that bit (no engine is stranded).  Three phases, not
 * two, are what makes the clear safe: with two, a fast engine at pass
 * k + 2 can still see a slow peer's bit of pass k, which the peer clears
 * only after passing k + 1.  With three, bit(f, p) is set only from f's
 * arrival at k to f's pass of k + 1; an engine waiting at pass k + 3 has
 * passed k + 2, so every peer arrived at k + 2, so passed k + 1 and
 * cleared its bit of pass k: a set bit(f, p) seen at pass k + 3 can only be
 * f's arrival at k + 3.  Liveness: bit(f, p) of pass k stays set until f
 * passes k + 1, which needs every engine to arrive at k + 1, i.e. to pass
 * k.  No bit is ever set while set or cleared while clear.
 *
 * Every stream starts by setting bit(e, 2), as if it had arrived at a pass
 * -1, so that the first pass has a bit to clear.  Before every Exit and at
 * the end of each stream (where an Exit is added after it) an epilogue
 * clears the engine's last bit: after its last pass (phase q) the engine
 * waits until each peer's bit of phase q - 1 is clear -- a peer clears it
 * right after passing the last pass, and nobody waits for bit(e, q) any
 * more -- and then clears bit(e, q).  A program that completes thus leaves
 * all its bits clear, which is what the next program needs.  A Halt gets no
 * epilogue: a halted program leaves bits set, and the core must be reset.
 *
 * The events block of a 0xD5 record, when not zero, is kept on a NoOp
 * just before the lowered barrier.  Other pseudo-ops fail with
 * -EOPNOTSUPP.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static bool ncsync_events_zero(const struct ncsync_events *ev)
{
	return !ev || (!ev->wait_mode && !ev->wait_idx && !ev->upd_mode &&
		       !ev->upd_idx && !ev->value);
}

static void ncsync_events_get(const uint8_t *rec, struct ncsync_events *ev)
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

/* The rank of @engine among the engines of @mask, by id. */
static unsigned int ncsync_engine_rank(unsigned int mask, uint8_t engine)
{
	return __builtin_popcount(mask & ((1U << engine) - 1));
}

/* What the counter form adds to C on @engine's arrival. */
static uint32_t ncsync_ctr_weight(unsigned int mask, uint8_t engine)
{
	unsigned int n = __builtin_popcount(mask);
	unsigned int r = ncsync_engine_rank(mask, engine);

	return NCSYNC_BARRIER_PASS_WEIGHT / n +
	       (r < NCSYNC_BARRIER_PASS_WEIGHT % n ? 1 : 0);
}

static unsigned int ncsync_lowest_engine(unsigned int mask)
{
	return __builtin_ctz(mask);
}

/* Take the counter semaphore of the program (idempotent). */
static int ncsync_ctr_take(struct ncsync_program *prog, unsigned int mask)
{
	int ret;

	if (prog->ctr_sem >= 0)
		return prog->ctr_sem;
	ret = ncsync_engine_slot(ncsync_lowest_engine(mask));
	ret = ncsync_res_sem_take(prog, prog->res_sem_first + ret);
	if (ret < 0)
		return ret;
	prog->ctr_sem = ret;
	return ret;
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
			return -ENOSPC;
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

/* The three records of one counter-form pass on @s. */
static int ncsync_emit_ctr_pass(struct ncsync_stream *s, unsigned int mask,
				uint8_t sem)
{
	uint32_t w = ncsync_ctr_weight(mask, s->engine);
	struct ncsync_events arrive = { .upd_idx = sem };
	int first, ret;

	if (w == 1) {
		arrive.upd_mode = NCSYNC_UPD_COMPLETE | NCSYNC_UPD_SEM_INC;
	} else {
		arrive.upd_mode = NCSYNC_UPD_COMPLETE | NCSYNC_UPD_SEM_ADD;
		arrive.value = w;
	}
	first = ncsync_add_mov32(s, NCSYNC_ALU_ADD_IMM,
				 NCSYNC_REG_BARRIER_COUNT,
				 NCSYNC_REG_BARRIER_COUNT,
				 NCSYNC_BARRIER_PASS_WEIGHT, NULL);
	if (first < 0)
		return first;
	ret = ncsync_add_drain(s, &arrive);
	if (ret < 0)
		return ret;
	ret = ncsync_add_semaphore_wait_reg(s, sem, NCSYNC_WAIT_SEM_GE,
					    NCSYNC_REG_BARRIER_COUNT);
	return ret < 0 ? ret : first;
}

static int ncsync_emit_ctr_prologue(struct ncsync_stream *s, uint8_t sem)
{
	int ret;

	ret = ncsync_add_poll_sem(s, NCSYNC_POLL_MIN, NCSYNC_REG_BARRIER_COUNT,
				  sem, 1, NULL);
	if (ret < 0)
		return ret;
	return ncsync_add_mov32(s, NCSYNC_ALU_AND_IMM,
				NCSYNC_REG_BARRIER_COUNT,
				NCSYNC_REG_BARRIER_COUNT,
				~(uint32_t)(NCSYNC_BARRIER_PASS_WEIGHT - 1),
				NULL);
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

/* One event-form pass: the phase switch and three blocks. */
static int ncsync_emit_ev_pass(struct ncsync_stream *s, unsigned int mask)
{
	int labels[NCSYNC_BARRIER_PHASES + 1], ret;
	int end = NCSYNC_BARRIER_PHASES;
	unsigned int p;

	ret = ncsync_new_labels(s->prog, labels, NCSYNC_BARRIER_PHASES + 1);
	if (ret < 0)
		return ret;
	ret = ncsync_emit_phase_switch(s, labels);
	if (ret < 0)
		return ret;
	for (p = 0; p < NCSYNC_BARRIER_PHASES; p++) {
		struct ncsync_events arrive = {
			.upd_mode = NCSYNC_UPD_COMPLETE | NCSYNC_UPD_EVT_SET,
			.upd_idx = ncsync_ev_bit(s->prog, s->engine, p),
		};
		unsigned int prev = (p + NCSYNC_BARRIER_PHASES - 1) %
				    NCSYNC_BARRIER_PHASES;

		if (p) {
			ret = ncsync_label_bind(s, labels[p]);
			if (ret < 0)
				return ret;
		}
		ret = ncsync_add_drain(s, &arrive);
		if (ret < 0)
			return ret;
		ret = ncsync_emit_ev_waits(s, mask, NCSYNC_WAIT_EVT_SET, p,
					   prev);
		if (ret < 0)
			return ret;
		ret = ncsync_add_mov32_imm(s, NCSYNC_REG_BARRIER_PHASE,
					   (p + 1) % NCSYNC_BARRIER_PHASES,
					   NULL);
		if (ret < 0)
			return ret;
		if (p + 1 < NCSYNC_BARRIER_PHASES) {
			ret = ncsync_add_branch(s, labels[end], NULL);
			if (ret < 0)
				return ret;
		}
	}
	ret = ncsync_label_bind(s, labels[end]);
	return ret < 0 ? ret : 0;
}

static int ncsync_emit_ev_prologue(struct ncsync_stream *s)
{
	unsigned int bit = ncsync_ev_bit(s->prog, s->engine,
					 NCSYNC_BARRIER_PHASES - 1);

	return ncsync_add_event_set(s, bit);
}

/*
 * The epilogue: with n the phase of the next pass, the last pass had phase
 * n - 1; wait until every peer cleared its bit of phase n - 2 (it does so
 * right after passing the last pass), then clear bit(e, n - 1).
 */
static int ncsync_emit_ev_epilogue(struct ncsync_stream *s, unsigned int mask)
{
	int labels[NCSYNC_BARRIER_PHASES + 1], ret;
	int end = NCSYNC_BARRIER_PHASES;
	unsigned int n;

	ret = ncsync_new_labels(s->prog, labels, NCSYNC_BARRIER_PHASES + 1);
	if (ret < 0)
		return ret;
	ret = ncsync_emit_phase_switch(s, labels);
	if (ret < 0)
		return ret;
	for (n = 0; n < NCSYNC_BARRIER_PHASES; n++) {
		unsigned int last = (n + 2) % NCSYNC_BARRIER_PHASES;
		unsigned int before = (n + 1) % NCSYNC_BARRIER_PHASES;

		if (n) {
			ret = ncsync_label_bind(s, labels[n]);
			if (ret < 0)
				return ret;
		}
		ret = ncsync_emit_ev_waits(s, mask, NCSYNC_WAIT_EVT_CLEAR,
					   before, last);
		if (ret < 0)
			return ret;
		if (n + 1 < NCSYNC_BARRIER_PHASES) {
			ret = ncsync_add_branch(s, labels[end], NULL);
			if (ret < 0)
				return ret;
		}
	}
	ret = ncsync_label_bind(s, labels[end]);
	return ret < 0 ? ret : 0;
}

/**
 * struct ncsync_lowering - one run of ncsync_program_lower().
 * @how: the form of the 0xD5 records.
 * @mask: the engines of the program.
 * @pseudo: the program holds 0xD5 records.
 * @ctr_prologue: insert the counter prologue.
 * @ev_prologue: insert the event prologue and epilogues.
 * @tmp: the rewritten streams.
 * @map: for each stream, the new index of every old record, and of the end.
 */
struct ncsync_lowering {
	enum ncsync_barrier_lowering how;
	unsigned int mask;
	bool pseudo;
	bool ctr_prologue;
	bool ev_prologue;
	struct ncsync_stream tmp[NCSYNC_MAX_ENGINE_ID];
	uint32_t *map[NCSYNC_MAX_ENGINE_ID];
};

static int ncsync_lower_barrier(struct ncsync_lowering *lw,
				struct ncsync_stream *t, const uint8_t *rec)
{
	struct ncsync_events ev;
	int ret;

	ncsync_events_get(rec, &ev);
	if (!ncsync_events_zero(&ev)) {
		ret = ncsync_add_nop(t, &ev);
		if (ret < 0)
			return ret;
	}
	if (lw->how == NCSYNC_LOWER_COUNTER)
		return ncsync_emit_ctr_pass(t, lw->mask,
					    t->prog->ctr_sem);
	return ncsync_emit_ev_pass(t, lw->mask);
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
		ret = ncsync_emit_ctr_prologue(t, s->prog->ctr_sem);
		if (ret < 0)
			return ret;
	}
	if (lw->ev_prologue) {
		ret = ncsync_emit_ev_prologue(t);
		if (ret < 0)
			return ret;
	}
	for (i = 0; i < s->count; i++) {
		const uint8_t *rec = ncsync_stream_record(s, i);

		s->prog->cur_line = s->lines[i];
		map[i] = t->count;
		if (rec[0] == NCSYNC_OPC_ALL_ENGINE_BARRIER) {
			ret = ncsync_lower_barrier(lw, t, rec);
			if (ret < 0)
				return ret;
			continue;
		}
		if (rec[0] == NCSYNC_OPC_EXIT && lw->ev_prologue) {
			ret = ncsync_emit_ev_epilogue(t, lw->mask);
			if (ret < 0)
				return ret;
		}
		ret = ncsync_stream_put(t, rec);
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

		if (l->bound && lw->map[l->engine])
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

/* Check the program can be lowered; decide what the lowering does. */
static int ncsync_lower_plan(struct ncsync_program *prog,
			     struct ncsync_lowering *lw)
{
	unsigned int e;
	uint32_t i;

	for (e = 0; e < NCSYNC_MAX_ENGINE_ID; e++) {
		struct ncsync_stream *s = prog->streams[e];

		if (!s)
			continue;
		for (i = 0; i < s->count; i++) {
			uint8_t op = ncsync_stream_record(s, i)[0];

			if (op == NCSYNC_OPC_ALL_ENGINE_BARRIER)
				lw->pseudo = true;
			else if (ncsync_is_pseudo(op))
				return -EOPNOTSUPP;
		}
	}
	lw->mask = ncsync_program_engines(prog);
	lw->ctr_prologue = !prog->ctr_prologue &&
			   (prog->ctr_used ||
			    (lw->pseudo && lw->how == NCSYNC_LOWER_COUNTER));
	lw->ev_prologue = !prog->ev_prologue && lw->pseudo &&
			  lw->how == NCSYNC_LOWER_EVENTS;
	if (prog->ctr_used && prog->ctr_mask != lw->mask)
		return -EINVAL;
	return 0;
}

int ncsync_lower_pending(const struct ncsync_program *prog)
{
	unsigned int e;
	uint32_t i;

	if (prog->ctr_used && !prog->ctr_prologue)
		return 1;
	for (e = 0; e < NCSYNC_MAX_ENGINE_ID; e++) {
		struct ncsync_stream *s = prog->streams[e];

		for (i = 0; s && i < s->count; i++)
			if (ncsync_is_pseudo(ncsync_stream_record(s, i)[0]))
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
	prog->frozen = true;
	return 0;
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
	if (!ncsync_lower_pending(prog)) {
		prog->frozen = true;
		return 0;
	}
	lw = calloc(1, sizeof(*lw));
	if (!lw)
		return -ENOMEM;
	lw->how = how;
	ret = ncsync_lower_plan(prog, lw);
	if (!ret)
		ret = ncsync_lower_take(prog, lw);
	if (!ret)
		ret = ncsync_lower_streams(prog, lw);
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
	uint32_t counts[NCSYNC_MAX_ENGINE_ID] = { 0 };
	unsigned int e, nfixups;
	int ret = 0;

	if (!prog)
		return -EINVAL;
	if (prog->frozen)
		return -EBUSY;
	if (!ncsync_program_engines(prog))
		return -EINVAL;
	nfixups = prog->nfixups;
	for (e = 0; e < NCSYNC_MAX_ENGINE_ID; e++)
		if (prog->streams[e])
			counts[e] = prog->streams[e]->count;
	for (e = 0; e < NCSYNC_MAX_ENGINE_ID; e++) {
		if (!prog->streams[e])
			continue;
		ret = fn(prog->streams[e], arg);
		if (ret < 0)
			break;
	}
	if (ret < 0) {
		for (e = 0; e < NCSYNC_MAX_ENGINE_ID; e++)
			if (prog->streams[e])
				prog->streams[e]->count = counts[e];
		prog->nfixups = nfixups;
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

	return ncsync_emit_ctr_pass(s, prog->ctr_mask, prog->ctr_sem);
}

/*
 * The runtime's add_sync_barrier (SYNC "The runtime composite"): a Drain
 * leads, then the all-engine rendezvous on one barrier semaphore, emitted
 * in the counter form at once (the arrival rides the Drain).  Every stream
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

struct ncsync_fence {
	uint32_t mask[8];
};

static int ncsync_put_fence(struct ncsync_stream *s, const void *arg)
{
	const struct ncsync_fence *f = arg;
	int ret;

	ret = ncsync_put_barrier(s, NULL);
	if (ret < 0)
		return ret;
	ret = ncsync_add_sema_clear_mask(s, f->mask, NULL);
	if (ret < 0)
		return ret;
	ret = ncsync_put_barrier(s, NULL);
	if (ret < 0)
		return ret;
	return ncsync_add_drain(s, NULL);
}

/*
 * SYNC lower_control: Barrier, GroupResetSemaphores, Barrier, Drain on
 * every engine.  The reset clears the semaphores allocated with
 * ncsync_sem_alloc() when the fence is added (ClearMode 2, a mask), on
 * every engine: the two barriers make the duplicates harmless.  The
 * reserved slice, and so the barrier counters, which must only grow, is
 * never in the mask.  The barriers are 0xD5 records, lowered later.
 */
int ncsync_add_lower_control_fence(struct ncsync_program *prog)
{
	struct ncsync_fence f;

	if (!prog)
		return -EINVAL;
	ncsync_alloc_sem_mask(prog, f.mask);
	return ncsync_append_all(prog, ncsync_put_fence, &f);
}
