// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * ncsync_disasm_program() prints a finalized program as text that
 * assembles back into the same records: engines in order, labels L<n> at
 * branch targets.  The text is exact for a small program.
 */
#include "asm_test.h"

static const char src[] =
	"engine act\n"
	"start:\tevsem lane1 wait sem[2] > 0 then sem[2]--\n"
	"\tdma 0x0, 0x100, 64, latency=3 on_land sem[5]++\n"
	"\tdrain\n"
	"\tbr.lt.u32 r1, 4, start then ev[1] set\n"
	"\texit\n"
	"engine pool\n"
	"\tmovi r1, 0\n"
	"loop:\taddi r1, r1, 1\n"
	"\tpoll sum r2, sem[0]..sem[3]\n"
	"\tsema_clear mask {1, 5..9}\n"
	"\tbr.ne.s32 r1, r2, loop wait sem[2] >= r1\n"
	"\tbr done\n"
	"\tnop\n"
	"done:\tsema_clear 0..3\n"
	"\t.raw a0100000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000\n"
	"\thalt\n";

/* What the finalized program prints. */
static const char want[] =
	"engine pool\n"
	"\tmovi r1, 0\n"
	"L1:\n"
	"\taddi r1, r1, 1\n"
	"\tpoll sum r2, sem[0]..sem[3]\n"
	"\tsema_clear mask {1, 5..9}\n"
	"\tbr.ne.s32 r1, r2, L1 wait sem[2] >= r1\n"
	"\tbr L7\n"
	"\tnop\n"
	"L7:\n"
	"\tsema_clear 0..3\n"
	"\tevsem\n"
	"\thalt\n"
	"engine act\n"
	"L0:\n"
	"\tevsem lane1 wait sem[2] > 0 then sem[2]--\n"
	"\tdma 0x0, 0x100, 64, latency=3 on_land sem[5]++\n"
	"\tdrain\n"
	"\tbr.lt.u32 r1, 4, L0 then ev[1] set\n"
	"\texit\n";

static const char raw_src[] =
	"engine dve\n"
	"\t.raw a0100000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 000000ff\n"
	"\tbr @2\n";

static const char raw_want[] =
	"engine dve\n"
	"\t.raw a0100000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 000000ff  # reserved byte not zero\n"
	"\t.raw a9100000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 02000000 00000000 00000000 00000000  # branch or hint target outside the queue\n";

static char *print(struct ncsync_program *prog, int *ret)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	*ret = ncsync_disasm_program(prog, f);
	fclose(f);
	return buf;
}

static bool same(struct ncsync_program *a, struct ncsync_program *b)
{
	unsigned int e;

	if (ncsync_program_engines(a) != ncsync_program_engines(b))
		return false;
	for (e = 0; e < 8; e++) {
		struct ncsync_stream *s = ncsync_program_find_stream(a, e);
		struct ncsync_stream *t = ncsync_program_find_stream(b, e);
		uint32_t i;

		if (!s)
			continue;
		if (ncsync_stream_count(s) != ncsync_stream_count(t))
			return false;
		for (i = 0; i < ncsync_stream_count(s); i++)
			if (memcmp(ncsync_stream_record(s, i),
				   ncsync_stream_record(t, i),
				   NCSYNC_RECORD_SIZE))
				return false;
	}
	return true;
}

int main(void)
{
	struct ncsync_program *prog, *again;
	struct ncsync_asm_error err;
	char *text, *text2;
	int ret;

	ret = ncsync_asm(src, &prog, &err);
	TAP_CHECK(!ret, "assembles (%u:%u: %s)", err.line, err.col,
		  ret ? err.msg : "");
	if (ret)
		return tap_done();
	ret = ncsync_program_finalize(prog);
	TAP_CHECK(!ret, "finalizes: %d", ret);
	text = print(prog, &ret);
	TAP_CHECK(!ret && !strcmp(text, want), "prints exactly");
	if (strcmp(text, want))
		printf("# got:\n%s", text);

	ret = ncsync_asm(text, &again, &err);
	TAP_CHECK(!ret, "the text assembles (%u:%u: %s)", err.line, err.col,
		  ret ? err.msg : "");
	ncsync_program_finalize(again);
	TAP_CHECK(same(prog, again), "into the same records");
	text2 = print(again, &ret);
	TAP_CHECK(!ret && !strcmp(text, text2), "which print the same");
	free(text);
	free(text2);
	ncsync_program_free(again);

	TAP_CHECK(ncsync_disasm_program(NULL, stdout) == -EINVAL,
		  "NULL program: -EINVAL");
	TAP_CHECK(ncsync_disasm_program(prog, NULL) == -EINVAL,
		  "NULL stream: -EINVAL");
	ncsync_program_free(prog);

	/* Refused records print raw and come back as they were. */
	ret = ncsync_asm(raw_src, &prog, &err);
	text = ret ? NULL : print(prog, &ret);
	TAP_CHECK(!ret && !strcmp(text, raw_want), "refused records print raw");
	ret = ncsync_asm(text, &again, &err);
	TAP_CHECK(!ret && same(prog, again), "and assemble back the same");
	free(text);
	ncsync_program_free(again);
	ncsync_program_free(prog);

	ret = ncsync_program_new(&prog);
	text = ret ? NULL : print(prog, &ret);
	TAP_CHECK(!ret && text && !*text, "an empty program prints nothing");
	free(text);
	ncsync_program_free(prog);
	return tap_done();
}
