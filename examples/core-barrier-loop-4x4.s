# SPDX-License-Identifier: GPL-2.0
#
# core-barrier-loop-4x4.s: the four cores of a logical core (module
# parameter lnc=4), four engines each, meet at a core barrier (CoreBarrier
# 0xD8, Documentation/ncsync/barriers.rst, "The core barrier") 1000
# times: sixteen engines, the model checker's limit
# (NCSYNC_CHECK_MAX_ENGINES, Documentation/ncsync/check.rst).
#
# A program across cores (Documentation/ncsync/asm.rst, "Programs across
# cores"), like core-barrier-loop.s (two cores of five engines): every
# engine counts its passes on its own core's sem[22] before it arrives;
# the library lowers each core_barrier for the device's lnc when ncsync
# run submits the program.  sem[20], the barrier's semaphore, must be 0
# on all four cores when it starts, and a completed run leaves it so.
#
# Expected: done; on each core sem[22] = 4000 and sem[20] = 0; exit
# status 0.
#
#	ncsync load cores=4 lnc=4 && ncsync run examples/core-barrier-loop-4x4.s
#	ncsync check --lnc 4 examples/core-barrier-loop-4x4.s
#
# options: --watchdog 10000

core 0
engine pool
	movi r1, 0
loop:	nop then sem[22]++
	core_barrier sem[20]
	addi r1, r1, 1
	br.lt.u32 r1, 1000, loop
engine act
	movi r1, 0
loop:	nop then sem[22]++
	core_barrier sem[20]
	addi r1, r1, 1
	br.lt.u32 r1, 1000, loop
engine pe
	movi r1, 0
loop:	nop then sem[22]++
	core_barrier sem[20]
	addi r1, r1, 1
	br.lt.u32 r1, 1000, loop
engine dve
	movi r1, 0
loop:	nop then sem[22]++
	core_barrier sem[20]
	addi r1, r1, 1
	br.lt.u32 r1, 1000, loop

core 1
engine pool
	movi r1, 0
loop:	nop then sem[22]++
	core_barrier sem[20]
	addi r1, r1, 1
	br.lt.u32 r1, 1000, loop
engine act
	movi r1, 0
loop:	nop then sem[22]++
	core_barrier sem[20]
	addi r1, r1, 1
	br.lt.u32 r1, 1000, loop
engine pe
	movi r1, 0
loop:	nop then sem[22]++
	core_barrier sem[20]
	addi r1, r1, 1
	br.lt.u32 r1, 1000, loop
engine dve
	movi r1, 0
loop:	nop then sem[22]++
	core_barrier sem[20]
	addi r1, r1, 1
	br.lt.u32 r1, 1000, loop

core 2
engine pool
	movi r1, 0
loop:	nop then sem[22]++
	core_barrier sem[20]
	addi r1, r1, 1
	br.lt.u32 r1, 1000, loop
engine act
	movi r1, 0
loop:	nop then sem[22]++
	core_barrier sem[20]
	addi r1, r1, 1
	br.lt.u32 r1, 1000, loop
engine pe
	movi r1, 0
loop:	nop then sem[22]++
	core_barrier sem[20]
	addi r1, r1, 1
	br.lt.u32 r1, 1000, loop
engine dve
	movi r1, 0
loop:	nop then sem[22]++
	core_barrier sem[20]
	addi r1, r1, 1
	br.lt.u32 r1, 1000, loop

core 3
engine pool
	movi r1, 0
loop:	nop then sem[22]++
	core_barrier sem[20]
	addi r1, r1, 1
	br.lt.u32 r1, 1000, loop
engine act
	movi r1, 0
loop:	nop then sem[22]++
	core_barrier sem[20]
	addi r1, r1, 1
	br.lt.u32 r1, 1000, loop
engine pe
	movi r1, 0
loop:	nop then sem[22]++
	core_barrier sem[20]
	addi r1, r1, 1
	br.lt.u32 r1, 1000, loop
engine dve
	movi r1, 0
loop:	nop then sem[22]++
	core_barrier sem[20]
	addi r1, r1, 1
	br.lt.u32 r1, 1000, loop
