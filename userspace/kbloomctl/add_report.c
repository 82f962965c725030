// SPDX-License-Identifier: GPL-2.0
/*
 * kbloomctl add: what it reports besides the exit code.
 *
 * -j: per key, whether it was new, as RedisBloom's BF.MADD tells: "new"
 * is true when the key was definitely absent just before the add (a
 * TEST of the batch before the ADD; an adder running at the same time can
 * make a key reported new already present) and it is the first of its
 * equal keys in the batch.
 *
 * The capacity warning: a planned filter (capacity N) that now holds more
 * than N insertions no longer meets its false-positive target; ipset says
 * "set is full", RedisBloom refuses or grows, kbloomctl warns (-q: not).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "kbloomctl.h"

struct add_key {
	const __u8 *p;
	__u32 len;
	__u64 idx;
};

int add_pre_test(struct ctl *c, const char *name, const struct keyset *ks,
		 __u8 **was)
{
	struct kbloom_dev_batch b = { 0 };
	long ret;

	*was = calloc(1, ks->count / 8 + 1);
	if (!*was)
		return ctl_syserr(c, ENOMEM, NULL, "add %s", name);
	ret = kbloom_dev_test_batch(c->dev_fd, name, ks->buf, ks->len,
				    ks->key_len, ks->count, *was, &b);
	if (ret < 0)
		return ctl_syserr(c, (int)ret, ret == -ENOENT ?
				  "no such filter" : NULL,
				  "add %s: test before the add", name);
	return 0;
}

static int add_key_cmp(const void *a, const void *b)
{
	const struct add_key *x = a, *y = b;
	int d;

	if (x->len != y->len)
		return x->len < y->len ? -1 : 1;
	d = memcmp(x->p, y->p, x->len);
	if (d)
		return d;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/*
 * Mark in @was every key that is not the first of its equal keys: its
 * first occurrence makes it present.  Return: 0 or -ENOMEM.
 */
static int add_mark_repeats(const struct keyset *ks, __u8 *was)
{
	struct key_iter it = { 0 };
	struct add_key *k;
	const __u8 *p;
	__u64 i = 0;
	__u32 len;

	k = calloc(ks->count ? ks->count : 1, sizeof(*k));
	if (!k)
		return -ENOMEM;
	while (i < ks->count && keys_next(ks, &it, &p, &len)) {
		k[i] = (struct add_key){ .p = p, .len = len, .idx = i };
		i++;
	}
	qsort(k, i, sizeof(*k), add_key_cmp);
	while (i-- > 1)
		if (k[i].len == k[i - 1].len &&
		    !memcmp(k[i].p, k[i - 1].p, k[i].len))
			was[k[i].idx / 8] |= 1U << (k[i].idx % 8);
	free(k);
	return 0;
}

static void add_json(const struct keyset *ks, const __u8 *was,
		     const char *name, __u64 done)
{
	struct key_iter it = { 0 };
	const __u8 *key;
	__u64 i, fresh = 0;
	char text[272];
	struct json j;
	__u32 len;

	for (i = 0; i < ks->count; i++)
		fresh += !(was[i / 8] & (1U << (i % 8)));
	json_init(&j, stdout);
	json_obj(&j);
	json_kstr(&j, "filter", name);
	json_ku64(&j, "added", done);
	json_ku64(&j, "new", fresh);
	json_key(&j, "keys");
	json_arr(&j);
	for (i = 0; keys_next(ks, &it, &key, &len); i++) {
		key_render(ks->enc, key, len, text, sizeof(text));
		json_obj(&j);
		json_kstr(&j, "key", text);
		json_kbool(&j, "new", !(was[i / 8] & (1U << (i % 8))));
		json_obj_end(&j);
	}
	json_arr_end(&j);
	json_obj_end(&j);
	json_end(&j);
}

/* past its planned capacity: a warning, not an error */
static void add_capacity_warn(struct ctl *c, const char *name)
{
	struct kbloom_stat st;
	char p[32];

	if (ctl_quiet(c) || kbloom_dev_stat(c->dev_fd, name, &st) ||
	    !st.capacity || st.inserted <= st.capacity)
		return;
	fmt_prob(p, sizeof(p), st.fpr_pico);
	ctl_warn(c, "add %s: %llu insertions, past the planned capacity %llu: the false-positive rate is above its target %s (a larger filter keeps it)",
		 name, (unsigned long long)st.inserted,
		 (unsigned long long)st.capacity, p);
}

int add_report(struct ctl *c, const struct keyset *ks, __u8 *was,
	       const char *name, __u64 done)
{
	int ret = 0;

	if (c->set[CO_JSON] && was && !ctl_quiet(c)) {
		if (add_mark_repeats(ks, was))
			return ctl_syserr(c, ENOMEM, NULL, "add %s", name);
		add_json(ks, was, name, done);
		ret = ctl_flush_stdout(c);
	}
	add_capacity_warn(c, name);
	return ret;
}
