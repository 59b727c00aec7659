// SPDX-License-Identifier: GPL-2.0
/*
 * ncsync: the engines.  One kernel thread per datapath engine runs the
 * queues of programs in order, record by record:
 *
 *   1. the waits, in lane order (events block, then extended block), each
 *      with its then-clear or then-set action; a wait and an update of the
 *      same lane on the same semaphore are one atomic test-and-modify;
 *   2. the op's own effect;
 *   3. the other updates, in lane order.
 *
 * A record is one critical section of the core lock, and a run of records
 * that need not block shares one (ncsync_exec_run()).  A record whose wait
 * fails, a Drain with copies in flight, a DMA record without a free slot
 * leave the lock and sleep: waits on the wait queue of the semaphore or
 * event they wait on, woken by a change that makes them hold; Drain and
 * DMA on the engine's own queue, which a landing of its copies wakes.  The
 * record is then executed again from where it stopped.  A failed wait
 * first spins for a bounded time while another engine is busy.  Between
 * runs the engine checks whether its program must stop and yields the CPU.
 */
#include <linux/kthread.h>
#include <linux/sched.h>
#include <linux/sched/stat.h>

#include "ncsync_drv.h"
#include "ncsync_effect.h"
#include "ncsync_names.h"
#include "ncsync_trace.h"

/*
 * What executing a record leads to: the op's own steps
 * (common/ncsync_effect.h) keep their values, so that the effect's result
 * is the engine's step as it is, without a table between them.
 */
enum ncsync_step {
	NCSYNC_STEP_NEXT = NCSYNC_OP_NEXT,
	NCSYNC_STEP_JUMP = NCSYNC_OP_JUMP,
	NCSYNC_STEP_HALT = NCSYNC_OP_HALT,
	NCSYNC_STEP_EXIT = NCSYNC_OP_EXIT,
	NCSYNC_STEP_DRAIN = NCSYNC_OP_DRAIN,	/* a Drain with copies in flight */
	NCSYNC_STEP_DMA_FULL = NCSYNC_OP_DMA_FULL, /* no free slot for a DMA */
	NCSYNC_STEP_WAIT,	/* the wait of lane ncsync_exec.lane fails */
	NCSYNC_STEP_FAULT,
	NCSYNC_STEP_STOP,
};

/*
 * The most records an engine executes under one hold of the core lock: a
 * bound on how long other writers, wake-ups and a stop wait for it.
 */
#define NCSYNC_RUN_MAX		32

/**
 * struct ncsync_exec - an engine executing a queue.
 * @core: the core.
 * @eng: the engine.
 * @prog: the program.
 * @q: the queue.
 * @strict: the program runs in strict mode.
 * @fault: the fault reason when a step returns NCSYNC_STEP_FAULT.
 * @progress: the program progressed since it was last noted.
 * @blocked: the engine slept for the record at @pc: its next pass of a
 *	wait, a Drain or a wait for a slot is progress.
 * @resumed: the record at @pc was begun and left to block.
 * @lane: the first lane of the record at @pc whose wait has not passed;
 *	its number of lanes once every wait passed.
 * @pc: the index of the record being executed.
 * @wake: the wake-ups collected while the engine holds the core lock.
 */
struct ncsync_exec {
	struct ncsync_core *core;
	struct ncsync_engine *eng;
	struct ncsync_prog *prog;
	struct ncsync_equeue *q;
	bool strict;
	u8 fault;
	bool progress;
	bool blocked;
	bool resumed;
	u8 lane;
	u32 pc;
	struct ncsync_wake_q wake;
};

static bool ncsync_exec_stopping(const struct ncsync_exec *x)
{
	return READ_ONCE(x->prog->stop) || kthread_should_stop();
}

/* A wait, Drain or wait for a slot passed: progress if it had blocked. */
static void ncsync_exec_unblocked(struct ncsync_exec *x)
{
	if (x->blocked) {
		x->blocked = false;
		x->progress = true;
	}
}

/*
 * The core's bank as common/ncsync_effect.h sees it, under the core lock;
 * @ctx is the struct ncsync_exec.  A write to the bank is progress.
 */
static s32 ncsync_exec_sem_read(void *ctx, unsigned int i)
{
	struct ncsync_exec *x = ctx;

	lockdep_assert_held(&x->core->lock);
	return x->core->sems[i];
}

static bool ncsync_exec_sem_update(void *ctx, unsigned int i,
				   enum ncsync_sem_upd op, u32 operand)
{
	struct ncsync_exec *x = ctx;

	x->progress = true;
	return ncsync_sem_update_locked(x->core, i, op, operand);
}

static bool ncsync_exec_event_read(void *ctx, unsigned int i)
{
	struct ncsync_exec *x = ctx;

	lockdep_assert_held(&x->core->lock);
	return x->core->events[i];
}

static bool ncsync_exec_event_write(void *ctx, unsigned int i, bool set)
{
	struct ncsync_exec *x = ctx;

	x->progress = true;
	return ncsync_event_write_locked(x->core, i, set);
}

static bool ncsync_exec_drain_pass(void *ctx)
{
	struct ncsync_exec *x = ctx;

	if (atomic_read(&x->q->dma_outstanding))
		return false;
	ncsync_exec_unblocked(x);
	return true;
}

static bool ncsync_exec_dma_issue(void *ctx, const struct ncsync_insn *in)
{
	struct ncsync_exec *x = ctx;

	if (ncsync_dma_full(x->q))
		return false;
	ncsync_exec_unblocked(x);
	ncsync_dma_issue(x->q, in, x->pc);
	return true;
}

/* Constant, so that the inlined effect calls each of them directly. */
static const struct ncsync_bank_ops ncsync_exec_bank = {
	.sem_read = ncsync_exec_sem_read,
	.sem_update = ncsync_exec_sem_update,
	.event_read = ncsync_exec_event_read,
	.event_write = ncsync_exec_event_write,
	.drain_pass = ncsync_exec_drain_pass,
	.dma_issue = ncsync_exec_dma_issue,
};

/* Whether a step says the record must block before it goes on. */
static bool ncsync_step_blocks(enum ncsync_step step)
{
	return step == NCSYNC_STEP_WAIT || step == NCSYNC_STEP_DRAIN ||
	       step == NCSYNC_STEP_DMA_FULL;
}

/*
 * The waits of a record from lane @x->lane on, in lane order.  The lane is
 * counted in a local and stored only when its wait fails: a record that
 * passes all its waits, the common case, writes nothing.
 */
static enum ncsync_step ncsync_exec_waits_locked(struct ncsync_exec *x,
						 const struct ncsync_insn *in)
{
	unsigned int lane;
	u8 fault = 0;

	lockdep_assert_held(&x->core->lock);
	for (lane = x->lane; lane < in->nlanes; lane++) {
		const struct ncsync_lane *l = &in->lane[lane];

		if (!l->wait.active)
			continue;
		if (!ncsync_exec_wait(l, x->q->regs, &ncsync_exec_bank, x,
				      &fault)) {
			x->lane = lane;
			return NCSYNC_STEP_WAIT;
		}
		ncsync_exec_unblocked(x);
		if (fault && x->strict) {
			x->fault = fault;
			return NCSYNC_STEP_FAULT;
		}
	}
	return NCSYNC_STEP_NEXT;
}

/*
 * The op's own effect (common/ncsync_effect.h), whose result is the
 * engine's step (enum ncsync_step).  Drain and DMA return a step of their
 * own when they must block; the engine sleeps without the lock and comes
 * back.
 */
static enum ncsync_step ncsync_exec_effect_locked(struct ncsync_exec *x,
						  const struct ncsync_insn *in)
{
	lockdep_assert_held(&x->core->lock);
	return (enum ncsync_step)ncsync_exec_op(in, x->q->regs,
						&ncsync_exec_bank, x);
}

/* The updates not paired with their lane's wait, in lane order. */
static enum ncsync_step ncsync_exec_updates_locked(struct ncsync_exec *x,
						   const struct ncsync_insn *in)
{
	unsigned int i;
	u8 fault = 0, f;

	lockdep_assert_held(&x->core->lock);
	for (i = 0; i < in->nlanes; i++) {
		const struct ncsync_lane *l = &in->lane[i];

		/* A DMA's update is applied when its copy lands. */
		if (!l->upd.active || l->paired || l->upd.on_land)
			continue;
		f = ncsync_exec_update(&l->upd, x->q->regs, &ncsync_exec_bank,
				       x);
		fault = fault ?: f;
	}
	if (fault && x->strict) {
		x->fault = fault;
		return NCSYNC_STEP_FAULT;
	}
	return NCSYNC_STEP_NEXT;
}

/*
 * Execute one record, or the rest of one that blocked, in one critical
 * section: its waits, its effect, its updates.  A step of its own
 * (NCSYNC_STEP_WAIT, _DRAIN, _DMA_FULL) says it must block first.
 */
static enum ncsync_step ncsync_exec_insn_locked(struct ncsync_exec *x,
						const struct ncsync_insn *in)
{
	enum ncsync_step step, upd;

	if (!x->resumed)
		trace_ncsync_exec(x->core->index, x->q->engine, x->prog->id,
				  x->pc, in->opcode);
	step = ncsync_exec_waits_locked(x, in);
	if (step != NCSYNC_STEP_NEXT)
		return step;
	step = ncsync_exec_effect_locked(x, in);
	if (unlikely(ncsync_step_blocks(step))) {
		x->lane = in->nlanes;	/* its waits passed */
		return step;
	}
	upd = ncsync_exec_updates_locked(x, in);
	return upd == NCSYNC_STEP_NEXT ? step : upd;
}

/*
 * Execute records from @x->pc under one hold of the core lock, until one
 * must block or ends the queue, the queue's end, NCSYNC_RUN_MAX records,
 * a stop or a reschedule request (Documentation/ncsync/engines.rst,
 * "Runs of records").  The wake-ups the run causes are issued, and its
 * progress noted, once the lock is dropped.
 */
static enum ncsync_step ncsync_exec_run(struct ncsync_exec *x)
{
	struct ncsync_equeue *q = x->q;
	enum ncsync_step step;
	unsigned int n = 0;

	ncsync_core_lock(x->core, &x->wake);
	do {
		const struct ncsync_insn *in = &q->insns[x->pc];

		WRITE_ONCE(q->st.pc, x->pc);
		step = ncsync_exec_insn_locked(x, in);
		if (unlikely(ncsync_step_blocks(step))) {
			x->resumed = true;
			break;
		}
		x->resumed = false;
		x->lane = 0;
		if (unlikely(step == NCSYNC_STEP_FAULT))
			break;
		WRITE_ONCE(q->st.executed, q->st.executed + 1);
		if (likely(step == NCSYNC_STEP_NEXT)) {
			x->pc++;
		} else if (step == NCSYNC_STEP_JUMP) {
			x->pc = in->br.target;
			step = NCSYNC_STEP_NEXT;
		} else {
			break;
		}
	} while (x->pc < q->count && ++n < NCSYNC_RUN_MAX &&
		 !need_resched() && !READ_ONCE(x->prog->stop));
	ncsync_core_unlock(x->core, &x->wake);
	if (x->progress) {
		x->progress = false;
		ncsync_prog_progress(x->prog);
	}
	return step;
}

static void ncsync_exec_set_blocked(struct ncsync_exec *x, u8 kind, u8 mode,
				    u8 idx, u8 lane, s32 threshold)
{
	struct ncsync_engine_status *st = &x->q->st;

	spin_lock(&x->core->prog_lock);
	st->state = kind ? NCSYNC_ENG_BLOCKED : NCSYNC_ENG_RUNNING;
	st->wait_kind = kind;
	st->wait_mode = mode;
	st->wait_index = idx;
	st->wait_lane = lane;
	st->wait_threshold = threshold;
	spin_unlock(&x->core->prog_lock);
}

/* Mark the engine blocked on one lane's wait, and trace it. */
static void ncsync_exec_wait_begin(struct ncsync_exec *x,
				   const struct ncsync_lane *l, s32 threshold)
{
	struct ncsync_core *core = x->core;
	u8 mode = ncsync_wait_op_mode(&l->wait);
	u8 kind = l->wait.bank == NCSYNC_BANK_SEM ? NCSYNC_BLOCK_SEM :
						    NCSYNC_BLOCK_EVENT;

	ncsync_exec_set_blocked(x, kind, mode, l->wait.index, x->lane,
				threshold);
	trace_ncsync_wait_begin(core->index, x->q->engine, x->prog->id, x->pc,
				kind, mode, l->wait.index, threshold,
				kind == NCSYNC_BLOCK_SEM ?
				ncsync_sem_get(core, l->wait.index) :
				ncsync_event_get(core, l->wait.index));
}

/*
 * How long a wait that fails spins before it sleeps, polling its register
 * without the lock, while another engine of the core executes records and
 * so may be about to make it pass (Documentation/ncsync/engines.rst,
 * "Spinning before sleeping").
 */
#define NCSYNC_SPIN_NS		(20 * NSEC_PER_USEC)

/*
 * Whether another engine of the core may be about to change a register:
 * it executes records, or it spins in a wait and the core changed since
 * its spin began, so that its wait may now pass.  A peer spinning on a
 * core that has not changed since is not, so two engines waiting on each
 * other do not keep each other spinning, while in a hand-off the peer
 * that spins for this engine's last update is.
 */
static bool ncsync_exec_peer_busy(const struct ncsync_exec *x)
{
	unsigned long now = (unsigned long)atomic64_read(&x->core->seq) + 1;
	const struct ncsync_engine *e;
	unsigned long from;

	for (e = x->core->engines; e < x->core->engines + NCSYNC_NUM_ENGINES;
	     e++) {
		if (e == x->eng)
			continue;
		if (READ_ONCE(e->busy))
			return true;
		from = READ_ONCE(e->spin_from);
		if (from && from != now)
			return true;
	}
	return false;
}

/*
 * Spin for at most NCSYNC_SPIN_NS while a peer is busy and no other task
 * is runnable on this CPU (it may be the peer, which the spin would keep
 * from running) or wants it; return true once the wait seems to hold (the
 * engine then tests it under the lock), false to sleep.  A spinning engine
 * executes nothing: it is busy for its peers only once the core changed
 * after its spin began (ncsync_exec_peer_busy()).
 */
static bool ncsync_exec_spin(struct ncsync_exec *x,
			     const struct ncsync_wait_op *w, s32 threshold)
{
	u64 end = ktime_get_ns() + NCSYNC_SPIN_NS;
	bool holds = false;

	WRITE_ONCE(x->eng->spin_from,
		   (unsigned long)atomic64_read(&x->core->seq) + 1);
	WRITE_ONCE(x->eng->busy, false);
	while (ncsync_exec_peer_busy(x) && single_task_running() &&
	       !need_resched() && !ncsync_exec_stopping(x)) {
		holds = ncsync_wait_holds(x->core, w, threshold);
		if (holds || ktime_get_ns() > end)
			break;
		cpu_relax();
	}
	WRITE_ONCE(x->eng->busy, true);
	WRITE_ONCE(x->eng->spin_from, 0);
	return holds;
}

/*
 * Sleep until the wait of lane @x->lane holds or the program stops; the
 * engine then executes the record again under the lock, which passes the
 * wait unless another took what it waits for first.  It sleeps on the
 * queue of the register it waits on, and on its own queue, which a stop
 * kicks.  Return false when the program stops.
 */
static bool ncsync_exec_wait_sleep(struct ncsync_exec *x)
{
	const struct ncsync_lane *l = &x->q->insns[x->pc].lane[x->lane];
	struct ncsync_core *core = x->core;
	s32 threshold = ncsync_wait_threshold(&l->wait, x->q->regs);
	wait_queue_head_t *wq = ncsync_bank_wq(core, l->wait.bank,
					       l->wait.index);
	struct ncsync_wait_entry wait;
	struct wait_queue_entry kick;
	bool holds = false, slept = false;

	if (ncsync_exec_spin(x, &l->wait, threshold))
		return true;
	init_waitqueue_entry(&kick, current);
	add_wait_queue(&x->eng->wq, &kick);
	ncsync_wait_entry_init(&wait, core);
	ncsync_wait_entry_cond(&wait, &l->wait, threshold);
	for (;;) {
		prepare_to_wait(wq, &wait.wq, TASK_INTERRUPTIBLE);
		if (ncsync_exec_stopping(x))
			break;
		/* Under the lock: a change after this test wakes the entry. */
		spin_lock(&core->lock);
		holds = ncsync_wait_holds(core, &l->wait, threshold);
		spin_unlock(&core->lock);
		if (holds)
			break;
		if (!slept) {
			slept = true;
			ncsync_exec_wait_begin(x, l, threshold);
		}
		WRITE_ONCE(x->eng->busy, false);
		schedule();
		WRITE_ONCE(x->eng->busy, true);
	}
	finish_wait(wq, &wait.wq);
	remove_wait_queue(&x->eng->wq, &kick);
	if (slept) {
		x->blocked = true;
		ncsync_exec_set_blocked(x, NCSYNC_BLOCK_NONE, 0, 0, 0, 0);
		trace_ncsync_wait_end(core->index, x->q->engine, x->prog->id,
				      x->pc, holds);
	}
	return holds;
}

/*
 * Block on the engine's own queue until @done holds for this queue's
 * copies: Drain (none in flight) or a DMA record (a free slot).  A landing
 * of one of them wakes the engine.  Return false when the program stops.
 */
static bool ncsync_exec_dma_wait(struct ncsync_exec *x, u8 kind,
				 bool (*done)(struct ncsync_equeue *q))
{
	struct ncsync_core *core = x->core;
	struct ncsync_equeue *q = x->q;
	struct ncsync_wait_entry wait;
	bool slept = false;

	ncsync_wait_entry_init(&wait, NULL);
	for (;;) {
		prepare_to_wait(&x->eng->wq, &wait.wq, TASK_INTERRUPTIBLE);
		if (done(q) || ncsync_exec_stopping(x))
			break;
		if (!slept) {
			slept = true;
			ncsync_exec_set_blocked(x, kind, 0, 0, 0,
						kind == NCSYNC_BLOCK_DMA_FULL ?
						ncsync_dma_depth : 0);
			trace_ncsync_wait_begin(core->index, q->engine,
						x->prog->id, x->pc, kind, 0, 0,
						0, atomic_read(&q->dma_outstanding));
		}
		WRITE_ONCE(x->eng->busy, false);
		schedule();
		WRITE_ONCE(x->eng->busy, true);
	}
	finish_wait(&x->eng->wq, &wait.wq);
	if (slept) {
		x->blocked = true;
		ncsync_exec_set_blocked(x, NCSYNC_BLOCK_NONE, 0, 0, 0, 0);
		trace_ncsync_wait_end(core->index, q->engine, x->prog->id,
				      x->pc, done(q));
	}
	return done(q);
}

static bool ncsync_dma_drained(struct ncsync_equeue *q)
{
	return !atomic_read(&q->dma_outstanding);
}

static bool ncsync_dma_room(struct ncsync_equeue *q)
{
	return !ncsync_dma_full(q);
}

/* Block as a run asked; return false when the program stops. */
static bool ncsync_exec_block(struct ncsync_exec *x, enum ncsync_step step)
{
	switch (step) {
	case NCSYNC_STEP_WAIT:
		return ncsync_exec_wait_sleep(x);
	case NCSYNC_STEP_DRAIN:
		return ncsync_exec_dma_wait(x, NCSYNC_BLOCK_DRAIN,
					    ncsync_dma_drained);
	default:
		return ncsync_exec_dma_wait(x, NCSYNC_BLOCK_DMA_FULL,
					    ncsync_dma_room);
	}
}

static void ncsync_queue_end(struct ncsync_exec *x, u8 state, u8 fault)
{
	struct ncsync_engine_status *st = &x->q->st;

	spin_lock(&x->core->prog_lock);
	st->state = state;
	st->fault = fault;
	st->wait_kind = NCSYNC_BLOCK_NONE;
	spin_unlock(&x->core->prog_lock);
}

/* Run one queue to its end. */
static void ncsync_engine_run(struct ncsync_engine *eng,
			      struct ncsync_equeue *q)
{
	struct ncsync_core *core = eng->core;
	struct ncsync_exec x = {
		.core = core, .eng = eng, .prog = q->prog, .q = q,
		.strict = q->prog->flags & NCSYNC_SUBMIT_F_STRICT,
	};
	enum ncsync_step step = NCSYNC_STEP_NEXT;

	WRITE_ONCE(eng->busy, true);
	while (x.pc < q->count) {
		cond_resched();
		if (ncsync_exec_stopping(&x)) {
			step = NCSYNC_STEP_STOP;
			break;
		}
		step = ncsync_exec_run(&x);
		if (ncsync_step_blocks(step)) {
			if (!ncsync_exec_block(&x, step)) {
				step = NCSYNC_STEP_STOP;
				break;
			}
			step = NCSYNC_STEP_NEXT;
		} else if (step != NCSYNC_STEP_NEXT) {
			break;
		}
	}
	WRITE_ONCE(eng->busy, false);
	if (x.pc >= q->count)
		WRITE_ONCE(q->st.pc, q->count);

	switch (step) {
	case NCSYNC_STEP_HALT:
		ncsync_queue_end(&x, NCSYNC_ENG_HALTED, NCSYNC_FAULT_NONE);
		break;
	case NCSYNC_STEP_FAULT:
		ncsync_queue_end(&x, NCSYNC_ENG_FAULTED, x.fault);
		break;
	case NCSYNC_STEP_STOP:
		ncsync_queue_end(&x, NCSYNC_ENG_CANCELLED,
				 READ_ONCE(q->prog->stop) ?: NCSYNC_FAULT_CANCELLED);
		break;
	default:
		ncsync_queue_end(&x, NCSYNC_ENG_DONE, NCSYNC_FAULT_NONE);
		break;
	}
	ncsync_prog_queue_done(q);
}

static int ncsync_engine_thread(void *data)
{
	struct ncsync_engine *eng = data;
	struct ncsync_core *core = eng->core;
	struct ncsync_equeue *q;

	while (!kthread_should_stop()) {
		q = ncsync_prog_next_queue(core, eng->id);
		if (q) {
			ncsync_engine_run(eng, q);
			continue;
		}
		wait_event_interruptible(eng->wq, kthread_should_stop() ||
					 ncsync_prog_work_ready(core, eng->id));
	}
	return 0;
}

/**
 * ncsync_engines_start() - start a core's engine threads.
 * @core: the core.
 *
 * Return: 0 or a negative errno; on failure no thread runs.
 */
int ncsync_engines_start(struct ncsync_core *core)
{
	unsigned int i;

	for (i = 0; i < NCSYNC_NUM_ENGINES; i++) {
		struct ncsync_engine *eng = &core->engines[i];

		eng->core = core;
		eng->id = ncsync_engine_ids[i];
		init_waitqueue_head(&eng->wq);
		eng->thread = kthread_run(ncsync_engine_thread, eng,
					  "ncsync%u-%s", core->index,
					  ncsync_engine_title(eng->id));
		if (IS_ERR(eng->thread)) {
			int ret = PTR_ERR(eng->thread);

			eng->thread = NULL;
			ncsync_engines_stop(core);
			return ret;
		}
	}
	return 0;
}

/**
 * ncsync_engines_stop() - stop a core's engine threads.
 * @core: the core; it has no programs, and no lock is held.
 */
void ncsync_engines_stop(struct ncsync_core *core)
{
	unsigned int i;

	for (i = 0; i < NCSYNC_NUM_ENGINES; i++) {
		if (core->engines[i].thread)
			kthread_stop(core->engines[i].thread);
		core->engines[i].thread = NULL;
	}
}
