// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * libncsync: the names of states, faults and wait kinds, from the one set
 * of tables the module uses too (common/ncsync_names.c).
 */
#include "ncsync.h"
#include "ncsync_names.h"

/**
 * ncsync_prog_state_name() - the name of a program state.
 * @state: NCSYNC_PROG_*.
 *
 * Return: "queued", "running", "done", "halted", "faulted", "timed_out" or
 * "cancelled"; "unknown" for another value.
 */
const char *ncsync_prog_state_name(uint32_t state)
{
	const char *name = state <= 0xFF ?
			   ncsync_text_name(ncsync_text_prog_states, state) :
			   NULL;

	return name ? name : "unknown";
}

/**
 * ncsync_engine_state_name() - the name of an engine's state.
 * @state: NCSYNC_ENG_*.
 *
 * Return: "queued", "running", "blocked", "done", "halted", "faulted" or
 * "cancelled"; "unknown" for another value.
 */
const char *ncsync_engine_state_name(uint8_t state)
{
	const char *name = ncsync_text_name(ncsync_text_eng_states, state);

	return name ? name : "unknown";
}

/**
 * ncsync_fault_name() - the name of a fault reason.
 * @fault: NCSYNC_FAULT_*.
 *
 * Return: "none", "event_set_while_set", "watchdog"...; "unknown" for
 * another value.
 */
const char *ncsync_fault_name(uint8_t fault)
{
	const char *name = ncsync_text_name(ncsync_text_faults, fault);

	return name ? name : "unknown";
}

/**
 * ncsync_wait_kind_name() - the name of what a blocked engine waits on.
 * @kind: NCSYNC_BLOCK_*.
 *
 * Return: "none", "sem", "event", "drain" or "dma_full"; "unknown" for
 * another value.
 */
const char *ncsync_wait_kind_name(uint8_t kind)
{
	const char *name = ncsync_text_name(ncsync_text_blocks, kind);

	return name ? name : "unknown";
}
