// SPDX-License-Identifier: GPL-2.0
/*
 * ncsync: /sys/kernel/debug/ncsync/coreN, a readable dump of a core's
 * state: counters, non-zero semaphores, set events, programs and engines.
 */
#include <linux/debugfs.h>
#include <linux/seq_file.h>

#include "ncsync_drv.h"
#include "ncsync_names.h"

static struct dentry *ncsync_debugfs_root;

static void ncsync_debugfs_banks(struct seq_file *m, struct ncsync_core *core)
{
	unsigned int i;

	spin_lock(&core->lock);
	seq_printf(m, "seq %llu resets %llu event_set_while_set %llu event_clear_while_clear %llu sem_overflows %llu notify_drops %llu notify %d log_suppressed %llu wakeups %llu\n",
		   atomic64_read(&core->seq), core->stats.resets,
		   core->stats.event_set_while_set,
		   core->stats.event_clear_while_clear,
		   core->stats.sem_overflows, core->stats.notify_drops,
		   READ_ONCE(core->notify), core->stats.log_suppressed,
		   core->stats.wakeups);
	seq_puts(m, "semaphores:");
	for (i = 0; i < NCSYNC_NUM_SEMS; i++)
		if (core->sems[i])
			seq_printf(m, " [%u]=%d", i, core->sems[i]);
	seq_puts(m, "\nevents set:");
	for (i = 0; i < NCSYNC_NUM_EVENTS; i++)
		if (core->events[i])
			seq_printf(m, " %u", i);
	seq_puts(m, "\n");
	spin_unlock(&core->lock);
}

static int ncsync_debugfs_show(struct seq_file *m, void *unused)
{
	struct ncsync_core *core = m->private;
	struct ncsync_engine_status st;
	struct ncsync_prog *prog;
	unsigned int i;

	seq_printf(m, "core %u\n", core->index);
	ncsync_debugfs_banks(m, core);

	spin_lock(&core->prog_lock);
	list_for_each_entry(prog, &core->progs, lists.core_node) {
		seq_printf(m, "program %u pid %u state %u stop %d\n", prog->id,
			   prog->pid, prog->run.state, prog->stop);
		for (i = 0; i < prog->nq; i++) {
			ncsync_status_read_locked(&prog->q[i], &st);
			seq_printf(m, "  engine %u %s: state %u pc %u/%u executed %llu fault %u",
				   st.engine, ncsync_engine_title(st.engine),
				   st.state, st.pc, prog->q[i].count,
				   st.executed, st.fault);
			if (st.state == NCSYNC_ENG_BLOCKED)
				seq_printf(m, " waits kind %u mode 0x%02x index %u threshold %d current %d",
					   st.wait_kind, st.wait_mode,
					   st.wait_index, st.wait_threshold,
					   st.wait_current);
			seq_printf(m, " dma %u\n", st.dma_outstanding);
		}
	}
	spin_unlock(&core->prog_lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(ncsync_debugfs);

/**
 * ncsync_debugfs_init() - create /sys/kernel/debug/ncsync/coreN.
 * @cores: the cores.
 * @ncores: how many.
 *
 * Failures are not errors: debugfs is optional.
 */
void ncsync_debugfs_init(struct ncsync_core *cores, unsigned int ncores)
{
	char name[16];
	unsigned int i;

	ncsync_debugfs_root = debugfs_create_dir("ncsync", NULL);
	for (i = 0; i < ncores; i++) {
		snprintf(name, sizeof(name), "core%u", i);
		debugfs_create_file(name, 0444, ncsync_debugfs_root, &cores[i],
				    &ncsync_debugfs_fops);
	}
}

/**
 * ncsync_debugfs_fini() - remove /sys/kernel/debug/ncsync.
 */
void ncsync_debugfs_fini(void)
{
	debugfs_remove_recursive(ncsync_debugfs_root);
}
