// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * libncsync: the symmetry reduction of ncsync_check()
 * (Documentation/ncsync/check.rst, "Symmetry").
 *
 * Engines of one core that run the same records are interchangeable: the
 * executor (check_exec.c) reads a slot only through its records, its core
 * and its state, so exchanging two such slots' states, and the issuers of
 * their copies in flight, maps every schedule to a schedule and every
 * defect to a defect of the same kind.  ck_sym_init() finds the classes of
 * such slots; ck_sym_hash() hashes a state as the member of its orbit
 * whose engines of each class are in order, so that the visited set keeps
 * one state per orbit.  The states the search steps are never permuted:
 * its schedules are real ones.
 */
#include <stddef.h>
#include <string.h>

#include "check.h"

/*
 * Whether slots @a and @b are interchangeable: on one core, with the same
 * records, byte for byte.  Everything else the executor knows of a slot
 * (its state's initial value, the banks, the peers its copies land on) is
 * a function of these.
 */
static bool ck_sym_same(const struct ck_prog *cp, unsigned int a,
			unsigned int b)
{
	const struct ncsync_program *p = cp->prog[cp->core[a]];
	const struct ncsync_stream *sa = p->streams[cp->engine[a]];
	const struct ncsync_stream *sb = p->streams[cp->engine[b]];

	return cp->core[a] == cp->core[b] && sa->count == sb->count &&
	       !memcmp(sa->recs, sb->recs,
		       (size_t)sa->count * NCSYNC_RECORD_SIZE);
}

/**
 * ck_sym_init() - find the classes of interchangeable slots of @cp.
 * @sy: the classes found; nclass 0 when every slot is alone.
 * @cp: the decoded program.
 */
void ck_sym_init(struct ck_sym *sy, const struct ck_prog *cp)
{
	bool taken[CK_MAX_SLOTS] = { false };
	unsigned int e, f, n = 0, start;

	memset(sy, 0, sizeof(*sy));
	for (e = 0; e < cp->n; e++) {
		if (taken[e])
			continue;
		start = n;
		sy->slots[n++] = e;
		for (f = e + 1; f < cp->n; f++)
			if (!taken[f] && ck_sym_same(cp, e, f)) {
				taken[f] = true;
				sy->slots[n++] = f;
			}
		if (n - start < 2) {
			n = start;
			continue;
		}
		sy->first[sy->nclass++] = start;
	}
	sy->first[sy->nclass] = n;
}

/**
 * ck_sym_refine() - split the classes of @in by an equivalence of slots.
 * @out: the classes of two or more slots that @same holds between; nclass
 *	0 when none is left.
 * @in: the classes to split.
 * @same: whether two slots of a class of @in stay interchangeable; it must
 *	be an equivalence on each class.
 * @arg: passed to @same.
 *
 * The search on the classes of a loop (check_accel.c) keeps the slots
 * whose shift and outcomes at the loop's head are the same
 * (Documentation/ncsync/check.rst, "Symmetry", "On the classes of a
 * loop").
 */
void ck_sym_refine(struct ck_sym *out, const struct ck_sym *in,
		   bool (*same)(const void *arg, unsigned int a,
				unsigned int b),
		   const void *arg)
{
	bool taken[CK_MAX_SLOTS] = { false };
	unsigned int c, i, j, n = 0, start;

	memset(out, 0, sizeof(*out));
	for (c = 0; c < in->nclass; c++) {
		for (i = in->first[c]; i < in->first[c + 1]; i++) {
			if (taken[i])
				continue;
			start = n;
			out->slots[n++] = in->slots[i];
			for (j = i + 1; j < in->first[c + 1]; j++)
				if (!taken[j] &&
				    same(arg, in->slots[i], in->slots[j])) {
					taken[j] = true;
					out->slots[n++] = in->slots[j];
				}
			if (n - start < 2)
				n = start;
			else
				out->first[out->nclass++] = start;
		}
	}
	out->first[out->nclass] = n;
}

/*
 * The records of the copies in flight slot @e issued, in the order kept
 * (by record without --dma-fifo), with --dma-fifo their places too.
 */
static unsigned int ck_sym_copies(const struct ck_prog *cp,
				  const struct ck_state *st, unsigned int e,
				  uint64_t *key)
{
	unsigned int i, n = 0;

	for (i = 0; i < st->ncopies; i++)
		if (st->copies[i].eng == e)
			key[n++] = (uint64_t)(cp->fifo ? i : 0) << 32 |
				   st->copies[i].rec;
	return n;
}

/* ck_sym_cmp() compares the fields before @issued with one memcmp(). */
_Static_assert(offsetof(struct ck_eng, pc) == 0 &&
	       offsetof(struct ck_eng, issued) ==
	       offsetof(struct ck_eng, next) + sizeof(uint32_t) &&
	       offsetof(struct ck_eng, regs) >
	       offsetof(struct ck_eng, issued),
	       "struct ck_eng: pc .. next, then issued, then regs");

/*
 * The order of two slots' engines: their state (not the copy count
 * @issued, which only names copies), then the copies in flight each
 * issued, by record (with --dma-fifo, by place and record).  0 only when
 * exchanging the two changes nothing the hash covers.
 */
static int ck_sym_cmp(const struct ck_prog *cp, const struct ck_state *st,
		      unsigned int a, unsigned int b)
{
	const struct ck_eng *x = &st->eng[a], *y = &st->eng[b];
	uint64_t ka[CK_MAX_COPIES], kb[CK_MAX_COPIES];
	unsigned int i, n;
	int d;

	d = memcmp(&x->pc, &y->pc, offsetof(struct ck_eng, issued));
	if (!d)
		d = memcmp(x->regs, y->regs, sizeof(x->regs));
	if (d || !x->inflight)
		return d;
	/* As many in flight (@inflight is compared): place by place. */
	n = ck_sym_copies(cp, st, a, ka);
	ck_sym_copies(cp, st, b, kb);
	for (i = 0; i < n; i++)
		if (ka[i] != kb[i])
			return ka[i] < kb[i] ? -1 : 1;
	return 0;
}

/**
 * ck_sym_hash() - the hash of @st's orbit under the classes of @sy.
 * @cp: the decoded program.
 * @sy: its classes.
 * @st: the state.
 * @h: the hash: that of @st with the engines of each class in order.
 *
 * Two states get the same hash only when one is the other with some
 * engines of a class exchanged (up to a collision of the 128-bit hash, as
 * for every state); states that only differ so get the same hash unless
 * two engines compare equal while their copies differ.
 */
void ck_sym_hash(const struct ck_prog *cp, const struct ck_sym *sy,
		 const struct ck_state *st, uint64_t h[2])
{
	uint8_t order[CK_MAX_SLOTS];
	unsigned int c, i, j;

	if (!sy || !sy->nclass) {
		ck_hash(cp, st, h);
		return;
	}
	for (i = 0; i < cp->n; i++)
		order[i] = i;
	for (c = 0; c < sy->nclass; c++) {
		uint8_t k[CK_MAX_SLOTS];
		unsigned int lo = sy->first[c], n = sy->first[c + 1] - lo;

		/* Insertion sort: a class holds at most 16 slots. */
		for (i = 0; i < n; i++) {
			uint8_t s = sy->slots[lo + i];

			for (j = i; j && ck_sym_cmp(cp, st, k[j - 1], s) > 0; j--)
				k[j] = k[j - 1];
			k[j] = s;
		}
		for (i = 0; i < n; i++)
			order[sy->slots[lo + i]] = k[i];
	}
	ck_hash_order(cp, st, order, h);
}

/**
 * ck_sym_out() - the classes of @sy as the result reports them.
 * @cp: the decoded program.
 * @sy: its classes.
 * @out: the engines of each class, by core position and engine id.
 */
void ck_sym_out(const struct ck_prog *cp, const struct ck_sym *sy,
		struct ncsync_check_symmetry *out)
{
	unsigned int c, i;

	memset(out, 0, sizeof(*out));
	out->nclasses = sy->nclass;
	for (c = 0; c < sy->nclass; c++) {
		for (i = sy->first[c]; i < sy->first[c + 1]; i++) {
			unsigned int e = sy->slots[i];

			out->core[out->nmembers] = cp->pos[cp->core[e]];
			out->engine[out->nmembers] = cp->engine[e];
			out->cls[out->nmembers++] = c;
		}
	}
}
