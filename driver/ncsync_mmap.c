// SPDX-License-Identifier: GPL-2.0
/*
 * ncsync: mmap(2) of /dev/ncsyncN: the CSR window (read-only) and the
 * device memory.
 *
 * Neither mapping is populated up front: the fault handlers look the page
 * up by its file offset, so a page dropped by MADV_DONTNEED (or never
 * touched, or in a child after fork()) faults back in, the same live page.
 */
#include <linux/mm.h>
#include <linux/vmalloc.h>

#include "ncsync_compat.h"
#include "ncsync_drv.h"

/* The CSR window's pages: the event page and the semaphore page. */
#define NCSYNC_CSR_PAGES	2

/* Map @page at the fault's address; the mapping holds the reference. */
static vm_fault_t ncsync_fault_page(struct vm_fault *vmf, struct page *page)
{
	if (!page)
		return VM_FAULT_SIGBUS;
	get_page(page);
	vmf->page = page;
	return 0;
}

/* CSR window: file page 0 is the event page, 1 the semaphore page. */
static vm_fault_t ncsync_csr_fault(struct vm_fault *vmf)
{
	struct ncsync_core *core = vmf->vma->vm_private_data;

	switch (vmf->pgoff) {
	case 0:
		return ncsync_fault_page(vmf, core->event_page);
	case 1:
		return ncsync_fault_page(vmf, core->sem_page);
	default:
		return VM_FAULT_SIGBUS;
	}
}

static const struct vm_operations_struct ncsync_csr_vm_ops = {
	.fault = ncsync_csr_fault,
};

/* Device memory: file page NCSYNC_DEVMEM_OFFSET >> PAGE_SHIFT is its first. */
static vm_fault_t ncsync_devmem_fault(struct vm_fault *vmf)
{
	struct ncsync_core *core = vmf->vma->vm_private_data;
	pgoff_t first = NCSYNC_DEVMEM_OFFSET >> PAGE_SHIFT;
	unsigned long off;

	if (vmf->pgoff < first ||
	    vmf->pgoff - first >= DIV_ROUND_UP(core->devmem_size, PAGE_SIZE))
		return VM_FAULT_SIGBUS;
	off = (vmf->pgoff - first) << PAGE_SHIFT;
	return ncsync_fault_page(vmf, vmalloc_to_page(core->devmem + off));
}

static const struct vm_operations_struct ncsync_devmem_vm_ops = {
	.fault = ncsync_devmem_fault,
};

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
	vma->vm_ops = &ncsync_devmem_vm_ops;
	vma->vm_private_data = core;
	return 0;
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

	/* A shared mapping of a read-only file has VM_MAYSHARE only. */
	if (!(vma->vm_flags & VM_MAYSHARE))
		return -EINVAL;
	if (vma->vm_pgoff == NCSYNC_DEVMEM_OFFSET >> PAGE_SHIFT)
		return ncsync_devmem_mmap(nfile->core, vma);
	if (vma->vm_pgoff || vma_pages(vma) > NCSYNC_CSR_PAGES)
		return -EINVAL;
	if (vma->vm_flags & (VM_WRITE | VM_EXEC))
		return -EACCES;

	ncsync_vm_flags_mod(vma, VM_DONTEXPAND | VM_DONTDUMP,
			    VM_MAYWRITE | VM_MAYEXEC);
	vma->vm_ops = &ncsync_csr_vm_ops;
	vma->vm_private_data = nfile->core;
	return 0;
}
