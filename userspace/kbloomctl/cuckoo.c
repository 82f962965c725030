// SPDX-License-Identifier: GPL-2.0
/*
 * kbloomctl: cuckoo filters of /dev/kbloom (kmod/cuckoo.c): the cuckoo
 * form of create (module.c's create hands "NAME cuckoo ..." here), count,
 * and the cuckoo lines of stat.  add, del, test, save and restore are the
 * module's commands, unchanged.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

#include "kbloomctl.h"
#include "uapi/kbloom_variants.h"

static int kw_slots(const struct ctl *c, const struct kw *k, const char *v,
		    void *field)
{
	if (strcmp(v, "1") && strcmp(v, "2") && strcmp(v, "4") &&
	    strcmp(v, "8"))
		return ctl_usage(c, "slots '%s': not a bucket size (allowed: 1, 2, 4 or 8)",
				 v);
	*(__u32 *)field = (__u32)atoi(v);
	return 0;
}

#define CK(_n, _a, _t, _m, ...)					\
	KW(_n, _a, _t, struct kbloom_create, _m, __VA_ARGS__)

static const struct kw cuckoo_kw[] = {
	CK("capacity", "N", KWT_U64, capacity, .min = 1,
	   .max = KBLOOM_M_MAX, .extra = "keys expected"),
	CK("fpr", "P", KWT_PROB, fpr_pico),
	CK("fp-bits", "F", KWT_U32, fp_bits, .min = KB_CUCKOO_FP_MIN,
	   .max = KB_CUCKOO_FP_MAX, .extra = "fingerprint bits"),
	CK("slots", "B", KWT_FN, slots, .parse = kw_slots),
	CK("buckets", "N", KWT_U64, buckets, .min = 2, .max = KBLOOM_M_MAX),
	CK("seed", "S", KWT_U64, seed, .min = 0, .max = ~0ULL,
	   .extra = "decimal or 0x hex"),
	{ 0 }
};

static const struct kw_table cuckoo_table = {
	.kw = cuckoo_kw,
	.missing_hint = "value (see " KBCTL_NAME " create --help)",
	.any_value = true,
};

static bool ck_has(__u64 given, const char *name)
{
	return kw_has(&cuckoo_table, given, name);
}

/* Planned (capacity N fpr P) or explicit (fp-bits F slots B buckets N). */
static int ck_check(struct ctl *c, struct kbloom_create *cr, __u64 given)
{
	bool cap = ck_has(given, "capacity"), fpr = ck_has(given, "fpr");
	bool fpb = ck_has(given, "fp-bits"), slots = ck_has(given, "slots");
	bool bk = ck_has(given, "buckets"), planned = cap || fpr;
	struct kb_shape s = { .type = KBLOOM_TYPE_CUCKOO };
	int ret;

	if (planned == (fpb || slots || bk))
		return ctl_usage(c, "cuckoo size: give capacity N fpr P, or fp-bits F slots B buckets N");
	if (planned && !(cap && fpr))
		return ctl_usage(c, "%s: needs %s too", cap ? "capacity" : "fpr",
				 cap ? "fpr P" : "capacity N");
	if (planned) {
		ret = kb_cuckoo_plan(cr->capacity, cr->fpr_pico, &s);
		if (ret)
			return ctl_usage(c, "capacity %llu fpr: %s (allowed: fpr >= 1.8e-9, at most 2^32 slots)",
					 (unsigned long long)cr->capacity,
					 ret == -E2BIG ? "too big" :
							 "cannot be planned");
		return 0;
	}
	if (!(fpb && slots && bk))
		return ctl_usage(c, "cuckoo geometry: needs fp-bits F, slots B and buckets N");
	s.fp_bits = cr->fp_bits;
	s.slots = cr->slots;
	s.buckets = cr->buckets;
	if (kb_shape_derive(&s))
		return ctl_usage(c, "buckets %llu: times slots %u over 2^32",
				 (unsigned long long)cr->buckets, cr->slots);
	return 0;
}

/* create NAME cuckoo ...: argv[0] is NAME (checked), argv[1] "cuckoo". */
int cuckoo_create(struct ctl *c, int argc, char **argv)
{
	struct kbloom_create cr = { .type = KBLOOM_TYPE_CUCKOO };
	__u64 given;
	int ret;

	memcpy(cr.name, argv[0], strlen(argv[0]));
	ret = kw_parse(c, &cuckoo_table, argc - 2, argv + 2, &cr, &given);
	if (ret)
		return ret;
	ret = ck_check(c, &cr, given);
	if (ret)
		return ret;
	return create_send(c, &cr, ck_has(given, "seed"));
}

/* The cuckoo lines of stat: geometry, load, kicks, overflows. */
void cuckoo_stat_text(const struct kbloom_stat *st)
{
	printf("cuckoo:       %u-bit fingerprints, %llu buckets of %u slots\n",
	       st->fp_bits, (unsigned long long)st->buckets, st->slots);
	printf("load:         %.2f%% (%llu of %llu slots)\n",
	       st->occupancy_ppm / 10000.0, (unsigned long long)st->ones,
	       (unsigned long long)st->m);
	printf("kicks:        %llu\noverflows:    %llu\n",
	       (unsigned long long)st->kicks,
	       (unsigned long long)st->overflows);
}

static void count_print(const struct keyset *ks, const __u64 *est)
{
	struct key_iter it = { 0 };
	const __u8 *key;
	char text[272];
	__u64 i = 0;
	__u32 len;

	while (keys_next(ks, &it, &key, &len)) {
		key_render(ks->enc, key, len, text, sizeof(text));
		printf("%s: %llu\n", text, (unsigned long long)est[i++]);
	}
}

static int count_ioctl(struct ctl *c, const char *name,
		       const struct keyset *ks, __u64 *est)
{
	struct kbloom_keys b = {
		.size = sizeof(b), .key_len = ks->key_len,
		.count = (__u32)ks->count, .keys = (uintptr_t)ks->buf,
		.keys_len = ks->len, .results = (uintptr_t)est,
	};

	memcpy(b.name, name, strlen(name));
	if (ks->count > KBLOOM_BATCH_KEYS_MAX)
		return -E2BIG;
	return ioctl(c->dev_fd, KBLOOM_IOCTL_COUNT, &b) ? -errno : 0;
}

static int cmd_count(struct ctl *c, int argc, char **argv)
{
	struct keyset ks = { 0 };
	__u64 *est = NULL;
	int rc;

	rc = arg_name(c, "NAME", argv[0]);
	if (rc)
		return rc;
	rc = keys_collect(c, argc - 1, argv + 1, &ks);
	if (rc)
		goto out;
	est = calloc(ks.count + 1, sizeof(*est));
	rc = est ? ctl_dev(c) : ctl_syserr(c, -ENOMEM, NULL, "count");
	if (rc)
		goto out;
	rc = count_ioctl(c, argv[0], &ks, est);
	if (rc) {
		rc = ctl_syserr(c, rc, rc == -EOPNOTSUPP ?
				"this filter type has no counts" : NULL,
				"count %s", argv[0]);
		goto out;
	}
	if (!ctl_quiet(c)) {
		count_print(&ks, est);
		rc = ctl_flush_stdout(c);
	}
out:
	free(est);
	keys_free(&ks);
	return rc;
}

const struct ctl_cmd cuckoo_cmds[] = {
	{
		.name = "count",
		.synopsis = "NAME KEY... | NAME -f FILE | NAME -",
		.summary = "count keys: copies in a cuckoo filter, the minimum counter of a counting filter or Count-Min sketch",
		.help =
"Keys as for add.  Prints \"KEY: N\" per key: for a cuckoo filter the\n"
"copies of the key's fingerprint in its two buckets, for a counting\n"
"filter or a Count-Min sketch the minimum of its counters (never below\n"
"the true count while no counter saturated).\n",
		.min_args = 1,
		.max_args = CTL_ARGS_ANY,
		.opts = CTL_OPT(CO_KEY) | CTL_OPT(CO_FILE),
		.run = cmd_count,
	},
	{ 0 }
};
