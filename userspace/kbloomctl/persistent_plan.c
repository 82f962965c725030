// SPDX-License-Identifier: GPL-2.0
/*
 * kbloomctl persistent plan: the size of the epoch filters of an archive
 * (kb_pers_plan(), uapi/kbloom_var_persistent.h) for N keys per epoch and
 * ranges of up to R epochs at rate P, and the commands that make them.
 * Creates nothing and needs no module.
 */
#include <string.h>

#include "kbloomctl.h"
#include "uapi/kbloom_var_persistent.h"

struct pplan_args {
	__u64 n;
	__u64 range;
	__u64 p;
	__u32 type;
};

static const char *const pplan_type_words[] = {
	"blocked", "standard", "counting", NULL
};

static const __u32 pplan_type_ids[] = {
	KBLOOM_TYPE_BLOCKED, KBLOOM_TYPE_STANDARD, KBLOOM_TYPE_COUNTING,
};

#define PP(_n, _a, _t, _m, ...)					\
	KW(_n, _a, _t, struct pplan_args, _m, __VA_ARGS__)

static const struct kw pplan_kw[] = {
	PP("keys", "N", KWT_U64, n, .min = 1, .max = KBLOOM_M_MAX,
	   .extra = "keys per epoch", .required = true,
	   .help = "keys per epoch"),
	PP("range", "R", KWT_U64, range, .min = 1, .max = KB_PERS_EPOCHS_MAX,
	   .extra = "epochs", .required = true,
	   .help = "the widest range of epochs queried"),
	PP("fpr", "P", KWT_PROB, p, .required = true,
	   .help = "the rate wanted for any such range"),
	PP("type", "blocked|standard|counting", KWT_ENUM, type,
	   .words = pplan_type_words, .vals = pplan_type_ids,
	   .help = "the epochs' type (default blocked)"),
	{ 0 }
};

const struct kw_table pplan_table = { .kw = pplan_kw };

static void pplan_text(const struct pplan_args *a, const struct kb_plan *pl)
{
	char tp[32], sz[64], sz2[64];

	fmt_prob(tp, sizeof(tp), a->p);
	fmt_size(sz, sizeof(sz), pl->bytes);
	fmt_size(sz2, sizeof(sz2), 2 * pl->bytes);
	printf("epochs of %llu keys, ranges of up to %llu epochs, fpr %s\n",
	       (unsigned long long)a->n, (unsigned long long)a->range, tp);
	printf("epoch filter: %s m=%llu k=%u, %s\n", type_name(a->type),
	       (unsigned long long)pl->m, pl->k, sz);
	printf("archive:      about %s per epoch (the epoch and its merges)\n",
	       sz2);
	printf("a range:      at most %u filters, union bound at most %s\n",
	       kb_pers_cover_max(a->range), tp);
	printf("module:       kbloomctl create NAME %s bits %llu hashes %u\n",
	       type_name(a->type), (unsigned long long)pl->m, pl->k);
}

static void pplan_json(const struct pplan_args *a, const struct kb_plan *pl)
{
	struct json j;

	json_init(&j, stdout);
	json_obj(&j);
	json_ku64(&j, "keys", a->n);
	json_ku64(&j, "range", a->range);
	json_kdouble(&j, "fpr_target", pico_to_double(a->p));
	json_kstr(&j, "type", type_name(a->type));
	json_ku64(&j, "m", pl->m);
	json_ku64(&j, "k", pl->k);
	json_ku64(&j, "bytes", pl->bytes);
	json_ku64(&j, "filters_max", kb_pers_cover_max(a->range));
	json_obj_end(&j);
	json_end(&j);
}

int persistent_cmd_plan(struct ctl *c, int argc, char **argv)
{
	struct pplan_args a = { .type = KBLOOM_TYPE_BLOCKED };
	struct kb_plan pl;
	char tp[32];
	int ret;

	ret = kw_parse(c, &pplan_table, argc, argv, &a, NULL);
	if (ret)
		return ret;
	ret = kb_pers_plan(a.type, a.n, a.range, a.p,
			   a.type == KBLOOM_TYPE_COUNTING ? 4 : 0, &pl);
	if (ret) {
		fmt_prob(tp, sizeof(tp), a.p);
		return ctl_usage(c, "keys %llu range %llu fpr %s: %s (allowed: keys x range up to 2^32 keys, fpr 1e-9..0.5)",
				 (unsigned long long)a.n,
				 (unsigned long long)a.range, tp,
				 ret == -E2BIG ? "too big for one filter" :
						 "cannot be planned");
	}
	if (ctl_quiet(c))
		return KBCTL_OK;
	if (c->set[CO_JSON])
		pplan_json(&a, &pl);
	else
		pplan_text(&a, &pl);
	return ctl_flush_stdout(c);
}
