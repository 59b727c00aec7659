# SPDX-License-Identifier: GPL-2.0
engine pe
	nop ; comment
	halt # comment
	exit
