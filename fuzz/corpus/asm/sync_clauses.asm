# SPDX-License-Identifier: GPL-2.0
engine act
	nop wait sem[1] >= 5 then sem[2] += 5
	nop wait ev[4] set value=9 then sem[2]++
	nop then sem[3] += 1 .read
	nop wait sem[0] == -1 then sem[0]--
	nop wait sem[0] == 3 then sem[0] = r3
	nop wait sem[9] < r31 then sem[9] -= r31 .read
	nop wait ev[255] clear_then_set then ev[255] clear
	halt lane0 wait ev[1] set_then_clear then ev[2] set
	evsem lane1 then sem[3]++ value=0
	evsem wait sem[1] <= 3 then sem[1]-- lane1 wait ev[2] clear then ev[2] set
	evsem lane0 wait sem[4] > r1 lane1 wait sem[5] == 7 then sem[5] = -7
