// SPDX-License-Identifier: GPL-2.0
/*
 * ncsync(1): views of a core.  The banks come from libncsync's read-only
 * mapping, the programs and their engines from NCSYNC_CMD_GET_CORE (and
 * the NCSYNC_CMD_GET_PROGRAMS dump when they do not all fit its reply).
 * Both show every core of the logical core of core -c (module parameter
 * lnc): one core when lnc is 1.
 *
 *   ncsync dump [--all]
 *   ncsync top [--once] [--interval MS] [--iterations N]
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tool.h"

struct banks {
	int32_t sems[NCSYNC_NUM_SEMS];
	bool events[NCSYNC_NUM_EVENTS];
};

static void read_banks(struct ncsync_dev *dev, struct banks *b)
{
	unsigned int i;

	for (i = 0; i < NCSYNC_NUM_SEMS; i++)
		b->sems[i] = ncsync_sem_read(dev, i);
	for (i = 0; i < NCSYNC_NUM_EVENTS; i++)
		b->events[i] = ncsync_event_read(dev, i);
}

/* "[3]=1 [240]=16 ..." wrapped at 78 columns. */
void print_sem_list(FILE *f, const char *indent,
		    const struct ncsync_sem_value *sems, unsigned int n)
{
	unsigned int i, col = 0;
	char item[32];

	if (!n) {
		fprintf(f, "%snone\n", indent);
		return;
	}
	for (i = 0; i < n; i++) {
		int len = snprintf(item, sizeof(item), "[%u]=%d",
				   sems[i].index, sems[i].value);

		if (col && col + 1 + len > 78 - strlen(indent)) {
			fputc('\n', f);
			col = 0;
		}
		fprintf(f, "%s%s", col ? " " : indent, item);
		col += len + (col ? 1 : 0);
	}
	fputc('\n', f);
}

static unsigned int nonzero_sems(const struct banks *b,
				 struct ncsync_sem_value *out)
{
	unsigned int i, n = 0;

	for (i = 0; i < NCSYNC_NUM_SEMS; i++)
		if (b->sems[i]) {
			out[n].index = i;
			out[n++].value = b->sems[i];
		}
	return n;
}

/* Set events as "3 7-9 241" wrapped at 78 columns. */
static void print_event_list(const char *indent, const bool *ev)
{
	unsigned int i = 0, col = 0, n = 0, first;
	char item[16];

	while (i < NCSYNC_NUM_EVENTS) {
		if (!ev[i]) {
			i++;
			continue;
		}
		first = i;
		while (i + 1 < NCSYNC_NUM_EVENTS && ev[i + 1])
			i++;
		if (i == first)
			snprintf(item, sizeof(item), "%u", first);
		else
			snprintf(item, sizeof(item), "%u-%u", first, i);
		if (col && col + 1 + strlen(item) > 78 - strlen(indent)) {
			putchar('\n');
			col = 0;
		}
		printf("%s%s", col ? " " : indent, item);
		col += strlen(item) + (col ? 1 : 0);
		n++;
		i++;
	}
	printf("%s\n", n ? "" : "none");
}

static unsigned int count_events(const bool *ev)
{
	unsigned int i, n = 0;

	for (i = 0; i < NCSYNC_NUM_EVENTS; i++)
		n += ev[i];
	return n;
}

static void print_progs(const struct nl_core *nc, const char *indent)
{
	unsigned int i;

	if (!nc->nprogs) {
		printf("%snone\n", indent);
		return;
	}
	for (i = 0; i < nc->nprogs; i++)
		print_nl_prog(&nc->progs[i], indent);
	if (nc->progs_truncated)
		printf("%s... (more programs not shown)\n", indent);
}

/* "sems": each {index, value}; the non-zero ones, or every one with @all. */
static void json_sems(const int32_t *sems, bool all)
{
	unsigned int i;

	j_arr("sems");
	for (i = 0; i < NCSYNC_NUM_SEMS; i++) {
		if (!all && !sems[i])
			continue;
		j_obj(NULL);
		j_uint("index", i);
		j_int("value", sems[i]);
		j_end();
	}
	j_end();
}

/* The non-zero semaphores of @sems as "sems" (dump, check's states). */
void json_nonzero_sems(const int32_t *sems)
{
	json_sems(sems, false);
}

/* "events": each {index, set}; the set ones, or every one with @all. */
static void json_events(const bool *events, bool all)
{
	unsigned int i;

	j_arr("events");
	for (i = 0; i < NCSYNC_NUM_EVENTS; i++) {
		if (!all && !events[i])
			continue;
		j_obj(NULL);
		j_uint("index", i);
		j_bool("set", events[i]);
		j_end();
	}
	j_end();
}

static void json_banks(const struct banks *b, bool all)
{
	json_sems(b->sems, all);
	json_events(b->events, all);
}

static void json_progs(const struct nl_core *nc)
{
	unsigned int i;

	j_arr("programs");
	for (i = 0; i < nc->nprogs; i++)
		json_nl_prog(NULL, &nc->progs[i]);
	j_end();
}

/* dump */

struct dump_opts {
	bool all;
};

static const struct opt dump_opt_table[] = {
	{ "all", 'a', OPT_FLAG, OPT_FIELD(struct dump_opts, all) },
	{ /* sentinel */ }
};

/* What dump shows of one core. */
struct dump {
	unsigned int core;
	struct ncsync_stats st;
	struct banks b;
	struct nl_core *nc;
	bool have_nl;
};

static void json_dump(const struct dump *d, bool all)
{
	j_obj(NULL);
	j_uint("core", d->core);
	j_uint("seq", d->st.seq);
	j_obj("stats");
	json_stats_counts(&d->st);
	j_end();
	if (d->have_nl)
		j_bool("notify", d->nc->notify);
	json_banks(&d->b, all);
	if (d->have_nl)
		json_progs(d->nc);
	j_end();
}

/* Every semaphore, 8 a line. */
static void print_all_sems(const struct banks *b)
{
	unsigned int i;

	for (i = 0; i < NCSYNC_NUM_SEMS; i++) {
		if (i % 8 == 0)
			printf("  %3u:", i);
		printf(" %11d", b->sems[i]);
		if (i % 8 == 7)
			putchar('\n');
	}
}

/* Every event, 64 a line in groups of 8. */
static void print_all_events(const struct banks *b)
{
	unsigned int i;

	for (i = 0; i < NCSYNC_NUM_EVENTS; i++) {
		if (i % 64 == 0)
			printf("  %3u:", i);
		if (i % 8 == 0)
			putchar(' ');
		putchar(b->events[i] ? '1' : '0');
		if (i % 64 == 63)
			putchar('\n');
	}
}

static void print_dump(const struct dump *d, bool all)
{
	struct ncsync_sem_value nz[NCSYNC_NUM_SEMS];
	unsigned int n;

	printf("core %u: seq %llu, resets %llu", d->core,
	       (unsigned long long)d->st.seq, (unsigned long long)d->st.resets);
	if (d->have_nl)
		printf(", event notifications %s",
		       d->nc->notify ? "on" : "off");
	printf("\n  ");
	print_fault_counts(&d->st);
	putchar('\n');
	n = nonzero_sems(&d->b, nz);
	printf("semaphores: %u non-zero of %u\n", n, NCSYNC_NUM_SEMS);
	if (all)
		print_all_sems(&d->b);
	else if (n)
		print_sem_list(stdout, "  ", nz, n);
	printf("events: %u set of %u\n", count_events(d->b.events),
	       NCSYNC_NUM_EVENTS);
	if (all)
		print_all_events(&d->b);
	else if (count_events(d->b.events))
		print_event_list("  ", d->b.events);
	if (d->have_nl) {
		printf("programs running: %u\n", d->nc->nprogs);
		if (d->nc->nprogs)
			print_progs(d->nc, "  ");
	}
}

/* The counters and banks of core d->core; 0 or EXIT_FAIL. */
static int dump_read(struct dump *d)
{
	struct ncsync_dev *dev;
	int ret;

	ret = open_core_at(d->core, false, &dev);
	if (ret)
		return ret;
	ret = ncsync_stats(dev, &d->st);
	if (ret) {
		ncsync_close(dev);
		return fail_err(ret, "stats of core %u", d->core);
	}
	read_banks(dev, &d->b);
	ncsync_close(dev);
	return 0;
}

/* Show core d->core, read; EXIT_OK, or EXIT_FAIL without netlink. */
static int dump_show(struct dump *d, struct nl_core *nc, bool all)
{
	memset(nc, 0, sizeof(*nc));
	d->nc = nc;
	/* The engines need netlink; the banks are shown without it. */
	d->have_nl = !nl_get_core(d->core, nc, false);
	if (opt_json)
		json_dump(d, all);
	else
		print_dump(d, all);
	nl_core_release(nc);
	return d->have_nl ? EXIT_OK : EXIT_FAIL;
}

/*
 * Every core of the logical core @lc: all banks are read before anything
 * is shown, so a core that cannot be opened leaves no partial output.
 * Return the worst status.
 */
static int dump_cores(struct dump *d, struct nl_core *nc,
		      const struct lcore *lc, bool all)
{
	unsigned int k;
	int ret = EXIT_OK, r;

	for (k = 0; k < lc->lnc; k++) {
		d[k].core = lc->first + k;
		ret = dump_read(&d[k]);
		if (ret)
			return ret;
	}
	if (opt_json && lc->lnc > 1) {
		j_obj(NULL);
		j_uint("logical_core", lc->index);
		j_uint("lnc", lc->lnc);
		j_arr("cores");
	} else if (lc->lnc > 1) {
		printf("logical core %u: cores %u-%u (lnc %u)\n", lc->index,
		       lc->first, lc->first + lc->lnc - 1, lc->lnc);
	}
	for (k = 0; k < lc->lnc; k++) {
		if (k && !opt_json)
			putchar('\n');
		r = dump_show(&d[k], nc, all);
		if (r > ret)
			ret = r;
	}
	if (opt_json && lc->lnc > 1) {
		j_end();
		j_end();
	}
	if (opt_json)
		j_done();
	return ret;
}

int cmd_dump(int argc, char **argv)
{
	const struct cmd *c = find_cmd("dump");
	struct dump_opts o = { false };
	struct nl_core *nc;
	struct lcore lc;
	struct dump *d;
	int ret;

	ret = parse_none(c, argc, argv, dump_opt_table, &o);
	if (ret)
		return OPTS_EXIT(ret);
	ret = logical_core_of(opt_core, &lc);
	if (ret)
		return ret;
	d = calloc(lc.lnc, sizeof(*d));
	nc = calloc(1, sizeof(*nc));
	if (!d || !nc)
		ret = fail_err(ENOMEM, "dump");
	else
		ret = dump_cores(d, nc, &lc, o.all);
	free(nc);
	free(d);
	return ret;
}

/* top */

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

int cmd_top(int argc, char **argv)
{
	const struct cmd *c = find_cmd("top");
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
