# SPDX-License-Identifier: GPL-2.0
# two engines meet at a barrier, then pool counts to 10
engine pool
	movi r1, 0
engine act
	evsem lane1 then sem[3]++      # a semaphore V()
barrier
engine pool
loop:	addi r1, r1, 1
	br.lt.u32 r1, 10, loop
	dma 0x0, 0x1000, 256, latency=5 on_land ev[7] set
	drain
	exit
