// SPDX-License-Identifier: GPL-2.0
/*
 * kbloomctl mcbf: class tables (classes LIST, class GROUPS:P[:W]) and the
 * filter spec of a port (bits, classes, seed, hash), checked against its
 * groups.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mcbf.h"

/* ---- class tables --------------------------------------------------------- */

/* "1,1,5", "all:4", "-" (none used) */
void classes_str(char *buf, size_t len, const struct kb_mcbf_classes *t)
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
int mcbf_kw_classes(const struct ctl *c, const struct kw *k, const char *s,
		    void *field)
{
	struct kb_mcbf_classes *t = field;
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
int class_specs(const struct ctl *c, const struct kw_list *l,
		struct kb_mcbf_class_spec *cs, __u32 *n)
{
	int i, ret;

	*n = 0;
	if (l->n > (int)KB_MCBF_CLASSES)
		return ctl_usage(c, "class: %d classes (allowed: 1..16, one GROUPS:P[:W] each)",
				 l->n);
	for (i = 0; i < l->n; i++) {
		ret = class_spec_parse(c, l->v[i], &cs[i]);
		if (ret)
			return ret;
	}
	*n = l->n;
	return 0;
}

/* bits M: a multiple of 512 */
int mcbf_kw_bits(const struct ctl *c, const struct kw *k, const char *s,
		 void *field)
{
	__u64 *m = field;
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

int optimize_usage(const struct ctl *c, int ret, __u64 m,
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

/* Before the KW_MCBF_SPEC rows are parsed. */
void spec_init(struct specarg *a)
{
	memset(a, 0, sizeof(*a));
	a->spec.m = MCBF_DEF_BITS;
}

/* After: which were given, and the class specs. */
int spec_check(const struct ctl *c, const struct kw_table *t, __u64 given,
	       struct specarg *a)
{
	bool cls = kw_has(t, given, "classes");
	int ret;

	if (cls && a->class_l.n)
		return ctl_usage(c, "classes: not with class (allowed: classes LIST, or class GROUPS:P[:W]... for the optimiser)");
	ret = class_specs(c, &a->class_l, a->cs, &a->ncs);
	if (ret)
		return ret;
	a->bits = kw_has(t, given, "bits");
	a->classes = cls || a->ncs;
	a->seed = kw_has(t, given, "seed");
	a->hash = kw_has(t, given, "hash");
	a->given = a->bits || a->classes || a->seed || a->hash;
	return 0;
}

/*
 * The spec of a port: @a's keywords over @cur (a port's own, or NULL:
 * the defaults); class G:P[:W] runs the optimiser at the final m.
 */
int spec_final(const struct ctl *c, struct specarg *a,
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

__u32 group_class(const struct kbloom_addr_key *g)
{
	return g->len == KBLOOM_ADDR4_LEN ? kb_mcbf_class_v4(g->addr) :
					    kb_mcbf_class_v6(g->addr);
}

/* Every group of @g must be of a class @t uses. */
int groups_fit(struct ctl *c, const struct netinst *m, const char *port,
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
int port_groups(struct ctl *c, const struct netinst *m, int ifindex,
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
