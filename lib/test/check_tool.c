// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * ncsync check and ncsync replay, the tool (no device needed): the verdict
 * of every example (as its header states it), JSON, the replay of a
 * reported schedule, and every bad input (exit status 2 with its message);
 * a program across cores, which check and replay refuse and asm prints.
 * The tool is $NCSYNC_TOOL, or build/tools/ncsync of the tree.
 */
#include <fcntl.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tap.h"

#ifndef NCSYNC_TEST_TOP
#define NCSYNC_TEST_TOP "."
#endif

extern char **environ;

static char tool[4096], out_path[64], err_path[64];
static char out[1 << 20], err[4096];

static void slurp(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	size_t n = f ? fread(buf, 1, len - 1, f) : 0;

	buf[n] = '\0';
	if (f)
		fclose(f);
}

/* Run the tool with @args (NULL-terminated); its exit status. */
static int run(const char *const *args)
{
	static const char *argv[1100] = { tool };
	posix_spawn_file_actions_t fa;
	int i, status = -1;
	pid_t pid;

	argv[0] = tool;
	for (i = 0; args[i] && i < 1098; i++)
		argv[i + 1] = args[i];
	argv[i + 1] = NULL;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 1, out_path,
					 O_WRONLY | O_CREAT | O_TRUNC, 0600);
	posix_spawn_file_actions_addopen(&fa, 2, err_path,
					 O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (!posix_spawn(&pid, tool, &fa, NULL, (char **)argv, environ))
		waitpid(pid, &status, 0);
	posix_spawn_file_actions_destroy(&fa);
	slurp(out_path, out, sizeof(out));
	slurp(err_path, err, sizeof(err));
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static const char *example(const char *name)
{
	static char path[8][4096];
	static unsigned int k;
	char *p = path[k++ % 8];

	snprintf(p, 4096, "%s/examples/%s", NCSYNC_TEST_TOP, name);
	return p;
}

struct verdict {
	const char *file;
	const char *opt;	/* one more option, or NULL */
	int status;
	const char *says;	/* in stdout */
};

static const struct verdict verdicts[] = {
	{ "abba.s", NULL, 1, "cycle: pool -> pe -> pool" },
	{ "deadlock.s", NULL, 1, "cycle: pool -> pe -> pool" },
	{ "publish-race.s", NULL, 1, "dma-race: act's copy (line 33) overlaps pool's copy in flight (line 27, pool#0@1)" },
	{ "dma-drain.s", NULL, 1, "dma-race: pool's copy (line 44) overlaps pool's copy in flight (line 42, pool#0@17)" },
	{ "dma-drain.s", "--dma-fifo", 0, "safe: 0 defects" },
	{ "barrier-skip.s", NULL, 1,
	  "\ndeadlock: pool waits in barrier (line 36), which dve skips "
	  "(line 35), after 44 steps\n" },
	{ "barrier-skip.s", NULL, 1,
	  "\nbarrier-imbalance: pool waits in barrier (line 36), which dve "
	  "skips (line 35)" },
	{ "barrier-skip.s", NULL, 1,
	  "  barrier (line 36): pool, act wait; dve ended: its branch at "
	  "line 35 (dve@17) skips it\n" },
	{ "barrier-skip.s", NULL, 1,
	  "  sems: [1]=1; barriers': [240]=5 [241]=402653184\n" },
	{ "barrier-skip.s", "-j", 1,
	  "\"barrier\":{\"line\":36,\"waiting\":[{\"engine\":\"pool\"},"
	  "{\"engine\":\"act\"}],\"missing\":[{\"engine\":\"dve\","
	  "\"ended\":true,\"record\":17,\"line\":35}]}" },
	{ "barrier-skip.s", "--lowering=events", 1,
	  "  barrier (line 36): pool, act wait; dve ended: its branch at "
	  "line 35 (dve@15) skips it\n" },
	{ "fence.s", NULL, 0, "safe: 0 defects" },
	{ "producer-consumer.s", NULL, 0, "safe: 0 defects" },
	{ "token-ring.s", NULL, 0, "safe: 0 defects" },
	{ "call-return.s", NULL, 0, "safe: 0 defects" },
	{ "barrier-loop.s", NULL, 0, "safe: 0 defects" },
	{ "producer-consumer.s", NULL, 0,
	  "checked by induction over its passes" },
	{ "abba.s", NULL, 1,
	  "searched pass by pass: a defect found on the classes" },
	{ "barrier-loop.s", "--max-states=500", 3,
	  "inconclusive: 0 defects in 500 states (limit: states, "
	  "--max-states 500)" },
	{ "fence.s", NULL, 0, "symmetric engines: act pe dve sp" },
	{ "fence.s", "--no-symmetry", 0, "safe: 0 defects" },
	{ "core-barrier-loop.s", "--max-memory=4", 3,
	  "(limit: memory, --max-memory 4 MiB)" },
	/* Sixteen engines on four cores, the checker's most: proved. */
	{ "core-barrier-loop-4x4.s", "--max-states=5000", 0,
	  "safe: 0 defects" },
	{ "core-barrier-loop-4x4.s", NULL, 0,
	  "checked by induction over its passes" },
	{ "barrier-loop.s", "--timeout=1", 3,
	  "(limit: time, --timeout 1 ms)" },
	{ "publish-race.s", "--max-states=10", 1,
	  "defect: 1 defect in 10 states (limit: states, --max-states 10: "
	  "there may be more defects)" },
};

static void examples(void)
{
	size_t i;

	for (i = 0; i < sizeof(verdicts) / sizeof(verdicts[0]); i++) {
		const struct verdict *v = &verdicts[i];
		const char *args[] = { "check", example(v->file), v->opt,
				       NULL };
		int st = run(args);

		TAP_CHECK(st == v->status && strstr(out, v->says),
			  "check %s%s%s: exit %d (want %d), says \"%s\"",
			  v->file, v->opt ? " " : "", v->opt ? v->opt : "", st,
			  v->status, v->says);
	}
}

/*
 * A loop's search on its classes that falls back: the loop's line gives
 * its states and the two searches' added, the verdict's line the states
 * pass by pass; -j gives them as accel's "class_states".  None when the
 * induction applied.
 */
static void class_states(void)
{
	const char *t[] = { "check", example("abba.s"), NULL };
	const char *j[] = { "-j", "check", example("abba.s"), NULL };
	const char *ap[] = { "-j", "check", example("producer-consumer.s"),
			     NULL };
	unsigned long long n = 0, cls = 0, all = 0, jcls = 0;
	const char *s;
	int st = run(t);

	s = strstr(out, "searched pass by pass: ");
	TAP_CHECK(st == 1 && sscanf(out, "%*s defect: 1 defect in %llu states",
				    &n) == 1 && s &&
		  (s = strstr(s, " (")) &&
		  sscanf(s, " (%llu states on its classes first, %llu in all)",
			 &cls, &all) == 2 && cls && all == n + cls,
		  "check abba.s: %llu states on the classes first, %llu in all, %llu pass by pass",
		  cls, all, n);
	st = run(j);
	s = strstr(out, "\"class_states\":");
	TAP_CHECK(st == 1 && s && strstr(out, "\"loop\":\"fell-back\"") &&
		  sscanf(s, "\"class_states\":%llu", &jcls) == 1 && jcls == cls,
		  "check -j abba.s: accel's \"class_states\" %llu, as the text", jcls);
	st = run(ap);
	TAP_CHECK(!st && strstr(out, "\"loop\":\"applied\"") &&
		  !strstr(out, "class_states"),
		  "check -j producer-consumer.s: by induction, no \"class_states\"");
}

/* The symmetry line and its JSON; none with --no-symmetry. */
static void symmetry(void)
{
	const char *off[] = { "check", example("fence.s"), "--no-symmetry",
			      NULL };
	const char *json[] = { "-j", "check", example("fence.s"), NULL };
	int st = run(off);

	TAP_CHECK(!st && !strstr(out, "symmetric"),
		  "check fence.s --no-symmetry: no symmetric engines");
	st = run(json);
	TAP_CHECK(!st && strstr(out, "\"symmetry\":[{\"class\":0,\"engine\":\"act\"},{\"class\":0,\"engine\":\"pe\"},{\"class\":0,\"engine\":\"dve\"},{\"class\":0,\"engine\":\"sp\"}]"),
		  "check -j fence.s: \"symmetry\": the class of act pe dve sp");
}

/* The schedule line of the last check's first defect, into @buf. */
static bool schedule_of(char *buf, size_t len)
{
	const char *s = strstr(out, "  schedule: "), *e;

	if (!s)
		return false;
	s += strlen("  schedule: ");
	e = strchr(s, '\n');
	if (!e || (size_t)(e - s) >= len)
		return false;
	snprintf(buf, len, "%.*s", (int)(e - s), s);
	return true;
}

static void replay(void)
{
	static char sched[1 << 14];
	const char *abba = example("abba.s");
	const char *c1[] = { "check", abba, NULL };
	const char *r1[] = { "replay", abba, sched, NULL };
	const char *r2[] = { "replay", abba, "pe@3.w0", NULL };
	const char *r3[] = { "replay", abba, "pe@0.zz", NULL };
	const char *j1[] = { "-j", "check", example("publish-race.s"), NULL };
	int st;

	st = run(c1);
	TAP_CHECK(st == 1 && schedule_of(sched, sizeof(sched)),
		  "check abba.s prints a schedule");
	st = run(r1);
	TAP_CHECK(st == 1 && strstr(out, "engines: pool blocked at line 29 (4.w0) pe "
				   "blocked at line 39 (4.w0)\n    sems: all 0") &&
		  strstr(out, "defect at step ") &&
		  strstr(out, ": deadlock: pool waits for sem[2] > 0 (line 29), no step can run\n"),
		  "replay of that schedule ends with both engines blocked, the deadlock marked, exit 1 (%d)",
		  st);
	st = run(r2);
	TAP_CHECK(st == 1 && strstr(err, "step 1 (pe@3.w0) cannot run"),
		  "replay of a step that cannot run: exit 1, names the step");
	st = run(r3);
	TAP_CHECK(st == 2 && strstr(err, "invalid step 'pe@0.zz'"),
		  "replay of a malformed step: exit 2");
	st = run(j1);
	TAP_CHECK(st == 1 && strstr(out, "\"verdict\":\"defect\"") &&
		  strstr(out, "\"complete\":true") &&
		  strstr(out, "\"accel\":{\"loop\":\"none\"}") &&
		  strstr(out, "\"kind\":\"dma-race\"") &&
		  strstr(out, "\"schedule\":[{\"step\":\"pool@0.fx\"") &&
		  strstr(out, "\"reached\":{\"engines\":[{\"id\":"),
		  "check -j: verdict, acceleration, defects with kind, schedule, state reached");
}

/* A loop of 200 passes that deadlocks at its end: a schedule of 603 steps. */
static const char long_loop[] =
	"engine pool\n\tmovi r1, 0\n"
	"loop:\taddi r1, r1, 1\n\tnop then sem[3]++\n"
	"\tbr.lt.u32 r1, 200, loop\n\tnop wait sem[4] >= 1\n\texit\n"
	"engine act\n\tnop wait sem[3] >= 200\n\texit\n";

static void put_file(const char *dir, const char *name, const char *text,
		     char *path, size_t len);

/* Write the last run's standard output to @dir/@name, into @path. */
static void keep_out(const char *dir, const char *name, char *path,
		     size_t len)
{
	put_file(dir, name, out, path, len);
}

/*
 * A schedule of hundreds of steps replays: as operands (one each, and
 * one operand with every word), from check's text in a file
 * (@FILE) and from check -j's output in a file.
 */
static void replay_long(const char *dir)
{
	static char prog[4096], txt[4096], js[4096], at_txt[4100],
		at_js[4100], sched[1 << 14];
	const char *c1[] = { "check", prog, NULL };
	const char *c2[] = { "-j", "check", prog, NULL };
	const char *r1[] = { "replay", prog, sched, NULL };
	const char *r2[] = { "replay", prog, at_txt, NULL };
	const char *r3[] = { "replay", prog, at_js, NULL };
	const char *end = "step 603: ";
	int st;

	put_file(dir, "long.s", long_loop, prog, sizeof(prog));
	st = run(c1);
	TAP_CHECK(st == 1 && schedule_of(sched, sizeof(sched)) &&
		  strstr(out, "after 603 steps"),
		  "check of a 200-pass loop: a deadlock after 603 steps");
	keep_out(dir, "long.txt", txt, sizeof(txt));
	snprintf(at_txt, sizeof(at_txt), "@%s", txt);
	st = run(r1);
	TAP_CHECK(st == 1 && strstr(out, end),
		  "replay of its 603 steps in one operand");
	st = run(r2);
	TAP_CHECK(st == 1 && strstr(out, end),
		  "replay @FILE of check's text output");
	st = run(c2);
	TAP_CHECK(st == 1 && strstr(out, "\"state\":\"running\"") &&
		  !strstr(out, "\"state\":\"runs\""),
		  "check -j names a running engine 'running', as run -j does");
	keep_out(dir, "long.json", js, sizeof(js));
	snprintf(at_js, sizeof(at_js), "@%s", js);
	st = run(r3);
	TAP_CHECK(st == 1 && strstr(out, end) && !strstr(out, "step 604"),
		  "replay @FILE of check -j: its first defect's schedule");
	TAP_CHECK(run((const char *[]){ "replay", prog, "@/nonexistent", NULL }) == 2 &&
		  strstr(err, "schedule /nonexistent: No such file"),
		  "replay @FILE of a missing file: exit 2, names it");
}

/* Two engines set one event: an event defect, act's set faults. */
static const char event_twice[] =
	"engine pool\n\tnop then ev[3] set\n\texit\n"
	"engine act\n\tnop then ev[3] set\n\texit\n";

/*
 * check -j and replay -j name an engine's fault and wait as run -j does;
 * replay marks the defect its schedule ends at and exits 1, and not a
 * schedule that stops short of it.
 */
static void replay_defect(const char *dir)
{
	static char prog[4096], sched[4096];
	const char *dl = example("deadlock.s");
	const char *ce[] = { "-j", "check", prog, NULL };
	const char *ct[] = { "check", prog, NULL };
	const char *cd[] = { "-j", "check", dl, NULL };
	const char *rj[] = { "-j", "replay", prog, sched, NULL };
	const char *rt[] = { "replay", prog, sched, NULL };
	int st;

	put_file(dir, "event.s", event_twice, prog, sizeof(prog));
	st = run(ce);
	TAP_CHECK(st == 1 && strstr(out, "\"kind\":\"event\"") &&
		  strstr(out, "{\"id\":2,\"engine\":\"act\",\"state\":\"running\",\"fault\":\"event_set_while_set\",\"pc\":1}") &&
		  strstr(out, "{\"id\":1,\"engine\":\"pool\",\"state\":\"done\",\"fault\":\"none\",\"pc\":1}"),
		  "check -j of an event defect: the engine at fault has fault event_set_while_set, the other none");
	st = run(cd);
	TAP_CHECK(st == 1 && strstr(out, "\"state\":\"blocked\",\"fault\":\"none\",\"pc\":34,\"wait\":{\"on\":\"sem[2] > 0\",\"kind\":\"sem\",\"mode\":4,\"index\":2,\"lane\":0,\"threshold\":0,\"current\":0}"),
		  "check -j of a deadlock: a blocked engine's wait as run -j prints it");
	run(ct);
	TAP_CHECK(schedule_of(sched, sizeof(sched)), "check of the event defect prints a schedule");
	st = run(rj);
	TAP_CHECK(st == 1 && !strncmp(out, "{\"file\":", 8) &&
		  strstr(out, "\"schedule\":[{\"step\":\"pool@0.u0\",\"engine\":\"pool\",\"record\":0,\"line\":2}") &&
		  strstr(out, "\"reached\":{\"engines\":[") &&
		  strstr(out, "\"fault\":\"event_set_while_set\"") &&
		  strstr(out, "\"defects\":[{\"kind\":\"event\"") &&
		  !strstr(out, "initial state"),
		  "replay -j: JSON, its steps with their lines, the state reached, the defect; exit %d", st);
	st = run(rt);
	TAP_CHECK(st == 1 && strstr(out, "  nop then ev[3] set  (line 5)\n") &&
		  strstr(out, "defect at step 3: event: act sets ev[3] while it is set (line 5)\n"),
		  "replay: each step's source line, the defect marked, exit %d", st);
	*strrchr(sched, ' ') = '\0';
	st = run(rj);
	TAP_CHECK(st == 0 && strstr(out, "\"defects\":[]}") &&
		  !strstr(out, "event_set_while_set"),
		  "replay -j of a schedule short of the defect: no defect, exit %d", st);
	st = run(rt);
	TAP_CHECK(st == 0 && !strstr(out, "defect at"),
		  "replay of a schedule short of the defect: no mark, exit %d", st);
	unlink(prog);
}

/* More than 256 operands: one step each. */
static void replay_many_operands(const char *dir)
{
	static char prog[4096], sched[1 << 14];
	const char *argv[1024] = { "replay", prog };
	const char *c1[] = { "check", prog, NULL };
	char *save, *w;
	int n = 2, st;

	put_file(dir, "long2.s", long_loop, prog, sizeof(prog));
	run(c1);
	if (!schedule_of(sched, sizeof(sched)))
		sched[0] = '\0';
	for (w = strtok_r(sched, " ", &save); w && n < 1022;
	     w = strtok_r(NULL, " ", &save))
		argv[n++] = w;
	argv[n] = NULL;
	st = run(argv);
	TAP_CHECK(n == 605 && st == 1 && strstr(out, "step 603: ") &&
		  !strstr(out, "step 604"),
		  "replay of 603 operands, one step each (%d)", n - 2);
}

/* Write @text to @dir/@name, into @path. */
static void put_file(const char *dir, const char *name, const char *text,
		     char *path, size_t len)
{
	FILE *f;

	snprintf(path, len, "%s/%s", dir, name);
	f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

/*
 * The headline of each kind in the source's terms: what the engine waits
 * for or does, its line, and why.
 */
static void headlines(const char *dir)
{
	static const char *const cases[][3] = {
		{ "unposted.s", "engine pool\n\tnop\n\tnop wait ev[5] set\n"
		  "engine pe\n\tnop\n",
		  "\nunposted-wait: pool waits for ev[5] set (line 3), nothing "
		  "posts it, after " },
		{ "even.s", "engine pool\n\tnop then sem[2] += 2\n"
		  "\tnop then sem[2] += 2\nengine pe\n\tnop wait sem[2] == 3\n",
		  "\nunposted-wait: pe waits for sem[2] == 3 (line 5), never "
		  "true: what it waits on takes only 0, 2, 4, after " },
		{ "overflow.s", "# options: --sem 3=2147483647\nengine pool\n"
		  "\tnop then sem[3]++\n",
		  "\noverflow: pool adds to sem[3] past 2^31 - 1 (line 3), "
		  "after 1 step\n" },
		{ "underflow.s", "# options: --sem 3=-2147483648\nengine pool\n"
		  "\tnop then sem[3]--\n",
		  "\noverflow: pool subtracts from sem[3] below -2^31 (line 3)" },
		{ "clear.s", "engine pool\n\tnop then ev[4] clear\n",
		  "\nevent: pool clears ev[4] while it is clear (line 2)" },
	};
	static char path[4096];
	const char *args[] = { "check", path, NULL };
	size_t i;
	int st;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		put_file(dir, cases[i][0], cases[i][1], path, sizeof(path));
		st = run(args);
		TAP_CHECK(st == 1 && strstr(out, cases[i][2]),
			  "check %s: says \"%s\", exit %d", cases[i][0],
			  cases[i][2] + 1, st);
		unlink(path);
	}
}

/* More bad values and lines: each exits 2 with its message. */
static void bad_values(const char *dir)
{
	static char opts[4096], five[4096], eqwait[4096], eqcore[4096];
	static char peer9[4096], peer2[4096];
	const char *fence = example("fence.s");
	const char *pp = example("pingpong-cores.s");
	const char *const cases[][5] = {
		{ "check", "--max-states", "0", fence, "invalid --max-states '0'" },
		{ "check", "--lowering", "bogus", fence, "invalid --lowering 'bogus'" },
		{ "check", "--event", "300", fence, "invalid --event '300'" },
		{ "check", "--sem", "3", fence, "invalid --sem '3'" },
		{ "check", "--timeout", "x", fence, "invalid --timeout 'x'" },
		{ "check", opts, NULL, NULL, "in its '# options:' line" },
		{ "check", "--lnc", "0", fence, "invalid --lnc '0'" },
		{ "check", "--lnc", "1", pp,
		  "core 1: outside a logical core of 1 core" },
		{ "check", five, NULL, NULL,
		  "more than 4 cores (with the peers its DMA records signal) or 16 engines" },
		{ "check", "--lnc", "2", peer9,
		  "peer9.s: line 3: engine pool record 1: DMA completion update on a core outside the logical core" },
		{ "check", peer2, NULL, NULL,
		  "peer2.s: core 1: line 6: engine act record 0: DMA completion update on a core outside the logical core" },
		{ "check", "--conformance", eqwait, NULL,
		  "eqwait.s: line 2: engine pool record 0: conformance: EventSemaphore wait not GE" },
		{ "check", "--conformance", eqcore, NULL,
		  "eqcore.s: core 1: line 6: engine pool record 0: conformance: EventSemaphore wait not GE" },
	};
	size_t i;

	put_file(dir, "opts.s", "# options: --bogus\nengine pool\n\texit\n",
		 opts, sizeof(opts));
	put_file(dir, "five.s",
		 "core 0\nengine pool\n\tnop\ncore 1\nengine pool\n\tnop\n"
		 "core 2\nengine pool\n\tnop\ncore 3\nengine pool\n\tnop\n"
		 "core 4\nengine pool\n\tnop\n", five, sizeof(five));
	put_file(dir, "eqwait.s", "engine pool\n\tevsem wait sem[1] == 0\n",
		 eqwait, sizeof(eqwait));
	put_file(dir, "eqcore.s", "core 0\nengine pool\n\tnop\ncore 1\n"
		 "engine pool\n\tevsem wait sem[1] == 0\n", eqcore,
		 sizeof(eqcore));
	/* A peer outside the logical core (--lnc, or the parts' default). */
	put_file(dir, "peer9.s", "engine pool\n\tnop\n"
		 "\tdma 0x0, 0x100, 64, peer=9 on_land sem[3]++\n", peer9,
		 sizeof(peer9));
	put_file(dir, "peer2.s", "core 0\nengine pool\n\tnop\ncore 1\n"
		 "engine act\n\tdma 0x0, 0x100, 64, peer=2 on_land sem[3]++\n",
		 peer2, sizeof(peer2));
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *args[] = { cases[i][0], cases[i][1], cases[i][2],
				       cases[i][3], NULL };

		TAP_CHECK(run(args) == 2 && strstr(err, cases[i][4]),
			  "check %s %s: exit 2, \"%s\"", cases[i][1],
			  cases[i][2] ? cases[i][2] : "", cases[i][4]);
	}
	unlink(opts);
	unlink(five);
	unlink(eqwait);
	unlink(eqcore);
	unlink(peer9);
	unlink(peer2);
}

/* An image from ncsync asm -o is checked as its text is. */
static void image(const char *dir)
{
	static char img[4096];
	const char *a[] = { "asm", example("deadlock.s"), "-o", img, NULL };
	const char *c[] = { "check", img, NULL };

	snprintf(img, sizeof(img), "%s/deadlock.img", dir);
	TAP_CHECK(run(a) == 0 && run(c) == 1 &&
		  strstr(out, "cycle: pool -> pe -> pool"),
		  "check of an image: the deadlock of its text");
	unlink(img);
}

static void bad_inputs(const char *dir)
{
	static char bad[4096], none[4096];
	const char *a1[] = { "check", "--bogus", example("abba.s"), NULL };
	const char *a2[] = { "check", none, NULL };
	const char *a3[] = { "check", bad, NULL };
	const char *a4[] = { "check", NULL };
	const char *a5[] = { "check", "--sem", "300=1", bad, NULL };
	const char *a6[] = { "replay", example("abba.s"), NULL };

	snprintf(none, sizeof(none), "%s/missing.s", dir);
	put_file(dir, "bad.s", "engine pool\n\tnop wait sem[1] >> 0\n", bad,
		 sizeof(bad));
	TAP_CHECK(run(a1) == 2 && strstr(err, "unknown option '--bogus'"),
		  "check --bogus: exit 2, unknown option");
	TAP_CHECK(run(a2) == 2 && strstr(err, "No such file or directory"),
		  "check of an unreadable file: exit 2");
	TAP_CHECK(run(a3) == 2 && strstr(err, "bad.s:2:19: "),
		  "check of a malformed program: exit 2, line and column");
	TAP_CHECK(run(a4) == 2 && strstr(err, "missing FILE"),
		  "check without FILE: exit 2");
	TAP_CHECK(run(a5) == 2 && strstr(err, "invalid --sem '300=1'"),
		  "check --sem out of range: exit 2");
	TAP_CHECK(run(a6) == 2 && strstr(err, "missing SCHEDULE"),
		  "replay without a schedule: exit 2");
	unlink(bad);
}

/* The program: it writes the counter and r31 of its barrier. */
#define OWN_WRITE \
	"engine pool\nengine act\n" \
	"engine pool\n\tnop then sem[240]++\n\tbarrier\n" \
	"engine act\n\tbarrier\n\tmovi r31, 0\n"

/*
 * A write to what the lowering owns: check (with --conformance too) and
 * asm refuse it (exit 2, asm 1), at its line and column (across cores: naming
 * the core); without the barrier it is the program's.
 */
static void own_write(const char *dir)
{
	static char own[4096], fine[4096], cores[4096], img[4096];
	const char *c1[] = { "check", own, NULL };
	const char *c2[] = { "check", "--conformance", own, NULL };
	const char *c3[] = { "asm", own, "-o", img, NULL };
	const char *c4[] = { "check", fine, NULL };
	const char *c5[] = { "check", cores, NULL };
	int st;

	snprintf(img, sizeof(img), "%s/own.img", dir);
	put_file(dir, "own.s", OWN_WRITE, own, sizeof(own));
	put_file(dir, "fine.s", "engine pool\n\tnop then sem[240]++\n"
		 "\tmovi r31, 0\n", fine, sizeof(fine));
	put_file(dir, "cores.s", "core 0\nengine pool\n\tcore_barrier sem[9]\n"
		 "core 1\nengine pool\n\tcore_barrier sem[9]\n"
		 "\tsema_clear 9..9\n", cores, sizeof(cores));
	st = run(c1);
	TAP_CHECK(st == 2 && !out[0] &&
		  strstr(err, "own.s:4:2: engine pool record 0 (line 4:2) writes sem[240], a counter of the all-engine barrier's counter form: the lowering owns it"),
		  "check of a write to a barrier counter: exit %d, line:column and the counter", st);
	st = run(c2);
	TAP_CHECK(st == 2 && strstr(err, "own.s:4:2: ") &&
		  strstr(err, "sem[240]"),
		  "check --conformance of it: exit %d, refused", st);
	st = run(c3);
	TAP_CHECK(st == 1 && strstr(err, "own.s:4:2: ") &&
		  access(img, F_OK),
		  "asm of it: exit %d, refused, no image", st);
	st = run(c4);
	TAP_CHECK(st == 0, "without a barrier sem[240] and r31 are the program's: exit %d",
		  st);
	st = run(c5);
	TAP_CHECK(st == 2 && strstr(err, "cores.s:7:2: core 1: engine pool record 1") &&
		  strstr(err, "sem[9], the semaphore of the program's core barriers"),
		  "across cores: the core and the core barrier's semaphore: exit %d", st);
	unlink(own);
	unlink(fine);
	unlink(cores);
}

/* A copy to the other core, whose engine waits for two. */
#define CROSSED \
	"core 0\nengine pool\n" \
	"\tdma 0x0, 0x100, 64, peer=1 on_land sem[3]++\n" \
	"\tnop wait sem[4] >= 1\n" \
	"core 1\nengine act\n\tnop wait sem[3] >= 2\n"

/* examples/pingpong-cores.s and a deadlock across cores: checked, replayed. */
static void cores_checked(const char *dir)
{
	static char crossed[4096];
	const char *ck[] = { "check", example("pingpong-cores.s"), NULL };
	const char *cx[] = { "check", crossed, NULL };
	const char *rp[] = { "replay", crossed, "0:pool@0.fx 0:pool#0@0.land",
			     NULL };
	const char *bad[] = { "replay", crossed, "pool@0.fx", "1:pool@0.fx",
			      NULL };
	int st;

	put_file(dir, "crossed.s", CROSSED, crossed, sizeof(crossed));
	st = run(ck);
	TAP_CHECK(st == 0 && strstr(out, ": safe: 0 defects"),
		  "check of pingpong-cores.s across two cores: safe, exit %d",
		  st);
	st = run(cx);
	TAP_CHECK(st == 1 && strstr(out, "deadlock: 0:pool waits for sem[4] >= 1 (line 4), no step can run") &&
		  strstr(out, "schedule: 0:pool@0.fx 0:pool#0@0.land\n") &&
		  strstr(out, "  core 1:\n    engines: 1:act blocked at line 7 (0.w0)\n    sems: [3]=1\n"),
		  "check of a deadlock across cores: the schedule and each core, exit %d",
		  st);
	st = run(rp);
	TAP_CHECK(st == 1 && strstr(out, "step 2: 0:pool#0@0.land") &&
		  strstr(out, "    core 1:\n      engines: 1:act blocked at line 7 (0.w0)\n      sems: [3]=1\n") &&
		  strstr(out, "defect at step 2: deadlock: 0:pool waits for sem[4] >= 1 (line 4), no step can run\n"),
		  "replay of its schedule: the landing on core 1, exit %d", st);
	st = run(bad);
	TAP_CHECK(st == 1 && strstr(err, "step 2 (1:pool@0.fx) cannot run"),
		  "replay of a step of an engine core 1 has not: exit %d", st);
	unlink(crossed);
}

/* examples/pingpong-cores.s, printed part by part; no image of it. */
static void cores(const char *dir)
{
	const char *as[] = { "asm", example("pingpong-cores.s"), NULL };
	char img[4096];
	const char *ao[] = { "asm", "-o", img, example("pingpong-cores.s"),
			     NULL };
	int st;

	st = run(as);
	TAP_CHECK(st == 0 && !strncmp(out, "core 0\nengine pool\n", 19) &&
		  strstr(out, "\ncore 1\nengine pool\n"),
		  "asm of cores prints core 0, then core 1: exit %d", st);
	snprintf(img, sizeof(img), "%s/cores.img", dir);
	st = run(ao);
	TAP_CHECK(st == 1 && strstr(err, "an image holds the program of one core") &&
		  access(img, F_OK), "asm -o of cores refused, no image: exit %d",
		  st);
	cores_checked(dir);
}

int main(void)
{
	char dir[] = "/tmp/ncsync-check-XXXXXX";
	const char *env = getenv("NCSYNC_TOOL");

	snprintf(tool, sizeof(tool), "%s", env ? env :
		 NCSYNC_TEST_TOP "/build/tools/ncsync");
	if (access(tool, X_OK) || !mkdtemp(dir)) {
		printf("ok 1 - # SKIP no tool at %s\n1..1\n", tool);
		return 0;
	}
	snprintf(out_path, sizeof(out_path), "%s/out", dir);
	snprintf(err_path, sizeof(err_path), "%s/err", dir);
	examples();
	symmetry();
	class_states();
	replay();
	replay_long(dir);
	replay_many_operands(dir);
	replay_defect(dir);
	bad_inputs(dir);
	bad_values(dir);
	own_write(dir);
	headlines(dir);
	image(dir);
	cores(dir);
	unlink(out_path);
	unlink(err_path);
	rmdir(dir);
	return tap_done();
}
