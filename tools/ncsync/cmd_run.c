// SPDX-License-Identifier: GPL-2.0
/*
 * ncsync(1): ncsync run FILE [--timeout MS] [--watchdog MS] [--strict]
 * [--conformance] [--timeline OUT.svg] [--lowering counter|events]
 * [--check]: assemble, lower and submit FILE (text or image), wait for the
 * end and report it; a program across cores through cores.c.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

#include "build.h"
#include "check.h"
#include "cmds.h"
#include "print.h"
#include "run.h"

/* run */

enum {
	RO_TIMEOUT, RO_WATCHDOG, RO_STRICT, RO_CONFORMANCE, RO_TIMELINE,
	RO_LOWERING, RO_CHECK,
};

static const struct opt run_opt_table[] = {
	[RO_TIMEOUT] = OPT_TIMEOUT(struct run_opts, timeout),
	[RO_WATCHDOG] = { "watchdog", 'w', OPT_U32, "1-3600000 ms",
			  OPT_FIELD(struct run_opts, watchdog),
			  .min = 1, .max = MS_MAX },
	[RO_STRICT] = { "strict", 's', OPT_FLAG,
			OPT_FIELD(struct run_opts, strict) },
	[RO_CONFORMANCE] = { "conformance", 'C', OPT_FLAG,
			     OPT_FIELD(struct run_opts, conformance) },
	[RO_TIMELINE] = { "timeline", 'T', OPT_PATH,
			  OPT_FIELD(struct run_opts, timeline) },
	[RO_LOWERING] = OPT_LOWERING(struct run_opts, lowering),
	[RO_CHECK] = { "check", 'K', OPT_FLAG,
		       OPT_FIELD(struct run_opts, check) },
	{ /* sentinel */ }
};

/* The run options of the file's "# options:" line. */
static int file_options(struct run *run)
{
	struct run_opts f = { .timeout = UINT32_MAX };

	return file_opts(run->cmd, run->path, run->text, run_opt_table,
			 &f, &run->o, &run->given, &run->opts_line);
}

/* The command line, the file and its options.  0, a status or OPTS_HELP. */
static int run_parse(int argc, char **argv, struct run *run)
{
	struct args a;
	int ret;

	ret = parse_file(run->cmd, argc, argv, run_opt_table, &run->o, &a,
			 &run->text, &run->len);
	if (ret)
		return ret;
	run->given = a.given;
	run->path = a.pos[0];
	if (!is_image(run->text, run->len))
		ret = file_options(run);
	return ret;
}

/*
 * Build the program for the core's reserved slices, and for a program
 * across cores open their cores; frees the text.
 */
static int run_build(struct run *run)
{
	struct build_opts bo = {
		.info = ncsync_get_info(run->dev),
		.lowering = run->o.lowering,
		.lowering_given = run->given & (1U << RO_LOWERING),
	};
	struct ncsync_asm_part parts[NCSYNC_MAX_LNC];
	unsigned int n;
	int ret;

	ret = build_parts(run->path, run->text, run->len, &bo, parts, &n);
	free(run->text);
	run->text = NULL;
	run->watchdog = run->o.watchdog ? run->o.watchdog :
			bo.info->watchdog_ms;
	if (!ret && !n)
		run->prog = parts[0].prog;
	else if (!ret)
		ret = cores_open(run, parts, n);
	return ret;
}

/*
 * Warn when what @prog's lowering owns on @dev (core @core) is off the
 * value it must have at the start: the barrier would hang or release
 * early (ncsync_program_idle_check()).  Only a warning: the run goes on.
 */
static void warn_idle(const struct run *run, const struct ncsync_program *prog,
		      const struct ncsync_dev *dev, unsigned int core)
{
	struct ncsync_idle idle[8];
	int n, i;

	n = ncsync_program_idle_check(prog, dev, idle, ARRAY_SIZE(idle));
	for (i = 0; i < n && i < (int)ARRAY_SIZE(idle); i++)
		fprintf(stderr, "ncsync: warning: %s: core %u: %s[%u] = %d, %s, is not %s when the program starts: its barrier may hang or release early\n",
			run->path, core,
			idle[i].bank == NCSYNC_BANK_SEM ? "sem" : "ev",
			idle[i].index, idle[i].value, idle[i].owner,
			idle[i].idle);
	if (n > (int)ARRAY_SIZE(idle))
		fprintf(stderr, "ncsync: warning: %s: core %u: %d more\n",
			run->path, core, n - (int)ARRAY_SIZE(idle));
	if (n > 0)
		fprintf(stderr, "ncsync: warning: %s: reset the core first: ncsync -c %u reset\n",
			run->path, core);
}

static int run_submit(struct run *run)
{
	struct ncsync_submit_error serr;
	char what[64];
	uint32_t flags;
	unsigned int i;
	int ret;

	flags = (run->o.strict ? NCSYNC_SUBMIT_F_STRICT : 0) |
		(run->o.conformance ? NCSYNC_SUBMIT_F_CONFORM : 0);
	if (!run->nparts)
		warn_idle(run, run->prog, run->dev, opt_core);
	for (i = 0; i < run->nparts; i++)
		warn_idle(run, run->parts[i].prog, run->parts[i].dev,
			  run->parts[i].core);
	if (run->nparts)
		return cores_submit(run, flags);
	ret = ncsync_program_submit(run->dev, run->prog, flags,
				    run->o.watchdog, &run->id, &serr);
	if (!ret)
		return 0;
	if (ret == -EINVAL && serr.reason) {
		refused_record(what, sizeof(what), run->prog, &serr);
		return fail_msg("%s: %s: %s", run->path, what,
				ncsync_reason_name(serr.reason));
	}
	return fail_err(ret, "%s: submit", run->path);
}

static volatile sig_atomic_t run_interrupted;

static void run_signal(int sig)
{
	run_interrupted = 1;
}

/*
 * Wait for the end, or cancel at --timeout or an interrupt, and read the
 * final status.  0 or EXIT_FAIL.
 */
static int run_wait(struct run *run, int64_t t0)
{
	struct ncsync_dev *dev = run->nparts ? run->parts[run->sub].dev :
				 run->dev;
	struct timespec deadline;
	uint32_t state = 0;
	int wret, ret;

	if (run->o.timeout != UINT32_MAX)
		ncsync_deadline_after(&deadline, run->o.timeout * 1000000LL);
	do {
		wret = ncsync_program_wait(dev, run->id,
					   run->o.timeout != UINT32_MAX ?
					   &deadline : NULL, &state);
	} while (wret == -EINTR && !run_interrupted);
	if (wret == -ETIMEDOUT || wret == -EINTR) {
		run->why = wret == -EINTR ? "interrupted" :
			   "cancelled at --timeout";
		/* What it was doing, before the cancel stops it. */
		if (run->nparts)
			cores_status(run, true);
		else
			run->have_live = !ncsync_program_status(dev, run->id,
								false,
								&run->live,
								run->live_sems);
		ncsync_program_cancel(dev, run->id);
		do {
			wret = ncsync_program_wait(dev, run->id, NULL, &state);
		} while (wret == -EINTR);
	}
	run->elapsed_ns = now_ns() - t0;
	if (wret)
		return fail_err(wret, "%s: wait for program %u", run->path,
				run->id);
	if (run->nparts)
		return cores_status(run, false);
	ret = ncsync_program_status(dev, run->id, true, &run->st, run->sems);
	if (ret)
		return fail_err(ret, "%s: status of program %u", run->path,
				run->id);
	return 0;
}

/* Draw the timeline of the run; 0 or EXIT_FAIL. */
static int run_timeline(struct run *run)
{
	struct tl_prog tp;
	char title[256];
	int ret;

	ret = timeline_stop(run->tl);
	if (ret)
		return ret;
	if (run->nparts) {
		snprintf(title, sizeof(title),
			 "%s: logical core %u program %u: %s",
			 run->path, run->lc.index, run->id,
			 ncsync_prog_state_name(run->st.state));
		ret = cores_timeline(run, title);
		if (!ret)
			run->timeline = run->o.timeline;
		return ret;
	}
	snprintf(title, sizeof(title), "%s: core %u program %u: %s",
		 run->path, opt_core, run->id,
		 ncsync_prog_state_name(run->st.state));
	tp = (struct tl_prog){
		.core = opt_core, .id = run->id,
		.engine_mask = ncsync_program_engines(run->prog),
		.prog = run->prog,
	};
	ret = timeline_write_svg(run->tl, &tp, 1, false, title,
				 run->o.timeline);
	if (!ret)
		run->timeline = run->o.timeline;
	return ret;
}

/* The report, and the exit status: 0 when the program ended done or halted. */
static int run_report(struct run *run)
{
	const struct ncsync_prog_status *st = &run->st;
	int ret = 0;

	if (run->tl)
		ret = run_timeline(run);
	if (run->nparts) {
		cores_report(run);
	} else if (run->have_live) {
		/* The engines as the cancel found them; the final state. */
		run->live.state = st->state;
		run_core_report(run, &run->live, run->live_sems);
	} else {
		run_core_report(run, st, run->sems);
	}
	if (ret)
		return ret;
	if (st->state == NCSYNC_PROG_DONE || st->state == NCSYNC_PROG_HALTED)
		return EXIT_OK;
	fflush(stdout);
	return fail_msg("%s: program %u %s", run->path, run->id,
			st->state == NCSYNC_PROG_TIMED_OUT ?
			"timed out (watchdog)" :
			run->why ? run->why : ncsync_prog_state_name(st->state));
}

/*
 * --timeline PATH: refuse a PATH that cannot be written before anything
 * runs, then start the trace; 0 or EXIT_FAIL.
 */
static int run_timeline_start(struct run *run)
{
	int ret = timeline_probe(run->o.timeline, &run->timeline_created);
	unsigned int cores[NCSYNC_MAX_LNC], i;

	if (ret)
		return fail_err(ret, "run: --timeline %s", run->o.timeline);
	cores[0] = opt_core;
	for (i = 0; i < run->nparts; i++)
		cores[i] = run->parts[i].core;
	ret = timeline_start(cores, run->nparts ? run->nparts : 1, &run->tl);
	if (ret && run->timeline_created)
		unlink(run->o.timeline);
	return ret;
}

/* Submit the built program, wait for it and report. */
static int run_execute(struct run *run)
{
	struct sigaction sa = { .sa_handler = run_signal }, old_int, old_term;
	int64_t t0;
	int ret;

	if (run->o.timeline) {
		ret = run_timeline_start(run);
		if (ret)
			return ret;
	}
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	t0 = now_ns();
	ret = run_submit(run);
	if (!ret)
		ret = run_wait(run, t0);
	if (!ret)
		ret = run_report(run);
	if (run->tl) {
		timeline_stop(run->tl);
		timeline_free(run->tl);
		/* Not left behind empty, by the probe, when not drawn. */
		if (run->timeline_created && !run->timeline)
			unlink(run->o.timeline);
	}
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	return ret;
}

/* run --check: the checker first, on the program of one core or its parts. */
static int run_check(const struct run *run)
{
	struct ncsync_asm_part parts[NCSYNC_MAX_LNC];
	unsigned int i;

	parts[0] = (struct ncsync_asm_part){ .core = 0, .prog = run->prog };
	for (i = 0; i < run->nparts; i++)
		parts[i] = (struct ncsync_asm_part){
			.core = run->parts[i].pos, .prog = run->parts[i].prog,
		};
	return check_before_run(run->path, parts, run->nparts);
}

int cmd_run(const struct cmd *c, int argc, char **argv)
{
	struct run *run = calloc(1, sizeof(*run));
	int ret;

	if (!run)
		return fail_err(ENOMEM, "run");
	run->cmd = c;
	run->o.timeout = UINT32_MAX;
	ret = run_parse(argc, argv, run);
	if (!ret)
		ret = open_core(true, &run->dev);
	if (!ret) {
		ret = run_build(run);
		if (!ret && run->o.check)
			ret = run_check(run);
		if (!ret)
			ret = run_execute(run);
		ncsync_program_free(run->prog);
		cores_close(run);
		ncsync_close(run->dev);
	}
	free(run->text);
	free(run->opts_line);
	free(run);
	return OPTS_EXIT(ret);
}
