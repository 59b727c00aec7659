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
 * Waits sleep on the wait queue of the semaphore or event they wait on and
 * re-test after every change of it; Drain, and a DMA record whose queue
 * has dma_depth copies in flight, sleep on the engine's own queue, which
 * a landing of its copies wakes.  Before every record the engine checks
 * whether its program must stop and yields the CPU.
 */
#include <linux/kthread.h>
#include <linux/sched.h>

#include "ncsync_drv.h"
#include "ncsync_exec.h"
#include "ncsync_names.h"
#include "ncsync_trace.h"

/* What executing a record leads to. */
enum ncsync_step {
	NCSYNC_STEP_NEXT,
	NCSYNC_STEP_JUMP,
	NCSYNC_STEP_HALT,
	NCSYNC_STEP_EXIT,
	NCSYNC_STEP_FAULT,
	NCSYNC_STEP_STOP,
};

/**
 * struct ncsync_exec - an engine executing a queue.
 * @core: the core.
 * @eng: the engine.
 * @prog: the program.
 * @q: the queue.
 * @strict: the program runs in strict mode.
 * @fault: the fault reason when a step returns NCSYNC_STEP_FAULT.
 * @changed: the banks changed since the last progress was noted.
 * @pc: the index of the record being executed.
 */
struct ncsync_exec {
	struct ncsync_core *core;
	struct ncsync_engine *eng;
	struct ncsync_prog *prog;
	struct ncsync_equeue *q;
	bool strict;
	u8 fault;
	bool changed;
	u32 pc;
};

/*
 * Note a change of the banks; the change itself woke the waiters of what
 * it touched.
 */
static void ncsync_exec_touch(struct ncsync_exec *x)
{
	x->changed = true;
}

static bool ncsync_exec_stopping(const struct ncsync_exec *x)
{
	return READ_ONCE(x->prog->stop) || kthread_should_stop();
}

static void ncsync_exec_flush(struct ncsync_exec *x)
{
	if (x->changed) {
		x->changed = false;
		ncsync_prog_progress(x->prog);
	}
}

/* Apply one lane's update; return a strict-mode fault reason or 0. */
static u8 ncsync_exec_update_locked(struct ncsync_exec *x,
				    const struct ncsync_update_op *u)
{
	struct ncsync_core *core = x->core;

	lockdep_assert_held(&x->core->lock);
	ncsync_exec_touch(x);
	if (u->bank == NCSYNC_BANK_EVENT) {
		if (!ncsync_event_write_locked(core, u->index, u->set))
			return 0;
		return u->set ? NCSYNC_FAULT_EVENT_SET_WHILE_SET :
				NCSYNC_FAULT_EVENT_CLEAR_WHILE_CLEAR;
	}
	if (ncsync_sem_update_locked(core, u->index, u->op,
				     ncsync_update_operand(u, x->q->regs)))
		return NCSYNC_FAULT_SEM_OVERFLOW;
	return 0;
}

/* Test one lane's wait; apply its action, or its paired update, on pass. */
static bool ncsync_exec_test_locked(struct ncsync_exec *x,
				    const struct ncsync_lane *l, s32 threshold,
				    u8 *fault)
{
	const struct ncsync_wait_op *w = &l->wait;
	struct ncsync_core *core = x->core;
	bool state, after;

	lockdep_assert_held(&x->core->lock);
	if (w->bank == NCSYNC_BANK_SEM) {
		if (!ncsync_wait_sem_passes(w, core->sems[w->index], threshold))
			return false;
		if (l->paired)
			*fault = ncsync_exec_update_locked(x, &l->upd);
		return true;
	}
	state = core->events[w->index];
	if (!ncsync_wait_event_passes(w, state, &after))
		return false;
	if (after != state) {
		ncsync_event_write_locked(core, w->index, after);
		ncsync_exec_touch(x);
	}
	return true;
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
				   const struct ncsync_lane *l, u8 lane, u8 kind,
				   s32 threshold)
{
	struct ncsync_core *core = x->core;
	u8 mode = ncsync_wait_op_mode(&l->wait);

	ncsync_exec_set_blocked(x, kind, mode, l->wait.index, lane, threshold);
	trace_ncsync_wait_begin(core->index, x->q->engine, x->prog->id, x->pc,
				kind, mode, l->wait.index, threshold,
				kind == NCSYNC_BLOCK_SEM ?
				ncsync_sem_get(core, l->wait.index) :
				ncsync_event_get(core, l->wait.index));
}

/*
 * Sleep until one lane's wait passes or the program stops; *blocked tells
 * whether it slept.  The engine sleeps on the queue of the register it
 * waits on, and on its own queue, which a stop kicks.
 */
static bool ncsync_exec_wait_sleep(struct ncsync_exec *x,
				   const struct ncsync_lane *l, u8 lane,
				   u8 *fault, bool *blocked)
{
	struct ncsync_core *core = x->core;
	s32 threshold = ncsync_wait_threshold(&l->wait, x->q->regs);
	bool sem = l->wait.bank == NCSYNC_BANK_SEM;
	wait_queue_head_t *wq = ncsync_bank_wq(core, l->wait.bank,
					       l->wait.index);
	struct ncsync_wait_entry wait;
	struct wait_queue_entry kick;
	struct ncsync_wake_q wake;
	bool passed = false;

	init_waitqueue_entry(&kick, current);
	add_wait_queue(&x->eng->wq, &kick);
	ncsync_wait_entry_init(&wait, core);
	ncsync_wait_entry_cond(&wait, &l->wait, threshold);
	for (;;) {
		prepare_to_wait(wq, &wait.wq, TASK_INTERRUPTIBLE);
		if (ncsync_exec_stopping(x))
			break;
		ncsync_core_lock(core, &wake);
		passed = ncsync_exec_test_locked(x, l, threshold, fault);
		ncsync_core_unlock(core, &wake);
		if (passed)
			break;
		if (!*blocked) {
			*blocked = true;
			ncsync_exec_wait_begin(x, l, lane, sem ?
					       NCSYNC_BLOCK_SEM :
					       NCSYNC_BLOCK_EVENT, threshold);
		}
		schedule();
	}
	finish_wait(wq, &wait.wq);
	remove_wait_queue(&x->eng->wq, &kick);
	return passed;
}

/* Block until one lane's wait passes. */
static enum ncsync_step ncsync_exec_wait(struct ncsync_exec *x,
					 const struct ncsync_lane *l, u8 lane)
{
	bool blocked = false, passed;
	u8 fault = 0;

	passed = ncsync_exec_wait_sleep(x, l, lane, &fault, &blocked);
	if (blocked) {
		ncsync_exec_set_blocked(x, NCSYNC_BLOCK_NONE, 0, 0, 0, 0);
		trace_ncsync_wait_end(x->core->index, x->q->engine,
				      x->prog->id, x->pc, passed);
	}
	if (!passed)
		return NCSYNC_STEP_STOP;
	/* A wait that passes at once is no progress: a spin loop times out. */
	if (blocked)
		ncsync_prog_progress(x->prog);
	ncsync_exec_flush(x);
	if (fault && x->strict) {
		x->fault = fault;
		return NCSYNC_STEP_FAULT;
	}
	return NCSYNC_STEP_NEXT;
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
	bool blocked = false;

	ncsync_wait_entry_init(&wait, NULL);
	for (;;) {
		prepare_to_wait(&x->eng->wq, &wait.wq, TASK_INTERRUPTIBLE);
		if (done(q) || ncsync_exec_stopping(x))
			break;
		if (!blocked) {
			blocked = true;
			ncsync_exec_set_blocked(x, kind, 0, 0, 0,
						kind == NCSYNC_BLOCK_DMA_FULL ?
						ncsync_dma_depth : 0);
			trace_ncsync_wait_begin(core->index, q->engine,
						x->prog->id, x->pc, kind, 0, 0,
						0, atomic_read(&q->dma_outstanding));
		}
		schedule();
	}
	finish_wait(&x->eng->wq, &wait.wq);
	if (blocked) {
		ncsync_exec_set_blocked(x, NCSYNC_BLOCK_NONE, 0, 0, 0, 0);
		trace_ncsync_wait_end(core->index, q->engine, x->prog->id,
				      x->pc, done(q));
	}
	if (!done(q))
		return false;
	if (blocked)
		ncsync_prog_progress(x->prog);
	return true;
}

static bool ncsync_dma_drained(struct ncsync_equeue *q)
{
	return !atomic_read(&q->dma_outstanding);
}

static bool ncsync_dma_room(struct ncsync_equeue *q)
{
	return !ncsync_dma_full(q);
}

/* Drain: block until every copy this queue issued has landed. */
static enum ncsync_step ncsync_exec_drain(struct ncsync_exec *x)
{
	if (!ncsync_exec_dma_wait(x, NCSYNC_BLOCK_DRAIN, ncsync_dma_drained))
		return NCSYNC_STEP_STOP;
	return NCSYNC_STEP_NEXT;
}

/* DMA: issue the copy once the queue has a free slot, like a full ring. */
static enum ncsync_step ncsync_exec_dma(struct ncsync_exec *x,
					const struct ncsync_insn *in)
{
	if (!ncsync_exec_dma_wait(x, NCSYNC_BLOCK_DMA_FULL, ncsync_dma_room))
		return NCSYNC_STEP_STOP;
	ncsync_dma_issue(x->q, in);
	return NCSYNC_STEP_NEXT;
}

static void ncsync_exec_group_reset(struct ncsync_exec *x,
				    const struct ncsync_insn *in)
{
	struct ncsync_core *core = x->core;
	struct ncsync_wake_q wake;
	unsigned int i;

	ncsync_core_lock(core, &wake);
	for (i = 0; i < NCSYNC_NUM_SEMS; i++)
		if (ncsync_group_reset_clears(in, i))
			ncsync_sem_update_locked(core, i, NCSYNC_SEM_UPD_SET, 0);
	ncsync_core_unlock(core, &wake);
	ncsync_exec_touch(x);
}

static void ncsync_exec_poll(struct ncsync_exec *x,
			     const struct ncsync_insn *in)
{
	s32 values[NCSYNC_POLL_MAX_COUNT];
	unsigned int i;

	/* Each semaphore is read once, without the lock, as pread does. */
	for (i = 0; i < in->poll.count; i++)
		values[i] = ncsync_sem_get(x->core, in->poll.first + i);
	x->q->regs[in->poll.dst] = ncsync_poll_reduce(in, values);
}

/* The op's own effect. */
static enum ncsync_step ncsync_exec_effect(struct ncsync_exec *x,
					   const struct ncsync_insn *in)
{
	struct ncsync_equeue *q = x->q;

	switch (in->opcode) {
	case NCSYNC_OPC_HALT:
		return NCSYNC_STEP_HALT;
	case NCSYNC_OPC_EXIT:
		return NCSYNC_STEP_EXIT;
	case NCSYNC_OPC_DRAIN:
		return ncsync_exec_drain(x);
	case NCSYNC_OPC_MOV32:
		ncsync_mov_exec(in, q->regs);
		return NCSYNC_STEP_NEXT;
	case NCSYNC_OPC_BRANCH:
		return ncsync_branch_taken(in, q->regs) ? NCSYNC_STEP_JUMP :
							  NCSYNC_STEP_NEXT;
	case NCSYNC_OPC_GROUP_RESET:
		ncsync_exec_group_reset(x, in);
		return NCSYNC_STEP_NEXT;
	case NCSYNC_OPC_POLL_SEM:
		ncsync_exec_poll(x, in);
		return NCSYNC_STEP_NEXT;
	case NCSYNC_OPC_DMA:
		return ncsync_exec_dma(x, in);
	default:	/* EventSemaphore, NoOp */
		return NCSYNC_STEP_NEXT;
	}
}

/* The updates not paired with their lane's wait, in lane order. */
static enum ncsync_step ncsync_exec_updates(struct ncsync_exec *x,
					    const struct ncsync_insn *in)
{
	struct ncsync_core *core = x->core;
	struct ncsync_wake_q wake;
	unsigned int i;
	u8 fault = 0, f;

	ncsync_core_lock(core, &wake);
	for (i = 0; i < in->nlanes; i++) {
		const struct ncsync_lane *l = &in->lane[i];

		/* A DMA's update is applied when its copy lands. */
		if (!l->upd.active || l->paired || l->upd.on_land)
			continue;
		f = ncsync_exec_update_locked(x, &l->upd);
		fault = fault ?: f;
	}
	ncsync_core_unlock(core, &wake);
	ncsync_exec_flush(x);
	if (fault && x->strict) {
		x->fault = fault;
		return NCSYNC_STEP_FAULT;
	}
	return NCSYNC_STEP_NEXT;
}

/* Execute one record. */
static enum ncsync_step ncsync_exec_insn(struct ncsync_exec *x,
					 const struct ncsync_insn *in)
{
	enum ncsync_step step, upd;
	unsigned int i;

	for (i = 0; i < in->nlanes; i++) {
		if (!in->lane[i].wait.active)
			continue;
		step = ncsync_exec_wait(x, &in->lane[i], i);
		if (step != NCSYNC_STEP_NEXT)
			return step;
	}
	step = ncsync_exec_effect(x, in);
	if (step == NCSYNC_STEP_FAULT || step == NCSYNC_STEP_STOP)
		return step;
	upd = ncsync_exec_updates(x, in);
	return upd == NCSYNC_STEP_NEXT ? step : upd;
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
	u32 pc = 0;

	while (pc < q->count) {
		const struct ncsync_insn *in = &q->insns[pc];

		cond_resched();
		WRITE_ONCE(q->st.pc, pc);
		x.pc = pc;
		if (ncsync_exec_stopping(&x)) {
			step = NCSYNC_STEP_STOP;
			break;
		}
		trace_ncsync_exec(core->index, q->engine, q->prog->id, pc,
				  in->opcode);
		step = ncsync_exec_insn(&x, in);
		if (step != NCSYNC_STEP_STOP && step != NCSYNC_STEP_FAULT)
			WRITE_ONCE(q->st.executed, q->st.executed + 1);
		if (step == NCSYNC_STEP_JUMP)
			pc = in->br.target;
		else if (step == NCSYNC_STEP_NEXT)
			pc++;
		else
			break;
	}
	if (pc >= q->count)
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
