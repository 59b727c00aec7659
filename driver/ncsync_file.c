// SPDX-License-Identifier: GPL-2.0
/*
 * ncsync: the file operations of /dev/ncsyncN: the CSR window through
 * pread/pwrite and a read-only mapping, poll() and close.
 */
#include <linux/module.h>
#include <linux/poll.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "ncsync_drv.h"

static int ncsync_open(struct inode *inode, struct file *file)
{
	struct ncsync_core *core = container_of(inode->i_cdev,
						struct ncsync_core, cdev);
	struct ncsync_file *nfile;

	nfile = kzalloc(sizeof(*nfile), GFP_KERNEL_ACCOUNT);
	if (!nfile)
		return -ENOMEM;
	nfile->user = ncsync_user_get(file->f_cred->uid);
	if (!nfile->user) {
		kfree(nfile);
		return -ENOMEM;
	}
	nfile->core = core;
	nfile->file = file;
	nfile->writable = file->f_mode & FMODE_WRITE;
	init_waitqueue_head(&nfile->poll_wq);
	INIT_LIST_HEAD(&nfile->armed_node);
	INIT_LIST_HEAD(&nfile->waiters);
	INIT_LIST_HEAD(&nfile->progs);
	nfile->next_id = 1;
	spin_lock(&core->lock);
	WRITE_ONCE(nfile->seen_seq, atomic64_read(&core->seq));
	ncsync_poll_arm_locked(nfile);
	spin_unlock(&core->lock);
	file->private_data = nfile;
	return 0;
}

/* Every close(): end the closing process's waits on this descriptor. */
static int ncsync_flush(struct file *file, fl_owner_t id)
{
	ncsync_flush_waiters(file->private_data, id);
	return 0;
}

static int ncsync_release(struct inode *inode, struct file *file)
{
	struct ncsync_file *nfile = file->private_data;

	struct ncsync_core *core = nfile->core;

	ncsync_progs_release_file(nfile);
	WARN_ON_ONCE(!list_empty(&nfile->waiters));
	spin_lock(&core->lock);
	list_del(&nfile->armed_node);
	spin_unlock(&core->lock);
	ncsync_user_put(nfile->user);
	kfree(nfile);
	return 0;
}

/*
 * read(2)/pread(2): the file offset is the CSR address.
 * Errors: EINVAL for a misaligned access, a length that is not a multiple of
 * 4 or an access outside the window; EFAULT when the buffer cannot be
 * written.
 */
static ssize_t ncsync_read(struct file *file, char __user *ubuf, size_t len,
			   loff_t *ppos)
{
	struct ncsync_file *nfile = file->private_data;
	u32 small[8], *kbuf = small;
	ssize_t ret = len;

	if (!len)
		return 0;
	if (*ppos < 0 || !ncsync_csr_access_ok(*ppos, len))
		return -EINVAL;

	/* Reads of a few registers need no allocation, as writes. */
	if (len > sizeof(small)) {
		kbuf = kmalloc(len, GFP_KERNEL_ACCOUNT);
		if (!kbuf)
			return -ENOMEM;
	}
	ncsync_csr_read(nfile->core, *ppos, kbuf, len / NCSYNC_CSR_REG_SIZE);
	if (copy_to_user(ubuf, kbuf, len))
		ret = -EFAULT;
	else
		*ppos += len;
	if (kbuf != small)
		kfree(kbuf);
	return ret;
}

/*
 * write(2)/pwrite(2): a sequence of register writes in ascending address
 * order, applied atomically.  A descriptor opened read-only never gets here
 * (the VFS answers EBADF).
 * Errors: EINVAL as for read, and when any register of the range is in the
 * semaphore read window or reserved space; EFAULT when the buffer cannot be
 * read.  Nothing changes on any error.
 */
static ssize_t ncsync_write(struct file *file, const char __user *ubuf,
			    size_t len, loff_t *ppos)
{
	struct ncsync_file *nfile = file->private_data;
	struct ncsync_core *core = nfile->core;
	struct ncsync_wake_q wake;
	u32 small[8], *kbuf = small;

	if (!len)
		return 0;
	if (*ppos < 0 || !ncsync_csr_access_ok(*ppos, len) ||
	    !ncsync_csr_write_ok(*ppos, len))
		return -EINVAL;

	/* Writes of a few registers need no allocation. */
	if (len <= sizeof(small)) {
		if (copy_from_user(small, ubuf, len))
			return -EFAULT;
	} else {
		kbuf = memdup_user(ubuf, len);
		if (IS_ERR(kbuf))
			return PTR_ERR(kbuf);
	}

	ncsync_core_lock(core, &wake);
	ncsync_csr_write_locked(core, *ppos, kbuf, len / NCSYNC_CSR_REG_SIZE);
	ncsync_core_unlock(core, &wake);

	if (kbuf != small)
		kfree(kbuf);
	*ppos += len;
	return len;
}

static loff_t ncsync_llseek(struct file *file, loff_t offset, int whence)
{
	return fixed_size_llseek(file, offset, whence, NCSYNC_CSR_SIZE);
}

/*
 * EPOLLIN | EPOLLRDNORM while the core changed since this descriptor's
 * NCSYNC_IOC_ACK; EPOLLPRI while one of its programs has ended and its end
 * has not been reported by NCSYNC_IOC_PROG_STATUS or NCSYNC_IOC_PROG_WAIT.
 * The first change after an acknowledgment wakes the pollers, later ones
 * do not: they see EPOLLIN already.  A program's end wakes the pollers of
 * the descriptor that submitted it.
 */
static __poll_t ncsync_poll(struct file *file, poll_table *wait)
{
	struct ncsync_file *nfile = file->private_data;
	struct ncsync_core *core = nfile->core;
	__poll_t mask = 0;

	poll_wait(file, &nfile->poll_wq, wait);
	/*
	 * No lock: queued on poll_wq before the sequence is read, so that a
	 * change this read misses sees the poller queued and wakes it
	 * (ncsync_seq_advance_locked()).
	 */
	smp_mb();
	if (atomic64_read(&core->seq) != READ_ONCE(nfile->seen_seq))
		mask = EPOLLIN | EPOLLRDNORM;
	/*
	 * A descriptor with no program has nothing unseen.  A program that
	 * ended was on the list before it woke poll_wq: if this poller queued
	 * itself after that wake-up, it sees the list non-empty.
	 */
	if (!list_empty(&nfile->progs) && ncsync_file_progs_unseen(nfile))
		mask |= EPOLLPRI;
	return mask;
}

const struct file_operations ncsync_fops = {
	.owner		= THIS_MODULE,
	.open		= ncsync_open,
	.flush		= ncsync_flush,
	.release	= ncsync_release,
	.read		= ncsync_read,
	.write		= ncsync_write,
	.llseek		= ncsync_llseek,
	.mmap		= ncsync_mmap,
	.poll		= ncsync_poll,
	.unlocked_ioctl	= ncsync_ioctl,
	.compat_ioctl	= compat_ptr_ioctl,
};
