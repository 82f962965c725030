// SPDX-License-Identifier: GPL-2.0
/*
 * kbloomctl add: what it reports besides the exit code.
 *
 * -j: per key, whether it was new, as RedisBloom's BF.MADD tells: "new"
 * is true when the key was definitely absent when the module inserted it.
 * The module answers that in the ADD that inserts the keys
 * (kbloom_dev_add_batch_new(), KBLOOM_IOCTL_ADD with results): the answers
 * and the inserts are one call on one filter, so a swap or restore of the
 * name meanwhile cannot mix two filters, and the second of two equal keys
 * of the batch is not new.  Another adder of the same key at the same
 * moment may report it new too (the module tests, then inserts, without a
 * lock).
 *
 * The capacity warning: a planned filter (capacity N) that now holds more
 * than N insertions no longer meets its false-positive target; ipset says
 * "set is full", RedisBloom refuses or grows, kbloomctl warns (-q: not).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "kbloomctl.h"

static void add_json(const struct keyset *ks, const __u8 *fresh,
		     const char *name, __u64 done)
{
	struct key_iter it = { 0 };
	const __u8 *key;
	__u64 i, n = 0;
	char text[272];
	struct json j;
	__u32 len;

	for (i = 0; i < ks->count; i++)
		n += !!(fresh[i / 8] & (1U << (i % 8)));
	json_init(&j, stdout);
	json_obj(&j);
	json_kstr(&j, "filter", name);
	json_ku64(&j, "added", done);
	json_ku64(&j, "new", n);
	json_key(&j, "keys");
	json_arr(&j);
	for (i = 0; keys_next(ks, &it, &key, &len); i++) {
		key_render(ks->enc, key, len, text, sizeof(text));
		json_obj(&j);
		json_kstr(&j, "key", text);
		json_kbool(&j, "new", !!(fresh[i / 8] & (1U << (i % 8))));
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

int add_report(struct ctl *c, const struct keyset *ks, const __u8 *fresh,
	       const char *name, __u64 done)
{
	int ret = 0;

	if (c->set[CO_JSON] && fresh && !ctl_quiet(c)) {
		add_json(ks, fresh, name, done);
		ret = ctl_flush_stdout(c);
	}
	add_capacity_warn(c, name);
	return ret;
}
