// SPDX-License-Identifier: GPL-2.0
/*
 * ncsync(1): ncsync asm FILE [-o OUT] [--lowering counter|events]: the
 * program of FILE, assembled, lowered and checked, as text, JSON or an
 * image.
 */
#include <stdlib.h>

#include "build.h"
#include "cmds.h"
#include "print.h"

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

int cmd_asm(const struct cmd *c, int argc, char **argv)
{
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
