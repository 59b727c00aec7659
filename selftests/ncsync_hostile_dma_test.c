// SPDX-License-Identifier: GPL-2.0
/*
 * Hostile DMA (ncsync_hostile.h): a flood keeps at most dma_depth copies
 * in flight per queue, blocks its engine when full and does not grow the
 * kernel's memory; one program's copies never hold back another's due
 * copy; large overlapping copies land exactly as memmove().
 *
 * Run inside the test VM:  tools/vm-run build/selftests/ncsync_hostile_dma_test
 */
#include "ncsync_hostile.h"

/* ---------------------------------------------------------------------- */
/* 1. Bounded DMA in flight                                                */

/* What watching a flood saw. */
struct flood {
	__u32 id;		/* the flooding program, on descriptor A */
	long guard_kb;		/* stop watching once the kernel grew this much */
	long kmem0_kb;		/* the kernel's memory when the flood began */
	long grow_kb;		/* the largest growth seen */
	__u32 out_max;		/* the largest dma_outstanding seen */
	int left_state;		/* a state other than RUNNING seen, or -1 */
	int err;		/* a failed PROG_STATUS, or 0 */
	unsigned int samples;
	bool tripped;		/* stopped at guard_kb */
};

static void flood_sample(int fd, struct flood *f)
{
	struct ncsync_prog_status ps;
	unsigned int i;
	long kb;

	f->err = f->err ?: status_get(fd, f->id, &ps);
	if (!f->err) {
		if (ps.state != NCSYNC_PROG_RUNNING && f->left_state < 0)
			f->left_state = ps.state;
		for (i = 0; i < ps.nengines; i++)
			if (ps.engines[i].dma_outstanding > f->out_max)
				f->out_max = ps.engines[i].dma_outstanding;
	}
	kb = kmem_kb() - f->kmem0_kb;
	if (kb > f->grow_kb)
		f->grow_kb = kb;
	f->tripped |= kb >= f->guard_kb;
	f->samples++;
}

/*
 * Sample a flood for @ms, or until program @bid of descriptor @bfd ends
 * (when @bfd >= 0), or until the kernel grew by f->guard_kb: then the
 * flood is eating the guest, and it is cancelled at once.
 */
static void flood_watch(int fd, struct flood *f, int ms, int bfd, __u32 bid)
{
	__s64 end = now_ns() + (__s64)ms * NSEC_PER_MSEC;
	struct ncsync_prog_status ps;

	while (now_ns() < end && !f->tripped) {
		flood_sample(fd, f);
		if (bfd >= 0 && !status_get(bfd, bid, &ps) &&
		    ps.state >= NCSYNC_PROG_DONE)
			break;
		usleep(2000);
	}
	if (f->tripped)
		prog_cancel(fd, f->id);
}

/* Start the flood on @n engines of descriptor A. */
static void flood_start(struct __test_metadata *_metadata, int fd,
			struct flood *f, const __u8 *engines, unsigned int n,
			long guard_kb)
{
	struct ncsync_prog_status ps;
	struct rec r[2];
	int i;

	memset(f, 0, sizeof(*f));
	f->left_state = -1;
	f->guard_kb = guard_kb;
	recs_flood(r);
	/* A short watchdog: the copies that land are its progress. */
	f->id = submit_ok(_metadata, fd, engines, n, r, 2, 1000);
	for (i = 0; i < 1000; i++) {
		ASSERT_EQ(0, status_get(fd, f->id, &ps));
		if (ps.state != NCSYNC_PROG_QUEUED)
			break;
		usleep(1000);
	}
	ASSERT_EQ(NCSYNC_PROG_RUNNING, (int)ps.state);
	f->kmem0_kb = kmem_kb();
}

/* Cancel the flood (if the watch has not); it must end CANCELLED. */
static void flood_stop(struct __test_metadata *_metadata, int fd,
		       const struct flood *f)
{
	ASSERT_EQ(0, prog_cancel(fd, f->id));
	EXPECT_EQ(NCSYNC_PROG_CANCELLED, wait_end(_metadata, fd, f->id));
}

/*
 * Every datapath engine loops {DMA; Branch always -> 0} for a few seconds:
 * no queue ever has more than dma_depth copies in flight, the kernel does
 * not grow, the program never times out (landed copies are progress), and
 * it cancels.  Without the bound the copies pile up until the guest runs
 * out of memory; the watch stops at a growth of KMEM_SLACK_KB to spare it.
 */
TEST_F_TIMEOUT(hostile, dma_flood_bounded, 60)
{
	long depth = ncsync_param("dma_depth");
	struct flood f;

	EXPECT_LE(1, depth)
		TH_LOG("the module has no parameter dma_depth (checking with 64)");
	if (depth < 1)
		depth = 64;
	flood_start(_metadata, self->fd, &f, datapath, NCSYNC_NUM_ENGINES,
		    KMEM_SLACK_KB);
	flood_watch(self->fd, &f, FLOOD_MS, -1, 0);
	flood_stop(_metadata, self->fd, &f);

	EXPECT_EQ(0, f.err) TH_LOG("PROG_STATUS: %s", strerror(-f.err));
	EXPECT_GE(depth, (long)f.out_max)
		TH_LOG("a queue had %u copies in flight; dma_depth is %ld",
		       f.out_max, depth);
	EXPECT_GT(KMEM_SLACK_KB, f.grow_kb)
		TH_LOG("Slab + VmallocUsed grew by %ld KiB in %u samples of the flood%s",
		       f.grow_kb, f.samples,
		       f.tripped ? " (stopped there)" : "");
	EXPECT_EQ(-1, f.left_state)
		TH_LOG("the flood left RUNNING (state %d) while it ran",
		       f.left_state);
}

/*
 * dma_depth + 1 copies of latency 1 s: the last DMA record finds its
 * queue full and the engine blocks on NCSYNC_BLOCK_DMA_FULL, with the
 * copies in flight and dma_depth as current value and threshold; once a
 * copy lands it goes on and the program ends DONE.
 */
TEST_F(hostile, dma_full_blocks_engine)
{
	long depth = need_param(_metadata, "dma_depth");
	struct ncsync_prog_status ps;
	struct ncsync_engine_status *e = &ps.engines[0];
	struct rec *r = recs_fill_dma(depth, NCSYNC_UPD_NONE, 0);
	__u32 id;

	ASSERT_NE(NULL, r);
	id = submit_ok(_metadata, self->fd, &engine_sp, 1, r, depth + 2,
		       WD_LONG);
	free(r);
	wait_all_blocked(_metadata, self->fd, id, NCSYNC_BLOCK_DMA_FULL, &ps);
	EXPECT_EQ(NCSYNC_ENG_BLOCKED, e->state);
	EXPECT_EQ(NCSYNC_BLOCK_DMA_FULL, e->wait_kind);
	EXPECT_EQ(depth, (long)e->pc);
	EXPECT_EQ(depth, (long)e->wait_current);
	EXPECT_EQ(depth, (long)e->wait_threshold);
	EXPECT_EQ(depth, (long)e->dma_outstanding);
	EXPECT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->fd, id));
}

/* ---------------------------------------------------------------------- */
/* 2. Fair DMA                                                             */

/*
 * Descriptor A floods from Pool, Activation, PE and DVE; descriptor B's
 * program on SP issues one copy and drains, with a 2 s watchdog.  Its copy
 * waits at most one landing of A's, so it ends DONE; in one FIFO behind
 * A's backlog it would wait until its watchdog fired.
 */
TEST_F_TIMEOUT(hostile, dma_fair_flood_does_not_starve_other, 60)
{
	struct rec r[3];
	struct flood f;
	__u32 bid;
	int state;
	int fdb = open_b(_metadata, &self->fdb);

	flood_start(_metadata, self->fd, &f, datapath, 4, KMEM_GUARD_KB);
	flood_watch(self->fd, &f, 1000, -1, 0);
	recs_one_copy(r);
	bid = submit_ok(_metadata, fdb, &engine_sp, 1, r, 3, 2000);
	flood_watch(self->fd, &f, LONG_MS, fdb, bid);
	state = wait_end(_metadata, fdb, bid);
	flood_stop(_metadata, self->fd, &f);

	ASSERT_FALSE(f.tripped)
		TH_LOG("the kernel grew by %ld KiB under the flood: stopped before B ended",
		       f.grow_kb);
	EXPECT_EQ(NCSYNC_PROG_DONE, state)
		TH_LOG("B ended in state %d (5: TIMED_OUT): its copy waited behind A's flood",
		       state);
}

/*
 * A's four queues fill up with copies due in 1 s (each +1 on sem[10] when
 * it lands) and block on NCSYNC_BLOCK_DMA_FULL.  B's copy of latency 0 is
 * due at once and must not wait behind copies that are not due: B ends
 * DONE while sem[10] is still 0.
 */
TEST_F(hostile, dma_fair_not_due_does_not_delay_other)
{
	long depth = need_param(_metadata, "dma_depth");
	struct rec *r = recs_fill_dma(depth, NCSYNC_UPD_COMPLETE |
				      NCSYNC_UPD_SEM_INC, 10);
	struct ncsync_prog_status ps;
	int fdb = open_b(_metadata, &self->fdb);
	struct rec rb[3];
	__u32 id, bid;
	__s32 sem10 = -1;

	ASSERT_NE(NULL, r);
	id = submit_ok(_metadata, self->fd, datapath, 4, r, depth + 2,
		       WD_LONG);
	free(r);
	wait_all_blocked(_metadata, self->fd, id, NCSYNC_BLOCK_DMA_FULL, &ps);

	recs_one_copy(rb);
	bid = submit_ok(_metadata, fdb, &engine_sp, 1, rb, 3, 2000);
	EXPECT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, fdb, bid));
	ASSERT_EQ(4, pread(fdb, &sem10, 4, SEM_RD(10)));
	EXPECT_EQ(0, sem10)
		TH_LOG("%d copies of A landed before B ended: B's copy waited for them",
		       sem10);
	/* A may have ended by now: its copies land 1 s after issue. */
	ASSERT_EQ(0, prog_cancel(self->fd, id));
	wait_end(_metadata, self->fd, id);
}

/* ---------------------------------------------------------------------- */
/* 7. Large copies                                                         */

/* Fill @n bytes with a sequence of period far above any copy's length. */
static void fill_pattern(__u8 *p, size_t n)
{
	__u32 x = 0x9E3779B9;
	size_t i;

	for (i = 0; i < n; i++) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		p[i] = x >> 24;
	}
}

/* The first byte where @a and @b differ, or @n. */
static size_t first_diff(const __u8 *a, const __u8 *b, size_t n)
{
	size_t i;

	for (i = 0; i < n && a[i] == b[i]; i++)
		;
	return i;
}

/*
 * Fill the device memory through its mapping, copy half of it from @src
 * to @dst with one DMA record, and compare with memmove() of the same.
 */
static void large_copy(struct __test_metadata *_metadata, int fd,
		       __u64 src, __u64 dst)
{
	const size_t size = 1 << 20, len = size / 2;
	struct ncsync_info info;
	struct rec r[3];
	__u8 *mem, *want;
	size_t at;
	__u32 id;

	ASSERT_EQ(0, ioctl(fd, NCSYNC_IOC_INFO, &info));
	ASSERT_LE(size, info.devmem_size) TH_LOG("devmem_kb below 1024");
	mem = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		   NCSYNC_DEVMEM_OFFSET);
	ASSERT_NE(MAP_FAILED, mem) TH_LOG("mmap: %s", strerror(errno));
	want = malloc(size);
	ASSERT_NE(NULL, want);
	fill_pattern(mem, size);
	memcpy(want, mem, size);
	memmove(want + dst, want + src, len);

	enc_dma(r[0].b, src, dst, len, 0, NCSYNC_UPD_NONE, 0);
	enc_drain(r[1].b);
	enc_exit(r[2].b);
	id = submit_ok(_metadata, fd, &engine_sp, 1, r, 3, WD_LONG);
	EXPECT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, fd, id));
	at = first_diff(mem, want, size);
	EXPECT_EQ(size, at)
		TH_LOG("copy 0x%llx -> 0x%llx: byte 0x%zx is 0x%02x, memmove() gives 0x%02x",
		       (unsigned long long)src, (unsigned long long)dst, at,
		       at < size ? mem[at] : 0, at < size ? want[at] : 0);
	free(want);
	munmap(mem, size);
}

/* 512 KiB forward over itself (dst > src, overlapping by ~320 KiB). */
TEST_F(hostile, dma_large_copy_overlap_forward)
{
	large_copy(_metadata, self->fd, 0x3003, 0x3003 + 0x2F001);
}

/* 512 KiB backward over itself (dst < src). */
TEST_F(hostile, dma_large_copy_overlap_backward)
{
	large_copy(_metadata, self->fd, 0x3003 + 0x2F001, 0x3003);
}

TEST_HARNESS_MAIN
