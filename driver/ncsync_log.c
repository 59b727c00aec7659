// SPDX-License-Identifier: GPL-2.0
/*
 * ncsync: the rate limit of the kernel log messages userspace can cause.
 *
 * A program that times out writes a report of several lines to the kernel
 * log (ncsync_snapshot.c).  Reports are limited module-wide to a burst of
 * NCSYNC_LOG_BURST every NCSYNC_LOG_INTERVAL; each report left out is
 * counted in its core's stats.log_suppressed (NCSYNC_IOC_STATS, debugfs).
 */
#include <linux/ratelimit.h>

#include "ncsync_drv.h"

#define NCSYNC_LOG_INTERVAL	(5 * HZ)
#define NCSYNC_LOG_BURST	10

/* Shared by every core: one process with many cores must not multiply it. */
static DEFINE_RATELIMIT_STATE(ncsync_log_rs, NCSYNC_LOG_INTERVAL,
			      NCSYNC_LOG_BURST);
/*
 * Serializes the callers of __ratelimit() on ncsync_log_rs, which drops a
 * message when its own lock is contended: two cores whose members of one
 * program time out at once must both report within the burst.
 */
static DEFINE_SPINLOCK(ncsync_log_lock);

/**
 * ncsync_log_allowed() - whether a report of a core may be logged now.
 * @core: the core; no lock held.
 *
 * Return: true to log it; false when the rate limit leaves it out, which
 * is counted.
 */
bool ncsync_log_allowed(struct ncsync_core *core)
{
	bool ok;

	spin_lock(&ncsync_log_lock);
	ok = __ratelimit(&ncsync_log_rs);
	spin_unlock(&ncsync_log_lock);
	if (ok)
		return true;
	spin_lock(&core->lock);
	core->stats.log_suppressed++;
	spin_unlock(&core->lock);
	return false;
}
