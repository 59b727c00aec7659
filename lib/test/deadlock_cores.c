// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * ncsync_program_deadlock_cores(): the posters of a wait are the other
 * engines of its core and the copies that land on it, whichever core
 * issued them; the cycle across cores; the refused arguments.
 */
#include <errno.h>
#include <string.h>

#include "ncsync.h"
#include "tap.h"

#define POOL	NCSYNC_ENGINE_POOL
#define ACT	NCSYNC_ENGINE_ACT

/* A part's report: @engine blocked at @pc on sem[@index] >= threshold. */
static void blocked(struct ncsync_prog_status *st, uint8_t engine,
		    uint32_t pc, uint8_t index)
{
	struct ncsync_engine_status *e = &st->engines[st->nengines++];

	memset(e, 0, sizeof(*e));
	e->engine = engine;
	e->state = NCSYNC_ENG_BLOCKED;
	e->pc = pc;
	e->wait_kind = NCSYNC_BLOCK_SEM;
	e->wait_mode = NCSYNC_WAIT_SEM_GE;
	e->wait_index = index;
}

/* Part @i: @engine waits sem[@wait] >= 1, then signals @peer's sem[@post]. */
static void part(struct ncsync_asm_part *parts, unsigned int i,
		 unsigned int pos, uint8_t engine, uint8_t wait, uint8_t peer,
		 uint8_t post)
{
	struct ncsync_stream *s = NULL;

	parts[i].core = pos;
	ncsync_program_new(&parts[i].prog);
	ncsync_program_stream(parts[i].prog, engine, &s);
	ncsync_add_semaphore_wait_ge(s, wait, 1);
	ncsync_add_dma_peer(s, peer, 0, 0x100, 64, 0,
			    NCSYNC_UPD_COMPLETE | NCSYNC_UPD_SEM_INC, post,
			    NULL);
	ncsync_program_set_lnc(parts[i].prog, 2);
	ncsync_program_finalize(parts[i].prog);
}

/* Core 0's pool waits for core 1's copy, core 1's act for core 0's. */
static void crossed(void)
{
	struct ncsync_prog_status st[2] = {
		{ .state = NCSYNC_PROG_TIMED_OUT },
		{ .state = NCSYNC_PROG_TIMED_OUT },
	};
	struct ncsync_asm_part parts[2];
	struct ncsync_deadlock_cores dl;
	struct ncsync_deadlock one;

	part(parts, 0, 0, POOL, 4, 1, 3);
	part(parts, 1, 1, ACT, 3, 0, 4);
	blocked(&st[0], POOL, 0, 4);
	blocked(&st[1], ACT, 0, 3);
	memset(&dl, 0xAA, sizeof(dl));
	TAP_CHECK(!ncsync_program_deadlock_cores(parts, st, 2, &dl) &&
		  dl.nengines == 2 && dl.nstuck == 2 &&
		  dl.engines[0].core == 0 && dl.engines[0].engine == POOL &&
		  dl.engines[1].core == 1 && dl.engines[1].engine == ACT,
		  "crossed copies: both engines of both cores stuck");
	TAP_CHECK(dl.engines[0].poster[1] == 1 &&
		  dl.engines[1].poster[0] == 1 &&
		  dl.engines[0].poster[0] == NCSYNC_NO_POSTER &&
		  dl.engines[2].poster[0] == NCSYNC_NO_POSTER,
		  "each is posted by the other core's copy, record 1");
	TAP_CHECK(dl.ncycle == 2 && dl.cycle[0] == 0 && dl.cycle[1] == 1,
		  "the cycle: 0:pool -> 1:act");
	TAP_CHECK(!ncsync_program_deadlock(parts[0].prog, &st[0], &one) &&
		  one.nstuck == 1 && !one.ncycle,
		  "core 0's part alone: stuck, no poster, no cycle");
	/* Core 1's copy lands on its own core: it posts nothing of core 0. */
	ncsync_program_free(parts[1].prog);
	part(parts, 1, 1, ACT, 3, 1, 4);
	TAP_CHECK(!ncsync_program_deadlock_cores(parts, st, 2, &dl) &&
		  dl.engines[0].poster[1] == NCSYNC_NO_POSTER &&
		  dl.engines[1].poster[0] == 1 && !dl.ncycle &&
		  dl.nstuck == 2,
		  "a copy landing on its own core posts no other core's wait");
	ncsync_program_free(parts[0].prog);
	ncsync_program_free(parts[1].prog);
}

static void refused(void)
{
	struct ncsync_prog_status st[4] = { { 0 } };
	struct ncsync_asm_part parts[4];
	struct ncsync_deadlock_cores dl;
	unsigned int i;

	for (i = 0; i < 4; i++)
		part(parts, i, i, POOL, 1, 0, 1);
	TAP_CHECK(ncsync_program_deadlock_cores(NULL, st, 1, &dl) == -EINVAL &&
		  ncsync_program_deadlock_cores(parts, NULL, 1, &dl) == -EINVAL &&
		  ncsync_program_deadlock_cores(parts, st, 1, NULL) == -EINVAL &&
		  ncsync_program_deadlock_cores(parts, st, 0, &dl) == -EINVAL,
		  "NULL arguments, no part: -EINVAL");
	parts[1].core = 0;
	TAP_CHECK(ncsync_program_deadlock_cores(parts, st, 2, &dl) == -EINVAL,
		  "two parts at one position: -EINVAL");
	parts[1].core = 1;
	st[1].nengines = NCSYNC_NUM_ENGINES + 1;
	TAP_CHECK(ncsync_program_deadlock_cores(parts, st, 2, &dl) == -EINVAL,
		  "a report of six engines: -EINVAL");
	for (i = 0; i < 4; i++)
		st[i].nengines = NCSYNC_NUM_ENGINES;
	TAP_CHECK(ncsync_program_deadlock_cores(parts, st, 4, &dl) == -E2BIG,
		  "twenty engines: -E2BIG");
	TAP_CHECK(ncsync_program_deadlock_cores(parts, st, 3, &dl) == 0 &&
		  dl.nengines == 15,
		  "fifteen engines: analysed");
	for (i = 0; i < 4; i++)
		ncsync_program_free(parts[i].prog);
}

int main(void)
{
	crossed();
	refused();
	return tap_done();
}
