/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The fuzz targets' checksum repair: a mutated image nearly always fails
 * its crc, so each target also offers the input with the crc made right,
 * and mutations reach the field checks behind it.
 */
#ifndef _KBLOOM_FUZZ_CRC_H
#define _KBLOOM_FUZZ_CRC_H

#include <stdint.h>
#include <string.h>

#include "uapi/kbloom_image.h"

/* The checksum of a version-3 image or a container in @b made right. */
static inline void fuzz_fix_crc(uint8_t *b, size_t size);

/*
 * The members of a container, each of its own length where that fits,
 * made right too, so that mutations reach the members' field checks.
 */
static inline void fuzz_fix_members(uint8_t *b, size_t size)
{
	size_t off = sizeof(struct kbloom_container_hdr), len;
	struct kbloom_image_hdr h;

	while (size - off >= sizeof(h)) {
		memcpy(&h, b + off, sizeof(h));
		len = kb_le16(h.hdr_len) + kb_le64(h.payload_len);
		if (kb_le64(h.payload_len) > size - off ||
		    len > size - off || len < sizeof(h))
			return;
		if (kb_le16(h.hdr_len) == KBLOOM_IMAGE_HDR_LEN) {
			h.crc = kb_le32(kb_image_crc(&h, b + off + sizeof(h),
						     len - sizeof(h)));
			memcpy(b + off, &h, sizeof(h));
		} else {
			fuzz_fix_crc(b + off, len);
		}
		off += len;
	}
}

static inline void fuzz_fix_crc(uint8_t *b, size_t size)
{
	struct kbloom_container_hdr c;
	struct kbloom_image_head hd;
	__u32 crc;

	if (size >= sizeof(c))
		memcpy(&c, b, sizeof(c));
	if (size >= sizeof(c) &&
	    kb_le32(c.magic) == KBLOOM_CONTAINER_MAGIC) {
		fuzz_fix_members(b, size);
		c.crc = 0;
		crc = kb_crc32c_update(0xFFFFFFFFU, &c, sizeof(c));
		crc = kb_crc32c_update(crc, b + sizeof(c), size - sizeof(c));
		c.crc = kb_le32(~crc);
		memcpy(b, &c, sizeof(c));
	} else if (size >= sizeof(hd)) {
		memcpy(&hd, b, sizeof(hd));
		hd.h.crc = kb_le32(kb_image_crc_head(&hd, b + sizeof(hd),
						     size - sizeof(hd)));
		memcpy(b, &hd, sizeof(hd));
	}
}

#endif /* _KBLOOM_FUZZ_CRC_H */
