// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom_exp: the emulation of an experiment, scheme by scheme.
 *
 * The fabric is built once; each scheme then gets the model's state (at
 * the reference M for the per-port schemes; exact uses blocked filters of
 * EMU_EXACT_BITS bits in its place), the data path of the state, and every
 * packet of the model in turn.  The in-packet schemes share one ipbf set-
 * up, whose link IDs do not depend on the scheme.  Sizes are bounded
 * (EMU_SW_MAX switches of EMU_PORTS_MAX ports, EMU_HOSTS_MAX hosts), and
 * the pin roots of emulations whose process is gone are removed first.
 */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "emu_int.h"

/* Can @scheme run on a data path?  If not, why in @r. */
static int scheme_emulated(struct emu *e, __u32 scheme,
			   struct kb_exp_emu_result *r)
{
	if (emu_path_of(scheme) == PATH_NONE) {
		r->status = -EOPNOTSUPP;
		if (scheme == KB_EXP_STANDARD)
			snprintf(r->why, sizeof(r->why),
				 "no XDP data path holds standard per-port filters (mcast and mcbf are blocked)");
		else
			snprintf(r->why, sizeof(r->why),
				 "model only: no XDP data path holds %s structures",
				 kb_exp_scheme_name(scheme));
		return 0;
	}
	if (scheme == KB_EXP_MCBF &&
	    kb_exp_get_params(e->x)->mcbf_type != KBLOOM_TYPE_BLOCKED) {
		r->status = -EOPNOTSUPP;
		snprintf(r->why, sizeof(r->why),
			 "the mcbf path holds blocked MC-BF filters (mcbf-type standard is model only)");
		return 0;
	}
	return 1;
}

/*
 * The data path @want up with the filters of state @s: mcast changes
 * geometry in place, ipbf stays as it is (its link IDs do not depend on
 * the scheme), any other change rebuilds.
 */
static int path_up(struct emu *e, enum emu_path want, struct kb_exp_state *s)
{
	int err;

	if (e->path == want && want == PATH_MCAST)
		return emu_mcast_resize(e, s);
	if (e->path == want && want == PATH_IPBF)
		return 0;
	emu_path_down(e);
	switch (want) {
	case PATH_MCAST:
		err = emu_mcast_up(e, s);
		break;
	case PATH_MCBF:
		err = emu_mcbf_up(e, s);
		break;
	default:
		err = emu_create_all(e, PATH_IPBF);
		break;
	}
	e->path = want;
	return err;
}

static int scheme_run(struct emu *e, __u32 scheme, __u64 bits,
		      struct kb_exp_emu_result *r)
{
	struct kb_exp_state *ms = NULL, *ds = NULL;
	enum emu_path want = emu_path_of(scheme);
	double t0 = exp_now_s(), t1;
	int err;

	r->scheme = scheme;
	r->bits = (KB_EXP_S(scheme) & KB_EXP_PORT_FILTERS) ? bits : 0;
	r->emu_leak_counter = want == PATH_IPBF ? ~0ULL : 0;
	if (!scheme_emulated(e, scheme, r))
		return 0;
	err = kb_exp_state_new(e->x, scheme, bits, &ms);
	if (err)
		goto err_status;
	if (scheme == KB_EXP_EXACT) {
		err = kb_exp_state_new(e->x, KB_EXP_BLOCKED, EMU_EXACT_BITS,
				       &ds);
		if (err)
			goto err_status;
	}
	err = path_up(e, want, ds ? ds : ms);
	if (err)
		goto err_status;
	if (scheme == KB_EXP_EXACT)
		snprintf(r->why, sizeof(r->why),
			 "mcast path with %llu-bit filters for the exact tables",
			 (unsigned long long)EMU_EXACT_BITS);
	emu_log(e, "%s: data path up (%.1f s), sending",
		kb_exp_scheme_name(scheme), exp_now_s() - t0);
	t1 = exp_now_s();
	err = emu_run_packets(e, ms, scheme, r);
	emu_log(e, "%s: %llu packets in %.1f s", kb_exp_scheme_name(scheme),
		(unsigned long long)r->packets, exp_now_s() - t1);
	if (err) {
		r->status = err;
		snprintf(r->why, sizeof(r->why), "%s", err == -ETIMEDOUT ?
			 "a packet never showed in the counters" : strerror(-err));
	}
	goto out_free;

err_status:
	r->status = err;
	snprintf(r->why, sizeof(r->why), "%s", kb_exp_error(e->x));
out_free:
	kb_exp_state_free(ms);
	kb_exp_state_free(ds);
	r->seconds = exp_now_s() - t0;
	return 0;
}

static int emu_alloc(struct emu *e)
{
	size_t nn = e->t->nnodes, np = e->t->nports;

	e->nsfd = calloc(nn, sizeof(*e->nsfd));
	e->nspath = calloc(nn, sizeof(*e->nspath));
	e->ifindex = calloc(np, sizeof(*e->ifindex));
	e->rx = calloc(nn, sizeof(*e->rx));
	e->pass = calloc(nn, sizeof(*e->pass));
	e->mx = calloc(nn, sizeof(*e->mx));
	e->nx = calloc(nn, sizeof(*e->nx));
	e->before = calloc(np, sizeof(__u64));
	e->after = calloc(np, sizeof(__u64));
	e->leak_before = calloc(np, sizeof(__u64));
	e->leak_after = calloc(np, sizeof(__u64));
	e->model_cnt = calloc(np, sizeof(__u32));
	e->host_model = calloc(nn, sizeof(__u32));
	e->host_emu = calloc(nn, sizeof(__u32));
	if (!e->nsfd || !e->nspath || !e->ifindex || !e->rx || !e->pass ||
	    !e->mx || !e->nx || !e->before || !e->after || !e->leak_before ||
	    !e->leak_after || !e->model_cnt || !e->host_model || !e->host_emu)
		return -ENOMEM;
	return 0;
}

static void emu_free(struct emu *e)
{
	free(e->nsfd);
	free(e->nspath);
	free(e->ifindex);
	free(e->rx);
	free(e->pass);
	free(e->mx);
	free(e->nx);
	free(e->before);
	free(e->after);
	free(e->leak_before);
	free(e->leak_after);
	free(e->model_cnt);
	free(e->host_model);
	free(e->host_emu);
}

/* Remove the pin roots of emulations whose process is gone. */
static void emu_janitor(void)
{
	char root[320];
	struct dirent *de, *ie;
	DIR *d, *r;
	int pid;

	d = opendir("/sys/fs/bpf");
	if (!d)
		return;
	while ((de = readdir(d))) {
		if (sscanf(de->d_name, "kbloom-exp%d", &pid) != 1 || pid <= 0)
			continue;
		if (!kill(pid, 0) || errno != ESRCH)
			continue;
		snprintf(root, sizeof(root), "/sys/fs/bpf/%s", de->d_name);
		r = opendir(root);
		while (r && (ie = readdir(r)))
			if (ie->d_name[0] != '.')
				kbloom_xdp_unpin(root, ie->d_name);
		if (r)
			closedir(r);
		rmdir(root);
	}
	closedir(d);
}

static int topo_fits(struct emu *e)
{
	const struct kb_topo *t = e->t;
	__u32 n, nsw = 0;

	for (n = 0; n < t->nnodes; n++) {
		if (t->nodes[n].kind != KB_NODE_SWITCH)
			continue;
		nsw++;
		if (t->nodes[n].nports > EMU_PORTS_MAX)
			return kb_exp_set_error(e->x, -ERANGE,
						"emulation: switch %u has %u ports (at most %u)",
						n, t->nodes[n].nports,
						EMU_PORTS_MAX);
	}
	if (nsw > EMU_SW_MAX || t->nhosts > EMU_HOSTS_MAX)
		return kb_exp_set_error(e->x, -ERANGE,
					"emulation: %u switches and %u hosts (at most %u and %u: a k = 4 fat-tree has 20 and 16)",
					nsw, t->nhosts, EMU_SW_MAX,
					EMU_HOSTS_MAX);
	return 0;
}

int kb_exp_emulate(struct kb_exp *x, const struct kb_exp_emu_opts *o,
		   struct kb_exp_emu_result *res)
{
	const struct kb_exp_params *p;
	struct kb_exp_emu_opts def = { 0 };
	struct emu e = { .x = x };
	double t0;
	__u32 s, schemes;
	__u64 bits;
	int err;

	if (!x || !res)
		return -EINVAL;
	if (!o)
		o = &def;
	p = kb_exp_get_params(x);
	e.t = kb_exp_topo(x);
	e.o = o;
	e.log = o->log;
	memset(res, 0, KB_EXP_NSCHEMES * sizeof(*res));
	for (s = 0; s < KB_EXP_NSCHEMES; s++) {
		res[s].scheme = s;
		res[s].status = -ENOENT;
	}
	err = topo_fits(&e);
	if (err)
		return err;
	err = kb_exp_prepare(x);
	if (err)
		return err;
	schemes = (o->schemes ? o->schemes : KB_EXP_ALL) & p->schemes;
	bits = o->bits ? o->bits : p->ref_bits;
	snprintf(e.root, sizeof(e.root), "%s-exp%d", KBLOOM_XDP_PIN_ROOT,
		 (int)getpid());
	emu_janitor();
	t0 = exp_now_s();
	for (s = 0; s < e.t->nports; s++) {
		__u32 ng;

		kb_exp_port_groups(x, s, &ng);
		e.members += ng;
	}
	err = emu_alloc(&e);
	if (err)
		goto out_free;
	err = emu_fabric_up(&e);
	if (err)
		goto out_free;
	emu_log(&e, "fabric: %u namespaces, %u veth links (%.1f s)",
		e.t->nnodes, e.t->nports / 2, exp_now_s() - t0);
	/* the in-packet schemes last, sharing one ipbf set-up */
	for (s = 0; s < KB_EXP_NSCHEMES; s++) {
		if (!(schemes & KB_EXP_S(s)))
			continue;
		res[s].status = 0;
		scheme_run(&e, s, bits, &res[s]);
	}
	emu_path_down(&e);
out_free:
	emu_fabric_down(&e);
	emu_free(&e);
	return err;
}
