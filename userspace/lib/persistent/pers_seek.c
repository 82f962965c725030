// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom persistent filter: a range query on an archive file that reads
 * the container header, the first member's header (every member has its
 * size) and the members of the range's cover, found by
 * kb_pers_member_index(); each member is verified alone (kbloom_load():
 * its checksum) and must have the first member's geometry.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/stat.h>

#include "pers_int.h"

struct kbp_file {
	int fd;
	struct kbloom_container_hdr c;
	struct kbloom_image_hdr m0;	/* the first member's header */
	__u64 one;			/* bytes of every member */
};

/* The container's header, params and member size, checked. */
static int kbp_file_check(struct kbp_file *fl, __u64 size)
{
	const __u64 hl = KBLOOM_CONTAINER_HDR_LEN;
	int ret;

	ret = kbp_read_full(fl->fd, &fl->c, sizeof(fl->c), 0) ?:
	      kb_container_check(&fl->c, size);
	if (ret)
		return ret;
	if (fl->c.type != KBLOOM_TYPE_PERSISTENT)
		return -EOPNOTSUPP;
	ret = kb_pers_params_ok(&fl->c) ?:
	      kbp_read_full(fl->fd, &fl->m0, sizeof(fl->m0), hl);
	if (ret)
		return ret;
	fl->one = kb_le16(fl->m0.hdr_len) + kb_le64(fl->m0.payload_len);
	if (kb_le16(fl->m0.hdr_len) != KBLOOM_IMAGE_HDR_LEN ||
	    kb_le64(fl->m0.payload_len) > size ||
	    fl->one * kb_le32(fl->c.count) != size - hl)
		return -EBADMSG;
	return 0;
}

static int kbp_file_open(const char *path, struct kbp_file *fl)
{
	struct stat st;
	int ret;

	fl->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fl->fd < 0)
		return -errno;
	ret = fstat(fl->fd, &st) ? -errno :
	      !S_ISREG(st.st_mode) ? -ESPIPE :
	      kbp_file_check(fl, (__u64)st.st_size);
	if (ret)
		close(fl->fd);
	return ret;
}

int kbloom_pers_file_epochs(const char *path, __u64 *first, __u64 *epochs)
{
	struct kbp_file fl;
	int ret;

	if (!path || !first || !epochs)
		return -EINVAL;
	ret = kbp_file_open(path, &fl);
	if (ret)
		return ret;
	close(fl.fd);
	*first = kb_le64(fl.c.params[KB_PERS_P_FIRST]);
	*epochs = kb_le64(fl.c.params[KB_PERS_P_EPOCHS]);
	return 0;
}

static bool kbp_same_geom(const struct kbloom_image_hdr *a,
			  const struct kbloom_image_hdr *b)
{
	return a->type == b->type && a->hash_id == b->hash_id &&
	       a->seed == b->seed && a->m == b->m && a->k == b->k &&
	       a->counter_bits == b->counter_bits;
}

/* Node (@j, @x): loaded, of the archive's geometry. */
static int kbp_file_node(const struct kbp_file *fl, __u32 j, __u64 x,
			 struct kbloom_filter **fp)
{
	__u64 off = KBLOOM_CONTAINER_HDR_LEN +
		    kb_pers_member_index(j, x) * fl->one;
	void *buf = malloc(fl->one);
	int ret;

	if (!buf)
		return -ENOMEM;
	ret = kbp_read_full(fl->fd, buf, fl->one, (__s64)off);
	if (!ret && (!kbp_same_geom(buf, &fl->m0) ||
		     fl->m0.hash_id != fl->c.hash_id))
		ret = -EBADMSG;
	ret = ret ?: kbloom_load(buf, fl->one, fp);
	free(buf);
	return ret == -EOPNOTSUPP ? -EBADMSG : ret;
}

/* The cover of relative epochs [@lo, @hi]: tested, rates summed. */
static int kbp_file_cover(const struct kbp_file *fl, __u64 lo, __u64 hi,
			  const void *key, __u32 len,
			  struct kbloom_pers_query *r)
{
	struct kbloom_filter *f;
	struct kbloom_stats st;
	int ret, hit = 0;
	__u32 j;

	while (lo <= hi) {
		j = kb_pers_cover_next(lo, hi);
		ret = kbp_file_node(fl, j, lo >> j, &f);
		if (ret)
			return ret;
		ret = kbloom_stats(f, &st);
		r->fpr_pico += ret ? 0 : kbp_fpr(&st);
		if (!ret && !hit) {
			ret = kbloom_test(f, key, len);
			hit = ret > 0;
			r->tested++;
		}
		kbloom_destroy(f);
		if (ret < 0)
			return ret;
		r->cover++;
		lo += 1ULL << j;
	}
	if (r->fpr_pico > KBLOOM_P_UNIT)
		r->fpr_pico = KBLOOM_P_UNIT;
	return hit;
}

int kbloom_pers_test_file(const char *path, __u64 from, __u64 to,
			  const void *key, __u32 len,
			  struct kbloom_pers_query *q)
{
	struct kbloom_pers_query r = { 0 };
	struct kbp_file fl;
	__u64 first, n;
	int ret;

	if (!path || !key || !len || len > KBLOOM_KEY_MAX || from > to)
		return -EINVAL;
	ret = kbp_file_open(path, &fl);
	if (ret)
		return ret;
	first = kb_le64(fl.c.params[KB_PERS_P_FIRST]);
	n = kb_le64(fl.c.params[KB_PERS_P_EPOCHS]);
	if (from < first || to - first >= n)
		ret = -ERANGE;
	else
		ret = kbp_file_cover(&fl, from - first, to - first, key, len,
				     &r);
	close(fl.fd);
	if (ret >= 0 && q)
		*q = r;
	return ret;
}
