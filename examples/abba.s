# SPDX-License-Identifier: GPL-2.0
#
# abba.s: two engines take two locks in opposite orders, with no barrier.
#
# Locks are semaphores holding 1 while free (sem[1] lock A, sem[2] lock
# B); pool frees both first, and counts the work in sem[3].  Pool takes A
# then B; PE takes B then A.
# Unlike deadlock.s nothing forces the bad interleaving: PE first spins
# through 64 loop passes, so on a run pool has almost always taken both
# locks, and given them back, before PE takes its first.  The program
# usually completes; one schedule in many hangs: pool holds A, PE holds B,
# each waits for the other's.
#
# Expected: "ncsync run" usually done (sem[3] = 2, exit status 0); a run
# that hits the bad schedule times out (exit status 1).  "ncsync check":
# defect, deadlock, with the cycle pool -> pe -> pool and the schedule that
# reaches it (exit status 1).  ncsync replay runs that schedule.
#
#	ncsync run examples/abba.s
#	ncsync check examples/abba.s
#
# options: --watchdog 2000

engine pool
	sema_clear 3
	nop then sem[1] = 1			# lock A is free
	nop then sem[2] = 1			# lock B is free
	nop wait sem[1] > 0 then sem[1]--	# take A
	nop wait sem[2] > 0 then sem[2]--	# take B
	nop then sem[3]++			# work under A and B
	nop then sem[2]++			# release B
	nop then sem[1]++			# release A
	exit
engine pe
	movi r1, 0
spin:	addi r1, r1, 1				# do something else first
	br.lt.u32 r1, 64, spin
	nop wait sem[2] > 0 then sem[2]--	# take B
	nop wait sem[1] > 0 then sem[1]--	# take A
	nop then sem[3]++			# work under B and A
	nop then sem[1]++			# release A
	nop then sem[2]++			# release B
	exit
