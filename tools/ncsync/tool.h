/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ncsync(1): the command-line tool.  Shared declarations of its parts:
 * main.c (options, errors, dispatch), json.c, kmod.c (load, unload), dev.c
 * (info, sem, event, wait), prog.c (asm, disasm, run), cores.c (run of a
 * program across cores), timeline.c (run --timeline), nl.c (generic
 * netlink: notify, monitor, core state) and view.c (dump, top).
 */
#ifndef NCSYNC_TOOL_H
#define NCSYNC_TOOL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <ncsync.h>

#define EXIT_OK		0
#define EXIT_FAIL	1
#define EXIT_USAGE	2

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* Global options: -c/--core, -j/--json. */
extern unsigned int opt_core;
extern bool opt_core_given;
extern bool opt_json;

struct cmd {
	const char *name;
	const char *args;
	const char *help;
	int (*fn)(int argc, char **argv);
};

const struct cmd *find_cmd(const char *name);

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

/* Messages: "ncsync: WHAT: strerror(-err)" and the usage errors. */
int fail_err(int err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
int fail_msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int usage_err(const struct cmd *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void print_cmd_help(FILE *f, const struct cmd *c);

/* Numbers; false when @s is not one, or out of range. */
bool parse_u32(const char *s, uint32_t max, uint32_t *out);
bool parse_s32(const char *s, int32_t *out);

/* Open the core of -c, or @core; prints the error.  Return 0 or EXIT_FAIL. */
int open_core(bool writable, struct ncsync_dev **devp);
int open_core_at(unsigned int core, bool writable, struct ncsync_dev **devp);

/**
 * struct lcore - a logical core (module parameter lnc).
 * @index: its number: core / lnc.
 * @first: its first core.
 * @lnc: its cores, consecutive from @first; 1 when cores are not fused.
 */
struct lcore {
	unsigned int index;
	unsigned int first;
	unsigned int lnc;
};

/* The logical core of @core, from its NCSYNC_IOC_INFO; 0 or EXIT_FAIL. */
int logical_core_of(unsigned int core, struct lcore *lc);

/* Names. */
const char *engine_label(uint8_t engine);
const char *bank_label(uint8_t bank);
void describe_wait(char *buf, size_t len, uint8_t kind, uint8_t mode,
		   uint8_t index, int32_t threshold);

/* Monotonic time in nanoseconds. */
int64_t now_ns(void);

/* Read a whole file ("-": stdin), NUL-terminated; *len excludes the NUL. */
int read_file(const char *path, char **buf, size_t *len);

/* json.c: a streaming writer to stdout. */
void j_obj(const char *key);
void j_arr(const char *key);
void j_end(void);
void j_int(const char *key, long long v);
void j_uint(const char *key, unsigned long long v);
void j_str(const char *key, const char *s);
void j_bool(const char *key, bool v);
void j_null(const char *key);
void j_wait(const char *on, uint8_t kind, uint8_t mode, uint8_t index,
	    int lane, int32_t threshold, int32_t current);
void j_done(void);

/* The command functions. */
int cmd_load(int argc, char **argv);
int cmd_unload(int argc, char **argv);
int cmd_info(int argc, char **argv);
int cmd_sem(int argc, char **argv);
int cmd_reset(int argc, char **argv);
int cmd_event(int argc, char **argv);
int cmd_wait(int argc, char **argv);
int cmd_asm(int argc, char **argv);
int cmd_disasm(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_replay(int argc, char **argv);
int cmd_dump(int argc, char **argv);
int cmd_monitor(int argc, char **argv);
int cmd_notify(int argc, char **argv);
int cmd_top(int argc, char **argv);

/*
 * nl.c: the core's state by NCSYNC_CMD_GET_CORE, and every program on it by
 * the NCSYNC_CMD_GET_PROGRAMS dump when GET_CORE could not list them all.
 */
struct nl_engine {
	uint8_t id;
	uint8_t state;
	uint8_t fault;
	uint8_t wait_kind;
	uint8_t wait_mode;
	uint8_t wait_index;
	bool blocked;
	uint32_t pc;
	int32_t wait_threshold;
	int32_t wait_current;
};

struct nl_prog {
	uint32_t id;
	uint32_t state;
	uint32_t pid;
	unsigned int nengines;
	struct nl_engine engines[NCSYNC_NUM_ENGINES];
};

struct nl_core {
	uint32_t core;
	bool notify;
	uint64_t seq;
	uint64_t drops;
	int32_t sems[NCSYNC_NUM_SEMS];
	uint8_t events[NCSYNC_NUM_EVENTS / 8];
	unsigned int nprogs;
	unsigned int progs_cap;
	/*
	 * Some programs are missing: GET_CORE left them out and its dump
	 * failed (a module without it), or memory ran out.
	 */
	bool progs_truncated;
	struct nl_prog *progs;	/* malloc'd; nl_core_release() frees */
};

/*
 * Fill *@out (its previous contents are overwritten, not freed).  Prints
 * the error unless @quiet.  0 or EXIT_FAIL.
 */
int nl_get_core(unsigned int core, struct nl_core *out, bool quiet);
/* Free the programs of *@c, which keeps the rest. */
void nl_core_release(struct nl_core *c);
void print_nl_prog(const struct nl_prog *p, const char *indent);
void json_nl_prog(const char *key, const struct nl_prog *p);

/* timeline.c */
struct timeline;

int timeline_probe(const char *path, bool *created);
/**
 * struct tl_prog - a program's lanes in a timeline.
 * @core: its core.
 * @id: its id on that core (a member's, for a program across cores).
 * @engine_mask: its engines, a lane each.
 */
struct tl_prog {
	unsigned int core;
	uint32_t id;
	unsigned int engine_mask;
};

/* Trace the events of the @n @cores. */
int timeline_start(const unsigned int *cores, unsigned int n,
		   struct timeline **tlp);
int timeline_stop(struct timeline *tl);
/* The lanes of @progs, named by core when @by_core. */
int timeline_write_svg(struct timeline *tl, const struct tl_prog *progs,
		       unsigned int np, bool by_core, const char *title,
		       const char *path);
void timeline_free(struct timeline *tl);

/* prog.c: building programs, shared by asm, run, check and replay. */
struct build_opts {
	bool lowering_given;
	enum ncsync_barrier_lowering lowering;
	const struct ncsync_info *info;	/* reserved slices; NULL: defaults */
	/*
	 * Without @info, the logical core's size: 0 for the text's (its
	 * highest core position + 1; 1 for a text without 'core').
	 */
	unsigned int lnc;
};

bool is_image(const char *buf, size_t len);
/*
 * Build and finalize the program of @path, read into @buf (text or image);
 * prints the error.  0 or EXIT_FAIL.
 */
int build_program(const char *path, const char *buf, size_t len,
		  const struct build_opts *bo, struct ncsync_program **progp);
/*
 * build_program() for a text that may name cores: its parts, by position,
 * in @parts (room for NCSYNC_MAX_LNC), and *@nparts their number; 0 for a
 * program of one core (a text without 'core', an image), in parts[0].
 */
int build_parts(const char *path, const char *buf, size_t len,
		const struct build_opts *bo, struct ncsync_asm_part *parts,
		unsigned int *nparts);
bool parse_lowering(const char *s, void *field);
#define OPT_LOWERING(type, member) \
	{ "lowering", 'l', OPT_PARSE, "counter, events", \
	  OPT_FIELD(type, member), .parse = parse_lowering }
/*
 * The options of the "# options:" comment line that opens @text, read by
 * @table into @tmp (holding the defaults) and merged into @dst where
 * *@given has not got them; *@linep (to free) holds their words.  0 or an
 * exit status.
 */
int file_opts(const struct cmd *c, const char *path, const char *text,
	      const struct opt *table, void *tmp, void *dst,
	      unsigned int *given, char **linep);

/*
 * check.c: check before run --check submits the program, of one core
 * (@n 0, parts[0]) or across cores; 0 when safe enough to run.
 */
int check_before_run(const char *path, const struct ncsync_asm_part *parts,
		     unsigned int n);

/* dev.c: the fault counters, shared by info and dump. */
void json_stats_counts(const struct ncsync_stats *st);
void print_fault_counts(const struct ncsync_stats *st);

/* view.c: bank printing shared with run and check. */
/* "sems": [{"index": N, "value": V}, ...] of the non-zero ones. */
void json_nonzero_sems(const int32_t *sems);
void print_sem_list(FILE *f, const char *indent,
		    const struct ncsync_sem_value *sems, unsigned int n);

#endif /* NCSYNC_TOOL_H */
