// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * Engines: "engine" starts a stream or continues it, by name or number;
 * each stream gets the records of its sections in order; the names are
 * ncsync_engine_name()'s.
 */
#include "asm_test.h"

static const char text[] =
	"# sections may come back\n"
	"engine pool\n"
	"\tnop\n"
	"engine 2\n"
	"\thalt\n"
	"engine sp\n"
	"\texit\n"
	"engine pool   # again\n"
	"\tdrain\n"
	"engine pe\n"
	"engine 5\n"
	"\tmovi r1, 7\n";

static uint8_t op(struct ncsync_program *prog, uint8_t engine, uint32_t i)
{
	struct ncsync_stream *s = ncsync_program_find_stream(prog, engine);
	const uint8_t *r = ncsync_stream_record(s, i);

	return r ? r[0] : 0;
}

int main(void)
{
	static const char * const names[] = {
		NULL, "pool", "act", "pe", "dma", "dve", "sp", NULL,
	};
	struct ncsync_program *prog;
	struct ncsync_asm_error err;
	unsigned int e;
	int ret;

	ret = ncsync_asm(text, &prog, &err);
	TAP_CHECK(!ret, "assembles (%u:%u: %s)", err.line, err.col,
		  ret ? err.msg : "");
	if (ret)
		return tap_done();
	TAP_CHECK(ncsync_program_engines(prog) ==
		  (1U << NCSYNC_ENGINE_POOL | 1U << NCSYNC_ENGINE_ACT |
		   1U << NCSYNC_ENGINE_PE | 1U << NCSYNC_ENGINE_DVE |
		   1U << NCSYNC_ENGINE_SP), "five streams: %#x",
		  ncsync_program_engines(prog));
	TAP_CHECK(ncsync_stream_count(ncsync_program_find_stream(prog, 1)) == 2 &&
		  op(prog, 1, 0) == NCSYNC_OPC_NOOP &&
		  op(prog, 1, 1) == NCSYNC_OPC_DRAIN,
		  "pool: nop, then drain from its second section");
	TAP_CHECK(ncsync_stream_count(ncsync_program_find_stream(prog, 2)) == 1 &&
		  op(prog, 2, 0) == NCSYNC_OPC_HALT, "engine 2 is act: halt");
	TAP_CHECK(ncsync_stream_count(ncsync_program_find_stream(prog, 3)) == 0,
		  "pe: an empty section makes an empty stream");
	TAP_CHECK(op(prog, 5, 0) == NCSYNC_OPC_MOV32, "engine 5 is dve");
	TAP_CHECK(op(prog, 6, 0) == NCSYNC_OPC_EXIT, "sp: exit");
	ncsync_program_free(prog);

	for (e = 0; e < ARRAY_LEN(names); e++) {
		const char *n = ncsync_engine_name(e);

		TAP_CHECK(names[e] ? n && !strcmp(n, names[e]) : !n,
			  "engine %u is named %s", e, n ? n : "(none)");
	}
	TAP_CHECK(!ncsync_engine_name(255), "engine 255 has no name");
	return tap_done();
}
