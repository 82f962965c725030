// SPDX-License-Identifier: GPL-2.0
/*
 * kbloom.ko filter commands: CREATE, DESTROY, FLUSH, STAT, LIST.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/random.h>
#include <linux/slab.h>
#include <linux/mm.h>
#include <linux/sort.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "kbloom_int.h"

#define KB_CREATE_FLAGS	(KBLOOM_CREATE_SEED | KBLOOM_CREATE_EXIST)

static int kb_create_geom(const struct kbloom_create *cmd, struct kb_geom *g)
{
	const struct kb_type_ops *ops;
	int ret;

	memset(g, 0, sizeof(*g));
	if (!kb_type_known(cmd->type))
		return -EINVAL;
	ops = kb_type_ops(cmd->type);
	if (!ops)
		return -EOPNOTSUPP;
	g->type = cmd->type;
	g->hash_id = cmd->hash_id ? cmd->hash_id : KBLOOM_HASH_FAST;
	if (g->hash_id > KBLOOM_HASH_MAX)
		return -EINVAL;
	ret = ops->create(cmd, g);
	if (ret)
		return ret;
	if (cmd->flags & KBLOOM_CREATE_SEED)
		g->seed = cmd->seed;
	else
		g->seed = get_random_u64();
	return 0;
}

static void kb_create_out(struct kbloom_create *cmd, const struct kb_filter *f)
{
	cmd->m = f->g.m;
	cmd->k = f->g.k;
	cmd->counter_bits = f->g.counter_bits;
	cmd->seed = f->g.seed;
	cmd->bytes = f->bytes;
	cmd->id = f->id;
	cmd->fp_bits = f->g.fp_bits;
	cmd->slots = f->g.slots;
	cmd->tables = f->g.tables;
	cmd->vi_l = f->g.vi_l;
	cmd->update = f->g.update;
	cmd->buckets = f->g.buckets;
}

/* Same type, hash, m, k, counter width and variant geometry. */
static bool kb_geom_twin(const struct kb_geom *a, const struct kb_geom *b)
{
	return a->type == b->type && a->hash_id == b->hash_id &&
	       a->m == b->m && a->k == b->k &&
	       a->counter_bits == b->counter_bits &&
	       a->fp_bits == b->fp_bits && a->slots == b->slots &&
	       a->tables == b->tables && a->vi_l == b->vi_l &&
	       a->update == b->update && a->buckets == b->buckets &&
	       a->gen_len == b->gen_len;
}

/* CREATE of a name in use: fine with KBLOOM_CREATE_EXIST and a twin. */
static int kb_create_exists(struct kb_ucmd *ucmd, const struct kb_geom *g,
			    struct kb_filter *dup)
{
	struct kbloom_create *cmd = ucmd->cmd;
	int ret = -EEXIST;

	if ((cmd->flags & KBLOOM_CREATE_EXIST) && kb_geom_twin(&dup->g, g)) {
		kb_create_out(cmd, dup);
		ret = kb_respond(ucmd, sizeof(*cmd));
	}
	kb_filter_put(dup);
	return ret;
}

int kb_cmd_create(struct kb_ucmd *ucmd)
{
	struct kbloom_create *cmd = ucmd->cmd;
	struct kb_filter *f, *dup = NULL;
	struct kb_geom g;
	u64 bytes;
	int ret;

	if (cmd->flags & ~KB_CREATE_FLAGS)
		return -EOPNOTSUPP;
	if (cmd->reserved || cmd->reserved1 || !kb_name_ok(cmd->name))
		return -EINVAL;
	ret = kb_create_geom(cmd, &g);
	if (ret)
		return ret;
	/* only a window has one */
	if (cmd->window && cmd->type != KBLOOM_TYPE_AGE_PARTITIONED)
		return -EINVAL;
	ret = kb_geom_bytes(&g, &bytes);
	if (ret)
		return ret;
	dup = kb_filter_get(cmd->name);
	if (dup)
		return kb_create_exists(ucmd, &g, dup);

	f = kb_filter_alloc(&g, cmd->name);
	if (!f)
		return -ENOMEM;
	ret = kb_reg_publish(f, &dup);
	if (ret)
		goto err_free;
	kb_create_out(cmd, f);
	return kb_respond(ucmd, sizeof(*cmd));

err_free:
	kb_filter_put(f);
	if (dup)
		return kb_create_exists(ucmd, &g, dup);
	return ret;
}

/* The name of DESTROY, FLUSH and STAT: empty iff @all. */
static int kb_name_or_all(const char *name, bool all)
{
	if (all)
		return kb_name_empty(name) ? 0 : -EINVAL;
	return kb_name_ok(name) ? 0 : -EINVAL;
}

int kb_cmd_destroy(struct kb_ucmd *ucmd)
{
	struct kbloom_name_op *cmd = ucmd->cmd;
	bool all = cmd->flags & KBLOOM_ALL;
	int ret;

	if (cmd->flags & ~KBLOOM_ALL)
		return -EOPNOTSUPP;
	ret = kb_name_or_all(cmd->name, all);
	if (ret)
		return ret;
	if (!all)
		return kb_reg_unpublish(cmd->name);
	kb_reg_unpublish_all();
	return 0;
}

int kb_cmd_flush(struct kb_ucmd *ucmd)
{
	struct kbloom_name_op *cmd = ucmd->cmd;
	bool all = cmd->flags & KBLOOM_ALL;
	struct kb_filter *f;
	int ret;

	if (cmd->flags & ~KBLOOM_ALL)
		return -EOPNOTSUPP;
	ret = kb_name_or_all(cmd->name, all);
	if (ret)
		return ret;
	if (all) {
		kb_reg_flush_all();
		return 0;
	}
	f = kb_filter_get(cmd->name);
	if (!f)
		return -ENOENT;
	kb_filter_flush(f);
	kb_filter_put(f);
	return 0;
}

int kb_cmd_stat(struct kb_ucmd *ucmd)
{
	struct kbloom_stat *cmd = ucmd->cmd;
	bool dev = cmd->flags & KBLOOM_STAT_DEVICE;
	size_t out = offsetof(struct kbloom_stat, type);
	struct kb_filter *f;
	int ret;

	if (cmd->flags & ~KBLOOM_STAT_DEVICE)
		return -EOPNOTSUPP;
	ret = kb_name_or_all(cmd->name, dev);
	if (ret)
		return ret;
	memset((u8 *)cmd + out, 0, sizeof(*cmd) - out);
	if (dev) {
		kb_reg_device_stat(&cmd->filters, &cmd->bytes);
		return kb_respond(ucmd, sizeof(*cmd));
	}
	f = kb_filter_get(cmd->name);
	if (!f)
		return -ENOENT;
	kb_filter_stat(f, cmd);
	kb_filter_put(f);
	return kb_respond(ucmd, sizeof(*cmd));
}

static int kb_list_cmp(const void *a, const void *b)
{
	const struct kbloom_list_entry *x = a, *y = b;

	return strncmp(x->name, y->name, KBLOOM_NAME_LEN);
}

int kb_cmd_list(struct kb_ucmd *ucmd)
{
	struct kbloom_list *cmd = ucmd->cmd;
	struct kbloom_list_entry *ents = NULL;
	u32 cap = min(cmd->count, kb_max_filters), n;
	int ret = 0;

	if (cmd->flags)
		return -EOPNOTSUPP;
	if (cmd->reserved)
		return -EINVAL;
	if (cap) {
		ents = kvcalloc(cap, sizeof(*ents), KB_GFP);
		if (!ents)
			return -ENOMEM;
	}
	n = kb_reg_list(ents, cap);
	if (n > cmd->count) {
		ret = -EMSGSIZE;
		goto out_count;
	}
	sort(ents, n, sizeof(*ents), kb_list_cmp, NULL);
	if (n && copy_to_user(u64_to_user_ptr(cmd->entries), ents,
			      n * sizeof(*ents))) {
		ret = -EFAULT;
		goto out_free;
	}
out_count:
	cmd->count = n;
	if (kb_respond(ucmd, sizeof(*cmd)))
		ret = -EFAULT;
out_free:
	kvfree(ents);
	return ret;
}

/* The two names of SWAP and RENAME: both valid and different. */
static int kb_name_pair_check(const struct kbloom_name_pair *cmd)
{
	if (cmd->flags)
		return -EOPNOTSUPP;
	if (!kb_name_ok(cmd->name) || !kb_name_ok(cmd->other))
		return -EINVAL;
	if (!strncmp(cmd->name, cmd->other, KBLOOM_NAME_LEN))
		return -EINVAL;
	return 0;
}

int kb_cmd_swap(struct kb_ucmd *ucmd)
{
	struct kbloom_name_pair *cmd = ucmd->cmd;

	return kb_name_pair_check(cmd) ?: kb_reg_swap(cmd->name, cmd->other);
}

int kb_cmd_rename(struct kb_ucmd *ucmd)
{
	struct kbloom_name_pair *cmd = ucmd->cmd;

	return kb_name_pair_check(cmd) ?: kb_reg_rename(cmd->name, cmd->other);
}
