/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kbloom.ko: kfunc definitions that build on 6.1 and on later kernels.
 *
 *   6.1                          later
 *   BTF_SET8_START/END           BTF_KFUNCS_START/END (6.9: a module's
 *                                set must carry BTF_SET8_KFUNCS, which
 *                                only these set)
 *   (nothing)                    __bpf_kfunc (6.5: keeps the function
 *                                and its BTF even if unused; the kfuncs
 *                                are global, so on 6.1 __used does it)
 *
 * kfunc.c uses the later names; on 6.1 they map to the 6.1 ones.  The
 * kfuncs have prototypes (uapi/kbloom_kfunc.h), so the -Wmissing-prototypes
 * dance of __bpf_kfunc_start_defs() (6.7) is not needed.
 */
#ifndef _KBLOOM_KFUNC_COMPAT_H
#define _KBLOOM_KFUNC_COMPAT_H

#include <linux/bpf.h>
#include <linux/btf.h>
#include <linux/btf_ids.h>

#ifndef BTF_KFUNCS_START
#define BTF_KFUNCS_START(name)	BTF_SET8_START(name)
#define BTF_KFUNCS_END(name)	BTF_SET8_END(name)
#endif

#ifndef __bpf_kfunc
#define __bpf_kfunc	__used
#endif

#endif /* _KBLOOM_KFUNC_COMPAT_H */
