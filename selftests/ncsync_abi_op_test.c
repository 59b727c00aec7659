// SPDX-License-Identifier: GPL-2.0
/*
 * ncsync selftests of the /dev/ncsyncN ABI (ncsync_abi.h): NCSYNC_IOC_OP,
 * NCSYNC_IOC_BATCH (order, limits, all or nothing, atomicity) and
 * NCSYNC_IOC_RESET.
 *
 * Run inside the test VM:
 *   tools/vm-run build/selftests/ncsync_abi_op_test
 */
#include "ncsync_abi.h"

/* ---------------------------------------------------------------------- */
/* NCSYNC_IOC_OP                                                           */

TEST_F(core, op_sem_read_set_inc_dec)
{
	struct ncsync_op op;

	ASSERT_EQ(0, do_op(self->fd, SEM, NCSYNC_OP_SET, 17, 5, &op));
	EXPECT_EQ(0, op.before);
	EXPECT_EQ(5, op.after);
	ASSERT_EQ(0, do_op(self->fd, SEM, NCSYNC_OP_INC, 17, 3, &op));
	EXPECT_EQ(5, op.before);
	EXPECT_EQ(8, op.after);
	ASSERT_EQ(0, do_op(self->fd, SEM, NCSYNC_OP_DEC, 17, 10, &op));
	EXPECT_EQ(8, op.before);
	EXPECT_EQ(-2, op.after);
	ASSERT_EQ(0, do_op(self->fd, SEM, NCSYNC_OP_READ, 17, 0, &op));
	EXPECT_EQ(-2, op.before);
	EXPECT_EQ(-2, op.after);
	/* the op's input fields come back unchanged */
	EXPECT_EQ(SEM, op.bank);
	EXPECT_EQ(NCSYNC_OP_READ, op.op);
	EXPECT_EQ(17U, op.index);
	EXPECT_EQ(0U, op.value);
	EXPECT_EQ((__u32)-2, csr_get(_metadata, self->fd, SEM_RD(17)));
	ASSERT_EQ(0, do_op(self->fd, SEM, NCSYNC_OP_SET, 255, (__u32)-9, &op));
	EXPECT_EQ(-9, op.after);
	EXPECT_EQ(-9, sem_get(_metadata, self->fd, 255));
	EXPECT_EQ(0, sem_get(_metadata, self->fd, 16));
	EXPECT_EQ(0, sem_get(_metadata, self->fd, 18));
}

TEST_F(core, op_sem_wraps)
{
	struct ncsync_op op;

	sem_put(_metadata, self->fd, 1, INT_MAX);
	ASSERT_EQ(0, do_op(self->fd, SEM, NCSYNC_OP_INC, 1, 1, &op));
	EXPECT_EQ(INT_MAX, op.before);
	EXPECT_EQ(INT_MIN, op.after);
	ASSERT_EQ(0, do_op(self->fd, SEM, NCSYNC_OP_DEC, 1, 1, &op));
	EXPECT_EQ(INT_MIN, op.before);
	EXPECT_EQ(INT_MAX, op.after);
	ASSERT_EQ(0, do_op(self->fd, SEM, NCSYNC_OP_INC, 1, 0xFFFFFFFFU, &op));
	EXPECT_EQ(INT_MAX - 1, op.after);
}

TEST_F(core, op_event_read_set_clear)
{
	struct ncsync_op op;

	ASSERT_EQ(0, do_op(self->fd, EVENT, NCSYNC_OP_READ, 33, 0, &op));
	EXPECT_EQ(0, op.before);
	EXPECT_EQ(0, op.after);
	ASSERT_EQ(0, do_op(self->fd, EVENT, NCSYNC_OP_SET, 33, 0, &op));
	EXPECT_EQ(0, op.before);
	EXPECT_EQ(1, op.after);
	EXPECT_EQ(1U, csr_get(_metadata, self->fd, EVT(33)));
	ASSERT_EQ(0, do_op(self->fd, EVENT, NCSYNC_OP_SET, 33, 0, &op));
	EXPECT_EQ(1, op.before);
	EXPECT_EQ(1, op.after);
	ASSERT_EQ(0, do_op(self->fd, EVENT, NCSYNC_OP_CLEAR, 33, 0, &op));
	EXPECT_EQ(1, op.before);
	EXPECT_EQ(0, op.after);
	EXPECT_EQ(0U, csr_get(_metadata, self->fd, EVT(33)));
	ASSERT_EQ(0, do_op(self->fd, EVENT, NCSYNC_OP_CLEAR, 33, 0, &op));
	EXPECT_EQ(0, op.before);
	EXPECT_EQ(0, op.after);
	ASSERT_EQ(0, do_op(self->fd, EVENT, NCSYNC_OP_SET, 255, 0, &op));
	EXPECT_EQ(1U, csr_get(_metadata, self->fd, EVT(255)));
	EXPECT_EQ(0U, csr_get(_metadata, self->fd, EVT(254)));
}

TEST_F(core, op_index_out_of_range)
{
	static const __u32 idx[] = { 256, 257, 1024, 0x10000, 0xFFFFFFFFU };
	struct snap s;
	unsigned int i;

	seed(_metadata, self->fd);
	snap_take(_metadata, self->fd, &s);
	for (i = 0; i < ARRAY_SIZE(idx); i++) {
		EXPECT_EQ(-EINVAL, do_op(self->fd, SEM, NCSYNC_OP_READ, idx[i],
					 0, NULL));
		EXPECT_EQ(-EINVAL, do_op(self->fd, SEM, NCSYNC_OP_SET, idx[i],
					 1, NULL));
		EXPECT_EQ(-EINVAL, do_op(self->fd, SEM, NCSYNC_OP_INC, idx[i],
					 1, NULL));
		EXPECT_EQ(-EINVAL, do_op(self->fd, EVENT, NCSYNC_OP_READ,
					 idx[i], 0, NULL));
		EXPECT_EQ(-EINVAL, do_op(self->fd, EVENT, NCSYNC_OP_CLEAR,
					 idx[i], 0, NULL));
	}
	snap_check(_metadata, self->fd, &s);
}

TEST_F(core, op_bad_bank)
{
	struct snap s;

	seed(_metadata, self->fd);
	snap_take(_metadata, self->fd, &s);
	EXPECT_EQ(-EINVAL, do_op(self->fd, 2, NCSYNC_OP_READ, 0, 0, NULL));
	EXPECT_EQ(-EINVAL, do_op(self->fd, 2, NCSYNC_OP_SET, 0, 0, NULL));
	EXPECT_EQ(-EINVAL, do_op(self->fd, 0xFF, NCSYNC_OP_CLEAR, 0, 0, NULL));
	snap_check(_metadata, self->fd, &s);
}

TEST_F(core, op_bad_op)
{
	struct snap s;

	seed(_metadata, self->fd);
	snap_take(_metadata, self->fd, &s);
	EXPECT_EQ(-EINVAL, do_op(self->fd, SEM, NCSYNC_OP_CLEAR, 0, 0, NULL));
	EXPECT_EQ(-EINVAL, do_op(self->fd, SEM, 5, 0, 1, NULL));
	EXPECT_EQ(-EINVAL, do_op(self->fd, SEM, 99, 0, 1, NULL));
	EXPECT_EQ(-EINVAL, do_op(self->fd, EVENT, NCSYNC_OP_INC, 0, 0, NULL));
	EXPECT_EQ(-EINVAL, do_op(self->fd, EVENT, NCSYNC_OP_DEC, 0, 0, NULL));
	EXPECT_EQ(-EINVAL, do_op(self->fd, EVENT, NCSYNC_OP_INC, 1, 1, NULL));
	EXPECT_EQ(-EINVAL, do_op(self->fd, EVENT, 99, 0, 0, NULL));
	EXPECT_EQ(-EINVAL, do_op(self->fd, EVENT, 0xFF, 0, 0, NULL));
	snap_check(_metadata, self->fd, &s);
}

TEST_F(core, op_pad_reserved_nonzero)
{
	struct ncsync_op op;
	struct snap s;

	seed(_metadata, self->fd);
	snap_take(_metadata, self->fd, &s);
	op = mkop(SEM, NCSYNC_OP_SET, 0, 1);
	op.pad = 1;
	EXPECT_EQ(-EINVAL, op_ioctl(self->fd, &op));
	op = mkop(SEM, NCSYNC_OP_INC, 0, 1);
	op.pad = 0x8000;
	EXPECT_EQ(-EINVAL, op_ioctl(self->fd, &op));
	op = mkop(SEM, NCSYNC_OP_INC, 0, 1);
	op.reserved = 1;
	EXPECT_EQ(-EINVAL, op_ioctl(self->fd, &op));
	op = mkop(EVENT, NCSYNC_OP_CLEAR, 0, 0);
	op.reserved = 0x80000000U;
	EXPECT_EQ(-EINVAL, op_ioctl(self->fd, &op));
	op = mkop(SEM, NCSYNC_OP_READ, 0, 0);
	op.pad = 1;
	EXPECT_EQ(-EINVAL, op_ioctl(self->fd, &op));
	snap_check(_metadata, self->fd, &s);
}

TEST_F(core, op_value_must_be_zero)
{
	struct snap s;

	seed(_metadata, self->fd);
	snap_take(_metadata, self->fd, &s);
	EXPECT_EQ(-EINVAL, do_op(self->fd, SEM, NCSYNC_OP_READ, 0, 1, NULL));
	EXPECT_EQ(-EINVAL, do_op(self->fd, EVENT, NCSYNC_OP_READ, 0, 1, NULL));
	EXPECT_EQ(-EINVAL, do_op(self->fd, EVENT, NCSYNC_OP_SET, 1, 1, NULL));
	EXPECT_EQ(-EINVAL, do_op(self->fd, EVENT, NCSYNC_OP_CLEAR, 0, 1,
				 NULL));
	EXPECT_EQ(-EINVAL, do_op(self->fd, EVENT, NCSYNC_OP_CLEAR, 0,
				 0x80000000U, NULL));
	snap_check(_metadata, self->fd, &s);
}

TEST_F(core, op_efault)
{
	struct ncsync_op op = mkop(SEM, NCSYNC_OP_SET, 0, 77);
	struct ncsync_op *ro = ro_copy(&op, sizeof(op));
	char *end = guard_end();
	struct snap s;

	ASSERT_NE(NULL, ro);
	ASSERT_NE(NULL, end);
	seed(_metadata, self->fd);
	snap_take(_metadata, self->fd, &s);
	EXPECT_EQ(-EFAULT, op_ioctl(self->fd, NULL));
	EXPECT_EQ(-EFAULT, op_ioctl(self->fd, (void *)8));
	/* struct straddling into an unmapped page */
	memcpy(end - 8, &op, 8);
	EXPECT_EQ(-EFAULT, op_ioctl(self->fd, (void *)(end - 8)));
	/* valid op, but the results cannot be written back */
	EXPECT_EQ(-EFAULT, op_ioctl(self->fd, ro));
	snap_check(_metadata, self->fd, &s);
}

/* ---------------------------------------------------------------------- */
/* NCSYNC_IOC_BATCH                                                        */

TEST_F(core, batch_in_order)
{
	struct ncsync_op ops[] = {
		mkop(SEM, NCSYNC_OP_SET, 2, 5),
		mkop(SEM, NCSYNC_OP_INC, 2, 3),
		mkop(SEM, NCSYNC_OP_DEC, 2, 10),
		mkop(SEM, NCSYNC_OP_READ, 2, 0),
		mkop(EVENT, NCSYNC_OP_SET, 2, 0),
		mkop(EVENT, NCSYNC_OP_READ, 2, 0),
		mkop(EVENT, NCSYNC_OP_CLEAR, 2, 0),
		mkop(EVENT, NCSYNC_OP_SET, 3, 0),
		mkop(SEM, NCSYNC_OP_SET, 255, (__u32)INT_MIN),
	};
	static const __s32 before[] = { 0, 5, 8, -2, 0, 1, 1, 0, 0 };
	static const __s32 after[] = { 5, 8, -2, -2, 1, 1, 0, 1, INT_MIN };
	unsigned int i;

	ASSERT_EQ(0, do_batch(self->fd, ops, ARRAY_SIZE(ops), 0));
	for (i = 0; i < ARRAY_SIZE(ops); i++) {
		EXPECT_EQ(before[i], ops[i].before) TH_LOG("op %u", i);
		EXPECT_EQ(after[i], ops[i].after) TH_LOG("op %u", i);
	}
	/* inputs preserved by the write-back */
	EXPECT_EQ(SEM, ops[2].bank);
	EXPECT_EQ(NCSYNC_OP_DEC, ops[2].op);
	EXPECT_EQ(2U, ops[2].index);
	EXPECT_EQ(10U, ops[2].value);
	EXPECT_EQ(-2, sem_get(_metadata, self->fd, 2));
	EXPECT_EQ(0, evt_get(_metadata, self->fd, 2));
	EXPECT_EQ(1, evt_get(_metadata, self->fd, 3));
	EXPECT_EQ(INT_MIN, sem_get(_metadata, self->fd, 255));
}

TEST_F(core, batch_max_count)
{
	static struct ncsync_op ops[NCSYNC_MAX_BATCH];
	unsigned int i;

	for (i = 0; i < NCSYNC_MAX_BATCH; i++)
		ops[i] = mkop(SEM, NCSYNC_OP_INC, 1, 1);
	ASSERT_EQ(0, do_batch(self->fd, ops, NCSYNC_MAX_BATCH, 0));
	for (i = 0; i < NCSYNC_MAX_BATCH; i++) {
		ASSERT_EQ((__s32)i, ops[i].before) TH_LOG("op %u", i);
		ASSERT_EQ((__s32)i + 1, ops[i].after) TH_LOG("op %u", i);
	}
	EXPECT_EQ(NCSYNC_MAX_BATCH, sem_get(_metadata, self->fd, 1));

	ops[0] = mkop(EVENT, NCSYNC_OP_SET, 0, 0);
	ASSERT_EQ(0, do_batch(self->fd, ops, 1, 0));
	EXPECT_EQ(1, ops[0].after);
}

TEST_F(core, batch_bad_count)
{
	static struct ncsync_op ops[NCSYNC_MAX_BATCH + 1];
	struct snap s;
	unsigned int i;

	for (i = 0; i <= NCSYNC_MAX_BATCH; i++)
		ops[i] = mkop(SEM, NCSYNC_OP_INC, 1, 1);
	seed(_metadata, self->fd);
	snap_take(_metadata, self->fd, &s);
	EXPECT_EQ(-EINVAL, do_batch(self->fd, ops, 0, 0));
	EXPECT_EQ(-EINVAL, do_batch(self->fd, ops, NCSYNC_MAX_BATCH + 1, 0));
	EXPECT_EQ(-EINVAL, do_batch(self->fd, ops, 0xFFFFFFFFU, 0));
	snap_check(_metadata, self->fd, &s);
}

TEST_F(core, batch_bad_flags)
{
	struct ncsync_op op = mkop(SEM, NCSYNC_OP_INC, 1, 1);
	struct snap s;

	seed(_metadata, self->fd);
	snap_take(_metadata, self->fd, &s);
	EXPECT_EQ(-EINVAL, do_batch(self->fd, &op, 1, 1));
	EXPECT_EQ(-EINVAL, do_batch(self->fd, &op, 1, 0x80000000U));
	snap_check(_metadata, self->fd, &s);
}

TEST_F(core, batch_bad_op_none_applied)
{
	struct ncsync_op ops[8], bad[7];
	static const unsigned int where[] = { 0, 3, 7 };
	unsigned int i, j, k;
	struct snap s;

	bad[0] = mkop(SEM, NCSYNC_OP_INC, 256, 1);
	bad[1] = mkop(2, NCSYNC_OP_READ, 0, 0);
	bad[2] = mkop(SEM, 99, 0, 0);
	bad[3] = mkop(EVENT, NCSYNC_OP_INC, 0, 0);
	bad[4] = mkop(SEM, NCSYNC_OP_SET, 0, 1);
	bad[4].pad = 1;
	bad[5] = mkop(SEM, NCSYNC_OP_SET, 0, 1);
	bad[5].reserved = 1;
	bad[6] = mkop(EVENT, NCSYNC_OP_READ, 0, 1);

	seed(_metadata, self->fd);
	snap_take(_metadata, self->fd, &s);
	for (k = 0; k < ARRAY_SIZE(bad); k++) {
		for (j = 0; j < ARRAY_SIZE(where); j++) {
			for (i = 0; i < 8; i++)
				ops[i] = i % 2 ?
					mkop(SEM, NCSYNC_OP_INC, i, 1000) :
					mkop(EVENT, NCSYNC_OP_CLEAR, i, 0);
			ops[where[j]] = bad[k];
			EXPECT_EQ(-EINVAL, do_batch(self->fd, ops, 8, 0))
				TH_LOG("bad op %u at %u", k, where[j]);
		}
	}
	snap_check(_metadata, self->fd, &s);
}

TEST_F(core, batch_efault)
{
	struct ncsync_op op = mkop(SEM, NCSYNC_OP_INC, 0, 1);
	char *end = guard_end();
	struct ncsync_batch b = { 0 };
	struct snap s;

	ASSERT_NE(NULL, end);
	seed(_metadata, self->fd);
	snap_take(_metadata, self->fd, &s);
	EXPECT_EQ(-1, ioctl(self->fd, NCSYNC_IOC_BATCH, NULL));
	EXPECT_EQ(EFAULT, errno);
	EXPECT_EQ(-EFAULT, do_batch(self->fd, NULL, 1, 0));
	EXPECT_EQ(-EFAULT, do_batch(self->fd, (void *)8, 1, 0));
	EXPECT_EQ(-EFAULT, do_batch(self->fd, (void *)end, 1, 0));
	/* first op readable, second one not: nothing applied */
	memcpy(end - sizeof(op), &op, sizeof(op));
	EXPECT_EQ(-EFAULT, do_batch(self->fd, (void *)(end - sizeof(op)), 2,
				    0));
	/* a pointer that is not a user address at all */
	b.ops = 0xFFFF800000000000ULL;
	b.count = 1;
	EXPECT_EQ(-1, ioctl(self->fd, NCSYNC_IOC_BATCH, &b));
	EXPECT_EQ(EFAULT, errno);
	snap_check(_metadata, self->fd, &s);
}

TEST_F(core, batch_results_not_writable)
{
	struct ncsync_op ops[3] = {
		mkop(SEM, NCSYNC_OP_INC, 0, 1),
		mkop(EVENT, NCSYNC_OP_CLEAR, 0, 0),
		mkop(SEM, NCSYNC_OP_SET, 1, 99),
	};
	struct ncsync_op *ro = ro_copy(ops, sizeof(ops));
	struct snap s;

	ASSERT_NE(NULL, ro);
	seed(_metadata, self->fd);
	snap_take(_metadata, self->fd, &s);
	EXPECT_EQ(-EFAULT, do_batch(self->fd, ro, 3, 0));
	snap_check(_metadata, self->fd, &s);
	/* the same ops from writable memory work */
	ASSERT_EQ(0, do_batch(self->fd, ops, 3, 0));
	EXPECT_EQ(99, sem_get(_metadata, self->fd, 1));
}

struct atom_ctx {
	int fd;
	int stop;
	int writer_err;
	int reader_err;
	long mismatches;
	long reads;
};

static void *atom_writer(void *arg)
{
	struct atom_ctx *c = arg;
	struct ncsync_op ops[2];
	int i, r;

	for (i = 0; i < 3000; i++) {
		ops[0] = mkop(SEM, NCSYNC_OP_INC, 40, 1);
		ops[1] = mkop(SEM, NCSYNC_OP_INC, 41, 1);
		r = do_batch(c->fd, ops, 2, 0);
		if (r) {
			c->writer_err = r;
			break;
		}
	}
	__atomic_store_n(&c->stop, 1, __ATOMIC_SEQ_CST);
	return NULL;
}

static void *atom_reader(void *arg)
{
	struct atom_ctx *c = arg;
	struct ncsync_op ops[2];
	int r;

	while (!__atomic_load_n(&c->stop, __ATOMIC_SEQ_CST)) {
		ops[0] = mkop(SEM, NCSYNC_OP_READ, 40, 0);
		ops[1] = mkop(SEM, NCSYNC_OP_READ, 41, 0);
		r = do_batch(c->fd, ops, 2, 0);
		if (r) {
			c->reader_err = r;
			break;
		}
		c->reads++;
		if (ops[0].after != ops[1].after)
			c->mismatches++;
	}
	return NULL;
}

TEST_F(core, batch_atomic)
{
	struct atom_ctx c = { .fd = self->fd };
	pthread_t w, r;

	ASSERT_EQ(0, pthread_create(&r, NULL, atom_reader, &c));
	ASSERT_EQ(0, pthread_create(&w, NULL, atom_writer, &c));
	pthread_join(w, NULL);
	pthread_join(r, NULL);
	EXPECT_EQ(0, c.writer_err);
	EXPECT_EQ(0, c.reader_err);
	EXPECT_EQ(0, c.mismatches) TH_LOG("%ld of %ld reads saw a half batch",
					  c.mismatches, c.reads);
	EXPECT_EQ(3000, sem_get(_metadata, self->fd, 40));
	EXPECT_EQ(3000, sem_get(_metadata, self->fd, 41));
}

/* ---------------------------------------------------------------------- */
/* NCSYNC_IOC_RESET                                                        */

TEST_F(core, reset_zeroes_everything)
{
	static __u32 win[CSR_REGS];
	struct ncsync_stats s0, s1;
	unsigned int i;

	seed(_metadata, self->fd);
	stats_get(_metadata, self->fd, &s0);
	core_reset(_metadata, self->fd);
	stats_get(_metadata, self->fd, &s1);
	ASSERT_EQ(0, rd(self->fd, win, sizeof(win), 0));
	for (i = 0; i < CSR_REGS; i++) {
		ASSERT_EQ(0U, win[i]) TH_LOG("CSR @%#x", i * 4);
	}
	for (i = 0; i < 256; i += 51) {
		EXPECT_EQ(0, sem_get(_metadata, self->fd, i));
		EXPECT_EQ(0, evt_get(_metadata, self->fd, i));
	}
	EXPECT_EQ(s0.resets + 1, s1.resets);
	EXPECT_EQ(s0.seq + 1, s1.seq);
	/* counters are not cleared, nor is the reset a redundant clear */
	EXPECT_EQ(s0.event_set_while_set, s1.event_set_while_set);
	EXPECT_EQ(s0.event_clear_while_clear, s1.event_clear_while_clear);
	EXPECT_EQ(s0.sem_overflows, s1.sem_overflows);
}

TEST_F(core, reset_bad_args)
{
	struct snap s;

	seed(_metadata, self->fd);
	snap_take(_metadata, self->fd, &s);
	EXPECT_EQ(-EINVAL, do_reset(self->fd, 1, 0));
	EXPECT_EQ(-EINVAL, do_reset(self->fd, 0x80000000U, 0));
	EXPECT_EQ(-EINVAL, do_reset(self->fd, 0, 1));
	EXPECT_EQ(-1, ioctl(self->fd, NCSYNC_IOC_RESET, NULL));
	EXPECT_EQ(EFAULT, errno);
	snap_check(_metadata, self->fd, &s);
}

TEST_HARNESS_MAIN
