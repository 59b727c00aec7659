/* SPDX-License-Identifier: GPL-2.0 */
/* ncsync(1): programs: their images (image.c) and their building (build.c). */
#ifndef NCSYNC_BUILD_H
#define NCSYNC_BUILD_H

#include "opts.h"

/*
 * image.c: a program image, the binary form "ncsync asm -o" writes (the
 * layout is described there).
 */
bool is_image(const char *buf, size_t len);
/* The program of image @buf of @path; prints the error.  0 or EXIT_FAIL. */
int image_load(const char *path, const uint8_t *buf, size_t len,
	       struct ncsync_program **progp);
/* Write the image of @prog to @path ("-": stdout); 0 or EXIT_FAIL. */
int image_write(const char *path, struct ncsync_program *prog);

/* build.c: building programs, shared by asm, run, check and replay. */
struct build_opts {
	bool lowering_given;
	enum ncsync_barrier_lowering lowering;
	const struct ncsync_info *info;	/* reserved slices; NULL: defaults */
	/*
	 * Without @info, the logical core's size: 0 for the text's (its
	 * highest core position + 1; 1 for a text without 'core').
	 */
	unsigned int lnc;
};

/*
 * Build and finalize the program of @path, read into @buf (text or image);
 * prints the error.  0 or EXIT_FAIL.
 */
int build_program(const char *path, const char *buf, size_t len,
		  const struct build_opts *bo, struct ncsync_program **progp);
/*
 * build_program() for a text that may name cores: its parts, by position,
 * in @parts (room for NCSYNC_MAX_LNC), and *@nparts their number; 0 for a
 * program of one core (a text without 'core', an image), in parts[0].
 */
int build_parts(const char *path, const char *buf, size_t len,
		const struct build_opts *bo, struct ncsync_asm_part *parts,
		unsigned int *nparts);
bool parse_lowering(const char *s, void *field);
#define OPT_LOWERING(type, member) \
	{ "lowering", 'l', OPT_PARSE, "counter, events", \
	  OPT_FIELD(type, member), .parse = parse_lowering }

#endif /* NCSYNC_BUILD_H */
