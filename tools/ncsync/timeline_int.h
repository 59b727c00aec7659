/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ncsync(1): what timeline.c (the trace, the engines' lanes) and
 * timeline_dma.c (the DMA lanes, the arrows of cross-core signals) share.
 */
#ifndef NCSYNC_TIMELINE_INT_H
#define NCSYNC_TIMELINE_INT_H

#include "timeline.h"

enum tev_type {
	TEV_EXEC, TEV_WAIT_BEGIN, TEV_WAIT_END, TEV_DMA_ISSUE, TEV_DMA_LAND,
};

/**
 * struct tev - one traced event (Documentation/ncsync/tracing.rst).
 * @t: its time, seconds of the trace clock.
 * @type: enum tev_type.
 * @engine: the engine; of a DMA event, the copy's issuer.
 * @kind: wait_begin: what it waits on (NCSYNC_BLOCK_*).
 * @mode: wait_begin: the wait's mode.
 * @index: wait_begin: the semaphore or event; dma_issue: the completion's.
 * @passed: wait_end: the wait passed.
 * @bank: dma_issue: the completion's bank (NCSYNC_BANK_*).
 * @upd: dma_issue: the copy has a completion.
 * @landed: dma_land: the bytes landed (0: the copy was dropped).
 * @updated: dma_land: the completion was applied.
 * @core: the core (/dev/ncsyncN); of a DMA event, the issuer's.
 * @prog: the program's id on @core.
 * @pc: the record; of dma_land, none (0).
 * @threshold: wait_begin: the value compared with.
 * @current: wait_begin: the value when the engine blocked.
 * @copy: DMA events: the copy's number in its issuer's queue.
 * @len: dma_issue: bytes.
 * @latency: dma_issue: microseconds.
 * @to: DMA events: the core the completion applies to.
 */
struct tev {
	double t;
	uint8_t type;
	uint8_t engine;
	uint8_t kind;
	uint8_t mode;
	uint8_t index;
	bool passed;
	uint8_t bank;
	bool upd;
	bool landed;
	bool updated;
	uint32_t core;
	uint32_t prog;
	uint32_t pc;
	int32_t threshold;
	int32_t current;
	uint32_t copy;
	uint32_t len;
	uint32_t latency;
	uint32_t to;
};

/**
 * struct timeline - a run's trace.
 * @dir: its tracefs instance.
 * @stopped: the trace was read.
 * @created: @dir was made by us (removed by timeline_free()).
 * @lost: events the trace says it lost.
 * @ev: the events, in time order.
 * @nev: entries of @ev.
 * @cap: room in @ev.
 */
struct timeline {
	char dir[128];
	bool stopped;
	bool created;
	unsigned long long lost;
	struct tev *ev;
	size_t nev, cap;
};

#define SVG_W		1000
#define SVG_LEFT	120
#define SVG_RIGHT	110
#define SVG_TOP		56
#define LANE_H		30
#define LANE_GAP	12

/**
 * struct svg - the picture being written.
 * @f: where.
 * @t0: the time at the left of the lanes, seconds.
 * @t1: at the right.
 * @scale: pixels per second.
 * @pending: a wait's rectangle not written yet, for merging (svg_wait()).
 * @x0: its left.
 * @x1: its right.
 * @y: its lane.
 * @col: its colour.
 * @count: the waits merged into it.
 * @title: its tooltip.
 * @label: its text, when it fits.
 */
struct svg {
	FILE *f;
	double t0, t1;
	double scale;
	bool pending;
	double x0, x1, y;
	const char *col;
	unsigned int count;
	char title[256];
	char label[40];
};

/**
 * struct tl_slot - a lane of the picture.
 * @part: the index of its program in the timeline's tl_prog array.
 * @engine: its engine; NCSYNC_ENGINE_DMA: the part's DMA lane.
 * @y: its top.
 */
struct tl_slot {
	unsigned int part;
	unsigned int engine;
	double y;
};

/**
 * struct tl_layout - the lanes, top down: for each part its engines', then
 *	its DMA lane when it issued copies.
 * @progs: the parts.
 * @np: entries of @progs.
 * @by_core: lanes are named by core ("core 1 pool").
 * @n: entries of @slot.
 * @slot: the lanes.
 */
struct tl_layout {
	const struct tl_prog *progs;
	unsigned int np;
	bool by_core;
	unsigned int n;
	struct tl_slot slot[NCSYNC_MAX_LNC * (MAX_ENGINE_ID + 1)];
};

static inline double svg_x(const struct svg *s, double t)
{
	return SVG_LEFT + (t - s->t0) * s->scale;
}

/* Whether @v is of an engine's lane: a record or a wait. */
static inline bool tev_of_lane(const struct tev *v)
{
	return v->type <= TEV_WAIT_END;
}

void xml_text(FILE *f, const char *s);
void svg_lane_box(struct svg *s, const char *name, double y);
int tl_prog_of(const struct tl_prog *progs, unsigned int n,
	       const struct tev *v);
void tl_lane_name(char *buf, size_t len, const struct tl_layout *lay,
		  const struct tl_slot *sl);
uint32_t tl_line(const struct tl_prog *p, unsigned int engine, uint32_t pc);
bool tl_part_dma(const struct timeline *tl, const struct tl_prog *p);
int svg_dma(struct svg *s, const struct timeline *tl,
	    const struct tl_layout *lay);
void svg_dma_legend(struct svg *s, double y);

#endif /* NCSYNC_TIMELINE_INT_H */
