// SPDX-License-Identifier: GPL-2.0
/*
 * ncsync(1): the report of ncsync run, in text or JSON: the program's
 * state, each engine and the non-zero semaphores, of one core or of every
 * core of a program across cores, and for a program that did not end the
 * deadlock analysis (ncsync_program_deadlock_cores()).
 */
#include <string.h>

#include "opts.h"
#include "print.h"
#include "run.h"

/**
 * struct run_dl - the deadlock analysis of a run that did not end, of one
 * core or across cores (ncsync_program_deadlock_cores()).
 * @multi: name each engine with its core's position ("1:pe").
 * @dl: the analysis.
 * @st: the status of engine i of @dl, in the caller's reports.
 * @prog: the part engine i of @dl runs.
 * @barrier: the barrier the stuck engines wait in, when another engine
 *	misses it (ncsync_program_barrier_short()); nwaiting 0 otherwise.
 * @barrier_prog: the part of @barrier's core.
 */
struct run_dl {
	bool multi;
	struct ncsync_deadlock_cores dl;
	const struct ncsync_engine_status *st[NCSYNC_DEADLOCK_MAX_ENGINES];
	struct ncsync_program *prog[NCSYNC_DEADLOCK_MAX_ENGINES];
	struct ncsync_barrier_short barrier;
	struct ncsync_program *barrier_prog;
};

/* The report of a run */

/*
 * The non-zero semaphores of a status: the program's, then on a line of
 * their own, after "barriers':", the lowered barriers' counters.
 */
static void print_run_sems(struct ncsync_program *prog, const char *indent,
			   const struct ncsync_sem_value *sems, unsigned int n)
{
	struct ncsync_sem_value own[NCSYNC_NUM_SEMS], other[NCSYNC_NUM_SEMS];
	unsigned int i, nown = 0, nother = 0;
	char sub[24];

	printf("%snon-zero semaphores:%s", indent, n ? "\n" : " none\n");
	for (i = 0; i < n && i < NCSYNC_NUM_SEMS; i++) {
		if (ncsync_program_barrier_owns(prog, NCSYNC_BANK_SEM,
						sems[i].index))
			own[nown++] = sems[i];
		else
			other[nother++] = sems[i];
	}
	snprintf(sub, sizeof(sub), "%s  ", indent);
	if (nother)
		print_sem_list(stdout, sub, other, nother);
	snprintf(sub, sizeof(sub), "%s  barriers': ", indent);
	if (nown)
		print_sem_list(stdout, sub, own, nown);
}

static void wait_text(const struct ncsync_engine_status *e, char *buf, size_t len)
{
	describe_wait(buf, len, e->wait_kind, e->wait_mode, e->wait_index,
		      e->wait_threshold);
}

/* The "wait" member of a blocked engine of the status. */
static void json_engine_wait(const struct ncsync_engine_status *e)
{
	char what[64];

	wait_text(e, what, sizeof(what));
	j_wait(what, e->wait_kind, e->wait_mode, e->wait_index, e->wait_lane,
	       e->wait_threshold, e->wait_current);
}

/* An engine of the status, its lines indented by @indent. */
static void print_engine(struct ncsync_program *prog,
			 const struct ncsync_engine_status *e,
			 const char *indent)
{
	char what[96], where[32], line[NCSYNC_DISASM_LINE_MAX] = "";
	struct ncsync_stream *s;

	s = ncsync_program_find_stream(prog, e->engine);
	if (s && e->pc < ncsync_stream_count(s))
		ncsync_disasm(ncsync_stream_peek(s, e->pc), line,
			      sizeof(line));
	source_where(prog, e->engine, e->pc, where, sizeof(where));
	printf("%sengine %u %-4s %-9s at %s", indent, e->engine,
	       engine_label(e->engine), ncsync_engine_state_name(e->state),
	       where);
	if (strncmp(where, "record", 6))
		printf(" (record %u)", e->pc);
	printf(", %llu executed", (unsigned long long)e->executed);
	if (e->state == NCSYNC_ENG_BLOCKED) {
		source_wait(what, sizeof(what), prog, e->engine, e->pc,
			    e->wait_kind, e->wait_mode, e->wait_index,
			    e->wait_threshold);
		if (!strncmp(what, "waits in", 8)) {
			printf(": %s, now %d", what, e->wait_current);
		} else if (e->wait_kind == NCSYNC_BLOCK_DRAIN) {
			printf(": in a drain, %u copies in flight",
			       e->dma_outstanding);
		} else if (e->wait_kind == NCSYNC_BLOCK_DMA_FULL) {
			printf(": waits for a DMA slot, %u copies in flight",
			       e->dma_outstanding);
		} else {
			wait_text(e, what, sizeof(what));
			printf(": waits for %s (lane %u), now %d", what,
			       e->wait_lane, e->wait_current);
		}
	}
	if (e->fault)
		printf(" (fault: %s)", ncsync_fault_name(e->fault));
	putchar('\n');
	if (*line && e->state != NCSYNC_ENG_DONE)
		printf("%s    %u: %s\n", indent, e->pc, line);
}

static void json_engine(const struct ncsync_engine_status *e)
{
	j_obj(NULL);
	j_uint("id", e->engine);
	j_str("engine", engine_label(e->engine));
	j_str("state", ncsync_engine_state_name(e->state));
	j_str("fault", ncsync_fault_name(e->fault));
	j_uint("pc", e->pc);
	j_uint("executed", e->executed);
	j_uint("dma_outstanding", e->dma_outstanding);
	if (e->state == NCSYNC_ENG_BLOCKED)
		json_engine_wait(e);
	j_end();
}

/* "file", "core", "id", "state", "elapsed_us", "watchdog_ms", "cancelled" */
static void json_run_head(const struct run *run, unsigned int core,
			  uint32_t state)
{
	j_str("file", run->path);
	j_uint("core", core);
	j_uint("id", run->id);
	j_str("state", ncsync_prog_state_name(state));
	j_uint("elapsed_us", run->elapsed_ns / 1000);
	j_uint("watchdog_ms", run->watchdog);
	if (run->why)
		j_str("cancelled", run->why);
}

/* "engines" and "sems" of a status */
static void json_engines_sems(const struct ncsync_prog_status *st,
			      const struct ncsync_sem_value *sems)
{
	unsigned int i;

	j_arr("engines");
	for (i = 0; i < st->nengines; i++)
		json_engine(&st->engines[i]);
	j_end();
	j_arr("sems");
	for (i = 0; i < st->nsems; i++) {
		j_obj(NULL);
		j_uint("index", sems[i].index);
		j_int("value", sems[i].value);
		j_end();
	}
	j_end();
}

/* Analyse the @n parts' reports @st; false when no engine is stuck. */
static bool run_dl_analyse(struct run_dl *c,
			   const struct ncsync_asm_part *parts,
			   const struct ncsync_prog_status *const *st,
			   unsigned int n, bool multi)
{
	struct ncsync_prog_status copy[NCSYNC_MAX_LNC];
	unsigned int i, k, m = 0;

	c->multi = multi;
	for (i = 0; i < n; i++)
		copy[i] = *st[i];
	if (ncsync_program_deadlock_cores(parts, copy, n, &c->dl) ||
	    !c->dl.nstuck)
		return false;
	if (ncsync_program_barrier_short(parts, copy, n, &c->barrier))
		c->barrier.nwaiting = 0;
	c->barrier_prog = NULL;
	for (i = 0; i < n; i++) {
		if (parts[i].core == c->barrier.core)
			c->barrier_prog = parts[i].prog;
		for (k = 0; k < st[i]->nengines; k++) {
			c->prog[m] = parts[i].prog;
			c->st[m++] = &st[i]->engines[k];
		}
	}
	return true;
}

/* "pe", or across cores "1:pe". */
static const char *slot_name(const struct run_dl *c,
			     const struct ncsync_deadlock_slot *s, char *buf,
			     size_t len)
{
	if (!c->multi)
		return engine_label(s->engine);
	snprintf(buf, len, "%u:%s", s->core, engine_label(s->engine));
	return buf;
}

/*
 * "pool waits for sem[2] > 0 (line 30), now 0: only pe (line 41, record
 * 12) would post..."
 */
static void print_stuck_slot(const struct run_dl *c, unsigned int i)
{
	const struct ncsync_deadlock_slot *d = &c->dl.engines[i];
	const struct ncsync_engine_status *e = c->st[i];
	char what[96], name[24], where[32];
	unsigned int j, k = 0;

	source_wait(what, sizeof(what), c->prog[i], e->engine, e->pc,
		    e->wait_kind, e->wait_mode, e->wait_index,
		    e->wait_threshold);
	printf("    %s %s, now %d: ", slot_name(c, d, name, sizeof(name)),
	       what, e->wait_current);
	for (j = 0; j < c->dl.nengines; j++) {
		if (d->poster[j] < 0)
			continue;
		source_where(c->prog[j], c->dl.engines[j].engine,
			     d->poster[j], where, sizeof(where));
		printf("%s%s (%s", k++ ? ", " : "only ",
		       slot_name(c, &c->dl.engines[j], name, sizeof(name)),
		       where);
		if (strncmp(where, "record", 6))
			printf(", record %lld", (long long)d->poster[j]);
		putchar(')');
	}
	if (k)
		printf(" would post it, and %s stuck\n",
		       k == 1 ? "is" : "are");
	else
		printf("no engine of the program posts it any more\n");
}

/* "  deadlock: pool -> pe -> pool", then each stuck engine and posters. */
static void run_dl_print(const struct run_dl *c)
{
	const struct ncsync_deadlock_cores *dl = &c->dl;
	char name[24];
	unsigned int k;

	if (c->barrier.nwaiting) {
		print_barrier_short(c->multi, c->barrier_prog, &c->barrier,
				    "  ");
	} else if (dl->ncycle) {
		printf("  deadlock:");
		for (k = 0; k < dl->ncycle; k++)
			printf(" %s ->", slot_name(c, &dl->engines[dl->cycle[k]],
						   name, sizeof(name)));
		printf(" %s\n", slot_name(c, &dl->engines[dl->cycle[0]], name,
					  sizeof(name)));
	} else {
		printf("  stuck: %u engine%s wait%s for what no engine will post\n",
		       dl->nstuck, dl->nstuck == 1 ? "" : "s",
		       dl->nstuck == 1 ? "s" : "");
	}
	for (k = 0; k < dl->nengines; k++)
		if (dl->engines[k].stuck)
			print_stuck_slot(c, k);
}

/* An engine of the analysis: "core" (across cores) and "engine". */
static void json_slot(const struct run_dl *c,
		      const struct ncsync_deadlock_slot *s)
{
	if (c->multi)
		j_uint("core", s->core);
	j_str("engine", engine_label(s->engine));
}

/* "deadlock": each stuck engine, its wait and its posters. */
static void run_dl_json(const struct run_dl *c)
{
	const struct ncsync_deadlock_cores *dl = &c->dl;
	unsigned int i, j;

	if (c->barrier.nwaiting)
		json_barrier_short(c->multi, &c->barrier);
	j_arr("deadlock");
	for (i = 0; i < dl->nengines; i++) {
		const struct ncsync_deadlock_slot *d = &dl->engines[i];

		if (!d->stuck)
			continue;
		j_obj(NULL);
		json_slot(c, d);
		json_engine_wait(c->st[i]);
		j_arr("posters");
		for (j = 0; j < dl->nengines; j++) {
			if (d->poster[j] < 0)
				continue;
			j_obj(NULL);
			json_slot(c, &dl->engines[j]);
			j_uint("record", d->poster[j]);
			j_uint("line", ncsync_stream_line(
				ncsync_program_find_stream(c->prog[j],
					dl->engines[j].engine),
				d->poster[j]));
			j_end();
		}
		j_end();
		j_end();
	}
	j_end();
}

static void json_report(const struct run *run,
			const struct ncsync_prog_status *st,
			const struct ncsync_sem_value *sems,
			const struct run_dl *dl)
{
	j_obj(NULL);
	json_run_head(run, opt_core, st->state);
	json_engines_sems(st, sems);
	if (dl)
		run_dl_json(dl);
	if (run->timeline)
		j_str("timeline", run->timeline);
	j_end();
	j_done();
}

static void text_report(const struct run *run,
			const struct ncsync_prog_status *st,
			const struct ncsync_sem_value *sems,
			const struct run_dl *dl)
{
	unsigned int i;

	printf("%s: program %u on core %u: %s after %.1f ms", run->path,
	       run->id, opt_core, ncsync_prog_state_name(st->state),
	       run->elapsed_ns / 1e6);
	if (st->state == NCSYNC_PROG_TIMED_OUT)
		printf(" (watchdog: no progress for %u ms)", run->watchdog);
	if (run->why)
		printf(" (%s)", run->why);
	putchar('\n');
	for (i = 0; i < st->nengines; i++)
		print_engine(run->prog, &st->engines[i], "  ");
	print_run_sems(run->prog, "  ", sems, st->nsems);
	if (dl)
		run_dl_print(dl);
	if (run->timeline)
		printf("  timeline: %s\n", run->timeline);
}

void run_core_report(const struct run *run,
		     const struct ncsync_prog_status *st,
		     const struct ncsync_sem_value *sems)
{
	const struct ncsync_info *in = ncsync_get_info(run->dev);
	struct ncsync_asm_part part = { .prog = run->prog };
	struct run_dl dl;
	bool stuck = false;

	/* Its core's position, where a copy to a peer lands or not. */
	if (in && in->lnc)
		part.core = in->core % in->lnc;
	if (st->state != NCSYNC_PROG_DONE && st->state != NCSYNC_PROG_HALTED)
		stuck = run_dl_analyse(&dl, &part, &st, 1, false);
	if (opt_json)
		json_report(run, st, sems, stuck ? &dl : NULL);
	else
		text_report(run, st, sems, stuck ? &dl : NULL);
}

/* The engines and semaphores of a part, as the cancel found them or final. */
static const struct ncsync_prog_status *
part_status(const struct run_part *p, const struct ncsync_sem_value **sems)
{
	*sems = p->have_live ? p->live_sems : p->sems;
	return p->have_live ? &p->live : &p->st;
}

static void json_part(const struct run_part *p)
{
	const struct ncsync_prog_status *st;
	const struct ncsync_sem_value *sems;

	st = part_status(p, &sems);
	j_obj(NULL);
	j_uint("core", p->core);
	json_engines_sems(st, sems);
	j_end();
}

/*
 * The analysis across the parts of a program that did not end: false when
 * none is stuck, or the parts have more engines than it follows.
 */
static bool cores_deadlock(const struct run *run, struct run_dl *c)
{
	const struct ncsync_prog_status *st[NCSYNC_MAX_LNC];
	struct ncsync_asm_part parts[NCSYNC_MAX_LNC];
	const struct ncsync_sem_value *sems;
	unsigned int i;

	if (run->st.state == NCSYNC_PROG_DONE ||
	    run->st.state == NCSYNC_PROG_HALTED)
		return false;
	for (i = 0; i < run->nparts; i++) {
		parts[i].core = run->parts[i].pos;
		parts[i].prog = run->parts[i].prog;
		st[i] = part_status(&run->parts[i], &sems);
	}
	return run_dl_analyse(c, parts, st, run->nparts, true);
}

static void json_cores_report(const struct run *run)
{
	struct run_dl c;
	unsigned int i;

	j_obj(NULL);
	json_run_head(run, run->parts[run->sub].core, run->st.state);
	j_uint("logical_core", run->lc.index);
	j_uint("lnc", run->lc.lnc);
	j_arr("cores");
	for (i = 0; i < run->nparts; i++)
		json_part(&run->parts[i]);
	j_end();
	if (cores_deadlock(run, &c))
		run_dl_json(&c);
	if (run->timeline)
		j_str("timeline", run->timeline);
	j_end();
	j_done();
}

static void text_part(const struct run_part *p)
{
	const struct ncsync_prog_status *st;
	const struct ncsync_sem_value *sems;
	unsigned int i;

	st = part_status(p, &sems);
	printf("  core %u (position %u):\n", p->core, p->pos);
	for (i = 0; i < st->nengines; i++)
		print_engine(p->prog, &st->engines[i], "    ");
	print_run_sems(p->prog, "    ", sems, st->nsems);
}

/*
 * The report of every part, and for a program that did not end, the
 * deadlock analysis across its cores (ncsync_program_deadlock_cores()).
 */
void cores_report(const struct run *run)
{
	struct run_dl c;
	unsigned int i;

	if (opt_json) {
		json_cores_report(run);
		return;
	}
	printf("%s: program %u on logical core %u (cores %u-%u, submitted on core %u): %s after %.1f ms",
	       run->path, run->id, run->lc.index, run->lc.first,
	       run->lc.first + run->lc.lnc - 1, run->parts[run->sub].core,
	       ncsync_prog_state_name(run->st.state), run->elapsed_ns / 1e6);
	if (run->st.state == NCSYNC_PROG_TIMED_OUT)
		printf(" (watchdog: no progress for %u ms)", run->watchdog);
	if (run->why)
		printf(" (%s)", run->why);
	putchar('\n');
	for (i = 0; i < run->nparts; i++)
		text_part(&run->parts[i]);
	if (cores_deadlock(run, &c))
		run_dl_print(&c);
	if (run->timeline)
		printf("  timeline: %s\n", run->timeline);
}
