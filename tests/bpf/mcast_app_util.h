/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Real applications on the hosts of an mcast switch (tests of the bpf
 * suite): UDP sockets that join and leave groups the way programs do
 * (IP_ADD_MEMBERSHIP, IPV6_JOIN_GROUP: the kernel then sends the IGMP or
 * MLD report), senders, an ICMPv6 echo (ping -6), and TX checksum offload
 * turned off on veth senders.  Each socket is made inside its host's
 * namespace (tests/bpf/xdp_util.h) and stays there.
 *
 * Datagrams carry a struct kbt_payload, so that kbt_precv() on an
 * AF_PACKET socket counts them too, per group id.
 */
#ifndef KBT_MCAST_APP_UTIL_H
#define KBT_MCAST_APP_UTIL_H

#include <netinet/in.h>
#include <netinet/icmp6.h>
#include <sys/ioctl.h>
#include <linux/ethtool.h>
#include <linux/sockios.h>

#include "tests/bpf/xdp_util.h"

#define KBT_APP_PORT	5000

/*
 * TX checksum offload off on @ifname in @ns.  A veth sender hands its
 * frames over with the UDP checksum still to be filled in
 * (CHECKSUM_PARTIAL); a frame the XDP switch redirects is a bare buffer
 * that loses that state, so it would reach the receiver with a wrong
 * checksum (InCsumErrors) and never reach the socket.  Real NICs fill
 * it in before the wire; veth labs must ask the stack to (ethtool -K
 * IFACE tx off does the same).
 */
static inline int kbt_tx_csum_off(const struct kbt_ns *ns, const char *ifname)
{
	struct ethtool_value ev = { .cmd = ETHTOOL_STXCSUM, .data = 0 };
	struct ifreq ifr = { 0 };
	int saved, fd, ret = -1;

	if (kbt_ns_enter(ns, &saved))
		return -1;
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd >= 0) {
		snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
		ifr.ifr_data = (void *)&ev;
		ret = ioctl(fd, SIOCETHTOOL, &ifr);
		close(fd);
	}
	kbt_ns_leave(saved);
	return ret;
}

/* A socket of @type in @ns (ifindex of eth0 there into *ifindex). */
static inline int kbt_app_socket(const struct kbt_ns *ns, int v6, int type,
				 int proto, int *ifindex)
{
	int saved, fd;

	if (kbt_ns_enter(ns, &saved))
		return -1;
	fd = socket(v6 ? AF_INET6 : AF_INET, type | SOCK_CLOEXEC |
		    SOCK_NONBLOCK, proto);
	*ifindex = if_nametoindex("eth0");
	kbt_ns_leave(saved);
	return fd;
}

/* A receiver of @group (4 or 16 bytes) on @port, joined on eth0. */
static inline int kbt_app_rx(const struct kbt_ns *ns, int v6,
			     const __u8 *group, int port)
{
	struct sockaddr_in6 a6 = { .sin6_family = AF_INET6 };
	struct sockaddr_in a4 = { .sin_family = AF_INET };
	struct ipv6_mreq m6 = { 0 };
	struct ip_mreqn m4 = { 0 };
	int fd, ifindex, one = 1, ret;

	fd = kbt_app_socket(ns, v6, SOCK_DGRAM, 0, &ifindex);
	if (fd < 0)
		return -1;
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (v6) {
		a6.sin6_port = htons(port);
		a6.sin6_scope_id = ifindex;	/* for ff02:: groups */
		memcpy(&a6.sin6_addr, group, 16);
		memcpy(&m6.ipv6mr_multiaddr, group, 16);
		m6.ipv6mr_interface = ifindex;
		ret = bind(fd, (struct sockaddr *)&a6, sizeof(a6)) ||
		      setsockopt(fd, IPPROTO_IPV6, IPV6_JOIN_GROUP, &m6,
				 sizeof(m6));
	} else {
		a4.sin_port = htons(port);
		memcpy(&a4.sin_addr, group, 4);
		memcpy(&m4.imr_multiaddr, group, 4);
		m4.imr_ifindex = ifindex;
		ret = bind(fd, (struct sockaddr *)&a4, sizeof(a4)) ||
		      setsockopt(fd, IPPROTO_IP, IP_ADD_MEMBERSHIP, &m4,
				 sizeof(m4));
	}
	if (ret) {
		close(fd);
		return -1;
	}
	return fd;
}

/* A sender whose multicast leaves through eth0, not looped back. */
static inline int kbt_app_tx(const struct kbt_ns *ns, int v6)
{
	struct ip_mreqn m4 = { 0 };
	int fd, ifindex, zero = 0, ret;

	fd = kbt_app_socket(ns, v6, SOCK_DGRAM, 0, &ifindex);
	if (fd < 0)
		return -1;
	if (v6) {
		ret = setsockopt(fd, IPPROTO_IPV6, IPV6_MULTICAST_IF, &ifindex,
				 sizeof(ifindex)) ||
		      setsockopt(fd, IPPROTO_IPV6, IPV6_MULTICAST_LOOP, &zero,
				 sizeof(zero));
	} else {
		m4.imr_ifindex = ifindex;
		ret = setsockopt(fd, IPPROTO_IP, IP_MULTICAST_IF, &m4,
				 sizeof(m4)) ||
		      setsockopt(fd, IPPROTO_IP, IP_MULTICAST_LOOP, &zero,
				 sizeof(zero));
	}
	if (ret) {
		close(fd);
		return -1;
	}
	return fd;
}

/* One datagram to @group:@port carrying (@id, @seq). */
static inline int kbt_app_send(int fd, int v6, const __u8 *group, int port,
			       __u32 id, __u32 seq)
{
	struct kbt_payload pl = { KBT_MAGIC, id, seq, 0 };
	struct sockaddr_in6 a6 = { .sin6_family = AF_INET6 };
	struct sockaddr_in a4 = { .sin_family = AF_INET };
	ssize_t n;

	if (v6) {
		a6.sin6_port = htons(port);
		memcpy(&a6.sin6_addr, group, 16);
		n = sendto(fd, &pl, sizeof(pl), 0, (struct sockaddr *)&a6,
			   sizeof(a6));
	} else {
		a4.sin_port = htons(port);
		memcpy(&a4.sin_addr, group, 4);
		n = sendto(fd, &pl, sizeof(pl), 0, (struct sockaddr *)&a4,
			   sizeof(a4));
	}
	return n == sizeof(pl) ? 0 : -1;
}

/* Datagrams of id @id waiting on receiver @fd (others are dropped). */
static inline int kbt_app_count(int fd, __u32 id)
{
	struct kbt_payload pl;
	int n = 0;

	while (recv(fd, &pl, sizeof(pl), 0) == sizeof(pl))
		if (pl.magic == KBT_MAGIC && pl.group == id)
			n++;
	return n;
}

/* Frames of id @id waiting on AF_PACKET socket @fd. */
static inline int kbt_cap_count(int fd, __u32 id)
{
	struct kbt_payload pl;
	int n = 0;

	while (kbt_precv(fd, &pl))
		if (pl.group == id)
			n++;
	return n;
}

/*
 * ping -6: ICMPv6 echo requests from @ns to @dst every 200 ms until a
 * reply comes or @timeout seconds pass.  Return: seconds to the reply,
 * or -1.  (A raw ICMPv6 socket: the kernel fills in the checksum.)
 */
static inline double kbt_ping6(const struct kbt_ns *ns, const __u8 *dst,
			       double timeout)
{
	struct sockaddr_in6 to = { .sin6_family = AF_INET6 };
	struct icmp6_hdr rq = { .icmp6_type = ICMP6_ECHO_REQUEST };
	struct icmp6_hdr rp;
	double t0 = kbt_now(), last = 0;
	int fd, ifindex;
	__u16 seq = 0;

	fd = kbt_app_socket(ns, 1, SOCK_RAW, IPPROTO_ICMPV6, &ifindex);
	if (fd < 0)
		return -1;
	memcpy(&to.sin6_addr, dst, 16);
	rq.icmp6_id = htons(0x6b62);
	while (kbt_now() - t0 < timeout) {
		if (kbt_now() - last >= 0.2) {
			rq.icmp6_seq = htons(++seq);
			sendto(fd, &rq, sizeof(rq), 0, (struct sockaddr *)&to,
			       sizeof(to));
			last = kbt_now();
		}
		while (recv(fd, &rp, sizeof(rp), 0) >= (ssize_t)sizeof(rp))
			if (rp.icmp6_type == ICMP6_ECHO_REPLY &&
			    rp.icmp6_id == rq.icmp6_id) {
				close(fd);
				return kbt_now() - t0;
			}
		usleep(5000);
	}
	close(fd);
	return -1;
}

#endif /* KBT_MCAST_APP_UTIL_H */
