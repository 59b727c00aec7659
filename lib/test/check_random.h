/* SPDX-License-Identifier: LGPL-2.1-or-later OR MIT */
/*
 * Random small programs for the differential tests of ncsync_check(): the
 * reduced search against the full one (check_reduction.c), SPIN against
 * ncsync (check_spin.c).  Two or three engines of two to five lines each:
 * semaphore P and V, waits of every comparison, events, PollSem (with and
 * without its write-back), counted and endless loops, event sets, clears
 * and waits for set or clear, with and without a then-action, DMA copies with and
 * without a completion update, Drains, GroupResetSemaphores, register
 * operands, a two-lane EventSemaphore; and programs of that kind across
 * two cores, with copies that land on the peer.  And the order of the
 * hashes of their final states.
 *
 * A copy's source and destination and its length are drawn so that two
 * copies' ranges are often adjacent (one ends where the other starts) or
 * share exactly one byte, and sometimes apart or one inside the other, and
 * copies are two lines of the menu in fourteen: an off-by-one in the
 * dma-race rule (check.rst "Defects") changes a verdict, which check_spin
 * catches (SPIN's model decides the conflicts on its own, promela.c).
 */
#ifndef NCSYNC_TEST_CHECK_RANDOM_H
#define NCSYNC_TEST_CHECK_RANDOM_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t ck_rng = 0x9E3779B97F4A7C15ULL;

/* xorshift64: 0 .. @n - 1. */
static inline unsigned int ck_rnd(unsigned int n)
{
	ck_rng ^= ck_rng << 13;
	ck_rng ^= ck_rng >> 7;
	ck_rng ^= ck_rng << 17;
	return (unsigned int)(ck_rng >> 11) % n;
}

static const char *const ck_menu[] = {
	"nop then sem[%u]++", "nop then sem[%u]--",
	"nop wait sem[%u] > 0 then sem[%u]--", "nop wait sem[%u] >= 1",
	"nop wait sem[%u] == 0", "nop then ev[%u] set", "nop then ev[%u] clear",
	"nop wait ev[%u] set_then_clear", "addi r1, r1, 1",
	"br.lt.u32 r1, 2, top", "poll min r2, sem[%u]", "drain", "exit",
	"dma 0x%x, 0x%x, %u, latency=1 on_land sem[%u]++",
	"dma 0x%x, 0x%x, %u, latency=1",
	"nop then sem[%u] += 3", "nop then sem[%u] -= 2",
	"nop wait sem[%u] <= 1", "nop wait sem[%u] > 1", "sema_clear %u",
	"nop then sem[%u] = 2", "nop then sem[%u] += r1",
	"evsem wait sem[%u] >= 1 lane1 wait sem[%u] <= 2",
	"poll min r2, sem[%u]..sem[3], writeback",
	"nop wait ev[%u] set", "nop wait ev[%u] clear",
	"evsem wait ev[%u] set lane1 then ev[%u] clear",
	/* Copies twice as often: a race needs two in flight. */
	"dma 0x%x, 0x%x, %u, latency=1 on_land sem[%u]++",
	"dma 0x%x, 0x%x, %u, latency=1",
};

/*
 * A copy's source and destination, and its length: of two copies at
 * consecutive offsets, the lower one of 0x40 bytes ends where the other
 * starts, of 0x41 shares one byte with it, of 0x3f or 1 stops short of it;
 * at one offset they share their first byte.  The ranges stay in the
 * device memory (common/ncsync_record.c, ncsync_decode_dma()).
 */
static const unsigned int ck_dma_off[] = { 0x0, 0x40, 0x80 };
static const unsigned int ck_dma_len[] = { 1, 0x3f, 0x40, 0x41 };

static inline void ck_random_line(char *buf, size_t len)
{
	unsigned int m = ck_rnd(sizeof(ck_menu) / sizeof(ck_menu[0]));
	unsigned int a = 1 + ck_rnd(3), s = ck_dma_off[ck_rnd(3)];
	unsigned int d = ck_dma_off[ck_rnd(3)];

	if (m == 13 || m == 14 || m == 27 || m == 28)
		snprintf(buf, len, ck_menu[m], s, d, ck_dma_len[ck_rnd(4)],
			 a);
	else if (m == 2 || m == 22 || m == 26)
		snprintf(buf, len, ck_menu[m], a, 1 + ck_rnd(3));
	else
		snprintf(buf, len, ck_menu[m], a);
}

/* A program of two or three engines, each a loop head and 2 to 5 lines. */
static inline void ck_random_program(char *text, size_t len)
{
	static const char *const engines[] = { "pool", "act", "pe" };
	unsigned int n = 2 + ck_rnd(2), e, i, k;
	size_t off = 0;
	char line[96];

	for (e = 0; e < n; e++) {
		off += snprintf(text + off, len - off, "engine %s\ntop:\n",
				engines[e]);
		k = 2 + ck_rnd(4);
		for (i = 0; i < k; i++) {
			ck_random_line(line, sizeof(line));
			off += snprintf(text + off, len - off, "\t%s\n", line);
		}
	}
}

/* A line of ck_random_cores(): one in four a copy to a core's semaphore. */
static inline void ck_random_cores_body(char *line, size_t len)
{
	if (ck_rnd(4))
		ck_random_line(line, len);
	else
		snprintf(line, len,
			 "dma 0x%x, 0x%x, 64, peer=%u on_land sem[%u]++",
			 0x40 * ck_rnd(3), 0x40 * ck_rnd(3), ck_rnd(2),
			 1 + ck_rnd(3));
}

/*
 * A program across two cores ("core 0", "core 1"), two or three engines
 * each, of 2 to 5 random lines, one in four a copy that lands on the
 * peer's or its own core's semaphore: the engines of one core share its
 * banks, the copies tie the cores together (the persistent sets by groups
 * of actors, check_stub.c).  With @twins, the engines of a core run one
 * body (interchangeable, check_symmetry.c).
 */
static inline void ck_random_cores(char *text, size_t len, bool twins)
{
	static const char *const engines[] = { "pool", "act", "pe" };
	char body[6][96];
	unsigned int c, n, e, i, k;
	size_t off = 0;

	for (c = 0; c < 2; c++) {
		off += snprintf(text + off, len - off, "core %u\n", c);
		n = 2 + ck_rnd(2);
		k = 2 + ck_rnd(4);
		for (e = 0; e < n; e++) {
			off += snprintf(text + off, len - off,
					"engine %s\ntop:\n", engines[e]);
			for (i = 0; i < k; i++) {
				if (!twins || !e)
					ck_random_cores_body(body[i],
							     sizeof(body[i]));
				off += snprintf(text + off, len - off,
						"\t%s\n", body[i]);
			}
		}
	}
}

/*
 * A program of two or three engines that run one random body (2 to 5
 * lines) and, half the time, a pool with a body of its own: the engines
 * the symmetry reduction takes as interchangeable.  With @odd, the last
 * engine's copy of the body has one line changed (then it is not).
 */
static inline void ck_random_symmetric(char *text, size_t len, bool odd)
{
	static const char *const engines[] = { "act", "pe", "dve" };
	char body[6][96], line[96];
	unsigned int n = 2 + ck_rnd(2), k = 2 + ck_rnd(4), e, i;
	unsigned int changed = ck_rnd(k);
	size_t off = 0;

	if (ck_rnd(2)) {
		off += snprintf(text, len, "engine pool\ntop:\n");
		for (i = 2 + ck_rnd(3); i; i--) {
			ck_random_line(line, sizeof(line));
			off += snprintf(text + off, len - off, "\t%s\n", line);
		}
	}
	for (i = 0; i < k; i++)
		ck_random_line(body[i], sizeof(body[i]));
	for (e = 0; e < n; e++) {
		off += snprintf(text + off, len - off, "engine %s\ntop:\n",
				engines[e]);
		for (i = 0; i < k; i++) {
			if (odd && e == n - 1 && i == changed)
				do {
					ck_random_line(line, sizeof(line));
				} while (!strcmp(line, body[i]));
			else
				strcpy(line, body[i]);
			off += snprintf(text + off, len - off, "\t%s\n", line);
		}
	}
}

/* The order of two 128-bit state hashes (struct ck_finals.h), for qsort. */
static inline int ck_cmp_hash(const void *a, const void *b)
{
	const uint64_t *x = a, *y = b;

	if (x[0] != y[0])
		return x[0] < y[0] ? -1 : 1;
	return x[1] < y[1] ? -1 : x[1] > y[1];
}

/* Sort the @n hashes at @h and drop repeats; the number left. */
static inline size_t ck_uniq_hashes(uint64_t *h, size_t n)
{
	size_t i, k = 0;

	if (!n)
		return 0;
	qsort(h, n, 2 * sizeof(uint64_t), ck_cmp_hash);
	for (i = 0; i < n; i++)
		if (!k || ck_cmp_hash(h + 2 * i, h + 2 * (k - 1))) {
			h[2 * k] = h[2 * i];
			h[2 * k + 1] = h[2 * i + 1];
			k++;
		}
	return k;
}

#endif /* NCSYNC_TEST_CHECK_RANDOM_H */
