// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * A tiny host-side simulator of the engines (test only, not the library)
 * runs lowered barrier loops on up to five engines with random, heavily
 * skewed interleavings, and checks that no engine passes barrier k before
 * every engine arrived at k, that nothing deadlocks, that no event is set
 * while set or cleared while clear, and that programs run back to back on
 * the same bank (no reset in between) stay correct, also after a program
 * that was stopped at a random point (as a cancel does) and with counter
 * epochs short enough to wrap many times.  For both lowerings,
 * ncsync_add_sync_barrier() and the lower_control fence; the counter form
 * also for 10,000 passes on five engines.
 *
 * Each stream runs P times: r5 += 1 (arrived), barrier, r6 += 1 (passed).
 * When an engine's r6 becomes k, every engine's r5 must be >= k.  The
 * 0xD5 records carry an update (+1 on a user semaphore U): when U becomes
 * v, in pass k = ceil(v / N), every engine's r5 must be >= k too.
 *
 * The simulator follows the engine model of Documentation/ncsync/engines.rst and the driver: the
 * waits in lane order (each a step of its own, with its then-clear/then-set
 * action, or its paired update), then the op's effect, then the updates.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ncsync.h"
#include "ncsync_exec.h"
#include "internal.h"
#include "tap.h"

#define MAX_ENG		5
#define REG_ARRIVED	5
#define REG_PASSED	6
#define REG_LOOP	4

struct sim_eng {
	uint8_t engine;
	struct ncsync_insn *insns;
	uint32_t count;
	uint32_t pc;
	uint32_t next;
	uint32_t regs[NCSYNC_NUM_REGS];
	unsigned int step;
	unsigned int weight;
	bool done;
	bool blocked;
};

struct sim {
	int32_t sems[NCSYNC_NUM_SEMS];
	bool events[NCSYNC_NUM_EVENTS];
	unsigned int misuse;
	unsigned int violations;
	unsigned int n;
	int carried;		/* U, or -1 */
	unsigned long max_steps;	/* stop there (a cancel), or 0 */
	bool in_start;		/* ... even before every engine started */
	struct sim_eng eng[MAX_ENG];
	uint64_t rng;
};

static uint32_t rnd(struct sim *sm)
{
	sm->rng ^= sm->rng << 13;
	sm->rng ^= sm->rng >> 7;
	sm->rng ^= sm->rng << 17;
	return (uint32_t)(sm->rng >> 11);
}

/* The engines' execution core (common/ncsync_exec.c) on the simulator. */
static void sim_update(struct sim *sm, struct sim_eng *x,
		       const struct ncsync_update_op *u)
{
	bool ovf;

	if (u->bank == NCSYNC_BANK_EVENT) {
		if (sm->events[u->index] == u->set)
			sm->misuse++;
		sm->events[u->index] = u->set;
		return;
	}
	sm->sems[u->index] = ncsync_update_sem(u, sm->sems[u->index], x->regs,
					       &ovf);
	if (ovf)
		sm->misuse++;
	if ((int)u->index == sm->carried) {
		uint32_t k = ((uint32_t)sm->sems[u->index] + sm->n - 1) / sm->n;
		unsigned int i;

		for (i = 0; i < sm->n; i++)
			if (sm->eng[i].regs[REG_ARRIVED] < k)
				sm->violations++;
	}
}

static bool sim_wait(struct sim *sm, struct sim_eng *x,
		     const struct ncsync_lane *l)
{
	const struct ncsync_wait_op *w = &l->wait;
	bool after;

	if (w->bank == NCSYNC_BANK_SEM) {
		if (!ncsync_wait_sem_passes(w, sm->sems[w->index],
					    ncsync_wait_threshold(w, x->regs)))
			return false;
		if (l->paired)
			sim_update(sm, x, &l->upd);
		return true;
	}
	if (!ncsync_wait_event_passes(w, sm->events[w->index], &after))
		return false;
	sm->events[w->index] = after;
	return true;
}

static void sim_effect(struct sim *sm, struct sim_eng *x,
		       const struct ncsync_insn *in)
{
	unsigned int i;

	x->next = x->pc + 1;
	switch (in->opcode) {
	case NCSYNC_OPC_HALT:
	case NCSYNC_OPC_EXIT:
		x->next = x->count;
		break;
	case NCSYNC_OPC_MOV32:
		ncsync_mov_exec(in, x->regs);
		if (in->mov.dst == REG_PASSED) {
			uint32_t k = x->regs[REG_PASSED];

			for (i = 0; i < sm->n; i++)
				if (sm->eng[i].regs[REG_ARRIVED] < k)
					sm->violations++;
		}
		break;
	case NCSYNC_OPC_BRANCH:
		if (ncsync_branch_taken(in, x->regs))
			x->next = in->br.target;
		break;
	case NCSYNC_OPC_GROUP_RESET:
		for (i = 0; i < NCSYNC_NUM_SEMS; i++)
			if (ncsync_group_reset_clears(in, i))
				sm->sems[i] = 0;
		break;
	case NCSYNC_OPC_POLL_SEM:
		x->regs[in->poll.dst] =
			ncsync_poll_reduce(in, &sm->sems[in->poll.first]);
		for (i = 0; in->poll.writeback && x->regs[in->poll.dst] &&
			    i < in->poll.count; i++)
			sm->sems[in->poll.first + i] = x->regs[in->poll.dst];
		break;
	default:	/* EventSemaphore, NoOp, Drain (no copies here) */
		break;
	}
}

/* One step of engine @x; false when it is blocked. */
static bool sim_step(struct sim *sm, struct sim_eng *x)
{
	const struct ncsync_insn *in = &x->insns[x->pc];
	unsigned int i;

	while (x->step < in->nlanes && !in->lane[x->step].wait.active)
		x->step++;
	if (x->step < in->nlanes) {
		if (!sim_wait(sm, x, &in->lane[x->step]))
			return false;
		x->step++;
		return true;
	}
	if (x->step == in->nlanes) {
		sim_effect(sm, x, in);
		x->step++;
		return true;
	}
	for (i = 0; i < in->nlanes; i++)
		/* A DMA's update too: copies land at once here. */
		if (in->lane[i].upd.active && !in->lane[i].paired)
			sim_update(sm, x, &in->lane[i].upd);
	x->step = 0;
	x->pc = x->next;
	if (x->pc >= x->count)
		x->done = true;
	return true;
}

static void sim_load(struct sim *sm, struct ncsync_program *p)
{
	unsigned int e;
	uint32_t i;

	sm->n = 0;
	for (e = 0; e < 8; e++) {
		struct ncsync_stream *s = ncsync_program_find_stream(p, e);
		struct sim_eng *x;

		if (!s)
			continue;
		x = &sm->eng[sm->n++];
		free(x->insns);
		memset(x, 0, sizeof(*x));
		x->engine = e;
		x->count = ncsync_stream_count(s);
		x->insns = calloc(x->count, sizeof(*x->insns));
		for (i = 0; i < x->count; i++)
			if (ncsync_record_decode(ncsync_stream_record(s, i),
						 x->count, UINT64_MAX,
						 &x->insns[i]))
				abort();
	}
}

/* Whether every engine passed the start (CANCEL_IN_START: assume so). */
static bool all_started(const struct sim *sm)
{
	unsigned int i;

	for (i = 0; i < sm->n && !sm->in_start; i++)
		if (!sm->eng[i].regs[REG_ARRIVED])
			return false;
	return true;
}

/* Run the loaded program to the end (or max_steps); false on a deadlock. */
static bool sim_run(struct sim *sm)
{
	unsigned long steps = 0;

	for (;;) {
		if (sm->max_steps && steps >= sm->max_steps &&
		    all_started(sm))
			return true;
		unsigned int i, total = 0, pick;
		struct sim_eng *x = NULL;

		if (steps++ % 500 == 0)
			for (i = 0; i < sm->n; i++)	/* skewed speeds */
				sm->eng[i].weight = 1 + rnd(sm) % (rnd(sm) & 1 ?
								  1000 : 10);
		for (i = 0; i < sm->n; i++)
			if (!sm->eng[i].done && !sm->eng[i].blocked)
				total += sm->eng[i].weight;
		if (!total) {
			for (i = 0; i < sm->n; i++)
				if (!sm->eng[i].done)
					return false;
			return true;
		}
		pick = rnd(sm) % total;
		for (i = 0; i < sm->n; i++) {
			struct sim_eng *y = &sm->eng[i];

			if (y->done || y->blocked)
				continue;
			if (pick < y->weight) {
				x = y;
				break;
			}
			pick -= y->weight;
		}
		if (sim_step(sm, x)) {
			for (i = 0; i < sm->n; i++)
				sm->eng[i].blocked = false;
		} else {
			x->blocked = true;
		}
	}
}

enum kind { PSEUDO_COUNTER, PSEUDO_EVENTS, SYNC_BARRIER, FENCE, NONE };

static const char * const kind_name[] = {
	"0xD5 lowered as counter", "0xD5 lowered as events",
	"add_sync_barrier", "lower_control fence", "no barrier",
};

/*
 * One test: @seeds times, @runs programs of @passes passes back to back on
 * one bank.  @random_sets: random engine sets, each containing @must (0:
 * sets that may share no engine).  @epoch: the counter epoch, 0 for the
 * default.  @cancel: the first program of each seed is stopped at a random
 * point once every engine passed the start (START: anywhere in its first
 * steps); what it leaves is the next one's bank.
 */
enum cancel { NO_CANCEL, CANCEL, CANCEL_IN_START };

struct cfg {
	enum kind k;
	unsigned int seeds, runs, passes;
	bool random_sets;
	unsigned int must;
	uint32_t epoch;
	enum cancel cancel;
};

static bool is_counter(enum kind k)
{
	return k == PSEUDO_COUNTER || k == SYNC_BARRIER || k == FENCE;
}

static void add_barrier(struct ncsync_program *p, enum kind k, int carried)
{
	struct ncsync_events ev = {
		.upd_mode = NCSYNC_UPD_COMPLETE | NCSYNC_UPD_SEM_INC,
		.upd_idx = (uint8_t)carried,
	};

	switch (k) {
	case PSEUDO_COUNTER:
	case PSEUDO_EVENTS:
		ncsync_add_all_engine_barrier(p, &ev);
		break;
	case SYNC_BARRIER:
		ncsync_add_sync_barrier(p);
		break;
	case FENCE:
		ncsync_add_lower_control_fence(p);
		break;
	case NONE:
		break;
	}
}

static struct ncsync_program *build(unsigned int mask, const struct cfg *c,
				    int *user_sem, int *carried)
{
	struct ncsync_program *p;
	struct ncsync_stream *s;
	int top[8];
	unsigned int e;

	ncsync_program_new(&p);
	if (c->epoch)
		p->ctr_epoch = c->epoch;
	for (e = 0; e < 8; e++)
		if (mask & (1U << e))
			ncsync_program_stream(p, e, &s);
	*user_sem = ncsync_sem_alloc(p, 1);
	*carried = ncsync_sem_alloc(p, 1);
	for (e = 0; e < 8; e++) {
		s = ncsync_program_find_stream(p, e);
		if (!s)
			continue;
		top[e] = ncsync_label_new(p);
		ncsync_label_bind(s, top[e]);
		ncsync_add_mov32(s, NCSYNC_ALU_ADD_IMM, REG_ARRIVED,
				 REG_ARRIVED, 1, NULL);
		if (c->k == FENCE)
			ncsync_add_semaphore_inc(s, *user_sem);
	}
	add_barrier(p, c->k, *carried);
	for (e = 0; e < 8; e++) {
		s = ncsync_program_find_stream(p, e);
		if (!s)
			continue;
		ncsync_add_mov32(s, NCSYNC_ALU_ADD_IMM, REG_PASSED, REG_PASSED,
				 1, NULL);
		ncsync_add_mov32(s, NCSYNC_ALU_ADD_IMM, REG_LOOP, REG_LOOP, 1,
				 NULL);
		ncsync_add_branch_imm(s, NCSYNC_BR_LT, NCSYNC_DTYPE_U32,
				      REG_LOOP, c->passes, top[e], NULL);
		if (e & 1)	/* half the streams exit, half fall off */
			ncsync_add_exit(s, NULL);
	}
	if (ncsync_program_lower(p, c->k == PSEUDO_EVENTS ?
				 NCSYNC_LOWER_EVENTS : NCSYNC_LOWER_COUNTER) ||
	    ncsync_program_finalize(p))
		abort();
	return p;
}

static unsigned int random_mask(struct sim *sm, unsigned int must)
{
	static const uint8_t engines[] = { 1, 2, 3, 5, 6 };
	unsigned int i, mask = must;

	for (i = 0; i < 5; i++)
		if (rnd(sm) & 1)
			mask |= 1U << engines[i];
	return mask ? mask : 1U << 6;
}

static bool events_clear(const struct sim *sm)
{
	unsigned int i;

	for (i = 240; i < 256; i++)
		if (sm->events[i])
			return false;
	return true;
}

/* Whether the program left its counters where its passes put them. */
static bool counters_ok(const struct sim *sm, const struct cfg *c,
			unsigned int mask)
{
	uint32_t n = __builtin_popcount(mask);
	uint32_t e = n * (c->epoch ? c->epoch : NCSYNC_BARRIER_EPOCH);
	unsigned int c0 = 240 + 2 * (__builtin_ctz(mask) == 6 ? 4 :
				     __builtin_ctz(mask) - 1 -
				     (__builtin_ctz(mask) > 4));
	uint32_t total = c->passes * (c->k == FENCE ? 2 : 1);

	if (!c->epoch)
		return (uint32_t)sm->sems[c0] == n * total;
	return sm->sems[c0] >= 0 && (uint32_t)sm->sems[c0] <= 2 * e &&
	       sm->sems[c0 + 1] >= 0 && (uint32_t)sm->sems[c0 + 1] <= 2 * e;
}

struct tally {
	unsigned int viol, deadlocks, misuse, bad_end, bad_user;
};

/* Run one program on the bank; false when the seed must stop. */
static bool run_one(struct sim *sm, const struct cfg *c, unsigned int run,
		    struct tally *t)
{
	unsigned int mask = c->random_sets ? random_mask(sm, c->must) :
					     NCSYNC_ENGINE_MASK;
	bool stopped = run == 0 && c->cancel != NO_CANCEL;
	struct ncsync_program *p;
	int user_sem, carried;
	bool ok;

	p = build(mask, c, &user_sem, &carried);
	sim_load(sm, p);
	sm->sems[carried] = 0;
	sm->carried = c->k == PSEUDO_COUNTER || c->k == PSEUDO_EVENTS ?
		      carried : -1;
	sm->max_steps = 0;
	sm->in_start = c->cancel == CANCEL_IN_START;
	if (stopped)
		sm->max_steps = c->cancel == CANCEL_IN_START ?
				1 + rnd(sm) % (8 * sm->n) :
				50 + rnd(sm) % (400 * c->passes);
	ok = sim_run(sm);
	ncsync_program_free(p);
	if (!ok) {
		t->deadlocks++;
		return false;
	}
	if (stopped)
		return true;
	if (c->k == FENCE && sm->sems[user_sem])
		t->bad_user++;
	if (is_counter(c->k) && !counters_ok(sm, c, mask))
		t->bad_end++;
	if (c->k == PSEUDO_EVENTS && !events_clear(sm))
		t->bad_end++;
	return true;
}

#define T(k, seeds, runs, passes, sets, must, epoch, cancel) \
	{ k, seeds, runs, passes, sets, must, epoch, cancel }

static void check(const struct cfg *c)
{
	struct sim *sm = calloc(1, sizeof(*sm));
	struct tally t = { 0 };
	unsigned int seed, run, i;

	for (seed = 1; seed <= c->seeds; seed++) {
		memset(sm->sems, 0, sizeof(sm->sems));
		memset(sm->events, 0, sizeof(sm->events));
		sm->rng = 0x9E3779B97F4A7C15ULL * seed;
		/* what earlier programs left on the counters: anything >= 0 */
		for (i = 240; i < 250; i++)
			sm->sems[i] = (int32_t)(rnd(sm) % (1U << 30));
		sm->violations = sm->misuse = 0;
		for (run = 0; run < c->runs; run++)
			if (!run_one(sm, c, run, &t))
				break;
		t.viol += sm->violations;
		t.misuse += sm->misuse;
	}
	for (run = 0; run < MAX_ENG; run++) {
		free(sm->eng[run].insns);
		sm->eng[run].insns = NULL;
	}
	free(sm);
	if (c->k == NONE) {
		TAP_CHECK(t.viol > 0, "%s: the checker sees engines pass early "
			  "(%u times)", kind_name[c->k], t.viol);
		return;
	}
	if (c->cancel == CANCEL_IN_START) {
		TAP_CHECK(!t.viol && !t.misuse, "%s: cancelled in the start "
			  "rendezvous, %u seeds: %u early passes (%u hangs "
			  "instead)", kind_name[c->k], c->seeds, t.viol,
			  t.deadlocks);
		return;
	}
	TAP_CHECK(!t.viol && !t.deadlocks && !t.misuse && !t.bad_end &&
		  !t.bad_user,
		  "%s: %u seeds x %u programs x %u passes%s%s, epoch %u: %u "
		  "early passes, %u deadlocks, %u misuses, %u bad end states, "
		  "%u user semaphores not reset", kind_name[c->k], c->seeds,
		  c->runs, c->passes, c->random_sets ? " (random sets)" : "",
		  c->cancel ? ", first cancelled" : "",
		  c->epoch ? c->epoch : NCSYNC_BARRIER_EPOCH, t.viol,
		  t.deadlocks, t.misuse, t.bad_end, t.bad_user);
}

int main(int argc, char **argv)
{
	unsigned int n = argc > 1 ? atoi(argv[1]) : 300;
	/* kind, seeds, programs, passes, random sets, must, epoch, cancel */
	const struct cfg cfgs[] = {
		T(NONE, 20, 1, 20, false, 0, 0, NO_CANCEL),
		T(PSEUDO_COUNTER, n, 1, 40, false, 0, 0, NO_CANCEL),
		T(PSEUDO_EVENTS, n, 1, 40, false, 0, 0, NO_CANCEL),
		T(PSEUDO_COUNTER, n, 4, 15, false, 0, 0, NO_CANCEL),
		T(PSEUDO_EVENTS, n, 4, 15, false, 0, 0, NO_CANCEL),
		T(PSEUDO_COUNTER, n, 4, 15, true, 1U << 1, 0, NO_CANCEL),
		T(PSEUDO_EVENTS, n, 4, 15, true, 0, 0, NO_CANCEL),
		T(SYNC_BARRIER, n, 3, 20, false, 0, 0, NO_CANCEL),
		T(FENCE, n, 2, 20, false, 0, 0, NO_CANCEL),
		T(PSEUDO_EVENTS, n / 3 + 1, 3, 1, true, 0, 0, NO_CANCEL),
		T(PSEUDO_COUNTER, n / 3 + 1, 3, 1, true, 1U << 1, 0, NO_CANCEL),
		/* epochs that wrap: every pass, every few, odd lengths */
		T(PSEUDO_COUNTER, n, 2, 40, false, 0, 2, NO_CANCEL),
		T(SYNC_BARRIER, n, 2, 40, false, 0, 3, NO_CANCEL),
		T(FENCE, n / 3 + 1, 2, 30, false, 0, 5, NO_CANCEL),
		T(PSEUDO_COUNTER, n, 3, 25, true, 1U << 1, 2, NO_CANCEL),
		/* a cancelled program, then programs on what it left */
		T(PSEUDO_COUNTER, n, 3, 20, false, 0, 0, CANCEL),
		T(SYNC_BARRIER, n, 3, 20, false, 0, 4, CANCEL),
		T(FENCE, n / 3 + 1, 3, 20, false, 0, 0, CANCEL),
		T(PSEUDO_COUNTER, n, 3, 20, false, 0, 0, CANCEL_IN_START),
		/* the seeds' loop: 10,000 passes on five engines */
		T(SYNC_BARRIER, 3, 1, 10000, false, 0, 0, NO_CANCEL),
		T(PSEUDO_COUNTER, 3, 1, 10000, false, 0, 0, NO_CANCEL),
		T(PSEUDO_COUNTER, 2, 1, 10000, false, 0, 64, NO_CANCEL),
	};

	unsigned int i;

	for (i = 0; i < sizeof(cfgs) / sizeof(cfgs[0]); i++)
		check(&cfgs[i]);
	return tap_done();
}
