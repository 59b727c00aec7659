// SPDX-License-Identifier: GPL-2.0
/*
 * ncsync(1): what the records and waits of a checked program are, looked
 * up by core, engine and record: the lookups the printing of a check's
 * result (check_print.c) and its headlines (check_what.c) share.
 */
#include <string.h>

#include "check.h"
#include "print.h"

struct ncsync_program *check_prog(const struct checking *ck,
				  unsigned int core)
{
	unsigned int i;

	for (i = 0; i < ck->nparts; i++)
		if (ck->parts[i].core == core)
			return ck->parts[i].prog;
	return NULL;
}

/* The stream of @engine of the core at position @core, or NULL. */
struct ncsync_stream *check_stream(const struct checking *ck,
				   unsigned int core, uint8_t engine)
{
	struct ncsync_program *prog = check_prog(ck, core);

	return prog ? ncsync_program_find_stream(prog, engine) : NULL;
}

bool check_view(const struct checking *ck, unsigned int core,
		uint8_t engine, uint32_t record, struct ncsync_record_view *v)
{
	struct ncsync_stream *st = check_stream(ck, core, engine);

	return st && record < ncsync_stream_count(st) &&
	       !ncsync_record_view(ncsync_stream_peek(st, record), UINT32_MAX,
				   v);
}

/*
 * The wait of engine @e of @st, as run reports the kernel's: the wait of
 * the lane its next step is, or else (a drain, a DMA record with no free
 * slot) its copies in flight; false if its record is unknown.
 */
bool check_wait_of(const struct checking *ck, unsigned int core,
		   const struct ncsync_check_state *st,
		   const struct ncsync_check_engine *e,
		   struct check_wait *out)
{
	unsigned int lane = e->part == NCSYNC_PART_WAIT1;
	const struct ncsync_wait_view *w;
	struct ncsync_record_view v;

	if (!check_view(ck, core, e->engine, e->pc, &v))
		return false;
	w = &v.wait[lane];
	memset(out, 0, sizeof(*out));
	if (e->part > NCSYNC_PART_WAIT1 || !w->active) {
		out->kind = v.opcode == NCSYNC_OPC_DRAIN ? NCSYNC_BLOCK_DRAIN :
			    NCSYNC_BLOCK_DMA_FULL;
		out->lane = -1;
		out->current = e->inflight;
		return true;
	}
	out->kind = w->bank == NCSYNC_BANK_EVENT ? NCSYNC_BLOCK_EVENT :
		    NCSYNC_BLOCK_SEM;
	out->mode = w->mode;
	out->index = w->index;
	out->lane = lane;
	out->thr = !w->reg ? (int32_t)w->value : w->value < NCSYNC_NUM_REGS ?
		   (int32_t)e->regs[w->value] : 0;
	if (out->kind == NCSYNC_BLOCK_EVENT)
		out->thr = 0;
	out->current = out->kind == NCSYNC_BLOCK_EVENT ?
		       st->events[w->index] : st->sems[w->index];
	return true;
}

bool check_engine_wait(const struct checking *ck, unsigned int core,
		       const struct ncsync_check_state *st,
		       const struct ncsync_check_engine *e, char *buf,
		       size_t len)
{
	struct check_wait w;

	if (!check_wait_of(ck, core, st, e, &w))
		return false;
	source_wait(buf, len, check_prog(ck, core), e->engine, e->pc, w.kind,
		    w.mode, w.index, w.thr);
	return true;
}
