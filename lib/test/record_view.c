// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * Host test: ncsync_record_view(), the public decoded view of a record:
 * waits, updates with +1/-1 resolved, the atomic pairing, a DMA record's
 * on-land update, a branch target; a refused record's reason and nothing
 * else; NULL arguments.
 */
#include <errno.h>
#include <string.h>

#include "ncsync.h"
#include "tap.h"

static struct ncsync_stream *s;

/* The view of record @idx of the test stream. */
static struct ncsync_record_view view(int idx)
{
	struct ncsync_record_view v;

	memset(&v, 0xAA, sizeof(v));
	if (idx < 0 || ncsync_record_view(ncsync_stream_peek(s, idx),
					  ncsync_stream_count(s), &v))
		memset(&v, 0xEE, sizeof(v));
	return v;
}

/* The one wait, or update, of a record whichever lane it is in. */
#define W(v) ((v).wait[(v).wait[0].active ? 0 : 1])
#define U(v) ((v).update[(v).update[0].active ? 0 : 1])
#define NWAITS(v) ((v).wait[0].active + (v).wait[1].active)
#define NUPDS(v) ((v).update[0].active + (v).update[1].active)

static void waits(void)
{
	struct ncsync_record_view v;

	v = view(ncsync_add_semaphore_wait_ge(s, 3, -5));
	TAP_CHECK(v.opcode == NCSYNC_OPC_EVENT_SEMAPHORE && W(v).active &&
		  W(v).bank == NCSYNC_BANK_SEM && W(v).index == 3 &&
		  W(v).mode == NCSYNC_WAIT_SEM_GE && !W(v).reg &&
		  (int32_t)W(v).value == -5 && !NUPDS(v) && v.target == -1,
		  "a semaphore wait: bank, index, mode, threshold");
	v = view(ncsync_add_semaphore_wait_reg(s, 4, NCSYNC_WAIT_SEM_LT, 7));
	TAP_CHECK(W(v).reg && W(v).value == 7 &&
		  W(v).mode == (NCSYNC_WAIT_SEM_LT | NCSYNC_WAIT_REG),
		  "a register threshold");
	v = view(ncsync_add_event_wait(s, 9, NCSYNC_WAIT_EVT_SET_THEN_CLEAR));
	TAP_CHECK(W(v).active && W(v).bank == NCSYNC_BANK_EVENT &&
		  W(v).index == 9 &&
		  W(v).mode == NCSYNC_WAIT_EVT_SET_THEN_CLEAR,
		  "an event wait");
}

static void updates(void)
{
	struct ncsync_record_view v;

	v = view(ncsync_add_semaphore_wait(s, 2));
	TAP_CHECK(W(v).active && U(v).active &&
		  U(v).paired && U(v).index == 2 &&
		  U(v).op == NCSYNC_UPDATE_SEM_SUB &&
		  U(v).operand == 1,
		  "P(): wait > 0 paired with -1, resolved to sub 1");
	v = view(ncsync_add_semaphore_inc(s, 6));
	TAP_CHECK(!NWAITS(v) && NUPDS(v) == 1 &&
		  !U(v).paired && U(v).op == NCSYNC_UPDATE_SEM_ADD &&
		  U(v).operand == 1 && !U(v).on_land,
		  "+1 is add 1");
	v = view(ncsync_add_semaphore_set(s, 6, 42));
	TAP_CHECK(U(v).op == NCSYNC_UPDATE_SEM_SET &&
		  U(v).operand == 42, "set");
	v = view(ncsync_add_event_clear(s, 11));
	TAP_CHECK(U(v).bank == NCSYNC_BANK_EVENT &&
		  U(v).index == 11 &&
		  U(v).op == NCSYNC_UPDATE_EVENT_CLEAR, "event clear");
	v = view(ncsync_add_evsem(s, NULL, NCSYNC_WAIT_SEM_EQ, 1, 0,
				  NCSYNC_UPD_SEM_ADD | NCSYNC_UPD_COMPLETE, 5,
				  3));
	TAP_CHECK(v.nlanes == 2 && v.wait[1].active && v.wait[1].index == 1 &&
		  !v.wait[0].active && v.update[1].active && v.update[1].index == 5 &&
		  v.update[1].operand == 3 && !v.update[1].paired,
		  "EventSemaphore: the extended block is lane 1");
}

static void others(struct ncsync_program *p)
{
	struct ncsync_record_view v;
	int l = ncsync_label_new(p), at, br;

	v = view(ncsync_add_dma(s, 0, 4096, 512, 10,
				NCSYNC_UPD_SEM_INC | NCSYNC_UPD_COMPLETE, 8,
				NULL));
	TAP_CHECK(v.opcode == NCSYNC_OPC_DMA && v.dma_src == 0 &&
		  v.dma_dst == 4096 && v.dma_len == 512 &&
		  v.dma_latency_us == 10 && v.update[0].on_land &&
		  v.update[0].index == 8 &&
		  v.update[0].op == NCSYNC_UPDATE_SEM_ADD,
		  "DMA: copy and on-land update");
	at = ncsync_label_bind(s, l);
	ncsync_add_nop(s, NULL);
	br = ncsync_add_branch(s, l, NULL);
	ncsync_add_exit(s, NULL);
	TAP_CHECK(at > 0 && br > at && !ncsync_program_finalize(p),
		  "finalize");
	v = view(br);
	TAP_CHECK(v.opcode == NCSYNC_OPC_BRANCH && v.target == at,
		  "a branch: its target index");
}

int main(void)
{
	struct ncsync_record_view v;
	struct ncsync_program *p;
	uint8_t rec[NCSYNC_RECORD_SIZE];

	if (ncsync_program_new(&p) ||
	    ncsync_program_stream(p, NCSYNC_ENGINE_PE, &s))
		return 1;
	waits();
	updates();
	others(p);
	memcpy(rec, ncsync_stream_peek(s, 0), sizeof(rec));
	rec[0x30] = 1;
	memset(&v, 0xAA, sizeof(v));
	TAP_CHECK(ncsync_record_view(rec, 1, &v) == -EINVAL &&
		  v.reason == NCSYNC_REC_RESERVED_BYTE && !v.opcode &&
		  !v.wait[0].active && !v.target,
		  "a refused record: its reason, everything else zero");
	TAP_CHECK(!strcmp(ncsync_update_kind_name(NCSYNC_UPDATE_SEM_SET),
			  "sem_set") &&
		  !strcmp(ncsync_update_kind_name(NCSYNC_UPDATE_SEM_SUB),
			  "sem_sub") &&
		  !strcmp(ncsync_update_kind_name(NCSYNC_UPDATE_EVENT_CLEAR),
			  "event_clear") &&
		  !strcmp(ncsync_update_kind_name(NCSYNC_UPDATE_EVENT_CLEAR + 1),
			  "unknown"), "update kind names");
	TAP_CHECK(ncsync_record_view(NULL, 1, &v) == -EINVAL &&
		  ncsync_record_view(rec, 1, NULL) == -EINVAL,
		  "NULL record or view: -EINVAL");
	ncsync_program_free(p);
	return tap_done();
}
