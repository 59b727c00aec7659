// SPDX-License-Identifier: GPL-2.0
/*
 * ncsync(1): options.  Every command's are read from its table of struct
 * opt (opts.h) by parse_opts(), with the global ones -c, -j, -h and -V,
 * which also go before the command; a program's "# options:" line is read
 * with the same table.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "opts.h"

unsigned int opt_core;
bool opt_core_given;
bool opt_json;

void print_usage(FILE *f)
{
	fprintf(f, "usage: ncsync [-c N] [-j] COMMAND [ARGS...]\n"
		   "       ncsync COMMAND --help\n"
		   "       ncsync --version\n");
}

void print_cmd_help(FILE *f, const struct cmd *c)
{
	fprintf(f, "usage: ncsync %s%s%s\n\t%s\n", c->name,
		*c->args ? " " : "", c->args, c->help);
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
		/* ncsync -h: main.c prints every command's help. */
		if (!c)
			return OPTS_HELP_ALL;
		print_cmd_help(stdout, c);
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
 * The "# options:" line among the comment lines that open @text: the
 * words after "options:" in [*@p, *@end), or false.
 */
static bool options_line(const char *text, const char **p, const char **end)
{
	const char *line, *q;

	for (line = text; *line; line = **end ? *end + 1 : *end) {
		*end = strchr(line, '\n');
		if (!*end)
			*end = line + strlen(line);
		for (q = line; q < *end && (*q == ' ' || *q == '\t'); q++)
			;
		if (q == *end || *q == '\r')
			continue;
		if (*q != '#' && *q != ';')
			return false;
		for (q++; q < *end && (*q == ' ' || *q == '\t'); q++)
			;
		if ((size_t)(*end - q) >= 8 && !strncmp(q, "options:", 8)) {
			*p = q + 8;
			return true;
		}
	}
	return false;
}

int file_opts(const struct cmd *c, const char *path, const char *text,
	      const struct opt *table, void *tmp, void *dst,
	      unsigned int *given, char **linep)
{
	char *words[32], *w, *save;
	const char *p, *end;
	struct args a;
	int n = 1, ret;

	if (!options_line(text, &p, &end))
		return 0;
	*linep = strndup(p, end - p);
	if (!*linep)
		return fail_err(ENOMEM, "%s", path);
	words[0] = (char *)c->name;
	for (w = strtok_r(*linep, " \t\r", &save); w && n < 31;
	     w = strtok_r(NULL, " \t\r", &save))
		words[n++] = w;
	ret = parse_opts(c, n, words, table, tmp, &a);
	if (!ret && a.npos)
		ret = usage_err(c, "%s: unexpected '%s' in '# options:'",
				path, a.pos[0]);
	if (ret) {
		fprintf(stderr, "ncsync: %s: in its '# options:' line\n",
			path);
		return ret < 0 ? EXIT_USAGE : ret;
	}
	merge_opts(table, dst, given, tmp, a.given);
	return 0;
}

int parse_main_opts(int argc, char **argv, int *i)
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
