// SPDX-License-Identifier: GPL-2.0
/*
 * make bench BENCH=kfunc (tests/bench/kfunc.sh runs this in the qemu guest,
 * kbloom.ko loaded): the XDP lookup of a kbloom.ko filter through its
 * kfuncs against the map-backed blocked filter of the XDP paths
 * (bpf/kbloom_bpf.h) and against BPF_MAP_TYPE_BLOOM_FILTER, on the same
 * keys.
 *
 * One blocked filter of the module, planned for N keys at p = 1%, gets N
 * 16-byte keys through KBLOOM_IOCTL_ADD; its SAVEd image fills the blocks
 * map of the map-backed filter, so both hold the same bits (and give the
 * same answers: checked).  The kernel's bloom map gets the same N keys
 * with the same k.  The programs (tests/kmod/kfunc_bench.bpf.c) look up
 * NKEYS keys in turn, half of them inserted, one per run; each figure is
 * the in-kernel time per run of BPF_PROG_TEST_RUN with repeat, median of
 * REPS rounds in which the programs alternate (bench_kget, the name lookup
 * and reference alone, shows what the kfunc path spends before its test).
 * bench_base, the key fetch
 * alone, is subtracted to give the time of the lookup itself; the ratios
 * compare lookups: "kfunc lookup vs X: R" is time(X) / time(kfunc), above
 * 1 when the kfunc is faster.
 *
 * Output: a table, the lines "kfunc lookup vs map-backed: N.Nx" and
 * "kfunc lookup vs BPF_MAP_TYPE_BLOOM_FILTER: N.Nx", and the figures as
 * one JSON line after "KFUNC-BENCH-JSON " (the guest cannot write the
 * host's build/; kfunc.sh stores it as build/bench-kfunc.json).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/utsname.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "kmod/kmod_util.h"
#include "uapi/kbloom_kfunc.h"
#include "uapi/kbloom_xdp_maps.h"
#include "uapi/kbloom_image.h"
#include "tests/kmod/kfunc_bench.skel.h"

#define N		10000U
#define NKEYS		4096U		/* as in kfunc_bench.bpf.c */
#define P_PICO		10000000000ULL	/* 1% */
#define REPS		21
#define NAME		"kb.bench"

enum { P_BASE, P_KFUNC, P_MAP, P_BLOOM, P_KGET, P_KID, P_KREF, P_KREFH, NPROG };

static const char *const prog_name[NPROG] = {
	"key fetch (base)", "kfunc get+test+put", "map-backed blocked",
	"BPF_MAP_TYPE_BLOOM_FILTER", "kfunc get+put only", "kfunc test by id",
	"kfunc gate (ref array + id)", "kfunc port (ref hash + id)",
};
static const char *const json_name[NPROG] = {
	"base", "kfunc", "map_backed", "bloom_map", "kfunc_get_put", "kfunc_id",
	"kfunc_gate_ref", "kfunc_port_ref",
};

static int die(const char *what, int err)
{
	fprintf(stderr, "kfunc bench: %s: %s\n", what, strerror(err < 0 ? -err : err));
	return 1;
}

static int cmp_u32(const void *a, const void *b)
{
	__u32 x = *(const __u32 *)a, y = *(const __u32 *)b;

	return x < y ? -1 : x > y;
}

/* Average ns per run over @repeat runs, or 0 on failure. */
static __u32 time_prog(const struct bpf_program *p, __u32 repeat)
{
	__u8 frame[64] = {};
	LIBBPF_OPTS(bpf_test_run_opts, o,
		.data_in = frame,
		.data_size_in = sizeof(frame),
		.repeat = repeat,
	);

	if (bpf_prog_test_run_opts(bpf_program__fd(p), &o))
		return 0;
	return o.duration;
}

/* Blocked filter parameters and blocks for the map-backed program. */
static int fill_map_filter(struct kfunc_bench *skel, const void *img)
{
	const struct kbloom_image_hdr *h = img;
	const __u8 *payload = (const __u8 *)img + KBLOOM_IMAGE_HDR_LEN;
	LIBBPF_OPTS(bpf_map_create_opts, mo,
		.map_flags = BPF_F_MMAPABLE | BPF_F_INNER_MAP,
	);
	struct kbloom_params p = {
		.type = KBLOOM_TYPE_BLOCKED,
		.version = KBLOOM_XDP_LAYOUT_VERSION,
		.k = h->k,
		.hash_id = h->hash_id,
		.seed = h->seed,
		.nblocks = h->m / KBLOOM_BLOCK_BITS,
	};
	struct btf *btf = bpf_object__btf(skel->obj);
	__u32 i, zero = 0;
	int fd, ret;

	/*
	 * With the BTF of struct kbloom_block, as the template of the
	 * filter table: 6.1 compares the maps' timer_off, which a map
	 * without BTF has at another "none" value.
	 */
	ret = btf__find_by_name_kind(btf, "kbloom_block", BTF_KIND_STRUCT);
	if (ret < 0)
		return ret;
	mo.btf_fd = btf__fd(btf);
	mo.btf_value_type_id = ret;
	mo.btf_key_type_id = bpf_map__btf_key_type_id(skel->maps.params);
	fd = bpf_map_create(BPF_MAP_TYPE_ARRAY, "kb_bench_blocks", 4,
			    KBLOOM_BLOCK_BYTES, p.nblocks, &mo);
	if (fd < 0)
		return -errno;
	for (i = 0; i < p.nblocks; i++) {
		ret = bpf_map_update_elem(fd, &i, payload + 64ULL * i, 0);
		if (ret)
			goto out;
	}
	ret = bpf_map__update_elem(skel->maps.filters, &zero, 4, &fd, 4, 0);
	ret = ret ?: bpf_map__update_elem(skel->maps.params, &zero, 4, &p,
					  sizeof(p), 0);
out:
	close(fd);
	return ret ? -errno : 0;
}

/* time(@other) / time(@of): above 1 when @of is faster */
static double ratio_of(const double *net, int of, int other)
{
	return net[of] > 0 ? net[other] / net[of] : 0;
}

static double ratio(const double *net, int other)
{
	return ratio_of(net, P_KFUNC, other);
}

int main(void)
{
	static __u8 ins[N * 16], look[NKEYS * 16];
	__u32 t[NPROG][REPS], repeat = 5000, i, r, zero = 0;
	double med[NPROG], net[NPROG];
	struct kbloom_kfunc_ref ref = {};
	struct kbloom_create c;
	struct kfunc_bench *skel;
	__u64 s = 0x6b6662, img_len = 0, hits[NPROG];
	struct utsname u;
	void *img = NULL;
	int fd, ret, p;

	fd = ku_open();
	if (fd < 0)
		return die(KBLOOM_DEVICE " (kbloom.ko loaded?)", errno);
	ku_destroy(fd, NAME);
	ret = ku_create_np(fd, NAME, KBLOOM_TYPE_BLOCKED, N, P_PICO, &c);
	if (ret)
		return die("create", ret);
	ku_keys16(ins, 1, 0, N);
	ret = ku_keys(fd, KBLOOM_IOCTL_ADD, NAME, ins, sizeof(ins), 16, N,
		      NULL, NULL, NULL);
	if (ret)
		return die("add", ret);
	ret = ku_save(fd, NAME, &img, &img_len);
	if (ret)
		return die("save", ret);
	/* half inserted keys, half others, shuffled */
	for (i = 0; i < NKEYS; i++) {
		if (i & 1)
			ku_key16(look + 16 * i, 2, i);
		else
			memcpy(look + 16 * i, ins + 16 * ku_rand_below(&s, N), 16);
	}

	skel = kfunc_bench__open();
	if (!skel)
		return die("open the programs", errno);
	bpf_map__set_max_entries(skel->maps.bloom, N);
	bpf_map__set_map_extra(skel->maps.bloom, c.k < 15 ? c.k : 15);
	ret = kfunc_bench__load(skel);
	if (ret)
		return die("load the programs (module BTF?)", ret);
	memcpy(skel->bss->filter_name, NAME, sizeof(NAME));
	skel->bss->filter_id = c.id;
	memcpy(ref.name, NAME, sizeof(NAME));
	ref.id = c.id;
	ret = bpf_map__update_elem(skel->maps.kref, &zero, 4, &ref, sizeof(ref),
				   0);
	ret = ret ?: bpf_map__update_elem(skel->maps.krefh, &zero, 4, &ref,
					  sizeof(ref), 0);
	if (ret)
		return die("reference map", ret);
	for (i = 0; i < NKEYS; i++) {
		ret = bpf_map__update_elem(skel->maps.keys, &i, 4, look + 16 * i,
					   16, 0);
		if (ret)
			return die("keys map", ret);
	}
	for (i = 0; i < N; i++) {
		ret = bpf_map__update_elem(skel->maps.bloom, NULL, 0, ins + 16 * i,
					   16, 0);
		if (ret)
			return die("bloom map", ret);
	}
	ret = fill_map_filter(skel, img);
	if (ret)
		return die("map-backed filter", ret);

	struct bpf_program *progs[NPROG] = {
		skel->progs.bench_base, skel->progs.bench_kfunc,
		skel->progs.bench_map, skel->progs.bench_bloom,
		skel->progs.bench_kget, skel->progs.bench_kid,
		skel->progs.bench_kref, skel->progs.bench_krefh,
	};

	/* answers: each program once over the NKEYS keys */
	for (p = 0; p < NPROG; p++) {
		skel->bss->cursor = 0;
		if (!time_prog(progs[p], NKEYS))
			return die(prog_name[p], errno);
	}
	memcpy(hits, (const void *)skel->bss->hits, sizeof(hits));
	if (hits[P_KFUNC] != hits[P_MAP] || hits[P_KID] != hits[P_MAP] ||
	    hits[P_KREF] != hits[P_MAP] || hits[P_KREFH] != hits[P_MAP] ||
	    hits[P_KFUNC] < NKEYS / 2 ||
	    hits[P_BLOOM] < NKEYS / 2) {
		fprintf(stderr, "kfunc bench: answers differ: kfunc %llu, map-backed %llu, bloom map %llu of %u (%u inserted)\n",
			(unsigned long long)hits[P_KFUNC],
			(unsigned long long)hits[P_MAP],
			(unsigned long long)hits[P_BLOOM], NKEYS, NKEYS / 2);
		return 1;
	}

	/* warm up, then REPS rounds of the programs in turn */
	for (p = 0; p < NPROG; p++)
		time_prog(progs[p], repeat / 10);
	for (r = 0; r < REPS; r++)
		for (p = 0; p < NPROG; p++) {
			t[p][r] = time_prog(progs[p], repeat);
			if (!t[p][r])
				return die(prog_name[p], errno);
		}
	for (p = 0; p < NPROG; p++) {
		qsort(t[p], REPS, sizeof(t[p][0]), cmp_u32);
		med[p] = t[p][REPS / 2];
		net[p] = med[p] - med[P_BASE];
		if (p != P_BASE && net[p] <= 0)
			net[p] = med[p];
	}

	uname(&u);
	printf("kfunc: blocked filter m = %llu bits, k = %u, %u keys of 16 bytes; %u lookups per run set, half inserted\n",
	       (unsigned long long)c.m, c.k, N, NKEYS);
	printf("  BPF_PROG_TEST_RUN repeat %u, median of %d, ns per run (%s %s)\n",
	       repeat, REPS, u.sysname, u.release);
	printf("  %-28s %10s %10s %8s\n", "program", "ns/run", "lookup ns", "hits");
	for (p = 0; p < NPROG; p++)
		printf("  %-28s %10.0f %10.0f %8llu\n", prog_name[p], med[p],
		       p == P_BASE ? 0 : net[p], (unsigned long long)hits[p]);
	printf("kfunc lookup vs map-backed: %.1fx\n", ratio(net, P_MAP));
	printf("kfunc lookup vs BPF_MAP_TYPE_BLOOM_FILTER: %.1fx\n",
	       ratio(net, P_BLOOM));
	printf("kfunc lookup by id vs map-backed: %.2fx\n",
	       ratio_of(net, P_KID, P_MAP));
	printf("kfunc lookup by id vs by name: %.2fx\n",
	       ratio_of(net, P_KID, P_KFUNC));
	printf("kfunc gate lookup (reference array + id) vs map-backed: %.2fx\n",
	       ratio_of(net, P_KREF, P_MAP));
	printf("kfunc port lookup (reference hash + id) vs map-backed: %.2fx\n",
	       ratio_of(net, P_KREFH, P_MAP));

	printf("KFUNC-BENCH-JSON {\"n\": %u, \"p\": 0.01, \"key_bytes\": 16, \"lookups\": %u, \"m\": %llu, \"k\": %u, \"reps\": %d, \"repeat\": %u, \"statistic\": \"median\", \"unit\": \"ns per run\", \"machine\": \"qemu guest %s %s\", \"ns_per_run\": {",
	       N, NKEYS, (unsigned long long)c.m, c.k, REPS, repeat, u.sysname,
	       u.release);
	for (p = 0; p < NPROG; p++)
		printf("%s\"%s\": %.0f", p ? ", " : "", json_name[p], med[p]);
	printf("}, \"lookup_ns\": {");
	for (p = 1; p < NPROG; p++)
		printf("%s\"%s\": %.0f", p > 1 ? ", " : "", json_name[p], net[p]);
	printf("}, \"ratios\": {\"kfunc_vs_map_backed\": %.2f, \"kfunc_vs_bloom_map\": %.2f, \"kfunc_id_vs_map_backed\": %.2f, \"kfunc_gate_ref_vs_map_backed\": %.2f, \"kfunc_port_ref_vs_map_backed\": %.2f}}\n",
	       ratio(net, P_MAP), ratio(net, P_BLOOM),
	       ratio_of(net, P_KID, P_MAP), ratio_of(net, P_KREF, P_MAP),
	       ratio_of(net, P_KREFH, P_MAP));

	kfunc_bench__destroy(skel);
	ku_destroy(fd, NAME);
	free(img);
	close(fd);
	return 0;
}
