/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * libkbloom_exp: the emulation, shared by its files.
 *
 * The experiment's topology becomes network namespaces (one per switch
 * and per host, held by file descriptors, so that they vanish with the
 * process) joined by veth pairs (created over rtnetlink: a switch's
 * local port p is "p<p>", a host's link "eth0"), and each scheme's XDP
 * data path is loaded on it from the state the model computed:
 *
 *   blocked    the mcast path (libkbloom_xdp.h): per switch an instance,
 *              per port a blocked filter of the port's geometry (m, k,
 *              seed) joined to the port's groups; hosts run XDP_PASS;
 *   mcbf       the mcbf path (libkbloom_xdp_net.h): per port the MC-BF of
 *              the port's class table, built from its groups;
 *   lipsin1,   the ipbf path: per node (hosts too) an instance with the
 *   lipsin8,   link IDs of the control plane; the source applies its own
 *   msbf       forwarding step (kbloom_ipbf_source_step()) and sends;
 *   exact      no data path holds exact tables: the mcast path with 2^20-bit
 *              filters stands for them (the model side is the exact
 *              tables: any false positive of those filters shows up as a
 *              disagreement);
 *   standard   no data path holds standard per-port filters: not emulated.
 *
 * Each packet of the model is then sent from its source host through an
 * AF_PACKET socket, one at a time: when the counters of every switch port
 * have stopped moving, the per-port transmissions of that packet
 * (tx_forwarded deltas) and the hosts that received it (the packet
 * sockets of the hosts) are compared with the model's trace of the same
 * packet, and its leaked transmissions (on ports outside its tree, the
 * tree of the control plane) are counted on both sides.  A packet the
 * model says loops forever (a cycle of false positives on a path with no
 * hop limit) is not sent.
 *
 * The files, bottom up (each calls only the ones above it):
 *   emu_ns.c       network namespaces, veth pairs over rtnetlink
 *   emu_fabric.c   the topology as namespaces, veth links and host sockets
 *   emu_path.c     the data paths' instances, their counters
 *   emu_filters.c  the per-port filters of the mcast and mcbf paths
 *   emu_frame.c    the frames a source host sends
 *   emu_packet.c   one packet: sent, measured, compared with the model
 *   emu_run.c      a scheme's run, the emulation
 *   emu_out.c      the agreement table and CSV
 */
#ifndef _KBLOOM_EMU_INT_H
#define _KBLOOM_EMU_INT_H

#include <stdarg.h>
#include <stdio.h>

#include "libkbloom_exp.h"
#include "libkbloom_xdp.h"
#include "libkbloom_xdp_net.h"
#include "exp_int.h"

#define EMU_SW_MAX	64U
#define EMU_PORTS_MAX	60U
#define EMU_HOSTS_MAX	256U
#define EMU_EXACT_BITS	(1ULL << 20)
#define EMU_MAGIC	0x4b424558U	/* "KBEX" */
#define EMU_FRAME_MAX	1514U
#define EMU_SETTLE_US	300
#define EMU_WAIT_S	2.0

enum emu_path {
	PATH_NONE = 0,
	PATH_MCAST,
	PATH_MCBF,
	PATH_IPBF,
};

struct emu_payload {
	__u32 magic;
	__u16 scheme;
	__u16 index;
	__u32 group;
	__u32 seq;
};

struct emu {
	struct kb_exp *x;
	const struct kb_topo *t;
	const struct kb_exp_emu_opts *o;
	char root[96];			/* pin root of this run */
	int *nsfd;			/* per node */
	char (*nspath)[48];
	int *ifindex;			/* per global port, in its node's ns */
	int *rx;			/* per node (hosts): AF_PACKET socket */
	int *pass;			/* per node (hosts): XDP_PASS link fd */
	enum emu_path path;
	struct kbloom_xdp **mx;		/* per node: mcast instances */
	struct kbloom_net **nx;		/* per node: mcbf, ipbf instances */
	__u64 *before;			/* per port: counters */
	__u64 *after;
	__u64 *leak_before;
	__u64 *leak_after;
	__u32 *model_cnt;		/* per port: this packet, the model */
	__u32 *host_model;		/* per node: arrivals, the model */
	__u32 *host_emu;
	__u32 seq;
	__u32 members;			/* sum of the ports' groups */
	FILE *log;
};

__attribute__((format(printf, 2, 3)))
static inline void emu_log(struct emu *e, const char *fmt, ...)
{
	va_list ap;

	if (!e->log)
		return;
	va_start(ap, fmt);
	fprintf(e->log, "# ");
	vfprintf(e->log, fmt, ap);
	fputc('\n', e->log);
	va_end(ap);
}

/* emu_ns.c */
int emu_ns_enter(int fd, int *saved);
void emu_ns_leave(int saved);
int emu_ns_new(int *fdp);
int emu_nl_veth(int nsa, const char *a, const __u8 *ma, int nsb,
		const char *b, const __u8 *mb);
int emu_nl_up(int ns, int ifindex);
int emu_if_index_in(int ns, const char *name);

/* emu_fabric.c */
void emu_port_mac(__u32 port, __u8 mac[6]);
int emu_fabric_up(struct emu *e);
void emu_fabric_down(struct emu *e);

/* emu_path.c */
enum emu_path emu_path_of(__u32 scheme);
void emu_path_down(struct emu *e);
int emu_hosts_pass(struct emu *e);
int emu_create_all(struct emu *e, enum emu_path path);
int emu_counters(struct emu *e, __u64 *tx, __u64 *leak);

/* emu_filters.c */
int emu_mcast_resize(struct emu *e, struct kb_exp_state *s);
int emu_mcast_up(struct emu *e, struct kb_exp_state *s);
int emu_mcbf_up(struct emu *e, struct kb_exp_state *s);

/* emu_frame.c */
int emu_build_frame(struct emu *e, __u32 scheme, __u32 g, __u32 idx,
		    const struct kb_exp_pkt *pk, __u8 *f);
int emu_send_frame(struct emu *e, __u32 src, const __u8 *f, size_t len);

/* emu_packet.c */
int emu_run_packets(struct emu *e, struct kb_exp_state *ms, __u32 scheme,
		    struct kb_exp_emu_result *r);

#endif /* _KBLOOM_EMU_INT_H */
