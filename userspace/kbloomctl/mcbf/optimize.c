// SPDX-License-Identifier: GPL-2.0
/*
 * kbloomctl: mcbf optimize, the k of each class for a filter size.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mcbf.h"

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

struct optimize_args {
	__u64 m;
	struct kw_list class_l;
	__u32 kmin, kmax;
};

static const struct kw optimize_kw[] = {
	KW("bits", "M", KWT_FN, struct optimize_args, m,
	   .parse = mcbf_kw_bits, .required = true),
	KW("class", "GROUPS:P[:W]...", KWT_LIST, struct optimize_args,
	   class_l, .required = true),
	KW("kmin", "K", KWT_U32, struct optimize_args, kmin,
	   .min = KBLOOM_K_MIN, .max = KBLOOM_K_MAX),
	KW("kmax", "K", KWT_U32, struct optimize_args, kmax,
	   .min = KBLOOM_K_MIN, .max = KBLOOM_K_MAX),
	{ 0 }
};

static const struct kw_table optimize_table = { .kw = optimize_kw };

int mcbf_cmd_optimize(struct ctl *c, int argc, char **argv)
{
	struct optimize_args a = { .kmin = 1, .kmax = MCBF_OPT_KMAX };
	struct kb_mcbf_class_spec cs[KB_MCBF_CLASSES];
	struct kb_mcbf_plan plan;
	__u32 n, kmin, kmax;
	__u64 m;
	int ret;

	ret = kw_parse(c, &optimize_table, argc, argv, &a, NULL);
	if (ret)
		return ret;
	ret = class_specs(c, &a.class_l, cs, &n);
	if (ret)
		return ret;
	m = a.m;
	kmin = a.kmin;
	kmax = a.kmax;
	if (kmin > kmax)
		return ctl_usage(c, "kmin %u: above kmax %u (allowed: kmin <= kmax)",
				 kmin, kmax);
	ret = kb_mcbf_optimize(m, cs, n, kmin, kmax, &plan);
	if (ret)
		return optimize_usage(c, ret, m, kmin, kmax);
	if (ctl_quiet(c))
		return KBCTL_OK;
	if (c->set[CO_JSON])
		optimize_json(m, cs, n, &plan);
	else
		optimize_text(m, cs, n, &plan);
	return ctl_flush_stdout(c);
}
