// SPDX-License-Identifier: GPL-2.0
/*
 * kbloom.ko in a memory cgroup (issue 16, item 1).
 *
 * A process in a cgroup v2 with memory.max = LIMIT asks for more than its
 * limit leaves: CREATE of a filter larger than the limit, RESTORE of an
 * image whose kernel copy exceeds it, RESTORE of an image whose copy fits
 * but whose filter does not, SAVE of a filter (made outside the cgroup)
 * whose image buffer exceeds it.  Each fails with ENOMEM; the cgroup's
 * memory.events counts no oom and no oom_kill, the kernel log gains no
 * "invoked oom-killer" line, a bystander process in the same cgroup
 * (holding memory of its own) survives, and the registry is as before.
 * A filter that fits is created there and charged to the cgroup
 * (memory.current grows by at least its size).
 *
 * The images are built before the worker joins the cgroup, so their
 * pages stay charged to the test's own cgroup; SAVE writes into a shared
 * mapping faulted in before, so that no page of it is charged there.
 */
#include <signal.h>
#include <sys/mman.h>
#include <sys/klog.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include "guest_harness.h"
#include "kmod_util.h"

#define CG_ROOT		"/sys/fs/cgroup"
#define CG		CG_ROOT "/kbloom-memcg-test"
#define MIB		(1ULL << 20)
#define LIMIT		(32 * MIB)
#define BYSTANDER	(4 * MIB)

/* Write @val to cgroup file @file; 0 or -errno. */
static int cg_write(const char *file, const char *val)
{
	int fd = open(file, O_WRONLY | O_CLOEXEC), ret = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, val, strlen(val)) < 0)
		ret = -errno;
	close(fd);
	return ret;
}

/* The value of key @key in flat-keyed cgroup file @file, or -1. */
static long long cg_key(const char *file, const char *key)
{
	char k[64];
	long long v, found = -1;
	FILE *f = fopen(file, "r");

	if (!f)
		return -1;
	while (fscanf(f, "%63s %lld", k, &v) == 2)
		if (!strcmp(k, key))
			found = v;
	fclose(f);
	return found;
}

static long long cg_current(void)
{
	long long v = -1;
	FILE *f = fopen(CG "/memory.current", "r");

	if (!f)
		return -1;
	if (fscanf(f, "%lld", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

/* Occurrences of "invoked oom-killer" in the kernel log. */
static int oom_lines(void)
{
	return ku_klog_count("invoked oom-killer");
}

/* Move the calling process into the test cgroup. */
static int cg_join(void)
{
	return cg_write(CG "/cgroup.procs", "0");
}

/* A process in the cgroup with BYSTANDER bytes of its own, until killed. */
static pid_t bystander(void)
{
	pid_t pid = fork();
	char *mem;

	if (pid)
		return pid;
	if (cg_join())
		_exit(1);
	mem = malloc(BYSTANDER);
	if (!mem)
		_exit(1);
	memset(mem, 0x5a, BYSTANDER);
	for (;;)
		pause();
}

/* Run @fn in a child that joined the cgroup; its return value, or -EIO. */
static int in_cgroup(int (*fn)(void *), void *arg)
{
	int pfd[2], ret = -EIO;
	pid_t pid;

	if (pipe(pfd))
		return -errno;
	pid = fork();
	if (!pid) {
		close(pfd[0]);
		ret = cg_join() ?: fn(arg);
		_exit(write(pfd[1], &ret, sizeof(ret)) == sizeof(ret) ? 0 : 1);
	}
	close(pfd[1]);
	if (pid < 0 || read(pfd[0], &ret, sizeof(ret)) != sizeof(ret))
		ret = -EIO;
	close(pfd[0]);
	if (pid > 0)
		waitpid(pid, NULL, 0);
	return ret;
}

struct img {
	void *buf;
	__u64 len;
};

static int restore_big(void *arg)
{
	struct img *im = arg;
	int fd = ku_open(), ret;

	if (fd < 0)
		return -errno;
	ret = ku_restore(fd, "big", im->buf, im->len, 0);
	close(fd);
	return ret;
}

/* SAVE of "kept" into img->buf (img->len bytes). */
static int save_kept(void *arg)
{
	struct img *im = arg;
	struct kbloom_image_op op = {
		.size = sizeof(op), .buf = (uintptr_t)im->buf,
		.buf_len = im->len,
	};
	int fd = ku_open(), ret;

	if (fd < 0)
		return -errno;
	ku_name(op.name, "kept");
	ret = ku_ioctl(fd, KBLOOM_IOCTL_SAVE, &op);
	close(fd);
	return ret;
}

/* A blocked filter of @bytes, named "big". */
static int create_big(void *arg)
{
	__u64 bytes = *(__u64 *)arg;
	int fd = ku_open(), ret;

	if (fd < 0)
		return -errno;
	ret = ku_create_mk(fd, "big", KBLOOM_TYPE_BLOCKED, bytes * 8, 6, 0, 0);
	close(fd);
	return ret;
}

/* CREATE of @bytes that fits: the growth of memory.current, or -errno. */
static int create_fits(void *arg)
{
	long long before = cg_current(), after;
	int ret = create_big(arg);

	after = cg_current();
	if (ret)
		return ret;
	return after - before > INT32_MAX ? INT32_MAX : (int)(after - before);
}

/* SAVE of a new blocked filter of @bytes (made and destroyed here). */
static int make_image(int fd, __u64 bytes, struct img *im)
{
	int ret = ku_create_mk(fd, "img", KBLOOM_TYPE_BLOCKED, bytes * 8, 6,
			       0, 0);

	if (ret)
		return ret;
	ret = ku_save(fd, "img", &im->buf, &im->len);
	ku_destroy(fd, "img");
	return ret;
}

FIXTURE(memcg) {
	int fd;
	pid_t by;
	struct img big;		/* its kernel copy exceeds the limit */
	struct img mid;		/* the copy fits, copy + filter do not */
	struct img out;		/* room for the image of "kept", shared */
};

FIXTURE_SETUP(memcg)
{
	char lim[32];

	self->by = -1;
	self->fd = ku_open();
	ASSERT_LE(0, self->fd);
	ASSERT_EQ(0, ku_destroy_all(self->fd));
	if (access(CG_ROOT "/cgroup.controllers", F_OK))
		SKIP(return, "no cgroup v2 at " CG_ROOT);
	if (cg_write(CG_ROOT "/cgroup.subtree_control", "+memory"))
		SKIP(return, "no memory controller");
	rmdir(CG);
	ASSERT_EQ(0, mkdir(CG, 0755));
	snprintf(lim, sizeof(lim), "%llu", LIMIT);
	ASSERT_EQ(0, cg_write(CG "/memory.max", lim));
	cg_write(CG "/memory.swap.max", "0");
	ASSERT_EQ(0, make_image(self->fd, 2 * LIMIT, &self->big));
	ASSERT_EQ(0, make_image(self->fd, 20 * MIB, &self->mid));
	/* made here: its image buffer would take the cgroup over its limit */
	ASSERT_EQ(0, ku_create_mk(self->fd, "kept", KBLOOM_TYPE_BLOCKED,
				  LIMIT * 8, 6, 0, 0));
	self->out.len = LIMIT + 4096;
	self->out.buf = mmap(NULL, self->out.len, PROT_READ | PROT_WRITE,
			     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, self->out.buf);
	memset(self->out.buf, 0, self->out.len);
	self->by = bystander();
	ASSERT_LT(0, self->by);
}

FIXTURE_TEARDOWN(memcg)
{
	if (self->by > 0) {
		kill(self->by, SIGKILL);
		waitpid(self->by, NULL, 0);
	}
	ku_destroy_all(self->fd);
	close(self->fd);
	free(self->big.buf);
	free(self->mid.buf);
	if (self->out.buf && self->out.buf != MAP_FAILED)
		munmap(self->out.buf, self->out.len);
	/* the last frees come after a grace period */
	for (int i = 0; i < 50 && rmdir(CG) && errno == EBUSY; i++)
		usleep(100000);
}

TEST_F_TIMEOUT(memcg, over_limit_enomem, 300)
{
	struct kbloom_stat dev, now;
	__u64 create_bytes = 2 * LIMIT, fit = 8 * MIB;
	int oom0, grew, st;

	ASSERT_EQ(0, ku_stat_dev(self->fd, &dev));
	oom0 = oom_lines();
	ASSERT_LE(0, oom0);

	EXPECT_EQ(-ENOMEM, in_cgroup(create_big, &create_bytes));
	EXPECT_EQ(-ENOMEM, in_cgroup(restore_big, &self->big));
	EXPECT_EQ(-ENOMEM, in_cgroup(restore_big, &self->mid));
	EXPECT_EQ(-ENOMEM, in_cgroup(save_kept, &self->out));

	EXPECT_EQ(0, cg_key(CG "/memory.events", "oom"));
	EXPECT_EQ(0, cg_key(CG "/memory.events", "oom_kill"));
	EXPECT_LT(0, cg_key(CG "/memory.events", "max"));
	EXPECT_EQ(oom0, oom_lines());
	/* the bystander is alive and was never signalled */
	EXPECT_EQ(0, waitpid(self->by, &st, WNOHANG));
	EXPECT_EQ(0, kill(self->by, 0));
	ASSERT_EQ(0, ku_stat_dev(self->fd, &now));
	EXPECT_EQ(dev.filters, now.filters);
	EXPECT_EQ(dev.bytes, now.bytes);
	EXPECT_EQ(-ENOENT, ku_stat(self->fd, "big", &now));

	/* what fits is created there, and charged to the cgroup */
	grew = in_cgroup(create_fits, &fit);
	EXPECT_LE((long long)fit, grew);
	EXPECT_EQ(0, ku_stat(self->fd, "big", &now));
	EXPECT_EQ(fit, now.bytes);
}

TEST_HARNESS_MAIN
