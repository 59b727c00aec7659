// SPDX-License-Identifier: GPL-2.0
/*
 * ncsync(1): run --timeline OUT.svg.
 *
 * The driver's tracepoints (driver/ncsync_trace.h) are recorded in a
 * tracefs instance of our own, instances/ncsync-PID, so that nothing of
 * the global trace buffer is touched: ncsync_exec, ncsync_wait_begin and
 * ncsync_wait_end, filtered on the cores of the program.  After the run
 * the instance's "trace" file is parsed and drawn as one lane per engine
 * (per core and engine for a program across cores): when it executed
 * records, when it waited, and on what.  ncsync_dma_issue and
 * ncsync_dma_land are recorded too, for the DMA lanes and the arrows of
 * cross-core signals (timeline_dma.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "print.h"
#include "timeline_int.h"

/* Indexed by enum tev_type. */
static const char *const tl_events[] = {
	"ncsync_exec", "ncsync_wait_begin", "ncsync_wait_end",
	"ncsync_dma_issue", "ncsync_dma_land",
};

static int write_str(const char *dir, const char *file, const char *val)
{
	char path[256];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = write(fd, val, strlen(val));
	if (n < 0) {
		n = -errno;
		close(fd);
		return n;
	}
	close(fd);
	return 0;
}

static const char *tracefs_root(void)
{
	static const char *const roots[] = {
		"/sys/kernel/tracing", "/sys/kernel/debug/tracing",
	};
	char path[64];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(roots); i++) {
		snprintf(path, sizeof(path), "%s/instances", roots[i]);
		if (!access(path, F_OK))
			return roots[i];
	}
	return NULL;
}

/* "core == A || core == B ...": the events of @n @cores. */
static void core_filter(char *buf, size_t len, const unsigned int *cores,
			unsigned int n)
{
	size_t off = 0;
	unsigned int i;

	buf[0] = '\0';
	for (i = 0; i < n && off < len; i++)
		off += snprintf(buf + off, len - off, "%score == %u",
				i ? " || " : "", cores[i]);
}

int timeline_start(const unsigned int *cores, unsigned int n,
		   struct timeline **tlp)
{
	const char *root = tracefs_root();
	char path[256], filter[NCSYNC_MAX_LNC * 16];
	struct timeline *tl;
	size_t i;
	int ret;

	if (!root)
		return fail_msg("timeline: tracefs is not mounted (mount -t tracefs nodev /sys/kernel/tracing)");
	snprintf(path, sizeof(path), "%s/events/ncsync", root);
	if (access(path, F_OK))
		return fail_msg("timeline: %s: %s (module not loaded?)", path,
				strerror(ENOENT));
	tl = calloc(1, sizeof(*tl));
	if (!tl)
		return fail_err(ENOMEM, "timeline");
	snprintf(tl->dir, sizeof(tl->dir), "%s/instances/ncsync-%d", root,
		 (int)getpid());
	if (mkdir(tl->dir, 0700) && errno != EEXIST) {
		ret = fail_err(errno, "timeline: mkdir %s", tl->dir);
		free(tl);
		return ret;
	}
	tl->created = true;
	core_filter(filter, sizeof(filter), cores, n);
	ret = write_str(tl->dir, "tracing_on", "0");
	if (!ret)
		ret = write_str(tl->dir, "buffer_size_kb", "8192");
	if (!ret)
		ret = write_str(tl->dir, "events/ncsync/filter", filter);
	for (i = 0; !ret && i < ARRAY_SIZE(tl_events); i++) {
		snprintf(path, sizeof(path), "events/ncsync/%s/enable",
			 tl_events[i]);
		ret = write_str(tl->dir, path, "1");
	}
	if (!ret)
		ret = write_str(tl->dir, "trace", "");
	if (!ret)
		ret = write_str(tl->dir, "tracing_on", "1");
	if (ret) {
		fail_err(ret, "timeline: set up %s", tl->dir);
		timeline_free(tl);
		return EXIT_FAIL;
	}
	*tlp = tl;
	return 0;
}

static int tl_add(struct timeline *tl, const struct tev *e)
{
	struct tev *n;

	if (tl->nev == tl->cap) {
		tl->cap = tl->cap ? 2 * tl->cap : 4096;
		n = realloc(tl->ev, tl->cap * sizeof(*n));
		if (!n)
			return -ENOMEM;
		tl->ev = n;
	}
	tl->ev[tl->nev++] = *e;
	return 0;
}

/* Value of "key=" in @s, or NULL. */
static const char *field(const char *s, const char *key)
{
	size_t l = strlen(key);
	const char *p = s;

	while ((p = strstr(p, key))) {
		if ((p == s || p[-1] == ' ') && p[l] == '=')
			return p + l + 1;
		p += l;
	}
	return NULL;
}

static long long num(const char *s, const char *key)
{
	const char *v = field(s, key);

	return v ? strtoll(v, NULL, 0) : 0;
}

/* The fields of event @e of type e->type from @args. */
static void parse_args(struct tev *e, const char *args)
{
	e->engine = num(args, "engine");
	e->core = num(args, "core");
	e->prog = num(args, "prog");
	e->pc = num(args, "pc");
	if (e->type == TEV_WAIT_BEGIN) {
		e->kind = num(args, "kind");
		e->mode = num(args, "mode");
		e->index = num(args, "index");
		e->threshold = num(args, "threshold");
		e->current = num(args, "current");
	} else if (e->type == TEV_WAIT_END) {
		e->passed = num(args, "passed");
	} else if (e->type == TEV_DMA_ISSUE || e->type == TEV_DMA_LAND) {
		e->copy = num(args, "copy");
		e->to = num(args, "to");
		e->len = num(args, "len");
		e->latency = num(args, "latency");
		e->upd = num(args, "upd");
		e->bank = num(args, "bank");
		e->index = num(args, "index");
		e->landed = num(args, "landed");
		e->updated = num(args, "updated");
	}
}

/* One line of "trace"; lines of other events are skipped. */
static int parse_line(struct timeline *tl, char *line)
{
	struct tev e = { 0 };
	char *p = NULL, *ts, *args, name[32];
	unsigned long long lost;
	size_t i;

	if (line[0] == '#')
		return 0;
	p = strstr(line, "[LOST ");
	if (p && sscanf(p, "[LOST %llu EVENTS]", &lost) == 1) {
		tl->lost += lost;
		return 0;
	}
	for (i = 0; i < ARRAY_SIZE(tl_events); i++) {
		snprintf(name, sizeof(name), ": %s: ", tl_events[i]);
		p = strstr(line, name);
		if (p)
			break;
	}
	if (!p)
		return 0;
	args = p + strlen(name);
	*p = '\0';
	ts = strrchr(line, ' ');
	if (!ts)
		return 0;
	e.t = strtod(ts + 1, NULL);
	e.type = i;
	parse_args(&e, args);
	return tl_add(tl, &e);
}

/*
 * Before the run: @path ("-": standard output) can be written.  Opens it
 * for writing without truncating it; *@created: it did not exist, and
 * now does (empty), for timeline_unprobe().  0 or a negative errno.
 */
int timeline_probe(const char *path, bool *created)
{
	int fd;

	*created = false;
	if (!strcmp(path, "-"))
		return 0;
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
	if (fd >= 0)
		*created = true;
	else if (errno == EEXIST)
		fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

/* The events of the trace @path, added to @tl's; 0 or EXIT_FAIL. */
static int timeline_read(struct timeline *tl, const char *path)
{
	char *buf, *line, *save;
	size_t len;
	int ret;

	ret = read_file(path, &buf, &len);
	if (ret)
		return fail_err(ret, "timeline: read %s", path);
	for (line = strtok_r(buf, "\n", &save); line && !ret;
	     line = strtok_r(NULL, "\n", &save))
		ret = parse_line(tl, line);
	free(buf);
	if (ret)
		return fail_err(ret, "timeline: parse %s", path);
	return 0;
}

int timeline_stop(struct timeline *tl)
{
	char path[256];

	if (tl->stopped)
		return 0;
	tl->stopped = true;
	write_str(tl->dir, "tracing_on", "0");
	snprintf(path, sizeof(path), "%s/trace", tl->dir);
	return timeline_read(tl, path);
}

int timeline_load(const char *path, struct timeline **tlp)
{
	struct timeline *tl = calloc(1, sizeof(*tl));
	int ret;

	if (!tl)
		return fail_err(ENOMEM, "timeline");
	tl->stopped = true;
	ret = timeline_read(tl, path);
	if (ret) {
		timeline_free(tl);
		return ret;
	}
	*tlp = tl;
	return 0;
}

void timeline_free(struct timeline *tl)
{
	char path[256];
	size_t i;

	if (!tl)
		return;
	if (tl->created) {
		write_str(tl->dir, "tracing_on", "0");
		for (i = 0; i < ARRAY_SIZE(tl_events); i++) {
			snprintf(path, sizeof(path), "events/ncsync/%s/enable",
				 tl_events[i]);
			write_str(tl->dir, path, "0");
		}
		if (rmdir(tl->dir))
			fprintf(stderr, "ncsync: timeline: rmdir %s: %s\n",
				tl->dir, strerror(errno));
	}
	free(tl->ev);
	free(tl);
}

/* Drawing */

#define COL_RUN		"#66bb6a"
#define COL_WAIT	"#ffa726"
#define COL_DRAIN	"#42a5f5"
#define COL_STUCK	"#e53935"


static void svg_flush(struct svg *s)
{
	double w = s->x1 - s->x0;

	if (!s->pending)
		return;
	s->pending = false;
	if (w < 0.6)
		w = 0.6;
	fprintf(s->f, "<rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%d\" fill=\"%s\"><title>",
		s->x0, s->y, w, LANE_H - 8, s->col);
	xml_text(s->f, s->title);
	if (s->count > 1)
		fprintf(s->f, " (and %u more waits)", s->count - 1);
	fputs("</title></rect>\n", s->f);
	if (s->count == 1 && w >= 6.5 * strlen(s->label) + 6) {
		fprintf(s->f, "<text x=\"%.2f\" y=\"%.1f\" class=\"w\">",
			s->x0 + w / 2, s->y + (LANE_H - 8) / 2.0 + 4);
		xml_text(s->f, s->label);
		fputs("</text>\n", s->f);
	}
}

/* Add a wait rectangle; merge it with the last one when they touch. */
static void svg_wait(struct svg *s, double y, double ta, double tb,
		     const char *col, const char *title, const char *label)
{
	double x0 = svg_x(s, ta), x1 = svg_x(s, tb);

	if (s->pending && s->y == y && s->col == col && x0 - s->x1 < 1.0) {
		s->x1 = x1;
		s->count++;
		return;
	}
	svg_flush(s);
	s->pending = true;
	s->x0 = x0;
	s->x1 = x1;
	s->y = y;
	s->col = col;
	s->count = 1;
	snprintf(s->title, sizeof(s->title), "%s", title);
	snprintf(s->label, sizeof(s->label), "%s", label);
}

/* A readable step for about 8 ticks over @span seconds. */
static double tick_step(double span)
{
	double step = 1e-9, m[] = { 1, 2, 5 };
	int i;

	for (;;) {
		for (i = 0; i < 3; i++)
			if (span / (step * m[i]) <= 10)
				return step * m[i];
		step *= 10;
	}
}

static void time_label(char *buf, size_t len, double t, double step)
{
	if (step >= 1)
		snprintf(buf, len, "%g s", t);
	else if (step >= 1e-3)
		snprintf(buf, len, "%g ms", t * 1e3);
	else
		snprintf(buf, len, "%g us", t * 1e6);
}


/*
 * The records the program of @progs executed, as its status counts them
 * (ncsync_engine_status.executed): its ncsync_exec events (traced when a
 * record starts), less the record each engine was still in a wait of
 * when the trace ended (begun and not passed: it never completed).
 */
static size_t svg_executed(const struct timeline *tl,
			   const struct tl_prog *progs, unsigned int np)
{
	static bool blocked[NCSYNC_MAX_LNC * 256];
	size_t i, n = 0;
	int k;

	memset(blocked, 0, sizeof(blocked));
	for (i = 0; i < tl->nev; i++) {
		const struct tev *v = &tl->ev[i];
		bool *b;

		k = tl_prog_of(progs, np, v);
		if (k < 0 || !tev_of_lane(v))
			continue;
		b = &blocked[k * 256 + v->engine];
		if (v->type == TEV_EXEC) {
			n++;
			*b = false;
		} else if (v->type == TEV_WAIT_BEGIN) {
			*b = true;
		} else if (v->passed) {
			*b = false;
		}
	}
	for (i = 0; i < ARRAY_SIZE(blocked); i++)
		if (blocked[i] && n)
			n--;
	return n;
}

/* The span of the program's events (and its records); false: none. */
static bool svg_span(const struct timeline *tl, const struct tl_prog *progs,
		     unsigned int np, struct svg *s, size_t *nexec)
{
	bool any = false;
	size_t i;

	for (i = 0; i < tl->nev; i++) {
		if (tl_prog_of(progs, np, &tl->ev[i]) < 0)
			continue;
		if (!any || tl->ev[i].t < s->t0)
			s->t0 = tl->ev[i].t;
		if (!any || tl->ev[i].t > s->t1)
			s->t1 = tl->ev[i].t;
		any = true;
	}
	*nexec = svg_executed(tl, progs, np);
	return any;
}

static void svg_head(struct svg *s, double h, const char *title,
		     size_t nexec, bool lost)
{
	fprintf(s->f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%.0f\" viewBox=\"0 0 %d %.0f\" font-family=\"sans-serif\" font-size=\"12\">\n"
		"<style>.w{font-size:10px;text-anchor:middle;fill:#222}.l{font-size:13px;font-weight:bold}.a{font-size:11px;fill:#555;text-anchor:middle}</style>\n"
		"<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n"
		"<text x=\"12\" y=\"24\" font-size=\"15\">",
		SVG_W, h, SVG_W, h);
	xml_text(s->f, title);
	/* The time of the lanes: the axis runs from 0 to it. */
	fprintf(s->f, ", %.3f ms traced", (s->t1 - s->t0) * 1e3);
	fprintf(s->f, "</text>\n<text x=\"12\" y=\"42\" fill=\"#555\">%zu records executed; %s</text>\n",
		nexec, lost ? "some trace events were lost" :
		"hover over a wait for its record and condition");
}

/* The time axis, and grid lines. */
static void svg_axis(struct svg *s, double h)
{
	double step = tick_step(s->t1 - s->t0), t;
	char buf[64];

	for (t = 0; t <= s->t1 - s->t0 + step * 1e-6; t += step) {
		double x = svg_x(s, s->t0 + t);

		time_label(buf, sizeof(buf), t, step);
		fprintf(s->f, "<line x1=\"%.2f\" y1=\"%d\" x2=\"%.2f\" y2=\"%.0f\" stroke=\"#ddd\"/>\n"
			"<text x=\"%.2f\" y=\"%.0f\" class=\"a\">%s</text>\n",
			x, SVG_TOP - 4, x, h - 52, x, h - 38, buf);
	}
}

static void svg_legend(struct svg *s, double h)
{
	static const struct {
		const char *col, *text;
	} leg[] = {
		{ COL_RUN, "executing (ticks: records)" },
		{ COL_WAIT, "waiting on a semaphore or event" },
		{ COL_DRAIN, "in a drain" },
		{ COL_STUCK, "waiting, never passed" },
	};
	double x = SVG_LEFT;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(leg); i++) {
		fprintf(s->f, "<rect x=\"%.0f\" y=\"%.0f\" width=\"14\" height=\"12\" fill=\"%s\"/>\n"
			"<text x=\"%.0f\" y=\"%.0f\">%s</text>\n",
			x, h - 22, leg[i].col, x + 19, h - 12, leg[i].text);
		x += 40 + 6.2 * strlen(leg[i].text);
	}
}

/* The lane of one engine, drawn from its events. */
struct lane {
	uint32_t prog;
	const struct ncsync_program *program;	/* lines, barriers */
	unsigned int core;
	unsigned int engine;
	char name[24];		/* "pool", or "core 1 pool" */
	double y;
	size_t nexec;		/* records of the program: ticks up to 4000 */
	double lastx;		/* the last tick */
	const struct tev *begin;	/* the wait in progress */
	unsigned long execs, waits;
};

static void lane_exec(struct svg *s, struct lane *l, const struct tev *v)
{
	double x = svg_x(s, v->t);

	l->execs++;
	if (l->nexec <= 4000 && x - l->lastx >= 2) {
		fprintf(s->f, "<line x1=\"%.2f\" y1=\"%.1f\" x2=\"%.2f\" y2=\"%.1f\" stroke=\"#1b5e20\" stroke-width=\"0.6\"/>\n",
			x, l->y + LANE_H - 8, x, l->y + LANE_H - 4);
		l->lastx = x;
	}
}

/*
 * Where the wait @b of lane @l is: "pool record 12, line 40" (the text
 * line of the record, when the program has one), then ", barrier (what
 * the lowering owns it as)" when it waits on what a barrier's lowering
 * owns (ncsync_program_owner()); *@barrier says which.
 */
static void wait_where(char *buf, size_t len, const struct lane *l,
		       const struct tev *b, bool *barrier)
{
	struct ncsync_program *p = (struct ncsync_program *)l->program;
	const char *owner = NULL;
	uint32_t line = 0;
	int n;

	if (p)
		line = ncsync_stream_line(ncsync_program_find_stream(p,
								     l->engine),
					  b->pc);
	if (p && (b->kind == NCSYNC_BLOCK_SEM ||
		  b->kind == NCSYNC_BLOCK_EVENT))
		owner = ncsync_program_owner(p, b->kind == NCSYNC_BLOCK_SEM ?
					     NCSYNC_BANK_SEM :
					     NCSYNC_BANK_EVENT, b->index);
	*barrier = owner;
	n = snprintf(buf, len, "%s record %u", l->name, b->pc);
	if (line && n >= 0 && (size_t)n < len)
		n += snprintf(buf + n, len - n, ", line %u", line);
	if (owner && n >= 0 && (size_t)n < len)
		snprintf(buf + n, len - n, ", barrier (%s)", owner);
}

/* The wait of l->begin, which ended at @v (NULL: still waiting). */
static void lane_wait(struct svg *s, struct lane *l, const struct tev *v)
{
	const struct tev *b = l->begin;
	const char *col = COL_STUCK;
	char tt[256], what[40], where[160];
	bool barrier;

	describe_wait(what, sizeof(what), b->kind, b->mode, b->index,
		      b->threshold);
	wait_where(where, sizeof(where), l, b, &barrier);
	if (!v) {
		snprintf(tt, sizeof(tt), "%s: %s (was %d), still waiting",
			 where, what, b->current);
	} else {
		snprintf(tt, sizeof(tt), "%s: %s%s (was %d), %.3f ms%s",
			 where,
			 b->kind == NCSYNC_BLOCK_DRAIN ? "" : "waits for ",
			 what, b->current, (v->t - b->t) * 1e3,
			 v->passed ? "" : ", never passed: stopped");
		if (v->passed)
			col = b->kind == NCSYNC_BLOCK_DRAIN ||
			      b->kind == NCSYNC_BLOCK_DMA_FULL ?
			      COL_DRAIN : COL_WAIT;
	}
	svg_wait(s, l->y, b->t, v ? v->t : s->t1, col, tt,
		 barrier ? "barrier" : what);
	l->waits++;
	l->begin = NULL;
}

/* The executed records and the waits of the lane. */
static void lane_events(struct svg *s, const struct timeline *tl,
			struct lane *l)
{
	size_t i;

	for (i = 0; i < tl->nev; i++) {
		const struct tev *v = &tl->ev[i];

		if (v->prog != l->prog || v->engine != l->engine ||
		    v->core != l->core || !tev_of_lane(v))
			continue;
		if (v->type == TEV_EXEC)
			lane_exec(s, l, v);
		else if (v->type == TEV_WAIT_BEGIN)
			l->begin = v;
		else if (l->begin)
			lane_wait(s, l, v);
	}
	if (l->begin)
		lane_wait(s, l, NULL);	/* still waiting when the trace ended */
}

/* The lane's name on the left: "pool (1)", or "core 1 pool" by core. */
static void svg_lane_label(struct svg *s, const struct lane *l, bool by_core)
{
	char name[40];

	if (by_core)
		snprintf(name, sizeof(name), "%s", l->name);
	else
		snprintf(name, sizeof(name), "%s (%u)", l->name, l->engine);
	svg_lane_box(s, name, l->y);
}

static void svg_lane(struct svg *s, const struct timeline *tl,
		     struct lane *l, bool by_core)
{
	double first = -1, last = 0, y = l->y;
	unsigned int e = l->engine;
	size_t i;

	for (i = 0; i < tl->nev; i++) {
		const struct tev *v = &tl->ev[i];

		if (v->prog != l->prog || v->engine != e ||
		    v->core != l->core || !tev_of_lane(v))
			continue;
		if (first < 0)
			first = v->t;
		last = v->t;
	}
	svg_lane_label(s, l, by_core);
	if (first < 0) {
		fprintf(s->f, "<text x=\"%d\" y=\"%.1f\" fill=\"#888\">no records traced</text>\n",
			SVG_LEFT + 8, y + LANE_H / 2.0);
		return;
	}
	fprintf(s->f, "<rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%d\" fill=\"%s\"><title>%s: executing records</title></rect>\n",
		svg_x(s, first), y, svg_x(s, last) - svg_x(s, first) + 0.6,
		LANE_H - 8, COL_RUN, l->name);
	lane_events(s, tl, l);
	svg_flush(s);
	fprintf(s->f, "<text x=\"%d\" y=\"%.1f\" fill=\"#555\">%lu rec, %lu waits</text>\n",
		SVG_W - SVG_RIGHT + 6, y + LANE_H / 2.0, l->execs, l->waits);
}

/* The lanes of the engines of @lay. */
static void svg_lanes(struct svg *s, const struct timeline *tl,
		      const struct tl_layout *lay, size_t nexec)
{
	const struct tl_prog *p;
	unsigned int i;

	for (i = 0; i < lay->n; i++) {
		const struct tl_slot *sl = &lay->slot[i];
		struct lane l = {
			.engine = sl->engine, .nexec = nexec, .lastx = -10,
			.y = sl->y,
		};

		if (sl->engine == NCSYNC_ENGINE_DMA)
			continue;	/* timeline_dma.c */
		p = &lay->progs[sl->part];
		l.prog = p->id;
		l.core = p->core;
		l.program = p->prog;
		tl_lane_name(l.name, sizeof(l.name), lay, sl);
		svg_lane(s, tl, &l, lay->by_core);
	}
}

/*
 * The lanes, top down: each part's engines, then its DMA lane when it
 * issued copies.  Whether there is a DMA lane.
 */
static bool tl_layout(struct tl_layout *lay, const struct timeline *tl)
{
	unsigned int k, e;
	bool dma = false;

	lay->n = 0;
	for (k = 0; k < lay->np; k++) {
		for (e = 0; e < MAX_ENGINE_ID; e++)
			if (lay->progs[k].engine_mask & (1U << e))
				lay->slot[lay->n++] = (struct tl_slot){
					.part = k, .engine = e };
		if (tl_part_dma(tl, &lay->progs[k])) {
			lay->slot[lay->n++] = (struct tl_slot){
				.part = k, .engine = NCSYNC_ENGINE_DMA };
			dma = true;
		}
	}
	for (k = 0; k < lay->n; k++)
		lay->slot[k].y = SVG_TOP + k * (LANE_H + LANE_GAP);
	return dma;
}

/* The picture of @lay on s->f, @h high; 0 or a negative errno. */
static int svg_draw(struct svg *s, const struct timeline *tl,
		    const struct tl_layout *lay, bool dma, double h,
		    const char *title, size_t nexec)
{
	double base = dma ? h - 18 : h;	/* the foot of the first legend */
	int ret = 0;

	svg_head(s, h, title, nexec, tl->lost);
	svg_axis(s, base);
	svg_lanes(s, tl, lay, nexec);
	if (dma)
		ret = svg_dma(s, tl, lay);
	svg_legend(s, base);
	if (dma)
		svg_dma_legend(s, base - 4);
	fputs("</svg>\n", s->f);
	return ret;
}

int timeline_write_svg(struct timeline *tl, const struct tl_prog *progs,
		       unsigned int np, bool by_core, const char *title,
		       const char *path)
{
	struct tl_layout lay = { .progs = progs, .np = np,
				 .by_core = by_core };
	struct svg s = { 0 };
	size_t nexec;
	bool dma;
	double h;
	int ret;

	if (!svg_span(tl, progs, np, &s, &nexec))
		return fail_msg("timeline: no trace events of program %u",
				progs[0].id);
	if (tl->lost)
		fprintf(stderr,
			"ncsync: timeline: %llu trace events lost; the picture has gaps\n",
			tl->lost);
	if (s.t1 - s.t0 < 1e-6)
		s.t1 = s.t0 + 1e-6;
	s.scale = (SVG_W - SVG_LEFT - SVG_RIGHT) / (s.t1 - s.t0);
	dma = tl_layout(&lay, tl);
	h = SVG_TOP + lay.n * (LANE_H + LANE_GAP) + 70 + (dma ? 18 : 0);

	s.f = strcmp(path, "-") ? fopen(path, "w") : stdout;
	if (!s.f)
		return fail_err(errno, "timeline: %s", path);
	ret = svg_draw(&s, tl, &lay, dma, h, title, nexec);
	if (ret) {
		if (s.f != stdout)
			fclose(s.f);
		return fail_err(-ret, "timeline: %s", path);
	}
	if (s.f == stdout ? fflush(s.f) : fclose(s.f))
		return fail_err(errno, "timeline: %s", path);
	return 0;
}
