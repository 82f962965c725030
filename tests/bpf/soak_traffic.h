/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The traffic of the packet-path soak (tests/bpf/soak_test.c): steady
 * generators of numbered frames and one receiver thread that records, per
 * receiving socket, which frames arrived.
 *
 * Frames are built whole, checksums included (tests/bpf/xdp_util.h), and
 * sent and captured with AF_PACKET, so no checksum offload is involved.
 * (A UDP socket sending into a veth would need "ethtool -K IF tx off" on
 * that veth: with TX checksum offload the stack leaves the UDP checksum to
 * the "hardware" (CHECKSUM_PARTIAL) and veth never computes it; XDP turns
 * the skb into a bare frame, the redirect loses that mark, and the
 * receiver's UDP drops the frame for its unfinished checksum.)
 *
 * Frame s of a flow carries key s % SOAK_NKEY: the group of a switch flow
 * (239.1.0.100+k, ff3e::1:100+k for the last two keys: class 0 for mcbf),
 * or the source of a gate flow (10.9.0.1+k, fd00::9:1+k).
 */
#ifndef KBT_SOAK_TRAFFIC_H
#define KBT_SOAK_TRAFFIC_H

#include <poll.h>
#include <stdatomic.h>

#include "tests/bpf/xdp_util.h"
#include "tests/bpf/soak_oracle.h"

#define SOAK_NKEY	8	/* keys 0..5 IPv4, 6..7 IPv6 */
#define SOAK_V6_KEY	6

/* A generator: frames 1..seq started, @pps a second, up to @max. */
struct soak_flow {
	int fd;			/* AF_PACKET on the sender's interface */
	__u32 tag;		/* in every frame's payload */
	bool gate;		/* key = source, else key = group */
	__u32 pps;
	__u32 max;
	atomic_uint seq;
	atomic_int stop;
	int err;		/* failed sends */
};

/* A receiving socket: bit s of @seen for frame s of the flow @tag. */
struct soak_rcv {
	int fd;
	__u32 tag;
	__u32 max;
	__u8 *seen;
	__u64 dup;
};

static inline __u32 soak_mark(const struct soak_flow *fl)
{
	return atomic_load(&fl->seq);
}

/* Group @k of a switch flow; its length. */
static inline __u32 soak_group(__u8 a[16], __u32 k)
{
	kbt_group(a, k >= SOAK_V6_KEY, 100 + k);
	return k >= SOAK_V6_KEY ? 16 : 4;
}

/* Source @k of a gate flow; its length. */
static inline __u32 soak_source(__u8 a[16], __u32 k)
{
	memset(a, 0, 16);
	if (k < SOAK_V6_KEY) {
		a[0] = 10, a[1] = 9, a[3] = 1 + k;
		return 4;
	}
	a[0] = 0xfd, a[13] = 9, a[15] = 1 + k;
	return 16;
}

static inline const char *soak_addr_str(const __u8 *a, __u32 len, char *buf)
{
	return inet_ntop(len == 4 ? AF_INET : AF_INET6, a, buf,
			 INET6_ADDRSTRLEN);
}

static inline size_t soak_frame(const struct soak_flow *fl, __u8 *f, __u32 s)
{
	static const __u8 src4[4] = { 10, 0, 0, 9 };
	static const __u8 src6[16] = { 0xfd, [15] = 9 };
	static const __u8 dst4[4] = { 10, 9, 9, 9 };
	static const __u8 dst6[16] = { 0xfd, [13] = 9, [15] = 9 };
	struct kbt_payload pl = { KBT_MAGIC, s % SOAK_NKEY, s, fl->tag };
	struct kbt_frame_opts o = { .payload = &pl, .plen = sizeof(pl) };
	__u8 a[16];

	if (!fl->gate) {
		o.v6 = soak_group(a, pl.group) == 16;
		o.src = o.v6 ? src6 : src4;
		o.dst = a;
	} else {
		o.v6 = soak_source(a, pl.group) == 16;
		o.src = a;
		o.dst = o.v6 ? dst6 : dst4;
	}
	return kbt_frame(f, &o);
}

static inline void soak_ts_add(struct timespec *t, long ns)
{
	t->tv_nsec += ns;
	while (t->tv_nsec >= 1000000000L) {
		t->tv_nsec -= 1000000000L;
		t->tv_sec++;
	}
}

/* Send 4 frames every 4/pps seconds; a late wake-up skips, never bursts. */
static inline void *soak_generator(void *arg)
{
	struct soak_flow *fl = arg;
	long gap = 4 * (1000000000L / fl->pps);
	struct timespec next, now;
	__u8 f[256];
	__u32 s, i;
	size_t n;

	clock_gettime(CLOCK_MONOTONIC, &next);
	while (!atomic_load(&fl->stop)) {
		for (i = 0; i < 4; i++) {
			s = soak_mark(fl) + 1;
			if (s > fl->max)
				return NULL;
			atomic_store(&fl->seq, s);
			n = soak_frame(fl, f, s);
			if (send(fl->fd, f, n, 0) != (ssize_t)n)
				fl->err++;
		}
		soak_ts_add(&next, gap);
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (now.tv_sec > next.tv_sec + 1)
			next = now;
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL);
	}
	return NULL;
}

#define SOAK_MAX_RCV	16

struct soak_rx {
	struct soak_rcv *rcv[SOAK_MAX_RCV];
	int n;
	atomic_int stop;
};

static inline void soak_take(struct soak_rcv *r)
{
	struct kbt_payload pl;
	__u32 s;

	while (kbt_precv(r->fd, &pl)) {
		s = pl.seq;
		if (pl.tag != r->tag || !s || s > r->max)
			continue;
		if (soak_bit(r->seen, s))
			r->dup++;
		r->seen[s >> 3] |= 1 << (s & 7);
	}
}

/* The receiver thread: every socket of @arg until stop, then a last pass. */
static inline void *soak_receiver(void *arg)
{
	struct soak_rx *c = arg;
	struct pollfd pf[SOAK_MAX_RCV];
	int i;

	for (i = 0; i < c->n; i++)
		pf[i] = (struct pollfd){ .fd = c->rcv[i]->fd, .events = POLLIN };
	while (!atomic_load(&c->stop)) {
		if (poll(pf, c->n, 20) <= 0)
			continue;
		for (i = 0; i < c->n; i++)
			if (pf[i].revents)
				soak_take(c->rcv[i]);
	}
	for (i = 0; i < c->n; i++)
		soak_take(c->rcv[i]);
	return NULL;
}

/* An AF_PACKET socket on @ifname of @ns receiving @fl's frames. */
static inline int soak_rcv_open(struct soak_rcv *r, const struct kbt_ns *ns,
				const char *ifname,
				const struct soak_flow *fl)
{
	r->fd = kbt_psock(ns, ifname);
	r->tag = fl->tag;
	r->max = fl->max;
	r->seen = calloc(fl->max / 8 + 1, 1);
	return r->fd < 0 || !r->seen ? -1 : 0;
}

static inline void soak_rcv_close(struct soak_rcv *r)
{
	if (r->fd > 0)
		close(r->fd);
	free(r->seen);
	memset(r, 0, sizeof(*r));
}

#endif /* KBT_SOAK_TRAFFIC_H */
