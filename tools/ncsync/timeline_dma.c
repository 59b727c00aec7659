// SPDX-License-Identifier: GPL-2.0
/*
 * ncsync(1): run --timeline, the DMA lanes and the cross-core signals.
 *
 * From the tracepoints ncsync_dma_issue and ncsync_dma_land
 * (Documentation/ncsync/tracing.rst): a part that issued copies gets a
 * lane "DMA" under its engines' lanes, each copy a bar from its issue to
 * its landing (copies in flight together on rows of their own).  A copy
 * whose completion applied on another core of the run (dma ... peer=P,
 * and the core barriers' arrivals) is an arrow from its landing to the
 * engine of that core whose wait it let pass: the first wait of the
 * core on that semaphore or event begun by the landing and passed at or
 * after it; with none, to that core's DMA lane (or first lane) at the
 * landing.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "print.h"
#include "timeline_int.h"

#define COL_DMA		"#ab47bc"
#define COL_LOST	"#e53935"
#define COL_ARROW	"#4a148c"
#define DMA_ROWS	3
#define DMA_ROW_H	((LANE_H - 8) / (double)DMA_ROWS)

void xml_text(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '<')
			fputs("&lt;", f);
		else if (*s == '>')
			fputs("&gt;", f);
		else if (*s == '&')
			fputs("&amp;", f);
		else
			fputc(*s, f);
	}
}

/* A lane's name on the left at @y, and its background. */
void svg_lane_box(struct svg *s, const char *name, double y)
{
	fprintf(s->f, "<text x=\"12\" y=\"%.1f\" class=\"l\">", y + LANE_H / 2.0 + 2);
	xml_text(s->f, name);
	fprintf(s->f, "</text>\n<rect x=\"%d\" y=\"%.1f\" width=\"%d\" height=\"%d\" fill=\"#f3f3f3\"/>\n",
		SVG_LEFT, y, SVG_W - SVG_LEFT - SVG_RIGHT, LANE_H - 8);
}

/* The index in @progs of the program of @v, or -1 for another's event. */
int tl_prog_of(const struct tl_prog *progs, unsigned int n,
	       const struct tev *v)
{
	unsigned int k;

	for (k = 0; k < n; k++)
		if (v->prog == progs[k].id && v->core == progs[k].core)
			return k;
	return -1;
}

/* The text line of record @pc of @engine of @p, 0 if unknown. */
uint32_t tl_line(const struct tl_prog *p, unsigned int engine, uint32_t pc)
{
	struct ncsync_program *prog = (struct ncsync_program *)p->prog;

	if (!prog)
		return 0;
	return ncsync_stream_line(ncsync_program_find_stream(prog, engine),
				  pc);
}

/* "pool", "core 1 pool"; a DMA lane "DMA", "core 1 DMA". */
void tl_lane_name(char *buf, size_t len, const struct tl_layout *lay,
		  const struct tl_slot *sl)
{
	const char *e = sl->engine == NCSYNC_ENGINE_DMA ? "DMA" :
			engine_label(sl->engine);

	if (lay->by_core)
		snprintf(buf, len, "core %u %s", lay->progs[sl->part].core, e);
	else
		snprintf(buf, len, "%s", e);
}

/* Whether @p issued a copy in the trace. */
bool tl_part_dma(const struct timeline *tl, const struct tl_prog *p)
{
	size_t i;

	for (i = 0; i < tl->nev; i++)
		if (tl->ev[i].type == TEV_DMA_ISSUE &&
		    tl->ev[i].core == p->core && tl->ev[i].prog == p->id)
			return true;
	return false;
}

/* A traced copy: its issue, its landing (NULL: none traced), its part. */
struct tl_copy {
	const struct tev *issue, *land;
	unsigned int part;
};

/* A wait on a semaphore or event that passed, by lane. */
struct tl_wait {
	const struct tev *begin, *end;
	unsigned int part;
};

struct tl_dma {
	struct tl_copy *c;
	size_t nc;
	struct tl_wait *w;
	size_t nw;
};

/* The index of copy @v's (part @k) issue in d->c, or -1. */
static long tl_copy_find(const struct tl_dma *d, unsigned int k,
			 const struct tev *v)
{
	size_t i;

	/* Landings follow issues closely: search from the latest issue. */
	for (i = d->nc; i-- > 0;)
		if (d->c[i].part == k && d->c[i].issue->engine == v->engine &&
		    d->c[i].issue->copy == v->copy && !d->c[i].land)
			return i;
	return -1;
}

/* The copies of the parts, each with its landing. */
static int tl_copies(struct tl_dma *d, const struct timeline *tl,
		     const struct tl_layout *lay)
{
	size_t i;
	long j;
	int k;

	d->c = calloc(tl->nev ? tl->nev : 1, sizeof(*d->c));
	if (!d->c)
		return -ENOMEM;
	for (i = 0; i < tl->nev; i++) {
		const struct tev *v = &tl->ev[i];

		k = tl_prog_of(lay->progs, lay->np, v);
		if (k < 0)
			continue;
		if (v->type == TEV_DMA_ISSUE) {
			d->c[d->nc++] = (struct tl_copy){ .issue = v,
							  .part = k };
		} else if (v->type == TEV_DMA_LAND) {
			j = tl_copy_find(d, k, v);
			if (j >= 0)
				d->c[j].land = v;
		}
	}
	return 0;
}

/* The part running on core @core, or -1. */
static int tl_part_on(const struct tl_layout *lay, uint32_t core)
{
	unsigned int k;

	for (k = 0; k < lay->np; k++)
		if (lay->progs[k].core == core)
			return k;
	return -1;
}

/* Whether copy @c signals another core of the run. */
static bool tl_cross(const struct tl_layout *lay, const struct tl_copy *c)
{
	return c->land && c->land->updated && c->issue->upd &&
	       c->issue->to != c->issue->core &&
	       tl_part_on(lay, c->issue->to) >= 0;
}

/*
 * The waits that passed, of the parts' engines, on what a cross-core
 * copy updates: in the order they ended.
 */
static int tl_waits(struct tl_dma *d, const struct timeline *tl,
		    const struct tl_layout *lay)
{
	static bool want[NCSYNC_MAX_LNC][2][256];
	const struct tev *open[NCSYNC_MAX_LNC][MAX_ENGINE_ID] = { { 0 } };
	size_t i;
	int k;

	memset(want, 0, sizeof(want));
	for (i = 0; i < d->nc; i++)
		if (tl_cross(lay, &d->c[i]))
			want[tl_part_on(lay, d->c[i].issue->to)]
			    [d->c[i].issue->bank == NCSYNC_BANK_EVENT]
			    [d->c[i].issue->index] = true;
	d->w = calloc(tl->nev ? tl->nev : 1, sizeof(*d->w));
	if (!d->w)
		return -ENOMEM;
	for (i = 0; i < tl->nev; i++) {
		const struct tev *v = &tl->ev[i], *b;

		k = tl_prog_of(lay->progs, lay->np, v);
		if (k < 0 || !tev_of_lane(v) || v->engine >= MAX_ENGINE_ID)
			continue;
		if (v->type == TEV_WAIT_BEGIN)
			open[k][v->engine] = v;
		if (v->type != TEV_WAIT_END || !open[k][v->engine])
			continue;
		b = open[k][v->engine];
		open[k][v->engine] = NULL;
		if (v->passed && (b->kind == NCSYNC_BLOCK_SEM ||
				  b->kind == NCSYNC_BLOCK_EVENT) &&
		    want[k][b->kind == NCSYNC_BLOCK_EVENT][b->index])
			d->w[d->nw++] = (struct tl_wait){ b, v, k };
	}
	return 0;
}

/* The wait of part @kt that copy @c let pass, or NULL. */
static const struct tl_wait *tl_woken(const struct tl_dma *d,
				      const struct tl_copy *c, int kt)
{
	uint8_t kind = c->issue->bank == NCSYNC_BANK_EVENT ?
		       NCSYNC_BLOCK_EVENT : NCSYNC_BLOCK_SEM;
	double t = c->land->t;
	size_t lo = 0, hi = d->nw;

	while (lo < hi) {	/* the first that ended at or after @t */
		size_t mid = (lo + hi) / 2;

		if (d->w[mid].end->t < t)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < d->nw; lo++) {
		const struct tl_wait *w = &d->w[lo];

		if ((int)w->part == kt && w->begin->kind == kind &&
		    w->begin->index == c->issue->index && w->begin->t <= t)
			return w;
	}
	return NULL;
}

/* The slot of @engine of part @k (NCSYNC_ENGINE_DMA: its DMA lane). */
static const struct tl_slot *tl_slot_of(const struct tl_layout *lay,
					unsigned int k, unsigned int engine)
{
	unsigned int i;

	for (i = 0; i < lay->n; i++)
		if (lay->slot[i].part == k && lay->slot[i].engine == engine)
			return &lay->slot[i];
	return NULL;
}

/* "sem[10]++ on core 1", the completion of @v. */
static void tl_upd_text(char *buf, size_t len, const struct tev *v)
{
	if (!v->upd)
		snprintf(buf, len, "no completion");
	else if (v->bank == NCSYNC_BANK_EVENT)
		snprintf(buf, len, "ev[%u] set on core %u", v->index, v->to);
	else
		snprintf(buf, len, "sem[%u]++ on core %u", v->index, v->to);
}

/* "core 0 pool record 1, line 29": where copy @c was issued. */
static void tl_issuer(char *buf, size_t len, const struct tl_layout *lay,
		      const struct tl_copy *c)
{
	struct tl_slot sl = { .part = c->part, .engine = c->issue->engine };
	uint32_t line = tl_line(&lay->progs[c->part], c->issue->engine,
				c->issue->pc);
	char name[32];
	int n;

	tl_lane_name(name, sizeof(name), lay, &sl);
	n = snprintf(buf, len, "%s record %u", name, c->issue->pc);
	if (line && n >= 0 && (size_t)n < len)
		snprintf(buf + n, len - n, ", line %u", line);
}

/* A bar of the DMA lane being merged, per row. */
struct dma_bar {
	bool pending;
	double x0, x1;
	const char *col;
	unsigned int count;
	char title[320];
};

static void dma_bar_flush(struct svg *s, struct dma_bar *b, double y)
{
	if (!b->pending)
		return;
	b->pending = false;
	fprintf(s->f, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"%s\" class=\"dma\"><title>",
		b->x0, y, b->x1 - b->x0 < 0.6 ? 0.6 : b->x1 - b->x0,
		DMA_ROW_H - 0.8, b->col);
	xml_text(s->f, b->title);
	if (b->count > 1)
		fprintf(s->f, " (and %u more copies)", b->count - 1);
	fputs("</title></rect>\n", s->f);
}

/* The tooltip of copy @c's bar. */
static void dma_bar_title(char *buf, size_t len, const struct svg *s,
			  const struct tl_layout *lay, const struct tl_copy *c)
{
	char who[80], upd[48];
	const struct tev *v = c->issue;

	tl_issuer(who, sizeof(who), lay, c);
	tl_upd_text(upd, sizeof(upd), v);
	if (!c->land)
		snprintf(buf, len, "%s: copy %u, %u bytes, latency %u us: in flight when the trace ended, then %s",
			 who, v->copy, v->len, v->latency, upd);
	else
		snprintf(buf, len, "%s: copy %u, %u bytes, latency %u us: %s after %.3f ms%s%s",
			 who, v->copy, v->len, v->latency,
			 c->land->landed ? "landed" : "dropped",
			 (c->land->t - v->t) * 1e3,
			 c->land->updated ? ", then " : "",
			 c->land->updated ? upd : "");
}

/* Copy @c on the DMA lane at @y: a bar from its issue to its landing. */
static void dma_bar(struct svg *s, const struct tl_layout *lay,
		    const struct tl_copy *c, double y, struct dma_bar *rows)
{
	double x0 = svg_x(s, c->issue->t);
	double x1 = svg_x(s, c->land ? c->land->t : s->t1);
	const char *col = c->land && c->land->landed ? COL_DMA : COL_LOST;
	struct dma_bar *b = &rows[0];
	unsigned int r;

	/* Merged with a bar it touches; else a row free at x0, or the least busy. */
	for (r = 0; r < DMA_ROWS; r++) {
		if (rows[r].pending && rows[r].col == col &&
		    x0 >= rows[r].x1 - 0.5 && x0 - rows[r].x1 < 1.0) {
			rows[r].x1 = x1 > rows[r].x1 ? x1 : rows[r].x1;
			rows[r].count++;
			return;
		}
		if (!rows[r].pending || rows[r].x1 <= x0) {
			b = &rows[r];
			break;
		}
		if (rows[r].x1 < b->x1)
			b = &rows[r];
	}
	dma_bar_flush(s, b, y + (b - rows) * DMA_ROW_H);
	*b = (struct dma_bar){ .pending = true, .x0 = x0, .x1 = x1,
			       .col = col, .count = 1 };
	dma_bar_title(b->title, sizeof(b->title), s, lay, c);
}

/* The DMA lane of slot @sl: its copies, and how many. */
static void svg_dma_lane(struct svg *s, const struct tl_dma *d,
			 const struct tl_layout *lay, const struct tl_slot *sl)
{
	struct dma_bar rows[DMA_ROWS] = { 0 };
	unsigned long n = 0, landed = 0;
	char name[32];
	size_t i;
	int r;

	tl_lane_name(name, sizeof(name), lay, sl);
	svg_lane_box(s, name, sl->y);
	for (i = 0; i < d->nc; i++) {
		if (d->c[i].part != sl->part)
			continue;
		dma_bar(s, lay, &d->c[i], sl->y, rows);
		n++;
		landed += d->c[i].land && d->c[i].land->landed;
	}
	for (r = 0; r < DMA_ROWS; r++)
		dma_bar_flush(s, &rows[r], sl->y + r * DMA_ROW_H);
	fprintf(s->f, "<text x=\"%d\" y=\"%.1f\" fill=\"#555\">%lu copies, %lu landed</text>\n",
		SVG_W - SVG_RIGHT + 6, sl->y + LANE_H / 2.0, n, landed);
}

/* An arrow being merged with those that start within 2 pixels of it. */
struct arrow {
	bool pending;
	double x0, y0, x1, y1;
	unsigned int count;
	char title[512];
};

static void arrow_flush(struct svg *s, struct arrow *a)
{
	if (!a->pending)
		return;
	a->pending = false;
	fprintf(s->f, "<line x1=\"%.2f\" y1=\"%.1f\" x2=\"%.2f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"1.2\" marker-end=\"url(#xcore)\" class=\"xcore\"><title>",
		a->x0, a->y0, a->x1, a->y1, COL_ARROW);
	xml_text(s->f, a->title);
	if (a->count > 1)
		fprintf(s->f, " (and %u more signals)", a->count - 1);
	fputs("</title></line>\n", s->f);
}

/* The tooltip of the arrow of copy @c to wait @w (NULL: none). */
static void arrow_title(char *buf, size_t len, const struct tl_layout *lay,
			const struct tl_copy *c, const struct tl_wait *w)
{
	struct tl_slot sl;
	char who[80], upd[48], name[32], what[40];
	const char *owner;
	uint32_t line;

	tl_issuer(who, sizeof(who), lay, c);
	tl_upd_text(upd, sizeof(upd), c->issue);
	if (!w) {
		snprintf(buf, len, "%s: copy %u landed: %s, which no engine there waited for",
			 who, c->issue->copy, upd);
		return;
	}
	sl = (struct tl_slot){ .part = w->part, .engine = w->begin->engine };
	tl_lane_name(name, sizeof(name), lay, &sl);
	line = tl_line(&lay->progs[w->part], w->begin->engine, w->begin->pc);
	describe_wait(what, sizeof(what), w->begin->kind, w->begin->mode,
		      w->begin->index, w->begin->threshold);
	owner = lay->progs[w->part].prog ?
		ncsync_program_owner(lay->progs[w->part].prog,
				     c->issue->bank, c->issue->index) : NULL;
	snprintf(buf, len, "%s: copy %u landed: %s, where %s record %u%s%.0u waited for %s%s%s%s: passed %.3f ms later",
		 who, c->issue->copy, upd, name, w->begin->pc,
		 line ? ", line " : "", line, what,
		 owner ? ", barrier (" : "", owner ? owner : "",
		 owner ? ")" : "", (w->end->t - c->land->t) * 1e3);
}

/* The arrow of the cross-core copy @c. */
static void svg_arrow(struct svg *s, const struct tl_dma *d,
		      const struct tl_layout *lay, const struct tl_copy *c,
		      struct arrow *a)
{
	int kt = tl_part_on(lay, c->issue->to);
	const struct tl_wait *w = tl_woken(d, c, kt);
	const struct tl_slot *from = tl_slot_of(lay, c->part,
						NCSYNC_ENGINE_DMA);
	const struct tl_slot *to = w ? tl_slot_of(lay, kt, w->begin->engine) :
				   tl_slot_of(lay, kt, NCSYNC_ENGINE_DMA);
	double x0 = svg_x(s, c->land->t), mid = (LANE_H - 8) / 2.0;
	double y0, y1;

	if (!to) {
		unsigned int i;

		for (i = 0; i < lay->n && !to; i++)
			if ((int)lay->slot[i].part == kt)
				to = &lay->slot[i];
	}
	if (!from || !to)
		return;
	y0 = from->y + mid;
	y1 = to->y + (to->y > from->y ? 0 : LANE_H - 8);
	if (a->pending && a->y0 == y0 && a->y1 == y1 && x0 - a->x0 < 2) {
		a->count++;
		return;
	}
	arrow_flush(s, a);
	*a = (struct arrow){ .pending = true, .x0 = x0, .y0 = y0, .y1 = y1,
			     .x1 = svg_x(s, w ? w->end->t : c->land->t),
			     .count = 1 };
	arrow_title(a->title, sizeof(a->title), lay, c, w);
}

/* The DMA lanes of @lay, then the arrows of the cross-core signals. */
int svg_dma(struct svg *s, const struct timeline *tl,
	    const struct tl_layout *lay)
{
	struct tl_dma d = { 0 };
	struct arrow a = { 0 };
	unsigned int i;
	int ret;

	ret = tl_copies(&d, tl, lay);
	if (!ret)
		ret = tl_waits(&d, tl, lay);
	if (ret)
		goto out;
	for (i = 0; i < lay->n; i++)
		if (lay->slot[i].engine == NCSYNC_ENGINE_DMA)
			svg_dma_lane(s, &d, lay, &lay->slot[i]);
	fprintf(s->f, "<defs><marker id=\"xcore\" viewBox=\"0 0 8 8\" refX=\"8\" refY=\"4\" markerWidth=\"7\" markerHeight=\"7\" orient=\"auto\"><path d=\"M0,0 L8,4 L0,8 z\" fill=\"%s\"/></marker></defs>\n",
		COL_ARROW);
	for (i = 0; i < d.nc; i++)
		if (tl_cross(lay, &d.c[i]))
			svg_arrow(s, &d, lay, &d.c[i], &a);
	arrow_flush(s, &a);
out:
	free(d.c);
	free(d.w);
	return ret;
}

/* The legend's second row, under the first at @y: copies and signals. */
void svg_dma_legend(struct svg *s, double y)
{
	double x = SVG_LEFT;

	fprintf(s->f, "<rect x=\"%.0f\" y=\"%.0f\" width=\"14\" height=\"12\" fill=\"%s\"/>\n"
		"<text x=\"%.0f\" y=\"%.0f\">a DMA copy, issued to landed (red: dropped or still in flight)</text>\n",
		x, y, COL_DMA, x + 19, y + 10);
	x += 460;
	fprintf(s->f, "<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" stroke=\"%s\" stroke-width=\"1.2\" marker-end=\"url(#xcore)\"/>\n"
		"<text x=\"%.0f\" y=\"%.0f\">a copy's completion on another core</text>\n",
		x, y + 6, x + 16, y + 6, COL_ARROW, x + 22, y + 10);
}
