/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The conformance table: records that ncsync_record_decode() accepts and
 * the conformance profile (NCSYNC_SUBMIT_F_CONFORM) refuses, each with the
 * reason it must get, one rule at least once each
 * (Documentation/ncsync/records.rst, "The conformance profile").  Shared
 * by the library's host test (lib/test/conform.c) and the selftests
 * (ncsync_engine_submit_test, fixture conform).  The entries are those of
 * bad_records.h: an opcode and the bytes written over its header.
 *
 * Two rules need more than the record alone:
 *  - @dup_earlier: NCSYNC_REC_CONF_GR_DUPLICATE; the record is refused in
 *    a queue after one whose group overlaps its own without being it
 *    (runners put ncsync_conform_earlier() of it in an earlier queue
 *    first; the same group there would be a fence's per-engine copy,
 *    which conforms);
 *  - an opcode of 0xD5: NCSYNC_REC_CONF_PSEUDO, the library's rule
 *    (ncsync_barrier_record_conform()); the kernel refuses any 0xD5 with
 *    NCSYNC_REC_PSEUDO_OP.
 */
#ifndef _NCSYNC_TEST_CONFORM_RECORDS_H
#define _NCSYNC_TEST_CONFORM_RECORDS_H

#include "bad_records.h"

/**
 * struct ncsync_conform_record - a record only the profile refuses.
 * @rec: the record and its reason, as in the bad-record table.
 * @dup_earlier: refused only after an earlier queue holds an overlapping
 *	group (ncsync_conform_earlier()).
 */
struct ncsync_conform_record {
	struct ncsync_bad_record rec;
	__u8 dup_earlier;
};

/* bad_records.h's helpers end with it: the same, under names of ours. */
#define CBAD(n, opc, why)	.name = (n), .opcode = (opc), .reason = (why)
#define C8(off, v)		{ (off), 1, (v) }
#define C32(off, v)		{ (off), 4, (v) }
#define CUPD(m)			(NCSYNC_UPD_COMPLETE | (m))
#define CWAIT(lane, mode, idx)						\
	C8((lane) ? NCSYNC_REC_EX_WAIT_MODE : NCSYNC_REC_EV_WAIT_MODE,	\
	   (mode)),							\
	C8((lane) ? NCSYNC_REC_EX_WAIT_IDX : NCSYNC_REC_EV_WAIT_IDX, (idx))

static const struct ncsync_conform_record ncsync_conform_records[] = {
	/* ENC 2: an EventSemaphore waits GE (0x05, 0x85) or not at all */
	{ .rec = { CBAD("evsem_wait_eq", NCSYNC_OPC_EVENT_SEMAPHORE,
		NCSYNC_REC_CONF_EVSEM_WAIT),
	    .set = { CWAIT(1, NCSYNC_WAIT_SEM_EQ, 5) } } },
	{ .rec = { CBAD("evsem_wait_gt_lane0", NCSYNC_OPC_EVENT_SEMAPHORE,
		NCSYNC_REC_CONF_EVSEM_WAIT),
	    .set = { CWAIT(0, NCSYNC_WAIT_SEM_GT, 5),
		     C32(NCSYNC_REC_EV_VALUE, 0xFFFFFFFFU) } } },
	{ .rec = { CBAD("evsem_wait_le_reg", NCSYNC_OPC_EVENT_SEMAPHORE,
		NCSYNC_REC_CONF_EVSEM_WAIT),
	    .set = { CWAIT(1, NCSYNC_WAIT_REG | NCSYNC_WAIT_SEM_LE, 5) } } },
	{ .rec = { CBAD("evsem_wait_lt_second", NCSYNC_OPC_EVENT_SEMAPHORE,
		NCSYNC_REC_CONF_EVSEM_WAIT),
	    .set = { CWAIT(0, NCSYNC_WAIT_SEM_GE, 5),
		     CWAIT(1, NCSYNC_WAIT_SEM_LT, 6),
		     C32(NCSYNC_REC_EX_WAIT_VALUE, 1) } } },
	{ .rec = { CBAD("evsem_wait_event_clear", NCSYNC_OPC_EVENT_SEMAPHORE,
		NCSYNC_REC_CONF_EVSEM_WAIT),
	    .set = { CWAIT(1, NCSYNC_WAIT_EVT_CLEAR, 5) } } },
	/* ENC 2: "EventSemaphore must have sync info" */
	{ .rec = { CBAD("evsem_empty", NCSYNC_OPC_EVENT_SEMAPHORE,
		NCSYNC_REC_CONF_EVSEM_EMPTY) } },
	/* ENC 2: "<= 1 update command" */
	{ .rec = { CBAD("evsem_two_updates", NCSYNC_OPC_EVENT_SEMAPHORE,
		NCSYNC_REC_CONF_EVSEM_UPDATES),
	    .set = { C8(NCSYNC_REC_EV_UPD_MODE, CUPD(NCSYNC_UPD_SEM_INC)),
		     C8(NCSYNC_REC_EV_UPD_IDX, 5),
		     C8(NCSYNC_REC_EX_UPD_MODE, CUPD(NCSYNC_UPD_SEM_INC)),
		     C8(NCSYNC_REC_EX_UPD_IDX, 6),
		     C32(NCSYNC_REC_EX_UPD_VALUE, 1) } } },
	/* ENC 6b: !getSemaGroup().empty() */
	{ .rec = { CBAD("gr_empty_mask", NCSYNC_OPC_GROUP_RESET,
		NCSYNC_REC_CONF_GR_EMPTY),
	    .set = { C8(NCSYNC_REC_GR_CLEAR_MODE, NCSYNC_CLEAR_MASK) } } },
	/*
	 * ENC 6b: no duplicates; each engine resets its own range, or the
	 * fence's group itself (SYNC: "deep-copies its sema_group vector
	 * per engine"), not a group that overlaps another queue's
	 */
	{ .rec = { CBAD("gr_duplicate_range", NCSYNC_OPC_GROUP_RESET,
		NCSYNC_REC_CONF_GR_DUPLICATE),
	    .set = { C8(NCSYNC_REC_GR_CLEAR_MODE, NCSYNC_CLEAR_RANGE),
		     C8(NCSYNC_REC_GR_FIRST, 5), C8(NCSYNC_REC_GR_LAST, 7) } },
	  .dup_earlier = 1 },
	/* BARRIER 1, 8: header, events block, reserved0[52] zero */
	{ .rec = { CBAD("d5_reserved0_last", NCSYNC_OPC_ALL_ENGINE_BARRIER,
		NCSYNC_REC_CONF_PSEUDO),
	    .set = { C8(0x3F, 1) } } },
	{ .rec = { CBAD("d5_reserved0_first", NCSYNC_OPC_ALL_ENGINE_BARRIER,
		NCSYNC_REC_CONF_PSEUDO),
	    .set = { C8(0x0C, 0x80) } } },
	{ .rec = { CBAD("d5_wordlen", NCSYNC_OPC_ALL_ENGINE_BARRIER,
		NCSYNC_REC_CONF_PSEUDO),
	    .set = { C8(0x01, 0x11) } } },
	{ .rec = { CBAD("d5_header_byte3", NCSYNC_OPC_ALL_ENGINE_BARRIER,
		NCSYNC_REC_CONF_PSEUDO),
	    .set = { C8(0x03, 1) } } },
	{ .rec = { CBAD("d5_bad_events", NCSYNC_OPC_ALL_ENGINE_BARRIER,
		NCSYNC_REC_CONF_PSEUDO),
	    .set = { C8(NCSYNC_REC_EV_WAIT_MODE, 0x70) } } },
};

#undef CBAD
#undef C8
#undef C32
#undef CUPD
#undef CWAIT

/*
 * The record an earlier queue holds for a @dup_earlier entry @r: its
 * range one semaphore longer, a group that overlaps @r's without being it.
 */
static inline void ncsync_conform_earlier(const __u8 *r, __u8 *e)
{
	unsigned int i;

	for (i = 0; i < NCSYNC_RECORD_SIZE; i++)
		e[i] = r[i];
	e[NCSYNC_REC_GR_LAST]++;
}

#define NCSYNC_NUM_CONFORM_RECORDS					\
	(sizeof(ncsync_conform_records) / sizeof(ncsync_conform_records[0]))

#endif /* _NCSYNC_TEST_CONFORM_RECORDS_H */
