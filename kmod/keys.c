// SPDX-License-Identifier: GPL-2.0
/*
 * kbloom.ko key batches: ADD, DEL, TEST, COUNT.
 *
 * A batch is copied in whole, validated whole, and only then applied, so a
 * malformed batch changes nothing.  The filter is found under
 * rcu_read_lock() and pinned by a reference while the batch runs (it may
 * be unpublished meanwhile; it is freed after the last reference and a
 * grace period), so a long batch can cond_resched() between chunks; the
 * key operations themselves take no lock.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/slab.h>
#include <linux/mm.h>
#include <linux/sched.h>
#include <linux/uaccess.h>

#include "kbloom_int.h"

/* Keys applied between two cond_resched(). */
#define KB_CHUNK_KEYS	1024

enum kb_keys_op { KB_ADD, KB_DEL, KB_TEST, KB_COUNT };

struct kb_batch {
	const u8 *buf;		/* the keys, kernel copy */
	u64 len;
	u64 off;		/* cursor */
	u32 key_len;		/* 0: variable keys */
	u32 count;
	u8 *results;		/* TEST: result bitmap, or NULL */
	u64 *counts;		/* COUNT: the estimates */
	u32 pos;		/* keys visited */
	u32 hits;		/* TEST, COUNT: present; DEL: skipped as absent */
	u64 lost;		/* ADD: increments lost to saturation */
	int err;		/* ADD: the key at pos had no room */
};

/* The next key of a validated batch. */
static const u8 *kb_batch_next(struct kb_batch *b, u32 *len)
{
	const u8 *key;

	if (b->key_len) {
		*len = b->key_len;
	} else {
		*len = b->buf[b->off];
		b->off++;
	}
	key = b->buf + b->off;
	b->off += *len;
	return key;
}

/* Variable keys: every length 1..KBLOOM_KEY_MAX, lengths fill @len exactly. */
static int kb_batch_check_var(const struct kb_batch *b)
{
	u64 off = 0;
	u32 i, n;

	for (i = 0; i < b->count; i++) {
		if (off >= b->len)
			return -EINVAL;
		n = b->buf[off];
		if (!n || n > KBLOOM_KEY_MAX)
			return -EINVAL;
		off += 1 + n;
	}
	return off == b->len ? 0 : -EINVAL;
}

/* The fields of a keys command, before anything is copied. */
static int kb_keys_check(const struct kbloom_keys *cmd, enum kb_keys_op op)
{
	if (cmd->flags)
		return -EOPNOTSUPP;
	if (!kb_name_ok(cmd->name) || cmd->key_len > KBLOOM_KEY_MAX ||
	    !cmd->count)
		return -EINVAL;
	/* a bitmap is optional for TEST, estimates are what COUNT is for */
	if ((op == KB_ADD || op == KB_DEL) && cmd->results)
		return -EINVAL;
	if (op == KB_COUNT && !cmd->results)
		return -EINVAL;
	if (cmd->count > KBLOOM_BATCH_KEYS_MAX ||
	    cmd->keys_len > KBLOOM_BATCH_BYTES_MAX)
		return -E2BIG;
	if (cmd->key_len) {
		if (cmd->keys_len != (u64)cmd->count * cmd->key_len)
			return -EINVAL;
	} else if (cmd->keys_len < 2ULL * cmd->count ||
		   cmd->keys_len > (KBLOOM_KEY_MAX + 1ULL) * cmd->count) {
		return -EINVAL;
	}
	return 0;
}

static int kb_batch_load(const struct kbloom_keys *cmd, struct kb_batch *b)
{
	u8 *buf;
	int ret;

	buf = kvmalloc(cmd->keys_len, KB_GFP);
	if (!buf)
		return -ENOMEM;
	if (copy_from_user(buf, u64_to_user_ptr(cmd->keys), cmd->keys_len)) {
		ret = -EFAULT;
		goto err_free;
	}
	b->buf = buf;
	b->len = cmd->keys_len;
	b->key_len = cmd->key_len;
	b->count = cmd->count;
	ret = b->key_len ? 0 : kb_batch_check_var(b);
	if (ret)
		goto err_free;
	return 0;

err_free:
	kvfree(buf);
	b->buf = NULL;
	return ret;
}

/* ADD of one key: false when it had no room (the batch stops there). */
static bool kb_batch_add(struct kb_filter *f, struct kb_batch *b,
			 const u8 *key, u32 len)
{
	int ret = kb_filter_add(f, key, len);

	if (ret < 0) {
		b->err = ret;
		if (ret == -ENOSPC)
			atomic64_inc(&f->overflows);
		return false;
	}
	b->lost += ret;
	return true;
}

/* DEL of one key: false when the type refused it (the batch stops). */
static bool kb_batch_del(struct kb_filter *f, struct kb_batch *b,
			 const u8 *key, u32 len)
{
	int ret;

	if (!f->ops->remove) {
		b->hits += !kb_filter_del(f, key, len);
		return true;
	}
	ret = kb_filter_remove(f, key, len);
	if (ret < 0) {
		b->err = ret;
		return false;
	}
	b->hits += !ret;
	return true;
}

static void kb_batch_chunk(struct kb_filter *f, struct kb_batch *b,
			   enum kb_keys_op op)
{
	u32 end = min(b->count, b->pos + KB_CHUNK_KEYS), len;
	const u8 *key;

	for (; b->pos < end; b->pos++) {
		key = kb_batch_next(b, &len);
		switch (op) {
		case KB_ADD:
			if (!kb_batch_add(f, b, key, len))
				return;
			break;
		case KB_DEL:
			if (!kb_batch_del(f, b, key, len))
				return;
			break;
		case KB_TEST:
			if (!kb_filter_test(f, key, len))
				break;
			b->hits++;
			if (b->results)
				b->results[b->pos / 8] |= BIT(b->pos % 8);
			break;
		case KB_COUNT:
			b->counts[b->pos] = kb_filter_count(f, key, len);
			b->hits += !!b->counts[b->pos];
			break;
		}
	}
}

static void kb_batch_count(struct kb_filter *f, struct kb_batch *b,
			   enum kb_keys_op op)
{
	if (op == KB_ADD) {
		atomic64_add(b->pos, &f->inserted);
		if (b->lost)
			atomic64_add(b->lost, &f->saturations);
	} else if (op == KB_DEL) {
		atomic64_sub(b->pos - b->hits, &f->inserted);
	}
}

/* The type deletes, and so does this filter's geometry. */
static bool kb_can_del(const struct kb_filter *f)
{
	return (f->ops->del || f->ops->remove) &&
	       (!f->ops->can_del || f->ops->can_del(&f->g));
}

static int kb_batch_apply(const char *name, struct kb_batch *b,
			  enum kb_keys_op op)
{
	struct kb_filter *f;
	int ret = 0;

	f = kb_filter_get(name);
	if (!f)
		return -ENOENT;
	if ((op == KB_DEL && !kb_can_del(f)) ||
	    (op == KB_COUNT && !f->ops->count)) {
		ret = -EOPNOTSUPP;
		goto out_put;
	}
	while (b->pos < b->count && !b->err) {
		kb_batch_chunk(f, b, op);
		cond_resched();
	}
	kb_batch_count(f, b, op);
	ret = b->err;
out_put:
	kb_filter_put(f);
	return ret;
}

/* Bytes of the results of @op: a bitmap (TEST) or estimates (COUNT). */
static size_t kb_results_len(const struct kbloom_keys *cmd, enum kb_keys_op op)
{
	if (!cmd->results)
		return 0;
	if (op == KB_COUNT)
		return (size_t)cmd->count * sizeof(u64);
	return DIV_ROUND_UP(cmd->count, 8);
}

static int kb_batch_results(const struct kbloom_keys *cmd, struct kb_batch *b,
			    enum kb_keys_op op)
{
	size_t len = kb_results_len(cmd, op);

	if (!len)
		return 0;
	b->results = kvzalloc(len, KB_GFP);
	b->counts = (u64 *)b->results;
	return b->results ? 0 : -ENOMEM;
}

static int kb_keys_run(struct kbloom_keys *cmd, enum kb_keys_op op)
{
	struct kb_batch b = {};
	int ret;

	ret = kb_keys_check(cmd, op);
	if (ret)
		return ret;
	ret = kb_batch_load(cmd, &b);
	if (ret)
		return ret;
	ret = kb_batch_results(cmd, &b, op);
	if (ret)
		goto out_keys;
	ret = kb_batch_apply(cmd->name, &b, op);
	if (b.err)	/* the keys applied before the failing one */
		cmd->done = op == KB_DEL ? b.pos - b.hits : b.pos;
	if (ret)
		goto out_results;
	if (b.results && copy_to_user(u64_to_user_ptr(cmd->results), b.results,
				      kb_results_len(cmd, op))) {
		ret = -EFAULT;
		goto out_results;
	}
	cmd->done = op == KB_DEL ? b.count - b.hits : b.count;
	cmd->hits = b.hits;
out_results:
	kvfree(b.results);
out_keys:
	kvfree(b.buf);
	return ret;
}

/*
 * A failed batch reports done = hits = 0 when the structure is writable
 * (nothing was applied), except an ADD that stopped inside the batch
 * (ENOSPC: the next key had no room, counted as an overflow; ENOMEM: a
 * type's first allocation failed): done keys were added.
 */
static int kb_cmd_keys(struct kb_ucmd *ucmd, enum kb_keys_op op)
{
	struct kbloom_keys *cmd = ucmd->cmd;
	int ret, out;

	cmd->done = 0;
	ret = kb_keys_run(cmd, op);
	if (ret)
		cmd->hits = 0;
	out = kb_respond(ucmd, sizeof(*cmd));
	return ret ?: out;
}

int kb_cmd_add(struct kb_ucmd *ucmd)
{
	return kb_cmd_keys(ucmd, KB_ADD);
}

int kb_cmd_del(struct kb_ucmd *ucmd)
{
	return kb_cmd_keys(ucmd, KB_DEL);
}

int kb_cmd_test(struct kb_ucmd *ucmd)
{
	return kb_cmd_keys(ucmd, KB_TEST);
}

int kb_cmd_count(struct kb_ucmd *ucmd)
{
	return kb_cmd_keys(ucmd, KB_COUNT);
}
