// SPDX-License-Identifier: GPL-2.0
/*
 * ncsync: the descriptors of other cores a submission names
 * (struct ncsync_submit.fds, Documentation/ncsync/security.rst, "Other
 * cores").
 *
 * A submission changes only cores its submitter holds a descriptor open
 * for writing of: its own, through the submitting descriptor, and every
 * other one, through a descriptor it passes in @fds.  That covers the
 * cores a program across cores runs on (NCSYNC_SUBMIT_F_CORES) and the
 * cores the completions of its DMA records land on (NCSYNC_DMA_F_PEER),
 * with or without the flag.  The kernel takes each descriptor with
 * fget() for the time of the submission and reads the access it was
 * opened with, as it does for a pwrite(): whoever holds such a
 * descriptor, however it got it (open(2), dup(2), fork(2), SCM_RIGHTS),
 * may pass it.  The check is made once, at submission, as open(2) checks
 * the mode once: closing the descriptor afterwards does not stop the
 * program (the submitting descriptor's close does, as always).
 */
#include <linux/file.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "ncsync_drv.h"

/* The position of a core in its logical core. */
static u32 ncsync_core_pos(const struct ncsync_core *core)
{
	return core->index - core->lnc_first->index;
}

/*
 * Check one descriptor: an ncsync descriptor (EINVAL), of the submitter's
 * logical core (EXDEV), of a core other than the submitter's and not
 * given twice (EINVAL), open for writing (EACCES).
 */
static int ncsync_fds_check_one(struct ncsync_fds *fds,
				struct ncsync_file *nfile, struct file *f)
{
	struct ncsync_file *pn;
	u32 pos;

	if (f->f_op != nfile->file->f_op)	/* not of this module */
		return -EINVAL;
	pn = f->private_data;
	if (pn->core->lnc_first != nfile->core->lnc_first)
		return -EXDEV;
	pos = ncsync_core_pos(pn->core);
	if (fds->named & BIT_ULL(pos))
		return -EINVAL;
	if (!pn->writable)
		return -EACCES;
	fds->nfiles[pos] = pn;
	fds->named |= BIT_ULL(pos);
	return 0;
}

/**
 * ncsync_fds_take() - take and check the descriptors a submission names.
 * @fds: zeroed; filled with the submitter's descriptor and each other one.
 * @nfile: the submitting descriptor, open for writing.
 * @sub: the request: @sub->fds and @sub->nfds.
 *
 * Return: 0; -EINVAL for @sub->nfds of lnc or more, a descriptor not of
 * ncsync, of the submitter's core or given twice; -EFAULT when the array
 * cannot be read; -EBADF for a descriptor that is not open; -EXDEV for one
 * of another logical core; -EACCES for one not open for writing.  The
 * caller calls ncsync_fds_put() in any case.
 */
int ncsync_fds_take(struct ncsync_fds *fds, struct ncsync_file *nfile,
		    const struct ncsync_submit *sub)
{
	s32 *ufds;
	u32 i;
	int ret = 0;

	fds->own = ncsync_core_pos(nfile->core);
	fds->nfiles[fds->own] = nfile;
	fds->named = BIT_ULL(fds->own);
	if (sub->nfds >= ncsync_lnc)
		return -EINVAL;
	if (!sub->nfds)
		return 0;
	ufds = memdup_user(u64_to_user_ptr(sub->fds),
			   array_size(sub->nfds, sizeof(*ufds)));
	if (IS_ERR(ufds))
		return PTR_ERR(ufds);
	for (i = 0; i < sub->nfds && !ret; i++) {
		struct file *f = fget(ufds[i]);

		if (!f) {
			ret = -EBADF;
			break;
		}
		fds->files[fds->ntaken++] = f;
		ret = ncsync_fds_check_one(fds, nfile, f);
	}
	kfree(ufds);
	return ret;
}

/**
 * ncsync_fds_put() - put the files ncsync_fds_take() took.
 * @fds: the descriptors; the submission is done with them.
 */
void ncsync_fds_put(struct ncsync_fds *fds)
{
	u32 i;

	for (i = 0; i < fds->ntaken; i++)
		fput(fds->files[i]);
	fds->ntaken = 0;
}

/**
 * ncsync_fds_lands_check() - whether the submitter may change every core
 *	a program's completions land on.
 * @fds: the descriptors named, the submitter's included.
 * @prog: a decoded program (a member, for a program across cores).
 *
 * Return: 0, or -EACCES when a completion lands on a core with no
 * descriptor named.
 */
int ncsync_fds_lands_check(const struct ncsync_fds *fds,
			   const struct ncsync_prog *prog)
{
	return prog->lnc.lands & ~fds->named ? -EACCES : 0;
}

/**
 * ncsync_fds_used_check() - whether every descriptor named is used.
 * @fds: the descriptors named, the submitter's included.
 * @used: bit p set for a core the program runs on or lands on.
 *
 * Return: 0, or -EINVAL for a descriptor of a core the program neither
 * runs on nor lands a completion on.
 */
int ncsync_fds_used_check(const struct ncsync_fds *fds, u64 used)
{
	return fds->named & ~(used | BIT_ULL(fds->own)) ? -EINVAL : 0;
}
