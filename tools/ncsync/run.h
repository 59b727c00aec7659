/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ncsync(1): ncsync run, shared by cmd_run.c, cores.c (a program across
 * the cores of a logical core) and run_report.c (the report).
 */
#ifndef NCSYNC_RUN_H
#define NCSYNC_RUN_H

#include "device.h"
#include "timeline.h"

struct run_opts {
	uint32_t timeout;	/* UINT32_MAX: none */
	uint32_t watchdog;	/* 0: the module's */
	bool strict;
	bool conformance;
	const char *timeline;
	enum ncsync_barrier_lowering lowering;
	bool check;
};

/**
 * struct run_part - the part of a program across cores on one core.
 * @core: the core, /dev/ncsyncN.
 * @pos: its position in the logical core, the text's "core N".
 * @dev: its descriptor, opened for the run (the run's own for -c's core).
 * @prog: its program, finalized.
 * @have_live: @live holds its engines as the cancel found them.
 * @live: ... and @live_sems its non-zero semaphores then.
 * @st: its final status; the state is the whole program's.
 * @sems: its non-zero semaphores at the end.
 */
struct run_part {
	unsigned int core;
	unsigned int pos;
	struct ncsync_dev *dev;
	struct ncsync_program *prog;
	bool have_live;
	struct ncsync_prog_status live;
	struct ncsync_sem_value live_sems[NCSYNC_NUM_SEMS];
	struct ncsync_prog_status st;
	struct ncsync_sem_value sems[NCSYNC_NUM_SEMS];
};

/* One run: its options, its program and what came of it. */
struct run {
	const struct cmd *cmd;
	struct run_opts o;
	unsigned int given;	/* bit per RO_*: the option was given */
	char *opts_line;	/* the file's "# options:" words point here */
	const char *path;
	char *text;
	size_t len;
	struct ncsync_dev *dev;		/* the core of -c */
	struct ncsync_program *prog;
	struct timeline *tl;
	uint32_t id;
	uint32_t watchdog;
	int64_t elapsed_ns;
	const char *why;	/* why we cancelled it */
	const char *timeline;	/* the timeline written */
	bool timeline_created;	/* timeline_probe() created the file */
	/* The engines as the cancel found them, when it did. */
	bool have_live;
	struct ncsync_prog_status live;
	struct ncsync_sem_value live_sems[NCSYNC_NUM_SEMS];
	/* The final status. */
	struct ncsync_prog_status st;
	struct ncsync_sem_value sems[NCSYNC_NUM_SEMS];
	/* A program across cores (cores.c): its parts, by position. */
	struct lcore lc;
	struct run_part *parts;
	unsigned int nparts;	/* 0: a program of one core, @prog */
	unsigned int sub;	/* the part submitted on; its @dev */
};

/*
 * run_report.c: the report of a program of one core, @st and @sems the
 * status to show of it; of a program across cores.
 */
void run_core_report(const struct run *run,
		     const struct ncsync_prog_status *st,
		     const struct ncsync_sem_value *sems);
void cores_report(const struct run *run);

/* cores.c */
/* Take the @n parts @parts built, check and open their cores. */
int cores_open(struct run *run, const struct ncsync_asm_part *parts,
	       unsigned int n);
void cores_close(struct run *run);
int cores_submit(struct run *run, uint32_t flags);
/* Every part's status: as the cancel finds it (@live), or the final. */
int cores_status(struct run *run, bool live);
int cores_timeline(struct run *run, const char *title);

#endif /* NCSYNC_RUN_H */
