// SPDX-License-Identifier: GPL-2.0
/*
 * ncsync(1): cores: opening /dev/ncsyncN with the message that says why
 * not, the logical core of a core, and reading a core's banks.
 */
#include <errno.h>
#include <grp.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "device.h"
#include "opts.h"

/*
 * A refused open: say what the node allows and which group to join, as
 * packaging/60-ncsync.rules makes the nodes (group "ncsync", mode 0660).
 */
static int open_denied(unsigned int core, bool writable, int ret)
{
	char path[32];
	struct group *gr;
	struct stat st;

	snprintf(path, sizeof(path), "/dev/ncsync%u", core);
	if (stat(path, &st))
		return fail_err(ret, "open %s", path);
	gr = getgrgid(st.st_gid);
	if (writable && !(st.st_mode & 0222))
		return fail_msg("open %s: %s (mode %04o: writable by nobody; this command changes the core)",
				path, strerror(-ret), st.st_mode & 07777);
	return fail_msg("open %s: %s (mode %04o, group '%s': join the group, e.g. 'usermod -aG %s $USER', and log in again%s)",
			path, strerror(-ret), st.st_mode & 07777,
			gr ? gr->gr_name : "?", gr ? gr->gr_name : "GROUP",
			writable ? "; this command needs write access" : "");
}

int open_core_at(unsigned int core, bool writable, struct ncsync_dev **devp)
{
	int ret = ncsync_open(core, writable, devp);

	if (ret == -ENOENT)
		return fail_msg("open /dev/ncsync%u: %s%s", core,
				strerror(ENOENT),
				access("/sys/module/ncsync", F_OK) ?
				" (module not loaded: ncsync load)" :
				" (no such core)");
	if (ret == -EACCES || ret == -EPERM)
		return open_denied(core, writable, ret);
	if (ret)
		return fail_err(ret, "open /dev/ncsync%u", core);
	return 0;
}

int open_core(bool writable, struct ncsync_dev **devp)
{
	return open_core_at(opt_core, writable, devp);
}

int logical_core_of(unsigned int core, struct lcore *lc)
{
	const struct ncsync_info *in;
	struct ncsync_dev *dev;
	int ret;

	ret = open_core_at(core, false, &dev);
	if (ret)
		return ret;
	in = ncsync_get_info(dev);
	lc->lnc = in->lnc ? in->lnc : 1;
	lc->index = core / lc->lnc;
	lc->first = core - core % lc->lnc;
	ncsync_close(dev);
	return 0;
}

void read_banks(struct ncsync_dev *dev, struct banks *b)
{
	unsigned int i;

	for (i = 0; i < NCSYNC_NUM_SEMS; i++)
		b->sems[i] = ncsync_sem_read(dev, i);
	for (i = 0; i < NCSYNC_NUM_EVENTS; i++)
		b->events[i] = ncsync_event_read(dev, i);
}

unsigned int nonzero_sems(const struct banks *b,
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

unsigned int count_events(const bool *ev)
{
	unsigned int i, n = 0;

	for (i = 0; i < NCSYNC_NUM_EVENTS; i++)
		n += ev[i];
	return n;
}
