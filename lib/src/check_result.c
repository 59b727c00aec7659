// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * libncsync: the result of ncsync_check() (Documentation/ncsync/check.rst,
 * "The checker's files"), the names of its limits and defect kinds, and
 * the default options.  The search (check.c) fills a result; this file only
 * reads and frees it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

static const char *const ck_limit_names[NCSYNC_CHECK_LIMITS] = {
	[NCSYNC_CHECK_LIMIT_NONE] = "none",
	[NCSYNC_CHECK_LIMIT_STATES] = "states",
	[NCSYNC_CHECK_LIMIT_TIME] = "time",
	[NCSYNC_CHECK_LIMIT_MEMORY] = "memory",
	[NCSYNC_CHECK_LIMIT_COPIES] = "copies",
};

const char *ncsync_check_limit_name(unsigned int limit)
{
	return limit < NCSYNC_CHECK_LIMITS ? ck_limit_names[limit] : NULL;
}

static const char *const ck_kind_names[NCSYNC_DEFECT_KINDS] = {
	[NCSYNC_DEFECT_DEADLOCK] = "deadlock",
	[NCSYNC_DEFECT_DMA_RACE] = "dma-race",
	[NCSYNC_DEFECT_EVENT] = "event",
	[NCSYNC_DEFECT_OVERFLOW] = "overflow",
	[NCSYNC_DEFECT_BARRIER_IMBALANCE] = "barrier-imbalance",
	[NCSYNC_DEFECT_UNPOSTED_WAIT] = "unposted-wait",
};

const char *ncsync_defect_name(unsigned int kind)
{
	return kind < NCSYNC_DEFECT_KINDS ? ck_kind_names[kind] : NULL;
}

void ncsync_check_opts_init(struct ncsync_check_opts *opts)
{
	if (!opts)
		return;
	memset(opts, 0, sizeof(*opts));
	opts->max_states = NCSYNC_CHECK_MAX_STATES;
}

/* Free a defect and what it owns; NULL is nothing. */
void ck_defect_free(struct ncsync_check_defect *d)
{
	if (d) {
		free((void *)d->values);
		free((void *)d->steps);
		free((void *)d->cores);
		free((void *)d->deadlock_cores);
		free((void *)d->barrier);
	}
	free(d);
}

int ncsync_check_accel(const struct ncsync_check_result *res,
		       struct ncsync_check_accel *out)
{
	if (!res || !out)
		return -EINVAL;
	*out = res->accel;
	return 0;
}

int ncsync_check_symmetry(const struct ncsync_check_result *res,
			  struct ncsync_check_symmetry *out)
{
	if (!res || !out)
		return -EINVAL;
	*out = res->sym;
	return 0;
}

bool ncsync_check_complete(const struct ncsync_check_result *res)
{
	return res && !res->limited;
}

enum ncsync_check_limit
ncsync_check_limit(const struct ncsync_check_result *res)
{
	return res ? res->limit : NCSYNC_CHECK_LIMIT_NONE;
}

enum ncsync_check_verdict
ncsync_check_verdict(const struct ncsync_check_result *res)
{
	return res ? res->verdict : NCSYNC_CHECK_INCONCLUSIVE;
}

uint64_t ncsync_check_states(const struct ncsync_check_result *res)
{
	return res ? res->states : 0;
}

uint64_t ncsync_check_class_states(const struct ncsync_check_result *res)
{
	return res ? res->class_states : 0;
}

unsigned int ncsync_check_ndefects(const struct ncsync_check_result *res)
{
	unsigned int k, n = 0;

	for (k = 0; res && k < NCSYNC_DEFECT_KINDS; k++)
		n += !!res->defects[k];
	return n;
}

const struct ncsync_check_defect *
ncsync_check_defect(const struct ncsync_check_result *res, unsigned int i)
{
	unsigned int k;

	for (k = 0; res && k < NCSYNC_DEFECT_KINDS; k++)
		if (res->defects[k] && !i--)
			return res->defects[k];
	return NULL;
}

void ncsync_check_free(struct ncsync_check_result *res)
{
	unsigned int k;

	if (!res)
		return;
	for (k = 0; k < NCSYNC_DEFECT_KINDS; k++)
		ck_defect_free(res->defects[k]);
	free(res);
}
