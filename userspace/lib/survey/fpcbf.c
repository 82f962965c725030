// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom: the fingerprint counting Bloom filter (FP-CBF; positions,
 * fingerprint and cells uapi/kbloom_var_fpcbf.h).  Cells are packed
 * fields of c + f bits (one may straddle two words).
 */
#include <math.h>
#include <stdlib.h>

#include "survey_array.h"
#include "uapi/kbloom_var_fpcbf.h"

struct kbloom_fpcbf {
	struct kb_sarr a;
};

static __u32 kb_fpc_width(const struct kbloom_fpcbf *f)
{
	return f->a.s.counter_bits + f->a.s.fp_bits;
}

static __u64 kb_fpc_get(const struct kbloom_fpcbf *f, __u64 n)
{
	__u32 w = kb_fpc_width(f), sh = kb_field_shift(n, w);
	__u64 i = kb_field_word(n, w);
	__u64 hi = kb_field_spills(sh, w) ? f->a.words[i + 1] : 0;

	return kb_field_get(f->a.words[i], hi, sh, w);
}

static void kb_fpc_put(struct kbloom_fpcbf *f, __u64 n, __u64 v)
{
	__u32 w = kb_fpc_width(f), sh = kb_field_shift(n, w);
	__u64 i = kb_field_word(n, w);

	f->a.words[i] = kb_field_put_lo(f->a.words[i], sh, w, v);
	if (kb_field_spills(sh, w))
		f->a.words[i + 1] = kb_field_put_hi(f->a.words[i + 1], sh, w,
						    v);
}

/* Cell @n's counter +@d (1 or -1) and fingerprint ^@fp: 1 if saturated. */
static int kb_fpc_step(struct kbloom_fpcbf *f, __u64 n, int d, __u64 fp)
{
	__u32 cb = f->a.s.counter_bits;
	__u64 v = kb_fpc_get(f, n), max = kb_field_mask(cb);
	__u64 c = v & max, print = v >> cb;

	if (c == max)
		return 1;
	c = d > 0 ? c + 1 : c - 1;
	print = c ? print ^ fp : 0;	/* no keys, no fingerprint */
	kb_fpc_put(f, n, kb_fpcbf_cell(c, print, cb));
	return c == max;
}

int kbloom_fpcbf_test(const struct kbloom_fpcbf *f, const void *key,
		      __u32 len)
{
	bool has_fp;
	__u32 i, cb;
	__u64 h, v, fp, max;
	struct kb_probe p;

	if (!f || !kb_sarr_key_ok(key, len))
		return -EINVAL;
	cb = f->a.s.counter_bits;
	max = kb_field_mask(cb);
	h = kb_sarr_hash(&f->a, key, len);
	fp = 0;
	has_fp = false;		/* the fingerprint, made at the first count 1 */
	kb_probe_init(&p, h);
	for (i = 0; i < f->a.s.k; i++) {
		v = kb_fpc_get(f, kb_probe_next(&p, f->a.s.m));
		if (!(v & max))
			return 0;
		if ((v & max) != 1)
			continue;
		if (!has_fp)
			fp = kb_fpcbf_print(h, f->a.s.fp_bits);
		has_fp = true;
		if ((v >> cb) != fp)
			return 0;
	}
	return 1;
}

/* The key's k cells +@d. Return: 1 when a counter was saturated. */
static int kb_fpc_apply(struct kbloom_fpcbf *f, const void *key, __u32 len,
			int d)
{
	__u64 h = kb_sarr_hash(&f->a, key, len);
	__u64 fp = kb_fpcbf_print(h, f->a.s.fp_bits);
	struct kb_probe p;
	int sat = 0;
	__u32 i;

	kb_probe_init(&p, h);
	for (i = 0; i < f->a.s.k; i++)
		sat |= kb_fpc_step(f, kb_probe_next(&p, f->a.s.m), d, fp);
	return sat;
}

int kbloom_fpcbf_add(struct kbloom_fpcbf *f, const void *key, __u32 len)
{
	int sat;

	if (!f || !kb_sarr_key_ok(key, len))
		return -EINVAL;
	sat = kb_fpc_apply(f, key, len, 1);
	f->a.saturations += sat;
	f->a.inserted++;
	return sat;
}

int kbloom_fpcbf_del(struct kbloom_fpcbf *f, const void *key, __u32 len)
{
	int ret = kbloom_fpcbf_test(f, key, len);

	if (ret <= 0)
		return ret ? ret : -ENOENT;
	kb_fpc_apply(f, key, len, -1);
	return 0;
}

int kbloom_fpcbf_create(__u64 m, __u32 k, __u32 counter_bits, __u32 fp_bits,
			const struct kbloom_opts *o, struct kbloom_fpcbf **fp)
{
	struct kb_shape s;

	if (!fp)
		return -EINVAL;
	kb_fpcbf_shape_init(&s, m, k, counter_bits, fp_bits);
	return kb_sarr_new(&s, o, sizeof(**fp), (void **)fp);
}

void kbloom_fpcbf_destroy(struct kbloom_fpcbf *f)
{
	if (!f)
		return;
	kb_sarr_fini(&f->a);
	free(f);
}

int kbloom_fpcbf_stats(const struct kbloom_fpcbf *f,
		       struct kbloom_fpcbf_stats *st)
{
	if (!f || !st)
		return -EINVAL;
	memset(st, 0, sizeof(*st));
	st->m = f->a.s.m;
	st->k = f->a.s.k;
	st->counter_bits = f->a.s.counter_bits;
	st->fp_bits = f->a.s.fp_bits;
	st->bytes = f->a.nwords * 8;
	st->inserted = f->a.inserted;
	st->saturations = f->a.saturations;
	return 0;
}

/*
 * A probed cell holds X ~ binomial(k n, 1/m) keys: it lets a key that was
 * never added through when X >= 2, or X = 1 and the fingerprint (f bits)
 * matches: q = 1 - P(0) - P(1) (1 - 2^-f); p = q^k.
 */
double kbloom_fpcbf_fpr(__u64 m, __u32 k, __u64 n, __u32 fp_bits)
{
	double t = (double)k * (double)n, p0, p1, q;

	if (!m || !k)
		return 1.0;
	p0 = exp(t * log1p(-1.0 / (double)m));
	p1 = t / ((double)m - 1.0) * p0;
	q = 1.0 - p0 - p1 * (1.0 - ldexp(1.0, -(int)fp_bits));
	return pow(q, k);
}

size_t kbloom_fpcbf_image_size(const struct kbloom_fpcbf *f)
{
	return f ? kb_sarr_image_size(&f->a) : 0;
}

int kbloom_fpcbf_save(const struct kbloom_fpcbf *f, void *buf,
		      size_t buf_len, size_t *image_len)
{
	return f ? kb_sarr_save(&f->a, buf, buf_len, image_len) : -EINVAL;
}

int kbloom_fpcbf_save_alloc(const struct kbloom_fpcbf *f, void **buf,
			    size_t *len)
{
	return f && buf ? kb_sarr_save_alloc(&f->a, buf, len) : -EINVAL;
}

int kbloom_fpcbf_load(const void *buf, size_t len, struct kbloom_fpcbf **fp)
{
	if (!fp)
		return -EINVAL;
	return kb_sarr_load_new(buf, len, KBLOOM_TYPE_FP_COUNTING, sizeof(**fp), (void **)fp);
}
