// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom_exp: experiment parameters, their checks and the scheme names.
 *
 * Every refusal is one line "WHAT: WHY" naming the parameter and the
 * allowed range, so that kbloomctl can print it as it is.  The ranges:
 * those of libkbloom_exp.h (KB_EXP_*_MAX), of the topologies
 * (libkbloom_net.h) and of the filters (M a multiple of each per-port
 * scheme's step: 512 for the blocked layouts, 64 for standard).
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "scheme.h"

/* The schemes without ops; the per-port ones are named by their ops. */
static const char *const scheme_names[KB_EXP_NSCHEMES] = {
	[KB_EXP_EXACT] = "exact",
	[KB_EXP_LIPSIN1] = "lipsin1",
	[KB_EXP_LIPSIN8] = "lipsin8",
	[KB_EXP_MSBF] = "msbf",
	[KB_EXP_YESNO] = "yesno",
};

const char *kb_exp_scheme_name(__u32 scheme)
{
	const struct exp_scheme_ops *ops = exp_scheme(scheme);

	if (ops)
		return ops->name;
	return scheme < KB_EXP_NSCHEMES && scheme_names[scheme] ?
	       scheme_names[scheme] : "?";
}

int kb_exp_scheme_parse(const char *name)
{
	__u32 i;

	for (i = 0; i < KB_EXP_NSCHEMES; i++)
		if (name && !strcmp(name, kb_exp_scheme_name(i)))
			return i;
	return -EINVAL;
}

void kb_exp_params_init(struct kb_exp_params *p)
{
	static const __u64 sweep[] = { 8192, 16384, 32768, 65536, 131072 };
	__u32 i;

	memset(p, 0, sizeof(*p));
	p->topo = KB_EXP_TOPO_FAT_TREE;
	p->ft_k = 16;
	p->groups = 10000;
	p->dist = KB_EXP_DIST_UNIFORM;
	p->size_min = 1;
	p->size_max = 0;
	p->zipf_s = 1.0;
	p->nbits = sizeof(sweep) / sizeof(sweep[0]);
	for (i = 0; i < p->nbits; i++)
		p->bits[i] = sweep[i];
	p->nclass = 4;
	p->mcbf_type = KBLOOM_TYPE_BLOCKED;
	p->lipsin_k = KB_IPBF_K_DEFAULT;
	p->fill_limit = KB_IPBF_FILL_DEFAULT;
	p->msbf_start_fp = 1.0;
	p->schemes = KB_EXP_CLASSIC;
	p->seed = 1;
}

__attribute__((format(printf, 3, 4)))
static int why_set(char *why, size_t len, const char *fmt, ...)
{
	va_list ap;

	if (why && len) {
		va_start(ap, fmt);
		vsnprintf(why, len, fmt, ap);
		va_end(ap);
	}
	return -ERANGE;
}

/* The host count of the built-in topologies (0 for a file). */
static __u64 params_hosts(const struct kb_exp_params *p)
{
	switch (p->topo) {
	case KB_EXP_TOPO_FAT_TREE:
		return (__u64)p->ft_k * p->ft_k * p->ft_k / 4;
	case KB_EXP_TOPO_LEAF_SPINE:
		return (__u64)p->ls_leaves * p->ls_hosts;
	}
	return 0;
}

static int check_topo(const struct kb_exp_params *p, char *why, size_t len)
{
	switch (p->topo) {
	case KB_EXP_TOPO_FAT_TREE:
		if (p->ft_k < 2 || p->ft_k > KB_EXP_FT_K_MAX || p->ft_k % 2)
			return why_set(why, len,
				       "fat-tree k %u: out of range (an even number, 2..%u)",
				       p->ft_k, KB_EXP_FT_K_MAX);
		return 0;
	case KB_EXP_TOPO_LEAF_SPINE:
		if (p->ls_leaves < 1 || p->ls_leaves > 4096)
			return why_set(why, len, "leaf-spine leaves %u: out of range (1..4096)",
				       p->ls_leaves);
		if (p->ls_spines < 1 || p->ls_spines > 256)
			return why_set(why, len, "leaf-spine spines %u: out of range (1..256)",
				       p->ls_spines);
		if (p->ls_hosts < 1 || p->ls_hosts > 256)
			return why_set(why, len,
				       "leaf-spine hosts per leaf %u: out of range (1..256)",
				       p->ls_hosts);
		if ((__u64)p->ls_leaves * p->ls_hosts < 2)
			return why_set(why, len,
				       "leaf-spine: %u host: at least 2 are needed (a source and a receiver)",
				       p->ls_leaves * p->ls_hosts);
		if ((__u64)p->ls_leaves * p->ls_hosts > 65536)
			return why_set(why, len,
				       "leaf-spine: %llu hosts: at most 65536",
				       (unsigned long long)p->ls_leaves *
				       p->ls_hosts);
		return 0;
	case KB_EXP_TOPO_FILE:
		if (!p->topo_file || !*p->topo_file)
			return why_set(why, len, "topology file: none given");
		return 0;
	}
	return why_set(why, len, "topology: unknown kind %u", p->topo);
}

static int check_sizes(const struct kb_exp_params *p, __u64 nhosts,
		       char *why, size_t len)
{
	__u64 max = p->size_max;

	if (p->groups < 1 || p->groups > KB_EXP_GROUPS_MAX)
		return why_set(why, len, "groups %u: out of range (1..%u)",
			       p->groups, KB_EXP_GROUPS_MAX);
	if (p->dist < KB_EXP_DIST_UNIFORM || p->dist > KB_EXP_DIST_FIXED)
		return why_set(why, len, "sizes: unknown distribution %u",
			       p->dist);
	if (p->size_min < 1)
		return why_set(why, len,
			       "sizes: smallest group %u: a group has at least 1 receiver",
			       p->size_min);
	if (p->dist == KB_EXP_DIST_FIXED)
		max = p->size_min;
	if (max && p->dist != KB_EXP_DIST_FIXED && max < p->size_min)
		return why_set(why, len,
			       "sizes: largest group %llu is smaller than the smallest %u",
			       (unsigned long long)max, p->size_min);
	if (p->dist == KB_EXP_DIST_ZIPF &&
	    !(p->zipf_s > 0.0 && p->zipf_s <= 10.0))
		return why_set(why, len,
			       "sizes: zipf exponent %g: out of range (0 < s <= 10)",
			       p->zipf_s);
	if (!nhosts)
		return 0;
	if (nhosts < 2)
		return why_set(why, len,
			       "topology: %llu host: at least 2 are needed (a source and a receiver)",
			       (unsigned long long)nhosts);
	if (max > nhosts || p->size_min > nhosts)
		return why_set(why, len,
			       "sizes: a group of %llu receivers is larger than the %llu hosts of the topology",
			       (unsigned long long)(max > p->size_min ? max : p->size_min),
			       (unsigned long long)nhosts);
	return 0;
}

static int check_bits(const struct kb_exp_params *p, char *why, size_t len)
{
	__u64 step, m;
	__u32 i;
	int ref = !p->ref_bits;

	if (!(p->schemes & KB_EXP_PORT_FILTERS))
		return 0;
	for (i = 0; i < KB_EXP_NSCHEMES; i++)
		if ((p->schemes & KB_EXP_PORT_FILTERS & KB_EXP_S(i)) &&
		    !exp_scheme(i))	/* an enum value without its line */
			return why_set(why, len,
				       "schemes: scheme %u has no ops (scheme_list.h)",
				       i);
	if (p->nbits < 1 || p->nbits > KB_EXP_BITS_MAX)
		return why_set(why, len, "bits: %u sizes given (1..%d)",
			       p->nbits, KB_EXP_BITS_MAX);
	step = exp_scheme_step(p, p->schemes);
	for (i = 0; i < p->nbits; i++) {
		m = p->bits[i];
		if (!m)
			return why_set(why, len,
				       "bits: 0: a filter needs at least one word (%llu..%llu bits per port)",
				       (unsigned long long)step,
				       (unsigned long long)KB_EXP_PORT_BITS_MAX);
		if (m < step || m > KB_EXP_PORT_BITS_MAX || m % step)
			return why_set(why, len,
				       "bits %llu: out of range (a multiple of %llu, %llu..%llu bits per port%s)",
				       (unsigned long long)m,
				       (unsigned long long)step,
				       (unsigned long long)step,
				       (unsigned long long)KB_EXP_PORT_BITS_MAX,
				       step == 512 ? "; blocked and MC-BF filters are whole 512-bit blocks" : "");
		if (i && m <= p->bits[i - 1])
			return why_set(why, len,
				       "bits: %llu after %llu: the sizes must be ascending and distinct",
				       (unsigned long long)m,
				       (unsigned long long)p->bits[i - 1]);
		if (m == p->ref_bits)
			ref = 1;
	}
	if (!ref)
		return why_set(why, len,
			       "ref-bits %llu: not one of the swept sizes",
			       (unsigned long long)p->ref_bits);
	if (p->k > KBLOOM_K_MAX)
		return why_set(why, len,
			       "hashes %u: out of range (1..%u, or auto)", p->k,
			       KBLOOM_K_MAX);
	return 0;
}

static int check_classes(const struct kb_exp_params *p, char *why,
			 size_t len)
{
	__u32 i, given = 0;

	if (!(p->schemes & KB_EXP_S(KB_EXP_MCBF)))
		return 0;
	if (p->nclass < 1 || p->nclass > KB_MCBF_CLASSES)
		return why_set(why, len, "classes %u: out of range (1..%u)",
			       p->nclass, KB_MCBF_CLASSES);
	for (i = 0; i < p->nclass; i++)
		given += p->presence[i] != 0.0;
	if (given && given != p->nclass)
		return why_set(why, len,
			       "presence: %u of %u class probabilities given (all or none)",
			       given, p->nclass);
	for (i = 0; given && i < p->nclass; i++) {
		if (!(p->presence[i] > 0.0 && p->presence[i] < 1.0))
			return why_set(why, len,
				       "presence %g: out of range (0 < p < 1)",
				       p->presence[i]);
		if (i && p->presence[i] == p->presence[i - 1])
			return why_set(why, len,
				       "presence %g: given twice (one probability per class)",
				       p->presence[i]);
	}
	if (p->mcbf_type != KBLOOM_TYPE_BLOCKED &&
	    p->mcbf_type != KBLOOM_TYPE_STANDARD)
		return why_set(why, len,
			       "mcbf-type: %u: blocked or standard", p->mcbf_type);
	return 0;
}

static int check_in_packet(const struct kb_exp_params *p, char *why,
			   size_t len)
{
	if (!(p->schemes & KB_EXP_IN_PACKET))
		return 0;
	if (p->lipsin_k < KB_IPBF_K_MIN || p->lipsin_k > KB_IPBF_K_MAX)
		return why_set(why, len,
			       "lipsin-k %u: out of range (%u..%u bits per link ID)",
			       p->lipsin_k, KB_IPBF_K_MIN, KB_IPBF_K_MAX);
	if (p->fill_limit < 1 || p->fill_limit > KB_IPBF_ZF_BITS)
		return why_set(why, len,
			       "fill-limit %u: out of range (1..%u one bits of the zFilter)",
			       p->fill_limit, KB_IPBF_ZF_BITS);
	if (p->fill_limit < p->lipsin_k)
		return why_set(why, len,
			       "fill-limit %u: below lipsin-k %u, no link ID would fit",
			       p->fill_limit, p->lipsin_k);
	if (p->hop_slack > 64)
		return why_set(why, len, "hop-slack %u: out of range (0..64)",
			       p->hop_slack);
	if (!(p->msbf_start_fp >= 0.0 && p->msbf_start_fp <= 1000.0))
		return why_set(why, len,
			       "msbf-start %g: out of range (0..1000; 0: default)",
			       p->msbf_start_fp);
	return 0;
}

int kb_exp_params_check(const struct kb_exp_params *p, __u32 nhosts,
			char *why, size_t len)
{
	__u64 hosts = nhosts ? nhosts : params_hosts(p);
	int ret;

	if (!p)
		return -EINVAL;
	if (!p->schemes || (p->schemes & ~KB_EXP_ALL))
		return why_set(why, len, "schemes: none selected");
	ret = check_topo(p, why, len);
	if (!ret)
		ret = check_sizes(p, hosts, why, len);
	if (!ret)
		ret = check_bits(p, why, len);
	if (!ret)
		ret = check_classes(p, why, len);
	if (!ret)
		ret = check_in_packet(p, why, len);
	if (!ret && p->threads > KB_EXP_THREADS_MAX)
		ret = why_set(why, len, "threads %u: out of range (1..%u)",
			      p->threads, KB_EXP_THREADS_MAX);
	return ret;
}
