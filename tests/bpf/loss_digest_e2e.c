// SPDX-License-Identifier: GPL-2.0
/*
 * The XDP loss digest (bpf/kbloom_loss_digest.bpf.c, libkbloom_loss.h) on
 * a path of two veth hops:
 *
 *   s: s0 10.9.1.1 --- m0 10.9.1.2  m: (forwards)  m1 10.9.2.2 --- r0 10.9.2.1 :r
 *                      XDP digest "up"            tc egress:           XDP digest
 *                      (pass)                     loss_drop            "down" (drop)
 *
 * s sends 1,000,000 UDP datagrams from an AF_PACKET socket, sequence n as
 * (source port 10000 + n / 65536, IP id n % 65536); the lossy hop drops
 * the 1000 whose n is 999 modulo 1000.  Each point's epoch is swapped
 * out, the downstream digest subtracted from the upstream one (k = 4,
 * 1500 cells: 1.5 cells per lost packet) and decoded: all 1000 lost
 * packets are listed with their 5-tuples, ids and lengths, and nothing
 * else.  The points saw 1,000,000 and 999,000 packets.  The next epoch
 * (no traffic) decodes empty; bad geometry and a second attach in the
 * same pin directory are refused and change nothing.
 */
#include <linux/pkt_cls.h>
#include <net/ethernet.h>

#include "kselftest_harness.h"
#include "libkbloom_loss.h"
#include "xdp_util.h"
#include "tests/bpf/loss_drop.skel.h"

#define LD_PACKETS	1000000U
#define LD_LOST		1000U
#define LD_CELLS	1500U
#define LD_FRAME	60U

static const __u8 m0_mac[6] = { 2, 0, 0, 0, 1, 2 };

FIXTURE(loss) {
	struct kbt_ns s, m, r;
	struct loss_drop *drop;
	struct kbloom_loss *up, *down;
	char up_dir[128], down_dir[128];
	int tx;
};

/* The frame of sequence @n into @f (a 60-byte IPv4/UDP frame). */
static void ld_frame(__u8 *f, __u32 n)
{
	static const __u8 src[4] = { 10, 9, 1, 1 }, dst[4] = { 10, 9, 2, 1 };
	__u8 *ip = f + 14, *udp = ip + 20;

	memset(f, 0, LD_FRAME);
	memcpy(f, m0_mac, 6);
	memcpy(f + 6, (const __u8 []){ 2, 0, 0, 0, 1, 1 }, 6);
	kbt_put16(f + 12, ETH_P_IP);
	ip[0] = 0x45;
	kbt_put16(ip + 2, LD_FRAME - 14);
	kbt_put16(ip + 4, n & 0xffff);
	ip[8] = 64;
	ip[9] = IPPROTO_UDP;
	memcpy(ip + 12, src, 4);
	memcpy(ip + 16, dst, 4);
	kbt_put16(ip + 10, kbt_csum_fold(kbt_csum_add(0, ip, 20)));
	kbt_put16(udp, 10000 + (n >> 16));
	kbt_put16(udp + 2, 5000);
	kbt_put16(udp + 4, LD_FRAME - 34);
}

static int ld_net(FIXTURE_DATA(loss) *self)
{
	if (kbt_ns_quiet(&self->s) || kbt_ns_quiet(&self->m) ||
	    kbt_ns_quiet(&self->r))
		return -1;
	if (kbt_veth(&self->s, "s0", &self->m, "m0", 1) ||
	    kbt_veth(&self->m, "m1", &self->r, "r0", 2))
		return -1;
	if (kbt_sh(&self->s, "ip addr add 10.9.1.1/24 dev s0") ||
	    kbt_sh(&self->m, "ip addr add 10.9.1.2/24 dev m0") ||
	    kbt_sh(&self->m, "ip addr add 10.9.2.2/24 dev m1") ||
	    kbt_sh(&self->r, "ip addr add 10.9.2.1/24 dev r0") ||
	    kbt_sh(&self->m, "ip neigh add 10.9.2.1 lladdr 02:00:00:00:02:02 dev m1") ||
	    kbt_sh(&self->m, "ip neigh add 10.9.1.1 lladdr 02:00:00:00:01:01 dev m0"))
		return -1;
	if (kbt_write_file(&self->m, "/proc/sys/net/ipv4/ip_forward", "1") ||
	    kbt_write_file(&self->m, "/proc/sys/net/ipv4/conf/all/rp_filter", "0") ||
	    kbt_write_file(&self->m, "/proc/sys/net/ipv4/conf/m0/rp_filter", "0"))
		return -1;
	return 0;
}

static int ld_tc(FIXTURE_DATA(loss) *self)
{
	LIBBPF_OPTS(bpf_tc_hook, hook, .attach_point = BPF_TC_EGRESS);
	LIBBPF_OPTS(bpf_tc_opts, opts, .handle = 1, .priority = 1);
	int saved, ret;

	self->drop = loss_drop__open_and_load();
	if (!self->drop)
		return -1;
	hook.ifindex = kbt_ifindex(&self->m, "m1");
	opts.prog_fd = bpf_program__fd(self->drop->progs.loss_drop);
	if (kbt_ns_enter(&self->m, &saved))
		return -1;
	ret = bpf_tc_hook_create(&hook);
	if (!ret || ret == -EEXIST)
		ret = bpf_tc_attach(&hook, &opts);
	kbt_ns_leave(saved);
	return ret;
}

/* A digest on @ifname of @ns, pinned in @dir. */
static int ld_point(const struct kbt_ns *ns, const char *ifname,
		    const char *dir, __u32 action, struct kbloom_loss **lp)
{
	struct kbloom_loss_opts o = { .cells = LD_CELLS, .k = 4,
				      .seed = 0x10557, .action = action };
	int saved, ret, idx = kbt_ifindex(ns, ifname);

	if (kbt_ns_enter(ns, &saved))
		return -1;
	ret = kbloom_loss_attach(dir, idx, &o, lp);
	kbt_ns_leave(saved);
	return ret;
}

FIXTURE_SETUP(loss)
{
	char name[64];

	kbt_janitor();
	mkdir(KBLOOM_LOSS_PIN_ROOT, 0700);
	kbt_name(name, sizeof(name), "loss-up");
	snprintf(self->up_dir, sizeof(self->up_dir), "%s/%s",
		 KBLOOM_LOSS_PIN_ROOT, name);
	kbt_name(name, sizeof(name), "loss-down");
	snprintf(self->down_dir, sizeof(self->down_dir), "%s/%s",
		 KBLOOM_LOSS_PIN_ROOT, name);
	ASSERT_EQ(0, ld_net(self));
	ASSERT_EQ(0, ld_tc(self));
	ASSERT_EQ(0, ld_point(&self->m, "m0", self->up_dir, KBLOOM_LOSS_PASS,
			      &self->up));
	ASSERT_EQ(0, ld_point(&self->r, "r0", self->down_dir,
			      KBLOOM_LOSS_DROP, &self->down));
	self->tx = kbt_psock(&self->s, "s0");
	ASSERT_LE(0, self->tx);
}

FIXTURE_TEARDOWN(loss)
{
	if (self->tx > 0)
		close(self->tx);
	kbloom_loss_close(self->up);
	kbloom_loss_close(self->down);
	kbloom_loss_detach(self->up_dir);
	kbloom_loss_detach(self->down_dir);
	rmdir(KBLOOM_LOSS_PIN_ROOT);
	loss_drop__destroy(self->drop);
	kbt_ns_free(&self->s);
	kbt_ns_free(&self->m);
	kbt_ns_free(&self->r);
}

/*
 * Send every sequence; after each 64 frames wait a little, so that no
 * veth ring between the points overflows (that would be a real loss).
 */
static int ld_send(int fd)
{
	__u8 f[LD_FRAME];
	__u32 n;

	for (n = 0; n < LD_PACKETS; n++) {
		ld_frame(f, n);
		while (send(fd, f, LD_FRAME, 0) != LD_FRAME) {
			if (errno != EAGAIN && errno != ENOBUFS)
				return -errno;
			usleep(50);
		}
		if (n % 64 == 63)
			usleep(20);
	}
	return 0;
}

/* The entries are exactly the dropped sequences, each once. */
static int ld_check_list(struct __test_metadata *_metadata,
			 const struct kbloom_iblt_entry *e, size_t n)
{
	static char seen[LD_PACKETS / LD_LOST];
	struct kbloom_loss_key k;
	char text[128];
	__u32 seq;
	size_t i;

	memset(seen, 0, sizeof(seen));
	for (i = 0; i < n; i++) {
		if (e[i].sign != 1 || e[i].len != KBLOOM_LOSS_KEY_LEN ||
		    e[i].value != LD_FRAME - 14)
			return -1;
		memcpy(&k.proto, e[i].key, KBLOOM_LOSS_KEY_LEN);
		seq = (__u32)(ntohs(k.sport) - 10000) << 16 | ntohs(k.id);
		if (k.proto != IPPROTO_UDP || ntohs(k.dport) != 5000 ||
		    k.saddr != htonl(0x0a090101) ||
		    k.daddr != htonl(0x0a090201) || seq % 1000 != 999 ||
		    seq >= LD_PACKETS || seen[seq / 1000]++)
			return -1;
		if (i < 2 && !kbloom_loss_format(&e[i], text, sizeof(text)))
			TH_LOG("%s", text);
	}
	return n == LD_LOST ? 0 : -1;
}

TEST_F_TIMEOUT(loss, million_packets_thousand_lost, 600)
{
	struct kbloom_iblt_entry *e = calloc(2 * LD_LOST, sizeof(*e));
	struct kbloom_loss_stats su, sd;
	struct kbloom_iblt *a, *b;
	double t0 = kbt_now();
	size_t n;

	ASSERT_NE(NULL, e);
	ASSERT_EQ(0, ld_send(self->tx));
	usleep(200000);
	ASSERT_EQ(0, kbloom_loss_stats(self->up, &su));
	ASSERT_EQ(0, kbloom_loss_stats(self->down, &sd));
	TH_LOG("%u packets in %.1f s; up folded %llu, down folded %llu, dropped on purpose %llu",
	       LD_PACKETS, kbt_now() - t0, (unsigned long long)su.folded,
	       (unsigned long long)sd.folded,
	       (unsigned long long)self->drop->bss->dropped);
	EXPECT_EQ(LD_PACKETS, su.folded);
	EXPECT_EQ(LD_PACKETS - LD_LOST, sd.folded);
	EXPECT_EQ(LD_LOST, self->drop->bss->dropped);
	ASSERT_EQ(0, kbloom_loss_swap(self->up, &a));
	ASSERT_EQ(0, kbloom_loss_swap(self->down, &b));
	ASSERT_EQ(0, kbloom_iblt_subtract(a, b));
	ASSERT_EQ(0, kbloom_iblt_decode(a, e, 2 * LD_LOST, &n));
	TH_LOG("decoded %zu lost packets from %u cells", n, LD_CELLS);
	EXPECT_EQ(0, ld_check_list(_metadata, e, n));
	kbloom_iblt_destroy(a);
	kbloom_iblt_destroy(b);
	/* the next epoch: no traffic, nothing lost */
	ASSERT_EQ(0, kbloom_loss_swap(self->up, &a));
	ASSERT_EQ(0, kbloom_loss_swap(self->down, &b));
	ASSERT_EQ(0, kbloom_iblt_subtract(a, b));
	ASSERT_EQ(0, kbloom_iblt_decode(a, e, 2 * LD_LOST, &n));
	EXPECT_EQ(0, n);
	kbloom_iblt_destroy(a);
	kbloom_iblt_destroy(b);
	free(e);
}

TEST_F(loss, refused)
{
	struct kbloom_loss_opts o = { .cells = 100, .k = 4 };
	struct kbloom_loss *l = (void *)1;
	int idx = kbt_ifindex(&self->m, "m1");

	/* the pin directory exists */
	EXPECT_EQ(-EEXIST, kbloom_loss_attach(self->up_dir, idx, &o, &l));
	o.k = 9;
	EXPECT_EQ(-EINVAL, kbloom_loss_attach("/sys/fs/bpf/x", idx, &o, &l));
	o.k = 4;
	o.cells = 0;
	EXPECT_EQ(-EINVAL, kbloom_loss_attach("/sys/fs/bpf/x", idx, &o, &l));
	o.cells = KB_IBLT_CELLS_MAX;
	EXPECT_EQ(-EINVAL, kbloom_loss_attach("/sys/fs/bpf/x", idx, &o, &l));
	o.cells = 100;
	o.action = 2;
	EXPECT_EQ(-EINVAL, kbloom_loss_attach("/sys/fs/bpf/x", idx, &o, &l));
	EXPECT_EQ((void *)1, l);
	EXPECT_EQ(-ENOENT, kbloom_loss_open("/sys/fs/bpf/kbloom-none", &l));
	EXPECT_EQ((void *)1, l);
}

TEST_HARNESS_MAIN
