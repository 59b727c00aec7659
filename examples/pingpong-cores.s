# SPDX-License-Identifier: GPL-2.0
#
# pingpong-cores.s: a ball passed between the two cores of a logical core
# (module parameter lnc=2), 50 rounds.
#
# A program across cores (Documentation/ncsync/asm.rst, "Programs across
# cores"): "core 0" and "core 1" are the parts of the two cores, each on
# its own banks.  Each core's pool serves with a copy whose completion
# lands on the other core (dma ..., peer=P): core 0 pings core 1's
# sem[10], core 1 pongs core 0's sem[11].  Each takes the ball (P) in the
# same atomic step as its wait, counts its rounds in r1 and writes them
# at the end.  The balls start at 0, as a run leaves them: a part cannot
# clear them at its start, for the other core's first copy may land
# before it.
#
#	core 0: sem[11] the pong in flight, sem[12] its rounds
#	core 1: sem[10] the ping in flight, sem[13] its rounds
#
# Expected: done; core 0 sem[12] = 50, core 1 sem[13] = 50, both balls
# taken (sem[10] and sem[11] 0); exit status 0.
#
#	ncsync load lnc=2 && ncsync run examples/pingpong-cores.s
#
# options: --watchdog 5000

core 0
engine pool
	movi r1, 0
ping:	dma 0x0, 0x40, 64, peer=1 on_land sem[10]++
	nop wait sem[11] >= 1 then sem[11]--
	addi r1, r1, 1
	br.lt.u32 r1, 50, ping
	nop then sem[12] = r1

core 1
engine pool
	movi r1, 0
pong:	nop wait sem[10] >= 1 then sem[10]--
	dma 0x40, 0x80, 64, peer=0 on_land sem[11]++
	addi r1, r1, 1
	br.lt.u32 r1, 50, pong
	nop then sem[13] = r1
	drain
