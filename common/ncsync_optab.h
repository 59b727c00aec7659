/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The opcode table: every opcode declared once, in ncsync_opcodes.h, with
 * what each consumer needs of it (Documentation/ncsync/records.rst, "The
 * opcode table").  The decoder, the encoder, the validator's conformance
 * profile, the names of the text form, the engines' and the checker's
 * effect (ncsync_effect.h), the checker's footprint and the deadlock
 * analysis read it; none of them lists opcodes of its own.  Freestanding C.
 */
#ifndef _NCSYNC_OPTAB_H
#define _NCSYNC_OPTAB_H

#include "ncsync_record.h"

/*
 * What the op's own effect does (struct ncsync_opdesc.flags); the lanes'
 * waits and updates are the same for every opcode and are not flags.
 * NCSYNC_OPF_DMA: it issues a copy, blocks while the ring is full, and its
 * lane 0's update lands with the copy.  NCSYNC_OPF_DRAIN: it blocks while
 * the engine's copies are in flight.
 */
#define NCSYNC_OPF_PSEUDO	0x01	/* engines never run it: lowered */
#define NCSYNC_OPF_EFFECT	0x02	/* it has an effect of its own */
#define NCSYNC_OPF_FLOW		0x04	/* it may jump (Branch) */
#define NCSYNC_OPF_ENDS		0x08	/* it ends the queue (Halt, Exit) */
#define NCSYNC_OPF_DMA		0x10	/* it issues a copy */
#define NCSYNC_OPF_DRAIN	0x20	/* it waits for its copies */
#define NCSYNC_OPF_SEM_READ	0x40	/* it reads semaphores (footprint) */
#define NCSYNC_OPF_SEM_WRITE	0x80	/* it writes semaphores (footprint) */
/*
 * The seeds name the opcode and its layout but not its effect: the decoder
 * refuses it with NCSYNC_REC_UNMODELLED_OP.  No mnemonic, effect or
 * lowering (Documentation/ncsync/records.rst, "Ordering (0xB1)").
 */
#define NCSYNC_OPF_UNMODELLED	0x100

/*
 * The shape of the op's text form (struct ncsync_opdesc.form): what
 * follows its mnemonic in the assembler (lib/src/asm*.c) and what the
 * disassembler (lib/src/disasm.c) prints of it.  Each consumer has one
 * case per form and none per opcode (Documentation/ncsync/records.rst,
 * "The opcode table").
 */
enum ncsync_op_form {
	NCSYNC_FORM_SYNC,		/* the sync clauses of its lanes only */
	NCSYNC_FORM_DRAIN,		/* as SYNC; the count is always 1 */
	NCSYNC_FORM_ALU,		/* spelt by its ALU operation */
	NCSYNC_FORM_BRANCH,		/* br[.cmp.type r, x,] target */
	NCSYNC_FORM_BR_HINT,		/* br_hint target: relative */
	NCSYNC_FORM_SEMA_CLEAR,		/* a range or a mask of semaphores */
	NCSYNC_FORM_POLL,		/* op r, sem[a]..sem[b] */
	NCSYNC_FORM_DMA,		/* src, dst, len [, options] */
	NCSYNC_FORM_BARRIER,		/* a pseudo-op of every engine at once */
	NCSYNC_FORM_PSEUDO,		/* a pseudo-op: lane 0's clauses only */
	NCSYNC_FORM_CALL,		/* a pseudo-op: NAME [, args=N] */
	NCSYNC_FORM_CORE_BARRIER,	/* a pseudo-op: sem[S] [, id=N] */
	NCSYNC_FORM_COUNT,
};

/*
 * The op's own effect (struct ncsync_opdesc.effect): the case of
 * ncsync_exec_op() (ncsync_effect.h), whose switch the rows generate, and
 * of every other translation of the effects (the Promela model,
 * lib/src/promela.c; the checker's register steps, lib/src/check_accel.c).
 * NONE: the lanes' waits and updates only.  A pseudo-op's is NONE: engines
 * never run it.
 */
enum ncsync_op_effect {
	NCSYNC_EFF_NONE,
	NCSYNC_EFF_HALT,
	NCSYNC_EFF_EXIT,
	NCSYNC_EFF_DRAIN,
	NCSYNC_EFF_MOV,
	NCSYNC_EFF_BRANCH,
	NCSYNC_EFF_GROUP_RESET,
	NCSYNC_EFF_POLL,
	NCSYNC_EFF_DMA,
	NCSYNC_EFF_COUNT,
};

/*
 * How the library lowers a pseudo-op (struct ncsync_opdesc.lower;
 * Documentation/ncsync/records.rst, "Pseudo-ops"): NONE for an opcode the
 * engines run.  ALL_ENGINES: a rendezvous of every engine of the program
 * (lib/src/lower.c); CORES: of every core (lib/src/core_barrier.c); CALL,
 * RETURN: a call into and a return from a function of the stream
 * (lib/src/lower_call.c); NOOP: a NoOp that carries its events block.
 */
enum ncsync_op_lower {
	NCSYNC_LOWER_NONE,
	NCSYNC_LOWER_ALL_ENGINES,
	NCSYNC_LOWER_CORES,
	NCSYNC_LOWER_CALL,
	NCSYNC_LOWER_RETURN,
	NCSYNC_LOWER_NOOP,
};

/**
 * struct ncsync_footprint - what the op's own effect reads and writes
 *	besides the engine's control flow and the DMA ring (those are
 *	flags): the lanes' waits and updates are not part of it.
 * @sem_read: the semaphores it reads, one bit each.
 * @sem_write: the semaphores it writes.
 * @reg_read: the registers it reads, bit r for register r.
 * @reg_write: the registers it writes.
 */
struct ncsync_footprint {
	__u32 sem_read[NCSYNC_NUM_SEMS / 32];
	__u32 sem_write[NCSYNC_NUM_SEMS / 32];
	__u32 reg_read;
	__u32 reg_write;
};

/* Byte ranges of a record a layout names, as [first, last]; { 0, 0 } ends. */
struct ncsync_span {
	__u8 first;
	__u8 last;
};

/* The hooks of a row (struct ncsync_opdesc). */
typedef enum ncsync_rec_reason ncsync_decode_fn(const __u8 *rec,
						__u32 nrecords,
						__u64 devmem_size,
						struct ncsync_insn *insn);
typedef void ncsync_encode_fn(const struct ncsync_insn *insn, __u8 *rec);
typedef enum ncsync_rec_reason ncsync_conform_fn(struct ncsync_conform *c,
						 const struct ncsync_insn *insn);
typedef void ncsync_footprint_fn(const struct ncsync_insn *in,
				 struct ncsync_footprint *fp);

/**
 * struct ncsync_opdesc - one opcode.
 * @opcode: NCSYNC_OPC_*.
 * @mnemonic: its mnemonic in the text form (Documentation/ncsync/asm.rst),
 *	or NULL when it has none of its own (Mov32 is spelt by its ALU
 *	operation).
 * @title: its name in the specification.
 * @nlanes: its wait/update lanes: 2 for EventSemaphore, else 1.
 * @flags: NCSYNC_OPF_*.
 * @form: the shape of its text form, enum ncsync_op_form.
 * @effect: its own effect, enum ncsync_op_effect.
 * @lower: how the library lowers it, enum ncsync_op_lower; NONE unless
 *	NCSYNC_OPF_PSEUDO.
 * @layout: the bytes it names beyond the header (0x00-0x03) and the events
 *	block (0x04-0x0B); every other byte must be zero.  NULL for a
 *	pseudo-op, which the decoder refuses (common/ncsync_pseudo.h).
 * @decode: decodes and checks its own fields once the lanes are decoded;
 *	NULL when it has none.
 * @encode: writes its own fields; NULL when it has none.
 * @conform: its rule of the conformance profile; NULL when it has none.
 * @footprint: adds what its effect reads and writes; NULL when nothing.
 */
struct ncsync_opdesc {
	__u8 opcode;
	const char *mnemonic;
	const char *title;
	__u8 nlanes;
	__u16 flags;
	__u8 form;
	__u8 effect;
	__u8 lower;
	const struct ncsync_span *layout;
	ncsync_decode_fn *decode;
	ncsync_encode_fn *encode;
	ncsync_conform_fn *conform;
	ncsync_footprint_fn *footprint;
};

/* The index of each row in ncsync_optab[] (common/ncsync_opcodes.h). */
enum ncsync_op_index {
#define NCSYNC_OP(opc, ...) NCSYNC_OPI_##opc,
#include "ncsync_opcodes.h"
#undef NCSYNC_OP
	NCSYNC_OPI_COUNT
};

/* The rows, in the order of common/ncsync_opcodes.h, and their number. */
extern const struct ncsync_opdesc ncsync_optab[];
extern const unsigned int ncsync_optab_size;

const struct ncsync_opdesc *ncsync_op(__u8 opcode);
bool ncsync_op_has(__u8 opcode, unsigned int flags);
void ncsync_op_footprint(const struct ncsync_insn *in,
			 struct ncsync_footprint *fp);

/**
 * ncsync_footprint_sem() - whether a footprint's mask has a semaphore.
 * @mask: ncsync_footprint.sem_read or .sem_write.
 * @index: the semaphore.
 *
 * Return: true if it has.
 */
static inline bool ncsync_footprint_sem(const __u32 *mask, unsigned int index)
{
	return mask[index / 32] & (1U << (index % 32));
}

/* What every opcode shares (ncsync_record.c, ncsync_encode.c). */
bool ncsync_reserved_clear(const __u8 *rec, const struct ncsync_span *named);
enum ncsync_rec_reason ncsync_lanes_decode(const __u8 *rec, __u8 nlanes,
					   struct ncsync_insn *insn);
void ncsync_lanes_encode(const struct ncsync_insn *insn, __u8 nlanes,
			 __u8 *rec);

/* The hooks the rows name (ncsync_record.c, ncsync_encode.c, ncsync_optab.c). */
extern const struct ncsync_span ncsync_layout_none[], ncsync_layout_evsem[],
	ncsync_layout_drain[], ncsync_layout_mov[], ncsync_layout_br[],
	ncsync_layout_hint[], ncsync_layout_gr[], ncsync_layout_poll[], ncsync_layout_exit[],
	ncsync_layout_dma[];
ncsync_decode_fn ncsync_decode_drain, ncsync_decode_mov, ncsync_decode_br,
	ncsync_decode_hint, ncsync_decode_gr, ncsync_decode_poll, ncsync_decode_exit,
	ncsync_decode_dma;
ncsync_encode_fn ncsync_encode_drain, ncsync_encode_mov, ncsync_encode_br,
	ncsync_encode_hint, ncsync_encode_gr, ncsync_encode_poll, ncsync_encode_dma;
ncsync_conform_fn ncsync_conform_evsem, ncsync_conform_gr;
ncsync_footprint_fn ncsync_footprint_mov, ncsync_footprint_br,
	ncsync_footprint_gr, ncsync_footprint_poll;

#endif /* _NCSYNC_OPTAB_H */
