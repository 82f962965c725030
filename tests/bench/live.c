// SPDX-License-Identifier: GPL-2.0
/*
 * make bench BENCH=live: packets per second through the mcast path on veth
 * links between network namespaces, against plain redirect programs on the
 * same topology.
 *
 *      h0 (eth0) ---- p0 [ sw ] p1 ---- (eth0) h1
 *                     ingress      egress     live_rx: count, drop
 *
 * The switch namespace sw has two ports, p0 and p1, both attached to an
 * mcast instance of libkbloom_xdp (kbloom_mcast_ingress, and the egress
 * program with the port's filter in the devmap); p1 has joined the group
 * 239.1.0.1.  Frames to that group are injected as if received on p0 by
 * BPF_PROG_TEST_RUN with BPF_F_TEST_XDP_LIVE_FRAMES and repeat (the
 * kernel's packet generator, as xdp-trafficgen uses it): the ingress
 * program parses each one, tests the group against the filter of every
 * other port (here p1), counts, and hands the decision to the egress
 * programs in the frame's metadata (bpf/kbloom_mcast_once.h); p1 being
 * the only port that keeps it, the frame is redirected to p1 alone by
 * ifindex (its egress program, which would only test its bit, does not
 * run) and sent through the veth; h1's XDP program counts and drops what
 * arrives.
 *
 * The same frames, the same links and the same receiver, with the program
 * under test replaced by (tests/bench/live_bench.bpf.c):
 *   live_bcast    a plain redirect with the same fan-out (devmap broadcast
 *                 excluding the ingress port, no parsing, no filter), its
 *                 devmap as large as the switch's mc_ports (a broadcast
 *                 walks every bucket): the baseline of the goal (mcast at
 *                 least 90% of its rate);
 *   live_unicast  a plain redirect to p1 alone (no broadcast);
 *   live_flood    a multicast switch without filters: the parse, then
 *                 live_bcast's redirect.
 * The mcast path is measured with its default settings (leak auditing on:
 * once per frame, the ports that joined the group are read from the exact
 * record, mc_gcache or mc_groups) and with auditing off.  Rows that split its cost: live_bcast with a trivial
 * egress program; live_bcast into the switch's mc_ports (its egress
 * programs, which decide in full a copy that carries no decision, and
 * count nothing then); a leaner pair that hashes the group once at ingress and hands
 * the hash to the egress program in the frame's metadata (no counters, no
 * audit, no second parse), with the switch's filter table, then with p1's
 * filter copied into a blocks map the program names (no params hash
 * lookup, no map-in-map); the mcast path itself with its ports' copies in
 * mc_pfast emptied for the run, so that it looks each port's parameters
 * up in mc_params by hash as it did before mc_pfast (the cost that the
 * copies save).  The programs alone (BPF_PROG_TEST_RUN without live
 * frames) are timed too.
 *
 * Each figure is delivered packets (counted at h1) per second of the
 * generator's time as the kernel measures it (which leaves out the time
 * this thread was preempted by other jobs: wall-clock rates on a loaded
 * machine vary twofold), the median of REPS rounds in which the programs
 * take turns.  The process stays on one CPU, where the receiver's NAPI
 * runs too (it is raised on the transmitting CPU): a figure is the cost
 * of forwarding and receiving a frame on one core.
 *
 * Everything is undone on exit, on failure and on SIGINT/SIGTERM: the
 * namespaces are held by file descriptors only (they vanish with the
 * process, and their veths with them), the instance's pins are removed,
 * the receiver's link is closed.  A process killed outright leaves pins
 * named kbt<pid>-live that the next run (and the bpf suite) removes.
 *
 * Output: a table, "live ... vs ...: N.NNx" lines (rate ratios) and
 * build/bench-live.json (or $KBLOOM_BENCH_JSON).
 */
#include <signal.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/utsname.h>
#include <linux/if_link.h>

#include "libkbloom_xdp.h"
#include "uapi/kbloom_image.h"
#include "tests/bpf/xdp_util.h"
#include "tests/bench/live_bench.skel.h"

#define REPS		31
#define REPEAT		50000U		/* frames per run */
#define BATCH		64U		/* frames per test-run batch */

enum {
	L_MCAST, L_MCAST_NOAUDIT, L_BCAST, L_UNICAST, L_FLOOD,
	L_BCAST_EG, L_BCAST_MC, L_LEAN, L_LEAN2, L_MCAST_HASH, NL
};

static const char *const l_label[NL] = {
	"mcast path (default: leak audit on)",
	"mcast path, audit off",
	"plain broadcast redirect",
	"plain unicast redirect",
	"flooding switch (parse + broadcast)",
	" .. plain broadcast + trivial egress",
	" .. plain broadcast + mcast egress",
	" .. hash once at ingress, no counters",
	" .. and direct blocks map, no params",
	" .. mcast path, params by hash lookup",
};
static const char *const l_json[NL] = {
	"mcast", "mcast_noaudit", "broadcast_redirect", "unicast_redirect",
	"flood", "broadcast_trivial_egress", "broadcast_mcast_egress",
	"lean_hash_once", "lean_direct_maps", "mcast_params_hash",
};

static struct {
	char name[64];
	struct kbt_ns sw, h0, h1;
	struct kbloom_xdp *x;
	struct live_bench *skel;
	struct bpf_link *rx_link;
	int p0, p1;
	int mcast_fd;
	__u32 ports_max;	/* capacity of the devmaps */
} t;

static void cleanup(void)
{
	bpf_link__destroy(t.rx_link);
	t.rx_link = NULL;
	live_bench__destroy(t.skel);
	t.skel = NULL;
	if (t.mcast_fd > 0)
		close(t.mcast_fd);
	t.mcast_fd = 0;
	if (t.x)
		kbloom_xdp_close(t.x);
	t.x = NULL;
	if (t.name[0])
		kbt_unpin(t.name);	/* detaches its links */
	t.name[0] = 0;
	kbt_ns_free(&t.h1);
	kbt_ns_free(&t.h0);
	kbt_ns_free(&t.sw);
}

static volatile sig_atomic_t got_signal;

/*
 * A signal stops the runs (a test run in progress returns EINTR) and main()
 * cleans up, then dies of the signal: nothing unsafe in the handler.
 */
static void on_signal(int sig)
{
	got_signal = sig;
}

static int fail(const char *what, int err)
{
	fprintf(stderr, "live bench: %s: %s\n", what, strerror(err < 0 ? -err : err));
	return -1;
}

static void quiet_log(void *ctx, const char *msg)
{
}

static int reuse_pinned(struct bpf_map *m, const char *pin)
{
	char path[256];
	int fd, ret;

	snprintf(path, sizeof(path), "%s/%s/%s", KBT_PIN_ROOT, t.name, pin);
	fd = bpf_obj_get(path);
	if (fd < 0)
		return -errno;
	ret = bpf_map__reuse_fd(m, fd);
	close(fd);
	return ret;
}

/*
 * The copies of p0's and p1's parameters in the switch's mc_pfast: saved
 * into @saved and emptied (@empty), or written back from @saved.  Nothing
 * else writes them during the runs: the bench changes no port.
 */
static int pfast_swap(struct kbloom_mcast_pfast saved[2], int empty)
{
	struct kbloom_mcast_pfast none = {};
	const int id[2] = { t.p0, t.p1 };
	char path[256];
	int fd, i, ret = 0;

	snprintf(path, sizeof(path), "%s/%s/mc_pfast", KBT_PIN_ROOT, t.name);
	fd = bpf_obj_get(path);
	if (fd < 0)
		return -errno;
	for (i = 0; !ret && i < 2; i++) {
		if (empty && bpf_map_lookup_elem(fd, &id[i], &saved[i]))
			ret = -errno;
		else if (bpf_map_update_elem(fd, &id[i], empty ? &none : &saved[i], 0))
			ret = -errno;
	}
	close(fd);
	return ret;
}

/* Ports p0 and p1 in devmap @fd (egress program @prog_fd, or none). */
static int fill_ports(int fd, int prog_fd)
{
	struct bpf_devmap_val v = { .bpf_prog.fd = prog_fd };
	int saved, ret;

	/* a devmap resolves ifindexes in the updater's namespace */
	if (kbt_ns_enter(&t.sw, &saved))
		return -errno;
	v.ifindex = t.p0;
	ret = bpf_map_update_elem(fd, &t.p0, &v, 0);
	v.ifindex = t.p1;
	if (!ret)
		ret = bpf_map_update_elem(fd, &t.p1, &v, 0);
	ret = ret ? -errno : 0;
	kbt_ns_leave(saved);
	return ret;
}

static int setup(void)
{
	struct kbloom_xdp_opts o = { .log = quiet_log };
	static const __u8 group[4] = { 239, 1, 0, 1 };
	struct bpf_map_info mi = {};
	__u32 mi_len = sizeof(mi), nblocks;
	const struct kbloom_image_hdr *hdr;
	void *img = NULL, *mem;
	size_t img_len;
	enum kbloom_xdp_mode got;
	char path[256];
	int saved, ret, ifindex, fd;

	kbt_janitor();
	kbt_name(t.name, sizeof(t.name), "live");
	if (kbt_ns_quiet(&t.sw) || kbt_ns_quiet(&t.h0) || kbt_ns_quiet(&t.h1))
		return fail("network namespaces", errno);
	if (kbt_veth(&t.sw, "p0", &t.h0, "eth0", 0) ||
	    kbt_veth(&t.sw, "p1", &t.h1, "eth0", 1))
		return fail("veth links", EIO);
	t.p0 = kbt_ifindex(&t.sw, "p0");
	t.p1 = kbt_ifindex(&t.sw, "p1");

	/* the mcast switch */
	o.netns = t.sw.path;
	ret = kbloom_xdp_create(t.name, KBLOOM_XDP_MCAST, &o, &t.x);
	if (ret)
		return fail("kbloom_xdp_create", ret);
	ret = kbloom_xdp_attach(t.x, t.p0, KBLOOM_XDP_MODE_NATIVE, &got);
	if (!ret)
		ret = kbloom_xdp_attach(t.x, t.p1, KBLOOM_XDP_MODE_NATIVE, &got);
	if (ret)
		return fail("kbloom_xdp_attach", ret);
	ret = kbloom_mcast_join(t.x, t.p1, group, sizeof(group));
	if (ret)
		return fail("kbloom_mcast_join", ret);
	t.mcast_fd = kbt_prog(t.name, "prog_ingress");
	if (t.mcast_fd < 0)
		return fail("the pinned prog_ingress", errno);

	/* the baselines and the receiver */
	t.skel = live_bench__open();
	if (!t.skel)
		return fail("open live_bench", errno);
	t.skel->bss->out_port = t.p1;
	/*
	 * The baselines' devmaps get the capacity of the switch's mc_ports
	 * (a broadcast walks every bucket); live_bcast_mc uses mc_ports.
	 */
	snprintf(path, sizeof(path), "%s/%s/mc_ports", KBT_PIN_ROOT, t.name);
	fd = bpf_obj_get(path);
	if (fd < 0 || bpf_obj_get_info_by_fd(fd, &mi, &mi_len) ||
	    bpf_map__reuse_fd(t.skel->maps.mc_ports, fd)) {
		ret = -errno;
		if (fd >= 0)
			close(fd);
		return fail("the pinned mc_ports", ret);
	}
	close(fd);
	t.ports_max = mi.max_entries;
	if (reuse_pinned(t.skel->maps.mc_params, "mc_params") ||
	    reuse_pinned(t.skel->maps.mc_filters, "mc_filters"))
		return fail("the pinned filter table", errno);
	bpf_map__set_max_entries(t.skel->maps.lean_ports, mi.max_entries);
	bpf_map__set_max_entries(t.skel->maps.lean2_ports, mi.max_entries);
	/* p1's filter: its geometry for the lean programs, its bits copied */
	ret = kbloom_xdp_filter_save_image(t.x, t.p1, &img, &img_len);
	if (ret)
		return fail("kbloom_xdp_filter_save_image", ret);
	hdr = img;
	nblocks = hdr->m / KBLOOM_BLOCK_BITS;
	t.skel->rodata->lean_hash_id = hdr->hash_id;
	t.skel->rodata->lean_seed = hdr->seed;
	t.skel->rodata->lean_nblocks = nblocks;
	t.skel->rodata->lean_k = hdr->k;
	bpf_map__set_max_entries(t.skel->maps.lean_blocks, nblocks);
	bpf_map__set_max_entries(t.skel->maps.live_ports, mi.max_entries);
	bpf_map__set_max_entries(t.skel->maps.live_ports_eg, mi.max_entries);
	ret = live_bench__load(t.skel);
	if (ret) {
		free(img);
		return fail("load live_bench", ret);
	}
	mem = mmap(NULL, (size_t)nblocks * KBLOOM_BLOCK_BYTES, PROT_READ | PROT_WRITE,
		   MAP_SHARED, bpf_map__fd(t.skel->maps.lean_blocks), 0);
	if (mem == MAP_FAILED) {
		free(img);
		return fail("mmap lean_blocks", errno);
	}
	memcpy(mem, (__u8 *)img + KBLOOM_IMAGE_HDR_LEN, (size_t)nblocks * KBLOOM_BLOCK_BYTES);
	munmap(mem, (size_t)nblocks * KBLOOM_BLOCK_BYTES);
	free(img);
	ret = fill_ports(bpf_map__fd(t.skel->maps.live_ports), -1);
	ret = ret ?: fill_ports(bpf_map__fd(t.skel->maps.live_ports_eg),
				bpf_program__fd(t.skel->progs.live_egress_pass));
	ret = ret ?: fill_ports(bpf_map__fd(t.skel->maps.lean_ports),
				bpf_program__fd(t.skel->progs.live_lean_egress));
	ret = ret ?: fill_ports(bpf_map__fd(t.skel->maps.lean2_ports),
				bpf_program__fd(t.skel->progs.live_lean2_egress));
	if (ret)
		return fail("fill the devmaps", ret);
	if (kbt_ns_enter(&t.h1, &saved))
		return fail("enter h1", errno);
	ifindex = if_nametoindex("eth0");
	t.rx_link = bpf_program__attach_xdp(t.skel->progs.live_rx, ifindex);
	ret = t.rx_link ? 0 : -errno;
	kbt_ns_leave(saved);
	if (ret)
		return fail("attach live_rx to h1 eth0", ret);
	return 0;
}

static __u64 rx_count(void)
{
	int ncpu = libbpf_num_possible_cpus(), i;
	__u64 v[ncpu > 0 ? ncpu : 1], sum = 0;
	__u32 zero = 0;

	if (ncpu <= 0 ||
	    bpf_map_lookup_elem(bpf_map__fd(t.skel->maps.live_rx_count), &zero, v))
		return 0;
	for (i = 0; i < ncpu; i++)
		sum += v[i];
	return sum;
}

/*
 * Inject REPEAT frames as received on p0 through @prog_fd; delivered
 * frames per second at h1, or a negative errno.  *@sent_ns: ns per frame
 * as the kernel timed the generator.
 */
static double run_live(int prog_fd, const __u8 *frame, __u32 len, __u64 *lost,
		       double *sent_ns)
{
	struct xdp_md ctx = {
		.data_end = len,
		.ingress_ifindex = t.p0,
	};
	LIBBPF_OPTS(bpf_test_run_opts, o,
		.data_in = frame,
		.data_size_in = len,
		.ctx_in = &ctx,
		.ctx_size_in = sizeof(ctx),
		.repeat = REPEAT,
		.flags = BPF_F_TEST_XDP_LIVE_FRAMES,
		.batch_size = BATCH,
	);
	__u64 before, got;
	double t0, wall;
	int saved, ret;

	before = rx_count();
	if (kbt_ns_enter(&t.sw, &saved))
		return -errno;
	t0 = kbt_now();
	ret = bpf_prog_test_run_opts(prog_fd, &o);
	wall = kbt_now() - t0;
	ret = ret ? -errno : 0;
	kbt_ns_leave(saved);
	if (ret)
		return ret;
	usleep(5000);		/* the receiver's NAPI drains the last batch */
	got = rx_count() - before;
	*lost += REPEAT - got;
	/*
	 * The kernel's time per frame leaves out the time this thread was
	 * preempted (other jobs on the machine); the wall clock does not.
	 */
	*sent_ns = o.duration ? o.duration + 0.5 : wall * 1e9 / REPEAT;
	return got * 1e9 / (*sent_ns * REPEAT);
}

/* ns per run of @prog_fd on the frame, not live (nothing is sent). */
static double run_alone(int prog_fd, const __u8 *frame, __u32 len, int ifindex)
{
	struct xdp_md ctx = {
		.data_end = len,
		.ingress_ifindex = ifindex,
	};
	LIBBPF_OPTS(bpf_test_run_opts, o,
		.data_in = frame,
		.data_size_in = len,
		.ctx_in = &ctx,
		.ctx_size_in = sizeof(ctx),
		.repeat = REPEAT / 3,
	);
	int saved, ret;

	if (kbt_ns_enter(&t.sw, &saved))
		return -errno;
	ret = bpf_prog_test_run_opts(prog_fd, &o);
	ret = ret ? -errno : 0;
	kbt_ns_leave(saved);
	return ret ? (double)ret : (double)o.duration;
}

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

int main(void)
{
	static const __u8 src[4] = { 10, 0, 0, 9 }, dst[4] = { 239, 1, 0, 1 };
	struct kbt_payload pl = { KBT_MAGIC, 1, 0, 0 };
	struct kbt_frame_opts fo = {
		.src = src, .dst = dst, .payload = &pl, .plen = sizeof(pl),
	};
	struct rlimit rl = { RLIM_INFINITY, RLIM_INFINITY };
	double pps[NL][REPS], med[NL], q1[NL], q3[NL], ns[NL][REPS], med_ns[NL];
	double alone[3][REPS], med_alone[3];
	struct kbloom_mcast_pfast saved[2];
	__u64 lost[NL] = { 0 };
	int check_fd;
	struct kbloom_mcast_stats st;
	double t0 = kbt_now(), load = -1;
	struct utsname u;
	__u8 frame[128];
	__u32 len;
	int rep, i, li, ret = 1, cpu;
	const char *path;
	cpu_set_t set;
	FILE *f;

	if (geteuid()) {
		printf("live: skipped (needs root for BPF and network namespaces)\n");
		return 0;
	}
	setrlimit(RLIMIT_MEMLOCK, &rl);
	libbpf_set_print(NULL);
	/*
	 * One CPU for the generator and the receiver's NAPI (raised on the
	 * CPU that transmits): no migrations between runs.
	 */
	cpu = sched_getcpu();
	if (cpu >= 0) {
		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		sched_setaffinity(0, sizeof(set), &set);
	}
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	signal(SIGHUP, on_signal);
	atexit(cleanup);
	f = fopen("/proc/loadavg", "r");
	if (f) {
		if (fscanf(f, "%lf", &load) != 1)
			load = -1;
		fclose(f);
	}
	if (setup() || got_signal)
		goto out;
	len = kbt_frame(frame, &fo);
	if (len < 60) {
		memset(frame + len, 0, 60 - len);
		len = 60;
	}

	for (rep = 0; rep < REPS; rep++) {
		for (i = 0; i < NL; i++) {
			int fd;

			li = (i + rep) % NL;
			if (getenv("LIVE_BENCH_ONLY") &&
			    strcmp(getenv("LIVE_BENCH_ONLY"), l_json[li])) {
				pps[li][rep] = ns[li][rep] = 1;
				continue;
			}
			/* the default (auditing) but for the audit-off run */
			ret = kbloom_mcast_set_flags(t.x, li == L_MCAST_NOAUDIT ?
						     0 : KBLOOM_MCAST_F_AUDIT);
			if (ret) {
				fail("kbloom_mcast_set_flags", ret);
				goto out;
			}
			if (li == L_MCAST_HASH && pfast_swap(saved, 1)) {
				fail("empty mc_pfast", errno);
				goto out;
			}
			if (li == L_MCAST || li == L_MCAST_NOAUDIT ||
			    li == L_MCAST_HASH) {
				fd = t.mcast_fd;
			} else {
				fd = bpf_program__fd(li == L_BCAST ? t.skel->progs.live_bcast :
						     li == L_BCAST_EG ? t.skel->progs.live_bcast_eg :
						     li == L_BCAST_MC ? t.skel->progs.live_bcast_mc :
						     li == L_LEAN ? t.skel->progs.live_lean_ingress :
						     li == L_LEAN2 ? t.skel->progs.live_lean2_ingress :
						     li == L_FLOOD ? t.skel->progs.live_flood :
						     t.skel->progs.live_unicast);
			}
			pps[li][rep] = run_live(fd, frame, len, &lost[li], &ns[li][rep]);
			if (li == L_MCAST_HASH && pfast_swap(saved, 0)) {
				fail("restore mc_pfast", errno);
				goto out;
			}
			if (got_signal)
				goto out;
			if (pps[li][rep] < 0) {
				fail(l_label[li], (int)pps[li][rep]);
				goto out;
			}
		}
	}
	/* the programs alone (one port's decision as kbloom_mcast_check) */
	check_fd = kbt_prog(t.name, "prog_check");
	if (check_fd < 0) {
		fail("the pinned prog_check", errno);
		goto out;
	}
	for (rep = 0; rep < REPS; rep++) {
		alone[0][rep] = run_alone(t.mcast_fd, frame, len, t.p0);
		alone[1][rep] = run_alone(check_fd, frame, len, t.p1);
		alone[2][rep] = run_alone(bpf_program__fd(t.skel->progs.live_bcast),
					  frame, len, t.p0);
	}
	close(check_fd);
	for (i = 0; i < 3; i++) {
		qsort(alone[i], REPS, sizeof(double), cmp_dbl);
		med_alone[i] = alone[i][REPS / 2];
	}
	ret = 1;
	for (li = 0; li < NL; li++) {
		qsort(pps[li], REPS, sizeof(double), cmp_dbl);
		qsort(ns[li], REPS, sizeof(double), cmp_dbl);
		med[li] = pps[li][REPS / 2];
		q1[li] = pps[li][REPS / 4];
		q3[li] = pps[li][3 * REPS / 4];
		med_ns[li] = ns[li][REPS / 2];
	}
	if (kbloom_mcast_stats(t.x, t.p1, &st)) {
		fail("kbloom_mcast_stats", EIO);
		goto out;
	}
	/*
	 * every copy offered to p1 passed its filter, none leaked; the
	 * switch counts the copies its ingress program decides (the three
	 * mcast rows and the ingress program alone), not those live_bcast_mc
	 * sends into its ports
	 */
	if ((!getenv("LIVE_BENCH_ONLY") &&
	     st.tx_forwarded != 3ULL * REPS * REPEAT + REPS * (REPEAT / 3)) ||
	    st.tx_leaked || st.tx_errors) {
		fprintf(stderr, "live bench: p1 forwarded %llu copies (expected %llu), leaked %llu, errors %llu\n",
			(unsigned long long)st.tx_forwarded,
			3ULL * REPS * REPEAT + REPS * (REPEAT / 3),
			(unsigned long long)st.tx_leaked,
			(unsigned long long)st.tx_errors);
		goto out;
	}

	uname(&u);
	printf("live: %u-byte IPv4 multicast frames injected on p0 (BPF_F_TEST_XDP_LIVE_FRAMES, batches of %u),\n",
	       len, BATCH);
	printf("  forwarded to p1 over veth and counted at its peer; delivered Mpps, median of %d x %u frames\n",
	       REPS, REPEAT);
	printf("  (Linux %s, %ld CPUs; load average %.2f at the start)\n", u.release,
	       sysconf(_SC_NPROCESSORS_ONLN), load);
	printf("  %-38s %8s %8s %8s %8s %7s\n", "program on p0", "Mpps", "q1", "q3", "ns/pkt", "lost");
	for (li = 0; li < NL; li++)
		printf("  %-38s %8.3f %8.3f %8.3f %8.0f %7llu\n", l_label[li], med[li] / 1e6,
		       q1[li] / 1e6, q3[li] / 1e6, med_ns[li], (unsigned long long)lost[li]);
	printf("  the programs alone (BPF_PROG_TEST_RUN, not live), ns per run: mcast ingress (deciding p1) %.0f,"
	       " one port's decision (kbloom_mcast_check) %.0f, plain broadcast redirect %.0f\n",
	       med_alone[0], med_alone[1], med_alone[2]);
	printf("  goal: mcast >= 90%% of the plain broadcast redirect: %.0f%% %s\n",
	       100 * med[L_MCAST] / med[L_BCAST],
	       med[L_MCAST] >= 0.9 * med[L_BCAST] ? "met" : "MISSED");
	printf("live mcast pps vs plain broadcast redirect: %.2fx\n", med[L_MCAST] / med[L_BCAST]);
	printf("live mcast pps vs flooding switch: %.2fx\n", med[L_MCAST] / med[L_FLOOD]);
	printf("live mcast audit off pps vs plain broadcast redirect: %.2fx\n",
	       med[L_MCAST_NOAUDIT] / med[L_BCAST]);
	printf("live mcast pps vs plain unicast redirect: %.2fx\n", med[L_MCAST] / med[L_UNICAST]);
	printf("live mcast pps vs the same path with params by hash lookup: %.2fx\n",
	       med[L_MCAST] / med[L_MCAST_HASH]);

	path = getenv("KBLOOM_BENCH_JSON") ?: "build/bench-live.json";
	f = fopen(path, "w");
	if (!f) {
		fail(path, errno);
		goto out;
	}
	fprintf(f, "{\n \"frame_bytes\": %u,\n \"repeat\": %u,\n \"batch\": %u,\n \"reps\": %d,\n",
		len, REPEAT, BATCH, REPS);
	fprintf(f, " \"statistic\": \"median\",\n \"unit\": \"delivered packets per second\",\n");
	fprintf(f, " \"machine\": \"Linux %s, %ld CPUs\",\n \"loadavg\": %.2f,\n \"pps\": {",
		u.release, sysconf(_SC_NPROCESSORS_ONLN), load);
	for (li = 0; li < NL; li++)
		fprintf(f, "%s\"%s\": %.0f", li ? ", " : "", l_json[li], med[li]);
	fprintf(f, "},\n \"lost\": {");
	for (li = 0; li < NL; li++)
		fprintf(f, "%s\"%s\": %llu", li ? ", " : "", l_json[li], (unsigned long long)lost[li]);
	fprintf(f, "},\n \"ns_alone\": {\"mcast_ingress\": %.0f, \"mcast_egress_decision\": %.0f, \"broadcast_redirect\": %.0f",
		med_alone[0], med_alone[1], med_alone[2]);
	fprintf(f, "},\n \"ratios\": {\"mcast_vs_broadcast_redirect\": %.3f, \"mcast_noaudit_vs_broadcast_redirect\": %.3f, \"mcast_vs_unicast_redirect\": %.3f},\n",
		med[L_MCAST] / med[L_BCAST], med[L_MCAST_NOAUDIT] / med[L_BCAST],
		med[L_MCAST] / med[L_UNICAST]);
	fprintf(f, " \"goal\": {\"mcast_vs_broadcast_redirect\": \">= 0.9\", \"met\": %s}\n}\n",
		med[L_MCAST] >= 0.9 * med[L_BCAST] ? "true" : "false");
	fclose(f);
	printf("live bench: figures in %s (%.0f s)\n", path, kbt_now() - t0);
	ret = 0;
out:
	cleanup();
	if (got_signal) {
		signal(got_signal, SIG_DFL);
		raise(got_signal);
	}
	return ret;
}
