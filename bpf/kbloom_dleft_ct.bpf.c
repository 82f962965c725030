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
 * The verifier: one attempt at an insert, a delete or a lookup (the key's
 * positions and one scan serving the three) is a global function,
 * dl_once(), verified once whatever calls it, on the params map's value,
 * the key's hash and, for shapes other than the planner's, the filter's
 * constants in a struct dl_ctx the caller fills (in memory the verifier
 * knows nothing of: found in dl_once() itself, they made it walk the
 * generic code once per cell width).  Debian 6.1's verifier refused an
 * earlier form, whose inlined scans and retries it walked call site by
 * call site, at its limit of a million instructions
 * (tests/kmod/bpf_objects_test.c loads it there); it processes 166k
 * instructions of this one (6.18: 63k).  An attempt inline in the program
 * reaches the million even on 6.18.
 *
 * Calls: with the AMD SRSO mitigation ("Safe RET"), a subprogram call
 * and its return cost the packet about 8 ns: dl_once() is the packet's
 * one call (the flow key and its hash are inline).  6.1 adds up the
 * stacks of the program and dl_once() (512 bytes at most; 256 + 176
 * now): the flow key copies the addresses as words (its bytewise form
 * spilled registers).
 *
 * Speed: buckets of 8 cells of 16 or 32 bits (the planner's shapes: two
 * or four whole words) are scanned by code specialised for them, so that
 * the lane masks are constants and the words of a bucket unrolled; which
 * lane matched and which bucket is least loaded are found without
 * branches (those outcomes are random: a branch on them would miss
 * often); an update exchanges the word as the scan read it.  With the
 * planner's d = 4 and c = 8 as well (dl_fixed()), the positions, the
 * least loaded bucket and the free cell are found by code where d, c and
 * the lane constants are constants too, found in dl_once() rather than
 * by the caller per packet.  Other shapes take the generic code.  The
 * flow key is hashed as five aligned words (dl_hash(): kb_hash_al(),
 * where kb_hash() reads a key of unknown alignment a byte at a time).
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
 * The filter's constants, scalars only (an argument of dl_once() for
 * shapes other than the planner's).  A word holds 64 / 2^lb cells
 * ("lanes"); the bucket scan tests all the lanes of a word at once (SIMD
 * within a register): one = 1 in every lane, top = the top bit of every
 * lane.
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
	__u32 bw;		/* words of a bucket when buckets are whole
				 * words (slots << lb % 64 == 0), else 0
				 */
	__u32 pad;		/* 0 (a global function reads all bytes) */
	__u64 lmul;		/* dl_lmul(lb) */
};

/*
 * The planner's shapes (kb_dleft_plan(), kbloom_xdp_conntrack_plan()):
 * d = 4 subtables of c = 8 cells of 16 or 32 bits, buckets of 2 or 4
 * whole words, run by code where d, c and the lane width are constants.
 */
#define DL_FIX_TABLES	4
#define DL_FIX_SLOTS	8

/* Words a bucket can touch: 16 cells of 32 bits, not aligned. */
#define DL_BUCKET_WORDS	9

/* The key's d buckets, and their loads as a scan found them. */
struct dl_scan {
	__u32 first[KB_DLEFT_TABLES_MAX];	/* cells: m <= 2^32 */
	__u32 rem[KB_DLEFT_TABLES_MAX];		/* r <= 32 bits */
	__u8 load[KB_DLEFT_TABLES_MAX];
};

/*
 * A cell a scan picked: its word, the word's value as the scan read it,
 * and the cell's shift in it (kept by the attempt that updates the cell:
 * no second lookup or read of the word).
 */
struct dl_hit {
	__u64 *w;
	__u64 old;
	__u32 shift;
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
 * The lowest lane whose top bit is set in @m (not 0), without branches
 * (the lane is random: a branch on it would miss often).  With w =
 * 2^lb lane bits, x = (m & -m) >> (w - 1) is 1 << (w lane), and
 * dl_lmul(lb) holds k in bits [64 - w - w k, + w) for each lane k: x times
 * it brings the field of k = lane to the top w bits (the fields of k >
 * lane stay below them without carries, those of k < lane overflow).
 */
static __always_inline __u64 dl_lmul(__u32 lb)
{
	return lb == 3 ? 0x0001020304050607ULL :
	       lb == 4 ? 0x0000000100020003ULL : 1ULL;
}

static __always_inline __u32 dl_lane_of(__u64 m, __u32 lb, __u64 lmul)
{
	return (__u32)((((m & -m) >> ((1U << lb) - 1)) * lmul) >>
		       (64 - (1U << lb)));
}

static __always_inline __u32 dl_lane(const struct dl_ctx *c, __u64 m)
{
	return dl_lane_of(m, c->lb, c->lmul);
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

	if (c->bw)
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
					  struct dl_scan *s, struct dl_hit *h,
					  __u32 j, __u32 f, __u32 rem)
{
	__u64 pat = ((__u64)rem << c->cb) * c->one, *w, word, occ, match;
	__u32 k, idx, last, first = dl_bucket_word(c, f, &last);

	s->load[j] = 0;
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
			h->w = w;
			h->old = word;
			h->shift = dl_lane(c, match) << c->lb;
			return 1;
		}
	}
	return 0;
}

/*
 * Each first word of the key's d buckets loaded once:
 * the d loads do not depend on each other, so their cache misses overlap
 * instead of coming one after the other in the scan.  Filters below
 * DL_TOUCH_BITS (half of this machine's 1 MiB L2) have few misses to
 * overlap: the touch only costs them time (3% at 16 KiB).
 */
#define DL_TOUCH_BITS	_BITULL(22)

static __always_inline void dl_touch(const struct dl_ctx *c, struct dl_scan *s,
				     __u32 d)
{
	__u32 j, idx, line, prev = ~0U;
	__u64 *w;

	/*
	 * Unrolled, without break or continue: Debian 6.1 refused the loop
	 * clang laid out from those (entered in its middle, its way back an
	 * instruction's next one, a "back-edge" to 6.1's control flow check)
	 */
#pragma unroll
	for (j = 0; j < KB_DLEFT_TABLES_MAX; j++) {
		/* a 64-byte line holds 2^(9 - lb) cells: one load each */
		line = s->first[j] >> (9 - c->lb);
		if (j < d && line != prev) {
			idx = s->first[j] >> (6 - c->lb);
			w = bpf_map_lookup_elem(&dleft_words, &idx);
			if (w)
				dl_read(w);
		}
		prev = line;
	}
}

/*
 * Buckets of @bw whole words (8 cells of 16 or 32 bits: 2 or 4 words),
 * scanned with the lane width's log @lb and @bw constants, so that the
 * lane masks are immediates.  In a word x, the lanes whose count is not
 * 0:
 *   occ = ((x & cnts) + low) & top
 * (a count, below its lane's top bit since r >= 4, carries into that bit
 * iff it is not 0, and never out of the lane), and of those the lanes
 * holding remainder pattern @pat:
 *   y = (x ^ pat) & rems,  match = occ & ~((((y & low) + low) | y) & top).
 */
static __always_inline __u64 dl_one(__u32 lb)
{
	return lb == 3 ? 0x0101010101010101ULL :
	       lb == 4 ? 0x0001000100010001ULL : 0x0000000100000001ULL;
}

static __always_inline __u64 dl_top(__u32 lb)
{
	return dl_one(lb) << ((1U << lb) - 1);
}

/* Words of a whole-word bucket: 16 cells of 32 bits. */
#define DL_WHOLE_WORDS	8

static __always_inline __u64 dl_occ(__u64 x, __u64 cnts, __u32 lb)
{
	return ((x & cnts) + ~dl_top(lb)) & dl_top(lb);
}

static __always_inline __u64 dl_match(__u64 x, __u64 pat, __u64 cnts,
				      __u64 occ, __u32 lb)
{
	__u64 y = (x ^ pat) & ~cnts;

	return ((((y & ~dl_top(lb)) + ~dl_top(lb)) | y) & occ) ^ occ;
}

/*
 * Bucket @j of whole words: its first cell holding the remainder into
 * @h (1), or (0) its load into s->load[@j] when @loads.
 */
static __always_inline int dl_scan_words(const struct dl_ctx *c,
					 struct dl_scan *s, struct dl_hit *h,
					 __u32 j, __u32 lb, __u32 bw, int loads)
{
	__u64 pat = ((__u64)s->rem[j] << c->cb) * dl_one(lb), *w, x, occ, m;
	__u32 k, idx, base = s->first[j] >> (6 - lb);
	__u64 acc = 0;

#pragma unroll
	for (k = 0; k < DL_WHOLE_WORDS; k++) {
		if (k >= bw)
			continue;
		idx = base + k;
		w = bpf_map_lookup_elem(&dleft_words, &idx);
		if (!w)
			return -1;
		x = dl_read(w);
		occ = dl_occ(x, c->cnts, lb);
		m = dl_match(x, pat, c->cnts, occ, lb);
		if (m) {
			h->w = w;
			h->old = x;
			h->shift = dl_lane_of(m, lb, dl_lmul(lb)) << lb;
			return 1;
		}
		/* 1 per occupied cell in its lane (8 at most per lane) */
		acc += occ >> ((1U << lb) - 1);
	}
	/* the sum of the lanes, in the top lane */
	if (loads)
		s->load[j] = (__u8)((acc * dl_one(lb)) >> (64 - (1U << lb)));
	return 0;
}

/* dl_scan_all() of @d whole-word buckets of lane width log @lb. */
static __always_inline int dl_scan_whole(const struct dl_ctx *c,
					 struct dl_scan *s, struct dl_hit *h,
					 __u32 d, __u32 lb, __u32 bw, int loads)
{
	__u32 j;
	int ret;

	for (j = 0; j < KB_DLEFT_TABLES_MAX; j++) {
		if (j >= d)
			break;
		ret = dl_scan_words(c, s, h, j, lb, bw, loads);
		if (ret)
			return ret;
	}
	return 0;
}

/* dl_scan_whole() of a fixed shape (dl_fixed()): its d buckets unrolled. */
static __always_inline int dl_scan_fix(const struct dl_ctx *c,
				       struct dl_scan *s, struct dl_hit *h,
				       __u32 lb, int loads)
{
	__u32 j;
	int ret;

#pragma unroll
	for (j = 0; j < DL_FIX_TABLES; j++) {
		ret = dl_scan_words(c, s, h, j, lb, DL_FIX_SLOTS >> (6 - lb),
				    loads);
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * Return: 1 found (@h), 0 not (s->load complete when @loads), -1 error.
 */
static __always_inline int dl_scan_all(const struct dl_ctx *c,
				       struct dl_scan *s, struct dl_hit *h,
				       int loads)
{
	__u32 j;
	int ret;

	if (c->shape.m << c->lb >= DL_TOUCH_BITS)
		dl_touch(c, s, c->shape.tables);
	if (c->bw == 2 && c->lb == 4)
		return dl_scan_whole(c, s, h, c->shape.tables, 4, 2, loads);
	if (c->bw == 4 && c->lb == 5)
		return dl_scan_whole(c, s, h, c->shape.tables, 5, 4, loads);
	for (j = 0; j < KB_DLEFT_TABLES_MAX; j++) {
		if (j >= c->shape.tables)
			break;
		ret = dl_scan_bucket(c, s, h, j, s->first[j], s->rem[j]);
		if (ret)
			return ret;
	}
	return 0;
}

/* How dl_swap() changes a cell. */
enum dl_op {
	DL_FILL,	/* a free cell becomes @v */
	DL_INC,		/* a cell holding @rem counts one more */
	DL_DEC,		/* a cell holding @rem counts one less, 0 at 0 */
};

/*
 * One compare-and-exchange of the word of cell @h from h->old, the word
 * as the scan read it: a word that changed since (another CPU's update)
 * fails the exchange, and the update starts again.  Return: 1 done, 2 the
 * count is saturated (left as it is), 0 the exchange lost.
 */
static __always_inline int dl_swap(const struct dl_ctx *c,
				   const struct dl_hit *h, int op, __u64 v)
{
	__u64 cell = dl_cell(c, h->old, h->shift), new;
	__u64 cnt = kb_dleft_cell_count(cell, c->cb);

	if (op != DL_FILL && cnt == kb_ctr_max(c->cb))
		return 2;
	if (op == DL_INC)
		v = cell + 1;
	else if (op == DL_DEC)
		v = cnt > 1 ? cell - 1 : 0;
	new = (h->old & ~(c->cmask << h->shift)) | (v << h->shift);
	return __sync_val_compare_and_swap(h->w, h->old, new) == h->old;
}

/*
 * The least loaded bucket (ties to the left): its first cell, the key's
 * remainder there into @rem, and its load.  Without branches (which
 * bucket wins is random, a branch would miss often): the minimum of
 * (load << 3 | j), of a difference's sign bit (the operands are small).
 */
static __always_inline __u32 dl_least(const struct dl_scan *s, __u32 d,
				      __u32 *first, __u64 *rem)
{
	__u64 best = (__u64)s->load[0] << 3, kj, lt;
	__u32 j;

	for (j = 1; j < KB_DLEFT_TABLES_MAX; j++) {
		if (j >= d)
			break;
		kj = (__u64)s->load[j] << 3 | j;
		lt = (kj - best) >> 63;
		/* hidden from clang, which would branch on kj < best */
		asm volatile("" : "+r"(lt));
		best ^= (best ^ kj) & -lt;
	}
	j = best & (KB_DLEFT_TABLES_MAX - 1);
	*first = s->first[j];
	*rem = s->rem[j];
	return (__u32)(best >> 3);
}

/* The first free cell of the whole-word bucket of first cell @first. */
static __always_inline int dl_free_words(const struct dl_ctx *c, __u32 first,
					 __u32 lb, __u32 bw, struct dl_hit *h)
{
	__u32 k, idx = first >> (6 - lb);
	__u64 *w, free;

	for (k = 0; k < DL_WHOLE_WORDS; k++) {
		if (k >= bw)
			break;
		w = bpf_map_lookup_elem(&dleft_words, &idx);
		if (!w)
			return -1;
		h->old = dl_read(w);
		free = dl_occ(h->old, c->cnts, lb) ^ dl_top(lb);
		if (free) {
			h->w = w;
			h->shift = dl_lane_of(free, lb, dl_lmul(lb)) << lb;
			return 0;
		}
		idx++;
	}
	return -1;
}

/* The first free cell of the bucket of first cell @first, any shape. */
static __always_inline int dl_free_any(const struct dl_ctx *c, __u32 first,
				       struct dl_hit *h)
{
	__u32 k, idx, fw, last;
	__u64 *w, free;

	fw = dl_bucket_word(c, first, &last);
	for (k = 0; k < DL_BUCKET_WORDS; k++) {
		idx = fw + k;
		if (idx > last)
			break;
		w = bpf_map_lookup_elem(&dleft_words, &idx);
		if (!w)
			return -1;
		h->old = dl_read(w);
		free = ~dl_nonzero(c, h->old & c->cnts) &
		       dl_bucket_lanes(c, idx, first);
		if (free) {
			h->w = w;
			h->shift = dl_lane(c, free) << c->lb;
			return 0;
		}
	}
	return -1;
}

/*
 * The first free cell of the least loaded bucket into @h and the key's
 * remainder there: 0, or -1 when the d buckets are full.
 */
static __always_inline int dl_free_cell(const struct dl_ctx *c,
					const struct dl_scan *s, __u64 *rem,
					struct dl_hit *h)
{
	__u32 first;

	if (dl_least(s, c->shape.tables, &first, rem) >= c->shape.slots)
		return -1;
	if (c->bw == 2 && c->lb == 4)
		return dl_free_words(c, first, 4, 2, h);
	if (c->bw == 4 && c->lb == 5)
		return dl_free_words(c, first, 5, 4, h);
	return dl_free_any(c, first, h);
}

static __always_inline int dl_fixed(const struct dl_ctx *c)
{
	return c->shape.tables == DL_FIX_TABLES &&
	       c->shape.slots == DL_FIX_SLOTS;
}

/* What dl_once() does. */
enum dl_mode {
	DL_DELETE,	/* delete one copy */
	DL_INSERT,	/* insert one copy */
	DL_LOOKUP,	/* scan only: DL_DONE found, DL_ABSENT not */
};

/* An insert after the scan (@found: the scan's result, cell in @h). */
static __always_inline int dl_insert_rest(const struct dl_ctx *c,
					  struct dl_scan *s, struct dl_hit *h,
					  int found, __u32 lb)
{
	__u32 first;
	__u64 rem;
	int ret;

	if (found) {
		ret = dl_swap(c, h, DL_INC, 0);
		return ret == 2 ? DL_SATURATED : ret ? DL_DONE : DL_RACE;
	}
	if (lb) {
		/* a fixed shape (dl_fixed()) of lane width log @lb */
		if (dl_least(s, DL_FIX_TABLES, &first, &rem) >= DL_FIX_SLOTS ||
		    dl_free_words(c, first, lb, DL_FIX_SLOTS >> (6 - lb), h))
			return DL_FULL;
	} else if (dl_free_cell(c, s, &rem, h)) {
		return DL_FULL;
	}
	ret = dl_swap(c, h, DL_FILL, kb_dleft_cell_val(rem, 1, c->cb));
	return ret ? DL_DONE : DL_RACE;
}

/*
 * The key's d buckets into @s (kb_dleft_locate(), each print permuted
 * once): in the lines layout the subtables of a half-line share one
 * permuted print, so two permutations serve the d subtables.
 */
static __always_inline void dl_positions_of(const struct dl_ctx *c,
					    struct dl_scan *s, __u32 d,
					    __u32 slots)
{
	__u32 j, r;
	__u64 v, v0, v1, vj;
	int lines;

	r = c->shape.fp_bits;
	lines = c->shape.update == KB_DLEFT_LAYOUT_LINES;
	v = kb_dleft_print_q(c->h, c->q);
	v0 = kb_dleft_perm_q(v, 0, c->q);
	v1 = kb_dleft_perm_q(v, 1, c->q);
#pragma unroll
	for (j = 0; j < KB_DLEFT_TABLES_MAX; j++) {
		if (j >= d)
			continue;
		if (lines) {
			vj = kb_dleft_line_half(j, d) ? v1 : v0;
			s->first[j] = (__u32)kb_dleft_cell_lines(j, vj >> r, 0,
								 d, slots);
		} else {
			vj = j == 0 ? v0 : j == 1 ? v1 :
			     kb_dleft_perm_q(v, j, c->q);
			s->first[j] = (__u32)kb_dleft_cell(j, vj >> r, 0,
							   c->shape.buckets,
							   slots);
		}
		s->rem[j] = (__u32)(vj & kb_field_mask(r));
	}
}

/*
 * dl_once() on a fixed shape of lane width log @lb (dl_fixed()), or on
 * any shape (@lb 0).
 */
static __always_inline int dl_attempt(const struct dl_ctx *c, int mode,
				      __u32 lb)
{
	struct dl_hit h = { 0 };	/* no undefined value reaches a register */
	struct dl_scan s;
	int ret;

	__builtin_memset(&s, 0, sizeof(s));
	if (lb) {
		dl_positions_of(c, &s, DL_FIX_TABLES, DL_FIX_SLOTS);
		if (c->shape.m << lb >= DL_TOUCH_BITS)
			dl_touch(c, &s, DL_FIX_TABLES);
		ret = dl_scan_fix(c, &s, &h, lb, mode == DL_INSERT);
	} else {
		dl_positions_of(c, &s, c->shape.tables, c->shape.slots);
		ret = dl_scan_all(c, &s, &h, mode == DL_INSERT);
	}
	if (ret < 0)
		return DL_ERROR;
	if (mode == DL_INSERT)
		return dl_insert_rest(c, &s, &h, ret, lb);
	if (!ret)
		return DL_ABSENT;
	if (mode == DL_LOOKUP)
		return DL_DONE;
	/* a saturated count stays (2): the delete is done all the same */
	return dl_swap(c, &h, DL_DEC, 0) ? DL_DONE : DL_RACE;
}

/* The log of the cell bits of @s (3, 4 or 5), or 0: a shape not served. */
static __always_inline __u32 dl_shape_lb(const struct kb_shape *s)
{
	__u32 bits = s->fp_bits + s->counter_bits;

	if (s->tables > KB_DLEFT_TABLES_MAX)
		return 0;
	return bits == 8 ? 3 : bits == 16 ? 4 : bits == 32 ? 5 : 0;
}

/*
 * The rest of @c, whose shape is set, for the key hash @h and cells of
 * 2^@lb bits (dl_shape_lb()): @lb a constant, the lane constants are.
 */
static __always_inline const struct dl_ctx *
dl_ctx_set(struct dl_ctx *c, const struct kbloom_dleft_params *p, __u64 h,
	   __u32 lb)
{
	__u32 bits = 1U << lb, cells = c->shape.slots << lb;

	c->q = p->q;
	c->miss = p->miss;
	c->h = h;
	c->lb = lb;
	c->cb = c->shape.counter_bits;
	c->cmask = kb_field_mask(bits);
	/* 1 in every lane (no division: BPF's is slow) */
	c->one = dl_one(lb);
	c->top = c->one << (bits - 1);
	c->cnts = kb_field_mask(c->cb) * c->one;
	c->rems = c->cnts ^ ~0ULL;
	c->bw = cells & 63 ? 0 : cells >> 6;
	c->pad = 0;
	c->lmul = dl_lmul(lb);
	return c;
}

/*
 * The log of the cell bits of @s when it is a fixed shape (dl_fixed()) of
 * 16- or 32-bit cells (4 or 5), else 0.
 */
static __always_inline __u32 dl_fixed_lb(const struct kb_shape *s)
{
	__u32 bits = s->fp_bits + s->counter_bits;

	if (s->tables != DL_FIX_TABLES || s->slots != DL_FIX_SLOTS)
		return 0;
	return bits == 16 ? 4 : bits == 32 ? 5 : 0;
}

/*
 * One attempt at enum dl_mode @mode on the key of hash @h in the filter
 * of @p (the params map's value): its positions and one scan serving the
 * three modes (a global function: verified once, and the packet's only
 * subprogram call).  A fixed shape's constants are found here, from a
 * copy of the shape (the value may change under it), most at compile
 * time; other shapes take them from @any (dl_ctx_for()), made by the
 * caller: in memory the verifier knows nothing of, the generic code is
 * walked once for all widths (made here, once per width: 870k
 * instructions processed on 6.18).  Return: enum dl_result.
 */
__noinline int dl_once(const struct kbloom_dleft_params *p,
		       const struct dl_ctx *any, __u64 h, int mode)
{
	struct dl_ctx c;
	__u32 lb;

	if (any) {
		/*
		 * Never a fixed shape (dl_ctx_for()), but with these cases
		 * taken first the verifier walks the generic code 2.3 times
		 * less (170k instructions processed on 6.18 without)
		 */
		if (dl_fixed(any) && any->lb == 4)
			return dl_attempt(any, mode, 4);
		if (dl_fixed(any) && any->lb == 5)
			return dl_attempt(any, mode, 5);
		return dl_attempt(any, mode, 0);
	}
	if (!p)
		return DL_ERROR;
	c.shape = p->shape;
	lb = dl_fixed_lb(&c.shape);
	if (lb == 4)
		return dl_attempt(dl_ctx_set(&c, p, h, 4), mode, 4);
	if (lb == 5)
		return dl_attempt(dl_ctx_set(&c, p, h, 5), mode, 5);
	return DL_ERROR;
}

/*
 * The constants of the key of hash @h for dl_once() into @c, when the
 * filter of @p is not a fixed shape (else NULL: dl_once() finds them).
 */
static __always_inline const struct dl_ctx *
dl_ctx_for(struct dl_ctx *c, const struct kbloom_dleft_params *p, __u64 h)
{
	if (dl_fixed_lb(&p->shape))
		return NULL;
	c->shape = p->shape;
	return dl_ctx_set(c, p, h, dl_shape_lb(&c->shape));
}

/*
 * The key of hash @h in the filter of @p, for a lookup (@c: dl_ctx_for()).
 * Return: 1 found, 0 not, -1 error.
 */
static __always_inline int dl_scan(const struct kbloom_dleft_params *p,
				   const struct dl_ctx *c, __u64 h)
{
	int ret = dl_once(p, c, h, DL_LOOKUP);

	return ret == DL_DONE ? 1 : ret == DL_ABSENT ? 0 : -1;
}

static __always_inline int dl_update(const struct kbloom_dleft_params *p,
				     const struct dl_ctx *c, __u64 h,
				     int insert)
{
	int t, ret = DL_RACE;

	for (t = 0; t < KBLOOM_DLEFT_TRIES; t++) {
		ret = dl_once(p, c, h, insert ? DL_INSERT : DL_DELETE);
		if (ret != DL_RACE)
			break;
	}
	return ret;
}

/*
 * A flow key on an 8-byte boundary, so that dl_hash() reads it as words
 * (BPF reads the stack aligned only: kb_hash() reads a key of unknown
 * alignment byte by byte, eight loads, shifts and ors a word;
 * kb_hash_al() reads an aligned one a word at a time).
 */
#define DL_KEY_WORDS	(sizeof(struct kbloom_dleft_flow) / 8)

union dl_key {
	struct kbloom_dleft_flow flow;
	__u64 w[DL_KEY_WORDS];
};

/*
 * The flow key's hash, kb_hash() of its 40 bytes read as five aligned
 * words (kb_hash_al(): the key is on an 8-byte boundary).  The default
 * hash id's code inlined whole (flatten): clang otherwise calls
 * kb_hash_al() as a subprogram, a call per packet.
 */
static __always_inline __u64 __attribute__((flatten))
dl_hash_fast(__u64 seed, const union dl_key *key)
{
	return kb_hash_fast_al(seed, key->w, sizeof(key->flow));
}

static __always_inline __u64 dl_hash(const struct kbloom_dleft_params *p,
				     const union dl_key *key)
{
	if (p->hash_id == KBLOOM_HASH_FAST)
		return dl_hash_fast(p->seed, key);
	return kb_hash_al(p->hash_id, p->seed, key->w, sizeof(key->flow));
}

static __always_inline int dl_on_syn(const struct kbloom_dleft_params *p,
				     const struct dl_ctx *c, __u64 h,
				     struct kbloom_dleft_xdp_stats *st)
{
	int ret = dl_update(p, c, h, 1);

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

static __always_inline int dl_on_fin(const struct kbloom_dleft_params *p,
				     const struct dl_ctx *c, __u64 h,
				     struct kbloom_dleft_xdp_stats *st)
{
	int ret = dl_update(p, c, h, 0);

	if (ret == DL_DONE)
		st->deleted++;
	else if (ret == DL_ABSENT)
		st->del_miss++;
	else
		st->races++;
	return XDP_PASS;
}

static __always_inline int dl_on_other(const struct kbloom_dleft_params *p,
				       const struct dl_ctx *c, __u64 h,
				       struct kbloom_dleft_xdp_stats *st)
{
	if (dl_scan(p, c, h) > 0) {
		st->hits++;
		return XDP_PASS;
	}
	st->misses++;
	if (p->miss != KBLOOM_DLEFT_MISS_DROP)
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

/*
 * The flow key of a TCP segment: kb_dleft_flow_key(), each address copied
 * whole (inline, with no more stack: its bytewise selects spilled
 * registers past the 512 bytes that 6.1 allows the tracker and dl_once()
 * together).
 */
static __always_inline void dl_key(struct kbloom_dleft_flow *key,
				   const struct kbloom_pkt *pkt, __be16 sport,
				   __be16 dport)
{
	int swap = kb_dleft_ep_less(pkt->dst, dport, pkt->src, sport);

	__builtin_memcpy(key->a, swap ? pkt->dst : pkt->src, sizeof(key->a));
	__builtin_memcpy(key->b, swap ? pkt->src : pkt->dst, sizeof(key->b));
	key->a_port = swap ? dport : sport;
	key->b_port = swap ? sport : dport;
	key->proto = IPPROTO_TCP;
	key->family = pkt->addr_len == KBLOOM_ADDR4_LEN ? 4 : 6;
	key->pad[0] = 0;
	key->pad[1] = 0;
}

/*
 * A segment's parse and its flow key, 8-byte aligned (the __u64 member)
 * with pkt.src and pkt.dst at multiples of 8 (after the key's 40 bytes):
 * dl_key() copies the addresses as words.
 */
struct dl_frame {
	union dl_key key;
	struct kbloom_pkt pkt;
	__u64 align[];
};

SEC("xdp")
int xdp_dleft(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *data_end = (void *)(long)ctx->data_end;
	const struct kbloom_dleft_params *p;
	struct kbloom_dleft_xdp_stats *st;
	const struct tcphdr *tcp;
	const struct dl_ctx *c;
	struct dl_ctx any;
	struct dl_frame f;
	__u32 zero = 0;
	int cls;
	__u64 h;

	st = bpf_map_lookup_elem(&dleft_stats, &zero);
	p = bpf_map_lookup_elem(&dleft_params, &zero);
	if (!st || !p)
		return XDP_PASS;
	if (!p->ready) {
		st->not_ready++;
		return XDP_PASS;
	}
	cls = kbloom_parse(data, data_end, &f.pkt);
	if (cls == KBLOOM_PKT_MALFORMED) {
		st->malformed++;
		return XDP_PASS;
	}
	if (cls != KBLOOM_PKT_IP || f.pkt.l4proto != IPPROTO_TCP ||
	    !f.pkt.l4_first) {
		st->other++;
		return XDP_PASS;
	}
	tcp = dl_tcp(data, data_end, &f.pkt);
	if (!tcp) {
		st->malformed++;
		return XDP_PASS;
	}
	dl_key(&f.key.flow, &f.pkt, tcp->source, tcp->dest);
	if (!dl_shape_lb(&p->shape)) {
		st->not_ready++;
		return XDP_PASS;
	}
	h = dl_hash(p, &f.key);
	c = dl_ctx_for(&any, p, h);
	if (tcp->syn && !tcp->ack)
		return dl_on_syn(p, c, h, st);
	if (tcp->fin || tcp->rst)
		return dl_on_fin(p, c, h, st);
	return dl_on_other(p, c, h, st);
}

char LICENSE[] SEC("license") = "GPL";
