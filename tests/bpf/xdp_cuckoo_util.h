/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the cuckoo gate tests share (tests/bpf/xdp_cuckoo.c on the host,
 * tests/kmod/xdp_cuckoo_test.c in the guest): a gate instance of the
 * cuckoo variant with the probe program (xdp_cuckoo.bpf.c) loaded on its
 * maps, the probe's answer on a key, and the test keys.
 */
#ifndef KBT_XDP_CUCKOO_UTIL_H
#define KBT_XDP_CUCKOO_UTIL_H

#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "libkbloom_xdp.h"
#include "tests/bpf/xdp_cuckoo.skel.h"
#include "tests/bpf/xdp_cuckoo_batch.h"
#include "tests/bpf/xdp_util.h"

/* A gate of the cuckoo variant and the probe sharing its maps. */
struct ckt_gate {
	struct kbloom_xdp *x;
	struct xdp_cuckoo *probe;
	int fd;			/* the probe program */
	int batch_fd;		/* the batch probe */
};

static inline int ckt_reuse(struct ckt_gate *g, struct bpf_map *map,
			    const char *pin)
{
	char p[512];
	int fd, ret;

	snprintf(p, sizeof(p), "%s/%s", kbloom_xdp_dir(g->x), pin);
	fd = bpf_obj_get(p);
	if (fd < 0)
		return -errno;
	ret = bpf_map__reuse_fd(map, fd);
	close(fd);
	return ret;
}

/* Make gate @name with @o (its variant set to cuckoo), load the probe. */
static inline int ckt_gate_make(struct ckt_gate *g, const char *name,
				struct kbloom_xdp_opts *o)
{
	int ret;

	memset(g, 0, sizeof(*g));
	o->variant = KBLOOM_XDP_VARIANT_CUCKOO;
	ret = kbloom_xdp_create(name, KBLOOM_XDP_GATE, o, &g->x);
	if (ret)
		return ret;
	g->probe = xdp_cuckoo__open();
	if (!g->probe)
		return -errno;
	ret = ckt_reuse(g, g->probe->maps.probe_cuckoo, "gate_cuckoo");
	ret = ret ?: ckt_reuse(g, g->probe->maps.probe_filters,
			       "gate_filters");
	ret = ret ?: ckt_reuse(g, g->probe->maps.probe_cseq, "gate_cseq");
	ret = ret ?: xdp_cuckoo__load(g->probe);
	if (ret)
		return ret;
	g->fd = bpf_program__fd(g->probe->progs.kbloom_cuckoo_probe);
	g->batch_fd = bpf_program__fd(g->probe->progs.kbloom_cuckoo_probe_batch);
	return 0;
}

static inline void ckt_gate_free(struct ckt_gate *g)
{
	if (g->probe)
		xdp_cuckoo__destroy(g->probe);
	if (g->x)
		kbloom_xdp_close(g->x);
	memset(g, 0, sizeof(*g));
}

/* The probe's answer on a key of 4 or 16 bytes: 1, 0, or -1 (error). */
static inline int ckt_probe(int fd, const __u8 *key, __u32 len)
{
	__u8 frame[32] = {};
	__u32 rv;

	frame[0] = (__u8)len;
	memcpy(frame + 1, key, len);
	if (kbt_run(fd, frame, sizeof(frame), 0, &rv))
		return -1;
	if (rv == XDP_PASS)
		return 1;
	return rv == XDP_DROP ? 0 : -1;
}

/*
 * The probe's answers on @n keys (at most CKT_BATCH) of @len bytes (4 or
 * 16), @keys 16 bytes apart, in one run of the batch probe @fd: 1 or 0 in
 * @v[i]; 0, or -1 on an error.
 */
static inline int ckt_probe_batch(int fd, const __u8 *keys, __u32 n,
				  __u32 len, __u8 *v)
{
	static __u8 frame[CKT_BATCH_FRAME];

	LIBBPF_OPTS(bpf_test_run_opts, o,
		.data_in = frame,
		.data_size_in = sizeof(frame),
		.data_out = frame,
		.data_size_out = sizeof(frame),
		.repeat = 1,
	);

	if (n > CKT_BATCH)
		return -1;
	memset(frame, 0, sizeof(frame));
	frame[0] = (__u8)len;
	frame[1] = (__u8)n;
	memcpy(frame + CKT_BATCH_KEYS, keys, (size_t)n * CKT_BATCH_STRIDE);
	if (bpf_prog_test_run_opts(fd, &o) || o.retval != XDP_PASS ||
	    o.data_size_out != sizeof(frame))
		return -1;
	memcpy(v, frame + CKT_BATCH_VERDICTS, n);
	return 0;
}

/* Key @i of stream @s: 16 bytes. */
static inline void ckt_key(__u64 s, __u64 i, __u8 key[16])
{
	__u64 r = s * 0x100000000ULL + i, a = kbt_rand(&r), b = kbt_rand(&r);

	memcpy(key, &a, 8);
	memcpy(key + 8, &b, 8);
}

#endif /* KBT_XDP_CUCKOO_UTIL_H */
