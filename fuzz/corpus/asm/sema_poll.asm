# SPDX-License-Identifier: GPL-2.0
engine pool
	sema_clear 0..255
	sema_clear 17
	sema_clear mask {}
	sema_clear mask {0, 2..5, 255}
	sema_clear mask 0x8000000000000000000000000000000000000000000000000000000000000001
	poll min r1, sem[0]..sem[15]
	poll sum r2, sem[240]..sem[255]
	poll min r3, sem[7]
