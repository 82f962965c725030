/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * kbloom: in-packet Bloom filters (LIPSIN zFilters, multi-stage MSBF) and
 * the class encoding of the Multi-Class Bloom filter (MC-BF).
 *
 * Header-only, free of libc, usable in the kernel, in BPF programs (every
 * loop is bounded by a constant) and in userspace.  libkbloom builds these
 * headers (userspace/lib/net/lipsin.c and msbf.c), the XDP programs parse
 * them with the helpers below, and the simulator of the control plane
 * (userspace/lib/net/sim.c) parses them with the same helpers, so the
 * three agree bit for bit.
 *
 * Encapsulation: Ethernet, EtherType KB_IPBF_ETH_P (0x88B5, IEEE 802 "Local
 * Experimental Ethertype 1"), then struct kb_ipbf_hdr, then the filter(s),
 * then the inner packet (inner_proto says which).  Why not UDP:
 *  - the forwarding nodes are switches: a zFilter names links, not IP
 *    hosts, and a fabric that forwards on it needs no IP routing;
 *  - the header sits at a fixed offset (14) right after the Ethernet
 *    header, which keeps the XDP bounds checks constant;
 *  - every hop rewrites the header (hop limit) and the MSBF hops strip a
 *    stage (bpf_xdp_adjust_head): under UDP each hop would also rewrite the
 *    IP total length, the IP checksum and the UDP length/checksum;
 *  - hosts' IP stacks never mistake it for their traffic.
 * The cost: it does not cross IP routers.  A gateway that needs to can
 * carry the same bytes in UDP; nothing here depends on the outer header.
 *
 * Fixed header (8 bytes, struct kb_ipbf_hdr):
 *
 *   byte 0  version      KB_IPBF_VERSION
 *   byte 1  flags        KB_IPBF_F_MSBF: multi-stage form; KB_IPBF_F_YESNO:
 *                        yes-no form (uapi/kbloom_ipbf_yesno.h); at most
 *                        one of the two; other bits 0
 *   byte 2  hop_limit    links the packet may still traverse: a node that
 *                        receives it at 0 drops it, else it forwards it
 *                        with hop_limit - 1
 *   byte 3  tag          link-ID tag set d, 0..KB_IPBF_D_MAX - 1
 *   byte 4  nstages      MSBF: stages left (0: deliver, never forward);
 *                        LIPSIN: 0
 *   byte 5  reserved     0
 *   byte 6  inner_proto  EtherType of the inner packet, big-endian
 *
 * LIPSIN form (flags 0): 32 bytes of zFilter follow (bytes 8..39), bit i
 * (0..255) of the zFilter is bit (i & 7) of byte (i >> 3), i.e. the
 * filter is four little-endian 64-bit words.  A node forwards on an
 * outgoing link L, other than the one it arrived on, iff
 * (zFilter & LID(L, tag)) == LID(L, tag).  A zFilter with more than the
 * configured number of one bits (the fill limit, 50% by default) is
 * dropped: an all-ones filter is an attack, not a wildcard.
 *
 * MSBF form (KB_IPBF_F_MSBF): nstages stage records follow, stage 0 first,
 * then the inner packet.  A stage record is a bit string, most significant
 * bit first (stream bit j is bit 7 - (j & 7) of byte j >> 3):
 *
 *   gamma(m)   Elias-gamma code of the filter length m (1..65535 bits):
 *              floor(log2 m) zero bits, then m in binary from its leading
 *              one; 2 * floor(log2 m) + 1 bits, at most 31
 *   k - 1      4 bits: the probes per link in this stage, k = 1..16
 *   filter     m bits; filter bit p is stream bit gamma_len + 4 + p
 *   padding    zero bits up to the next byte boundary
 *
 * so a stage takes (gamma_len + 4 + m + 7) / 8 bytes.  Stage s holds the
 * tree links that leave the tree nodes s hops from the source.  A node
 * tests its links against the first stage with the k positions of
 * kb_ipbf_stage_bit() (the kb_probe positions of uapi/kbloom_layout.h
 * over m bits, from the link's hash in the header's tag set),
 * forwards on every match but the ingress link with that stage removed
 * (nstages - 1, hop_limit - 1; the Ethernet and fixed headers move forward
 * by the stage's bytes and bpf_xdp_adjust_head() drops them), and
 * forwards nothing when nstages is 0.  The control plane sizes each stage
 * until no off-tree link leaving a node of that depth matches: an MSBF
 * header has no false positives on the topology it was built for.
 *
 * Both forms: a host delivers what reaches it and forwards nothing; the
 * source (a host or a switch) applies the forwarding rule to its own
 * links like any node, so a tree's first link is in its filter.
 *
 * Link IDs.  Directed link (node, port) in tag set t (node: the control
 * plane's node number; port: the node's local port number) has the link
 * hash
 *   lh = kb_hash(KBLOOM_HASH_SIPHASH13, seed, le32 node | le32 port |
 *                le32 t | le32 0)
 * a keyed PRF, so link IDs are unpredictable without the seed (LIPSIN's
 * zFilters are capabilities).  Its LIPSIN link ID is k distinct bits of 256
 * (k = 5 by default): the bytes of lh, then of kb_fmix64(lh + KB_P1), then
 * of kb_fmix64 of that + KB_P1, ..., least significant byte first, each a
 * bit number; repeats are skipped until k distinct bits are drawn
 * (kb_ipbf_lid()).  Each link ID is thus a uniformly random k-subset of
 * 256 bits.  MSBF positions come from the same lh.
 *
 * MC-BF class encoding.  Per-port filters of multicast groups where group
 * g is inserted and tested with k_g probes, k_g the k of its class (0..15).
 * The switch learns the class at line rate from the group address itself:
 *   IPv4: the high nibble of the second octet (239.C*16+x.y.z: class C),
 *   IPv6: the high nibble of byte 12, the top of the 32-bit group ID of
 *         RFC 3306/3307 addresses (ff3x::/32),
 * and the class's k from a 16-byte table (struct kb_mcbf_classes).  Cost:
 * one shift and one byte load per packet, no per-group state; 4 bits of
 * the group address space (239/8 keeps 2^20 groups per class); a group
 * that changes class changes address.  The rejected alternatives: an exact
 * group -> class table is per-group state in the switch, the very memory a
 * Bloom filter is there to save, plus a lookup per packet; a header field
 * needs every sender to encapsulate.  A class whose k is 0 is unused: its
 * groups are never members (none can have been inserted).
 */
#ifndef _UAPI_KBLOOM_IPBF_H
#define _UAPI_KBLOOM_IPBF_H

#include <linux/types.h>
#include "kbloom_base.h"
#include "kbloom_hash.h"
#include "kbloom_layout.h"

#define KB_IPBF_ETH_P		0x88B5	/* IEEE 802 local experimental 1 */
#define KB_IPBF_VERSION		1U

#define KB_IPBF_F_MSBF		0x01U	/* multi-stage form */
#define KB_IPBF_F_YESNO		0x02U	/* yes-no form: zFilter + no filter */
#define KB_IPBF_F_KNOWN		(KB_IPBF_F_MSBF | KB_IPBF_F_YESNO)

#define KB_IPBF_ZF_BITS		256U
#define KB_IPBF_ZF_BYTES	32U
#define KB_IPBF_ZF_WORDS	4U

#define KB_IPBF_K_MIN		1U	/* bits per link ID */
#define KB_IPBF_K_DEFAULT	5U
#define KB_IPBF_K_MAX		32U
#define KB_IPBF_D_DEFAULT	8U	/* link-ID tag sets */
#define KB_IPBF_D_MAX		16U
#define KB_IPBF_FILL_DEFAULT	128U	/* one bits allowed in a zFilter */

/* kb_ipbf_lid(): 64-bit words of draws before giving up (never, for k <= 32) */
#define KB_IPBF_LID_WORDS	16U

#define KB_IPBF_HDR_LEN		8U
#define KB_IPBF_LIPSIN_LEN	(KB_IPBF_HDR_LEN + KB_IPBF_ZF_BYTES)

#define KB_IPBF_GAMMA_ZMAX	15U	/* leading zeros: m < 2^16 */
#define KB_IPBF_GAMMA_MAX	31U	/* bits of the longest code */
#define KB_IPBF_STAGE_M_MAX	65535U	/* bits of one stage filter */
#define KB_IPBF_STAGE_KBITS	4U
#define KB_IPBF_STAGE_K_MAX	16U
#define KB_IPBF_STAGES_MAX	255U

/*
 * The longest MSBF frame whose stages a node's ingress walks, its
 * Ethernet header (KB_IPBF_ETH_LEN bytes: ETH_HLEN) included: a longer
 * one is dropped unparsed (drop_stage), so an MSBF header and its inner
 * packet take at most KB_IPBF_FRAME_MAX - KB_IPBF_ETH_LEN bytes.  LIPSIN
 * and yes-no frames, parsed at fixed offsets, have no such limit.
 */
#define KB_IPBF_ETH_LEN		14U
#define KB_IPBF_FRAME_MAX	0xFFFFU

struct kb_ipbf_hdr {
	__u8 version;
	__u8 flags;
	__u8 hop_limit;
	__u8 tag;
	__u8 nstages;
	__u8 reserved;
	__be16 inner_proto;
};

/* A zFilter or a LIPSIN link ID, in native-order words (bit i: w[i >> 6]). */
struct kb_ipbf_zf {
	__u64 w[KB_IPBF_ZF_WORDS];
};

/* Fields of one parsed MSBF stage record. */
struct kb_ipbf_stage {
	__u32 m;	/* filter bits, 1..KB_IPBF_STAGE_M_MAX */
	__u32 k;	/* probes per link, 1..KB_IPBF_STAGE_K_MAX */
	__u32 off;	/* stream bit of filter bit 0 */
	__u32 bytes;	/* length of the record */
};

/*
 * Header check for a packet with @avail bytes from the start of @h (avail
 * at least KB_IPBF_HDR_LEN, which the caller checked before reading @h).
 * Return: 0 when the version, the flags, the tag, the reserved byte and
 * (LIPSIN, and the yes part of yes-no) the length are valid, -1
 * otherwise: drop.  The hop limit, the fill, the stages and the no record
 * (kb_ipbf_no_check()) are checked by the forwarding step.
 */
static inline int kb_ipbf_hdr_check(const struct kb_ipbf_hdr *h, __u32 avail)
{
	if (avail < KB_IPBF_HDR_LEN || h->version != KB_IPBF_VERSION)
		return -1;
	if ((h->flags & ~KB_IPBF_F_KNOWN) || h->reserved ||
	    h->tag >= KB_IPBF_D_MAX || h->flags == KB_IPBF_F_KNOWN)
		return -1;
	if (!(h->flags & KB_IPBF_F_MSBF) &&
	    (h->nstages || avail < KB_IPBF_LIPSIN_LEN))
		return -1;
	return 0;
}

/* A zFilter from its 32 bytes in a packet, and back. */
static inline void kb_ipbf_zf_load(struct kb_ipbf_zf *zf, const __u8 *p)
{
	__u32 i;

	for (i = 0; i < KB_IPBF_ZF_WORDS; i++)
		zf->w[i] = kb_load_le64(p + 8 * i);
}

static inline void kb_ipbf_zf_store(__u8 *p, const struct kb_ipbf_zf *zf)
{
	__u32 i, j;

	for (i = 0; i < KB_IPBF_ZF_WORDS; i++)
		for (j = 0; j < 8; j++)
			p[8 * i + j] = (__u8)(zf->w[i] >> (8 * j));
}

/* Does the zFilter contain every bit of the link ID: (zf & lid) == lid. */
static inline int kb_ipbf_zf_match(const struct kb_ipbf_zf *zf,
				   const struct kb_ipbf_zf *lid)
{
	__u64 miss = 0;
	__u32 i;

	for (i = 0; i < KB_IPBF_ZF_WORDS; i++)
		miss |= lid->w[i] & ~zf->w[i];
	return miss == 0;
}

/* Fill: the number of one bits, 0..256. */
static inline __u32 kb_ipbf_zf_fill(const struct kb_ipbf_zf *zf)
{
	__u32 i, n = 0;

	for (i = 0; i < KB_IPBF_ZF_WORDS; i++)
		n += kb_popcount64(zf->w[i]);
	return n;
}

static inline void kb_ipbf_zf_or(struct kb_ipbf_zf *zf,
				 const struct kb_ipbf_zf *lid)
{
	__u32 i;

	for (i = 0; i < KB_IPBF_ZF_WORDS; i++)
		zf->w[i] |= lid->w[i];
}

/* The link hash of directed link (node, port) in tag set @tag. */
static inline __u64 kb_ipbf_link_hash(__u64 seed, __u32 node, __u32 port,
				      __u32 tag)
{
	__u32 v[4] = { node, port, tag, 0 };
	__u8 key[16];
	__u32 i, j;

	for (i = 0; i < 4; i++)
		for (j = 0; j < 4; j++)
			key[4 * i + j] = (__u8)(v[i] >> (8 * j));
	return kb_hash(KBLOOM_HASH_SIPHASH13, seed, key, sizeof(key));
}

/*
 * The LIPSIN link ID of a link hash: @k (KB_IPBF_K_MIN..KB_IPBF_K_MAX)
 * distinct bits of 256.  Return: 0, or -1 for a bad k (or, with
 * probability below 2^-300, draws exhausted; deterministic either way).
 */
static inline int kb_ipbf_lid(__u64 lh, __u32 k, struct kb_ipbf_zf *lid)
{
	__u32 i, j, b, n = 0;
	__u64 bit;

	for (i = 0; i < KB_IPBF_ZF_WORDS; i++)
		lid->w[i] = 0;
	if (k < KB_IPBF_K_MIN || k > KB_IPBF_K_MAX)
		return -1;
	for (i = 0; i < KB_IPBF_LID_WORDS; i++) {
		for (j = 0; j < 8; j++) {
			b = (__u32)(lh >> (8 * j)) & 0xFF;
			bit = 1ULL << (b & 63);
			if (lid->w[b >> 6] & bit)
				continue;
			lid->w[b >> 6] |= bit;
			if (++n == k)
				return 0;
		}
		lh = kb_fmix64(lh + KB_P1);
	}
	return -1;
}

/*
 * Elias gamma.  kb_ipbf_gamma_len(m): bits of the code of m >= 1.
 * kb_ipbf_gamma_decode(): @w holds the next 64 stream bits, first bit in
 * bit 63 (a big-endian load; bits past the packet zero), @avail how many of
 * them exist (0..64).  Return: the value (1..65535) and its code length
 * in *@len, or 0 for a malformed code: more than KB_IPBF_GAMMA_ZMAX leading
 * zeros (which includes all zeros) or a code longer than @avail.
 */
static inline __u32 kb_ipbf_gamma_len(__u32 m)
{
	__u32 i, z = 0;

	for (i = 1; i < 32; i++) {
		if (!(m >> i))
			break;
		z++;
	}
	return 2 * z + 1;
}

static inline __u32 kb_ipbf_gamma_decode(__u64 w, __u32 avail, __u32 *len)
{
	__u32 i, z = 0;

	for (i = 0; i <= KB_IPBF_GAMMA_ZMAX; i++) {
		if (w & (1ULL << (63 - i)))
			break;
		z++;
	}
	if (z > KB_IPBF_GAMMA_ZMAX || 2 * z + 1 > avail)
		return 0;
	*len = 2 * z + 1;
	return (__u32)(w >> (63 - 2 * z));
}

/* n (0..8) bytes at p as the top bytes of a big-endian 64-bit word. */
static inline __u64 kb_ipbf_load_be64(const __u8 *p, __u32 n)
{
	__u64 w = 0;
	__u32 i;

	for (i = 0; i < 8; i++) {
		if (i >= n)
			break;
		w |= (__u64)p[i] << (56 - 8 * i);
	}
	return w;
}

/*
 * Parse the stage record that starts with the 64 stream bits @w (as for
 * kb_ipbf_gamma_decode()), @avail bytes from the record's start to the
 * end of the packet.  Return: 0 and *@st, or -1 (drop) for a malformed
 * gamma code or a record longer than @avail.
 */
static inline int kb_ipbf_stage_parse(__u64 w, __u32 avail,
				      struct kb_ipbf_stage *st)
{
	__u32 bits = avail >= 8 ? 64 : avail * 8;
	__u32 m, glen;

	m = kb_ipbf_gamma_decode(w, bits, &glen);
	if (!m || glen + KB_IPBF_STAGE_KBITS > bits)
		return -1;
	st->m = m;
	st->k = (__u32)(w >> (64 - glen - KB_IPBF_STAGE_KBITS)) % 16 + 1;
	st->off = glen + KB_IPBF_STAGE_KBITS;
	st->bytes = (st->off + m + 7) / 8;
	if (st->bytes > avail)
		return -1;
	return 0;
}

/*
 * @v, opaque to the compiler in BPF: a bound checked on the result is
 * checked on the register that then indexes memory, which is the one the
 * verifier tracks (not on a copy the compiler chose).
 */
static inline __u32 kb_ipbf_opaque(__u32 v)
{
#if defined(__bpf__)
	asm volatile("" : "+r"(v));
#endif
	return v;
}

/* Byte and bit mask of stream bit @bit (MSB first). */
static inline __u32 kb_ipbf_bit_byte(__u32 bit)
{
	return bit >> 3;
}

static inline __u8 kb_ipbf_bit_mask(__u32 bit)
{
	return (__u8)(0x80U >> (bit & 7));
}

/*
 * The stage positions of a link: kb_probe_init(&p, lh), then k times
 * kb_ipbf_stage_bit(st, &p): the stream bit, counted from the record's
 * first byte, that must be one.  A link matches when all k are.  A BPF
 * program reads those bits from the packet (a stage may be 8 KiB).
 * kb_ipbf_stage_match() does it on a copy of the record of @len bytes
 * (bits past it count as zero; in BPF, a constant-size buffer).
 */
static inline __u32 kb_ipbf_stage_bit(const struct kb_ipbf_stage *st,
				      struct kb_probe *p)
{
	return st->off + kb_probe_next(p, st->m);
}

static inline int kb_ipbf_stage_match(const __u8 *rec, __u32 len,
				      const struct kb_ipbf_stage *st, __u64 lh)
{
	struct kb_probe p;
	__u32 i, bit, byte;

	kb_probe_init(&p, lh);
	for (i = 0; i < KB_IPBF_STAGE_K_MAX; i++) {
		if (i >= st->k)
			break;
		bit = kb_ipbf_stage_bit(st, &p);
		byte = kb_ipbf_opaque(kb_ipbf_bit_byte(bit));
		if (byte >= len || !(rec[byte] & kb_ipbf_bit_mask(bit)))
			return 0;
	}
	return 1;
}

/* MC-BF classes: the class of a group address, and the k of a class. */
#define KB_MCBF_CLASSES		16U
#define KB_MCBF_V4_CLASS_BYTE	1U
#define KB_MCBF_V6_CLASS_BYTE	12U

struct kb_mcbf_classes {
	__u8 k[KB_MCBF_CLASSES];	/* 0: class unused */
};

/* @grp: the 4 address bytes in network order. */
static inline __u32 kb_mcbf_class_v4(const __u8 *grp)
{
	return grp[KB_MCBF_V4_CLASS_BYTE] >> 4;
}

/* @grp: the 16 address bytes in network order. */
static inline __u32 kb_mcbf_class_v6(const __u8 *grp)
{
	return grp[KB_MCBF_V6_CLASS_BYTE] >> 4;
}

static inline __u32 kb_mcbf_class_k(const struct kb_mcbf_classes *c,
				    __u32 cls)
{
	return c->k[cls & (KB_MCBF_CLASSES - 1)];
}

#endif /* _UAPI_KBLOOM_IPBF_H */
