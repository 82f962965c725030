/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kbloom: the loss digest's per-packet steps (uapi/kbloom_loss_maps.h),
 * shared by bpf/kbloom_loss_digest.bpf.c and the bench: the key of a frame and
 * its fold into k cells of an IBLT bank with atomic ADD and XOR.  The
 * includer defines KB_LOSS_CELLS, its cells map.
 */
#ifndef _KBLOOM_LOSS_H
#define _KBLOOM_LOSS_H

#include <linux/types.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>
#include "uapi/kbloom_hash.h"
#include "uapi/kbloom_var_iblt.h"
#include "uapi/kbloom_loss_maps.h"

/* The key of an IPv4 frame; its total length in *@tot; 0 or -1. */
static __always_inline int kb_loss_key(const void *data, const void *data_end,
				       struct kbloom_loss_key *key, __u32 *tot)
{
	const struct ethhdr *eth = data;
	const struct iphdr *iph = (const void *)(eth + 1);
	const __be16 *ports;

	if ((const void *)(iph + 1) > data_end ||
	    eth->h_proto != bpf_htons(ETH_P_IP) || iph->version != 4 ||
	    iph->ihl < 5 || (iph->frag_off & bpf_htons(0x1fff)))
		return -1;
	__builtin_memset(key, 0, sizeof(*key));
	key->len = KBLOOM_LOSS_KEY_LEN;
	key->proto = iph->protocol;
	key->id = iph->id;
	key->saddr = iph->saddr;
	key->daddr = iph->daddr;
	*tot = bpf_ntohs(iph->tot_len);
	if (iph->protocol != IPPROTO_TCP && iph->protocol != IPPROTO_UDP &&
	    iph->protocol != IPPROTO_SCTP)
		return 0;
	ports = (const void *)((const __u8 *)iph + (iph->ihl & 0xf) * 4);
	if ((const void *)(ports + 2) > data_end)
		return -1;
	key->sport = ports[0];
	key->dport = ports[1];
	return 0;
}

/*
 * Fold @key (value @value) into its k cells of bank @bank: 0, or -1 when
 * the params do not describe the map.
 */
static __always_inline int kb_loss_fold(const struct kbloom_loss_params *p,
					const struct kbloom_loss_key *key,
					__u64 value)
{
	const void *kb = &key->proto;
	__u64 h, check, w0, w1, g;
	struct kbloom_loss_cell *c;
	__u32 i, idx, k = p->k, part;

	if (k < KB_IBLT_K_MIN || k > KB_IBLT_K_MAX || p->bank > 1)
		return -1;
	part = p->cells / k;
	h = kb_hash(p->hash_id, p->seed, kb, KBLOOM_LOSS_KEY_LEN);
	check = kb_hash(p->hash_id, p->seed ^ KB_IBLT_CHECK_SALT, kb,
			KBLOOM_LOSS_KEY_LEN);
	__builtin_memcpy(&w0, key, 8);
	__builtin_memcpy(&w1, (const __u8 *)key + 8, 8);
	g = h;
	for (i = 0; i < KB_IBLT_K_MAX; i++) {
		if (i >= k)
			break;
		idx = p->bank * p->cells + i * part +
		      kb_reduce32((__u32)(g >> 32), part);
		g *= KB_PROBE_MUL;
		c = bpf_map_lookup_elem(&KB_LOSS_CELLS, &idx);
		if (!c)
			return -1;
		__sync_fetch_and_add(&c->count, 1);
		__sync_fetch_and_xor(&c->check, check);
		__sync_fetch_and_xor(&c->value, value);
		__sync_fetch_and_xor(&c->key[0], w0);
		__sync_fetch_and_xor(&c->key[1], w1);
	}
	return 0;
}

#endif /* _KBLOOM_LOSS_H */
