// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * SPIN, an independent checker, against ncsync_check(): random small
 * programs (check_random.h) are checked by ncsync_check() and, written as
 * a Promela model by ncsync_check_promela(), by SPIN.  Where ncsync's
 * search ends, both must agree on whether a deadlock is reachable (SPIN's
 * invalid end state).  Every other program is checked by SPIN without its
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

struct totals {
	unsigned int programs, same, bad, open, deadlocks, cores;
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

/* Random initial values for some programs, and the landing order. */
static void random_opts(struct ncsync_check_opts *o, unsigned int i)
{
	unsigned int k;

	ncsync_check_opts_init(o);
	o->max_states = 20000;
	o->flags = i & 1 ? NCSYNC_CHECK_F_DMA_FIFO : 0;
	if (ck_rnd(3))
		return;
	for (k = 1; k <= 3; k++)
		o->sems[k] = (int32_t)ck_rnd(3) - 1;
	o->events[1 + ck_rnd(3)] = 1;
}

static void print_disagreement(const char *text,
			       const struct ncsync_check_opts *o,
			       bool deadlock, uint64_t nstates,
			       const struct spin_run *sr, const char *dir,
			       unsigned int i)
{
	printf("# ncsync and SPIN differ: ncsync %s (%llu deadlock states), SPIN %s (%llu errors) (model %s/model-%u.pml, flags %#x, sem[1..3] = %d %d %d, events 1..3 = %d %d %d%s):\n%s",
	       deadlock ? "deadlock" : "no deadlock",
	       (unsigned long long)nstates, spin_verdict_name(sr->verdict),
	       (unsigned long long)sr->errors, dir, i, o->flags, o->sems[1],
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

/* The model of @parts into DIR/model.pml; 0 or a negative errno. */
static int write_model(const char *dir, const struct ncsync_asm_part *parts,
		       unsigned int n, const struct ncsync_check_opts *o)
{
	char path[4096];
	FILE *f;
	int ret;

	snprintf(path, sizeof(path), "%s/model.pml", dir);
	f = fopen(path, "w");
	if (!f)
		return -errno;
	ret = ncsync_check_promela(parts, n, o, f);
	if (fclose(f) && !ret)
		ret = -EIO;
	return ret;
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
	bool all = i & 2;
	struct spin_run sr = {
		.cflags = all ? "-O0 -DNOREDUCE" : "-O0",
		.panflags = "-m1000000 -w20",
		.timeout_s = 120,
	};
	struct ncsync_check_opts o;
	uint64_t nstates = 0;
	bool deadlock;
	int ret = -1;

	random_opts(&o, i);
	if (!n || ncsync_check_run(parts, n, &o, false, &fin, &res) ||
	    !ncsync_check_complete(res))
		goto out;
	deadlock = ck_find(res, NCSYNC_DEFECT_DEADLOCK) != NULL;
	t->cores += n > 1;
	nstates = deadlock_states(&fin);
	t->deadlocks += deadlock;
	ret = write_model(dir, parts, n, &o);
	if (!ret)
		spin_check(dir, &sr);
	ret = !ret && (sr.verdict == SPIN_DEADLOCK) == deadlock &&
	      sr.verdict != SPIN_LIMIT && sr.verdict != SPIN_FAILED &&
	      (nstates > 0) == deadlock;
	if (!ret) {
		print_disagreement(text, &o, deadlock, nstates, &sr, dir, i);
		keep_model(dir, i);
	}
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
		  "%u random programs: ncsync and SPIN (with and without its reduction) agree on whether a deadlock is reachable in all %u that ncsync explored in full (%u across two cores; %u deadlocks; %u cut short by a limit, not compared)",
		  t.programs, t.same, t.cores, t.deadlocks, t.open);
	if (!t.bad) {
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
		if (system(cmd))
			printf("# could not remove %s\n", dir);
	}
	return tap_done();
}
