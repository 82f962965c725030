// SPDX-License-Identifier: GPL-2.0
/*
 * kbloom.ko's kfuncs from XDP programs (tests/kmod/kfunc_xdp.bpf.c) under
 * BPF_PROG_TEST_RUN, in the guest with the module loaded.
 *
 * module_btf            /sys/kernel/btf/kbloom exists and names the four
 *                       kfuncs; a module built without BTF fails here (and
 *                       every other test fails with the same reason)
 * kfunc.* (per type: counting, blocked, standard, vi, cuckoo, partitioned,
 *         scalable, dynamic)
 *   verdict_follows_ioctl  the verdict changes when a key is added through
 *                          the ioctl, and again when it is deleted
 *                          (counting, vi, cuckoo, dynamic)
 *                          or flushed; a destroyed filter answers "no
 *                          filter", a RESTOREd one its image
 *   key_lengths            keys of 1..64 bytes: the kfunc answers exactly as
 *                          KBLOOM_IOCTL_TEST (one test path, false positives
 *                          included); 0 and 65..80 bytes give -EINVAL
 *   packet_key             a key passed as a packet pointer, same answers
 *   stat                   bpf_kbloom_stat() agrees with KBLOOM_IOCTL_STAT;
 *                          a short buffer gives -EINVAL
 * names                 31 characters work; empty, 32 or unknown: no filter
 * churn_no_false_negatives
 *                       threads add and delete keys of a counting filter
 *                       through the ioctls while a test-run loop queries
 *                       the keys that stay: not one false negative
 * restore_swap_atomic   RESTORE swaps the filter between image A and image
 *                       B while a program tests a key of A and a key of B
 *                       with one reference: never neither
 * destroy_under_test    DESTROY/CREATE churn while programs query: only
 *                       PASS, DROP or "no filter", and a clean kernel log
 * tc_refused            the kfuncs are refused to a tc program (EACCES,
 *                       "calling kernel function ... is not allowed")
 * rmmod_while_loaded    rmmod is refused while a loaded program uses the
 *                       kfuncs, succeeds once it is unloaded; the module is
 *                       loaded again for the tests after this one
 *
 * KBLOOM_KFUNC_SECONDS (default 2) sets the length of the churn tests.
 */
#include <pthread.h>
#include <time.h>
#include <sys/klog.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include "guest_harness.h"
#include "kmod_util.h"
#include "uapi/kbloom_kfunc.h"
#include "tests/kmod/kfunc_xdp.skel.h"
#include "tests/kmod/kfunc_tc.skel.h"

#define KF_BTF		"/sys/kernel/btf/kbloom"
#define KF_HDR		14
#define KF_KEY_BUF	80

/* The frame of kf_key: Ethernet header, key length, key buffer. */
struct kf_frame {
	__u8 eth[KF_HDR];
	__u8 len;
	__u8 key[KF_KEY_BUF];
} __attribute__((packed));

static const char *const kf_kfuncs[] = {
	"bpf_kbloom_get", "bpf_kbloom_put", "bpf_kbloom_test", "bpf_kbloom_stat",
	"bpf_kbloom_test_id",
};

/* ---- helpers ---------------------------------------------------------- */

static double kf_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static double kf_seconds(void)
{
	const char *s = getenv("KBLOOM_KFUNC_SECONDS");

	return s ? atof(s) : 2.0;
}

/* Whether the kernel log has @needle. */
static int kf_klog_has(const char *needle)
{
	int len = klogctl(10 /* SYSLOG_ACTION_SIZE_BUFFER */, NULL, 0);
	char *buf;
	int n, found = 0;

	if (len <= 0)
		return 0;
	buf = calloc(1, len + 1);
	if (!buf)
		return 0;
	n = klogctl(3 /* SYSLOG_ACTION_READ_ALL */, buf, len);
	if (n > 0) {
		buf[n] = 0;
		found = !!strstr(buf, needle);
	}
	free(buf);
	return found;
}

/*
 * Why kbloom.ko's kfuncs cannot be used here, or NULL when they can:
 * its BTF is in sysfs and names every kfunc.
 */
static const char *kf_btf_problem(void)
{
	static char why[320];
	struct btf *vmlinux, *mod;
	unsigned int i;

	if (access("/sys/module/kbloom", F_OK))
		return "kbloom.ko is not loaded";
	if (access(KF_BTF, F_OK)) {
		snprintf(why, sizeof(why),
			 "kbloom.ko has no BTF (%s missing): the module was built without pahole/resolve_btfids (make kmod produces it with BTF)%s",
			 KF_BTF, kf_klog_has("missing module BTF") ?
			 "; the kernel logged \"missing module BTF, cannot register kfuncs\"" : "");
		return why;
	}
	vmlinux = btf__load_vmlinux_btf();
	if (!vmlinux)
		return "cannot read /sys/kernel/btf/vmlinux";
	mod = btf__parse_split(KF_BTF, vmlinux);
	if (!mod) {
		btf__free(vmlinux);
		return "cannot parse " KF_BTF;
	}
	why[0] = 0;
	for (i = 0; i < ARRAY_LEN(kf_kfuncs); i++)
		if (btf__find_by_name_kind(mod, kf_kfuncs[i], BTF_KIND_FUNC) < 0)
			snprintf(why, sizeof(why), "%s has no FUNC %s",
				 KF_BTF, kf_kfuncs[i]);
	btf__free(mod);
	btf__free(vmlinux);
	return why[0] ? why : NULL;
}

static void kf_set_name(struct kfunc_xdp *skel, const char *name)
{
	memset(skel->bss->filter_name, 0, sizeof(skel->bss->filter_name));
	memcpy(skel->bss->filter_name, name,
	       strnlen(name, sizeof(skel->bss->filter_name)));
}

/* One run of @prog on @data: the verdict, or -errno. */
static int kf_run(const struct bpf_program *prog, const void *data,
		  __u32 size)
{
	LIBBPF_OPTS(bpf_test_run_opts, o,
		.data_in = data,
		.data_size_in = size,
		.repeat = 1,
	);

	if (bpf_prog_test_run_opts(bpf_program__fd(prog), &o))
		return -errno;
	return o.retval;
}

/* kf_key on a key of @len bytes (@len may exceed KBLOOM_KEY_MAX). */
static int kf_key_verdict(struct kfunc_xdp *skel, const void *key, __u32 len)
{
	struct kf_frame fr = {};

	fr.len = len;
	memcpy(fr.key, key, len < KF_KEY_BUF ? len : KF_KEY_BUF);
	return kf_run(skel->progs.kf_key, &fr, sizeof(fr));
}

/* The ioctl's answer for one key: 1, 0 or -errno. */
static int kf_ioctl_test(int fd, const char *name, const void *key, __u32 len)
{
	__u32 hits = 0;
	int ret;

	ret = ku_keys(fd, KBLOOM_IOCTL_TEST, name, key, len, len, 1, NULL,
		      NULL, &hits);
	return ret ? ret : (int)hits;
}

static int kf_add(int fd, const char *name, const void *keys, __u32 len,
		  __u32 count)
{
	return ku_keys(fd, KBLOOM_IOCTL_ADD, name, keys, (__u64)len * count,
		       len, count, NULL, NULL, NULL);
}

static int kf_del(int fd, const char *name, const void *keys, __u32 len,
		  __u32 count)
{
	return ku_keys(fd, KBLOOM_IOCTL_DEL, name, keys, (__u64)len * count,
		       len, count, NULL, NULL, NULL);
}

/* Fail the test, with the reason, when the kfuncs cannot be used. */
#define KF_NEED_BTF() do {						\
	const char *_why = kf_btf_problem();				\
									\
	if (_why)							\
		TH_LOG("FAIL: %s", _why);				\
	ASSERT_EQ(NULL, _why);						\
} while (0)

/* ---- the module's BTF --------------------------------------------------- */

TEST(module_btf)
{
	KF_NEED_BTF();
}

/* ---- per filter type ------------------------------------------------------ */

FIXTURE(kfunc) {
	int fd;
	struct kfunc_xdp *skel;
	char name[KBLOOM_NAME_LEN];
};

FIXTURE_VARIANT(kfunc) {
	__u32 type;
	__u32 counter_bits;
};

FIXTURE_VARIANT_ADD(kfunc, counting) {
	.type = KBLOOM_TYPE_COUNTING,
	.counter_bits = 4,
};

FIXTURE_VARIANT_ADD(kfunc, blocked) {
	.type = KBLOOM_TYPE_BLOCKED,
};

FIXTURE_VARIANT_ADD(kfunc, standard) {
	.type = KBLOOM_TYPE_STANDARD,
};

/* variable-increment counting, the CREATE default L (3 for 4-bit) */
FIXTURE_VARIANT_ADD(kfunc, vi) {
	.type = KBLOOM_TYPE_VI_COUNTING,
	.counter_bits = 4,
};

FIXTURE_VARIANT_ADD(kfunc, cuckoo) {
	.type = KBLOOM_TYPE_CUCKOO,
};

/* planned from (n, p) like the cuckoo variant: kb_part_plan() */
FIXTURE_VARIANT_ADD(kfunc, partitioned) {
	.type = KBLOOM_TYPE_PARTITIONED,
};

/* first generations of 1000 keys: key_lengths' 4096 keys open more */
FIXTURE_VARIANT_ADD(kfunc, scalable) {
	.type = KBLOOM_TYPE_SCALABLE,
};

FIXTURE_VARIANT_ADD(kfunc, dynamic) {
	.type = KBLOOM_TYPE_DYNAMIC,
};

/* a count window of 20000 keys planned for 0.1%: kb_win_plan() */
FIXTURE_VARIANT_ADD(kfunc, window) {
	.type = KBLOOM_TYPE_AGE_PARTITIONED,
};

/* A window of the last 20000 keys, planned for 0.1%. */
static int kf_create_window(int fd, const char *name)
{
	struct kbloom_create c = {
		.size = sizeof(c), .type = KBLOOM_TYPE_AGE_PARTITIONED,
		.update = KB_WIN_CLOCK_KEYS, .window = 20000,
		.fpr_pico = 1000000000,
	};

	ku_name(c.name, name);
	return ku_ioctl(fd, KBLOOM_IOCTL_CREATE, &c);
}

static int kf_deletable(__u32 type)
{
	return type == KBLOOM_TYPE_COUNTING ||
	       type == KBLOOM_TYPE_VI_COUNTING || type == KBLOOM_TYPE_CUCKOO ||
	       type == KBLOOM_TYPE_DYNAMIC;
}

FIXTURE_SETUP(kfunc)
{
	KF_NEED_BTF();
	self->fd = ku_open();
	ASSERT_LE(0, self->fd);
	snprintf(self->name, sizeof(self->name), "kf.t%u", variant->type);
	ku_destroy(self->fd, self->name);
	if (variant->type == KBLOOM_TYPE_AGE_PARTITIONED) {
		ASSERT_EQ(0, kf_create_window(self->fd, self->name));
	} else if (variant->type == KBLOOM_TYPE_CUCKOO ||
		   variant->type == KBLOOM_TYPE_PARTITIONED) {
		ASSERT_EQ(0, ku_create_np(self->fd, self->name, variant->type,
					  20000, 1000000000, NULL));
	} else if (variant->type == KBLOOM_TYPE_SCALABLE ||
		   variant->type == KBLOOM_TYPE_DYNAMIC) {
		ASSERT_EQ(0, ku_create_np(self->fd, self->name, variant->type,
					  1000, 1000000000, NULL));
	} else {
		ASSERT_EQ(0, ku_create_mk(self->fd, self->name, variant->type,
					  1 << 16, 4, variant->counter_bits,
					  0));
	}
	self->skel = kfunc_xdp__open_and_load();
	ASSERT_NE(NULL, self->skel);
	kf_set_name(self->skel, self->name);
}

FIXTURE_TEARDOWN(kfunc)
{
	kfunc_xdp__destroy(self->skel);
	if (self->fd >= 0) {
		ku_destroy(self->fd, self->name);
		close(self->fd);
	}
}

TEST_F(kfunc, verdict_follows_ioctl)
{
	struct kfunc_xdp *skel = self->skel;
	__u8 key[16], other[16];
	__u64 img_len = 0;
	void *img = NULL;

	ku_key16(key, 1, 42);
	ku_key16(other, 1, 43);
	EXPECT_EQ(XDP_DROP, kf_key_verdict(skel, key, 16));
	ASSERT_EQ(0, kf_add(self->fd, self->name, key, 16, 1));
	EXPECT_EQ(XDP_PASS, kf_key_verdict(skel, key, 16));
	EXPECT_EQ(1, skel->bss->last_ret);
	EXPECT_EQ(XDP_DROP, kf_key_verdict(skel, other, 16));
	EXPECT_EQ(0, skel->bss->last_ret);

	if (kf_deletable(variant->type)) {
		ASSERT_EQ(0, kf_del(self->fd, self->name, key, 16, 1));
	} else {
		/* bit filters cannot delete: clearing is FLUSH */
		EXPECT_EQ(-EOPNOTSUPP, kf_del(self->fd, self->name, key, 16, 1));
		ASSERT_EQ(0, ku_name_cmd(self->fd, KBLOOM_IOCTL_FLUSH,
					 self->name, 0));
	}
	EXPECT_EQ(XDP_DROP, kf_key_verdict(skel, key, 16));

	/* save with the key, destroy: no filter; restore: the key again */
	ASSERT_EQ(0, kf_add(self->fd, self->name, key, 16, 1));
	ASSERT_EQ(0, ku_save(self->fd, self->name, &img, &img_len));
	ASSERT_EQ(0, ku_destroy(self->fd, self->name));
	EXPECT_EQ(XDP_ABORTED, kf_key_verdict(skel, key, 16));
	ASSERT_EQ(0, ku_restore(self->fd, self->name, img, img_len, 0));
	EXPECT_EQ(XDP_PASS, kf_key_verdict(skel, key, 16));
	free(img);
}

TEST_F(kfunc, key_lengths)
{
	static __u8 keys[KBLOOM_KEY_MAX][KBLOOM_KEY_MAX];
	__u64 s = 0x6b66756e63ULL + variant->type;
	__u32 len, i, j, agree = 0, present = 0;
	int v, io;

	for (len = 1; len <= KBLOOM_KEY_MAX; len++) {
		for (i = 0; i < KBLOOM_KEY_MAX; i++)
			for (j = 0; j < len; j++)
				keys[i][j] = (__u8)ku_rand(&s);
		for (i = 0; i < KBLOOM_KEY_MAX; i += 2)
			ASSERT_EQ(0, kf_add(self->fd, self->name, keys[i], len, 1));
		for (i = 0; i < KBLOOM_KEY_MAX; i++) {
			v = kf_key_verdict(self->skel, keys[i], len);
			io = kf_ioctl_test(self->fd, self->name, keys[i], len);
			ASSERT_TRUE(v == XDP_PASS || v == XDP_DROP)
				TH_LOG("len %u key %u: verdict %d", len, i, v);
			ASSERT_LE(0, io);
			EXPECT_EQ(io, v == XDP_PASS)
				TH_LOG("len %u key %u: kfunc %d, ioctl %d",
				       len, i, v, io);
			agree += io == (v == XDP_PASS);
			present += v == XDP_PASS;
			if (!(i & 1))
				EXPECT_EQ(XDP_PASS, v);	/* no false negative */
		}
	}
	TH_LOG("%u of %u answers agree with the ioctl; %u possibly present",
	       agree, KBLOOM_KEY_MAX * KBLOOM_KEY_MAX, present);

	/* lengths the kfunc refuses */
	for (len = 0; len <= KF_KEY_BUF; len += (len ? 1 : KBLOOM_KEY_MAX + 1)) {
		EXPECT_EQ(XDP_TX, kf_key_verdict(self->skel, keys[0], len))
			TH_LOG("len %u", len);
		EXPECT_EQ(-EINVAL, self->skel->bss->last_ret);
	}
}

TEST_F(kfunc, packet_key)
{
	__u8 fr[KF_HDR + 16] = {};
	__u8 keys[200 * 16];
	__u32 i;
	int a, b;

	ku_keys16(keys, 3, 0, 200);
	ASSERT_EQ(0, kf_add(self->fd, self->name, keys, 16, 100));
	for (i = 0; i < 200; i++) {
		memcpy(fr + KF_HDR, keys + 16 * i, 16);
		a = kf_run(self->skel->progs.kf_pkt, fr, sizeof(fr));
		b = kf_key_verdict(self->skel, keys + 16 * i, 16);
		EXPECT_EQ(b, a);
		if (i < 100)
			EXPECT_EQ(XDP_PASS, a);
	}
}

TEST_F(kfunc, stat)
{
	const struct kbloom_kfunc_stat *ks = &self->skel->bss->stat_out;
	struct kbloom_stat st;
	__u8 keys[300 * 16];
	__u8 fr[KF_HDR] = {};

	ku_keys16(keys, 4, 0, 300);
	ASSERT_EQ(0, kf_add(self->fd, self->name, keys, 16, 300));
	if (kf_deletable(variant->type))
		ASSERT_EQ(0, kf_del(self->fd, self->name, keys, 16, 20));
	ASSERT_EQ(0, ku_stat(self->fd, self->name, &st));
	ASSERT_EQ(XDP_PASS, kf_run(self->skel->progs.kf_stat, fr, sizeof(fr)));
	EXPECT_EQ(0, self->skel->bss->stat_ret);
	EXPECT_EQ(-EINVAL, self->skel->bss->stat_small_ret);
	EXPECT_EQ(st.id, ks->id);
	EXPECT_EQ(st.type, ks->type);
	EXPECT_EQ(variant->type, ks->type);
	EXPECT_EQ(st.k, ks->k);
	EXPECT_EQ(st.hash_id, ks->hash_id);
	EXPECT_EQ(st.counter_bits, ks->counter_bits);
	EXPECT_EQ(st.m, ks->m);
	EXPECT_EQ(st.bytes, ks->bytes);
	EXPECT_EQ(st.capacity, ks->capacity);
	EXPECT_EQ(st.fpr_pico, ks->fpr_pico);
	EXPECT_EQ(st.inserted, ks->inserted);
	EXPECT_EQ(kf_deletable(variant->type) ? 280 : 300,
		  ks->inserted);
	EXPECT_EQ(st.saturations, ks->saturations);
	EXPECT_EQ(0, ks->reserved);

	/* gone: the program sees no filter */
	ASSERT_EQ(0, ku_destroy(self->fd, self->name));
	EXPECT_EQ(XDP_ABORTED, kf_run(self->skel->progs.kf_stat, fr, sizeof(fr)));
}

/* ---- names ------------------------------------------------------------ */

TEST(names)
{
	static const char long31[] = "kf.abcdefghijklmnopqrstuvwxyz01";
	struct kfunc_xdp *skel;
	__u8 key[16];
	int fd;

	KF_NEED_BTF();
	ASSERT_EQ(31, strlen(long31));
	fd = ku_open();
	ASSERT_LE(0, fd);
	ku_destroy(fd, long31);
	ASSERT_EQ(0, ku_create_mk(fd, long31, KBLOOM_TYPE_BLOCKED, 4096, 3, 0, 0));
	ku_key16(key, 5, 1);
	ASSERT_EQ(0, kf_add(fd, long31, key, 16, 1));
	skel = kfunc_xdp__open_and_load();
	ASSERT_NE(NULL, skel);

	kf_set_name(skel, long31);
	EXPECT_EQ(XDP_PASS, kf_key_verdict(skel, key, 16));
	/* 32 bytes without a NUL: too long */
	memcpy(skel->bss->filter_name, "kf.abcdefghijklmnopqrstuvwxyz012", 32);
	EXPECT_EQ(XDP_ABORTED, kf_key_verdict(skel, key, 16));
	kf_set_name(skel, "");
	EXPECT_EQ(XDP_ABORTED, kf_key_verdict(skel, key, 16));
	kf_set_name(skel, "kf.nosuchfilter");
	EXPECT_EQ(XDP_ABORTED, kf_key_verdict(skel, key, 16));

	kfunc_xdp__destroy(skel);
	EXPECT_EQ(0, ku_destroy(fd, long31));
	close(fd);
}

/* ---- under concurrent ioctls -------------------------------------------- */

#define CHURN_THREADS	2
#define CHURN_BATCH	64
#define STABLE_KEYS	512

struct churn {
	pthread_t th;
	const char *name;
	__u32 space;
	volatile int *stop;
	__u64 rounds;
	int err;
	const void *img[2];
	__u64 img_len[2];
};

/* ADD a batch of fresh keys, DEL the batch before it: the filter moves. */
static void *churn_add_del(void *arg)
{
	struct churn *c = arg;
	__u8 keys[2][CHURN_BATCH * 16];
	int fd = ku_open(), ret = 0;
	__u64 r;

	if (fd < 0) {
		c->err = -errno;
		return NULL;
	}
	for (r = 0; !*c->stop && !ret; r++) {
		ku_keys16(keys[r & 1], c->space, r * CHURN_BATCH, CHURN_BATCH);
		ret = kf_add(fd, c->name, keys[r & 1], 16, CHURN_BATCH);
		if (!ret && r)
			ret = kf_del(fd, c->name, keys[!(r & 1)], 16,
				     CHURN_BATCH);
		c->rounds++;
	}
	c->err = ret;
	close(fd);
	return NULL;
}

TEST(churn_no_false_negatives)
{
	static __u8 stable[STABLE_KEYS * 16];
	struct churn ch[CHURN_THREADS] = {};
	volatile int stop = 0;
	struct kfunc_xdp *skel;
	__u64 runs = 0, fn = 0, other = 0, churned = 0;
	double end;
	int fd, v, i;

	KF_NEED_BTF();
	fd = ku_open();
	ASSERT_LE(0, fd);
	ku_destroy(fd, "kf.churn");
	ASSERT_EQ(0, ku_create_mk(fd, "kf.churn", KBLOOM_TYPE_COUNTING, 1 << 16,
				  4, 4, 0));
	ku_keys16(stable, 100, 0, STABLE_KEYS);
	ASSERT_EQ(0, kf_add(fd, "kf.churn", stable, 16, STABLE_KEYS));
	skel = kfunc_xdp__open_and_load();
	ASSERT_NE(NULL, skel);
	kf_set_name(skel, "kf.churn");

	for (i = 0; i < CHURN_THREADS; i++) {
		ch[i].name = "kf.churn";
		ch[i].space = 200 + i;
		ch[i].stop = &stop;
		ASSERT_EQ(0, pthread_create(&ch[i].th, NULL, churn_add_del,
					    &ch[i]));
	}
	end = kf_now() + kf_seconds();
	while (kf_now() < end) {
		v = kf_key_verdict(skel, stable + 16 * (runs % STABLE_KEYS), 16);
		runs++;
		if (v == XDP_DROP)
			fn++;
		else if (v != XDP_PASS)
			other++;
	}
	stop = 1;
	for (i = 0; i < CHURN_THREADS; i++) {
		pthread_join(ch[i].th, NULL);
		EXPECT_EQ(0, ch[i].err);
		churned += ch[i].rounds;
	}
	TH_LOG("%llu test runs of the kept keys against %llu add+del batches of %u keys: %llu false negatives",
	       (unsigned long long)runs, (unsigned long long)churned,
	       CHURN_BATCH, (unsigned long long)fn);
	EXPECT_EQ(0, fn);
	EXPECT_EQ(0, other);
	EXPECT_LT(100, runs);
	EXPECT_LT(10, churned);
	kfunc_xdp__destroy(skel);
	EXPECT_EQ(0, ku_destroy(fd, "kf.churn"));
	close(fd);
}

/* RESTORE with replace, alternating between two images. */
static void *churn_restore(void *arg)
{
	struct churn *c = arg;
	int fd = ku_open(), ret = 0;

	if (fd < 0) {
		c->err = -errno;
		return NULL;
	}
	for (; !*c->stop && !ret; c->rounds++)
		ret = ku_restore(fd, c->name, c->img[c->rounds & 1],
				 c->img_len[c->rounds & 1],
				 KBLOOM_RESTORE_REPLACE);
	c->err = ret;
	close(fd);
	return NULL;
}

/* An image of a blocked filter holding keys 0..@n-1 of @space. */
static int kf_image(int fd, __u32 space, __u32 n, void **img, __u64 *len)
{
	__u8 keys[256 * 16];
	int ret;

	ku_destroy(fd, "kf.img");
	ret = ku_create_mk(fd, "kf.img", KBLOOM_TYPE_BLOCKED, 1 << 18, 6, 0,
			   0x1234);
	if (ret)
		return ret;
	ku_keys16(keys, space, 0, n);
	ret = kf_add(fd, "kf.img", keys, 16, n);
	if (!ret)
		ret = ku_save(fd, "kf.img", img, len);
	ku_destroy(fd, "kf.img");
	return ret;
}

TEST(restore_swap_atomic)
{
	struct churn c = { .name = "kf.swap" };
	volatile int stop = 0;
	struct kfunc_xdp *skel;
	__u8 fr[KF_HDR + 32] = {};
	void *img[2] = {};
	__u64 runs = 0, bad = 0, i;
	double end;
	int fd, v;

	KF_NEED_BTF();
	fd = ku_open();
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, kf_image(fd, 10, 256, &img[0], &c.img_len[0]));
	ASSERT_EQ(0, kf_image(fd, 11, 256, &img[1], &c.img_len[1]));
	c.img[0] = img[0];
	c.img[1] = img[1];
	ku_destroy(fd, "kf.swap");
	ASSERT_EQ(0, ku_restore(fd, "kf.swap", img[0], c.img_len[0], 0));
	skel = kfunc_xdp__open_and_load();
	ASSERT_NE(NULL, skel);
	kf_set_name(skel, "kf.swap");

	c.stop = &stop;
	ASSERT_EQ(0, pthread_create(&c.th, NULL, churn_restore, &c));
	end = kf_now() + kf_seconds();
	for (i = 0; kf_now() < end; i++) {
		ku_key16(fr + KF_HDR, 10, i % 256);
		ku_key16(fr + KF_HDR + 16, 11, (i * 7) % 256);
		v = kf_run(skel->progs.kf_two, fr, sizeof(fr));
		runs++;
		if (v != XDP_PASS)
			bad++;
	}
	stop = 1;
	pthread_join(c.th, NULL);
	EXPECT_EQ(0, c.err);
	TH_LOG("%llu runs, %llu restores: A only %llu, B only %llu, both %llu, neither %llu",
	       (unsigned long long)runs, (unsigned long long)c.rounds,
	       (unsigned long long)skel->bss->pairs[1],
	       (unsigned long long)skel->bss->pairs[2],
	       (unsigned long long)skel->bss->pairs[3],
	       (unsigned long long)skel->bss->pairs[0]);
	EXPECT_EQ(0, bad);
	EXPECT_EQ(0, skel->bss->pairs[0]);
	/* both images were seen; "both" only from false positives */
	EXPECT_LT(0, skel->bss->pairs[1]);
	EXPECT_LT(0, skel->bss->pairs[2]);
	EXPECT_GE(runs / 100, skel->bss->pairs[3]);
	kfunc_xdp__destroy(skel);
	ku_destroy(fd, "kf.swap");
	free(img[0]);
	free(img[1]);
	close(fd);
}

/* DESTROY, CREATE, ADD, FLUSH in a loop. */
static void *churn_destroy(void *arg)
{
	struct churn *c = arg;
	int fd = ku_open(), ret = 0;
	__u8 key[16];

	if (fd < 0) {
		c->err = -errno;
		return NULL;
	}
	ku_key16(key, 7, 7);
	for (; !*c->stop && !ret; c->rounds++) {
		ret = ku_destroy(fd, c->name);
		if (ret == -ENOENT)
			ret = 0;
		ret = ret ?: ku_create_mk(fd, c->name, KBLOOM_TYPE_COUNTING,
					  1 << 12, 3, 4, 0);
		ret = ret ?: kf_add(fd, c->name, key, 16, 1);
		if (!ret && (c->rounds & 3) == 3)
			ret = ku_name_cmd(fd, KBLOOM_IOCTL_FLUSH, c->name, 0);
	}
	c->err = ret;
	close(fd);
	return NULL;
}

TEST(destroy_under_test)
{
	struct churn c = { .name = "kf.gone" };
	volatile int stop = 0;
	struct kfunc_xdp *skel;
	__u64 seen[4] = {}, odd = 0;
	__u8 key[16], fr[KF_HDR] = {};
	double end;
	int fd, v;

	KF_NEED_BTF();
	fd = ku_open();
	ASSERT_LE(0, fd);
	ku_destroy(fd, "kf.gone");
	skel = kfunc_xdp__open_and_load();
	ASSERT_NE(NULL, skel);
	kf_set_name(skel, "kf.gone");
	ku_key16(key, 7, 7);

	c.stop = &stop;
	ASSERT_EQ(0, pthread_create(&c.th, NULL, churn_destroy, &c));
	end = kf_now() + kf_seconds() / 2;
	while (kf_now() < end) {
		v = kf_key_verdict(skel, key, 16);
		if (v >= 0 && v <= XDP_PASS)
			seen[v]++;
		else
			odd++;
		v = kf_run(skel->progs.kf_stat, fr, sizeof(fr));
		if (v != XDP_PASS && v != XDP_ABORTED)
			odd++;
		if (v == XDP_PASS && skel->bss->stat_ret)
			odd++;
	}
	stop = 1;
	pthread_join(c.th, NULL);
	EXPECT_EQ(0, c.err);
	TH_LOG("%llu destroy/create rounds: present %llu, absent %llu, no filter %llu",
	       (unsigned long long)c.rounds, (unsigned long long)seen[XDP_PASS],
	       (unsigned long long)seen[XDP_DROP],
	       (unsigned long long)seen[XDP_ABORTED]);
	EXPECT_EQ(0, odd);
	EXPECT_LT(0, seen[XDP_PASS] + seen[XDP_DROP]);
	kfunc_xdp__destroy(skel);
	ku_destroy(fd, "kf.gone");
	close(fd);
}

/* ---- program types, module lifetime --------------------------------------- */

TEST(tc_refused)
{
	static char log[65536];
	struct kfunc_tc *skel;
	int ret;

	KF_NEED_BTF();
	skel = kfunc_tc__open();
	ASSERT_NE(NULL, skel);
	ASSERT_EQ(0, bpf_program__set_log_buf(skel->progs.kf_tc, log,
					      sizeof(log)));
	ret = kfunc_tc__load(skel);
	EXPECT_EQ(-EACCES, ret);
	EXPECT_NE(NULL, strstr(log, "calling kernel function bpf_kbloom_get is not allowed"))
		TH_LOG("verifier log: %.400s", log);
	kfunc_tc__destroy(skel);
}

static const char *kf_ko_path(void)
{
	static const char *const paths[] = {
		"/kbloom/build/kbloom.ko", "build/kbloom.ko",
	};
	const char *env = getenv("KBLOOM_KO");
	unsigned int i;

	if (env)
		return env;
	for (i = 0; i < ARRAY_LEN(paths); i++)
		if (!access(paths[i], R_OK))
			return paths[i];
	return NULL;
}

static int kf_mod_load(void)
{
	const char *path = kf_ko_path();

	return path ? ku_mod_load(path, "") : -ENOENT;
}

static int kf_mod_unload(void)
{
	return ku_mod_unload();
}

TEST(rmmod_while_loaded)
{
	struct kfunc_xdp *skel;
	double end;
	int ret;

	KF_NEED_BTF();
	if (!kf_ko_path())
		SKIP(return, "kbloom.ko not found (set KBLOOM_KO)");
	skel = kfunc_xdp__open_and_load();
	ASSERT_NE(NULL, skel);
	EXPECT_EQ(-EWOULDBLOCK, kf_mod_unload());
	EXPECT_EQ(0, access("/sys/module/kbloom", F_OK));

	/* the program's module reference goes in a deferred free */
	kfunc_xdp__destroy(skel);
	end = kf_now() + 10;
	do {
		ret = kf_mod_unload();
		if (ret != -EWOULDBLOCK)
			break;
		usleep(20000);
	} while (kf_now() < end);
	EXPECT_EQ(0, ret);
	if (access("/sys/module/kbloom", F_OK))
		ASSERT_EQ(0, kf_mod_load());
	EXPECT_EQ(NULL, kf_btf_problem());
}

TEST_HARNESS_MAIN
