// SPDX-License-Identifier: GPL-2.0
/*
 * ncsync - command-line tool for the ncsync sync fabric, in the style of
 * ip(8) and devlink(8): ncsync [OPTIONS] COMMAND [ARGS...].
 *
 * The commands are the cmds[] table: per command its name, usage, help
 * and the function that runs it (each in a file of its own, cmds.h),
 * which gets its entry and argc/argv starting at its name and returns the
 * exit status: 0 success, 1 the operation failed, 2 usage error.  Errors
 * go to stderr as "ncsync: WHAT: REASON".
 * Documentation: tools/ncsync.1, Documentation/ncsync/tool.rst.
 */
#include <errno.h>
#include <string.h>

#include "cmds.h"
#include "opts.h"

static int cmd_help(const struct cmd *c, int argc, char **argv);

static const struct cmd cmds[] = {
	{ "load", "[--path FILE.ko] [PARAM=VALUE ...]",
	  "insert the module from FILE.ko, or by name (\"ncsync\") from\n"
	  "\t/lib/modules/$(uname -r) with its dependencies; the PARAM=VALUE\n"
	  "\twords are its parameters (cores=N, watchdog_ms=MS, ...)",
	  cmd_load },
	{ "unload", "", "remove the module", cmd_unload },
	{ "info", "", "the core's geometry, parameters and counters",
	  cmd_info },
	{ "sem", "get N[..M] ... | set N VALUE | inc N [VALUE] | dec N [VALUE]",
	  "read semaphores, or set, increment or decrement one; prints\n"
	  "\tthe value (one index: the bare value)",
	  cmd_sem },
	{ "event", "get N[..M] ... | set N | clear N",
	  "read events (1 set, 0 clear), or set or clear one",
	  cmd_event },
	{ "reset", "",
	  "reset the core: stop its programs (they end cancelled), zero\n"
	  "\tevery semaphore and event, end every wait on it (the device\n"
	  "\tmemory is kept); needs a writable descriptor",
	  cmd_reset },
	{ "wait", "sem N OP VALUE | event N set|clear [--timeout MS]",
	  "block until the condition holds; OP is == < <= > >= (or eq lt le\n"
	  "\tgt ge); exits 1 when --timeout MS passes first",
	  cmd_wait },
	{ "asm", "FILE [-o OUT] [--lowering counter|events]",
	  "assemble FILE (\"-\": stdin), lower its barriers and check it; print\n"
	  "\tthe lowered program as text, or write the binary image OUT",
	  cmd_asm },
	{ "disasm", "FILE [--engine NAME]",
	  "print a program image (ncsync asm -o) as text; a file of bare\n"
	  "\t64-byte records is one queue (of engine NAME)",
	  cmd_disasm },
	{ "run", "FILE [--timeout MS] [--watchdog MS] [--strict]\n"
	  "\t    [--conformance] [--timeline OUT.svg]\n"
	  "\t    [--lowering counter|events] [--check]",
	  "assemble, lower and submit FILE (text or image), wait for the end\n"
	  "\tand print the status; for a fault or a timeout the snapshot: each\n"
	  "\tengine's wait and the non-zero semaphores, and the deadlock cycle\n"
	  "\tif there is one.  Exits 1 unless the program ends done or halted.\n"
	  "\t--check: check it first (as ncsync check), and submit it only\n"
	  "\twhen no defect is found",
	  cmd_run },
	{ "check", "FILE [--lowering counter|events] [--sem N=V,...]\n"
	  "\t    [--event N,...] [--max-states N] [--timeout MS] [--dma-fifo]\n"
	  "\t    [--conformance] [--lnc N] [--max-memory MIB] [--no-accel]\n"
	  "\t    [--no-symmetry] [--promela OUT.pml [--promela-kinds KIND,...|all]]",
	  "explore every schedule of FILE's lowered program on a host model\n"
	  "\tof the engines; report each defect kind (deadlock, dma-race,\n"
	  "\tevent, overflow, barrier-imbalance, unposted-wait) with a schedule\n"
	  "\tthat reaches it.  Exits 0 safe, 1 defect, 2 bad input or an\n"
	  "\terror, 3 inconclusive (a limit, which it names, was reached\n"
	  "\tfirst).  A loop whose state repeats up to a shift of its counters\n"
	  "\tis checked by induction over its passes; --no-accel: pass by pass.\n"
	  "\tEngines of a core that run the same records are searched as\n"
	  "\tinterchangeable; --no-symmetry: each order apart.\n"
	  "\t--promela writes the lowered program as a Promela model for SPIN\n"
	  "\tinstead ('-': stdout); it asserts --promela-kinds' defects too\n"
	  "\t(dma-race, event, overflow, all; a deadlock is SPIN's invalid\n"
	  "\tend state)",
	  cmd_check },
	{ "replay", "FILE SCHEDULE... [--lowering counter|events] [--sem N=V,...]\n"
	  "\t    [--event N,...] [--dma-fifo] [--lnc N]",
	  "run a schedule ncsync check printed on the host model, step by\n"
	  "\tstep, printing the state after each; @FILE (- for stdin) reads\n"
	  "\tthe schedule of check's output or check -j's from a file.\n"
	  "\tExits 1 when a step cannot run",
	  cmd_replay },
	{ "dump", "[--all]",
	  "the core's banks (non-zero semaphores and set events; --all: every\n"
	  "\tentry), counters and the engines of its running programs",
	  cmd_dump },
	{ "monitor", "[--count N] [--timeout MS] [--timestamp]",
	  "print notifications (event writes while \"notify on\", program\n"
	  "\tends, faults) as they come, of core -c or of every core; stop\n"
	  "\tafter N of them, or after MS (exit 1 if N were not seen)",
	  cmd_monitor },
	{ "notify", "[on|off]",
	  "turn the core's event notifications on or off, or show the setting",
	  cmd_notify },
	{ "top", "[--once] [--interval MS] [--iterations N]",
	  "a live view of the non-zero semaphores, set events and engine PCs",
	  cmd_top },
	{ "help", "[COMMAND]", "show this help, or a command's", cmd_help },
};

#define NCMDS	ARRAY_SIZE(cmds)

static void print_help(FILE *f)
{
	size_t i;

	print_usage(f);
	fprintf(f, "\noptions (before or after the command):\n"
		   "  -c, --core N   the core, /dev/ncsyncN (default 0)\n"
		   "  -j, --json     JSON output\n"
		   "  -h, --help     help\n"
		   "  -V, --version  the version\n\ncommands:\n");
	for (i = 0; i < NCMDS; i++)
		fprintf(f, "  %s%s%s\n\t%s\n", cmds[i].name,
			*cmds[i].args ? " " : "", cmds[i].args, cmds[i].help);
	fprintf(f, "\nexit status: 0 success, 1 failure, 2 usage error\n"
		   "see ncsync(1)\n");
}

static const struct cmd *find_cmd(const char *name)
{
	size_t i;

	for (i = 0; i < NCMDS; i++)
		if (!strcmp(cmds[i].name, name))
			return &cmds[i];
	return NULL;
}

/* help [COMMAND]: its options are the global ones (help --help). */
static int cmd_help(const struct cmd *c, int argc, char **argv)
{
	const struct cmd *of;
	struct args a;
	int ret;

	ret = parse_one(c, argc, argv, NULL, NULL, &a);
	if (ret)
		return OPTS_EXIT(ret);
	if (!a.npos) {
		print_help(stdout);
		return EXIT_OK;
	}
	of = find_cmd(a.pos[0]);
	if (!of) {
		fprintf(stderr, "ncsync: help: unknown command '%s'\n",
			a.pos[0]);
		return EXIT_USAGE;
	}
	print_cmd_help(stdout, of);
	return EXIT_OK;
}

int main(int argc, char **argv)
{
	const struct cmd *c;
	int ret, i;

	ret = parse_main_opts(argc, argv, &i);
	if (ret == OPTS_HELP_ALL)
		print_help(stdout);
	if (ret)
		return OPTS_EXIT(ret);
	if (i >= argc) {
		print_usage(stderr);
		fprintf(stderr, "ncsync: missing command (ncsync --help)\n");
		return EXIT_USAGE;
	}
	c = find_cmd(argv[i]);
	if (!c) {
		fprintf(stderr, "ncsync: unknown command '%s' (ncsync --help)\n",
			argv[i]);
		return EXIT_USAGE;
	}
	ret = c->fn(c, argc - i, argv + i);
	if (fflush(stdout) && !ret)
		return fail_err(errno, "write");
	return ret;
}
