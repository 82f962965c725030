// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom_exp: the table of the per-port schemes.
 *
 * scheme_list.h names each per-port scheme's enum value and ops; this
 * file declares the ops and indexes them by scheme.  The engine finds a
 * scheme only through exp_scheme().
 */
#include "scheme.h"

#define EXP_SCHEME(id, ops)	extern const struct exp_scheme_ops ops;
#include "scheme_list.h"
#undef EXP_SCHEME

static const struct exp_scheme_ops *const port_schemes[KB_EXP_NSCHEMES] = {
#define EXP_SCHEME(id, ops)	[id] = &ops,
#include "scheme_list.h"
#undef EXP_SCHEME
};

const struct exp_scheme_ops *exp_scheme(__u32 scheme)
{
	return scheme < KB_EXP_NSCHEMES ? port_schemes[scheme] : NULL;
}

/* M's step for the per-port schemes of @schemes: the largest of theirs. */
__u64 exp_scheme_step(const struct kb_exp_params *p, __u32 schemes)
{
	const struct exp_scheme_ops *ops;
	__u64 step = 64, st;
	__u32 i;

	for (i = 0; i < KB_EXP_NSCHEMES; i++) {
		ops = exp_scheme(i);
		if (!ops || !(schemes & KB_EXP_S(i)))
			continue;
		st = ops->bits_step(p);
		if (st > step)
			step = st;
	}
	return step;
}
