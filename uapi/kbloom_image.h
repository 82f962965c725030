/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * kbloom: the serialized filter image, the one format that moves a filter
 * between kbloom.ko (SAVE/RESTORE), libkbloom (files, memory) and BPF maps.
 *
 *   struct kbloom_image_hdr   (KBLOOM_IMAGE_HDR_LEN bytes, little-endian)
 *   struct kbloom_image_geom  (version 3 only: KBLOOM_IMAGE_GEOM_LEN bytes)
 *   payload                   (payload_len bytes: the filter's 64-bit words,
 *                              each little-endian, in index order)
 *
 * Version 2 is the standard, blocked and counting filters (the classic
 * types), hdr_len 128.  Version 3 is every later type: the base header is
 * followed by a geometry tail (fingerprint bits, bucket slots, subtables
 * or rows, counter width, ...; kbloom_variants.h), hdr_len 192.  Writers
 * write version 2 for the classic types, so that version-2 readers keep
 * reading them; a version-2 reader refuses a version-3 image with
 * -EPROTONOSUPPORT.  A filter made of generations or rows travels as a
 * container image: a header and N member images, each valid on its own
 * (struct kbloom_container_hdr, below).
 *
 * crc is CRC-32C (Castagnoli, reflected polynomial 0x82F63B78, initial value
 * and final xor 0xFFFFFFFF) over the header (hdr_len bytes: the geometry
 * tail included) with the crc field set to zero, followed by the payload.
 *
 * kb_image_check() validates a header against the total image length and
 * returns, in this order of checks:
 *   -EMSGSIZE         image shorter than the header;
 *   -EBADMSG          wrong magic;
 *   -EPROTONOSUPPORT  unknown version;
 *   -EBADMSG          hdr_len, flags or a reserved field not as defined;
 *   -EMSGSIZE         image shorter than hdr_len;
 *   -EOPNOTSUPP       unknown type or hash id, or a hash id the type
 *                     does not take (kb_type_hash_ok());
 *   -EBADMSG          a type of the other version; inconsistent
 *                     parameters (k, m, block_bits, counter_bits,
 *                     payload_len, saturations on a bit filter, an invalid
 *                     name);
 *   -EMSGSIZE         total length != hdr_len + payload_len.
 * For version 3 it reads only the base header; kb_image_geom_check() checks
 * the geometry tail (h must be followed by it in memory):
 *   -EBADMSG          a reserved field of the tail not zero;
 *   -EOPNOTSUPP       a type whose geometry this contract does not define
 *                     yet (a later survey variant);
 *   -EBADMSG          a geometry out of range (kb_shape_check()), the
 *                     MAY_FN flag not that of the type, saturations on a
 *                     filter without counters, payload_len not the shape's.
 * kb_image_verify() runs both and adds -EBADMSG for a wrong checksum and
 * for a payload no filter of the type can hold (a VI counter in [1, L):
 * kb_vi_counters_ok(); a deletable bitmap bit past the last region:
 * kb_del_payload_ok(); accurate-counting levels that do not fit or are
 * followed by ones: kb_acbf_payload_ok(); an FP-CBF cell of counter 0
 * with a fingerprint: kb_fpcbf_cells_ok()).
 */
#ifndef _UAPI_KBLOOM_IMAGE_H
#define _UAPI_KBLOOM_IMAGE_H

#include <linux/types.h>
#include <linux/errno.h>
#include "kbloom_base.h"
#include "kbloom_layout.h"
#include "kbloom_variants.h"

#define KBLOOM_IMAGE_MAGIC	0x4D4C424BU	/* "KBLM" */
/*
 * Version 2: standard and counting payloads are at the positions of the
 * 64-bit multiplicative probe sequence (kbloom_layout.h); version 1 used
 * double hashing in the 32-bit domain, so its images are refused rather
 * than read at the wrong positions.
 */
#define KBLOOM_IMAGE_VERSION	2U
/* Version 3: a geometry tail after the base header, for every later type. */
#define KBLOOM_IMAGE_VERSION_GEOM	3U
/* The newest version readers understand. */
#define KBLOOM_IMAGE_VERSION_MAX	KBLOOM_IMAGE_VERSION_GEOM
#define KBLOOM_NAME_LEN		32U		/* 1..31 chars + NUL */

/* Header flags (version 3; version 2 has none) */
#define KBLOOM_IMAGE_F_MAY_FN	0x01U	/* the type can give false negatives */
#define KBLOOM_IMAGE_F_ALL	KBLOOM_IMAGE_F_MAY_FN

struct kbloom_image_hdr {
	__u32 magic;		/* KBLOOM_IMAGE_MAGIC */
	__u16 version;		/* KBLOOM_IMAGE_VERSION */
	__u16 hdr_len;		/* sizeof(struct kbloom_image_hdr) */
	__u8 type;		/* enum kbloom_type */
	__u8 hash_id;		/* enum kbloom_hash_id */
	__u8 counter_bits;	/* counter width (struct kb_shape), or 0 */
	__u8 flags;		/* KBLOOM_IMAGE_F_*, 0 in version 2 */
	__u32 k;		/* probes per key */
	__u32 block_bits;	/* 512 for blocked, 0 otherwise */
	__u32 reserved0;	/* must be 0 */
	__u64 seed;		/* hash seed (SipHash key material) */
	__u64 m;		/* bits, or counters for counting */
	__u64 capacity;		/* planned n, 0 if built from (m, k) */
	__u64 fpr_pico;		/* planned p in 1e-12, 0 if from (m, k) */
	__u64 inserted;		/* add operations applied */
	__u64 saturations;	/* counter increments lost to saturation */
	__u64 payload_len;	/* bytes after the header */
	char name[KBLOOM_NAME_LEN];	/* NUL-padded, may be empty */
	__u32 crc;		/* CRC-32C, see above */
	__u32 reserved1;	/* must be 0 */
	__u64 reserved2;	/* must be 0 */
};

#define KBLOOM_IMAGE_HDR_LEN	128U

/**
 * struct kbloom_image_geom - the version-3 geometry tail
 * @fp_bits, @slots, @tables, @vi_l, @update, @buckets: struct kb_shape's
 *     fields of the same names (0 where the type has none)
 * @reserved0: must be 0
 * @kicks: cuckoo: fingerprints moved by inserts (a statistic), else 0
 * @overflows: cuckoo and d-left: adds refused for lack of room, else 0
 * @reserved: must be 0; later types give these fields names: the
 *     age-partitioned window keeps its state there (KB_WIN_GEOM_*,
 *     kbloom_var_window.h)
 */
struct kbloom_image_geom {
	__u8 fp_bits;
	__u8 slots;
	__u8 tables;
	__u8 vi_l;
	__u8 update;
	__u8 reserved0[3];
	__u64 buckets;
	__u64 kicks;
	__u64 overflows;
	__u64 reserved[4];
};

#define KBLOOM_IMAGE_GEOM_LEN	64U

/* A version-3 header as read in one piece. */
struct kbloom_image_head {
	struct kbloom_image_hdr h;
	struct kbloom_image_geom g;
};

/* hdr_len of a version: 0 for a version no reader knows. */
static inline __u32 kb_image_hdr_len_of(__u32 version)
{
	if (version == KBLOOM_IMAGE_VERSION)
		return KBLOOM_IMAGE_HDR_LEN;
	if (version == KBLOOM_IMAGE_VERSION_GEOM)
		return KBLOOM_IMAGE_HDR_LEN + KBLOOM_IMAGE_GEOM_LEN;
	return 0;
}

/* The image version a type is written in. */
static inline __u32 kb_image_version_of(__u32 type)
{
	return kb_type_classic(type) ? KBLOOM_IMAGE_VERSION :
				       KBLOOM_IMAGE_VERSION_GEOM;
}

static inline __u16 kb_le16(__u16 v)
{
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	return __builtin_bswap16(v);
#else
	return v;
#endif
}

static inline __u32 kb_le32(__u32 v)
{
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	return __builtin_bswap32(v);
#else
	return v;
#endif
}

static inline __u64 kb_le64(__u64 v)
{
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	return __builtin_bswap64(v);
#else
	return v;
#endif
}

/*
 * CRC-32C, four bits at a time.  kb_crc32c_update() works on the raw
 * (pre-inverted) register: start from 0xFFFFFFFF, invert at the end, or
 * use kb_crc32c().
 */
static inline __u32 kb_crc32c_update(__u32 crc, const void *buf, __u64 len)
{
	static const __u32 tab[16] = {
		0x00000000, 0x105EC76F, 0x20BD8EDE, 0x30E349B1,
		0x417B1DBC, 0x5125DAD3, 0x61C69362, 0x7198540D,
		0x82F63B78, 0x92A8FC17, 0xA24BB5A6, 0xB21572C9,
		0xC38D26C4, 0xD3D3E1AB, 0xE330A81A, 0xF36E6F75,
	};
	const __u8 *p = (const __u8 *)buf;
	__u64 i;

	for (i = 0; i < len; i++) {
		crc ^= p[i];
		crc = (crc >> 4) ^ tab[crc & 15];
		crc = (crc >> 4) ^ tab[crc & 15];
	}
	return crc;
}

static inline __u32 kb_crc32c(const void *buf, __u64 len)
{
	return ~kb_crc32c_update(0xFFFFFFFFU, buf, len);
}

/* A filter name: 1..31 characters of [A-Za-z0-9_.-], NUL-terminated. */
static inline int kb_name_valid(const char *name)
{
	__u32 i;
	char c;

	for (i = 0; i < KBLOOM_NAME_LEN; i++) {
		c = name[i];
		if (!c)
			return i > 0;
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || c == '_' || c == '.' ||
		      c == '-'))
			return 0;
	}
	return 0;
}

/* An image name is empty or valid, and NUL-padded to the end. */
static inline int kb_image_name_valid(const char *name)
{
	__u32 i, end = 0;

	if (name[0] && !kb_name_valid(name))
		return 0;
	while (end < KBLOOM_NAME_LEN && name[end])
		end++;
	for (i = end; i < KBLOOM_NAME_LEN; i++)
		if (name[i])
			return 0;
	return 1;
}

/* Payload bytes of a filter: its words, 8 bytes each. */
static inline __u64 kb_payload_len(__u32 type, __u64 m, __u32 counter_bits)
{
	return kb_words(type, m, counter_bits) * 8;
}

static inline int kb_image_params_ok(const struct kbloom_image_hdr *h)
{
	__u32 type = h->type, k = kb_le32(h->k), cb = h->counter_bits;
	__u64 m = kb_le64(h->m);

	if (k < KBLOOM_K_MIN || k > KBLOOM_K_MAX)
		return 0;
	if (m < KBLOOM_M_MIN || m > KBLOOM_M_MAX || (m & 63))
		return 0;
	if (type == KBLOOM_TYPE_BLOCKED) {
		if (kb_le32(h->block_bits) != KBLOOM_BLOCK_BITS ||
		    m % KBLOOM_BLOCK_BITS)
			return 0;
	} else if (h->block_bits) {
		return 0;
	}
	if (type == KBLOOM_TYPE_COUNTING) {
		if (cb != KBLOOM_COUNTER_BITS_DEFAULT &&
		    cb != KBLOOM_COUNTER_BITS_WIDE)
			return 0;
	} else if (cb || h->saturations) {
		return 0;
	}
	if (kb_le64(h->payload_len) != kb_payload_len(type, m, cb))
		return 0;
	return kb_image_name_valid(h->name);
}

/* Version, hdr_len, flags and reserved fields: 0 or -EBADMSG. */
static inline int kb_image_frame_ok(const struct kbloom_image_hdr *h)
{
	__u32 v = kb_le16(h->version);

	if (kb_le16(h->hdr_len) != kb_image_hdr_len_of(v))
		return 0;
	if (h->reserved0 || h->reserved1 || h->reserved2)
		return 0;
	if (v == KBLOOM_IMAGE_VERSION)
		return !h->flags;
	return !(h->flags & ~KBLOOM_IMAGE_F_ALL);
}

/* Base fields of a version-3 header; its tail is kb_image_geom_check()'s. */
static inline int kb_image_v3_params_ok(const struct kbloom_image_hdr *h)
{
	if (kb_type_classic(h->type) || h->block_bits)
		return 0;
	return kb_image_name_valid(h->name);
}

static inline int kb_image_check(const struct kbloom_image_hdr *h, __u64 total)
{
	__u32 v;

	if (total < KBLOOM_IMAGE_HDR_LEN)
		return -EMSGSIZE;
	if (kb_le32(h->magic) != KBLOOM_IMAGE_MAGIC)
		return -EBADMSG;
	v = kb_le16(h->version);
	if (!kb_image_hdr_len_of(v))
		return -EPROTONOSUPPORT;
	if (!kb_image_frame_ok(h))
		return -EBADMSG;
	if (total < kb_image_hdr_len_of(v))
		return -EMSGSIZE;
	if (!kb_type_known(h->type) || !kb_type_hash_ok(h->type, h->hash_id))
		return -EOPNOTSUPP;
	if (v == KBLOOM_IMAGE_VERSION && (!kb_type_classic(h->type) ||
					  !kb_image_params_ok(h)))
		return -EBADMSG;
	if (v == KBLOOM_IMAGE_VERSION_GEOM && !kb_image_v3_params_ok(h))
		return -EBADMSG;
	if (total - kb_image_hdr_len_of(v) != kb_le64(h->payload_len))
		return -EMSGSIZE;
	return 0;
}

/* The shape recorded by a version-3 header and its tail. */
static inline void kb_image_shape(const struct kbloom_image_hdr *h,
				  const struct kbloom_image_geom *g,
				  struct kb_shape *s)
{
	s->type = h->type;
	s->k = kb_le32(h->k);
	s->m = kb_le64(h->m);
	s->counter_bits = h->counter_bits;
	s->fp_bits = g->fp_bits;
	s->slots = g->slots;
	s->tables = g->tables;
	s->vi_l = g->vi_l;
	s->update = g->update;
	s->buckets = kb_le64(g->buckets);
}

static inline int kb_image_geom_reserved_ok(const struct kbloom_image_geom *g)
{
	__u32 i;

	if (g->reserved0[0] || g->reserved0[1] || g->reserved0[2])
		return 0;
	for (i = 0; i < 4; i++)
		if (g->reserved[i])
			return 0;
	return 1;
}

/*
 * The age-partitioned window's state in the tail's reserved[] words
 * (KB_WIN_GEOM_*, kbloom_var_window.h); the other types have none there.
 */
static inline int kb_image_geom_state_ok(const struct kbloom_image_hdr *h,
					 const struct kbloom_image_geom *g)
{
	struct kbloom_image_geom t = *g;

	if (h->type != KBLOOM_TYPE_AGE_PARTITIONED)
		return kb_image_geom_reserved_ok(g);
	if (!kb_win_state_ok(kb_le32(h->k) + g->tables, g->update,
			     kb_le64(g->reserved[KB_WIN_GEOM_GEN_LEN]),
			     kb_le64(g->reserved[KB_WIN_GEOM_HEAD]),
			     kb_le64(g->reserved[KB_WIN_GEOM_CLOCK])))
		return 0;
	__builtin_memset(t.reserved, 0, sizeof(t.reserved));
	return kb_image_geom_reserved_ok(&t);
}

/*
 * The geometry tail of a version-3 header that passed kb_image_check()
 * (a version-2 header has none: 0).
 */
static inline int kb_image_geom_check(const struct kbloom_image_hdr *h,
				      const struct kbloom_image_geom *g)
{
	struct kb_shape s;
	int ret;

	if (kb_le16(h->version) != KBLOOM_IMAGE_VERSION_GEOM)
		return 0;
	if (!kb_image_geom_state_ok(h, g))
		return -EBADMSG;
	kb_image_shape(h, g, &s);
	ret = kb_shape_check(&s);
	if (ret)
		return ret == -EINVAL ? -EBADMSG : ret;
	if (!!(h->flags & KBLOOM_IMAGE_F_MAY_FN) != !!kb_type_may_fn(h->type))
		return -EBADMSG;
	if ((h->type == KBLOOM_TYPE_CUCKOO ||
	     h->type == KBLOOM_TYPE_PARTITIONED ||
	     h->type == KBLOOM_TYPE_STABLE ||
	     h->type == KBLOOM_TYPE_AGE_PARTITIONED ||
	     h->type == KBLOOM_TYPE_DELETABLE ||
	     h->type == KBLOOM_TYPE_RETOUCHED ||
	     h->type == KBLOOM_TYPE_GENERALIZED ||
	     h->type == KBLOOM_TYPE_IBLT ||
	     h->type == KBLOOM_TYPE_SHIFTING ||
	     h->type == KBLOOM_TYPE_DISTANCE_SENSITIVE) && h->saturations)
		return -EBADMSG;
	if (h->type != KBLOOM_TYPE_CUCKOO && h->type != KBLOOM_TYPE_DLEFT &&
	    (g->kicks || g->overflows))
		return -EBADMSG;
	if (h->type == KBLOOM_TYPE_DLEFT && g->kicks)
		return -EBADMSG;
	if (kb_le64(h->payload_len) != kb_shape_words(&s) * 8)
		return -EBADMSG;
	return 0;
}

/* CRC of a version-2 header (crc field taken as zero) and its payload. */
static inline __u32 kb_image_crc(const struct kbloom_image_hdr *h,
				 const void *payload, __u64 payload_len)
{
	struct kbloom_image_hdr tmp = *h;
	__u32 crc;

	tmp.crc = 0;
	crc = kb_crc32c_update(0xFFFFFFFFU, &tmp, sizeof(tmp));
	crc = kb_crc32c_update(crc, payload, payload_len);
	return ~crc;
}

/* CRC of a version-3 header, its tail and its payload. */
static inline __u32 kb_image_crc_head(const struct kbloom_image_head *hd,
				      const void *payload, __u64 payload_len)
{
	struct kbloom_image_head tmp = *hd;
	__u32 crc;

	tmp.h.crc = 0;
	crc = kb_crc32c_update(0xFFFFFFFFU, &tmp, sizeof(tmp));
	crc = kb_crc32c_update(crc, payload, payload_len);
	return ~crc;
}

/*
 * What a checksum cannot tell: a payload whose words are states the type's
 * operations never leave (a VI-CBF counter in [1, L), ACBF levels that
 * are no state, an FP-CBF cell of counter 0 with a fingerprint).
 */
static inline int kb_image_payload_ok(const struct kbloom_image_hdr *h,
				      const struct kbloom_image_geom *g,
				      const __u8 *payload, __u64 len)
{
	if (h->type == KBLOOM_TYPE_VI_COUNTING)
		return kb_vi_counters_ok(payload, len, h->counter_bits,
					 g->vi_l);
	if (h->type == KBLOOM_TYPE_DELETABLE)
		return kb_del_payload_ok(payload, len, kb_le64(h->m),
					 kb_le64(g->buckets));
	if (h->type == KBLOOM_TYPE_ACCURATE_COUNTING)
		return kb_acbf_payload_ok(payload, kb_le64(h->m),
					  kb_le64(g->buckets), g->tables);
	if (h->type == KBLOOM_TYPE_FP_COUNTING)
		return kb_fpcbf_cells_ok(payload, kb_le64(h->m),
					 h->counter_bits, g->fp_bits);
	return 1;
}

/* Full validation of an image held in memory. */
static inline int kb_image_verify(const void *img, __u64 total)
{
	const struct kbloom_image_hdr *h = (const struct kbloom_image_hdr *)img;
	const struct kbloom_image_geom *g;
	__u64 hl;
	__u32 crc;
	int ret = kb_image_check(h, total);

	if (ret)
		return ret;
	ret = kb_image_geom_check(h, (const struct kbloom_image_geom *)(h + 1));
	if (ret)
		return ret;
	hl = kb_le16(h->hdr_len);
	if (hl == KBLOOM_IMAGE_HDR_LEN)
		crc = kb_image_crc(h, (const __u8 *)img + hl, total - hl);
	else
		crc = kb_image_crc_head((const struct kbloom_image_head *)img,
					(const __u8 *)img + hl, total - hl);
	if (crc != kb_le32(h->crc))
		return -EBADMSG;
	g = (const struct kbloom_image_geom *)(h + 1);
	return kb_image_payload_ok(h, g, (const __u8 *)img + hl, total - hl) ?
	       0 : -EBADMSG;
}

/*
 * The fields of a version-3 head that a valid shape fixes: magic,
 * version, hdr_len, type, the MAY_FN flag, hash, seed, counter width, k,
 * m, the tail's geometry and the payload length; every other field is 0
 * (the writer sets the counts, capacity, target, name, then the crc).
 */
static inline void kb_image_head_init(struct kbloom_image_head *hd,
				      const struct kb_shape *s, __u32 hash_id,
				      __u64 seed)
{
	__builtin_memset(hd, 0, sizeof(*hd));
	hd->h.magic = kb_le32(KBLOOM_IMAGE_MAGIC);
	hd->h.version = kb_le16(KBLOOM_IMAGE_VERSION_GEOM);
	hd->h.hdr_len = kb_le16(sizeof(*hd));
	hd->h.type = (__u8)s->type;
	hd->h.hash_id = (__u8)hash_id;
	hd->h.flags = kb_type_may_fn(s->type) ? KBLOOM_IMAGE_F_MAY_FN : 0;
	hd->h.counter_bits = (__u8)s->counter_bits;
	hd->h.k = kb_le32(s->k);
	hd->h.seed = kb_le64(seed);
	hd->h.m = kb_le64(s->m);
	hd->h.payload_len = kb_le64(kb_shape_words(s) * 8);
	hd->g.fp_bits = (__u8)s->fp_bits;
	hd->g.slots = (__u8)s->slots;
	hd->g.tables = (__u8)s->tables;
	hd->g.vi_l = (__u8)s->vi_l;
	hd->g.update = (__u8)s->update;
	hd->g.buckets = kb_le64(s->buckets);
}

/*
 * kb_image_verify() of a version-3 image of @type at any address, through
 * @hd, an aligned copy of its head (what a loader reads the fields from).
 * Return: 0; the image's error; -EOPNOTSUPP for a header of another type
 * or version, checked before the geometry (the loader of that type reads
 * it).
 */
static inline int kb_image_verify_v3(const void *buf, __u64 len, __u32 type,
				     struct kbloom_image_head *hd)
{
	const __u64 hl = sizeof(*hd);
	int ret;

	__builtin_memset(hd, 0, hl);
	__builtin_memcpy(hd, buf, len < hl ? len : hl);
	ret = kb_image_check(&hd->h, len);
	if (ret)
		return ret;
	if (kb_le16(hd->h.version) != KBLOOM_IMAGE_VERSION_GEOM ||
	    hd->h.type != type)
		return -EOPNOTSUPP;
	ret = kb_image_geom_check(&hd->h, &hd->g);
	if (ret)
		return ret;
	if (kb_image_crc_head(hd, (const __u8 *)buf + hl, len - hl) !=
	    kb_le32(hd->h.crc))
		return -EBADMSG;
	return kb_image_payload_ok(&hd->h, &hd->g, (const __u8 *)buf + hl,
				   len - hl) ? 0 : -EBADMSG;
}

/*
 * Container images: a filter made of generations or rows (scalable,
 * dynamic, persistent, matrix) is
 *
 *   struct kbloom_container_hdr   (KBLOOM_CONTAINER_HDR_LEN bytes)
 *   member 0, member 1, ...       (count complete images, back to back)
 *
 * Each member is an image valid on its own (kb_image_verify()), of a type
 * that is not a container, with the container's hash id; it can be taken
 * out and loaded alone.  crc covers the container header (crc zero) and
 * the members.  @params belong to the container's type (its growth,
 * window, epochs...), defined by that type; kb_container_check() leaves
 * them to the executor of the type.  Errors as for images:
 *   -EMSGSIZE shorter than the header, or payload_len not the rest;
 *   -EBADMSG wrong magic, hdr_len, flags or reserved field, a count of 0
 *            or over KBLOOM_CONTAINER_MEMBERS_MAX, an invalid name, a wrong
 *            checksum, a member that is not a valid image of the hash id
 *            (its own error is returned where it is not -EBADMSG), members
 *            that do not fill payload_len exactly (-EMSGSIZE);
 *   -EPROTONOSUPPORT an unknown version;
 *   -EOPNOTSUPP a type that is not a container type, an unknown hash id.
 */
#define KBLOOM_CONTAINER_MAGIC		0x434C424BU	/* "KBLC" */
#define KBLOOM_CONTAINER_VERSION	3U
#define KBLOOM_CONTAINER_HDR_LEN	128U
#define KBLOOM_CONTAINER_MEMBERS_MAX	4096U

struct kbloom_container_hdr {
	__u32 magic;		/* KBLOOM_CONTAINER_MAGIC */
	__u16 version;		/* KBLOOM_CONTAINER_VERSION */
	__u16 hdr_len;		/* KBLOOM_CONTAINER_HDR_LEN */
	__u8 type;		/* enum kbloom_type: a container type */
	__u8 hash_id;		/* every member's hash id */
	__u8 flags;		/* KBLOOM_IMAGE_F_*: that of the type */
	__u8 reserved0;		/* must be 0 */
	__u32 count;		/* member images, 1..MEMBERS_MAX */
	__u64 params[6];	/* the type's parameters */
	__u64 inserted;		/* add operations applied */
	__u64 payload_len;	/* bytes of the members */
	char name[KBLOOM_NAME_LEN];	/* NUL-padded, may be empty */
	__u32 crc;		/* CRC-32C, see above */
	__u32 reserved1;	/* must be 0 */
	__u64 reserved2;	/* must be 0 */
};

static inline int kb_type_container(__u32 type)
{
	/*
	 * The age-partitioned window is one array of slices: a version-3
	 * image whose tail carries the head and the generation clock.
	 */
	return type == KBLOOM_TYPE_SCALABLE || type == KBLOOM_TYPE_DYNAMIC ||
	       type == KBLOOM_TYPE_PERSISTENT || type == KBLOOM_TYPE_MATRIX;
}

static inline int kb_container_frame_ok(const struct kbloom_container_hdr *c)
{
	__u32 n = kb_le32(c->count);

	if (kb_le16(c->hdr_len) != KBLOOM_CONTAINER_HDR_LEN || c->reserved0 ||
	    c->reserved1 || c->reserved2 || (c->flags & ~KBLOOM_IMAGE_F_ALL))
		return 0;
	if (!!(c->flags & KBLOOM_IMAGE_F_MAY_FN) != !!kb_type_may_fn(c->type))
		return 0;
	return n && n <= KBLOOM_CONTAINER_MEMBERS_MAX &&
	       kb_image_name_valid(c->name);
}

/* The container header alone, against the total length. */
static inline int kb_container_check(const struct kbloom_container_hdr *c,
				     __u64 total)
{
	if (total < KBLOOM_CONTAINER_HDR_LEN)
		return -EMSGSIZE;
	if (kb_le32(c->magic) != KBLOOM_CONTAINER_MAGIC)
		return -EBADMSG;
	if (kb_le16(c->version) != KBLOOM_CONTAINER_VERSION)
		return -EPROTONOSUPPORT;
	if (!kb_type_container(c->type) || c->hash_id < KBLOOM_HASH_FAST ||
	    c->hash_id > KBLOOM_HASH_MAX)
		return -EOPNOTSUPP;
	if (!kb_container_frame_ok(c))
		return -EBADMSG;
	if (total - KBLOOM_CONTAINER_HDR_LEN != kb_le64(c->payload_len))
		return -EMSGSIZE;
	return 0;
}

/*
 * The length of the member at @off of a checked container of @total
 * bytes, verified: 0 and *len, or the member's error.
 */
static inline int kb_container_member(const void *buf, __u64 total,
				      __u64 off, __u64 *len)
{
	const struct kbloom_container_hdr *c =
		(const struct kbloom_container_hdr *)buf;
	const struct kbloom_image_hdr *h;
	__u64 rest = total - off;
	int ret;

	if (off >= total || rest < KBLOOM_IMAGE_HDR_LEN)
		return -EMSGSIZE;
	h = (const struct kbloom_image_hdr *)((const __u8 *)buf + off);
	*len = (__u64)kb_le16(h->hdr_len) + kb_le64(h->payload_len);
	if (*len > rest || *len < KBLOOM_IMAGE_HDR_LEN)
		return -EMSGSIZE;
	ret = kb_image_verify(h, *len);
	if (ret)
		return ret;
	return h->hash_id == c->hash_id ? 0 : -EBADMSG;
}

/* Full validation of a container held in memory (8-byte aligned). */
static inline int kb_container_verify(const void *buf, __u64 total)
{
	const struct kbloom_container_hdr *c =
		(const struct kbloom_container_hdr *)buf;
	struct kbloom_container_hdr tmp;
	__u64 off = KBLOOM_CONTAINER_HDR_LEN, len;
	__u32 i, crc;
	int ret = kb_container_check(c, total);

	if (ret)
		return ret;
	for (i = 0; i < kb_le32(c->count); i++) {
		ret = kb_container_member(buf, total, off, &len);
		if (ret)
			return ret;
		off += len;
	}
	if (off != total)
		return -EMSGSIZE;
	tmp = *c;
	tmp.crc = 0;
	crc = kb_crc32c_update(0xFFFFFFFFU, &tmp, sizeof(tmp));
	crc = kb_crc32c_update(crc, (const __u8 *)buf + KBLOOM_CONTAINER_HDR_LEN,
			       total - KBLOOM_CONTAINER_HDR_LEN);
	return ~crc == kb_le32(c->crc) ? 0 : -EBADMSG;
}

#endif /* _UAPI_KBLOOM_IMAGE_H */
