# SPDX-License-Identifier: GPL-2.0
engine pe
	movi r0, 0xffffffff
	mov r1, r0
	addi r2, r1, -1
	add r2, r1
	subi r3, r2, 7
	sub r3, r2
	andi r4, r3, 0xff
	ori r5, r4, 0x100
	xori r6, r5, 1
	shli r7, r6, 4
	shri r8, r7, 31
	exit
