/* SPDX-License-Identifier: LGPL-2.1-or-later OR MIT */
/*
 * SPIN on a model of ncsync_check_promela(): spin -a, cc, ./pan, and what
 * pan concluded (Documentation/ncsync/check.rst, "SPIN: the same program,
 * another checker").  For the differential test (check_spin.c) and
 * bench/check-bench.c.  Host only; needs spin(1) and cc(1).
 */
#ifndef NCSYNC_TEST_SPIN_RUN_H
#define NCSYNC_TEST_SPIN_RUN_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>

#include "ncsync.h"

/* What pan concluded. */
enum spin_verdict {
	SPIN_SAFE,	/* searched in full: no invalid end state */
	SPIN_DEADLOCK,	/* an invalid end state */
	SPIN_LIMIT,	/* the copy limit (an assertion), or pan's depth */
	SPIN_FAILED,	/* spin, cc or pan did not run to the end */
	SPIN_TIMEOUT,	/* pan ran out of its time (@states: its last count) */
	SPIN_VIOLATION,	/* no deadlock, an assertion of a kind (ck_promela()) */
};

/**
 * struct spin_run - one run of SPIN.
 * @cflags: for cc, after -fwrapv -DSAFETY: -O2, -DNOREDUCE...
 * @panflags: for ./pan: -m (depth), -w (hash table).
 * @timeout_s: pan's time limit; then SPIN_TIMEOUT.
 * @verdict: out.
 * @states: out: pan's "states, stored".
 * @errors: out: pan's "errors: N" (with -c0 pan goes on past an error,
 *	but counts fewer errors than there are distinct invalid end states).
 * @found: out: the defects pan reported, 1 << NCSYNC_DEFECT_*: the
 *	deadlock (an invalid end state) and the kinds of the assertions
 *	violated (ck_promela(); pan prints an error unless its text is the
 *	one it printed last, so with -c0 every kind it reaches).
 * @t_build: out: seconds of spin -a and cc.
 * @t_pan: out: seconds of ./pan.
 * @cpu_build: out: their CPU seconds (user + system).
 * @cpu_pan: out: pan's.
 */
struct spin_run {
	const char *cflags;
	const char *panflags;
	unsigned int timeout_s;
	enum spin_verdict verdict;
	uint64_t states;
	uint64_t errors;
	uint32_t found;
	double t_build, t_pan;
	double cpu_build, cpu_pan;
};

static inline double spin_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* CPU seconds of the children waited for so far. */
static inline double spin_children_cpu(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_CHILDREN, &ru))
		return 0;
	return ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
	       ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
}

/* Whether spin and cc are there. */
static inline bool spin_available(void)
{
	return !system("command -v spin >/dev/null 2>&1 && command -v cc >/dev/null 2>&1");
}

static inline const char *spin_verdict_name(enum spin_verdict v)
{
	static const char *const names[] = {
		[SPIN_SAFE] = "safe", [SPIN_DEADLOCK] = "deadlock",
		[SPIN_LIMIT] = "limit", [SPIN_FAILED] = "failed",
		[SPIN_TIMEOUT] = "timeout", [SPIN_VIOLATION] = "violation",
	};

	return names[v];
}

/*
 * The kind of an assertion pan reports violated, by the first variable it
 * names (promela.c): e an event, s or r an overflow, d a dma-race; -1 for
 * ncopies, the checker's limit of copies in flight.
 */
static inline int spin_assert_kind(const char *line)
{
	const char *p = strstr(line, "assertion violated") + 18;

	while (*p && strchr(" (!", *p))
		p++;
	switch (*p) {
	case 'e':
		return NCSYNC_DEFECT_EVENT;
	case 's':
	case 'r':
		return NCSYNC_DEFECT_OVERFLOW;
	case 'd':
		return NCSYNC_DEFECT_DMA_RACE;
	default:
		return -1;
	}
}

/* pan's output, DIR/pan.out, into @r. */
static inline void spin_parse(const char *dir, struct spin_run *r)
{
	char path[4096], line[512];
	bool errors0 = false, depth = false, assert = false, end = false;
	FILE *f;
	int k;

	snprintf(path, sizeof(path), "%s/pan.out", dir);
	f = fopen(path, "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		end |= strstr(line, "invalid end state (") != NULL;
		k = strstr(line, "assertion violated") ?
		    spin_assert_kind(line) : -2;
		assert |= k == -1;
		if (k >= 0)
			r->found |= 1U << k;
		depth |= strstr(line, "max search depth too small") != NULL;
		errors0 |= strstr(line, "errors: 0") != NULL;
		if (strstr(line, "errors: "))
			r->errors = strtoull(strstr(line, "errors: ") + 8,
					    NULL, 10);
		if (strstr(line, "states, stored"))
			r->states = strtoull(line, NULL, 10);
		else if (strstr(line, "States="))	/* progress */
			r->states = strtod(strstr(line, "States=") + 7, NULL);
	}
	fclose(f);
	if (end)
		r->found |= 1U << NCSYNC_DEFECT_DEADLOCK;
	if (assert || depth)
		r->verdict = SPIN_LIMIT;
	else if (end)
		r->verdict = SPIN_DEADLOCK;
	else if (r->found)
		r->verdict = SPIN_VIOLATION;
	else if (errors0)
		r->verdict = SPIN_SAFE;
}

/*
 * SPIN on DIR/model.pml: build pan in DIR, run it.  0, or -1 if a command
 * could not be run (then @r->verdict is SPIN_FAILED).
 */
static inline int spin_check(const char *dir, struct spin_run *r)
{
	char cmd[8192];
	double t0 = spin_now(), c0 = spin_children_cpu();
	int ret;

	r->verdict = SPIN_FAILED;
	r->states = 0;
	r->errors = 0;
	r->found = 0;
	r->t_build = r->t_pan = r->cpu_build = r->cpu_pan = 0;
	snprintf(cmd, sizeof(cmd),
		 "cd '%s' && spin -a model.pml >spin.log 2>&1 && cc -fwrapv -DSAFETY %s -w -o pan pan.c >>spin.log 2>&1",
		 dir, r->cflags ? r->cflags : "-O2");
	ret = system(cmd);
	r->t_build = spin_now() - t0;
	r->cpu_build = spin_children_cpu() - c0;
	if (ret)
		return -1;
	t0 = spin_now();
	c0 = spin_children_cpu();
	snprintf(cmd, sizeof(cmd),
		 "cd '%s' && timeout %u ./pan %s >pan.out 2>&1", dir,
		 r->timeout_s ? r->timeout_s : 600,
		 r->panflags ? r->panflags : "-m1000000");
	ret = system(cmd);
	r->t_pan = spin_now() - t0;
	r->cpu_pan = spin_children_cpu() - c0;
	/* pan exits 0 with or without an error; timeout(1) exits 124. */
	spin_parse(dir, r);
	if (ret) {
		r->verdict = WIFEXITED(ret) && WEXITSTATUS(ret) == 124 ?
			     SPIN_TIMEOUT : SPIN_FAILED;
		return -1;
	}
	return r->verdict == SPIN_FAILED ? -1 : 0;
}

#endif /* NCSYNC_TEST_SPIN_RUN_H */
