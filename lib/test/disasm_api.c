// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * ncsync_disasm()'s contract: the length of the line, -ENOSPC with a
 * truncated line when the buffer is short, -EINVAL for bad arguments, and
 * NCSYNC_DISASM_LINE_MAX enough for the longest lines; ncsync_reason_name()
 * names every refusal reason.
 */
#include "asm_test.h"
#include "ncsync_record.h"

int main(void)
{
	char buf[NCSYNC_DISASM_LINE_MAX], small[8];
	uint8_t r[NCSYNC_RECORD_SIZE];
	unsigned int i, reason;
	int n, longest = 0;

	t_rec(r, NCSYNC_OPC_NOOP);
	t_ev(r, NCSYNC_WAIT_SEM_GE, 3, 0, 0, 1);
	n = ncsync_disasm(r, buf, sizeof(buf));
	TAP_CHECK(n == (int)strlen("nop wait sem[3] >= 1") &&
		  !strcmp(buf, "nop wait sem[3] >= 1"), "returns the length");
	TAP_CHECK(ncsync_disasm(r, buf, n + 1) == n, "a buffer of length + 1 fits");
	TAP_CHECK(ncsync_disasm(r, buf, n) == -ENOSPC &&
		  strlen(buf) == (size_t)n - 1, "one less: -ENOSPC, truncated");
	TAP_CHECK(ncsync_disasm(r, small, sizeof(small)) == -ENOSPC &&
		  !strcmp(small, "nop wai"), "a small buffer holds what fits");
	TAP_CHECK(ncsync_disasm(r, NULL, 0) == -ENOSPC,
		  "no buffer at all: -ENOSPC");
	TAP_CHECK(ncsync_disasm(NULL, buf, sizeof(buf)) == -EINVAL,
		  "NULL record: -EINVAL");
	TAP_CHECK(ncsync_disasm(r, NULL, 5) == -EINVAL,
		  "NULL buffer with a size: -EINVAL");

	/* The longest lines of each kind fit NCSYNC_DISASM_LINE_MAX. */
	t_rec(r, NCSYNC_OPC_EVENT_SEMAPHORE);
	t_ev(r, 0x0F, 255, 0x12, 255, 0xFFFFFFFF);
	t_ex(r, 0x0F, 255, 0xFFFFFFFF, 0x12, 255, 0xFFFFFFFF);
	n = ncsync_disasm(r, buf, sizeof(buf));
	TAP_CHECK(n > 0 && !strncmp(buf, "evsem", 5), "%d: %s", n, buf);
	longest = n > longest ? n : longest;

	t_rec(r, NCSYNC_OPC_EVENT_SEMAPHORE);
	t_ev(r, 0, 0, 0x03, 255, 0xFFFFFFFF);
	memset(r + NCSYNC_REC_EX_WAIT_MODE, 0xFF, 12);
	n = ncsync_disasm(r, buf, sizeof(buf));
	TAP_CHECK(n > 0 && !strncmp(buf, ".raw", 4), "%d: %s", n, buf);
	longest = n > longest ? n : longest;

	t_rec(r, NCSYNC_OPC_DMA);
	t_put64(r + NCSYNC_REC_DMA_SRC, 0x8000000000000000ULL);
	t_put64(r + NCSYNC_REC_DMA_DST, 0x7FFFFFFFFFFFFFFFULL);
	t_put32(r + NCSYNC_REC_DMA_LEN, 0x7FFFFFFF);
	t_put32(r + NCSYNC_REC_DMA_LATENCY_US, 1000000);
	t_ev(r, 0x0F, 255, 0x01, 255, 0xFFFFFFFF);
	n = ncsync_disasm(r, buf, sizeof(buf));
	TAP_CHECK(n > 0 && !strncmp(buf, "dma", 3), "%d: %s", n, buf);
	longest = n > longest ? n : longest;

	t_rec(r, NCSYNC_OPC_GROUP_RESET);
	r[NCSYNC_REC_GR_CLEAR_MODE] = NCSYNC_CLEAR_MASK;
	for (i = 0; i < 8; i++)	/* runs 100..101, 110..111, ... 170..171 */
		r[NCSYNC_REC_GR_MASK + (100 + 10 * i) / 8] |=
			3 << ((100 + 10 * i) % 8);
	t_ev(r, 0x0F, 255, 0x02, 255, 0xFFFFFFFF);
	n = ncsync_disasm(r, buf, sizeof(buf));
	TAP_CHECK(n > 0 && strchr(buf, '{'), "%d: %s", n, buf);
	longest = n > longest ? n : longest;

	t_rec(r, NCSYNC_OPC_GROUP_RESET);
	r[NCSYNC_REC_GR_CLEAR_MODE] = NCSYNC_CLEAR_MASK;
	memset(r + NCSYNC_REC_GR_MASK, 0x99, 32);
	t_ev(r, 0x0F, 255, 0x02, 255, 0xFFFFFFFF);
	n = ncsync_disasm(r, buf, sizeof(buf));
	TAP_CHECK(n > 0 && strstr(buf, "mask 0x"), "%d: %s", n, buf);
	longest = n > longest ? n : longest;

	t_rec(r, NCSYNC_OPC_BRANCH);
	r[NCSYNC_REC_BR_COMP_OP] = NCSYNC_BR_GE;
	r[NCSYNC_REC_BR_DTYPE] = NCSYNC_DTYPE_S32;
	r[NCSYNC_REC_BR_OPERAND_KIND] = 3;
	r[NCSYNC_REC_BR_LHS_REG] = 31;
	t_put32(r + NCSYNC_REC_BR_IMM, 0x80000000);
	t_put64(r + NCSYNC_REC_BR_TARGET, 0xFFFFFFFE);
	t_ev(r, 0x0F, 255, 0x02, 255, 0xFFFFFFFF);
	n = ncsync_disasm(r, buf, sizeof(buf));
	TAP_CHECK(n > 0 && !strncmp(buf, "br.ge.s32", 9), "%d: %s", n, buf);
	longest = n > longest ? n : longest;
	TAP_CHECK(longest < NCSYNC_DISASM_LINE_MAX,
		  "the longest line, %d, fits with room", longest);

	for (reason = 0; reason < NCSYNC_REC_REASON_COUNT; reason++)
		TAP_CHECK(!strcmp(ncsync_reason_name(reason),
				  ncsync_rec_reason_name(reason)),
			  "reason %u: %s", reason, ncsync_reason_name(reason));
	TAP_CHECK(!strcmp(ncsync_reason_name(NCSYNC_REC_REASON_COUNT),
			  "unknown reason"), "out of range: unknown reason");
	return tap_done();
}
