// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * libncsync: what a program may not write.  The lowerings own resources
 * (Documentation/ncsync/barriers.rst, "What a program may not write"):
 * the counters and r31 of the counter form, the event bits and r30 of the
 * event form, the semaphore of each core barrier.  barrier.c and
 * core_barrier.c take them when they allocate them (prog->res_sems,
 * res_events, own_regs, own_core_sems); once the lowering took them, and
 * before it rewrites anything, every record of the program's own (not
 * one a builder emitted on the lowering's behalf: ncsync_src.lowered) is
 * checked here: none may write one of them.  A write breaks the barrier
 * at run time, where it shows only as a deadlock or an early release.
 * Reading them is allowed.
 */
#include <errno.h>
#include <stdio.h>

#include "internal.h"
#include "ncsync_optab.h"

/* What the program's lowering owns of @bank @index: its name, or NULL. */
static const char *ncsync_own_sem_name(const struct ncsync_program *prog,
				       uint8_t bank, uint8_t index)
{
	if (bank == NCSYNC_BANK_EVENT)
		return prog->res_events[index] ?
		       "an event bit of the all-engine barrier's event form" :
		       NULL;
	if (prog->res_sems[index])
		return "a counter of the all-engine barrier's counter form";
	if (prog->own_core_sems[index])
		return "the semaphore of the program's core barriers";
	return NULL;
}

static const char *ncsync_own_reg_name(unsigned int reg)
{
	if (reg == NCSYNC_REG_BARRIER_COUNT)
		return "the threshold register of the all-engine barrier's counter form";
	return "the phase register of the all-engine barrier's event form";
}

/*
 * Update @u, if it writes what the lowering owns: its resource into @res
 * and the owner's name into *@owner; true then.
 */
static bool ncsync_own_upd(const struct ncsync_program *prog,
			   const struct ncsync_update_op *u, char *res,
			   size_t len, const char **owner)
{
	if (!u->active)
		return false;
	*owner = ncsync_own_sem_name(prog, u->bank, u->index);
	if (!*owner)
		return false;
	snprintf(res, len, "%s[%u]", u->bank == NCSYNC_BANK_EVENT ? "ev" :
		 "sem", u->index);
	return true;
}

/* A hardware record @rec of @s: as ncsync_own_upd(), for all it writes. */
static bool ncsync_own_insn(const struct ncsync_program *prog,
			    const struct ncsync_stream *s, const uint8_t *rec,
			    char *res, size_t len, const char **owner)
{
	struct ncsync_footprint fp;
	struct ncsync_insn in;
	unsigned int l, i;

	/* What the validator refuses, it reports after the lowering. */
	if (ncsync_record_decode(rec, s->count, UINT64_MAX, &in))
		return false;
	for (l = 0; l < in.nlanes; l++)
		if (ncsync_own_upd(prog, &in.lane[l].upd, res, len, owner))
			return true;
	ncsync_op_footprint(&in, &fp);
	for (i = 0; i < NCSYNC_NUM_SEMS; i++) {
		if (!ncsync_footprint_sem(fp.sem_write, i))
			continue;
		*owner = ncsync_own_sem_name(prog, NCSYNC_BANK_SEM, i);
		if (*owner) {
			snprintf(res, len, "sem[%u]", i);
			return true;
		}
	}
	fp.reg_write &= prog->own_regs;
	if (!fp.reg_write)
		return false;
	i = __builtin_ctz(fp.reg_write);
	*owner = ncsync_own_reg_name(i);
	snprintf(res, len, "r%u", i);
	return true;
}

/* Record @i of @s: as ncsync_own_upd(); a pseudo-op by its events block. */
static bool ncsync_own_record(const struct ncsync_program *prog,
			      const struct ncsync_stream *s, uint32_t i,
			      char *res, size_t len, const char **owner)
{
	const uint8_t *rec = ncsync_stream_at(s, i);
	struct ncsync_update_op u;
	struct ncsync_events ev;

	if (!ncsync_is_pseudo(rec[0]))
		return ncsync_own_insn(prog, s, rec, res, len, owner);
	ncsync_events_get(rec, &ev);
	ncsync_update_op_decode(ev.upd_mode, ev.upd_idx, ev.value, &u);
	return ncsync_own_upd(prog, &u, res, len, owner);
}

/**
 * ncsync_lower_own_check() - refuse a program that writes what its
 *	lowering owns.
 * @prog: the program, Calls inlined, the lowering's resources taken.
 *
 * Return: 0, or -EINVAL with the message of ncsync_program_lower_error()
 * naming the first such record (engine, index, text line and column) and
 * the resource, and ncsync_program_lower_where() its line and column.
 */
int ncsync_lower_own_check(struct ncsync_program *prog)
{
	const char *owner;
	char res[16];
	unsigned int e;
	uint32_t i;

	for (e = 0; e < NCSYNC_MAX_ENGINE_ID; e++) {
		const struct ncsync_stream *s = prog->streams[e];

		for (i = 0; s && i < s->count; i++) {
			const struct ncsync_src *src = &s->lines[i];
			char at[48] = "";

			if (src->lowered ||
			    !ncsync_own_record(prog, s, i, res, sizeof(res),
					       &owner))
				continue;
			if (src->line)
				snprintf(at, sizeof(at), " (line %u:%u)",
					 src->line, src->col);
			ncsync_lower_fail(prog, -EINVAL,
					  "engine %s record %u%s writes %s, %s: the lowering owns it, a program with that barrier must not write it",
					  ncsync_engine_name(e), i, at, res,
					  owner);
			prog->lower_line = src->line;
			prog->lower_col = src->col;
			return -EINVAL;
		}
	}
	return 0;
}

/* Add @bank @index, at @value, off its idle value @idle, to @out. */
static unsigned int ncsync_idle_put(struct ncsync_idle *out, unsigned int max,
				    unsigned int n, uint8_t bank,
				    unsigned int index, int32_t value,
				    const char *idle, const char *owner)
{
	if (n < max)
		out[n] = (struct ncsync_idle){
			.bank = bank, .index = (uint8_t)index, .value = value,
			.idle = idle, .owner = owner,
		};
	return n + 1;
}

/**
 * ncsync_program_idle_check() - what the program's lowering owns on a
 *	core, off the value it must have when the program starts.
 * @prog: a lowered or finalized program.
 * @dev: the core it is about to be submitted to.
 * @out: out: room for @max resources (may be NULL when @max is 0).
 * @max: the room.
 *
 * The counter C0 of the counter form must not be negative (a program
 * cancelled inside its start rendezvous leaves it so, and the next start
 * hangs), the event-form bits must be clear (a program halted or
 * cancelled leaves them set), a core barrier's semaphore must be 0
 * (Documentation/ncsync/barriers.rst).  C1 may hold any value: the
 * passes re-arm it.  Read through the mapping: a program running on the
 * core meanwhile may change them.
 *
 * Return: the number of resources off their idle value (the first @max
 * stored, in the order counters, events, core barrier semaphores), or
 * -EINVAL for a NULL @prog or @dev, or a NULL @out with @max.
 */
int ncsync_program_idle_check(const struct ncsync_program *prog,
			      const struct ncsync_dev *dev,
			      struct ncsync_idle *out, unsigned int max)
{
	unsigned int i, n = 0;
	int32_t v;

	if (!prog || !dev || (!out && max))
		return -EINVAL;
	if (prog->ctr_sem >= 0) {
		v = ncsync_sem_read(dev, (uint8_t)prog->ctr_sem);
		if (v < 0)
			n = ncsync_idle_put(out, max, n, NCSYNC_BANK_SEM,
					    prog->ctr_sem, v, ">= 0",
					    ncsync_own_sem_name(prog, NCSYNC_BANK_SEM,
								prog->ctr_sem));
	}
	for (i = 0; i < NCSYNC_NUM_EVENTS; i++)
		if (prog->res_events[i] && ncsync_event_read(dev, i))
			n = ncsync_idle_put(out, max, n, NCSYNC_BANK_EVENT, i,
					    1, "clear",
					    ncsync_own_sem_name(prog, NCSYNC_BANK_EVENT, i));
	for (i = 0; i < NCSYNC_NUM_SEMS; i++) {
		if (!prog->own_core_sems[i])
			continue;
		v = ncsync_sem_read(dev, i);
		if (v)
			n = ncsync_idle_put(out, max, n, NCSYNC_BANK_SEM, i, v,
					    "0", ncsync_own_sem_name(prog, NCSYNC_BANK_SEM, i));
	}
	return (int)n;
}

/**
 * ncsync_program_owner() - what a semaphore or event is to a program's
 *	lowering.
 * @prog: a lowered or finalized program.
 * @bank: NCSYNC_BANK_SEM or NCSYNC_BANK_EVENT.
 * @index: the semaphore or event.
 *
 * A wait on one is a barrier's: a tool labels it so (ncsync run
 * --timeline).
 *
 * Return: what it is, as text ("a counter of the all-engine barrier's
 * counter form", ...), or NULL when the lowering does not own it or
 * @prog is NULL.
 */
const char *ncsync_program_owner(const struct ncsync_program *prog,
				 uint8_t bank, uint8_t index)
{
	if (!prog || (bank != NCSYNC_BANK_SEM && bank != NCSYNC_BANK_EVENT))
		return NULL;
	return ncsync_own_sem_name(prog, bank, index);
}
