// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * ncsync_program_submit() without the module: this test defines open(),
 * close(), mmap(), munmap() and ioctl() itself (the static library's calls
 * bind to them), fakes cores 0 and 1 of a logical core of fake_lnc cores,
 * and checks the struct ncsync_submit the library hands to
 * NCSYNC_IOC_SUBMIT, how it reports refusals, and that a program's
 * CoreBarrier records (0xD8) are lowered for the device's lnc when the
 * program set none (ncsync_program_set_lnc()), core barriers lowered for
 * another refused.
 */
#include <errno.h>
#include <stdarg.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

#include "ncsync.h"
#include "tap.h"

#define FAKE_FD 1000
#define SEM	20

static struct ncsync_submit last;
static struct ncsync_queue last_q[NCSYNC_NUM_ENGINES];
static uint8_t last_rec0[NCSYNC_NUM_ENGINES][NCSYNC_RECORD_SIZE];
static int submits, reject_reason;
static unsigned int fake_lnc;

int open(const char *path, int flags, ...)
{
	if (!strcmp(path, "/dev/ncsync0"))
		return FAKE_FD;
	if (!strcmp(path, "/dev/ncsync1"))
		return FAKE_FD + 1;
	errno = ENOENT;
	return -1;
}

int close(int fd)
{
	if (fd == FAKE_FD || fd == FAKE_FD + 1)
		return 0;
	return (int)syscall(SYS_close, fd);
}

/* The fake cores' CSR window: the semaphores and events they read. */
static uint32_t csr[NCSYNC_CSR_SIZE / 4];

void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	return csr;
}

int munmap(void *addr, size_t len)
{
	return 0;
}

int ioctl(int fd, unsigned long req, ...)
{
	struct ncsync_submit *sub;
	struct ncsync_info *info;
	const struct ncsync_queue *q;
	unsigned int i;
	va_list ap;
	void *arg;

	va_start(ap, req);
	arg = va_arg(ap, void *);
	va_end(ap);
	if (fd != FAKE_FD && fd != FAKE_FD + 1) {
		errno = ENOTTY;
		return -1;
	}
	switch (req) {
	case NCSYNC_IOC_INFO:
		info = arg;
		memset(info, 0, sizeof(*info));
		info->api_version = NCSYNC_API_VERSION;
		info->num_sems = 256;
		info->core = fd - FAKE_FD;
		info->lnc = fake_lnc;
		return 0;
	case NCSYNC_IOC_SUBMIT:
		sub = arg;
		submits++;
		last = *sub;
		q = (const struct ncsync_queue *)(uintptr_t)sub->queues;
		for (i = 0; i < sub->nqueues && i < NCSYNC_NUM_ENGINES; i++) {
			last_q[i] = q[i];
			memcpy(last_rec0[i],
			       (const void *)(uintptr_t)q[i].records,
			       NCSYNC_RECORD_SIZE);
		}
		if (reject_reason) {
			sub->bad_engine = q[sub->nqueues - 1].engine;
			sub->bad_index = q[sub->nqueues - 1].count - 1;
			sub->reason = reject_reason;
			errno = EINVAL;
			return -1;
		}
		if (sub->flags & ~NCSYNC_SUBMIT_F_ALL) {
			errno = EINVAL;
			return -1;
		}
		sub->id = 77;
		return 0;
	default:
		errno = ENOTTY;
		return -1;
	}
}

/* A PE + Act program with a raw 0xD5 (byte 0x3F set when @bad) on each. */
static struct ncsync_program *raw_barrier(bool bad)
{
	uint8_t d5[NCSYNC_RECORD_SIZE] = { 0xD5, 0x10 };
	struct ncsync_program *p;
	struct ncsync_stream *s;

	d5[0x3F] = bad;
	ncsync_program_new(&p);
	ncsync_program_stream(p, NCSYNC_ENGINE_ACT, &s);
	ncsync_add_nop(s, NULL);
	ncsync_add_raw(s, d5);
	ncsync_program_stream(p, NCSYNC_ENGINE_PE, &s);
	ncsync_add_raw(s, d5);
	return p;
}

/*
 * NCSYNC_SUBMIT_F_CONFORM goes to the kernel; the library refuses a
 * malformed 0xD5 itself (records.rst, "The conformance profile", 28).
 */
static void conformance(struct ncsync_dev *dev)
{
	struct ncsync_submit_error err;
	struct ncsync_program *p;
	int n = submits;
	uint32_t id;

	p = raw_barrier(false);
	TAP_CHECK(ncsync_program_submit(dev, p, NCSYNC_SUBMIT_F_CONFORM, 0,
					&id, &err) == 0 &&
		  last.flags == NCSYNC_SUBMIT_F_CONFORM && submits == n + 1,
		  "a well-formed 0xD5 with the profile: the flag is passed");
	ncsync_program_free(p);
	p = raw_barrier(true);
	TAP_CHECK(ncsync_program_submit(dev, p, 0, 0, &id, &err) == 0 &&
		  submits == n + 2,
		  "a 0xD5 with a reserved byte set: lowered without the profile");
	ncsync_program_free(p);
	p = raw_barrier(true);
	TAP_CHECK(ncsync_program_submit(dev, p, NCSYNC_SUBMIT_F_CONFORM |
					NCSYNC_SUBMIT_F_STRICT, 0, &id,
					&err) == -EINVAL &&
		  err.engine == NCSYNC_ENGINE_ACT && err.index == 1 &&
		  err.reason == NCSYNC_REC_CONF_PSEUDO && submits == n + 2,
		  "... refused with the profile, not submitted: %s, engine %u "
		  "record %u", ncsync_reason_name(err.reason), err.engine,
		  err.index);
	ncsync_program_free(p);
}

/* Pool and PE, a raw 0xD8 on SEM on each; @lnc set when not 0. */
static struct ncsync_program *raw_d8(unsigned int lnc)
{
	uint8_t d8[NCSYNC_RECORD_SIZE] = { 0xD8, 0x10, [0x10] = SEM };
	struct ncsync_program *p;
	struct ncsync_stream *s;

	ncsync_program_new(&p);
	if (lnc)
		ncsync_program_set_lnc(p, lnc);
	ncsync_program_stream(p, NCSYNC_ENGINE_POOL, &s);
	ncsync_add_raw(s, d8);
	ncsync_program_stream(p, NCSYNC_ENGINE_PE, &s);
	ncsync_add_raw(s, d8);
	return p;
}

/* DMA records of Pool's stream: the lnc the 0xD8 was lowered for. */
static unsigned int peers(struct ncsync_program *p)
{
	struct ncsync_stream *s;
	unsigned int n = 0;
	uint32_t i;

	s = ncsync_program_find_stream(p, NCSYNC_ENGINE_POOL);
	for (i = 0; i < ncsync_stream_count(s); i++)
		n += ncsync_stream_peek(s, i)[0] == NCSYNC_OPC_DMA;
	return n;
}

/* Open cores 0 and 1 of a logical core of @lnc. */
static bool open2(unsigned int lnc, struct ncsync_dev *dev[2])
{
	fake_lnc = lnc;
	return !ncsync_open(0, true, &dev[0]) && !ncsync_open(1, true, &dev[1]);
}

static void close2(struct ncsync_dev *dev[2])
{
	ncsync_close(dev[0]);
	ncsync_close(dev[1]);
}

/* A program submitted once on @lnc: 0, or why not; @m its message. */
static int submit_on(unsigned int lnc, struct ncsync_program *p,
		     const char **m)
{
	struct ncsync_dev *dev[2];
	uint32_t id;
	int ret;

	if (!open2(lnc, dev))
		return -ENODEV;
	ret = ncsync_program_submit(dev[0], p, 0, 0, &id, NULL);
	*m = ncsync_program_lower_error(p);
	if (!*m)
		*m = "";
	close2(dev);
	return ret;
}

/* One core: the device's lnc, or a refusal. */
static void lnc_one_core(void)
{
	struct ncsync_program *p;
	int n = submits, ret;
	const char *m;

	p = raw_d8(0);
	TAP_CHECK(!submit_on(2, p, &m) && submits == n + 1 && peers(p) == 2,
		  "lnc not set: the 0xD8 lowered for the device's lnc 2");
	ncsync_program_free(p);
	p = raw_d8(0);
	ret = ncsync_program_finalize(p) ?: submit_on(2, p, &m);
	TAP_CHECK(ret == -EXDEV && submits == n + 1 && peers(p) == 1 &&
		  strstr(m, "core barriers lowered for lnc 1, the device's "
			 "logical core has 2 cores"),
		  "finalized first (lnc 1), submitted on lnc 2: EXDEV, '%s', "
		  "not submitted", m);
	ncsync_program_free(p);
	p = raw_d8(4);
	TAP_CHECK(submit_on(2, p, &m) == -EXDEV && submits == n + 1 &&
		  peers(p) == 4,
		  "lnc 4 set, submitted on lnc 2: EXDEV, not submitted");
	ncsync_program_free(p);
	p = raw_d8(0);
	TAP_CHECK(!submit_on(0, p, &m) && submits == n + 2 && peers(p) == 1,
		  "a device reporting lnc 0: lowered for 1");
	ncsync_program_free(p);
	p = raw_d8(0);
	ret = submit_on(NCSYNC_MAX_LNC + 1, p, &m);
	TAP_CHECK(ret == -EINVAL && submits == n + 2 &&
		  strstr(m, "core_barrier: lnc 65 out of range (1-64)"),
		  "a device lnc out of range: EINVAL, '%s'", m);
	ncsync_program_free(p);
}

/* Across cores: the devices' lnc, or a refusal naming the part. */
static void lnc_cores(void)
{
	struct ncsync_program *p[2];
	struct ncsync_dev *dev[2];
	unsigned int part = 9;
	int n = submits, ret;
	uint32_t id;

	TAP_CHECK(open2(2, dev), "fake cores 0 and 1 of a logical core of 2");
	p[0] = raw_d8(0);
	p[1] = raw_d8(0);
	ret = ncsync_program_submit_cores(dev, p, 2, 0, 0, &id, NULL, &part);
	TAP_CHECK(!ret && submits == n + 1 && peers(p[0]) == 2 &&
		  peers(p[1]) == 2,
		  "across cores: both parts lowered for lnc 2");
	ncsync_program_free(p[1]);
	p[1] = raw_d8(1);
	ret = ncsync_program_submit_cores(dev, p, 2, 0, 0, &id, NULL, &part);
	TAP_CHECK(ret == -EXDEV && part == 1 && submits == n + 1,
		  "a part lowered for lnc 1: EXDEV, part 1, not submitted");
	ncsync_program_free(p[0]);
	ncsync_program_free(p[1]);
	close2(dev);
}

/* A one-engine program with a barrier, lowered in the form @how. */
static struct ncsync_program *one_barrier(enum ncsync_barrier_lowering how)
{
	struct ncsync_program *p;
	struct ncsync_stream *s;

	ncsync_program_new(&p);
	ncsync_program_stream(p, NCSYNC_ENGINE_POOL, &s);
	ncsync_add_all_engine_barrier(p, NULL);
	ncsync_program_lower(p, how);
	return p;
}

/*
 * ncsync_program_idle_check(): what the lowering owns, off its value at
 * the start, read from the core (Documentation/ncsync/barriers.rst).
 */
static void idle(struct ncsync_dev *dev)
{
	uint32_t *sems = &csr[NCSYNC_CSR_SEM_READ / 4];
	uint32_t *events = &csr[NCSYNC_CSR_EVENTS / 4];
	struct ncsync_program *p = one_barrier(NCSYNC_LOWER_COUNTER);
	struct ncsync_stream *s;
	struct ncsync_idle out[4];
	int n;

	sems[241] = 0x80000000;	/* C1: any value will do */
	sems[240] = 5;
	TAP_CHECK(ncsync_program_idle_check(p, dev, out, 4) == 0,
		  "idle: C0 at 5, C1 negative: nothing to say");
	sems[240] = (uint32_t)-3;
	n = ncsync_program_idle_check(p, dev, out, 4);
	TAP_CHECK(n == 1 && out[0].bank == NCSYNC_BANK_SEM &&
		  out[0].index == 240 && out[0].value == -3 &&
		  !strcmp(out[0].idle, ">= 0") &&
		  strstr(out[0].owner, "counter form"),
		  "idle: C0 negative: sem[240] = -3, not >= 0 (%d)", n);
	TAP_CHECK(ncsync_program_idle_check(p, dev, NULL, 0) == 1 &&
		  ncsync_program_idle_check(p, dev, NULL, 1) == -EINVAL &&
		  ncsync_program_idle_check(NULL, dev, out, 4) == -EINVAL &&
		  ncsync_program_idle_check(p, NULL, out, 4) == -EINVAL,
		  "idle: counting only; bad arguments");
	ncsync_program_free(p);
	sems[240] = sems[241] = 0;

	p = one_barrier(NCSYNC_LOWER_EVENTS);
	events[241] = 1;
	events[200] = 1;	/* not the program's */
	n = ncsync_program_idle_check(p, dev, out, 4);
	TAP_CHECK(n == 1 && out[0].bank == NCSYNC_BANK_EVENT &&
		  out[0].index == 241 && out[0].value == 1 &&
		  !strcmp(out[0].idle, "clear"),
		  "idle: an event-form bit set: ev[241], not clear (%d)", n);
	ncsync_program_free(p);
	events[241] = events[200] = 0;

	ncsync_program_new(&p);
	ncsync_program_stream(p, NCSYNC_ENGINE_ACT, &s);
	ncsync_add_core_barrier(p, 30, 1);
	sems[30] = 2;
	sems[242] = (uint32_t)-1;	/* act's C0 */
	n = ncsync_program_idle_check(p, dev, out, 1);
	TAP_CHECK(n == 2 && out[0].index == 242 && out[0].value == -1,
		  "idle: act's C0 first, and a core barrier's semaphore counted (%d)",
		  n);
	n = ncsync_program_idle_check(p, dev, out, 4);
	TAP_CHECK(n == 2 && out[1].index == 30 && out[1].value == 2 &&
		  !strcmp(out[1].idle, "0") && strstr(out[1].owner, "core"),
		  "idle: the core barrier's sem[30] = 2, not 0 (%d)", n);
	ncsync_program_free(p);
	sems[30] = sems[242] = 0;
}

int main(void)
{
	struct ncsync_submit_error err;
	struct ncsync_stream *s, *t, *u;
	struct ncsync_program *p;
	struct ncsync_dev *dev;
	uint32_t id = 0;
	int ret;

	ret = ncsync_open(0, true, &dev);
	TAP_CHECK(ret == 0, "open the fake core (%d)", ret);
	if (ret)
		return tap_done();
	idle(dev);

	ncsync_program_new(&p);
	ncsync_program_stream(p, NCSYNC_ENGINE_SP, &s);
	ncsync_program_stream(p, NCSYNC_ENGINE_POOL, &t);
	ncsync_program_stream(p, NCSYNC_ENGINE_DVE, &u);	/* empty */
	ncsync_add_semaphore_inc(s, 1);
	ncsync_add_exit(s, NULL);
	ncsync_add_semaphore_wait_ge(t, 1, 1);
	ret = ncsync_program_submit(dev, p, NCSYNC_SUBMIT_F_STRICT, 250, &id,
				    &err);
	TAP_CHECK(ret == 0 && id == 77 && submits == 1,
		  "submit returns the kernel's id");
	TAP_CHECK(last.nqueues == 2 && last.flags == NCSYNC_SUBMIT_F_STRICT &&
		  last.watchdog_ms == 250 && !last.reserved,
		  "two queues (the empty stream left out), flags, watchdog");
	TAP_CHECK(last_q[0].engine == NCSYNC_ENGINE_POOL &&
		  last_q[0].count == 1 &&
		  last_q[1].engine == NCSYNC_ENGINE_SP &&
		  last_q[1].count == 2 && !last_q[0].pad[0] &&
		  !last_q[1].pad[2], "queues in engine order with counts");
	TAP_CHECK(!memcmp(last_rec0[1], ncsync_stream_record(s, 0),
			  NCSYNC_RECORD_SIZE) &&
		  !memcmp(last_rec0[0], ncsync_stream_record(t, 0),
			  NCSYNC_RECORD_SIZE), "records are the streams'");
	TAP_CHECK(err.reason == NCSYNC_REC_OK, "no error reported");

	reject_reason = NCSYNC_REC_BAD_DMA;
	ret = ncsync_program_submit(dev, p, 0, 0, &id, &err);
	TAP_CHECK(ret == -EINVAL && err.engine == NCSYNC_ENGINE_SP &&
		  err.index == 1 && err.reason == NCSYNC_REC_BAD_DMA,
		  "the kernel's refusal: engine, index, reason");
	reject_reason = 0;
	ret = ncsync_program_submit(dev, p, 0x80, 0, &id, &err);
	TAP_CHECK(ret == -EINVAL && err.reason == NCSYNC_REC_OK,
		  "EINVAL not about a record: reason stays OK");

	/* finalization refuses before the kernel sees anything */
	ncsync_stream_record(t, 0)[0x30] = 1;
	submits = 0;
	ret = ncsync_program_submit(dev, p, 0, 0, &id, &err);
	TAP_CHECK(ret == -EINVAL && !submits &&
		  err.engine == NCSYNC_ENGINE_POOL && err.index == 0 &&
		  err.reason == NCSYNC_REC_RESERVED_BYTE,
		  "a bad record is reported by finalization");
	ncsync_program_free(p);

	ncsync_program_new(&p);
	ncsync_program_stream(p, NCSYNC_ENGINE_SP, &s);
	TAP_CHECK(ncsync_program_submit(dev, p, 0, 0, &id, NULL) == -ENODATA,
		  "a program without records: -ENODATA");
	TAP_CHECK(ncsync_program_submit(NULL, p, 0, 0, &id, NULL) == -EINVAL &&
		  ncsync_program_submit(dev, NULL, 0, 0, &id, NULL) == -EINVAL,
		  "NULL device or program");
	ncsync_program_free(p);

	/* a barrier program is lowered on submission */
	ncsync_program_new(&p);
	ncsync_program_stream(p, NCSYNC_ENGINE_PE, &s);
	ncsync_program_stream(p, NCSYNC_ENGINE_ACT, &t);
	ncsync_add_all_engine_barrier(p, NULL);
	TAP_CHECK(ncsync_program_submit(dev, p, 0, 0, &id, NULL) == 0 &&
		  last_q[0].count == 3 + 13 &&
		  last_rec0[0][0] == NCSYNC_OPC_EVENT_SEMAPHORE,
		  "pseudo-ops lowered (counter form) before submission");
	ncsync_program_free(p);
	conformance(dev);
	ncsync_close(dev);
	lnc_one_core();
	lnc_cores();
	return tap_done();
}
