/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * kbloom: the survey variants I, shared by every executor: the shape
 * (kbloom_shape.h) and each variant's positions, layout and planner: the
 * cuckoo filter (kbloom_var_cuckoo.h), the variable-increment counting
 * filter (kbloom_var_vicbf.h), the d-left counting filter
 * (kbloom_var_dleft.h) and the Count-Min sketch (kbloom_var_countmin.h);
 * of the survey variants II, the age-partitioned window
 * (kbloom_var_window.h); of the survey variants III, the deletable
 * filter (kbloom_var_deletable.h); of the survey variants IV, the
 * one-hashing (kbloom_var_onehash.h) and split-block
 * (kbloom_var_splitblock.h) filters, the accurate counting filter's
 * levels (kbloom_var_acbf.h) and the FP-CBF's cells (kbloom_var_fpcbf.h).
 */
#ifndef _UAPI_KBLOOM_VARIANTS_H
#define _UAPI_KBLOOM_VARIANTS_H

#include "kbloom_shape.h"
#include "kbloom_var_cuckoo.h"
#include "kbloom_var_vicbf.h"
#include "kbloom_var_dleft.h"
#include "kbloom_var_countmin.h"
#include "kbloom_var_window.h"
#include "kbloom_var_onehash.h"
#include "kbloom_var_splitblock.h"
#include "kbloom_var_deletable.h"
#include "kbloom_var_acbf.h"
#include "kbloom_var_fpcbf.h"

#endif /* _UAPI_KBLOOM_VARIANTS_H */
