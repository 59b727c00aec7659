// SPDX-License-Identifier: GPL-2.0
/*
 * ncsync(1): ncsync wait sem N OP VALUE | event N MODE [--timeout MS].
 */
#include <errno.h>
#include <string.h>

#include "cmds.h"
#include "device.h"
#include "opts.h"
#include "print.h"

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

int cmd_wait(const struct cmd *c, int argc, char **argv)
{
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
