// SPDX-License-Identifier: GPL-2.0
/*
 * ncsync selftests of the /dev/ncsyncN ABI (ncsync_abi.h): mmap of the
 * CSR window and of the device memory (protections, bounds, fork, close,
 * MADV_DONTNEED).
 *
 * Run inside the test VM:
 *   tools/vm-run build/selftests/ncsync_abi_mmap_test
 */
#include "ncsync_abi.h"

/* ---------------------------------------------------------------------- */
/* mmap                                                                    */

TEST_F(core, mmap_live_view)
{
	static __u32 win[CSR_REGS];
	struct ncsync_op ops[2] = {
		mkop(SEM, NCSYNC_OP_INC, 255, 3),
		mkop(EVENT, NCSYNC_OP_SET, 200, 0),
	};
	volatile __u32 *m;

	m = mmap(NULL, NCSYNC_CSR_SIZE, PROT_READ, MAP_SHARED, self->fd, 0);
	ASSERT_NE(MAP_FAILED, m) TH_LOG("mmap: %s", strerror(errno));

	sem_put(_metadata, self->fd, 9, -3);
	EXPECT_EQ((__u32)-3, m[SEM_RD(9) / 4]);
	EXPECT_EQ((__u32)-3, m[SEM_SET(9) / 4]);
	EXPECT_EQ((__u32)-3, m[SEM_INC(9) / 4]);
	EXPECT_EQ((__u32)-3, m[SEM_DEC(9) / 4]);
	csr_put(_metadata, self->fd, EVT(7), 1);
	EXPECT_EQ(1U, m[EVT(7) / 4]);
	csr_put(_metadata, self->fd, EVT(7), 0);
	EXPECT_EQ(0U, m[EVT(7) / 4]);
	csr_put(_metadata, self->fd, SEM_INC(9), 4);
	EXPECT_EQ(1U, m[SEM_RD(9) / 4]);
	ASSERT_EQ(0, do_batch(self->fd, ops, 2, 0));
	EXPECT_EQ(3U, m[SEM_RD(255) / 4]);
	EXPECT_EQ(1U, m[EVT(200) / 4]);

	/* the whole mapping is what pread sees */
	seed(_metadata, self->fd);
	ASSERT_EQ(0, rd(self->fd, win, sizeof(win), 0));
	ASSERT_EQ(0, memcmp(win, (void *)m, sizeof(win)));

	core_reset(_metadata, self->fd);
	EXPECT_EQ(0U, m[SEM_RD(255) / 4]);
	EXPECT_EQ(0U, m[EVT(0) / 4]);
	munmap((void *)m, NCSYNC_CSR_SIZE);
}

TEST_F(core, mmap_shorter_length)
{
	volatile __u32 *m;

	m = mmap(NULL, 0x1000, PROT_READ, MAP_SHARED, self->fd, 0);
	ASSERT_NE(MAP_FAILED, m) TH_LOG("mmap 0x1000: %s", strerror(errno));
	csr_put(_metadata, self->fd, EVT(3), 1);
	EXPECT_EQ(1U, m[3]);
	munmap((void *)m, 0x1000);

	m = mmap(NULL, 4, PROT_READ, MAP_SHARED, self->fd, 0);
	ASSERT_NE(MAP_FAILED, m) TH_LOG("mmap 4: %s", strerror(errno));
	EXPECT_EQ(0U, m[0]);
	munmap((void *)m, 4);
}

TEST_F(core, mmap_prot_write_eacces)
{
	void *m;

	m = mmap(NULL, NCSYNC_CSR_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED,
		 self->fd, 0);
	EXPECT_EQ(MAP_FAILED, m);
	EXPECT_EQ(EACCES, errno);
	m = mmap(NULL, NCSYNC_CSR_SIZE, PROT_WRITE, MAP_SHARED, self->fd, 0);
	EXPECT_EQ(MAP_FAILED, m);
	EXPECT_EQ(EACCES, errno);
}

TEST_F(core, mmap_private_einval)
{
	void *m = mmap(NULL, NCSYNC_CSR_SIZE, PROT_READ, MAP_PRIVATE,
		       self->fd, 0);

	EXPECT_EQ(MAP_FAILED, m);
	EXPECT_EQ(EINVAL, errno);
}

TEST_F(core, mmap_bad_offset_einval)
{
	struct ncsync_info info;
	void *m;

	/* skip offsets that map something else (device memory) */
	ASSERT_EQ(0, ioctl(self->fd, NCSYNC_IOC_INFO, &info));
	if (info.devmem_size && info.devmem_offset <= 0x2000)
		SKIP(return, "device memory at %#x", info.devmem_offset);

	m = mmap(NULL, 0x1000, PROT_READ, MAP_SHARED, self->fd, 0x1000);
	EXPECT_EQ(MAP_FAILED, m);
	EXPECT_EQ(EINVAL, errno);
	m = mmap(NULL, 0x1000, PROT_READ, MAP_SHARED, self->fd, 0x2000);
	EXPECT_EQ(MAP_FAILED, m);
	EXPECT_EQ(EINVAL, errno);
}

TEST_F(core, mmap_too_long_einval)
{
	void *m;

	m = mmap(NULL, 0x3000, PROT_READ, MAP_SHARED, self->fd, 0);
	EXPECT_EQ(MAP_FAILED, m);
	EXPECT_EQ(EINVAL, errno);
	m = mmap(NULL, 0x100000, PROT_READ, MAP_SHARED, self->fd, 0);
	EXPECT_EQ(MAP_FAILED, m);
	EXPECT_EQ(EINVAL, errno);
}

TEST_F(core, mmap_mprotect_write_refused)
{
	volatile __u32 *m;

	m = mmap(NULL, NCSYNC_CSR_SIZE, PROT_READ, MAP_SHARED, self->fd, 0);
	ASSERT_NE(MAP_FAILED, m);
	EXPECT_EQ(-1, mprotect((void *)m, NCSYNC_CSR_SIZE,
			       PROT_READ | PROT_WRITE));
	EXPECT_EQ(EACCES, errno);
	EXPECT_EQ(-1, mprotect((void *)m, 0x1000, PROT_WRITE));
	EXPECT_EQ(EACCES, errno);
	csr_put(_metadata, self->fd, EVT(1), 1);
	EXPECT_EQ(1U, m[1]);
	munmap((void *)m, NCSYNC_CSR_SIZE);
}

TEST_F(core, mmap_cannot_grow)
{
	void *m, *m2;

	m = mmap(NULL, 0x1000, PROT_READ, MAP_SHARED, self->fd, 0);
	ASSERT_NE(MAP_FAILED, m);
	m2 = mremap(m, 0x1000, 0x2000, 0);
	EXPECT_EQ(MAP_FAILED, m2);
	EXPECT_EQ(EFAULT, errno);
	m2 = mremap(m, 0x1000, 0x3000, MREMAP_MAYMOVE);
	EXPECT_EQ(MAP_FAILED, m2);
	EXPECT_EQ(EFAULT, errno);
	munmap(m, 0x1000);
}

TEST_F(core, mmap_survives_fork)
{
	volatile __u32 *m;
	pid_t pid;

	m = mmap(NULL, NCSYNC_CSR_SIZE, PROT_READ, MAP_SHARED, self->fd, 0);
	ASSERT_NE(MAP_FAILED, m);
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		__s64 end = now_ns() + LONG_MS * NSEC_PER_MSEC;

		while (m[SEM_RD(3) / 4] != 42 || m[EVT(5) / 4] != 1) {
			if (now_ns() > end)
				_exit(1);
			usleep(1000);
		}
		_exit(m[SEM_DEC(3) / 4] == 42 ? 0 : 3);
	}
	sleep_ms(20);
	evt_put(_metadata, self->fd, 5, true);
	csr_put(_metadata, self->fd, SEM_SET(3), 42);
	EXPECT_EQ(0, reap(pid)) TH_LOG("child did not see the updates");
	munmap((void *)m, NCSYNC_CSR_SIZE);
}

TEST_F(core, mmap_outlives_close)
{
	volatile __u32 *m;
	int fd2 = open_dev(_metadata, 0, O_RDWR);

	m = mmap(NULL, NCSYNC_CSR_SIZE, PROT_READ, MAP_SHARED, fd2, 0);
	ASSERT_NE(MAP_FAILED, m);
	close(fd2);
	sem_put(_metadata, self->fd, 100, 1234);
	EXPECT_EQ(1234U, m[SEM_RD(100) / 4]);
	munmap((void *)m, NCSYNC_CSR_SIZE);
}

/* MADV_DONTNEED drops the pages; the next loads fault the live ones in. */
TEST_F(core, mmap_dontneed_csr_live)
{
	volatile __u32 *m;

	m = mmap(NULL, NCSYNC_CSR_SIZE, PROT_READ, MAP_SHARED, self->fd, 0);
	ASSERT_NE(MAP_FAILED, m) TH_LOG("mmap: %s", strerror(errno));
	sem_put(_metadata, self->fd, 9, -3);
	EXPECT_EQ((__u32)-3, m[SEM_RD(9) / 4]);

	ASSERT_EQ(0, madvise((void *)m, NCSYNC_CSR_SIZE, MADV_DONTNEED))
		TH_LOG("madvise: %s", strerror(errno));
	csr_put(_metadata, self->fd, SEM_SET(9), 77);
	csr_put(_metadata, self->fd, EVT(7), 1);
	EXPECT_EQ(77U, m[SEM_RD(9) / 4]);
	EXPECT_EQ(77U, m[SEM_DEC(9) / 4]);
	EXPECT_EQ(1U, m[EVT(7) / 4]);
	/* still a live view, not a copy taken at the fault */
	csr_put(_metadata, self->fd, SEM_INC(9), 3);
	EXPECT_EQ(80U, m[SEM_RD(9) / 4]);
	munmap((void *)m, NCSYNC_CSR_SIZE);
}

/* Each page faults back in at its own place, also in a mapping of page 2. */
TEST_F(core, mmap_dontneed_second_page)
{
	static __u32 win[CSR_REGS];
	volatile __u32 *m, *s;

	seed(_metadata, self->fd);
	m = mmap(NULL, NCSYNC_CSR_SIZE, PROT_READ, MAP_SHARED, self->fd, 0);
	ASSERT_NE(MAP_FAILED, m) TH_LOG("mmap: %s", strerror(errno));
	ASSERT_EQ(0, madvise((void *)m, NCSYNC_CSR_SIZE, MADV_DONTNEED))
		TH_LOG("madvise: %s", strerror(errno));
	ASSERT_EQ(0, rd(self->fd, win, sizeof(win), 0));
	EXPECT_EQ(0, memcmp(win, (void *)m, 0x1000));
	EXPECT_EQ(0, memcmp(win + 0x1000 / 4, (void *)(m + 0x1000 / 4),
			    0x1000));

	/* what is left of it maps the semaphore page only */
	ASSERT_EQ(0, munmap((void *)m, 0x1000));
	s = m + 0x1000 / 4;
	ASSERT_EQ(0, madvise((void *)s, 0x1000, MADV_DONTNEED))
		TH_LOG("madvise: %s", strerror(errno));
	csr_put(_metadata, self->fd, SEM_SET(5), 555);
	EXPECT_EQ(555U, s[(SEM_RD(5) - 0x1000) / 4]);
	EXPECT_EQ(555U, s[(SEM_INC(5) - 0x1000) / 4]);
	EXPECT_EQ((__u32)sem_pat(6), s[(SEM_RD(6) - 0x1000) / 4]);
	munmap((void *)s, 0x1000);
}

/* The byte the device-memory tests store at @i: differs from page to page. */
static __u8 devmem_pat(size_t i, __u8 seed)
{
	return (__u8)(seed + i * 7 + (i >> 12) * 101);
}

/* Map the whole device memory of @fd with @prot; its size in *@size. */
static volatile __u8 *devmem_mmap(struct __test_metadata *_metadata, int fd,
				  int prot, size_t *size)
{
	struct ncsync_info info;
	void *p;

	ASSERT_EQ(0, ioctl(fd, NCSYNC_IOC_INFO, &info));
	ASSERT_EQ(NCSYNC_DEVMEM_OFFSET, (int)info.devmem_offset);
	ASSERT_LE(0x2000, (int)info.devmem_size);
	*size = info.devmem_size;
	p = mmap(NULL, *size, prot, MAP_SHARED, fd, NCSYNC_DEVMEM_OFFSET);
	ASSERT_NE(MAP_FAILED, p) TH_LOG("mmap devmem: %s", strerror(errno));
	return p;
}

static void devmem_set(volatile __u8 *m, size_t size, __u8 seed)
{
	size_t i;

	for (i = 0; i < size; i++)
		m[i] = devmem_pat(i, seed);
}

/* The offset of the first byte that is not devmem_pat()'s, or @size. */
static size_t devmem_diff(const volatile __u8 *m, size_t size, __u8 seed)
{
	size_t i;

	for (i = 0; i < size && m[i] == devmem_pat(i, seed); i++)
		;
	return i;
}

TEST_F(core, mmap_dontneed_devmem_keeps_bytes)
{
	__u8 seed = (__u8)getpid();
	volatile __u8 *m, *m2;
	size_t size;

	m = devmem_mmap(_metadata, self->fd, PROT_READ | PROT_WRITE, &size);
	devmem_set(m, size, seed);
	ASSERT_EQ(0, madvise((void *)m, size, MADV_DONTNEED))
		TH_LOG("madvise: %s", strerror(errno));
	EXPECT_EQ(size, devmem_diff(m, size, seed));

	/* stores after it reach the device memory: another mapping sees them */
	ASSERT_EQ(0, madvise((void *)m, size, MADV_DONTNEED));
	devmem_set(m, size, seed + 1);
	m2 = devmem_mmap(_metadata, self->fd, PROT_READ, &size);
	EXPECT_EQ(size, devmem_diff(m2, size, seed + 1));
	munmap((void *)m2, size);
	munmap((void *)m, size);
}

TEST_F(core, mmap_dontneed_devmem_rdonly)
{
	int ro = open_dev(_metadata, 0, O_RDONLY);
	__u8 seed = (__u8)getpid() + 50;
	volatile __u8 *w, *r;
	size_t size;

	w = devmem_mmap(_metadata, self->fd, PROT_READ | PROT_WRITE, &size);
	r = devmem_mmap(_metadata, ro, PROT_READ, &size);
	devmem_set(w, size, seed);
	EXPECT_EQ(size, devmem_diff(r, size, seed));
	ASSERT_EQ(0, madvise((void *)r, size, MADV_DONTNEED))
		TH_LOG("madvise: %s", strerror(errno));
	EXPECT_EQ(size, devmem_diff(r, size, seed));
	ASSERT_EQ(0, madvise((void *)r, size, MADV_DONTNEED));
	devmem_set(w, size, seed + 1);
	EXPECT_EQ(size, devmem_diff(r, size, seed + 1));
	/* and it stays read-only */
	EXPECT_EQ(-1, mprotect((void *)r, size, PROT_READ | PROT_WRITE));
	EXPECT_EQ(EACCES, errno);
	munmap((void *)r, size);
	munmap((void *)w, size);
	close(ro);
}

TEST_HARNESS_MAIN
