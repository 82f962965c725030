/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers of the XDP tests of the bpf suite: network namespaces held by
 * file descriptors (they vanish with the test process, whatever ends it),
 * veth links, synthetic frames, AF_PACKET sockets, BPF_PROG_TEST_RUN, and
 * the janitor that removes the pinned instances of dead test processes.
 *
 * Every name a test creates starts with "kbt<pid>-", pid being the test
 * process (the harness forks one per test).
 */
#ifndef KBT_XDP_UTIL_H
#define KBT_XDP_UTIL_H

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "libkbloom_xdp.h"

#define KBT_PIN_ROOT	KBLOOM_XDP_PIN_ROOT

/* ---- time, randomness ------------------------------------------------------- */

static inline double kbt_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static inline __u64 kbt_rand(__u64 *s)
{
	__u64 z = (*s += 0x9E3779B97F4A7C15ULL);

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
	return z ^ (z >> 31);
}

/* ---- names and the janitor -------------------------------------------------------- */

static inline void kbt_name(char *buf, size_t len, const char *tag)
{
	snprintf(buf, len, "kbt%d-%s", (int)getpid(), tag);
}

/* Remove the instances of test processes that are gone. */
static inline void kbt_janitor(void)
{
	struct dirent *e;
	DIR *d = opendir(KBT_PIN_ROOT);
	int pid;

	if (!d)
		return;
	while ((e = readdir(d))) {
		if (sscanf(e->d_name, "kbt%d-", &pid) != 1 || pid <= 0)
			continue;
		if (kill(pid, 0) && errno == ESRCH)
			kbloom_xdp_unpin(KBT_PIN_ROOT, e->d_name);
	}
	closedir(d);
}

/* Remove an instance by name, and the pin root if it is now empty. */
static inline void kbt_unpin(const char *name)
{
	kbloom_xdp_unpin(KBT_PIN_ROOT, name);
	rmdir(KBT_PIN_ROOT);
}

/* ---- network namespaces ------------------------------------------------------------ */

struct kbt_ns {
	int fd;			/* 0 when unused */
	char path[64];		/* /proc/<pid>/fd/<fd>, for ip ... netns */
};

static inline int kbt_ns_new(struct kbt_ns *ns)
{
	int self = open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC);
	int ret = 0;

	if (self < 0)
		return -errno;
	if (unshare(CLONE_NEWNET)) {
		ret = -errno;
		goto out;
	}
	ns->fd = open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC);
	if (ns->fd < 0)
		ret = -errno;
	if (setns(self, CLONE_NEWNET) && !ret)
		ret = -errno;
	snprintf(ns->path, sizeof(ns->path), "/proc/%d/fd/%d", (int)getpid(),
		 ns->fd);
out:
	close(self);
	if (ret && ns->fd > 0) {
		close(ns->fd);
		ns->fd = 0;
	}
	return ret;
}

static inline void kbt_ns_free(struct kbt_ns *ns)
{
	if (ns->fd > 0)
		close(ns->fd);
	ns->fd = 0;
}

/* Enter @ns (NULL: stay); *saved restores with kbt_ns_leave(). */
static inline int kbt_ns_enter(const struct kbt_ns *ns, int *saved)
{
	*saved = -1;
	if (!ns)
		return 0;
	*saved = open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC);
	if (*saved < 0)
		return -errno;
	if (setns(ns->fd, CLONE_NEWNET)) {
		close(*saved);
		*saved = -1;
		return -errno;
	}
	return 0;
}

static inline void kbt_ns_leave(int saved)
{
	if (saved < 0)
		return;
	setns(saved, CLONE_NEWNET);
	close(saved);
}

/* Run a shell command inside @ns; 0 when it exits 0. */
static inline int kbt_sh(const struct kbt_ns *ns, const char *fmt, ...)
{
	char cmd[1024];
	va_list ap;
	int saved, ret;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	if (kbt_ns_enter(ns, &saved))
		return -1;
	ret = system(cmd);
	kbt_ns_leave(saved);
	if (ret) {
		fprintf(stderr, "# command failed (%d): %s\n", ret, cmd);
		return -1;
	}
	return 0;
}

static inline int kbt_write_file(const struct kbt_ns *ns, const char *path,
				 const char *val)
{
	int saved, fd, ret = 0;

	if (kbt_ns_enter(ns, &saved))
		return -1;
	fd = open(path, O_WRONLY);
	if (fd < 0 || write(fd, val, strlen(val)) != (ssize_t)strlen(val))
		ret = -1;
	if (fd >= 0)
		close(fd);
	kbt_ns_leave(saved);
	return ret;
}

/* A namespace without IPv6 on new interfaces: no DAD, RS or MLD noise. */
static inline int kbt_ns_quiet(struct kbt_ns *ns)
{
	int ret = kbt_ns_new(ns);

	if (ret)
		return ret;
	if (kbt_write_file(ns, "/proc/sys/net/ipv6/conf/default/disable_ipv6",
			   "1") ||
	    kbt_write_file(ns, "/proc/sys/net/ipv6/conf/all/disable_ipv6", "1"))
		return -1;
	return 0;
}

static inline int kbt_ifindex(const struct kbt_ns *ns, const char *name)
{
	int saved, idx;

	if (kbt_ns_enter(ns, &saved))
		return 0;
	idx = if_nametoindex(name);
	kbt_ns_leave(saved);
	return idx;
}

/*
 * A veth link: @a in @na (MAC 02:00:00:00:@ida:01), @b in @nb (MAC
 * 02:00:00:00:@ida:02), both up.
 */
static inline int kbt_veth(const struct kbt_ns *na, const char *a,
			   const struct kbt_ns *nb, const char *b, int id)
{
	if (kbt_sh(na, "ip link add %s address 02:00:00:00:%02x:01 type veth peer name %s address 02:00:00:00:%02x:02 netns %s",
		   a, id & 0xff, b, id & 0xff, nb->path))
		return -1;
	if (kbt_sh(na, "ip link set dev %s up", a) ||
	    kbt_sh(nb, "ip link set dev %s up", b))
		return -1;
	return 0;
}

/*
 * @n veth links p<i> (here) - q<i> (in @ns), kbt_veth() id i, and the
 * ifindex of each p<i> in @ifindex[i].
 */
static inline int kbt_veth_ports(const struct kbt_ns *ns, int n, int *ifindex)
{
	char a[16], b[16];
	int i;

	for (i = 0; i < n; i++) {
		snprintf(a, sizeof(a), "p%d", i);
		snprintf(b, sizeof(b), "q%d", i);
		if (kbt_veth(NULL, a, ns, b, i))
			return -1;
		ifindex[i] = kbt_ifindex(NULL, a);
	}
	return 0;
}

/* A non-blocking UDP socket of @ns bound to @addr:@port (IPv4), or -1. */
static inline int kbt_udp_sock(const struct kbt_ns *ns, const char *addr,
			       int port)
{
	struct sockaddr_in sa = { .sin_family = AF_INET,
				  .sin_port = htons(port) };
	int saved, fd;

	if (kbt_ns_enter(ns, &saved))
		return -1;
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	inet_pton(AF_INET, addr, &sa.sin_addr);
	if (fd >= 0 && bind(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		close(fd);
		fd = -1;
	}
	kbt_ns_leave(saved);
	return fd;
}

/* ---- frames ----------------------------------------------------------------------- */

#define KBT_MAGIC	0x4b425431	/* "KBT1" */

struct kbt_payload {
	__u32 magic;
	__u32 group;
	__u32 seq;
	__u32 tag;
};

struct kbt_frame_opts {
	int v6;
	int vlan;		/* 0: untagged, else the TCI */
	__u16 vlan_proto;	/* 0: 802.1Q */
	const __u8 *src;	/* 4 or 16 bytes */
	const __u8 *dst;
	const __u8 *smac;	/* NULL: 02:00:00:00:00:aa */
	const __u8 *dmac;	/* NULL: from dst if multicast, else ff.. */
	__u32 ip4_opts;		/* IPv4 option words (0..10) */
	__u32 ip6_ext;		/* IPv6: hop-by-hop, dest, routing, fragment */
	__u8 l4;		/* 0: UDP */
	const void *payload;
	size_t plen;
};

static inline __u16 kbt_csum_fold(__u32 s)
{
	while (s >> 16)
		s = (s & 0xffff) + (s >> 16);
	return (__u16)~s;
}

static inline __u32 kbt_csum_add(__u32 s, const void *p, size_t n)
{
	const __u8 *b = p;
	size_t i;

	for (i = 0; i + 1 < n; i += 2)
		s += (b[i] << 8) | b[i + 1];
	if (n & 1)
		s += b[n - 1] << 8;
	return s;
}

static inline void kbt_put16(__u8 *p, __u16 v)
{
	p[0] = v >> 8;
	p[1] = v & 0xff;
}

/*
 * Build an Ethernet frame of IPv4 or IPv6 with an upper-layer header
 * (UDP by default) and the payload.  Return: its length.
 */
static inline size_t kbt_frame(__u8 *buf, const struct kbt_frame_opts *o)
{
	static const __u8 smac_def[6] = { 2, 0, 0, 0, 0, 0xaa };
	__u8 *p = buf, *l3, *l4, *nh_field;
	__u8 l4proto = o->l4 ? o->l4 : 17;
	size_t l4len = 8 + o->plen, i;
	__u32 s;

	if (o->dmac) {
		memcpy(p, o->dmac, 6);
	} else if (!o->v6 && (o->dst[0] & 0xf0) == 0xe0) {
		p[0] = 1; p[1] = 0; p[2] = 0x5e;
		p[3] = o->dst[1] & 0x7f; p[4] = o->dst[2]; p[5] = o->dst[3];
	} else if (o->v6 && o->dst[0] == 0xff) {
		p[0] = 0x33; p[1] = 0x33;
		memcpy(p + 2, o->dst + 12, 4);
	} else {
		memset(p, 0xff, 6);
	}
	memcpy(p + 6, o->smac ? o->smac : smac_def, 6);
	p += 12;
	if (o->vlan) {
		kbt_put16(p, o->vlan_proto ? o->vlan_proto : ETH_P_8021Q);
		kbt_put16(p + 2, (__u16)o->vlan);
		p += 4;
	}
	kbt_put16(p, o->v6 ? ETH_P_IPV6 : ETH_P_IP);
	p += 2;
	l3 = p;
	if (!o->v6) {
		size_t hl = 20 + 4 * o->ip4_opts;

		memset(l3, 0, hl);
		l3[0] = 0x40 | (hl / 4);
		kbt_put16(l3 + 2, (__u16)(hl + l4len));
		l3[8] = 1;
		l3[9] = l4proto;
		memcpy(l3 + 12, o->src, 4);
		memcpy(l3 + 16, o->dst, 4);
		for (i = 0; i < 4 * o->ip4_opts; i++)
			l3[20 + i] = 1;		/* NOP options */
		kbt_put16(l3 + 10, kbt_csum_fold(kbt_csum_add(0, l3, hl)));
		l4 = l3 + hl;
	} else {
		__u8 *e;
		__u32 n;

		memset(l3, 0, 40);
		l3[0] = 0x60;
		l3[7] = 1;
		memcpy(l3 + 8, o->src, 16);
		memcpy(l3 + 24, o->dst, 16);
		nh_field = l3 + 6;
		e = l3 + 40;
		for (n = 0; n < o->ip6_ext; n++) {
			/* cycle: hop-by-hop, dest opts, routing, fragment */
			static const __u8 kinds[4] = { 0, 60, 43, 44 };
			__u8 kind = kinds[n % 4];
			size_t len = kind == 44 ? 8 : 8 + 8 * (n & 1);

			*nh_field = kind;
			memset(e, 0, len);
			if (kind != 44) {
				e[1] = (__u8)(len / 8 - 1);
				if (kind == 0 || kind == 60)
					e[2] = 1, e[3] = (__u8)(len - 4);
			} else {
				e[5] = (__u8)n;	/* id; offset 0, first */
			}
			nh_field = e;
			e += len;
		}
		*nh_field = l4proto;
		l4 = e;
		kbt_put16(l3 + 4, (__u16)(l4 - l3 - 40 + l4len));
	}
	memset(l4, 0, 8);
	if (l4proto == 17) {
		kbt_put16(l4, 40000);
		kbt_put16(l4 + 2, 5000);
		kbt_put16(l4 + 4, (__u16)l4len);
	} else {
		l4[0] = o->l4 == 58 ? 143 : 0x22;	/* MLDv2 / IGMPv3 report */
	}
	if (o->plen)
		memcpy(l4 + 8, o->payload, o->plen);
	if (l4proto == 17 && o->v6) {
		s = kbt_csum_add(0, l3 + 8, 32);
		s += l4len + 17;
		s = kbt_csum_add(s, l4, l4len);
		kbt_put16(l4 + 6, kbt_csum_fold(s) ?: 0xffff);
	}
	return l4 + l4len - buf;
}

/* A group address: IPv4 239.1.<g>.<g>, IPv6 ff3e::1:<g>. */
static inline void kbt_group(__u8 addr[16], int v6, __u32 g)
{
	memset(addr, 0, 16);
	if (!v6) {
		addr[0] = 239;
		addr[1] = 1;
		addr[2] = (__u8)(g >> 8);
		addr[3] = (__u8)g;
	} else {
		addr[0] = 0xff;
		addr[1] = 0x3e;
		addr[13] = 1;
		addr[14] = (__u8)(g >> 8);
		addr[15] = (__u8)g;
	}
}

/* ---- AF_PACKET -------------------------------------------------------------------- */

static inline int kbt_psock(const struct kbt_ns *ns, const char *ifname)
{
	struct sockaddr_ll sll = { .sll_family = AF_PACKET };
	int saved, fd, sz = 8 << 20;

	if (kbt_ns_enter(ns, &saved))
		return -1;
	fd = socket(AF_PACKET, SOCK_RAW | SOCK_NONBLOCK | SOCK_CLOEXEC,
		    htons(ETH_P_ALL));
	if (fd >= 0) {
		sll.sll_protocol = htons(ETH_P_ALL);
		sll.sll_ifindex = if_nametoindex(ifname);
		setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &sz, sizeof(sz));
		setsockopt(fd, SOL_SOCKET, SO_SNDBUFFORCE, &sz, sizeof(sz));
		if (!sll.sll_ifindex ||
		    bind(fd, (struct sockaddr *)&sll, sizeof(sll))) {
			close(fd);
			fd = -1;
		}
	}
	kbt_ns_leave(saved);
	return fd;
}

/*
 * Read one received (not outgoing) frame carrying a kbt_payload.
 * Return: 1 with *pl filled, 0 when nothing is queued.
 */
static inline int kbt_precv(int fd, struct kbt_payload *pl)
{
	struct sockaddr_ll from;
	socklen_t fl;
	__u8 buf[2048];
	ssize_t n;
	size_t off;

	for (;;) {
		fl = sizeof(from);
		n = recvfrom(fd, buf, sizeof(buf), 0,
			     (struct sockaddr *)&from, &fl);
		if (n < 0)
			return 0;
		if (from.sll_pkttype == PACKET_OUTGOING)
			continue;
		/* the payload is the last 16 bytes of our frames */
		if (n < (ssize_t)sizeof(*pl))
			continue;
		off = n - sizeof(*pl);
		memcpy(pl, buf + off, sizeof(*pl));
		if (pl->magic == KBT_MAGIC)
			return 1;
	}
}

/* ---- BPF_PROG_TEST_RUN ----------------------------------------------------------- */

/* Run @prog_fd on a frame as if received on @ifindex. */
static inline int kbt_run(int prog_fd, const void *pkt, __u32 len,
			  int ifindex, __u32 *retval)
{
	struct xdp_md ctx = {
		.data_end = len,
		.ingress_ifindex = ifindex,
	};
	LIBBPF_OPTS(bpf_test_run_opts, o,
		.data_in = pkt,
		.data_size_in = len,
		.ctx_in = &ctx,
		.ctx_size_in = sizeof(ctx),
		.repeat = 1,
	);
	int ret;

	if (!ifindex) {
		o.ctx_in = NULL;
		o.ctx_size_in = 0;
	}
	ret = bpf_prog_test_run_opts(prog_fd, &o);
	*retval = o.retval;
	return ret;
}

/* Open a pinned program of an instance. */
static inline int kbt_prog(const char *name, const char *pin)
{
	char p[512];

	snprintf(p, sizeof(p), "%s/%s/%s", KBT_PIN_ROOT, name, pin);
	return bpf_obj_get(p);
}

/* The id of a pinned program of an instance, 0 when none. */
static inline __u32 kbt_prog_id(const char *name, const char *pin)
{
	struct bpf_prog_info info = {};
	__u32 len = sizeof(info);
	int fd = kbt_prog(name, pin);

	if (fd < 0)
		return 0;
	if (bpf_obj_get_info_by_fd(fd, &info, &len))
		info.id = 0;
	close(fd);
	return info.id;
}

/*
 * A test's gate: instance "kbt<pid>-@tag" (into @name, 64 bytes) made with
 * @o, its handle *@x and its pinned prog_gate *@prog: 0, or -errno (then
 * kbt_gate_drop()).
 */
static inline int kbt_gate_new(const char *tag,
			       const struct kbloom_xdp_opts *o, char *name,
			       struct kbloom_xdp **x, int *prog)
{
	int ret;

	kbt_janitor();
	kbt_name(name, 64, tag);
	ret = kbloom_xdp_create(name, KBLOOM_XDP_GATE, o, x);
	if (ret)
		return ret;
	*prog = kbt_prog(name, "prog_gate");
	return *prog > 0 ? 0 : -1;
}

/* Close what kbt_gate_new() opened and unpin the gate. */
static inline void kbt_gate_drop(char *name, struct kbloom_xdp **x,
				 int *prog)
{
	if (*prog > 0)
		close(*prog);
	*prog = 0;
	if (*x)
		kbloom_xdp_close(*x);
	*x = NULL;
	if (name[0])
		kbt_unpin(name);
	name[0] = 0;
}

/* The lines of a library log callback (ctx: a struct kbt_log), for tests. */
struct kbt_log {
	char text[4096];
	size_t len;
};

static inline void kbt_log_line(void *ctx, const char *msg)
{
	struct kbt_log *b = ctx;
	int n = snprintf(b->text + b->len, sizeof(b->text) - b->len, "%s\n",
			 msg);

	if (n > 0 && b->len + n < sizeof(b->text))
		b->len += n;
}

/* A descriptor of the map named @name that program @prog uses, or -1. */
static inline int kbt_prog_map(int prog, const char *name)
{
	struct bpf_prog_info pi = { 0 };
	struct bpf_map_info mi;
	__u32 ids[16], len = sizeof(pi), i;
	int fd;

	pi.nr_map_ids = 16;
	pi.map_ids = (__u64)(unsigned long)ids;
	if (bpf_obj_get_info_by_fd(prog, &pi, &len))
		return -1;
	for (i = 0; i < pi.nr_map_ids && i < 16; i++) {
		fd = bpf_map_get_fd_by_id(ids[i]);
		memset(&mi, 0, sizeof(mi));
		len = sizeof(mi);
		if (fd >= 0 && !bpf_obj_get_info_by_fd(fd, &mi, &len) &&
		    !strcmp(mi.name, name))
			return fd;
		if (fd >= 0)
			close(fd);
	}
	return -1;
}

/*
 * Zero entry 0 of the per-CPU map named @name (values of @size bytes) that
 * program @prog uses: a program's statistics, for a test that reuses a
 * program loaded before it.  Return: 0 or a negative errno.
 */
static inline int kbt_zero_pcpu0(int prog, const char *name, size_t size)
{
	int fd = kbt_prog_map(prog, name), ncpu = libbpf_num_possible_cpus();
	__u32 key = 0;
	void *v;
	int ret;

	if (fd < 0)
		return -ENOENT;
	v = calloc(ncpu > 0 ? ncpu : 1, (size + 7) & ~(size_t)7);
	ret = !v ? -ENOMEM : bpf_map_update_elem(fd, &key, v, BPF_ANY) ? -errno : 0;
	free(v);
	close(fd);
	return ret;
}

#endif /* KBT_XDP_UTIL_H */
