/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kselftest harness for the kmod suite.  Its tests run in a qemu guest
 * under TCG, beside the bpf suite on the host since make check runs the
 * two at once: a test that takes 10 s on an idle host may take 60 under
 * load, so each test gets 180 s (not the harness's 30) before it counts
 * as hung.  Tests with a TEST_F_TIMEOUT of their own keep it.
 */
#ifndef KBLOOM_GUEST_HARNESS_H
#define KBLOOM_GUEST_HARNESS_H

#include "kselftest_harness.h"

#undef TEST_TIMEOUT_DEFAULT
#define TEST_TIMEOUT_DEFAULT 180

#endif
