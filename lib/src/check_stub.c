// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * libncsync: persistent sets of steps by groups of actors (Documentation/
 * ncsync/check.rst, "The reduction").
 *
 * The actors of a state are its engines and its copies in flight.  An
 * engine that can step has one next step, a copy one landing.  For a set E
 * of actors that can step, T is their next steps; T is persistent when
 * every step any other actor may take before a step of T runs commutes
 * with every step of T.  ck_stub_closure() builds E from one actor, the
 * seed: while an actor outside E may do something that does not commute
 * with a step of T, it joins E if it can step; if it cannot (it waits),
 * the actors that could release its wait join E instead; when none can,
 * the seed gives no set.
 *
 * What an actor outside E may do before a step of T runs is read from its
 * future (check_indep.c), cut where a wait blocks it: an engine of E does
 * nothing before its step, which is in T; an engine that waits on what
 * only such engines (or engines as stuck) write waits for as long; a copy
 * whose issuer does not step and that is in E does not land.  Those
 * actors are the frozen ones: a wait on what only they write, failing in
 * the state, is as far as an engine's path goes.
 *
 * DMA: an issue of T and another actor's issue, or a landing of T and
 * another's issue, or an issue of T and a copy's landing, conflict when
 * ck_dma_commute() says so (a race between the two copies; with
 * --dma-fifo, or where the bounds of check_dma.c do not hold, always).
 * Two landings only by their completion updates.
 */
#include <string.h>

#include "check.h"

/**
 * struct ck_stub - the actors of a state, and the set under construction.
 * @cp: the program.
 * @st: the state.
 * @all: its enabled steps.
 * @n: entries of @all.
 * @ended: the engines that ended (CK_ACTOR_ENG() bits).
 * @on: the engines that can step.
 * @blocked: the engines whose next step is a wait that fails.
 * @lands: the copies that can land.
 * @mine: per slot, its copies in flight.
 * @wr: per blocked engine, the actors (CK_ACTOR_*) that write what it
 *	waits on.
 * @landed: the copies whose landing has an access, @lacc.
 * @lacc: per copy in flight, its landing's access (ck_step_acc()).
 * @e: the set under construction.
 * @issue: a step of T issues a copy.
 * @land: a step of T lands one.
 * @ncp: entries of @cp_eng, @cp_rec and @cp_iss: the copies T issues
 *	(@cp_iss) or lands, by issuer and DMA record.
 * @nd: entries of @touched.
 * @touched: the row indices T accesses.
 * @comm: per row index, the classes that commute with every access of T
 *	to it; 0xFF where T has none.
 * @cut: room for a row (ck_path_cut()).
 */
struct ck_stub {
	const struct ck_prog *cp;
	const struct ck_state *st;
	const struct ck_step *all;
	unsigned int n;
	uint32_t ended;
	uint32_t on;
	uint32_t blocked;
	uint64_t lands;
	uint64_t mine[CK_MAX_SLOTS];
	uint32_t wr[CK_MAX_SLOTS];
	uint64_t landed;
	struct ck_acc lacc[CK_MAX_COPIES];
	struct ck_actors e;
	bool issue;
	bool land;
	unsigned int ncp;
	uint8_t cp_eng[CK_MAX_SLOTS + CK_MAX_COPIES];
	const struct ncsync_insn *cp_rec[CK_MAX_SLOTS + CK_MAX_COPIES];
	bool cp_iss[CK_MAX_SLOTS + CK_MAX_COPIES];
	unsigned int nd;
	uint16_t touched[CK_MAX_SEMS + CK_MAX_EVENTS];
	uint8_t comm[CK_MAX_SEMS + CK_MAX_EVENTS];
	uint8_t cut[2 * (CK_MAX_SEMS + CK_MAX_EVENTS)];
};

/**
 * ck_stub_size() - the bytes of a struct ck_stub, for its caller to keep.
 *
 * Return: sizeof(struct ck_stub).
 */
size_t ck_stub_size(void)
{
	return sizeof(struct ck_stub);
}

/* Note blocked engine @j, and who writes what it waits on. */
static void ck_stub_wait(struct ck_stub *sb, unsigned int j)
{
	const struct ck_prog *cp = sb->cp;
	const struct ncsync_lane *l = ck_wait_at(cp, sb->st, j);
	unsigned int g = CK_G(cp->core[j], l->wait.index);

	sb->blocked |= CK_ACTOR_ENG(j);
	sb->wr[j] = l->wait.bank == NCSYNC_BANK_SEM ? cp->sem_wr[g] :
						      cp->ev_wr[g];
}

/**
 * ck_stub_init() - read the actors of a state for ck_stub_closure().
 * @sb: room of ck_stub_size() bytes.
 * @cp: the program.
 * @st: the state.
 * @all: its enabled steps (ck_enabled()), kept until the last closure.
 * @n: entries of @all.
 */
void ck_stub_init(struct ck_stub *sb, const struct ck_prog *cp,
		  const struct ck_state *st, const struct ck_step *all,
		  unsigned int n)
{
	unsigned int j, i, kind;
	struct ck_step s = { .land = true };

	sb->cp = cp;
	sb->st = st;
	sb->all = all;
	sb->n = n;
	sb->ended = sb->on = sb->blocked = 0;
	sb->lands = sb->landed = 0;
	sb->nd = 0;
	memset(sb->mine, 0, sizeof(sb->mine));
	memset(sb->comm, 0xFF, cp->nacc);
	for (i = 0; i < n; i++) {
		if (all[i].land)
			sb->lands |= 1ULL << all[i].idx;
		else
			sb->on |= CK_ACTOR_ENG(all[i].idx);
	}
	for (i = 0; i < st->ncopies; i++) {
		sb->mine[st->copies[i].eng] |= 1ULL << i;
		s.idx = i;
		if (ck_step_acc(cp, st, s, &sb->lacc[i], &kind))
			sb->landed |= 1ULL << i;
	}
	for (j = 0; j < cp->n; j++) {
		if (ck_ended(st, j))
			sb->ended |= CK_ACTOR_ENG(j);
		else if (!(sb->on & CK_ACTOR_ENG(j)) && ck_wait_at(cp, st, j))
			ck_stub_wait(sb, j);
	}
}

/* Note the copy step @s of T issues or lands. */
static void ck_stub_note_copy(struct ck_stub *sb, struct ck_step s)
{
	const struct ck_state *st = sb->st;
	unsigned int e = s.land ? st->copies[s.idx].eng : s.idx;
	uint32_t rec = s.land ? st->copies[s.idx].rec : st->eng[e].pc;

	sb->cp_eng[sb->ncp] = e;
	sb->cp_iss[sb->ncp] = !s.land;
	sb->cp_rec[sb->ncp++] = &sb->cp->insns[e][rec];
}

/* Whether engine @j may still issue a copy that conflicts with T's. */
static bool ck_stub_issue_hits(const struct ck_stub *sb, unsigned int j)
{
	unsigned int k;

	if (!ck_may_issue(sb->cp, sb->st, j))
		return false;
	for (k = 0; k < sb->ncp; k++)
		if (ck_dma_may_hit(sb->cp, sb->st, j, sb->cp_eng[k],
				   sb->cp_rec[k]))
			return true;
	return false;
}

/* Whether copy @i in flight conflicts with a copy T issues. */
static bool ck_stub_land_hits(const struct ck_stub *sb, unsigned int i)
{
	const struct ck_copy *c = &sb->st->copies[i];
	const struct ncsync_insn *x = &sb->cp->insns[c->eng][c->rec];
	unsigned int k;

	for (k = 0; k < sb->ncp; k++)
		if (sb->cp_iss[k] &&
		    !ck_dma_commute(sb->cp, c->eng, x, sb->cp_eng[k],
				    sb->cp_rec[k]))
			return true;
	return false;
}

/* Add the step of enabled actor @s to T. */
static void ck_stub_add(struct ck_stub *sb, struct ck_step s)
{
	struct ck_acc acc[CK_ACC_MAX];
	unsigned int k, m, kind;

	if (s.land)
		sb->e.cps |= 1ULL << s.idx;
	else
		sb->e.eng |= CK_ACTOR_ENG(s.idx);
	m = ck_step_acc(sb->cp, sb->st, s, acc, &kind);
	sb->issue |= kind == CK_STEP_ISSUE;
	sb->land |= kind == CK_STEP_LAND;
	if (kind == CK_STEP_ISSUE || kind == CK_STEP_LAND)
		ck_stub_note_copy(sb, s);
	for (k = 0; k < m; k++) {
		if (sb->comm[acc[k].d] == 0xFF)
			sb->touched[sb->nd++] = acc[k].d;
		sb->comm[acc[k].d] &= ck_commutes_at(sb->cp, acc[k].d,
						     acc[k].c);
	}
}

/* Whether an access of class @c to row index @d conflicts with T. */
static bool ck_stub_acc_hits(const struct ck_stub *sb, unsigned int d,
			     uint8_t c)
{
	return c & ~sb->comm[d];
}

/* Whether a row of classes (engine, then landings) conflicts with T. */
static bool ck_stub_row_hits(const struct ck_stub *sb, const uint8_t *row)
{
	unsigned int k, d;

	for (k = 0; k < sb->nd; k++) {
		d = sb->touched[k];
		if ((row[d] | row[sb->cp->nacc + d]) & ~sb->comm[d])
			return true;
	}
	return false;
}

/*
 * The actors that take no step before a step of T, with the engines of
 * @stuck taken as blocked for as long: the engines of E, @stuck and those
 * that ended; the landings of an engine of those whose copies in flight
 * are all in E; with fifo, every landing once the oldest copy is in E.
 */
static uint32_t ck_stub_frozen(const struct ck_stub *sb, uint32_t stuck)
{
	uint32_t still = sb->e.eng | stuck | sb->ended, m = still;
	bool queue = sb->cp->fifo && sb->st->ncopies && (sb->e.cps & 1);
	unsigned int i;

	for (i = 0; i < sb->cp->n; i++)
		if (queue || ((still & CK_ACTOR_ENG(i)) &&
			      !(sb->mine[i] & ~sb->e.cps)))
			m |= CK_ACTOR_DMA(i);
	return m;
}

/*
 * The frozen actors (ck_stub_frozen()), and in *@stuck the blocked engines
 * outside E that stay blocked until a step of T: the largest set whose
 * every engine waits on what only frozen actors write, counting its own.
 */
static uint32_t ck_stub_mask(const struct ck_stub *sb, uint32_t *stuck)
{
	uint32_t d = sb->blocked & ~sb->e.eng, prev, m;
	unsigned int j;

	do {
		prev = d;
		m = ck_stub_frozen(sb, d);
		for (j = 0; j < sb->cp->n; j++)
			if ((d & CK_ACTOR_ENG(j)) && (sb->wr[j] & ~m))
				d &= ~CK_ACTOR_ENG(j);
	} while (d != prev);
	*stuck = d;
	return m;
}

/*
 * Whether engine @j, outside E, not ended, may do before a step of T runs
 * something that does not commute with it: @frozen the frozen actors,
 * @stuck the blocked engines that stay so.
 */
static bool ck_stub_eng_hits(struct ck_stub *sb, unsigned int j,
			     uint32_t frozen, uint32_t stuck)
{
	const struct ck_prog *cp = sb->cp;

	if (stuck & CK_ACTOR_ENG(j))	/* it takes no step */
		return false;
	if ((sb->issue || sb->land) && ck_stub_issue_hits(sb, j))
		return true;
	if (!ck_stub_row_hits(sb, ck_fut_row(cp, sb->st, j)))
		return false;
	if (!ck_path_cut(cp, sb->st, j, frozen, sb->cut))
		return true;
	return ck_stub_row_hits(sb, sb->cut);
}

/* Whether copy @i, outside E, may land in a way that conflicts with T. */
static bool ck_stub_copy_hits(const struct ck_stub *sb, unsigned int i)
{
	if (sb->cp->fifo && (sb->e.cps & 1))
		return false;	/* it lands after the oldest, in E */
	if (sb->issue && ck_stub_land_hits(sb, i))
		return true;
	return (sb->landed >> i & 1) &&
	       ck_stub_acc_hits(sb, sb->lacc[i].d, sb->lacc[i].c);
}

/* Add to E the engine of slot @i, if it can step and is not in E yet. */
static bool ck_stub_add_eng(struct ck_stub *sb, unsigned int i)
{
	struct ck_step s = { .idx = i };

	if (!(sb->on & ~sb->e.eng & CK_ACTOR_ENG(i)))
		return false;
	ck_stub_add(sb, s);
	return true;
}

/* Add to E the landings of @cps that can land and are not in E yet. */
static bool ck_stub_add_copies(struct ck_stub *sb, uint64_t cps)
{
	struct ck_step s = { .land = true };
	bool grew = false;

	cps &= sb->lands & ~sb->e.cps;
	for (s.idx = 0; cps; s.idx++, cps >>= 1) {
		if (cps & 1)
			ck_stub_add(sb, s);
		grew |= cps & 1;
	}
	return grew;
}

/*
 * Add to E the actors that could release the wait engine @j, blocked,
 * outside E, waits at: the engines that write what it waits on, and the
 * copies in flight of those whose landings write it (with fifo, the
 * oldest copy, which every landing waits for).  False when @j is not
 * blocked at a wait, or no such actor can step outside E.
 */
static bool ck_stub_release(struct ck_stub *sb, unsigned int j)
{
	uint32_t wr = sb->wr[j];
	bool grew = false;
	unsigned int i;

	if (!(sb->blocked & CK_ACTOR_ENG(j)))
		return false;	/* a Drain, a DMA record without room */
	for (i = 0; i < sb->cp->n; i++) {
		if (wr & CK_ACTOR_ENG(i))
			grew |= ck_stub_add_eng(sb, i);
		if (!(wr & CK_ACTOR_DMA(i)))
			continue;
		grew |= ck_stub_add_eng(sb, i);
		grew |= ck_stub_add_copies(sb, sb->cp->fifo ? 1 :
						sb->mine[i]);
	}
	return grew;
}

/*
 * One pass over the actors outside E: add those that conflict with T, or
 * what could release them.  Return 1 when E grew, 0 when it is a
 * persistent set, -1 when a conflicting actor waits and nothing that
 * could release it can be added (with E as it was when the pass began:
 * a pass that grew E is followed by another).
 */
static int ck_stub_pass(struct ck_stub *sb)
{
	uint32_t stuck, frozen = ck_stub_mask(sb, &stuck);
	bool grew = false, stuck_out = false;
	unsigned int j, i;

	for (j = 0; j < sb->cp->n; j++) {
		if (((sb->e.eng | sb->ended) & CK_ACTOR_ENG(j)) ||
		    !ck_stub_eng_hits(sb, j, frozen, stuck))
			continue;
		if (ck_stub_add_eng(sb, j) || ck_stub_release(sb, j))
			grew = true;
		else
			stuck_out = true;
	}
	for (i = 0; i < sb->st->ncopies; i++) {
		if ((sb->e.cps >> i & 1) || !ck_stub_copy_hits(sb, i))
			continue;
		/* one that cannot land yet waits for the oldest (fifo) */
		if (ck_stub_add_copies(sb, 1ULL << i) ||
		    ck_stub_add_copies(sb, 1))
			grew = true;
		else
			stuck_out = true;
	}
	return grew ? 1 : stuck_out ? -1 : 0;
}

/**
 * ck_stub_closure() - a persistent set of the state ck_stub_init() read,
 *	from one of its enabled steps.
 * @sb: the state's actors.
 * @seed: the index of the step in the enabled steps.
 * @out: out: the actors E whose next steps are the set.
 *
 * Return: the steps of the set, at least 1; 0 when the seed gives none
 * (an actor that conflicts with it waits, and nothing that could release
 * it can be added).
 */
unsigned int ck_stub_closure(struct ck_stub *sb, unsigned int seed,
			     struct ck_actors *out)
{
	unsigned int k, m = 0;
	int ret;

	sb->e = (struct ck_actors){ 0 };
	sb->issue = false;
	sb->land = false;
	sb->ncp = 0;
	ck_stub_add(sb, sb->all[seed]);
	do {
		ret = ck_stub_pass(sb);
	} while (ret > 0);
	for (k = 0; k < sb->nd; k++)
		sb->comm[sb->touched[k]] = 0xFF;
	sb->nd = 0;
	if (ret < 0)
		return 0;
	*out = sb->e;
	for (k = 0; k < sb->n; k++)
		m += ck_actors_has(out, sb->all[k]);
	return m;
}

/* Whether every step of set @a leads to new states only (@fresh). */
static bool ck_stub_fresh(const struct ck_stub *sb, const struct ck_actors *a,
			  bool (*fresh)(void *arg, struct ck_step s),
			  void *arg)
{
	unsigned int i;

	for (i = 0; i < sb->n; i++)
		if (ck_actors_has(a, sb->all[i]) && !fresh(arg, sb->all[i]))
			return false;
	return true;
}

/*
 * The smallest of the @n sets @sets (@size their steps, 0: none) larger
 * than one step and smaller than every enabled step; NULL when none is
 * left.  It is taken out of the candidates.
 */
static struct ck_actors *ck_stub_next(struct ck_actors *sets,
				      unsigned int *size, unsigned int n)
{
	unsigned int i, b = n;

	for (i = 0; i < n; i++)
		if (size[i] > 1 && size[i] < n && (b == n || size[i] < size[b]))
			b = i;
	if (b == n)
		return NULL;
	size[b] = 0;
	return &sets[b];
}

/**
 * ck_stub_choose() - the steps to explore from the state ck_stub_init()
 *	read: the smallest persistent set none of whose steps leads to a
 *	state on the search's stack.
 * @sb: the state's actors.
 * @fresh: whether a step's successors are all off the stack (the cycle
 *	proviso).
 * @arg: @fresh's argument.
 * @out: out: the steps, in the order of the enabled steps.
 *
 * A closure from each enabled step: a set of one step whose successor is
 * fresh is taken at once, unless the step issues a copy; such a set is
 * taken only when no other is (a copy issued later is in flight in fewer
 * states: Documentation/ncsync/check.rst, "The reduction", *DMA*).
 *
 * Return: the steps of @out; 0 when no set smaller than every enabled
 * step qualifies: then every enabled step is to be explored.
 */
unsigned int ck_stub_choose(struct ck_stub *sb,
			    bool (*fresh)(void *arg, struct ck_step s),
			    void *arg, struct ck_step *out)
{
	struct ck_actors sets[CK_MAX_SLOTS + CK_MAX_COPIES], *best;
	unsigned int size[CK_MAX_SLOTS + CK_MAX_COPIES], i, m = 0;
	unsigned int later = sb->n;

	for (i = 0; i < sb->n; i++) {
		size[i] = ck_stub_closure(sb, i, &sets[i]);
		if (size[i] != 1 || !fresh(arg, sb->all[i]))
			continue;
		if (!sb->issue) {
			out[0] = sb->all[i];
			return 1;
		}
		if (later == sb->n)
			later = i;
	}
	if (later < sb->n) {	/* an issue alone, once nothing else is */
		out[0] = sb->all[later];
		return 1;
	}
	do {
		best = ck_stub_next(sets, size, sb->n);
		if (!best)
			return 0;
	} while (!ck_stub_fresh(sb, best, fresh, arg));
	for (i = 0; i < sb->n; i++)
		if (ck_actors_has(best, sb->all[i]))
			out[m++] = sb->all[i];
	return m;
}
