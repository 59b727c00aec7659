/* SPDX-License-Identifier: LGPL-2.1-or-later OR MIT */
/*
 * libncsync: the text form (Documentation/ncsync/asm.rst).
 *
 * Its names are common/ncsync_names.c's tables, used by both directions:
 * the disassembler (disasm.c) prints through ncsync_text_name(), the
 * assembler (asm.c) parses through ncsync_text_find().  Here are the rest
 * of its spellings.  Private to the library.
 */
#ifndef NCSYNC_TEXT_H
#define NCSYNC_TEXT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <linux/ncsync.h>
#include "ncsync_names.h"

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#endif

/* The suffix of an update's _READ form: then sem[3]++ .read */
#define NCSYNC_TEXT_READ	".read"

/* Branch target as a raw record index in ncsync_disasm(): br @5 */
#define NCSYNC_TEXT_INDEX	'@'

/* Label ncsync_disasm_program() prints for a branch target: L<index> */
#define NCSYNC_TEXT_LABEL	"L"

/* Mask forms of sema_clear with up to this many runs print as a list. */
#define NCSYNC_TEXT_MASK_RUNS	8

#endif /* NCSYNC_TEXT_H */
