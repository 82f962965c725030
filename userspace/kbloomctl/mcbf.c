// SPDX-License-Identifier: GPL-2.0
/*
 * kbloomctl: the Multi-Class Bloom filter path (mcbf; libkbloom_net.h,
 * libkbloom_xdp_net.h): a multicast switch whose ports keep a blocked
 * filter of their groups, each group inserted and tested with the k of
 * its class (the high nibble of IPv4 octet 1, of IPv6 byte 12):
 *
 *   mcbf optimize bits M class GROUPS:P[:W]... [kmin K] [kmax K]
 *   mcbf create NAME [ports N] [members N] [audit on|off] [netns NS]
 *   mcbf port NAME PORT [bits M] [classes LIST | class G:P[:W]...]
 *             [seed S] [hash fast|siphash] [netns NS]
 *   mcbf join|leave NAME PORT GROUP... [netns NS]
 *   mcbf ports NAME [netns NS]
 *   mcbf groups|stats NAME [PORT] [netns NS]
 *   xdp attach mcbf NAME dev IFACE... [SPEC] [mode M] [netns NS] ...
 *
 * A port's filter is built from its recorded groups (kbloom_mcbf_port_build())
 * and published with its class table in one update: join, leave and a new
 * class table rebuild it from the groups that remain, so no group of the
 * port is ever missed.  A class with k 0 is unused: its groups are never
 * forwarded on the port, and cannot join it.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <net/if.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kbloomctl.h"
#include "libkbloom_xdp_net.h"

#define MCBF_DEF_BITS	4096ULL
#define MCBF_DEF_K	4U
#define MCBF_OPT_KMAX	16U	/* the optimiser's default largest k */

static const char *const hash_words[] = { "fast", "siphash", NULL };
static const char *const onoff_words[] = { "on", "off", NULL };

/* ---- class tables --------------------------------------------------------- */

/* "1,1,5", "all:4", "-" (none used) */
static void classes_str(char *buf, size_t len, const struct kb_mcbf_classes *t)
{
	size_t off = 0;
	int c, last = -1;

	for (c = 0; c < (int)KB_MCBF_CLASSES; c++)
		if (t->k[c] != t->k[0])
			break;
	if (c == (int)KB_MCBF_CLASSES && t->k[0]) {
		snprintf(buf, len, "all:%u", t->k[0]);
		return;
	}
	for (c = 0; c < (int)KB_MCBF_CLASSES; c++)
		if (t->k[c])
			last = c;
	buf[0] = 0;
	if (last < 0)
		snprintf(buf, len, "-");
	for (c = 0; c <= last && off < len; c++)
		off += snprintf(buf + off, len - off, "%s%u", c ? "," : "",
				t->k[c]);
}

/* classes LIST: "K0,K1,..." (the rest unused) or "all:K". */
static int classes_parse(const struct ctl *c, const char *s,
			 struct kb_mcbf_classes *t)
{
	static const char allowed[] =
		"allowed: K0,K1,... the k of classes 0, 1, ... (0: unused; up to 16 values of 0..32, one at least not 0), or all:K";
	char buf[128], *p, *save = NULL;
	__u32 n = 0, used = 0, i;
	__u64 v;

	memset(t, 0, sizeof(*t));
	if (!strncmp(s, "all:", 4)) {
		if (arg_u64(s + 4, KBLOOM_K_MIN, KBLOOM_K_MAX, &v))
			return ctl_usage(c, "classes '%s': bad k (%s)", s,
					 allowed);
		for (i = 0; i < KB_MCBF_CLASSES; i++)
			t->k[i] = (__u8)v;
		return 0;
	}
	if (snprintf(buf, sizeof(buf), "%s", s) >= (int)sizeof(buf) || !*s ||
	    s[strlen(s) - 1] == ',' || strstr(s, ",,") || *s == ',')
		return ctl_usage(c, "classes '%s': not a list (%s)", s, allowed);
	for (p = strtok_r(buf, ",", &save); p; p = strtok_r(NULL, ",", &save)) {
		if (n == KB_MCBF_CLASSES)
			return ctl_usage(c, "classes '%s': more than 16 values (%s)",
					 s, allowed);
		if (arg_u64(p, 0, KBLOOM_K_MAX, &v))
			return ctl_usage(c, "classes '%s': '%s' is not a k (%s)",
					 s, p, allowed);
		t->k[n++] = (__u8)v;
		used += !!v;
	}
	if (!used)
		return ctl_usage(c, "classes '%s': no class used (%s)", s,
				 allowed);
	return 0;
}

/* class GROUPS:P[:W] */
static int class_spec_parse(const struct ctl *c, const char *s,
			    struct kb_mcbf_class_spec *cs)
{
	static const char allowed[] =
		"allowed: GROUPS:P[:W], GROUPS >= 0 groups of the class, P their presence probability 0..1, W their traffic weight >= 0 (1)";
	double v[3] = { 0, 0, 1 };
	const char *p = s;
	char *end;
	int n = 0;

	while (n < 3) {
		if (!*p || (!isdigit((unsigned char)*p) && *p != '.'))
			break;
		v[n++] = strtod(p, &end);
		if (end == p || !isfinite(v[n - 1]))
			break;
		p = end;
		if (!*p)
			break;
		if (*p != ':' || n == 3) {
			n = 0;
			break;
		}
		p++;
	}
	if (n < 2 || *p)
		return ctl_usage(c, "class '%s': not GROUPS:P[:W] (%s)", s,
				 allowed);
	if (v[1] > 1)
		return ctl_usage(c, "class '%s': presence %g out of range (%s)",
				 s, v[1], allowed);
	cs->groups = v[0];
	cs->p = v[1];
	cs->w = v[2];
	return 0;
}

/* class G:P[:W]...: the specs, at most 16. */
static int class_specs(const struct ctl *c, struct xkw *k,
		       struct kb_mcbf_class_spec *cs, __u32 *n)
{
	int i, ret;

	*n = 0;
	if (!k || !k->n)
		return 0;
	if (k->n > (int)KB_MCBF_CLASSES)
		return ctl_usage(c, "class: %d classes (allowed: 1..16, one GROUPS:P[:W] each)",
				 k->n);
	for (i = 0; i < k->n; i++) {
		ret = class_spec_parse(c, k->v[i], &cs[i]);
		if (ret)
			return ret;
	}
	*n = k->n;
	return 0;
}

static int kw_bits(const struct ctl *c, const char *s, __u64 *m)
{
	int ret;

	ret = arg_u64(s, KBLOOM_BLOCK_BITS, KBLOOM_M_MAX, m);
	if (ret)
		return arg_bad_u64(c, "bits", s, ret, KBLOOM_BLOCK_BITS,
				   KBLOOM_M_MAX, "a multiple of 512");
	if (*m % KBLOOM_BLOCK_BITS)
		return ctl_usage(c, "bits '%s': not a multiple of 512 (allowed: a multiple of 512, 512..%llu)",
				 s, (unsigned long long)KBLOOM_M_MAX);
	return 0;
}

static int optimize_usage(const struct ctl *c, int ret, __u64 m,
			  __u32 kmin, __u32 kmax)
{
	if (ret == -ERANGE)
		return ctl_usage(c, "kmin %u, kmax %u: out of range (allowed: 1 <= kmin <= kmax <= %u)",
				 kmin, kmax, KBLOOM_K_MAX);
	if (ret == -EINVAL)
		return ctl_usage(c, "class: not a plan (allowed: 1..16 classes of GROUPS >= 0, 0 <= P <= 1, W >= 0)");
	return ctl_syserr(c, ret, NULL, "%s: optimize %llu bits", c->cmd_path,
			  (unsigned long long)m);
}

/* ---- the spec of a port ----------------------------------------------------- */

/**
 * struct specarg - the filter keywords of mcbf port and xdp attach mcbf
 * @spec: the result (defaults, or the port's, with the keywords on top)
 * @given: any keyword was given
 */
struct specarg {
	struct kbloom_mcbf_spec spec;
	bool bits, classes, seed, hash, given;
	struct kb_mcbf_classes cls;
	struct kb_mcbf_class_spec cs[KB_MCBF_CLASSES];
	__u32 ncs;
};

#define XKW_MCBF_SPEC							\
	{ .name = "bits", .arg = "M" }, { .name = "classes", .arg = "LIST" }, \
	{ .name = "class", .arg = "GROUPS:P[:W]...", .many = true },	\
	{ .name = "seed", .arg = "S" },					\
	{ .name = "hash", .arg = "fast|siphash" }

static int spec_parse(const struct ctl *c, struct xkw *kw, struct specarg *a)
{
	const char *bits = xkw_val(kw, "bits"), *cls = xkw_val(kw, "classes");
	const char *seed = xkw_val(kw, "seed"), *hash = xkw_val(kw, "hash");
	char all[32];
	int ret, h;

	memset(a, 0, sizeof(*a));
	a->spec.m = MCBF_DEF_BITS;
	if (bits) {
		ret = kw_bits(c, bits, &a->spec.m);
		if (ret)
			return ret;
	}
	if (cls && xkw_get(kw, "class")->n)
		return ctl_usage(c, "classes: not with class (allowed: classes LIST, or class GROUPS:P[:W]... for the optimiser)");
	if (cls) {
		ret = classes_parse(c, cls, &a->cls);
		if (ret)
			return ret;
	}
	ret = class_specs(c, xkw_get(kw, "class"), a->cs, &a->ncs);
	if (ret)
		return ret;
	if (seed) {
		ret = arg_u64(seed, 0, ~0ULL, &a->spec.seed);
		if (ret)
			return arg_bad_u64(c, "seed", seed, ret, 0, ~0ULL,
					   "decimal or 0x hex");
	}
	if (hash) {
		h = arg_pick(hash, hash_words);
		if (h < 0) {
			arg_words(all, sizeof(all), hash_words);
			return ctl_usage(c, "hash '%s': unknown (allowed: %s)",
					 hash, all);
		}
		a->spec.hash_id = h ? KBLOOM_HASH_SIPHASH13 : KBLOOM_HASH_FAST;
	}
	a->bits = bits;
	a->classes = cls || a->ncs;
	a->seed = seed;
	a->hash = hash;
	a->given = a->bits || a->classes || a->seed || a->hash;
	return 0;
}

/*
 * The spec of a port: @a's keywords over @cur (a port's own, or NULL:
 * the defaults); class G:P[:W] runs the optimiser at the final m.
 */
static int spec_final(const struct ctl *c, struct specarg *a,
		      const struct kbloom_mcbf_port *cur,
		      struct kbloom_mcbf_spec *out)
{
	struct kb_mcbf_plan plan;
	__u32 i;
	int ret;

	memset(out, 0, sizeof(*out));
	if (cur) {
		out->m = (__u64)cur->p.nblocks * KBLOOM_BLOCK_BITS;
		out->hash_id = cur->p.hash_id;
		out->seed = cur->p.seed;
		out->classes = cur->cls;
	} else {
		out->m = MCBF_DEF_BITS;
		out->hash_id = KBLOOM_HASH_FAST;
		for (i = 0; i < KB_MCBF_CLASSES; i++)
			out->classes.k[i] = MCBF_DEF_K;
	}
	if (a->bits)
		out->m = a->spec.m;
	if (a->seed)
		out->seed = a->spec.seed;
	if (a->hash)
		out->hash_id = a->spec.hash_id;
	if (a->classes && !a->ncs)
		out->classes = a->cls;
	if (!a->ncs)
		return 0;
	ret = kb_mcbf_optimize(out->m, a->cs, a->ncs, 1, MCBF_OPT_KMAX, &plan);
	if (ret)
		return optimize_usage(c, ret, out->m, 1, MCBF_OPT_KMAX);
	memset(&out->classes, 0, sizeof(out->classes));
	for (i = 0; i < a->ncs; i++)
		out->classes.k[i] = (__u8)plan.k[i];
	return 0;
}

static __u32 group_class(const struct kbloom_addr_key *g)
{
	return g->len == KBLOOM_ADDR4_LEN ? kb_mcbf_class_v4(g->addr) :
					    kb_mcbf_class_v6(g->addr);
}

/* Every group of @g must be of a class @t uses. */
static int groups_fit(struct ctl *c, const struct netinst *m, const char *port,
		      const struct kbloom_addr_key *g, int n,
		      const struct kb_mcbf_classes *t, const char *fix)
{
	char a[64], why[192], tab[64];
	__u32 cls;
	int i;

	for (i = 0; i < n; i++) {
		cls = group_class(&g[i]);
		if (t->k[cls])
			continue;
		xdp_addr_str(g[i].addr, g[i].len, a, sizeof(a));
		classes_str(tab, sizeof(tab), t);
		snprintf(why, sizeof(why), "its class %u is unused in classes %s; %s",
			 cls, tab, fix);
		return ctl_syserr(c, EINVAL, why, "%s: %s %s", m->op, port, a);
	}
	return 0;
}

/* The recorded groups of a port, malloc()ed (one more slot spare). */
static int port_groups(struct ctl *c, const struct netinst *m, int ifindex,
		       struct kbloom_addr_key **g, int *n, int extra)
{
	int cnt;

	*g = NULL;
	*n = 0;
	cnt = kbloom_mcbf_groups(m->n, ifindex, NULL, 0);
	if (cnt < 0)
		return xdp_fail(c, cnt, "%s: groups", m->op);
	*g = calloc(cnt + extra + 1, sizeof(**g));
	if (!*g)
		return ctl_syserr(c, ENOMEM, NULL, "%s", m->op);
	cnt = kbloom_mcbf_groups(m->n, ifindex, *g, cnt);
	if (cnt < 0) {
		free(*g);
		*g = NULL;
		return xdp_fail(c, cnt, "%s: groups", m->op);
	}
	*n = cnt;
	return 0;
}

/* ---- mcbf optimize ------------------------------------------------------------ */

/* The group addresses of class @cls: 239.C*16.0.0/12, ff3e::C000:0/100. */
static void class_ranges(__u32 cls, char *v4, size_t l4, char *v6, size_t l6)
{
	__u8 a[16] = { 0xff, 0x3e };
	size_t n;

	snprintf(v4, l4, "239.%u.0.0/12", cls << 4);
	a[KB_MCBF_V6_CLASS_BYTE] = (__u8)(cls << 4);
	xdp_addr_str(a, 16, v6, l6);
	n = strlen(v6);
	snprintf(v6 + n, l6 - n, "/100");
}

static void optimize_text(__u64 m, const struct kb_mcbf_class_spec *cs,
			  __u32 n, const struct kb_mcbf_plan *p)
{
	struct kb_mcbf_classes t = { 0 };
	char v4[32], v6[32], tab[64];
	__u32 i;

	printf("%llu bits, %u classes: expected fill %.4f, expected leakage %.6g\n",
	       (unsigned long long)m, n, p->rho, p->leak);
	printf("one k for every class: k %u, expected leakage %.6g\n",
	       p->k_uniform, p->leak_uniform);
	printf("%5s %10s %8s %8s %3s  %s\n", "CLASS", "GROUPS", "PRESENCE",
	       "WEIGHT", "K", "GROUP ADDRESSES");
	for (i = 0; i < n; i++) {
		class_ranges(i, v4, sizeof(v4), v6, sizeof(v6));
		printf("%5u %10g %8g %8g %3u  %s %s\n", i, cs[i].groups,
		       cs[i].p, cs[i].w, p->k[i], v4, v6);
		t.k[i] = (__u8)p->k[i];
	}
	classes_str(tab, sizeof(tab), &t);
	printf("classes %s\n", tab);
}

static void optimize_json(__u64 m, const struct kb_mcbf_class_spec *cs,
			  __u32 n, const struct kb_mcbf_plan *p)
{
	struct kb_mcbf_classes t = { 0 };
	char tab[64];
	struct json j;
	__u32 i;

	for (i = 0; i < n; i++)
		t.k[i] = (__u8)p->k[i];
	classes_str(tab, sizeof(tab), &t);
	json_init(&j, stdout);
	json_obj(&j);
	json_ku64(&j, "bits", m);
	json_kdouble(&j, "rho", p->rho);
	json_kdouble(&j, "leak", p->leak);
	json_ku64(&j, "k_uniform", p->k_uniform);
	json_kdouble(&j, "leak_uniform", p->leak_uniform);
	json_kstr(&j, "classes", tab);
	json_key(&j, "plan");
	json_arr(&j);
	for (i = 0; i < n; i++) {
		json_obj(&j);
		json_ku64(&j, "class", i);
		json_kdouble(&j, "groups", cs[i].groups);
		json_kdouble(&j, "p", cs[i].p);
		json_kdouble(&j, "w", cs[i].w);
		json_ku64(&j, "k", p->k[i]);
		json_obj_end(&j);
	}
	json_arr_end(&j);
	json_obj_end(&j);
	json_end(&j);
}

static int cmd_optimize(struct ctl *c, int argc, char **argv)
{
	struct xkw kw[] = {
		{ .name = "bits", .arg = "M" },
		{ .name = "class", .arg = "GROUPS:P[:W]...", .many = true },
		{ .name = "kmin", .arg = "K" }, { .name = "kmax", .arg = "K" },
		{ 0 }
	};
	struct kb_mcbf_class_spec cs[KB_MCBF_CLASSES];
	__u64 m, kmin = 1, kmax = MCBF_OPT_KMAX;
	struct kb_mcbf_plan plan;
	__u32 n;
	int ret;

	ret = xkw_parse(c, argc, argv, kw);
	if (ret)
		return ret;
	if (!xkw_val(kw, "bits") || !xkw_get(kw, "class")->n)
		return ctl_usage(c, "missing %s (usage: %s %s %s)",
				 xkw_val(kw, "bits") ? "class GROUPS:P[:W]..." :
				 "bits M", KBCTL_NAME, c->cmd_path,
				 c->cmd->synopsis);
	ret = kw_bits(c, xkw_val(kw, "bits"), &m);
	ret = ret ?: class_specs(c, xkw_get(kw, "class"), cs, &n);
	if (!ret && xkw_val(kw, "kmin") &&
	    arg_u64(xkw_val(kw, "kmin"), KBLOOM_K_MIN, KBLOOM_K_MAX, &kmin))
		ret = arg_bad_u64(c, "kmin", xkw_val(kw, "kmin"), -ERANGE,
				  KBLOOM_K_MIN, KBLOOM_K_MAX, NULL);
	if (!ret && xkw_val(kw, "kmax") &&
	    arg_u64(xkw_val(kw, "kmax"), KBLOOM_K_MIN, KBLOOM_K_MAX, &kmax))
		ret = arg_bad_u64(c, "kmax", xkw_val(kw, "kmax"), -ERANGE,
				  KBLOOM_K_MIN, KBLOOM_K_MAX, NULL);
	if (ret)
		return ret;
	if (kmin > kmax)
		return ctl_usage(c, "kmin %llu: above kmax %llu (allowed: kmin <= kmax)",
				 (unsigned long long)kmin,
				 (unsigned long long)kmax);
	ret = kb_mcbf_optimize(m, cs, n, (__u32)kmin, (__u32)kmax, &plan);
	if (ret)
		return optimize_usage(c, ret, m, (__u32)kmin, (__u32)kmax);
	if (ctl_quiet(c))
		return KBCTL_OK;
	if (c->set[CO_JSON])
		optimize_json(m, cs, n, &plan);
	else
		optimize_text(m, cs, n, &plan);
	return ctl_flush_stdout(c);
}

/* ---- mcbf create ------------------------------------------------------------- */

static int mcbf_make(struct ctl *c, const char *name, const char *netns,
		     int ns_fd, __u32 ports, __u32 members, int audit,
		     const char *op, struct kbloom_net **np)
{
	struct kbloom_net_opts o;
	int ret;

	memset(&o, 0, sizeof(o));
	o.pin_root = xdp_root();
	o.netns = netns;
	o.log = xdp_log;
	o.max_ports = ports;
	o.max_members = members;
	ret = kbloom_net_create(name, KBLOOM_NET_MCBF, &o, np);
	if (ret)
		return xdp_fail(c, ret, "%s: create", op);
	ret = audit ? 0 : kbloom_mcbf_set_flags(*np, 0);
	if (!ret)
		return 0;
	ret = xdp_fail(c, ret, "%s: create", op);
	kbloom_net_destroy(*np);
	*np = NULL;
	return ret;
}

static int create_args(const struct ctl *c, struct xkw *kw, __u64 *ports,
		       __u64 *members, int *audit)
{
	const char *s;
	char all[16];
	int ret;

	*ports = 0;
	*members = 0;
	*audit = 1;
	s = xkw_val(kw, "ports");
	if (s) {
		ret = arg_u64(s, 1, 4096, ports);
		if (ret)
			return arg_bad_u64(c, "ports", s, ret, 1, 4096,
					   "ports of the switch");
	}
	s = xkw_val(kw, "members");
	if (s) {
		ret = arg_u64(s, 1, 1U << 24, members);
		if (ret)
			return arg_bad_u64(c, "members", s, ret, 1, 1U << 24,
					   "memberships, all ports together");
	}
	s = xkw_get(kw, "audit") ? xkw_val(kw, "audit") : NULL;
	if (s) {
		*audit = arg_pick(s, onoff_words);
		if (*audit < 0) {
			arg_words(all, sizeof(all), onoff_words);
			return ctl_usage(c, "audit '%s': unknown (allowed: %s)",
					 s, all);
		}
		*audit = !*audit;
	}
	return 0;
}

static int cmd_create(struct ctl *c, int argc, char **argv)
{
	struct xkw kw[] = {
		{ .name = "ports", .arg = "N" }, { .name = "members", .arg = "N" },
		{ .name = "audit", .arg = "on|off" },
		{ .name = "netns", .arg = "NS" }, { 0 }
	};
	const char *name = argv[0], *netns;
	struct kbloom_net *n = NULL;
	__u64 ports, members;
	int audit, ns_fd = -1, ret;
	char op[160];

	ret = xdp_arg_name(c, name);
	ret = ret ?: xkw_parse(c, argc - 1, argv + 1, kw);
	ret = ret ?: create_args(c, kw, &ports, &members, &audit);
	ret = ret ?: xkw_netns(c, kw, &netns);
	if (ret)
		return ret;
	snprintf(op, sizeof(op), "%s %s", c->cmd_path, name);
	xdp_log_reset();
	if (xdp_kind_of(name) != XK_NONE) {
		if (xdp_kind_of(name) != XK_MCBF)
			return ctl_syserr(c, EEXIST, "an instance of another kind",
					  "%s", op);
		if (c->set[CO_EXIST])
			return KBCTL_OK;
		return ctl_syserr(c, EEXIST, "-exist ignores it", "%s", op);
	}
	ret = xdp_netns_open(c, netns, &ns_fd);
	ret = ret ?: mcbf_make(c, name, netns, ns_fd, (__u32)ports,
			       (__u32)members, audit, op, &n);
	if (!ret)
		xdp_notes(c);
	kbloom_net_close(n);
	if (ns_fd >= 0)
		close(ns_fd);
	return ret;
}

/* ---- mcbf port ----------------------------------------------------------------- */

/* Build (or rebuild) port @ifindex with @spec and its recorded groups. */
static int port_rebuild(struct ctl *c, struct netinst *m, const char *port,
			int ifindex, const struct kbloom_mcbf_spec *spec)
{
	struct kbloom_addr_key *g = NULL;
	int n = 0, ret;

	ret = port_groups(c, m, ifindex, &g, &n, 0);
	ret = ret ?: groups_fit(c, m, port, g, n, &spec->classes,
				"mcbf leave it first");
	if (!ret) {
		ret = kbloom_mcbf_port_build(m->n, ifindex, spec, g, n);
		if (ret)
			ret = xdp_fail(c, ret, "%s: %s", m->op, port);
	}
	free(g);
	return ret;
}

static int cmd_port(struct ctl *c, int argc, char **argv)
{
	struct xkw kw[] = { XKW_MCBF_SPEC, { .name = "netns", .arg = "NS" },
			    { 0 } };
	struct netinst m = { .ns_fd = -1 };
	struct kbloom_mcbf_port cur;
	struct kbloom_mcbf_spec spec;
	struct specarg a;
	const char *netns;
	int ifindex, ret;
	bool is_port;

	ret = xdp_arg_name(c, argv[0]);
	ret = ret ?: xkw_parse(c, argc - 2, argv + 2, kw);
	ret = ret ?: spec_parse(c, kw, &a);
	ret = ret ?: xkw_netns(c, kw, &netns);
	if (ret)
		return ret;
	ret = net_inst_open(c, &m, argv[0], netns, XK_MCBF);
	ret = ret ?: xdp_port(c, m.op, m.ns_fd, m.netns, argv[1], &ifindex);
	if (ret)
		goto out;
	is_port = !kbloom_mcbf_port_get(m.n, ifindex, &cur);
	ret = spec_final(c, &a, is_port ? &cur : NULL, &spec);
	ret = ret ?: port_rebuild(c, &m, argv[1], ifindex, &spec);
	if (!ret)
		xdp_notes(c);
out:
	net_inst_close(&m);
	return ret;
}

/* ---- mcbf join, leave ------------------------------------------------------------ */

static int group_cmp(const void *x, const void *y)
{
	const struct kbloom_addr_key *a = x, *b = y;

	if (a->len != b->len)
		return a->len < b->len ? -1 : 1;
	return memcmp(a->addr, b->addr, a->len);
}

static int group_find(const struct kbloom_addr_key *g, int n,
		      const struct kbloom_addr_key *k)
{
	int i;

	for (i = 0; i < n; i++)
		if (!group_cmp(&g[i], k))
			return i;
	return -1;
}

/* The groups of the command line: multicast, none twice. */
static int args_groups(struct ctl *c, int argc, char **argv,
		       struct kbloom_addr_key **out)
{
	struct kbloom_addr_key *g;
	int i, ret;

	g = calloc(argc, sizeof(*g));
	if (!g)
		return ctl_syserr(c, ENOMEM, NULL, "%s", c->cmd_path);
	for (i = 0; i < argc; i++) {
		ret = xdp_arg_addr(c, "GROUP", argv[i], true, g[i].addr,
				   &g[i].len);
		if (!ret && group_find(g, i, &g[i]) >= 0)
			ret = ctl_usage(c, "GROUP '%s': given twice (allowed once)",
					argv[i]);
		if (ret) {
			free(g);
			return ret;
		}
	}
	*out = g;
	return 0;
}

/* The port's groups with @add joined (or left), into @g, @n. */
static int member_apply(struct ctl *c, struct netinst *m, const char *port,
			struct kbloom_addr_key *g, int *n,
			const struct kbloom_addr_key *add, int nadd, bool join)
{
	char a[64];
	int i, at;

	for (i = 0; i < nadd; i++) {
		at = group_find(g, *n, &add[i]);
		if (join && at < 0) {
			g[(*n)++] = add[i];
			continue;
		}
		if (!join && at >= 0) {
			g[at] = g[--(*n)];
			continue;
		}
		if (c->set[CO_EXIST])
			continue;
		xdp_addr_str(add[i].addr, add[i].len, a, sizeof(a));
		return ctl_syserr(c, join ? EEXIST : ENOENT, join ?
				  "joined already; -exist ignores it" :
				  "not joined; -exist ignores it",
				  "%s: %s %s", m->op, port, a);
	}
	return 0;
}

static int member_cmd(struct ctl *c, int argc, char **argv, bool join)
{
	struct kbloom_addr_key *add = NULL, *g = NULL;
	struct netinst m = { .ns_fd = -1 };
	struct kbloom_mcbf_port cur;
	const char *netns;
	int ifindex, n = 0, ret;

	ret = net_take_netns(c, &argc, argv, &netns);
	ret = ret ?: xdp_arg_name(c, argv[0]);
	if (ret)
		return ret;
	if (argc < 3)
		return ctl_usage(c, "missing %s (usage: %s %s %s)",
				 argc < 2 ? "PORT" : "GROUP", KBCTL_NAME,
				 c->cmd_path, c->cmd->synopsis);
	ret = args_groups(c, argc - 2, argv + 2, &add);
	if (ret)
		return ret;
	ret = net_inst_open(c, &m, argv[0], netns, XK_MCBF);
	ret = ret ?: net_inst_port(c, &m, argv[1], &ifindex);
	if (ret)
		goto out;
	ret = kbloom_mcbf_port_get(m.n, ifindex, &cur);
	if (ret) {
		ret = xdp_fail(c, ret, "%s: %s", m.op, argv[1]);
		goto out;
	}
	if (join)
		ret = groups_fit(c, &m, argv[1], add, argc - 2, &cur.cls,
				 "mcbf port NAME PORT classes LIST gives it a k");
	ret = ret ?: port_groups(c, &m, ifindex, &g, &n, argc - 2);
	ret = ret ?: member_apply(c, &m, argv[1], g, &n, add, argc - 2, join);
	if (ret)
		goto out;
	/* the library applies the change under its lock: never lost */
	ret = kbloom_mcbf_port_update(m.n, ifindex, add, argc - 2,
				      (join ? 0 : KBLOOM_MCBF_UPD_LEAVE) |
				      (c->set[CO_EXIST] ?
				       KBLOOM_MCBF_UPD_EXIST : 0));
	if (ret)
		ret = xdp_fail(c, ret, "%s: %s", m.op, argv[1]);
	else
		xdp_notes(c);
out:
	net_inst_close(&m);
	free(add);
	free(g);
	return ret;
}

static int cmd_join(struct ctl *c, int argc, char **argv)
{
	return member_cmd(c, argc, argv, true);
}

static int cmd_leave(struct ctl *c, int argc, char **argv)
{
	return member_cmd(c, argc, argv, false);
}

/* ---- mcbf ports, groups, stats ---------------------------------------------------- */

static void port_json(struct json *j, struct netinst *m, __u32 id,
		      const struct kbloom_mcbf_port *p,
		      const struct kbloom_mcbf_fill *f, int groups)
{
	char ifn[IF_NAMESIZE], tab[64];
	__u32 c;

	net_port_name(m, id, ifn, sizeof(ifn));
	classes_str(tab, sizeof(tab), &p->cls);
	json_obj(j);
	json_key(j, "port");
	if (strcmp(ifn, "?"))
		json_str(j, ifn);
	else
		json_null(j);
	json_ku64(j, "ifindex", id);
	json_kbool(j, "attached", net_attached(m->n, id));
	json_ku64(j, "m", f->m);
	json_kstr(j, "hash", hash_name(p->p.hash_id));
	json_ku64(j, "seed", p->p.seed);
	json_kstr(j, "classes", tab);
	json_ku64(j, "groups", groups > 0 ? groups : 0);
	json_ku64(j, "ones", f->ones);
	json_kdouble(j, "occupancy", f->m ? (double)f->ones / f->m : 0);
	json_key(j, "class");
	json_arr(j);
	for (c = 0; c < KB_MCBF_CLASSES; c++) {
		if (!p->cls.k[c])
			continue;
		json_obj(j);
		json_ku64(j, "class", c);
		json_ku64(j, "k", p->cls.k[c]);
		json_kdouble(j, "fpr_now", f->fpr[c]);
		json_obj_end(j);
	}
	json_arr_end(j);
	json_obj_end(j);
}

static void port_text(struct netinst *m, __u32 id,
		      const struct kbloom_mcbf_port *p,
		      const struct kbloom_mcbf_fill *f, int groups)
{
	char ifn[IF_NAMESIZE], tab[64], occ[24];

	net_port_name(m, id, ifn, sizeof(ifn));
	classes_str(tab, sizeof(tab), &p->cls);
	snprintf(occ, sizeof(occ), "%.2f%%",
		 f->m ? 100.0 * f->ones / f->m : 0.0);
	printf("%-16s %7u %-8s %9llu %-7s %6d %9s  %s\n", ifn, id,
	       net_attached(m->n, id) ? "yes" : "no",
	       (unsigned long long)f->m, hash_name(p->p.hash_id),
	       groups > 0 ? groups : 0, occ, tab);
}

static int cmd_ports(struct ctl *c, int argc, char **argv)
{
	struct netinst m = { .ns_fd = -1 };
	struct kbloom_mcbf_fill f;
	struct kbloom_mcbf_port p;
	__u32 *ids = NULL, n = 0, i;
	struct json j;
	int g, ret;

	ret = net_list_open(c, argc, argv, 1, XK_MCBF, &m, &ids, &n);
	if (ret || ctl_quiet(c))
		goto out;
	if (!ctl_list_begin(c, &j))
		printf("%-16s %7s %-8s %9s %-7s %6s %9s  %s\n", "PORT",
		       "IFINDEX", "ATTACHED", "M", "HASH", "GROUPS",
		       "OCCUPANCY", "CLASSES (K OF CLASS 0,1,...)");
	for (i = 0; i < n; i++) {
		ret = kbloom_mcbf_port_get(m.n, ids[i], &p);
		ret = ret ?: kbloom_mcbf_port_fill(m.n, ids[i], &f);
		if (ret == -ENOENT)
			continue;	/* removed meanwhile */
		if (ret) {
			ret = xdp_fail(c, ret, "%s: port %u", m.op, ids[i]);
			goto out;
		}
		g = kbloom_mcbf_groups(m.n, ids[i], NULL, 0);
		if (c->set[CO_JSON])
			port_json(&j, &m, ids[i], &p, &f, g);
		else
			port_text(&m, ids[i], &p, &f, g);
	}
	ret = ctl_list_end(c, &j);
out:
	free(ids);
	net_inst_close(&m);
	return ret;
}

static int cmd_groups(struct ctl *c, int argc, char **argv)
{
	struct kbloom_addr_key *g = NULL;
	struct netinst m = { .ns_fd = -1 };
	char ifn[IF_NAMESIZE];
	__u32 *ids = NULL, n = 0, i;
	struct json j;
	int cnt, ret;

	ret = net_list_open(c, argc, argv, 2, XK_MCBF, &m, &ids, &n);
	if (ret || ctl_quiet(c))
		goto out;
	ctl_list_begin(c, &j);
	for (i = 0; i < n; i++) {
		free(g);
		ret = port_groups(c, &m, ids[i], &g, &cnt, 0);
		if (ret)
			goto out;
		net_port_name(&m, ids[i], ifn, sizeof(ifn));
		net_groups_one(c, &j, ifn, ids[i], g, cnt, group_class);
	}
	ret = ctl_list_end(c, &j);
out:
	free(g);
	free(ids);
	net_inst_close(&m);
	return ret;
}

static void stats_json(struct json *j, const char *ifn, __u32 id,
		       const struct kbloom_mcbf_stats *st)
{
	__u64 nonmember = st->tx_filtered + st->tx_leaked;

	json_obj(j);
	json_kstr(j, "port", ifn);
	json_ku64(j, "ifindex", id);
	json_ku64(j, "rx_packets", st->rx_packets);
	json_ku64(j, "rx_mcast", st->rx_mcast);
	json_ku64(j, "rx_control", st->rx_control);
	json_ku64(j, "rx_other", st->rx_other);
	json_ku64(j, "rx_malformed", st->rx_malformed);
	json_ku64(j, "tx_seen", st->tx_seen);
	json_ku64(j, "tx_forwarded", st->tx_forwarded);
	json_ku64(j, "tx_filtered", st->tx_filtered);
	json_ku64(j, "tx_unused", st->tx_unused);
	json_ku64(j, "tx_leaked", st->tx_leaked);
	json_ku64(j, "tx_errors", st->tx_errors);
	json_key(j, "leak_rate");
	if (nonmember)
		json_double(j, (double)st->tx_leaked / nonmember);
	else
		json_null(j);
	json_obj_end(j);
}

static void stats_text(const char *ifn, const struct kbloom_mcbf_stats *st)
{
	__u64 nonmember = st->tx_filtered + st->tx_leaked;
	char leak[24];

	if (nonmember)
		fmt_rate(leak, sizeof(leak), (double)st->tx_leaked / nonmember);
	else
		snprintf(leak, sizeof(leak), "-");
	printf("%-10s %8llu %8llu %8llu %9llu %8llu %6llu %6llu %6llu %9s\n",
	       ifn, (unsigned long long)st->rx_packets,
	       (unsigned long long)st->rx_mcast,
	       (unsigned long long)st->tx_seen,
	       (unsigned long long)st->tx_forwarded,
	       (unsigned long long)st->tx_filtered,
	       (unsigned long long)st->tx_unused,
	       (unsigned long long)st->tx_leaked,
	       (unsigned long long)st->tx_errors, leak);
}

static int cmd_stats(struct ctl *c, int argc, char **argv)
{
	struct netinst m = { .ns_fd = -1 };
	struct kbloom_mcbf_stats st;
	char ifn[IF_NAMESIZE];
	__u32 *ids = NULL, n = 0, i;
	struct json j;
	int ret;

	ret = net_list_open(c, argc, argv, 2, XK_MCBF, &m, &ids, &n);
	if (ret || ctl_quiet(c))
		goto out;
	if (!ctl_list_begin(c, &j)) {
		printf("%-10s %8s %8s %8s %9s %8s %6s %6s %6s %9s\n", "PORT",
		       "RX", "RX_MCAST", "TX_SEEN", "FORWARDED", "FILTERED",
		       "UNUSED", "LEAKED", "ERRORS", "LEAK_RATE");
	}
	for (i = 0; i < n; i++) {
		ret = kbloom_mcbf_stats(m.n, ids[i], &st);
		if (ret == -ENOENT)
			continue;
		if (ret) {
			ret = xdp_fail(c, ret, "%s: port %u", m.op, ids[i]);
			goto out;
		}
		net_port_name(&m, ids[i], ifn, sizeof(ifn));
		if (c->set[CO_JSON])
			stats_json(&j, ifn, ids[i], &st);
		else
			stats_text(ifn, &st);
	}
	ret = ctl_list_end(c, &j);
out:
	free(ids);
	net_inst_close(&m);
	return ret;
}

/* ---- xdp attach mcbf ----------------------------------------------------------- */

struct mattach {
	const char *name;
	const char *netns;
	int ns_fd;
	int mode;
	int ndev;
	char **dev;
	int *ifindex;
	bool *made;		/* ports this command made */
	struct specarg a;
	__u64 ports, members;
	int audit;
	bool create_opts;
};

static int mattach_args(struct ctl *c, struct mattach *t, int argc,
			char **argv)
{
	struct xkw kw[] = {
		{ .name = "dev", .arg = "IFACE...", .many = true },
		{ .name = "mode", .arg = "native|generic|auto" },
		{ .name = "netns", .arg = "NS" }, XKW_MCBF_SPEC,
		{ .name = "ports", .arg = "N" }, { .name = "members", .arg = "N" },
		{ .name = "audit", .arg = "on|off" }, XKW_FOREIGN, { 0 }
	};
	static const char *const foreign[] = {
		"capacity", "fpr", "hashes", "keys", "policy", "match",
		"variant", "module-filter", NULL
	};
	int ret;

	t->name = argv[0];
	ret = xdp_arg_name(c, t->name);
	ret = ret ?: xkw_parse(c, argc - 1, argv + 1, kw);
	ret = ret ?: net_foreign_kw(c, kw, foreign, "mcbf",
				    "bits M, classes LIST or class GROUPS:P[:W]..., seed S, hash fast|siphash, mode, netns, ports N, members N, audit on|off");
	if (ret)
		return ret;
	t->dev = xkw_get(kw, "dev")->v;
	t->ndev = xkw_get(kw, "dev")->n;
	if (!t->ndev)
		return ctl_usage(c, "missing dev IFACE... (usage: %s %s mcbf NAME dev IFACE... [bits M] [classes LIST | class G:P[:W]...] [seed S] [hash fast|siphash] [mode native|generic|auto] [ports N] [members N] [audit on|off] [netns NS])",
				 KBCTL_NAME, c->cmd_path);
	t->netns = xkw_val(kw, "netns");
	ret = net_arg_devs(c, t->ndev, t->dev);
	ret = ret ?: net_arg_mode(c, xkw_val(kw, "mode"), &t->mode);
	ret = ret ?: spec_parse(c, kw, &t->a);
	ret = ret ?: create_args(c, kw, &t->ports, &t->members, &t->audit);
	if (!ret && t->netns)
		ret = xdp_arg_netns(c, t->netns);
	t->create_opts = xkw_val(kw, "ports") || xkw_val(kw, "members") ||
			 xkw_val(kw, "audit");
	return ret;
}

/* New ports get their (empty) filters; existing ones keep theirs. */
static int mattach_ports(struct ctl *c, struct mattach *t,
			 struct kbloom_net *n, const char *op)
{
	struct kbloom_mcbf_spec spec;
	int i, ret;

	for (i = 0; i < t->ndev; i++) {
		if (net_attached(n, t->ifindex[i]) && !c->set[CO_EXIST])
			return ctl_syserr(c, EEXIST, "already attached; -exist ignores it",
					  "%s: dev %s", op, t->dev[i]);
		if (net_is_port(n, t->ifindex[i]) && t->a.given &&
		    !net_attached(n, t->ifindex[i]))
			return ctl_syserr(c, EEXIST, "a port already: its filter stays; mcbf port changes it",
					  "%s: dev %s", op, t->dev[i]);
	}
	ret = spec_final(c, &t->a, NULL, &spec);
	for (i = 0; !ret && i < t->ndev; i++) {
		if (net_is_port(n, t->ifindex[i]))
			continue;
		ret = kbloom_mcbf_port_build(n, t->ifindex[i], &spec, NULL, 0);
		if (ret)
			ret = xdp_fail(c, ret, "%s: dev %s: port", op,
				       t->dev[i]);
		else
			t->made[i] = true;
	}
	return ret;
}

static int mattach_run(struct ctl *c, struct mattach *t, const char *op)
{
	struct kbloom_net_opts o;
	struct kbloom_net *n = NULL;
	const char *have = xdp_kind_of(t->name);
	bool created = false;
	int i, ret;

	if (have != XK_NONE && have != XK_MCBF)
		return ctl_syserr(c, EEXIST, have == XK_OTHER ?
				  "a directory that is not an instance" :
				  "an instance of another kind", "%s", op);
	if (have != XK_NONE && t->create_opts)
		return ctl_syserr(c, EEXIST, "ports, members and audit apply when the instance is made",
				  "%s", op);
	if (have == XK_NONE) {
		ret = mcbf_make(c, t->name, t->netns, t->ns_fd, (__u32)t->ports,
				(__u32)t->members, t->audit, op, &n);
		created = !ret;
	} else {
		memset(&o, 0, sizeof(o));
		o.pin_root = xdp_root();
		o.netns = t->netns;
		o.log = xdp_log;
		ret = kbloom_net_open(t->name, &o, &n);
		if (ret)
			ret = xdp_fail(c, ret, "%s: open", op);
	}
	if (ret)
		return ret;
	ret = mattach_ports(c, t, n, op);
	ret = ret ?: net_attach_all(c, n, t->ndev, t->dev, t->ifindex,
				    t->mode, op);
	if (ret && created) {
		kbloom_net_destroy(n);
		return ret;
	}
	for (i = 0; ret && i < t->ndev; i++)
		if (t->made[i])
			kbloom_mcbf_port_del(n, t->ifindex[i]);
	kbloom_net_close(n);
	return ret;
}

int mcbf_xdp_attach(struct ctl *c, int argc, char **argv)
{
	struct mattach t = { .ns_fd = -1 };
	char op[160];
	int ret;

	ret = mattach_args(c, &t, argc, argv);
	if (ret)
		return ret;
	snprintf(op, sizeof(op), "%s mcbf %s", c->cmd_path, t.name);
	t.ifindex = calloc(t.ndev, sizeof(*t.ifindex));
	t.made = calloc(t.ndev, sizeof(*t.made));
	if (!t.ifindex || !t.made) {
		ret = ctl_syserr(c, ENOMEM, NULL, "%s", op);
		goto out;
	}
	xdp_log_reset();
	if (xdp_kind_of(t.name) == XK_MCBF) {
		ret = xdp_inst_ns(c, t.name, t.netns, true, &t.netns);
		if (ret)
			goto out;
	}
	ret = xdp_netns_open(c, t.netns, &t.ns_fd);
	ret = ret ?: net_devs_resolve(c, op, t.ns_fd, t.netns, t.ndev, t.dev,
				      t.ifindex);
	ret = ret ?: mattach_run(c, &t, op);
	if (!ret)
		xdp_notes(c);
out:
	if (t.ns_fd >= 0)
		close(t.ns_fd);
	free(t.ifindex);
	free(t.made);
	return ret;
}

/* ---- the table ------------------------------------------------------------------- */

static const char optimize_help[] =
"The k of each class that minimises the expected leakage of a port's filter\n"
"of M bits (a multiple of 512): sum over classes of GROUPS (1 - P) W\n"
"rho^k, rho the expected fill, with one class GROUPS:P[:W] per class 0, 1,\n"
"...: GROUPS groups of the class the port may be asked about, P the\n"
"probability that one is joined behind the port, W its traffic weight (1).\n"
"Likely groups get fewer probes, unlikely ones more.  kmin and kmax bound k\n"
"(1..16).  The last line is the classes LIST for mcbf port and xdp attach\n"
"mcbf; each class's group addresses are shown (IPv4: the high nibble of the\n"
"second octet, 239.C*16.x.y; IPv6: of byte 12, ff3e::C000:0/100 with C\n"
"in hex).\n";

static const char port_help[] =
"Builds port PORT's filter (a port is made if PORT is not one yet) from its\n"
"groups with the new settings, and publishes the filter and its class table\n"
"in one update.  bits M (4096, a multiple of 512); classes LIST, the k of\n"
"classes 0, 1, ... (K0,K1,... with 0 for an unused class, the classes after\n"
"the list unused) or all:K (every class; the default is all:4); or class\n"
"GROUPS:P[:W]... to have the optimiser choose them at M bits (see mcbf\n"
"optimize); seed S (0) and hash fast|siphash (fast) of the filter.  What is\n"
"not given stays as it is.  A joined group of a class the new table leaves\n"
"unused is refused.\n";

static const struct ctl_cmd mcbf_sub[] = {
	{
		.name = "optimize",
		.synopsis = "bits M class GROUPS:P[:W]... [kmin K] [kmax K]",
		.summary = "the k of each class from presence probabilities (a class plan)",
		.help = optimize_help,
		.max_args = CTL_ARGS_ANY,
		.opts = CTL_OPT(CO_JSON),
		.run = cmd_optimize,
	},
	{
		.name = "create",
		.synopsis = "NAME [ports N] [members N] [audit on|off] [netns NS]",
		.summary = "make an mcbf switch without ports (then mcbf port, xdp attach mcbf)",
		.help =
"Instance NAME is pinned in /sys/fs/bpf/kbloom/NAME, for at most N ports\n"
"(64) and N memberships (65536, all ports together).  audit on (default):\n"
"the egress programs count copies of groups a port has not joined (LEAKED\n"
"in mcbf stats).  netns NS: the namespace of its interfaces, remembered.\n"
"xdp attach mcbf makes the instance too.  -exist: an mcbf instance NAME is\n"
"not an error.\n",
		.min_args = 1,
		.max_args = CTL_ARGS_ANY,
		.opts = CTL_OPT(CO_EXIST),
		.run = cmd_create,
	},
	{
		.name = "port",
		.synopsis = "NAME PORT [bits M] [classes LIST | class GROUPS:P[:W]...] [seed S] [hash fast|siphash] [netns NS]",
		.summary = "a port's filter: size, class table, seed (rebuilt from its groups)",
		.help = port_help,
		.min_args = 2,
		.max_args = CTL_ARGS_ANY,
		.run = cmd_port,
	},
	{
		.name = "join",
		.synopsis = "NAME PORT GROUP... [netns NS]",
		.summary = "port PORT joins groups: their packets are forwarded on it",
		.help =
"GROUP is an IPv4 (224.0.0.0/4) or IPv6 (ff00::/8) group; its class is the\n"
"high nibble of the second IPv4 octet or of IPv6 byte 12, and must be one\n"
"the port uses.  The port's filter is rebuilt with the groups and swapped\n"
"in whole: all the groups or none.  -exist: a group joined already is not\n"
"an error.\n",
		.min_args = 1,
		.max_args = CTL_ARGS_ANY,
		.opts = CTL_OPT(CO_EXIST),
		.run = cmd_join,
	},
	{
		.name = "leave",
		.synopsis = "NAME PORT GROUP... [netns NS]",
		.summary = "port PORT leaves groups (its filter is rebuilt without them)",
		.help =
"-exist: a group not joined is not an error.\n",
		.min_args = 1,
		.max_args = CTL_ARGS_ANY,
		.opts = CTL_OPT(CO_EXIST),
		.run = cmd_leave,
	},
	{
		.name = "ports",
		.synopsis = "NAME [netns NS]",
		.summary = "the ports: m, hash, groups, occupancy, class table",
		.help =
"-j adds, for each used class, its k and fpr_now: the false-positive rate\n"
"the filter predicts for a group of that class that has not joined.\n",
		.min_args = 1,
		.max_args = 3,
		.opts = CTL_OPT(CO_JSON),
		.run = cmd_ports,
	},
	{
		.name = "groups",
		.synopsis = "NAME [PORT] [netns NS]",
		.summary = "the groups each port (or PORT) has joined, with their class",
		.min_args = 1,
		.max_args = 4,
		.opts = CTL_OPT(CO_JSON),
		.run = cmd_groups,
	},
	{
		.name = "stats",
		.synopsis = "NAME [PORT] [netns NS]",
		.summary = "per-port counters: forwarded, filtered, unused class, leaked",
		.help =
"RX: frames received on the port; RX_MCAST: multicast data frames it\n"
"broadcast to the other ports; TX_SEEN: copies offered to the port,\n"
"FORWARDED (the filter may hold the group at its class's k) + FILTERED\n"
"(dropped; UNUSED of them: a group of a class the port does not use) +\n"
"ERRORS; LEAKED: forwarded copies of groups the port has not joined (false\n"
"positives, counted with audit on).  LEAK_RATE = LEAKED / (LEAKED +\n"
"FILTERED).\n",
		.min_args = 1,
		.max_args = 4,
		.opts = CTL_OPT(CO_JSON),
		.run = cmd_stats,
	},
	{ 0 }
};

const struct ctl_cmd mcbf_cmds[] = {
	{
		.name = "mcbf",
		.synopsis = "optimize|create|port|join|leave|ports|groups|stats ...",
		.summary = "Multi-Class Bloom filter switch: class plans, ports, groups",
		.sub = mcbf_sub,
	},
	{ 0 }
};
