// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * libncsync: a barrier left short, in the user's terms
 * (ncsync_program_barrier_short()), and whether a semaphore or an event
 * is a lowered barrier's own (ncsync_program_barrier_owns()).
 *
 * When engines of a program wait in a lowered barrier and the program is
 * stuck, the defect is rarely in the barrier: an engine did not come.
 * The barrier the waiting engines are in is named by its text line (the
 * lowered records keep the line of their barrier), and each engine of
 * the same part that does not wait in it is named with what made it miss
 * the barrier: the branch of its stream that jumps over the barrier's
 * arrival, or the Exit before it.  Like the deadlock analysis
 * (analysis.c) it reads a status report, so check and run tell it alike;
 * it is static: it names the branch that can skip, not the branch
 * condition's values.
 */
#include <errno.h>
#include <string.h>

#include "internal.h"
#include "ncsync_exec.h"
#include "ncsync_optab.h"

_Static_assert(sizeof(struct ncsync_barrier_miss) == 16,
	       "ncsync_barrier_miss layout");
_Static_assert(sizeof(struct ncsync_barrier_short) ==
	       8 + NCSYNC_DEADLOCK_MAX_ENGINES +
	       16 * NCSYNC_DEADLOCK_MAX_ENGINES,
	       "ncsync_barrier_short layout");

bool ncsync_program_barrier_owns(const struct ncsync_program *prog,
				 uint8_t bank, uint8_t index)
{
	if (!prog)
		return false;
	return bank == NCSYNC_BANK_SEM ? prog->res_sems[index] :
	       bank == NCSYNC_BANK_EVENT && prog->res_events[index];
}

/* Whether engine @e of @prog waits in a lowered barrier. */
static bool bm_waits_in_barrier(const struct ncsync_program *prog,
				const struct ncsync_engine_status *e)
{
	uint8_t bank;

	if (e->state != NCSYNC_ENG_BLOCKED)
		return false;
	if (e->wait_kind == NCSYNC_BLOCK_SEM)
		bank = NCSYNC_BANK_SEM;
	else if (e->wait_kind == NCSYNC_BLOCK_EVENT)
		bank = NCSYNC_BANK_EVENT;
	else
		return false;
	return ncsync_program_barrier_owns(prog, bank, e->wait_index);
}

/* The text line of the record engine @e is at, 0 for none. */
static uint32_t bm_line(const struct ncsync_program *prog,
			const struct ncsync_engine_status *e)
{
	const struct ncsync_stream *s = e->engine < NCSYNC_MAX_ENGINE_ID ?
					prog->streams[e->engine] : NULL;

	return ncsync_stream_line(s, e->pc);
}

/*
 * Whether record @in is a barrier's arrival: both lowerings lead a pass
 * with a Drain whose update is the arrival, on what the lowering owns
 * (Documentation/ncsync/barriers.rst).
 */
static bool bm_arrival(const struct ncsync_program *prog,
		       const struct ncsync_insn *in)
{
	const struct ncsync_update_op *u = &in->lane[0].upd;

	return in->opcode == NCSYNC_OPC_DRAIN && in->nlanes && u->active &&
	       ncsync_program_barrier_owns(prog, u->bank, u->index);
}

/*
 * What in stream @s skips the barrier of line @line: the last branch
 * (of another line) that jumps forward over one of the barrier's
 * arrivals, or the last Exit before one; -1 when none does, or when the
 * stream has no arrival of that line.
 */
static int64_t bm_skipper(const struct ncsync_stream *s, uint32_t line)
{
	struct ncsync_insn in;
	int64_t found = -1;
	uint32_t i, a, first = UINT32_MAX, last = 0;

	for (a = 0; a < s->count; a++) {
		if (ncsync_stream_line(s, a) != line ||
		    !ncsync_stream_decode(s, a, &in) ||
		    !bm_arrival(s->prog, &in))
			continue;
		first = first < a ? first : a;
		last = a;
	}
	if (first == UINT32_MAX)
		return -1;
	for (i = 0; i < last; i++) {
		if (ncsync_stream_line(s, i) == line ||
		    !ncsync_stream_decode(s, i, &in))
			continue;
		if (in.opcode == NCSYNC_OPC_EXIT && i < first)
			found = i;
		else if (ncsync_op_has(in.opcode, NCSYNC_OPF_FLOW) &&
			 in.br.target > first)
			found = i;
	}
	return found;
}

/* Engine @e of part @part misses the barrier of @out->line. */
static void bm_add_miss(struct ncsync_barrier_short *out,
			const struct ncsync_asm_part *part,
			const struct ncsync_engine_status *e)
{
	struct ncsync_barrier_miss *m = &out->missing[out->nmissing++];
	const struct ncsync_stream *s = e->engine < NCSYNC_MAX_ENGINE_ID ?
					part->prog->streams[e->engine] : NULL;

	memset(m, 0, sizeof(*m));
	m->engine = e->engine;
	m->ended = e->state == NCSYNC_ENG_DONE || e->state == NCSYNC_ENG_HALTED;
	m->branch = s && out->line ? bm_skipper(s, out->line) : -1;
	m->line = m->branch >= 0 ? ncsync_stream_line(s, m->branch) : 0;
}

/*
 * The barrier of part @part that its first engine waiting in a barrier
 * waits in, its engines and the engines that miss it; false when no
 * engine waits in a barrier, or none misses it.
 */
static bool bm_part(const struct ncsync_asm_part *part,
		    const struct ncsync_prog_status *st,
		    struct ncsync_barrier_short *out)
{
	const struct ncsync_engine_status *e;
	unsigned int i;
	int first = -1;

	for (i = 0; i < st->nengines && first < 0; i++)
		if (bm_waits_in_barrier(part->prog, &st->engines[i]))
			first = i;
	if (first < 0)
		return false;
	memset(out, 0, sizeof(*out));
	out->core = part->core;
	out->line = bm_line(part->prog, &st->engines[first]);
	for (i = 0; i < st->nengines; i++) {
		e = &st->engines[i];
		if (bm_waits_in_barrier(part->prog, e) &&
		    bm_line(part->prog, e) == out->line)
			out->waiting[out->nwaiting++] = e->engine;
		else
			bm_add_miss(out, part, e);
	}
	return out->nmissing;
}

int ncsync_program_barrier_short(const struct ncsync_asm_part *parts,
				 const struct ncsync_prog_status *status,
				 unsigned int n, struct ncsync_barrier_short *out)
{
	unsigned int i;

	if (!parts || !status || !out || !n)
		return -EINVAL;
	for (i = 0; i < n; i++)
		if (!parts[i].prog || !parts[i].prog->finalized ||
		    status[i].nengines > NCSYNC_NUM_ENGINES)
			return -EINVAL;
	for (i = 0; i < n; i++)
		if (bm_part(&parts[i], &status[i], out))
			return 0;
	memset(out, 0, sizeof(*out));
	return 0;
}
