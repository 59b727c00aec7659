// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * libncsync: the disassembler, one 64-byte record to one line of the text
 * form (Documentation/ncsync/asm.rst).
 *
 * Every record is decoded by ncsync_record_decode(), the validator the
 * driver runs at submission, and printed from its struct ncsync_insn.  A
 * record it refuses prints as a .raw directive holding its 64 bytes, with
 * the reason as a comment, so that every record has a line that assembles
 * back to the same bytes.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ncsync.h"
#include "ncsync_pseudo.h"
#include "ncsync_optab.h"
#include "text.h"

/* An output line: @len counts every character, even those that missed. */
struct dis_buf {
	char *buf;
	size_t size;
	size_t len;
};

static void __attribute__((format(printf, 2, 3)))
dis_printf(struct dis_buf *b, const char *fmt, ...)
{
	size_t room = b->len < b->size ? b->size - b->len : 0;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(room ? b->buf + b->len : NULL, room, fmt, ap);
	va_end(ap);
	if (n > 0)
		b->len += n;
}

/* Small numbers in decimal, the others in hex. */
static void dis_u32(struct dis_buf *b, uint32_t v)
{
	if (v <= 0xFFFF)
		dis_printf(b, "%u", v);
	else
		dis_printf(b, "0x%x", v);
}

static bool wait_uses_value(uint8_t mode)
{
	return ncsync_wait_mode_is_sem(mode);
}

static bool upd_uses_value(uint8_t mode)
{
	const struct ncsync_text *e;

	if (!ncsync_upd_is_sem(mode))
		return false;
	e = ncsync_text_entry(ncsync_text_upd_sem, mode & 0x0F);
	return e && e->arg;
}

static void dis_wait(struct dis_buf *b, uint8_t mode, uint8_t idx,
		     uint32_t value)
{
	if (ncsync_wait_mode_is_event(mode)) {
		dis_printf(b, " wait ev[%u] %s", idx,
			   ncsync_text_name(ncsync_text_wait_ev, mode));
		return;
	}
	dis_printf(b, " wait sem[%u] %s ", idx,
		   ncsync_text_name(ncsync_text_wait_sem,
				    mode & ~NCSYNC_WAIT_REG));
	if (mode & NCSYNC_WAIT_REG)
		dis_printf(b, "r%u", value);
	else
		dis_printf(b, "%d", (int32_t)value);
}

static void dis_update(struct dis_buf *b, uint8_t mode, uint8_t idx,
		       uint32_t value, bool dma)
{
	const struct ncsync_text *e;

	dis_printf(b, " %s ", dma ? "on_land" : "then");
	if (ncsync_upd_is_event(mode)) {
		dis_printf(b, "ev[%u] %s", idx,
			   ncsync_text_name(ncsync_text_upd_ev, mode & 0x0F));
	} else {
		e = ncsync_text_entry(ncsync_text_upd_sem, mode & 0x0F);
		if (!e->arg)
			dis_printf(b, "sem[%u]%s", idx, e->name);
		else if (mode & NCSYNC_UPD_REG)
			dis_printf(b, "sem[%u] %s r%u", idx, e->name, value);
		else
			dis_printf(b, "sem[%u] %s %d", idx, e->name,
				   (int32_t)value);
	}
	if (!(mode & NCSYNC_UPD_COMPLETE))
		dis_printf(b, " %s", NCSYNC_TEXT_READ);
}

static void dis_value(struct dis_buf *b, uint32_t value)
{
	dis_printf(b, " value=");
	dis_u32(b, value);
}

/* Lane 1: ++ and -- hold 1 in their unused value field, as the runtime's. */
static uint32_t lane1_upd_default(const struct ncsync_lane *l)
{
	uint8_t base = l->upd_mode & 0x0F;

	return base == NCSYNC_UPD_SEM_INC || base == NCSYNC_UPD_SEM_DEC;
}

/*
 * One lane's wait and update.  Lane 0 has one value field for both: it is
 * printed as the operand of whichever uses it, or as value=N after the
 * first clause when neither does.  Lane 1 has a field for each; value=N
 * is printed when an unused one is not its default.
 */
static void dis_lane(struct dis_buf *b, const struct ncsync_lane *l,
		     bool shared, bool dma)
{
	bool wuse = wait_uses_value(l->wait_mode);
	bool uuse = upd_uses_value(l->upd_mode);

	if (l->wait_mode) {
		dis_wait(b, l->wait_mode, l->wait_idx, l->wait_value);
		if (!wuse && l->wait_value && (!shared || !uuse))
			dis_value(b, l->wait_value);
	}
	if (l->upd_mode) {
		dis_update(b, l->upd_mode, l->upd_idx, l->upd_value, dma);
		if (shared ? !uuse && l->upd_value && !l->wait_mode :
			     !uuse && l->upd_value != lane1_upd_default(l))
			dis_value(b, l->upd_value);
	}
}

static bool lane_empty(const struct ncsync_lane *l)
{
	return !l->wait_mode && !l->upd_mode;
}

static void dis_target(struct dis_buf *b, uint32_t target, bool labels)
{
	if (labels)
		dis_printf(b, NCSYNC_TEXT_LABEL "%u", target);
	else
		dis_printf(b, "%c%u", NCSYNC_TEXT_INDEX, target);
}

static void dis_branch(struct dis_buf *b, const struct ncsync_insn *in,
		       bool labels)
{
	uint8_t cmp = in->br.comp & ~NCSYNC_BR_REG;

	if (in->br.comp == NCSYNC_BR_ALWAYS) {
		dis_printf(b, "br ");
		dis_target(b, in->br.target, labels);
		return;
	}
	dis_printf(b, "br.%s.%s r%u, ",
		   ncsync_text_name(ncsync_text_br_comp, cmp),
		   ncsync_text_name(ncsync_text_dtype, in->br.dtype),
		   in->br.lhs);
	if (in->br.comp & NCSYNC_BR_REG)
		dis_printf(b, "r%u", in->br.rhs);
	else if (in->br.dtype == NCSYNC_DTYPE_S32)
		dis_printf(b, "%d", (int32_t)in->br.imm);
	else
		dis_u32(b, in->br.imm);
	dis_printf(b, ", ");
	dis_target(b, in->br.target, labels);
}

/*
 * A BranchHint: its target as a label when the record's @index is known
 * (@labels), else as its offset from itself, .+N or .-N.
 */
static void dis_br_hint(struct dis_buf *b, const struct ncsync_insn *in,
			uint32_t index, bool labels)
{
	int32_t off = in->hint.offset;

	dis_printf(b, "%s ", ncsync_op(in->opcode)->mnemonic);
	if (labels)
		dis_target(b, index + (uint32_t)off, true);
	else
		dis_printf(b, ".%c%u", off < 0 ? '-' : '+',
			   off < 0 ? -(uint32_t)off : (uint32_t)off);
}

static bool mask_bit(const uint32_t *mask, unsigned int i)
{
	return mask[i / 32] >> (i % 32) & 1;
}

static void dis_sema_clear(struct dis_buf *b, const struct ncsync_insn *in)
{
	unsigned int i, j, runs = 0;
	const char *sep = "";
	int w;

	if (in->gr.mode == NCSYNC_CLEAR_RANGE) {
		dis_printf(b, "sema_clear %u..%u", in->gr.first, in->gr.last);
		return;
	}
	for (i = 0; i < NCSYNC_NUM_SEMS; i++)
		if (mask_bit(in->gr.mask, i) &&
		    (!i || !mask_bit(in->gr.mask, i - 1)))
			runs++;
	if (runs > NCSYNC_TEXT_MASK_RUNS) {
		/* A 256-bit number, bit i for semaphore i. */
		for (w = 7; w > 0 && !in->gr.mask[w]; w--)
			;
		dis_printf(b, "sema_clear mask 0x%x", in->gr.mask[w]);
		while (--w >= 0)
			dis_printf(b, "%08x", in->gr.mask[w]);
		return;
	}
	dis_printf(b, "sema_clear mask {");
	for (i = 0; i < NCSYNC_NUM_SEMS; i = j) {
		if (!mask_bit(in->gr.mask, i)) {
			j = i + 1;
			continue;
		}
		for (j = i; j < NCSYNC_NUM_SEMS && mask_bit(in->gr.mask, j); j++)
			;
		if (j - 1 > i)
			dis_printf(b, "%s%u..%u", sep, i, j - 1);
		else
			dis_printf(b, "%s%u", sep, i);
		sep = ", ";
	}
	dis_printf(b, "}");
}

static void dis_raw(struct dis_buf *b, const uint8_t *rec,
		    enum ncsync_rec_reason reason)
{
	unsigned int i;

	dis_printf(b, ".raw");
	for (i = 0; i < NCSYNC_RECORD_SIZE; i++)
		dis_printf(b, "%s%02x", i % 4 ? "" : " ", rec[i]);
	dis_printf(b, "  # %s", ncsync_rec_reason_name(reason));
}

static void dis_insn(struct dis_buf *b, const struct ncsync_insn *in,
		     uint32_t index, bool labels)
{
	const struct ncsync_text *e;

	switch (ncsync_op(in->opcode)->form) {
	case NCSYNC_FORM_ALU:
		e = ncsync_text_entry(ncsync_text_alu, in->mov.alu);
		dis_printf(b, "%s r%u, ", e->name, in->mov.dst);
		if (e->arg == NCSYNC_ALU_SHAPE_REG) {
			dis_printf(b, "r%u", in->mov.src);
			break;
		}
		if (e->arg == NCSYNC_ALU_SHAPE_REG_IMM)
			dis_printf(b, "r%u, ", in->mov.src);
		dis_u32(b, in->mov.imm);
		break;
	case NCSYNC_FORM_BRANCH:
		dis_branch(b, in, labels);
		break;
	case NCSYNC_FORM_BR_HINT:
		dis_br_hint(b, in, index, labels);
		break;
	case NCSYNC_FORM_SEMA_CLEAR:
		dis_sema_clear(b, in);
		break;
	case NCSYNC_FORM_POLL:
		dis_printf(b, "%s %s r%u, sem[%u]",
			   ncsync_op(in->opcode)->mnemonic,
			   ncsync_text_name(ncsync_text_poll, in->poll.op),
			   in->poll.dst, in->poll.first);
		if (in->poll.count > 1)
			dis_printf(b, "..sem[%u]",
				   in->poll.first + in->poll.count - 1);
		if (in->poll.writeback)
			dis_printf(b, ", writeback");
		break;
	case NCSYNC_FORM_DMA:
		dis_printf(b, "%s 0x%llx, 0x%llx, %u",
			   ncsync_op(in->opcode)->mnemonic,
			   (unsigned long long)in->dma.src,
			   (unsigned long long)in->dma.dst, in->dma.len);
		if (in->dma.latency_us)
			dis_printf(b, ", latency=%u", in->dma.latency_us);
		if (in->dma.flags & NCSYNC_DMA_F_PEER)
			dis_printf(b, ", peer=%u", in->dma.peer);
		break;
	default:
		dis_printf(b, "%s", ncsync_text_name(ncsync_text_opcodes,
						     in->opcode));
		break;
	}

	dis_lane(b, &in->lane[0], true,
		 ncsync_op_has(in->opcode, NCSYNC_OPF_DMA));
	if (in->nlanes > 1 && !lane_empty(&in->lane[1])) {
		dis_printf(b, " lane1");
		dis_lane(b, &in->lane[1], false, false);
	}
}

/*
 * A pseudo-op lowered record by record (common/ncsync_pseudo.h): a DMA
 * barrier, TriggerCollective, Return, Call or CoreBarrier:
 * its mnemonic, a Call's name and args id, a CoreBarrier's semaphore and
 * id, and the sync clauses of its events block, decoded as on a NoOp.
 * False when the record is not one of them.
 */
static bool dis_pseudo(struct dis_buf *b, const uint8_t *rec)
{
	uint8_t nop[NCSYNC_RECORD_SIZE];
	struct ncsync_pseudo p;
	struct ncsync_insn in;
	uint8_t form;

	if (ncsync_pseudo_decode(rec, &p))
		return false;
	ncsync_pseudo_noop(rec, nop);
	if (ncsync_record_decode(nop, 1, 0, &in))
		return false;
	dis_printf(b, "%s", ncsync_text_name(ncsync_text_opcodes, p.opcode));
	form = ncsync_op(p.opcode)->form;
	if (form == NCSYNC_FORM_CALL) {
		dis_printf(b, " %s", p.name);
		if (p.args) {
			dis_printf(b, ", args=");
			dis_u32(b, p.args);
		}
	}
	if (form == NCSYNC_FORM_CORE_BARRIER) {
		dis_printf(b, " sem[%u]", p.sem);
		if (p.id) {
			dis_printf(b, ", id=");
			dis_u32(b, p.id);
		}
	}
	dis_lane(b, &in.lane[0], true, false);
	return true;
}

/*
 * One record, record @index of a queue of @nrecords, into @b.  @nrecords
 * bounds branch targets; @labels prints them as labels L<n>
 * (ncsync_disasm_program()) instead of @n, and means @index is known (a
 * hint's target is checked against the queue only then).
 */
static void dis_record(struct dis_buf *b, const uint8_t *rec, uint32_t index,
		       uint32_t nrecords, bool labels)
{
	struct ncsync_insn in;
	enum ncsync_rec_reason r;

	r = ncsync_record_decode(rec, nrecords, UINT64_MAX, &in);
	if (!r && labels)
		r = ncsync_record_check_at(&in, index, nrecords);
	if (r == NCSYNC_REC_PSEUDO_OP && dis_pseudo(b, rec))
		return;
	if (r)
		dis_raw(b, rec, r);
	else
		dis_insn(b, &in, index, labels);
}

/**
 * ncsync_disasm() - one record as one line of text.
 * @rec: the NCSYNC_RECORD_SIZE bytes.
 * @buf: receives the line, NUL-terminated, without a newline.
 * @len: the size of @buf; NCSYNC_DISASM_LINE_MAX always suffices.
 *
 * The record is decoded without a queue or a device: a branch target is
 * printed as a record index, @n, a hint's as its offset from the hint,
 * .+n or .-n, and any target below 2^32 - 1 and any DMA range are
 * accepted.  A record the decoder refuses is printed as
 * ".raw" and its bytes, with the reason as a comment.
 *
 * Return: the length of the line, -ENOSPC when @buf is too small (it then
 * holds as much as fits) or -EINVAL.
 */
int ncsync_disasm(const uint8_t *rec, char *buf, size_t len)
{
	struct dis_buf b = { .buf = buf, .size = len };

	if (!rec || (!buf && len))
		return -EINVAL;
	if (len)
		buf[0] = '\0';
	dis_record(&b, rec, 0, UINT32_MAX, false);
	if (b.len >= len)
		return -ENOSPC;
	return (int)b.len;
}

static int dis_stream(struct ncsync_stream *s, FILE *out)
{
	uint32_t i, n = ncsync_stream_count(s);
	uint8_t engine = ncsync_stream_engine(s);
	const char *name = ncsync_engine_name(engine);
	char line[NCSYNC_DISASM_LINE_MAX];
	struct ncsync_insn in;
	bool *target;
	uint32_t t;

	target = calloc(n ? n : 1, sizeof(*target));
	if (!target)
		return -ENOMEM;
	/* Every branch's and hint's target the records accept is a label. */
	for (i = 0; i < n; i++) {
		const uint8_t *rec = ncsync_stream_peek(s, i);

		if (rec && !ncsync_record_decode(rec, n, UINT64_MAX, &in) &&
		    !ncsync_record_check_at(&in, i, n) &&
		    ncsync_insn_target(&in, i, &t))
			target[t] = true;
	}

	if (name)
		fprintf(out, "engine %s\n", name);
	else
		fprintf(out, "engine %u\n", engine);
	for (i = 0; i < n; i++) {
		const uint8_t *rec = ncsync_stream_peek(s, i);
		struct dis_buf b = { .buf = line, .size = sizeof(line) };

		if (!rec) {
			free(target);
			return -EIO;
		}
		dis_record(&b, rec, i, n, true);
		if (b.len >= sizeof(line)) {
			free(target);
			return -ENOSPC;
		}
		if (target[i])
			fprintf(out, NCSYNC_TEXT_LABEL "%u:\n", i);
		fprintf(out, "\t%s\n", line);
	}
	free(target);
	return 0;
}

/**
 * ncsync_disasm_program() - print a program in the text form.
 * @prog: the program; finalize it first, so that branch targets are
 *	resolved and pseudo-ops lowered.
 * @out: the stream to write to.
 *
 * Prints each engine's stream, in engine order, as an "engine" line and one
 * line per record; branch targets are printed as labels L<n>, defined on a
 * line of their own before record n.  ncsync_asm() of the text builds the
 * same records.
 *
 * Return: 0, -EINVAL, -ENOMEM or -EIO when @out reports an error.
 */
int ncsync_disasm_program(const struct ncsync_program *prog, FILE *out)
{
	/* Lookups take the program as mutable; nothing here changes it. */
	struct ncsync_program *p = (struct ncsync_program *)prog;
	int saved_errno = errno, ret = 0;
	unsigned int engine;

	if (!prog || !out)
		return -EINVAL;
	for (engine = 0; engine < 256 && !ret; engine++) {
		struct ncsync_stream *s = ncsync_program_find_stream(p, engine);

		if (s)
			ret = dis_stream(s, out);
	}
	if (!ret && ferror(out))
		ret = -EIO;
	errno = saved_errno;
	return ret;
}

/**
 * ncsync_disasm_cores() - print a program across cores in the text form.
 * @parts: its parts, as ncsync_asm_cores() stores them; finalize each.
 * @n: the number of parts, at least 1.
 * @out: the stream to write to.
 *
 * Prints each part as a "core N" line, N its position, then its program as
 * ncsync_disasm_program() does.  ncsync_asm_cores() of the text builds the
 * same parts, with the same records.
 *
 * Return: 0, -EINVAL, -ENOMEM or -EIO when @out reports an error.
 */
int ncsync_disasm_cores(const struct ncsync_asm_part *parts, unsigned int n,
			FILE *out)
{
	int saved_errno = errno, ret = 0;
	unsigned int i;

	if (!parts || !n || !out)
		return -EINVAL;
	for (i = 0; i < n; i++)
		if (!parts[i].prog)
			return -EINVAL;
	for (i = 0; i < n && !ret; i++) {
		fprintf(out, "core %u\n", parts[i].core);
		ret = ncsync_disasm_program(parts[i].prog, out);
	}
	if (!ret && ferror(out))
		ret = -EIO;
	errno = saved_errno;
	return ret;
}
