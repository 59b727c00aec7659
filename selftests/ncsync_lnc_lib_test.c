// SPDX-License-Identifier: GPL-2.0
/*
 * ncsync selftest: programs across cores through the library
 * (ncsync_program_submit_cores(), ncsync_program_status_core();
 * Documentation/ncsync/engines.rst, "Programs across cores").  Needs the
 * module loaded with lnc of 2 or more, which ncsync_lnc_test.sh does
 * (cores=4 lnc=2); with lnc 1 every test is skipped.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdbool.h>
#include <string.h>
#include <time.h>

#include <linux/ncsync.h>
#include <ncsync.h>

#include "kselftest_harness.h"
#include "ncsync_harness.h"

#define UPD_INC		(NCSYNC_UPD_COMPLETE | NCSYNC_UPD_SEM_INC)

FIXTURE(lnclib) {
	struct ncsync_dev *dev[2];
	struct ncsync_program *p[2];
	unsigned int lnc;
};

FIXTURE_SETUP(lnclib)
{
	unsigned int i;

	for (i = 0; i < 2; i++) {
		ASSERT_EQ(0, ncsync_open(i, true, &self->dev[i]));
		ASSERT_EQ(0, ncsync_reset(self->dev[i]));
		ASSERT_EQ(0, ncsync_program_new(&self->p[i]));
	}
	self->lnc = ncsync_get_info(self->dev[0])->lnc;
}

FIXTURE_TEARDOWN(lnclib)
{
	unsigned int i;

	for (i = 0; i < 2; i++) {
		ncsync_program_free(self->p[i]);
		ncsync_close(self->dev[i]);
	}
}

/* The harness of 6.1 runs a test whose setup skipped: each test checks. */
#define NEED_LNC()							\
	do {								\
		if (self->lnc < 2)					\
			SKIP(return, "lnc is %u: load with lnc=2 (ncsync_lnc_test.sh)", \
			     self->lnc);				\
	} while (0)

/* Core 0's PE waits for the semaphore core 1's copy posts there. */
static void producer_consumer(struct __test_metadata *_metadata,
			      FIXTURE_DATA(lnclib) *self)
{
	struct ncsync_stream *s;

	ASSERT_EQ(0, ncsync_program_stream(self->p[0], NCSYNC_ENGINE_PE, &s));
	ASSERT_LE(0, ncsync_add_semaphore_wait_ge(s, 9, 1));
	ASSERT_LE(0, ncsync_add_semaphore_inc(s, 10));
	ASSERT_EQ(0, ncsync_program_stream(self->p[1], NCSYNC_ENGINE_POOL, &s));
	ASSERT_LE(0, ncsync_add_dma_peer(s, 0, 0, 64, 8, 100, UPD_INC, 9,
					 NULL));
	ASSERT_LE(0, ncsync_add_drain(s, NULL));
}

TEST_F(lnclib, submit_cores_runs_both_parts)
{
	struct ncsync_sem_value sems[NCSYNC_NUM_SEMS];
	struct ncsync_prog_status st;
	struct ncsync_submit_error err;
	unsigned int part = 99;
	uint32_t id, state;

	NEED_LNC();
	producer_consumer(_metadata, self);
	ASSERT_EQ(0, ncsync_program_submit_cores(self->dev, self->p, 2, 0,
						 20000, &id, &err, &part));
	EXPECT_EQ(0U, part);
	ASSERT_EQ(0, ncsync_program_wait(self->dev[0], id, NULL, &state));
	EXPECT_EQ((uint32_t)NCSYNC_PROG_DONE, state);
	EXPECT_EQ(1, ncsync_sem_read(self->dev[0], 10));
	ASSERT_EQ(0, ncsync_program_status_core(self->dev[0], id, 1, &st,
						sems));
	EXPECT_EQ(1U, st.nengines);
	EXPECT_EQ(NCSYNC_ENGINE_POOL, st.engines[0].engine);
	EXPECT_EQ(NCSYNC_ENG_DONE, st.engines[0].state);
	EXPECT_EQ(0U, st.nsems);	/* the update landed on core 0 */
	EXPECT_EQ(-EINVAL, ncsync_program_status_core(self->dev[0], id, 2,
						      &st, NULL));
}

/* A record the kernel refuses on core 1 is named with its part. */
TEST_F(lnclib, submit_cores_names_the_refused_part)
{
	struct ncsync_submit_error err;
	struct ncsync_stream *s;
	unsigned int part = 99;
	uint32_t id = 0;

	NEED_LNC();
	producer_consumer(_metadata, self);
	ASSERT_EQ(0, ncsync_program_stream(self->p[1], NCSYNC_ENGINE_ACT, &s));
	ASSERT_LE(0, ncsync_add_semaphore_inc(s, 11));
	/* Position lnc is outside the logical core: the kernel refuses it. */
	ASSERT_LE(0, ncsync_add_dma_peer(s, self->lnc, 0, 64, 8, 0, UPD_INC,
					 11, NULL));
	EXPECT_EQ(-EINVAL, ncsync_program_submit_cores(self->dev, self->p, 2,
						       0, 20000, &id, &err,
						       &part));
	EXPECT_EQ(1U, part);
	EXPECT_EQ(NCSYNC_ENGINE_ACT, err.engine);
	EXPECT_EQ(1U, err.index);
	EXPECT_EQ((uint32_t)NCSYNC_REC_DMA_PEER_OUTSIDE, err.reason);
	EXPECT_EQ(0, ncsync_sem_read(self->dev[1], 11));
}

/* Cores of two logical cores, the same core twice, no parts: refused. */
TEST_F(lnclib, submit_cores_refuses_bad_devices)
{
	struct ncsync_dev *other, *devs[2];
	unsigned int part;

	NEED_LNC();
	producer_consumer(_metadata, self);
	if (ncsync_get_info(self->dev[0])->num_cores < 2 * self->lnc)
		SKIP(return, "one logical core only");
	ASSERT_EQ(0, ncsync_open(self->lnc, true, &other));
	devs[0] = self->dev[0];
	devs[1] = other;
	EXPECT_EQ(-EXDEV, ncsync_program_submit_cores(devs, self->p, 2, 0, 0,
						      NULL, NULL, &part));
	devs[1] = self->dev[0];
	EXPECT_EQ(-EINVAL, ncsync_program_submit_cores(devs, self->p, 2, 0, 0,
						       NULL, NULL, &part));
	EXPECT_EQ(-EINVAL, ncsync_program_submit_cores(devs, self->p, 0, 0, 0,
						       NULL, NULL, &part));
	ncsync_close(other);
	EXPECT_EQ(0, ncsync_sem_read(self->dev[0], 10));
}

TEST_HARNESS_MAIN
