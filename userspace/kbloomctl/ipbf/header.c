// SPDX-License-Identifier: GPL-2.0
/*
 * kbloomctl: ipbf header, the LIPSIN, MSBF or yes-no header of a delivery
 * tree.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ipbf.h"

static const char *const form_words[] = { "lipsin", "msbf", "yesno", NULL };

enum { FORM_LIPSIN, FORM_MSBF, FORM_YESNO };

/* ---- ipbf header ------------------------------------------------------------ */

struct hdr {
	struct topo tp;
	struct lidopt o;
	__u32 src;
	int form;		/* FORM_* */
	__u64 tags;
	__u64 hop;		/* 0: default */
	__u64 proto;
	__u64 no_bytes, no_k;	/* yes-no */
	int ndst;
	char **dst;
	int nlinks;
	char **links;
	struct kw_list dstl, linksl;
	const char *topo_s, *src_s, *tags_s;
	const char *out;
	struct kb_lids *l;
	struct kb_spt *spt;
	struct kb_tree *tr;
	struct kb_msbf *ms;
	__u8 *buf;
	int len;		/* as built */
	int sent;		/* after the source's step */
	struct kb_zf_result z;
	struct kb_msbf_info info;
	struct kb_yn_result y;
};

static const struct kw hdr_kw[] = {
	KW("topo", "TOPO", KWT_STR, struct hdr, topo_s, .required = true),
	KW("src", "HOST", KWT_STR, struct hdr, src_s, .required = true),
	KW("dst", "HOST...", KWT_LIST, struct hdr, dstl),
	KW("links", "NODE:PORT...", KWT_LIST, struct hdr, linksl),
	KW("form", "lipsin|msbf|yesno", KWT_ENUM, struct hdr, form,
	   .words = form_words),
	KW("no-bytes", "N", KWT_U64, struct hdr, no_bytes, .min = 1,
	   .max = KB_IPBF_NO_BYTES_MAX,
	   .extra = "yesno: bytes of the no filter when one is needed (8)"),
	KW("no-k", "K", KWT_U64, struct hdr, no_k, .min = KB_IPBF_NO_K_MIN,
	   .max = KB_IPBF_NO_K_MAX, .extra = "yesno: probes per link in no (2)"),
	KW_LIDS(struct hdr, o),
	KW_FILL(struct hdr, o),
	/* at most d: checked once d is known */
	KW("tags", "N", KWT_STR, struct hdr, tags_s),
	KW("hop-limit", "H", KWT_U64, struct hdr, hop, .min = 1, .max = 255),
	KW("proto", "ETHERTYPE", KWT_U64, struct hdr, proto, .min = 0,
	   .max = 0xFFFF,
	   .extra = "the inner packet's EtherType, such as 0x0800"),
	{ 0 }
};

static const struct kw_table hdr_table = { .kw = hdr_kw };

static int hdr_args(struct ctl *c, struct hdr *h, int argc, char **argv)
{
	__u64 given;
	int ret;

	lidopt_init(&h->o);
	h->proto = IPBF_PROTO_DEF;
	h->no_bytes = KB_YN_NO_BYTES_DEFAULT;
	h->no_k = KB_YN_NO_K_DEFAULT;
	ret = kw_parse(c, &hdr_table, argc, argv, h, &given);
	if (ret)
		return ret;
	lidopt_given(&h->o, &hdr_table, given);
	h->dst = h->dstl.v;
	h->ndst = h->dstl.n;
	h->links = h->linksl.v;
	h->nlinks = h->linksl.n;
	if (!h->ndst == !h->nlinks)
		return ctl_usage(c, "%s (allowed: dst HOST... for the shortest-path tree to those hosts, or links NODE:PORT... for a tree of your own)",
				 h->ndst ? "dst: not with links" :
				 "missing dst HOST... or links NODE:PORT...");
	h->tags = h->o.d;
	ret = h->tags_s ? arg_u64(h->tags_s, 1, h->o.d, &h->tags) : 0;
	if (ret)
		return arg_bad_u64(c, "tags", h->tags_s, ret, 1, h->o.d,
				   "tag sets tried, at most d");
	ret = topo_load(c, h->topo_s, &h->tp);
	ret = ret ?: topo_host(c, &h->tp, "src", h->src_s, &h->src);
	return ret;
}

/* dst HOST...: the shortest-path tree. */
static int hdr_tree_dst(struct ctl *c, struct hdr *h)
{
	__u32 *dst, i, others = 0;
	int ret;

	dst = calloc(h->ndst, sizeof(*dst));
	if (!dst)
		return ctl_syserr(c, ENOMEM, NULL, "%s", c->cmd_path);
	for (i = 0, ret = 0; !ret && i < (__u32)h->ndst; i++) {
		ret = topo_host(c, &h->tp, "dst", h->dst[i], &dst[i]);
		others += dst[i] != h->src;
	}
	if (!ret && !others)
		ret = ctl_usage(c, "dst: only the source (allowed: at least one host other than %s)",
				h->tp.name[h->src]);
	if (!ret) {
		ret = kb_spt_new(h->tp.t, &h->spt);
		ret = ret ?: kb_spt_compute(h->spt, h->src, 0);
		ret = ret ?: kb_tree_build(h->tr, h->spt, dst, h->ndst);
		if (ret == -EINVAL)
			ret = ctl_usage(c, "dst: a host %s cannot reach (the topology is not connected)",
					h->tp.name[h->src]);
		else if (ret)
			ret = ctl_syserr(c, ret, NULL, "%s: tree", c->cmd_path);
	}
	free(dst);
	return ret;
}

/* links NODE:PORT...: grown from the source, in any order. */
static int hdr_tree_links(struct ctl *c, struct hdr *h)
{
	const struct kb_topo *t = h->tp.t;
	__u32 *port, i, left, added;
	char a[64], b[64];
	bool *in;
	int ret = 0, j;

	port = calloc(h->nlinks, sizeof(*port));
	in = calloc(h->nlinks, sizeof(*in));
	if (!port || !in) {
		ret = ctl_syserr(c, ENOMEM, NULL, "%s", c->cmd_path);
		goto out;
	}
	for (j = 0; !ret && j < h->nlinks; j++)
		ret = topo_link(c, &h->tp, "links", h->links[j], &port[j]);
	for (j = 0; !ret && j < h->nlinks; j++)
		for (i = 0; i < (__u32)j; i++)
			if (port[i] == port[j])
				ret = ctl_usage(c, "links '%s': given twice (allowed once)",
						h->links[j]);
	if (ret)
		goto out;
	kb_tree_reset(h->tr, h->src);
	for (left = h->nlinks, added = 1; left && added;) {
		added = 0;
		for (j = 0; j < h->nlinks; j++) {
			if (in[j] || h->tr->depth[t->ports[port[j]].node] == KB_NONE)
				continue;
			if (kb_tree_add_link(h->tr, port[j])) {
				link_str(&h->tp, port[j], a, sizeof(a));
				ret = ctl_usage(c, "links '%s': leads back into the tree at %s (allowed: a tree: one way to each node)",
						a, h->tp.name[t->ports[port[j]].peer_node]);
				goto out;
			}
			in[j] = true;
			left--;
			added++;
		}
	}
	for (j = 0; left && j < h->nlinks; j++) {
		if (in[j])
			continue;
		snprintf(b, sizeof(b), "%s:0", h->tp.name[h->src]);
		ret = ctl_usage(c, "links '%s': not reached from src %s (allowed: links that grow a tree from the source's link %s)",
				h->links[j], h->tp.name[h->src], b);
		goto out;
	}
	for (i = 0; i < t->nhosts; i++)
		if (t->hosts[i] != h->src &&
		    h->tr->depth[t->hosts[i]] != KB_NONE)
			kb_tree_add_member(h->tr, t->hosts[i]);
out:
	free(port);
	free(in);
	return ret;
}

static int hdr_lipsin(struct ctl *c, struct hdr *h)
{
	int ret;

	ret = kb_zf_build(h->l, h->tr, (__u32)h->tags, h->o.fill, &h->z);
	if (ret == -E2BIG)
		return ctl_usage(c, "tree: its %u links set more than %u bits in every tag set tried (allowed: a smaller tree, fill up to 256, more tags, or form msbf)",
				 h->tr->nlinks, h->o.fill);
	if (ret)
		return ctl_syserr(c, ret, NULL, "%s: zFilter", c->cmd_path);
	h->len = kb_ipbf_write_lipsin(h->buf, IPBF_HDR_MAX,
				      h->hop ? (__u32)h->hop : h->tr->height,
				      h->z.tag, (__u16)h->proto, &h->z.zf);
	if (h->len < 0)
		return ctl_syserr(c, h->len, NULL, "%s: header", c->cmd_path);
	return 0;
}

static int hdr_msbf(struct ctl *c, struct hdr *h)
{
	struct kb_msbf_params p = { 0 };
	int ret;

	p.ntags = (__u32)h->tags;
	p.hop_limit = (__u32)h->hop;
	p.inner_proto = (__u16)h->proto;
	ret = kb_msbf_new(h->tp.t, &h->ms);
	if (ret)
		return ctl_syserr(c, ret, NULL, "%s: msbf", c->cmd_path);
	h->len = kb_msbf_build(h->ms, h->l, h->tr, &p, h->buf, IPBF_HDR_MAX,
			       &h->info);
	if (h->len == -EMSGSIZE)
		return ctl_usage(c, "tree: its MSBF header would exceed %u bytes (allowed: a smaller tree)",
				 IPBF_HDR_MAX);
	if (h->len > (int)(KB_IPBF_FRAME_MAX - KB_IPBF_ETH_LEN))
		return ctl_usage(c, "tree: its MSBF header of %d bytes is over the %u a node parses (allowed: a smaller tree)",
				 h->len, KB_IPBF_FRAME_MAX - KB_IPBF_ETH_LEN);
	if (h->hop && h->len > 0 && h->hop < h->info.nstages)
		return ctl_usage(c, "hop-limit '%llu': below the %u stages of the tree (allowed: %u..255)",
				 (unsigned long long)h->hop, h->info.nstages,
				 h->info.nstages);
	if (h->len < 0)
		return ctl_syserr(c, h->len, NULL, "%s: header", c->cmd_path);
	return 0;
}

static int hdr_yesno(struct ctl *c, struct hdr *h)
{
	struct kb_yn_params p = {
		.ntags = (__u32)h->tags,
		.fill_limit = h->o.fill,
		.no_bytes = (__u32)h->no_bytes,
		.no_k = (__u32)h->no_k,
		.nseeds = KB_YN_SEEDS_DEFAULT,
	};
	int ret;

	ret = kb_yn_build(h->l, h->tr, &p, &h->y);
	if (ret == -E2BIG)
		return ctl_usage(c, "tree: its %u links set more than %u bits in every tag set tried (allowed: a smaller tree, fill up to 256, more tags, or form msbf)",
				 h->tr->nlinks, h->o.fill);
	if (!ret && h->y.excluded)
		ret = -EPROTO;	/* never: kb_yn_build() checks */
	if (ret)
		return ctl_syserr(c, ret, NULL, "%s: yes-no", c->cmd_path);
	h->len = kb_ipbf_write_yesno(h->buf, IPBF_HDR_MAX,
				     h->hop ? (__u32)h->hop : h->tr->height,
				     (__u16)h->proto, &h->y);
	if (h->len < 0)
		return ctl_syserr(c, h->len, NULL, "%s: header", c->cmd_path);
	h->z.tag = h->y.tag;	/* the table of tag sets marks it */
	return 0;
}

/* The tree, the header, then the source's own forwarding step. */
static int hdr_build(struct ctl *c, struct hdr *h)
{
	int ret;

	h->buf = malloc(IPBF_HDR_MAX);
	ret = h->buf ? kb_lids_new(h->tp.t, h->o.seed, h->o.k, h->o.d, &h->l) :
		       -ENOMEM;
	ret = ret ?: kb_tree_new(h->tp.t, &h->tr);
	if (ret)
		return ctl_syserr(c, ret, NULL, "%s", c->cmd_path);
	ret = h->ndst ? hdr_tree_dst(c, h) : hdr_tree_links(c, h);
	if (!ret)
		ret = h->form == FORM_MSBF ? hdr_msbf(c, h) :
		      h->form == FORM_YESNO ? hdr_yesno(c, h) :
					      hdr_lipsin(c, h);
	if (ret)
		return ret;
	h->sent = kbloom_ipbf_source_step(h->l, kb_topo_port(h->tp.t, h->src, 0),
					  h->buf, h->len, h->o.fill);
	if (h->sent == -ENOENT)
		return ctl_usage(c, "links: none leaves src %s (allowed: a tree that starts with %s:0)",
				 h->tp.name[h->src], h->tp.name[h->src]);
	if (h->sent < 0)
		return ctl_syserr(c, h->sent, NULL, "%s: the source's step",
				  c->cmd_path);
	return 0;
}

static void hdr_free(struct hdr *h)
{
	kb_msbf_free(h->ms);
	kb_tree_free(h->tr);
	kb_spt_free(h->spt);
	kb_lids_free(h->l);
	topo_free(&h->tp);
	free(h->buf);
}

static void hex_str(char *out, const __u8 *b, int n)
{
	int i;

	for (i = 0; i < n; i++)
		sprintf(out + 2 * i, "%02x", b[i]);
	out[2 * n] = 0;
}

static void hdr_text_tree(const struct hdr *h)
{
	const struct kb_tree *tr = h->tr;
	const struct kb_topo *t = h->tp.t;
	char a[64];
	__u32 i;

	printf("tree from %s: %u links, %u receiver%s, height %u\n",
	       h->tp.name[h->src], tr->nlinks, tr->nmembers,
	       tr->nmembers == 1 ? "" : "s", tr->height);
	printf("  links:");
	for (i = 0; i < tr->nlinks; i++)
		printf(" %s", link_str(&h->tp, tr->links[i], a, sizeof(a)));
	printf("\n  receivers:");
	for (i = 0; i < t->nhosts; i++)
		if (tr->member[t->hosts[i]])
			printf(" %s", h->tp.name[t->hosts[i]]);
	printf("\n");
}

static void hdr_text_tags(const struct hdr *h)
{
	struct kb_ipbf_zf zf;
	__u32 t, i;

	printf("%3s %5s %9s\n", "TAG", "FILL", "FALSE_POS");
	for (t = 0; t < h->tags; t++) {
		memset(&zf, 0, sizeof(zf));
		for (i = 0; i < h->tr->nlinks; i++)
			kb_ipbf_zf_or(&zf, kb_lid(h->l, t, h->tr->links[i]));
		printf("%3u %5u %9u%s\n", t, kb_ipbf_zf_fill(&zf),
		       kb_zf_count_fp(h->l, h->tr, &zf, t),
		       t == h->z.tag ? "  <- chosen" :
		       kb_ipbf_zf_fill(&zf) > h->o.fill ? "  (over the fill limit)" : "");
	}
}

static void hdr_text(const struct hdr *h)
{
	__u32 s;
	int i;

	hdr_text_tree(h);
	if (h->form == FORM_YESNO) {
		printf("yesno: tag %u of %llu, fill %u of 256 bits (limit %u), %u of %u candidate links match yes, %u left after no\n",
		       h->y.tag, (unsigned long long)h->tags, h->y.fill,
		       h->o.fill, h->y.fp_yes, h->y.candidates, h->y.fp);
		printf("no: %u bytes, k %u, seed %u; 0 of %u tree links in no\n",
		       h->y.no.bytes, h->y.no.k, h->y.no.seed, h->tr->nlinks);
		hdr_text_tags(h);
	} else if (!h->form) {
		printf("lipsin: tag %u of %llu, fill %u of 256 bits (limit %u), %u of %u candidate links match\n",
		       h->z.tag, (unsigned long long)h->tags, h->z.fill,
		       h->o.fill, h->z.fp, h->z.candidates);
		hdr_text_tags(h);
	} else {
		printf("msbf: %u stages, tag %u, %u bytes, no false positive\n",
		       h->info.nstages, h->info.tag, h->info.bytes);
		printf("%5s %6s %3s %6s\n", "STAGE", "M", "K", "BYTES");
		for (s = 0; s < h->info.nstages; s++)
			printf("%5u %6u %3u %6u\n", s, h->info.stage_m[s],
			       h->info.stage_k[s], h->info.stage_bytes[s]);
	}
	printf("header: %d bytes as %s sends it (hop limit %u%s)",
	       h->sent, h->tp.name[h->src], h->buf[2],
	       h->form == FORM_MSBF ? ", its own stage removed" : "");
	for (i = 0; i < h->sent; i++)
		printf("%s%02x", i % 16 ? " " : "\n  ", h->buf[i]);
	printf("\n");
}

static void hdr_json(const struct hdr *h)
{
	const struct kb_topo *t = h->tp.t;
	struct kb_ipbf_zf zf;
	char a[64], *hex;
	struct json j;
	__u32 i, g;

	json_init(&j, stdout);
	json_obj(&j);
	json_kstr(&j, "form", form_words[h->form]);
	json_kstr(&j, "src", h->tp.name[h->src]);
	json_key(&j, "links");
	json_arr(&j);
	for (i = 0; i < h->tr->nlinks; i++)
		json_str(&j, link_str(&h->tp, h->tr->links[i], a, sizeof(a)));
	json_arr_end(&j);
	json_key(&j, "receivers");
	json_arr(&j);
	for (i = 0; i < t->nhosts; i++)
		if (h->tr->member[t->hosts[i]])
			json_str(&j, h->tp.name[t->hosts[i]]);
	json_arr_end(&j);
	json_ku64(&j, "height", h->tr->height);
	json_ku64(&j, "seed", h->o.seed);
	json_ku64(&j, "k", h->o.k);
	json_ku64(&j, "d", h->o.d);
	if (h->form == FORM_YESNO) {
		json_ku64(&j, "tag", h->y.tag);
		json_ku64(&j, "fill", h->y.fill);
		json_ku64(&j, "fill_limit", h->o.fill);
		json_ku64(&j, "yes_false_positives", h->y.fp_yes);
		json_ku64(&j, "false_positives", h->y.fp);
		json_ku64(&j, "candidates", h->y.candidates);
		json_ku64(&j, "no_bytes", h->y.no.bytes);
		json_ku64(&j, "no_k", h->y.no.k);
		json_ku64(&j, "no_seed", h->y.no.seed);
		json_ku64(&j, "tree_links_in_no", h->y.excluded);
	} else if (!h->form) {
		json_ku64(&j, "tag", h->z.tag);
		json_ku64(&j, "fill", h->z.fill);
		json_ku64(&j, "fill_limit", h->o.fill);
		json_ku64(&j, "false_positives", h->z.fp);
		json_ku64(&j, "candidates", h->z.candidates);
		json_key(&j, "tags");
		json_arr(&j);
		for (g = 0; g < h->tags; g++) {
			memset(&zf, 0, sizeof(zf));
			for (i = 0; i < h->tr->nlinks; i++)
				kb_ipbf_zf_or(&zf, kb_lid(h->l, g,
							  h->tr->links[i]));
			json_obj(&j);
			json_ku64(&j, "tag", g);
			json_ku64(&j, "fill", kb_ipbf_zf_fill(&zf));
			json_ku64(&j, "false_positives",
				  kb_zf_count_fp(h->l, h->tr, &zf, g));
			json_obj_end(&j);
		}
		json_arr_end(&j);
	} else {
		json_ku64(&j, "tag", h->info.tag);
		json_key(&j, "stages");
		json_arr(&j);
		for (i = 0; i < h->info.nstages; i++) {
			json_obj(&j);
			json_ku64(&j, "m", h->info.stage_m[i]);
			json_ku64(&j, "k", h->info.stage_k[i]);
			json_ku64(&j, "bytes", h->info.stage_bytes[i]);
			json_obj_end(&j);
		}
		json_arr_end(&j);
	}
	json_ku64(&j, "hop_limit", h->buf[2]);
	json_ku64(&j, "bytes", h->sent);
	hex = malloc(2 * h->sent + 1);
	if (hex) {
		hex_str(hex, h->buf, h->sent);
		json_kstr(&j, "header", hex);
		free(hex);
	}
	json_obj_end(&j);
	json_end(&j);
}

static int hdr_write(struct ctl *c, const struct hdr *h)
{
	struct kbloom_out *o;
	int ret;

	ret = ctl_out_open(c, c->cmd_path, h->out, false, &o);
	if (ret)
		return ret;
	ret = ctl_out_send(c, o, c->cmd_path, h->out, h->buf, h->sent);
	return ctl_out_close(c, c->cmd_path, h->out, o, ret != 0) ?: ret;
}

int ipbf_cmd_header(struct ctl *c, int argc, char **argv)
{
	struct hdr h = { 0 };
	int ret;

	h.out = c->set[CO_OUTPUT] ? c->val[CO_OUTPUT] : NULL;
	if (h.out && c->set[CO_JSON])
		return ctl_usage(c, "option -j: not with -o (the header bytes go to FILE)");
	ret = hdr_args(c, &h, argc, argv);
	ret = ret ?: hdr_build(c, &h);
	if (ret)
		goto out;
	if (h.out)
		ret = hdr_write(c, &h);
	else if (!ctl_quiet(c) && c->set[CO_JSON])
		hdr_json(&h);
	else if (!ctl_quiet(c))
		hdr_text(&h);
	if (!ret && !h.out)
		ret = ctl_flush_stdout(c);
out:
	hdr_free(&h);
	return ret;
}
