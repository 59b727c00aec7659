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
	__u8 flags;
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
	ncsync_layout_gr[], ncsync_layout_poll[], ncsync_layout_exit[],
	ncsync_layout_dma[];
ncsync_decode_fn ncsync_decode_drain, ncsync_decode_mov, ncsync_decode_br,
	ncsync_decode_gr, ncsync_decode_poll, ncsync_decode_exit,
	ncsync_decode_dma;
ncsync_encode_fn ncsync_encode_drain, ncsync_encode_mov, ncsync_encode_br,
	ncsync_encode_gr, ncsync_encode_poll, ncsync_encode_dma;
ncsync_conform_fn ncsync_conform_evsem, ncsync_conform_gr;
ncsync_footprint_fn ncsync_footprint_mov, ncsync_footprint_br,
	ncsync_footprint_gr, ncsync_footprint_poll;

#endif /* _NCSYNC_OPTAB_H */
