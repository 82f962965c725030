// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom IBLT: creation (a plain table or a strata estimator), copies,
 * insert and delete (one fold of the key into its k cells, the count
 * moved by +1 or -1), subtraction and statistics.  The shape is checked
 * by kb_shape_check() (uapi/kbloom_shape.h).
 */
#include <stdlib.h>

#include "iblt_int.h"
#include "../create_v3.h"

/* A zeroed table of a checked shape: 0, -EINVAL or -ENOMEM. */
int kbib_new(const struct kb_shape *s, __u32 hash_id, __u64 seed,
	     struct kbloom_iblt **fp)
{
	struct kbloom_iblt *f;

	if (s->type != KBLOOM_TYPE_IBLT || kb_shape_check(s))
		return -EINVAL;
	f = calloc(1, sizeof(*f));
	if (!f)
		return -ENOMEM;
	f->s = *s;
	f->cw = kb_iblt_cell_words(s->slots);
	f->nwords = kb_shape_words(s);
	f->words = kb_v3_words_alloc(f->nwords);
	if (!f->words)
		goto err_free_table;
	f->hash_id = hash_id;
	f->seed = seed;
	*fp = f;
	return 0;

err_free_table:
	free(f);
	return -ENOMEM;
}

static int kbib_create(__u32 tables, __u64 cells, __u32 k, __u32 key_max,
		       const struct kbloom_opts *o, struct kbloom_iblt **fp)
{
	struct kb_shape s = { .type = KBLOOM_TYPE_IBLT };
	__u32 hash_id;
	__u64 seed;
	int ret;

	if (!fp || !key_max || key_max > KBLOOM_KEY_MAX || !k ||
	    cells > KB_IBLT_CELLS_MAX)
		return -EINVAL;
	s.k = k;
	s.tables = tables;
	s.slots = kb_iblt_key_words_for(key_max);
	s.buckets = (cells + k - 1) / k * k;
	if (kb_shape_derive(&s))
		return -EINVAL;
	ret = kb_opts_v3(o, &hash_id, &seed);
	if (ret)
		return ret;
	ret = kbib_new(&s, hash_id, seed, fp);
	if (!ret && o && o->name)
		strncpy((*fp)->name, o->name, KBLOOM_NAME_LEN - 1);
	return ret;
}

int kbloom_iblt_create(__u64 cells, __u32 k, __u32 key_max,
		       const struct kbloom_opts *opts, struct kbloom_iblt **fp)
{
	return kbib_create(1, cells, k, key_max, opts, fp);
}

int kbloom_iblt_create_strata(__u32 strata, __u64 cells, __u32 k,
			      __u32 key_max, const struct kbloom_opts *opts,
			      struct kbloom_iblt **fp)
{
	if (!strata)
		strata = KB_IBLT_STRATA_DEFAULT;
	if (!cells)
		cells = KB_IBLT_STRATUM_CELLS;
	return kbib_create(strata, cells, k, key_max, opts, fp);
}

void kbloom_iblt_destroy(struct kbloom_iblt *f)
{
	if (!f)
		return;
	free(f->words);
	free(f);
}

int kbloom_iblt_dup(const struct kbloom_iblt *f, struct kbloom_iblt **fp)
{
	struct kbloom_iblt *c;
	__u64 *words;
	int ret;

	if (!f || !fp)
		return -EINVAL;
	ret = kbib_new(&f->s, f->hash_id, f->seed, &c);
	if (ret)
		return ret;
	words = c->words;
	*c = *f;
	c->words = words;
	memcpy(c->words, f->words, f->nwords * 8);
	*fp = c;
	return 0;
}

/* Fold an encoded key into its k cells of @table, the count by @sign. */
void kbib_fold(struct kbloom_iblt *f, const __u64 *enc, __u64 h, __u64 check,
	       __u64 value, __u32 table, __s64 sign)
{
	__u64 cells[KB_IBLT_K_MAX], *w;
	__u32 i, j;

	kb_iblt_cells(h, f->s.k, f->s.buckets, (__u64)table * f->s.buckets,
		      cells);
	for (i = 0; i < f->s.k; i++) {
		w = kbib_cell(f, cells[i]);
		w[KB_IBLT_W_COUNT] += (__u64)sign;
		w[KB_IBLT_W_CHECK] ^= check;
		w[KB_IBLT_W_VALUE] ^= value;
		for (j = 0; j < f->s.slots; j++)
			w[KB_IBLT_W_KEY + j] ^= enc[j];
	}
}

static int kbib_update(struct kbloom_iblt *f, const void *key, __u32 len,
		       __u64 value, __s64 sign)
{
	__u64 enc[KB_IBLT_KEY_WORDS_MAX];
	__u32 t;

	if (!f || !key || !len || len > kb_iblt_key_max(f->s.slots))
		return -EINVAL;
	kb_iblt_encode(key, len, f->s.slots, enc);
	t = kb_iblt_stratum(f->hash_id, f->seed, key, len, f->s.tables);
	kbib_fold(f, enc, kb_hash(f->hash_id, f->seed, key, len),
		  kb_iblt_check(f->hash_id, f->seed, key, len), value, t,
		  sign);
	if (sign > 0)
		f->inserted++;
	else
		f->deleted++;
	return 0;
}

int kbloom_iblt_insert(struct kbloom_iblt *f, const void *key, __u32 len,
		       __u64 value)
{
	return kbib_update(f, key, len, value, 1);
}

int kbloom_iblt_delete(struct kbloom_iblt *f, const void *key, __u32 len,
		       __u64 value)
{
	return kbib_update(f, key, len, value, -1);
}

int kbloom_iblt_subtract(struct kbloom_iblt *a, const struct kbloom_iblt *b)
{
	__u64 c, j, *x;
	const __u64 *y;

	if (!a || !b)
		return -EINVAL;
	if (memcmp(&a->s, &b->s, sizeof(a->s)) || a->hash_id != b->hash_id ||
	    a->seed != b->seed)
		return -EXDEV;
	for (c = 0; c < a->s.m; c++) {
		x = kbib_cell(a, c);
		y = kbib_cell(b, c);
		x[KB_IBLT_W_COUNT] -= y[KB_IBLT_W_COUNT];
		for (j = KB_IBLT_W_CHECK; j < a->cw; j++)
			x[j] ^= y[j];
	}
	a->inserted += b->deleted;
	a->deleted += b->inserted;
	return 0;
}

int kbloom_iblt_add_words(struct kbloom_iblt *f, const __u64 *words,
			  __u64 nwords)
{
	__u64 i;

	if (!f || !words || nwords != f->nwords)
		return -EINVAL;
	for (i = 0; i < nwords; i++) {
		if (i % f->cw == KB_IBLT_W_COUNT)
			f->words[i] += words[i];
		else
			f->words[i] ^= words[i];
	}
	return 0;
}

static __u64 kbib_nonzero(const struct kbloom_iblt *f)
{
	__u64 c, n = 0;
	const __u64 *w;
	__u32 j;

	for (c = 0; c < f->s.m; c++) {
		w = kbib_cell(f, c);
		for (j = 0; j < f->cw && !w[j]; j++)
			;
		n += j < f->cw;
	}
	return n;
}

int kbloom_iblt_stats(const struct kbloom_iblt *f,
		      struct kbloom_iblt_stats *st)
{
	if (!f || !st)
		return -EINVAL;
	memset(st, 0, sizeof(*st));
	st->k = f->s.k;
	st->strata = f->s.tables;
	st->key_words = f->s.slots;
	st->key_max = kb_iblt_key_max(f->s.slots);
	st->cells = f->s.m;
	st->cells_per_table = f->s.buckets;
	st->hash_id = f->hash_id;
	st->seed = f->seed;
	st->inserted = f->inserted;
	st->deleted = f->deleted;
	st->nonzero = kbib_nonzero(f);
	st->bytes = f->nwords * 8;
	return 0;
}

const char *kbloom_iblt_name(const struct kbloom_iblt *f)
{
	return f ? f->name : "";
}
