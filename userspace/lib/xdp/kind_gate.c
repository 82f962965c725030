// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom XDP instances: the gate kind (bpf/kbloom_gate.bpf.c).
 *
 * The set is gate_exact; the filter (id 0) holds at least its keys.
 * Adding writes the exact map and then the filter, so the key is in force
 * when the call returns; removing deletes from the exact map only (the
 * exact map has the last word), and kbloom_gate_rebuild() clears the
 * stale bits.
 *
 * kfunc variant (bpf/kbloom_kfunc_gate.bpf.c): the programs test the
 * module filter named in gate_kfilter instead of filter 0.  Adding also
 * adds the key to the module filter (before filter 0, which stays the
 * loader's record of the set); removing also deletes it there, which a
 * counting filter does at once.
 *
 * cuckoo variant (bpf/kbloom_cuckoo_gate.bpf.c, kind_gate_cuckoo.c):
 * filter 0 is a cuckoo filter; adding inserts the fingerprint (-ENOSPC
 * undoes the exact entry), removing deletes it after the exact entry, so
 * the filter holds exactly the set's fingerprints.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "uapi/kbloom_xdp_maps.h"
#include "bpf/kbloom_gate.skel.h"
#include "bpf/kbloom_kfunc_gate.skel.h"
#include "bpf/kbloom_cuckoo_gate.skel.h"
#include "libkbloom_dev.h"
#include "kinds.h"
#include "xdp_priv.h"

static int gate_check(const struct kbloom_xdp *x)
{
	return x && x->inst->ops == &kbx_gate_ops ? 0 : -EINVAL;
}

static int gate_cfg_ok(__u32 mode, __u32 flags)
{
	return mode <= KBLOOM_GATE_MODE_MAX && !(flags & ~KBLOOM_GATE_F_ALL);
}

static int gate_init(struct kbloom_xdp *x,
		     const struct kbloom_xdp_opts *o)
{
	struct kbloom_gate_cfg cfg = {};
	struct kbloom_params p;
	__u32 zero = 0;
	int ret;

	if (o) {
		cfg.mode = o->mode;
		cfg.flags = o->flags;
	}
	if (!gate_cfg_ok(cfg.mode, cfg.flags)) {
		kbx_log(x, "%s: gate mode %u / flags %#x out of range",
			x->name, cfg.mode, cfg.flags);
		return -EINVAL;
	}
	/* before the filter: gate_published() fills in its geometry */
	ret = kbp_err(bpf_map_update_elem(x->config_fd, &zero, &cfg, 0));
	if (ret)
		return ret;
	if (x->variant == KBLOOM_XDP_VARIANT_CUCKOO)
		return kbx_cuckoo_init(x, o);
	return kbx_geom_to_params(o ? &o->geom : NULL, &p) ?:
	       kbx_filter_create(x, 0, 0, &p);
}

/*
 * The filter's geometry into gate_config, so that packets need not read
 * gate_params (uapi struct kbloom_gate_cfg): geo of the new slot first,
 * then the slot, in two updates.  Should one fail, packets go back to
 * gate_params (geo_ok 0).
 */
static void gate_published(struct kbloom_xdp *x, const struct kbloom_params *p)
{
	struct kbloom_gate_cfg cfg;
	struct kbloom_gate_geo *g;
	__u32 zero = 0, slot = p->slot & 1;
	int ret;

	if (p->id || bpf_map_lookup_elem(x->config_fd, &zero, &cfg))
		return;
	g = &cfg.geo[slot];
	memset(g, 0, sizeof(*g));
	g->seed = p->seed;
	g->nblocks = p->nblocks;
	g->k = p->k;
	g->hash_id = p->hash_id;
	ret = bpf_map_update_elem(x->config_fd, &zero, &cfg, 0);
	cfg.slot = slot;
	cfg.geo_ok = 1;
	ret = ret ?: bpf_map_update_elem(x->config_fd, &zero, &cfg, 0);
	if (!ret)
		return;
	kbx_log(x, "%s: gate_config: %s; packets read gate_params", x->name,
		strerror(errno));
	cfg.geo_ok = 0;
	bpf_map_update_elem(x->config_fd, &zero, &cfg, 0);
}

static int gate_key(struct kbloom_addr_key *k, const void *addr, __u32 len)
{
	if (!addr || (len != KBLOOM_ADDR4_LEN && len != KBLOOM_ADDR6_LEN))
		return -EINVAL;
	memset(k, 0, sizeof(*k));
	k->len = len;
	memcpy(k->addr, addr, len);
	return 0;
}

int kbloom_gate_add(struct kbloom_xdp *x, const void *addr, __u32 len)
{
	struct kbloom_addr_key k;
	__u32 one = 1;
	int ret;

	ret = gate_check(x);
	ret = ret ?: gate_key(&k, addr, len);
	if (ret)
		return ret;
	ret = kbx_lock(x);
	if (ret)
		return ret;
	ret = kbp_err(bpf_map_update_elem(x->exact_fd, &k, &one, BPF_NOEXIST));
	if (ret == -E2BIG)
		ret = -ENOSPC;
	if (ret)
		goto out;
	if (kbx_kfunc(x)) {
		ret = kbx_module_keys(x, 0, KBLOOM_IOCTL_ADD, addr, len);
		if (ret)
			goto err_exact;
	}
	if (x->variant == KBLOOM_XDP_VARIANT_CUCKOO)
		ret = kbx_cuckoo_keys(x, 0, 1, addr, len);
	else
		ret = kbx_filter_add_locked(x, 0, addr, len);
	if (!ret)
		goto out;
	if (kbx_kfunc(x))
		kbx_module_keys(x, 0, KBLOOM_IOCTL_DEL, addr, len);
err_exact:
	bpf_map_delete_elem(x->exact_fd, &k);
out:
	kbx_unlock(x);
	return ret;
}

int kbloom_gate_del(struct kbloom_xdp *x, const void *addr, __u32 len)
{
	struct kbloom_addr_key k;
	int ret;

	ret = gate_check(x);
	ret = ret ?: gate_key(&k, addr, len);
	if (ret)
		return ret;
	ret = kbx_lock(x);
	if (ret)
		return ret;
	ret = kbp_err(bpf_map_delete_elem(x->exact_fd, &k));
	/* out of the set already; a failed module delete is only logged */
	if (!ret && kbx_kfunc(x))
		kbx_module_keys(x, 0, KBLOOM_IOCTL_DEL, addr, len);
	if (!ret && x->variant == KBLOOM_XDP_VARIANT_CUCKOO &&
	    kbx_cuckoo_keys(x, 0, 0, addr, len))
		kbx_log(x, "%s: the cuckoo filter did not hold the address (a false positive for it until a rebuild)",
			x->name);
	kbx_unlock(x);
	return ret;
}

int kbloom_gate_rebuild(struct kbloom_xdp *x,
			const struct kbloom_xdp_geom *geom)
{
	struct kbloom_addr_key key, next;
	struct kbloom_params cur, p;
	__u64 *words, n = 0;
	int ret;

	ret = gate_check(x);
	if (ret)
		return ret;
	if (kbx_kfunc(x)) {
		kbx_log(x, "%s: the filter of a kfunc gate is kbloom.ko's: nothing to rebuild (a counting filter forgets deleted keys at once)",
			x->name);
		return -EOPNOTSUPP;
	}
	if (x->variant == KBLOOM_XDP_VARIANT_CUCKOO)
		return kbx_cuckoo_rebuild(x, geom);
	ret = kbx_lock(x);
	if (ret)
		return ret;
	ret = kbx_filter_get(x, 0, &cur);
	if (ret)
		goto out;
	p = cur;
	if (geom) {
		ret = kbx_geom_to_params(geom, &p);
		if (ret)
			goto out;
	}
	words = calloc((size_t)p.nblocks * KBLOOM_BLOCK_WORDS, 8);
	if (!words) {
		ret = -ENOMEM;
		goto out;
	}
	for (ret = bpf_map_get_next_key(x->exact_fd, NULL, &next); !ret;
	     ret = bpf_map_get_next_key(x->exact_fd, &key, &next)) {
		key = next;
		kbx_words_add(words, &p, key.addr, key.len);
		n++;
	}
	p.inserted = n;
	/* a new blocks map, swapped in whole: no key in the set is missed */
	ret = kbx_filter_swap(x, 0, &p, words, 0);
	free(words);
out:
	kbx_unlock(x);
	return ret;
}

/* Change gate_config under the lock: @fn edits the element read. */
static int gate_cfg_edit(struct kbloom_xdp *x,
			 void (*fn)(struct kbloom_gate_cfg *cfg, __u32 a,
				    __u32 b), __u32 a, __u32 b)
{
	struct kbloom_gate_cfg cfg;
	__u32 zero = 0;
	int ret;

	ret = kbx_lock(x);
	if (ret)
		return ret;
	ret = kbp_err(bpf_map_lookup_elem(x->config_fd, &zero, &cfg));
	if (!ret) {
		fn(&cfg, a, b);
		ret = kbp_err(bpf_map_update_elem(x->config_fd, &zero, &cfg,
						  0));
	}
	kbx_unlock(x);
	return ret;
}

static void gate_mode_set(struct kbloom_gate_cfg *cfg, __u32 mode,
			  __u32 flags)
{
	cfg->mode = mode;
	cfg->flags = flags;
}

int kbloom_gate_set_mode(struct kbloom_xdp *x, __u32 mode, __u32 flags)
{
	if (gate_check(x) || !gate_cfg_ok(mode, flags))
		return -EINVAL;
	return gate_cfg_edit(x, gate_mode_set, mode, flags);
}

static void gate_adapt_set(struct kbloom_gate_cfg *cfg, __u32 on, __u32 off)
{
	cfg->adapt_on = on;
	cfg->adapt_off = off;
}

int kbloom_gate_set_adapt(struct kbloom_xdp *x, __u32 on_pct, __u32 off_pct)
{
	if (gate_check(x) || on_pct > 100 || off_pct > on_pct)
		return -EINVAL;
	return gate_cfg_edit(x, gate_adapt_set, on_pct, on_pct ? off_pct : 0);
}

int kbloom_gate_adapt(struct kbloom_xdp *x, __u32 *on_pct, __u32 *off_pct)
{
	struct kbloom_gate_cfg cfg;
	__u32 zero = 0;
	int ret;

	if (gate_check(x) || !on_pct || !off_pct)
		return -EINVAL;
	ret = kbp_err(bpf_map_lookup_elem(x->config_fd, &zero, &cfg));
	if (!ret) {
		*on_pct = cfg.adapt_on;
		*off_pct = cfg.adapt_off;
	}
	return ret;
}

int kbloom_gate_stats(struct kbloom_xdp *x, struct kbloom_gate_stats *st)
{
	int ncpu = libbpf_num_possible_cpus();
	const size_t nf = sizeof(*st) / sizeof(__u64);
	__u64 *v, *sum = (__u64 *)st;
	__u32 zero = 0;
	size_t c, f;
	int ret;

	ret = gate_check(x);
	if (ret || !st)
		return -EINVAL;
	if (ncpu <= 0)
		return ncpu ? ncpu : -EINVAL;
	v = calloc(ncpu, sizeof(*st));
	if (!v)
		return -ENOMEM;
	ret = kbp_err(bpf_map_lookup_elem(x->stats_fd, &zero, v));
	if (!ret) {
		memset(st, 0, sizeof(*st));
		for (c = 0; c < (size_t)ncpu; c++)
			for (f = 0; f < nf; f++)
				sum[f] += v[c * nf + f];
	}
	free(v);
	return ret;
}

/* ---- the kind --------------------------------------------------------------- */

static void gate_info(struct kbloom_inst *i, struct kbloom_inst_info *info)
{
	struct kbloom_xdp *x = i->priv;
	struct kbloom_gate_cfg cfg;
	__u32 zero = 0;

	if (!bpf_map_lookup_elem(x->config_fd, &zero, &cfg) &&
	    !kbp_map_count(x->exact_fd, &info->members)) {
		info->mode = cfg.mode;
		info->flags = cfg.flags;
		info->fields |= KBLOOM_INST_INFO_MODE | KBLOOM_INST_INFO_FLAGS |
				KBLOOM_INST_INFO_MEMBERS;
	}
	kbx_info(x, info);
}

static const struct kbx_desc gate_desc = {
	.xdp_kind = KBLOOM_XDP_GATE,
	.multi = false,
	.params = "gate_params", .filters = "gate_filters",
	.stats = "gate_stats", .exact = "gate_exact",
	.config = "gate_config", .ports = NULL,
	.kfilter = "gate_kfilter",
	.cuckoo = "gate_cuckoo", .cseq = "gate_cseq",
	.blocks_name = "gate_filter",
	.progs = {
		[XDP_PROG_MAIN] = { "kbloom_gate", "prog_gate" },
	},
	.objs = {
		{ "kbloom_gate", kbloom_gate__elf_bytes },
		{ "kbloom_kfunc_gate", kbloom_kfunc_gate__elf_bytes },
		{ "kbloom_cuckoo_gate", kbloom_cuckoo_gate__elf_bytes },
	},
	.init = gate_init,
	.cuckoo_fill = kbx_gate_cuckoo_fill,
	.published = gate_published,
};

const struct kbi_ops kbx_gate_ops = {
	.kind = "gate",
	.data = &gate_desc,
	.create = kbx_inst_create,
	.open = kbx_inst_open,
	.close = kbx_inst_close,
	.prog_fd = kbx_inst_prog_fd,
	.replace = kbx_inst_replace,
	.info = gate_info,
	.ext_open = kbx_inst_ext_open,
	.run_prio = 20,
};
