# SPDX-License-Identifier: GPL-2.0
#
# token-ring.s: one token passed around the five engines, 10 rounds.
#
# Each engine has a token semaphore: pool sem[10], act sem[11], pe sem[12],
# dve sem[13], sp sem[14].  An engine takes the token from its own
# semaphore (P), takes its turn, and passes the token on by posting the
# next engine's semaphore (V): pool -> act -> pe -> dve -> sp -> pool.
#
# sem[15] counts the hops.  Each engine checks that its turn comes in ring
# order: the engine at position p (pool 0 ... sp 4) waits for
# sem[15] == p + 5 * round and increments it in the same atomic step.  A
# turn out of order would block there until the watchdog ends the program.
#
# Expected: done; sem[10] = 1 (the token is back at pool), sem[15] = 50
# hops; exit status 0.
#
# ncsync check: safe (exit status 0).
#
#	ncsync run examples/token-ring.s
#
# options: --watchdog 5000

# r1 = rounds, r2 = the hop count of this engine's next turn
engine pool
	sema_clear 10..15
	movi r1, 0
	movi r2, 0
engine act
	movi r1, 0
	movi r2, 1
engine pe
	movi r1, 0
	movi r2, 2
engine dve
	movi r1, 0
	movi r2, 3
engine sp
	movi r1, 0
	movi r2, 4
barrier				# the ring is clear

engine pool
	nop then sem[10]++			# pool holds the token first
turn:	nop wait sem[10] > 0 then sem[10]--	# take the token
	nop wait sem[15] == r2 then sem[15]++	# my turn, in ring order
	nop then sem[11]++			# pass it to act
	addi r2, r2, 5
	addi r1, r1, 1
	br.lt.u32 r1, 10, turn
	exit
engine act
turn:	nop wait sem[11] > 0 then sem[11]--
	nop wait sem[15] == r2 then sem[15]++
	nop then sem[12]++			# to pe
	addi r2, r2, 5
	addi r1, r1, 1
	br.lt.u32 r1, 10, turn
	exit
engine pe
turn:	nop wait sem[12] > 0 then sem[12]--
	nop wait sem[15] == r2 then sem[15]++
	nop then sem[13]++			# to dve
	addi r2, r2, 5
	addi r1, r1, 1
	br.lt.u32 r1, 10, turn
	exit
engine dve
turn:	nop wait sem[13] > 0 then sem[13]--
	nop wait sem[15] == r2 then sem[15]++
	nop then sem[14]++			# to sp
	addi r2, r2, 5
	addi r1, r1, 1
	br.lt.u32 r1, 10, turn
	exit
engine sp
turn:	nop wait sem[14] > 0 then sem[14]--
	nop wait sem[15] == r2 then sem[15]++
	nop then sem[10]++			# back to pool
	addi r2, r2, 5
	addi r1, r1, 1
	br.lt.u32 r1, 10, turn
	exit
