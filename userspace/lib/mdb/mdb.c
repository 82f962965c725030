// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom mdb: a bridge's multicast database over raw rtnetlink.
 *
 * Two sockets: one subscribed to RTNLGRP_MDB for the notifications, one
 * for the dumps, so that a dump never swallows a notification; the
 * caller subscribes (kbloom_mdb_open()) before it dumps, so that a change
 * made during the dump is read afterwards.
 *
 * A message (RTM_NEWMDB, RTM_DELMDB; RTM_GETMDB in a dump) is struct
 * br_port_msg (the bridge) and attributes (linux/if_bridge.h):
 *
 *   MDBA_MDB { MDBA_MDB_ENTRY { MDBA_MDB_ENTRY_INFO: struct br_mdb_entry
 *                               [MDBA_MDB_EATTR_*] ... } ... }
 *   MDBA_ROUTER { MDBA_ROUTER_PORT: u32 ifindex [MDBA_ROUTER_PATTR_*] ... }
 *
 * Every length is checked against its container before it is read.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <linux/if_bridge.h>
#include <linux/if_ether.h>
#include <linux/if_link.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>

#include "libkbloom_mdb.h"

#define MDB_RCVBUF	(1 << 20)
#define MDB_BUF		(64 * 1024)

struct kbloom_mdb {
	int mon;		/* RTNLGRP_MDB notifications */
	int req;		/* dumps */
	__u32 seq;
	char buf[MDB_BUF];
};

struct mdb_walk {
	__u32 seq;		/* of a dump; 0: notifications */
	int bridge;
	kbloom_mdb_fn fn;
	void *arg;
	int count;
};

static int mdb_socket(int *fd)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	int size = MDB_RCVBUF;

	*fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
	if (*fd < 0)
		return -errno;
	setsockopt(*fd, SOL_SOCKET, SO_RCVBUF, &size, sizeof(size));
	if (bind(*fd, (struct sockaddr *)&sa, sizeof(sa)))
		return -errno;
	return 0;
}

int kbloom_mdb_open(struct kbloom_mdb **mp)
{
	struct kbloom_mdb *m;
	int grp = RTNLGRP_MDB;
	int ret;

	m = calloc(1, sizeof(*m));
	if (!m)
		return -ENOMEM;
	m->mon = -1;
	m->req = -1;
	ret = mdb_socket(&m->mon);
	ret = ret ?: mdb_socket(&m->req);
	if (!ret && setsockopt(m->mon, SOL_NETLINK, NETLINK_ADD_MEMBERSHIP,
			       &grp, sizeof(grp)))
		ret = -errno;
	if (ret) {
		kbloom_mdb_close(m);
		return ret;
	}
	*mp = m;
	return 0;
}

void kbloom_mdb_close(struct kbloom_mdb *m)
{
	if (!m)
		return;
	if (m->mon >= 0)
		close(m->mon);
	if (m->req >= 0)
		close(m->req);
	free(m);
}

int kbloom_mdb_fd(const struct kbloom_mdb *m)
{
	return m ? m->mon : -EINVAL;
}

/* ---- parsing ---------------------------------------------------------------- */

/* The attribute at @p within @end, or NULL when none fits. */
static const struct nlattr *mdb_attr(const void *p, const void *end)
{
	const struct nlattr *a = p;

	if ((const char *)end - (const char *)p < (long)sizeof(*a))
		return NULL;
	if (a->nla_len < sizeof(*a) ||
	    a->nla_len > (const char *)end - (const char *)p)
		return NULL;
	return a;
}

#define mdb_for_each(a, start, end)					\
	for (a = mdb_attr(start, end); a;				\
	     a = mdb_attr((const char *)a + NLA_ALIGN(a->nla_len), end))

static const void *nla_payload(const struct nlattr *a)
{
	return (const char *)a + NLA_HDRLEN;
}

static const void *nla_end(const struct nlattr *a)
{
	return (const char *)a + a->nla_len;
}

/* Whether an entry's extra attributes name a source: (S,G). */
static __u32 mdb_has_source(const void *p, const void *end)
{
	const struct nlattr *a;

	mdb_for_each(a, p, end)
		if ((a->nla_type & NLA_TYPE_MASK) == MDBA_MDB_EATTR_SOURCE)
			return 1;
	return 0;
}

static int mdb_group(const struct nlattr *info, int added, int bridge,
		     struct mdb_walk *w)
{
	const struct br_mdb_entry *be = nla_payload(info);
	struct kbloom_mdb_entry e = { .kind = KBLOOM_MDB_GROUP };
	const char *rest = (const char *)be + NLA_ALIGN(sizeof(*be));
	int ret;

	if (info->nla_len < NLA_HDRLEN + sizeof(*be))
		return 0;	/* shorter than the struct: skipped */
	e.bridge = bridge;
	e.port = be->ifindex;
	e.vid = be->vid;
	e.state = be->state;
	e.flags = be->flags;
	if (be->addr.proto == htons(ETH_P_IP)) {
		e.len = 4;
		memcpy(e.addr, &be->addr.u.ip4, 4);
	} else if (be->addr.proto == htons(ETH_P_IPV6)) {
		e.len = 16;
		memcpy(e.addr, &be->addr.u.ip6, 16);
	}
	if (rest < (const char *)nla_end(info))
		e.source = mdb_has_source(rest, nla_end(info));
	w->count++;
	ret = w->fn(&e, added, w->arg);
	return ret < 0 ? ret : 0;
}

static int mdb_groups(const struct nlattr *mdb, int added, int bridge,
		      struct mdb_walk *w)
{
	const struct nlattr *ent, *info;
	int ret;

	mdb_for_each(ent, nla_payload(mdb), nla_end(mdb)) {
		if ((ent->nla_type & NLA_TYPE_MASK) != MDBA_MDB_ENTRY)
			continue;
		mdb_for_each(info, nla_payload(ent), nla_end(ent)) {
			if ((info->nla_type & NLA_TYPE_MASK) !=
			    MDBA_MDB_ENTRY_INFO)
				continue;
			ret = mdb_group(info, added, bridge, w);
			if (ret)
				return ret;
		}
	}
	return 0;
}

static int mdb_routers(const struct nlattr *rtr, int added, int bridge,
		       struct mdb_walk *w)
{
	struct kbloom_mdb_entry e = { .kind = KBLOOM_MDB_ROUTER };
	const struct nlattr *a;
	int ret;

	e.bridge = bridge;
	mdb_for_each(a, nla_payload(rtr), nla_end(rtr)) {
		if ((a->nla_type & NLA_TYPE_MASK) != MDBA_ROUTER_PORT ||
		    a->nla_len < NLA_HDRLEN + sizeof(__u32))
			continue;
		memcpy(&e.port, nla_payload(a), sizeof(__u32));
		w->count++;
		ret = w->fn(&e, added, w->arg);
		if (ret < 0)
			return ret;
	}
	return 0;
}

/* One RTM_NEWMDB / RTM_DELMDB message. */
static int mdb_msg(const struct nlmsghdr *nh, struct mdb_walk *w)
{
	const struct br_port_msg *bpm = NLMSG_DATA(nh);
	const char *end = (const char *)nh + nh->nlmsg_len;
	int added = nh->nlmsg_type != RTM_DELMDB;
	const struct nlattr *a;
	int ret = 0;

	/* a dump answers with RTM_GETMDB messages, notifications are NEW/DEL */
	if (nh->nlmsg_type != RTM_NEWMDB && nh->nlmsg_type != RTM_DELMDB &&
	    nh->nlmsg_type != RTM_GETMDB)
		return 0;
	if (nh->nlmsg_len < NLMSG_LENGTH(sizeof(*bpm)))
		return 0;
	if (w->bridge && bpm->ifindex != (__u32)w->bridge)
		return 0;
	mdb_for_each(a, (const char *)bpm + NLMSG_ALIGN(sizeof(*bpm)), end) {
		if ((a->nla_type & NLA_TYPE_MASK) == MDBA_MDB)
			ret = mdb_groups(a, added, bpm->ifindex, w);
		else if ((a->nla_type & NLA_TYPE_MASK) == MDBA_ROUTER)
			ret = mdb_routers(a, added, bpm->ifindex, w);
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * The messages of one datagram of @len bytes: 0 to go on, 1 at the end
 * of a dump, @fn's return, or -errno of an NLMSG_ERROR.
 */
static int mdb_datagram(const char *buf, int len, struct mdb_walk *w)
{
	const struct nlmsghdr *nh;
	const struct nlmsgerr *err;
	int ret;

	for (nh = (const struct nlmsghdr *)buf; NLMSG_OK(nh, len);
	     nh = NLMSG_NEXT(nh, len)) {
		if (w->seq && nh->nlmsg_seq != w->seq)
			continue;	/* of an earlier dump, cut short */
		if (nh->nlmsg_type == NLMSG_DONE)
			return 1;
		if (nh->nlmsg_type == NLMSG_ERROR) {
			err = NLMSG_DATA(nh);
			if (nh->nlmsg_len < NLMSG_LENGTH(sizeof(*err)))
				return -EPROTO;
			return err->error ? err->error : 1;
		}
		ret = mdb_msg(nh, w);
		if (ret)
			return ret;
	}
	return 0;
}

/* ---- dump, notifications ---------------------------------------------------- */

/* One datagram into m->buf: its length (0: none waiting), or -errno. */
static int mdb_recv(struct kbloom_mdb *m, int fd, int flags)
{
	int len;

	do
		len = recv(fd, m->buf, sizeof(m->buf), flags);
	while (len < 0 && errno == EINTR);
	if (len < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
		return 0;
	if (len < 0)
		return -errno;
	return len ? len : -EPROTO;
}

static int mdb_dump_request(struct kbloom_mdb *m)
{
	struct {
		struct nlmsghdr nh;
		struct br_port_msg bpm;
	} rq = {
		.nh = {
			.nlmsg_len = NLMSG_LENGTH(sizeof(struct br_port_msg)),
			.nlmsg_type = RTM_GETMDB,
			.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP,
			.nlmsg_seq = ++m->seq,
		},
		.bpm = { .family = AF_BRIDGE },
	};
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };

	if (sendto(m->req, &rq, rq.nh.nlmsg_len, 0, (struct sockaddr *)&sa,
		   sizeof(sa)) < 0)
		return -errno;
	return 0;
}

int kbloom_mdb_dump(struct kbloom_mdb *m, int bridge, kbloom_mdb_fn fn,
		    void *arg)
{
	struct mdb_walk w = { .bridge = bridge, .fn = fn, .arg = arg };
	int len, ret;

	if (!m || !fn || bridge < 0)
		return -EINVAL;
	ret = mdb_dump_request(m);
	w.seq = m->seq;
	while (!ret) {
		len = mdb_recv(m, m->req, 0);
		if (len <= 0)
			return len ?: -EPROTO;
		ret = mdb_datagram(m->buf, len, &w);
	}
	return ret == 1 ? 0 : ret;
}

int kbloom_mdb_read(struct kbloom_mdb *m, int bridge, kbloom_mdb_fn fn,
		    void *arg)
{
	struct mdb_walk w = { .bridge = bridge, .fn = fn, .arg = arg };
	int len, ret;

	if (!m || !fn || bridge < 0)
		return -EINVAL;
	for (;;) {
		len = mdb_recv(m, m->mon, MSG_DONTWAIT);
		if (!len)
			return w.count;
		if (len < 0)
			return len;	/* -ENOBUFS: notifications lost */
		ret = mdb_datagram(m->buf, len, &w);
		if (ret < 0)
			return ret;
	}
}

/* ---- the bridge itself --------------------------------------------------- */

/* The attribute @type directly inside [@p, @end), or NULL. */
static const struct nlattr *mdb_find(const void *p, const void *end, int type)
{
	const struct nlattr *a;

	mdb_for_each(a, p, end)
		if ((a->nla_type & NLA_TYPE_MASK) == type)
			return a;
	return NULL;
}

/* IFLA_LINKINFO of an RTM_NEWLINK: 0, -EMEDIUMTYPE or -ENOPROTOOPT. */
static int mdb_link_snooping(const struct nlmsghdr *nh)
{
	const struct ifinfomsg *ifi = NLMSG_DATA(nh);
	const char *end = (const char *)nh + nh->nlmsg_len;
	const struct nlattr *li, *kind, *data, *snoop;

	if (nh->nlmsg_len < NLMSG_LENGTH(sizeof(*ifi)))
		return -EPROTO;
	li = mdb_find((const char *)ifi + NLMSG_ALIGN(sizeof(*ifi)), end,
		      IFLA_LINKINFO);
	kind = li ? mdb_find(nla_payload(li), nla_end(li), IFLA_INFO_KIND) :
		    NULL;
	if (!kind || kind->nla_len < NLA_HDRLEN + sizeof("bridge") ||
	    memcmp(nla_payload(kind), "bridge", sizeof("bridge")))
		return -EMEDIUMTYPE;
	data = mdb_find(nla_payload(li), nla_end(li), IFLA_INFO_DATA);
	snoop = data ? mdb_find(nla_payload(data), nla_end(data),
				IFLA_BR_MCAST_SNOOPING) : NULL;
	if (!snoop || snoop->nla_len < NLA_HDRLEN + 1)
		return -EPROTO;
	return *(const __u8 *)nla_payload(snoop) ? 0 : -ENOPROTOOPT;
}

int kbloom_mdb_bridge(struct kbloom_mdb *m, int ifindex)
{
	struct {
		struct nlmsghdr nh;
		struct ifinfomsg ifi;
	} rq = {
		.nh = {
			.nlmsg_len = NLMSG_LENGTH(sizeof(struct ifinfomsg)),
			.nlmsg_type = RTM_GETLINK,
			.nlmsg_flags = NLM_F_REQUEST,
		},
		.ifi = { .ifi_family = AF_UNSPEC, .ifi_index = ifindex },
	};
	const struct nlmsghdr *nh;
	const struct nlmsgerr *err;
	int len;

	if (!m || ifindex <= 0)
		return -EINVAL;
	rq.nh.nlmsg_seq = ++m->seq;
	if (send(m->req, &rq, rq.nh.nlmsg_len, 0) < 0)
		return -errno;
	for (;;) {
		len = mdb_recv(m, m->req, 0);
		if (len <= 0)
			return len ?: -EPROTO;
		for (nh = (const struct nlmsghdr *)m->buf; NLMSG_OK(nh, len);
		     nh = NLMSG_NEXT(nh, len)) {
			if (nh->nlmsg_seq != m->seq)
				continue;
			if (nh->nlmsg_type == RTM_NEWLINK)
				return mdb_link_snooping(nh);
			err = NLMSG_DATA(nh);
			if (nh->nlmsg_type == NLMSG_ERROR &&
			    nh->nlmsg_len >= NLMSG_LENGTH(sizeof(*err)))
				return err->error ? err->error : -EPROTO;
		}
	}
}
