// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom: the retouched Bloom filter (RBF; uapi/kbloom_var_rbf.h).  A
 * standard filter plus, in memory only, the number of added keys whose
 * probes hit each bit: what the selective policies of Donnet, Baynat and
 * Friedman (CoNEXT 2006) weigh a bit's false negatives with.
 */
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>

#include "survey_array.h"
#include "uapi/kbloom_var_rbf.h"

struct kbloom_rbf {
	struct kb_sarr a;
	__u32 *members;		/* NULL for a loaded filter */
	__u64 cleared;
};

/* Probe @i (0..k-1) positions of the key of hash @h into @pos. */
static void kb_rbf_positions(const struct kbloom_rbf *f, __u64 h, __u32 *pos)
{
	struct kb_probe p;
	__u32 i;

	kb_probe_init(&p, h);
	for (i = 0; i < f->a.s.k; i++)
		pos[i] = kb_probe_next(&p, f->a.s.m);
}

static int kb_rbf_present(const struct kbloom_rbf *f, const __u32 *pos)
{
	__u32 i;

	for (i = 0; i < f->a.s.k; i++)
		if (!kb_sarr_bit(&f->a, pos[i]))
			return 0;
	return 1;
}

/* kb_rbf_present() of the key of hash @h, each probe made when reached. */
static int kb_rbf_test_h(const struct kbloom_rbf *f, __u64 h)
{
	struct kb_probe p;
	__u32 i;

	kb_probe_init(&p, h);
	for (i = 0; i < f->a.s.k; i++)
		if (!kb_sarr_bit(&f->a, kb_probe_next(&p, f->a.s.m)))
			return 0;
	return 1;
}

int kbloom_rbf_test(const struct kbloom_rbf *f, const void *key, __u32 len)
{
	if (!f || !kb_sarr_key_ok(key, len))
		return -EINVAL;
	return kb_rbf_test_h(f, kb_sarr_hash(&f->a, key, len));
}

int kbloom_rbf_add(struct kbloom_rbf *f, const void *key, __u32 len)
{
	__u32 pos[KBLOOM_K_MAX], i;

	if (!f || !kb_sarr_key_ok(key, len))
		return -EINVAL;
	kb_rbf_positions(f, kb_sarr_hash(&f->a, key, len), pos);
	for (i = 0; i < f->a.s.k; i++) {
		kb_sarr_bit_put(&f->a, pos[i], true);
		if (f->members && f->members[pos[i]] < UINT32_MAX)
			f->members[pos[i]]++;
	}
	f->a.inserted++;
	return 0;
}

static __u64 kb_rbf_next(__u64 *s)
{
	*s += KB_PROBE_MUL;
	return kb_fmix64(*s);
}

long kbloom_rbf_clear_random(struct kbloom_rbf *f, __u64 nbits, __u64 seed)
{
	__u64 ones, done = 0, pos;

	if (!f)
		return -EINVAL;
	ones = kb_sarr_ones(&f->a, f->a.s.m);
	if (nbits >= ones) {
		memset(f->a.words, 0, f->a.nwords * 8);
		f->cleared += ones;
		return (long)ones;
	}
	/* rejection: a uniform position until it is a 1 (nbits < ones) */
	while (done < nbits) {
		pos = kb_reduce32((__u32)kb_rbf_next(&seed), f->a.s.m);
		if (!kb_sarr_bit(&f->a, pos))
			continue;
		kb_sarr_bit_put(&f->a, pos, false);
		done++;
	}
	f->cleared += done;
	return (long)done;
}

/*
 * The probe of @pos the policy clears: @fpc counts the keys to remove
 * on each bit (MAX_FP, RATIO).  Ratio members / fpc is compared as
 * products to stay exact.
 */
static __u32 kb_rbf_pick(const struct kbloom_rbf *f, __u32 policy,
			 const __u32 *pos, const __u32 *fpc, __u64 *rng)
{
	__u32 i, best = 0;
	__u64 a, b;

	if (policy == KBLOOM_RBF_RANDOM)
		return kb_reduce32((__u32)kb_rbf_next(rng), f->a.s.k);
	for (i = 1; i < f->a.s.k; i++) {
		if (policy == KBLOOM_RBF_MIN_FN) {
			a = f->members[pos[i]];
			b = f->members[pos[best]];
		} else if (policy == KBLOOM_RBF_MAX_FP) {
			a = fpc[pos[best]];
			b = fpc[pos[i]];
		} else {
			a = (__u64)f->members[pos[i]] * fpc[pos[best]];
			b = (__u64)f->members[pos[best]] * fpc[pos[i]];
		}
		if (a < b)
			best = i;
	}
	return best;
}

static int kb_rbf_retouch_ok(const struct kbloom_rbf *f, __u32 policy,
			     const void *keys, __u32 key_len, __u64 count)
{
	if (!f || policy < KBLOOM_RBF_RANDOM || policy > KBLOOM_RBF_RATIO)
		return -EINVAL;
	if ((count && !keys) || !key_len || key_len > KBLOOM_KEY_MAX ||
	    count > (__u64)LONG_MAX / KBLOOM_KEY_MAX)
		return -EINVAL;
	if (!f->members && (policy == KBLOOM_RBF_MIN_FN ||
			    policy == KBLOOM_RBF_RATIO))
		return -ENODATA;
	return 0;
}

/*
 * Count, on each bit, the keys of the batch that test present; their
 * indices, ascending, into @hit (count entries): return how many.
 */
static __u64 kb_rbf_fp_counts(const struct kbloom_rbf *f, const __u8 *keys,
			      __u32 key_len, __u64 count, __u32 *fpc,
			      __u64 *hit)
{
	__u32 pos[KBLOOM_K_MAX], i;
	__u64 j, h, nhit = 0;

	for (j = 0; j < count; j++) {
		h = kb_sarr_hash(&f->a, keys + j * key_len, key_len);
		if (!kb_rbf_test_h(f, h))
			continue;
		kb_rbf_positions(f, h, pos);
		for (i = 0; i < f->a.s.k; i++)
			fpc[pos[i]]++;
		hit[nhit++] = j;
	}
	return nhit;
}

/*
 * Clear one bit of each key of the batch still present, chosen by
 * @policy; under KBLOOM_RBF_RATIO only when the bit's members are at most
 * @max_ratio times its keys of the batch.  Clearing only removes ones, so
 * the keys still present are among those present before: only these are
 * tested again, in batch order.
 */
static long kb_rbf_retouch(struct kbloom_rbf *f, __u32 policy,
			   const __u8 *keys, __u32 key_len, __u64 count,
			   __u64 seed, __u64 max_ratio)
{
	__u32 pos[KBLOOM_K_MAX], *fpc, i, b;
	__u64 j, nhit, *hit;
	long done = 0;

	fpc = calloc(f->a.s.m, sizeof(*fpc));
	hit = malloc((count ? count : 1) * sizeof(*hit));
	if (!fpc || !hit) {
		free(fpc);
		free(hit);
		return -ENOMEM;
	}
	nhit = kb_rbf_fp_counts(f, keys, key_len, count, fpc, hit);
	for (j = 0; j < nhit; j++) {
		kb_rbf_positions(f, kb_sarr_hash(&f->a, keys + hit[j] * key_len,
						 key_len), pos);
		if (!kb_rbf_present(f, pos))
			continue;
		i = kb_rbf_pick(f, policy, pos, fpc, &seed);
		b = pos[i];
		if (policy == KBLOOM_RBF_RATIO &&
		    f->members[b] > max_ratio * fpc[b])
			continue;
		kb_sarr_bit_put(&f->a, b, false);
		done++;
	}
	free(hit);
	free(fpc);
	f->cleared += done;
	return done;
}

long kbloom_rbf_retouch(struct kbloom_rbf *f, __u32 policy, const void *keys,
			__u32 key_len, __u64 count, __u64 seed)
{
	int ret = kb_rbf_retouch_ok(f, policy, keys, key_len, count);

	if (ret)
		return ret;
	return kb_rbf_retouch(f, policy, keys, key_len, count, seed,
			      UINT32_MAX);
}

long kbloom_rbf_retouch_ratio(struct kbloom_rbf *f, const void *keys,
			      __u32 key_len, __u64 count, __u32 max_ratio)
{
	int ret = kb_rbf_retouch_ok(f, KBLOOM_RBF_RATIO, keys, key_len,
				    count);

	if (ret)
		return ret;
	return kb_rbf_retouch(f, KBLOOM_RBF_RATIO, keys, key_len, count, 0,
			      max_ratio);
}

int kbloom_rbf_create(__u64 m, __u32 k, const struct kbloom_opts *o,
		      struct kbloom_rbf **fp)
{
	struct kbloom_rbf *f;
	struct kb_shape s;
	int ret;

	if (!fp)
		return -EINVAL;
	kb_rbf_shape_init(&s, m, k);
	ret = kb_sarr_new(&s, o, sizeof(*f), (void **)&f);
	if (ret)
		return ret;
	f->members = calloc(m, sizeof(*f->members));
	if (!f->members) {
		kbloom_rbf_destroy(f);
		return -ENOMEM;
	}
	*fp = f;
	return 0;
}

int kbloom_rbf_drop_counts(struct kbloom_rbf *f)
{
	if (!f)
		return -EINVAL;
	free(f->members);
	f->members = NULL;
	return 0;
}

void kbloom_rbf_destroy(struct kbloom_rbf *f)
{
	if (!f)
		return;
	kb_sarr_fini(&f->a);
	free(f->members);
	free(f);
}

int kbloom_rbf_stats(const struct kbloom_rbf *f, struct kbloom_rbf_stats *st)
{
	if (!f || !st)
		return -EINVAL;
	memset(st, 0, sizeof(*st));
	st->m = f->a.s.m;
	st->k = f->a.s.k;
	st->counts = !!f->members;
	st->inserted = f->a.inserted;
	st->ones = kb_sarr_ones(&f->a, f->a.s.m);
	st->cleared = f->cleared;
	return 0;
}

/*
 * Random clearing of s of X set bits keeps a key's k (distinct) bits
 * with probability C(X - k, s) / C(X, s) = prod_{i<k} (X - s - i) / (X - i).
 */
double kbloom_rbf_random_loss(__u64 ones, __u64 s, __u32 k)
{
	double keep = 1.0;
	__u32 i;

	if (s >= ones)
		return 1.0;
	for (i = 0; i < k && i < ones; i++)
		keep *= (double)(ones - s > i ? ones - s - i : 0) /
			(double)(ones - i);
	return 1.0 - keep;
}

size_t kbloom_rbf_image_size(const struct kbloom_rbf *f)
{
	return f ? kb_sarr_image_size(&f->a) : 0;
}

int kbloom_rbf_save(const struct kbloom_rbf *f, void *buf, size_t buf_len,
		    size_t *image_len)
{
	return f ? kb_sarr_save(&f->a, buf, buf_len, image_len) : -EINVAL;
}

int kbloom_rbf_save_alloc(const struct kbloom_rbf *f, void **buf,
			  size_t *len)
{
	return f && buf ? kb_sarr_save_alloc(&f->a, buf, len) : -EINVAL;
}

int kbloom_rbf_load(const void *buf, size_t len, struct kbloom_rbf **fp)
{
	if (!fp)
		return -EINVAL;
	return kb_sarr_load_new(buf, len, KBLOOM_TYPE_RETOUCHED, sizeof(**fp), (void **)fp);
}
