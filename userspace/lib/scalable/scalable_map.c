// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom scalable and dynamic filters: the maps of the XDP lookup
 * (uapi/kbloom_var_scalable.h, bpf/kbloom_scalable.h).  Rows and words of
 * every generation first, the meta (the generation count) last, so that a
 * program reading maps filled from an earlier state of the same filter
 * sees the generations it knew until the new ones are complete.
 */
#include <stdlib.h>
#include <bpf/bpf.h>

#include "scalable_int.h"

#define KSBF_MAP_CHUNK	4096U

__u64 kbloom_sbf_map_words(const struct kbloom_sbf *f)
{
	__u64 n = 0;
	__u32 i;

	for (i = 0; f && i < f->ngens; i++)
		n += f->gens[i]->nwords;
	return n;
}

/* The map at @fd is an array of at least @rows values of @size bytes. */
static int ksbf_map_fits(int fd, __u64 rows, __u32 size)
{
	struct bpf_map_info info = { 0 };
	__u32 len = sizeof(info);

	if (bpf_obj_get_info_by_fd(fd, &info, &len))
		return -errno;
	if (info.type != BPF_MAP_TYPE_ARRAY || info.key_size != 4 ||
	    info.value_size != size)
		return -EINVAL;
	return rows <= info.max_entries ? 0 : -E2BIG;
}

/* @n words from entry @off of the words map, in chunks. */
static int ksbf_map_words(int fd, __u64 off, const __u64 *w, __u64 n)
{
	__u32 keys[KSBF_MAP_CHUNK], cnt, i;
	__u64 done;

	for (done = 0; done < n; done += cnt) {
		cnt = n - done < KSBF_MAP_CHUNK ? n - done : KSBF_MAP_CHUNK;
		for (i = 0; i < cnt; i++)
			keys[i] = (__u32)(off + done + i);
		if (bpf_map_update_batch(fd, keys, (void *)(w + done), &cnt,
					 NULL))
			return -errno;
	}
	return 0;
}

static int ksbf_map_gens(const struct kbloom_sbf *f, int gens_fd,
			 int words_fd)
{
	struct kb_sbf_map_gen row;
	__u64 off = 0;
	__u32 i;
	int ret;

	for (i = 0; i < f->ngens; i++) {
		memset(&row, 0, sizeof(row));
		row.g = f->gens[i]->g;
		row.word_off = off;
		ret = ksbf_map_words(words_fd, off, f->gens[i]->words,
				     f->gens[i]->nwords);
		if (ret)
			return ret;
		if (bpf_map_update_elem(gens_fd, &i, &row, BPF_ANY))
			return -errno;
		off += f->gens[i]->nwords;
	}
	return 0;
}

int kbloom_sbf_map_fill(const struct kbloom_sbf *f, int meta_fd, int gens_fd,
			int words_fd)
{
	struct kb_sbf_map_meta m = { 0 };
	__u32 zero = 0;
	int ret;

	if (!f)
		return -EINVAL;
	ret = ksbf_map_fits(meta_fd, 1, sizeof(m)) ?:
	      ksbf_map_fits(gens_fd, f->ngens, sizeof(struct kb_sbf_map_gen)) ?:
	      ksbf_map_fits(words_fd, kbloom_sbf_map_words(f), sizeof(__u64));
	if (ret)
		return ret;
	ret = ksbf_map_gens(f, gens_fd, words_fd);
	if (ret)
		return ret;
	m.generations = f->ngens;
	m.hash_id = f->hash_id;
	m.seed = f->seed;
	m.words = kbloom_sbf_map_words(f);
	return bpf_map_update_elem(meta_fd, &zero, &m, BPF_ANY) ? -errno : 0;
}
