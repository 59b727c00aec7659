// SPDX-License-Identifier: GPL-2.0
/*
 * Faults the driver must survive (ncsync_faults.h): fork() with the CSR
 * window and the device memory mapped; resets racing submissions and
 * waits; eight processes with programs of their own at once; a descriptor
 * left open, with a blocked program and a blocked wait, while other
 * processes work.  With --cycle-activity it does instead the activity of
 * one load/unload cycle of ncsync_faults_test.sh.
 *
 * Run inside the test VM:  tools/vm-run build/selftests/ncsync_faults_procs_test
 */
#include "ncsync_faults.h"

/* ---------------------------------------------------------------------- */
/* fork() with the window mapped                                           */

static bool map_sem_is(const volatile __s32 *csr, unsigned int i, __s32 v)
{
	__s64 end = now_ns() + LONG_MS * NSEC_PER_MSEC;

	while (csr[(NCSYNC_CSR_SEM_READ >> 2) + i] != v) {
		if (now_ns() > end)
			return false;
		usleep(500);
	}
	return true;
}

/*
 * The child of fork_with_window_mapped: through the mappings @csr and @mem
 * and the descriptor @fd it inherited, see the parent's update, make its
 * own, and leave a blocked program behind.  Its exit code says where it
 * failed.
 */
static void fork_window_child(int fd, const volatile __s32 *csr,
			      volatile __u8 *mem)
{
	struct rec_prog p = {};
	__u32 id;

	/* the parent's update, seen through the inherited mapping */
	if (!map_sem_is(csr, 5, 42))
		_exit(10);
	if (sem_op(fd, NCSYNC_OP_SET, 6, 43, NULL))
		_exit(11);
	mem[0] = 0x5a;
	/* a program of the shared open file outlives the child */
	rec_wait_inc(rec_prog_queue(&p, NCSYNC_ENGINE_POOL), 7, 1, 8);
	if (submit(fd, &p, WD_LONG, &id))
		_exit(12);
	if (await_engine_blocked(fd, id, 0))
		_exit(13);
	if (sem_op(fd, NCSYNC_OP_SET, 9, 1, NULL))
		_exit(14);
	close(fd);
	_exit(0);	/* the mappings go with the child */
}

TEST_F(faults, fork_with_window_mapped)
{
	volatile __s32 *csr;
	volatile __u8 *mem;
	int fd2;
	pid_t pid;

	csr = mmap(NULL, NCSYNC_CSR_SIZE, PROT_READ, MAP_SHARED, self->fd, 0);
	ASSERT_NE(MAP_FAILED, csr);
	mem = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, self->fd,
		   NCSYNC_DEVMEM_OFFSET);
	ASSERT_NE(MAP_FAILED, mem);
	mem[0] = 0;

	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0)
		fork_window_child(self->fd, csr, mem);

	sem_set(_metadata, self->fd, 5, 42);
	EXPECT_TRUE(map_sem_is(csr, 6, 43)) TH_LOG("child's update not seen");
	EXPECT_TRUE(map_sem_is(csr, 9, 1));
	EXPECT_EQ(0x5a, mem[0]);
	reap_ok(_metadata, pid, "the child");

	/* the child's program, still blocked, runs once released */
	sem_set(_metadata, self->fd, 7, 1);
	EXPECT_TRUE(map_sem_is(csr, 8, 1)) TH_LOG("the child's program");

	/* the parent goes on; then close with the window still mapped */
	sem_set(_metadata, self->fd, 10, 44);
	EXPECT_TRUE(map_sem_is(csr, 10, 44));
	ASSERT_EQ(0, close(self->fd));
	self->fd = -1;
	fd2 = open(DEV0, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, fd2);
	sem_set(_metadata, fd2, 11, 45);
	EXPECT_TRUE(map_sem_is(csr, 11, 45)) TH_LOG("mapping after close");
	mem[1] = 0x77;
	ASSERT_EQ(0, munmap((void *)csr, NCSYNC_CSR_SIZE));
	ASSERT_EQ(0, munmap((void *)mem, 4096));
	/* the device memory stays the core's */
	mem = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd2,
		   NCSYNC_DEVMEM_OFFSET);
	ASSERT_NE(MAP_FAILED, mem);
	EXPECT_EQ(0x5a, mem[0]);
	EXPECT_EQ(0x77, mem[1]);
	ASSERT_EQ(0, munmap((void *)mem, 4096));
	close(fd2);
	no_programs_left(_metadata);
}

/* ---------------------------------------------------------------------- */
/* Reset during submissions                                                */

#define RESET_PROGS	120

struct reset_race {
	int fd;
	unsigned int which;
	volatile int stop;
	int done, cancelled, timed_out, other;
	int err, err_line;
};

static void *reset_submitter(void *arg)
{
	struct reset_race *r = arg;
	static const __u8 engines[2][2] = {
		{ NCSYNC_ENGINE_POOL, NCSYNC_ENGINE_ACT },
		{ NCSYNC_ENGINE_PE, NCSYNC_ENGINE_DVE },
	};
	unsigned int k, e, i;

	for (k = 0; k < RESET_PROGS; k++) {
		struct rec_prog p = {};
		__u32 id, state;
		int ret;

		for (e = 0; e < 2; e++) {
			struct rec_queue *q;

			q = rec_prog_queue(&p, engines[r->which][e]);

			for (i = 0; i < 8; i++)
				rec_inc2(q, 60 + r->which, 62);
			/* one in five blocks until a reset ends it */
			if (k % 5 == 4)
				rec_wait_inc(q, 63, 1, 62);
		}
		ret = submit(r->fd, &p, WD_LONG, &id);
		rec_prog_free(&p);
		if (ret) {
			r->err = ret;
			r->err_line = __LINE__;
			break;
		}
		ret = prog_wait(r->fd, id, LONG_MS, &state);
		if (ret) {
			r->err = ret;
			r->err_line = __LINE__;
			break;
		}
		if (state == NCSYNC_PROG_DONE)
			r->done++;
		else if (state == NCSYNC_PROG_CANCELLED)
			r->cancelled++;
		else if (state == NCSYNC_PROG_TIMED_OUT)
			r->timed_out++;
		else
			r->other++;
		ret = release(r->fd, id);
		if (ret) {
			r->err = ret;
			r->err_line = __LINE__;
			break;
		}
	}
	return NULL;
}

static void *reset_resetter(void *arg)
{
	struct reset_race *r = arg;
	unsigned int seed = 7;

	while (!r->stop) {
		int ret = core_reset(r->fd);

		if (ret) {
			r->err = ret;
			r->err_line = __LINE__;
			break;
		}
		r->done++;
		usleep(200 + rand_r(&seed) % 3000);
	}
	return NULL;
}

static void *reset_waiter(void *arg)
{
	struct reset_race *r = arg;

	while (!r->stop) {
		int ret = sem_wait(r->fd, 64, W_GE, 1, 200, NULL);

		if (ret == -ECANCELED) {
			r->cancelled++;
		} else if (ret == -ETIMEDOUT) {
			r->timed_out++;
		} else {
			r->err = ret;
			r->err_line = __LINE__;
			break;
		}
	}
	return NULL;
}

TEST_F_TIMEOUT(faults, reset_during_submission, 600)
{
	struct reset_race sub[2] = { 0 }, rs = { 0 }, wt = { 0 };
	pthread_t th[4];
	struct rec_prog p = {};
	unsigned int i;
	__u32 id, state;

	for (i = 0; i < 2; i++) {
		sub[i].fd = open(DEV0, O_RDWR | O_CLOEXEC);
		ASSERT_LE(0, sub[i].fd);
		sub[i].which = i;
		ASSERT_EQ(0, pthread_create(&th[i], NULL, reset_submitter,
					    &sub[i]));
	}
	rs.fd = self->fd;
	wt.fd = open(DEV0, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, wt.fd);
	ASSERT_EQ(0, pthread_create(&th[2], NULL, reset_resetter, &rs));
	ASSERT_EQ(0, pthread_create(&th[3], NULL, reset_waiter, &wt));
	for (i = 0; i < 2; i++)
		join_ok(_metadata, th[i], "a submitter");
	rs.stop = 1;
	wt.stop = 1;
	join_ok(_metadata, th[2], "the resetter");
	join_ok(_metadata, th[3], "the waiter");

	for (i = 0; i < 2; i++) {
		EXPECT_EQ(0, sub[i].err)
			TH_LOG("submitter %u: %s at line %d", i,
			       strerror(-sub[i].err), sub[i].err_line);
		EXPECT_EQ(0, sub[i].other);
		EXPECT_EQ(0, sub[i].timed_out)
			TH_LOG("submitter %u: a program outlived the resets", i);
		EXPECT_EQ(RESET_PROGS, sub[i].done + sub[i].cancelled +
				       sub[i].timed_out);
		TH_LOG("submitter %u: %d done, %d cancelled", i, sub[i].done,
		       sub[i].cancelled);
		close(sub[i].fd);
	}
	EXPECT_EQ(0, rs.err) TH_LOG("reset: %s", strerror(-rs.err));
	EXPECT_EQ(0, wt.err) TH_LOG("wait: %s", strerror(-wt.err));
	TH_LOG("%d resets; the waiter: %d cancelled, %d timed out", rs.done,
	       wt.cancelled, wt.timed_out);
	close(wt.fd);

	/* the core works: a program runs to its end */
	ASSERT_EQ(0, core_reset(self->fd));
	rec_inc(rec_prog_queue(&p, NCSYNC_ENGINE_POOL), 65);
	rec_inc(rec_prog_queue(&p, NCSYNC_ENGINE_DVE), 65);
	ASSERT_EQ(0, submit(self->fd, &p, WD_LONG, &id));
	rec_prog_free(&p);
	ASSERT_EQ(0, prog_wait(self->fd, id, LONG_MS, &state));
	EXPECT_EQ(NCSYNC_PROG_DONE, state);
	EXPECT_EQ(2, sem_get(_metadata, self->fd, 65));
	no_programs_left(_metadata);
}

/* ---------------------------------------------------------------------- */
/* Many processes                                                          */

#define NPROC		8
#define NPROG		8
#define NREC		10
#define SEM_TOTAL	100

static int many_child(unsigned int c, unsigned int core, int gate)
{
	__u32 ids[NPROG], state;
	char path[32], x;
	unsigned int k, e, i;
	__s32 result;
	int fd;

	snprintf(path, sizeof(path), DEV_FMT, core);
	fd = open(path, O_RDWR);
	if (fd < 0)
		return 10;
	if (read(gate, &x, 1) != 0)
		return 11;
	for (k = 0; k < NPROG; k++) {
		static struct rec_prog p;

		rec_prog_free(&p);
		for (e = 0; e < 2; e++) {
			struct rec_queue *q;

			q = rec_prog_queue(&p, engine_ids[(c + e + k) % 5]);
			for (i = 0; i < NREC; i++)
				rec_inc2(q, SEM_TOTAL, SEM_TOTAL + 1 + c);
		}
		if (submit(fd, &p, WD_LONG, &ids[k]))
			return 12;
	}
	/* a wait for our own total, then every program's end */
	if (sem_wait(fd, SEM_TOTAL + 1 + c, NCSYNC_WAIT_SEM_EQ,
		     NPROG * 2 * NREC, LONG_MS * 3, &result))
		return 13;
	for (k = 0; k < NPROG; k++) {
		if (prog_wait(fd, ids[k], LONG_MS, &state))
			return 14;
		if (state != NCSYNC_PROG_DONE)
			return 15;
		/* leave the last one for close() to forget */
		if (k < NPROG - 1 && release(fd, ids[k]))
			return 16;
	}
	close(fd);
	return 0;
}

TEST_F_TIMEOUT(faults, many_processes_with_programs, 600)
{
	unsigned int c, ncores = num_cores(), per_core[64] = { 0 };
	pid_t pids[NPROC];
	int gate[2], fds[64];

	if (ncores > 64)
		ncores = 64;
	ASSERT_EQ(0, pipe(gate));
	for (c = 0; c < NPROC; c++) {
		per_core[c % ncores]++;
		pids[c] = fork();
		ASSERT_LE(0, pids[c]);
		if (pids[c] == 0) {
			close(gate[1]);
			_exit(many_child(c, c % ncores, gate[0]));
		}
	}
	for (c = 0; c < ncores && c < NPROC; c++) {
		char path[32];

		snprintf(path, sizeof(path), DEV_FMT, c);
		fds[c] = open(path, O_RDWR | O_CLOEXEC);
		ASSERT_LE(0, fds[c]);
		if (c)
			ASSERT_EQ(0, core_reset(fds[c]));
	}
	close(gate[0]);
	close(gate[1]);	/* go */
	for (c = 0; c < NPROC; c++) {
		char what[32];

		snprintf(what, sizeof(what), "child %u", c);
		reap_ok(_metadata, pids[c], what);
	}
	for (c = 0; c < ncores && c < NPROC; c++) {
		EXPECT_EQ(per_core[c] * NPROG * 2 * NREC,
			  sem_get(_metadata, fds[c], SEM_TOTAL))
			TH_LOG("core %u", c);
		close(fds[c]);
	}
	for (c = 0; c < NPROC; c++) {
		char path[32];
		int fd;

		snprintf(path, sizeof(path), DEV_FMT, c % ncores);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		ASSERT_LE(0, fd);
		EXPECT_EQ(NPROG * 2 * NREC,
			  sem_get(_metadata, fd, SEM_TOTAL + 1 + c))
			TH_LOG("child %u", c);
		close(fd);
	}
	no_programs_left(_metadata);
}

/* ---------------------------------------------------------------------- */
/* A descriptor left open                                                  */

#define OTHERS		4
#define ROUNDS		10

static int other_worker(unsigned int w)
{
	static const __u8 engines[4] = {
		NCSYNC_ENGINE_ACT, NCSYNC_ENGINE_PE, NCSYNC_ENGINE_DVE,
		NCSYNC_ENGINE_SP,
	};
	unsigned int k, i;

	for (k = 0; k < ROUNDS; k++) {
		struct rec_prog p = {};
		struct rec_queue *q;
		__u32 id, state;
		int fd = open(DEV0, O_RDWR);
		int ret;

		if (fd < 0)
			return 10;
		q = rec_prog_queue(&p, engines[(w + k) % 4]);
		for (i = 0; i < 5; i++)
			rec_inc(q, 30);
		ret = submit(fd, &p, WD_LONG, &id);
		rec_prog_free(&p);
		if (ret)
			return 11;
		if (prog_wait(fd, id, LONG_MS, &state) ||
		    state != NCSYNC_PROG_DONE)
			return 12;
		if (sem_op(fd, NCSYNC_OP_INC, 31, 1, NULL))
			return 13;
		close(fd);
	}
	return 0;
}

TEST_F_TIMEOUT(faults, descriptor_left_open_while_others_work, 300)
{
	struct ncsync_prog_status before, after;
	struct waiter w;
	struct rec_prog p = {};
	pid_t pids[OTHERS];
	unsigned int i;
	__u32 id, state;
	int idle;

	/* left open: a blocked program, a blocked wait, an idle descriptor */
	rec_wait_inc(rec_prog_queue(&p, NCSYNC_ENGINE_POOL), 20, 1, 21);
	ASSERT_EQ(0, submit(self->fd, &p, 10 * WD_LONG, &id));
	rec_prog_free(&p);
	ASSERT_EQ(0, await_engine_blocked(self->fd, id, 0));
	ASSERT_EQ(0, prog_status(self->fd, id, 0, &before, NULL));
	waiter_start(_metadata, &w, self->fd, 22, NCSYNC_WAIT_SEM_EQ, 7,
		     10 * LONG_MS);
	idle = open(DEV0, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, idle);

	for (i = 0; i < OTHERS; i++) {
		pids[i] = fork();
		ASSERT_LE(0, pids[i]);
		if (pids[i] == 0)
			_exit(other_worker(i));
	}
	for (i = 0; i < OTHERS; i++)
		reap_ok(_metadata, pids[i], "a worker");
	EXPECT_EQ(OTHERS * ROUNDS * 5, sem_get(_metadata, self->fd, 30));
	EXPECT_EQ(OTHERS * ROUNDS, sem_get(_metadata, self->fd, 31));

	/* nothing of ours moved */
	ASSERT_EQ(0, prog_status(self->fd, id, 0, &after, NULL));
	EXPECT_EQ(NCSYNC_PROG_RUNNING, after.state);
	EXPECT_EQ(NCSYNC_ENG_BLOCKED, after.engines[0].state);
	EXPECT_EQ(0, memcmp(&before.engines[0], &after.engines[0],
			    sizeof(before.engines[0])));
	EXPECT_FALSE(__atomic_load_n(&w.done, __ATOMIC_SEQ_CST))
		TH_LOG("the wait left open ended: %d", w.ret);

	sem_set(_metadata, self->fd, 22, 7);
	join_ok(_metadata, w.th, "the waiter left open");
	EXPECT_EQ(0, w.ret) TH_LOG("%s", strerror(-w.ret));
	sem_set(_metadata, self->fd, 20, 1);
	ASSERT_EQ(0, prog_wait(self->fd, id, LONG_MS, &state));
	EXPECT_EQ(NCSYNC_PROG_DONE, state);
	EXPECT_EQ(1, sem_get(_metadata, self->fd, 21));
	close(idle);
	ASSERT_EQ(0, close(self->fd));
	self->fd = -1;
	no_programs_left(_metadata);
}

/* ---------------------------------------------------------------------- */
/* The activity of a load/unload cycle (ncsync_faults_test.sh)            */

struct cycle_waiter {
	int fd;
	int ret;
	pid_t tid;
};

static void *cycle_waiter_main(void *arg)
{
	struct cycle_waiter *cw = arg;

	__atomic_store_n(&cw->tid, my_tid(), __ATOMIC_SEQ_CST);
	cw->ret = sem_wait(cw->fd, 5, NCSYNC_WAIT_SEM_EQ, 1, LONG_MS, NULL);
	return NULL;
}

static int __attribute__((format(printf, 2, 3)))
cycle_fail(int n, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "cycle activity: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n");
	return n;
}

/*
 * Open, a program that ends, a program left blocked, a mapping, a wait
 * left blocked in another thread; then close with all of that in flight.
 * The module must unload right after this process exits.
 */
static int cycle_activity_core(unsigned int core)
{
	struct cycle_waiter cw = { 0 };
	struct rec_prog a = {}, b = {};
	struct ncsync_info info;
	struct rec_queue *q;
	__u32 id, state;
	char path[32];
	pthread_t th;
	__s32 v = 0;
	void *map;
	int ret;

	snprintf(path, sizeof(path), DEV_FMT, core);
	cw.fd = open(path, O_RDWR | O_CLOEXEC);
	if (cw.fd < 0)
		return cycle_fail(10, "open %s: %s", path, strerror(errno));
	if (ioctl(cw.fd, NCSYNC_IOC_INFO, &info) || info.core != core)
		return cycle_fail(11, "INFO");
	if (core_reset(cw.fd) || sem_op(cw.fd, NCSYNC_OP_SET, 1, 5, NULL))
		return cycle_fail(12, "reset or set");
	map = mmap(NULL, NCSYNC_CSR_SIZE, PROT_READ, MAP_SHARED, cw.fd, 0);
	if (map == MAP_FAILED ||
	    ((__s32 *)map)[(NCSYNC_CSR_SEM_READ >> 2) + 1] != 5)
		return cycle_fail(13, "mapping");

	q = rec_prog_queue(&a, NCSYNC_ENGINE_POOL);
	rec_inc(q, 2);
	rec_inc(q, 2);
	rec_inc(q, 2);
	rec_wait_inc(q, 2, 3, 3);
	rec_inc(rec_prog_queue(&a, NCSYNC_ENGINE_SP), 3);
	ret = submit(cw.fd, &a, WD_LONG, &id);
	rec_prog_free(&a);
	if (ret)
		return cycle_fail(14, "submit: %s", strerror(-ret));
	if (prog_wait(cw.fd, id, LONG_MS, &state) || state != NCSYNC_PROG_DONE)
		return cycle_fail(15, "program did not end DONE");
	if (pread(cw.fd, &v, 4, NCSYNC_CSR_SEM_READ + 4 * 3) != 4 || v != 2)
		return cycle_fail(16, "sem 3 is %d", v);

	rec_wait_inc(rec_prog_queue(&b, NCSYNC_ENGINE_ACT), 4, 1, 4);
	ret = submit(cw.fd, &b, WD_LONG, &id);
	rec_prog_free(&b);
	if (ret || await_engine_blocked(cw.fd, id, 0))
		return cycle_fail(17, "blocked program");
	if (pthread_create(&th, NULL, cycle_waiter_main, &cw))
		return cycle_fail(18, "pthread_create");
	while (!__atomic_load_n(&cw.tid, __ATOMIC_SEQ_CST))
		usleep(100);
	await_blocked(getpid(), cw.tid, SYS_ioctl);
	close(cw.fd);
	pthread_join(th, NULL);
	if (cw.ret != -EBADF)
		return cycle_fail(19, "the wait ended with %d, not EBADF", cw.ret);
	munmap(map, NCSYNC_CSR_SIZE);
	return 0;
}

static int cycle_activity(void)
{
	unsigned int c, n = num_cores();
	int ret;

	for (c = 0; c < n && c < 2; c++) {
		ret = cycle_activity_core(c);
		if (ret)
			return ret;
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "--cycle-activity"))
		return cycle_activity();
	return test_harness_run(argc, argv);
}
