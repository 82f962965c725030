// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom IBLT: the peeling decode and the strata estimate
 * (uapi/kbloom_var_iblt.h).  Both work on a copy of the table, table by
 * table.  A cell is peeled only when it is pure: count +1 or -1, a key
 * sum that is one encoded key, whose check hash is the check sum, whose
 * cell in that partition is this cell and whose stratum is this table.
 * A table decodes only when every one of its cells ends at zero.
 */
#include <stdlib.h>

#include "iblt_int.h"

/* The peeling state of one table. */
struct kbib_peel {
	struct kbloom_iblt *f;	/* the copy being peeled */
	__u32 t;		/* table */
	__u64 *stack;		/* cells to look at */
	__u64 top;
	__u64 found;		/* keys peeled */
	struct kbloom_iblt_entry *out;
	size_t max;
};

static bool kbib_pure(const struct kbloom_iblt *f, __u64 c, __u32 t,
		      struct kbloom_iblt_entry *e, __u64 *h)
{
	const __u64 *w = kbib_cell(f, c);
	__s64 cnt = (__s64)w[KB_IBLT_W_COUNT];
	__u64 base = (__u64)t * f->s.buckets;
	__u32 i;

	if (cnt != 1 && cnt != -1)
		return false;
	e->len = kb_iblt_decode_key(w + KB_IBLT_W_KEY, f->s.slots, e->key);
	if (!e->len)
		return false;
	if (kb_iblt_check(f->hash_id, f->seed, e->key, e->len) !=
	    w[KB_IBLT_W_CHECK])
		return false;
	*h = kb_hash(f->hash_id, f->seed, e->key, e->len);
	i = kb_iblt_partition(c - base, f->s.k, f->s.buckets);
	if (kb_iblt_cell(kb_iblt_probe(*h, i), i, f->s.k, f->s.buckets,
			 base) != c)
		return false;
	if (kb_iblt_stratum(f->hash_id, f->seed, e->key, e->len,
			    f->s.tables) != t)
		return false;
	e->sign = (__s32)cnt;
	e->value = w[KB_IBLT_W_VALUE];
	return true;
}

/* Remove the key of pure cell @c from its k cells; push them. */
static void kbib_peel_cell(struct kbib_peel *p, __u64 c,
			   const struct kbloom_iblt_entry *e, __u64 h)
{
	struct kbloom_iblt *f = p->f;
	__u64 enc[KB_IBLT_KEY_WORDS_MAX], check = kbib_cell(f, c)[KB_IBLT_W_CHECK];
	__u64 cells[KB_IBLT_K_MAX], base = (__u64)p->t * f->s.buckets;
	__u32 i;

	memcpy(enc, kbib_cell(f, c) + KB_IBLT_W_KEY, f->s.slots * 8);
	kbib_fold(f, enc, h, check, e->value, p->t, -(__s64)e->sign);
	kb_iblt_cells(h, f->s.k, f->s.buckets, base, cells);
	for (i = 0; i < f->s.k; i++)
		p->stack[p->top++] = cells[i];
	if (p->found < p->max)
		p->out[p->found] = *e;
	p->found++;
}

static bool kbib_table_zero(const struct kbloom_iblt *f, __u32 t)
{
	const __u64 *w = kbib_cell(f, (__u64)t * f->s.buckets);
	__u64 i, n = f->s.buckets * f->cw;

	for (i = 0; i < n; i++)
		if (w[i])
			return false;
	return true;
}

/*
 * Peel table @p->t: 0 when it peels to zero, -E2BIG when it does not.
 * Each peel empties a cell for good, so at most B keys come out of a
 * table that decodes; the stack holds the B cells and k per peel.
 */
static int kbib_peel_table(struct kbib_peel *p)
{
	struct kbloom_iblt_entry e;
	__u64 B = p->f->s.buckets, c, h, peels = 0;

	p->top = 0;
	for (c = 0; c < B; c++)
		p->stack[p->top++] = (__u64)p->t * B + c;
	while (p->top) {
		c = p->stack[--p->top];
		if (!kbib_pure(p->f, c, p->t, &e, &h))
			continue;
		if (++peels > B)
			return -E2BIG;
		kbib_peel_cell(p, c, &e, h);
	}
	return kbib_table_zero(p->f, p->t) ? 0 : -E2BIG;
}

static int kbib_peel_init(const struct kbloom_iblt *f, struct kbib_peel *p)
{
	int ret;

	memset(p, 0, sizeof(*p));
	ret = kbloom_iblt_dup(f, &p->f);
	if (ret)
		return ret;
	p->stack = calloc(f->s.buckets * (1 + f->s.k) + f->s.k,
			  sizeof(*p->stack));
	if (!p->stack) {
		kbloom_iblt_destroy(p->f);
		return -ENOMEM;
	}
	return 0;
}

static void kbib_peel_fini(struct kbib_peel *p)
{
	free(p->stack);
	kbloom_iblt_destroy(p->f);
}

int kbloom_iblt_decode(const struct kbloom_iblt *f,
		       struct kbloom_iblt_entry *out, size_t max, size_t *n)
{
	struct kbib_peel p;
	int ret;

	if (!f || !n || (max && !out))
		return -EINVAL;
	*n = 0;
	ret = kbib_peel_init(f, &p);
	if (ret)
		return ret;
	p.out = out;
	p.max = max;
	for (p.t = 0; p.t < f->s.tables && !ret; p.t++)
		ret = kbib_peel_table(&p);
	kbib_peel_fini(&p);
	if (ret)
		return ret;
	*n = p.found;
	return p.found > max ? -ENOSPC : 0;
}

/*
 * Eppstein et al.: strata from the top; the first that fails scales the
 * keys counted above it by 2^(t+1).
 */
int kbloom_iblt_estimate(const struct kbloom_iblt *f, __u64 *d)
{
	struct kbib_peel p;
	__u32 t;
	int ret;

	if (!f || !d || f->s.tables < 2)
		return -EINVAL;
	ret = kbib_peel_init(f, &p);
	if (ret)
		return ret;
	for (t = f->s.tables; t-- > 0;) {
		p.t = t;
		if (kbib_peel_table(&p)) {
			*d = p.found << (t + 1);
			goto out_fini;
		}
	}
	*d = p.found;
out_fini:
	kbib_peel_fini(&p);
	return 0;
}
