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

static void json_banks(const struct banks *b, bool all)
{
	unsigned int i;

	if (all) {
		j_arr("sems");
		for (i = 0; i < NCSYNC_NUM_SEMS; i++)
			j_int(NULL, b->sems[i]);
		j_end();
		j_arr("events");
		for (i = 0; i < NCSYNC_NUM_EVENTS; i++)
			j_int(NULL, b->events[i]);
		j_end();
		return;
	}
	j_arr("sems");
	for (i = 0; i < NCSYNC_NUM_SEMS; i++) {
		if (!b->sems[i])
			continue;
		j_obj(NULL);
		j_uint("index", i);
		j_int("value", b->sems[i]);
		j_end();
	}
	j_end();
	j_arr("events");
	for (i = 0; i < NCSYNC_NUM_EVENTS; i++)
		if (b->events[i])
			j_uint(NULL, i);
	j_end();
}

static void json_progs(const struct nl_core *nc)
{
	unsigned int i;

	j_arr("programs");
	for (i = 0; i < nc->nprogs; i++)
		json_nl_prog(NULL, &nc->progs[i]);
	j_end();
}

static int dump_opt(int id, const char *arg, void *ctx)
{
	*(bool *)ctx = true;
	return 0;
}

int cmd_dump(int argc, char **argv)
{
	static const struct opt opts[] = {
		{ "all", 'a', false, 0 },
		{ NULL },
	};
	const struct cmd *c = find_cmd("dump");
	struct ncsync_sem_value nz[NCSYNC_NUM_SEMS];
	struct ncsync_stats st;
	struct ncsync_dev *dev;
	struct nl_core *nc;
	struct banks b;
	unsigned int i, n;
	bool all = false, have_nl;
	char **pos;
	int npos, ret;

	ret = parse_opts(c, argc, argv, opts, dump_opt, &all, &pos, &npos);
	if (ret)
		return OPTS_EXIT(ret);
	if (npos)
		return usage_err(c, "unexpected argument '%s'", pos[0]);
	ret = open_core(false, &dev);
	if (ret)
		return ret;
	ret = ncsync_stats(dev, &st);
	if (ret) {
		ncsync_close(dev);
		return fail_err(ret, "stats of core %u", opt_core);
	}
	read_banks(dev, &b);
	ncsync_close(dev);
	nc = calloc(1, sizeof(*nc));
	if (!nc)
		return fail_err(ENOMEM, "dump");
	/* The engines need netlink; the banks are printed without it. */
	have_nl = !nl_get_core(opt_core, nc, false);

	if (opt_json) {
		j_obj(NULL);
		j_uint("core", opt_core);
		j_uint("seq", st.seq);
		j_obj("stats");
		j_uint("resets", st.resets);
		j_uint("event_set_while_set", st.event_set_while_set);
		j_uint("event_clear_while_clear", st.event_clear_while_clear);
		j_uint("sem_overflows", st.sem_overflows);
		j_uint("notify_drops", st.notify_drops);
		j_end();
		if (have_nl)
			j_bool("notify", nc->notify);
		json_banks(&b, all);
		if (have_nl)
			json_progs(nc);
		j_end();
		j_done();
		nl_core_release(nc);
		free(nc);
		return have_nl ? EXIT_OK : EXIT_FAIL;
	}

	printf("core %u: seq %llu, resets %llu", opt_core,
	       (unsigned long long)st.seq, (unsigned long long)st.resets);
	if (have_nl)
		printf(", event notifications %s", nc->notify ? "on" : "off");
	printf("\n  set while set %llu, clear while clear %llu, overflows %llu, notify drops %llu\n",
	       (unsigned long long)st.event_set_while_set,
	       (unsigned long long)st.event_clear_while_clear,
	       (unsigned long long)st.sem_overflows,
	       (unsigned long long)st.notify_drops);
	n = nonzero_sems(&b, nz);
	printf("semaphores: %u non-zero of %u\n", n, NCSYNC_NUM_SEMS);
	if (all) {
		for (i = 0; i < NCSYNC_NUM_SEMS; i++) {
			if (i % 8 == 0)
				printf("  %3u:", i);
			printf(" %11d", b.sems[i]);
			if (i % 8 == 7)
				putchar('\n');
		}
	} else if (n) {
		print_sem_list(stdout, "  ", nz, n);
	}
	printf("events: %u set of %u\n", count_events(b.events),
	       NCSYNC_NUM_EVENTS);
	if (all) {
		for (i = 0; i < NCSYNC_NUM_EVENTS; i++) {
			if (i % 64 == 0)
				printf("  %3u:", i);
			if (i % 8 == 0)
				putchar(' ');
			putchar(b.events[i] ? '1' : '0');
			if (i % 64 == 63)
				putchar('\n');
		}
	} else if (count_events(b.events)) {
		print_event_list("  ", b.events);
	}
	if (have_nl) {
		printf("programs running: %u\n", nc->nprogs);
		if (nc->nprogs)
			print_progs(nc, "  ");
	}
	nl_core_release(nc);
	free(nc);
	return have_nl ? EXIT_OK : EXIT_FAIL;
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

static int top_opt(int id, const char *arg, void *ctx)
{
	const struct cmd *c = find_cmd("top");
	struct top_opts *o = ctx;

	switch (id) {
	case 0:
		o->once = true;
		break;
	case 1:
		if (!parse_ms(arg, &o->interval) || o->interval < 10)
			return usage_err(c, "invalid --interval '%s' (10-3600000 ms)",
					 arg);
		break;
	case 2:
		if (!parse_u32(arg, UINT32_MAX, &o->iterations) ||
		    !o->iterations)
			return usage_err(c, "invalid --iterations '%s'", arg);
		break;
	}
	return 0;
}

int cmd_top(int argc, char **argv)
{
	static const struct opt opts[] = {
		{ "once", '1', false, 0 },
		{ "interval", 'i', true, 1 },
		{ "iterations", 'n', true, 2 },
		{ NULL },
	};
	const struct cmd *c = find_cmd("top");
	struct top_opts o = { .interval = 1000 };
	struct sigaction sa = { .sa_handler = top_signal };
	struct ncsync_sem_value nz[NCSYNC_NUM_SEMS];
	struct ncsync_dev *dev;
	struct nl_core *nc;
	struct banks b;
	uint32_t frame;
	bool tty;
	char **pos;
	int npos, ret;

	ret = parse_opts(c, argc, argv, opts, top_opt, &o, &pos, &npos);
	if (ret)
		return OPTS_EXIT(ret);
	if (npos)
		return usage_err(c, "unexpected argument '%s'", pos[0]);
	if (o.once)
		o.iterations = 1;
	ret = open_core(false, &dev);
	if (ret)
		return ret;
	nc = calloc(1, sizeof(*nc));
	if (!nc) {
		ncsync_close(dev);
		return fail_err(ENOMEM, "top");
	}
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	tty = isatty(STDOUT_FILENO) && !opt_json;

	for (frame = 0; !top_stop; frame++) {
		struct timespec ts = {
			.tv_sec = o.interval / 1000,
			.tv_nsec = o.interval % 1000 * 1000000L,
		};
		unsigned int n, nev;
		char clock[16];
		time_t t;

		if (o.iterations && frame >= o.iterations)
			break;
		if (frame)
			nanosleep(&ts, NULL);
		if (top_stop)
			break;
		nl_core_release(nc);
		ret = nl_get_core(opt_core, nc, false);
		if (ret)
			break;
		read_banks(dev, &b);
		n = nonzero_sems(&b, nz);
		nev = count_events(b.events);
		if (opt_json) {
			j_obj(NULL);
			j_uint("core", opt_core);
			j_uint("seq", nc->seq);
			json_progs(nc);
			json_banks(&b, false);
			j_end();
			j_done();
			continue;
		}
		t = time(NULL);
		strftime(clock, sizeof(clock), "%H:%M:%S", localtime(&t));
		if (tty)
			printf("\033[H\033[2J");
		else if (frame)
			putchar('\n');
		printf("ncsync top - core %u - %s - seq %llu%s\n", opt_core,
		       clock, (unsigned long long)nc->seq,
		       o.iterations == 1 ? "" : " (ctrl-c quits)");
		printf("programs running: %u\n", nc->nprogs);
		if (nc->nprogs)
			print_progs(nc, "  ");
		printf("semaphores: %u non-zero\n", n);
		if (n)
			print_sem_list(stdout, "  ", nz, n);
		printf("events set: %u\n", nev);
		if (nev)
			print_event_list("  ", b.events);
		fflush(stdout);
	}
	nl_core_release(nc);
	free(nc);
	ncsync_close(dev);
	return ret;
}
