/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * libkbloom_exp: the per-port schemes, one line each:
 *   EXP_SCHEME(its enum kb_exp_scheme value, its ops in scheme_<name>.c)
 * Included by scheme.c only (no include guard: it is read twice).  Add a
 * scheme's line at the end.
 */
EXP_SCHEME(KB_EXP_STANDARD, exp_scheme_standard)
EXP_SCHEME(KB_EXP_BLOCKED, exp_scheme_blocked)
EXP_SCHEME(KB_EXP_MCBF, exp_scheme_mcbf)
EXP_SCHEME(KB_EXP_CUCKOO, exp_scheme_cuckoo)
EXP_SCHEME(KB_EXP_VICBF, exp_scheme_vicbf)
EXP_SCHEME(KB_EXP_DLEFT, exp_scheme_dleft)
EXP_SCHEME(KB_EXP_PARTITIONED, exp_scheme_partitioned)
EXP_SCHEME(KB_EXP_ONEHASH, exp_scheme_onehash)
EXP_SCHEME(KB_EXP_ULTRAFAST, exp_scheme_ultrafast)
EXP_SCHEME(KB_EXP_SBBF, exp_scheme_sbbf)
EXP_SCHEME(KB_EXP_DELETABLE, exp_scheme_deletable)
EXP_SCHEME(KB_EXP_ACBF, exp_scheme_acbf)
EXP_SCHEME(KB_EXP_FPCBF, exp_scheme_fpcbf)
EXP_SCHEME(KB_EXP_RBF, exp_scheme_rbf)
EXP_SCHEME(KB_EXP_SHIFTING, exp_scheme_shifting)
EXP_SCHEME(KB_EXP_COMPLEMENT, exp_scheme_complement)
EXP_SCHEME(KB_EXP_WEIGHTED, exp_scheme_weighted)
EXP_SCHEME(KB_EXP_SHIFTING_PORTS, exp_scheme_shifting_ports)
