// SPDX-License-Identifier: GPL-2.0
/*
 * ncsync: the memory charge of programs, in one place.
 *
 * Every byte a program holds is charged here, and given back here: to the
 * descriptor that submitted it (ncsync_file.mem, capped by fd_mem_mb) and
 * to the user who opened that descriptor and the module
 * (ncsync_user_charge(), capped by user_mem_mb and total_mem_mb).  What is
 * charged is what the allocators hold (ncsync_kv_held()): the program's
 * state, its snapshot and its decoded records at submission, then each DMA
 * ring and a program across cores' group as they are allocated.  The
 * decoded records' part goes back when the program ends, the rest of the
 * descriptor's charge when the descriptor forgets the program, the rest of
 * the user's when the program is freed (Documentation/ncsync/security.rst,
 * "Every allocation a user can cause").
 */
#include <linux/overflow.h>
#include <linux/spinlock.h>

#include "ncsync_drv.h"

/**
 * ncsync_insns_size() - the bytes of decoded records.
 * @count: the records.
 *
 * Return: the size of the array of @count decoded records.
 */
size_t ncsync_insns_size(u32 count)
{
	return array_size(count, sizeof(struct ncsync_insn));
}

/**
 * ncsync_charge_prog_size() - what a program holds at submission.
 * @uqs: its queues, checked (ncsync_queues_check()).
 * @nq: entries of @uqs.
 * @insn_mem: out: the part its decoded records hold.
 *
 * What the allocators hold (ncsync_kv_held()) for its state and queues,
 * its snapshot and its decoded records; the DMA rings and a group come
 * later (ncsync_charge_more()).
 *
 * Return: the bytes.
 */
size_t ncsync_charge_prog_size(const struct ncsync_queue *uqs, u32 nq,
			       size_t *insn_mem)
{
	struct ncsync_prog *prog;
	u32 i;

	*insn_mem = 0;
	for (i = 0; i < nq; i++)
		*insn_mem += ncsync_kv_held(ncsync_insns_size(uqs[i].count));
	return *insn_mem + ncsync_kmalloc_held(struct_size(prog, q, nq)) +
	       ncsync_snapshot_held();
}

/*
 * Charge @c @mem bytes more, for a program of @nfile: check the
 * descriptor's cap with what @c already holds (not yet on the
 * descriptor), then charge the user and the module.  0, or -ENOMEM with
 * nothing charged.
 */
static int ncsync_charge_add(struct ncsync_charge *c,
			     struct ncsync_file *nfile, size_t mem)
{
	size_t cap = (size_t)ncsync_fd_mem_mb << 20;
	int ret;

	spin_lock(&nfile->core->prog_lock);
	ret = nfile->mem + c->mem + mem > cap ? -ENOMEM : 0;
	spin_unlock(&nfile->core->prog_lock);
	if (!ret)
		ret = ncsync_user_charge(c->user, mem);
	if (ret)
		return ret;
	c->mem += mem;
	c->user_mem += mem;
	return 0;
}

/**
 * ncsync_charge_begin() - charge what a program will hold, before it is
 *	allocated or any record read.
 * @c: out: the charge, to copy into the program once allocated.
 * @nfile: the descriptor that submits it.
 * @mem: the bytes (ncsync_charge_prog_size()).
 * @insn_mem: the part of @mem its decoded records hold.
 *
 * Return: 0, with a reference on the user; or -ENOMEM when the program
 * would take the descriptor past fd_mem_mb, the user past user_mem_mb or
 * all users past total_mem_mb, with nothing charged.
 */
int ncsync_charge_begin(struct ncsync_charge *c, struct ncsync_file *nfile,
			size_t mem, size_t insn_mem)
{
	int ret;

	*c = (struct ncsync_charge){ .user = nfile->user };
	ret = ncsync_charge_add(c, nfile, mem);
	if (ret) {
		c->user = NULL;
		return ret;
	}
	c->insn_mem = insn_mem;
	c->user = ncsync_user_ref(nfile->user);
	return 0;
}

/**
 * ncsync_charge_more() - charge a program @mem bytes more.
 * @prog: the program, not queued yet.
 * @mem: the bytes.
 *
 * Charges @prog's user and checks the descriptor's cap, so that a refusal
 * comes before the memory is allocated.  The charge goes with the program.
 *
 * Return: 0, or -ENOMEM with nothing charged.
 */
int ncsync_charge_more(struct ncsync_prog *prog, size_t mem)
{
	return ncsync_charge_add(&prog->charge, prog->nfile, mem);
}

/**
 * ncsync_charge_file_check_locked() - whether a program still fits its
 *	descriptor as it is queued.
 * @prog: the program; its core's prog_lock held.
 *
 * Return: 0, or -ENOMEM when it would take the descriptor past fd_mem_mb.
 */
int ncsync_charge_file_check_locked(struct ncsync_prog *prog)
{
	struct ncsync_file *nfile = prog->nfile;

	lockdep_assert_held(&nfile->core->prog_lock);
	if (nfile->mem + prog->charge.mem > (size_t)ncsync_fd_mem_mb << 20)
		return -ENOMEM;
	return 0;
}

/**
 * ncsync_charge_file_add_locked() - a program is queued: its descriptor
 *	holds its memory.
 * @prog: the program; its core's prog_lock held.
 */
void ncsync_charge_file_add_locked(struct ncsync_prog *prog)
{
	lockdep_assert_held(&prog->core->prog_lock);
	prog->nfile->mem += prog->charge.mem;
}

/**
 * ncsync_charge_insns_end_locked() - a program ended (or was taken back
 *	before it started): give its decoded records' part back to the
 *	descriptor and the user.
 * @prog: the program; its core's prog_lock held.
 */
void ncsync_charge_insns_end_locked(struct ncsync_prog *prog)
{
	struct ncsync_charge *c = &prog->charge;

	lockdep_assert_held(&prog->core->prog_lock);
	prog->nfile->mem -= c->insn_mem;
	c->user_mem -= c->insn_mem;
	ncsync_user_uncharge(c->user, c->insn_mem);
}

/**
 * ncsync_charge_file_forget_locked() - the descriptor forgets a program:
 *	the rest of the program's charge to it goes back.
 * @prog: the program, ended; its core's prog_lock held.
 */
void ncsync_charge_file_forget_locked(struct ncsync_prog *prog)
{
	lockdep_assert_held(&prog->core->prog_lock);
	prog->nfile->mem -= prog->charge.mem - prog->charge.insn_mem;
}

/**
 * ncsync_charge_end() - give back what is still charged to the user and
 *	drop the reference on it: the program is freed, or its allocation
 *	failed.
 * @c: the charge; nothing to do when it never began.
 */
void ncsync_charge_end(struct ncsync_charge *c)
{
	if (!c->user)
		return;
	ncsync_user_uncharge(c->user, c->user_mem);
	ncsync_user_put(c->user);
	c->user = NULL;
}
