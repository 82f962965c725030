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
static inline void fuzz_fix_crc(uint8_t *b, size_t size)
{
	struct kbloom_container_hdr c;
	struct kbloom_image_head hd;
	__u32 crc;

	if (size >= sizeof(c))
		memcpy(&c, b, sizeof(c));
	if (size >= sizeof(c) &&
	    kb_le32(c.magic) == KBLOOM_CONTAINER_MAGIC) {
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
