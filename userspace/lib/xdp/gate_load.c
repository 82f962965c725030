// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom XDP instances: a gate's new addresses into its exact map by
 * the loader program (bpf/kbloom_gate_load.bpf.c, a syscall program run
 * with BPF_PROG_TEST_RUN).  The addresses go, KBLOOM_GATE_LOAD_SLOTS at
 * a time, into its mmapped array gl_keys; the program enters them with
 * BPF_NOEXIST, so the map itself finds an address it has or that the
 * batch has twice, and flags each one it entered.  A large share is run
 * by two threads, half each (the hash map's buckets have their own
 * locks; its inserts are cache misses).  Against BPF_MAP_UPDATE_BATCH
 * this saves the copy and check of every key and value from user memory,
 * and the set read before the batch to find duplicates.  With the
 * environment variable KBLOOM_GATE_NO_LOADER set (tests), the batch
 * updates are used instead.
 */
#include <errno.h>
#include <stdlib.h>
#include <pthread.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "bpf/kbloom_gate_load.h"
#include "bpf/kbloom_gate_load.skel.h"
#include "gate_load.h"
#include "pin.h"

/* A share at least this large is split between two threads. */
#define GL_TWO_MIN	65536U

struct gl {
	struct kbloom_gate_load *sk;
	struct kbloom_gate_load_slot *slots;
	size_t len;		/* bytes mapped */
	__u32 cap;		/* slots */
};

struct gl_run {
	int prog_fd;
	struct kbloom_gate_load_args a;
	int ret;
};

static void gl_close(struct gl *g)
{
	if (g->slots)
		munmap(g->slots, g->len);
	kbloom_gate_load__destroy(g->sk);
}

/* The program over @exact_fd, with room for @n slots (at most a run's). */
static int gl_open(struct gl *g, int exact_fd, __u32 n)
{
	long page = sysconf(_SC_PAGESIZE);
	void *p;
	int ret;

	g->cap = n < KBLOOM_GATE_LOAD_SLOTS ? n : KBLOOM_GATE_LOAD_SLOTS;
	g->sk = kbloom_gate_load__open();
	if (!g->sk)
		return -errno ?: -ENOMEM;
	ret = bpf_map__set_max_entries(g->sk->maps.gl_keys, g->cap);
	ret = ret ?: bpf_map__reuse_fd(g->sk->maps.gate_exact, exact_fd);
	ret = ret ?: kbloom_gate_load__load(g->sk);
	if (ret)
		return ret;
	g->len = (size_t)g->cap * sizeof(*g->slots);
	g->len = (g->len + page - 1) / page * page;
	p = mmap(NULL, g->len, PROT_READ | PROT_WRITE, MAP_SHARED,
		 bpf_map__fd(g->sk->maps.gl_keys), 0);
	if (p == MAP_FAILED)
		return -errno;
	g->slots = p;
	return 0;
}

static void *gl_run_one(void *arg)
{
	struct gl_run *r = arg;
	LIBBPF_OPTS(bpf_test_run_opts, o, .ctx_in = &r->a,
		    .ctx_size_in = sizeof(r->a));

	r->ret = kbp_err(bpf_prog_test_run_opts(r->prog_fd, &o));
	if (!r->ret && o.retval)
		r->ret = -EIO;
	return NULL;
}

/*
 * Run the program over slots 0..@cnt-1, by two threads (@two: half each)
 * or one; @undo: delete what it entered.
 */
static void gl_run_share(struct gl *g, struct kbx_gate_enter *e, __u32 cnt,
			 int two, __u32 undo, struct gl_run r[2])
{
	int fd = bpf_program__fd(g->sk->progs.kbloom_gate_load);
	__u32 half = two ? cnt / 2 : 0;
	pthread_t th;

	r[0] = (struct gl_run){ fd, { 0, half, e->exist, undo, 0, half, 0 },
				0 };
	r[1] = (struct gl_run){ fd, { half, cnt - half, e->exist, undo, 0,
				      cnt, 0 }, 0 };
	if (two && pthread_create(&th, NULL, gl_run_one, &r[0])) {
		gl_run_one(&r[0]);
		two = 0;
	}
	gl_run_one(&r[1]);
	if (two)
		pthread_join(th, NULL);
}

/* The first failure of the share at @base, or 0. */
static int gl_result(struct kbx_gate_enter *e, const struct gl_run r[2],
		     __u32 base)
{
	int i, ret = 0;

	for (i = 0; i < 2; i++) {
		ret = r[i].ret ?: r[i].a.err;
		if (ret) {
			e->failed = base + (r[i].ret ? r[i].a.first : r[i].a.at);
			return ret == -E2BIG ? -ENOSPC : ret;
		}
	}
	return 0;
}

/*
 * One share of the batch, from address @base: @cnt slots.  Two threads
 * may meet the two copies of an address, or the end of the map's room,
 * out of order: then the share is undone and run again by one thread,
 * which fails at the address an ordered run fails at.
 */
static int gl_share(struct gl *g, struct kbx_gate_enter *e, __u32 base,
		    __u32 cnt)
{
	int two = cnt >= 2 * GL_TWO_MIN;
	struct gl_run r[2];
	__u32 i;
	int ret;

	for (i = 0; i < cnt; i++) {
		g->slots[i].key = e->keys[base + i];
		g->slots[i].done = 0;
	}
	gl_run_share(g, e, cnt, two, 0, r);
	ret = gl_result(e, r, base);
	if (ret && two) {
		gl_run_share(g, e, cnt, 0, 1, r);
		ret = gl_result(e, r, base);
		if (!ret)
			gl_run_share(g, e, cnt, 0, 0, r);
		ret = ret ?: gl_result(e, r, base);
	}
	for (i = 0; i < cnt; i++) {
		e->done[base + i] = g->slots[i].done;
		e->ndone += g->slots[i].done;
	}
	return ret;
}

int kbx_gate_enter(struct kbx_gate_enter *e)
{
	struct gl g = { 0 };
	__u32 base, cnt;
	int ret;

	e->ndone = 0;
	e->failed = e->n;
	if (!e->n)
		return 0;
	if (secure_getenv("KBLOOM_GATE_NO_LOADER"))
		return 1;
	if (gl_open(&g, e->exact_fd, e->n)) {
		gl_close(&g);
		return 1;
	}
	for (base = 0, ret = 0; !ret && base < e->n; base += cnt) {
		cnt = e->n - base < g.cap ? e->n - base : g.cap;
		ret = gl_share(&g, e, base, cnt);
	}
	gl_close(&g);
	return ret;
}
