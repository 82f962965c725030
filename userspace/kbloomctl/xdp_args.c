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

const char *const xdp_hash_words[] = { "fast", "siphash", NULL };
/* in the order of enum kbloom_xdp_mode */
const char *const xdp_mode_words[] = { "auto", "native", "generic", NULL };
const __u32 xdp_hash_ids[] = { KBLOOM_HASH_FAST, KBLOOM_HASH_SIPHASH13 };

/*
 * The geometry rows (KW_GEOM) as parsed into @g: consistent, and sizable
 * by the planner; *@any if one was given.
 */
int xdp_geom_check(const struct ctl *c, const struct kw_table *t,
		   __u64 given, struct kbloom_xdp_geom *g, bool *any)
{
	bool cap = kw_has(t, given, "capacity"), fpr = kw_has(t, given, "fpr");
	bool bits = kw_has(t, given, "bits"), k = kw_has(t, given, "hashes");
	struct kbloom_xdp_geom d = *g;
	struct kb_plan plan;
	char p[32];

	*any = cap || fpr || bits || k || kw_has(t, given, "hash") ||
	       kw_has(t, given, "seed");
	if ((cap || fpr) && (bits || k))
		return ctl_usage(c, "%s: not with %s (allowed: capacity N fpr P, or bits M hashes K)",
				 bits ? "bits" : "hashes",
				 cap ? "capacity" : "fpr");
	if (bits && g->m % 512)
		return ctl_usage(c, "bits '%llu': not a multiple of 512 (allowed: a multiple of 512, 512..%llu)",
				 (unsigned long long)g->m,
				 (unsigned long long)KBLOOM_M_MAX);
	if (bits != k)
		return ctl_usage(c, "%s: needs %s too (allowed: bits M hashes K)",
				 bits ? "bits" : "hashes",
				 bits ? "hashes K" : "bits M");
	if (!cap && !fpr)
		return 0;
	if (!d.capacity)
		d.capacity = KBLOOM_XDP_DEF_CAPACITY;
	if (!d.fpr_pico)
		d.fpr_pico = KBLOOM_XDP_DEF_FPR_PICO;
	if (!kb_plan(KBLOOM_TYPE_BLOCKED, d.capacity, d.fpr_pico, 0, &plan))
		return 0;
	fmt_prob(p, sizeof(p), d.fpr_pico);
	return ctl_usage(c, "capacity %llu fpr %s: too big (allowed: a filter of at most %llu bits; lower the capacity or raise fpr)",
			 (unsigned long long)d.capacity, p,
			 (unsigned long long)KBLOOM_M_MAX);
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
