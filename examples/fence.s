# SPDX-License-Identifier: GPL-2.0
#
# fence.s: the lower_control fence between two phases that reuse the same
# semaphores.
#
# ncsync_add_lower_control_fence() appends to every engine: a barrier, a
# GroupResetSemaphores of the program's semaphores (a mask), a second
# barrier and a Drain (SYNC lower_control).  This file writes it out.  The
# first barrier keeps the reset from running before every engine is done
# with phase 1; the second keeps phase 2 from starting before every
# engine's reset is done (each engine resets the same mask: the copies are
# harmless).  A lowered barrier leads with a Drain, so phase 1's DMA copy
# (100 ms) lands, and counts, before anything is reset.
#
# Phase 1 and phase 2 both count every engine in sem[20]; phase 1's copy
# completes into sem[21].  After phase 2 every engine checks sem[20] == 5
# and sem[21] == 0: true only if the fence cleared phase 1's counts.
# Without the fence the checks would block and the watchdog would fire.
#
# Expected: done; sem[20] = 5, sem[21] = 0; exit status 0.
#
# ncsync check: safe (exit status 0).
#
#	ncsync run examples/fence.s
#
# options: --watchdog 5000

# phase 1
engine pool
	nop then sem[20]++
	dma 0x0, 0x1000, 4096, latency=100000 on_land sem[21]++
engine act
	nop then sem[20]++
engine pe
	nop then sem[20]++
engine dve
	nop then sem[20]++
engine sp
	nop then sem[20]++

# the fence
barrier
engine pool
	sema_clear mask {20..21}
engine act
	sema_clear mask {20..21}
engine pe
	sema_clear mask {20..21}
engine dve
	sema_clear mask {20..21}
engine sp
	sema_clear mask {20..21}
barrier
engine pool
	drain
engine act
	drain
engine pe
	drain
engine dve
	drain
engine sp
	drain

# phase 2
engine pool
	nop then sem[20]++
engine act
	nop then sem[20]++
engine pe
	nop then sem[20]++
engine dve
	nop then sem[20]++
engine sp
	nop then sem[20]++
barrier
engine pool
	evsem wait sem[20] == 5 lane1 wait sem[21] == 0
engine act
	evsem wait sem[20] == 5 lane1 wait sem[21] == 0
engine pe
	evsem wait sem[20] == 5 lane1 wait sem[21] == 0
engine dve
	evsem wait sem[20] == 5 lane1 wait sem[21] == 0
engine sp
	evsem wait sem[20] == 5 lane1 wait sem[21] == 0
