/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * libkbloom mdb: a Linux bridge's multicast database over rtnetlink, read
 * whole (RTM_GETMDB dump) and followed (RTM_NEWMDB / RTM_DELMDB
 * notifications of RTNLGRP_MDB), as `bridge mdb show` and `bridge monitor
 * mdb` do.  The bridge keeps it with its own IGMP/MLD snooping (timers,
 * querier, fast leave, router ports); this family only reads it.
 *
 *	struct kbloom_mdb *m;
 *	kbloom_mdb_open(&m);                    (subscribes first ...)
 *	kbloom_mdb_dump(m, br, fn, arg);        (... then reads it whole)
 *	poll(kbloom_mdb_fd(m));
 *	ret = kbloom_mdb_read(m, br, fn, arg);  (-ENOBUFS: notifications
 *	kbloom_mdb_close(m);                     lost, dump again)
 *
 * Sockets are opened in the network namespace of the calling thread.
 */
#ifndef _LIBKBLOOM_MDB_H
#define _LIBKBLOOM_MDB_H

#include <linux/types.h>

enum kbloom_mdb_kind {
	KBLOOM_MDB_GROUP = 0,	/* a port's membership of a group */
	KBLOOM_MDB_ROUTER = 1,	/* a multicast router port */
};

/**
 * struct kbloom_mdb_entry - one entry of a bridge's multicast database
 * @kind: enum kbloom_mdb_kind
 * @bridge: ifindex of the bridge
 * @port: ifindex of the port (the bridge itself for the host's own
 *        memberships)
 * @len: KBLOOM_MDB_GROUP: 4 (IPv4) or 16 (IPv6); 0 for a layer-2 entry
 *       (a MAC address group), which @addr does not hold
 * @addr: the group, network order, zero padded
 * @vid: VLAN id, 0 for none
 * @state: MDB_TEMPORARY (learned) or MDB_PERMANENT (configured)
 * @flags: MDB_FLAGS_* (MDB_FLAGS_BLOCKED: the port takes no traffic of
 *         the entry's source)
 * @source: 1 for an (S,G) entry of IGMPv3/MLDv2, 0 for (*,G)
 */
struct kbloom_mdb_entry {
	__u32 kind;
	__u32 bridge;
	__u32 port;
	__u32 len;
	__u8 addr[16];
	__u16 vid;
	__u8 state;
	__u8 flags;
	__u32 source;
};

/* Called per entry, @added 0 for RTM_DELMDB; a negative return stops. */
typedef int (*kbloom_mdb_fn)(const struct kbloom_mdb_entry *e, int added,
			     void *arg);

struct kbloom_mdb;

/* Open the sockets and subscribe to RTNLGRP_MDB. */
int kbloom_mdb_open(struct kbloom_mdb **mp);
void kbloom_mdb_close(struct kbloom_mdb *m);

/*
 * Whether interface @ifindex is a bridge that snoops: 0; -EMEDIUMTYPE for
 * an interface that is not a bridge, -ENOPROTOOPT for a bridge with
 * mcast_snooping off, -ENODEV for none.
 */
int kbloom_mdb_bridge(struct kbloom_mdb *m, int ifindex);

/* The notification socket, for poll() (POLLIN). */
int kbloom_mdb_fd(const struct kbloom_mdb *m);

/*
 * Every entry of bridge @bridge (0: of every bridge) to @fn, added 1,
 * router ports included.  Return: 0, @fn's negative return, or -errno.
 */
int kbloom_mdb_dump(struct kbloom_mdb *m, int bridge, kbloom_mdb_fn fn,
		    void *arg);

/*
 * The notifications waiting, of bridge @bridge (0: every bridge), to @fn,
 * without blocking.  Return: how many entries went to @fn (0: none were
 * waiting), @fn's negative return, -ENOBUFS when the kernel dropped
 * notifications (the socket overran: dump again), or another -errno.
 */
int kbloom_mdb_read(struct kbloom_mdb *m, int bridge, kbloom_mdb_fn fn,
		    void *arg);

#endif /* _LIBKBLOOM_MDB_H */
