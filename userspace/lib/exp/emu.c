// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom_exp: the emulation.  The experiment's topology becomes network
 * namespaces (one per switch and per host, held by file descriptors, so
 * they vanish with the process) joined by veth pairs (created over
 * rtnetlink: a switch's local port p is "p<p>", a host's link "eth0"),
 * and each scheme's XDP data path is loaded on it from the state the
 * model computed:
 *
 *   blocked    the mcast path (libkbloom_xdp.h): per switch an instance,
 *              per port a blocked filter of the port's geometry (m, k,
 *              seed) joined to the port's groups; hosts run XDP_PASS;
 *   mcbf       the mcbf path (libkbloom_xdp_net.h): per port the MC-BF of
 *              the port's class table, built from its groups;
 *   lipsin1,   the ipbf path: per node (hosts too) an instance with the
 *   lipsin8,   link IDs of the control plane; the source applies its own
 *   msbf       forwarding step (kbloom_ipbf_source_step()) and sends;
 *   exact      no data path holds exact tables: the mcast path with 2^20-bit
 *              filters stands for them (the model side is the exact
 *              tables: any false positive of those filters shows up as a
 *              disagreement);
 *   standard   no data path holds standard per-port filters: not emulated.
 *
 * Each packet of the model is then sent from its source host through an
 * AF_PACKET socket, one at a time: when the counters of every switch port
 * have stopped moving, the per-port transmissions of that packet
 * (tx_forwarded deltas) and the hosts that received it (the packet
 * sockets of the hosts) are compared with the model's trace of the same
 * packet, and its leaked transmissions (on ports outside its tree, the
 * tree of the control plane) are counted on both sides.  A packet the
 * model says loops forever (a cycle of false positives on a path with no
 * hop limit) is not sent.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <net/if.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <linux/if_ether.h>
#include <linux/if_link.h>
#include <linux/if_packet.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/veth.h>
#include <sys/socket.h>
#include <sys/stat.h>

#include "libkbloom_exp.h"
#include "libkbloom_xdp.h"
#include "libkbloom_xdp_net.h"

#define EMU_SW_MAX	64U
#define EMU_PORTS_MAX	60U
#define EMU_HOSTS_MAX	256U
#define EMU_EXACT_BITS	(1ULL << 20)
#define EMU_MAGIC	0x4b424558U	/* "KBEX" */
#define EMU_FRAME_MAX	1514U
#define EMU_SETTLE_US	300
#define EMU_WAIT_S	2.0

enum emu_path {
	PATH_NONE = 0,
	PATH_MCAST,
	PATH_MCBF,
	PATH_IPBF,
};

struct emu_payload {
	__u32 magic;
	__u16 scheme;
	__u16 index;
	__u32 group;
	__u32 seq;
};

struct emu {
	struct kb_exp *x;
	const struct kb_topo *t;
	const struct kb_exp_emu_opts *o;
	char root[96];			/* pin root of this run */
	int *nsfd;			/* per node */
	char (*nspath)[48];
	int *ifindex;			/* per global port, in its node's ns */
	int *rx;			/* per node (hosts): AF_PACKET socket */
	int *pass;			/* per node (hosts): XDP_PASS link fd */
	enum emu_path path;
	struct kbloom_xdp **mx;		/* per node: mcast instances */
	struct kbloom_net **nx;		/* per node: mcbf, ipbf instances */
	__u64 *before;			/* per port: counters */
	__u64 *after;
	__u64 *leak_before;
	__u64 *leak_after;
	__u32 *model_cnt;		/* per port: this packet, the model */
	__u32 *host_model;		/* per node: arrivals, the model */
	__u32 *host_emu;
	__u32 seq;
	__u32 members;			/* sum of the ports' groups */
	FILE *log;
};

__attribute__((format(printf, 2, 3)))
static void emu_log(struct emu *e, const char *fmt, ...)
{
	va_list ap;

	if (!e->log)
		return;
	va_start(ap, fmt);
	fprintf(e->log, "# ");
	vfprintf(e->log, fmt, ap);
	fputc('\n', e->log);
	va_end(ap);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* ---- namespaces -------------------------------------------------------------- */

static int ns_enter(int fd, int *saved)
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

static void ns_leave(int saved)
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
static int ns_new(int *fdp)
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
	if (!ns_enter(fd, &saved)) {
		write_str("/proc/sys/net/ipv6/conf/default/disable_ipv6", "1");
		write_str("/proc/sys/net/ipv6/conf/all/disable_ipv6", "1");
		ns_leave(saved);
	}
	*fdp = fd;
	return 0;
}

/* ---- rtnetlink ----------------------------------------------------------------- */

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
static int nl_veth(int nsa, const char *a, const __u8 *ma, int nsb,
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
	err = ns_enter(nsa, &saved);
	if (err)
		return err;
	err = nl_talk(&q.h);
	ns_leave(saved);
	return err;
}

/* Bring @ifindex up in ns @ns. */
static int nl_up(int ns, int ifindex)
{
	struct nl_req q = { 0 };
	int saved, err;

	q.h.nlmsg_len = NLMSG_LENGTH(sizeof(q.i));
	q.h.nlmsg_type = RTM_NEWLINK;
	q.i.ifi_family = AF_UNSPEC;
	q.i.ifi_index = ifindex;
	q.i.ifi_flags = IFF_UP;
	q.i.ifi_change = IFF_UP;
	err = ns_enter(ns, &saved);
	if (err)
		return err;
	err = nl_talk(&q.h);
	ns_leave(saved);
	return err;
}

static int if_index_in(int ns, const char *name)
{
	int saved, idx;

	if (ns_enter(ns, &saved))
		return 0;
	idx = (int)if_nametoindex(name);
	ns_leave(saved);
	return idx;
}

/* ---- the fabric ---------------------------------------------------------------- */

static void port_name(const struct kb_topo *t, __u32 port, char *buf,
		      size_t len)
{
	const struct kb_port *p = &t->ports[port];

	if (t->nodes[p->node].kind == KB_NODE_HOST)
		snprintf(buf, len, "eth0");
	else
		snprintf(buf, len, "p%u", p->local);
}

static void port_mac(__u32 port, __u8 mac[6])
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

	err = ns_enter(e->nsfd[node], &saved);
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
	ns_leave(saved);
	if (fd >= 0)
		e->rx[node] = fd;
	return fd < 0 ? fd : 0;
}

static int fabric_up(struct emu *e)
{
	const struct kb_topo *t = e->t;
	char na[IFNAMSIZ], nb[IFNAMSIZ];
	__u8 ma[6], mb[6];
	__u32 n, p, q;
	int err;

	for (n = 0; n < t->nnodes; n++) {
		err = ns_new(&e->nsfd[n]);
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
		port_mac(p, ma);
		port_mac(q, mb);
		err = nl_veth(e->nsfd[t->ports[p].node], na, ma,
			      e->nsfd[t->ports[q].node], nb, mb);
		if (err)
			return kb_exp_set_error(e->x, err, "veth %s-%s: %s",
						na, nb, strerror(-err));
	}
	for (p = 0; p < t->nports; p++) {
		port_name(t, p, na, sizeof(na));
		e->ifindex[p] = if_index_in(e->nsfd[t->ports[p].node], na);
		if (e->ifindex[p] <= 0)
			return kb_exp_set_error(e->x, -ENODEV, "veth %s: gone", na);
		err = nl_up(e->nsfd[t->ports[p].node], e->ifindex[p]);
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

static void fabric_down(struct emu *e)
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

/* ---- the data paths ------------------------------------------------------------ */

static enum emu_path path_of(__u32 scheme)
{
	switch (scheme) {
	case KB_EXP_EXACT:
	case KB_EXP_BLOCKED:
		return PATH_MCAST;
	case KB_EXP_MCBF:
		return PATH_MCBF;
	case KB_EXP_LIPSIN1:
	case KB_EXP_LIPSIN8:
	case KB_EXP_MSBF:
		return PATH_IPBF;
	}
	return PATH_NONE;
}

static void loader_log(void *ctx, const char *msg)
{
	struct emu *e = ctx;

	if (e->o->verbose)
		emu_log(e, "loader: %s", msg);
}

static void path_down(struct emu *e)
{
	const struct kb_topo *t = e->t;
	char name[32];
	__u32 n;

	for (n = 0; n < t->nnodes; n++) {
		if (e->mx[n]) {
			kbloom_xdp_destroy(e->mx[n]);
			e->mx[n] = NULL;
		}
		if (e->nx[n]) {
			kbloom_net_destroy(e->nx[n]);
			e->nx[n] = NULL;
		}
		if (e->pass[n] > 0) {
			close(e->pass[n]);	/* detaches the XDP_PASS link */
			e->pass[n] = 0;
		}
		snprintf(name, sizeof(name), "n%u", n);
		kbloom_xdp_unpin(e->root, name);
	}
	e->path = PATH_NONE;
}

/* XDP_PASS on every host: a veth end gets redirected frames only then. */
static int hosts_pass(struct emu *e)
{
	const struct kb_topo *t = e->t;
	int saved, err;
	__u32 n;

	for (n = 0; n < t->nnodes; n++) {
		if (t->nodes[n].kind != KB_NODE_HOST)
			continue;
		err = ns_enter(e->nsfd[n], &saved);
		if (err)
			return err;
		err = kbloom_xdp_pass_attach(e->ifindex[t->nodes[n].first_port],
					     KBLOOM_XDP_MODE_NATIVE, NULL,
					     &e->pass[n]);
		ns_leave(saved);
		if (err)
			return err;
	}
	return 0;
}

/*
 * Loading a path's programs (the verifier) is most of the set-up time:
 * the instances are created by a few threads, each in its own thread's
 * namespace context (the loaders enter opts->netns per call).
 */
#define EMU_LOADERS	4

struct par_create {
	struct emu *e;
	enum emu_path path;
	atomic_uint next;
	atomic_int err;
	atomic_uint failed_node;
};

static int create_one(struct emu *e, enum emu_path path, __u32 n)
{
	const struct kb_topo *t = e->t;
	const struct kb_node *nd = &t->nodes[n];
	const struct kb_exp_params *p = kb_exp_get_params(e->x);
	struct kbloom_xdp_opts xo = {
		.pin_root = e->root, .log = loader_log, .log_ctx = e,
		.netns = e->nspath[n], .max_filters = nd->nports,
		.max_keys = e->members + 16, .flags = KBLOOM_MCAST_F_AUDIT,
		.opt_flags = KBLOOM_XDP_OPT_FLAGS,
	};
	struct kbloom_net_opts no = {
		.pin_root = e->root, .log = loader_log, .log_ctx = e,
		.netns = e->nspath[n], .max_ports = nd->nports,
		.max_members = e->members + 16,
	};
	char name[32];
	int err;

	if (path != PATH_IPBF && nd->kind != KB_NODE_SWITCH)
		return 0;
	snprintf(name, sizeof(name), "n%u", n);
	switch (path) {
	case PATH_MCAST:
		return kbloom_xdp_create(name, KBLOOM_XDP_MCAST, &xo, &e->mx[n]);
	case PATH_MCBF:
		return kbloom_net_create(name, KBLOOM_NET_MCBF, &no, &e->nx[n]);
	case PATH_IPBF:
		err = kbloom_net_create(name, KBLOOM_NET_IPBF, &no, &e->nx[n]);
		if (!err)
			err = kbloom_ipbf_node_setup(e->nx[n],
						     kb_exp_lids(e->x), n,
						     e->ifindex + nd->first_port,
						     p->fill_limit,
						     KBLOOM_XDP_MODE_NATIVE);
		return err;
	default:
		return -EINVAL;
	}
}

static void *create_main(void *arg)
{
	struct par_create *pc = arg;
	__u32 n;
	int err;

	while ((n = atomic_fetch_add(&pc->next, 1)) < pc->e->t->nnodes) {
		if (atomic_load(&pc->err))
			break;
		err = create_one(pc->e, pc->path, n);
		if (err && !atomic_exchange(&pc->err, err))
			atomic_store(&pc->failed_node, n);
	}
	return NULL;
}

static int create_all(struct emu *e, enum emu_path path)
{
	struct par_create pc = { .e = e, .path = path };
	pthread_t th[EMU_LOADERS];
	int i, started = 0, err;

	for (i = 0; i < EMU_LOADERS; i++) {
		if (pthread_create(&th[i], NULL, create_main, &pc))
			break;
		started++;
	}
	if (!started)
		create_main(&pc);
	for (i = 0; i < started; i++)
		pthread_join(th[i], NULL);
	err = atomic_load(&pc.err);
	if (err)
		return kb_exp_set_error(e->x, err, "%s instance of node %u: %s",
					path == PATH_MCAST ? "mcast" :
					path == PATH_MCBF ? "mcbf" : "ipbf",
					atomic_load(&pc.failed_node),
					strerror(-err));
	return 0;
}

/* The geometry of port @p's filter in state @s. */
static int port_geom(struct emu *e, struct kb_exp_state *s, __u32 p,
		     struct kbloom_xdp_geom *g)
{
	struct kb_exp_port_filter pf;
	int err = kb_exp_state_port(s, p, &pf);

	if (err)
		return kb_exp_set_error(e->x, err, "port %u: no filter", p);
	*g = (struct kbloom_xdp_geom){ .m = pf.m, .k = pf.k,
				       .hash_id = pf.hash_id, .seed = pf.seed };
	return 0;
}

/* mcast already up: every port's filter rebuilt to state @s's geometry. */
static int mcast_resize(struct emu *e, struct kb_exp_state *s)
{
	const struct kb_topo *t = e->t;
	struct kbloom_xdp_geom g;
	__u32 p, n;
	int err;

	for (p = 0; p < t->nports; p++) {
		n = t->ports[p].node;
		if (t->nodes[n].kind != KB_NODE_SWITCH)
			continue;
		err = port_geom(e, s, p, &g);
		if (!err)
			err = kbloom_mcast_port_resize(e->mx[n], e->ifindex[p], &g);
		if (err)
			return kb_exp_set_error(e->x, err, "mcast resize of port %u: %s",
						p, strerror(-err));
	}
	return 0;
}

static int mcast_up(struct emu *e, struct kb_exp_state *s)
{
	const struct kb_topo *t = e->t;
	struct kbloom_xdp_geom g;
	const __u32 *grp;
	__u32 n, p, i, ng;
	__u8 addr[4];
	int err;

	err = create_all(e, PATH_MCAST);
	if (err)
		return err;
	for (n = 0; n < t->nnodes; n++) {
		const struct kb_node *nd = &t->nodes[n];

		if (nd->kind != KB_NODE_SWITCH)
			continue;
		for (i = 0; i < nd->nports; i++) {
			p = nd->first_port + i;
			err = port_geom(e, s, p, &g);
			if (err)
				return err;
			err = kbloom_mcast_port_add(e->mx[n], e->ifindex[p], &g);
			if (!err)
				err = kbloom_xdp_attach(e->mx[n], e->ifindex[p],
							KBLOOM_XDP_MODE_NATIVE,
							NULL);
			grp = kb_exp_port_groups(e->x, p, &ng);
			while (!err && ng--) {
				kb_exp_group_addr(e->x, *grp++, addr);
				err = kbloom_mcast_join(e->mx[n], e->ifindex[p],
							addr, 4);
			}
			if (err)
				return kb_exp_set_error(e->x, err,
							"mcast node %u port p%u: %s",
							n, i, strerror(-err));
		}
	}
	err = hosts_pass(e);
	return err ? kb_exp_set_error(e->x, err, "XDP_PASS on the hosts: %s",
				      strerror(-err)) : 0;
}

static int mcbf_up(struct emu *e, struct kb_exp_state *s)
{
	const struct kb_topo *t = e->t;
	struct kb_exp_port_filter pf;
	struct kbloom_mcbf_spec spec;
	struct kbloom_addr_key *keys;
	const __u32 *grp;
	__u32 n, p, i, j, ng;
	int err;

	err = create_all(e, PATH_MCBF);
	if (err)
		return err;
	keys = calloc(e->members + 1, sizeof(*keys));
	if (!keys)
		return -ENOMEM;
	for (n = 0; !err && n < t->nnodes; n++) {
		const struct kb_node *nd = &t->nodes[n];

		if (nd->kind != KB_NODE_SWITCH)
			continue;
		for (i = 0; !err && i < nd->nports; i++) {
			p = nd->first_port + i;
			err = kb_exp_state_port(s, p, &pf);
			if (err)
				break;
			spec = (struct kbloom_mcbf_spec){ .m = pf.m,
							  .hash_id = pf.hash_id,
							  .seed = pf.seed,
							  .classes = pf.classes };
			grp = kb_exp_port_groups(e->x, p, &ng);
			for (j = 0; j < ng; j++) {
				keys[j].len = 4;
				memset(keys[j].addr, 0, sizeof(keys[j].addr));
				kb_exp_group_addr(e->x, grp[j], keys[j].addr);
			}
			err = kbloom_mcbf_port_build(e->nx[n], e->ifindex[p],
						     &spec, keys, ng);
			if (!err)
				err = kbloom_net_attach(e->nx[n], e->ifindex[p],
							KBLOOM_XDP_MODE_NATIVE,
							NULL);
			if (err)
				kb_exp_set_error(e->x, err,
						 "mcbf node %u port p%u: %s", n,
						 i, strerror(-err));
		}
	}
	free(keys);
	if (err)
		return err;
	err = hosts_pass(e);
	return err ? kb_exp_set_error(e->x, err, "XDP_PASS on the hosts: %s",
				      strerror(-err)) : 0;
}

/* Per switch port: transmissions (and audited leaks) so far. */
static int counters(struct emu *e, __u64 *tx, __u64 *leak)
{
	const struct kb_topo *t = e->t;
	struct kbloom_mcast_stats ms;
	struct kbloom_mcbf_stats bs;
	struct kbloom_ipbf_stats is;
	__u32 p, n;
	int err = 0;

	for (p = 0; p < t->nports; p++) {
		n = t->ports[p].node;
		tx[p] = leak[p] = 0;
		if (t->nodes[n].kind != KB_NODE_SWITCH)
			continue;
		switch (e->path) {
		case PATH_MCAST:
			err = kbloom_mcast_stats(e->mx[n], e->ifindex[p], &ms);
			tx[p] = ms.tx_forwarded;
			leak[p] = ms.tx_leaked;
			break;
		case PATH_MCBF:
			err = kbloom_mcbf_stats(e->nx[n], e->ifindex[p], &bs);
			tx[p] = bs.tx_forwarded;
			leak[p] = bs.tx_leaked;
			break;
		case PATH_IPBF:
			err = kbloom_ipbf_stats(e->nx[n], e->ifindex[p], &is);
			tx[p] = is.tx_forwarded;
			break;
		default:
			break;
		}
		if (err)
			return err;
	}
	return 0;
}

/* ---- packets ------------------------------------------------------------------ */

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
static int build_frame(struct emu *e, __u32 scheme, __u32 g, __u32 idx,
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
	port_mac(sport, f + 6);
	if (path_of(scheme) != PATH_IPBF) {
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

static int send_frame(struct emu *e, __u32 src, const __u8 *f, size_t len)
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

/* Count this run's frames of packet (@scheme, @g, @idx) at each host. */
static int drain_hosts(struct emu *e, __u32 scheme, __u32 g, __u32 idx)
{
	const struct kb_topo *t = e->t;
	struct sockaddr_ll from;
	struct emu_payload pl;
	__u8 buf[2048];
	socklen_t fl;
	ssize_t r;
	__u32 n;
	int got = 0;

	for (n = 0; n < t->nnodes; n++) {
		if (t->nodes[n].kind != KB_NODE_HOST)
			continue;
		for (;;) {
			fl = sizeof(from);
			r = recvfrom(e->rx[n], buf, sizeof(buf), 0,
				     (struct sockaddr *)&from, &fl);
			if (r < 0)
				break;
			if (from.sll_pkttype == PACKET_OUTGOING ||
			    r < (ssize_t)sizeof(pl))
				continue;
			memcpy(&pl, buf + r - sizeof(pl), sizeof(pl));
			if (pl.magic != EMU_MAGIC || pl.seq != e->seq ||
			    pl.scheme != scheme || pl.group != g ||
			    pl.index != idx)
				continue;
			e->host_emu[n]++;
			got = 1;
		}
	}
	return got;
}

/*
 * Wait until the packet has gone everywhere it goes: the counters moved
 * and then stayed still for two reads EMU_SETTLE_US apart, the host
 * sockets quiet as well.  Return: 0, or -ETIMEDOUT.
 */
static int settle(struct emu *e, __u32 scheme, __u32 g, __u32 idx)
{
	size_t sz = e->t->nports * sizeof(__u64);
	double t0 = now_s();
	int still = 0, moved = 0, err;
	__u64 *prev = malloc(sz), *prevl = malloc(sz);

	if (!prev || !prevl) {
		free(prev);
		free(prevl);
		return -ENOMEM;
	}
	memcpy(prev, e->before, sz);
	memcpy(prevl, e->leak_before, sz);
	while (still < 2) {
		usleep(EMU_SETTLE_US);
		err = counters(e, e->after, e->leak_after);
		if (err)
			goto out;
		if (drain_hosts(e, scheme, g, idx))
			still = 0;
		if (memcmp(prev, e->after, sz) || memcmp(prevl, e->leak_after, sz)) {
			moved = 1;
			still = 0;
			memcpy(prev, e->after, sz);
			memcpy(prevl, e->leak_after, sz);
		} else if (moved) {
			still++;
		}
		if (now_s() - t0 > EMU_WAIT_S) {
			err = moved ? 0 : -ETIMEDOUT;
			goto out;
		}
	}
	err = 0;
out:
	free(prev);
	free(prevl);
	return err;
}

/* Send one packet, measure it, compare with the model. */
static int one_packet(struct emu *e, struct kb_exp_emu_result *r,
		      __u32 scheme, __u32 g, __u32 idx,
		      const struct kb_exp_pkt *pk)
{
	const struct kb_topo *t = e->t;
	__u8 frame[EMU_FRAME_MAX + 64];
	__u32 j, p, n, src = kb_exp_group_src(e->x, g);
	__u64 d, dl, etx = 0, eleak = 0, mtx = 0, mleak = 0, ecnt = 0;
	int len, err, diff = 0, hdiff = 0;

	memset(e->model_cnt, 0, t->nports * sizeof(*e->model_cnt));
	memset(e->host_model, 0, t->nnodes * sizeof(*e->host_model));
	memset(e->host_emu, 0, t->nnodes * sizeof(*e->host_emu));
	e->seq++;
	len = build_frame(e, scheme, g, idx, pk, frame);
	if (len == -EMSGSIZE) {
		r->skipped++;
		emu_log(e, "%s: group %u packet %u: frame above %u bytes, not sent",
			kb_exp_scheme_name(scheme), g, idx, EMU_FRAME_MAX);
		return 0;
	}
	/* the model: transmissions by switches, arrivals at hosts */
	for (j = 0; j < pk->ntrace; j++) {
		p = pk->trace[j];
		n = t->ports[p].peer_node;
		if (t->nodes[n].kind == KB_NODE_HOST)
			e->host_model[n]++;
		if (t->nodes[t->ports[p].node].kind != KB_NODE_SWITCH)
			continue;
		e->model_cnt[p]++;
		mtx++;
		mleak += !pk->tree->on_tree[p];
	}
	if (len > 0) {
		err = counters(e, e->before, e->leak_before);
		if (!err)
			err = send_frame(e, src, frame, len);
		if (!err)
			err = settle(e, scheme, g, idx);
		if (err)
			return err;
	} else {
		memcpy(e->after, e->before, t->nports * sizeof(__u64));
		memcpy(e->leak_after, e->leak_before, t->nports * sizeof(__u64));
	}
	for (p = 0; p < t->nports; p++) {
		if (t->nodes[t->ports[p].node].kind != KB_NODE_SWITCH)
			continue;
		d = e->after[p] - e->before[p];
		dl = e->leak_after[p] - e->leak_before[p];
		etx += d;
		ecnt += dl;
		if (!pk->tree->on_tree[p])
			eleak += d;
		if (d != e->model_cnt[p])
			diff = 1;
	}
	for (n = 0; n < t->nnodes; n++) {
		if (t->nodes[n].kind != KB_NODE_HOST)
			continue;
		if (e->host_model[n] != e->host_emu[n])
			hdiff++;
		r->model_hosts += e->host_model[n];
		r->emu_hosts += e->host_emu[n];
	}
	r->packets++;
	r->model_tx += mtx;
	r->emu_tx += etx;
	r->model_leak += mleak;
	r->emu_leak += eleak;
	if (r->emu_leak_counter != ~0ULL)
		r->emu_leak_counter += ecnt;
	r->model_leaked_hosts += pk->res.leaked_hosts;
	r->pkt_mismatch += diff;
	r->host_mismatch += hdiff;
	if ((diff || hdiff) && e->o->verbose)
		emu_log(e, "%s: group %u packet %u: model %llu tx (%llu off-tree), emulation %llu (%llu)%s",
			kb_exp_scheme_name(scheme), g, idx,
			(unsigned long long)mtx, (unsigned long long)mleak,
			(unsigned long long)etx, (unsigned long long)eleak,
			hdiff ? ", host arrivals differ" : "");
	return 0;
}

static void count_leaked_hosts(struct emu *e, struct kb_exp_emu_result *r,
			       const struct kb_exp_pkt *pk)
{
	const struct kb_tree *tr = pk->tree;
	__u32 n;

	for (n = 0; n < e->t->nnodes; n++)
		if (e->t->nodes[n].kind == KB_NODE_HOST && !tr->member[n])
			r->emu_leaked_hosts += e->host_emu[n];
}

/* Every packet of the scheme, model state @ms, data path already up. */
static int run_packets(struct emu *e, struct kb_exp_state *ms, __u32 scheme,
		       struct kb_exp_emu_result *r)
{
	__u32 g, i, ng = kb_exp_ngroups(e->x), sent = 0;
	struct kb_exp_pkt pk;
	int np, err;

	for (g = 0; g < ng; g++) {
		np = kb_exp_state_npackets(ms, g);
		if (np < 0)
			return np;
		for (i = 0; i < (__u32)np; i++) {
			if (e->o->max_packets && sent >= e->o->max_packets)
				return 0;
			err = kb_exp_state_forward(ms, g, i, &pk);
			if (err)
				return err;
			if (pk.refused)
				continue;
			if (pk.res.truncated) {
				r->skipped++;
				emu_log(e, "%s: group %u packet %u loops in the model (no hop limit on this path): not sent",
					kb_exp_scheme_name(scheme), g, i);
				continue;
			}
			err = one_packet(e, r, scheme, g, i, &pk);
			if (err)
				return err;
			count_leaked_hosts(e, r, &pk);
			sent++;
		}
	}
	return 0;
}

static int scheme_run(struct emu *e, __u32 scheme, __u64 bits,
		      struct kb_exp_emu_result *r)
{
	struct kb_exp_state *ms = NULL, *ds = NULL;
	enum emu_path want = path_of(scheme);
	double t0 = now_s(), t1;
	int err;

	r->scheme = scheme;
	r->bits = (KB_EXP_S(scheme) & KB_EXP_PORT_FILTERS) ? bits : 0;
	r->emu_leak_counter = want == PATH_IPBF ? ~0ULL : 0;
	if (want == PATH_NONE) {
		r->status = -EOPNOTSUPP;
		snprintf(r->why, sizeof(r->why),
			 "no XDP data path holds standard per-port filters (mcast and mcbf are blocked)");
		return 0;
	}
	if (scheme == KB_EXP_MCBF &&
	    kb_exp_get_params(e->x)->mcbf_type != KBLOOM_TYPE_BLOCKED) {
		r->status = -EOPNOTSUPP;
		snprintf(r->why, sizeof(r->why),
			 "the mcbf path holds blocked MC-BF filters (mcbf-type standard is model only)");
		return 0;
	}
	err = kb_exp_state_new(e->x, scheme, bits, &ms);
	if (!err && scheme == KB_EXP_EXACT)
		err = kb_exp_state_new(e->x, KB_EXP_BLOCKED, EMU_EXACT_BITS, &ds);
	if (err) {
		r->status = err;
		snprintf(r->why, sizeof(r->why), "%s", kb_exp_error(e->x));
		goto out;
	}
	if (e->path == want && want == PATH_MCAST) {
		err = mcast_resize(e, ds ? ds : ms);
	} else if (e->path != want || want != PATH_IPBF) {
		path_down(e);
		switch (want) {
		case PATH_MCAST:
			err = mcast_up(e, ds ? ds : ms);
			break;
		case PATH_MCBF:
			err = mcbf_up(e, ms);
			break;
		default:
			err = create_all(e, PATH_IPBF);
			break;
		}
		e->path = want;
	}
	if (err) {
		r->status = err;
		snprintf(r->why, sizeof(r->why), "%s", kb_exp_error(e->x));
		goto out;
	}
	if (scheme == KB_EXP_EXACT)
		snprintf(r->why, sizeof(r->why),
			 "mcast path with %llu-bit filters for the exact tables",
			 (unsigned long long)EMU_EXACT_BITS);
	emu_log(e, "%s: data path up (%.1f s), sending",
		kb_exp_scheme_name(scheme), now_s() - t0);
	t1 = now_s();
	err = run_packets(e, ms, scheme, r);
	emu_log(e, "%s: %llu packets in %.1f s", kb_exp_scheme_name(scheme),
		(unsigned long long)r->packets, now_s() - t1);
	if (err) {
		r->status = err;
		snprintf(r->why, sizeof(r->why), "%s", err == -ETIMEDOUT ?
			 "a packet never showed in the counters" : strerror(-err));
	}
out:
	kb_exp_state_free(ms);
	kb_exp_state_free(ds);
	r->seconds = now_s() - t0;
	return 0;
}

static int emu_alloc(struct emu *e)
{
	size_t nn = e->t->nnodes, np = e->t->nports;

	e->nsfd = calloc(nn, sizeof(*e->nsfd));
	e->nspath = calloc(nn, sizeof(*e->nspath));
	e->ifindex = calloc(np, sizeof(*e->ifindex));
	e->rx = calloc(nn, sizeof(*e->rx));
	e->pass = calloc(nn, sizeof(*e->pass));
	e->mx = calloc(nn, sizeof(*e->mx));
	e->nx = calloc(nn, sizeof(*e->nx));
	e->before = calloc(np, sizeof(__u64));
	e->after = calloc(np, sizeof(__u64));
	e->leak_before = calloc(np, sizeof(__u64));
	e->leak_after = calloc(np, sizeof(__u64));
	e->model_cnt = calloc(np, sizeof(__u32));
	e->host_model = calloc(nn, sizeof(__u32));
	e->host_emu = calloc(nn, sizeof(__u32));
	if (!e->nsfd || !e->nspath || !e->ifindex || !e->rx || !e->pass ||
	    !e->mx || !e->nx || !e->before || !e->after || !e->leak_before ||
	    !e->leak_after || !e->model_cnt || !e->host_model || !e->host_emu)
		return -ENOMEM;
	return 0;
}

static void emu_free(struct emu *e)
{
	free(e->nsfd);
	free(e->nspath);
	free(e->ifindex);
	free(e->rx);
	free(e->pass);
	free(e->mx);
	free(e->nx);
	free(e->before);
	free(e->after);
	free(e->leak_before);
	free(e->leak_after);
	free(e->model_cnt);
	free(e->host_model);
	free(e->host_emu);
}

/* Remove the pin roots of emulations whose process is gone. */
static void emu_janitor(void)
{
	char root[320];
	struct dirent *de, *ie;
	DIR *d, *r;
	int pid;

	d = opendir("/sys/fs/bpf");
	if (!d)
		return;
	while ((de = readdir(d))) {
		if (sscanf(de->d_name, "kbloom-exp%d", &pid) != 1 || pid <= 0)
			continue;
		if (!kill(pid, 0) || errno != ESRCH)
			continue;
		snprintf(root, sizeof(root), "/sys/fs/bpf/%s", de->d_name);
		r = opendir(root);
		while (r && (ie = readdir(r)))
			if (ie->d_name[0] != '.')
				kbloom_xdp_unpin(root, ie->d_name);
		if (r)
			closedir(r);
		rmdir(root);
	}
	closedir(d);
}

static int topo_fits(struct emu *e)
{
	const struct kb_topo *t = e->t;
	__u32 n, nsw = 0;

	for (n = 0; n < t->nnodes; n++) {
		if (t->nodes[n].kind != KB_NODE_SWITCH)
			continue;
		nsw++;
		if (t->nodes[n].nports > EMU_PORTS_MAX)
			return kb_exp_set_error(e->x, -ERANGE,
						"emulation: switch %u has %u ports (at most %u)",
						n, t->nodes[n].nports,
						EMU_PORTS_MAX);
	}
	if (nsw > EMU_SW_MAX || t->nhosts > EMU_HOSTS_MAX)
		return kb_exp_set_error(e->x, -ERANGE,
					"emulation: %u switches and %u hosts (at most %u and %u: a k = 4 fat-tree has 20 and 16)",
					nsw, t->nhosts, EMU_SW_MAX,
					EMU_HOSTS_MAX);
	return 0;
}

int kb_exp_emulate(struct kb_exp *x, const struct kb_exp_emu_opts *o,
		   struct kb_exp_emu_result *res)
{
	const struct kb_exp_params *p;
	struct kb_exp_emu_opts def = { 0 };
	struct emu e = { .x = x };
	double t0;
	__u32 s, schemes;
	__u64 bits;
	int err;

	if (!x || !res)
		return -EINVAL;
	if (!o)
		o = &def;
	p = kb_exp_get_params(x);
	e.t = kb_exp_topo(x);
	e.o = o;
	e.log = o->log;
	memset(res, 0, KB_EXP_NSCHEMES * sizeof(*res));
	for (s = 0; s < KB_EXP_NSCHEMES; s++) {
		res[s].scheme = s;
		res[s].status = -ENOENT;
	}
	err = topo_fits(&e);
	if (!err)
		err = kb_exp_prepare(x);
	if (err)
		return err;
	schemes = (o->schemes ? o->schemes : KB_EXP_ALL) & p->schemes;
	bits = o->bits ? o->bits : p->ref_bits;
	snprintf(e.root, sizeof(e.root), "%s-exp%d", KBLOOM_XDP_PIN_ROOT,
		 (int)getpid());
	emu_janitor();
	t0 = now_s();
	for (s = 0; s < e.t->nports; s++) {
		__u32 ng;

		kb_exp_port_groups(x, s, &ng);
		e.members += ng;
	}
	err = emu_alloc(&e);
	if (!err)
		err = fabric_up(&e);
	if (err)
		goto out;
	emu_log(&e, "fabric: %u namespaces, %u veth links (%.1f s)",
		e.t->nnodes, e.t->nports / 2, now_s() - t0);
	/* the in-packet schemes last, sharing one ipbf set-up */
	for (s = 0; s < KB_EXP_NSCHEMES; s++) {
		if (!(schemes & KB_EXP_S(s)))
			continue;
		res[s].status = 0;
		scheme_run(&e, s, bits, &res[s]);
	}
	path_down(&e);
out:
	fabric_down(&e);
	emu_free(&e);
	return err;
}

/* ---- output -------------------------------------------------------------------- */

void kb_exp_emu_print(const struct kb_exp_emu_result *res, FILE *f)
{
	const struct kb_exp_emu_result *r;
	char bits[24], ctr[24];
	__u32 s;
	int ok;

	fprintf(f, "%-9s %9s %7s %7s %9s %9s %9s %9s %8s %9s %9s %6s  %s\n",
		"SCHEME", "BITS/PORT", "PACKETS", "SKIPPED", "MODEL TX",
		"EMU TX", "MODEL LK", "EMU LK", "COUNTER", "HOSTS M/E",
		"PKT DIFF", "HOST D", "RESULT");
	for (s = 0; s < KB_EXP_NSCHEMES; s++) {
		r = &res[s];
		if (r->status == -ENOENT)
			continue;
		if (r->status) {
			fprintf(f, "%-9s %s: %s\n", kb_exp_scheme_name(s),
				r->status == -EOPNOTSUPP ? "not emulated" :
				"failed", r->why);
			continue;
		}
		snprintf(bits, sizeof(bits), "%llu", (unsigned long long)r->bits);
		if (!(KB_EXP_S(s) & KB_EXP_PORT_FILTERS))
			snprintf(bits, sizeof(bits), "-");
		snprintf(ctr, sizeof(ctr), "%llu",
			 (unsigned long long)r->emu_leak_counter);
		if (r->emu_leak_counter == ~0ULL)
			snprintf(ctr, sizeof(ctr), "-");
		ok = !r->pkt_mismatch && !r->host_mismatch &&
		     r->model_leak == r->emu_leak;
		fprintf(f, "%-9s %9s %7llu %7llu %9llu %9llu %9llu %9llu %8s %4llu/%-4llu %9llu %6llu  %s%s%s\n",
			kb_exp_scheme_name(s), bits,
			(unsigned long long)r->packets,
			(unsigned long long)r->skipped,
			(unsigned long long)r->model_tx,
			(unsigned long long)r->emu_tx,
			(unsigned long long)r->model_leak,
			(unsigned long long)r->emu_leak, ctr,
			(unsigned long long)r->model_hosts,
			(unsigned long long)r->emu_hosts,
			(unsigned long long)r->pkt_mismatch,
			(unsigned long long)r->host_mismatch,
			ok ? "agree" : "DIFFER", r->why[0] ? "; " : "", r->why);
	}
	fprintf(f, "\nTX: transmissions by switches; LK: those outside the packets' trees; COUNTER:\n"
		"the data path's own leak audit (tx_leaked); HOSTS: arrivals at hosts (model/emulation);\n"
		"PKT DIFF: packets whose per-port transmissions differ; HOST D: (packet, host) arrival\n"
		"counts that differ.\n");
}

int kb_exp_emu_write_csv(struct kb_exp *x, const struct kb_exp_emu_result *res,
			 const char *dir)
{
	const struct kb_exp_emu_result *r;
	char path[4096];
	FILE *f;
	__u32 s;
	int err = 0;

	if (mkdir(dir, 0755) && errno != EEXIST)
		return kb_exp_set_error(x, -errno, "%s: %s", dir,
					strerror(errno));
	snprintf(path, sizeof(path), "%s/agreement.csv", dir);
	f = fopen(path, "we");
	if (!f)
		return kb_exp_set_error(x, -errno, "%s: %s", path,
					strerror(errno));
	char note[sizeof(res->why)], *c;

	fprintf(f, "scheme,bits,status,packets,skipped,model_tx,emu_tx,model_leak,emu_leak,emu_leak_counter,model_hosts,emu_hosts,model_leaked_hosts,emu_leaked_hosts,pkt_mismatch,host_mismatch,seconds,note\n");
	for (s = 0; s < KB_EXP_NSCHEMES; s++) {
		r = &res[s];
		if (r->status == -ENOENT)
			continue;
		snprintf(note, sizeof(note), "%s", r->why);
		for (c = note; *c; c++)
			if (*c == ',' || *c == '\n')
				*c = ';';
		fprintf(f, "%s,%llu,%s,%llu,%llu,%llu,%llu,%llu,%llu,%lld,%llu,%llu,%llu,%llu,%llu,%llu,%.3f,%s\n",
			kb_exp_scheme_name(s), (unsigned long long)r->bits,
			r->status == -EOPNOTSUPP ? "not-emulated" :
			r->status ? "failed" : "ran",
			(unsigned long long)r->packets,
			(unsigned long long)r->skipped,
			(unsigned long long)r->model_tx,
			(unsigned long long)r->emu_tx,
			(unsigned long long)r->model_leak,
			(unsigned long long)r->emu_leak,
			r->emu_leak_counter == ~0ULL ? -1LL :
			(long long)r->emu_leak_counter,
			(unsigned long long)r->model_hosts,
			(unsigned long long)r->emu_hosts,
			(unsigned long long)r->model_leaked_hosts,
			(unsigned long long)r->emu_leaked_hosts,
			(unsigned long long)r->pkt_mismatch,
			(unsigned long long)r->host_mismatch, r->seconds,
			note);
	}
	if (ferror(f))
		err = -EIO;
	if (fclose(f) && !err)
		err = -errno;
	if (err)
		return kb_exp_set_error(x, err, "%s: %s", path, strerror(-err));
	return 0;
}
