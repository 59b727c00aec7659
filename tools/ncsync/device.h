/* SPDX-License-Identifier: GPL-2.0 */
/* ncsync(1): cores (device.c): opening them, logical cores, banks. */
#ifndef NCSYNC_DEVICE_H
#define NCSYNC_DEVICE_H

#include "tool.h"

/* Open the core of -c, or @core; prints the error.  Return 0 or EXIT_FAIL. */
int open_core(bool writable, struct ncsync_dev **devp);
int open_core_at(unsigned int core, bool writable, struct ncsync_dev **devp);

/**
 * struct lcore - a logical core (module parameter lnc).
 * @index: its number: core / lnc.
 * @first: its first core.
 * @lnc: its cores, consecutive from @first; 1 when cores are not fused.
 */
struct lcore {
	unsigned int index;
	unsigned int first;
	unsigned int lnc;
};

/* The logical core of @core, from its NCSYNC_IOC_INFO; 0 or EXIT_FAIL. */
int logical_core_of(unsigned int core, struct lcore *lc);

/**
 * struct banks - a core's banks, read through its read-only mapping.
 * @sems: every semaphore's value.
 * @events: every event's state.
 */
struct banks {
	int32_t sems[NCSYNC_NUM_SEMS];
	bool events[NCSYNC_NUM_EVENTS];
};

void read_banks(struct ncsync_dev *dev, struct banks *b);
/* The non-zero semaphores of @b into @out; how many. */
unsigned int nonzero_sems(const struct banks *b,
			  struct ncsync_sem_value *out);
/* How many of the @ev are set. */
unsigned int count_events(const bool *ev);

#endif /* NCSYNC_DEVICE_H */
