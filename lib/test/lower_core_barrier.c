// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * Host test: the lowering of raw CoreBarrier records (0xD8,
 * Documentation/ncsync/barriers.rst, "The core barrier"): one on every
 * stream lowers, byte for byte, to what ncsync_add_core_barrier() emits
 * for the program's lnc (ncsync_program_set_lnc(), default 1), its
 * events block split around it; every refusal names its reason and
 * leaves the program as it was; the lower_control fence has its core
 * barrier leg when the lnc is above 1.
 */
#include "asm_test.h"

#define SEM	20

static const uint8_t eng[] = {
	NCSYNC_ENGINE_POOL, NCSYNC_ENGINE_ACT, NCSYNC_ENGINE_PE,
	NCSYNC_ENGINE_DVE, NCSYNC_ENGINE_SP,
};

/* A 0xD8 written byte by byte (ENC 6d): id at +0x0C, semaphore at +0x10. */
static void d8(uint8_t *r, uint8_t sem, uint32_t id)
{
	t_rec(r, 0xD8);
	t_put32(r + 0x0C, id);
	r[0x10] = sem;
}

/* A program of @n engines from @first, each with one NoOp. */
static struct ncsync_program *build(unsigned int first, unsigned int n)
{
	struct ncsync_program *p;
	struct ncsync_stream *s;
	unsigned int k;

	if (ncsync_program_new(&p))
		return NULL;
	for (k = first; k < first + n; k++)
		if (ncsync_program_stream(p, eng[k], &s) ||
		    ncsync_add_nop(s, NULL) < 0)
			return NULL;
	return p;
}

/* @rec on every stream of @p. */
static bool put_all(struct ncsync_program *p, const uint8_t *rec)
{
	unsigned int e;

	for (e = 0; e < 8; e++) {
		struct ncsync_stream *s = ncsync_program_find_stream(p, e);

		if (s && ncsync_add_raw(s, rec) < 0)
			return false;
	}
	return true;
}

/* Peer DMA records of @p's stream of @engine. */
static unsigned int peer_dmas(struct ncsync_program *p, uint8_t engine)
{
	struct ncsync_stream *s = ncsync_program_find_stream(p, engine);
	unsigned int n = 0;
	uint32_t i;

	for (i = 0; i < ncsync_stream_count(s); i++) {
		const uint8_t *r = ncsync_stream_peek(s, i);

		n += r[0] == NCSYNC_OPC_DMA &&
		     (r[NCSYNC_REC_DMA_FLAGS] & NCSYNC_DMA_F_PEER);
	}
	return n;
}

/*
 * @n engines from @first, lnc @lnc (0: not set): two raw 0xD8 around a
 * 0xD5, then a NoOp, against the builder's core barriers around
 * ncsync_add_all_engine_barrier(); lowered in form @how.
 */
static void bytes(unsigned int first, unsigned int n, unsigned int lnc,
		  enum ncsync_barrier_lowering how)
{
	struct ncsync_program *a = build(first, n), *b = build(first, n);
	uint8_t rec[NCSYNC_RECORD_SIZE], nop[NCSYNC_RECORD_SIZE] = { 0xA4, 0x10 };
	bool ok;

	d8(rec, SEM, 0);
	ok = a && b && (!lnc || !ncsync_program_set_lnc(a, lnc)) &&
	     put_all(a, rec) && !ncsync_add_all_engine_barrier(a, NULL) &&
	     put_all(a, rec) && put_all(a, nop) &&
	     !ncsync_add_core_barrier(b, SEM, lnc ? lnc : 1) &&
	     !ncsync_add_all_engine_barrier(b, NULL) &&
	     !ncsync_add_core_barrier(b, SEM, lnc ? lnc : 1) &&
	     put_all(b, nop);
	ok = ok && !ncsync_program_lower(a, how) &&
	     !ncsync_program_lower(b, how) && !ncsync_program_finalize(a) &&
	     !ncsync_program_finalize(b);
	TAP_CHECK(ok && t_same_program(a, b) &&
		  peer_dmas(a, eng[first]) == 2 * (lnc ? lnc : 1) &&
		  (n < 2 || !peer_dmas(a, eng[first + 1])),
		  "%u engines, lnc %u%s, %s form: raw 0xD8 lowered to the "
		  "builder's bytes", n, lnc ? lnc : 1, lnc ? "" : " (default)",
		  how == NCSYNC_LOWER_EVENTS ? "event" : "counter");
	ncsync_program_free(a);
	ncsync_program_free(b);
}

/* The events block: its wait on a NoOp before, its update after. */
static void events(void)
{
	struct ncsync_program *a = build(0, 2), *b = build(0, 2);
	struct ncsync_events wait = {
		.wait_mode = NCSYNC_WAIT_SEM_GE, .wait_idx = 1, .value = 3,
	};
	struct ncsync_events upd = {
		.upd_mode = NCSYNC_UPD_COMPLETE | NCSYNC_UPD_SEM_ADD,
		.upd_idx = 2, .value = 3,
	};
	uint8_t rec[NCSYNC_RECORD_SIZE];
	unsigned int k;
	bool ok = a && b;

	d8(rec, SEM, 9);
	rec[NCSYNC_REC_EV_WAIT_MODE] = NCSYNC_WAIT_SEM_GE;
	rec[NCSYNC_REC_EV_WAIT_IDX] = 1;
	rec[NCSYNC_REC_EV_UPD_MODE] = NCSYNC_UPD_COMPLETE | NCSYNC_UPD_SEM_ADD;
	rec[NCSYNC_REC_EV_UPD_IDX] = 2;
	rec[NCSYNC_REC_EV_VALUE] = 3;
	ok = ok && !ncsync_program_set_lnc(a, 2) && put_all(a, rec);
	for (k = 0; ok && k < 2; k++)
		ok = ncsync_add_nop(ncsync_program_find_stream(b, eng[k]),
				    &wait) >= 0;
	ok = ok && !ncsync_add_core_barrier(b, SEM, 2);
	for (k = 0; ok && k < 2; k++)
		ok = ncsync_add_nop(ncsync_program_find_stream(b, eng[k]),
				    &upd) >= 0;
	TAP_CHECK(ok && !ncsync_program_finalize(a) &&
		  !ncsync_program_finalize(b) && t_same_program(a, b),
		  "events block: wait on a NoOp before, update on a NoOp "
		  "after, as the builder's around ncsync_add_core_barrier()");
	ncsync_program_free(a);
	ncsync_program_free(b);
}

/*
 * An events block that is the barrier's own (SYNC, "The resulting
 * per-engine 0xD5 bundle": +0x04 = 0x05 GE, +0x05 = S, +0x06 = 0x13 inc,
 * +0x07 = S, +0x08 = N): its update (the arrival) on a NoOp before the
 * core barrier, its wait (the release) on a NoOp after.
 */
static void own_block(void)
{
	struct ncsync_program *a = build(0, 2), *b = build(0, 2);
	struct ncsync_events arrive = {
		.upd_mode = NCSYNC_UPD_COMPLETE | NCSYNC_UPD_SEM_INC,
		.upd_idx = 30,
	};
	struct ncsync_events release = {
		.wait_mode = NCSYNC_WAIT_SEM_GE, .wait_idx = 30, .value = 2,
	};
	uint8_t rec[NCSYNC_RECORD_SIZE];
	unsigned int k;
	bool ok = a && b;

	d8(rec, SEM, 9);
	rec[NCSYNC_REC_EV_WAIT_MODE] = NCSYNC_WAIT_SEM_GE;
	rec[NCSYNC_REC_EV_WAIT_IDX] = 30;
	rec[NCSYNC_REC_EV_UPD_MODE] = NCSYNC_UPD_COMPLETE | NCSYNC_UPD_SEM_INC;
	rec[NCSYNC_REC_EV_UPD_IDX] = 30;
	rec[NCSYNC_REC_EV_VALUE] = 2;
	ok = ok && !ncsync_program_set_lnc(a, 2) && put_all(a, rec);
	for (k = 0; ok && k < 2; k++)
		ok = ncsync_add_nop(ncsync_program_find_stream(b, eng[k]),
				    &arrive) >= 0;
	ok = ok && !ncsync_add_core_barrier(b, SEM, 2);
	for (k = 0; ok && k < 2; k++)
		ok = ncsync_add_nop(ncsync_program_find_stream(b, eng[k]),
				    &release) >= 0;
	TAP_CHECK(ok && !ncsync_program_finalize(a) &&
		  !ncsync_program_finalize(b) && t_same_program(a, b),
		  "the barrier's own block: its arrival on a NoOp before, its "
		  "release after (SYNC: sem[S] += 1, released at sem[S] >= N)");
	ncsync_program_free(a);
	ncsync_program_free(b);
}

/* The lowering of @p fails with @err and a message with @msg, unchanged. */
static void refused(struct ncsync_program *p, int err, const char *msg,
		    const char *what)
{
	struct ncsync_stream *s = ncsync_program_find_stream(p, eng[0]);
	uint32_t n = ncsync_stream_count(s);
	uint8_t last[NCSYNC_RECORD_SIZE];
	const char *m;
	int ret;

	memcpy(last, ncsync_stream_peek(s, n - 1), NCSYNC_RECORD_SIZE);
	ret = ncsync_program_finalize(p);
	m = ncsync_program_lower_error(p);
	TAP_CHECK(ret == err && m && strstr(m, msg) &&
		  ncsync_stream_count(s) == n &&
		  !memcmp(last, ncsync_stream_peek(s, n - 1),
			  NCSYNC_RECORD_SIZE) &&
		  ncsync_add_nop(s, NULL) >= 0,
		  "%s: %d, '%s', nothing changed", what, ret, m ? m : "");
	ncsync_program_free(p);
}

/* Pool and Act, each with @pool and @act (NULL: nothing) after a NoOp. */
static struct ncsync_program *pair(const uint8_t *pool, const uint8_t *act)
{
	struct ncsync_program *p = build(0, 2);

	if (pool)
		ncsync_add_raw(ncsync_program_find_stream(p, eng[0]), pool);
	if (act)
		ncsync_add_raw(ncsync_program_find_stream(p, eng[1]), act);
	return p;
}

static void errors(void)
{
	uint8_t r[NCSYNC_RECORD_SIZE], o[NCSYNC_RECORD_SIZE];

	d8(r, SEM, 0);
	refused(pair(r, NULL), -EINVAL,
		"core_barrier on some engines only: core barrier 1 is on "
		"engine pool, not on engine act", "a 0xD8 on Pool only");
	refused(pair(NULL, r), -EINVAL,
		"core barrier 1 is on engine act, not on engine pool",
		"a 0xD8 on Act only");
	d8(o, SEM + 1, 0);
	refused(pair(r, o), -EINVAL,
		"core barrier 1: sem[20] id 0 on engine pool, sem[21] id 0 "
		"on engine act", "the engines disagree on the semaphore");
	d8(o, SEM, 4);
	refused(pair(r, o), -EINVAL, "sem[20] id 0 on engine pool, sem[20] "
		"id 4 on engine act", "the engines disagree on the id");
	d8(r, 240, 0);
	refused(pair(r, r), -EINVAL,
		"engine pool record 1: core_barrier sem[240] is in the "
		"reserved slice (240-255)", "a semaphore of the reserved slice");
	d8(r, SEM, 0);
	r[0x11] = 1;
	refused(pair(r, r), -EINVAL,
		"engine pool record 1: malformed core_barrier (0xd8): "
		"reserved byte not zero", "a byte after the semaphore");
	d8(r, SEM, 0);
	r[0x3F] = 1;
	refused(pair(r, r), -EINVAL, "reserved byte not zero",
		"the record's last byte");
	d8(r, SEM, 0);
	r[2] = 1;
	refused(pair(r, r), -EINVAL, "malformed core_barrier (0xd8): bad "
		"header", "a header byte");
	d8(r, SEM, 0);
	r[NCSYNC_REC_EV_WAIT_MODE] = 0x42;
	refused(pair(r, r), -EINVAL, "events block a NoOp cannot carry",
		"an events block a NoOp cannot carry");
	d8(r, SEM, 0);
	d8(o, SEM, 0);
	o[0x20] = 1;
	refused(pair(r, o), -EINVAL, "engine act record 1: malformed",
		"a malformed 0xD8 on the second engine");
}

static void set_lnc(void)
{
	struct ncsync_program *p = build(0, 1);
	uint8_t rec[NCSYNC_RECORD_SIZE];

	d8(rec, SEM, 0);
	TAP_CHECK(ncsync_program_set_lnc(NULL, 2) == -EINVAL,
		  "set_lnc: a NULL program: EINVAL");
	TAP_CHECK(ncsync_program_set_lnc(p, 0) == -EINVAL &&
		  ncsync_program_set_lnc(p, NCSYNC_MAX_LNC + 1) == -EINVAL,
		  "set_lnc: 0 and NCSYNC_MAX_LNC + 1: EINVAL");
	TAP_CHECK(ncsync_program_set_lnc(p, NCSYNC_MAX_LNC) == 0 &&
		  ncsync_program_set_lnc(p, 3) == 0,
		  "set_lnc: NCSYNC_MAX_LNC and 3 taken, the last one holds");
	TAP_CHECK(ncsync_add_core_barrier(p, SEM, 1) == 0 &&
		  put_all(p, rec) &&
		  ncsync_program_finalize(p) == 0 &&
		  peer_dmas(p, eng[0]) == 1 + 3,
		  "the 0xD8 lowered for lnc 3, the builder's for its own 1");
	TAP_CHECK(ncsync_program_set_lnc(p, 2) == -EBUSY,
		  "set_lnc after finalization: EBUSY");
	ncsync_program_free(p);
}

static uint32_t mask0(struct ncsync_program *p, uint8_t engine, uint32_t i)
{
	const uint8_t *r;

	r = ncsync_stream_peek(ncsync_program_find_stream(p, engine), i);
	return r[0] != NCSYNC_OPC_GROUP_RESET ? 0 :
	       r[NCSYNC_REC_GR_MASK] | r[NCSYNC_REC_GR_MASK + 1] << 8;
}

/* Record @i of @engine's stream is the fence leg's 0xD8 on @sem. */
static bool is_leg(struct ncsync_program *p, uint8_t engine, uint32_t i,
		   uint8_t sem)
{
	const uint8_t *r;
	uint8_t want[NCSYNC_RECORD_SIZE];

	r = ncsync_stream_peek(ncsync_program_find_stream(p, engine), i);
	d8(want, sem, 0);
	return r && !memcmp(r, want, NCSYNC_RECORD_SIZE);
}

/* The lower_control fence and its core barrier leg. */
static void fence(void)
{
	struct ncsync_program *a = build(0, 2), *b = build(0, 2);
	struct ncsync_stream *pool = ncsync_program_find_stream(a, eng[0]);
	bool ok;

	ok = ncsync_sem_alloc(a, 2) == 0 && !ncsync_program_set_lnc(a, 2) &&
	     !ncsync_add_lower_control_fence(a);
	TAP_CHECK(ok && ncsync_stream_count(pool) == 6 &&
		  ncsync_stream_peek(pool, 4)[0] == NCSYNC_OPC_DRAIN &&
		  is_leg(a, eng[0], 5, 2) && is_leg(a, eng[1], 5, 2) &&
		  mask0(a, eng[0], 2) == 1 && mask0(a, eng[1], 2) == 2,
		  "lnc 2: Barrier, Reset, Barrier, Drain, then a 0xD8 on a "
		  "semaphore it allocated (2), not in the resets");
	ok = !ncsync_add_lower_control_fence(a);
	TAP_CHECK(ok && ncsync_stream_count(pool) == 11 &&
		  is_leg(a, eng[0], 10, 2) && is_leg(a, eng[1], 10, 2) &&
		  mask0(a, eng[0], 7) == 1 && mask0(a, eng[1], 7) == 2 &&
		  ncsync_sem_alloc(a, 1) == 3 && !ncsync_sem_free(a, 3, 1),
		  "a second fence: the same semaphore, still not reset, "
		  "nothing more allocated");
	ncsync_program_free(a);

	a = build(0, 2);
	ok = ncsync_sem_alloc(a, 2) == 0 && !ncsync_program_set_lnc(a, 2) &&
	     !ncsync_add_lower_control_fence(a) &&
	     ncsync_sem_alloc(b, 2) == 0 &&
	     !ncsync_add_lower_control_fence(b) &&
	     ncsync_sem_alloc(b, 1) == 2 && !ncsync_add_core_barrier(b, 2, 2);
	TAP_CHECK(ok && !ncsync_program_finalize(a) &&
		  !ncsync_program_finalize(b) && t_same_program(a, b) &&
		  peer_dmas(a, eng[0]) == 2,
		  "lowered: the fence, then ncsync_add_core_barrier()'s bytes");
	ncsync_program_free(a);
	ncsync_program_free(b);

	a = build(0, 2);
	ok = !ncsync_program_set_lnc(a, 1) &&
	     !ncsync_add_lower_control_fence(a);
	pool = ncsync_program_find_stream(a, eng[0]);
	TAP_CHECK(ok && ncsync_stream_count(pool) == 4 &&
		  ncsync_sem_alloc(a, 1) == 0,
		  "lnc 1: no leg, nothing allocated");
	ncsync_program_free(a);

	a = build(0, 2);
	pool = ncsync_program_find_stream(a, eng[0]);
	ok = ncsync_sem_alloc(a, 240) == 0 && !ncsync_program_set_lnc(a, 2);
	TAP_CHECK(ok && ncsync_add_lower_control_fence(a) == -ENOSPC &&
		  ncsync_stream_count(pool) == 1,
		  "lnc 2, every semaphore allocated: ENOSPC, nothing added");
	ncsync_program_free(a);

	a = build(0, 2);
	ok = !ncsync_program_set_lnc(a, 2) && !ncsync_program_finalize(a);
	TAP_CHECK(ok && ncsync_add_lower_control_fence(a) == -EBUSY &&
		  ncsync_sem_alloc(a, 1) == 0,
		  "lnc 2, finalized: EBUSY, no semaphore taken");
	ncsync_program_free(a);
	ncsync_program_new(&a);
	ok = !ncsync_program_set_lnc(a, 2);
	TAP_CHECK(ok && ncsync_add_lower_control_fence(a) == -EINVAL &&
		  ncsync_sem_alloc(a, 1) == 0,
		  "lnc 2, no stream: EINVAL, no semaphore taken");
	ncsync_program_free(a);
}

int main(void)
{
	unsigned int lnc;

	for (lnc = 0; lnc <= 4; lnc++) {
		if (lnc == 3)
			continue;
		bytes(0, 5, lnc, NCSYNC_LOWER_COUNTER);
	}
	bytes(0, 1, 2, NCSYNC_LOWER_COUNTER);
	bytes(3, 2, 2, NCSYNC_LOWER_COUNTER);
	bytes(0, 5, 2, NCSYNC_LOWER_EVENTS);
	events();
	own_block();
	errors();
	set_lnc();
	fence();
	return tap_done();
}
