// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * libncsync: the device API over /dev/ncsyncN.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "ncsync.h"

/* @map first: the inline readers of <ncsync.h> cast the device to it. */
struct ncsync_dev {
	struct ncsync_dev_map map;
	struct ncsync_info info;
};

/**
 * ncsync_ioctl() - the library's one way to make an ioctl of a core.
 * @dev: the device.
 * @cmd: NCSYNC_IOC_*.
 * @arg: its argument.
 *
 * Return: 0 or a negative errno.
 */
int ncsync_ioctl(const struct ncsync_dev *dev, unsigned long cmd, void *arg)
{
	int ret;

	/* A wait's EINTR is the caller's to see; the others are retried. */
	do {
		ret = ioctl(dev->map.fd, cmd, arg);
	} while (ret < 0 && errno == EINTR && cmd != NCSYNC_IOC_WAIT &&
		 cmd != NCSYNC_IOC_PROG_WAIT);
	return ret < 0 ? -errno : 0;
}

int ncsync_open(unsigned int core, bool writable, struct ncsync_dev **devp)
{
	struct ncsync_dev *dev;
	char path[32];
	void *map;
	int ret;

	dev = calloc(1, sizeof(*dev));
	if (!dev)
		return -ENOMEM;
	snprintf(path, sizeof(path), "/dev/ncsync%u", core);
	dev->map.fd = open(path, (writable ? O_RDWR : O_RDONLY) | O_CLOEXEC);
	if (dev->map.fd < 0) {
		ret = -errno;
		goto err_free;
	}
	ret = ncsync_ioctl(dev, NCSYNC_IOC_INFO, &dev->info);
	if (ret)
		goto err_close;
	if (dev->info.api_version != NCSYNC_API_VERSION) {
		ret = -EPROTO;
		goto err_close;
	}
	map = mmap(NULL, NCSYNC_CSR_SIZE, PROT_READ, MAP_SHARED, dev->map.fd, 0);
	if (map == MAP_FAILED) {
		ret = -errno;
		goto err_close;
	}
	dev->map.csr = map;
	*devp = dev;
	return 0;

err_close:
	close(dev->map.fd);
err_free:
	free(dev);
	return ret;
}

void ncsync_close(struct ncsync_dev *dev)
{
	if (!dev)
		return;
	munmap((void *)dev->map.csr, NCSYNC_CSR_SIZE);
	close(dev->map.fd);
	free(dev);
}

int ncsync_fd(const struct ncsync_dev *dev)
{
	return dev->map.fd;
}

const struct ncsync_info *ncsync_get_info(const struct ncsync_dev *dev)
{
	return &dev->info;
}

int ncsync_csr_read(struct ncsync_dev *dev, uint32_t addr, uint32_t *vals,
		    unsigned int n)
{
	ssize_t len = (ssize_t)n * 4;
	ssize_t ret = pread(dev->map.fd, vals, len, addr);

	if (ret < 0)
		return -errno;
	return ret == len ? 0 : -EIO;
}

int ncsync_csr_write(struct ncsync_dev *dev, uint32_t addr,
		     const uint32_t *vals, unsigned int n)
{
	ssize_t len = (ssize_t)n * 4;
	ssize_t ret = pwrite(dev->map.fd, vals, len, addr);

	if (ret < 0)
		return -errno;
	return ret == len ? 0 : -EIO;
}

static int ncsync_one_op(struct ncsync_dev *dev, uint8_t bank, uint8_t op,
			 unsigned int idx, uint32_t value, int32_t *after)
{
	struct ncsync_op o = {
		.bank = bank, .op = op, .index = idx, .value = value,
	};
	int ret = ncsync_ioctl(dev, NCSYNC_IOC_OP, &o);

	if (!ret && after)
		*after = o.after;
	return ret;
}

int ncsync_sem_set(struct ncsync_dev *dev, unsigned int idx, int32_t value,
		   int32_t *after)
{
	return ncsync_one_op(dev, NCSYNC_BANK_SEM, NCSYNC_OP_SET, idx,
			     (uint32_t)value, after);
}

int ncsync_sem_inc(struct ncsync_dev *dev, unsigned int idx, uint32_t n,
		   int32_t *after)
{
	return ncsync_one_op(dev, NCSYNC_BANK_SEM, NCSYNC_OP_INC, idx, n,
			     after);
}

int ncsync_sem_dec(struct ncsync_dev *dev, unsigned int idx, uint32_t n,
		   int32_t *after)
{
	return ncsync_one_op(dev, NCSYNC_BANK_SEM, NCSYNC_OP_DEC, idx, n,
			     after);
}

int ncsync_event_set(struct ncsync_dev *dev, unsigned int idx)
{
	return ncsync_one_op(dev, NCSYNC_BANK_EVENT, NCSYNC_OP_SET, idx, 0,
			     NULL);
}

int ncsync_event_clear(struct ncsync_dev *dev, unsigned int idx)
{
	return ncsync_one_op(dev, NCSYNC_BANK_EVENT, NCSYNC_OP_CLEAR, idx, 0,
			     NULL);
}

int ncsync_batch(struct ncsync_dev *dev, struct ncsync_op *ops,
		 unsigned int count)
{
	struct ncsync_batch b = {
		.ops = (uintptr_t)ops, .count = count,
	};

	return ncsync_ioctl(dev, NCSYNC_IOC_BATCH, &b);
}

static int ncsync_do_wait(struct ncsync_dev *dev, struct ncsync_wait *w,
			  const struct timespec *deadline)
{
	if (deadline) {
		w->deadline.tv_sec = deadline->tv_sec;
		w->deadline.tv_nsec = deadline->tv_nsec;
	} else {
		w->flags |= NCSYNC_WAIT_F_NO_DEADLINE;
	}
	return ncsync_ioctl(dev, NCSYNC_IOC_WAIT, w);
}

int ncsync_wait_sem(struct ncsync_dev *dev, unsigned int idx, uint8_t mode,
		    int32_t threshold, const struct timespec *deadline,
		    int32_t *seen)
{
	struct ncsync_wait w = {
		.bank = NCSYNC_BANK_SEM, .mode = mode, .index = idx,
		.value = threshold,
	};
	int ret = ncsync_do_wait(dev, &w, deadline);

	if (!ret && seen)
		*seen = w.result;
	return ret;
}

int ncsync_wait_event(struct ncsync_dev *dev, unsigned int idx, uint8_t mode,
		      const struct timespec *deadline)
{
	struct ncsync_wait w = {
		.bank = NCSYNC_BANK_EVENT, .mode = mode, .index = idx,
	};

	return ncsync_do_wait(dev, &w, deadline);
}

/*
 * Now + @ns, saturated: never past the largest time a timespec holds (a
 * wait without end), never before 0 (a deadline that has passed; a
 * negative one is refused by the kernel).
 */
void ncsync_deadline_after(struct timespec *ts, int64_t ns)
{
	const int64_t nsec_per_sec = 1000000000;
	int64_t sec;

	clock_gettime(CLOCK_MONOTONIC, ts);
	sec = ns / nsec_per_sec;
	ns = ns % nsec_per_sec + ts->tv_nsec;	/* -1e9 < ns < 2e9 */
	if (ns >= nsec_per_sec) {
		ns -= nsec_per_sec;
		sec++;
	} else if (ns < 0) {
		ns += nsec_per_sec;
		sec--;
	}
	if (sec > 0 && ts->tv_sec > INT64_MAX - sec) {
		ts->tv_sec = INT64_MAX;
		ts->tv_nsec = nsec_per_sec - 1;
	} else if (ts->tv_sec + sec < 0) {
		ts->tv_sec = 0;
		ts->tv_nsec = 0;
	} else {
		ts->tv_sec += sec;
		ts->tv_nsec = ns;
	}
}

int ncsync_reset(struct ncsync_dev *dev)
{
	struct ncsync_reset r = { 0 };

	return ncsync_ioctl(dev, NCSYNC_IOC_RESET, &r);
}

int ncsync_ack(struct ncsync_dev *dev, uint64_t *seq)
{
	struct ncsync_seq s;
	int ret = ncsync_ioctl(dev, NCSYNC_IOC_ACK, &s);

	if (!ret && seq)
		*seq = s.seq;
	return ret;
}

int ncsync_stats(struct ncsync_dev *dev, struct ncsync_stats *stats)
{
	return ncsync_ioctl(dev, NCSYNC_IOC_STATS, stats);
}

int ncsync_program_wait(struct ncsync_dev *dev, uint32_t id,
			const struct timespec *deadline, uint32_t *state)
{
	struct ncsync_prog_wait w = { .id = id };
	int ret;

	if (deadline) {
		w.deadline.tv_sec = deadline->tv_sec;
		w.deadline.tv_nsec = deadline->tv_nsec;
	} else {
		w.flags = NCSYNC_WAIT_F_NO_DEADLINE;
	}
	ret = ncsync_ioctl(dev, NCSYNC_IOC_PROG_WAIT, &w);
	if (!ret && state)
		*state = w.state;
	return ret;
}

int ncsync_program_status(struct ncsync_dev *dev, uint32_t id, bool release,
			  struct ncsync_prog_status *status,
			  struct ncsync_sem_value *sems)
{
	memset(status, 0, sizeof(*status));
	status->id = id;
	status->flags = release ? NCSYNC_STATUS_F_RELEASE : 0;
	status->sems = (uintptr_t)sems;
	return ncsync_ioctl(dev, NCSYNC_IOC_PROG_STATUS, status);
}

int ncsync_program_status_core(struct ncsync_dev *dev, uint32_t id,
			       unsigned int core_pos,
			       struct ncsync_prog_status *status,
			       struct ncsync_sem_value *sems)
{
	memset(status, 0, sizeof(*status));
	status->id = id;
	status->flags = NCSYNC_STATUS_F_CORE;
	status->core = core_pos;
	status->sems = (uintptr_t)sems;
	return ncsync_ioctl(dev, NCSYNC_IOC_PROG_STATUS, status);
}

int ncsync_program_cancel(struct ncsync_dev *dev, uint32_t id)
{
	struct ncsync_prog_cancel c = { .id = id };

	return ncsync_ioctl(dev, NCSYNC_IOC_PROG_CANCEL, &c);
}
