// SPDX-License-Identifier: GPL-2.0
/*
 * kbloomctl ipbf: link IDs (seed, k, d and the fill limit of a network),
 * and ipbf topo, which lists a topology and the link IDs of a node.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ipbf.h"

/* The defaults of what the KW_LIDS and KW_FILL rows fill. */
void lidopt_init(struct lidopt *o)
{
	memset(o, 0, sizeof(*o));
	o->k = KB_IPBF_K_DEFAULT;
	o->d = KB_IPBF_D_DEFAULT;
	o->fill = KB_IPBF_FILL_DEFAULT;
}

/* Which of them were given (kw_parse()'s @given of table @t). */
void lidopt_given(struct lidopt *o, const struct kw_table *t, __u64 given)
{
	o->seed_given = kw_has(t, given, "seed");
	o->k_given = kw_has(t, given, "k");
	o->d_given = kw_has(t, given, "d");
	o->fill_given = kw_has(t, given, "fill");
}

/* The record of the link (node, port) for every tag set, from @cfg. */
void lid_record(const struct kbloom_ipbf_cfg *cfg, __u32 node,
		__u32 port, bool local, struct kbloom_ipbf_port *rec)
{
	__u32 t;

	memset(rec, 0, sizeof(*rec));
	rec->node = node;
	rec->port = port;
	rec->flags = local ? KBLOOM_IPBF_PORT_LOCAL : 0;
	for (t = 0; t < cfg->d && t < KB_IPBF_D_MAX; t++) {
		rec->lhash[t] = kb_ipbf_link_hash(cfg->seed, node, port, t);
		kb_ipbf_lid(rec->lhash[t], cfg->k, &rec->lid[t]);
	}
}

/* "12,77,130" */
void zf_bits(char *buf, size_t len, const struct kb_ipbf_zf *z)
{
	size_t off = 0;
	__u32 b;

	buf[0] = 0;
	for (b = 0; b < KB_IPBF_ZF_BITS && off < len; b++)
		if (z->w[b >> 6] >> (b & 63) & 1)
			off += snprintf(buf + off, len - off, "%s%u",
					off ? "," : "", b);
}

static void json_zf_bits(struct json *j, const char *key,
			 const struct kb_ipbf_zf *z)
{
	__u32 b;

	json_key(j, key);
	json_arr(j);
	for (b = 0; b < KB_IPBF_ZF_BITS; b++)
		if (z->w[b >> 6] >> (b & 63) & 1)
			json_u64(j, b);
	json_arr_end(j);
}

void json_lids(struct json *j, const struct kbloom_ipbf_port *rec,
	       __u32 d)
{
	char h[24];
	__u32 t;

	json_key(j, "lids");
	json_arr(j);
	for (t = 0; t < d && t < KB_IPBF_D_MAX; t++) {
		json_obj(j);
		json_ku64(j, "tag", t);
		json_zf_bits(j, "bits", &rec->lid[t]);
		snprintf(h, sizeof(h), "0x%016llx",
			 (unsigned long long)rec->lhash[t]);
		json_kstr(j, "hash", h);
		json_obj_end(j);
	}
	json_arr_end(j);
}

/* ---- ipbf topo ------------------------------------------------------------ */

static void topo_list_text(const struct topo *tp)
{
	const struct kb_topo *t = tp->t;
	char peer[64];
	__u32 i, p;

	printf("%u nodes (%u switches, %u hosts), %u links\n", t->nnodes,
	       t->nnodes - t->nhosts, t->nhosts, t->nports / 2);
	printf("%5s %-12s %-6s %5s  %s\n", "NODE", "NAME", "KIND", "LEVEL",
	       "PORTS (PORT->PEER:PORT)");
	for (i = 0; i < t->nnodes; i++) {
		printf("%5u %-12s %-6s %5u ", i, tp->name[i],
		       t->nodes[i].kind == KB_NODE_HOST ? "host" : "switch",
		       t->nodes[i].level);
		for (p = 0; p < t->nodes[i].nports; p++)
			printf(" %u->%s", p, link_str(tp,
			       t->ports[kb_topo_port(t, i, p)].peer, peer,
			       sizeof(peer)));
		printf("\n");
	}
}

static void topo_list_json(const struct topo *tp)
{
	const struct kb_topo *t = tp->t;
	const struct kb_port *pp;
	struct json j;
	__u32 i, p;

	json_init(&j, stdout);
	json_obj(&j);
	json_kstr(&j, "topo", tp->spec);
	json_ku64(&j, "switches", t->nnodes - t->nhosts);
	json_ku64(&j, "hosts", t->nhosts);
	json_ku64(&j, "links", t->nports / 2);
	json_key(&j, "nodes");
	json_arr(&j);
	for (i = 0; i < t->nnodes; i++) {
		json_obj(&j);
		json_ku64(&j, "node", i);
		json_kstr(&j, "name", tp->name[i]);
		json_kstr(&j, "kind", t->nodes[i].kind == KB_NODE_HOST ?
				      "host" : "switch");
		json_ku64(&j, "level", t->nodes[i].level);
		json_key(&j, "ports");
		json_arr(&j);
		for (p = 0; p < t->nodes[i].nports; p++) {
			pp = &t->ports[kb_topo_port(t, i, p)];
			json_obj(&j);
			json_ku64(&j, "port", p);
			json_kstr(&j, "peer", tp->name[pp->peer_node]);
			json_ku64(&j, "peer_port", t->ports[pp->peer].local);
			json_obj_end(&j);
		}
		json_arr_end(&j);
		json_obj_end(&j);
	}
	json_arr_end(&j);
	json_obj_end(&j);
	json_end(&j);
}

/* The records ipbf setup loads on node @node: one per local port. */
int node_records(const struct kb_lids *l, __u32 node,
		 struct kbloom_ipbf_port *rec)
{
	const struct kb_node *nd = &l->topo->nodes[node];
	__u32 p;
	int ret = 0;

	for (p = 0; !ret && p < nd->nports; p++)
		ret = nd->kind == KB_NODE_HOST ?
		      kbloom_ipbf_local_from_lids(l, node, &rec[p]) :
		      kbloom_ipbf_port_from_lids(l, nd->first_port + p,
						 &rec[p]);
	return ret;
}

static void node_lids_text(const struct topo *tp, const struct lidopt *o,
			   __u32 node, const struct kbloom_ipbf_port *rec)
{
	const struct kb_topo *t = tp->t;
	const struct kb_node *nd = &t->nodes[node];
	char peer[64], ids[160], from[64];
	__u32 p, g;

	printf("%s (node %u, %s): seed %llu, k %u, d %u\n", tp->name[node],
	       node, nd->kind == KB_NODE_HOST ? "host" : "switch",
	       (unsigned long long)o->seed, o->k, o->d);
	printf("%4s %-12s %-8s %-12s %3s  %-18s %s\n", "PORT", "PEER", "ROLE",
	       "LINK", "TAG", "LINK HASH", "LINK ID (BITS)");
	for (p = 0; p < nd->nports; p++) {
		link_str(tp, t->ports[kb_topo_port(t, node, p)].peer, peer,
			 sizeof(peer));
		/* a host's port holds its access link's IDs (LOCAL) */
		link_str(tp, nd->kind == KB_NODE_HOST ?
			 t->ports[kb_topo_port(t, node, p)].peer :
			 kb_topo_port(t, node, p), from, sizeof(from));
		for (g = 0; g < o->d; g++) {
			zf_bits(ids, sizeof(ids), &rec[p].lid[g]);
			if (!g)
				printf("%4u %-12s %-8s %-12s", p, peer,
				       rec[p].flags & KBLOOM_IPBF_PORT_LOCAL ?
				       "local" : "forward", from);
			else
				printf("%4s %-12s %-8s %-12s", "", "", "", "");
			printf(" %3u  0x%016llx %s\n", g,
			       (unsigned long long)rec[p].lhash[g], ids);
		}
	}
}

static void node_lids_json(const struct topo *tp, const struct lidopt *o,
			   __u32 node, const struct kbloom_ipbf_port *rec)
{
	const struct kb_topo *t = tp->t;
	const struct kb_node *nd = &t->nodes[node];
	const struct kb_port *pp;
	char from[64];
	struct json j;
	__u32 p;

	json_init(&j, stdout);
	json_obj(&j);
	json_kstr(&j, "topo", tp->spec);
	json_ku64(&j, "node", node);
	json_kstr(&j, "name", tp->name[node]);
	json_kstr(&j, "kind", nd->kind == KB_NODE_HOST ? "host" : "switch");
	json_ku64(&j, "seed", o->seed);
	json_ku64(&j, "k", o->k);
	json_ku64(&j, "d", o->d);
	json_key(&j, "ports");
	json_arr(&j);
	for (p = 0; p < nd->nports; p++) {
		pp = &t->ports[kb_topo_port(t, node, p)];
		json_obj(&j);
		json_ku64(&j, "port", p);
		json_kstr(&j, "peer", tp->name[pp->peer_node]);
		json_ku64(&j, "peer_port", t->ports[pp->peer].local);
		json_kstr(&j, "role", rec[p].flags & KBLOOM_IPBF_PORT_LOCAL ?
				      "local" : "forward");
		json_kstr(&j, "link", link_str(tp, nd->kind == KB_NODE_HOST ?
						   pp->peer :
						   kb_topo_port(t, node, p),
						   from, sizeof(from)));
		json_lids(&j, &rec[p], o->d);
		json_obj_end(&j);
	}
	json_arr_end(&j);
	json_obj_end(&j);
	json_end(&j);
}

struct topo_args {
	const char *node;
	struct lidopt o;
};

static const struct kw topo_kw[] = {
	KW("node", "NODE", KWT_STR, struct topo_args, node),
	KW_LIDS(struct topo_args, o),
	{ 0 }
};

static const struct kw_table topo_table = { .kw = topo_kw };

int ipbf_cmd_topo(struct ctl *c, int argc, char **argv)
{
	struct kbloom_ipbf_port *rec = NULL;
	struct kb_lids *l = NULL;
	struct topo tp = { 0 };
	struct topo_args a = { 0 };
	struct lidopt *o = &a.o;
	__u32 node = 0;
	__u64 given;
	int ret;

	lidopt_init(o);
	ret = kw_parse(c, &topo_table, argc - 1, argv + 1, &a, &given);
	if (ret)
		return ret;
	lidopt_given(o, &topo_table, given);
	if (!a.node && (o->seed_given || o->k_given || o->d_given))
		return ctl_usage(c, "%s: only with node NODE (the link IDs of its ports)",
				 o->seed_given ? "seed" : o->k_given ? "k" : "d");
	ret = topo_load(c, argv[0], &tp);
	if (ret)
		return ret;
	if (a.node) {
		ret = topo_node(c, &tp, "node", a.node, &node);
		if (ret)
			goto out;
	}
	if (ctl_quiet(c))
		goto out;
	if (!a.node) {
		if (c->set[CO_JSON])
			topo_list_json(&tp);
		else
			topo_list_text(&tp);
		ret = ctl_flush_stdout(c);
		goto out;
	}
	rec = calloc(tp.t->nodes[node].nports + 1, sizeof(*rec));
	ret = rec ? kb_lids_new(tp.t, o->seed, o->k, o->d, &l) : -ENOMEM;
	ret = ret ?: node_records(l, node, rec);
	if (ret) {
		ret = ctl_syserr(c, ret, NULL, "%s: link IDs", c->cmd_path);
		goto out;
	}
	if (c->set[CO_JSON])
		node_lids_json(&tp, o, node, rec);
	else
		node_lids_text(&tp, o, node, rec);
	ret = ctl_flush_stdout(c);
out:
	kb_lids_free(l);
	free(rec);
	topo_free(&tp);
	return ret;
}
