// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * Text the assembler refuses: -EINVAL, no program, and the line, column
 * and message of the first error.
 */
#include "asm_test.h"

#define P "engine pool\n"

static const struct {
	const char *text;
	unsigned int line, col;
	const char *msg;
} cases[] = {
	/* engines and statements */
	{ "nop", 1, 1, "no engine: write 'engine <name>' first" },
	{ "engine foo", 1, 8, "unknown engine 'foo'" },
	{ "engine 4", 1, 8, "engine 4 is not a datapath engine" },
	{ "engine dma", 1, 8, "engine 4 is not a datapath engine" },
	{ "engine 300", 1, 8, "engine out of range (0-255)" },
	{ "engine", 1, 7, "expected a number" },
	{ "engine pool extra", 1, 13, "unexpected 'extra'" },
	{ P "frob", 2, 1, "unknown instruction 'frob'" },
	{ P "123", 2, 1, "expected an instruction or a label" },
	{ P "nop garbage", 2, 5, "unexpected 'garbage'" },
	{ P "nop\n\n  halt )", 4, 8, "unexpected ')'" },
	/* waits */
	{ P "nop wait sem[3 >= 1", 2, 16, "expected ']'" },
	{ P "nop wait sem 3] >= 1", 2, 14, "expected '['" },
	{ P "nop wait sem[3] => 1", 2, 17, "expected ==, <, <=, > or >=" },
	{ P "nop wait sem[3] != 1", 2, 17, "expected ==, <, <=, > or >=" },
	{ P "nop wait sem[256] >= 1", 2, 14,
	  "semaphore index out of range (0-255)" },
	{ P "nop wait ev[-1] set", 2, 13, "event index out of range (0-255)" },
	{ P "nop wait sem[3] >= 4294967296", 2, 20,
	  "number out of 32-bit range" },
	{ P "nop wait sem[3] >= -2147483649", 2, 20,
	  "number out of 32-bit range" },
	{ P "nop wait sem[3] >= 99999999999999999999", 2, 20,
	  "number too large" },
	{ P "nop wait sem[3] >= r32", 2, 20, "register out of range (r0-r31)" },
	{ P "nop wait sem[3] >= rx", 2, 20, "expected a number or a register" },
	{ P "nop wait sem[3] >= r1x", 2, 20, "invalid register 'r1x'" },
	{ P "nop wait ev[3] >= 1", 2, 16,
	  "expected set, set_then_clear, clear or clear_then_set" },
	{ P "nop wait ev[3] sett", 2, 16,
	  "expected set, set_then_clear, clear or clear_then_set" },
	{ P "nop wait foo[3] set", 2, 10, "expected sem[N] or ev[N]" },
	{ P "nop wait", 2, 9, "expected sem[N] or ev[N]" },
	/* updates */
	{ P "nop then sem[3] ** 1", 2, 17, "expected ++, --, +=, -= or =" },
	{ P "nop then ev[3] toggle", 2, 16, "expected set or clear" },
	{ P "nop then ev[3] set .write", 2, 20, "unexpected '.write'" },
	{ P "nop then sem[3] +=", 2, 19, "expected a number" },
	{ P "nop then sem[3]++ value=", 2, 25, "expected a number" },
	{ P "nop then sem[3]++ value 1", 2, 25, "expected '='" },
	/* lanes */
	{ P "nop wait sem[1] >= 5 then sem[2] += 7", 2, 37,
	  "7 conflicts with 5: lane 0 has one value field" },
	{ P "nop wait sem[1] >= 5 value=6", 2, 28,
	  "6 conflicts with 5: lane 0 has one value field" },
	{ P "nop wait sem[3] == r1 then sem[4] += r2", 2, 38,
	  "2 conflicts with 1: lane 0 has one value field" },
	{ P "evsem lane1 wait sem[1] >= 5 value=6", 2, 36,
	  "6 conflicts with 5 in the same value field" },
	{ P "nop wait sem[1] >= 5 wait sem[2] >= 1", 2, 22,
	  "only one wait and one update per lane" },
	{ P "nop then sem[1]++ then sem[2]++", 2, 19,
	  "only one wait and one update per lane" },
	{ P "nop then sem[1]++ wait sem[2] > 1", 2, 19,
	  "only one wait and one update per lane" },
	{ P "nop lane1 wait sem[1] >= 5", 2, 5, "lane1 is only for evsem" },
	{ P "evsem lane1 wait ev[1] set lane1", 2, 28, "unexpected 'lane1'" },
	{ P "nop on_land sem[1]++", 2, 5, "on_land is only for dma" },
	{ P "evsem then sem[1]++ .read", 2, 1,
	  "invalid evsem: EventSemaphore update not a _COMPLETE form" },
	{ P "evsem lane1 then ev[1] set .read", 2, 1,
	  "invalid evsem: EventSemaphore update not a _COMPLETE form" },
	/* Mov32 */
	{ P "movi r1", 2, 8, "expected ','" },
	{ P "movi r1, ", 2, 10, "expected a number" },
	{ P "movi r1, 5x", 2, 10, "invalid number" },
	{ P "movi 1, 5", 2, 6, "expected a register (r0-r31)" },
	{ P "mov r1, 5", 2, 9, "expected a register (r0-r31)" },
	{ P "addi r1, r2", 2, 12, "expected ','" },
	{ P "add r1, r2, 3", 2, 11, "unexpected ','" },
	/* branches */
	{ P "br.lt r1, 5, x", 2, 6, "expected a dtype: .u32 or .s32" },
	{ P "br.xx.s32 r1, 5, x", 2, 4,
	  "expected a comparison: lt, le, eq, ne, ge or gt" },
	{ P "br.lt.f32 r1, 5, x", 2, 7, "expected a dtype: .u32 or .s32" },
	{ P "br", 2, 3, "expected a label or @index" },
	{ P "br.lt.s32 r1, 5", 2, 16, "expected ','" },
	{ P "br @-1", 2, 5, "negative number" },
	{ P "br.lt.s32 r1, 5, @4294967295", 2, 1,
	  "invalid br.lt.s32: branch or hint target outside the queue" },
	/* BranchHint: a label, .+N or .-N */
	{ P "br_hint", 2, 8, "expected a label, .+N or .-N" },
	{ P "br_hint @3", 2, 9, "expected a label, .+N or .-N" },
	{ P "br_hint .3", 2, 9, "expected .+N or .-N" },
	{ P "br_hint .+-3", 2, 9, "expected .+N or .-N" },
	{ P "br_hint .+2147483648", 2, 11,
	  "hint offset out of the signed 32-bit range" },
	{ P "br_hint .-2147483649", 2, 10,
	  "hint offset out of the signed 32-bit range" },
	{ P "br_hint nowhere", 2, 9, "undefined label 'nowhere'" },
	{ P "br_hint .+1 extra", 2, 13, "unexpected 'extra'" },
	/* labels */
	{ P "br nowhere", 2, 4, "undefined label 'nowhere'" },
	{ P "nop\nbr a\nbr b\na: nop", 4, 4, "undefined label 'b'" },
	{ P "x:\nx:", 3, 1, "label 'x' already defined on line 2" },
	{ "x: nop", 1, 1, "label outside an engine section" },
	{ P "loop: br loop\nengine act\nbr loop", 4, 4,
	  "undefined label 'loop'" },
	/* sema_clear */
	{ P "sema_clear 7..3", 2, 15, "range first > last" },
	{ P "sema_clear", 2, 11, "expected a number" },
	{ P "sema_clear mask {1, 2", 2, 22, "expected ','" },
	{ P "sema_clear mask {1 2}", 2, 20, "expected ','" },
	{ P "sema_clear mask {9..2}", 2, 21, "range first > last" },
	{ P "sema_clear mask 12", 2, 17, "expected '{' or a 0x mask" },
	{ P "sema_clear mask 0x", 2, 17, "invalid mask" },
	{ P "sema_clear mask 0x12g", 2, 17, "invalid mask" },
	{ P "sema_clear mask 0x10000000000000000000000000000000000000000000000000000000000000000",
	  2, 17, "mask wider than 256 bits" },
	/* poll */
	{ P "poll avg r1, sem[1]", 2, 6, "expected min or sum" },
	{ P "poll min r1, sem[1]..sem[17]", 2, 22, "more than 16 semaphores" },
	{ P "poll min r1, sem[250]..sem[249]", 2, 24, "range first > last" },
	{ P "poll min r1, ev[1]", 2, 14, "expected sem[N]" },
	{ P "poll sum r1, sem[1]..sem[2], writeback", 2, 30,
	  "writeback needs min" },
	{ P "poll min r1, sem[1], back", 2, 22, "expected 'writeback'" },
	{ P "poll min r1, sem[250]..sem[256]", 2, 28,
	  "semaphore index out of range (0-255)" },
	/* dma */
	{ P "dma 0, 0, 0", 2, 1,
	  "invalid dma: DMA range or latency out of bounds" },
	{ P "dma 0, 0, 4, latency=1000001", 2, 1,
	  "invalid dma: DMA range or latency out of bounds" },
	{ P "dma 0xffffffffffffffff, 0, 4", 2, 1,
	  "invalid dma: DMA range or latency out of bounds" },
	/* Past the device memory "devmem" gives: at the operand. */
	{ "devmem 0x100000\n" P "dma 0xffffc, 0, 5", 3, 5,
	  "dma source 0xffffc + 5 bytes is past the device memory (devmem 1048576)" },
	{ "devmem 4096\n" P "dma 0, 4096, 1 on_land sem[1]++", 3, 8,
	  "dma destination 0x1000 + 1 bytes is past the device memory (devmem 4096)" },
	{ P "nop\ndevmem 0x4000000\n\tdma 0x0,\t0x3ffffff, 2", 4, 11,
	  "dma destination 0x3ffffff + 2 bytes is past the device memory (devmem 67108864)" },
	{ "devmem 0x4000001", 1, 8, "devmem out of range (1-67108864 bytes)" },
	{ "devmem 0", 1, 8, "devmem out of range (1-67108864 bytes)" },
	{ "devmem -4", 1, 8, "devmem out of range (1-67108864 bytes)" },
	{ "devmem 4096 x", 1, 13, "unexpected 'x'" },
	{ P "dma 0, 0, 4, lat=5", 2, 14, "expected 'latency' or 'peer'" },
	{ P "dma 0, 0, 4, peer=256 on_land sem[1]++", 2, 22,
	  "peer out of range" },
	{ P "dma 0, 0, 4, peer=64 on_land sem[1]++", 2, 1,
	  "invalid dma: DMA peer flags invalid, or a peer without an update" },
	{ P "dma 0, 0, 4, peer=1", 2, 1,
	  "invalid dma: DMA peer flags invalid, or a peer without an update" },
	{ P "dma -1, 0, 4", 2, 5, "negative number" },
	{ P "dma 0, 0, -4", 2, 11, "number out of range (0-4294967295)" },
	{ P "dma 0x1ffffffffffffffff, 0, 4", 2, 5, "number too large" },
	{ P "dma 0, 0, 4 on_land sem[1] += 2", 2, 1,
	  "invalid dma: DMA completion update not +1 or event set" },
	{ P "dma 0, 0, 4 on_land ev[1] clear", 2, 1,
	  "invalid dma: DMA completion update not +1 or event set" },
	/* .raw */
	{ P ".raw 00", 2, 8, "expected 64 bytes, got 1" },
	{ P ".raw", 2, 5, "expected 64 bytes, got 0" },
	{ P ".raw 0g", 2, 7, "expected hex digits" },
	{ P ".raw 000", 2, 6, "odd number of hex digits" },
	{ P ".raw 0x00", 2, 7, "expected hex digits" },
	{ P ".raw 00000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000 00",
	  2, 135, "more than 64 bytes" },
	/* barrier */
	{ "barrier", 1, 1, "barrier before any engine" },
	{ P "barrier\nengine act", 3, 8,
	  "engine act first appears after a barrier; declare every engine before the first barrier" },
	{ P "barrier wait sem[1] >= r40", 2, 24,
	  "register out of range (r0-r31)" },
	{ P "barrier lane1", 2, 9, "lane1 is only for evsem" },
};

int main(void)
{
	struct ncsync_program *prog;
	struct ncsync_asm_error err;
	unsigned int i;
	int ret;

	for (i = 0; i < ARRAY_LEN(cases); i++) {
		prog = (struct ncsync_program *)&prog;
		memset(&err, 0xAA, sizeof(err));
		ret = ncsync_asm(cases[i].text, &prog, &err);
		TAP_CHECK(ret == -EINVAL && !prog &&
			  err.line == cases[i].line && err.col == cases[i].col &&
			  !strcmp(err.msg, cases[i].msg),
			  "%u:%u: %s (got %d %u:%u: %s)", cases[i].line,
			  cases[i].col, cases[i].msg, ret, err.line, err.col,
			  err.msg);
		if (!ret)
			ncsync_program_free(prog);
	}

	/* Arguments, and a NULL error report. */
	TAP_CHECK(ncsync_asm(NULL, &prog, &err) == -EINVAL,
		  "NULL text: -EINVAL");
	TAP_CHECK(ncsync_asm("", NULL, &err) == -EINVAL,
		  "NULL program pointer: -EINVAL");
	TAP_CHECK(ncsync_asm("bogus", &prog, NULL) == -EINVAL && !prog,
		  "no error report: still -EINVAL");
	ret = ncsync_asm("", &prog, &err);
	TAP_CHECK(!ret && prog && !err.line && !err.col && !err.msg[0],
		  "empty text: an empty program, error report cleared");
	ncsync_program_free(prog);
	/* Ranges that end at the end of the device memory; none without devmem. */
	ret = ncsync_asm("devmem 65536\n" P "dma 0xf000, 0xf000, 4096\n"
			 "dma 0, 0xffff, 1", &prog, &err);
	TAP_CHECK(!ret && prog, "dma to the last byte of devmem assembles (%d %s)",
		  ret, ret ? err.msg : "");
	if (!ret)
		ncsync_program_free(prog);
	ret = ncsync_asm(P "dma 0x10000000, 0, 4", &prog, &err);
	TAP_CHECK(!ret && prog, "without devmem the driver checks the range (%d %s)",
		  ret, ret ? err.msg : "");
	if (!ret)
		ncsync_program_free(prog);
	return tap_done();
}
