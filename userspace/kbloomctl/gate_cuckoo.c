// SPDX-License-Identifier: GPL-2.0
/*
 * kbloomctl: the filter lines of gate stats for a gate with a cuckoo
 * filter ("xdp attach gate ... filter cuckoo"): geometry, load, counts
 * and the rate now, as text or JSON members.  Called by gate.c only.
 */
#include "kbloomctl.h"
#include "libkbloom_xdp.h"

void gate_cuckoo_text(const struct kbloom_gate_cuckoo_info *ci)
{
	const struct kbloom_cuckoo_params *p = &ci->params;
	char a[32], b[32], sz[32];

	fmt_size(sz, sizeof(sz), ci->bytes);
	printf("variant:           cuckoo\n");
	printf("filter:            cuckoo, %llu buckets of %u slots, %u-bit fingerprints, %s, hash %s, seed 0x%016llx\n",
	       (unsigned long long)p->shape.buckets, p->shape.slots,
	       p->shape.fp_bits, sz, hash_name(p->hash_id),
	       (unsigned long long)p->seed);
	printf("inserted:          %llu\n", (unsigned long long)p->inserted);
	printf("load:              %.2f%% (%llu slots used)\n",
	       ci->load_ppm / 1e4, (unsigned long long)ci->used);
	printf("kicks:             %llu\n", (unsigned long long)p->kicks);
	printf("overflows:         %llu\n", (unsigned long long)p->overflows);
	fmt_prob(a, sizeof(a), ci->fpr_now_pico);
	if (p->capacity) {
		fmt_prob(b, sizeof(b), p->fpr_pico);
		printf("fpr:               %s now, target %s (capacity %llu)\n",
		       a, b, (unsigned long long)p->capacity);
	} else {
		printf("fpr:               %s now, no target\n", a);
	}
}

void gate_cuckoo_json(struct json *j, const struct kbloom_gate_cuckoo_info *ci)
{
	const struct kbloom_cuckoo_params *p = &ci->params;
	char seed[24];

	json_kstr(j, "variant", "cuckoo");
	json_ku64(j, "buckets", p->shape.buckets);
	json_ku64(j, "slots", p->shape.slots);
	json_ku64(j, "fp_bits", p->shape.fp_bits);
	json_ku64(j, "bytes", ci->bytes);
	json_kstr(j, "hash", hash_name(p->hash_id));
	snprintf(seed, sizeof(seed), "0x%016llx",
		 (unsigned long long)p->seed);
	json_kstr(j, "seed", seed);
	json_ku64(j, "inserted", p->inserted);
	json_ku64(j, "used", ci->used);
	json_kdouble(j, "load", ci->load_ppm / 1e6);
	json_ku64(j, "kicks", p->kicks);
	json_ku64(j, "overflows", p->overflows);
	json_kdouble(j, "fpr_now", pico_to_double(ci->fpr_now_pico));
	json_key(j, "fpr_target");
	if (p->capacity)
		json_double(j, pico_to_double(p->fpr_pico));
	else
		json_null(j);
}
