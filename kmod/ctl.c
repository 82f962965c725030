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
#include "uapi/kbloom_plan.h"

#define KB_CREATE_FLAGS	(KBLOOM_CREATE_SEED | KBLOOM_CREATE_EXIST)

static int kb_create_counter_bits(u32 type, u32 in, u32 *out)
{
	if (type != KBLOOM_TYPE_COUNTING) {
		*out = 0;
		return in ? -EINVAL : 0;
	}
	*out = in ? in : KBLOOM_COUNTER_BITS_DEFAULT;
	if (*out != KBLOOM_COUNTER_BITS_DEFAULT &&
	    *out != KBLOOM_COUNTER_BITS_WIDE)
		return -EINVAL;
	return 0;
}

/* (m, k) from (capacity, fpr_pico) through the shared planner. */
static int kb_geom_planned(const struct kbloom_create *cmd, struct kb_geom *g)
{
	struct kb_plan plan;
	int ret;

	ret = kb_plan(g->type, cmd->capacity, cmd->fpr_pico, g->counter_bits,
		      &plan);
	if (ret)
		return ret == -E2BIG ? -E2BIG : -EINVAL;
	g->m = plan.m;
	g->k = plan.k;
	g->capacity = cmd->capacity;
	g->fpr_pico = cmd->fpr_pico;
	return 0;
}

/* kb_plan_check(): -EINVAL, or -E2BIG for m over KBLOOM_M_MAX. */
static int kb_geom_explicit(const struct kbloom_create *cmd, struct kb_geom *g)
{
	int ret = kb_plan_check(g->type, cmd->m, cmd->k, g->counter_bits);

	if (ret)
		return ret == -E2BIG ? -E2BIG : -EINVAL;
	g->m = cmd->m;
	g->k = cmd->k;
	return 0;
}

/*
 * A type of enum kbloom_type this module implements, and no geometry
 * field of the survey variants with it.
 */
static int kb_create_type(const struct kbloom_create *cmd)
{
	if (!kb_type_known(cmd->type))
		return -EINVAL;
	if (!kb_type_classic(cmd->type))
		return -EOPNOTSUPP;
	if (cmd->fp_bits || cmd->slots || cmd->tables || cmd->vi_l ||
	    cmd->update || cmd->buckets)
		return -EINVAL;
	return 0;
}

static int kb_create_geom(const struct kbloom_create *cmd, struct kb_geom *g)
{
	bool planned = cmd->capacity || cmd->fpr_pico;
	int ret;

	memset(g, 0, sizeof(*g));
	ret = kb_create_type(cmd);
	if (ret)
		return ret;
	g->type = cmd->type;
	g->hash_id = cmd->hash_id ? cmd->hash_id : KBLOOM_HASH_FAST;
	if (g->hash_id > KBLOOM_HASH_MAX)
		return -EINVAL;
	ret = kb_create_counter_bits(cmd->type, cmd->counter_bits, &g->counter_bits);
	if (ret)
		return ret;
	if (planned == (cmd->m || cmd->k))
		return -EINVAL;
	ret = planned ? kb_geom_planned(cmd, g) : kb_geom_explicit(cmd, g);
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
	cmd->seed = f->g.seed;
	cmd->bytes = f->bytes;
	cmd->id = f->id;
}

/* CREATE of a name in use: fine with KBLOOM_CREATE_EXIST and a twin. */
static int kb_create_exists(struct kb_ucmd *ucmd, const struct kb_geom *g,
			    struct kb_filter *dup)
{
	struct kbloom_create *cmd = ucmd->cmd;
	int ret = -EEXIST;

	if ((cmd->flags & KBLOOM_CREATE_EXIST) &&
	    dup->g.type == g->type && dup->g.hash_id == g->hash_id &&
	    dup->g.m == g->m && dup->g.k == g->k &&
	    dup->g.counter_bits == g->counter_bits) {
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
