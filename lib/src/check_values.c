// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * libncsync: the values each semaphore and event takes in the states a
 * search reaches, and the waits it finds blocked, to decide unposted-wait
 * on the reachable states (Documentation/ncsync/check.rst, "Defects").
 *
 * A complete search notes, for every semaphore and event a record names,
 * each value it holds in a state reached, and every wait it finds blocked
 * (its engine, record, lane and threshold).  A blocked wait whose test
 * holds for none of the values its semaphore (or event) takes is one that
 * nothing in the program can ever make true: ck_values_decide() keeps it,
 * and the search run again reports it with its schedule.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "ncsync_exec.h"

/* A key of a set: never 0. */
static uint64_t ck_val_key(unsigned int d, int32_t v)
{
	return ((uint64_t)(d + 1) << 32) | ((uint32_t)v ^ 0x80000000U);
}

/*
 * A blocked wait: slot + 1 (5 bits), lane, record (26 bits: a stream has
 * at most NCSYNC_MAX_RECORDS), threshold; never 0.
 */
static uint64_t ck_wait_key(unsigned int e, unsigned int lane, uint32_t pc,
			    int32_t thr)
{
	return ((uint64_t)(((e + 1U) << 27) | (lane << 26) | pc) << 32) |
	       (uint32_t)thr;
}

static size_t ck_set_slot(const struct ck_set *s, uint64_t k)
{
	size_t j = (k * 0x9e3779b97f4a7c15ULL) >> 20;

	for (j &= s->cap - 1; s->keys[j] && s->keys[j] != k;
	     j = (j + 1) & (s->cap - 1))
		;
	return j;
}

/* Double @s, within @avail bytes more (the old table counted too). */
static int ck_set_grow(struct ck_set *s, size_t avail)
{
	struct ck_set n = { .cap = s->cap ? 2 * s->cap : 1024 };
	size_t i;

	if (n.cap * sizeof(*n.keys) > avail)
		return -ENOSPC;
	n.keys = calloc(n.cap, sizeof(*n.keys));
	if (!n.keys)
		return -ENOMEM;
	for (i = 0; i < s->cap; i++)
		if (s->keys[i])
			n.keys[ck_set_slot(&n, s->keys[i])] = s->keys[i];
	n.n = s->n;
	free(s->keys);
	*s = n;
	return 0;
}

/* Add @k to @s: 0, -ENOSPC (the memory limit) or -ENOMEM. */
static int ck_set_add(struct ck_set *s, uint64_t k, size_t avail)
{
	size_t j;
	int ret;

	if (2 * (s->n + 1) > s->cap) {
		ret = ck_set_grow(s, avail);
		if (ret)
			return ret;
	}
	j = ck_set_slot(s, k);
	if (!s->keys[j]) {
		s->keys[j] = k;
		s->n++;
	}
	return 0;
}

static bool ck_set_has(const struct ck_set *s, uint64_t k)
{
	return s->cap && s->keys[ck_set_slot(s, k)] == k;
}

size_t ck_values_mem(const struct ck_values *v)
{
	return (v->vals.cap + v->waits.cap) * sizeof(uint64_t) +
	       v->nsorted * sizeof(*v->sorted);
}

void ck_values_fini(struct ck_values *v)
{
	free(v->vals.keys);
	free(v->waits.keys);
	free(v->sorted);
	free(v->first);
	free(v->unposted.keys);
	memset(v, 0, sizeof(*v));
}

static int32_t ck_sem(const struct ck_state *st, unsigned int g)
{
	return st->bank[g / NCSYNC_NUM_SEMS].sems[g % NCSYNC_NUM_SEMS];
}

/*
 * Note the values of @st that @parent (the state before its step, or NULL
 * for the initial state) did not have: the step changed only those.
 */
int ck_values_state(struct ck_values *v, const struct ck_prog *cp,
		    const struct ck_state *st, const struct ck_state *parent,
		    size_t avail)
{
	unsigned int d, g;
	int ret;

	for (d = 0; d < cp->nsem_used; d++) {
		g = cp->sem_used[d];
		if (parent && ck_sem(parent, g) == ck_sem(st, g))
			continue;
		ret = ck_set_add(&v->vals, ck_val_key(d, ck_sem(st, g)), avail);
		if (ret)
			return ret;
	}
	for (d = 0; d < cp->nev_used; d++) {
		g = cp->ev_used[d];
		v->ev[d] |= 1U << st->bank[g / NCSYNC_NUM_EVENTS]
				     .events[g % NCSYNC_NUM_EVENTS];
	}
	return 0;
}

/* The key of the wait slot @e blocks in, in @st. */
static uint64_t ck_blocked_key(const struct ck_prog *cp,
			       const struct ck_state *st, unsigned int e)
{
	const struct ck_eng *x = &st->eng[e];
	const struct ncsync_wait_op *w = &ck_insn(cp, st, e)->lane[x->sub].wait;

	return ck_wait_key(e, x->sub, x->pc, w->bank == NCSYNC_BANK_SEM ?
			   ncsync_wait_threshold(w, x->regs) : 0);
}

int ck_values_blocked(struct ck_values *v, const struct ck_prog *cp,
		      const struct ck_state *st, unsigned int e, size_t avail)
{
	return ck_set_add(&v->waits, ck_blocked_key(cp, st, e), avail);
}

bool ck_values_unposted(const struct ck_values *v, const struct ck_prog *cp,
			const struct ck_state *st, unsigned int e)
{
	return ck_set_has(&v->unposted, ck_blocked_key(cp, st, e));
}

static int ck_u64_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static int32_t ck_key_value(uint64_t k)
{
	return (int32_t)((uint32_t)k ^ 0x80000000U);
}

/* The index in ck_prog.ev_used of event @g (CK_G()). */
static unsigned int ck_ev_dense(const struct ck_prog *cp, unsigned int g)
{
	unsigned int d;

	for (d = 0; d < cp->nev_used && cp->ev_used[d] != g; d++)
		;
	return d;
}

/* Whether wait @w of slot @e, with threshold @thr, holds for a value. */
static bool ck_can_pass(const struct ck_values *v, const struct ck_prog *cp,
			unsigned int e, const struct ncsync_wait_op *w,
			int32_t thr)
{
	unsigned int d;
	size_t lo, hi;
	uint64_t k;

	if (w->bank == NCSYNC_BANK_EVENT) {
		d = ck_ev_dense(cp, CK_G(cp->core[e], w->index));
		return d < cp->nev_used && (v->ev[d] >> w->want) & 1;
	}
	d = cp->sem_dense[CK_G(cp->core[e], w->index)];
	lo = v->first[d];
	hi = v->first[d + 1];
	if (lo == hi)
		return true;	/* not followed: never decide on it */
	if (w->cmp != NCSYNC_CMP_EQ)	/* monotone: the extremes tell */
		return ncsync_wait_sem_passes(w, ck_key_value(v->sorted[lo]),
					      thr) ||
		       ncsync_wait_sem_passes(w,
					      ck_key_value(v->sorted[hi - 1]),
					      thr);
	k = ck_val_key(d, thr);
	return bsearch(&k, v->sorted + lo, hi - lo, sizeof(k), ck_u64_cmp);
}

/* The values in order, and where each semaphore's start in them. */
static int ck_values_sort(struct ck_values *v, const struct ck_prog *cp)
{
	size_t i, n = 0;

	v->sorted = malloc((v->vals.n ? v->vals.n : 1) * sizeof(*v->sorted));
	v->first = calloc(cp->nsem_used + 1, sizeof(*v->first));
	if (!v->sorted || !v->first)
		return -ENOMEM;
	for (i = 0; i < v->vals.cap; i++)
		if (v->vals.keys[i])
			v->sorted[n++] = v->vals.keys[i];
	v->nsorted = n;
	qsort(v->sorted, n, sizeof(*v->sorted), ck_u64_cmp);
	for (i = 0; i < n; i++)
		v->first[(v->sorted[i] >> 32)]++;
	for (i = 0; i < cp->nsem_used; i++)
		v->first[i + 1] += v->first[i];
	return 0;
}

/*
 * At the end of a complete search: keep the blocked waits whose test holds
 * for no value their semaphore or event took.  Return how many, or
 * -ENOMEM.
 */
int ck_values_decide(struct ck_values *v, const struct ck_prog *cp)
{
	const struct ncsync_wait_op *w;
	unsigned int e, lane;
	uint32_t pc;
	size_t i;
	int ret;

	ret = ck_values_sort(v, cp);
	for (i = 0; !ret && i < v->waits.cap; i++) {
		uint64_t k = v->waits.keys[i];

		if (!k)
			continue;
		e = (k >> 59) - 1;
		lane = (k >> 58) & 1;
		pc = (k >> 32) & ((1U << 26) - 1);
		w = &cp->insns[e][pc].lane[lane].wait;
		if (!ck_can_pass(v, cp, e, w, (int32_t)(uint32_t)k))
			ret = ck_set_add(&v->unposted, k, SIZE_MAX);
	}
	return ret ? ret : (int)v->unposted.n;
}

/*
 * The values the semaphore (or event) slot @e waits on in @st took, in
 * order, malloc'd into *@out; -ENOMEM.
 */
int ck_values_of(const struct ck_values *v, const struct ck_prog *cp,
		 const struct ck_state *st, unsigned int e, int32_t **out,
		 uint32_t *n)
{
	const struct ncsync_wait_op *w =
		&ck_insn(cp, st, e)->lane[st->eng[e].sub].wait;
	unsigned int d, b;
	size_t i;

	*n = 0;
	*out = malloc(2 * sizeof(**out) +
		      v->nsorted * sizeof(**out));
	if (!*out)
		return -ENOMEM;
	if (w->bank == NCSYNC_BANK_EVENT) {
		d = ck_ev_dense(cp, CK_G(cp->core[e], w->index));
		for (b = 0; b < 2; b++)
			if (d < cp->nev_used && (v->ev[d] >> b) & 1)
				(*out)[(*n)++] = b;
		return 0;
	}
	d = cp->sem_dense[CK_G(cp->core[e], w->index)];
	for (i = v->first[d]; i < v->first[d + 1]; i++)
		(*out)[(*n)++] = ck_key_value(v->sorted[i]);
	return 0;
}
