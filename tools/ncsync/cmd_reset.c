// SPDX-License-Identifier: GPL-2.0
/*
 * ncsync(1): ncsync reset, the reset of a core.
 */
#include "cmds.h"
#include "device.h"
#include "opts.h"
#include "print.h"

/* reset: NCSYNC_IOC_RESET on core -c, then the core's sequence. */
int cmd_reset(const struct cmd *c, int argc, char **argv)
{
	struct ncsync_stats st;
	struct ncsync_dev *dev;
	int ret;

	ret = parse_none(c, argc, argv, NULL, NULL);
	if (ret)
		return OPTS_EXIT(ret);
	ret = open_core(true, &dev);
	if (ret)
		return ret;
	ret = ncsync_reset(dev);
	if (!ret)
		ret = ncsync_stats(dev, &st);
	ncsync_close(dev);
	if (ret)
		return fail_err(ret, "reset /dev/ncsync%u", opt_core);
	if (opt_json) {
		j_obj(NULL);
		j_uint("core", opt_core);
		j_uint("resets", st.resets);
		j_uint("seq", st.seq);
		j_end();
		j_done();
	} else {
		printf("core %u reset (resets %llu, seq %llu)\n", opt_core,
		       (unsigned long long)st.resets,
		       (unsigned long long)st.seq);
	}
	return EXIT_OK;
}
