// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * A record the validator refuses prints as ".raw" with its 64 bytes and the
 * reason as a comment, one record per reason, and assembles back to the
 * same bytes; .raw accepts its hex grouped any way.
 */
#include "asm_test.h"
#include "ncsync_record.h"

static void make(uint8_t *r, unsigned int reason)
{
	switch (reason) {
	case NCSYNC_REC_BAD_OPCODE:
		t_rec(r, 0x00);
		break;
	case NCSYNC_REC_PSEUDO_OP:
		t_rec(r, NCSYNC_OPC_ALL_ENGINE_BARRIER);
		break;
	case NCSYNC_REC_BAD_WORDLEN:
		t_rec(r, NCSYNC_OPC_NOOP);
		r[1] = 0x0F;
		break;
	case NCSYNC_REC_HEADER_RESERVED:
		t_rec(r, NCSYNC_OPC_NOOP);
		r[2] = 1;
		break;
	case NCSYNC_REC_RESERVED_BYTE:
		t_rec(r, NCSYNC_OPC_NOOP);
		r[0x3F] = 0x80;
		break;
	case NCSYNC_REC_BAD_WAIT_MODE:
		t_rec(r, NCSYNC_OPC_NOOP);
		t_ev(r, 0x08, 1, 0, 0, 0);
		break;
	case NCSYNC_REC_BAD_UPDATE_MODE:
		t_rec(r, NCSYNC_OPC_NOOP);
		t_ev(r, 0, 0, 0x06, 1, 0);
		break;
	case NCSYNC_REC_UPDATE_NOT_COMPLETE:
		t_rec(r, NCSYNC_OPC_EVENT_SEMAPHORE);
		t_ev(r, 0, 0, 0x03, 1, 0);
		break;
	case NCSYNC_REC_UNUSED_FIELD:
		t_rec(r, NCSYNC_OPC_NOOP);
		t_ev(r, 0, 3, 0, 0, 0);
		break;
	case NCSYNC_REC_BAD_REGISTER:
		t_rec(r, NCSYNC_OPC_NOOP);
		t_ev(r, 0x81, 3, 0, 0, 32);
		break;
	case NCSYNC_REC_BAD_COMP_OP:
		t_rec(r, NCSYNC_OPC_BRANCH);
		r[NCSYNC_REC_BR_COMP_OP] = 7;
		r[NCSYNC_REC_BR_DTYPE] = 1;
		r[NCSYNC_REC_BR_OPERAND_KIND] = 3;
		break;
	case NCSYNC_REC_BAD_DTYPE:
		t_rec(r, NCSYNC_OPC_BRANCH);
		r[NCSYNC_REC_BR_COMP_OP] = 1;
		r[NCSYNC_REC_BR_DTYPE] = 3;
		r[NCSYNC_REC_BR_OPERAND_KIND] = 3;
		break;
	case NCSYNC_REC_BAD_OPERAND_KIND:
		t_rec(r, NCSYNC_OPC_BRANCH);
		r[NCSYNC_REC_BR_COMP_OP] = 1;
		r[NCSYNC_REC_BR_DTYPE] = 1;
		r[NCSYNC_REC_BR_OPERAND_KIND] = 2;
		break;
	case NCSYNC_REC_BAD_TARGET:
		t_rec(r, NCSYNC_OPC_BRANCH);
		t_put64(r + NCSYNC_REC_BR_TARGET, 0xFFFFFFFF);
		break;
	case NCSYNC_REC_BAD_CLEAR_MODE:
		t_rec(r, NCSYNC_OPC_GROUP_RESET);
		r[NCSYNC_REC_GR_CLEAR_MODE] = 3;
		break;
	case NCSYNC_REC_BAD_RANGE:
		t_rec(r, NCSYNC_OPC_GROUP_RESET);
		r[NCSYNC_REC_GR_CLEAR_MODE] = 1;
		r[NCSYNC_REC_GR_FIRST] = 5;
		r[NCSYNC_REC_GR_LAST] = 4;
		break;
	case NCSYNC_REC_BAD_DRAIN_COUNT:
		t_rec(r, NCSYNC_OPC_DRAIN);
		break;
	case NCSYNC_REC_BAD_EXIT_FLAGS:
		t_rec(r, NCSYNC_OPC_EXIT);
		r[NCSYNC_REC_EXIT_FLAGS] = 1;
		break;
	case NCSYNC_REC_BAD_ALU_OP:
		t_rec(r, NCSYNC_OPC_MOV32);
		r[NCSYNC_REC_MOV_ALU] = NCSYNC_ALU_LAST + 1;
		break;
	case NCSYNC_REC_BAD_POLL:
		t_rec(r, NCSYNC_OPC_POLL_SEM);
		break;
	case NCSYNC_REC_BAD_DMA:
		t_rec(r, NCSYNC_OPC_DMA);
		break;
	case NCSYNC_REC_BAD_DMA_UPDATE:
		t_rec(r, NCSYNC_OPC_DMA);
		t_put32(r + NCSYNC_REC_DMA_LEN, 4);
		t_ev(r, 0, 0, 0x14, 1, 0);
		break;
	}
}

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
		make(r, reason);
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
