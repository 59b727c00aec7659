// SPDX-License-Identifier: GPL-2.0
/*
 * check-diff: differential testing of ncsync_check() against the kernel.
 *
 * Random small programs (two or three engines; semaphore P/V, waits,
 * events, bounded loops, DMA copies with completion updates, Drains) are
 * explored in full by the checker and run on /dev/ncsync0.  What the
 * kernel does must be among what the checker says can happen:
 *
 *   - a program the kernel ends done or halted ends, in some state of the
 *     checker where every engine ended (copies may still be in flight:
 *     the kernel takes the snapshot then), with the same semaphores
 *     0 .. 15;
 *   - a program the kernel's watchdog stops must have a reachable deadlock;
 *   - a program the checker calls safe must end done or halted.
 *
 * Meant for the test VM: tools/vm-run build/fuzz/check-diff [--count N]
 * [--seed S].  Prints TAP; exit status 1 on a disagreement.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

#define NSEMS	16

static uint64_t rng = 1;

/* Knuth's MMIX linear congruential generator, its high bits. */
static unsigned int rnd(unsigned int n)
{
	rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
	return (unsigned int)(rng >> 33) % n;
}

static const char *const menu[] = {
	"nop then sem[%u]++", "nop then sem[%u]--", "nop then sem[%u] += 3",
	"nop wait sem[%u] > 0 then sem[%u]--", "nop wait sem[%u] >= 1",
	"nop wait sem[%u] == 0", "nop then ev[%u] set",
	"nop then ev[%u] clear", "nop wait ev[%u] set_then_clear",
	"poll min r2, sem[%u]", "nop then sem[%u] = r2", "drain",
	"dma 0x%x, 0x%x, 64, latency=%u on_land sem[%u]++",
};

static void random_line(char *buf, size_t len)
{
	unsigned int m = rnd(sizeof(menu) / sizeof(menu[0]));
	unsigned int a = 1 + rnd(4), s = 0x40 * rnd(3), d = 0x40 * rnd(3);
	char stmt[96];

	if (m == 12)
		snprintf(stmt, sizeof(stmt), menu[m], s, d, rnd(500), a);
	else if (m == 3)
		snprintf(stmt, sizeof(stmt), menu[m], a, a);
	else
		snprintf(stmt, sizeof(stmt), menu[m], a);
	snprintf(buf, len, "\t%s\n", stmt);
}

/* Each stream: a few records, maybe run twice by a counted loop. */
static void random_program(char *text, size_t len)
{
	static const char *const engines[] = { "pool", "act", "pe" };
	unsigned int n = 2 + rnd(2), e, i, k;
	size_t off = 0;

	for (e = 0; e < n; e++) {
		off += snprintf(text + off, len - off, "engine %s\ntop:\n",
				engines[e]);
		k = 1 + rnd(4);
		for (i = 0; i < k; i++) {
			random_line(text + off, len - off);
			off += strlen(text + off);
		}
		if (!rnd(3))
			off += snprintf(text + off, len - off,
					"\taddi r1, r1, 1\n"
					"\tbr.lt.u32 r1, 2, top\n");
	}
}

static struct ncsync_program *build(const char *text,
				    const struct ncsync_info *info)
{
	struct ncsync_program *p = NULL;
	struct ncsync_asm_error err;

	if (ncsync_asm(text, &p, &err) ||
	    ncsync_program_set_reserved(p, info->rt_reserved_sem_first,
					info->rt_reserved_sem_count,
					info->rt_reserved_event_first,
					info->rt_reserved_event_count) ||
	    ncsync_program_lower(p, NCSYNC_LOWER_COUNTER) ||
	    ncsync_program_finalize(p)) {
		ncsync_program_free(p);
		return NULL;
	}
	return p;
}

/* Run @p on the reset core; its final state and semaphores 0 .. 15. */
static int run_kernel(struct ncsync_dev *dev, struct ncsync_program *p,
		      uint32_t *state, int32_t *sems)
{
	static struct ncsync_sem_value vals[NCSYNC_NUM_SEMS];
	struct ncsync_prog_status st;
	struct timespec deadline;
	unsigned int i;
	uint32_t id;
	int ret;

	ret = ncsync_reset(dev);
	if (!ret)
		ret = ncsync_program_submit(dev, p, 0, 300, &id, NULL);
	if (ret)
		return ret;
	ncsync_deadline_after(&deadline, 10000000000LL);
	do {
		ret = ncsync_program_wait(dev, id, &deadline, state);
	} while (ret == -EINTR);
	if (!ret)
		ret = ncsync_program_status(dev, id, true, &st, vals);
	if (ret)
		return ret;
	memset(sems, 0, NSEMS * sizeof(*sems));
	for (i = 0; i < st.nsems; i++)
		if (vals[i].index < NSEMS)
			sems[vals[i].index] = vals[i].value;
	*state = st.state;
	return 0;
}

/* Whether an ended final state of @f has semaphores @sems. */
static bool reachable(const struct ck_finals *f, const int32_t *sems)
{
	size_t i;

	for (i = 0; i < f->n; i++)
		if (f->ended[i] &&
		    !memcmp(f->sems + i * NSEMS, sems, NSEMS * sizeof(*sems)))
			return true;
	return false;
}

static bool has_deadlock(const struct ncsync_check_result *res)
{
	unsigned int i;

	for (i = 0; i < ncsync_check_ndefects(res); i++)
		if (ncsync_check_defect(res, i)->kind ==
		    NCSYNC_DEFECT_DEADLOCK)
			return true;
	return false;
}

/* 1 agree, 0 disagree, -1 not compared (a search cut short). */
static int compare(struct ncsync_dev *dev, struct ncsync_program *p)
{
	struct ck_finals f = { .nsems = NSEMS, .all_ended = true };
	struct ncsync_asm_part part = { .prog = p };
	struct ncsync_check_result *res = NULL;
	struct ncsync_check_opts o;
	int32_t sems[NSEMS];
	uint32_t state;
	int ret = -1;
	bool ended;

	ncsync_check_opts_init(&o);
	o.max_states = 200000;
	if (ncsync_check_run(&part, 1, &o, true, &f, &res) ||
	    !ncsync_check_complete(res) ||
	    run_kernel(dev, p, &state, sems))
		goto out;
	ended = state == NCSYNC_PROG_DONE || state == NCSYNC_PROG_HALTED;
	if (ended)
		ret = reachable(&f, sems);
	else
		ret = state == NCSYNC_PROG_TIMED_OUT && has_deadlock(res);
	if (ncsync_check_verdict(res) == NCSYNC_CHECK_SAFE && !ended)
		ret = 0;
out:
	free(f.h);
	free(f.sems);
	free(f.ended);
	ncsync_check_free(res);
	return ret;
}

int main(int argc, char **argv)
{
	unsigned int count = 200, i, same = 0, open = 0, bad = 0;
	static char text[4096];
	struct ncsync_dev *dev;
	int k, ret;

	for (k = 1; k + 1 < argc; k += 2) {
		if (!strcmp(argv[k], "--count"))
			count = strtoul(argv[k + 1], NULL, 0);
		else if (!strcmp(argv[k], "--seed"))
			rng = strtoull(argv[k + 1], NULL, 0) | 1;
	}
	printf("TAP version 13\n# seed %llu (--seed to repeat)\n",
	       (unsigned long long)rng);
	if (ncsync_open(0, true, &dev)) {
		printf("1..0 # SKIP no /dev/ncsync0\n");
		return 0;
	}
	for (i = 0; i < count; i++) {
		struct ncsync_program *p;

		random_program(text, sizeof(text));
		p = build(text, ncsync_get_info(dev));
		ret = p ? compare(dev, p) : -1;
		if (ret > 0)
			same++;
		else if (ret < 0)
			open++;
		else if (!bad++)
			printf("# the kernel did what the checker says it "
			       "cannot:\n%s", text);
		ncsync_program_free(p);
	}
	ncsync_close(dev);
	printf("%s 1 - %u random programs: the kernel's end is one the "
	       "checker found in %u, %u not compared\n1..1\n",
	       bad ? "not ok" : "ok", count, same, open);
	return bad ? 1 : 0;
}
