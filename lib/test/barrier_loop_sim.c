// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * A tiny host-side simulator of the engines (test only, not the library)
 * runs lowered barrier loops on up to five engines with random, heavily
 * skewed interleavings, and checks that no engine passes barrier k before
 * every engine arrived at k, that nothing deadlocks, that no event is set
 * while set or cleared while clear, and that programs run back to back on
 * the same bank (no reset in between) stay correct.  For both lowerings,
 * ncsync_add_sync_barrier() and the lower_control fence.
 *
 * Each stream runs P times: r5 += 1 (arrived), barrier, r6 += 1 (passed).
 * When an engine's r6 becomes k, every engine's r5 must be >= k.
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

/* Run the loaded program to the end; false on a deadlock. */
static bool sim_run(struct sim *sm)
{
	unsigned long steps = 0;

	for (;;) {
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

static struct ncsync_program *build(unsigned int mask, enum kind k,
				    unsigned int passes, int *user_sem)
{
	struct ncsync_program *p;
	struct ncsync_stream *s;
	int top[8];
	unsigned int e;

	ncsync_program_new(&p);
	for (e = 0; e < 8; e++)
		if (mask & (1U << e))
			ncsync_program_stream(p, e, &s);
	*user_sem = ncsync_sem_alloc(p, 1);
	for (e = 0; e < 8; e++) {
		s = ncsync_program_find_stream(p, e);
		if (!s)
			continue;
		top[e] = ncsync_label_new(p);
		ncsync_label_bind(s, top[e]);
		ncsync_add_mov32(s, NCSYNC_ALU_ADD_IMM, REG_ARRIVED,
				 REG_ARRIVED, 1, NULL);
		if (k == FENCE)
			ncsync_add_semaphore_inc(s, *user_sem);
	}
	switch (k) {
	case PSEUDO_COUNTER:
	case PSEUDO_EVENTS:
		ncsync_add_all_engine_barrier(p, NULL);
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
	for (e = 0; e < 8; e++) {
		s = ncsync_program_find_stream(p, e);
		if (!s)
			continue;
		ncsync_add_mov32(s, NCSYNC_ALU_ADD_IMM, REG_PASSED, REG_PASSED,
				 1, NULL);
		ncsync_add_mov32(s, NCSYNC_ALU_ADD_IMM, REG_LOOP, REG_LOOP, 1,
				 NULL);
		ncsync_add_branch_imm(s, NCSYNC_BR_LT, NCSYNC_DTYPE_U32,
				      REG_LOOP, passes, top[e], NULL);
		if (e & 1)	/* half the streams exit, half fall off */
			ncsync_add_exit(s, NULL);
	}
	if (ncsync_program_lower(p, k == PSEUDO_EVENTS ? NCSYNC_LOWER_EVENTS :
				 NCSYNC_LOWER_COUNTER) ||
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

/*
 * @runs programs back to back on one bank (each starting with fresh
 * registers), @seeds times.  Every engine set contains @must (0: random
 * sets that may share no engine).
 */
static void check(enum kind k, unsigned int seeds, unsigned int runs,
		  unsigned int passes, bool random_sets, unsigned int must)
{
	unsigned int seed, run, deadlocks = 0, viol = 0, misuse = 0;
	unsigned int bad_end = 0, bad_user = 0;
	struct sim *sm = calloc(1, sizeof(*sm));

	for (seed = 1; seed <= seeds; seed++) {
		memset(sm->sems, 0, sizeof(sm->sems));
		memset(sm->events, 0, sizeof(sm->events));
		sm->rng = 0x9E3779B97F4A7C15ULL * seed;
		/* what earlier programs left on the counters */
		for (run = 240; run < 245; run++)
			sm->sems[run] = 8 * (rnd(sm) % 1000);
		sm->violations = sm->misuse = 0;
		for (run = 0; run < runs; run++) {
			unsigned int mask = random_sets ?
				random_mask(sm, must) : NCSYNC_ENGINE_MASK;
			int32_t before[5];
			struct ncsync_program *p;
			int user_sem, i;

			p = build(mask, k, passes, &user_sem);
			memcpy(before, &sm->sems[240], sizeof(before));
			sim_load(sm, p);
			if (!sim_run(sm)) {
				deadlocks++;
				ncsync_program_free(p);
				break;
			}
			if (k == FENCE && sm->sems[user_sem])
				bad_user++;
			for (i = 0; i < 5; i++)
				if ((sm->sems[240 + i] - before[i]) % 8)
					bad_end++;
			if (k == PSEUDO_EVENTS && !events_clear(sm))
				bad_end++;
			ncsync_program_free(p);
		}
		viol += sm->violations;
		misuse += sm->misuse;
	}
	for (run = 0; run < MAX_ENG; run++)
		free(sm->eng[run].insns);
	free(sm);
	if (k == NONE) {
		TAP_CHECK(viol > 0, "%s: the checker sees engines pass early "
			  "(%u times)", kind_name[k], viol);
		return;
	}
	TAP_CHECK(!viol && !deadlocks && !misuse && !bad_end && !bad_user,
		  "%s: %u seeds x %u programs x %u passes%s: %u early passes, "
		  "%u deadlocks, %u event misuses, %u bad end states, "
		  "%u user semaphores not reset", kind_name[k], seeds, runs,
		  passes, random_sets ? " (random engine sets)" : "", viol,
		  deadlocks, misuse, bad_end, bad_user);
}

int main(int argc, char **argv)
{
	unsigned int seeds = argc > 1 ? atoi(argv[1]) : 300;

	check(NONE, 20, 1, 20, false, 0);
	check(PSEUDO_COUNTER, seeds, 1, 40, false, 0);
	check(PSEUDO_EVENTS, seeds, 1, 40, false, 0);
	check(PSEUDO_COUNTER, seeds, 4, 15, false, 0);
	check(PSEUDO_EVENTS, seeds, 4, 15, false, 0);
	check(PSEUDO_COUNTER, seeds, 4, 15, true, 1U << 1);
	check(PSEUDO_EVENTS, seeds, 4, 15, true, 0);
	check(SYNC_BARRIER, seeds, 3, 20, false, 0);
	check(FENCE, seeds, 2, 20, false, 0);
	check(PSEUDO_EVENTS, seeds / 3 + 1, 3, 1, true, 0);
	check(PSEUDO_COUNTER, seeds / 3 + 1, 3, 1, true, 1U << 1);
	return tap_done();
}
