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

/* The stream of @engine of the core at position @core, or NULL. */
static struct ncsync_stream *step_stream(const struct checking *ck,
					 unsigned int core, uint8_t engine)
{
	struct ncsync_stream *st = NULL;
	unsigned int i;

	for (i = 0; i < ck->nparts; i++)
		if (ck->parts[i].core == core)
			st = ncsync_program_find_stream(ck->parts[i].prog,
							engine);
	return st;
}

/* The decoded record @record of @engine of core @core; false if none. */
static bool step_view(const struct checking *ck, unsigned int core,
		      uint8_t engine, uint32_t record,
		      struct ncsync_record_view *v)
{
	struct ncsync_stream *st = step_stream(ck, core, engine);

	return st && record < ncsync_stream_count(st) &&
	       !ncsync_record_view(ncsync_stream_peek(st, record), UINT32_MAX,
				   v);
}

void check_step_text(const struct checking *ck,
		     const struct ncsync_check_step *s, char *buf, size_t len)
{
	struct ncsync_stream *st = step_stream(ck, s->core, s->engine);

	*buf = '\0';
	if (st && s->record < ncsync_stream_count(st))
		ncsync_disasm(ncsync_stream_peek(st, s->record), buf, len);
}

void check_step_lines(const struct checking *ck,
		      struct ncsync_check_step *steps, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		steps[i].line = ncsync_stream_line(step_stream(ck,
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

void check_print_cores(bool multi, const struct ncsync_check_core *cores,
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

void check_print_what(const struct checking *ck,
		      const struct ncsync_check_defect *d)
{
	printf("%s: ", ncsync_defect_name(d->kind));
	print_what(d, ck->multi);
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
	check_print_cores(ck->multi, d->cores, d->ncores, "  ");
	print_cycle(d, ck->multi);
}

/*
 * The "wait" of a blocked engine of a checked state, as run reports the
 * kernel's: the wait of the lane its next step is, or else (a drain, a
 * DMA record with no free slot) its copies in flight.
 */
static void json_check_wait(const struct checking *ck, unsigned int core,
			    const struct ncsync_check_state *st,
			    const struct ncsync_check_engine *e)
{
	unsigned int lane = e->part == NCSYNC_PART_WAIT1;
	const struct ncsync_wait_view *w;
	struct ncsync_record_view v;
	uint8_t kind;
	int32_t thr;
	char on[64];

	if (!step_view(ck, core, e->engine, e->pc, &v))
		return;
	w = &v.wait[lane];
	if (e->part > NCSYNC_PART_WAIT1 || !w->active) {
		kind = v.opcode == NCSYNC_OPC_DRAIN ? NCSYNC_BLOCK_DRAIN :
		       NCSYNC_BLOCK_DMA_FULL;
		describe_wait(on, sizeof(on), kind, 0, 0, 0);
		j_wait(on, kind, 0, 0, -1, 0, e->inflight);
		return;
	}
	kind = w->bank == NCSYNC_BANK_EVENT ? NCSYNC_BLOCK_EVENT :
	       NCSYNC_BLOCK_SEM;
	thr = !w->reg ? (int32_t)w->value : w->value < NCSYNC_NUM_REGS ?
	      (int32_t)e->regs[w->value] : 0;
	if (kind == NCSYNC_BLOCK_EVENT)
		thr = 0;
	describe_wait(on, sizeof(on), kind, w->mode, w->index, thr);
	j_wait(on, kind, w->mode, w->index, lane, thr,
	       kind == NCSYNC_BLOCK_EVENT ? st->events[w->index] :
	       st->sems[w->index]);
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
	    !step_view(ck, core, engine, last->record, &v))
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
	check_json_schedule(multi, d->steps, d->nsteps);
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

	j_arr("symmetry");
	for (i = 0; i < s->nmembers; i++) {
		if (!i || s->cls[i] != s->cls[i - 1])
			j_arr(NULL);
		j_str(NULL, eng_name(ck->multi, s->core[i], s->engine[i]));
		if (i + 1 == s->nmembers || s->cls[i + 1] != s->cls[i])
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
		json_accel(ck, &accel);
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
	print_accel(ck, &accel);
	print_symmetry(ck, &sym);
	for (i = 0; i < n; i++)
		print_defect(ck, ncsync_check_defect(res, i));
}
