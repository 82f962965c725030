/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers of the ipbf and mcbf tests of the bpf suite: test runs that
 * return the output frame, ipbf frames (Ethernet + header + a kbt_payload
 * last, so that kbt_precv() finds it), a bit writer for hand-made MSBF
 * stage records, and one namespace per node of a kb_topo.
 */
#ifndef KBT_IPBF_UTIL_H
#define KBT_IPBF_UTIL_H

#include "tests/bpf/xdp_util.h"
#include "libkbloom_net.h"
#include "libkbloom_xdp_net.h"

#define IPBF_FRAME_MAX	4096

/* Run @prog_fd on a frame received on @ifindex; the output frame in @out. */
static inline int ipbf_run(int prog_fd, const void *pkt, __u32 len,
			   int ifindex, void *out, __u32 *out_len,
			   __u32 *retval)
{
	struct xdp_md ctx = {
		.data_end = len,
		.ingress_ifindex = ifindex,
	};
	__u8 scratch[IPBF_FRAME_MAX + 256];
	LIBBPF_OPTS(bpf_test_run_opts, o,
		.data_in = pkt,
		.data_size_in = len,
		.data_out = out ? out : scratch,
		.data_size_out = out ? IPBF_FRAME_MAX : sizeof(scratch),
		.ctx_in = &ctx,
		.ctx_size_in = sizeof(ctx),
		.repeat = 1,
	);
	int ret;

	ret = bpf_prog_test_run_opts(prog_fd, &o);
	*retval = o.retval;
	if (out_len)
		*out_len = o.data_size_out;
	return ret;
}

static const __u8 ipbf_bcast[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };

/* Ethernet (EtherType 0x88B5) + @hdr of @hlen bytes + @pl. */
static inline size_t ipbf_frame(__u8 *buf, const void *hdr, size_t hlen,
				const struct kbt_payload *pl)
{
	static const __u8 smac[6] = { 2, 0, 0, 0, 0, 0xbb };

	memcpy(buf, ipbf_bcast, 6);
	memcpy(buf + 6, smac, 6);
	buf[12] = KB_IPBF_ETH_P >> 8;
	buf[13] = KB_IPBF_ETH_P & 0xff;
	memcpy(buf + 14, hdr, hlen);
	if (pl)
		memcpy(buf + 14 + hlen, pl, sizeof(*pl));
	return 14 + hlen + (pl ? sizeof(*pl) : 0);
}

/* ---- a bit writer, MSB first (the stream order of uapi/kbloom_ipbf.h) ---- */

struct ipbf_bits {
	__u8 *b;
	__u32 pos;	/* bits written */
};

static inline void ipbf_put(struct ipbf_bits *w, __u64 v, __u32 n)
{
	__u32 i;

	for (i = 0; i < n; i++, w->pos++) {
		__u8 m = 0x80 >> (w->pos & 7);

		if ((v >> (n - 1 - i)) & 1)
			w->b[w->pos >> 3] |= m;
		else
			w->b[w->pos >> 3] &= ~m;
	}
}

/*
 * A stage record at @rec: gamma(@m), k - 1, then the filter with the
 * bits of @lh's k positions set (when @lh is not 0) and @extra random
 * ones.  Return: its bytes.
 */
static inline __u32 ipbf_stage(__u8 *rec, __u32 m, __u32 k, __u64 lh,
			       __u32 extra, __u64 *rng)
{
	struct ipbf_bits w = { rec, 0 };
	struct kb_ipbf_stage st;
	struct kb_probe p;
	__u32 glen = kb_ipbf_gamma_len(m), i, bit, bytes;

	bytes = (glen + KB_IPBF_STAGE_KBITS + m + 7) / 8;
	memset(rec, 0, bytes);
	ipbf_put(&w, 0, glen / 2);
	ipbf_put(&w, m, glen / 2 + 1);
	ipbf_put(&w, k - 1, KB_IPBF_STAGE_KBITS);
	st.m = m;
	st.k = k;
	st.off = glen + KB_IPBF_STAGE_KBITS;
	st.bytes = bytes;
	if (lh) {
		kb_probe_init(&p, lh);
		for (i = 0; i < k; i++) {
			bit = kb_ipbf_stage_bit(&st, &p);
			rec[bit >> 3] |= kb_ipbf_bit_mask(bit);
		}
	}
	for (i = 0; i < extra; i++) {
		bit = st.off + kbt_rand(rng) % m;
		rec[bit >> 3] |= kb_ipbf_bit_mask(bit);
	}
	return bytes;
}

/* An MSBF fixed header. */
static inline void ipbf_msbf_hdr(__u8 *h, __u32 hop, __u32 tag, __u32 nstages)
{
	h[0] = KB_IPBF_VERSION;
	h[1] = KB_IPBF_F_MSBF;
	h[2] = (__u8)hop;
	h[3] = (__u8)tag;
	h[4] = (__u8)nstages;
	h[5] = 0;
	h[6] = 0x88;
	h[7] = 0xB6;
}

/* Sum two counter structs of __u64 fields: @a = @b - @a. */
static inline void ipbf_delta(void *a, const void *b, size_t size)
{
	__u64 *x = a;
	const __u64 *y = b;
	size_t i;

	for (i = 0; i < size / sizeof(__u64); i++)
		x[i] = y[i] - x[i];
}

/*
 * Undo the set-up of a one-node test that runs in namespace @ns (entered,
 * the namespace left in *@saved): the instance and its pins, the
 * namespace, the link IDs and the topology; every one of them may be
 * missing.
 */
static inline void ipbf_node_cleanup(struct kbloom_net **n, const char *name,
				     int *saved, struct kbt_ns *ns,
				     struct kb_lids **l, struct kb_topo **t)
{
	if (*n)
		kbloom_net_close(*n);
	*n = NULL;
	if (name[0])
		kbt_unpin(name);
	if (*saved > 0)
		kbt_ns_leave(*saved);
	*saved = 0;
	kbt_ns_free(ns);
	kb_lids_free(*l);
	kb_topo_free(*t);
	*l = NULL;
	*t = NULL;
}

#endif /* KBT_IPBF_UTIL_H */
