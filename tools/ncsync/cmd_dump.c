// SPDX-License-Identifier: GPL-2.0
/*
 * ncsync(1): ncsync dump [--all]: the banks of every core of the logical
 * core of core -c (one core when lnc is 1), from libncsync's read-only
 * mapping, its counters, and its programs and their engines from
 * NCSYNC_CMD_GET_CORE (and the NCSYNC_CMD_GET_PROGRAMS dump when they do
 * not all fit its reply).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cmds.h"
#include "opts.h"
#include "print.h"

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

int cmd_dump(const struct cmd *c, int argc, char **argv)
{
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
