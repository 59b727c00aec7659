// SPDX-License-Identifier: GPL-2.0
/*
 * The bad-input table (ncsync_badinput.h), submission and the program
 * ioctls: NCSYNC_IOC_SUBMIT (and every record of the shared bad-record
 * table), NCSYNC_IOC_PROG_STATUS, NCSYNC_IOC_PROG_WAIT,
 * NCSYNC_IOC_PROG_CANCEL, and their successful calls (ok_*).
 *
 * Run inside the test VM:  tools/vm-run build/selftests/ncsync_badinput_prog_test
 */
#include "ncsync_badinput.h"

/* ---------------------------------------------------------------------- */
/* ioctl cases: checks of successful calls                                 */

static void check_submit_ok(struct __test_metadata *_metadata,
			    FIXTURE_DATA(badinput) *self, const union arg *a)
{
	const struct ncsync_submit *s = &a->submit;
	struct ncsync_prog_wait pw = { .id = s->id };
	struct ncsync_prog_status ps;

	EXPECT_NE(0, s->id);
	EXPECT_NE(A5, s->id);
	EXPECT_EQ(0, s->bad_engine);
	EXPECT_EQ(0, s->bad_index);
	EXPECT_EQ(0, s->reason);
	EXPECT_EQ(0, s->reserved);
	pw.deadline = ts_of(now_ns() + LONG_MS * NSEC_PER_MSEC);
	ASSERT_EQ(0, ioctl(self->fd, NCSYNC_IOC_PROG_WAIT, &pw));
	EXPECT_EQ(NCSYNC_PROG_DONE, pw.state);
	EXPECT_EQ(0, prog_status(self->fd, s->id, NCSYNC_STATUS_F_RELEASE, &ps,
			       NULL));
}

static void check_status(struct __test_metadata *_metadata,
			 FIXTURE_DATA(badinput) *self, const union arg *a)
{
	const struct ncsync_prog_status *ps = &a->ps;
	const struct ncsync_sem_value *sv = (void *)(uintptr_t)ps->sems;
	const struct ncsync_engine_status *e = &ps->engines[0];
	bool done = ps->id == self->done_id;
	unsigned int i, nonzero = 0;
	const __u8 *b;

	EXPECT_EQ(done ? NCSYNC_PROG_DONE : NCSYNC_PROG_RUNNING, ps->state);
	EXPECT_EQ(0, ps->flags);
	EXPECT_EQ(1, ps->nengines);
	EXPECT_EQ(0, ps->core);
	EXPECT_EQ(done ? NCSYNC_ENGINE_PE : NCSYNC_ENGINE_POOL, e->engine);
	EXPECT_EQ(done ? NCSYNC_ENG_DONE : NCSYNC_ENG_BLOCKED, e->state);
	EXPECT_EQ(NCSYNC_FAULT_NONE, e->fault);
	EXPECT_EQ(done ? NCSYNC_BLOCK_NONE : NCSYNC_BLOCK_SEM, e->wait_kind);
	EXPECT_EQ(done ? 0 : NCSYNC_WAIT_SEM_GE, e->wait_mode);
	EXPECT_EQ(done ? 0 : BLK_SEM, e->wait_index);
	EXPECT_EQ(done ? 0 : 1, e->wait_lane);
	EXPECT_EQ(0, e->pad);
	EXPECT_EQ(done ? 1 : 0, e->pc);
	EXPECT_EQ(done ? 0 : 1, e->wait_threshold);
	EXPECT_EQ(0, e->wait_current);
	EXPECT_EQ(0, e->dma_outstanding);
	EXPECT_EQ(done ? 1 : 0, e->executed);

	/* the entries past nengines: zero, not kernel memory */
	b = (const __u8 *)&ps->engines[1];
	for (i = 0; i < (NCSYNC_NUM_ENGINES - 1) * sizeof(*e); i++) {
		ASSERT_EQ(0, b[i])
			TH_LOG("unused engines[%zu] byte %zu is %#x, not 0 (%s program)",
			       1 + i / sizeof(*e), i % sizeof(*e), b[i],
			       done ? "ended" : "running");
	}

	if (!sv) {
		EXPECT_EQ(0, ps->nsems);
		return;
	}
	for (i = 0; i < 256; i++)
		nonzero += seed_sem(i) != 0;
	EXPECT_EQ(nonzero, ps->nsems);
	for (i = 0; i < ps->nsems && i < 256; i++) {
		ASSERT_GT(256, sv[i].index) TH_LOG("entry %u", i);
		if (i) {
			ASSERT_LT(sv[i - 1].index, sv[i].index);
		}
		ASSERT_EQ(seed_sem(sv[i].index), sv[i].value)
			TH_LOG("entry %u", i);
	}
	/* nothing written past nsems */
	b = (const __u8 *)&sv[ps->nsems < 256 ? ps->nsems : 256];
	for (i = 0; i < (256 - (ps->nsems < 256 ? ps->nsems : 256)) *
			sizeof(*sv); i++) {
		ASSERT_EQ(0xA5, b[i]) TH_LOG("written past nsems");
	}
}

static void check_prog_wait(struct __test_metadata *_metadata,
			    FIXTURE_DATA(badinput) *self, const union arg *a)
{
	EXPECT_EQ(self->done_id, a->pw.id);
	EXPECT_EQ(NCSYNC_PROG_DONE, a->pw.state);
	EXPECT_EQ(0, a->pw.reserved);
}

/* ---- fixes and preparations ---- */

/* sems: room for 10 entries only, then an unmapped page */
static void fix_sems_short(FIXTURE_DATA(badinput) *self, union arg *a,
			   struct ncsync_queue *qs)
{
	char *end = self->b.base + self->b.size;

	memset(end - 80, 0xA5, 80);
	a->ps.sems = (uintptr_t)(end - 80);
}

static void fix_queue_pad0(FIXTURE_DATA(badinput) *self, union arg *a,
			   struct ncsync_queue *qs)
{
	qs[0].pad[0] = 1;
}

static void fix_queue_pad2_last(FIXTURE_DATA(badinput) *self, union arg *a,
				struct ncsync_queue *qs)
{
	qs[4].pad[2] = 0x80;
}

#define FIX_ENGINE(_e)							\
static void fix_engine_##_e(FIXTURE_DATA(badinput) *self, union arg *a,	\
			    struct ncsync_queue *qs)			\
{									\
	qs[0].engine = _e;						\
}
FIX_ENGINE(0)
FIX_ENGINE(4)
FIX_ENGINE(7)
FIX_ENGINE(8)
FIX_ENGINE(255)

static void fix_engine_4_last(FIXTURE_DATA(badinput) *self, union arg *a,
			      struct ncsync_queue *qs)
{
	qs[4].engine = NCSYNC_ENGINE_DMA;
}

static void fix_engine_dup(FIXTURE_DATA(badinput) *self, union arg *a,
			   struct ncsync_queue *qs)
{
	qs[1].engine = qs[0].engine;
}

static void fix_engine_dup_last(FIXTURE_DATA(badinput) *self, union arg *a,
				struct ncsync_queue *qs)
{
	qs[4].engine = qs[0].engine;
}

#define FIX_COUNT(_name, _q, _n)					\
static void fix_count_##_name(FIXTURE_DATA(badinput) *self, union arg *a,\
			      struct ncsync_queue *qs)			\
{									\
	qs[_q].count = _n;						\
}
FIX_COUNT(0, 0, 0)
FIX_COUNT(0_last, 4, 0)
FIX_COUNT(over, 0, NCSYNC_MAX_RECORDS + 1)
FIX_COUNT(max, 0, 0xFFFFFFFFU)
FIX_COUNT(over_last, 4, NCSYNC_MAX_RECORDS + 1)

/* four queues of the most records: past fd_mem_mb before anything is read */
static void fix_huge_program(FIXTURE_DATA(badinput) *self, union arg *a,
			     struct ncsync_queue *qs)
{
	unsigned int i;

	for (i = 0; i < 4; i++) {
		qs[i].count = NCSYNC_MAX_RECORDS;
		qs[i].records = 0;
	}
}

/* the second queue's records are not readable */
static void fix_records_second_null(FIXTURE_DATA(badinput) *self,
				    union arg *a, struct ncsync_queue *qs)
{
	qs[1].records = 0;
}

/* the records of a plain NoOp that changes nothing */
static void fix_plain_noop(FIXTURE_DATA(badinput) *self, union arg *a,
			   struct ncsync_queue *qs)
{
	static __u8 rec[REC];

	enc_header(rec, NCSYNC_OPC_NOOP);
	qs[0].records = (uintptr_t)rec;
	qs[0].count = 1;
}

/* The descriptor holds NCSYNC_MAX_PROGS_PER_FD programs, none ended. */
static void prep_full_of_programs(struct __test_metadata *_metadata,
				  FIXTURE_DATA(badinput) *self)
{
	struct ncsync_prog_status ps;
	__u8 rec[REC];
	unsigned int i;
	__u32 id;

	ASSERT_EQ(0, prog_status(self->fd, self->done_id,
			       NCSYNC_STATUS_F_RELEASE, &ps, NULL));
	self->done_id = 0;
	rec_noop_inc(rec, CANARY_SEM);
	/* queued behind the blocked program on Pool */
	for (i = 1; i < 256; i++) {
		ASSERT_EQ(0, submit_one(self->fd, NCSYNC_ENGINE_POOL, rec, 1,
					WD_MAX, &id))
			TH_LOG("program %u", i);
	}
}

/* ---------------------------------------------------------------------- */
/* The table                                                               */

/* ---- NCSYNC_IOC_SUBMIT ---- */
#define SUB(...)	.arg.submit = { .nqueues = 1, __VA_ARGS__ }

IOCTL_CASE(submit_flags_8, NCSYNC_IOC_SUBMIT, EINVAL, SUB(.flags = 8));
IOCTL_CASE(submit_flags_80000000, NCSYNC_IOC_SUBMIT, EINVAL,
	   SUB(.flags = 0x80000000U));
IOCTL_CASE(submit_reserved_1, NCSYNC_IOC_SUBMIT, EINVAL,
	   SUB(.reserved = 1));
IOCTL_CASE(submit_nqueues_0, NCSYNC_IOC_SUBMIT, EINVAL,
	   .arg.submit = { .nqueues = 0 });
IOCTL_CASE(submit_nqueues_6, NCSYNC_IOC_SUBMIT, EINVAL,
	   .arg.submit = { .nqueues = 6 });
IOCTL_CASE(submit_nqueues_max, NCSYNC_IOC_SUBMIT, EINVAL,
	   .arg.submit = { .nqueues = 0xFFFFFFFFU });
IOCTL_CASE(submit_nqueues_0_queues_null, NCSYNC_IOC_SUBMIT, EINVAL,
	   .arg.submit = { .nqueues = 0 }, .inner = P_NULL);
IOCTL_CASE(submit_watchdog_over_max, NCSYNC_IOC_SUBMIT, EINVAL,
	   SUB(.watchdog_ms = 3600001));
IOCTL_CASE(submit_watchdog_u32_max, NCSYNC_IOC_SUBMIT, EINVAL,
	   SUB(.watchdog_ms = 0xFFFFFFFFU));
IOCTL_CASE(submit_queues_null, NCSYNC_IOC_SUBMIT, EFAULT, SUB(),
	   .inner = P_NULL);
IOCTL_CASE(submit_queues_unmapped, NCSYNC_IOC_SUBMIT, EFAULT, SUB(),
	   .inner = P_UNMAPPED);
IOCTL_CASE(submit_queues_kernel, NCSYNC_IOC_SUBMIT, EFAULT, SUB(),
	   .inner = P_KERNEL);
IOCTL_CASE(submit_queues_above_user, NCSYNC_IOC_SUBMIT, EFAULT, SUB(),
	   .inner = P_HIGH);
IOCTL_CASE(submit_queues_last_straddles_hole, NCSYNC_IOC_SUBMIT, EFAULT,
	   .arg.submit = { .nqueues = 5 }, .inner = P_STRADDLE);
IOCTL_CASE(submit_queue_pad0, NCSYNC_IOC_SUBMIT, EINVAL, SUB(),
	   .fix = fix_queue_pad0);
IOCTL_CASE(submit_queue_pad2_of_fifth, NCSYNC_IOC_SUBMIT, EINVAL,
	   .arg.submit = { .nqueues = 5 }, .fix = fix_queue_pad2_last);
IOCTL_CASE(submit_engine_0, NCSYNC_IOC_SUBMIT, EINVAL, SUB(),
	   .fix = fix_engine_0);
IOCTL_CASE(submit_engine_4_dma, NCSYNC_IOC_SUBMIT, EINVAL, SUB(),
	   .fix = fix_engine_4);
IOCTL_CASE(submit_engine_7, NCSYNC_IOC_SUBMIT, EINVAL, SUB(),
	   .fix = fix_engine_7);
IOCTL_CASE(submit_engine_8, NCSYNC_IOC_SUBMIT, EINVAL, SUB(),
	   .fix = fix_engine_8);
IOCTL_CASE(submit_engine_255, NCSYNC_IOC_SUBMIT, EINVAL, SUB(),
	   .fix = fix_engine_255);
IOCTL_CASE(submit_engine_4_in_fifth, NCSYNC_IOC_SUBMIT, EINVAL,
	   .arg.submit = { .nqueues = 5 }, .fix = fix_engine_4_last);
IOCTL_CASE(submit_engine_twice, NCSYNC_IOC_SUBMIT, EINVAL,
	   .arg.submit = { .nqueues = 2 }, .fix = fix_engine_dup);
IOCTL_CASE(submit_engine_twice_first_and_fifth, NCSYNC_IOC_SUBMIT, EINVAL,
	   .arg.submit = { .nqueues = 5 }, .fix = fix_engine_dup_last);
IOCTL_CASE(submit_count_0, NCSYNC_IOC_SUBMIT, EINVAL, SUB(),
	   .fix = fix_count_0);
IOCTL_CASE(submit_count_0_in_fifth, NCSYNC_IOC_SUBMIT, EINVAL,
	   .arg.submit = { .nqueues = 5 }, .fix = fix_count_0_last);
IOCTL_CASE(submit_count_over_max, NCSYNC_IOC_SUBMIT, EINVAL, SUB(),
	   .fix = fix_count_over);
IOCTL_CASE(submit_count_u32_max, NCSYNC_IOC_SUBMIT, EINVAL, SUB(),
	   .fix = fix_count_max);
IOCTL_CASE(submit_count_over_max_in_fifth, NCSYNC_IOC_SUBMIT, EINVAL,
	   .arg.submit = { .nqueues = 5 }, .fix = fix_count_over_last);
IOCTL_CASE(submit_huge_program_enomem, NCSYNC_IOC_SUBMIT, ENOMEM,
	   .arg.submit = { .nqueues = 4 }, .fix = fix_huge_program);
IOCTL_CASE(submit_records_null, NCSYNC_IOC_SUBMIT, EFAULT, SUB(),
	   .inner2 = P_NULL);
IOCTL_CASE(submit_records_unmapped, NCSYNC_IOC_SUBMIT, EFAULT, SUB(),
	   .inner2 = P_UNMAPPED);
IOCTL_CASE(submit_records_kernel, NCSYNC_IOC_SUBMIT, EFAULT, SUB(),
	   .inner2 = P_KERNEL);
IOCTL_CASE(submit_records_above_user, NCSYNC_IOC_SUBMIT, EFAULT, SUB(),
	   .inner2 = P_HIGH);
IOCTL_CASE(submit_records_last_straddles_hole, NCSYNC_IOC_SUBMIT, EFAULT,
	   SUB(), .count = LONG_Q, .inner2 = P_STRADDLE);
IOCTL_CASE(submit_records_of_second_queue_null, NCSYNC_IOC_SUBMIT, EFAULT,
	   .arg.submit = { .nqueues = 2 }, .count = 100,
	   .fix = fix_records_second_null);
/* decoded 64 at a time: a refused record before the hole wins */
IOCTL_CASE(submit_bad_first_record_then_hole, NCSYNC_IOC_SUBMIT, EINVAL,
	   SUB(), .count = LONG_Q, .inner2 = P_STRADDLE, .rec = true,
	   .opcode = 0xA3, .reason = NCSYNC_REC_BAD_OPCODE);
IOCTL_CASE(submit_bad_last_record_in_hole, NCSYNC_IOC_SUBMIT, EFAULT,
	   .arg.submit = { .nqueues = 2 }, .count = LONG_Q, .at_last = true,
	   .inner2 = P_STRADDLE, .rec = true, .opcode = 0xA3);
IOCTL_CASE(submit_rdonly, NCSYNC_IOC_SUBMIT, EBADF, .fdk = F_RO, SUB());
IOCTL_CASE(submit_rdonly_ebadf_before_einval, NCSYNC_IOC_SUBMIT, EBADF,
	   .fdk = F_RO, SUB(.flags = 2));
IOCTL_CASE(submit_full_descriptor_eagain, NCSYNC_IOC_SUBMIT, EAGAIN, SUB(),
	   .prep = prep_full_of_programs);

/*
 * Every record of the bad-record table (common/test/bad_records.h, which
 * KUnit and the library's host tests run too), at the first record of a
 * long queue (the only queue) and at the last record of a long queue (the
 * second, after a short one).  Filler records are NoOps that would
 * increment CANARY_SEM.
 */
static void __attribute__((constructor)) rec_cases(void)
{
	static FIXTURE_VARIANT(badinput) v[2 * NCSYNC_NUM_BAD_RECORDS];
	static struct __fixture_variant_metadata m[2 * NCSYNC_NUM_BAD_RECORDS];
	static char names[2 * NCSYNC_NUM_BAD_RECORDS][64];
	const struct ncsync_bad_record *b;
	unsigned int i;

	for (i = 0; i < 2 * NCSYNC_NUM_BAD_RECORDS; i++) {
		b = &ncsync_bad_records[i / 2];
		v[i] = (FIXTURE_VARIANT(badinput)) {
			.call = call_ioctl, .cmd = NCSYNC_IOC_SUBMIT,
			.err = EINVAL, .arg.submit = { .nqueues = 1 + i % 2 },
			.count = LONG_Q, .rec = true, .bad = b,
			.reason = b->reason, .at_last = i % 2,
		};
		snprintf(names[i], sizeof(names[i]), "rec_%s_%s", b->name,
			 i % 2 ? "last" : "first");
		m[i].name = names[i];
		m[i].data = &v[i];
	}
	register_variants(&_badinput_fixture_object, m,
			  2 * NCSYNC_NUM_BAD_RECORDS);
}

/* ---- NCSYNC_IOC_PROG_STATUS ---- */
IOCTL_CASE(status_flags_4, NCSYNC_IOC_PROG_STATUS, EINVAL,
	   .arg.ps = { .flags = 4 });
IOCTL_CASE(status_flags_80000000, NCSYNC_IOC_PROG_STATUS, EINVAL,
	   .idk = ID_DONE,
	   .arg.ps = { .flags = 0x80000000U | NCSYNC_STATUS_F_RELEASE });
IOCTL_CASE(status_core_1_without_flag, NCSYNC_IOC_PROG_STATUS, EINVAL,
	   .idk = ID_DONE, .arg.ps = { .flags = NCSYNC_STATUS_F_RELEASE,
				       .core = 1 });
IOCTL_CASE(status_id_0, NCSYNC_IOC_PROG_STATUS, ENOENT, .idk = ID_RAW,
	   .arg.ps = { .id = 0 });
IOCTL_CASE(status_id_999, NCSYNC_IOC_PROG_STATUS, ENOENT, .idk = ID_RAW,
	   .arg.ps = { .id = 999 });
IOCTL_CASE(status_id_max, NCSYNC_IOC_PROG_STATUS, ENOENT, .idk = ID_RAW,
	   .arg.ps = { .id = 0xFFFFFFFFU });
IOCTL_CASE(status_other_open_file, NCSYNC_IOC_PROG_STATUS, ENOENT,
	   .fdk = F_OTHER, .idk = ID_DONE,
	   .arg.ps = { .flags = NCSYNC_STATUS_F_RELEASE });
IOCTL_CASE(status_rdonly_open_file, NCSYNC_IOC_PROG_STATUS, ENOENT,
	   .fdk = F_RO);
IOCTL_CASE(status_release_running_ebusy, NCSYNC_IOC_PROG_STATUS, EBUSY,
	   .arg.ps = { .flags = NCSYNC_STATUS_F_RELEASE });
IOCTL_CASE(status_sems_unmapped, NCSYNC_IOC_PROG_STATUS, EFAULT,
	   T_RELEASE_DONE, .inner = P_UNMAPPED);
IOCTL_CASE(status_sems_kernel, NCSYNC_IOC_PROG_STATUS, EFAULT,
	   T_RELEASE_DONE, .inner = P_KERNEL);
IOCTL_CASE(status_sems_above_user, NCSYNC_IOC_PROG_STATUS, EFAULT,
	   T_RELEASE_DONE, .inner = P_HIGH);
IOCTL_CASE(status_sems_read_only, NCSYNC_IOC_PROG_STATUS, EFAULT,
	   T_RELEASE_DONE, .inner = P_RO);
IOCTL_CASE(status_sems_too_short, NCSYNC_IOC_PROG_STATUS, EFAULT,
	   T_RELEASE_DONE, .fix = fix_sems_short);
IOCTL_CASE(status_running_sems_kernel, NCSYNC_IOC_PROG_STATUS, EFAULT,
	   .inner = P_KERNEL);

/* ---- NCSYNC_IOC_PROG_WAIT ---- */
#define PW(...)		.arg.pw = { __VA_ARGS__ }

IOCTL_CASE(prog_wait_flags_2, NCSYNC_IOC_PROG_WAIT, EINVAL,
	   .idk = ID_DONE, PW(.flags = 2));
IOCTL_CASE(prog_wait_flags_max, NCSYNC_IOC_PROG_WAIT, EINVAL,
	   .idk = ID_DONE, PW(.flags = 0xFFFFFFFFU));
IOCTL_CASE(prog_wait_reserved_1, NCSYNC_IOC_PROG_WAIT, EINVAL,
	   .idk = ID_DONE, PW(.reserved = 1));
IOCTL_CASE(prog_wait_nsec_1e9, NCSYNC_IOC_PROG_WAIT, EINVAL,
	   .idk = ID_DONE, PW(.deadline = { 0, NSEC_PER_SEC }));
IOCTL_CASE(prog_wait_nsec_negative, NCSYNC_IOC_PROG_WAIT, EINVAL,
	   .idk = ID_DONE, PW(.deadline = { 5, -5 }));
IOCTL_CASE(prog_wait_sec_negative, NCSYNC_IOC_PROG_WAIT, EINVAL,
	   .idk = ID_DONE, PW(.deadline = { -1, 0 }));
IOCTL_CASE(prog_wait_no_deadline_with_sec, NCSYNC_IOC_PROG_WAIT, EINVAL,
	   .idk = ID_DONE, PW(.flags = NODL, .deadline = { 1, 0 }));
IOCTL_CASE(prog_wait_no_deadline_with_nsec, NCSYNC_IOC_PROG_WAIT, EINVAL,
	   .idk = ID_DONE, PW(.flags = NODL, .deadline = { 0, 1 }));
IOCTL_CASE(prog_wait_bad_flags_before_unknown_id, NCSYNC_IOC_PROG_WAIT,
	   EINVAL, .idk = ID_RAW, PW(.id = 999, .flags = 2));
IOCTL_CASE(prog_wait_id_0, NCSYNC_IOC_PROG_WAIT, ENOENT, .idk = ID_RAW,
	   PW(.id = 0));
IOCTL_CASE(prog_wait_id_999, NCSYNC_IOC_PROG_WAIT, ENOENT, .idk = ID_RAW,
	   PW(.id = 999));
IOCTL_CASE(prog_wait_other_open_file, NCSYNC_IOC_PROG_WAIT, ENOENT,
	   .fdk = F_OTHER, .idk = ID_DONE);
IOCTL_CASE(prog_wait_past_deadline_zero, NCSYNC_IOC_PROG_WAIT, ETIMEDOUT);
IOCTL_CASE(prog_wait_past_deadline_1ns, NCSYNC_IOC_PROG_WAIT, ETIMEDOUT,
	   PW(.deadline = { 0, 1 }));
IOCTL_CASE(prog_wait_past_deadline_second_ago, NCSYNC_IOC_PROG_WAIT,
	   ETIMEDOUT, .dl = DL_RECENT);

/* ---- NCSYNC_IOC_PROG_CANCEL: the blocked program would be cancelled ---- */
IOCTL_CASE(cancel_flags_1, NCSYNC_IOC_PROG_CANCEL, EINVAL,
	   .arg.pc = { .flags = 1 });
IOCTL_CASE(cancel_flags_max, NCSYNC_IOC_PROG_CANCEL, EINVAL,
	   .arg.pc = { .flags = 0xFFFFFFFFU });
IOCTL_CASE(cancel_id_0, NCSYNC_IOC_PROG_CANCEL, ENOENT, .idk = ID_RAW,
	   .arg.pc = { .id = 0 });
IOCTL_CASE(cancel_id_999, NCSYNC_IOC_PROG_CANCEL, ENOENT, .idk = ID_RAW,
	   .arg.pc = { .id = 999 });
IOCTL_CASE(cancel_id_max, NCSYNC_IOC_PROG_CANCEL, ENOENT, .idk = ID_RAW,
	   .arg.pc = { .id = 0xFFFFFFFFU });
IOCTL_CASE(cancel_other_open_file, NCSYNC_IOC_PROG_CANCEL, ENOENT,
	   .fdk = F_OTHER);
IOCTL_CASE(cancel_rdonly_open_file, NCSYNC_IOC_PROG_CANCEL, ENOENT,
	   .fdk = F_RO);

/* ---- successful calls: out fields defined, pads zero, nothing changed ---- */
IOCTL_CASE(ok_submit_plain_noop, NCSYNC_IOC_SUBMIT, 0, SUB(),
	   .fix = fix_plain_noop, .check = check_submit_ok);
IOCTL_CASE(ok_status_ended, NCSYNC_IOC_PROG_STATUS, 0, .idk = ID_DONE,
	   .check = check_status);
IOCTL_CASE(ok_status_running, NCSYNC_IOC_PROG_STATUS, 0,
	   .check = check_status);
IOCTL_CASE(ok_status_running_no_sems, NCSYNC_IOC_PROG_STATUS, 0,
	   .inner = P_NULL, .check = check_status);
IOCTL_CASE(ok_status_ended_no_sems, NCSYNC_IOC_PROG_STATUS, 0,
	   .idk = ID_DONE, .inner = P_NULL, .check = check_status);
IOCTL_CASE(ok_prog_wait_ended, NCSYNC_IOC_PROG_WAIT, 0, .idk = ID_DONE,
	   .check = check_prog_wait);
IOCTL_CASE(ok_cancel_ended_does_nothing, NCSYNC_IOC_PROG_CANCEL, 0,
	   .idk = ID_DONE);

TEST_HARNESS_MAIN
