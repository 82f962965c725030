// SPDX-License-Identifier: GPL-2.0
/*
 * kbloom ipbf: source-routed multicast with a Bloom filter in every packet,
 * LIPSIN zFilters and multi-stage MSBF headers (uapi/kbloom_ipbf.h), on
 * XDP.  One instance per node; the maps are in uapi/kbloom_net_maps.h.
 *
 * kbloom_ipbf_ingress, attached to every port of the node, handles the
 * frames of EtherType KB_IPBF_ETH_P (others go to the stack untouched).
 * Every step is bounds-checked against the frame; any fault is a drop,
 * counted by reason, never XDP_ABORTED:
 *
 *   truncated      shorter than Ethernet + 8 bytes, a LIPSIN frame
 *                  shorter than its 32-byte zFilter, a yes-no frame
 *                  shorter than its no record and no filter;
 *   header         unknown version or flags (or MSBF and yes-no at once),
 *                  reserved byte set, tag of 16 or more, a LIPSIN header
 *                  with stages, a yes-no no record with a k out of 1..8,
 *                  a length over 32 bytes or its reserved byte set;
 *   tag            a tag set the node does not have (cfg.d);
 *   fill           a zFilter with more one bits than cfg.fill_limit (an
 *                  all-ones filter is an attack, not a wildcard);
 *   hop            hop limit 0 (forwarding ports only);
 *   stage          MSBF: a stage record with a malformed Elias-gamma
 *                  length or past the end of the frame; every stage left
 *                  is walked (bpf_loop), so a frame truncated anywhere in
 *                  its header is never forwarded.
 *
 * A forwarding port then decrements the hop limit in the frame and
 * broadcasts it to every other port of ipbf_ports (BPF_F_BROADCAST |
 * BPF_F_EXCLUDE_INGRESS: never back out of the ingress port).  An MSBF
 * frame with no stage left has reached the end of its path: dropped
 * (rx_end).
 *
 * kbloom_ipbf_egress runs in ipbf_ports for every copy (a devmap egress
 * program) and keeps it iff the link leaving through the port is in the
 * header:
 *
 *   LIPSIN  (zFilter & lid[tag]) == lid[tag];
 *   yes-no  the same, and the no filter does not hold the link: not all
 *           of the no_k positions of lhash[tag] (uapi/kbloom_ipbf_yesno.h)
 *           are one (ipbf_no_test(), bounds-checked byte loads);
 *   MSBF    the k bits of the link hash lhash[tag] in the first stage
 *           (kb_ipbf_stage_bit(): bits read straight from the frame, one
 *           bounds-checked byte load each, so a stage may be 8 KiB); a
 *           kept copy loses that stage: the Ethernet and fixed headers
 *           are saved, bpf_xdp_adjust_head() drops the stage's bytes, the
 *           headers are written back in front with nstages - 1.
 *
 * Local delivery.  A port flagged KBLOOM_IPBF_PORT_LOCAL is the interface
 * of an end node (a host, or the internal port of a switch's own stack):
 * the same ingress program delivers a frame arriving on it to the stack
 * (XDP_PASS, the ipbf header left in place for the application's packet
 * socket) iff the zFilter contains the port's internal link ID lid[tag],
 * whatever its hop limit (and, yes-no, the no filter does not hold it);
 * an MSBF frame with a valid header is always
 * delivered.  Such a port is never a devmap port: nothing is forwarded
 * from it.  At a switch, delivery to an attached host is forwarding on the
 * host-facing port, a link with its own IDs like any other.  The loader
 * gives a host the IDs of its access link (switch -> host) as internal
 * IDs, which every zFilter of a tree that reaches the host contains, so
 * hosts accept exactly what the control plane's simulator delivers.
 *
 * kbloom_ipbf_check is the egress decision as a plain XDP program, for
 * BPF_PROG_TEST_RUN (devmap programs cannot be test-run): the port is
 * ctx->ingress_ifindex, XDP_PASS means "would forward" (with the stage
 * removed: the output frame is the one that would be sent), XDP_DROP
 * otherwise; it counts nothing.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_endian.h>
#include "uapi/kbloom_ipbf.h"
#include "uapi/kbloom_ipbf_yesno.h"
#include "uapi/kbloom_net_maps.h"

#define IPBF_PORTS		64	/* default, the loader sets the size */

/* Ethernet + fixed header, and the end of a LIPSIN header */
#define IPBF_FIXED		(ETH_HLEN + KB_IPBF_HDR_LEN)
#define IPBF_LIPSIN_END		(ETH_HLEN + KB_IPBF_LIPSIN_LEN)

/* The longest stage record: a 31-bit gamma code, k, 65535 filter bits */
#define IPBF_STAGE_BYTES_MAX	((KB_IPBF_GAMMA_MAX + KB_IPBF_STAGE_KBITS + \
				  KB_IPBF_STAGE_M_MAX + 7) / 8)

#if KB_IPBF_ETH_LEN != ETH_HLEN
#error "uapi/kbloom_ipbf.h: KB_IPBF_ETH_LEN is not the Ethernet header's"
#endif

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, IPBF_PORTS);
	__type(key, __u32);
	__type(value, struct kbloom_ipbf_port);
} ipbf_port SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_DEVMAP_HASH);
	__uint(max_entries, IPBF_PORTS);
	__type(key, __u32);
	__type(value, struct bpf_devmap_val);
} ipbf_ports SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, IPBF_PORTS);
	__type(key, __u32);
	__type(value, struct kbloom_ipbf_stats);
} ipbf_stats SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct kbloom_ipbf_cfg);
} ipbf_config SEC(".maps");

/* What the checks of a frame found. */
enum ipbf_verdict {
	IPBF_OK = 0,
	IPBF_NOT_IPBF,
	IPBF_END,
	IPBF_TRUNCATED,
	IPBF_HEADER,
	IPBF_TAG,
	IPBF_HOP,
	IPBF_FILL,
	IPBF_STAGE,
};

/* Which checks: a forwarding port's ingress, an egress port, a LOCAL port */
enum ipbf_where {
	IPBF_AT_INGRESS = 0,
	IPBF_AT_EGRESS = 1,
	IPBF_AT_LOCAL = 2,
};

/* The stage walk of the ingress check (a bpf_loop callback context). */
struct ipbf_walk {
	struct xdp_md *ctx;
	__u32 off;		/* frame offset of the next stage record */
	__u32 len;		/* frame length */
	__u32 bad;
};

static __always_inline struct kbloom_ipbf_stats *
ipbf_stats_of(const struct kbloom_ipbf_port *port)
{
	__u32 index = port->index;

	return bpf_map_lookup_elem(&ipbf_stats, &index);
}

/* The first 64 stream bits at @off, bits past the frame zero. */
static __always_inline int ipbf_load_bits(struct xdp_md *ctx, __u32 off,
					  __u32 avail, __u64 *w)
{
	__u64 n = avail < 8 ? avail : 8;
	__u8 buf[8] = {};

	/*
	 * One path for the verifier, whatever is left of the frame; the
	 * bounds checked on the 64-bit register the helper gets.
	 */
	asm volatile("" : "+r"(n));
	if (n < 1 || n > 8)
		return -1;
	/*
	 * 1..8 by arithmetic too: 6.1's verifier does not carry the bounds
	 * of the test above to the register the helper gets ("invalid
	 * zero-sized read").
	 */
	asm volatile("" : "+r"(n));
	n = ((n - 1) & 7) + 1;
	if (bpf_xdp_load_bytes(ctx, off, buf, n))
		return -1;
	*w = kb_ipbf_load_be64(buf, 8);
	return 0;
}

/* bpf_loop callback: parse the stage record at w->off and step over it. */
static long ipbf_walk_stage(__u32 i, void *arg)
{
	struct ipbf_walk *w = arg;
	struct kb_ipbf_stage st;
	__u32 off = w->off, avail;
	__u64 bits;

	if (off >= w->len || w->len > KB_IPBF_FRAME_MAX)
		goto bad;
	avail = w->len - off;
	if (ipbf_load_bits(w->ctx, off, avail, &bits) ||
	    kb_ipbf_stage_parse(bits, avail, &st))
		goto bad;
	w->off = off + st.bytes;
	return 0;
bad:
	w->bad = 1;
	return 1;
}

/* A yes-no frame's no record: IPBF_OK, IPBF_TRUNCATED or IPBF_HEADER. */
static __always_inline __u32 ipbf_no_frame(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	__u8 *rec = (__u8 *)data + IPBF_LIPSIN_END;
	struct kb_ipbf_no no;

	if ((void *)(rec + KB_IPBF_NO_HDR_LEN) > data_end)
		return IPBF_TRUNCATED;
	__builtin_memcpy(&no, rec, sizeof(no));
	if (kb_ipbf_no_check(&no, KB_IPBF_NO_HDR_LEN + KB_IPBF_NO_BYTES_MAX))
		return IPBF_HEADER;
	if ((__u32)(data_end - (void *)rec) < KB_IPBF_NO_HDR_LEN + no.bytes)
		return IPBF_TRUNCATED;
	return IPBF_OK;
}

/*
 * Does the no filter of a yes-no frame hold the link of hash @lh?
 * Return: 1 if it does, 0 if not, -1 for a malformed or truncated no
 * record.  A global function, verified on its own like ipbf_stage_test().
 */
__noinline int ipbf_no_test(struct xdp_md *ctx, __u64 lh)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	__u8 *rec = (__u8 *)data + IPBF_LIPSIN_END;
	__u8 *bits = rec + KB_IPBF_NO_HDR_LEN;
	struct kb_ipbf_no no;
	struct kb_probe p;
	__u32 i, bit, byte;

	if ((void *)bits > data_end)
		return -1;
	__builtin_memcpy(&no, rec, sizeof(no));
	if (kb_ipbf_no_check(&no, (__u32)(data_end - (void *)rec)))
		return -1;
	if (!no.bytes)
		return 0;
	kb_ipbf_no_init(&p, lh, no.seed);
	for (i = 0; i < KB_IPBF_NO_K_MAX; i++) {
		if (i >= kb_ipbf_opaque(no.k))
			break;
		bit = kb_ipbf_no_next(&p, no.bytes);
		byte = kb_ipbf_opaque(bit >> 3);
		if (byte >= KB_IPBF_NO_BYTES_MAX)
			return -1;
		if ((void *)(bits + byte + 1) > data_end)
			return -1;
		if (!(bits[byte] & (1U << (bit & 7))))
			return 0;
	}
	return 1;
}

/*
 * Check an ipbf frame for @where.  Return: IPBF_OK (then *@hp is its
 * fixed header), IPBF_NOT_IPBF, or the reason to drop it.
 */
static __always_inline int ipbf_check_frame(struct xdp_md *ctx,
					    const struct kbloom_ipbf_cfg *cfg,
					    enum ipbf_where where,
					    struct kb_ipbf_hdr **hp)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct ethhdr *eth = data;
	struct ipbf_walk w = {};
	struct kb_ipbf_zf zf;
	struct kb_ipbf_hdr *h;
	__u32 avail, no;

	if ((void *)(eth + 1) > data_end ||
	    eth->h_proto != bpf_htons(KB_IPBF_ETH_P))
		return IPBF_NOT_IPBF;
	h = (struct kb_ipbf_hdr *)(eth + 1);
	if ((void *)(h + 1) > data_end)
		return IPBF_TRUNCATED;
	avail = (__u32)(data_end - (void *)h);
	if ((!h->flags || h->flags == KB_IPBF_F_YESNO) &&
	    avail < KB_IPBF_LIPSIN_LEN)
		return IPBF_TRUNCATED;
	if (kb_ipbf_hdr_check(h, avail))
		return IPBF_HEADER;
	if (h->tag >= cfg->d)
		return IPBF_TAG;
	*hp = h;
	if (!(h->flags & KB_IPBF_F_MSBF)) {
		if (data + IPBF_LIPSIN_END > data_end)
			return IPBF_TRUNCATED;
		kb_ipbf_zf_load(&zf, (const __u8 *)(h + 1));
		if (kb_ipbf_zf_fill(&zf) > cfg->fill_limit)
			return IPBF_FILL;
		no = h->flags & KB_IPBF_F_YESNO ? ipbf_no_frame(ctx) : IPBF_OK;
		if (no != IPBF_OK)
			return (int)no;
		if (where == IPBF_AT_INGRESS && !h->hop_limit)
			return IPBF_HOP;
		return IPBF_OK;
	}
	if (where == IPBF_AT_LOCAL)
		return IPBF_OK;
	if (!h->nstages)
		return IPBF_END;
	if (where != IPBF_AT_INGRESS)
		return IPBF_OK;		/* the stage test parses stage 0 */
	if (!h->hop_limit)
		return IPBF_HOP;
	w.ctx = ctx;
	w.off = IPBF_FIXED;
	w.len = (__u32)(data_end - data);
	if (bpf_loop(h->nstages, ipbf_walk_stage, &w, 0) < 0 || w.bad)
		return IPBF_STAGE;
	return IPBF_OK;
}

static __always_inline void ipbf_count_drop(struct kbloom_ipbf_stats *st,
					    int v)
{
	switch (v) {
	case IPBF_END:
		st->rx_end++;
		break;
	case IPBF_TRUNCATED:
		st->drop_truncated++;
		break;
	case IPBF_HEADER:
		st->drop_header++;
		break;
	case IPBF_TAG:
		st->drop_tag++;
		break;
	case IPBF_HOP:
		st->drop_hop++;
		break;
	case IPBF_FILL:
		st->drop_fill++;
		break;
	default:
		st->drop_stage++;
		break;
	}
}

static __always_inline const struct kbloom_ipbf_cfg *ipbf_cfg(void)
{
	__u32 zero = 0;

	return bpf_map_lookup_elem(&ipbf_config, &zero);
}

/* A LOCAL port: deliver iff the zFilter holds the internal link ID. */
static __always_inline int ipbf_local(struct xdp_md *ctx,
				      const struct kbloom_ipbf_port *port,
				      const struct kb_ipbf_hdr *h,
				      struct kbloom_ipbf_stats *st)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct kb_ipbf_zf zf;
	__u32 tag = h->tag & (KB_IPBF_D_MAX - 1);

	if (!(h->flags & KB_IPBF_F_MSBF)) {
		if (data + IPBF_LIPSIN_END > data_end) {
			st->drop_truncated++;
			return XDP_DROP;
		}
		kb_ipbf_zf_load(&zf, (const __u8 *)data + IPBF_FIXED);
		if (!kb_ipbf_zf_match(&zf, &port->lid[tag]) ||
		    ((h->flags & KB_IPBF_F_YESNO) &&
		     ipbf_no_test(ctx, port->lhash[tag]))) {
			st->drop_local++;
			return XDP_DROP;
		}
	}
	st->rx_local++;
	return XDP_PASS;
}

SEC("xdp")
int kbloom_ipbf_ingress(struct xdp_md *ctx)
{
	__u32 ifindex = ctx->ingress_ifindex;
	const struct kbloom_ipbf_port *port;
	const struct kbloom_ipbf_cfg *cfg;
	struct kbloom_ipbf_stats *st;
	struct kb_ipbf_hdr *h = NULL;
	enum ipbf_where where;
	int v;

	port = bpf_map_lookup_elem(&ipbf_port, &ifindex);
	if (!port)
		return XDP_PASS;	/* not a port of this node */
	st = ipbf_stats_of(port);
	cfg = ipbf_cfg();
	if (!st || !cfg)
		return XDP_PASS;
	st->rx_packets++;
	where = port->flags & KBLOOM_IPBF_PORT_LOCAL ? IPBF_AT_LOCAL :
						       IPBF_AT_INGRESS;
	v = ipbf_check_frame(ctx, cfg, where, &h);
	if (v == IPBF_NOT_IPBF) {
		st->rx_other++;
		return XDP_PASS;
	}
	if (v != IPBF_OK || !h) {
		ipbf_count_drop(st, v);
		return XDP_DROP;
	}
	if (where == IPBF_AT_LOCAL)
		return ipbf_local(ctx, port, h, st);
	h->hop_limit--;
	st->rx_forwarded++;
	return bpf_redirect_map(&ipbf_ports, 0, BPF_F_BROADCAST |
				BPF_F_EXCLUDE_INGRESS | XDP_DROP);
}

/*
 * Does the first stage hold the link of hash @lh?  Return: the stage's
 * bytes (> 0) if it does, 0 if it does not, -1 for a stage that does not
 * parse.  A global function: verified once, on its own, so that the
 * paths of the gamma decoding and of the k probes do not multiply with
 * those of the caller.
 */
__noinline int ipbf_stage_test(struct xdp_md *ctx, __u64 lh)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	__u8 *rec = (__u8 *)data + IPBF_FIXED;
	struct kb_ipbf_stage st;
	struct kb_probe p;
	__u32 i, bit, byte, avail;
	__u64 w = 0;

	if ((void *)(rec + 1) > data_end)
		return -1;
	avail = kb_ipbf_opaque((__u32)(data_end - (void *)rec));
	if (avail > KB_IPBF_FRAME_MAX ||
	    ipbf_load_bits(ctx, IPBF_FIXED, avail, &w) ||
	    kb_ipbf_stage_parse(w, avail, &st))
		return -1;
	kb_probe_init(&p, lh);
	for (i = 0; i < KB_IPBF_STAGE_K_MAX; i++) {
		/*
		 * k opaque: else clang counts to k - 1 with "!=", a loop
		 * the verifier cannot see the end of.
		 */
		if (i >= kb_ipbf_opaque(st.k))
			break;
		bit = kb_ipbf_stage_bit(&st, &p);
		byte = kb_ipbf_opaque(kb_ipbf_bit_byte(bit));
		if (byte >= IPBF_STAGE_BYTES_MAX)
			return -1;
		if ((void *)(rec + byte + 1) > data_end)
			return -1;
		if (!(rec[byte] & kb_ipbf_bit_mask(bit)))
			return 0;
	}
	return (int)st.bytes;
}

/*
 * Remove the first stage (@bytes long) of an MSBF frame: save the
 * Ethernet and fixed headers, drop @bytes from the front, write the
 * headers back with one stage less.
 */
static __always_inline int ipbf_strip_stage(struct xdp_md *ctx, __u32 bytes)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	__u8 hdr[IPBF_FIXED];
	struct kb_ipbf_hdr *h;

	if (data + IPBF_FIXED > data_end)
		return -1;
	__builtin_memcpy(hdr, data, IPBF_FIXED);
	h = (struct kb_ipbf_hdr *)(hdr + ETH_HLEN);
	if (!h->nstages)
		return -1;
	h->nstages--;
	bytes = kb_ipbf_opaque(bytes);
	if (bytes < 1 || bytes > IPBF_STAGE_BYTES_MAX)
		return -1;
	if (bpf_xdp_adjust_head(ctx, (int)bytes))
		return -1;
	data_end = (void *)(long)ctx->data_end;
	data = (void *)(long)ctx->data;
	if (data + IPBF_FIXED > data_end)
		return -1;
	__builtin_memcpy(data, hdr, IPBF_FIXED);
	return 0;
}

/* Whether port @ifindex sends this copy; counted when @count. */
static __always_inline int ipbf_egress(struct xdp_md *ctx, __u32 ifindex,
				       int count)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	const struct kbloom_ipbf_port *port;
	struct kbloom_ipbf_stats *st = NULL;
	const struct kbloom_ipbf_cfg *cfg;
	struct kb_ipbf_hdr *h = NULL;
	struct kb_ipbf_zf zf;
	__u32 tag;
	int match, no;

	port = bpf_map_lookup_elem(&ipbf_port, &ifindex);
	if (!port)
		return XDP_DROP;
	if (count) {
		st = ipbf_stats_of(port);
		if (!st)
			return XDP_DROP;
		st->tx_seen++;
	}
	cfg = ipbf_cfg();
	if (!cfg || (port->flags & KBLOOM_IPBF_PORT_LOCAL) ||
	    ipbf_check_frame(ctx, cfg, IPBF_AT_EGRESS, &h) != IPBF_OK || !h)
		goto error;
	tag = h->tag & (KB_IPBF_D_MAX - 1);
	if (!(h->flags & KB_IPBF_F_MSBF)) {
		if (data + IPBF_LIPSIN_END > data_end)
			goto error;
		kb_ipbf_zf_load(&zf, (const __u8 *)data + IPBF_FIXED);
		match = kb_ipbf_zf_match(&zf, &port->lid[tag]);
		if (match && (h->flags & KB_IPBF_F_YESNO)) {
			no = ipbf_no_test(ctx, port->lhash[tag]);
			if (no < 0)
				goto error;
			match = !no;
		}
	} else {
		match = ipbf_stage_test(ctx, port->lhash[tag]);
		if (match < 0)
			goto error;
		if (match && ipbf_strip_stage(ctx, (__u32)match))
			goto error;
	}
	if (match) {
		if (st)
			st->tx_forwarded++;
		return XDP_PASS;
	}
	if (st)
		st->tx_filtered++;
	return XDP_DROP;
error:
	if (st)
		st->tx_errors++;
	return XDP_DROP;
}

SEC("xdp/devmap")
int kbloom_ipbf_egress(struct xdp_md *ctx)
{
	return ipbf_egress(ctx, ctx->egress_ifindex, 1);
}

SEC("xdp")
int kbloom_ipbf_check(struct xdp_md *ctx)
{
	return ipbf_egress(ctx, ctx->ingress_ifindex, 0);
}

char LICENSE[] SEC("license") = "GPL";
