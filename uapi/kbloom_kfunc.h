/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * kbloom.ko kfuncs for XDP programs: the types both sides share and the
 * kfuncs' prototypes, for kmod/kfunc.c and for BPF programs (clang
 * -target bpf defines __bpf__; there they are __ksym externs, resolved
 * by libbpf in the module's BTF).  kmod/README.md ("XDP programs reading
 * the module's filters") says when to use them.
 *
 *	struct kb_filter *f;
 *
 *	f = bpf_kbloom_get(name, sizeof(name));	acquire, NULL if absent
 *	if (!f)
 *		...no such filter: decide without it...
 *	ret = bpf_kbloom_test(f, key, len);	1 maybe, 0 absent, -EINVAL
 *	bpf_kbloom_put(f);			the verifier insists
 *
 * Without a name lookup per packet, by the filter's id (STAT, LIST,
 * bpf_kbloom_stat(); an id names one filter object, a RESTORE --replace
 * or a SWAP gives the name another id):
 *
 *	ret = bpf_kbloom_test_id(id, key, len);	1, 0, -ENOENT, -EINVAL
 *
 * The name is 1..31 bytes, ended by a NUL or by the end of the buffer.
 * Keys are 1..KBLOOM_KEY_MAX bytes.  A name, a key and a statistics
 * buffer must be writable memory (stack, a map value, the packet): the
 * 6.1 verifier checks a pointer + __sz pair for reads and for writes, so
 * .rodata is refused.
 */
#ifndef _UAPI_KBLOOM_KFUNC_H
#define _UAPI_KBLOOM_KFUNC_H

#include <linux/types.h>

/**
 * struct kbloom_kfunc_stat - bpf_kbloom_stat(): a filter at a glance
 * @id: the filter's id (a RESTORE gives a new id)
 * @type: enum kbloom_type
 * @k: probes per key
 * @hash_id: enum kbloom_hash_id
 * @counter_bits: 4 or 8 for counting filters, else 0
 * @reserved: 0
 * @m: bits, or counters
 * @bytes: bytes of the filter's array
 * @capacity: planned n, 0 if created from (m, k)
 * @fpr_pico: planned p in 1e-12 units, 0 if created from (m, k)
 * @inserted: keys added minus keys deleted
 * @saturations: counter increments lost to saturation
 *
 * Occupancy and n_est need a pass over the whole array: ask
 * KBLOOM_IOCTL_STAT for them, not a packet path.
 */
struct kbloom_kfunc_stat {
	__u32 id;
	__u32 type;
	__u32 k;
	__u32 hash_id;
	__u32 counter_bits;
	__u32 reserved;
	__u64 m;
	__u64 bytes;
	__u64 capacity;
	__u64 fpr_pico;
	__u64 inserted;
	__u64 saturations;
};

/* A filter name as a map value (the kfunc paths' maps up to 1.2.0). */
struct kbloom_kfunc_name {
	char name[32];		/* KBLOOM_NAME_LEN, NUL-padded */
};

/**
 * struct kbloom_kfunc_ref - a module filter as the kfunc paths' programs
 * find it: the value of gate_kfilter and mc_kfilter
 * @name: the filter's name (KBLOOM_NAME_LEN, NUL-padded)
 * @id: the id of the filter of that name when it was last resolved, 0:
 *      none (ids start at 1)
 * @gen: bumped by the loader at each write of the reference
 *
 * A packet tests @id with bpf_kbloom_test_id(): no name lookup, no
 * reference.  When @id answers -ENOENT (never resolved; the filter was
 * destroyed, or replaced by a RESTORE, which gives the name a filter
 * with a new id) the program looks @name up with bpf_kbloom_get(), tests
 * that filter and stores its id in @id, so the next packets take the id
 * path again; when no filter has the name the lookup is a miss (see each
 * path).  The program stores the id with a compare-and-exchange of the
 * eight bytes of @id and @gen as it read them before the lookup: an id
 * found under a name the loader has changed since (a new @gen) is never
 * stored, even where the loader's write is not atomic (an array map).
 * A packet that reads a reference while the loader writes it tests the
 * old or the new filter, or finds a torn name (a miss).  The loader
 * resolves @id (KBLOOM_IOCTL_STAT) whenever it writes @name and on
 * kbloom_xdp_module_resolve() and kbloom_xdp_replace().  A SWAP or
 * RENAME leaves both ids valid: the program keeps testing the filter it
 * resolved, now under the other name, until the next resolve (or until
 * that filter is destroyed).
 */
struct kbloom_kfunc_ref {
	char name[32];
	__u32 id;
	__u32 gen;
};

#ifdef __bpf__
/*
 * Opaque to the program: only passed back to the kfuncs.  Complete (an
 * empty struct) because libbpf 1.1 finds a forward declaration
 * incompatible with the module's struct when it matches the prototypes.
 */
struct kb_filter {
};

/* Function declarations are extern: __ksym puts them in .ksyms. */
#define KB_KSYM	__ksym
#else
struct kb_filter;
#define KB_KSYM
#endif

struct kb_filter *bpf_kbloom_get(const char *name, __u32 name__sz) KB_KSYM;
void bpf_kbloom_put(struct kb_filter *f) KB_KSYM;
int bpf_kbloom_test(struct kb_filter *f, const void *key, __u32 key__sz) KB_KSYM;
int bpf_kbloom_stat(struct kb_filter *f, struct kbloom_kfunc_stat *st,
		    __u32 st__sz) KB_KSYM;
/* By the filter's id, no reference: 1, 0, -ENOENT, -EINVAL (kmod/kfunc.c) */
int bpf_kbloom_test_id(__u32 id, const void *key, __u32 key__sz) KB_KSYM;

#undef KB_KSYM
#endif /* _UAPI_KBLOOM_KFUNC_H */
