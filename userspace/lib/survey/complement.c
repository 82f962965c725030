// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom complement Bloom filters (Lim, Lee, Yim, "Complement Bloom
 * filter for identifying true positiveness of a Bloom filter", IEEE
 * Communications Letters 19(11), 2015): a blocked filter of a set S and a
 * blocked filter of its complement U \ S in a known universe U.
 *
 * For a key x of U: S's filter rejects x -> not in S; else the
 * complement's filter rejects x -> in S (x is in S or in U \ S, and the
 * complement's filter has no false negative); else ask the exact set.
 * Members of S reach the exact lookup only through a false positive of
 * the complement's filter (rate f_C), non-members of S only through one
 * of S's filter (f_S), so of the n_S + n_C f_S positives of S's filter,
 *
 *   resolved = n_S (1 - f_C) / (n_S + n_C f_S)
 *
 * are answered without the exact lookup, every verdict exact.
 */
#include <stdlib.h>
#include <string.h>

#include "libkbloom_survey.h"
#include "uapi/kbloom_plan.h"

struct kbloom_comp {
	struct kbloom_filter *set;
	struct kbloom_filter *comp;
	__u64 queries;
	__u64 absent;
	__u64 present;
	__u64 exact;
};

int kbloom_comp_create(__u64 n_set, __u64 p_pico, __u64 n_comp,
		       __u64 pc_pico, const struct kbloom_opts *opts,
		       struct kbloom_comp **fp)
{
	struct kbloom_comp *f;
	int ret;

	if (!fp)
		return -EINVAL;
	f = calloc(1, sizeof(*f));
	if (!f)
		return -ENOMEM;
	ret = kbloom_create(KBLOOM_TYPE_BLOCKED, n_set, p_pico, opts, &f->set);
	if (ret)
		goto err_free_comp;
	ret = kbloom_create(KBLOOM_TYPE_BLOCKED, n_comp, pc_pico, opts,
			    &f->comp);
	if (ret)
		goto err_destroy_set;
	*fp = f;
	return 0;

err_destroy_set:
	kbloom_destroy(f->set);
err_free_comp:
	free(f);
	return ret;
}

void kbloom_comp_destroy(struct kbloom_comp *f)
{
	if (!f)
		return;
	kbloom_destroy(f->set);
	kbloom_destroy(f->comp);
	free(f);
}

int kbloom_comp_add(struct kbloom_comp *f, const void *key, __u32 len)
{
	return f ? kbloom_add(f->set, key, len) : -EINVAL;
}

int kbloom_comp_add_complement(struct kbloom_comp *f, const void *key,
			       __u32 len)
{
	return f ? kbloom_add(f->comp, key, len) : -EINVAL;
}

int kbloom_comp_classify(const struct kbloom_comp *f, const void *key,
			 __u32 len)
{
	int ret;

	if (!f)
		return -EINVAL;
	ret = kbloom_test(f->set, key, len);
	if (ret <= 0)
		return ret < 0 ? ret : KBLOOM_COMP_ABSENT;
	ret = kbloom_test(f->comp, key, len);
	if (ret < 0)
		return ret;
	return ret ? KBLOOM_COMP_UNSURE : KBLOOM_COMP_PRESENT;
}

int kbloom_comp_query(struct kbloom_comp *f, const void *key, __u32 len,
		      kbloom_comp_exact_fn exact, void *ctx)
{
	int v = kbloom_comp_classify(f, key, len);

	if (v < 0 || !exact)
		return v < 0 ? v : -EINVAL;
	switch (v) {
	case KBLOOM_COMP_ABSENT:
		__atomic_fetch_add(&f->absent, 1, __ATOMIC_RELAXED);
		v = 0;
		break;
	case KBLOOM_COMP_PRESENT:
		__atomic_fetch_add(&f->present, 1, __ATOMIC_RELAXED);
		v = 1;
		break;
	default:
		v = exact(ctx, key, len);
		if (v < 0)
			return v;
		__atomic_fetch_add(&f->exact, 1, __ATOMIC_RELAXED);
		v = !!v;
	}
	__atomic_fetch_add(&f->queries, 1, __ATOMIC_RELAXED);
	return v;
}

/* The blocked formula's rate of a filter at its inserted keys. */
static double kbcomp_rate(const struct kbloom_stats *st)
{
	return (double)kb_plan_fpr_pico(KBLOOM_TYPE_BLOCKED, st->m, st->k,
					st->inserted) / KBLOOM_P_UNIT;
}

int kbloom_comp_stats(const struct kbloom_comp *f,
		      struct kbloom_comp_stats *st)
{
	struct kbloom_stats s, c;
	double pos;

	if (!f || !st || kbloom_stats(f->set, &s) || kbloom_stats(f->comp, &c))
		return -EINVAL;
	memset(st, 0, sizeof(*st));
	st->set_keys = s.inserted;
	st->comp_keys = c.inserted;
	st->queries = __atomic_load_n(&f->queries, __ATOMIC_RELAXED);
	st->absent = __atomic_load_n(&f->absent, __ATOMIC_RELAXED);
	st->present = __atomic_load_n(&f->present, __ATOMIC_RELAXED);
	st->exact = __atomic_load_n(&f->exact, __ATOMIC_RELAXED);
	st->bytes = s.bytes + c.bytes;
	st->fpr_set = kbcomp_rate(&s);
	st->fpr_comp = kbcomp_rate(&c);
	pos = s.inserted + c.inserted * st->fpr_set;
	st->resolved = pos > 0 ? s.inserted * (1 - st->fpr_comp) / pos : 0;
	return 0;
}

const struct kbloom_filter *kbloom_comp_filter(const struct kbloom_comp *f,
					       bool complement)
{
	if (!f)
		return NULL;
	return complement ? f->comp : f->set;
}
