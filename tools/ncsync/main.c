// SPDX-License-Identifier: GPL-2.0
/*
 * ncsync - command-line tool for the ncsync sync fabric, in the style of
 * ip(8) and devlink(8): ncsync [OPTIONS] COMMAND [ARGS...].
 *
 * Commands live in the cmds[] table; each gets argc/argv starting at its
 * own name and returns the exit status: 0 success, 1 the operation failed,
 * 2 usage error.  Errors go to stderr as "ncsync: WHAT: REASON".
 * Documentation: tools/ncsync.1, Documentation/ncsync/tool.rst.
 */
#include <errno.h>
#include <grp.h>
#include <sys/stat.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tool.h"

unsigned int opt_core;
bool opt_core_given;
bool opt_json;

static int cmd_help(int argc, char **argv);

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
	  "\t    [--promela OUT.pml]",
	  "explore every schedule of FILE's lowered program on a host model\n"
	  "\tof the engines; report each defect kind (deadlock, dma-race,\n"
	  "\tevent, overflow, barrier-imbalance, unposted-wait) with a schedule\n"
	  "\tthat reaches it.  Exits 0 safe, 1 defect, 2 bad input or an\n"
	  "\terror, 3 inconclusive (a limit, which it names, was reached\n"
	  "\tfirst).  A loop whose state repeats up to a shift of its counters\n"
	  "\tis checked by induction over its passes; --no-accel: pass by pass.\n"
	  "\t--promela writes the lowered program as a Promela model for SPIN\n"
	  "\tinstead ('-': stdout)",
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

static void print_usage(FILE *f)
{
	fprintf(f, "usage: ncsync [-c N] [-j] COMMAND [ARGS...]\n"
		   "       ncsync COMMAND --help\n"
		   "       ncsync --version\n");
}

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

void print_cmd_help(FILE *f, const struct cmd *c)
{
	fprintf(f, "usage: ncsync %s%s%s\n\t%s\n", c->name,
		*c->args ? " " : "", c->args, c->help);
}

const struct cmd *find_cmd(const char *name)
{
	size_t i;

	for (i = 0; i < NCMDS; i++)
		if (!strcmp(cmds[i].name, name))
			return &cmds[i];
	return NULL;
}

/* help [COMMAND]: its options are the global ones (help --help). */
static int cmd_help(int argc, char **argv)
{
	const struct cmd *c = find_cmd("help"), *of;
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

int fail_err(int err, const char *fmt, ...)
{
	va_list ap;

	fputs("ncsync: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, ": %s\n", strerror(err < 0 ? -err : err));
	return EXIT_FAIL;
}

int fail_msg(const char *fmt, ...)
{
	va_list ap;

	fputs("ncsync: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return EXIT_FAIL;
}

int usage_err(const struct cmd *c, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "ncsync: %s: ", c ? c->name : "usage");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	if (c)
		print_cmd_help(stderr, c);
	else
		print_usage(stderr);
	return EXIT_USAGE;
}

bool parse_u32(const char *s, uint32_t max, uint32_t *out)
{
	unsigned long long v;
	char *end;

	if (!*s || *s == '-' || *s == '+' || *s == ' ')
		return false;
	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || *end || v > max)
		return false;
	*out = v;
	return true;
}

/* A signed 32-bit value, or an unsigned one up to 2^32 - 1 (wrapped). */
bool parse_s32(const char *s, int32_t *out)
{
	long long v;
	char *end;

	if (!*s || *s == ' ')
		return false;
	errno = 0;
	v = strtoll(s, &end, 0);
	if (errno || *end || v < INT32_MIN || v > (long long)UINT32_MAX)
		return false;
	*out = (int32_t)(uint32_t)v;
	return true;
}

static bool is_option(const char *a)
{
	if (a[0] != '-')
		return false;
	if (a[1] == '-')
		return true;
	return (a[1] >= 'a' && a[1] <= 'z') || (a[1] >= 'A' && a[1] <= 'Z');
}

enum { GOPT_CORE, GOPT_JSON, GOPT_HELP, GOPT_VERSION };

static const struct opt global_opts[] = {
	[GOPT_CORE] = { .lng = "core", .shrt = 'c', .kind = OPT_U32,
			.max = 63 },
	[GOPT_JSON] = { .lng = "json", .shrt = 'j', .kind = OPT_FLAG },
	[GOPT_HELP] = { .lng = "help", .shrt = 'h', .kind = OPT_FLAG },
	[GOPT_VERSION] = { .lng = "version", .shrt = 'V', .kind = OPT_FLAG },
	{ /* sentinel */ }
};

static int global_opt(const struct cmd *c, const struct opt *o,
		      const char *arg)
{
	uint32_t v;

	switch (o - global_opts) {
	case GOPT_CORE:
		if (!parse_u32(arg, o->max, &v))
			return usage_err(c, "invalid core '%s'", arg);
		opt_core = v;
		opt_core_given = true;
		return 0;
	case GOPT_JSON:
		opt_json = true;
		return 0;
	case GOPT_VERSION:
		/* NCSYNC_VERSION: dkms.conf's PACKAGE_VERSION (tools/Makefile). */
		printf("ncsync %s\n", NCSYNC_VERSION);
		return OPTS_HELP;
	default:
		if (c)
			print_cmd_help(stdout, c);
		else
			print_help(stdout);
		return OPTS_HELP;
	}
}

/* @a ("--name[=value]" or "-xVALUE") names @o; *@inl: an inline value. */
static bool opt_matches(const struct opt *o, const char *a, const char **inl)
{
	bool has_arg = o->kind != OPT_FLAG;

	if (a[1] == '-') {
		size_t l = strlen(o->lng);

		if (strncmp(a + 2, o->lng, l))
			return false;
		if (a[2 + l] == '=' && has_arg) {
			*inl = a + 3 + l;
			return true;
		}
		return !a[2 + l];
	}
	if (!o->shrt || a[1] != o->shrt)
		return false;
	if (a[2] && has_arg) {
		*inl = a + 2;
		return true;
	}
	return !a[2];
}

/*
 * The global option (*@global) or the option of @opts (NULL: none) that @a
 * names, or NULL.
 */
static const struct opt *match_opt(const struct opt *opts, const char *a,
				   const char **inl, bool *global)
{
	const struct opt *tabs[2] = { global_opts, opts }, *o;
	size_t t;

	*inl = NULL;
	for (t = 0; t < ARRAY_SIZE(tabs); t++) {
		*global = !t;
		for (o = tabs[t]; o && o->lng; o++)
			if (opt_matches(o, a, inl))
				return o;
	}
	return NULL;
}

/* Store the value @arg of option @o of command @c into @dst. */
static int store_opt(const struct cmd *c, const struct opt *o,
		     const char *arg, void *dst)
{
	void *field = (char *)dst + o->off;
	uint32_t v;

	switch (o->kind) {
	case OPT_FLAG:
		*(bool *)field = true;
		return 0;
	case OPT_PATH:
		if (!*arg)
			return usage_err(c, "empty --%s", o->lng);
		/* fall through */
	case OPT_STR:
		*(const char **)field = arg;
		return 0;
	case OPT_U32:
		if (!parse_u32(arg, o->max, &v) || v < o->min)
			break;
		*(uint32_t *)field = v;
		return 0;
	case OPT_PARSE:
		if (o->parse(arg, field))
			return 0;
		break;
	}
	if (o->help)
		return usage_err(c, "invalid --%s '%s' (%s)", o->lng, arg,
				 o->help);
	return usage_err(c, "invalid --%s '%s'", o->lng, arg);
}

/*
 * The option at argv[*i], with its value (inline or the next argument),
 * into @dst or the globals.  0, an exit status or OPTS_HELP.
 */
static int take_opt(const struct cmd *c, int argc, char **argv, int *i,
		    const struct opt *opts, void *dst, unsigned int *given)
{
	const char *a = argv[*i], *arg;
	const struct opt *o;
	bool global;

	o = match_opt(opts, a, &arg, &global);
	if (!o)
		return usage_err(c, "unknown option '%s'", a);
	if (o->kind != OPT_FLAG && !arg) {
		if (*i + 1 >= argc)
			return usage_err(c, "option '%s' needs a value", a);
		arg = argv[++*i];
	}
	if (global)
		return global_opt(c, o, arg);
	*given |= 1U << (o - opts);
	return store_opt(c, o, arg, dst);
}

int parse_opts(const struct cmd *c, int argc, char **argv,
	       const struct opt *opts, void *dst, struct args *a)
{
	/* As many as the arguments: a schedule of replay has thousands. */
	static char **operands;
	bool dashdash = false;
	int i, n = 0, ret;

	memset(a, 0, sizeof(*a));
	free(operands);
	operands = calloc((size_t)argc + 1, sizeof(*operands));
	if (!operands)
		return fail_err(ENOMEM, "%s", c ? c->name : "arguments");
	for (i = 1; i < argc; i++) {
		if (dashdash || !is_option(argv[i])) {
			operands[n++] = argv[i];
		} else if (!strcmp(argv[i], "--")) {
			dashdash = true;
		} else {
			ret = take_opt(c, argc, argv, &i, opts, dst, &a->given);
			if (ret)
				return ret;
		}
	}
	operands[n] = NULL;
	a->pos = operands;
	a->npos = n;
	return 0;
}

void merge_opts(const struct opt *opts, void *dst, unsigned int *given,
		const void *src, unsigned int src_given)
{
	unsigned int i;

	for (i = 0; opts[i].lng; i++) {
		if (!(src_given & (1U << i)) || (*given & (1U << i)))
			continue;
		memcpy((char *)dst + opts[i].off,
		       (const char *)src + opts[i].off, opts[i].size);
		*given |= 1U << i;
	}
}

int parse_none(const struct cmd *c, int argc, char **argv,
	       const struct opt *opts, void *dst)
{
	struct args a;
	int ret = parse_opts(c, argc, argv, opts, dst, &a);

	if (!ret && a.npos)
		ret = usage_err(c, "unexpected argument '%s'", a.pos[0]);
	return ret;
}

int parse_one(const struct cmd *c, int argc, char **argv,
	      const struct opt *opts, void *dst, struct args *a)
{
	int ret = parse_opts(c, argc, argv, opts, dst, a);

	if (!ret && a->npos > 1)
		ret = usage_err(c, "unexpected argument '%s'", a->pos[1]);
	return ret;
}

int parse_file(const struct cmd *c, int argc, char **argv,
	       const struct opt *opts, void *dst, struct args *a,
	       char **text, size_t *len)
{
	int ret = parse_opts(c, argc, argv, opts, dst, a);

	if (ret)
		return ret;
	if (a->npos != 1)
		return usage_err(c, a->npos ? "unexpected argument '%s'" :
				 "missing FILE%s", a->npos ? a->pos[1] : "");
	ret = read_file(a->pos[0], text, len);
	return ret ? fail_err(ret, "%s", a->pos[0]) : 0;
}

/*
 * A refused open: say what the node allows and which group to join, as
 * packaging/60-ncsync.rules makes the nodes (group "ncsync", mode 0660).
 */
static int open_denied(unsigned int core, bool writable, int ret)
{
	char path[32];
	struct group *gr;
	struct stat st;

	snprintf(path, sizeof(path), "/dev/ncsync%u", core);
	if (stat(path, &st))
		return fail_err(ret, "open %s", path);
	gr = getgrgid(st.st_gid);
	if (writable && !(st.st_mode & 0222))
		return fail_msg("open %s: %s (mode %04o: writable by nobody; this command changes the core)",
				path, strerror(-ret), st.st_mode & 07777);
	return fail_msg("open %s: %s (mode %04o, group '%s': join the group, e.g. 'usermod -aG %s $USER', and log in again%s)",
			path, strerror(-ret), st.st_mode & 07777,
			gr ? gr->gr_name : "?", gr ? gr->gr_name : "GROUP",
			writable ? "; this command needs write access" : "");
}

int open_core_at(unsigned int core, bool writable, struct ncsync_dev **devp)
{
	int ret = ncsync_open(core, writable, devp);

	if (ret == -ENOENT)
		return fail_msg("open /dev/ncsync%u: %s%s", core,
				strerror(ENOENT),
				access("/sys/module/ncsync", F_OK) ?
				" (module not loaded: ncsync load)" :
				" (no such core)");
	if (ret == -EACCES || ret == -EPERM)
		return open_denied(core, writable, ret);
	if (ret)
		return fail_err(ret, "open /dev/ncsync%u", core);
	return 0;
}

int open_core(bool writable, struct ncsync_dev **devp)
{
	return open_core_at(opt_core, writable, devp);
}

int logical_core_of(unsigned int core, struct lcore *lc)
{
	const struct ncsync_info *in;
	struct ncsync_dev *dev;
	int ret;

	ret = open_core_at(core, false, &dev);
	if (ret)
		return ret;
	in = ncsync_get_info(dev);
	lc->lnc = in->lnc ? in->lnc : 1;
	lc->index = core / lc->lnc;
	lc->first = core - core % lc->lnc;
	ncsync_close(dev);
	return 0;
}

/* "sem" or "event": a bank as the JSON vocabulary names it. */
const char *bank_label(uint8_t bank)
{
	return bank == NCSYNC_BANK_EVENT ? "event" : "sem";
}

const char *engine_label(uint8_t engine)
{
	const char *n = ncsync_engine_name(engine);

	return n ? n : "?";
}

/* "sem[3] >= 5", "ev[2] set", "drain" */
void describe_wait(char *buf, size_t len, uint8_t kind, uint8_t mode,
		   uint8_t index, int32_t threshold)
{
	switch (kind) {
	case NCSYNC_BLOCK_SEM:
		snprintf(buf, len, "sem[%u] %s %d", index,
			 ncsync_wait_mode_name(mode), threshold);
		break;
	case NCSYNC_BLOCK_EVENT:
		snprintf(buf, len, "ev[%u] %s", index,
			 ncsync_wait_mode_name(mode));
		break;
	case NCSYNC_BLOCK_DRAIN:
		snprintf(buf, len, "drain");
		break;
	case NCSYNC_BLOCK_DMA_FULL:
		snprintf(buf, len, "a DMA slot");
		break;
	default:
		snprintf(buf, len, "nothing");
		break;
	}
}

int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int read_file(const char *path, char **bufp, size_t *lenp)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
	size_t len = 0, cap = 4096, n;
	char *buf, *nb;
	int err;

	if (!f)
		return -errno;
	buf = malloc(cap);
	if (!buf) {
		err = -ENOMEM;
		goto out;
	}
	for (;;) {
		if (cap - len < 2) {
			nb = realloc(buf, cap * 2);
			if (!nb) {
				free(buf);
				err = -ENOMEM;
				goto out;
			}
			buf = nb;
			cap *= 2;
		}
		n = fread(buf + len, 1, cap - len - 1, f);
		len += n;
		if (n == 0)
			break;
	}
	if (ferror(f)) {
		err = -EIO;
		free(buf);
		goto out;
	}
	buf[len] = '\0';
	*bufp = buf;
	*lenp = len;
	err = 0;
out:
	if (f != stdin)
		fclose(f);
	return err;
}

/* The global options before the command; *@i: the command's index. */
static int main_opts(int argc, char **argv, int *i)
{
	unsigned int given = 0;
	int ret;

	for (*i = 1; *i < argc && is_option(argv[*i]); ++*i) {
		if (!strcmp(argv[*i], "--")) {
			++*i;
			break;
		}
		ret = take_opt(NULL, argc, argv, i, NULL, NULL, &given);
		if (ret)
			return ret;
	}
	return 0;
}

int main(int argc, char **argv)
{
	const struct cmd *c;
	int ret, i;

	ret = main_opts(argc, argv, &i);
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
	ret = c->fn(argc - i, argv + i);
	if (fflush(stdout) && !ret)
		return fail_err(errno, "write");
	return ret;
}
