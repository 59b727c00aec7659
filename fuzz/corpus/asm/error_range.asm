# SPDX-License-Identifier: GPL-2.0
engine pool
	nop wait sem[256] >= 1
