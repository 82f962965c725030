// SPDX-License-Identifier: GPL-2.0
/*
 * kbloomctl restore: all or nothing, -exist, and claims larger than the
 * input (issue 16, items 3 and 4).
 *
 * limit_undoes: with max_filters - 1 filters present, restoring a file of
 * two images hits max_filters on the second: exit 3, and the first one is
 * destroyed again (the registry is as before).
 * limit_undoes_replace: the same with --replace, where the first image
 * replaced an existing filter: it is put back, byte for byte.
 * exist_skips: -exist leaves an existing filter alone and restores the
 * other images; with --replace it is a usage error.
 * version3: a cuckoo filter's image (version 3: a geometry tail after the
 * base header) restores from a file and from standard input.
 * huge_claim: a 136-byte file whose valid header claims a 4 GiB payload
 * is refused as "truncated payload" under a 256 MiB address-space limit
 * (ulimit -v), from a file and from a pipe: nothing is allocated for it.
 */
#include <sys/resource.h>
#include <sys/wait.h>

#include "guest_harness.h"
#include "kmod_util.h"
#include "core/kbloomctl_util.h"

#define AS_LIMIT	(256ULL << 20)

FIXTURE(rs) {
	int fd;
	char dir[64];
	char img[96];		/* two images: "ra" and "rb" */
	void *ra0;		/* the image of another "ra" (ra_other()) */
	__u64 ra0_len;
};

static void path_in(char *dst, size_t len, const char *dir, const char *f)
{
	snprintf(dst, len, "%s/%s", dir, f);
}

/* The device's filter count, or -errno. */
static long long dev_filters(int fd)
{
	struct kbloom_stat st;
	int ret = ku_stat_dev(fd, &st);

	return ret ? ret : st.filters;
}

FIXTURE_SETUP(rs)
{
	__u8 keys[200 * 16];
	struct kbctl_res r;

	self->fd = ku_open();
	if (self->fd < 0)
		SKIP(return, "%s: %s (kbloom.ko not loaded)", KBLOOM_DEVICE,
		     strerror(errno));
	ASSERT_EQ(0, ku_destroy_all(self->fd));
	unsetenv("KBLOOMCTL_DEVICE");
	strcpy(self->dir, "/tmp/kbrs-XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->dir));
	path_in(self->img, sizeof(self->img), self->dir, "two.img");
	ASSERT_EQ(0, ku_create_mk(self->fd, "ra", KBLOOM_TYPE_COUNTING,
				  64 * 1024, 5, 4, 0xa));
	ASSERT_EQ(0, ku_create_mk(self->fd, "rb", KBLOOM_TYPE_BLOCKED,
				  512 * 64, 6, 0, 0xb));
	ku_keys16(keys, 0xa, 0, 200);
	ASSERT_EQ(0, ku_keys(self->fd, KBLOOM_IOCTL_ADD, "ra", keys,
			     sizeof(keys), 16, 200, NULL, NULL, NULL));
	ASSERT_EQ(0, kbctl_run(&r, "save", "-o", self->img)) TH_LOG("%s", r.err);
	kbctl_free(&r);
	ASSERT_EQ(0, ku_destroy_all(self->fd));
}

FIXTURE_TEARDOWN(rs)
{
	char cmd[96];

	if (self->fd < 0)
		return;
	ku_destroy_all(self->fd);
	close(self->fd);
	free(self->ra0);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", self->dir);
	if (system(cmd))
		TH_LOG("cleanup of %s failed", self->dir);
}

/* Tiny filters "fNNNN" until the device holds @total. */
static int fill_to(int fd, long long total)
{
	char name[KBLOOM_NAME_LEN];
	long long n;
	int ret = 0;

	for (n = dev_filters(fd); !ret && n >= 0 && n < total; n++) {
		snprintf(name, sizeof(name), "f%04d", (int)n);
		ret = ku_create_mk(fd, name, KBLOOM_TYPE_BLOCKED, 512, 4, 0, 0);
	}
	return ret ?: (n < 0 ? (int)n : 0);
}

/* An "ra" of other geometry and contents than the image's, saved. */
static int ra_other(int fd, void **img, __u64 *len)
{
	int ret = ku_create_mk(fd, "ra", KBLOOM_TYPE_STANDARD, 4096, 3, 0,
			       0x77);

	return ret ?: ku_save(fd, "ra", img, len);
}

/* "ra" is still the filter of ra_other(): the same image, byte for byte. */
static bool ra_same(int fd, const void *img, __u64 len)
{
	__u64 now_len;
	void *now;
	bool same;

	if (ku_save(fd, "ra", &now, &now_len))
		return false;
	same = now_len == len && !memcmp(now, img, len);
	free(now);
	return same;
}

TEST_F(rs, limit_undoes)
{
	long long max = ku_param("max_filters", 1024);
	struct kbloom_stat st;
	struct kbctl_res r;

	ASSERT_EQ(0, fill_to(self->fd, max - 1));
	EXPECT_EQ(3, kbctl_run(&r, "restore", "-i", self->img));
	EXPECT_STREQ("kbloomctl: restore rb: No space left on device (nothing restored: 1 undone)\n",
		     r.err);
	kbctl_free(&r);
	EXPECT_EQ(max - 1, dev_filters(self->fd));
	EXPECT_EQ(-ENOENT, ku_stat(self->fd, "ra", &st));
	EXPECT_EQ(-ENOENT, ku_stat(self->fd, "rb", &st));
	/* with room for both, the same file restores */
	ASSERT_EQ(0, ku_destroy(self->fd, "f0000"));
	ASSERT_EQ(0, kbctl_run(&r, "restore", "-i", self->img)) TH_LOG("%s", r.err);
	kbctl_free(&r);
	EXPECT_EQ(0, ku_stat(self->fd, "ra", &st));
	EXPECT_EQ(200, st.inserted);
}

TEST_F(rs, limit_undoes_replace)
{
	long long max = ku_param("max_filters", 1024);
	struct kbctl_res r;
	struct kbloom_stat st;

	ASSERT_EQ(0, ra_other(self->fd, &self->ra0, &self->ra0_len));
	ASSERT_EQ(0, fill_to(self->fd, max));
	EXPECT_EQ(3, kbctl_run(&r, "restore", "-i", self->img, "--replace"));
	EXPECT_NE(NULL, strstr(r.err, "restore rb: No space left on device (nothing restored: 1 undone)"))
		TH_LOG("%s", r.err);
	kbctl_free(&r);
	EXPECT_EQ(max, dev_filters(self->fd));
	EXPECT_EQ(-ENOENT, ku_stat(self->fd, "rb", &st));
	EXPECT_TRUE(ra_same(self->fd, self->ra0, self->ra0_len));
}

TEST_F(rs, exist_skips)
{
	struct kbctl_res r;
	struct kbloom_stat st;

	ASSERT_EQ(0, ra_other(self->fd, &self->ra0, &self->ra0_len));
	EXPECT_EQ(3, kbctl_run(&r, "restore", "-i", self->img));
	EXPECT_STREQ("kbloomctl: restore ra: File exists (use --replace)\n",
		     r.err);
	kbctl_free(&r);
	EXPECT_EQ(-ENOENT, ku_stat(self->fd, "rb", &st));

	EXPECT_EQ(2, kbctl_run(&r, "restore", "-i", self->img, "-exist",
			       "--replace"));
	EXPECT_NE(NULL, strstr(r.err, "-exist and --replace"));
	kbctl_free(&r);
	EXPECT_EQ(-ENOENT, ku_stat(self->fd, "rb", &st));

	EXPECT_EQ(0, kbctl_run(&r, "restore", "-i", self->img, "-exist"))
		TH_LOG("%s", r.err);
	kbctl_free(&r);
	EXPECT_EQ(0, ku_stat(self->fd, "rb", &st));
	EXPECT_TRUE(ra_same(self->fd, self->ra0, self->ra0_len));
}

TEST_F(rs, version3)
{
	char path[128];
	struct kbloom_stat st;
	struct kbctl_res r;

	path_in(path, sizeof(path), self->dir, "c.img");
	ASSERT_EQ(0, kbctl_run(&r, "create", "c", "cuckoo", "capacity", "1000",
			       "fpr", "0.01")) TH_LOG("%s", r.err);
	kbctl_free(&r);
	ASSERT_EQ(0, kbctl_run(&r, "add", "c", "k1", "k2", "k3"));
	kbctl_free(&r);
	ASSERT_EQ(0, kbctl_run(&r, "save", "c", "-o", path));
	kbctl_free(&r);
	EXPECT_EQ(0, kbctl_run(&r, "restore", "c2", "-i", path))
		TH_LOG("%s", r.err);
	kbctl_free(&r);
	EXPECT_EQ(0, kbctl_run_in(&r, path, "restore", "c3"))
		TH_LOG("%s", r.err);
	kbctl_free(&r);
	ASSERT_EQ(0, ku_stat(self->fd, "c3", &st));
	EXPECT_EQ(KBLOOM_TYPE_CUCKOO, st.type);
	EXPECT_EQ(3, st.inserted);
	EXPECT_EQ(0, kbctl_run(&r, "test", "-q", "c2", "k1", "k2", "k3"));
	kbctl_free(&r);
}

/* A valid version-2 header of a counting filter of 2^32 8-bit counters. */
static void huge_header(struct kbloom_image_hdr *h)
{
	memset(h, 0, sizeof(*h));
	h->magic = kb_le32(KBLOOM_IMAGE_MAGIC);
	h->version = kb_le16(KBLOOM_IMAGE_VERSION);
	h->hdr_len = kb_le16(KBLOOM_IMAGE_HDR_LEN);
	h->type = KBLOOM_TYPE_COUNTING;
	h->hash_id = KBLOOM_HASH_FAST;
	h->counter_bits = 8;
	h->k = kb_le32(7);
	h->m = kb_le64(1ULL << 32);
	h->payload_len = kb_le64(kb_payload_len(KBLOOM_TYPE_COUNTING,
						1ULL << 32, 8));
	memcpy(h->name, "huge", 5);
}

/*
 * kbloomctl restore under an address-space limit, its input the file
 * @path (-i) or, if @pipe, the same bytes through a pipe.  Standard error
 * into @r.
 */
static int limited_restore(struct kbctl_res *r, const char *path, bool pipe_in)
{
	struct rlimit rl = { AS_LIMIT, AS_LIMIT };
	int efd = fileno(tmpfile()), pfd[2], ifd, st;
	char buf[256];
	ssize_t n;
	pid_t pid;

	memset(r, 0, sizeof(*r));
	ifd = open(path, O_RDONLY);
	if (efd < 0 || ifd < 0 || pipe(pfd))
		return -1;
	fflush(NULL);
	pid = fork();
	if (!pid) {
		dup2(pipe_in ? pfd[0] : open("/dev/null", O_RDONLY), 0);
		dup2(efd, 2);
		close(pfd[1]);
		if (setrlimit(RLIMIT_AS, &rl))
			_exit(126);
		if (pipe_in)
			kbctl_exec(KBCTL_ARGS("restore"));
		kbctl_exec(KBCTL_ARGS("restore", "-i", path));
	}
	close(pfd[0]);
	while ((n = read(ifd, buf, sizeof(buf))) > 0)
		if (write(pfd[1], buf, n) != n)
			break;
	close(pfd[1]);
	close(ifd);
	waitpid(pid, &st, 0);
	r->status = kbctl_status(st);
	r->err = kbctl_slurp(efd, &r->err_len);
	close(efd);
	return r->status;
}

TEST(huge_claim)
{
	char dir[] = "/tmp/kbhuge-XXXXXX", path[64];
	struct kbloom_image_hdr h;
	__u8 tail[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	struct kbctl_res r;
	FILE *f;

	huge_header(&h);
	ASSERT_EQ(4ULL << 30, kb_le64(h.payload_len));
	ASSERT_EQ(0, kb_image_check(&h, KBLOOM_IMAGE_HDR_LEN + (4ULL << 30)));
	ASSERT_NE(NULL, mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/huge.img", dir);
	f = fopen(path, "w");
	ASSERT_NE(NULL, f);
	ASSERT_EQ(1, fwrite(&h, sizeof(h), 1, f));
	ASSERT_EQ(1, fwrite(tail, sizeof(tail), 1, f));
	ASSERT_EQ(0, fclose(f));

	EXPECT_EQ(3, limited_restore(&r, path, false));
	EXPECT_NE(NULL, strstr(r.err, "truncated payload")) TH_LOG("%s", r.err);
	kbctl_free(&r);
	EXPECT_EQ(3, limited_restore(&r, path, true));
	EXPECT_NE(NULL, strstr(r.err, "truncated payload")) TH_LOG("%s", r.err);
	kbctl_free(&r);
	unlink(path);
	rmdir(dir);
}

TEST_HARNESS_MAIN
