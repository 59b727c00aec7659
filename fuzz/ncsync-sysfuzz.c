// SPDX-License-Identifier: GPL-2.0
/*
 * ncsync-sysfuzz: a system-call fuzzer of /dev/ncsyncN, run in the test VM
 * (tools/vm-run, which fails on any kernel report), as a hostile,
 * multi-user workload.
 *
 *   ncsync-sysfuzz [-t SECONDS] [-w WORKERS] [-j THREADS] [-r READONLY]
 *                  [-u UID] [-s SEED] [-c CORES] [-b BOUND] [-d DEPTH]
 *
 * WORKERS processes (default 4) run side by side, each under a uid of its
 * own (UID, UID + 1, ...; default 60001), with THREADS threads each
 * (default 2).  The devices are root's (mode 0600): run as root, the
 * fuzzer makes private nodes of them (mode 0666, same device numbers) in
 * a fresh directory under /tmp, which the workers open after dropping
 * their privileges, and removes them at the end.  The last READONLY
 * workers (default 1) open every descriptor read-only.
 *
 * The threads of a worker share a table of its descriptors of
 * /dev/ncsync0 .. /dev/ncsync(CORES-1) and, for SECONDS (default 20),
 * each draws random operations on them: every ioctl with valid, mutated
 * and garbage arguments (unknown numbers, wrong sizes and directions,
 * random bytes, NULL, unmapped, half-mapped and kernel-looking pointers),
 * programs of mostly-valid random records with mutations, their status,
 * waits and cancellation, pread and pwrite at random offsets and lengths,
 * programs across the cores of a logical core (with lnc > 1), whose
 * copies land their completions on a peer core, with the peers'
 * descriptors from the table or opened for the submission and closed right
 * after it (NCSYNC_DMA_F_PEER in random DMA records too),
 * mmap, munmap, mprotect, mremap and madvise of the CSR window and the
 * device memory, poll and epoll, open, dup, dup2 and close racing with
 * the other threads' use of the descriptors, forks whose children use the
 * inherited descriptors and exit, core resets and signals that interrupt
 * waits.
 *
 * The parent alternates calm phases and hostile ones.  In a hostile phase
 * each thread also runs "hostile" programs, the kind a user writes while
 * debugging, on descriptors of its own: endless loops around a DMA record,
 * spin loops, waits nothing will satisfy, slow drains, with watchdogs of
 * 1 to 500 ms.  A fair share is left running until the watchdog fires or
 * the descriptor is closed (after up to 15 s, or at the end of the
 * phase); the others are followed to their end or cancelled.  Real resets
 * are then rare (one every RESET_GAP, all workers together; none in a long
 * session), and most random programs are damaged until the validator
 * refuses them, so that the cores' queues drain.  A program that ends in
 * a state its kind cannot reach, that does not end after its cancel, or an
 * engine with more DMA copies in flight than the module's dma_depth (-d
 * sets another bound, 0 none), is an anomaly.
 *
 * The library's validator (common/ncsync_record.c, the module's own source)
 * predicts the verdict of every well-formed submission; a kernel verdict
 * that differs (accepted, or refused naming another record or reason) is
 * an anomaly and fails the run.
 *
 * The parent stays root: it watches the kernel log (/dev/kmsg) and
 * /proc/vmstat for an OOM report and /proc/meminfo for memory running
 * out, and stops the run and fails at once when it sees either.
 *
 * A thread's operations follow from the seed (-s; printed, so a run can be
 * repeated), though their interleaving does not.  At the end the workers
 * are stopped (signals and core resets end any wait), every descriptor is
 * closed, and a small program must still run to completion on each core.
 * The run must end within SECONDS + BOUND (default 30) seconds, or it
 * reports the operation each stuck thread is in and fails; an alarm kills
 * it at SECONDS + BOUND + 15 whatever happens.
 *
 * Prints TAP: "ok 1 - sysfuzz N ops in T s" and exits 0 when no thread
 * got stuck, no process died, the kernel did not run out of memory and
 * no anomaly was seen.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/ncsync.h>

#include "ncsync_record.h"

#define PAGE		4096UL
#define NSLOTS		16	/* a worker's shared descriptor table */
#define NPROGS		128	/* submitted programs, (descriptor, id) */
#define NMAPS		24	/* mappings */
#define MAX_THREADS	64	/* per worker */
#define MAX_WORKERS	16
#define MAX_CORES	4
#define MAX_RECS	(NCSYNC_MAX_RECORDS + 1)
#define RECS_PER_Q	512	/* records of a generated queue, at most */
#define NSEMS_HOT	8	/* semaphores and events most records use */
#define NERRNO		136
#define MSEC		1000000ULL
#define SEC		1000000000ULL

/* Hostile programs: per thread, HFDS descriptors of HPROGS programs. */
#define HFDS		2
#define HPROGS		1
#define HRECS		8		/* records of a hostile queue */
#define RESET_GAP	(5 * SEC)	/* between two real core resets */
#define END_BOUND	(10 * SEC)	/* a cancel or a close ends within */
#define DMA_LOOSE	4096		/* copies in flight: without dma_depth */
#define UNSAT		0x7EAD0000U	/* semaphore values nothing writes */
#define UNSAT_SEM	200		/* 200..239: the semaphores they wait on */

/* The operations, with their weights. */
enum op_kind {
	OP_OP, OP_BATCH, OP_WAIT, OP_RESET, OP_ACK, OP_STATS, OP_INFO,
	OP_SUBMIT, OP_STATUS, OP_PWAIT, OP_CANCEL, OP_GARBAGE,
	OP_PREAD, OP_PWRITE, OP_RW, OP_MMAP, OP_MUNMAP, OP_MPROTECT,
	OP_MREMAP, OP_MADVISE, OP_TOUCH, OP_POLL, OP_EPOLL, OP_OPEN, OP_DUP,
	OP_DUP2, OP_CLOSE, OP_FORK, OP_SIGNAL, OP_HOSTILE, OP_CORES, OP_PEER,
	OP_NKINDS
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
	[OP_EPOLL] = { "epoll", 10 },
	[OP_OPEN] = { "open", 12 },
	[OP_DUP] = { "dup", 4 },
	[OP_DUP2] = { "dup2", 3 },
	[OP_CLOSE] = { "close", 5 },
	[OP_FORK] = { "fork", 1 },
	[OP_SIGNAL] = { "signal", 4 },
	[OP_HOSTILE] = { "hostile_submit", 10 },
	[OP_CORES] = { "submit_cores", 20 },
	[OP_PEER] = { "peer_submit", 10 },
};

/* Hostile programs: what they are, how they end, and what the thread does. */
enum hkind { HK_DMA_LOOP, HK_SPIN, HK_BLOCK, HK_DRAIN, HK_MIXED, HK_N };
enum hfate { HF_LEAVE, HF_FOLLOW, HF_CANCEL };

#define ST(s)	(1U << NCSYNC_PROG_##s)

static const struct {
	const char *name;
	unsigned int ends;	/* the final states it may reach */
} hkinds[HK_N] = {
	[HK_DMA_LOOP] = { "dma-loop", ST(TIMED_OUT) | ST(CANCELLED) | ST(FAULTED) },
	[HK_SPIN] = { "spin", ST(TIMED_OUT) | ST(CANCELLED) },
	[HK_BLOCK] = { "block", ST(TIMED_OUT) | ST(CANCELLED) },
	[HK_DRAIN] = { "slow-drain", ST(DONE) | ST(TIMED_OUT) | ST(CANCELLED) },
	[HK_MIXED] = { "mixed", ST(TIMED_OUT) | ST(CANCELLED) | ST(FAULTED) },
};

struct rng {
	uint64_t s;
};

/* A hostile program on a thread's own descriptor; @id 0: none. */
struct hprog {
	uint32_t id;
	uint8_t kind;
	uint8_t fate;
	uint32_t watchdog_ms;
	uint64_t due;		/* when the thread looks at it next */
};

struct hfd {
	int fd;			/* -1: none */
	unsigned int core;
	uint64_t close_at;
	struct hprog p[HPROGS];
};

struct thread {
	pthread_t thread;
	unsigned int idx;
	struct rng r;
	bool done;			/* atomic */
	uint64_t ops;
	uint64_t count[OP_NKINDS];
	uint64_t okays[OP_NKINDS];
	int epfd;			/* its epoll watcher */
	struct hfd hfd[HFDS];
	uint64_t hdue;			/* the next hostile deadline */
	bool soaked;			/* its DMA loop of this long session */
	uint8_t *recs;			/* RECS_PER_Q * 5 records */
	uint8_t buf[NCSYNC_CSR_SIZE + 64];
};

struct mapping {
	char *addr;
	size_t len;
	int prot;
	bool touch;	/* pages may be touched */
};

/* What a worker process counted; summed over the workers at the end. */
struct counts {
	uint64_t count[OP_NKINDS];
	uint64_t okays[OP_NKINDS];
	uint64_t errs[NERRNO];
	uint64_t cores_ok, cores_refused, cores_peer_closed;
	uint64_t anomalies, child_bad, prog_state[8], sub_ok, sub_einval,
		 sub_other, sub_checked, executed;
	uint64_t h_sub[HK_N];		/* hostile programs submitted */
	uint64_t h_ok, h_limited, h_other, h_ro;
	uint64_t h_end[8];		/* ... seen ending, by state */
	uint64_t h_closed, h_closed_queued, h_cancels, h_gone, h_dma_full;
	uint64_t h_soak;
};

/* What one worker process did, in memory shared with the parent. */
struct wstats {
	struct counts c;
	uint64_t dma_max;		/* copies in flight on one queue */
	uint64_t end_max;		/* ns: the slowest cancel or close */
	const char *cur[MAX_THREADS];	/* the operation each thread is in */
	uint32_t uid;
	bool ro;
	int fault_sig;			/* SIGSEGV or SIGBUS that killed it */
	int fault_thread;		/* ... in this thread (-1: none of them) */
	uintptr_t fault_addr;		/* ... at this address */
};

/* Phases: 0 calm, 1 hostile, 2 a long hostile session. */
struct shared {
	bool stop;			/* set by the parent */
	int hostile;			/* the phase, set by the parent */
	unsigned int phases, long_phases;
	uint64_t last_reset;		/* ns: the last real core reset */
	struct wstats w[MAX_WORKERS];
};

static unsigned int nthreads = 2, nworkers = 4, nro = 1, ncores;
static unsigned int seconds = 20, bound = 30;
static uint32_t first_uid = 60001;
static uint64_t seed;
static struct shared *shm;
static struct wstats *ws;		/* this worker's part of @shm */
static __thread int thread_idx = -1;	/* this thread's, in @threads */
static int me = -1;			/* this worker's index; -1: the parent */
static bool ro;				/* this worker opens read-only */
static char devdir[64] = "/dev";	/* where the workers open the cores */
static bool private_nodes;
static uint32_t dma_bound = DMA_LOOSE;	/* 0: not checked */
static bool dma_depth_known, dma_bound_set;
static struct thread threads[MAX_THREADS];
static bool threads_started;		/* every pthread_t is set (atomic) */
static int slots[NSLOTS];
static uint64_t progs[NPROGS];		/* fd << 32 | id, 0 if none */
static struct mapping maps[NMAPS];
static pthread_rwlock_t maplock = PTHREAD_RWLOCK_INITIALIZER;
static struct ncsync_info info[MAX_CORES];
static char *guard;		/* two PROT_NONE pages */
static char *straddle;		/* a RW page, then a PROT_NONE page */
static char *bigbuf;		/* one RW page then PROT_NONE: huge counts */

#define __printf(a, b)	__attribute__((__format__(__printf__, a, b)))
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define ATOMIC_INC(p)	__atomic_fetch_add((p), 1, __ATOMIC_RELAXED)
#define ATOMIC_ADD(p, v) __atomic_fetch_add((p), (v), __ATOMIC_RELAXED)

/* A line of diagnostics, in one write: the workers share the output. */
static void __printf(1, 2) diag(const char *fmt, ...)
{
	char line[1024];
	va_list ap;
	int n;

	n = me < 0 ? snprintf(line, sizeof(line), "# ") :
		     snprintf(line, sizeof(line), "# w%d: ", me);
	va_start(ap, fmt);
	n += vsnprintf(line + n, sizeof(line) - n - 1, fmt, ap);
	va_end(ap);
	if (n > (int)sizeof(line) - 2)
		n = sizeof(line) - 2;
	line[n++] = '\n';
	if (write(STDOUT_FILENO, line, n) < 0)
		return;
}

#define anomaly(...) do {				\
	if (ATOMIC_INC(&ws->c.anomalies) < 10)		\
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

/* Open a core where this worker may: its private node, or /dev. */
static int open_path(unsigned int core, int flags)
{
	char path[96];

	snprintf(path, sizeof(path), "%s/ncsync%u", devdir, core);
	if (ro)
		flags = (flags & ~O_ACCMODE) | O_RDONLY;
	return open(path, flags);
}

static int open_core(struct rng *r)
{
	int flags = O_RDWR;

	if (chance(r, 1, 6))
		flags = O_RDONLY;
	if (chance(r, 1, 8))
		flags |= O_NONBLOCK;
	if (chance(r, 1, 2))
		flags |= O_CLOEXEC;
	return open_path(below(r, ncores), flags);
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

static void gen_mov(struct rng *r, uint8_t *rec)
{
	uint8_t alu = below(r, NCSYNC_ALU_LAST + 1);

	rec[NCSYNC_REC_MOV_ALU] = alu;
	rec[NCSYNC_REC_MOV_DST] = below(r, NCSYNC_NUM_REGS);
	if (alu != NCSYNC_ALU_MOV_IMM)
		rec[NCSYNC_REC_MOV_SRC] = below(r, NCSYNC_NUM_REGS);
	if (alu != NCSYNC_ALU_MOV && alu != NCSYNC_ALU_ADD &&
	    alu != NCSYNC_ALU_SUB)
		put32(rec + NCSYNC_REC_MOV_IMM,
		      chance(r, 1, 2) ? below(r, 16) : rnd(r));
}

static void gen_branch(struct rng *r, uint8_t *rec, uint32_t idx,
		       uint32_t count)
{
	uint32_t target;

	/* Forward, but now and then back: a loop, until the watchdog (a
	 * loop that changes nothing makes no progress).
	 */
	if (idx + 1 < count && chance(r, 15, 16))
		target = idx + 1 + below(r, count - idx - 1);
	else
		target = below(r, count);
	put64(rec + NCSYNC_REC_BR_TARGET, target);
	if (chance(r, 1, 3))
		return;		/* always */
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
}

static void gen_group_reset(struct rng *r, uint8_t *rec)
{
	unsigned int i;

	if (chance(r, 1, 2)) {
		uint8_t a = below(r, 256), b = below(r, 256);

		rec[NCSYNC_REC_GR_CLEAR_MODE] = NCSYNC_CLEAR_RANGE;
		rec[NCSYNC_REC_GR_FIRST] = a < b ? a : b;
		rec[NCSYNC_REC_GR_LAST] = a < b ? b : a;
		return;
	}
	rec[NCSYNC_REC_GR_CLEAR_MODE] = NCSYNC_CLEAR_MASK;
	for (i = 0; i < 32; i++)
		rec[NCSYNC_REC_GR_MASK + i] = chance(r, 1, 4) ? rnd(r) >> 56 : 0;
}

static void gen_poll(struct rng *r, uint8_t *rec)
{
	rec[NCSYNC_REC_POLL_OP] = below(r, 2);
	rec[NCSYNC_REC_POLL_DST] = below(r, NCSYNC_NUM_REGS);
	rec[NCSYNC_REC_POLL_COUNT] = 1 + below(r, NCSYNC_POLL_MAX_COUNT);
	rec[NCSYNC_REC_POLL_FIRST] =
		below(r, NCSYNC_NUM_SEMS - rec[NCSYNC_REC_POLL_COUNT] + 1);
}

/* A copy of up to @max bytes inside the device memory. */
static void gen_dma(struct rng *r, uint8_t *rec, uint64_t devmem,
		    uint32_t max, uint32_t latency_us)
{
	uint32_t len = 1 + below(r, devmem < max ? (uint32_t)devmem : max);

	put64(rec + NCSYNC_REC_DMA_SRC, below(r, devmem - len + 1));
	put64(rec + NCSYNC_REC_DMA_DST, below(r, devmem - len + 1));
	put32(rec + NCSYNC_REC_DMA_LEN, len);
	put32(rec + NCSYNC_REC_DMA_LATENCY_US, latency_us);
}

/* The cores of a logical core (module parameter lnc), 1 if unknown. */
static unsigned int lnc_of(unsigned int core)
{
	return info[core].lnc ? info[core].lnc : 1;
}

/*
 * The completion of a DMA record lands on the core at a position of the
 * issuer's logical core (NCSYNC_DMA_F_PEER): now and then one past its
 * last core, which the kernel refuses.
 */
static void gen_peer(struct rng *r, uint8_t *rec, unsigned int lnc)
{
	rec[NCSYNC_REC_DMA_FLAGS] = NCSYNC_DMA_F_PEER;
	rec[NCSYNC_REC_DMA_PEER] = below(r, chance(r, 1, 16) ? lnc + 1 : lnc);
}

static void rec_init(uint8_t *rec, uint8_t op)
{
	memset(rec, 0, NCSYNC_RECORD_SIZE);
	rec[0] = op;
	rec[1] = NCSYNC_RECORD_WORDLEN;
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
		NCSYNC_OPC_EXIT, NCSYNC_OPC_HALT, NCSYNC_OPC_BR_HINT,
	};
	uint8_t op = ops[below(r, sizeof(ops))];

	if (chance(r, 1, 100))
		op = chance(r, 1, 2) ? NCSYNC_OPC_ALL_ENGINE_BARRIER :
				       (uint8_t)rnd(r);
	/* Exit and halt end a queue: mostly only as its last record. */
	if ((op == NCSYNC_OPC_EXIT || op == NCSYNC_OPC_HALT) &&
	    idx + 1 < count && chance(r, 3, 4))
		op = NCSYNC_OPC_NOOP;
	rec_init(rec, op);
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
	case NCSYNC_OPC_MOV32:
		gen_mov(r, rec);
		break;
	case NCSYNC_OPC_BRANCH:
		gen_branch(r, rec, idx, count);
		break;
	case NCSYNC_OPC_BR_HINT:
		/* Any record of the queue, relative to this one. */
		put32(rec + NCSYNC_REC_HINT_OFFSET, below(r, count) - idx);
		break;
	case NCSYNC_OPC_GROUP_RESET:
		gen_group_reset(r, rec);
		break;
	case NCSYNC_OPC_POLL_SEM:
		gen_poll(r, rec);
		break;
	case NCSYNC_OPC_DMA:
		gen_dma(r, rec, devmem, 8192,
			chance(r, 1, 2) ? 0 : below(r, 2000));
		if (chance(r, 1, 4))
			gen_peer(r, rec, lnc_of(0));
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
			if (!rs)
				rs = ncsync_record_check_at(&in, j,
							    q[i].count);
			if (!rs)	/* every core has the same lnc */
				rs = ncsync_record_check_lnc(&in, lnc_of(0));
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
	ATOMIC_INC(&ws->c.prog_state[state < 7 ? state : 7]);
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
		__atomic_fetch_add(&ws->c.executed, ps.engines[i].executed,
				   __ATOMIC_RELAXED);
}

/* Operations; each returns true when the call succeeded. */

static bool do_op(struct thread *w)
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

static bool do_batch(struct thread *w)
{
	struct rng *r = &w->r;
	struct ncsync_batch b = { 0 };
	struct ncsync_op *ops;
	uint32_t i, n = 1 + below(r, 32);
	bool ok;

	if (chance(r, 1, 32))
		n = chance(r, 1, 2) ? NCSYNC_MAX_BATCH : NCSYNC_MAX_BATCH + 1;
	/*
	 * One spare entry of random bytes: a count one past the array reads
	 * it, and a batch the module accepts writes its results back there
	 * (not into the next heap block).
	 */
	ops = calloc(n + 1, sizeof(*ops));
	if (!ops)
		return false;
	fill(r, &ops[n], sizeof(*ops));
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

static bool do_wait(struct thread *w)
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

/*
 * Whether a real core reset may go now: a reset cancels every user's
 * programs, so in a hostile phase all the workers together make at most
 * one every RESET_GAP.
 */
static bool reset_allowed(void)
{
	uint64_t now = now_ns();
	uint64_t last = __atomic_load_n(&shm->last_reset, __ATOMIC_RELAXED);

	switch (__atomic_load_n(&shm->hostile, __ATOMIC_RELAXED)) {
	case 0:
		return true;
	case 2:		/* what the programs hold piles up */
		return false;
	}
	if (now - last < RESET_GAP)
		return false;
	return __atomic_compare_exchange_n(&shm->last_reset, &last, now, false,
					   __ATOMIC_RELAXED, __ATOMIC_RELAXED);
}

static bool do_reset(struct thread *w)
{
	struct rng *r = &w->r;
	struct ncsync_reset rs = { 0 };

	if (chance(r, 1, 8))
		rs.flags = rnd(r);
	if (chance(r, 1, 8))
		rs.pad = rnd(r);
	/* Too soon after the last: a reset the module refuses. */
	if (!ro && !rs.flags && !rs.pad && !reset_allowed())
		rs.flags = 1U << below(r, 32);
	return !ioctl(pick_fd(r), NCSYNC_IOC_RESET, rand_ptr(r, &rs, sizeof(rs)));
}

static bool do_simple(struct thread *w, unsigned long cmd)
{
	struct rng *r = &w->r;

	return !ioctl(pick_fd(r), cmd, rand_ptr(r, w->buf, 128));
}

/* The datapath engines in a random order. */
static void shuffle_engines(struct rng *r, uint8_t *out)
{
	static const uint8_t engines[] = { 1, 2, 3, 5, 6 };
	uint32_t i, j;

	memcpy(out, engines, sizeof(engines));
	for (i = 4; i > 0; i--) {
		uint8_t t = out[i];

		j = below(r, i + 1);
		out[i] = out[j];
		out[j] = t;
	}
}

/* Up to @nq queues of random records in w->recs; returns how many. */
static uint32_t gen_queues(struct thread *w, struct ncsync_queue *q,
			   uint32_t nq, uint64_t devmem, uint32_t *total)
{
	struct rng *r = &w->r;
	uint8_t order[5];
	uint32_t i, j;

	shuffle_engines(r, order);
	*total = 0;
	for (i = 0; i < nq; i++) {
		uint32_t n = 1 + below(r, chance(r, 1, 8) ? RECS_PER_Q : 16);
		uint8_t *recs = w->recs + (size_t)*total * NCSYNC_RECORD_SIZE;

		if (*total + n > RECS_PER_Q * 5)
			n = RECS_PER_Q * 5 - *total;
		if (!n)
			return i;
		for (j = 0; j < n; j++)
			gen_record(r, recs + (size_t)j * NCSYNC_RECORD_SIZE, j,
				   n, devmem);
		q[i].records = (uintptr_t)recs;
		q[i].count = n;
		q[i].engine = order[i];
		*total += n;
	}
	return nq;
}

/* A malformed description: the prediction does not hold. */
static void malform(struct rng *r, struct ncsync_submit *sub,
		    struct ncsync_queue *q, uint32_t nq)
{
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
		q[below(r, nq)].records = (uintptr_t)rand_ptr(r, NULL, PAGE);
		break;
	case 5:
		if (nq > 1)
			q[1].engine = q[0].engine;
		else
			sub->nqueues = 0;
		break;
	case 6:
		sub->nqueues = NCSYNC_NUM_ENGINES + 1;
		q[5].engine = 6;
		q[5].count = 1;
		q[5].records = q[0].records;
		break;
	case 7:
		sub->flags = rnd(r);
		break;
	case 8:
		sub->watchdog_ms = chance(r, 1, 2) ? UINT32_MAX :
				   3600 * 1000 + 1;
		break;
	case 9:
		sub->reserved = 1 + below(r, 100);
		break;
	case 10:
		sub->queues = (uintptr_t)rand_ptr(r, NULL,
						  sizeof(*q) *
						  (NCSYNC_NUM_ENGINES + 1));
		break;
	default:
		fill(r, sub, sizeof(*sub));
		break;
	}
}

/* The kernel's verdict on a well-formed submission against the validator's. */
static void check_verdict(bool ok, bool predicted,
			  const struct ncsync_submit *sub,
			  const struct ncsync_submit *want)
{
	ATOMIC_INC(&ws->c.sub_checked);
	if (ok && !predicted)
		anomaly("submit accepted; validator refuses engine %u record %u: %s",
			want->bad_engine, want->bad_index,
			ncsync_rec_reason_name(want->reason));
	if (!ok && predicted)
		anomaly("submit refused engine %u record %u (%s); validator accepts",
			sub->bad_engine, sub->bad_index,
			ncsync_rec_reason_name(sub->reason));
	if (!ok && !predicted &&
	    (sub->bad_engine != want->bad_engine ||
	     sub->bad_index != want->bad_index || sub->reason != want->reason))
		anomaly("submit refused engine %u record %u (%s); validator: engine %u record %u (%s)",
			sub->bad_engine, sub->bad_index,
			ncsync_rec_reason_name(sub->reason), want->bad_engine,
			want->bad_index, ncsync_rec_reason_name(want->reason));
}

static bool do_submit(struct thread *w)
{
	struct rng *r = &w->r;
	struct ncsync_queue q[NCSYNC_NUM_ENGINES + 1];
	struct ncsync_submit sub = { 0 }, want = { 0 };
	uint32_t nq = 1 + below(r, 5), total, i;
	bool well_formed = true, predicted, ok;
	int fd = pick_fd(r), ret, err;
	unsigned int core = fd >= 0 ? fd_core(fd) : 0;
	uint64_t devmem = info[core].devmem_size;

	memset(q, 0, sizeof(q));
	nq = gen_queues(w, q, nq, devmem, &total);
	if (!nq)
		return false;
	if (chance(r, 1, 4))
		mutate(r, w->recs, total);
	/*
	 * In a hostile phase, 7 in 8 are damaged until the validator refuses
	 * them, so that the cores' queues drain and the hostile programs get
	 * to run; the verdicts are checked all the same.
	 */
	if (__atomic_load_n(&shm->hostile, __ATOMIC_RELAXED) &&
	    chance(r, 7, 8))
		for (i = 0; i < 8 && predict(q, nq, devmem, &want); i++)
			mutate(r, w->recs, total);
	sub.queues = (uintptr_t)q;
	sub.nqueues = nq;
	sub.flags = chance(r, 1, 4) ? NCSYNC_SUBMIT_F_STRICT : 0;
	sub.watchdog_ms = chance(r, 1, 512) ? 0 : 1 + below(r, 50);
	if (chance(r, 1, 16)) {
		well_formed = false;
		malform(r, &sub, q, nq);
	}
	predicted = well_formed && predict(q, nq, devmem, &want);
	ret = ioctl(fd, NCSYNC_IOC_SUBMIT,
		    well_formed ? (void *)&sub : rand_ptr(r, &sub, sizeof(sub)));
	err = ret ? errno : 0;
	ok = !ret;
	if (ok) {
		ATOMIC_INC(&ws->c.sub_ok);
		prog_remember(r, fd, sub.id);
		if (chance(r, 1, 8))
			follow(fd, sub.id, MSEC * (5 + below(r, 50)));
	} else {
		ATOMIC_INC(err == EINVAL ? &ws->c.sub_einval : &ws->c.sub_other);
	}
	/*
	 * The descriptor may have been closed or replaced meanwhile (by a
	 * descriptor of another core: another device memory size), so only
	 * verdicts on a descriptor that answered as expected count.
	 */
	if (well_formed && (!ret || err == EINVAL) && fd_core(fd) == core)
		check_verdict(ok, predicted, &sub, &want);
	return ok;
}

static bool do_status(struct thread *w)
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
		ps.core = rnd(r);
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
			__atomic_fetch_add(&ws->c.executed, ps.engines[i].executed,
					   __ATOMIC_RELAXED);
	}
	if (ok && (ps.state > NCSYNC_PROG_CANCELLED ||
		   ps.nengines > NCSYNC_NUM_ENGINES ||
		   ps.nsems > NCSYNC_NUM_SEMS))
		anomaly("prog_status: state %u, %u engines, %u sems", ps.state,
			ps.nengines, ps.nsems);
	return ok;
}

static bool do_pwait(struct thread *w)
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

static bool do_cancel(struct thread *w)
{
	struct rng *r = &w->r;
	struct ncsync_prog_cancel pc = { 0 };
	int fd;

	prog_pick(r, &fd, &pc.id);
	if (chance(r, 1, 16))
		pc.flags = rnd(r);
	return !ioctl(fd, NCSYNC_IOC_PROG_CANCEL, rand_ptr(r, &pc, sizeof(pc)));
}

static bool do_garbage(struct thread *w)
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

static bool do_pread(struct thread *w)
{
	struct rng *r = &w->r;
	size_t len = rand_len(r);

	if (len > NCSYNC_CSR_SIZE && chance(r, 7, 8))
		len = NCSYNC_CSR_SIZE;
	return pread(pick_fd(r), rand_ptr(r, w->buf, len),
		     len > sizeof(w->buf) ? sizeof(w->buf) : len,
		     rand_off(r)) >= 0;
}

static bool do_pwrite(struct thread *w)
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

static bool do_rw(struct thread *w)
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
static bool do_mmap(struct thread *w)
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
	if (ro && flags == MAP_SHARED && (prot & PROT_WRITE))
		anomaly("a shared writable mapping of a read-only descriptor");
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

static bool do_munmap(struct thread *w)
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

static bool do_mprotect(struct thread *w)
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

static bool do_mremap(struct thread *w)
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

static bool do_madvise(struct thread *w)
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
	/* A zapped page faults back in: the mapping stays touchable. */
	if (m->addr)
		ok = !madvise(m->addr, m->len, a);
	pthread_rwlock_unlock(&maplock);
	return ok;
}

static bool do_touch(struct thread *w)
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

static bool do_poll(struct thread *w)
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

static bool do_open(struct thread *w)
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

static bool do_dup(struct thread *w)
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

static bool do_dup2(struct thread *w)
{
	struct rng *r = &w->r;
	int a = __atomic_load_n(&slots[below(r, NSLOTS)], __ATOMIC_RELAXED);
	int b = __atomic_load_n(&slots[below(r, NSLOTS)], __ATOMIC_RELAXED);

	if (a < 0 || b < 0)
		return false;
	return dup2(a, b) >= 0;
}

static bool do_close(struct thread *w)
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

static bool do_fork(struct thread *w)
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
		ATOMIC_INC(&ws->c.child_bad);
		diag("child %d ended with status 0x%x", pid, status);
		return false;
	}
	return true;
}

static bool do_signal(struct thread *w)
{
	struct rng *r = &w->r;
	struct thread *t = &threads[below(r, nthreads)];

	/* Not before every thread's pthread_t is known. */
	if (t == w || !__atomic_load_n(&threads_started, __ATOMIC_ACQUIRE) ||
	    __atomic_load_n(&t->done, __ATOMIC_ACQUIRE))
		return false;
	return !pthread_kill(t->thread, below(r, 2) ? SIGUSR1 : SIGUSR2);
}

/* Hostile programs: the loops and waits of a user debugging a program */

#define REC(recs, i)	((recs) + (size_t)(i) * NCSYNC_RECORD_SIZE)
/*
 * The numbers of the hostile descriptors: out of the table's reach, so no
 * other thread closes or replaces them.
 */
#define HFD_BASE	600

static const char *const state_names[8] = {
	"queued", "running", "done", "halted", "faulted", "timed out",
	"cancelled", "?",
};

/* A watchdog of 1 to 500 ms, mostly tens of ms. */
static uint32_t gen_watchdog(struct rng *r)
{
	switch (below(r, 4)) {
	case 0:
		return 1 + below(r, 10);
	case 1:
		return 100 + below(r, 401);
	default:
		return 10 + below(r, 90);
	}
}

/*
 * The latency of a looping DMA: 3 times in 8 none or short, so that
 * copies land and the loop makes progress for as long as it is left (a
 * cancel, a close or a reset ends it); else longer than the watchdog,
 * which fires before the first copy lands.
 */
static uint32_t gen_latency(struct rng *r, uint32_t watchdog_ms)
{
	uint32_t us;

	switch (below(r, 8)) {
	case 0:
	case 1:
		return 0;
	case 2:
		return below(r, 2000);
	default:
		us = (watchdog_ms + 20 + below(r, 500)) * 1000;
		return us < NCSYNC_DMA_MAX_LATENCY_US ? us :
		       NCSYNC_DMA_MAX_LATENCY_US;
	}
}

static void rec_branch(uint8_t *rec, uint32_t target)
{
	rec_init(rec, NCSYNC_OPC_BRANCH);
	put64(rec + NCSYNC_REC_BR_TARGET, target);	/* always */
}

/* A DMA record, then Branch always back: copies as fast as it runs. */
static uint32_t gen_dma_loop(struct rng *r, uint8_t *recs, uint64_t devmem,
			     uint32_t watchdog_ms, bool soak)
{
	uint32_t n = 0, dma;
	uint8_t *rec;

	if (soak) {
		/* Big copies, landing at once: it never times out, and the
		 * DMA engine falls behind the issuing engines.
		 */
		rec_init(REC(recs, 0), NCSYNC_OPC_DMA);
		gen_dma(r, REC(recs, 0), devmem, 65536, 0);
		rec_branch(REC(recs, 1), 0);
		return 2;
	}
	if (chance(r, 1, 4))
		rec_init(REC(recs, n++), NCSYNC_OPC_NOOP);
	dma = n;
	rec = REC(recs, n++);
	rec_init(rec, NCSYNC_OPC_DMA);
	if (chance(r, 1, 2)) {
		rec[NCSYNC_REC_EV_UPD_MODE] = gen_upd(r, false, true);
		rec[NCSYNC_REC_EV_UPD_IDX] = hot(r);
	}
	gen_dma(r, rec, devmem, chance(r, 1, 8) ? 65536 : 4096,
		gen_latency(r, watchdog_ms));
	if (chance(r, 1, 8)) {
		/* One copy at a time: a loop bounded by itself. */
		rec_init(REC(recs, n), NCSYNC_OPC_DRAIN);
		REC(recs, n++)[NCSYNC_REC_DRAIN_COUNT] = 1;
	}
	rec_branch(REC(recs, n++), chance(r, 1, 2) ? 0 : dma);
	return n;
}

/* A loop that changes nothing: no progress, the watchdog ends it. */
static uint32_t gen_spin(struct rng *r, uint8_t *recs)
{
	uint8_t *rec = REC(recs, 0);

	switch (below(r, 4)) {
	case 0:		/* Branch always to itself */
		rec_branch(rec, 0);
		return 1;
	case 1:		/* counting in a register */
		rec_init(rec, NCSYNC_OPC_MOV32);
		rec[NCSYNC_REC_MOV_ALU] = NCSYNC_ALU_ADD_IMM;
		rec[NCSYNC_REC_MOV_DST] = below(r, NCSYNC_NUM_REGS);
		rec[NCSYNC_REC_MOV_SRC] = rec[NCSYNC_REC_MOV_DST];
		put32(rec + NCSYNC_REC_MOV_IMM, 1);
		break;
	case 2:		/* reading semaphores */
		rec_init(rec, NCSYNC_OPC_POLL_SEM);
		gen_poll(r, rec);
		break;
	default:
		rec_init(rec, NCSYNC_OPC_NOOP);
		break;
	}
	rec_branch(REC(recs, 1), 0);
	return 2;
}

/*
 * A wait nothing satisfies (no semaphore is below INT32_MIN or above
 * INT32_MAX), in either lane, then an Exit never reached.
 */
static uint32_t gen_block(struct rng *r, uint8_t *recs)
{
	uint32_t n = 0;
	uint8_t *rec;

	if (chance(r, 1, 2))
		rec_init(REC(recs, n++), NCSYNC_OPC_NOOP);
	rec = REC(recs, n++);
	rec_init(rec, NCSYNC_OPC_EVENT_SEMAPHORE);
	if (chance(r, 1, 2)) {
		rec[NCSYNC_REC_EV_WAIT_MODE] = NCSYNC_WAIT_SEM_LT;
		rec[NCSYNC_REC_EV_WAIT_IDX] = UNSAT_SEM + below(r, 40);
		put32(rec + NCSYNC_REC_EV_VALUE, (uint32_t)INT32_MIN);
	} else {
		rec[NCSYNC_REC_EX_WAIT_MODE] = NCSYNC_WAIT_SEM_GT;
		rec[NCSYNC_REC_EX_WAIT_IDX] = UNSAT_SEM + below(r, 40);
		put32(rec + NCSYNC_REC_EX_WAIT_VALUE, INT32_MAX);
	}
	rec_init(REC(recs, n++), NCSYNC_OPC_EXIT);
	return n;
}

/*
 * A slow copy and a Drain that waits for it: half the time it lands
 * within the watchdog (the program is done), else after (it times out).
 */
static uint32_t gen_drain(struct rng *r, uint8_t *recs, uint64_t devmem,
			  uint32_t watchdog_ms)
{
	uint32_t us = watchdog_ms * (200 + below(r, 601));	/* 20..80 % */

	if (chance(r, 1, 2))
		us = (watchdog_ms + 20 + below(r, 500)) * 1000;
	if (us > NCSYNC_DMA_MAX_LATENCY_US)
		us = NCSYNC_DMA_MAX_LATENCY_US;
	rec_init(REC(recs, 0), NCSYNC_OPC_DMA);
	gen_dma(r, REC(recs, 0), devmem, 4096, us);
	rec_init(REC(recs, 1), NCSYNC_OPC_DRAIN);
	REC(recs, 1)[NCSYNC_REC_DRAIN_COUNT] = 1;
	rec_init(REC(recs, 2), NCSYNC_OPC_EXIT);
	return 3;
}

/* The queues of a hostile program of kind @k, in w->recs; their number. */
static uint32_t gen_hostile(struct thread *w, enum hkind k,
			    struct ncsync_queue *q, uint64_t devmem,
			    uint32_t watchdog_ms, bool soak)
{
	struct rng *r = &w->r;
	uint8_t order[5];
	uint32_t i, nq;

	shuffle_engines(r, order);
	if (soak)
		nq = NCSYNC_NUM_ENGINES;
	else if (k == HK_DMA_LOOP || k == HK_MIXED)	/* a quarter: all */
		nq = chance(r, 1, 4) ? NCSYNC_NUM_ENGINES :
				       1 + below(r, NCSYNC_NUM_ENGINES);
	else
		nq = 1 + below(r, 3);
	if (k == HK_MIXED && nq < 2)
		nq = 2;
	for (i = 0; i < nq; i++) {
		uint8_t *recs = REC(w->recs, i * HRECS);
		enum hkind qk = k;

		if (k == HK_MIXED)	/* a DMA loop beside spins and blocks */
			qk = !i ? HK_DMA_LOOP : chance(r, 1, 2) ? HK_SPIN :
								  HK_BLOCK;
		q[i].records = (uintptr_t)recs;
		q[i].engine = order[i];
		if (qk == HK_DMA_LOOP)
			q[i].count = gen_dma_loop(r, recs, devmem,
						  watchdog_ms, soak);
		else if (qk == HK_SPIN)
			q[i].count = gen_spin(r, recs);
		else if (qk == HK_BLOCK)
			q[i].count = gen_block(r, recs);
		else
			q[i].count = gen_drain(r, recs, devmem, watchdog_ms);
	}
	return nq;
}

/* How long a hostile descriptor stays open: mostly seconds, up to 15 s. */
static uint64_t gen_lifetime(struct rng *r)
{
	switch (below(r, 8)) {
	case 0:
		return 6 * SEC + below(r, 9000) * MSEC;
	case 1:
	case 2:
		return 3 * SEC + below(r, 3000) * MSEC;
	default:
		return 500 * MSEC + below(r, 2500) * MSEC;
	}
}

static void note_max(uint64_t *max, uint64_t v)
{
	uint64_t cur = __atomic_load_n(max, __ATOMIC_RELAXED);

	while (v > cur && !__atomic_compare_exchange_n(max, &cur, v, true,
						       __ATOMIC_RELAXED,
						       __ATOMIC_RELAXED))
		;
}

static void hdue_at(struct thread *w, uint64_t t)
{
	if (t < w->hdue)
		w->hdue = t;
}

/* A descriptor of the thread's own, at a number no other thread uses. */
static bool hfd_open(struct thread *w, unsigned int i)
{
	struct rng *r = &w->r;
	struct epoll_event ev = { .events = EPOLLPRI };
	struct hfd *h = &w->hfd[i];
	unsigned int core = below(r, ncores);
	int fd = open_path(core, O_RDWR | O_CLOEXEC), num, old, err;

	if (fd < 0)
		return false;
	num = dup3(fd, HFD_BASE + w->idx * HFDS + i, O_CLOEXEC);
	err = errno;
	close(fd);
	/* EBADF: another thread closed a stale number of the table first. */
	if (num < 0) {
		if (err != EBADF && ATOMIC_INC(&ws->c.h_other) < 3)
			diag("hostile descriptor: dup3: %s", strerror(err));
		return false;
	}
	memset(h, 0, sizeof(*h));
	h->fd = num;
	h->core = core;
	h->close_at = now_ns() + gen_lifetime(r);
	hdue_at(w, h->close_at);
	/* Watched by the thread's epoll: EPOLLPRI when a program ends. */
	ev.data.fd = num;
	if (w->epfd >= 0 && chance(r, 1, 2))
		epoll_ctl(w->epfd, EPOLL_CTL_ADD, num, &ev);
	/* Now and then the other threads get it too (a dup: ours stays). */
	if (chance(r, 1, 4)) {
		fd = dup(num);
		if (fd >= 0) {
			old = __atomic_exchange_n(free_slot(r), fd,
						  __ATOMIC_RELAXED);
			if (old >= 0)
				close(old);
		}
	}
	return true;
}

/* Close a hostile descriptor: its programs end, the close waits for it. */
static void hfd_close(struct thread *w, struct hfd *h)
{
	uint64_t t0 = now_ns(), dt;
	unsigned int j, n = 0;

	for (j = 0; j < HPROGS; j++) {
		struct ncsync_prog_status ps = { .id = h->p[j].id };

		if (!ps.id || ioctl(h->fd, NCSYNC_IOC_PROG_STATUS, &ps))
			continue;
		n++;
		if (ps.state == NCSYNC_PROG_QUEUED)
			ATOMIC_INC(&ws->c.h_closed_queued);
	}
	close(h->fd);
	dt = now_ns() - t0;
	note_max(&ws->end_max, dt);
	if (dt > END_BOUND)
		anomaly("closing a descriptor with %u programs took %llu ms",
			n, (unsigned long long)(dt / MSEC));
	ATOMIC_ADD(&ws->c.h_closed, n);
	h->fd = -1;
	memset(h->p, 0, sizeof(h->p));
}

static void hostile_close_all(struct thread *w)
{
	unsigned int i;

	for (i = 0; i < HFDS; i++)
		if (w->hfd[i].fd >= 0)
			hfd_close(w, &w->hfd[i]);
}

/* A free program slot, on a new descriptor if need be; false if none. */
static bool hostile_slot(struct thread *w, struct hfd **hp, struct hprog **pp)
{
	unsigned int i, j;

	for (i = 0; i < HFDS; i++) {
		if (w->hfd[i].fd < 0)
			continue;
		for (j = 0; j < HPROGS; j++) {
			if (!w->hfd[i].p[j].id) {
				*hp = &w->hfd[i];
				*pp = &w->hfd[i].p[j];
				return true;
			}
		}
	}
	for (i = 0; i < HFDS; i++) {
		if (w->hfd[i].fd >= 0)
			continue;
		if (!hfd_open(w, i))
			return false;
		*hp = &w->hfd[i];
		*pp = &w->hfd[i].p[0];
		return true;
	}
	return false;
}

/* Left alone (45 %), followed to its end (25 %) or cancelled (30 %). */
static void hprog_plan(struct rng *r, struct hprog *p)
{
	uint64_t now = now_ns(), wd = p->watchdog_ms * MSEC;
	unsigned int x = below(r, 20);

	if (x < 9) {
		p->fate = HF_LEAVE;
		p->due = now + wd + 300 * MSEC;
	} else if (x < 14) {
		p->fate = HF_FOLLOW;
		p->due = now;
	} else {
		/* Before or after its watchdog would fire. */
		p->fate = HF_CANCEL;
		p->due = now + below(r, 2 * p->watchdog_ms + 100) * MSEC;
	}
}

static const char *dma_bound_name(void)
{
	if (dma_bound_set)
		return dma_bound ? "-d" : "not checked";
	return dma_depth_known ? "dma_depth" :
				 "no dma_depth parameter: a loose bound";
}

/* The engines of a program: never more copies in flight than dma_depth. */
static void hprog_engines(const struct hprog *p,
			  const struct ncsync_prog_status *ps)
{
	unsigned int i;

	for (i = 0; i < ps->nengines && i < NCSYNC_NUM_ENGINES; i++) {
		const struct ncsync_engine_status *e = &ps->engines[i];

		note_max(&ws->dma_max, e->dma_outstanding);
		if (e->state == NCSYNC_ENG_BLOCKED &&
		    e->wait_kind == NCSYNC_BLOCK_DMA_FULL)
			ATOMIC_INC(&ws->c.h_dma_full);
		if (dma_bound && e->dma_outstanding > dma_bound)
			anomaly("%s program %u, engine %u: %u DMA copies in flight, past %u (%s)",
				hkinds[p->kind].name, p->id, e->engine,
				e->dma_outstanding, dma_bound,
				dma_bound_name());
	}
}

/* It ended: the state must be one its kind can reach; release it. */
static void hprog_ended(struct hfd *h, struct hprog *p, uint32_t state)
{
	struct ncsync_prog_status ps = { .id = p->id };

	ps.flags = NCSYNC_STATUS_F_RELEASE;
	ioctl(h->fd, NCSYNC_IOC_PROG_STATUS, &ps);
	ATOMIC_INC(&ws->c.h_end[state & 7]);
	if (state > 7 || !(hkinds[p->kind].ends & (1U << state)))
		anomaly("%s program %u (watchdog %u ms) ended %s",
			hkinds[p->kind].name, p->id, p->watchdog_ms,
			state_names[state & 7]);
	p->id = 0;
}

/*
 * Look at a program: account for it if it ended, check its engines and
 * look again later if not.  Gone (released by another thread, which may
 * have it from the table of programs): forget it.
 */
static void hprog_look(struct hfd *h, struct hprog *p)
{
	struct ncsync_prog_status ps = { .id = p->id };

	if (ioctl(h->fd, NCSYNC_IOC_PROG_STATUS, &ps)) {
		ATOMIC_INC(&ws->c.h_gone);
		p->id = 0;
		return;
	}
	hprog_engines(p, &ps);
	if (ps.state >= NCSYNC_PROG_DONE) {
		hprog_ended(h, p, ps.state);
		return;
	}
	p->fate = HF_LEAVE;
	p->due = now_ns() + (250 + (p->id * 7919) % 750) * MSEC;
}

/* Cancel it: it must end within END_BOUND. */
static void hprog_cancel(struct hfd *h, struct hprog *p)
{
	struct ncsync_prog_cancel pc = { .id = p->id };
	struct ncsync_prog_wait pw = { .id = p->id };
	uint64_t t0 = now_ns();
	int ret;

	ATOMIC_INC(&ws->c.h_cancels);
	if (ioctl(h->fd, NCSYNC_IOC_PROG_CANCEL, &pc)) {
		ATOMIC_INC(&ws->c.h_gone);
		p->id = 0;
		return;
	}
	do {
		deadline_in(&pw.deadline, t0 + END_BOUND - now_ns());
		ret = ioctl(h->fd, NCSYNC_IOC_PROG_WAIT, &pw);
	} while (ret && errno == EINTR && now_ns() - t0 < END_BOUND &&
		 !__atomic_load_n(&shm->stop, __ATOMIC_RELAXED));
	note_max(&ws->end_max, now_ns() - t0);
	if (!ret) {
		hprog_look(h, p);
		return;
	}
	if (errno == ETIMEDOUT)
		anomaly("%s program %u still runs %llu s after its cancel",
			hkinds[p->kind].name, p->id,
			(unsigned long long)(END_BOUND / SEC));
	if (errno == ENOENT) {
		ATOMIC_INC(&ws->c.h_gone);
		p->id = 0;
		return;
	}
	p->fate = HF_LEAVE;
	p->due = now_ns() + 500 * MSEC;
}

/* Wait until past its watchdog, by PROG_WAIT or by poll(POLLPRI). */
static void hprog_follow(struct rng *r, struct hfd *h, struct hprog *p)
{
	uint64_t ns = (p->watchdog_ms + 500) * MSEC;
	struct ncsync_prog_wait pw = { .id = p->id };
	struct pollfd pfd = { .fd = h->fd, .events = POLLPRI };

	if (chance(r, 1, 2)) {
		deadline_in(&pw.deadline, ns);
		ioctl(h->fd, NCSYNC_IOC_PROG_WAIT, &pw);
	} else {
		poll(&pfd, 1, ns / MSEC);
	}
	hprog_look(h, p);
}

/* What is due: closes, cancels, follows and looks. */
static void hostile_tick(struct thread *w)
{
	uint64_t now = now_ns(), next = now + 200 * MSEC;
	unsigned int i, j;

	if (now < w->hdue)
		return;
	__atomic_store_n(&ws->cur[w->idx], "hostile_tick", __ATOMIC_RELAXED);
	if (!__atomic_load_n(&shm->hostile, __ATOMIC_RELAXED)) {
		/* The session is over: its descriptors close. */
		hostile_close_all(w);
		w->soaked = false;
		w->hdue = now + 100 * MSEC;
		return;
	}
	for (i = 0; i < HFDS; i++) {
		struct hfd *h = &w->hfd[i];

		if (h->fd < 0)
			continue;
		if (now_ns() >= h->close_at) {
			hfd_close(w, h);
			continue;
		}
		for (j = 0; j < HPROGS; j++) {
			struct hprog *p = &h->p[j];

			if (p->id && now_ns() >= p->due) {
				if (p->fate == HF_CANCEL)
					hprog_cancel(h, p);
				else if (p->fate == HF_FOLLOW)
					hprog_follow(&w->r, h, p);
				else
					hprog_look(h, p);
			}
			if (p->id && p->due < next)
				next = p->due;
		}
		if (h->close_at < next)
			next = h->close_at;
	}
	w->hdue = next;
}

static bool hostile_refused(enum hkind k, int err,
			    const struct ncsync_submit *sub)
{
	if (err == EBADF && ro)
		ATOMIC_INC(&ws->c.h_ro);
	else if (err == EAGAIN || err == ENOMEM)
		ATOMIC_INC(&ws->c.h_limited);	/* the limits: fine */
	else if (ATOMIC_INC(&ws->c.h_other) < 3)
		diag("%s program: submit: %s", hkinds[k].name, strerror(err));
	if (err == EINVAL)
		anomaly("%s program refused: engine %u record %u (%s)",
			hkinds[k].name, sub->bad_engine, sub->bad_index,
			ncsync_rec_reason_name(sub->reason));
	return false;
}

static bool do_hostile(struct thread *w)
{
	struct rng *r = &w->r;
	struct ncsync_queue q[NCSYNC_NUM_ENGINES];
	struct ncsync_submit sub = { 0 }, want = { 0 };
	enum hkind k = below(r, HK_N);
	int phase = __atomic_load_n(&shm->hostile, __ATOMIC_RELAXED);
	struct hprog *p;
	struct hfd *h;
	uint64_t devmem;
	bool soak;

	if (!phase || !hostile_slot(w, &h, &p))
		return false;
	/*
	 * In a long session the first thread of a worker leaves a DMA loop
	 * on every engine running, on a descriptor open until the session
	 * ends: a user gone to lunch.
	 */
	soak = phase == 2 && !w->idx && !w->soaked && !ro;
	if (soak)
		k = HK_DMA_LOOP;
	devmem = info[h->core].devmem_size;
	memset(q, 0, sizeof(q));
	/* The soak's copies may wait behind others' slow ones: 500 ms. */
	sub.watchdog_ms = soak ? 500 : gen_watchdog(r);
	sub.nqueues = gen_hostile(w, k, q, devmem, sub.watchdog_ms, soak);
	sub.queues = (uintptr_t)q;
	sub.flags = chance(r, 1, 8) ? NCSYNC_SUBMIT_F_STRICT : 0;
	ATOMIC_INC(&ws->c.h_sub[k]);
	if (!predict(q, sub.nqueues, devmem, &want))
		anomaly("the fuzzer made a bad %s program: engine %u record %u (%s)",
			hkinds[k].name, want.bad_engine, want.bad_index,
			ncsync_rec_reason_name(want.reason));
	if (ioctl(h->fd, NCSYNC_IOC_SUBMIT, &sub))
		return hostile_refused(k, errno, &sub);
	if (ro)
		anomaly("a read-only descriptor ran a %s program",
			hkinds[k].name);
	ATOMIC_INC(&ws->c.h_ok);
	p->id = sub.id;
	p->kind = k;
	p->watchdog_ms = sub.watchdog_ms;
	hprog_plan(r, p);
	if (soak) {
		w->soaked = true;
		ATOMIC_INC(&ws->c.h_soak);
		p->fate = HF_LEAVE;
		p->due = now_ns() + SEC;
		h->close_at = UINT64_MAX;
	}
	hdue_at(w, p->due);
	/* The other threads may look at it, wait for it, cancel it. */
	if (chance(r, 1, 4) && !soak)
		prog_remember(r, h->fd, sub.id);
	return true;
}

/* Programs across cores (engines.rst, "Programs across cores") */

/*
 * A writable descriptor of @core: one of the table's, or one opened for
 * the submission (*@fresh), which the caller closes or gives the table.
 */
static int cores_fd(struct rng *r, unsigned int core, bool *fresh)
{
	unsigned int i, start = below(r, NSLOTS);
	int fd;

	*fresh = false;
	for (i = 0; i < NSLOTS && chance(r, 1, 2); i++) {
		fd = __atomic_load_n(&slots[(start + i) % NSLOTS],
				     __ATOMIC_RELAXED);
		if (fd >= 0 && fd_core(fd) == core)
			return fd;
	}
	*fresh = true;
	return open_path(core, O_RDWR | O_CLOEXEC);
}

/*
 * The queues of the member at position @pos of a program across cores,
 * from @recs on: random records, or (half the time, most of it in a
 * hostile phase) an endless loop of copies whose completions land on
 * another core of the logical core.  Returns the queues made.
 */
static uint32_t gen_member(struct thread *w, struct ncsync_queue *q,
			   uint8_t *recs, uint8_t pos, uint64_t devmem,
			   uint32_t watchdog_ms)
{
	struct rng *r = &w->r;
	unsigned int lnc = lnc_of(0);
	bool loops = chance(r, __atomic_load_n(&shm->hostile,
					       __ATOMIC_RELAXED) ? 3 : 1, 4) ||
		     chance(r, 1, 3);
	uint32_t nq = 1 + below(r, 2), i, j, n;
	uint8_t order[5];

	shuffle_engines(r, order);
	for (i = 0; i < nq; i++) {
		q[i].records = (uintptr_t)recs;
		q[i].engine = order[i];
		q[i].pad[0] = pos;
		if (loops) {
			rec_init(REC(recs, 0), NCSYNC_OPC_DMA);
			REC(recs, 0)[NCSYNC_REC_EV_UPD_MODE] =
				gen_upd(r, false, true);
			REC(recs, 0)[NCSYNC_REC_EV_UPD_IDX] = hot(r);
			gen_dma(r, REC(recs, 0), devmem, 4096,
				gen_latency(r, watchdog_ms));
			gen_peer(r, REC(recs, 0), lnc);
			if (lnc > 1 && REC(recs, 0)[NCSYNC_REC_DMA_PEER] == pos)
				REC(recs, 0)[NCSYNC_REC_DMA_PEER] = !pos;
			rec_branch(REC(recs, 1), 0);
			n = 2;
		} else {
			n = 1 + below(r, 16);
			for (j = 0; j < n; j++)
				gen_record(r, REC(recs, j), j, n, devmem);
		}
		q[i].count = n;
		recs = REC(recs, n);
	}
	return nq;
}

/* The kernel's verdict on a program across cores against the validator's. */
static void cores_verdict(bool ok, int err, bool predicted,
			  const struct ncsync_submit *sub)
{
	if (ok) {
		ATOMIC_INC(&ws->c.cores_ok);
		if (!predicted)
			anomaly("submit across cores accepted; the validator refuses it");
		if (ro)
			anomaly("a read-only worker ran a program across cores");
		return;
	}
	ATOMIC_INC(&ws->c.cores_refused);
	/* A refused record, named with its core, must be one it refuses. */
	if (err == EINVAL && sub->reason && predicted)
		anomaly("submit across cores refused core %u engine %u record %u (%s); validator accepts",
			sub->bad_core, sub->bad_engine, sub->bad_index,
			ncsync_rec_reason_name(sub->reason));
}

/*
 * The descriptors opened for a submission across cores: closed at once
 * (the peer's descriptor goes while its member runs) or given to the
 * table, where the other threads use and close them.
 */
static void cores_fds_done(struct rng *r, const int *fds, const bool *fresh,
			   unsigned int n)
{
	unsigned int i;
	int old;

	for (i = 0; i < n; i++) {
		if (!fresh[i] || fds[i] < 0)
			continue;
		if (chance(r, 1, 2)) {
			close(fds[i]);
			ATOMIC_INC(&ws->c.cores_peer_closed);
			continue;
		}
		old = __atomic_exchange_n(free_slot(r), fds[i],
					  __ATOMIC_RELAXED);
		if (old >= 0)
			close(old);
	}
}

/* A program across the cores of a logical core, with peer completions. */
static bool do_cores(struct thread *w)
{
	struct rng *r = &w->r;
	struct ncsync_queue q[2 * MAX_CORES];
	struct ncsync_submit sub = { 0 }, want = { 0 };
	unsigned int lnc = lnc_of(0), core, own, base, pos, nfds = 0;
	int fd = pick_fd(r), fds[MAX_CORES];
	bool fresh[MAX_CORES], predicted, ok;
	uint8_t *recs = w->recs;
	uint32_t nq = 0, k;

	if (lnc < 2 || fd < 0)
		return false;
	/*
	 * Once: another thread may swap the file under the number between
	 * two looks (core 3 then 0 made base -1, and info[] was read at
	 * index 0xffffffff: the worker died of SIGSEGV).
	 */
	core = fd_core(fd);
	own = core % lnc;
	base = core - own;
	memset(q, 0, sizeof(q));
	sub.watchdog_ms = gen_watchdog(r);
	for (pos = 0; pos < lnc && base + pos < ncores; pos++) {
		if (pos != own && chance(r, 1, 4))
			continue;
		k = gen_member(w, q + nq, recs, pos, info[base + pos].devmem_size,
			       sub.watchdog_ms);
		for (; k; k--, nq++)
			recs = REC(recs, q[nq].count);
		if (pos != own && nfds < MAX_CORES) {
			fds[nfds] = cores_fd(r, base + pos, &fresh[nfds]);
			nfds++;
		}
	}
	predicted = predict(q, nq, info[base].devmem_size, &want);
	sub.queues = (uintptr_t)q;
	sub.nqueues = nq;
	sub.flags = NCSYNC_SUBMIT_F_CORES |
		    (chance(r, 1, 4) ? NCSYNC_SUBMIT_F_STRICT : 0);
	sub.fds = (uintptr_t)fds;
	sub.nfds = nfds;
	ok = !ioctl(fd, NCSYNC_IOC_SUBMIT, &sub);
	cores_verdict(ok, ok ? 0 : errno, predicted, &sub);
	cores_fds_done(r, fds, fresh, nfds);
	if (!ok)
		return false;
	prog_remember(r, fd, sub.id);
	if (chance(r, 1, 4))
		follow(fd, sub.id, MSEC * (5 + below(r, 50)));
	return true;
}

/* An event of the thread's epoll watcher. */
static void epoll_seen(struct thread *w, const struct epoll_event *e)
{
	struct ncsync_seq seq;
	unsigned int i, j;

	if (e->events & EPOLLIN)
		ioctl(e->data.fd, NCSYNC_IOC_ACK, &seq);
	if (!(e->events & EPOLLPRI))
		return;
	/* A program of one of its own descriptors ended: look now. */
	for (i = 0; i < HFDS; i++) {
		if (w->hfd[i].fd != e->data.fd)
			continue;
		for (j = 0; j < HPROGS; j++)
			if (w->hfd[i].p[j].fate == HF_LEAVE)
				w->hfd[i].p[j].due = 0;
		w->hdue = 0;
	}
}

/* Register, change or drop a descriptor, then wait a little. */
static bool do_epoll(struct thread *w)
{
	struct rng *r = &w->r;
	struct epoll_event ev = { 0 }, evs[8];
	int fd = pick_fd(r), n, i;

	if (w->epfd < 0)
		return false;
	ev.events = EPOLLIN | EPOLLPRI;
	if (chance(r, 1, 4))
		ev.events |= EPOLLET;
	if (chance(r, 1, 8))
		ev.events |= EPOLLONESHOT;
	ev.data.fd = fd;
	switch (below(r, 4)) {
	case 0:
		epoll_ctl(w->epfd, EPOLL_CTL_ADD, fd, &ev);
		break;
	case 1:
		epoll_ctl(w->epfd, EPOLL_CTL_MOD, fd, &ev);
		break;
	case 2:
		epoll_ctl(w->epfd, EPOLL_CTL_DEL, fd, NULL);
		break;
	}
	n = epoll_wait(w->epfd, evs, 8, below(r, 3));
	for (i = 0; i < n; i++)
		epoll_seen(w, &evs[i]);
	return n >= 0;
}

static bool do_ack(struct thread *w)
{
	return do_simple(w, NCSYNC_IOC_ACK);
}

static bool do_stats(struct thread *w)
{
	return do_simple(w, NCSYNC_IOC_STATS);
}

static bool do_info(struct thread *w)
{
	return do_simple(w, NCSYNC_IOC_INFO);
}

/*
 * Peer completions (security.rst, "Other cores"): a copy on a random core
 * whose completion lands on another core of its logical core, submitted
 * with no descriptor of it, a read-only one, a writable one, or one of a
 * core of another logical core (a foreign core; or, the peer position
 * outside the logical core).  Only a writable descriptor of the very core
 * the completion lands on, through a writable submitter, may be accepted.
 */
enum peer_kind { PK_NONE, PK_RO, PK_RW, PK_FOREIGN, PK_OUTSIDE, PK_N };

static const char *const peer_kinds[PK_N] = {
	"no descriptor", "a read-only descriptor", "a writable descriptor",
	"a descriptor of another logical core", "a peer outside the logical core",
};

/* The DMA record, a Drain and an Exit: the completion lands on @peer. */
static void gen_peer_prog(struct rng *r, uint8_t *recs, uint8_t peer,
			  uint64_t devmem)
{
	uint8_t *rec = recs;

	rec_init(rec, NCSYNC_OPC_DMA);
	gen_dma(r, rec, devmem, 64, below(r, 200));
	rec[NCSYNC_REC_DMA_FLAGS] = NCSYNC_DMA_F_PEER;
	rec[NCSYNC_REC_DMA_PEER] = peer;
	rec[NCSYNC_REC_EV_UPD_MODE] = NCSYNC_UPD_COMPLETE |
		(below(r, 2) ? NCSYNC_UPD_SEM_INC : NCSYNC_UPD_EVT_SET);
	rec[NCSYNC_REC_EV_UPD_IDX] = hot(r);
	rec_init(rec + NCSYNC_RECORD_SIZE, NCSYNC_OPC_DRAIN);
	rec[NCSYNC_RECORD_SIZE + NCSYNC_REC_DRAIN_COUNT] = 1;
	rec_init(rec + 2 * NCSYNC_RECORD_SIZE, NCSYNC_OPC_EXIT);
}

/* The core a descriptor of @kind is opened on, or -1 for none. */
static int peer_fd_core(struct rng *r, enum peer_kind kind, unsigned int first,
			unsigned int lnc, unsigned int peer)
{
	switch (kind) {
	case PK_RO:
	case PK_RW:
		return first + peer;
	case PK_FOREIGN:
		if (ncores <= lnc)
			return -1;
		return (first + lnc + below(r, ncores - lnc)) % ncores;
	case PK_NONE:
		return -1;
	default:	/* outside: any descriptor, or none */
		return chance(r, 1, 2) ? -1 : (int)below(r, ncores);
	}
}

/* do_peer()'s two descriptors, at numbers no other thread uses. */
#define PFD_BASE	800

/*
 * Open @core for do_peer() at this thread's own number @i: the verdict
 * reads the descriptors' modes after the submission, and another thread's
 * close or dup2 of a stale number of the table must not swap the file
 * under it.  -1 when the open fails, or when the file was swapped in the
 * moment before it got its own number (not the core's node, or not the
 * mode asked for).
 */
static int peer_open(struct thread *w, unsigned int core, int flags,
		     unsigned int i)
{
	int fd = open_path(core, flags), num, err;
	char path[96];
	struct stat node, st;

	if (fd < 0)
		return -1;
	num = dup3(fd, PFD_BASE + w->idx * 2 + i, O_CLOEXEC);
	err = errno;
	close(fd);
	if (num < 0) {
		errno = err;
		return -1;
	}
	snprintf(path, sizeof(path), "%s/ncsync%u", devdir, core);
	if (ro)
		flags = (flags & ~O_ACCMODE) | O_RDONLY;
	if (stat(path, &node) || fstat(num, &st) ||
	    st.st_rdev != node.st_rdev ||
	    (fcntl(num, F_GETFL) & O_ACCMODE) != (flags & O_ACCMODE)) {
		close(num);
		return -1;
	}
	return num;
}

static bool do_peer(struct thread *w)
{
	struct rng *r = &w->r;
	unsigned int lnc = info[0].lnc ?: 1, core = below(r, ncores);
	unsigned int first = core - core % lnc, peer = below(r, lnc);
	enum peer_kind kind = below(r, PK_N);
	struct ncsync_queue q = { .count = 3, .engine = NCSYNC_ENGINE_POOL };
	struct ncsync_submit sub = { .queues = (uintptr_t)&q, .nqueues = 1 };
	int fd, pfd = -1, pcore, ret, err;
	bool rw_sub, rw_peer;

	if (lnc == 1 && kind != PK_FOREIGN)
		kind = PK_OUTSIDE;
	if (lnc > 1 && peer == core % lnc)
		peer = (peer + 1) % lnc;
	if (kind == PK_OUTSIDE)
		peer = lnc + below(r, NCSYNC_MAX_LNC - lnc + 1);
	fd = peer_open(w, core, O_RDWR | O_CLOEXEC, 0);
	if (fd < 0)
		return false;
	gen_peer_prog(r, w->recs, peer, info[core].devmem_size);
	q.records = (uintptr_t)w->recs;
	pcore = peer_fd_core(r, kind, first, lnc, peer);
	if (pcore >= 0)
		pfd = peer_open(w, pcore, (kind == PK_RO ? O_RDONLY : O_RDWR) |
				O_CLOEXEC, 1);
	if (pfd >= 0) {
		sub.fds = (uintptr_t)&pfd;
		sub.nfds = 1;
	}
	sub.watchdog_ms = 1 + below(r, 200);
	ret = ioctl(fd, NCSYNC_IOC_SUBMIT, &sub);
	err = ret ? errno : 0;
	rw_sub = (fcntl(fd, F_GETFL) & O_ACCMODE) == O_RDWR;
	rw_peer = pfd >= 0 && (fcntl(pfd, F_GETFL) & O_ACCMODE) == O_RDWR &&
		  kind == PK_RW;
	if (!ret && !(rw_sub && rw_peer))
		anomaly("a peer completion accepted with %s (core %u, peer %u)",
			peer_kinds[kind], core, peer);
	if (ret && rw_sub && rw_peer && err != ENOMEM && err != EAGAIN)
		anomaly("a peer completion with a writable descriptor refused: %s",
			strerror(err));
	if (!ret) {
		ATOMIC_INC(&ws->c.sub_ok);
		prog_remember(r, fd, sub.id);
		follow(fd, sub.id, MSEC * 300);
	}
	if (pfd >= 0)
		close(pfd);
	close(fd);
	return !ret;
}

static bool (*const op_fns[OP_NKINDS])(struct thread *w) = {
	[OP_OP] = do_op, [OP_BATCH] = do_batch, [OP_WAIT] = do_wait,
	[OP_RESET] = do_reset, [OP_ACK] = do_ack, [OP_STATS] = do_stats,
	[OP_INFO] = do_info, [OP_SUBMIT] = do_submit,
	[OP_STATUS] = do_status, [OP_PWAIT] = do_pwait,
	[OP_CANCEL] = do_cancel, [OP_GARBAGE] = do_garbage,
	[OP_PREAD] = do_pread, [OP_PWRITE] = do_pwrite, [OP_RW] = do_rw,
	[OP_MMAP] = do_mmap, [OP_MUNMAP] = do_munmap,
	[OP_MPROTECT] = do_mprotect, [OP_MREMAP] = do_mremap,
	[OP_MADVISE] = do_madvise, [OP_TOUCH] = do_touch,
	[OP_POLL] = do_poll, [OP_EPOLL] = do_epoll, [OP_OPEN] = do_open,
	[OP_DUP] = do_dup, [OP_DUP2] = do_dup2, [OP_CLOSE] = do_close,
	[OP_FORK] = do_fork, [OP_SIGNAL] = do_signal,
	[OP_HOSTILE] = do_hostile, [OP_CORES] = do_cores,
	[OP_PEER] = do_peer,
};

static bool run_op(struct thread *w, enum op_kind k)
{
	bool ok = op_fns[k](w);

	/* A read-only descriptor changes nothing (security.rst). */
	if (ok && ro && (k == OP_SUBMIT || k == OP_RESET || k == OP_PWRITE ||
			 k == OP_CORES || k == OP_PEER))
		anomaly("%s succeeded through a read-only descriptor",
			kinds[k].name);
	return ok;
}

static unsigned int total_weight;

static void *thread_fn(void *arg)
{
	struct thread *w = arg;
	const char **cur = &ws->cur[w->idx];

	thread_idx = (int)w->idx;
	while (!__atomic_load_n(&shm->stop, __ATOMIC_RELAXED)) {
		uint32_t x = below(&w->r, total_weight);
		enum op_kind k;

		hostile_tick(w);
		for (k = 0; x >= kinds[k].weight; k++)
			x -= kinds[k].weight;
		__atomic_store_n(cur, kinds[k].name, __ATOMIC_RELAXED);
		w->count[k]++;
		errno = 0;
		if (run_op(w, k))
			w->okays[k]++;
		else if (errno > 0 && errno < NERRNO)
			ATOMIC_INC(&ws->c.errs[errno]);
		w->ops++;
	}
	__atomic_store_n(cur, "closing its descriptors", __ATOMIC_RELAXED);
	hostile_close_all(w);
	__atomic_store_n(cur, "done", __ATOMIC_RELAXED);
	__atomic_store_n(&w->done, true, __ATOMIC_RELEASE);
	return NULL;
}

static void on_signal(int sig)
{
}

static const char usage_text[] =
	"ncsync-sysfuzz [-t SECONDS] [-w WORKERS] [-j THREADS] [-r READONLY]\n"
	"               [-u UID] [-s SEED] [-c CORES] [-b BOUND] [-d DEPTH]\n";

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
	deadline_in(&pw.deadline, 10 * SEC);
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

/* Worker processes */

/* Become the worker's own user: no groups, its uid as uid and gid. */
static bool drop_privileges(void)
{
	uid_t id = first_uid + me;

	if (!private_nodes)
		return true;
	if (setgroups(0, NULL) || setresgid(id, id, id) ||
	    setresuid(id, id, id)) {
		diag("cannot become uid %u: %s", id, strerror(errno));
		return false;
	}
	return true;
}

static bool setup_buffers(void)
{
	unsigned int i;

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
		diag("mmap: %s", strerror(errno));
		return false;
	}
	memset(bigbuf, 0, PAGE);
	for (i = 0; i < PAGE / NCSYNC_RECORD_SIZE; i++) {
		bigbuf[i * NCSYNC_RECORD_SIZE] = NCSYNC_OPC_NOOP;
		bigbuf[i * NCSYNC_RECORD_SIZE + 1] = NCSYNC_RECORD_WORDLEN;
	}
	return true;
}

static bool start_threads(uint64_t *sx)
{
	struct sigaction sa = { .sa_handler = on_signal };
	unsigned int i, j;

	sigaction(SIGUSR1, &sa, NULL);	/* interrupts: EINTR */
	sa.sa_flags = SA_RESTART;
	sigaction(SIGUSR2, &sa, NULL);	/* restarts */
	for (i = 0; i < NSLOTS; i++) {
		struct rng r = { splitmix(sx) | 1 };

		slots[i] = open_core(&r);
	}
	for (i = 0; i < nthreads; i++) {
		struct thread *w = &threads[i];

		w->idx = i;
		w->r.s = splitmix(sx) | 1;
		w->epfd = epoll_create1(EPOLL_CLOEXEC);
		for (j = 0; j < HFDS; j++)
			w->hfd[j].fd = -1;
		w->recs = malloc((size_t)RECS_PER_Q * 5 * NCSYNC_RECORD_SIZE);
		if (!w->recs || pthread_create(&w->thread, NULL, thread_fn, w)) {
			diag("cannot start thread %u", i);
			return false;
		}
	}
	__atomic_store_n(&threads_started, true, __ATOMIC_RELEASE);
	return true;
}

/*
 * Once stopped, signals end the threads' waits (and the parent's resets
 * the programs); return how many threads are still busy BOUND s later.
 */
static unsigned int stop_threads(void)
{
	uint64_t t0 = now_ns();
	unsigned int i, stuck = 0;
	bool all;

	do {
		all = true;
		for (i = 0; i < nthreads; i++) {
			if (__atomic_load_n(&threads[i].done, __ATOMIC_ACQUIRE))
				continue;
			all = false;
			pthread_kill(threads[i].thread, SIGUSR1);
		}
		if (all)
			return 0;
		usleep(20000);
	} while (now_ns() - t0 < (uint64_t)bound * SEC);
	for (i = 0; i < nthreads; i++) {
		if (__atomic_load_n(&threads[i].done, __ATOMIC_ACQUIRE))
			continue;
		diag("thread %u stuck in %s", i,
		     __atomic_load_n(&ws->cur[i], __ATOMIC_RELAXED));
		stuck++;
	}
	return stuck;
}

/* Close what is left; add the threads' counts to the worker's. */
static void worker_finish(void)
{
	unsigned int i, k;

	for (i = 0; i < nthreads; i++) {
		pthread_join(threads[i].thread, NULL);
		if (threads[i].epfd >= 0)
			close(threads[i].epfd);
		for (k = 0; k < OP_NKINDS; k++) {
			ws->c.count[k] += threads[i].count[k];
			ws->c.okays[k] += threads[i].okays[k];
		}
	}
	for (i = 0; i < NSLOTS; i++)
		if (slots[i] >= 0)
			close(slots[i]);
	for (i = 0; i < NMAPS; i++)
		if (maps[i].addr)
			munmap(maps[i].addr, maps[i].len);
}

/*
 * A fault of the fuzzer itself: note where for the parent's report, then
 * let the fault happen again with the default action (SA_RESETHAND), so
 * the worker still dies of it.  Async-signal-safe: stores only.
 */
static void on_fault(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	ws->fault_sig = sig;
	ws->fault_thread = thread_idx;
	ws->fault_addr = (uintptr_t)si->si_addr;
}

static void catch_faults(void)
{
	struct sigaction sa = {
		.sa_sigaction = on_fault,
		.sa_flags = SA_SIGINFO | SA_RESETHAND,
	};

	sigaction(SIGSEGV, &sa, NULL);
	sigaction(SIGBUS, &sa, NULL);
}

/* A worker: 0 when it ran and stopped, 1 with threads stuck, 2 if not. */
static int worker_main(unsigned int idx, pid_t parent)
{
	uint64_t sx = seed ^ (0x9E3779B97F4A7C15ULL * (idx + 1));

	me = idx;
	ws = &shm->w[idx];
	ro = idx >= nworkers - nro;
	ws->ro = ro;
	ws->uid = private_nodes ? first_uid + idx : getuid();
	ws->fault_thread = -1;
	catch_faults();
	/* The death signal goes with the credentials: set it after. */
	if (!drop_privileges() || prctl(PR_SET_PDEATHSIG, SIGKILL) ||
	    getppid() != parent || !setup_buffers() || !start_threads(&sx))
		return 2;
	while (!__atomic_load_n(&shm->stop, __ATOMIC_RELAXED))
		usleep(20000);
	if (stop_threads())
		return 1;
	worker_finish();
	return 0;
}

/* The parent: the private nodes, the kernel log, memory, the workers */

struct watch {
	int kmsg;			/* /dev/kmsg, from the run's start */
	uint64_t oom_kill0;		/* /proc/vmstat oom_kill then */
	uint64_t total, avail0, avail_min, avail, slab_max;	/* KiB */
	unsigned int oom_lines, timeouts, lost;
	bool failed;
};

static char node_path[MAX_CORES][96];
static unsigned int nnodes;
static bool dir_made, verdict_done;
static pid_t pids[MAX_WORKERS];
static int wstatus[MAX_WORKERS];
static bool reaped[MAX_WORKERS];

/* Remove the private nodes and their directory (async-signal-safe). */
static void remove_nodes(void)
{
	unsigned int i;

	for (i = 0; i < nnodes; i++)
		unlink(node_path[i]);
	nnodes = 0;
	if (dir_made)
		rmdir(devdir);
	dir_made = false;
}

/* Nodes of the cores in devdir: the same device numbers, mode 0666. */
static bool make_nodes_in(void)
{
	struct stat st;
	char src[32];
	unsigned int i;
	int fd;

	for (i = 0; i < ncores; i++) {
		snprintf(src, sizeof(src), "/dev/ncsync%u", i);
		snprintf(node_path[i], sizeof(node_path[i]), "%s/ncsync%u",
			 devdir, i);
		if (stat(src, &st) || !S_ISCHR(st.st_mode) ||
		    mknod(node_path[i], S_IFCHR | 0666, st.st_rdev))
			return false;
		nnodes = i + 1;
		if (chmod(node_path[i], 0666))	/* past the umask */
			return false;
	}
	/* A file system mounted nodev refuses to open them. */
	fd = open(node_path[0], O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return false;
	close(fd);
	return true;
}

/* As root: private nodes in a fresh directory; false: the workers use /dev. */
static bool make_nodes(void)
{
	static const char *const bases[] = { "/tmp", "/dev/shm", "/run" };
	unsigned int i;

	if (geteuid())
		return false;
	for (i = 0; i < 3; i++) {
		snprintf(devdir, sizeof(devdir), "%s/ncsync-sysfuzz.XXXXXX",
			 bases[i]);
		if (!mkdtemp(devdir))
			continue;
		dir_made = true;
		if (!chmod(devdir, 0711) && make_nodes_in())
			return true;
		remove_nodes();
	}
	strcpy(devdir, "/dev");
	return false;
}

/* The first failure the parent sees: its TAP line goes out at once. */
static void __printf(2, 3) watch_fail(struct watch *wt, const char *fmt, ...)
{
	char why[512];
	va_list ap;

	__atomic_store_n(&shm->stop, true, __ATOMIC_RELAXED);
	if (wt->failed)
		return;
	wt->failed = true;
	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	printf("not ok 1 - sysfuzz: %s\n", why);
	verdict_done = true;
}

/* One record of /dev/kmsg: "PRI,SEQ,TIME,FLAGS;MESSAGE". */
static void kmsg_record(struct watch *wt, char *rec)
{
	static const char *const oom[] = {
		"Out of memory", "oom-kill", "invoked oom-killer",
		"page allocation failure",
	};
	char *msg = strchr(rec, ';'), *nl;
	unsigned int i;

	if (!msg)
		return;
	msg++;
	nl = strchr(msg, '\n');
	if (nl)
		*nl = 0;
	if (strstr(msg, "timed out: no progress"))
		wt->timeouts++;
	for (i = 0; i < ARRAY_SIZE(oom); i++) {
		if (!strstr(msg, oom[i]))
			continue;
		if (wt->oom_lines++ < 5)
			diag("kernel: %.300s", msg);
		watch_fail(wt, "out of memory: the kernel log says \"%.160s\"",
			   msg);
		return;
	}
}

static void kmsg_scan(struct watch *wt)
{
	char rec[8192];
	ssize_t n;

	while (wt->kmsg >= 0) {
		n = read(wt->kmsg, rec, sizeof(rec) - 1);
		if (n < 0 && errno == EPIPE) {	/* overwritten meanwhile */
			wt->lost++;
			continue;
		}
		if (n <= 0)
			return;
		rec[n] = 0;
		kmsg_record(wt, rec);
	}
}

/* A "KEY VALUE" line of a /proc file (KEY with its colon), or -1. */
static uint64_t proc_value(const char *file, const char *key)
{
	size_t n = strlen(key);
	uint64_t v = UINT64_MAX;
	char line[256];
	FILE *f = fopen(file, "re");

	if (!f)
		return v;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, key, n) && line[n] == ' ') {
			v = strtoull(line + n, NULL, 10);
			break;
		}
	}
	fclose(f);
	return v;
}

/* Memory: the run fails before the kernel runs out. */
static void watch_memory(struct watch *wt)
{
	uint64_t avail = proc_value("/proc/meminfo", "MemAvailable:");
	uint64_t slab = proc_value("/proc/meminfo", "Slab:");

	if (avail == UINT64_MAX || !wt->total)
		return;
	wt->avail = avail;
	if (avail < wt->avail_min)
		wt->avail_min = avail;
	if (slab != UINT64_MAX && slab > wt->slab_max)
		wt->slab_max = slab;
	if (avail < wt->total / 8)
		watch_fail(wt, "kernel memory nearly exhausted: MemAvailable %llu MiB of %llu MiB, Slab %llu MiB",
			   (unsigned long long)(avail >> 10),
			   (unsigned long long)(wt->total >> 10),
			   (unsigned long long)(slab >> 10));
}

static void watch_poll(struct watch *wt)
{
	uint64_t oom = proc_value("/proc/vmstat", "oom_kill");

	kmsg_scan(wt);
	if (oom != UINT64_MAX && wt->oom_kill0 != UINT64_MAX &&
	    oom > wt->oom_kill0)
		watch_fail(wt, "out of memory: %llu OOM kills (/proc/vmstat)",
			   (unsigned long long)(oom - wt->oom_kill0));
	watch_memory(wt);
}

static void watch_init(struct watch *wt)
{
	memset(wt, 0, sizeof(*wt));
	wt->kmsg = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (wt->kmsg < 0)
		diag("no kernel log (/dev/kmsg: %s): OOM reports only from /proc/vmstat",
		     strerror(errno));
	else
		lseek(wt->kmsg, 0, SEEK_END);
	wt->oom_kill0 = proc_value("/proc/vmstat", "oom_kill");
	wt->total = proc_value("/proc/meminfo", "MemTotal:");
	if (wt->total == UINT64_MAX)
		wt->total = 0;
	wt->avail_min = UINT64_MAX;
	watch_memory(wt);
	wt->avail0 = wt->avail;
}

static void on_alarm(int sig)
{
	static const char msg[] = "not ok 1 - sysfuzz: alarm: the run did not end\n";
	unsigned int i;

	for (i = 0; i < nworkers; i++)
		if (pids[i] > 0 && !reaped[i])
			kill(pids[i], SIGKILL);
	remove_nodes();
	if (!verdict_done && write(STDOUT_FILENO, msg, sizeof(msg) - 1) < 0)
		_exit(1);
	_exit(1);
}

static unsigned int reap_workers(void)
{
	unsigned int i, left = 0;

	for (i = 0; i < nworkers; i++) {
		if (!reaped[i] && pids[i] > 0 &&
		    waitpid(pids[i], &wstatus[i], WNOHANG) == pids[i])
			reaped[i] = true;
		left += !reaped[i];
	}
	return left;
}

static bool start_workers(void)
{
	pid_t parent = getpid();
	unsigned int i;

	fflush(stdout);
	for (i = 0; i < nworkers; i++) {
		pids[i] = fork();
		if (pids[i] < 0) {
			diag("fork: %s", strerror(errno));
			reaped[i] = true;
			wstatus[i] = 2 << 8;
			return false;
		}
		if (!pids[i])
			_exit(worker_main(i, parent));
	}
	return true;
}

/*
 * The next phase: hostile programs for 2 to 6 s, with at most one real
 * reset every RESET_GAP (1 time in 6 a long session of 8 to 15 s without
 * any), then a calm one of 2 to 4 s in which the other programs have the
 * engines to themselves and resets are not limited.
 */
static uint64_t phase_next(struct rng *r, uint64_t now)
{
	int phase = 0;
	uint64_t ms = 2000 + below(r, 2001);

	if (!__atomic_load_n(&shm->hostile, __ATOMIC_RELAXED)) {
		phase = chance(r, 1, 6) ? 2 : 1;
		ms = phase == 2 ? 8000 + below(r, 7001) : 2000 + below(r, 4001);
		shm->phases++;
		shm->long_phases += phase == 2;
	}
	__atomic_store_n(&shm->hostile, phase, __ATOMIC_RELAXED);
	return now + ms * MSEC;
}

/* Until the time is up, a worker ends early or the kernel fails. */
static void supervise(struct watch *wt, uint64_t t0)
{
	struct rng r = { seed ^ 0x5EED5EED5EED5EEDULL };
	uint64_t phase_end = t0 + SEC;	/* calm first */
	unsigned int n = 0;

	r.s |= 1;
	while (!__atomic_load_n(&shm->stop, __ATOMIC_RELAXED) &&
	       now_ns() - t0 < (uint64_t)seconds * SEC) {
		usleep(100000);
		if (now_ns() >= phase_end)
			phase_end = phase_next(&r, now_ns());
		if (++n % 2 == 0)
			watch_poll(wt);
		if (reap_workers() < nworkers) {
			diag("a worker ended before the end of the run");
			break;
		}
	}
	__atomic_store_n(&shm->stop, true, __ATOMIC_RELAXED);
}

/* The workers still there BOUND + 5 s after the stop: hung. */
static unsigned int kill_hung(void)
{
	unsigned int i, t, n = 0;
	const char *cur;

	for (i = 0; i < nworkers; i++) {
		if (reaped[i])
			continue;
		for (t = 0; t < nthreads; t++) {
			cur = __atomic_load_n(&shm->w[i].cur[t],
					      __ATOMIC_RELAXED);
			if (cur && strcmp(cur, "done"))
				diag("worker %u (uid %u) thread %u stuck in %s",
				     i, shm->w[i].uid, t, cur);
		}
		kill(pids[i], SIGKILL);
		n++;
	}
	for (i = 0; i < nworkers; i++)
		if (!reaped[i] && waitpid(pids[i], &wstatus[i], 0) == pids[i])
			reaped[i] = true;
	return n;
}

/*
 * Stop the run: each worker signals its threads, the parent's resets end
 * every wait and program meanwhile.  Returns the number of hung workers.
 */
static unsigned int stop_workers(struct watch *wt, const int *ctl)
{
	struct ncsync_reset rs = { 0 };
	uint64_t t0 = now_ns();
	unsigned int i, n = 0;

	while (reap_workers()) {
		if (now_ns() - t0 > (uint64_t)(bound + 5) * SEC)
			return kill_hung();
		for (i = 0; i < ncores; i++)
			ioctl(ctl[i], NCSYNC_IOC_RESET, &rs);
		if (++n % 10 == 0)
			watch_poll(wt);
		usleep(20000);
	}
	return 0;
}

/* A worker killed by @sig: where its own fault was, what each thread did. */
static void signal_report(unsigned int i, int sig)
{
	const struct wstats *w = &shm->w[i];
	unsigned int t;
	const char *cur;

	diag("worker %u (uid %u, %s) killed by signal %d (%s)", i, w->uid,
	     w->ro ? "read-only" : "read-write", sig, strsignal(sig));
	if (w->fault_sig)
		diag("  its fault: signal %d at address %#lx in thread %d",
		     w->fault_sig, (unsigned long)w->fault_addr,
		     w->fault_thread);
	for (t = 0; t < nthreads; t++) {
		cur = __atomic_load_n(&w->cur[t], __ATOMIC_RELAXED);
		diag("  thread %u was in %s", t, cur ? cur : "(not started)");
	}
}

/* Workers that did not exit 0: killed (by the OOM killer?), stuck, failed. */
static unsigned int workers_failed(void)
{
	unsigned int i, n = 0;
	int st;

	for (i = 0; i < nworkers; i++) {
		st = wstatus[i];
		if (!reaped[i] || (WIFEXITED(st) && !WEXITSTATUS(st)))
			continue;
		n++;
		if (WIFSIGNALED(st))
			signal_report(i, WTERMSIG(st));
		else
			diag("worker %u (uid %u) exited %d%s", i,
			     shm->w[i].uid, WEXITSTATUS(st),
			     WEXITSTATUS(st) == 1 ? ": threads stuck" :
			     WEXITSTATUS(st) == 2 ? ": could not start" : "");
	}
	return n;
}

/* The report */

static void sum_counts(struct counts *t)
{
	size_t i, n = sizeof(*t) / sizeof(uint64_t);
	uint64_t *d = (uint64_t *)t;
	const uint64_t *a;
	unsigned int w;

	memset(t, 0, sizeof(*t));
	for (w = 0; w < nworkers; w++) {
		a = (const uint64_t *)&shm->w[w].c;
		for (i = 0; i < n; i++)
			d[i] += a[i];
	}
}

#define U(x)	((unsigned long long)(x))

static uint64_t report_ops(const struct counts *t)
{
	char line[1024];
	uint64_t ops = 0;
	size_t len = 0;
	unsigned int k;
	int e;

	for (k = 0; k < OP_NKINDS; k++) {
		ops += t->count[k];
		diag("%-16s %10llu calls, %10llu succeeded", kinds[k].name,
		     U(t->count[k]), U(t->okays[k]));
	}
	for (e = 1; e < NERRNO; e++)
		if (t->errs[e] && len < sizeof(line) - 64)
			len += snprintf(line + len, sizeof(line) - len,
					" %s %llu", strerrorname_np(e),
					U(t->errs[e]));
	diag("errors:%s", len ? line : " none");
	diag("submissions: %llu accepted, %llu refused (EINVAL), %llu other errors; %llu verdicts checked against the validator",
	     U(t->sub_ok), U(t->sub_einval), U(t->sub_other),
	     U(t->sub_checked));
	diag("programs across cores: %llu accepted, %llu refused; %llu peer descriptors closed right after",
	     U(t->cores_ok), U(t->cores_refused), U(t->cores_peer_closed));
	diag("programs seen ending: %llu done, %llu halted, %llu faulted, %llu timed out, %llu cancelled; %llu records executed by the released ones",
	     U(t->prog_state[NCSYNC_PROG_DONE]),
	     U(t->prog_state[NCSYNC_PROG_HALTED]),
	     U(t->prog_state[NCSYNC_PROG_FAULTED]),
	     U(t->prog_state[NCSYNC_PROG_TIMED_OUT]),
	     U(t->prog_state[NCSYNC_PROG_CANCELLED]), U(t->executed));
	return ops;
}

static void report_hostile(const struct counts *t)
{
	uint64_t dma_max = 0, end_max = 0;
	unsigned int w;

	for (w = 0; w < nworkers; w++) {
		if (shm->w[w].dma_max > dma_max)
			dma_max = shm->w[w].dma_max;
		if (shm->w[w].end_max > end_max)
			end_max = shm->w[w].end_max;
	}
	diag("phases: %u hostile (%u long sessions without resets, %llu DMA loops on every engine left running through them), the others calm",
	     shm->phases, shm->long_phases, U(t->h_soak));
	diag("hostile programs: %llu dma-loop, %llu spin, %llu block, %llu slow-drain, %llu mixed; %llu accepted, %llu refused by the limits (EAGAIN, ENOMEM), %llu through read-only descriptors (EBADF), %llu other errors",
	     U(t->h_sub[HK_DMA_LOOP]), U(t->h_sub[HK_SPIN]),
	     U(t->h_sub[HK_BLOCK]), U(t->h_sub[HK_DRAIN]),
	     U(t->h_sub[HK_MIXED]), U(t->h_ok), U(t->h_limited),
	     U(t->h_ro), U(t->h_other));
	diag("hostile programs seen ending: %llu timed out, %llu cancelled, %llu done, %llu faulted; %llu cancels; %llu left until their descriptor closed (%llu of them still queued); %llu released by other threads",
	     U(t->h_end[NCSYNC_PROG_TIMED_OUT]),
	     U(t->h_end[NCSYNC_PROG_CANCELLED]),
	     U(t->h_end[NCSYNC_PROG_DONE]), U(t->h_end[NCSYNC_PROG_FAULTED]),
	     U(t->h_cancels), U(t->h_closed), U(t->h_closed_queued),
	     U(t->h_gone));
	diag("DMA: at most %llu copies in flight on one queue (bound %u: %s), engines seen waiting on a full DMA queue %llu times; slowest cancel or close %llu ms",
	     U(dma_max), dma_bound, dma_bound_name(), U(t->h_dma_full),
	     U(end_max / MSEC));
}

static void report_kernel(const struct watch *wt, const int *ctl)
{
	struct ncsync_stats sts;
	uint64_t suppressed = 0;
	unsigned int i;

	for (i = 0; i < ncores; i++)
		if (!ioctl(ctl[i], NCSYNC_IOC_STATS, &sts))
			suppressed += sts.log_suppressed;
	diag("kernel log: %u watchdog reports, %llu left out by the rate limit, %u OOM lines%s",
	     wt->timeouts, U(suppressed), wt->oom_lines,
	     wt->lost ? " (some records were overwritten before read)" : "");
	diag("memory: MemAvailable %llu MiB of %llu MiB at the start, %llu at the least, %llu at the end; Slab at most %llu MiB",
	     U(wt->avail0 >> 10), U(wt->total >> 10),
	     U(wt->avail_min == UINT64_MAX ? 0 : wt->avail_min >> 10),
	     U(wt->avail >> 10), U(wt->slab_max >> 10));
	for (i = 0; i < nworkers; i++) {
		const struct counts *c = &shm->w[i].c;
		uint64_t ops = 0;
		unsigned int k;

		for (k = 0; k < OP_NKINDS; k++)
			ops += c->count[k];
		diag("worker %u: uid %u, %s, %llu ops, %llu hostile programs run",
		     i, shm->w[i].uid, shm->w[i].ro ? "read-only" : "read-write",
		     U(ops), U(c->h_ok));
	}
}

/* Options */

static void parse_args(int argc, char **argv)
{
	bool nro_set = false;
	int c;

	while ((c = getopt(argc, argv, "t:w:j:r:u:s:c:b:d:h")) != -1) {
		switch (c) {
		case 't':
			seconds = strtoul(optarg, NULL, 0);
			break;
		case 'w':
			nworkers = strtoul(optarg, NULL, 0);
			break;
		case 'j':
			nthreads = strtoul(optarg, NULL, 0);
			break;
		case 'r':
			nro = strtoul(optarg, NULL, 0);
			nro_set = true;
			break;
		case 'u':
			first_uid = strtoul(optarg, NULL, 0);
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
		case 'd':
			dma_bound = strtoul(optarg, NULL, 0);
			dma_bound_set = true;
			break;
		default:
			print_usage();
		}
	}
	if (!nro_set)
		nro = nworkers > 1;
	if (optind != argc || !nthreads || nthreads > MAX_THREADS ||
	    !nworkers || nworkers > MAX_WORKERS || nro > nworkers ||
	    ncores > MAX_CORES || !first_uid)
		print_usage();
}

/* Set-up */

/* The cores, as root through /dev: their information, a reset handle. */
static bool open_cores(int *ctl)
{
	char path[32];
	unsigned int i;

	if (!ncores) {
		for (ncores = 0; ncores < MAX_CORES; ncores++) {
			snprintf(path, sizeof(path), "/dev/ncsync%u", ncores);
			if (access(path, F_OK))
				break;
		}
	}
	if (!ncores) {
		printf("not ok 1 - sysfuzz: no /dev/ncsync0\n");
		return false;
	}
	for (i = 0; i < ncores; i++) {
		snprintf(path, sizeof(path), "/dev/ncsync%u", i);
		ctl[i] = open(path, O_RDWR | O_CLOEXEC);
		if (ctl[i] < 0 || ioctl(ctl[i], NCSYNC_IOC_INFO, &info[i]) ||
		    info[i].devmem_size < PAGE) {
			printf("not ok 1 - sysfuzz: %s: %s\n", path,
			       strerror(errno));
			return false;
		}
	}
	return true;
}

/* The bound of the copies in flight on one queue: dma_depth, if any. */
static void read_dma_depth(void)
{
	FILE *f = fopen("/sys/module/ncsync/parameters/dma_depth", "re");
	unsigned int v;

	if (f && fscanf(f, "%u", &v) == 1 && v && !dma_bound_set) {
		dma_bound = v;
		dma_depth_known = true;
	}
	if (f)
		fclose(f);
}

static bool setup(int *ctl)
{
	struct rlimit rl;
	unsigned int k;

	printf("TAP version 13\n1..1\n");
	shm = mmap(NULL, sizeof(*shm), PROT_READ | PROT_WRITE,
		   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (shm == MAP_FAILED) {
		printf("not ok 1 - sysfuzz: mmap: %s\n", strerror(errno));
		return false;
	}
	if (!open_cores(ctl))
		return false;
	read_dma_depth();
	private_nodes = make_nodes();
	/* Room for the hostile descriptors' numbers (HFD_BASE on). */
	if (!getrlimit(RLIMIT_NOFILE, &rl) && rl.rlim_cur < 1024 &&
	    rl.rlim_max >= 1024) {
		rl.rlim_cur = 1024;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
	for (k = 0; k < OP_NKINDS; k++)
		total_weight += kinds[k].weight;
	printf("# sysfuzz: seed %llu, %u workers of %u threads (%u read-only), %u s\n",
	       U(seed), nworkers, nthreads, nro, seconds);
	if (private_nodes)
		printf("# sysfuzz: workers as uids %u..%u, on private nodes in %s\n",
		       first_uid, first_uid + nworkers - 1, devdir);
	else
		printf("# sysfuzz: no private nodes (not root, or mknod failed): the workers keep uid %u and open /dev\n",
		       getuid());
	if (dma_bound)
		printf("# sysfuzz: DMA copies in flight per queue at most %u (%s)\n",
		       dma_bound, dma_bound_name());
	else
		printf("# sysfuzz: DMA copies in flight not checked (-d 0)\n");
	return true;
}

int main(int argc, char **argv)
{
	uint64_t t0, elapsed, ops;
	unsigned int i, hung, failed;
	struct counts t;
	struct watch wt;
	int ctl[MAX_CORES];
	bool sane = true;

	seed = now_ns() ^ ((uint64_t)getpid() << 32);
	parse_args(argc, argv);
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!setup(ctl))
		return 1;
	watch_init(&wt);
	signal(SIGALRM, on_alarm);
	alarm(seconds + bound + 15);	/* whatever happens, the run ends */

	t0 = now_ns();
	if (start_workers())
		supervise(&wt, t0);
	__atomic_store_n(&shm->stop, true, __ATOMIC_RELAXED);
	hung = stop_workers(&wt, ctl);
	elapsed = now_ns() - t0;
	remove_nodes();
	for (i = 0; i < ncores; i++)
		sane &= core_sane(i);
	watch_poll(&wt);

	sum_counts(&t);
	ops = report_ops(&t);
	report_hostile(&t);
	report_kernel(&wt, ctl);
	failed = workers_failed();
	diag("anomalies %llu, failed children %llu, workers failed %u, hung %u, cores sane: %s",
	     U(t.anomalies), U(t.child_bad), failed, hung, sane ? "yes" : "no");
	if (!verdict_done)
		printf("%s 1 - sysfuzz %llu ops in %llu s, %u workers\n",
		       t.anomalies || t.child_bad || failed || hung || !sane ||
		       wt.failed ? "not ok" : "ok",
		       U(ops), U(elapsed / SEC), nworkers);
	return t.anomalies || t.child_bad || failed || hung || !sane ||
	       wt.failed;
}
