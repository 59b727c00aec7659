// SPDX-License-Identifier: GPL-2.0
/*
 * ncsync(1): checking programs on every schedule, through libncsync's
 * ncsync_check() (Documentation/ncsync/check.rst).
 *
 *   ncsync check FILE [--lowering counter|events] [--sem N=V,...]
 *                     [--event N,...] [--max-states N] [--timeout MS]
 *                     [--dma-fifo] [--lnc N] [--max-memory MIB]
 *                     [--no-accel] [--promela OUT.pml]
 *   ncsync replay FILE SCHEDULE... [the same options]
 *
 * A schedule is printed, and read back, as words separated by blanks:
 * ENGINE@RECORD.PART for a step of an engine (PART: w0, w1 the waits of
 * lane 0 and 1, fx the op's effect, u0, u1 the updates), and
 * ENGINE#COPY@RECORD.land for the landing of the engine's copy number COPY
 * (0: its first), issued by DMA record RECORD.  For a program across
 * cores ('core' statements) each word starts with its engine's core
 * position and a colon: 1:pool@3.w0.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tool.h"

#define EXIT_INCONCLUSIVE	3

static const char *const part_names[] = {
	[NCSYNC_PART_WAIT0] = "w0", [NCSYNC_PART_WAIT1] = "w1",
	[NCSYNC_PART_EFFECT] = "fx", [NCSYNC_PART_UPDATE0] = "u0",
	[NCSYNC_PART_UPDATE1] = "u1", [NCSYNC_PART_LAND] = "land",
};

static const char *const verdict_names[] = {
	[NCSYNC_CHECK_SAFE] = "safe", [NCSYNC_CHECK_DEFECT] = "defect",
	[NCSYNC_CHECK_INCONCLUSIVE] = "inconclusive",
};

/* The initial banks, from --sem and --event. */
struct init_banks {
	int32_t sems[NCSYNC_NUM_SEMS];
	uint8_t events[NCSYNC_NUM_EVENTS];
};

struct check_opts {
	enum ncsync_barrier_lowering lowering;
	uint32_t max_states;
	uint32_t timeout;
	uint32_t max_memory;	/* MiB */
	bool dma_fifo;
	bool no_accel;		/* no loop acceleration */
	bool conformance;	/* refuse what the profile refuses first */
	struct init_banks init;
	uint32_t lnc;		/* 0: the text's */
	const char *promela;	/* write the model there, "-": stdout */
	/* Accepted for the "# options:" lines written for run; unused. */
	uint32_t watchdog;
	bool strict;
};

/* "N=V[,N=V...]" into the semaphores of struct init_banks. */
static bool parse_sems(const char *s, void *field)
{
	struct init_banks *b = field;
	char *dup = strdup(s), *w, *save, *eq;
	uint32_t idx;
	int32_t v;
	bool ok = dup && *dup;

	for (w = ok ? strtok_r(dup, ",", &save) : NULL; w && ok;
	     w = strtok_r(NULL, ",", &save)) {
		eq = strchr(w, '=');
		if (eq)
			*eq = '\0';
		ok = eq && parse_u32(w, NCSYNC_NUM_SEMS - 1, &idx) &&
		     parse_s32(eq + 1, &v);
		if (ok)
			b->sems[idx] = v;
	}
	free(dup);
	return ok;
}

/* "N[,N...]": events set at the start. */
static bool parse_events(const char *s, void *field)
{
	struct init_banks *b = field;
	char *dup = strdup(s), *w, *save;
	uint32_t idx;
	bool ok = dup && *dup;

	for (w = ok ? strtok_r(dup, ",", &save) : NULL; w && ok;
	     w = strtok_r(NULL, ",", &save)) {
		ok = parse_u32(w, NCSYNC_NUM_EVENTS - 1, &idx);
		if (ok)
			b->events[idx] = 1;
	}
	free(dup);
	return ok;
}

enum {
	CO_LOWERING, CO_SEM, CO_EVENT, CO_MAX_STATES, CO_TIMEOUT,
	CO_DMA_FIFO, CO_WATCHDOG, CO_STRICT, CO_CONFORMANCE, CO_LNC,
	CO_MAX_MEMORY,
	CO_NO_ACCEL,
	CO_PROMELA,
};

static const struct opt check_opt_table[] = {
	[CO_LOWERING] = OPT_LOWERING(struct check_opts, lowering),
	[CO_SEM] = { "sem", 'S', OPT_PARSE, "N=VALUE[,N=VALUE...]",
		     OPT_FIELD(struct check_opts, init), .parse = parse_sems },
	[CO_EVENT] = { "event", 'E', OPT_PARSE, "N[,N...]",
		       OPT_FIELD(struct check_opts, init),
		       .parse = parse_events },
	[CO_MAX_STATES] = { "max-states", 'm', OPT_U32, "1-4294967295",
			    OPT_FIELD(struct check_opts, max_states),
			    .min = 1, .max = UINT32_MAX },
	[CO_TIMEOUT] = OPT_TIMEOUT(struct check_opts, timeout),
	[CO_DMA_FIFO] = { "dma-fifo", 'F', OPT_FLAG,
			  OPT_FIELD(struct check_opts, dma_fifo) },
	[CO_WATCHDOG] = { "watchdog", 'w', OPT_U32, "1-3600000 ms",
			  OPT_FIELD(struct check_opts, watchdog),
			  .min = 1, .max = MS_MAX },
	[CO_STRICT] = { "strict", 's', OPT_FLAG,
			OPT_FIELD(struct check_opts, strict) },
	[CO_CONFORMANCE] = { "conformance", 'C', OPT_FLAG,
			     OPT_FIELD(struct check_opts, conformance) },
	[CO_LNC] = { "lnc", 'L', OPT_U32, "1-64",
		     OPT_FIELD(struct check_opts, lnc),
		     .min = 1, .max = NCSYNC_MAX_LNC },
	[CO_MAX_MEMORY] = { "max-memory", 'M', OPT_U32, "1-1048576 MiB",
			    OPT_FIELD(struct check_opts, max_memory),
			    .min = 1, .max = 1U << 20 },
	[CO_NO_ACCEL] = { "no-accel", 'A', OPT_FLAG,
			  OPT_FIELD(struct check_opts, no_accel) },
	[CO_PROMELA] = { "promela", 'P', OPT_PATH,
			 OPT_FIELD(struct check_opts, promela) },
	{ /* sentinel */ }
};

/*
 * One check or replay: its options, file and program, of one core
 * (@multi false, @parts[0] at position 0) or of @nparts cores.
 */
struct checking {
	const struct cmd *cmd;
	struct check_opts o;
	struct check_opts file;	/* the "# options:" line's */
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

static void check_defaults(struct check_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->lowering = NCSYNC_LOWER_COUNTER;
	o->max_states = NCSYNC_CHECK_MAX_STATES;
	o->max_memory = NCSYNC_CHECK_MAX_MEMORY_MB;
}

/* An exit status of the setup: 0 goes on, bad input is EXIT_USAGE. */
static int bad_input(int ret)
{
	return ret == EXIT_FAIL ? EXIT_USAGE : ret;
}

/*
 * --conformance: the profile's first refusal is bad input (exit 2), named
 * as ncsync run --conformance names the kernel's.
 */
static int conformance(const struct checking *ck)
{
	struct ncsync_submit_error err;
	char where[24] = "";
	unsigned int i;

	for (i = 0; i < ck->nparts; i++) {
		if (!ncsync_program_conform(ck->parts[i].prog, &err))
			continue;
		if (ck->multi)
			snprintf(where, sizeof(where), "core %u: ",
				 ck->parts[i].core);
		fail_msg("%s: %sengine %s record %u: %s", ck->path, where,
			 engine_label(err.engine), err.index,
			 ncsync_reason_name(err.reason));
		return EXIT_USAGE;
	}
	return 0;
}

/* The file's options, its program, and the library's options. */
static int checking_build(struct checking *ck)
{
	struct build_opts bo = {
		.lowering = ck->o.lowering,
		.lowering_given = ck->given & (1U << CO_LOWERING),
	};
	unsigned int n;
	int ret;

	ret = read_file(ck->path, &ck->text, &ck->len);
	if (ret)
		return fail_err(ret, "%s", ck->path);
	if (!is_image(ck->text, ck->len)) {
		check_defaults(&ck->file);
		ret = file_opts(ck->cmd, ck->path, ck->text, check_opt_table,
				&ck->file, &ck->o, &ck->given, &ck->opts_line);
		if (ret)
			return ret;
		if (ck->file.promela) {
			fail_msg("%s: --promela in its '# options:' line: a file names no output",
				 ck->path);
			return EXIT_USAGE;
		}
		bo.lowering = ck->o.lowering;
	}
	bo.lnc = ck->o.lnc;
	ret = build_parts(ck->path, ck->text, ck->len, &bo, ck->parts, &n);
	if (ret)
		return ret;
	ck->multi = n;
	ck->nparts = n ? n : 1;
	if (ck->o.conformance) {
		ret = conformance(ck);
		if (ret)
			return ret;
	}
	ncsync_check_opts_init(&ck->copts);
	ck->copts.max_states = ck->o.max_states;
	ck->copts.timeout_ms = ck->o.timeout;
	ck->copts.max_memory_mb = ck->o.max_memory;
	ck->copts.flags = (ck->o.dma_fifo ? NCSYNC_CHECK_F_DMA_FIFO : 0) |
			  (ck->o.no_accel ? NCSYNC_CHECK_F_NO_ACCEL : 0);
	memcpy(ck->copts.sems, ck->o.init.sems, sizeof(ck->copts.sems));
	memcpy(ck->copts.events, ck->o.init.events,
	       sizeof(ck->copts.events));
	return 0;
}

static void checking_free(struct checking *ck)
{
	unsigned int i;

	for (i = 0; i < ck->nparts; i++)
		ncsync_program_free(ck->parts[i].prog);
	free(ck->text);
	free(ck->opts_line);
}

/* The name of @engine of the core at @core: "pool", or "1:pool". */
static const char *eng_name(bool multi, unsigned int core, uint8_t engine)
{
	static char buf[4][24];
	static unsigned int k;
	char *b = buf[k++ % 4];

	if (!multi)
		return engine_label(engine);
	snprintf(b, sizeof(buf[0]), "%u:%s", core, engine_label(engine));
	return b;
}

/* "pool@3.w0", "pool#0@1.land"; "1:pool@3.w0" across cores. */
static void step_word(bool multi, const struct ncsync_check_step *s,
		      char *buf, size_t len)
{
	const char *part = s->part < ARRAY_SIZE(part_names) ?
			   part_names[s->part] : "?";
	const char *eng = eng_name(multi, s->core, s->engine);

	if (s->part == NCSYNC_PART_LAND)
		snprintf(buf, len, "%s#%u@%u.%s", eng, s->copy, s->record,
			 part);
	else
		snprintf(buf, len, "%s@%u.%s", eng, s->record, part);
}

static bool parse_part(const char *s, uint8_t *part)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(part_names); i++) {
		if (!strcmp(s, part_names[i])) {
			*part = i;
			return true;
		}
	}
	return false;
}

static bool parse_engine_name(const char *s, size_t n, uint8_t *engine)
{
	unsigned int e;

	for (e = 0; e < 8; e++) {
		const char *name = ncsync_engine_name(e);

		if (name && strlen(name) == n && !strncmp(name, s, n)) {
			*engine = e;
			return true;
		}
	}
	return false;
}

/* A word's "CORE:" prefix, into s->core; false if it is not one. */
static bool parse_core_prefix(const char **w, struct ncsync_check_step *s)
{
	const char *colon = strchr(*w, ':');
	char num[16];
	uint32_t v;

	if (!colon)
		return true;
	if ((size_t)(colon - *w) >= sizeof(num))
		return false;
	snprintf(num, sizeof(num), "%.*s", (int)(colon - *w), *w);
	if (!parse_u32(num, NCSYNC_MAX_LNC - 1, &v))
		return false;
	s->core = v;
	*w = colon + 1;
	return true;
}

/* One word of a schedule; false if it is not one. */
static bool parse_step(const char *w, struct ncsync_check_step *s)
{
	const char *at, *hash, *dot;
	char num[16];
	uint32_t v;

	memset(s, 0, sizeof(*s));
	if (!parse_core_prefix(&w, s))
		return false;
	at = strchr(w, '@');
	hash = strchr(w, '#');
	dot = at ? strchr(at, '.') : NULL;
	if (!at || !dot || !parse_part(dot + 1, &s->part) ||
	    (hash && hash > at) || !hash != (s->part != NCSYNC_PART_LAND) ||
	    !parse_engine_name(w, (hash ? hash : at) - w, &s->engine))
		return false;
	if (hash) {
		if ((size_t)(at - hash - 1) >= sizeof(num))
			return false;
		snprintf(num, sizeof(num), "%.*s", (int)(at - hash - 1),
			 hash + 1);
		if (!parse_u32(num, UINT32_MAX, &s->copy))
			return false;
	}
	if ((size_t)(dot - at - 1) >= sizeof(num))
		return false;
	snprintf(num, sizeof(num), "%.*s", (int)(dot - at - 1), at + 1);
	if (!parse_u32(num, UINT32_MAX, &v))
		return false;
	s->record = v;
	return true;
}

/* The text of the record a step runs. */
static void step_text(const struct checking *ck,
		      const struct ncsync_check_step *s, char *buf, size_t len)
{
	struct ncsync_stream *st = NULL;
	unsigned int i;

	*buf = '\0';
	for (i = 0; i < ck->nparts; i++)
		if (ck->parts[i].core == s->core)
			st = ncsync_program_find_stream(ck->parts[i].prog,
							s->engine);
	if (st && s->record < ncsync_stream_count(st))
		ncsync_disasm(ncsync_stream_record(st, s->record), buf, len);
}

static const char *engine_state_word(const struct ncsync_check_engine *e)
{
	switch (e->state) {
	case NCSYNC_ENG_DONE:
		return "done";
	case NCSYNC_ENG_HALTED:
		return "halted";
	case NCSYNC_ENG_BLOCKED:
		return "blocked";
	default:
		return "runs";
	}
}

/* "    pool blocked at 7.w0, pe done at 9; sems ...; events ...; copies" */
static void print_state(bool multi, unsigned int core,
			const struct ncsync_check_state *st,
			const char *indent)
{
	unsigned int i, n = 0;

	printf("%sengines:", indent);
	for (i = 0; i < st->nengines; i++) {
		const struct ncsync_check_engine *e = &st->engines[i];

		printf(" %s %s at %u", eng_name(multi, core, e->engine),
		       engine_state_word(e), e->pc);
		if (e->state <= NCSYNC_ENG_BLOCKED)
			printf(".%s", part_names[e->part]);
	}
	printf("%s\n%ssems:", st->nengines ? "" : " none", indent);
	for (i = 0; i < NCSYNC_NUM_SEMS; i++)
		if (st->sems[i] && ++n)
			printf(" [%u]=%d", i, st->sems[i]);
	printf("%s\n%sevents set:", n ? "" : " all 0", indent);
	for (i = 0, n = 0; i < NCSYNC_NUM_EVENTS; i++)
		if (st->events[i] && ++n)
			printf(" %u", i);
	printf("%s\n%scopies in flight:", n ? "" : " none", indent);
	for (i = 0; i < st->ncopies; i++)
		printf(" %s#%u@%u",
		       eng_name(multi, st->copies[i].core,
				st->copies[i].engine),
		       st->copies[i].copy, st->copies[i].record);
	printf("%s\n", st->ncopies ? "" : " none");
}

/* Every core of a state: one as print_state(), several under "core N:". */
static void print_cores(bool multi, const struct ncsync_check_core *cores,
			unsigned int n, const char *indent)
{
	char sub[16];
	unsigned int i;

	if (!multi) {
		print_state(false, 0, &cores[0].state, indent);
		return;
	}
	snprintf(sub, sizeof(sub), "%s  ", indent);
	for (i = 0; i < n; i++) {
		printf("%score %u:\n", indent, cores[i].core);
		print_state(true, cores[i].core, &cores[i].state, sub);
	}
}

/* "  cycle: 0:pool -> 1:act -> 0:pool", across the cores. */
static void print_cores_cycle(const struct ncsync_deadlock_cores *dl)
{
	const struct ncsync_deadlock_slot *e;
	unsigned int k;

	if (!dl->ncycle)
		return;
	printf("  cycle:");
	for (k = 0; k <= dl->ncycle; k++) {
		e = &dl->engines[dl->cycle[k % dl->ncycle]];
		printf("%s%s", k ? " -> " : " ",
		       eng_name(true, e->core, e->engine));
	}
	putchar('\n');
}

static void print_cycle(const struct ncsync_check_defect *d, bool multi)
{
	const struct ncsync_deadlock *dl = &d->deadlock;
	unsigned int k;

	if (multi) {
		if (d->deadlock_cores)
			print_cores_cycle(d->deadlock_cores);
		return;
	}
	if (!dl->ncycle)
		return;
	printf("  cycle: %s", eng_name(multi, d->core, dl->cycle[0]));
	for (k = 1; k < dl->ncycle; k++)
		printf(" -> %s", eng_name(multi, d->core, dl->cycle[k]));
	printf(" -> %s\n", eng_name(multi, d->core, dl->cycle[0]));
}

/* An unposted wait's values: the first 16 and how many. */
static void print_values(const struct ncsync_check_defect *d)
{
	uint32_t i;

	if (!d->values)
		return;
	printf(" (what it waits on takes only");
	for (i = 0; i < d->nvalues && i < 16; i++)
		printf("%s %d", i ? "," : "", d->values[i]);
	if (d->nvalues > 16)
		printf(", ... %u values", d->nvalues);
	printf(")");
}

/* What the defect is, in one line after its kind. */
static void print_what(const struct ncsync_check_defect *d, bool multi)
{
	const char *eng = eng_name(multi, d->core, d->engine);

	switch (d->kind) {
	case NCSYNC_DEFECT_DMA_RACE:
		printf("the copy of %s record %u overlaps %s#%u@%u in flight",
		       eng, d->record,
		       eng_name(multi, d->other.core, d->other.engine),
		       d->other.copy, d->other.record);
		break;
	case NCSYNC_DEFECT_EVENT:
	case NCSYNC_DEFECT_OVERFLOW:
		printf("by %s record %u", eng, d->record);
		break;
	case NCSYNC_DEFECT_DEADLOCK:
		printf("no step can run; %s waits in record %u", eng,
		       d->record);
		break;
	default:
		printf("%s waits in record %u", eng, d->record);
		print_values(d);
		break;
	}
}

static void print_defect(const struct checking *ck,
			 const struct ncsync_check_defect *d)
{
	char word[48], line[NCSYNC_DISASM_LINE_MAX];
	uint32_t i;

	printf("%s: ", ncsync_defect_name(d->kind));
	print_what(d, ck->multi);
	printf(", after %u step%s\n  schedule:", d->nsteps,
	       d->nsteps == 1 ? "" : "s");
	for (i = 0; i < d->nsteps; i++) {
		step_word(ck->multi, &d->steps[i], word, sizeof(word));
		printf(" %s", word);
	}
	putchar('\n');
	for (i = 0; i < d->nsteps; i++) {
		step_word(ck->multi, &d->steps[i], word, sizeof(word));
		step_text(ck, &d->steps[i], line, sizeof(line));
		printf("  %4u  %-18s %s", i + 1, word, line);
		if (d->steps[i].line)
			printf("  (line %u)", d->steps[i].line);
		putchar('\n');
	}
	print_cores(ck->multi, d->cores, d->ncores, "  ");
	print_cycle(d, ck->multi);
}

static void json_state(const struct ncsync_check_state *st)
{
	unsigned int i;

	j_arr("engines");
	for (i = 0; i < st->nengines; i++) {
		j_obj(NULL);
		j_uint("id", st->engines[i].engine);
		j_str("engine", engine_label(st->engines[i].engine));
		/* The kernel's names, as every other command prints them. */
		j_str("state",
		      ncsync_engine_state_name(st->engines[i].state));
		j_uint("pc", st->engines[i].pc);
		j_end();
	}
	j_end();
	json_nonzero_sems(st->sems);
	j_arr("events");
	for (i = 0; i < NCSYNC_NUM_EVENTS; i++) {
		if (!st->events[i])
			continue;
		j_obj(NULL);
		j_uint("index", i);
		j_bool("set", true);
		j_end();
	}
	j_end();
	j_uint("copies_in_flight", st->ncopies);
}

/* "reached": the state of one core, or "cores": each core's. */
static void json_reached(const struct ncsync_check_defect *d, bool multi)
{
	unsigned int i;

	if (!multi) {
		j_obj("reached");
		json_state(&d->state);
		j_end();
		return;
	}
	j_arr("cores");
	for (i = 0; i < d->ncores; i++) {
		j_obj(NULL);
		j_uint("core", d->cores[i].core);
		json_state(&d->cores[i].state);
		j_end();
	}
	j_end();
}

static void json_schedule(const struct ncsync_check_defect *d, bool multi)
{
	char word[48];
	uint32_t i;

	j_arr("schedule");
	for (i = 0; i < d->nsteps; i++) {
		step_word(multi, &d->steps[i], word, sizeof(word));
		j_obj(NULL);
		j_str("step", word);
		if (multi)
			j_uint("core", d->steps[i].core);
		j_str("engine", engine_label(d->steps[i].engine));
		j_uint("record", d->steps[i].record);
		j_uint("line", d->steps[i].line);
		j_end();
	}
	j_end();
}

/* "cycle" across the cores: each entry's "core" and "engine". */
static void json_cores_cycle(const struct ncsync_deadlock_cores *dl)
{
	const struct ncsync_deadlock_slot *e;
	unsigned int i;

	if (!dl || !dl->ncycle)
		return;
	j_arr("cycle");
	for (i = 0; i < dl->ncycle; i++) {
		e = &dl->engines[dl->cycle[i]];
		j_obj(NULL);
		j_uint("core", e->core);
		j_str("engine", engine_label(e->engine));
		j_end();
	}
	j_end();
}

static void json_defect(const struct ncsync_check_defect *d, bool multi)
{
	uint32_t i;

	j_obj(NULL);
	j_str("kind", ncsync_defect_name(d->kind));
	if (multi)
		j_uint("core", d->core);
	j_str("engine", engine_label(d->engine));
	j_uint("record", d->record);
	json_schedule(d, multi);
	if (multi)
		json_cores_cycle(d->deadlock_cores);
	else if (d->deadlock.ncycle) {
		j_arr("cycle");
		for (i = 0; i < d->deadlock.ncycle; i++) {
			j_obj(NULL);
			j_str("engine", engine_label(d->deadlock.cycle[i]));
			j_end();
		}
		j_end();
	}
	if (d->values) {
		j_arr("values");
		for (i = 0; i < d->nvalues; i++)
			j_int(NULL, d->values[i]);
		j_end();
	}
	json_reached(d, multi);
	j_end();
}

/* The limit that ended the search, named with the option that sets it. */
static void print_limit(const struct checking *ck,
			const struct ncsync_check_result *res)
{
	enum ncsync_check_limit l = ncsync_check_limit(res);

	if (l == NCSYNC_CHECK_LIMIT_NONE)
		return;
	printf(" (limit: %s, ", ncsync_check_limit_name(l));
	if (l == NCSYNC_CHECK_LIMIT_STATES)
		printf("--max-states %llu",
		       (unsigned long long)ck->copts.max_states);
	else if (l == NCSYNC_CHECK_LIMIT_TIME)
		printf("--timeout %u ms", ck->copts.timeout_ms);
	else if (l == NCSYNC_CHECK_LIMIT_MEMORY)
		printf("--max-memory %u MiB", ck->copts.max_memory_mb ?:
		       NCSYNC_CHECK_MAX_MEMORY_MB);
	else
		printf("%u copies in flight", NCSYNC_CHECK_MAX_COPIES);
	printf("%s)", ncsync_check_verdict(res) == NCSYNC_CHECK_DEFECT ?
	       ": there may be more defects" : "");
}

static const char *const accel_names[] = {
	[NCSYNC_ACCEL_NONE] = "none", [NCSYNC_ACCEL_APPLIED] = "applied",
	[NCSYNC_ACCEL_FELL_BACK] = "fell-back",
};

/* What the loop acceleration did, after the verdict's line. */
static void print_accel(const struct checking *ck,
			const struct ncsync_check_accel *a)
{
	const char *who = eng_name(ck->multi, a->core, a->engine);

	if (a->status == NCSYNC_ACCEL_APPLIED)
		printf("loop at line %u (%s@%u) checked by induction over its passes\n",
		       a->line, who, a->record);
	else if (a->status == NCSYNC_ACCEL_FELL_BACK)
		printf("loop at line %u (%s@%u) searched pass by pass: %s\n",
		       a->line, who, a->record, a->why);
}

static void json_accel(const struct checking *ck,
		       const struct ncsync_check_accel *a)
{
	j_obj("accel");
	j_str("loop", accel_names[a->status]);
	if (a->status != NCSYNC_ACCEL_NONE) {
		j_str("engine", eng_name(ck->multi, a->core, a->engine));
		j_uint("record", a->record);
		j_uint("line", a->line);
	}
	if (a->why)
		j_str("why", a->why);
	j_end();
}

static void report(const struct checking *ck,
		   const struct ncsync_check_result *res)
{
	enum ncsync_check_verdict v = ncsync_check_verdict(res);
	unsigned int i, n = ncsync_check_ndefects(res);
	struct ncsync_check_accel accel;

	ncsync_check_accel(res, &accel);
	if (opt_json) {
		j_obj(NULL);
		j_str("file", ck->path);
		j_str("verdict", verdict_names[v]);
		j_uint("states", ncsync_check_states(res));
		j_bool("complete", ncsync_check_complete(res));
		j_str("limit",
		      ncsync_check_limit_name(ncsync_check_limit(res)));
		json_accel(ck, &accel);
		j_arr("defects");
		for (i = 0; i < n; i++)
			json_defect(ncsync_check_defect(res, i), ck->multi);
		j_end();
		j_end();
		j_done();
		return;
	}
	printf("%s: %s: %u defect%s in %llu states", ck->path,
	       verdict_names[v], n, n == 1 ? "" : "s",
	       (unsigned long long)ncsync_check_states(res));
	print_limit(ck, res);
	printf("\n");
	print_accel(ck, &accel);
	for (i = 0; i < n; i++)
		print_defect(ck, ncsync_check_defect(res, i));
}

static int verdict_exit(enum ncsync_check_verdict v)
{
	return v == NCSYNC_CHECK_SAFE ? EXIT_OK :
	       v == NCSYNC_CHECK_DEFECT ? EXIT_FAIL : EXIT_INCONCLUSIVE;
}

/* ncsync_check_cores(), or a usage error for what it cannot follow. */
static int check_parts(const struct checking *ck,
		       struct ncsync_check_result **res)
{
	int ret = ncsync_check_cores(ck->parts, ck->nparts, &ck->copts, res);

	if (ret == -E2BIG) {
		fail_msg("%s: more than %u cores (with the peers its DMA records signal) or %u engines: more than the checker follows",
			 ck->path, NCSYNC_CHECK_MAX_CORES,
			 NCSYNC_CHECK_MAX_ENGINES);
		return EXIT_USAGE;
	}
	if (ret) {
		/* An error (out of memory) is no verdict: exit status 2. */
		fail_err(ret, "%s: check", ck->path);
		return EXIT_USAGE;
	}
	return 0;
}

/*
 * --promela OUT: the model of the lowered program for SPIN, instead of the
 * check (ncsync_check_promela()).
 */
static int write_promela(const struct checking *ck)
{
	const char *path = ck->o.promela;
	bool std = !strcmp(path, "-");
	FILE *f = std ? stdout : fopen(path, "w");
	int ret;

	if (!f)
		return fail_err(errno, "%s", path);
	ret = ncsync_check_promela(ck->parts, ck->nparts, &ck->copts, f);
	if (!std && fclose(f) && !ret)
		ret = -EIO;
	if (ret == -EOPNOTSUPP) {
		fail_msg("%s: a record the Promela model cannot express",
			 ck->path);
		return EXIT_USAGE;
	}
	if (ret == -E2BIG) {
		fail_msg("%s: more than %u cores (with the peers its DMA records signal) or %u engines: more than the checker follows",
			 ck->path, NCSYNC_CHECK_MAX_CORES,
			 NCSYNC_CHECK_MAX_ENGINES);
		return EXIT_USAGE;
	}
	return ret ? fail_err(-ret, "%s", std ? ck->path : path) : EXIT_OK;
}

static int check_execute(struct checking *ck)
{
	struct ncsync_check_result *res;
	int ret;

	ret = check_parts(ck, &res);
	if (ret)
		return ret;
	report(ck, res);
	ret = verdict_exit(ncsync_check_verdict(res));
	ncsync_check_free(res);
	return ret;
}

int cmd_check(int argc, char **argv)
{
	struct checking *ck = calloc(1, sizeof(*ck));
	struct args a;
	int ret;

	if (!ck)
		return fail_err(ENOMEM, "check");
	ck->cmd = find_cmd("check");
	check_defaults(&ck->o);
	ret = parse_opts(ck->cmd, argc, argv, check_opt_table, &ck->o, &a);
	if (!ret && a.npos != 1)
		ret = usage_err(ck->cmd, a.npos ? "unexpected argument '%s'" :
				"missing FILE%s", a.npos ? a.pos[1] : "");
	if (!ret) {
		ck->given = a.given;
		ck->path = a.pos[0];
		ret = bad_input(checking_build(ck));
	}
	if (!ret)
		ret = ck->o.promela ? write_promela(ck) : check_execute(ck);
	checking_free(ck);
	free(ck);
	return OPTS_EXIT(ret);
}

int check_before_run(const char *path, const struct ncsync_asm_part *parts,
		     unsigned int n)
{
	struct checking *ck = calloc(1, sizeof(*ck));
	struct ncsync_check_result *res;
	int ret;

	if (!ck)
		return fail_err(ENOMEM, "%s: check", path);
	ck->path = path;
	ck->multi = n;
	ck->nparts = n ? n : 1;
	memcpy(ck->parts, parts, ck->nparts * sizeof(*parts));
	ncsync_check_opts_init(&ck->copts);
	ret = check_parts(ck, &res);
	if (ret)
		goto out;
	switch (ncsync_check_verdict(res)) {
	case NCSYNC_CHECK_DEFECT:
		report(ck, res);
		fflush(stdout);
		ret = fail_msg("%s: check found a defect: not submitted", path);
		break;
	case NCSYNC_CHECK_INCONCLUSIVE:
		fprintf(stderr, "ncsync: %s: check inconclusive after %llu states (limit: %s); submitting\n",
			path, (unsigned long long)ncsync_check_states(res),
			ncsync_check_limit_name(ncsync_check_limit(res)));
		break;
	default:
		break;
	}
	ncsync_check_free(res);
out:
	free(ck);	/* the parts are the caller's */
	return ret;
}

/* replay */

/*
 * The schedule of a file, or of standard input ("-"): the words of
 * check's "schedule:" line, or check -j's output, whose first defect's
 * "step" words are taken.  A malloc()ed string of words, or NULL with
 * the error printed.
 */
static char *schedule_file(const char *path)
{
	const char *p, *end;
	char *text, *out, *nl;
	size_t len, n = 0;
	int ret;

	ret = read_file(path, &text, &len);
	if (ret) {
		fail_err(ret, "schedule %s", path);
		return NULL;
	}
	p = strstr(text, "\"schedule\":[");
	if (!p) {
		/* check's text: the words of its first "schedule:" line. */
		p = strstr(text, "schedule:");
		if (!p)
			return text;
		p += strlen("schedule:");
		nl = strchr(p, '\n');
		out = strndup(p, nl ? (size_t)(nl - p) : strlen(p));
		free(text);
		if (!out)
			fail_err(ENOMEM, "schedule %s", path);
		return out;
	}
	out = calloc(1, len + 1);
	end = strchr(p, ']');
	while (out && end && (p = strstr(p, "\"step\":\"")) && p < end) {
		p += strlen("\"step\":\"");
		while (*p && *p != '"')
			out[n++] = *p++;
		out[n++] = ' ';
	}
	free(text);
	if (!out)
		fail_err(ENOMEM, "schedule %s", path);
	return out;
}

/*
 * The words of operand @w: itself, or those of the file @FILE names
 * ("@FILE", "-" for standard input).  malloc()ed, or NULL (printed).
 */
static char *schedule_words(const char *w)
{
	char *dup;

	if (!strcmp(w, "-"))
		return schedule_file("-");
	if (w[0] == '@')
		return schedule_file(w + 1);
	dup = strdup(w);
	if (!dup)
		fail_err(ENOMEM, "replay");
	return dup;
}

/* The schedule of the operands after FILE, one or more words each. */
static int parse_schedule(const struct cmd *c, char **words, int n,
			  struct ncsync_check_step **stepsp, size_t *nsteps)
{
	struct ncsync_check_step *steps = NULL, *ns;
	char *dup, *w, *save;
	size_t cap = 0;
	int i, ret = 0;

	*nsteps = 0;
	for (i = 0; i < n && !ret; i++) {
		dup = schedule_words(words[i]);
		if (!dup)
			ret = EXIT_USAGE;
		for (w = dup ? strtok_r(dup, " \t\n,", &save) : NULL;
		     w && !ret; w = strtok_r(NULL, " \t\n,", &save)) {
			if (*nsteps == cap) {
				cap = cap ? 2 * cap : 64;
				ns = realloc(steps, cap * sizeof(*steps));
				if (!ns) {
					ret = fail_err(ENOMEM, "replay");
					break;
				}
				steps = ns;
			}
			if (!parse_step(w, &steps[*nsteps]))
				ret = usage_err(c, "invalid step '%s'", w);
			else
				++*nsteps;
		}
		free(dup);
	}
	*stepsp = steps;
	return ret;
}

struct replay_print {
	const struct checking *ck;
	const struct ncsync_check_step *steps;
};

static int replay_step(void *arg, size_t i,
		       const struct ncsync_check_core *cores,
		       unsigned int ncores)
{
	const struct replay_print *rp = arg;
	char word[48], line[NCSYNC_DISASM_LINE_MAX];

	if (!i) {
		printf("initial state\n");
	} else {
		step_word(rp->ck->multi, &rp->steps[i - 1], word,
			  sizeof(word));
		step_text(rp->ck, &rp->steps[i - 1], line, sizeof(line));
		printf("step %zu: %s  %s\n", i, word, line);
	}
	print_cores(rp->ck->multi, cores, ncores, "    ");
	return 0;
}

static int replay_execute(struct checking *ck,
			  const struct ncsync_check_step *steps, size_t n)
{
	struct replay_print rp = { .ck = ck, .steps = steps };
	char word[48];
	size_t done = 0;
	int ret;

	ret = ncsync_check_replay_cores(ck->parts, ck->nparts, &ck->copts,
					steps, n, replay_step, &rp, &done);
	if (ret == -E2BIG) {
		fail_msg("%s: more than %u cores or %u engines: more than the checker follows",
			 ck->path, NCSYNC_CHECK_MAX_CORES,
			 NCSYNC_CHECK_MAX_ENGINES);
		return EXIT_USAGE;
	}
	if (ret == -EPERM) {
		step_word(ck->multi, &steps[done], word, sizeof(word));
		return fail_msg("%s: step %zu (%s) cannot run in this state",
				ck->path, done + 1, word);
	}
	if (ret)
		return fail_err(ret, "%s: replay", ck->path);
	return EXIT_OK;
}

int cmd_replay(int argc, char **argv)
{
	struct checking *ck = calloc(1, sizeof(*ck));
	struct ncsync_check_step *steps = NULL;
	struct args a;
	size_t n = 0;
	int ret;

	if (!ck)
		return fail_err(ENOMEM, "replay");
	ck->cmd = find_cmd("replay");
	check_defaults(&ck->o);
	ret = parse_opts(ck->cmd, argc, argv, check_opt_table, &ck->o, &a);
	if (!ret && a.npos < 2)
		ret = usage_err(ck->cmd, a.npos ? "missing SCHEDULE" :
				"missing FILE");
	if (!ret)
		ret = parse_schedule(ck->cmd, a.pos + 1, a.npos - 1, &steps,
				     &n);
	if (!ret) {
		ck->given = a.given;
		ck->path = a.pos[0];
		ret = bad_input(checking_build(ck));
	}
	if (!ret)
		ret = replay_execute(ck, steps, n);
	free(steps);
	checking_free(ck);
	free(ck);
	return OPTS_EXIT(ret);
}
