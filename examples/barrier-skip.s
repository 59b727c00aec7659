# SPDX-License-Identifier: GPL-2.0
#
# barrier-skip.s: DVE branches around a barrier the others wait in.
#
# Three engines meet at a first barrier, then at a second one, but DVE's
# r1 says "skip" and its branch jumps over the second barrier: pool and
# Activation wait in it for an engine that ended.  Every engine must
# execute the same sequence of barriers (Documentation/ncsync/
# barriers.rst); this program breaks that rule on purpose.
#
# "ncsync run" and "ncsync check" name the barrier by its line, the
# engine that misses it and the line of the branch that jumps over it:
# "barrier (line 36): pool, act wait; dve ended: its branch at line 35
# (dve@17) skips it".
#
# Expected: timed_out; pool and act wait in barrier (line 36), dve done;
# exit status 1.
#
# ncsync check: defect, deadlock and barrier-imbalance, "pool waits in
# barrier (line 36), which dve skips (line 35)" (exit status 1).
#
#	ncsync run examples/barrier-skip.s
#
# options: --watchdog 500

engine pool
	movi r1, 0
engine act
	movi r1, 0
engine dve
	movi r1, 1		# dve: skip the second barrier
barrier

engine dve
	br.eq.u32 r1, 1, skip	# jumps over the barrier below
barrier
engine pool
	nop then sem[0]++
engine act
	nop then sem[0]++
engine dve
skip:	nop then sem[1]++
