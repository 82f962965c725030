// SPDX-License-Identifier: GPL-2.0
/*
 * kbloomctl: what the XDP commands (xdp.c, mcast.c, gate.c, map.c,
 * ipbf.c, mcbf.c) share: the messages of the library turned into the
 * detail of one error line, keywords, geometry, addresses, network
 * namespaces, interfaces, and opening an instance (libkbloom_xdp.h; its
 * kind is the library's, read from the instance's marker).
 *
 * An instance NAME is the directory <root>/NAME of its pins (root:
 * /sys/fs/bpf/kbloom, or $KBLOOMCTL_PIN_ROOT).
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <net/if.h>
#include <sched.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <sys/stat.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "kbloomctl.h"
#include "libkbloom_xdp.h"
#include "uapi/kbloom_plan.h"

#define NETNS_DIR	"/run/netns"
#define MAX_NOTES	8

/* ---- messages of the library ------------------------------------------ */

/*
 * The library and libbpf say why something failed in log lines: they are
 * kept here, the last one becomes the detail of the error line, and the
 * notices of a command that succeeds (generic mode chosen, bpffs
 * mounted) are printed after it unless -q.
 */
static char notes[MAX_NOTES][256];
static int nnotes;

static void note_add(const char *msg)
{
	size_t n;

	if (nnotes == MAX_NOTES) {
		memmove(notes[0], notes[1], sizeof(notes[0]) * (MAX_NOTES - 1));
		nnotes--;
	}
	snprintf(notes[nnotes], sizeof(notes[0]), "%s", msg);
	n = strlen(notes[nnotes]);
	while (n && (notes[nnotes][n - 1] == '\n' ||
		     notes[nnotes][n - 1] == ' '))
		notes[nnotes][--n] = 0;
	if (n)
		nnotes++;
}

void xdp_log(void *ctx, const char *msg)
{
	note_add(msg);
}

static int libbpf_log(enum libbpf_print_level level, const char *fmt,
		      va_list ap)
{
	char buf[256];

	if (level != LIBBPF_WARN)
		return 0;
	vsnprintf(buf, sizeof(buf), fmt, ap);
	note_add(buf);
	return 0;
}

void xdp_log_reset(void)
{
	nnotes = 0;
	libbpf_set_print(libbpf_log);
}

void xdp_notes(const struct ctl *c)
{
	int i;

	if (!ctl_quiet(c))
		for (i = 0; i < nnotes; i++)
			ctl_warn(c, "%s: note: %s", c->cmd_path, notes[i]);
	nnotes = 0;
}

/* A system error; the library's last word on it as the detail. */
int xdp_fail(const struct ctl *c, int err, const char *opfmt, ...)
{
	char op[256];
	va_list ap;

	va_start(ap, opfmt);
	vsnprintf(op, sizeof(op), opfmt, ap);
	va_end(ap);
	return ctl_syserr(c, err, nnotes ? notes[nnotes - 1] : NULL, "%s",
			  op);
}

/* ---- names, keywords, values ------------------------------------------------ */

const char *xdp_root(void)
{
	const char *r = getenv("KBLOOMCTL_PIN_ROOT");

	return r && *r ? r : KBLOOM_XDP_PIN_ROOT;
}

/* An instance name: 1..63 of [A-Za-z0-9_-] (bpffs refuses dots). */
int xdp_arg_name(const struct ctl *c, const char *s)
{
	size_t i, n = strlen(s);

	if (!n)
		return ctl_usage(c, "NAME '': empty (allowed: 1..%u characters of A-Z a-z 0-9 _ -)",
				 KBLOOM_XDP_NAME_MAX - 1);
	if (n >= KBLOOM_XDP_NAME_MAX)
		return ctl_usage(c, "NAME '%s': %zu characters, too long (allowed: 1..%u characters of A-Z a-z 0-9 _ -)",
				 s, n, KBLOOM_XDP_NAME_MAX - 1);
	for (i = 0; i < n; i++)
		if (!isalnum((unsigned char)s[i]) && s[i] != '_' && s[i] != '-')
			return ctl_usage(c, "NAME '%s': invalid character '%c' (allowed: 1..%u characters of A-Z a-z 0-9 _ -)",
					 s, s[i], KBLOOM_XDP_NAME_MAX - 1);
	return 0;
}

struct xkw *xkw_get(struct xkw *kw, const char *name)
{
	for (; kw->name; kw++)
		if (!strcmp(kw->name, name))
			return kw;
	return NULL;
}

const char *xkw_val(struct xkw *kw, const char *name)
{
	struct xkw *k = xkw_get(kw, name);

	return k && k->n ? k->v[0] : NULL;
}

/* netns NS of @kw, checked; NULL when not given. */
int xkw_netns(const struct ctl *c, struct xkw *kw, const char **netns)
{
	*netns = xkw_val(kw, "netns");
	return *netns ? xdp_arg_netns(c, *netns) : 0;
}

static void xkw_names(char *buf, size_t len, const struct xkw *kw)
{
	size_t off = 0;

	buf[0] = 0;
	for (; kw->name && off < len; kw++)
		off += snprintf(buf + off, len - off, "%s%s", off ? " " : "",
				kw->name);
}

/*
 * KEYWORD VALUE pairs; a @many keyword takes the words up to the next
 * keyword of @kw.  Each keyword at most once.
 */
int xkw_parse(const struct ctl *c, int argc, char **argv, struct xkw *kw)
{
	struct xkw *k;
	char names[256];
	int i = 0;

	while (i < argc) {
		k = xkw_get(kw, argv[i]);
		if (!k) {
			xkw_names(names, sizeof(names), kw);
			return ctl_usage(c, "'%s': unknown keyword (allowed: %s)",
					 argv[i], names);
		}
		if (k->n)
			return ctl_usage(c, "%s: given twice (allowed once)",
					 k->name);
		if (++i == argc || xkw_get(kw, argv[i]))
			return ctl_usage(c, "%s: missing %s", k->name, k->arg);
		k->v = argv + i;
		do {
			k->n++;
			i++;
		} while (k->many && i < argc && !xkw_get(kw, argv[i]));
	}
	return 0;
}

static const char *const hash_words[] = { "fast", "siphash", NULL };

/* The geometry keywords (XKW_GEOM) into @g; *@given if any was. */
int xdp_geom(const struct ctl *c, struct xkw *kw, struct kbloom_xdp_geom *g,
	     bool *given)
{
	const char *cap = xkw_val(kw, "capacity"), *fpr = xkw_val(kw, "fpr");
	const char *bits = xkw_val(kw, "bits"), *k = xkw_val(kw, "hashes");
	const char *hash = xkw_val(kw, "hash"), *seed = xkw_val(kw, "seed");
	struct kbloom_xdp_geom t;
	struct kb_plan plan;
	char words[64], p[32];
	__u64 v;
	int ret;

	memset(g, 0, sizeof(*g));
	*given = cap || fpr || bits || k || hash || seed;
	if ((cap || fpr) && (bits || k))
		return ctl_usage(c, "%s: not with %s (allowed: capacity N fpr P, or bits M hashes K)",
				 bits ? "bits" : "hashes",
				 cap ? "capacity" : "fpr");
	if (cap) {
		ret = arg_u64(cap, 1, KBLOOM_M_MAX, &g->capacity);
		if (ret)
			return arg_bad_u64(c, "capacity", cap, ret, 1,
					   KBLOOM_M_MAX, "keys expected");
	}
	if (fpr) {
		ret = arg_prob(fpr, &g->fpr_pico);
		if (ret)
			return arg_bad_prob(c, "fpr", fpr, ret);
	}
	if (bits) {
		ret = arg_u64(bits, 512, KBLOOM_M_MAX, &g->m);
		if (ret)
			return arg_bad_u64(c, "bits", bits, ret, 512,
					   KBLOOM_M_MAX, "a multiple of 512");
		if (g->m % 512)
			return ctl_usage(c, "bits '%s': not a multiple of 512 (allowed: a multiple of 512, 512..%llu)",
					 bits, (unsigned long long)KBLOOM_M_MAX);
		if (!k)
			return ctl_usage(c, "bits: needs hashes K too (allowed: bits M hashes K)");
	}
	if (k) {
		ret = arg_u64(k, KBLOOM_K_MIN, KBLOOM_K_MAX, &v);
		if (ret)
			return arg_bad_u64(c, "hashes", k, ret, KBLOOM_K_MIN,
					   KBLOOM_K_MAX, NULL);
		if (!bits)
			return ctl_usage(c, "hashes: needs bits M too (allowed: bits M hashes K)");
		g->k = (__u32)v;
	}
	if (hash) {
		ret = arg_pick(hash, hash_words);
		if (ret < 0) {
			arg_words(words, sizeof(words), hash_words);
			return ctl_usage(c, "hash '%s': unknown (allowed: %s)",
					 hash, words);
		}
		g->hash_id = ret ? KBLOOM_HASH_SIPHASH13 : KBLOOM_HASH_FAST;
	}
	if (seed) {
		ret = arg_u64(seed, 0, ~0ULL, &g->seed);
		if (ret)
			return arg_bad_u64(c, "seed", seed, ret, 0, ~0ULL,
					   "decimal or 0x hex");
	}
	if (cap || fpr) {
		t = *g;
		if (!t.capacity)
			t.capacity = KBLOOM_XDP_DEF_CAPACITY;
		if (!t.fpr_pico)
			t.fpr_pico = KBLOOM_XDP_DEF_FPR_PICO;
		if (kb_plan(KBLOOM_TYPE_BLOCKED, t.capacity, t.fpr_pico, 0,
			    &plan)) {
			fmt_prob(p, sizeof(p), t.fpr_pico);
			return ctl_usage(c, "capacity %llu fpr %s: too big (allowed: a filter of at most %llu bits; lower the capacity or raise fpr)",
					 (unsigned long long)t.capacity, p,
					 (unsigned long long)KBLOOM_M_MAX);
		}
	}
	return 0;
}

/* An IPv4 or IPv6 address; with @mcast, a multicast group. */
int xdp_arg_addr(const struct ctl *c, const char *what, const char *s,
		 bool mcast, __u8 addr[16], __u32 *len)
{
	if (kbloom_xdp_parse_addr(s, addr, len))
		return ctl_usage(c, "%s '%s': not an address (allowed: %s)",
				 what, s, mcast ?
				 "an IPv4 group 224.0.0.0/4 or an IPv6 group ff00::/8" :
				 "an IPv4 or IPv6 address");
	if (mcast && (*len == 4 ? (addr[0] & 0xf0) != 0xe0 : addr[0] != 0xff))
		return ctl_usage(c, "%s '%s': not a multicast group (allowed: 224.0.0.0/4 or ff00::/8)",
				 what, s);
	return 0;
}

void xdp_addr_str(const __u8 *addr, __u32 len, char *buf, size_t n)
{
	if (!inet_ntop(len == 4 ? AF_INET : AF_INET6, addr, buf, n))
		snprintf(buf, n, "?");
}

/* "0.01%", "4.6%", "1.2e-06%" */
void fmt_rate(char *buf, size_t len, double p)
{
	p *= 100;
	if (p == 0)
		snprintf(buf, len, "0%%");
	else if (p >= 0.01)
		snprintf(buf, len, "%.2f%%", p);
	else
		snprintf(buf, len, "%.2g%%", p);
}

/* ---- network namespaces, interfaces ------------------------------------------ */

/* netns NS: a name under /run/netns or a path. */
int xdp_arg_netns(const struct ctl *c, const char *s)
{
	if (!*s || strlen(s) >= 200 ||
	    (!strchr(s, '/') && (!strcmp(s, ".") || !strcmp(s, ".."))))
		return ctl_usage(c, "netns '%s': invalid (allowed: a name in %s, as 'ip netns' makes, or a path such as /proc/PID/ns/net)",
				 s, NETNS_DIR);
	return 0;
}

static void netns_path(const char *ns, char *buf, size_t len)
{
	if (strchr(ns, '/'))
		snprintf(buf, len, "%s", ns);
	else
		snprintf(buf, len, "%s/%s", NETNS_DIR, ns);
}

/* Open netns @ns (NULL: none, *@fd = -1). */
int xdp_netns_open(const struct ctl *c, const char *ns, int *fd)
{
	char p[256];

	*fd = -1;
	if (!ns)
		return 0;
	netns_path(ns, p, sizeof(p));
	*fd = open(p, O_RDONLY | O_CLOEXEC);
	if (*fd < 0 && !c)
		return -errno;
	if (*fd < 0)
		return ctl_syserr(c, errno, errno == ENOENT ?
				  "no such network namespace" : NULL,
				  "%s: netns %s", c->cmd_path, ns);
	return 0;
}

int xdp_ns_enter(int ns_fd, int *saved)
{
	*saved = -1;
	if (ns_fd < 0)
		return 0;
	*saved = open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC);
	if (*saved < 0)
		return -errno;
	if (setns(ns_fd, CLONE_NEWNET)) {
		int err = -errno;

		close(*saved);
		*saved = -1;
		return err;
	}
	return 0;
}

void xdp_ns_leave(int saved)
{
	if (saved < 0)
		return;
	setns(saved, CLONE_NEWNET);
	close(saved);
}

static bool all_digits(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			return false;
	return true;
}

/* An interface name as a usage check: 1..15 characters, no '/' or space. */
int xdp_arg_ifname(const struct ctl *c, const char *what, const char *s)
{
	size_t i, n = strlen(s);

	if (!n || n >= IF_NAMESIZE)
		return ctl_usage(c, "%s '%s': %s (allowed: an interface name of 1..%u characters, or an ifindex)",
				 what, s, n ? "too long" : "empty",
				 IF_NAMESIZE - 1);
	for (i = 0; i < n; i++)
		if (s[i] == '/' || s[i] == ':' || isspace((unsigned char)s[i]))
			return ctl_usage(c, "%s '%s': invalid character (allowed: an interface name without '/', ':' or spaces, or an ifindex)",
					 what, s);
	return 0;
}

/*
 * Interface @s (a name, or an ifindex in digits) in the namespace @ns_fd
 * into *@ifindex; exit 3 naming @op when there is none.
 */
int xdp_port(const struct ctl *c, const char *op, int ns_fd, const char *ns,
	     const char *s, int *ifindex)
{
	char name[IF_NAMESIZE], where[96];
	int saved, ret, idx = 0;
	__u64 v;

	ret = xdp_ns_enter(ns_fd, &saved);
	if (ret)
		return ctl_syserr(c, ret, NULL, "%s: enter netns %s", op, ns);
	if (all_digits(s)) {
		if (!arg_u64(s, 1, 0x7fffffff, &v) &&
		    if_indextoname((unsigned int)v, name))
			idx = (int)v;
	} else {
		idx = (int)if_nametoindex(s);
	}
	xdp_ns_leave(saved);
	if (idx > 0) {
		*ifindex = idx;
		return 0;
	}
	if (ns)
		snprintf(where, sizeof(where), "no interface %s in netns %s",
			 s, ns);
	else
		snprintf(where, sizeof(where),
			 "no interface %s in this network namespace; netns NS?",
			 s);
	return ctl_syserr(c, ENODEV, where, "%s: %s", op, s);
}

/* The devices: none twice, each resolved in the namespace. */
int xdp_devs_resolve(struct ctl *c, const char *op, const char *netns,
		     int ndev, char **dev, int *ns_fd, int **ifindex)
{
	int i, j, ret;

	*ifindex = calloc(ndev, sizeof(int));
	if (!*ifindex)
		return ctl_syserr(c, ENOMEM, NULL, "%s", op);
	for (i = 0; i < ndev; i++) {
		ret = xdp_arg_ifname(c, "dev", dev[i]);
		if (ret)
			return ret;
		for (j = 0; j < i; j++)
			if (!strcmp(dev[i], dev[j]))
				return ctl_usage(c, "dev '%s': given twice (allowed once)",
						 dev[i]);
	}
	ret = xdp_netns_open(c, netns, ns_fd);
	for (i = 0; !ret && i < ndev; i++)
		ret = xdp_port(c, op, *ns_fd, netns, dev[i],
			       &(*ifindex)[i]);
	for (i = 0; !ret && i < ndev; i++)
		for (j = 0; j < i; j++)
			if ((*ifindex)[i] == (*ifindex)[j])
				return ctl_usage(c, "dev '%s': the same interface as '%s' (allowed once)",
						 dev[i], dev[j]);
	return ret;
}

/* The name of @ifindex in @ns_fd's namespace, "" if there is none. */
void xdp_ifname(int ns_fd, int ifindex, char *buf, size_t len)
{
	char name[IF_NAMESIZE] = "";
	int saved;

	if (!xdp_ns_enter(ns_fd, &saved)) {
		if (ifindex <= 0 || !if_indextoname(ifindex, name))
			name[0] = 0;
		xdp_ns_leave(saved);
	}
	snprintf(buf, len, "%s", name);
}

/* The name of port @ifindex for a listing: "?" if there is none. */
void xdp_port_label(int ns_fd, int ifindex, char *buf, size_t len)
{
	xdp_ifname(ns_fd, ifindex, buf, len);
	if (!buf[0])
		snprintf(buf, len, "?");
}

/* Is @ifindex attached to instance @i (its link pinned)? */
bool xdp_attached(struct kbloom_inst *i, int ifindex)
{
	return kbloom_inst_attached(i, ifindex);
}

static __u64 ns_inode(int ns_fd)
{
	struct stat st;
	int fd = ns_fd;

	if (fd < 0)
		fd = open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st))
		st.st_ino = 0;
	if (ns_fd < 0 && fd >= 0)
		close(fd);
	return st.st_ino;
}

/* ---- instances ------------------------------------------------------------ */

/*
 * An instance remembers the namespace of its interfaces (the library
 * records it when the instance is made).  Later commands without netns
 * NS find that namespace in /run/netns; a netns NS that is another one
 * is refused (one instance, one namespace).
 *
 * The namespace to use for instance @name: @given, or the recorded one
 * (*@ns NULL: ours).  With @strict, a recorded namespace that cannot be
 * found is an error; else *@ns stays NULL.
 */
int xdp_inst_ns(const struct ctl *c, const char *name, const char *given,
		bool strict, const char **ns)
{
	static char found[96];
	__u64 rec = 0, ino;
	char why[192];
	int fd, ret;

	*ns = given;
	kbloom_inst_netns(xdp_root(), name, &rec);
	if (!rec)
		return 0;
	if (given) {
		ret = xdp_netns_open(c, given, &fd);
		if (ret)
			return ret;
		ino = ns_inode(fd);
		close(fd);
		if (ino == rec)
			return 0;
		kbloom_inst_netns_name(rec, found, sizeof(found));
		snprintf(why, sizeof(why), "the interfaces of %s are in netns %s",
			 name, !strcmp(found, "-") ? "of this shell" : found);
		return ctl_syserr(c, EXDEV, why, "%s: netns %s", c->cmd_path,
				  given);
	}
	if (rec == ns_inode(-1))
		return 0;
	if (!kbloom_inst_netns_name(rec, found, sizeof(found))) {
		*ns = found;
		return 0;
	}
	if (!strict)
		return 0;
	snprintf(why, sizeof(why), "the interfaces of %s are in a namespace not in %s (inode %llu): give netns NS",
		 name, NETNS_DIR, (unsigned long long)rec);
	return ctl_syserr(c, EXDEV, why, "%s %s", c->cmd_path, name);
}

/*
 * The kinds, by the library's names: xdp_kind_of() returns one of these
 * (so that kinds compare as pointers), XK_NONE for no directory, XK_OTHER
 * for a directory whose kind marker is missing, corrupt or unknown.
 */
const char XK_MCAST[] = "mcast", XK_GATE[] = "gate", XK_PASS[] = "pass",
	   XK_IPBF[] = "ipbf", XK_MCBF[] = "mcbf", XK_OTHER[] = "unknown";

const char *xdp_kind_at(const char *root, const char *name)
{
	static const char *const kinds[] = { XK_MCAST, XK_GATE, XK_PASS,
					     XK_IPBF, XK_MCBF };
	char k[KBLOOM_INST_KIND_MAX];
	size_t i;
	int ret;

	ret = kbloom_inst_kind_read(root, name, k);
	if (ret == -ENOENT)
		return XK_NONE;
	for (i = 0; !ret && i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (!strcmp(k, kinds[i]))
			return kinds[i];
	return XK_OTHER;
}

const char *xdp_kind_of(const char *name)
{
	return xdp_kind_at(xdp_root(), name);
}

const char *xdp_kind_name(const char *k)
{
	return k ? k : "none";
}

void xdp_inst_opts(struct kbloom_inst_opts *o, const char *netns)
{
	static char path[256];

	memset(o, 0, sizeof(*o));
	o->pin_root = xdp_root();
	o->log = xdp_log;
	if (netns) {
		netns_path(netns, path, sizeof(path));
		o->netns = path;
	}
}

void xdp_opts(struct kbloom_xdp_opts *o, const char *netns)
{
	struct kbloom_inst_opts io;

	xdp_inst_opts(&io, netns);
	memset(o, 0, sizeof(*o));
	o->pin_root = io.pin_root;
	o->netns = io.netns;
	o->log = io.log;
}

/*
 * Open instance @name of kind @want (XK_NONE: mcast or gate); exit 3
 * when there is none or it is of another kind.
 */
int xdp_open(struct ctl *c, const char *name, const char *netns,
	     const char *want, struct kbloom_xdp **xp)
{
	const char *k = xdp_kind_of(name);
	struct kbloom_xdp_opts o;
	char why[128];
	int ret;

	xdp_log_reset();
	if (k == XK_NONE) {
		snprintf(why, sizeof(why), "no XDP instance named %s in %s",
			 name, xdp_root());
		return ctl_syserr(c, ENOENT, why, "%s %s", c->cmd_path, name);
	}
	if ((want && k != want) ||
	    (!want && k != XK_MCAST && k != XK_GATE)) {
		snprintf(why, sizeof(why), "%s is a%s %s instance%s%s", name,
			 k == XK_IPBF || k == XK_OTHER ? "n" : "",
			 xdp_kind_name(k), want ? ", not " : "",
			 want ? xdp_kind_name(want) : "");
		return ctl_syserr(c, EINVAL, why, "%s %s", c->cmd_path, name);
	}
	xdp_opts(&o, netns);
	ret = kbloom_xdp_open(name, &o, xp);
	if (ret)
		return xdp_fail(c, ret, "%s %s: open", c->cmd_path, name);
	return 0;
}

/* A pin of instance @x, opened; -errno. */
int xdp_pin_fd(struct kbloom_xdp *x, const char *leaf)
{
	char p[PATH_MAX];
	int fd;

	snprintf(p, sizeof(p), "%s/%s", kbloom_xdp_dir(x), leaf);
	fd = bpf_obj_get(p);
	return fd < 0 ? -errno : fd;
}
