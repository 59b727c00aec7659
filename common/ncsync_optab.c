// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The opcode table (Documentation/ncsync/records.rst, "The opcode table"):
 * the rows of NCSYNC_OPCODES(), their lookup, and the footprints of the
 * ops' own effects.  See ncsync_optab.h.
 */
#include "ncsync_optab.h"

#define NCSYNC_OP_ROW(opc, has_mn, mn, ti, nl, fl, lay, dec, enc, conf, fp) \
	{								\
		.opcode = NCSYNC_OPC_##opc, .mnemonic = mn, .title = ti, \
		.nlanes = nl, .flags = fl, .layout = lay, .decode = dec, \
		.encode = enc, .conform = conf, .footprint = fp,	\
	},

const struct ncsync_opdesc ncsync_optab[NCSYNC_OPI_COUNT] = {
	NCSYNC_OPCODES(NCSYNC_OP_ROW)
};

const unsigned int ncsync_optab_size = NCSYNC_OPI_COUNT;

#define NCSYNC_OP_CASE(opc, ...) \
	case NCSYNC_OPC_##opc: return &ncsync_optab[NCSYNC_OPI_##opc];

/**
 * ncsync_op() - the row of an opcode.
 * @opcode: a record's byte 0.
 *
 * One switch, which the rows expand to: a jump table, not a search.
 *
 * Return: its row, or NULL for a value no opcode has.
 */
const struct ncsync_opdesc *ncsync_op(__u8 opcode)
{
	switch (opcode) {
	NCSYNC_OPCODES(NCSYNC_OP_CASE)
	default:
		return NULL;
	}
}

/**
 * ncsync_op_has() - whether an opcode's row has flags.
 * @opcode: the opcode.
 * @flags: NCSYNC_OPF_*.
 *
 * Return: true if the opcode is in the table with any of @flags.
 */
bool ncsync_op_has(__u8 opcode, unsigned int flags)
{
	const struct ncsync_opdesc *d = ncsync_op(opcode);

	return d && (d->flags & flags);
}

/**
 * ncsync_op_footprint() - what the op of a decoded record reads and writes.
 * @in: a record ncsync_record_decode() accepted.
 * @fp: out: the semaphores and registers its own effect
 *	(ncsync_exec_op()) reads and writes.  The lanes' waits and updates,
 *	which every opcode has, are not in it.
 *
 * A superset: a register or semaphore outside it is neither read nor
 * written by the effect, in any state (common/test checks this against
 * ncsync_exec_op() on random states).
 */
void ncsync_op_footprint(const struct ncsync_insn *in,
			 struct ncsync_footprint *fp)
{
	const struct ncsync_opdesc *d = ncsync_op(in->opcode);
	unsigned int i;

	for (i = 0; i < NCSYNC_NUM_SEMS / 32; i++) {
		fp->sem_read[i] = 0;
		fp->sem_write[i] = 0;
	}
	fp->reg_read = 0;
	fp->reg_write = 0;
	if (d && d->footprint)
		d->footprint(in, fp);
}

/* Mov32 reads its source and its destination, writes its destination. */
void ncsync_footprint_mov(const struct ncsync_insn *in,
			  struct ncsync_footprint *fp)
{
	fp->reg_read |= 1U << in->mov.dst | 1U << in->mov.src;
	fp->reg_write |= 1U << in->mov.dst;
}

/* Branch reads its registers unless it always jumps. */
void ncsync_footprint_br(const struct ncsync_insn *in,
			 struct ncsync_footprint *fp)
{
	if (in->br.comp == NCSYNC_BR_ALWAYS)
		return;
	fp->reg_read |= 1U << in->br.lhs;
	if (in->br.comp & NCSYNC_BR_REG)
		fp->reg_read |= 1U << in->br.rhs;
}

/* GroupResetSemaphores writes the semaphores of its mask. */
void ncsync_footprint_gr(const struct ncsync_insn *in,
			 struct ncsync_footprint *fp)
{
	unsigned int i;

	for (i = 0; i < NCSYNC_NUM_SEMS / 32; i++)
		fp->sem_write[i] |= in->gr.mask[i];
}

/* PollSem reads its range of semaphores and writes its register. */
void ncsync_footprint_poll(const struct ncsync_insn *in,
			   struct ncsync_footprint *fp)
{
	unsigned int i;

	for (i = in->poll.first; i < in->poll.first + in->poll.count; i++)
		fp->sem_read[i / 32] |= 1U << (i % 32);
	fp->reg_write |= 1U << in->poll.dst;
}
