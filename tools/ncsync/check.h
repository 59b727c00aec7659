/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ncsync(1): check and replay (Documentation/ncsync/check.rst), and run
 * --check: one check's setup (checking.c) and its report (check_print.c).
 */
#ifndef NCSYNC_CHECK_H
#define NCSYNC_CHECK_H

#include "opts.h"

/* The initial banks, from --sem and --event. */
struct init_banks {
	int32_t sems[NCSYNC_NUM_SEMS];
	uint8_t events[NCSYNC_NUM_EVENTS];
};

/* The options of check and replay, by check_opt_table (run's accepted). */
struct check_opts {
	enum ncsync_barrier_lowering lowering;
	uint32_t max_states;
	uint32_t timeout;
	uint32_t max_memory;	/* MiB */
	bool dma_fifo;
	bool no_accel;		/* no loop acceleration */
	bool no_symmetry;	/* no symmetry reduction */
	bool conformance;	/* refuse what the profile refuses first */
	struct init_banks init;
	uint32_t lnc;		/* 0: the text's */
	const char *promela;	/* write the model there, "-": stdout */
	uint32_t promela_kinds;	/* and assert these defects: 1 << kind */
	/* Accepted for the "# options:" lines written for run; unused. */
	uint32_t watchdog;
	bool strict;
};

/**
 * struct checking - one check or replay: its options, file and program,
 * of one core (@multi false, @parts[0] at position 0) or of @nparts cores.
 * @cmd: the command, for its usage errors (NULL for run --check).
 * @o: the options, of the command line and then of the file.
 * @file: the options of the file's "# options:" line.
 * @given: bit i: option i of check_opt_table was given.
 * @opts_line: the words of @file point here.
 * @path: the file.
 * @text: the file read, @len bytes.
 * @len: its length.
 * @multi: a program across cores.
 * @nparts: the programs in @parts.
 * @parts: the programs, by position.
 * @copts: the library's options of the check.
 */
struct checking {
	const struct cmd *cmd;
	struct check_opts o;
	struct check_opts file;
	unsigned int given;
	char *opts_line;
	const char *path;
	char *text;
	size_t len;
	bool multi;
	unsigned int nparts;
	struct ncsync_asm_part parts[NCSYNC_MAX_LNC];
	struct ncsync_check_opts copts;
};

/* checking.c: the options of check and replay. */
extern const struct opt check_opt_table[];
void check_defaults(struct check_opts *o);
/* An exit status of the setup: 0 goes on, bad input is EXIT_USAGE. */
int check_bad_input(int ret);
/* The file's options, its program, and the library's options. */
int checking_build(struct checking *ck);
void checking_free(struct checking *ck);
/* ncsync_check_cores(), or a usage error for what it cannot follow. */
int check_parts(const struct checking *ck, struct ncsync_check_result **res);
/*
 * Check before run --check submits the program, of one core (@n 0,
 * parts[0]) or across cores; 0 when safe enough to run.
 */
int check_before_run(const char *path, const struct ncsync_asm_part *parts,
		     unsigned int n);

/*
 * check_print.c: the report of a check, and the words of a schedule:
 * printed by check, read back by replay.
 */
void check_report(const struct checking *ck,
		  const struct ncsync_check_result *res);
/* "pool@3.w0", "pool#0@1.land"; "1:pool@3.w0" across cores (@multi). */
void check_step_word(bool multi, const struct ncsync_check_step *s,
		     char *buf, size_t len);
/* The text of the record a step runs. */
void check_step_text(const struct checking *ck,
		     const struct ncsync_check_step *s, char *buf, size_t len);
/* The source line of each of @n steps, from the program (replay). */
void check_step_lines(const struct checking *ck,
		      struct ncsync_check_step *steps, size_t n);
/**
 * struct check_wait - the wait a blocked engine of a checked state is in.
 * @kind: NCSYNC_BLOCK_*.
 * @mode: a semaphore's or event's wait mode.
 * @index: its semaphore or event.
 * @lane: its lane, -1 for a drain or a full DMA queue.
 * @thr: a semaphore wait's threshold.
 * @current: the semaphore's value, the event's state, or the copies in
 *	flight.
 */
struct check_wait {
	uint8_t kind, mode, index;
	int lane;
	int32_t thr, current;
};

/*
 * The wait of engine @e of @st, as run reports the kernel's; false if its
 * record is unknown (check_look.c).
 */
bool check_wait_of(const struct checking *ck, unsigned int core,
		   const struct ncsync_check_state *st,
		   const struct ncsync_check_engine *e, struct check_wait *out);
/* The program of the part at position @core, or NULL. */
struct ncsync_program *check_prog(const struct checking *ck,
				  unsigned int core);
/* The stream of @engine of the core at position @core, or NULL. */
struct ncsync_stream *check_stream(const struct checking *ck,
				   unsigned int core, uint8_t engine);
/* The decoded record @record of @engine of core @core; false if none. */
bool check_view(const struct checking *ck, unsigned int core,
		uint8_t engine, uint32_t record, struct ncsync_record_view *v);
/* "waits for sem[2] > 0 (line 30)" of blocked engine @e of @st. */
bool check_engine_wait(const struct checking *ck, unsigned int core,
		       const struct ncsync_check_state *st,
		       const struct ncsync_check_engine *e, char *buf,
		       size_t len);

/*
 * check_what.c: a defect in the source's terms.
 */
/* "line 12", or "record 7" without a line. */
void check_where(const struct checking *ck, unsigned int core,
		 uint8_t engine, uint32_t record, char *buf, size_t len);
/* "unposted-wait: pool waits for ev[5] set (line 12), nothing posts it" */
void check_print_what(const struct checking *ck,
		      const struct ncsync_check_defect *d);

/* -j: "schedule", each step's "step", "engine", "record", "line". */
void check_json_schedule(bool multi, const struct ncsync_check_step *steps,
			 size_t n);
/* -j: "reached" (one core) or "cores": engines, with @d's fault, banks. */
void check_json_cores(const struct checking *ck,
		      const struct ncsync_check_core *cores, unsigned int n,
		      const struct ncsync_check_defect *d);
/* -j: a defect of "defects". */
void check_json_defect(const struct checking *ck,
		       const struct ncsync_check_defect *d);
/* The part of a step, "w0" ... "land"; false if @s names none. */
bool check_parse_part(const char *s, uint8_t *part);
/* Every core of a state: one alone, several under "core N:". */
void check_print_cores(const struct checking *ck,
		       const struct ncsync_check_core *cores, unsigned int n,
		       const char *indent);

#endif /* NCSYNC_CHECK_H */
