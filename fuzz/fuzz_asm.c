// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * libFuzzer target: the assembler and the disassembler of libncsync
 * (lib/src/asm*.c, lib/src/disasm.c, with the program builders, the lowering
 * and common/ncsync_record.c, compiled from their own paths by
 * fuzz/Makefile).
 *
 * Input: program text (Documentation/ncsync/asm.rst), fed to ncsync_asm().
 *
 * - A refusal is -EINVAL, -ENOMEM or a builder's errno, with no program,
 *   and an error that names a line of the text, a column inside it (or
 *   just past its end) and a message.
 * - Every record of an accepted program is disassembled, alone: the line
 *   fits NCSYNC_DISASM_LINE_MAX, assembles back into the same 64 bytes,
 *   and disassembles into the same line (asm.rst "The text form is
 *   exact": records the validator refuses come back through .raw).
 * - The program is finalized (lowering its barriers, with the counter or,
 *   for inputs of odd length, the event lowering); when that succeeds it
 *   is printed with ncsync_disasm_program(), and that text assembles and
 *   finalizes into the same streams, byte for byte, and prints the same.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ncsync.h"

#define CHECK(cond) do {						\
	if (!(cond)) {							\
		fprintf(stderr, "fuzz_asm: %s:%d: check failed: %s\n",	\
			__FILE__, __LINE__, #cond);			\
		abort();						\
	}								\
} while (0)

static void check_error(const char *text, int ret,
			const struct ncsync_asm_error *err)
{
	const char *line = text, *end;
	size_t len;
	unsigned int n;

	CHECK(ret < 0);
	CHECK(memchr(err->msg, '\0', sizeof(err->msg)));
	CHECK(err->msg[0]);
	CHECK(err->line >= 1 && err->col >= 1);
	for (n = 1; n < err->line; n++) {
		line = strchr(line, '\n');
		if (!line) {
			fprintf(stderr, "error on line %u of %u: %s\n",
				err->line, n, err->msg);
			CHECK(!"error line past the text");
		}
		line++;
	}
	end = strchr(line, '\n');
	len = end ? (size_t)(end - line) : strlen(line);
	if (err->col > len + 1) {
		fprintf(stderr, "%u:%u: %s (line of %zu bytes)\n", err->line,
			err->col, err->msg, len);
		CHECK(!"error column past the line");
	}
}

/* One record alone: text, then the same bytes, then the same text. */
static void record_roundtrip(uint8_t engine, const uint8_t *rec)
{
	char line[NCSYNC_DISASM_LINE_MAX], again[NCSYNC_DISASM_LINE_MAX];
	char text[NCSYNC_DISASM_LINE_MAX + 32];
	struct ncsync_asm_error err;
	struct ncsync_program *prog;
	struct ncsync_stream *s;
	int n, ret;

	n = ncsync_disasm(rec, line, sizeof(line));
	CHECK(n >= 0 && n < NCSYNC_DISASM_LINE_MAX);
	CHECK(strlen(line) == (size_t)n && !strchr(line, '\n'));

	snprintf(text, sizeof(text), "engine %u\n%s\n", engine, line);
	ret = ncsync_asm(text, &prog, &err);
	if (ret) {
		fprintf(stderr, "'%s': %u:%u: %s\n", line, err.line, err.col,
			err.msg);
		CHECK(!"a disassembled record does not assemble");
	}
	s = ncsync_program_find_stream(prog, engine);
	CHECK(s && ncsync_stream_count(s) == 1);
	if (memcmp(ncsync_stream_record(s, 0), rec, NCSYNC_RECORD_SIZE)) {
		fprintf(stderr, "'%s' assembles into other bytes\n", line);
		CHECK(!"asm(disasm(r)) != r");
	}
	n = ncsync_disasm(ncsync_stream_record(s, 0), again, sizeof(again));
	CHECK(n >= 0);
	if (strcmp(line, again)) {
		fprintf(stderr, "'%s' -> '%s'\n", line, again);
		CHECK(!"disasm(asm(x)) != x");
	}
	ncsync_program_free(prog);
}

static char *print(struct ncsync_program *prog, size_t *len)
{
	char *buf = NULL;
	FILE *f;

	f = open_memstream(&buf, len);
	CHECK(f);
	CHECK(ncsync_disasm_program(prog, f) == 0);
	CHECK(fclose(f) == 0);
	return buf;
}

static void program_roundtrip(struct ncsync_program *prog)
{
	struct ncsync_asm_error err;
	struct ncsync_program *p2;
	size_t len, len2;
	char *text, *text2;
	unsigned int e;
	uint32_t i;
	int ret;

	text = print(prog, &len);
	ret = ncsync_asm(text, &p2, &err);
	if (ret) {
		fprintf(stderr, "%s\n%u:%u: %s\n", text, err.line, err.col,
			err.msg);
		CHECK(!"a printed program does not assemble");
	}
	ret = ncsync_program_finalize(p2);
	if (ret) {
		fprintf(stderr, "%s\nfinalize: %d\n", text, ret);
		CHECK(!"a printed program does not finalize");
	}
	CHECK(ncsync_program_engines(prog) == ncsync_program_engines(p2));
	for (e = 0; e < 256; e++) {
		struct ncsync_stream *a = ncsync_program_find_stream(prog, e);
		struct ncsync_stream *b = ncsync_program_find_stream(p2, e);

		CHECK(!a == !b);
		if (!a)
			continue;
		CHECK(ncsync_stream_count(a) == ncsync_stream_count(b));
		for (i = 0; i < ncsync_stream_count(a); i++) {
			if (!memcmp(ncsync_stream_record(a, i),
				    ncsync_stream_record(b, i),
				    NCSYNC_RECORD_SIZE))
				continue;
			fprintf(stderr, "%s\nengine %u record %u differs\n",
				text, e, i);
			CHECK(!"asm(disasm_program(p)) != p");
		}
	}
	text2 = print(p2, &len2);
	CHECK(len == len2 && !memcmp(text, text2, len));
	free(text2);
	free(text);
	ncsync_program_free(p2);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ncsync_asm_error err;
	struct ncsync_program *prog = (void *)1;
	struct ncsync_stream *s;
	unsigned int e;
	char *text;
	uint32_t i;
	int ret;

	text = malloc(size + 1);
	CHECK(text);
	memcpy(text, data, size);
	text[size] = '\0';

	ret = ncsync_asm(text, &prog, &err);
	if (ret) {
		CHECK(!prog);
		check_error(text, ret, &err);
		free(text);
		return 0;
	}
	CHECK(prog);
	CHECK(err.line == 0 && err.col == 0);

	for (e = 0; e < 256; e++) {
		s = ncsync_program_find_stream(prog, e);
		if (!s)
			continue;
		CHECK(ncsync_stream_engine(s) == e);
		for (i = 0; i < ncsync_stream_count(s); i++)
			record_roundtrip(e, ncsync_stream_record(s, i));
	}

	ret = 0;
	if (size % 2)
		ret = ncsync_program_lower(prog, NCSYNC_LOWER_EVENTS);
	if (!ret)
		ret = ncsync_program_finalize(prog);
	if (!ret) {
		for (e = 0; e < 256; e++) {
			s = ncsync_program_find_stream(prog, e);
			for (i = 0; s && i < ncsync_stream_count(s); i++)
				record_roundtrip(e, ncsync_stream_record(s, i));
		}
		program_roundtrip(prog);
	}
	ncsync_program_free(prog);
	free(text);
	return 0;
}
