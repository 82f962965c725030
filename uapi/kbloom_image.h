/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * kbloom: the serialized filter image, the one format that moves a filter
 * between kbloom.ko (SAVE/RESTORE), libkbloom (files, memory) and BPF maps.
 *
 *   struct kbloom_image_hdr   (KBLOOM_IMAGE_HDR_LEN bytes, little-endian)
 *   payload                   (payload_len bytes: the filter's 64-bit words,
 *                              each little-endian, in index order)
 *
 * crc is CRC-32C (Castagnoli, reflected polynomial 0x82F63B78, initial value
 * and final xor 0xFFFFFFFF) over the header with the crc field set to zero,
 * followed by the payload.
 *
 * kb_image_check() validates a header against the total image length and
 * returns, in this order of checks:
 *   -EMSGSIZE         image shorter than the header;
 *   -EBADMSG          wrong magic;
 *   -EPROTONOSUPPORT  unknown version;
 *   -EBADMSG          hdr_len, flags or a reserved field not as defined;
 *   -EOPNOTSUPP       unknown type or hash id;
 *   -EBADMSG          inconsistent parameters (k, m, block_bits,
 *                     counter_bits, payload_len, saturations on a bit
 *                     filter, an invalid name);
 *   -EMSGSIZE         total length != hdr_len + payload_len;
 * kb_image_verify() adds -EBADMSG for a wrong checksum.
 */
#ifndef _UAPI_KBLOOM_IMAGE_H
#define _UAPI_KBLOOM_IMAGE_H

#include <linux/types.h>
#include <linux/errno.h>
#include "kbloom_base.h"
#include "kbloom_layout.h"

#define KBLOOM_IMAGE_MAGIC	0x4D4C424BU	/* "KBLM" */
/*
 * Version 2: standard and counting payloads are at the positions of the
 * 64-bit multiplicative probe sequence (kbloom_layout.h); version 1 used
 * double hashing in the 32-bit domain, so its images are refused rather
 * than read at the wrong positions.
 */
#define KBLOOM_IMAGE_VERSION	2U
#define KBLOOM_NAME_LEN		32U		/* 1..31 chars + NUL */

struct kbloom_image_hdr {
	__u32 magic;		/* KBLOOM_IMAGE_MAGIC */
	__u16 version;		/* KBLOOM_IMAGE_VERSION */
	__u16 hdr_len;		/* sizeof(struct kbloom_image_hdr) */
	__u8 type;		/* enum kbloom_type */
	__u8 hash_id;		/* enum kbloom_hash_id */
	__u8 counter_bits;	/* 4 or 8 for counting, 0 otherwise */
	__u8 flags;		/* none defined: must be 0 */
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

static inline int kb_image_check(const struct kbloom_image_hdr *h, __u64 total)
{
	if (total < KBLOOM_IMAGE_HDR_LEN)
		return -EMSGSIZE;
	if (kb_le32(h->magic) != KBLOOM_IMAGE_MAGIC)
		return -EBADMSG;
	if (kb_le16(h->version) != KBLOOM_IMAGE_VERSION)
		return -EPROTONOSUPPORT;
	if (kb_le16(h->hdr_len) != KBLOOM_IMAGE_HDR_LEN || h->flags ||
	    h->reserved0 || h->reserved1 || h->reserved2)
		return -EBADMSG;
	if (h->type < KBLOOM_TYPE_STANDARD || h->type > KBLOOM_TYPE_MAX ||
	    h->hash_id < KBLOOM_HASH_FAST || h->hash_id > KBLOOM_HASH_MAX)
		return -EOPNOTSUPP;
	if (!kb_image_params_ok(h))
		return -EBADMSG;
	if (total - KBLOOM_IMAGE_HDR_LEN != kb_le64(h->payload_len))
		return -EMSGSIZE;
	return 0;
}

/* CRC of a header (crc field taken as zero) and its payload. */
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

/* Full validation of an image held in memory. */
static inline int kb_image_verify(const void *img, __u64 total)
{
	const struct kbloom_image_hdr *h = (const struct kbloom_image_hdr *)img;
	int ret = kb_image_check(h, total);

	if (ret)
		return ret;
	if (kb_image_crc(h, (const __u8 *)img + KBLOOM_IMAGE_HDR_LEN,
			 total - KBLOOM_IMAGE_HDR_LEN) != kb_le32(h->crc))
		return -EBADMSG;
	return 0;
}

#endif /* _UAPI_KBLOOM_IMAGE_H */
