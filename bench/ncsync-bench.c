// SPDX-License-Identifier: GPL-2.0
/*
 * ncsync-bench: what ncsync costs, against what the same thing costs
 * without it, measured in the same run on the same machine.
 *
 * Each row of the table is the median of R repetitions of an ncsync
 * measurement and of its baseline (a plain load, a system call, a futex
 * ping-pong, a pthread barrier, an atomic add), run alternately so that a
 * drift of the machine hits both.  The ratio is ncsync / baseline and is
 * checked against the row's target.  Then the growth series (queue length,
 * cores, engines) and the kernel memory of a core and of a queued record.
 *
 * Meant for the test VM: `make bench`, or
 *   tools/vm-run build/bench/ncsync-bench [--quick] [--json FILE]
 * Under emulation (QEMU TCG) absolute times mean nothing, only ratios do.
 * Documentation/ncsync/performance.rst explains the rows.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <poll.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "ncsync.h"
#include "ncsync_record.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define MAX_CORES	4
#define MAX_ROWS	16
#define MAX_SERIES	8
#define MAX_POINTS	8
#define MAX_REPS	32
#define REG_LOOP	0	/* the counted loops' counter */
#define DEADLINE_NS	(300LL * 1000000000LL)

static const uint8_t engines[NCSYNC_NUM_ENGINES] = {
	NCSYNC_ENGINE_POOL, NCSYNC_ENGINE_ACT, NCSYNC_ENGINE_PE,
	NCSYNC_ENGINE_DVE, NCSYNC_ENGINE_SP,
};

struct opts {
	unsigned int reps;
	bool quick;
	bool reload;
	bool nc_only;
	const char *json;
	const char *only;
	const char *module;
	double rep_ms;
};

/**
 * struct row - one line of the table.
 * @key: short name (JSON, --only, the plot).
 * @what: the ncsync measurement.
 * @base_what: the baseline.
 * @unit: unit of the two figures.
 * @iters: operations per repetition of the ncsync measurement.
 * @base_iters: operations per repetition of the baseline.
 * @vnc: the ncsync figure of each repetition.
 * @vbase: the baseline figure of each repetition.
 * @nc: median ncsync figure.
 * @base: median baseline figure.
 * @ratio: @nc / @base.
 * @target: the target ratio.
 * @higher: the figures are rates: the target is a floor, not a ceiling.
 * @pass: the target is met.
 * @info: a breakdown row, with no target of its own.
 */
struct row {
	const char *key;
	const char *what;
	const char *base_what;
	const char *unit;
	unsigned long iters;
	unsigned long base_iters;
	double vnc[MAX_REPS];
	double vbase[MAX_REPS];
	double nc;
	double base;
	double ratio;
	double target;
	bool higher;
	bool pass;
	bool info;
};

/**
 * struct series - one growth series: a cost per unit of work at each size.
 * @key: short name.
 * @what: what grows and what is measured.
 * @unit: unit of @cost.
 * @npoints: entries used.
 * @x: the sizes.
 * @cost: the median cost per unit of work at each size.
 * @norm: @cost relative to the first size.
 * @base_cost: the baseline's cost at each size, or 0.
 * @pass: no point costs more than twice the first (linear, no cliff).
 */
struct series {
	const char *key;
	const char *what;
	const char *unit;
	unsigned int npoints;
	unsigned long x[MAX_POINTS];
	double cost[MAX_POINTS];
	double norm[MAX_POINTS];
	double base_cost[MAX_POINTS];
	bool pass;
};

/* Kernel memory, from /proc/meminfo, in KiB. */
struct meminfo {
	long memfree;
	long slab;
	long kstack;
	long vmalloc;
	long pagetables;
};

/**
 * struct memrow - one line of the kernel memory report.
 * @key: short name.
 * @what: what is measured.
 * @method: how.
 * @bytes: the measured bytes.
 * @computed: the bytes the documented structures add up to, or 0.
 */
struct memrow {
	const char *key;
	const char *what;
	const char *method;
	double bytes;
	double computed;
};

static struct opts opt = { .reps = 5, .reload = true, .rep_ms = 300 };
static struct row rows[MAX_ROWS];
static unsigned int nrows;
static struct series series[MAX_SERIES];
static unsigned int nseries;
static struct memrow mems[8];
static unsigned int nmems;
static unsigned int ncores;
static volatile int64_t sink;

static void die(const char *what, int err)
{
	fprintf(stderr, "ncsync-bench: %s: %s\n", what,
		err ? strerror(err < 0 ? -err : err) : "failed");
	exit(1);
}

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(double *v, unsigned int n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n & 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Whether --only names @key (a word of its list), or there is no --only. */
static bool selected(const char *key)
{
	size_t len = strlen(key);
	const char *p = opt.only;

	if (!p)
		return true;
	while ((p = strstr(p, key))) {
		if ((p == opt.only || strchr(" ,", p[-1])) &&
		    (!p[len] || strchr(" ,", p[len])))
			return true;
		p += len;
	}
	return false;
}

/* ---------------------------------------------------------------- futex */

static long futex(atomic_int *addr, int op, int val)
{
	return syscall(SYS_futex, addr, op | FUTEX_PRIVATE_FLAG, val, NULL,
		       NULL, 0);
}

/* Sleep until *addr >= want. */
static void futex_wait_ge(atomic_int *addr, int want)
{
	int v;

	while ((v = atomic_load(addr)) < want)
		futex(addr, FUTEX_WAIT, v);
}

static void futex_post(atomic_int *addr, int val)
{
	atomic_store(addr, val);
	futex(addr, FUTEX_WAKE, 1);
}

struct pingpong {
	atomic_int ping;
	atomic_int pong;
	int n;
};

static void *pong_thread(void *arg)
{
	struct pingpong *pp = arg;
	int i;

	for (i = 1; i <= pp->n; i++) {
		futex_wait_ge(&pp->ping, i);
		futex_post(&pp->pong, i);
	}
	return NULL;
}

/* ns per round trip of a futex ping-pong between two threads. */
static double base_futex_pingpong(unsigned long n)
{
	struct pingpong pp = { .n = (int)n };
	pthread_t t;
	int64_t t0, t1;
	int i;

	if (pthread_create(&t, NULL, pong_thread, &pp))
		die("pthread_create", errno);
	t0 = now_ns();
	for (i = 1; i <= (int)n; i++) {
		futex_post(&pp.ping, i);
		futex_wait_ge(&pp.pong, i);
	}
	t1 = now_ns();
	pthread_join(t, NULL);
	return (double)(t1 - t0) / n;
}

struct pbar {
	pthread_barrier_t bar;
	unsigned long n;
};

static void *pbar_thread(void *arg)
{
	struct pbar *pb = arg;
	unsigned long i;

	for (i = 0; i < pb->n; i++)
		pthread_barrier_wait(&pb->bar);
	return NULL;
}

/* Barriers per second of @nthreads threads in a pthread_barrier_wait loop. */
static double base_pthread_barrier(unsigned int nthreads, unsigned long n)
{
	struct pbar pb = { .n = n };
	pthread_t t[NCSYNC_NUM_ENGINES];
	int64_t t0, t1;
	unsigned int i;

	pthread_barrier_init(&pb.bar, NULL, nthreads);
	t0 = now_ns();
	for (i = 0; i < nthreads; i++)
		if (pthread_create(&t[i], NULL, pbar_thread, &pb))
			die("pthread_create", errno);
	for (i = 0; i < nthreads; i++)
		pthread_join(t[i], NULL);
	t1 = now_ns();
	pthread_barrier_destroy(&pb.bar);
	return n * 1e9 / (double)(t1 - t0);
}

/* ---------------------------------------------------------------- devices */

static struct ncsync_dev *devs[MAX_CORES];

static void devs_open(void)
{
	unsigned int i;
	int ret;

	for (i = 0; i < MAX_CORES; i++) {
		ret = ncsync_open(i, true, &devs[i]);
		if (ret == -ENOENT && i)
			break;
		if (ret)
			die("ncsync_open", ret);
	}
	ncores = i;
}

static void devs_close(void)
{
	unsigned int i;

	for (i = 0; i < MAX_CORES; i++) {
		ncsync_close(devs[i]);
		devs[i] = NULL;
	}
	ncores = 0;
}

/* ---------------------------------------------------------------- programs */

/**
 * struct bprog - a built program and what it needs to run.
 * @prog: the program, finalized.
 * @gate: every stream waits for this semaphore to reach 1 first, so that
 *	the timed part is the execution, not the submission.
 * @nq: queues in @qs.
 * @qs: the queues, for NCSYNC_IOC_SUBMIT.
 * @records: records over all queues.
 */
struct bprog {
	struct ncsync_program *prog;
	int gate;
	unsigned int nq;
	struct ncsync_queue qs[NCSYNC_NUM_ENGINES];
	uint64_t records;
};

static void chk(int ret, const char *what)
{
	if (ret < 0)
		die(what, ret);
}

static void bprog_new(struct bprog *bp, unsigned int neng)
{
	struct ncsync_stream *s;
	unsigned int e;

	memset(bp, 0, sizeof(*bp));
	chk(ncsync_program_new(&bp->prog), "ncsync_program_new");
	for (e = 0; e < neng; e++)
		chk(ncsync_program_stream(bp->prog, engines[e], &s),
		    "ncsync_program_stream");
	bp->gate = ncsync_sem_alloc(bp->prog, 1);
	chk(bp->gate, "ncsync_sem_alloc");
	for (e = 0; e < neng; e++) {
		s = ncsync_program_find_stream(bp->prog, engines[e]);
		chk(ncsync_add_semaphore_wait_ge(s, bp->gate, 1), "gate");
	}
}

static struct ncsync_stream *bprog_stream(struct bprog *bp, unsigned int e)
{
	return ncsync_program_find_stream(bp->prog, engines[e]);
}

static void bprog_finish(struct bprog *bp)
{
	struct ncsync_stream *s;
	unsigned int e;

	chk(ncsync_program_finalize(bp->prog), "ncsync_program_finalize");
	for (e = 0; e < NCSYNC_NUM_ENGINES; e++) {
		s = ncsync_program_find_stream(bp->prog, engines[e]);
		if (!s || !ncsync_stream_count(s))
			continue;
		bp->qs[bp->nq].records = (uintptr_t)ncsync_stream_record(s, 0);
		bp->qs[bp->nq].count = ncsync_stream_count(s);
		bp->qs[bp->nq].engine = engines[e];
		bp->records += ncsync_stream_count(s);
		bp->nq++;
	}
}

static void bprog_free(struct bprog *bp)
{
	ncsync_program_free(bp->prog);
	bp->prog = NULL;
}

/* Submit without the library's revalidation: only the kernel's work. */
static uint32_t bprog_submit(struct ncsync_dev *dev, struct bprog *bp)
{
	struct ncsync_submit sub = {
		.queues = (uintptr_t)bp->qs, .nqueues = bp->nq,
	};

	if (ioctl(ncsync_fd(dev), NCSYNC_IOC_SUBMIT, &sub)) {
		fprintf(stderr, "ncsync-bench: submit: engine %u record %u reason %u\n",
			sub.bad_engine, sub.bad_index, sub.reason);
		die("NCSYNC_IOC_SUBMIT", errno);
	}
	return sub.id;
}

static void bprog_open_gate(struct ncsync_dev *dev, struct bprog *bp)
{
	chk(ncsync_sem_inc(dev, bp->gate, 1, NULL), "ncsync_sem_inc");
}

static void prog_end(struct ncsync_dev *dev, uint32_t id)
{
	struct ncsync_prog_status st;
	struct timespec dl;
	uint32_t state;

	ncsync_deadline_after(&dl, DEADLINE_NS);
	chk(ncsync_program_wait(dev, id, &dl, &state), "ncsync_program_wait");
	if (state != NCSYNC_PROG_DONE) {
		fprintf(stderr, "ncsync-bench: program %u ended in state %u\n",
			id, state);
		exit(1);
	}
	chk(ncsync_program_status(dev, id, true, &st, NULL),
	    "ncsync_program_status");
}

/*
 * Run a built program on @k cores at once; return the ns from opening the
 * gates to the end of the last one.  Each core is reset first: the
 * semaphores (the gate, the barrier counter) start at zero.
 */
static double bprog_run_cores(struct bprog *bp, unsigned int k,
			      double *submit_ns)
{
	uint32_t ids[MAX_CORES];
	int64_t t0, t1;
	unsigned int c;

	for (c = 0; c < k; c++)
		chk(ncsync_reset(devs[c]), "ncsync_reset");
	t0 = now_ns();
	for (c = 0; c < k; c++)
		ids[c] = bprog_submit(devs[c], bp);
	t1 = now_ns();
	if (submit_ns)
		*submit_ns = (double)(t1 - t0);
	t0 = now_ns();
	for (c = 0; c < k; c++)
		bprog_open_gate(devs[c], bp);
	for (c = 0; c < k; c++)
		prog_end(devs[c], ids[c]);
	t1 = now_ns();
	return (double)(t1 - t0);
}

static double bprog_run(struct bprog *bp)
{
	return bprog_run_cores(bp, 1, NULL);
}

/*
 * Engine ping-pong: A waits s1 >= i then increments s2; B increments s1
 * then waits s2 >= i; i counts in a register, register-form waits, a
 * counted loop of @n rounds.
 */
static void build_pingpong(struct bprog *bp, unsigned long n)
{
	struct ncsync_stream *a, *b;
	int s1, s2, la, lb;

	bprog_new(bp, 2);
	a = bprog_stream(bp, 0);
	b = bprog_stream(bp, 1);
	s1 = ncsync_sem_alloc(bp->prog, 1);
	s2 = ncsync_sem_alloc(bp->prog, 1);
	chk(s1, "alloc");
	chk(s2, "alloc");
	la = ncsync_label_new(bp->prog);
	lb = ncsync_label_new(bp->prog);
	chk(ncsync_label_bind(a, la), "bind");
	chk(ncsync_add_mov32(a, NCSYNC_ALU_ADD_IMM, REG_LOOP, REG_LOOP, 1,
			     NULL), "mov");
	chk(ncsync_add_semaphore_wait_reg(a, s1, NCSYNC_WAIT_SEM_GE, REG_LOOP),
	    "wait");
	chk(ncsync_add_semaphore_inc(a, s2), "inc");
	chk(ncsync_add_branch_imm(a, NCSYNC_BR_LT, NCSYNC_DTYPE_U32, REG_LOOP,
				  n, la, NULL), "branch");
	chk(ncsync_label_bind(b, lb), "bind");
	chk(ncsync_add_mov32(b, NCSYNC_ALU_ADD_IMM, REG_LOOP, REG_LOOP, 1,
			     NULL), "mov");
	chk(ncsync_add_semaphore_inc(b, s1), "inc");
	chk(ncsync_add_semaphore_wait_reg(b, s2, NCSYNC_WAIT_SEM_GE, REG_LOOP),
	    "wait");
	chk(ncsync_add_branch_imm(b, NCSYNC_BR_LT, NCSYNC_DTYPE_U32, REG_LOOP,
				  n, lb, NULL), "branch");
	bprog_finish(bp);
}

/* @neng engines, a counted loop of @n ncsync_add_sync_barrier() passes. */
static void build_barrier(struct bprog *bp, unsigned int neng, unsigned long n)
{
	int labels[NCSYNC_NUM_ENGINES];
	unsigned int e;

	bprog_new(bp, neng);
	for (e = 0; e < neng; e++) {
		labels[e] = ncsync_label_new(bp->prog);
		chk(ncsync_label_bind(bprog_stream(bp, e), labels[e]), "bind");
	}
	chk(ncsync_add_sync_barrier(bp->prog), "ncsync_add_sync_barrier");
	for (e = 0; e < neng; e++) {
		struct ncsync_stream *s = bprog_stream(bp, e);

		chk(ncsync_add_mov32(s, NCSYNC_ALU_ADD_IMM, REG_LOOP,
				     REG_LOOP, 1, NULL), "mov");
		chk(ncsync_add_branch_imm(s, NCSYNC_BR_LT, NCSYNC_DTYPE_U32,
					  REG_LOOP, n, labels[e], NULL),
		    "branch");
	}
	bprog_finish(bp);
}

/* One engine: @n semaphore-inc records in a row, or a counted loop of @n. */
static void build_inc(struct bprog *bp, unsigned long n, bool loop)
{
	struct ncsync_stream *s;
	unsigned long i;
	int sem, l;

	bprog_new(bp, 1);
	s = bprog_stream(bp, 0);
	sem = ncsync_sem_alloc(bp->prog, 1);
	chk(sem, "alloc");
	if (!loop) {
		for (i = 0; i < n; i++)
			chk(ncsync_add_semaphore_inc(s, sem), "inc");
	} else {
		l = ncsync_label_new(bp->prog);
		chk(ncsync_label_bind(s, l), "bind");
		chk(ncsync_add_semaphore_inc(s, sem), "inc");
		chk(ncsync_add_mov32(s, NCSYNC_ALU_ADD_IMM, REG_LOOP,
				     REG_LOOP, 1, NULL), "mov");
		chk(ncsync_add_branch_imm(s, NCSYNC_BR_LT, NCSYNC_DTYPE_U32,
					  REG_LOOP, n, l, NULL), "branch");
	}
	bprog_finish(bp);
}

/* ---------------------------------------------------------------- measures */

static double nc_sem_read(unsigned long n)
{
	struct ncsync_dev *dev = devs[0];
	int64_t s = 0, t0, t1;
	unsigned long i;

	t0 = now_ns();
	for (i = 0; i < n; i += 8) {
		s += ncsync_sem_read(dev, i & 255);
		s += ncsync_sem_read(dev, (i + 1) & 255);
		s += ncsync_sem_read(dev, (i + 2) & 255);
		s += ncsync_sem_read(dev, (i + 3) & 255);
		s += ncsync_sem_read(dev, (i + 4) & 255);
		s += ncsync_sem_read(dev, (i + 5) & 255);
		s += ncsync_sem_read(dev, (i + 6) & 255);
		s += ncsync_sem_read(dev, (i + 7) & 255);
	}
	t1 = now_ns();
	sink = s;
	return (double)(t1 - t0) / n;
}

static const volatile int32_t *map_sems;

static double nc_sem_read_raw(unsigned long n)
{
	const volatile int32_t *p = map_sems;
	int64_t s = 0, t0, t1;
	unsigned long i;

	t0 = now_ns();
	for (i = 0; i < n; i += 8) {
		s += p[i & 255];
		s += p[(i + 1) & 255];
		s += p[(i + 2) & 255];
		s += p[(i + 3) & 255];
		s += p[(i + 4) & 255];
		s += p[(i + 5) & 255];
		s += p[(i + 6) & 255];
		s += p[(i + 7) & 255];
	}
	t1 = now_ns();
	sink = s;
	return (double)(t1 - t0) / n;
}

static int32_t local_sems[NCSYNC_NUM_SEMS];

static double base_load(unsigned long n)
{
	const volatile int32_t *p = local_sems;
	int64_t s = 0, t0, t1;
	unsigned long i;

	t0 = now_ns();
	for (i = 0; i < n; i += 8) {
		s += p[i & 255];
		s += p[(i + 1) & 255];
		s += p[(i + 2) & 255];
		s += p[(i + 3) & 255];
		s += p[(i + 4) & 255];
		s += p[(i + 5) & 255];
		s += p[(i + 6) & 255];
		s += p[(i + 7) & 255];
	}
	t1 = now_ns();
	sink = s;
	return (double)(t1 - t0) / n;
}

static double nc_inc_ioctl(unsigned long n)
{
	int64_t t0, t1;
	unsigned long i;

	t0 = now_ns();
	for (i = 0; i < n; i++)
		chk(ncsync_sem_inc(devs[0], 7, 1, NULL), "ncsync_sem_inc");
	t1 = now_ns();
	return (double)(t1 - t0) / n;
}

static double nc_inc_pwrite(unsigned long n)
{
	uint32_t one = 1;
	int64_t t0, t1;
	unsigned long i;

	t0 = now_ns();
	for (i = 0; i < n; i++)
		chk(ncsync_csr_write(devs[0], NCSYNC_CSR_SEM_INC + 7 * 4,
				     &one, 1), "ncsync_csr_write");
	t1 = now_ns();
	return (double)(t1 - t0) / n;
}

/* The floor of an ncsync ioctl: an unknown command, refused at once. */
static double nc_ioctl_enotty(unsigned long n)
{
	int64_t t0, t1;
	unsigned long i;

	t0 = now_ns();
	for (i = 0; i < n; i++)
		if (ioctl(ncsync_fd(devs[0]), _IO(NCSYNC_IOC_MAGIC, 0x7f)) == 0)
			die("unknown ioctl accepted", 0);
	t1 = now_ns();
	return (double)(t1 - t0) / n;
}

/* NCSYNC_IOC_OP reading a semaphore: the OP path without update or wake. */
static double nc_op_read(unsigned long n)
{
	struct ncsync_op op = { .bank = NCSYNC_BANK_SEM, .op = NCSYNC_OP_READ,
				.index = 7 };
	int64_t t0, t1;
	unsigned long i;

	t0 = now_ns();
	for (i = 0; i < n; i++)
		if (ioctl(ncsync_fd(devs[0]), NCSYNC_IOC_OP, &op))
			die("NCSYNC_IOC_OP", errno);
	t1 = now_ns();
	return (double)(t1 - t0) / n;
}

/* poll() of an acknowledged core: nothing to report, nothing changes. */
static double nc_poll(unsigned long n)
{
	struct pollfd pfd = { .fd = ncsync_fd(devs[0]), .events = POLLIN };
	int64_t t0, t1;
	unsigned long i;

	chk(ncsync_ack(devs[0], NULL), "ncsync_ack");
	t0 = now_ns();
	for (i = 0; i < n; i++)
		if (poll(&pfd, 1, 0) != 0)
			die("poll of an acknowledged core", errno);
	t1 = now_ns();
	return (double)(t1 - t0) / n;
}

/* poll() of the read end of an empty pipe. */
static double base_poll(unsigned long n)
{
	static int fds[2] = { -1, -1 };
	struct pollfd pfd = { .events = POLLIN };
	int64_t t0, t1;
	unsigned long i;

	if (fds[0] < 0 && pipe(fds))
		die("pipe", errno);
	pfd.fd = fds[0];
	t0 = now_ns();
	for (i = 0; i < n; i++)
		if (poll(&pfd, 1, 0) != 0)
			die("poll of an empty pipe", errno);
	t1 = now_ns();
	return (double)(t1 - t0) / n;
}

static double base_syscall(unsigned long n)
{
	int64_t t0, t1;
	unsigned long i;

	t0 = now_ns();
	for (i = 0; i < n; i++)
		sink += syscall(SYS_getppid);
	t1 = now_ns();
	return (double)(t1 - t0) / n;
}

static double nc_pingpong(unsigned long n)
{
	struct bprog bp;
	double ns;

	build_pingpong(&bp, n);
	ns = bprog_run(&bp);
	bprog_free(&bp);
	return ns / n;
}

/* Barriers per second of an @neng-engine sync-barrier loop. */
static double nc_barrier_n(unsigned int neng, unsigned long n)
{
	struct bprog bp;
	double ns;

	build_barrier(&bp, neng, n);
	ns = bprog_run(&bp);
	bprog_free(&bp);
	return n * 1e9 / ns;
}

static double nc_barrier(unsigned long n)
{
	return nc_barrier_n(NCSYNC_NUM_ENGINES, n);
}

static double base_barrier(unsigned long n)
{
	return base_pthread_barrier(NCSYNC_NUM_ENGINES, n);
}

static double nc_barrier2(unsigned long n)
{
	return nc_barrier_n(2, n);
}

static double nc_barrier3(unsigned long n)
{
	return nc_barrier_n(3, n);
}

static double nc_barrier4(unsigned long n)
{
	return nc_barrier_n(4, n);
}

static double base_barrier2(unsigned long n)
{
	return base_pthread_barrier(2, n);
}

static double base_barrier3(unsigned long n)
{
	return base_pthread_barrier(3, n);
}

static double base_barrier4(unsigned long n)
{
	return base_pthread_barrier(4, n);
}

/*
 * Contended P()/V(): five engines each run a counted loop of @n passes of
 * P() (ncsync_add_semaphore_wait(): wait > 0 and -1, one atomic step) and
 * V() (+1) on one semaphore; the first engine gives the unit first.  Time
 * per P()/V() pair, over all engines.
 */
static void build_pv(struct bprog *bp, unsigned long n)
{
	unsigned int e;
	int sem;

	bprog_new(bp, NCSYNC_NUM_ENGINES);
	sem = ncsync_sem_alloc(bp->prog, 1);
	chk(sem, "alloc");
	chk(ncsync_add_semaphore_inc(bprog_stream(bp, 0), sem), "inc");
	for (e = 0; e < NCSYNC_NUM_ENGINES; e++) {
		struct ncsync_stream *s = bprog_stream(bp, e);
		int l = ncsync_label_new(bp->prog);

		chk(ncsync_label_bind(s, l), "bind");
		chk(ncsync_add_semaphore_wait(s, sem), "P");
		chk(ncsync_add_semaphore_inc(s, sem), "V");
		chk(ncsync_add_mov32(s, NCSYNC_ALU_ADD_IMM, REG_LOOP,
				     REG_LOOP, 1, NULL), "mov");
		chk(ncsync_add_branch_imm(s, NCSYNC_BR_LT, NCSYNC_DTYPE_U32,
					  REG_LOOP, n, l, NULL), "branch");
	}
	bprog_finish(bp);
}

static double nc_pv(unsigned long n)
{
	struct bprog bp;
	double ns;

	build_pv(&bp, n);
	ns = bprog_run(&bp);
	bprog_free(&bp);
	return ns / ((double)n * NCSYNC_NUM_ENGINES);
}

/* Five threads, each @n lock/unlock pairs of one pthread mutex. */
struct pmutex {
	pthread_mutex_t m;
	unsigned long n;
	unsigned long count;
};

static void *pmutex_thread(void *arg)
{
	struct pmutex *pm = arg;
	unsigned long i;

	for (i = 0; i < pm->n; i++) {
		pthread_mutex_lock(&pm->m);
		pm->count++;
		pthread_mutex_unlock(&pm->m);
	}
	return NULL;
}

static double base_pmutex(unsigned long n)
{
	struct pmutex pm = { .m = PTHREAD_MUTEX_INITIALIZER, .n = n };
	pthread_t t[NCSYNC_NUM_ENGINES];
	int64_t t0, t1;
	unsigned int i;

	t0 = now_ns();
	for (i = 0; i < NCSYNC_NUM_ENGINES; i++)
		if (pthread_create(&t[i], NULL, pmutex_thread, &pm))
			die("pthread_create", errno);
	for (i = 0; i < NCSYNC_NUM_ENGINES; i++)
		pthread_join(t[i], NULL);
	t1 = now_ns();
	if (pm.count != n * NCSYNC_NUM_ENGINES)
		die("pthread mutex count", EIO);
	return (double)(t1 - t0) / ((double)n * NCSYNC_NUM_ENGINES);
}

static double nc_inc_queue(unsigned long n)
{
	struct bprog bp;
	double ns;

	build_inc(&bp, n, false);
	ns = bprog_run(&bp);
	bprog_free(&bp);
	return ns / n;
}

static double nc_inc_loop(unsigned long n)
{
	struct bprog bp;
	double ns;

	build_inc(&bp, n, true);
	ns = bprog_run(&bp);
	bprog_free(&bp);
	return ns / n;
}

/* NoOp records in a row: an engine's cost per record, without update. */
static double nc_nop_queue(unsigned long n)
{
	struct ncsync_stream *s;
	struct bprog bp;
	unsigned long i;
	double ns;

	bprog_new(&bp, 1);
	s = bprog_stream(&bp, 0);
	for (i = 0; i < n; i++)
		chk(ncsync_add_nop(s, NULL), "nop");
	bprog_finish(&bp);
	ns = bprog_run(&bp);
	bprog_free(&bp);
	return ns / n;
}

static double base_atomic(unsigned long n)
{
	static atomic_long counter;
	int64_t t0, t1;
	unsigned long i;

	t0 = now_ns();
	for (i = 0; i < n; i++)
		atomic_fetch_add(&counter, 1);
	t1 = now_ns();
	return (double)(t1 - t0) / n;
}

/* Submit a one-record program and wait for its end, through the library. */
static double nc_submit_1(unsigned long n)
{
	struct ncsync_program *prog;
	struct ncsync_prog_status st;
	struct ncsync_stream *s;
	uint32_t id, state;
	int64_t t0, total = 0;
	unsigned long i;

	chk(ncsync_program_new(&prog), "ncsync_program_new");
	chk(ncsync_program_stream(prog, NCSYNC_ENGINE_POOL, &s), "stream");
	chk(ncsync_add_semaphore_inc(s, 3), "inc");
	chk(ncsync_program_finalize(prog), "finalize");
	for (i = 0; i < n; i++) {
		t0 = now_ns();
		chk(ncsync_program_submit(devs[0], prog, 0, 0, &id, NULL),
		    "ncsync_program_submit");
		chk(ncsync_program_wait(devs[0], id, NULL, &state),
		    "ncsync_program_wait");
		total += now_ns() - t0;
		if (state != NCSYNC_PROG_DONE)
			die("1-record program failed", EIO);
		/* Releasing is bookkeeping, not completion: not timed. */
		chk(ncsync_program_status(devs[0], id, true, &st, NULL),
		    "ncsync_program_status");
	}
	ncsync_program_free(prog);
	return (double)total / n;
}

/* ---------------------------------------------------------------- rows */

typedef double (*measure_fn)(unsigned long n);

/* ns one operation of @fn takes, from its figure. */
static double op_ns(double fig, bool rate)
{
	return rate ? 1e9 / fig : fig;
}

/*
 * The iteration count for which one repetition of @fn lasts about
 * opt.rep_ms: long enough that a scheduling hiccup of the host (a few ms)
 * is noise, short enough to keep the run bounded.
 */
static unsigned long calibrate(measure_fn fn, bool rate, unsigned long n,
			       unsigned long max)
{
	double target = opt.rep_ms * 1e6, per = 1, total;
	unsigned int i;

	/* The last, longest run sets the count, stalls included. */
	for (i = 0; i < 16; i++) {
		per = op_ns(fn(n), rate);
		total = per * n;
		if (total >= target / 4 || n >= max)
			break;
		n = total < target / 64 ? n * 16 : n * 4;
		if (n > max)
			n = max;
	}
	n = (unsigned long)(target / per);
	if (n < 1)
		n = 1;
	return n > max ? max : n;
}

static void row_run(const char *key, const char *what, const char *base_what,
		    const char *unit, measure_fn nc, measure_fn base,
		    unsigned long n0, unsigned long max, double target,
		    bool higher)
{
	double vn[MAX_REPS], vb[MAX_REPS];
	struct row *r;
	unsigned int i;

	if (!selected(key))
		return;
	r = &rows[nrows++];
	r->key = key;
	r->what = what;
	r->base_what = base_what;
	r->unit = unit;
	r->target = target;
	r->higher = higher;
	/* Calibration warms both up. */
	r->iters = calibrate(nc, higher, n0, max);
	r->base_iters = opt.nc_only ? 0 : calibrate(base, higher, n0,
						       ULONG_MAX / 2);
	fprintf(stderr, "ncsync-bench: %s (%lu and %lu x %u)\n", key,
		r->iters, r->base_iters, opt.reps);
	/* R alternating repetitions: a drift of the machine hits both. */
	for (i = 0; i < opt.reps; i++) {
		r->vnc[i] = vn[i] = nc(r->iters);
		r->vbase[i] = vb[i] = opt.nc_only ? 1 : base(r->base_iters);
	}
	for (i = 0; i < opt.reps; i++)
		fprintf(stderr, "  %u: %.4g %s  baseline %.4g %s\n", i, vn[i],
			unit, vb[i], unit);
	r->nc = median(vn, opt.reps);
	r->base = median(vb, opt.reps);
	r->ratio = r->nc / r->base;
	r->info = !target;
	r->pass = higher ? r->ratio >= target : r->ratio <= target;
}

/* The breakdown: where the time of the rows with a target goes. */
static void rows_breakdown(void)
{
	const unsigned long any = ULONG_MAX / 2;

	row_run("ioctl_enotty", "ioctl floor: unknown command (ENOTTY)",
		"getppid() system call", "ns", nc_ioctl_enotty, base_syscall,
		256, any, 0, false);
	row_run("op_read", "NCSYNC_IOC_OP read: no update, no wake",
		"getppid() system call", "ns", nc_op_read, base_syscall,
		256, any, 0, false);
	row_run("poll", "poll() of an acknowledged core, no change",
		"poll() of an empty pipe", "ns", nc_poll, base_poll,
		256, any, 0, false);
	row_run("nop_record", "NoOp record, straight queue (per record)",
		"atomic add in a loop", "ns", nc_nop_queue, base_atomic,
		1024, NCSYNC_MAX_RECORDS - 1, 0, false);
}

static void rows_run(void)
{
	const unsigned long any = ULONG_MAX / 2, loop = INT32_MAX;
	void *map;

	map = mmap(NULL, NCSYNC_CSR_SIZE, PROT_READ, MAP_SHARED,
		   ncsync_fd(devs[0]), 0);
	if (map == MAP_FAILED)
		die("mmap", errno);
	map_sems = (const volatile int32_t *)((char *)map +
					      NCSYNC_CSR_SEM_READ);

	row_run("sem_read", "semaphore read, ncsync_sem_read() (mapping)",
		"load from a local array", "ns", nc_sem_read, base_load,
		4096, any, 1.5, false);
	row_run("sem_read_raw", "semaphore read, inline load from the mapping",
		"load from a local array", "ns", nc_sem_read_raw, base_load,
		4096, any, 1.5, false);
	row_run("inc_ioctl", "semaphore inc, ncsync_sem_inc() (ioctl)",
		"getppid() system call", "ns", nc_inc_ioctl, base_syscall,
		256, any, 1.5, false);
	row_run("inc_pwrite", "semaphore inc, ncsync_csr_write() (pwrite)",
		"getppid() system call", "ns", nc_inc_pwrite, base_syscall,
		256, any, 1.5, false);
	row_run("pingpong", "engine<->engine ping-pong round trip",
		"futex ping-pong, 2 threads", "ns", nc_pingpong,
		base_futex_pingpong, 64, loop, 1.0, false);
	row_run("barrier", "5-engine sync-barrier loop",
		"pthread_barrier_wait, 5 threads", "/s", nc_barrier,
		base_barrier, 32, loop, 1.0, true);
	row_run("barrier2", "2-engine sync-barrier loop",
		"pthread_barrier_wait, 2 threads", "/s", nc_barrier2,
		base_barrier2, 32, loop, 1.0, true);
	row_run("barrier3", "3-engine sync-barrier loop",
		"pthread_barrier_wait, 3 threads", "/s", nc_barrier3,
		base_barrier3, 32, loop, 1.0, true);
	row_run("barrier4", "4-engine sync-barrier loop",
		"pthread_barrier_wait, 4 threads", "/s", nc_barrier4,
		base_barrier4, 32, loop, 1.0, true);
	row_run("pv", "contended P()/V(), 5 engines (per pair)",
		"pthread mutex lock/unlock, 5 threads", "ns", nc_pv,
		base_pmutex, 32, loop, 1.0, false);
	row_run("inc_record", "inc record, straight queue (per record)",
		"atomic add in a loop", "ns", nc_inc_queue, base_atomic,
		1024, NCSYNC_MAX_RECORDS - 1, 3.0, false);
	row_run("inc_loop", "inc record in a counted loop (per iteration)",
		"atomic add in a loop", "ns", nc_inc_loop, base_atomic,
		1024, loop, 3.0, false);
	row_run("submit", "submit -> completion, 1-record program",
		"futex wake round trip", "ns", nc_submit_1,
		base_futex_pingpong, 16, any, 2.0, false);
	rows_breakdown();
	munmap(map, NCSYNC_CSR_SIZE);
}


/* ---------------------------------------------------------------- lnc */

/* The DMA record that lands +1 on @sem of the core at position @peer. */
static void add_peer_inc(struct ncsync_stream *s, unsigned int peer, int sem)
{
	chk(ncsync_add_dma_peer(s, peer, 0, 0, 4, 0,
				NCSYNC_UPD_COMPLETE | NCSYNC_UPD_SEM_INC,
				sem, NULL), "ncsync_add_dma_peer");
}

/*
 * One core's part of the cross-core ping-pong: as build_pingpong(), with
 * Pool alone on each core, the increments landing on the other core's
 * semaphore by DMA (position 0 waits on s1 and answers on s2 of core 1).
 */
static void build_pingpong_part(struct bprog *bp, unsigned int pos,
				unsigned long n)
{
	struct ncsync_stream *a;
	int s1, s2, l;

	bprog_new(bp, 1);
	a = bprog_stream(bp, 0);
	s1 = ncsync_sem_alloc(bp->prog, 1);
	s2 = ncsync_sem_alloc(bp->prog, 1);
	chk(s1, "alloc");
	chk(s2, "alloc");
	l = ncsync_label_new(bp->prog);
	chk(ncsync_label_bind(a, l), "bind");
	chk(ncsync_add_mov32(a, NCSYNC_ALU_ADD_IMM, REG_LOOP, REG_LOOP, 1,
			     NULL), "mov");
	if (pos) {
		add_peer_inc(a, 0, s1);
		chk(ncsync_add_semaphore_wait_reg(a, s2, NCSYNC_WAIT_SEM_GE,
						  REG_LOOP), "wait");
	} else {
		chk(ncsync_add_semaphore_wait_reg(a, s1, NCSYNC_WAIT_SEM_GE,
						  REG_LOOP), "wait");
		add_peer_inc(a, 1, s2);
	}
	chk(ncsync_add_branch_imm(a, NCSYNC_BR_LT, NCSYNC_DTYPE_U32, REG_LOOP,
				  n, l, NULL), "branch");
	bprog_finish(bp);
}

/* One core's part of a loop of @n core barriers over two cores, 5 engines. */
static void build_corebarrier_part(struct bprog *bp, unsigned long n)
{
	int labels[NCSYNC_NUM_ENGINES], sem;
	unsigned int e;

	bprog_new(bp, NCSYNC_NUM_ENGINES);
	sem = ncsync_sem_alloc(bp->prog, 1);
	chk(sem, "alloc");
	for (e = 0; e < NCSYNC_NUM_ENGINES; e++) {
		labels[e] = ncsync_label_new(bp->prog);
		chk(ncsync_label_bind(bprog_stream(bp, e), labels[e]), "bind");
	}
	chk(ncsync_add_core_barrier(bp->prog, sem, 2),
	    "ncsync_add_core_barrier");
	for (e = 0; e < NCSYNC_NUM_ENGINES; e++) {
		struct ncsync_stream *s = bprog_stream(bp, e);

		chk(ncsync_add_mov32(s, NCSYNC_ALU_ADD_IMM, REG_LOOP,
				     REG_LOOP, 1, NULL), "mov");
		chk(ncsync_add_branch_imm(s, NCSYNC_BR_LT, NCSYNC_DTYPE_U32,
					  REG_LOOP, n, labels[e], NULL),
		    "branch");
	}
	bprog_finish(bp);
}

/*
 * Run the parts @bp[0], @bp[1] as one program across cores 0 and 1
 * (ncsync_program_submit_cores()); the ns from opening the gates to its
 * end.  Both cores are reset first.
 */
static double bprog_run_across(struct bprog *bp)
{
	struct ncsync_program *progs[2] = { bp[0].prog, bp[1].prog };
	struct ncsync_submit_error err;
	unsigned int part = 0;
	int64_t t0, t1;
	uint32_t id;
	int ret;

	chk(ncsync_reset(devs[0]), "ncsync_reset");
	chk(ncsync_reset(devs[1]), "ncsync_reset");
	ret = ncsync_program_submit_cores(devs, progs, 2, 0, 0, &id, &err,
					  &part);
	if (ret) {
		fprintf(stderr, "ncsync-bench: part %u engine %u record %u\n",
			part, err.engine, err.index);
		die("ncsync_program_submit_cores", ret);
	}
	t0 = now_ns();
	bprog_open_gate(devs[0], &bp[0]);
	bprog_open_gate(devs[1], &bp[1]);
	prog_end(devs[0], id);
	t1 = now_ns();
	return (double)(t1 - t0);
}

static double nc_pingpong_cores(unsigned long n)
{
	struct bprog bp[2];
	double ns;

	build_pingpong_part(&bp[0], 0, n);
	build_pingpong_part(&bp[1], 1, n);
	ns = bprog_run_across(bp);
	bprog_free(&bp[0]);
	bprog_free(&bp[1]);
	return ns / n;
}

static double nc_corebarrier(unsigned long n)
{
	struct bprog bp[2];
	double ns;

	build_corebarrier_part(&bp[0], n);
	build_corebarrier_part(&bp[1], n);
	ns = bprog_run_across(bp);
	bprog_free(&bp[0]);
	bprog_free(&bp[1]);
	return (double)n * 1e9 / ns;
}

/* Reload the module with @cores cores fused by @lnc. */
static int module_reload_lnc(unsigned int cores, unsigned int lnc)
{
	char cmd[PATH_MAX + 128];

	snprintf(cmd, sizeof(cmd), "rmmod ncsync && insmod '%s' cores=%u lnc=%u",
		 opt.module, cores, lnc);
	return system(cmd);
}

/*
 * The rows of a logical core of two cores, against the same figures on one
 * core: the module is reloaded with lnc=2 for them when it is not so
 * already (and left so).
 */
static void lnc_rows(void)
{
	if (!selected("pingpong_cores") && !selected("corebarrier"))
		return;
	if (ncsync_get_info(devs[0])->lnc < 2) {
		if (!opt.reload || access(opt.module, R_OK)) {
			fprintf(stderr, "ncsync-bench: lnc is 1 and no reload: the cross-core rows are not measured\n");
			return;
		}
		devs_close();
		if (module_reload_lnc(MAX_CORES, 2))
			die("reloading the module with lnc=2", 0);
		devs_open();
	}
	row_run("pingpong_cores", "ping-pong round trip across two fused cores",
		"the same-core engine ping-pong (row pingpong)", "ns",
		nc_pingpong_cores, nc_pingpong, 64, INT32_MAX, 0, false);
	row_run("corebarrier", "2-core core-barrier loop, 5 engines a core",
		"the same-core 5-engine sync barrier (row barrier)", "/s",
		nc_corebarrier, nc_barrier, 32, INT32_MAX, 0, true);
}

/* ---------------------------------------------------------------- growth */

static struct series *series_new(const char *key, const char *what,
				 const char *unit)
{
	struct series *s = &series[nseries++];

	s->key = key;
	s->what = what;
	s->unit = unit;
	return s;
}

static void series_point(struct series *s, unsigned long x, double *v,
			 double base)
{
	unsigned int i = s->npoints++;

	s->x[i] = x;
	s->cost[i] = median(v, opt.reps);
	s->base_cost[i] = base;
	s->norm[i] = s->cost[i] / s->cost[0];
}

static void series_close(struct series *s)
{
	unsigned int i;

	s->pass = true;
	for (i = 0; i < s->npoints; i++)
		if (s->norm[i] > 2.0)
			s->pass = false;
}

/* Execution and submission per record, 1 Ki .. 1 Mi records in a queue. */
static void growth_queue(void)
{
	/* The largest: with the gate record, a queue of NCSYNC_MAX_RECORDS. */
	static const unsigned long full[] = { 1024, 16384, 262144,
					      NCSYNC_MAX_RECORDS - 1 };
	static const unsigned long quick[] = { 1024, 16384, 65536 };
	const unsigned long *sizes = opt.quick ? quick : full;
	unsigned int nsizes = opt.quick ? ARRAY_SIZE(quick) : ARRAY_SIZE(full);
	struct series *ex, *sub;
	double ve[MAX_REPS], vs[MAX_REPS];
	unsigned int i, r;
	struct bprog bp;

	if (!selected("growth_queue"))
		return;
	ex = series_new("queue_exec", "queue length: execution per inc record",
			"ns/record");
	sub = series_new("queue_submit",
			 "queue length: NCSYNC_IOC_SUBMIT per record", "ns/record");
	for (i = 0; i < nsizes; i++) {
		fprintf(stderr, "ncsync-bench: growth queue %lu\n", sizes[i]);
		build_inc(&bp, sizes[i], false);
		for (r = 0; r < opt.reps; r++) {
			ve[r] = bprog_run_cores(&bp, 1, &vs[r]) / sizes[i];
			vs[r] /= sizes[i];
		}
		bprog_free(&bp);
		series_point(ex, sizes[i], ve, 0);
		series_point(sub, sizes[i], vs, 0);
	}
	series_close(ex);
	series_close(sub);
}

/* Ping-pong on 1, 2, 4 cores at once: wall time per round per core. */
static void growth_cores(void)
{
	static const unsigned int ks[] = { 1, 2, 4 };
	struct series *s;
	double v[MAX_REPS];
	unsigned int i, r;
	struct bprog bp;
	unsigned long n;

	if (!selected("growth_cores"))
		return;
	n = calibrate(nc_pingpong, false, 64, INT32_MAX);
	s = series_new("cores", "cores running a ping-pong at once: wall time per round and core",
		       "ns/round");
	build_pingpong(&bp, n);
	for (i = 0; i < ARRAY_SIZE(ks) && ks[i] <= ncores; i++) {
		fprintf(stderr, "ncsync-bench: growth cores %u\n", ks[i]);
		for (r = 0; r < opt.reps; r++)
			v[r] = bprog_run_cores(&bp, ks[i], NULL) /
			       ((double)n * ks[i]);
		series_point(s, ks[i], v, 0);
	}
	bprog_free(&bp);
	series_close(s);
}

/* Sync-barrier loops of 2 .. 5 engines: ns per barrier and engine. */
static void growth_engines(void)
{
	double v[MAX_REPS], b[MAX_REPS];
	struct series *s;
	unsigned int e, r;
	unsigned long n;

	if (!selected("growth_engines"))
		return;
	/* The 5-engine loop is the slowest per barrier: it sets the count. */
	n = calibrate(nc_barrier, true, 32, INT32_MAX);
	s = series_new("engines",
		       "engines in a sync-barrier loop: ns per barrier and engine",
		       "ns/(barrier*engine)");
	for (e = 2; e <= NCSYNC_NUM_ENGINES; e++) {
		fprintf(stderr, "ncsync-bench: growth engines %u\n", e);
		for (r = 0; r < opt.reps; r++) {
			v[r] = 1e9 / nc_barrier_n(e, n) / e;
			b[r] = 1e9 / base_pthread_barrier(e, n) / e;
		}
		series_point(s, e, v, median(b, opt.reps));
	}
	series_close(s);
}

/* ---------------------------------------------------------------- memory */

static void meminfo_read(struct meminfo *m)
{
	char line[256];
	FILE *f;
	long v;

	memset(m, 0, sizeof(*m));
	f = fopen("/proc/meminfo", "r");
	if (!f)
		die("/proc/meminfo", errno);
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "MemFree: %ld", &v) == 1)
			m->memfree = v;
		else if (sscanf(line, "Slab: %ld", &v) == 1)
			m->slab = v;
		else if (sscanf(line, "KernelStack: %ld", &v) == 1)
			m->kstack = v;
		else if (sscanf(line, "VmallocUsed: %ld", &v) == 1)
			m->vmalloc = v;
		else if (sscanf(line, "PageTables: %ld", &v) == 1)
			m->pagetables = v;
	}
	fclose(f);
}

/* Let freed memory settle (RCU, per-CPU caches), then read. */
static void meminfo_settle(struct meminfo *m)
{
	int fd = open("/proc/sys/vm/drop_caches", O_WRONLY);
	ssize_t ret;

	usleep(300000);
	if (fd >= 0) {
		ret = write(fd, "3\n", 2);	/* a failure only adds noise */
		(void)ret;
		close(fd);
	}
	usleep(200000);
	meminfo_read(m);
}

/* Kernel stacks are vmalloc()ed (VMAP_STACK): in VmallocUsed already. */
static long kernel_kb(const struct meminfo *m)
{
	return m->slab + m->vmalloc + m->pagetables;
}

static void memrow_add(const char *key, const char *what, const char *method,
		       double bytes, double computed)
{
	struct memrow *mr = &mems[nmems++];

	mr->key = key;
	mr->what = what;
	mr->method = method;
	mr->bytes = bytes;
	mr->computed = computed;
}

/* The object size of task_struct, from /proc/slabinfo, or 0. */
static long task_struct_size(void)
{
	char line[512];
	long size = 0;
	FILE *f;

	f = fopen("/proc/slabinfo", "r");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "task_struct %*d %*d %ld", &size) == 1)
			break;
	fclose(f);
	return size;
}

/* Reload the module with @cores cores (kmod's rmmod and insmod). */
static int module_reload(unsigned int cores)
{
	char cmd[PATH_MAX + 128];

	snprintf(cmd, sizeof(cmd), "rmmod ncsync && insmod '%s' cores=%u",
		 opt.module, cores);
	return system(cmd);
}

/*
 * Kernel memory of a core: reload the module with 1 and with 4 cores and
 * divide the difference of MemFree (and of its kernel parts) by 3.  Leaves
 * the module loaded with MAX_CORES cores.
 */
static void memory_per_core(void)
{
	struct meminfo m1, m4;
	double per, computed;

	if (!opt.reload || !selected("memory"))
		return;
	if (access(opt.module, R_OK)) {
		fprintf(stderr, "ncsync-bench: no %s: memory per core not measured\n",
			opt.module);
		return;
	}
	devs_close();
	fprintf(stderr, "ncsync-bench: memory per core (module reloads)\n");
	if (module_reload(1))
		die("reloading the module with cores=1", 0);
	meminfo_settle(&m1);
	if (module_reload(MAX_CORES))
		die("reloading the module with cores=4", 0);
	meminfo_settle(&m4);
	devs_open();
	per = (double)(MAX_CORES - 1) / 1024;
	/* The two bank pages come from alloc_page(): in no counter. */
	computed = ncsync_get_info(devs[0])->devmem_size + 2 * 4096 +
		   (NCSYNC_NUM_ENGINES + 1) * (16384 + task_struct_size());
	memrow_add("core", "kernel memory per core",
		   "measured: Slab+VmallocUsed+PageTables delta cores=1->4, + 2 bank pages",
		   (kernel_kb(&m4) - kernel_kb(&m1)) / per + 2 * 4096,
		   computed);
	memrow_add("core_vmalloc", "  VmallocUsed (device memory, thread stacks)",
		   "measured: /proc/meminfo delta",
		   (m4.vmalloc - m1.vmalloc) / per,
		   ncsync_get_info(devs[0])->devmem_size +
		   (NCSYNC_NUM_ENGINES + 1) * 16384);
	memrow_add("core_kstack", "    of which KernelStack (6 engine threads)",
		   "measured: /proc/meminfo delta",
		   (m4.kstack - m1.kstack) / per,
		   (NCSYNC_NUM_ENGINES + 1) * 16384);
	memrow_add("core_slab", "  Slab (task_structs, core, ...)",
		   "measured: /proc/meminfo delta",
		   (m4.slab - m1.slab) / per, 0);
	memrow_add("core_memfree", "  MemFree drop (noisy: page cache, per-CPU lists)",
		   "measured: /proc/meminfo delta",
		   (m1.memfree - m4.memfree) / per, 0);
}

/* Kernel memory of a queued record: a blocked program of 1 Mi records. */
static void memory_per_record(void)
{
	unsigned long n = opt.quick ? 65536 : NCSYNC_MAX_RECORDS - 1;
	struct meminfo m0, m1;
	struct bprog bp;
	uint32_t id;

	if (!selected("memory"))
		return;
	fprintf(stderr, "ncsync-bench: memory per queued record (%lu)\n", n);
	build_inc(&bp, n, false);
	chk(ncsync_reset(devs[0]), "ncsync_reset");
	meminfo_settle(&m0);
	id = bprog_submit(devs[0], &bp);
	meminfo_settle(&m1);
	bprog_open_gate(devs[0], &bp);
	prog_end(devs[0], id);
	bprog_free(&bp);
	memrow_add("record", "kernel memory per queued record",
		   opt.quick ?
		   "measured: Slab + VmallocUsed delta, a queue of 64 Ki records" :
		   "measured: Slab + VmallocUsed delta, a queue of 1 Mi records",
		   ((m1.slab + m1.vmalloc) - (m0.slab + m0.vmalloc)) * 1024.0 /
		   n, sizeof(struct ncsync_insn));
}

/* ---------------------------------------------------------------- output */

static void machine(char *buf, size_t len)
{
	char line[256], model[128] = "?";
	struct utsname u;
	FILE *f;

	f = fopen("/proc/cpuinfo", "r");
	if (f) {
		while (fgets(line, sizeof(line), f))
			if (sscanf(line, "model name : %127[^\n]", model) == 1)
				break;
		fclose(f);
	}
	uname(&u);
	snprintf(buf, len, "%ld CPU %s, Linux %s%s",
		 sysconf(_SC_NPROCESSORS_ONLN), model, u.release,
		 getenv("NCSYNC_IN_VM") ? " (ncsync test VM)" : "");
}

static void fmt_fig(char *buf, size_t len, double v, const char *unit)
{
	if (!strcmp(unit, "/s"))
		snprintf(buf, len, "%.0f/s", v);
	else if (v < 100)
		snprintf(buf, len, "%.2f ns", v);
	else
		snprintf(buf, len, "%.0f ns", v);
}

static void print_row(const struct row *r)
{
	char a[32], b[32], t[16] = "";

	fmt_fig(a, sizeof(a), r->nc, r->unit);
	fmt_fig(b, sizeof(b), r->base, r->unit);
	if (!r->info)
		snprintf(t, sizeof(t), "%s%.1fx", r->higher ? ">=" : "<=",
			 r->target);
	printf("%-46s %12s  %-32s %12s %8.2fx %7s  %s\n", r->what, a,
	       r->base_what, b, r->ratio, t,
	       r->info ? "" : r->pass ? "passes target" : "misses target");
}

static void print_table(const char *date, const char *mach)
{
	unsigned int i, j;

	printf("\nncsync-bench %s, %s\n", date, mach);
	if (getenv("NCSYNC_BENCH_HOST"))
		printf("host: %s\n", getenv("NCSYNC_BENCH_HOST"));
	printf("median of R = %u repetitions of about %.0f ms%s; ratio = ncsync / baseline\n\n",
	       opt.reps, opt.rep_ms, opt.quick ? " (--quick)" : "");
	printf("%-46s %12s  %-32s %12s %9s %7s  %s\n", "measure", "ncsync",
	       "baseline", "", "ratio", "target", "");
	for (i = 0; i < nrows; i++)
		if (!rows[i].info)
			print_row(&rows[i]);
	for (i = 0, j = 0; i < nrows; i++) {
		if (!rows[i].info)
			continue;
		if (!j++)
			printf("\nbreakdown (no target)\n");
		print_row(&rows[i]);
	}
	for (i = 0; i < nseries; i++) {
		const struct series *s = &series[i];

		printf("\ngrowth: %s (%s)\n", s->what, s->unit);
		for (j = 0; j < s->npoints; j++) {
			printf("  %8lu  %12.1f  x%.2f", s->x[j], s->cost[j],
			       s->norm[j]);
			if (s->base_cost[j])
				printf("   (baseline %.1f, x%.2f)",
				       s->base_cost[j],
				       s->base_cost[j] / s->base_cost[0]);
			printf("\n");
		}
		printf("  target: linear, no cliff (no size above x2.0 per unit): %s\n",
		       s->pass ? "passes target" : "misses target");
	}
	if (nmems)
		printf("\nkernel memory\n");
	for (i = 0; i < nmems; i++) {
		printf("  %-58s %10.0f B", mems[i].what, mems[i].bytes);
		if (mems[i].computed)
			printf("  (computed: %.0f B)", mems[i].computed);
		printf("  [%s]\n", mems[i].method);
	}
}

static void json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fputc('\\', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

static void json_array(FILE *f, const char *name, const double *v,
		       unsigned int n)
{
	unsigned int i;

	fprintf(f, ", \"%s\": [", name);
	for (i = 0; i < n; i++)
		fprintf(f, "%s%.6g", i ? ", " : "", v[i]);
	fprintf(f, "]");
}

/* One row of "rows". */
static void json_row(FILE *f, const struct row *r, bool last)
{
	fprintf(f, "    {\"key\": ");
	json_str(f, r->key);
	fprintf(f, ", \"measure\": ");
	json_str(f, r->what);
	fprintf(f, ", \"baseline_name\": ");
	json_str(f, r->base_what);
	fprintf(f, ", \"unit\": ");
	json_str(f, r->unit);
	fprintf(f, ", \"iters\": %lu, \"baseline_iters\": %lu, \"ncsync\": %.6g, \"baseline\": %.6g, \"ratio\": %.6g, \"target\": %.6g, \"higher_is_better\": %s, \"pass\": %s",
		r->iters, r->base_iters, r->nc, r->base, r->ratio,
		r->target, r->higher ? "true" : "false",
		r->pass && !r->info ? "true" : "false");
	fprintf(f, ", \"info\": %s", r->info ? "true" : "false");
	json_array(f, "ncsync_reps", r->vnc, opt.reps);
	json_array(f, "baseline_reps", r->vbase, opt.reps);
	fprintf(f, "}%s\n", last ? "" : ",");
}

/* One series of "growth". */
static void json_series(FILE *f, const struct series *s, bool last)
{
	unsigned int j;

	fprintf(f, "    {\"key\": ");
	json_str(f, s->key);
	fprintf(f, ", \"what\": ");
	json_str(f, s->what);
	fprintf(f, ", \"unit\": ");
	json_str(f, s->unit);
	fprintf(f, ", \"pass\": %s, \"points\": [",
		s->pass ? "true" : "false");
	for (j = 0; j < s->npoints; j++)
		fprintf(f, "%s{\"x\": %lu, \"cost\": %.6g, \"norm\": %.6g, \"baseline\": %.6g}",
			j ? ", " : "", s->x[j], s->cost[j], s->norm[j],
			s->base_cost[j]);
	fprintf(f, "]}%s\n", last ? "" : ",");
}

/* The "memory" array. */
static void json_mems(FILE *f)
{
	unsigned int i;

	fprintf(f, "  ],\n  \"memory\": [\n");
	for (i = 0; i < nmems; i++) {
		fprintf(f, "    {\"key\": ");
		json_str(f, mems[i].key);
		fprintf(f, ", \"what\": ");
		json_str(f, mems[i].what);
		fprintf(f, ", \"method\": ");
		json_str(f, mems[i].method);
		fprintf(f, ", \"bytes\": %.1f, \"computed\": %.1f}%s\n",
			mems[i].bytes, mems[i].computed,
			i + 1 < nmems ? "," : "");
	}
}

static void write_json(const char *path, const char *date, const char *mach)
{
	unsigned int i;
	FILE *f;

	f = fopen(path, "w");
	if (!f)
		die(path, errno);
	fprintf(f, "{\n  \"date\": ");
	json_str(f, date);
	fprintf(f, ",\n  \"machine\": ");
	json_str(f, mach);
	fprintf(f, ",\n  \"host\": ");
	json_str(f, getenv("NCSYNC_BENCH_HOST") ?: "");
	fprintf(f, ",\n  \"reps\": %u,\n  \"rep_ms\": %.0f,\n  \"quick\": %s,\n  \"rows\": [\n",
		opt.reps, opt.rep_ms, opt.quick ? "true" : "false");
	for (i = 0; i < nrows; i++)
		json_row(f, &rows[i], i + 1 == nrows);
	fprintf(f, "  ],\n  \"growth\": [\n");
	for (i = 0; i < nseries; i++)
		json_series(f, &series[i], i + 1 == nseries);
	json_mems(f);
	fprintf(f, "  ]\n}\n");
	if (fclose(f))
		die(path, errno);
}

/* ---------------------------------------------------------------- main */

static void usage(FILE *f)
{
	fprintf(f,
		"usage: ncsync-bench [--quick] [--reps R] [--rep-ms MS] [--json FILE]\n"
		"                    [--only KEYS] [--no-reload] [--module FILE.ko]\n"
		"\n"
		"Measure ncsync against baselines; print the table, optionally JSON.\n"
		"  --quick         a short run: R = 3, 75 ms repetitions, queues up to\n"
		"                  64 Ki records\n"
		"  --reps R        repetitions per measure (default 5, at most 32)\n"
		"  --rep-ms MS     the length of one repetition (default 300)\n"
		"  --json FILE     also write the results as JSON\n"
		"  --only KEYS     run only the rows and series whose key is in KEYS\n"
		"                  (sem_read sem_read_raw inc_ioctl inc_pwrite pingpong\n"
		"                  barrier barrier2 barrier3 barrier4 pv inc_record\n"
		"                  inc_loop submit ioctl_enotty pingpong_cores corebarrier\n"
		"                  op_read poll nop_record growth_queue growth_cores\n"
		"                  growth_engines memory)\n"
		"  --no-reload     do not reload the module (memory per core)\n"
		"  --ncsync-only   skip the baselines (to profile ncsync alone)\n"
		"  --module FILE   the module to reload (default:\n"
		"                  BUILD/module/ncsync.ko)\n");
}

/*
 * The module vm-run loaded: BUILD/module/ncsync.ko, BUILD from
 * /proc/self/exe.
 */
static void default_module(void)
{
	static char mod[PATH_MAX + 32];
	char exe[PATH_MAX];
	ssize_t n;
	int up;
	char *p;

	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n < 0)
		return;
	exe[n] = '\0';
	for (up = 0; up < 2; up++) {	/* BUILD/bench/ncsync-bench */
		p = strrchr(exe, '/');
		if (!p)
			return;
		*p = '\0';
	}
	snprintf(mod, sizeof(mod), "%s/module/ncsync.ko", exe);
	opt.module = mod;
}

/* The options; exits on a bad one or --help. */
static void parse_args(int argc, char **argv)
{
	bool reps_set = false, ms_set = false;
	int i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--quick")) {
			opt.quick = true;
		} else if (!strcmp(argv[i], "--reps") && i + 1 < argc) {
			opt.reps = strtoul(argv[++i], NULL, 0);
			reps_set = true;
		} else if (!strcmp(argv[i], "--rep-ms") && i + 1 < argc) {
			opt.rep_ms = strtod(argv[++i], NULL);
			ms_set = true;
		} else if (!strcmp(argv[i], "--json") && i + 1 < argc) {
			opt.json = argv[++i];
		} else if (!strcmp(argv[i], "--only") && i + 1 < argc) {
			opt.only = argv[++i];
		} else if (!strcmp(argv[i], "--ncsync-only")) {
			opt.nc_only = true;
		} else if (!strcmp(argv[i], "--no-reload")) {
			opt.reload = false;
		} else if (!strcmp(argv[i], "--module") && i + 1 < argc) {
			opt.module = argv[++i];
		} else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			usage(stdout);
			exit(0);
		} else {
			usage(stderr);
			exit(2);
		}
	}
	if (opt.quick && !reps_set)
		opt.reps = 3;
	if (opt.quick && !ms_set)
		opt.rep_ms = 75;
	if (!opt.reps || opt.reps > MAX_REPS || opt.rep_ms <= 0) {
		usage(stderr);
		exit(2);
	}
}

int main(int argc, char **argv)
{
	char date[64], mach[256];
	time_t now;

	parse_args(argc, argv);
	if (!opt.module)
		default_module();
	if (!opt.module || geteuid())
		opt.reload = false;

	now = time(NULL);
	strftime(date, sizeof(date), "%Y-%m-%d %H:%M UTC", gmtime(&now));
	machine(mach, sizeof(mach));

	devs_open();
	memory_per_core();
	rows_run();
	lnc_rows();
	growth_queue();
	growth_cores();
	growth_engines();
	memory_per_record();
	devs_close();

	print_table(date, mach);
	if (opt.json)
		write_json(opt.json, date, mach);
	return 0;
}
