// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom_exp: the XDP data paths of the emulation.
 *
 * A scheme runs on one path: exact and blocked on mcast, mcbf on mcbf,
 * lipsin1, lipsin8 and msbf on ipbf (standard on none).  A path's
 * instances are one per switch (per node for ipbf, whose hosts apply the
 * source's step), named "n<node>" under the run's pin root and created by
 * EMU_LOADERS threads, the verifier being most of the set-up time.  Its
 * counters give per switch port the transmissions (tx_forwarded) and the
 * leaks the data path's own audit counted (tx_leaked; ipbf has none).
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "emu_int.h"

enum emu_path emu_path_of(__u32 scheme)
{
	switch (scheme) {
	case KB_EXP_EXACT:
	case KB_EXP_BLOCKED:
		return PATH_MCAST;
	case KB_EXP_MCBF:
		return PATH_MCBF;
	case KB_EXP_LIPSIN1:
	case KB_EXP_LIPSIN8:
	case KB_EXP_MSBF:
	case KB_EXP_YESNO:
		return PATH_IPBF;
	}
	return PATH_NONE;
}

static void loader_log(void *ctx, const char *msg)
{
	struct emu *e = ctx;

	if (e->o->verbose)
		emu_log(e, "loader: %s", msg);
}

void emu_path_down(struct emu *e)
{
	const struct kb_topo *t = e->t;
	char name[32];
	__u32 n;

	for (n = 0; n < t->nnodes; n++) {
		if (e->mx[n]) {
			kbloom_xdp_destroy(e->mx[n]);
			e->mx[n] = NULL;
		}
		if (e->nx[n]) {
			kbloom_net_destroy(e->nx[n]);
			e->nx[n] = NULL;
		}
		if (e->pass[n] > 0) {
			close(e->pass[n]);	/* detaches the XDP_PASS link */
			e->pass[n] = 0;
		}
		snprintf(name, sizeof(name), "n%u", n);
		kbloom_xdp_unpin(e->root, name);
	}
	e->path = PATH_NONE;
}

/* XDP_PASS on every host: a veth end gets redirected frames only then. */
int emu_hosts_pass(struct emu *e)
{
	const struct kb_topo *t = e->t;
	int saved, err;
	__u32 n;

	for (n = 0; n < t->nnodes; n++) {
		if (t->nodes[n].kind != KB_NODE_HOST)
			continue;
		err = emu_ns_enter(e->nsfd[n], &saved);
		if (err)
			return err;
		err = kbloom_xdp_pass_attach(e->ifindex[t->nodes[n].first_port],
					     KBLOOM_XDP_MODE_NATIVE, NULL,
					     &e->pass[n]);
		emu_ns_leave(saved);
		if (err)
			return err;
	}
	return 0;
}

/*
 * Loading a path's programs (the verifier) is most of the set-up time:
 * the instances are created by a few threads, each in its own thread's
 * namespace context (the loaders enter opts->netns per call).
 */
#define EMU_LOADERS	4

struct par_create {
	struct emu *e;
	enum emu_path path;
	atomic_uint next;
	atomic_int err;
	atomic_uint failed_node;
};

static int create_one(struct emu *e, enum emu_path path, __u32 n)
{
	const struct kb_topo *t = e->t;
	const struct kb_node *nd = &t->nodes[n];
	const struct kb_exp_params *p = kb_exp_get_params(e->x);
	struct kbloom_xdp_opts xo = {
		.pin_root = e->root, .log = loader_log, .log_ctx = e,
		.netns = e->nspath[n], .max_filters = nd->nports,
		.max_keys = e->members + 16, .flags = KBLOOM_MCAST_F_AUDIT,
		.opt_flags = KBLOOM_XDP_OPT_FLAGS,
	};
	struct kbloom_net_opts no = {
		.pin_root = e->root, .log = loader_log, .log_ctx = e,
		.netns = e->nspath[n], .max_ports = nd->nports,
		.max_members = e->members + 16,
	};
	char name[32];
	int err;

	if (path != PATH_IPBF && nd->kind != KB_NODE_SWITCH)
		return 0;
	snprintf(name, sizeof(name), "n%u", n);
	switch (path) {
	case PATH_MCAST:
		return kbloom_xdp_create(name, KBLOOM_XDP_MCAST, &xo, &e->mx[n]);
	case PATH_MCBF:
		return kbloom_net_create(name, KBLOOM_NET_MCBF, &no, &e->nx[n]);
	case PATH_IPBF:
		err = kbloom_net_create(name, KBLOOM_NET_IPBF, &no, &e->nx[n]);
		if (err)
			return err;
		return kbloom_ipbf_node_setup(e->nx[n], kb_exp_lids(e->x), n,
					      e->ifindex + nd->first_port,
					      p->fill_limit,
					      KBLOOM_XDP_MODE_NATIVE);
	default:
		return -EINVAL;
	}
}

static void *create_main(void *arg)
{
	struct par_create *pc = arg;
	__u32 n;
	int err;

	while ((n = atomic_fetch_add(&pc->next, 1)) < pc->e->t->nnodes) {
		if (atomic_load(&pc->err))
			break;
		err = create_one(pc->e, pc->path, n);
		if (err && !atomic_exchange(&pc->err, err))
			atomic_store(&pc->failed_node, n);
	}
	return NULL;
}

int emu_create_all(struct emu *e, enum emu_path path)
{
	struct par_create pc = { .e = e, .path = path };
	pthread_t th[EMU_LOADERS];
	int i, started = 0, err;

	for (i = 0; i < EMU_LOADERS; i++) {
		if (pthread_create(&th[i], NULL, create_main, &pc))
			break;
		started++;
	}
	if (!started)
		create_main(&pc);
	for (i = 0; i < started; i++)
		pthread_join(th[i], NULL);
	err = atomic_load(&pc.err);
	if (err)
		return kb_exp_set_error(e->x, err, "%s instance of node %u: %s",
					path == PATH_MCAST ? "mcast" :
					path == PATH_MCBF ? "mcbf" : "ipbf",
					atomic_load(&pc.failed_node),
					strerror(-err));
	return 0;
}

/* Per switch port: transmissions (and audited leaks) so far. */
int emu_counters(struct emu *e, __u64 *tx, __u64 *leak)
{
	const struct kb_topo *t = e->t;
	struct kbloom_mcast_stats ms;
	struct kbloom_mcbf_stats bs;
	struct kbloom_ipbf_stats is;
	__u32 p, n;
	int err = 0;

	for (p = 0; p < t->nports; p++) {
		n = t->ports[p].node;
		tx[p] = leak[p] = 0;
		if (t->nodes[n].kind != KB_NODE_SWITCH)
			continue;
		switch (e->path) {
		case PATH_MCAST:
			err = kbloom_mcast_stats(e->mx[n], e->ifindex[p], &ms);
			tx[p] = ms.tx_forwarded;
			leak[p] = ms.tx_leaked;
			break;
		case PATH_MCBF:
			err = kbloom_mcbf_stats(e->nx[n], e->ifindex[p], &bs);
			tx[p] = bs.tx_forwarded;
			leak[p] = bs.tx_leaked;
			break;
		case PATH_IPBF:
			err = kbloom_ipbf_stats(e->nx[n], e->ifindex[p], &is);
			tx[p] = is.tx_forwarded;
			break;
		default:
			break;
		}
		if (err)
			return err;
	}
	return 0;
}
