/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The pseudo-ops the library lowers record by record: the DMA barrier
 * (0xC3), TriggerCollective (0xC8, 0xD9, 0xDA), Return (0xD2), Call
 * (0xD3) and CoreBarrier (0xD8): the rows of form NCSYNC_FORM_PSEUDO,
 * _CALL and _CORE_BARRIER of the opcode table.  Their layout, decoded and
 * encoded
 * once here (ncsync_pseudo.c) for the library's builders, assembler,
 * disassembler and lowering; the module refuses every pseudo-op
 * (NCSYNC_REC_PSEUDO_OP) and does not build this file.  Freestanding C.
 * Documentation/ncsync/records.rst, "Pseudo-ops".
 */
#ifndef _NCSYNC_PSEUDO_H
#define _NCSYNC_PSEUDO_H

#include "ncsync_model.h"

/* Call (ENC 7a): the callee's name, strncpy'd, then the args table id. */
#define NCSYNC_REC_CALL_NAME		0x0C	/* 35 bytes, NUL-padded */
#define NCSYNC_CALL_NAME_LEN		35
#define NCSYNC_REC_CALL_ARGS		0x30	/* u32 args table id */

/* CoreBarrier (ENC 6d): the barrier's id, then its semaphore index. */
#define NCSYNC_REC_CB_ID		0x0C	/* u32 */
#define NCSYNC_REC_CB_SEM		0x10	/* u8 */

/**
 * enum ncsync_pseudo_reason - why ncsync_pseudo_decode() refused a record.
 * @NCSYNC_PSEUDO_OK: accepted.
 * @NCSYNC_PSEUDO_OPCODE: byte 0 is not a pseudo-op of one of those forms.
 * @NCSYNC_PSEUDO_HEADER: byte 1 is not 0x10, or byte 2 or 3 is not zero.
 * @NCSYNC_PSEUDO_EVENTS: the events block would be refused on a NoOp.
 * @NCSYNC_PSEUDO_RESERVED: a byte the layout does not name is not zero
 *	(for Call: +0x2F, +0x34 - +0x3F, or a byte after the name's NUL;
 *	for CoreBarrier: +0x11 - +0x3F).
 * @NCSYNC_PSEUDO_NAME: Call: the name is empty or not a text-form word.
 * @NCSYNC_PSEUDO_REASON_COUNT: the number of reasons.
 */
enum ncsync_pseudo_reason {
	NCSYNC_PSEUDO_OK,
	NCSYNC_PSEUDO_OPCODE,
	NCSYNC_PSEUDO_HEADER,
	NCSYNC_PSEUDO_EVENTS,
	NCSYNC_PSEUDO_RESERVED,
	NCSYNC_PSEUDO_NAME,
	NCSYNC_PSEUDO_REASON_COUNT,
};

/**
 * struct ncsync_pseudo - a decoded pseudo-op of form NCSYNC_FORM_PSEUDO
 *	(DMA barrier, TriggerCollective, Return), Call or CoreBarrier.
 * @opcode: its NCSYNC_OPC_*.
 * @events: the events block, +0x04 - +0x0B, as encoded.
 * @name: Call: the callee, NUL-terminated (at most NCSYNC_CALL_NAME_LEN).
 * @args: Call: the args table id.
 * @id: CoreBarrier: the barrier's id.
 * @sem: CoreBarrier: the barrier semaphore's index.
 */
struct ncsync_pseudo {
	__u8 opcode;
	__u8 events[8];
	char name[NCSYNC_CALL_NAME_LEN + 1];
	__u32 args;
	__u32 id;
	__u8 sem;
};

bool ncsync_call_name_valid(const char *name, size_t len);
enum ncsync_pseudo_reason ncsync_pseudo_decode(const __u8 *rec,
					       struct ncsync_pseudo *p);
void ncsync_pseudo_encode(const struct ncsync_pseudo *p,
			  __u8 rec[NCSYNC_RECORD_SIZE]);
void ncsync_pseudo_noop(const __u8 *rec, __u8 nop[NCSYNC_RECORD_SIZE]);
const char *ncsync_pseudo_reason_name(unsigned int reason);

#endif /* _NCSYNC_PSEUDO_H */
