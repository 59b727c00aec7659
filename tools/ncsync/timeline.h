/* SPDX-License-Identifier: GPL-2.0 */
/* ncsync(1): run --timeline (timeline.c). */
#ifndef NCSYNC_TIMELINE_H
#define NCSYNC_TIMELINE_H

#include "tool.h"

struct timeline;

int timeline_probe(const char *path, bool *created);
/**
 * struct tl_prog - a program's lanes in a timeline.
 * @core: its core.
 * @id: its id on that core (a member's, for a program across cores).
 * @engine_mask: its engines, a lane each.
 * @prog: the program: the text line of each record, and what its
 *	barriers' lowering owns (a wait on it is a barrier's).
 */
struct tl_prog {
	unsigned int core;
	uint32_t id;
	unsigned int engine_mask;
	const struct ncsync_program *prog;
};

/* Trace the events of the @n @cores. */
int timeline_start(const unsigned int *cores, unsigned int n,
		   struct timeline **tlp);
int timeline_stop(struct timeline *tl);
/*
 * The events of a recorded trace, the text of tracefs's "trace" file
 * (Documentation/ncsync/tracing.rst) at @path, to draw with
 * timeline_write_svg(); 0 or EXIT_FAIL, with the message printed.
 */
int timeline_load(const char *path, struct timeline **tlp);
/* The lanes of @progs, named by core when @by_core. */
int timeline_write_svg(struct timeline *tl, const struct tl_prog *progs,
		       unsigned int np, bool by_core, const char *title,
		       const char *path);
void timeline_free(struct timeline *tl);

#endif /* NCSYNC_TIMELINE_H */
