// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom: filter objects and single-key operations.
 */
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/random.h>

#include "kbloom_int.h"

#define KBF_HUGE	(2UL << 20)	/* transparent huge page size */

/*
 * Large arrays are mmap()ed 2 MiB-aligned with MADV_HUGEPAGE: a lookup in a
 * filter larger than the TLB reach otherwise pays a page walk on top of its
 * cache miss.  Under AddressSanitizer everything goes through the
 * allocator so that overruns hit a red zone.
 */
#if defined(__SANITIZE_ADDRESS__)
#define KBF_USE_MMAP	0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define KBF_USE_MMAP	0
#endif
#endif
#ifndef KBF_USE_MMAP
#define KBF_USE_MMAP	1
#endif

static int kbf_map_words(struct kbloom_filter *f, size_t bytes)
{
	size_t len = (bytes + KBF_HUGE - 1) & ~(KBF_HUGE - 1);
	uintptr_t start, aligned;
	void *p;

	p = mmap(NULL, len + KBF_HUGE, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return -ENOMEM;
	start = (uintptr_t)p;
	aligned = (start + KBF_HUGE - 1) & ~(uintptr_t)(KBF_HUGE - 1);
	if (aligned > start)
		munmap(p, aligned - start);
	if (start + KBF_HUGE > aligned)
		munmap((void *)(aligned + len), start + KBF_HUGE - aligned);
	madvise((void *)aligned, len, MADV_HUGEPAGE);
	f->words = (__u64 *)aligned;
	f->map_len = len;
	return 0;
}

static int kbf_alloc_words(struct kbloom_filter *f)
{
	size_t bytes = f->nwords * 8;

	if (KBF_USE_MMAP && bytes >= KBF_HUGE)
		return kbf_map_words(f, bytes);
	bytes = (bytes + KBF_CACHELINE - 1) & ~(size_t)(KBF_CACHELINE - 1);
	f->words = aligned_alloc(KBF_CACHELINE, bytes);
	if (!f->words)
		return -ENOMEM;
	memset(f->words, 0, bytes);
	return 0;
}

static void kbf_free_words(struct kbloom_filter *f)
{
	if (f->map_len)
		munmap(f->words, f->map_len);
	else
		free(f->words);
}

/* Bit i of @m to bit 8 i. */
static __u64 kbf_spread8(__u32 m)
{
	__u64 r = 0;
	__u32 i;

	for (i = 0; i < 8; i++)
		r |= (__u64)(m >> i & 1) << (8 * i);
	return r;
}

/*
 * The fields of struct kbloom_fast that libkbloom_inline.h reads when
 * version is KBLOOM__FAST_V2: the fast hash's start for each key length it
 * inlines (kb_hash_fast(): seed + KB_P3 + len KB_P1) and the blocks' size
 * in bytes.
 */
static void kbf_fast_v2(struct kbloom_filter *f)
{
	static const __u32 len[3] = { 4, 8, 16 };
	__u32 i;

	if (!f->inline_ok)
		return;
	for (i = 0; i < 3; i++)
		f->hinit[i] = f->seed + KB_P3 + (__u64)len[i] * KB_P1;
	f->hinit[3] = 0;
	f->nbytes = f->nblocks * KBLOOM_BLOCK_BYTES;
	f->fast_version = KBLOOM__FAST_V2;
}

/* Allocate a zeroed filter of checked geometry. */
int kbf_new(__u32 type, __u64 m, __u32 k, __u32 hash_id, __u32 counter_bits,
	    __u64 seed, struct kbloom_filter **fp)
{
	struct kbloom_filter *f;
	int ret;

	ret = kb_plan_check(type, m, k, counter_bits);
	if (ret)
		return ret;
	if (kb_words(type, m, counter_bits) > SIZE_MAX / 8)
		return -E2BIG;
	f = aligned_alloc(KBF_CACHELINE, sizeof(*f));
	if (!f)
		return -ENOMEM;
	memset(f, 0, sizeof(*f));
	f->type = type;
	f->m = m;
	f->k = k;
	f->hash_id = hash_id;
	f->counter_bits = counter_bits;
	f->seed = seed;
	f->sip_k1 = kb_sip_k1(seed);
	f->nblocks = type == KBLOOM_TYPE_BLOCKED ? m / KBLOOM_BLOCK_BITS : 0;
	f->nwords = kb_words(type, m, counter_bits);
	f->simd = kbf_simd_level(type, k);
	f->kmask = (1U << (k > 8 ? k - 8 : k)) - 1;
	f->kmask64 = kbf_spread8(f->kmask);
	f->inline_ok = f->simd != KBF_SCALAR && hash_id == KBLOOM_HASH_FAST &&
		       k <= 8;
	if (f->inline_ok && kbf_simd_vhash(f->simd))
		f->inline_ok = KBLOOM__INL_VHASH;
	kbf_fast_v2(f);
	ret = kbf_alloc_words(f);
	if (ret)
		goto err_free_filter;
	*fp = f;
	return 0;

err_free_filter:
	free(f);
	return ret;
}

void kbloom_destroy(struct kbloom_filter *f)
{
	if (!f)
		return;
	kbf_free_words(f);
	free(f);
}

static int kbf_name_copy(char dst[KBLOOM_NAME_LEN], const char *name)
{
	char tmp[KBLOOM_NAME_LEN] = { 0 };
	size_t len;

	if (name && name[0]) {
		len = strnlen(name, KBLOOM_NAME_LEN);
		if (len >= KBLOOM_NAME_LEN)
			return -EINVAL;
		memcpy(tmp, name, len);
		if (!kb_name_valid(tmp))
			return -EINVAL;
	}
	memcpy(dst, tmp, KBLOOM_NAME_LEN);
	return 0;
}

struct kbf_params {
	__u32 hash_id;
	__u32 counter_bits;
	bool single_writer;
	__u64 seed;
	char name[KBLOOM_NAME_LEN];
};

/* Validate type and options; defaults for what opts leaves out. */
static int kbf_parse_opts(__u32 type, const struct kbloom_opts *o,
			  struct kbf_params *par)
{
	static const struct kbloom_opts defaults;

	if (type < KBLOOM_TYPE_STANDARD || type > KBLOOM_TYPE_MAX)
		return -EINVAL;
	if (!o)
		o = &defaults;
	if (o->reserved || (o->flags & ~KBLOOM_OPT_ALL))
		return -EINVAL;
	par->single_writer = o->flags & KBLOOM_OPT_SINGLE_WRITER;
	par->hash_id = o->hash_id ? o->hash_id : KBLOOM_HASH_FAST;
	if (par->hash_id > KBLOOM_HASH_MAX)
		return -EINVAL;
	par->counter_bits = o->counter_bits;
	if (type == KBLOOM_TYPE_COUNTING && !par->counter_bits)
		par->counter_bits = KBLOOM_COUNTER_BITS_DEFAULT;
	if (type == KBLOOM_TYPE_COUNTING &&
	    par->counter_bits != KBLOOM_COUNTER_BITS_DEFAULT &&
	    par->counter_bits != KBLOOM_COUNTER_BITS_WIDE)
		return -EINVAL;
	if (type != KBLOOM_TYPE_COUNTING && par->counter_bits)
		return -EINVAL;
	if (kbf_name_copy(par->name, o->name))
		return -EINVAL;
	par->seed = o->seed;
	if ((o->flags & KBLOOM_OPT_RANDOM_SEED) &&
	    getrandom(&par->seed, sizeof(par->seed), 0) != sizeof(par->seed))
		return -errno ? -errno : -EIO;
	return 0;
}

static int kbf_create(__u32 type, __u64 m, __u32 k, const struct kbf_params *par,
		      struct kbloom_filter **fp)
{
	struct kbloom_filter *f;
	int ret;

	ret = kbf_new(type, m, k, par->hash_id, par->counter_bits, par->seed, &f);
	if (ret)
		return ret;
	memcpy(f->name, par->name, KBLOOM_NAME_LEN);
	f->single_writer = par->single_writer;
	*fp = f;
	return 0;
}

int kbloom_create(__u32 type, __u64 n, __u64 p_pico,
		  const struct kbloom_opts *opts, struct kbloom_filter **fp)
{
	struct kbf_params par;
	struct kb_plan plan;
	int ret;

	if (!fp)
		return -EINVAL;
	ret = kbf_parse_opts(type, opts, &par);
	if (ret)
		return ret;
	ret = kb_plan(type, n, p_pico, par.counter_bits, &plan);
	if (ret)
		return ret;
	ret = kbf_create(type, plan.m, plan.k, &par, fp);
	if (ret)
		return ret;
	(*fp)->capacity = n;
	(*fp)->fpr_pico = p_pico;
	return 0;
}

int kbloom_create_mk(__u32 type, __u64 m, __u32 k,
		     const struct kbloom_opts *opts, struct kbloom_filter **fp)
{
	struct kbf_params par;
	int ret;

	if (!fp)
		return -EINVAL;
	ret = kbf_parse_opts(type, opts, &par);
	if (ret)
		return ret;
	return kbf_create(type, m, k, &par, fp);
}

int kbloom_add(struct kbloom_filter *f, const void *key, __u32 len)
{
	__u32 lost;

	if (!f || !kbf_key_ok(key, len))
		return -EINVAL;
	lost = kbf_add_h(f, kbf_hash(f, key, len));
	kbf_count_f(f, &f->inserted, 1);
	if (!lost)
		return 0;
	kbf_count_f(f, &f->saturations, lost);
	return 1;
}

/* Out of line, so that the fast path of kbloom_test() needs no frame. */
__attribute__((noinline))
__u64 kbf_hash_any(const struct kbloom_filter *f, const void *key, __u32 len)
{
	return kbf_hash(f, key, len);
}

__attribute__((noinline))
static int kbf_test_any(const struct kbloom_filter *f, const void *key,
			__u32 len)
{
	return kbf_test_h(f, kbf_hash(f, key, len));
}

/* (kbloom_test): the function, not libkbloom_inline.h's macro */
int (kbloom_test)(const struct kbloom_filter *f, const void *key, __u32 len)
{
	if (!f || !kbf_key_ok(key, len))
		return -EINVAL;
#if KBF_SIMD
	if (f->simd) {
		/* the common case inline: no stack frame, a tail call */
		if (f->hash_id == KBLOOM_HASH_FAST && len == 8)
			return kbf_simd_test(f, kb_hash_fast(f->seed, key, 8));
		return kbf_simd_test(f, kbf_hash_any(f, key, len));
	}
#endif
	return kbf_test_any(f, key, len);
}

/* Decrement every counter of a key known to be present. */
static void kbf_ctr_del(struct kbloom_filter *f, __u64 h)
{
	__u32 cb = f->counter_bits, i, j, sh;
	struct kb_probe p;
	__u64 *w, old, new;

	kb_probe_init(&p, h);
	for (i = 0; i < f->k; i++) {
		j = kb_probe_next(&p, f->m);
		w = kbf_ctr_word(f, j);
		sh = kb_ctr_shift(j, cb);
		old = kbf_load(w);
		do {
			new = kb_ctr_dec(old, sh, cb);
			if (new == old)	/* saturated (or raced to zero) */
				break;
			if (f->single_writer) {
				kbf_store(w, new);
				break;
			}
		} while (!__atomic_compare_exchange_n(w, &old, new, true,
						      __ATOMIC_RELAXED,
						      __ATOMIC_RELAXED));
	}
}

int kbloom_del(struct kbloom_filter *f, const void *key, __u32 len)
{
	__u64 h;

	if (!f || !kbf_key_ok(key, len))
		return -EINVAL;
	if (f->type != KBLOOM_TYPE_COUNTING)
		return -EOPNOTSUPP;
	h = kbf_hash(f, key, len);
	if (!kbf_ctr_test(f, h))
		return -ENOENT;
	kbf_ctr_del(f, h);
	kbf_count_f(f, &f->inserted, -1ULL);
	kbf_count_f(f, &f->deleted, 1);
	return 0;
}

void kbloom_clear(struct kbloom_filter *f)
{
	__u64 i;

	if (!f)
		return;
	for (i = 0; i < f->nwords; i++)
		kbf_store(&f->words[i], 0);
	kbf_store(&f->inserted, 0);
	kbf_store(&f->deleted, 0);
	kbf_store(&f->saturations, 0);
}

bool kbf_same_geometry(const struct kbloom_filter *a,
		       const struct kbloom_filter *b)
{
	return a->type == b->type && a->hash_id == b->hash_id &&
	       a->seed == b->seed && a->m == b->m && a->k == b->k &&
	       a->counter_bits == b->counter_bits;
}

/* dst += src for every counter of a word, saturating; return lost. */
static __u64 kbf_ctr_word_add(__u64 *dst, __u64 src, __u32 cb)
{
	__u64 old = kbf_load(dst), new, lost, max = kb_ctr_max(cb), a, b;
	__u32 sh;

	do {
		new = old;
		lost = 0;
		for (sh = 0; sh < 64; sh += cb) {
			a = kb_ctr_get(old, sh, cb);
			b = kb_ctr_get(src, sh, cb);
			if (!b || a == max)
				continue;
			if (a + b > max) {
				lost += a + b - max;
				b = max - a;
			}
			new += b << sh;
		}
		if (new == old)
			break;
	} while (!__atomic_compare_exchange_n(dst, &old, new, true,
					      __ATOMIC_RELAXED,
					      __ATOMIC_RELAXED));
	return lost;
}

int kbloom_union(struct kbloom_filter *dst, const struct kbloom_filter *src)
{
	__u64 i, w, lost = 0;

	if (!dst || !src || !kbf_same_geometry(dst, src))
		return -EINVAL;
	for (i = 0; i < dst->nwords; i++) {
		w = kbf_load(&src->words[i]);
		if (!w)
			continue;
		if (dst->type == KBLOOM_TYPE_COUNTING)
			lost += kbf_ctr_word_add(&dst->words[i], w,
						 dst->counter_bits);
		else if ((kbf_load(&dst->words[i]) & w) != w)
			__atomic_fetch_or(&dst->words[i], w, __ATOMIC_RELAXED);
	}
	kbf_count(&dst->inserted, kbf_load(&src->inserted));
	kbf_count(&dst->saturations, kbf_load(&src->saturations) + lost);
	return 0;
}

const __u64 *kbloom_words(const struct kbloom_filter *f, __u64 *nwords)
{
	if (!f)
		return NULL;
	if (nwords)
		*nwords = f->nwords;
	return f->words;
}

const char *kbloom_name(const struct kbloom_filter *f)
{
	return f ? f->name : "";
}

int kbloom_set_name(struct kbloom_filter *f, const char *name)
{
	if (!f)
		return -EINVAL;
	return kbf_name_copy(f->name, name);
}
