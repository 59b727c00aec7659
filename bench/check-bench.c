// SPDX-License-Identifier: GPL-2.0
/*
 * check-bench: how fast ncsync_check() explores, in states per second, on
 * the programs of examples/ (or the files named on the command line).
 * Host only, no device: `make bench-check`, or
 *   build/bench/check-bench [--max-states N] [FILE.s ...]
 * Each program is checked with the library's defaults but the state limit
 * (default 2000000), lowered with counter barriers.  A measurement, not a
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

/* Check one file and print its row; 0, or 1 if it could not be checked. */
static int bench(const char *path, uint64_t max_states)
{
	struct ncsync_check_result *res = NULL;
	struct ncsync_program *p = NULL;
	struct ncsync_check_opts o;
	struct ncsync_asm_error err;
	char *text = slurp(path);
	double t0, dt;
	int ret;

	ret = text ? ncsync_asm(text, &p, &err) : -1;
	if (!ret)
		ret = ncsync_program_lower(p, NCSYNC_LOWER_COUNTER);
	if (!ret)
		ret = ncsync_program_finalize(p);
	ncsync_check_opts_init(&o);
	o.max_states = max_states;
	t0 = now();
	if (!ret)
		ret = ncsync_check(p, &o, &res);
	dt = now() - t0;
	if (!ret)
		printf("%-24s %-12s %10llu %9.3f %12.0f\n", strrchr(path, '/') ?
		       strrchr(path, '/') + 1 : path,
		       verdict(ncsync_check_verdict(res)),
		       (unsigned long long)ncsync_check_states(res), dt,
		       ncsync_check_states(res) / (dt > 0 ? dt : 1e-9));
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

	if (argc > 2 && !strcmp(argv[1], "--max-states")) {
		max_states = strtoull(argv[2], NULL, 0);
		i = 3;
	}
	printf("%-24s %-12s %10s %9s %12s\n", "program", "verdict", "states",
	       "seconds", "states/s");
	if (i < argc) {
		for (; i < argc; i++)
			bad |= bench(argv[i], max_states);
		return bad;
	}
	for (k = 0; k < sizeof(examples) / sizeof(examples[0]); k++) {
		snprintf(path, sizeof(path), "%s/examples/%s", CHECK_BENCH_TOP,
			 examples[k]);
		bad |= bench(path, max_states);
	}
	return bad;
}
