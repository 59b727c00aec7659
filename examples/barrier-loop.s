# SPDX-License-Identifier: GPL-2.0
#
# barrier-loop.s: all five engines meet at a barrier, 20 times in a loop.
#
# Shows the AllEngineBarrier pseudo-op ("barrier") in a loop, lowered by
# libncsync: by default into +1 arrivals on a shared counter (reserved
# sem[240] and up) and a GE release (Documentation/ncsync/barriers.rst),
# with --lowering events into one event bit per engine, which
# "ncsync monitor" shows while "ncsync notify on" (make run does that).
#
# Each pass every engine counts its arrival in sem[0] before the barrier.
# After the barrier it checks, with waits that must pass at once, that
# every engine has arrived (sem[0] >= 5 * pass) and that no engine has run
# two passes ahead (sem[0] <= 5 * pass + 4).  A broken barrier would leave
# an engine blocked in a check, and the watchdog would end the program.
#
# Expected: done; sem[0] = 100 (5 engines x 20 passes); exit status 0.
#
# ncsync check: safe, proved by induction over the loop's passes whatever
# the number of passes (913 states; 7407 pass by pass, with --no-accel; exit
# status 0).  With
# --lowering events the barriers' event bits make it larger: safe, by
# induction too, in 48275 states.
#
#	ncsync run examples/barrier-loop.s
#	ncsync run --lowering events --timeline barrier-loop.svg examples/barrier-loop.s
#
# options: --watchdog 5000

# r1 = passes, r2 = 5 * passes, r3 = 5 * passes + 4
engine pool
	sema_clear 0		# one engine zeroes the counter ...
	movi r1, 0
	movi r2, 0
	movi r3, 4
engine act
	movi r1, 0
	movi r2, 0
	movi r3, 4
engine pe
	movi r1, 0
	movi r2, 0
	movi r3, 4
engine dve
	movi r1, 0
	movi r2, 0
	movi r3, 4
engine sp
	movi r1, 0
	movi r2, 0
	movi r3, 4
barrier				# ... before anyone counts

engine pool
loop:	addi r1, r1, 1
	addi r2, r2, 5
	addi r3, r3, 5
	nop then sem[0]++	# arrive
engine act
loop:	addi r1, r1, 1
	addi r2, r2, 5
	addi r3, r3, 5
	nop then sem[0]++
engine pe
loop:	addi r1, r1, 1
	addi r2, r2, 5
	addi r3, r3, 5
	nop then sem[0]++
engine dve
loop:	addi r1, r1, 1
	addi r2, r2, 5
	addi r3, r3, 5
	nop then sem[0]++
engine sp
loop:	addi r1, r1, 1
	addi r2, r2, 5
	addi r3, r3, 5
	nop then sem[0]++
barrier

# the checks: lane 0 waits for sem[0] >= r2, lane 1 for sem[0] <= r3
engine pool
	evsem wait sem[0] >= r2 lane1 wait sem[0] <= r3
	br.lt.u32 r1, 20, loop
	exit
engine act
	evsem wait sem[0] >= r2 lane1 wait sem[0] <= r3
	br.lt.u32 r1, 20, loop
	exit
engine pe
	evsem wait sem[0] >= r2 lane1 wait sem[0] <= r3
	br.lt.u32 r1, 20, loop
	exit
engine dve
	evsem wait sem[0] >= r2 lane1 wait sem[0] <= r3
	br.lt.u32 r1, 20, loop
	exit
engine sp
	evsem wait sem[0] >= r2 lane1 wait sem[0] <= r3
	br.lt.u32 r1, 20, loop
	exit
