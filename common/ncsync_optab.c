// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The opcode table (Documentation/ncsync/records.rst, "The opcode table"):
 * the rows of ncsync_opcodes.h, their lookup, the footprints of the ops'
 * own effects, and the entry points that dispatch through the rows: the
 * decoder, the encoder and the conformance profile, whose per-opcode
 * hooks are in ncsync_record.c and ncsync_encode.c.  Those files never
 * call back into this one, so common/ has no cycle.  See ncsync_optab.h.
 */
#include "ncsync_optab.h"

const struct ncsync_opdesc ncsync_optab[NCSYNC_OPI_COUNT] = {
#define NCSYNC_OP(opc, has_mn, mn, ti, nl, fl, fo, ef, lo, lay, dec, enc, \
		  conf, fp)						\
	{								\
		.opcode = NCSYNC_OPC_##opc, .mnemonic = mn, .title = ti, \
		.nlanes = nl, .flags = fl, .form = NCSYNC_FORM_##fo,	\
		.effect = NCSYNC_EFF_##ef, .lower = NCSYNC_LOWER_##lo,	\
		.layout = lay, .decode = dec, .encode = enc,		\
		.conform = conf, .footprint = fp,			\
	},
#include "ncsync_opcodes.h"
#undef NCSYNC_OP
};

const unsigned int ncsync_optab_size = NCSYNC_OPI_COUNT;

/* Per opcode value, its row's index + 1, or 0: ncsync_op() in one load. */
static const __u8 ncsync_op_slot[256] = {
#define NCSYNC_OP(opc, ...) \
	[NCSYNC_OPC_##opc] = NCSYNC_OPI_##opc + 1,
#include "ncsync_opcodes.h"
#undef NCSYNC_OP
};

/**
 * ncsync_op() - the row of an opcode.
 * @opcode: a record's byte 0.
 *
 * One load from a table the rows fill in, not a search.
 *
 * Return: its row, or NULL for a value no opcode has.
 */
const struct ncsync_opdesc *ncsync_op(__u8 opcode)
{
	unsigned int i = ncsync_op_slot[opcode];

	return i ? &ncsync_optab[i - 1] : NULL;
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

/*
 * PollSem reads its range of semaphores and writes its register; with the
 * write-back it may write the range too.
 */
void ncsync_footprint_poll(const struct ncsync_insn *in,
			   struct ncsync_footprint *fp)
{
	unsigned int i;

	for (i = in->poll.first; i < in->poll.first + in->poll.count; i++) {
		fp->sem_read[i / 32] |= 1U << (i % 32);
		if (in->poll.writeback)
			fp->sem_write[i / 32] |= 1U << (i % 32);
	}
	fp->reg_write |= 1U << in->poll.dst;
}

/**
 * ncsync_record_decode() - validate and decode one record.
 * @rec: the NCSYNC_RECORD_SIZE bytes.
 * @nrecords: the length of its queue, which bounds branch targets.
 * @devmem_size: the device memory size, which bounds DMA ranges.
 * @insn: out: the decoded record, valid when NCSYNC_REC_OK is returned.
 *
 * Every byte is checked: the header, the reserved bytes, every field.
 *
 * Return: NCSYNC_REC_OK or the reason the record is refused.
 */
enum ncsync_rec_reason ncsync_record_decode(const __u8 *rec, __u32 nrecords,
					    __u64 devmem_size,
					    struct ncsync_insn *insn)
{
	const struct ncsync_opdesc *d;
	enum ncsync_rec_reason r;
	unsigned int i;

	for (i = 0; i < sizeof(*insn); i++)
		((__u8 *)insn)[i] = 0;
	insn->opcode = rec[0];
	d = ncsync_op(insn->opcode);
	if (d && (d->flags & NCSYNC_OPF_UNMODELLED))
		return NCSYNC_REC_UNMODELLED_OP;
	if (!d || !d->layout) {
		if (insn->opcode >= NCSYNC_OPC_PSEUDO_FIRST &&
		    insn->opcode <= NCSYNC_OPC_PSEUDO_LAST)
			return NCSYNC_REC_PSEUDO_OP;
		return NCSYNC_REC_BAD_OPCODE;
	}
	if (rec[1] != NCSYNC_RECORD_WORDLEN)
		return NCSYNC_REC_BAD_WORDLEN;
	if (rec[2] || rec[3])
		return NCSYNC_REC_HEADER_RESERVED;
	if (!ncsync_reserved_clear(rec, d->layout))
		return NCSYNC_REC_RESERVED_BYTE;

	insn->effect = d->effect;
	r = ncsync_lanes_decode(rec, d->nlanes, insn);
	if (r)
		return r;
	return d->decode ? d->decode(rec, nrecords, devmem_size, insn) :
			   NCSYNC_REC_OK;
}

/**
 * ncsync_insn_target() - the record a decoded record names as a target.
 * @insn: a record ncsync_record_decode() accepted.
 * @index: its index in its queue.
 * @target: out: the index of its target (a Branch's, or a BranchHint's,
 *	whose record holds it relative to @index); may be outside the queue
 *	for a hint, which ncsync_record_check_at() then refuses.
 *
 * Switches on the row's form: the text form prints a target as a label
 * for exactly these.
 *
 * Return: true if the record names a target.
 */
bool ncsync_insn_target(const struct ncsync_insn *insn, __u32 index,
			__u32 *target)
{
	const struct ncsync_opdesc *d = ncsync_op(insn->opcode);

	switch (d ? d->form : NCSYNC_FORM_COUNT) {
	case NCSYNC_FORM_BRANCH:
		*target = insn->br.target;
		return true;
	case NCSYNC_FORM_BR_HINT:
		*target = index + (__u32)insn->hint.offset;
		return true;
	default:
		return false;
	}
}

/**
 * ncsync_record_check_at() - check a decoded record at its place.
 * @insn: a record ncsync_record_decode() accepted in a queue of
 *	@nrecords records.
 * @index: its index in the queue.
 * @nrecords: the queue's length.
 *
 * The decoder sees a record alone: a target relative to the record (a
 * BranchHint's) is checked here, where its index is known, as the kernel
 * does at submission and ncsync_program_finalize() before it.
 *
 * Return: NCSYNC_REC_OK, or NCSYNC_REC_BAD_TARGET when the target is
 * outside the queue.
 */
enum ncsync_rec_reason ncsync_record_check_at(const struct ncsync_insn *insn,
					      __u32 index, __u32 nrecords)
{
	__s64 t;

	if (ncsync_op(insn->opcode)->form != NCSYNC_FORM_BR_HINT)
		return NCSYNC_REC_OK;
	t = (__s64)index + insn->hint.offset;
	return t < 0 || t >= nrecords ? NCSYNC_REC_BAD_TARGET : NCSYNC_REC_OK;
}

/* The inverse of ncsync_record_decode(): see ncsync_record.h. */
void ncsync_record_encode(const struct ncsync_insn *insn,
			  __u8 rec[NCSYNC_RECORD_SIZE])
{
	const struct ncsync_opdesc *d = ncsync_op(insn->opcode);
	unsigned int i;

	for (i = 0; i < NCSYNC_RECORD_SIZE; i++)
		rec[i] = 0;
	rec[0] = insn->opcode;
	rec[1] = NCSYNC_RECORD_WORDLEN;
	ncsync_lanes_encode(insn, d ? d->nlanes : 1, rec);
	/* Halt, NoOp, Exit (its flags are zero), pseudo-ops: nothing more. */
	if (d && d->encode)
		d->encode(insn, rec);
}

/**
 * ncsync_record_conform() - check a record against the conformance profile.
 * @c: the state of the submission (its GroupResetSemaphores groups).
 * @insn: the record, accepted by ncsync_record_decode().
 *
 * Return: NCSYNC_REC_OK, or the NCSYNC_REC_CONF_* reason it is refused
 * for.
 */
enum ncsync_rec_reason ncsync_record_conform(struct ncsync_conform *c,
					     const struct ncsync_insn *insn)
{
	const struct ncsync_opdesc *d = ncsync_op(insn->opcode);

	return d && d->conform ? d->conform(c, insn) : NCSYNC_REC_OK;
}

/**
 * ncsync_barrier_record_conform() - check a raw AllEngineBarrier (0xD5).
 * @rec: the NCSYNC_RECORD_SIZE bytes, byte 0 0xD5.
 *
 * BARRIER 1, 8: the header (0x10, two zero bytes), a valid events block
 * (checked as on a NoOp) and reserved0[52] zero.  The kernel never sees a
 * 0xD5 (it refuses pseudo-ops); the library checks it before lowering.
 *
 * Return: NCSYNC_REC_OK or NCSYNC_REC_CONF_PSEUDO.
 */
enum ncsync_rec_reason ncsync_barrier_record_conform(const __u8 *rec)
{
	struct ncsync_insn insn;
	__u8 nop[NCSYNC_RECORD_SIZE];
	unsigned int i;

	for (i = 0; i < NCSYNC_RECORD_SIZE; i++)
		nop[i] = i < 0x0C ? rec[i] : 0;
	nop[0] = NCSYNC_OPC_NOOP;
	for (i = 0x0C; i < NCSYNC_RECORD_SIZE; i++)
		if (rec[i])
			return NCSYNC_REC_CONF_PSEUDO;
	if (rec[0] != NCSYNC_OPC_ALL_ENGINE_BARRIER ||
	    ncsync_record_decode(nop, 1, 0, &insn))
		return NCSYNC_REC_CONF_PSEUDO;
	return NCSYNC_REC_OK;
}
