# SPDX-License-Identifier: GPL-2.0
#
# publish-race.s: a producer posts "ready" before its copy has landed.
#
# Pool copies 4 KiB into the buffer at 0x1000 and tells Activation the
# buffer is ready (sem[50]) right after issuing the copy, before any
# Drain.  Activation, once told, copies the buffer on to 0x3000.  With the
# copy's latency of 1 ms a run nearly always finds pool's copy landed
# first, but nothing orders the two: Activation's copy can read the buffer
# while pool's is still writing it.  The fix is "drain then sem[50]++":
# the post then waits for the landing, and the race is gone.  Run it on a
# core without a "ready" left in sem[50] by an earlier run ("ncsync
# reset"): Activation could take that one before the clear, and its copy's
# landing in sem[52] would then be cleared.
#
# Expected: "ncsync run" done, exit status 0 (sem[50] = 1, sem[51] = 1,
# sem[52] = 1).  "ncsync check": defect, dma-race between act's copy
# (record 1) and pool's copy (record 1) in flight, exit status 1.
#
#	ncsync run examples/publish-race.s
#	ncsync check examples/publish-race.s
#
# options: --watchdog 5000

engine pool
	sema_clear 50..52
	dma 0x0, 0x1000, 4096, latency=1000 on_land sem[51]++
	nop then sem[50]++			# "ready": before the drain
	drain
	exit
engine act
	nop wait sem[50] >= 1			# told
	dma 0x1000, 0x3000, 4096, latency=1000 on_land sem[52]++
	drain
	exit
