// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * Host test: ncsync_add_core_barrier() (Documentation/ncsync/barriers.rst,
 * "The core barrier"): an all-engine barrier on every stream, the lowest
 * engine's arrival on every core of the logical core (a DMA record with a
 * peer update each), its wait for lnc arrivals and their take, a second
 * all-engine barrier; the records pass the kernel's rules; every refusal
 * leaves the streams as they were.
 */
#include <errno.h>
#include <string.h>

#include "ncsync.h"
#include "tap.h"

#define SEM	20

/* The one wait, or update, of a record whichever lane it is in. */
#define W(v) ((v).wait[(v).wait[0].active ? 0 : 1])
#define U(v) ((v).update[(v).update[0].active ? 0 : 1])

/* A program of @n engines (Pool first), each with one NoOp. */
static struct ncsync_program *build(unsigned int n)
{
	static const uint8_t eng[] = {
		NCSYNC_ENGINE_POOL, NCSYNC_ENGINE_ACT, NCSYNC_ENGINE_PE,
		NCSYNC_ENGINE_DVE, NCSYNC_ENGINE_SP,
	};
	struct ncsync_program *p;
	struct ncsync_stream *s;
	unsigned int k;

	if (ncsync_program_new(&p))
		return NULL;
	for (k = 0; k < n; k++)
		if (ncsync_program_stream(p, eng[k], &s) ||
		    ncsync_add_nop(s, NULL) < 0)
			return NULL;
	return p;
}

/* The records of an all-engine barrier on @s from @i: a Drain arrival. */
static bool has_drain(struct ncsync_stream *s, uint32_t from, uint32_t to)
{
	for (; from < to; from++)
		if (ncsync_stream_peek(s, from)[0] == NCSYNC_OPC_DRAIN)
			return true;
	return false;
}

/*
 * Pool's part: lnc peer DMA arrivals on SEM (the word at 4 x p onto itself:
 * no two touch a common byte), wait >= lnc, take lnc.
 */
static bool pool_part(struct ncsync_stream *s, unsigned int lnc,
		      uint32_t *first)
{
	struct ncsync_record_view v;
	uint32_t i, n = ncsync_stream_count(s);
	unsigned int p = 0;

	for (i = 0; i < n; i++)
		if (ncsync_stream_peek(s, i)[0] == NCSYNC_OPC_DMA)
			break;
	*first = i;
	for (; i < n && p < lnc; i++, p++) {
		const uint8_t *r = ncsync_stream_peek(s, i);

		if (ncsync_record_view(r, n, &v) || v.opcode != NCSYNC_OPC_DMA ||
		    !(r[NCSYNC_REC_DMA_FLAGS] & NCSYNC_DMA_F_PEER) ||
		    r[NCSYNC_REC_DMA_PEER] != p || v.dma_src != 4 * p ||
		    v.dma_dst != 4 * p || v.dma_len != 4 || !U(v).active || !U(v).on_land ||
		    U(v).index != SEM || U(v).op != NCSYNC_UPDATE_SEM_ADD ||
		    U(v).operand != 1)
			return false;
	}
	if (p != lnc || i + 2 > n ||
	    ncsync_record_view(ncsync_stream_peek(s, i), n, &v) ||
	    !W(v).active || W(v).index != SEM ||
	    W(v).mode != NCSYNC_WAIT_SEM_GE || W(v).value != lnc)
		return false;
	return !ncsync_record_view(ncsync_stream_peek(s, i + 1), n, &v) &&
	       U(v).active && U(v).index == SEM &&
	       U(v).op == NCSYNC_UPDATE_SEM_SUB && U(v).operand == lnc;
}

static void shape(unsigned int lnc)
{
	struct ncsync_program *p = build(5);
	struct ncsync_stream *pool, *act;
	uint32_t first = 0;
	bool ok;

	ok = p && !ncsync_add_core_barrier(p, SEM, lnc);
	pool = ncsync_program_find_stream(p, NCSYNC_ENGINE_POOL);
	act = ncsync_program_find_stream(p, NCSYNC_ENGINE_ACT);
	TAP_CHECK(ok && pool_part(pool, lnc, &first),
		  "lnc %u: Pool arrives on every core and takes lnc", lnc);
	TAP_CHECK(ok && has_drain(pool, 1, first) &&
		  has_drain(pool, first, ncsync_stream_count(pool)),
		  "lnc %u: an all-engine barrier before and after", lnc);
	ok = ok && !has_drain(act, 0, 1);
	TAP_CHECK(ok && ncsync_stream_count(act) > 1 &&
		  ncsync_stream_count(act) < ncsync_stream_count(pool) &&
		  !ncsync_program_finalize(p),
		  "lnc %u: the other engines only meet; it finalizes", lnc);
	ncsync_program_free(p);
}

/* A refusal with @err, the streams as they were. */
static void refused(struct ncsync_program *p, uint8_t sem, unsigned int lnc,
		    int err, const char *what)
{
	struct ncsync_stream *s = ncsync_program_find_stream(p,
							     NCSYNC_ENGINE_POOL);
	uint32_t n = s ? ncsync_stream_count(s) : 0;

	TAP_CHECK(ncsync_add_core_barrier(p, sem, lnc) == err &&
		  (!s || ncsync_stream_count(s) == n), "%s", what);
}

static void errors(void)
{
	struct ncsync_program *p = build(2), *empty;

	ncsync_program_new(&empty);
	refused(NULL, SEM, 2, -EINVAL, "a NULL program: EINVAL");
	refused(empty, SEM, 2, -EINVAL, "a program without streams: EINVAL");
	refused(p, SEM, 0, -EINVAL, "lnc 0: EINVAL, nothing added");
	refused(p, SEM, NCSYNC_MAX_LNC + 1, -EINVAL,
		"lnc above NCSYNC_MAX_LNC: EINVAL, nothing added");
	refused(p, 240, 2, -EINVAL,
		"a semaphore of the reserved slice: EINVAL, nothing added");
	TAP_CHECK(!ncsync_add_core_barrier(p, SEM, NCSYNC_MAX_LNC),
		  "lnc NCSYNC_MAX_LNC is taken");
	TAP_CHECK(!ncsync_program_finalize(p), "and finalizes");
	refused(p, SEM, 2, -EBUSY, "after finalization: EBUSY, nothing added");
	ncsync_program_free(p);
	ncsync_program_free(empty);
}

int main(void)
{
	shape(1);
	shape(2);
	shape(4);
	errors();
	return tap_done();
}
