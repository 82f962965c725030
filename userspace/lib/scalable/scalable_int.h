/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * libkbloom scalable and dynamic filter internals.
 *
 *   scalable.c        create, destroy, clear, statistics, new generations
 *   scalable_gen.c    one generation's array: test, add, delete, merge
 *   scalable_keys.c   add, test, delete and merge over the generations
 *   scalable_image.c  container images
 *   scalable_map.c    the maps of the XDP lookup
 *
 * One writer at a time (libkbloom_scalable.h): plain loads and stores.
 */
#ifndef _KBLOOM_SCALABLE_INT_H
#define _KBLOOM_SCALABLE_INT_H

#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "libkbloom_scalable.h"
#include "uapi/kbloom_hash.h"
#include "uapi/kbloom_var_scalable.h"

/* One generation: its geometry, array and counts. */
struct ksbf_gen {
	struct kb_sbf_gen g;
	__u64 *words;
	__u64 nwords;
	__u64 ones;		/* set bits, non-zero counters */
	__u64 inserted;		/* keys added to it, minus deleted */
	__u64 saturations;
};

struct kbloom_sbf {
	struct kb_sbf_params p;
	__u32 hash_id;
	__u32 ngens;
	__u64 seed;
	struct ksbf_gen *gens[KB_SBF_GENS_MAX];
	__u64 inserted;
	__u64 refused;
	__u64 merges;
	__u64 overflows;
	char name[KBLOOM_NAME_LEN];
};

/* scalable.c */
int ksbf_gen_new(const struct kbloom_sbf *f, __u32 i, struct ksbf_gen **gp);
void ksbf_gen_free(struct ksbf_gen *gen);
int ksbf_new(const struct kb_sbf_params *p, __u32 hash_id, __u64 seed,
	    struct kbloom_sbf **fp);

/* scalable_gen.c */
bool ksbf_gen_test(const struct ksbf_gen *gen, __u64 h);
void ksbf_gen_add(struct ksbf_gen *gen, __u64 h);
void ksbf_gen_del(struct ksbf_gen *gen, __u64 h);
void ksbf_gen_merge(struct ksbf_gen *dst, const struct ksbf_gen *src);
__u64 ksbf_gen_count_ones(const struct ksbf_gen *gen);

static inline __u64 ksbf_gen_est(const struct ksbf_gen *gen)
{
	return kb_n_est(gen->g.m, gen->g.k, gen->ones);
}

#endif /* _KBLOOM_SCALABLE_INT_H */
