/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The selftests' record encoder: 64-byte records written byte by byte at
 * the offsets of Documentation/ncsync/records.rst, and a small builder of
 * programs (one growing queue of records per engine) with their
 * submission.
 *
 * It is an oracle of the record bytes, independent of the module and of
 * libncsync: it takes nothing from common/ or lib/, only the offsets and
 * values <linux/ncsync.h> declares, and the assertions below pin each of
 * them to the value records.rst (and the seeds behind it) gives, so that
 * a change of the ABI header cannot silently change what the selftests
 * submit.
 *
 * enc_*() write a whole record into @r; rec_*() append one to a queue and
 * return its bytes, valid until the next record is appended.
 */
#ifndef NCSYNC_REC_H
#define NCSYNC_REC_H

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

#include <linux/ncsync.h>

#define REC_SIZE	64	/* records.rst, Conventions */

/* Each offset and value used below, as records.rst gives it. */
_Static_assert(NCSYNC_RECORD_SIZE == 64 && NCSYNC_RECORD_WORDLEN == 0x10,
	       "records.rst, The header");
_Static_assert(NCSYNC_OPC_EVENT_SEMAPHORE == 0xA0 && NCSYNC_OPC_HALT == 0xA1 &&
	       NCSYNC_OPC_DRAIN == 0xA2 && NCSYNC_OPC_NOOP == 0xA4 &&
	       NCSYNC_OPC_MOV32 == 0xA7 && NCSYNC_OPC_BRANCH == 0xA9 &&
	       NCSYNC_OPC_GROUP_RESET == 0xB0 && NCSYNC_OPC_POLL_SEM == 0xB3 &&
	       NCSYNC_OPC_EXIT == 0xDF && NCSYNC_OPC_DMA == 0xE0 &&
	       NCSYNC_OPC_ENGINE_NOP == 0x9F && NCSYNC_OPC_BR_HINT == 0xE1,
	       "records.rst, Opcodes");
_Static_assert(NCSYNC_REC_EV_WAIT_MODE == 4 && NCSYNC_REC_EV_WAIT_IDX == 5 &&
	       NCSYNC_REC_EV_UPD_MODE == 6 && NCSYNC_REC_EV_UPD_IDX == 7 &&
	       NCSYNC_REC_EV_VALUE == 8, "records.rst, The events block");
_Static_assert(NCSYNC_REC_EX_WAIT_MODE == 0x20 &&
	       NCSYNC_REC_EX_WAIT_IDX == 0x21 &&
	       NCSYNC_REC_EX_UPD_MODE == 0x22 &&
	       NCSYNC_REC_EX_UPD_IDX == 0x23 &&
	       NCSYNC_REC_EX_WAIT_VALUE == 0x24 &&
	       NCSYNC_REC_EX_UPD_VALUE == 0x28,
	       "records.rst, The extended block");
_Static_assert(!NCSYNC_WAIT_NONE && NCSYNC_WAIT_SEM_EQ == 1 &&
	       NCSYNC_WAIT_SEM_GT == 4 && NCSYNC_WAIT_SEM_GE == 5 &&
	       NCSYNC_WAIT_REG == 0x80, "records.rst, Wait modes");
_Static_assert(!NCSYNC_UPD_NONE && NCSYNC_UPD_SEM_INC == 3 &&
	       NCSYNC_UPD_SEM_DEC == 4 && NCSYNC_UPD_COMPLETE == 0x10 &&
	       NCSYNC_UPD_REG == 0x80, "records.rst, Update modes");
_Static_assert(NCSYNC_REC_DRAIN_COUNT == 0x28, "records.rst, Drain");
_Static_assert(NCSYNC_REC_MOV_ALU == 0x0C && NCSYNC_REC_MOV_DST == 0x0D &&
	       NCSYNC_REC_MOV_SRC == 0x0E && NCSYNC_REC_MOV_IMM == 0x10,
	       "records.rst, Mov32");
_Static_assert(NCSYNC_REC_BR_COMP_OP == 0x0C && NCSYNC_REC_BR_DTYPE == 0x0D &&
	       NCSYNC_REC_BR_OPERAND_KIND == 0x0E &&
	       NCSYNC_REC_BR_IMM == 0x10 && NCSYNC_REC_BR_LHS_REG == 0x20 &&
	       NCSYNC_REC_BR_RHS_REG == 0x21 && NCSYNC_REC_BR_TARGET == 0x30 &&
	       !NCSYNC_BR_ALWAYS && NCSYNC_BR_OPERANDS == 3,
	       "records.rst, Branch");
_Static_assert(NCSYNC_REC_HINT_OFFSET == 0x10, "records.rst, BranchHint");
_Static_assert(NCSYNC_REC_GR_CLEAR_MODE == 0x0C &&
	       NCSYNC_REC_GR_FIRST == 0x0D && NCSYNC_REC_GR_LAST == 0x0E &&
	       NCSYNC_REC_GR_MASK == 0x20 && NCSYNC_CLEAR_RANGE == 1 &&
	       NCSYNC_CLEAR_MASK == 2, "records.rst, GroupResetSemaphores");
_Static_assert(NCSYNC_REC_POLL_OP == 0x0C && NCSYNC_REC_POLL_DST == 0x0D &&
	       NCSYNC_REC_POLL_FIRST == 0x0E && NCSYNC_REC_POLL_COUNT == 0x0F &&
	       NCSYNC_REC_POLL_WRITEBACK == 0x10 && !NCSYNC_POLL_WB_NONE &&
	       NCSYNC_POLL_WB_NONZERO == 1, "records.rst, PollSem");
_Static_assert(NCSYNC_REC_DMA_SRC == 0x10 && NCSYNC_REC_DMA_DST == 0x18 &&
	       NCSYNC_REC_DMA_LEN == 0x20 && NCSYNC_REC_DMA_LATENCY_US == 0x24 &&
	       NCSYNC_REC_DMA_FLAGS == 0x0C && NCSYNC_REC_DMA_PEER == 0x0D &&
	       NCSYNC_DMA_F_PEER == 0x01,
	       "records.rst, DMA");

/* ---------------------------------------------------------------------- */
/* Fields                                                                  */

/* "Conventions": little-endian u32 and u64 at byte @off. */
static inline void rec_put32(__u8 *r, unsigned int off, __u32 v)
{
	r[off] = v;
	r[off + 1] = v >> 8;
	r[off + 2] = v >> 16;
	r[off + 3] = v >> 24;
}

static inline void rec_put64(__u8 *r, unsigned int off, __u64 v)
{
	rec_put32(r, off, (__u32)v);
	rec_put32(r, off + 4, (__u32)(v >> 32));
}

/* "The header": the opcode, 0x10, then zero (SYNC "The header stamp"). */
static inline __u8 *enc_header(__u8 *r, __u8 opcode)
{
	memset(r, 0, REC_SIZE);
	r[0] = opcode;
	r[1] = NCSYNC_RECORD_WORDLEN;
	return r;
}

/* The events block (lane 0, ENC 8): one value for the wait and the update. */
static inline void rec_lane0(__u8 *r, __u8 wmode, __u8 widx, __u8 umode,
			     __u8 uidx, __u32 value)
{
	r[NCSYNC_REC_EV_WAIT_MODE] = wmode;
	r[NCSYNC_REC_EV_WAIT_IDX] = widx;
	r[NCSYNC_REC_EV_UPD_MODE] = umode;
	r[NCSYNC_REC_EV_UPD_IDX] = uidx;
	rec_put32(r, NCSYNC_REC_EV_VALUE, value);
}

/* The extended block (lane 1, EventSemaphore only): a value for each. */
static inline void rec_lane1(__u8 *r, __u8 wmode, __u8 widx, __u8 umode,
			     __u8 uidx, __u32 wval, __u32 uval)
{
	r[NCSYNC_REC_EX_WAIT_MODE] = wmode;
	r[NCSYNC_REC_EX_WAIT_IDX] = widx;
	r[NCSYNC_REC_EX_UPD_MODE] = umode;
	r[NCSYNC_REC_EX_UPD_IDX] = uidx;
	rec_put32(r, NCSYNC_REC_EX_WAIT_VALUE, wval);
	rec_put32(r, NCSYNC_REC_EX_UPD_VALUE, uval);
}

/* ---------------------------------------------------------------------- */
/* Whole records: each enc_*() writes all 64 bytes and returns @r          */

/* NoOp (ENC 5c): only the events block. */
static inline __u8 *enc_noop(__u8 *r, __u8 wmode, __u8 widx, __u8 umode,
			     __u8 uidx, __u32 value)
{
	enc_header(r, NCSYNC_OPC_NOOP);
	rec_lane0(r, wmode, widx, umode, uidx, value);
	return r;
}

/* EventSemaphore: lane-1 wait @wmode of @sem against @thr, then +1 of @inc. */
static inline __u8 *enc_wait_then_inc(__u8 *r, __u8 wmode, __u8 sem,
				      __u32 thr, __u8 inc)
{
	enc_header(r, NCSYNC_OPC_EVENT_SEMAPHORE);
	rec_lane1(r, wmode, sem, NCSYNC_UPD_COMPLETE | NCSYNC_UPD_SEM_INC, inc,
		  thr, 1);
	return r;
}

/* EventSemaphore with only a lane-1 +1 (0x13, operand 1) of @sem. */
static inline __u8 *enc_inc(__u8 *r, __u8 sem)
{
	return enc_wait_then_inc(r, NCSYNC_WAIT_NONE, 0, 0, sem);
}

/*
 * The runtime's add_semaphore_wait_eq_and_inc (SYNC "The unified
 * EventSemaphore field map"): lane 1 waits @sem == @thr, then +1 of @sem.
 */
static inline __u8 *enc_wait_eq_and_inc(__u8 *r, __u8 sem, __u32 thr)
{
	return enc_wait_then_inc(r, NCSYNC_WAIT_SEM_EQ, sem, thr, sem);
}

/* add_semaphore_wait (SYNC, "CORRECTION"): lane 1 waits @sem > 0, then -1. */
static inline __u8 *enc_sem_wait_dec(__u8 *r, __u8 sem)
{
	enc_header(r, NCSYNC_OPC_EVENT_SEMAPHORE);
	rec_lane1(r, NCSYNC_WAIT_SEM_GT, sem,
		  NCSYNC_UPD_COMPLETE | NCSYNC_UPD_SEM_DEC, sem, 0, 1);
	return r;
}

/* Halt (ENC 5a) and Exit (ENC 7c): nothing but the events block. */
static inline __u8 *enc_halt(__u8 *r)
{
	return enc_header(r, NCSYNC_OPC_HALT);
}

static inline __u8 *enc_exit(__u8 *r)
{
	return enc_header(r, NCSYNC_OPC_EXIT);
}

/* Drain: count 1, a full drain (ENC 5b). */
static inline __u8 *enc_drain(__u8 *r)
{
	enc_header(r, NCSYNC_OPC_DRAIN);
	r[NCSYNC_REC_DRAIN_COUNT] = 1;
	return r;
}

/* Mov32 (model-defined): dst = alu(dst, src or imm). */
static inline __u8 *enc_mov(__u8 *r, __u8 alu, __u8 dst, __u8 src,
			    __u32 imm)
{
	enc_header(r, NCSYNC_OPC_MOV32);
	r[NCSYNC_REC_MOV_ALU] = alu;
	r[NCSYNC_REC_MOV_DST] = dst;
	r[NCSYNC_REC_MOV_SRC] = src;
	rec_put32(r, NCSYNC_REC_MOV_IMM, imm);
	return r;
}

/*
 * Branch (ENC 3, 4) to record @target of the queue: comparison 0 is
 * "always", with every operand field zero; any other comparison takes
 * operand kind 3, the dtype, the registers and the immediate.
 */
static inline __u8 *enc_branch(__u8 *r, __u8 comp, __u8 dtype, __u8 lhs,
			       __u8 rhs, __u32 imm, __u64 target)
{
	enc_header(r, NCSYNC_OPC_BRANCH);
	r[NCSYNC_REC_BR_COMP_OP] = comp;
	if (comp) {
		r[NCSYNC_REC_BR_DTYPE] = dtype;
		r[NCSYNC_REC_BR_OPERAND_KIND] = NCSYNC_BR_OPERANDS;
		r[NCSYNC_REC_BR_LHS_REG] = lhs;
		r[NCSYNC_REC_BR_RHS_REG] = rhs;
		rec_put32(r, NCSYNC_REC_BR_IMM, imm);
	}
	rec_put64(r, NCSYNC_REC_BR_TARGET, target);
	return r;
}

static inline __u8 *enc_jump(__u8 *r, __u64 target)
{
	return enc_branch(r, NCSYNC_BR_ALWAYS, 0, 0, 0, 0, target);
}

/*
 * BranchHint (records.rst, "BranchHint (0xE1)"): its target @offset
 * records from itself, signed, at +0x10; the events block as a NoOp's.
 */
static inline __u8 *enc_br_hint(__u8 *r, __s32 offset)
{
	enc_header(r, NCSYNC_OPC_BR_HINT);
	rec_put32(r, NCSYNC_REC_HINT_OFFSET, (__u32)offset);
	return r;
}

/* GroupResetSemaphores, ClearMode 1: semaphores @first .. @last. */
static inline __u8 *enc_gr_range(__u8 *r, __u8 first, __u8 last)
{
	enc_header(r, NCSYNC_OPC_GROUP_RESET);
	r[NCSYNC_REC_GR_CLEAR_MODE] = NCSYNC_CLEAR_RANGE;
	r[NCSYNC_REC_GR_FIRST] = first;
	r[NCSYNC_REC_GR_LAST] = last;
	return r;
}

/* GroupResetSemaphores, ClearMode 2: the @n semaphores of @sems. */
static inline __u8 *enc_gr_mask(__u8 *r, const __u8 *sems, unsigned int n)
{
	unsigned int i;

	enc_header(r, NCSYNC_OPC_GROUP_RESET);
	r[NCSYNC_REC_GR_CLEAR_MODE] = NCSYNC_CLEAR_MASK;
	for (i = 0; i < n; i++)
		r[NCSYNC_REC_GR_MASK + sems[i] / 8] |= 1 << (sems[i] % 8);
	return r;
}

/* PollSem (model-defined): dst = op(sem[first] .. sem[first + count - 1]). */
static inline __u8 *enc_poll(__u8 *r, __u8 op, __u8 dst, __u8 first,
			     __u8 count)
{
	enc_header(r, NCSYNC_OPC_POLL_SEM);
	r[NCSYNC_REC_POLL_OP] = op;
	r[NCSYNC_REC_POLL_DST] = dst;
	r[NCSYNC_REC_POLL_FIRST] = first;
	r[NCSYNC_REC_POLL_COUNT] = count;
	return r;
}

/*
 * DMA (model-defined): copy @len bytes of device memory from @src to @dst
 * in @latency_us; the lane-0 update @umode of @uidx is the completion,
 * applied when the copy lands.
 */
static inline __u8 *enc_dma(__u8 *r, __u64 src, __u64 dst, __u32 len,
			    __u32 latency_us, __u8 umode, __u8 uidx)
{
	enc_header(r, NCSYNC_OPC_DMA);
	r[NCSYNC_REC_EV_UPD_MODE] = umode;
	r[NCSYNC_REC_EV_UPD_IDX] = uidx;
	rec_put64(r, NCSYNC_REC_DMA_SRC, src);
	rec_put64(r, NCSYNC_REC_DMA_DST, dst);
	rec_put32(r, NCSYNC_REC_DMA_LEN, len);
	rec_put32(r, NCSYNC_REC_DMA_LATENCY_US, latency_us);
	return r;
}

/*
 * The same copy, its completion landing on the core at position @peer of
 * the logical core (flag 0x01 at +0x0C, the position at +0x0D).
 */
static inline __u8 *enc_dma_peer(__u8 *r, __u8 peer, __u64 src, __u64 dst,
				 __u32 len, __u32 latency_us, __u8 umode,
				 __u8 uidx)
{
	enc_dma(r, src, dst, len, latency_us, umode, uidx);
	r[0x0C] = 0x01;
	r[0x0D] = peer;
	return r;
}

/* ---------------------------------------------------------------------- */
/* Programs                                                                */

/* One engine's queue of a program under construction. */
struct rec_queue {
	__u8 engine;
	__u32 n;
	__u32 cap;
	__u8 (*r)[REC_SIZE];
};

struct rec_prog {
	unsigned int nq;
	struct rec_queue q[NCSYNC_NUM_ENGINES];
};

/* A new, empty queue of @engine, after the queues @p has. */
static inline struct rec_queue *rec_prog_queue(struct rec_prog *p,
					       __u8 engine)
{
	struct rec_queue *q = &p->q[p->nq++];

	memset(q, 0, sizeof(*q));
	q->engine = engine;
	return q;
}

/* Free the records of @p and empty it. */
static inline void rec_prog_free(struct rec_prog *p)
{
	unsigned int i;

	for (i = 0; i < p->nq; i++)
		free(p->q[i].r);
	memset(p, 0, sizeof(*p));
}

/*
 * Append a record with the header of @opcode, otherwise zero (abort when
 * out of memory).  Return: its bytes, valid until the next append.
 */
static inline __u8 *rec_emit(struct rec_queue *q, __u8 opcode)
{
	if (q->n == q->cap) {
		q->cap = q->cap ? 2 * q->cap : 16;
		q->r = realloc(q->r, (size_t)q->cap * REC_SIZE);
		if (!q->r)
			abort();
	}
	return enc_header(q->r[q->n++], opcode);
}

/*
 * NCSYNC_IOC_SUBMIT of @p with @flags and watchdog @wd, naming the
 * descriptors @fds of the other cores its completions land on (@nfds 0:
 * none); @sub receives what the ioctl wrote back.  Return: 0 or -errno.
 */
static inline int rec_prog_submit_fds(int fd, const struct rec_prog *p,
				      __u32 flags, __u32 wd, const int *fds,
				      unsigned int nfds,
				      struct ncsync_submit *sub)
{
	struct ncsync_queue uq[NCSYNC_NUM_ENGINES];
	unsigned int i;

	memset(uq, 0, sizeof(uq));
	for (i = 0; i < p->nq; i++) {
		uq[i].records = (uintptr_t)p->q[i].r;
		uq[i].count = p->q[i].n;
		uq[i].engine = p->q[i].engine;
	}
	memset(sub, 0, sizeof(*sub));
	sub->queues = (uintptr_t)uq;
	sub->nqueues = p->nq;
	sub->flags = flags;
	sub->watchdog_ms = wd;
	sub->fds = (uintptr_t)fds;
	sub->nfds = nfds;
	return ioctl(fd, NCSYNC_IOC_SUBMIT, sub) ? -errno : 0;
}

/* rec_prog_submit_fds() naming no other core. */
static inline int rec_prog_submit(int fd, const struct rec_prog *p,
				  __u32 flags, __u32 wd,
				  struct ncsync_submit *sub)
{
	return rec_prog_submit_fds(fd, p, flags, wd, NULL, 0, sub);
}

/*
 * The same records appended to queue @q: each returns the record's bytes,
 * valid until the next append.
 */
static inline __u8 *rec_evsem(struct rec_queue *q)
{
	return rec_emit(q, NCSYNC_OPC_EVENT_SEMAPHORE);
}

static inline __u8 *rec_halt(struct rec_queue *q)
{
	return enc_halt(rec_emit(q, 0));
}

static inline __u8 *rec_exit(struct rec_queue *q)
{
	return enc_exit(rec_emit(q, 0));
}

static inline __u8 *rec_noop(struct rec_queue *q, __u8 wmode, __u8 widx,
			     __u8 umode, __u8 uidx, __u32 value)
{
	return enc_noop(rec_emit(q, 0), wmode, widx, umode, uidx, value);
}

static inline __u8 *rec_wait_then_inc(struct rec_queue *q, __u8 wmode,
				      __u8 sem, __u32 thr, __u8 inc)
{
	return enc_wait_then_inc(rec_emit(q, 0), wmode, sem, thr, inc);
}

static inline __u8 *rec_inc(struct rec_queue *q, __u8 sem)
{
	return enc_inc(rec_emit(q, 0), sem);
}

static inline __u8 *rec_wait_eq_and_inc(struct rec_queue *q, __u8 sem,
					__u32 thr)
{
	return enc_wait_eq_and_inc(rec_emit(q, 0), sem, thr);
}

static inline __u8 *rec_sem_wait_dec(struct rec_queue *q, __u8 sem)
{
	return enc_sem_wait_dec(rec_emit(q, 0), sem);
}

static inline __u8 *rec_drain(struct rec_queue *q)
{
	return enc_drain(rec_emit(q, 0));
}

static inline __u8 *rec_mov(struct rec_queue *q, __u8 alu, __u8 dst,
			    __u8 src, __u32 imm)
{
	return enc_mov(rec_emit(q, 0), alu, dst, src, imm);
}

static inline __u8 *rec_br(struct rec_queue *q, __u8 comp, __u8 dtype,
			   __u8 lhs, __u8 rhs, __u32 imm, __u64 target)
{
	return enc_branch(rec_emit(q, 0), comp, dtype, lhs, rhs, imm, target);
}

static inline __u8 *rec_jmp(struct rec_queue *q, __u64 target)
{
	return enc_jump(rec_emit(q, 0), target);
}

/* Point the branch at record @at of @q to @target. */
static inline void rec_set_target(struct rec_queue *q, __u32 at,
				  __u64 target)
{
	rec_put64(q->r[at], NCSYNC_REC_BR_TARGET, target);
}

static inline __u8 *rec_gr_range(struct rec_queue *q, __u8 first, __u8 last)
{
	return enc_gr_range(rec_emit(q, 0), first, last);
}

static inline __u8 *rec_gr_mask(struct rec_queue *q, const __u8 *sems,
				unsigned int n)
{
	return enc_gr_mask(rec_emit(q, 0), sems, n);
}

static inline __u8 *rec_poll(struct rec_queue *q, __u8 op, __u8 dst,
			     __u8 first, __u8 count)
{
	return enc_poll(rec_emit(q, 0), op, dst, first, count);
}

/* PollSem min with the write-back of a nonzero minimum to the range. */
static inline __u8 *rec_poll_writeback(struct rec_queue *q, __u8 dst,
				       __u8 first, __u8 count)
{
	__u8 *r = enc_poll(rec_emit(q, 0), NCSYNC_POLL_MIN, dst, first, count);

	r[NCSYNC_REC_POLL_WRITEBACK] = NCSYNC_POLL_WB_NONZERO;
	return r;
}

static inline __u8 *rec_dma(struct rec_queue *q, __u64 src, __u64 dst,
			    __u32 len, __u32 latency_us, __u8 umode,
			    __u8 uidx)
{
	return enc_dma(rec_emit(q, 0), src, dst, len, latency_us, umode, uidx);
}

static inline __u8 *rec_dma_peer(struct rec_queue *q, __u8 peer, __u64 src,
				 __u64 dst, __u32 len, __u32 latency_us,
				 __u8 umode, __u8 uidx)
{
	return enc_dma_peer(rec_emit(q, 0), peer, src, dst, len, latency_us,
			    umode, uidx);
}

#endif /* NCSYNC_REC_H */
