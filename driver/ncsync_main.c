// SPDX-License-Identifier: GPL-2.0
/*
 * ncsync: a reference model of an AWS Trainium NeuronCore's sync fabric.
 *
 * Module set-up: one character device /dev/ncsyncN per modeled core.
 */
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>

#include "ncsync_compat.h"
#include "ncsync_drv.h"

#define NCSYNC_MAX_DMA_DEPTH	4096

/**
 * struct ncsync_device - the module's global state.
 * @devt: the first device number of the region.
 * @class: the "ncsync" device class.
 * @cores: @ncsync_num_cores cores.
 *
 * Written only by module init and exit.
 */
struct ncsync_device {
	dev_t devt;
	struct class *class;
	struct ncsync_core *cores;
};

static struct ncsync_device ncsync_dev;

static int ncsync_core_add(struct ncsync_core *core, unsigned int index)
{
	dev_t devt = MKDEV(MAJOR(ncsync_dev.devt), index);
	int ret;

	ret = ncsync_core_init(core, index);
	if (ret)
		return ret;
	ret = ncsync_dma_init(core);
	if (ret)
		goto err_fini;
	ret = ncsync_engines_start(core);
	if (ret)
		goto err_dma;

	cdev_init(&core->cdev, &ncsync_fops);
	core->cdev.owner = THIS_MODULE;
	ret = cdev_add(&core->cdev, devt, 1);
	if (ret)
		goto err_engines;

	core->dev = device_create(ncsync_dev.class, NULL, devt, core,
				  "ncsync%u", index);
	if (IS_ERR(core->dev)) {
		ret = PTR_ERR(core->dev);
		goto err_cdev;
	}
	return 0;

err_cdev:
	cdev_del(&core->cdev);
err_engines:
	ncsync_engines_stop(core);
err_dma:
	ncsync_dma_fini(core);
err_fini:
	ncsync_core_fini(core);
	return ret;
}

/*
 * devtmpfs creates the nodes root-only; packaging/60-ncsync.rules gives
 * them to the group "ncsync".
 */
static char *ncsync_devnode(ncsync_devnode_dev_t *dev, umode_t *mode)
{
	if (mode)
		*mode = 0600;
	return NULL;
}

static bool ncsync_params_ok(void)
{
	return ncsync_num_cores >= 1 && ncsync_num_cores <= NCSYNC_MAX_CORES &&
	       ncsync_rt_reserved_sems <= NCSYNC_NUM_SEMS &&
	       ncsync_rt_reserved_events <= NCSYNC_NUM_EVENTS &&
	       ncsync_devmem_kb >= 4 &&
	       ncsync_devmem_kb <= NCSYNC_DEVMEM_MAX_KB &&
	       !(ncsync_devmem_kb % 4) &&
	       ncsync_watchdog_ms && ncsync_watchdog_ms <= NCSYNC_MAX_WATCHDOG_MS &&
	       ncsync_fd_mem_mb && ncsync_user_mem_mb &&
	       ncsync_dma_depth >= 1 && ncsync_dma_depth <= NCSYNC_MAX_DMA_DEPTH &&
	       ncsync_lnc >= 1 && ncsync_lnc <= NCSYNC_MAX_LNC;
}

/*
 * The device memory of every core must fit in half the machine's memory:
 * more is refused with -ENOMEM before anything is allocated, instead of
 * driving the machine out of memory.
 */
static int ncsync_devmem_fits(void)
{
	u64 want = (u64)ncsync_num_cores * ncsync_devmem_kb << 10;
	u64 have = (u64)totalram_pages() << PAGE_SHIFT;

	if (want <= have / 2)
		return 0;
	pr_err("ncsync: %u cores of %u KiB device memory need %llu MiB, more than half of this machine's %llu MiB\n",
	       ncsync_num_cores, ncsync_devmem_kb, want >> 20, have >> 20);
	return -ENOMEM;
}

/* The module parameters, checked before anything is allocated. */
static int ncsync_params_check(void)
{
	if (!ncsync_params_ok()) {
		pr_err("ncsync: a module parameter is out of range (see modinfo ncsync)\n");
		return -EINVAL;
	}
	if (ncsync_num_cores % ncsync_lnc) {
		pr_err("ncsync: cores=%u is not a multiple of lnc=%u: a logical core fuses lnc whole cores\n",
		       ncsync_num_cores, ncsync_lnc);
		return -EINVAL;
	}
	return ncsync_devmem_fits();
}

/*
 * Tear down the first @n cores, each step on every core before the next
 * step on any (Documentation/ncsync/engines.rst, "Teardown"): a copy of
 * one core lands on another core of its logical core, a work of a program
 * across cores touches every core it spans, so no core's banks may go
 * while anything of another core still runs.  No descriptor is open.
 */
static void ncsync_cores_remove(unsigned int n)
{
	struct ncsync_core *cores = ncsync_dev.cores;
	unsigned int i;

	/* 1. No new descriptor: nothing submits, resets or writes. */
	for (i = 0; i < n; i++) {
		device_destroy(ncsync_dev.class, cores[i].cdev.dev);
		cdev_del(&cores[i].cdev);
	}
	/* 2. No record runs: no copy is issued, no peer bank written. */
	for (i = 0; i < n; i++)
		ncsync_engines_stop(&cores[i]);
	/* 3. No copy lands, on its core or a peer: each is dropped. */
	for (i = 0; i < n; i++)
		ncsync_dma_stop(&cores[i]);
	/* 4. No work runs: watchdogs, then what they and groups queue. */
	for (i = 0; i < n; i++)
		ncsync_core_quiesce(&cores[i]);
	ncsync_groups_drain();
	for (i = 0; i < n; i++) {
		flush_work(&cores[i].reap_work);
		ncsync_nl_core_fini(&cores[i]);
	}
	/* 5. Every program is freed: the banks and memory go. */
	for (i = 0; i < n; i++) {
		ncsync_dma_fini(&cores[i]);
		ncsync_core_fini(&cores[i]);
	}
}

/* Add every core, each to its logical core; on an error, none stays. */
static int ncsync_cores_add(void)
{
	unsigned int i;
	int ret;

	for (i = 0; i < ncsync_num_cores; i++)
		ncsync_dev.cores[i].lnc_first =
			&ncsync_dev.cores[i - i % ncsync_lnc];
	for (i = 0; i < ncsync_num_cores; i++) {
		ret = ncsync_core_add(&ncsync_dev.cores[i], i);
		if (ret) {
			ncsync_cores_remove(i);
			return ret;
		}
	}
	return 0;
}

static int __init ncsync_init(void)
{
	int ret;

	BUILD_BUG_ON(PAGE_SIZE != 4096);	/* the CSR window is 2 pages */
	ret = ncsync_params_check();
	if (ret)
		return ret;

	ret = ncsync_snapshots_init();
	if (ret)
		return ret;
	ret = ncsync_groups_init();
	if (ret)
		goto err_snapshots;
	ncsync_dev.cores = kcalloc(ncsync_num_cores, sizeof(*ncsync_dev.cores),
				   GFP_KERNEL);
	ret = -ENOMEM;
	if (!ncsync_dev.cores)
		goto err_groups;

	ret = alloc_chrdev_region(&ncsync_dev.devt, 0, ncsync_num_cores,
				  "ncsync");
	if (ret)
		goto err_free;

	ncsync_dev.class = ncsync_class_create("ncsync");
	if (IS_ERR(ncsync_dev.class)) {
		ret = PTR_ERR(ncsync_dev.class);
		goto err_region;
	}
	ncsync_dev.class->devnode = ncsync_devnode;

	ret = ncsync_cores_add();
	if (ret)
		goto err_class;
	ret = ncsync_nl_register(ncsync_dev.cores, ncsync_num_cores);
	if (ret)
		goto err_cores;
	ncsync_debugfs_init(ncsync_dev.cores, ncsync_num_cores);
	pr_info("ncsync: %u cores, %u a logical core, API version %d\n",
		ncsync_num_cores, ncsync_lnc, NCSYNC_API_VERSION);
	return 0;

err_cores:
	ncsync_cores_remove(ncsync_num_cores);
err_class:
	class_destroy(ncsync_dev.class);
err_region:
	unregister_chrdev_region(ncsync_dev.devt, ncsync_num_cores);
err_free:
	kfree(ncsync_dev.cores);
err_groups:
	ncsync_groups_fini();
err_snapshots:
	ncsync_snapshots_fini();
	return ret;
}

static void __exit ncsync_exit(void)
{
	/* No descriptor is open; programs may still land copies. */
	ncsync_debugfs_fini();
	ncsync_nl_unregister();
	ncsync_cores_remove(ncsync_num_cores);
	class_destroy(ncsync_dev.class);
	unregister_chrdev_region(ncsync_dev.devt, ncsync_num_cores);
	kfree(ncsync_dev.cores);
	ncsync_groups_fini();
	ncsync_snapshots_fini();	/* every program is freed */
}

module_init(ncsync_init);
module_exit(ncsync_exit);

MODULE_DESCRIPTION("Reference model of the AWS Trainium NeuronCore sync fabric");
MODULE_AUTHOR("The ncsync developers");
MODULE_LICENSE("GPL");
/* NCSYNC_VERSION: dkms.conf's PACKAGE_VERSION, passed by the Kbuild. */
MODULE_VERSION(NCSYNC_VERSION);
