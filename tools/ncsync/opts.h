/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ncsync(1): options (opts.c).  The global ones, -c, -j, -h and -V, go
 * before the command or among its own.
 */
#ifndef NCSYNC_OPTS_H
#define NCSYNC_OPTS_H

#include "tool.h"

/* Global options: -c/--core, -j/--json. */
extern unsigned int opt_core;
extern bool opt_core_given;
extern bool opt_json;

/*
 * Command options.  An argument is an option when it starts with "--" or
 * with '-' and a letter, so that negative numbers are operands.  "--" ends
 * the options.  -c, -j and -h are accepted by every command.
 *
 * Each command describes its options in one table of struct opt, ended by
 * an entry without a name: how each value is read, and the field of the
 * command's options struct it goes to.  parse_opts() fills that struct and
 * prints the usage error of a value that does not read:
 *	OPT_PATH	"empty --NAME"
 *	OPT_U32, OPT_PARSE	"invalid --NAME 'VALUE'", then " (HELP)"
 */
enum opt_kind {
	OPT_FLAG,	/* no value: the bool field becomes true */
	OPT_STR,	/* any value: the const char * field points at it */
	OPT_PATH,	/* as OPT_STR, not empty */
	OPT_U32,	/* a number from @min to @max: the uint32_t field */
	OPT_PARSE,	/* a value @parse reads into the field */
};

struct opt {
	const char *lng;	/* without the leading "--" */
	char shrt;		/* 0 for none */
	enum opt_kind kind;
	const char *help;	/* the values it takes; NULL: not shown */
	size_t off;		/* the field: OPT_FIELD() */
	size_t size;
	uint32_t min, max;	/* OPT_U32 */
	/* OPT_PARSE: false when @arg is not a value. */
	bool (*parse)(const char *arg, void *field);
};

#define OPT_FIELD(type, member) \
	.off = offsetof(type, member), .size = sizeof(((type *)0)->member)

/* Milliseconds: --timeout and the like take 0 (or more) to MS_MAX. */
#define MS_MAX		3600000U
#define OPT_TIMEOUT(type, member) \
	{ "timeout", 't', OPT_U32, "0-3600000 ms", OPT_FIELD(type, member), \
	  .max = MS_MAX }

/* What parse_opts() leaves besides the options struct. */
struct args {
	char **pos;		/* the operands, in order, NULL-terminated */
	int npos;
	unsigned int given;	/* bit i: opts[i] was given */
};

/* parse_opts() printed the help: stop with EXIT_OK. */
#define OPTS_HELP	(-1)
/* parse_main_opts() met -h: the caller prints the help of every command. */
#define OPTS_HELP_ALL	(-2)

static inline int OPTS_EXIT(int ret)
{
	return ret < 0 ? EXIT_OK : ret;
}

/*
 * Parse the options of command @c (argv[0] is its name) into @dst, the
 * struct @opts describes (NULL, with @dst, for none).  Return 0; an exit
 * status to stop with; or OPTS_HELP (OPTS_EXIT() turns either into the
 * status).
 */
int parse_opts(const struct cmd *c, int argc, char **argv,
	       const struct opt *opts, void *dst, struct args *a);
/* Copy into @dst the options @src has and @dst has not; @given: @dst's. */
void merge_opts(const struct opt *opts, void *dst, unsigned int *given,
		const void *src, unsigned int src_given);
/* parse_opts() for a command that takes no operands. */
int parse_none(const struct cmd *c, int argc, char **argv,
	       const struct opt *opts, void *dst);
/* parse_opts() for a command that takes at most one operand. */
int parse_one(const struct cmd *c, int argc, char **argv,
	      const struct opt *opts, void *dst, struct args *a);
/*
 * parse_opts() for a command that takes one operand, FILE (a->pos[0]),
 * and the file read into *@text (read_file()); prints the error.
 */
int parse_file(const struct cmd *c, int argc, char **argv,
	       const struct opt *opts, void *dst, struct args *a,
	       char **text, size_t *len);

/*
 * The global options before the command; *@i: the command's index.  0, an
 * exit status, OPTS_HELP or OPTS_HELP_ALL.
 */
int parse_main_opts(int argc, char **argv, int *i);

/*
 * The options of the "# options:" comment line that opens @text, read by
 * @table into @tmp (holding the defaults) and merged into @dst where
 * *@given has not got them; *@linep (to free) holds their words.  0 or an
 * exit status.
 */
int file_opts(const struct cmd *c, const char *path, const char *text,
	      const struct opt *table, void *tmp, void *dst,
	      unsigned int *given, char **linep);

/* Usage errors, with the usage of @c (NULL: of ncsync); EXIT_USAGE. */
int usage_err(const struct cmd *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void print_usage(FILE *f);
void print_cmd_help(FILE *f, const struct cmd *c);

#endif /* NCSYNC_OPTS_H */
