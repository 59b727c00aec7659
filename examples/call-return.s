# SPDX-License-Identifier: GPL-2.0
#
# call-return.s: functions, Call and Return, and the DMA barrier, lowered
# by the library (Documentation/ncsync/barriers.rst, "Call, Return and
# the DMA barrier").
#
# Pool and activation each define a function "post" of their own: it adds
# one to sem[1] (pool) or sem[2] (act), and a second one on odd passes,
# returning early on even ones.  Each engine calls its post ten times in
# a loop; the lowering inlines each engine's body at its Call, the early
# ret becoming a branch to the end of the copy.  Pool then waits for
# act's fifteen posts and counts sem[3] up behind a DMA barrier,
# lowered to a NoOp that keeps its events block.
#
#	sem[1]	pool's posts: 15
#	sem[2]	act's posts: 15
#	sem[3]	1: pool saw all of act's posts
#
# Expected: done; sem[1] = 15, sem[2] = 15, sem[3] = 1; exit status 0.
#
# ncsync check: safe (exit status 0).
#
#	ncsync run examples/call-return.s
#
# options: --watchdog 5000

engine pool
	sema_clear 1..3
func post
	nop then sem[1]++
	andi r2, r1, 1
	br.eq.u32 r2, 0, even
	nop then sem[1]++
	ret
even:	ret
endfunc
	movi r1, 0
engine act
func post
	nop then sem[2]++
	andi r2, r1, 1
	br.eq.u32 r2, 0, even
	ret then sem[2]++
even:
endfunc
	movi r1, 0
barrier				# sem[1..3] are clear

engine pool
loop:	call post
	addi r1, r1, 1
	br.lt.u32 r1, 10, loop
	dma_barrier wait sem[2] >= 15 then sem[3]++
	exit

engine act
loop:	call post, args=1
	addi r1, r1, 1
	br.lt.u32 r1, 10, loop
	exit
