/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The names of ncsync, one table per kind (ncsync_names.c): the text form's
 * mnemonics and operators, engines, program and engine states, fault
 * reasons and wait kinds.
 */
#ifndef _NCSYNC_NAMES_H
#define _NCSYNC_NAMES_H

#include "ncsync_model.h"

/**
 * struct ncsync_text - one name.
 * @val: the value it stands for (an opcode, a mode, a state...).
 * @arg: a per-table attribute (the operand shape of an ALU operation).
 * @name: its spelling.
 */
struct ncsync_text {
	__u8 val;
	__u8 arg;
	const char *name;
};

#define NCSYNC_TEXT_END { 0, 0, NULL }

/* Operand shapes of the Mov32 ALU operations (struct ncsync_text.arg). */
enum ncsync_text_alu_shape {
	NCSYNC_ALU_SHAPE_IMM,		/* rD, imm */
	NCSYNC_ALU_SHAPE_REG,		/* rD, rS */
	NCSYNC_ALU_SHAPE_REG_IMM,	/* rD, rS, imm */
};

extern const struct ncsync_text ncsync_text_opcodes[];
extern const struct ncsync_text ncsync_text_alu[];
extern const struct ncsync_text ncsync_text_br_comp[];
extern const struct ncsync_text ncsync_text_dtype[];
extern const struct ncsync_text ncsync_text_poll[];
extern const struct ncsync_text ncsync_text_wait_sem[];
extern const struct ncsync_text ncsync_text_wait_ev[];
extern const struct ncsync_text ncsync_text_upd_sem[];
extern const struct ncsync_text ncsync_text_upd_ev[];
extern const struct ncsync_text ncsync_text_engines[];
extern const struct ncsync_text ncsync_text_engine_titles[];
extern const struct ncsync_text ncsync_text_prog_states[];
extern const struct ncsync_text ncsync_text_eng_states[];
extern const struct ncsync_text ncsync_text_faults[];
extern const struct ncsync_text ncsync_text_blocks[];

const struct ncsync_text *ncsync_text_entry(const struct ncsync_text *t,
					    unsigned int val);
const char *ncsync_text_name(const struct ncsync_text *t, unsigned int val);
const char *ncsync_engine_title(__u8 id);
const struct ncsync_text *ncsync_text_find(const struct ncsync_text *t,
					   const char *s, size_t len);

#endif /* _NCSYNC_NAMES_H */
