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
 *   - a header kb_ipbf_parse() refuses is never forwarded by the
 *     simulator, and is dropped once, at its source (as malformed, or for
 *     its hop limit 0);
 *   - MSBF: the simulator walks every stage left at each hop, as the XDP
 *     ingress does (ipbf_walk_stage()), so a header kb_ipbf_parse()
 *     accepts (all stages well-formed) is never dropped as malformed at
 *     any hop, and one whose later stage is malformed crosses no link;
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

/*
 * The drops of the simulator against the parse: @ok, kb_ipbf_parse()
 * accepted @data (so its fixed header is valid and, MSBF, every stage).
 */
static void drops_checked(const uint8_t *data, int ok,
			  const struct kb_sim_result *r)
{
	if (!ok) {
		check(r->tx == 0, "a refused header was forwarded");
		check(r->drop_bad + r->drop_hop == 1,
		      "a refused header not dropped once at its source");
		return;
	}
	if (data[3] >= IF_D) {
		check(r->tx == 0 && r->drop_bad == 1,
		      "an unknown tag set not dropped at the source");
		return;
	}
	check(r->drop_bad == 0, "an accepted header dropped as malformed");
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
	drops_checked(data, ok, &res);
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
