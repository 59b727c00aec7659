// SPDX-License-Identifier: GPL-2.0
/*
 * Hostile memory use (ncsync_hostile.h): the per-user cap user_mem_mb on
 * the kernel memory of programs, next to the per-descriptor fd_mem_mb
 * (run with small caps by ncsync_hostile_test.sh, skipped at the
 * defaults).
 *
 * Run inside the test VM:  tools/vm-run build/selftests/ncsync_hostile_mem_test
 */
#include "ncsync_hostile.h"

/* ---------------------------------------------------------------------- */
/* 3. The per-user memory cap                                              */

/* As uid and gid NOBODY, open @node and submit a program that stays. */
static void nobody_submit(const char *node)
{
	struct rec r[2];
	__u32 id;
	int fd, ret;

	if (setgroups(0, NULL) || setresgid(NOBODY, NOBODY, NOBODY) ||
	    setresuid(NOBODY, NOBODY, NOBODY)) {
		fprintf(stderr, "#  uid %d: setresuid: %s\n", NOBODY,
			strerror(errno));
		_exit(1);
	}
	fd = open(node, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "#  uid %d: open %s: %s\n", NOBODY, node,
			strerror(errno));
		_exit(1);
	}
	recs_blocker(r, 2, 200);
	ret = submit(fd, &engine_sp, 1, r, 2, WD_MAX, &id);
	if (ret) {
		fprintf(stderr, "#  uid %d: SUBMIT: %s\n", NOBODY,
			strerror(-ret));
		_exit(1);
	}
	_exit(0);
}

/* Another user, at the cap of this one, can still submit. */
static void other_user_submits(struct __test_metadata *_metadata)
{
	char dir[64], node[96];
	int status = -1;
	pid_t pid;

	ncsync_private_node(_metadata, 0, dir, node);
	fflush(stderr);
	pid = fork();
	if (!pid)
		nobody_submit(node);
	if (pid > 0)	/* the node stays until the child is done with it */
		waitpid(pid, &status, 0);
	unlink(node);
	rmdir(dir);
	ASSERT_LT(0, pid) TH_LOG("fork: %s", strerror(errno));
	EXPECT_TRUE(WIFEXITED(status) && !WEXITSTATUS(status))
		TH_LOG("a descriptor of uid %d could not submit (0x%x)",
		       NOBODY, status);
}

/*
 * Fill descriptor 1 to fd_mem_mb, then descriptor 2 of the same user to
 * user_mem_mb: fd2 gets ENOMEM holding clearly less than fd1.  Another
 * user can still submit; closing fd1 gives its memory back to fd2, whose
 * ENOMEM consumed no id; once all is closed a fresh descriptor fills as
 * fd1 did.  @fd1 and @fd2 are left for the caller to close.
 */
static void user_cap_check(struct __test_metadata *_metadata,
			   const struct rec *r, long user_mb, long fd_mb,
			   int *fd1, int *fd2)
{
	int n1, n2, n3, err;
	__u32 last1 = 0, last2 = 0, id = 0;

	*fd1 = open(DEV0, O_RDWR | O_CLOEXEC);
	*fd2 = open(DEV0, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, *fd1);
	ASSERT_LE(0, *fd2);
	n1 = fill(*fd1, r, BIG_RECORDS, &err, &last1);
	ASSERT_EQ(-ENOMEM, err) TH_LOG("fd1 after %d programs: %s", n1,
				       strerror(-err));
	ASSERT_LE(2, n1);
	n2 = fill(*fd2, r, BIG_RECORDS, &err, &last2);
	ASSERT_EQ(-ENOMEM, err) TH_LOG("fd2 after %d programs: %s", n2,
				       strerror(-err));
	EXPECT_GT(n1, n2)
		TH_LOG("fd2 took %d programs, fd1 %d: no cap for the user",
		       n2, n1);
	EXPECT_GE(n1 * (user_mb - fd_mb) + user_mb, n2 * fd_mb)
		TH_LOG("fd2 took %d programs, fd1 %d: more than %ld MiB for the user",
		       n2, n1, user_mb);
	other_user_submits(_metadata);

	/* fd1's memory comes back; ENOMEM consumed no id of fd2 */
	close(*fd1);
	*fd1 = -1;
	ASSERT_EQ(0, submit(*fd2, &engine_sp, 1, r, BIG_RECORDS, WD_MAX, &id))
		TH_LOG("fd2 cannot submit after fd1 closed");
	EXPECT_EQ(last2 + 1, id);
	close(*fd2);
	*fd2 = -1;

	/* nothing leaked: a fresh descriptor fills as fd1 did */
	*fd1 = open(DEV0, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, *fd1);
	n3 = fill(*fd1, r, BIG_RECORDS, &err, &last1);
	EXPECT_EQ(-ENOMEM, err);
	EXPECT_EQ(n1, n3)
		TH_LOG("after closing everything a descriptor took %d programs, at first %d",
		       n3, n1);
}

/*
 * user_mem_mb caps every descriptor of one user together, fd_mem_mb each
 * one.  At the defaults (256 MiB each) filling them is too slow for TCG:
 * ncsync_hostile_test.sh runs this with user_mem_mb=32 fd_mem_mb=24.
 */
TEST_F_TIMEOUT(hostile, user_mem_cap, 180)
{
	long user_mb = need_param(_metadata, "user_mem_mb");
	long fd_mb = need_param(_metadata, "fd_mem_mb");
	int fd1 = -1, fd2 = -1;
	struct rec *r;

	if (user_mb > 64 || fd_mb >= user_mb || 2 * fd_mb <= user_mb)
		SKIP(return,
		     "user_mem_mb %ld, fd_mem_mb %ld: needs user_mem_mb/2 < fd_mem_mb < user_mem_mb <= 64 (ncsync_hostile_test.sh runs it with 32 and 24)",
		     user_mb, fd_mb);
	r = calloc(BIG_RECORDS, sizeof(*r));
	ASSERT_NE(NULL, r);
	recs_blocker(r, BIG_RECORDS, 200);
	user_cap_check(_metadata, r, user_mb, fd_mb, &fd1, &fd2);
	free(r);
	if (fd1 >= 0)
		close(fd1);
	if (fd2 >= 0)
		close(fd2);
}

/*
 * What the allocators hold is charged, not what was asked for (issue 32): a
 * queue of HELD_RECORDS records asks for 1 MiB + 128 B of decoded records,
 * which kvmalloc() would have rounded to 2 MiB.  Users NOBODY - i each fill
 * a descriptor with such programs, as the hostile user would, and hold
 * them while /proc/meminfo's MemFree is read.
 */
#define HELD_RECORDS	8193
#define HELD_BYTES	((long)HELD_RECORDS * 128)
#define NUSERS		4
#define MIB		(1024L * 1024)

/* A field of /proc/meminfo or /proc/vmstat ("MemFree:", "oom_kill "). */
static long proc_field(const char *file, const char *fmt)
{
	FILE *f = fopen(file, "re");
	char line[128];
	long v = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, fmt, &v) == 1)
			break;
	fclose(f);
	return v;
}

/* MemFree in bytes, once the page cache was dropped. */
static long mem_free(void)
{
	int fd = open("/proc/sys/vm/drop_caches", O_WRONLY | O_CLOEXEC);

	sync();
	/* Not root: the caches stay, the slack covers them. */
	if (fd >= 0 && write(fd, "3", 1) == 1)
		usleep(200000);
	if (fd >= 0)
		close(fd);
	return proc_field("/proc/meminfo", "MemFree: %ld kB") * 1024;
}

/*
 * What the module lets every user together hold, in bytes; LONG_MAX for a
 * module without total_mem_mb.
 */
static long total_limit(void)
{
	long mb = ncsync_param("total_mem_mb");

	if (mb < 0)
		return LONG_MAX;
	if (mb)
		return mb * MIB;
	return proc_field("/proc/meminfo", "MemTotal: %ld kB") * 1024 / 4;
}

/* One user holding what it could submit. */
struct holder {
	pid_t pid;
	int report;	/* reads its count and error */
	int hold;	/* closing it lets the user go */
	int n, err;
};

/*
 * As uid @uid: open @node, submit HELD_RECORDS programs that stay until
 * one is refused, report how many and the error on @out, hold them until
 * @in closes.
 */
static void __attribute__((noreturn)) holder_main(const char *node, uid_t uid,
						  int out, int in)
{
	int msg[2] = { 0, 0 }, fd;
	struct rec *r;
	__u32 last;
	char c;

	if (setgroups(0, NULL) || setresgid(uid, uid, uid) ||
	    setresuid(uid, uid, uid))
		_exit(1);
	fd = open(node, O_RDWR | O_CLOEXEC);
	r = calloc(HELD_RECORDS, sizeof(*r));
	if (fd < 0 || !r)
		_exit(2);
	recs_blocker(r, HELD_RECORDS, 200);
	msg[0] = fill(fd, r, HELD_RECORDS, &msg[1], &last);
	free(r);
	if (write(out, msg, sizeof(msg)) != sizeof(msg))
		_exit(3);
	if (read(in, &c, 1) < 0)
		_exit(4);
	_exit(0);
}

/* Start holder @i, as uid NOBODY - @i, on @node: 0 once it reported. */
static int holder_start(struct holder *h, int i, const char *node)
{
	int rep[2], hold[2], msg[2];

	if (pipe2(rep, O_CLOEXEC) || pipe2(hold, O_CLOEXEC))
		return -1;
	fflush(stderr);
	h->pid = fork();
	if (!h->pid) {
		close(rep[0]);
		close(hold[1]);
		holder_main(node, NOBODY - i, rep[1], hold[0]);
	}
	close(rep[1]);
	close(hold[0]);
	h->report = rep[0];
	h->hold = hold[1];
	if (h->pid < 0 || read(h->report, msg, sizeof(msg)) != sizeof(msg))
		return -1;
	h->n = msg[0];
	h->err = msg[1];
	return 0;
}

/* Let the holders go, and reap them. */
static void holders_stop(struct holder *h, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		close(h[i].hold);
		close(h[i].report);
	}
	for (i = 0; i < n; i++)
		if (h[i].pid > 0)
			waitpid(h[i].pid, NULL, 0);
}

/* Slack for MemFree: what else moves in the VM, and KASAN's shadow. */
static long mem_slack(long bytes)
{
	return bytes / 4 + 8 * MIB;
}

/*
 * One user fills user_mem_mb with programs of HELD_RECORDS records:
 * MemFree drops by no more than the cap (issue 32: twice the cap), and
 * nearly the whole cap is usable (the charge is not grossly pessimistic).
 * ncsync_hostile_test.sh runs it with user_mem_mb=64 fd_mem_mb=64.
 */
TEST_F_TIMEOUT(hostile, held_memory_within_user_cap, 300)
{
	long user_mb = need_param(_metadata, "user_mem_mb");
	long fd_mb = need_param(_metadata, "fd_mem_mb");
	char dir[64], node[96];
	struct holder h;
	long before, drop;
	int ret;

	if (user_mb > 64 || fd_mb < user_mb || user_mb * MIB > total_limit())
		SKIP(return,
		     "user_mem_mb %ld, fd_mem_mb %ld: needs user_mem_mb <= 64, fd_mem_mb >= user_mem_mb (ncsync_hostile_test.sh runs it with 64 and 64)",
		     user_mb, fd_mb);
	ncsync_private_node(_metadata, 0, dir, node);
	before = mem_free();
	ret = holder_start(&h, 0, node);
	drop = before - mem_free();
	holders_stop(&h, 1);
	unlink(node);
	rmdir(dir);
	ASSERT_EQ(0, ret) TH_LOG("uid %d did not report", NOBODY);
	fprintf(stderr, "#  %d programs of %d records, then %s; MemFree -%ld MiB (user_mem_mb %ld)\n",
		h.n, HELD_RECORDS, strerror(-h.err), drop / MIB, user_mb);
	EXPECT_EQ(ENOMEM, -h.err) TH_LOG("after %d programs: %s", h.n,
					 strerror(-h.err));
	EXPECT_GE(user_mb * MIB + mem_slack(user_mb * MIB), drop)
		TH_LOG("%d programs of %ld B took %ld MiB of MemFree: more than user_mem_mb %ld",
		       h.n, HELD_BYTES, drop / MIB, user_mb);
	EXPECT_LE(user_mb * MIB * 9 / 10, (long)h.n * HELD_BYTES)
		TH_LOG("only %d programs of %ld B within %ld MiB", h.n,
		       HELD_BYTES, user_mb);
}

/*
 * NUSERS users, each allowed user_mem_mb, together more than the module's
 * total_mem_mb (by default a quarter of the RAM): each fills until
 * ENOMEM, together they hold no more than the total, MemFree drops by no
 * more than it, the OOM killer never runs, and it comes back (but for
 * what the slab caches keep).
 */
TEST_F_TIMEOUT(hostile, users_together_within_total, 600)
{
	long user_mb = need_param(_metadata, "user_mem_mb");
	long oom0 = proc_field("/proc/vmstat", "oom_kill %ld");
	struct holder h[NUSERS];
	char dir[64], node[96];
	long before, drop, after, back, held = 0;
	int i, started = 0;
	long total;

	need_param(_metadata, "total_mem_mb");
	total = total_limit();
	if (NUSERS * user_mb * MIB <= total)
		SKIP(return, "%d x user_mem_mb %ld fit in total_mem_mb %ld MiB",
		     NUSERS, user_mb, total / MIB);
	ncsync_private_node(_metadata, 0, dir, node);
	before = mem_free();
	for (i = 0; i < NUSERS; i++, started++)
		if (holder_start(&h[i], i, node))
			break;
	drop = before - mem_free();
	holders_stop(h, started);
	/*
	 * The records of cancelled programs are freed by a work item: give
	 * it up to 100 rounds of mem_free().  What must come back is the
	 * total less a sixteenth and 8 MiB: the slab caches keep some of
	 * the freed records' pages, which drop_caches does not shrink (seen:
	 * 12 and 15 MiB of the quarter of the guest's 1 GiB, on a loaded
	 * host); a leak of what the users held would be most of the total.
	 */
	back = total / 16 + 8 * MIB;
	for (i = 0; i < 100; i++) {
		after = mem_free();
		if (after >= before - back)
			break;
		usleep(100 * 1000);
	}
	unlink(node);
	rmdir(dir);
	ASSERT_EQ(NUSERS, started) TH_LOG("uid %d did not report",
					  NOBODY - started);
	fprintf(stderr, "#  %d users: %d, %d, %d, %d programs; MemFree -%ld MiB (total %ld MiB), %ld MiB not back\n",
		NUSERS, h[0].n, h[1].n, h[2].n, h[3].n, drop / MIB,
		total / MIB, (before - after) / MIB);
	for (i = 0; i < NUSERS; i++) {
		EXPECT_EQ(ENOMEM, -h[i].err)
			TH_LOG("uid %d after %d programs: %s", NOBODY - i,
			       h[i].n, strerror(-h[i].err));
		held += (long)h[i].n * HELD_BYTES;
	}
	EXPECT_GE(total, held) TH_LOG("the users hold %ld MiB of records, past %ld MiB",
				      held / MIB, total / MIB);
	EXPECT_GE(total + mem_slack(total), drop)
		TH_LOG("%ld MiB of MemFree taken, total_mem_mb %ld MiB",
		       drop / MIB, total / MIB);
	EXPECT_EQ(oom0, proc_field("/proc/vmstat", "oom_kill %ld"));
	EXPECT_LE(before - back, after)
		TH_LOG("%ld MiB not back once the users left",
		       (before - after) / MIB);
}

TEST_HARNESS_MAIN
