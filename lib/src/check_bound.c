// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * libncsync: the semaphores no run can overflow, for which an addition
 * and a subtraction commute (Documentation/ncsync/check.rst, "The
 * reduction", *Additions against subtractions*).
 *
 * An engine's path from its first record, registers 0, is the one it
 * takes in every run (check_path.c: only a PollSem loads a register from
 * the banks).  Following it once, the passes that run alike skipped as
 * the paths skip them, gives how many times each record runs at most,
 * whatever the schedule; past a PollSem, which ends the path, the records
 * count once each if no branch among them goes back.  A semaphore's value
 * in any state is then at most the largest of its initial value and the
 * values its records set, plus every addition the records (and the
 * landings of their copies) can make in a whole run; at least the least
 * of them minus every subtraction.  When both bounds are within the
 * signed 32-bit range, no update of that semaphore overflows in any
 * state, so an addition and a subtraction reach the same state with the
 * same flags in either order.  Anything the count cannot follow (a path
 * without an end, a branch back after a PollSem, a register operand, an
 * op that writes the semaphore other than a GroupResetSemaphores, which
 * sets 0, a walk longer than CK_BOUND_WALK) leaves the semaphore out.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "ncsync_exec.h"
#include "ncsync_optab.h"

/* Records one count follows at most (passes skipped count once). */
#define CK_BOUND_WALK	(1U << 18)
/* Counts and sums saturate here: far past any signed 32-bit range. */
#define CK_BOUND_CAP	((uint64_t)1 << 40)

/* The last point of the count at a record: its index, registers. */
struct ck_bound_seen {
	bool on;
	uint32_t idx;
	uint32_t regs[NCSYNC_NUM_REGS];
};

/*
 * One slot's count: @runs per record, @trace the records in the order
 * the walk ran them, @seen per record its last point.
 */
struct ck_bound_walk {
	uint64_t *runs;
	uint32_t *trace;
	struct ck_bound_seen *seen;
	uint32_t jump;	/* the walk index of the last skip, or 0 */
};

/* What can change one semaphore in a run (global index, CK_G()). */
struct ck_bound_sum {
	bool any;	/* a change the count cannot bound */
	bool set;	/* a record sets it: @hi, @lo */
	int32_t hi;	/* the largest value a record sets */
	int32_t lo;	/* the least */
	uint64_t up;	/* every addition, saturated at CK_BOUND_CAP */
	uint64_t down;	/* every subtraction, alike */
};

static uint64_t ck_bound_add(uint64_t a, uint64_t n, uint64_t v)
{
	if (v && n > CK_BOUND_CAP / v)
		return CK_BOUND_CAP;
	a += n * v;
	return a < CK_BOUND_CAP ? a : CK_BOUND_CAP;
}

/*
 * Point @i of the walk at record @p->pc.  At a record the walk ran
 * before, with the registers moved by d, the passes that run alike on
 * that line (ck_path_pass_span()) run k - 1 more times: their records
 * count them, @p moves past them.  Only a pass without a skip of its own
 * is skipped (its records then ran once each).  False when the path runs
 * for ever: the same point again, or a pass alike for ever.
 */
static bool ck_bound_skip(const struct ck_prog *cp, unsigned int e,
			  struct ck_bound_walk *w, struct ck_point *p,
			  uint32_t i)
{
	struct ck_bound_seen *s = &w->seen[p->pc];
	uint32_t d[NCSYNC_NUM_REGS], moved = 0, t;
	unsigned int r;
	int64_t k = 0;

	if (s->on && w->jump <= s->idx) {
		for (r = 0; r < NCSYNC_NUM_REGS; r++)
			moved |= d[r] = p->regs[r] - s->regs[r];
		if (!moved)
			return false;
		k = ck_path_pass_span(cp, e, p->pc, s->regs, i - s->idx, d);
		if (k >= CK_LINE_FAR)
			return false;
	}
	if (k >= 2) {
		for (t = s->idx; t < i; t++)
			w->runs[w->trace[t]] = ck_bound_add(w->runs[w->trace[t]],
							    k - 1, 1);
		for (r = 0; r < NCSYNC_NUM_REGS; r++)
			p->regs[r] += (uint32_t)((uint64_t)(k - 1) * d[r]);
		w->jump = i;
	}
	s->on = true;
	s->idx = i;
	memcpy(s->regs, p->regs, sizeof(s->regs));
	return true;
}

/*
 * Past a PollSem at @pc the registers come from the banks: the path is
 * not followed.  Every record after it runs at most once more if no
 * branch among them goes back; false if one may.
 */
static bool ck_bound_tail(const struct ck_prog *cp, unsigned int e,
			  struct ck_bound_walk *w, uint32_t pc)
{
	uint32_t i, s[2];
	unsigned int k, n;

	for (i = pc + 1; i < cp->count[e]; i++) {
		n = ck_rec_succ(cp, e, i, s);
		for (k = 0; k < n; k++)
			if (s[k] <= i)
				return false;
	}
	for (i = pc + 1; i < cp->count[e]; i++)
		w->runs[i] = ck_bound_add(w->runs[i], 1, 1);
	return true;
}

/*
 * Count the runs of each record of slot @e on its path from record 0,
 * registers 0, into @w->runs.  False when the count is not bounded.
 */
static bool ck_bound_walk(const struct ck_prog *cp, unsigned int e,
			  struct ck_bound_walk *w)
{
	struct ck_point p = { .pc = 0 };
	const uint8_t *tail;
	uint32_t i;

	for (i = 0; i < CK_BOUND_WALK; i++) {
		if (!ck_bound_skip(cp, e, w, &p, i))
			return false;
		w->trace[i] = p.pc;
		w->runs[p.pc] = ck_bound_add(w->runs[p.pc], 1, 1);
		if (!ck_path_step(cp, e, &p, &tail))
			return !tail || ck_bound_tail(cp, e, w, p.pc);
	}
	return false;
}

/* Note update @u of a semaphore, run @n times, into its @sum. */
static void ck_bound_upd(struct ck_bound_sum *sum,
			 const struct ncsync_update_op *u, uint64_t n)
{
	int64_t v = (int32_t)u->operand;

	if (u->reg) {
		sum->any = true;
		return;
	}
	if (u->op == NCSYNC_SEM_UPD_SUB)
		v = -v;
	else if (u->op != NCSYNC_SEM_UPD_ADD) {
		if (!sum->set || v > sum->hi)
			sum->hi = v;
		if (!sum->set || v < sum->lo)
			sum->lo = v;
		sum->set = true;
		return;
	}
	if (v >= 0)
		sum->up = ck_bound_add(sum->up, n, v);
	else
		sum->down = ck_bound_add(sum->down, n, -v);
}

/* Note what record @in of slot @e, run @n times, does to the semaphores. */
static void ck_bound_insn(const struct ck_prog *cp, unsigned int e,
			  const struct ncsync_insn *in, uint64_t n,
			  struct ck_bound_sum *sum)
{
	static const struct ncsync_update_op zero = {
		.active = true, .op = NCSYNC_SEM_UPD_SET,
	};
	struct ncsync_footprint fp;
	unsigned int l, i, c;

	for (l = 0; l < in->nlanes; l++) {
		const struct ncsync_update_op *u = &in->lane[l].upd;

		if (!u->active || u->bank != NCSYNC_BANK_SEM)
			continue;
		c = u->on_land ? ck_land_core(cp, e, in) : cp->core[e];
		ck_bound_upd(&sum[CK_G(c, u->index)], u, n);
	}
	if (!ncsync_op_has(in->opcode, NCSYNC_OPF_SEM_WRITE))
		return;
	/* A GroupResetSemaphores sets 0; another op's write is not bounded. */
	ncsync_op_footprint(in, &fp);
	for (i = 0; i < NCSYNC_NUM_SEMS; i++) {
		if (!ncsync_footprint_sem(fp.sem_write, i))
			continue;
		if (in->effect == NCSYNC_EFF_GROUP_RESET &&
		    ncsync_group_reset_clears(in, i))
			ck_bound_upd(&sum[CK_G(cp->core[e], i)], &zero, n);
		else
			sum[CK_G(cp->core[e], i)].any = true;
	}
}

/*
 * Note slot @e's records into @sum, each as often as it runs; a slot
 * whose count is not bounded makes every semaphore it adds to or
 * subtracts from unbounded.
 */
static int ck_bound_slot(const struct ck_prog *cp, unsigned int e,
			 struct ck_bound_sum *sum)
{
	struct ck_bound_walk w = { .jump = 0 };
	uint64_t lots = CK_BOUND_CAP;
	int ret = -ENOMEM;
	uint32_t pc;

	if (!cp->count[e])
		return 0;
	w.runs = calloc(cp->count[e], sizeof(*w.runs));
	w.seen = calloc(cp->count[e], sizeof(*w.seen));
	w.trace = malloc(CK_BOUND_WALK * sizeof(*w.trace));
	if (w.runs && w.seen && w.trace) {
		if (ck_bound_walk(cp, e, &w))
			lots = 0;
		for (pc = 0; pc < cp->count[e]; pc++)
			if (w.runs[pc] || lots)
				ck_bound_insn(cp, e, &cp->insns[e][pc],
					      lots ?: w.runs[pc], sum);
		ret = 0;
	}
	free(w.runs);
	free(w.seen);
	free(w.trace);
	return ret;
}

/**
 * ck_bound_init() - which semaphores no run can overflow
 *	(ck_prog.sem_nowrap).
 * @cp: a program ck_prog_init() decoded.
 * @sems: the initial value of each semaphore of every core, or NULL (0).
 *
 * Return: 0 or -ENOMEM.
 */
int ck_bound_init(struct ck_prog *cp, const int32_t *sems)
{
	struct ck_bound_sum *sum = calloc(CK_MAX_SEMS, sizeof(*sum));
	int64_t hi, lo;
	unsigned int e, d, g;
	int ret = 0;

	memset(cp->sem_nowrap, 0, sizeof(cp->sem_nowrap));
	if (!sum)
		return -ENOMEM;
	for (e = 0; e < cp->n && !ret; e++)
		ret = ck_bound_slot(cp, e, sum);
	for (d = 0; d < cp->nsem_used && !ret; d++) {
		g = cp->sem_used[d];
		hi = sems ? sems[g % NCSYNC_NUM_SEMS] : 0;
		lo = hi;
		if (sum[g].set && sum[g].hi > hi)
			hi = sum[g].hi;
		if (sum[g].set && sum[g].lo < lo)
			lo = sum[g].lo;
		cp->sem_nowrap[d] = !sum[g].any &&
				    hi + (int64_t)sum[g].up <= INT32_MAX &&
				    lo - (int64_t)sum[g].down >= INT32_MIN;
	}
	free(sum);
	return ret;
}
