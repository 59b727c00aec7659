// SPDX-License-Identifier: GPL-2.0
/*
 * ncsync(1): programs through libncsync.
 *
 *   ncsync asm FILE [-o OUT] [--lowering counter|events]
 *   ncsync disasm FILE [--engine NAME]
 *   ncsync run FILE [--timeout MS] [--watchdog MS] [--strict]
 *                   [--conformance] [--timeline OUT.svg]
 *                   [--lowering counter|events]
 *
 * FILE is the text form (Documentation/ncsync/asm.rst), or a program image
 * that "ncsync asm -o" wrote: the header below, then per queue its engine
 * and record count, then the records of each queue in that order.  All
 * little-endian:
 *
 *	0x00  "NCSYNCPG"       magic, 8 bytes
 *	0x08  u32 version      1
 *	0x0c  u32 nqueues      1 .. 5
 *	0x10  nqueues x { u8 engine, u8 pad[3] = 0, u32 count }
 *	....  the records, 64 bytes each
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "run.h"

#define IMG_MAGIC	"NCSYNCPG"
#define IMG_VERSION	1

/* Engines in id order. */
#define MAX_ENGINE_ID	8

bool is_image(const char *buf, size_t len)
{
	return len >= 16 && !memcmp(buf, IMG_MAGIC, 8);
}

static uint32_t get_le32(const uint8_t *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

static void put_le32(uint8_t *p, uint32_t v)
{
	p[0] = v;
	p[1] = v >> 8;
	p[2] = v >> 16;
	p[3] = v >> 24;
}

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

/* A program from an image; prints the error.  0 or EXIT_FAIL. */
static int image_load(const char *path, const uint8_t *buf, size_t len,
		      struct ncsync_program **progp)
{
	struct ncsync_program *prog;
	uint32_t nq, q, i, version;
	size_t off;
	int ret;

	version = get_le32(buf + 8);
	nq = get_le32(buf + 12);
	if (version != IMG_VERSION)
		return fail_msg("%s: image version %u, expected %u", path,
				version, IMG_VERSION);
	if (!nq || nq > NCSYNC_NUM_ENGINES || len < 16 + 8 * (size_t)nq)
		return fail_msg("%s: bad image: %u queues", path, nq);
	ret = ncsync_program_new(&prog);
	if (ret)
		return fail_err(ret, "%s", path);
	off = 16 + 8 * (size_t)nq;
	for (q = 0; q < nq; q++) {
		const uint8_t *qh = buf + 16 + 8 * q;
		uint32_t count = get_le32(qh + 4);
		struct ncsync_stream *s;

		if (qh[1] || qh[2] || qh[3] ||
		    count > (len - off) / NCSYNC_RECORD_SIZE) {
			ncsync_program_free(prog);
			return fail_msg("%s: bad image: queue %u", path, q);
		}
		ret = ncsync_program_stream(prog, qh[0], &s);
		if (ret) {
			ncsync_program_free(prog);
			return fail_err(ret, "%s: queue %u, engine %u", path,
					q, qh[0]);
		}
		for (i = 0; i < count; i++, off += NCSYNC_RECORD_SIZE) {
			ret = ncsync_add_raw(s, buf + off);
			if (ret < 0) {
				ncsync_program_free(prog);
				return fail_err(ret, "%s", path);
			}
		}
	}
	if (off != len) {
		ncsync_program_free(prog);
		return fail_msg("%s: bad image: %zu bytes after the records",
				path, len - off);
	}
	*progp = prog;
	return 0;
}

static int image_write(const char *path, struct ncsync_program *prog)
{
	unsigned int mask = ncsync_program_engines(prog), nq = 0, e;
	uint8_t hdr[16 + 8 * NCSYNC_NUM_ENGINES];
	FILE *f;
	uint32_t i;

	memset(hdr, 0, sizeof(hdr));
	memcpy(hdr, IMG_MAGIC, 8);
	put_le32(hdr + 8, IMG_VERSION);
	for (e = 0; e < MAX_ENGINE_ID; e++) {
		struct ncsync_stream *s;

		if (!(mask & (1U << e)))
			continue;
		s = ncsync_program_find_stream(prog, e);
		hdr[16 + 8 * nq] = e;
		put_le32(hdr + 16 + 8 * nq + 4, ncsync_stream_count(s));
		nq++;
	}
	put_le32(hdr + 12, nq);
	f = strcmp(path, "-") ? fopen(path, "wb") : stdout;
	if (!f)
		return fail_err(errno, "%s", path);
	fwrite(hdr, 1, 16 + 8 * nq, f);
	for (e = 0; e < MAX_ENGINE_ID; e++) {
		struct ncsync_stream *s;

		if (!(mask & (1U << e)))
			continue;
		s = ncsync_program_find_stream(prog, e);
		for (i = 0; i < ncsync_stream_count(s); i++)
			fwrite(ncsync_stream_peek(s, i), 1,
			       NCSYNC_RECORD_SIZE, f);
	}
	if (f == stdout ? fflush(f) : fclose(f))
		return fail_err(errno, "%s", path);
	if (f == stdout && ferror(f))
		return fail_err(EIO, "%s", path);
	return 0;
}

/*
 * ncsync_program_finalize() failed with @err: say why.  Every failure
 * leaves its message in ncsync_program_lower_error(): the lowering's, a
 * label's or the record the validator refused (engine, record, reason).
 */
static void report_refused(const char *path, struct ncsync_program *prog,
			   int err)
{
	const char *msg = ncsync_program_lower_error(prog);

	if (msg)
		fail_msg("%s: %s", path, msg);
	else
		fail_err(err, "%s: finalizing the program", path);
}

/* Print the refusal of ncsync_asm_cores() @ret of @path; EXIT_FAIL. */
static int asm_refused(const char *path, int ret,
		       const struct ncsync_asm_error *aerr)
{
	if (aerr->line)
		return fail_msg("%s:%u:%u: %s", path, aerr->line, aerr->col,
				aerr->msg);
	return fail_msg("%s: %s", path, aerr->msg[0] ? aerr->msg :
			strerror(-ret));
}

/*
 * Lower @prog, of @what (the file, or the file and a core), for the
 * reserved slices and the logical core of bo->info (NULL: the defaults,
 * lnc 1); frees it and prints the error when it fails.  0 or EXIT_FAIL.
 */
static int lower_text(const char *what, struct ncsync_program *prog,
		      const struct build_opts *bo)
{
	const struct ncsync_info *in = bo->info;
	const char *msg;
	int ret = 0;

	if (in)
		ret = ncsync_program_set_reserved(prog,
						  in->rt_reserved_sem_first,
						  in->rt_reserved_sem_count,
						  in->rt_reserved_event_first,
						  in->rt_reserved_event_count) ?:
		      ncsync_program_set_lnc(prog, in->lnc ? in->lnc : 1);
	else if (bo->lnc)
		ret = ncsync_program_set_lnc(prog, bo->lnc);
	if (ret) {
		ncsync_program_free(prog);
		return fail_err(ret,
				"%s: the runtime's reserved semaphores and events, the logical core",
				what);
	}
	ret = ncsync_program_lower(prog, bo->lowering);
	if (!ret)
		return 0;
	msg = ncsync_program_lower_error(prog);
	if (msg)
		fail_msg("%s: lowering: %s", what, msg);
	else
		fail_err(ret, "%s: lowering the barriers", what);
	ncsync_program_free(prog);
	return EXIT_FAIL;
}

/* Finalize @prog of @what; frees it and prints the error.  0 or EXIT_FAIL. */
static int finish_program(const char *what, struct ncsync_program *prog)
{
	int ret;

	if (!ncsync_program_engines(prog)) {
		ncsync_program_free(prog);
		return fail_msg("%s: no records", what);
	}
	ret = ncsync_program_finalize(prog);
	if (ret) {
		report_refused(what, prog, ret);
		ncsync_program_free(prog);
		return EXIT_FAIL;
	}
	return 0;
}

/*
 * Lower and finalize parts[i], for i < @n, for the logical core of @bo
 * (without a device: bo->lnc, or the parts' highest position + 1); on an
 * error, free them all.
 */
static int finish_parts(const char *path, struct ncsync_asm_part *parts,
			unsigned int n, const struct build_opts *bo)
{
	struct build_opts pbo = *bo;
	char what[PATH_MAX + 16];
	unsigned int i, j;
	int ret = 0;

	for (i = 0; !pbo.info && !bo->lnc && i < n; i++)
		if (parts[i].core >= pbo.lnc)
			pbo.lnc = parts[i].core + 1;
	for (i = 0; i < n && !ret; i++) {
		snprintf(what, sizeof(what), "%s: core %u", path,
			 parts[i].core);
		if (!pbo.info && parts[i].core >= pbo.lnc) {
			ncsync_program_free(parts[i].prog);
			ret = fail_msg("%s: outside a logical core of %u core%s",
				       what, pbo.lnc, pbo.lnc == 1 ? "" : "s");
			i++;
			break;
		}
		ret = lower_text(what, parts[i].prog, &pbo) ?:
		      finish_program(what, parts[i].prog);
	}
	for (j = 0; ret && j < n; j++)
		if (j != i - 1)	/* lower_text() or finish_program() freed it */
			ncsync_program_free(parts[j].prog);
	return ret;
}

/*
 * Assemble the text @buf of @path into @parts (ncsync_asm_cores()), *@n
 * of them, 0 for one program; prints the error.  0 or EXIT_FAIL.
 */
static int asm_parts(const char *path, const char *buf, size_t len,
		     struct ncsync_asm_part *parts, int *n)
{
	struct ncsync_asm_error aerr;

	if (strlen(buf) != len)
		return fail_msg("%s: a NUL byte: not a program text or image",
				path);
	*n = ncsync_asm_cores(buf, parts, NCSYNC_MAX_LNC, &aerr);
	return *n < 0 ? asm_refused(path, *n, &aerr) : 0;
}

int build_parts(const char *path, const char *buf, size_t len,
		const struct build_opts *bo, struct ncsync_asm_part *parts,
		unsigned int *nparts)
{
	int n = 0, ret;

	*nparts = 0;
	if (is_image(buf, len)) {
		parts[0].core = 0;
		return build_program(path, buf, len, bo, &parts[0].prog);
	}
	ret = asm_parts(path, buf, len, parts, &n);
	if (ret)
		return ret;
	if (n)
		ret = finish_parts(path, parts, n, bo);
	else
		ret = lower_text(path, parts[0].prog, bo) ?:
		      finish_program(path, parts[0].prog);
	if (!ret)
		*nparts = n;
	return ret;
}

/*
 * Assemble the text @buf of @path and lower it; a program across cores
 * is refused.  Prints the error.  0 or EXIT_FAIL.
 */
static int build_text(const char *path, const char *buf, size_t len,
		      const struct build_opts *bo,
		      struct ncsync_program **progp)
{
	struct ncsync_asm_part parts[NCSYNC_MAX_LNC];
	int n = 0, i, ret;

	ret = asm_parts(path, buf, len, parts, &n);
	if (ret)
		return ret;
	for (i = 0; i < n; i++)
		ncsync_program_free(parts[i].prog);
	if (n)
		return fail_msg("%s: a program across cores ('core' statements) where the program of one core is expected",
				path);
	*progp = parts[0].prog;
	return lower_text(path, *progp, bo);
}

/*
 * Build and finalize the program of @path, read into @buf (text or image);
 * prints the error.  0 or EXIT_FAIL.
 */
int build_program(const char *path, const char *buf, size_t len,
		  const struct build_opts *bo, struct ncsync_program **progp)
{
	struct ncsync_program *prog;
	int ret;

	if (is_image(buf, len)) {
		ret = image_load(path, (const uint8_t *)buf, len, &prog);
		if (!ret && bo->lowering_given)
			fprintf(stderr,
				"ncsync: %s: an image is lowered already; --lowering ignored\n",
				path);
	} else {
		ret = build_text(path, buf, len, bo, &prog);
	}
	if (!ret)
		ret = finish_program(path, prog);
	if (!ret)
		*progp = prog;
	return ret;
}

bool parse_lowering(const char *s, void *field)
{
	enum ncsync_barrier_lowering *how = field;

	if (!strcmp(s, "counter"))
		*how = NCSYNC_LOWER_COUNTER;
	else if (!strcmp(s, "events"))
		*how = NCSYNC_LOWER_EVENTS;
	else
		return false;
	return true;
}

/* One lane's wait of a decoded record. */
static void json_wait_view(unsigned int lane, const struct ncsync_wait_view *w)
{
	j_obj(NULL);
	j_uint("lane", lane);
	j_str("bank", bank_label(w->bank));
	j_uint("index", w->index);
	j_uint("mode", w->mode);
	if (w->bank == NCSYNC_BANK_SEM && w->reg)
		j_uint("reg", w->value);
	else if (w->bank == NCSYNC_BANK_SEM)
		j_int("threshold", (int32_t)w->value);
	j_end();
}

/* One lane's update of a decoded record. */
static void json_update_view(unsigned int lane,
			     const struct ncsync_update_view *u)
{
	j_obj(NULL);
	j_uint("lane", lane);
	j_str("bank", bank_label(u->bank));
	j_uint("index", u->index);
	j_str("op", ncsync_update_kind_name(u->op));
	if (u->bank == NCSYNC_BANK_SEM)
		j_uint(u->reg ? "reg" : "operand", u->operand);
	j_bool("paired", u->paired);
	j_bool("on_land", u->on_land);
	j_end();
}

/* A decoded record's waits and updates, lane by lane. */
static void json_lanes(const struct ncsync_record_view *v)
{
	unsigned int i;

	j_arr("waits");
	for (i = 0; i < v->nlanes; i++)
		if (v->wait[i].active)
			json_wait_view(i, &v->wait[i]);
	j_end();
	j_arr("updates");
	for (i = 0; i < v->nlanes; i++)
		if (v->update[i].active)
			json_update_view(i, &v->update[i]);
	j_end();
}

static void json_record(uint32_t index, const uint8_t *rec)
{
	struct ncsync_record_view v;
	char line[NCSYNC_DISASM_LINE_MAX], hex[2 * NCSYNC_RECORD_SIZE + 1];
	int i;

	ncsync_disasm(rec, line, sizeof(line));
	for (i = 0; i < NCSYNC_RECORD_SIZE; i++)
		sprintf(hex + 2 * i, "%02x", rec[i]);
	j_obj(NULL);
	j_uint("index", index);
	j_str("text", line);
	j_str("hex", hex);
	if (!ncsync_record_view(rec, UINT32_MAX, &v)) {
		json_lanes(&v);
		if (v.target >= 0)
			j_uint("target", v.target);
	}
	j_end();
}

/* "engines": each stream of @prog and its records. */
static void json_engines(struct ncsync_program *prog)
{
	unsigned int mask = ncsync_program_engines(prog), e;
	uint32_t i;

	j_arr("engines");
	for (e = 0; e < MAX_ENGINE_ID; e++) {
		struct ncsync_stream *s;

		if (!(mask & (1U << e)))
			continue;
		s = ncsync_program_find_stream(prog, e);
		j_obj(NULL);
		j_uint("id", e);
		j_str("engine", engine_label(e));
		j_arr("records");
		for (i = 0; i < ncsync_stream_count(s); i++)
			json_record(i, ncsync_stream_peek(s, i));
		j_end();
		j_end();
	}
	j_end();
}

static void json_program(const char *path, struct ncsync_program *prog)
{
	j_obj(NULL);
	j_str("file", path);
	json_engines(prog);
	j_end();
	j_done();
}

/* A program across cores: "cores", each its position and its engines. */
static void json_parts(const char *path, const struct ncsync_asm_part *parts,
		       unsigned int n)
{
	unsigned int i;

	j_obj(NULL);
	j_str("file", path);
	j_arr("cores");
	for (i = 0; i < n; i++) {
		j_obj(NULL);
		j_uint("core", parts[i].core);
		json_engines(parts[i].prog);
		j_end();
	}
	j_end();
	j_end();
	j_done();
}

/* The finalized program as text, or as JSON with -j. */
static int print_program(const char *path, struct ncsync_program *prog)
{
	int ret;

	if (opt_json) {
		json_program(path, prog);
		return 0;
	}
	ret = ncsync_disasm_program(prog, stdout);
	return ret ? fail_err(ret, "%s: printing", path) : 0;
}

/* asm */

struct asm_opts {
	const char *out;
	enum ncsync_barrier_lowering lowering;
};

enum { AO_OUTPUT, AO_LOWERING };

static const struct opt asm_opt_table[] = {
	[AO_OUTPUT] = { "output", 'o', OPT_STR,
			OPT_FIELD(struct asm_opts, out) },
	[AO_LOWERING] = OPT_LOWERING(struct asm_opts, lowering),
	{ /* sentinel */ }
};

/* asm of a program across cores: its text, or its JSON; no image. */
static int print_parts(const char *path, const struct asm_opts *o,
		       const struct ncsync_asm_part *parts, unsigned int n)
{
	int ret;

	if (o->out)
		return fail_msg("%s: a program across cores ('core' statements): an image holds the program of one core",
				path);
	if (opt_json) {
		json_parts(path, parts, n);
		return 0;
	}
	ret = ncsync_disasm_cores(parts, n, stdout);
	return ret ? fail_err(ret, "%s: printing", path) : 0;
}

int cmd_asm(int argc, char **argv)
{
	const struct cmd *c = find_cmd("asm");
	struct asm_opts o = { .lowering = NCSYNC_LOWER_COUNTER };
	struct ncsync_asm_part parts[NCSYNC_MAX_LNC];
	unsigned int n, i;
	struct build_opts bo;
	char *text = NULL;
	struct args a;
	size_t len;
	int ret;

	ret = parse_file(c, argc, argv, asm_opt_table, &o, &a, &text, &len);
	if (ret)
		return OPTS_EXIT(ret);
	bo = (struct build_opts){
		.lowering = o.lowering,
		.lowering_given = a.given & (1U << AO_LOWERING),
	};
	ret = build_parts(a.pos[0], text, len, &bo, parts, &n);
	free(text);
	if (ret)
		return ret;
	if (n)
		ret = print_parts(a.pos[0], &o, parts, n);
	else if (o.out)
		ret = image_write(o.out, parts[0].prog);
	else
		ret = print_program(a.pos[0], parts[0].prog);
	for (i = 0; i < (n ? n : 1); i++)
		ncsync_program_free(parts[i].prog);
	return ret;
}

/* disasm */

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

int cmd_disasm(int argc, char **argv)
{
	const struct cmd *c = find_cmd("disasm");
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

/* run */

enum {
	RO_TIMEOUT, RO_WATCHDOG, RO_STRICT, RO_CONFORMANCE, RO_TIMELINE,
	RO_LOWERING, RO_CHECK,
};

static const struct opt run_opt_table[] = {
	[RO_TIMEOUT] = OPT_TIMEOUT(struct run_opts, timeout),
	[RO_WATCHDOG] = { "watchdog", 'w', OPT_U32, "1-3600000 ms",
			  OPT_FIELD(struct run_opts, watchdog),
			  .min = 1, .max = MS_MAX },
	[RO_STRICT] = { "strict", 's', OPT_FLAG,
			OPT_FIELD(struct run_opts, strict) },
	[RO_CONFORMANCE] = { "conformance", 'C', OPT_FLAG,
			     OPT_FIELD(struct run_opts, conformance) },
	[RO_TIMELINE] = { "timeline", 'T', OPT_PATH,
			  OPT_FIELD(struct run_opts, timeline) },
	[RO_LOWERING] = OPT_LOWERING(struct run_opts, lowering),
	[RO_CHECK] = { "check", 'K', OPT_FLAG,
		       OPT_FIELD(struct run_opts, check) },
	{ /* sentinel */ }
};

/*
 * The "# options:" line among the comment lines that open @text: the
 * words after "options:" in [*@p, *@end), or false.
 */
static bool options_line(const char *text, const char **p, const char **end)
{
	const char *line, *q;

	for (line = text; *line; line = **end ? *end + 1 : *end) {
		*end = strchr(line, '\n');
		if (!*end)
			*end = line + strlen(line);
		for (q = line; q < *end && (*q == ' ' || *q == '\t'); q++)
			;
		if (q == *end || *q == '\r')
			continue;
		if (*q != '#' && *q != ';')
			return false;
		for (q++; q < *end && (*q == ' ' || *q == '\t'); q++)
			;
		if ((size_t)(*end - q) >= 8 && !strncmp(q, "options:", 8)) {
			*p = q + 8;
			return true;
		}
	}
	return false;
}

int file_opts(const struct cmd *c, const char *path, const char *text,
	      const struct opt *table, void *tmp, void *dst,
	      unsigned int *given, char **linep)
{
	char *words[32], *w, *save;
	const char *p, *end;
	struct args a;
	int n = 1, ret;

	if (!options_line(text, &p, &end))
		return 0;
	*linep = strndup(p, end - p);
	if (!*linep)
		return fail_err(ENOMEM, "%s", path);
	words[0] = (char *)c->name;
	for (w = strtok_r(*linep, " \t\r", &save); w && n < 31;
	     w = strtok_r(NULL, " \t\r", &save))
		words[n++] = w;
	ret = parse_opts(c, n, words, table, tmp, &a);
	if (!ret && a.npos)
		ret = usage_err(c, "%s: unexpected '%s' in '# options:'",
				path, a.pos[0]);
	if (ret) {
		fprintf(stderr, "ncsync: %s: in its '# options:' line\n",
			path);
		return ret < 0 ? EXIT_USAGE : ret;
	}
	merge_opts(table, dst, given, tmp, a.given);
	return 0;
}

/* The run options of the file's "# options:" line. */
static int file_options(struct run *run)
{
	struct run_opts f = { .timeout = UINT32_MAX };

	return file_opts(find_cmd("run"), run->path, run->text, run_opt_table,
			 &f, &run->o, &run->given, &run->opts_line);
}

/* The command line, the file and its options.  0, a status or OPTS_HELP. */
static int run_parse(int argc, char **argv, struct run *run)
{
	const struct cmd *c = find_cmd("run");
	struct args a;
	int ret;

	ret = parse_file(c, argc, argv, run_opt_table, &run->o, &a,
			 &run->text, &run->len);
	if (ret)
		return ret;
	run->given = a.given;
	run->path = a.pos[0];
	if (!is_image(run->text, run->len))
		ret = file_options(run);
	return ret;
}

/*
 * Build the program for the core's reserved slices, and for a program
 * across cores open their cores; frees the text.
 */
static int run_build(struct run *run)
{
	struct build_opts bo = {
		.info = ncsync_get_info(run->dev),
		.lowering = run->o.lowering,
		.lowering_given = run->given & (1U << RO_LOWERING),
	};
	struct ncsync_asm_part parts[NCSYNC_MAX_LNC];
	unsigned int n;
	int ret;

	ret = build_parts(run->path, run->text, run->len, &bo, parts, &n);
	free(run->text);
	run->text = NULL;
	run->watchdog = run->o.watchdog ? run->o.watchdog :
			bo.info->watchdog_ms;
	if (!ret && !n)
		run->prog = parts[0].prog;
	else if (!ret)
		ret = cores_open(run, parts, n);
	return ret;
}

static int run_submit(struct run *run)
{
	struct ncsync_submit_error serr;
	uint32_t flags;
	int ret;

	flags = (run->o.strict ? NCSYNC_SUBMIT_F_STRICT : 0) |
		(run->o.conformance ? NCSYNC_SUBMIT_F_CONFORM : 0);
	if (run->nparts)
		return cores_submit(run, flags);
	ret = ncsync_program_submit(run->dev, run->prog, flags,
				    run->o.watchdog, &run->id, &serr);
	if (!ret)
		return 0;
	if (ret == -EINVAL && serr.reason)
		return fail_msg("%s: engine %s record %u: %s", run->path,
				engine_label(serr.engine), serr.index,
				ncsync_reason_name(serr.reason));
	return fail_err(ret, "%s: submit", run->path);
}

static volatile sig_atomic_t run_interrupted;

static void run_signal(int sig)
{
	run_interrupted = 1;
}

/*
 * Wait for the end, or cancel at --timeout or an interrupt, and read the
 * final status.  0 or EXIT_FAIL.
 */
static int run_wait(struct run *run, int64_t t0)
{
	struct ncsync_dev *dev = run->nparts ? run->parts[run->sub].dev :
				 run->dev;
	struct timespec deadline;
	uint32_t state = 0;
	int wret, ret;

	if (run->o.timeout != UINT32_MAX)
		ncsync_deadline_after(&deadline, run->o.timeout * 1000000LL);
	do {
		wret = ncsync_program_wait(dev, run->id,
					   run->o.timeout != UINT32_MAX ?
					   &deadline : NULL, &state);
	} while (wret == -EINTR && !run_interrupted);
	if (wret == -ETIMEDOUT || wret == -EINTR) {
		run->why = wret == -EINTR ? "interrupted" :
			   "cancelled at --timeout";
		/* What it was doing, before the cancel stops it. */
		if (run->nparts)
			cores_status(run, true);
		else
			run->have_live = !ncsync_program_status(dev, run->id,
								false,
								&run->live,
								run->live_sems);
		ncsync_program_cancel(dev, run->id);
		do {
			wret = ncsync_program_wait(dev, run->id, NULL, &state);
		} while (wret == -EINTR);
	}
	run->elapsed_ns = now_ns() - t0;
	if (wret)
		return fail_err(wret, "%s: wait for program %u", run->path,
				run->id);
	if (run->nparts)
		return cores_status(run, false);
	ret = ncsync_program_status(dev, run->id, true, &run->st, run->sems);
	if (ret)
		return fail_err(ret, "%s: status of program %u", run->path,
				run->id);
	return 0;
}

/* Draw the timeline of the run; 0 or EXIT_FAIL. */
static int run_timeline(struct run *run)
{
	struct tl_prog tp;
	char title[256];
	int ret;

	ret = timeline_stop(run->tl);
	if (ret)
		return ret;
	if (run->nparts) {
		snprintf(title, sizeof(title),
			 "%s: logical core %u program %u: %s after %.1f ms",
			 run->path, run->lc.index, run->id,
			 ncsync_prog_state_name(run->st.state),
			 run->elapsed_ns / 1e6);
		ret = cores_timeline(run, title);
		if (!ret)
			run->timeline = run->o.timeline;
		return ret;
	}
	snprintf(title, sizeof(title),
		 "%s: core %u program %u: %s after %.1f ms", run->path,
		 opt_core, run->id, ncsync_prog_state_name(run->st.state),
		 run->elapsed_ns / 1e6);
	tp = (struct tl_prog){
		.core = opt_core, .id = run->id,
		.engine_mask = ncsync_program_engines(run->prog),
	};
	ret = timeline_write_svg(run->tl, &tp, 1, false, title,
				 run->o.timeline);
	if (!ret)
		run->timeline = run->o.timeline;
	return ret;
}

static void print_report(const struct run *run,
			 const struct ncsync_prog_status *st,
			 const struct ncsync_sem_value *sems);

/* The report, and the exit status: 0 when the program ended done or halted. */
static int run_report(struct run *run)
{
	const struct ncsync_prog_status *st = &run->st;
	int ret = 0;

	if (run->tl)
		ret = run_timeline(run);
	if (run->nparts) {
		cores_report(run);
	} else if (run->have_live) {
		/* The engines as the cancel found them; the final state. */
		run->live.state = st->state;
		print_report(run, &run->live, run->live_sems);
	} else {
		print_report(run, st, run->sems);
	}
	if (ret)
		return ret;
	if (st->state == NCSYNC_PROG_DONE || st->state == NCSYNC_PROG_HALTED)
		return EXIT_OK;
	fflush(stdout);
	return fail_msg("%s: program %u %s", run->path, run->id,
			st->state == NCSYNC_PROG_TIMED_OUT ?
			"timed out (watchdog)" :
			run->why ? run->why : ncsync_prog_state_name(st->state));
}

/*
 * --timeline PATH: refuse a PATH that cannot be written before anything
 * runs, then start the trace; 0 or EXIT_FAIL.
 */
static int run_timeline_start(struct run *run)
{
	int ret = timeline_probe(run->o.timeline, &run->timeline_created);
	unsigned int cores[NCSYNC_MAX_LNC], i;

	if (ret)
		return fail_err(ret, "run: --timeline %s", run->o.timeline);
	cores[0] = opt_core;
	for (i = 0; i < run->nparts; i++)
		cores[i] = run->parts[i].core;
	ret = timeline_start(cores, run->nparts ? run->nparts : 1, &run->tl);
	if (ret && run->timeline_created)
		unlink(run->o.timeline);
	return ret;
}

/* Submit the built program, wait for it and report. */
static int run_execute(struct run *run)
{
	struct sigaction sa = { .sa_handler = run_signal }, old_int, old_term;
	int64_t t0;
	int ret;

	if (run->o.timeline) {
		ret = run_timeline_start(run);
		if (ret)
			return ret;
	}
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	t0 = now_ns();
	ret = run_submit(run);
	if (!ret)
		ret = run_wait(run, t0);
	if (!ret)
		ret = run_report(run);
	if (run->tl) {
		timeline_stop(run->tl);
		timeline_free(run->tl);
		/* Not left behind empty, by the probe, when not drawn. */
		if (run->timeline_created && !run->timeline)
			unlink(run->o.timeline);
	}
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	return ret;
}

/* run --check: the checker first, on the program of one core or its parts. */
static int run_check(const struct run *run)
{
	struct ncsync_asm_part parts[NCSYNC_MAX_LNC];
	unsigned int i;

	parts[0] = (struct ncsync_asm_part){ .core = 0, .prog = run->prog };
	for (i = 0; i < run->nparts; i++)
		parts[i] = (struct ncsync_asm_part){
			.core = run->parts[i].pos, .prog = run->parts[i].prog,
		};
	return check_before_run(run->path, parts, run->nparts);
}

int cmd_run(int argc, char **argv)
{
	struct run *run = calloc(1, sizeof(*run));
	int ret;

	if (!run)
		return fail_err(ENOMEM, "run");
	run->o.timeout = UINT32_MAX;
	ret = run_parse(argc, argv, run);
	if (!ret)
		ret = open_core(true, &run->dev);
	if (!ret) {
		ret = run_build(run);
		if (!ret && run->o.check)
			ret = run_check(run);
		if (!ret)
			ret = run_execute(run);
		ncsync_program_free(run->prog);
		cores_close(run);
		ncsync_close(run->dev);
	}
	free(run->text);
	free(run->opts_line);
	free(run);
	return OPTS_EXIT(ret);
}

/* The report of a run */

void wait_text(const struct ncsync_engine_status *e, char *buf, size_t len)
{
	describe_wait(buf, len, e->wait_kind, e->wait_mode, e->wait_index,
		      e->wait_threshold);
}

/* The "wait" member of a blocked engine of the status. */
void json_engine_wait(const struct ncsync_engine_status *e)
{
	char what[64];

	wait_text(e, what, sizeof(what));
	j_wait(what, e->wait_kind, e->wait_mode, e->wait_index, e->wait_lane,
	       e->wait_threshold, e->wait_current);
}

/* An engine of the status, its lines indented by @indent. */
void print_engine(struct ncsync_program *prog,
		  const struct ncsync_engine_status *e, const char *indent)
{
	char what[64], line[NCSYNC_DISASM_LINE_MAX] = "";
	struct ncsync_stream *s;

	s = ncsync_program_find_stream(prog, e->engine);
	if (s && e->pc < ncsync_stream_count(s))
		ncsync_disasm(ncsync_stream_peek(s, e->pc), line,
			      sizeof(line));
	printf("%sengine %u %-4s %-9s record %u, %llu executed", indent,
	       e->engine, engine_label(e->engine), ncsync_engine_state_name(e->state),
	       e->pc, (unsigned long long)e->executed);
	if (e->state == NCSYNC_ENG_BLOCKED) {
		if (e->wait_kind == NCSYNC_BLOCK_DRAIN) {
			printf(": in a drain, %u copies in flight",
			       e->dma_outstanding);
		} else if (e->wait_kind == NCSYNC_BLOCK_DMA_FULL) {
			printf(": waits for a DMA slot, %u copies in flight",
			       e->dma_outstanding);
		} else {
			wait_text(e, what, sizeof(what));
			printf(": waits for %s (lane %u), now %d", what,
			       e->wait_lane, e->wait_current);
		}
	}
	if (e->fault)
		printf(" (fault: %s)", ncsync_fault_name(e->fault));
	putchar('\n');
	if (*line && e->state != NCSYNC_ENG_DONE)
		printf("%s    %u: %s\n", indent, e->pc, line);
}

void json_engine(const struct ncsync_engine_status *e)
{
	j_obj(NULL);
	j_uint("id", e->engine);
	j_str("engine", engine_label(e->engine));
	j_str("state", ncsync_engine_state_name(e->state));
	j_str("fault", ncsync_fault_name(e->fault));
	j_uint("pc", e->pc);
	j_uint("executed", e->executed);
	j_uint("dma_outstanding", e->dma_outstanding);
	if (e->state == NCSYNC_ENG_BLOCKED)
		json_engine_wait(e);
	j_end();
}

void json_run_head(const struct run *run, unsigned int core, uint32_t state)
{
	j_str("file", run->path);
	j_uint("core", core);
	j_uint("id", run->id);
	j_str("state", ncsync_prog_state_name(state));
	j_uint("elapsed_us", run->elapsed_ns / 1000);
	j_uint("watchdog_ms", run->watchdog);
	if (run->why)
		j_str("cancelled", run->why);
}

void json_engines_sems(const struct ncsync_prog_status *st,
		       const struct ncsync_sem_value *sems)
{
	unsigned int i;

	j_arr("engines");
	for (i = 0; i < st->nengines; i++)
		json_engine(&st->engines[i]);
	j_end();
	j_arr("sems");
	for (i = 0; i < st->nsems; i++) {
		j_obj(NULL);
		j_uint("index", sems[i].index);
		j_int("value", sems[i].value);
		j_end();
	}
	j_end();
}

static void json_report(const struct run *run,
			const struct ncsync_prog_status *st,
			const struct ncsync_sem_value *sems,
			const struct run_dl *dl)
{
	j_obj(NULL);
	json_run_head(run, opt_core, st->state);
	json_engines_sems(st, sems);
	if (dl)
		run_dl_json(dl);
	if (run->timeline)
		j_str("timeline", run->timeline);
	j_end();
	j_done();
}

static void text_report(const struct run *run,
			const struct ncsync_prog_status *st,
			const struct ncsync_sem_value *sems,
			const struct run_dl *dl)
{
	unsigned int i;

	printf("%s: program %u on core %u: %s after %.1f ms", run->path,
	       run->id, opt_core, ncsync_prog_state_name(st->state),
	       run->elapsed_ns / 1e6);
	if (st->state == NCSYNC_PROG_TIMED_OUT)
		printf(" (watchdog: no progress for %u ms)", run->watchdog);
	if (run->why)
		printf(" (%s)", run->why);
	putchar('\n');
	for (i = 0; i < st->nengines; i++)
		print_engine(run->prog, &st->engines[i], "  ");
	printf("  non-zero semaphores:%s", st->nsems ? "\n" : " none\n");
	if (st->nsems)
		print_sem_list(stdout, "    ", sems, st->nsems);
	if (dl)
		run_dl_print(dl);
	if (run->timeline)
		printf("  timeline: %s\n", run->timeline);
}

/* The status @st, and for a program that went wrong, its deadlock. */
static void print_report(const struct run *run,
			 const struct ncsync_prog_status *st,
			 const struct ncsync_sem_value *sems)
{
	const struct ncsync_info *in = ncsync_get_info(run->dev);
	struct ncsync_asm_part part = { .prog = run->prog };
	struct run_dl dl;
	bool stuck = false;

	/* Its core's position, where a copy to a peer lands or not. */
	if (in && in->lnc)
		part.core = in->core % in->lnc;
	if (st->state != NCSYNC_PROG_DONE && st->state != NCSYNC_PROG_HALTED)
		stuck = run_dl_analyse(&dl, &part, &st, 1, false);
	if (opt_json)
		json_report(run, st, sems, stuck ? &dl : NULL);
	else
		text_report(run, st, sems, stuck ? &dl : NULL);
}
