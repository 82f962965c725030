// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom XDP instances: the window kind, the age-partitioned window of
 * bpf/kbloom_window.bpf.c as a pinned instance (libkbloom_xdp_window.h).
 *
 * Creating plans the window as libkbloom_window plans a time window,
 * loads the object, writes the parameters and starts the generation
 * clock (CLOCK_MONOTONIC, bpf_ktime_get_ns()'s), pins the XDP program of
 * the mode, the tc egress program and the maps, and opens the instance
 * from the pins like any later process.  In return mode, attaching to an
 * interface first links the tc egress program there (a tcx link pinned as
 * tc_<ifindex>): detaching, or removing the instance, drops it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "libkbloom_xdp_window.h"
#include "libkbloom_window.h"
#include "kind_count.h"
#include "kind_window.h"
#include "kinds.h"
#include "pin.h"
#include "bpf/kbloom_window.skel.h"

/*
 * BPF_TCX_EGRESS of linux/bpf.h since Linux 6.6: the build's headers may
 * predate it, the value is ABI.
 */
#define KBW_TCX_EGRESS	47

static const char *const kbw_pins[][KBW_NPINS] = {
	{ "prog_return", "prog_out", "win_params", "win_state", "win_words",
	  "win_stats" },
	{ "prog_dedupe", "prog_out", "win_params", "win_state", "win_words",
	  "win_stats" },
};

static int kbw_open(struct kbloom_inst *i)
{
	char p[PATH_MAX];
	struct kbw *w;
	int ret;

	w = calloc(1, sizeof(*w));
	if (!w)
		return -ENOMEM;
	ret = kbp_path(i->dir, p, "%s", kbw_pins[1][KBW_PROG]);
	w->mode = !ret && !access(p, F_OK) ? KBLOOM_XDP_WINDOW_DEDUPE :
					     KBLOOM_XDP_WINDOW_RETURN;
	ret = ret ?: kbc_get(i, kbw_pins[w->mode], KBW_NPINS, w->fd);
	if (ret) {
		kbc_close(w->fd, KBW_NPINS);
		free(w);
		return ret;
	}
	i->priv = w;
	return 0;
}

/* k, l, slice and generation: libkbloom_window's plan of a time window. */
static int kbw_plan(const struct kbloom_xdp_window_opts *wo,
		    struct kbloom_win_xdp_params *p)
{
	struct kbloom_win_params wp = {
		.clock = KB_WIN_CLOCK_NS, .window = wo->window_ns,
		.capacity = wo->capacity ? wo->capacity : 1024,
		.fpr_pico = wo->fpr_pico ? wo->fpr_pico : 1000000000ULL,
	};
	struct kbloom_opts ko = { .hash_id = wo->hash_id, .seed = wo->seed };
	struct kbloom_win_stats st;
	struct kbloom_win *f;
	int ret;

	if (wo->mode > KBLOOM_XDP_WINDOW_DEDUPE)
		return -EINVAL;
	if (!ko.hash_id)
		ko.hash_id = KBLOOM_HASH_FAST;
	ret = kbloom_win_create(&wp, &ko, &f);
	if (ret)
		return ret;
	ret = kbloom_win_stats(f, &st);
	kbloom_win_destroy(f);
	if (ret)
		return ret;
	*p = (struct kbloom_win_xdp_params) {
		.k = st.shape.k, .l = st.shape.tables, .hash_id = st.hash_id,
		.slice_bits = st.shape.buckets, .gen_ns = st.gen_len,
		.seed = st.seed,
	};
	return 0;
}

/* The loaded object's parameters and a clock started now. */
static int kbw_init_maps(struct kbloom_window *sk,
			 const struct kbloom_win_xdp_params *p)
{
	struct kbloom_win_xdp_state st = { 0 };
	struct timespec ts;
	__u32 zero = 0;
	int ret;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	st.gen_start = (__u64)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
	ret = bpf_map_update_elem(bpf_map__fd(sk->maps.win_params), &zero, p,
				  0);
	ret = ret ?: bpf_map_update_elem(bpf_map__fd(sk->maps.win_state),
					 &zero, &st, 0);
	return kbp_err(ret);
}

static int kbw_load(struct kbloom_inst *i, __u32 mode,
		    const struct kbloom_win_xdp_params *p)
{
	struct kbloom_window *sk = kbloom_window__open();
	int fd[KBW_NPINS], ret;

	if (!sk)
		return -errno ?: -ENOMEM;
	ret = bpf_map__set_max_entries(sk->maps.win_words,
				       (__u32)((p->k + p->l) *
					       (p->slice_bits / 64)));
	ret = ret ?: kbloom_window__load(sk);
	ret = ret ?: kbw_init_maps(sk, p);
	if (ret) {
		kbi_log(i, "%s: loading the window failed: %s", i->name,
			strerror(-ret));
		goto out_destroy;
	}
	fd[KBW_PROG] = bpf_program__fd(mode ? sk->progs.kbloom_window_dedupe :
					      sk->progs.kbloom_window_in);
	fd[KBW_OUT] = bpf_program__fd(sk->progs.kbloom_window_out);
	fd[KBW_PARAMS] = bpf_map__fd(sk->maps.win_params);
	fd[KBW_STATE] = bpf_map__fd(sk->maps.win_state);
	fd[KBW_WORDS] = bpf_map__fd(sk->maps.win_words);
	fd[KBW_STATS] = bpf_map__fd(sk->maps.win_stats);
	ret = kbc_pin(i, kbw_pins[mode], KBW_NPINS, fd);
out_destroy:
	kbloom_window__destroy(sk);
	return ret;
}

static int kbw_create(struct kbloom_inst *i, const void *opts)
{
	const struct kbloom_xdp_window_opts *wo = opts;
	struct kbloom_win_xdp_params p;
	int ret;

	if (!wo) {
		kbi_log(i, "%s: no window options", i->name);
		return -EINVAL;
	}
	ret = kbw_plan(wo, &p);
	if (ret) {
		kbi_log(i, "%s: the window cannot be planned: %s", i->name,
			strerror(-ret));
		return ret;
	}
	ret = kbw_load(i, wo->mode, &p);
	return ret ?: kbw_open(i);
}

static void kbw_close(struct kbloom_inst *i)
{
	struct kbw *w = i->priv;

	if (w)
		kbc_close(w->fd, KBW_NPINS);
	free(w);
	i->priv = NULL;
}

static int kbw_prog_fd(const struct kbloom_inst *i)
{
	const struct kbw *w = i->priv;

	return w->fd[KBW_PROG];
}

/* Return mode: the tc egress program on @ifindex, pinned tc_<ifindex>. */
static int kbw_port_attach(struct kbloom_inst *i, int ifindex, bool *made)
{
	struct kbw *w = i->priv;
	char p[PATH_MAX];
	int fd, ret;

	if (w->mode != KBLOOM_XDP_WINDOW_RETURN)
		return 0;
	ret = kbp_path(i->dir, p, "tc_%d", ifindex);
	if (ret)
		return ret;
	fd = bpf_link_create(w->fd[KBW_OUT], ifindex,
			     (enum bpf_attach_type)KBW_TCX_EGRESS, NULL);
	if (fd < 0) {
		ret = kbp_err(fd);
		kbi_log(i, "%s: tc egress link on ifindex %d (tcx, Linux 6.6 or later): %s",
			i->name, ifindex, strerror(-ret));
		return ret;
	}
	ret = kbp_err(bpf_obj_pin(fd, p));
	close(fd);
	if (ret)
		kbi_log(i, "%s: pin %s: %s", i->name, p, strerror(-ret));
	*made = !ret;
	return ret;
}

/* Unpinning the tcx link (its only holder) detaches it. */
static void kbw_port_undo(struct kbloom_inst *i, int ifindex)
{
	char p[PATH_MAX];

	if (!kbp_path(i->dir, p, "tc_%d", ifindex))
		unlink(p);
}

const struct kbi_ops kbx_window_ops = {
	.kind = "window",
	.create = kbw_create,
	.open = kbw_open,
	.close = kbw_close,
	.prog_fd = kbw_prog_fd,
	.port_attach = kbw_port_attach,
	.port_undo = kbw_port_undo,
	.link_gone = kbw_port_undo,
	.run_prio = 10,
};

/* ---- the calls of libkbloom_xdp_window.h ------------------------------------ */

int kbloom_xdp_window_create(const char *name,
			     const struct kbloom_inst_opts *o,
			     const struct kbloom_xdp_window_opts *wo,
			     struct kbloom_inst **ip)
{
	if (!wo || !ip)
		return -EINVAL;
	return kbi_create(name, &kbx_window_ops, o, wo, ip);
}

int kbloom_xdp_window_open(const char *name, const struct kbloom_inst_opts *o,
			   struct kbloom_inst **ip)
{
	return kbc_open(name, o, &kbx_window_ops, ip);
}
