/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The frame of the batch probe of tests/bpf/xdp_cuckoo.bpf.c, shared with
 * the tests that fill it (xdp_cuckoo_util.h): [key length][count][6 bytes
 * padding][CKT_BATCH keys, CKT_BATCH_STRIDE bytes apart][CKT_BATCH verdict
 * bytes].  CKT_BATCH_FRAME stays below what BPF_PROG_TEST_RUN takes for
 * XDP (a page less headroom and tailroom).
 */
#ifndef KBT_XDP_CUCKOO_BATCH_H
#define KBT_XDP_CUCKOO_BATCH_H

#define CKT_BATCH		128
#define CKT_BATCH_STRIDE	16
#define CKT_BATCH_KEYS		8
#define CKT_BATCH_VERDICTS	(CKT_BATCH_KEYS + CKT_BATCH * CKT_BATCH_STRIDE)
#define CKT_BATCH_FRAME		(CKT_BATCH_VERDICTS + CKT_BATCH)

#endif /* KBT_XDP_CUCKOO_BATCH_H */
