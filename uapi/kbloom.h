/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * kbloom: the ioctl ABI of /dev/kbloom.
 *
 * The device keeps named Bloom filters (counting, blocked, standard) in
 * kernel memory, in the spirit of ipset sets.  Filters are named by 1..31
 * characters of [A-Za-z0-9_.-], NUL-padded in a KBLOOM_NAME_LEN field.
 *
 * The structures follow iommufd's rules:
 *  - every structure starts with __u32 size, the caller's sizeof; the
 *    kernel reads it with copy_struct_from_user(): a size below the
 *    structure's first version gives EINVAL, a larger size whose unknown
 *    trailing bytes are not all zero gives E2BIG, a larger size with a zero
 *    tail behaves like the exact size;
 *  - fixed-width fields, no implicit padding, user pointers in
 *    __aligned_u64 fields;
 *  - reserved fields and unknown flags must be zero: EINVAL for a non-zero
 *    reserved field, EOPNOTSUPP for an unknown flag bit;
 *  - unknown command numbers give ENOTTY; an unreadable or unwritable user
 *    pointer gives EFAULT.  The structure of a command that answers
 *    (every one but DESTROY, FLUSH, RESTORE, SWAP and RENAME) must be
 *    writable: it is checked before the command acts, so a read-only one
 *    gives EFAULT and changes nothing.  DESTROY, FLUSH, RESTORE, SWAP and
 *    RENAME only read theirs.
 *
 * Errors common to every command taking a name: EINVAL for an invalid name,
 * ENOENT when no filter has that name.  Memory for a command (a filter, an
 * image, a key batch) is charged to the caller's memory cgroup; over its
 * limit, or when memory is short, the command fails with ENOMEM (the OOM
 * killer is never invoked for it) and changes nothing.  Every mutation (CREATE, DESTROY,
 * ADD, DEL, FLUSH, RESTORE, SWAP, RENAME) needs CAP_NET_ADMIN, EPERM otherwise; VERSION,
 * TEST, COUNT, STAT, LIST and SAVE are open to anyone who could open the
 * device.
 * A failing command changes nothing, except where "done" says otherwise.
 */
#ifndef _UAPI_KBLOOM_H
#define _UAPI_KBLOOM_H

#include <linux/types.h>
#include <linux/ioctl.h>
#include <linux/const.h>
#include "kbloom_base.h"
#include "kbloom_image.h"

#define KBLOOM_DEVICE		"/dev/kbloom"
#define KBLOOM_ABI_MAJOR	1U
#define KBLOOM_ABI_MINOR	2U	/* 2: window, SWAP, RENAME, ADD results */

#define KBLOOM_IOCTL_TYPE	0xB1
#define KBLOOM_CMD_BASE		0x80

enum {
	KBLOOM_CMD_VERSION = KBLOOM_CMD_BASE,
	KBLOOM_CMD_CREATE,
	KBLOOM_CMD_DESTROY,
	KBLOOM_CMD_ADD,
	KBLOOM_CMD_DEL,
	KBLOOM_CMD_TEST,
	KBLOOM_CMD_STAT,
	KBLOOM_CMD_LIST,
	KBLOOM_CMD_FLUSH,
	KBLOOM_CMD_SAVE,
	KBLOOM_CMD_RESTORE,
	KBLOOM_CMD_COUNT,
	KBLOOM_CMD_SWAP,
	KBLOOM_CMD_RENAME,
};

/* Largest key batch (the keys buffer of ADD, DEL, TEST) in bytes. */
#define KBLOOM_BATCH_BYTES_MAX	(16U << 20)
/* Largest number of keys in one batch. */
#define KBLOOM_BATCH_KEYS_MAX	_BITUL(20)

/**
 * struct kbloom_version - KBLOOM_IOCTL_VERSION
 * @size: sizeof(struct kbloom_version)
 * @flags: must be 0
 * @major: out, KBLOOM_ABI_MAJOR
 * @minor: out, KBLOOM_ABI_MINOR
 * @image_version: out, KBLOOM_IMAGE_VERSION
 * @key_max: out, KBLOOM_KEY_MAX
 */
struct kbloom_version {
	__u32 size;
	__u32 flags;
	__u32 major;
	__u32 minor;
	__u32 image_version;
	__u32 key_max;
};

#define KBLOOM_IOCTL_VERSION	_IO(KBLOOM_IOCTL_TYPE, KBLOOM_CMD_VERSION)

/* CREATE flags */
#define KBLOOM_CREATE_SEED	_BITUL(0)	/* use @seed, else random */
#define KBLOOM_CREATE_EXIST	_BITUL(1)	/* an identical filter is ok */

/**
 * struct kbloom_create - KBLOOM_IOCTL_CREATE
 * @size: sizeof(struct kbloom_create)
 * @flags: KBLOOM_CREATE_*
 * @name: the new filter's name
 * @type: enum kbloom_type
 * @hash_id: enum kbloom_hash_id; 0 means KBLOOM_HASH_FAST
 * @capacity: expected n; with @fpr_pico, sizes the filter through the
 *            planner (uapi/kbloom_plan.h); 0 when @m and @k are given
 * @fpr_pico: target false-positive rate in 1e-12 units
 * @m: explicit bits (counters for counting), 0 when planned; out: m used
 * @k: explicit probes per key, 0 when planned; out: k used
 * @counter_bits: counting and VI counting: 4 (also when 0) or 8; 0 for
 *                bit filters; out: the width used
 * @seed: in with KBLOOM_CREATE_SEED; out: the seed used
 * @bytes: out, memory of the filter array
 * @id: out, the filter's id (unique while the module is loaded)
 * @reserved: must be 0
 * @fp_bits, @slots, @tables, @vi_l, @update, @buckets: (ABI 1.1) the
 *     geometry of the survey variants, struct kb_shape's fields of the same
 *     names (uapi/kbloom_variants.h); all 0 for standard, blocked and
 *     counting filters.  VI counting takes @vi_l (0: kb_vi_l_default(),
 *     3 for 4-bit and 4 for 8-bit counters) and @counter_bits; planned
 *     from (n, p) by kb_vi_plan().  Partitioned takes @k and @buckets
 *     (slice bits, a multiple of 64; @m must be 0, m = k s), or (n, p)
 *     planned by kb_part_plan() (uapi/kbloom_partitioned.h).  Scalable
 *     and dynamic (uapi/kbloom_var_scalable.h) take (n, p) as the first
 *     generation's capacity and the target rate; scalable also @tables =
 *     growth s (0: 2) and @buckets = ratio r in ppm (0: 900000), dynamic
 *     @counter_bits (0: 4); out: @k and @m of generation 0, @bytes its
 *     array (later generations are the writer's, within max_filter_bytes).
 *     Stable (uapi/kbloom_var_stable.h) takes @m cells and @k,
 *     @counter_bits = cell bits d (1, 2, 4, 8; 0 means 1; Max = 2^d - 1)
 *     and @buckets = P decrements per insert, or @fpr_pico with @buckets 0
 *     (P planned by kb_stable_plan() for that stable-point rate);
 *     @capacity 0.  Age-partitioned takes @update = the clock
 *     (KB_WIN_CLOCK_KEYS or KB_WIN_CLOCK_NS), @window, and @k, @tables = l
 *     and @buckets = slice bits, or (@capacity, @fpr_pico) planned by
 *     kb_win_plan() with @k and @tables optional
 *     (uapi/kbloom_var_window.h); @capacity is the keys expected in a time
 *     window and must be 0 for a count window.  Deletable
 *     (uapi/kbloom_var_deletable.h) takes (@m, @k) or (n, p) planned by
 *     kb_del_plan(), and @buckets = region bits s (a power of two up to
 *     KB_DEL_REGION_MAX; 0 means KB_DEL_REGION_DEFAULT).  D-left takes
 *     @update = its layout (KB_DLEFT_LAYOUT_SPREAD 0 or _LINES 1,
 *     uapi/kbloom_var_dleft.h).  Out: the geometry used
 *     (planned fields filled in), as STAT reports it
 * @reserved1: must be 0
 * @window: (ABI 1.2) age-partitioned: the window guaranteed, in keys or
 *     ns (a time generation is at least KB_WIN_GEN_NS_MIN ns); 0 for
 *     every other type
 *
 * Exactly one of (@capacity, @fpr_pico) and (@m, @k) is given.
 * Errors: EINVAL for a bad name, a type outside enum kbloom_type, a bad
 * hash id, counter width or geometry field, for (n, p)
 * or (m, k) out of range or both/neither given; EOPNOTSUPP for a type of
 * enum kbloom_type that this module does not implement (today: types 14,
 * 15 and every type after KBLOOM_TYPE_DELETABLE); EEXIST for a name in use
 * (unless KBLOOM_CREATE_EXIST and the existing filter has the same type,
 * hash, m, k and counter width: then 0 and the outputs describe it);
 * E2BIG when the filter exceeds max_filter_bytes or KBLOOM_M_MAX; ENOSPC
 * when max_filters or max_total_bytes would be exceeded; ENOMEM.
 */
struct kbloom_create {
	__u32 size;
	__u32 flags;
	char name[KBLOOM_NAME_LEN];
	__u32 type;
	__u32 hash_id;
	__u64 capacity;
	__u64 fpr_pico;
	__u64 m;
	__u32 k;
	__u32 counter_bits;
	__u64 seed;
	__u64 bytes;
	__u32 id;
	__u32 reserved;
	__u32 fp_bits;
	__u32 slots;
	__u32 tables;
	__u32 vi_l;
	__u32 update;
	__u32 reserved1;
	__u64 buckets;
	__u64 window;
};

#define KBLOOM_IOCTL_CREATE	_IO(KBLOOM_IOCTL_TYPE, KBLOOM_CMD_CREATE)

/* Flag of DESTROY and FLUSH: every filter; @name must be empty. */
#define KBLOOM_ALL		_BITUL(0)

/**
 * struct kbloom_name_op - KBLOOM_IOCTL_DESTROY, KBLOOM_IOCTL_FLUSH
 * @size: sizeof(struct kbloom_name_op)
 * @flags: KBLOOM_ALL or 0
 * @name: the filter (empty with KBLOOM_ALL)
 *
 * DESTROY unpublishes the filter at once and frees it after an RCU grace
 * period, so a concurrent TEST finishes safely.  FLUSH clears every bit or
 * counter and the inserted and saturation counts; for cuckoo and d-left
 * filters it is ordered with each ADD and DEL (a relocation never carries
 * an entry of before the flush past it).
 */
struct kbloom_name_op {
	__u32 size;
	__u32 flags;
	char name[KBLOOM_NAME_LEN];
};

#define KBLOOM_IOCTL_DESTROY	_IO(KBLOOM_IOCTL_TYPE, KBLOOM_CMD_DESTROY)
#define KBLOOM_IOCTL_FLUSH	_IO(KBLOOM_IOCTL_TYPE, KBLOOM_CMD_FLUSH)

/**
 * struct kbloom_keys - KBLOOM_IOCTL_ADD, KBLOOM_IOCTL_DEL, KBLOOM_IOCTL_TEST
 * @size: sizeof(struct kbloom_keys)
 * @flags: must be 0
 * @name: the filter
 * @key_len: 1..KBLOOM_KEY_MAX for fixed-size keys packed back to back;
 *           0 for variable keys, each one length byte (1..KBLOOM_KEY_MAX)
 *           followed by that many bytes
 * @count: number of keys, 1..KBLOOM_BATCH_KEYS_MAX
 * @keys: user pointer to the keys
 * @keys_len: bytes at @keys, at most KBLOOM_BATCH_BYTES_MAX; must be
 *            exactly what @count keys take
 * @results: TEST only: user pointer to a bitmap of ceil(@count / 8) bytes;
 *           bit i (byte i / 8, bit i % 8) is set iff key i is possibly
 *           present; the bits past @count are cleared.  0 for no bitmap
 *           (then only @hits).  ADD (ABI 1.2): 0, or a bitmap of the
 *           same size: bit i is set iff key i was new, definitely absent
 *           when this call inserted it (tested right before, through the
 *           same filter: a batch's results and its inserts are one call on
 *           one filter, whatever SWAP or RESTORE does meanwhile; the second
 *           of two equal keys is not new).  The test and the insert of one
 *           key are two lock-free steps: another caller adding the same
 *           key at the same moment may report it new too.  Written only
 *           when the whole batch is applied.  Must be 0 for DEL.
 *           COUNT: user pointer to @count __u64 estimates (required):
 *           estimate i is key i's multiplicity as the filter can tell it,
 *           never below the truth while no counter saturated (counting:
 *           the minimum of its k counters, the spectral Bloom filter's
 *           minimum selection; a saturated minimum reads as the counter
 *           maximum); @hits counts the non-zero estimates.
 * @done: out: keys applied (ADD: inserted; DEL: deleted; TEST: tested)
 * @hits: out: TEST: keys possibly present; DEL: keys skipped because they
 *        are definitely absent (deleting them would corrupt the counters);
 *        ADD with @results: keys that were new
 *
 * DEL of a key that was never added but tests positive (a false positive)
 * is not skipped: its counters are decremented, and keys that share them
 * may then test absent, false negatives.  This is inherent to counting
 * filters (measured in a loaded filter: 876 of 20,000 such deletes went
 * through and removed 1,548 of 2,000 real keys).  Delete only keys that
 * were added; a caller that cannot promise it keeps an exact set beside
 * the filter and deletes from the filter only what the set held (as the
 * XDP gate does with its exact map).
 *
 * The whole batch is copied and validated before any key is applied: a
 * malformed batch (EINVAL), an oversize one (E2BIG) or an unreadable one
 * (EFAULT) applies nothing and reports done = 0.  DEL and COUNT on a
 * filter whose type cannot delete or count give EOPNOTSUPP.  DEL on a
 * dynamic filter stops at the first key present in several generations:
 * ENOTUNIQ (refused, counted in STAT @kicks), done = the keys deleted
 * before it; so does DEL on a deletable filter at the first key whose
 * bits all lie in collided regions (not deletable; nothing changed for
 * it, counted in STAT @kicks).  ADD on a scalable or dynamic filter whose next generation
 * cannot be made stops with ENOSPC.  ADD on a type
 * that can be full (cuckoo, d-left) stops at the first key without room:
 * ENOSPC, with done = the keys added before it (each applied whole);
 * ENOMEM inside a batch reports done the same way.
 * Otherwise a valid batch is applied whole: ADD and TEST report done =
 * @count, DEL done + hits = @count.
 */
struct kbloom_keys {
	__u32 size;
	__u32 flags;
	char name[KBLOOM_NAME_LEN];
	__u32 key_len;
	__u32 count;
	__aligned_u64 keys;
	__u64 keys_len;
	__aligned_u64 results;
	__u32 done;
	__u32 hits;
};

#define KBLOOM_IOCTL_ADD	_IO(KBLOOM_IOCTL_TYPE, KBLOOM_CMD_ADD)
#define KBLOOM_IOCTL_DEL	_IO(KBLOOM_IOCTL_TYPE, KBLOOM_CMD_DEL)
#define KBLOOM_IOCTL_TEST	_IO(KBLOOM_IOCTL_TYPE, KBLOOM_CMD_TEST)
#define KBLOOM_IOCTL_COUNT	_IO(KBLOOM_IOCTL_TYPE, KBLOOM_CMD_COUNT)

/* STAT flag: statistics of the device instead of one filter. */
#define KBLOOM_STAT_DEVICE	_BITUL(0)

/**
 * struct kbloom_stat - KBLOOM_IOCTL_STAT
 * @size: sizeof(struct kbloom_stat)
 * @flags: KBLOOM_STAT_DEVICE or 0
 * @name: the filter (empty with KBLOOM_STAT_DEVICE)
 * All other fields are out.  For one filter:
 * @type, @hash_id, @k, @counter_bits, @m, @seed, @capacity, @fpr_pico: its
 *   parameters;
 * @bytes: memory of its array;
 * @inserted: keys added, minus keys deleted by DEL (what images record);
 * @ones: one bits (non-zero counters for counting);
 * @occupancy_ppm: @ones / @m in parts per million;
 * @n_est: cardinality estimate -(m/k) ln(1 - ones/m);
 *   (stable: @ones are the non-zero cells, @fpr_now_pico the stable
 *   point's rate, @buckets P, @counter_bits the cell width)
 * @saturations: counter increments lost to saturation;
 * @fpr_now_pico: the planner's predicted false-positive rate at
 *   n = @inserted (1e-12 units);
 * @id: the filter's id;
 * @fp_bits, @slots, @tables, @vi_l, @update, @buckets: (ABI 1.1) its
 *   geometry as given to CREATE (0 for the classic types);
 * @image_flags: KBLOOM_IMAGE_F_* of its type (MAY_FN);
 * @kicks: cuckoo: fingerprints moved by inserts; @overflows: adds refused
 *   for lack of room (cuckoo, d-left); 0 for other types.
 * Scalable and dynamic: @m, @bytes, @ones, @n_est and @saturations are
 *   summed over the generations, @fpr_now_pico is the union bound of their
 *   rates, @slots the number of generations, @tables and @buckets growth
 *   and ratio, @kicks the deletes refused (several generations matched).
 * @window, @gen_len, @gen_clock, @rotations, @head: (ABI 1.2)
 *   age-partitioned: the window guaranteed and the generation length
 *   (keys or ns), the keys in or the ns since the start of the current
 *   generation, the generations started, the physical index of the
 *   newest slice; 0 for other types.
 * With KBLOOM_STAT_DEVICE: @filters is the number of filters and @bytes
 * the memory of all of them (0 after all are destroyed); the rest is 0.
 */
struct kbloom_stat {
	__u32 size;
	__u32 flags;
	char name[KBLOOM_NAME_LEN];
	__u32 type;
	__u32 hash_id;
	__u32 k;
	__u32 counter_bits;
	__u64 m;
	__u64 seed;
	__u64 capacity;
	__u64 fpr_pico;
	__u64 bytes;
	__u64 inserted;
	__u64 ones;
	__u64 occupancy_ppm;
	__u64 n_est;
	__u64 saturations;
	__u64 fpr_now_pico;
	__u32 id;
	__u32 filters;
	__u32 fp_bits;
	__u32 slots;
	__u32 tables;
	__u32 vi_l;
	__u32 update;
	__u32 image_flags;
	__u64 buckets;
	__u64 kicks;
	__u64 overflows;
	__u64 window;
	__u64 gen_len;
	__u64 gen_clock;
	__u64 rotations;
	__u32 head;
	__u32 reserved2;
};

#define KBLOOM_IOCTL_STAT	_IO(KBLOOM_IOCTL_TYPE, KBLOOM_CMD_STAT)

/**
 * struct kbloom_list_entry - one filter of KBLOOM_IOCTL_LIST
 * @name: its name
 * @id: its id
 * @type: enum kbloom_type
 */
struct kbloom_list_entry {
	char name[KBLOOM_NAME_LEN];
	__u32 id;
	__u32 type;
};

/**
 * struct kbloom_list - KBLOOM_IOCTL_LIST
 * @size: sizeof(struct kbloom_list)
 * @flags: must be 0
 * @count: in: entries that fit at @entries (0 to ask); out: the number of
 *         filters
 * @reserved: must be 0
 * @entries: user pointer to @count struct kbloom_list_entry, sorted by name
 *
 * EMSGSIZE when more filters exist than @count entries (then @count says
 * how many; nothing else is written).
 */
struct kbloom_list {
	__u32 size;
	__u32 flags;
	__u32 count;
	__u32 reserved;
	__aligned_u64 entries;
};

#define KBLOOM_IOCTL_LIST	_IO(KBLOOM_IOCTL_TYPE, KBLOOM_CMD_LIST)

/**
 * struct kbloom_image_op - KBLOOM_IOCTL_SAVE, KBLOOM_IOCTL_RESTORE
 * @size: sizeof(struct kbloom_image_op)
 * @flags: SAVE: 0; RESTORE: KBLOOM_RESTORE_REPLACE or 0
 * @name: SAVE: the filter; RESTORE: the filter to create (or replace);
 *        empty means the name recorded in the image
 * @buf: user pointer to the image (uapi/kbloom_image.h)
 * @buf_len: SAVE: bytes available at @buf (0 to ask); RESTORE: image bytes
 * @image_len: out: SAVE: the image's size
 *
 * SAVE writes the filter's image, named, with its counts.  EMSGSIZE when
 * @buf_len is too small (then @image_len says how much is needed).
 *
 * RESTORE validates the whole image (kb_image_verify()) before anything
 * changes: EBADMSG for a bad checksum or an inconsistent header, EMSGSIZE
 * for a length that does not match it, EPROTONOSUPPORT for an unknown
 * image version, EOPNOTSUPP for an unknown type or hash, or a valid
 * image of a type the module does not implement; EINVAL when
 * neither @name nor the image names the filter.  Without
 * KBLOOM_RESTORE_REPLACE an existing name gives EEXIST; with it the filter
 * is swapped atomically: readers see the old or the new one, never a mix.
 * Size limits as for CREATE (E2BIG, ENOSPC).
 * Scalable and dynamic filters are container images (one member per
 * generation): RESTORE checks them with kb_container_verify() and
 * kb_sbf_image_check() (EBADMSG for a member that is not its generation's
 * by uapi/kbloom_var_scalable.h's rule).
 */
struct kbloom_image_op {
	__u32 size;
	__u32 flags;
	char name[KBLOOM_NAME_LEN];
	__aligned_u64 buf;
	__u64 buf_len;
	__u64 image_len;
};

#define KBLOOM_RESTORE_REPLACE	_BITUL(0)
#define KBLOOM_IOCTL_SAVE	_IO(KBLOOM_IOCTL_TYPE, KBLOOM_CMD_SAVE)
#define KBLOOM_IOCTL_RESTORE	_IO(KBLOOM_IOCTL_TYPE, KBLOOM_CMD_RESTORE)

/**
 * struct kbloom_name_pair - KBLOOM_IOCTL_SWAP, KBLOOM_IOCTL_RENAME (ABI 1.2)
 * @size: sizeof(struct kbloom_name_pair)
 * @flags: must be 0
 * @name: SWAP: one filter; RENAME: the filter to rename
 * @other: SWAP: the other filter; RENAME: its new name
 *
 * SWAP exchanges the filters of two names, as ipset's swap: afterwards
 * @name is the filter that was @other and the reverse (each keeps its
 * type, geometry, keys, counts and id).  Unlike ipset, the two need not be
 * of the same type or geometry: a name's users see whatever filter it is
 * bound to, as after RESTORE with KBLOOM_RESTORE_REPLACE.
 * RENAME gives the filter @name the unused name @other.
 *
 * Lock-free readers (the ioctls, the kfuncs) looking up a name while it is
 * swapped find its old or its new filter, never none; while a filter is
 * renamed, @name finds it or (once renamed) nothing, @other nothing or
 * (once renamed) it.  Nothing is copied: the names are rebound.
 *
 * Errors: EINVAL for an invalid @name or @other, or the same name twice;
 * ENOENT when a filter to swap, or the filter to rename, does not exist;
 * EEXIST when RENAME's @other is in use; ENOMEM (RENAME).  Never EBUSY:
 * ipset refuses to swap or rename a set that a list:set or a rule holds,
 * but nothing holds a kbloom filter by name beyond one call (a kfunc
 * reference follows the filter for one packet, not the name).  On error
 * nothing changes.
 */
struct kbloom_name_pair {
	__u32 size;
	__u32 flags;
	char name[KBLOOM_NAME_LEN];
	char other[KBLOOM_NAME_LEN];
};

#define KBLOOM_IOCTL_SWAP	_IO(KBLOOM_IOCTL_TYPE, KBLOOM_CMD_SWAP)
#define KBLOOM_IOCTL_RENAME	_IO(KBLOOM_IOCTL_TYPE, KBLOOM_CMD_RENAME)

#endif /* _UAPI_KBLOOM_H */
