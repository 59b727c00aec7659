// SPDX-License-Identifier: GPL-2.0
/*
 * ncsync: the module parameters (Documentation/ncsync/engines.rst, "Module
 * parameters"), read by every file; checked by ncsync_main.c at load.
 */
#include <linux/moduleparam.h>

#include "ncsync_drv.h"

unsigned int ncsync_num_cores = 2;
module_param_named(cores, ncsync_num_cores, uint, 0444);
MODULE_PARM_DESC(cores, "number of modeled NeuronCores, 1-64 (default 2)");

unsigned int ncsync_rt_reserved_sems = 16;
module_param_named(rt_reserved_sems, ncsync_rt_reserved_sems, uint, 0444);
MODULE_PARM_DESC(rt_reserved_sems,
		 "semaphores at the top of the bank reserved for the runtime, 0-256 (default 16)");

unsigned int ncsync_rt_reserved_events = 16;
module_param_named(rt_reserved_events, ncsync_rt_reserved_events, uint, 0444);
MODULE_PARM_DESC(rt_reserved_events,
		 "events at the top of the bank reserved for the runtime, 0-256 (default 16)");

unsigned int ncsync_devmem_kb = 1024;
module_param_named(devmem_kb, ncsync_devmem_kb, uint, 0444);
MODULE_PARM_DESC(devmem_kb,
		 "device memory per core in KiB, a multiple of 4 in 4-65536 (default 1024)");

unsigned int ncsync_watchdog_ms = 10000;
module_param_named(watchdog_ms, ncsync_watchdog_ms, uint, 0444);
MODULE_PARM_DESC(watchdog_ms,
		 "default program watchdog: time without progress in ms, 1-3600000 (default 10000)");

unsigned int ncsync_fd_mem_mb = 256;
module_param_named(fd_mem_mb, ncsync_fd_mem_mb, uint, 0444);
MODULE_PARM_DESC(fd_mem_mb,
		 "kernel memory the programs of one descriptor may take, in MiB (default 256)");

unsigned int ncsync_user_mem_mb = 256;
module_param_named(user_mem_mb, ncsync_user_mem_mb, uint, 0444);
MODULE_PARM_DESC(user_mem_mb,
		 "kernel memory the programs of all descriptors one user opened may take, in MiB (default 256)");

unsigned int ncsync_total_mem_mb;
module_param_named(total_mem_mb, ncsync_total_mem_mb, uint, 0444);
MODULE_PARM_DESC(total_mem_mb,
		 "kernel memory the programs of all users together may take, in MiB; 0 for a quarter of the RAM (default 0)");

unsigned int ncsync_lnc = 1;
module_param_named(lnc, ncsync_lnc, uint, 0444);
MODULE_PARM_DESC(lnc,
		 "cores fused into one logical core, 1-64; cores must be a multiple of it (default 1)");

unsigned int ncsync_dma_depth = 64;
module_param_named(dma_depth, ncsync_dma_depth, uint, 0444);
MODULE_PARM_DESC(dma_depth,
		 "DMA copies one engine queue may have in flight, 1-4096 (default 64)");
