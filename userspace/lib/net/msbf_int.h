/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * libkbloom_net: the MSBF builder's state, shared by msbf.c (the trees,
 * the tag sets, the header) and msbf_scan.c (the search for each stage's
 * size).
 */
#ifndef _KBLOOM_MSBF_INT_H
#define _KBLOOM_MSBF_INT_H

#include "libkbloom_net.h"

#define MSBF_WORDS	((KB_IPBF_STAGE_M_MAX + 64) / 64)
#define MSBF_DEPTHS	(KB_IPBF_STAGES_MAX + 1)
#define MSBF_IBITS	22	/* stage_words(): at most 2^22 + 1 entries */
#define MSBF_NEAR	4	/* near[]: MSBF_NEAR cells per position at m0 */
#define MSBF_NEAR_WORDS	((MSBF_NEAR * KB_IPBF_STAGE_M_MAX + 64) / 64 + 3)

/* A negative link still in the scan: its probes and their neighbours. */
struct msbf_neg {
	__u32 safe;			/* clean at every m >= safe */
	__u32 x[KB_IPBF_STAGE_K_MAX];
	__u32 pred[KB_IPBF_STAGE_K_MAX];
	__u32 succ[KB_IPBF_STAGE_K_MAX];
};

/*
 * The probe words of a port's link hash, kept across trees (probe_words()):
 * one cache line, read for every negative of every scan.
 */
struct msbf_memo {
	__u32 x[KB_IPBF_STAGE_K_MAX];
} __attribute__((aligned(64)));

struct kb_msbf {
	const struct kb_topo *topo;
	struct msbf_memo *memo;		/* per port */
	__u64 *memo_lh;			/* per port: the link hash they are of */
	__u8 *memo_ok;			/* per port: memo[] holds a link hash */
	__u32 *pos;			/* positive ports, grouped by stage */
	__u32 *neg;			/* negative ports, grouped by stage */
	const __u32 **px;		/* their probe words in the current tag: */
	const __u32 **nx;		/* link j probe i at [j][i] (in memo[]) */
	__u32 *words;			/* sorted positive words of one k */
	__u32 *tmp;			/* sort buffer */
	/* stage_prepare_neg(): the sorted negative words instead */
	__u32 *nid;			/* each one's probe: link j, probe i */
	__u64 *lo;			/* per word: 1 + greatest positive word */
	__u64 *hi;			/* per word: least positive word */
	__u32 *nsucc;			/* per probe: its succ (pred in tmp) */
	struct msbf_neg *act;		/* negatives in the scan */
	__u32 nact;
	__u32 ibits;			/* stage_words() */
	__u32 ibits_max;
	__u32 *idx;
	__u32 pstart[MSBF_DEPTHS + 1];
	__u32 nstart[MSBF_DEPTHS + 1];
	__u64 bits[MSBF_WORDS];		/* one stage filter, bit p: LSB order */
	__u64 near[MSBF_NEAR_WORDS];	/* cells holding a positive word, +64 */
	__u32 ncells;
	__u32 m[KB_IPBF_STAGES_MAX];	/* plan of the current tag */
	__u8 k[KB_IPBF_STAGES_MAX];
	__u32 best_m[KB_IPBF_STAGES_MAX];
	__u8 best_k[KB_IPBF_STAGES_MAX];
};

struct msbf_cfg {
	__u32 k_min;
	__u32 k_max;
	__u32 tag0;
	__u32 ntags;
	__u32 max_bytes;
	__u32 hop_limit;
	__u32 exact;
	__u16 inner_proto;
	double start_fp;
};

/* The bits of a stage of m bits: gamma-coded m, k, the filter. */
static inline __u32 stage_bits(__u32 m)
{
	return kb_ipbf_gamma_len(m) + KB_IPBF_STAGE_KBITS + m;
}

/* msbf_scan.c */
void msbf_stage_fill(struct kb_msbf *ms, __u32 s, __u32 k, __u32 m);
__u32 msbf_stage_search(struct kb_msbf *ms, const struct msbf_cfg *c,
			__u32 s, __u32 *mo, __u8 *ko);

#endif /* _KBLOOM_MSBF_INT_H */
