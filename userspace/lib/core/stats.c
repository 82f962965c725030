// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom: statistics (occupancy, cardinality estimate, predicted rate).
 */
#include "kbloom_int.h"

static __u64 kbf_ones(const struct kbloom_filter *f)
{
	__u64 i, ones = 0;

	if (f->type == KBLOOM_TYPE_COUNTING) {
		for (i = 0; i < f->nwords; i++)
			ones += kb_ctr_nonzero(kbf_load(&f->words[i]),
					       f->counter_bits);
	} else {
		for (i = 0; i < f->nwords; i++)
			ones += kb_popcount64(kbf_load(&f->words[i]));
	}
	return ones;
}

int kbloom_stats(const struct kbloom_filter *f, struct kbloom_stats *st)
{
	if (!f || !st)
		return -EINVAL;
	memset(st, 0, sizeof(*st));
	st->type = f->type;
	st->hash_id = f->hash_id;
	st->k = f->k;
	st->counter_bits = f->counter_bits;
	st->m = f->m;
	st->seed = f->seed;
	st->capacity = f->capacity;
	st->fpr_pico = f->fpr_pico;
	st->bytes = f->nwords * 8;
	st->inserted = kbf_load(&f->inserted);
	st->deleted = kbf_load(&f->deleted);
	st->saturations = kbf_load(&f->saturations);
	st->ones = kbf_ones(f);
	st->occupancy_ppm = st->ones * 1000000ULL / f->m;
	st->occupancy = (double)st->ones / (double)f->m;
	st->n_est = kb_n_est(f->m, f->k, st->ones);
	st->fpr_now_pico = kb_plan_fpr_pico(f->type, f->m, f->k, st->inserted);
	return 0;
}
