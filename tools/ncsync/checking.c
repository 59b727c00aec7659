// SPDX-License-Identifier: GPL-2.0
/*
 * ncsync(1): one check of a program, for check, replay and run --check,
 * through libncsync's ncsync_check() (Documentation/ncsync/check.rst):
 * its options, the "# options:" line of its file, its program built, the
 * library's options, and the search.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "build.h"
#include "check.h"
#include "print.h"

/* "N=V[,N=V...]" into the semaphores of struct init_banks. */
static bool parse_sems(const char *s, void *field)
{
	struct init_banks *b = field;
	char *dup = strdup(s), *w, *save, *eq;
	uint32_t idx;
	int32_t v;
	bool ok = dup && *dup;

	for (w = ok ? strtok_r(dup, ",", &save) : NULL; w && ok;
	     w = strtok_r(NULL, ",", &save)) {
		eq = strchr(w, '=');
		if (eq)
			*eq = '\0';
		ok = eq && parse_u32(w, NCSYNC_NUM_SEMS - 1, &idx) &&
		     parse_s32(eq + 1, &v);
		if (ok)
			b->sems[idx] = v;
	}
	free(dup);
	return ok;
}

/* "N[,N...]": events set at the start. */
static bool parse_events(const char *s, void *field)
{
	struct init_banks *b = field;
	char *dup = strdup(s), *w, *save;
	uint32_t idx;
	bool ok = dup && *dup;

	for (w = ok ? strtok_r(dup, ",", &save) : NULL; w && ok;
	     w = strtok_r(NULL, ",", &save)) {
		ok = parse_u32(w, NCSYNC_NUM_EVENTS - 1, &idx);
		if (ok)
			b->events[idx] = 1;
	}
	free(dup);
	return ok;
}

/*
 * "KIND[,KIND...]" of the defects a Promela model holds, by their names
 * (ncsync_defect_name()), or "all": bits 1 << NCSYNC_DEFECT_*.
 */
static bool parse_promela_kinds(const char *s, void *field)
{
	uint32_t *kinds = field, k;
	char *dup = strdup(s), *w, *save;
	bool ok = dup && *dup;

	for (w = ok ? strtok_r(dup, ",", &save) : NULL; w && ok;
	     w = strtok_r(NULL, ",", &save)) {
		if (!strcmp(w, "all")) {
			*kinds |= NCSYNC_PROMELA_KINDS;
			continue;
		}
		for (k = 0; k < NCSYNC_DEFECT_KINDS; k++)
			if (NCSYNC_PROMELA_KINDS & 1U << k &&
			    !strcmp(w, ncsync_defect_name(k)))
				break;
		ok = k < NCSYNC_DEFECT_KINDS;
		if (ok)
			*kinds |= 1U << k;
	}
	free(dup);
	return ok;
}

enum {
	CO_LOWERING, CO_SEM, CO_EVENT, CO_MAX_STATES, CO_TIMEOUT,
	CO_DMA_FIFO, CO_WATCHDOG, CO_STRICT, CO_CONFORMANCE, CO_LNC,
	CO_MAX_MEMORY,
	CO_NO_ACCEL,
	CO_NO_SYMMETRY,
	CO_PROMELA,
	CO_PROMELA_KINDS,
};

const struct opt check_opt_table[] = {
	[CO_LOWERING] = OPT_LOWERING(struct check_opts, lowering),
	[CO_SEM] = { "sem", 'S', OPT_PARSE, "N=VALUE[,N=VALUE...]",
		     OPT_FIELD(struct check_opts, init), .parse = parse_sems },
	[CO_EVENT] = { "event", 'E', OPT_PARSE, "N[,N...]",
		       OPT_FIELD(struct check_opts, init),
		       .parse = parse_events },
	[CO_MAX_STATES] = { "max-states", 'm', OPT_U32, "1-4294967295",
			    OPT_FIELD(struct check_opts, max_states),
			    .min = 1, .max = UINT32_MAX },
	[CO_TIMEOUT] = OPT_TIMEOUT(struct check_opts, timeout),
	[CO_DMA_FIFO] = { "dma-fifo", 'F', OPT_FLAG,
			  OPT_FIELD(struct check_opts, dma_fifo) },
	[CO_WATCHDOG] = { "watchdog", 'w', OPT_U32, "1-3600000 ms",
			  OPT_FIELD(struct check_opts, watchdog),
			  .min = 1, .max = MS_MAX },
	[CO_STRICT] = { "strict", 's', OPT_FLAG,
			OPT_FIELD(struct check_opts, strict) },
	[CO_CONFORMANCE] = { "conformance", 'C', OPT_FLAG,
			     OPT_FIELD(struct check_opts, conformance) },
	[CO_LNC] = { "lnc", 'L', OPT_U32, "1-64",
		     OPT_FIELD(struct check_opts, lnc),
		     .min = 1, .max = NCSYNC_MAX_LNC },
	[CO_MAX_MEMORY] = { "max-memory", 'M', OPT_U32, "1-1048576 MiB",
			    OPT_FIELD(struct check_opts, max_memory),
			    .min = 1, .max = 1U << 20 },
	[CO_NO_ACCEL] = { "no-accel", 'A', OPT_FLAG,
			  OPT_FIELD(struct check_opts, no_accel) },
	[CO_NO_SYMMETRY] = { "no-symmetry", 'Y', OPT_FLAG,
			     OPT_FIELD(struct check_opts, no_symmetry) },
	[CO_PROMELA] = { "promela", 'P', OPT_PATH,
			 OPT_FIELD(struct check_opts, promela) },
	[CO_PROMELA_KINDS] = { "promela-kinds", 'K', OPT_PARSE,
			       "all|deadlock,dma-race,event,overflow",
			       OPT_FIELD(struct check_opts, promela_kinds),
			       .parse = parse_promela_kinds },
	{ /* sentinel */ }
};

void check_defaults(struct check_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->lowering = NCSYNC_LOWER_COUNTER;
	o->max_states = NCSYNC_CHECK_MAX_STATES;
	o->max_memory = NCSYNC_CHECK_MAX_MEMORY_MB;
}

int check_bad_input(int ret)
{
	return ret == EXIT_FAIL ? EXIT_USAGE : ret;
}

/*
 * --conformance: the profile's first refusal is bad input (exit 2), named
 * as ncsync run --conformance names the kernel's.
 */
static int conformance(const struct checking *ck)
{
	struct ncsync_submit_error err;
	char where[24] = "", what[64];
	unsigned int i;

	for (i = 0; i < ck->nparts; i++) {
		if (!ncsync_program_conform(ck->parts[i].prog, &err))
			continue;
		if (ck->multi)
			snprintf(where, sizeof(where), "core %u: ",
				 ck->parts[i].core);
		refused_record(what, sizeof(what), ck->parts[i].prog, &err);
		fail_msg("%s: %s%s: %s", ck->path, where, what,
			 ncsync_reason_name(err.reason));
		return EXIT_USAGE;
	}
	return 0;
}

int checking_build(struct checking *ck)
{
	struct build_opts bo = {
		.lowering = ck->o.lowering,
		.lowering_given = ck->given & (1U << CO_LOWERING),
	};
	unsigned int n;
	int ret;

	ret = read_file(ck->path, &ck->text, &ck->len);
	if (ret)
		return fail_err(ret, "%s", ck->path);
	if (!is_image(ck->text, ck->len)) {
		check_defaults(&ck->file);
		ret = file_opts(ck->cmd, ck->path, ck->text, check_opt_table,
				&ck->file, &ck->o, &ck->given, &ck->opts_line);
		if (ret)
			return ret;
		if (ck->file.promela || ck->file.promela_kinds) {
			fail_msg("%s: --promela%s in its '# options:' line: a file names no output",
				 ck->path,
				 ck->file.promela ? "" : "-kinds");
			return EXIT_USAGE;
		}
		bo.lowering = ck->o.lowering;
	}
	bo.lnc = ck->o.lnc;
	ret = build_parts(ck->path, ck->text, ck->len, &bo, ck->parts, &n);
	if (ret)
		return ret;
	ck->multi = n;
	ck->nparts = n ? n : 1;
	if (ck->o.conformance) {
		ret = conformance(ck);
		if (ret)
			return ret;
	}
	ncsync_check_opts_init(&ck->copts);
	ck->copts.max_states = ck->o.max_states;
	ck->copts.timeout_ms = ck->o.timeout;
	ck->copts.max_memory_mb = ck->o.max_memory;
	ck->copts.flags = (ck->o.dma_fifo ? NCSYNC_CHECK_F_DMA_FIFO : 0) |
			  (ck->o.no_accel ? NCSYNC_CHECK_F_NO_ACCEL : 0) |
			  (ck->o.no_symmetry ? NCSYNC_CHECK_F_NO_SYMMETRY : 0);
	memcpy(ck->copts.sems, ck->o.init.sems, sizeof(ck->copts.sems));
	memcpy(ck->copts.events, ck->o.init.events,
	       sizeof(ck->copts.events));
	return 0;
}

void checking_free(struct checking *ck)
{
	unsigned int i;

	for (i = 0; i < ck->nparts; i++)
		ncsync_program_free(ck->parts[i].prog);
	free(ck->text);
	free(ck->opts_line);
}

int check_parts(const struct checking *ck, struct ncsync_check_result **res)
{
	int ret = ncsync_check_cores(ck->parts, ck->nparts, &ck->copts, res);

	if (ret == -E2BIG) {
		fail_msg("%s: more than %u cores (with the peers its DMA records signal) or %u engines: more than the checker follows",
			 ck->path, NCSYNC_CHECK_MAX_CORES,
			 NCSYNC_CHECK_MAX_ENGINES);
		return EXIT_USAGE;
	}
	if (ret) {
		/* An error (out of memory) is no verdict: exit status 2. */
		fail_err(ret, "%s: check", ck->path);
		return EXIT_USAGE;
	}
	return 0;
}

int check_before_run(const char *path, const struct ncsync_asm_part *parts,
		     unsigned int n)
{
	struct checking *ck = calloc(1, sizeof(*ck));
	struct ncsync_check_result *res;
	int ret;

	if (!ck)
		return fail_err(ENOMEM, "%s: check", path);
	ck->path = path;
	ck->multi = n;
	ck->nparts = n ? n : 1;
	memcpy(ck->parts, parts, ck->nparts * sizeof(*parts));
	ncsync_check_opts_init(&ck->copts);
	ret = check_parts(ck, &res);
	if (ret)
		goto out;
	switch (ncsync_check_verdict(res)) {
	case NCSYNC_CHECK_DEFECT:
		check_report(ck, res);
		fflush(stdout);
		ret = fail_msg("%s: check found a defect: not submitted", path);
		break;
	case NCSYNC_CHECK_INCONCLUSIVE:
		fprintf(stderr, "ncsync: %s: check inconclusive after %llu states (limit: %s); submitting\n",
			path, (unsigned long long)ncsync_check_states(res),
			ncsync_check_limit_name(ncsync_check_limit(res)));
		break;
	default:
		break;
	}
	ncsync_check_free(res);
out:
	free(ck);	/* the parts are the caller's */
	return ret;
}
