// SPDX-License-Identifier: GPL-2.0
/*
 * ncsync selftests of the /dev/ncsyncN ABI (ncsync_abi.h): NCSYNC_IOC_WAIT:
 * compares, deadlines, wake-ups by threads and processes, bad arguments,
 * signals, reset and close.
 *
 * Run inside the test VM:
 *   tools/vm-run build/selftests/ncsync_abi_wait_test
 */
#include "ncsync_abi.h"

/* A forked process blocked in NCSYNC_IOC_WAIT; results in shared memory. */
struct shared_result {
	int ret;
	__s32 result;
};

static pid_t fork_waiter(struct shared_result *sr, __u8 bank, __u8 mode,
			 __u32 index, __s32 value, long ms)
{
	pid_t pid = fork();

	if (pid == 0) {
		int fd = open(DEV0, O_RDWR | O_CLOEXEC);

		if (fd < 0)
			_exit(2);
		sr->ret = do_wait(fd, bank, mode, index, value, ms,
				  &sr->result);
		_exit(0);
	}
	return pid;
}

static volatile sig_atomic_t sig_count;

static void count_sig(int sig)
{
	sig_count++;
}

static void catch_sigusr1(struct __test_metadata *_metadata, bool restart)
{
	struct sigaction sa = { .sa_handler = count_sig };

	sigemptyset(&sa.sa_mask);
	sa.sa_flags = restart ? SA_RESTART : 0;
	ASSERT_EQ(0, sigaction(SIGUSR1, &sa, NULL));
	sig_count = 0;
}

/* ---------------------------------------------------------------------- */
/* NCSYNC_IOC_WAIT                                                         */

TEST_F(core, wait_sem_compare_immediate)
{
	static const struct {
		__s32 val;
		__u8 mode;
		__s32 thr;
		bool pass;
	} t[] = {
		{ 5, NCSYNC_WAIT_SEM_EQ, 5, true },
		{ 5, NCSYNC_WAIT_SEM_EQ, 4, false },
		{ 5, NCSYNC_WAIT_SEM_EQ, 6, false },
		{ 5, NCSYNC_WAIT_SEM_LT, 6, true },
		{ 5, NCSYNC_WAIT_SEM_LT, 5, false },
		{ 5, NCSYNC_WAIT_SEM_LE, 5, true },
		{ 5, NCSYNC_WAIT_SEM_LE, 4, false },
		{ 5, NCSYNC_WAIT_SEM_GT, 4, true },
		{ 5, NCSYNC_WAIT_SEM_GT, 5, false },
		{ 5, NCSYNC_WAIT_SEM_GE, 5, true },
		{ 5, NCSYNC_WAIT_SEM_GE, 6, false },
		/* signed compares */
		{ -1, NCSYNC_WAIT_SEM_LT, 0, true },
		{ -1, NCSYNC_WAIT_SEM_GT, 0, false },
		{ -1, NCSYNC_WAIT_SEM_GE, 0, false },
		{ -1, NCSYNC_WAIT_SEM_EQ, -1, true },
		{ INT_MIN, NCSYNC_WAIT_SEM_LE, INT_MIN, true },
		{ INT_MIN, NCSYNC_WAIT_SEM_GT, INT_MAX, false },
		{ INT_MAX, NCSYNC_WAIT_SEM_GT, INT_MIN, true },
		{ INT_MAX, NCSYNC_WAIT_SEM_GE, INT_MAX, true },
		{ 0, NCSYNC_WAIT_SEM_LT, INT_MIN, false },
	};
	unsigned int i;
	__s32 res;

	for (i = 0; i < ARRAY_SIZE(t); i++) {
		sem_put(_metadata, self->fd, 12, t[i].val);
		res = 0x5a5a5a5a;
		EXPECT_EQ(t[i].pass ? 0 : -ETIMEDOUT,
			  do_wait(self->fd, SEM, t[i].mode, 12, t[i].thr,
				  PAST_MS, &res))
			TH_LOG("case %u: %d mode %#x %d", i, t[i].val,
			       t[i].mode, t[i].thr);
		if (t[i].pass) {
			EXPECT_EQ(t[i].val, res) TH_LOG("case %u", i);
		}
		EXPECT_EQ(t[i].val, sem_get(_metadata, self->fd, 12));
	}
}

TEST_F(core, wait_event_modes_immediate)
{
	__s32 res;

	/* event 8 clear */
	EXPECT_EQ(-ETIMEDOUT, do_wait(self->fd, EVENT, NCSYNC_WAIT_EVT_SET, 8,
				      0, PAST_MS, NULL));
	EXPECT_EQ(-ETIMEDOUT, do_wait(self->fd, EVENT,
				      NCSYNC_WAIT_EVT_SET_THEN_CLEAR, 8, 0,
				      PAST_MS, NULL));
	EXPECT_EQ(0, evt_get(_metadata, self->fd, 8));
	res = 7;
	EXPECT_EQ(0, do_wait(self->fd, EVENT, NCSYNC_WAIT_EVT_CLEAR, 8, 0,
			     PAST_MS, &res));
	EXPECT_EQ(0, res);
	EXPECT_EQ(0, evt_get(_metadata, self->fd, 8));
	res = 7;
	EXPECT_EQ(0, do_wait(self->fd, EVENT, NCSYNC_WAIT_EVT_CLEAR_THEN_SET,
			     8, 0, PAST_MS, &res));
	EXPECT_EQ(0, res);
	EXPECT_EQ(1, evt_get(_metadata, self->fd, 8));

	/* event 8 set */
	EXPECT_EQ(-ETIMEDOUT, do_wait(self->fd, EVENT, NCSYNC_WAIT_EVT_CLEAR,
				      8, 0, PAST_MS, NULL));
	EXPECT_EQ(-ETIMEDOUT, do_wait(self->fd, EVENT,
				      NCSYNC_WAIT_EVT_CLEAR_THEN_SET, 8, 0,
				      PAST_MS, NULL));
	EXPECT_EQ(1, evt_get(_metadata, self->fd, 8));
	res = 7;
	EXPECT_EQ(0, do_wait(self->fd, EVENT, NCSYNC_WAIT_EVT_SET, 8, 0,
			     PAST_MS, &res));
	EXPECT_EQ(1, res);
	EXPECT_EQ(1, evt_get(_metadata, self->fd, 8));
	res = 7;
	EXPECT_EQ(0, do_wait(self->fd, EVENT, NCSYNC_WAIT_EVT_SET_THEN_CLEAR,
			     8, 0, PAST_MS, &res));
	EXPECT_EQ(1, res);
	EXPECT_EQ(0, evt_get(_metadata, self->fd, 8));
	EXPECT_EQ(0U, csr_get(_metadata, self->fd, EVT(8)));
}

TEST_F(core, wait_past_deadline_tests_once)
{
	struct ncsync_wait w;
	__s64 t0;

	sem_put(_metadata, self->fd, 0, 3);
	/* an absolute deadline one second ago */
	w = mkwait(SEM, NCSYNC_WAIT_SEM_GE, 0, 4, PAST_MS);
	w.deadline = ts_of(now_ns() - NSEC_PER_SEC);
	t0 = now_ns();
	EXPECT_EQ(-ETIMEDOUT, wait_ioctl(self->fd, &w));
	TH_LOG("past-deadline wait took %lld us",
	       (long long)(now_ns() - t0) / 1000);
	w = mkwait(SEM, NCSYNC_WAIT_SEM_GE, 0, 3, PAST_MS);
	w.deadline = ts_of(now_ns() - NSEC_PER_SEC);
	EXPECT_EQ(0, wait_ioctl(self->fd, &w));
	EXPECT_EQ(3, w.result);
	/* deadline {0, 0} and {0, 999999999} */
	w = mkwait(SEM, NCSYNC_WAIT_SEM_GE, 0, 4, PAST_MS);
	EXPECT_EQ(-ETIMEDOUT, wait_ioctl(self->fd, &w));
	w.deadline.tv_nsec = NSEC_PER_SEC - 1;
	EXPECT_EQ(-ETIMEDOUT, wait_ioctl(self->fd, &w));
}

TEST_F(core, wait_timeout)
{
	struct ncsync_wait w = mkwait(SEM, NCSYNC_WAIT_SEM_EQ, 0, 1, SHORT_MS);
	__s64 end;

	w.result = 0x5a5a;
	EXPECT_EQ(-ETIMEDOUT, wait_ioctl(self->fd, &w));
	end = now_ns();
	EXPECT_EQ(0x5a5a, w.result) TH_LOG("argument written back on error");
	EXPECT_LE(ns_of(w.deadline) - EARLY_NS, end)
		TH_LOG("returned %lld us before the deadline",
		       (long long)(ns_of(w.deadline) - end) / 1000);

	w = mkwait(EVENT, NCSYNC_WAIT_EVT_SET_THEN_CLEAR, 1, 0, SHORT_MS);
	EXPECT_EQ(-ETIMEDOUT, wait_ioctl(self->fd, &w));
	end = now_ns();
	EXPECT_LE(ns_of(w.deadline) - EARLY_NS, end);
	EXPECT_EQ(0, evt_get(_metadata, self->fd, 1));
	EXPECT_EQ(0, sem_get(_metadata, self->fd, 0));
}

TEST_F(core, wait_woken_by_pwrite_thread)
{
	struct waiter wt;

	waiter_start(_metadata, &wt, self->fd, SEM, NCSYNC_WAIT_SEM_GE, 30, 3,
		     LONG_MS);
	if (!waiter_blocked(&wt))
		TH_LOG("could not observe the waiter sleep");
	csr_put(_metadata, self->fd, SEM_INC(30), 2);
	sleep_ms(10);
	EXPECT_EQ(0, __atomic_load_n(&wt.done, __ATOMIC_SEQ_CST));
	csr_put(_metadata, self->fd, SEM_INC(30), 1);
	ASSERT_EQ(0, waiter_join(&wt));
	EXPECT_EQ(3, wt.w.result);
	EXPECT_EQ(3, sem_get(_metadata, self->fd, 30));
}

TEST_F(core, wait_woken_by_ioctl_process)
{
	struct shared_result *sr;
	pid_t pid;

	sr = mmap(NULL, sizeof(*sr), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, sr);
	sr->ret = 1;
	pid = fork_waiter(sr, SEM, NCSYNC_WAIT_SEM_EQ, 31, 7, LONG_MS);
	ASSERT_LE(0, pid);
	if (!await_blocked(pid, pid, SYS_ioctl))
		TH_LOG("could not observe the waiter sleep");
	sem_put(_metadata, self->fd, 31, 7);
	EXPECT_EQ(0, reap(pid));
	EXPECT_EQ(0, sr->ret);
	EXPECT_EQ(7, sr->result);
}

TEST_F(core, wait_woken_event_by_other_process)
{
	int fd2 = open_dev(_metadata, 0, O_RDWR);
	struct waiter wt;
	pid_t pid;

	waiter_start(_metadata, &wt, self->fd, EVENT, NCSYNC_WAIT_EVT_SET, 32,
		     0, LONG_MS);
	waiter_blocked(&wt);
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0)
		_exit(wr32(fd2, EVT(32), 1) ? 1 : 0);
	EXPECT_EQ(0, reap(pid));
	ASSERT_EQ(0, waiter_join(&wt));
	EXPECT_EQ(1, wt.w.result);
	EXPECT_EQ(1, evt_get(_metadata, self->fd, 32));
	close(fd2);
}

TEST_F(core, wait_no_deadline)
{
	struct waiter wt;
	__s32 res;

	EXPECT_EQ(0, do_wait(self->fd, SEM, NCSYNC_WAIT_SEM_EQ, 0, 0,
			     FOREVER_MS, &res));
	EXPECT_EQ(0, res);
	waiter_start(_metadata, &wt, self->fd, SEM, NCSYNC_WAIT_SEM_LT, 33, -4,
		     FOREVER_MS);
	waiter_blocked(&wt);
	csr_put(_metadata, self->fd, SEM_DEC(33), 5);
	ASSERT_EQ(0, waiter_join(&wt));
	EXPECT_EQ(-5, wt.w.result);
}

TEST_F(core, wait_set_then_clear_consumes)
{
	struct waiter wt;

	waiter_start(_metadata, &wt, self->fd, EVENT,
		     NCSYNC_WAIT_EVT_SET_THEN_CLEAR, 34, 0, LONG_MS);
	waiter_blocked(&wt);
	evt_put(_metadata, self->fd, 34, true);
	ASSERT_EQ(0, waiter_join(&wt));
	EXPECT_EQ(1, wt.w.result);
	EXPECT_EQ(0, evt_get(_metadata, self->fd, 34));
}

TEST_F(core, wait_clear_then_set)
{
	struct waiter wt;

	evt_put(_metadata, self->fd, 35, true);
	waiter_start(_metadata, &wt, self->fd, EVENT,
		     NCSYNC_WAIT_EVT_CLEAR_THEN_SET, 35, 0, LONG_MS);
	waiter_blocked(&wt);
	csr_put(_metadata, self->fd, EVT(35), 0);
	ASSERT_EQ(0, waiter_join(&wt));
	EXPECT_EQ(0, wt.w.result);
	EXPECT_EQ(1, evt_get(_metadata, self->fd, 35));
}

TEST_F(core, wait_event_clear)
{
	struct waiter wt;

	evt_put(_metadata, self->fd, 36, true);
	waiter_start(_metadata, &wt, self->fd, EVENT, NCSYNC_WAIT_EVT_CLEAR,
		     36, 0, LONG_MS);
	waiter_blocked(&wt);
	evt_put(_metadata, self->fd, 36, false);
	ASSERT_EQ(0, waiter_join(&wt));
	EXPECT_EQ(0, wt.w.result);
	EXPECT_EQ(0, evt_get(_metadata, self->fd, 36));
}

TEST_F(core, wait_set_then_clear_one_of_two)
{
	struct waiter a, b;
	int ra, rb;

	waiter_start(_metadata, &a, self->fd, EVENT,
		     NCSYNC_WAIT_EVT_SET_THEN_CLEAR, 37, 0, 2000);
	waiter_start(_metadata, &b, self->fd, EVENT,
		     NCSYNC_WAIT_EVT_SET_THEN_CLEAR, 37, 0, 2000);
	waiter_blocked(&a);
	waiter_blocked(&b);
	evt_put(_metadata, self->fd, 37, true);
	ra = waiter_join(&a);
	rb = waiter_join(&b);
	EXPECT_TRUE((ra == 0 && rb == -ETIMEDOUT) ||
		    (ra == -ETIMEDOUT && rb == 0))
		TH_LOG("waiters returned %d and %d", ra, rb);
	EXPECT_EQ(1, ra == 0 ? a.w.result : b.w.result);
	EXPECT_EQ(0, evt_get(_metadata, self->fd, 37));
}

TEST_F(core, wait_ge_all_waiters_pass)
{
	struct waiter wt[6];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(wt); i++)
		waiter_start(_metadata, &wt[i], self->fd, SEM,
			     NCSYNC_WAIT_SEM_GE, 38, 1, LONG_MS);
	for (i = 0; i < ARRAY_SIZE(wt); i++)
		waiter_blocked(&wt[i]);
	ASSERT_EQ(0, do_op(self->fd, SEM, NCSYNC_OP_INC, 38, 1, NULL));
	for (i = 0; i < ARRAY_SIZE(wt); i++) {
		EXPECT_EQ(0, waiter_join(&wt[i])) TH_LOG("waiter %u", i);
		EXPECT_EQ(1, wt[i].w.result) TH_LOG("waiter %u", i);
	}
	EXPECT_EQ(1, sem_get(_metadata, self->fd, 38));
}

TEST_F(core, wait_other_index_not_woken)
{
	struct waiter wt;

	waiter_start(_metadata, &wt, self->fd, SEM, NCSYNC_WAIT_SEM_EQ, 2, 1,
		     300);
	waiter_blocked(&wt);
	sem_put(_metadata, self->fd, 1, 1);
	sem_put(_metadata, self->fd, 3, 1);
	evt_put(_metadata, self->fd, 2, true);
	EXPECT_EQ(-ETIMEDOUT, waiter_join(&wt));
}

TEST_F(core, wait_register_modes_einval)
{
	struct ncsync_wait w;
	__u8 mode;

	for (mode = 0x81; mode <= 0x85; mode++) {
		w = mkwait(SEM, mode, 0, 0, PAST_MS);
		EXPECT_EQ(-EINVAL, wait_ioctl(self->fd, &w))
			TH_LOG("mode %#x", mode);
		w = mkwait(SEM, mode, 0, 0, SHORT_MS);
		EXPECT_EQ(-EINVAL, wait_ioctl(self->fd, &w))
			TH_LOG("mode %#x", mode);
	}
	w = mkwait(SEM, NCSYNC_WAIT_REG, 0, 0, PAST_MS);
	EXPECT_EQ(-EINVAL, wait_ioctl(self->fd, &w));
}

TEST_F(core, wait_bad_mode_einval)
{
	static const __u8 sem_bad[] = { 0x00, 0x06, 0x07, 0x08, 0x0E, 0x0F,
					0x10, 0x86, 0xFF };
	static const __u8 evt_bad[] = { 0x00, 0x01, 0x02, 0x03, 0x04, 0x05,
					0x08, 0x0D, 0x10, 0x86, 0x8E, 0xFF };
	struct ncsync_wait w;
	struct snap s;
	unsigned int i;

	seed(_metadata, self->fd);
	snap_take(_metadata, self->fd, &s);
	for (i = 0; i < ARRAY_SIZE(sem_bad); i++) {
		w = mkwait(SEM, sem_bad[i], 0, 0, PAST_MS);
		EXPECT_EQ(-EINVAL, wait_ioctl(self->fd, &w))
			TH_LOG("sem mode %#x", sem_bad[i]);
	}
	for (i = 0; i < ARRAY_SIZE(evt_bad); i++) {
		w = mkwait(EVENT, evt_bad[i], 0, 0, PAST_MS);
		EXPECT_EQ(-EINVAL, wait_ioctl(self->fd, &w))
			TH_LOG("event mode %#x", evt_bad[i]);
	}
	w = mkwait(2, NCSYNC_WAIT_SEM_GE, 0, 0, PAST_MS);
	EXPECT_EQ(-EINVAL, wait_ioctl(self->fd, &w));
	w = mkwait(2, NCSYNC_WAIT_EVT_SET, 0, 0, PAST_MS);
	EXPECT_EQ(-EINVAL, wait_ioctl(self->fd, &w));
	snap_check(_metadata, self->fd, &s);
}

TEST_F(core, wait_bad_flags_einval)
{
	struct ncsync_wait w;

	/* satisfied conditions: a wrongly accepted wait would return 0 */
	w = mkwait(SEM, NCSYNC_WAIT_SEM_GE, 0, 0, PAST_MS);
	w.flags = 2;
	EXPECT_EQ(-EINVAL, wait_ioctl(self->fd, &w));
	w.flags = 0x8000;
	EXPECT_EQ(-EINVAL, wait_ioctl(self->fd, &w));
	w.flags = NCSYNC_WAIT_F_NO_DEADLINE | 0x100;
	EXPECT_EQ(-EINVAL, wait_ioctl(self->fd, &w));
}

TEST_F(core, wait_bad_deadline_einval)
{
	struct ncsync_wait w, base;
	struct snap s;

	/* a consuming, satisfied wait: a wrong accept changes the event */
	evt_put(_metadata, self->fd, 9, true);
	snap_take(_metadata, self->fd, &s);
	base = mkwait(EVENT, NCSYNC_WAIT_EVT_SET_THEN_CLEAR, 9, 0, PAST_MS);

	w = base;
	w.deadline.tv_nsec = -1;
	EXPECT_EQ(-EINVAL, wait_ioctl(self->fd, &w));
	w = base;
	w.deadline.tv_nsec = NSEC_PER_SEC;
	EXPECT_EQ(-EINVAL, wait_ioctl(self->fd, &w));
	w = base;
	w.deadline.tv_sec = -1;
	EXPECT_EQ(-EINVAL, wait_ioctl(self->fd, &w));
	w = base;
	w.deadline.tv_sec = INT64_MIN;
	EXPECT_EQ(-EINVAL, wait_ioctl(self->fd, &w));
	w = base;
	w.flags = NCSYNC_WAIT_F_NO_DEADLINE;
	w.deadline.tv_sec = 1;
	EXPECT_EQ(-EINVAL, wait_ioctl(self->fd, &w));
	w = base;
	w.flags = NCSYNC_WAIT_F_NO_DEADLINE;
	w.deadline.tv_nsec = 1;
	EXPECT_EQ(-EINVAL, wait_ioctl(self->fd, &w));
	snap_check(_metadata, self->fd, &s);
}

TEST_F(core, wait_index_out_of_range)
{
	struct ncsync_wait w;

	w = mkwait(SEM, NCSYNC_WAIT_SEM_GE, 256, 0, PAST_MS);
	EXPECT_EQ(-EINVAL, wait_ioctl(self->fd, &w));
	w = mkwait(SEM, NCSYNC_WAIT_SEM_GE, 0xFFFFFFFFU, 0, PAST_MS);
	EXPECT_EQ(-EINVAL, wait_ioctl(self->fd, &w));
	w = mkwait(EVENT, NCSYNC_WAIT_EVT_CLEAR, 256, 0, PAST_MS);
	EXPECT_EQ(-EINVAL, wait_ioctl(self->fd, &w));
	w = mkwait(EVENT, NCSYNC_WAIT_EVT_CLEAR, 0x100000U, 0, SHORT_MS);
	EXPECT_EQ(-EINVAL, wait_ioctl(self->fd, &w));
	/* index 255 is fine */
	w = mkwait(EVENT, NCSYNC_WAIT_EVT_CLEAR, 255, 0, PAST_MS);
	EXPECT_EQ(0, wait_ioctl(self->fd, &w));
	w = mkwait(SEM, NCSYNC_WAIT_SEM_EQ, 255, 0, PAST_MS);
	EXPECT_EQ(0, wait_ioctl(self->fd, &w));
}

/* uapi: "@value: the signed threshold of a semaphore compare; zero for events" */
TEST_F(core, wait_event_value_nonzero_einval)
{
	struct ncsync_wait w;

	w = mkwait(EVENT, NCSYNC_WAIT_EVT_CLEAR, 0, 1, PAST_MS);
	EXPECT_EQ(-EINVAL, wait_ioctl(self->fd, &w));
	w = mkwait(EVENT, NCSYNC_WAIT_EVT_CLEAR_THEN_SET, 0, -1, PAST_MS);
	EXPECT_EQ(-EINVAL, wait_ioctl(self->fd, &w));
	EXPECT_EQ(0, evt_get(_metadata, self->fd, 0));
}

TEST_F(core, wait_efault)
{
	struct ncsync_wait w = mkwait(EVENT, NCSYNC_WAIT_EVT_CLEAR, 0, 0,
				      PAST_MS);
	char *end = guard_end();

	ASSERT_NE(NULL, end);
	EXPECT_EQ(-EFAULT, wait_ioctl(self->fd, NULL));
	EXPECT_EQ(-EFAULT, wait_ioctl(self->fd, (void *)8));
	memcpy(end - 8, &w, 8);
	EXPECT_EQ(-EFAULT, wait_ioctl(self->fd, (void *)(end - 8)));
	EXPECT_EQ(0, evt_get(_metadata, self->fd, 0));
}

/*
 * Sends SIGUSR1 to a thread once it sleeps in an ioctl, then optionally
 * every @period_ms until told to stop, then optionally sets a semaphore.
 */
struct kicker {
	pthread_t th;
	pthread_t target;
	pid_t target_tid;
	int period_ms;
	int stop;
	int sent;
	int set_fd;
	__u32 set_index;
	__s32 set_value;
};

static void *kicker_main(void *arg)
{
	struct kicker *k = arg;

	await_blocked(getpid(), k->target_tid, SYS_ioctl);
	do {
		pthread_kill(k->target, SIGUSR1);
		k->sent++;
		if (k->period_ms)
			sleep_ms(k->period_ms);
	} while (k->period_ms && !__atomic_load_n(&k->stop, __ATOMIC_SEQ_CST));
	if (k->set_fd >= 0) {
		sleep_ms(50);
		do_op(k->set_fd, SEM, NCSYNC_OP_SET, k->set_index,
		      (__u32)k->set_value, NULL);
	}
	return NULL;
}

static void kicker_start(struct __test_metadata *_metadata, struct kicker *k,
			 int period_ms, int set_fd, __u32 idx, __s32 val)
{
	memset(k, 0, sizeof(*k));
	k->target = pthread_self();
	k->target_tid = my_tid();
	k->period_ms = period_ms;
	k->set_fd = set_fd;
	k->set_index = idx;
	k->set_value = val;
	ASSERT_EQ(0, pthread_create(&k->th, NULL, kicker_main, k));
}

TEST_F(core, wait_signal_eintr)
{
	struct kicker k;
	int ret;

	catch_sigusr1(_metadata, false);
	kicker_start(_metadata, &k, 0, -1, 0, 0);
	ret = do_wait(self->fd, SEM, NCSYNC_WAIT_SEM_EQ, 0, 1, LONG_MS, NULL);
	pthread_join(k.th, NULL);
	EXPECT_EQ(-EINTR, ret);
	EXPECT_EQ(1, sig_count);
	EXPECT_EQ(0, sem_get(_metadata, self->fd, 0));
}

TEST_F(core, wait_signal_sa_restart_continues)
{
	struct kicker k;
	__s32 res = 0;
	int ret;

	catch_sigusr1(_metadata, true);
	kicker_start(_metadata, &k, 0, self->fd, 39, 1);
	ret = do_wait(self->fd, SEM, NCSYNC_WAIT_SEM_EQ, 39, 1, LONG_MS, &res);
	pthread_join(k.th, NULL);
	EXPECT_EQ(0, ret);
	EXPECT_EQ(1, res);
	EXPECT_EQ(1, sig_count);
}

TEST_F(core, wait_signal_sa_restart_keeps_deadline)
{
	struct ncsync_wait w = mkwait(SEM, NCSYNC_WAIT_SEM_EQ, 0, 1, 300);
	struct kicker k;
	__s64 end;
	int ret;

	catch_sigusr1(_metadata, true);
	kicker_start(_metadata, &k, 20, -1, 0, 0);
	ret = wait_ioctl(self->fd, &w);
	end = now_ns();
	__atomic_store_n(&k.stop, 1, __ATOMIC_SEQ_CST);
	pthread_join(k.th, NULL);
	EXPECT_EQ(-ETIMEDOUT, ret);
	EXPECT_LE(ns_of(w.deadline) - EARLY_NS, end);
	TH_LOG("%d signals during the wait", (int)sig_count);
	EXPECT_LE(1, sig_count);
}

TEST_F(core, wait_reset_ecanceled)
{
	int fd2 = open_dev(_metadata, 0, O_RDWR);
	struct waiter wt[3];
	unsigned int i;
	int n;

	waiter_start(_metadata, &wt[0], self->fd, SEM, NCSYNC_WAIT_SEM_EQ, 0,
		     1, LONG_MS);
	waiter_start(_metadata, &wt[1], fd2, EVENT, NCSYNC_WAIT_EVT_SET, 200,
		     0, LONG_MS);
	waiter_start(_metadata, &wt[2], fd2, SEM, NCSYNC_WAIT_SEM_GE, 201, 5,
		     FOREVER_MS);
	for (i = 0; i < ARRAY_SIZE(wt); i++)
		waiter_blocked(&wt[i]);
	/* reset until every waiter is gone (normally the first one does) */
	for (n = 0; n < 250; n++) {
		bool all = true;

		core_reset(_metadata, self->fd);
		sleep_ms(20);
		for (i = 0; i < ARRAY_SIZE(wt); i++)
			all &= __atomic_load_n(&wt[i].done, __ATOMIC_SEQ_CST);
		if (all)
			break;
	}
	TH_LOG("%d resets", n + 1);
	for (i = 0; i < ARRAY_SIZE(wt); i++) {
		EXPECT_EQ(-ECANCELED, waiter_join(&wt[i])) TH_LOG("waiter %u",
								  i);
	}
	close(fd2);
}

TEST_F(core, wait_close_ebadf)
{
	int fd2 = open_dev(_metadata, 0, O_RDWR);
	struct waiter a, b;
	bool seen;

	waiter_start(_metadata, &a, fd2, SEM, NCSYNC_WAIT_SEM_EQ, 0, 1,
		     LONG_MS);
	seen = waiter_blocked(&a);
	/* a waiter on another descriptor of the same core is not affected */
	waiter_start(_metadata, &b, self->fd, SEM, NCSYNC_WAIT_SEM_EQ, 0, 1,
		     400);
	waiter_blocked(&b);
	EXPECT_EQ(0, close(fd2));
	EXPECT_EQ(-EBADF, waiter_join(&a))
		TH_LOG("waiter %s sleeping", seen ? "was seen" : "not seen");
	EXPECT_EQ(-ETIMEDOUT, waiter_join(&b));
	EXPECT_EQ(0, sem_get(_metadata, self->fd, 0));
}

/* Closing a dup of the descriptor also ends the process's waits. */
TEST_F(core, wait_close_dup_ebadf)
{
	int fd2 = open_dev(_metadata, 0, O_RDWR);
	int fd3 = dup(fd2);
	struct waiter a;

	ASSERT_LE(0, fd3);
	waiter_start(_metadata, &a, fd2, EVENT, NCSYNC_WAIT_EVT_SET, 0, 0,
		     LONG_MS);
	waiter_blocked(&a);
	EXPECT_EQ(0, close(fd3));
	EXPECT_EQ(-EBADF, waiter_join(&a));
	/* the original descriptor still works */
	EXPECT_EQ(0, do_op(fd2, EVENT, NCSYNC_OP_SET, 0, 0, NULL));
	EXPECT_EQ(0, do_wait(fd2, EVENT, NCSYNC_WAIT_EVT_SET, 0, 0, PAST_MS,
			     NULL));
	close(fd2);
}

/* Another process closing its copy of the open file does not end our wait. */
TEST_F(core, wait_close_by_other_process_continues)
{
	int fd2 = open_dev(_metadata, 0, O_RDWR);
	struct waiter a;
	pid_t pid;

	waiter_start(_metadata, &a, fd2, SEM, NCSYNC_WAIT_SEM_EQ, 3, 1,
		     LONG_MS);
	waiter_blocked(&a);
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0)
		_exit(close(fd2) ? 1 : 0);
	EXPECT_EQ(0, reap(pid));
	sleep_ms(50);
	EXPECT_EQ(0, __atomic_load_n(&a.done, __ATOMIC_SEQ_CST));
	sem_put(_metadata, self->fd, 3, 1);
	EXPECT_EQ(0, waiter_join(&a));
	EXPECT_EQ(1, a.w.result);
	close(fd2);
}

TEST_HARNESS_MAIN
