// SPDX-License-Identifier: GPL-2.0
/*
 * ncsync-sysfuzz: a system-call fuzzer of /dev/ncsyncN, run in the test VM
 * (tools/vm-run, which fails on any kernel report).
 *
 *   ncsync-sysfuzz [-t SECONDS] [-j THREADS] [-s SEED] [-c CORES] [-b BOUND]
 *
 * THREADS threads (default 4) share a table of descriptors of /dev/ncsync0
 * .. /dev/ncsync(CORES-1) and, for SECONDS (default 20), each draws random
 * operations on them: every ioctl with valid, mutated and garbage
 * arguments (unknown numbers, wrong sizes and directions, random bytes,
 * NULL, unmapped, half-mapped and kernel-looking pointers), programs of
 * mostly-valid random records with mutations (short watchdogs, so that
 * nothing blocks long), their status, waits and cancellation, pread and
 * pwrite at random offsets and lengths, mmap, munmap, mprotect, mremap and
 * madvise of the CSR window and the device memory, poll, open, dup, dup2
 * and close racing with the other threads' use of the descriptors, forks
 * whose children use the inherited descriptors and exit, core resets and
 * signals that interrupt waits.
 *
 * The library's validator (common/ncsync_record.c, the module's own source)
 * predicts the verdict of every well-formed submission; a kernel verdict
 * that differs (accepted, or refused naming another record or reason) is
 * an anomaly and fails the run.
 *
 * A thread's operations follow from the seed (-s; printed, so a run can be
 * repeated), though their interleaving does not.  At the end the threads
 * are stopped (signals and core resets end any wait), every descriptor is
 * closed, and a small program must still run to completion on each core.
 * The run must end within SECONDS + BOUND (default 30) seconds, or it
 * reports the operation each stuck thread is in and fails; an alarm kills
 * it at SECONDS + BOUND + 15 whatever happens.
 *
 * Prints TAP: "ok 1 - sysfuzz N ops in T s" and exits 0 when no thread
 * got stuck, no child died and no anomaly was seen.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/ncsync.h>

#include "ncsync_record.h"

#define PAGE		4096UL
#define NSLOTS		16	/* shared descriptor table */
#define NPROGS		128	/* submitted programs, (descriptor, id) */
#define NMAPS		24	/* mappings */
#define MAX_THREADS	64
#define MAX_CORES	2
#define MAX_RECS	(NCSYNC_MAX_RECORDS + 1)
#define RECS_PER_Q	512	/* records of a generated queue, at most */
#define NSEMS_HOT	8	/* semaphores and events most records use */

/* The operations, with their weights. */
enum op_kind {
	OP_OP, OP_BATCH, OP_WAIT, OP_RESET, OP_ACK, OP_STATS, OP_INFO,
	OP_SUBMIT, OP_STATUS, OP_PWAIT, OP_CANCEL, OP_GARBAGE,
	OP_PREAD, OP_PWRITE, OP_RW, OP_MMAP, OP_MUNMAP, OP_MPROTECT,
	OP_MREMAP, OP_MADVISE, OP_TOUCH, OP_POLL, OP_OPEN, OP_DUP, OP_DUP2,
	OP_CLOSE, OP_FORK, OP_SIGNAL, OP_NKINDS
};

static const struct {
	const char *name;
	unsigned int weight;
} kinds[OP_NKINDS] = {
	[OP_OP] = { "op", 60 },
	[OP_BATCH] = { "batch", 30 },
	[OP_WAIT] = { "wait", 30 },
	[OP_RESET] = { "reset", 1 },
	[OP_ACK] = { "ack", 8 },
	[OP_STATS] = { "stats", 8 },
	[OP_INFO] = { "info", 6 },
	[OP_SUBMIT] = { "submit", 70 },
	[OP_STATUS] = { "prog_status", 30 },
	[OP_PWAIT] = { "prog_wait", 20 },
	[OP_CANCEL] = { "prog_cancel", 8 },
	[OP_GARBAGE] = { "garbage_ioctl", 50 },
	[OP_PREAD] = { "pread", 30 },
	[OP_PWRITE] = { "pwrite", 30 },
	[OP_RW] = { "lseek_read_write", 8 },
	[OP_MMAP] = { "mmap", 10 },
	[OP_MUNMAP] = { "munmap", 6 },
	[OP_MPROTECT] = { "mprotect", 6 },
	[OP_MREMAP] = { "mremap", 3 },
	[OP_MADVISE] = { "madvise", 2 },
	[OP_TOUCH] = { "touch", 20 },
	[OP_POLL] = { "poll", 10 },
	[OP_OPEN] = { "open", 12 },
	[OP_DUP] = { "dup", 4 },
	[OP_DUP2] = { "dup2", 3 },
	[OP_CLOSE] = { "close", 5 },
	[OP_FORK] = { "fork", 1 },
	[OP_SIGNAL] = { "signal", 4 },
};

struct rng {
	uint64_t s;
};

struct worker {
	pthread_t thread;
	unsigned int idx;
	struct rng r;
	const char *cur;		/* the operation it is in (atomic) */
	bool done;			/* atomic */
	uint64_t ops;
	uint64_t count[OP_NKINDS];
	uint64_t okays[OP_NKINDS];
	uint8_t *recs;			/* RECS_PER_Q * 5 records */
	uint8_t buf[NCSYNC_CSR_SIZE + 64];
};

struct mapping {
	char *addr;
	size_t len;
	int prot;
	bool touch;	/* pages may be touched */
};

static unsigned int nthreads = 4, ncores, seconds = 20, bound = 30;
static uint64_t seed;
static bool stop;			/* atomic */
static struct worker workers[MAX_THREADS];
static int slots[NSLOTS];
static uint64_t progs[NPROGS];		/* fd << 32 | id, 0 if none */
static struct mapping maps[NMAPS];
static pthread_rwlock_t maplock = PTHREAD_RWLOCK_INITIALIZER;
static pthread_mutex_t outlock = PTHREAD_MUTEX_INITIALIZER;
static struct ncsync_info info[MAX_CORES];
static char *guard;		/* two PROT_NONE pages */
static char *straddle;		/* a RW page, then a PROT_NONE page */
static char *bigbuf;		/* one RW page then PROT_NONE: huge counts */

/* Counters updated with atomics */
static uint64_t n_errno[136];
static uint64_t n_anomalies, n_child_bad, n_prog_state[8], n_sub_ok,
		n_sub_einval, n_sub_other, n_sub_checked, n_executed;

#define __printf(a, b)	__attribute__((__format__(__printf__, a, b)))
#define ATOMIC_INC(p)	__atomic_fetch_add((p), 1, __ATOMIC_RELAXED)

static void __printf(1, 2) diag(const char *fmt, ...)
{
	va_list ap;

	pthread_mutex_lock(&outlock);
	fputs("# ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	fputc('\n', stdout);
	fflush(stdout);
	pthread_mutex_unlock(&outlock);
}

#define anomaly(...) do {				\
	ATOMIC_INC(&n_anomalies);			\
	if (__atomic_load_n(&n_anomalies, __ATOMIC_RELAXED) <= 20)	\
		diag("anomaly: " __VA_ARGS__);		\
} while (0)

/* splitmix64: seeds; xorshift64*: the streams. */
static uint64_t splitmix(uint64_t *x)
{
	uint64_t z = (*x += 0x9E3779B97F4A7C15ULL);

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
	return z ^ (z >> 31);
}

static uint64_t rnd(struct rng *r)
{
	r->s ^= r->s >> 12;
	r->s ^= r->s << 25;
	r->s ^= r->s >> 27;
	return r->s * 0x2545F4914F6CDD1DULL;
}

static uint32_t below(struct rng *r, uint32_t n)
{
	return n ? (uint32_t)((rnd(r) >> 32) % n) : 0;
}

static bool chance(struct rng *r, unsigned int num, unsigned int den)
{
	return below(r, den) < num;
}

static void fill(struct rng *r, void *p, size_t len)
{
	uint8_t *b = p;
	size_t i;

	for (i = 0; i < len; i++)
		b[i] = rnd(r) >> 56;
}

static void put32(uint8_t *p, uint32_t v)
{
	p[0] = v;
	p[1] = v >> 8;
	p[2] = v >> 16;
	p[3] = v >> 24;
}

static void put64(uint8_t *p, uint64_t v)
{
	put32(p, (uint32_t)v);
	put32(p + 4, (uint32_t)(v >> 32));
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static void deadline_in(struct ncsync_timespec *d, uint64_t ns)
{
	uint64_t t = now_ns() + ns;

	d->tv_sec = t / 1000000000ULL;
	d->tv_nsec = t % 1000000000ULL;
}

/* A deadline: mostly a few ms ahead, sometimes past or malformed. */
static void rand_deadline(struct rng *r, struct ncsync_timespec *d)
{
	switch (below(r, 16)) {
	case 0:
		d->tv_sec = 0;
		d->tv_nsec = 0;
		break;
	case 1:
		d->tv_sec = -1;
		d->tv_nsec = 0;
		break;
	case 2:
		deadline_in(d, 0);
		d->tv_nsec = 1000000000LL + below(r, 10);
		break;
	case 3:
		deadline_in(d, 0);
		d->tv_nsec = -1;
		break;
	default:
		deadline_in(d, below(r, 4000000));
		break;
	}
}

/* A pointer for a syscall: mostly @good, else an invalid one. */
static void *rand_ptr(struct rng *r, void *good, size_t len)
{
	static const uint64_t kernelish[] = {
		0xffff888000000000ULL, 0xffffffff81000000ULL,
		0xffffffffff600000ULL, 0xfffffffffffff000ULL,
		0x0000800000000000ULL, 0xdead000000000000ULL,
	};

	if (chance(r, 7, 8))
		return good;
	switch (below(r, 8)) {
	case 0:
		return NULL;
	case 1:
		return guard + below(r, 2 * PAGE);
	case 2:	/* runs into the PROT_NONE page */
		return straddle + PAGE - 1 -
		       below(r, len < PAGE ? (uint32_t)len : PAGE);
	case 3:
		return (void *)(uintptr_t)kernelish[below(r, 6)];
	case 4:
		return (void *)(uintptr_t)(below(r, 0x10000) & ~7U);
	case 5:
		return (void *)(uintptr_t)rnd(r);
	case 6:
		return (char *)good + 1;
	default:
		return (void *)(uintptr_t)-1;
	}
}

/* A descriptor from the table, or sometimes a bad one. */
static int pick_fd(struct rng *r)
{
	if (chance(r, 1, 64))
		return below(r, 2) ? -1 : 1000 + (int)below(r, 100);
	return __atomic_load_n(&slots[below(r, NSLOTS)], __ATOMIC_RELAXED);
}

static int open_core(struct rng *r)
{
	char path[32];
	int flags = O_RDWR;

	snprintf(path, sizeof(path), "/dev/ncsync%u", below(r, ncores));
	if (chance(r, 1, 6))
		flags = O_RDONLY;
	if (chance(r, 1, 8))
		flags |= O_NONBLOCK;
	if (chance(r, 1, 2))
		flags |= O_CLOEXEC;
	return open(path, flags);
}

/* The core a descriptor is on, from NCSYNC_IOC_INFO; 0 if unknown. */
static unsigned int fd_core(int fd)
{
	struct ncsync_info in;

	if (ioctl(fd, NCSYNC_IOC_INFO, &in) || in.core >= ncores)
		return 0;
	return in.core;
}

/* Record generation */

static uint8_t hot(struct rng *r)
{
	return chance(r, 7, 8) ? below(r, NSEMS_HOT) : below(r, 256);
}

static uint8_t gen_upd(struct rng *r, bool evsem, bool dma)
{
	static const uint8_t bases[] = { 1, 2, 3, 4, 5, 7, 9 };
	uint8_t m;

	if (dma)
		return (below(r, 2) ? NCSYNC_UPD_SEM_INC : NCSYNC_UPD_EVT_SET) |
		       (below(r, 2) ? NCSYNC_UPD_COMPLETE : 0);
	m = bases[below(r, 7)];
	if (evsem || chance(r, 3, 4))
		m |= NCSYNC_UPD_COMPLETE;
	if ((m & 0x0F) >= NCSYNC_UPD_SEM_ADD && chance(r, 1, 4))
		m |= NCSYNC_UPD_REG;
	return m;
}

static bool upd_takes_value(uint8_t m)
{
	uint8_t b = m & 0x0F;

	return b == NCSYNC_UPD_SEM_ADD || b == NCSYNC_UPD_SEM_SUB ||
	       b == NCSYNC_UPD_SEM_WRITE;
}

/* A threshold that usually passes, so that programs go on. */
static uint32_t gen_threshold(struct rng *r, uint8_t mode)
{
	if (chance(r, 1, 8))
		return below(r, 4);
	switch (mode) {
	case NCSYNC_WAIT_SEM_EQ:
		return 0;
	case NCSYNC_WAIT_SEM_LT:
	case NCSYNC_WAIT_SEM_LE:
		return 0x7FFFFFFF;
	case NCSYNC_WAIT_SEM_GT:
		return (uint32_t)INT32_MIN;
	default:
		return (uint32_t)(int32_t)-1000;
	}
}

/*
 * One lane's wait and update.  @wv, @uv: its value fields (the same one
 * for lane 0).
 */
static void gen_lane(struct rng *r, uint8_t *lane, uint8_t *wv, uint8_t *uv,
		     bool evsem, bool dma)
{
	static const uint8_t ev_modes[] = {
		NCSYNC_WAIT_EVT_SET, NCSYNC_WAIT_EVT_SET_THEN_CLEAR,
		NCSYNC_WAIT_EVT_CLEAR, NCSYNC_WAIT_EVT_CLEAR_THEN_SET,
	};
	uint8_t wm = 0, um = 0;
	uint32_t w = 0, u = 0;

	if (chance(r, 1, 3)) {
		if (chance(r, 2, 3)) {
			wm = 1 + below(r, 5);
			w = gen_threshold(r, wm);
			if (chance(r, 1, 4)) {
				wm |= NCSYNC_WAIT_REG;
				w = below(r, NCSYNC_NUM_REGS);
			}
		} else {
			/* Mostly the modes that pass on a clear event. */
			wm = ev_modes[chance(r, 3, 4) ? 2 + below(r, 2) :
				      below(r, 2)];
			w = chance(r, 1, 8) ? (uint32_t)rnd(r) : 0;
		}
		lane[0] = wm;
		lane[1] = hot(r);
	}
	if (chance(r, 1, 2)) {
		um = gen_upd(r, evsem, dma);
		if (um & NCSYNC_UPD_REG)
			u = below(r, NCSYNC_NUM_REGS);
		else if (upd_takes_value(um))
			u = below(r, 8);
		else
			u = chance(r, 1, 8) ? (uint32_t)rnd(r) : 0;
		lane[2] = um;
		lane[3] = hot(r);
	}
	if (wv == uv) {
		/* One field: the wait's threshold, else the operand. */
		bool wuse = wm && (wm & 0x7F) <= NCSYNC_WAIT_SEM_GE;
		bool uuse = um && upd_takes_value(um);
		uint32_t v = wuse ? w : uuse ? u : wm ? w : u;

		if ((wm & NCSYNC_WAIT_REG) || (um & NCSYNC_UPD_REG))
			v &= NCSYNC_NUM_REGS - 1;
		put32(wv, wm || um ? v : 0);
	} else {
		put32(wv, wm ? w : 0);
		put32(uv, um ? u : 0);
	}
}

static void gen_record(struct rng *r, uint8_t *rec, uint32_t idx,
		       uint32_t count, uint64_t devmem)
{
	static const uint8_t ops[] = {
		NCSYNC_OPC_EVENT_SEMAPHORE, NCSYNC_OPC_EVENT_SEMAPHORE,
		NCSYNC_OPC_EVENT_SEMAPHORE, NCSYNC_OPC_NOOP, NCSYNC_OPC_NOOP,
		NCSYNC_OPC_MOV32, NCSYNC_OPC_MOV32, NCSYNC_OPC_BRANCH,
		NCSYNC_OPC_BRANCH, NCSYNC_OPC_GROUP_RESET, NCSYNC_OPC_POLL_SEM,
		NCSYNC_OPC_DMA, NCSYNC_OPC_DMA, NCSYNC_OPC_DRAIN,
		NCSYNC_OPC_EXIT, NCSYNC_OPC_HALT,
	};
	uint8_t op = ops[below(r, sizeof(ops))];
	uint32_t len;
	unsigned int i;

	memset(rec, 0, NCSYNC_RECORD_SIZE);
	if (chance(r, 1, 100))
		op = chance(r, 1, 2) ? NCSYNC_OPC_ALL_ENGINE_BARRIER :
				       (uint8_t)rnd(r);
	/* Exit and halt end a queue: mostly only as its last record. */
	if ((op == NCSYNC_OPC_EXIT || op == NCSYNC_OPC_HALT) &&
	    idx + 1 < count && chance(r, 3, 4))
		op = NCSYNC_OPC_NOOP;
	rec[0] = op;
	rec[1] = NCSYNC_RECORD_WORDLEN;
	gen_lane(r, rec + NCSYNC_REC_EV_WAIT_MODE, rec + NCSYNC_REC_EV_VALUE,
		 rec + NCSYNC_REC_EV_VALUE, op == NCSYNC_OPC_EVENT_SEMAPHORE,
		 op == NCSYNC_OPC_DMA);

	switch (op) {
	case NCSYNC_OPC_EVENT_SEMAPHORE:
		gen_lane(r, rec + NCSYNC_REC_EX_WAIT_MODE,
			 rec + NCSYNC_REC_EX_WAIT_VALUE,
			 rec + NCSYNC_REC_EX_UPD_VALUE, true, false);
		break;
	case NCSYNC_OPC_DRAIN:
		rec[NCSYNC_REC_DRAIN_COUNT] = 1;
		break;
	case NCSYNC_OPC_MOV32: {
		uint8_t alu = below(r, NCSYNC_ALU_LAST + 1);

		rec[NCSYNC_REC_MOV_ALU] = alu;
		rec[NCSYNC_REC_MOV_DST] = below(r, NCSYNC_NUM_REGS);
		if (alu != NCSYNC_ALU_MOV_IMM)
			rec[NCSYNC_REC_MOV_SRC] = below(r, NCSYNC_NUM_REGS);
		if (alu != NCSYNC_ALU_MOV && alu != NCSYNC_ALU_ADD &&
		    alu != NCSYNC_ALU_SUB)
			put32(rec + NCSYNC_REC_MOV_IMM,
			      chance(r, 1, 2) ? below(r, 16) : rnd(r));
		break;
	}
	case NCSYNC_OPC_BRANCH: {
		uint32_t target;

		/* Forward, but now and then back: a loop, until the
		 * watchdog (a loop that changes nothing makes no progress).
		 */
		if (idx + 1 < count && chance(r, 15, 16))
			target = idx + 1 + below(r, count - idx - 1);
		else
			target = below(r, count);
		put64(rec + NCSYNC_REC_BR_TARGET, target);
		if (chance(r, 1, 3))
			break;		/* always */
		rec[NCSYNC_REC_BR_COMP_OP] = 1 + below(r, 6);
		rec[NCSYNC_REC_BR_OPERAND_KIND] = NCSYNC_BR_OPERANDS;
		rec[NCSYNC_REC_BR_DTYPE] = 1 + below(r, 2);
		rec[NCSYNC_REC_BR_LHS_REG] = below(r, NCSYNC_NUM_REGS);
		if (chance(r, 1, 2)) {
			rec[NCSYNC_REC_BR_COMP_OP] |= NCSYNC_BR_REG;
			rec[NCSYNC_REC_BR_RHS_REG] = below(r, NCSYNC_NUM_REGS);
		} else {
			put32(rec + NCSYNC_REC_BR_IMM, below(r, 16));
		}
		break;
	}
	case NCSYNC_OPC_GROUP_RESET:
		if (chance(r, 1, 2)) {
			uint8_t a = below(r, 256), b = below(r, 256);

			rec[NCSYNC_REC_GR_CLEAR_MODE] = NCSYNC_CLEAR_RANGE;
			rec[NCSYNC_REC_GR_FIRST] = a < b ? a : b;
			rec[NCSYNC_REC_GR_LAST] = a < b ? b : a;
		} else {
			rec[NCSYNC_REC_GR_CLEAR_MODE] = NCSYNC_CLEAR_MASK;
			for (i = 0; i < 32; i++)
				rec[NCSYNC_REC_GR_MASK + i] =
					chance(r, 1, 4) ? rnd(r) >> 56 : 0;
		}
		break;
	case NCSYNC_OPC_POLL_SEM:
		rec[NCSYNC_REC_POLL_OP] = below(r, 2);
		rec[NCSYNC_REC_POLL_DST] = below(r, NCSYNC_NUM_REGS);
		rec[NCSYNC_REC_POLL_COUNT] = 1 + below(r, NCSYNC_POLL_MAX_COUNT);
		rec[NCSYNC_REC_POLL_FIRST] =
			below(r, NCSYNC_NUM_SEMS - rec[NCSYNC_REC_POLL_COUNT] + 1);
		break;
	case NCSYNC_OPC_DMA:
		len = 1 + below(r, devmem < 8192 ? (uint32_t)devmem : 8192);
		put64(rec + NCSYNC_REC_DMA_SRC, below(r, devmem - len + 1));
		put64(rec + NCSYNC_REC_DMA_DST, below(r, devmem - len + 1));
		put32(rec + NCSYNC_REC_DMA_LEN, len);
		put32(rec + NCSYNC_REC_DMA_LATENCY_US,
		      chance(r, 1, 2) ? 0 : below(r, 2000));
		break;
	}
}

/* Damage a few bytes of a few records. */
static void mutate(struct rng *r, uint8_t *recs, uint32_t n)
{
	unsigned int k = 1 + below(r, 3);
	uint8_t *p;

	while (k--) {
		p = recs + (size_t)below(r, n) * NCSYNC_RECORD_SIZE +
		    below(r, NCSYNC_RECORD_SIZE);
		switch (below(r, 5)) {
		case 0:
			*p ^= 1 << below(r, 8);
			break;
		case 1:
			*p = rnd(r) >> 56;
			break;
		case 2:
			*p = 0;
			break;
		case 3:
			*p = 0xFF;
			break;
		default:
			*p += 1;
			break;
		}
	}
}

/* The first record the module's validator refuses, as the kernel must. */
static bool predict(const struct ncsync_queue *q, uint32_t nq, uint64_t devmem,
		    struct ncsync_submit *want)
{
	struct ncsync_insn in;
	uint32_t i, j;

	for (i = 0; i < nq; i++) {
		const uint8_t *recs = (const uint8_t *)(uintptr_t)q[i].records;

		for (j = 0; j < q[i].count; j++) {
			enum ncsync_rec_reason rs;

			rs = ncsync_record_decode(recs + (size_t)j *
						  NCSYNC_RECORD_SIZE,
						  q[i].count, devmem, &in);
			if (rs) {
				want->bad_engine = q[i].engine;
				want->bad_index = j;
				want->reason = rs;
				return false;
			}
		}
	}
	return true;
}

static void prog_remember(struct rng *r, int fd, uint32_t id)
{
	__atomic_store_n(&progs[below(r, NPROGS)], (uint64_t)fd << 32 | id,
			 __ATOMIC_RELAXED);
}

/* A remembered program, or a random (descriptor, id). */
static void prog_pick(struct rng *r, int *fd, uint32_t *id)
{
	uint64_t p = __atomic_load_n(&progs[below(r, NPROGS)],
				     __ATOMIC_RELAXED);

	if (!p || chance(r, 1, 16)) {
		*fd = pick_fd(r);
		*id = chance(r, 1, 2) ? below(r, 300) : (uint32_t)rnd(r);
		return;
	}
	*fd = p >> 32;
	*id = (uint32_t)p;
}

static void count_state(uint32_t state)
{
	ATOMIC_INC(&n_prog_state[state < 7 ? state : 7]);
}

/* Wait for a program just submitted, then read and release it. */
static void follow(int slot_fd, uint32_t id, uint64_t ns)
{
	struct ncsync_prog_wait pw = { .id = id };
	struct ncsync_prog_status ps;
	unsigned int i;
	int fd;

	/* Other threads may replace the number; hold on to the file. */
	fd = dup(slot_fd);
	if (fd < 0)
		return;
	deadline_in(&pw.deadline, ns);
	memset(&ps, 0, sizeof(ps));
	ps.id = id;
	ps.flags = NCSYNC_STATUS_F_RELEASE;
	if (ioctl(fd, NCSYNC_IOC_PROG_WAIT, &pw) ||
	    ioctl(fd, NCSYNC_IOC_PROG_STATUS, &ps)) {
		close(fd);
		return;
	}
	close(fd);
	count_state(ps.state);
	if (ps.state != pw.state)
		anomaly("program %u ended %u, then its status says %u", id,
			pw.state, ps.state);
	for (i = 0; i < ps.nengines && i < NCSYNC_NUM_ENGINES; i++)
		__atomic_fetch_add(&n_executed, ps.engines[i].executed,
				   __ATOMIC_RELAXED);
}

/* Operations; each returns true when the call succeeded. */

static bool do_op(struct worker *w)
{
	struct rng *r = &w->r;
	struct ncsync_op o = { 0 };

	o.bank = chance(r, 1, 32) ? rnd(r) >> 56 : below(r, 2);
	o.op = chance(r, 1, 32) ? rnd(r) >> 56 : below(r, 5);
	o.index = chance(r, 1, 32) ? (uint32_t)rnd(r) : hot(r);
	if (o.bank == NCSYNC_BANK_SEM && o.op >= NCSYNC_OP_SET &&
	    o.op <= NCSYNC_OP_DEC)
		o.value = chance(r, 1, 16) ? (uint32_t)rnd(r) : below(r, 4);
	if (chance(r, 1, 32))
		fill(r, &o, sizeof(o));
	return !ioctl(pick_fd(r), NCSYNC_IOC_OP, rand_ptr(r, &o, sizeof(o)));
}

static bool do_batch(struct worker *w)
{
	struct rng *r = &w->r;
	struct ncsync_batch b = { 0 };
	struct ncsync_op *ops;
	uint32_t i, n = 1 + below(r, 32);
	bool ok;

	if (chance(r, 1, 32))
		n = chance(r, 1, 2) ? NCSYNC_MAX_BATCH : NCSYNC_MAX_BATCH + 1;
	ops = calloc(n, sizeof(*ops));
	if (!ops)
		return false;
	for (i = 0; i < n; i++) {
		ops[i].bank = below(r, 2);
		ops[i].op = ops[i].bank ? (below(r, 3) == 2 ? 4 : below(r, 2)) :
					  below(r, 4);
		ops[i].index = hot(r);
		if (!ops[i].bank && ops[i].op)
			ops[i].value = below(r, 4);
	}
	if (chance(r, 1, 8))
		fill(r, &ops[below(r, n)], sizeof(*ops));
	b.ops = (uintptr_t)rand_ptr(r, ops, n * sizeof(*ops));
	b.count = chance(r, 1, 32) ? below(r, 2) ? 0 : n + 1 : n;
	b.flags = chance(r, 1, 32) ? (uint32_t)rnd(r) : 0;
	ok = !ioctl(pick_fd(r), NCSYNC_IOC_BATCH, rand_ptr(r, &b, sizeof(b)));
	free(ops);
	return ok;
}

static bool do_wait(struct worker *w)
{
	static const uint8_t ev_modes[] = { 6, 7, 14, 15 };
	struct rng *r = &w->r;
	struct ncsync_wait wt = { 0 };

	wt.bank = below(r, 2);
	if (wt.bank == NCSYNC_BANK_SEM) {
		wt.mode = 1 + below(r, 5);
		wt.value = below(r, 4) - 1;
	} else {
		wt.mode = ev_modes[below(r, 4)];
	}
	wt.index = hot(r);
	rand_deadline(r, &wt.deadline);
	if (chance(r, 1, 64)) {
		/* No deadline: a reset, a signal or a close ends it. */
		wt.flags = NCSYNC_WAIT_F_NO_DEADLINE;
		wt.deadline.tv_sec = 0;
		wt.deadline.tv_nsec = 0;
	}
	if (chance(r, 1, 32)) {
		wt.mode |= NCSYNC_WAIT_REG;
	} else if (chance(r, 1, 32)) {
		fill(r, &wt, sizeof(wt));
		wt.flags &= ~NCSYNC_WAIT_F_NO_DEADLINE;
	}
	return !ioctl(pick_fd(r), NCSYNC_IOC_WAIT, rand_ptr(r, &wt, sizeof(wt)));
}

static bool do_reset(struct worker *w)
{
	struct rng *r = &w->r;
	struct ncsync_reset rs = { 0 };

	if (chance(r, 1, 8))
		rs.flags = rnd(r);
	if (chance(r, 1, 8))
		rs.pad = rnd(r);
	return !ioctl(pick_fd(r), NCSYNC_IOC_RESET, rand_ptr(r, &rs, sizeof(rs)));
}

static bool do_simple(struct worker *w, unsigned long cmd)
{
	struct rng *r = &w->r;

	return !ioctl(pick_fd(r), cmd, rand_ptr(r, w->buf, 128));
}

static bool do_submit(struct worker *w)
{
	static const uint8_t engines[] = { 1, 2, 3, 5, 6 };
	struct rng *r = &w->r;
	struct ncsync_queue q[NCSYNC_NUM_ENGINES + 1];
	struct ncsync_submit sub = { 0 }, want = { 0 };
	uint8_t order[5] = { 0, 1, 2, 3, 4 };
	uint32_t i, j, nq = 1 + below(r, 5), total = 0;
	bool well_formed = true, predicted, ok;
	int fd = pick_fd(r), ret, err;
	uint64_t devmem;
	unsigned int core;

	core = fd >= 0 ? fd_core(fd) : 0;
	devmem = info[core].devmem_size;
	for (i = 4; i > 0; i--) {
		uint8_t t = order[i];

		j = below(r, i + 1);
		order[i] = order[j];
		order[j] = t;
	}
	memset(q, 0, sizeof(q));
	for (i = 0; i < nq; i++) {
		uint32_t n = 1 + below(r, chance(r, 1, 8) ? RECS_PER_Q : 16);
		uint8_t *recs = w->recs + (size_t)total * NCSYNC_RECORD_SIZE;

		if (total + n > RECS_PER_Q * 5)
			n = RECS_PER_Q * 5 - total;
		if (!n) {
			nq = i;
			break;
		}
		for (j = 0; j < n; j++)
			gen_record(r, recs + (size_t)j * NCSYNC_RECORD_SIZE, j,
				   n, devmem);
		q[i].records = (uintptr_t)recs;
		q[i].count = n;
		q[i].engine = engines[order[i]];
		total += n;
	}
	if (!nq)
		return false;
	if (chance(r, 1, 4))
		mutate(r, w->recs, total);

	sub.queues = (uintptr_t)q;
	sub.nqueues = nq;
	sub.flags = chance(r, 1, 4) ? NCSYNC_SUBMIT_F_STRICT : 0;
	sub.watchdog_ms = chance(r, 1, 512) ? 0 : 1 + below(r, 50);

	/* Malformed descriptions: the prediction does not hold. */
	if (chance(r, 1, 16)) {
		well_formed = false;
		switch (below(r, 12)) {
		case 0:
			q[below(r, nq)].engine = chance(r, 1, 2) ?
				NCSYNC_ENGINE_DMA : rnd(r) >> 56;
			break;
		case 1:
			q[below(r, nq)].pad[below(r, 3)] = 1 + below(r, 255);
			break;
		case 2:
			q[below(r, nq)].count = chance(r, 1, 2) ? 0 : MAX_RECS;
			break;
		case 3:	/* huge, with records that end after a page */
			q[below(r, nq)].count = 1 + below(r, 1 << 16);
			q[0].records = (uintptr_t)bigbuf;
			break;
		case 4:
			q[below(r, nq)].records =
				(uintptr_t)rand_ptr(r, NULL, PAGE);
			break;
		case 5:
			if (nq > 1)
				q[1].engine = q[0].engine;
			else
				sub.nqueues = 0;
			break;
		case 6:
			sub.nqueues = NCSYNC_NUM_ENGINES + 1;
			q[5].engine = 6;
			q[5].count = 1;
			q[5].records = q[0].records;
			break;
		case 7:
			sub.flags = rnd(r);
			break;
		case 8:
			sub.watchdog_ms = chance(r, 1, 2) ? UINT32_MAX :
				3600 * 1000 + 1;
			break;
		case 9:
			sub.reserved = 1 + below(r, 100);
			break;
		case 10:
			sub.queues = (uintptr_t)rand_ptr(r, NULL, sizeof(q));
			break;
		default:
			fill(r, &sub, sizeof(sub));
			break;
		}
	}
	predicted = well_formed && predict(q, nq, devmem, &want);
	ret = ioctl(fd, NCSYNC_IOC_SUBMIT,
		    well_formed ? (void *)&sub : rand_ptr(r, &sub, sizeof(sub)));
	err = ret ? errno : 0;
	ok = !ret;
	if (ok) {
		ATOMIC_INC(&n_sub_ok);
		prog_remember(r, fd, sub.id);
		if (chance(r, 1, 8))
			follow(fd, sub.id, 1000000 * (5 + below(r, 50)));
	} else if (err == EINVAL) {
		ATOMIC_INC(&n_sub_einval);
	} else {
		ATOMIC_INC(&n_sub_other);
	}
	/*
	 * The descriptor may have been closed or replaced meanwhile (by a
	 * descriptor of another core: another device memory size), so only
	 * verdicts on a descriptor that answered as expected count.
	 */
	if (!well_formed || (ret && err != EINVAL) || fd_core(fd) != core)
		return ok;
	ATOMIC_INC(&n_sub_checked);
	if (ok && !predicted)
		anomaly("submit accepted; validator refuses engine %u record %u: %s",
			want.bad_engine, want.bad_index,
			ncsync_rec_reason_name(want.reason));
	if (!ok && predicted)
		anomaly("submit refused engine %u record %u (%s); validator accepts",
			sub.bad_engine, sub.bad_index,
			ncsync_rec_reason_name(sub.reason));
	if (!ok && !predicted &&
	    (sub.bad_engine != want.bad_engine ||
	     sub.bad_index != want.bad_index || sub.reason != want.reason))
		anomaly("submit refused engine %u record %u (%s); validator: engine %u record %u (%s)",
			sub.bad_engine, sub.bad_index,
			ncsync_rec_reason_name(sub.reason), want.bad_engine,
			want.bad_index, ncsync_rec_reason_name(want.reason));
	return ok;
}

static bool do_status(struct worker *w)
{
	struct rng *r = &w->r;
	struct ncsync_sem_value *sems = (void *)w->buf;
	struct ncsync_prog_status ps;
	void *arg;
	bool ok;
	int fd;

	memset(&ps, 0, sizeof(ps));
	prog_pick(r, &fd, &ps.id);
	ps.flags = chance(r, 1, 3) ? NCSYNC_STATUS_F_RELEASE : 0;
	if (chance(r, 1, 2))
		ps.sems = (uintptr_t)rand_ptr(r, sems, NCSYNC_NUM_SEMS *
					      sizeof(*sems));
	if (chance(r, 1, 32))
		ps.flags = rnd(r);
	if (chance(r, 1, 32))
		ps.reserved = rnd(r);
	arg = rand_ptr(r, &ps, sizeof(ps));
	ok = !ioctl(fd, NCSYNC_IOC_PROG_STATUS, arg);
	/* The answer is in @ps only when it went there (not ps + 1). */
	if (arg != &ps)
		return ok;
	if (ok && ps.state >= NCSYNC_PROG_DONE &&
	    (ps.flags & NCSYNC_STATUS_F_RELEASE)) {
		unsigned int i;

		count_state(ps.state);
		for (i = 0; i < ps.nengines && i < NCSYNC_NUM_ENGINES; i++)
			__atomic_fetch_add(&n_executed, ps.engines[i].executed,
					   __ATOMIC_RELAXED);
	}
	if (ok && (ps.state > NCSYNC_PROG_CANCELLED ||
		   ps.nengines > NCSYNC_NUM_ENGINES ||
		   ps.nsems > NCSYNC_NUM_SEMS))
		anomaly("prog_status: state %u, %u engines, %u sems", ps.state,
			ps.nengines, ps.nsems);
	return ok;
}

static bool do_pwait(struct worker *w)
{
	struct rng *r = &w->r;
	struct ncsync_prog_wait pw = { 0 };
	void *arg;
	bool ok;
	int fd;

	prog_pick(r, &fd, &pw.id);
	rand_deadline(r, &pw.deadline);
	if (chance(r, 1, 64)) {
		pw.flags = NCSYNC_WAIT_F_NO_DEADLINE;
		pw.deadline.tv_sec = 0;
		pw.deadline.tv_nsec = 0;
	}
	if (chance(r, 1, 32))
		pw.reserved = rnd(r);
	arg = rand_ptr(r, &pw, sizeof(pw));
	ok = !ioctl(fd, NCSYNC_IOC_PROG_WAIT, arg);
	if (ok && arg == &pw) {
		if (pw.state < NCSYNC_PROG_DONE || pw.state > NCSYNC_PROG_CANCELLED)
			anomaly("prog_wait: final state %u", pw.state);
		count_state(pw.state);
	}
	return ok;
}

static bool do_cancel(struct worker *w)
{
	struct rng *r = &w->r;
	struct ncsync_prog_cancel pc = { 0 };
	int fd;

	prog_pick(r, &fd, &pc.id);
	if (chance(r, 1, 16))
		pc.flags = rnd(r);
	return !ioctl(fd, NCSYNC_IOC_PROG_CANCEL, rand_ptr(r, &pc, sizeof(pc)));
}

static bool do_garbage(struct worker *w)
{
	static const unsigned long cmds[] = {
		NCSYNC_IOC_INFO, NCSYNC_IOC_OP, NCSYNC_IOC_BATCH,
		NCSYNC_IOC_WAIT, NCSYNC_IOC_RESET, NCSYNC_IOC_ACK,
		NCSYNC_IOC_STATS, NCSYNC_IOC_SUBMIT, NCSYNC_IOC_PROG_STATUS,
		NCSYNC_IOC_PROG_WAIT, NCSYNC_IOC_PROG_CANCEL,
	};
	struct rng *r = &w->r;
	unsigned long cmd;

	switch (below(r, 4)) {
	case 0:
		cmd = cmds[below(r, 11)];
		break;
	case 1:	/* a known number with another size or direction */
		cmd = _IOC(below(r, 4), NCSYNC_IOC_MAGIC, below(r, 0x20),
			   below(r, 2) ? below(r, 512) : below(r, 1 << 14));
		break;
	case 2:
		cmd = cmds[below(r, 11)] ^ (1UL << below(r, 32));
		break;
	default:
		cmd = (uint32_t)rnd(r);
		/* Leave the VFS's own ioctls (FIO*, FS_IOC_*) alone. */
		if (_IOC_TYPE(cmd) != NCSYNC_IOC_MAGIC)
			cmd = (cmd & ~(0xFFUL << _IOC_TYPESHIFT)) |
			      ((unsigned long)NCSYNC_IOC_MAGIC << _IOC_TYPESHIFT);
		break;
	}
	fill(r, w->buf, 512);
	/* Random bytes make a wait with no deadline now and then: not here. */
	if (cmd == NCSYNC_IOC_WAIT || cmd == NCSYNC_IOC_PROG_WAIT)
		((struct ncsync_wait *)w->buf)->flags &= ~1;
	if (cmd == NCSYNC_IOC_PROG_WAIT)
		((struct ncsync_prog_wait *)w->buf)->flags &= ~1;
	return !ioctl(pick_fd(r), cmd, rand_ptr(r, w->buf, 512));
}

static off_t rand_off(struct rng *r)
{
	switch (below(r, 16)) {
	case 0:
		return -(off_t)below(r, 8) - 1;
	case 1:
		return (off_t)rnd(r) & 0x7FFFFFFFFFFFFFFFLL;
	case 2:
		return NCSYNC_CSR_SIZE - 4 * below(r, 4);
	case 3:
		return below(r, NCSYNC_CSR_SIZE + 64);
	default:
		return 4 * below(r, NCSYNC_CSR_SIZE / 4);
	}
}

static size_t rand_len(struct rng *r)
{
	switch (below(r, 16)) {
	case 0:
		return 0;
	case 1:
		return 1 + below(r, 7);
	case 2:
		return NCSYNC_CSR_SIZE + 4 * below(r, 4);
	case 3:
		return 4 * below(r, NCSYNC_CSR_SIZE / 4 + 1);
	default:
		return 4 * (1 + below(r, 16));
	}
}

static bool do_pread(struct worker *w)
{
	struct rng *r = &w->r;
	size_t len = rand_len(r);

	if (len > NCSYNC_CSR_SIZE && chance(r, 7, 8))
		len = NCSYNC_CSR_SIZE;
	return pread(pick_fd(r), rand_ptr(r, w->buf, len),
		     len > sizeof(w->buf) ? sizeof(w->buf) : len,
		     rand_off(r)) >= 0;
}

static bool do_pwrite(struct worker *w)
{
	struct rng *r = &w->r;
	size_t len = rand_len(r), i;
	off_t off = rand_off(r);
	uint32_t *v = (uint32_t *)w->buf;

	if (len > sizeof(w->buf))
		len = sizeof(w->buf);
	for (i = 0; i < len / 4; i++)
		v[i] = chance(r, 1, 2) ? below(r, 3) : (uint32_t)rnd(r);
	/* Mostly the writable windows: events and the semaphore updates. */
	if (chance(r, 1, 2) && len <= NCSYNC_CSR_WINDOW_SIZE) {
		off = (below(r, 2) ? NCSYNC_CSR_EVENTS :
		       NCSYNC_CSR_SEM_SET + below(r, 3) * NCSYNC_CSR_WINDOW_SIZE) +
		      4 * below(r, (NCSYNC_CSR_WINDOW_SIZE - len) / 4 + 1);
	}
	return pwrite(pick_fd(r), rand_ptr(r, w->buf, len), len, off) >= 0;
}

static bool do_rw(struct worker *w)
{
	struct rng *r = &w->r;
	int fd = pick_fd(r);
	struct iovec iov[2];
	size_t len = 4 * below(r, 8);

	lseek(fd, rand_off(r), below(r, 4));
	iov[0].iov_base = rand_ptr(r, w->buf, len);
	iov[0].iov_len = len;
	iov[1].iov_base = w->buf + 64;
	iov[1].iov_len = 4 * below(r, 4);
	switch (below(r, 4)) {
	case 0:
		return read(fd, w->buf, len) >= 0;
	case 1:
		memset(w->buf, 0, len);
		return write(fd, w->buf, len) >= 0;
	case 2:
		return readv(fd, iov, 2) >= 0;
	default:
		memset(w->buf, 0, 128);
		return pwritev(fd, iov, 2, NCSYNC_CSR_SEM_INC) >= 0;
	}
}

/* Mappings: the table changes under the write lock, pages are touched
 * under the read lock.
 */
static bool do_mmap(struct worker *w)
{
	struct rng *r = &w->r;
	int fd = pick_fd(r), prot = PROT_READ, flags = MAP_SHARED;
	unsigned int core = fd >= 0 ? fd_core(fd) : 0;
	size_t len = PAGE * (1 + below(r, 2));
	off_t off = 0;
	struct mapping *m;
	void *p;

	if (chance(r, 1, 2)) {
		off = NCSYNC_DEVMEM_OFFSET;
		len = PAGE * (1 + below(r, info[core].devmem_size / PAGE));
		if (chance(r, 1, 2))
			prot |= PROT_WRITE;
	}
	if (chance(r, 1, 16))
		prot = below(r, 8);
	if (chance(r, 1, 16))
		flags = MAP_PRIVATE;
	if (chance(r, 1, 16))
		off = PAGE * below(r, 32);
	if (chance(r, 1, 16))
		len = PAGE * (1 + below(r, 512));
	p = mmap(NULL, len, prot, flags, fd, off);
	if (p == MAP_FAILED)
		return false;
	pthread_rwlock_wrlock(&maplock);
	m = &maps[below(r, NMAPS)];
	if (m->addr)
		munmap(m->addr, m->len);
	m->addr = p;
	m->len = len;
	m->prot = prot;
	/* Past the object, pages SIGBUS: only touch what is backed. */
	m->touch = flags == MAP_SHARED &&
		   ((off == 0 && len <= 2 * PAGE) ||
		    (off == NCSYNC_DEVMEM_OFFSET &&
		     len <= info[core].devmem_size));
	pthread_rwlock_unlock(&maplock);
	return true;
}

static bool do_munmap(struct worker *w)
{
	struct rng *r = &w->r;
	struct mapping *m = &maps[below(r, NMAPS)];
	bool ok = false;

	pthread_rwlock_wrlock(&maplock);
	if (m->addr) {
		if (m->len > PAGE && chance(r, 1, 2)) {
			/* The first page only. */
			ok = !munmap(m->addr, PAGE);
			if (ok) {
				m->addr += PAGE;
				m->len -= PAGE;
			}
		} else {
			ok = !munmap(m->addr, m->len);
			m->addr = NULL;
		}
	}
	pthread_rwlock_unlock(&maplock);
	return ok;
}

static bool do_mprotect(struct worker *w)
{
	struct rng *r = &w->r;
	struct mapping *m = &maps[below(r, NMAPS)];
	int prot = below(r, 8);
	bool ok = false;

	pthread_rwlock_wrlock(&maplock);
	if (m->addr) {
		ok = !mprotect(m->addr, m->len, prot);
		if (ok)
			m->prot = prot;
	}
	pthread_rwlock_unlock(&maplock);
	return ok;
}

static bool do_mremap(struct worker *w)
{
	struct rng *r = &w->r;
	struct mapping *m = &maps[below(r, NMAPS)];
	size_t len;
	void *p;

	pthread_rwlock_wrlock(&maplock);
	if (!m->addr) {
		pthread_rwlock_unlock(&maplock);
		return false;
	}
	len = chance(r, 1, 2) ? m->len : PAGE * (1 + below(r, 4));
	p = mremap(m->addr, m->len, len, chance(r, 1, 2) ? MREMAP_MAYMOVE : 0);
	if (p != MAP_FAILED) {
		if (len > m->len)
			m->touch = false;
		m->addr = p;
		m->len = len;
	}
	pthread_rwlock_unlock(&maplock);
	return p != MAP_FAILED;
}

static bool do_madvise(struct worker *w)
{
	static const int advice[] = {
		MADV_DONTNEED, MADV_WILLNEED, MADV_SEQUENTIAL, MADV_DONTFORK,
		MADV_DOFORK, MADV_COLD, MADV_PAGEOUT,
	};
	struct rng *r = &w->r;
	struct mapping *m = &maps[below(r, NMAPS)];
	int a = advice[below(r, 7)];
	bool ok = false;

	pthread_rwlock_wrlock(&maplock);
	if (m->addr) {
		ok = !madvise(m->addr, m->len, a);
		/* A zapped page of a driver mapping does not come back. */
		if (a == MADV_DONTNEED || a == MADV_PAGEOUT)
			m->touch = false;
	}
	pthread_rwlock_unlock(&maplock);
	return ok;
}

static bool do_touch(struct worker *w)
{
	struct rng *r = &w->r;
	struct mapping *m = &maps[below(r, NMAPS)];
	bool ok = false;
	size_t i;
	char *p;

	pthread_rwlock_rdlock(&maplock);
	if (m->addr && m->touch && (m->prot & PROT_READ)) {
		p = m->addr;
		for (i = 0; i < m->len; i += PAGE)
			(void)__atomic_load_n(&p[i + below(r, PAGE)],
					      __ATOMIC_RELAXED);
		if (m->prot & PROT_WRITE)
			__atomic_store_n(&p[below(r, m->len)], (char)rnd(r),
					 __ATOMIC_RELAXED);
		ok = true;
	}
	pthread_rwlock_unlock(&maplock);
	return ok;
}

static bool do_poll(struct worker *w)
{
	struct rng *r = &w->r;
	struct pollfd pfd[4];
	unsigned int i, n = 1 + below(r, 4);

	for (i = 0; i < n; i++) {
		pfd[i].fd = pick_fd(r);
		pfd[i].events = POLLIN | POLLPRI | (below(r, 2) ? POLLOUT : 0);
	}
	return poll(pfd, n, below(r, 3)) >= 0;
}

/* A slot for a new descriptor: mostly an empty or stale one. */
static int *free_slot(struct rng *r)
{
	unsigned int i, start = below(r, NSLOTS);
	int *slot, fd;

	if (chance(r, 3, 4)) {
		for (i = 0; i < NSLOTS; i++) {
			slot = &slots[(start + i) % NSLOTS];
			fd = __atomic_load_n(slot, __ATOMIC_RELAXED);
			if (fd < 0 || fcntl(fd, F_GETFD) < 0)
				return slot;
		}
	}
	return &slots[start];
}

static bool do_open(struct worker *w)
{
	struct rng *r = &w->r;
	int fd = open_core(r), old;

	if (fd < 0)
		return false;
	old = __atomic_exchange_n(free_slot(r), fd, __ATOMIC_RELAXED);
	if (old >= 0)
		close(old);
	return true;
}

static bool do_dup(struct worker *w)
{
	struct rng *r = &w->r;
	int fd = dup(pick_fd(r)), old;

	if (fd < 0)
		return false;
	old = __atomic_exchange_n(free_slot(r), fd, __ATOMIC_RELAXED);
	if (old >= 0)
		close(old);
	return true;
}

static bool do_dup2(struct worker *w)
{
	struct rng *r = &w->r;
	int a = __atomic_load_n(&slots[below(r, NSLOTS)], __ATOMIC_RELAXED);
	int b = __atomic_load_n(&slots[below(r, NSLOTS)], __ATOMIC_RELAXED);

	if (a < 0 || b < 0)
		return false;
	return dup2(a, b) >= 0;
}

static bool do_close(struct worker *w)
{
	struct rng *r = &w->r;
	int *slot = &slots[below(r, NSLOTS)], fd;

	if (chance(r, 1, 4)) {
		/*
		 * Close it under the others' feet: the number stays in the
		 * table and may come back as another open of a core.
		 */
		fd = __atomic_load_n(slot, __ATOMIC_RELAXED);
		return fd >= 0 && !close(fd);
	}
	fd = __atomic_exchange_n(slot, -1, __ATOMIC_RELAXED);
	return fd >= 0 && !close(fd);
}

/* The child: raw system calls on what it inherited, then exit. */
static void child(struct rng *r)
{
	uint8_t rec[3][NCSYNC_RECORD_SIZE];
	struct ncsync_queue q = { 0 };
	struct ncsync_submit sub = { 0 };
	struct ncsync_wait wt = { 0 };
	struct ncsync_op o = { 0 };
	unsigned int i;
	int fd;

	for (i = 0; i < 16; i++) {
		fd = slots[below(r, NSLOTS)];
		switch (below(r, 4)) {
		case 0:
			o.bank = NCSYNC_BANK_SEM;
			o.op = NCSYNC_OP_INC;
			o.index = hot(r);
			o.value = 1;
			ioctl(fd, NCSYNC_IOC_OP, &o);
			break;
		case 1:	/* a wait that close() or exit ends */
			wt.bank = NCSYNC_BANK_EVENT;
			wt.mode = NCSYNC_WAIT_EVT_SET;
			wt.index = hot(r);
			deadline_in(&wt.deadline, 2000000);
			ioctl(fd, NCSYNC_IOC_WAIT, &wt);
			break;
		case 2:	/* a program, left running */
			memset(rec, 0, sizeof(rec));
			for (q.count = 0; q.count < 3; q.count++) {
				rec[q.count][0] = NCSYNC_OPC_EVENT_SEMAPHORE;
				rec[q.count][1] = NCSYNC_RECORD_WORDLEN;
				rec[q.count][NCSYNC_REC_EV_WAIT_MODE] =
					NCSYNC_WAIT_EVT_SET;
				rec[q.count][NCSYNC_REC_EV_WAIT_IDX] = hot(r);
			}
			q.records = (uintptr_t)rec;
			q.engine = NCSYNC_ENGINE_SP;
			sub.queues = (uintptr_t)&q;
			sub.nqueues = 1;
			sub.watchdog_ms = 1 + below(r, 200);
			ioctl(fd, NCSYNC_IOC_SUBMIT, &sub);
			break;
		default:
			close(fd);
			break;
		}
	}
	_exit(0);
}

static bool do_fork(struct worker *w)
{
	struct rng *r = &w->r;
	struct rng cr = { rnd(r) | 1 };
	int status;
	pid_t pid;

	pid = fork();
	if (pid < 0)
		return false;
	if (!pid)
		child(&cr);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		ATOMIC_INC(&n_child_bad);
		diag("child %d ended with status 0x%x", pid, status);
		return false;
	}
	return true;
}

static bool do_signal(struct worker *w)
{
	struct rng *r = &w->r;
	struct worker *t = &workers[below(r, nthreads)];

	if (t == w || __atomic_load_n(&t->done, __ATOMIC_ACQUIRE))
		return false;
	return !pthread_kill(t->thread, below(r, 2) ? SIGUSR1 : SIGUSR2);
}

static bool run_op(struct worker *w, enum op_kind k)
{
	switch (k) {
	case OP_OP:
		return do_op(w);
	case OP_BATCH:
		return do_batch(w);
	case OP_WAIT:
		return do_wait(w);
	case OP_RESET:
		return do_reset(w);
	case OP_ACK:
		return do_simple(w, NCSYNC_IOC_ACK);
	case OP_STATS:
		return do_simple(w, NCSYNC_IOC_STATS);
	case OP_INFO:
		return do_simple(w, NCSYNC_IOC_INFO);
	case OP_SUBMIT:
		return do_submit(w);
	case OP_STATUS:
		return do_status(w);
	case OP_PWAIT:
		return do_pwait(w);
	case OP_CANCEL:
		return do_cancel(w);
	case OP_GARBAGE:
		return do_garbage(w);
	case OP_PREAD:
		return do_pread(w);
	case OP_PWRITE:
		return do_pwrite(w);
	case OP_RW:
		return do_rw(w);
	case OP_MMAP:
		return do_mmap(w);
	case OP_MUNMAP:
		return do_munmap(w);
	case OP_MPROTECT:
		return do_mprotect(w);
	case OP_MREMAP:
		return do_mremap(w);
	case OP_MADVISE:
		return do_madvise(w);
	case OP_TOUCH:
		return do_touch(w);
	case OP_POLL:
		return do_poll(w);
	case OP_OPEN:
		return do_open(w);
	case OP_DUP:
		return do_dup(w);
	case OP_DUP2:
		return do_dup2(w);
	case OP_CLOSE:
		return do_close(w);
	case OP_FORK:
		return do_fork(w);
	case OP_SIGNAL:
		return do_signal(w);
	default:
		return false;
	}
}

static unsigned int total_weight;

static void *worker_fn(void *arg)
{
	struct worker *w = arg;

	while (!__atomic_load_n(&stop, __ATOMIC_RELAXED)) {
		uint32_t x = below(&w->r, total_weight);
		enum op_kind k;

		for (k = 0; x >= kinds[k].weight; k++)
			x -= kinds[k].weight;
		__atomic_store_n(&w->cur, kinds[k].name, __ATOMIC_RELAXED);
		w->count[k]++;
		errno = 0;
		if (run_op(w, k))
			w->okays[k]++;
		else if (errno > 0 && errno < 136)
			ATOMIC_INC(&n_errno[errno]);
		w->ops++;
	}
	__atomic_store_n(&w->cur, "done", __ATOMIC_RELAXED);
	__atomic_store_n(&w->done, true, __ATOMIC_RELEASE);
	return NULL;
}

static void on_signal(int sig)
{
}

static const char usage_text[] =
	"ncsync-sysfuzz [-t SECONDS] [-j THREADS] [-s SEED] [-c CORES] [-b BOUND]\n";

static void print_usage(void)
{
	fprintf(stderr, "usage: %s", usage_text);
	exit(2);
}

/* After the run: every core must still run a program to its end. */
static bool core_sane(unsigned int core)
{
	uint8_t rec[2][NCSYNC_RECORD_SIZE] = { { 0 } };
	struct ncsync_queue q = { 0 };
	struct ncsync_submit sub = { 0 };
	struct ncsync_prog_wait pw = { 0 };
	struct ncsync_reset rs = { 0 };
	char path[32];
	bool ok = false;
	int fd;

	snprintf(path, sizeof(path), "/dev/ncsync%u", core);
	fd = open(path, O_RDWR);
	if (fd < 0)
		return false;
	rec[0][0] = NCSYNC_OPC_EVENT_SEMAPHORE;
	rec[0][1] = NCSYNC_RECORD_WORDLEN;
	rec[0][NCSYNC_REC_EV_UPD_MODE] = NCSYNC_UPD_SEM_INC |
					 NCSYNC_UPD_COMPLETE;
	rec[1][0] = NCSYNC_OPC_EXIT;
	rec[1][1] = NCSYNC_RECORD_WORDLEN;
	q.records = (uintptr_t)rec;
	q.count = 2;
	q.engine = NCSYNC_ENGINE_POOL;
	sub.queues = (uintptr_t)&q;
	sub.nqueues = 1;
	sub.watchdog_ms = 5000;
	if (ioctl(fd, NCSYNC_IOC_RESET, &rs) ||
	    ioctl(fd, NCSYNC_IOC_SUBMIT, &sub)) {
		diag("core %u: reset or submit failed: %s", core,
		     strerror(errno));
		goto out;
	}
	pw.id = sub.id;
	deadline_in(&pw.deadline, 10000000000ULL);
	if (ioctl(fd, NCSYNC_IOC_PROG_WAIT, &pw)) {
		diag("core %u: program %u: %s", core, sub.id, strerror(errno));
		goto out;
	}
	ok = pw.state == NCSYNC_PROG_DONE;
	if (!ok)
		diag("core %u: program %u ended in state %u", core, sub.id,
		     pw.state);
	ioctl(fd, NCSYNC_IOC_RESET, &rs);
out:
	close(fd);
	return ok;
}

int main(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = on_signal };
	uint64_t t0, elapsed, ops = 0, sx;
	struct ncsync_reset rs = { 0 };
	unsigned int i, k, stuck = 0;
	int ctl[MAX_CORES], c;
	bool sane = true;
	char path[32];

	seed = now_ns() ^ ((uint64_t)getpid() << 32);
	while ((c = getopt(argc, argv, "t:j:s:c:b:h")) != -1) {
		switch (c) {
		case 't':
			seconds = strtoul(optarg, NULL, 0);
			break;
		case 'j':
			nthreads = strtoul(optarg, NULL, 0);
			break;
		case 's':
			seed = strtoull(optarg, NULL, 0);
			break;
		case 'c':
			ncores = strtoul(optarg, NULL, 0);
			break;
		case 'b':
			bound = strtoul(optarg, NULL, 0);
			break;
		default:
			print_usage();
		}
	}
	if (optind != argc || !nthreads || nthreads > MAX_THREADS ||
	    ncores > MAX_CORES)
		print_usage();
	printf("TAP version 13\n1..1\n");
	printf("# sysfuzz: seed %llu, %u threads, %u s\n",
	       (unsigned long long)seed, nthreads, seconds);
	fflush(stdout);
	/* Whatever happens, the run ends. */
	alarm(seconds + bound + 15);

	if (!ncores) {
		for (ncores = 0; ncores < MAX_CORES; ncores++) {
			snprintf(path, sizeof(path), "/dev/ncsync%u", ncores);
			if (access(path, F_OK))
				break;
		}
	}
	if (!ncores) {
		printf("not ok 1 - sysfuzz: no /dev/ncsync0\n");
		return 1;
	}
	for (i = 0; i < ncores; i++) {
		snprintf(path, sizeof(path), "/dev/ncsync%u", i);
		ctl[i] = open(path, O_RDWR | O_CLOEXEC);
		if (ctl[i] < 0 || ioctl(ctl[i], NCSYNC_IOC_INFO, &info[i]) ||
		    info[i].devmem_size < PAGE) {
			printf("not ok 1 - sysfuzz: %s: %s\n", path,
			       strerror(errno));
			return 1;
		}
	}

	sa.sa_flags = 0;
	sigaction(SIGUSR1, &sa, NULL);	/* interrupts: EINTR */
	sa.sa_flags = SA_RESTART;
	sigaction(SIGUSR2, &sa, NULL);	/* restarts */

	guard = mmap(NULL, 2 * PAGE, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS,
		     -1, 0);
	straddle = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	bigbuf = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (guard == MAP_FAILED || straddle == MAP_FAILED ||
	    bigbuf == MAP_FAILED ||
	    mprotect(straddle + PAGE, PAGE, PROT_NONE) ||
	    mprotect(bigbuf + PAGE, PAGE, PROT_NONE)) {
		printf("not ok 1 - sysfuzz: mmap: %s\n", strerror(errno));
		return 1;
	}
	memset(bigbuf, 0, PAGE);
	for (i = 0; i < PAGE / NCSYNC_RECORD_SIZE; i++) {
		bigbuf[i * NCSYNC_RECORD_SIZE] = NCSYNC_OPC_NOOP;
		bigbuf[i * NCSYNC_RECORD_SIZE + 1] = NCSYNC_RECORD_WORDLEN;
	}

	sx = seed;
	for (i = 0; i < NSLOTS; i++) {
		struct rng r = { splitmix(&sx) | 1 };

		slots[i] = open_core(&r);
	}
	for (k = 0; k < OP_NKINDS; k++)
		total_weight += kinds[k].weight;

	t0 = now_ns();
	for (i = 0; i < nthreads; i++) {
		struct worker *w = &workers[i];

		w->idx = i;
		w->r.s = splitmix(&sx) | 1;
		w->recs = malloc((size_t)RECS_PER_Q * 5 * NCSYNC_RECORD_SIZE);
		if (!w->recs ||
		    pthread_create(&w->thread, NULL, worker_fn, w)) {
			printf("not ok 1 - sysfuzz: cannot start threads\n");
			return 1;
		}
	}

	while (now_ns() - t0 < (uint64_t)seconds * 1000000000ULL)
		usleep(100000);
	__atomic_store_n(&stop, true, __ATOMIC_RELAXED);

	/* Stop: signals interrupt waits, resets cancel them and programs. */
	for (;;) {
		bool all = true;

		for (i = 0; i < nthreads; i++) {
			if (__atomic_load_n(&workers[i].done, __ATOMIC_ACQUIRE))
				continue;
			all = false;
			pthread_kill(workers[i].thread, SIGUSR1);
		}
		if (all)
			break;
		if (now_ns() - t0 > (uint64_t)(seconds + bound) * 1000000000ULL) {
			for (i = 0; i < nthreads; i++)
				if (!__atomic_load_n(&workers[i].done,
						     __ATOMIC_ACQUIRE)) {
					diag("thread %u stuck in %s", i,
					     __atomic_load_n(&workers[i].cur,
							     __ATOMIC_RELAXED));
					stuck++;
				}
			break;
		}
		for (i = 0; i < ncores; i++)
			ioctl(ctl[i], NCSYNC_IOC_RESET, &rs);
		usleep(20000);
	}
	elapsed = now_ns() - t0;
	if (stuck) {
		printf("not ok 1 - sysfuzz: %u threads stuck after %llu s\n",
		       stuck, (unsigned long long)(elapsed / 1000000000ULL));
		fflush(stdout);
		_exit(1);
	}
	for (i = 0; i < nthreads; i++)
		pthread_join(workers[i].thread, NULL);

	for (i = 0; i < NSLOTS; i++)
		if (slots[i] >= 0)
			close(slots[i]);
	for (i = 0; i < NMAPS; i++)
		if (maps[i].addr)
			munmap(maps[i].addr, maps[i].len);
	for (i = 0; i < ncores; i++) {
		close(ctl[i]);
		sane &= core_sane(i);
	}

	for (k = 0; k < OP_NKINDS; k++) {
		uint64_t n = 0, ok = 0;

		for (i = 0; i < nthreads; i++) {
			n += workers[i].count[k];
			ok += workers[i].okays[k];
		}
		ops += n;
		diag("%-16s %10llu calls, %10llu succeeded", kinds[k].name,
		     (unsigned long long)n, (unsigned long long)ok);
	}
	{
		char line[1024];
		size_t len = 0;
		int e;

		for (e = 1; e < 136; e++)
			if (n_errno[e] && len < sizeof(line) - 64)
				len += snprintf(line + len, sizeof(line) - len,
						" %s %llu", strerrorname_np(e),
						(unsigned long long)n_errno[e]);
		diag("errors:%s", len ? line : " none");
	}
	diag("submissions: %llu accepted, %llu refused (EINVAL), %llu other errors; %llu verdicts checked against the validator",
	     (unsigned long long)n_sub_ok, (unsigned long long)n_sub_einval,
	     (unsigned long long)n_sub_other,
	     (unsigned long long)n_sub_checked);
	diag("programs seen ending: %llu done, %llu halted, %llu faulted, %llu timed out, %llu cancelled; %llu records executed by the released ones",
	     (unsigned long long)n_prog_state[NCSYNC_PROG_DONE],
	     (unsigned long long)n_prog_state[NCSYNC_PROG_HALTED],
	     (unsigned long long)n_prog_state[NCSYNC_PROG_FAULTED],
	     (unsigned long long)n_prog_state[NCSYNC_PROG_TIMED_OUT],
	     (unsigned long long)n_prog_state[NCSYNC_PROG_CANCELLED],
	     (unsigned long long)n_executed);
	diag("anomalies %llu, failed children %llu, cores sane: %s",
	     (unsigned long long)n_anomalies, (unsigned long long)n_child_bad,
	     sane ? "yes" : "no");
	if (n_anomalies || n_child_bad || !sane) {
		printf("not ok 1 - sysfuzz %llu ops in %llu s\n",
		       (unsigned long long)ops,
		       (unsigned long long)(elapsed / 1000000000ULL));
		return 1;
	}
	printf("ok 1 - sysfuzz %llu ops in %llu s\n", (unsigned long long)ops,
	       (unsigned long long)(elapsed / 1000000000ULL));
	return 0;
}
