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

static int simple_opts(const struct cmd *c, int argc, char **argv,
		       char ***pos, int *npos)
{
	int ret = parse_opts(c, argc, argv, NULL, NULL, NULL, pos, npos);

	return ret ? OPTS_EXIT(ret) : 0;
}

int cmd_info(int argc, char **argv)
{
	const struct cmd *c = find_cmd("info");
	const struct ncsync_info *in;
	struct ncsync_stats st;
	struct ncsync_dev *dev;
	struct nl_core *core;
	bool have_nl;
	char **pos;
	int npos, ret, e;

	ret = simple_opts(c, argc, argv, &pos, &npos);
	if (ret || !pos)
		return ret;
	if (npos)
		return usage_err(c, "unexpected argument '%s'", pos[0]);
	ret = open_core(false, &dev);
	if (ret)
		return ret;
	in = ncsync_get_info(dev);
	ret = ncsync_stats(dev, &st);
	if (ret) {
		ncsync_close(dev);
		return fail_err(ret, "stats of core %u", opt_core);
	}
	core = calloc(1, sizeof(*core));
	have_nl = core && !nl_get_core(opt_core, core, true);

	if (opt_json) {
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
		for (e = 0; e < 8; e++)
			if (in->engine_mask & (1U << e))
				j_str(NULL, engine_label(e));
		j_end();
		j_uint("num_regs", in->num_regs);
		j_uint("watchdog_ms", in->watchdog_ms);
		if (have_nl)
			j_bool("notify", core->notify);
		j_obj("stats");
		j_uint("seq", st.seq);
		j_uint("resets", st.resets);
		j_uint("event_set_while_set", st.event_set_while_set);
		j_uint("event_clear_while_clear", st.event_clear_while_clear);
		j_uint("sem_overflows", st.sem_overflows);
		j_uint("notify_drops", st.notify_drops);
		j_uint("log_suppressed", st.log_suppressed);
		j_uint("wakeups", st.wakeups);
		j_end();
		j_end();
		j_done();
	} else {
		printf("core %u of %u (/dev/ncsync%u), API %u\n", in->core,
		       in->num_cores, in->core, in->api_version);
		printf("  semaphores %u, runtime reserves %u-%u\n",
		       in->num_sems, in->rt_reserved_sem_first,
		       in->rt_reserved_sem_first + in->rt_reserved_sem_count -
		       1);
		printf("  events     %u, runtime reserves %u-%u\n",
		       in->num_events, in->rt_reserved_event_first,
		       in->rt_reserved_event_first +
		       in->rt_reserved_event_count - 1);
		printf("  engines   ");
		for (e = 0; e < 8; e++)
			if (in->engine_mask & (1U << e))
				printf(" %s(%d)", engine_label(e), e);
		printf(", mask 0x%02x, %u registers each\n", in->engine_mask,
		       in->num_regs);
		printf("  device memory %u KiB at mmap offset 0x%x\n",
		       in->devmem_size / 1024, in->devmem_offset);
		printf("  watchdog %u ms", in->watchdog_ms);
		if (have_nl)
			printf(", event notifications %s",
			       core->notify ? "on" : "off");
		printf("\n  seq %llu, resets %llu, set while set %llu, clear while clear %llu, overflows %llu, notify drops %llu\n",
		       (unsigned long long)st.seq,
		       (unsigned long long)st.resets,
		       (unsigned long long)st.event_set_while_set,
		       (unsigned long long)st.event_clear_while_clear,
		       (unsigned long long)st.sem_overflows,
		       (unsigned long long)st.notify_drops);
		printf("  log reports suppressed %llu, wake-ups %llu\n",
		       (unsigned long long)st.log_suppressed,
		       (unsigned long long)st.wakeups);
	}
	if (core)
		nl_core_release(core);
	free(core);
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

int cmd_sem(int argc, char **argv)
{
	const struct cmd *c = find_cmd("sem");
	struct ncsync_dev *dev;
	const char *sub;
	int32_t value = 1, after;
	uint32_t idx;
	char **pos;
	int npos, ret;

	ret = simple_opts(c, argc, argv, &pos, &npos);
	if (ret || !pos)
		return ret;
	if (!npos)
		return usage_err(c, "missing subcommand (get, set, inc, dec)");
	sub = pos[0];
	if (!strcmp(sub, "get"))
		return bank_get(c, true, pos + 1, npos - 1);
	if (strcmp(sub, "set") && strcmp(sub, "inc") && strcmp(sub, "dec"))
		return usage_err(c, "unknown subcommand '%s'", sub);
	if (npos < 2)
		return usage_err(c, "%s: missing index", sub);
	if (!parse_u32(pos[1], 255, &idx))
		return usage_err(c, "%s: invalid index '%s' (0-255)", sub,
				 pos[1]);
	if (!strcmp(sub, "set") && npos < 3)
		return usage_err(c, "set: missing value");
	if (npos > 3)
		return usage_err(c, "%s: unexpected argument '%s'", sub,
				 pos[3]);
	if (npos == 3 && !parse_s32(pos[2], &value))
		return usage_err(c, "%s: invalid value '%s'", sub, pos[2]);

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

int cmd_event(int argc, char **argv)
{
	const struct cmd *c = find_cmd("event");
	struct ncsync_dev *dev;
	const char *sub;
	uint32_t idx;
	char **pos;
	bool set;
	int npos, ret;

	ret = simple_opts(c, argc, argv, &pos, &npos);
	if (ret || !pos)
		return ret;
	if (!npos)
		return usage_err(c, "missing subcommand (get, set, clear)");
	sub = pos[0];
	if (!strcmp(sub, "get"))
		return bank_get(c, false, pos + 1, npos - 1);
	set = !strcmp(sub, "set");
	if (!set && strcmp(sub, "clear"))
		return usage_err(c, "unknown subcommand '%s'", sub);
	if (npos < 2)
		return usage_err(c, "%s: missing index", sub);
	if (!parse_u32(pos[1], 255, &idx))
		return usage_err(c, "%s: invalid index '%s' (0-255)", sub,
				 pos[1]);
	if (npos > 2)
		return usage_err(c, "%s: unexpected argument '%s'", sub,
				 pos[2]);
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

static const struct {
	const char *name;
	const char *alias;
	uint8_t mode;
} sem_ops[] = {
	{ "==", "eq", NCSYNC_WAIT_SEM_EQ },
	{ "<", "lt", NCSYNC_WAIT_SEM_LT },
	{ "<=", "le", NCSYNC_WAIT_SEM_LE },
	{ ">", "gt", NCSYNC_WAIT_SEM_GT },
	{ ">=", "ge", NCSYNC_WAIT_SEM_GE },
}, ev_modes[] = {
	{ "set", NULL, NCSYNC_WAIT_EVT_SET },
	{ "clear", NULL, NCSYNC_WAIT_EVT_CLEAR },
	{ "set_then_clear", NULL, NCSYNC_WAIT_EVT_SET_THEN_CLEAR },
	{ "clear_then_set", NULL, NCSYNC_WAIT_EVT_CLEAR_THEN_SET },
};

static int wait_opt(int id, const char *arg, void *ctx)
{
	uint32_t *timeout = ctx;

	if (!parse_ms(arg, timeout))
		return usage_err(find_cmd("wait"),
				 "invalid --timeout '%s' (0-3600000 ms)", arg);
	return 0;
}

int cmd_wait(int argc, char **argv)
{
	static const struct opt opts[] = {
		{ "timeout", 't', true, 0 },
		{ NULL },
	};
	const struct cmd *c = find_cmd("wait");
	uint32_t timeout = UINT32_MAX, idx;
	struct timespec deadline;
	struct ncsync_dev *dev;
	int32_t value = 0, seen = 0;
	bool sem, found = false;
	uint8_t mode = 0;
	char what[64];
	char **pos;
	int npos, ret;
	size_t i;

	ret = parse_opts(c, argc, argv, opts, wait_opt, &timeout, &pos, &npos);
	if (ret)
		return OPTS_EXIT(ret);
	if (!npos)
		return usage_err(c, "missing 'sem' or 'event'");
	sem = !strcmp(pos[0], "sem");
	if (!sem && strcmp(pos[0], "event") && strcmp(pos[0], "ev"))
		return usage_err(c, "expected 'sem' or 'event', not '%s'",
				 pos[0]);
	if (npos != (sem ? 4 : 3))
		return usage_err(c, sem ? "expected: sem N OP VALUE" :
				 "expected: event N set|clear");
	if (!parse_u32(pos[1], 255, &idx))
		return usage_err(c, "invalid index '%s' (0-255)", pos[1]);
	if (sem) {
		for (i = 0; i < ARRAY_SIZE(sem_ops); i++) {
			if (!strcmp(pos[2], sem_ops[i].name) ||
			    !strcmp(pos[2], sem_ops[i].alias)) {
				mode = sem_ops[i].mode;
				found = true;
			}
		}
		if (!found)
			return usage_err(c, "invalid comparison '%s' (== < <= > >= eq lt le gt ge)",
					 pos[2]);
		if (!parse_s32(pos[3], &value))
			return usage_err(c, "invalid value '%s'", pos[3]);
		snprintf(what, sizeof(what), "sem[%u] %s %d", idx,
			 wait_op(mode), value);
	} else {
		for (i = 0; i < ARRAY_SIZE(ev_modes); i++) {
			if (!strcmp(pos[2], ev_modes[i].name)) {
				mode = ev_modes[i].mode;
				found = true;
			}
		}
		if (!found)
			return usage_err(c, "invalid event state '%s' (set, clear, set_then_clear, clear_then_set)",
					 pos[2]);
		snprintf(what, sizeof(what), "ev[%u] %s", idx, pos[2]);
	}

	/* The then-clear and then-set forms change the bank. */
	ret = open_core(!sem && (mode == NCSYNC_WAIT_EVT_SET_THEN_CLEAR ||
				 mode == NCSYNC_WAIT_EVT_CLEAR_THEN_SET), &dev);
	if (ret)
		return ret;
	if (timeout != UINT32_MAX)
		ncsync_deadline_after(&deadline, timeout * 1000000LL);
	if (sem)
		ret = ncsync_wait_sem(dev, idx, mode, value,
				      timeout != UINT32_MAX ? &deadline : NULL,
				      &seen);
	else
		ret = ncsync_wait_event(dev, idx, mode,
					timeout != UINT32_MAX ? &deadline :
					NULL);
	if (ret == -ETIMEDOUT && sem)
		seen = ncsync_sem_read(dev, idx);
	ncsync_close(dev);
	if (ret == -ETIMEDOUT && sem)
		return fail_msg("wait %s: %s after %u ms (now %d)", what,
				strerror(ETIMEDOUT), timeout, seen);
	if (ret)
		return fail_err(ret, "wait %s", what);
	if (opt_json) {
		j_obj(NULL);
		j_str("bank", sem ? "sem" : "event");
		j_uint("index", idx);
		if (sem)
			j_int("value", seen);
		else
			j_str("state", pos[2]);
		j_end();
		j_done();
	} else if (sem) {
		printf("sem[%u] = %d\n", idx, seen);
	} else {
		printf("ev[%u] %s\n", idx, pos[2]);
	}
	return EXIT_OK;
}
