/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kbloom.ko internals shared by the files of the module.
 *
 *   main.c      misc device, ioctl dispatch, module parameters
 *   filter.c    filter objects: allocation, dispatch to the type, statistics
 *   classic.c   the standard, blocked and counting types
 *   dleft.c     the d-left counting filter
 *   countmin.c  the Count-Min sketch (spectral Bloom filter)
 *   partitioned.c the partitioned Bloom filter (k slices)
 *   scalable.c  the scalable and dynamic Bloom filters (generations)
 *   dynamic.c   the dynamic filter's deletes and merges
 *   scalable_image.c their container images
 *   window.c    the age-partitioned window (k + l slices, rotations)
 *   registry.c  names -> filters (RCU-published), limits, byte accounting
 *   ctl.c       CREATE, DESTROY, FLUSH, STAT, LIST, SWAP, RENAME
 *   keys.c      ADD, DEL, TEST, COUNT key batches
 *   image.c     SAVE, RESTORE
 *   kfunc.c     kfuncs: XDP programs query the filters
 *
 * Lifetime of a filter: the registry holds one reference while the filter
 * is bound to a name; a command that works on a filter looks it
 * up under rcu_read_lock() and takes a reference with
 * refcount_inc_not_zero().  SWAP and RENAME rebind names and move no
 * reference.  DESTROY (and RESTORE with replace) unpublish
 * under kb_reg_lock and drop the registry's reference; the last reference
 * frees the filter after an RCU grace period, so a lookup racing with the
 * unpublish never touches freed memory.  No lock is taken on the key
 * paths: bits are set with atomic OR, counters move by compare-and-exchange
 * and words are read with atomic64_read() (READ_ONCE).
 */
#ifndef _KBLOOM_INT_H
#define _KBLOOM_INT_H

#include <linux/types.h>
#include <linux/atomic.h>
#include <linux/refcount.h>
#include <linux/rcupdate.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <linux/seqlock.h>

#include "uapi/kbloom.h"
#include "uapi/kbloom_variants.h"

/*
 * Every allocation a command asks for, small or large (filter arrays,
 * images, key batches): charged to the caller's memory cgroup, and over
 * its limit (or when memory is short) a failure, ENOMEM, never the OOM
 * killer: __GFP_RETRY_MAYFAIL, as bpf_map_area_alloc() does.  No warning
 * either: the caller gets the errno.
 */
#define KB_GFP		(GFP_KERNEL_ACCOUNT | __GFP_RETRY_MAYFAIL | __GFP_NOWARN)
/* Words visited between two cond_resched() in whole-array loops. */
#define KB_RESCHED_WORDS	65536

/*
 * The parameters that define a filter's words (what an image records):
 * the base header's, and the geometry of the survey variants (struct
 * kb_shape's fields, 0 for the classic types).
 */
struct kb_geom {
	u32 type;
	u32 hash_id;
	u32 k;
	u32 counter_bits;
	u64 m;
	u64 seed;
	u64 capacity;
	u64 fpr_pico;
	u32 fp_bits;
	u32 slots;
	u32 tables;
	u32 vi_l;
	u32 update;
	u64 buckets;
	u64 gen_len;		/* age-partitioned: keys or ns per generation */
};

struct kb_filter;

/*
 * One filter type, as a table of functions (the way iommufd's object ops
 * and the kernel's bpf_map_ops are): the registry, the ioctls, images and
 * the kfuncs never name a type.  A type without a table is refused by
 * CREATE and RESTORE with EOPNOTSUPP.  @h is the key's kb_hash().
 * @create:  the geometry from a CREATE command (planned or explicit):
 *           0, -EINVAL, or -E2BIG over KBLOOM_M_MAX
 * @test:    possibly present; lock-free, also from XDP (kfuncs)
 * @add:     0 or more: counter increments lost to saturation; -ENOSPC
 *           when the key has no room (nothing changed)
 * @del:     NULL when the type cannot delete (EOPNOTSUPP); true when
 *           deleted, false when definitely absent (nothing changed)
 * @can_del: NULL when every filter of a type with @del (or @remove) can
 *           delete; else whether this geometry can (EOPNOTSUPP when not:
 *           Count-Min's minimal increase, a scalable filter)
 * @count:   NULL when the type has no counts (EOPNOTSUPP); the key's
 *           multiplicity estimate
 * @ones:    NULL for a bit array (one bits); else occupied cells
 * @fpr_pico: NULL for the classic formula (kb_plan_fpr_pico()); else the
 *           type's predicted rate at @n keys, in 1e-12 (STAT)
 * @stat:    NULL, or the type's corrections to the generic statistics
 *           (n_est of a type that stores one entry per key), called
 *           last by kb_filter_stat()
 * @init:    NULL, or the type's state for a new filter, made by
 *           kb_filter_alloc() with f->g set: the containers (scalable,
 *           dynamic) their object in f->priv (may set f->bytes), the
 *           window its clock beside the array in f->scratch; 0 or -ENOMEM
 * A type whose filter is more than one array (the containers: scalable,
 * dynamic) keeps its object in f->priv and has:
 * @release: frees f->priv, after the last reference and a grace period
 * @flush:   FLUSH of f->priv, under f->wmutex
 * @remove:  instead of @del, a delete that can be refused: 1 deleted, 0
 *           definitely absent, or a negative errno (the batch stops there)
 * @save:    SAVE: the image's length in @cmd->image_len, -EMSGSIZE when
 *           @cmd->buf_len is short, else the image copied to @cmd->buf
 * @restore: a new, unpublished filter named @name from a container image
 *           that passed kb_container_verify(); ERR_PTR on error
 * A type with timers (the time window) has:
 * @arm:     NULL, or start the type's timers: the filter was published
 *           (under the registry's lock)
 * @disarm:  NULL, or stop them and wait for them: the filter was
 *           unpublished (under the registry's lock; may sleep)
 * @save_tail: NULL, or the type's state into an image's geometry tail
 * @load_tail: NULL, or the type's state from a verified image's tail,
 *           before the filter is published
 */
struct kb_type_ops {
	int (*create)(const struct kbloom_create *cmd, struct kb_geom *g);
	bool (*test)(const struct kb_filter *f, u64 h);
	int (*add)(struct kb_filter *f, u64 h);
	bool (*del)(struct kb_filter *f, u64 h);
	bool (*can_del)(const struct kb_geom *g);
	u64 (*count)(const struct kb_filter *f, u64 h);
	u64 (*ones)(const struct kb_filter *f);
	u64 (*fpr_pico)(const struct kb_filter *f, u64 n);
	void (*stat)(const struct kb_filter *f, struct kbloom_stat *st);
	int (*init)(struct kb_filter *f);
	void (*release)(struct kb_filter *f);
	void (*flush)(struct kb_filter *f);
	int (*remove)(struct kb_filter *f, u64 h);
	int (*save)(struct kb_filter *f, struct kbloom_image_op *cmd);
	struct kb_filter *(*restore)(const void *img, u64 len,
				     const char *name);
	void (*arm)(struct kb_filter *f);
	void (*disarm)(struct kb_filter *f);
	void (*save_tail)(const struct kb_filter *f,
			  struct kbloom_image_geom *t);
	void (*load_tail)(struct kb_filter *f,
			  const struct kbloom_image_geom *t);
};

struct kb_filter {
	struct rcu_head rcu;
	refcount_t ref;
	u32 id;
	struct kb_geom g;
	const struct kb_type_ops *ops;
	u64 nwords;
	u64 bytes;			/* nwords * 8 */
	atomic64_t inserted;		/* keys added minus keys deleted */
	atomic64_t saturations;
	atomic64_t kicks;		/* entries moved by adds (cuckoo) */
	atomic64_t overflows;		/* adds refused for lack of room */
	/*
	 * d-left, cuckoo: writers hold wmutex, then wlock; FLUSH holds wmutex
	 * across its whole zeroing, so no relocation can carry an entry of
	 * before the flush into the part already zeroed
	 */
	struct mutex wmutex;
	spinlock_t wlock;		/* d-left, cuckoo: serialises the writers */
	/* d-left: counts split across words; cuckoo: entries moving */
	seqcount_spinlock_t wseq;
	/* cuckoo: the writers' memory; window: its state; kfree()d */
	void *scratch;
	atomic64_t *words;
	void *priv;			/* containers: the type's object */
	char name[KBLOOM_NAME_LEN];	/* as created/restored, NUL-padded */
};

/* One ioctl call: the user's structure and its kernel copy. */
struct kb_ucmd {
	void __user *ubuf;
	u32 user_size;
	void *cmd;
};

/* main.c */
extern unsigned int kb_max_filters;
extern unsigned long long kb_max_total_bytes;
extern unsigned long long kb_max_filter_bytes;
int kb_respond(struct kb_ucmd *ucmd, size_t len);
bool kb_name_empty(const char *name);
bool kb_name_ok(const char *name);

/* filter.c */
const struct kb_type_ops *kb_type_ops(u32 type);
void kb_geom_shape(const struct kb_geom *g, struct kb_shape *s);
u64 kb_geom_words(const struct kb_geom *g);
int kb_geom_bytes(const struct kb_geom *g, u64 *bytes);
struct kb_filter *kb_filter_alloc(const struct kb_geom *g, const char *name);
void kb_filter_free(struct kb_filter *f);
void kb_filter_arm(struct kb_filter *f);
void kb_filter_disarm(struct kb_filter *f);
bool kb_filter_test(const struct kb_filter *f, const u8 *key, u32 len);
int kb_filter_add(struct kb_filter *f, const u8 *key, u32 len);
bool kb_filter_del(struct kb_filter *f, const u8 *key, u32 len);
int kb_filter_remove(struct kb_filter *f, const u8 *key, u32 len);
u64 kb_filter_count(const struct kb_filter *f, const u8 *key, u32 len);
void kb_filter_flush(struct kb_filter *f);
void kb_filter_stat(const struct kb_filter *f, struct kbloom_stat *st);
u64 kb_filter_inserted(const struct kb_filter *f);
int kb_filter_cache_init(void);
void kb_filter_cache_exit(void);

/* classic.c */
extern const struct kb_type_ops kb_standard_ops;
extern const struct kb_type_ops kb_blocked_ops;
extern const struct kb_type_ops kb_counting_ops;
bool kb_blocked_test(const struct kb_filter *f, u64 h);
bool kb_standard_test(const struct kb_filter *f, u64 h);
bool kb_counting_test(const struct kb_filter *f, u64 h);
extern const struct kb_type_ops kb_cuckoo_ops;

/* vicbf.c */
extern const struct kb_type_ops kb_vi_ops;

/* dleft.c */
extern const struct kb_type_ops kb_dleft_ops;

/* countmin.c */
extern const struct kb_type_ops kb_cm_ops;

/* partitioned.c */
extern const struct kb_type_ops kb_part_ops;

/* scalable.c */
extern const struct kb_type_ops kb_sbf_ops;	/* scalable and dynamic */
/* stable.c */
extern const struct kb_type_ops kb_stable_ops;
/* window.c */
extern const struct kb_type_ops kb_win_ops;

/* registry.c */
struct kb_filter *kb_filter_get(const char *name);
void kb_filter_put(struct kb_filter *f);
int kb_reg_publish(struct kb_filter *f, struct kb_filter **dup);
int kb_reg_replace(struct kb_filter *f);
int kb_reg_unpublish(const char *name);
int kb_reg_swap(const char *a, const char *b);
int kb_reg_rename(const char *from, const char *to);
void kb_reg_unpublish_all(void);
void kb_reg_flush_all(void);
u32 kb_reg_list(struct kbloom_list_entry *ents, u32 cap);
struct kb_filter *kb_reg_by_id(u32 id);
void kb_reg_device_stat(u32 *filters, u64 *bytes);

/* ctl.c */
int kb_cmd_create(struct kb_ucmd *ucmd);
int kb_cmd_destroy(struct kb_ucmd *ucmd);
int kb_cmd_flush(struct kb_ucmd *ucmd);
int kb_cmd_stat(struct kb_ucmd *ucmd);
int kb_cmd_list(struct kb_ucmd *ucmd);
int kb_cmd_swap(struct kb_ucmd *ucmd);
int kb_cmd_rename(struct kb_ucmd *ucmd);

/* keys.c */
int kb_cmd_add(struct kb_ucmd *ucmd);
int kb_cmd_del(struct kb_ucmd *ucmd);
int kb_cmd_test(struct kb_ucmd *ucmd);
int kb_cmd_count(struct kb_ucmd *ucmd);

/* image.c */
int kb_cmd_save(struct kb_ucmd *ucmd);
int kb_cmd_restore(struct kb_ucmd *ucmd);

/* kfunc.c */
int kb_kfunc_init(void);

#endif /* _KBLOOM_INT_H */
