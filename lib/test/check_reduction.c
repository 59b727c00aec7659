// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * The reduction of ncsync_check() is sound: on random small programs the
 * search with it reaches the same states without a step (every engine
 * ended, or a deadlock), the same defect kinds and the same verdict as the
 * search without it, which explores every enabled step of every state.
 * And it does reduce: together the reduced searches visit fewer states.
 * The second set loops each engine over an all-engine barrier (both
 * lowerings), where the path-sensitive futures (check_path.c) let the
 * arrivals commute: an epoch's re-arm is on the path only at its boundary.
 * The third runs programs across two cores, two or three engines each,
 * whose copies land on the peer: the persistent sets by groups of actors
 * (check_stub.c) take a core's engines, or the copies, together.  One
 * program in four starts its semaphores at the bounds of their range.
 */
#include <stdio.h>

#include "check.h"
#include "check_random.h"
#include "check_test.h"

/* Sort and drop repeats; the number left. */
static size_t uniq(struct ck_finals *f)
{
	return f->n = ck_uniq_hashes(f->h, f->n);
}

/*
 * @near: programs compared from initial values at the bounds, @ovf those
 * of them where both searches found an overflow.
 */
struct totals {
	struct ck_tally n;
	uint64_t reduced, full;
	unsigned int calls, near, ovf;
};

/*
 * One program in four starts with sem[1] .. sem[3] within 3 of INT32_MAX
 * or INT32_MIN: additions, subtractions and waits there commute only
 * where no run overflows (lib/src/check_bound.c).
 */
static void near_bounds(struct ncsync_check_opts *o, struct totals *t)
{
	unsigned int k;

	if (t->calls++ % 4 != 3)
		return;
	for (k = 1; k <= 3; k++)
		o->sems[k] = ck_rnd(2) ? INT32_MAX - (int32_t)ck_rnd(4) :
					 INT32_MIN + (int32_t)ck_rnd(4);
	t->near++;
}

/*
 * Check the program of @n parts both ways: 1 when the two agree, 0 when
 * not, -1 when a search was cut short.
 */
static int compare_parts(const struct ncsync_asm_part *parts, unsigned int n,
			 uint32_t flags, struct totals *t)
{
	struct ck_finals fr = { 0 }, ff = { 0 };
	struct ncsync_check_result *rr = NULL, *rf = NULL;
	struct ncsync_check_opts o;
	int same;

	ncsync_check_opts_init(&o);
	o.flags = flags;
	o.max_states = 20000;
	near_bounds(&o, t);
	same = !ncsync_check_run(parts, n, &o, false, &fr, &rr) &&
	       !ncsync_check_run(parts, n, &o, true, &ff, &rf);
	/*
	 * A counter that grows for ever, or copies piling up: a search cut
	 * short; not compared.
	 */
	if (same && (!ncsync_check_complete(rr) ||
		     !ncsync_check_complete(rf))) {
		same = -1;
		goto out;
	}
	same = same &&
	       ncsync_check_verdict(rr) == ncsync_check_verdict(rf) &&
	       ck_kinds(rr) == ck_kinds(rf) && uniq(&fr) == uniq(&ff) &&
	       (!fr.n || !memcmp(fr.h, ff.h, 2 * fr.n * sizeof(uint64_t)));
	t->reduced += ncsync_check_states(rr);
	t->full += ncsync_check_states(rf);
	t->ovf += same && o.sems[1] &&
		  ck_find(rr, NCSYNC_DEFECT_OVERFLOW) != NULL;
out:
	free(fr.h);
	free(ff.h);
	free(fr.ended);
	free(ff.ended);
	ncsync_check_free(rr);
	ncsync_check_free(rf);
	return same;
}

static int compare(struct ncsync_program *p, uint32_t flags, void *arg)
{
	struct ncsync_asm_part part = { .prog = p };

	return compare_parts(&part, 1, flags, arg);
}

/*
 * @n random programs across two cores (ck_random_cores()), half with
 * --dma-fifo, compared; the totals in @t.
 */
static void run_cores(unsigned int n, struct totals *t)
{
	struct ncsync_asm_part parts[NCSYNC_MAX_LNC];
	struct ncsync_asm_error err;
	char text[4096];
	unsigned int i;
	int np, j, same;

	for (i = 0; i < n; i++) {
		ck_random_cores(text, sizeof(text), false);
		np = ck_build_cores(text, parts, &err);
		if (np <= 0) {
			TAP_CHECK(0, "build: %d at %u:%u: %s\n%s", np, err.line,
				  err.col, err.msg, text);
			t->n.bad++;
			continue;
		}
		same = compare_parts(parts, np, i & 1 ?
				     NCSYNC_CHECK_F_DMA_FIFO : 0, t);
		t->n.programs++;
		t->n.same += same > 0;
		t->n.open += same < 0;
		if (!same) {
			t->n.bad++;
			fprintf(stderr, "# differs:\n%s", text);
		}
		for (j = 0; j < np; j++)
			ncsync_program_free(parts[j].prog);
	}
}

/* @n random lines for each of @ne engines, in sections of @label. */
static size_t random_sections(char *text, size_t len, size_t off,
			      unsigned int ne, const char *label,
			      unsigned int n, const char *last)
{
	static const char *const engines[] = { "pool", "act", "pe" };
	unsigned int e, i;
	char line[96];

	for (e = 0; e < ne; e++) {
		off += snprintf(text + off, len - off, "engine %s\n%s",
				engines[e], label);
		for (i = 0; i < n; i++) {
			do {	/* no branch, exit or r1 of the loop's own */
				ck_random_line(line, sizeof(line));
			} while (strstr(line, "r1") || strstr(line, "exit"));
			off += snprintf(text + off, len - off, "\t%s\n", line);
		}
		off += snprintf(text + off, len - off, "%s", last);
	}
	return off;
}

/*
 * Every engine counts passes in r1 around a barrier: random lines before
 * and after it, events among them (on events of their own, apart from
 * the ones the events lowering takes for the barrier).
 */
static void random_loop_program(char *text, size_t len)
{
	unsigned int ne = 2 + ck_rnd(2);
	size_t off;

	off = random_sections(text, len, 0, ne, "", 0, "\tmovi r1, 0\n");
	off = random_sections(text, len, off, ne, "top:\taddi r1, r1, 1\n",
			      ck_rnd(2), "");
	off += snprintf(text + off, len - off, "barrier\n");
	random_sections(text, len, off, ne, "", ck_rnd(2),
			"\tbr.lt.u32 r1, 2, top\n");
}

/* @n programs of @gen, lowered @how, compared; the totals in @t. */
static void run_set(unsigned int n, void (*gen)(char *, size_t),
		    bool alternate, struct totals *t)
{
	char text[4096];
	unsigned int i;

	for (i = 0; i < n; i++) {
		gen(text, sizeof(text));
		ck_tally_text(&t->n, text, alternate && (i & 2) ?
			      NCSYNC_LOWER_EVENTS : NCSYNC_LOWER_COUNTER,
			      i & 1 ? NCSYNC_CHECK_F_DMA_FIFO : 0, compare, t);
	}
}

int main(int argc, char **argv)
{
	unsigned int n = argc > 1 ? atoi(argv[1]) : 400;
	struct totals t = { 0 }, l = { 0 };

	run_set(n, ck_random_program, false, &t);
	TAP_CHECK(t.n.programs == n && !t.n.bad && t.n.same >= n * 3 / 4 &&
		  t.ovf,
		  "%u random programs: the reduced search reaches the same final "
		  "states, defects and verdict as the full one in all %u that "
		  "end (%u cut short by a limit; %u from values at the bounds, "
		  "%u of them with an overflow)", n, t.n.same, t.n.open,
		  t.near, t.ovf);
	TAP_CHECK(t.reduced < t.full,
		  "the reduction explores fewer states: %llu instead of %llu",
		  (unsigned long long)t.reduced, (unsigned long long)t.full);
	run_set(n / 4, random_loop_program, true, &l);
	TAP_CHECK(l.n.programs == n / 4 && !l.n.bad && l.n.same >= n / 8,
		  "%u random loops over a barrier, both lowerings: the same final states, defects and verdict in all %u that end (%u cut short by a limit)",
		  n / 4, l.n.same, l.n.open);
	TAP_CHECK(l.reduced < l.full,
		  "the reduction explores fewer states there: %llu instead of %llu",
		  (unsigned long long)l.reduced, (unsigned long long)l.full);
	memset(&l, 0, sizeof(l));
	run_cores(n / 2, &l);
	TAP_CHECK(l.n.programs == n / 2 && !l.n.bad && l.n.same >= n / 4,
		  "%u random programs across two cores, with copies to the peer: the same final states, defects and verdict in all %u that end (%u cut short by a limit)",
		  n / 2, l.n.same, l.n.open);
	TAP_CHECK(l.reduced < l.full,
		  "the persistent sets explore fewer states there: %llu instead of %llu",
		  (unsigned long long)l.reduced, (unsigned long long)l.full);
	return tap_done();
}
