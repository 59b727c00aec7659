// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * Labels: forward and backward, several on one record, on the line of an
 * instruction, per engine (the same name in two streams), across continued
 * sections, and raw @index targets; ncsync_program_finalize() writes the
 * record index of each into its branches.
 */
#include "asm_test.h"

static const char text[] =
	"engine pool\n"
	"top:\n"				/* 0 */
	"\tnop\n"
	"\tbr fwd\n"				/* 1 -> 5 */
	"back: mid:\n"				/* 2 */
	"\tmovi r1, 1\n"
	"\tbr.lt.s32 r1, 10, back\n"		/* 3 -> 2 */
	"\tbr top ; comment\n"			/* 4 -> 0 */
	"fwd:\tnop\n"				/* 5 */
	"\tbr.ne.u32 r1, r2, fwd\n"		/* 6 -> 5 */
	"\tbr mid then sem[1]++\n"		/* 7 -> 2 */
	"self: br self\n"			/* 8 -> 8 */
	"engine act\n"
	"top: nop\n"				/* act 0 */
	"\tbr top\n"				/* act 1 -> 0 */
	"\tbr.gt.u32 r3, 7, later\n"		/* act 2 -> 3 */
	"later:\texit\n"			/* act 3 */
	"engine pool\n"
	"\tbr fwd\n"				/* 9 -> 5 */
	"\tbr @3\n"				/* 10 -> 3, raw */
	"\tbr.eq.s32 r0, 0, .L_x\n"		/* 11 -> 12 */
	".L_x: exit\n";				/* 12 */

static uint64_t target(struct ncsync_stream *s, uint32_t i)
{
	const uint8_t *r = ncsync_stream_record(s, i);
	uint64_t v = 0;
	int k;

	if (!r || r[0] != NCSYNC_OPC_BRANCH)
		return UINT64_MAX;
	for (k = 7; k >= 0; k--)
		v = v << 8 | r[NCSYNC_REC_BR_TARGET + k];
	return v;
}

int main(void)
{
	static const uint32_t pool[][2] = {
		{ 1, 5 }, { 3, 2 }, { 4, 0 }, { 6, 5 }, { 7, 2 }, { 8, 8 },
		{ 9, 5 }, { 10, 3 }, { 11, 12 },
	};
	static const uint32_t act[][2] = { { 1, 0 }, { 2, 3 } };
	struct ncsync_stream *p, *a;
	struct ncsync_program *prog;
	struct ncsync_asm_error err;
	unsigned int i;
	int ret;

	ret = ncsync_asm(text, &prog, &err);
	TAP_CHECK(!ret, "assembles (%u:%u: %s)", err.line, err.col,
		  ret ? err.msg : "");
	if (ret)
		return tap_done();
	p = ncsync_program_find_stream(prog, NCSYNC_ENGINE_POOL);
	a = ncsync_program_find_stream(prog, NCSYNC_ENGINE_ACT);
	TAP_CHECK(ncsync_stream_count(p) == 13 && ncsync_stream_count(a) == 4,
		  "13 records for pool, 4 for act");
	TAP_CHECK(target(p, 10) == 3, "a raw @3 target is stored at once");
	ret = ncsync_program_finalize(prog);
	TAP_CHECK(!ret, "finalizes: %d", ret);
	for (i = 0; i < ARRAY_LEN(pool); i++)
		TAP_CHECK(target(p, pool[i][0]) == pool[i][1],
			  "pool record %u branches to %u", pool[i][0],
			  pool[i][1]);
	for (i = 0; i < ARRAY_LEN(act); i++)
		TAP_CHECK(target(a, act[i][0]) == act[i][1],
			  "act record %u branches to %u", act[i][0], act[i][1]);
	ncsync_program_free(prog);

	/* Errors that only labels have. */
	ret = ncsync_asm("engine pool\nbr x\nx:\n", &prog, &err);
	TAP_CHECK(ret == -EINVAL && err.line == 3 && err.col == 1 &&
		  !strcmp(err.msg,
			  "label 'x' is past the last record of its stream"),
		  "a label past the end: %u:%u: %s", err.line, err.col,
		  err.msg);
	ret = ncsync_asm("engine pool\nnop\nx:\n", &prog, &err);
	TAP_CHECK(!ret, "an unused label past the end is harmless");
	ncsync_program_free(prog);
	ret = ncsync_asm("engine pool\nbr x\nengine act\nx: nop\n", &prog,
			 &err);
	TAP_CHECK(ret == -EINVAL && err.line == 2 && err.col == 4 &&
		  !strcmp(err.msg, "undefined label 'x'"),
		  "a label of another engine is not defined in this one");
	return tap_done();
}
