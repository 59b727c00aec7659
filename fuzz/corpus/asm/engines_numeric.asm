# SPDX-License-Identifier: GPL-2.0
engine 1
	nop
engine 2
	nop
engine 3
	nop
engine 5
	nop
engine 6
	nop
engine 1
	exit
