/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * libkbloom: the survey's further variants (issue "Survey variants IV"),
 * each in userspace/lib/survey/ behind this one header, each from the one
 * kb_hash() of uapi/kbloom_hash.h (or a hash id of its own in the
 * contract), each tested against its formula in tests/core/.
 *
 * Errors are negative errno values; bad arguments are -EINVAL and change
 * nothing.
 */
#ifndef _LIBKBLOOM_SURVEY_H
#define _LIBKBLOOM_SURVEY_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>

#include "libkbloom.h"

#ifdef __cplusplus
extern "C" {
#endif

/* === one-hashing, ultra-fast, split-block (Parquet), complement === */

/* === end of one-hashing, ultra-fast, split-block, complement === */

/* === accurate counting, FP-CBF, retouched, generalized === */

/* === end of accurate counting, FP-CBF, retouched, generalized === */

/* === shifting, weighted, adaptive, distance-sensitive, matrix === */

/* === end of shifting, weighted, adaptive, distance-sensitive, matrix === */

#ifdef __cplusplus
}
#endif

#endif /* _LIBKBLOOM_SURVEY_H */
