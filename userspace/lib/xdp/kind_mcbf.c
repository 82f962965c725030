// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom XDP instances: the mcbf kind (Multi-Class Bloom filters,
 * bpf/kbloom_mcbf.bpf.c; libkbloom_xdp_net.h).  A port's record is its
 * filter and class table (mcbf_port) plus its blocks map in mcbf_filters
 * (two slots per port: a new filter is filled in the idle slot and
 * published with one update of the port's element, then the old slot is
 * emptied after an RCU grace period, as the mcast kind does).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "uapi/kbloom_xdp_maps.h"
#include "uapi/kbloom_net_maps.h"
#include "bpf/kbloom_mcbf.skel.h"
#include "kinds.h"
#include "net_priv.h"

/* ---- mcbf ---------------------------------------------------------------- */

static int mcbf_check(const struct kbloom_net *n)
{
	return n && n->inst->ops == &kbn_mcbf_ops ? 0 : -EINVAL;
}

static int mcbf_spec_ok(const struct kbloom_net *n,
			const struct kbloom_mcbf_spec *s)
{
	__u32 c, used = 0;

	if (s->m < KBLOOM_BLOCK_BITS || s->m > KBLOOM_M_MAX ||
	    s->m % KBLOOM_BLOCK_BITS) {
		net_log(n, "m %llu: allowed a multiple of %u in %u..%llu",
			(unsigned long long)s->m, KBLOOM_BLOCK_BITS,
			KBLOOM_BLOCK_BITS, (unsigned long long)KBLOOM_M_MAX);
		return -ERANGE;
	}
	if (s->hash_id > KBLOOM_HASH_MAX || s->reserved) {
		net_log(n, "hash id %u: allowed 0..%u, reserved 0", s->hash_id,
			KBLOOM_HASH_MAX);
		return -EINVAL;
	}
	for (c = 0; c < KB_MCBF_CLASSES; c++) {
		if (s->classes.k[c] > KBLOOM_K_MAX) {
			net_log(n, "class %u: k %u, allowed 0..%u", c,
				s->classes.k[c], KBLOOM_K_MAX);
			return -ERANGE;
		}
		used += !!s->classes.k[c];
	}
	if (!used) {
		net_log(n, "a class table without a used class");
		return -EINVAL;
	}
	return 0;
}

static void mcbf_spec_params(const struct kbloom_mcbf_spec *s,
			     struct kbloom_params *p)
{
	__u32 c;

	memset(p, 0, sizeof(*p));
	p->type = KBLOOM_TYPE_BLOCKED;
	p->version = KBLOOM_XDP_LAYOUT_VERSION;
	p->hash_id = s->hash_id ? s->hash_id : KBLOOM_HASH_FAST;
	p->seed = s->seed;
	p->nblocks = (__u32)(s->m / KBLOOM_BLOCK_BITS);
	for (c = 0; c < KB_MCBF_CLASSES; c++)
		if (s->classes.k[c] > p->k)
			p->k = s->classes.k[c];
}

/* A new blocks map holding @words (@nblocks blocks). */
static int mcbf_blocks_new(struct kbloom_net *n, int ifindex, __u32 nblocks,
			   const __u64 *words)
{
	LIBBPF_OPTS(bpf_map_create_opts, o,
		    .map_flags = BPF_F_MMAPABLE | BPF_F_INNER_MAP);
	size_t bytes = (size_t)nblocks * sizeof(struct kbloom_block);
	char name[16];
	void *mem;
	int fd;

	if (n->btf_fd >= 0) {
		o.btf_fd = n->btf_fd;
		o.btf_key_type_id = n->btf_key_id;
		o.btf_value_type_id = n->btf_block_id;
	}
	snprintf(name, sizeof(name), "mcbf_%d", ifindex);
	fd = kbp_err(bpf_map_create(BPF_MAP_TYPE_ARRAY, name, sizeof(__u32),
				    sizeof(struct kbloom_block), nblocks, &o));
	if (fd < 0) {
		net_log(n, "%s: cannot create a filter of %u blocks: %s",
			n->name, nblocks, strerror(-fd));
		return fd;
	}
	mem = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (mem == MAP_FAILED) {
		close(fd);
		return -errno;
	}
	memcpy(mem, words, bytes);
	munmap(mem, bytes);
	return fd;
}

static int mcbf_load_locked(struct kbloom_net *n, int ifindex,
			    const struct kbloom_mcbf_spec *spec,
			    const __u64 *words)
{
	struct kbloom_mcbf_port cur, r;
	__u32 key = ifindex, slot, old = 0, index;
	char leaf[32];
	int fd, ret, fresh;

	fresh = !!bpf_map_lookup_elem(n->map_fd[NM_PORT], &key, &cur);
	if (fresh) {
		ret = net_free_index(n, &index);
		if (ret)
			return ret;
		slot = index * KBLOOM_SLOTS_PER_FILTER;
	} else {
		index = cur.p.index;
		old = cur.p.slot;
		slot = old ^ 1;
	}
	if (slot >= n->max_ports * KBLOOM_SLOTS_PER_FILTER)
		return -ENOSPC;
	memset(&r, 0, sizeof(r));
	mcbf_spec_params(spec, &r.p);
	r.cls = spec->classes;
	r.p.slot = slot;
	r.p.id = ifindex;
	r.p.index = index;
	r.p.gen = fresh ? 1 : cur.p.gen + 1;
	fd = mcbf_blocks_new(n, ifindex, r.p.nblocks, words);
	if (fd < 0)
		return fd;
	ret = kbp_err(bpf_map_update_elem(n->map_fd[NM_FILTERS], &slot, &fd,
					  0));
	if (ret)
		goto out_fd;
	if (fresh) {
		ret = net_zero_stats(n, index);
		if (ret)
			goto out_slot;
	}
	ret = kbp_err(bpf_map_update_elem(n->map_fd[NM_PORT], &key, &r, 0));
	if (ret)
		goto out_slot;
	snprintf(leaf, sizeof(leaf), "filter_%d", ifindex);
	if (kbp_repin(n->dir, fd, leaf))
		net_log(n, "%s: pinning %s failed", n->name, leaf);
	if (fresh) {
		ret = net_devmap_add(n, ifindex);
		if (ret) {
			bpf_map_delete_elem(n->map_fd[NM_PORT], &key);
			goto out_slot;
		}
	} else {
		/* no program holds the old parameters after a grace period */
		kbp_rcu_sync();
		bpf_map_delete_elem(n->map_fd[NM_FILTERS], &old);
	}
	close(fd);
	return 0;
out_slot:
	bpf_map_delete_elem(n->map_fd[NM_FILTERS], &slot);
out_fd:
	close(fd);
	return ret;
}

int kbloom_mcbf_port_load(struct kbloom_net *n, int ifindex,
			  const struct kbloom_mcbf_spec *spec,
			  const struct kb_mcbf *f)
{
	const struct kb_mcbf_classes *cls;
	const __u64 *words;
	__u64 nwords;
	int ret;

	if (mcbf_check(n) || !spec || !f || ifindex <= 0)
		return -EINVAL;
	ret = mcbf_spec_ok(n, spec);
	if (ret)
		return ret;
	words = kb_mcbf_words(f, &nwords);
	cls = kb_mcbf_class_table(f);
	if (!words || !cls || nwords * 64 != spec->m ||
	    memcmp(cls, &spec->classes, sizeof(*cls))) {
		net_log(n, "%s: the filter is not of the spec (m, classes)",
			n->name);
		return -EINVAL;
	}
	ret = net_ifindex_ok(n, ifindex);
	ret = ret ?: net_lock(n);
	if (ret)
		return ret;
	ret = mcbf_load_locked(n, ifindex, spec, words);
	net_unlock(n);
	return ret;
}

/* -EINVAL for a group that is not a multicast address (kb_member_key()). */
static int mcbf_key(struct kbloom_member_key *k, int ifindex,
		    const void *group, __u32 len)
{
	return kb_member_key(k, (__u32)ifindex, group, len) ? -EINVAL : 0;
}

/* The recorded memberships of port @ifindex, malloc()ed. */
static int mcbf_members_of(struct kbloom_net *n, int ifindex,
			   struct kbloom_member_key **out, __u32 *cnt)
{
	struct kbloom_member_key key, next, *v = NULL, *t;
	__u32 len = 0, cap = 0;
	int ret;

	for (ret = bpf_map_get_next_key(n->map_fd[NM_MEMBERS], NULL, &next);
	     !ret;
	     ret = bpf_map_get_next_key(n->map_fd[NM_MEMBERS], &key, &next)) {
		key = next;
		if (key.ifindex != (__u32)ifindex)
			continue;
		if (len == cap) {
			cap = cap ? 2 * cap : 64;
			t = realloc(v, cap * sizeof(*v));
			if (!t) {
				free(v);
				return -ENOMEM;
			}
			v = t;
		}
		v[len++] = key;
	}
	*out = v;
	*cnt = len;
	return 0;
}

/* Delete the recorded memberships of port @ifindex. */
static void mcbf_members_clear(struct kbloom_net *n, int ifindex)
{
	struct kbloom_member_key *v;
	__u32 cnt, i;

	if (mcbf_members_of(n, ifindex, &v, &cnt))
		return;
	for (i = 0; i < cnt; i++)
		bpf_map_delete_elem(n->map_fd[NM_MEMBERS], &v[i]);
	free(v);
}

/* A filter of @spec holding @ngroups groups (-EINVAL: one is not). */
static int mcbf_filter_of(struct kbloom_net *n,
			  const struct kbloom_mcbf_spec *spec,
			  const struct kbloom_addr_key *groups, __u32 ngroups,
			  struct kb_mcbf **out)
{
	struct kbloom_member_key mk;
	struct kb_mcbf *f = NULL;
	__u32 i;
	int ret;

	ret = kb_mcbf_new(KBLOOM_TYPE_BLOCKED, spec->m,
			  spec->hash_id ? spec->hash_id : KBLOOM_HASH_FAST,
			  spec->seed, &spec->classes, &f);
	if (ret)
		return ret;
	for (i = 0; i < ngroups; i++) {
		ret = mcbf_key(&mk, 1, groups[i].addr, groups[i].len);
		if (!ret)
			ret = groups[i].len == KBLOOM_ADDR4_LEN ?
			      kb_mcbf_add_v4(f, groups[i].addr) :
			      kb_mcbf_add_v6(f, groups[i].addr);
		if (ret) {
			char a[INET6_ADDRSTRLEN] = "?";

			inet_ntop(groups[i].len == KBLOOM_ADDR4_LEN ?
				  AF_INET : AF_INET6, groups[i].addr, a,
				  sizeof(a));
			net_log(n, "%s: group %s: not a multicast address or of an unused class",
				n->name, a);
			kb_mcbf_free(f);
			return -EINVAL;
		}
	}
	*out = f;
	return 0;
}

int kbloom_mcbf_port_build(struct kbloom_net *n, int ifindex,
			   const struct kbloom_mcbf_spec *spec,
			   const struct kbloom_addr_key *groups,
			   __u32 ngroups)
{
	struct kbloom_member_key mk;
	struct kb_mcbf *f = NULL;
	__u32 i, one = 1;
	int ret;

	if (mcbf_check(n) || !spec || (ngroups && !groups) || ifindex <= 0)
		return -EINVAL;
	ret = mcbf_spec_ok(n, spec);
	ret = ret ?: mcbf_filter_of(n, spec, groups, ngroups, &f);
	if (ret)
		return ret;
	ret = net_ifindex_ok(n, ifindex);
	ret = ret ?: net_lock(n);
	if (ret)
		goto out;
	ret = mcbf_load_locked(n, ifindex, spec, kb_mcbf_words(f, NULL));
	if (!ret) {
		mcbf_members_clear(n, ifindex);
		for (i = 0; !ret && i < ngroups; i++) {
			mcbf_key(&mk, ifindex, groups[i].addr, groups[i].len);
			ret = kbp_err(bpf_map_update_elem(n->map_fd[NM_MEMBERS],
							  &mk, &one, 0));
		}
	}
	net_unlock(n);
out:
	kb_mcbf_free(f);
	return ret;
}

static int mcbf_group_find(const struct kbloom_addr_key *g, __u32 n,
			   const struct kbloom_addr_key *k)
{
	__u32 i;

	for (i = 0; i < n; i++)
		if (g[i].len == k->len && !memcmp(g[i].addr, k->addr, k->len))
			return (int)i;
	return -1;
}

/*
 * The recorded groups of @ifindex with @nupd joined (@join) or left, into
 * a malloc()ed @out: -EEXIST / -ENOENT for one joined already / not
 * joined, unless @exist.
 */
static int mcbf_groups_updated(struct kbloom_net *n, int ifindex,
			       const struct kbloom_addr_key *upd, __u32 nupd,
			       bool join, bool exist,
			       struct kbloom_addr_key **out, __u32 *nout)
{
	struct kbloom_member_key *v;
	struct kbloom_addr_key *g;
	__u32 cnt, i, len = 0;
	int ret, at;

	ret = mcbf_members_of(n, ifindex, &v, &cnt);
	if (ret)
		return ret;
	g = calloc((size_t)cnt + nupd + 1, sizeof(*g));
	if (!g) {
		free(v);
		return -ENOMEM;
	}
	for (i = 0; i < cnt; i++, len++) {
		g[len].len = v[i].len;
		memcpy(g[len].addr, v[i].addr, sizeof(g[len].addr));
	}
	free(v);
	for (i = 0; i < nupd; i++) {
		at = mcbf_group_find(g, len, &upd[i]);
		if (join && at < 0)
			g[len++] = upd[i];
		else if (!join && at >= 0)
			g[at] = g[--len];
		else if (!exist)
			ret = join ? -EEXIST : -ENOENT;
	}
	if (ret) {
		free(g);
		return ret;
	}
	*out = g;
	*nout = len;
	return 0;
}

/* Record @nupd groups of @ifindex as joined or left (after the load). */
static int mcbf_members_update(struct kbloom_net *n, int ifindex,
			       const struct kbloom_addr_key *upd, __u32 nupd,
			       bool join)
{
	struct kbloom_member_key mk;
	__u32 i, one = 1;
	int ret = 0;

	for (i = 0; !ret && i < nupd; i++) {
		mcbf_key(&mk, ifindex, upd[i].addr, upd[i].len);
		if (join)
			ret = kbp_err(bpf_map_update_elem(n->map_fd[NM_MEMBERS],
							  &mk, &one, 0));
		else
			bpf_map_delete_elem(n->map_fd[NM_MEMBERS], &mk);
	}
	return ret;
}

int kbloom_mcbf_port_update(struct kbloom_net *n, int ifindex,
			    const struct kbloom_addr_key *groups,
			    __u32 ngroups, __u32 flags)
{
	bool join = !(flags & KBLOOM_MCBF_UPD_LEAVE);
	struct kbloom_addr_key *g = NULL;
	struct kbloom_mcbf_port cur;
	struct kbloom_mcbf_spec spec;
	struct kbloom_member_key mk;
	struct kb_mcbf *f = NULL;
	__u32 i, key = ifindex, cnt;
	int ret;

	if (mcbf_check(n) || (ngroups && !groups) || ifindex <= 0 ||
	    (flags & ~(KBLOOM_MCBF_UPD_LEAVE | KBLOOM_MCBF_UPD_EXIST)))
		return -EINVAL;
	for (i = 0; i < ngroups; i++)
		if (mcbf_key(&mk, ifindex, groups[i].addr, groups[i].len))
			return -EINVAL;
	ret = net_lock(n);
	if (ret)
		return ret;
	ret = kbp_err(bpf_map_lookup_elem(n->map_fd[NM_PORT], &key, &cur));
	if (ret)
		goto out;
	memset(&spec, 0, sizeof(spec));
	spec.m = (__u64)cur.p.nblocks * KBLOOM_BLOCK_BITS;
	spec.hash_id = cur.p.hash_id;
	spec.seed = cur.p.seed;
	spec.classes = cur.cls;
	ret = mcbf_groups_updated(n, ifindex, groups, ngroups, join,
				  flags & KBLOOM_MCBF_UPD_EXIST, &g, &cnt);
	ret = ret ?: mcbf_filter_of(n, &spec, g, cnt, &f);
	ret = ret ?: mcbf_load_locked(n, ifindex, &spec,
				      kb_mcbf_words(f, NULL));
	ret = ret ?: mcbf_members_update(n, ifindex, groups, ngroups, join);
out:
	net_unlock(n);
	kb_mcbf_free(f);
	free(g);
	return ret;
}

int kbloom_mcbf_port_get(struct kbloom_net *n, int ifindex,
			 struct kbloom_mcbf_port *port)
{
	__u32 key = ifindex;

	if (mcbf_check(n) || !port || ifindex <= 0)
		return -EINVAL;
	return kbp_err(bpf_map_lookup_elem(n->map_fd[NM_PORT], &key, port));
}

int kbloom_mcbf_port_del(struct kbloom_net *n, int ifindex)
{
	struct kbloom_mcbf_port cur;
	char path[PATH_MAX];
	__u32 slot;
	int ret;

	if (mcbf_check(n) || ifindex <= 0)
		return -EINVAL;
	ret = net_lock(n);
	if (ret)
		return ret;
	ret = net_port_drop(n, ifindex, &cur);
	if (ret)
		goto out;
	kbp_rcu_sync();
	for (slot = cur.p.slot & ~1U; slot <= (cur.p.slot | 1U); slot++)
		bpf_map_delete_elem(n->map_fd[NM_FILTERS], &slot);
	mcbf_members_clear(n, ifindex);
	net_zero_stats(n, cur.p.index);
	if (!kbp_path(n->dir, path, "filter_%d", ifindex))
		unlink(path);
out:
	net_unlock(n);
	return ret;
}

int kbloom_mcbf_member_add(struct kbloom_net *n, int ifindex,
			   const void *group, __u32 len)
{
	struct kbloom_member_key k;
	__u32 one = 1;
	int ret;

	if (mcbf_check(n) || mcbf_key(&k, ifindex, group, len))
		return -EINVAL;
	ret = net_lock(n);
	if (ret)
		return ret;
	ret = kbp_err(bpf_map_update_elem(n->map_fd[NM_MEMBERS], &k, &one,
					  BPF_NOEXIST));
	if (ret == -E2BIG)
		ret = -ENOSPC;
	net_unlock(n);
	return ret;
}

int kbloom_mcbf_member_del(struct kbloom_net *n, int ifindex,
			   const void *group, __u32 len)
{
	struct kbloom_member_key k;
	int ret;

	if (mcbf_check(n) || mcbf_key(&k, ifindex, group, len))
		return -EINVAL;
	ret = net_lock(n);
	if (ret)
		return ret;
	ret = kbp_err(bpf_map_delete_elem(n->map_fd[NM_MEMBERS], &k));
	net_unlock(n);
	return ret;
}

int kbloom_mcbf_set_flags(struct kbloom_net *n, __u32 flags)
{
	struct kbloom_mcbf_cfg cfg = { .flags = flags };
	__u32 zero = 0;
	int ret;

	if (mcbf_check(n) || (flags & ~KBLOOM_MCBF_F_ALL))
		return -EINVAL;
	if ((flags & KBLOOM_MCAST_F_LOCAL_MASK) == KBLOOM_MCAST_F_LOCAL_MASK)
		return -EINVAL;	/* link-local to the stack or filtered */
	ret = net_lock(n);
	if (ret)
		return ret;
	ret = kbp_err(bpf_map_update_elem(n->map_fd[NM_CONFIG], &zero, &cfg,
					  0));
	net_unlock(n);
	return ret;
}

int kbloom_mcbf_stats(struct kbloom_net *n, int ifindex,
		      struct kbloom_mcbf_stats *st)
{
	if (mcbf_check(n) || !st || ifindex <= 0)
		return -EINVAL;
	return net_stats(n, ifindex, (__u64 *)st);
}

int kbloom_mcbf_get_flags(struct kbloom_net *n, __u32 *flags)
{
	struct kbloom_mcbf_cfg cfg;
	__u32 zero = 0;
	int ret;

	if (mcbf_check(n) || !flags)
		return -EINVAL;
	ret = kbp_err(bpf_map_lookup_elem(n->map_fd[NM_CONFIG], &zero, &cfg));
	if (!ret)
		*flags = cfg.flags;
	return ret;
}

static int mcbf_key_cmp(const void *a, const void *b)
{
	const struct kbloom_member_key *x = a, *y = b;

	if (x->len != y->len)
		return x->len < y->len ? -1 : 1;
	return memcmp(x->addr, y->addr, sizeof(x->addr));
}

int kbloom_mcbf_groups(struct kbloom_net *n, int ifindex,
		       struct kbloom_addr_key *out, __u32 max)
{
	struct kbloom_member_key *m;
	__u32 cnt, i;
	int ret;

	if (mcbf_check(n) || ifindex <= 0 || (max && !out))
		return -EINVAL;
	ret = mcbf_members_of(n, ifindex, &m, &cnt);
	if (ret)
		return ret;
	if (cnt)
		qsort(m, cnt, sizeof(*m), mcbf_key_cmp);
	for (i = 0; i < cnt && i < max; i++) {
		memset(&out[i], 0, sizeof(out[i]));
		out[i].len = m[i].len;
		memcpy(out[i].addr, m[i].addr, sizeof(out[i].addr));
	}
	free(m);
	return (int)cnt;
}

/* Fill of each block, the per-class rates over the blocks, into @f. */
static void mcbf_fill_blocks(const __u64 *w, __u32 nblocks,
			     const struct kbloom_mcbf_port *rec,
			     struct kbloom_mcbf_fill *f)
{
	__u32 b, i, c, ones;
	double x, sum[KB_MCBF_CLASSES] = { 0 };

	for (b = 0; b < nblocks; b++) {
		ones = 0;
		for (i = 0; i < KBLOOM_BLOCK_BITS / 64; i++)
			ones += (__u32)__builtin_popcountll(w[b * 8 + i]);
		f->ones += ones;
		x = (double)ones / KBLOOM_BLOCK_BITS;
		for (c = 0; c < KB_MCBF_CLASSES; c++)
			if (rec->cls.k[c])
				sum[c] += pow(x, rec->cls.k[c]);
	}
	for (c = 0; c < KB_MCBF_CLASSES; c++)
		f->fpr[c] = nblocks ? sum[c] / nblocks : 0;
}

int kbloom_mcbf_port_fill(struct kbloom_net *n, int ifindex,
			  struct kbloom_mcbf_fill *f)
{
	struct kbloom_mcbf_port rec;
	__u32 key = ifindex, id;
	size_t bytes;
	__u64 *w;
	int fd, ret;

	if (mcbf_check(n) || !f || ifindex <= 0)
		return -EINVAL;
	ret = kbp_err(bpf_map_lookup_elem(n->map_fd[NM_PORT], &key, &rec));
	ret = ret ?: kbp_err(bpf_map_lookup_elem(n->map_fd[NM_FILTERS],
						 &rec.p.slot, &id));
	if (ret)
		return ret;
	fd = kbp_err(bpf_map_get_fd_by_id(id));
	if (fd < 0)
		return fd;
	bytes = (size_t)rec.p.nblocks * sizeof(struct kbloom_block);
	w = mmap(NULL, bytes, PROT_READ, MAP_SHARED, fd, 0);
	close(fd);
	if (w == MAP_FAILED)
		return -errno;
	memset(f, 0, sizeof(*f));
	f->m = (__u64)rec.p.nblocks * KBLOOM_BLOCK_BITS;
	mcbf_fill_blocks(w, rec.p.nblocks, &rec, f);
	munmap(w, bytes);
	return 0;
}

/* ---- the kind --------------------------------------------------------------- */

_Static_assert(sizeof(struct kbloom_mcbf_port) <= NET_REC_MAX, "a port record fits");

static __u32 mcbf_rec_index(const void *rec)
{
	return ((const struct kbloom_mcbf_port *)rec)->p.index;
}

static int mcbf_init(struct kbloom_net *n)
{
	struct kbloom_mcbf_cfg cfg = { .flags = KBLOOM_MCBF_F_AUDIT };
	__u32 zero = 0;

	return kbp_err(bpf_map_update_elem(n->map_fd[NM_CONFIG], &zero, &cfg,
					   0));
}

static void mcbf_info(struct kbloom_inst *i, struct kbloom_inst_info *info)
{
	struct kbloom_net *n = i->priv;
	int ports = kbloom_net_ports(n, NULL, 0);

	if (ports < 0 || kbloom_mcbf_get_flags(n, &info->flags) ||
	    kbp_map_count(n->map_fd[NM_MEMBERS], &info->members))
		return;
	info->ports = ports;
	info->fields |= KBLOOM_INST_INFO_PORTS | KBLOOM_INST_INFO_MEMBERS |
			KBLOOM_INST_INFO_FLAGS;
}

static const struct kbn_desc mcbf_desc = {
	.net_kind = KBLOOM_NET_MCBF,
	.maps = { "mcbf_port", "mcbf_ports", "mcbf_stats", "mcbf_config",
		  "mcbf_filters", "mcbf_members" },
	.progs = { "kbloom_mcbf_ingress", "kbloom_mcbf_egress",
		   "kbloom_mcbf_check" },
	.port_size = sizeof(struct kbloom_mcbf_port),
	.stats_size = sizeof(struct kbloom_mcbf_stats),
	.rec_index = mcbf_rec_index,
	.blocks_btf = true,
	.obj = { "kbloom_mcbf", kbloom_mcbf__elf_bytes },
	.init = mcbf_init,
};

const struct kbi_ops kbn_mcbf_ops = {
	.kind = "mcbf",
	.data = &mcbf_desc,
	.create = kbn_inst_create,
	.open = kbn_inst_open,
	.close = kbn_inst_close,
	.prog_fd = kbn_inst_prog_fd,
	.port_attach = kbn_inst_port_attach,
	.teardown = kbn_inst_teardown,
	.info = mcbf_info,
};
