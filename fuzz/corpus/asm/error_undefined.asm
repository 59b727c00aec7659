# SPDX-License-Identifier: GPL-2.0
engine act
	br missing
