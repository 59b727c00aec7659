// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * libncsync: the builders of the pseudo-ops and of the barriers: the
 * all-engine barrier (0xD5), the runtime's add_sync_barrier, the
 * lower_control fence, the core barrier (0xD8), functions, Call (0xD3),
 * Return (0xD2), the DMA barrier (0xC3) and TriggerCollective (0xC8,
 * 0xD9, 0xDA) (Documentation/ncsync/barriers.rst; ENC 7; BARRIER 1, 6.2,
 * 8, "See also").
 *
 * They sit on top of the lowering: a pseudo-op record is appended here and
 * rewritten by ncsync_program_lower() (lower.c); the builders that emit
 * their records at once (ncsync_add_sync_barrier(),
 * ncsync_add_core_barrier()) use the same emitters as the passes
 * (barrier.c, core_barrier.c).  Nothing below calls a function here.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "ncsync_names.h"
#include "ncsync_optab.h"

/* A function name: 0 and its length, -EINVAL or -ENAMETOOLONG. */
static int ncsync_name_check(const char *name, size_t *len)
{
	if (!name)
		return -EINVAL;
	*len = strlen(name);
	if (*len > NCSYNC_CALL_NAME_LEN)
		return -ENAMETOOLONG;
	return ncsync_call_name_valid(name, *len) ? 0 : -EINVAL;
}

/**
 * ncsync_program_add_function() - define a function of one engine.
 * @prog: the program.
 * @engine: the engine whose Calls may name it.
 * @name: its name, 1 to 35 characters of a text-form word.
 * @bodyp: out: its body, a stream to build with the builders.
 *
 * Return: 0, -EINVAL (a NULL argument, an engine that is not a datapath
 * one, a name that is not a word), -ENAMETOOLONG, -EEXIST (the engine has
 * a function of that name), -EBUSY (the program is lowered) or -ENOMEM.
 */
int ncsync_program_add_function(struct ncsync_program *prog, uint8_t engine,
				const char *name, struct ncsync_stream **bodyp)
{
	struct ncsync_func *f, **funcs;
	size_t len;

	int ret;

	if (!prog || !bodyp || !ncsync_engine_valid(engine))
		return -EINVAL;
	ret = ncsync_name_check(name, &len);
	if (ret)
		return ret;
	if (prog->frozen)
		return -EBUSY;
	if (ncsync_func_find(prog, engine, name))
		return -EEXIST;
	funcs = realloc(prog->funcs, (prog->nfuncs + 1) * sizeof(*funcs));
	if (!funcs)
		return -ENOMEM;
	prog->funcs = funcs;
	f = calloc(1, sizeof(*f));
	if (!f)
		return -ENOMEM;
	memcpy(f->name, name, len + 1);
	f->body.prog = prog;
	f->body.engine = engine;
	f->body.fn = prog->nfuncs + 1;
	prog->funcs[prog->nfuncs++] = f;
	*bodyp = &f->body;
	return 0;
}

/* Append the pseudo-op @p with the events block @ev. */
static int ncsync_add_pseudo(struct ncsync_stream *s, struct ncsync_pseudo *p,
			     const struct ncsync_events *ev)
{
	uint8_t rec[NCSYNC_RECORD_SIZE], nop[NCSYNC_RECORD_SIZE];

	if (!s)
		return -EINVAL;
	ncsync_rec_init(nop, NCSYNC_OPC_NOOP, ev);
	memcpy(p->events, nop + NCSYNC_REC_EV_WAIT_MODE, sizeof(p->events));
	ncsync_pseudo_encode(p, rec);
	if (ncsync_pseudo_decode(rec, p))
		return -EINVAL;
	return ncsync_stream_put(s, rec);
}

/**
 * ncsync_put_pseudo() - append a pseudo-op that has only its events block.
 * @s: the stream.
 * @opcode: a pseudo-op of form NCSYNC_FORM_PSEUDO (common/ncsync_optab.h):
 *	DmaBarrier, TriggerCollective, TriggerCollective2 and its Ext,
 *	Return.
 * @ev: its events block.
 *
 * Return: 0, -EINVAL for another opcode or an events block a NoOp may not
 * carry, or -ENOMEM.
 */
int ncsync_put_pseudo(struct ncsync_stream *s, uint8_t opcode,
		      const struct ncsync_events *ev)
{
	const struct ncsync_opdesc *d = ncsync_op(opcode);
	struct ncsync_pseudo p = { .opcode = opcode };

	if (!d || d->form != NCSYNC_FORM_PSEUDO)
		return -EINVAL;
	return ncsync_add_pseudo(s, &p, ev);
}

/*
 * BARRIER 6.2: the DMA barrier, a header and an events block; lowered to
 * a NoOp that carries the block.
 */
int ncsync_add_dma_barrier(struct ncsync_stream *s,
			   const struct ncsync_events *ev)
{
	return ncsync_put_pseudo(s, NCSYNC_OPC_DMA_BARRIER, ev);
}

/*
 * BARRIER, "See also": "TriggerCollective (0xC8) - the canonical collective
 * pseudo-op that carries the same events block"; TriggerCollective2 + Ext
 * (0xD9/0xDA), "the SBUF-tensor v2 collective carrier".  The model has no
 * collectives: each is lowered to a NoOp that carries its events block.
 */
int ncsync_add_trigger_collective(struct ncsync_stream *s,
				  const struct ncsync_events *ev)
{
	return ncsync_put_pseudo(s, NCSYNC_OPC_TRIGGER_COLLECTIVE, ev);
}

int ncsync_add_trigger_collective2(struct ncsync_stream *s,
				   const struct ncsync_events *ev)
{
	return ncsync_put_pseudo(s, NCSYNC_OPC_TRIGGER_COLLECTIVE2, ev);
}

int ncsync_add_trigger_collective2_ext(struct ncsync_stream *s,
				       const struct ncsync_events *ev)
{
	return ncsync_put_pseudo(s, NCSYNC_OPC_TRIGGER_COLLECTIVE2_EXT, ev);
}

/* ENC 7a: a Call of the function @name of this engine. */
int ncsync_add_call(struct ncsync_stream *s, const char *name,
		    uint32_t args_id, const struct ncsync_events *ev)
{
	struct ncsync_pseudo p = {
		.opcode = NCSYNC_OPC_CALL, .args = args_id,
	};
	size_t len;
	int ret;

	ret = ncsync_name_check(name, &len);
	if (ret)
		return ret;
	memcpy(p.name, name, len + 1);
	return ncsync_add_pseudo(s, &p, ev);
}

/* ENC 7b: a Return, a header and an events block. */
int ncsync_add_return(struct ncsync_stream *s, const struct ncsync_events *ev)
{
	return ncsync_put_pseudo(s, NCSYNC_OPC_RETURN, ev);
}

/* Append a 0xD8 record of semaphore @sem and id @id to @s. */
int ncsync_put_core_barrier(struct ncsync_stream *s, uint8_t sem, uint32_t id,
			    const struct ncsync_events *ev)
{
	struct ncsync_pseudo p = {
		.opcode = NCSYNC_OPC_CORE_BARRIER, .id = id, .sem = sem,
	};

	return ncsync_add_pseudo(s, &p, ev);
}

/**
 * ncsync_program_set_lnc() - the logical core size the program's core
 *	barriers are lowered for.
 * @prog: the program, not yet lowered.
 * @lnc: the cores of the logical core its parts run on (NCSYNC_IOC_INFO
 *	lnc), 1 to NCSYNC_MAX_LNC.
 *
 * Without it a program's 0xD8 records are lowered for the device's lnc
 * when ncsync_program_submit() or ncsync_program_submit_cores() lowers
 * them, and for 1 by ncsync_program_lower() and ncsync_program_finalize().
 * ncsync_add_lower_control_fence() adds its core barrier leg when @lnc is
 * above 1 at the time of the call.  ncsync_program_finalize() then
 * refuses a DMA record whose peer is at or beyond @lnc
 * (NCSYNC_REC_DMA_PEER_OUTSIDE, ncsync_program_error()), as submission on
 * a logical core of @lnc cores does.
 *
 * Return: 0; -EINVAL for a NULL @prog or @lnc out of range; -EBUSY once
 * lowered or finalized.
 */
int ncsync_program_set_lnc(struct ncsync_program *prog, unsigned int lnc)
{
	if (!prog || !lnc || lnc > NCSYNC_MAX_LNC)
		return -EINVAL;
	if (prog->frozen)
		return -EBUSY;
	prog->lnc = lnc;
	return 0;
}

/* Check that @ev is a valid events block (on a NoOp). */
static int ncsync_events_check(const struct ncsync_events *ev)
{
	uint8_t rec[NCSYNC_RECORD_SIZE];

	ncsync_rec_init(rec, NCSYNC_OPC_NOOP, ev);
	return ncsync_check_isolated(rec);
}

typedef int (*ncsync_stream_fn)(struct ncsync_stream *s, const void *arg);

/* Append records to every stream with @fn; undo everything on failure. */
static int ncsync_append_all(struct ncsync_program *prog, ncsync_stream_fn fn,
			     const void *arg)
{
	struct ncsync_mark mark;
	unsigned int e;
	int ret = 0;

	if (!prog)
		return -EINVAL;
	if (prog->frozen)
		return -EBUSY;
	if (!ncsync_program_engines(prog))
		return -EINVAL;
	ncsync_program_mark(prog, &mark);
	for (e = 0; e < NCSYNC_MAX_ENGINE_ID; e++) {
		if (!prog->streams[e])
			continue;
		ret = fn(prog->streams[e], arg);
		if (ret < 0)
			break;
	}
	if (ret < 0) {
		ncsync_program_rewind(prog, &mark);
		return ret;
	}
	return 0;
}

static int ncsync_put_barrier(struct ncsync_stream *s, const void *arg)
{
	uint8_t rec[NCSYNC_RECORD_SIZE];

	ncsync_rec_init(rec, NCSYNC_OPC_ALL_ENGINE_BARRIER, arg);
	return ncsync_stream_put(s, rec);
}

/*
 * BARRIER 1, 8: the pseudo record, header and events block, reserved0
 * zero, on every stream; ncsync_program_lower() rewrites it.
 */
int ncsync_add_all_engine_barrier(struct ncsync_program *prog,
				  const struct ncsync_events *ev)
{
	if (ev && ncsync_events_check(ev))
		return -EINVAL;
	return ncsync_append_all(prog, ncsync_put_barrier, ev);
}

static int ncsync_put_sync_barrier(struct ncsync_stream *s, const void *arg)
{
	const struct ncsync_program *prog = arg;

	return ncsync_emit_ctr_pass(s, prog);
}

/*
 * The runtime's add_sync_barrier (SYNC "The runtime composite"): a Drain
 * leads, then the all-engine rendezvous on the barrier counter, emitted
 * in the counter form at once (the arrival rides the Drain); the start
 * rendezvous is inserted at finalization.  Every stream
 * must exist already: adding a stream afterwards makes finalization fail
 * (-EINVAL).
 */
int ncsync_add_sync_barrier(struct ncsync_program *prog)
{
	unsigned int mask;
	bool lowered;
	int ret;

	if (!prog)
		return -EINVAL;
	if (prog->frozen)
		return -EBUSY;
	mask = ncsync_program_engines(prog);
	if (!mask)
		return -EINVAL;
	if (prog->ctr_used && prog->ctr_mask != mask)
		return -EINVAL;
	ret = ncsync_ctr_take(prog, mask);
	if (ret < 0)
		return ret;
	prog->ctr_mask = mask;
	/* Its records may write the counters and r31. */
	lowered = prog->cur_src.lowered;
	prog->cur_src.lowered = true;
	ret = ncsync_append_all(prog, ncsync_put_sync_barrier, prog);
	prog->cur_src.lowered = lowered;
	if (ret < 0)
		return ret;
	prog->ctr_used = true;
	return 0;
}

/**
 * struct ncsync_fence - one lower_control fence.
 * @mask: the semaphores its resets clear.
 * @engines: the program's engines.
 * @core: whether it has the core barrier leg.
 * @sem: the leg's semaphore.
 */
struct ncsync_fence {
	uint32_t mask[8];
	unsigned int engines;
	bool core;
	uint8_t sem;
};

/*
 * The share of @engine in the fence's group: the semaphores whose place
 * among those of the group is its rank among the program's engines,
 * modulo their number.
 */
static bool ncsync_fence_share(const struct ncsync_fence *f, uint8_t engine,
			       uint32_t share[8])
{
	unsigned int n = __builtin_popcount(f->engines);
	unsigned int r = __builtin_popcount(f->engines & ((1U << engine) - 1));
	unsigned int i, k = 0;
	bool any = false;

	memset(share, 0, 8 * sizeof(*share));
	for (i = 0; i < NCSYNC_NUM_SEMS; i++) {
		if (!(f->mask[i / 32] & (1U << (i % 32))))
			continue;
		if (k++ % n == r) {
			share[i / 32] |= 1U << (i % 32);
			any = true;
		}
	}
	return any;
}

static int ncsync_put_fence(struct ncsync_stream *s, const void *arg)
{
	const struct ncsync_fence *f = arg;
	uint32_t share[8];
	int ret;

	ret = ncsync_put_barrier(s, NULL);
	if (ret >= 0 && ncsync_fence_share(f, s->engine, share))
		ret = ncsync_add_sema_clear_mask(s, share, NULL);
	if (ret >= 0)
		ret = ncsync_put_barrier(s, NULL);
	if (ret >= 0)
		ret = ncsync_add_drain(s, NULL);
	if (ret >= 0 && f->core)
		ret = ncsync_put_core_barrier(s, f->sem, 0, NULL);
	return ret < 0 ? ret : 0;
}

/*
 * SYNC lower_control: Barrier, GroupResetSemaphores, Barrier, Drain on
 * every engine, then CoreBarrier when the program's lnc
 * (ncsync_program_set_lnc()) is above 1.  The reset clears the
 * semaphores allocated with ncsync_sem_alloc() when the fence is added
 * (ClearMode 2, a mask), each engine its own share ("so each engine
 * resets its own range"; ENC 6b: no group is empty or shares a semaphore
 * with another), so that the fence passes the conformance profile; an
 * engine with no share has no reset.  The reserved slice, and so the
 * barrier counters, is never in the mask, nor the core barrier's
 * semaphore: ncsync_sem_alloc()'ed by the program's first fence with the
 * leg, shared by all its fences.  The barriers are 0xD5 and 0xD8
 * records, lowered later.
 */
int ncsync_add_lower_control_fence(struct ncsync_program *prog)
{
	struct ncsync_fence f = { .core = prog && prog->lnc > 1 };
	int sem = prog ? prog->fence_sem : -1, ret;

	if (!prog)
		return -EINVAL;
	ncsync_alloc_sem_mask(prog, f.mask);
	if (sem >= 0)
		f.mask[sem / 32] &= ~(1U << (sem % 32));
	f.engines = ncsync_program_engines(prog);
	if (f.core && sem < 0 && !prog->frozen && f.engines) {
		sem = ncsync_sem_alloc(prog, 1);
		if (sem < 0)
			return sem;
	}
	f.sem = (uint8_t)sem;
	ret = ncsync_append_all(prog, ncsync_put_fence, &f);
	if (ret < 0) {
		/* Nothing changed: a semaphore taken here is given back. */
		if (f.core && prog->fence_sem < 0 && sem >= 0)
			ncsync_sem_free(prog, sem, 1);
		return ret;
	}
	if (f.core)
		prog->fence_sem = sem;
	return 0;
}

/* The checks before anything is added: 0 or -errno. */
static int ncsync_core_barrier_check(const struct ncsync_program *prog,
				     uint8_t sem, unsigned int lnc)
{
	if (!prog || !lnc || lnc > NCSYNC_MAX_LNC)
		return -EINVAL;
	if (prog->frozen)
		return -EBUSY;
	if (!ncsync_program_engines(prog))
		return -EINVAL;
	/* The lowerings own the reserved slice. */
	if (ncsync_res_sem_in(prog, sem))
		return -EINVAL;
	return 0;
}

/**
 * ncsync_add_core_barrier() - a core barrier over a logical core.
 * @prog: the program one core of the logical core runs; every stream
 *	exists already.
 * @sem: the barrier semaphore (CoreBarrier's index at +0x10), the same on
 *	every core, outside the reserved slice, 0 on every core when the
 *	programs start, and written by nothing else.
 * @lnc: the cores of the logical core (NCSYNC_IOC_INFO lnc), 1 to
 *	NCSYNC_MAX_LNC: each runs a program with the same core barriers.
 *
 * Return: 0; -EINVAL for a NULL @prog, a program without streams, @lnc out
 * of range or @sem in the reserved slice; -EBUSY once lowered or
 * finalized; -ENOMEM.  On an error no stream has a record more.
 */
int ncsync_add_core_barrier(struct ncsync_program *prog, uint8_t sem,
			    unsigned int lnc)
{
	struct ncsync_mark mark;
	unsigned int mask;
	bool lowered;
	int ret;

	ret = ncsync_core_barrier_check(prog, sem, lnc);
	if (ret < 0)
		return ret;
	mask = ncsync_program_engines(prog);
	ncsync_program_mark(prog, &mark);
	/* Its records may write @sem, which the lowering now owns. */
	lowered = prog->cur_src.lowered;
	prog->cur_src.lowered = true;
	ret = ncsync_add_sync_barrier(prog);
	if (!ret)
		ret = ncsync_core_arrive(prog->streams[__builtin_ctz(mask)],
					 sem, lnc);
	if (!ret)
		ret = ncsync_add_sync_barrier(prog);
	prog->cur_src.lowered = lowered;
	if (ret < 0)
		ncsync_program_rewind(prog, &mark);
	else
		prog->own_core_sems[sem] = true;
	return ret;
}
