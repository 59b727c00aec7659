// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * libncsync: the deadlock analysis of a program's status report,
 * ncsync_program_deadlock(), and of the reports of a program across cores,
 * ncsync_program_deadlock_cores().
 *
 * For every engine blocked on a semaphore or an event, the first record of
 * each other engine, among those it can still run, that could post what
 * the blocked one waits for.  An engine is stuck when every such poster is
 * itself stuck; the stuck engines that wait on each other form the cycle.
 * The records are read through ncsync_record_decode(), the validator the
 * driver runs at submission.  The analysis is static: it follows neither
 * register values nor branch conditions.
 */
#include <errno.h>
#include <string.h>

#include "internal.h"
#include "ncsync_exec.h"
#include "ncsync_optab.h"

/* The public result has one layout on every ABI: no implicit padding. */
_Static_assert(sizeof(struct ncsync_deadlock_engine) ==
	       8 + 8 * NCSYNC_NUM_ENGINES, "ncsync_deadlock_engine layout");
_Static_assert(sizeof(struct ncsync_deadlock_slot) ==
	       8 + 8 * NCSYNC_DEADLOCK_MAX_ENGINES, "ncsync_deadlock_slot layout");
_Static_assert(sizeof(struct ncsync_deadlock_cores) ==
	       16 + NCSYNC_DEADLOCK_MAX_ENGINES +
	       sizeof(struct ncsync_deadlock_slot) * NCSYNC_DEADLOCK_MAX_ENGINES,
	       "ncsync_deadlock_cores layout");
_Static_assert(sizeof(struct ncsync_deadlock) ==
	       24 + sizeof(struct ncsync_deadlock_engine) * NCSYNC_NUM_ENGINES,
	       "ncsync_deadlock layout");

/* Which way a semaphore wait needs its semaphore to move. */
enum ncsync_dl_dir {
	NCSYNC_DL_ANY,		/* == : any change */
	NCSYNC_DL_UP,		/* > and >= */
	NCSYNC_DL_DOWN,		/* < and <= */
};

/*
 * What a blocked engine needs another engine to do.
 * @event: an event wait (else a semaphore wait).
 * @set: an event wait: it needs the event set (else clear).
 * @dir: a semaphore wait: the direction it needs.
 * @zero: a semaphore wait: its test may hold at 0, the value a group reset
 *	sets (a register threshold may be anything; the wait of a status
 *	report, whose threshold it does not give, is taken at 0).
 * @index: the semaphore or event.
 */
struct ncsync_dl_need {
	bool event;
	bool set;
	bool zero;
	enum ncsync_dl_dir dir;
	uint8_t index;
};

/* What wait @w needs another engine to do. */
static void ncsync_dl_need_wait(const struct ncsync_wait_op *w,
				struct ncsync_dl_need *need)
{
	memset(need, 0, sizeof(*need));
	need->index = w->index;
	need->event = w->bank == NCSYNC_BANK_EVENT;
	if (need->event) {
		/* The set and set-then-clear waits pass on a set event. */
		need->set = w->want;
		return;
	}
	need->zero = w->reg || ncsync_wait_sem_passes(w, 0, (int32_t)w->value);
	if (w->cmp == NCSYNC_CMP_GT || w->cmp == NCSYNC_CMP_GE)
		need->dir = NCSYNC_DL_UP;
	else if (w->cmp == NCSYNC_CMP_LT || w->cmp == NCSYNC_CMP_LE)
		need->dir = NCSYNC_DL_DOWN;
	else
		need->dir = NCSYNC_DL_ANY;
}

/* What @e waits for; false unless it is blocked on a semaphore or event. */
static bool ncsync_dl_need_of(const struct ncsync_engine_status *e,
			      struct ncsync_dl_need *need)
{
	struct ncsync_wait_op w;

	memset(need, 0, sizeof(*need));
	if (e->state != NCSYNC_ENG_BLOCKED ||
	    (e->wait_kind != NCSYNC_BLOCK_SEM &&
	     e->wait_kind != NCSYNC_BLOCK_EVENT))
		return false;
	ncsync_wait_op_decode(e->wait_mode, e->wait_index, 0, &w);
	ncsync_dl_need_wait(&w, need);
	return true;
}

/* Could the update of lane @l post @need? */
static bool ncsync_dl_upd_posts(const struct ncsync_lane *l,
				const struct ncsync_dl_need *need)
{
	const struct ncsync_update_op *u = &l->upd;

	if (!u->active || u->index != need->index)
		return false;
	if (need->event)
		return u->bank == NCSYNC_BANK_EVENT && u->set == need->set;
	if (u->bank != NCSYNC_BANK_SEM)
		return false;
	/* A register operand may be of either sign. */
	switch (need->dir) {
	case NCSYNC_DL_UP:
		return u->op != NCSYNC_SEM_UPD_SUB || u->reg;
	case NCSYNC_DL_DOWN:
		return u->op != NCSYNC_SEM_UPD_ADD || u->reg;
	default:
		return true;
	}
}

/*
 * Could the wait of lane @l post @need?  An event wait whose test passes on
 * the other state and whose then-set or then-clear action leaves the state
 * @need wants.
 */
static bool ncsync_dl_act_posts(const struct ncsync_lane *l,
				const struct ncsync_dl_need *need)
{
	const struct ncsync_wait_op *w = &l->wait;
	bool after;

	return need->event && w->active && w->bank == NCSYNC_BANK_EVENT &&
	       w->index == need->index &&
	       ncsync_wait_event_passes(w, !need->set, &after) &&
	       after == need->set;
}

/* Could the decoded record @in post @need? */
static bool ncsync_dl_insn_posts(const struct ncsync_insn *in,
				 const struct ncsync_dl_need *need)
{
	struct ncsync_footprint fp;
	unsigned int l;

	/*
	 * The op's own writes (the opcode table's footprint): a group reset
	 * sets the semaphores it clears to 0, which lowers a positive one
	 * and raises a negative one (so it posts a > or >= wait that 0
	 * passes); a PollSem's write-back only lowers those of its range
	 * (their minimum).
	 */
	if (!need->event && ncsync_op_has(in->opcode, NCSYNC_OPF_SEM_WRITE) &&
	    (need->dir != NCSYNC_DL_UP ||
	     (in->effect == NCSYNC_EFF_GROUP_RESET && need->zero))) {
		ncsync_op_footprint(in, &fp);
		if (ncsync_footprint_sem(fp.sem_write, need->index))
			return true;
	}
	for (l = 0; l < in->nlanes; l++)
		if (ncsync_dl_upd_posts(&in->lane[l], need) ||
		    ncsync_dl_act_posts(&in->lane[l], need))
			return true;
	return false;
}

/**
 * ncsync_dl_insn_can_post() - whether a decoded record could post a wait.
 * @in: the record.
 * @w: the wait, on a semaphore or an event.
 * @local: count what the record does on its engine's core: its updates
 *	and wait actions, but not a DMA record's completion update.
 * @land: count a DMA record's completion update (which lands on the core
 *	of @w).
 *
 * Return: true if it could.
 */
bool ncsync_dl_insn_can_post(const struct ncsync_insn *in,
			     const struct ncsync_wait_op *w, bool local,
			     bool land)
{
	struct ncsync_dl_need need;

	ncsync_dl_need_wait(w, &need);
	if (ncsync_op_has(in->opcode, NCSYNC_OPF_DMA))
		return (land && ncsync_dl_upd_posts(&in->lane[0], &need)) ||
		       (local && ncsync_dl_act_posts(&in->lane[0], &need));
	return local && ncsync_dl_insn_posts(in, &need);
}

/*
 * The first record of @s that an engine at @pc may still run: @pc, or the
 * target of a branch it may reach that goes back before it.  Each range of
 * records is read once: first [pc, count), then the records the lowest
 * target so far added, until a range adds nothing.
 */
static uint32_t ncsync_dl_reach(const struct ncsync_stream *s, uint32_t pc)
{
	uint32_t start = pc, lo = pc, hi = s->count, i;
	struct ncsync_insn in;

	for (;;) {
		for (i = lo; i < hi; i++)
			if (ncsync_stream_decode(s, i, &in) &&
			    ncsync_op_has(in.opcode, NCSYNC_OPF_FLOW) &&
			    in.br.target < start)
				start = in.br.target;
		if (start == lo)
			return start;
		hi = lo;
		lo = start;
	}
}

/**
 * struct ncsync_dl_work - the analysis of one report, of one core or several.
 * @n: engines.
 * @peers: a DMA record's completion update lands on its peer (a program
 *	across cores); else on the core of every engine.
 * @pos: each engine's core position.
 * @engine: each engine's id.
 * @s: each engine's stream; NULL once it ended.
 * @pc: each engine's record.
 * @waits: the engine waits on a semaphore or an event.
 * @need: what it waits for.
 * @poster: per waiting engine i and engine j, the first record j may still
 *	run that could post what i waits for, or NCSYNC_NO_POSTER.
 * @stuck: the engine waits for what only stuck engines could post.
 * @nstuck: engines stuck.
 * @ncycle: entries of @cycle.
 * @cycle: a cycle of stuck engines, by index.
 */
struct ncsync_dl_work {
	unsigned int n;
	bool peers;
	uint8_t pos[NCSYNC_DEADLOCK_MAX_ENGINES];
	uint8_t engine[NCSYNC_DEADLOCK_MAX_ENGINES];
	const struct ncsync_stream *s[NCSYNC_DEADLOCK_MAX_ENGINES];
	uint32_t pc[NCSYNC_DEADLOCK_MAX_ENGINES];
	bool waits[NCSYNC_DEADLOCK_MAX_ENGINES];
	struct ncsync_dl_need need[NCSYNC_DEADLOCK_MAX_ENGINES];
	int64_t poster[NCSYNC_DEADLOCK_MAX_ENGINES][NCSYNC_DEADLOCK_MAX_ENGINES];
	bool stuck[NCSYNC_DEADLOCK_MAX_ENGINES];
	unsigned int nstuck;
	unsigned int ncycle;
	uint8_t cycle[NCSYNC_DEADLOCK_MAX_ENGINES];
};

/* Could record @in of engine @j post what engine @i waits for? */
static bool ncsync_dl_posts_to(const struct ncsync_dl_work *w, unsigned int j,
			       unsigned int i, const struct ncsync_insn *in)
{
	bool local = w->pos[j] == w->pos[i];
	unsigned int to = w->pos[j];

	if (!w->peers || !ncsync_op_has(in->opcode, NCSYNC_OPF_DMA))
		return local && ncsync_dl_insn_posts(in, &w->need[i]);
	if (in->dma.flags & NCSYNC_DMA_F_PEER)
		to = in->dma.peer;
	return (to == w->pos[i] &&
		ncsync_dl_upd_posts(&in->lane[0], &w->need[i])) ||
	       (local && ncsync_dl_act_posts(&in->lane[0], &w->need[i]));
}

/*
 * Fill the posters of engine @j for every waiting engine: one pass over
 * the records it may still run.
 */
static void ncsync_dl_posters(struct ncsync_dl_work *w, unsigned int j)
{
	const struct ncsync_stream *s = w->s[j];
	unsigned int i, left = 0;
	struct ncsync_insn in;
	uint32_t r;

	for (i = 0; i < w->n; i++)
		left += w->waits[i] && i != j;
	for (r = ncsync_dl_reach(s, w->pc[j]); left && r < s->count; r++) {
		if (!ncsync_stream_decode(s, r, &in))
			continue;
		for (i = 0; i < w->n; i++) {
			int64_t *p = &w->poster[i][j];

			if (!w->waits[i] || i == j || *p >= 0 ||
			    !ncsync_dl_posts_to(w, j, i, &in))
				continue;
			*p = r;
			left--;
		}
	}
}

/*
 * Drop from the stuck set every engine with a poster that is not stuck,
 * until nothing changes.
 */
static void ncsync_dl_settle(struct ncsync_dl_work *w)
{
	bool changed = true;
	unsigned int i, j;

	while (changed) {
		changed = false;
		for (i = 0; i < w->n; i++) {
			if (!w->stuck[i])
				continue;
			for (j = 0; j < w->n; j++) {
				if (w->poster[i][j] >= 0 && !w->stuck[j]) {
					w->stuck[i] = false;
					changed = true;
					break;
				}
			}
		}
	}
	for (i = 0; i < w->n; i++)
		w->nstuck += w->stuck[i];
}

/* The first stuck engine that could post what stuck engine @i waits for. */
static int ncsync_dl_next(const struct ncsync_dl_work *w, unsigned int i)
{
	unsigned int j;

	for (j = 0; j < w->n; j++)
		if (w->poster[i][j] >= 0 && w->stuck[j])
			return j;
	return -1;
}

/*
 * The cycle: from the first stuck engine that leads to one, follow each
 * engine to the first stuck engine that could post its wait until one
 * repeats; the cycle starts there.
 */
static void ncsync_dl_cycle(struct ncsync_dl_work *w)
{
	unsigned int start;
	int i, j;

	for (start = 0; start < w->n; start++) {
		bool seen[NCSYNC_DEADLOCK_MAX_ENGINES] = { false };

		if (!w->stuck[start])
			continue;
		for (j = start; j >= 0 && !seen[j]; j = ncsync_dl_next(w, j))
			seen[j] = true;
		if (j < 0)
			continue;
		i = j;
		do {
			w->cycle[w->ncycle++] = i;
			i = ncsync_dl_next(w, i);
		} while (i >= 0 && i != j && w->ncycle < w->n);
		return;
	}
}

/* Engine @i of the analysis: @e of the report of @prog, at position @pos. */
static void ncsync_dl_add(struct ncsync_dl_work *w,
			  const struct ncsync_program *prog,
			  const struct ncsync_engine_status *e, unsigned int pos)
{
	unsigned int i = w->n++, j;

	for (j = 0; j < NCSYNC_DEADLOCK_MAX_ENGINES; j++)
		w->poster[i][j] = NCSYNC_NO_POSTER;
	w->pos[i] = pos;
	w->engine[i] = e->engine;
	w->pc[i] = e->pc;
	w->waits[i] = ncsync_dl_need_of(e, &w->need[i]);
	w->stuck[i] = w->waits[i];
	w->s[i] = e->state < NCSYNC_ENG_DONE &&
		  e->engine < NCSYNC_MAX_ENGINE_ID ? prog->streams[e->engine] :
		  NULL;
}

static void ncsync_dl_run(struct ncsync_dl_work *w)
{
	unsigned int j;

	for (j = 0; j < w->n; j++)
		if (w->s[j])
			ncsync_dl_posters(w, j);
	ncsync_dl_settle(w);
	ncsync_dl_cycle(w);
}

int ncsync_program_deadlock(const struct ncsync_program *prog,
			    const struct ncsync_prog_status *status,
			    struct ncsync_deadlock *dl)
{
	struct ncsync_dl_work w = { 0 };
	unsigned int i, j;

	if (!prog || !status || !dl || !prog->finalized ||
	    status->nengines > NCSYNC_NUM_ENGINES)
		return -EINVAL;
	for (i = 0; i < status->nengines; i++)
		ncsync_dl_add(&w, prog, &status->engines[i], 0);
	ncsync_dl_run(&w);
	memset(dl, 0, sizeof(*dl));
	dl->nengines = w.n;
	dl->nstuck = w.nstuck;
	dl->ncycle = w.ncycle;
	for (i = 0; i < w.ncycle; i++)
		dl->cycle[i] = w.engine[w.cycle[i]];
	for (i = 0; i < NCSYNC_NUM_ENGINES; i++) {
		dl->engines[i].engine = i < w.n ? w.engine[i] : 0;
		dl->engines[i].stuck = i < w.n && w.stuck[i];
		for (j = 0; j < NCSYNC_NUM_ENGINES; j++)
			dl->engines[i].poster[j] = i < w.n && j < w.n ?
						   w.poster[i][j] :
						   NCSYNC_NO_POSTER;
	}
	return 0;
}

/* The engines of the parts' reports; -EINVAL or -E2BIG. */
static int ncsync_dl_add_parts(struct ncsync_dl_work *w,
			       const struct ncsync_asm_part *parts,
			       const struct ncsync_prog_status *status,
			       unsigned int n)
{
	unsigned int i, k;

	for (i = 0; i < n; i++) {
		if (!parts[i].prog || !parts[i].prog->finalized ||
		    parts[i].core >= NCSYNC_MAX_LNC ||
		    status[i].nengines > NCSYNC_NUM_ENGINES)
			return -EINVAL;
		for (k = 0; k < i; k++)
			if (parts[k].core == parts[i].core)
				return -EINVAL;
		if (w->n + status[i].nengines > NCSYNC_DEADLOCK_MAX_ENGINES)
			return -E2BIG;
		for (k = 0; k < status[i].nengines; k++)
			ncsync_dl_add(w, parts[i].prog, &status[i].engines[k],
				      parts[i].core);
	}
	return 0;
}

int ncsync_program_deadlock_cores(const struct ncsync_asm_part *parts,
				  const struct ncsync_prog_status *status,
				  unsigned int n,
				  struct ncsync_deadlock_cores *dl)
{
	struct ncsync_dl_work w = { .peers = true };
	unsigned int i, j;
	int ret;

	if (!parts || !status || !dl || !n)
		return -EINVAL;
	ret = ncsync_dl_add_parts(&w, parts, status, n);
	if (ret)
		return ret;
	ncsync_dl_run(&w);
	memset(dl, 0, sizeof(*dl));
	dl->nengines = w.n;
	dl->nstuck = w.nstuck;
	dl->ncycle = w.ncycle;
	memcpy(dl->cycle, w.cycle, sizeof(dl->cycle));
	for (i = 0; i < w.n; i++) {
		dl->engines[i].core = w.pos[i];
		dl->engines[i].engine = w.engine[i];
		dl->engines[i].stuck = w.stuck[i];
		for (j = 0; j < NCSYNC_DEADLOCK_MAX_ENGINES; j++)
			dl->engines[i].poster[j] = w.poster[i][j];
	}
	for (; i < NCSYNC_DEADLOCK_MAX_ENGINES; i++)
		for (j = 0; j < NCSYNC_DEADLOCK_MAX_ENGINES; j++)
			dl->engines[i].poster[j] = NCSYNC_NO_POSTER;
	return 0;
}
