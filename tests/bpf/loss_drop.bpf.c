// SPDX-License-Identifier: GPL-2.0
/*
 * The test's lossy hop (tests/bpf/loss_digest_e2e.c), on tc egress between
 * the two observation points: drops the UDP datagrams to port LD_PORT
 * whose sequence ((source port - LD_SPORT0) << 16 | IP id) is 999 modulo
 * 1000, and counts them.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/pkt_cls.h>
#include <linux/udp.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

#define LD_PORT		5000
#define LD_SPORT0	10000

__u64 dropped;

SEC("tc")
int loss_drop(struct __sk_buff *skb)
{
	void *data_end = (void *)(long)skb->data_end;
	void *data = (void *)(long)skb->data;
	struct ethhdr *eth = data;
	struct iphdr *iph = (void *)(eth + 1);
	struct udphdr *udp = (void *)(iph + 1);
	__u32 seq;

	if ((void *)(udp + 1) > data_end || eth->h_proto != bpf_htons(ETH_P_IP) ||
	    iph->ihl != 5 || iph->protocol != IPPROTO_UDP ||
	    udp->dest != bpf_htons(LD_PORT))
		return TC_ACT_OK;
	seq = (__u32)(bpf_ntohs(udp->source) - LD_SPORT0) << 16 |
	      bpf_ntohs(iph->id);
	if (seq % 1000 != 999)
		return TC_ACT_OK;
	__sync_fetch_and_add(&dropped, 1);
	return TC_ACT_SHOT;
}

char LICENSE[] SEC("license") = "GPL";
