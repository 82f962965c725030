// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom_exp: the frames a source host sends.
 *
 * Inside every frame: IPv4 (20 bytes, TTL 64, the one's complement header
 * checksum of RFC 791) from 10.S2.S1.S0 (the source node's number) to the
 * group's address, UDP from port 40000 to 5000 without checksum, and a
 * payload that names the packet (magic, scheme, index, group, sequence).
 * The per-port paths get it behind Ethernet to the group's multicast MAC,
 * 01:00:5e and the low 23 bits of the address; the in-packet paths behind
 * Ethernet to ff:ff:ff:ff:ff:ff, type KB_IPBF_ETH_P, and the model's
 * header, after the source's own forwarding step.
 */
#include <errno.h>
#include <string.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <sys/socket.h>

#include "emu_int.h"

static __u16 csum16(const __u8 *p, size_t n)
{
	__u32 s = 0;
	size_t i;

	for (i = 0; i + 1 < n; i += 2)
		s += (p[i] << 8) | p[i + 1];
	if (n & 1)
		s += p[n - 1] << 8;
	while (s >> 16)
		s = (s & 0xffff) + (s >> 16);
	return (__u16)~s;
}

/* IPv4/UDP to the group from the source host, with the payload. */
static size_t inner_packet(__u8 *b, const __u8 grp[4], __u32 src,
			   const struct emu_payload *pl)
{
	size_t ulen = 8 + sizeof(*pl), tot = 20 + ulen;
	__u16 c;

	memset(b, 0, tot);
	b[0] = 0x45;
	b[2] = (__u8)(tot >> 8);
	b[3] = (__u8)tot;
	b[8] = 64;
	b[9] = 17;
	b[12] = 10;
	b[13] = (__u8)(src >> 16);
	b[14] = (__u8)(src >> 8);
	b[15] = (__u8)src;
	memcpy(b + 16, grp, 4);
	c = csum16(b, 20);
	b[10] = (__u8)(c >> 8);
	b[11] = (__u8)c;
	b[20] = 0x9c;	/* source port 40000 */
	b[21] = 0x40;
	b[22] = 0x13;	/* destination port 5000 */
	b[23] = 0x88;
	b[24] = (__u8)(ulen >> 8);
	b[25] = (__u8)ulen;
	memcpy(b + 28, pl, sizeof(*pl));
	return tot;
}

/*
 * The frame of packet @pk as its source host sends it.  Return: its
 * length, 0 when the source itself would not send it (its own
 * forwarding step drops it), -EMSGSIZE above the MTU.
 */
int emu_build_frame(struct emu *e, __u32 scheme, __u32 g, __u32 idx,
		       const struct kb_exp_pkt *pk, __u8 *f)
{
	struct emu_payload pl = { EMU_MAGIC, (__u16)scheme, (__u16)idx, g,
				  e->seq };
	const struct kb_exp_params *prm = kb_exp_get_params(e->x);
	__u32 src = kb_exp_group_src(e->x, g);
	__u32 sport = e->t->nodes[src].first_port;
	__u8 grp[4], inner[64];
	size_t il;
	int len;

	kb_exp_group_addr(e->x, g, grp);
	il = inner_packet(inner, grp, src, &pl);
	emu_port_mac(sport, f + 6);
	if (emu_path_of(scheme) != PATH_IPBF) {
		f[0] = 0x01;
		f[1] = 0x00;
		f[2] = 0x5e;
		f[3] = grp[1] & 0x7f;
		f[4] = grp[2];
		f[5] = grp[3];
		f[12] = 0x08;
		f[13] = 0x00;
		memcpy(f + 14, inner, il);
		return (int)(14 + il);
	}
	if (14 + pk->hdr_len + il > EMU_FRAME_MAX)
		return -EMSGSIZE;
	memset(f, 0xff, 6);
	f[12] = KB_IPBF_ETH_P >> 8;
	f[13] = KB_IPBF_ETH_P & 0xff;
	memcpy(f + 14, pk->hdr, pk->hdr_len);
	memcpy(f + 14 + pk->hdr_len, inner, il);
	len = kbloom_ipbf_source_step(kb_exp_lids(e->x), sport, f + 14,
				      pk->hdr_len + il, prm->fill_limit);
	if (len < 0)
		return 0;	/* the source drops it: 0 transmissions */
	return 14 + len;
}

int emu_send_frame(struct emu *e, __u32 src, const __u8 *f, size_t len)
{
	struct sockaddr_ll sll = { .sll_family = AF_PACKET };

	sll.sll_ifindex = e->ifindex[e->t->nodes[src].first_port];
	sll.sll_halen = ETH_ALEN;
	memcpy(sll.sll_addr, f, ETH_ALEN);
	if (sendto(e->rx[src], f, len, 0, (struct sockaddr *)&sll,
		   sizeof(sll)) != (ssize_t)len)
		return -errno;
	return 0;
}
