// SPDX-License-Identifier: GPL-2.0
/*
 * kbloom.ko images: SAVE and RESTORE in the format of uapi/kbloom_image.h,
 * the one libkbloom and the BPF loaders read and write.
 *
 * SAVE snapshots the words into a kernel buffer (little-endian), computes
 * the checksum with kb_image_crc() and copies the image out in one go.
 * RESTORE copies the whole image in, verifies it with kb_image_verify() on
 * that kernel copy, builds a new filter from it and only then publishes
 * it (or swaps it for the filter of the same name).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/slab.h>
#include <linux/mm.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "kbloom_int.h"
#include "uapi/kbloom_image.h"

static u32 kb_image_hdr_len(const struct kb_filter *f)
{
	return kb_image_hdr_len_of(kb_image_version_of(f->g.type));
}

static void kb_image_header(const struct kb_filter *f,
			    struct kbloom_image_hdr *h)
{
	const struct kb_geom *g = &f->g;
	u32 v = kb_image_version_of(g->type);

	memset(h, 0, sizeof(*h));
	h->magic = kb_le32(KBLOOM_IMAGE_MAGIC);
	h->version = kb_le16(v);
	h->hdr_len = kb_le16(kb_image_hdr_len_of(v));
	h->type = g->type;
	h->hash_id = g->hash_id;
	h->counter_bits = g->counter_bits;
	if (kb_type_may_fn(g->type))
		h->flags = KBLOOM_IMAGE_F_MAY_FN;
	h->k = kb_le32(g->k);
	if (g->type == KBLOOM_TYPE_BLOCKED)
		h->block_bits = kb_le32(KBLOOM_BLOCK_BITS);
	h->seed = kb_le64(g->seed);
	h->m = kb_le64(g->m);
	h->capacity = kb_le64(g->capacity);
	h->fpr_pico = kb_le64(g->fpr_pico);
	h->inserted = kb_le64(kb_filter_inserted(f));
	h->saturations = kb_le64(atomic64_read(&f->saturations));
	h->payload_len = kb_le64(f->bytes);
	memcpy(h->name, f->name, KBLOOM_NAME_LEN);
}

/* The version-3 geometry tail of a survey variant. */
static void kb_image_tail(const struct kb_filter *f,
			  struct kbloom_image_geom *t)
{
	const struct kb_geom *g = &f->g;

	memset(t, 0, sizeof(*t));
	t->fp_bits = g->fp_bits;
	t->slots = g->slots;
	t->tables = g->tables;
	t->vi_l = g->vi_l;
	t->update = g->update;
	t->buckets = kb_le64(g->buckets);
	t->kicks = kb_le64(atomic64_read(&f->kicks));
	t->overflows = kb_le64(atomic64_read(&f->overflows));
}

static void kb_image_words(const struct kb_filter *f, __le64 *out)
{
	u64 i;

	for (i = 0; i < f->nwords; i++) {
		out[i] = cpu_to_le64(atomic64_read(&f->words[i]));
		if (!((i + 1) % KB_RESCHED_WORDS))
			cond_resched();
	}
}

/* @f's image in a new kvmalloc()ed buffer of hdr_len + bytes. */
static void *kb_image_build(const struct kb_filter *f)
{
	u32 hl = kb_image_hdr_len(f);
	struct kbloom_image_head *hd;
	u8 *img;
	u32 crc;

	img = kvmalloc(hl + f->bytes, KB_GFP);
	if (!img)
		return NULL;
	hd = (struct kbloom_image_head *)img;
	kb_image_header(f, &hd->h);
	kb_image_words(f, (__le64 *)(img + hl));
	if (hl == KBLOOM_IMAGE_HDR_LEN) {
		crc = kb_image_crc(&hd->h, img + hl, f->bytes);
	} else {
		kb_image_tail(f, &hd->g);
		crc = kb_image_crc_head(hd, img + hl, f->bytes);
	}
	hd->h.crc = kb_le32(crc);
	return img;
}

static int kb_save(struct kbloom_image_op *cmd, struct kb_filter *f)
{
	void *img;
	int ret = 0;

	if (f->ops->save)
		return f->ops->save(f, cmd);
	cmd->image_len = kb_image_hdr_len(f) + f->bytes;
	if (cmd->buf_len < cmd->image_len)
		return -EMSGSIZE;
	img = kb_image_build(f);
	if (!img)
		return -ENOMEM;
	if (copy_to_user(u64_to_user_ptr(cmd->buf), img, cmd->image_len))
		ret = -EFAULT;
	kvfree(img);
	return ret;
}

int kb_cmd_save(struct kb_ucmd *ucmd)
{
	struct kbloom_image_op *cmd = ucmd->cmd;
	struct kb_filter *f;
	int ret;

	if (cmd->flags)
		return -EOPNOTSUPP;
	if (!kb_name_ok(cmd->name))
		return -EINVAL;
	f = kb_filter_get(cmd->name);
	if (!f)
		return -ENOENT;
	ret = kb_save(cmd, f);
	kb_filter_put(f);
	if (ret && ret != -EMSGSIZE)
		return ret;
	/* EMSGSIZE still tells the caller the size it needs. */
	return kb_respond(ucmd, sizeof(*cmd)) ?: ret;
}

/*
 * The header alone, before the payload is copied: refuse what is invalid or
 * too large without allocating it.
 */
static int kb_restore_precheck(const struct kbloom_image_op *cmd)
{
	struct kbloom_image_hdr h;
	int ret;

	if (cmd->buf_len < KBLOOM_IMAGE_HDR_LEN)
		return -EMSGSIZE;
	if (copy_from_user(&h, u64_to_user_ptr(cmd->buf), sizeof(h)))
		return -EFAULT;
	ret = kb_image_check(&h, cmd->buf_len);
	if (ret)
		return ret;
	/* a valid image of a type this module does not hold */
	if (!kb_type_ops(h.type))
		return -EOPNOTSUPP;
	if (kb_le64(h.payload_len) > kb_max_filter_bytes)
		return -E2BIG;
	return 0;
}

/* The whole image, copied in and verified.  Return: kvmalloc()ed, or ERR. */
static void *kb_restore_copy(const struct kbloom_image_op *cmd)
{
	void *img;
	int ret;

	ret = kb_restore_precheck(cmd);
	if (ret)
		return ERR_PTR(ret);
	img = kvmalloc(cmd->buf_len, KB_GFP);
	if (!img)
		return ERR_PTR(-ENOMEM);
	if (copy_from_user(img, u64_to_user_ptr(cmd->buf), cmd->buf_len)) {
		ret = -EFAULT;
		goto err_free;
	}
	/* Verified on this copy: the user may change theirs meanwhile. */
	ret = kb_image_verify(img, cmd->buf_len);
	if (ret)
		goto err_free;
	return img;

err_free:
	kvfree(img);
	return ERR_PTR(ret);
}

/* The geometry of a verified image (its tail too, for version 3). */
static void kb_image_geom(const void *img, struct kb_geom *g)
{
	const struct kbloom_image_head *hd = img;
	const struct kbloom_image_hdr *h = &hd->h;

	memset(g, 0, sizeof(*g));
	g->type = h->type;
	g->hash_id = h->hash_id;
	g->counter_bits = h->counter_bits;
	g->k = kb_le32(h->k);
	g->m = kb_le64(h->m);
	g->seed = kb_le64(h->seed);
	g->capacity = kb_le64(h->capacity);
	g->fpr_pico = kb_le64(h->fpr_pico);
	if (kb_le16(h->hdr_len) == KBLOOM_IMAGE_HDR_LEN)
		return;
	g->fp_bits = hd->g.fp_bits;
	g->slots = hd->g.slots;
	g->tables = hd->g.tables;
	g->vi_l = hd->g.vi_l;
	g->update = hd->g.update;
	g->buckets = kb_le64(hd->g.buckets);
}

/* A new, unpublished filter named @name from a verified image. */
static struct kb_filter *kb_image_filter(const void *img, const char *name)
{
	const struct kbloom_image_head *hd = img;
	const __le64 *words = img + kb_le16(hd->h.hdr_len);
	struct kb_filter *f;
	struct kb_geom g;
	u64 i;

	kb_image_geom(img, &g);
	f = kb_filter_alloc(&g, name);
	if (!f)
		return ERR_PTR(-ENOMEM);
	for (i = 0; i < f->nwords; i++) {
		atomic64_set(&f->words[i], le64_to_cpu(words[i]));
		if (!((i + 1) % KB_RESCHED_WORDS))
			cond_resched();
	}
	atomic64_set(&f->inserted, kb_le64(hd->h.inserted));
	atomic64_set(&f->saturations, kb_le64(hd->h.saturations));
	if (kb_le16(hd->h.hdr_len) != KBLOOM_IMAGE_HDR_LEN) {
		atomic64_set(&f->kicks, kb_le64(hd->g.kicks));
		atomic64_set(&f->overflows, kb_le64(hd->g.overflows));
	}
	return f;
}

/*
 * A container image (uapi/kbloom_image.h), copied in whole and verified,
 * made a filter by its type's ops->restore.
 */
static struct kb_filter *kb_restore_container(const struct kbloom_image_op *cmd)
{
	const struct kbloom_container_hdr *c;
	const struct kb_type_ops *ops;
	struct kb_filter *f;
	const char *name;
	void *img;
	int ret;

	if (cmd->buf_len - KBLOOM_CONTAINER_HDR_LEN > kb_max_filter_bytes)
		return ERR_PTR(-E2BIG);
	img = kvmalloc(cmd->buf_len, KB_GFP);
	if (!img)
		return ERR_PTR(-ENOMEM);
	ret = -EFAULT;
	if (copy_from_user(img, u64_to_user_ptr(cmd->buf), cmd->buf_len))
		goto err_free;
	ret = kb_container_verify(img, cmd->buf_len);
	if (ret)
		goto err_free;
	c = img;
	ops = kb_type_ops(c->type);
	ret = -EOPNOTSUPP;
	if (!ops || !ops->restore)
		goto err_free;
	name = cmd->name[0] ? cmd->name : c->name;
	f = name[0] ? ops->restore(img, cmd->buf_len, name) : ERR_PTR(-EINVAL);
	kvfree(img);
	return f;

err_free:
	kvfree(img);
	return ERR_PTR(ret);
}

/* The image starts with the container magic: 1, 0, or -EFAULT. */
static int kb_restore_is_container(const struct kbloom_image_op *cmd)
{
	__le32 magic;

	if (cmd->buf_len < KBLOOM_CONTAINER_HDR_LEN)
		return 0;
	if (copy_from_user(&magic, u64_to_user_ptr(cmd->buf), sizeof(magic)))
		return -EFAULT;
	return le32_to_cpu(magic) == KBLOOM_CONTAINER_MAGIC;
}

static struct kb_filter *kb_restore_filter(const struct kbloom_image_op *cmd)
{
	const struct kbloom_image_hdr *h;
	struct kb_filter *f;
	const char *name;
	void *img;
	int ret;

	ret = kb_restore_is_container(cmd);
	if (ret < 0)
		return ERR_PTR(ret);
	img = ret ? kb_restore_container(cmd) : kb_restore_copy(cmd);
	if (ret)
		return img;
	if (IS_ERR(img)) {
		if (PTR_ERR(img) == -EBADMSG)
			pr_info_ratelimited("restore %.31s: bad image\n",
					    cmd->name);
		return img;
	}
	h = img;
	name = cmd->name[0] ? cmd->name : h->name;
	f = name[0] ? kb_image_filter(img, name) : ERR_PTR(-EINVAL);
	kvfree(img);
	return f;
}

int kb_cmd_restore(struct kb_ucmd *ucmd)
{
	struct kbloom_image_op *cmd = ucmd->cmd;
	struct kb_filter *f;
	int ret;

	if (cmd->flags & ~KBLOOM_RESTORE_REPLACE)
		return -EOPNOTSUPP;
	if (cmd->name[0] && !kb_name_ok(cmd->name))
		return -EINVAL;
	if (!cmd->name[0] && !kb_name_empty(cmd->name))
		return -EINVAL;
	f = kb_restore_filter(cmd);
	if (IS_ERR(f))
		return PTR_ERR(f);
	if (cmd->flags & KBLOOM_RESTORE_REPLACE)
		ret = kb_reg_replace(f);
	else
		ret = kb_reg_publish(f, NULL);
	if (ret)
		goto err_put;
	return 0;

err_put:
	kb_filter_put(f);
	return ret;
}
