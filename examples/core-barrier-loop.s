# SPDX-License-Identifier: GPL-2.0
#
# core-barrier-loop.s: the two cores of a logical core (module parameter
# lnc=2), five engines each, meet at a core barrier (CoreBarrier 0xD8,
# Documentation/ncsync/barriers.rst, "The core barrier") 1000 times.
#
# A program across cores (Documentation/ncsync/asm.rst, "Programs across
# cores"): "core 0" and "core 1" are the parts of the two cores.  Every
# engine of both counts its passes on its own core's sem[22] before it
# arrives; the library lowers each core_barrier for the device's lnc when
# ncsync run submits the program.  sem[20], the barrier's semaphore, must
# be 0 on both cores when it starts, and a completed run leaves it so.
#
# Expected: done; on each core sem[22] = 5000 and sem[20] = 0; exit
# status 0.
#
#	ncsync load lnc=2 && ncsync run examples/core-barrier-loop.s
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
engine sp
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
engine sp
	movi r1, 0
loop:	nop then sem[22]++
	core_barrier sem[20]
	addi r1, r1, 1
	br.lt.u32 r1, 1000, loop
