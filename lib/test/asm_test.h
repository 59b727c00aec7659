/* SPDX-License-Identifier: LGPL-2.1-or-later OR MIT */
/*
 * Helpers of the text-form tests (asm_*.c, disasm_*.c) and of
 * program_error.c: records written byte by byte at the offsets of
 * <linux/ncsync.h>, independently of the library's builders, one per
 * refusal reason (from the shared bad-record table), and one-line
 * assembly.
 */
#ifndef NCSYNC_TEST_ASM_TEST_H
#define NCSYNC_TEST_ASM_TEST_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ncsync.h"
#include "tap.h"
#include "test/bad_records.h"

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/* xorshift64: a reproducible sequence from *@state, which is not zero. */
static inline uint32_t t_rnd(uint64_t *state)
{
	*state ^= *state << 13;
	*state ^= *state >> 7;
	*state ^= *state << 17;
	return (uint32_t)(*state >> 16);
}

static inline void t_put32(uint8_t *p, uint32_t v)
{
	p[0] = v;
	p[1] = v >> 8;
	p[2] = v >> 16;
	p[3] = v >> 24;
}

static inline void t_put64(uint8_t *p, uint64_t v)
{
	t_put32(p, (uint32_t)v);
	t_put32(p + 4, (uint32_t)(v >> 32));
}

/* A zero record with @op and the word length. */
static inline void t_rec(uint8_t *r, uint8_t op)
{
	memset(r, 0, NCSYNC_RECORD_SIZE);
	r[0] = op;
	r[1] = NCSYNC_RECORD_WORDLEN;
}

/* The events block, lane 0. */
static inline void t_ev(uint8_t *r, uint8_t wm, uint8_t wi, uint8_t um,
			uint8_t ui, uint32_t v)
{
	r[NCSYNC_REC_EV_WAIT_MODE] = wm;
	r[NCSYNC_REC_EV_WAIT_IDX] = wi;
	r[NCSYNC_REC_EV_UPD_MODE] = um;
	r[NCSYNC_REC_EV_UPD_IDX] = ui;
	t_put32(r + NCSYNC_REC_EV_VALUE, v);
}

/* The extended block, lane 1 (EventSemaphore). */
static inline void t_ex(uint8_t *r, uint8_t wm, uint8_t wi, uint32_t wv,
			uint8_t um, uint8_t ui, uint32_t uv)
{
	r[NCSYNC_REC_EX_WAIT_MODE] = wm;
	r[NCSYNC_REC_EX_WAIT_IDX] = wi;
	r[NCSYNC_REC_EX_UPD_MODE] = um;
	r[NCSYNC_REC_EX_UPD_IDX] = ui;
	t_put32(r + NCSYNC_REC_EX_WAIT_VALUE, wv);
	t_put32(r + NCSYNC_REC_EX_UPD_VALUE, uv);
}

/*
 * A record the validator refuses for @reason, one of enum ncsync_rec_reason
 * but NCSYNC_REC_OK, in any queue and any device memory: the first such
 * record of the shared bad-record table.  @r is left as it is for other
 * values.
 */
static inline void t_bad_rec(uint8_t *r, unsigned int reason)
{
	const struct ncsync_bad_record *b = ncsync_bad_record_of(reason);

	if (b)
		ncsync_bad_record_build(b, 0, r);
}

/*
 * Assemble "engine pool\n<line>\n" and copy its one record to @out.
 * Return: 0, the error of ncsync_asm(), or -EMSGSIZE when the line did not
 * make exactly one record.
 */
static inline int t_asm_one(const char *line, uint8_t *out,
			    struct ncsync_asm_error *err)
{
	struct ncsync_program *prog;
	struct ncsync_stream *s;
	size_t n = strlen(line) + 32;
	char *text = malloc(n);
	int ret;

	if (!text)
		return -ENOMEM;
	snprintf(text, n, "engine pool\n%s\n", line);
	ret = ncsync_asm(text, &prog, err);
	free(text);
	if (ret)
		return ret;
	s = ncsync_program_find_stream(prog, NCSYNC_ENGINE_POOL);
	if (!s || ncsync_stream_count(s) != 1) {
		ncsync_program_free(prog);
		return -EMSGSIZE;
	}
	memcpy(out, ncsync_stream_record(s, 0), NCSYNC_RECORD_SIZE);
	ncsync_program_free(prog);
	return 0;
}

/* Every stream of @a is the one of @b, byte for byte. */
static inline bool t_same_program(struct ncsync_program *a,
				  struct ncsync_program *b)
{
	unsigned int e;
	uint32_t i;

	for (e = 0; e < 8; e++) {
		struct ncsync_stream *s = ncsync_program_find_stream(a, e);
		struct ncsync_stream *t = ncsync_program_find_stream(b, e);

		if (!s != !t || ncsync_stream_count(s) != ncsync_stream_count(t))
			return false;
		for (i = 0; i < ncsync_stream_count(s); i++)
			if (memcmp(ncsync_stream_peek(s, i),
				   ncsync_stream_peek(t, i), NCSYNC_RECORD_SIZE))
				return false;
	}
	return true;
}

static inline void t_hex(const uint8_t *r, char *buf)
{
	unsigned int i;

	for (i = 0; i < NCSYNC_RECORD_SIZE; i++)
		sprintf(buf + 2 * i, "%02x", r[i]);
}

/*
 * disasm(rec) assembles back to rec, and disasm of that is the same line.
 * Return: true when both hold; @line receives the line.
 */
static inline bool t_roundtrip(const uint8_t *rec, char *line)
{
	char again[NCSYNC_DISASM_LINE_MAX], hex[2 * NCSYNC_RECORD_SIZE + 1];
	struct ncsync_asm_error err;
	uint8_t back[NCSYNC_RECORD_SIZE];
	int ret;

	ret = ncsync_disasm(rec, line, NCSYNC_DISASM_LINE_MAX);
	if (ret < 0) {
		t_hex(rec, hex);
		printf("# disasm %s: %d\n", hex, ret);
		return false;
	}
	ret = t_asm_one(line, back, &err);
	if (ret) {
		printf("# asm '%s': %d %u:%u: %s\n", line, ret, err.line,
		       err.col, err.msg);
		return false;
	}
	if (memcmp(back, rec, NCSYNC_RECORD_SIZE)) {
		t_hex(rec, hex);
		printf("# '%s'\n#  was %s\n", line, hex);
		t_hex(back, hex);
		printf("#  got %s\n", hex);
		return false;
	}
	ret = ncsync_disasm(back, again, sizeof(again));
	if (ret < 0 || strcmp(again, line)) {
		printf("# '%s' came back as '%s'\n", line, again);
		return false;
	}
	return true;
}

#endif /* NCSYNC_TEST_ASM_TEST_H */
