# SPDX-License-Identifier: GPL-2.0
#
# deadlock.s: two engines take two locks in opposite orders.
#
# Locks are semaphores holding 1 while free: taking one is a P() (wait
# sem > 0 and decrement, atomically), releasing it a V().  Pool takes lock
# A (sem[1]) then lock B (sem[2]); PE takes B then A.  The barrier between
# the first and the second lock makes the bad interleaving certain: each
# engine holds one lock and waits forever for the other's.
#
# Nothing progresses, so the program's watchdog (1 s here, from the
# options line below) stops it.  "ncsync run" then prints the snapshot the
# watchdog took: each blocked engine with the record it waits in, the
# condition and the semaphore's current value, the non-zero semaphores,
# and the cycle: pool waits for a semaphore only PE would post, and PE for
# one only pool would post.
#
# Expected: timed_out; pool waits for sem[2] > 0 and PE for sem[1] > 0,
# both now 0; sem[3] = 2; "deadlock: pool -> pe -> pool"; exit status 1.
#
# ncsync check: defect, deadlock, "cycle: pool -> pe -> pool" (exit
# status 1); every schedule reaches it.
#
#	ncsync run examples/deadlock.s
#
# options: --watchdog 1000

engine pool
	sema_clear 1..3
	nop then sem[1] = 1			# lock A is free
	nop then sem[2] = 1			# lock B is free
engine pe
barrier

engine pool
	nop wait sem[1] > 0 then sem[1]--	# take A
	nop then sem[3]++			# work under A
engine pe
	nop wait sem[2] > 0 then sem[2]--	# take B
	nop then sem[3]++			# work under B
barrier					# each holds one lock now

engine pool
	nop wait sem[2] > 0 then sem[2]--	# take B: PE holds it
	nop then sem[2]++			# release B
	nop then sem[1]++			# release A
	exit
engine pe
	nop wait sem[1] > 0 then sem[1]--	# take A: pool holds it
	nop then sem[1]++			# release A
	nop then sem[2]++			# release B
	exit
