// SPDX-License-Identifier: GPL-2.0
/*
 * kbloomctl: age-partitioned windows of /dev/kbloom (kmod/window.c):
 * create NAME window (keys N | seconds T | milliseconds MS)
 *   (fpr P [capacity N] [hashes K] [extra-slices L] |
 *    hashes K extra-slices L slice-bits S) [seed S]
 * (module.c's create hands it here) and the window lines of stat.  add,
 * test, save and restore are the module's commands, unchanged.  The
 * module checks everything again; the checks here name the keyword at
 * fault first.
 */
#include <errno.h>
#include <string.h>

#include "kbloomctl.h"
#include "uapi/kbloom_var_window.h"

/* Keys expected in a time window when capacity is not given. */
#define WIN_CAPACITY_DEFAULT	100000ULL
#define WIN_NS_PER_S		1000000000ULL
#define WIN_NS_PER_MS		1000000ULL

struct win_args {
	__u64 keys;
	__u64 seconds;
	__u64 ms;
	__u64 capacity;
	__u64 fpr;
	__u64 slice_bits;
	__u64 seed;
	__u32 k;
	__u32 l;
};

#define WA(_n, _a, _t, _m, ...)					\
	KW(_n, _a, _t, struct win_args, _m, __VA_ARGS__)

static const struct kw win_kw[] = {
	WA("keys", "N", KWT_U64, keys, .min = 1, .max = 1ULL << 40,
	   .extra = "the last N keys are kept"),
	WA("seconds", "T", KWT_U64, seconds, .min = 1, .max = 1ULL << 31,
	   .extra = "the keys of the last T seconds are kept"),
	WA("milliseconds", "MS", KWT_U64, ms, .min = 1, .max = 1ULL << 41,
	   .extra = "the keys of the last MS ms are kept"),
	WA("capacity", "N", KWT_U64, capacity, .min = 1,
	   .max = KBLOOM_M_MAX, .extra = "keys expected in a time window"),
	WA("fpr", "P", KWT_PROB, fpr),
	WA("hashes", "K", KWT_U32, k, .min = KBLOOM_K_MIN,
	   .max = KBLOOM_K_MAX, .extra = "slices a key is added to"),
	WA("extra-slices", "L", KWT_U32, l, .min = KB_WIN_L_MIN,
	   .max = KB_WIN_L_MAX, .extra = "generations in the window"),
	WA("slice-bits", "S", KWT_U64, slice_bits, .min = KBLOOM_M_MIN,
	   .max = KBLOOM_M_MAX, .extra = "a multiple of 64"),
	WA("seed", "S", KWT_U64, seed, .min = 0, .max = ~0ULL,
	   .extra = "decimal or 0x hex"),
	{ 0 }
};

static const struct kw_table win_table = {
	.kw = win_kw,
	.missing_hint = "value (see " KBCTL_NAME " create --help)",
	.any_value = true,
};

static bool wa_has(__u64 given, const char *name)
{
	return kw_has(&win_table, given, name);
}

/* The clock and the window: keys N, seconds T or milliseconds MS. */
static int wa_window(struct ctl *c, const struct win_args *a, __u64 given,
		     struct kbloom_create *cr)
{
	int n = wa_has(given, "keys") + wa_has(given, "seconds") +
		wa_has(given, "milliseconds");

	if (n != 1)
		return ctl_usage(c, "window: give one of keys N, seconds T, milliseconds MS");
	if (wa_has(given, "keys")) {
		if (wa_has(given, "capacity"))
			return ctl_usage(c, "capacity: a keys window holds its N keys (allowed with seconds or milliseconds)");
		cr->update = KB_WIN_CLOCK_KEYS;
		cr->window = a->keys;
		return 0;
	}
	cr->update = KB_WIN_CLOCK_NS;
	cr->window = a->seconds ? a->seconds * WIN_NS_PER_S :
				  a->ms * WIN_NS_PER_MS;
	cr->capacity = a->capacity ? a->capacity : WIN_CAPACITY_DEFAULT;
	return 0;
}

/* Explicit: hashes K extra-slices L slice-bits S. */
static int wa_explicit(struct ctl *c, const struct win_args *a, __u64 given,
		       struct kbloom_create *cr)
{
	struct kb_shape s;

	if (!wa_has(given, "hashes") || !wa_has(given, "extra-slices"))
		return ctl_usage(c, "slice-bits: needs hashes K and extra-slices L too");
	if (a->slice_bits % KB_WIN_SLICE_STEP)
		return ctl_usage(c, "slice-bits '%llu': not a multiple of 64 (allowed: a multiple of 64, 64..2^32 / (K + L))",
				 (unsigned long long)a->slice_bits);
	if (kb_win_shape_init(&s, a->k, a->l, a->slice_bits, cr->update))
		return ctl_usage(c, "slice-bits %llu: times %u slices over 2^32 bits",
				 (unsigned long long)a->slice_bits,
				 a->k + a->l);
	cr->capacity = 0;
	cr->buckets = a->slice_bits;
	return 0;
}

/* Planned: fpr P, hashes and extra-slices optional. */
static int wa_planned(struct ctl *c, const struct win_args *a,
		      struct kbloom_create *cr)
{
	__u64 load = cr->update == KB_WIN_CLOCK_KEYS ? cr->window :
						       cr->capacity;
	struct kb_shape s;
	int ret;

	ret = kb_win_plan(load, a->fpr, a->k, a->l, cr->update, &s);
	if (ret)
		return ctl_usage(c, "fpr: %s for %llu keys (allowed: at most 2^32 bits; lower the window or capacity, or raise fpr)",
				 ret == -E2BIG ? "too big" : "cannot be planned",
				 (unsigned long long)load);
	cr->fpr_pico = a->fpr;
	if (cr->update == KB_WIN_CLOCK_KEYS)
		cr->capacity = 0;
	return 0;
}

static int wa_check(struct ctl *c, const struct win_args *a, __u64 given,
		    struct kbloom_create *cr)
{
	bool fpr = wa_has(given, "fpr"), sb = wa_has(given, "slice-bits");
	int ret;

	ret = wa_window(c, a, given, cr);
	if (ret)
		return ret;
	if (fpr == sb)
		return ctl_usage(c, "window size: give fpr P, or hashes K extra-slices L slice-bits S");
	cr->k = a->k;
	cr->tables = a->l;
	cr->seed = a->seed;
	ret = sb ? wa_explicit(c, a, given, cr) : wa_planned(c, a, cr);
	if (ret)
		return ret;
	if (cr->update == KB_WIN_CLOCK_NS &&
	    kb_win_gen_len(cr->window, cr->tables ? cr->tables : 1) <
	    KB_WIN_GEN_NS_MIN)
		return ctl_usage(c, "milliseconds %llu: generations under 1 ms (allowed: at least L ms)",
				 (unsigned long long)a->ms);
	return 0;
}

/* create NAME window ...: argv[0] is NAME (checked), argv[1] the type. */
int window_create(struct ctl *c, int argc, char **argv)
{
	struct kbloom_create cr = { .type = KBLOOM_TYPE_AGE_PARTITIONED };
	struct win_args a = { 0 };
	__u64 given;
	int ret;

	memcpy(cr.name, argv[0], strlen(argv[0]));
	ret = kw_parse(c, &win_table, argc - 2, argv + 2, &a, &given);
	if (ret)
		return ret;
	ret = wa_check(c, &a, given, &cr);
	if (ret)
		return ret;
	return create_send(c, &cr, wa_has(given, "seed"));
}

/* @ns as seconds with 3 decimals. */
static void win_secs(char *buf, size_t len, __u64 ns)
{
	snprintf(buf, len, "%llu.%03llu s",
		 (unsigned long long)(ns / WIN_NS_PER_S),
		 (unsigned long long)(ns % WIN_NS_PER_S / WIN_NS_PER_MS));
}

/* The window lines of stat: window, slices, head, generation. */
void window_stat_text(const struct kbloom_stat *st)
{
	char w[32], g[32], up[32], age[32];

	printf("slices:       %u of %llu bits (k %u + l %u), head %u\n",
	       st->k + st->tables, (unsigned long long)st->buckets, st->k,
	       st->tables, st->head);
	if (st->update == KB_WIN_CLOCK_KEYS) {
		printf("window:       %llu keys: %u generations of %llu (up to %llu kept)\n",
		       (unsigned long long)st->window, st->tables,
		       (unsigned long long)st->gen_len,
		       (unsigned long long)(st->window + st->gen_len));
		printf("generation:   %llu of %llu keys, %llu rotations\n",
		       (unsigned long long)st->gen_clock,
		       (unsigned long long)st->gen_len,
		       (unsigned long long)st->rotations);
		return;
	}
	win_secs(w, sizeof(w), st->window);
	win_secs(g, sizeof(g), st->gen_len);
	win_secs(up, sizeof(up), st->window + st->gen_len);
	win_secs(age, sizeof(age), st->gen_clock);
	printf("window:       %s: %u generations of %s (up to %s kept)\n",
	       w, st->tables, g, up);
	printf("generation:   age %s of %s, %llu rotations\n", age, g,
	       (unsigned long long)st->rotations);
}
