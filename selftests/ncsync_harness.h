/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The choice of tests on a selftest's command line, which the kselftest
 * harness of Linux 6.1 lacks (its test_harness_run() ignores its
 * arguments): -t [FIXTURE.]TEST (or -r FIXTURE.TEST, as later harnesses
 * spell it) and -f FIXTURE run only those tests, -l lists them; a name
 * that chooses no test is an error, so that a typo does not pass by
 * running nothing.  A test of a fixture with variants runs for each of
 * them.  Every selftest built on the harness includes this after
 * "kselftest_harness.h" (through ncsync_selftest.h or directly), before
 * its TEST_HARNESS_MAIN.
 */
#ifndef NCSYNC_HARNESS_H
#define NCSYNC_HARNESS_H

#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Whether test @t of fixture @f is one of the @n names @names. */
static inline bool ncsync_named(const struct __fixture_metadata *f,
				const struct __test_metadata *t,
				char **names, unsigned int n, bool *used)
{
	size_t fl = strlen(f->name);
	bool hit = false;
	unsigned int i;

	for (i = 0; i < n; i++) {
		const char *name = names[i];

		if (!strcmp(name, t->name) ||
		    (!strncmp(name, f->name, fl) && name[fl] == '.' &&
		     !strcmp(name + fl + 1, t->name))) {
			used[i] = true;
			hit = true;
		}
	}
	return hit;
}

/*
 * Keep in @f's list only the tests chosen: of a fixture of @fixtures (any
 * when @nf is 0) and named in @tests (any when @nt is 0), in their order;
 * the names used are marked in @tused and @fused.
 */
static inline void ncsync_keep_tests(struct __fixture_metadata *f,
				     char **tests, unsigned int nt,
				     bool *tused, char **fixtures,
				     unsigned int nf, bool *fused)
{
	struct __test_metadata *t, *next, *head = NULL, *last = NULL;
	unsigned int i;
	bool fx = !nf;

	for (i = 0; i < nf; i++)
		if (!strcmp(fixtures[i], f->name))
			fx = fused[i] = true;
	for (t = f->tests; t; t = next) {
		next = t->next;
		if (!fx || (nt && !ncsync_named(f, t, tests, nt, tused)))
			continue;
		t->prev = last ? last : t;
		if (last)
			last->next = t;
		else
			head = t;
		last = t;
	}
	if (last)
		last->next = NULL;
	if (head)
		head->prev = last;
	f->tests = head;
}

/* The usage of a selftest binary, on @out. */
static inline void ncsync_harness_usage(FILE *out, const char *argv0)
{
	fprintf(out, "usage: %s [-l] [-f FIXTURE]... [-t [FIXTURE.]TEST]... "
		"[-r FIXTURE.TEST]...\n"
		"  -l  list the tests (FIXTURE.TEST), run none\n"
		"  -f  run only the tests of FIXTURE\n"
		"  -t  run only TEST (of every fixture that has one so named,\n"
		"      or of FIXTURE only); each test still runs for every\n"
		"      variant of its fixture\n"
		"  -r  as -t\n", argv0);
}

/* Print every test left to run, FIXTURE.TEST a line. */
static inline void ncsync_list_tests(void)
{
	struct __fixture_metadata *f;
	struct __test_metadata *t;

	for (f = __fixture_list; f; f = f->next)
		for (t = f->tests; t; t = t->next)
			printf("%s.%s\n", f->name, t->name);
}

/* Whether every name of @names was used; the first that was not, said. */
static inline bool ncsync_all_used(char **names, const bool *used,
				   unsigned int n, const char *what)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (!used[i]) {
			fprintf(stderr, "no %s named '%s' (-l lists them)\n",
				what, names[i]);
			return false;
		}
	return true;
}

/*
 * The tests the command line chooses (-t, -f; -l lists them): the
 * harness's lists cut to them.  Return: -1 to run them, else the exit
 * status (0 after -l, 2 for a bad command line or a name of no test).
 */
static inline int ncsync_choose_tests(int argc, char **argv)
{
	char **tests = calloc(argc, sizeof(*tests));
	char **fixtures = calloc(argc, sizeof(*fixtures));
	bool *tused = calloc(argc, sizeof(*tused));
	bool *fused = calloc(argc, sizeof(*fused));
	unsigned int nt = 0, nf = 0;
	struct __fixture_metadata *f;
	int c, ret = -1;
	bool list = false;

	if (!tests || !fixtures || !tused || !fused) {
		ret = 2;
		goto out;
	}
	while (ret < 0 && (c = getopt(argc, argv, "hlt:r:f:")) != -1) {
		if (c == 't' || c == 'r')
			tests[nt++] = optarg;
		else if (c == 'f')
			fixtures[nf++] = optarg;
		else if (c == 'l')
			list = true;
		else
			ret = c == 'h' ? 0 : 2;
	}
	if (ret >= 0 || optind < argc) {
		ret = ret < 0 ? 2 : ret;
		ncsync_harness_usage(ret ? stderr : stdout, argv[0]);
		goto out;
	}
	for (f = __fixture_list; f; f = f->next)
		ncsync_keep_tests(f, tests, nt, tused, fixtures, nf, fused);
	if (!ncsync_all_used(tests, tused, nt, "test") ||
	    !ncsync_all_used(fixtures, fused, nf, "fixture"))
		ret = 2;
	else if (list)
		ret = 0;
	if (list && !ret)
		ncsync_list_tests();
out:
	free(tests);
	free(fixtures);
	free(tused);
	free(fused);
	return ret;
}

/* TEST_HARNESS_MAIN's run, after the command line's choice of tests. */
static inline int ncsync_harness_run(int argc, char **argv)
{
	int ret = ncsync_choose_tests(argc, argv);

	return ret >= 0 ? ret : test_harness_run(argc, argv);
}

/* TEST_HARNESS_MAIN, expanded after this, runs ncsync_harness_run(). */
#define test_harness_run ncsync_harness_run

#endif /* NCSYNC_HARNESS_H */
