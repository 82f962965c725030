/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kbloom.ko's scalable and dynamic Bloom filters: the objects shared by
 * scalable.c (keys, generations), dynamic.c (DEL, merges) and
 * scalable_image.c (SAVE, RESTORE).
 *
 * f->priv is a struct kb_sbf.  Its generation list (struct kb_sgens) is
 * published with RCU: readers (TEST, the kfunc) take rcu_read_lock() and
 * walk whichever list they found, old or new, never a torn one; the writer
 * (ADD, DEL, FLUSH, SAVE, all under f->wmutex) builds a new list beside
 * the old one, publishes it with rcu_assign_pointer() and frees the old
 * list, and any generation it dropped, after a grace period.
 */
#ifndef _KBLOOM_SCALABLE_H
#define _KBLOOM_SCALABLE_H

#include "kbloom_int.h"
#include "uapi/kbloom_var_scalable.h"

/* One generation: geometry (uapi's rule), counts and its array. */
struct kb_sgen {
	struct rcu_head rcu;
	struct kb_sbf_gen g;
	u64 nwords;
	atomic64_t ones;		/* bits / counters that are not 0 */
	atomic64_t inserted;		/* keys added to it, minus deleted */
	atomic64_t saturations;
	atomic64_t words[];
};

struct kb_sgens {
	struct rcu_head rcu;
	u32 n;
	struct kb_sgen *gen[KB_SBF_GENS_MAX];
};

struct kb_sbf {
	struct kb_sbf_params p;
	struct kb_sgens __rcu *list;
	u64 bytes;			/* arrays of the list, under wmutex */
	atomic64_t refused;		/* dynamic: deletes of several matches */
	atomic64_t merges;		/* dynamic: generations merged away */
};

static inline struct kb_sbf *kb_sbf(const struct kb_filter *f)
{
	return f->priv;
}

/* The list, for the writer (f->wmutex held) or a filter nobody sees. */
static inline struct kb_sgens *kb_sbf_list(const struct kb_filter *f)
{
	return rcu_dereference_protected(kb_sbf(f)->list, 1);
}

static inline u64 kb_sgen_est(const struct kb_sgen *gen)
{
	return kb_n_est(gen->g.m, gen->g.k, atomic64_read(&gen->ones));
}

/* scalable.c */
struct kb_sgen *kb_sgen_new(struct kb_sbf *sbf, u32 i);
u64 kb_sgen_count_ones(const struct kb_sgen *gen);
void kb_sbf_params_of(const struct kb_geom *g, struct kb_sbf_params *p);
int kb_sbf_geom(const struct kb_sbf_params *p, struct kb_geom *g);

u32 kb_sgens_match(const struct kb_sgens *list, u64 h, u32 *at);

/* dynamic.c */
int kb_dbf_remove(struct kb_filter *f, u64 h);

/* scalable_image.c */
int kb_sbf_save(struct kb_filter *f, struct kbloom_image_op *cmd);
struct kb_filter *kb_sbf_restore(const void *img, u64 len, const char *name);

#endif /* _KBLOOM_SCALABLE_H */
