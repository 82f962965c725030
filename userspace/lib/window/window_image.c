// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom age-partitioned window: version-3 images (uapi/kbloom_image.h),
 * the format kbloom.ko's SAVE writes and RESTORE reads: the base header
 * (k, m), the geometry tail (tables = l, buckets = slice bits, update =
 * the clock, reserved[] = the window's state, KB_WIN_GEOM_*) and the
 * words little-endian.  Load verifies everything before it allocates.
 */
#include <stdlib.h>

#include "window_int.h"
#include "../image_v3.h"

#define KBW_HDR_LEN	(KBLOOM_IMAGE_HDR_LEN + KBLOOM_IMAGE_GEOM_LEN)

size_t kbloom_win_image_size(const struct kbloom_win *f)
{
	return f ? KBW_HDR_LEN + f->nwords * 8 : 0;
}

/*
 * The clock within the generation: keys, or the age in ns, at most one
 * generation (the rotations a lagging writer owes happen after a load).
 */
static __u64 kbw_clock(const struct kbloom_win *f)
{
	__u64 age;

	if (!kbw_timed(f))
		return f->gen_keys;
	age = kbw_age(f);
	return age < f->gen_len ? age : f->gen_len;
}

int kbloom_win_save(const struct kbloom_win *f, void *buf, size_t buf_len,
		    size_t *image_len)
{
	struct kbloom_image_head hd;
	int ret;

	if (!f)
		return -EINVAL;
	ret = kb_image_v3_room(kbloom_win_image_size(f), buf, buf_len,
			       image_len);
	if (ret)
		return ret;
	kb_image_head_init(&hd, &f->s, f->hash_id, f->seed);
	kb_image_v3_meta_out(&hd, f->capacity, f->fpr_pico,
			     kbw_load(&f->inserted), f->name);
	hd.g.reserved[KB_WIN_GEOM_GEN_LEN] = kb_le64(f->gen_len);
	hd.g.reserved[KB_WIN_GEOM_HEAD] =
		kb_le64(__atomic_load_n(&f->head, __ATOMIC_ACQUIRE));
	hd.g.reserved[KB_WIN_GEOM_CLOCK] = kb_le64(kbw_clock(f));
	hd.g.reserved[KB_WIN_GEOM_ROTATIONS] = kb_le64(f->rotations);
	kb_image_v3_emit(&hd, f->words, f->nwords, buf);
	return 0;
}

int kbloom_win_save_alloc(const struct kbloom_win *f, void **buf,
			  size_t *len)
{
	size_t n;
	int ret;

	if (!f || !buf)
		return -EINVAL;
	n = kbloom_win_image_size(f);
	ret = kb_image_v3_alloc(n, buf, len);
	if (!ret)
		kbloom_win_save(f, *buf, n, NULL);
	return ret;
}

/* The window's state from a verified tail. */
static void kbw_load_state(struct kbloom_win *f,
			   const struct kbloom_image_head *hd)
{
	__u64 clock = kb_le64(hd->g.reserved[KB_WIN_GEOM_CLOCK]);
	__u64 now;

	f->head = (__u32)kb_le64(hd->g.reserved[KB_WIN_GEOM_HEAD]);
	f->rotations = kb_le64(hd->g.reserved[KB_WIN_GEOM_ROTATIONS]);
	kb_image_v3_meta_in(hd, &f->capacity, &f->fpr_pico, &f->inserted,
			    f->name);
	if (!kbw_timed(f)) {
		f->gen_keys = clock;
		return;
	}
	now = kbw_now(f);
	f->gen_start = now > clock ? now - clock : 0;
}

int kbloom_win_load(const void *buf, size_t len, struct kbloom_win **fp)
{
	struct kbloom_image_head hd;
	struct kbloom_win *f;
	struct kb_shape s;
	int ret;

	if (!buf || !fp)
		return -EINVAL;
	ret = kb_image_verify_v3(buf, len, KBLOOM_TYPE_AGE_PARTITIONED, &hd);
	if (ret)
		return ret;
	kb_image_shape(&hd.h, &hd.g, &s);
	ret = kbw_new(&s, kb_le64(hd.g.reserved[KB_WIN_GEOM_GEN_LEN]),
		      hd.h.hash_id, kb_le64(hd.h.seed), &f);
	if (ret)
		return ret;
	kb_image_v3_words_in(buf, f->words, f->nwords);
	kbw_load_state(f, &hd);
	*fp = f;
	return 0;
}
