// SPDX-License-Identifier: GPL-2.0
/*
 * kbloom window at XDP and tc: an age-partitioned window of addresses
 * (uapi/kbloom_var_window.h) in BPF maps, its positions, rotation rule and
 * hash those of libkbloom and kbloom.ko.  Programs, maps and rotation:
 * uapi/kbloom_window_maps.h.
 *
 * Rotation by the programs: the one whose compare-and-exchange moved the
 * generation start clears the oldest slices (bpf_loop() over their words)
 * and then stores the head.  Adds that race a rotation may set a bit in
 * the slices of the head they read, never in the one being cleared (it
 * is not among a key's k newest); lookups leave out the slices due to be
 * cleared, so the window is never longer than l + 1 generations.
 */
#include <linux/bpf.h>
#include <linux/pkt_cls.h>
#include <bpf/bpf_helpers.h>
#include "uapi/kbloom_hash.h"
#include "uapi/kbloom_variants.h"
#include "uapi/kbloom_window_maps.h"
#include "bpf/kbloom_pkt.h"

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct kbloom_win_xdp_params);
} win_params SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct kbloom_win_xdp_state);
} win_state SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);		/* the loader sets (k + l) s / 64 */
	__type(key, __u32);
	__type(value, __u64);
} win_words SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct kbloom_win_xdp_stats);
} win_stats SEC(".maps");

/* One frame's window: parameters, state, counters. */
struct wn_frame {
	const struct kbloom_win_xdp_params *p;
	struct kbloom_win_xdp_state *st;
	struct kbloom_win_xdp_stats *stats;
	__u32 slices;
	__u64 first;		/* bpf_loop(): the first word to clear */
};

static long wn_clear_word(__u32 i, void *ctx)
{
	struct wn_frame *fr = ctx;
	__u32 idx = (__u32)(fr->first + i);
	__u64 *w = bpf_map_lookup_elem(&win_words, &idx);

	if (w)
		*w = 0;
	return 0;
}

/* The rotations due: one program wins the start and clears the slices. */
static __always_inline void wn_rotate(struct wn_frame *fr, __u64 now)
{
	__u64 start = fr->st->gen_start, due, per = fr->p->slice_bits / 64;
	__u32 head = fr->st->head, r;

	due = kb_win_due(now, start, fr->p->gen_ns);
	if (!due)
		return;
	if (__sync_val_compare_and_swap(&fr->st->gen_start, start,
					start + due * fr->p->gen_ns) != start)
		return;
	for (r = 0; r < KB_WIN_SLICES_MAX; r++) {
		if (r >= due || r >= fr->slices)
			break;
		head = kb_win_next_head(head, fr->slices);
		fr->first = head * per;
		bpf_loop((__u32)per, wn_clear_word, fr, 0);
	}
	/* after the words: a reader of the new head finds them cleared */
	__sync_lock_test_and_set(&fr->st->head, head);
	__sync_fetch_and_add(&fr->st->rotations, due);
	fr->stats->rotations += due;
}

static __always_inline int wn_frame_init(struct wn_frame *fr)
{
	__u32 zero = 0;

	fr->stats = bpf_map_lookup_elem(&win_stats, &zero);
	fr->p = bpf_map_lookup_elem(&win_params, &zero);
	fr->st = bpf_map_lookup_elem(&win_state, &zero);
	if (!fr->stats)
		return -1;
	fr->stats->packets++;
	if (!fr->p || !fr->st || !fr->p->gen_ns || !fr->p->slice_bits ||
	    fr->p->k > KBLOOM_K_MAX || fr->p->l > KB_WIN_L_MAX ||
	    !fr->p->k || !fr->p->l) {
		fr->stats->errors++;
		return -1;
	}
	fr->slices = fr->p->k + fr->p->l;
	wn_rotate(fr, bpf_ktime_get_ns());
	return 0;
}

static __always_inline __u64 wn_hash(const struct wn_frame *fr,
				     const __u8 *addr, __u32 len)
{
	if (len == KBLOOM_ADDR4_LEN)
		return kb_hash(fr->p->hash_id, fr->p->seed, addr,
			       KBLOOM_ADDR4_LEN);
	return kb_hash(fr->p->hash_id, fr->p->seed, addr, KBLOOM_ADDR6_LEN);
}

/*
 * A walk over a key's bits (bpf_loop() callbacks: the verifier checks one
 * step, whatever k, l and the head).
 */
struct wn_walk {
	struct wn_frame *fr;
	struct kb_win_walk w;
	__u32 live;		/* test: slices to look at */
	__u32 run;
	int found;		/* test: 1 present, 0 absent */
};

static long wn_mul_cb(__u32 i, void *ctx)
{
	struct wn_walk *wk = ctx;

	wk->w.g *= KB_PROBE_MUL;
	return 0;
}

/* The walk from logical slice 0 (kb_win_walk_init(), one step a call). */
static __always_inline void wn_walk_init(struct wn_walk *wk,
					 struct wn_frame *fr, __u64 h)
{
	__u32 head = fr->st->head;

	wk->fr = fr;
	wk->w.h = h;
	wk->w.g = h;
	wk->w.phys = head;
	wk->w.slices = fr->slices;
	wk->run = 0;
	wk->found = 0;
	bpf_loop(head < KB_WIN_SLICES_MAX ? head : 0, wn_mul_cb, wk, 0);
}

/* The word of the walk's next bit, and the bit's mask. */
static __always_inline __u64 *wn_next(struct wn_walk *wk, __u64 *mask)
{
	__u64 bit = kb_win_walk_next(&wk->w, wk->fr->p->slice_bits);
	__u32 idx = (__u32)(bit >> 6);
	__u64 *w = bpf_map_lookup_elem(&win_words, &idx);

	*mask = 1ULL << (bit & 63);
	if (!w)
		wk->fr->stats->errors++;
	return w;
}

static long wn_test_cb(__u32 i, void *ctx)
{
	struct wn_walk *wk = ctx;
	__u64 mask, *w = wn_next(wk, &mask);
	int r;

	if (!w)
		return 1;
	r = kb_win_run_step(&wk->run, !!(*w & mask), wk->fr->p->k,
			    wk->live - i - 1);
	wk->found = r > 0;
	return r != 0;
}

/* Whether the address is in the window: k consecutive live slices. */
static __always_inline int wn_test(struct wn_frame *fr, __u64 h)
{
	struct wn_walk wk;
	__u64 due;

	due = kb_win_due(bpf_ktime_get_ns(), fr->st->gen_start,
			 fr->p->gen_ns);
	wn_walk_init(&wk, fr, h);
	wk.live = due >= fr->slices ? 0 : fr->slices - (__u32)due;
	bpf_loop(wk.live, wn_test_cb, &wk, 0);
	return wk.found;
}

static long wn_add_cb(__u32 i, void *ctx)
{
	struct wn_walk *wk = ctx;
	__u64 mask, *w = wn_next(wk, &mask);

	if (!w)
		return 1;
	__sync_fetch_and_or(w, mask);
	return 0;
}

/* Set the address's bit in the k newest slices (atomic OR). */
static __always_inline void wn_add(struct wn_frame *fr, __u64 h)
{
	struct wn_walk wk;

	wn_walk_init(&wk, fr, h);
	bpf_loop(fr->p->k, wn_add_cb, &wk, 0);
	fr->stats->inserted++;
}

SEC("tc")
int kbloom_window_out(struct __sk_buff *skb)
{
	void *data_end = (void *)(long)skb->data_end;
	void *data = (void *)(long)skb->data;
	struct kbloom_pkt pkt;
	struct wn_frame fr;
	int cls;

	if (wn_frame_init(&fr))
		return TC_ACT_OK;
	cls = kbloom_parse(data, data_end, &pkt);
	if (cls == KBLOOM_PKT_NOT_IP)
		fr.stats->not_ip++;
	else if (cls != KBLOOM_PKT_IP)
		fr.stats->malformed++;
	else
		wn_add(&fr, wn_hash(&fr, pkt.dst, pkt.addr_len));
	fr.stats->passed++;
	return TC_ACT_OK;
}

/* Parse, then the source's verdict: 1 to pass, 0 to drop. */
static __always_inline int wn_source(struct xdp_md *ctx, int dedupe,
				     struct wn_frame *fr)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct kbloom_pkt pkt;
	int cls, in;
	__u64 h;

	cls = kbloom_parse(data, data_end, &pkt);
	if (cls == KBLOOM_PKT_NOT_IP) {
		fr->stats->not_ip++;
		return 1;
	}
	if (cls != KBLOOM_PKT_IP) {
		fr->stats->malformed++;
		return 0;
	}
	h = wn_hash(fr, pkt.src, pkt.addr_len);
	in = wn_test(fr, h);
	if (in)
		fr->stats->present++;
	else
		fr->stats->absent++;
	if (!dedupe)
		return in;
	if (!in)
		wn_add(fr, h);
	return !in;
}

static __always_inline int wn_verdict(struct wn_frame *fr, int pass)
{
	if (pass) {
		fr->stats->passed++;
		return XDP_PASS;
	}
	fr->stats->drops++;
	return XDP_DROP;
}

SEC("xdp")
int kbloom_window_in(struct xdp_md *ctx)
{
	struct wn_frame fr;

	if (wn_frame_init(&fr))
		return XDP_PASS;
	return wn_verdict(&fr, wn_source(ctx, 0, &fr));
}

SEC("xdp")
int kbloom_window_dedupe(struct xdp_md *ctx)
{
	struct wn_frame fr;

	if (wn_frame_init(&fr))
		return XDP_PASS;
	return wn_verdict(&fr, wn_source(ctx, 1, &fr));
}

char LICENSE[] SEC("license") = "GPL";
