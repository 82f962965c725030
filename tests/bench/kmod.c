// SPDX-License-Identifier: GPL-2.0
/*
 * make bench BENCH=kmod (tests/bench/kmod.sh runs this in the qemu guest,
 * kbloom.ko loaded): KBLOOM_IOCTL_TEST throughput with batches of 1, 64
 * and 4096 keys against libkbloom testing the same keys in the same guest.
 *
 * A blocked filter of the module, planned for N keys at p = 1%, gets N
 * 16-byte keys through KBLOOM_IOCTL_ADD; its SAVEd image loads into a
 * libkbloom filter, so both hold the same bits.  The lookup set is L keys,
 * half of them inserted, shuffled.  For each batch size B:
 *
 *   module     one KBLOOM_IOCTL_TEST of B keys (with the result bitmap)
 *              after another over the lookup set;
 *   libkbloom  kbloom_test() per key for B = 1, kbloom_test_batch() of B
 *              keys otherwise, over the same set;
 *
 * and both must give the same answers.  Each figure is ns per key, the
 * median of REPS x L / CHUNK samples of CHUNK keys (CHUNK1 at B = 1),
 * the module and libkbloom taking turns on the same chunk, the process on
 * one vCPU.  The ratio of a batch size is the median over the samples of
 * the module's time over libkbloom's on the same chunk, one right after
 * the other (goal at B = 4096: at most 1.5): the guest's vCPU is a host
 * thread among other jobs, and periods in which it runs at a fraction of
 * a core slow whole stretches of samples; a pair sees the same period,
 * the medians of the two columns need not (the ratio of the two medians
 * is shown too).  Rows that explain the gap at B = 4096: libkbloom's scalar path,
 * the module's per-key code run in userspace (so without the system call
 * and the copies), the same with the hash specialised for 16-byte keys,
 * kbloom_test() per key, and a rep movsb of the batch (how the guest
 * kernel's copy_from_user() copies it in; qemu's TCG emulates it slowly).
 *
 * The guest is qemu under TCG (tests/vm/README.md): every instruction is
 * emulated, so the times are far above a real machine's, system calls
 * most of all; the ratios compare the two paths under the same emulation.
 *
 * Output: a table, "kmod TEST ioctl batch B time vs libkbloom: N.Nx" lines
 * and the figures as one JSON line after "KMOD-BENCH-JSON " (kmod.sh
 * stores it as build/bench-kmod.json).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sched.h>
#include <unistd.h>
#include <sys/utsname.h>

#include "libkbloom.h"
#include "libkbloom_dev.h"
#include "uapi/kbloom_hash.h"
#include "uapi/kbloom_layout.h"

#define N		(1U << 20)	/* keys in the filter */
#define L		(1U << 16)	/* lookups per round */
#define CHUNK		4096U		/* keys per sample */
#define CHUNK1		512U		/* keys per sample at B = 1 */
#define KEY_LEN		16U
#define P_PICO		10000000000ULL	/* 1% */
#define SEED		0x6b6d6f64ULL
#define REPS		9
#define NS		(REPS * (L / CHUNK))	/* samples per figure */
#define NAME		"kb.bench.kmod"
#define ADD_BATCH	4096U

static const __u32 batches[] = { 1, 64, 4096 };
#define NB	(sizeof(batches) / sizeof(batches[0]))

/* Rows that explain the gap at 4096 (ns per key). */
enum { X_LIB_SCALAR, X_MOD_LOOP, X_MOD_LOOP16, X_LIB_SINGLE, X_MOVSB, NX };
static const char *const x_label[NX] = {
	"libkbloom batch, scalar (KBLOOM_NO_SIMD=1)",
	"module's per-key code in userspace",
	" .. hash specialised for 16-byte keys",
	"libkbloom kbloom_test() per key",
	"rep movsb of the batch (copy_from_user's way)",
};
static const char *const x_json[NX] = {
	"lib_batch_scalar", "module_loop_userspace", "module_loop_len16",
	"lib_single", "rep_movsb_copy",
};

static __u8 *look;		/* L keys */
static struct kbloom_filter *lib_scalar;
static __u8 res_mod[L / 8], res_lib[L / 8];

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static __u64 mix(__u64 x)
{
	x += 0x9E3779B97F4A7C15ULL;
	x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
	x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
	return x ^ (x >> 31);
}

/* Key i of the inserted set (i < N) or of the absent set (i >= N). */
static void make_key(__u8 *k, __u64 i)
{
	__u64 a = mix(i), b = mix(i ^ 0x5a5a5a5a5a5a5a5aULL);

	memcpy(k, &a, 8);
	memcpy(k + 8, &b, 8);
}

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static int die(const char *what, int err)
{
	fprintf(stderr, "kmod bench: %s: %s\n", what, strerror(err < 0 ? -err : err));
	return 1;
}

/*
 * The module: keys [@off, @off + @count) in ioctls of @b keys.  ns per
 * key, or -errno.
 */
static double run_mod(int fd, __u32 b, __u32 off, __u32 count)
{
	struct kbloom_keys k;
	double t0 = now();
	__u32 i, end = off + count;
	int ret;

	for (i = off; i < end; i += b) {
		memset(&k, 0, sizeof(k));
		k.key_len = KEY_LEN;
		k.count = b;
		k.keys = (__u64)(unsigned long)(look + (size_t)i * KEY_LEN);
		k.keys_len = (__u64)b * KEY_LEN;
		/* byte-aligned: every batch size here is 1 or a multiple of 8 */
		k.results = b >= 8 ? (__u64)(unsigned long)(res_mod + i / 8) : 0;
		ret = kbloom_dev_keys(fd, KBLOOM_IOCTL_TEST, NAME, &k);
		if (ret)
			return ret;
		if (b < 8) {
			if (k.hits)
				res_mod[i / 8] |= 1U << (i % 8);
			else
				res_mod[i / 8] &= ~(1U << (i % 8));
		}
	}
	return (now() - t0) * 1e9 / count;
}

/* libkbloom on the same keys. */
static double run_lib(const struct kbloom_filter *f, __u32 b, __u32 off,
		      __u32 count)
{
	double t0 = now();
	__u32 i, end = off + count;
	long ret;

	for (i = off; i < end; i += b) {
		if (b == 1) {
			ret = kbloom_test(f, look + (size_t)i * KEY_LEN, KEY_LEN);
			if (ret > 0)
				res_lib[i / 8] |= 1U << (i % 8);
			else
				res_lib[i / 8] &= ~(1U << (i % 8));
		} else {
			ret = kbloom_test_batch(f, look + (size_t)i * KEY_LEN,
						(size_t)b * KEY_LEN, KEY_LEN, b,
						res_lib + i / 8);
		}
		if (ret < 0)
			return ret;
	}
	return (now() - t0) * 1e9 / count;
}

/*
 * What the module does per key (kmod/filter.c: kb_hash() with the hash id
 * and key length known only at run time, kb_block_mask(), eight compares),
 * here in userspace: the TEST ioctl without the system call and copies.
 * With @len16, the hash is specialised for 16-byte keys as libkbloom's
 * batch path does (a constant length: straight-line code).
 */
static __attribute__((noinline)) int scalar_test(const __u64 *words,
						 __u64 nblocks, __u32 hash_id,
						 __u64 seed, __u32 k,
						 const __u8 *key, __u32 len,
						 int len16)
{
	__u64 mask[KBLOOM_BLOCK_WORDS], h;
	const __u64 *b;
	__u32 i;

	h = len16 ? kb_hash(hash_id, seed, key, 16) :
		    kb_hash(hash_id, seed, key, len);
	b = words + (__u64)kb_block_index(h, nblocks) * KBLOOM_BLOCK_WORDS;
	kb_block_mask(h, k, mask);
	for (i = 0; i < KBLOOM_BLOCK_WORDS; i++)
		if ((__atomic_load_n(&b[i], __ATOMIC_RELAXED) & mask[i]) != mask[i])
			return 0;
	return 1;
}

static double run_scalar(const struct kbloom_filter *f, __u32 off,
			 __u32 count, int len16)
{
	struct kbloom_stats st;
	const __u64 *w = kbloom_words(f, NULL);
	volatile __u32 len = KEY_LEN;
	__u32 i, end = off + count;
	double t0;

	kbloom_stats(f, &st);
	t0 = now();
	for (i = off; i < end; i++)
		if (scalar_test(w, st.m / KBLOOM_BLOCK_BITS, st.hash_id, st.seed,
				st.k, look + (size_t)i * KEY_LEN, len, len16))
			res_lib[i / 8] |= 1U << (i % 8);
		else
			res_lib[i / 8] &= ~(1U << (i % 8));
	return (now() - t0) * 1e9 / count;
}

/*
 * Copy the @count keys at @off with rep movsb, as the kernel's
 * copy_from_user() does on a CPU with FSRM (qemu's -cpu max has it);
 * ns per key.
 */
static double run_movsb(__u32 off, __u32 count)
{
	static __u8 dst[CHUNK * KEY_LEN];
	const void *s = look + (size_t)off * KEY_LEN;
	void *d = dst;
	size_t n = (size_t)count * KEY_LEN;
	double t0 = now();

	asm volatile("rep movsb" : "+D"(d), "+S"(s), "+c"(n) : : "memory");
	return (now() - t0) * 1e9 / count;
}

/* Fill the module's filter, load its image into libkbloom. */
static int setup(int fd, struct kbloom_create *c, struct kbloom_filter **lib)
{
	struct kbloom_dev_batch res = { .max_keys = ADD_BATCH };
	__u8 *keys;
	void *img = NULL;
	size_t img_len;
	__u64 i, j;
	int ret;

	kbloom_dev_destroy(fd, NAME);
	memset(c, 0, sizeof(*c));
	snprintf(c->name, sizeof(c->name), "%s", NAME);
	c->flags = KBLOOM_CREATE_SEED;
	c->type = KBLOOM_TYPE_BLOCKED;
	c->hash_id = KBLOOM_HASH_FAST;
	c->capacity = N;
	c->fpr_pico = P_PICO;
	c->seed = SEED;
	ret = kbloom_dev_create(fd, c);
	if (ret)
		return die("KBLOOM_IOCTL_CREATE", ret);
	keys = malloc((size_t)N * KEY_LEN);
	if (!keys)
		return die("malloc", ENOMEM);
	for (i = 0; i < N; i++)
		make_key(keys + i * KEY_LEN, i);
	ret = kbloom_dev_add_batch(fd, NAME, keys, (size_t)N * KEY_LEN, KEY_LEN,
				   N, &res);
	free(keys);
	if (ret)
		return die("KBLOOM_IOCTL_ADD", ret);
	ret = kbloom_dev_save_alloc(fd, NAME, &img, &img_len);
	if (ret)
		return die("KBLOOM_IOCTL_SAVE", ret);
	ret = kbloom_load(img, img_len, lib);
	if (!ret) {
		/* the same filter on libkbloom's scalar path */
		setenv("KBLOOM_NO_SIMD", "1", 1);
		ret = kbloom_load(img, img_len, &lib_scalar);
		unsetenv("KBLOOM_NO_SIMD");
	}
	free(img);
	if (ret)
		return die("kbloom_load of the module's image", ret);

	/* L lookups, half inserted keys, shuffled */
	look = malloc((size_t)L * KEY_LEN);
	if (!look)
		return die("malloc", ENOMEM);
	for (i = 0; i < L; i++)
		make_key(look + i * KEY_LEN, i & 1 ? N + i : mix(i) % N);
	for (i = L - 1; i > 0; i--) {
		__u8 tmp[KEY_LEN];

		j = mix(i + 77) % (i + 1);
		memcpy(tmp, look + i * KEY_LEN, KEY_LEN);
		memcpy(look + i * KEY_LEN, look + j * KEY_LEN, KEY_LEN);
		memcpy(look + j * KEY_LEN, tmp, KEY_LEN);
	}
	return 0;
}

static double median(double *v, int n)
{
	qsort(v, n, sizeof(double), cmp_dbl);
	return v[n / 2];
}

int main(void)
{
	static double mod[NB][NS], lib[NB][NS], pair[NB][NS], xs[NX][NS];
	double med_mod[NB], med_lib[NB], med_pair[NB], med_x[NX];
	struct kbloom_filter *f = NULL;
	struct kbloom_create c;
	struct utsname u;
	double t0 = now(), v;
	__u32 bi, off, count, hits;
	int fd, rep, ret = 1, i, ch, s = 0;
	cpu_set_t set;

	/* one vCPU: no migration between the guest's CPUs mid-sample */
	CPU_ZERO(&set);
	CPU_SET(0, &set);
	sched_setaffinity(0, sizeof(set), &set);
	fd = kbloom_dev_open(NULL);
	if (fd < 0)
		return die("open /dev/kbloom (kbloom.ko loaded?)", fd);
	if (setup(fd, &c, &f))
		goto out;

	/*
	 * Samples of CHUNK keys (CHUNK1 at B = 1), the module and libkbloom
	 * in turn on the same chunk: a host hiccup (the guest is one of many
	 * jobs) spoils a few samples, not a whole figure.
	 */
	for (rep = 0; rep < REPS; rep++) {
		for (ch = 0; ch < (int)(L / CHUNK); ch++, s++) {
			for (bi = 0; bi < NB; bi++) {
				off = ch * CHUNK;
				count = batches[bi] == 1 ? CHUNK1 : CHUNK;
				for (i = 0; i < 2; i++) {
					if ((i ^ s) & 1)
						v = mod[bi][s] = run_mod(fd, batches[bi], off, count);
					else
						v = lib[bi][s] = run_lib(f, batches[bi], off, count);
					if (v < 0) {
						die((i ^ s) & 1 ? "KBLOOM_IOCTL_TEST" : "kbloom_test",
						    (int)v);
						goto out;
					}
				}
				pair[bi][s] = mod[bi][s] / lib[bi][s];
				if (memcmp(res_mod + off / 8, res_lib + off / 8, count / 8)) {
					fprintf(stderr, "kmod bench: the module and libkbloom answer differently (batch %u)\n",
						batches[bi]);
					goto out;
				}
			}
			/* the rows that explain batch 4096, on the same chunk */
			xs[X_LIB_SCALAR][s] = run_lib(lib_scalar, 4096, off, CHUNK);
			xs[X_MOD_LOOP][s] = run_scalar(f, off, CHUNK, 0);
			if (memcmp(res_mod + off / 8, res_lib + off / 8, CHUNK / 8)) {
				fprintf(stderr, "kmod bench: the module's loop in userspace answers differently\n");
				goto out;
			}
			xs[X_MOD_LOOP16][s] = run_scalar(f, off, CHUNK, 1);
			xs[X_LIB_SINGLE][s] = run_lib(f, 1, off, CHUNK1);
			xs[X_MOVSB][s] = run_movsb(off, CHUNK);
		}
	}
	for (i = 0; i < NX; i++)
		med_x[i] = median(xs[i], NS);
	hits = 0;
	for (i = 0; i < (int)(L / 8); i++)
		hits += __builtin_popcount(res_mod[i]);
	for (bi = 0; bi < NB; bi++) {
		med_mod[bi] = median(mod[bi], NS);
		med_lib[bi] = median(lib[bi], NS);
		med_pair[bi] = median(pair[bi], NS);
	}

	uname(&u);
	printf("kmod: KBLOOM_IOCTL_TEST vs libkbloom in the qemu guest (TCG, Linux %s)\n",
	       u.release);
	printf("  blocked filter m = %llu bits (%.2f MiB), k = %u, N = %u keys of %u bytes;"
	       " %u lookups, half inserted (%u hits), %d times;\n",
	       (unsigned long long)c.m, c.m / 8.0 / (1 << 20), c.k, N, KEY_LEN,
	       L, hits, REPS);
	printf("  ns per key, median of %d samples of %u keys (%u at batch 1)\n",
	       NS, CHUNK, CHUNK1);
	printf("  %-10s %14s %14s %14s %12s\n", "batch", "ioctl ns/key", "lib ns/key",
	       "ratio of meds", "ratio");
	for (bi = 0; bi < NB; bi++)
		printf("  %-10u %14.0f %14.0f %13.2fx %11.2fx%s\n", batches[bi], med_mod[bi],
		       med_lib[bi], med_mod[bi] / med_lib[bi], med_pair[bi],
		       batches[bi] == 4096 ?
		       (med_pair[bi] <= 1.5 ? "  goal <= 1.5x met" :
			"  goal <= 1.5x MISSED") : "");
	printf("  explaining batch 4096 (ns/key, same chunks):\n");
	for (i = 0; i < NX; i++)
		printf("    %-44s %8.0f\n", x_label[i], med_x[i]);
	for (bi = 0; bi < NB; bi++)
		printf("kmod TEST ioctl batch %u time vs libkbloom: %.2fx\n",
		       batches[bi], med_pair[bi]);
	printf("KMOD-BENCH-JSON {\"n\": %u, \"p\": 0.01, \"key_bytes\": %u, \"m\": %llu, \"k\": %u, \"lookups\": %u, \"sample_keys\": %u, \"sample_keys_batch_1\": %u, \"reps\": %d, \"samples\": %d, \"statistic\": \"median\", \"unit\": \"ns per key\", \"machine\": \"qemu TCG guest, Linux %s\", \"batches\": {",
	       N, KEY_LEN, (unsigned long long)c.m, c.k, L, CHUNK, CHUNK1, REPS, NS,
	       u.release);
	for (bi = 0; bi < NB; bi++)
		printf("%s\"%u\": {\"ioctl\": %.1f, \"libkbloom\": %.1f, \"ratio\": %.3f, \"paired_ratio\": %.3f}",
		       bi ? ", " : "", batches[bi], med_mod[bi], med_lib[bi],
		       med_mod[bi] / med_lib[bi], med_pair[bi]);
	printf("}, \"explain_4096\": {");
	for (i = 0; i < NX; i++)
		printf("%s\"%s\": %.1f", i ? ", " : "", x_json[i], med_x[i]);
	printf("}, \"goal\": {\"batch\": 4096, \"paired_ratio\": \"<= 1.5\", \"met\": %s}}\n",
	       med_pair[NB - 1] <= 1.5 ? "true" : "false");
	printf("kmod bench: %.0f s in the guest\n", now() - t0);
	ret = 0;
out:
	kbloom_dev_destroy(fd, NAME);
	kbloom_dev_close(fd);
	kbloom_destroy(f);
	kbloom_destroy(lib_scalar);
	free(look);
	return ret;
}
