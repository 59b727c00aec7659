// SPDX-License-Identifier: GPL-2.0
/*
 * check-bench: how fast ncsync_check() explores, in states per second, on
 * the programs of examples/ (or the files named on the command line).
 * Host only, no device: `make bench-check`, or
 *   build/bench/check-bench [--max-states N] [FILE.s ...]
 * Each program is checked with the library's defaults but the state limit
 * (default 2000000), lowered with counter barriers; barrier-loop.s also at
 * 1000 and 1000000 passes.  The last column says whether the loop
 * acceleration gave the verdict (--no-accel: off).  A measurement, not a
 * test: nothing is checked against a target.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ncsync.h"

#ifndef CHECK_BENCH_TOP
#define CHECK_BENCH_TOP "."
#endif

static const char *const examples[] = {
	"abba.s", "barrier-loop.s", "deadlock.s", "dma-drain.s", "fence.s",
	"producer-consumer.s", "publish-race.s", "token-ring.s",
};

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

static const char *verdict(enum ncsync_check_verdict v)
{
	return v == NCSYNC_CHECK_SAFE ? "safe" :
	       v == NCSYNC_CHECK_DEFECT ? "defect" : "inconclusive";
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
	struct ncsync_check_result *res = NULL;
	struct ncsync_program *p = NULL;
	struct ncsync_check_accel accel = { 0 };
	struct ncsync_check_opts o;
	struct ncsync_asm_error err;
	char *text = slurp(path), name[64];
	double t0, dt;
	int ret;

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

	ret = text ? ncsync_asm(text, &p, &err) : -1;
	if (!ret)
		ret = ncsync_program_lower(p, NCSYNC_LOWER_COUNTER);
	if (!ret)
		ret = ncsync_program_finalize(p);
	ncsync_check_opts_init(&o);
	o.max_states = max_states;
	o.flags = flags;
	t0 = now();
	if (!ret)
		ret = ncsync_check(p, &o, &res);
	dt = now() - t0;
	if (!ret) {
		ncsync_check_accel(res, &accel);
		printf("%-24s %-12s %10llu %9.3f %12.0f  %s\n", name,
		       verdict(ncsync_check_verdict(res)),
		       (unsigned long long)ncsync_check_states(res), dt,
		       ncsync_check_states(res) / (dt > 0 ? dt : 1e-9),
		       accel_names[accel.status]);
	}
	else
		fprintf(stderr, "check-bench: %s: cannot check it\n", path);
	ncsync_check_free(res);
	ncsync_program_free(p);
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
		if (!strcmp(argv[i], "--no-accel"))
			flags |= NCSYNC_CHECK_F_NO_ACCEL;
		else if (!strcmp(argv[i], "--max-states") && i + 1 < argc)
			max_states = strtoull(argv[++i], NULL, 0);
		else
			break;
	}
	printf("%-24s %-12s %10s %9s %12s  %s\n", "program", "verdict",
	       "states", "seconds", "states/s", "loop");
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
