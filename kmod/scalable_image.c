// SPDX-License-Identifier: GPL-2.0
/*
 * kbloom.ko's scalable and dynamic filters: SAVE and RESTORE as container
 * images (uapi/kbloom_image.h, uapi/kbloom_var_scalable.h), the format
 * libkbloom_scalable.h reads and writes: the container header, then one
 * member image per generation (partitioned, version 3; counting, version
 * 2), each valid on its own.
 *
 * SAVE holds f->wmutex while it copies the list: the generations and
 * their counts are those of one moment between two writes.
 */
#include <linux/mm.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "scalable.h"

static u64 kb_sgen_hdr_len(const struct kb_sgen *gen)
{
	return kb_image_hdr_len_of(kb_image_version_of(gen->g.type));
}

static u64 kb_sgens_image_len(const struct kb_sgens *list)
{
	u64 len = KBLOOM_CONTAINER_HDR_LEN;
	u32 i;

	for (i = 0; i < list->n; i++)
		len += kb_sgen_hdr_len(list->gen[i]) + list->gen[i]->nwords * 8;
	return len;
}

/* The member head of @gen: version 3 for partitioned, 2 for counting. */
static void kb_sgen_head(const struct kb_filter *f, const struct kb_sgen *gen,
			 struct kbloom_image_head *hd)
{
	struct kb_shape s = {
		.type = gen->g.type, .k = gen->g.k, .m = gen->g.m,
		.buckets = gen->g.slice,
	};

	kb_image_head_init(hd, &s, f->g.hash_id, f->g.seed);
	hd->h.capacity = kb_le64(gen->g.capacity);
	hd->h.fpr_pico = kb_le64(gen->g.fpr_pico);
	hd->h.inserted = kb_le64(atomic64_read(&gen->inserted));
	if (gen->g.type != KBLOOM_TYPE_COUNTING)
		return;
	hd->h.version = kb_le16(KBLOOM_IMAGE_VERSION);
	hd->h.hdr_len = kb_le16(KBLOOM_IMAGE_HDR_LEN);
	hd->h.counter_bits = gen->g.counter_bits;
	hd->h.saturations = kb_le64(atomic64_read(&gen->saturations));
	hd->h.payload_len = kb_le64(gen->nwords * 8);
}

/* One member at @out; returns its length. */
static u64 kb_sgen_emit(const struct kb_filter *f, const struct kb_sgen *gen,
			u8 *out)
{
	u64 hl = kb_sgen_hdr_len(gen), i, plen = gen->nwords * 8;
	__le64 *words = (__le64 *)(out + hl);
	struct kbloom_image_head hd;
	u32 crc;

	kb_sgen_head(f, gen, &hd);
	for (i = 0; i < gen->nwords; i++) {
		words[i] = cpu_to_le64(atomic64_read(&gen->words[i]));
		if (!((i + 1) % KB_RESCHED_WORDS))
			cond_resched();
	}
	if (hl == KBLOOM_IMAGE_HDR_LEN)
		crc = kb_image_crc(&hd.h, words, plen);
	else
		crc = kb_image_crc_head(&hd, words, plen);
	hd.h.crc = kb_le32(crc);
	memcpy(out, &hd, hl);
	return hl + plen;
}

static void kb_sbf_container_hdr(const struct kb_filter *f, u32 count,
				 u64 len, struct kbloom_container_hdr *c)
{
	const struct kb_sbf *sbf = kb_sbf(f);

	memset(c, 0, sizeof(*c));
	c->magic = kb_le32(KBLOOM_CONTAINER_MAGIC);
	c->version = kb_le16(KBLOOM_CONTAINER_VERSION);
	c->hdr_len = kb_le16(KBLOOM_CONTAINER_HDR_LEN);
	c->type = f->g.type;
	c->hash_id = f->g.hash_id;
	c->count = kb_le32(count);
	c->params[KB_SBF_PARAM_CAPACITY] = kb_le64(sbf->p.capacity);
	c->params[KB_SBF_PARAM_FPR] = kb_le64(sbf->p.fpr_pico);
	c->params[KB_SBF_PARAM_GROWTH] = kb_le64(sbf->p.growth);
	c->params[KB_SBF_PARAM_RATIO] = kb_le64(sbf->p.ratio_ppm);
	c->params[KB_SBF_PARAM_REFUSED] =
		kb_le64(atomic64_read(&sbf->refused));
	c->params[KB_SBF_PARAM_MERGES] = kb_le64(atomic64_read(&sbf->merges));
	c->inserted = kb_le64(kb_filter_inserted(f));
	c->payload_len = kb_le64(len - KBLOOM_CONTAINER_HDR_LEN);
	memcpy(c->name, f->name, KBLOOM_NAME_LEN);
}

/* The image of @list into @img (kb_sgens_image_len() bytes). */
static void kb_sbf_build(const struct kb_filter *f,
			 const struct kb_sgens *list, u8 *img, u64 len)
{
	struct kbloom_container_hdr c;
	u64 off = KBLOOM_CONTAINER_HDR_LEN;
	u32 i, crc;

	for (i = 0; i < list->n; i++)
		off += kb_sgen_emit(f, list->gen[i], img + off);
	kb_sbf_container_hdr(f, list->n, len, &c);
	crc = kb_crc32c_update(0xFFFFFFFFU, &c, sizeof(c));
	crc = kb_crc32c_update(crc, img + KBLOOM_CONTAINER_HDR_LEN,
			       len - KBLOOM_CONTAINER_HDR_LEN);
	c.crc = kb_le32(~crc);
	memcpy(img, &c, sizeof(c));
}

int kb_sbf_save(struct kb_filter *f, struct kbloom_image_op *cmd)
{
	struct kb_sgens *list;
	u8 *img = NULL;
	int ret = 0;

	mutex_lock(&f->wmutex);
	list = kb_sbf_list(f);
	cmd->image_len = kb_sgens_image_len(list);
	if (cmd->buf_len < cmd->image_len) {
		ret = -EMSGSIZE;
		goto out_unlock;
	}
	img = kvmalloc(cmd->image_len, KB_GFP);
	if (!img) {
		ret = -ENOMEM;
		goto out_unlock;
	}
	kb_sbf_build(f, list, img, cmd->image_len);
out_unlock:
	mutex_unlock(&f->wmutex);
	if (!ret && copy_to_user(u64_to_user_ptr(cmd->buf), img,
				 cmd->image_len))
		ret = -EFAULT;
	kvfree(img);
	return ret;
}

/* The words and counts of member @h into @gen (same geometry). */
static void kb_sgen_load(struct kb_sgen *gen, const struct kbloom_image_hdr *h)
{
	const __le64 *words = (const void *)h + kb_le16(h->hdr_len);
	u64 i;

	for (i = 0; i < gen->nwords; i++) {
		atomic64_set(&gen->words[i], le64_to_cpu(words[i]));
		if (!((i + 1) % KB_RESCHED_WORDS))
			cond_resched();
	}
	atomic64_set(&gen->ones, kb_sgen_count_ones(gen));
	atomic64_set(&gen->inserted, kb_le64(h->inserted));
	atomic64_set(&gen->saturations, kb_le64(h->saturations));
}

/* Generations 1.. of a new, unpublished filter (generation 0 exists). */
static int kb_sbf_load_gens(struct kb_filter *f,
			    const struct kbloom_container_hdr *c)
{
	const struct kbloom_image_hdr *h = (const void *)(c + 1);
	struct kb_sgens *list = kb_sbf_list(f);
	struct kb_sbf *sbf = kb_sbf(f);
	struct kb_sgen *gen;
	u32 i;

	for (i = 0; i < kb_le32(c->count); i++) {
		gen = list->gen[0];
		if (i) {
			gen = kb_sgen_new(sbf, i);
			if (IS_ERR(gen))
				return PTR_ERR(gen) == -ENOSPC ? -E2BIG :
								 PTR_ERR(gen);
			list->gen[list->n++] = gen;
			sbf->bytes += gen->nwords * 8;
		}
		kb_sgen_load(gen, h);
		h = (const void *)h + kb_le16(h->hdr_len) +
		    kb_le64(h->payload_len);
	}
	return 0;
}

/*
 * RESTORE of a container that passed kb_container_verify(): checked
 * against the rule (kb_sbf_image_check()), then a new filter.
 */
struct kb_filter *kb_sbf_restore(const void *img, u64 len, const char *name)
{
	const struct kbloom_container_hdr *c = img;
	const struct kbloom_image_hdr *h0 = (const void *)(c + 1);
	struct kb_sbf_params p;
	struct kb_filter *f;
	struct kb_geom g = {};
	int ret;

	ret = kb_sbf_image_check(img, len, &p);
	if (ret)
		return ERR_PTR(ret);
	g.type = c->type;
	g.hash_id = c->hash_id;
	g.seed = kb_le64(h0->seed);
	ret = kb_sbf_geom(&p, &g);
	if (ret)
		return ERR_PTR(ret == -ENOSPC ? -E2BIG : ret);
	f = kb_filter_alloc(&g, name);
	if (!f)
		return ERR_PTR(-ENOMEM);
	ret = kb_sbf_load_gens(f, c);
	if (ret) {
		kb_filter_put(f);
		return ERR_PTR(ret);
	}
	atomic64_set(&f->inserted, kb_le64(c->inserted));
	atomic64_set(&kb_sbf(f)->refused,
		     kb_le64(c->params[KB_SBF_PARAM_REFUSED]));
	atomic64_set(&kb_sbf(f)->merges, kb_le64(c->params[KB_SBF_PARAM_MERGES]));
	return f;
}
