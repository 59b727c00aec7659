// SPDX-License-Identifier: GPL-2.0
/*
 * ncsync(1): run of a program across the cores of a logical core, a text
 * of "core N" statements (Documentation/ncsync/asm.rst, "Programs across
 * cores"): the part of "core N" runs on the core at position N of the
 * logical core of -c, all parts submitted together with
 * ncsync_program_submit_cores() on a descriptor of each core, opened for
 * the run; the status and the timeline cover every part (the report:
 * run_report.c).
 */
#include <errno.h>
#include <stdlib.h>

#include "opts.h"
#include "print.h"
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
	char what[64];
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
		refused_record(what, sizeof(what), progs[part], &serr);
		return fail_msg("%s: core %u: %s: %s", run->path,
				run->parts[i].pos, what,
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
		tp[i].prog = run->parts[i].prog;
	}
	return timeline_write_svg(run->tl, tp, run->nparts, true, title,
				  run->o.timeline);
}
