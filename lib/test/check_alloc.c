// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * ncsync_check() out of memory: for each program, the check is run once
 * to count the allocations it makes, then once for every N with the N-th
 * allocation failing.  Each such run either fails with -ENOMEM and no
 * result, or ends with the verdict and the defect kinds of the run that
 * did not fail: an allocation failure never turns a defect into "safe"
 * (nor into "inconclusive").
 *
 * The allocator is this binary's malloc(), calloc() and realloc(), which
 * take the place of the C library's for the library linked in with it,
 * and fail on the N-th call once armed.
 */
#include <errno.h>
#include <stdio.h>

#include "check_test.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t n, size_t size);
extern void *__libc_realloc(void *p, size_t size);

static bool armed;		/* count the calls */
static unsigned long calls;	/* since armed */
static unsigned long fail_at;	/* the call that fails; 0: none */

static bool ck_fail_now(void)
{
	return armed && ++calls == fail_at;
}

void *malloc(size_t size)
{
	return ck_fail_now() ? NULL : __libc_malloc(size);
}

void *calloc(size_t n, size_t size)
{
	return ck_fail_now() ? NULL : __libc_calloc(n, size);
}

void *realloc(void *p, size_t size)
{
	return ck_fail_now() ? NULL : __libc_realloc(p, size);
}

struct ck_prog_case {
	const char *name;
	const char *text;
	enum ncsync_check_verdict verdict;	/* unfailed */
};

static const struct ck_prog_case progs[] = {
	{ "ABBA deadlock",
	  "engine pool\n"
	  "\tnop wait sem[1] > 0 then sem[1]--\n"
	  "\tnop wait sem[2] > 0 then sem[2]--\n"
	  "\tnop then sem[2]++\n\tnop then sem[1]++\n"
	  "engine pe\n"
	  "\tnop wait sem[2] > 0 then sem[2]--\n"
	  "\tnop wait sem[1] > 0 then sem[1]--\n"
	  "\tnop then sem[1]++\n\tnop then sem[2]++\n",
	  NCSYNC_CHECK_DEFECT },
	{ "dma-race and unposted-wait",
	  "engine pool\n\tdma 0x0, 0x1000, 64, latency=1\n"
	  "\tnop then sem[5]++\n\tdrain\n"
	  "engine act\n\tnop wait sem[5] >= 1\n"
	  "\tdma 0x1000, 0x3000, 64, latency=1\n\tnop wait sem[9] == 1\n",
	  NCSYNC_CHECK_DEFECT },
	{ "unposted-wait on the values: == 5 on an even counter",
	  "engine pool\n\tmovi r1, 0\nl:\tnop then sem[6] += 2\n"
	  "\taddi r1, r1, 1\n\tbr.lt.u32 r1, 3, l\n"
	  "engine act\n\tnop wait sem[6] == 5\n",
	  NCSYNC_CHECK_DEFECT },
	{ "event and overflow",
	  "engine pool\n\tnop then ev[3] set\n\tnop then sem[3]++\n"
	  "engine act\n\tnop then ev[3] set\n",
	  NCSYNC_CHECK_DEFECT },
	{ "deadlock across cores",
	  "core 0\nengine pool\n\tnop wait sem[4] >= 1\n"
	  "\tdma 0x0, 0x1000, 64, peer=1 on_land sem[4]++\n"
	  "core 1\nengine pool\n\tnop wait sem[4] >= 1\n"
	  "\tdma 0x0, 0x1000, 64, peer=0 on_land sem[4]++\n",
	  NCSYNC_CHECK_DEFECT },
	{ "a barrier loop, safe",
	  "engine pool\n\tmovi r1, 0\nengine act\n\tmovi r1, 0\n"
	  "engine pool\nloop:\taddi r1, r1, 1\nengine act\n"
	  "loop:\taddi r1, r1, 1\nbarrier\n"
	  "engine pool\n\tbr.lt.u32 r1, 3, loop\n"
	  "engine act\n\tbr.lt.u32 r1, 3, loop\n",
	  NCSYNC_CHECK_SAFE },
};

/* The program of @text, as ncsync check builds it: its parts. */
static int ck_parts(const char *text, struct ncsync_asm_part *parts,
		    unsigned int *n)
{
	struct ncsync_asm_error err;
	int ret = 0, i, np;

	np = ncsync_asm_cores(text, parts, NCSYNC_MAX_LNC, &err);
	if (!np) {	/* no "core" statement: one part, at position 0 */
		parts[0].core = 0;
		np = ncsync_asm(text, &parts[0].prog, &err) ?: 1;
	}
	for (i = 0; i < np && !ret; i++)
		ret = ncsync_program_set_lnc(parts[i].prog, 2) ?:
		      ncsync_program_lower(parts[i].prog,
					   NCSYNC_LOWER_COUNTER) ?:
		      ncsync_program_finalize(parts[i].prog);
	if (np <= 0 || ret)
		TAP_CHECK(0, "build: %d/%d at %u:%u: %s", np, ret, err.line,
			  err.col, err.msg);
	*n = np > 0 ? np : 0;
	return np <= 0 || ret;
}

static void ck_run_case(const struct ck_prog_case *c)
{
	struct ncsync_asm_part parts[NCSYNC_MAX_LNC];
	struct ncsync_check_result *res = NULL;
	struct ncsync_check_opts o;
	unsigned long total, n, enomem = 0, bad = 0;
	unsigned int nparts = 0, i, kinds;
	int ret;

	if (ck_parts(c->text, parts, &nparts))
		return;
	ncsync_check_opts_init(&o);
	o.sems[1] = o.sems[2] = 1;
	o.sems[3] = INT32_MAX;
	calls = 0;
	armed = true;
	ret = ncsync_check_cores(parts, nparts, &o, &res);
	armed = false;
	total = calls;
	TAP_CHECK(!ret && ncsync_check_verdict(res) == c->verdict,
		  "%s: %d, verdict %d, in %lu allocations", c->name, ret,
		  res ? (int)ncsync_check_verdict(res) : -1, total);
	kinds = ck_kinds(res);
	ncsync_check_free(res);
	for (n = 1; n <= total; n++) {
		res = NULL;
		calls = 0;
		fail_at = n;
		armed = true;
		ret = ncsync_check_cores(parts, nparts, &o, &res);
		armed = false;
		if (ret == -ENOMEM && !res)
			enomem++;
		else if (ret || ncsync_check_verdict(res) != c->verdict ||
			 ck_kinds(res) != kinds)
			bad++;
		ncsync_check_free(res);
	}
	fail_at = 0;
	TAP_CHECK(!bad && enomem, "%s: allocation 1..%lu failing: %lu -ENOMEM, %lu the same result, %lu other",
		  c->name, total, enomem, total - enomem - bad, bad);
	for (i = 0; i < nparts; i++)
		ncsync_program_free(parts[i].prog);
}

int main(void)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(progs); i++)
		ck_run_case(&progs[i]);
	return tap_done();
}
