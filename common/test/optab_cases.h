/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Table-driven tests of the opcode table (common/ncsync_optab.h) and of the
 * effect function (common/ncsync_effect.h), run by the host test
 * (common/test/model_test.c) and by KUnit (kunit/ncsync_kunit.c).  For every
 * row of the table:
 *
 *   - random records of the opcode (random bytes in its layout and its
 *     lanes) that the decoder accepts encode back byte for byte, and a
 *     non-zero byte outside its layout is refused as a reserved byte;
 *     enough of them are accepted (a layout or a decoder that refuses
 *     everything fails);
 *   - its columns agree (optab_row_ok()): the flags with the effect, a
 *     pseudo-op has a lowering and no layout, the decoder copies the
 *     row's effect into the record;
 *   - a pseudo-op is refused by the decoder, an unmodelled opcode
 *     (NCSYNC_OPF_UNMODELLED) with NCSYNC_REC_UNMODELLED_OP whatever its
 *     bytes, any other row accepted;
 *   - on random states, ncsync_exec_op() of each accepted record reads
 *     exactly the semaphores of its footprint and writes only semaphores
 *     of it (a PollSem's write-back may write less), changes no register
 *     outside the footprint's writes, does not depend on a register
 *     outside its reads, touches no event, and uses the DMA ring and the
 *     control flow only as the row's flags say; each lane's wait and
 *     update touch only the semaphore or event they name.
 *
 * Freestanding: no libc.  optab_case_run(n, &why) runs row n and says what
 * failed.
 */
#ifndef _NCSYNC_OPTAB_CASES_H
#define _NCSYNC_OPTAB_CASES_H

#include "ncsync_effect.h"
#include "ncsync_optab.h"

#define OPTAB_TRIES	20000	/* random records tried per row */
#define OPTAB_WANT	40	/* of which at least this many accepted */
#define OPTAB_STATES	8	/* random states per accepted record */

static inline __u32 optab_rnd(__u32 *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

/*
 * A byte: zero but for one time in 16 / @density, then small or any, so
 * that some records of every density pass the decoder.
 */
static inline __u8 optab_byte(__u32 *s, __u32 density)
{
	if (optab_rnd(s) % 16 > density)
		return 0;
	if (optab_rnd(s) % 4)
		return optab_rnd(s) % 4;
	return optab_rnd(s);
}

static inline bool optab_named(const struct ncsync_span *l, unsigned int i)
{
	for (; l->last; l++)
		if (i >= l->first && i <= l->last)
			return true;
	return false;
}

/* A random record of row @d: header, events block, its layout. */
static inline void optab_record(const struct ncsync_opdesc *d, __u32 *s,
				__u8 *rec)
{
	__u32 density = optab_rnd(s) % 8;
	unsigned int i;

	for (i = 0; i < NCSYNC_RECORD_SIZE; i++)
		rec[i] = 0;
	rec[0] = d->opcode;
	rec[1] = NCSYNC_RECORD_WORDLEN;
	for (i = 4; i < NCSYNC_RECORD_SIZE; i++)
		if (i < 0x0C || (d->layout && optab_named(d->layout, i)))
			rec[i] = optab_byte(s, density);
}

/**
 * struct optab_bank - a bank that records what the effect touches.
 * @sems: the semaphores.
 * @events: the events.
 * @sem_read: semaphores read, one bit each.
 * @sem_write: semaphores written.
 * @ev_touched: events read or written.
 * @inflight: copies in flight.
 * @drained: drain_pass was called.
 * @issued: dma_issue was called.
 */
struct optab_bank {
	__s32 sems[NCSYNC_NUM_SEMS];
	bool events[NCSYNC_NUM_EVENTS];
	__u32 sem_read[NCSYNC_NUM_SEMS / 32];
	__u32 sem_write[NCSYNC_NUM_SEMS / 32];
	__u32 ev_touched[NCSYNC_NUM_EVENTS / 32];
	unsigned int inflight;
	bool drained;
	bool issued;
};

static inline __s32 optab_sem_read(void *ctx, unsigned int i)
{
	struct optab_bank *b = ctx;

	b->sem_read[i / 32] |= 1U << (i % 32);
	return b->sems[i];
}

static inline bool optab_sem_update(void *ctx, unsigned int i,
				    enum ncsync_sem_upd op, __u32 operand)
{
	struct optab_bank *b = ctx;
	bool ovf;

	b->sem_write[i / 32] |= 1U << (i % 32);
	b->sems[i] = ncsync_sem_apply(op, b->sems[i], operand, &ovf);
	return ovf;
}

static inline bool optab_event_read(void *ctx, unsigned int i)
{
	struct optab_bank *b = ctx;

	b->ev_touched[i / 32] |= 1U << (i % 32);
	return b->events[i];
}

static inline bool optab_event_write(void *ctx, unsigned int i, bool set)
{
	struct optab_bank *b = ctx;
	bool same = b->events[i] == set;

	b->ev_touched[i / 32] |= 1U << (i % 32);
	b->events[i] = set;
	return same;
}

static inline bool optab_drain_pass(void *ctx)
{
	struct optab_bank *b = ctx;

	b->drained = true;
	return !b->inflight;
}

static inline bool optab_dma_issue(void *ctx, const struct ncsync_insn *in)
{
	struct optab_bank *b = ctx;

	if (b->inflight >= 2)
		return false;
	b->issued = true;
	b->inflight++;
	return true;
}

static const struct ncsync_bank_ops optab_bank_ops = {
	.sem_read = optab_sem_read,
	.sem_update = optab_sem_update,
	.event_read = optab_event_read,
	.event_write = optab_event_write,
	.drain_pass = optab_drain_pass,
	.dma_issue = optab_dma_issue,
};

static inline void optab_bank_init(struct optab_bank *b, __u32 *s)
{
	unsigned int i;

	for (i = 0; i < sizeof(*b); i++)
		((__u8 *)b)[i] = 0;
	for (i = 0; i < NCSYNC_NUM_SEMS; i++)
		b->sems[i] = (__s32)(optab_rnd(s) % 5) - 1;
	for (i = 0; i < NCSYNC_NUM_EVENTS; i++)
		b->events[i] = optab_rnd(s) & 1;
	b->inflight = optab_rnd(s) % 3;
}

static inline bool optab_masks_equal(const __u32 *a, const __u32 *b,
				     unsigned int words)
{
	unsigned int i;

	for (i = 0; i < words; i++)
		if (a[i] != b[i])
			return false;
	return true;
}

static inline bool optab_masks_zero(const __u32 *a, unsigned int words)
{
	unsigned int i;

	for (i = 0; i < words; i++)
		if (a[i])
			return false;
	return true;
}

/* Whether the step the effect returned is one the row's flags allow. */
static inline bool optab_step_ok(const struct ncsync_opdesc *d,
				 enum ncsync_op_step step)
{
	switch (step) {
	case NCSYNC_OP_NEXT:
		return true;
	case NCSYNC_OP_JUMP:
		return d->flags & NCSYNC_OPF_FLOW;
	case NCSYNC_OP_HALT:
	case NCSYNC_OP_EXIT:
		return d->flags & NCSYNC_OPF_ENDS;
	case NCSYNC_OP_DRAIN:
		return d->flags & NCSYNC_OPF_DRAIN;
	default:
		return d->flags & NCSYNC_OPF_DMA;
	}
}

/*
 * The effect of @in on a random state touches exactly its footprint, and
 * gives the same result when every register outside the footprint's reads
 * is changed.
 */
static inline const char *optab_effect_ok(const struct ncsync_opdesc *d,
					  const struct ncsync_insn *in,
					  __u32 *s)
{
	static struct optab_bank a, b;
	__u32 ra[NCSYNC_NUM_REGS], rb[NCSYNC_NUM_REGS], r0[NCSYNC_NUM_REGS];
	struct ncsync_footprint fp;
	enum ncsync_op_step sa, sb;
	unsigned int i;

	ncsync_op_footprint(in, &fp);
	optab_bank_init(&a, s);
	b = a;
	for (i = 0; i < NCSYNC_NUM_REGS; i++) {
		r0[i] = optab_rnd(s) % 4 ? optab_rnd(s) % 70 : optab_rnd(s);
		ra[i] = r0[i];
		rb[i] = fp.reg_read & (1U << i) ? r0[i] : optab_rnd(s);
	}
	sa = ncsync_exec_op(in, ra, &optab_bank_ops, &a);
	sb = ncsync_exec_op(in, rb, &optab_bank_ops, &b);
	if (!optab_step_ok(d, sa))
		return "a step its flags do not allow";
	if (!optab_masks_equal(a.sem_read, fp.sem_read, NCSYNC_NUM_SEMS / 32))
		return "semaphores read are not the footprint's";
	for (i = 0; i < NCSYNC_NUM_SEMS / 32; i++)
		if (a.sem_write[i] & ~fp.sem_write[i])
			return "a semaphore written outside the footprint";
	if (!optab_masks_zero(a.ev_touched, NCSYNC_NUM_EVENTS / 32))
		return "the op's effect touched an event";
	if ((a.drained && !(d->flags & NCSYNC_OPF_DRAIN)) ||
	    (a.issued && !(d->flags & NCSYNC_OPF_DMA)))
		return "the DMA ring used without the flag";
	if (!(d->flags & NCSYNC_OPF_EFFECT) &&
	    (sa != NCSYNC_OP_NEXT || a.drained || a.issued ||
	     !optab_masks_zero(a.sem_read, NCSYNC_NUM_SEMS / 32) ||
	     !optab_masks_zero(a.sem_write, NCSYNC_NUM_SEMS / 32)))
		return "an effect without NCSYNC_OPF_EFFECT";
	for (i = 0; i < NCSYNC_NUM_REGS; i++)
		if (ra[i] != r0[i] && !(fp.reg_write & (1U << i)))
			return "a register written outside the footprint";
	if (sa != sb)
		return "the step depends on a register outside the footprint";
	for (i = 0; i < NCSYNC_NUM_REGS; i++)
		if ((fp.reg_write & (1U << i)) && ra[i] != rb[i])
			return "a result depends on a register outside it";
	for (i = 0; i < NCSYNC_NUM_SEMS; i++)
		if (a.sems[i] != b.sems[i])
			return "a semaphore depends on a register outside it";
	return NULL;
}

/* A lane's wait and update touch only what they name. */
static inline const char *optab_lanes_ok(const struct ncsync_insn *in,
					 __u32 *s)
{
	static struct optab_bank b;
	__u32 regs[NCSYNC_NUM_REGS], want[NCSYNC_NUM_SEMS / 32];
	unsigned int l, i;
	__u8 fault;

	for (l = 0; l < in->nlanes; l++) {
		const struct ncsync_lane *ln = &in->lane[l];
		const struct ncsync_wait_op *w = &ln->wait;
		const struct ncsync_update_op *u = &ln->upd;

		for (i = 0; i < NCSYNC_NUM_REGS; i++)
			regs[i] = optab_rnd(s) % 4;
		for (i = 0; i < NCSYNC_NUM_SEMS / 32; i++)
			want[i] = 0;
		optab_bank_init(&b, s);
		if (w->active) {
			ncsync_exec_wait(ln, regs, &optab_bank_ops, &b, &fault);
			if (w->bank == NCSYNC_BANK_SEM)
				want[w->index / 32] |= 1U << (w->index % 32);
			if (ln->paired)
				want[u->index / 32] |= 1U << (u->index % 32);
		}
		if (u->active && !ln->paired) {
			ncsync_exec_update(u, regs, &optab_bank_ops, &b);
			if (u->bank == NCSYNC_BANK_SEM)
				want[u->index / 32] |= 1U << (u->index % 32);
		}
		for (i = 0; i < NCSYNC_NUM_SEMS / 32; i++)
			if ((b.sem_read[i] | b.sem_write[i]) & ~want[i])
				return "a lane touched a semaphore it does not name";
		for (i = 0; i < NCSYNC_NUM_EVENTS; i++)
			if ((b.ev_touched[i / 32] & (1U << (i % 32))) &&
			    !(w->active && w->bank == NCSYNC_BANK_EVENT &&
			      w->index == i) &&
			    !(u->active && u->bank == NCSYNC_BANK_EVENT &&
			      u->index == i))
				return "a lane touched an event it does not name";
	}
	return NULL;
}

/* A non-zero byte outside the layout (and the events block) is refused. */
static inline const char *optab_layout_ok(const struct ncsync_opdesc *d,
					  const __u8 *rec, __u32 *s)
{
	__u8 bad[NCSYNC_RECORD_SIZE];
	struct ncsync_insn in;
	unsigned int i, k;

	for (k = 0x0C; k < NCSYNC_RECORD_SIZE; k++) {
		if (optab_named(d->layout, k))
			continue;
		for (i = 0; i < NCSYNC_RECORD_SIZE; i++)
			bad[i] = rec[i];
		bad[k] = 1 + optab_rnd(s) % 255;
		if (ncsync_record_decode(bad, 64, ~0ULL, &in) !=
		    NCSYNC_REC_RESERVED_BYTE)
			return "a byte outside the layout is not refused";
	}
	return NULL;
}

/* One accepted record: encoding, layout, effect, lanes. */
static inline const char *optab_insn_ok(const struct ncsync_opdesc *d,
					const __u8 *rec,
					const struct ncsync_insn *in, __u32 *s)
{
	__u8 enc[NCSYNC_RECORD_SIZE];
	const char *why;
	unsigned int i;

	ncsync_record_encode(in, enc);
	for (i = 0; i < NCSYNC_RECORD_SIZE; i++)
		if (enc[i] != rec[i])
			return "the encoder does not give the record back";
	if (in->nlanes != d->nlanes)
		return "the record's lanes are not the row's";
	if (in->effect != d->effect)
		return "the decoder does not give the row's effect";
	why = optab_layout_ok(d, rec, s);
	for (i = 0; !why && i < OPTAB_STATES; i++)
		why = optab_effect_ok(d, in, s);
	return why ?: optab_lanes_ok(in, s);
}

/* Whether a flag is set exactly when @cond holds. */
static inline bool optab_iff(const struct ncsync_opdesc *d, unsigned int flag,
			     bool cond)
{
	return !(d->flags & flag) == !cond;
}

/*
 * The columns of a row agree: its flags with its effect, a pseudo-op has
 * a lowering and no layout, an opcode the engines run has a layout and no
 * lowering, only the ALU form has no mnemonic of its own.
 */
/*
 * An opcode the seeds name without its effect (NCSYNC_OPF_UNMODELLED): a
 * layout (what the seeds pin of it), and nothing that would run it.
 */
static inline const char *
optab_unmodelled_row_ok(const struct ncsync_opdesc *d)
{
	if (d->flags != NCSYNC_OPF_UNMODELLED || d->mnemonic || !d->layout ||
	    d->effect != NCSYNC_EFF_NONE || d->lower != NCSYNC_LOWER_NONE)
		return "an unmodelled opcode with a mnemonic, an effect, a lowering or other flags";
	if (d->decode || d->encode || d->conform || d->footprint)
		return "an unmodelled opcode with a hook";
	return NULL;
}

static inline const char *optab_row_ok(const struct ncsync_opdesc *d)
{
	bool pseudo = d->flags & NCSYNC_OPF_PSEUDO;

	if (d->form >= NCSYNC_FORM_COUNT || d->effect >= NCSYNC_EFF_COUNT)
		return "a form or an effect out of range";
	if (d->flags & NCSYNC_OPF_UNMODELLED)
		return optab_unmodelled_row_ok(d);
	if (pseudo != (d->lower != NCSYNC_LOWER_NONE) ||
	    pseudo == (d->layout != NULL) ||
	    (pseudo && d->effect != NCSYNC_EFF_NONE))
		return "a pseudo-op without a lowering, or with a layout or an effect";
	if (!optab_iff(d, NCSYNC_OPF_EFFECT, d->effect != NCSYNC_EFF_NONE) ||
	    !optab_iff(d, NCSYNC_OPF_FLOW, d->effect == NCSYNC_EFF_BRANCH) ||
	    !optab_iff(d, NCSYNC_OPF_DMA, d->effect == NCSYNC_EFF_DMA) ||
	    !optab_iff(d, NCSYNC_OPF_DRAIN, d->effect == NCSYNC_EFF_DRAIN) ||
	    !optab_iff(d, NCSYNC_OPF_ENDS, d->effect == NCSYNC_EFF_HALT ||
					   d->effect == NCSYNC_EFF_EXIT))
		return "the flags do not agree with the effect";
	if (!d->mnemonic != (d->form == NCSYNC_FORM_ALU))
		return "a mnemonic missing, or one on the ALU form";
	return NULL;
}

static inline unsigned int optab_cases_count(void)
{
	return ncsync_optab_size;
}

/**
 * optab_case_run() - run the tests of one row of the opcode table.
 * @n: the row, below optab_cases_count().
 * @why: out: what failed, or NULL.
 *
 * Return: true when every test of the row passed.
 */
static inline bool optab_case_run(unsigned int n, const char **why)
{
	const struct ncsync_opdesc *d = &ncsync_optab[n];
	__u8 rec[NCSYNC_RECORD_SIZE];
	struct ncsync_insn in;
	__u32 seed = 0x2545F491 + n;
	unsigned int t, ok = 0;

	*why = optab_row_ok(d);
	if (*why)
		return false;
	if (ncsync_op(d->opcode) != d) {
		*why = "ncsync_op() does not find the row";
		return false;
	}
	for (t = 0; t < OPTAB_TRIES && !*why; t++) {
		optab_record(d, &seed, rec);
		if ((d->flags & NCSYNC_OPF_UNMODELLED) &&
		    ncsync_record_decode(rec, 64, ~0ULL, &in) !=
		    NCSYNC_REC_UNMODELLED_OP) {
			*why = "an unmodelled opcode not refused as such";
			break;
		}
		if (ncsync_record_decode(rec, 64, ~0ULL, &in))
			continue;
		if (d->flags & NCSYNC_OPF_PSEUDO) {
			*why = "the decoder accepts a pseudo-op";
			break;
		}
		ok++;
		*why = optab_insn_ok(d, rec, &in, &seed);
	}
	if (!*why && !(d->flags & (NCSYNC_OPF_PSEUDO | NCSYNC_OPF_UNMODELLED)) &&
	    ok < OPTAB_WANT)
		*why = "too few random records accepted";
	return !*why;
}

#endif /* _NCSYNC_OPTAB_CASES_H */
