# SPDX-License-Identifier: GPL-2.0
engine pool
engine act
engine pe
engine 5
engine sp
barrier
barrier wait sem[3] >= 1 then ev[2] set
engine act
	nop
barrier then sem[1]++
