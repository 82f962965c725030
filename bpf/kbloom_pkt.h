/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kbloom: the one packet parser of the XDP paths.
 *
 * kbloom_parse() reads Ethernet, at most one 802.1Q or 802.1ad tag, and
 * an IPv4 or IPv6 header; for IPv6 it walks the extension headers
 * (hop-by-hop, routing, destination options, fragment, AH; at most
 * KBLOOM_IPV6_EXT_MAX of them) to the upper-layer header.  It answers:
 *
 *   KBLOOM_PKT_IP         a well-formed IPv4 or IPv6 header: struct
 *                         kbloom_pkt holds its addresses and upper-layer
 *                         protocol;
 *   KBLOOM_PKT_NOT_IP     a complete Ethernet header of another protocol
 *                         (ARP, two VLAN tags, ...);
 *   KBLOOM_PKT_MALFORMED  a frame shorter than its Ethernet (and tag)
 *                         header, or an IP header that is truncated or
 *                         inconsistent: wrong version, IHL below 5, total
 *                         or payload length beyond the frame or below the
 *                         header, an extension header beyond the payload,
 *                         too many extension headers, a truncated ICMPv6
 *                         type.
 *
 * Every truncation of a well-formed IP frame before its last header byte
 * is KBLOOM_PKT_MALFORMED: the length fields then point past the end.
 */
#ifndef _KBLOOM_PKT_H
#define _KBLOOM_PKT_H

#include <linux/types.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/in6.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <bpf/bpf_endian.h>
#include "uapi/kbloom_xdp_maps.h"

#define KBLOOM_IPV6_EXT_MAX	8

enum kbloom_pkt_class {
	KBLOOM_PKT_IP = 0,
	KBLOOM_PKT_NOT_IP = 1,
	KBLOOM_PKT_MALFORMED = 2,
};

/* IPv6 upper-layer protocol numbers not in every libc's headers */
#define KBLOOM_NEXTHDR_HOP	0
#define KBLOOM_NEXTHDR_ROUTING	43
#define KBLOOM_NEXTHDR_FRAGMENT	44
#define KBLOOM_NEXTHDR_AH	51
#define KBLOOM_NEXTHDR_ICMPV6	58
#define KBLOOM_NEXTHDR_DEST	60

/* ICMPv6 types of MLD (RFC 2710, RFC 3810) */
#define KBLOOM_MLD_QUERY	130
#define KBLOOM_MLD_REPORT	131
#define KBLOOM_MLD_DONE		132
#define KBLOOM_MLD2_REPORT	143

/**
 * struct kbloom_pkt - what kbloom_parse() found
 * @l3proto: ETH_P_IP or ETH_P_IPV6 (host order)
 * @addr_len: KBLOOM_ADDR4_LEN or KBLOOM_ADDR6_LEN
 * @l4proto: IPv4 protocol, or the IPv6 upper-layer next header
 * @l4_first: 1 when the upper-layer header starts in this frame (not a
 *            non-first fragment)
 * @icmp6_type: ICMPv6 type when l4proto is ICMPv6 and l4_first
 * @vlan: 1 when a VLAN tag was skipped
 * @l4_off: offset of the upper-layer header from the start of the frame
 *          (when l4_first; it may lie at or past the end of the frame)
 * @src: source address, network order; IPv4 in the first 4 bytes, zeros
 *       after addr_len; on an 8-byte boundary, so that the filters hash
 *       it with kb_hash_al() (a word at a time)
 * @dst: destination address, as @src
 */
struct kbloom_pkt {
	__u16 l3proto;
	__u8 addr_len;
	__u8 l4proto;
	__u8 l4_first;
	__u8 icmp6_type;
	__u8 vlan;
	__u8 pad;
	union {			/* the __u64 puts @src on an 8-byte boundary */
		__u8 src[16];
		__u64 src_w[2];
	};
	__u8 dst[16];
	__u16 l4_off;
};

struct kbloom_vlan_tag {
	__be16 tci;
	__be16 proto;
};

/*
 * A 16-bit length field in host order, bounded for the verifier: up to
 * 6.1 it forgets the bounds of a register after a byte swap, and adding
 * the result to a packet pointer is then refused ("math between pkt
 * pointer and register with unbounded min value").  The empty asm keeps
 * clang from dropping the mask; the cost is one instruction.
 */
static __always_inline __u32 kbloom_pkt_len16(__be16 v)
{
	__u32 x = bpf_ntohs(v);

	asm volatile("" : "+r"(x));
	return x & 0xffff;
}

static __always_inline int kbloom_parse_ip4(const __u8 *l3,
					    const void *data_end,
					    struct kbloom_pkt *pkt)
{
	const struct iphdr *iph = (const struct iphdr *)l3;
	__u32 hlen, tot;

	if ((const void *)(iph + 1) > data_end)
		return KBLOOM_PKT_MALFORMED;
	if (iph->version != 4 || iph->ihl < 5)
		return KBLOOM_PKT_MALFORMED;
	hlen = iph->ihl * 4;
	tot = kbloom_pkt_len16(iph->tot_len);
	if (tot < hlen || (const void *)(l3 + tot) > data_end)
		return KBLOOM_PKT_MALFORMED;
	pkt->l3proto = ETH_P_IP;
	pkt->addr_len = KBLOOM_ADDR4_LEN;
	pkt->l4proto = iph->protocol;
	pkt->l4_first = !(iph->frag_off & bpf_htons(0x1fff));
	pkt->l4_off = hlen;
	__builtin_memcpy(pkt->src, &iph->saddr, 4);
	__builtin_memcpy(pkt->dst, &iph->daddr, 4);
	return KBLOOM_PKT_IP;
}

#define KBLOOM_IP6_EXT_MASK	(_BITULL(KBLOOM_NEXTHDR_HOP) |		\
				 _BITULL(KBLOOM_NEXTHDR_ROUTING) |	\
				 _BITULL(KBLOOM_NEXTHDR_DEST) |		\
				 _BITULL(KBLOOM_NEXTHDR_FRAGMENT) |	\
				 _BITULL(KBLOOM_NEXTHDR_AH))

/* An extension header kbloom_parse() walks over (one test, few paths). */
static __always_inline int kbloom_ip6_ext(__u8 nh)
{
	return nh < 64 && (KBLOOM_IP6_EXT_MASK >> nh) & 1;
}

/* 1 when extension header @nh (kbloom_ip6_ext(): below 64) is @type. */
#define KBLOOM_IP6_EXT_IS(nh, type)	((_BITULL(type) >> (nh)) & 1)

/*
 * The length of extension header @nh (kbloom_ip6_ext()) whose first 8
 * bytes are at @p: 8 for a fragment header, (p[1] + 2) * 4 for AH, (p[1]
 * + 1) * 8 for the others; *@later set when it is a fragment header of a
 * fragment other than the first (a fragment offset, 13 bits of bytes 2-3,
 * not 0).  Worked out without branches, so that each header of the walk
 * leaves the verifier one state, not one a kind (an unrolled walk of
 * three kinds a header multiplied the states of every program after it).
 * The length is at most 2048 bytes: the mask only tells the verifier so.
 */
static __always_inline __u32 kbloom_ip6_ext_len(__u8 nh, const __u8 *p,
						__u32 *later)
{
	__u32 frag = KBLOOM_IP6_EXT_IS(nh, KBLOOM_NEXTHDR_FRAGMENT);
	__u32 ah = KBLOOM_IP6_EXT_IS(nh, KBLOOM_NEXTHDR_AH);
	__u32 units = ((__u32)p[1] & (frag - 1)) + 1 + ah;
	__u32 offset = (((__u32)p[2] << 8) | p[3]) & 0xfff8;
	__u32 len = (units * 8) >> ah;

	*later = frag & ((offset + 0xffff) >> 16);
	asm volatile("" : "+r"(len));	/* keep the mask: the compiler drops it */
	return len & 0xfff;
}

static __always_inline int kbloom_parse_ip6(const __u8 *l3,
					    const void *data_end,
					    struct kbloom_pkt *pkt)
{
	const struct ipv6hdr *ip6 = (const struct ipv6hdr *)l3;
	const __u8 *p, *pend;
	__u32 i, len, later, off = sizeof(*ip6);
	__u8 nh;

	if ((const void *)(ip6 + 1) > data_end)
		return KBLOOM_PKT_MALFORMED;
	if (ip6->version != 6)
		return KBLOOM_PKT_MALFORMED;
	p = (const __u8 *)(ip6 + 1);
	pend = p + kbloom_pkt_len16(ip6->payload_len);
	if ((const void *)pend > data_end)
		return KBLOOM_PKT_MALFORMED;
	pkt->l3proto = ETH_P_IPV6;
	pkt->addr_len = KBLOOM_ADDR6_LEN;
	pkt->l4_first = 1;
	__builtin_memcpy(pkt->src, &ip6->saddr, 16);
	__builtin_memcpy(pkt->dst, &ip6->daddr, 16);
	nh = ip6->nexthdr;
	for (i = 0; i < KBLOOM_IPV6_EXT_MAX; i++) {
		if (!kbloom_ip6_ext(nh))
			break;
		/* every extension header is at least 8 bytes */
		if (p + 8 > pend || (const void *)(p + 8) > data_end)
			return KBLOOM_PKT_MALFORMED;
		len = kbloom_ip6_ext_len(nh, p, &later);
		pkt->l4_first &= later ^ 1;
		nh = p[0];
		p += len;
		off += len;
		if (p > pend)
			return KBLOOM_PKT_MALFORMED;
		if (!pkt->l4_first)
			break;
	}
	if (pkt->l4_first && kbloom_ip6_ext(nh))
		return KBLOOM_PKT_MALFORMED;	/* chain too long */
	pkt->l4proto = nh;
	pkt->l4_off = off;
	if (nh == KBLOOM_NEXTHDR_ICMPV6 && pkt->l4_first) {
		if (p + 1 > pend || (const void *)(p + 1) > data_end)
			return KBLOOM_PKT_MALFORMED;
		pkt->icmp6_type = p[0];
	}
	return KBLOOM_PKT_IP;
}

static __always_inline int kbloom_parse(const void *data, const void *data_end,
					struct kbloom_pkt *pkt)
{
	const struct ethhdr *eth = data;
	const struct kbloom_vlan_tag *tag;
	__u16 l3_off = sizeof(*eth);
	const __u8 *l3;
	__be16 proto;
	int cls;

	__builtin_memset(pkt, 0, sizeof(*pkt));
	if ((const void *)(eth + 1) > data_end)
		return KBLOOM_PKT_MALFORMED;
	proto = eth->h_proto;
	l3 = (const __u8 *)(eth + 1);
	if (proto == bpf_htons(ETH_P_8021Q) ||
	    proto == bpf_htons(ETH_P_8021AD)) {
		tag = (const struct kbloom_vlan_tag *)l3;
		if ((const void *)(tag + 1) > data_end)
			return KBLOOM_PKT_MALFORMED;
		proto = tag->proto;
		l3 = (const __u8 *)(tag + 1);
		l3_off += sizeof(*tag);
		pkt->vlan = 1;
	}
	if (proto == bpf_htons(ETH_P_IP))
		cls = kbloom_parse_ip4(l3, data_end, pkt);
	else if (proto == bpf_htons(ETH_P_IPV6))
		cls = kbloom_parse_ip6(l3, data_end, pkt);
	else
		return KBLOOM_PKT_NOT_IP;
	pkt->l4_off += l3_off;
	return cls;
}

/* A multicast group address: IPv4 224.0.0.0/4, IPv6 ff00::/8. */
static __always_inline int kbloom_pkt_dst_mcast(const struct kbloom_pkt *pkt)
{
	if (pkt->addr_len == KBLOOM_ADDR4_LEN)
		return (pkt->dst[0] & 0xf0) == 0xe0;
	return pkt->dst[0] == 0xff;
}

/* Group membership signalling (IGMP, MLD): for the control plane. */
static __always_inline int kbloom_pkt_mcast_control(const struct kbloom_pkt *pkt)
{
	if (pkt->addr_len == KBLOOM_ADDR4_LEN)
		return pkt->l4proto == IPPROTO_IGMP;
	if (pkt->l4proto != KBLOOM_NEXTHDR_ICMPV6 || !pkt->l4_first)
		return 0;
	return pkt->icmp6_type == KBLOOM_MLD_QUERY ||
	       pkt->icmp6_type == KBLOOM_MLD_REPORT ||
	       pkt->icmp6_type == KBLOOM_MLD_DONE ||
	       pkt->icmp6_type == KBLOOM_MLD2_REPORT;
}

/*
 * A link-local or reserved group, which a switch floods (RFC 4541 2.1.2):
 * IPv4 224.0.0.0/24; IPv6 ff00::/15 (reserved, interface-local) and
 * ff02::/16 (link-local: neighbour discovery, all-nodes, mDNS), that is
 * byte 1 (flags 0, scope) at most 2.  One compare for IPv6, as for IPv4.
 */
static __always_inline int kbloom_pkt_mcast_local(const struct kbloom_pkt *pkt)
{
	if (pkt->addr_len == KBLOOM_ADDR4_LEN)
		return pkt->dst[0] == 224 && !pkt->dst[1] && !pkt->dst[2];
	return pkt->dst[1] <= 2;
}

/* What a multicast switch does with a received frame (kbloom_mcast_rx()). */
enum kbloom_mcast_rx {
	KBLOOM_MCAST_RX_DATA,		/* multicast data: to the other ports */
	KBLOOM_MCAST_RX_CONTROL,	/* IGMP, MLD: to the stack */
	KBLOOM_MCAST_RX_OTHER,		/* not IP multicast: to the stack */
	KBLOOM_MCAST_RX_MALFORMED,	/* truncated IP: to the stack */
	KBLOOM_MCAST_RX_LOCAL,		/* link-local group: flooded */
};

/* Parse a frame into @pkt and say what a multicast switch does with it. */
static __always_inline int kbloom_mcast_rx(void *data, void *data_end,
					   struct kbloom_pkt *pkt)
{
	int cls = kbloom_parse(data, data_end, pkt);

	if (cls == KBLOOM_PKT_MALFORMED)
		return KBLOOM_MCAST_RX_MALFORMED;
	if (cls != KBLOOM_PKT_IP || !kbloom_pkt_dst_mcast(pkt))
		return KBLOOM_MCAST_RX_OTHER;
	if (kbloom_pkt_mcast_control(pkt))
		return KBLOOM_MCAST_RX_CONTROL;
	if (kbloom_pkt_mcast_local(pkt))
		return KBLOOM_MCAST_RX_LOCAL;
	return KBLOOM_MCAST_RX_DATA;
}

/*
 * Count a received frame of kind @rx in @st (struct kbloom_mcast_stats or
 * struct kbloom_mcbf_stats: the same rx_* counters); true for data and
 * link-local frames, those a switch sends to its other ports.
 */
#define KBLOOM_MCAST_RX_COUNT(st, rx) ({				\
	typeof(st) __st = (st);						\
	int __rx = (rx);						\
									\
	if (__rx == KBLOOM_MCAST_RX_MALFORMED)				\
		__st->rx_malformed++;					\
	else if (__rx == KBLOOM_MCAST_RX_OTHER)				\
		__st->rx_other++;					\
	else if (__rx == KBLOOM_MCAST_RX_CONTROL)			\
		__st->rx_control++;					\
	else if (__rx == KBLOOM_MCAST_RX_LOCAL)				\
		__st->rx_local++;					\
	else								\
		__st->rx_mcast++;					\
	__rx == KBLOOM_MCAST_RX_DATA || __rx == KBLOOM_MCAST_RX_LOCAL;	\
})

#endif /* _KBLOOM_PKT_H */
