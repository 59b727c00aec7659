// SPDX-License-Identifier: GPL-2.0
/*
 * ncsync selftests of the /dev/ncsyncN ABI (ncsync_abi.h): the CSR window
 * through pread/pwrite (windows, bounds, alignment, multi-register writes,
 * file position, lseek).
 *
 * Run inside the test VM:
 *   tools/vm-run build/selftests/ncsync_abi_csr_test
 */
#include "ncsync_abi.h"

/* NULL, hidden from the compiler's nonnull checks */
static volatile uintptr_t null_addr;
#define BADPTR	((void *)null_addr)

/* ---------------------------------------------------------------------- */
/* The CSR window through pread/pwrite                                     */

TEST_F(core, csr_zero_after_reset)
{
	static __u32 win[CSR_REGS];
	unsigned int i;

	seed(_metadata, self->fd);
	core_reset(_metadata, self->fd);
	ASSERT_EQ(0, rd(self->fd, win, sizeof(win), 0));
	for (i = 0; i < CSR_REGS; i++) {
		ASSERT_EQ(0U, win[i]) TH_LOG("CSR @%#x", i * 4);
	}
}

TEST_F(core, csr_whole_window_read)
{
	static __u32 win[CSR_REGS];
	unsigned int i;

	seed(_metadata, self->fd);
	ASSERT_EQ(NCSYNC_CSR_SIZE, pread(self->fd, win, sizeof(win), 0));
	for (i = 0; i < 256; i++) {
		ASSERT_EQ((__u32)!(i % 3), win[EVT(i) / 4]) TH_LOG("event %u", i);
		ASSERT_EQ((__u32)sem_pat(i), win[SEM_RD(i) / 4]);
		ASSERT_EQ((__u32)sem_pat(i), win[SEM_SET(i) / 4]);
		ASSERT_EQ((__u32)sem_pat(i), win[SEM_INC(i) / 4]);
		ASSERT_EQ((__u32)sem_pat(i), win[SEM_DEC(i) / 4]);
	}
	for (i = 0x400 / 4; i < 0x1000 / 4; i++) {
		ASSERT_EQ(0U, win[i]) TH_LOG("reserved @%#x", i * 4);
	}
	/* a read spanning windows */
	ASSERT_EQ(0, rd(self->fd, win, 16, 0x0FF8));
	EXPECT_EQ(0U, win[0]);
	EXPECT_EQ(0U, win[1]);
	EXPECT_EQ((__u32)sem_pat(0), win[2]);
	EXPECT_EQ((__u32)sem_pat(1), win[3]);
	/* the last register */
	EXPECT_EQ((__u32)sem_pat(255), csr_get(_metadata, self->fd, 0x1FFC));
	EXPECT_EQ(1U, csr_get(_metadata, self->fd, EVT(255)));
}

TEST_F(core, csr_length_zero)
{
	struct snap s;
	__u32 v = 5;

	seed(_metadata, self->fd);
	snap_take(_metadata, self->fd, &s);
	EXPECT_EQ(0, pread(self->fd, &v, 0, 0));
	EXPECT_EQ(0, pread(self->fd, &v, 0, SEM_RD(3)));
	EXPECT_EQ(0, pwrite(self->fd, &v, 0, SEM_INC(3)));
	EXPECT_EQ(0, pwrite(self->fd, &v, 0, EVT(0)));
	/* "a length of 0 returns 0 at any offset" */
	EXPECT_EQ(0, pread(self->fd, &v, 0, 1));
	EXPECT_EQ(0, pread(self->fd, &v, 0, 0x2000));
	EXPECT_EQ(0, pread(self->fd, &v, 0, 0x100000));
	EXPECT_EQ(0, pwrite(self->fd, &v, 0, SEM_RD(0)));
	EXPECT_EQ(0, pwrite(self->fd, &v, 0, 0x400));
	EXPECT_EQ(0, pwrite(self->fd, &v, 0, 0x1803));
	EXPECT_EQ(0, pwrite(self->fd, &v, 0, 0x2000));
	EXPECT_EQ(5U, v);
	snap_check(_metadata, self->fd, &s);
}

TEST_F(core, csr_pread_unaligned_offset)
{
	static const off_t offs[] = { 1, 2, 3, 0x1001, 0x1402, 0x1FFD };
	__u32 v[2];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(offs); i++) {
		EXPECT_EQ(-EINVAL, rd(self->fd, v, 4, offs[i]))
			TH_LOG("offset %#lx", (long)offs[i]);
		EXPECT_EQ(-EINVAL, rd(self->fd, v, 8, offs[i]))
			TH_LOG("offset %#lx", (long)offs[i]);
	}
}

TEST_F(core, csr_pread_bad_length)
{
	static const size_t lens[] = { 1, 2, 3, 5, 6, 7, 4095 };
	static char buf[8192];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(lens); i++) {
		EXPECT_EQ(-EINVAL, rd(self->fd, buf, lens[i], 0))
			TH_LOG("length %zu", lens[i]);
		EXPECT_EQ(-EINVAL, rd(self->fd, buf, lens[i], 0x1000))
			TH_LOG("length %zu", lens[i]);
	}
}

TEST_F(core, csr_pread_out_of_range)
{
	static const struct { off_t off; size_t len; } bad[] = {
		{ 0x2000, 4 }, { 0x1FFC, 8 }, { 0x1000, 0x1004 },
		{ 0, 0x2004 }, { 0x4000, 4 }, { 0x100000000LL, 4 },
		{ -4, 4 },
	};
	static char buf[0x3000];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		EXPECT_EQ(-EINVAL, rd(self->fd, buf, bad[i].len, bad[i].off))
			TH_LOG("%zu bytes @%#llx", bad[i].len,
			       (long long)bad[i].off);
	}
	EXPECT_EQ(0, rd(self->fd, buf, 4, 0x1FFC));
	EXPECT_EQ(0, rd(self->fd, buf, 0x2000, 0));
	EXPECT_EQ(0, rd(self->fd, buf, 0x1000, 0x1000));
}

TEST_F(core, csr_pwrite_unaligned_offset)
{
	static const off_t offs[] = { 1, 2, 3, 0x1401, 0x1802, 0x1C03,
				      0x1FFE };
	__u32 v[2] = { 1, 1 };
	struct snap s;
	unsigned int i;

	seed(_metadata, self->fd);
	snap_take(_metadata, self->fd, &s);
	for (i = 0; i < ARRAY_SIZE(offs); i++) {
		EXPECT_EQ(-EINVAL, wr(self->fd, v, 4, offs[i]))
			TH_LOG("offset %#lx", (long)offs[i]);
		EXPECT_EQ(-EINVAL, wr(self->fd, v, 8, offs[i]))
			TH_LOG("offset %#lx", (long)offs[i]);
	}
	snap_check(_metadata, self->fd, &s);
}

TEST_F(core, csr_pwrite_bad_length)
{
	static const size_t lens[] = { 1, 2, 3, 5, 6, 7, 1023 };
	static __u32 buf[256] = { 1, 1, 1 };
	struct snap s;
	unsigned int i;

	seed(_metadata, self->fd);
	snap_take(_metadata, self->fd, &s);
	for (i = 0; i < ARRAY_SIZE(lens); i++) {
		EXPECT_EQ(-EINVAL, wr(self->fd, buf, lens[i], SEM_INC(0)))
			TH_LOG("length %zu", lens[i]);
		EXPECT_EQ(-EINVAL, wr(self->fd, buf, lens[i], EVT(0)))
			TH_LOG("length %zu", lens[i]);
	}
	snap_check(_metadata, self->fd, &s);
}

TEST_F(core, csr_pwrite_out_of_range)
{
	static const struct { off_t off; size_t len; } bad[] = {
		{ 0x2000, 4 }, { 0x1FFC, 8 }, { 0x1C00, 0x404 },
		{ 0x1400, 0xC04 }, { 0x10000, 4 }, { 0x100001800LL, 4 },
		{ -4, 4 },
	};
	static __u32 buf[0x1000] = { 7, 7, 7, 7 };
	struct snap s;
	unsigned int i;

	seed(_metadata, self->fd);
	snap_take(_metadata, self->fd, &s);
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		EXPECT_EQ(-EINVAL, wr(self->fd, buf, bad[i].len, bad[i].off))
			TH_LOG("%zu bytes @%#llx", bad[i].len,
			       (long long)bad[i].off);
	}
	snap_check(_metadata, self->fd, &s);
}

TEST_F(core, csr_events_window)
{
	struct ncsync_op op;

	EXPECT_EQ(0U, csr_get(_metadata, self->fd, EVT(7)));
	csr_put(_metadata, self->fd, EVT(7), 1);
	EXPECT_EQ(1U, csr_get(_metadata, self->fd, EVT(7)));
	EXPECT_EQ(1, evt_get(_metadata, self->fd, 7));
	csr_put(_metadata, self->fd, EVT(7), 0);
	EXPECT_EQ(0U, csr_get(_metadata, self->fd, EVT(7)));
	EXPECT_EQ(0, evt_get(_metadata, self->fd, 7));
	csr_put(_metadata, self->fd, EVT(7), 0x80000000U);
	EXPECT_EQ(1U, csr_get(_metadata, self->fd, EVT(7)));
	csr_put(_metadata, self->fd, EVT(7), 0);
	csr_put(_metadata, self->fd, EVT(7), 2);
	EXPECT_EQ(1U, csr_get(_metadata, self->fd, EVT(7)));
	csr_put(_metadata, self->fd, EVT(255), 0xFFFFFFFFU);
	EXPECT_EQ(1U, csr_get(_metadata, self->fd, EVT(255)));
	ASSERT_EQ(0, do_op(self->fd, EVENT, NCSYNC_OP_READ, 255, 0, &op));
	EXPECT_EQ(1, op.after);
	/* neighbours untouched */
	EXPECT_EQ(0U, csr_get(_metadata, self->fd, EVT(6)));
	EXPECT_EQ(0U, csr_get(_metadata, self->fd, EVT(8)));
	EXPECT_EQ(0U, csr_get(_metadata, self->fd, EVT(254)));
}

TEST_F(core, csr_events_multi_register)
{
	__u32 v[256], r[256];
	unsigned int i;

	for (i = 0; i < 256; i++)
		v[i] = i % 5 ? 0 : i * 0x01010101U | 1;
	ASSERT_EQ(0, wr(self->fd, v, sizeof(v), 0));
	ASSERT_EQ(0, rd(self->fd, r, sizeof(r), 0));
	for (i = 0; i < 256; i++) {
		ASSERT_EQ((__u32)!(i % 5), r[i]) TH_LOG("event %u", i);
		ASSERT_EQ(!(i % 5), evt_get(_metadata, self->fd, i));
	}
}

TEST_F(core, csr_sem_read_window_refused)
{
	static __u32 buf[512];
	struct snap s;

	seed(_metadata, self->fd);
	snap_take(_metadata, self->fd, &s);
	EXPECT_EQ(-EINVAL, wr32(self->fd, SEM_RD(0), 0));
	EXPECT_EQ(-EINVAL, wr32(self->fd, SEM_RD(0), 5));
	EXPECT_EQ(-EINVAL, wr32(self->fd, SEM_RD(255), 5));
	EXPECT_EQ(-EINVAL, wr(self->fd, buf, sizeof(buf), SEM_RD(0)));
	/* partly in the read window: all or nothing */
	EXPECT_EQ(-EINVAL, wr(self->fd, buf, 8, SEM_RD(255)));
	EXPECT_EQ(-EINVAL, wr(self->fd, buf, 8, 0x0FFC));
	EXPECT_EQ(-EINVAL, wr(self->fd, buf, 0x800, 0x1000));
	snap_check(_metadata, self->fd, &s);
}

TEST_F(core, csr_sem_set_window)
{
	__u32 v[2] = { (__u32)-5, 0x7FFFFFFF };

	csr_put(_metadata, self->fd, SEM_SET(3), (__u32)-5);
	EXPECT_EQ(-5, sem_get(_metadata, self->fd, 3));
	EXPECT_EQ((__u32)-5, csr_get(_metadata, self->fd, SEM_RD(3)));
	EXPECT_EQ((__u32)-5, csr_get(_metadata, self->fd, SEM_SET(3)));
	EXPECT_EQ((__u32)-5, csr_get(_metadata, self->fd, SEM_INC(3)));
	EXPECT_EQ((__u32)-5, csr_get(_metadata, self->fd, SEM_DEC(3)));
	csr_put(_metadata, self->fd, SEM_SET(3), 9);
	EXPECT_EQ(9, sem_get(_metadata, self->fd, 3));
	ASSERT_EQ(0, wr(self->fd, v, 8, SEM_SET(254)));
	EXPECT_EQ(-5, sem_get(_metadata, self->fd, 254));
	EXPECT_EQ(INT_MAX, sem_get(_metadata, self->fd, 255));
	EXPECT_EQ(0, sem_get(_metadata, self->fd, 2));
	EXPECT_EQ(0, sem_get(_metadata, self->fd, 4));
}

TEST_F(core, csr_sem_inc_window)
{
	sem_put(_metadata, self->fd, 4, 10);
	EXPECT_EQ(4, pwrite(self->fd, &(__u32){ 5 }, 4, SEM_INC(4)));
	EXPECT_EQ(15, sem_get(_metadata, self->fd, 4));
	EXPECT_EQ(15U, csr_get(_metadata, self->fd, SEM_INC(4)));
	csr_put(_metadata, self->fd, SEM_INC(4), 0);
	EXPECT_EQ(15, sem_get(_metadata, self->fd, 4));
	csr_put(_metadata, self->fd, SEM_INC(5), 1);
	EXPECT_EQ(1, sem_get(_metadata, self->fd, 5));
}

TEST_F(core, csr_sem_dec_window)
{
	sem_put(_metadata, self->fd, 4, 10);
	csr_put(_metadata, self->fd, SEM_DEC(4), 3);
	EXPECT_EQ(7, sem_get(_metadata, self->fd, 4));
	EXPECT_EQ(7U, csr_get(_metadata, self->fd, SEM_DEC(4)));
	csr_put(_metadata, self->fd, SEM_DEC(5), 1);
	EXPECT_EQ(-1, sem_get(_metadata, self->fd, 5));
	EXPECT_EQ((__u32)-1, csr_get(_metadata, self->fd, SEM_RD(5)));
}

TEST_F(core, csr_sem_wraps)
{
	sem_put(_metadata, self->fd, 0, INT_MAX);
	csr_put(_metadata, self->fd, SEM_INC(0), 1);
	EXPECT_EQ(INT_MIN, sem_get(_metadata, self->fd, 0));
	csr_put(_metadata, self->fd, SEM_DEC(0), 1);
	EXPECT_EQ(INT_MAX, sem_get(_metadata, self->fd, 0));
	sem_put(_metadata, self->fd, 0, 5);
	csr_put(_metadata, self->fd, SEM_INC(0), 0xFFFFFFFFU);
	EXPECT_EQ(4, sem_get(_metadata, self->fd, 0));
	csr_put(_metadata, self->fd, SEM_DEC(0), 0xFFFFFFFFU);
	EXPECT_EQ(5, sem_get(_metadata, self->fd, 0));
	csr_put(_metadata, self->fd, SEM_DEC(0), 0x80000000U);
	EXPECT_EQ((__s32)0x80000005U, sem_get(_metadata, self->fd, 0));
}

TEST_F(core, csr_reserved_window)
{
	static __u32 buf[0x1000 / 4];
	struct snap s;
	unsigned int i;

	seed(_metadata, self->fd);
	memset(buf, 0xff, sizeof(buf));
	ASSERT_EQ(0, rd(self->fd, buf, 0xC00, 0x400));
	for (i = 0; i < 0xC00 / 4; i++) {
		ASSERT_EQ(0U, buf[i]) TH_LOG("@%#x", 0x400 + i * 4);
	}
	EXPECT_EQ(0U, csr_get(_metadata, self->fd, 0xFFC));

	snap_take(_metadata, self->fd, &s);
	memset(buf, 0, sizeof(buf));
	EXPECT_EQ(-EINVAL, wr32(self->fd, 0x400, 1));
	EXPECT_EQ(-EINVAL, wr32(self->fd, 0x800, 0));
	EXPECT_EQ(-EINVAL, wr32(self->fd, 0xFFC, 1));
	EXPECT_EQ(-EINVAL, wr(self->fd, buf, 0xC00, 0x400));
	/* event 255 (set by seed) + reserved: the clear must not happen */
	EXPECT_EQ(-EINVAL, wr(self->fd, buf, 8, EVT(255)));
	EXPECT_EQ(-EINVAL, wr(self->fd, buf, 0x404, 0));
	snap_check(_metadata, self->fd, &s);
}

/* A multi-register write is register writes in ascending address order. */
TEST_F(core, csr_multi_register_ascending)
{
	static __u32 buf[0xC00 / 4];
	unsigned int i;

	for (i = 0; i < 256; i++) {
		buf[i] = 100 + i;		/* 0x1400: set */
		buf[256 + i] = i;		/* 0x1800: inc */
		buf[512 + i] = 2;		/* 0x1C00: dec */
	}
	ASSERT_EQ(0xC00, pwrite(self->fd, buf, 0xC00, NCSYNC_CSR_SEM_SET));
	for (i = 0; i < 256; i++) {
		ASSERT_EQ((__s32)(98 + 2 * i), sem_get(_metadata, self->fd, i))
			TH_LOG("sem %u", i);
	}

	/* 8 bytes at inc(i) increment sems i and i + 1 */
	core_reset(_metadata, self->fd);
	ASSERT_EQ(0, wr(self->fd, (__u32[]){ 3, 4 }, 8, SEM_INC(10)));
	EXPECT_EQ(0, sem_get(_metadata, self->fd, 9));
	EXPECT_EQ(3, sem_get(_metadata, self->fd, 10));
	EXPECT_EQ(4, sem_get(_metadata, self->fd, 11));
	EXPECT_EQ(0, sem_get(_metadata, self->fd, 12));

	/* across windows: set sem 255, then inc sem 0 */
	ASSERT_EQ(0, wr(self->fd, (__u32[]){ 42, 5 }, 8, SEM_SET(255)));
	EXPECT_EQ(42, sem_get(_metadata, self->fd, 255));
	EXPECT_EQ(5, sem_get(_metadata, self->fd, 0));
	/* dec window into the end: dec sem 254 and 255 */
	ASSERT_EQ(0, wr(self->fd, (__u32[]){ 1, 2 }, 8, SEM_DEC(254)));
	EXPECT_EQ(-1, sem_get(_metadata, self->fd, 254));
	EXPECT_EQ(40, sem_get(_metadata, self->fd, 255));
}

TEST_F(core, csr_multi_register_all_or_nothing)
{
	static __u32 buf[CSR_REGS];
	struct snap s;

	seed(_metadata, self->fd);
	snap_take(_metadata, self->fd, &s);
	memset(buf, 0, sizeof(buf));
	buf[0] = 1;
	/* everything: includes reserved and the read window */
	EXPECT_EQ(-EINVAL, wr(self->fd, buf, sizeof(buf), 0));
	/* set/inc/dec are fine, the read window in front is not */
	EXPECT_EQ(-EINVAL, wr(self->fd, buf, 0x1000, 0x1000));
	EXPECT_EQ(-EINVAL, wr(self->fd, buf, 0x404, SEM_RD(0)));
	/* events, then the first reserved register */
	EXPECT_EQ(-EINVAL, wr(self->fd, buf, 0x404, 0));
	/* the last reserved register, then the read window */
	EXPECT_EQ(-EINVAL, wr(self->fd, buf, 0x408, 0x0FFC));
	snap_check(_metadata, self->fd, &s);
}

TEST_F(core, csr_pwrite_efault)
{
	char *end = guard_end();
	struct snap s;

	ASSERT_NE(NULL, end);
	seed(_metadata, self->fd);
	snap_take(_metadata, self->fd, &s);
	EXPECT_EQ(-EFAULT, wr(self->fd, BADPTR, 4, SEM_SET(0)));
	EXPECT_EQ(-EFAULT, wr(self->fd, end, 4, SEM_INC(0)));
	/* first register readable, second not: nothing may be applied */
	memcpy(end - 4, &(__u32){ 1 }, 4);
	EXPECT_EQ(-EFAULT, wr(self->fd, end - 4, 8, SEM_INC(0)));
	memcpy(end - 4, &(__u32){ 0 }, 4);
	EXPECT_EQ(-EFAULT, wr(self->fd, end - 4, 8, EVT(0)));
	snap_check(_metadata, self->fd, &s);
}

TEST_F(core, csr_pread_efault)
{
	char *end = guard_end();
	void *ro = ro_copy("abcd", 4);

	ASSERT_NE(NULL, end);
	ASSERT_NE(NULL, ro);
	EXPECT_EQ(-EFAULT, rd(self->fd, BADPTR, 4, 0));
	EXPECT_EQ(-EFAULT, rd(self->fd, end, 4, SEM_RD(0)));
	EXPECT_EQ(-EFAULT, rd(self->fd, ro, 4, SEM_RD(0)));
	EXPECT_EQ(0, memcmp(ro, "abcd", 4));
}

TEST_F(core, csr_read_write_file_position)
{
	__s32 v[2] = { 7, -7 }, r[2] = { 0, 0 };
	__u32 one = 1;

	EXPECT_EQ(0x1400, lseek(self->fd, 0x1400, SEEK_SET));
	EXPECT_EQ(8, write(self->fd, v, 8));
	EXPECT_EQ(0x1408, lseek(self->fd, 0, SEEK_CUR));
	EXPECT_EQ(7, sem_get(_metadata, self->fd, 0));
	EXPECT_EQ(-7, sem_get(_metadata, self->fd, 1));
	EXPECT_EQ(0x1800, lseek(self->fd, -0x800, SEEK_END));
	EXPECT_EQ(8, read(self->fd, r, 8));
	EXPECT_EQ(7, r[0]);
	EXPECT_EQ(-7, r[1]);
	EXPECT_EQ(0x1808, lseek(self->fd, 0, SEEK_CUR));
	EXPECT_EQ(4, write(self->fd, &one, 4));	/* inc sem 2 */
	EXPECT_EQ(1, sem_get(_metadata, self->fd, 2));
	EXPECT_EQ(0x180C, lseek(self->fd, 0, SEEK_CUR));
	EXPECT_EQ(0x1000, lseek(self->fd, -0x80C, SEEK_CUR));
	EXPECT_EQ(4, read(self->fd, r, 4));
	EXPECT_EQ(7, r[0]);
	/* pread/pwrite leave the position alone */
	EXPECT_EQ(0, rd(self->fd, r, 4, 0));
	EXPECT_EQ(0, wr32(self->fd, SEM_INC(3), 1));
	EXPECT_EQ(0x1004, lseek(self->fd, 0, SEEK_CUR));
	/* a refused write (read window) moves nothing */
	EXPECT_EQ(-1, write(self->fd, &one, 4));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(0x1004, lseek(self->fd, 0, SEEK_CUR));
	EXPECT_EQ(-7, sem_get(_metadata, self->fd, 1));
}

TEST_F(core, csr_lseek_bounds)
{
	__u32 v;

	EXPECT_EQ(0x2000, lseek(self->fd, 0x2000, SEEK_SET));
	EXPECT_EQ(0x2000, lseek(self->fd, 0, SEEK_END));
	EXPECT_EQ(0, lseek(self->fd, -0x2000, SEEK_END));
	EXPECT_EQ(0x1800, lseek(self->fd, 0x1800, SEEK_SET));

	EXPECT_EQ(-1, lseek(self->fd, 0x2001, SEEK_SET));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, lseek(self->fd, 0x2004, SEEK_SET));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, lseek(self->fd, -1, SEEK_SET));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, lseek(self->fd, 4, SEEK_END));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, lseek(self->fd, -0x2004, SEEK_END));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, lseek(self->fd, 0x1000, SEEK_CUR));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, lseek(self->fd, -0x1804, SEEK_CUR));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, lseek(self->fd, 0, SEEK_DATA));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, lseek(self->fd, 0, SEEK_HOLE));
	EXPECT_EQ(EINVAL, errno);
	/* failed seeks leave the position */
	EXPECT_EQ(0x1800, lseek(self->fd, 0, SEEK_CUR));

	/* an access at the end of the window is outside it */
	EXPECT_EQ(0x2000, lseek(self->fd, 0, SEEK_END));
	EXPECT_EQ(-1, read(self->fd, &v, 4));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, write(self->fd, &v, 4));
	EXPECT_EQ(EINVAL, errno);
}

TEST_HARNESS_MAIN
