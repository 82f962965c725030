// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom_exp: one packet, sent, measured and compared with the model.
 *
 * The model's trace of the packet gives per switch port its transmissions
 * and per host its arrivals.  The emulation's are read as differences:
 * the port counters before the frame is sent and after it has gone
 * everywhere it goes (they moved, then stayed still over two reads
 * EMU_SETTLE_US apart with the host sockets quiet; EMU_WAIT_S at most),
 * and the frames of this packet the hosts' sockets received.  A packet
 * agrees when every port's transmissions and every host's arrivals are
 * equal; off-tree transmissions count as leaks on both sides.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/if_packet.h>
#include <sys/socket.h>

#include "emu_int.h"

/* Count this run's frames of packet (@scheme, @g, @idx) at each host. */
static int drain_hosts(struct emu *e, __u32 scheme, __u32 g, __u32 idx)
{
	const struct kb_topo *t = e->t;
	struct sockaddr_ll from;
	struct emu_payload pl;
	__u8 buf[2048];
	socklen_t fl;
	ssize_t r;
	__u32 n;
	int got = 0;

	for (n = 0; n < t->nnodes; n++) {
		if (t->nodes[n].kind != KB_NODE_HOST)
			continue;
		for (;;) {
			fl = sizeof(from);
			r = recvfrom(e->rx[n], buf, sizeof(buf), 0,
				     (struct sockaddr *)&from, &fl);
			if (r < 0)
				break;
			if (from.sll_pkttype == PACKET_OUTGOING ||
			    r < (ssize_t)sizeof(pl))
				continue;
			memcpy(&pl, buf + r - sizeof(pl), sizeof(pl));
			if (pl.magic != EMU_MAGIC || pl.seq != e->seq ||
			    pl.scheme != scheme || pl.group != g ||
			    pl.index != idx)
				continue;
			e->host_emu[n]++;
			got = 1;
		}
	}
	return got;
}

/*
 * Wait until the packet has gone everywhere it goes: the counters moved
 * and then stayed still for two reads EMU_SETTLE_US apart, the host
 * sockets quiet as well.  Return: 0, or -ETIMEDOUT.
 */
static int settle(struct emu *e, __u32 scheme, __u32 g, __u32 idx)
{
	size_t sz = e->t->nports * sizeof(__u64);
	double t0 = exp_now_s();
	int still = 0, moved = 0, err;
	__u64 *prev = malloc(sz), *prevl = malloc(sz);

	if (!prev || !prevl) {
		free(prev);
		free(prevl);
		return -ENOMEM;
	}
	memcpy(prev, e->before, sz);
	memcpy(prevl, e->leak_before, sz);
	while (still < 2) {
		usleep(EMU_SETTLE_US);
		err = emu_counters(e, e->after, e->leak_after);
		if (err)
			goto out;
		if (drain_hosts(e, scheme, g, idx))
			still = 0;
		if (memcmp(prev, e->after, sz) || memcmp(prevl, e->leak_after, sz)) {
			moved = 1;
			still = 0;
			memcpy(prev, e->after, sz);
			memcpy(prevl, e->leak_after, sz);
		} else if (moved) {
			still++;
		}
		if (exp_now_s() - t0 > EMU_WAIT_S) {
			err = moved ? 0 : -ETIMEDOUT;
			goto out;
		}
	}
	err = 0;
out:
	free(prev);
	free(prevl);
	return err;
}

/* The model's transmissions by switches and arrivals at hosts. */
static void model_counts(struct emu *e, const struct kb_exp_pkt *pk,
			 __u64 *mtx, __u64 *mleak)
{
	const struct kb_topo *t = e->t;
	__u32 j, p, n;

	for (j = 0; j < pk->ntrace; j++) {
		p = pk->trace[j];
		n = t->ports[p].peer_node;
		if (t->nodes[n].kind == KB_NODE_HOST)
			e->host_model[n]++;
		if (t->nodes[t->ports[p].node].kind != KB_NODE_SWITCH)
			continue;
		e->model_cnt[p]++;
		(*mtx)++;
		*mleak += !pk->tree->on_tree[p];
	}
}

/* Send frame @f of @len bytes (none: 0) from @src; wait until it settled. */
static int send_settle(struct emu *e, __u32 scheme, __u32 g, __u32 idx,
		       __u32 src, const __u8 *f, int len)
{
	size_t sz = e->t->nports * sizeof(__u64);
	int err;

	if (!len) {
		memcpy(e->after, e->before, sz);
		memcpy(e->leak_after, e->leak_before, sz);
		return 0;
	}
	err = emu_counters(e, e->before, e->leak_before);
	if (err)
		return err;
	err = emu_send_frame(e, src, f, len);
	if (err)
		return err;
	return settle(e, scheme, g, idx);
}

/* Send one packet, measure it, compare with the model. */
static int one_packet(struct emu *e, struct kb_exp_emu_result *r,
		      __u32 scheme, __u32 g, __u32 idx,
		      const struct kb_exp_pkt *pk)
{
	const struct kb_topo *t = e->t;
	__u8 frame[EMU_FRAME_MAX + 64];
	__u32 p, n, src = kb_exp_group_src(e->x, g);
	__u64 d, dl, etx = 0, eleak = 0, mtx = 0, mleak = 0, ecnt = 0;
	int len, err, diff = 0, hdiff = 0;

	memset(e->model_cnt, 0, t->nports * sizeof(*e->model_cnt));
	memset(e->host_model, 0, t->nnodes * sizeof(*e->host_model));
	memset(e->host_emu, 0, t->nnodes * sizeof(*e->host_emu));
	e->seq++;
	len = emu_build_frame(e, scheme, g, idx, pk, frame);
	if (len == -EMSGSIZE) {
		r->skipped++;
		emu_log(e, "%s: group %u packet %u: frame above %u bytes, not sent",
			kb_exp_scheme_name(scheme), g, idx, EMU_FRAME_MAX);
		return 0;
	}
	model_counts(e, pk, &mtx, &mleak);
	err = send_settle(e, scheme, g, idx, src, frame, len);
	if (err)
		return err;
	for (p = 0; p < t->nports; p++) {
		if (t->nodes[t->ports[p].node].kind != KB_NODE_SWITCH)
			continue;
		d = e->after[p] - e->before[p];
		dl = e->leak_after[p] - e->leak_before[p];
		etx += d;
		ecnt += dl;
		if (!pk->tree->on_tree[p])
			eleak += d;
		if (d != e->model_cnt[p])
			diff = 1;
	}
	for (n = 0; n < t->nnodes; n++) {
		if (t->nodes[n].kind != KB_NODE_HOST)
			continue;
		if (e->host_model[n] != e->host_emu[n])
			hdiff++;
		r->model_hosts += e->host_model[n];
		r->emu_hosts += e->host_emu[n];
	}
	r->packets++;
	r->model_tx += mtx;
	r->emu_tx += etx;
	r->model_leak += mleak;
	r->emu_leak += eleak;
	if (r->emu_leak_counter != ~0ULL)
		r->emu_leak_counter += ecnt;
	r->model_leaked_hosts += pk->res.leaked_hosts;
	r->pkt_mismatch += diff;
	r->host_mismatch += hdiff;
	if ((diff || hdiff) && e->o->verbose)
		emu_log(e, "%s: group %u packet %u: model %llu tx (%llu off-tree), emulation %llu (%llu)%s",
			kb_exp_scheme_name(scheme), g, idx,
			(unsigned long long)mtx, (unsigned long long)mleak,
			(unsigned long long)etx, (unsigned long long)eleak,
			hdiff ? ", host arrivals differ" : "");
	return 0;
}

static void count_leaked_hosts(struct emu *e, struct kb_exp_emu_result *r,
			       const struct kb_exp_pkt *pk)
{
	const struct kb_tree *tr = pk->tree;
	__u32 n;

	for (n = 0; n < e->t->nnodes; n++)
		if (e->t->nodes[n].kind == KB_NODE_HOST && !tr->member[n])
			r->emu_leaked_hosts += e->host_emu[n];
}

/* Every packet of the scheme, model state @ms, data path already up. */
int emu_run_packets(struct emu *e, struct kb_exp_state *ms, __u32 scheme,
		       struct kb_exp_emu_result *r)
{
	__u32 g, i, ng = kb_exp_ngroups(e->x), sent = 0;
	struct kb_exp_pkt pk;
	int np, err;

	for (g = 0; g < ng; g++) {
		np = kb_exp_state_npackets(ms, g);
		if (np < 0)
			return np;
		for (i = 0; i < (__u32)np; i++) {
			if (e->o->max_packets && sent >= e->o->max_packets)
				return 0;
			err = kb_exp_state_forward(ms, g, i, &pk);
			if (err)
				return err;
			if (pk.refused)
				continue;
			if (pk.res.truncated) {
				r->skipped++;
				emu_log(e, "%s: group %u packet %u loops in the model (no hop limit on this path): not sent",
					kb_exp_scheme_name(scheme), g, i);
				continue;
			}
			err = one_packet(e, r, scheme, g, i, &pk);
			if (err)
				return err;
			count_leaked_hosts(e, r, &pk);
			sent++;
		}
	}
	return 0;
}
