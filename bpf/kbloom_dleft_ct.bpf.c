// SPDX-License-Identifier: GPL-2.0
/*
 * kbloom XDP d-left connection tracker: a d-left counting filter
 * (uapi/kbloom_variants.h) kept in the data path.
 *
 * For every TCP segment over IPv4 or IPv6 (one VLAN tag at most), the
 * flow key (struct kbloom_dleft_flow: both directions give one key) is
 *   a SYN without ACK:  inserted (one more copy of the flow);
 *   a FIN or an RST:    deleted (one copy less; none left: forgotten);
 *   anything else:      looked up: a known flow passes, an unknown one is
 *                       counted and passed or dropped (params.miss).
 * Frames that are not TCP over IP pass, malformed or truncated ones pass
 * untouched (no cell changes).  The cells, the positions and the rules of
 * insert, delete and test are those of libkbloom_dleft and kbloom.ko, so
 * the map's words are an image's payload.
 *
 * Both layouts of the filter (KB_DLEFT_LAYOUT_*, uapi/kbloom_var_dleft.h)
 * are served; the lines layout puts a flow's d buckets in two cache lines.
 *
 * The verifier: the key's positions, the scan and one update attempt are
 * global functions (dl_positions(), dl_scan(), dl_once()), verified once
 * each whatever calls them, on arguments that hold only scalars (the
 * filter's shape is copied into struct dl_ctx for them); none calls
 * another, since 6.1 adds up the stacks of a chain (512 bytes at most).
 * Debian 6.1's verifier refused the earlier form, whose inlined scans and
 * retries it walked call site by call site, at its limit of a million
 * instructions (tests/kmod/bpf_objects_test.c loads it there).
 *
 * Updates are lock-free: a cell lies in one word (the loader takes only
 * shapes with kb_dleft_shape_atomic(): 8-, 16- or 32-bit cells), and an
 * insert or a delete is one compare-and-exchange of that word after a scan
 * of the d buckets.  When the exchange loses against another CPU the scan
 * starts again, KBLOOM_DLEFT_TRIES times at most (then the update is
 * given up and counted as a race).  Readers never miss a flow that is
 * present: a cell of a present flow only ever counts up or down by one
 * exchange, and an insert only fills a free cell.  Two CPUs inserting one
 * flow at the same time may give it two cells (both are found, count sums
 * them, each FIN removes one copy).
 *
 * A retransmitted SYN counts its flow twice and the second FIN of a
 * connection finds no copy left: flows whose print equals (a false
 * positive, probability about the filter's rate) lose a copy then; keep
 * KBLOOM_DLEFT_MISS_DROP for filters planned at a small rate.
 */
#include <linux/bpf.h>
#include <linux/tcp.h>
#include <bpf/bpf_helpers.h>
#include "bpf/kbloom_pkt.h"
#include "uapi/kbloom_hash.h"
#include "uapi/kbloom_dleft_maps.h"

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct kbloom_dleft_params);
} dleft_params SEC(".maps");

/* Sized by the loader (bpf_map__set_max_entries()) to params.nwords. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} dleft_words SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct kbloom_dleft_xdp_stats);
} dleft_stats SEC(".maps");

enum dl_result {
	DL_DONE,	/* inserted or deleted */
	DL_ABSENT,	/* delete: no copy */
	DL_FULL,	/* insert: the d buckets are full */
	DL_SATURATED,	/* insert: the counter is at its maximum */
	DL_RACE,	/* every exchange lost */
	DL_ERROR,	/* a word outside the map */
};

/*
 * The filter's constants, scalars only (the argument of the global
 * functions).  A word holds 64 / 2^lb cells ("lanes"); the bucket scan
 * tests all the lanes of a word at once (SIMD within a register): one = 1
 * in every lane, top = the top bit of every lane.
 */
struct dl_ctx {
	struct kb_shape shape;	/* params.shape */
	__u32 q;		/* params.q */
	__u32 miss;		/* params.miss */
	__u64 h;
	__u32 lb;		/* log2 of the cell bits: 3, 4 or 5 */
	__u32 cb;		/* counter bits */
	__u64 cmask;		/* mask of a cell */
	__u64 one;
	__u64 top;
	__u64 cnts;		/* the count bits of every lane */
	__u64 rems;		/* the remainder bits of every lane */
	__u32 whole;		/* buckets are whole words (slots << lb % 64 == 0) */
};

/* Words a bucket can touch: 16 cells of 32 bits, not aligned. */
#define DL_BUCKET_WORDS	9

/* What a scan of the key's d buckets found. */
struct dl_scan {
	__s64 found;		/* first holding cell, or -1 */
	__u64 found_rem;
	__u32 first[KB_DLEFT_TABLES_MAX];	/* cells: m <= 2^32 */
	__u32 rem[KB_DLEFT_TABLES_MAX];		/* r <= 32 bits */
	__u8 load[KB_DLEFT_TABLES_MAX];
};

/*
 * A word as it is now: one load, whose value the compiler cannot replace
 * by a second load (clang 14 has no atomic loads for BPF).
 */
static __always_inline __u64 dl_read(const __u64 *w)
{
	__u64 x = *w;

	asm volatile("" : "+r"(x));
	return x;
}

/* The word of cell @n, and the cell's shift in it. */
static __always_inline __u64 *dl_word(const struct dl_ctx *c, __u64 n,
				      __u32 *shift)
{
	__u32 idx = (__u32)(n >> (6 - c->lb));

	*shift = (__u32)((n & ((64 >> c->lb) - 1)) << c->lb);
	return bpf_map_lookup_elem(&dleft_words, &idx);
}

static __always_inline __u64 dl_cell(const struct dl_ctx *c, __u64 word,
				     __u32 shift)
{
	return (word >> shift) & c->cmask;
}

/* The top bit of every lane of @x that is 0 (exact: no carry between lanes). */
static __always_inline __u64 dl_zero(const struct dl_ctx *c, __u64 x)
{
	__u64 low = ~c->top;

	return ~(((x & low) + low) | x | low);
}

/* The top bit of every lane of @x that is not 0. */
static __always_inline __u64 dl_nonzero(const struct dl_ctx *c, __u64 x)
{
	__u64 low = ~c->top;

	return (((x & low) + low) | x) & c->top;
}

/* Lane tops set in @m (each lane 0 or its top bit). */
static __always_inline __u32 dl_lanes_set(const struct dl_ctx *c, __u64 m)
{
	return (__u32)((((m >> ((1U << c->lb) - 1)) * c->one) >>
			(64 - (1U << c->lb))));
}

/*
 * The lowest lane whose top bit is set in @m (not 0): the bit index of
 * m's lowest set bit is 8 lanes at most, so its bits 5..3 (three masks,
 * no loop) shifted by the lane width's log give the lane.
 */
static __always_inline __u32 dl_lane(const struct dl_ctx *c, __u64 m)
{
	__u64 low = m & -m;
	__u32 bit;

	bit = !!(low & 0xFFFFFFFF00000000ULL) << 5 |
	      !!(low & 0xFFFF0000FFFF0000ULL) << 4 |
	      !!(low & 0xFF00FF00FF00FF00ULL) << 3;
	return bit >> c->lb;
}

/*
 * The lane tops of word @idx that belong to the bucket of first cell @f:
 * all of them when buckets are whole words (the usual shapes: 8 cells of
 * 8, 16 or 32 bits).
 */
static __always_inline __u64 dl_bucket_lanes(const struct dl_ctx *c,
					     __u32 idx, __u64 f)
{
	__u64 cpw = 64 >> c->lb, base = (__u64)idx * cpw;
	__u64 end = f + c->shape.slots, lo, hi;

	if (c->whole)
		return c->top;
	lo = f > base ? f - base : 0;
	hi = end < base + cpw ? end - base : cpw;
	return (kb_field_mask((__u32)((hi - lo) << c->lb)) <<
		(lo << c->lb)) & c->top;
}

/* The words of the bucket of first cell @f: the first and the last. */
static __always_inline __u32 dl_bucket_word(const struct dl_ctx *c, __u64 f,
					    __u32 *last)
{
	*last = (__u32)((f + c->shape.slots - 1) >> (6 - c->lb));
	return (__u32)(f >> (6 - c->lb));
}

/*
 * One bucket, of first cell @f and remainder @rem: its load into
 * s->load[@j], and the first cell holding the remainder into @s.  A word
 * is looked up once and all its cells tested at once.
 */
static __always_inline int dl_scan_bucket(const struct dl_ctx *c,
					  struct dl_scan *s, __u32 j, __u32 f,
					  __u32 rem)
{
	__u64 pat = ((__u64)rem << c->cb) * c->one, *w, word, occ, match;
	__u32 k, idx, last, first = dl_bucket_word(c, f, &last);

	for (k = 0; k < DL_BUCKET_WORDS; k++) {
		idx = first + k;
		if (idx > last)
			break;
		w = bpf_map_lookup_elem(&dleft_words, &idx);
		if (!w)
			return -1;
		word = dl_read(w);
		occ = dl_nonzero(c, word & c->cnts) &
		      dl_bucket_lanes(c, idx, f);
		s->load[j] += dl_lanes_set(c, occ);
		match = dl_zero(c, (word ^ pat) & c->rems) & occ;
		if (match) {
			s->found = ((__u64)idx << (6 - c->lb)) +
				   dl_lane(c, match);
			s->found_rem = rem;
			return 1;
		}
	}
	return 0;
}

/*
 * Each first word of the key's d buckets loaded once, the loads cleared:
 * the d loads do not depend on each other, so their cache misses overlap
 * instead of coming one after the other in the scan.
 */
static __always_inline void dl_touch(const struct dl_ctx *c, struct dl_scan *s)
{
	__u32 j, idx, line, prev = ~0U;
	__u64 *w;

	for (j = 0; j < KB_DLEFT_TABLES_MAX; j++) {
		if (j >= c->shape.tables)
			break;
		s->load[j] = 0;
		/* a 64-byte line holds 2^(9 - lb) cells: one load each */
		line = s->first[j] >> (9 - c->lb);
		if (line == prev)
			continue;
		prev = line;
		idx = s->first[j] >> (6 - c->lb);
		w = bpf_map_lookup_elem(&dleft_words, &idx);
		if (w)
			dl_read(w);
	}
}

/* Return: 1 found (s->found), 0 not (s->load complete), -1 error. */
static __always_inline int dl_scan_all(const struct dl_ctx *c,
				       struct dl_scan *s)
{
	__u32 j;
	int ret;

	s->found = -1;
	dl_touch(c, s);
	for (j = 0; j < KB_DLEFT_TABLES_MAX; j++) {
		if (j >= c->shape.tables)
			break;
		ret = dl_scan_bucket(c, s, j, s->first[j], s->rem[j]);
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * The key's d buckets, for a lookup (a global function: verified once;
 * dl_once() inlines its own scan, so that no global function calls
 * another: 6.1 adds up the stacks of a call chain, 512 bytes at most).
 * Return: dl_scan_all()'s.
 */
__noinline int dl_scan(const struct dl_ctx *c, struct dl_scan *s)
{
	if (!c || !s)
		return -1;
	return dl_scan_all(c, s);
}

/* How dl_swap() changes a cell. */
enum dl_op {
	DL_FILL,	/* a free cell becomes @v */
	DL_INC,		/* a cell holding @rem counts one more */
	DL_DEC,		/* a cell holding @rem counts one less, 0 at 0 */
};

/*
 * One compare-and-exchange of cell @n's word.  Return: 1 done, 2 the
 * count is saturated (left as it is), 0 the cell is no longer what the
 * scan saw or the exchange lost, -1 error.
 */
static __always_inline int dl_swap(const struct dl_ctx *c, __u64 n, int op,
				   __u64 rem, __u64 v)
{
	__u64 *w, old, cell, cnt, new;
	__u32 shift;

	w = dl_word(c, n, &shift);
	if (!w)
		return -1;
	old = dl_read(w);
	cell = dl_cell(c, old, shift);
	cnt = kb_dleft_cell_count(cell, c->cb);
	if (op == DL_FILL ? cnt != 0 : !kb_dleft_cell_holds(cell, rem, c->cb))
		return 0;
	if (op != DL_FILL && cnt == kb_ctr_max(c->cb))
		return 2;
	if (op == DL_INC)
		v = cell + 1;
	else if (op == DL_DEC)
		v = cnt > 1 ? cell - 1 : 0;
	new = (old & ~(c->cmask << shift)) | (v << shift);
	return __sync_val_compare_and_swap(w, old, new) == old;
}

/*
 * The first free cell of the least loaded bucket (ties to the left) and
 * the key's remainder there, or -1.  The bucket is carried as values, not
 * as an index into @s (which the verifier would see as a variable stack
 * offset).  dl_swap() checks that the cell is still free.
 */
static __always_inline __s64 dl_free_cell(const struct dl_ctx *c,
					  const struct dl_scan *s, __u64 *rem)
{
	__u64 first = s->first[0], *w, free;
	__u32 j, min = s->load[0], k, idx, fw, last;

	*rem = s->rem[0];
	for (j = 1; j < KB_DLEFT_TABLES_MAX; j++) {
		if (j >= c->shape.tables)
			break;
		if (s->load[j] < min) {
			min = s->load[j];
			first = s->first[j];
			*rem = s->rem[j];
		}
	}
	if (min >= c->shape.slots)
		return -1;
	fw = dl_bucket_word(c, first, &last);
	for (k = 0; k < DL_BUCKET_WORDS; k++) {
		idx = fw + k;
		if (idx > last)
			break;
		w = bpf_map_lookup_elem(&dleft_words, &idx);
		if (!w)
			return -1;
		free = ~dl_nonzero(c, dl_read(w) & c->cnts) &
		       dl_bucket_lanes(c, idx, first);
		if (free)
			return ((__u64)idx << (6 - c->lb)) + dl_lane(c, free);
	}
	return -1;
}

static __always_inline int dl_insert_once(const struct dl_ctx *c,
					  struct dl_scan *s)
{
	__u64 rem;
	__s64 n;
	int ret = dl_scan_all(c, s);

	if (ret < 0)
		return DL_ERROR;
	if (ret) {
		ret = dl_swap(c, s->found, DL_INC, s->found_rem, 0);
		return ret == 2 ? DL_SATURATED : ret < 0 ? DL_ERROR :
		       ret ? DL_DONE : DL_RACE;
	}
	n = dl_free_cell(c, s, &rem);
	if (n < 0)
		return DL_FULL;
	ret = dl_swap(c, n, DL_FILL, 0, kb_dleft_cell_val(rem, 1, c->cb));
	return ret < 0 ? DL_ERROR : ret ? DL_DONE : DL_RACE;
}

static __always_inline int dl_delete_once(const struct dl_ctx *c,
					  struct dl_scan *s)
{
	int ret = dl_scan_all(c, s);

	if (ret <= 0)
		return ret < 0 ? DL_ERROR : DL_ABSENT;
	/* a saturated count stays (2): the delete is done all the same */
	ret = dl_swap(c, s->found, DL_DEC, s->found_rem, 0);
	return ret < 0 ? DL_ERROR : ret ? DL_DONE : DL_RACE;
}

/*
 * One attempt at an insert (@insert) or a delete (a global function:
 * verified once).  Return: enum dl_result.
 */
__noinline int dl_once(const struct dl_ctx *c, struct dl_scan *s, int insert)
{
	if (!c || !s)
		return DL_ERROR;
	return insert ? dl_insert_once(c, s) : dl_delete_once(c, s);
}

static __always_inline int dl_update(const struct dl_ctx *c, struct dl_scan *s,
				     int insert)
{
	int t, ret = DL_RACE;

	for (t = 0; t < KBLOOM_DLEFT_TRIES; t++) {
		ret = dl_once(c, s, insert);
		if (ret != DL_RACE)
			break;
	}
	return ret;
}

/*
 * The key's d buckets into @s, once per packet (a global function:
 * verified once): in the lines layout a subtable of the same half-line as
 * the one before takes the next bucket of the line and the same
 * remainder, one permutation per half.
 */
__noinline int dl_positions(const struct dl_ctx *c, struct dl_scan *s)
{
	__u32 j, d;
	__u64 rem;

	if (!c || !s)
		return -1;
	d = c->shape.tables;
	for (j = 0; j < KB_DLEFT_TABLES_MAX; j++) {
		if (j >= d)
			break;
		if (j && c->shape.update == KB_DLEFT_LAYOUT_LINES &&
		    kb_dleft_line_half(j, d) == kb_dleft_line_half(j - 1, d)) {
			s->first[j] = s->first[j - 1] + c->shape.slots;
			s->rem[j] = s->rem[j - 1];
			continue;
		}
		s->first[j] = (__u32)kb_dleft_locate(c->h, j, c->q, &c->shape,
						     &rem);
		s->rem[j] = (__u32)rem;
	}
	return 0;
}

/*
 * The flow key's hash.  Its length is a constant: with the default hash
 * id a constant too, the compiler inlines kb_hash() and unrolls it for 40
 * bytes (the generic call loops over a length).
 */
static __always_inline __u64 dl_hash(const struct kbloom_dleft_params *p,
				     const struct kbloom_dleft_flow *key)
{
	if (p->hash_id == KBLOOM_HASH_FAST)
		return kb_hash(KBLOOM_HASH_FAST, p->seed, key, sizeof(*key));
	return kb_hash(p->hash_id, p->seed, key, sizeof(*key));
}

/*
 * @c and @s of the key of @key; the scan state is zeroed (a global
 * function takes initialized memory only), then the key's positions.
 */
static __noinline int dl_ctx_init(struct dl_ctx *c, struct dl_scan *s,
				  const struct kbloom_dleft_params *p,
				  const struct kbloom_dleft_flow *key)
{
	__u32 bits = p->shape.fp_bits + p->shape.counter_bits;

	__builtin_memset(c, 0, sizeof(*c));
	__builtin_memset(s, 0, sizeof(*s));
	c->lb = bits == 8 ? 3 : bits == 16 ? 4 : bits == 32 ? 5 : 0;
	if (!c->lb || p->shape.tables > KB_DLEFT_TABLES_MAX)
		return -1;
	c->shape = p->shape;
	c->q = p->q;
	c->miss = p->miss;
	c->cb = p->shape.counter_bits;
	c->cmask = kb_field_mask(bits);
	/* 1 in every lane (no division: BPF's is slow) */
	c->one = c->lb == 3 ? 0x0101010101010101ULL :
		 c->lb == 4 ? 0x0001000100010001ULL : 0x0000000100000001ULL;
	c->top = c->one << (bits - 1);
	c->cnts = kb_field_mask(c->cb) * c->one;
	c->rems = c->cnts ^ ~0ULL;
	c->whole = !((p->shape.slots << c->lb) & 63);
	c->h = dl_hash(p, key);
	return dl_positions(c, s);
}

static __always_inline int dl_on_syn(const struct dl_ctx *c, struct dl_scan *s,
				     struct kbloom_dleft_xdp_stats *st)
{
	int ret = dl_update(c, s, 1);

	if (ret == DL_DONE)
		st->inserted++;
	else if (ret == DL_FULL)
		st->overflows++;
	else if (ret == DL_SATURATED)
		st->saturations++;
	else
		st->races++;
	return XDP_PASS;
}

static __always_inline int dl_on_fin(const struct dl_ctx *c, struct dl_scan *s,
				     struct kbloom_dleft_xdp_stats *st)
{
	int ret = dl_update(c, s, 0);

	if (ret == DL_DONE)
		st->deleted++;
	else if (ret == DL_ABSENT)
		st->del_miss++;
	else
		st->races++;
	return XDP_PASS;
}

static __always_inline int dl_on_other(const struct dl_ctx *c,
				       struct dl_scan *s,
				       struct kbloom_dleft_xdp_stats *st)
{
	if (dl_scan(c, s) > 0) {
		st->hits++;
		return XDP_PASS;
	}
	st->misses++;
	if (c->miss != KBLOOM_DLEFT_MISS_DROP)
		return XDP_PASS;
	st->dropped++;
	return XDP_DROP;
}

/* The TCP header of a parsed frame, or NULL when truncated. */
static __always_inline const struct tcphdr *dl_tcp(void *data, void *data_end,
						   const struct kbloom_pkt *pkt)
{
	const struct tcphdr *tcp = data + pkt->l4_off;

	if ((const void *)(tcp + 1) > data_end)
		return NULL;
	return tcp;
}

/* The flow key of a TCP segment (a subprogram: its stack is its own). */
static __noinline void dl_key(struct kbloom_dleft_flow *key,
			      const struct kbloom_pkt *pkt, __be16 sport,
			      __be16 dport)
{
	kb_dleft_flow_key(key, pkt->addr_len == KBLOOM_ADDR4_LEN ? 4 : 6,
			  pkt->src, sport, pkt->dst, dport);
}

SEC("xdp")
int xdp_dleft(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *data_end = (void *)(long)ctx->data_end;
	const struct kbloom_dleft_params *p;
	struct kbloom_dleft_xdp_stats *st;
	struct kbloom_dleft_flow key;
	const struct tcphdr *tcp;
	struct kbloom_pkt pkt;
	struct dl_scan s;
	struct dl_ctx c;
	__u32 zero = 0;
	int cls;

	st = bpf_map_lookup_elem(&dleft_stats, &zero);
	p = bpf_map_lookup_elem(&dleft_params, &zero);
	if (!st || !p)
		return XDP_PASS;
	if (!p->ready) {
		st->not_ready++;
		return XDP_PASS;
	}
	cls = kbloom_parse(data, data_end, &pkt);
	if (cls == KBLOOM_PKT_MALFORMED) {
		st->malformed++;
		return XDP_PASS;
	}
	if (cls != KBLOOM_PKT_IP || pkt.l4proto != IPPROTO_TCP ||
	    !pkt.l4_first) {
		st->other++;
		return XDP_PASS;
	}
	tcp = dl_tcp(data, data_end, &pkt);
	if (!tcp) {
		st->malformed++;
		return XDP_PASS;
	}
	dl_key(&key, &pkt, tcp->source, tcp->dest);
	if (dl_ctx_init(&c, &s, p, &key)) {
		st->not_ready++;
		return XDP_PASS;
	}
	if (tcp->syn && !tcp->ack)
		return dl_on_syn(&c, &s, st);
	if (tcp->fin || tcp->rst)
		return dl_on_fin(&c, &s, st);
	return dl_on_other(&c, &s, st);
}

char LICENSE[] SEC("license") = "GPL";
