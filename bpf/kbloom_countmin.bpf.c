// SPDX-License-Identifier: GPL-2.0
/*
 * kbloom counting sketch at XDP: per-source packet and byte counts in two
 * Count-Min sketches, and a threshold that counts, marks or drops
 * (heavy hitters, floods).  Maps, forms and actions: see
 * uapi/kbloom_sketch_maps.h.  Hash, positions and counter packing are
 * uapi/kbloom_variants.h's, as in kbloom.ko and libkbloom_sketch, so the
 * maps hold the payload of a COUNT_MIN image.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include "uapi/kbloom_hash.h"
#include "uapi/kbloom_variants.h"
#include "uapi/kbloom_sketch_maps.h"
#include "bpf/kbloom_pkt.h"

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct kbloom_sketch_params);
} sketch_params SEC(".maps");

struct kbloom_sketch_pcpu_rows {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
};

struct kbloom_sketch_rows {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
};

struct kbloom_sketch_pcpu_rows sketch_pkts_pcpu SEC(".maps");
struct kbloom_sketch_pcpu_rows sketch_bytes_pcpu SEC(".maps");
struct kbloom_sketch_rows sketch_pkts SEC(".maps");
struct kbloom_sketch_rows sketch_bytes SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct kbloom_sketch_stats);
} sketch_stats SEC(".maps");

/*
 * One frame's work: its key's counters, the sketch parameters, and the
 * state of the row loops (bpf_loop() callbacks: the verifier checks a
 * row once, whatever the number of rows).
 */
struct sk_frame {
	const struct kbloom_sketch_params *p;
	struct kbloom_sketch_stats *st;
	__u64 pos[KB_CM_ROWS_MAX];
	__u32 rows;
	int shared;
	int bytes;		/* the byte sketch, else the packet sketch */
	int err;
	__u32 lost;
	__u64 weight;
	__u64 target;
	__u64 min;
};

static __always_inline __u64 sk_sum(__u64 a, __u64 b)
{
	return a + b < a ? ~0ULL : a + b;
}

static __always_inline void sk_positions(struct sk_frame *fr, __u64 h)
{
	struct kb_probe pr;
	__u32 i;

	kb_probe_init(&pr, h);
	for (i = 0; i < KB_CM_ROWS_MAX; i++) {
		if (i >= fr->rows)
			break;
		fr->pos[i] = kb_cm_counter(i, kb_probe_word(&pr),
					   fr->p->width);
		pr.g *= KB_PROBE_MUL;
	}
}

/* The word of row @i's counter in the frame's sketch map. */
static __always_inline __u64 *sk_word(const struct sk_frame *fr, __u32 i)
{
	__u32 idx;

	if (i >= KB_CM_ROWS_MAX)
		return NULL;
	idx = (__u32)kb_field_word(fr->pos[i], fr->p->counter_bits);
	if (fr->shared)
		return bpf_map_lookup_elem(fr->bytes ? (void *)&sketch_bytes :
					   (void *)&sketch_pkts, &idx);
	return bpf_map_lookup_elem(fr->bytes ? (void *)&sketch_bytes_pcpu :
				   (void *)&sketch_pkts_pcpu, &idx);
}

static long sk_min_row(__u32 i, void *ctx)
{
	struct sk_frame *fr = ctx;
	__u64 *w = sk_word(fr, i), c;

	if (!w) {
		fr->err = 1;
		return 1;
	}
	c = kb_cm_get(*w, fr->pos[i & (KB_CM_ROWS_MAX - 1)],
		      fr->p->counter_bits);
	if (c < fr->min)
		fr->min = c;
	return 0;
}

/* Minimum over the rows, in fr->min; fr->err when a word is missing. */
static __always_inline void sk_min(struct sk_frame *fr)
{
	fr->min = kb_field_mask(fr->p->counter_bits);
	bpf_loop(fr->rows, sk_min_row, fr, 0);
}

/* A CPU's own row counter raised to @target: no other writer. */
static __always_inline __u32 sk_raise_pcpu(__u32 cb, __u64 *w, __u64 n,
					   __u64 target)
{
	__u64 c = kb_cm_get(*w, n, cb), v = kb_cm_raise(c, target, cb);

	if (v != c)
		*w = kb_field_put_lo(*w, kb_field_shift(n, cb), cb, v);
	return target > v;
}

/*
 * One compare-and-exchange raising a shared row counter by @weight: 1
 * when the counter saturates (the weight is lost in part or in whole),
 * 0 when it took the whole weight, -EAGAIN when another writer changed
 * the word first.
 */
static __always_inline int sk_cas(__u64 *w, __u64 n, __u32 cb, __u64 weight)
{
	__u64 old = *w;	/* re-read: the cmpxchg is a full barrier */
	__u64 c = kb_cm_get(old, n, cb), want = sk_sum(c, weight);
	__u64 v = kb_cm_raise(c, want, cb);

	if (v == c)
		return 1;	/* saturated */
	if (__sync_val_compare_and_swap(w, old,
					kb_field_put_lo(old,
							kb_field_shift(n, cb),
							cb, v)) == old)
		return want > v;
	return -EAGAIN;
}

/*
 * The second to last of KBLOOM_SKETCH_CAS_TRIES attempts, after a first
 * that lost its race: a global function, which the verifier checks once
 * (the attempts unrolled in line made the most visited lines of the
 * program's log), called only under contention.  -EAGAIN: every attempt
 * lost.
 */
__noinline int sk_cas_retry(__u64 *w, __u64 n, __u32 cb, __u64 weight)
{
	int ret = -EAGAIN;
	__u32 t;

	if (!w)
		return -EAGAIN;
	for (t = 1; t < KBLOOM_SKETCH_CAS_TRIES && ret == -EAGAIN; t++)
		ret = sk_cas(w, n, cb, weight);
	return ret;
}

/* A shared row counter raised by @weight with compare-and-exchange. */
static __always_inline __u32 sk_add_shared(struct sk_frame *fr, __u64 *w,
					   __u64 n)
{
	__u32 cb = fr->p->counter_bits;
	int ret = sk_cas(w, n, cb, fr->weight);

	if (ret == -EAGAIN)
		ret = sk_cas_retry(w, n, cb, fr->weight);
	if (ret >= 0)
		return ret;
	fr->st->contended++;
	return 0;
}

static long sk_add_row(__u32 i, void *ctx)
{
	struct sk_frame *fr = ctx;
	__u32 cb = fr->p->counter_bits;
	__u64 *w = sk_word(fr, i), n;

	if (!w) {
		fr->err = 1;
		return 1;
	}
	n = fr->pos[i & (KB_CM_ROWS_MAX - 1)];
	if (fr->shared)
		fr->lost += sk_add_shared(fr, w, n);
	else if (fr->p->update == KB_CM_MIN_INC)
		fr->lost += sk_raise_pcpu(cb, w, n, fr->target);
	else
		fr->lost += sk_raise_pcpu(cb, w, n,
					  sk_sum(kb_cm_get(*w, n, cb),
						 fr->weight));
	return 0;
}

/* Count @weight for the frame's key in one sketch; its new estimate. */
static __always_inline __u64 sk_update(struct sk_frame *fr, int bytes,
				       __u64 weight)
{
	fr->bytes = bytes;
	fr->weight = weight;
	fr->lost = 0;
	fr->err = 0;
	if (fr->p->update == KB_CM_MIN_INC && !fr->shared) {
		sk_min(fr);
		fr->target = sk_sum(fr->min, weight);
	}
	if (!fr->err)
		bpf_loop(fr->rows, sk_add_row, fr, 0);
	fr->st->saturations += fr->lost;
	if (!fr->err)
		sk_min(fr);
	if (fr->err) {
		fr->st->errors++;
		return 0;
	}
	return fr->min;
}

/* The frame's source key hashed, both sketches counted. */
static __always_inline __u64 sk_count(struct sk_frame *fr,
				      const struct kbloom_pkt *pkt, __u64 len)
{
	const struct kbloom_sketch_params *p = fr->p;
	__u64 h, np, nb;

	if (pkt->addr_len == KBLOOM_ADDR4_LEN)
		h = kb_hash(p->hash_id, p->seed, pkt->src, KBLOOM_ADDR4_LEN);
	else
		h = kb_hash(p->hash_id, p->seed, pkt->src, KBLOOM_ADDR6_LEN);
	sk_positions(fr, h);
	np = sk_update(fr, 0, 1);
	nb = sk_update(fr, 1, len);
	fr->st->counted++;
	fr->st->bytes += len;
	return (p->flags & KBLOOM_SKETCH_F_BYTES) ? nb : np;
}

static __always_inline int sk_mark(struct xdp_md *ctx, __u32 mark)
{
	__u32 *meta;

	if (bpf_xdp_adjust_meta(ctx, -(int)sizeof(*meta)))
		return -1;
	meta = (void *)(long)ctx->data_meta;
	if ((void *)(meta + 1) > (void *)(long)ctx->data)
		return -1;
	*meta = mark;
	return 0;
}

/* The threshold's verdict on a counted frame. */
static __always_inline int sk_verdict(struct xdp_md *ctx,
				      const struct sk_frame *fr, __u64 est)
{
	const struct kbloom_sketch_params *p = fr->p;

	if (!p->threshold || est <= p->threshold)
		return XDP_PASS;
	fr->st->over++;
	if (p->action == KBLOOM_SKETCH_DROP) {
		fr->st->dropped++;
		return XDP_DROP;
	}
	if (p->action == KBLOOM_SKETCH_MARK && !sk_mark(ctx, p->mark))
		fr->st->marked++;
	return XDP_PASS;
}

static __always_inline int sk_run(struct xdp_md *ctx, int shared)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct sk_frame fr = { .shared = shared };
	struct kbloom_pkt pkt;
	__u32 zero = 0;
	__u64 est;
	int cls;

	fr.p = bpf_map_lookup_elem(&sketch_params, &zero);
	fr.st = bpf_map_lookup_elem(&sketch_stats, &zero);
	if (!fr.p || !fr.st)
		return XDP_PASS;
	fr.st->packets++;
	fr.rows = fr.p->rows;
	if (fr.rows > KB_CM_ROWS_MAX || (fr.p->counter_bits != 16 &&
					 fr.p->counter_bits != 32)) {
		fr.st->errors++;
		return XDP_PASS;
	}
	cls = kbloom_parse(data, data_end, &pkt);
	if (cls != KBLOOM_PKT_IP) {
		if (cls == KBLOOM_PKT_NOT_IP)
			fr.st->not_ip++;
		else
			fr.st->malformed++;
		return XDP_PASS;
	}
	est = sk_count(&fr, &pkt, data_end - data);
	return sk_verdict(ctx, &fr, est);
}

SEC("xdp")
int kbloom_sketch_pcpu(struct xdp_md *ctx)
{
	return sk_run(ctx, 0);
}

SEC("xdp")
int kbloom_sketch_shared(struct xdp_md *ctx)
{
	return sk_run(ctx, 1);
}

char LICENSE[] SEC("license") = "GPL";
