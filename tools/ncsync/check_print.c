// SPDX-License-Identifier: GPL-2.0
/*
 * ncsync(1): the report of a check, in text or JSON: the verdict, the
 * limit that ended the search, the loop acceleration, and each defect with
 * its schedule, the state it reaches and its cycle.  A schedule is printed,
 * and read back by replay, as words separated by blanks:
 * ENGINE@RECORD.PART for a step of an engine (PART: w0, w1 the waits of
 * lane 0 and 1, fx the op's effect, u0, u1 the updates), and
 * ENGINE#COPY@RECORD.land for the landing of the engine's copy number COPY
 * (0: its first), issued by DMA record RECORD.  For a program across
 * cores ('core' statements) each word starts with its engine's core
 * position and a colon: 1:pool@3.w0.
 */
#include <string.h>

#include "check.h"
#include "print.h"

static const char *const part_names[] = {
	[NCSYNC_PART_WAIT0] = "w0", [NCSYNC_PART_WAIT1] = "w1",
	[NCSYNC_PART_EFFECT] = "fx", [NCSYNC_PART_UPDATE0] = "u0",
	[NCSYNC_PART_UPDATE1] = "u1", [NCSYNC_PART_LAND] = "land",
};

static const char *const verdict_names[] = {
	[NCSYNC_CHECK_SAFE] = "safe", [NCSYNC_CHECK_DEFECT] = "defect",
	[NCSYNC_CHECK_INCONCLUSIVE] = "inconclusive",
};

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

void check_step_word(bool multi, const struct ncsync_check_step *s,
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

bool check_parse_part(const char *s, uint8_t *part)
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

void check_step_text(const struct checking *ck,
		     const struct ncsync_check_step *s, char *buf, size_t len)
{
	struct ncsync_stream *st = check_stream(ck, s->core, s->engine);

	*buf = '\0';
	if (st && s->record < ncsync_stream_count(st))
		ncsync_disasm(ncsync_stream_peek(st, s->record), buf, len);
}

void check_step_lines(const struct checking *ck,
		      struct ncsync_check_step *steps, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		steps[i].line = ncsync_stream_line(check_stream(ck,
				steps[i].core, steps[i].engine),
				steps[i].record);
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

/*
 * The non-zero entries of a bank of @n, " [3]=1" (semaphores) or " 3"
 * (events), the lowered barriers' own after "; barriers':"; " all 0" or
 * " none" when there are none.
 */
static void print_bank(const struct checking *ck, unsigned int core,
		       uint8_t bank, const int32_t *v, unsigned int n)
{
	struct ncsync_program *prog = check_prog(ck, core);
	unsigned int i, k, shown = 0;
	bool own;

	for (k = 0; k < 2; k++) {
		unsigned int head = 0;

		for (i = 0; i < n; i++) {
			own = ncsync_program_barrier_owns(prog, bank, i);
			if (!v[i] || own != (k == 1))
				continue;
			if (k && !head++)
				printf("%s barriers':", shown ? ";" : "");
			if (bank == NCSYNC_BANK_SEM)
				printf(" [%u]=%d", i, v[i]);
			else
				printf(" %u", i);
			shown++;
		}
	}
	if (!shown)
		printf(bank == NCSYNC_BANK_SEM ? " all 0" : " none");
}

/*
 * "    pool blocked at line 7 (7.w0), pe done at line 9 (9); sems ...;
 * events ...; copies"
 */
static void print_state(const struct checking *ck, unsigned int core,
			const struct ncsync_check_state *st,
			const char *indent)
{
	int32_t ev[NCSYNC_NUM_EVENTS];
	bool multi = ck->multi;
	char where[40];
	unsigned int i;

	printf("%sengines:", indent);
	for (i = 0; i < st->nengines; i++) {
		const struct ncsync_check_engine *e = &st->engines[i];

		check_where(ck, core, e->engine, e->pc, where, sizeof(where));
		printf(" %s %s at %s", eng_name(multi, core, e->engine),
		       engine_state_word(e), where);
		if (!strncmp(where, "line", 4))
			printf(" (%u%s%s)", e->pc,
			       e->state <= NCSYNC_ENG_BLOCKED ? "." : "",
			       e->state <= NCSYNC_ENG_BLOCKED ?
			       part_names[e->part] : "");
		else if (e->state <= NCSYNC_ENG_BLOCKED)
			printf(".%s", part_names[e->part]);
	}
	printf("%s\n%ssems:", st->nengines ? "" : " none", indent);
	print_bank(ck, core, NCSYNC_BANK_SEM, st->sems, NCSYNC_NUM_SEMS);
	printf("\n%sevents set:", indent);
	for (i = 0; i < NCSYNC_NUM_EVENTS; i++)
		ev[i] = st->events[i];
	print_bank(ck, core, NCSYNC_BANK_EVENT, ev, NCSYNC_NUM_EVENTS);
	printf("\n%scopies in flight:", indent);
	for (i = 0; i < st->ncopies; i++)
		printf(" %s#%u@%u",
		       eng_name(multi, st->copies[i].core,
				st->copies[i].engine),
		       st->copies[i].copy, st->copies[i].record);
	printf("%s\n", st->ncopies ? "" : " none");
}

void check_print_cores(const struct checking *ck,
		       const struct ncsync_check_core *cores, unsigned int n,
		       const char *indent)
{
	char sub[16];
	unsigned int i;

	if (!ck->multi) {
		print_state(ck, 0, &cores[0].state, indent);
		return;
	}
	snprintf(sub, sizeof(sub), "%s  ", indent);
	for (i = 0; i < n; i++) {
		printf("%score %u:\n", indent, cores[i].core);
		print_state(ck, cores[i].core, &cores[i].state, sub);
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

static void print_defect(const struct checking *ck,
			 const struct ncsync_check_defect *d)
{
	char word[48], line[NCSYNC_DISASM_LINE_MAX];
	uint32_t i;

	check_print_what(ck, d);
	printf(", after %u step%s\n  schedule:", d->nsteps,
	       d->nsteps == 1 ? "" : "s");
	for (i = 0; i < d->nsteps; i++) {
		check_step_word(ck->multi, &d->steps[i], word, sizeof(word));
		printf(" %s", word);
	}
	putchar('\n');
	for (i = 0; i < d->nsteps; i++) {
		check_step_word(ck->multi, &d->steps[i], word, sizeof(word));
		check_step_text(ck, &d->steps[i], line, sizeof(line));
		printf("  %4u  %-18s %s", i + 1, word, line);
		if (d->steps[i].line)
			printf("  (line %u)", d->steps[i].line);
		putchar('\n');
	}
	check_print_cores(ck, d->cores, d->ncores, "  ");
	if (d->barrier)
		print_barrier_short(ck->multi, check_prog(ck, d->barrier->core),
				    d->barrier, "  ");
	else
		print_cycle(d, ck->multi);
}

/* The "wait" of a blocked engine of a checked state. */
static void json_check_wait(const struct checking *ck, unsigned int core,
			    const struct ncsync_check_state *st,
			    const struct ncsync_check_engine *e)
{
	struct check_wait w;
	char on[64];

	if (!check_wait_of(ck, core, st, e, &w))
		return;
	describe_wait(on, sizeof(on), w.kind, w.mode, w.index, w.thr);
	j_wait(on, w.kind, w.mode, w.index, w.lane,
	       w.kind == NCSYNC_BLOCK_EVENT ? 0 : w.thr, w.current);
}

/*
 * The fault the kernel gives the engine at fault of @d when it runs the
 * step that ends @d's schedule: an event written to the state it has
 * (event), a semaphore past its range (overflow, strict mode); none for
 * any other engine or defect.
 */
static uint8_t defect_fault(const struct checking *ck,
			    const struct ncsync_check_defect *d,
			    unsigned int core, uint8_t engine)
{
	const struct ncsync_check_step *last;
	struct ncsync_record_view v;
	unsigned int lane;

	if (!d || !d->nsteps || d->core != core || d->engine != engine)
		return NCSYNC_FAULT_NONE;
	if (d->kind == NCSYNC_DEFECT_OVERFLOW)
		return NCSYNC_FAULT_SEM_OVERFLOW;
	last = &d->steps[d->nsteps - 1];
	if (d->kind != NCSYNC_DEFECT_EVENT ||
	    !check_view(ck, core, engine, last->record, &v))
		return NCSYNC_FAULT_NONE;
	lane = last->part == NCSYNC_PART_UPDATE1;
	if (v.update[lane].bank != NCSYNC_BANK_EVENT)
		lane = !lane;
	return v.update[lane].op == NCSYNC_UPDATE_EVENT_CLEAR ?
	       NCSYNC_FAULT_EVENT_CLEAR_WHILE_CLEAR :
	       NCSYNC_FAULT_EVENT_SET_WHILE_SET;
}

/* A state's engines, their "fault" by @d (or none), and its banks. */
static void json_state(const struct checking *ck, unsigned int core,
		       const struct ncsync_check_state *st,
		       const struct ncsync_check_defect *d)
{
	const struct ncsync_check_engine *e;
	unsigned int i;

	j_arr("engines");
	for (i = 0; i < st->nengines; i++) {
		e = &st->engines[i];
		j_obj(NULL);
		j_uint("id", e->engine);
		j_str("engine", engine_label(e->engine));
		/* The kernel's names, as every other command prints them. */
		j_str("state", ncsync_engine_state_name(e->state));
		j_str("fault", ncsync_fault_name(defect_fault(ck, d, core,
							      e->engine)));
		j_uint("pc", e->pc);
		if (e->state == NCSYNC_ENG_BLOCKED)
			json_check_wait(ck, core, st, e);
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

void check_json_cores(const struct checking *ck,
		      const struct ncsync_check_core *cores, unsigned int n,
		      const struct ncsync_check_defect *d)
{
	unsigned int i;

	if (!ck->multi) {
		j_obj("reached");
		json_state(ck, cores[0].core, &cores[0].state, d);
		j_end();
		return;
	}
	j_arr("cores");
	for (i = 0; i < n; i++) {
		j_obj(NULL);
		j_uint("core", cores[i].core);
		json_state(ck, cores[i].core, &cores[i].state, d);
		j_end();
	}
	j_end();
}

void check_json_schedule(bool multi, const struct ncsync_check_step *steps,
			 size_t n)
{
	char word[48];
	size_t i;

	j_arr("schedule");
	for (i = 0; i < n; i++) {
		check_step_word(multi, &steps[i], word, sizeof(word));
		j_obj(NULL);
		j_str("step", word);
		if (multi)
			j_uint("core", steps[i].core);
		j_str("engine", engine_label(steps[i].engine));
		j_uint("record", steps[i].record);
		j_uint("line", steps[i].line);
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

void check_json_defect(const struct checking *ck,
		       const struct ncsync_check_defect *d)
{
	bool multi = ck->multi;
	uint32_t i;

	j_obj(NULL);
	j_str("kind", ncsync_defect_name(d->kind));
	if (multi)
		j_uint("core", d->core);
	j_str("engine", engine_label(d->engine));
	j_uint("record", d->record);
	j_uint("line", ncsync_stream_line(check_stream(ck, d->core, d->engine),
					  d->record));
	check_json_schedule(multi, d->steps, d->nsteps);
	if (d->barrier)
		json_barrier_short(multi, d->barrier);
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
	if (multi)
		check_json_cores(ck, d->cores, d->ncores, d);
	else
		check_json_cores(ck, &(struct ncsync_check_core){
				 .core = d->core, .state = d->state }, 1, d);
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

/*
 * What the loop acceleration did, after the verdict's line; on a fall-back,
 * the states its search on the classes spent, and the check's in all.
 */
static void print_accel(const struct checking *ck,
			const struct ncsync_check_result *res,
			const struct ncsync_check_accel *a)
{
	const char *who = eng_name(ck->multi, a->core, a->engine);
	uint64_t cls = ncsync_check_class_states(res);

	if (a->status == NCSYNC_ACCEL_APPLIED)
		printf("loop at line %u (%s@%u) checked by induction over its passes\n",
		       a->line, who, a->record);
	else if (a->status == NCSYNC_ACCEL_FELL_BACK)
		printf("loop at line %u (%s@%u) searched pass by pass: %s (%llu states on its classes first, %llu in all)\n",
		       a->line, who, a->record, a->why,
		       (unsigned long long)cls,
		       (unsigned long long)(cls + ncsync_check_states(res)));
}

static void json_accel(const struct checking *ck,
		       const struct ncsync_check_result *res,
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
	if (a->status == NCSYNC_ACCEL_FELL_BACK)
		j_uint("class_states", ncsync_check_class_states(res));
	j_end();
}

/* The classes of interchangeable engines, after the verdict's line. */
static void print_symmetry(const struct checking *ck,
			   const struct ncsync_check_symmetry *s)
{
	unsigned int i;

	for (i = 0; i < s->nmembers; i++) {
		bool first = !i || s->cls[i] != s->cls[i - 1];
		bool last = i + 1 == s->nmembers || s->cls[i + 1] != s->cls[i];

		printf("%s%s%s", first ? "symmetric engines: " : " ",
		       eng_name(ck->multi, s->core[i], s->engine[i]),
		       last ? "\n" : "");
	}
}

static void json_symmetry(const struct checking *ck,
			  const struct ncsync_check_symmetry *s)
{
	unsigned int i;

	/* An array of objects, as every array of the vocabulary (tool.rst). */
	j_arr("symmetry");
	for (i = 0; i < s->nmembers; i++) {
		j_obj(NULL);
		j_uint("class", s->cls[i]);
		j_str("engine", eng_name(ck->multi, s->core[i], s->engine[i]));
		j_end();
	}
	j_end();
}

void check_report(const struct checking *ck,
		  const struct ncsync_check_result *res)
{
	struct ncsync_check_symmetry sym;
	enum ncsync_check_verdict v = ncsync_check_verdict(res);
	unsigned int i, n = ncsync_check_ndefects(res);
	struct ncsync_check_accel accel;

	ncsync_check_accel(res, &accel);
	ncsync_check_symmetry(res, &sym);
	if (opt_json) {
		j_obj(NULL);
		j_str("file", ck->path);
		j_str("verdict", verdict_names[v]);
		j_uint("states", ncsync_check_states(res));
		j_bool("complete", ncsync_check_complete(res));
		j_str("limit",
		      ncsync_check_limit_name(ncsync_check_limit(res)));
		json_accel(ck, res, &accel);
		json_symmetry(ck, &sym);
		j_arr("defects");
		for (i = 0; i < n; i++)
			check_json_defect(ck, ncsync_check_defect(res, i));
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
	print_accel(ck, res, &accel);
	print_symmetry(ck, &sym);
	for (i = 0; i < n; i++)
		print_defect(ck, ncsync_check_defect(res, i));
}
