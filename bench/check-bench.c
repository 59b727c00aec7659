// SPDX-License-Identifier: GPL-2.0
/*
 * check-bench: how fast ncsync_check() explores, in states per second, on
 * the programs of examples/ (or the files named on the command line).
 * Host only, no device: `make bench-check`, or
 *   build/bench/check-bench [--no-spin] [--no-accel] [--no-symmetry]
 *                           [--max-states N] [--lowering events]
 *                           [--spin-timeout S] [FILE.s ...]
 * Each program is checked with the library's defaults but the state limit
 * (default 2000000), lowered with counter barriers, or with event barriers
 * (--lowering events: the rows' names end in "/ev"); the column "verdict"
 * is safe, defect, or the limit that ended the search first
 * (limit:states, limit:memory, ...); the column "loop" says
 * whether the verdict came by induction over a loop's passes (--no-accel:
 * never; --no-symmetry: without the symmetry reduction).  After the
 * examples, barrier-loop.s with 1000 and 1000000 passes.  A measurement,
 * not a test: nothing is checked against a target.
 *
 * Each row goes on with SPIN on the same program (ncsync_check_promela(),
 * Documentation/ncsync/check.rst "SPIN: the same program, another
 * checker"), unless --no-spin or spin(1) is missing: its verdict, the
 * states pan stored (partial-order reduction on, -DCOLLAPSE), the CPU
 * seconds of generation + spin -a + cc + pan and of pan alone, and the
 * ratios of ncsync's states and CPU seconds to pan's.  Like for like: the
 * same lowered parts (either lowering) and options, and pan goes on past
 * its errors (-c0) as ncsync's search goes on past a defect, so that
 * both explore every reachable state; pan stops after --spin-timeout
 * seconds (600).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ncsync.h"
#include "spin_run.h"

#ifndef CHECK_BENCH_TOP
#define CHECK_BENCH_TOP "."
#endif

static const char *const examples[] = {
	"abba.s", "barrier-loop.s", "deadlock.s", "dma-drain.s", "fence.s",
	"producer-consumer.s", "publish-race.s", "token-ring.s",
	"call-return.s", "pingpong-cores.s", "core-barrier-loop.s",
	"core-barrier-loop-4x4.s",
};

static bool use_spin = true;
static unsigned int spin_timeout = 600;
static enum ncsync_barrier_lowering lowering = NCSYNC_LOWER_COUNTER;

/* The whole text of @path (it holds no NUL), or NULL. */
static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t cap = 0;

	if (!f)
		return NULL;
	if (getdelim(&buf, &cap, '\0', f) < 0) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	return buf;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static double cpu_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * The parts of @text: its "core N" statements lowered for the highest
 * position + 1 cores, or the program of one core at position 0.  Their
 * number, or a negative error number.
 */
static int build_parts(const char *text, struct ncsync_asm_part *parts)
{
	struct ncsync_asm_error err;
	unsigned int lnc = 1;
	int n, i, ret = 0;

	n = ncsync_asm_cores(text, parts, NCSYNC_MAX_LNC, &err);
	if (n < 0)
		return n;
	if (!n) {
		parts[0].core = 0;
		ret = ncsync_asm(text, &parts[0].prog, &err);
		n = 1;
	}
	for (i = 0; i < n; i++)
		lnc = parts[i].core + 1 > lnc ? parts[i].core + 1 : lnc;
	for (i = 0; i < n && !ret; i++)
		ret = ncsync_program_set_lnc(parts[i].prog, lnc) ?:
		      ncsync_program_lower(parts[i].prog, lowering) ?:
		      ncsync_program_finalize(parts[i].prog);
	if (ret)
		for (i = 0; i < n; i++)
			ncsync_program_free(parts[i].prog);
	return ret ? ret : n;
}

/*
 * SPIN on the same parts: the rest of the row.  @states and @cpu are
 * ncsync's, for the ratios.
 */
static void spin_row(const struct ncsync_asm_part *parts, unsigned int n,
		     const struct ncsync_check_opts *o, uint64_t states,
		     double cpu)
{
	char dir[] = "/tmp/ncsync-bench-XXXXXX", path[64], cmd[64];
	struct spin_run sr = {
		.cflags = "-O2 -DCOLLAPSE", .panflags = "-c0 -m1000000 -w24",
		.timeout_s = spin_timeout,
	};
	double c0 = cpu_now(), gen;
	FILE *f;
	int ret;

	if (!mkdtemp(dir)) {
		printf("  (no temporary directory)\n");
		return;
	}
	snprintf(path, sizeof(path), "%s/model.pml", dir);
	f = fopen(path, "w");
	ret = f ? ncsync_check_promela(parts, n, o, f) : -1;
	if (f && fclose(f))
		ret = -1;
	gen = cpu_now() - c0;
	if (!ret)
		spin_check(dir, &sr);
	if (ret || sr.verdict == SPIN_FAILED)
		printf(" %-9s\n", ret ? "no-model" : "failed");
	else if (sr.verdict == SPIN_TIMEOUT)
		printf(" %-9s %10llu %8.2f %8.2f (after %u s)\n", "timeout",
		       (unsigned long long)sr.states,
		       gen + sr.cpu_build + sr.cpu_pan, sr.cpu_pan,
		       sr.timeout_s);
	else
		printf(" %-9s %10llu %8.2f %8.2f %7.2f %7.2f\n",
		       spin_verdict_name(sr.verdict),
		       (unsigned long long)sr.states,
		       gen + sr.cpu_build + sr.cpu_pan, sr.cpu_pan,
		       sr.states ? (double)states / sr.states : 0,
		       sr.cpu_pan > 0 ? cpu / sr.cpu_pan : 0);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd))
		fprintf(stderr, "check-bench: could not remove %s\n", dir);
}

/*
 * The verdict's column: safe, defect, or for a search a limit ended
 * first, the limit that did (limit:states, limit:memory, ...), so that
 * no row stops at a count without saying why.
 */
static const char *verdict(const struct ncsync_check_result *res)
{
	static char buf[32];

	switch (ncsync_check_verdict(res)) {
	case NCSYNC_CHECK_SAFE:
		return "safe";
	case NCSYNC_CHECK_DEFECT:
		return "defect";
	default:
		snprintf(buf, sizeof(buf), "limit:%s",
			 ncsync_check_limit_name(ncsync_check_limit(res)));
		return buf;
	}
}

static const char *const accel_names[] = {
	[NCSYNC_ACCEL_NONE] = "-", [NCSYNC_ACCEL_APPLIED] = "induction",
	[NCSYNC_ACCEL_FELL_BACK] = "fell-back",
};

static uint32_t flags;

/* @text with "r1, 20, loop" made "r1, @passes, loop"; malloc'd. */
static char *with_passes(const char *text, unsigned int passes)
{
	char *out = malloc(strlen(text) + 1024), *o = out;
	const char *p = text, *hit;

	if (!out)
		return NULL;
	while ((hit = strstr(p, "r1, 20, loop"))) {
		memcpy(o, p, hit + 4 - p);
		o += hit + 4 - p;
		o += sprintf(o, "%u", passes);
		p = hit + 6;
	}
	strcpy(o, p);
	return out;
}

/*
 * Check one file (with @passes passes if not 0) and print its row; 0, or
 * 1 if it could not be checked.
 */
static int bench(const char *path, uint64_t max_states, unsigned int passes)
{
	struct ncsync_asm_part parts[NCSYNC_MAX_LNC];
	struct ncsync_check_accel accel = { 0 };
	struct ncsync_check_result *res = NULL;
	struct ncsync_check_opts o;
	char *text = slurp(path), name[64];
	double t0, dt, c0, cpu;
	int n, ret, i;

	if (text && passes) {
		char *t = with_passes(text, passes);

		free(text);
		text = t;
	}
	snprintf(name, sizeof(name), "%s%s", strrchr(path, '/') ?
		 strrchr(path, '/') + 1 : path, passes ? " x" : "");
	if (passes)
		snprintf(name + strlen(name), sizeof(name) - strlen(name),
			 "%u", passes);
	if (lowering == NCSYNC_LOWER_EVENTS)
		snprintf(name + strlen(name), sizeof(name) - strlen(name),
			 "/ev");
	n = text ? build_parts(text, parts) : -1;
	ret = n < 0 ? n : 0;
	ncsync_check_opts_init(&o);
	o.max_states = max_states;
	o.flags = flags;
	t0 = now();
	c0 = cpu_now();
	if (!ret)
		ret = ncsync_check_cores(parts, n, &o, &res);
	dt = now() - t0;
	cpu = cpu_now() - c0;
	if (!ret) {
		ncsync_check_accel(res, &accel);
		printf("%-24s %-12s %10llu %9.3f %12.0f %8.2f %-9s", name,
		       verdict(res),
		       (unsigned long long)ncsync_check_states(res), dt,
		       ncsync_check_states(res) / (dt > 0 ? dt : 1e-9), cpu,
		       accel_names[accel.status]);
		if (use_spin && !passes)
			spin_row(parts, n, &o, ncsync_check_states(res), cpu);
		else
			putchar('\n');
		fflush(stdout);
	} else {
		fprintf(stderr, "check-bench: %s: cannot check it\n", path);
	}
	ncsync_check_free(res);
	for (i = 0; i < n; i++)
		ncsync_program_free(parts[i].prog);
	free(text);
	return ret ? 1 : 0;
}

int main(int argc, char **argv)
{
	uint64_t max_states = 2000000;
	char path[4096];
	int i = 1, bad = 0;
	size_t k;

	for (; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "--no-spin"))
			use_spin = false;
		else if (!strcmp(argv[i], "--no-accel"))
			flags |= NCSYNC_CHECK_F_NO_ACCEL;
		else if (!strcmp(argv[i], "--no-symmetry"))
			flags |= NCSYNC_CHECK_F_NO_SYMMETRY;
		else if (!strcmp(argv[i], "--max-states") && i + 1 < argc)
			max_states = strtoull(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--spin-timeout") && i + 1 < argc)
			spin_timeout = strtoul(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--lowering") && i + 1 < argc &&
			 !strcmp(argv[i + 1], "events") && ++i)
			lowering = NCSYNC_LOWER_EVENTS;
		else
			break;
	}
	use_spin = use_spin && spin_available();
	printf("%-24s %-12s %10s %9s %12s %8s %-9s", "program", "verdict",
	       "states", "seconds", "states/s", "cpu s", "loop");
	if (use_spin)
		printf(" %-9s %10s %8s %8s %7s %7s", "spin", "states", "total s",
		       "pan s", "xstate", "xCPU");
	putchar('\n');
	if (i < argc) {
		for (; i < argc; i++)
			bad |= bench(argv[i], max_states, 0);
		return bad;
	}
	for (k = 0; k < sizeof(examples) / sizeof(examples[0]); k++) {
		snprintf(path, sizeof(path), "%s/examples/%s", CHECK_BENCH_TOP,
			 examples[k]);
		bad |= bench(path, max_states, 0);
	}
	snprintf(path, sizeof(path), "%s/examples/barrier-loop.s",
		 CHECK_BENCH_TOP);
	bad |= bench(path, max_states, 1000);
	bad |= bench(path, max_states, 1000000);
	return bad;
}
