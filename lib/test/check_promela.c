// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * ncsync_check_promela() and ncsync check --promela: the model of a
 * program has its steps (a paired wait one d_step, an unpaired update its
 * own statement, the initial values of the options, the landing order of
 * NCSYNC_CHECK_F_DMA_FIFO); bad arguments are refused and change nothing;
 * the tool writes the library's model, refuses --promela in a file's
 * "# options:" line; and SPIN, on the models of examples of one core and
 * across cores, reaches ncsync's verdict (skipped without spin(1)).  The
 * assertions of the other kinds (ck_promela()): where each sits, and
 * SPIN, going on past its errors, finds the kinds ncsync finds; the same
 * through ncsync_check_promela_kinds() and --promela-kinds.
 */
#include <errno.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "check_test.h"
#include "spin_run.h"

#ifndef NCSYNC_TEST_TOP
#define NCSYNC_TEST_TOP "."
#endif

static char dir[] = "/tmp/ncsync-promela-XXXXXX";

/*
 * The model of @part with @o asserting @kinds (ncsync_check_promela_kinds())
 * in a malloc'd string; NULL on an error.
 */
static char *model_kinds(const struct ncsync_asm_part *part, unsigned int n,
			 const struct ncsync_check_opts *o, uint32_t kinds,
			 int *ret)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	*ret = f ? ncsync_check_promela_kinds(part, n, o, kinds, f) : -ENOMEM;
	if (f)
		fclose(f);
	if (*ret) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* The deadlock model of @part with @o (ncsync_check_promela()). */
static char *model_of(const struct ncsync_asm_part *part, unsigned int n,
		      const struct ncsync_check_opts *o, int *ret)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	*ret = f ? ncsync_check_promela(part, n, o, f) : -ENOMEM;
	if (f)
		fclose(f);
	if (*ret) {
		free(buf);
		return NULL;
	}
	return buf;
}

static void steps(void)
{
	struct ncsync_program *p = ck_build(
		"engine pool\n"
		"\tnop wait sem[1] > 0 then sem[1]--\n"
		"\tdma 0x0, 0x40, 64, latency=1 on_land sem[2]++\n"
		"\tdrain then ev[3] set\n"
		"engine act\n"
		"\tnop wait ev[3] set_then_clear then sem[1] += 2\n",
		NCSYNC_LOWER_COUNTER);
	struct ncsync_asm_part part = { .prog = p };
	struct ncsync_check_opts o;
	char *m;
	int ret;

	ncsync_check_opts_init(&o);
	o.sems[1] = -5;
	o.events[3] = 1;
	m = model_of(&part, 1, &o, &ret);
	TAP_CHECK(m && strstr(m, "int s0_1 = -5;") && strstr(m, "bit e0_3 = 1;") &&
		  strstr(m, "d_step { (s0_1 > 0) -> s0_1 = s0_1 - 1 }") &&
		  strstr(m, "d_step { (e0_3 == 1) -> e0_3 = 0 }") &&
		  strstr(m, "\ts0_1 = s0_1 + 2;\n") &&
		  strstr(m, "(f0 == 0);\n\te0_3 = 1;") &&
		  strstr(m, "d_step { d0_1 > 0 -> f0--; ncopies--; d0_1--;\n\t\ts0_2 = s0_2 + 1 }"),
		  "the model has the checker's steps and the initial values: %d",
		  ret);
	free(m);
	o.flags = NCSYNC_CHECK_F_DMA_FIFO;
	m = model_of(&part, 1, &o, &ret);
	TAP_CHECK(m && strstr(m, "chan q = [64] of { int };") &&
		  strstr(m, "q!1") && strstr(m, "q?id") && !strstr(m, "d0_1"),
		  "with NCSYNC_CHECK_F_DMA_FIFO the copies are a channel: %d",
		  ret);
	free(m);
	ncsync_program_free(p);
}

#define KINDS (1U << NCSYNC_DEFECT_OVERFLOW | 1U << NCSYNC_DEFECT_EVENT | \
	       1U << NCSYNC_DEFECT_DMA_RACE)

/* A program with each kind: an update near a bound, an event, a race. */
static const char kinds_text[] =
	"engine pool\n"
	"\tnop then sem[1] += 3\n"
	"\tnop then sem[2] -= r1\n"
	"\tdma 0x0, 0x40, 64 on_land sem[2]++\n"
	"\tnop then ev[3] set\n"
	"\tnop wait sem[1] > 0 then sem[1]--\n"
	"engine act\n"
	"\tdma 0x40, 0x80, 64\n"
	"\tnop then ev[3] set\n";

/*
 * The assertions sit inside the step's d_step, before its write: the
 * bound of an immediate, both signs of a register, an event, the records
 * a copy conflicts with (its own included); none of a kind not asked for.
 */
static void kinds_model(struct ncsync_asm_part *part)
{
	unsigned int na[NCSYNC_DEFECT_KINDS] = { 0 };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int ret = ck_promela(part, 1, NULL, KINDS, f, na);

	fclose(f);
	TAP_CHECK(!ret && strstr(buf, "d_step { assert(s0_1 <= 2147483644); s0_1 = s0_1 + 3 }") &&
		  strstr(buf, "assert(!((r1 < 0 && s0_2 > 2147483647 + r1) || (r1 > 0 && s0_2 < MSB + r1))); s0_2 = s0_2 - r1") &&
		  strstr(buf, "f0 < 64 -> assert(d0_2 == 0); assert(d1_0 == 0); assert(ncopies < 64)") &&
		  strstr(buf, "d_step { assert(e0_3 != 1); e0_3 = 1 }") &&
		  strstr(buf, "(s0_1 > 0) -> assert(s0_1 >= -2147483647); s0_1 = s0_1 - 1") &&
		  strstr(buf, "d0_2--;\n\t\tassert(s0_2 <= 2147483646); s0_2 = s0_2 + 1") &&
		  na[NCSYNC_DEFECT_OVERFLOW] == 4 && na[NCSYNC_DEFECT_EVENT] == 2 &&
		  na[NCSYNC_DEFECT_DMA_RACE] == 4,
		  "each kind's assertions inside the step that could commit it: %d, %u %u %u",
		  ret, na[NCSYNC_DEFECT_OVERFLOW], na[NCSYNC_DEFECT_EVENT],
		  na[NCSYNC_DEFECT_DMA_RACE]);
	free(buf);
	buf = NULL;
	f = open_memstream(&buf, &len);
	ret = ck_promela(part, 1, NULL, 1U << NCSYNC_DEFECT_EVENT, f, na);
	fclose(f);
	TAP_CHECK(!ret && strstr(buf, "assert(e0_3 != 1)") &&
		  !strstr(buf, "assert(s0_") && !strstr(buf, "assert(d") &&
		  na[NCSYNC_DEFECT_OVERFLOW] == 0 && na[NCSYNC_DEFECT_EVENT] == 2,
		  "a model of the events alone asserts nothing else");
	free(buf);
	f = fopen("/dev/null", "w");
	TAP_CHECK(ck_promela(part, 1, NULL, 1U << NCSYNC_DEFECT_UNPOSTED_WAIT, f,
			     NULL) == -EINVAL &&
		  ck_promela(part, 1, NULL, 1U << 31, f, NULL) == -EINVAL,
		  "a kind SPIN cannot decide: EINVAL");
	fclose(f);
}

/*
 * SPIN with -c0 on the model of every kind (from sem[1] and sem[2] near a
 * bound): each kind ncsync finds, and no other.
 */
static void kinds_spin(struct ncsync_asm_part *part, int32_t s1, int32_t s2)
{
	struct spin_run sr = { .cflags = "-O0", .timeout_s = 300,
			       .panflags = "-c0 -m1000000 -w20" };
	struct ncsync_check_result *res = NULL;
	struct ncsync_check_opts o;
	uint32_t want = 0;
	char path[4096];
	unsigned int k;
	FILE *f;
	int ret;

	ncsync_check_opts_init(&o);
	o.sems[1] = s1;
	o.sems[2] = s2;
	snprintf(path, sizeof(path), "%s/model.pml", dir);
	f = fopen(path, "w");
	ret = f ? ck_promela(part, 1, &o, KINDS, f, NULL) : -EIO;
	if (f)
		fclose(f);
	if (!ret)
		ret = spin_check(dir, &sr) ?: ncsync_check(part->prog, &o, &res);
	for (k = 0; !ret && k < NCSYNC_DEFECT_KINDS; k++)
		if (ck_find(res, k) && (KINDS | 1U << NCSYNC_DEFECT_DEADLOCK) &
				       1U << k)
			want |= 1U << k;
	TAP_CHECK(!ret && sr.found == want && want & 1U << NCSYNC_DEFECT_EVENT &&
		  want & 1U << NCSYNC_DEFECT_DMA_RACE,
		  "SPIN finds the kinds ncsync finds, sem[1] = %d, sem[2] = %d: %#x, %#x",
		  s1, s2, sr.found, want);
	ncsync_check_free(res);
}

static void kinds(void)
{
	struct ncsync_program *p = ck_build(kinds_text, NCSYNC_LOWER_COUNTER);
	struct ncsync_asm_part part = { .prog = p };

	kinds_model(&part);
	if (spin_available()) {
		kinds_spin(&part, 0, 0);
		kinds_spin(&part, INT32_MAX - 2, 0);
		kinds_spin(&part, 0, INT32_MAX);
	}
	ncsync_program_free(p);
}

/*
 * ncsync_check_promela_kinds(): the library's entry point to the models
 * of kinds_model(): ck_promela()'s model for the kinds of
 * NCSYNC_PROMELA_KINDS (the deadlock bit changes nothing: it is the
 * invalid end state), ncsync_check_promela()'s for none; another kind is
 * EINVAL and writes nothing.
 */
static void kinds_public(void)
{
	struct ncsync_program *p = ck_build(kinds_text, NCSYNC_LOWER_COUNTER);
	struct ncsync_asm_part part = { .prog = p };
	char *all, *some, *none, *dl, *plain, *ck = NULL, buf[16] = "";
	size_t len = 0;
	FILE *f = open_memstream(&ck, &len);
	int r1, r2, r3, r4, r5, ret;

	ret = ck_promela(&part, 1, NULL, KINDS, f, NULL);
	fclose(f);
	all = model_kinds(&part, 1, NULL, NCSYNC_PROMELA_KINDS, &r1);
	some = model_kinds(&part, 1, NULL, 1U << NCSYNC_DEFECT_EVENT, &r2);
	none = model_kinds(&part, 1, NULL, 0, &r3);
	dl = model_kinds(&part, 1, NULL, 1U << NCSYNC_DEFECT_DEADLOCK, &r4);
	plain = model_of(&part, 1, NULL, &r5);
	TAP_CHECK(!ret && all && !strcmp(all, ck) && some &&
		  strstr(some, "assert(e0_3 != 1)") && !strstr(some, "assert(d") &&
		  none && plain && !strcmp(none, plain) && dl &&
		  !strcmp(dl, plain),
		  "ncsync_check_promela_kinds(): every kind, one, none, the deadlock: %d %d %d %d %d",
		  r1, r2, r3, r4, r5);
	f = fmemopen(buf, sizeof(buf), "w");
	TAP_CHECK(ncsync_check_promela_kinds(&part, 1, NULL,
					     1U << NCSYNC_DEFECT_BARRIER_IMBALANCE,
					     f) == -EINVAL &&
		  ncsync_check_promela_kinds(&part, 1, NULL,
					     1U << NCSYNC_DEFECT_UNPOSTED_WAIT,
					     f) == -EINVAL &&
		  !fflush(f) && !ftell(f) && !buf[0],
		  "ncsync_check_promela_kinds(): a kind not in NCSYNC_PROMELA_KINDS is EINVAL, nothing written");
	fclose(f);
	free(all);
	free(some);
	free(none);
	free(dl);
	free(plain);
	free(ck);
	ncsync_program_free(p);
}

static void bad_args(void)
{
	struct ncsync_program *p = ck_build("engine pool\n\tnop then sem[1]++\n",
					    NCSYNC_LOWER_COUNTER);
	struct ncsync_program *raw = NULL;
	struct ncsync_asm_part part = { .prog = p }, unfin;
	struct ncsync_check_opts o;
	char buf[16] = "";
	FILE *f = fmemopen(buf, sizeof(buf), "w");

	ncsync_program_new(&raw);
	unfin = (struct ncsync_asm_part){ .prog = raw };
	ncsync_check_opts_init(&o);
	TAP_CHECK(ncsync_check_promela(&part, 1, &o, NULL) == -EINVAL &&
		  ncsync_check_promela(NULL, 1, &o, f) == -EINVAL &&
		  ncsync_check_promela(&part, 0, &o, f) == -EINVAL &&
		  ncsync_check_promela(&unfin, 1, &o, f) == -EINVAL,
		  "no stream, no part, no finalized program: EINVAL");
	o.reserved = 1;
	TAP_CHECK(ncsync_check_promela(&part, 1, &o, f) == -EINVAL,
		  "non-zero reserved options: EINVAL");
	o.reserved = 0;
	o.flags = 0x80;
	TAP_CHECK(ncsync_check_promela(&part, 1, &o, f) == -EINVAL,
		  "an unknown flag: EINVAL");
	fflush(f);
	TAP_CHECK(!ftell(f) && !buf[0], "a refused call writes nothing");
	fclose(f);
	ncsync_program_free(raw);
	ncsync_program_free(p);
}

/* ncsync @args, its output to DIR/out; its exit status. */
static int tool(const char *args)
{
	char cmd[8192];
	const char *env = getenv("NCSYNC_TOOL");
	int st;

	snprintf(cmd, sizeof(cmd), "%s %s >%s/out 2>&1",
		 env ? env : NCSYNC_TEST_TOP "/build/tools/ncsync", args, dir);
	st = system(cmd);
	return st >= 0 && WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static char *slurp(const char *name)
{
	char path[4096], *buf = NULL;
	size_t cap = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "r");
	if (f && getdelim(&buf, &cap, '\0', f) < 0) {
		free(buf);
		buf = NULL;
	}
	if (f)
		fclose(f);
	return buf;
}

static void the_tool(void)
{
	const char *text = "engine pool\n\tnop then sem[1]++\nengine act\n"
			   "\tnop wait sem[1] >= 1\n";
	struct ncsync_program *p = ck_build(text, NCSYNC_LOWER_COUNTER);
	struct ncsync_asm_part part = { .prog = p };
	char path[4096], args[8192], *lib, *out;
	int ret, st;
	FILE *f;

	snprintf(path, sizeof(path), "%s/t.s", dir);
	f = fopen(path, "w");
	fputs(text, f);
	fclose(f);
	snprintf(args, sizeof(args), "check %s --promela %s/model.pml", path,
		 dir);
	st = tool(args);
	lib = model_of(&part, 1, NULL, &ret);
	out = slurp("model.pml");
	TAP_CHECK(st == 0 && lib && out && !strcmp(lib, out),
		  "ncsync check --promela writes the library's model: %d", st);
	free(out);
	snprintf(args, sizeof(args), "check %s --promela -", path);
	st = tool(args);
	out = slurp("out");
	TAP_CHECK(st == 0 && lib && out && !strcmp(lib, out),
		  "--promela - writes it to standard output: %d", st);
	free(out);
	f = fopen(path, "w");
	fprintf(f, "# options: --promela %s/x.pml\n%s", dir, text);
	fclose(f);
	snprintf(args, sizeof(args), "check %s", path);
	st = tool(args);
	out = slurp("out");
	snprintf(path, sizeof(path), "%s/x.pml", dir);
	TAP_CHECK(st == 2 && out && strstr(out, "--promela in its '# options:' line") &&
		  access(path, F_OK),
		  "--promela in a file's options line: exit 2, nothing written: %d",
		  st);
	free(out);
	free(lib);
	ncsync_program_free(p);
}

/*
 * --promela-kinds: the library's model of those kinds; a bad kind, no
 * --promela, or the option in a file's "# options:" line: exit 2, nothing
 * written.
 */
static void the_tool_kinds(void)
{
	struct ncsync_program *p = ck_build(kinds_text, NCSYNC_LOWER_COUNTER);
	struct ncsync_asm_part part = { .prog = p };
	char path[1024], pml[1024], args[4096], *lib, *lib2, *out, *out2;
	int ret, st, st2;
	FILE *f;

	snprintf(path, sizeof(path), "%s/k.s", dir);
	snprintf(pml, sizeof(pml), "%s/k.pml", dir);
	f = fopen(path, "w");
	fputs(kinds_text, f);
	fclose(f);
	lib = model_kinds(&part, 1, NULL, NCSYNC_PROMELA_KINDS, &ret);
	lib2 = model_kinds(&part, 1, NULL, 1U << NCSYNC_DEFECT_DMA_RACE |
			   1U << NCSYNC_DEFECT_OVERFLOW, &ret);
	snprintf(args, sizeof(args), "check %s --promela - --promela-kinds all",
		 path);
	st = tool(args);
	out = slurp("out");
	snprintf(args, sizeof(args),
		 "check %s --promela=- --promela-kinds=dma-race,overflow", path);
	st2 = tool(args);
	out2 = slurp("out");
	TAP_CHECK(!st && !st2 && lib && out && !strcmp(lib, out) && lib2 &&
		  out2 && !strcmp(lib2, out2) && strcmp(out, out2),
		  "--promela-kinds all, dma-race,overflow: the library's models: %d %d",
		  st, st2);
	free(out);
	free(out2);
	snprintf(args, sizeof(args),
		 "check %s --promela %s --promela-kinds deadlock,unposted-wait",
		 path, pml);
	st = tool(args);
	out = slurp("out");
	TAP_CHECK(st == 2 && out &&
		  strstr(out, "invalid --promela-kinds 'deadlock,unposted-wait'") &&
		  access(pml, F_OK),
		  "--promela-kinds of a kind SPIN is not asked: exit 2, names it, nothing written: %d",
		  st);
	free(out);
	snprintf(args, sizeof(args), "check %s --promela-kinds all", path);
	st = tool(args);
	out = slurp("out");
	TAP_CHECK(st == 2 && out &&
		  strstr(out, "--promela-kinds without --promela"),
		  "--promela-kinds without --promela: exit 2: %d", st);
	free(out);
	f = fopen(path, "w");
	fprintf(f, "# options: --promela-kinds all\n%s", kinds_text);
	fclose(f);
	snprintf(args, sizeof(args), "check %s --promela %s", path, pml);
	st = tool(args);
	out = slurp("out");
	TAP_CHECK(st == 2 && out &&
		  strstr(out, "--promela-kinds in its '# options:' line") &&
		  access(pml, F_OK),
		  "--promela-kinds in a file's options line: exit 2, nothing written: %d",
		  st);
	free(out);
	free(lib);
	free(lib2);
	ncsync_program_free(p);
}

/*
 * SPIN, going on past its errors, on the tool's model of every kind of
 * examples/@name: the kinds ncsync check -j finds there.
 */
static void spin_kinds_example(const char *name)
{
	struct spin_run sr = { .cflags = "-O0", .timeout_s = 300,
			       .panflags = "-c0 -m1000000 -w20" };
	char args[8192], key[64], *out;
	uint32_t want = 0;
	unsigned int k;
	int st, stj;

	snprintf(args, sizeof(args), "-j check %s/examples/%s",
		 NCSYNC_TEST_TOP, name);
	stj = tool(args);
	out = slurp("out");
	for (k = 0; out && k < NCSYNC_DEFECT_KINDS; k++) {
		snprintf(key, sizeof(key), "\"kind\":\"%s\"",
			 ncsync_defect_name(k));
		if (strstr(out, key) && NCSYNC_PROMELA_KINDS & 1U << k)
			want |= 1U << k;
	}
	free(out);
	snprintf(args, sizeof(args),
		 "check %s/examples/%s --promela %s/model.pml --promela-kinds all",
		 NCSYNC_TEST_TOP, name, dir);
	st = tool(args);
	if (!st)
		spin_check(dir, &sr);
	TAP_CHECK(stj == 1 && !st && sr.found == want && want,
		  "SPIN -c0 on the model of %s --promela-kinds all: the kinds ncsync check finds (%#x, %#x)",
		  name, sr.found, want);
}

/* SPIN on the tool's model of @name (in examples/ or DIR): @verdict. */
static void spin_example(const char *name, const char *opt,
			 enum spin_verdict verdict)
{
	struct spin_run sr = { .cflags = "-O0", .timeout_s = 300,
			       .panflags = "-m1000000 -w22" };
	char args[8192];
	int st;

	snprintf(args, sizeof(args), "check %s/%s %s --promela %s/model.pml",
		 name[0] == '/' ? "" : NCSYNC_TEST_TOP "/examples", name, opt,
		 dir);
	st = tool(args);
	if (!st)
		spin_check(dir, &sr);
	TAP_CHECK(!st && sr.verdict == verdict,
		  "SPIN on the model of %s %s: %s, as ncsync check (%llu states)",
		  name, opt, spin_verdict_name(sr.verdict),
		  (unsigned long long)sr.states);
}

/*
 * Branches with a paired wait before them and an update after: the third
 * pass waits for a third token that never comes; with three more tokens
 * at the start all five passes run.
 */
static void spin_branches(void)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/br.s", dir);
	f = fopen(path, "w");
	fputs("engine pool\ntop:\n\taddi r1, r1, 1\n"
	      "\tbr.lt.u32 r1, 3, top wait sem[1] > 0 then sem[1]--\n"
	      "\tbr.lt.u32 r1, 5, top then sem[2]++\n"
	      "engine act\n\tnop then sem[1] += 2\n", f);
	fclose(f);
	spin_example(path, "", SPIN_DEADLOCK);
	spin_example(path, "--sem 1=3", SPIN_SAFE);
}

int main(void)
{
	char cmd[64];

	if (!mkdtemp(dir)) {
		printf("1..0 # SKIP no temporary directory\n");
		return 0;
	}
	steps();
	kinds();
	kinds_public();
	bad_args();
	the_tool();
	the_tool_kinds();
	if (spin_available()) {
		spin_kinds_example("publish-race.s");
		spin_kinds_example("dma-drain.s");
		spin_example("abba.s", "", SPIN_DEADLOCK);
		spin_example("producer-consumer.s", "", SPIN_SAFE);
		spin_example("pingpong-cores.s", "--dma-fifo", SPIN_SAFE);
		spin_branches();
	} else {
		printf("# no spin(1): the examples were not checked by SPIN\n");
	}
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd))
		printf("# could not remove %s\n", dir);
	return tap_done();
}
