// SPDX-License-Identifier: GPL-2.0
/*
 * The bad-input table (ncsync_badinput.h), the ioctls of the banks and
 * of every command alike: wrong sizes and directions, unknown commands,
 * bad argument pointers, NCSYNC_IOC_OP, NCSYNC_IOC_BATCH, NCSYNC_IOC_WAIT,
 * NCSYNC_IOC_RESET, and their successful calls (ok_*).
 *
 * Run inside the test VM:  tools/vm-run build/selftests/ncsync_badinput_ioctl_test
 */
#include "ncsync_badinput.h"

/* ---------------------------------------------------------------------- */
/* ioctl cases: checks of successful calls                                 */

static void check_info(struct __test_metadata *_metadata,
		       FIXTURE_DATA(badinput) *self, const union arg *a)
{
	const struct ncsync_info *i = &a->info;
	long sems = ncsync_param("rt_reserved_sems");
	long events = ncsync_param("rt_reserved_events");

	EXPECT_EQ(NCSYNC_API_VERSION, i->api_version);
	EXPECT_EQ(0, i->core);
	EXPECT_EQ(ncsync_param("cores"), (long)i->num_cores);
	EXPECT_EQ(NCSYNC_NUM_SEMS, i->num_sems);
	EXPECT_EQ(NCSYNC_NUM_EVENTS, i->num_events);
	EXPECT_EQ(NCSYNC_CSR_SIZE, i->csr_size);
	EXPECT_EQ(sems, (long)i->rt_reserved_sem_count);
	EXPECT_EQ(256 - sems, (long)i->rt_reserved_sem_first);
	EXPECT_EQ(events, (long)i->rt_reserved_event_count);
	EXPECT_EQ(256 - events, (long)i->rt_reserved_event_first);
	EXPECT_EQ(NCSYNC_DEVMEM_OFFSET, i->devmem_offset);
	EXPECT_EQ(ncsync_param("devmem_kb") * 1024, (long)i->devmem_size);
	EXPECT_EQ(NCSYNC_ENGINE_MASK, i->engine_mask);
	EXPECT_EQ(NCSYNC_NUM_REGS, i->num_regs);
	EXPECT_EQ(ncsync_param("watchdog_ms"), (long)i->watchdog_ms);
	EXPECT_EQ(ncsync_param("lnc"), (long)i->lnc);
}

static void check_op_read(struct __test_metadata *_metadata,
			  FIXTURE_DATA(badinput) *self, const union arg *a)
{
	const struct ncsync_op *op = &a->op;
	__s32 want = op->bank == NCSYNC_BANK_SEM ? seed_sem(op->index) :
						   (__s32)seed_evt(op->index);

	EXPECT_EQ(want, op->before);
	EXPECT_EQ(want, op->after);
	EXPECT_EQ(0, op->pad);
	EXPECT_EQ(0, op->reserved);
}

static void check_batch_read(struct __test_metadata *_metadata,
			     FIXTURE_DATA(badinput) *self, const union arg *a)
{
	const struct ncsync_op *ops = (void *)(uintptr_t)a->batch.ops;
	__u32 i;

	for (i = 0; i < a->batch.count; i++) {
		ASSERT_EQ(seed_sem(i % 256), ops[i].before) TH_LOG("op %u", i);
		ASSERT_EQ(seed_sem(i % 256), ops[i].after) TH_LOG("op %u", i);
		ASSERT_EQ(i % 256, ops[i].index);
		ASSERT_EQ(0, ops[i].pad);
		ASSERT_EQ(0, ops[i].reserved);
	}
}

static void check_wait_result(struct __test_metadata *_metadata,
			      FIXTURE_DATA(badinput) *self,
			      const union arg *a)
{
	const struct ncsync_wait *w = &a->wait;

	EXPECT_EQ(w->bank == NCSYNC_BANK_SEM ? seed_sem(w->index) :
					       (__s32)seed_evt(w->index),
		  w->result);
}

static void check_ack(struct __test_metadata *_metadata,
		      FIXTURE_DATA(badinput) *self, const union arg *a)
{
	struct ncsync_stats st;

	ASSERT_EQ(0, ioctl(self->fd, NCSYNC_IOC_STATS, &st));
	EXPECT_EQ(st.seq, a->seq.seq);
}

static void check_stats(struct __test_metadata *_metadata,
			FIXTURE_DATA(badinput) *self, const union arg *a)
{
	const struct ncsync_stats *st = &a->stats;
	const __u64 pat = 0xA5A5A5A5A5A5A5A5ULL;

	EXPECT_NE(pat, st->seq);
	EXPECT_LE(1, st->resets);
	EXPECT_NE(pat, st->event_set_while_set);
	EXPECT_NE(pat, st->event_clear_while_clear);
	EXPECT_NE(pat, st->sem_overflows);
	EXPECT_NE(pat, st->notify_drops);
	EXPECT_NE(pat, st->log_suppressed);
	EXPECT_NE(pat, st->wakeups);
}

/* ---------------------------------------------------------------------- */
/* The table                                                               */

/* The same command with another size or direction. */
#define IOC_RESIZE(_c, _size)						\
	_IOC(_IOC_DIR(_c), _IOC_TYPE(_c), _IOC_NR(_c), (_size))
#define IOC_REDIR(_c)							\
	_IOC(_IOC_DIR(_c) == (_IOC_READ | _IOC_WRITE) ? _IOC_WRITE :	\
	     _IOC_DIR(_c) ^ (_IOC_READ | _IOC_WRITE),			\
	     _IOC_TYPE(_c), _IOC_NR(_c), _IOC_SIZE(_c))

/* ENOTTY: a wrong _IOC_SIZE (shorter, longer, none), a wrong direction */
#define NOTTY_CASES(_n, _cmd)						\
	IOCTL_CASE(_n##_size_short, IOC_RESIZE(_cmd, _IOC_SIZE(_cmd) - 1),\
		   ENOTTY);						\
	IOCTL_CASE(_n##_size_long, IOC_RESIZE(_cmd, _IOC_SIZE(_cmd) + 8),\
		   ENOTTY);						\
	IOCTL_CASE(_n##_size_none, _IO(NCSYNC_IOC_MAGIC, _IOC_NR(_cmd)),\
		   ENOTTY);						\
	IOCTL_CASE(_n##_wrong_direction, IOC_REDIR(_cmd), ENOTTY)

NOTTY_CASES(info, NCSYNC_IOC_INFO);
NOTTY_CASES(op, NCSYNC_IOC_OP);
NOTTY_CASES(batch, NCSYNC_IOC_BATCH);
NOTTY_CASES(wait, NCSYNC_IOC_WAIT);
NOTTY_CASES(reset, NCSYNC_IOC_RESET);
NOTTY_CASES(ack, NCSYNC_IOC_ACK);
NOTTY_CASES(stats, NCSYNC_IOC_STATS);
NOTTY_CASES(submit, NCSYNC_IOC_SUBMIT);
NOTTY_CASES(prog_status, NCSYNC_IOC_PROG_STATUS);
NOTTY_CASES(prog_wait, NCSYNC_IOC_PROG_WAIT);
NOTTY_CASES(prog_cancel, NCSYNC_IOC_PROG_CANCEL);
IOCTL_CASE(ioctl_nr_07, _IOWR(NCSYNC_IOC_MAGIC, 0x07, struct ncsync_op),
	   ENOTTY);
IOCTL_CASE(ioctl_nr_14, _IOWR(NCSYNC_IOC_MAGIC, 0x14, struct ncsync_op),
	   ENOTTY);
IOCTL_CASE(ioctl_nr_ff, _IOR(NCSYNC_IOC_MAGIC, 0xFF, struct ncsync_info),
	   ENOTTY);
IOCTL_CASE(ioctl_other_magic, _IOR(0xCF, 0x00, struct ncsync_info), ENOTTY);
IOCTL_CASE(ioctl_zero, 0, ENOTTY);
IOCTL_CASE(ioctl_tcgets, TCGETS, ENOTTY);

/*
 * Bad argument pointers.  The templates are valid requests that change
 * the core (or, for the _IOR commands, acknowledge the change sequence),
 * so a pointer wrongly accepted shows up.
 */
#define T_OP_SET	.arg.op = { .bank = NCSYNC_BANK_SEM,		\
				    .op = NCSYNC_OP_SET, .index = 7,	\
				    .value = 0x1234 }
#define T_OP_READ	.arg.op = { .bank = NCSYNC_BANK_SEM,		\
				    .op = NCSYNC_OP_READ, .index = 7 }
#define T_BATCH		.arg.batch = { .count = 16 }
#define T_WAIT_CONSUME	.arg.wait = { .bank = NCSYNC_BANK_EVENT,	\
				      .mode = NCSYNC_WAIT_EVT_SET_THEN_CLEAR }
#define T_SUBMIT	.arg.submit = { .nqueues = 1 }
#define T_NONE		.fdk = F_RW

#define PTR_CASES(_n, _cmd, ...)					\
	IOCTL_CASE(_n##_arg_null, _cmd, EFAULT, .ptr = P_NULL,		\
		   __VA_ARGS__);					\
	IOCTL_CASE(_n##_arg_unmapped, _cmd, EFAULT, .ptr = P_UNMAPPED,	\
		   __VA_ARGS__);					\
	IOCTL_CASE(_n##_arg_kernel, _cmd, EFAULT, .ptr = P_KERNEL,	\
		   __VA_ARGS__);					\
	IOCTL_CASE(_n##_arg_above_user, _cmd, EFAULT, .ptr = P_HIGH,	\
		   __VA_ARGS__);					\
	IOCTL_CASE(_n##_arg_straddles_hole, _cmd, EFAULT,		\
		   .ptr = P_STRADDLE, __VA_ARGS__)
/* and, for the commands that write their argument back: */
#define RO_CASE(_n, _cmd, ...)						\
	IOCTL_CASE(_n##_arg_read_only, _cmd, EFAULT, .ptr = P_RO,	\
		   __VA_ARGS__)

PTR_CASES(info, NCSYNC_IOC_INFO, T_NONE);
RO_CASE(info, NCSYNC_IOC_INFO, T_NONE);
PTR_CASES(op, NCSYNC_IOC_OP, T_OP_SET);
RO_CASE(op, NCSYNC_IOC_OP, T_OP_SET);
/* A read writes its argument once, at the end: it must fail there. */
PTR_CASES(op_read, NCSYNC_IOC_OP, T_OP_READ);
RO_CASE(op_read, NCSYNC_IOC_OP, T_OP_READ);
PTR_CASES(batch, NCSYNC_IOC_BATCH, T_BATCH);
PTR_CASES(wait, NCSYNC_IOC_WAIT, T_WAIT_CONSUME);
RO_CASE(wait, NCSYNC_IOC_WAIT, T_WAIT_CONSUME);
PTR_CASES(reset, NCSYNC_IOC_RESET, T_NONE);
PTR_CASES(ack, NCSYNC_IOC_ACK, T_NONE);
RO_CASE(ack, NCSYNC_IOC_ACK, T_NONE);
PTR_CASES(stats, NCSYNC_IOC_STATS, T_NONE);
RO_CASE(stats, NCSYNC_IOC_STATS, T_NONE);
PTR_CASES(submit, NCSYNC_IOC_SUBMIT, T_SUBMIT);
RO_CASE(submit, NCSYNC_IOC_SUBMIT, T_SUBMIT);
PTR_CASES(prog_status, NCSYNC_IOC_PROG_STATUS, T_RELEASE_DONE);
RO_CASE(prog_status, NCSYNC_IOC_PROG_STATUS, T_RELEASE_DONE);
PTR_CASES(prog_wait, NCSYNC_IOC_PROG_WAIT, .idk = ID_DONE);
RO_CASE(prog_wait, NCSYNC_IOC_PROG_WAIT, .idk = ID_DONE);
PTR_CASES(prog_cancel, NCSYNC_IOC_PROG_CANCEL, .idk = ID_BLOCKED);

/* ---- NCSYNC_IOC_OP ---- */
#define OP(_bank, _op, _index, _value, ...)				\
	.arg.op = { .bank = (_bank), .op = (_op), .index = (_index),	\
		    .value = (_value), __VA_ARGS__ }
#define S	NCSYNC_BANK_SEM
#define E	NCSYNC_BANK_EVENT

IOCTL_CASE(op_pad_1, NCSYNC_IOC_OP, EINVAL,
	   OP(S, NCSYNC_OP_SET, 7, 1, .pad = 1));
IOCTL_CASE(op_pad_8000, NCSYNC_IOC_OP, EINVAL,
	   OP(S, NCSYNC_OP_SET, 7, 1, .pad = 0x8000));
IOCTL_CASE(op_reserved_1, NCSYNC_IOC_OP, EINVAL,
	   OP(S, NCSYNC_OP_SET, 7, 1, .reserved = 1));
IOCTL_CASE(op_reserved_80000000, NCSYNC_IOC_OP, EINVAL,
	   OP(S, NCSYNC_OP_SET, 7, 1, .reserved = 0x80000000U));
IOCTL_CASE(op_sem_index_256, NCSYNC_IOC_OP, EINVAL,
	   OP(S, NCSYNC_OP_SET, 256, 1));
IOCTL_CASE(op_sem_index_max, NCSYNC_IOC_OP, EINVAL,
	   OP(S, NCSYNC_OP_INC, 0xFFFFFFFFU, 1));
IOCTL_CASE(op_event_index_256, NCSYNC_IOC_OP, EINVAL,
	   OP(E, NCSYNC_OP_CLEAR, 256, 0));
IOCTL_CASE(op_event_index_100000, NCSYNC_IOC_OP, EINVAL,
	   OP(E, NCSYNC_OP_SET, 0x100000, 0));
IOCTL_CASE(op_bank_2, NCSYNC_IOC_OP, EINVAL, OP(2, NCSYNC_OP_SET, 7, 1));
IOCTL_CASE(op_bank_ff, NCSYNC_IOC_OP, EINVAL,
	   OP(0xFF, NCSYNC_OP_SET, 7, 1));
IOCTL_CASE(op_op_5, NCSYNC_IOC_OP, EINVAL, OP(S, 5, 7, 1));
IOCTL_CASE(op_op_ff, NCSYNC_IOC_OP, EINVAL, OP(S, 0xFF, 7, 1));
IOCTL_CASE(op_sem_clear, NCSYNC_IOC_OP, EINVAL,
	   OP(S, NCSYNC_OP_CLEAR, 7, 0));
IOCTL_CASE(op_event_inc, NCSYNC_IOC_OP, EINVAL, OP(E, NCSYNC_OP_INC, 1, 0));
IOCTL_CASE(op_event_dec, NCSYNC_IOC_OP, EINVAL, OP(E, NCSYNC_OP_DEC, 0, 0));
IOCTL_CASE(op_event_op_5, NCSYNC_IOC_OP, EINVAL, OP(E, 5, 0, 0));
IOCTL_CASE(op_sem_read_value, NCSYNC_IOC_OP, EINVAL,
	   OP(S, NCSYNC_OP_READ, 7, 1));
IOCTL_CASE(op_event_read_value, NCSYNC_IOC_OP, EINVAL,
	   OP(E, NCSYNC_OP_READ, 0, 1));
IOCTL_CASE(op_event_set_value, NCSYNC_IOC_OP, EINVAL,
	   OP(E, NCSYNC_OP_SET, 1, 1));
IOCTL_CASE(op_event_clear_value, NCSYNC_IOC_OP, EINVAL,
	   OP(E, NCSYNC_OP_CLEAR, 0, 0x80000000U));
IOCTL_CASE(op_rdonly_sem_set, NCSYNC_IOC_OP, EBADF, .fdk = F_RO,
	   OP(S, NCSYNC_OP_SET, 7, 5));
IOCTL_CASE(op_rdonly_sem_inc, NCSYNC_IOC_OP, EBADF, .fdk = F_RO,
	   OP(S, NCSYNC_OP_INC, 7, 5));
IOCTL_CASE(op_rdonly_sem_dec, NCSYNC_IOC_OP, EBADF, .fdk = F_RO,
	   OP(S, NCSYNC_OP_DEC, 7, 5));
IOCTL_CASE(op_rdonly_sem_inc_zero, NCSYNC_IOC_OP, EBADF, .fdk = F_RO,
	   OP(S, NCSYNC_OP_INC, 7, 0));
IOCTL_CASE(op_rdonly_event_set, NCSYNC_IOC_OP, EBADF, .fdk = F_RO,
	   OP(E, NCSYNC_OP_SET, 1, 0));
IOCTL_CASE(op_rdonly_event_clear, NCSYNC_IOC_OP, EBADF, .fdk = F_RO,
	   OP(E, NCSYNC_OP_CLEAR, 0, 0));
IOCTL_CASE(op_rdonly_einval_before_ebadf, NCSYNC_IOC_OP, EINVAL,
	   .fdk = F_RO, OP(S, NCSYNC_OP_SET, 7, 5, .pad = 1));

/* ---- NCSYNC_IOC_BATCH ---- */
IOCTL_CASE(batch_flags_1, NCSYNC_IOC_BATCH, EINVAL,
	   .arg.batch = { .count = 4, .flags = 1 });
IOCTL_CASE(batch_flags_80000000, NCSYNC_IOC_BATCH, EINVAL,
	   .arg.batch = { .count = 4, .flags = 0x80000000U });
IOCTL_CASE(batch_count_0, NCSYNC_IOC_BATCH, EINVAL,
	   .arg.batch = { .count = 0 });
IOCTL_CASE(batch_count_1025, NCSYNC_IOC_BATCH, EINVAL,
	   .arg.batch = { .count = NCSYNC_MAX_BATCH + 1 });
IOCTL_CASE(batch_count_max, NCSYNC_IOC_BATCH, EINVAL,
	   .arg.batch = { .count = 0xFFFFFFFFU });
IOCTL_CASE(batch_count_1025_ops_null, NCSYNC_IOC_BATCH, EINVAL,
	   .arg.batch = { .count = NCSYNC_MAX_BATCH + 1 }, .inner = P_NULL);
IOCTL_CASE(batch_ops_null, NCSYNC_IOC_BATCH, EFAULT,
	   .arg.batch = { .count = 4 }, .inner = P_NULL);
IOCTL_CASE(batch_ops_unmapped, NCSYNC_IOC_BATCH, EFAULT,
	   .arg.batch = { .count = 4 }, .inner = P_UNMAPPED);
IOCTL_CASE(batch_ops_kernel, NCSYNC_IOC_BATCH, EFAULT,
	   .arg.batch = { .count = 4 }, .inner = P_KERNEL);
IOCTL_CASE(batch_ops_above_user, NCSYNC_IOC_BATCH, EFAULT,
	   .arg.batch = { .count = 4 }, .inner = P_HIGH);
IOCTL_CASE(batch_ops_last_straddles_hole, NCSYNC_IOC_BATCH, EFAULT,
	   .arg.batch = { .count = NCSYNC_MAX_BATCH }, .inner = P_STRADDLE);
IOCTL_CASE(batch_ops_read_only, NCSYNC_IOC_BATCH, EFAULT,
	   .arg.batch = { .count = 16 }, .inner = P_RO);
IOCTL_CASE(batch_bad_first_pad, NCSYNC_IOC_BATCH, EINVAL,
	   .arg.batch = { .count = NCSYNC_MAX_BATCH }, .patch_op = true,
	   .at = 0, .op = { .op = NCSYNC_OP_INC, .value = 1, .pad = 1 });
IOCTL_CASE(batch_bad_last_index, NCSYNC_IOC_BATCH, EINVAL,
	   .arg.batch = { .count = NCSYNC_MAX_BATCH }, .patch_op = true,
	   .at = -1, .op = { .op = NCSYNC_OP_INC, .index = 256, .value = 1 });
IOCTL_CASE(batch_bad_middle_bank, NCSYNC_IOC_BATCH, EINVAL,
	   .arg.batch = { .count = NCSYNC_MAX_BATCH }, .patch_op = true,
	   .at = 512, .op = { .bank = 2, .op = NCSYNC_OP_INC, .value = 1 });
IOCTL_CASE(batch_bad_last_event_inc, NCSYNC_IOC_BATCH, EINVAL,
	   .arg.batch = { .count = 100 }, .patch_op = true, .at = -1,
	   .op = { .bank = E, .op = NCSYNC_OP_INC });
IOCTL_CASE(batch_bad_last_reserved, NCSYNC_IOC_BATCH, EINVAL,
	   .arg.batch = { .count = 2 }, .patch_op = true, .at = -1,
	   .op = { .op = NCSYNC_OP_SET, .reserved = 1 });
IOCTL_CASE(batch_rdonly_update_last, NCSYNC_IOC_BATCH, EBADF, .fdk = F_RO,
	   .arg.batch = { .count = NCSYNC_MAX_BATCH }, .opsk = OPS_READ,
	   .patch_op = true, .at = -1,
	   .op = { .op = NCSYNC_OP_SET, .index = 3, .value = 9 });
IOCTL_CASE(batch_rdonly_einval_before_ebadf, NCSYNC_IOC_BATCH, EINVAL,
	   .fdk = F_RO, .arg.batch = { .count = 8 }, .patch_op = true,
	   .at = -1, .op = { .op = NCSYNC_OP_READ, .value = 1 });

/* ---- NCSYNC_IOC_WAIT ---- */
#define W(_bank, _mode, _index, _value, ...)				\
	.arg.wait = { .bank = (_bank), .mode = (_mode), .index = (_index),\
		      .value = (_value), __VA_ARGS__ }
#define GE	NCSYNC_WAIT_SEM_GE
#define ESET	NCSYNC_WAIT_EVT_SET
#define ECONS	NCSYNC_WAIT_EVT_SET_THEN_CLEAR
#define EPROD	NCSYNC_WAIT_EVT_CLEAR_THEN_SET

/* event 0 is set: each of these would clear it if accepted */
IOCTL_CASE(wait_flags_2, NCSYNC_IOC_WAIT, EINVAL,
	   W(E, ECONS, 0, 0, .flags = 2));
IOCTL_CASE(wait_flags_8000, NCSYNC_IOC_WAIT, EINVAL,
	   W(E, ECONS, 0, 0, .flags = 0x8000));
IOCTL_CASE(wait_flags_ffff, NCSYNC_IOC_WAIT, EINVAL,
	   W(E, ECONS, 0, 0, .flags = 0xFFFF));
IOCTL_CASE(wait_sem_index_256, NCSYNC_IOC_WAIT, EINVAL,
	   W(S, GE, 256, INT_MIN));
IOCTL_CASE(wait_sem_index_max, NCSYNC_IOC_WAIT, EINVAL,
	   W(S, GE, 0xFFFFFFFFU, INT_MIN));
IOCTL_CASE(wait_event_index_256, NCSYNC_IOC_WAIT, EINVAL,
	   W(E, ECONS, 256, 0));
IOCTL_CASE(wait_bank_2, NCSYNC_IOC_WAIT, EINVAL, W(2, ECONS, 0, 0));
IOCTL_CASE(wait_bank_ff, NCSYNC_IOC_WAIT, EINVAL, W(0xFF, GE, 0, INT_MIN));
IOCTL_CASE(wait_sem_mode_none, NCSYNC_IOC_WAIT, EINVAL, W(S, 0, 0, 0));
IOCTL_CASE(wait_event_mode_none, NCSYNC_IOC_WAIT, EINVAL, W(E, 0, 0, 0));
IOCTL_CASE(wait_sem_mode_08, NCSYNC_IOC_WAIT, EINVAL, W(S, 0x08, 0, 0));
IOCTL_CASE(wait_event_mode_08, NCSYNC_IOC_WAIT, EINVAL, W(E, 0x08, 0, 0));
IOCTL_CASE(wait_sem_mode_register_81, NCSYNC_IOC_WAIT, EINVAL,
	   W(S, NCSYNC_WAIT_REG | NCSYNC_WAIT_SEM_EQ, 7, 0));
IOCTL_CASE(wait_sem_mode_register_85, NCSYNC_IOC_WAIT, EINVAL,
	   W(S, NCSYNC_WAIT_REG | GE, 7, 0));
IOCTL_CASE(wait_event_mode_register_87, NCSYNC_IOC_WAIT, EINVAL,
	   W(E, NCSYNC_WAIT_REG | ECONS, 0, 0));
IOCTL_CASE(wait_mode_ff, NCSYNC_IOC_WAIT, EINVAL, W(S, 0xFF, 0, 0));
IOCTL_CASE(wait_sem_bank_event_mode, NCSYNC_IOC_WAIT, EINVAL,
	   W(S, ESET, 7, 0));
IOCTL_CASE(wait_event_bank_sem_mode, NCSYNC_IOC_WAIT, EINVAL,
	   W(E, GE, 0, 0));
IOCTL_CASE(wait_event_value_1, NCSYNC_IOC_WAIT, EINVAL, W(E, ECONS, 0, 1));
IOCTL_CASE(wait_event_value_min, NCSYNC_IOC_WAIT, EINVAL,
	   W(E, ECONS, 0, INT_MIN));
IOCTL_CASE(wait_deadline_nsec_1e9, NCSYNC_IOC_WAIT, EINVAL,
	   W(E, ECONS, 0, 0, .deadline = { 0, NSEC_PER_SEC }));
IOCTL_CASE(wait_deadline_nsec_negative, NCSYNC_IOC_WAIT, EINVAL,
	   W(E, ECONS, 0, 0, .deadline = { 1, -1 }));
IOCTL_CASE(wait_deadline_nsec_huge, NCSYNC_IOC_WAIT, EINVAL,
	   W(E, ECONS, 0, 0, .deadline = { 0, LLONG_MAX }));
IOCTL_CASE(wait_deadline_sec_negative, NCSYNC_IOC_WAIT, EINVAL,
	   W(E, ECONS, 0, 0, .deadline = { -1, 0 }));
IOCTL_CASE(wait_deadline_sec_min, NCSYNC_IOC_WAIT, EINVAL,
	   W(E, ECONS, 0, 0, .deadline = { LLONG_MIN, 0 }));
IOCTL_CASE(wait_no_deadline_with_sec, NCSYNC_IOC_WAIT, EINVAL,
	   W(E, ECONS, 0, 0, .flags = NODL, .deadline = { 1, 0 }));
IOCTL_CASE(wait_no_deadline_with_nsec, NCSYNC_IOC_WAIT, EINVAL,
	   W(E, ECONS, 0, 0, .flags = NODL, .deadline = { 0, 1 }));
IOCTL_CASE(wait_no_deadline_with_bad_nsec, NCSYNC_IOC_WAIT, EINVAL,
	   W(E, ECONS, 0, 0, .flags = NODL, .deadline = { 0, -1 }));
/* past deadlines: the condition is tested once */
IOCTL_CASE(wait_past_deadline_zero, NCSYNC_IOC_WAIT, ETIMEDOUT,
	   W(S, GE, BLK_SEM, 1));
IOCTL_CASE(wait_past_deadline_1ns, NCSYNC_IOC_WAIT, ETIMEDOUT,
	   W(S, NCSYNC_WAIT_SEM_LT, BLK_SEM, INT_MIN,
	     .deadline = { 0, 1 }));
IOCTL_CASE(wait_past_deadline_second_ago, NCSYNC_IOC_WAIT, ETIMEDOUT,
	   .dl = DL_RECENT, W(S, NCSYNC_WAIT_SEM_EQ, 7, 0));
IOCTL_CASE(wait_past_event_set, NCSYNC_IOC_WAIT, ETIMEDOUT,
	   W(E, ESET, 1, 0));
IOCTL_CASE(wait_past_event_consume_clear, NCSYNC_IOC_WAIT, ETIMEDOUT,
	   W(E, ECONS, 1, 0));
IOCTL_CASE(wait_past_event_produce_set, NCSYNC_IOC_WAIT, ETIMEDOUT,
	   W(E, EPROD, 0, 0));
IOCTL_CASE(wait_rdonly_consume, NCSYNC_IOC_WAIT, EBADF, .fdk = F_RO,
	   W(E, ECONS, 0, 0));
IOCTL_CASE(wait_rdonly_produce, NCSYNC_IOC_WAIT, EBADF, .fdk = F_RO,
	   W(E, EPROD, 1, 0));
IOCTL_CASE(wait_rdonly_bad_deadline_einval_first, NCSYNC_IOC_WAIT, EINVAL,
	   .fdk = F_RO, W(E, ECONS, 0, 0, .deadline = { 0, -1 }));

/* ---- NCSYNC_IOC_RESET ---- */
IOCTL_CASE(reset_flags_1, NCSYNC_IOC_RESET, EINVAL,
	   .arg.reset = { .flags = 1 });
IOCTL_CASE(reset_flags_max, NCSYNC_IOC_RESET, EINVAL,
	   .arg.reset = { .flags = 0xFFFFFFFFU });
IOCTL_CASE(reset_pad_1, NCSYNC_IOC_RESET, EINVAL,
	   .arg.reset = { .pad = 1 });
IOCTL_CASE(reset_pad_80000000, NCSYNC_IOC_RESET, EINVAL,
	   .arg.reset = { .pad = 0x80000000U });
IOCTL_CASE(reset_rdonly, NCSYNC_IOC_RESET, EBADF, .fdk = F_RO);
IOCTL_CASE(reset_rdonly_einval_first, NCSYNC_IOC_RESET, EINVAL,
	   .fdk = F_RO, .arg.reset = { .flags = 1 });

/* ---- successful calls: out fields defined, pads zero, nothing changed ---- */
IOCTL_CASE(ok_info, NCSYNC_IOC_INFO, 0, .check = check_info);
IOCTL_CASE(ok_info_rdonly, NCSYNC_IOC_INFO, 0, .fdk = F_RO,
	   .check = check_info);
IOCTL_CASE(ok_info_wronly, NCSYNC_IOC_INFO, 0, .fdk = F_WO,
	   .check = check_info);
IOCTL_CASE(ok_op_read_sem, NCSYNC_IOC_OP, 0, T_OP_READ,
	   .check = check_op_read);
IOCTL_CASE(ok_op_read_sem_255_rdonly, NCSYNC_IOC_OP, 0, .fdk = F_RO,
	   OP(S, NCSYNC_OP_READ, 255, 0), .check = check_op_read);
IOCTL_CASE(ok_op_read_event, NCSYNC_IOC_OP, 0,
	   OP(E, NCSYNC_OP_READ, 3, 0), .check = check_op_read);
IOCTL_CASE(ok_batch_1024_reads, NCSYNC_IOC_BATCH, 0,
	   .arg.batch = { .count = NCSYNC_MAX_BATCH }, .opsk = OPS_READ,
	   .check = check_batch_read);
IOCTL_CASE(ok_batch_read_rdonly, NCSYNC_IOC_BATCH, 0, .fdk = F_RO,
	   .arg.batch = { .count = 1 }, .opsk = OPS_READ,
	   .check = check_batch_read);
IOCTL_CASE(ok_wait_true_past_deadline, NCSYNC_IOC_WAIT, 0,
	   W(S, GE, 9, INT_MIN), .check = check_wait_result);
IOCTL_CASE(ok_wait_event_set_rdonly, NCSYNC_IOC_WAIT, 0, .fdk = F_RO,
	   W(E, ESET, 0, 0), .check = check_wait_result);
IOCTL_CASE(ok_ack, NCSYNC_IOC_ACK, 0, .check = check_ack,
	   .poll_changes = true);
IOCTL_CASE(ok_stats, NCSYNC_IOC_STATS, 0, .check = check_stats);

TEST_HARNESS_MAIN
