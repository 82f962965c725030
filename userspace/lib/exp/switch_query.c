// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom_exp: the "which ports" query of a per-switch scheme
 * (scheme_switch.h), for the building threads and for the forwarding.
 */
#include <string.h>

#include "scheme_switch.h"

/*
 * Which ports of switch @sw (index in x->sw) may carry @key: bit j of
 * @ports for its local port j.  Returns the cache lines read.
 */
__u32 exp_switch_query(const struct kb_exp_state *s, __u32 sw,
		       const __u8 *key, __u64 *ports)
{
	memset(ports, 0, EXP_SW_WORDS * sizeof(*ports));
	if (!s->sw_obj[sw])
		return 0;
	return s->ops->sw->ports(s->sw_obj[sw], key, ports);
}

/*
 * The forwarding's decision for port @p in this packet (w->fepoch): the
 * switch of @p asks once, and the answer is kept for each of its ports
 * (w->dmark, w->dval), so that the copies that reach the switch again
 * find it.
 */
void exp_switch_decide(struct exp_worker *w, const struct kb_exp_state *s,
		       __u32 p, const __u8 *key)
{
	const struct kb_topo *t = w->x->topo;
	__u32 v = t->ports[p].node, j, first = t->nodes[v].first_port;
	__u64 ports[EXP_SW_WORDS];

	exp_switch_query(s, w->x->sw_index[v], key, ports);
	for (j = 0; j < t->nodes[v].nports; j++) {
		w->dmark[first + j] = w->fepoch;
		w->dval[first + j] = (__u8)((ports[j / 64] >> (j % 64)) & 1);
	}
}
