// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * The text form of the DMA barrier (dma_barrier, 0xC3), the collective
 * triggers (trigger_collective 0xC8, trigger_collective2 0xD9,
 * trigger_collective2_ext 0xDA), Return (ret,
 * 0xD2), Call (call NAME [, args=N], 0xD3), CoreBarrier (core_barrier
 * sem[S] [, id=N], 0xD8; more in asm_core_barrier.c) and of functions
 * (func NAME ... endfunc): raw records written by the test encoder
 * disassemble to their canonical line and assemble back byte for byte;
 * malformed ones print as .raw; the section statements' errors.
 */
#include "asm_test.h"

struct line_case {
	const char *line;
	uint8_t op;
	const char *name;	/* Call */
	uint32_t args;
	uint8_t wm, wi, um, ui;
	uint32_t v;
	uint8_t sem;		/* CoreBarrier */
	uint32_t id;
};

static const struct line_case lines[] = {
	{ "dma_barrier", 0xC3, NULL, 0, 0, 0, 0, 0, 0, 0, 0 },
	{ "dma_barrier wait sem[3] >= 7 then ev[2] set", 0xC3, NULL, 0,
	  0x05, 3, 0x11, 2, 7, 0, 0 },
	/*
	 * BARRIER, "See also": TriggerCollective (0xC8) "carries the same
	 * events block"; TriggerCollective2 + Ext (0xD9/0xDA).
	 */
	{ "trigger_collective", 0xC8, NULL, 0, 0, 0, 0, 0, 0, 0, 0 },
	{ "trigger_collective wait sem[3] >= 7 then ev[2] set", 0xC8, NULL, 0,
	  0x05, 3, 0x11, 2, 7, 0, 0 },
	{ "trigger_collective2 then sem[1] += 4", 0xD9, NULL, 0,
	  0, 0, 0x15, 1, 4, 0, 0 },
	{ "trigger_collective2_ext wait ev[9] set", 0xDA, NULL, 0,
	  0x06, 9, 0, 0, 0, 0, 0 },
	{ "ret", 0xD2, NULL, 0, 0, 0, 0, 0, 0, 0, 0 },
	{ "ret wait ev[9] set_then_clear then sem[1] += 4", 0xD2, NULL, 0,
	  0x07, 9, 0x15, 1, 4, 0, 0 },
	{ "call f", 0xD3, "f", 0, 0, 0, 0, 0, 0, 0, 0 },
	{ "call sub.2_x, args=7", 0xD3, "sub.2_x", 7, 0, 0, 0, 0, 0, 0, 0 },
	{ "call f, args=0xdeadbeef then sem[4]++", 0xD3, "f", 0xdeadbeef,
	  0, 0, 0x13, 4, 0, 0, 0 },
	{ "call abcdefghijabcdefghijabcdefghij_35", 0xD3,
	  "abcdefghijabcdefghijabcdefghij_35", 0, 0, 0, 0, 0, 0, 0, 0 },
	{ "core_barrier sem[0]", 0xD8, NULL, 0, 0, 0, 0, 0, 0, 0, 0 },
	{ "core_barrier sem[20], id=7", 0xD8, NULL, 0, 0, 0, 0, 0, 0, 20, 7 },
	{ "core_barrier sem[255], id=0xdeadbeef", 0xD8, NULL, 0,
	  0, 0, 0, 0, 0, 255, 0xdeadbeef },
	{ "core_barrier sem[5] wait sem[3] >= 7 then ev[2] set", 0xD8, NULL, 0,
	  0x05, 3, 0x11, 2, 7, 5, 0 },
	{ "core_barrier sem[5], id=65535 then sem[1] += 4", 0xD8, NULL, 0,
	  0, 0, 0x15, 1, 4, 5, 65535 },
};

static void build(const struct line_case *c, uint8_t *r)
{
	t_rec(r, c->op);
	t_ev(r, c->wm, c->wi, c->um, c->ui, c->v);
	if (c->name)
		memcpy(r + 0x0C, c->name, strlen(c->name));
	t_put32(r + 0x30, c->args);
	if (c->op == 0xD8) {
		t_put32(r + 0x0C, c->id);
		r[0x10] = c->sem;
	}
}

static void test_lines(void)
{
	char line[NCSYNC_DISASM_LINE_MAX];
	uint8_t rec[64], back[64];
	struct ncsync_asm_error err;
	size_t i;

	for (i = 0; i < ARRAY_LEN(lines); i++) {
		build(&lines[i], rec);
		TAP_CHECK(ncsync_disasm(rec, line, sizeof(line)) > 0 &&
			  !strcmp(line, lines[i].line),
			  "disasm 0x%02x: '%s' (want '%s')", lines[i].op, line,
			  lines[i].line);
		TAP_CHECK(t_asm_one(lines[i].line, back, &err) == 0 &&
			  !memcmp(back, rec, 64),
			  "asm '%s': the encoder's bytes", lines[i].line);
		TAP_CHECK(t_roundtrip(rec, line), "round trip '%s'", line);
	}
}

/* Records the pseudo-op decoder refuses print as .raw, and come back. */
static void test_raw(void)
{
	char line[NCSYNC_DISASM_LINE_MAX];
	uint8_t rec[64];

	t_rec(rec, 0xD3);
	TAP_CHECK(ncsync_disasm(rec, line, sizeof(line)) > 0 &&
		  !strncmp(line, ".raw", 4) && t_roundtrip(rec, line),
		  "a Call without a name: .raw");
	memcpy(rec + 0x0C, "a-b", 3);
	TAP_CHECK(ncsync_disasm(rec, line, sizeof(line)) > 0 &&
		  !strncmp(line, ".raw", 4) && t_roundtrip(rec, line),
		  "a Call whose name is not a word: .raw");
	t_rec(rec, 0xD3);
	memcpy(rec + 0x0C, "ab", 2);
	rec[0x0F] = 'c';
	TAP_CHECK(ncsync_disasm(rec, line, sizeof(line)) > 0 &&
		  !strncmp(line, ".raw", 4) && t_roundtrip(rec, line),
		  "a Call with a byte after its name's NUL: .raw");
	rec[0x0F] = 0;
	rec[0x2F] = 1;
	TAP_CHECK(ncsync_disasm(rec, line, sizeof(line)) > 0 &&
		  !strncmp(line, ".raw", 4), "Call byte +0x2F set: .raw");
	rec[0x2F] = 0;
	rec[0x34] = 1;
	TAP_CHECK(ncsync_disasm(rec, line, sizeof(line)) > 0 &&
		  !strncmp(line, ".raw", 4), "Call byte +0x34 set: .raw");
	t_rec(rec, 0xD2);
	rec[0x3F] = 1;
	TAP_CHECK(ncsync_disasm(rec, line, sizeof(line)) > 0 &&
		  !strncmp(line, ".raw", 4) && t_roundtrip(rec, line),
		  "a Return with a reserved byte: .raw");
	t_rec(rec, 0xC3);
	rec[2] = 1;
	TAP_CHECK(ncsync_disasm(rec, line, sizeof(line)) > 0 &&
		  !strncmp(line, ".raw", 4), "a DMA barrier's header byte: .raw");
	t_rec(rec, 0xC3);
	rec[NCSYNC_REC_EV_WAIT_MODE] = 0x42;
	TAP_CHECK(ncsync_disasm(rec, line, sizeof(line)) > 0 &&
		  !strncmp(line, ".raw", 4),
		  "a DMA barrier with a bad wait mode: .raw");
	t_rec(rec, 0xC7);
	TAP_CHECK(ncsync_disasm(rec, line, sizeof(line)) > 0 &&
		  !strncmp(line, ".raw", 4), "pseudo-op 0xC7: .raw");
}

struct err_case {
	const char *text;
	unsigned int line, col;
	const char *msg;
};

static const struct err_case errs[] = {
	{ "func f\n", 1, 1, "func before any engine" },
	{ "engine pool\nfunc f\nfunc g\n", 3, 1, "func inside func 'f'" },
	{ "engine pool\nendfunc\n", 2, 1, "endfunc outside a func" },
	{ "engine pool\nfunc f\nengine act\nendfunc\n", 3, 1,
	  "engine inside func 'f': close it with endfunc" },
	{ "engine pool\nfunc f\nbarrier\nendfunc\n", 3, 1,
	  "barrier inside func 'f': close it with endfunc" },
	{ "engine pool\nfunc f\n\tnop\n", 2, 1,
	  "func 'f' is not closed with endfunc" },
	{ "engine pool\nfunc f\nendfunc\nfunc f\n", 4, 6,
	  "function 'f' already defined for engine pool" },
	{ "engine pool\nfunc abcdefghijabcdefghijabcdefghijabcdef\n", 2, 6,
	  "function name longer than 35 characters" },
	{ "engine pool\n\tcall\n", 2, 6, "expected a function name" },
	{ "engine pool\n\tcall f, latency=1\n", 2, 10, "expected 'args'" },
	{ "engine pool\nfunc f extra\n", 2, 8, "unexpected 'extra'" },
	{ "engine pool\n\tret lane1 then sem[1]++\n", 2, 6,
	  "lane1 is only for evsem" },
};

static void test_errors(void)
{
	struct ncsync_program *prog;
	struct ncsync_asm_error err;
	size_t i;
	int ret;

	for (i = 0; i < ARRAY_LEN(errs); i++) {
		ret = ncsync_asm(errs[i].text, &prog, &err);
		TAP_CHECK(ret == -EINVAL && !prog && err.line == errs[i].line &&
			  err.col == errs[i].col && strstr(err.msg, errs[i].msg),
			  "error %u:%u: %s (got %u:%u: %s)", errs[i].line,
			  errs[i].col, errs[i].msg, err.line, err.col, err.msg);
	}
}

/* Labels are scoped: a func's own, apart from its engine's. */
static void test_scopes(void)
{
	struct ncsync_program *prog;
	struct ncsync_asm_error err;
	struct ncsync_stream *s;

	TAP_CHECK(ncsync_asm("engine pool\n"
			     "func f\n"
			     "x:\tnop\n"
			     "\tbr x\n"
			     "\tbr end\n"
			     "end:\n"
			     "endfunc\n"
			     "x:\tcall f\n"
			     "\tbr x\n", &prog, &err) == 0,
		  "one label name in a func and in its stream; a label at "
		  "the func's end");
	s = ncsync_program_find_stream(prog, NCSYNC_ENGINE_POOL);
	TAP_CHECK(ncsync_stream_count(s) == 2 &&
		  ncsync_program_finalize(prog) == 0 &&
		  ncsync_stream_count(s) == 4 &&
		  ncsync_stream_peek(s, 1)[NCSYNC_REC_BR_TARGET] == 0 &&
		  ncsync_stream_peek(s, 2)[NCSYNC_REC_BR_TARGET] == 3 &&
		  ncsync_stream_peek(s, 3)[NCSYNC_REC_BR_TARGET] == 0,
		  "the body inlined, each label its own");
	ncsync_program_free(prog);
}

int main(void)
{
	test_lines();
	test_raw();
	test_errors();
	test_scopes();
	return tap_done();
}
