// SPDX-License-Identifier: GPL-2.0
/*
 * ncsync selftest: the core barrier, ncsync_add_core_barrier()
 * (Documentation/ncsync/barriers.rst, "The core barrier"), on every core
 * of the logical core of /dev/ncsync0.  Each core runs its own program of
 * five engines; the programs meet at their core barriers.
 *
 * Run directly (lnc 1) the logical core is core 0 alone: its lowest engine
 * arrives on itself, and the loop test runs there; the tests of a core
 * held until the others arrive and of one program across cores need two
 * cores and skip.
 * ncsync_lnc_test.sh runs the binary again with cores=4 lnc=2.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include <ncsync.h>

#include "kselftest_harness.h"

#define SEM		20	/* the barrier semaphore */
#define DONE_SEM	21	/* counts the engines past the first barrier */
#define PASSES		10000
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
 * Whether Pool of program @id waits on SEM (its core barrier), as
 * NCSYNC_IOC_PROG_STATUS shows it, within 20 s.  A program still queued
 * for its engines is polled again; one that ended is false.
 */
static bool pool_waits_on_barrier(struct ncsync_dev *dev, uint32_t id)
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
		    st.engines[0].wait_index == SEM)
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
	p[0] = build(_metadata, self->lnc, 1);
	submit(_metadata, self->dev[0], p[0], &self->id[0]);
	ASSERT_TRUE(pool_waits_on_barrier(self->dev[0], self->id[0]));
	EXPECT_EQ(0, ncsync_sem_read(self->dev[0], DONE_SEM));
	for (c = 1; c < self->lnc; c++) {
		p[c] = build(_metadata, self->lnc, 1);
		submit(_metadata, self->dev[c], p[c], &self->id[c]);
	}
	for (c = 0; c < self->lnc; c++) {
		expect_done(_metadata, self->dev[c], self->id[c]);
		EXPECT_EQ(5, ncsync_sem_read(self->dev[c], DONE_SEM))
			TH_LOG("core %u", c);
		EXPECT_EQ(0, ncsync_sem_read(self->dev[c], SEM))
			TH_LOG("core %u", c);
		ncsync_program_free(p[c]);
	}
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

TEST_HARNESS_MAIN
