// SPDX-License-Identifier: GPL-2.0
/*
 * kbloomctl: mcast sync NAME bridge BR [mode follow|once] [netns NS]
 *
 * The memberships of a switch learned by a Linux bridge: the switch's
 * ports are ports of bridge BR with multicast_snooping on; the bridge
 * snoops IGMP and MLD (the switch passes them to the stack), with its
 * timers, querier, fast leave and router ports, and keeps its multicast
 * database.  This command mirrors that database into the port filters,
 * as memberships of source KBLOOM_MEMBER_BRIDGE (the static ones of
 * mcast join are never touched):
 *
 *   - at start, a full resync: the database dumped (RTM_GETMDB) and the
 *     switch's bridge memberships made equal to it (joins, leaves);
 *   - then, in the foreground, every RTM_NEWMDB / RTM_DELMDB notification
 *     of BR triggers the same resync, and so does a lost notification
 *     (ENOBUFS): a resync after any change is never wrong, whatever was
 *     missed, and an (S,G) entry leaving while its (*,G) stays removes
 *     nothing;
 *   - a router port of the bridge (mcast_router, a querier behind it)
 *     becomes a router port of the switch: every group.
 *
 * Entries of ports that are not ports of the switch (the bridge itself,
 * other bridge ports), layer-2 entries and blocked (S,G) entries are
 * skipped.  Each change is one line on stdout: "+ PORT GROUP",
 * "- PORT GROUP", "+ PORT router".  SIGINT or SIGTERM ends it; the
 * learned memberships stay (a later sync resyncs them).
 */
#include <errno.h>
#include <net/if.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/if_bridge.h>

#include "kbloomctl.h"
#include "libkbloom_mdb.h"
#include "libkbloom_xdp.h"

#define SYNC_POLL_MS	1000

/* A membership of the bridge: port, group (len 0: router port). */
struct want {
	__u32 port;
	__u32 len;
	__u8 addr[16];
};

struct wants {
	struct want *v;
	__u32 n, cap;
	const __u32 *ports;	/* the switch's ports, sorted */
	__u32 nports;
};

struct sync {
	struct ctl *c;
	struct kbloom_xdp *x;
	struct kbloom_mdb *mdb;
	int ns_fd;
	int bridge;
	const char *op;
	__u32 *ports;
	__u32 nports;
	__u64 joins, leaves, errors;
};

static volatile sig_atomic_t sync_stop;

static void sync_signal(int sig)
{
	(void)sig;
	sync_stop = 1;
}

static int want_cmp(const void *a, const void *b)
{
	const struct want *x = a, *y = b;

	if (x->port != y->port)
		return x->port < y->port ? -1 : 1;
	if (x->len != y->len)
		return x->len < y->len ? -1 : 1;
	return memcmp(x->addr, y->addr, sizeof(x->addr));
}

static int u32_cmp(const void *a, const void *b)
{
	__u32 x = *(const __u32 *)a, y = *(const __u32 *)b;

	return (x > y) - (x < y);
}

static int wants_add(struct wants *w, const struct want *e)
{
	struct want *t;

	if (w->n == w->cap) {
		w->cap = w->cap ? w->cap * 2 : 64;
		t = realloc(w->v, w->cap * sizeof(*t));
		if (!t)
			return -ENOMEM;
		w->v = t;
	}
	w->v[w->n++] = *e;
	return 0;
}

/* kbloom_mdb_fn: an entry of the dump that concerns a port of the switch */
static int want_entry(const struct kbloom_mdb_entry *e, int added, void *arg)
{
	struct wants *w = arg;
	struct want k = { .port = e->port };

	if (!added || !bsearch(&e->port, w->ports, w->nports,
			       sizeof(*w->ports), u32_cmp))
		return 0;
	if (e->kind == KBLOOM_MDB_GROUP) {
		if (!e->len || (e->flags & MDB_FLAGS_BLOCKED))
			return 0;
		k.len = e->len;
		memcpy(k.addr, e->addr, sizeof(k.addr));
	}
	return wants_add(w, &k);
}

static void sync_line(struct sync *s, char sign, const struct want *k,
		      int err)
{
	char ifn[IF_NAMESIZE], a[64];

	xdp_port_label(s->ns_fd, k->port, ifn, sizeof(ifn));
	if (k->len)
		xdp_addr_str(k->addr, k->len, a, sizeof(a));
	else
		snprintf(a, sizeof(a), "router");
	if (err)
		fprintf(stderr, "%s: %c %s %s: %s\n", s->op, sign, ifn, a,
			strerror(-err));
	else
		printf("%c %s %s\n", sign, ifn, a);
}

/* Make membership @k of source bridge (@join) or undo it. */
static void sync_apply(struct sync *s, const struct want *k, bool join)
{
	int ret;

	if (!k->len)
		ret = kbloom_mcast_router(s->x, k->port, join,
					  KBLOOM_MEMBER_BRIDGE);
	else if (join)
		ret = kbloom_mcast_join_src(s->x, k->port, k->addr, k->len,
					    KBLOOM_MEMBER_BRIDGE);
	else
		ret = kbloom_mcast_leave_src(s->x, k->port, k->addr, k->len,
					     KBLOOM_MEMBER_BRIDGE);
	if (ret == (join ? -EEXIST : -ENOENT))
		return;	/* done meanwhile */
	if (ret)
		s->errors++;
	else if (join)
		s->joins++;
	else
		s->leaves++;
	sync_line(s, join ? '+' : '-', k, ret);
}

/* The switch's memberships of source bridge, into @have (sorted). */
static int sync_have(struct sync *s, struct wants *have)
{
	struct kbloom_mcast_member *m = NULL;
	struct want k;
	__u32 i;
	int n, j, ret = 0;

	for (i = 0; i < s->nports && !ret; i++) {
		n = kbloom_mcast_members(s->x, s->ports[i], NULL, 0);
		free(m);
		m = n > 0 ? calloc(n, sizeof(*m)) : NULL;
		if (n > 0)
			n = m ? kbloom_mcast_members(s->x, s->ports[i], m, n) :
				-ENOMEM;
		if (n < 0 && n != -ENOENT)
			ret = n;
		for (j = 0; j < n && !ret; j++) {
			if (!(m[j].sources & KBLOOM_MEMBER_BRIDGE))
				continue;
			memset(&k, 0, sizeof(k));
			k.port = s->ports[i];
			k.len = m[j].len;
			memcpy(k.addr, m[j].addr, sizeof(k.addr));
			ret = wants_add(have, &k);
		}
	}
	free(m);
	qsort(have->v, have->n, sizeof(*have->v), want_cmp);
	return ret;
}

/* The switch's ports, sorted. */
static int sync_ports(struct sync *s)
{
	free(s->ports);
	s->ports = NULL;
	s->nports = 0;
	return kbloom_mcast_ports(s->x, &s->ports, &s->nports);
}

/* Make the two sorted lists equal: @want's extra joined, @have's left. */
static void sync_merge(struct sync *s, const struct wants *want,
		       const struct wants *have)
{
	__u32 i = 0, j = 0;
	int d;

	while (i < want->n || j < have->n) {
		if (i < want->n && i && !want_cmp(&want->v[i], &want->v[i - 1])) {
			i++;	/* (*,G) and (S,G) of one port: once */
			continue;
		}
		d = i == want->n ? 1 : j == have->n ? -1 :
		    want_cmp(&want->v[i], &have->v[j]);
		if (d < 0)
			sync_apply(s, &want->v[i++], true);
		else if (d > 0)
			sync_apply(s, &have->v[j++], false);
		else
			i++, j++;
	}
}

/* The full resync: the bridge's database dumped, the switch made equal. */
static int sync_full(struct sync *s)
{
	struct wants want = { 0 }, have = { 0 };
	int ret;

	ret = sync_ports(s);
	if (ret)
		return ret;
	want.ports = s->ports;
	want.nports = s->nports;
	ret = kbloom_mdb_dump(s->mdb, s->bridge, want_entry, &want);
	ret = ret ?: sync_have(s, &have);
	if (!ret) {
		qsort(want.v, want.n, sizeof(*want.v), want_cmp);
		sync_merge(s, &want, &have);
	}
	free(want.v);
	free(have.v);
	return ret;
}

/* kbloom_mdb_fn of the notifications: they only say "resync". */
static int sync_note(const struct kbloom_mdb_entry *e, int added, void *arg)
{
	(void)e;
	(void)added;
	(void)arg;
	return 0;
}

static int sync_loop(struct sync *s)
{
	struct pollfd p = { .fd = kbloom_mdb_fd(s->mdb), .events = POLLIN };
	int ret = 0, n;

	while (!sync_stop) {
		fflush(stdout);
		n = poll(&p, 1, SYNC_POLL_MS);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (!n)
			continue;
		ret = kbloom_mdb_read(s->mdb, s->bridge, sync_note, NULL);
		if (ret == -ENOBUFS)
			printf("notifications lost: full resync\n");
		else if (ret < 0)
			return ret;
		if (ret)
			ret = sync_full(s);
		if (ret)
			return ret;
	}
	return 0;
}

/* ---- the command -------------------------------------------------------------- */

static const char *const mode_words[] = { "follow", "once", NULL };

struct sync_args {
	const char *bridge;
	__u32 once;
};

static const struct kw sync_kw[] = {
	KW("bridge", "BR", KWT_STR, struct sync_args, bridge,
	   .required = true,
	   .help = "the Linux bridge whose multicast database is mirrored"),
	KW("mode", "follow|once", KWT_ENUM, struct sync_args, once,
	   .words = mode_words,
	   .help = "follow (default): resync on every change; once: one resync"),
	{ 0 }
};

static const struct kw_table sync_table = { .kw = sync_kw };

/* In the instance's netns: the bridge's ifindex, the netlink sockets. */
static int sync_bridge(struct sync *s, const char *br)
{
	int saved, ret;
	const char *why;

	ret = xdp_ns_enter(s->ns_fd, &saved);
	if (ret)
		return xdp_fail(s->c, ret, "%s: netns", s->op);
	s->bridge = if_nametoindex(br);
	ret = s->bridge ? kbloom_mdb_open(&s->mdb) : -ENODEV;
	xdp_ns_leave(saved);
	ret = ret ?: kbloom_mdb_bridge(s->mdb, s->bridge);
	if (!ret)
		return 0;
	why = ret == -EMEDIUMTYPE ? "not a Linux bridge (ip link add BR type bridge)" :
	      ret == -ENOPROTOOPT ? "its multicast snooping is off (ip link set BR type bridge mcast_snooping 1)" :
	      NULL;
	return ctl_syserr(s->c, -ret, why, "%s: bridge %s", s->op, br);
}

static int sync_run(struct sync *s, const struct sync_args *a)
{
	struct sigaction sa = { .sa_handler = sync_signal };
	int ret;

	ret = sync_bridge(s, a->bridge);
	if (ret)
		return ret;
	ret = sync_full(s);
	if (ret)
		return xdp_fail(s->c, ret, "%s: resync from bridge %s", s->op,
				a->bridge);
	printf("synced from bridge %s: %llu joined, %llu left\n", a->bridge,
	       (unsigned long long)s->joins, (unsigned long long)s->leaves);
	if (a->once)
		return ctl_flush_stdout(s->c);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	ret = sync_loop(s);
	if (ret)
		return xdp_fail(s->c, ret, "%s: following bridge %s", s->op,
				a->bridge);
	printf("stopped: %llu joined, %llu left, %llu failed\n",
	       (unsigned long long)s->joins, (unsigned long long)s->leaves,
	       (unsigned long long)s->errors);
	return ctl_flush_stdout(s->c);
}

int mcast_cmd_sync(struct ctl *c, int argc, char **argv)
{
	struct sync s = { .c = c, .ns_fd = -1, .op = c->cmd_path };
	struct sync_args a = { 0 };
	const char *netns;
	int ret;

	ret = net_take_netns(c, &argc, argv, &netns);
	ret = ret ?: xdp_arg_name(c, argv[0]);
	ret = ret ?: kw_parse(c, &sync_table, argc - 1, argv + 1, &a, NULL);
	if (ret)
		return ret;
	if (xdp_kind_of(argv[0]) == XK_MCAST)
		ret = xdp_inst_ns(c, argv[0], netns, true, &netns);
	ret = ret ?: xdp_netns_open(c, netns, &s.ns_fd);
	ret = ret ?: xdp_open(c, argv[0], netns, XK_MCAST, &s.x);
	if (!ret)
		ret = sync_run(&s, &a);
	kbloom_mdb_close(s.mdb);
	kbloom_xdp_close(s.x);
	free(s.ports);
	if (s.ns_fd >= 0)
		close(s.ns_fd);
	return ret;
}
