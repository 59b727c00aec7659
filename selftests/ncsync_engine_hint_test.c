// SPDX-License-Identifier: GPL-2.0
/*
 * ncsync selftests of BranchHint (0xE1; Documentation/ncsync/records.rst,
 * "BranchHint (0xE1)") on the engines of core 0: a hint carries the
 * events block as every predicate-bearing record does (SYNC: "Inside
 * every builder that can carry a predicate (add_evsem, add_poll_sem,
 * add_drain, add_halt, add_mov32_imm, add_br_hint_rel_imm, ...) the tail
 * is the identical idiom"), runs as a NoOp, never jumps, and a hint whose
 * target leaves its queue is refused at submission as a branch's is.
 *
 * Run inside the test VM:
 *   tools/vm-run build/selftests/ncsync_engine_hint_test
 */
#include "ncsync_engine.h"

static __u8 *rec_br_hint(struct rec_queue *q, __s32 offset, __u8 wmode,
			 __u8 widx, __u8 umode, __u8 uidx, __u32 value)
{
	__u8 *r = enc_br_hint(rec_emit(q, 0), offset);

	rec_lane0(r, wmode, widx, umode, uidx, value);
	return r;
}

/*
 * A hint forward past a NoOp: it waits on its predicate, applies its
 * update, and the engine goes on at the next record (a jump would skip
 * the NoOp's increment).
 */
TEST_F(core, br_hint_waits_updates_and_falls_through)
{
	struct ncsync_prog_status ps;
	struct rec_prog p = {};
	struct rec_queue *q = rec_prog_queue(&p, NCSYNC_ENGINE_POOL);
	const int s = 20, t = 21;
	__u32 id;

	rec_br_hint(q, 2, W_GE, s, U_COMPLETE | U_INC, t, 1);
	rec_noop(q, 0, 0, U_COMPLETE | U_INC, t, 0);
	rec_noop(q, 0, 0, U_COMPLETE | U_INC, t, 0);
	rec_exit(q);
	id = submit_ok(_metadata, self->fd, &p, 0, WD_LONG);

	wait_blocked(_metadata, self->fd, id, 0, &ps);
	EXPECT_EQ(0, (int)ps.engines[0].pc);
	EXPECT_EQ(NCSYNC_BLOCK_SEM, ps.engines[0].wait_kind);
	EXPECT_EQ(s, ps.engines[0].wait_index);
	EXPECT_EQ(0, sem_get(_metadata, self->fd, t));
	sem_set(_metadata, self->fd, s, 1);
	ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->fd, id));
	EXPECT_EQ(3, sem_get(_metadata, self->fd, t));
	rec_prog_free(&p);
}

/* A hint back to the start, and one at itself: no loop, each runs once. */
TEST_F(core, br_hint_backward_does_not_loop)
{
	struct rec_prog p = {};
	struct rec_queue *q = rec_prog_queue(&p, NCSYNC_ENGINE_ACT);
	const int t = 22;
	__u32 id;

	rec_noop(q, 0, 0, U_COMPLETE | U_INC, t, 0);
	rec_br_hint(q, -1, 0, 0, U_COMPLETE | U_INC, t, 0);
	rec_br_hint(q, 0, 0, 0, U_COMPLETE | U_INC, t, 0);
	id = submit_ok(_metadata, self->fd, &p, 0, WD_LONG);
	ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->fd, id));
	EXPECT_EQ(3, sem_get(_metadata, self->fd, t));
	rec_prog_free(&p);
}

/*
 * The kernel refuses a hint past either end of its queue with
 * NCSYNC_REC_BAD_TARGET, naming it; the same offset in range runs.
 */
TEST_F(core, br_hint_outside_queue_refused)
{
	static const struct {
		__u32 index;
		__s32 offset;
	} bad[] = {
		{ 0, -1 }, { 3, 1 }, { 1, 3 }, { 2, -3 },
	};
	struct ncsync_submit sub;
	struct rec_prog p = {};
	struct rec_queue *q;
	const int t = 23;
	unsigned int i, j;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		q = rec_prog_queue(&p, NCSYNC_ENGINE_PE);
		for (j = 0; j < 4; j++) {
			if (j == bad[i].index)
				rec_br_hint(q, bad[i].offset, 0, 0,
					    U_COMPLETE | U_INC, t, 0);
			else
				rec_noop(q, 0, 0, U_COMPLETE | U_INC, t, 0);
		}
		EXPECT_EQ(-EINVAL, rec_prog_submit(self->fd, &p, 0, WD_LONG,
						   &sub));
		EXPECT_EQ(NCSYNC_ENGINE_PE, (int)sub.bad_engine);
		EXPECT_EQ(bad[i].index, sub.bad_index);
		EXPECT_EQ(NCSYNC_REC_BAD_TARGET, (int)sub.reason);
		rec_prog_free(&p);
	}
	EXPECT_EQ(0, sem_get(_metadata, self->fd, t));

	/* The edges themselves: to the first record and to the last. */
	q = rec_prog_queue(&p, NCSYNC_ENGINE_PE);
	rec_br_hint(q, 3, 0, 0, U_COMPLETE | U_INC, t, 0);
	rec_noop(q, 0, 0, 0, 0, 0);
	rec_noop(q, 0, 0, 0, 0, 0);
	rec_br_hint(q, -3, 0, 0, U_COMPLETE | U_INC, t, 0);
	ASSERT_EQ(NCSYNC_PROG_DONE,
		  wait_end(_metadata, self->fd,
			   submit_ok(_metadata, self->fd, &p, 0, WD_LONG)));
	EXPECT_EQ(2, sem_get(_metadata, self->fd, t));
	rec_prog_free(&p);
}

TEST_HARNESS_MAIN
