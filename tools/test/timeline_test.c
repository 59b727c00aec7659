// SPDX-License-Identifier: GPL-2.0
/*
 * The renderer of ncsync run --timeline (tools/ncsync/timeline*.c), no
 * device needed: on traces the test VM recorded (tools/test/data/, the
 * runs of examples/pingpong-cores.s and examples/dma-drain.s) and on one
 * written here for the cases a run seldom shows (a dropped copy, a copy
 * in flight at the end, a signal no engine waited for, a wait begun after
 * the landing, another program's events, a line of another event).  The
 * DMA lanes (a bar per copy from issue to landing, copies in flight
 * together on rows of their own, the counts) and the arrows of cross-core
 * signals (from the landing to the wait it let pass, with the lines of
 * both records); and the refusal of a trace that cannot be read.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "build.h"
#include "timeline.h"
#include "tap.h"

#ifndef NCSYNC_TEST_TOP
#define NCSYNC_TEST_TOP "."
#endif

static char svg_path[64];
static char *svg;

/* The number of the first line of @text containing @what, 0 for none. */
static unsigned int line_of(const char *text, const char *what)
{
	const char *p = strstr(text, what), *q;
	unsigned int n = 1;

	if (!p)
		return 0;
	for (q = text; q < p; q++)
		n += *q == '\n';
	return n;
}

/*
 * Draw the program of @path (its text @text) from the trace @trace, each
 * part with id @ids[i]; the SVG in @svg.  0 or the failure.
 */
static int draw(const char *path, const char *text, const char *trace,
		const uint32_t *ids)
{
	struct ncsync_asm_part parts[NCSYNC_MAX_LNC];
	struct tl_prog tp[NCSYNC_MAX_LNC];
	struct build_opts bo = { 0 };
	struct timeline *tl;
	unsigned int n, i;
	size_t len;
	int ret;

	free(svg);
	svg = NULL;
	ret = build_parts(path, text, strlen(text), &bo, parts, &n);
	if (ret)
		return ret;
	for (i = 0; i < (n ? n : 1); i++)
		tp[i] = (struct tl_prog){
			.core = n ? parts[i].core : 0, .id = ids[i],
			.engine_mask = ncsync_program_engines(parts[i].prog),
			.prog = parts[i].prog,
		};
	ret = timeline_load(trace, &tl);
	if (ret)
		return ret;
	ret = timeline_write_svg(tl, tp, n ? n : 1, n, "test", svg_path);
	if (!ret)
		ret = read_file(svg_path, &svg, &len);
	timeline_free(tl);
	return ret;
}

/* The lanes' names, top down, joined by ", ". */
static void lanes(char *buf, size_t len)
{
	struct {
		double y;
		char name[32];
	} l[32];
	unsigned int n = 0, i, j;
	const char *p = svg;

	while (n < 32 && (p = strstr(p, "<text x=\"12\" y=\""))) {
		if (sscanf(p, "<text x=\"12\" y=\"%lf\" class=\"l\">%31[^<]",
			   &l[n].y, l[n].name) == 2)
			n++;
		p++;
	}
	for (i = 1; i < n; i++)	/* by y */
		for (j = i; j > 0 && l[j].y < l[j - 1].y; j--) {
			l[31] = l[j];
			l[j] = l[j - 1];
			l[j - 1] = l[31];
		}
	buf[0] = '\0';
	for (i = 0; i < n; i++)
		snprintf(buf + strlen(buf), len - strlen(buf), "%s%s",
			 i ? ", " : "", l[i].name);
}

/* The y of the lane named @name, or NAN. */
static double lane_y(const char *name)
{
	char want[64];
	const char *p;
	double y;

	snprintf(want, sizeof(want), "\" class=\"l\">%s</text>", name);
	p = strstr(svg, want);
	if (!p)
		return NAN;
	while (p > svg && strncmp(p, "y=\"", 3))
		p--;
	return sscanf(p, "y=\"%lf\"", &y) == 1 ? y - (30 / 2.0 + 2) : NAN;
}

static unsigned int count(const char *what)
{
	unsigned int n = 0;
	const char *p = svg;

	while (p && (p = strstr(p, what))) {
		n++;
		p += strlen(what);
	}
	return n;
}

/* An arrow of a cross-core signal: its ends, its tooltip, its count. */
struct arrow {
	double x1, y1, x2, y2;
	char title[400];
	unsigned int n;
};

/* The arrows of the picture, at most @max; their number. */
static unsigned int arrows(struct arrow *a, unsigned int max)
{
	const char *p = svg, *t;
	unsigned int n = 0, more;

	while (n < max && (p = strstr(p, "<line x1="))) {
		t = strstr(p, "class=\"xcore\"><title>");
		if (t && t < strchr(p, '\n') &&
		    sscanf(p, "<line x1=\"%lf\" y1=\"%lf\" x2=\"%lf\" y2=\"%lf\"",
			   &a[n].x1, &a[n].y1, &a[n].x2, &a[n].y2) == 4 &&
		    sscanf(t + 21, "%399[^<]", a[n].title) == 1) {
			a[n].n = 1;
			t = strstr(a[n].title, " (and ");
			if (t && sscanf(t, " (and %u more", &more) == 1)
				a[n].n += more;
			n++;
		}
		p++;
	}
	return n;
}

/* Whether @s matches the scanf format @fmt (one %u, into *@u) to its end. */
static bool matches(const char *s, const char *fmt, unsigned int *u)
{
	char f[256];
	int end = -1;

	snprintf(f, sizeof(f), "%s%%n", fmt);
	return sscanf(s, f, u, &end) == 1 && end >= 0 &&
	       (size_t)end <= strlen(s);
}

static char *slurp(const char *path)
{
	char *buf;
	size_t len;

	return read_file(path, &buf, &len) ? NULL : buf;
}

/* Core 0 pings core 1's sem[10], core 1 pongs core 0's sem[11]. */
static void pingpong(void)
{
	static struct arrow a[128];
	const uint32_t ids[] = { 1, 1 };
	char *text = slurp(NCSYNC_TEST_TOP "/examples/pingpong-cores.s");
	char names[256], want[2][160], nowait[2][120];
	unsigned int n, i, total = 0, woke = 0, ok = 0, geo = 0;
	double y1pool, y0pool, y0dma, y1dma;

	TAP_CHECK(text, "pingpong-cores.s read");
	if (!text)
		return;
	TAP_CHECK(!draw("pingpong-cores.s", text, NCSYNC_TEST_TOP
			"/tools/test/data/pingpong-cores.trace", ids),
		  "pingpong-cores: drawn from its recorded trace");
	if (!svg)
		return;
	lanes(names, sizeof(names));
	TAP_CHECK(!strcmp(names, "core 0 pool, core 0 DMA, core 1 pool, core 1 DMA"),
		  "pingpong-cores: a DMA lane under each core's engines (%s)",
		  names);
	TAP_CHECK(count(">50 copies, 50 landed</text>") == 2,
		  "pingpong-cores: each DMA lane has its 50 copies, landed");
	/* The lines of the two copies and of the waits they release. */
	snprintf(want[0], sizeof(want[0]),
		 "core 0 pool record 1, line %u: copy %%u landed: sem[10]++ on core 1, where core 1 pool record 1, line %u waited for sem[10] &gt;= 1: passed ",
		 line_of(text, "peer=1"), line_of(text, "wait sem[10]"));
	snprintf(want[1], sizeof(want[1]),
		 "core 1 pool record 2, line %u: copy %%u landed: sem[11]++ on core 0, where core 0 pool record 2, line %u waited for sem[11] &gt;= 1: passed ",
		 line_of(text, "peer=0"), line_of(text, "wait sem[11]"));
	snprintf(nowait[0], sizeof(nowait[0]),
		 "core 0 pool record 1, line %u: copy %%u landed: sem[10]++ on core 1, which no engine there waited for",
		 line_of(text, "peer=1"));
	snprintf(nowait[1], sizeof(nowait[1]),
		 "core 1 pool record 2, line %u: copy %%u landed: sem[11]++ on core 0, which no engine there waited for",
		 line_of(text, "peer=0"));
	y0pool = lane_y("core 0 pool");
	y0dma = lane_y("core 0 DMA");
	y1pool = lane_y("core 1 pool");
	y1dma = lane_y("core 1 DMA");
	n = arrows(a, 128);
	for (i = 0; i < n; i++) {
		unsigned int c = strstr(a[i].title, "core 0 pool record") ==
				 a[i].title ? 0 : 1, copy;
		bool w;

		total += a[i].n;
		w = matches(a[i].title, want[c], &copy);
		woke += w;
		ok += w || matches(a[i].title, nowait[c], &copy);
		/* From the landing on the issuer's DMA lane, to the waiter's lane. */
		geo += a[i].y1 == (c ? y1dma : y0dma) + 11 && a[i].x2 >= a[i].x1 &&
		       (!w || a[i].y2 == (c ? y0pool + 22 : y1pool));
	}
	TAP_CHECK(total == 100, "pingpong-cores: an arrow for each of the 100 cross-core copies (%u)",
		  total);
	TAP_CHECK(ok == n && n, "pingpong-cores: each arrow names the copy's line and the wait it let pass, or none");
	TAP_CHECK(woke > 0, "pingpong-cores: arrows end at the engine that waited (%u of %u)",
		  woke, n);
	TAP_CHECK(geo == n, "pingpong-cores: each arrow from the landing to the waiter's lane, not back in time");
	free(text);
}

/* One core: two copies in flight together, each on its row. */
static void dma_drain(void)
{
	const uint32_t ids[] = { 1 };
	char *text = slurp(NCSYNC_TEST_TOP "/examples/dma-drain.s");
	char names[256], want[160];
	double y[2];
	const char *p;
	unsigned int i;

	TAP_CHECK(text, "dma-drain.s read");
	if (!text)
		return;
	TAP_CHECK(!draw("dma-drain.s", text, NCSYNC_TEST_TOP
			"/tools/test/data/dma-drain.trace", ids),
		  "dma-drain: drawn from its recorded trace");
	if (!svg)
		return;
	lanes(names, sizeof(names));
	TAP_CHECK(!strcmp(names, "pool (1), act (2), DMA"),
		  "dma-drain: the DMA lane under the engines (%s)", names);
	TAP_CHECK(count(">2 copies, 2 landed</text>") == 1,
		  "dma-drain: 2 copies, 2 landed");
	TAP_CHECK(count("class=\"dma\"") == 2 && !count("class=\"xcore\""),
		  "dma-drain: a bar per copy, no cross-core arrow");
	for (i = 0, p = svg; i < 2 && (p = strstr(p, "class=\"dma\"")); i++) {
		while (strncmp(p, " y=\"", 4))
			p--;
		sscanf(p, " y=\"%lf\"", &y[i]);
		p = strstr(p, "class=\"dma\"") + 1;
	}
	TAP_CHECK(i == 2 && y[0] != y[1],
		  "dma-drain: the copies in flight together on rows of their own");
	snprintf(want, sizeof(want),
		 "pool record 17, line %u: copy 0, 4096 bytes, latency 200000 us: landed after ",
		 line_of(text, "\tdma 0x0, 0x1000"));
	TAP_CHECK(strstr(svg, want), "dma-drain: the first copy's tooltip: %s",
		  want);
	TAP_CHECK(strstr(svg, "ms, then sem[41]++ on core 0</title>"),
		  "dma-drain: its completion");
	free(text);
}

static const char synth_s[] =
	"core 0\n"
	"engine pool\n"
	"\tdma 0x0, 0x40, 64, peer=1 on_land sem[10]++\n"
	"\tdma 0x0, 0x40, 64 on_land sem[11]++\n"
	"\tdma 0x0, 0x40, 64 on_land sem[12]++\n"
	"\texit\n"
	"core 1\n"
	"engine act\n"
	"\tnop wait sem[10] >= 1\n";

#define EV(t, what)	" ncsync0-Pool-1 [000] ..... " t ": " what "\n"
static const char synth_trace[] =
	"# tracer: nop\n"
	EV("1.000000", "ncsync_exec: core=0 engine=1 prog=3 pc=0 op=0xc0")
	EV("1.000001", "ncsync_dma_issue: core=0 engine=1 prog=3 pc=0 copy=0 len=64 latency=0 to=1 upd=1 bank=0 index=10")
	EV("1.000100", "ncsync_exec: core=0 engine=1 prog=3 pc=1 op=0xc0")
	EV("1.000101", "ncsync_dma_issue: core=0 engine=1 prog=3 pc=1 copy=1 len=64 latency=0 to=0 upd=1 bank=0 index=11")
	EV("1.000200", "ncsync_exec: core=0 engine=1 prog=3 pc=2 op=0xc0")
	EV("1.000201", "ncsync_dma_issue: core=0 engine=1 prog=3 pc=2 copy=2 len=64 latency=0 to=0 upd=1 bank=0 index=12")
	EV("1.000250", "ncsync_exec: core=0 engine=1 prog=9 pc=0 op=0xc0")
	EV("1.000251", "ncsync_dma_issue: core=0 engine=1 prog=9 pc=0 copy=0 len=64 latency=0 to=1 upd=1 bank=0 index=10")
	EV("1.000300", "ncsync_exec: core=0 engine=1 prog=3 pc=3 op=0xdf")
	EV("1.000400", "ncsync_wake: core=0 seq=3")
	EV("1.001000", "ncsync_dma_land: core=0 engine=1 prog=3 copy=0 to=1 landed=1 updated=1")
	EV("1.001200", "ncsync_dma_land: core=0 engine=1 prog=9 copy=0 to=1 landed=1 updated=1")
	EV("1.001500", "ncsync_dma_land: core=0 engine=1 prog=3 copy=1 to=0 landed=0 updated=0")
	EV("1.002000", "ncsync_exec: core=1 engine=2 prog=1 pc=0 op=0xa0")
	EV("1.002001", "ncsync_wait_begin: core=1 engine=2 prog=1 pc=0 kind=1 mode=0x05 index=10 threshold=1 current=0")
	EV("1.003000", "ncsync_wait_end: core=1 engine=2 prog=1 pc=0 passed=1")
	EV("1.003001", "ncsync_exec: core=1 engine=2 prog=1 pc=1 op=0xdf");

/* The cases a run seldom shows, on a trace written here. */
static void synthetic(void)
{
	const uint32_t ids[] = { 3, 1 };
	static struct arrow a[4];
	char path[64] = "/tmp/ncsync-tl-XXXXXX", names[128];
	unsigned int n;
	FILE *f;
	int fd;

	fd = mkstemp(path);
	f = fd >= 0 ? fdopen(fd, "w") : NULL;
	TAP_CHECK(f && fputs(synth_trace, f) >= 0 && !fclose(f),
		  "a trace written");
	TAP_CHECK(!draw("synth.s", synth_s, path, ids), "synth: drawn");
	unlink(path);
	if (!svg)
		return;
	lanes(names, sizeof(names));
	TAP_CHECK(!strcmp(names, "core 0 pool, core 0 DMA, core 1 act"),
		  "synth: a DMA lane for the core that issued copies only (%s)",
		  names);
	TAP_CHECK(count(">3 copies, 1 landed</text>") == 1,
		  "synth: another program's copy is not counted; a dropped one did not land");
	TAP_CHECK(strstr(svg, "pool record 1, line 4: copy 1, 64 bytes, latency 0 us: dropped after 1.399 ms</title>"),
		  "synth: the dropped copy, without its completion");
	TAP_CHECK(strstr(svg, "pool record 2, line 5: copy 2, 64 bytes, latency 0 us: in flight when the trace ended, then sem[12]++ on core 0</title>"),
		  "synth: the copy still in flight at the end");
	n = arrows(a, 4);
	TAP_CHECK(n == 1 && a[0].n == 1, "synth: one arrow, the cross-core copy's (%u)",
		  n);
	TAP_CHECK(n && !strcmp(a[0].title, "core 0 pool record 0, line 3: copy 0 landed: sem[10]++ on core 1, which no engine there waited for"),
		  "synth: a wait begun after the landing is not the one it let pass");
	TAP_CHECK(n && a[0].x2 == a[0].x1 && a[0].y2 == lane_y("core 1 act"),
		  "synth: with no waiter, the arrow ends on the core's lane at the landing");
}

/* A trace that cannot be read is refused with its name. */
static void refused(void)
{
	struct timeline *tl = NULL;

	TAP_CHECK(timeline_load("/nonexistent/trace", &tl) == EXIT_FAIL &&
		  !tl, "a trace that cannot be read: EXIT_FAIL, nothing made");
}

int main(void)
{
	int fd;

	snprintf(svg_path, sizeof(svg_path), "/tmp/ncsync-tl-svg-XXXXXX");
	fd = mkstemp(svg_path);
	if (fd < 0)
		return 1;
	close(fd);
	pingpong();
	dma_drain();
	synthetic();
	refused();
	unlink(svg_path);
	free(svg);
	return tap_done();
}
