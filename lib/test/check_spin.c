// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * SPIN, an independent checker, against ncsync_check(): random small
 * programs (check_random.h) are checked by ncsync_check() and, written as
 * a Promela model with the assertions of the other kinds (ck_promela()),
 * by SPIN going on past its errors (pan -c0).  Where ncsync's search ends,
 * both must agree on whether a deadlock (SPIN's invalid end state), an
 * overflow, an event fault and a dma-race (the assertions, told apart by
 * the first variable each names) are reachable.  Some programs start with
 * semaphores near a bound of the 32 bits, so that overflows are reached.
 * Every other program is checked by SPIN without its
 * partial-order reduction (-DNOREDUCE).  ncsync's deadlock verdict must
 * agree with the deadlocked states it reached.  (pan -c0's count of
 * errors is not the number of distinct invalid end states: two processes
 * that leave a bit 0 or 1 and block count one error, so the counts are
 * printed, not compared.)  Half the programs land their copies in issue order
 * (NCSYNC_CHECK_F_DMA_FIFO), some start from non-zero semaphores and set
 * events, three in eight run across two cores (a random program on
 * each, and a copy that signals the other core), and two in eight run one
 * body on two or three engines (which the symmetry reduction merges).
 *
 *   check_spin [--count N] [--seed S] [--time SECONDS]
 *
 * make check runs 24 programs; make fuzz runs it for a time
 * (Documentation/ncsync/fuzzing.rst).  Skipped without spin(1).  A
 * disagreement prints the program, the initial values and both verdicts,
 * and keeps the model in its directory.
 */
#include <errno.h>
#include <stdio.h>
#include <unistd.h>

#include "check.h"
#include "check_random.h"
#include "check_test.h"
#include "spin_run.h"

/* The kinds compared besides the deadlock: assertions (ck_promela()). */
static const enum ncsync_defect_kind kinds[] = {
	NCSYNC_DEFECT_OVERFLOW, NCSYNC_DEFECT_EVENT, NCSYNC_DEFECT_DMA_RACE,
};
#define NKINDS (sizeof(kinds) / sizeof(kinds[0]))
#define KINDS (1U << NCSYNC_DEFECT_OVERFLOW | 1U << NCSYNC_DEFECT_EVENT | \
	       1U << NCSYNC_DEFECT_DMA_RACE)

/*
 * @found: per kind, the programs where both found it; @unasserted: where
 * the model had no assertion of it (then ncsync must not find it either).
 */
struct totals {
	unsigned int programs, same, bad, open, deadlocks, cores;
	unsigned int found[NKINDS], unasserted[NKINDS];
};

/* The distinct states of @f where no step runs and an engine waits. */
static uint64_t deadlock_states(struct ck_finals *f)
{
	uint64_t *h = malloc(2 * (f->n + 1) * sizeof(*h));
	size_t i, n = 0, k = 0;

	if (!h)
		return UINT64_MAX;
	for (i = 0; i < f->n; i++) {
		if (f->ended[i])
			continue;
		h[2 * n] = f->h[2 * i];
		h[2 * n + 1] = f->h[2 * i + 1];
		n++;
	}
	qsort(h, n, 2 * sizeof(*h), ck_cmp_hash);
	for (i = 0; i < n; i++)
		k += !i || ck_cmp_hash(h + 2 * i, h + 2 * (i - 1));
	free(h);
	return k;
}

/*
 * The parts of @text: its "core N" statements lowered for two cores, or
 * the program of one core.  Their number, or 0.
 */
static unsigned int parts_of(const char *text, struct ncsync_asm_part *parts)
{
	struct ncsync_asm_error err;
	int n;

	if (!strstr(text, "core 0\n")) {
		parts[0] = (struct ncsync_asm_part){
			.prog = ck_build(text, NCSYNC_LOWER_COUNTER),
		};
		return parts[0].prog ? 1 : 0;
	}
	n = ck_build_cores(text, parts, &err);
	if (n <= 0)
		TAP_CHECK(0, "build across cores: %d at %u:%u: %s", n,
			  err.line, err.col, err.msg);
	return n > 0 ? n : 0;
}

/*
 * Three programs in eight across two cores (of every landing order and
 * both SPIN searches): a random program on each, and a copy whose
 * completion update lands on the other core.  Two in eight run one body
 * on two or three engines (the symmetry reduction's case).
 */
static void random_text(char *text, size_t len, unsigned int i)
{
	size_t off;
	unsigned int c;

	if (i % 8 < 3) {
		ck_random_program(text, len);
		return;
	}
	if (i % 8 < 5) {	/* engines the symmetry reduction merges */
		ck_random_symmetric(text, len, false);
		return;
	}
	for (c = 0, off = 0; c < 2; c++) {
		off += snprintf(text + off, len - off, "core %u\n", c);
		ck_random_program(text + off, len - off);
		off += strlen(text + off);
		off += snprintf(text + off, len - off,
				"\tdma 0x0, 0x40, 64, peer=%u on_land sem[%u]++\n",
				!c, 1 + ck_rnd(3));
	}
}

/*
 * Random initial values for some programs, and the landing order.  A
 * semaphore starts at a bound of the signed 32 bits, or one or two from
 * it (sem[1] in two programs in nine, sem[2] as well in two in 27...),
 * so that an overflow is within reach.
 */
static void random_opts(struct ncsync_check_opts *o, unsigned int i)
{
	unsigned int k;

	ncsync_check_opts_init(o);
	o->max_states = 20000;
	o->flags = i & 1 ? NCSYNC_CHECK_F_DMA_FIFO : 0;
	if (!ck_rnd(3)) {
		for (k = 1; k <= 3; k++)
			o->sems[k] = (int32_t)ck_rnd(3) - 1;
		o->events[1 + ck_rnd(3)] = 1;
	}
	for (k = 1; k <= 3 && !ck_rnd(3); k++) {
		if (ck_rnd(3))
			o->sems[k] = ck_rnd(2) ? INT32_MAX - (int32_t)ck_rnd(3) :
						 INT32_MIN + (int32_t)ck_rnd(3);
	}
}

static void print_disagreement(const char *text,
			       const struct ncsync_check_opts *o,
			       enum ncsync_defect_kind kind, bool found,
			       uint64_t nstates, const struct spin_run *sr,
			       const char *dir, unsigned int i)
{
	printf("# ncsync and SPIN differ on %s: ncsync %s (%llu deadlock states), SPIN %s (%llu errors, found %#x) (model %s/model-%u.pml, flags %#x, sem[1..3] = %d %d %d, events 1..3 = %d %d %d%s):\n%s",
	       ncsync_defect_name(kind), found ? "found it" : "did not",
	       (unsigned long long)nstates, spin_verdict_name(sr->verdict),
	       (unsigned long long)sr->errors, sr->found, dir, i, o->flags, o->sems[1],
	       o->sems[2], o->sems[3], o->events[1], o->events[2],
	       o->events[3], strstr(sr->cflags, "NOREDUCE") ?
	       ", SPIN without reduction" : "", text);
}

/* A model that disagreed, as DIR/model-I.pml. */
static void keep_model(const char *dir, unsigned int i)
{
	char from[4096], to[4096];

	snprintf(from, sizeof(from), "%s/model.pml", dir);
	snprintf(to, sizeof(to), "%s/model-%u.pml", dir, i);
	if (rename(from, to))
		printf("# could not keep %s\n", from);
}

/*
 * The model of @parts with the assertions of every kind into
 * DIR/model.pml, their numbers into @nassert; 0 or a negative errno.
 */
static int write_model(const char *dir, const struct ncsync_asm_part *parts,
		       unsigned int n, const struct ncsync_check_opts *o,
		       unsigned int *nassert)
{
	char path[4096];
	FILE *f;
	int ret;

	snprintf(path, sizeof(path), "%s/model.pml", dir);
	f = fopen(path, "w");
	if (!f)
		return -errno;
	ret = ck_promela(parts, n, o, KINDS, f, nassert);
	if (fclose(f) && !ret)
		ret = -EIO;
	return ret;
}

/*
 * SPIN on the model with every kind's assertions, going on past its errors
 * (-c0) as ncsync's search goes on past a defect: for each kind, the
 * deadlock first, whether both found it or neither.  1 when they agree on
 * all, else 0 (the first kind that differs printed, the model kept).
 */
static int compare_kinds(const char *text, unsigned int i, const char *dir,
			 const struct ncsync_asm_part *parts, unsigned int n,
			 const struct ncsync_check_opts *o,
			 const struct ncsync_check_result *res,
			 uint64_t nstates, struct totals *t)
{
	struct spin_run sr = {
		.cflags = i & 2 ? "-O0 -DNOREDUCE" : "-O0",
		.panflags = "-c0 -m1000000 -w20", .timeout_s = 120,
	};
	enum ncsync_defect_kind kind = NCSYNC_DEFECT_DEADLOCK;
	unsigned int k, nassert[NCSYNC_DEFECT_KINDS] = { 0 };
	bool found = ck_find(res, kind) != NULL, ok;

	ok = !write_model(dir, parts, n, o, nassert) && !spin_check(dir, &sr) &&
	     sr.verdict != SPIN_LIMIT &&
	     !!(sr.found & 1U << kind) == found && (nstates > 0) == found;
	for (k = 0; ok && k < NKINDS; k++) {
		kind = kinds[k];
		found = ck_find(res, kind) != NULL;
		ok = !!(sr.found & 1U << kind) == found;
		t->found[k] += ok && found;
		t->unasserted[k] += ok && !nassert[kind];
	}
	if (!ok) {
		print_disagreement(text, o, kind, found, nstates, &sr, dir, i);
		keep_model(dir, i);
	}
	return ok;
}

/*
 * One program: 1 when ncsync and SPIN agree, 0 when not, -1 when
 * ncsync's search was cut short (not compared).
 */
static int compare(const char *text, unsigned int i, const char *dir,
		   struct totals *t)
{
	struct ncsync_check_result *res = NULL;
	struct ncsync_asm_part parts[NCSYNC_MAX_LNC];
	unsigned int n = parts_of(text, parts), k;
	struct ck_finals fin = { 0 };
	struct ncsync_check_opts o;
	int ret = -1;

	random_opts(&o, i);
	if (!n || ncsync_check_run(parts, n, &o, false, &fin, &res) ||
	    !ncsync_check_complete(res))
		goto out;
	t->cores += n > 1;
	t->deadlocks += ck_find(res, NCSYNC_DEFECT_DEADLOCK) != NULL;
	ret = compare_kinds(text, i, dir, parts, n, &o, res,
			    deadlock_states(&fin), t);
out:
	free(fin.h);
	free(fin.ended);
	ncsync_check_free(res);
	for (k = 0; k < n; k++)
		ncsync_program_free(parts[k].prog);
	return ret;
}

int main(int argc, char **argv)
{
	unsigned int count = 24, seconds = 0, i;
	char dir[] = "/tmp/ncsync-spin-XXXXXX", text[4096], cmd[64];
	struct totals t = { 0 };
	double t0 = spin_now();
	int k, ret;

	for (k = 1; k + 1 < argc; k += 2) {
		if (!strcmp(argv[k], "--count"))
			count = strtoul(argv[k + 1], NULL, 0);
		else if (!strcmp(argv[k], "--seed"))
			ck_rng = strtoull(argv[k + 1], NULL, 0) | 1;
		else if (!strcmp(argv[k], "--time"))
			seconds = strtoul(argv[k + 1], NULL, 0);
	}
	printf("# seed %llu (--seed to repeat)\n", (unsigned long long)ck_rng);
	if (!spin_available() || !mkdtemp(dir)) {
		printf("1..0 # SKIP no spin(1) or cc(1), or no temporary directory\n");
		return 0;
	}
	for (i = 0; seconds ? spin_now() - t0 < seconds : i < count; i++) {
		random_text(text, sizeof(text), i);
		t.programs++;
		ret = compare(text, i, dir, &t);
		if (ret > 0)
			t.same++;
		else if (ret < 0)
			t.open++;
		else
			t.bad++;
	}
	TAP_CHECK(!t.bad && t.same >= t.programs / 2,
		  "%u random programs: ncsync and SPIN (with and without its reduction) agree on whether a deadlock, an overflow, an event fault and a dma-race are reachable in all %u that ncsync explored in full (%u across two cores; found by both: %u deadlocks, %u overflows, %u events, %u races; without an assertion of the kind: %u, %u, %u; %u cut short by a limit, not compared)",
		  t.programs, t.same, t.cores, t.deadlocks, t.found[0],
		  t.found[1], t.found[2], t.unasserted[0], t.unasserted[1],
		  t.unasserted[2], t.open);
	if (!t.bad) {
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
		if (system(cmd))
			printf("# could not remove %s\n", dir);
	}
	return tap_done();
}
