// SPDX-License-Identifier: GPL-2.0
/*
 * ncsync(1): the banks of a core through libncsync.
 *
 *   ncsync sem get N[..M] ... | set N VALUE | inc N [VALUE] | dec N [VALUE]
 *   ncsync event get N[..M] ... | set N | clear N
 */
#include <string.h>

#include "cmds.h"
#include "device.h"
#include "opts.h"
#include "print.h"

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
 * The subcommands of sem and event besides get: a word each, and what it
 * does to the entry.  @value (sem): the amount, or the value of set;
 * *@after: the semaphore's value after it.
 */
struct bank_op {
	const char *name;
	bool needs_value;	/* sem: VALUE is not optional */
	bool sets;		/* event: the state it leaves */
	int (*sem)(struct ncsync_dev *dev, unsigned int idx, int32_t value,
		   int32_t *after);
	int (*event)(struct ncsync_dev *dev, unsigned int idx);
};

static int sem_inc(struct ncsync_dev *dev, unsigned int idx, int32_t value,
		   int32_t *after)
{
	return ncsync_sem_inc(dev, idx, (uint32_t)value, after);
}

static int sem_dec(struct ncsync_dev *dev, unsigned int idx, int32_t value,
		   int32_t *after)
{
	return ncsync_sem_dec(dev, idx, (uint32_t)value, after);
}

static const struct bank_op sem_ops[] = {
	{ "set", .needs_value = true, .sem = ncsync_sem_set },
	{ "inc", .sem = sem_inc },
	{ "dec", .sem = sem_dec },
	{ /* sentinel */ }
};

static const struct bank_op event_ops[] = {
	{ "set", .sets = true, .event = ncsync_event_set },
	{ "clear", .event = ncsync_event_clear },
	{ /* sentinel */ }
};

static const struct bank_op *bank_op_find(const struct bank_op *ops,
					  const char *name)
{
	for (; ops->name; ops++)
		if (!strcmp(ops->name, name))
			return ops;
	return NULL;
}

/*
 * The start of sem and event: the subcommand, and the index of any but
 * get, which runs here.  Return the subcommand, or NULL with *@ret the
 * exit status.
 */
static const struct bank_op *bank_sub(const struct cmd *c, int argc,
				      char **argv, bool sem, struct args *a,
				      uint32_t *idx, int *ret)
{
	const struct bank_op *op;
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
	op = bank_op_find(sem ? sem_ops : event_ops, sub);
	if (!op)
		*ret = usage_err(c, "unknown subcommand '%s'", sub);
	else if (a->npos < 2)
		*ret = usage_err(c, "%s: missing index", sub);
	else if (!parse_u32(a->pos[1], 255, idx))
		*ret = usage_err(c, "%s: invalid index '%s' (0-255)", sub,
				 a->pos[1]);
	return *ret ? NULL : op;
}

int cmd_sem(const struct cmd *c, int argc, char **argv)
{
	const struct bank_op *op;
	int32_t value = 1, after;
	struct ncsync_dev *dev;
	struct args a;
	uint32_t idx;
	int ret;

	op = bank_sub(c, argc, argv, true, &a, &idx, &ret);
	if (!op)
		return ret;
	if (op->needs_value && a.npos < 3)
		return usage_err(c, "set: missing value");
	if (a.npos > 3)
		return usage_err(c, "%s: unexpected argument '%s'", op->name,
				 a.pos[3]);
	if (a.npos == 3 && !parse_s32(a.pos[2], &value))
		return usage_err(c, "%s: invalid value '%s'", op->name,
				 a.pos[2]);

	ret = open_core(true, &dev);
	if (ret)
		return ret;
	ret = op->sem(dev, idx, value, &after);
	ncsync_close(dev);
	if (ret)
		return fail_err(ret, "sem %s %u", op->name, idx);
	print_sem(idx, after);
	return EXIT_OK;
}

int cmd_event(const struct cmd *c, int argc, char **argv)
{
	const struct bank_op *op;
	struct ncsync_dev *dev;
	struct args a;
	uint32_t idx;
	int ret;

	op = bank_sub(c, argc, argv, false, &a, &idx, &ret);
	if (!op)
		return ret;
	if (a.npos > 2)
		return usage_err(c, "%s: unexpected argument '%s'", op->name,
				 a.pos[2]);
	ret = open_core(true, &dev);
	if (ret)
		return ret;
	ret = op->event(dev, idx);
	ncsync_close(dev);
	if (ret)
		return fail_err(ret, "event %s %u", op->name, idx);
	if (opt_json) {
		j_obj(NULL);
		j_uint("index", idx);
		j_bool("set", op->sets);
		j_end();
		j_done();
	} else {
		printf("ev[%u] = %d\n", idx, op->sets);
	}
	return EXIT_OK;
}
