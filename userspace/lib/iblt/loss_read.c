// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom loss digest: epochs (flip the bank, wait for the programs in
 * flight, read the old bank into an IBLT, zero it), the live bank, the
 * counters and the text of a decoded packet.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "loss_int.h"

/* Bank @b of @l as a new IBLT of the digest's geometry. */
static int kbl_bank(const struct kbloom_loss *l, __u32 b,
		    struct kbloom_iblt **fp)
{
	struct kbloom_opts o = { .hash_id = l->p.hash_id, .seed = l->p.seed };
	const struct kbloom_loss_cell *c = l->cells + (size_t)b * l->p.cells;
	int ret;

	ret = kbloom_iblt_create(l->p.cells, l->p.k, KBLOOM_LOSS_KEY_LEN, &o,
				 fp);
	if (ret)
		return ret;
	ret = kbloom_iblt_add_words(*fp, (const __u64 *)c,
				    (__u64)l->p.cells * sizeof(*c) / 8);
	if (ret) {
		kbloom_iblt_destroy(*fp);
		*fp = NULL;
	}
	return ret;
}

int kbloom_loss_params(const struct kbloom_loss *l,
		       struct kbloom_loss_params *p)
{
	__u32 zero = 0;

	if (!l || !p)
		return -EINVAL;
	return bpf_map_lookup_elem(l->params_fd, &zero, p) ? -errno : 0;
}

int kbloom_loss_swap(struct kbloom_loss *l, struct kbloom_iblt **epoch)
{
	struct kbloom_loss_params p;
	struct kbloom_iblt *f = NULL;
	__u32 zero = 0, old;
	int ret;

	ret = kbloom_loss_params(l, &p);
	if (ret)
		return ret;
	old = p.bank;
	p.bank = !old;
	if (bpf_map_update_elem(l->params_fd, &zero, &p, BPF_EXIST))
		return -errno;
	l->p.bank = p.bank;
	usleep(KBLOOM_LOSS_QUIESCE_US);
	if (epoch) {
		ret = kbl_bank(l, old, &f);
		if (ret)
			return ret;
	}
	memset(l->cells + (size_t)old * l->p.cells, 0,
	       (size_t)l->p.cells * sizeof(*l->cells));
	if (epoch)
		*epoch = f;
	return 0;
}

int kbloom_loss_read(const struct kbloom_loss *l, struct kbloom_iblt **cur)
{
	struct kbloom_loss_params p;
	int ret;

	if (!cur)
		return -EINVAL;
	ret = kbloom_loss_params(l, &p);
	return ret ?: kbl_bank(l, p.bank, cur);
}

int kbloom_loss_stats(const struct kbloom_loss *l,
		      struct kbloom_loss_stats *st)
{
	int ncpu = libbpf_num_possible_cpus(), i;
	struct kbloom_loss_stats *v;
	__u32 zero = 0;
	int ret = 0;

	if (!l || !st)
		return -EINVAL;
	if (ncpu < 0)
		return ncpu;
	v = calloc(ncpu, sizeof(*v));
	if (!v)
		return -ENOMEM;
	memset(st, 0, sizeof(*st));
	if (bpf_map_lookup_elem(l->stats_fd, &zero, v))
		ret = -errno;
	for (i = 0; !ret && i < ncpu; i++) {
		st->packets += v[i].packets;
		st->folded += v[i].folded;
		st->bytes += v[i].bytes;
		st->skipped += v[i].skipped;
		st->errors += v[i].errors;
	}
	free(v);
	return ret;
}

static const char *kbl_proto(__u8 p, char *buf, size_t len)
{
	if (p == IPPROTO_UDP)
		return "udp";
	if (p == IPPROTO_TCP)
		return "tcp";
	if (p == IPPROTO_SCTP)
		return "sctp";
	if (p == IPPROTO_ICMP)
		return "icmp";
	snprintf(buf, len, "proto-%u", p);
	return buf;
}

int kbloom_loss_format(const struct kbloom_iblt_entry *e, char *buf,
		       size_t len)
{
	struct kbloom_loss_key k;
	char s[INET_ADDRSTRLEN], d[INET_ADDRSTRLEN], pb[16];
	int n;

	if (!e || !buf || e->len != KBLOOM_LOSS_KEY_LEN)
		return -EINVAL;
	k.len = (__u8)e->len;
	memcpy(&k.proto, e->key, KBLOOM_LOSS_KEY_LEN);
	inet_ntop(AF_INET, &k.saddr, s, sizeof(s));
	inet_ntop(AF_INET, &k.daddr, d, sizeof(d));
	n = snprintf(buf, len, "%s %s:%u > %s:%u id %u len %llu %s",
		     kbl_proto(k.proto, pb, sizeof(pb)), s, ntohs(k.sport), d,
		     ntohs(k.dport), ntohs(k.id),
		     (unsigned long long)e->value,
		     e->sign > 0 ? "lost" : "extra");
	return n < 0 || (size_t)n >= len ? -ENOSPC : 0;
}
