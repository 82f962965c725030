/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * libkbloom internal: the last step of every version-3 image writer (the
 * cuckoo, VI-CBF, d-left and partitioned families).  The head is filled
 * by the family; the words are copied first and the copy is checksummed,
 * so an image saved while writers run is consistent.
 */
#ifndef _KBLOOM_LIB_IMAGE_V3_H
#define _KBLOOM_LIB_IMAGE_V3_H

#include <string.h>
#include "uapi/kbloom_image.h"

/* @hd, then @nwords words (relaxed loads, little-endian), into @buf. */
static inline void kb_image_v3_emit(struct kbloom_image_head *hd,
				    const __u64 *words, __u64 nwords,
				    void *buf)
{
	__u8 *out = buf, *payload = out + sizeof(*hd);
	__u64 i, w;

	for (i = 0; i < nwords; i++) {
		w = kb_le64(__atomic_load_n(&words[i], __ATOMIC_RELAXED));
		memcpy(payload + i * 8, &w, 8);
	}
	hd->h.crc = kb_le32(kb_image_crc_head(hd, payload, nwords * 8));
	memcpy(out, hd, sizeof(*hd));
}

#endif /* _KBLOOM_LIB_IMAGE_V3_H */
