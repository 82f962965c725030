// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target over the in-packet headers of uapi/kbloom_ipbf.h and
 * uapi/kbloom_ipbf_yesno.h (make fuzz): every input is a header (LIPSIN,
 * MSBF, yes-no or garbage) handed to kb_ipbf_parse() and forwarded by
 * kb_sim_run() from a host of a k = 4 fat-tree.  Whatever the bytes,
 * nothing may crash, overread or leak, and:
 *   - kb_ipbf_parse() returns 0 or -EBADMSG, writes nothing when it
 *     refuses, and an accepted header ends within the input: LIPSIN at 40
 *     bytes, yes-no at 44 + its no filter's bytes (k 1..8, at most 32
 *     bytes, reserved 0), MSBF after its stages;
 *   - at its source the simulator gives the verdict of the XDP ingress
 *     of a first node (xdp_verdict(), ipbf_check_frame()'s checks in its
 *     order): a header it does not forward is sent nowhere and dropped
 *     once, under the same reason (malformed, hop limit 0, fill; a
 *     yes-no header over the fill limit with a bad no record is a fill
 *     drop), so a header kb_ipbf_parse() refuses is never forwarded;
 *   - MSBF: the simulator walks every stage left at each hop, as the XDP
 *     ingress does (ipbf_walk_stage()), so a header kb_ipbf_parse()
 *     accepts (all stages well-formed, the frame within the ingress's
 *     limit, KB_IPBF_FRAME_MAX with the Ethernet header, which the parse
 *     checks too) is never dropped as malformed at any hop, and one whose
 *     later stage is malformed crosses no link;
 *   - a tag set the nodes do not have (d = 8): dropped at the source;
 *   - yes-no: every link the simulator transmits on holds its link ID in
 *     yes and is not in no (the forwarding rule, checked from the trace).
 * A violation aborts, which libFuzzer reports as a crash.
 *
 * Seed corpus: -kbloom_seed_corpus=DIR writes the LIPSIN, MSBF and yes-no
 * headers of a few trees of that fat-tree, and each MSBF header with its
 * last stage cut short, into DIR and exits.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz_seed.h"
#include "libkbloom_net.h"

#define IF_SEED		42
#define IF_D		8U
#define IF_FILL		128U
#define IF_MAX_TX	4096U

struct if_net {
	struct kb_topo *t;
	struct kb_lids *l;
	struct kb_sim *sim;
	struct kb_spt *spt;
	struct kb_tree *tr;
	struct kb_msbf *ms;
};

static struct if_net net;

static void check(int cond, const char *what)
{
	if (!cond) {
		fprintf(stderr, "ipbf_fuzz: %s\n", what);
		abort();
	}
}

static int net_up(void)
{
	if (net.t)
		return 0;
	return kb_topo_fat_tree(4, &net.t) ?:
	       kb_lids_new(net.t, IF_SEED, 5, IF_D, &net.l) ?:
	       kb_sim_new(net.t, IF_MAX_TX, &net.sim) ?:
	       kb_spt_new(net.t, &net.spt) ?: kb_tree_new(net.t, &net.tr) ?:
	       kb_msbf_new(net.t, &net.ms);
}

/* The parse of @data: the rules above; 0 when accepted. */
static int parse_checked(const uint8_t *data, size_t size,
			 struct kb_ipbf_info *in)
{
	int ret;

	memset(in, 0xA5, sizeof(*in));
	ret = kb_ipbf_parse(data, size, in);
	check(ret == 0 || ret == -EBADMSG, "parse: unexpected error");
	if (ret) {
		check(((uint8_t *)in)[0] == 0xA5 &&
		      ((uint8_t *)in)[sizeof(*in) - 1] == 0xA5,
		      "parse: output written on failure");
		return ret;
	}
	check(in->len <= size, "parse: header past the input");
	if (in->hdr.flags == KB_IPBF_F_YESNO) {
		check(in->len == KB_IPBF_YESNO_LEN + in->no.bytes,
		      "yes-no: length");
		check(in->no.k >= KB_IPBF_NO_K_MIN &&
		      in->no.k <= KB_IPBF_NO_K_MAX && !in->no.reserved &&
		      in->no.bytes <= KB_IPBF_NO_BYTES_MAX, "yes-no: no record");
	} else if (!in->hdr.flags) {
		check(in->len == KB_IPBF_LIPSIN_LEN, "LIPSIN: length");
	} else {
		check(in->hdr.flags == KB_IPBF_F_MSBF, "flags");
		check(!in->hdr.nstages ||
		      KB_IPBF_ETH_LEN + (__u64)size <= KB_IPBF_FRAME_MAX,
		      "MSBF: stages accepted in a frame over the limit");
	}
	return 0;
}

/* Yes-no: every transmission is on a link in yes and not in no. */
static void trace_checked(const struct kb_ipbf_info *in)
{
	const __u32 *trace;
	__u32 n, i, tag = in->hdr.tag;

	trace = kb_sim_trace(net.sim, &n);
	for (i = 0; i < n; i++) {
		check(kb_ipbf_zf_match(&in->zf, kb_lid(net.l, tag, trace[i])),
		      "yes-no: forwarded on a link not in yes");
		check(!kb_ipbf_no_match(in->no_bits, &in->no,
					kb_lhash(net.l, tag, trace[i])),
		      "yes-no: forwarded on a link in no");
	}
}

/* The first node's verdict, in the order of the XDP ingress. */
enum if_verdict { IV_FWD, IV_END, IV_BAD, IV_HOP, IV_FILL };

/*
 * The verdict of the XDP ingress of the first node (ipbf_check_frame() of
 * bpf/kbloom_ipbf.bpf.c) on @data in an Ethernet frame, from the uapi
 * checks it runs, in its order: truncated, header, tag; LIPSIN and yes-no:
 * fill, then the no record, then the hop limit; MSBF: no stage left
 * (end), hop limit, then the stage walk, which parses no stage of a frame
 * over KB_IPBF_FRAME_MAX.  @ok: kb_ipbf_parse() accepted @data (the no
 * record, or every stage, well formed).
 */
static enum if_verdict xdp_verdict(const uint8_t *data, size_t size, int ok)
{
	__u32 avail = size > 0xFFFFFFFFU ? 0xFFFFFFFFU : (__u32)size;
	struct kb_ipbf_hdr h;
	struct kb_ipbf_zf zf;

	if (size < KB_IPBF_HDR_LEN)
		return IV_BAD;
	memcpy(&h, data, sizeof(h));
	if (kb_ipbf_hdr_check(&h, avail) || h.tag >= IF_D)
		return IV_BAD;
	if (!(h.flags & KB_IPBF_F_MSBF)) {
		kb_ipbf_zf_load(&zf, data + KB_IPBF_HDR_LEN);
		if (kb_ipbf_zf_fill(&zf) > IF_FILL)
			return IV_FILL;
		if (!ok)
			return IV_BAD;
		return h.hop_limit ? IV_FWD : IV_HOP;
	}
	if (!h.nstages)
		return IV_END;
	if (!h.hop_limit)
		return IV_HOP;
	if (!ok || KB_IPBF_ETH_LEN + (__u64)size > KB_IPBF_FRAME_MAX)
		return IV_BAD;
	return IV_FWD;
}

/*
 * The drops of the simulator against the parse and against the XDP
 * ingress: @ok, kb_ipbf_parse() accepted @data (so its fixed header is
 * valid and, MSBF, every stage).  A header the first node does not
 * forward is dropped there once, under the XDP ingress's reason, and
 * sent nowhere; one it forwards is never dropped as malformed or for its
 * fill (the header does not change but for the hop limit and, MSBF, the
 * stages stripped, which leave every stage left well formed).
 */
static void drops_checked(const uint8_t *data, size_t size, int ok,
			  const struct kb_sim_result *r)
{
	enum if_verdict v = xdp_verdict(data, size, ok);

	if (v != IV_FWD) {
		check(r->tx == 0, "a header the first node drops was forwarded");
		check(r->drop_bad == (v == IV_BAD) &&
		      r->drop_hop == (v == IV_HOP) &&
		      r->drop_fill == (v == IV_FILL),
		      "the source's drop is not the XDP ingress's");
	} else {
		check(r->drop_bad == 0 && r->drop_fill == 0,
		      "a forwarded header dropped as malformed or for its fill");
	}
	if (!ok) {
		check(v != IV_FWD && v != IV_END,
		      "a refused header forwarded by the first node");
		return;
	}
	if (data[3] >= IF_D) {
		check(r->tx == 0 && r->drop_bad == 1,
		      "an unknown tag set not dropped at the source");
		return;
	}
	check(r->drop_bad == (v == IV_BAD),
	      "an accepted header dropped as malformed");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct kb_sim_result res;
	struct kb_ipbf_info *in;
	__u32 src;
	int ok;

	check(net_up() == 0, "set-up");
	in = malloc(sizeof(*in));
	check(in != NULL, "out of memory");
	ok = !parse_checked(data, size, in);
	src = net.t->hosts[size % net.t->nhosts];
	check(kb_sim_run(net.sim, net.l, NULL, src, data, size, IF_FILL,
			 &res) == 0, "sim: refused its arguments");
	drops_checked(data, size, ok, &res);
	if (ok && in->hdr.flags == KB_IPBF_F_YESNO)
		trace_checked(in);
	free(in);
	return 0;
}

/* The three forms of the tree from host @s to hosts @d, @e. */
static int write_tree(const char *dir, __u32 i, __u32 s, __u32 d, __u32 e)
{
	__u32 dst[2] = { net.t->hosts[d], net.t->hosts[e] };
	uint8_t buf[2048];
	struct kb_yn_result y;
	struct kb_zf_result z;
	char name[64];
	int len, ret;

	ret = kb_spt_compute(net.spt, net.t->hosts[s], i) ?:
	      kb_tree_build(net.tr, net.spt, dst, 2) ?:
	      kb_zf_build(net.l, net.tr, 8, IF_FILL, &z) ?:
	      kb_yn_build(net.l, net.tr, NULL, &y);
	if (ret)
		return ret;
	len = kb_ipbf_write_lipsin(buf, sizeof(buf), 6, z.tag, 0x0800, &z.zf);
	snprintf(name, sizeof(name), "lipsin-%u", i);
	ret = len < 0 ? len : fuzz_write_file(dir, name, buf, len);
	len = kb_ipbf_write_yesno(buf, sizeof(buf), 6, 0x0800, &y);
	snprintf(name, sizeof(name), "yesno-%u", i);
	ret = ret ?: len < 0 ? len : fuzz_write_file(dir, name, buf, len);
	len = kb_msbf_build(net.ms, net.l, net.tr, NULL, buf, sizeof(buf),
			    NULL);
	snprintf(name, sizeof(name), "msbf-%u", i);
	ret = ret ?: len < 0 ? len : fuzz_write_file(dir, name, buf, len);
	snprintf(name, sizeof(name), "msbf-cut-%u", i);
	return ret ?: fuzz_write_file(dir, name, buf, len - 1);
}

static int write_corpus(const char *dir)
{
	__u32 i;
	int ret;

	ret = net_up();
	if (ret)
		return ret;
	mkdir(dir, 0755);
	for (i = 0; !ret && i < 8; i++)
		ret = write_tree(dir, i, i, (i + 5) % 16, (i + 11) % 16);
	return ret;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	return fuzz_seed_option(*argc, *argv, "ipbf_fuzz", write_corpus);
}
