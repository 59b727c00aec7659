// SPDX-License-Identifier: GPL-2.0
/*
 * ncsync(1): programs through libncsync.
 *
 *   ncsync asm FILE [-o OUT] [--lowering counter|events]
 *   ncsync disasm FILE [--engine NAME]
 *   ncsync run FILE [--timeout MS] [--watchdog MS] [--strict]
 *                   [--timeline OUT.svg] [--lowering counter|events]
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
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "tool.h"

#define IMG_MAGIC	"NCSYNCPG"
#define IMG_VERSION	1

/* Engines in id order. */
#define MAX_ENGINE_ID	8

static bool is_image(const char *buf, size_t len)
{
	return len >= 16 && !memcmp(buf, IMG_MAGIC, 8);
}

static uint32_t get_le32(const uint8_t *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t get_le64(const uint8_t *p)
{
	return get_le32(p) | (uint64_t)get_le32(p + 4) << 32;
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
			fwrite(ncsync_stream_record(s, i), 1,
			       NCSYNC_RECORD_SIZE, f);
	}
	if (f == stdout ? fflush(f) : fclose(f))
		return fail_err(errno, "%s", path);
	if (f == stdout && ferror(f))
		return fail_err(EIO, "%s", path);
	return 0;
}

struct build_opts {
	bool lowering_given;
	enum ncsync_barrier_lowering lowering;
	const struct ncsync_info *info;	/* reserved slices; NULL: defaults */
};

/*
 * ncsync_program_finalize() failed with @err: name the record the validator
 * refused (ncsync_program_error()), or just the error.
 */
static void report_refused(const char *path, struct ncsync_program *prog,
			   int err)
{
	struct ncsync_submit_error e;

	if (err == -EINVAL && !ncsync_program_error(prog, &e)) {
		fail_msg("%s: engine %s record %u: %s", path,
			 engine_label(e.engine), e.index,
			 ncsync_reason_name(e.reason));
		return;
	}
	fail_err(err, "%s: finalizing the program", path);
}

/*
 * Build and finalize the program of @path, read into @buf (text or image);
 * prints the error.  0 or EXIT_FAIL.
 */
static int build_program(const char *path, const char *buf, size_t len,
			 const struct build_opts *bo,
			 struct ncsync_program **progp)
{
	struct ncsync_asm_error aerr;
	struct ncsync_program *prog;
	int ret;

	if (is_image(buf, len)) {
		ret = image_load(path, (const uint8_t *)buf, len, &prog);
		if (ret)
			return ret;
		if (bo->lowering_given)
			fprintf(stderr,
				"ncsync: %s: an image is lowered already; --lowering ignored\n",
				path);
	} else {
		if (strlen(buf) != len)
			return fail_msg("%s: a NUL byte: not a program text or image",
					path);
		ret = ncsync_asm(buf, &prog, &aerr);
		if (ret) {
			if (aerr.line)
				return fail_msg("%s:%u:%u: %s", path,
						aerr.line, aerr.col, aerr.msg);
			return fail_msg("%s: %s", path,
					aerr.msg[0] ? aerr.msg :
					strerror(-ret));
		}
		if (bo->info) {
			const struct ncsync_info *in = bo->info;

			ret = ncsync_program_set_reserved(prog,
							  in->rt_reserved_sem_first,
							  in->rt_reserved_sem_count,
							  in->rt_reserved_event_first,
							  in->rt_reserved_event_count);
			if (ret) {
				ncsync_program_free(prog);
				return fail_err(ret,
						"%s: the runtime's reserved semaphores and events",
						path);
			}
		}
		ret = ncsync_program_lower(prog, bo->lowering);
		if (ret) {
			ncsync_program_free(prog);
			return fail_err(ret, "%s: lowering the barriers", path);
		}
	}
	if (!ncsync_program_engines(prog)) {
		ncsync_program_free(prog);
		return fail_msg("%s: no records", path);
	}
	ret = ncsync_program_finalize(prog);
	if (ret) {
		report_refused(path, prog, ret);
		ncsync_program_free(prog);
		return EXIT_FAIL;
	}
	*progp = prog;
	return 0;
}

static bool parse_lowering(const char *s, enum ncsync_barrier_lowering *how)
{
	if (!strcmp(s, "counter"))
		*how = NCSYNC_LOWER_COUNTER;
	else if (!strcmp(s, "events"))
		*how = NCSYNC_LOWER_EVENTS;
	else
		return false;
	return true;
}

static void json_record(uint32_t index, const uint8_t *rec)
{
	char line[NCSYNC_DISASM_LINE_MAX], hex[2 * NCSYNC_RECORD_SIZE + 1];
	int i;

	ncsync_disasm(rec, line, sizeof(line));
	for (i = 0; i < NCSYNC_RECORD_SIZE; i++)
		sprintf(hex + 2 * i, "%02x", rec[i]);
	j_obj(NULL);
	j_uint("index", index);
	j_str("text", line);
	j_str("hex", hex);
	j_end();
}

static void json_program(const char *path, struct ncsync_program *prog)
{
	unsigned int mask = ncsync_program_engines(prog), e;
	uint32_t i;

	j_obj(NULL);
	j_str("file", path);
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
			json_record(i, ncsync_stream_record(s, i));
		j_end();
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

struct asm_opts {
	const char *out;
	struct build_opts bo;
};

static int asm_opt(int id, const char *arg, void *ctx)
{
	struct asm_opts *o = ctx;

	if (id == 0) {
		o->out = arg;
		return 0;
	}
	if (!parse_lowering(arg, &o->bo.lowering))
		return usage_err(find_cmd("asm"),
				 "invalid --lowering '%s' (counter, events)",
				 arg);
	o->bo.lowering_given = true;
	return 0;
}

int cmd_asm(int argc, char **argv)
{
	static const struct opt opts[] = {
		{ "output", 'o', true, 0 },
		{ "lowering", 'l', true, 1 },
		{ NULL },
	};
	const struct cmd *c = find_cmd("asm");
	struct asm_opts o = { .bo.lowering = NCSYNC_LOWER_COUNTER };
	struct ncsync_program *prog;
	char **pos, *text = NULL;
	int npos, ret;
	size_t len;

	ret = parse_opts(c, argc, argv, opts, asm_opt, &o, &pos, &npos);
	if (ret)
		return OPTS_EXIT(ret);
	if (npos != 1)
		return usage_err(c, npos ? "unexpected argument '%s'" :
				 "missing FILE%s", npos ? pos[1] : "");
	ret = read_file(pos[0], &text, &len);
	if (ret)
		return fail_err(ret, "%s", pos[0]);
	ret = build_program(pos[0], text, len, &o.bo, &prog);
	free(text);
	if (ret)
		return ret;
	if (o.out)
		ret = image_write(o.out, prog);
	else
		ret = print_program(pos[0], prog);
	ncsync_program_free(prog);
	return ret;
}

static int disasm_opt(int id, const char *arg, void *ctx)
{
	int *engine = ctx;
	uint8_t e;

	if (!parse_engine(arg, &e) || !(NCSYNC_ENGINE_MASK & (1U << e)))
		return usage_err(find_cmd("disasm"),
				 "invalid --engine '%s' (pool, act, pe, dve, sp)",
				 arg);
	*engine = e;
	return 0;
}

int cmd_disasm(int argc, char **argv)
{
	static const struct opt opts[] = {
		{ "engine", 'e', true, 0 },
		{ NULL },
	};
	const struct cmd *c = find_cmd("disasm");
	char line[NCSYNC_DISASM_LINE_MAX];
	struct ncsync_program *prog = NULL;
	struct ncsync_stream *s;
	const uint8_t *rec;
	int engine = -1, npos, ret;
	char **pos, *buf;
	size_t len, i;

	ret = parse_opts(c, argc, argv, opts, disasm_opt, &engine, &pos, &npos);
	if (ret)
		return OPTS_EXIT(ret);
	if (npos != 1)
		return usage_err(c, npos ? "unexpected argument '%s'" :
				 "missing FILE%s", npos ? pos[1] : "");
	ret = read_file(pos[0], &buf, &len);
	if (ret)
		return fail_err(ret, "%s", pos[0]);
	rec = (const uint8_t *)buf;
	if (is_image(buf, len)) {
		ret = image_load(pos[0], rec, len, &prog);
	} else if (!len || len % NCSYNC_RECORD_SIZE) {
		ret = fail_msg("%s: neither a program image nor 64-byte records (%zu bytes)",
			       pos[0], len);
	} else if (engine >= 0) {
		ret = ncsync_program_new(&prog);
		if (!ret)
			ret = ncsync_program_stream(prog, engine, &s);
		for (i = 0; !ret && i < len; i += NCSYNC_RECORD_SIZE)
			ret = ncsync_add_raw(s, rec + i) < 0 ? -ENOMEM : 0;
		if (ret)
			ret = fail_err(ret, "%s", pos[0]);
	} else if (opt_json) {
		j_obj(NULL);
		j_str("file", pos[0]);
		j_arr("records");
		for (i = 0; i < len; i += NCSYNC_RECORD_SIZE)
			json_record(i / NCSYNC_RECORD_SIZE, rec + i);
		j_end();
		j_end();
		j_done();
	} else {
		for (i = 0; i < len; i += NCSYNC_RECORD_SIZE) {
			ncsync_disasm(rec + i, line, sizeof(line));
			printf("%s\n", line);
		}
	}
	if (!ret && prog)
		ret = print_program(pos[0], prog);
	ncsync_program_free(prog);
	free(buf);
	return ret;
}

/* run */

struct run_opts {
	uint32_t timeout;	/* UINT32_MAX: none */
	uint32_t watchdog;	/* 0: the module's */
	bool strict;
	const char *timeline;
	enum ncsync_barrier_lowering lowering;
	unsigned int given;	/* bit per option id */
};

enum { RO_TIMEOUT, RO_WATCHDOG, RO_STRICT, RO_TIMELINE, RO_LOWERING };

static const struct opt run_opt_table[] = {
	{ "timeout", 't', true, RO_TIMEOUT },
	{ "watchdog", 'w', true, RO_WATCHDOG },
	{ "strict", 's', false, RO_STRICT },
	{ "timeline", 'T', true, RO_TIMELINE },
	{ "lowering", 'l', true, RO_LOWERING },
	{ NULL },
};

static int run_opt(int id, const char *arg, void *ctx)
{
	const struct cmd *c = find_cmd("run");
	struct run_opts *o = ctx;

	switch (id) {
	case RO_TIMEOUT:
		if (!parse_ms(arg, &o->timeout))
			return usage_err(c, "invalid --timeout '%s' (0-3600000 ms)",
					 arg);
		break;
	case RO_WATCHDOG:
		if (!parse_ms(arg, &o->watchdog) || !o->watchdog)
			return usage_err(c, "invalid --watchdog '%s' (1-3600000 ms)",
					 arg);
		break;
	case RO_STRICT:
		o->strict = true;
		break;
	case RO_TIMELINE:
		if (!*arg)
			return usage_err(c, "empty --timeline");
		o->timeline = arg;
		break;
	case RO_LOWERING:
		if (!parse_lowering(arg, &o->lowering))
			return usage_err(c, "invalid --lowering '%s' (counter, events)",
					 arg);
		break;
	}
	o->given |= 1U << id;
	return 0;
}

/*
 * Default options from the file: a comment line "# options: ..." among
 * the comment lines that open it.  Options of the command line win.
 */
static int file_options(const char *path, const char *text,
			struct run_opts *o)
{
	const struct cmd *c = find_cmd("run");
	struct run_opts f = { .timeout = UINT32_MAX };
	char *words[32] = { "run" }, *copy, *w, *save;
	const char *line, *end, *p;
	char **pos;
	int n = 1, npos, ret;
	unsigned int id;

	for (line = text; *line; line = *end ? end + 1 : end) {
		end = strchr(line, '\n');
		if (!end)
			end = line + strlen(line);
		for (p = line; p < end && (*p == ' ' || *p == '\t'); p++)
			;
		if (p == end || *p == '\r')
			continue;
		if (*p != '#' && *p != ';')
			return 0;
		for (p++; p < end && (*p == ' ' || *p == '\t'); p++)
			;
		if ((size_t)(end - p) >= 8 && !strncmp(p, "options:", 8))
			break;
	}
	if (!*line)
		return 0;
	copy = strndup(p + 8, end - p - 8);
	if (!copy)
		return fail_err(ENOMEM, "%s", path);
	for (w = strtok_r(copy, " \t\r", &save); w && n < 31;
	     w = strtok_r(NULL, " \t\r", &save))
		words[n++] = w;
	ret = parse_opts(c, n, words, run_opt_table, run_opt, &f, &pos, &npos);
	if (!ret && npos)
		ret = usage_err(c, "%s: unexpected '%s' in '# options:'",
				path, pos[0]);
	free(copy);
	if (ret) {
		fprintf(stderr, "ncsync: %s: in its '# options:' line\n", path);
		return ret < 0 ? EXIT_USAGE : ret;
	}
	for (id = 0; id <= RO_LOWERING; id++) {
		if (!(f.given & (1U << id)) || (o->given & (1U << id)))
			continue;
		switch (id) {
		case RO_TIMEOUT:
			o->timeout = f.timeout;
			break;
		case RO_WATCHDOG:
			o->watchdog = f.watchdog;
			break;
		case RO_STRICT:
			o->strict = f.strict;
			break;
		case RO_TIMELINE:
			o->timeline = f.timeline;
			break;
		case RO_LOWERING:
			o->lowering = f.lowering;
			break;
		}
		o->given |= 1U << id;
	}
	return 0;
}

/* Deadlock analysis over the finalized program. */

enum need { NEED_ANY, NEED_UP, NEED_DOWN, NEED_SET, NEED_CLEAR };

static enum need wait_need(uint8_t kind, uint8_t mode)
{
	if (kind == NCSYNC_BLOCK_EVENT)
		return mode == NCSYNC_WAIT_EVT_SET ||
		       mode == NCSYNC_WAIT_EVT_SET_THEN_CLEAR ?
		       NEED_SET : NEED_CLEAR;
	switch (mode & ~NCSYNC_WAIT_REG) {
	case NCSYNC_WAIT_SEM_GT:
	case NCSYNC_WAIT_SEM_GE:
		return NEED_UP;
	case NCSYNC_WAIT_SEM_LT:
	case NCSYNC_WAIT_SEM_LE:
		return NEED_DOWN;
	default:
		return NEED_ANY;
	}
}

/* Does an update (mode, idx) of a lane meet @need on index @idx? */
static bool upd_meets(uint8_t mode, uint8_t uidx, enum need need,
		      uint8_t idx)
{
	uint8_t base = mode & 0x0F;
	bool reg = mode & NCSYNC_UPD_REG;

	if (!mode || uidx != idx)
		return false;
	switch (need) {
	case NEED_SET:
		return base == NCSYNC_UPD_EVT_SET;
	case NEED_CLEAR:
		return base == NCSYNC_UPD_EVT_CLEAR;
	case NEED_UP:
		return base == NCSYNC_UPD_SEM_INC ||
		       base == NCSYNC_UPD_SEM_ADD ||
		       base == NCSYNC_UPD_SEM_WRITE ||
		       (reg && base == NCSYNC_UPD_SEM_SUB);
	case NEED_DOWN:
		return base == NCSYNC_UPD_SEM_DEC ||
		       base == NCSYNC_UPD_SEM_SUB ||
		       base == NCSYNC_UPD_SEM_WRITE ||
		       (reg && base == NCSYNC_UPD_SEM_ADD);
	default:
		return base >= NCSYNC_UPD_SEM_INC;
	}
}

/* Does a wait's action (then-clear, then-set) meet @need on @idx? */
static bool act_meets(uint8_t mode, uint8_t widx, enum need need,
		      uint8_t idx)
{
	if (widx != idx)
		return false;
	return (need == NEED_SET && mode == NCSYNC_WAIT_EVT_CLEAR_THEN_SET) ||
	       (need == NEED_CLEAR && mode == NCSYNC_WAIT_EVT_SET_THEN_CLEAR);
}

static bool rec_meets(const uint8_t *r, bool event, enum need need,
		      uint8_t idx)
{
	bool evsem = r[0] == NCSYNC_OPC_EVENT_SEMAPHORE;
	uint8_t u0 = r[NCSYNC_REC_EV_UPD_MODE], u1 = 0;
	bool ev0 = (u0 & 0x0F) <= NCSYNC_UPD_EVT_CLEAR;
	bool ev1;

	if (evsem)
		u1 = r[NCSYNC_REC_EX_UPD_MODE];
	ev1 = (u1 & 0x0F) <= NCSYNC_UPD_EVT_CLEAR;
	if (event) {
		return (ev0 && upd_meets(u0, r[NCSYNC_REC_EV_UPD_IDX], need,
					 idx)) ||
		       (evsem && ev1 &&
			upd_meets(u1, r[NCSYNC_REC_EX_UPD_IDX], need, idx)) ||
		       act_meets(r[NCSYNC_REC_EV_WAIT_MODE],
				 r[NCSYNC_REC_EV_WAIT_IDX], need, idx) ||
		       (evsem && act_meets(r[NCSYNC_REC_EX_WAIT_MODE],
					   r[NCSYNC_REC_EX_WAIT_IDX], need,
					   idx));
	}
	if (r[0] == NCSYNC_OPC_GROUP_RESET && need != NEED_UP) {
		if (r[NCSYNC_REC_GR_CLEAR_MODE] == NCSYNC_CLEAR_RANGE)
			return idx >= r[NCSYNC_REC_GR_FIRST] &&
			       idx <= r[NCSYNC_REC_GR_LAST];
		return r[NCSYNC_REC_GR_MASK + idx / 8] & (1U << (idx % 8));
	}
	return (!ev0 && upd_meets(u0, r[NCSYNC_REC_EV_UPD_IDX], need, idx)) ||
	       (evsem && !ev1 &&
		upd_meets(u1, r[NCSYNC_REC_EX_UPD_IDX], need, idx));
}

/*
 * The first record at or after @pc that engine stream @s may still run
 * and that could satisfy the wait; -1 if none.  Loops reach back: a branch
 * at or after the start to a record before it moves the start back.
 */
static int64_t find_poster(struct ncsync_stream *s, uint32_t pc, bool event,
			   enum need need, uint8_t idx)
{
	uint32_t n = ncsync_stream_count(s), start = pc, i;
	bool moved = true;

	while (moved) {
		moved = false;
		for (i = start; i < n; i++) {
			const uint8_t *r = ncsync_stream_record(s, i);
			uint64_t t;

			if (r[0] != NCSYNC_OPC_BRANCH)
				continue;
			t = get_le64(r + NCSYNC_REC_BR_TARGET);
			if (t < start) {
				start = t;
				moved = true;
			}
		}
	}
	for (i = start; i < n; i++)
		if (rec_meets(ncsync_stream_record(s, i), event, need, idx))
			return i;
	return -1;
}

static bool eng_ended(const struct ncsync_engine_status *e)
{
	return e->state >= NCSYNC_ENG_DONE;
}

static bool eng_waiting(const struct ncsync_engine_status *e)
{
	return e->state == NCSYNC_ENG_BLOCKED &&
	       (e->wait_kind == NCSYNC_BLOCK_SEM ||
		e->wait_kind == NCSYNC_BLOCK_EVENT);
}

struct dl {
	bool stuck[NCSYNC_NUM_ENGINES];
	/* per waiting engine: per engine, the posting record or -1 */
	int64_t poster[NCSYNC_NUM_ENGINES][NCSYNC_NUM_ENGINES];
	unsigned int nstuck;
};

/*
 * Engines that wait for something only other stuck engines could post:
 * start from every waiting engine and drop those with a poster that is
 * neither stuck nor ended, until nothing changes.
 */
static void deadlock_find(struct ncsync_program *prog,
			  const struct ncsync_prog_status *st, struct dl *d)
{
	unsigned int n = st->nengines, i, j;
	bool changed = true;

	memset(d, 0, sizeof(*d));
	for (i = 0; i < n; i++) {
		const struct ncsync_engine_status *e = &st->engines[i];

		d->stuck[i] = eng_waiting(e);
		for (j = 0; j < n; j++) {
			const struct ncsync_engine_status *f = &st->engines[j];
			struct ncsync_stream *s;

			d->poster[i][j] = -1;
			if (!d->stuck[i] || j == i || eng_ended(f))
				continue;
			s = ncsync_program_find_stream(prog, f->engine);
			if (!s)
				continue;
			d->poster[i][j] =
				find_poster(s, f->pc,
					    e->wait_kind == NCSYNC_BLOCK_EVENT,
					    wait_need(e->wait_kind, e->wait_mode),
					    e->wait_index);
		}
	}
	while (changed) {
		changed = false;
		for (i = 0; i < n; i++) {
			if (!d->stuck[i])
				continue;
			for (j = 0; j < n; j++) {
				if (d->poster[i][j] >= 0 && !d->stuck[j]) {
					d->stuck[i] = false;
					changed = true;
					break;
				}
			}
		}
	}
	for (i = 0; i < n; i++)
		d->nstuck += d->stuck[i];
}

static void wait_text(const struct ncsync_engine_status *e, char *buf,
		      size_t len)
{
	describe_wait(buf, len, e->wait_kind, e->wait_mode, e->wait_index,
		      e->wait_threshold);
}

/* The first stuck engine that could post what stuck engine @i waits for. */
static int next_stuck(const struct ncsync_prog_status *st,
		      const struct dl *d, unsigned int i)
{
	unsigned int j;

	for (j = 0; j < st->nengines; j++)
		if (d->poster[i][j] >= 0 && d->stuck[j])
			return j;
	return -1;
}

/*
 * "deadlock: pool -> pe -> pool": a cycle of stuck engines, each waiting
 * for what only the next could post.  False when there is none (an engine
 * waits for something nothing in the program posts any more).
 */
static bool print_cycle(const struct ncsync_prog_status *st,
			const struct dl *d)
{
	unsigned int i, start, k;
	int j;

	for (start = 0; start < st->nengines; start++) {
		bool seen[NCSYNC_NUM_ENGINES] = { false };

		if (!d->stuck[start])
			continue;
		/* Walk until an engine repeats: it is on a cycle. */
		for (j = start; j >= 0 && !seen[j]; j = next_stuck(st, d, j))
			seen[j] = true;
		if (j < 0)
			continue;
		i = j;
		printf("  deadlock: %s", engine_label(st->engines[i].engine));
		for (k = 0; k < st->nengines; k++) {
			i = next_stuck(st, d, i);
			printf(" -> %s", engine_label(st->engines[i].engine));
			if ((int)i == j)
				break;
		}
		putchar('\n');
		return true;
	}
	return false;
}

static void print_deadlock(const struct ncsync_prog_status *st,
			   const struct dl *d)
{
	unsigned int i, j, k;
	char what[64];

	if (!print_cycle(st, d))
		printf("  stuck: %u engine%s wait%s for what no engine will post\n",
		       d->nstuck, d->nstuck == 1 ? "" : "s",
		       d->nstuck == 1 ? "s" : "");
	for (i = 0; i < st->nengines; i++) {
		const struct ncsync_engine_status *e = &st->engines[i];

		if (!d->stuck[i])
			continue;
		wait_text(e, what, sizeof(what));
		printf("    %s waits for %s, now %d: ", engine_label(e->engine),
		       what, e->wait_current);
		for (j = 0, k = 0; j < st->nengines; j++) {
			if (d->poster[i][j] < 0)
				continue;
			printf("%s%s (record %lld)", k++ ? ", " : "only ",
			       engine_label(st->engines[j].engine),
			       (long long)d->poster[i][j]);
		}
		if (k)
			printf(" would post it, and %s stuck\n",
			       k == 1 ? "is" : "are");
		else
			printf("no engine of the program posts it any more\n");
	}
}

static void json_deadlock(const struct ncsync_prog_status *st,
			  const struct dl *d)
{
	unsigned int i, j;
	char what[64];

	j_arr("deadlock");
	for (i = 0; i < st->nengines; i++) {
		const struct ncsync_engine_status *e = &st->engines[i];

		if (!d->stuck[i])
			continue;
		wait_text(e, what, sizeof(what));
		j_obj(NULL);
		j_str("engine", engine_label(e->engine));
		j_str("waits_for", what);
		j_int("current", e->wait_current);
		j_arr("posters");
		for (j = 0; j < st->nengines; j++) {
			if (d->poster[i][j] < 0)
				continue;
			j_obj(NULL);
			j_str("engine", engine_label(st->engines[j].engine));
			j_int("record", d->poster[i][j]);
			j_end();
		}
		j_end();
		j_end();
	}
	j_end();
}

static void print_engine(struct ncsync_program *prog,
			 const struct ncsync_engine_status *e)
{
	char what[64], line[NCSYNC_DISASM_LINE_MAX] = "";
	struct ncsync_stream *s;

	s = ncsync_program_find_stream(prog, e->engine);
	if (s && e->pc < ncsync_stream_count(s))
		ncsync_disasm(ncsync_stream_record(s, e->pc), line,
			      sizeof(line));
	printf("  engine %u %-4s %-9s record %u, %llu executed",
	       e->engine, engine_label(e->engine), eng_state_name(e->state),
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
		printf(" (fault: %s)", fault_name(e->fault));
	putchar('\n');
	if (*line && e->state != NCSYNC_ENG_DONE)
		printf("      %u: %s\n", e->pc, line);
}

static void json_engine(const struct ncsync_engine_status *e)
{
	char what[64];

	j_obj(NULL);
	j_uint("id", e->engine);
	j_str("engine", engine_label(e->engine));
	j_str("state", eng_state_name(e->state));
	j_str("fault", fault_name(e->fault));
	j_uint("pc", e->pc);
	j_uint("executed", e->executed);
	j_uint("dma_outstanding", e->dma_outstanding);
	if (e->state == NCSYNC_ENG_BLOCKED) {
		wait_text(e, what, sizeof(what));
		j_obj("wait");
		j_str("on", what);
		j_str("kind", e->wait_kind == NCSYNC_BLOCK_SEM ? "sem" :
		      e->wait_kind == NCSYNC_BLOCK_EVENT ? "event" :
		      e->wait_kind == NCSYNC_BLOCK_DRAIN ? "drain" :
		      e->wait_kind == NCSYNC_BLOCK_DMA_FULL ? "dma_full" :
		      "none");
		j_uint("mode", e->wait_mode);
		j_uint("index", e->wait_index);
		j_uint("lane", e->wait_lane);
		j_int("threshold", e->wait_threshold);
		j_int("current", e->wait_current);
		j_end();
	}
	j_end();
}

struct run_result {
	const char *path;
	uint32_t id;
	uint32_t watchdog;
	int64_t elapsed_ns;
	const char *why;	/* why we cancelled it */
	const char *timeline;
};

static void print_report(struct ncsync_program *prog,
			 const struct run_result *r,
			 const struct ncsync_prog_status *st,
			 const struct ncsync_sem_value *sems)
{
	bool bad = st->state != NCSYNC_PROG_DONE &&
		   st->state != NCSYNC_PROG_HALTED;
	unsigned int i;
	struct dl d;

	memset(&d, 0, sizeof(d));
	if (bad)
		deadlock_find(prog, st, &d);
	if (opt_json) {
		j_obj(NULL);
		j_str("file", r->path);
		j_uint("core", opt_core);
		j_uint("program", r->id);
		j_str("state", prog_state_name(st->state));
		j_uint("elapsed_us", r->elapsed_ns / 1000);
		j_uint("watchdog_ms", r->watchdog);
		if (r->why)
			j_str("cancelled", r->why);
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
		if (d.nstuck)
			json_deadlock(st, &d);
		if (r->timeline)
			j_str("timeline", r->timeline);
		j_end();
		j_done();
		return;
	}
	printf("%s: program %u on core %u: %s after %.1f ms", r->path, r->id,
	       opt_core, prog_state_name(st->state), r->elapsed_ns / 1e6);
	if (st->state == NCSYNC_PROG_TIMED_OUT)
		printf(" (watchdog: no progress for %u ms)", r->watchdog);
	if (r->why)
		printf(" (%s)", r->why);
	putchar('\n');
	for (i = 0; i < st->nengines; i++)
		print_engine(prog, &st->engines[i]);
	printf("  non-zero semaphores:%s", st->nsems ? "\n" : " none\n");
	if (st->nsems)
		print_sem_list(stdout, "    ", sems, st->nsems);
	if (d.nstuck)
		print_deadlock(st, &d);
	if (r->timeline)
		printf("  timeline: %s\n", r->timeline);
}

static volatile sig_atomic_t run_interrupted;

static void run_signal(int sig)
{
	run_interrupted = 1;
}

int cmd_run(int argc, char **argv)
{
	const struct cmd *c = find_cmd("run");
	struct run_opts o = { .timeout = UINT32_MAX };
	struct sigaction sa = { .sa_handler = run_signal }, old_int, old_term;
	struct ncsync_sem_value sems[NCSYNC_NUM_SEMS];
	struct ncsync_sem_value live_sems[NCSYNC_NUM_SEMS];
	struct ncsync_prog_status st, live;
	struct ncsync_submit_error serr;
	struct ncsync_program *prog = NULL;
	struct timeline *tl = NULL;
	struct run_result r = { 0 };
	struct build_opts bo = { 0 };
	struct ncsync_dev *dev;
	struct timespec deadline;
	char **pos, *text = NULL, title[256];
	uint32_t state = 0;
	bool have_live = false;
	int npos, ret, wret;
	int64_t t0;
	size_t len;

	ret = parse_opts(c, argc, argv, run_opt_table, run_opt, &o, &pos,
			 &npos);
	if (ret)
		return OPTS_EXIT(ret);
	if (npos != 1)
		return usage_err(c, npos ? "unexpected argument '%s'" :
				 "missing FILE%s", npos ? pos[1] : "");
	r.path = pos[0];
	ret = read_file(r.path, &text, &len);
	if (ret)
		return fail_err(ret, "%s", r.path);
	if (!is_image(text, len)) {
		ret = file_options(r.path, text, &o);
		if (ret) {
			free(text);
			return ret;
		}
	}

	ret = open_core(true, &dev);
	if (ret) {
		free(text);
		return ret;
	}
	bo.info = ncsync_get_info(dev);
	bo.lowering = o.lowering;
	bo.lowering_given = o.given & (1U << RO_LOWERING);
	ret = build_program(r.path, text, len, &bo, &prog);
	free(text);
	if (ret)
		goto out_close;
	r.watchdog = o.watchdog ? o.watchdog : bo.info->watchdog_ms;

	if (o.timeline) {
		ret = timeline_start(opt_core, &tl);
		if (ret)
			goto out_prog;
	}
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);

	t0 = now_ns();
	ret = ncsync_program_submit(dev, prog,
				    o.strict ? NCSYNC_SUBMIT_F_STRICT : 0,
				    o.watchdog, &r.id, &serr);
	if (ret) {
		if (ret == -EINVAL && serr.reason)
			ret = fail_msg("%s: engine %s record %u: %s", r.path,
				       engine_label(serr.engine), serr.index,
				       ncsync_reason_name(serr.reason));
		else
			ret = fail_err(ret, "%s: submit", r.path);
		goto out_trace;
	}
	if (o.timeout != UINT32_MAX)
		ncsync_deadline_after(&deadline, o.timeout * 1000000LL);
	do {
		wret = ncsync_program_wait(dev, r.id,
					   o.timeout != UINT32_MAX ?
					   &deadline : NULL, &state);
	} while (wret == -EINTR && !run_interrupted);
	if (wret == -ETIMEDOUT || wret == -EINTR) {
		r.why = wret == -EINTR ? "interrupted" :
			"cancelled at --timeout";
		/* What it was doing, before the cancel stops it. */
		have_live = !ncsync_program_status(dev, r.id, false, &live,
						   live_sems);
		ncsync_program_cancel(dev, r.id);
		do {
			wret = ncsync_program_wait(dev, r.id, NULL, &state);
		} while (wret == -EINTR);
	}
	r.elapsed_ns = now_ns() - t0;
	if (wret) {
		ret = fail_err(wret, "%s: wait for program %u", r.path, r.id);
		goto out_trace;
	}
	ret = ncsync_program_status(dev, r.id, true, &st, sems);
	if (ret) {
		ret = fail_err(ret, "%s: status of program %u", r.path, r.id);
		goto out_trace;
	}
	if (tl) {
		ret = timeline_stop(tl);
		if (!ret) {
			snprintf(title, sizeof(title),
				 "%s: core %u program %u: %s after %.1f ms",
				 r.path, opt_core, r.id,
				 prog_state_name(st.state),
				 r.elapsed_ns / 1e6);
			ret = timeline_write_svg(tl, r.id,
						 ncsync_program_engines(prog),
						 title, o.timeline);
		}
		if (!ret)
			r.timeline = o.timeline;
	}
	if (have_live) {
		/* The engines as the cancel found them; the final state. */
		live.state = st.state;
		print_report(prog, &r, &live, live_sems);
	} else {
		print_report(prog, &r, &st, sems);
	}
	if (ret)
		goto out_trace;
	if (st.state == NCSYNC_PROG_DONE || st.state == NCSYNC_PROG_HALTED) {
		ret = EXIT_OK;
	} else {
		fflush(stdout);
		ret = fail_msg("%s: program %u %s", r.path, r.id,
			       st.state == NCSYNC_PROG_TIMED_OUT ?
			       "timed out (watchdog)" :
			       r.why ? r.why : prog_state_name(st.state));
	}
out_trace:
	if (tl) {
		timeline_stop(tl);
		timeline_free(tl);
	}
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
out_prog:
	ncsync_program_free(prog);
out_close:
	ncsync_close(dev);
	return ret;
}
