// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom_exp: the results of a model run as a terminal table, CSV
 * files and gnuplot plots.
 *
 * The CSV files are the record (one header line, comma separated, no
 * quoting needed: no field holds a comma); the plots are drawn from them
 * by scripts written next to them (plot_*.gp), so that a plot can be
 * restyled and redrawn with "gnuplot plot_leak_bits.gp" in that folder.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "libkbloom_exp.h"

static double ratio(double a, double b)
{
	return b > 0 ? a / b : 0.0;
}

static int port_scheme(__u32 s)
{
	return !!(KB_EXP_S(s) & KB_EXP_PORT_FILTERS);
}

static const char *scheme_title(__u32 s)
{
	switch (s) {
	case KB_EXP_EXACT:
		return "exact tables";
	case KB_EXP_STANDARD:
		return "standard per-port";
	case KB_EXP_BLOCKED:
		return "blocked per-port";
	case KB_EXP_MCBF:
		return "MC-BF per-port";
	case KB_EXP_LIPSIN1:
		return "LIPSIN d=1";
	case KB_EXP_LIPSIN8:
		return "LIPSIN d=8";
	case KB_EXP_MSBF:
		return "MSBF";
	}
	return "?";
}

/* "fat-tree k=16 (320 switches, 1024 hosts), 10000 groups, ..." */
static void describe(const struct kb_exp *x, char *buf, size_t len)
{
	const struct kb_exp_params *p = kb_exp_get_params(x);
	const struct kb_topo *t = kb_exp_topo(x);
	char topo[160], sizes[96];

	switch (p->topo) {
	case KB_EXP_TOPO_FAT_TREE:
		snprintf(topo, sizeof(topo), "fat-tree k=%u", p->ft_k);
		break;
	case KB_EXP_TOPO_LEAF_SPINE:
		snprintf(topo, sizeof(topo), "leaf-spine %u leaves x %u spines x %u hosts",
			 p->ls_leaves, p->ls_spines, p->ls_hosts);
		break;
	default:
		snprintf(topo, sizeof(topo), "topology %s", p->topo_file);
		break;
	}
	switch (p->dist) {
	case KB_EXP_DIST_ZIPF:
		snprintf(sizes, sizeof(sizes), "zipf s=%g on %u..%u", p->zipf_s,
			 p->size_min, p->size_max);
		break;
	case KB_EXP_DIST_FIXED:
		snprintf(sizes, sizeof(sizes), "%u", p->size_min);
		break;
	default:
		snprintf(sizes, sizeof(sizes), "uniform %u..%u", p->size_min,
			 p->size_max);
		break;
	}
	snprintf(buf, len,
		 "%s (%u switches, %u hosts), %u groups, receivers %s, seed %llu",
		 topo, t->nnodes - t->nhosts, t->nhosts, p->groups, sizes,
		 (unsigned long long)p->seed);
}

static void sw_stats(const struct kb_exp *x, const struct kb_exp_run *r,
		     double *mean, __u64 *max)
{
	__u32 n, i;

	kb_exp_switches(x, &n);
	*mean = 0;
	*max = 0;
	for (i = 0; i < n; i++) {
		*mean += r->sw_fp[i];
		if (r->sw_fp[i] > *max)
			*max = r->sw_fp[i];
	}
	*mean = n ? *mean / n : 0;
}

static void fmt_bytes(char *buf, size_t len, double b)
{
	if (b >= 1048576)
		snprintf(buf, len, "%.1f MiB", b / 1048576);
	else if (b >= 1024)
		snprintf(buf, len, "%.1f KiB", b / 1024);
	else
		snprintf(buf, len, "%.0f B", b);
}

void kb_exp_print(const struct kb_exp *x, FILE *f)
{
	const struct kb_topo *t = kb_exp_topo(x);
	const struct kb_exp_run *r;
	char desc[320], bits[24], kk[16], mem[24], pred[16];
	__u32 i, nsw = t->nnodes - t->nhosts;
	double mean;
	__u64 max;

	describe(x, desc, sizeof(desc));
	fprintf(f, "%s\n\n", desc);
	fprintf(f, "%-9s %9s %5s %8s %10s %11s %10s %10s %9s %7s %8s %11s %6s\n",
		"SCHEME", "BITS/PORT", "K", "PACKETS", "LEAKAGE", "OFF-TREE TX",
		"FP RATE", "PREDICTED", "FP/SWITCH", "MAX", "HDR B/PK",
		"MEM/SWITCH", "LOOPED");
	for (i = 0; i < kb_exp_nruns(x); i++) {
		r = kb_exp_get_run(x, i);
		snprintf(bits, sizeof(bits), "%llu", (unsigned long long)r->bits);
		if (!port_scheme(r->scheme))
			snprintf(bits, sizeof(bits), "-");
		snprintf(kk, sizeof(kk), "-");
		if (r->m.k_ports)
			snprintf(kk, sizeof(kk), "%.1f",
				 (double)r->m.k_sum / r->m.k_ports);
		else if (r->scheme == KB_EXP_LIPSIN1 ||
			 r->scheme == KB_EXP_LIPSIN8)
			snprintf(kk, sizeof(kk), "%u",
				 kb_exp_get_params(x)->lipsin_k);
		snprintf(pred, sizeof(pred), "%.3e",
			 ratio(r->m.fp_pred, r->m.cand));
		if (r->scheme == KB_EXP_EXACT || r->scheme == KB_EXP_MSBF)
			snprintf(pred, sizeof(pred), "0");
		fmt_bytes(mem, sizeof(mem), ratio(r->m.mem_bytes, nsw));
		sw_stats(x, r, &mean, &max);
		fprintf(f, "%-9s %9s %5s %8llu %10.4g %11llu %10.3e %10s %9.1f %7llu %8.1f %11s %6llu\n",
			kb_exp_scheme_name(r->scheme), bits, kk,
			(unsigned long long)r->m.packets, kb_exp_leak(&r->m),
			(unsigned long long)r->m.tx_off,
			ratio(r->m.cand_fp, r->m.cand), pred, mean,
			(unsigned long long)max,
			ratio(r->m.hdr_bytes, r->m.packets), mem,
			(unsigned long long)r->m.looped);
	}
	fprintf(f, "\nLEAKAGE: off-tree / tree-link transmissions; FP RATE: matching candidate links / candidates\n"
		"(ports of tree switches off the tree), PREDICTED by the formulas; FP/SWITCH: off-tree\n"
		"transmissions a switch decided, mean and MAX over switches.  %.1f s.\n",
		kb_exp_seconds(x));
}

/* ---- CSV ------------------------------------------------------------------ */

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

/* summary.csv columns, 1-based, for the plot scripts */
#define SUM_SCHEME	1
#define SUM_BITS	2
#define SUM_LEAK	9

static const char sum_header[] =
	"scheme,bits,k_mean,groups,packets,refused,tx_tree,tx_off,leak_ratio,"
	"tree_links,cand,cand_fp,fp_rate,fp_pred_rate,fp_pred_fill_rate,"
	"delivered,dup,leaked_hosts,looped,hdr_bytes_per_packet,"
	"hdr_bytes_per_group,mem_bytes,mem_bytes_per_switch,"
	"fp_per_switch_mean,fp_per_switch_max,cpu_seconds";

static void sum_row(const struct kb_exp *x, FILE *f, const struct kb_exp_run *r)
{
	const struct kb_exp_metrics *m = &r->m;
	const struct kb_topo *t = kb_exp_topo(x);
	double mean;
	__u64 max;

	sw_stats(x, r, &mean, &max);
	fprintf(f, "%s,%llu,%.4f,%llu,%llu,%llu,%llu,%llu,%.8g,%llu,%llu,%llu,"
		"%.8g,%.8g,%.8g,%llu,%llu,%llu,%llu,%.4f,%.4f,%llu,%.2f,%.4f,%llu,%.3f\n",
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
		(unsigned long long)max, r->seconds);
}

/* by_size.csv columns */
#define BY_SCHEME	1
#define BY_BITS		2
#define BY_MID		5
#define BY_LEAK		10
#define BY_HDR_PKT	11
#define BY_HDR_GRP	12

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
	describe(x, desc, sizeof(desc));
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

/* ---- plots ------------------------------------------------------------------ */

static const char *const colors[KB_EXP_NSCHEMES] = {
	"#000000", "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
	"#8c564b",
};

static void gp_head(FILE *f, const struct kb_exp *x, const char *png,
		    const char *title)
{
	char desc[320];

	describe(x, desc, sizeof(desc));
	fprintf(f, "# generated by kbloomctl experiment (libkbloom_exp) from the\n"
		"# CSV files of this folder; redraw here with: gnuplot THIS_FILE\n"
		"set terminal pngcairo size 1000,620 font \"sans,10\" enhanced\n"
		"set output \"%s\"\n"
		"set datafile separator \",\"\n"
		"set title \"%s\\n{/*0.85 %s}\"\n"
		"set grid\n"
		"set key box opaque font \",9\"\n",
		png, title, desc);
}

/* Is there a non-zero leakage to draw on a log axis? */
static int has_leak(const struct kb_exp *x, __u32 scheme)
{
	__u32 i;

	for (i = 0; i < kb_exp_nruns(x); i++)
		if (kb_exp_get_run(x, i)->scheme == scheme &&
		    kb_exp_get_run(x, i)->m.tx_off)
			return 1;
	return 0;
}

static void zero_note(FILE *f, const struct kb_exp *x)
{
	const struct kb_exp_params *p = kb_exp_get_params(x);
	char note[256] = "";
	__u32 s;

	for (s = 0; s < KB_EXP_NSCHEMES; s++)
		if ((p->schemes & KB_EXP_S(s)) && !has_leak(x, s))
			snprintf(note + strlen(note), sizeof(note) - strlen(note),
				 "%s%s", note[0] ? ", " : "", scheme_title(s));
	if (note[0])
		fprintf(f, "set label 1 \"no leakage (not drawn on the log scale): %s\" at graph 0.01, graph -0.13 font \",9\"\n"
			"set bmargin 6\n", note);
}

static int plot_leak_bits(struct kb_exp *x, FILE *f)
{
	const struct kb_exp_params *p = kb_exp_get_params(x);
	const struct kb_exp_run *r;
	const char *sep = "plot ";
	__u32 s;

	gp_head(f, x, "leak_vs_bits.png",
		"Traffic leakage vs filter bits per switch port");
	fprintf(f, "set key bottom left\nset logscale x 2\nset logscale y\n"
		"set format x \"2^{%%L}\"\nset format y \"10^{%%L}\"\n"
		"set xlabel \"filter bits per switch port (M)\"\n"
		"set ylabel \"leakage ratio (off-tree / tree-link transmissions)\"\n");
	zero_note(f, x);
	fprintf(f, "set xrange [%g:%g]\n", p->bits[0] / 1.4,
		p->bits[p->nbits ? p->nbits - 1 : 0] * 1.4);
	for (s = 0; s < KB_EXP_NSCHEMES; s++) {
		if (!(p->schemes & KB_EXP_S(s)) || !has_leak(x, s))
			continue;
		if (port_scheme(s)) {
			fprintf(f, "%s\"summary.csv\" using (strcol(%d) eq \"%s\" ? $%d : NaN):($%d > 0 ? $%d : NaN) with linespoints lw 2 pt 7 lc rgb \"%s\" title \"%s\"",
				sep, SUM_SCHEME, kb_exp_scheme_name(s), SUM_BITS,
				SUM_LEAK, SUM_LEAK, colors[s], scheme_title(s));
		} else {
			r = kb_exp_find_run(x, s, 0);
			fprintf(f, "%s%.8g with lines lw 2 dt 2 lc rgb \"%s\" title \"%s (in-packet, %s)\"",
				sep, kb_exp_leak(&r->m), colors[s],
				scheme_title(s),
				s == KB_EXP_MSBF ? "variable header" :
						   "256-bit zFilter");
		}
		sep = ", \\\n     ";
	}
	if (!strcmp(sep, "plot "))
		fprintf(f, "plot 1/0 notitle");
	fprintf(f, "\n");
	return 0;
}

static int plot_by_size(struct kb_exp *x, FILE *f, int hdr)
{
	const struct kb_exp_params *p = kb_exp_get_params(x);
	const char *sep = "plot ";
	char title[128];
	__u32 s;

	if (hdr) {
		gp_head(f, x, "hdr_vs_size.png",
			"Header bytes vs group size");
		fprintf(f, "set key top left\nset ylabel \"header bytes\"\nset logscale y\n");
	} else {
		snprintf(title, sizeof(title),
			 "Traffic leakage vs group size (per-port filters: M = %llu bits)",
			 (unsigned long long)p->ref_bits);
		gp_head(f, x, "leak_vs_size.png", title);
		fprintf(f, "set key bottom left\n"
			"set ylabel \"leakage ratio (off-tree / tree-link transmissions)\"\n"
			"set logscale y\nset format y \"10^{%%L}\"\n");
		zero_note(f, x);
	}
	fprintf(f, "set logscale x 2\nset xlabel \"group size (receivers; buckets [2^b, 2^{b+1}))\"\n");
	for (s = 0; s < KB_EXP_NSCHEMES; s++) {
		if (!(p->schemes & KB_EXP_S(s)))
			continue;
		if (hdr) {
			if (!(KB_EXP_S(s) & KB_EXP_IN_PACKET))
				continue;
			fprintf(f, "%s\"by_size.csv\" using (strcol(%d) eq \"%s\" ? $%d : NaN):%d with linespoints lw 2 pt 7 lc rgb \"%s\" title \"%s, per packet\"",
				sep, BY_SCHEME, kb_exp_scheme_name(s), BY_MID,
				BY_HDR_PKT, colors[s], scheme_title(s));
			sep = ", \\\n     ";
			if (s == KB_EXP_MSBF)
				continue;
			fprintf(f, "%s\"by_size.csv\" using (strcol(%d) eq \"%s\" ? $%d : NaN):%d with linespoints lw 2 dt 2 pt 6 lc rgb \"%s\" title \"%s, per group (all its packets)\"",
				sep, BY_SCHEME, kb_exp_scheme_name(s), BY_MID,
				BY_HDR_GRP, colors[s], scheme_title(s));
			continue;
		}
		if (!has_leak(x, s))
			continue;
		fprintf(f, "%s\"by_size.csv\" using (strcol(%d) eq \"%s\" && $%d == %llu ? $%d : NaN):($%d > 0 ? $%d : NaN) with linespoints lw 2 pt 7 lc rgb \"%s\" title \"%s\"",
			sep, BY_SCHEME, kb_exp_scheme_name(s), BY_BITS,
			(unsigned long long)(port_scheme(s) ? p->ref_bits : 0),
			BY_MID, BY_LEAK, BY_LEAK, colors[s], scheme_title(s));
		sep = ", \\\n     ";
	}
	if (hdr)
		fprintf(f, "%s", !strcmp(sep, "plot ") ? "plot 1/0 notitle" : "");
	else if (!strcmp(sep, "plot "))
		fprintf(f, "plot 1/0 notitle");
	fprintf(f, "\n");
	return 0;
}

static int run_gnuplot(const char *dir, const char *script)
{
	int st, fd;
	pid_t pid;

	pid = fork();
	if (pid < 0)
		return -errno;
	if (!pid) {
		if (chdir(dir))
			_exit(126);
		fd = open("/dev/null", O_RDWR);
		if (fd >= 0) {
			dup2(fd, STDIN_FILENO);
			dup2(fd, STDOUT_FILENO);
		}
		setenv("QT_QPA_PLATFORM", "offscreen", 1);
		execlp("gnuplot", "gnuplot", script, (char *)NULL);
		_exit(127);
	}
	if (waitpid(pid, &st, 0) < 0)
		return -errno;
	if (WIFEXITED(st) && WEXITSTATUS(st) == 127)
		return -ENOENT;
	if (!WIFEXITED(st) || WEXITSTATUS(st))
		return -EIO;
	return 0;
}

int kb_exp_plot(struct kb_exp *x, const char *dir)
{
	static const char *const scripts[] = {
		"plot_leak_bits.gp", "plot_leak_size.gp", "plot_hdr_size.gp",
	};
	const struct kb_exp_params *p = kb_exp_get_params(x);
	char path[4096];
	size_t i;
	FILE *f;
	int err;

	if (!x || !dir)
		return -EINVAL;
	for (i = 0; i < 3; i++) {
		if (i == 0 && !(p->schemes & KB_EXP_PORT_FILTERS))
			continue;	/* nothing varies with M */
		if (i == 2 && !(p->schemes & KB_EXP_IN_PACKET))
			continue;	/* no headers */
		snprintf(path, sizeof(path), "%s/%s", dir, scripts[i]);
		f = fopen(path, "we");
		if (!f)
			goto fail_errno;
		if (i == 0)
			plot_leak_bits(x, f);
		else
			plot_by_size(x, f, i == 2);
		if (fclose(f))
			goto fail_errno;
		err = run_gnuplot(dir, scripts[i]);
		if (err == -ENOENT)
			return kb_exp_set_error(x, err,
						"gnuplot: not found (apt-get install gnuplot)");
		if (err)
			return kb_exp_set_error(x, err, "gnuplot %s/%s: failed",
						dir, scripts[i]);
	}
	return 0;
fail_errno:
	err = -errno;
	return kb_exp_set_error(x, err, "%s: %s", path, strerror(-err));
}
