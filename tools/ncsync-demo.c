// SPDX-License-Identifier: GPL-2.0
/*
 * ncsync-demo: a short demonstration of a core's CSR window, run by
 * `make run`.  It uses the ioctls, the read-only mapping and blocking waits,
 * prints what happens, and exits non-zero if the model misbehaves.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <ncsync.h>

#define SEM_TOKENS	3
#define EVT_DONE	7
#define PRODUCED	5

static struct ncsync_dev *dev;

static int fail(const char *what, int err)
{
	fprintf(stderr, "ncsync-demo: %s: %s\n", what, strerror(-err));
	exit(1);
}

/* The consumer: wait until the producer has posted PRODUCED tokens. */
static void *consumer(void *arg)
{
	struct timespec deadline;
	int32_t seen;
	int ret;

	ncsync_deadline_after(&deadline, 30LL * 1000000000);
	printf("consumer: waiting for sem[%d] >= %d (deadline in 30 s)\n",
	       SEM_TOKENS, PRODUCED);
	ret = ncsync_wait_sem(dev, SEM_TOKENS, NCSYNC_WAIT_SEM_GE, PRODUCED,
			      &deadline, &seen);
	if (ret)
		fail("wait for tokens", ret);
	printf("consumer: woke up, saw sem[%d] = %d\n", SEM_TOKENS, seen);

	ret = ncsync_event_set(dev, EVT_DONE);
	if (ret)
		fail("set event", ret);
	printf("consumer: set event[%d]\n", EVT_DONE);
	return NULL;
}

/* Open core 0, print what it reports, and reset it. */
static void open_and_reset(void)
{
	const struct ncsync_info *info;
	int ret;

	ret = ncsync_open(0, true, &dev);
	if (ret)
		fail("open /dev/ncsync0", ret);
	info = ncsync_get_info(dev);
	printf("ncsync API %u: core %u of %u, %u semaphores, %u events, runtime reserves sems %u-%u\n",
	       info->api_version, info->core, info->num_cores, info->num_sems,
	       info->num_events, info->rt_reserved_sem_first,
	       info->num_sems - 1);

	ret = ncsync_reset(dev);
	if (ret)
		fail("reset", ret);
}

/* The producer: post PRODUCED tokens through the increment window. */
static void produce(void)
{
	uint32_t one = 1;
	int i, ret;

	for (i = 0; i < PRODUCED; i++) {
		usleep(100000);
		/* pwrite of 1 to the semaphore increment window */
		ret = ncsync_csr_write(dev, NCSYNC_CSR_SEM_INC + 4 * SEM_TOKENS,
				       &one, 1);
		if (ret)
			fail("pwrite inc window", ret);
		printf("producer: pwrite(0x%04x, 1) -> mapping reads sem[%d] = %d\n",
		       NCSYNC_CSR_SEM_INC + 4 * SEM_TOKENS, SEM_TOKENS,
		       ncsync_sem_read(dev, SEM_TOKENS));
	}
}

/* Wait for the consumer's event, consuming it. */
static void wait_done(void)
{
	struct timespec deadline;
	int ret;

	ncsync_deadline_after(&deadline, 30LL * 1000000000);
	ret = ncsync_wait_event(dev, EVT_DONE, NCSYNC_WAIT_EVT_SET_THEN_CLEAR,
				&deadline);
	if (ret)
		fail("wait for event", ret);
	printf("producer: consumed event[%d]; it now reads %d\n", EVT_DONE,
	       ncsync_event_read(dev, EVT_DONE));
}

/* A wait that cannot be satisfied must end at its deadline. */
static void expect_timeout(void)
{
	struct timespec deadline;
	int ret;

	ncsync_deadline_after(&deadline, 100LL * 1000000);
	ret = ncsync_wait_sem(dev, SEM_TOKENS, NCSYNC_WAIT_SEM_EQ, 0,
			      &deadline, NULL);
	printf("producer: wait sem[%d] == 0 with a deadline 100 ms ahead -> %s\n",
	       SEM_TOKENS, ret == -ETIMEDOUT ? "ETIMEDOUT, as expected" :
	       ret ? strerror(-ret) : "passed");
	if (ret != -ETIMEDOUT)
		fail("expected a timeout", ret ? ret : -EPROTO);
}

/* Print the core's change and reset counters. */
static void print_stats(void)
{
	struct ncsync_stats stats;
	int ret;

	ret = ncsync_stats(dev, &stats);
	if (ret)
		fail("stats", ret);
	printf("stats: %llu changes, %llu resets\n",
	       (unsigned long long)stats.seq,
	       (unsigned long long)stats.resets);
}

int main(void)
{
	pthread_t thr;
	int ret;

	open_and_reset();

	ret = pthread_create(&thr, NULL, consumer, NULL);
	if (ret)
		fail("pthread_create", -ret);

	produce();
	wait_done();
	pthread_join(thr, NULL);

	expect_timeout();
	print_stats();

	if (ncsync_sem_read(dev, SEM_TOKENS) != PRODUCED ||
	    ncsync_event_read(dev, EVT_DONE)) {
		fprintf(stderr, "ncsync-demo: unexpected final state\n");
		return 1;
	}
	ncsync_close(dev);
	printf("ncsync-demo: OK\n");
	return 0;
}
