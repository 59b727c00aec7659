// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * Host test: the exported names of states, faults and wait kinds, one per
 * value of the uapi, and "unknown" past them.
 */
#include <string.h>

#include "ncsync.h"
#include "tap.h"

#define NAME_IS(call, want) \
	TAP_CHECK(!strcmp(call, want), "%s is %s", #call, want)

int main(void)
{
	NAME_IS(ncsync_prog_state_name(NCSYNC_PROG_QUEUED), "queued");
	NAME_IS(ncsync_prog_state_name(NCSYNC_PROG_TIMED_OUT), "timed_out");
	NAME_IS(ncsync_prog_state_name(NCSYNC_PROG_CANCELLED), "cancelled");
	NAME_IS(ncsync_prog_state_name(0x100), "unknown");
	NAME_IS(ncsync_engine_state_name(NCSYNC_ENG_BLOCKED), "blocked");
	NAME_IS(ncsync_engine_state_name(NCSYNC_ENG_CANCELLED), "cancelled");
	NAME_IS(ncsync_engine_state_name(0xFF), "unknown");
	NAME_IS(ncsync_fault_name(NCSYNC_FAULT_NONE), "none");
	NAME_IS(ncsync_fault_name(NCSYNC_FAULT_SEM_OVERFLOW), "sem_overflow");
	NAME_IS(ncsync_fault_name(NCSYNC_FAULT_NOMEM), "nomem");
	NAME_IS(ncsync_fault_name(NCSYNC_FAULT_NOMEM + 1), "unknown");
	NAME_IS(ncsync_wait_kind_name(NCSYNC_BLOCK_DRAIN), "drain");
	NAME_IS(ncsync_wait_kind_name(NCSYNC_BLOCK_DMA_FULL), "dma_full");
	NAME_IS(ncsync_wait_kind_name(NCSYNC_BLOCK_DMA_FULL + 1), "unknown");
	NAME_IS(ncsync_engine_name(NCSYNC_ENGINE_ACT), "act");
	return tap_done();
}
