// SPDX-License-Identifier: GPL-2.0
/*
 * ncsync(1): views of a core.  The banks come from libncsync's read-only
 * mapping, the programs and their engines from NCSYNC_CMD_GET_CORE (and
 * the NCSYNC_CMD_GET_PROGRAMS dump when they do not all fit its reply).
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

/* What dump shows. */
struct dump {
	struct ncsync_stats st;
	struct banks b;
	struct nl_core *nc;
	bool have_nl;
};

static void json_dump(const struct dump *d, bool all)
{
	j_obj(NULL);
	j_uint("core", opt_core);
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
	j_done();
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

	printf("core %u: seq %llu, resets %llu", opt_core,
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

/* The counters and banks of the core; 0 or EXIT_FAIL. */
static int dump_read(struct dump *d)
{
	struct ncsync_dev *dev;
	int ret;

	ret = open_core(false, &dev);
	if (ret)
		return ret;
	ret = ncsync_stats(dev, &d->st);
	if (ret) {
		ncsync_close(dev);
		return fail_err(ret, "stats of core %u", opt_core);
	}
	read_banks(dev, &d->b);
	ncsync_close(dev);
	return 0;
}

int cmd_dump(int argc, char **argv)
{
	const struct cmd *c = find_cmd("dump");
	struct dump_opts o = { false };
	struct dump *d;
	int ret;

	ret = parse_none(c, argc, argv, dump_opt_table, &o);
	if (ret)
		return OPTS_EXIT(ret);
	d = calloc(1, sizeof(*d));
	if (!d)
		return fail_err(ENOMEM, "dump");
	ret = dump_read(d);
	if (!ret)
		d->nc = calloc(1, sizeof(*d->nc));
	if (!ret && !d->nc)
		ret = fail_err(ENOMEM, "dump");
	if (!ret) {
		/* The engines need netlink; the banks are printed without it. */
		d->have_nl = !nl_get_core(opt_core, d->nc, false);
		if (opt_json)
			json_dump(d, o.all);
		else
			print_dump(d, o.all);
		nl_core_release(d->nc);
		ret = d->have_nl ? EXIT_OK : EXIT_FAIL;
	}
	free(d->nc);
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

/* One frame of top. */
struct top_frame {
	const struct top_opts *o;
	uint32_t frame;
	bool tty;
	struct nl_core *nc;
	struct banks b;
	struct ncsync_sem_value nz[NCSYNC_NUM_SEMS];
};

static void print_top(struct top_frame *f)
{
	unsigned int n = nonzero_sems(&f->b, f->nz);
	unsigned int nev = count_events(f->b.events);
	char clock[16];
	time_t t;

	t = time(NULL);
	strftime(clock, sizeof(clock), "%H:%M:%S", localtime(&t));
	if (f->tty)
		printf("\033[H\033[2J");
	else if (f->frame)
		putchar('\n');
	printf("ncsync top - core %u - %s - seq %llu%s\n", opt_core, clock,
	       (unsigned long long)f->nc->seq,
	       f->o->iterations == 1 ? "" : " (ctrl-c quits)");
	printf("programs running: %u\n", f->nc->nprogs);
	if (f->nc->nprogs)
		print_progs(f->nc, "  ");
	printf("semaphores: %u non-zero\n", n);
	if (n)
		print_sem_list(stdout, "  ", f->nz, n);
	printf("events set: %u\n", nev);
	if (nev)
		print_event_list("  ", f->b.events);
	fflush(stdout);
}

static void json_top(const struct top_frame *f)
{
	j_obj(NULL);
	j_uint("core", opt_core);
	j_uint("seq", f->nc->seq);
	json_progs(f->nc);
	json_banks(&f->b, false);
	j_end();
	j_done();
}

/* Frames until --iterations, or a signal; 0 or EXIT_FAIL. */
static int top_loop(struct ncsync_dev *dev, struct top_frame *f)
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
		nl_core_release(f->nc);
		ret = nl_get_core(opt_core, f->nc, false);
		if (ret)
			break;
		read_banks(dev, &f->b);
		if (opt_json)
			json_top(f);
		else
			print_top(f);
	}
	return ret;
}

int cmd_top(int argc, char **argv)
{
	const struct cmd *c = find_cmd("top");
	struct top_opts o = { .interval = 1000 };
	struct sigaction sa = { .sa_handler = top_signal };
	struct top_frame *f;
	struct ncsync_dev *dev;
	int ret;

	ret = parse_none(c, argc, argv, top_opt_table, &o);
	if (ret)
		return OPTS_EXIT(ret);
	if (o.once)
		o.iterations = 1;
	ret = open_core(false, &dev);
	if (ret)
		return ret;
	f = calloc(1, sizeof(*f));
	if (f)
		f->nc = calloc(1, sizeof(*f->nc));
	if (!f || !f->nc) {
		free(f);
		ncsync_close(dev);
		return fail_err(ENOMEM, "top");
	}
	f->o = &o;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	f->tty = isatty(STDOUT_FILENO) && !opt_json;
	ret = top_loop(dev, f);
	nl_core_release(f->nc);
	free(f->nc);
	free(f);
	ncsync_close(dev);
	return ret;
}
