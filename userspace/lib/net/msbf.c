// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom_net: false-positive-free multi-stage headers (MSBF, after
 * Tapolcai et al., "Optimal false-positive-free Bloom filter design for
 * scalable multicast forwarding", IEEE/ACM ToN 2015).
 *
 * Stage s of a tree's header serves the tree nodes s hops from the source.
 * Its positives are the tree links leaving those nodes; its negatives are
 * their candidate links (every other port but the ingress one).  The stage
 * is the smallest filter (bytes, then bits, then k) in which every
 * positive sets its k positions (uapi/kbloom_ipbf.h) and no negative
 * finds all of its k positions set; m grows one bit at a time from a
 * starting size, for each k in the allowed range.  The starting size is
 * where the expected number of matching negatives, N (1 - e^(-k n / m))^k,
 * equals start_fp (4 by default), or 1 with KB_MSBF_EXACT.  Every size is
 * a fresh draw of positions, so the more sizes a scan tries the smaller
 * the stage it finds: start_fp trades build time for header bytes.
 *
 * The size of each stage is searched by msbf_scan.c.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "msbf_int.h"

int kb_msbf_new(const struct kb_topo *t, struct kb_msbf **mp)
{
	struct kb_msbf *m;
	size_t n;

	if (!t || !t->final || !mp)
		return -EINVAL;
	n = t->nports ? t->nports : 1;
	m = calloc(1, sizeof(*m));
	if (!m)
		return -ENOMEM;
	m->topo = t;
	m->pos = malloc(n * sizeof(*m->pos));
	m->neg = malloc(n * sizeof(*m->neg));
	m->px = malloc(n * sizeof(*m->px));
	m->nx = malloc(n * sizeof(*m->nx));
	m->words = malloc(n * KB_IPBF_STAGE_K_MAX * sizeof(*m->words));
	m->tmp = malloc(n * KB_IPBF_STAGE_K_MAX * sizeof(*m->tmp));
	m->nid = malloc(n * KB_IPBF_STAGE_K_MAX * sizeof(*m->nid));
	m->lo = malloc(n * KB_IPBF_STAGE_K_MAX * sizeof(*m->lo));
	m->hi = malloc(n * KB_IPBF_STAGE_K_MAX * sizeof(*m->hi));
	m->nsucc = malloc(n * KB_IPBF_STAGE_K_MAX * sizeof(*m->nsucc));
	m->act = malloc(n * sizeof(*m->act));
	m->memo = aligned_alloc(sizeof(*m->memo), n * sizeof(*m->memo));
	m->memo_lh = malloc(n * sizeof(*m->memo_lh));
	m->memo_ok = calloc(n, sizeof(*m->memo_ok));
	m->ibits_max = 1;
	while (m->ibits_max < MSBF_IBITS &&
	       (1ULL << m->ibits_max) < (__u64)n * KB_IPBF_STAGE_K_MAX)
		m->ibits_max++;
	m->idx = malloc(((1U << m->ibits_max) + 1) * sizeof(*m->idx));
	if (!m->pos || !m->neg || !m->px || !m->nx || !m->words || !m->tmp ||
	    !m->nid || !m->lo || !m->hi || !m->nsucc ||
	    !m->act || !m->idx || !m->memo || !m->memo_lh ||
	    !m->memo_ok) {
		kb_msbf_free(m);
		return -ENOMEM;
	}
	*mp = m;
	return 0;
}

void kb_msbf_free(struct kb_msbf *m)
{
	if (!m)
		return;
	free(m->pos);
	free(m->neg);
	free(m->px);
	free(m->nx);
	free(m->words);
	free(m->tmp);
	free(m->nid);
	free(m->lo);
	free(m->hi);
	free(m->nsucc);
	free(m->act);
	free(m->idx);
	free(m->memo);
	free(m->memo_lh);
	free(m->memo_ok);
	free(m);
}

static int msbf_config(const struct kb_lids *l, const struct kb_msbf_params *p,
		       struct msbf_cfg *c)
{
	memset(c, 0, sizeof(*c));
	c->k_min = 1;
	c->k_max = KB_IPBF_STAGE_K_MAX;
	c->ntags = 1;
	c->start_fp = 4.0;
	if (!p)
		return 0;
	if (p->flags & ~KB_MSBF_EXACT)
		return -EINVAL;
	if (p->k_min || p->k_max) {
		if (p->k_min < 1 || p->k_max > KB_IPBF_STAGE_K_MAX ||
		    p->k_min > p->k_max)
			return -ERANGE;
		c->k_min = p->k_min;
		c->k_max = p->k_max;
	}
	if (p->ntags > l->d || (p->ntags <= 1 && p->tag >= l->d) ||
	    p->hop_limit > 255)
		return -ERANGE;
	if (!(p->start_fp >= 0.0) || p->start_fp > 1e9)
		return -ERANGE;
	if (p->ntags > 1)
		c->ntags = p->ntags;
	else
		c->tag0 = p->tag;
	if (p->start_fp > 0.0)
		c->start_fp = p->start_fp;
	c->max_bytes = p->max_bytes;
	c->hop_limit = p->hop_limit;
	c->exact = p->flags & KB_MSBF_EXACT;
	c->inner_proto = p->inner_proto;
	return 0;
}

/* Does tree node @u forward at all (hosts other than the source do not)? */
static inline int relay(const struct kb_tree *tr, __u32 u)
{
	return u == tr->src || tr->topo->nodes[u].kind == KB_NODE_SWITCH;
}

/*
 * Group the positive and negative ports of the tree by stage (counting
 * sort over the depths 0..height-1).
 */
static void msbf_group(struct kb_msbf *ms, const struct kb_tree *tr)
{
	const struct kb_topo *t = tr->topo;
	__u32 i, u, p, end, d, h = tr->height;

	memset(ms->pstart, 0, sizeof(ms->pstart));
	memset(ms->nstart, 0, sizeof(ms->nstart));
	for (i = 0; i < tr->nnodes; i++) {
		u = tr->nodes[i];
		d = tr->depth[u];
		if (d >= h || !relay(tr, u))
			continue;
		end = t->nodes[u].first_port + t->nodes[u].nports;
		for (p = t->nodes[u].first_port; p < end; p++) {
			if (tr->on_tree[p])
				ms->pstart[d + 1]++;
			else if (p != tr->in_port[u])
				ms->nstart[d + 1]++;
		}
	}
	for (d = 0; d < h; d++) {
		ms->pstart[d + 1] += ms->pstart[d];
		ms->nstart[d + 1] += ms->nstart[d];
	}
	for (i = 0; i < tr->nnodes; i++) {
		u = tr->nodes[i];
		d = tr->depth[u];
		if (d >= h || !relay(tr, u))
			continue;
		end = t->nodes[u].first_port + t->nodes[u].nports;
		for (p = t->nodes[u].first_port; p < end; p++) {
			if (tr->on_tree[p])
				ms->pos[ms->pstart[d]++] = p;
			else if (p != tr->in_port[u])
				ms->neg[ms->nstart[d]++] = p;
		}
	}
	/* the fill loop advanced each start to the next one's: shift back */
	for (d = h; d > 0; d--) {
		ms->pstart[d] = ms->pstart[d - 1];
		ms->nstart[d] = ms->nstart[d - 1];
	}
	ms->pstart[0] = 0;
	ms->nstart[0] = 0;
}

/*
 * The probe words of a link: position i over m bits is kb_reduce32(x_i,
 * m) with x_i the kb_probe sequence of its link hash, so one table serves
 * every m and every k (a smaller k uses a prefix).
 */
static void probe_words(__u64 lh, __u32 *x)
{
	struct kb_probe pr;
	__u32 i;

	kb_probe_init(&pr, lh);
	for (i = 0; i < KB_IPBF_STAGE_K_MAX; i++) {
		x[i] = kb_probe_word(&pr);
		kb_probe_next(&pr, 1);
	}
}

/*
 * The probe words of port @p's link in tag set @tag: the ports of one
 * tree are those of the next (the same switches, the same link hashes),
 * so each port keeps the words of the last hash it had.
 */
static const __u32 *port_words(struct kb_msbf *ms, const struct kb_lids *l,
			       __u32 tag, __u32 p)
{
	struct msbf_memo *e = &ms->memo[p];
	__u64 lh = kb_lhash(l, tag, p);

	if (!ms->memo_ok[p] || ms->memo_lh[p] != lh) {
		probe_words(lh, e->x);
		ms->memo_lh[p] = lh;
		ms->memo_ok[p] = 1;
	}
	return e->x;
}

static void msbf_load_tag(struct kb_msbf *ms, const struct kb_lids *l,
			  __u32 tag, __u32 h)
{
	__u32 i;

	for (i = 0; i < ms->pstart[h]; i++)
		ms->px[i] = port_words(ms, l, tag, ms->pos[i]);
	for (i = 0; i < ms->nstart[h]; i++)
		ms->nx[i] = port_words(ms, l, tag, ms->neg[i]);
}

/* Plan every stage in tag set @tag; return the header bytes, 0 if none. */
static __u32 msbf_plan(struct kb_msbf *ms, const struct kb_lids *l,
		       const struct msbf_cfg *c, __u32 tag, __u32 h,
		       __u32 bound)
{
	__u32 s, bits, total = KB_IPBF_HDR_LEN;

	msbf_load_tag(ms, l, tag, h);
	for (s = 0; s < h; s++) {
		bits = msbf_stage_search(ms, c, s, &ms->m[s], &ms->k[s]);
		if (!bits)
			return 0;
		total += (bits + 7) / 8;
		if (bound && total >= bound)
			return 0;
	}
	return total;
}

static void put_bits(__u8 *b, __u32 *pos, __u32 v, __u32 n)
{
	__u32 i;

	for (i = n; i-- > 0; (*pos)++)
		if ((v >> i) & 1)
			b[*pos >> 3] |= kb_ipbf_bit_mask(*pos);
}

/* Write stage @s (planned as m, k) at @b; return its bytes. */
static __u32 stage_write(struct kb_msbf *ms, __u32 s, __u32 m, __u32 k,
			 __u8 *b)
{
	__u32 bytes = (stage_bits(m) + 7) / 8, pos = 0, w, off;
	__u64 x;

	memset(b, 0, bytes);
	put_bits(b, &pos, m, kb_ipbf_gamma_len(m));
	put_bits(b, &pos, k - 1, KB_IPBF_STAGE_KBITS);
	msbf_stage_fill(ms, s, k, m);
	for (w = 0; w < (m + 63) / 64; w++) {
		for (x = ms->bits[w]; x; x &= x - 1) {
			off = pos + w * 64 + (__u32)__builtin_ctzll(x);
			b[off >> 3] |= kb_ipbf_bit_mask(off);
		}
	}
	return bytes;
}

static void msbf_write(struct kb_msbf *ms, const struct msbf_cfg *c,
		       __u32 tag, __u32 h, __u8 *b)
{
	__u32 s, off = KB_IPBF_HDR_LEN;

	b[0] = KB_IPBF_VERSION;
	b[1] = KB_IPBF_F_MSBF;
	b[2] = (__u8)(c->hop_limit ? c->hop_limit : h);
	b[3] = (__u8)tag;
	b[4] = (__u8)h;
	b[5] = 0;
	b[6] = (__u8)(c->inner_proto >> 8);
	b[7] = (__u8)c->inner_proto;
	for (s = 0; s < h; s++)
		off += stage_write(ms, s, ms->best_m[s], ms->best_k[s], b + off);
}

static void msbf_info(const struct kb_msbf *ms, __u32 tag, __u32 h,
		      __u32 total, struct kb_msbf_info *info)
{
	__u32 s;

	memset(info, 0, sizeof(*info));
	info->bytes = total;
	info->nstages = h;
	info->tag = tag;
	for (s = 0; s < h; s++) {
		info->stage_m[s] = ms->best_m[s];
		info->stage_k[s] = ms->best_k[s];
		info->stage_bytes[s] = (stage_bits(ms->best_m[s]) + 7) / 8;
	}
}

int kb_msbf_build(struct kb_msbf *ms, const struct kb_lids *l,
		  const struct kb_tree *tr, const struct kb_msbf_params *p,
		  void *buf, size_t len, struct kb_msbf_info *info)
{
	__u32 h, tag, best_tag = 0, total, best = 0, limit;
	struct msbf_cfg c;
	int err;

	if (!ms || !l || !tr || !buf || l->topo != ms->topo ||
	    tr->topo != ms->topo || tr->src == KB_NONE)
		return -EINVAL;
	err = msbf_config(l, p, &c);
	if (err)
		return err;
	h = tr->height;
	if (h > KB_IPBF_STAGES_MAX)
		return -EINVAL;
	limit = len > 0x7FFFFFFF ? 0x7FFFFFFF : (__u32)len;
	if (c.max_bytes && c.max_bytes < limit)
		limit = c.max_bytes;
	msbf_group(ms, tr);
	for (tag = c.tag0; tag < c.tag0 + c.ntags; tag++) {
		total = msbf_plan(ms, l, &c, tag, h, best ? best : limit + 1);
		if (!total || (best && total >= best))
			continue;
		best = total;
		best_tag = tag;
		memcpy(ms->best_m, ms->m, h * sizeof(ms->m[0]));
		memcpy(ms->best_k, ms->k, h * sizeof(ms->k[0]));
	}
	if (!best)
		return -EMSGSIZE;
	if (best_tag != tag - 1)
		msbf_load_tag(ms, l, best_tag, h);
	msbf_write(ms, &c, best_tag, h, buf);
	if (info)
		msbf_info(ms, best_tag, h, best, info);
	return (int)best;
}
