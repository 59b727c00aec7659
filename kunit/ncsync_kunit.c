// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the ncsync model rules: the CSR map, the semaphore compare
 * and update arithmetic, the event rules, struct ncsync_op validation and
 * the 64-byte record decoder and encoder.  The code under test is
 * common/ncsync_*.c, compiled into this module from the very source
 * ncsync.ko compiles, so the tests run it under KASAN and UBSAN in the
 * debug tier (tools/check-debug).
 */
#include <kunit/test.h>
#include <linux/kernel.h>
#include <linux/limits.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/string.h>

#include "../common/ncsync_model.c"
#include "../common/ncsync_record.c"
#include "../common/ncsync_exec.c"
#include "../common/ncsync_encode.c"
#include "../common/ncsync_optab.c"
#include "../common/test/exec_cases.h"
#include "../common/test/bad_records.h"
#include "../common/test/conform_records.h"
#include "../common/test/optab_cases.h"

/* ---------------------------------------------------------------- CSR map */

static void csr_decode_windows(struct kunit *test)
{
	unsigned int idx;
	__u32 a;

	KUNIT_EXPECT_EQ(test, ncsync_csr_decode(0x0000, &idx), NCSYNC_WIN_EVENTS);
	KUNIT_EXPECT_EQ(test, idx, 0U);
	KUNIT_EXPECT_EQ(test, ncsync_csr_decode(0x03FC, &idx), NCSYNC_WIN_EVENTS);
	KUNIT_EXPECT_EQ(test, idx, 255U);
	KUNIT_EXPECT_EQ(test, ncsync_csr_decode(0x1004, &idx),
			NCSYNC_WIN_SEM_READ);
	KUNIT_EXPECT_EQ(test, idx, 1U);
	KUNIT_EXPECT_EQ(test, ncsync_csr_decode(0x1408, &idx),
			NCSYNC_WIN_SEM_SET);
	KUNIT_EXPECT_EQ(test, idx, 2U);
	KUNIT_EXPECT_EQ(test, ncsync_csr_decode(0x180C, &idx),
			NCSYNC_WIN_SEM_INC);
	KUNIT_EXPECT_EQ(test, idx, 3U);
	KUNIT_EXPECT_EQ(test, ncsync_csr_decode(0x1FFC, &idx),
			NCSYNC_WIN_SEM_DEC);
	KUNIT_EXPECT_EQ(test, idx, 255U);

	/* Every register: the window its range says, the index below 256. */
	for (a = 0; a < NCSYNC_CSR_SIZE; a += NCSYNC_CSR_REG_SIZE) {
		enum ncsync_win want, got;

		if (a < NCSYNC_CSR_EVENTS + NCSYNC_CSR_WINDOW_SIZE)
			want = NCSYNC_WIN_EVENTS;
		else if (a < NCSYNC_CSR_SEM_READ)
			want = NCSYNC_WIN_RESERVED;
		else if (a < NCSYNC_CSR_SEM_SET)
			want = NCSYNC_WIN_SEM_READ;
		else if (a < NCSYNC_CSR_SEM_INC)
			want = NCSYNC_WIN_SEM_SET;
		else if (a < NCSYNC_CSR_SEM_DEC)
			want = NCSYNC_WIN_SEM_INC;
		else
			want = NCSYNC_WIN_SEM_DEC;
		got = ncsync_csr_decode(a, &idx);
		KUNIT_EXPECT_EQ_MSG(test, got, want, "addr %#x", a);
		KUNIT_EXPECT_EQ_MSG(test, idx,
				    (a % NCSYNC_CSR_WINDOW_SIZE) / 4, "addr %#x", a);
		KUNIT_EXPECT_EQ_MSG(test, ncsync_csr_win_writable(got),
				    want != NCSYNC_WIN_SEM_READ &&
				    want != NCSYNC_WIN_RESERVED, "addr %#x", a);
	}
}

static void csr_access_shape(struct kunit *test)
{
	KUNIT_EXPECT_TRUE(test, ncsync_csr_access_ok(0, 4));
	KUNIT_EXPECT_TRUE(test, ncsync_csr_access_ok(0, NCSYNC_CSR_SIZE));
	KUNIT_EXPECT_TRUE(test, ncsync_csr_access_ok(0x1FFC, 4));
	KUNIT_EXPECT_FALSE(test, ncsync_csr_access_ok(0x1FFC, 8));
	KUNIT_EXPECT_FALSE(test, ncsync_csr_access_ok(NCSYNC_CSR_SIZE, 4));
	KUNIT_EXPECT_FALSE(test, ncsync_csr_access_ok(2, 4));
	KUNIT_EXPECT_FALSE(test, ncsync_csr_access_ok(0, 3));
	KUNIT_EXPECT_FALSE(test, ncsync_csr_access_ok(0, 0));
	/* addr + len wraps: must not pass. */
	KUNIT_EXPECT_FALSE(test, ncsync_csr_access_ok(~0ULL - 3, 8));
	KUNIT_EXPECT_FALSE(test, ncsync_csr_access_ok(4, ~0ULL - 3));
	KUNIT_EXPECT_FALSE(test, ncsync_csr_access_ok(0, 1ULL << 32));
}

static void csr_write_ranges(struct kunit *test)
{
	KUNIT_EXPECT_TRUE(test, ncsync_csr_write_ok(0x0000, 0x400));
	KUNIT_EXPECT_TRUE(test, ncsync_csr_write_ok(0x1400, 0xC00));
	KUNIT_EXPECT_TRUE(test, ncsync_csr_write_ok(0x1FFC, 4));
	KUNIT_EXPECT_FALSE(test, ncsync_csr_write_ok(0x03FC, 8));
	KUNIT_EXPECT_FALSE(test, ncsync_csr_write_ok(0x0800, 4));
	KUNIT_EXPECT_FALSE(test, ncsync_csr_write_ok(0x13FC, 4));
	KUNIT_EXPECT_FALSE(test, ncsync_csr_write_ok(0x13FC, 8));
	KUNIT_EXPECT_FALSE(test, ncsync_csr_write_ok(0x1000, 0x1000));
	KUNIT_EXPECT_FALSE(test, ncsync_csr_write_ok(0, NCSYNC_CSR_SIZE));
}

/* ---------------------------------------------------- semaphore compare */

static const __u8 sem_modes[] = {
	NCSYNC_WAIT_SEM_EQ, NCSYNC_WAIT_SEM_LT, NCSYNC_WAIT_SEM_LE,
	NCSYNC_WAIT_SEM_GT, NCSYNC_WAIT_SEM_GE,
};

static bool sem_ref(__u8 mode, s64 v, s64 t)
{
	switch (mode) {
	case NCSYNC_WAIT_SEM_EQ: return v == t;
	case NCSYNC_WAIT_SEM_LT: return v < t;
	case NCSYNC_WAIT_SEM_LE: return v <= t;
	case NCSYNC_WAIT_SEM_GT: return v > t;
	default: return v >= t;
	}
}

/* A semaphore wait of @mode, decoded as the engines do, against @t. */
static bool sem_passes(__u8 mode, __s32 v, __s32 t)
{
	__u32 regs[NCSYNC_NUM_REGS] = { [3] = (__u32)t };
	struct ncsync_wait_op w;

	ncsync_wait_op_decode(mode, 0, mode & NCSYNC_WAIT_REG ? 3 : (__u32)t,
			      &w);
	return ncsync_wait_sem_passes(&w, v, ncsync_wait_threshold(&w, regs));
}

static void sem_test_signed_compare(struct kunit *test)
{
	static const __s32 vals[] = {
		S32_MIN, S32_MIN + 1, -2, -1, 0, 1, 2, S32_MAX - 1, S32_MAX,
	};
	unsigned int m, i, j, r;

	for (m = 0; m < ARRAY_SIZE(sem_modes); m++)
		for (i = 0; i < ARRAY_SIZE(vals); i++)
			for (j = 0; j < ARRAY_SIZE(vals); j++)
				/* The register form compares the same way. */
				for (r = 0; r <= NCSYNC_WAIT_REG;
				     r += NCSYNC_WAIT_REG) {
					__u8 mode = sem_modes[m] | r;
					__s32 v = vals[i], t = vals[j];
					bool want = sem_ref(sem_modes[m], v, t);
					bool got = sem_passes(mode, v, t);

					KUNIT_EXPECT_EQ_MSG(test, got, want,
							    "mode %#x %d vs %d",
							    mode, v, t);
				}
}

static void wait_mode_classes(struct kunit *test)
{
	unsigned int m;

	for (m = 0; m < 256; m++) {
		__u8 cmp = m & ~NCSYNC_WAIT_REG;
		bool sem = cmp >= NCSYNC_WAIT_SEM_EQ && cmp <= NCSYNC_WAIT_SEM_GE;
		bool evt = m == NCSYNC_WAIT_EVT_SET ||
			   m == NCSYNC_WAIT_EVT_SET_THEN_CLEAR ||
			   m == NCSYNC_WAIT_EVT_CLEAR ||
			   m == NCSYNC_WAIT_EVT_CLEAR_THEN_SET;

		KUNIT_EXPECT_EQ_MSG(test, ncsync_wait_mode_is_sem(m), sem,
				    "mode %#x", m);
		KUNIT_EXPECT_EQ_MSG(test, ncsync_wait_mode_is_event(m), evt,
				    "mode %#x", m);
	}
}

/*
 * The opcode table and the effect function: every row of
 * common/test/optab_cases.h, which the host test runs too.
 */
static void optab_cases(struct kunit *test)
{
	const char *why;
	unsigned int n;

	/*
	 * Each row is a second or more under KASAN: let the CPU go between
	 * rows (23 rows without it were a soft lockup of the debug kernel).
	 */
	for (n = 0; n < optab_cases_count(); n++) {
		KUNIT_EXPECT_TRUE_MSG(test, optab_case_run(n, &why),
				      "opcode %#x (%s): %s",
				      ncsync_optab[n].opcode,
				      ncsync_optab[n].title, why);
		cond_resched();
	}
}

/* The table of common/test/exec_cases.h, which the host test runs too. */
static void exec_cases(struct kunit *test)
{
	const char *table;
	unsigned int n, i;

	for (n = 0; n < exec_cases_count(); n++)
		KUNIT_EXPECT_TRUE_MSG(test, exec_case_run(n, &table, &i),
				      "%s[%u]", table, i);
}

/* ----------------------------------------------------- semaphore update */

static void sem_apply_cases(struct kunit *test)
{
	bool ovf = true;

	KUNIT_EXPECT_EQ(test, ncsync_sem_apply(NCSYNC_SEM_UPD_SET, 7,
					       (__u32)-5, &ovf), -5);
	KUNIT_EXPECT_FALSE(test, ovf);
	KUNIT_EXPECT_EQ(test, ncsync_sem_apply(NCSYNC_SEM_UPD_SET, 0,
					       0x80000000U, &ovf), S32_MIN);
	KUNIT_EXPECT_FALSE(test, ovf);
	KUNIT_EXPECT_EQ(test, ncsync_sem_apply(NCSYNC_SEM_UPD_ADD, 1, 2, &ovf), 3);
	KUNIT_EXPECT_FALSE(test, ovf);
	KUNIT_EXPECT_EQ(test, ncsync_sem_apply(NCSYNC_SEM_UPD_ADD, S32_MAX, 1,
					       &ovf), S32_MIN);
	KUNIT_EXPECT_TRUE(test, ovf);
	KUNIT_EXPECT_EQ(test, ncsync_sem_apply(NCSYNC_SEM_UPD_SUB, S32_MIN, 1,
					       &ovf), S32_MAX);
	KUNIT_EXPECT_TRUE(test, ovf);
	KUNIT_EXPECT_EQ(test, ncsync_sem_apply(NCSYNC_SEM_UPD_SUB, 0, 1, &ovf), -1);
	KUNIT_EXPECT_FALSE(test, ovf);
	/* The operand is a signed 32-bit quantity: 0xFFFFFFFF adds -1. */
	KUNIT_EXPECT_EQ(test, ncsync_sem_apply(NCSYNC_SEM_UPD_ADD, 5,
					       0xFFFFFFFFU, &ovf), 4);
	KUNIT_EXPECT_FALSE(test, ovf);
	KUNIT_EXPECT_EQ(test, ncsync_sem_apply(NCSYNC_SEM_UPD_ADD, S32_MIN,
					       0xFFFFFFFFU, &ovf), S32_MAX);
	KUNIT_EXPECT_TRUE(test, ovf);
	/* 0 - S32_MIN does not fit. */
	KUNIT_EXPECT_EQ(test, ncsync_sem_apply(NCSYNC_SEM_UPD_SUB, 0,
					       0x80000000U, &ovf), S32_MIN);
	KUNIT_EXPECT_TRUE(test, ovf);
	KUNIT_EXPECT_EQ(test, ncsync_sem_apply(NCSYNC_SEM_UPD_SUB, -1,
					       0x80000000U, &ovf), S32_MAX);
	KUNIT_EXPECT_FALSE(test, ovf);
}

/* A small deterministic generator (xorshift32) for the property tests. */
static __u32 rnd(__u32 *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

static void sem_apply_properties(struct kunit *test)
{
	__u32 seed = 0x2545F491;
	unsigned int i;

	for (i = 0; i < 20000; i++) {
		__s32 old = (__s32)rnd(&seed);
		__u32 x = rnd(&seed);
		s64 sum, diff;
		bool o1, o2;
		__s32 a, b;

		if (i & 1)	/* also near the edges */
			old = (i & 2) ? S32_MAX - (x & 7) : S32_MIN + (x & 7);
		sum = (s64)old + (__s32)x;
		diff = (s64)old - (__s32)x;
		a = ncsync_sem_apply(NCSYNC_SEM_UPD_ADD, old, x, &o1);
		b = ncsync_sem_apply(NCSYNC_SEM_UPD_SUB, a, x, &o2);
		KUNIT_ASSERT_EQ_MSG(test, a, (__s32)((__u32)old + x),
				    "add %d %#x", old, x);
		KUNIT_ASSERT_EQ_MSG(test, o1, sum < S32_MIN || sum > S32_MAX,
				    "add %d %#x", old, x);
		KUNIT_ASSERT_EQ_MSG(test, b, old, "add/sub %d %#x", old, x);
		a = ncsync_sem_apply(NCSYNC_SEM_UPD_SUB, old, x, &o1);
		KUNIT_ASSERT_EQ_MSG(test, o1, diff < S32_MIN || diff > S32_MAX,
				    "sub %d %#x", old, x);
		a = ncsync_sem_apply(NCSYNC_SEM_UPD_SET, old, x, &o1);
		KUNIT_ASSERT_EQ(test, a, (__s32)x);
		KUNIT_ASSERT_FALSE(test, o1);
	}
}

static void upd_mode_rules(struct kunit *test)
{
	__u32 operand;

	KUNIT_EXPECT_TRUE(test, ncsync_upd_is_sem(NCSYNC_UPD_SEM_INC));
	KUNIT_EXPECT_TRUE(test, ncsync_upd_is_sem(NCSYNC_UPD_SEM_WRITE |
						  NCSYNC_UPD_COMPLETE));
	KUNIT_EXPECT_TRUE(test, ncsync_upd_is_sem(NCSYNC_UPD_SEM_ADD |
						  NCSYNC_UPD_REG));
	KUNIT_EXPECT_FALSE(test, ncsync_upd_is_sem(NCSYNC_UPD_NONE));
	KUNIT_EXPECT_FALSE(test, ncsync_upd_is_sem(NCSYNC_UPD_EVT_SET));
	KUNIT_EXPECT_FALSE(test, ncsync_upd_is_sem(0x06));
	KUNIT_EXPECT_TRUE(test, ncsync_upd_is_event(NCSYNC_UPD_EVT_CLEAR |
						    NCSYNC_UPD_COMPLETE));
	KUNIT_EXPECT_FALSE(test, ncsync_upd_is_event(NCSYNC_UPD_NONE));
	KUNIT_EXPECT_FALSE(test, ncsync_upd_is_event(NCSYNC_UPD_SEM_INC));

	operand = 77;
	KUNIT_EXPECT_EQ(test, ncsync_upd_sem_arith(NCSYNC_UPD_SEM_INC, &operand),
			NCSYNC_SEM_UPD_ADD);
	KUNIT_EXPECT_EQ(test, operand, 1U);
	operand = 77;
	KUNIT_EXPECT_EQ(test, ncsync_upd_sem_arith(NCSYNC_UPD_SEM_DEC |
						   NCSYNC_UPD_COMPLETE, &operand),
			NCSYNC_SEM_UPD_SUB);
	KUNIT_EXPECT_EQ(test, operand, 1U);
	operand = 77;
	KUNIT_EXPECT_EQ(test, ncsync_upd_sem_arith(NCSYNC_UPD_SEM_ADD, &operand),
			NCSYNC_SEM_UPD_ADD);
	KUNIT_EXPECT_EQ(test, operand, 77U);
	KUNIT_EXPECT_EQ(test, ncsync_upd_sem_arith(NCSYNC_UPD_SEM_SUB |
						   NCSYNC_UPD_REG, &operand),
			NCSYNC_SEM_UPD_SUB);
	KUNIT_EXPECT_EQ(test, ncsync_upd_sem_arith(NCSYNC_UPD_SEM_WRITE, &operand),
			NCSYNC_SEM_UPD_SET);
	KUNIT_EXPECT_EQ(test, operand, 77U);
}

static void op_check_rules(struct kunit *test)
{
	struct ncsync_op op = { .bank = NCSYNC_BANK_SEM, .op = NCSYNC_OP_INC,
				.index = 255, .value = 3 };
	bool upd = false;

	KUNIT_EXPECT_EQ(test, ncsync_op_check(&op, &upd), 0);
	KUNIT_EXPECT_TRUE(test, upd);
	op.index = 256;
	KUNIT_EXPECT_EQ(test, ncsync_op_check(&op, &upd), -EINVAL);
	op.index = 0;
	op.op = NCSYNC_OP_CLEAR;
	KUNIT_EXPECT_EQ(test, ncsync_op_check(&op, &upd), -EINVAL);
	op.op = NCSYNC_OP_READ;
	KUNIT_EXPECT_EQ(test, ncsync_op_check(&op, &upd), -EINVAL);
	op.value = 0;
	KUNIT_EXPECT_EQ(test, ncsync_op_check(&op, &upd), 0);
	KUNIT_EXPECT_FALSE(test, upd);
	op.pad = 1;
	KUNIT_EXPECT_EQ(test, ncsync_op_check(&op, &upd), -EINVAL);
	op.pad = 0;
	op.reserved = 1;
	KUNIT_EXPECT_EQ(test, ncsync_op_check(&op, &upd), -EINVAL);
	op.reserved = 0;
	op.bank = NCSYNC_BANK_EVENT;
	op.op = NCSYNC_OP_INC;
	KUNIT_EXPECT_EQ(test, ncsync_op_check(&op, &upd), -EINVAL);
	op.op = NCSYNC_OP_CLEAR;
	KUNIT_EXPECT_EQ(test, ncsync_op_check(&op, &upd), 0);
	KUNIT_EXPECT_TRUE(test, upd);
	op.value = 1;
	KUNIT_EXPECT_EQ(test, ncsync_op_check(&op, &upd), -EINVAL);
	op.value = 0;
	op.bank = 2;
	KUNIT_EXPECT_EQ(test, ncsync_op_check(&op, &upd), -EINVAL);
	op.bank = NCSYNC_BANK_SEM;
	op.op = 5;
	KUNIT_EXPECT_EQ(test, ncsync_op_check(&op, &upd), -EINVAL);
}

/* ---------------------------------------------------------------- records */

#define DEVMEM	0x10000ULL

static void rec_init(__u8 *r, __u8 opcode)
{
	memset(r, 0, NCSYNC_RECORD_SIZE);
	r[0] = opcode;
	r[1] = NCSYNC_RECORD_WORDLEN;
}

static void put32(__u8 *p, __u32 v)
{
	p[0] = v;
	p[1] = v >> 8;
	p[2] = v >> 16;
	p[3] = v >> 24;
}

static void put64(__u8 *p, __u64 v)
{
	put32(p, v);
	put32(p + 4, v >> 32);
}

static enum ncsync_rec_reason dec(const __u8 *r, struct ncsync_insn *insn)
{
	return ncsync_record_decode(r, 16, DEVMEM, insn);
}

static void record_header(struct kunit *test)
{
	struct ncsync_insn insn;
	__u8 r[NCSYNC_RECORD_SIZE];

	rec_init(r, NCSYNC_OPC_NOOP);
	memset(&insn, 0xA5, sizeof(insn));
	KUNIT_EXPECT_EQ(test, dec(r, &insn), NCSYNC_REC_OK);
	/* The decoder clears what it does not fill. */
	KUNIT_EXPECT_EQ(test, insn.opcode, NCSYNC_OPC_NOOP);
	KUNIT_EXPECT_EQ(test, insn.nlanes, 1);
	KUNIT_EXPECT_EQ(test, insn.lane[0].wait_mode, 0);
	KUNIT_EXPECT_EQ(test, insn.lane[1].upd_value, 0U);
	KUNIT_EXPECT_FALSE(test, insn.lane[0].paired);

	rec_init(r, NCSYNC_OPC_HALT);
	KUNIT_EXPECT_EQ(test, dec(r, &insn), NCSYNC_REC_OK);
	/* 0xDF ends the pseudo-op range but is Exit. */
	rec_init(r, NCSYNC_OPC_EXIT);
	KUNIT_EXPECT_EQ(test, dec(r, &insn), NCSYNC_REC_OK);
}

/* Every byte a layout does not name is reserved; each one refuses alone. */
static void record_reserved_bytes(struct kunit *test)
{
	static const struct layout {
		__u8 opcode;
		__u8 named[NCSYNC_RECORD_SIZE];	/* 1: named by the layout */
	} layouts[] = {
		{ NCSYNC_OPC_NOOP, { } },
		{ NCSYNC_OPC_HALT, { } },
		{ NCSYNC_OPC_DRAIN, { [0x28] = 1 } },
		{ NCSYNC_OPC_EXIT, { [0x0C] = 1 } },
		{ NCSYNC_OPC_POLL_SEM, { [0x0C ... 0x10] = 1 } },
		{ NCSYNC_OPC_MOV32, { [0x0C ... 0x0E] = 1, [0x10 ... 0x13] = 1 } },
		{ NCSYNC_OPC_BRANCH, { [0x0C ... 0x0E] = 1, [0x10 ... 0x13] = 1,
				       [0x20 ... 0x21] = 1, [0x30 ... 0x37] = 1 } },
		{ NCSYNC_OPC_GROUP_RESET, { [0x0C ... 0x0E] = 1,
					    [0x20 ... 0x3F] = 1 } },
		{ NCSYNC_OPC_EVENT_SEMAPHORE, { [0x20 ... 0x2B] = 1 } },
		{ NCSYNC_OPC_DMA, { [0x0C ... 0x0D] = 1, [0x10 ... 0x27] = 1 } },
	};
	const struct layout *t;
	struct ncsync_insn insn;
	__u8 r[NCSYNC_RECORD_SIZE];
	unsigned int i;

	for (t = layouts; t < layouts + ARRAY_SIZE(layouts); t++)
		for (i = 0x0C; i < NCSYNC_RECORD_SIZE; i++) {
			if (t->named[i])
				continue;
			rec_init(r, t->opcode);
			r[i] = 0x01;
			KUNIT_EXPECT_EQ_MSG(test, dec(r, &insn),
					    NCSYNC_REC_RESERVED_BYTE,
					    "opcode %#x byte %#x", t->opcode, i);
		}
}

static void record_events_block(struct kunit *test)
{
	struct ncsync_insn insn;
	__u8 r[NCSYNC_RECORD_SIZE];

	rec_init(r, NCSYNC_OPC_NOOP);
	r[NCSYNC_REC_EV_WAIT_MODE] = NCSYNC_WAIT_SEM_GE;
	r[NCSYNC_REC_EV_WAIT_IDX] = 4;
	r[NCSYNC_REC_EV_UPD_MODE] = NCSYNC_UPD_SEM_DEC;
	r[NCSYNC_REC_EV_UPD_IDX] = 4;
	put32(r + NCSYNC_REC_EV_VALUE, 0xFFFFFFFE);
	KUNIT_ASSERT_EQ(test, dec(r, &insn), NCSYNC_REC_OK);
	KUNIT_EXPECT_EQ(test, insn.lane[0].wait_mode, NCSYNC_WAIT_SEM_GE);
	KUNIT_EXPECT_EQ(test, insn.lane[0].wait_idx, 4);
	KUNIT_EXPECT_EQ(test, insn.lane[0].upd_mode, NCSYNC_UPD_SEM_DEC);
	KUNIT_EXPECT_EQ(test, insn.lane[0].wait_value, 0xFFFFFFFEU);
	KUNIT_EXPECT_EQ(test, insn.lane[0].upd_value, 0xFFFFFFFEU);
	/* Same semaphore, wait + update: one atomic P(). */
	KUNIT_EXPECT_TRUE(test, insn.lane[0].paired);
	r[NCSYNC_REC_EV_UPD_IDX] = 5;
	KUNIT_ASSERT_EQ(test, dec(r, &insn), NCSYNC_REC_OK);
	KUNIT_EXPECT_FALSE(test, insn.lane[0].paired);
	r[NCSYNC_REC_EV_UPD_MODE] = NCSYNC_UPD_EVT_SET;
	r[NCSYNC_REC_EV_UPD_IDX] = 4;
	KUNIT_ASSERT_EQ(test, dec(r, &insn), NCSYNC_REC_OK);
	KUNIT_EXPECT_FALSE(test, insn.lane[0].paired);

	/* Register forms: the value is a register number, below 32. */
	rec_init(r, NCSYNC_OPC_NOOP);
	r[NCSYNC_REC_EV_WAIT_MODE] = NCSYNC_WAIT_SEM_EQ | NCSYNC_WAIT_REG;
	put32(r + NCSYNC_REC_EV_VALUE, NCSYNC_NUM_REGS - 1);
	KUNIT_EXPECT_EQ(test, dec(r, &insn), NCSYNC_REC_OK);
}

static void record_event_semaphore(struct kunit *test)
{
	struct ncsync_insn insn;
	__u8 r[NCSYNC_RECORD_SIZE];

	rec_init(r, NCSYNC_OPC_EVENT_SEMAPHORE);
	KUNIT_ASSERT_EQ(test, dec(r, &insn), NCSYNC_REC_OK);
	KUNIT_EXPECT_EQ(test, insn.nlanes, 2);

	/* _COMPLETE update forms. */
	r[NCSYNC_REC_EV_UPD_MODE] = NCSYNC_UPD_SEM_INC | NCSYNC_UPD_COMPLETE;
	KUNIT_EXPECT_EQ(test, dec(r, &insn), NCSYNC_REC_OK);

	/* Lane 1: separate wait and update values. */
	r[NCSYNC_REC_EX_WAIT_MODE] = NCSYNC_WAIT_SEM_LT | NCSYNC_WAIT_REG;
	r[NCSYNC_REC_EX_WAIT_IDX] = 9;
	put32(r + NCSYNC_REC_EX_WAIT_VALUE, 31);
	r[NCSYNC_REC_EX_UPD_MODE] = NCSYNC_UPD_SEM_SUB | NCSYNC_UPD_COMPLETE;
	r[NCSYNC_REC_EX_UPD_IDX] = 9;
	put32(r + NCSYNC_REC_EX_UPD_VALUE, 1000);
	KUNIT_ASSERT_EQ(test, dec(r, &insn), NCSYNC_REC_OK);
	KUNIT_EXPECT_EQ(test, insn.lane[1].wait_value, 31U);
	KUNIT_EXPECT_EQ(test, insn.lane[1].upd_value, 1000U);
	KUNIT_EXPECT_TRUE(test, insn.lane[1].paired);
}

static void record_drain_mov(struct kunit *test)
{
	struct ncsync_insn insn;
	__u8 r[NCSYNC_RECORD_SIZE];

	rec_init(r, NCSYNC_OPC_DRAIN);
	r[NCSYNC_REC_DRAIN_COUNT] = 1;
	KUNIT_EXPECT_EQ(test, dec(r, &insn), NCSYNC_REC_OK);
	KUNIT_EXPECT_EQ(test, insn.drain.count, 1);

	rec_init(r, NCSYNC_OPC_MOV32);
	r[NCSYNC_REC_MOV_ALU] = NCSYNC_ALU_ADD_IMM;
	r[NCSYNC_REC_MOV_DST] = 31;
	r[NCSYNC_REC_MOV_SRC] = 2;
	put32(r + NCSYNC_REC_MOV_IMM, 0xDEADBEEF);
	KUNIT_ASSERT_EQ(test, dec(r, &insn), NCSYNC_REC_OK);
	KUNIT_EXPECT_EQ(test, insn.mov.alu, NCSYNC_ALU_ADD_IMM);
	KUNIT_EXPECT_EQ(test, insn.mov.dst, 31);
	KUNIT_EXPECT_EQ(test, insn.mov.src, 2);
	KUNIT_EXPECT_EQ(test, insn.mov.imm, 0xDEADBEEFU);
	/* A register source and no immediate. */
	r[NCSYNC_REC_MOV_ALU] = NCSYNC_ALU_ADD;
	r[NCSYNC_REC_MOV_SRC] = 1;
	put32(r + NCSYNC_REC_MOV_IMM, 0);
	KUNIT_EXPECT_EQ(test, dec(r, &insn), NCSYNC_REC_OK);
}

static void record_branch(struct kunit *test)
{
	struct ncsync_insn insn;
	__u8 r[NCSYNC_RECORD_SIZE];

	rec_init(r, NCSYNC_OPC_BRANCH);
	put64(r + NCSYNC_REC_BR_TARGET, 15);
	KUNIT_ASSERT_EQ(test, dec(r, &insn), NCSYNC_REC_OK);
	KUNIT_EXPECT_EQ(test, insn.br.target, 15U);

	rec_init(r, NCSYNC_OPC_BRANCH);
	r[NCSYNC_REC_BR_COMP_OP] = NCSYNC_BR_LT;
	r[NCSYNC_REC_BR_OPERAND_KIND] = NCSYNC_BR_OPERANDS;
	r[NCSYNC_REC_BR_DTYPE] = NCSYNC_DTYPE_S32;
	r[NCSYNC_REC_BR_LHS_REG] = 31;
	put32(r + NCSYNC_REC_BR_IMM, 5);
	KUNIT_ASSERT_EQ(test, dec(r, &insn), NCSYNC_REC_OK);
	KUNIT_EXPECT_EQ(test, insn.br.imm, 5U);
	KUNIT_EXPECT_EQ(test, insn.br.lhs, 31);
	/* The register form: a right-hand register, no immediate. */
	r[NCSYNC_REC_BR_COMP_OP] = NCSYNC_BR_LT | NCSYNC_BR_REG;
	r[NCSYNC_REC_BR_RHS_REG] = 1;
	put32(r + NCSYNC_REC_BR_IMM, 0);
	KUNIT_EXPECT_EQ(test, dec(r, &insn), NCSYNC_REC_OK);
	KUNIT_EXPECT_EQ(test, insn.br.rhs, 1);
}

/*
 * BranchHint (records.rst, "BranchHint (0xE1)"): its offset decoded
 * signed; in a queue of 16, from record 0 the last record is reachable
 * and no further, from record 15 the first; what the decoder alone cannot
 * place, ncsync_record_check_at() refuses as the submission does.
 */
static void record_br_hint(struct kunit *test)
{
	struct ncsync_insn insn;
	__u8 r[NCSYNC_RECORD_SIZE];
	__u32 t;

	rec_init(r, NCSYNC_OPC_BR_HINT);
	put32(r + NCSYNC_REC_HINT_OFFSET, 15);
	KUNIT_ASSERT_EQ(test, dec(r, &insn), NCSYNC_REC_OK);
	KUNIT_EXPECT_EQ(test, insn.hint.offset, 15);
	KUNIT_EXPECT_EQ(test, ncsync_record_check_at(&insn, 0, 16),
			NCSYNC_REC_OK);
	KUNIT_EXPECT_EQ(test, ncsync_record_check_at(&insn, 1, 16),
			NCSYNC_REC_BAD_TARGET);
	KUNIT_EXPECT_TRUE(test, ncsync_insn_target(&insn, 0, &t));
	KUNIT_EXPECT_EQ(test, t, 15U);

	put32(r + NCSYNC_REC_HINT_OFFSET, (__u32)-15);
	KUNIT_ASSERT_EQ(test, dec(r, &insn), NCSYNC_REC_OK);
	KUNIT_EXPECT_EQ(test, insn.hint.offset, -15);
	KUNIT_EXPECT_EQ(test, ncsync_record_check_at(&insn, 15, 16),
			NCSYNC_REC_OK);
	KUNIT_EXPECT_EQ(test, ncsync_record_check_at(&insn, 14, 16),
			NCSYNC_REC_BAD_TARGET);

	put32(r + NCSYNC_REC_HINT_OFFSET, 16);
	KUNIT_EXPECT_EQ(test, dec(r, &insn), NCSYNC_REC_BAD_TARGET);
	put32(r + NCSYNC_REC_HINT_OFFSET, (__u32)-16);
	KUNIT_EXPECT_EQ(test, dec(r, &insn), NCSYNC_REC_BAD_TARGET);
}

static void record_group_reset(struct kunit *test)
{
	struct ncsync_insn insn;
	__u8 r[NCSYNC_RECORD_SIZE];
	unsigned int i;

	rec_init(r, NCSYNC_OPC_GROUP_RESET);
	r[NCSYNC_REC_GR_CLEAR_MODE] = NCSYNC_CLEAR_RANGE;
	r[NCSYNC_REC_GR_FIRST] = 30;
	r[NCSYNC_REC_GR_LAST] = 33;
	KUNIT_ASSERT_EQ(test, dec(r, &insn), NCSYNC_REC_OK);
	/* The range form fills the mask. */
	KUNIT_EXPECT_EQ(test, insn.gr.mask[0], 0xC0000000U);
	KUNIT_EXPECT_EQ(test, insn.gr.mask[1], 0x00000003U);
	for (i = 2; i < 8; i++)
		KUNIT_EXPECT_EQ(test, insn.gr.mask[i], 0U);
	r[NCSYNC_REC_GR_FIRST] = 0;
	r[NCSYNC_REC_GR_LAST] = 255;
	KUNIT_ASSERT_EQ(test, dec(r, &insn), NCSYNC_REC_OK);
	for (i = 0; i < 8; i++)
		KUNIT_EXPECT_EQ(test, insn.gr.mask[i], 0xFFFFFFFFU);
	r[NCSYNC_REC_GR_FIRST] = 255;
	KUNIT_ASSERT_EQ(test, dec(r, &insn), NCSYNC_REC_OK);
	KUNIT_EXPECT_EQ(test, insn.gr.mask[7], 0x80000000U);
	KUNIT_EXPECT_EQ(test, insn.gr.mask[6], 0U);

	rec_init(r, NCSYNC_OPC_GROUP_RESET);
	r[NCSYNC_REC_GR_CLEAR_MODE] = NCSYNC_CLEAR_MASK;
	put32(r + NCSYNC_REC_GR_MASK + 4, 0x00010001);
	r[NCSYNC_REC_GR_MASK + 31] = 0x80;
	KUNIT_ASSERT_EQ(test, dec(r, &insn), NCSYNC_REC_OK);
	KUNIT_EXPECT_EQ(test, insn.gr.mask[1], 0x00010001U);
	KUNIT_EXPECT_EQ(test, insn.gr.mask[7], 0x80000000U);
}

static void record_poll_exit(struct kunit *test)
{
	struct ncsync_insn insn;
	__u8 r[NCSYNC_RECORD_SIZE];

	rec_init(r, NCSYNC_OPC_POLL_SEM);
	r[NCSYNC_REC_POLL_OP] = NCSYNC_POLL_SUM;
	r[NCSYNC_REC_POLL_DST] = 31;
	r[NCSYNC_REC_POLL_FIRST] = NCSYNC_NUM_SEMS - NCSYNC_POLL_MAX_COUNT;
	r[NCSYNC_REC_POLL_COUNT] = NCSYNC_POLL_MAX_COUNT;
	KUNIT_ASSERT_EQ(test, dec(r, &insn), NCSYNC_REC_OK);
	KUNIT_EXPECT_EQ(test, insn.poll.count, NCSYNC_POLL_MAX_COUNT);
	r[NCSYNC_REC_POLL_FIRST] = 255;
	r[NCSYNC_REC_POLL_COUNT] = 1;
	KUNIT_EXPECT_EQ(test, dec(r, &insn), NCSYNC_REC_OK);
	/* the write-back, for Min only (BARRIER §5) */
	r[NCSYNC_REC_POLL_WRITEBACK] = NCSYNC_POLL_WB_NONZERO;
	KUNIT_EXPECT_EQ(test, dec(r, &insn), NCSYNC_REC_BAD_POLL);
	r[NCSYNC_REC_POLL_OP] = NCSYNC_POLL_MIN;
	KUNIT_ASSERT_EQ(test, dec(r, &insn), NCSYNC_REC_OK);
	KUNIT_EXPECT_EQ(test, insn.poll.writeback, NCSYNC_POLL_WB_NONZERO);
}

static void record_dma(struct kunit *test)
{
	struct ncsync_insn insn;
	__u8 r[NCSYNC_RECORD_SIZE];

	rec_init(r, NCSYNC_OPC_DMA);
	put64(r + NCSYNC_REC_DMA_SRC, 0);
	put64(r + NCSYNC_REC_DMA_DST, DEVMEM - 16);
	put32(r + NCSYNC_REC_DMA_LEN, 16);
	put32(r + NCSYNC_REC_DMA_LATENCY_US, NCSYNC_DMA_MAX_LATENCY_US);
	KUNIT_ASSERT_EQ(test, dec(r, &insn), NCSYNC_REC_OK);
	KUNIT_EXPECT_EQ(test, insn.dma.dst, DEVMEM - 16);
	KUNIT_EXPECT_EQ(test, insn.dma.len, 16U);
	put32(r + NCSYNC_REC_DMA_LATENCY_US, NCSYNC_DMA_MAX_LATENCY_US + 1);
	KUNIT_EXPECT_EQ(test, dec(r, &insn), NCSYNC_REC_BAD_DMA);
	put32(r + NCSYNC_REC_DMA_LATENCY_US, 0);
	put32(r + NCSYNC_REC_DMA_LEN, 17);
	KUNIT_EXPECT_EQ(test, dec(r, &insn), NCSYNC_REC_BAD_DMA);
	put32(r + NCSYNC_REC_DMA_LEN, 0);
	KUNIT_EXPECT_EQ(test, dec(r, &insn), NCSYNC_REC_BAD_DMA);
	/* Offsets near 2^64 must not wrap past the check. */
	put32(r + NCSYNC_REC_DMA_LEN, 32);
	put64(r + NCSYNC_REC_DMA_DST, 0);
	put64(r + NCSYNC_REC_DMA_SRC, ~0ULL - 15);
	KUNIT_EXPECT_EQ(test, dec(r, &insn), NCSYNC_REC_BAD_DMA);
	put64(r + NCSYNC_REC_DMA_SRC, DEVMEM);
	KUNIT_EXPECT_EQ(test, dec(r, &insn), NCSYNC_REC_BAD_DMA);
	put64(r + NCSYNC_REC_DMA_SRC, DEVMEM - 32);
	KUNIT_EXPECT_EQ(test, dec(r, &insn), NCSYNC_REC_OK);

	/* Completion updates: none, +1 or event set, either form. */
	r[NCSYNC_REC_EV_UPD_MODE] = NCSYNC_UPD_SEM_INC | NCSYNC_UPD_COMPLETE;
	r[NCSYNC_REC_EV_UPD_IDX] = 3;
	KUNIT_EXPECT_EQ(test, dec(r, &insn), NCSYNC_REC_OK);
	r[NCSYNC_REC_EV_UPD_MODE] = NCSYNC_UPD_EVT_SET;
	KUNIT_EXPECT_EQ(test, dec(r, &insn), NCSYNC_REC_OK);
}

/*
 * The bad-record table (common/test/bad_records.h), shared with the host
 * tests and the selftests: each entry, decoded in a queue of
 * NCSYNC_BAD_QLEN records, is refused for its reason.  Every reason is in
 * the table.
 */
static void record_bad_table(struct kunit *test)
{
	const struct ncsync_bad_record *b;
	bool seen[NCSYNC_REC_REASON_COUNT] = { };
	struct ncsync_insn insn;
	__u8 r[NCSYNC_RECORD_SIZE];
	unsigned int i;

	for (i = 0; i < NCSYNC_NUM_BAD_RECORDS; i++) {
		enum ncsync_rec_reason why;

		b = &ncsync_bad_records[i];
		ncsync_bad_record_build(b, NCSYNC_BAD_QLEN, r);
		why = ncsync_record_decode(r, NCSYNC_BAD_QLEN,
					   NCSYNC_BAD_DEVMEM, &insn);
		if (why == NCSYNC_REC_OK)
			why = ncsync_record_check_lnc(&insn, NCSYNC_BAD_LNC);
		KUNIT_EXPECT_EQ_MSG(test, (unsigned int)why,
				    (unsigned int)b->reason, "%s", b->name);
		if (b->reason < NCSYNC_REC_REASON_COUNT)
			seen[b->reason] = true;
	}
	/* The conformance profile's reasons: common/test/conform_records.h */
	for (i = 1; i < NCSYNC_REC_REASON_COUNT; i++)
		KUNIT_EXPECT_TRUE_MSG(test, seen[i] ||
				      ncsync_rec_reason_conform(i),
				      "no entry for reason %u (%s)", i,
				      ncsync_rec_reason_name(i));
	KUNIT_EXPECT_FALSE(test, seen[NCSYNC_REC_OK]);
}

/*
 * The conformance table (common/test/conform_records.h): each kernel entry
 * is accepted by the decoder and refused by ncsync_record_conform() for
 * its reason (a duplicate only after an earlier queue holds it); each
 * 0xD5 entry by ncsync_barrier_record_conform().
 */
static void record_conform_table(struct kunit *test)
{
	static struct ncsync_conform conf;	/* 2.4 KiB: not on the stack */
	const struct ncsync_conform_record *c;
	enum ncsync_rec_reason why;
	struct ncsync_insn insn, ein;
	__u8 r[NCSYNC_RECORD_SIZE], e[NCSYNC_RECORD_SIZE];
	unsigned int i;

	for (i = 0; i < NCSYNC_NUM_CONFORM_RECORDS; i++) {
		c = &ncsync_conform_records[i];
		ncsync_bad_record_build(&c->rec, NCSYNC_BAD_QLEN, r);
		if (c->rec.opcode == NCSYNC_OPC_ALL_ENGINE_BARRIER) {
			KUNIT_EXPECT_EQ_MSG(test,
					    ncsync_barrier_record_conform(r),
					    (unsigned int)c->rec.reason, "%s",
					    c->rec.name);
			continue;
		}
		why = ncsync_record_decode(r, NCSYNC_BAD_QLEN,
					   NCSYNC_BAD_DEVMEM, &insn);
		KUNIT_ASSERT_EQ_MSG(test, why, NCSYNC_REC_OK, "%s",
				    c->rec.name);
		ncsync_conform_init(&conf);
		if (c->dup_earlier) {
			/* the same group in an earlier queue: a fence's copy */
			KUNIT_EXPECT_EQ(test, ncsync_record_conform(&conf,
								    &insn),
					NCSYNC_REC_OK);
			ncsync_conform_next_queue(&conf);
			KUNIT_EXPECT_EQ(test, ncsync_record_conform(&conf,
								    &insn),
					NCSYNC_REC_OK);
			/* an overlapping group in the earlier queue */
			ncsync_conform_earlier(r, e);
			KUNIT_ASSERT_EQ(test,
					ncsync_record_decode(e, NCSYNC_BAD_QLEN,
							     NCSYNC_BAD_DEVMEM,
							     &ein), NCSYNC_REC_OK);
			ncsync_conform_init(&conf);
			KUNIT_EXPECT_EQ(test, ncsync_record_conform(&conf, &ein),
					NCSYNC_REC_OK);
			ncsync_conform_next_queue(&conf);
		}
		KUNIT_EXPECT_EQ_MSG(test, ncsync_record_conform(&conf, &insn),
				    (unsigned int)c->rec.reason, "%s",
				    c->rec.name);
	}
}

/*
 * Random records with a valid header: whatever the bytes, the decoder
 * returns a known reason (under KASAN/UBSAN: without a bad access or an
 * undefined operation), an accepted record decodes the same twice, and the
 * encoder gives it back byte for byte.
 */
static void record_random(struct kunit *test)
{
	static const __u8 opcodes[] = {
		NCSYNC_OPC_EVENT_SEMAPHORE, NCSYNC_OPC_HALT, NCSYNC_OPC_DRAIN,
		NCSYNC_OPC_NOOP, NCSYNC_OPC_MOV32, NCSYNC_OPC_BRANCH,
		NCSYNC_OPC_GROUP_RESET, NCSYNC_OPC_POLL_SEM, NCSYNC_OPC_EXIT,
		NCSYNC_OPC_DMA, NCSYNC_OPC_CALL, 0x00, 0xFF,
	};
	unsigned int i, j, ok = 0;
	__u8 r[NCSYNC_RECORD_SIZE], enc[NCSYNC_RECORD_SIZE];
	struct ncsync_insn a, b;
	__u32 seed = 0x9E3779B9;

	for (i = 0; i < 50000; i++) {
		enum ncsync_rec_reason why;
		__u32 density = rnd(&seed) % 4;

		rec_init(r, opcodes[rnd(&seed) % ARRAY_SIZE(opcodes)]);
		/* Mostly sparse records, so that some pass. */
		for (j = 4; j < NCSYNC_RECORD_SIZE; j++)
			if (rnd(&seed) % 16 <= density)
				r[j] = (rnd(&seed) & 1) ? rnd(&seed) :
					rnd(&seed) % 40;
		why = ncsync_record_decode(r, rnd(&seed) % 64, DEVMEM, &a);
		KUNIT_ASSERT_LT(test, (unsigned int)why,
				(unsigned int)NCSYNC_REC_REASON_COUNT);
		if (why != NCSYNC_REC_OK)
			continue;
		ok++;
		KUNIT_ASSERT_EQ(test, ncsync_record_decode(r, 64, DEVMEM, &b),
				NCSYNC_REC_OK);
		KUNIT_EXPECT_EQ(test, a.opcode, r[0]);
		KUNIT_EXPECT_TRUE(test, a.nlanes == 1 || a.nlanes == 2);
		ncsync_record_encode(&a, enc);
		KUNIT_EXPECT_EQ_MSG(test, memcmp(enc, r, NCSYNC_RECORD_SIZE), 0,
				    "record %u, opcode %#x re-encoded", i, r[0]);
	}
	KUNIT_EXPECT_GT(test, ok, 0U);
	kunit_info(test, "%u of %u random records accepted\n", ok, i);
}

static void record_reason_names(struct kunit *test)
{
	unsigned int i, j;

	for (i = 0; i < NCSYNC_REC_REASON_COUNT; i++) {
		const char *n = ncsync_rec_reason_name(i);

		KUNIT_ASSERT_NOT_NULL(test, n);
		KUNIT_EXPECT_STRNEQ(test, n, "unknown reason");
		KUNIT_EXPECT_GT(test, strlen(n), (size_t)0);
		for (j = 0; j < i; j++)
			KUNIT_EXPECT_STRNEQ(test, n, ncsync_rec_reason_name(j));
	}
	KUNIT_EXPECT_STREQ(test, ncsync_rec_reason_name(NCSYNC_REC_REASON_COUNT),
			   "unknown reason");
	KUNIT_EXPECT_STREQ(test, ncsync_rec_reason_name(~0U), "unknown reason");
}

/* ------------------------------------------------------ branch and ALU */

static void branch_test_rules(struct kunit *test)
{
	static const struct br_case {
		__u8 comp;
		__u32 lhs, rhs;
		bool u, s;	/* taken as u32, as s32 */
	} cases[] = {
		{ NCSYNC_BR_ALWAYS, 0, 1, true, true },
		{ NCSYNC_BR_LT, 0xFFFFFFFF, 1, false, true },
		{ NCSYNC_BR_LT, 1, 0xFFFFFFFF, true, false },
		{ NCSYNC_BR_LE, 5, 5, true, true },
		{ NCSYNC_BR_LE, 0x80000000, 0x7FFFFFFF, false, true },
		{ NCSYNC_BR_EQ, 7, 7, true, true },
		{ NCSYNC_BR_EQ, 7, 8, false, false },
		{ NCSYNC_BR_NE, 7, 8, true, true },
		{ NCSYNC_BR_NE, 0xFFFFFFFF, 0xFFFFFFFF, false, false },
		{ NCSYNC_BR_GE, 0, 0xFFFFFFFF, false, true },
		{ NCSYNC_BR_GT, 0x80000000, 0, true, false },
		{ NCSYNC_BR_GT, 0, 0, false, false },
	};
	const struct br_case *t;

	for (t = cases; t < cases + ARRAY_SIZE(cases); t++) {
		KUNIT_EXPECT_EQ_MSG(test, ncsync_br_test(t->comp, NCSYNC_DTYPE_U32,
							 t->lhs, t->rhs), t->u,
				    "comp %u u32 %#x %#x", t->comp, t->lhs, t->rhs);
		KUNIT_EXPECT_EQ_MSG(test, ncsync_br_test(t->comp, NCSYNC_DTYPE_S32,
							 t->lhs, t->rhs), t->s,
				    "comp %u s32 %#x %#x", t->comp, t->lhs, t->rhs);
		KUNIT_EXPECT_EQ_MSG(test,
				    ncsync_br_test(t->comp | NCSYNC_BR_REG,
						   NCSYNC_DTYPE_S32, t->lhs,
						   t->rhs), t->s,
				    "comp %u reg s32 %#x %#x", t->comp, t->lhs,
				    t->rhs);
	}
}

static void alu_rules(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, ncsync_alu(NCSYNC_ALU_MOV_IMM, 1, 2, 3), 3U);
	KUNIT_EXPECT_EQ(test, ncsync_alu(NCSYNC_ALU_MOV, 1, 2, 3), 2U);
	KUNIT_EXPECT_EQ(test, ncsync_alu(NCSYNC_ALU_ADD_IMM, 1, 0xFFFFFFFF, 2),
			1U);
	KUNIT_EXPECT_EQ(test, ncsync_alu(NCSYNC_ALU_ADD, 0xFFFFFFFF, 2, 0), 1U);
	KUNIT_EXPECT_EQ(test, ncsync_alu(NCSYNC_ALU_SUB_IMM, 9, 0, 1),
			0xFFFFFFFFU);
	KUNIT_EXPECT_EQ(test, ncsync_alu(NCSYNC_ALU_SUB, 0, 1, 0), 0xFFFFFFFFU);
	KUNIT_EXPECT_EQ(test, ncsync_alu(NCSYNC_ALU_AND_IMM, 0, 0xF0F0, 0xFF00),
			0xF000U);
	KUNIT_EXPECT_EQ(test, ncsync_alu(NCSYNC_ALU_OR_IMM, 0, 0xF0F0, 0x0F00),
			0xFFF0U);
	KUNIT_EXPECT_EQ(test, ncsync_alu(NCSYNC_ALU_XOR_IMM, 0, 0xFFFF, 0xFF),
			0xFF00U);
	KUNIT_EXPECT_EQ(test, ncsync_alu(NCSYNC_ALU_SHL_IMM, 0, 1, 31),
			0x80000000U);
	/* Shift counts are taken modulo 32 (no undefined shift). */
	KUNIT_EXPECT_EQ(test, ncsync_alu(NCSYNC_ALU_SHL_IMM, 0, 1, 32), 1U);
	KUNIT_EXPECT_EQ(test, ncsync_alu(NCSYNC_ALU_SHR_IMM, 0, 0x80000000, 31),
			1U);
	KUNIT_EXPECT_EQ(test, ncsync_alu(NCSYNC_ALU_SHR_IMM, 0, 0x80000000,
					 0xFFFFFFFF), 1U);
}

/* ---------------------------------------------------------------- suites */

static struct kunit_case ncsync_csr_cases[] = {
	KUNIT_CASE(csr_decode_windows),
	KUNIT_CASE(csr_access_shape),
	KUNIT_CASE(csr_write_ranges),
	{}
};

static struct kunit_suite ncsync_csr_suite = {
	.name = "ncsync_csr",
	.test_cases = ncsync_csr_cases,
};

static struct kunit_case ncsync_sem_cases[] = {
	KUNIT_CASE(sem_test_signed_compare),
	KUNIT_CASE(wait_mode_classes),
	KUNIT_CASE(exec_cases),
	KUNIT_CASE(optab_cases),
	KUNIT_CASE(sem_apply_cases),
	KUNIT_CASE(sem_apply_properties),
	KUNIT_CASE(upd_mode_rules),
	KUNIT_CASE(op_check_rules),
	{}
};

static struct kunit_suite ncsync_sem_suite = {
	.name = "ncsync_sem",
	.test_cases = ncsync_sem_cases,
};

static struct kunit_case ncsync_record_cases[] = {
	KUNIT_CASE(record_header),
	KUNIT_CASE(record_reserved_bytes),
	KUNIT_CASE(record_events_block),
	KUNIT_CASE(record_event_semaphore),
	KUNIT_CASE(record_drain_mov),
	KUNIT_CASE(record_branch),
	KUNIT_CASE(record_br_hint),
	KUNIT_CASE(record_group_reset),
	KUNIT_CASE(record_poll_exit),
	KUNIT_CASE(record_dma),
	KUNIT_CASE(record_bad_table),
	KUNIT_CASE(record_conform_table),
	KUNIT_CASE(record_random),
	KUNIT_CASE(record_reason_names),
	KUNIT_CASE(branch_test_rules),
	KUNIT_CASE(alu_rules),
	{}
};

static struct kunit_suite ncsync_record_suite = {
	.name = "ncsync_record",
	.test_cases = ncsync_record_cases,
};

kunit_test_suites(&ncsync_csr_suite, &ncsync_sem_suite, &ncsync_record_suite);

MODULE_DESCRIPTION("KUnit tests of the ncsync model rules (common/)");
MODULE_LICENSE("GPL");
