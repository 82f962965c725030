// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom_exp: the per-port filters of the mcast and mcbf paths.
 *
 * Port p of a switch gets the filter the model's state holds for it
 * (kb_exp_state_port()): for mcast a blocked filter of the same geometry
 * (m, k, hash, seed) joined to the addresses of the port's groups, for
 * mcbf the MC-BF filter of the port's class table built from the same
 * addresses.  Filled with the same keys under the same geometry, the
 * filters are bit for bit the model's: the data path decides as the model
 * does.  mcast instances stay up between runs and only change geometry.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "emu_int.h"

/* The geometry of port @p's filter in state @s. */
static int port_geom(struct emu *e, struct kb_exp_state *s, __u32 p,
		     struct kbloom_xdp_geom *g)
{
	struct kb_exp_port_filter pf;
	int err = kb_exp_state_port(s, p, &pf);

	if (err)
		return kb_exp_set_error(e->x, err, "port %u: no filter", p);
	*g = (struct kbloom_xdp_geom){ .m = pf.m, .k = pf.k,
				       .hash_id = pf.hash_id, .seed = pf.seed };
	return 0;
}

/* mcast already up: every port's filter rebuilt to state @s's geometry. */
int emu_mcast_resize(struct emu *e, struct kb_exp_state *s)
{
	const struct kb_topo *t = e->t;
	struct kbloom_xdp_geom g;
	__u32 p, n;
	int err;

	for (p = 0; p < t->nports; p++) {
		n = t->ports[p].node;
		if (t->nodes[n].kind != KB_NODE_SWITCH)
			continue;
		err = port_geom(e, s, p, &g);
		if (err)
			goto err_msg;
		err = kbloom_mcast_port_resize(e->mx[n], e->ifindex[p], &g);
		if (err)
			goto err_msg;
	}
	return 0;

err_msg:
	return kb_exp_set_error(e->x, err, "mcast resize of port %u: %s", p,
				strerror(-err));
}

/* Port p<i> of switch @n on the mcast path: its filter, its groups. */
static int mcast_port_up(struct emu *e, struct kb_exp_state *s, __u32 n,
			 __u32 i)
{
	__u32 p = e->t->nodes[n].first_port + i, ng;
	struct kbloom_xdp_geom g;
	const __u32 *grp;
	__u8 addr[4];
	int err;

	err = port_geom(e, s, p, &g);
	if (err)
		return err;
	err = kbloom_mcast_port_add(e->mx[n], e->ifindex[p], &g);
	if (err)
		goto err_msg;
	err = kbloom_xdp_attach(e->mx[n], e->ifindex[p],
				KBLOOM_XDP_MODE_NATIVE, NULL);
	if (err)
		goto err_msg;
	grp = kb_exp_port_groups(e->x, p, &ng);
	while (ng--) {
		kb_exp_group_addr(e->x, *grp++, addr);
		err = kbloom_mcast_join(e->mx[n], e->ifindex[p], addr, 4);
		if (err)
			goto err_msg;
	}
	return 0;

err_msg:
	return kb_exp_set_error(e->x, err, "mcast node %u port p%u: %s", n, i,
				strerror(-err));
}

int emu_mcast_up(struct emu *e, struct kb_exp_state *s)
{
	const struct kb_topo *t = e->t;
	__u32 n, i;
	int err;

	err = emu_create_all(e, PATH_MCAST);
	if (err)
		return err;
	for (n = 0; n < t->nnodes; n++) {
		if (t->nodes[n].kind != KB_NODE_SWITCH)
			continue;
		for (i = 0; i < t->nodes[n].nports; i++) {
			err = mcast_port_up(e, s, n, i);
			if (err)
				return err;
		}
	}
	err = emu_hosts_pass(e);
	return err ? kb_exp_set_error(e->x, err, "XDP_PASS on the hosts: %s",
				      strerror(-err)) : 0;
}

/* Port p<i> of switch @n on the mcbf path; @keys: room for its groups. */
static int mcbf_port_up(struct emu *e, struct kb_exp_state *s, __u32 n,
			__u32 i, struct kbloom_addr_key *keys)
{
	__u32 p = e->t->nodes[n].first_port + i, j, ng;
	struct kb_exp_port_filter pf;
	struct kbloom_mcbf_spec spec;
	const __u32 *grp;
	int err;

	err = kb_exp_state_port(s, p, &pf);
	if (err)
		return err;
	spec = (struct kbloom_mcbf_spec){ .m = pf.m, .hash_id = pf.hash_id,
					  .seed = pf.seed,
					  .classes = pf.classes };
	grp = kb_exp_port_groups(e->x, p, &ng);
	for (j = 0; j < ng; j++) {
		keys[j].len = 4;
		memset(keys[j].addr, 0, sizeof(keys[j].addr));
		kb_exp_group_addr(e->x, grp[j], keys[j].addr);
	}
	err = kbloom_mcbf_port_build(e->nx[n], e->ifindex[p], &spec, keys, ng);
	if (err)
		goto err_msg;
	err = kbloom_net_attach(e->nx[n], e->ifindex[p],
				KBLOOM_XDP_MODE_NATIVE, NULL);
	if (err)
		goto err_msg;
	return 0;

err_msg:
	return kb_exp_set_error(e->x, err, "mcbf node %u port p%u: %s", n, i,
				strerror(-err));
}

int emu_mcbf_up(struct emu *e, struct kb_exp_state *s)
{
	const struct kb_topo *t = e->t;
	struct kbloom_addr_key *keys;
	__u32 n, i;
	int err;

	err = emu_create_all(e, PATH_MCBF);
	if (err)
		return err;
	keys = calloc(e->members + 1, sizeof(*keys));
	if (!keys)
		return -ENOMEM;
	for (n = 0; n < t->nnodes; n++) {
		if (t->nodes[n].kind != KB_NODE_SWITCH)
			continue;
		for (i = 0; i < t->nodes[n].nports; i++) {
			err = mcbf_port_up(e, s, n, i, keys);
			if (err)
				goto out_free;
		}
	}
	err = emu_hosts_pass(e);
	if (err)
		kb_exp_set_error(e->x, err, "XDP_PASS on the hosts: %s",
				 strerror(-err));
out_free:
	free(keys);
	return err;
}
