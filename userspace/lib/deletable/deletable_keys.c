// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom deletable filters: add, test, deletable and delete.  Probe i
 * is the standard filter's bit kb_probe_next() over m; its region is
 * kb_del_region() (uapi/kbloom_var_deletable.h), as in kbloom.ko.
 */
#include "deletable_int.h"

static bool kbd_key_ok(const struct kbloom_del *f, const void *key,
		       __u32 len)
{
	return f && key && len >= 1 && len <= KBLOOM_KEY_MAX;
}

/* The collision bit of @bit's region: its word in *@w, its mask. */
static __u64 kbd_cbit(const struct kbloom_del *f, __u64 bit, __u64 **w)
{
	__u32 j = kb_del_region(bit, f->shift);

	*w = &f->words[kb_del_cword(f->s.m, j)];
	return 1ULL << (j & 63);
}

/* The key's k bits into @bits (k <= KBLOOM_K_MAX). */
static void kbd_bits(const struct kbloom_del *f, const void *key, __u32 len,
		     __u64 bits[KBLOOM_K_MAX])
{
	struct kb_probe p;
	__u32 i;

	kb_probe_init(&p, kb_hash(f->hash_id, f->seed, key, len));
	for (i = 0; i < f->s.k; i++)
		bits[i] = kb_probe_next(&p, f->s.m);
}

int kbloom_del_add(struct kbloom_del *f, const void *key, __u32 len)
{
	__u64 bits[KBLOOM_K_MAX], mask, old, *cw;
	__u32 i;

	if (!kbd_key_ok(f, key, len))
		return -EINVAL;
	kbd_bits(f, key, len, bits);
	for (i = 0; i < f->s.k; i++) {
		mask = 1ULL << (bits[i] & 63);
		old = __atomic_fetch_or(&f->words[bits[i] >> 6], mask,
					__ATOMIC_RELAXED);
		if (!(old & mask))
			continue;
		mask = kbd_cbit(f, bits[i], &cw);
		if (!(kbd_load(cw) & mask))
			__atomic_fetch_or(cw, mask, __ATOMIC_RELAXED);
	}
	__atomic_fetch_add(&f->inserted, 1, __ATOMIC_RELAXED);
	return 0;
}

static bool kbd_present(const struct kbloom_del *f,
			const __u64 bits[KBLOOM_K_MAX])
{
	__u32 i;

	for (i = 0; i < f->s.k; i++)
		if (!(kbd_load(&f->words[bits[i] >> 6]) &
		      (1ULL << (bits[i] & 63))))
			return false;
	return true;
}

/* Whether @bit lies in a region no two probes met in. */
static bool kbd_free(const struct kbloom_del *f, __u64 bit)
{
	__u64 *cw, mask = kbd_cbit(f, bit, &cw);

	return !(kbd_load(cw) & mask);
}

/* Bits of the key in collision-free regions (it tests present). */
static __u32 kbd_free_bits(const struct kbloom_del *f,
			   const __u64 bits[KBLOOM_K_MAX])
{
	__u32 i, n = 0;

	for (i = 0; i < f->s.k; i++)
		n += kbd_free(f, bits[i]);
	return n;
}

/* kbd_present() of kbd_bits(), each probe made when reached. */
int kbloom_del_test(const struct kbloom_del *f, const void *key, __u32 len)
{
	struct kb_probe p;
	__u64 bit;
	__u32 i;

	if (!kbd_key_ok(f, key, len))
		return -EINVAL;
	kb_probe_init(&p, kb_hash(f->hash_id, f->seed, key, len));
	for (i = 0; i < f->s.k; i++) {
		bit = kb_probe_next(&p, f->s.m);
		if (!(kbd_load(&f->words[bit >> 6]) & (1ULL << (bit & 63))))
			return 0;
	}
	return 1;
}

int kbloom_del_deletable(const struct kbloom_del *f, const void *key,
			 __u32 len)
{
	__u64 bits[KBLOOM_K_MAX];

	if (!kbd_key_ok(f, key, len))
		return -EINVAL;
	kbd_bits(f, key, len, bits);
	return kbd_present(f, bits) && kbd_free_bits(f, bits) > 0;
}

int kbloom_del_delete(struct kbloom_del *f, const void *key, __u32 len)
{
	__u64 bits[KBLOOM_K_MAX];
	__u32 i;

	if (!kbd_key_ok(f, key, len))
		return -EINVAL;
	kbd_bits(f, key, len, bits);
	if (!kbd_present(f, bits))
		return 0;
	if (!kbd_free_bits(f, bits)) {
		__atomic_fetch_add(&f->refused, 1, __ATOMIC_RELAXED);
		return -ENOTUNIQ;
	}
	for (i = 0; i < f->s.k; i++)
		if (kbd_free(f, bits[i]))
			__atomic_fetch_and(&f->words[bits[i] >> 6],
					   ~(1ULL << (bits[i] & 63)),
					   __ATOMIC_RELAXED);
	__atomic_fetch_sub(&f->inserted, 1, __ATOMIC_RELAXED);
	__atomic_fetch_add(&f->deleted, 1, __ATOMIC_RELAXED);
	return 1;
}
