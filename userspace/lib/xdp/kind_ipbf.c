// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom XDP instances: the ipbf kind (LIPSIN zFilters and multi-stage
 * MSBF forwarding, bpf/kbloom_ipbf.bpf.c; libkbloom_xdp_net.h).  A port's
 * record is its link IDs (ipbf_port); the node's settings are ipbf_config.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "uapi/kbloom_net_maps.h"
#include "bpf/kbloom_ipbf.skel.h"
#include "kinds.h"
#include "net_priv.h"

/* ---- ipbf ---------------------------------------------------------------- */

static int ipbf_check(const struct kbloom_net *n)
{
	return n && n->inst->ops == &kbn_ipbf_ops ? 0 : -EINVAL;
}

static int ipbf_cfg_ok(const struct kbloom_net *n,
		       const struct kbloom_ipbf_cfg *c)
{
	if (c->fill_limit < 1 || c->fill_limit > KB_IPBF_ZF_BITS) {
		net_log(n, "fill limit %u: allowed 1..%u", c->fill_limit,
			KB_IPBF_ZF_BITS);
		return -EINVAL;
	}
	if (c->d < 1 || c->d > KB_IPBF_D_MAX) {
		net_log(n, "d %u: allowed 1..%u", c->d, KB_IPBF_D_MAX);
		return -EINVAL;
	}
	if (c->k < KB_IPBF_K_MIN || c->k > KB_IPBF_K_MAX) {
		net_log(n, "k %u: allowed %u..%u", c->k, KB_IPBF_K_MIN,
			KB_IPBF_K_MAX);
		return -EINVAL;
	}
	if (c->flags) {
		net_log(n, "flags %#x: allowed 0", c->flags);
		return -EINVAL;
	}
	return 0;
}

int kbloom_ipbf_set_config(struct kbloom_net *n,
			   const struct kbloom_ipbf_cfg *cfg)
{
	__u32 zero = 0;
	int ret;

	ret = ipbf_check(n);
	if (ret || !cfg)
		return -EINVAL;
	ret = ipbf_cfg_ok(n, cfg);
	ret = ret ?: net_lock(n);
	if (ret)
		return ret;
	ret = kbp_err(bpf_map_update_elem(n->map_fd[NM_CONFIG], &zero, cfg,
					  0));
	net_unlock(n);
	return ret;
}

int kbloom_ipbf_get_config(struct kbloom_net *n, struct kbloom_ipbf_cfg *cfg)
{
	__u32 zero = 0;

	if (ipbf_check(n) || !cfg)
		return -EINVAL;
	return kbp_err(bpf_map_lookup_elem(n->map_fd[NM_CONFIG], &zero, cfg));
}

int kbloom_ipbf_port_get(struct kbloom_net *n, int ifindex,
			 struct kbloom_ipbf_port *rec)
{
	__u32 key = ifindex;

	if (ipbf_check(n) || !rec || ifindex <= 0)
		return -EINVAL;
	return kbp_err(bpf_map_lookup_elem(n->map_fd[NM_PORT], &key, rec));
}

int kbloom_ipbf_port_set(struct kbloom_net *n, int ifindex,
			 const struct kbloom_ipbf_port *rec)
{
	struct kbloom_ipbf_port cur, r;
	__u32 key = ifindex;
	int ret, fresh;

	if (ipbf_check(n) || !rec || ifindex <= 0)
		return -EINVAL;
	if (rec->flags & ~KBLOOM_IPBF_PORT_F_ALL) {
		net_log(n, "%s: port flags %#x: allowed %#lx", n->name,
			rec->flags, KBLOOM_IPBF_PORT_F_ALL);
		return -EINVAL;
	}
	ret = net_ifindex_ok(n, ifindex);
	ret = ret ?: net_lock(n);
	if (ret)
		return ret;
	r = *rec;
	fresh = !!bpf_map_lookup_elem(n->map_fd[NM_PORT], &key, &cur);
	if (fresh) {
		ret = net_free_index(n, &r.index);
		ret = ret ?: net_zero_stats(n, r.index);
	} else {
		r.index = cur.index;
	}
	if (ret)
		goto out;
	/* a port that stops forwarding leaves the devmap first */
	if (r.flags & KBLOOM_IPBF_PORT_LOCAL)
		bpf_map_delete_elem(n->map_fd[NM_PORTS], &key);
	ret = kbp_err(bpf_map_update_elem(n->map_fd[NM_PORT], &key, &r, 0));
	if (ret)
		goto out;
	if (!(r.flags & KBLOOM_IPBF_PORT_LOCAL)) {
		ret = net_devmap_add(n, ifindex);
		if (ret && fresh)
			bpf_map_delete_elem(n->map_fd[NM_PORT], &key);
	}
out:
	net_unlock(n);
	return ret;
}

int kbloom_ipbf_port_del(struct kbloom_net *n, int ifindex)
{
	struct kbloom_ipbf_port cur;
	int ret;

	if (ipbf_check(n) || ifindex <= 0)
		return -EINVAL;
	ret = net_lock(n);
	if (ret)
		return ret;
	ret = net_port_drop(n, ifindex, &cur);
	if (!ret)
		net_zero_stats(n, cur.index);
	net_unlock(n);
	return ret;
}

int kbloom_ipbf_stats(struct kbloom_net *n, int ifindex,
		      struct kbloom_ipbf_stats *st)
{
	if (ipbf_check(n) || !st || ifindex <= 0)
		return -EINVAL;
	return net_stats(n, ifindex, (__u64 *)st);
}

/* ---- ipbf: from the control plane ---------------------------------------- */

int kbloom_ipbf_port_from_lids(const struct kb_lids *l, __u32 port,
			       struct kbloom_ipbf_port *rec)
{
	const struct kb_port *p;
	__u32 t;

	if (!l || !rec || port >= l->topo->nports)
		return -EINVAL;
	p = &l->topo->ports[port];
	memset(rec, 0, sizeof(*rec));
	rec->node = p->node;
	rec->port = p->local;
	for (t = 0; t < l->d && t < KB_IPBF_D_MAX; t++) {
		rec->lid[t] = *kb_lid(l, t, port);
		rec->lhash[t] = kb_lhash(l, t, port);
	}
	return 0;
}

int kbloom_ipbf_local_from_lids(const struct kb_lids *l, __u32 host,
				struct kbloom_ipbf_port *rec)
{
	const struct kb_node *h;
	__u32 in;
	int ret;

	if (!l || !rec || host >= l->topo->nnodes)
		return -EINVAL;
	h = &l->topo->nodes[host];
	if (h->kind != KB_NODE_HOST || h->nports != 1)
		return -EINVAL;
	/* the access link toward the host: its IDs are its internal IDs */
	in = l->topo->ports[h->first_port].peer;
	ret = kbloom_ipbf_port_from_lids(l, in, rec);
	if (ret)
		return ret;
	rec->node = host;
	rec->port = 0;
	rec->flags = KBLOOM_IPBF_PORT_LOCAL;
	return 0;
}

int kbloom_ipbf_cfg_from_lids(const struct kb_lids *l, __u32 fill_limit,
			      struct kbloom_ipbf_cfg *cfg)
{
	if (!l || !cfg)
		return -EINVAL;
	if (!fill_limit)
		fill_limit = KB_IPBF_FILL_DEFAULT;
	if (fill_limit > KB_IPBF_ZF_BITS)
		return -ERANGE;
	memset(cfg, 0, sizeof(*cfg));
	cfg->fill_limit = fill_limit;
	cfg->d = l->d;
	cfg->k = l->k;
	cfg->seed = l->seed;
	return 0;
}

int kbloom_ipbf_node_setup(struct kbloom_net *n, const struct kb_lids *l,
			   __u32 node, const int *ifindex, __u32 fill_limit,
			   enum kbloom_xdp_mode mode)
{
	struct kbloom_ipbf_port rec;
	struct kbloom_ipbf_cfg cfg;
	const struct kb_node *nd;
	__u32 p;
	int ret;

	if (ipbf_check(n) || !l || !ifindex || node >= l->topo->nnodes)
		return -EINVAL;
	nd = &l->topo->nodes[node];
	ret = kbloom_ipbf_cfg_from_lids(l, fill_limit, &cfg);
	ret = ret ?: kbloom_ipbf_set_config(n, &cfg);
	for (p = 0; !ret && p < nd->nports; p++) {
		if (nd->kind == KB_NODE_HOST)
			ret = kbloom_ipbf_local_from_lids(l, node, &rec);
		else
			ret = kbloom_ipbf_port_from_lids(l, nd->first_port + p,
							 &rec);
		ret = ret ?: kbloom_ipbf_port_set(n, ifindex[p], &rec);
		ret = ret ?: kbloom_net_attach(n, ifindex[p], mode, NULL);
	}
	return ret;
}

/*
 * The checks of a node's ingress before it parses the rest of the header
 * (ipbf_check_frame() of bpf/kbloom_ipbf.bpf.c, sim_prepare() and
 * sim_step() of the simulator), in their order: the fixed header and its
 * tag, then a LIPSIN zFilter's fill (before a yes-no header's no record),
 * or an MSBF header's stages and hop limit (before its frame limit and
 * its stage walk, kb_ipbf_parse()'s).  Return: 0 or the verdict of
 * kbloom_ipbf_source_step().
 */
static int ipbf_source_pre(const struct kb_lids *l, const __u8 *b,
			   size_t len, __u32 fill_limit)
{
	struct kb_ipbf_hdr h;
	struct kb_ipbf_zf zf;

	if (len < KB_IPBF_HDR_LEN)
		return -EBADMSG;
	memcpy(&h, b, KB_IPBF_HDR_LEN);
	if (kb_ipbf_hdr_check(&h, (__u32)len) || h.tag >= l->d)
		return -EBADMSG;
	if (h.flags & KB_IPBF_F_MSBF)
		return !h.nstages || !h.hop_limit ? -EHOSTUNREACH : 0;
	kb_ipbf_zf_load(&zf, b + KB_IPBF_HDR_LEN);
	return kb_ipbf_zf_fill(&zf) > fill_limit ? -ERANGE : 0;
}

/* LIPSIN and yes-no, @in parsed (the no record checked): the step. */
static int ipbf_source_lipsin(const struct kb_lids *l, __u32 port,
			      const struct kb_ipbf_info *in, __u8 *b,
			      size_t len)
{
	__u32 tag = in->hdr.tag;

	if (!in->hdr.hop_limit)
		return -EHOSTUNREACH;
	if (!kb_ipbf_zf_match(&in->zf, kb_lid(l, tag, port)) ||
	    kb_ipbf_no_match(in->no_bits, &in->no, kb_lhash(l, tag, port)))
		return -ENOENT;
	((struct kb_ipbf_hdr *)b)->hop_limit--;
	return (int)len;
}

/* MSBF, @in parsed (every stage walked): the step. */
static int ipbf_source_msbf(const struct kb_lids *l, __u32 port,
			    const struct kb_ipbf_info *in, __u8 *b,
			    size_t len)
{
	struct kb_ipbf_hdr *h = (struct kb_ipbf_hdr *)b;
	__u32 skip = in->stage[0].bytes;

	if (!kb_ipbf_stage_match(b + in->stage_at[0], skip, &in->stage[0],
				 kb_lhash(l, in->hdr.tag, port)))
		return -ENOENT;
	memmove(b + KB_IPBF_HDR_LEN, b + KB_IPBF_HDR_LEN + skip,
		len - KB_IPBF_HDR_LEN - skip);
	h->hop_limit--;
	h->nstages--;
	return (int)(len - skip);
}

int kbloom_ipbf_source_step(const struct kb_lids *l, __u32 port, void *buf,
			    size_t len, __u32 fill_limit)
{
	struct kb_ipbf_info *in;
	int ret;

	if (!l || !buf || port >= l->topo->nports)
		return -EINVAL;
	if (fill_limit < 1 || fill_limit > KB_IPBF_ZF_BITS || len > INT_MAX)
		return -ERANGE;
	ret = ipbf_source_pre(l, buf, len, fill_limit);
	if (ret)
		return ret;
	in = malloc(sizeof(*in));
	if (!in)
		return -ENOMEM;
	ret = kb_ipbf_parse(buf, len, in);
	if (ret)
		goto out;
	if (in->hdr.flags & KB_IPBF_F_MSBF)
		ret = ipbf_source_msbf(l, port, in, buf, len);
	else
		ret = ipbf_source_lipsin(l, port, in, buf, len);
out:
	free(in);
	return ret;
}

/* ---- the kind --------------------------------------------------------------- */

_Static_assert(sizeof(struct kbloom_ipbf_port) <= NET_REC_MAX, "a port record fits");

static __u32 ipbf_rec_index(const void *rec)
{
	return ((const struct kbloom_ipbf_port *)rec)->index;
}

static int ipbf_init(struct kbloom_net *n)
{
	struct kbloom_ipbf_cfg cfg = {
		.fill_limit = KB_IPBF_FILL_DEFAULT,
		.d = KB_IPBF_D_DEFAULT,
		.k = KB_IPBF_K_DEFAULT,
	};
	__u32 zero = 0;

	return kbp_err(bpf_map_update_elem(n->map_fd[NM_CONFIG], &zero, &cfg,
					   0));
}

static void ipbf_info(struct kbloom_inst *i, struct kbloom_inst_info *info)
{
	struct kbloom_net *n = i->priv;
	struct kbloom_ipbf_cfg cfg;
	int ports = kbloom_net_ports(n, NULL, 0);

	if (ports < 0 || kbloom_ipbf_get_config(n, &cfg))
		return;
	info->ports = ports;
	info->fill_limit = cfg.fill_limit;
	info->d = cfg.d;
	info->k = cfg.k;
	info->seed = cfg.seed;
	info->fields |= KBLOOM_INST_INFO_PORTS | KBLOOM_INST_INFO_IPBF;
}

static const struct kbn_desc ipbf_desc = {
	.net_kind = KBLOOM_NET_IPBF,
	.maps = { "ipbf_port", "ipbf_ports", "ipbf_stats", "ipbf_config",
		  NULL, NULL },
	.progs = { "kbloom_ipbf_ingress", "kbloom_ipbf_egress",
		   "kbloom_ipbf_check" },
	.port_size = sizeof(struct kbloom_ipbf_port),
	.stats_size = sizeof(struct kbloom_ipbf_stats),
	.rec_index = ipbf_rec_index,
	.obj = { "kbloom_ipbf", kbloom_ipbf__elf_bytes },
	.init = ipbf_init,
};

const struct kbi_ops kbn_ipbf_ops = {
	.kind = "ipbf",
	.data = &ipbf_desc,
	.create = kbn_inst_create,
	.open = kbn_inst_open,
	.close = kbn_inst_close,
	.prog_fd = kbn_inst_prog_fd,
	.port_attach = kbn_inst_port_attach,
	.teardown = kbn_inst_teardown,
	.info = ipbf_info,
};
