// SPDX-License-Identifier: GPL-2.0
/*
 * ncsync(1): run of a program across the cores of a logical core, a text
 * of "core N" statements (Documentation/ncsync/asm.rst, "Programs across
 * cores"): the part of "core N" runs on the core at position N of the
 * logical core of -c, all parts submitted together with
 * ncsync_program_submit_cores() on a descriptor of each core, opened for
 * the run; the status, the report and the timeline cover every part.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "run.h"

/*
 * The part submitted on: the one of -c's core, else the first.  The
 * submitting core must name a queue (uapi.rst, NCSYNC_SUBMIT_F_CORES).
 */
static unsigned int cores_submitter(const struct run *run)
{
	unsigned int i;

	for (i = 0; i < run->nparts; i++)
		if (run->parts[i].core == opt_core)
			return i;
	return 0;
}

/* Check that every part is a core of -c's logical core; prints why not. */
static int cores_check(struct run *run, const struct ncsync_asm_part *parts,
		       unsigned int n)
{
	const struct lcore *lc = &run->lc;
	unsigned int i;

	for (i = 0; i < n; i++)
		if (parts[i].core >= lc->lnc)
			return fail_msg("%s: core %u: outside the logical core of core %u (lnc %u: core 0 to %u)",
					run->path, parts[i].core, opt_core,
					lc->lnc, lc->lnc - 1);
	return 0;
}

int cores_open(struct run *run, const struct ncsync_asm_part *parts,
	       unsigned int n)
{
	unsigned int i;
	int ret;

	ret = logical_core_of(opt_core, &run->lc);
	if (!ret)
		ret = cores_check(run, parts, n);
	if (!ret) {
		run->parts = calloc(n, sizeof(*run->parts));
		if (!run->parts)
			ret = fail_err(ENOMEM, "%s", run->path);
	}
	if (ret) {
		for (i = 0; i < n; i++)
			ncsync_program_free(parts[i].prog);
		return ret;
	}
	run->nparts = n;
	for (i = 0; i < n; i++) {
		struct run_part *p = &run->parts[i];

		p->pos = parts[i].core;
		p->core = run->lc.first + p->pos;
		p->prog = parts[i].prog;
	}
	for (i = 0; i < n && !ret; i++) {
		struct run_part *p = &run->parts[i];

		if (p->core == opt_core)
			p->dev = run->dev;
		else
			ret = open_core_at(p->core, true, &p->dev);
	}
	run->sub = cores_submitter(run);
	return ret;
}

void cores_close(struct run *run)
{
	unsigned int i;

	for (i = 0; i < run->nparts; i++) {
		ncsync_program_free(run->parts[i].prog);
		if (run->parts[i].dev != run->dev)
			ncsync_close(run->parts[i].dev);
	}
	free(run->parts);
	run->parts = NULL;
	run->nparts = 0;
}

int cores_submit(struct run *run, uint32_t flags)
{
	struct ncsync_program *progs[NCSYNC_MAX_LNC];
	struct ncsync_dev *devs[NCSYNC_MAX_LNC];
	struct ncsync_submit_error serr;
	unsigned int i, k = 1, part = 0;
	int ret;

	/* The submitter first: the id names the program on its descriptor. */
	for (i = 0; i < run->nparts; i++) {
		unsigned int j = i == run->sub ? 0 : k++;

		devs[j] = run->parts[i].dev;
		progs[j] = run->parts[i].prog;
	}
	ret = ncsync_program_submit_cores(devs, progs, run->nparts, flags,
					  run->o.watchdog, &run->id, &serr,
					  &part);
	if (!ret)
		return 0;
	if (ret == -EINVAL && serr.reason) {
		for (i = 0; i < run->nparts; i++)
			if (run->parts[i].prog == progs[part])
				break;
		return fail_msg("%s: core %u: engine %s record %u: %s",
				run->path, run->parts[i].pos,
				engine_label(serr.engine), serr.index,
				ncsync_reason_name(serr.reason));
	}
	return fail_err(ret, "%s: submit across cores %u-%u", run->path,
			run->lc.first, run->lc.first + run->lc.lnc - 1);
}

/*
 * Every part's engines and semaphores, @live (without release, before a
 * cancel) or final: then the program is released, and run->st holds the
 * state of the whole program.  0 or EXIT_FAIL.
 */
int cores_status(struct run *run, bool live)
{
	struct ncsync_dev *dev = run->parts[run->sub].dev;
	struct ncsync_prog_status st;
	unsigned int i;
	int ret;

	for (i = 0; i < run->nparts; i++) {
		struct run_part *p = &run->parts[i];

		ret = ncsync_program_status_core(dev, run->id, p->pos,
						 live ? &p->live : &p->st,
						 live ? p->live_sems : p->sems);
		if (live) {
			p->have_live = !ret;
			continue;
		}
		if (ret)
			return fail_err(ret, "%s: status of program %u on core %u",
					run->path, run->id, p->core);
	}
	if (live)
		return 0;
	ret = ncsync_program_status(dev, run->id, true, &st, NULL);
	if (ret)
		return fail_err(ret, "%s: status of program %u", run->path,
				run->id);
	run->st.state = st.state;
	return 0;
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

bool run_dl_analyse(struct run_dl *c, const struct ncsync_asm_part *parts,
		    const struct ncsync_prog_status *const *st, unsigned int n,
		    bool multi)
{
	struct ncsync_prog_status copy[NCSYNC_MAX_LNC];
	unsigned int i, k, m = 0;

	c->multi = multi;
	for (i = 0; i < n; i++)
		copy[i] = *st[i];
	if (ncsync_program_deadlock_cores(parts, copy, n, &c->dl) ||
	    !c->dl.nstuck)
		return false;
	for (i = 0; i < n; i++)
		for (k = 0; k < st[i]->nengines; k++)
			c->st[m++] = &st[i]->engines[k];
	return true;
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

/* "pool waits for sem[2] > 0, now 0: only pe (record 12) would post..." */
static void print_stuck_slot(const struct run_dl *c, unsigned int i)
{
	const struct ncsync_deadlock_slot *d = &c->dl.engines[i];
	char what[64], name[24];
	unsigned int j, k = 0;

	wait_text(c->st[i], what, sizeof(what));
	printf("    %s waits for %s, now %d: ",
	       slot_name(c, d, name, sizeof(name)), what,
	       c->st[i]->wait_current);
	for (j = 0; j < c->dl.nengines; j++) {
		if (d->poster[j] < 0)
			continue;
		printf("%s%s (record %lld)", k++ ? ", " : "only ",
		       slot_name(c, &c->dl.engines[j], name, sizeof(name)),
		       (long long)d->poster[j]);
	}
	if (k)
		printf(" would post it, and %s stuck\n",
		       k == 1 ? "is" : "are");
	else
		printf("no engine of the program posts it any more\n");
}

void run_dl_print(const struct run_dl *c)
{
	const struct ncsync_deadlock_cores *dl = &c->dl;
	char name[24];
	unsigned int k;

	if (dl->ncycle) {
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

void run_dl_json(const struct run_dl *c)
{
	const struct ncsync_deadlock_cores *dl = &c->dl;
	unsigned int i, j;

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
			j_end();
		}
		j_end();
		j_end();
	}
	j_end();
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
	printf("    non-zero semaphores:%s", st->nsems ? "\n" : " none\n");
	if (st->nsems)
		print_sem_list(stdout, "      ", sems, st->nsems);
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

/*
 * One lane per (core, engine).  A part's id on the trace is its member's,
 * the id on the descriptor of its core: the submitter's is the program's;
 * every other descriptor was opened for this run and has only this
 * program, its first, which is 1 (uapi.rst, "Program ioctls").
 */
int cores_timeline(struct run *run, const char *title)
{
	struct tl_prog tp[NCSYNC_MAX_LNC];
	unsigned int i;

	for (i = 0; i < run->nparts; i++) {
		tp[i].core = run->parts[i].core;
		tp[i].id = i == run->sub ? run->id : 1;
		tp[i].engine_mask = ncsync_program_engines(run->parts[i].prog);
	}
	return timeline_write_svg(run->tl, tp, run->nparts, true, title,
				  run->o.timeline);
}
