/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * libkbloom_exp: what the table, the CSV files and the plots share.
 *
 * The CSV files are the record (one header line, comma separated, no
 * quoting needed: no field holds a comma); the plots are drawn from them
 * by scripts written next to them (plot_*.gp), so that a plot can be
 * restyled and redrawn with "gnuplot plot_leak_bits.gp" in that folder:
 * the columns below are where those scripts read.
 */
#ifndef _KBLOOM_OUT_INT_H
#define _KBLOOM_OUT_INT_H

#include <stddef.h>

#include "libkbloom_exp.h"

/* summary.csv columns, 1-based, for the plot scripts */
#define SUM_SCHEME	1
#define SUM_BITS	2
#define SUM_LEAK	9
#define SUM_LOST_RATIO	28

/* by_size.csv columns */
#define BY_SCHEME	1
#define BY_BITS		2
#define BY_MID		5
#define BY_LEAK		10
#define BY_HDR_PKT	11
#define BY_HDR_GRP	12

static inline double ratio(double a, double b)
{
	return b > 0 ? a / b : 0.0;
}

static inline int port_scheme(__u32 s)
{
	return !!(KB_EXP_S(s) & KB_EXP_PORT_FILTERS);
}

/* out_table.c */
const char *exp_out_scheme_title(__u32 s);
const char *exp_out_scheme_color(__u32 s);
void exp_out_describe(const struct kb_exp *x, char *buf, size_t len);
double exp_out_switch_ports(const struct kb_exp *x);
void exp_out_sw_stats(const struct kb_exp *x, const struct kb_exp_run *r,
		      double *mean, __u64 *max);

#endif /* _KBLOOM_OUT_INT_H */
