// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom_exp: the results of a model run as a terminal table.
 *
 * One line per scheme and M: the mean k, the packets, the leakage
 * tx_off / tx_tree, the off-tree transmissions, the first-order false-
 * positive rate cand_fp / cand and the formulas' prediction fp_pred /
 * cand, per switch the off-tree transmissions it decided (mean and
 * maximum over the switches), header bytes per packet, switch memory per
 * switch, the packets that looped.
 */
#include <stdio.h>
#include <string.h>

#include "out_int.h"
#include "scheme.h"

const char *exp_out_scheme_title(__u32 s)
{
	const struct exp_scheme_ops *ops = exp_scheme(s);

	if (ops)
		return ops->title;
	switch (s) {
	case KB_EXP_EXACT:
		return "exact tables";
	case KB_EXP_LIPSIN1:
		return "LIPSIN d=1";
	case KB_EXP_LIPSIN8:
		return "LIPSIN d=8";
	case KB_EXP_MSBF:
		return "MSBF";
	case KB_EXP_YESNO:
		return "yes-no";
	}
	return "?";
}

const char *exp_out_scheme_color(__u32 s)
{
	const struct exp_scheme_ops *ops = exp_scheme(s);

	if (ops)
		return ops->color;
	switch (s) {
	case KB_EXP_LIPSIN1:
		return "#d62728";
	case KB_EXP_LIPSIN8:
		return "#9467bd";
	case KB_EXP_MSBF:
		return "#8c564b";
	case KB_EXP_YESNO:
		return "#e377c2";
	}
	return "#000000";
}

/* "fat-tree k=16 (320 switches, 1024 hosts), 10000 groups, ..." */
void exp_out_describe(const struct kb_exp *x, char *buf, size_t len)
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

/* The ports of the switches (the per-port structures). */
double exp_out_switch_ports(const struct kb_exp *x)
{
	const struct kb_topo *t = kb_exp_topo(x);
	const __u32 *sw;
	__u32 i, n;
	double np = 0;

	sw = kb_exp_switches(x, &n);
	for (i = 0; i < n; i++)
		np += t->nodes[sw[i]].nports;
	return np;
}

void exp_out_sw_stats(const struct kb_exp *x, const struct kb_exp_run *r,
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

/* The SCHEME column's width: 9, or its longest name ("shifting-ports"). */
static int name_width(const struct kb_exp *x)
{
	int w = 9, n;
	__u32 i;

	for (i = 0; i < kb_exp_nruns(x); i++) {
		n = (int)strlen(kb_exp_scheme_name(kb_exp_get_run(x, i)->scheme));
		if (n > w)
			w = n;
	}
	return w;
}

void kb_exp_print(const struct kb_exp *x, FILE *f)
{
	const struct kb_topo *t = kb_exp_topo(x);
	const struct kb_exp_run *r;
	char desc[320], bits[24], kk[16], mem[24], pred[16];
	__u32 i, nsw = t->nnodes - t->nhosts;
	int nw = name_width(x);
	double mean;
	__u64 max;

	exp_out_describe(x, desc, sizeof(desc));
	fprintf(f, "%s\n\n", desc);
	fprintf(f, "%-*s %9s %5s %8s %10s %11s %10s %10s %9s %7s %8s %11s %6s %6s %9s\n",
		nw, "SCHEME", "BITS/PORT", "K", "PACKETS", "LEAKAGE", "OFF-TREE TX",
		"FP RATE", "PREDICTED", "FP/SWITCH", "MAX", "HDR B/PK",
		"MEM/SWITCH", "LOOPED", "LOST", "PROBES/PK");
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
			 r->scheme == KB_EXP_LIPSIN8 ||
			 r->scheme == KB_EXP_YESNO)
			snprintf(kk, sizeof(kk), "%u",
				 kb_exp_get_params(x)->lipsin_k);
		snprintf(pred, sizeof(pred), "%.3e",
			 ratio(r->m.fp_pred, r->m.cand));
		if (r->scheme == KB_EXP_EXACT || r->scheme == KB_EXP_MSBF)
			snprintf(pred, sizeof(pred), "0");
		fmt_bytes(mem, sizeof(mem), ratio(r->m.mem_bytes, nsw));
		exp_out_sw_stats(x, r, &mean, &max);
		fprintf(f, "%-*s %9s %5s %8llu %10.4g %11llu %10.3e %10s %9.1f %7llu %8.1f %11s %6llu %6llu %9.1f\n",
			nw, kb_exp_scheme_name(r->scheme), bits, kk,
			(unsigned long long)r->m.packets, kb_exp_leak(&r->m),
			(unsigned long long)r->m.tx_off,
			ratio(r->m.cand_fp, r->m.cand), pred, mean,
			(unsigned long long)max,
			ratio(r->m.hdr_bytes, r->m.packets), mem,
			(unsigned long long)r->m.looped,
			(unsigned long long)r->m.lost,
			ratio(r->m.probes, r->m.packets));
	}
	fprintf(f, "\nLEAKAGE: off-tree / tree-link transmissions; FP RATE: matching candidate links / candidates\n"
		"(ports of tree switches off the tree), PREDICTED by the formulas; FP/SWITCH: off-tree\n"
		"transmissions a switch decided, mean and MAX over switches; LOST: receivers missed\n"
		"(false negatives); PROBES/PK: memory locations the port tests of a packet read.  %.1f s.\n",
		kb_exp_seconds(x));
}
