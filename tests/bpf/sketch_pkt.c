// SPDX-License-Identifier: GPL-2.0
/*
 * The XDP counting sketch (bpf/kbloom_countmin.bpf.c) on synthetic frames
 * (BPF_PROG_TEST_RUN): per-source packet and byte counts equal
 * libkbloom_sketch's for the same keys, counter for counter, in each form
 * (per-CPU rows with either update rule, shared rows); per-CPU rows
 * summed equal one shared row; the threshold counts, marks or drops;
 * non-IP, truncated and malformed frames pass untouched and count
 * nothing; a library sketch written into the map reads back the same;
 * bad parameters are refused.
 */
#include <sched.h>
#include <linux/bpf.h>
#include <bpf/libbpf.h>
#include <bpf/bpf.h>
#include "kselftest_harness.h"
#include "tests/bpf/xdp_util.h"
#include "libkbloom_sketch.h"

#define SEED	0x5EE7ULL
#define N4	150	/* IPv4 sources */
#define N6	60	/* IPv6 sources */
#define MARK	0xC0DEU

struct run {
	__u32 retval;
	__u32 len_out;
	__u8 out[2048];
};

static int run_frame(int prog, const void *pkt, __u32 len, struct run *r)
{
	LIBBPF_OPTS(bpf_test_run_opts, o,
		.data_in = pkt,
		.data_size_in = len,
		.data_out = r->out,
		.data_size_out = sizeof(r->out),
		.repeat = 1,
	);
	int ret = bpf_prog_test_run_opts(prog, &o);

	r->retval = o.retval;
	r->len_out = o.data_size_out;
	return ret;
}

static void src_addr(__u8 addr[16], int v6, __u32 i)
{
	memset(addr, 0, 16);
	if (!v6) {
		addr[0] = 10;
		addr[1] = 1;
		addr[2] = (__u8)(i >> 8);
		addr[3] = (__u8)i;
		return;
	}
	addr[0] = 0x20;
	addr[1] = 0x01;
	addr[2] = 0x0d;
	addr[3] = 0xb8;
	addr[14] = (__u8)(i >> 8);
	addr[15] = (__u8)i;
}

/* Frame @n of source @i: UDP with a payload of (i + n) % 300 bytes. */
static size_t frame(__u8 *buf, int v6, __u32 i, __u32 n)
{
	static const __u8 payload[300];
	__u8 src[16], dst[16];
	struct kbt_frame_opts o = { .v6 = v6, .src = src, .dst = dst,
				    .payload = payload,
				    .plen = (i + n) % 300 };

	src_addr(src, v6, i);
	src_addr(dst, v6, 9999);
	return kbt_frame(buf, &o);
}

static void pin_cpu(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

/* A configuration of the XDP sketch (d = 4, w = 1024, 32-bit counters). */
struct sk_conf {
	__u32 update;
	__u32 shared;
	__u32 action;
	__u32 flags;
	__u64 threshold;
};

static int load_sketch(const struct sk_conf *c, struct kbloom_sketch_xdp **x)
{
	struct kbloom_sketch_xdp_opts o = {
		.geom = { .rows = 4, .width = 1024, .counter_bits = 32,
			  .update = c->update, .flags = KBLOOM_SKETCH_SEED,
			  .seed = SEED },
		.shared = c->shared, .action = c->action,
		.threshold = c->threshold, .flags = c->flags, .mark = MARK,
	};

	return kbloom_sketch_xdp_open(&o, x);
}

static int lib_sketch(__u32 update, struct kbloom_sketch **s)
{
	struct kbloom_sketch_opts o = {
		.rows = 4, .width = 1024, .counter_bits = 32, .update = update,
		.flags = KBLOOM_SKETCH_SEED, .seed = SEED,
	};

	return kbloom_sketch_create(&o, s);
}

/*
 * The configurations the tests use, each loaded once, in the harness's
 * process before the tests run (each test runs in a child of it): a load
 * verifies the program, seconds on a loaded machine, and the tests took
 * 17 loads for these 7.  open_sketch() hands a test the sketch of its
 * configuration with its rows and statistics zeroed; a test's
 * kbloom_sketch_xdp_close() closes its child's copies only.
 */
static const struct sk_conf sk_confs[] = {
	{ KB_CM_ALL, 0, KBLOOM_SKETCH_COUNT, 0, 0 },
	{ KB_CM_MIN_INC, 0, KBLOOM_SKETCH_COUNT, 0, 0 },
	{ KB_CM_ALL, 1, KBLOOM_SKETCH_COUNT, 0, 0 },
	{ KB_CM_ALL, 0, KBLOOM_SKETCH_COUNT, 0, 5 },
	{ KB_CM_ALL, 0, KBLOOM_SKETCH_MARK, 0, 5 },
	{ KB_CM_ALL, 0, KBLOOM_SKETCH_DROP, 0, 5 },
	{ KB_CM_ALL, 0, KBLOOM_SKETCH_DROP, KBLOOM_SKETCH_F_BYTES, 450 },
};
#define SK_NCONF	(sizeof(sk_confs) / sizeof(sk_confs[0]))

static struct kbloom_sketch_xdp *sk_loaded[SK_NCONF];

static void __attribute__((constructor)) sk_preload(void)
{
	size_t i;

	for (i = 0; i < SK_NCONF; i++)
		if (load_sketch(&sk_confs[i], &sk_loaded[i]))
			sk_loaded[i] = NULL;
}

/* Zero the rows and the statistics of @x (of update rule @update). */
static int sk_zero(struct kbloom_sketch_xdp *x, __u32 update)
{
	struct kbloom_sketch *z = NULL;
	int ret;

	ret = kbt_zero_pcpu0(kbloom_sketch_xdp_prog_fd(x), "sketch_stats",
			     sizeof(struct kbloom_sketch_stats));
	ret = ret ?: lib_sketch(update, &z);
	ret = ret ?: kbloom_sketch_xdp_write(x, 0, z);
	ret = ret ?: kbloom_sketch_xdp_write(x, 1, z);
	kbloom_sketch_free(z);
	return ret;
}

static int open_sketch(__u32 update, __u32 shared, __u32 action,
		       __u64 threshold, __u32 flags,
		       struct kbloom_sketch_xdp **x)
{
	const struct sk_conf c = { .update = update, .shared = shared,
				   .action = action, .flags = flags,
				   .threshold = threshold };
	const struct sk_conf *k;
	size_t i;

	for (i = 0; i < SK_NCONF; i++) {
		k = &sk_confs[i];
		if (sk_loaded[i] && k->update == update &&
		    k->shared == shared && k->action == action &&
		    k->flags == flags && k->threshold == threshold) {
			*x = sk_loaded[i];
			return sk_zero(*x, update);
		}
	}
	return load_sketch(&c, x);
}

static int same_words(const struct kbloom_sketch *a,
		      const struct kbloom_sketch *b)
{
	return kbloom_sketch_words(a) == kbloom_sketch_words(b) &&
	       !memcmp(kbloom_sketch_data(a), kbloom_sketch_data(b),
		       kbloom_sketch_words(a) * 8);
}

FIXTURE(skpkt) {
	struct kbloom_sketch_xdp *x;
	struct kbloom_sketch *lib_pkts, *lib_bytes;
	int prog;
};

FIXTURE_VARIANT(skpkt) {
	__u32 update;
	__u32 shared;
};

FIXTURE_VARIANT_ADD(skpkt, pcpu_all) {
	.update = KB_CM_ALL,
};

FIXTURE_VARIANT_ADD(skpkt, pcpu_min_inc) {
	.update = KB_CM_MIN_INC,
};

FIXTURE_VARIANT_ADD(skpkt, shared_all) {
	.update = KB_CM_ALL,
	.shared = 1,
};

FIXTURE_SETUP(skpkt)
{
	ASSERT_EQ(0, open_sketch(variant->update, variant->shared,
				 KBLOOM_SKETCH_COUNT, 0, 0, &self->x));
	self->prog = kbloom_sketch_xdp_prog_fd(self->x);
	ASSERT_LT(0, self->prog);
	ASSERT_EQ(0, lib_sketch(variant->update, &self->lib_pkts));
	ASSERT_EQ(0, lib_sketch(variant->update, &self->lib_bytes));
}

FIXTURE_TEARDOWN(skpkt)
{
	kbloom_sketch_xdp_close(self->x);
	kbloom_sketch_free(self->lib_pkts);
	kbloom_sketch_free(self->lib_bytes);
}

/*
 * Source i sends i % 7 + 1 frames, in rounds, alternating CPUs when
 * @cpus > 1; the library counts the same keys.  Return: frames sent.
 */
static __u32 send_all(struct __test_metadata *_metadata,
		      FIXTURE_DATA(skpkt) *self, int cpus)
{
	__u32 i, n, sent = 0, alen;
	__u8 buf[512], src[16];
	struct run r;
	size_t len;
	int v6;

	for (n = 0; n < 7; n++)
		for (i = 0; i < N4 + N6; i++) {
			if (i % 7 < n)
				continue;
			v6 = i >= N4;
			pin_cpu(cpus > 1 ? (int)(sent % cpus) : 0);
			len = frame(buf, v6, i, n);
			EXPECT_EQ(0, run_frame(self->prog, buf, len, &r));
			EXPECT_EQ(XDP_PASS, r.retval);
			src_addr(src, v6, i);
			alen = v6 ? 16 : 4;
			kbloom_sketch_add(self->lib_pkts, src, alen, 1);
			kbloom_sketch_add(self->lib_bytes, src, alen, len);
			sent++;
		}
	return sent;
}

TEST_F(skpkt, counts_equal_library)
{
	struct kbloom_sketch *pk, *by;
	struct kbloom_sketch_stats st;
	__u8 src[16];
	__u32 i, sent;

	sent = send_all(_metadata, self, 1);
	ASSERT_EQ(0, kbloom_sketch_xdp_stats(self->x, &st));
	EXPECT_EQ(sent, st.packets);
	EXPECT_EQ(sent, st.counted);
	EXPECT_EQ(0, st.errors);
	EXPECT_EQ(0, st.contended);
	ASSERT_EQ(0, kbloom_sketch_xdp_read(self->x, 0, &pk));
	ASSERT_EQ(0, kbloom_sketch_xdp_read(self->x, 1, &by));
	EXPECT_TRUE(same_words(pk, self->lib_pkts));
	EXPECT_TRUE(same_words(by, self->lib_bytes));
	for (i = 0; i < N4 + N6; i++) {
		src_addr(src, i >= N4, i);
		EXPECT_EQ(kbloom_sketch_count(self->lib_pkts, src,
					      i >= N4 ? 16 : 4),
			  kbloom_sketch_count(pk, src, i >= N4 ? 16 : 4));
		EXPECT_LE(i % 7 + 1, kbloom_sketch_count(pk, src,
							 i >= N4 ? 16 : 4));
	}
	kbloom_sketch_free(pk);
	kbloom_sketch_free(by);
}

/*
 * Frames spread over two CPUs into per-CPU rows (minimum selection), the
 * same frames into shared rows: the rows summed over the CPUs are the
 * shared rows, counter for counter, and the library's.
 */
TEST(cpus_summed_equal_shared)
{
	FIXTURE_DATA(skpkt) pc = { 0 };
	struct kbloom_sketch_xdp *shared;
	struct kbloom_sketch *a, *b;
	struct kbloom_sketch_stat st;
	int cpus = libbpf_num_possible_cpus() > 1 ? 2 : 1;
	__u32 i, n;
	__u8 buf[512];
	size_t len;
	struct run r;

	ASSERT_EQ(0, open_sketch(KB_CM_ALL, 0, KBLOOM_SKETCH_COUNT, 0, 0,
				 &pc.x));
	pc.prog = kbloom_sketch_xdp_prog_fd(pc.x);
	ASSERT_EQ(0, lib_sketch(KB_CM_ALL, &pc.lib_pkts));
	ASSERT_EQ(0, lib_sketch(KB_CM_ALL, &pc.lib_bytes));
	ASSERT_EQ(0, open_sketch(KB_CM_ALL, 1, KBLOOM_SKETCH_COUNT, 0, 0,
				 &shared));
	send_all(_metadata, &pc, cpus);
	for (n = 0; n < 7; n++)
		for (i = 0; i < N4 + N6; i++) {
			if (i % 7 < n)
				continue;
			len = frame(buf, i >= N4, i, n);
			ASSERT_EQ(0, run_frame(kbloom_sketch_xdp_prog_fd(shared),
					       buf, len, &r));
		}
	ASSERT_EQ(0, kbloom_sketch_xdp_read(pc.x, 1, &a));
	ASSERT_EQ(0, kbloom_sketch_xdp_read(shared, 1, &b));
	EXPECT_TRUE(same_words(a, b));
	EXPECT_TRUE(same_words(a, pc.lib_bytes));
	ASSERT_EQ(0, kbloom_sketch_stat(a, &st));
	TH_LOG("%d CPUs: byte sketches equal, N = %llu bytes", cpus,
	       (unsigned long long)st.total);
	kbloom_sketch_free(a);
	kbloom_sketch_free(b);
	kbloom_sketch_xdp_close(shared);
	kbloom_sketch_xdp_close(pc.x);
	kbloom_sketch_free(pc.lib_pkts);
	kbloom_sketch_free(pc.lib_bytes);
}

/* Non-IP, truncated and malformed frames pass as they are, uncounted. */
TEST_F(skpkt, truncated_frames_untouched)
{
	struct kbloom_sketch_stats st;
	struct kbloom_sketch *pk;
	__u8 buf[512];
	size_t len, cut;
	struct run r;
	__u32 n = 0;
	int v6;

	for (v6 = 0; v6 < 2; v6++) {
		len = frame(buf, v6, 1, 0);
		/* BPF_PROG_TEST_RUN takes at least an Ethernet header */
		for (cut = 14; cut < len - 8; cut += 3, n++) {
			ASSERT_EQ(0, run_frame(self->prog, buf, cut, &r));
			EXPECT_EQ(XDP_PASS, r.retval);
			ASSERT_EQ(cut, r.len_out);
			EXPECT_EQ(0, memcmp(buf, r.out, cut));
		}
	}
	buf[12] = 0x08;		/* ARP */
	buf[13] = 0x06;
	ASSERT_EQ(0, run_frame(self->prog, buf, 60, &r));
	EXPECT_EQ(XDP_PASS, r.retval);
	ASSERT_EQ(0, kbloom_sketch_xdp_stats(self->x, &st));
	EXPECT_EQ(n + 1, st.packets);
	EXPECT_EQ(0, st.counted);
	EXPECT_EQ(1, st.not_ip);
	EXPECT_EQ(n, st.malformed);
	ASSERT_EQ(0, kbloom_sketch_xdp_read(self->x, 0, &pk));
	EXPECT_TRUE(same_words(pk, self->lib_pkts));	/* all zero */
	kbloom_sketch_free(pk);
}

/* A library sketch written into the maps reads back, counts and all. */
TEST_F(skpkt, write_reads_back)
{
	struct kbloom_sketch *back;
	__u8 src[16];
	__u32 i;

	for (i = 0; i < 500; i++) {
		src_addr(src, i & 1, i);
		kbloom_sketch_add(self->lib_pkts, src, i & 1 ? 16 : 4,
				  1 + i % 13);
	}
	ASSERT_EQ(0, kbloom_sketch_xdp_write(self->x, 0, self->lib_pkts));
	ASSERT_EQ(0, kbloom_sketch_xdp_read(self->x, 0, &back));
	EXPECT_TRUE(same_words(back, self->lib_pkts));
	kbloom_sketch_free(back);
	/* another seed is another sketch */
	kbloom_sketch_free(self->lib_bytes);
	self->lib_bytes = NULL;
	{
		struct kbloom_sketch_opts o = {
			.rows = 4, .width = 1024, .counter_bits = 32,
			.update = variant->update,
			.flags = KBLOOM_SKETCH_SEED, .seed = SEED + 1,
		};

		ASSERT_EQ(0, kbloom_sketch_create(&o, &self->lib_bytes));
	}
	EXPECT_EQ(-EINVAL, kbloom_sketch_xdp_write(self->x, 1,
						   self->lib_bytes));
}

struct act_case {
	__u32 action;
	__u32 flags;
	__u64 threshold;
};

/* Source 1 sends 10 frames of 100 bytes: over the threshold from @from. */
static void act_run(struct __test_metadata *_metadata, const struct act_case *c,
		    __u32 from)
{
	static const __u8 payload[100];
	struct kbloom_sketch_stats st;
	struct kbloom_sketch_xdp *x;
	__u8 buf[512], src[16], dst[16];
	struct kbt_frame_opts o = { .src = src, .dst = dst,
				    .payload = payload, .plen = 58 };
	__u32 n, over;
	size_t len;
	struct run r;
	__u32 meta;

	src_addr(src, 0, 1);
	src_addr(dst, 0, 2);
	len = kbt_frame(buf, &o);
	ASSERT_EQ(100, len);
	ASSERT_EQ(0, open_sketch(KB_CM_ALL, 0, c->action, c->threshold,
				 c->flags, &x));
	for (n = 1; n <= 10; n++) {
		over = n >= from;
		ASSERT_EQ(0, run_frame(kbloom_sketch_xdp_prog_fd(x), buf, len,
				       &r));
		if (over && c->action == KBLOOM_SKETCH_DROP) {
			EXPECT_EQ(XDP_DROP, r.retval);
			continue;
		}
		EXPECT_EQ(XDP_PASS, r.retval);
		if (over && c->action == KBLOOM_SKETCH_MARK) {
			ASSERT_EQ(len + 4, r.len_out);
			memcpy(&meta, r.out, 4);
			EXPECT_EQ(MARK, meta);
			EXPECT_EQ(0, memcmp(buf, r.out + 4, len));
		} else {
			ASSERT_EQ(len, r.len_out);
			EXPECT_EQ(0, memcmp(buf, r.out, len));
		}
	}
	ASSERT_EQ(0, kbloom_sketch_xdp_stats(x, &st));
	EXPECT_EQ(10, st.counted);
	EXPECT_EQ(11 - from, st.over);
	EXPECT_EQ(c->action == KBLOOM_SKETCH_DROP ? 11 - from : 0, st.dropped);
	EXPECT_EQ(c->action == KBLOOM_SKETCH_MARK ? 11 - from : 0, st.marked);
	kbloom_sketch_xdp_close(x);
}

TEST(threshold_actions)
{
	static const struct act_case count = { KBLOOM_SKETCH_COUNT, 0, 5 };
	static const struct act_case mark = { KBLOOM_SKETCH_MARK, 0, 5 };
	static const struct act_case drop = { KBLOOM_SKETCH_DROP, 0, 5 };
	/* 100-byte frames, more than 450 bytes: from the fifth frame */
	static const struct act_case bytes = { KBLOOM_SKETCH_DROP,
					       KBLOOM_SKETCH_F_BYTES, 450 };

	act_run(_metadata, &count, 6);
	act_run(_metadata, &mark, 6);
	act_run(_metadata, &drop, 6);
	act_run(_metadata, &bytes, 5);
}

/*
 * One frame run @repeat times in the kernel (BPF_PROG_TEST_RUN): its
 * source counts @repeat packets in both forms; the time per frame is
 * logged (IPv4, d = 4, w = 1024, 32-bit counters, both sketches).
 */
TEST(repeat_counts_and_speed)
{
	enum { REPEAT = 200000 };
	__u8 buf[512], src[16];
	struct kbloom_sketch_xdp *x;
	struct kbloom_sketch *pk;
	size_t len = frame(buf, 0, 3, 0);
	int shared;

	src_addr(src, 0, 3);
	pin_cpu(0);
	for (shared = 0; shared < 2; shared++) {
		LIBBPF_OPTS(bpf_test_run_opts, o, .data_in = buf,
			    .data_size_in = len, .repeat = REPEAT);

		ASSERT_EQ(0, open_sketch(KB_CM_ALL, shared, KBLOOM_SKETCH_COUNT,
					 0, 0, &x));
		ASSERT_EQ(0, bpf_prog_test_run_opts(
				kbloom_sketch_xdp_prog_fd(x), &o));
		ASSERT_EQ(XDP_PASS, o.retval);
		ASSERT_EQ(0, kbloom_sketch_xdp_read(x, 0, &pk));
		EXPECT_EQ(REPEAT, kbloom_sketch_count(pk, src, 4));
		TH_LOG("%s rows: %u ns per frame", shared ? "shared" :
		       "per-CPU", o.duration);
		kbloom_sketch_free(pk);
		kbloom_sketch_xdp_close(x);
	}
}

TEST(bad_parameters_refused)
{
	struct kbloom_sketch_xdp *x = NULL;
	struct kbloom_sketch_xdp_opts o = {
		.geom = { .rows = 4, .width = 1024 },
	};

	o.shared = 1;
	o.geom.update = KB_CM_MIN_INC;
	EXPECT_EQ(-EOPNOTSUPP, kbloom_sketch_xdp_open(&o, &x));
	o.shared = 2;
	o.geom.update = 0;
	EXPECT_EQ(-EINVAL, kbloom_sketch_xdp_open(&o, &x));
	o.shared = 0;
	o.action = 3;
	EXPECT_EQ(-EINVAL, kbloom_sketch_xdp_open(&o, &x));
	o.action = 0;
	o.flags = 2;
	EXPECT_EQ(-EINVAL, kbloom_sketch_xdp_open(&o, &x));
	o.flags = 0;
	o.geom.counter_bits = 8;
	EXPECT_EQ(-EINVAL, kbloom_sketch_xdp_open(&o, &x));
	EXPECT_EQ(NULL, x);
}

TEST_HARNESS_MAIN
