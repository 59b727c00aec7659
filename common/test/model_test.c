// SPDX-License-Identifier: GPL-2.0
/*
 * Host test of the shared model rules (common/ncsync_model.c), of the
 * execution core (common/ncsync_exec.c) and of the opcode table and the
 * effect function (common/ncsync_optab.c, ncsync_effect.h), the same
 * sources the module compiles, with the tables of cases KUnit runs too.
 * Prints TAP.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "ncsync_model.h"
#include "ncsync_exec.h"
#include "test/exec_cases.h"
#include "test/optab_cases.h"
#include "ncsync_names.h"

static int planned, failed;

#define CHECK(cond) do {						\
	planned++;							\
	if (cond) {							\
		printf("ok %d %s\n", planned, #cond);			\
	} else {							\
		printf("not ok %d %s (line %d)\n", planned, #cond,	\
		       __LINE__);					\
		failed++;						\
	}								\
} while (0)

static void test_csr_decode(void)
{
	unsigned int i;

	CHECK(ncsync_csr_decode(0x0000, &i) == NCSYNC_WIN_EVENTS && i == 0);
	CHECK(ncsync_csr_decode(0x03FC, &i) == NCSYNC_WIN_EVENTS && i == 255);
	CHECK(ncsync_csr_decode(0x0400, &i) == NCSYNC_WIN_RESERVED);
	CHECK(ncsync_csr_decode(0x0FFC, &i) == NCSYNC_WIN_RESERVED);
	CHECK(ncsync_csr_decode(0x1004, &i) == NCSYNC_WIN_SEM_READ && i == 1);
	CHECK(ncsync_csr_decode(0x1408, &i) == NCSYNC_WIN_SEM_SET && i == 2);
	CHECK(ncsync_csr_decode(0x180C, &i) == NCSYNC_WIN_SEM_INC && i == 3);
	CHECK(ncsync_csr_decode(0x1FFC, &i) == NCSYNC_WIN_SEM_DEC && i == 255);
}

static void test_csr_access(void)
{
	CHECK(ncsync_csr_access_ok(0, 4));
	CHECK(ncsync_csr_access_ok(0, 0x2000));
	CHECK(ncsync_csr_access_ok(0x1FFC, 4));
	CHECK(!ncsync_csr_access_ok(0x1FFC, 8));
	CHECK(!ncsync_csr_access_ok(0x2000, 4));
	CHECK(!ncsync_csr_access_ok(2, 4));
	CHECK(!ncsync_csr_access_ok(0, 3));
	CHECK(!ncsync_csr_access_ok(0, 0));
	CHECK(!ncsync_csr_access_ok(~0ULL - 3, 8));
	CHECK(ncsync_csr_write_ok(0x0000, 0x400));
	CHECK(ncsync_csr_write_ok(0x1400, 0xC00));
	CHECK(!ncsync_csr_write_ok(0x03FC, 8));
	CHECK(!ncsync_csr_write_ok(0x13FC, 4));
	CHECK(!ncsync_csr_write_ok(0x1000, 0x1000));
}

static void test_sem_apply(void)
{
	bool ovf;

	CHECK(ncsync_sem_apply(NCSYNC_SEM_UPD_SET, 7, (__u32)-5, &ovf) == -5 &&
	      !ovf);
	CHECK(ncsync_sem_apply(NCSYNC_SEM_UPD_ADD, 1, 2, &ovf) == 3 && !ovf);
	CHECK(ncsync_sem_apply(NCSYNC_SEM_UPD_ADD, INT_MAX, 1, &ovf) ==
	      INT_MIN && ovf);
	CHECK(ncsync_sem_apply(NCSYNC_SEM_UPD_SUB, INT_MIN, 1, &ovf) ==
	      INT_MAX && ovf);
	CHECK(ncsync_sem_apply(NCSYNC_SEM_UPD_SUB, 0, 1, &ovf) == -1 && !ovf);
	CHECK(ncsync_sem_apply(NCSYNC_SEM_UPD_ADD, 5, 0xFFFFFFFF, &ovf) == 4 &&
	      !ovf);
}

static void test_wait_modes(void)
{
	CHECK(ncsync_wait_mode_is_sem(NCSYNC_WAIT_SEM_EQ));
	CHECK(ncsync_wait_mode_is_sem(NCSYNC_WAIT_SEM_GE | NCSYNC_WAIT_REG));
	CHECK(!ncsync_wait_mode_is_sem(0x00));
	CHECK(!ncsync_wait_mode_is_sem(0x06));
	CHECK(!ncsync_wait_mode_is_sem(0x86));
	CHECK(ncsync_wait_mode_is_event(NCSYNC_WAIT_EVT_CLEAR_THEN_SET));
	CHECK(!ncsync_wait_mode_is_event(0x08));
}

/* The execution core: one TAP line per case of common/test/exec_cases.h. */
static void test_exec_cases(void)
{
	const char *table;
	unsigned int n, i;
	bool ok;

	for (n = 0; n < exec_cases_count(); n++) {
		ok = exec_case_run(n, &table, &i);
		planned++;
		printf("%sok %d %s[%u]\n", ok ? "" : "not ", planned, table, i);
		failed += !ok;
	}
}

/*
 * The opcode table: one TAP line per row of common/test/optab_cases.h, and
 * the text form's names, which the table's mnemonic column gives.
 */
static void test_optab(void)
{
	const struct ncsync_opdesc *d;
	const char *why;
	unsigned int n;
	bool ok;

	for (n = 0; n < optab_cases_count(); n++) {
		d = &ncsync_optab[n];
		ok = optab_case_run(n, &why);
		planned++;
		printf("%sok %d opcode %#x (%s)%s%s\n", ok ? "" : "not ",
		       planned, d->opcode, d->title, ok ? "" : ": ",
		       ok ? "" : why);
		failed += !ok;
		if (d->mnemonic) {
			CHECK(ncsync_text_find(ncsync_text_opcodes, d->mnemonic,
					       strlen(d->mnemonic))->val ==
			      d->opcode);
			CHECK(!strcmp(ncsync_text_name(ncsync_text_opcodes,
						       d->opcode),
				      d->mnemonic));
		} else {
			CHECK(!ncsync_text_name(ncsync_text_opcodes,
						d->opcode));
		}
	}
}

static void test_op_check(void)
{
	struct ncsync_op op = { .bank = NCSYNC_BANK_SEM, .op = NCSYNC_OP_INC,
				.index = 255, .value = 3 };
	bool upd;

	CHECK(ncsync_op_check(&op, &upd) == 0 && upd);
	op.index = 256;
	CHECK(ncsync_op_check(&op, &upd) == -EINVAL);
	op.index = 0;
	op.op = NCSYNC_OP_CLEAR;
	CHECK(ncsync_op_check(&op, &upd) == -EINVAL);
	op.op = NCSYNC_OP_READ;
	CHECK(ncsync_op_check(&op, &upd) == -EINVAL);	/* value != 0 */
	op.value = 0;
	CHECK(ncsync_op_check(&op, &upd) == 0 && !upd);
	op.pad = 1;
	CHECK(ncsync_op_check(&op, &upd) == -EINVAL);
	op.pad = 0;
	op.bank = NCSYNC_BANK_EVENT;
	op.op = NCSYNC_OP_INC;
	CHECK(ncsync_op_check(&op, &upd) == -EINVAL);
	op.op = NCSYNC_OP_CLEAR;
	CHECK(ncsync_op_check(&op, &upd) == 0 && upd);
	op.bank = 2;
	CHECK(ncsync_op_check(&op, &upd) == -EINVAL);
}

int main(void)
{
	printf("TAP version 13\n");
	test_csr_decode();
	test_csr_access();
	test_sem_apply();
	test_wait_modes();
	test_exec_cases();
	test_op_check();
	test_optab();
	printf("1..%d\n", planned);
	return failed ? 1 : 0;
}
