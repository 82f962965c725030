/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * kbloom: the invertible Bloom lookup table (KBLOOM_TYPE_IBLT; Goodrich and
 * Mitzenmacher, "Invertible Bloom Lookup Tables", Allerton 2011) and the
 * strata estimator (Eppstein, Goodrich, Uyeda, Varghese, "What's the
 * difference? Efficient set reconciliation without prior context",
 * SIGCOMM 2011), shared by every executor (libkbloom, the XDP loss
 * digest, kbloom.ko's saves).
 *
 * Cell: 3 + W 64-bit words (W = key words, 1..KB_IBLT_KEY_WORDS_MAX):
 *   word 0      count: keys added minus keys deleted (two's complement)
 *   word 1      check sum: XOR of the keys' check hashes
 *   word 2      value sum: XOR of the keys' 64-bit values
 *   word 3..    key sum: XOR of the keys' encoded words
 * All sums are XOR and the count wraps, so a table is a linear map of the
 * multiset of its keys: subtracting two tables cell by cell (count minus
 * count, the sums XORed) is the table of the difference, and per-CPU or
 * per-point tables add up the same way.
 *
 * Encoded key: byte 0 is the length len (1..kb_iblt_key_max(W)), bytes
 * 1..len the key, the rest of the 8 W bytes zero; word j is bytes
 * [8 j, 8 j + 8) read little-endian.  A key sum whose length byte or
 * padding is not of this form is not one key.
 *
 * Hashes of a key (kb_hash(), any hash id of the table):
 *   h = kb_hash(id, seed, key)                      cell positions
 *   c = kb_hash(id, seed ^ KB_IBLT_CHECK_SALT, key)  the check hash
 *   s = kb_hash(id, seed ^ KB_IBLT_STRATA_SALT, key) the stratum
 *
 * Positions: a table has T tables (@tables, 1 for a plain IBLT) of B
 * cells (@buckets), each of k partitions of P = B / k cells; m = T B.  The
 * key's cell in partition i of table t is
 *   t B + i P + kb_reduce32(g_i >> 32, P),  g_0 = h, g_{i+1} = g_i KB_PROBE_MUL
 * (the standard filter's probe words), so its k cells are distinct.  A
 * plain IBLT uses t = 0.  A strata estimator is T = L strata: the key
 * goes to table t = min(ctz(s), L - 1) (s = 0: L - 1), a share 2^-(t+1)
 * of the keys in stratum t.
 *
 * Decoding (peeling): a cell is pure when its count is +1 or -1, its key
 * sum is one encoded key, the key's check hash equals the check sum and
 * the key's cell in that partition is the cell itself; its key is listed
 * (+1: in the first set only, -1: in the second only) and removed from
 * its k cells, which may make other cells pure.  Decoding succeeds only
 * when every cell ends at zero; otherwise it has failed and lists
 * nothing.  With k = 4 and 1.5 d cells a difference of d keys decodes
 * with high probability (Goodrich and Mitzenmacher's threshold for k = 4
 * is c_4 = 1.295 cells per key).
 *
 * Strata estimate (Eppstein et al., section 3): decode the difference's
 * strata from L - 1 down; when stratum t fails, the estimate is
 * 2^(t+1) times the keys counted in the strata above it; when all
 * decode, it is their count.
 *
 * Shape (struct kb_shape): @type, @k (KB_IBLT_K_MIN..KB_IBLT_K_MAX),
 * @slots = W, @tables = T (1..KB_IBLT_STRATA_MAX), @buckets = B (a
 * multiple of k), @m = T B (at most KB_IBLT_CELLS_MAX); every other field
 * 0.  The image is version 3: base header, geometry tail, then the cells
 * in index order, each its 3 + W words little-endian.
 */
#ifndef _UAPI_KBLOOM_VAR_IBLT_H
#define _UAPI_KBLOOM_VAR_IBLT_H

#include <linux/types.h>
#include "kbloom_base.h"
#include "kbloom_hash.h"
#include "kbloom_shape.h"
#include "kbloom_layout.h"

#define KB_IBLT_K_DEFAULT	4U
#define KB_IBLT_STRATA_DEFAULT	32U	/* strata of an estimator */
#define KB_IBLT_STRATUM_CELLS	80U	/* cells per stratum (Eppstein) */

#define KB_IBLT_CHECK_SALT	0x1B17C4EC5A17ED01ULL
#define KB_IBLT_STRATA_SALT	0x57A7A0E571A7E002ULL

/* Cell words: count, check sum, value sum, then the key sum. */
#define KB_IBLT_W_COUNT		0U
#define KB_IBLT_W_CHECK		1U
#define KB_IBLT_W_VALUE		2U
#define KB_IBLT_W_KEY		3U

static inline __u32 kb_iblt_cell_words(__u32 key_words)
{
	return KB_IBLT_W_KEY + key_words;
}

/* The longest key W key words hold: one byte is the length. */
static inline __u32 kb_iblt_key_max(__u32 key_words)
{
	__u32 n = key_words * 8 - 1;

	return n < KBLOOM_KEY_MAX ? n : KBLOOM_KEY_MAX;
}

/* The key words a key of up to @len bytes needs. */
static inline __u32 kb_iblt_key_words_for(__u32 len)
{
	return (len + 1 + 7) / 8;
}

/* Encode @key (1..kb_iblt_key_max(@key_words) bytes) into @w. */
static inline void kb_iblt_encode(const void *key, __u32 len,
				  __u32 key_words, __u64 *w)
{
	const __u8 *k = (const __u8 *)key;
	__u32 i, b;

	for (i = 0; i < key_words; i++)
		w[i] = 0;
	w[0] = len;
	for (b = 0; b < len; b++)
		w[(b + 1) / 8] |= (__u64)k[b] << ((b + 1) % 8 * 8);
}

/* Byte @b (0: the length) of an encoded key. */
static inline __u8 kb_iblt_enc_byte(const __u64 *w, __u32 b)
{
	return (__u8)(w[b / 8] >> (b % 8 * 8));
}

/*
 * Decode @w into @key (room for KBLOOM_KEY_MAX bytes): the length, or 0
 * when @w is not one encoded key (length out of range, padding not zero).
 */
static inline __u32 kb_iblt_decode_key(const __u64 *w, __u32 key_words,
				       __u8 *key)
{
	__u32 len = kb_iblt_enc_byte(w, 0), b;

	if (!len || len > kb_iblt_key_max(key_words))
		return 0;
	for (b = len + 1; b < key_words * 8; b++)
		if (kb_iblt_enc_byte(w, b))
			return 0;
	for (b = 0; b < len; b++)
		key[b] = kb_iblt_enc_byte(w, b + 1);
	return len;
}

static inline __u64 kb_iblt_check(__u32 hash_id, __u64 seed, const void *key,
				  __u32 len)
{
	return kb_hash(hash_id, seed ^ KB_IBLT_CHECK_SALT, key, len);
}

/* The stratum of a key among @strata (1..64). */
static inline __u32 kb_iblt_stratum(__u32 hash_id, __u64 seed,
				    const void *key, __u32 len, __u32 strata)
{
	__u64 s = kb_hash(hash_id, seed ^ KB_IBLT_STRATA_SALT, key, len);
	__u32 t = 0;

	while (t + 1 < strata && !(s & 1)) {
		s >>= 1;
		t++;
	}
	return t;
}

/*
 * The cell of partition @i (0..k-1) for probe word @g (g_i) in a table
 * of @buckets cells starting at cell @base.
 */
static inline __u64 kb_iblt_cell(__u64 g, __u32 i, __u32 k, __u64 buckets,
				 __u64 base)
{
	__u64 p = buckets / k;

	return base + i * p + kb_reduce32((__u32)(g >> 32), p);
}

/* The partition a cell of a table (offset @c from its base) lies in. */
static inline __u32 kb_iblt_partition(__u64 c, __u32 k, __u64 buckets)
{
	return (__u32)(c / (buckets / k));
}

/*
 * The k cells of a key of hash @h in the table at @base; @cells has room
 * for k entries.
 */
static inline void kb_iblt_cells(__u64 h, __u32 k, __u64 buckets, __u64 base,
				 __u64 *cells)
{
	__u64 g = h;
	__u32 i;

	for (i = 0; i < k; i++) {
		cells[i] = kb_iblt_cell(g, i, k, buckets, base);
		g *= KB_PROBE_MUL;
	}
}

/* g_i of a key of hash @h: h KB_PROBE_MUL^i. */
static inline __u64 kb_iblt_probe(__u64 h, __u32 i)
{
	while (i--)
		h *= KB_PROBE_MUL;
	return h;
}

/* Cells for a difference of @d keys at @ratio_pct percent, rounded to k. */
static inline __u64 kb_iblt_cells_for(__u64 d, __u32 ratio_pct, __u32 k)
{
	__u64 c = (d * ratio_pct + 99) / 100;

	if (c < k)
		c = k;
	return (c + k - 1) / k * k;
}

#endif /* _UAPI_KBLOOM_VAR_IBLT_H */
