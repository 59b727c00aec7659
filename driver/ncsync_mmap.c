// SPDX-License-Identifier: GPL-2.0
/*
 * ncsync: mmap(2) of /dev/ncsyncN: the CSR window (read-only) and the
 * device memory.
 */
#include <linux/mm.h>
#include <linux/vmalloc.h>

#include "ncsync_compat.h"
#include "ncsync_drv.h"

/*
 * The device memory at NCSYNC_DEVMEM_OFFSET: shared, readable and, through a
 * descriptor open for writing, writable.
 * Errors: EINVAL for a length beyond the device memory.
 */
static int ncsync_devmem_mmap(struct ncsync_core *core,
			      struct vm_area_struct *vma)
{
	if (vma->vm_end - vma->vm_start > core->devmem_size)
		return -EINVAL;
	ncsync_vm_flags_mod(vma, VM_DONTEXPAND | VM_DONTDUMP, VM_MAYEXEC);
	if (vma->vm_flags & VM_EXEC)
		return -EACCES;
	return remap_vmalloc_range(vma, core->devmem, 0);
}

/*
 * mmap(2) of the CSR window: read-only and shared, a live view of the event
 * page (0x0000) and the semaphore page (0x1000).  The device memory is
 * mapped at NCSYNC_DEVMEM_OFFSET instead.
 * Errors: EINVAL for another offset, a length beyond the window or a
 * private mapping; EACCES for PROT_WRITE or PROT_EXEC.  mprotect() cannot
 * add them later (VM_MAYWRITE and VM_MAYEXEC are cleared).
 */
/**
 * ncsync_mmap() - the mmap method of /dev/ncsyncN.
 * @file: the open file.
 * @vma: the new mapping.
 *
 * Return: 0 or a negative errno (see above).
 */
int ncsync_mmap(struct file *file, struct vm_area_struct *vma)
{
	struct ncsync_file *nfile = file->private_data;
	struct page *pages[] = { nfile->core->event_page,
				 nfile->core->sem_page };
	unsigned long n, npages = vma_pages(vma);
	int ret;

	/* A shared mapping of a read-only file has VM_MAYSHARE only. */
	if (!(vma->vm_flags & VM_MAYSHARE))
		return -EINVAL;
	if (vma->vm_pgoff == NCSYNC_DEVMEM_OFFSET >> PAGE_SHIFT)
		return ncsync_devmem_mmap(nfile->core, vma);
	if (vma->vm_pgoff || npages > ARRAY_SIZE(pages))
		return -EINVAL;
	if (vma->vm_flags & (VM_WRITE | VM_EXEC))
		return -EACCES;

	ncsync_vm_flags_mod(vma, VM_DONTEXPAND | VM_DONTDUMP,
			    VM_MAYWRITE | VM_MAYEXEC);
	for (n = 0; n < npages; n++) {
		ret = vm_insert_page(vma, vma->vm_start + n * PAGE_SIZE,
				     pages[n]);
		if (ret)
			return ret;
	}
	return 0;
}
