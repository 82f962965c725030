// SPDX-License-Identifier: GPL-2.0
/*
 * kbloomctl: the mcast switch of deletable port filters ("xdp attach
 * mcast ... filter deletable", KBLOOM_XDP_VARIANT_DELETABLE): the size
 * arguments it takes (capacity N fpr P or bits M hashes K, region-bits S),
 * and its numbers in mcast ports and mcast stats: the leaves, those
 * deleted in place, the rebuilds, and the share of leaves that needed a
 * rebuild next to the one formula (2) of uapi/kbloom_var_deletable.h
 * predicts.
 */
#include <net/if.h>
#include <stdio.h>
#include <string.h>

#include "kbloomctl.h"
#include "libkbloom_xdp.h"

/* The size of a deletable port: kb_del_plan() or kb_del_shape_init(). */
static int del_size_check(const struct ctl *c, bool bits,
			  const struct kbloom_xdp_geom *g, __u64 s)
{
	struct kbloom_xdp_geom d = *g;
	struct kb_shape sh;
	char p[32];

	if (bits && (g->m % 64 || g->m % s))
		return ctl_usage(c, "bits '%llu': not a multiple of 64 and of region-bits %llu (allowed: such a multiple, %llu..%llu)",
				 (unsigned long long)g->m,
				 (unsigned long long)s,
				 (unsigned long long)KBLOOM_M_MIN,
				 (unsigned long long)KBLOOM_M_MAX);
	if (bits)
		return kb_del_shape_init(&sh, g->k, g->m, s) ?
		       ctl_usage(c, "bits %llu hashes %u: not a deletable filter (allowed: bits %llu..%llu, hashes %u..%u)",
				 (unsigned long long)g->m, g->k,
				 (unsigned long long)KBLOOM_M_MIN,
				 (unsigned long long)KBLOOM_M_MAX,
				 KBLOOM_K_MIN, KBLOOM_K_MAX) : 0;
	if (!d.capacity)
		d.capacity = KBLOOM_XDP_DEF_CAPACITY;
	if (!d.fpr_pico)
		d.fpr_pico = KBLOOM_XDP_DEF_FPR_PICO;
	if (!kb_del_plan(d.capacity, d.fpr_pico, s, &sh))
		return 0;
	fmt_prob(p, sizeof(p), d.fpr_pico);
	return ctl_usage(c, "capacity %llu fpr %s: too big for a deletable filter (allowed: at most %llu bits; lower the capacity or raise fpr)",
			 (unsigned long long)d.capacity, p,
			 (unsigned long long)KBLOOM_M_MAX);
}

/*
 * xdp attach mcast ... filter deletable: SIZE as for blocked filters but
 * bits M a multiple of 64 and of the region bits, region-bits S a power
 * of two (default 4).
 */
int mcast_del_geom_check(const struct ctl *c, const struct kw_table *t,
			 __u64 given, struct kbloom_xdp_geom *g, bool *any)
{
	bool cap = kw_has(t, given, "capacity"), fpr = kw_has(t, given, "fpr");
	bool bits = kw_has(t, given, "bits"), k = kw_has(t, given, "hashes");
	bool rb = kw_has(t, given, "region-bits");
	__u64 s = rb ? g->region_bits : KB_DEL_REGION_DEFAULT;

	*any = cap || fpr || bits || k || rb || kw_has(t, given, "hash") ||
	       kw_has(t, given, "seed");
	if ((cap || fpr) && (bits || k))
		return ctl_usage(c, "%s: not with %s (allowed: capacity N fpr P, or bits M hashes K)",
				 bits ? "bits" : "hashes",
				 cap ? "capacity" : "fpr");
	if (bits != k)
		return ctl_usage(c, "%s: needs %s too (allowed: bits M hashes K)",
				 bits ? "bits" : "hashes",
				 bits ? "hashes K" : "bits M");
	if (!kb_pow2(s) || s > KB_DEL_REGION_MAX)
		return ctl_usage(c, "region-bits '%llu': not a power of two (allowed: 1, 2, 4, ... %u)",
				 (unsigned long long)s, KB_DEL_REGION_MAX);
	return del_size_check(c, bits, g, s);
}

/*
 * Port @id's numbers in the fields of a blocked filter's (mcast ports):
 * m body bits, k, ones and occupancy of the body, n_est, fpr_now.
 */
int mcast_del_filter_info(struct kbloom_xdp *x, __u32 id,
			  struct kbloom_xdp_filter_info *fi)
{
	struct kbloom_xdp_del_info di;
	const struct kbloom_del_params *p = &di.params;
	int ret;

	ret = kbloom_xdp_del_info(x, id, &di);
	if (ret)
		return ret;
	memset(fi, 0, sizeof(*fi));
	fi->params.type = KBLOOM_TYPE_DELETABLE;
	fi->params.k = p->shape.k;
	fi->params.hash_id = p->hash_id;
	fi->params.seed = p->seed;
	fi->params.nblocks = p->nblocks;
	fi->params.slot = p->slot;
	fi->params.gen = p->gen;
	fi->params.inserted = p->inserted;
	fi->params.capacity = p->capacity;
	fi->params.fpr_pico = p->fpr_pico;
	fi->m = p->shape.m;
	fi->ones = di.ones;
	fi->occupancy_ppm = p->shape.m ? di.ones * 1000000 / p->shape.m : 0;
	fi->n_est = di.n_est;
	fi->fpr_now_pico = di.fpr_now_pico;
	return 0;
}

/* The leaves of port @id in the port's object of mcast stats -j. */
void mcast_del_stats_json(struct json *j, struct kbloom_xdp *x, __u32 id)
{
	struct kbloom_xdp_del_info di;
	const struct kbloom_del_params *p = &di.params;

	if (kbloom_xdp_variant(x) != KBLOOM_XDP_VARIANT_DELETABLE ||
	    kbloom_xdp_del_info(x, id, &di))
		return;
	json_ku64(j, "leaves", p->leaves);
	json_ku64(j, "in_place", p->deleted);
	json_ku64(j, "rebuilds", p->rebuilds);
	json_ku64(j, "region_bits", p->shape.buckets);
	json_ku64(j, "collided", di.collided);
	json_key(j, "rebuild_share");
	if (p->leaves)
		json_double(j, (double)p->rebuilds / p->leaves);
	else
		json_null(j);
	json_key(j, "rebuild_share_predicted");
	if (p->leaves)
		json_double(j, p->predicted_nano / 1e9 / p->leaves);
	else
		json_null(j);
}

/* The leaves table of mcast stats, under the counters' (text). */
void mcast_del_stats_text(struct kbloom_xdp *x, int ns_fd, const __u32 *ids,
			  __u32 n)
{
	struct kbloom_xdp_del_info di;
	const struct kbloom_del_params *p = &di.params;
	char ifn[IF_NAMESIZE], sh[24], pr[24];
	__u32 i;

	if (kbloom_xdp_variant(x) != KBLOOM_XDP_VARIANT_DELETABLE)
		return;
	printf("%-10s %8s %9s %9s %14s %10s\n", "PORT", "LEAVES", "IN_PLACE",
	       "REBUILDS", "REBUILD_SHARE", "PREDICTED");
	for (i = 0; i < n; i++) {
		if (kbloom_xdp_del_info(x, ids[i], &di))
			continue;
		xdp_port_label(ns_fd, ids[i], ifn, sizeof(ifn));
		snprintf(sh, sizeof(sh), "-");
		snprintf(pr, sizeof(pr), "-");
		if (p->leaves) {
			fmt_rate(sh, sizeof(sh),
				 (double)p->rebuilds / p->leaves);
			fmt_rate(pr, sizeof(pr),
				 p->predicted_nano / 1e9 / p->leaves);
		}
		printf("%-10s %8llu %9llu %9llu %14s %10s\n", ifn,
		       (unsigned long long)p->leaves,
		       (unsigned long long)p->deleted,
		       (unsigned long long)p->rebuilds, sh, pr);
	}
}
