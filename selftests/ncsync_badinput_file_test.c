// SPDX-License-Identifier: GPL-2.0
/*
 * The bad-input table (ncsync_badinput.h), the file operations: pread,
 * pwrite, read, write, lseek, mmap, mprotect, mremap and open.
 *
 * Run inside the test VM:  tools/vm-run build/selftests/ncsync_badinput_file_test
 */
#include "ncsync_badinput.h"

/* ---------------------------------------------------------------------- */
/* File operation cases                                                    */

/* A buffer of @len bytes of value-1 registers placed as @kind says. */
static void *file_buf(FIXTURE_DATA(badinput) *self, int kind, size_t len)
{
	static __u32 ones[LONG_Q * REC / 4];
	unsigned int i;

	for (i = 0; i < sizeof(ones) / 4; i++)
		ones[i] = 1;
	if (len > self->c.size || !len)
		return kind == P_OK ? self->c.base :
				      region_put(&self->c, kind, ones, 4);
	return region_put(&self->c, kind, ones, len);
}

static int call_pread(struct __test_metadata *_metadata,
		      FIXTURE_DATA(badinput) *self,
		      const FIXTURE_VARIANT(badinput) *v)
{
	void *buf = file_buf(self, v->ptr, v->len);
	ssize_t n = pread(fd_of(self, v->fdk), buf, v->len, v->off);

	return n < 0 ? -errno : (int)n;
}

static int call_pwrite(struct __test_metadata *_metadata,
		       FIXTURE_DATA(badinput) *self,
		       const FIXTURE_VARIANT(badinput) *v)
{
	void *buf = file_buf(self, v->ptr, v->len);
	ssize_t n = pwrite(fd_of(self, v->fdk), buf, v->len, v->off);

	return n < 0 ? -errno : (int)n;
}

/* read(2) or write(2) at the file position @off; it must not move. */
static int call_rw_at(struct __test_metadata *_metadata,
		      FIXTURE_DATA(badinput) *self,
		      const FIXTURE_VARIANT(badinput) *v)
{
	int fd = fd_of(self, v->fdk);
	void *buf = file_buf(self, P_OK, v->len);
	ssize_t n;
	int ret;

	EXPECT_EQ(v->off, lseek(fd, v->off, SEEK_SET));
	n = v->rw == RW_READ ? read(fd, buf, v->len) : write(fd, buf, v->len);
	ret = n < 0 ? -errno : (int)n;
	if (ret < 0) {
		EXPECT_EQ(v->off, lseek(fd, 0, SEEK_CUR))
			TH_LOG("the file position moved");
	}
	return ret;
}

/* lseek(2) from position 0x100; a failure must not move it. */
static int call_lseek(struct __test_metadata *_metadata,
		      FIXTURE_DATA(badinput) *self,
		      const FIXTURE_VARIANT(badinput) *v)
{
	int fd = fd_of(self, v->fdk);
	off_t r;

	EXPECT_EQ(0x100, lseek(fd, 0x100, SEEK_SET));
	r = lseek(fd, v->off, v->whence);
	if (r >= 0)
		return (int)r;
	r = -errno;
	EXPECT_EQ(0x100, lseek(fd, 0, SEEK_CUR))
		TH_LOG("the file position moved");
	return (int)r;
}

static size_t map_len(FIXTURE_DATA(badinput) *self,
		      const FIXTURE_VARIANT(badinput) *v)
{
	return v->len_devmem ? self->devmem_size + v->len : v->len;
}

static int call_mmap(struct __test_metadata *_metadata,
		     FIXTURE_DATA(badinput) *self,
		     const FIXTURE_VARIANT(badinput) *v)
{
	size_t len = map_len(self, v);
	void *p = mmap(NULL, len, v->prot, v->mflags, fd_of(self, v->fdk),
		       v->off);

	if (p == MAP_FAILED)
		return -errno;
	munmap(p, len);
	return 0;
}

/* Map @len at @off readable (and shared), then mprotect(@prot). */
static int call_mprotect(struct __test_metadata *_metadata,
			 FIXTURE_DATA(badinput) *self,
			 const FIXTURE_VARIANT(badinput) *v)
{
	size_t len = map_len(self, v);
	void *p = mmap(NULL, len, PROT_READ, MAP_SHARED, fd_of(self, v->fdk),
		       v->off);
	int ret;

	ASSERT_NE(MAP_FAILED, p) TH_LOG("mmap: %s", strerror(errno));
	ret = mprotect(p, len, v->prot) ? -errno : 0;
	munmap(p, len);
	return ret;
}

/* Map @len at @off, then mremap() it to @len2. */
static int call_mremap(struct __test_metadata *_metadata,
		       FIXTURE_DATA(badinput) *self,
		       const FIXTURE_VARIANT(badinput) *v)
{
	size_t len = map_len(self, v);
	void *p = mmap(NULL, len, PROT_READ, MAP_SHARED, fd_of(self, v->fdk),
		       v->off);
	void *q;

	ASSERT_NE(MAP_FAILED, p) TH_LOG("mmap: %s", strerror(errno));
	q = mremap(p, len, v->len2, v->mflags);
	if (q == MAP_FAILED) {
		int ret = -errno;

		munmap(p, len);
		return ret;
	}
	munmap(q, v->len2);
	return 0;
}

/*
 * open(2) of a node with the module's major and the minor @off past the
 * last core (@off < 0: /dev/ncsync<cores>, which must not exist).
 */
static int call_open_core(struct __test_metadata *_metadata,
			  FIXTURE_DATA(badinput) *self,
			  const FIXTURE_VARIANT(badinput) *v)
{
	char path[64];
	struct stat st;
	int fd, ret;

	if (v->off < 0) {
		snprintf(path, sizeof(path), "/dev/ncsync%u", self->num_cores);
	} else {
		ASSERT_EQ(0, stat(DEV0, &st));
		unlink(NODE_PATH);
		if (mknod(NODE_PATH, S_IFCHR | 0600,
			  makedev(major(st.st_rdev),
				  minor(st.st_rdev) + self->num_cores +
				  v->off)))
			SKIP(return -v->err, "mknod: %s", strerror(errno));
		snprintf(path, sizeof(path), "%s", NODE_PATH);
	}
	fd = open(path, O_RDWR | O_CLOEXEC);
	ret = fd < 0 ? -errno : 0;
	if (fd >= 0)
		close(fd);
	if (v->off >= 0)
		unlink(NODE_PATH);
	return ret;
}

/* ---------------------------------------------------------------------- */
/* The table                                                               */

/* ---- pread(2) ---- */
#define RD(_name, _err, ...)	FILE_CASE(pread_##_name, call_pread, _err, \
					  __VA_ARGS__)
#define WR(_name, _err, ...)	FILE_CASE(pwrite_##_name, call_pwrite, _err,\
					  __VA_ARGS__)

RD(offset_2, EINVAL, .off = 2, .len = 4);
RD(offset_sem_plus_1, EINVAL, .off = NCSYNC_CSR_SEM_READ + 1, .len = 4);
RD(length_6, EINVAL, .off = 0, .len = 6);
RD(length_1, EINVAL, .off = NCSYNC_CSR_SEM_READ, .len = 1);
RD(length_3, EINVAL, .off = NCSYNC_CSR_SEM_READ, .len = 3);
RD(at_end, EINVAL, .off = NCSYNC_CSR_SIZE, .len = 4);
RD(crosses_end, EINVAL, .off = NCSYNC_CSR_SIZE - 4, .len = 8);
RD(whole_window_plus_4, EINVAL, .off = 0, .len = NCSYNC_CSR_SIZE + 4);
RD(devmem_offset, EINVAL, .off = NCSYNC_DEVMEM_OFFSET, .len = 4);
RD(offset_negative, EINVAL, .off = -4, .len = 4);
RD(offset_2_pow_40, EINVAL, .off = 1LL << 40, .len = 4);
RD(offset_llong_max, EINVAL, .off = LLONG_MAX - 3, .len = 4);
RD(length_1_gib, EINVAL, .off = 0, .len = 1U << 30);
RD(length_size_max, EFAULT, .off = 0, .len = SIZE_MAX);
RD(buffer_null, EFAULT, .off = 0, .len = 4, .ptr = P_NULL);
RD(buffer_unmapped, EFAULT, .off = 0, .len = 4, .ptr = P_UNMAPPED);
RD(buffer_kernel, EFAULT, .off = 0, .len = 4, .ptr = P_KERNEL);
RD(buffer_above_user, EFAULT, .off = 0, .len = 4, .ptr = P_HIGH);
RD(buffer_read_only, EFAULT, .off = NCSYNC_CSR_SEM_READ, .len = 1024,
	.ptr = P_RO);
RD(buffer_straddles_hole, EFAULT, .off = 0, .len = NCSYNC_CSR_SIZE,
	.ptr = P_STRADDLE);
RD(wronly, EBADF, .off = 0, .len = 4, .fdk = F_WO);
RD(ok_length_0_odd_offset, 0, .off = 3, .len = 0);
RD(ok_length_0_past_end, 0, .off = 1LL << 40, .len = 0);
RD(ok_last_register, 0, .off = NCSYNC_CSR_SIZE - 4, .len = 4, .expect = 4);

/* ---- pwrite(2): every register written would be 1 ---- */
WR(offset_2, EINVAL, .off = NCSYNC_CSR_SEM_SET + 2, .len = 4);
WR(length_5, EINVAL, .off = NCSYNC_CSR_SEM_SET, .len = 5);
WR(length_2, EINVAL, .off = NCSYNC_CSR_EVENTS, .len = 2);
WR(sem_read_window, EINVAL, .off = NCSYNC_CSR_SEM_READ, .len = 4);
WR(sem_read_window_last, EINVAL, .off = NCSYNC_CSR_SEM_SET - 4, .len = 4);
WR(reserved_first, EINVAL, .off = NCSYNC_CSR_WINDOW_SIZE, .len = 4);
WR(reserved_last, EINVAL, .off = NCSYNC_CSR_SEM_READ - 4, .len = 4);
WR(events_into_reserved, EINVAL, .off = NCSYNC_CSR_WINDOW_SIZE - 4,
	.len = 8);
WR(reserved_into_sem_read, EINVAL, .off = NCSYNC_CSR_SEM_READ - 4, .len = 8);
WR(sem_read_into_sem_set, EINVAL, .off = NCSYNC_CSR_SEM_SET - 4, .len = 8);
WR(whole_window, EINVAL, .off = 0, .len = NCSYNC_CSR_SIZE);
WR(set_inc_dec_windows_and_past_end, EINVAL, .off = NCSYNC_CSR_SEM_SET,
	.len = NCSYNC_CSR_SIZE - NCSYNC_CSR_SEM_SET + 4);
WR(at_end, EINVAL, .off = NCSYNC_CSR_SIZE, .len = 4);
WR(crosses_end, EINVAL, .off = NCSYNC_CSR_SIZE - 4, .len = 8);
WR(offset_negative, EINVAL, .off = -4, .len = 4);
WR(offset_2_pow_40, EINVAL, .off = 1LL << 40, .len = 4);
WR(devmem_offset, EINVAL, .off = NCSYNC_DEVMEM_OFFSET, .len = 4);
WR(length_1_gib, EINVAL, .off = NCSYNC_CSR_SEM_SET, .len = 1U << 30);
WR(length_size_max, EFAULT, .off = NCSYNC_CSR_SEM_SET, .len = SIZE_MAX);
WR(buffer_null, EFAULT, .off = NCSYNC_CSR_SEM_SET, .len = 4, .ptr = P_NULL);
WR(buffer_unmapped, EFAULT, .off = NCSYNC_CSR_SEM_INC, .len = 4,
	.ptr = P_UNMAPPED);
WR(buffer_kernel, EFAULT, .off = NCSYNC_CSR_SEM_DEC, .len = 4,
	.ptr = P_KERNEL);
WR(buffer_above_user, EFAULT, .off = NCSYNC_CSR_EVENTS, .len = 4,
	.ptr = P_HIGH);
WR(buffer_straddles_hole_events, EFAULT, .off = NCSYNC_CSR_EVENTS,
	.len = NCSYNC_CSR_WINDOW_SIZE, .ptr = P_STRADDLE);
WR(buffer_straddles_hole_sems, EFAULT, .off = NCSYNC_CSR_SEM_SET,
	.len = 3 * NCSYNC_CSR_WINDOW_SIZE, .ptr = P_STRADDLE);
WR(rdonly, EBADF, .off = NCSYNC_CSR_SEM_SET, .len = 4, .fdk = F_RO);
WR(ok_length_0_sem_read_window, 0, .off = NCSYNC_CSR_SEM_READ, .len = 0);
WR(ok_length_0_odd_offset, 0, .off = 7, .len = 0);

/* ---- read(2) and write(2) at the file position ---- */
FILE_CASE(read_at_end, call_rw_at, EINVAL, .rw = RW_READ,
	  .off = NCSYNC_CSR_SIZE, .len = 4);
FILE_CASE(read_at_odd_position, call_rw_at, EINVAL, .rw = RW_READ,
	  .off = 0x101, .len = 4);
FILE_CASE(write_at_end, call_rw_at, EINVAL, .rw = RW_WRITE,
	  .off = NCSYNC_CSR_SIZE, .len = 4);
FILE_CASE(write_at_odd_position, call_rw_at, EINVAL, .rw = RW_WRITE,
	  .off = NCSYNC_CSR_SEM_SET + 1, .len = 4);
FILE_CASE(write_at_sem_read_window, call_rw_at, EINVAL, .rw = RW_WRITE,
	  .off = NCSYNC_CSR_SEM_READ, .len = 4);
FILE_CASE(write_rdonly, call_rw_at, EBADF, .rw = RW_WRITE, .fdk = F_RO,
	  .off = NCSYNC_CSR_SEM_SET, .len = 4);
FILE_CASE(read_wronly, call_rw_at, EBADF, .rw = RW_READ, .fdk = F_WO,
	  .off = 0, .len = 4);

/* ---- lseek(2), from position 0x100 ---- */
#define SK(_name, _err, _off, _whence, ...)				\
	FILE_CASE(lseek_##_name, call_lseek, _err, .off = (_off),	\
		  .whence = (_whence), __VA_ARGS__)

SK(set_negative, EINVAL, -4, SEEK_SET);
SK(set_past_end, EINVAL, NCSYNC_CSR_SIZE + 4, SEEK_SET);
SK(set_llong_max, EINVAL, LLONG_MAX, SEEK_SET);
SK(set_llong_min, EINVAL, LLONG_MIN, SEEK_SET);
SK(cur_before_start, EINVAL, -0x104, SEEK_CUR);
SK(cur_past_end, EINVAL, NCSYNC_CSR_SIZE, SEEK_CUR);
SK(cur_llong_max, EINVAL, LLONG_MAX, SEEK_CUR);
SK(end_positive, EINVAL, 4, SEEK_END);
SK(end_before_start, EINVAL, -NCSYNC_CSR_SIZE - 4, SEEK_END);
SK(seek_data, EINVAL, 0, SEEK_DATA);
SK(seek_hole, EINVAL, 0, SEEK_HOLE);
SK(whence_5, EINVAL, 0, 5);
SK(whence_negative, EINVAL, 0, -1);
SK(ok_set_end, 0, NCSYNC_CSR_SIZE, SEEK_SET, .expect = NCSYNC_CSR_SIZE);
SK(ok_end_0, 0, 0, SEEK_END, .expect = NCSYNC_CSR_SIZE);
SK(ok_end_whole_window, 0, -NCSYNC_CSR_SIZE, SEEK_END, .expect = 0);
SK(ok_cur_0, 0, 0, SEEK_CUR, .expect = 0x100);

/* ---- mmap(2), mprotect(2), mremap(2) ---- */
#define MM(_name, _err, ...)	FILE_CASE(mmap_##_name, call_mmap, _err, \
					  __VA_ARGS__)
#define SH		MAP_SHARED
#define PR		PROT_READ
#define PG		4096

MM(private, EINVAL, .len = PG, .prot = PR, .mflags = MAP_PRIVATE);
MM(private_devmem, EINVAL, .off = NCSYNC_DEVMEM_OFFSET, .len = PG,
	.prot = PR, .mflags = MAP_PRIVATE);
MM(offset_page_1, EINVAL, .off = PG, .len = PG, .prot = PR, .mflags = SH);
MM(offset_page_2, EINVAL, .off = 2 * PG, .len = PG, .prot = PR,
	.mflags = SH);
MM(offset_devmem_plus_page, EINVAL, .off = NCSYNC_DEVMEM_OFFSET + PG,
	.len = PG, .prot = PR, .mflags = SH);
MM(offset_2_pow_40, EINVAL, .off = 1LL << 40, .len = PG, .prot = PR,
	.mflags = SH);
MM(offset_unaligned, EINVAL, .off = 0x10, .len = PG, .prot = PR,
	.mflags = SH);
MM(length_3_pages, EINVAL, .len = 3 * PG, .prot = PR, .mflags = SH);
MM(length_window_plus_1, EINVAL, .len = NCSYNC_CSR_SIZE + 1, .prot = PR,
	.mflags = SH);
MM(length_0, EINVAL, .len = 0, .prot = PR, .mflags = SH);
MM(prot_write, EACCES, .len = PG, .prot = PR | PROT_WRITE, .mflags = SH);
MM(prot_write_only, EACCES, .len = PG, .prot = PROT_WRITE, .mflags = SH);
MM(prot_exec, EACCES, .len = PG, .prot = PR | PROT_EXEC, .mflags = SH);
MM(devmem_too_long, EINVAL, .off = NCSYNC_DEVMEM_OFFSET, .len = PG,
	.len_devmem = true, .prot = PR, .mflags = SH);
MM(devmem_exec, EACCES, .off = NCSYNC_DEVMEM_OFFSET, .len = PG,
	.prot = PR | PROT_EXEC, .mflags = SH);
MM(rdonly_prot_write, EACCES, .fdk = F_RO, .len = PG,
	.prot = PR | PROT_WRITE, .mflags = SH);
MM(rdonly_devmem_prot_write, EACCES, .fdk = F_RO,
	.off = NCSYNC_DEVMEM_OFFSET, .len = PG, .prot = PR | PROT_WRITE,
	.mflags = SH);
MM(wronly, EACCES, .fdk = F_WO, .len = PG, .prot = PR, .mflags = SH);
MM(ok_window, 0, .len = NCSYNC_CSR_SIZE, .prot = PR, .mflags = SH);
MM(ok_devmem_rdonly, 0, .fdk = F_RO, .off = NCSYNC_DEVMEM_OFFSET,
	.len = PG, .prot = PR, .mflags = SH);
FILE_CASE(mprotect_window_write, call_mprotect, EACCES, .len = PG,
	  .prot = PR | PROT_WRITE);
FILE_CASE(mprotect_window_exec, call_mprotect, EACCES, .len = 2 * PG,
	  .prot = PR | PROT_EXEC);
FILE_CASE(mprotect_devmem_exec, call_mprotect, EACCES,
	  .off = NCSYNC_DEVMEM_OFFSET, .len = PG, .prot = PR | PROT_EXEC);
FILE_CASE(mprotect_rdonly_devmem_write, call_mprotect, EACCES,
	  .fdk = F_RO, .off = NCSYNC_DEVMEM_OFFSET, .len = PG,
	  .prot = PR | PROT_WRITE);
FILE_CASE(mremap_window_grow, call_mremap, EFAULT, .len = PG,
	  .len2 = 2 * PG, .mflags = MREMAP_MAYMOVE);
FILE_CASE(mremap_window_grow_in_place, call_mremap, EFAULT, .len = PG,
	  .len2 = 2 * PG, .mflags = 0);
FILE_CASE(mremap_devmem_grow, call_mremap, EFAULT,
	  .off = NCSYNC_DEVMEM_OFFSET, .len = 0, .len_devmem = true,
	  .len2 = 1U << 30, .mflags = MREMAP_MAYMOVE);

/* ---- open(2) of a core that does not exist ---- */
FILE_CASE(open_core_past_last_no_node, call_open_core, ENOENT, .off = -1);
FILE_CASE(open_minor_past_last_core, call_open_core, ENXIO, .off = 0);
FILE_CASE(open_minor_far_past_last_core, call_open_core, ENXIO,
	  .off = 200);

TEST_HARNESS_MAIN
