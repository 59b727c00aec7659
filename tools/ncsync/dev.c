// SPDX-License-Identifier: GPL-2.0
/*
 * ncsync(1): the banks of a core through libncsync.
 *
 *   ncsync info
 *   ncsync sem get N[..M] ... | set N VALUE | inc N [VALUE] | dec N [VALUE]
 *   ncsync event get N[..M] ... | set N | clear N
 *   ncsync wait sem N OP VALUE | event N MODE [--timeout MS]
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tool.h"

/* info */

struct info {
	const struct ncsync_info *in;
	struct ncsync_stats st;
	struct nl_core *core;	/* NULL: out of memory */
	bool have_nl;
};

void json_stats_counts(const struct ncsync_stats *st)
{
	j_uint("resets", st->resets);
	j_uint("event_set_while_set", st->event_set_while_set);
	j_uint("event_clear_while_clear", st->event_clear_while_clear);
	j_uint("sem_overflows", st->sem_overflows);
	j_uint("notify_drops", st->notify_drops);
}

void print_fault_counts(const struct ncsync_stats *st)
{
	printf("set while set %llu, clear while clear %llu, overflows %llu, notify drops %llu",
	       (unsigned long long)st->event_set_while_set,
	       (unsigned long long)st->event_clear_while_clear,
	       (unsigned long long)st->sem_overflows,
	       (unsigned long long)st->notify_drops);
}

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

int cmd_info(int argc, char **argv)
{
	const struct cmd *c = find_cmd("info");
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

/* "N" or "N..M" into [*first, *last]. */
static bool parse_range(const char *s, uint32_t *first, uint32_t *last)
{
	const char *dots = strstr(s, "..");
	char buf[32];

	if (!dots) {
		if (!parse_u32(s, 255, first))
			return false;
		*last = *first;
		return true;
	}
	if ((size_t)(dots - s) >= sizeof(buf))
		return false;
	memcpy(buf, s, dots - s);
	buf[dots - s] = '\0';
	return parse_u32(buf, 255, first) && parse_u32(dots + 2, 255, last) &&
	       *first <= *last;
}

/* sem get / event get: the values of the listed indices and ranges. */
static int bank_get(const struct cmd *c, bool sem, char **pos, int npos)
{
	uint32_t first[64], last[64];
	struct ncsync_dev *dev;
	unsigned int n = 0;
	int i, ret;
	uint32_t k;

	if (!npos)
		return usage_err(c, "get: missing index");
	if (npos > 64)
		return usage_err(c, "get: too many indices");
	for (i = 0; i < npos; i++) {
		if (!parse_range(pos[i], &first[i], &last[i]))
			return usage_err(c, "get: invalid index '%s' (0-255, or N..M)",
					 pos[i]);
		n += last[i] - first[i] + 1;
	}
	ret = open_core(false, &dev);
	if (ret)
		return ret;
	if (opt_json)
		j_arr(NULL);
	for (i = 0; i < npos; i++) {
		for (k = first[i]; k <= last[i]; k++) {
			int32_t v = sem ? ncsync_sem_read(dev, k) :
				    ncsync_event_read(dev, k);

			if (opt_json) {
				j_obj(NULL);
				j_uint("index", k);
				if (sem)
					j_int("value", v);
				else
					j_bool("set", v);
				j_end();
			} else if (n == 1) {
				printf("%d\n", v);
			} else {
				printf("%s[%u] = %d\n", sem ? "sem" : "ev", k,
				       v);
			}
		}
	}
	if (opt_json) {
		j_end();
		j_done();
	}
	ncsync_close(dev);
	return EXIT_OK;
}

static void print_sem(unsigned int idx, int32_t v)
{
	if (opt_json) {
		j_obj(NULL);
		j_uint("index", idx);
		j_int("value", v);
		j_end();
		j_done();
	} else {
		printf("sem[%u] = %d\n", idx, v);
	}
}

/*
 * The start of sem and event: the subcommand, and the index of any but
 * get, which runs here.  Return the subcommand, or NULL with *@ret the
 * exit status.
 */
static const char *bank_sub(const struct cmd *c, int argc, char **argv,
			    bool sem, struct args *a, uint32_t *idx, int *ret)
{
	const char *sub;

	*ret = parse_opts(c, argc, argv, NULL, NULL, a);
	if (*ret) {
		*ret = OPTS_EXIT(*ret);
		return NULL;
	}
	if (!a->npos) {
		*ret = usage_err(c, "missing subcommand (%s)",
				 sem ? "get, set, inc, dec" : "get, set, clear");
		return NULL;
	}
	sub = a->pos[0];
	if (!strcmp(sub, "get")) {
		*ret = bank_get(c, sem, a->pos + 1, a->npos - 1);
		return NULL;
	}
	if (strcmp(sub, "set") && (sem ? strcmp(sub, "inc") &&
				   strcmp(sub, "dec") : strcmp(sub, "clear")))
		*ret = usage_err(c, "unknown subcommand '%s'", sub);
	else if (a->npos < 2)
		*ret = usage_err(c, "%s: missing index", sub);
	else if (!parse_u32(a->pos[1], 255, idx))
		*ret = usage_err(c, "%s: invalid index '%s' (0-255)", sub,
				 a->pos[1]);
	return *ret ? NULL : sub;
}

int cmd_sem(int argc, char **argv)
{
	const struct cmd *c = find_cmd("sem");
	int32_t value = 1, after;
	struct ncsync_dev *dev;
	const char *sub;
	struct args a;
	uint32_t idx;
	int ret;

	sub = bank_sub(c, argc, argv, true, &a, &idx, &ret);
	if (!sub)
		return ret;
	if (!strcmp(sub, "set") && a.npos < 3)
		return usage_err(c, "set: missing value");
	if (a.npos > 3)
		return usage_err(c, "%s: unexpected argument '%s'", sub,
				 a.pos[3]);
	if (a.npos == 3 && !parse_s32(a.pos[2], &value))
		return usage_err(c, "%s: invalid value '%s'", sub, a.pos[2]);

	ret = open_core(true, &dev);
	if (ret)
		return ret;
	if (!strcmp(sub, "set"))
		ret = ncsync_sem_set(dev, idx, value, &after);
	else if (!strcmp(sub, "inc"))
		ret = ncsync_sem_inc(dev, idx, (uint32_t)value, &after);
	else
		ret = ncsync_sem_dec(dev, idx, (uint32_t)value, &after);
	ncsync_close(dev);
	if (ret)
		return fail_err(ret, "sem %s %u", sub, idx);
	print_sem(idx, after);
	return EXIT_OK;
}

/* reset: NCSYNC_IOC_RESET on core -c, then the core's sequence. */
int cmd_reset(int argc, char **argv)
{
	const struct cmd *c = find_cmd("reset");
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

int cmd_event(int argc, char **argv)
{
	const struct cmd *c = find_cmd("event");
	struct ncsync_dev *dev;
	const char *sub;
	struct args a;
	uint32_t idx;
	bool set;
	int ret;

	sub = bank_sub(c, argc, argv, false, &a, &idx, &ret);
	if (!sub)
		return ret;
	set = !strcmp(sub, "set");
	if (a.npos > 2)
		return usage_err(c, "%s: unexpected argument '%s'", sub,
				 a.pos[2]);
	ret = open_core(true, &dev);
	if (ret)
		return ret;
	ret = set ? ncsync_event_set(dev, idx) : ncsync_event_clear(dev, idx);
	ncsync_close(dev);
	if (ret)
		return fail_err(ret, "event %s %u", sub, idx);
	if (opt_json) {
		j_obj(NULL);
		j_uint("index", idx);
		j_bool("set", set);
		j_end();
		j_done();
	} else {
		printf("ev[%u] = %d\n", idx, set);
	}
	return EXIT_OK;
}

/* wait */

/* Words for the comparisons that need no quoting in a shell. */
static const struct {
	const char *word;
	const char *op;
} sem_words[] = {
	{ "eq", "==" }, { "lt", "<" }, { "le", "<=" }, { "gt", ">" },
	{ "ge", ">=" },
};

struct wait_opts {
	uint32_t timeout;	/* UINT32_MAX: none */
};

static const struct opt wait_opt_table[] = {
	OPT_TIMEOUT(struct wait_opts, timeout),
	{ /* sentinel */ }
};

/* What wait waits for. */
struct wait_req {
	bool sem;
	uint32_t idx;
	uint8_t mode;
	int32_t value;		/* sem: the threshold */
	const char *state;	/* event: the state as given */
	char what[64];		/* "sem[3] >= 5", "ev[2] set" */
};

/* The comparison of "==" ... ">=" or "eq" ... "ge"; false if none. */
static bool sem_op_lookup(const char *s, uint8_t *mode)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(sem_words); i++)
		if (!strcmp(s, sem_words[i].word))
			s = sem_words[i].op;
	return !ncsync_wait_mode_parse(s, mode) && *mode <= NCSYNC_WAIT_SEM_GE;
}

/* The event wait of "set" ... "clear_then_set"; false if none. */
static bool event_mode_lookup(const char *s, uint8_t *mode)
{
	return !ncsync_wait_mode_parse(s, mode) && *mode > NCSYNC_WAIT_SEM_GE;
}

/* "sem N OP VALUE": the comparison and the value. */
static int wait_sem_parse(const struct cmd *c, char **pos,
			  struct wait_req *w)
{
	if (!sem_op_lookup(pos[2], &w->mode))
		return usage_err(c, "invalid comparison '%s' (== < <= > >= eq lt le gt ge)",
				 pos[2]);
	if (!parse_s32(pos[3], &w->value))
		return usage_err(c, "invalid value '%s'", pos[3]);
	snprintf(w->what, sizeof(w->what), "sem[%u] %s %d", w->idx,
		 ncsync_wait_mode_name(w->mode), w->value);
	return 0;
}

/* "event N STATE": the mode. */
static int wait_event_parse(const struct cmd *c, char **pos,
			    struct wait_req *w)
{
	if (!event_mode_lookup(pos[2], &w->mode))
		return usage_err(c, "invalid event state '%s' (set, clear, set_then_clear, clear_then_set)",
				 pos[2]);
	w->state = pos[2];
	snprintf(w->what, sizeof(w->what), "ev[%u] %s", w->idx, pos[2]);
	return 0;
}

static int wait_parse(const struct cmd *c, const struct args *a,
		      struct wait_req *w)
{
	char **pos = a->pos;

	if (!a->npos)
		return usage_err(c, "missing 'sem' or 'event'");
	w->sem = !strcmp(pos[0], "sem");
	if (!w->sem && strcmp(pos[0], "event") && strcmp(pos[0], "ev"))
		return usage_err(c, "expected 'sem' or 'event', not '%s'",
				 pos[0]);
	if (a->npos != (w->sem ? 4 : 3))
		return usage_err(c, w->sem ? "expected: sem N OP VALUE" :
				 "expected: event N set|clear");
	if (!parse_u32(pos[1], 255, &w->idx))
		return usage_err(c, "invalid index '%s' (0-255)", pos[1]);
	return w->sem ? wait_sem_parse(c, pos, w) : wait_event_parse(c, pos, w);
}

/* Wait; *@seen: the semaphore's value when it ended. */
static int wait_execute(const struct wait_req *w, uint32_t timeout,
			int32_t *seen)
{
	const struct timespec *dl = NULL;
	struct timespec deadline;
	struct ncsync_dev *dev;
	int ret;

	/* The then-clear and then-set forms change the bank. */
	ret = open_core(!w->sem &&
			(w->mode == NCSYNC_WAIT_EVT_SET_THEN_CLEAR ||
			 w->mode == NCSYNC_WAIT_EVT_CLEAR_THEN_SET), &dev);
	if (ret)
		return ret;
	if (timeout != UINT32_MAX) {
		ncsync_deadline_after(&deadline, timeout * 1000000LL);
		dl = &deadline;
	}
	if (w->sem)
		ret = ncsync_wait_sem(dev, w->idx, w->mode, w->value, dl, seen);
	else
		ret = ncsync_wait_event(dev, w->idx, w->mode, dl);
	if (ret == -ETIMEDOUT && w->sem)
		*seen = ncsync_sem_read(dev, w->idx);
	ncsync_close(dev);
	if (ret == -ETIMEDOUT && w->sem)
		return fail_msg("wait %s: timed out after %u ms (now %d)",
				w->what, timeout, *seen);
	if (ret == -ETIMEDOUT)
		return fail_msg("wait %s: timed out after %u ms", w->what,
				timeout);
	if (ret)
		return fail_err(ret, "wait %s", w->what);
	return 0;
}

/* The state of the event when a wait of @mode on it passes. */
static bool wait_event_ends_set(uint8_t mode)
{
	return mode == NCSYNC_WAIT_EVT_SET ||
	       mode == NCSYNC_WAIT_EVT_CLEAR_THEN_SET;
}

static void wait_report(const struct wait_req *w, int32_t seen)
{
	if (opt_json) {
		j_obj(NULL);
		j_str("bank", bank_label(w->sem ? NCSYNC_BANK_SEM :
						  NCSYNC_BANK_EVENT));
		j_uint("index", w->idx);
		j_str("on", w->what);
		if (w->sem)
			j_int("value", seen);
		else
			j_bool("set", wait_event_ends_set(w->mode));
		j_end();
		j_done();
	} else if (w->sem) {
		printf("sem[%u] = %d\n", w->idx, seen);
	} else {
		printf("ev[%u] %s\n", w->idx, w->state);
	}
}

int cmd_wait(int argc, char **argv)
{
	const struct cmd *c = find_cmd("wait");
	struct wait_opts o = { .timeout = UINT32_MAX };
	struct wait_req w = { 0 };
	int32_t seen = 0;
	struct args a;
	int ret;

	ret = parse_opts(c, argc, argv, wait_opt_table, &o, &a);
	if (ret)
		return OPTS_EXIT(ret);
	ret = wait_parse(c, &a, &w);
	if (!ret)
		ret = wait_execute(&w, o.timeout, &seen);
	if (!ret)
		wait_report(&w, seen);
	return ret;
}
