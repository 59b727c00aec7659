// SPDX-License-Identifier: GPL-2.0
/*
 * ncsync selftests of the engines of core 0 (ncsync_engine.h): what
 * submission refuses: every reason of the shared bad-record table
 * (bad_records.h) at index 0 and at the end of 1000 records, the
 * conformance profile (conform_records.h), every malformed submission.
 *
 * Run inside the test VM:
 *   tools/vm-run build/selftests/ncsync_engine_submit_test
 */
#include "ncsync_engine.h"
#include "bad_records.h"
#include "conform_records.h"

/* ---------------------------------------------------------------------- */
/* Invalid records: every reason, at index 0 and at the end of 1000        */

/*
 * One variant per record of the bad-record table (common/test/
 * bad_records.h, which KUnit and the library's host tests run too).
 */
FIXTURE(badrec) {
	int fd;
};

FIXTURE_VARIANT(badrec) {
	const struct ncsync_bad_record *bad;
};

static void __attribute__((constructor)) badrec_variants(void)
{
	static FIXTURE_VARIANT(badrec) v[NCSYNC_NUM_BAD_RECORDS];
	static struct __fixture_variant_metadata m[NCSYNC_NUM_BAD_RECORDS];
	unsigned int i;

	for (i = 0; i < NCSYNC_NUM_BAD_RECORDS; i++) {
		v[i].bad = &ncsync_bad_records[i];
		m[i].name = ncsync_bad_records[i].name;
		m[i].data = &v[i];
	}
	register_variants(&_badrec_fixture_object, m, NCSYNC_NUM_BAD_RECORDS);
}

/* core 0, opened read-write and reset */
static int reset_core_fd(struct __test_metadata *_metadata)
{
	int fd = open(DEV0, O_RDWR | O_CLOEXEC);

	ASSERT_LE(0, fd) TH_LOG("open %s: %s", DEV0, strerror(errno));
	core_reset(_metadata, fd);
	return fd;
}

FIXTURE_SETUP(badrec)
{
	self->fd = reset_core_fd(_metadata);
}

FIXTURE_TEARDOWN(badrec)
{
	if (self->fd >= 0)
		close(self->fd);
}

static void badrec_check(struct __test_metadata *_metadata, int fd,
			 const struct rec_prog *p, __u32 flags, int engine,
			 int index, int reason)
{
	struct ncsync_prog_status ps;
	__s32 before[256], after[256];
	struct ncsync_submit sub;
	int ret;

	sems_get(_metadata, fd, before);
	ret = rec_prog_submit(fd, p, flags, WD_LONG, &sub);
	ASSERT_EQ(-EINVAL, ret);
	EXPECT_EQ(engine, (int)sub.bad_engine);
	EXPECT_EQ(index, (int)sub.bad_index);
	EXPECT_EQ(reason, (int)sub.reason);
	EXPECT_EQ(0, (int)sub.id);
	sleep_ms(20);
	sems_get(_metadata, fd, after);
	EXPECT_EQ(0, memcmp(before, after, sizeof(before)))
		TH_LOG("a record of a refused program ran");
	EXPECT_EQ(-ENOENT, prog_status(fd, 1, 0, &ps, NULL));
}

TEST_F(badrec, alone_at_index_0)
{
	struct rec_prog p = {};
	struct rec_queue *q;

	sem_set(_metadata, self->fd, 1, 7);
	q = rec_prog_queue(&p, NCSYNC_ENGINE_ACT);
	ncsync_bad_record_build(variant->bad, 1, rec_emit(q, 0));
	badrec_check(_metadata, self->fd, &p, 0, NCSYNC_ENGINE_ACT, 0,
		     variant->bad->reason);
	rec_prog_free(&p);
}

TEST_F(badrec, last_of_1000_in_second_queue)
{
	const __u32 n = 1000;
	struct rec_prog p = {};
	struct rec_queue *q;
	unsigned int i;

	q = rec_prog_queue(&p, NCSYNC_ENGINE_POOL);
	for (i = 0; i < 10; i++)
		rec_inc(q, 1);
	q = rec_prog_queue(&p, NCSYNC_ENGINE_SP);
	for (i = 0; i < n - 1; i++)
		rec_inc(q, 2);
	ncsync_bad_record_build(variant->bad, n, rec_emit(q, 0));
	badrec_check(_metadata, self->fd, &p, 0, NCSYNC_ENGINE_SP, n - 1,
		     variant->bad->reason);
	rec_prog_free(&p);
}

/*
 * One variant per kernel rule of the conformance table (common/test/
 * conform_records.h; the 0xD5 entries are the library's,
 * ncsync_lib_barrier_test): with NCSYNC_SUBMIT_F_CONFORM the kernel
 * refuses the record for its reason and nothing runs; without it the same
 * program runs to the end.
 */
FIXTURE(conform) {
	int fd;
};

FIXTURE_VARIANT(conform) {
	const struct ncsync_conform_record *c;
};

static void __attribute__((constructor)) conform_variants(void)
{
	static FIXTURE_VARIANT(conform) v[NCSYNC_NUM_CONFORM_RECORDS];
	static struct __fixture_variant_metadata m[NCSYNC_NUM_CONFORM_RECORDS];
	unsigned int i, n = 0;

	for (i = 0; i < NCSYNC_NUM_CONFORM_RECORDS; i++) {
		const struct ncsync_conform_record *c =
			&ncsync_conform_records[i];

		if (c->rec.opcode == NCSYNC_OPC_ALL_ENGINE_BARRIER)
			continue;
		v[n].c = c;
		m[n].name = c->rec.name;
		m[n].data = &v[n];
		n++;
	}
	register_variants(&_conform_fixture_object, m, n);
}

/* The same core as badrec's: reset before each test. */
FIXTURE_SETUP(conform)
{
	self->fd = reset_core_fd(_metadata);
}

FIXTURE_TEARDOWN(conform)
{
	close(self->fd);
}

/*
 * Pool: +1 on sem 1, for a duplicate an overlapping group
 * (ncsync_conform_earlier()), Exit; SP: +1 on sem 1, the record, Exit.
 */
static void conform_prog(const struct ncsync_conform_record *c,
			 struct rec_prog *p)
{
	struct rec_queue *q;

	__u8 r[REC_SIZE];

	q = rec_prog_queue(p, NCSYNC_ENGINE_POOL);
	rec_inc(q, 1);
	if (c->dup_earlier) {
		ncsync_bad_record_build(&c->rec, 3, r);
		ncsync_conform_earlier(r, rec_emit(q, 0));
	}
	rec_exit(q);
	q = rec_prog_queue(p, NCSYNC_ENGINE_SP);
	rec_inc(q, 1);
	ncsync_bad_record_build(&c->rec, 3, rec_emit(q, 0));
	rec_exit(q);
}

/*
 * A fence as the compiler emits it: every engine resets the same group
 * (SYNC: GroupResetSemaphores "deep-copies its sema_group vector per
 * engine"), and the profile accepts it; a group overlapping it without
 * being it is refused (conform.gr_duplicate_range).
 */
TEST_F(core, conform_same_group_in_every_queue)
{
	static const __u8 engines[] = {
		NCSYNC_ENGINE_POOL, NCSYNC_ENGINE_ACT, NCSYNC_ENGINE_PE,
		NCSYNC_ENGINE_DVE, NCSYNC_ENGINE_SP,
	};
	struct rec_prog p = {};
	unsigned int i;
	__u32 id;

	sem_set(_metadata, self->fd, 6, 9);
	for (i = 0; i < ARRAY_SIZE(engines); i++)
		rec_gr_range(rec_prog_queue(&p, engines[i]), 5, 7);
	id = submit_ok(_metadata, self->fd, &p, NCSYNC_SUBMIT_F_CONFORM,
		       WD_LONG);
	ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->fd, id));
	EXPECT_EQ(0, sem_get(_metadata, self->fd, 6));
	rec_prog_free(&p);
}

TEST_F(conform, refused_with_the_profile)
{
	struct rec_prog p = {};

	conform_prog(variant->c, &p);
	badrec_check(_metadata, self->fd, &p, NCSYNC_SUBMIT_F_CONFORM,
		     NCSYNC_ENGINE_SP, 1, variant->c->rec.reason);
	rec_prog_free(&p);
}

TEST_F(conform, runs_without_it)
{
	struct rec_prog p = {};
	__u32 id;

	conform_prog(variant->c, &p);
	id = submit_ok(_metadata, self->fd, &p, 0, WD_LONG);
	EXPECT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->fd, id));
	EXPECT_EQ(2, sem_get(_metadata, self->fd, 1));
	rec_prog_free(&p);
}

/* ---------------------------------------------------------------------- */
/* Submission errors                                                       */

/* A one-record program on engine Pool, as raw descriptors. */
struct rawsub {
	__u8 rec[REC];
	struct ncsync_queue q[NCSYNC_NUM_ENGINES + 1];
	struct ncsync_submit sub;
};

static void rawsub_init(struct rawsub *rs, unsigned int nq)
{
	unsigned int i;

	memset(rs, 0, sizeof(*rs));
	enc_inc(rs->rec, 1);
	for (i = 0; i < NCSYNC_NUM_ENGINES + 1; i++) {
		rs->q[i].records = (uintptr_t)rs->rec;
		rs->q[i].count = 1;
		rs->q[i].engine = engine_ids[i % NCSYNC_NUM_ENGINES];
	}
	rs->sub.queues = (uintptr_t)rs->q;
	rs->sub.nqueues = nq;
	rs->sub.watchdog_ms = WD_LONG;
}

/* Submit; expect @err; check that nothing ran. */
static void rawsub_fails(struct __test_metadata *_metadata, int fd,
			 struct rawsub *rs, int err)
{
	struct ncsync_prog_status ps;

	EXPECT_EQ(-err, submit_raw(fd, &rs->sub));
	sleep_ms(20);
	EXPECT_EQ(0, sem_get(_metadata, fd, 1)) TH_LOG("a record ran");
	EXPECT_EQ(-ENOENT, prog_status(fd, 1, 0, &ps, NULL));
}

TEST_F(core, submit_valid_reference)
{
	struct rawsub rs;
	__u32 id;

	rawsub_init(&rs, 1);
	ASSERT_EQ(0, submit_raw(self->fd, &rs.sub));
	id = rs.sub.id;
	EXPECT_NE(0U, id);
	ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->fd, id));
	EXPECT_EQ(1, sem_get(_metadata, self->fd, 1));
	rawsub_init(&rs, 5);
	ASSERT_EQ(0, submit_raw(self->fd, &rs.sub));
	EXPECT_NE(id, rs.sub.id);
	ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->fd, rs.sub.id));
	EXPECT_EQ(6, sem_get(_metadata, self->fd, 1));
}

TEST_F(core, submit_nqueues_0_einval)
{
	struct rawsub rs;

	rawsub_init(&rs, 0);
	rawsub_fails(_metadata, self->fd, &rs, EINVAL);
}

TEST_F(core, submit_nqueues_6_einval)
{
	struct rawsub rs;

	rawsub_init(&rs, 6);
	rs.q[5].engine = 4;
	rawsub_fails(_metadata, self->fd, &rs, EINVAL);
	rawsub_init(&rs, 6);
	rawsub_fails(_metadata, self->fd, &rs, EINVAL);
}

TEST_F(core, submit_duplicate_engine_einval)
{
	struct rawsub rs;

	rawsub_init(&rs, 3);
	rs.q[2].engine = rs.q[0].engine;
	rawsub_fails(_metadata, self->fd, &rs, EINVAL);
}

static void bad_engine(struct __test_metadata *_metadata, int fd, __u8 engine)
{
	struct rawsub rs;

	rawsub_init(&rs, 2);
	rs.q[1].engine = engine;
	rawsub_fails(_metadata, fd, &rs, EINVAL);
	rawsub_init(&rs, 1);
	rs.q[0].engine = engine;
	rawsub_fails(_metadata, fd, &rs, EINVAL);
}

TEST_F(core, submit_engine_4_dma_einval)
{
	bad_engine(_metadata, self->fd, NCSYNC_ENGINE_DMA);
}

TEST_F(core, submit_engine_0_einval)
{
	bad_engine(_metadata, self->fd, 0);
}

TEST_F(core, submit_engine_7_einval)
{
	bad_engine(_metadata, self->fd, 7);
	bad_engine(_metadata, self->fd, 8);
	bad_engine(_metadata, self->fd, 33);
	bad_engine(_metadata, self->fd, 255);
}

TEST_F(core, submit_count_0_einval)
{
	struct rawsub rs;

	rawsub_init(&rs, 2);
	rs.q[1].count = 0;
	rawsub_fails(_metadata, self->fd, &rs, EINVAL);
}

/* Refused before any record is read: EINVAL, not EFAULT. */
TEST_F(core, submit_count_too_big_einval)
{
	struct rawsub rs;

	rawsub_init(&rs, 1);
	rs.q[0].count = NCSYNC_MAX_RECORDS + 1;
	rawsub_fails(_metadata, self->fd, &rs, EINVAL);
	rs.q[0].count = 0xFFFFFFFF;
	rawsub_fails(_metadata, self->fd, &rs, EINVAL);
}

TEST_F(core, submit_flags_unknown_einval)
{
	struct rawsub rs;
	unsigned int bit;

	for (bit = 0; bit < 32; bit++) {
		if (NCSYNC_SUBMIT_F_ALL & (1U << bit))
			continue;
		rawsub_init(&rs, 1);
		rs.sub.flags = 1U << bit;
		rawsub_fails(_metadata, self->fd, &rs, EINVAL);
	}
}

TEST_F(core, submit_reserved_nonzero_einval)
{
	struct rawsub rs;

	rawsub_init(&rs, 1);
	rs.sub.reserved = 1;
	rawsub_fails(_metadata, self->fd, &rs, EINVAL);
}

TEST_F(core, submit_queue_pad_nonzero_einval)
{
	struct rawsub rs;
	unsigned int i;

	for (i = 0; i < 3; i++) {
		rawsub_init(&rs, 2);
		rs.q[1].pad[i] = 1;
		rawsub_fails(_metadata, self->fd, &rs, EINVAL);
	}
}

TEST_F(core, submit_queues_pointer_efault)
{
	struct rawsub rs;

	rawsub_init(&rs, 1);
	rs.sub.queues = 0;
	rawsub_fails(_metadata, self->fd, &rs, EFAULT);
	rs.sub.queues = 1;
	rawsub_fails(_metadata, self->fd, &rs, EFAULT);
	rs.sub.queues = ~0ULL - 8;
	rawsub_fails(_metadata, self->fd, &rs, EFAULT);
}

TEST_F(core, submit_records_pointer_efault)
{
	struct rawsub rs;

	rawsub_init(&rs, 2);
	rs.q[1].records = 0;
	rawsub_fails(_metadata, self->fd, &rs, EFAULT);
	rs.q[1].records = 0xFFFF800000000000ULL;
	rawsub_fails(_metadata, self->fd, &rs, EFAULT);
}

/* Records running into an unmapped page: EFAULT, nothing ran. */
TEST_F(core, submit_records_partly_unmapped_efault)
{
	long pg = sysconf(_SC_PAGESIZE);
	unsigned int i, per = pg / REC;
	struct rawsub rs;
	__u8 *buf;

	buf = mmap(NULL, 2 * pg, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, buf);
	for (i = 0; i < 2 * per; i++)
		enc_inc(buf + i * REC, 1);
	ASSERT_EQ(0, munmap(buf + pg, pg));
	rawsub_init(&rs, 1);
	rs.q[0].records = (uintptr_t)buf;
	rs.q[0].count = 2 * per;
	rawsub_fails(_metadata, self->fd, &rs, EFAULT);
	rs.q[0].count = per;	/* the mapped part alone is fine */
	ASSERT_EQ(0, submit_raw(self->fd, &rs.sub));
	ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->fd, rs.sub.id));
	EXPECT_EQ((int)per, sem_get(_metadata, self->fd, 1));
	munmap(buf, pg);
}

TEST_F(core, submit_argument_efault)
{
	EXPECT_EQ(-1, ioctl(self->fd, NCSYNC_IOC_SUBMIT, NULL));
	EXPECT_EQ(EFAULT, errno);
	EXPECT_EQ(-1, ioctl(self->fd, NCSYNC_IOC_SUBMIT, (void *)8));
	EXPECT_EQ(EFAULT, errno);
}

TEST_F(core, submit_read_only_descriptor_ebadf)
{
	struct rawsub rs;
	int ro = open(DEV0, O_RDONLY | O_CLOEXEC);

	ASSERT_LE(0, ro);
	rawsub_init(&rs, 1);
	rawsub_fails(_metadata, ro, &rs, EBADF);
	close(ro);
}

TEST_F(core, submit_pseudo_op_d5_refused)
{
	struct rec_prog p = {};
	struct rec_queue *q;
	struct ncsync_submit sub;

	q = rec_prog_queue(&p, NCSYNC_ENGINE_PE);
	rec_inc(q, 1);
	rec_emit(q, NCSYNC_OPC_ALL_ENGINE_BARRIER);
	rec_inc(q, 1);
	EXPECT_EQ(-EINVAL, rec_prog_submit(self->fd, &p, 0, WD_LONG, &sub));
	EXPECT_EQ(NCSYNC_ENGINE_PE, (int)sub.bad_engine);
	EXPECT_EQ(1, (int)sub.bad_index);
	EXPECT_EQ(NCSYNC_REC_PSEUDO_OP, (int)sub.reason);
	sleep_ms(20);
	EXPECT_EQ(0, sem_get(_metadata, self->fd, 1));
	rec_prog_free(&p);
}

TEST_HARNESS_MAIN
