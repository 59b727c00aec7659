# SPDX-License-Identifier: GPL-2.0
#
# dma-drain.s: why a producer drains before it posts.
#
# A DMA record queues a copy within the core's device memory (mmap offset
# NCSYNC_DEVMEM_OFFSET) and the engine goes on at once: the copy lands
# "latency" later.  Its completion update (on_land) is applied when the
# bytes have landed, so the landing counter tells whether a reader would
# see the new data.
#
# Pool copies 4 KiB twice, each with a latency of 200 ms, and tells
# Activation each time that the data is ready:
#   1. right after issuing the copy (sem[40]): too early, the race;
#   2. with "drain then sem[42]++": Drain waits until the copy has
#      landed, and only then posts.
# Each time Activation, once told, reads the copy's landing counter (PollSem
# into r1) and records what a reader would have seen:
#	sem[44] = 1	1. without Drain, the data was stale (not landed)
#	sem[45] = 1	2. with Drain, the data was fresh (landed)
#
# Expected: done; sem[44] = 1, sem[45] = 1 (and sem[40] to sem[43] = 1:
# both copies landed before the end, since Drain waits for all of pool's
# copies); exit status 0.
#
# ncsync check: defect, dma-race (exit status 1): the second copy reads
# 0x1000, which the first, still in flight, writes; on the several DMA
# queues of hardware the second can land first.  The sem[40] post is too
# early for a reader, but Activation reads no copy, only the landing
# counter, so that is no race.  With --dma-fifo (the one queue of ncsync,
# landings in issue order): safe.
#
#	ncsync run examples/dma-drain.s
#
# options: --watchdog 5000

engine pool
	sema_clear 40..45
engine act
barrier

engine pool
	dma 0x0, 0x1000, 4096, latency=200000 on_land sem[41]++
	nop then sem[40]++			# 1. "ready": too early
	dma 0x1000, 0x2000, 4096, latency=200000 on_land sem[43]++
	drain then sem[42]++			# 2. drain, then post
	exit

engine act
	nop wait sem[40] >= 1			# 1. told
	poll min r1, sem[41]			# landed? 0: no
	xori r1, r1, 1				# 1: stale
	nop then sem[44] = r1
	nop wait sem[42] >= 1			# 2. told, after the drain
	poll min r1, sem[43]			# landed? 1: yes
	nop then sem[45] = r1			# 1: fresh
	exit
