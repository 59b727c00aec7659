/* SPDX-License-Identifier: LGPL-2.1-or-later OR MIT */
/*
 * libncsync: the model checker's files (Documentation/ncsync/check.rst,
 * "The checker's files"), from the bottom: the state (check_state.c), the
 * executor (check_exec.c), the reduction (check_fut.c, check_line.c,
 * check_path.c, check_dma.c, check_bound.c, check_indep.c, check_stub.c),
 * the search (check.c, check_values.c, check_accel.c, check_finite.c,
 * check_sym.c, check_seen.c, check_view.c, check_result.c).  Not
 * installed.
 *
 * The executor runs the decoded records of a finalized program on an
 * explicit core state, one step at a time, through the effect function
 * the engines use (common/ncsync_effect.h).  Documentation/ncsync/
 * check.rst, "Steps", defines what a step is.
 */
#ifndef NCSYNC_CHECK_H
#define NCSYNC_CHECK_H

#include "internal.h"

/* Copies in flight in all, and per engine (dma_depth's default). */
#define CK_MAX_COPIES	64
#define CK_DEPTH	64

/*
 * The cores a check follows (its parts, and the peers their DMA records
 * land on), and the engines of all of them (the footprint masks' bits).
 */
#define CK_MAX_CORES	NCSYNC_CHECK_MAX_CORES
#define CK_MAX_SLOTS	NCSYNC_CHECK_MAX_ENGINES
#define CK_MAX_SEMS	(CK_MAX_CORES * NCSYNC_NUM_SEMS)
#define CK_MAX_EVENTS	(CK_MAX_CORES * NCSYNC_NUM_EVENTS)

/*
 * Where an engine is inside its record (struct ck_eng.sub): the public
 * enum ncsync_check_part, which ck_step_out() and the replay take it as.
 */
#define CK_SUB_EFFECT	2	/* 0, 1: the wait of lane 0, 1 */
#define CK_SUB_UPD	3	/* 3, 4: the update of lane 0, 1 */
_Static_assert(NCSYNC_PART_WAIT0 == 0 && NCSYNC_PART_WAIT1 == 1,
	       "ck_eng.sub 0, 1 are the waits of lanes 0, 1");
_Static_assert(NCSYNC_PART_EFFECT == CK_SUB_EFFECT,
	       "ck_eng.sub CK_SUB_EFFECT is the effect");
_Static_assert(NCSYNC_PART_UPDATE0 == CK_SUB_UPD &&
	       NCSYNC_PART_UPDATE1 == CK_SUB_UPD + 1,
	       "ck_eng.sub CK_SUB_UPD + l is the update of lane l");
_Static_assert(NCSYNC_PART_LAND > CK_SUB_UPD + 1,
	       "a landing is no part of a record");

/* Engine status (struct ck_eng.status). */
#define CK_RUNNING	0
#define CK_DONE		1
#define CK_HALTED	2

/* Actors of the footprint masks: engine slot i, and its copies' landings. */
#define CK_ACTOR_ENG(i)	(1U << (i))
#define CK_ACTOR_DMA(i)	(1U << (CK_MAX_SLOTS + (i)))

/* Semaphore or event @i of core @c (the core's index in the check). */
#define CK_G(c, i)	((c) * NCSYNC_NUM_SEMS + (i))

/**
 * struct ck_copy - a copy in flight.
 * @eng: the issuing engine's slot.
 * @rec: the DMA record.
 * @seq: the issuer's copy number (0: its first copy); not in the hash.
 */
struct ck_copy {
	uint8_t eng;
	uint32_t rec;
	uint32_t seq;
};

/**
 * struct ck_eng - an engine.
 * @pc: the record it executes.
 * @sub: its next step inside the record (CK_SUB_*).
 * @status: CK_RUNNING, CK_DONE or CK_HALTED.
 * @ending: the record's Halt or Exit effect ran: it ends after the updates.
 * @inflight: copies it issued that have not landed.
 * @next: the record after this one (set by the effect).
 * @issued: copies it issued so far; not in the hash.
 * @regs: its registers.
 */
struct ck_eng {
	uint32_t pc;
	uint8_t sub;
	uint8_t status;
	uint8_t ending;
	uint8_t inflight;
	uint32_t next;
	uint32_t issued;
	uint32_t regs[NCSYNC_NUM_REGS];
};

/**
 * struct ck_bank - the banks of one core.
 * @sems: the semaphores.
 * @events: the events, 0 or 1.
 */
struct ck_bank {
	int32_t sems[NCSYNC_NUM_SEMS];
	uint8_t events[NCSYNC_NUM_EVENTS];
};

/**
 * struct ck_state - the cores of a check: engines, copies in flight, banks.
 * @ncopies: entries of @copies used, in issue order.
 * @copies: the copies in flight, of every core.
 * @eng: the engines, by slot.
 * @bank: the banks of each core; only the first ck_prog.ncores are used.
 *
 * ck_state_copy() copies only what is used: @ncopies entries of @copies,
 * ck_prog.n of @eng, ck_prog.ncores of @bank.
 */
struct ck_state {
	uint32_t ncopies;
	struct ck_copy copies[CK_MAX_COPIES];
	struct ck_eng eng[CK_MAX_SLOTS];
	struct ck_bank bank[CK_MAX_CORES];
};

struct ck_paths;

/**
 * struct ck_prog - a program, decoded for the executor.
 * @ncores: the cores: @nparts with engines, then the peers without.
 * @nparts: the cores with a part of the program.
 * @pos: each core's position in its logical core.
 * @prog: each part's finalized program; NULL for a peer.
 * @bank_of: per position, the core there, or 0xFF.
 * @state_size: the bytes of struct ck_state the @ncores cores use.
 * @n: the engines of every part.
 * @core: the core of each slot.
 * @engine: the engine id of each slot: by part, in id order.
 * @count: the records of each slot.
 * @insns: the decoded records of each slot.
 * @fifo: copies land in issue order only (--dma-fifo).
 * @sem_users: per semaphore of every core (CK_G()), the actors that touch
 *	it (CK_ACTOR_*).
 * @ev_users: per event, the same.
 * @nsem_used: entries of @sem_used.
 * @sem_used: the semaphores (CK_G()) any record names, or an initial value
 *	sets.
 * @nev_used: entries of @ev_used.
 * @ev_used: the same for events.
 * @sem_dense: the index in @sem_used of each semaphore, or 0xFFFF.
 * @ev_dense: the index of each event of @ev_used among the resources the
 *	futures cover: @nsem_used + its index in @ev_used; 0xFFFF if unused.
 * @nacc: the resources the futures cover: @nsem_used semaphores, then
 *	@nev_used events.
 * @sem_wr: per semaphore (CK_G()), the actors whose steps write it
 *	(CK_ACTOR_*): an update, a paired wait, an op's write.
 * @ev_wr: per event, the same: an update, a wait's then-action.
 * @rec: per slot, per record, its own row of classes (the form of @fut's);
 *	NULL when the table would be too large (then @cuts is false).
 * @cuts: per slot, whether its stream waits at all, and @rec is there:
 *	where its path may be cut (check_path.c, ck_path_cut()).
 * @dma_end: per slot, 1 + the index of its last DMA record, or 0.
 * @reach: per slot and record, the first record an engine there may still
 *	run (a branch back lowers it).
 * @fut_rows: per slot, the rows of @fut: its records + 1, or 1 (one row
 *	for the whole stream, when the table would be too large).
 * @fut: per slot, per row r, 2 * @nacc classes (CK_C_* for a semaphore,
 *	CK_E_* for an event): how the records from r on (from 0 with one
 *	row) touch each semaphore of @sem_used and each event of @ev_used,
 *	then how the completion updates of their DMA records do.
 * @paths: per slot, the rows of the same form along the paths its engine
 *	takes (check_path.c), cached by position and registers; filled by
 *	the reduction's queries, hence not const when @cp is.
 * @static_fut: set while the search runs on the classes of a loop
 *	(check_accel.c), whose states share positions but not registers:
 *	the reduction takes the row of the representative's path only where
 *	every state of the class is on it (ck_path_class_row()), else the
 *	static one of @fut, which a path then cuts (ck_path_cut()) as far as
 *	it is the same in every state of the class.
 * @cls_regs: with @static_fut, per slot, the registers the loop's shift
 *	moves (bit r for register r): their values differ across a class.
 * @cls_sems: with @static_fut, per semaphore (CK_G()), whether the shift
 *	moves it.
 * @cls_delta: with @static_fut, per slot, the shift of each register.
 * @cls_hi: with @static_fut, the states of the class being expanded after
 *	its first (ck_frame.hi): the reduction's futures hold in all of them.
 * @dma_free: without --dma-fifo, no engine can fill its ring and all
 *	together cannot reach the limit of copies in flight (check_dma.c):
 *	copies that do not race commute.
 * @dma_nd: per slot (with 1 to 64 DMA records), per record, the DMA
 *	records a run from it may issue before a Drain (bit k: @dma_rec's
 *	k-th), or NULL.
 * @dma_rec: per slot, its DMA records in order, where @dma_nd is set.
 * @sem_nowrap: per semaphore of @sem_used, whether no run can overflow it
 *	(check_bound.c): an addition and a subtraction of it commute.
 */
struct ck_prog {
	unsigned int ncores;
	unsigned int nparts;
	uint8_t pos[CK_MAX_CORES];
	const struct ncsync_program *prog[CK_MAX_CORES];
	uint8_t bank_of[NCSYNC_MAX_LNC];
	size_t state_size;
	unsigned int n;
	uint8_t core[CK_MAX_SLOTS];
	uint8_t engine[CK_MAX_SLOTS];
	uint32_t count[CK_MAX_SLOTS];
	struct ncsync_insn *insns[CK_MAX_SLOTS];
	bool fifo;
	uint32_t sem_users[CK_MAX_SEMS];
	uint32_t ev_users[CK_MAX_EVENTS];
	unsigned int nsem_used;
	uint16_t sem_used[CK_MAX_SEMS];
	unsigned int nev_used;
	uint16_t ev_used[CK_MAX_EVENTS];
	uint16_t sem_dense[CK_MAX_SEMS];
	uint16_t ev_dense[CK_MAX_EVENTS];
	unsigned int nacc;
	uint32_t sem_wr[CK_MAX_SEMS];
	uint32_t ev_wr[CK_MAX_EVENTS];
	uint8_t *rec[CK_MAX_SLOTS];
	bool cuts[CK_MAX_SLOTS];
	uint32_t dma_end[CK_MAX_SLOTS];
	uint32_t *reach[CK_MAX_SLOTS];
	uint32_t fut_rows[CK_MAX_SLOTS];
	uint8_t *fut[CK_MAX_SLOTS];
	struct ck_paths *paths[CK_MAX_SLOTS];
	bool static_fut;
	uint32_t cls_regs[CK_MAX_SLOTS];
	bool cls_sems[CK_MAX_SEMS];
	uint32_t cls_delta[CK_MAX_SLOTS][NCSYNC_NUM_REGS];
	uint64_t cls_hi;
	bool dma_free;
	uint64_t *dma_nd[CK_MAX_SLOTS];
	uint32_t *dma_rec[CK_MAX_SLOTS];
	bool sem_nowrap[CK_MAX_SEMS];
};

/* A step: engine slot @idx, or (@land) the landing of copy @idx. */
struct ck_step {
	bool land;
	uint8_t idx;
};

/* What a step did that is a defect. */
struct ck_effects {
	bool event;		/* set a set event or cleared a clear one */
	bool overflow;		/* a signed 32-bit semaphore overflow */
	bool race;		/* a copy issued overlapping one in flight */
	bool full;		/* more than CK_MAX_COPIES copies in flight */
	struct ck_copy race_with;
};

const struct ncsync_insn *ck_insn(const struct ck_prog *cp,
				  const struct ck_state *st, unsigned int e);
/* The core the completion update of DMA record @in of slot @e lands on. */
unsigned int ck_land_core(const struct ck_prog *cp, unsigned int e,
			  const struct ncsync_insn *in);
/*
 * check_fut.c: the access classes of a semaphore, and the static futures:
 * per slot and record, the classes of every record it may still run.
 */
/* Access classes of a semaphore. */
#define CK_C_INC	0x01	/* + a non-negative immediate */
#define CK_C_DEC	0x02	/* - a non-negative immediate */
#define CK_C_SET	0x04	/* any other write, or a wait with its update */
#define CK_C_GE		0x08	/* a wait for > or >=, alone */
#define CK_C_LE		0x10	/* a wait for < or <=, alone */
#define CK_C_EQ		0x20	/* a wait for ==, alone */
#define CK_C_POLL	0x40	/* PollSem */
#define CK_C_READS	(CK_C_GE | CK_C_LE | CK_C_EQ | CK_C_POLL)
/* Access classes of an event. */
#define CK_E_WSET	0x01	/* a wait for set, without then-action */
#define CK_E_WCLR	0x02	/* a wait for clear, without then-action */
#define CK_E_SET	0x04	/* an update that sets it */
#define CK_E_CLR	0x08	/* an update that clears it */
#define CK_E_ANY	0x10	/* a wait with a then-clear or then-set */
struct ncsync_footprint;
uint8_t ck_upd_class(const struct ncsync_update_op *u);
uint8_t ck_wait_class(const struct ncsync_lane *l);
uint8_t ck_op_class(const struct ncsync_footprint *fp, unsigned int i);
uint8_t ck_ev_wait_class(const struct ncsync_wait_op *w);
uint8_t ck_ev_upd_class(const struct ncsync_update_op *u);
uint8_t ck_lane_wait_class(const struct ncsync_lane *ln);
unsigned int ck_dense(const struct ck_prog *cp, unsigned int c, uint8_t bank,
		      unsigned int idx);
/* The bytes of a row of futures: 2 * ck_prog.nacc classes. */
static inline size_t ck_fut_width(const struct ck_prog *cp)
{
	return 2 * (size_t)cp->nacc;
}
void ck_fut_insn(const struct ck_prog *cp, unsigned int e,
		 const struct ncsync_insn *in, uint8_t *row);
unsigned int ck_rec_succ(const struct ck_prog *cp, unsigned int e,
			 uint32_t i, uint32_t s[2]);
const uint8_t *ck_fut_static(const struct ck_prog *cp, unsigned int e,
			     uint32_t pc);
int ck_fut_init(struct ck_prog *cp);
void ck_fut_fini(struct ck_prog *cp);
/* check_dma.c: which issues and landings of copies commute. */
int ck_dma_init(struct ck_prog *cp);
void ck_dma_fini(struct ck_prog *cp);
bool ck_dma_commute(const struct ck_prog *cp, unsigned int i,
		    const struct ncsync_insn *x, unsigned int j,
		    const struct ncsync_insn *z);
bool ck_dma_may_hit(const struct ck_prog *cp, const struct ck_state *st,
		    unsigned int j, unsigned int i,
		    const struct ncsync_insn *x);
/*
 * check_line.c: an engine's registers along a line regs + k * d, and the
 * affine comparisons the loop acceleration shares.
 */
#define CK_LINE_FAR	((int64_t)1 << 40)
int64_t ck_view(uint32_t x, bool sgn);
int64_t ck_wrap_dist(uint32_t x, bool sgn, int64_t e);
int64_t ck_cross_dist(bool eq, int64_t l, int64_t m);
void ck_cmp_shape(unsigned int cmp, int64_t *c, bool *eq, bool *neg);
bool ck_line_mov_ok(const uint32_t *d, const struct ncsync_insn *in);
int64_t ck_line_span(const struct ncsync_insn *in, const uint32_t *regs,
		     const uint32_t *d);
/* check_path.c: the future of an engine along the path it takes. */
/* A position of an engine on its path, with its registers. */
struct ck_point {
	uint32_t pc;
	uint32_t next;	/* @ran: where it goes after the record */
	bool ran;	/* the record's effect ran */
	uint32_t regs[NCSYNC_NUM_REGS];
};

bool ck_path_step(const struct ck_prog *cp, unsigned int e,
		  struct ck_point *p, const uint8_t **tail);
int64_t ck_path_pass_span(const struct ck_prog *cp, unsigned int e,
			  uint32_t pc, const uint32_t *regs, uint32_t len,
			  const uint32_t *d);
int ck_path_init(struct ck_prog *cp);
void ck_path_fini(struct ck_prog *cp);
const uint8_t *ck_path_row(const struct ck_prog *cp,
			   const struct ck_state *st, unsigned int e);
const uint8_t *ck_path_class_row(const struct ck_prog *cp,
				 const struct ck_state *st, unsigned int e);
bool ck_path_cut(const struct ck_prog *cp, const struct ck_state *st,
		 unsigned int j, uint32_t frozen, uint8_t *row);
/* check_bound.c: the semaphores no run can overflow. */
int ck_bound_init(struct ck_prog *cp, const int32_t *sems);
/*
 * check_indep.c: which accesses commute, what a step accesses, what an
 * actor may still do; the futures it reads, made and freed together.
 */
int ck_reduction_init(struct ck_prog *cp, const int32_t *sems);
void ck_reduction_fini(struct ck_prog *cp);
/* An access of a step: a row index (ck_prog.nacc) and its class. */
#define CK_ACC_MAX	NCSYNC_NUM_SEMS
struct ck_acc {
	uint16_t d;
	uint8_t c;
};
/* What a step does besides its accesses (ck_step_acc()). */
#define CK_STEP_ISSUE	1	/* a DMA record's effect: issues a copy */
#define CK_STEP_LAND	2	/* a copy's landing */
unsigned int ck_step_acc(const struct ck_prog *cp, const struct ck_state *st,
			 struct ck_step s, struct ck_acc *acc,
			 unsigned int *kind);
uint8_t ck_commutes_at(const struct ck_prog *cp, unsigned int d, uint8_t c);
const uint8_t *ck_fut_row(const struct ck_prog *cp, const struct ck_state *st,
			  unsigned int j);
bool ck_may_issue(const struct ck_prog *cp, const struct ck_state *st,
		  unsigned int j);
/*
 * check_stub.c: persistent sets of a state, by groups of actors: engines
 * (bits of their slots) and copies in flight (bits of their index in
 * ck_state.copies).
 */
struct ck_actors {
	uint32_t eng;
	uint64_t cps;
};

static inline bool ck_actors_has(const struct ck_actors *a, struct ck_step s)
{
	return s.land ? a->cps >> s.idx & 1 : a->eng >> s.idx & 1;
}

struct ck_stub;
size_t ck_stub_size(void);
void ck_stub_init(struct ck_stub *sb, const struct ck_prog *cp,
		  const struct ck_state *st, const struct ck_step *all,
		  unsigned int n);
unsigned int ck_stub_closure(struct ck_stub *sb, unsigned int seed,
			     struct ck_actors *out);
unsigned int ck_stub_choose(struct ck_stub *sb,
			    bool (*fresh)(void *arg, struct ck_step s),
			    void *arg, struct ck_step *out);
/* check_state.c: the program decoded, and a state's copy and hash. */
void ck_mix(uint64_t h[2], uint64_t v);
int ck_prog_init(struct ck_prog *cp, const struct ncsync_asm_part *parts,
		 unsigned int nparts, bool fifo, const int32_t *sems,
		 const uint8_t *events);
void ck_prog_fini(struct ck_prog *cp);
void ck_state_init(const struct ck_prog *cp, struct ck_state *st,
		   const int32_t *sems, const uint8_t *events);
void ck_state_copy(const struct ck_prog *cp, struct ck_state *dst,
		   const struct ck_state *src);
/* The semaphores and events of the core of slot @e. */
static inline struct ck_bank *ck_bank_of(const struct ck_prog *cp,
					 struct ck_state *st, unsigned int e)
{
	return &st->bank[cp->core[e]];
}
unsigned int ck_enabled(const struct ck_prog *cp, const struct ck_state *st,
			struct ck_step *steps);
bool ck_copies_race(const struct ncsync_insn *a, const struct ncsync_insn *b);
bool ck_step_enabled(const struct ck_prog *cp, const struct ck_state *st,
		     struct ck_step s);
void ck_apply(const struct ck_prog *cp, struct ck_state *st, struct ck_step s,
	      struct ck_effects *fx);
const struct ncsync_lane *ck_wait_at(const struct ck_prog *cp,
				     const struct ck_state *st,
				     unsigned int e);
void ck_hash(const struct ck_prog *cp, const struct ck_state *st,
	     uint64_t h[2]);
/* The hash of @st with its slot @order[i] in slot i (NULL: as it is). */
void ck_hash_order(const struct ck_prog *cp, const struct ck_state *st,
		   const uint8_t *order, uint64_t h[2]);
bool ck_ended(const struct ck_state *st, unsigned int e);

/* check_view.c: the public views of the executor's state and steps. */
void ck_snapshot(const struct ck_prog *cp, const struct ck_state *st,
		 unsigned int core, struct ncsync_check_state *out);
void ck_snapshot_cores(const struct ck_prog *cp, const struct ck_state *st,
		       struct ncsync_check_core *out);
void ck_copy_out(const struct ck_prog *cp, const struct ck_copy *c,
		 struct ncsync_check_copy *out);
void ck_step_out(const struct ck_prog *cp, const struct ck_state *st,
		 struct ck_step s, struct ncsync_check_step *out);
/* The deadlock analysis of @st into @d; -ENOMEM, or 0. */
int ck_deadlock_of(const struct ck_prog *cp, const struct ck_state *st,
		   unsigned int e, struct ncsync_check_defect *d);

/**
 * struct ck_finals - the states without a step that a search reached, for
 * the tests of the reduction and the differential fuzzer.
 * @h: their hashes, 2 * @n words, malloc'd.
 * @n: states.
 * @nsems: set by the caller: keep semaphores 0 .. @nsems - 1 of each.
 * @all_ended: set by the caller: keep too the states where every engine
 *	ended and copies are still in flight, where the kernel ends a program
 *	and takes its snapshot.
 * @sems: @nsems values per state (of the first core), malloc'd; NULL if
 *	@nsems is 0.
 * @ended: per state, whether every engine ended there, malloc'd.
 */
struct ck_finals {
	uint64_t *h;
	size_t n;
	unsigned int nsems;
	bool all_ended;
	int32_t *sems;
	bool *ended;
};

/* An open-addressing set of non-zero 64-bit keys. */
struct ck_set {
	uint64_t *keys;
	size_t cap;
	size_t n;
};

/**
 * struct ck_values - check_values.c: the values each semaphore and event
 * took in the states a search reached, and the waits it found blocked.
 * @vals: (semaphore of ck_prog.sem_used + 1, value) pairs.
 * @ev: per event of ck_prog.ev_used, bit v: it was v (0 clear, 1 set).
 * @waits: the blocked waits: slot, lane, record, threshold.
 * @sorted: ck_values_decide(): the keys of @vals in order.
 * @nsorted: entries of @sorted.
 * @first: per semaphore of ck_prog.sem_used, its first entry of @sorted;
 *	one more entry, @nsorted.
 * @unposted: ck_values_decide(): the keys of @waits that no value passes.
 */
struct ck_values {
	struct ck_set vals;
	uint8_t ev[CK_MAX_EVENTS];
	struct ck_set waits;
	uint64_t *sorted;
	size_t nsorted;
	size_t *first;
	struct ck_set unposted;
};

size_t ck_values_mem(const struct ck_values *v);
void ck_values_fini(struct ck_values *v);
int ck_values_state(struct ck_values *v, const struct ck_prog *cp,
		    const struct ck_state *st, const struct ck_state *parent,
		    size_t avail);
int ck_values_blocked(struct ck_values *v, const struct ck_prog *cp,
		      const struct ck_state *st, unsigned int e, size_t avail);
int ck_values_decide(struct ck_values *v, const struct ck_prog *cp);
bool ck_values_unposted(const struct ck_values *v, const struct ck_prog *cp,
			const struct ck_state *st, unsigned int e);
int ck_values_of(const struct ck_values *v, const struct ck_prog *cp,
		 const struct ck_state *st, unsigned int e, int32_t **out,
		 uint32_t *n);

/**
 * struct ck_visited - check_seen.c: the states a search visited, by their
 *	128-bit hash; open addressing, a pair of zero words is empty.
 * @keys: 2 * @cap words.
 * @cap: entries, a power of two, or 0.
 * @n: entries used.
 */
struct ck_visited {
	uint64_t *keys;
	size_t cap;
	size_t n;
};

int ck_visited_find(struct ck_visited *v, uint64_t h[2], bool add,
		    size_t avail);
void ck_visited_stack(struct ck_visited *v, const uint64_t h[2], bool on);

/*
 * check_accel.c: loop acceleration (Documentation/ncsync/check.rst, "Loops
 * of any trip count").  ck_accel_note() watches the explicit search for a
 * loop head that repeats an ancestor up to a shift; once it has, the
 * search starts again on classes of states along the shift:
 * ck_accel_canon() maps a state to its class's first state and gives how
 * far the class reaches from there, ck_accel_segment() the successors of
 * a step across the classes it meets.  ck_accel_why() says why the
 * abstraction was given up (then the search falls back to the plain one).
 */
struct ck_accel;
typedef const struct ck_state *ck_accel_at_fn(void *arg, size_t depth);
struct ck_accel *ck_accel_new(void);
void ck_accel_free(struct ck_accel *a);
int ck_accel_note(struct ck_accel *a, const struct ck_prog *cp, size_t depth,
		  const struct ck_state *from, struct ck_step s,
		  const struct ck_state *to, ck_accel_at_fn *at, void *arg);
int ck_accel_finite(const struct ck_accel *a, const struct ck_prog *cp);
bool ck_accel_on(const struct ck_accel *a);
/* Whether two states differ only in values (registers, semaphores). */
bool ck_accel_same_shape(const struct ck_prog *cp, const struct ck_state *a,
			 const struct ck_state *b);
void ck_accel_loop(const struct ck_accel *a, unsigned int *slot,
		   uint32_t *rec);
void ck_accel_fail(struct ck_accel *a, const char *why);
void ck_accel_moved(const struct ck_accel *a, struct ck_prog *cp);
const char *ck_accel_why(const struct ck_accel *a);
uint64_t ck_accel_canon(struct ck_accel *a, const struct ck_prog *cp,
			struct ck_state *st);
int ck_accel_segment(struct ck_accel *a, const struct ck_prog *cp,
		     struct ck_state *t, uint64_t seg, uint64_t hi,
		     uint64_t *next, unsigned int *nseg, uint64_t *thi);

/**
 * struct ck_sym - check_sym.c: the symmetry of a program, the classes of
 * slots that are interchangeable (Documentation/ncsync/check.rst,
 * "Symmetry").
 * @nclass: classes of two or more slots; 0: no symmetry.
 * @first: per class, its first entry of @slots; one more: the end.
 * @slots: the slots of every class, class by class, in slot order.
 */
struct ck_sym {
	unsigned int nclass;
	uint8_t first[CK_MAX_SLOTS / 2 + 1];
	uint8_t slots[CK_MAX_SLOTS];
};

void ck_sym_init(struct ck_sym *sy, const struct ck_prog *cp);
void ck_sym_refine(struct ck_sym *out, const struct ck_sym *in,
		   bool (*same)(const void *arg, unsigned int a,
				unsigned int b),
		   const void *arg);
void ck_sym_hash(const struct ck_prog *cp, const struct ck_sym *sy,
		 const struct ck_state *st, uint64_t h[2]);
void ck_sym_out(const struct ck_prog *cp, const struct ck_sym *sy,
		struct ncsync_check_symmetry *out);
/* check_accel.c: the slots of @in that stay interchangeable on classes. */
void ck_accel_sym(const struct ck_accel *a, const struct ck_prog *cp,
		  const struct ck_sym *in, struct ck_sym *out);

/**
 * struct ncsync_check_result - what ncsync_check() found (check_result.c
 *	reads it, the search fills it).
 * @verdict: safe, defect or inconclusive.
 * @limited: a limit ended the search.
 * @limit: the first limit hit.
 * @states: the states explored.
 * @class_states: the states the search on the classes of a loop explored
 *	before it fell back (NCSYNC_ACCEL_FELL_BACK), not in @states; else 0.
 * @defects: the first defect of each kind, or NULL.
 * @accel: what the loop acceleration did.
 * @sym: the engines the search took as interchangeable.
 */
struct ncsync_check_result {
	enum ncsync_check_verdict verdict;
	bool limited;
	enum ncsync_check_limit limit;
	uint64_t states;
	uint64_t class_states;
	struct ncsync_check_defect *defects[NCSYNC_DEFECT_KINDS];
	struct ncsync_check_accel accel;
	struct ncsync_check_symmetry sym;
};

void ck_defect_free(struct ncsync_check_defect *d);

/*
 * check.c: ncsync_check(); with @full, every enabled step of every state
 * (no reduction); with @finals, the states without a step too.
 */
int ncsync_check_run(const struct ncsync_asm_part *parts, unsigned int n,
		     const struct ncsync_check_opts *opts, bool full,
		     struct ck_finals *finals,
		     struct ncsync_check_result **resp);

/*
 * promela.c: ncsync_check_promela()'s model with the assertions of the
 * defects @kinds (1 << NCSYNC_DEFECT_OVERFLOW, _EVENT, _DMA_RACE);
 * @nassert, if not NULL, gets how many it wrote of each.
 */
int ck_promela(const struct ncsync_asm_part *parts, unsigned int n,
	       const struct ncsync_check_opts *opts, uint32_t kinds, FILE *out,
	       unsigned int nassert[NCSYNC_DEFECT_KINDS]);

#endif /* NCSYNC_CHECK_H */
