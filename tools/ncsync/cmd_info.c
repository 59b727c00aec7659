// SPDX-License-Identifier: GPL-2.0
/*
 * ncsync(1): ncsync info, the core's geometry, parameters and counters.
 */
#include <stdlib.h>

#include "cmds.h"
#include "device.h"
#include "opts.h"
#include "print.h"

struct info {
	const struct ncsync_info *in;
	struct ncsync_stats st;
	struct nl_core *core;	/* NULL: out of memory */
	bool have_nl;
};

static void json_info(const struct info *i)
{
	const struct ncsync_info *in = i->in;
	int e;

	j_obj(NULL);
	j_uint("core", in->core);
	j_uint("api_version", in->api_version);
	j_uint("num_cores", in->num_cores);
	j_uint("num_sems", in->num_sems);
	j_uint("num_events", in->num_events);
	j_uint("csr_size", in->csr_size);
	j_uint("rt_reserved_sem_first", in->rt_reserved_sem_first);
	j_uint("rt_reserved_sem_count", in->rt_reserved_sem_count);
	j_uint("rt_reserved_event_first", in->rt_reserved_event_first);
	j_uint("rt_reserved_event_count", in->rt_reserved_event_count);
	j_uint("devmem_offset", in->devmem_offset);
	j_uint("devmem_size", in->devmem_size);
	j_uint("engine_mask", in->engine_mask);
	j_arr("engines");
	for (e = 0; e < 8; e++) {
		if (!(in->engine_mask & (1U << e)))
			continue;
		j_obj(NULL);
		j_uint("id", e);
		j_str("engine", engine_label(e));
		j_end();
	}
	j_end();
	j_uint("num_regs", in->num_regs);
	j_uint("watchdog_ms", in->watchdog_ms);
	j_uint("lnc", in->lnc);
	j_uint("logical_core", in->core / (in->lnc ? in->lnc : 1));
	if (i->have_nl)
		j_bool("notify", i->core->notify);
	j_uint("seq", i->st.seq);
	j_obj("stats");
	json_stats_counts(&i->st);
	j_uint("log_suppressed", i->st.log_suppressed);
	j_uint("wakeups", i->st.wakeups);
	j_end();
	j_end();
	j_done();
}

static void print_info(const struct info *i)
{
	const struct ncsync_info *in = i->in;
	int e;

	printf("core %u of %u (/dev/ncsync%u), API %u\n", in->core,
	       in->num_cores, in->core, in->api_version);
	if (in->lnc > 1)
		printf("  logical core %u: cores %u-%u (lnc %u)\n",
		       in->core / in->lnc, in->core - in->core % in->lnc,
		       in->core - in->core % in->lnc + in->lnc - 1, in->lnc);
	printf("  semaphores %u, runtime reserves %u-%u\n", in->num_sems,
	       in->rt_reserved_sem_first,
	       in->rt_reserved_sem_first + in->rt_reserved_sem_count - 1);
	printf("  events     %u, runtime reserves %u-%u\n", in->num_events,
	       in->rt_reserved_event_first,
	       in->rt_reserved_event_first + in->rt_reserved_event_count - 1);
	printf("  engines   ");
	for (e = 0; e < 8; e++)
		if (in->engine_mask & (1U << e))
			printf(" %s(%d)", engine_label(e), e);
	printf(", mask 0x%02x, %u registers each\n", in->engine_mask,
	       in->num_regs);
	printf("  device memory %u KiB at mmap offset 0x%x\n",
	       in->devmem_size / 1024, in->devmem_offset);
	printf("  watchdog %u ms", in->watchdog_ms);
	if (i->have_nl)
		printf(", event notifications %s",
		       i->core->notify ? "on" : "off");
	printf("\n  seq %llu, resets %llu, ", (unsigned long long)i->st.seq,
	       (unsigned long long)i->st.resets);
	print_fault_counts(&i->st);
	printf("\n  log reports suppressed %llu, wake-ups %llu\n",
	       (unsigned long long)i->st.log_suppressed,
	       (unsigned long long)i->st.wakeups);
}

int cmd_info(const struct cmd *c, int argc, char **argv)
{
	struct info i = { 0 };
	struct ncsync_dev *dev;
	int ret;

	ret = parse_none(c, argc, argv, NULL, NULL);
	if (ret)
		return OPTS_EXIT(ret);
	ret = open_core(false, &dev);
	if (ret)
		return ret;
	i.in = ncsync_get_info(dev);
	ret = ncsync_stats(dev, &i.st);
	if (ret) {
		ncsync_close(dev);
		return fail_err(ret, "stats of core %u", opt_core);
	}
	i.core = calloc(1, sizeof(*i.core));
	i.have_nl = i.core && !nl_get_core(opt_core, i.core, true);
	if (opt_json)
		json_info(&i);
	else
		print_info(&i);
	if (i.core)
		nl_core_release(i.core);
	free(i.core);
	ncsync_close(dev);
	return EXIT_OK;
}
