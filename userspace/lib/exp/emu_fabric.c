// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom_exp: the experiment's topology as namespaces and veth links.
 *
 * One namespace per node (switch or host), one veth pair per link: port p
 * of a switch is the interface "p<local port>", a host's link "eth0", and
 * global port p has the MAC 02:6b:P3:P2:P1:P0 (its number, big-endian,
 * behind a locally administered prefix).  Every host has an AF_PACKET
 * socket on its link, non-blocking with a 4 MiB buffer, through which it
 * sends and on which it receives.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <net/if.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <sys/socket.h>

#include "emu_int.h"

static void port_name(const struct kb_topo *t, __u32 port, char *buf,
		      size_t len)
{
	const struct kb_port *p = &t->ports[port];

	if (t->nodes[p->node].kind == KB_NODE_HOST)
		snprintf(buf, len, "eth0");
	else
		snprintf(buf, len, "p%u", p->local);
}

void emu_port_mac(__u32 port, __u8 mac[6])
{
	mac[0] = 0x02;
	mac[1] = 0x6b;		/* 'k' */
	mac[2] = (__u8)(port >> 24);
	mac[3] = (__u8)(port >> 16);
	mac[4] = (__u8)(port >> 8);
	mac[5] = (__u8)port;
}

static int host_socket(struct emu *e, __u32 node)
{
	struct sockaddr_ll sll = { .sll_family = AF_PACKET };
	int saved, fd, sz = 4 << 20, err;

	err = emu_ns_enter(e->nsfd[node], &saved);
	if (err)
		return err;
	fd = socket(AF_PACKET, SOCK_RAW | SOCK_NONBLOCK | SOCK_CLOEXEC,
		    htons(ETH_P_ALL));
	if (fd >= 0) {
		sll.sll_protocol = htons(ETH_P_ALL);
		sll.sll_ifindex = e->ifindex[e->t->nodes[node].first_port];
		setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &sz, sizeof(sz));
		if (bind(fd, (struct sockaddr *)&sll, sizeof(sll))) {
			err = -errno;
			close(fd);
			fd = err;
		}
	} else {
		fd = -errno;
	}
	emu_ns_leave(saved);
	if (fd >= 0)
		e->rx[node] = fd;
	return fd < 0 ? fd : 0;
}

int emu_fabric_up(struct emu *e)
{
	const struct kb_topo *t = e->t;
	char na[IFNAMSIZ], nb[IFNAMSIZ];
	__u8 ma[6], mb[6];
	__u32 n, p, q;
	int err;

	for (n = 0; n < t->nnodes; n++) {
		err = emu_ns_new(&e->nsfd[n]);
		if (err)
			return kb_exp_set_error(e->x, err,
						"network namespace: %s",
						strerror(-err));
		snprintf(e->nspath[n], sizeof(e->nspath[n]), "/proc/%d/fd/%d",
			 (int)getpid(), e->nsfd[n]);
	}
	for (p = 0; p < t->nports; p++) {
		q = t->ports[p].peer;
		if (q < p)
			continue;
		port_name(t, p, na, sizeof(na));
		port_name(t, q, nb, sizeof(nb));
		emu_port_mac(p, ma);
		emu_port_mac(q, mb);
		err = emu_nl_veth(e->nsfd[t->ports[p].node], na, ma,
			      e->nsfd[t->ports[q].node], nb, mb);
		if (err)
			return kb_exp_set_error(e->x, err, "veth %s-%s: %s",
						na, nb, strerror(-err));
	}
	for (p = 0; p < t->nports; p++) {
		port_name(t, p, na, sizeof(na));
		e->ifindex[p] = emu_if_index_in(e->nsfd[t->ports[p].node], na);
		if (e->ifindex[p] <= 0)
			return kb_exp_set_error(e->x, -ENODEV, "veth %s: gone", na);
		err = emu_nl_up(e->nsfd[t->ports[p].node], e->ifindex[p]);
		if (err)
			return kb_exp_set_error(e->x, err, "link up %s: %s", na,
						strerror(-err));
	}
	for (n = 0; n < t->nnodes; n++) {
		if (t->nodes[n].kind != KB_NODE_HOST)
			continue;
		err = host_socket(e, n);
		if (err)
			return kb_exp_set_error(e->x, err, "packet socket: %s",
						strerror(-err));
	}
	return 0;
}

void emu_fabric_down(struct emu *e)
{
	__u32 n;

	for (n = 0; e->nsfd && n < e->t->nnodes; n++) {
		if (e->rx && e->rx[n] > 0)
			close(e->rx[n]);
		if (e->nsfd[n] > 0)
			close(e->nsfd[n]);
	}
	rmdir(e->root);
}
