// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * libncsync: the visited set of ncsync_check()'s search (Documentation/
 * ncsync/check.rst, "The search"): open addressing over the 128-bit
 * hashes of the states, kept at most half full, the low bit of each
 * second word not hash but whether the state is on the search's stack
 * (the reduction's cycle proviso); a hash of 0 is stored as 1 (0 marks an
 * empty entry).  It grows by doubling within the bytes the
 * caller's memory limit leaves, counting the old table next to the new
 * one while it is rehashed.
 */
#include <errno.h>
#include <stdlib.h>

#include "check.h"

/*
 * Double the table; -ENOSPC when the new one, next to the old one while it
 * is rehashed, would take more than @avail bytes.
 */
static int ck_visited_grow(struct ck_visited *v, size_t avail)
{
	size_t cap = v->cap ? v->cap * 2 : 1 << 16, i, j;
	uint64_t *keys;

	if (cap * 2 * sizeof(*keys) > avail)
		return -ENOSPC;
	keys = calloc(cap, 2 * sizeof(*keys));
	if (!keys)
		return -ENOMEM;
	for (i = 0; i < v->cap; i++) {
		if (!v->keys[2 * i] && !v->keys[2 * i + 1])
			continue;
		for (j = v->keys[2 * i] & (cap - 1);
		     keys[2 * j] || keys[2 * j + 1]; j = (j + 1) & (cap - 1))
			;
		keys[2 * j] = v->keys[2 * i];
		keys[2 * j + 1] = v->keys[2 * i + 1];
	}
	free(v->keys);
	v->keys = keys;
	v->cap = cap;
	return 0;
}

/**
 * ck_visited_find() - look a state's hash up in a visited set.
 * @v: the set.
 * @h: the hash (check_state.c, check_sym.c).
 * @add: insert @h when it is not there.
 * @avail: the bytes the set may take more, to grow.
 *
 * Look @h up; insert it when @add, growing the table within @avail bytes
 * more.  The low bit of @h[1] is cleared: a slot keeps there whether its
 * state is on the search's stack (ck_visited_stack()).  2: it was there
 * and is on the stack, 1: it was there, 0: not, -ENOSPC (no room) or
 * -ENOMEM.
 */
int ck_visited_find(struct ck_visited *v, uint64_t h[2], bool add,
		    size_t avail)
{
	size_t j;
	int ret;

	/* The low bit of the second word is the on-stack mark, not hash. */
	h[1] &= ~1ULL;
	if (!h[0] && !h[1])
		h[0] = 1;
	if (add && 2 * (v->n + 1) > v->cap) {
		ret = ck_visited_grow(v, avail);
		if (ret)
			return ret;
	}
	if (!v->cap)
		return 0;
	for (j = h[0] & (v->cap - 1); v->keys[2 * j] || v->keys[2 * j + 1];
	     j = (j + 1) & (v->cap - 1))
		if (v->keys[2 * j] == h[0] &&
		    (v->keys[2 * j + 1] | 1) == (h[1] | 1))
			return 1 + (v->keys[2 * j + 1] & 1);
	if (add) {
		v->keys[2 * j] = h[0];
		v->keys[2 * j + 1] = h[1];
		v->n++;
	}
	return 0;
}

/**
 * ck_visited_stack() - mark a visited state on the search's stack or off.
 * @v: the set.
 * @h: the hash, as ck_visited_find() took it.
 * @on: on the stack.
 */
void ck_visited_stack(struct ck_visited *v, const uint64_t h[2], bool on)
{
	size_t j;

	for (j = h[0] & (v->cap - 1); v->keys[2 * j] || v->keys[2 * j + 1];
	     j = (j + 1) & (v->cap - 1))
		if (v->keys[2 * j] == h[0] &&
		    (v->keys[2 * j + 1] | 1) == (h[1] | 1)) {
			v->keys[2 * j + 1] = (h[1] & ~1ULL) | on;
			return;
		}
}
