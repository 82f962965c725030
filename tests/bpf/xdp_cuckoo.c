// SPDX-License-Identifier: GPL-2.0
/*
 * The gate's cuckoo variant (KBLOOM_XDP_VARIANT_CUCKOO): the BPF lookup
 * (bpf/kbloom_cuckoo.h, through the probe xdp_cuckoo.bpf.c sharing the
 * gate's gate_cuckoo, gate_filters and gate_cseq) against libkbloom_cuckoo.
 *
 *  - a filter of 10^6 keys built by libkbloom_cuckoo travels as a
 *    version-3 image into the gate's map: BPF_PROG_TEST_RUN finds every
 *    key, and for 10^6 absent keys its answer equals the library's and
 *    the loader's; the map saved again is the library's payload word for
 *    word;
 *  - kbloom_gate_add/del write the map through libkbloom_cuckoo: a
 *    deleted address is gone from the filter, not only from the set;
 *  - adds and deletes at 90% load (kicks) in one thread, BPF lookups of
 *    the addresses that stay in another: no false negative;
 *  - a counter left odd (a writer died in its window): "possibly
 *    present" until the next writer repairs it; replaced programs;
 *  - bad inputs refused with their errno and a log line, nothing changed:
 *    blocked geometry, a rate needing buckets wider than 64 bits, the
 *    variant on mcast, images of another type, of too wide buckets or
 *    corrupted, parameters naming more blocks than the map has.
 */
#include <pthread.h>
#include <linux/bpf.h>
#include <bpf/libbpf.h>
#include <bpf/bpf.h>
#include "kselftest_harness.h"
#include "libkbloom.h"
#include "libkbloom_cuckoo.h"
#include "libkbloom_xdp.h"
#include "uapi/kbloom_image.h"
#include "uapi/kbloom_xdp_maps.h"
#include "tests/bpf/xdp_cuckoo_util.h"

#define NKEYS		1000000ULL
#define PICO_02		2000000000ULL	/* 0.2% */
#define SEED		0x5eed0fc0c0ULL

FIXTURE(ck) {
	char name[64];
	struct ckt_gate g;
	struct kbloom_xdp *x;	/* g.x */
	int fd;			/* g.fd */
	struct kbt_log log;
};

/* A cuckoo gate for @capacity keys at 0.2%, and the probe on its maps. */
static int ck_make(FIXTURE_DATA(ck) *self, __u64 capacity)
{
	struct kbloom_xdp_opts o = {
		.mode = KBLOOM_GATE_MONITOR,
		.geom = { .capacity = capacity, .fpr_pico = PICO_02,
			  .seed = SEED },
		.max_keys = 1U << 16,
		.log = kbt_log_line, .log_ctx = &self->log,
	};
	int ret = ckt_gate_make(&self->g, self->name, &o);

	self->x = self->g.x;
	self->fd = self->g.fd;
	return ret;
}

FIXTURE_SETUP(ck)
{
	kbt_janitor();
	kbt_name(self->name, sizeof(self->name), "ck");
}

FIXTURE_TEARDOWN(ck)
{
	ckt_gate_free(&self->g);
	kbt_unpin(self->name);
}


/* An IPv4 address 10.x.y.z from @i. */
static void addr_of(__u32 i, __u8 a[4])
{
	a[0] = 10;
	a[1] = (__u8)(i >> 16);
	a[2] = (__u8)(i >> 8);
	a[3] = (__u8)i;
}

static struct kbloom_cuckoo *ck_build(__u64 n)
{
	struct kbloom_opts o = { .seed = SEED };
	struct kbloom_cuckoo *c = NULL;
	__u8 key[16];
	__u64 i;

	if (kbloom_cuckoo_create(n, PICO_02, &o, &c))
		return NULL;
	for (i = 0; i < n; i++) {
		ckt_key(1, i, key);
		if (kbloom_cuckoo_add(c, key, 16)) {
			kbloom_cuckoo_destroy(c);
			return NULL;
		}
	}
	return c;
}

static int ck_image(const struct kbloom_cuckoo *c, void **img, size_t *len)
{
	*len = kbloom_cuckoo_image_size(c);
	*img = malloc(*len);
	if (!*img)
		return -ENOMEM;
	return kbloom_cuckoo_save(c, *img, *len, NULL);
}

TEST_F_TIMEOUT(ck, bpf_library_loader_agree_1m, 600)
{
	struct kbloom_gate_cuckoo_info info;
	struct kbloom_cuckoo_stats st;
	struct kbloom_cuckoo *c;
	__u64 i, fp = 0, disagree = 0, missing = 0, nw;
	void *img, *back;
	size_t len, blen;
	__u8 key[16];
	int b;

	ASSERT_EQ(0, ck_make(self, 1000));
	c = ck_build(NKEYS);
	ASSERT_NE(NULL, c);
	ASSERT_EQ(0, ck_image(c, &img, &len));
	ASSERT_EQ(0, kbloom_gate_cuckoo_load_image(self->x, img, len));
	ASSERT_EQ(0, kbloom_cuckoo_stats(c, &st));
	ASSERT_EQ(0, kbloom_gate_cuckoo_info(self->x, &info));
	EXPECT_EQ(0, memcmp(&st.shape, &info.params.shape, sizeof(st.shape)));
	EXPECT_EQ(SEED, info.params.seed);
	EXPECT_EQ(NKEYS, info.params.inserted);
	EXPECT_EQ(st.used, info.used);
	EXPECT_EQ(2, info.params.gen);

	for (i = 0; i < NKEYS; i++) {
		ckt_key(1, i, key);
		b = ckt_probe(self->fd, key, 16);
		ASSERT_LE(0, b);
		missing += b != 1;
	}
	EXPECT_EQ(0, missing);
	for (i = 0; i < NKEYS; i++) {
		ckt_key(2, i, key);
		b = ckt_probe(self->fd, key, 16);
		ASSERT_LE(0, b);
		if (b != kbloom_cuckoo_test(c, key, 16) ||
		    b != kbloom_gate_cuckoo_test(self->x, key, 16))
			disagree++;
		fp += b;
	}
	EXPECT_EQ(0, disagree);
	/* 0.185% at 95% load, f = 12: a sanity bound; agreement is the test */
	EXPECT_GT(fp, NKEYS / 1000);
	EXPECT_LT(fp, NKEYS * 3 / 1000);
	TH_LOG("%llu keys found, %llu absent keys agree, %llu false positives (%.3f%%), load %.1f%%",
	       NKEYS, NKEYS, (unsigned long long)fp, fp * 100.0 / NKEYS,
	       info.load_ppm / 1e4);

	/* the map saved again: the library's words */
	ASSERT_EQ(0, kbloom_gate_cuckoo_save_image(self->x, &back, &blen));
	ASSERT_EQ(len, blen);
	kbloom_cuckoo_words(c, &nw);
	EXPECT_EQ(0, memcmp((__u8 *)img + len - nw * 8,
			    (__u8 *)back + blen - nw * 8, nw * 8));
	free(back);
	free(img);
	kbloom_cuckoo_destroy(c);
}

TEST_F(ck, gate_del_deletes_from_the_filter)
{
	struct kbloom_gate_cuckoo_info info;
	__u8 a[4];
	__u32 i;
	int gone = 0;

	ASSERT_EQ(0, ck_make(self, 1000));
	for (i = 0; i < 500; i++) {
		addr_of(i, a);
		ASSERT_EQ(0, kbloom_gate_add(self->x, a, 4));
	}
	addr_of(7, a);
	EXPECT_EQ(-EEXIST, kbloom_gate_add(self->x, a, 4));
	for (i = 0; i < 500; i++) {
		addr_of(i, a);
		ASSERT_EQ(1, ckt_probe(self->fd, a, 4));
	}
	for (i = 0; i < 250; i++) {
		addr_of(i, a);
		ASSERT_EQ(0, kbloom_gate_del(self->x, a, 4));
		gone += ckt_probe(self->fd, a, 4) == 0;
	}
	EXPECT_EQ(-ENOENT, kbloom_gate_del(self->x, a, 4));
	/* a deleted address may still match another's fingerprint: rarely */
	EXPECT_GE(gone, 248);
	for (i = 250; i < 500; i++) {
		addr_of(i, a);
		ASSERT_EQ(1, ckt_probe(self->fd, a, 4));
	}
	ASSERT_EQ(0, kbloom_gate_cuckoo_info(self->x, &info));
	EXPECT_EQ(250, info.params.inserted);
	EXPECT_EQ(250, info.used);
	EXPECT_EQ(0, info.seq & 1);
	EXPECT_EQ(KBLOOM_XDP_VARIANT_CUCKOO, kbloom_xdp_variant(self->x));
}

/*
 * A writer that died inside its window leaves the counter odd: lookups
 * then answer "possibly present" (the exact map decides), the next writer
 * makes it even again.  Replacing the programs keeps the filter.
 */
TEST_F(ck, odd_counter_and_replace)
{
	struct kbloom_cuckoo_seq odd = { .seq = 7 };
	struct kbloom_gate_cuckoo_info info;
	__u32 zero = 0, i, maybe = 0;
	char path[512];
	__u8 a[4];
	int fd;

	ASSERT_EQ(0, ck_make(self, 1000));
	addr_of(1, a);
	ASSERT_EQ(0, kbloom_gate_add(self->x, a, 4));
	snprintf(path, sizeof(path), "%s/gate_cseq", kbloom_xdp_dir(self->x));
	fd = bpf_obj_get(path);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, bpf_map_update_elem(fd, &zero, &odd, 0));
	close(fd);
	for (i = 100; i < 200; i++) {
		addr_of(i, a);
		maybe += ckt_probe(self->fd, a, 4) == 1;
	}
	EXPECT_EQ(100, maybe);
	addr_of(2, a);
	ASSERT_EQ(0, kbloom_gate_add(self->x, a, 4));
	EXPECT_NE(NULL, strstr(self->log.text, "counter was odd"));
	ASSERT_EQ(0, kbloom_gate_cuckoo_info(self->x, &info));
	EXPECT_EQ(10, info.seq);
	maybe = 0;
	for (i = 100; i < 200; i++) {
		addr_of(i, a);
		maybe += ckt_probe(self->fd, a, 4) == 1;
	}
	EXPECT_GT(5, maybe);

	ASSERT_EQ(0, kbloom_xdp_replace(self->x));
	EXPECT_EQ(KBLOOM_XDP_VARIANT_CUCKOO, kbloom_xdp_variant(self->x));
	addr_of(1, a);
	EXPECT_EQ(1, kbloom_gate_cuckoo_test(self->x, a, 4));
	addr_of(3, a);
	ASSERT_EQ(0, kbloom_gate_add(self->x, a, 4));
	EXPECT_EQ(1, ckt_probe(self->fd, a, 4));
}

/* ---- churn: writers move entries while BPF reads ----------------------------- */

struct churn {
	const char *name;
	volatile int stop;
	__u64 adds, dels, full;
	int err;
};

/* Add and delete addresses 3000..3899 until told to stop. */
static void *churn_writer(void *arg)
{
	struct churn *ch = arg;
	struct kbloom_xdp *x;
	__u8 a[4];
	__u32 i;
	int ret;

	ch->err = kbloom_xdp_open(ch->name, NULL, &x);
	if (ch->err)
		return NULL;
	while (!ch->stop) {
		for (i = 3000; i < 3900; i++) {
			addr_of(i, a);
			ret = kbloom_gate_add(x, a, 4);
			if (ret == -ENOSPC)
				ch->full++;
			else if (ret)
				ch->err = ret;
			else
				ch->adds++;
		}
		for (i = 3000; i < 3900; i++) {
			addr_of(i, a);
			if (!kbloom_gate_del(x, a, 4))
				ch->dels++;
		}
	}
	kbloom_xdp_close(x);
	return NULL;
}

TEST_F_TIMEOUT(ck, churn_no_false_negatives, 120)
{
	struct kbloom_gate_cuckoo_info info;
	struct churn ch = { .name = self->name };
	__u64 tests = 0, misses = 0, errors = 0;
	pthread_t t;
	double end;
	__u8 a[4];
	__u32 i;
	int b;

	/* 4312 slots: 3000 stay, 900 come and go, up to 90% load */
	ASSERT_EQ(0, ck_make(self, 4096));
	for (i = 0; i < 3000; i++) {
		addr_of(i, a);
		ASSERT_EQ(0, kbloom_gate_add(self->x, a, 4));
	}
	ASSERT_EQ(0, pthread_create(&t, NULL, churn_writer, &ch));
	end = kbt_now() + 5;
	while (kbt_now() < end) {
		for (i = 0; i < 3000; i++) {
			addr_of(i, a);
			b = ckt_probe(self->fd, a, 4);
			tests++;
			misses += b == 0;
			errors += b < 0;
		}
	}
	ch.stop = 1;
	pthread_join(t, NULL);
	ASSERT_EQ(0, ch.err);
	ASSERT_EQ(0, kbloom_gate_cuckoo_info(self->x, &info));
	TH_LOG("%llu BPF tests, %llu misses; %llu adds, %llu deletes, %llu full, %llu kicks, load %.1f%%",
	       (unsigned long long)tests, (unsigned long long)misses,
	       (unsigned long long)ch.adds, (unsigned long long)ch.dels,
	       (unsigned long long)ch.full,
	       (unsigned long long)info.params.kicks, info.load_ppm / 1e4);
	EXPECT_EQ(0, misses);
	EXPECT_EQ(0, errors);
	EXPECT_GT(ch.adds, 900);
	EXPECT_GT(info.params.kicks, 0);
	EXPECT_EQ(0, info.seq & 1);
}

/* ---- bad inputs --------------------------------------------------------------- */

/* Create a gate with @o; it must fail with @err, a log line with @sub. */
static void bad_create(struct __test_metadata *_metadata,
		       FIXTURE_DATA(ck) *self, enum kbloom_xdp_kind kind,
		       struct kbloom_xdp_opts *o, int err, const char *sub)
{
	struct kbloom_xdp *x = NULL;
	char p[256];

	self->log.len = 0;
	self->log.text[0] = 0;
	o->log = kbt_log_line;
	o->log_ctx = &self->log;
	o->variant = KBLOOM_XDP_VARIANT_CUCKOO;
	EXPECT_EQ(err, kbloom_xdp_create(self->name, kind, o, &x));
	EXPECT_NE(NULL, strstr(self->log.text, sub))
		TH_LOG("log: %s", self->log.text);
	snprintf(p, sizeof(p), "%s/%s", KBT_PIN_ROOT, self->name);
	EXPECT_NE(0, access(p, F_OK));
	if (x)
		kbloom_xdp_destroy(x);
}

TEST_F(ck, bad_geometry_refused)
{
	struct kbloom_xdp_opts o = { .geom = { .m = 1024, .k = 3 } };

	bad_create(_metadata, self, KBLOOM_XDP_GATE, &o, -EINVAL,
		   "bits and hashes are for blocked filters");
	memset(&o, 0, sizeof(o));
	o.geom.capacity = 1000;
	o.geom.fpr_pico = 100000;		/* 1e-7: f = 24 */
	bad_create(_metadata, self, KBLOOM_XDP_GATE, &o, -EINVAL,
		   "buckets of at most 64 bits");
	memset(&o, 0, sizeof(o));
	o.geom.hash_id = 99;
	bad_create(_metadata, self, KBLOOM_XDP_GATE, &o, -EINVAL,
		   "hash id 99 out of range");
	/* an mcast switch of cuckoo ports: the same rules */
	memset(&o, 0, sizeof(o));
	o.geom.m = 1024;
	o.geom.k = 3;
	bad_create(_metadata, self, KBLOOM_XDP_MCAST, &o, -EINVAL,
		   "bits and hashes are for blocked filters");
}

/* The filter holds @n addresses and generation @gen still. */
static void unchanged(struct __test_metadata *_metadata,
		      FIXTURE_DATA(ck) *self, __u32 n, __u64 gen)
{
	struct kbloom_gate_cuckoo_info info;
	__u8 a[4];
	__u32 i;

	ASSERT_EQ(0, kbloom_gate_cuckoo_info(self->x, &info));
	EXPECT_EQ(gen, info.params.gen);
	EXPECT_EQ(n, info.params.inserted);
	for (i = 0; i < n; i++) {
		addr_of(i, a);
		EXPECT_EQ(1, ckt_probe(self->fd, a, 4));
	}
}

/* Load @img: refused with @err and a log line with @sub, nothing changed. */
static void bad_image(struct __test_metadata *_metadata,
		      FIXTURE_DATA(ck) *self, const void *img, size_t len,
		      int err, const char *sub)
{
	self->log.len = 0;
	self->log.text[0] = 0;
	EXPECT_EQ(err, kbloom_gate_cuckoo_load_image(self->x, img, len));
	EXPECT_NE(NULL, strstr(self->log.text, sub))
		TH_LOG("log: %s", self->log.text);
	unchanged(_metadata, self, 20, 1);
}

/* bad_image() of an empty cuckoo filter's image, its last byte @flip-ped. */
static void bad_cuckoo_image(struct __test_metadata *_metadata,
			     FIXTURE_DATA(ck) *self, __u32 fp_bits, int flip,
			     int err, const char *sub)
{
	struct kbloom_cuckoo *c = NULL;
	size_t len;
	void *img;

	ASSERT_EQ(0, kbloom_cuckoo_create_shape(fp_bits, 4, 1000, NULL, &c));
	ASSERT_EQ(0, ck_image(c, &img, &len));
	((__u8 *)img)[len - 1] ^= (__u8)flip;
	bad_image(_metadata, self, img, len, err, sub);
	free(img);
	kbloom_cuckoo_destroy(c);
}

TEST_F(ck, bad_images_change_nothing)
{
	struct kbloom_filter *f = NULL;
	struct kbloom_xdp_opts bo = { .log = kbt_log_line,
				      .log_ctx = &self->log };
	struct kbloom_xdp *blocked = NULL;
	char bname[64];
	size_t len;
	void *img;
	__u8 a[4];
	__u32 i;

	ASSERT_EQ(0, ck_make(self, 1000));
	for (i = 0; i < 20; i++) {
		addr_of(i, a);
		ASSERT_EQ(0, kbloom_gate_add(self->x, a, 4));
	}
	/* a blocked filter's image */
	ASSERT_EQ(0, kbloom_create(KBLOOM_TYPE_BLOCKED, 1000, 10000000000ULL,
				   NULL, &f));
	ASSERT_EQ(0, kbloom_save_alloc(f, &img, &len));
	bad_image(_metadata, self, img, len, -EOPNOTSUPP,
		  "not a valid cuckoo filter image");
	free(img);
	kbloom_destroy(f);
	/* 20-bit fingerprints: buckets of 80 bits */
	bad_cuckoo_image(_metadata, self, 20, 0, -EINVAL,
			 "buckets of at most 64 bits");
	/* a valid image with one payload byte changed */
	bad_cuckoo_image(_metadata, self, 12, 1, -EBADMSG,
			 "not a valid cuckoo filter image");
	/* the cuckoo calls on a blocked gate */
	kbt_name(bname, sizeof(bname), "ckb");
	ASSERT_EQ(0, kbloom_xdp_create(bname, KBLOOM_XDP_GATE, &bo, &blocked));
	EXPECT_EQ(-EOPNOTSUPP, kbloom_gate_cuckoo_test(blocked, a, 4));
	EXPECT_NE(NULL, strstr(self->log.text, "not a gate with a cuckoo filter"));
	kbloom_xdp_destroy(blocked);
	kbt_unpin(bname);
}

/* Keys of gate_exact. */
static int exact_count(int fd, __u64 *n)
{
	struct kbloom_addr_key k, next;
	int ret;

	*n = 0;
	for (ret = bpf_map_get_next_key(fd, NULL, &next); !ret;
	     ret = bpf_map_get_next_key(fd, &k, &next)) {
		k = next;
		(*n)++;
	}
	return errno == ENOENT ? 0 : -errno;
}

TEST_F(ck, params_larger_than_the_map_refused)
{
	struct kbloom_cuckoo_params p, big;
	__u64 n0 = 0, n1 = 0;
	__u32 zero = 0;
	int fd, exact, aborted = 0;
	char path[512];
	__u8 a[4];
	__u32 i;

	ASSERT_EQ(0, ck_make(self, 1000));
	for (i = 0; i < 20; i++) {
		addr_of(i, a);
		ASSERT_EQ(0, kbloom_gate_add(self->x, a, 4));
	}
	snprintf(path, sizeof(path), "%s/gate_cuckoo", kbloom_xdp_dir(self->x));
	fd = bpf_obj_get(path);
	ASSERT_LE(0, fd);
	snprintf(path, sizeof(path), "%s/gate_exact", kbloom_xdp_dir(self->x));
	exact = bpf_obj_get(path);
	ASSERT_LE(0, exact);
	ASSERT_EQ(0, bpf_map_lookup_elem(fd, &zero, &p));
	/* a consistent shape of 4 times the buckets, on the same map */
	big = p;
	big.shape.buckets *= 4;
	big.shape.m *= 4;
	big.nwords = kb_shape_words(&big.shape);
	big.nblocks = (__u32)((big.nwords + 7) / 8);
	ASSERT_EQ(0, bpf_map_update_elem(fd, &zero, &big, BPF_EXIST));

	self->log.len = 0;
	ASSERT_EQ(0, exact_count(exact, &n0));
	addr_of(100, a);
	EXPECT_EQ(-EINVAL, kbloom_gate_add(self->x, a, 4));
	EXPECT_NE(NULL, strstr(self->log.text, "is smaller than the cuckoo filter"))
		TH_LOG("log: %s", self->log.text);
	ASSERT_EQ(0, exact_count(exact, &n1));
	EXPECT_EQ(n0, n1);
	/* BPF: buckets beyond the map are an error, never an answer */
	for (i = 0; i < 200; i++) {
		addr_of(1000 + i, a);
		aborted += ckt_probe(self->fd, a, 4) < 0;
	}
	EXPECT_GT(aborted, 100);

	ASSERT_EQ(0, bpf_map_update_elem(fd, &zero, &p, BPF_EXIST));
	close(fd);
	close(exact);
	unchanged(_metadata, self, 20, 1);
}

TEST_HARNESS_MAIN
