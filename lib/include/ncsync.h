/* SPDX-License-Identifier: LGPL-2.1-or-later OR MIT */
/*
 * libncsync: the userspace runtime of ncsync.
 *
 * Functions return 0 (or a value) on success and a negative errno on
 * failure, as liburing does; they do not set errno themselves (a failed
 * system call inside leaves its own value there).
 */
#ifndef NCSYNC_H
#define NCSYNC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include <linux/ncsync.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * The deadlines are POSIX struct timespec, which <time.h> defines only for
 * a POSIX program: declared here, the prototypes below name the same type
 * in a strict ISO C (-std=c99) one too.
 */
struct timespec;

/** struct ncsync_dev - an open core: its descriptor and its mapping. */
struct ncsync_dev;

/**
 * struct ncsync_dev_map - the start of every struct ncsync_dev: what the
 *	inline readers below read, part of the library's ABI.
 * @fd: the descriptor.
 * @csr: the read-only shared mapping of the CSR window (offset 0).
 */
struct ncsync_dev_map {
	int fd;
	const volatile uint32_t *csr;
};

/*
 * The readers are inline: a load from the mapping, no call.  The library
 * compiles them once more with NCSYNC_INLINE empty (lib/src/inline.c), so
 * that they are exported functions too, for callers that cannot inline a
 * C header (bindings, programs linked against an earlier header).
 */
#ifndef NCSYNC_INLINE
#define NCSYNC_INLINE static inline
#endif

int ncsync_open(unsigned int core, bool writable, struct ncsync_dev **devp);
void ncsync_close(struct ncsync_dev *dev);
int ncsync_fd(const struct ncsync_dev *dev);
const struct ncsync_info *ncsync_get_info(const struct ncsync_dev *dev);

/* Reads through the mapping: no system call, no function call. */
NCSYNC_INLINE int32_t ncsync_sem_read(const struct ncsync_dev *dev,
				      uint8_t idx)
{
	const struct ncsync_dev_map *m = (const struct ncsync_dev_map *)dev;

	return (int32_t)m->csr[NCSYNC_CSR_SEM_READ / 4 + idx];
}

NCSYNC_INLINE bool ncsync_event_read(const struct ncsync_dev *dev,
				     uint8_t idx)
{
	const struct ncsync_dev_map *m = (const struct ncsync_dev_map *)dev;

	return m->csr[NCSYNC_CSR_EVENTS / 4 + idx];
}

/*
 * Raw CSR access: pread/pwrite at CSR addresses
 * (Documentation/ncsync/model.rst, "The CSR window").
 */
int ncsync_csr_read(struct ncsync_dev *dev, uint32_t addr, uint32_t *vals,
		    unsigned int n);
int ncsync_csr_write(struct ncsync_dev *dev, uint32_t addr,
		     const uint32_t *vals, unsigned int n);

/* Updates by ioctl; *after (may be NULL) receives the new value. */
int ncsync_sem_set(struct ncsync_dev *dev, unsigned int idx, int32_t value,
		   int32_t *after);
int ncsync_sem_inc(struct ncsync_dev *dev, unsigned int idx, uint32_t n,
		   int32_t *after);
int ncsync_sem_dec(struct ncsync_dev *dev, unsigned int idx, uint32_t n,
		   int32_t *after);
int ncsync_event_set(struct ncsync_dev *dev, unsigned int idx);
int ncsync_event_clear(struct ncsync_dev *dev, unsigned int idx);
int ncsync_batch(struct ncsync_dev *dev, struct ncsync_op *ops,
		 unsigned int count);

/*
 * Waits.  @deadline is an absolute CLOCK_MONOTONIC time, NULL for none.
 * Return 0, -ETIMEDOUT, -EINTR, -ECANCELED (core reset), -EBADF or
 * -EINVAL (a bad index, mode or deadline).
 */
int ncsync_wait_sem(struct ncsync_dev *dev, unsigned int idx, uint8_t mode,
		    int32_t threshold, const struct timespec *deadline,
		    int32_t *seen);
int ncsync_wait_event(struct ncsync_dev *dev, unsigned int idx, uint8_t mode,
		      const struct timespec *deadline);
void ncsync_deadline_after(struct timespec *ts, int64_t ns);

/*
 * Programs: one growable record stream per engine.  Builders append one
 * record (or a few) and return the index of the first, or a negative errno.
 * Builders that can carry the events block take @ev (NULL for none): the
 * runtime's optional events argument.
 */

/**
 * struct ncsync_events - the 8-byte events block at +0x04 (lane 0).
 * @wait_mode: NCSYNC_WAIT_* or 0.
 * @wait_idx: the semaphore or event waited on.
 * @upd_mode: NCSYNC_UPD_* or 0.
 * @upd_idx: the semaphore or event updated.
 * @value: the threshold and the operand (one shared field).
 */
struct ncsync_events {
	uint8_t wait_mode;
	uint8_t wait_idx;
	uint8_t upd_mode;
	uint8_t upd_idx;
	uint32_t value;
};

struct ncsync_program;
struct ncsync_stream;

/* How ncsync_program_lower() rewrites AllEngineBarrier (0xD5). */
enum ncsync_barrier_lowering {
	/*
	 * Counters (default): each engine adds 1 a pass and waits until the
	 * counter reaches r31, which grows by the number of engines a pass;
	 * two counters serve alternate epochs (Documentation/ncsync/
	 * barriers.rst).
	 */
	NCSYNC_LOWER_COUNTER,
	/* One event bit per engine per pass phase, mod 3 (BARRIER 4-5). */
	NCSYNC_LOWER_EVENTS,
};

int ncsync_program_new(struct ncsync_program **progp);
void ncsync_program_free(struct ncsync_program *prog);
int ncsync_program_stream(struct ncsync_program *prog, uint8_t engine,
			  struct ncsync_stream **streamp);
struct ncsync_stream *ncsync_program_find_stream(struct ncsync_program *prog,
						 uint8_t engine);
unsigned int ncsync_program_engines(const struct ncsync_program *prog);
int ncsync_program_set_reserved(struct ncsync_program *prog,
				unsigned int sem_first, unsigned int nsems,
				unsigned int event_first,
				unsigned int nevents);
int ncsync_program_lower(struct ncsync_program *prog,
			 enum ncsync_barrier_lowering how);
int ncsync_program_finalize(struct ncsync_program *prog);

uint8_t ncsync_stream_engine(const struct ncsync_stream *s);
uint32_t ncsync_stream_count(const struct ncsync_stream *s);
/* Writable: a finalized program is validated again before it runs. */
uint8_t *ncsync_stream_record(struct ncsync_stream *s, uint32_t index);
/* Read-only: the program stays finalized. */
const uint8_t *ncsync_stream_peek(const struct ncsync_stream *s,
				  uint32_t index);
/* The text line record @index was assembled from; 0 for none. */
uint32_t ncsync_stream_line(const struct ncsync_stream *s, uint32_t index);

/* Labels: branch targets, resolved by ncsync_program_finalize(). */
int ncsync_label_new(struct ncsync_program *prog);
int ncsync_label_bind(struct ncsync_stream *s, int label);

/* Semaphore and event allocation (below the runtime's reserved slice). */
int ncsync_sem_alloc(struct ncsync_program *prog, unsigned int n);
int ncsync_sem_free(struct ncsync_program *prog, unsigned int first,
		    unsigned int n);
int ncsync_event_alloc(struct ncsync_program *prog, unsigned int n);
int ncsync_event_free(struct ncsync_program *prog, unsigned int first,
		      unsigned int n);

/* Builders (SYNC, ENC: the runtime's add_* with the ncsync_ prefix). */
int ncsync_add_evsem(struct ncsync_stream *s, const struct ncsync_events *ev,
		     uint8_t wait_mode, uint8_t wait_idx, uint32_t wait_value,
		     uint8_t upd_mode, uint8_t upd_idx, uint32_t upd_value);
int ncsync_add_semaphore_wait(struct ncsync_stream *s, uint8_t sem);
int ncsync_add_semaphore_wait_eq_and_inc(struct ncsync_stream *s,
					 uint8_t sem, uint32_t value);
int ncsync_add_semaphore_wait_cmp(struct ncsync_stream *s, uint8_t sem,
				  uint8_t mode, int32_t value);
int ncsync_add_semaphore_wait_eq(struct ncsync_stream *s, uint8_t sem,
				 int32_t value);
int ncsync_add_semaphore_wait_lt(struct ncsync_stream *s, uint8_t sem,
				 int32_t value);
int ncsync_add_semaphore_wait_le(struct ncsync_stream *s, uint8_t sem,
				 int32_t value);
int ncsync_add_semaphore_wait_gt(struct ncsync_stream *s, uint8_t sem,
				 int32_t value);
int ncsync_add_semaphore_wait_ge(struct ncsync_stream *s, uint8_t sem,
				 int32_t value);
int ncsync_add_semaphore_wait_reg(struct ncsync_stream *s, uint8_t sem,
				  uint8_t mode, uint8_t reg);
int ncsync_add_semaphore_inc(struct ncsync_stream *s, uint8_t sem);
int ncsync_add_semaphore_dec(struct ncsync_stream *s, uint8_t sem);
int ncsync_add_semaphore_add(struct ncsync_stream *s, uint8_t sem,
			     uint32_t value);
int ncsync_add_semaphore_sub(struct ncsync_stream *s, uint8_t sem,
			     uint32_t value);
int ncsync_add_semaphore_set(struct ncsync_stream *s, uint8_t sem,
			     uint32_t value);
int ncsync_add_event_set(struct ncsync_stream *s, uint8_t event);
int ncsync_add_event_clear(struct ncsync_stream *s, uint8_t event);
int ncsync_add_event_wait(struct ncsync_stream *s, uint8_t event,
			  uint8_t mode);
int ncsync_add_drain(struct ncsync_stream *s, const struct ncsync_events *ev);
int ncsync_add_halt(struct ncsync_stream *s, const struct ncsync_events *ev);
int ncsync_add_nop(struct ncsync_stream *s, const struct ncsync_events *ev);
int ncsync_add_exit(struct ncsync_stream *s, const struct ncsync_events *ev);
int ncsync_add_sema_clear(struct ncsync_stream *s, uint8_t first,
			  uint8_t last, const struct ncsync_events *ev);
int ncsync_add_sema_clear_mask(struct ncsync_stream *s,
			       const uint32_t mask[8],
			       const struct ncsync_events *ev);
int ncsync_add_poll_sem(struct ncsync_stream *s, uint8_t op, uint8_t dst,
			uint8_t first, uint8_t count,
			const struct ncsync_events *ev);
int ncsync_add_poll_sem_writeback(struct ncsync_stream *s, uint8_t dst,
				  uint8_t first, uint8_t count,
				  const struct ncsync_events *ev);
int ncsync_add_mov32_imm(struct ncsync_stream *s, uint8_t dst, uint32_t imm,
			 const struct ncsync_events *ev);
int ncsync_add_mov32(struct ncsync_stream *s, uint8_t alu, uint8_t dst,
		     uint8_t src, uint32_t imm, const struct ncsync_events *ev);
int ncsync_add_branch(struct ncsync_stream *s, int label,
		      const struct ncsync_events *ev);
int ncsync_add_branch_imm(struct ncsync_stream *s, uint8_t comp,
			  uint8_t dtype, uint8_t lhs, uint32_t imm, int label,
			  const struct ncsync_events *ev);
int ncsync_add_branch_reg(struct ncsync_stream *s, uint8_t comp,
			  uint8_t dtype, uint8_t lhs, uint8_t rhs, int label,
			  const struct ncsync_events *ev);
int ncsync_add_br_hint_rel_imm(struct ncsync_stream *s, int label,
			       const struct ncsync_events *ev);
int ncsync_add_dma(struct ncsync_stream *s, uint64_t src, uint64_t dst,
		   uint32_t len, uint32_t latency_us, uint8_t upd_mode,
		   uint8_t upd_idx, const struct ncsync_events *ev);
int ncsync_add_dma_peer(struct ncsync_stream *s, uint8_t peer, uint64_t src,
			uint64_t dst, uint32_t len, uint32_t latency_us,
			uint8_t upd_mode, uint8_t upd_idx,
			const struct ncsync_events *ev);
int ncsync_insert_events(struct ncsync_stream *s, uint32_t index,
			 const struct ncsync_events *ev);
/* Append 64 bytes as they are, unchecked: the text form's .raw. */
int ncsync_add_raw(struct ncsync_stream *s, const uint8_t *rec);

/* Barriers and fences over every engine of a program. */
int ncsync_add_sync_barrier(struct ncsync_program *prog);
/* CoreBarrier (0xD8): every core of a logical core of @lnc cores. */
int ncsync_add_core_barrier(struct ncsync_program *prog, uint8_t sem,
			    unsigned int lnc);
/* The lnc a program's 0xD8 records and fences are built for. */
int ncsync_program_set_lnc(struct ncsync_program *prog, unsigned int lnc);
int ncsync_add_all_engine_barrier(struct ncsync_program *prog,
				  const struct ncsync_events *ev);
int ncsync_add_lower_control_fence(struct ncsync_program *prog);

/*
 * Pseudo-ops lowered record by record (Documentation/ncsync/barriers.rst,
 * "Call, Return and the DMA barrier"): the DMA barrier (0xC3), Call (0xD3)
 * of a function of the same engine, inlined, and Return (0xD2).
 */
int ncsync_program_add_function(struct ncsync_program *prog, uint8_t engine,
				const char *name, struct ncsync_stream **bodyp);
int ncsync_add_dma_barrier(struct ncsync_stream *s,
			   const struct ncsync_events *ev);
int ncsync_add_trigger_collective(struct ncsync_stream *s,
				  const struct ncsync_events *ev);
int ncsync_add_trigger_collective2(struct ncsync_stream *s,
				   const struct ncsync_events *ev);
int ncsync_add_trigger_collective2_ext(struct ncsync_stream *s,
				       const struct ncsync_events *ev);
int ncsync_add_call(struct ncsync_stream *s, const char *name,
		    uint32_t args_id, const struct ncsync_events *ev);
int ncsync_add_return(struct ncsync_stream *s, const struct ncsync_events *ev);
/* Why the last lowering failed, or NULL. */
const char *ncsync_program_lower_error(const struct ncsync_program *prog);
int ncsync_program_lower_where(const struct ncsync_program *prog,
			       unsigned int *line, unsigned int *col);

/**
 * struct ncsync_idle - a resource a program's lowering owns, off the value
 *	it must have when the program starts (ncsync_program_idle_check()).
 * @bank: NCSYNC_BANK_SEM or NCSYNC_BANK_EVENT.
 * @index: the semaphore or event.
 * @value: its value on the core (an event: 1, set).
 * @idle: the value it must have, as text: ">= 0", "0", "clear".
 * @owner: what it is, as text: "a counter of the all-engine barrier's
 *	counter form", ...
 */
struct ncsync_idle {
	uint8_t bank;
	uint8_t index;
	int32_t value;
	const char *idle;
	const char *owner;
};

int ncsync_program_idle_check(const struct ncsync_program *prog,
			      const struct ncsync_dev *dev,
			      struct ncsync_idle *out, unsigned int max);
const char *ncsync_program_owner(const struct ncsync_program *prog,
				 uint8_t bank, uint8_t index);

/* Text form (Documentation/ncsync/asm.rst). */

/**
 * struct ncsync_asm_error - where and why ncsync_asm() refused its input.
 * @line: 1-based line.
 * @col: 1-based column.
 * @msg: what is wrong.
 */
struct ncsync_asm_error {
	unsigned int line;
	unsigned int col;
	char msg[128];
};

/* A buffer of this size holds any line ncsync_disasm() prints. */
#define NCSYNC_DISASM_LINE_MAX	256

int ncsync_disasm(const uint8_t *rec, char *buf, size_t len);
int ncsync_disasm_program(const struct ncsync_program *prog, FILE *out);
int ncsync_asm(const char *text, struct ncsync_program **progp,
	       struct ncsync_asm_error *err);

/**
 * struct ncsync_asm_part - one core's part of a program across cores.
 * @core: the core's position in its logical core ("core N").
 * @prog: its program, the caller's: ncsync_program_free() frees it.
 */
struct ncsync_asm_part {
	unsigned int core;
	struct ncsync_program *prog;
};

/* A text of "core N" statements, one program per core, by position. */
int ncsync_asm_cores(const char *text, struct ncsync_asm_part *parts,
		     unsigned int max, struct ncsync_asm_error *err);
int ncsync_disasm_cores(const struct ncsync_asm_part *parts, unsigned int n,
			FILE *out);
const char *ncsync_reason_name(unsigned int reason);
const char *ncsync_engine_name(uint8_t engine);
const char *ncsync_prog_state_name(uint32_t state);
const char *ncsync_engine_state_name(uint8_t state);
const char *ncsync_fault_name(uint8_t fault);
const char *ncsync_wait_kind_name(uint8_t kind);
const char *ncsync_wait_mode_name(uint8_t mode);
int ncsync_wait_mode_parse(const char *name, uint8_t *mode);

/* A decoded record: what it does, without its byte offsets. */

/**
 * struct ncsync_wait_view - one wait of a decoded record.
 * @active: 1 when the lane has a wait, else 0 and the rest zero.
 * @bank: NCSYNC_BANK_SEM or NCSYNC_BANK_EVENT.
 * @index: the semaphore or event waited on.
 * @mode: NCSYNC_WAIT_*, as encoded (ncsync_wait_mode_name() names it).
 * @reg: 1 when the threshold is the engine register numbered @value.
 * @pad: zero.
 * @value: the threshold, or the register number.
 */
struct ncsync_wait_view {
	uint8_t active;
	uint8_t bank;
	uint8_t index;
	uint8_t mode;
	uint8_t reg;
	uint8_t pad[3];
	uint32_t value;
};

/* struct ncsync_update_view.op */
enum ncsync_update_kind {
	NCSYNC_UPDATE_SEM_SET,		/* semaphore = operand */
	NCSYNC_UPDATE_SEM_ADD,		/* semaphore += operand (+1: 1) */
	NCSYNC_UPDATE_SEM_SUB,		/* semaphore -= operand (-1: 1) */
	NCSYNC_UPDATE_EVENT_SET,
	NCSYNC_UPDATE_EVENT_CLEAR,
};

/**
 * struct ncsync_update_view - one update of a decoded record.
 * @active: 1 when the lane has an update, else 0 and the rest zero.
 * @bank: NCSYNC_BANK_SEM or NCSYNC_BANK_EVENT.
 * @index: the semaphore or event updated.
 * @op: enum ncsync_update_kind.
 * @reg: 1 when the operand is the engine register numbered @operand.
 * @on_land: 1 for a DMA record's update: applied when its copy lands.
 * @paired: 1 when the same lane waits on the same semaphore: the wait and
 *	this update are one atomic test-and-modify.
 * @pad: zero.
 * @operand: the operand (1 for the +1 and -1 modes), or the register.
 */
struct ncsync_update_view {
	uint8_t active;
	uint8_t bank;
	uint8_t index;
	uint8_t op;
	uint8_t reg;
	uint8_t on_land;
	uint8_t paired;
	uint8_t pad;
	uint32_t operand;
};

/**
 * struct ncsync_record_view - a record as the engines execute it.
 * @opcode: NCSYNC_OPC_*.
 * @nlanes: lanes the record has: 1, or 2 for EventSemaphore.
 * @pad: zero.
 * @reason: 0, or the enum ncsync_rec_reason the validator refused the
 *	record for (then every other field is zero).
 * @wait: the waits in lane order (events block, extended block).
 * @update: the updates in lane order.
 * @target: a Branch's target record index, else -1.
 * @dma_src: a DMA record's source offset in device memory.
 * @dma_dst: its destination offset.
 * @dma_len: its length in bytes.
 * @dma_latency_us: its modelled latency.
 */
struct ncsync_record_view {
	uint8_t opcode;
	uint8_t nlanes;
	uint8_t pad[2];
	uint32_t reason;
	struct ncsync_wait_view wait[2];
	struct ncsync_update_view update[2];
	int64_t target;
	uint64_t dma_src;
	uint64_t dma_dst;
	uint32_t dma_len;
	uint32_t dma_latency_us;
};

int ncsync_record_view(const uint8_t *rec, uint32_t nrecords,
		       struct ncsync_record_view *v);
const char *ncsync_update_kind_name(uint8_t kind);

/* Running programs on a device. */

/**
 * struct ncsync_submit_error - a record the kernel refused.
 * @engine: its engine.
 * @index: its index in the engine's queue.
 * @reason: enum ncsync_rec_reason.
 */
struct ncsync_submit_error {
	uint8_t engine;
	uint32_t index;
	uint32_t reason;
};

int ncsync_program_submit(struct ncsync_dev *dev, struct ncsync_program *prog,
			  uint32_t flags, uint32_t watchdog_ms, uint32_t *id,
			  struct ncsync_submit_error *err);
/* @progs[i] on @devs[i]'s core, one program across a logical core. */
int ncsync_program_submit_cores(struct ncsync_dev *const devs[],
				struct ncsync_program *const progs[],
				unsigned int n, uint32_t flags,
				uint32_t watchdog_ms, uint32_t *id,
				struct ncsync_submit_error *err,
				unsigned int *err_part);
/* The record the last finalization refused: 0, or -ENOENT for none. */
int ncsync_program_conform(const struct ncsync_program *prog,
			   struct ncsync_submit_error *err);
int ncsync_program_error(const struct ncsync_program *prog,
			 struct ncsync_submit_error *err);
int ncsync_program_wait(struct ncsync_dev *dev, uint32_t id,
			const struct timespec *deadline, uint32_t *state);
int ncsync_program_status(struct ncsync_dev *dev, uint32_t id, bool release,
			  struct ncsync_prog_status *status,
			  struct ncsync_sem_value *sems);
/* The part on the core at @core_pos of a program across cores. */
int ncsync_program_status_core(struct ncsync_dev *dev, uint32_t id,
			       unsigned int core_pos,
			       struct ncsync_prog_status *status,
			       struct ncsync_sem_value *sems);
int ncsync_program_cancel(struct ncsync_dev *dev, uint32_t id);

int ncsync_reset(struct ncsync_dev *dev);
int ncsync_ack(struct ncsync_dev *dev, uint64_t *seq);
int ncsync_stats(struct ncsync_dev *dev, struct ncsync_stats *stats);

/* Deadlock analysis of a program's status report. */

/* struct ncsync_deadlock_engine.poster[]: no record would post it. */
#define NCSYNC_NO_POSTER	(-1)

/**
 * struct ncsync_deadlock_engine - one engine of ncsync_program_deadlock().
 * @engine: the engine (NCSYNC_ENGINE_*), as in the status report.
 * @stuck: 1 when the engine waits on a semaphore or an event that only
 *	stuck engines could post, else 0.
 * @pad: zero.
 * @poster: for entry j of the status report's engines, the index of the
 *	first record engine j may still run that could post what this engine
 *	waits for, or NCSYNC_NO_POSTER: for this engine itself, for an engine
 *	that has ended, and for every j when this engine does not wait on a
 *	semaphore or an event.
 */
struct ncsync_deadlock_engine {
	uint8_t engine;
	uint8_t stuck;
	uint8_t pad[6];
	int64_t poster[NCSYNC_NUM_ENGINES];
};

/**
 * struct ncsync_deadlock - which engines of a program are stuck, and why.
 * @nengines: entries of @engines used: the status report's nengines.
 * @nstuck: engines with @stuck set.
 * @ncycle: entries of @cycle used; 0 when the stuck engines form no cycle.
 * @reserved: zero.
 * @cycle: the engines (NCSYNC_ENGINE_*) of a cycle of stuck engines: each
 *	waits for what only the next one (the last: the first) could post.
 * @pad: zero.
 * @engines: one entry per entry of the status report's engines, in order;
 *	those past @nengines have engine 0, stuck 0 and no posters.
 */
struct ncsync_deadlock {
	uint32_t nengines;
	uint32_t nstuck;
	uint32_t ncycle;
	uint32_t reserved;
	uint8_t cycle[NCSYNC_NUM_ENGINES];
	uint8_t pad[3];
	struct ncsync_deadlock_engine engines[NCSYNC_NUM_ENGINES];
};

/* Engines ncsync_program_deadlock_cores() follows, on every core. */
#define NCSYNC_DEADLOCK_MAX_ENGINES	16

/**
 * struct ncsync_deadlock_slot - one engine of ncsync_program_deadlock_cores().
 * @core: its core's position in the logical core.
 * @engine: the engine (NCSYNC_ENGINE_*).
 * @stuck: 1 when it waits on a semaphore or an event that only stuck
 *	engines could post, else 0.
 * @pad: zero.
 * @poster: for entry j of @engines of struct ncsync_deadlock_cores, the
 *	first record engine j may still run that could post what this one
 *	waits for, on this one's core, or NCSYNC_NO_POSTER.
 */
struct ncsync_deadlock_slot {
	uint8_t core;
	uint8_t engine;
	uint8_t stuck;
	uint8_t pad[5];
	int64_t poster[NCSYNC_DEADLOCK_MAX_ENGINES];
};

/**
 * struct ncsync_deadlock_cores - which engines of a program across cores
 * are stuck, and why.
 * @nengines: entries of @engines used: every part's engines, in the order
 *	of the parts and of each part's status report.
 * @nstuck: engines with @stuck set.
 * @ncycle: entries of @cycle used; 0 when the stuck engines form no cycle.
 * @reserved: zero.
 * @cycle: a cycle of stuck engines, by index in @engines: each waits for
 *	what only the next one (the last: the first) could post.
 * @engines: the engines.
 */
struct ncsync_deadlock_cores {
	uint32_t nengines;
	uint32_t nstuck;
	uint32_t ncycle;
	uint32_t reserved;
	uint8_t cycle[NCSYNC_DEADLOCK_MAX_ENGINES];
	struct ncsync_deadlock_slot engines[NCSYNC_DEADLOCK_MAX_ENGINES];
};

/**
 * ncsync_program_deadlock() - find the engines of @prog that are stuck.
 * @prog: a finalized program, the one the report is about.
 * @status: its ncsync_program_status() report.
 * @dl: out: the analysis.
 *
 * Return: 0, or -EINVAL for a NULL argument, a program that was never
 * finalized, or a report of more than NCSYNC_NUM_ENGINES engines.
 */
int ncsync_program_deadlock(const struct ncsync_program *prog,
			    const struct ncsync_prog_status *status,
			    struct ncsync_deadlock *dl);
/* The same analysis for a program across cores: @status[i] of @parts[i]. */
int ncsync_program_deadlock_cores(const struct ncsync_asm_part *parts,
				  const struct ncsync_prog_status *status,
				  unsigned int n,
				  struct ncsync_deadlock_cores *dl);

/**
 * struct ncsync_barrier_miss - an engine that will not arrive at the
 *	barrier others wait in (struct ncsync_barrier_short).
 * @engine: the engine (NCSYNC_ENGINE_*).
 * @ended: 1 when it ended (done or halted), 0 when it waits elsewhere.
 * @pad: zero.
 * @line: the text line of @branch, 0 for none.
 * @branch: the record of its stream that makes it miss the barrier: the
 *	last branch (not the barrier's own) that jumps forward over one of
 *	the barrier's arrivals, or the last Exit before the first of them;
 *	-1 when none does, or the barrier's line is 0.
 */
struct ncsync_barrier_miss {
	uint8_t engine;
	uint8_t ended;
	uint8_t pad[2];
	uint32_t line;
	int64_t branch;
};

/**
 * struct ncsync_barrier_short - a lowered barrier some engines of a part
 *	wait in and others will not reach (ncsync_program_barrier_short()).
 * @line: the barrier's text line (its lowered records keep it); 0 for
 *	none: a program not assembled from text, or the start rendezvous.
 * @core: the position of the part's core.
 * @nwaiting: entries of @waiting; 0 when no engine waits in a barrier
 *	that another misses.
 * @nmissing: entries of @missing.
 * @pad: zero.
 * @waiting: the engines (NCSYNC_ENGINE_*) that wait in the barrier.
 * @missing: the part's other engines: each ended or waits elsewhere.
 */
struct ncsync_barrier_short {
	uint32_t line;
	uint8_t core;
	uint8_t nwaiting;
	uint8_t nmissing;
	uint8_t pad;
	uint8_t waiting[NCSYNC_DEADLOCK_MAX_ENGINES];
	struct ncsync_barrier_miss missing[NCSYNC_DEADLOCK_MAX_ENGINES];
};

/*
 * Whether semaphore or event @index (@bank: NCSYNC_BANK_SEM or _EVENT) is
 * one the barrier lowerings of @prog took (Documentation/ncsync/
 * barriers.rst, "What it owns").
 */
bool ncsync_program_barrier_owns(const struct ncsync_program *prog,
				 uint8_t bank, uint8_t index);
/*
 * The first part, of the @n @parts with their reports @status, with
 * engines waiting in a lowered barrier that another engine of the part
 * will not reach; @out->nwaiting 0 when there is none.  0, or -EINVAL.
 */
int ncsync_program_barrier_short(const struct ncsync_asm_part *parts,
				 const struct ncsync_prog_status *status,
				 unsigned int n,
				 struct ncsync_barrier_short *out);

/* Checking a program on every schedule (Documentation/ncsync/check.rst). */

/* What ncsync_check() concluded. */
enum ncsync_check_verdict {
	NCSYNC_CHECK_SAFE,		/* every schedule explored, no defect */
	NCSYNC_CHECK_DEFECT,		/* at least one defect */
	NCSYNC_CHECK_INCONCLUSIVE,	/* a limit ended the search first */
};

/* The defect kinds; ncsync_defect_name() gives their names. */
enum ncsync_defect_kind {
	NCSYNC_DEFECT_DEADLOCK,
	NCSYNC_DEFECT_DMA_RACE,
	NCSYNC_DEFECT_EVENT,
	NCSYNC_DEFECT_OVERFLOW,
	NCSYNC_DEFECT_BARRIER_IMBALANCE,
	NCSYNC_DEFECT_UNPOSTED_WAIT,
	NCSYNC_DEFECT_KINDS,
};

/*
 * The defects a Promela model can hold (ncsync_check_promela_kinds()), as
 * bits 1 << NCSYNC_DEFECT_*: a deadlock is SPIN's invalid end state, the
 * others assertions.
 */
#define NCSYNC_PROMELA_KINDS						\
	(1U << NCSYNC_DEFECT_DEADLOCK | 1U << NCSYNC_DEFECT_DMA_RACE |	\
	 1U << NCSYNC_DEFECT_EVENT | 1U << NCSYNC_DEFECT_OVERFLOW)

/* The part of a record a step executes (struct ncsync_check_step.part). */
enum ncsync_check_part {
	NCSYNC_PART_WAIT0,	/* the wait of lane 0, with its action */
	NCSYNC_PART_WAIT1,	/* the wait of lane 1 */
	NCSYNC_PART_EFFECT,	/* the op's own effect */
	NCSYNC_PART_UPDATE0,	/* the unpaired update of lane 0 */
	NCSYNC_PART_UPDATE1,	/* the unpaired update of lane 1 */
	NCSYNC_PART_LAND,	/* a copy lands, with its completion update */
};

/*
 * The limit that ended a search (ncsync_check_limit()); its name is
 * ncsync_check_limit_name()'s.
 */
enum ncsync_check_limit {
	NCSYNC_CHECK_LIMIT_NONE,	/* none: every schedule was explored */
	NCSYNC_CHECK_LIMIT_STATES,	/* max_states distinct states */
	NCSYNC_CHECK_LIMIT_TIME,	/* timeout_ms */
	NCSYNC_CHECK_LIMIT_MEMORY,	/* max_memory_mb: visited set + stack */
	NCSYNC_CHECK_LIMIT_COPIES,	/* NCSYNC_CHECK_MAX_COPIES in flight */
	NCSYNC_CHECK_LIMITS,
};

/* struct ncsync_check_opts.flags */
#define NCSYNC_CHECK_F_DMA_FIFO		0x1U	/* copies land in issue order */
#define NCSYNC_CHECK_F_NO_ACCEL		0x2U	/* no loop acceleration */
#define NCSYNC_CHECK_F_NO_SYMMETRY	0x4U	/* no symmetry reduction */

/* The default of struct ncsync_check_opts.max_states. */
#define NCSYNC_CHECK_MAX_STATES		10000000ULL
/* The default of struct ncsync_check_opts.max_memory_mb (MiB). */
#define NCSYNC_CHECK_MAX_MEMORY_MB	2048U
/* Copies in flight the checker follows. */
#define NCSYNC_CHECK_MAX_COPIES		64
/* Cores (parts, and the peers they signal) and engines it follows. */
#define NCSYNC_CHECK_MAX_CORES		4
#define NCSYNC_CHECK_MAX_ENGINES	16

/**
 * struct ncsync_check_opts - what ncsync_check() explores, and its limits.
 * @max_states: distinct states to explore at most; 0 for no limit.
 * @timeout_ms: milliseconds to search at most; 0 for no limit.
 * @flags: NCSYNC_CHECK_F_*.
 * @max_memory_mb: MiB the search's visited set and stack of frames may
 *	take at most; 0 for NCSYNC_CHECK_MAX_MEMORY_MB.
 * @reserved: zero.
 * @sems: the initial semaphores.
 * @events: the initial events, 0 or 1.
 */
struct ncsync_check_opts {
	uint64_t max_states;
	uint32_t timeout_ms;
	uint32_t flags;
	uint32_t max_memory_mb;
	uint32_t reserved;
	int32_t sems[NCSYNC_NUM_SEMS];
	uint8_t events[NCSYNC_NUM_EVENTS];
};

/**
 * struct ncsync_check_step - one step of a schedule.
 * @engine: the engine that steps, or, for a landing, the copy's issuer.
 * @part: enum ncsync_check_part.
 * @core: the position of @engine's core in its logical core (0 for a
 *	program ncsync_check() checks).
 * @pad: zero.
 * @record: the record the engine executes, or the copy's DMA record.
 * @copy: a landing: the issuer's copy number (0: the first it issued).
 * @line: the text line @record was assembled from (ncsync_asm(); a
 *	lowered barrier's records have the line of the barrier), 0 for none.
 *	Not read by ncsync_check_replay().
 */
struct ncsync_check_step {
	uint8_t engine;
	uint8_t part;
	uint8_t core;
	uint8_t pad;
	uint32_t record;
	uint32_t copy;
	uint32_t line;
};

/**
 * struct ncsync_check_engine - an engine of a checked state.
 * @engine: the engine (NCSYNC_ENGINE_*).
 * @state: NCSYNC_ENG_RUNNING, _BLOCKED (its next step cannot run), _DONE
 *	or _HALTED.
 * @part: its next step (enum ncsync_check_part), while it runs.
 * @inflight: copies it issued that have not landed.
 * @pc: the record it executes, or where it ended.
 * @regs: its registers.
 */
struct ncsync_check_engine {
	uint8_t engine;
	uint8_t state;
	uint8_t part;
	uint8_t inflight;
	uint32_t pc;
	uint32_t regs[NCSYNC_NUM_REGS];
};

/**
 * struct ncsync_check_copy - a copy in flight.
 * @engine: its issuer.
 * @core: the position of its issuer's core.
 * @pad: zero.
 * @record: its DMA record.
 * @copy: the issuer's copy number.
 */
struct ncsync_check_copy {
	uint8_t engine;
	uint8_t core;
	uint8_t pad[2];
	uint32_t record;
	uint32_t copy;
};

/**
 * struct ncsync_check_state - a core as the checker sees it.
 * @nengines: entries of @engines used, in engine id order: the engines of
 *	the core's part of the program.
 * @ncopies: entries of @copies used, in issue order.
 * @engines: the engines.
 * @copies: the copies in flight that the core's engines issued (copies
 *	move the bytes of their issuer's core).
 * @sems: the semaphores.
 * @events: the events, 0 or 1.
 */
struct ncsync_check_state {
	uint32_t nengines;
	uint32_t ncopies;
	struct ncsync_check_engine engines[NCSYNC_NUM_ENGINES];
	struct ncsync_check_copy copies[NCSYNC_CHECK_MAX_COPIES];
	int32_t sems[NCSYNC_NUM_SEMS];
	uint8_t events[NCSYNC_NUM_EVENTS];
};

/**
 * struct ncsync_check_core - one core of a checked state.
 * @core: its position in its logical core.
 * @pad: zero.
 * @state: its engines, its copies in flight, its banks.
 */
struct ncsync_check_core {
	uint8_t core;
	uint8_t pad[7];
	struct ncsync_check_state state;
};

/**
 * struct ncsync_check_defect - a defect and the schedule that reaches it.
 * @kind: enum ncsync_defect_kind.
 * @nsteps: entries of @steps.
 * @steps: the schedule from the initial state, the shortest found.
 * @engine: the engine at fault: the waiting one (unposted-wait,
 *	barrier-imbalance), the one whose step it was (event, overflow; for
 *	a landing its issuer), the issuer of the later copy (dma-race); for a
 *	deadlock the first engine that has not ended.
 * @record: that engine's record (for dma-race: the later copy's).
 * @other: dma-race: the copy in flight the later one overlaps.
 * @state: the state after the last step of @engine's core.
 * @deadlock: deadlock and barrier-imbalance: who waits on whom in @state,
 *	as ncsync_program_deadlock() tells it of @engine's core's part.
 * @core: the position of @engine's core.
 * @ncores: entries of @cores.
 * @cores: the state after the last step of every core: the program's
 *	parts in the order given, then the peers their DMA records land on
 *	that no part runs on, by position.
 * @deadlock_cores: deadlock and barrier-imbalance of a program of more
 *	than one part (ncsync_check_cores()): who waits on whom across the
 *	cores, as ncsync_program_deadlock_cores() tells it; NULL otherwise.
 * @nvalues: entries of @values.
 * @values: unposted-wait decided on the reachable states: every value the
 *	semaphore waited on took in the states the search reached, in
 *	increasing order (for an event, 0 clear and 1 set); NULL otherwise.
 * @barrier: deadlock and barrier-imbalance where engines wait in a
 *	lowered barrier that another engine will not reach: the barrier and
 *	who misses it, as ncsync_program_barrier_short() tells it of the
 *	state reached; NULL otherwise.
 */
struct ncsync_check_defect {
	uint32_t kind;
	uint32_t nsteps;
	const struct ncsync_check_step *steps;
	uint8_t engine;
	uint32_t record;
	struct ncsync_check_copy other;
	struct ncsync_check_state state;
	struct ncsync_deadlock deadlock;
	uint32_t core;
	uint32_t ncores;
	const struct ncsync_check_core *cores;
	const struct ncsync_deadlock_cores *deadlock_cores;
	uint32_t nvalues;
	const int32_t *values;
	const struct ncsync_barrier_short *barrier;
};

/* What the loop acceleration did (struct ncsync_check_accel.status). */
enum ncsync_check_accel_status {
	NCSYNC_ACCEL_NONE,	/* no loop repeats up to a shift; or off */
	NCSYNC_ACCEL_APPLIED,	/* the verdict covers every pass */
	NCSYNC_ACCEL_FELL_BACK,	/* the explicit search's verdict */
};

/**
 * struct ncsync_check_accel - what the loop acceleration of ncsync_check()
 *	did (Documentation/ncsync/check.rst, "Loops of any trip count").
 * @status: enum ncsync_check_accel_status.
 * @engine: unless NCSYNC_ACCEL_NONE, the engine whose branch back closed
 *	the loop.
 * @core: its core's position.
 * @record: the branch.
 * @line: its text line, 0 if unknown.
 * @why: NCSYNC_ACCEL_FELL_BACK: why the induction did not apply (a static
 *	string); NULL otherwise.
 */
struct ncsync_check_accel {
	uint32_t status;
	uint32_t engine;
	uint32_t core;
	uint32_t record;
	uint32_t line;
	const char *why;
};

/**
 * struct ncsync_check_symmetry - the engines ncsync_check() took as
 *	interchangeable (Documentation/ncsync/check.rst, "Symmetry").
 * @nclasses: classes of two or more engines; 0 when none, or when
 *	NCSYNC_CHECK_F_NO_SYMMETRY turned the reduction off.
 * @nmembers: entries of @core, @engine and @cls used.
 * @core: each member's core position.
 * @engine: each member's engine id.
 * @cls: each member's class, 0 .. @nclasses - 1; the members of a class
 *	follow each other.
 */
struct ncsync_check_symmetry {
	uint32_t nclasses;
	uint32_t nmembers;
	uint8_t core[NCSYNC_CHECK_MAX_ENGINES];
	uint8_t engine[NCSYNC_CHECK_MAX_ENGINES];
	uint8_t cls[NCSYNC_CHECK_MAX_ENGINES];
};

struct ncsync_check_result;

void ncsync_check_opts_init(struct ncsync_check_opts *opts);
int ncsync_check(const struct ncsync_program *prog,
		 const struct ncsync_check_opts *opts,
		 struct ncsync_check_result **resp);
enum ncsync_check_verdict
ncsync_check_verdict(const struct ncsync_check_result *res);
uint64_t ncsync_check_states(const struct ncsync_check_result *res);
uint64_t ncsync_check_class_states(const struct ncsync_check_result *res);
bool ncsync_check_complete(const struct ncsync_check_result *res);
enum ncsync_check_limit
ncsync_check_limit(const struct ncsync_check_result *res);
const char *ncsync_check_limit_name(unsigned int limit);
unsigned int ncsync_check_ndefects(const struct ncsync_check_result *res);
const struct ncsync_check_defect *
ncsync_check_defect(const struct ncsync_check_result *res, unsigned int i);
void ncsync_check_free(struct ncsync_check_result *res);
int ncsync_check_accel(const struct ncsync_check_result *res,
		       struct ncsync_check_accel *out);
int ncsync_check_symmetry(const struct ncsync_check_result *res,
			  struct ncsync_check_symmetry *out);
const char *ncsync_defect_name(unsigned int kind);
int ncsync_check_replay(const struct ncsync_program *prog,
			const struct ncsync_check_opts *opts,
			const struct ncsync_check_step *steps, size_t nsteps,
			int (*fn)(void *arg, size_t i,
				  const struct ncsync_check_state *st),
			void *arg, size_t *done);
/* A program across the cores of a logical core: its parts, by position. */
int ncsync_check_cores(const struct ncsync_asm_part *parts, unsigned int n,
		       const struct ncsync_check_opts *opts,
		       struct ncsync_check_result **resp);
int ncsync_check_replay_cores(const struct ncsync_asm_part *parts,
			      unsigned int n,
			      const struct ncsync_check_opts *opts,
			      const struct ncsync_check_step *steps,
			      size_t nsteps,
			      int (*fn)(void *arg, size_t i,
					const struct ncsync_check_core *cores,
					unsigned int ncores),
			      void *arg, size_t *done);
/* The program as a Promela model for SPIN (Documentation/ncsync/check.rst). */
int ncsync_check_promela(const struct ncsync_asm_part *parts, unsigned int n,
			 const struct ncsync_check_opts *opts, FILE *out);
int ncsync_check_promela_kinds(const struct ncsync_asm_part *parts,
			       unsigned int n,
			       const struct ncsync_check_opts *opts,
			       uint32_t kinds, FILE *out);

#ifdef __cplusplus
}
#endif

#endif /* NCSYNC_H */
