// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * libncsync: the names of states, faults and wait kinds, from the one set
 * of tables the module uses too (common/ncsync_names.c).
 */
#include <errno.h>
#include <string.h>

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

/* The text-form table of @mode's family, its register bit left out. */
static const struct ncsync_text *wait_mode_table(uint8_t mode)
{
	if (ncsync_text_entry(ncsync_text_wait_sem, mode & ~NCSYNC_WAIT_REG))
		return ncsync_text_wait_sem;
	return ncsync_text_wait_ev;
}

/**
 * ncsync_wait_mode_name() - the text form's spelling of a wait mode.
 * @mode: NCSYNC_WAIT_*, with or without NCSYNC_WAIT_REG on a semaphore
 *	comparison.
 *
 * Return: "==", "<", "<=", ">" or ">=" for a semaphore comparison; "set",
 * "set_then_clear", "clear" or "clear_then_set" for an event wait;
 * "none" for NCSYNC_WAIT_NONE; "unknown" for another value.
 */
const char *ncsync_wait_mode_name(uint8_t mode)
{
	const struct ncsync_text *t = wait_mode_table(mode);
	const char *name;

	if (mode == NCSYNC_WAIT_NONE)
		return "none";
	name = ncsync_text_name(t, t == ncsync_text_wait_sem ?
				   mode & ~NCSYNC_WAIT_REG : mode);
	return name ? name : "unknown";
}

/**
 * ncsync_wait_mode_parse() - the wait mode of a text-form spelling.
 * @name: a name ncsync_wait_mode_name() returns, other than "none" and
 *	"unknown".
 * @mode: out: the NCSYNC_WAIT_* mode (the immediate form of a semaphore
 *	comparison).
 *
 * Return: 0, or -EINVAL when @name or @mode is NULL or @name is no mode.
 */
int ncsync_wait_mode_parse(const char *name, uint8_t *mode)
{
	const struct ncsync_text *e;

	if (!name || !mode)
		return -EINVAL;
	e = ncsync_text_find(ncsync_text_wait_sem, name, strlen(name));
	if (!e)
		e = ncsync_text_find(ncsync_text_wait_ev, name, strlen(name));
	if (!e)
		return -EINVAL;
	*mode = e->val;
	return 0;
}
