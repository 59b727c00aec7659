// SPDX-License-Identifier: GPL-2.0
/*
 * ncsync selftests of libncsync against the driver (ncsync_lib.h): the
 * device API: information, read-only and writable descriptors, the banks
 * and their mapping, batches, waits, the change sequence, poll() and the
 * statistics, waits and signals.
 *
 * Run inside the test VM:
 *   tools/vm-run build/selftests/ncsync_lib_dev_test
 */
#include "ncsync_lib.h"

/* ---------------------------------------------------------------------- */
/* The device API                                                          */

static long sysfs_param(const char *name)
{
	char path[128], buf[32];
	long v = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/module/ncsync/parameters/%s", name);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (fgets(buf, sizeof(buf), f))
		v = strtol(buf, NULL, 10);
	fclose(f);
	return v;
}

TEST_F(core, get_info)
{
	const struct ncsync_info *info = self->info;
	struct ncsync_dev *other;
	long wd;

	EXPECT_EQ((unsigned int)(NCSYNC_API_VERSION), info->api_version);
	EXPECT_EQ(0U, info->core);
	EXPECT_LE(1U, info->num_cores);
	EXPECT_EQ((unsigned int)(NCSYNC_NUM_SEMS), info->num_sems);
	EXPECT_EQ((unsigned int)(NCSYNC_NUM_EVENTS), info->num_events);
	EXPECT_EQ((unsigned int)(NCSYNC_CSR_SIZE), info->csr_size);
	EXPECT_EQ((unsigned int)(NCSYNC_NUM_SEMS),
		  info->rt_reserved_sem_first + info->rt_reserved_sem_count);
	EXPECT_EQ((unsigned int)(NCSYNC_NUM_EVENTS),
		  info->rt_reserved_event_first +
		  info->rt_reserved_event_count);
	EXPECT_EQ((unsigned int)(NCSYNC_DEVMEM_OFFSET), info->devmem_offset);
	EXPECT_LE(4096U, info->devmem_size);
	EXPECT_EQ((unsigned int)(NCSYNC_ENGINE_MASK), info->engine_mask);
	EXPECT_EQ((unsigned int)(NCSYNC_NUM_REGS), info->num_regs);
	EXPECT_LE(1U, info->watchdog_ms);
	EXPECT_LE(1U, info->lnc);
	wd = sysfs_param("watchdog_ms");
	if (wd >= 0)
		EXPECT_EQ(wd, (long)info->watchdog_ms);
	EXPECT_EQ(sysfs_param("cores"), (long)info->num_cores);

	/* The last core, read-only, and one past it. */
	ASSERT_EQ(0, ncsync_open(info->num_cores - 1, false, &other));
	EXPECT_EQ(info->num_cores - 1, ncsync_get_info(other)->core);
	EXPECT_EQ(info->num_cores, ncsync_get_info(other)->num_cores);
	EXPECT_LE(0, ncsync_fd(other));
	EXPECT_NE(ncsync_fd(self->dev), ncsync_fd(other));
	ncsync_close(other);
	other = NULL;
	EXPECT_EQ(-ENOENT, ncsync_open(info->num_cores, true, &other));
	EXPECT_EQ(NULL, other);
	ncsync_close(NULL);
}

/*
 * A read-only open reads everything (mapping, pread, READ batches, plain
 * waits, info, stats, ack) and changes nothing: every update is -EBADF and
 * leaves the banks as they were.
 */
/* Everything that only reads works through read-only descriptor @ro. */
static void ro_reads(struct __test_metadata *_metadata, struct ncsync_dev *ro)
{
	struct ncsync_op ops[2] = {
		{ .bank = NCSYNC_BANK_SEM, .op = NCSYNC_OP_READ, .index = 7 },
		{ .bank = NCSYNC_BANK_EVENT, .op = NCSYNC_OP_READ, .index = 9 },
	};
	struct ncsync_stats stats;
	struct timespec past = { 0, 0 };
	int32_t seen = 0;
	uint32_t val;
	uint64_t seq;

	EXPECT_EQ(1234, ncsync_sem_read(ro, 7));
	EXPECT_TRUE(ncsync_event_read(ro, 9));
	EXPECT_EQ(0, ncsync_csr_read(ro, NCSYNC_CSR_SEM_READ + 4 * 7, &val, 1));
	EXPECT_EQ(1234U, val);
	EXPECT_EQ(0, ncsync_batch(ro, ops, 2));
	EXPECT_EQ(1234, ops[0].after);
	EXPECT_EQ(1, ops[1].after);
	EXPECT_EQ(0, ncsync_wait_sem(ro, 7, NCSYNC_WAIT_SEM_EQ, 1234, &past,
				     &seen));
	EXPECT_EQ(1234, seen);
	EXPECT_EQ(0, ncsync_wait_event(ro, 9, NCSYNC_WAIT_EVT_SET, &past));
	EXPECT_EQ(0, ncsync_stats(ro, &stats));
	EXPECT_EQ(0, ncsync_ack(ro, &seq));
	EXPECT_EQ(stats.seq, seq);
}

/* Every update through read-only descriptor @ro is refused with EBADF. */
static void ro_updates_refused(struct __test_metadata *_metadata,
			       struct ncsync_dev *ro)
{
	struct ncsync_op upd = {
		.bank = NCSYNC_BANK_SEM, .op = NCSYNC_OP_INC, .index = 7,
		.value = 1,
	};
	struct timespec past = { 0, 0 };
	uint32_t val;

	EXPECT_EQ(-EBADF, ncsync_sem_set(ro, 7, 1, NULL));
	EXPECT_EQ(-EBADF, ncsync_sem_inc(ro, 7, 1, NULL));
	EXPECT_EQ(-EBADF, ncsync_sem_dec(ro, 7, 1, NULL));
	EXPECT_EQ(-EBADF, ncsync_event_set(ro, 8));
	EXPECT_EQ(-EBADF, ncsync_event_clear(ro, 9));
	EXPECT_EQ(-EBADF, ncsync_batch(ro, &upd, 1));
	EXPECT_EQ(-EBADF, ncsync_reset(ro));
	val = 5;
	EXPECT_EQ(-EBADF, ncsync_csr_write(ro, NCSYNC_CSR_SEM_SET + 4 * 7,
					   &val, 1));
	/* A consuming wait is an update. */
	EXPECT_EQ(-EBADF, ncsync_wait_event(ro, 9,
					    NCSYNC_WAIT_EVT_SET_THEN_CLEAR,
					    &past));
}

TEST_F(core, open_read_only_vs_writable)
{
	struct ncsync_program *prog;
	struct ncsync_prog_status st;
	struct ncsync_dev *ro;
	uint32_t id = 0;

	ASSERT_EQ(0, ncsync_sem_set(self->dev, 7, 1234, NULL));
	ASSERT_EQ(0, ncsync_event_set(self->dev, 9));
	ASSERT_EQ(0, ncsync_open(0, false, &ro));

	/* Reads */
	ro_reads(_metadata, ro);

	/* Updates */
	ro_updates_refused(_metadata, ro);
	prog = prog_new(_metadata);
	ADD(ncsync_add_semaphore_inc(stream(_metadata, prog,
					    NCSYNC_ENGINE_POOL), 7));
	EXPECT_EQ(-EBADF, ncsync_program_submit(ro, prog, 0, WD_LONG, &id,
						NULL));
	EXPECT_EQ(-ENOENT, ncsync_program_status(ro, 1, false, &st, NULL));

	/* Nothing changed. */
	EXPECT_EQ(1234, ncsync_sem_read(self->dev, 7));
	EXPECT_TRUE(ncsync_event_read(self->dev, 9));
	EXPECT_FALSE(ncsync_event_read(self->dev, 8));

	/* The same program through the writable descriptor runs. */
	id = submit(_metadata, self->dev, prog, 0, WD_LONG);
	EXPECT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->dev, id));
	EXPECT_EQ(1235, ncsync_sem_read(ro, 7));

	ncsync_program_free(prog);
	ncsync_close(ro);
}

/* Semaphore set, increment and decrement, with the value after each. */
static void sem_updates(struct __test_metadata *_metadata,
			struct ncsync_dev *dev)
{
	int32_t after = 0;

	EXPECT_EQ(0, ncsync_sem_set(dev, 3, -17, &after));
	EXPECT_EQ(-17, after);
	EXPECT_EQ(-17, ncsync_sem_read(dev, 3));
	EXPECT_EQ(0, ncsync_sem_inc(dev, 3, 20, &after));
	EXPECT_EQ(3, after);
	EXPECT_EQ(0, ncsync_sem_dec(dev, 3, 5, &after));
	EXPECT_EQ(-2, after);
	EXPECT_EQ(-2, ncsync_sem_read(dev, 3));
	/* NULL @after is allowed */
	EXPECT_EQ(0, ncsync_sem_inc(dev, 3, 2, NULL));
	EXPECT_EQ(0, ncsync_sem_read(dev, 3));

	/* Wrap-around, counted as an overflow. */
	EXPECT_EQ(0, ncsync_sem_set(dev, 4, INT32_MAX, NULL));
	EXPECT_EQ(0, ncsync_sem_inc(dev, 4, 1, &after));
	EXPECT_EQ(INT32_MIN, after);
	EXPECT_EQ(INT32_MIN, ncsync_sem_read(dev, 4));
}

/* Several CSRs at once; the window's bounds. */
static void csr_ranges(struct __test_metadata *_metadata,
		       struct ncsync_dev *dev)
{
	uint32_t vals[3];

	EXPECT_EQ(0, ncsync_csr_read(dev,
				     NCSYNC_CSR_SEM_READ + 4 * 3,
				     vals, 3));
	EXPECT_EQ(0U, vals[0]);
	EXPECT_EQ((uint32_t)INT32_MIN, vals[1]);
	EXPECT_EQ(0U, vals[2]);
	vals[0] = 1;
	vals[1] = 2;
	EXPECT_EQ(0, ncsync_csr_write(dev,
				      NCSYNC_CSR_SEM_SET + 4 * 5,
				      vals, 2));
	EXPECT_EQ(1, ncsync_sem_read(dev, 5));
	EXPECT_EQ(2, ncsync_sem_read(dev, 6));
	EXPECT_EQ(-EINVAL, ncsync_csr_read(dev,
					   NCSYNC_CSR_SIZE - 4, vals,
					   2));
	EXPECT_EQ(-EINVAL, ncsync_csr_write(dev,
					    NCSYNC_CSR_SEM_READ, vals,
					    1));
}

TEST_F(core, sem_and_event_updates)
{
	struct ncsync_stats st0, st1;
	uint32_t v;

	ASSERT_EQ(0, ncsync_stats(self->dev, &st0));

	sem_updates(_metadata, self->dev);

	/* Events, including the two counted misuses. */
	EXPECT_FALSE(ncsync_event_read(self->dev, 200));
	EXPECT_EQ(0, ncsync_event_set(self->dev, 200));
	EXPECT_TRUE(ncsync_event_read(self->dev, 200));
	EXPECT_EQ(0, ncsync_event_set(self->dev, 200));
	EXPECT_TRUE(ncsync_event_read(self->dev, 200));
	EXPECT_EQ(0, ncsync_event_clear(self->dev, 200));
	EXPECT_FALSE(ncsync_event_read(self->dev, 200));
	EXPECT_EQ(0, ncsync_event_clear(self->dev, 200));
	EXPECT_FALSE(ncsync_event_read(self->dev, 200));

	/* Index 255 is the last of each bank. */
	EXPECT_EQ(0, ncsync_sem_set(self->dev, 255, 9, NULL));
	EXPECT_EQ(9, ncsync_sem_read(self->dev, 255));
	EXPECT_EQ(0, ncsync_event_set(self->dev, 255));
	EXPECT_TRUE(ncsync_event_read(self->dev, 255));
	EXPECT_EQ(0, ncsync_csr_read(self->dev, NCSYNC_CSR_EVENTS + 4 * 255,
				     &v, 1));
	EXPECT_EQ(1U, v);

	/* Bad indices */
	EXPECT_EQ(-EINVAL, ncsync_sem_set(self->dev, 256, 1, NULL));
	EXPECT_EQ(-EINVAL, ncsync_event_set(self->dev, 256));

	csr_ranges(_metadata, self->dev);

	ASSERT_EQ(0, ncsync_stats(self->dev, &st1));
	EXPECT_EQ(st0.sem_overflows + 1, st1.sem_overflows);
	EXPECT_EQ(st0.event_set_while_set + 1, st1.event_set_while_set);
	EXPECT_EQ(st0.event_clear_while_clear + 1,
		  st1.event_clear_while_clear);
	EXPECT_LT(st0.seq, st1.seq);
	EXPECT_EQ(st0.resets, st1.resets);
}

/*
 * The mapping is a live view: a child confined by seccomp strict mode
 * (read, write and exit only) watches semaphores and events change through
 * a read-only descriptor's mapping while the parent updates them by ioctl
 * and by pwrite.  Any system call in ncsync_sem_read() or
 * ncsync_event_read() would kill the child.
 */
#define SPIN_MAX	0x100000000ULL

static bool spin_sem(const struct ncsync_dev *dev, unsigned int idx,
		     int32_t want)
{
	uint64_t i;

	for (i = 0; i < SPIN_MAX; i++)
		if (ncsync_sem_read(dev, idx) == want)
			return true;
	return false;
}

static bool spin_event(const struct ncsync_dev *dev, unsigned int idx,
		       bool want)
{
	uint64_t i;

	for (i = 0; i < SPIN_MAX; i++)
		if (ncsync_event_read(dev, idx) == want)
			return true;
	return false;
}

static void mapping_child(const struct ncsync_dev *ro, int tx, int rx)
{
	static const struct {
		bool event;
		unsigned int idx;
		int32_t want;
	} steps[] = {
		{ false, 21, 11 },	/* ioctl set */
		{ false, 21, 22 },	/* pwrite SEM_SET */
		{ false, 21, 27 },	/* pwrite SEM_INC */
		{ false, 21, 24 },	/* ioctl dec */
		{ true, 33, 1 },	/* ioctl event set */
		{ true, 33, 0 },	/* pwrite event clear */
		{ true, 34, 1 },	/* pwrite event set */
	};
	unsigned int i;
	char c;

	if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_STRICT))
		syscall(SYS_exit, 3);
	for (i = 0; i < ARRAY_SIZE(steps); i++) {
		bool ok;

		/* Wait for the parent's go, then spin on the mapping. */
		if (read(rx, &c, 1) != 1)
			syscall(SYS_exit, 4);
		if (steps[i].event)
			ok = spin_event(ro, steps[i].idx, steps[i].want);
		else
			ok = spin_sem(ro, steps[i].idx, steps[i].want);
		c = ok ? 'a' + i : 'x';
		if (write(tx, &c, 1) != 1 || !ok)
			syscall(SYS_exit, 5);
	}
	syscall(SYS_exit, 0);
}

/* Make update @step (0 to 6) of the mapping test through @dev. */
static void mapping_step(struct __test_metadata *_metadata,
			 struct ncsync_dev *dev, unsigned int step)
{
	uint32_t v;

	switch (step) {
	case 0:
		ASSERT_EQ(0, ncsync_sem_set(dev, 21, 11, NULL));
		break;
	case 1:
		v = 22;
		ASSERT_EQ(0, ncsync_csr_write(dev,
					      NCSYNC_CSR_SEM_SET + 4 * 21,
					      &v, 1));
		break;
	case 2:
		v = 5;
		ASSERT_EQ(0, ncsync_csr_write(dev,
					      NCSYNC_CSR_SEM_INC + 4 * 21,
					      &v, 1));
		break;
	case 3:
		ASSERT_EQ(0, ncsync_sem_dec(dev, 21, 3, NULL));
		break;
	case 4:
		ASSERT_EQ(0, ncsync_event_set(dev, 33));
		break;
	case 5:
		v = 0;
		ASSERT_EQ(0, ncsync_csr_write(dev,
					      NCSYNC_CSR_EVENTS + 4 * 33,
					      &v, 1));
		break;
	case 6:
		v = 1;
		ASSERT_EQ(0, ncsync_csr_write(dev,
					      NCSYNC_CSR_EVENTS + 4 * 34,
					      &v, 1));
		break;
	}
}

TEST_F_TIMEOUT(core, mapping_sees_updates_without_syscalls, 300)
{
	struct ncsync_dev *ro;
	int up[2], down[2], status;
	unsigned int step;
	pid_t pid;
	char c;

	ASSERT_EQ(0, ncsync_open(0, false, &ro));
	ASSERT_EQ(0, pipe(up));
	ASSERT_EQ(0, pipe(down));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		close(up[0]);
		close(down[1]);
		mapping_child(ro, up[1], down[0]);
	}
	close(up[1]);
	close(down[0]);

	for (step = 0; step < 7; step++) {
		mapping_step(_metadata, self->dev, step);
		c = 'g';
		ASSERT_EQ(1, write(down[1], &c, 1));
		ASSERT_EQ(1, read(up[0], &c, 1))
			TH_LOG("the child died at step %u", step);
		ASSERT_EQ('a' + (int)step, c)
			TH_LOG("step %u: the mapping never showed the update",
			       step);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status))
		TH_LOG("child killed by signal %d (a system call under seccomp?)",
		       WIFSIGNALED(status) ? WTERMSIG(status) : 0);
	EXPECT_EQ(0, WEXITSTATUS(status));
	close(up[0]);
	close(down[1]);
	ncsync_close(ro);
}

TEST_F(core, batch)
{
	struct ncsync_op ops[] = {
		{ .bank = NCSYNC_BANK_SEM, .op = NCSYNC_OP_SET, .index = 10,
		  .value = 5 },
		{ .bank = NCSYNC_BANK_SEM, .op = NCSYNC_OP_INC, .index = 10,
		  .value = 2 },
		{ .bank = NCSYNC_BANK_SEM, .op = NCSYNC_OP_INC, .index = 10,
		  .value = 2 },
		{ .bank = NCSYNC_BANK_SEM, .op = NCSYNC_OP_DEC, .index = 10,
		  .value = 1 },
		{ .bank = NCSYNC_BANK_SEM, .op = NCSYNC_OP_READ, .index = 10 },
		{ .bank = NCSYNC_BANK_EVENT, .op = NCSYNC_OP_SET, .index = 3 },
		{ .bank = NCSYNC_BANK_EVENT, .op = NCSYNC_OP_READ, .index = 3 },
		{ .bank = NCSYNC_BANK_EVENT, .op = NCSYNC_OP_CLEAR, .index = 3 },
		{ .bank = NCSYNC_BANK_EVENT, .op = NCSYNC_OP_SET, .index = 4 },
	};
	static const int32_t before[] = { 0, 5, 7, 9, 8, 0, 1, 1, 0 };
	static const int32_t after[] = { 5, 7, 9, 8, 8, 1, 1, 0, 1 };
	struct ncsync_op bad[] = {
		{ .bank = NCSYNC_BANK_SEM, .op = NCSYNC_OP_INC, .index = 11,
		  .value = 1 },
		{ .bank = NCSYNC_BANK_EVENT, .op = NCSYNC_OP_INC, .index = 5,
		  .value = 1 },
	};
	unsigned int i;

	ASSERT_EQ(0, ncsync_batch(self->dev, ops, ARRAY_SIZE(ops)));
	for (i = 0; i < ARRAY_SIZE(ops); i++) {
		EXPECT_EQ(before[i], ops[i].before) TH_LOG("op %u", i);
		EXPECT_EQ(after[i], ops[i].after) TH_LOG("op %u", i);
	}
	EXPECT_EQ(8, ncsync_sem_read(self->dev, 10));
	EXPECT_FALSE(ncsync_event_read(self->dev, 3));
	EXPECT_TRUE(ncsync_event_read(self->dev, 4));

	/* A bad entry refuses the whole batch; nothing is applied. */
	EXPECT_EQ(-EINVAL, ncsync_batch(self->dev, bad, 2));
	EXPECT_EQ(0, ncsync_sem_read(self->dev, 11));
	EXPECT_EQ(-EINVAL, ncsync_batch(self->dev, ops, 0));
	EXPECT_EQ(-EINVAL, ncsync_batch(self->dev, ops, NCSYNC_MAX_BATCH + 1));
}

/* ---------------------------------------------------------------------- */
/* Waits                                                                   */

struct waiter {
	struct ncsync_dev *dev;
	unsigned int idx;
	bool event;
	uint8_t mode;
	int32_t threshold;
	int64_t ms;		/* deadline; < 0 for none */
	int ret;
	int32_t seen;
	int done;
};

static void *waiter_fn(void *arg)
{
	struct waiter *w = arg;
	struct timespec dl;

	if (w->ms >= 0)
		dl = deadline_ms(w->ms);
	if (w->event)
		w->ret = ncsync_wait_event(w->dev, w->idx, w->mode,
					   w->ms >= 0 ? &dl : NULL);
	else
		w->ret = ncsync_wait_sem(w->dev, w->idx, w->mode,
					 w->threshold,
					 w->ms >= 0 ? &dl : NULL, &w->seen);
	__atomic_store_n(&w->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

static bool waiter_done(struct waiter *w)
{
	return __atomic_load_n(&w->done, __ATOMIC_ACQUIRE);
}

TEST_F(core, wait_deadlines)
{
	struct timespec dl, past = { 0, 0 };
	int32_t seen = -1;
	int64_t t0, t1;

	/* A past deadline tests once. */
	EXPECT_EQ(-ETIMEDOUT, ncsync_wait_sem(self->dev, 12,
					      NCSYNC_WAIT_SEM_GE, 1, &past,
					      &seen));
	EXPECT_EQ(-1, seen);
	ASSERT_EQ(0, ncsync_sem_set(self->dev, 12, 4, NULL));
	EXPECT_EQ(0, ncsync_wait_sem(self->dev, 12, NCSYNC_WAIT_SEM_GE, 1,
				     &past, &seen));
	EXPECT_EQ(4, seen);
	EXPECT_EQ(0, ncsync_wait_sem(self->dev, 12, NCSYNC_WAIT_SEM_LT, 5,
				     &past, NULL));
	EXPECT_EQ(-ETIMEDOUT, ncsync_wait_sem(self->dev, 12,
					      NCSYNC_WAIT_SEM_LT, 4, &past,
					      NULL));
	EXPECT_EQ(-ETIMEDOUT, ncsync_wait_event(self->dev, 12,
						NCSYNC_WAIT_EVT_SET, &past));
	EXPECT_EQ(0, ncsync_wait_event(self->dev, 12, NCSYNC_WAIT_EVT_CLEAR,
				       &past));

	/* A future deadline that passes: never early. */
	t0 = now_ns();
	dl = deadline_ms(100);
	EXPECT_EQ(-ETIMEDOUT, ncsync_wait_sem(self->dev, 12,
					      NCSYNC_WAIT_SEM_EQ, 5, &dl,
					      NULL));
	t1 = now_ns();
	EXPECT_LE(100 * NSEC_PER_MSEC, t1 - t0);
	dl = deadline_ms(50);
	EXPECT_EQ(-ETIMEDOUT, ncsync_wait_event(self->dev, 13,
						NCSYNC_WAIT_EVT_SET, &dl));
	EXPECT_LE(150 * NSEC_PER_MSEC, now_ns() - t0);

	/* Bad arguments fail before blocking. */
	EXPECT_EQ(-EINVAL, ncsync_wait_sem(self->dev, 12,
					   NCSYNC_WAIT_EVT_SET, 0, NULL,
					   NULL));
	EXPECT_EQ(-EINVAL, ncsync_wait_sem(self->dev, 12,
					   NCSYNC_WAIT_REG | NCSYNC_WAIT_SEM_GE,
					   0, NULL, NULL));
	EXPECT_EQ(-EINVAL, ncsync_wait_event(self->dev, 12,
					     NCSYNC_WAIT_SEM_EQ, NULL));
	EXPECT_EQ(-EINVAL, ncsync_wait_sem(self->dev, 256,
					   NCSYNC_WAIT_SEM_EQ, 0, NULL, NULL));
}

/* Waits in another thread end when the banks change. */
TEST_F(core, wait_woken_by_updates)
{
	struct waiter ws = {
		.dev = self->dev, .idx = 14, .mode = NCSYNC_WAIT_SEM_GE,
		.threshold = 3, .ms = LONG_MS, .ret = 1,
	};
	struct waiter we = {
		.dev = self->dev, .idx = 15, .event = true,
		.mode = NCSYNC_WAIT_EVT_SET_THEN_CLEAR, .ms = -1, .ret = 1,
	};
	pthread_t ts, te;
	uint32_t v = 1;

	ASSERT_EQ(0, pthread_create(&ts, NULL, waiter_fn, &ws));
	ASSERT_EQ(0, pthread_create(&te, NULL, waiter_fn, &we));
	sleep_ms(50);
	ASSERT_EQ(0, ncsync_sem_inc(self->dev, 14, 1, NULL));
	ASSERT_EQ(0, ncsync_sem_inc(self->dev, 14, 1, NULL));
	sleep_ms(50);
	EXPECT_FALSE(waiter_done(&ws));
	ASSERT_EQ(0, ncsync_sem_inc(self->dev, 14, 1, NULL));
	/* The event waiter has no deadline: the event set ends it. */
	ASSERT_EQ(0, ncsync_csr_write(self->dev, NCSYNC_CSR_EVENTS + 4 * 15,
				      &v, 1));
	ASSERT_EQ(0, pthread_join(ts, NULL));
	ASSERT_EQ(0, pthread_join(te, NULL));
	EXPECT_EQ(0, ws.ret);
	EXPECT_EQ(3, ws.seen);
	EXPECT_EQ(0, we.ret);
	/* set-then-clear consumed the event */
	EXPECT_FALSE(ncsync_event_read(self->dev, 15));
}

/*
 * A reset from another thread ends waits in progress with -ECANCELED, with
 * or without a deadline, through a read-only descriptor too.  The main
 * thread resets every 20 ms until the waiters return, so that a reset
 * before a waiter has started waiting only delays the test.
 */
TEST_F(core, wait_canceled_by_reset)
{
	struct waiter w[3] = {
		{ .idx = 16, .mode = NCSYNC_WAIT_SEM_GE, .threshold = 1,
		  .ms = LONG_MS, .ret = 1 },
		{ .idx = 17, .mode = NCSYNC_WAIT_SEM_EQ, .threshold = 9,
		  .ms = -1, .ret = 1 },
		{ .idx = 18, .event = true, .mode = NCSYNC_WAIT_EVT_SET,
		  .ms = LONG_MS, .ret = 1 },
	};
	struct ncsync_stats st0, st1;
	struct ncsync_dev *ro;
	int64_t end = now_ns() + LONG_MS * NSEC_PER_MSEC;
	pthread_t t[3];
	unsigned int i, resets = 0;
	bool all;

	ASSERT_EQ(0, ncsync_open(0, false, &ro));
	w[0].dev = self->dev;
	w[1].dev = ro;
	w[2].dev = self->dev;
	ASSERT_EQ(0, ncsync_stats(self->dev, &st0));
	for (i = 0; i < 3; i++)
		ASSERT_EQ(0, pthread_create(&t[i], NULL, waiter_fn, &w[i]));
	do {
		sleep_ms(20);
		ASSERT_EQ(0, ncsync_reset(self->dev));
		resets++;
		all = true;
		for (i = 0; i < 3; i++)
			all = all && waiter_done(&w[i]);
	} while (!all && now_ns() < end);
	for (i = 0; i < 3; i++) {
		if (!waiter_done(&w[i]))
			ncsync_sem_set(self->dev, w[i].idx, 9, NULL);
		ASSERT_EQ(0, pthread_join(t[i], NULL));
		EXPECT_EQ(-ECANCELED, w[i].ret) TH_LOG("waiter %u", i);
	}
	ASSERT_EQ(0, ncsync_stats(self->dev, &st1));
	EXPECT_EQ(st0.resets + resets, st1.resets);
	ncsync_close(ro);
}

/* ---------------------------------------------------------------------- */
/* Change sequence, poll() and statistics                                  */

TEST_F(core, ack_poll_stats)
{
	struct pollfd pfd = {
		.fd = ncsync_fd(self->dev), .events = POLLIN | POLLRDNORM,
	};
	struct ncsync_program *prog;
	struct ncsync_prog_status st;
	struct ncsync_stats s0, s1;
	uint64_t seq0, seq1, seq2;
	uint32_t id;

	ASSERT_EQ(0, ncsync_ack(self->dev, &seq0));
	EXPECT_EQ(0, poll(&pfd, 1, 0));
	ASSERT_EQ(0, ncsync_stats(self->dev, &s0));
	EXPECT_EQ(seq0, s0.seq);

	/* One update: one step of the sequence, and POLLIN until acked. */
	ASSERT_EQ(0, ncsync_sem_inc(self->dev, 40, 1, NULL));
	ASSERT_EQ(1, poll(&pfd, 1, 0));
	EXPECT_EQ(POLLIN | POLLRDNORM, pfd.revents & (POLLIN | POLLRDNORM));
	ASSERT_EQ(1, poll(&pfd, 1, 0));
	ASSERT_EQ(0, ncsync_ack(self->dev, &seq1));
	EXPECT_EQ(seq0 + 1, seq1);
	EXPECT_EQ(0, poll(&pfd, 1, 0));

	/* A reset is a change too, and is counted. */
	ASSERT_EQ(0, ncsync_reset(self->dev));
	ASSERT_EQ(1, poll(&pfd, 1, 0));
	ASSERT_EQ(0, ncsync_ack(self->dev, &seq2));
	EXPECT_LT(seq1, seq2);
	ASSERT_EQ(0, ncsync_stats(self->dev, &s1));
	EXPECT_EQ(s0.resets + 1, s1.resets);
	EXPECT_EQ(seq2, s1.seq);

	/* A program's updates are changes; its end is POLLPRI. */
	prog = prog_new(_metadata);
	ADD(ncsync_add_semaphore_add(stream(_metadata, prog,
					    NCSYNC_ENGINE_SP), 41, 6));
	id = submit(_metadata, self->dev, prog, 0, WD_LONG);
	pfd.events = POLLPRI;
	ASSERT_EQ(1, poll(&pfd, 1, LONG_MS));
	EXPECT_EQ(POLLPRI, pfd.revents & POLLPRI);
	pfd.events = POLLIN | POLLRDNORM;
	ASSERT_EQ(1, poll(&pfd, 1, 0));
	EXPECT_EQ(6, ncsync_sem_read(self->dev, 41));
	/* A status report marks the end as reported. */
	status_get(_metadata, self->dev, id, &st, NULL);
	EXPECT_EQ(NCSYNC_PROG_DONE, (int)st.state);
	pfd.events = POLLPRI;
	EXPECT_EQ(0, poll(&pfd, 1, 0));
	ncsync_program_free(prog);
}

/* ---------------------------------------------------------------------- */
/* Signals                                                                 */

static void on_signal(int sig)
{
}

static void set_handler(struct __test_metadata *_metadata, bool restart)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sa.sa_flags = restart ? SA_RESTART : 0;
	sigemptyset(&sa.sa_mask);
	ASSERT_EQ(0, sigaction(SIGUSR1, &sa, NULL));
}

/*
 * A signal handled without SA_RESTART ends the library's waits with
 * -EINTR (ncsync_wait_*() and ncsync_program_wait() pass it on); with
 * SA_RESTART they restart and still end at their absolute deadline.
 */
TEST_F(core, waits_and_signals)
{
	struct waiter w = {
		.dev = self->dev, .idx = 88, .mode = NCSYNC_WAIT_SEM_GE,
		.threshold = 1, .ms = LONG_MS, .ret = 1,
	};
	struct ncsync_program *prog = prog_new(_metadata);
	struct prog_waiter pw = { .dev = self->dev, .ret = 1 };
	int64_t end = now_ns() + LONG_MS * NSEC_PER_MSEC, t0;
	pthread_t t;

	set_handler(_metadata, false);
	ASSERT_EQ(0, pthread_create(&t, NULL, waiter_fn, &w));
	while (!waiter_done(&w) && now_ns() < end) {
		sleep_ms(20);
		pthread_kill(t, SIGUSR1);
	}
	ASSERT_EQ(0, pthread_join(t, NULL));
	EXPECT_EQ(-EINTR, w.ret);

	ADD(ncsync_add_semaphore_wait_ge(stream(_metadata, prog,
						NCSYNC_ENGINE_PE), 88, 1));
	pw.id = submit(_metadata, self->dev, prog, 0, WD_LONG);
	ASSERT_EQ(0, pthread_create(&t, NULL, prog_waiter_fn, &pw));
	while (!__atomic_load_n(&pw.done, __ATOMIC_ACQUIRE) &&
	       now_ns() < end) {
		sleep_ms(20);
		pthread_kill(t, SIGUSR1);
	}
	ASSERT_EQ(0, pthread_join(t, NULL));
	EXPECT_EQ(-EINTR, pw.ret);

	/* SA_RESTART: the signals do not end the wait, the deadline does. */
	set_handler(_metadata, true);
	w.ms = 300;
	w.done = 0;
	w.ret = 1;
	t0 = now_ns();
	ASSERT_EQ(0, pthread_create(&t, NULL, waiter_fn, &w));
	while (!waiter_done(&w) && now_ns() < end) {
		sleep_ms(20);
		pthread_kill(t, SIGUSR1);
	}
	ASSERT_EQ(0, pthread_join(t, NULL));
	EXPECT_EQ(-ETIMEDOUT, w.ret);
	EXPECT_LE(300 * NSEC_PER_MSEC, now_ns() - t0);

	/* Other calls are retried, whatever the handler: the program ends. */
	set_handler(_metadata, false);
	ASSERT_EQ(0, ncsync_sem_set(self->dev, 88, 1, NULL));
	EXPECT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->dev, pw.id));
	signal(SIGUSR1, SIG_DFL);
	ncsync_program_free(prog);
}

TEST_HARNESS_MAIN
