// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * The conformance profile (Documentation/ncsync/records.rst, "The
 * conformance profile"): every entry of common/test/conform_records.h is
 * accepted by ncsync_record_decode() and refused by the profile for its
 * reason; what the rules allow passes; the library's own barriers and
 * fence conform, and the event lowering does not.
 */
#include <errno.h>
#include <string.h>

#include "ncsync.h"
#include "ncsync_record.h"
#include "test/conform_records.h"
#include "tap.h"

/* Check @rec against the profile in queue 1, after queue 0 held @earlier. */
static enum ncsync_rec_reason conform_after(const uint8_t *rec,
					    const uint8_t *earlier)
{
	struct ncsync_conform c;
	struct ncsync_insn in;
	enum ncsync_rec_reason r;

	ncsync_conform_init(&c);
	if (earlier) {
		if (ncsync_record_decode(earlier, 1, 0, &in))
			return NCSYNC_REC_REASON_COUNT;
		r = ncsync_record_conform(&c, &in);
		if (r)
			return r;
		ncsync_conform_next_queue(&c);
	}
	if (ncsync_record_decode(rec, NCSYNC_BAD_QLEN, NCSYNC_BAD_DEVMEM, &in))
		return NCSYNC_REC_REASON_COUNT;
	return ncsync_record_conform(&c, &in);
}

static void table(void)
{
	unsigned int i, seen = 0;
	struct ncsync_insn in;
	uint8_t r[NCSYNC_RECORD_SIZE], e[NCSYNC_RECORD_SIZE];

	for (i = 0; i < NCSYNC_NUM_CONFORM_RECORDS; i++) {
		const struct ncsync_conform_record *c =
			&ncsync_conform_records[i];

		ncsync_bad_record_build(&c->rec, NCSYNC_BAD_QLEN, r);
		seen |= 1U << (c->rec.reason - NCSYNC_REC_CONF_FIRST);
		if (c->rec.opcode == NCSYNC_OPC_ALL_ENGINE_BARRIER) {
			TAP_CHECK(ncsync_record_decode(r, 1, 0, &in) ==
					  NCSYNC_REC_PSEUDO_OP &&
				  ncsync_barrier_record_conform(r) ==
					  c->rec.reason,
				  "%s: a pseudo-op to the kernel; the library "
				  "refuses it: %s", c->rec.name,
				  ncsync_reason_name(c->rec.reason));
			continue;
		}
		TAP_CHECK(ncsync_record_decode(r, NCSYNC_BAD_QLEN,
					       NCSYNC_BAD_DEVMEM, &in) == 0,
			  "%s: accepted without the profile", c->rec.name);
		ncsync_conform_earlier(r, e);
		if (c->dup_earlier)
			TAP_CHECK(conform_after(r, NULL) == 0 &&
				  conform_after(r, r) == 0 &&
				  conform_after(r, e) == c->rec.reason,
				  "%s: alone it conforms, and after an earlier "
				  "queue with the same group; after one with an "
				  "overlapping group: %s", c->rec.name,
				  ncsync_reason_name(c->rec.reason));
		else
			TAP_CHECK(conform_after(r, NULL) == c->rec.reason,
				  "%s: refused by the profile: %s",
				  c->rec.name,
				  ncsync_reason_name(c->rec.reason));
	}
	TAP_CHECK(seen == (1U << (NCSYNC_REC_CONF_LAST + 1 -
				  NCSYNC_REC_CONF_FIRST)) - 1,
		  "the table has every conformance reason: %#x", seen);
	for (i = 1; i < NCSYNC_REC_REASON_COUNT; i++)
		TAP_CHECK(!strncmp(ncsync_reason_name(i), "conformance: ", 13) ==
			  ncsync_rec_reason_conform(i),
			  "reason %u has its name: %s", i,
			  ncsync_reason_name(i));
}

#define REC(...) ((const uint8_t [NCSYNC_RECORD_SIZE]) { [1] = 0x10, \
							  __VA_ARGS__ })

/* What the rules allow. */
static void allowed(void)
{
	static const uint8_t d5[NCSYNC_RECORD_SIZE] = {
		0xD5, 0x10, 0, 0, 0x05, 9, 0x13, 7, 3,
	};

	TAP_CHECK(!conform_after(REC([0] = 0xA0, [0x20] = 0x05, [0x21] = 4,
				     [0x24] = 9), NULL),
		  "EventSemaphore wait GE an immediate");
	TAP_CHECK(!conform_after(REC([0] = 0xA0, [4] = 0x85, [5] = 4, [8] = 3,
				     [0x20] = 0x05, [0x21] = 5,
				     [0x22] = 0x13, [0x23] = 4), NULL),
		  "two GE waits (one on a register) and one update");
	TAP_CHECK(!conform_after(REC([0] = 0xA0, [0x22] = 0x19, [0x23] = 4,
				     [0x28] = 2), NULL),
		  "an update alone");
	TAP_CHECK(!conform_after(REC([0] = 0xA4, [4] = 0x02, [5] = 4), NULL) &&
		  !conform_after(REC([0] = 0xA2, [4] = 0x01, [5] = 4,
				     [0x28] = 1), NULL),
		  "other ops' waits are not the EventSemaphore rule's");
	TAP_CHECK(!conform_after(REC([0] = 0xB0, [0x0C] = 1, [0x0D] = 5,
				     [0x0E] = 7),
				 REC([0] = 0xB0, [0x0C] = 2, [0x20] = 0x1F)) &&
		  conform_after(REC([0] = 0xB0, [0x0C] = 1, [0x0D] = 4,
				    [0x0E] = 7),
				REC([0] = 0xB0, [0x0C] = 2, [0x20] = 0x1F)) ==
			  NCSYNC_REC_CONF_GR_DUPLICATE,
		  "GroupReset 5..7 after another queue's 0..4; 4..7 shares 4");
	TAP_CHECK(ncsync_barrier_record_conform(d5) == 0,
		  "a well-formed 0xD5 with an events block");
}

/* Every record of @p, queue after queue; the first refusal. */
static enum ncsync_rec_reason program_conform(struct ncsync_program *p)
{
	struct ncsync_conform c;
	struct ncsync_insn in;
	unsigned int e;
	uint32_t i;

	ncsync_conform_init(&c);
	for (e = 0; e < 8; e++) {
		struct ncsync_stream *s = ncsync_program_find_stream(p, e);

		for (i = 0; s && i < ncsync_stream_count(s); i++) {
			enum ncsync_rec_reason r;

			r = ncsync_record_decode(ncsync_stream_record(s, i),
						 ncsync_stream_count(s),
						 UINT64_MAX, &in);
			if (!r)
				r = ncsync_record_conform(&c, &in);
			if (r)
				return r;
		}
		ncsync_conform_next_queue(&c);
	}
	return NCSYNC_REC_OK;
}

static struct ncsync_program *barriers(enum ncsync_barrier_lowering how)
{
	struct ncsync_events ev = {
		.wait_mode = 0x05, .wait_idx = 9, .value = 3,
		.upd_mode = 0x13, .upd_idx = 7,
	};
	struct ncsync_program *p;
	struct ncsync_stream *s;
	unsigned int e;

	ncsync_program_new(&p);
	for (e = 1; e <= 6; e++)
		if (e != NCSYNC_ENGINE_DMA)
			ncsync_program_stream(p, e, &s);
	ncsync_sem_alloc(p, 7);
	ncsync_add_sync_barrier(p);
	ncsync_add_all_engine_barrier(p, &ev);
	ncsync_add_lower_control_fence(p);
	if (ncsync_program_lower(p, how) || ncsync_program_finalize(p))
		return NULL;
	return p;
}

/*
 * SYNC's lower_control fence as the compiler emits it: every engine's copy
 * of one GroupResetSemaphores resets the same group (SYNC: it "deep-copies
 * its sema_group vector per engine").  With @other, the last engine's
 * group is one semaphore longer: it overlaps the others without being
 * theirs.
 */
static struct ncsync_program *cloned_fence(bool other)
{
	static const uint8_t engines[] = { 1, 2, 3, 5, 6 };
	struct ncsync_program *p;
	struct ncsync_stream *s[5];
	unsigned int i;

	ncsync_program_new(&p);
	for (i = 0; i < 5; i++)
		ncsync_program_stream(p, engines[i], &s[i]);
	ncsync_add_all_engine_barrier(p, NULL);
	for (i = 0; i < 5; i++)
		ncsync_add_sema_clear(s[i], 10, other && i == 4 ? 21 : 20,
				      NULL);
	ncsync_add_all_engine_barrier(p, NULL);
	for (i = 0; i < 5; i++)
		ncsync_add_drain(s[i], NULL);
	if (ncsync_program_lower(p, NCSYNC_LOWER_COUNTER) ||
	    ncsync_program_finalize(p))
		return NULL;
	return p;
}

/*
 * The profile remembers NCSYNC_CONFORM_GROUPS distinct groups; a copy of
 * a group beyond them is refused as an overlap (records.rst).
 */
static void group_limit(void)
{
	static struct ncsync_conform c;
	struct ncsync_insn in = { .opcode = NCSYNC_OPC_GROUP_RESET };
	unsigned int g, first = 0, copies = 0;

	in.gr.mode = NCSYNC_CLEAR_MASK;
	ncsync_conform_init(&c);
	for (g = 0; g <= NCSYNC_CONFORM_GROUPS; g++) {
		memset(in.gr.mask, 0, sizeof(in.gr.mask));
		in.gr.mask[g / 32] = 1U << (g % 32);
		first += !ncsync_record_conform(&c, &in);
	}
	ncsync_conform_next_queue(&c);
	for (g = 0; g <= NCSYNC_CONFORM_GROUPS; g++) {
		memset(in.gr.mask, 0, sizeof(in.gr.mask));
		in.gr.mask[g / 32] = 1U << (g % 32);
		copies += !ncsync_record_conform(&c, &in);
	}
	TAP_CHECK(first == NCSYNC_CONFORM_GROUPS + 1 &&
		  copies == NCSYNC_CONFORM_GROUPS,
		  "%u distinct groups in queue 0 conform (%u); in queue 1, the "
		  "copies of the first %u (%u)", NCSYNC_CONFORM_GROUPS + 1,
		  first, NCSYNC_CONFORM_GROUPS, copies);
}

static void library(void)
{
	enum ncsync_rec_reason rp, rq;
	struct ncsync_submit_error err;
	struct ncsync_program *q;
	int lp, lq;
	struct ncsync_program *p = barriers(NCSYNC_LOWER_COUNTER);

	TAP_CHECK(p && program_conform(p) == NCSYNC_REC_OK,
		  "sync barrier, 0xD5 (counter form) and fence conform");
	ncsync_program_free(p);
	p = barriers(NCSYNC_LOWER_EVENTS);
	TAP_CHECK(p && program_conform(p) == NCSYNC_REC_CONF_EVSEM_WAIT,
		  "the event form's EventSemaphores wait for events: refused");
	ncsync_program_free(p);
	p = cloned_fence(false);
	q = cloned_fence(true);
	/* ncsync_program_conform() first: the helper's writable access */
	lp = p ? ncsync_program_conform(p, &err) : -1;
	rp = p ? program_conform(p) : NCSYNC_REC_REASON_COUNT;
	TAP_CHECK(!lp && rp == NCSYNC_REC_OK,
		  "a fence whose engines all reset the same group conforms "
		  "(SYNC: GroupResetSemaphores \"deep-copies its sema_group "
		  "vector per engine\"): %d, %d", lp, rp);
	lq = q ? ncsync_program_conform(q, &err) : 0;
	rq = q ? program_conform(q) : NCSYNC_REC_REASON_COUNT;
	TAP_CHECK(lq == -EINVAL && err.reason == NCSYNC_REC_CONF_GR_DUPLICATE &&
		  err.engine == 6 && rq == NCSYNC_REC_CONF_GR_DUPLICATE,
		  "... and one engine's group overlapping the others' without "
		  "being theirs is refused (rule 29): %d, %d", lq, rq);
	ncsync_program_free(p);
	ncsync_program_free(q);
}

int main(void)
{
	table();
	allowed();
	library();
	group_limit();
	return tap_done();
}
