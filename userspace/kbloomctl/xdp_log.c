// SPDX-License-Identifier: GPL-2.0
/*
 * kbloomctl: the messages of libkbloom and libbpf during an XDP command,
 * kept as notes: the last one is the detail of an error line, the others
 * are printed after a command that succeeds.
 */
#include <stdarg.h>
#include <string.h>
#include <bpf/libbpf.h>

#include "kbloomctl.h"

#define MAX_NOTES	8

/* ---- messages of the library ------------------------------------------ */

/*
 * The library and libbpf say why something failed in log lines: they are
 * kept here, the last one becomes the detail of the error line, and the
 * notices of a command that succeeds (generic mode chosen, bpffs
 * mounted) are printed after it unless -q.
 */
static char notes[MAX_NOTES][256];
static int nnotes;

static void note_add(const char *msg)
{
	size_t n;

	if (nnotes == MAX_NOTES) {
		memmove(notes[0], notes[1], sizeof(notes[0]) * (MAX_NOTES - 1));
		nnotes--;
	}
	snprintf(notes[nnotes], sizeof(notes[0]), "%s", msg);
	n = strlen(notes[nnotes]);
	while (n && (notes[nnotes][n - 1] == '\n' ||
		     notes[nnotes][n - 1] == ' '))
		notes[nnotes][--n] = 0;
	if (n)
		nnotes++;
}

void xdp_log(void *ctx, const char *msg)
{
	note_add(msg);
}

static int libbpf_log(enum libbpf_print_level level, const char *fmt,
		      va_list ap)
{
	char buf[256];

	if (level != LIBBPF_WARN)
		return 0;
	vsnprintf(buf, sizeof(buf), fmt, ap);
	note_add(buf);
	return 0;
}

void xdp_log_reset(void)
{
	nnotes = 0;
	libbpf_set_print(libbpf_log);
}

void xdp_notes(const struct ctl *c)
{
	int i;

	if (!ctl_quiet(c))
		for (i = 0; i < nnotes; i++)
			ctl_warn(c, "%s: note: %s", c->cmd_path, notes[i]);
	nnotes = 0;
}

/* A system error; the library's last word on it as the detail. */
int xdp_fail(const struct ctl *c, int err, const char *opfmt, ...)
{
	char op[256];
	va_list ap;

	va_start(ap, opfmt);
	vsnprintf(op, sizeof(op), opfmt, ap);
	va_end(ap);
	return ctl_syserr(c, err, nnotes ? notes[nnotes - 1] : NULL, "%s",
			  op);
}
