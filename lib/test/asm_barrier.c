// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * "barrier" adds one AllEngineBarrier pseudo-op (0xD5) to every stream at
 * once, with its events block; ncsync_program_finalize() lowers it into
 * hardware records.  Before lowering the pseudo-op prints as .raw, which
 * assembles back into the same pseudo-op.
 */
#include "asm_test.h"
#include "ncsync_record.h"

static const char text[] =
	"engine pool\n"
	"\tnop\n"
	"engine act\n"
	"\tmovi r1, 2\n"
	"\thalt\n"
	"barrier wait ev[3] set\n"
	"engine pool\n"
	"\texit\n";

static bool same(struct ncsync_program *a, struct ncsync_program *b)
{
	unsigned int e;

	for (e = 0; e < 8; e++) {
		struct ncsync_stream *s = ncsync_program_find_stream(a, e);
		struct ncsync_stream *t = ncsync_program_find_stream(b, e);
		uint32_t i;

		if (!s != !t)
			return false;
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
	struct ncsync_stream *p, *a;
	struct ncsync_asm_error err;
	struct ncsync_insn in;
	uint8_t want[NCSYNC_RECORD_SIZE];
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	uint32_t i;
	bool pseudo = false, valid = true;
	int ret;

	ret = ncsync_asm(text, &prog, &err);
	TAP_CHECK(!ret, "assembles (%u:%u: %s)", err.line, err.col,
		  ret ? err.msg : "");
	if (ret)
		return tap_done();
	p = ncsync_program_find_stream(prog, NCSYNC_ENGINE_POOL);
	a = ncsync_program_find_stream(prog, NCSYNC_ENGINE_ACT);
	t_rec(want, NCSYNC_OPC_ALL_ENGINE_BARRIER);
	t_ev(want, NCSYNC_WAIT_EVT_SET, 3, 0, 0, 0);
	TAP_CHECK(ncsync_stream_count(p) == 3 && ncsync_stream_count(a) == 3 &&
		  !memcmp(ncsync_stream_record(p, 1), want, sizeof(want)) &&
		  !memcmp(ncsync_stream_record(a, 2), want, sizeof(want)),
		  "one 0xD5 with the events block at the end of each stream");

	/* Unlowered: the text holds the pseudo-ops raw, and rebuilds them. */
	f = open_memstream(&buf, &len);
	ret = ncsync_disasm_program(prog, f);
	fclose(f);
	TAP_CHECK(!ret && strstr(buf, "\t.raw d5100000 06030000") &&
		  strstr(buf, "# pseudo-op (lower it first)"),
		  "an unlowered barrier prints as .raw");
	ret = ncsync_asm(buf, &again, &err);
	TAP_CHECK(!ret && same(prog, again), "and assembles back the same");
	free(buf);

	ret = ncsync_program_finalize(prog);
	TAP_CHECK(!ret, "finalize lowers it: %d", ret);
	ret = again ? ncsync_program_finalize(again) : -1;
	TAP_CHECK(!ret && same(prog, again),
		  "the raw pseudo-ops lower the same way");
	ncsync_program_free(again);
	for (i = 0; i < ncsync_stream_count(p); i++) {
		uint8_t *r = ncsync_stream_record(p, i);

		pseudo |= r[0] >= 0xC0 && r[0] < 0xDF;
		valid &= !ncsync_record_decode(r, ncsync_stream_count(p),
					       UINT64_MAX, &in);
	}
	for (i = 0; i < ncsync_stream_count(a); i++) {
		uint8_t *r = ncsync_stream_record(a, i);

		pseudo |= r[0] >= 0xC0 && r[0] < 0xDF;
		valid &= !ncsync_record_decode(r, ncsync_stream_count(a),
					       UINT64_MAX, &in);
	}
	TAP_CHECK(!pseudo && valid && ncsync_stream_count(p) > 3 &&
		  ncsync_stream_count(a) > 3,
		  "no pseudo-op is left and every record is valid (%u, %u)",
		  ncsync_stream_count(p), ncsync_stream_count(a));
	f = open_memstream(&buf, &len);
	ret = ncsync_disasm_program(prog, f);
	fclose(f);
	TAP_CHECK(!ret && !strstr(buf, ".raw") &&
		  strstr(buf, "nop wait ev[3] set"),
		  "the lowered program prints without .raw, the wait kept");
	free(buf);
	ncsync_program_free(prog);
	return tap_done();
}
