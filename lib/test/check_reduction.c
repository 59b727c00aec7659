// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * The reduction of ncsync_check() is sound: on random small programs the
 * search with it reaches the same states without a step (every engine
 * ended, or a deadlock), the same defect kinds and the same verdict as the
 * search without it, which explores every enabled step of every state.
 * And it does reduce: together the reduced searches visit fewer states.
 */
#include <stdio.h>

#include "check.h"
#include "check_random.h"
#include "check_test.h"

/* Sort and drop repeats; the number left. */
static size_t uniq(struct ck_finals *f)
{
	size_t i, n = 0;

	if (!f->n)
		return 0;
	qsort(f->h, f->n, 2 * sizeof(uint64_t), ck_cmp_hash);
	for (i = 0; i < f->n; i++)
		if (!n || ck_cmp_hash(f->h + 2 * i, f->h + 2 * (n - 1))) {
			f->h[2 * n] = f->h[2 * i];
			f->h[2 * n + 1] = f->h[2 * i + 1];
			n++;
		}
	return f->n = n;
}

static unsigned int kinds_of(const struct ncsync_check_result *res)
{
	unsigned int i, k = 0;

	for (i = 0; i < ncsync_check_ndefects(res); i++)
		k |= 1U << ncsync_check_defect(res, i)->kind;
	return k;
}

struct totals {
	unsigned int programs, same, bad, open;
	uint64_t reduced, full;
};

/*
 * Check one program both ways: 1 when the two agree, 0 when not, -1 when a
 * search was cut short.
 */
static int compare(struct ncsync_program *p, uint32_t flags,
		    struct totals *t)
{
	struct ck_finals fr = { 0 }, ff = { 0 };
	struct ncsync_asm_part part = { .prog = p };
	struct ncsync_check_result *rr = NULL, *rf = NULL;
	struct ncsync_check_opts o;
	int same;

	ncsync_check_opts_init(&o);
	o.flags = flags;
	o.max_states = 20000;
	same = !ncsync_check_run(&part, 1, &o, false, &fr, &rr) &&
	       !ncsync_check_run(&part, 1, &o, true, &ff, &rf);
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
	       kinds_of(rr) == kinds_of(rf) && uniq(&fr) == uniq(&ff) &&
	       (!fr.n || !memcmp(fr.h, ff.h, 2 * fr.n * sizeof(uint64_t)));
	t->reduced += ncsync_check_states(rr);
	t->full += ncsync_check_states(rf);
out:
	free(fr.h);
	free(ff.h);
	free(fr.ended);
	free(ff.ended);
	ncsync_check_free(rr);
	ncsync_check_free(rf);
	return same;
}

int main(int argc, char **argv)
{
	unsigned int n = argc > 1 ? atoi(argv[1]) : 400, i;
	struct totals t = { 0 };
	char text[2048];
	int ret;

	for (i = 0; i < n; i++) {
		struct ncsync_program *p;

		ck_random_program(text, sizeof(text));
		p = ck_build(text, NCSYNC_LOWER_COUNTER);
		if (!p)
			continue;
		t.programs++;
		ret = compare(p, i & 1 ? NCSYNC_CHECK_F_DMA_FIFO : 0, &t);
		if (ret > 0)
			t.same++;
		else if (ret < 0)
			t.open++;
		else if (!t.bad++)
			printf("# differs:\n%s", text);
		ncsync_program_free(p);
	}
	TAP_CHECK(t.programs == n && !t.bad && t.same >= n * 3 / 4,
		  "%u random programs: the reduced search reaches the same final "
		  "states, defects and verdict as the full one in all %u that "
		  "end (%u cut short by a limit)", n, t.same, t.open);
	TAP_CHECK(t.reduced < t.full,
		  "the reduction explores fewer states: %llu instead of %llu",
		  (unsigned long long)t.reduced, (unsigned long long)t.full);
	return tap_done();
}
