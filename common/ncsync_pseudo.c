// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The layout of the pseudo-ops lowered record by record (ncsync_pseudo.h):
 * the DMA barrier 0xC3, TriggerCollective 0xC8, 0xD9 and 0xDA, and Return
 * 0xD2, a header and an events block; Call
 * 0xD3, a header, an events block, the callee's name at +0x0C and the args
 * table id at +0x30 (ENC 7); CoreBarrier 0xD8, a header, an events block,
 * the barrier's id at +0x0C and its semaphore index at +0x10 (ENC 6d).
 * Freestanding C.
 */
#include "ncsync_optab.h"
#include "ncsync_pseudo.h"
#include "ncsync_record.h"

static bool ncsync_name_ch(char ch, bool first)
{
	if ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
	    ch == '_' || ch == '.')
		return true;
	return !first && ch >= '0' && ch <= '9';
}

/**
 * ncsync_call_name_valid() - whether a callee name is one Call can carry.
 * @name: the name, not necessarily NUL-terminated.
 * @len: its length.
 *
 * A name is 1 to NCSYNC_CALL_NAME_LEN characters, a word of the text form:
 * letters, digits, '_' and '.', not starting with a digit.
 *
 * Return: true when it is.
 */
bool ncsync_call_name_valid(const char *name, size_t len)
{
	size_t i;

	if (!len || len > NCSYNC_CALL_NAME_LEN)
		return false;
	for (i = 0; i < len; i++)
		if (!ncsync_name_ch(name[i], !i))
			return false;
	return true;
}

/**
 * ncsync_pseudo_noop() - the NoOp that carries a record's events block.
 * @rec: a record.
 * @nop: out: a NoOp (0xA4) with the events block of @rec byte for byte,
 *	every other byte as the encoder writes it.
 */
void ncsync_pseudo_noop(const __u8 *rec, __u8 nop[NCSYNC_RECORD_SIZE])
{
	struct ncsync_insn insn = { .opcode = NCSYNC_OPC_NOOP };
	unsigned int i;

	ncsync_record_encode(&insn, nop);
	for (i = NCSYNC_REC_EV_WAIT_MODE; i < NCSYNC_REC_EV_VALUE + 4; i++)
		nop[i] = rec[i];
}

static __u32 ncsync_pseudo_u32(const __u8 *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (__u32)p[3] << 24;
}

/* The Call fields: the name and its NUL padding, +0x2F, the args id. */
static enum ncsync_pseudo_reason ncsync_call_decode(const __u8 *rec,
						    struct ncsync_pseudo *p)
{
	const __u8 *name = rec + NCSYNC_REC_CALL_NAME;
	unsigned int i, len = 0;

	while (len < NCSYNC_CALL_NAME_LEN && name[len])
		len++;
	for (i = len; i < NCSYNC_CALL_NAME_LEN; i++)
		if (name[i])
			return NCSYNC_PSEUDO_RESERVED;
	if (rec[NCSYNC_REC_CALL_NAME + NCSYNC_CALL_NAME_LEN])
		return NCSYNC_PSEUDO_RESERVED;
	for (i = NCSYNC_REC_CALL_ARGS + 4; i < NCSYNC_RECORD_SIZE; i++)
		if (rec[i])
			return NCSYNC_PSEUDO_RESERVED;
	if (!ncsync_call_name_valid((const char *)name, len))
		return NCSYNC_PSEUDO_NAME;
	for (i = 0; i < len; i++)
		p->name[i] = (char)name[i];
	p->args = ncsync_pseudo_u32(rec + NCSYNC_REC_CALL_ARGS);
	return NCSYNC_PSEUDO_OK;
}

/* The CoreBarrier fields: the id, the semaphore, zeros after it. */
static enum ncsync_pseudo_reason ncsync_cb_decode(const __u8 *rec,
						  struct ncsync_pseudo *p)
{
	unsigned int i;

	for (i = NCSYNC_REC_CB_SEM + 1; i < NCSYNC_RECORD_SIZE; i++)
		if (rec[i])
			return NCSYNC_PSEUDO_RESERVED;
	p->id = ncsync_pseudo_u32(rec + NCSYNC_REC_CB_ID);
	p->sem = rec[NCSYNC_REC_CB_SEM];
	return NCSYNC_PSEUDO_OK;
}

/*
 * The form of pseudo-op @op (ncsync_optab.h) if this file decodes it:
 * NCSYNC_FORM_PSEUDO, _CALL or _CORE_BARRIER; else NCSYNC_FORM_COUNT.
 */
static unsigned int ncsync_pseudo_form(__u8 op)
{
	const struct ncsync_opdesc *d = ncsync_op(op);

	if (!d || !(d->flags & NCSYNC_OPF_PSEUDO))
		return NCSYNC_FORM_COUNT;
	if (d->form == NCSYNC_FORM_PSEUDO || d->form == NCSYNC_FORM_CALL ||
	    d->form == NCSYNC_FORM_CORE_BARRIER)
		return d->form;
	return NCSYNC_FORM_COUNT;
}

/**
 * ncsync_pseudo_decode() - decode and check a pseudo-op lowered record by
 *	record: a DMA barrier, TriggerCollective, Return, Call or CoreBarrier.
 * @rec: the NCSYNC_RECORD_SIZE bytes.
 * @p: out: the decoded record; zeroed first.
 *
 * The header is the one of every record; the events block must be one a
 * NoOp may carry (ncsync_record_decode() of ncsync_pseudo_noop()); every
 * byte the layout does not name is zero.
 *
 * Return: NCSYNC_PSEUDO_OK, or why the record is refused.
 */
enum ncsync_pseudo_reason ncsync_pseudo_decode(const __u8 *rec,
					       struct ncsync_pseudo *p)
{
	__u8 nop[NCSYNC_RECORD_SIZE];
	struct ncsync_insn insn;
	unsigned int i, end = NCSYNC_RECORD_SIZE;
	unsigned int form = ncsync_pseudo_form(rec[0]);

	for (i = 0; i < sizeof(*p); i++)
		((__u8 *)p)[i] = 0;
	if (form == NCSYNC_FORM_COUNT)
		return NCSYNC_PSEUDO_OPCODE;
	if (rec[1] != NCSYNC_RECORD_WORDLEN || rec[2] || rec[3])
		return NCSYNC_PSEUDO_HEADER;
	ncsync_pseudo_noop(rec, nop);
	if (ncsync_record_decode(nop, 1, 0, &insn))
		return NCSYNC_PSEUDO_EVENTS;
	p->opcode = rec[0];
	for (i = 0; i < sizeof(p->events); i++)
		p->events[i] = rec[NCSYNC_REC_EV_WAIT_MODE + i];
	if (form == NCSYNC_FORM_CALL)
		return ncsync_call_decode(rec, p);
	if (form == NCSYNC_FORM_CORE_BARRIER)
		return ncsync_cb_decode(rec, p);
	for (i = NCSYNC_REC_EV_VALUE + 4; i < end; i++)
		if (rec[i])
			return NCSYNC_PSEUDO_RESERVED;
	return NCSYNC_PSEUDO_OK;
}

/**
 * ncsync_pseudo_encode() - write the record of a decoded pseudo-op.
 * @p: the pseudo-op; for Call, @p->name is copied as strncpy() would,
 *	capped at NCSYNC_CALL_NAME_LEN bytes and NUL-padded; for CoreBarrier
 *	@p->id and @p->sem are written.
 * @rec: out: the NCSYNC_RECORD_SIZE bytes.
 *
 * The inverse of ncsync_pseudo_decode() for every record it accepts.
 */
void ncsync_pseudo_encode(const struct ncsync_pseudo *p,
			  __u8 rec[NCSYNC_RECORD_SIZE])
{
	struct ncsync_insn insn = { .opcode = p->opcode };
	unsigned int i, form = ncsync_pseudo_form(p->opcode);

	/* A pseudo-op: the header and a zero events block. */
	ncsync_record_encode(&insn, rec);
	for (i = 0; i < sizeof(p->events); i++)
		rec[NCSYNC_REC_EV_WAIT_MODE + i] = p->events[i];
	if (form == NCSYNC_FORM_CORE_BARRIER) {
		for (i = 0; i < 4; i++)
			rec[NCSYNC_REC_CB_ID + i] = (__u8)(p->id >> (8 * i));
		rec[NCSYNC_REC_CB_SEM] = p->sem;
		return;
	}
	if (form != NCSYNC_FORM_CALL)
		return;
	for (i = 0; i < NCSYNC_CALL_NAME_LEN && p->name[i]; i++)
		rec[NCSYNC_REC_CALL_NAME + i] = (__u8)p->name[i];
	for (i = 0; i < 4; i++)
		rec[NCSYNC_REC_CALL_ARGS + i] = (__u8)(p->args >> (8 * i));
}

/**
 * ncsync_pseudo_reason_name() - a short text for an enum ncsync_pseudo_reason.
 * @reason: the reason.
 *
 * Return: a constant string; "unknown reason" out of range.
 */
const char *ncsync_pseudo_reason_name(unsigned int reason)
{
	static const char *const names[NCSYNC_PSEUDO_REASON_COUNT] = {
		[NCSYNC_PSEUDO_OK] = "ok",
		[NCSYNC_PSEUDO_OPCODE] = "not a pseudo-op lowered record by record",
		[NCSYNC_PSEUDO_HEADER] = "bad header",
		[NCSYNC_PSEUDO_EVENTS] = "events block a NoOp cannot carry",
		[NCSYNC_PSEUDO_RESERVED] = "reserved byte not zero",
		[NCSYNC_PSEUDO_NAME] = "callee name empty or not a word",
	};

	if (reason >= NCSYNC_PSEUDO_REASON_COUNT)
		return "unknown reason";
	return names[reason];
}
