/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ncsync(1): the command-line tool.  What every part of it uses: the exit
 * statuses, an entry of the command table, and util.c (messages, numbers,
 * files, time).
 *
 * The parts call each other as a tree, lower files never calling up
 * (Documentation/ncsync/tool.rst, "Sources"), from the bottom:
 *	util.c		messages, numbers, files, time
 *	opts.c		the options of every command, "# options:" lines
 *	print.c		the JSON writer; what several commands print
 *	device.c	opening cores, logical cores, reading banks
 *	nl.c		the generic netlink family
 *	image.c		program images
 *	build.c		assembling and lowering programs
 *	timeline_dma.c	run --timeline: DMA lanes, cross-core arrows
 *	timeline.c	run --timeline: the trace, the engines' lanes
 *	check_print.c	the checker's report and schedule words
 *	checking.c	one check: its options, program and verdict
 *	cores.c		run of a program across cores
 *	run_report.c	the report of a run
 *	cmd_*.c		the commands, a file each (sem and event, load and
 *			unload share theirs)
 *	main.c		the command table, help and dispatch
 */
#ifndef NCSYNC_TOOL_H
#define NCSYNC_TOOL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <ncsync.h>

#define EXIT_OK		0
#define EXIT_FAIL	1
#define EXIT_USAGE	2

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* Engine ids go from 0 to MAX_ENGINE_ID - 1. */
#define MAX_ENGINE_ID	8

/**
 * struct cmd - a command, an entry of the table of main.c.
 * @name: its word on the command line.
 * @args: its operands and options, for its usage line.
 * @help: what it does, for "ncsync --help" and "ncsync COMMAND --help".
 * @fn: runs it, given its entry and the arguments from its name on
 *	(argv[0]); returns the exit status: 0 success, 1 the operation
 *	failed, 2 usage error (check also 3: inconclusive).
 */
struct cmd {
	const char *name;
	const char *args;
	const char *help;
	int (*fn)(const struct cmd *c, int argc, char **argv);
};

/* util.c: messages, "ncsync: WHAT: strerror(-err)"; return EXIT_FAIL. */
int fail_err(int err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
int fail_msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Numbers; false when @s is not one, or out of range. */
bool parse_u32(const char *s, uint32_t max, uint32_t *out);
bool parse_s32(const char *s, int32_t *out);

/* Monotonic time in nanoseconds. */
int64_t now_ns(void);

/* Read a whole file ("-": stdin), NUL-terminated; *len excludes the NUL. */
int read_file(const char *path, char **buf, size_t *len);

#endif /* NCSYNC_TOOL_H */
