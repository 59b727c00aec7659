/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ncsync: the kernel API differences between the kernels the module
 * builds for (6.1, the VM's, and newer ones on users' machines).  The only
 * place that tests the kernel version.
 */
#ifndef _NCSYNC_COMPAT_H
#define _NCSYNC_COMPAT_H

#include <linux/device.h>
#include <linux/mm.h>
#include <linux/version.h>
#include <net/genetlink.h>

#if KERNEL_VERSION(6, 3, 0) <= LINUX_VERSION_CODE
#define ncsync_vm_flags_mod(vma, set, clear) vm_flags_mod(vma, set, clear)
#else
static inline void ncsync_vm_flags_mod(struct vm_area_struct *vma,
				       unsigned long set, unsigned long clear)
{
	vma->vm_flags = (vma->vm_flags | set) & ~clear;
}
#endif

#if KERNEL_VERSION(6, 4, 0) <= LINUX_VERSION_CODE
#define ncsync_class_create(name) class_create(name)
#else
#define ncsync_class_create(name) class_create(THIS_MODULE, name)
#endif

#if KERNEL_VERSION(6, 2, 0) <= LINUX_VERSION_CODE
#define ncsync_devnode_dev_t const struct device
#else
#define ncsync_devnode_dev_t struct device
#endif

/* The multicast group flag that requires CAP_NET_ADMIN to join. */
#ifdef GENL_MCAST_CAP_NET_ADMIN
#define NCSYNC_GENL_MCAST_ADMIN	GENL_MCAST_CAP_NET_ADMIN
#else
#define NCSYNC_GENL_MCAST_ADMIN	GENL_UNS_ADMIN_PERM
#endif

#endif /* _NCSYNC_COMPAT_H */
