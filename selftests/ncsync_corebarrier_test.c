// SPDX-License-Identifier: GPL-2.0
/*
 * ncsync selftest: the core barrier, ncsync_add_core_barrier() and the
 * raw CoreBarrier record 0xD8 the library lowers, and the lower_control
 * fence with its CoreBarrier leg (Documentation/ncsync/barriers.rst, "The
 * core barrier"), on every core of the logical core of /dev/ncsync0.
 * Each core runs its own program of five engines; the programs meet at
 * their core barriers.
 *
 * Run directly (lnc 1) the logical core is core 0 alone: its lowest engine
 * arrives on itself, and the loop tests run there (the fence then has no
 * leg); the tests of a core held until the others arrive and of one
 * program across cores of 10,000 passes need two cores and skip.
 * ncsync_lnc_test.sh runs the binary again with cores=4 lnc=2.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include <ncsync.h>

#include "kselftest_harness.h"
#include "ncsync_harness.h"

#define SEM		20	/* the barrier semaphore */
#define DONE_SEM	21	/* counts the engines past the first barrier */
#define PASSES		10000
#define SHORT_PASSES	200	/* the loops of the raw 0xD8 and the fence */
#define WD_MS		20000	/* watchdog of a program that must not stall */
#define PROG_MS		600000	/* deadline of a program that must end */

static const uint8_t engines[NCSYNC_NUM_ENGINES] = {
	NCSYNC_ENGINE_POOL, NCSYNC_ENGINE_ACT, NCSYNC_ENGINE_PE,
	NCSYNC_ENGINE_DVE, NCSYNC_ENGINE_SP,
};

FIXTURE(corebar) {
	unsigned int lnc;
	struct ncsync_dev *dev[NCSYNC_MAX_LNC];
	uint32_t id[NCSYNC_MAX_LNC];
};

FIXTURE_SETUP(corebar)
{
	unsigned int c;

	ASSERT_EQ(0, ncsync_open(0, true, &self->dev[0]));
	self->lnc = ncsync_get_info(self->dev[0])->lnc;
	if (!self->lnc)
		self->lnc = 1;
	for (c = 1; c < self->lnc; c++)
		ASSERT_EQ(0, ncsync_open(c, true, &self->dev[c]));
	for (c = 0; c < self->lnc; c++) {
		ASSERT_EQ(0, ncsync_sem_set(self->dev[c], SEM, 0, NULL));
		ASSERT_EQ(0, ncsync_sem_set(self->dev[c], DONE_SEM, 0, NULL));
	}
}

FIXTURE_TEARDOWN(corebar)
{
	unsigned int c;

	for (c = 0; c < self->lnc; c++)
		if (self->dev[c])
			ncsync_close(self->dev[c]);
}

/*
 * The program of one core: on every engine a counted loop (r1) of
 * @passes passes, each a core barrier over @lnc cores and then +1 on
 * DONE_SEM.
 */
static struct ncsync_program *build(struct __test_metadata *_metadata,
				    unsigned int lnc, uint32_t passes)
{
	struct ncsync_stream *s[NCSYNC_NUM_ENGINES];
	struct ncsync_program *p;
	int loop[NCSYNC_NUM_ENGINES];
	unsigned int k;

	EXPECT_EQ(0, ncsync_program_new(&p));
	for (k = 0; k < NCSYNC_NUM_ENGINES; k++) {
		EXPECT_EQ(0, ncsync_program_stream(p, engines[k], &s[k]));
		loop[k] = ncsync_label_new(p);
		EXPECT_LE(0, ncsync_add_mov32_imm(s[k], 1, 0, NULL));
		EXPECT_LE(0, ncsync_label_bind(s[k], loop[k]));
	}
	EXPECT_EQ(0, ncsync_add_core_barrier(p, SEM, lnc));
	for (k = 0; k < NCSYNC_NUM_ENGINES; k++) {
		EXPECT_LE(0, ncsync_add_semaphore_inc(s[k], DONE_SEM));
		EXPECT_LE(0, ncsync_add_mov32(s[k], NCSYNC_ALU_ADD_IMM, 1, 1,
					      1, NULL));
		EXPECT_LE(0, ncsync_add_branch_imm(s[k], NCSYNC_BR_LT,
						   NCSYNC_DTYPE_U32, 1, passes,
						   loop[k], NULL));
		EXPECT_LE(0, ncsync_add_exit(s[k], NULL));
	}
	EXPECT_EQ(0, ncsync_program_finalize(p));
	return p;
}

static void submit(struct __test_metadata *_metadata, struct ncsync_dev *dev,
		   struct ncsync_program *p, uint32_t *id)
{
	struct ncsync_submit_error err;
	int ret = ncsync_program_submit(dev, p, 0, WD_MS, id, &err);

	ASSERT_EQ(0, ret) TH_LOG("submission: %s; engine %u record %u: %s",
				 strerror(-ret), err.engine, err.index,
				 ncsync_reason_name(err.reason));
}

/* Program @id on @dev ends done. */
static void expect_done(struct __test_metadata *_metadata,
			struct ncsync_dev *dev, uint32_t id)
{
	struct timespec dl;
	uint32_t state = UINT32_MAX;

	clock_gettime(CLOCK_MONOTONIC, &dl);
	dl.tv_sec += PROG_MS / 1000;
	ASSERT_EQ(0, ncsync_program_wait(dev, id, &dl, &state));
	EXPECT_EQ(NCSYNC_PROG_DONE, (int)state);
}

/*
 * Whether Pool of program @id waits on @sem (its core barrier's), as
 * NCSYNC_IOC_PROG_STATUS shows it, within 20 s.  A program still queued
 * for its engines is polled again; one that ended is false.
 */
static bool pool_waits_on(struct ncsync_dev *dev, uint32_t id, int sem)
{
	struct ncsync_prog_status st;
	int i;

	for (i = 0; i < 2000; i++) {
		if (ncsync_program_status(dev, id, false, &st, NULL) ||
		    (st.state != NCSYNC_PROG_RUNNING &&
		     st.state != NCSYNC_PROG_QUEUED))
			return false;
		if (st.engines[0].state == NCSYNC_ENG_BLOCKED &&
		    st.engines[0].wait_kind == NCSYNC_BLOCK_SEM &&
		    st.engines[0].wait_index == sem)
			return true;
		nanosleep(&(struct timespec){ .tv_nsec = 10000000 }, NULL);
	}
	return false;
}

/*
 * Every core of the logical core runs 10,000 core barriers on five
 * engines, submitted one core after the other; all end done, every
 * engine counted every pass, and the barrier semaphore is back at 0 on
 * every core.
 */
TEST_F_TIMEOUT(corebar, loop_10000_five_engines_a_core, 900)
{
	struct ncsync_program *p[NCSYNC_MAX_LNC];
	unsigned int c;

	for (c = 0; c < self->lnc; c++) {
		p[c] = build(_metadata, self->lnc, PASSES);
		submit(_metadata, self->dev[c], p[c], &self->id[c]);
	}
	for (c = 0; c < self->lnc; c++) {
		expect_done(_metadata, self->dev[c], self->id[c]);
		EXPECT_EQ(5 * PASSES, ncsync_sem_read(self->dev[c], DONE_SEM))
			TH_LOG("core %u", c);
		EXPECT_EQ(0, ncsync_sem_read(self->dev[c], SEM))
			TH_LOG("core %u", c);
		ncsync_program_free(p[c]);
	}
}

/*
 * @p (one pass a core) submitted one core after the other: core 0's
 * alone has Pool wait on @sem with @held counted on DONE_SEM; once the
 * others run, all end done, 5 counted on each core and @sem back at 0.
 */
static void hold_then_run(struct __test_metadata *_metadata,
			  FIXTURE_DATA(corebar) *self,
			  struct ncsync_program **p, int sem, int held)
{
	unsigned int c;

	submit(_metadata, self->dev[0], p[0], &self->id[0]);
	ASSERT_TRUE(pool_waits_on(self->dev[0], self->id[0], sem));
	EXPECT_EQ(held, ncsync_sem_read(self->dev[0], DONE_SEM));
	for (c = 1; c < self->lnc; c++)
		submit(_metadata, self->dev[c], p[c], &self->id[c]);
	for (c = 0; c < self->lnc; c++) {
		expect_done(_metadata, self->dev[c], self->id[c]);
		EXPECT_EQ(5, ncsync_sem_read(self->dev[c], DONE_SEM))
			TH_LOG("core %u", c);
		EXPECT_EQ(0, ncsync_sem_read(self->dev[c], sem))
			TH_LOG("core %u", c);
		ncsync_program_free(p[c]);
	}
}

/*
 * A core that reaches its core barrier waits there, its engines with it,
 * until every other core of the logical core has arrived: core 0's
 * program alone stays at its first barrier with nothing counted; once
 * the others run, all pass.
 */
TEST_F_TIMEOUT(corebar, holds_until_every_core_arrives, 300)
{
	struct ncsync_program *p[NCSYNC_MAX_LNC];
	unsigned int c;

	if (self->lnc < 2)
		SKIP(return, "needs a logical core of two cores (lnc=2)");
	for (c = 0; c < self->lnc; c++)
		p[c] = build(_metadata, self->lnc, 1);
	hold_then_run(_metadata, self, p, SEM, 0);
}

/*
 * The done-when: one program across the cores of the logical core
 * (ncsync_program_submit_cores(), all parts started together), five
 * engines a core, meeting at a core barrier 10,000 times; it ends done,
 * with every pass counted on every core and the barrier semaphore back at
 * 0 everywhere.
 */
TEST_F_TIMEOUT(corebar, one_program_across_cores_10000, 900)
{
	struct ncsync_program *p[NCSYNC_MAX_LNC];
	struct ncsync_submit_error err;
	unsigned int c, part = 0;
	uint32_t id = 0;
	int ret;

	if (self->lnc < 2)
		SKIP(return, "needs a logical core of two cores (lnc=2)");
	for (c = 0; c < self->lnc; c++)
		p[c] = build(_metadata, self->lnc, PASSES);
	ret = ncsync_program_submit_cores(self->dev, p, self->lnc, 0, WD_MS,
					  &id, &err, &part);
	ASSERT_EQ(0, ret) TH_LOG("submission: %s; part %u engine %u record %u",
				 strerror(-ret), part, err.engine, err.index);
	expect_done(_metadata, self->dev[0], id);
	for (c = 0; c < self->lnc; c++) {
		EXPECT_EQ(5 * PASSES, ncsync_sem_read(self->dev[c], DONE_SEM))
			TH_LOG("core %u", c);
		EXPECT_EQ(0, ncsync_sem_read(self->dev[c], SEM))
			TH_LOG("core %u", c);
		ncsync_program_free(p[c]);
	}
}

/*
 * Submit @p (one per core) as one program across the cores, or on core 0
 * alone when the logical core has one; wait until it ends done.
 */
static void run_parts(struct __test_metadata *_metadata,
		      FIXTURE_DATA(corebar) *self, struct ncsync_program **p)
{
	struct ncsync_submit_error err;
	unsigned int part = 0;
	uint32_t id = 0;
	int ret;

	if (self->lnc < 2)
		ret = ncsync_program_submit(self->dev[0], p[0], 0, WD_MS, &id,
					    &err);
	else
		ret = ncsync_program_submit_cores(self->dev, p, self->lnc, 0,
						  WD_MS, &id, &err, &part);
	ASSERT_EQ(0, ret) TH_LOG("submission: %s; part %u engine %u record %u: %s",
				 strerror(-ret), part, err.engine, err.index,
				 ncsync_program_lower_error(p[part]) ?: "");
	expect_done(_metadata, self->dev[0], id);
}

/*
 * The program of one core, from raw 0xD8 records (this test's own
 * bytes): on every engine a loop of @passes passes, each a CoreBarrier
 * on SEM and then +1 on DONE_SEM.  Neither lowered nor given an lnc: the
 * submission lowers it for the device's.
 */
static struct ncsync_program *build_raw(struct __test_metadata *_metadata,
					uint32_t passes)
{
	uint8_t d8[64] = { 0xD8, 0x10, [0x0C] = 0x2A, [0x10] = SEM };
	struct ncsync_program *p;
	struct ncsync_stream *s;
	unsigned int k;
	int loop;

	EXPECT_EQ(0, ncsync_program_new(&p));
	for (k = 0; k < NCSYNC_NUM_ENGINES; k++)
		EXPECT_EQ(0, ncsync_program_stream(p, engines[k], &s));
	for (k = 0; k < NCSYNC_NUM_ENGINES; k++) {
		s = ncsync_program_find_stream(p, engines[k]);
		loop = ncsync_label_new(p);
		EXPECT_LE(0, ncsync_add_mov32_imm(s, 1, 0, NULL));
		EXPECT_LE(0, ncsync_label_bind(s, loop));
		EXPECT_LE(0, ncsync_add_raw(s, d8));
		EXPECT_LE(0, ncsync_add_semaphore_inc(s, DONE_SEM));
		EXPECT_LE(0, ncsync_add_mov32(s, NCSYNC_ALU_ADD_IMM, 1, 1, 1,
					      NULL));
		EXPECT_LE(0, ncsync_add_branch_imm(s, NCSYNC_BR_LT,
						   NCSYNC_DTYPE_U32, 1, passes,
						   loop, NULL));
		EXPECT_LE(0, ncsync_add_exit(s, NULL));
	}
	return p;
}

/*
 * One program across the cores built from raw 0xD8 records, lowered at
 * submission for the device's lnc: 200 passes, five engines a core; it
 * ends done, every pass counted on every core, SEM back at 0.
 */
TEST_F_TIMEOUT(corebar, raw_d8_across_cores_200, 300)
{
	struct ncsync_program *p[NCSYNC_MAX_LNC];
	unsigned int c;

	for (c = 0; c < self->lnc; c++)
		p[c] = build_raw(_metadata, SHORT_PASSES);
	run_parts(_metadata, self, p);
	for (c = 0; c < self->lnc; c++) {
		EXPECT_EQ(5 * SHORT_PASSES,
			  ncsync_sem_read(self->dev[c], DONE_SEM))
			TH_LOG("core %u", c);
		EXPECT_EQ(0, ncsync_sem_read(self->dev[c], SEM))
			TH_LOG("core %u", c);
		ncsync_program_free(p[c]);
	}
}

/*
 * The program of one core for the fence test: lnc set; the allocated
 * semaphore *@a counted up by Pool each pass and reset by the fence; the
 * fence's CoreBarrier semaphore in *@leg.
 */
static struct ncsync_program *build_fence(struct __test_metadata *_metadata,
					  unsigned int lnc, uint32_t passes,
					  int *a, int *leg)
{
	struct ncsync_stream *s[NCSYNC_NUM_ENGINES];
	struct ncsync_program *p;
	int loop[NCSYNC_NUM_ENGINES];
	const uint8_t *r;
	unsigned int k;

	EXPECT_EQ(0, ncsync_program_new(&p));
	EXPECT_EQ(0, ncsync_program_set_lnc(p, lnc));
	*a = ncsync_sem_alloc(p, 1);
	*leg = *a;	/* none with lnc 1 */
	for (k = 0; k < NCSYNC_NUM_ENGINES; k++) {
		EXPECT_EQ(0, ncsync_program_stream(p, engines[k], &s[k]));
		loop[k] = ncsync_label_new(p);
		EXPECT_LE(0, ncsync_add_mov32_imm(s[k], 1, 0, NULL));
		EXPECT_LE(0, ncsync_label_bind(s[k], loop[k]));
		EXPECT_LE(0, ncsync_add_semaphore_inc(s[k], DONE_SEM));
	}
	EXPECT_LE(0, ncsync_add_semaphore_inc(s[0], *a));
	k = ncsync_stream_count(s[0]);
	EXPECT_EQ(0, ncsync_add_lower_control_fence(p));
	/* Its last record, on Pool: the leg's 0xD8 when lnc > 1. */
	r = ncsync_stream_peek(s[0], ncsync_stream_count(s[0]) - 1);
	if (lnc > 1) {
		ASSERT_EQ(0xD8, r[0]);
		*leg = r[0x10];
	}
	EXPECT_EQ(k + (lnc > 1 ? 5 : 4), ncsync_stream_count(s[0]));
	for (k = 0; k < NCSYNC_NUM_ENGINES; k++) {
		EXPECT_LE(0, ncsync_add_mov32(s[k], NCSYNC_ALU_ADD_IMM, 1, 1,
					      1, NULL));
		EXPECT_LE(0, ncsync_add_branch_imm(s[k], NCSYNC_BR_LT,
						   NCSYNC_DTYPE_U32, 1, passes,
						   loop[k], NULL));
		EXPECT_LE(0, ncsync_add_exit(s[k], NULL));
	}
	return p;
}

/*
 * The lower_control fence with its CoreBarrier leg (lnc 2: the leg is
 * there), 200 times in a loop, as one program across the cores: it ends
 * done, every pass counted, the allocated semaphore reset by the last
 * fence and the leg's semaphore back at 0 on every core.
 */
TEST_F_TIMEOUT(corebar, fence_core_leg_across_cores_200, 300)
{
	struct ncsync_program *p[NCSYNC_MAX_LNC];
	unsigned int c;
	int a = 0, leg = 0;

	for (c = 0; c < self->lnc; c++) {
		p[c] = build_fence(_metadata, self->lnc, SHORT_PASSES, &a,
				   &leg);
		ASSERT_EQ(0, ncsync_sem_set(self->dev[c], a, 0, NULL));
		ASSERT_EQ(0, ncsync_sem_set(self->dev[c], leg, 0, NULL));
	}
	run_parts(_metadata, self, p);
	for (c = 0; c < self->lnc; c++) {
		EXPECT_EQ(5 * SHORT_PASSES,
			  ncsync_sem_read(self->dev[c], DONE_SEM))
			TH_LOG("core %u", c);
		EXPECT_EQ(0, ncsync_sem_read(self->dev[c], a))
			TH_LOG("core %u", c);
		EXPECT_EQ(0, ncsync_sem_read(self->dev[c], leg))
			TH_LOG("core %u", c);
		ncsync_program_free(p[c]);
	}
}

/*
 * The fence's leg holds: core 0's program of one fence, submitted alone,
 * has Pool wait at the leg's core barrier (every engine counted its pass
 * before the fence) until the other cores' programs run; then all end
 * done, the leg's semaphore back at 0.
 */
TEST_F_TIMEOUT(corebar, fence_core_leg_holds, 300)
{
	struct ncsync_program *p[NCSYNC_MAX_LNC];
	unsigned int c;
	int a = 0, leg = 0;

	if (self->lnc < 2)
		SKIP(return, "needs a logical core of two cores (lnc=2)");
	for (c = 0; c < self->lnc; c++) {
		p[c] = build_fence(_metadata, self->lnc, 1, &a, &leg);
		ASSERT_EQ(0, ncsync_sem_set(self->dev[c], a, 0, NULL));
		ASSERT_EQ(0, ncsync_sem_set(self->dev[c], leg, 0, NULL));
	}
	hold_then_run(_metadata, self, p, leg, 5);
}

TEST_HARNESS_MAIN
