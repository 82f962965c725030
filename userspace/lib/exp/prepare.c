// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom_exp: the preparation of an experiment, once before its runs.
 *
 * In order: the group sizes and their offsets in one array of receivers,
 * the trees (groups.c), the classes (classes.c), the group keys (and the
 * seed-free half of their hash, kb_fast_key_mix(), for the ports), the
 * per-port counts (ports.c) summed over the workers, with
 * n_p = sum_c present[p][c] the groups in port p's filter, and the
 * per-port lists when a per-port scheme or exact runs.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "exp_int.h"
#include "uapi/kbloom_hash.h"

int exp_prepare(struct kb_exp *x)
{
	const struct kb_topo *t = x->topo;
	size_t pc = (size_t)t->nports * x->p.nclass;
	__u32 i, j, p;
	__u64 off = 0, s;
	int err;

	if (x->prepared)
		return 0;
	for (i = 0; i < x->p.groups; i++) {
		s = exp_group_stream(x, i);
		x->grp[i].size = exp_draw_size(x, &s);
		x->grp[i].moff = off;
		off += x->grp[i].size;
	}
	x->nmembers = off;
	x->members = malloc((off + 1) * sizeof(*x->members));
	if (!x->members)
		return kb_exp_set_error(x, -ENOMEM, "out of memory (%llu receivers)",
				(unsigned long long)off);
	err = exp_par_run(x, exp_phase_trees, NULL);
	if (err)
		return kb_exp_set_error(x, err, "delivery trees: %s", strerror(-err));
	err = exp_assign_classes(x);
	if (err)
		return kb_exp_set_error(x, err, "classes: %s", strerror(-err));
	x->gkey = malloc(((size_t)x->p.groups + 1) * sizeof(*x->gkey));
	x->gmix = malloc(((size_t)x->p.groups + 1) * sizeof(*x->gmix));
	x->gcls = malloc((size_t)x->p.groups + 1);
	if (!x->gkey || !x->gmix || !x->gcls)
		return kb_exp_set_error(x, -ENOMEM, "out of memory");
	for (i = 0; i < x->p.groups; i++) {
		kb_exp_group_addr(x, i, (__u8 *)&x->gkey[i]);
		x->gmix[i] = kb_fast_key_mix(&x->gkey[i], 4);
		x->gcls[i] = (__u8)x->grp[i].cls;
	}
	err = exp_par_run(x, exp_phase_counts, NULL);
	if (err)
		return kb_exp_set_error(x, err, "port counts: %s", strerror(-err));
	x->present = calloc(pc + 1, sizeof(__u32));
	x->absent = calloc(pc + 1, sizeof(__u32));
	x->port_n = calloc(t->nports + 1, sizeof(__u32));
	x->sw_groups = calloc(x->nsw + 1, sizeof(__u32));
	if (!x->present || !x->absent || !x->port_n || !x->sw_groups)
		return kb_exp_set_error(x, -ENOMEM, "out of memory");
	for (j = 0; j < x->nthreads; j++) {
		for (i = 0; i < pc; i++) {
			x->present[i] += x->w[j].present[i];
			x->absent[i] += x->w[j].absent[i];
		}
		for (i = 0; i < x->nsw; i++)
			x->sw_groups[i] += x->w[j].sw_groups[i];
	}
	for (p = 0; p < t->nports; p++)
		for (i = 0; i < x->nclass; i++)
			x->port_n[p] += x->present[(size_t)p * x->nclass + i];
	if (x->p.schemes & (KB_EXP_PORT_FILTERS | KB_EXP_S(KB_EXP_EXACT))) {
		err = exp_candidates(x);
		if (err)
			return kb_exp_set_error(x, err, "candidate links: %s",
					strerror(-err));
	}
	x->prepared = 1;
	return 0;
}
