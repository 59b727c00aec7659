// SPDX-License-Identifier: GPL-2.0
/*
 * ncsync(1): ncsync top [--once] [--interval MS] [--iterations N]: a live
 * view of every core of the logical core of core -c: its programs and
 * their engines (NCSYNC_CMD_GET_CORE), the non-zero semaphores and the set
 * events.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "cmds.h"
#include "opts.h"
#include "print.h"

static volatile sig_atomic_t top_stop;

static void top_signal(int sig)
{
	top_stop = 1;
}

struct top_opts {
	bool once;
	uint32_t interval;
	uint32_t iterations;
};

static const struct opt top_opt_table[] = {
	{ "once", '1', OPT_FLAG, OPT_FIELD(struct top_opts, once) },
	{ "interval", 'i', OPT_U32, "10-3600000 ms",
	  OPT_FIELD(struct top_opts, interval), .min = 10, .max = MS_MAX },
	{ "iterations", 'n', OPT_U32, OPT_FIELD(struct top_opts, iterations),
	  .min = 1, .max = UINT32_MAX },
	{ /* sentinel */ }
};

/* One frame of top: every core of the logical core, in turn. */
struct top_frame {
	const struct top_opts *o;
	const struct lcore *lc;
	struct ncsync_dev **devs;
	uint32_t frame;
	bool tty;
	char clock[16];
	struct nl_core *nc;
	struct banks b;
	struct ncsync_sem_value nz[NCSYNC_NUM_SEMS];
};

/* The frame's first line. */
static void print_top_head(struct top_frame *f)
{
	const char *quit = f->o->iterations == 1 ? "" : " (ctrl-c quits)";
	time_t t = time(NULL);

	strftime(f->clock, sizeof(f->clock), "%H:%M:%S", localtime(&t));
	if (f->tty)
		printf("\033[H\033[2J");
	else if (f->frame)
		putchar('\n');
	if (f->lc->lnc > 1)
		printf("ncsync top - logical core %u: cores %u-%u - %s%s\n",
		       f->lc->index, f->lc->first,
		       f->lc->first + f->lc->lnc - 1, f->clock, quit);
}

/* One core of the frame, read into f->nc and f->b. */
static void print_top(struct top_frame *f, unsigned int core)
{
	unsigned int n = nonzero_sems(&f->b, f->nz);
	unsigned int nev = count_events(f->b.events);
	const char *quit = f->o->iterations == 1 ? "" : " (ctrl-c quits)";
	const char *in = f->lc->lnc > 1 ? "  " : "";
	char ind2[8];

	snprintf(ind2, sizeof(ind2), "%s  ", in);
	if (f->lc->lnc > 1)
		printf("core %u - seq %llu\n", core,
		       (unsigned long long)f->nc->seq);
	else
		printf("ncsync top - core %u - %s - seq %llu%s\n", core,
		       f->clock, (unsigned long long)f->nc->seq, quit);
	printf("%sprograms running: %u\n", in, f->nc->nprogs);
	if (f->nc->nprogs)
		print_progs(f->nc, ind2);
	printf("%ssemaphores: %u non-zero\n", in, n);
	if (n)
		print_sem_list(stdout, ind2, f->nz, n);
	printf("%sevents set: %u\n", in, nev);
	if (nev)
		print_event_list(ind2, f->b.events);
}

static void json_top(const struct top_frame *f, unsigned int core)
{
	j_obj(NULL);
	j_uint("core", core);
	j_uint("seq", f->nc->seq);
	json_progs(f->nc);
	json_banks(&f->b, false);
	j_end();
}

/* One frame; 0 or EXIT_FAIL. */
static int top_frame(struct top_frame *f)
{
	unsigned int k;
	int ret = 0;

	if (opt_json && f->lc->lnc > 1) {
		j_obj(NULL);
		j_uint("logical_core", f->lc->index);
		j_uint("lnc", f->lc->lnc);
		j_arr("cores");
	} else if (!opt_json) {
		print_top_head(f);
	}
	for (k = 0; k < f->lc->lnc && !ret; k++) {
		nl_core_release(f->nc);
		ret = nl_get_core(f->lc->first + k, f->nc, false);
		if (ret)
			break;
		read_banks(f->devs[k], &f->b);
		if (opt_json)
			json_top(f, f->lc->first + k);
		else
			print_top(f, f->lc->first + k);
	}
	if (opt_json && f->lc->lnc > 1) {
		j_end();
		j_end();
	}
	if (opt_json)
		j_done();
	fflush(stdout);
	return ret;
}

/* Frames until --iterations, or a signal; 0 or EXIT_FAIL. */
static int top_loop(struct top_frame *f)
{
	struct timespec ts = {
		.tv_sec = f->o->interval / 1000,
		.tv_nsec = f->o->interval % 1000 * 1000000L,
	};
	int ret = 0;

	for (f->frame = 0; !top_stop; f->frame++) {
		if (f->o->iterations && f->frame >= f->o->iterations)
			break;
		if (f->frame)
			nanosleep(&ts, NULL);
		if (top_stop)
			break;
		ret = top_frame(f);
		if (ret)
			break;
	}
	return ret;
}

/* Open every core of @lc into @devs; 0, or EXIT_FAIL with none left open. */
static int top_open(const struct lcore *lc, struct ncsync_dev **devs)
{
	unsigned int k;
	int ret;

	for (k = 0; k < lc->lnc; k++) {
		ret = open_core_at(lc->first + k, false, &devs[k]);
		if (ret) {
			while (k--)
				ncsync_close(devs[k]);
			return ret;
		}
	}
	return 0;
}

static int top_run(const struct top_opts *o, const struct lcore *lc,
		   struct ncsync_dev **devs)
{
	struct top_frame *f;
	int ret;

	f = calloc(1, sizeof(*f));
	if (f)
		f->nc = calloc(1, sizeof(*f->nc));
	if (!f || !f->nc) {
		free(f);
		return fail_err(ENOMEM, "top");
	}
	f->o = o;
	f->lc = lc;
	f->devs = devs;
	f->tty = isatty(STDOUT_FILENO) && !opt_json;
	ret = top_loop(f);
	nl_core_release(f->nc);
	free(f->nc);
	free(f);
	return ret;
}

int cmd_top(const struct cmd *c, int argc, char **argv)
{
	struct top_opts o = { .interval = 1000 };
	struct sigaction sa = { .sa_handler = top_signal };
	struct ncsync_dev **devs;
	struct lcore lc;
	unsigned int k;
	int ret;

	ret = parse_none(c, argc, argv, top_opt_table, &o);
	if (ret)
		return OPTS_EXIT(ret);
	if (o.once)
		o.iterations = 1;
	ret = logical_core_of(opt_core, &lc);
	if (ret)
		return ret;
	devs = calloc(lc.lnc, sizeof(*devs));
	if (!devs)
		return fail_err(ENOMEM, "top");
	ret = top_open(&lc, devs);
	if (!ret) {
		sigaction(SIGINT, &sa, NULL);
		sigaction(SIGTERM, &sa, NULL);
		ret = top_run(&o, &lc, devs);
		for (k = 0; k < lc.lnc; k++)
			ncsync_close(devs[k]);
	}
	free(devs);
	return ret;
}
