// SPDX-License-Identifier: GPL-2.0
/*
 * ncsync selftests of the /dev/ncsyncN ABI (ncsync_abi.h): NCSYNC_IOC_INFO,
 * the cores apart, an unknown ioctl, read-only and write-only descriptors,
 * and the module held while a descriptor is open (last).
 *
 * Run inside the test VM:
 *   tools/vm-run build/selftests/ncsync_abi_info_test
 */
#include "ncsync_abi.h"

/* ---------------------------------------------------------------------- */
/* NCSYNC_IOC_INFO, cores                                                  */

TEST_F(core, info_fields)
{
	struct ncsync_info info;
	long param = ncsync_param("cores");
	long rsv = ncsync_param("rt_reserved_sems");

	memset(&info, 0xa5, sizeof(info));
	ASSERT_EQ(0, ioctl(self->fd, NCSYNC_IOC_INFO, &info));
	EXPECT_EQ((__u32)NCSYNC_API_VERSION, info.api_version);
	EXPECT_EQ(1U, info.api_version);
	EXPECT_EQ(0U, info.core);
	EXPECT_LE(1U, info.num_cores);
	EXPECT_EQ(256U, info.num_sems);
	EXPECT_EQ(256U, info.num_events);
	EXPECT_EQ(0x2000U, info.csr_size);
	EXPECT_LT(0U, info.rt_reserved_sem_count);
	EXPECT_EQ(256U, info.rt_reserved_sem_first +
		  info.rt_reserved_sem_count);
	EXPECT_LT(0U, info.rt_reserved_event_count);
	EXPECT_EQ(256U, info.rt_reserved_event_first +
		  info.rt_reserved_event_count);
	EXPECT_LE(1U, info.lnc);
	EXPECT_EQ(0U, info.num_cores % info.lnc);
	if (rsv >= 0) {
		EXPECT_EQ((__u32)rsv, info.rt_reserved_sem_count);
	}
	if (param >= 0) {
		EXPECT_EQ((__u32)param, info.num_cores);
	} else {
		TH_LOG("no /sys/module/ncsync/parameters/cores; %u cores",
		       info.num_cores);
	}
}

TEST_F(core, info_each_core)
{
	struct ncsync_info info0, info;
	char path[32];
	unsigned int c;
	int fd;

	ASSERT_EQ(0, ioctl(self->fd, NCSYNC_IOC_INFO, &info0));
	for (c = 0; c < info0.num_cores; c++) {
		fd = open_dev(_metadata, c, O_RDWR);
		ASSERT_EQ(0, ioctl(fd, NCSYNC_IOC_INFO, &info));
		EXPECT_EQ(c, info.core);
		EXPECT_EQ(info0.num_cores, info.num_cores);
		EXPECT_EQ(0x2000U, info.csr_size);
		close(fd);
	}
	snprintf(path, sizeof(path), DEV_FMT, info0.num_cores);
	fd = open(path, O_RDWR | O_CLOEXEC);
	EXPECT_EQ(-1, fd) TH_LOG("%s exists with num_cores %u", path,
				 info0.num_cores);
	if (fd >= 0)
		close(fd);
}

TEST_F(core, info_efault)
{
	struct ncsync_info zero = { 0 };
	void *ro = ro_copy(&zero, sizeof(zero));

	ASSERT_NE(NULL, ro);
	EXPECT_EQ(-1, ioctl(self->fd, NCSYNC_IOC_INFO, ro));
	EXPECT_EQ(EFAULT, errno);
	EXPECT_EQ(-1, ioctl(self->fd, NCSYNC_IOC_INFO, NULL));
	EXPECT_EQ(EFAULT, errno);
	EXPECT_EQ(-1, ioctl(self->fd, NCSYNC_IOC_INFO, (void *)8));
	EXPECT_EQ(EFAULT, errno);
}

TEST_F(core, unknown_ioctl_enotty)
{
	struct ncsync_op op[2];
	struct termios tio;
	struct snap s;
	__u64 buf[8];

	seed(_metadata, self->fd);
	snap_take(_metadata, self->fd, &s);
	memset(buf, 0, sizeof(buf));
	memset(op, 0, sizeof(op));
	op[0] = mkop(SEM, NCSYNC_OP_SET, 0, 1);

	EXPECT_EQ(-1, ioctl(self->fd, _IO(NCSYNC_IOC_MAGIC, 0x7f)));
	EXPECT_EQ(ENOTTY, errno);
	EXPECT_EQ(-1, ioctl(self->fd, _IOWR(NCSYNC_IOC_MAGIC, 0x07, __u64),
			    buf));
	EXPECT_EQ(ENOTTY, errno);
	/* a known number with a different size is a different ioctl */
	EXPECT_EQ(-1, ioctl(self->fd, _IOR(NCSYNC_IOC_MAGIC, 0x00, __u32),
			    buf));
	EXPECT_EQ(ENOTTY, errno);
	EXPECT_EQ(-1, ioctl(self->fd,
			    _IOWR(NCSYNC_IOC_MAGIC, 0x01, struct ncsync_op[2]),
			    op));
	EXPECT_EQ(ENOTTY, errno);
	EXPECT_EQ(-1, ioctl(self->fd, _IOWR('x', 1, int), buf));
	EXPECT_EQ(ENOTTY, errno);
	EXPECT_EQ(-1, tcgetattr(self->fd, &tio));
	EXPECT_EQ(ENOTTY, errno);
	snap_check(_metadata, self->fd, &s);
}

TEST_F(core, cores_independent)
{
	struct ncsync_info info;
	int fd1 = open(DEV1, O_RDWR | O_CLOEXEC);

	if (fd1 < 0 && errno == ENOENT)
		SKIP(return, "only one core");
	ASSERT_LE(0, fd1);
	ASSERT_EQ(0, ioctl(fd1, NCSYNC_IOC_INFO, &info));
	EXPECT_EQ(1U, info.core);
	core_reset(_metadata, fd1);

	sem_put(_metadata, self->fd, 5, 77);
	csr_put(_metadata, self->fd, EVT(9), 1);
	csr_put(_metadata, fd1, SEM_INC(6), 3);
	evt_put(_metadata, fd1, 10, true);

	EXPECT_EQ(77, sem_get(_metadata, self->fd, 5));
	EXPECT_EQ(0, sem_get(_metadata, fd1, 5));
	EXPECT_EQ(0U, csr_get(_metadata, fd1, SEM_RD(5)));
	EXPECT_EQ(1, evt_get(_metadata, self->fd, 9));
	EXPECT_EQ(0, evt_get(_metadata, fd1, 9));
	EXPECT_EQ(0U, csr_get(_metadata, fd1, EVT(9)));
	EXPECT_EQ(3, sem_get(_metadata, fd1, 6));
	EXPECT_EQ(0, sem_get(_metadata, self->fd, 6));
	EXPECT_EQ(1, evt_get(_metadata, fd1, 10));
	EXPECT_EQ(0, evt_get(_metadata, self->fd, 10));

	/* a reset of core 1 leaves core 0 alone, and the other way round */
	core_reset(_metadata, fd1);
	EXPECT_EQ(77, sem_get(_metadata, self->fd, 5));
	EXPECT_EQ(1, evt_get(_metadata, self->fd, 9));
	csr_put(_metadata, fd1, SEM_SET(6), 4);
	core_reset(_metadata, self->fd);
	EXPECT_EQ(4, sem_get(_metadata, fd1, 6));
	core_reset(_metadata, fd1);
	close(fd1);
}

TEST_F(core, cores_reset_other_core_waiter_unaffected)
{
	struct waiter wt;
	int fd1 = open(DEV1, O_RDWR | O_CLOEXEC), i;

	if (fd1 < 0 && errno == ENOENT)
		SKIP(return, "only one core");
	ASSERT_LE(0, fd1);
	core_reset(_metadata, fd1);
	waiter_start(_metadata, &wt, fd1, SEM, NCSYNC_WAIT_SEM_EQ, 0, 1,
		     300);
	waiter_blocked(&wt);
	for (i = 0; i < 5; i++) {
		core_reset(_metadata, self->fd);
		csr_put(_metadata, self->fd, SEM_SET(0), 1);
		sleep_ms(10);
	}
	EXPECT_EQ(-ETIMEDOUT, waiter_join(&wt));
	close(fd1);
}

/* ---------------------------------------------------------------------- */
/* A read-only descriptor                                                  */

TEST_F(core, rdonly_can_read_and_wait)
{
	int ro = open_dev(_metadata, 0, O_RDONLY);
	struct ncsync_op ops[2] = {
		mkop(SEM, NCSYNC_OP_READ, 4, 0),
		mkop(EVENT, NCSYNC_OP_READ, 3, 0),
	};
	struct ncsync_info info;
	struct ncsync_stats st;
	struct waiter wt;
	__u32 v;

	seed(_metadata, self->fd);
	ASSERT_EQ(0, rd(ro, &v, 4, SEM_RD(4)));
	EXPECT_EQ((__u32)sem_pat(4), v);
	EXPECT_EQ(sem_pat(4), sem_get(_metadata, ro, 4));
	EXPECT_EQ(1, evt_get(_metadata, ro, 3));
	ASSERT_EQ(0, do_batch(ro, ops, 2, 0));
	EXPECT_EQ(sem_pat(4), ops[0].after);
	EXPECT_EQ(1, ops[1].after);
	ASSERT_EQ(0, ioctl(ro, NCSYNC_IOC_INFO, &info));
	EXPECT_EQ(0U, info.core);
	stats_get(_metadata, ro, &st);
	ack(_metadata, ro);
	EXPECT_EQ(0, poll_fd(ro, 0));

	EXPECT_EQ(0, do_wait(ro, SEM, NCSYNC_WAIT_SEM_EQ, 4, sem_pat(4),
			     PAST_MS, NULL));
	EXPECT_EQ(0, do_wait(ro, EVENT, NCSYNC_WAIT_EVT_CLEAR, 1, 0,
			     PAST_MS, NULL));
	waiter_start(_metadata, &wt, ro, EVENT, NCSYNC_WAIT_EVT_SET, 1, 0,
		     LONG_MS);
	waiter_blocked(&wt);
	evt_put(_metadata, self->fd, 1, true);
	EXPECT_EQ(0, waiter_join(&wt));
	EXPECT_EQ(1, wt.w.result);
	EXPECT_EQ(POLL_READABLE, poll_fd(ro, 0));
	close(ro);
}

/* model.rst, "Read-only descriptors": they can read, map and wait */
TEST_F(core, rdonly_can_map)
{
	int ro = open_dev(_metadata, 0, O_RDONLY);
	volatile __u32 *m;

	m = mmap(NULL, NCSYNC_CSR_SIZE, PROT_READ, MAP_SHARED, ro, 0);
	ASSERT_NE(MAP_FAILED, m)
		TH_LOG("mmap of an O_RDONLY fd: %s", strerror(errno));
	sem_put(_metadata, self->fd, 4, 44);
	EXPECT_EQ(44U, m[SEM_RD(4) / 4]);
	evt_put(_metadata, self->fd, 1, true);
	EXPECT_EQ(1U, m[EVT(1) / 4]);
	EXPECT_EQ(-1, mprotect((void *)m, NCSYNC_CSR_SIZE,
			       PROT_READ | PROT_WRITE));
	EXPECT_EQ(EACCES, errno);
	munmap((void *)m, NCSYNC_CSR_SIZE);
	close(ro);
}

TEST_F(core, rdonly_cannot_change)
{
	int ro = open_dev(_metadata, 0, O_RDONLY);
	struct ncsync_op ops[2] = {
		mkop(SEM, NCSYNC_OP_READ, 0, 0),
		mkop(SEM, NCSYNC_OP_INC, 0, 1),
	};
	struct snap s;

	seed(_metadata, self->fd);
	snap_take(_metadata, self->fd, &s);
	EXPECT_EQ(-EBADF, wr32(ro, SEM_INC(0), 1));
	EXPECT_EQ(-EBADF, wr32(ro, EVT(1), 1));
	EXPECT_EQ(-1, write(ro, &(__u32){ 1 }, 4));
	EXPECT_EQ(EBADF, errno);
	EXPECT_EQ(-EBADF, do_op(ro, SEM, NCSYNC_OP_SET, 0, 1, NULL));
	EXPECT_EQ(-EBADF, do_op(ro, SEM, NCSYNC_OP_INC, 0, 1, NULL));
	EXPECT_EQ(-EBADF, do_op(ro, SEM, NCSYNC_OP_DEC, 0, 1, NULL));
	EXPECT_EQ(-EBADF, do_op(ro, EVENT, NCSYNC_OP_SET, 1, 0, NULL));
	EXPECT_EQ(-EBADF, do_op(ro, EVENT, NCSYNC_OP_CLEAR, 0, 0, NULL));
	EXPECT_EQ(-EBADF, do_batch(ro, ops, 2, 0));
	EXPECT_EQ(-EBADF, do_batch(ro, &ops[1], 1, 0));
	EXPECT_EQ(-EBADF, do_reset(ro, 0, 0));
	/* consuming waits change the event */
	EXPECT_EQ(-EBADF, do_wait(ro, EVENT, NCSYNC_WAIT_EVT_SET_THEN_CLEAR, 0,
				  0, PAST_MS, NULL));
	EXPECT_EQ(-EBADF, do_wait(ro, EVENT, NCSYNC_WAIT_EVT_CLEAR_THEN_SET, 1,
				  0, PAST_MS, NULL));
	/* argument checks come first */
	EXPECT_EQ(-EINVAL, do_op(ro, SEM, NCSYNC_OP_INC, 256, 1, NULL));
	EXPECT_EQ(-EINVAL, do_op(ro, EVENT, NCSYNC_OP_SET, 0, 1, NULL));
	EXPECT_EQ(-EINVAL, do_reset(ro, 1, 0));
	EXPECT_EQ(-EINVAL, do_wait(ro, EVENT, NCSYNC_WAIT_EVT_SET_THEN_CLEAR,
				   256, 0, PAST_MS, NULL));
	EXPECT_EQ(MAP_FAILED, mmap(NULL, NCSYNC_CSR_SIZE, PROT_READ | PROT_WRITE,
				   MAP_SHARED, ro, 0));
	EXPECT_EQ(EACCES, errno);
	snap_check(_metadata, self->fd, &s);
	close(ro);
}

TEST_F(core, wronly_cannot_read_or_map)
{
	int wo = open_dev(_metadata, 0, O_WRONLY);
	__u32 v;

	EXPECT_EQ(-EBADF, rd(wo, &v, 4, SEM_RD(0)));
	EXPECT_EQ(MAP_FAILED, mmap(NULL, NCSYNC_CSR_SIZE, PROT_READ,
				   MAP_SHARED, wo, 0));
	EXPECT_EQ(EACCES, errno);
	EXPECT_EQ(0, wr32(wo, SEM_INC(0), 2));
	EXPECT_EQ(2, sem_get(_metadata, wo, 0));
	close(wo);
}

/* ---------------------------------------------------------------------- */
/* The module stays while a descriptor is open.  Last: it must not unload. */

TEST_F(core, zz_module_busy_while_open)
{
	FILE *f = fopen("/sys/module/ncsync/refcnt", "re");
	long refcnt = -1;
	int ret;

	if (!f)
		SKIP(return, "no /sys/module/ncsync/refcnt");
	if (fscanf(f, "%ld", &refcnt) != 1)
		refcnt = -1;
	fclose(f);
	/* with refcnt 0 delete_module would succeed: do not try it */
	ASSERT_LT(0, refcnt) TH_LOG("module refcount %ld with %s open",
				    refcnt, DEV0);
	ret = syscall(SYS_delete_module, "ncsync", O_NONBLOCK);
	if (ret == -1 && errno == EPERM)
		SKIP(return, "delete_module needs CAP_SYS_MODULE");
	ASSERT_EQ(-1, ret) TH_LOG("ncsync was unloaded!");
	EXPECT_TRUE(errno == EWOULDBLOCK || errno == EBUSY)
		TH_LOG("delete_module: %s", strerror(errno));
}

TEST_HARNESS_MAIN
