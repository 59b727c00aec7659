# SPDX-License-Identifier: GPL-2.0
engine pool
a: b: c:
	br c
	br.lt.u32 r1, 3, later
	nop
later:	exit
engine act
a:	br a
