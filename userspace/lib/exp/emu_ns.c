// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom_exp: network namespaces and veth pairs for the emulation.
 *
 * A namespace is made by unshare(CLONE_NEWNET) and held by a file
 * descriptor of its /proc/thread-self/ns/net, so that it vanishes with the
 * process; IPv6 is off in it (no DAD, MLD or router solicitations on the
 * links).  A thread enters one with setns() and always returns to its own.
 * A veth pair is one RTM_NEWLINK request sent from the first end's
 * namespace, IFLA_NET_NS_FD placing the peer in the second's; a link is
 * brought up by RTM_NEWLINK with IFF_UP.  Every request waits for its ack.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <net/if.h>
#include <linux/if_ether.h>
#include <linux/if_link.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/veth.h>
#include <sys/socket.h>

#include "emu_int.h"

int emu_ns_enter(int fd, int *saved)
{
	*saved = open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC);
	if (*saved < 0)
		return -errno;
	if (setns(fd, CLONE_NEWNET)) {
		int err = -errno;

		close(*saved);
		*saved = -1;
		return err;
	}
	return 0;
}

void emu_ns_leave(int saved)
{
	if (saved < 0)
		return;
	if (setns(saved, CLONE_NEWNET))
		abort();	/* the thread would stay in a test namespace */
	close(saved);
}

static int write_str(const char *path, const char *v)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC), err = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, v, strlen(v)) != (ssize_t)strlen(v))
		err = -EIO;
	close(fd);
	return err;
}

/* A new network namespace without IPv6 (no DAD, MLD or RS noise). */
int emu_ns_new(int *fdp)
{
	int self, fd, saved, err = 0;

	self = open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC);
	if (self < 0)
		return -errno;
	if (unshare(CLONE_NEWNET)) {
		err = -errno;
		close(self);
		return err;
	}
	fd = open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		err = -errno;
	if (setns(self, CLONE_NEWNET))
		abort();
	close(self);
	if (err)
		return err;
	if (!emu_ns_enter(fd, &saved)) {
		write_str("/proc/sys/net/ipv6/conf/default/disable_ipv6", "1");
		write_str("/proc/sys/net/ipv6/conf/all/disable_ipv6", "1");
		emu_ns_leave(saved);
	}
	*fdp = fd;
	return 0;
}

struct nl_req {
	struct nlmsghdr h;
	struct ifinfomsg i;
	char buf[512];
};

static struct rtattr *nl_add(struct nl_req *q, int type, const void *data,
			     size_t len)
{
	struct nlmsghdr *h = &q->h;
	struct rtattr *a;

	if (NLMSG_ALIGN(h->nlmsg_len) + RTA_SPACE(len) > sizeof(*q))
		return NULL;
	a = (struct rtattr *)((char *)q + NLMSG_ALIGN(h->nlmsg_len));
	a->rta_type = type;
	a->rta_len = RTA_LENGTH(len);
	if (len)
		memcpy(RTA_DATA(a), data, len);
	h->nlmsg_len = NLMSG_ALIGN(h->nlmsg_len) + RTA_SPACE(len);
	return a;
}

static void nl_end(struct nl_req *q, struct rtattr *a)
{
	a->rta_len = (char *)q + q->h.nlmsg_len - (char *)a;
}

/* Send @h on a fresh rtnetlink socket of the calling thread's ns; ack. */
static int nl_talk(struct nlmsghdr *h)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	char buf[4096];
	struct nlmsghdr *r;
	struct nlmsgerr *e;
	int fd, err = -EIO;
	ssize_t n;

	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
	if (fd < 0)
		return -errno;
	h->nlmsg_flags |= NLM_F_REQUEST | NLM_F_ACK;
	h->nlmsg_seq = 1;
	if (sendto(fd, h, h->nlmsg_len, 0, (struct sockaddr *)&sa,
		   sizeof(sa)) < 0) {
		err = -errno;
		goto out;
	}
	n = recv(fd, buf, sizeof(buf), 0);
	if (n < 0) {
		err = -errno;
		goto out;
	}
	r = (struct nlmsghdr *)buf;
	if (NLMSG_OK(r, (size_t)n) && r->nlmsg_type == NLMSG_ERROR) {
		e = NLMSG_DATA(r);
		err = e->error;
	}
out:
	close(fd);
	return err;
}

/* A veth pair: @a (MAC @ma) in ns @nsa, its peer @b (MAC @mb) in ns @nsb. */
int emu_nl_veth(int nsa, const char *a, const __u8 *ma, int nsb,
		   const char *b, const __u8 *mb)
{
	struct nl_req q = { 0 };
	struct rtattr *li, *data, *peer;
	struct ifinfomsg pi = { .ifi_family = AF_UNSPEC };
	int saved, err;
	__u32 fd = nsb;

	q.h.nlmsg_len = NLMSG_LENGTH(sizeof(q.i));
	q.h.nlmsg_type = RTM_NEWLINK;
	q.h.nlmsg_flags = NLM_F_CREATE | NLM_F_EXCL;
	q.i.ifi_family = AF_UNSPEC;
	nl_add(&q, IFLA_IFNAME, a, strlen(a) + 1);
	nl_add(&q, IFLA_ADDRESS, ma, ETH_ALEN);
	li = nl_add(&q, IFLA_LINKINFO, NULL, 0);
	nl_add(&q, IFLA_INFO_KIND, "veth", 5);
	data = nl_add(&q, IFLA_INFO_DATA, NULL, 0);
	peer = nl_add(&q, VETH_INFO_PEER, &pi, sizeof(pi));
	nl_add(&q, IFLA_IFNAME, b, strlen(b) + 1);
	nl_add(&q, IFLA_ADDRESS, mb, ETH_ALEN);
	if (!nl_add(&q, IFLA_NET_NS_FD, &fd, sizeof(fd)))
		return -E2BIG;
	nl_end(&q, peer);
	nl_end(&q, data);
	nl_end(&q, li);
	err = emu_ns_enter(nsa, &saved);
	if (err)
		return err;
	err = nl_talk(&q.h);
	emu_ns_leave(saved);
	return err;
}

/* Bring @ifindex up in ns @ns. */
int emu_nl_up(int ns, int ifindex)
{
	struct nl_req q = { 0 };
	int saved, err;

	q.h.nlmsg_len = NLMSG_LENGTH(sizeof(q.i));
	q.h.nlmsg_type = RTM_NEWLINK;
	q.i.ifi_family = AF_UNSPEC;
	q.i.ifi_index = ifindex;
	q.i.ifi_flags = IFF_UP;
	q.i.ifi_change = IFF_UP;
	err = emu_ns_enter(ns, &saved);
	if (err)
		return err;
	err = nl_talk(&q.h);
	emu_ns_leave(saved);
	return err;
}

int emu_if_index_in(int ns, const char *name)
{
	int saved, idx;

	if (emu_ns_enter(ns, &saved))
		return 0;
	idx = (int)if_nametoindex(name);
	emu_ns_leave(saved);
	return idx;
}
