// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom_exp: the results of a model run as CSV files.
 *
 * summary.csv (per scheme and M: every metric of struct kb_exp_metrics,
 * with the rates it divides out: leakage tx_off / tx_tree, fp_rate
 * cand_fp / cand, the predictions over cand, bytes per packet and per
 * group, memory per switch and per switch port; lost deliveries and
 * their share of the receivers, first-order false negatives, probes per
 * packet, the share of port tests resolved without an exact lookup),
 * by_size.csv (the same per bucket of group
 * size), switches.csv (per switch and run: off-tree transmissions,
 * candidates, matches), fpr.csv (measured against predicted rates),
 * groups.csv (per group: size, source, class, tree) and params.csv (the
 * parameters as run).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "out_int.h"

struct csv {
	FILE *f;
	char path[4096];
};

static int csv_open(struct kb_exp *x, struct csv *c, const char *dir,
		    const char *name, const char *header)
{
	snprintf(c->path, sizeof(c->path), "%s/%s", dir, name);
	c->f = fopen(c->path, "we");
	if (!c->f)
		return -errno;
	fprintf(c->f, "%s\n", header);
	(void)x;
	return 0;
}

static int csv_close(struct csv *c)
{
	int err = 0;

	if (ferror(c->f))
		err = -EIO;
	if (fclose(c->f) && !err)
		err = -errno;
	c->f = NULL;
	return err;
}

/*
 * The share of the first-order port tests answered without an exact
 * lookup (1 for the filters, below 1 for complement); 0 without port tests.
 */
static double resolved(const struct kb_exp_metrics *m)
{
	return m->port_tests > 0 ? 1 - m->exact_tests / m->port_tests : 0.0;
}

static const char sum_header[] =
	"scheme,bits,k_mean,groups,packets,refused,tx_tree,tx_off,leak_ratio,"
	"tree_links,cand,cand_fp,fp_rate,fp_pred_rate,fp_pred_fill_rate,"
	"delivered,dup,leaked_hosts,looped,hdr_bytes_per_packet,"
	"hdr_bytes_per_group,mem_bytes,mem_bytes_per_switch,"
	"fp_per_switch_mean,fp_per_switch_max,lost,lost_ratio,fn_links,"
	"bytes_per_port,probes_per_packet,resolved_share,cpu_seconds";

static void sum_row(const struct kb_exp *x, FILE *f, const struct kb_exp_run *r)
{
	const struct kb_exp_metrics *m = &r->m;
	const struct kb_topo *t = kb_exp_topo(x);
	double mean;
	__u64 max;

	exp_out_sw_stats(x, r, &mean, &max);
	fprintf(f, "%s,%llu,%.4f,%llu,%llu,%llu,%llu,%llu,%.8g,%llu,%llu,%llu,"
		"%.8g,%.8g,%.8g,%llu,%llu,%llu,%llu,%.4f,%.4f,%llu,%.2f,%.4f,%llu,"
		"%llu,%.8g,%llu,%.2f,%.4f,%.6f,%.3f\n",
		kb_exp_scheme_name(r->scheme), (unsigned long long)r->bits,
		ratio(m->k_sum, m->k_ports), (unsigned long long)m->groups,
		(unsigned long long)m->packets, (unsigned long long)m->refused,
		(unsigned long long)m->tx_tree, (unsigned long long)m->tx_off,
		kb_exp_leak(m), (unsigned long long)m->tree_links,
		(unsigned long long)m->cand, (unsigned long long)m->cand_fp,
		ratio(m->cand_fp, m->cand), ratio(m->fp_pred, m->cand),
		ratio(m->fp_pred_fill, m->cand),
		(unsigned long long)m->delivered, (unsigned long long)m->dup,
		(unsigned long long)m->leaked_hosts,
		(unsigned long long)m->looped,
		ratio(m->hdr_bytes, m->packets), ratio(m->hdr_bytes, m->groups),
		(unsigned long long)m->mem_bytes,
		ratio(m->mem_bytes, t->nnodes - t->nhosts), mean,
		(unsigned long long)max, (unsigned long long)m->lost,
		ratio(m->lost, m->lost + m->delivered),
		(unsigned long long)m->fn_links,
		ratio(m->mem_bytes, exp_out_switch_ports(x)),
		ratio(m->probes, m->packets),
		resolved(m), r->seconds);
}

static const char by_header[] =
	"scheme,bits,size_lo,size_hi,size_mid,groups,packets,tx_tree,tx_off,"
	"leak_ratio,hdr_bytes_per_packet,hdr_bytes_per_group,cand,cand_fp,"
	"fp_rate";

static void by_rows(FILE *f, const struct kb_exp_run *r)
{
	const struct kb_exp_metrics *m;
	__u32 b, lo, hi;

	for (b = 0; b < KB_EXP_BUCKETS; b++) {
		m = &r->b[b];
		if (!m->groups)
			continue;
		lo = 1U << b;
		hi = (1U << (b + 1)) - 1;
		fprintf(f, "%s,%llu,%u,%u,%.2f,%llu,%llu,%llu,%llu,%.8g,%.4f,%.4f,%llu,%llu,%.8g\n",
			kb_exp_scheme_name(r->scheme),
			(unsigned long long)r->bits, lo, hi, sqrt((double)lo * hi),
			(unsigned long long)m->groups,
			(unsigned long long)m->packets,
			(unsigned long long)m->tx_tree,
			(unsigned long long)m->tx_off, kb_exp_leak(m),
			ratio(m->hdr_bytes, m->packets),
			ratio(m->hdr_bytes, m->groups),
			(unsigned long long)m->cand,
			(unsigned long long)m->cand_fp,
			ratio(m->cand_fp, m->cand));
	}
}

static int write_summary(struct kb_exp *x, const char *dir)
{
	struct csv c;
	__u32 i;
	int err;

	err = csv_open(x, &c, dir, "summary.csv", sum_header);
	if (err)
		return err;
	for (i = 0; i < kb_exp_nruns(x); i++)
		sum_row(x, c.f, kb_exp_get_run(x, i));
	err = csv_close(&c);
	if (err)
		return err;
	err = csv_open(x, &c, dir, "by_size.csv", by_header);
	if (err)
		return err;
	for (i = 0; i < kb_exp_nruns(x); i++)
		by_rows(c.f, kb_exp_get_run(x, i));
	return csv_close(&c);
}

static int write_switches(struct kb_exp *x, const char *dir)
{
	const struct kb_topo *t = kb_exp_topo(x);
	const struct kb_exp_run *r;
	const __u32 *sw;
	struct csv c;
	__u32 i, j, n;
	int err;

	err = csv_open(x, &c, dir, "switches.csv",
		       "scheme,bits,switch,level,ports,fp_decisions,cand,cand_fp");
	if (err)
		return err;
	sw = kb_exp_switches(x, &n);
	for (i = 0; i < kb_exp_nruns(x); i++) {
		r = kb_exp_get_run(x, i);
		for (j = 0; j < n; j++)
			fprintf(c.f, "%s,%llu,%u,%u,%u,%llu,%llu,%llu\n",
				kb_exp_scheme_name(r->scheme),
				(unsigned long long)r->bits, sw[j],
				t->nodes[sw[j]].level, t->nodes[sw[j]].nports,
				(unsigned long long)r->sw_fp[j],
				(unsigned long long)r->sw_cand[j],
				(unsigned long long)r->sw_cand_fp[j]);
	}
	return csv_close(&c);
}

static int write_fpr(struct kb_exp *x, const char *dir)
{
	const struct kb_exp_run *r;
	struct csv c;
	__u32 i;
	int err;

	err = csv_open(x, &c, dir, "fpr.csv",
		       "scheme,bits,cand,cand_fp,measured,predicted,predicted_fill,measured_over_predicted");
	if (err)
		return err;
	for (i = 0; i < kb_exp_nruns(x); i++) {
		r = kb_exp_get_run(x, i);
		if (r->scheme == KB_EXP_EXACT)
			continue;
		fprintf(c.f, "%s,%llu,%llu,%llu,%.8g,%.8g,%.8g,%.6f\n",
			kb_exp_scheme_name(r->scheme),
			(unsigned long long)r->bits,
			(unsigned long long)r->m.cand,
			(unsigned long long)r->m.cand_fp,
			ratio(r->m.cand_fp, r->m.cand),
			ratio(r->m.fp_pred, r->m.cand),
			ratio(r->m.fp_pred_fill, r->m.cand),
			ratio(r->m.cand_fp, r->m.fp_pred));
	}
	return csv_close(&c);
}

static int write_groups(struct kb_exp *x, const char *dir)
{
	struct kb_exp_group_info gi;
	struct csv c;
	__u32 g;
	int err;

	err = csv_open(x, &c, dir, "groups.csv",
		       "group,address,source,size,class,presence,tree_links,height,cand");
	if (err)
		return err;
	for (g = 0; g < kb_exp_ngroups(x); g++) {
		if (kb_exp_group_info(x, g, &gi))
			break;
		fprintf(c.f, "%u,%u.%u.%u.%u,%u,%u,%u,%.6f,%u,%u,%u\n", g,
			gi.addr[0], gi.addr[1], gi.addr[2], gi.addr[3], gi.src,
			gi.size, gi.cls, gi.presence, gi.nlinks, gi.height,
			gi.cand);
	}
	return csv_close(&c);
}

static int write_params(struct kb_exp *x, const char *dir)
{
	const struct kb_exp_params *p = kb_exp_get_params(x);
	const double *pres;
	char desc[320];
	struct csv c;
	__u32 i, nc;
	int err;

	err = csv_open(x, &c, dir, "params.csv", "key,value");
	if (err)
		return err;
	exp_out_describe(x, desc, sizeof(desc));
	for (i = 0; desc[i]; i++)
		if (desc[i] == ',')
			desc[i] = ';';
	fprintf(c.f, "experiment,%s\n", desc);
	fprintf(c.f, "groups,%u\nsize_min,%u\nsize_max,%u\nseed,%llu\n",
		p->groups, p->size_min, p->size_max,
		(unsigned long long)p->seed);
	fprintf(c.f, "ref_bits,%llu\nk,%u\nlipsin_k,%u\nfill_limit,%u\nhop_slack,%u\nmsbf_start_fp,%g\nmcbf_type,%s\nmcbf_plan,%s\n",
		(unsigned long long)p->ref_bits, p->k, p->lipsin_k,
		p->fill_limit, p->hop_slack, p->msbf_start_fp,
		p->mcbf_type == KBLOOM_TYPE_STANDARD ? "standard" : "blocked",
		p->mcbf_global ? "global" : "per-port");
	nc = kb_exp_classes(x, &pres);
	for (i = 0; i < nc; i++)
		fprintf(c.f, "class%u_presence,%.6f\n", i, pres[i]);
	fprintf(c.f, "seconds,%.3f\n", kb_exp_seconds(x));
	return csv_close(&c);
}

static int mkdir_p(const char *dir)
{
	char buf[4096], *s;

	snprintf(buf, sizeof(buf), "%s", dir);
	for (s = buf + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = 0;
		if (mkdir(buf, 0755) && errno != EEXIST)
			return -errno;
		*s = '/';
	}
	if (mkdir(buf, 0755) && errno != EEXIST)
		return -errno;
	return 0;
}

int kb_exp_write_csv(struct kb_exp *x, const char *dir)
{
	static int (*const writers[])(struct kb_exp *, const char *) = {
		write_summary, write_switches, write_fpr, write_groups,
		write_params,
	};
	size_t i;
	int err;

	if (!x || !dir)
		return -EINVAL;
	err = mkdir_p(dir);
	if (err) {
		return kb_exp_set_error(x, err, "%s: %s", dir, strerror(-err));
	}
	for (i = 0; i < sizeof(writers) / sizeof(writers[0]); i++) {
		err = writers[i](x, dir);
		if (err)
			return kb_exp_set_error(x, err,
						"writing the CSV files in %s: %s",
						dir, strerror(-err));
	}
	return 0;
}
