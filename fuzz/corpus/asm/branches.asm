# SPDX-License-Identifier: GPL-2.0
engine dve
top:
	br.eq.u32 r1, 0, out
	br.ne.s32 r1, -5, out
	br.le.u32 r1, r2, top
	br.gt.s32 r3, r4, out
	br.ge.u32 r5, 0xffffffff, top
	br.lt.s32 r6, -2147483648, out
	br top
out:	exit
engine sp
	br @0
