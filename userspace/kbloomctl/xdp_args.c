// SPDX-License-Identifier: GPL-2.0
/*
 * kbloomctl: the values of the XDP commands: instance names, the geometry
 * of a blocked filter, addresses, rates.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>

#include "kbloomctl.h"
#include "libkbloom_xdp.h"
#include "uapi/kbloom_plan.h"

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
