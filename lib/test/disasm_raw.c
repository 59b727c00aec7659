// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * A record the validator refuses prints as ".raw" with its 64 bytes and the
 * reason as a comment, one record per reason, and assembles back to the
 * same bytes; .raw accepts its hex grouped any way.
 */
#include "asm_test.h"
#include "ncsync_record.h"

/* The expected line: .raw, 16 groups of 4 bytes, the reason. */
static void expect_line(const uint8_t *r, unsigned int reason, char *buf)
{
	unsigned int i;
	int n = sprintf(buf, ".raw");

	for (i = 0; i < NCSYNC_RECORD_SIZE; i++)
		n += sprintf(buf + n, "%s%02x", i % 4 ? "" : " ", r[i]);
	sprintf(buf + n, "  # %s", ncsync_reason_name(reason));
}

int main(void)
{
	char line[NCSYNC_DISASM_LINE_MAX], want[NCSYNC_DISASM_LINE_MAX];
	char text[512], hex[2 * NCSYNC_RECORD_SIZE + 1];
	uint8_t r[NCSYNC_RECORD_SIZE], back[NCSYNC_RECORD_SIZE];
	struct ncsync_asm_error err;
	struct ncsync_insn in;
	unsigned int reason, i;
	int n;

	for (reason = 1; reason < NCSYNC_REC_REASON_COUNT; reason++) {
		/* The logical core's rule is the kernel's: the decoder passes. */
		if (reason == NCSYNC_REC_DMA_PEER_OUTSIDE ||
		    ncsync_rec_reason_conform(reason))
			continue;
		t_bad_rec(r, reason);
		TAP_CHECK(ncsync_record_decode(r, UINT32_MAX, UINT64_MAX,
					       &in) == reason,
			  "record for '%s' is refused for it",
			  ncsync_reason_name(reason));
		expect_line(r, reason, want);
		n = ncsync_disasm(r, line, sizeof(line));
		TAP_CHECK(n == (int)strlen(want) && !strcmp(line, want),
			  "prints as %s", line);
		TAP_CHECK(t_roundtrip(r, line), "'%s' round-trips",
			  ncsync_reason_name(reason));
	}

	/* The hex may be grouped any way, even not at all. */
	for (i = 0; i < NCSYNC_RECORD_SIZE; i++)
		r[i] = i * 37 + 1;
	t_hex(r, hex);
	snprintf(text, sizeof(text), ".raw %s", hex);
	TAP_CHECK(!t_asm_one(text, back, &err) && !memcmp(back, r, 64),
		  ".raw takes 128 digits in one run");
	n = sprintf(text, ".raw");
	for (i = 0; i < NCSYNC_RECORD_SIZE; i++)
		n += sprintf(text + n, " %02X", r[i]);
	strcat(text, " ; a comment");
	TAP_CHECK(!t_asm_one(text, back, &err) && !memcmp(back, r, 64),
		  ".raw takes upper-case bytes one by one, then a comment");

	/* A valid record written raw stays as written and prints decoded. */
	t_rec(r, NCSYNC_OPC_NOOP);
	t_hex(r, hex);
	snprintf(text, sizeof(text), ".raw %s", hex);
	TAP_CHECK(!t_asm_one(text, back, &err) && !memcmp(back, r, 64) &&
		  ncsync_disasm(back, line, sizeof(line)) > 0 &&
		  !strcmp(line, "nop"), ".raw of a NoOp disassembles as nop");
	return tap_done();
}
