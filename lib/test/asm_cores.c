// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * Programs across cores in the text form: ncsync_asm_cores() gives one
 * program per "core N" statement, by position; a text without one is the
 * program ncsync_asm() builds; every refusal has its line, column and
 * message and stores nothing; ncsync_disasm_cores() prints text that
 * assembles back into the same parts, exactly.
 */
#include "asm_test.h"

/* Core 1 first: the parts come out by position. */
static const char two[] =
	"# a producer on core 1, a consumer on core 0\n"
	"core 1\n"
	"engine pool\n"
	"loop:\tnop then sem[3]++\n"
	"\tbr loop\n"
	"\tbarrier\n"
	"core 0\n"
	"engine act\n"
	"loop:\tnop wait sem[3] >= 1\n"
	"engine pe  # after the barrier of core 1: its own program\n"
	"\texit\n";

/* What the finalized parts of @two print (counter barrier), and read. */
static const char two_want[] =
	"core 0\n"
	"engine act\n"
	"\tnop wait sem[3] >= 1\n"
	"engine pe\n"
	"\texit\n"
	"core 1\n"
	"engine pool\n"
	"\tevsem lane1 then sem[240] = 0\n"
	"\tevsem lane1 wait sem[240] >= 0\n"
	"\tmovi r31, 1\n"
	"L3:\n"
	"\tnop then sem[3]++\n"
	"\tbr L3\n"
	"\tbr.gt.u32 r31, 0x8000000, L11\n"
	"\tdrain then sem[240]++\n"
	"\tevsem lane1 wait sem[240] >= r31\n"
	"\tbr.ne.u32 r31, 1, L17\n"
	"\tevsem lane1 then sem[241] = 134217728\n"
	"\tbr L17\n"
	"L11:\n"
	"\tdrain then sem[241]++\n"
	"\tevsem lane1 wait sem[241] >= r31\n"
	"\tbr.ne.u32 r31, 0x8000001, L15\n"
	"\tevsem lane1 then sem[240] = 0\n"
	"L15:\n"
	"\tbr.ne.u32 r31, 0x10000000, L17\n"
	"\tmovi r31, 0\n"
	"L17:\n"
	"\taddi r31, r31, 1\n";

static const struct {
	const char *text;
	unsigned int max;
	unsigned int line, col;
	const char *msg;
} cases[] = {
	{ "core 2\nengine pool\nnop", 2, 1, 6, "core out of range (0-1)" },
	{ "core -1\nengine pool\nnop", 2, 1, 6, "core out of range (0-1)" },
	{ "core 64\nengine pool\nnop", 100, 1, 6, "core out of range (0-63)" },
	{ "core x\nengine pool\nnop", 2, 1, 6, "expected a number" },
	{ "core 0 x\nengine pool\nnop", 2, 1, 8, "unexpected 'x'" },
	{ "core 0\nengine pool\nnop\n core 0\nengine act\nnop", 4, 4, 7,
	  "core 0 already named on line 1" },
	{ "engine pool\nnop\ncore 0\nengine act\nnop", 2, 3, 1,
	  "core after an engine section of no core: once a core is named, every engine section follows a core statement" },
	{ "core 0\ncore 1\nengine pool\nnop", 2, 1, 1,
	  "core 0 has no engine section" },
	{ "core 0\nengine pool\nnop\n\n  core 1\n", 2, 5, 3,
	  "core 1 has no engine section" },
	{ "core 0\nengine pool\nfunc f\ncore 1\nengine pool\nnop", 2, 4, 1,
	  "core inside func 'f': close it with endfunc" },
	{ "core 0\nengine pool\nnop\ncore 1\nengine pool\nbr nowhere", 2, 6,
	  4, "undefined label 'nowhere'" },
	{ "core 1\nnop", 2, 2, 1, "no engine: write 'engine <name>' first" },
};

static char *print(const struct ncsync_asm_part *parts, unsigned int n,
		   int *ret)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	*ret = ncsync_disasm_cores(parts, n, f);
	fclose(f);
	return buf;
}

static void free_parts(struct ncsync_asm_part *parts, int n)
{
	int i;

	for (i = 0; i < n; i++)
		ncsync_program_free(parts[i].prog);
}

static unsigned int count(struct ncsync_program *prog, uint8_t engine)
{
	return ncsync_stream_count(ncsync_program_find_stream(prog, engine));
}

/* @two: two parts by position, each its own program; finalize them. */
static void test_two(struct ncsync_asm_part *parts)
{
	struct ncsync_asm_error err;
	int n;

	n = ncsync_asm_cores(two, parts, 2, &err);
	TAP_CHECK(n == 2, "two cores: %d (%u:%u: %s)", n, err.line, err.col,
		  n < 0 ? err.msg : "");
	if (n != 2)
		exit(tap_done());
	TAP_CHECK(parts[0].core == 0 && parts[1].core == 1,
		  "by position: %u, %u", parts[0].core, parts[1].core);
	TAP_CHECK(ncsync_program_engines(parts[0].prog) ==
		  (1U << NCSYNC_ENGINE_ACT | 1U << NCSYNC_ENGINE_PE) &&
		  ncsync_program_engines(parts[1].prog) ==
		  1U << NCSYNC_ENGINE_POOL,
		  "core 0 has act and pe, core 1 pool");
	TAP_CHECK(count(parts[1].prog, NCSYNC_ENGINE_POOL) == 3 &&
		  count(parts[0].prog, NCSYNC_ENGINE_ACT) == 1,
		  "each label 'loop' is its own core's");
	TAP_CHECK(!ncsync_program_finalize(parts[0].prog) &&
		  !ncsync_program_finalize(parts[1].prog),
		  "both parts finalize: each lowers its own barrier");
}

/* Printed, the parts read back into the same records and the same text. */
static void test_round_trip(struct ncsync_asm_part *parts)
{
	struct ncsync_asm_part back[2];
	struct ncsync_asm_error err;
	char *text, *again;
	int ret, n;

	text = print(parts, 2, &ret);
	TAP_CHECK(!ret && text && !strcmp(text, two_want),
		  "printed with core statements (%d)", ret);
	if (text && strcmp(text, two_want))
		fprintf(stderr, "# printed:\n%s", text);
	n = ncsync_asm_cores(text, back, 2, &err);
	TAP_CHECK(n == 2 && back[0].core == 0 && back[1].core == 1,
		  "assembles back: %d (%s)", n, n < 0 ? err.msg : "");
	if (n == 2) {
		ncsync_program_finalize(back[0].prog);
		ncsync_program_finalize(back[1].prog);
		TAP_CHECK(t_same_program(parts[0].prog, back[0].prog) &&
			  t_same_program(parts[1].prog, back[1].prog),
			  "the same records on each core");
		again = print(back, 2, &ret);
		TAP_CHECK(!ret && again && !strcmp(text, again),
			  "and prints the same text");
		free(again);
		free_parts(back, n);
	}
	free(text);
}

/* Without core statements: 0, and ncsync_asm()'s one program. */
static void test_no_core(void)
{
	static const char one[] = "engine pool\n\tnop\nengine sp\n\thalt\n";
	struct ncsync_asm_part parts[1] = { { 7, NULL } };
	struct ncsync_program *prog;
	struct ncsync_asm_error err;
	int n;

	n = ncsync_asm_cores(one, parts, 1, &err);
	TAP_CHECK(n == 0 && parts[0].core == 0 && parts[0].prog,
		  "no core statement: 0 and one program (%d)", n);
	if (n)
		return;
	TAP_CHECK(!ncsync_asm(one, &prog, &err), "ncsync_asm() builds it");
	ncsync_program_finalize(prog);
	ncsync_program_finalize(parts[0].prog);
	TAP_CHECK(t_same_program(prog, parts[0].prog), "the same records");
	ncsync_program_free(prog);
	ncsync_program_free(parts[0].prog);
}

static void test_errors(void)
{
	struct ncsync_asm_part parts[4];
	struct ncsync_asm_error err;
	size_t i;
	int n;

	for (i = 0; i < ARRAY_LEN(cases); i++) {
		memset(parts, 0xA5, sizeof(parts));
		n = ncsync_asm_cores(cases[i].text, parts, cases[i].max, &err);
		TAP_CHECK(n == -EINVAL && err.line == cases[i].line &&
			  err.col == cases[i].col &&
			  !strcmp(err.msg, cases[i].msg) &&
			  parts[0].core == 0xA5A5A5A5U,
			  "case %zu refused at %u:%u: %s (%d)", i, err.line,
			  err.col, err.msg, n);
		if (n > 0)
			free_parts(parts, n);
	}
}

static void test_args(void)
{
	struct ncsync_asm_part parts[2];
	struct ncsync_program *prog = (void *)1;
	struct ncsync_asm_error err;
	int ret;

	TAP_CHECK(ncsync_asm_cores(NULL, parts, 2, &err) == -EINVAL &&
		  !strcmp(err.msg, "invalid argument"), "NULL text");
	TAP_CHECK(ncsync_asm_cores(two, NULL, 2, NULL) == -EINVAL,
		  "NULL parts");
	TAP_CHECK(ncsync_asm_cores(two, parts, 0, &err) == -EINVAL,
		  "no room");
	ret = ncsync_asm("core 0\nengine pool\nnop\n", &prog, &err);
	TAP_CHECK(ret == -EINVAL && !prog && err.line == 1 && err.col == 1 &&
		  !strcmp(err.msg, "core: a program across cores; assemble it with ncsync_asm_cores()"),
		  "ncsync_asm() refuses a core statement: %s", err.msg);
	TAP_CHECK(ncsync_disasm_cores(NULL, 1, stdout) == -EINVAL,
		  "disasm: NULL parts");
	parts[0].core = 0;
	parts[0].prog = NULL;
	TAP_CHECK(ncsync_disasm_cores(parts, 1, stdout) == -EINVAL,
		  "disasm: a part without a program");
	TAP_CHECK(ncsync_disasm_cores(parts, 0, stdout) == -EINVAL,
		  "disasm: no part");
}

int main(void)
{
	struct ncsync_asm_part parts[2];

	test_two(parts);
	test_round_trip(parts);
	free_parts(parts, 2);
	test_no_core();
	test_errors();
	test_args();
	return tap_done();
}
