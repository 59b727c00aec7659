# SPDX-License-Identifier: GPL-2.0
engine pe
	dma 0x0, 0x1000, 256, latency=5 wait sem[1] >= 1 on_land sem[2]++
	dma 0xffffffffffff0000, 0x10, 16 then ev[3] set
	dma 0x10, 0x20, 4294967295, latency=1000000
	drain wait ev[3] set
