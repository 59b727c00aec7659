# SPDX-License-Identifier: GPL-2.0
engine pool
	nop wait sem[1] >= 5 then sem[2] += 7
	br.xx.u32 r1, 0, nowhere
