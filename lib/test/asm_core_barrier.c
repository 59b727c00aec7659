// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * The text form of CoreBarrier (core_barrier sem[S] [, id=N], 0xD8,
 * Documentation/ncsync/asm.rst; its canonical lines are in asm_pseudo.c):
 * malformed records print as .raw and come back; the syntax errors; a
 * text program with a core barrier on each engine lowers to the
 * builder's records.
 */
#include "asm_test.h"

/* id=0 is the absent id. */
static void test_id0(void)
{
	char line[NCSYNC_DISASM_LINE_MAX];
	struct ncsync_asm_error err;
	uint8_t back[64];

	TAP_CHECK(t_asm_one("core_barrier sem[9], id=0", back, &err) == 0 &&
		  back[0] == 0xD8 && back[0x10] == 9 && !back[0x0C] &&
		  ncsync_disasm(back, line, sizeof(line)) > 0 &&
		  !strcmp(line, "core_barrier sem[9]"),
		  "id=0 is accepted and not printed");
}

/* Records the pseudo-op decoder refuses print as .raw, and come back. */
static void test_raw(void)
{
	static const unsigned int bytes[] = { 0x02, 0x11, 0x20, 0x3F };
	char line[NCSYNC_DISASM_LINE_MAX];
	uint8_t rec[64];
	size_t i;

	for (i = 0; i < ARRAY_LEN(bytes); i++) {
		t_rec(rec, 0xD8);
		rec[0x10] = 3;
		rec[bytes[i]] = 1;
		TAP_CHECK(ncsync_disasm(rec, line, sizeof(line)) > 0 &&
			  !strncmp(line, ".raw", 4) && t_roundtrip(rec, line),
			  "a 0xD8 with byte +0x%02x set: .raw, round trip",
			  bytes[i]);
	}
	t_rec(rec, 0xD8);
	rec[NCSYNC_REC_EV_UPD_MODE] = 0x7F;
	TAP_CHECK(ncsync_disasm(rec, line, sizeof(line)) > 0 &&
		  !strncmp(line, ".raw", 4),
		  "a 0xD8 with a bad update mode: .raw");
}

struct err_case {
	const char *line;
	unsigned int col;
	const char *msg;
};

static const struct err_case errs[] = {
	{ "\tcore_barrier\n", 14, "expected sem[N] or ev[N]" },
	{ "\tcore_barrier ev[3]\n", 15, "expected sem[N]" },
	{ "\tcore_barrier sem[256]\n", 19, "out of range (0-255)" },
	{ "\tcore_barrier sem[3], args=1\n", 23, "expected 'id'" },
	{ "\tcore_barrier sem[3], id\n", 25, "expected '='" },
	{ "\tcore_barrier sem[3], id=0x100000000\n", 26,
	  "number out of range (0-4294967295)" },
	{ "\tcore_barrier sem[3] lane1 then sem[1]++\n", 22,
	  "lane1 is only for evsem" },
	{ "\tcore_barrier sem[3] extra\n", 22, "unexpected 'extra'" },
};

static void test_errors(void)
{
	struct ncsync_program *prog;
	struct ncsync_asm_error err;
	char text[128];
	size_t i;
	int ret;

	for (i = 0; i < ARRAY_LEN(errs); i++) {
		snprintf(text, sizeof(text), "engine pool\n%s", errs[i].line);
		ret = ncsync_asm(text, &prog, &err);
		TAP_CHECK(ret == -EINVAL && !prog && err.line == 2 &&
			  err.col == errs[i].col && strstr(err.msg, errs[i].msg),
			  "error 2:%u: %s (got %u:%u: %s)", errs[i].col,
			  errs[i].msg, err.line, err.col, err.msg);
	}
	ret = ncsync_asm("\tcore_barrier sem[3]\n", &prog, &err);
	TAP_CHECK(ret == -EINVAL && !prog && err.line == 1 &&
		  strstr(err.msg, "no engine"),
		  "core_barrier before any engine: %s", err.msg);
}

/* Text with a core barrier on each engine, against the builder. */
static void test_program(void)
{
	struct ncsync_program *a = NULL, *b = NULL;
	struct ncsync_asm_error err;
	struct ncsync_stream *s;
	bool ok;

	ok = !ncsync_asm("engine pool\n"
			 "\tnop\n"
			 "\tcore_barrier sem[20]\n"
			 "engine pe\n"
			 "\tnop\n"
			 "\tcore_barrier sem[20]\n", &a, &err) &&
	     !ncsync_program_set_lnc(a, 2) && !ncsync_program_finalize(a);
	ok = ok && !ncsync_program_new(&b) &&
	     !ncsync_program_stream(b, NCSYNC_ENGINE_POOL, &s) &&
	     ncsync_add_nop(s, NULL) >= 0 &&
	     !ncsync_program_stream(b, NCSYNC_ENGINE_PE, &s) &&
	     ncsync_add_nop(s, NULL) >= 0 &&
	     !ncsync_add_core_barrier(b, 20, 2) && !ncsync_program_finalize(b);
	TAP_CHECK(ok && t_same_program(a, b),
		  "a core_barrier on each engine, lnc 2: the builder's records");
	ncsync_program_free(a);
	ncsync_program_free(b);
	ok = !ncsync_asm("engine pool\n\tcore_barrier sem[20]\n"
			 "engine pe\n\tnop\n", &a, &err);
	TAP_CHECK(ok && ncsync_program_finalize(a) == -EINVAL &&
		  strstr(ncsync_program_lower_error(a), "some engines only"),
		  "a core_barrier on one engine of two: refused by the "
		  "lowering, not the assembler");
	ncsync_program_free(a);
}

int main(void)
{
	test_id0();
	test_raw();
	test_errors();
	test_program();
	return tap_done();
}
