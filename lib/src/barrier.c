// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * libncsync: the records of the all-engine barrier, in its two forms
 * (Documentation/ncsync/barriers.rst, which gives the records, the proofs
 * and the limits; SYNC "The per-engine wait/update", BARRIER 4-5, 8).
 * The lowering passes (lower.c, core_barrier.c) and the barrier builders
 * (pseudo.c) emit them; nothing here calls either.
 *
 * A barrier involves every stream of the program: N engines.  Both
 * forms lead with a Drain whose update is the arrival, stay correct
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
 * the arrival, its update on a NoOp after the rendezvous
 * (ncsync_barrier_block_emit()).
 */
#include <errno.h>
#include <string.h>

#include "internal.h"

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
int ncsync_ctr_take(struct ncsync_program *prog, unsigned int mask)
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
	prog->own_regs |= 1U << NCSYNC_REG_BARRIER_COUNT;
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
int ncsync_emit_ctr_prologue(struct ncsync_stream *s,
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

int ncsync_ev_take(struct ncsync_program *prog, unsigned int mask)
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
	prog->own_regs |= 1U << NCSYNC_REG_BARRIER_PHASE;
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
int ncsync_emit_ev_pass(struct ncsync_stream *s, unsigned int mask)
{
	return ncsync_emit_phase_blocks(s, mask, ncsync_emit_ev_phase);
}

int ncsync_emit_ev_prologue(struct ncsync_stream *s)
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

int ncsync_emit_ev_epilogue(struct ncsync_stream *s, unsigned int mask)
{
	return ncsync_emit_phase_blocks(s, mask, ncsync_emit_ev_final);
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
