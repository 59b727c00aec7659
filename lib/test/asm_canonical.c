// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * The spellings the assembler accepts, and the one line the disassembler
 * prints for each: disasm(asm(x)) is the canonical form of x, and the
 * canonical form is a fixed point.
 */
#include "asm_test.h"

static const struct {
	const char *in;
	const char *out;
} cases[] = {
	/* one of each, already canonical */
	{ "evsem", "evsem" },
	{ "halt", "halt" },
	{ "drain", "drain" },
	{ "nop", "nop" },
	{ "exit", "exit" },
	{ "movi r1, 5", "movi r1, 5" },
	{ "mov r1, r2", "mov r1, r2" },
	{ "addi r1, r2, 3", "addi r1, r2, 3" },
	{ "add r1, r2", "add r1, r2" },
	{ "subi r1, r2, 3", "subi r1, r2, 3" },
	{ "sub r1, r2", "sub r1, r2" },
	{ "andi r1, r2, 0xff", "andi r1, r2, 255" },
	{ "ori r1, r2, 0x10000", "ori r1, r2, 0x10000" },
	{ "xori r1, r2, 1", "xori r1, r2, 1" },
	{ "shli r1, r2, 4", "shli r1, r2, 4" },
	{ "shri r1, r2, 31", "shri r1, r2, 31" },
	{ "br @7", "br @7" },
	{ "br.lt.s32 r1, 5, @0", "br.lt.s32 r1, 5, @0" },
	{ "br.le.u32 r1, r2, @1", "br.le.u32 r1, r2, @1" },
	{ "br.eq.s32 r1, -1, @2", "br.eq.s32 r1, -1, @2" },
	{ "br.ne.u32 r1, -1, @3", "br.ne.u32 r1, 0xffffffff, @3" },
	{ "br.ge.u32 r31, r0, @4", "br.ge.u32 r31, r0, @4" },
	{ "br.gt.s32 r0, 0x7fffffff, @5", "br.gt.s32 r0, 2147483647, @5" },
	{ "sema_clear 3..7", "sema_clear 3..7" },
	{ "sema_clear 5", "sema_clear 5..5" },
	{ "sema_clear mask {}", "sema_clear mask {}" },
	{ "sema_clear mask {7, 1, 2..3, 3}", "sema_clear mask {1..3, 7}" },
	{ "sema_clear mask 0x6", "sema_clear mask {1..2}" },
	{ "sema_clear mask 0x8000000000000000000000000000000000000000000000000000000000000000",
	  "sema_clear mask {255}" },
	{ "sema_clear mask 0x555555555555555555",
	  "sema_clear mask 0x555555555555555555" },
	{ "poll min r3, sem[4]..sem[7]", "poll min r3, sem[4]..sem[7]" },
	{ "poll sum r3, sem[4]", "poll sum r3, sem[4]" },
	{ "poll min r3, sem[4]..sem[7] , writeback",
	  "poll min r3, sem[4]..sem[7], writeback" },
	{ "poll min r3, sem[4], writeback then sem[9]++",
	  "poll min r3, sem[4], writeback then sem[9]++" },
	{ "poll sum r3, sem[4]..sem[4]", "poll sum r3, sem[4]" },
	{ "dma 0x1000, 0x2000, 256", "dma 0x1000, 0x2000, 256" },
	{ "dma 4096, 8192, 0x100, latency=0", "dma 0x1000, 0x2000, 256" },
	{ "dma 0, 64, 64, latency=5 on_land sem[3]++",
	  "dma 0x0, 0x40, 64, latency=5 on_land sem[3]++" },
	{ "dma 0, 64, 64, peer=1 on_land sem[3]++",
	  "dma 0x0, 0x40, 64, peer=1 on_land sem[3]++" },
	{ "dma 0, 64, 64, peer=0x3, latency=7 on_land ev[1] set",
	  "dma 0x0, 0x40, 64, latency=7, peer=3 on_land ev[1] set" },
	{ "dma 0, 64, 64 then ev[2] set .read",
	  "dma 0x0, 0x40, 64 on_land ev[2] set .read" },
	/* waits */
	{ "nop wait sem[3] == 5", "nop wait sem[3] == 5" },
	{ "nop wait sem[3] < -5", "nop wait sem[3] < -5" },
	{ "nop wait sem[3] <= 0xffffffff", "nop wait sem[3] <= -1" },
	{ "nop wait sem[3] > r2", "nop wait sem[3] > r2" },
	{ "nop wait sem[0x10] >= 1", "nop wait sem[16] >= 1" },
	{ "nop wait ev[4] set", "nop wait ev[4] set" },
	{ "nop wait ev[4] set_then_clear", "nop wait ev[4] set_then_clear" },
	{ "nop wait ev[4] clear", "nop wait ev[4] clear" },
	{ "nop wait ev[4] clear_then_set", "nop wait ev[4] clear_then_set" },
	{ "nop wait ev[4] set value=0", "nop wait ev[4] set" },
	{ "nop wait ev[4] set value=-1", "nop wait ev[4] set value=0xffffffff" },
	/* updates */
	{ "nop then sem[3]++", "nop then sem[3]++" },
	{ "nop then sem[3]--", "nop then sem[3]--" },
	{ "nop then sem[3] += 1", "nop then sem[3] += 1" },
	{ "nop then sem[3] -= 7", "nop then sem[3] -= 7" },
	{ "nop then sem[3] = -9", "nop then sem[3] = -9" },
	{ "nop then sem[3] += r4", "nop then sem[3] += r4" },
	{ "nop then sem[3] -= r4 .read", "nop then sem[3] -= r4 .read" },
	{ "nop then sem[3] = r4", "nop then sem[3] = r4" },
	{ "nop then ev[4] set", "nop then ev[4] set" },
	{ "nop then ev[4] clear .read", "nop then ev[4] clear .read" },
	{ "nop then sem[3]++ .read value=12",
	  "nop then sem[3]++ .read value=12" },
	/* lane 0 shares one value */
	{ "nop wait sem[1] >= 5 then sem[2] += 5",
	  "nop wait sem[1] >= 5 then sem[2] += 5" },
	{ "nop wait sem[1] >= r5 then sem[2] += 5",
	  "nop wait sem[1] >= r5 then sem[2] += 5" },
	{ "nop wait ev[1] set then sem[2] = 8",
	  "nop wait ev[1] set then sem[2] = 8" },
	{ "nop wait ev[1] set then sem[2]++ value=8",
	  "nop wait ev[1] set value=8 then sem[2]++" },
	{ "nop wait sem[1] > 0 value=0 then sem[1]--",
	  "nop wait sem[1] > 0 then sem[1]--" },
	/* lanes */
	{ "evsem lane0 wait sem[1] > 0 then sem[1]--",
	  "evsem wait sem[1] > 0 then sem[1]--" },
	{ "evsem lane1 wait sem[1] > 0 then sem[1]--",
	  "evsem lane1 wait sem[1] > 0 then sem[1]--" },
	{ "evsem lane1 then sem[1]++ value=1", "evsem lane1 then sem[1]++" },
	{ "evsem lane1 then sem[1]++ value=0",
	  "evsem lane1 then sem[1]++ value=0" },
	{ "evsem lane1 then ev[1] set value=2",
	  "evsem lane1 then ev[1] set value=2" },
	{ "evsem wait ev[1] set lane1 wait sem[2] == 3 then sem[2] += 4",
	  "evsem wait ev[1] set lane1 wait sem[2] == 3 then sem[2] += 4" },
	{ "evsem lane0 lane1", "evsem" },
	/* with the events block on other opcodes */
	{ "br.eq.u32 r1, 2, @3 wait sem[1] >= 2 then sem[1] -= 2",
	  "br.eq.u32 r1, 2, @3 wait sem[1] >= 2 then sem[1] -= 2" },
	{ "sema_clear 0..255 then ev[9] set", "sema_clear 0..255 then ev[9] set" },
	{ "poll min r0, sem[0] wait ev[0] clear",
	  "poll min r0, sem[0] wait ev[0] clear" },
	{ "drain then sem[5]++", "drain then sem[5]++" },
	/* spacing, case of hex, comments */
	{ "  \tmovi\tr1 ,0X1F   # a comment", "movi r1, 31" },
	{ "nop ; another comment", "nop" },
	{ "nop wait sem [ 3 ] >= 1 then sem[3]  --", "nop wait sem[3] >= 1 then sem[3]--" },
	{ "movi r1, -1", "movi r1, 0xffffffff" },
	{ "movi r1, -2147483648", "movi r1, 0x80000000" },
	{ "movi r01, 1", "movi r1, 1" },
};

int main(void)
{
	char line[NCSYNC_DISASM_LINE_MAX], again[NCSYNC_DISASM_LINE_MAX];
	struct ncsync_asm_error err;
	uint8_t rec[NCSYNC_RECORD_SIZE], back[NCSYNC_RECORD_SIZE];
	unsigned int i;
	int ret;

	for (i = 0; i < ARRAY_LEN(cases); i++) {
		ret = t_asm_one(cases[i].in, rec, &err);
		if (ret) {
			TAP_CHECK(0, "'%s': %d %u:%u: %s", cases[i].in, ret,
				  err.line, err.col, err.msg);
			continue;
		}
		ncsync_disasm(rec, line, sizeof(line));
		TAP_CHECK(!strcmp(line, cases[i].out), "'%s' -> '%s'",
			  cases[i].in, line);
		ret = t_asm_one(line, back, &err);
		ncsync_disasm(back, again, sizeof(again));
		TAP_CHECK(!ret && !memcmp(rec, back, sizeof(rec)) &&
			  !strcmp(again, line), "'%s' is a fixed point", line);
	}
	return tap_done();
}
