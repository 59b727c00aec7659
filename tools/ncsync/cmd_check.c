// SPDX-License-Identifier: GPL-2.0
/*
 * ncsync(1): ncsync check FILE [--lowering counter|events] [--sem N=V,...]
 * [--event N,...] [--max-states N] [--timeout MS] [--dma-fifo] [--lnc N]
 * [--max-memory MIB] [--no-accel] [--no-symmetry] [--promela OUT.pml
 * [--promela-kinds KIND,...|all]]: every schedule of FILE's lowered program
 * explored (checking.c) and reported (check_print.c); or its Promela model
 * written.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cmds.h"

#define EXIT_INCONCLUSIVE	3

static int verdict_exit(enum ncsync_check_verdict v)
{
	return v == NCSYNC_CHECK_SAFE ? EXIT_OK :
	       v == NCSYNC_CHECK_DEFECT ? EXIT_FAIL : EXIT_INCONCLUSIVE;
}

/*
 * --promela OUT: the model of the lowered program for SPIN, instead of the
 * check, asserting the defects of --promela-kinds
 * (ncsync_check_promela_kinds()).
 */
static int write_promela(const struct checking *ck)
{
	const char *path = ck->o.promela;
	bool std = !strcmp(path, "-");
	FILE *f = std ? stdout : fopen(path, "w");
	int ret;

	if (!f)
		return fail_err(errno, "%s", path);
	ret = ncsync_check_promela_kinds(ck->parts, ck->nparts, &ck->copts,
					 ck->o.promela_kinds, f);
	if (!std && fclose(f) && !ret)
		ret = -EIO;
	if (ret == -EOPNOTSUPP) {
		fail_msg("%s: a record the Promela model cannot express",
			 ck->path);
		return EXIT_USAGE;
	}
	if (ret == -E2BIG) {
		fail_msg("%s: more than %u cores (with the peers its DMA records signal) or %u engines: more than the checker follows",
			 ck->path, NCSYNC_CHECK_MAX_CORES,
			 NCSYNC_CHECK_MAX_ENGINES);
		return EXIT_USAGE;
	}
	return ret ? fail_err(-ret, "%s", std ? ck->path : path) : EXIT_OK;
}

static int check_execute(struct checking *ck)
{
	struct ncsync_check_result *res;
	int ret;

	ret = check_parts(ck, &res);
	if (ret)
		return ret;
	check_report(ck, res);
	ret = verdict_exit(ncsync_check_verdict(res));
	ncsync_check_free(res);
	return ret;
}

int cmd_check(const struct cmd *c, int argc, char **argv)
{
	struct checking *ck = calloc(1, sizeof(*ck));
	struct args a;
	int ret;

	if (!ck)
		return fail_err(ENOMEM, "check");
	ck->cmd = c;
	check_defaults(&ck->o);
	ret = parse_opts(ck->cmd, argc, argv, check_opt_table, &ck->o, &a);
	if (!ret && a.npos != 1)
		ret = usage_err(ck->cmd, a.npos ? "unexpected argument '%s'" :
				"missing FILE%s", a.npos ? a.pos[1] : "");
	if (!ret && ck->o.promela_kinds && !ck->o.promela)
		ret = usage_err(ck->cmd, "--promela-kinds without --promela");
	if (!ret) {
		ck->given = a.given;
		ck->path = a.pos[0];
		ret = check_bad_input(checking_build(ck));
	}
	if (!ret)
		ret = ck->o.promela ? write_promela(ck) : check_execute(ck);
	checking_free(ck);
	free(ck);
	return OPTS_EXIT(ret);
}
