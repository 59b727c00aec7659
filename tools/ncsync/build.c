// SPDX-License-Identifier: GPL-2.0
/*
 * ncsync(1): building programs, for asm, run, check and replay: a text
 * assembled (ncsync_asm_cores()), its barriers lowered for the core's
 * reserved slices and logical core, and finalized; or an image loaded.
 * Every failure is printed with the file, and the line where there is one.
 */
#include <limits.h>
#include <string.h>

#include "build.h"

/*
 * ncsync_program_finalize() failed with @err: say why.  Every failure
 * leaves its message in ncsync_program_lower_error(): the lowering's, a
 * label's or the record the validator refused (engine, record, reason),
 * which is preceded by its text line when it has one.
 */
static void report_refused(const char *path, struct ncsync_program *prog,
			   int err)
{
	const char *msg = ncsync_program_lower_error(prog);
	struct ncsync_submit_error rec;
	struct ncsync_stream *s;
	uint32_t line = 0;

	if (!ncsync_program_error(prog, &rec)) {
		s = ncsync_program_find_stream(prog, rec.engine);
		line = s ? ncsync_stream_line(s, rec.index) : 0;
	}
	if (msg && line)
		fail_msg("%s: line %u: %s", path, line, msg);
	else if (msg)
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
 * The lowering of @prog, of @what (@path, or "@path: @core"), failed with
 * @ret: say why, at the line and column of the record it names as the
 * assembler's errors, when it names one (ncsync_program_lower_where()).
 */
static void report_lowering(const char *path, const char *core,
			    const char *what,
			    const struct ncsync_program *prog, int ret)
{
	const char *msg = ncsync_program_lower_error(prog);
	unsigned int line, col;

	if (msg && !ncsync_program_lower_where(prog, &line, &col))
		fail_msg("%s:%u:%u: %s%s%s", path, line, col, core,
			 core[0] ? ": " : "", msg);
	else if (msg)
		fail_msg("%s: lowering: %s", what, msg);
	else
		fail_err(ret, "%s: lowering the barriers", what);
}

/*
 * Lower @prog, of @path (@core: "core N", or ""), for the
 * reserved slices and the logical core of bo->info (NULL: the defaults,
 * lnc 1); frees it and prints the error when it fails.  0 or EXIT_FAIL.
 */
static int lower_text(const char *path, const char *core,
		      struct ncsync_program *prog, const struct build_opts *bo)
{
	const struct ncsync_info *in = bo->info;
	char what[PATH_MAX + 16];
	int ret = 0;

	snprintf(what, sizeof(what), "%s%s%s", path, core[0] ? ": " : "",
		 core);

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
	report_lowering(path, core, what, prog, ret);
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
	char what[PATH_MAX + 16], core[16];
	unsigned int i, j;
	int ret = 0;

	for (i = 0; !pbo.info && !bo->lnc && i < n; i++)
		if (parts[i].core >= pbo.lnc)
			pbo.lnc = parts[i].core + 1;
	/* Every position first: a record's peer is checked against it. */
	for (i = 0; !pbo.info && i < n; i++)
		if (parts[i].core >= pbo.lnc) {
			ret = fail_msg("%s: core %u: outside a logical core of %u core%s",
				       path, parts[i].core, pbo.lnc,
				       pbo.lnc == 1 ? "" : "s");
			for (j = 0; j < n; j++)
				ncsync_program_free(parts[j].prog);
			return ret;
		}
	for (i = 0; i < n && !ret; i++) {
		snprintf(core, sizeof(core), "core %u", parts[i].core);
		snprintf(what, sizeof(what), "%s: %s", path, core);
		ret = lower_text(path, core, parts[i].prog, &pbo) ?:
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
		ret = lower_text(path, "", parts[0].prog, bo) ?:
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
	return lower_text(path, "", *progp, bo);
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
