// SPDX-License-Identifier: GPL-2.0
/*
 * ncsync selftest of logical cores (ncsync_lnc.h), run by
 * ncsync_lnc_test.sh with cores=4 lnc=2.
 *
 * A DMA record with the peer flag lands its completion update on another
 * core of its logical core (records.rst, DMA): a producer/consumer across
 * cores, a ping-pong, an event, the issuer's own position; a peer outside
 * the logical core is refused with nothing run; a reset of the peer before
 * the landing voids the update.
 */
#include "ncsync_lnc.h"

TEST_F(lnc, info_reports_the_grouping)
{
	struct ncsync_info info;
	unsigned int c;

	NEED_LNC();
	EXPECT_EQ(0U, self->info.num_cores % self->info.lnc);
	for (c = 0; c < self->info.num_cores; c++) {
		int fd = open_core(c);

		ASSERT_LE(0, fd);
		ASSERT_EQ(0, ioctl(fd, NCSYNC_IOC_INFO, &info));
		EXPECT_EQ(self->info.lnc, info.lnc);
		EXPECT_EQ(c, info.core);
		close(fd);
	}
}

/* Core 1 waits for a semaphore only core 0's copy posts. */
TEST_F(lnc, producer_consumer_across_cores)
{
	struct rec_prog prod = { 0 }, cons = { 0 };
	struct rec_queue *q;
	__u32 pid, cid;

	NEED_LNC();
	q = rec_prog_queue(&cons, NCSYNC_ENGINE_PE);
	rec_noop(q, NCSYNC_WAIT_SEM_GE, 9, 0, 0, 1);
	rec_exit(q);
	cid = submit(_metadata, self->fd[1], &cons);
	q = rec_prog_queue(&prod, NCSYNC_ENGINE_POOL);
	rec_dma_peer(q, 1, 0, 0x100, 64, 1000, UPD_INC, 9);
	rec_drain(q);
	rec_exit(q);
	pid = submit_peer(_metadata, self->fd[0], &prod, self->fd[1]);
	expect_done(_metadata, self->fd[0], pid);
	expect_done(_metadata, self->fd[1], cid);
	EXPECT_EQ(1, sem_of(self->fd[1], 9));
	EXPECT_EQ(0, sem_of(self->fd[0], 9));
	rec_prog_free(&prod);
	rec_prog_free(&cons);
}

/* Round i: core 0 posts core 1's sem[1], core 1 answers on core 0's sem[2]. */
TEST_F(lnc, ping_pong_between_cores)
{
	struct rec_prog a = { 0 }, b = { 0 };
	struct rec_queue *qa, *qb;
	__u32 ida, idb;

	NEED_LNC();
	qa = rec_prog_queue(&a, NCSYNC_ENGINE_ACT);
	qb = rec_prog_queue(&b, NCSYNC_ENGINE_DVE);
	ping_pong_queues(qa, qb);
	idb = submit_peer(_metadata, self->fd[1], &b, self->fd[0]);
	ida = submit_peer(_metadata, self->fd[0], &a, self->fd[1]);
	expect_done(_metadata, self->fd[0], ida);
	expect_done(_metadata, self->fd[1], idb);
	EXPECT_EQ(ROUNDS, sem_of(self->fd[0], 2));
	EXPECT_EQ(ROUNDS, sem_of(self->fd[1], 1));
	EXPECT_EQ(0, sem_of(self->fd[0], 1));
	EXPECT_EQ(0, sem_of(self->fd[1], 2));
	rec_prog_free(&a);
	rec_prog_free(&b);
}

TEST_F(lnc, event_set_on_peer)
{
	struct rec_prog p = { 0 };
	struct rec_queue *q = rec_prog_queue(&p, NCSYNC_ENGINE_SP);

	NEED_LNC();
	rec_dma_peer(q, 1, 0, 64, 8, 0, UPD_SET, 3);
	rec_drain(q);
	rec_exit(q);
	expect_done(_metadata, self->fd[0],
		    submit_peer(_metadata, self->fd[0], &p, self->fd[1]));
	EXPECT_EQ(1, event_of(self->fd[1], 3));
	EXPECT_EQ(0, event_of(self->fd[0], 3));
	rec_prog_free(&p);
}

/* Position 0 is core 0 itself: the update is local. */
TEST_F(lnc, own_position_is_local)
{
	struct rec_prog p = { 0 };
	struct rec_queue *q = rec_prog_queue(&p, NCSYNC_ENGINE_PE);

	NEED_LNC();
	rec_dma_peer(q, 0, 0, 64, 8, 0, UPD_INC, 4);
	rec_drain(q);
	rec_exit(q);
	expect_done(_metadata, self->fd[0], submit(_metadata, self->fd[0], &p));
	EXPECT_EQ(1, sem_of(self->fd[0], 4));
	EXPECT_EQ(0, sem_of(self->fd[1], 4));
	rec_prog_free(&p);
}

/* Position lnc is outside the logical core: refused, nothing runs. */
TEST_F(lnc, peer_outside_refused)
{
	struct rec_prog p = { 0 };
	struct rec_queue *q = rec_prog_queue(&p, NCSYNC_ENGINE_PE);
	struct ncsync_submit sub;

	NEED_LNC();
	rec_inc(q, 6);
	rec_dma_peer(q, self->info.lnc, 0, 64, 8, 0, UPD_INC, 6);
	rec_exit(q);
	EXPECT_EQ(-EINVAL, rec_prog_submit(self->fd[0], &p, 0, LONG_MS, &sub));
	EXPECT_EQ(NCSYNC_REC_DMA_PEER_OUTSIDE, (int)sub.reason);
	EXPECT_EQ(NCSYNC_ENGINE_PE, (int)sub.bad_engine);
	EXPECT_EQ(1U, sub.bad_index);
	EXPECT_EQ(0U, sub.id);
	usleep(50000);
	EXPECT_EQ(0, sem_of(self->fd[0], 6));
	EXPECT_EQ(0, sem_of(self->fd[1], 6));
	rec_prog_free(&p);
}

/* Whether engine 0 of program @id is blocked in a Drain: its copy issued. */
static bool in_drain(int fd, __u32 id)
{
	struct ncsync_prog_status ps = { .id = id };

	return !ioctl(fd, NCSYNC_IOC_PROG_STATUS, &ps) && ps.nengines &&
	       ps.engines[0].state == NCSYNC_ENG_BLOCKED &&
	       ps.engines[0].wait_kind == NCSYNC_BLOCK_DRAIN;
}

/*
 * A copy that lands 500 ms after its issue; the peer is reset once it is
 * issued (its engine waits in the Drain behind it).
 * The update, issued before the reset, must not reach the cleared peer.
 */
TEST_F(lnc, reset_of_peer_voids_update)
{
	struct rec_prog p = { 0 };
	struct rec_queue *q = rec_prog_queue(&p, NCSYNC_ENGINE_POOL);
	__u32 id;
	int i;

	NEED_LNC();
	rec_dma_peer(q, 1, 0, 64, 8, 500000, UPD_INC, 7);
	rec_drain(q);
	rec_exit(q);
	id = submit_peer(_metadata, self->fd[0], &p, self->fd[1]);
	for (i = 0; i < 5000 && !in_drain(self->fd[0], id); i++)
		usleep(1000);
	ASSERT_TRUE(in_drain(self->fd[0], id));
	ASSERT_EQ(0, reset(self->fd[1]));
	expect_done(_metadata, self->fd[0], id);
	EXPECT_EQ(0, sem_of(self->fd[1], 7));
	rec_prog_free(&p);
}

TEST_HARNESS_MAIN
