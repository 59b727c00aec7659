// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * Host test: the exported names of states, faults, wait kinds and wait
 * modes, one per value of the uapi, and "unknown" past them; wait modes
 * parsed back from their names.
 */
#include <errno.h>
#include <string.h>

#include "ncsync.h"
#include "tap.h"

#define NAME_IS(call, want) \
	TAP_CHECK(!strcmp(call, want), "%s is %s", #call, want)

/* Every mode with a name parses back to itself; anything else is refused. */
static void parse_modes(void)
{
	static const uint8_t modes[] = {
		NCSYNC_WAIT_SEM_EQ, NCSYNC_WAIT_SEM_LT, NCSYNC_WAIT_SEM_LE,
		NCSYNC_WAIT_SEM_GT, NCSYNC_WAIT_SEM_GE, NCSYNC_WAIT_EVT_SET,
		NCSYNC_WAIT_EVT_SET_THEN_CLEAR, NCSYNC_WAIT_EVT_CLEAR,
		NCSYNC_WAIT_EVT_CLEAR_THEN_SET,
	};
	unsigned int i, ok = 0;
	uint8_t m = 0xAA;

	for (i = 0; i < sizeof(modes); i++)
		if (!ncsync_wait_mode_parse(ncsync_wait_mode_name(modes[i]),
					    &m) && m == modes[i])
			ok++;
	TAP_CHECK(ok == sizeof(modes), "every wait mode parses back");
	m = 0xAA;
	TAP_CHECK(ncsync_wait_mode_parse("none", &m) == -EINVAL &&
		  ncsync_wait_mode_parse("=", &m) == -EINVAL &&
		  ncsync_wait_mode_parse("", &m) == -EINVAL &&
		  ncsync_wait_mode_parse(NULL, &m) == -EINVAL &&
		  ncsync_wait_mode_parse("==", NULL) == -EINVAL && m == 0xAA,
		  "no mode: -EINVAL, nothing written");
}

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
	NAME_IS(ncsync_wait_mode_name(NCSYNC_WAIT_NONE), "none");
	NAME_IS(ncsync_wait_mode_name(NCSYNC_WAIT_SEM_EQ), "==");
	NAME_IS(ncsync_wait_mode_name(NCSYNC_WAIT_SEM_GE | NCSYNC_WAIT_REG),
		">=");
	NAME_IS(ncsync_wait_mode_name(NCSYNC_WAIT_EVT_SET_THEN_CLEAR),
		"set_then_clear");
	NAME_IS(ncsync_wait_mode_name(NCSYNC_WAIT_EVT_CLEAR_THEN_SET),
		"clear_then_set");
	NAME_IS(ncsync_wait_mode_name(NCSYNC_WAIT_EVT_SET | NCSYNC_WAIT_REG),
		"unknown");
	NAME_IS(ncsync_wait_mode_name(0x08), "unknown");
	parse_modes();
	return tap_done();
}
