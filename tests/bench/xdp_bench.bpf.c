// SPDX-License-Identifier: GPL-2.0
/*
 * The programs of the xdp benchmark (tests/bench/xdp.c), timed with
 * BPF_PROG_TEST_RUN and repeat: one operation per run, on key i of
 * xdp_bench.h, i taken from a counter that walks 0..n-1 and wraps, so
 * every run probes another, random, place of the filter.
 *
 *   xb_bare         the key alone: what every other program also pays
 *   xb_floor        the key and one random load from an array map of the
 *                   filter's size (kb_blocks itself), the next run's key
 *                   waiting for the loaded word: one cache miss per run
 *   xb_floor_ovl    the same load without that dependency: consecutive
 *                   runs' misses may overlap (miss throughput)
 *   xb_hash_only    the key, its hash and its in-block mask: no memory
 *   xb_kb_present   kbloom: kbloom_bpf_test_hash_k() on a blocks map the
 *   xb_kb_absent    program names (kb_blocks), parameters constant
 *   xb_kb_insert    kbloom_bpf_add_hash_k() on the same
 *   xb_tbl_present  kbloom through a filter table, as the mcast and gate
 *   xb_tbl_absent   paths reach theirs: params from a hash map, the blocks
 *   xb_tbl_insert   map from an array of maps (kb_params, kb_filters ->
 *                   kb_inner, BPF_F_INNER_MAP)
 *   xb_tbl_blocks   the table's parts alone: its blocks map, constant
 *   xb_tbl_params   parameters; the params hash map, kb_blocks
 *   xb_bf_present   BPF_MAP_TYPE_BLOOM_FILTER: bpf_map_peek_elem()
 *   xb_bf_absent
 *   xb_bf_push      bpf_map_push_elem()
 *   xb_ck_present   a cuckoo filter of the same keys and target rate
 *   xb_ck_absent    (bpf/kbloom_cuckoo.h) through its filter table, as the
 *                   gate's cuckoo variant reaches it: params from a hash
 *                   map, the blocks from an array of maps, the writers'
 *                   counter from an array (ck_params, ck_filters ->
 *                   ck_inner, ck_seq); filled by the driver with
 *                   libkbloom_cuckoo
 *
 * Experiments (XDP_BENCH_EXPERIMENTS=1), alternatives measured against
 * the real thing:
 *   xb_old_present  the test with an early exit per word (kbloom_bpf.h
 *   xb_old_absent   before its compares were folded)
 *   xb_pw_present   the test probe by probe, exit at the first zero bit
 *   xb_pw_absent
 *   xb_ins8         the insert with an atomic OR on all eight words (no
 *                   branch on which words the mask touches)
 *   xb_bw_present   xb_kb_present and xb_kb_absent with the key hashed
 *   xb_bw_absent    byte by byte (kb_hash(), the form before kb_hash_al())
 *
 * The lookups count their "possibly present" answers in hits[]: the
 * driver checks that every present key is found and reports the measured
 * false-positive rates.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include "bpf/kbloom_bpf.h"
#include "bpf/kbloom_cuckoo.h"
#include "tests/bench/xdp_bench.h"

KBLOOM_BTF_TYPES;

/* The filter, named directly: an array the verifier inlines lookups of. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__uint(max_entries, 1);		/* set by the driver: nblocks */
	__type(key, __u32);
	__type(value, struct kbloom_block);
} kb_blocks SEC(".maps");

/* The same filter in a filter table (uapi/kbloom_xdp_maps.h). */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE | BPF_F_INNER_MAP);
	__uint(max_entries, 1);		/* set by the driver: nblocks */
	__type(key, __u32);
	__type(value, struct kbloom_block);
} kb_inner SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct kbloom_params);
} kb_params SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY_OF_MAPS);
	__uint(max_entries, KBLOOM_SLOTS_PER_FILTER);
	__type(key, __u32);
	__array(values, struct kbloom_blocks);
} kb_filters SEC(".maps");

/* The kernel's Bloom filter map, on the same keys. */
struct {
	__uint(type, BPF_MAP_TYPE_BLOOM_FILTER);
	__uint(max_entries, 1);		/* set by the driver: n */
	__uint(value_size, XB_KEY_LEN);
	__uint(map_extra, 7);		/* hash functions, set by the driver */
} kbf SEC(".maps");

/* A cuckoo filter of the same keys, in its filter table. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE | BPF_F_INNER_MAP);
	__uint(max_entries, 1);		/* set by the driver */
	__type(key, __u32);
	__type(value, struct kbloom_block);
} ck_inner SEC(".maps");

KBLOOM_CUCKOO_PARAMS_MAP(ck_params);

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY_OF_MAPS);
	__uint(max_entries, KBLOOM_SLOTS_PER_FILTER);
	__type(key, __u32);
	__array(values, struct kbloom_blocks);
} ck_filters SEC(".maps");

KBLOOM_CUCKOO_SEQ_MAP(ck_seq);

const volatile struct xb_cfg cfg;

__u32 cur_lookup, cur_insert, cur_push, cur_tbl_insert;
__u32 dep_zero;		/* always 0; the compiler cannot know */
__u64 hits[XB_NHITS];

/* Key i of the set, i from @cur, which then moves on (mod n). */
static __always_inline void xb_next(__u32 *cur, struct xb_key *k, __u32 absent)
{
	__u32 i = *cur;

	*cur = i + 1 < cfg.n ? i + 1 : 0;
	xb_key(k, i, absent);
}

/*
 * The hash as kbloom_bpf.h computes it, parameters from the constant cfg:
 * the key (two __u64) on an 8-byte boundary, kbloom_bpf_hash_al(), or
 * byte by byte, kbloom_bpf_hash(), when @bytewise (the experiments
 * xb_bw_*: the form before kb_hash_al()).
 */
static __always_inline __u64 xb_hash_rd(const struct xb_key *k, int bytewise)
{
	struct kbloom_params p = {
		.hash_id = cfg.hash_id,
		.seed = cfg.seed,
	};

	if (bytewise)
		return kbloom_bpf_hash(&p, k, XB_KEY_LEN);
	return kbloom_bpf_hash_al(&p, k, XB_KEY_LEN);
}

static __always_inline __u64 xb_hash(const struct xb_key *k)
{
	return xb_hash_rd(k, 0);
}

static __always_inline int xb_count(int ret, int slot)
{
	if (ret < 0)
		return XDP_ABORTED;
	if (ret == KBLOOM_MAYBE) {
		hits[slot]++;
		return XDP_PASS;
	}
	return XDP_DROP;
}

SEC("xdp")
int xb_bare(struct xdp_md *ctx)
{
	struct xb_key k;

	xb_next(&cur_lookup, &k, 0);
	/* keep the key alive, as the lookups use it */
	if (k.a == k.b)
		hits[XB_BARE]++;
	return XDP_PASS;
}

/* The random block of the floor: i * XB_MUL spreads i as a hash would. */
static __always_inline struct kbloom_block *xb_floor_block(void)
{
	struct xb_key k;
	__u32 idx;

	xb_next(&cur_lookup, &k, 0);
	idx = kb_block_index(k.a ^ k.b, cfg.nblocks);
	return bpf_map_lookup_elem(&kb_blocks, &idx);
}

SEC("xdp")
int xb_floor(struct xdp_md *ctx)
{
	struct kbloom_block *b = xb_floor_block();

	if (!b)
		return XDP_ABORTED;
	/*
	 * The next run's counter (so its key and its load) waits for this
	 * word: one full miss per run, as a packet between other packets'
	 * work sees it.
	 */
	cur_lookup += (__u32)b->w[0] & dep_zero;
	return XDP_PASS;
}

SEC("xdp")
int xb_floor_ovl(struct xdp_md *ctx)
{
	struct kbloom_block *b = xb_floor_block();

	if (!b)
		return XDP_ABORTED;
	/* no branch and no dependency on the word: misses may overlap */
	hits[XB_FLOOR] += b->w[0] & 1;
	return XDP_PASS;
}

SEC("xdp")
int xb_hash_only(struct xdp_md *ctx)
{
	__u64 mask[KBLOOM_BLOCK_WORDS], h, x = 0;
	struct xb_key k;
	__u32 i;

	xb_next(&cur_lookup, &k, 0);
	h = xb_hash(&k);
	kb_block_mask(h, cfg.k, mask);
	for (i = 0; i < KBLOOM_BLOCK_WORDS; i++)
		x |= mask[i];
	x ^= kb_block_index(h, cfg.nblocks);
	if (!x)
		hits[XB_HASH_ONLY]++;
	return XDP_PASS;
}

static __always_inline int xb_kb_test_rd(__u32 absent, int slot,
					 int bytewise)
{
	struct xb_key k;

	xb_next(&cur_lookup, &k, absent);
	return xb_count(kbloom_bpf_test_hash_k(&kb_blocks, cfg.nblocks,
					       xb_hash_rd(&k, bytewise),
					       cfg.k), slot);
}

static __always_inline int xb_kb_test(__u32 absent, int slot)
{
	return xb_kb_test_rd(absent, slot, 0);
}

SEC("xdp")
int xb_kb_present(struct xdp_md *ctx)
{
	return xb_kb_test(0, XB_KB_PRESENT);
}

SEC("xdp")
int xb_kb_absent(struct xdp_md *ctx)
{
	return xb_kb_test(1, XB_KB_ABSENT);
}

SEC("xdp")
int xb_kb_insert(struct xdp_md *ctx)
{
	struct xb_key k;

	xb_next(&cur_insert, &k, 0);
	if (kbloom_bpf_add_hash_k(&kb_blocks, cfg.nblocks, xb_hash(&k), cfg.k))
		return XDP_ABORTED;
	return XDP_PASS;
}

static __always_inline int xb_tbl_test(__u32 absent, int slot)
{
	struct kbloom_bpf_filter f;
	struct xb_key k;

	xb_next(&cur_lookup, &k, absent);
	if (kbloom_bpf_filter_get(&kb_params, &kb_filters, 0, &f))
		return XDP_ABORTED;
	return xb_count(kbloom_bpf_test_al(&f, &k, XB_KEY_LEN), slot);
}

SEC("xdp")
int xb_tbl_present(struct xdp_md *ctx)
{
	return xb_tbl_test(0, XB_TBL_PRESENT);
}

SEC("xdp")
int xb_tbl_absent(struct xdp_md *ctx)
{
	return xb_tbl_test(1, XB_TBL_ABSENT);
}

SEC("xdp")
int xb_tbl_insert(struct xdp_md *ctx)
{
	struct kbloom_bpf_filter f;
	struct xb_key k;

	xb_next(&cur_tbl_insert, &k, 0);
	if (kbloom_bpf_filter_get(&kb_params, &kb_filters, 0, &f))
		return XDP_ABORTED;
	if (kbloom_bpf_add_al(&f, &k, XB_KEY_LEN))
		return XDP_ABORTED;
	return XDP_PASS;
}

/* The table's blocks map (slot 0 of kb_filters), parameters constant. */
SEC("xdp")
int xb_tbl_blocks(struct xdp_md *ctx)
{
	struct xb_key k;
	__u32 slot = 0;
	void *blocks;

	xb_next(&cur_lookup, &k, 0);
	blocks = bpf_map_lookup_elem(&kb_filters, &slot);
	if (!blocks)
		return XDP_ABORTED;
	return xb_count(kbloom_bpf_test_hash_k(blocks, cfg.nblocks,
					       xb_hash(&k), cfg.k),
			XB_TBL_BLOCKS);
}

/* The table's parameters (kb_params), the blocks map named directly. */
SEC("xdp")
int xb_tbl_params(struct xdp_md *ctx)
{
	const struct kbloom_params *p;
	struct xb_key k;
	__u32 id = 0;

	xb_next(&cur_lookup, &k, 0);
	p = bpf_map_lookup_elem(&kb_params, &id);
	if (!p)
		return XDP_ABORTED;
	return xb_count(kbloom_bpf_test_hash_k(&kb_blocks, p->nblocks,
					       kbloom_bpf_hash_al(p, &k, XB_KEY_LEN),
					       p->k),
			XB_TBL_PARAMS);
}

static __always_inline int xb_bf_test(__u32 absent, int slot)
{
	struct xb_key k;

	xb_next(&cur_lookup, &k, absent);
	if (bpf_map_peek_elem(&kbf, &k))
		return XDP_DROP;
	hits[slot]++;
	return XDP_PASS;
}

SEC("xdp")
int xb_bf_present(struct xdp_md *ctx)
{
	return xb_bf_test(0, XB_BF_PRESENT);
}

SEC("xdp")
int xb_bf_absent(struct xdp_md *ctx)
{
	return xb_bf_test(1, XB_BF_ABSENT);
}

SEC("xdp")
int xb_bf_push(struct xdp_md *ctx)
{
	struct xb_key k;

	xb_next(&cur_push, &k, 0);
	if (bpf_map_push_elem(&kbf, &k, BPF_ANY))
		return XDP_ABORTED;
	return XDP_PASS;
}

static __always_inline int xb_ck_test(__u32 absent, int slot)
{
	struct kbloom_bpf_cuckoo c;
	struct xb_key k;

	xb_next(&cur_lookup, &k, absent);
	if (kbloom_bpf_cuckoo_get(&ck_params, &ck_filters, &ck_seq, 0, &c))
		return XDP_ABORTED;
	return xb_count(kbloom_bpf_cuckoo_test(&c, &k, XB_KEY_LEN), slot);
}

SEC("xdp")
int xb_ck_present(struct xdp_md *ctx)
{
	return xb_ck_test(0, XB_CK_PRESENT);
}

SEC("xdp")
int xb_ck_absent(struct xdp_md *ctx)
{
	return xb_ck_test(1, XB_CK_ABSENT);
}

/* ---- experiments ------------------------------------------------------- */

/* kbloom_bpf_test_hash_k() with an early exit per word (the old form). */
static __always_inline int xb_test_old(__u64 h)
{
	__u64 mask[KBLOOM_BLOCK_WORDS];
	struct kbloom_block *b;
	__u32 idx = kb_block_index(h, cfg.nblocks), i;

	b = bpf_map_lookup_elem(&kb_blocks, &idx);
	if (!b)
		return -ENOENT;
	kb_block_mask(h, cfg.k, mask);
	for (i = 0; i < KBLOOM_BLOCK_WORDS; i++)
		if ((b->w[i] & mask[i]) != mask[i])
			return KBLOOM_ABSENT;
	return KBLOOM_MAYBE;
}

/* Probe by probe: the positions of kb_block_mask(), each tested in place. */
static __always_inline int xb_test_pw(__u64 h)
{
	struct kbloom_block *b;
	__u32 idx = kb_block_index(h, cfg.nblocks), g = (__u32)h, i, bit;

	b = bpf_map_lookup_elem(&kb_blocks, &idx);
	if (!b)
		return -ENOENT;
	for (i = 0; i < KBLOOM_K_MAX; i++) {
		if (i >= cfg.k)
			break;
		bit = g >> 23;
		if (!((b->w[bit >> 6] >> (bit & 63)) & 1))
			return KBLOOM_ABSENT;
		g *= KB_BLOCK_MUL;
	}
	return KBLOOM_MAYBE;
}

SEC("xdp")
int xb_old_present(struct xdp_md *ctx)
{
	struct xb_key k;

	xb_next(&cur_lookup, &k, 0);
	return xb_count(xb_test_old(xb_hash(&k)), XB_OLD_PRESENT);
}

SEC("xdp")
int xb_old_absent(struct xdp_md *ctx)
{
	struct xb_key k;

	xb_next(&cur_lookup, &k, 1);
	return xb_count(xb_test_old(xb_hash(&k)), XB_OLD_ABSENT);
}

SEC("xdp")
int xb_pw_present(struct xdp_md *ctx)
{
	struct xb_key k;

	xb_next(&cur_lookup, &k, 0);
	return xb_count(xb_test_pw(xb_hash(&k)), XB_PW_PRESENT);
}

SEC("xdp")
int xb_pw_absent(struct xdp_md *ctx)
{
	struct xb_key k;

	xb_next(&cur_lookup, &k, 1);
	return xb_count(xb_test_pw(xb_hash(&k)), XB_PW_ABSENT);
}

SEC("xdp")
int xb_ins8(struct xdp_md *ctx)
{
	__u64 mask[KBLOOM_BLOCK_WORDS], h;
	struct kbloom_block *b;
	struct xb_key k;
	__u32 idx, i;

	xb_next(&cur_insert, &k, 0);
	h = xb_hash(&k);
	idx = kb_block_index(h, cfg.nblocks);
	b = bpf_map_lookup_elem(&kb_blocks, &idx);
	if (!b)
		return XDP_ABORTED;
	kb_block_mask(h, cfg.k, mask);
	for (i = 0; i < KBLOOM_BLOCK_WORDS; i++)
		__sync_fetch_and_or(&b->w[i], mask[i]);
	return XDP_PASS;
}

SEC("xdp")
int xb_bw_present(struct xdp_md *ctx)
{
	return xb_kb_test_rd(0, XB_BW_PRESENT, 1);
}

SEC("xdp")
int xb_bw_absent(struct xdp_md *ctx)
{
	return xb_kb_test_rd(1, XB_BW_ABSENT, 1);
}

char LICENSE[] SEC("license") = "GPL";
