// SPDX-License-Identifier: GPL-2.0
/*
 * ncsync(1): ncsync replay FILE SCHEDULE... [the options of check]: a
 * schedule that check printed run on the host model step by step, the
 * state printed after each.  Its words are read back here as check_print.c
 * prints them.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cmds.h"
#include "print.h"

static bool parse_engine_name(const char *s, size_t n, uint8_t *engine)
{
	unsigned int e;

	for (e = 0; e < 8; e++) {
		const char *name = ncsync_engine_name(e);

		if (name && strlen(name) == n && !strncmp(name, s, n)) {
			*engine = e;
			return true;
		}
	}
	return false;
}

/* A word's "CORE:" prefix, into s->core; false if it is not one. */
static bool parse_core_prefix(const char **w, struct ncsync_check_step *s)
{
	const char *colon = strchr(*w, ':');
	char num[16];
	uint32_t v;

	if (!colon)
		return true;
	if ((size_t)(colon - *w) >= sizeof(num))
		return false;
	snprintf(num, sizeof(num), "%.*s", (int)(colon - *w), *w);
	if (!parse_u32(num, NCSYNC_MAX_LNC - 1, &v))
		return false;
	s->core = v;
	*w = colon + 1;
	return true;
}

/* One word of a schedule; false if it is not one. */
static bool parse_step(const char *w, struct ncsync_check_step *s)
{
	const char *at, *hash, *dot;
	char num[16];
	uint32_t v;

	memset(s, 0, sizeof(*s));
	if (!parse_core_prefix(&w, s))
		return false;
	at = strchr(w, '@');
	hash = strchr(w, '#');
	dot = at ? strchr(at, '.') : NULL;
	if (!at || !dot || !check_parse_part(dot + 1, &s->part) ||
	    (hash && hash > at) || !hash != (s->part != NCSYNC_PART_LAND) ||
	    !parse_engine_name(w, (hash ? hash : at) - w, &s->engine))
		return false;
	if (hash) {
		if ((size_t)(at - hash - 1) >= sizeof(num))
			return false;
		snprintf(num, sizeof(num), "%.*s", (int)(at - hash - 1),
			 hash + 1);
		if (!parse_u32(num, UINT32_MAX, &s->copy))
			return false;
	}
	if ((size_t)(dot - at - 1) >= sizeof(num))
		return false;
	snprintf(num, sizeof(num), "%.*s", (int)(dot - at - 1), at + 1);
	if (!parse_u32(num, UINT32_MAX, &v))
		return false;
	s->record = v;
	return true;
}

/* replay */

/*
 * The schedule of a file, or of standard input ("-"): the words of
 * check's "schedule:" line, or check -j's output, whose first defect's
 * "step" words are taken.  A malloc()ed string of words, or NULL with
 * the error printed.
 */
static char *schedule_file(const char *path)
{
	const char *p, *end;
	char *text, *out, *nl;
	size_t len, n = 0;
	int ret;

	ret = read_file(path, &text, &len);
	if (ret) {
		fail_err(ret, "schedule %s", path);
		return NULL;
	}
	p = strstr(text, "\"schedule\":[");
	if (!p) {
		/* check's text: the words of its first "schedule:" line. */
		p = strstr(text, "schedule:");
		if (!p)
			return text;
		p += strlen("schedule:");
		nl = strchr(p, '\n');
		out = strndup(p, nl ? (size_t)(nl - p) : strlen(p));
		free(text);
		if (!out)
			fail_err(ENOMEM, "schedule %s", path);
		return out;
	}
	out = calloc(1, len + 1);
	end = strchr(p, ']');
	while (out && end && (p = strstr(p, "\"step\":\"")) && p < end) {
		p += strlen("\"step\":\"");
		while (*p && *p != '"')
			out[n++] = *p++;
		out[n++] = ' ';
	}
	free(text);
	if (!out)
		fail_err(ENOMEM, "schedule %s", path);
	return out;
}

/*
 * The words of operand @w: itself, or those of the file @FILE names
 * ("@FILE", "-" for standard input).  malloc()ed, or NULL (printed).
 */
static char *schedule_words(const char *w)
{
	char *dup;

	if (!strcmp(w, "-"))
		return schedule_file("-");
	if (w[0] == '@')
		return schedule_file(w + 1);
	dup = strdup(w);
	if (!dup)
		fail_err(ENOMEM, "replay");
	return dup;
}

/* The schedule of the operands after FILE, one or more words each. */
static int parse_schedule(const struct cmd *c, char **words, int n,
			  struct ncsync_check_step **stepsp, size_t *nsteps)
{
	struct ncsync_check_step *steps = NULL, *ns;
	char *dup, *w, *save;
	size_t cap = 0;
	int i, ret = 0;

	*nsteps = 0;
	for (i = 0; i < n && !ret; i++) {
		dup = schedule_words(words[i]);
		if (!dup)
			ret = EXIT_USAGE;
		for (w = dup ? strtok_r(dup, " \t\n,", &save) : NULL;
		     w && !ret; w = strtok_r(NULL, " \t\n,", &save)) {
			if (*nsteps == cap) {
				cap = cap ? 2 * cap : 64;
				ns = realloc(steps, cap * sizeof(*steps));
				if (!ns) {
					ret = fail_err(ENOMEM, "replay");
					break;
				}
				steps = ns;
			}
			if (!parse_step(w, &steps[*nsteps]))
				ret = usage_err(c, "invalid step '%s'", w);
			else
				++*nsteps;
		}
		free(dup);
	}
	*stepsp = steps;
	return ret;
}

/*
 * One replay: the program and the schedule, the state after its last
 * step run (@last, @nlast cores), and the defect of check whose schedule
 * it is, if any.
 */
struct replay_print {
	const struct checking *ck;
	const struct ncsync_check_step *steps;
	struct ncsync_check_core last[NCSYNC_MAX_LNC];
	unsigned int nlast;
};

static int replay_step(void *arg, size_t i,
		       const struct ncsync_check_core *cores,
		       unsigned int ncores)
{
	struct replay_print *rp = arg;
	char word[48], line[NCSYNC_DISASM_LINE_MAX];
	const struct ncsync_check_step *s = i ? &rp->steps[i - 1] : NULL;

	rp->nlast = ncores < NCSYNC_MAX_LNC ? ncores : NCSYNC_MAX_LNC;
	memcpy(rp->last, cores, rp->nlast * sizeof(*cores));
	if (opt_json)
		return 0;
	if (!s) {
		printf("initial state\n");
	} else {
		check_step_word(rp->ck->multi, s, word, sizeof(word));
		check_step_text(rp->ck, s, line, sizeof(line));
		printf("step %zu: %s  %s", i, word, line);
		if (s->line)
			printf("  (line %u)", s->line);
		putchar('\n');
	}
	check_print_cores(rp->ck, cores, ncores, "    ");
	return 0;
}

static bool same_step(const struct ncsync_check_step *a,
		      const struct ncsync_check_step *b)
{
	return a->core == b->core && a->engine == b->engine &&
	       a->part == b->part && a->record == b->record &&
	       (a->part != NCSYNC_PART_LAND || a->copy == b->copy);
}

/*
 * The defect of @res whose schedule @steps is, or NULL: a schedule that
 * ends at a defect is one check reports, the checker is what says so.
 */
static const struct ncsync_check_defect *
schedule_defect(const struct ncsync_check_result *res,
		const struct ncsync_check_step *steps, size_t n)
{
	const struct ncsync_check_defect *d;
	unsigned int i;
	size_t k;

	for (i = 0; res && i < ncsync_check_ndefects(res); i++) {
		d = ncsync_check_defect(res, i);
		for (k = 0; d->nsteps == n && k < n; k++)
			if (!same_step(&d->steps[k], &steps[k]))
				break;
		if (d->nsteps == n && k == n)
			return d;
	}
	return NULL;
}

/* The end of a replay: its defect marked, its JSON; its exit status. */
static int replay_end(struct replay_print *rp, size_t n,
		      const struct ncsync_check_defect *d)
{
	const struct checking *ck = rp->ck;

	if (!opt_json) {
		if (d) {
			printf("defect at step %zu: ", n);
			check_print_what(ck, d);
			putchar('\n');
		}
		return d ? EXIT_FAIL : EXIT_OK;
	}
	j_obj(NULL);
	j_str("file", ck->path);
	check_json_schedule(ck->multi, rp->steps, n);
	check_json_cores(ck, rp->last, rp->nlast, d);
	j_arr("defects");
	if (d)
		check_json_defect(ck, d);
	j_end();
	j_end();
	j_done();
	return d ? EXIT_FAIL : EXIT_OK;
}

static int replay_execute(struct checking *ck,
			  struct ncsync_check_step *steps, size_t n)
{
	struct replay_print *rp = calloc(1, sizeof(*rp));
	struct ncsync_check_result *res = NULL;
	char word[48];
	size_t done = 0;
	int ret;

	if (!rp)
		return fail_err(ENOMEM, "replay");
	rp->ck = ck;
	rp->steps = steps;
	check_step_lines(ck, steps, n);
	ret = ncsync_check_replay_cores(ck->parts, ck->nparts, &ck->copts,
					steps, n, replay_step, rp, &done);
	if (ret == -E2BIG) {
		fail_msg("%s: more than %u cores or %u engines: more than the checker follows",
			 ck->path, NCSYNC_CHECK_MAX_CORES,
			 NCSYNC_CHECK_MAX_ENGINES);
		ret = EXIT_USAGE;
	} else if (ret == -EPERM) {
		check_step_word(ck->multi, &steps[done], word, sizeof(word));
		ret = fail_msg("%s: step %zu (%s) cannot run in this state",
			       ck->path, done + 1, word);
	} else if (ret) {
		ret = fail_err(ret, "%s: replay", ck->path);
	} else if (!(ret = check_parts(ck, &res))) {
		ret = replay_end(rp, n, schedule_defect(res, steps, n));
	}
	ncsync_check_free(res);
	free(rp);
	return ret;
}

int cmd_replay(const struct cmd *c, int argc, char **argv)
{
	struct checking *ck = calloc(1, sizeof(*ck));
	struct ncsync_check_step *steps = NULL;
	struct args a;
	size_t n = 0;
	int ret;

	if (!ck)
		return fail_err(ENOMEM, "replay");
	ck->cmd = c;
	check_defaults(&ck->o);
	ret = parse_opts(ck->cmd, argc, argv, check_opt_table, &ck->o, &a);
	if (!ret && a.npos < 2)
		ret = usage_err(ck->cmd, a.npos ? "missing SCHEDULE" :
				"missing FILE");
	if (!ret)
		ret = parse_schedule(ck->cmd, a.pos + 1, a.npos - 1, &steps,
				     &n);
	if (!ret) {
		ck->given = a.given;
		ck->path = a.pos[0];
		ret = check_bad_input(checking_build(ck));
	}
	if (!ret)
		ret = replay_execute(ck, steps, n);
	free(steps);
	checking_free(ck);
	free(ck);
	return OPTS_EXIT(ret);
}
