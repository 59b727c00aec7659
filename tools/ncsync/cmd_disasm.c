// SPDX-License-Identifier: GPL-2.0
/*
 * ncsync(1): ncsync disasm FILE [--engine NAME]: a program image, or a
 * file of bare 64-byte records, as text or JSON.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "build.h"
#include "cmds.h"
#include "print.h"

static bool parse_engine(const char *s, uint8_t *engine)
{
	uint32_t v;
	int e;

	for (e = 0; e < MAX_ENGINE_ID; e++) {
		const char *n = ncsync_engine_name(e);

		if (n && !strcmp(n, s)) {
			*engine = e;
			return true;
		}
	}
	if (parse_u32(s, MAX_ENGINE_ID - 1, &v)) {
		*engine = v;
		return true;
	}
	return false;
}

struct disasm_opts {
	int engine;	/* -1: none */
};

static bool parse_datapath_engine(const char *s, void *field)
{
	uint8_t e;

	if (!parse_engine(s, &e) || !(NCSYNC_ENGINE_MASK & (1U << e)))
		return false;
	*(int *)field = e;
	return true;
}

static const struct opt disasm_opt_table[] = {
	{ "engine", 'e', OPT_PARSE, "pool, act, pe, dve, sp",
	  OPT_FIELD(struct disasm_opts, engine),
	  .parse = parse_datapath_engine },
	{ /* sentinel */ }
};

/* A file of bare records, without --engine: one line (or object) each. */
static void print_bare_records(const char *path, const uint8_t *rec,
			       size_t len)
{
	char line[NCSYNC_DISASM_LINE_MAX];
	size_t i;

	if (!opt_json) {
		for (i = 0; i < len; i += NCSYNC_RECORD_SIZE) {
			ncsync_disasm(rec + i, line, sizeof(line));
			printf("%s\n", line);
		}
		return;
	}
	j_obj(NULL);
	j_str("file", path);
	j_arr("records");
	for (i = 0; i < len; i += NCSYNC_RECORD_SIZE)
		json_record(i / NCSYNC_RECORD_SIZE, rec + i);
	j_end();
	j_end();
	j_done();
}

/* Bare records as the one queue of @engine; prints the error. */
static int records_load(const char *path, const uint8_t *rec, size_t len,
			uint8_t engine, struct ncsync_program **progp)
{
	struct ncsync_stream *s;
	size_t i;
	int ret;

	ret = ncsync_program_new(progp);
	if (!ret)
		ret = ncsync_program_stream(*progp, engine, &s);
	for (i = 0; !ret && i < len; i += NCSYNC_RECORD_SIZE)
		ret = ncsync_add_raw(s, rec + i) < 0 ? -ENOMEM : 0;
	return ret ? fail_err(ret, "%s", path) : 0;
}

/* Print the image, or the bare records, @buf holds. */
static int disasm_buf(const char *path, const char *buf, size_t len,
		      int engine)
{
	const uint8_t *rec = (const uint8_t *)buf;
	struct ncsync_program *prog = NULL;
	int ret = 0;

	if (is_image(buf, len))
		ret = image_load(path, rec, len, &prog);
	else if (!len || len % NCSYNC_RECORD_SIZE)
		ret = fail_msg("%s: neither a program image nor 64-byte records (%zu bytes)",
			       path, len);
	else if (engine >= 0)
		ret = records_load(path, rec, len, engine, &prog);
	else
		print_bare_records(path, rec, len);
	if (!ret && prog)
		ret = print_program(path, prog);
	ncsync_program_free(prog);
	return ret;
}

int cmd_disasm(const struct cmd *c, int argc, char **argv)
{
	struct disasm_opts o = { .engine = -1 };
	struct args a;
	size_t len;
	char *buf;
	int ret;

	ret = parse_file(c, argc, argv, disasm_opt_table, &o, &a, &buf, &len);
	if (ret)
		return OPTS_EXIT(ret);
	ret = disasm_buf(a.pos[0], buf, len, o.engine);
	free(buf);
	return ret;
}
