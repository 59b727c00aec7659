/* SPDX-License-Identifier: LGPL-2.1-or-later OR MIT */
/*
 * Helpers of the ncsync_check() tests: a program from text, checked, and
 * the replay of a defect's schedule.
 */
#ifndef NCSYNC_TEST_CHECK_H
#define NCSYNC_TEST_CHECK_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ncsync.h"
#include "tap.h"

/* Assemble, lower and finalize @text; NULL (and a failed test) if not. */
static inline struct ncsync_program *ck_build(const char *text,
				       enum ncsync_barrier_lowering how)
{
	struct ncsync_program *p = NULL;
	struct ncsync_asm_error err;
	int ret;

	ret = ncsync_asm(text, &p, &err);
	if (!ret)
		ret = ncsync_program_lower(p, how);
	if (!ret)
		ret = ncsync_program_finalize(p);
	if (ret) {
		TAP_CHECK(0, "build: %d at %u:%u: %s", ret, err.line, err.col,
			  err.msg);
		ncsync_program_free(p);
		return NULL;
	}
	return p;
}

/*
 * The parts of @text's "core N" statements, each lowered for a logical
 * core of two cores and finalized, into @parts: their number, or 0 or a
 * negative errno (@err says where), the parts then freed.
 */
static inline int ck_build_cores(const char *text,
				 struct ncsync_asm_part *parts,
				 struct ncsync_asm_error *err)
{
	int n, i, ret = 0;

	n = ncsync_asm_cores(text, parts, NCSYNC_MAX_LNC, err);
	for (i = 0; i < n && !ret; i++)
		ret = ncsync_program_set_lnc(parts[i].prog, 2) ?:
		      ncsync_program_lower(parts[i].prog,
					   NCSYNC_LOWER_COUNTER) ?:
		      ncsync_program_finalize(parts[i].prog);
	if (!ret)
		return n;
	for (i = 0; i < n; i++)
		ncsync_program_free(parts[i].prog);
	return ret;
}

/* The defect of @kind in @res, or NULL. */
static inline const struct ncsync_check_defect *
ck_find(const struct ncsync_check_result *res, unsigned int kind)
{
	unsigned int i;

	for (i = 0; i < ncsync_check_ndefects(res); i++)
		if (ncsync_check_defect(res, i)->kind == kind)
			return ncsync_check_defect(res, i);
	return NULL;
}

/* The defect kinds of @res, a bit each (1U << kind). */
static inline unsigned int ck_kinds(const struct ncsync_check_result *res)
{
	unsigned int i, k = 0;

	for (i = 0; i < ncsync_check_ndefects(res); i++)
		k |= 1U << ncsync_check_defect(res, i)->kind;
	return k;
}

/* The last state of a replay. */
static inline int ck_keep_last(void *arg, size_t i,
			const struct ncsync_check_state *st)
{
	memcpy(arg, st, sizeof(*st));
	return 0;
}

/* Whether the schedule of @d, replayed, reaches exactly d->state. */
static inline bool ck_replays(const struct ncsync_program *p,
		       const struct ncsync_check_opts *o,
		       const struct ncsync_check_defect *d)
{
	struct ncsync_check_state *last = malloc(sizeof(*last));
	size_t done = 0;
	bool ok;

	ok = last && !ncsync_check_replay(p, o, d->steps, d->nsteps,
					  ck_keep_last, last, &done) &&
	     done == d->nsteps && !memcmp(last, &d->state, sizeof(*last));
	free(last);
	return ok;
}

/* What a differential test of ncsync_check() counts of its programs. */
struct ck_tally {
	unsigned int programs;	/* built and compared */
	unsigned int same;	/* every search agrees */
	unsigned int open;	/* a search was cut short by a limit */
	unsigned int bad;	/* the searches disagree */
};

/*
 * Build @text lowered @how and compare its searches under @flags with
 * @cmp (@arg passed on), which answers 1 when they agree, 0 when not and
 * -1 when one was cut short; count the answer in @t.  The text of the
 * first program that disagrees is printed.
 */
static inline void
ck_tally_text(struct ck_tally *t, const char *text,
	      enum ncsync_barrier_lowering how, uint32_t flags,
	      int (*cmp)(struct ncsync_program *p, uint32_t flags, void *arg),
	      void *arg)
{
	struct ncsync_program *p = ck_build(text, how);
	int ret;

	if (!p)
		return;
	ret = cmp(p, flags, arg);
	t->programs++;
	if (ret > 0)
		t->same++;
	else if (ret < 0)
		t->open++;
	else if (!t->bad++)
		printf("# differs:\n%s", text);
	ncsync_program_free(p);
}

#endif /* NCSYNC_TEST_CHECK_H */
