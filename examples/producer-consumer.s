# SPDX-License-Identifier: GPL-2.0
#
# producer-consumer.s: a bounded queue of 8 slots between two engines,
# filled one item at a time and emptied in batches of 4.
#
# Pool produces 64 items.  For each it takes a free slot, P(sem[2]), and
# then posts the item, V(sem[1]).  Activation consumes them four at a time:
# its wait for sem[1] >= 4 and the subtraction of 4 are one atomic
# test-and-modify (a wait and an update of the same lane on the same
# semaphore), then it gives the four slots back and counts the batch in
# sem[3].  The producer blocks whenever the queue is full, the consumer
# whenever fewer than four items are ready.
#
#	sem[1]	items ready (full slots)
#	sem[2]	free slots, 8 at the start
#	sem[3]	items consumed
#
# Expected: done; sem[2] = 8 (the queue is empty again), sem[3] = 64,
# sem[1] = 0; exit status 0.
#
# ncsync check: safe (exit status 0).
#
#	ncsync run examples/producer-consumer.s
#
# options: --watchdog 5000

engine pool
	sema_clear 1..3
	nop then sem[2] = 8	# eight free slots
	movi r1, 0		# items produced
engine act
	movi r1, 0		# items consumed
barrier				# the queue is set up

engine pool
produce:
	nop wait sem[2] > 0 then sem[2]--	# P(free): take a slot
	nop then sem[1]++			# V(full): the item is ready
	addi r1, r1, 1
	br.lt.u32 r1, 64, produce
	exit

engine act
consume:
	nop wait sem[1] >= 4 then sem[1] -= 4	# take a batch of four
	nop then sem[3] += 4			# consume it
	nop then sem[2] += 4			# free its four slots
	addi r1, r1, 4
	br.lt.u32 r1, 64, consume
	exit
