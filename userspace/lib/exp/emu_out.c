// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom_exp: the emulation's agreement table and agreement.csv.
 *
 * A scheme agrees when no packet's per-port transmissions and no host's
 * arrivals differ, and its off-tree transmissions are the model's.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "emu_int.h"

void kb_exp_emu_print(const struct kb_exp_emu_result *res, FILE *f)
{
	const struct kb_exp_emu_result *r;
	char bits[24], ctr[24];
	__u32 s;
	int ok;

	fprintf(f, "%-9s %9s %7s %7s %9s %9s %9s %9s %8s %9s %9s %6s  %s\n",
		"SCHEME", "BITS/PORT", "PACKETS", "SKIPPED", "MODEL TX",
		"EMU TX", "MODEL LK", "EMU LK", "COUNTER", "HOSTS M/E",
		"PKT DIFF", "HOST D", "RESULT");
	for (s = 0; s < KB_EXP_NSCHEMES; s++) {
		r = &res[s];
		if (r->status == -ENOENT)
			continue;
		if (r->status) {
			fprintf(f, "%-9s %s: %s\n", kb_exp_scheme_name(s),
				r->status == -EOPNOTSUPP ? "not emulated" :
				"failed", r->why);
			continue;
		}
		snprintf(bits, sizeof(bits), "%llu", (unsigned long long)r->bits);
		if (!(KB_EXP_S(s) & KB_EXP_PORT_FILTERS))
			snprintf(bits, sizeof(bits), "-");
		snprintf(ctr, sizeof(ctr), "%llu",
			 (unsigned long long)r->emu_leak_counter);
		if (r->emu_leak_counter == ~0ULL)
			snprintf(ctr, sizeof(ctr), "-");
		ok = !r->pkt_mismatch && !r->host_mismatch &&
		     r->model_leak == r->emu_leak;
		fprintf(f, "%-9s %9s %7llu %7llu %9llu %9llu %9llu %9llu %8s %4llu/%-4llu %9llu %6llu  %s%s%s\n",
			kb_exp_scheme_name(s), bits,
			(unsigned long long)r->packets,
			(unsigned long long)r->skipped,
			(unsigned long long)r->model_tx,
			(unsigned long long)r->emu_tx,
			(unsigned long long)r->model_leak,
			(unsigned long long)r->emu_leak, ctr,
			(unsigned long long)r->model_hosts,
			(unsigned long long)r->emu_hosts,
			(unsigned long long)r->pkt_mismatch,
			(unsigned long long)r->host_mismatch,
			ok ? "agree" : "DIFFER", r->why[0] ? "; " : "", r->why);
	}
	fprintf(f, "\nTX: transmissions by switches; LK: those outside the packets' trees; COUNTER:\n"
		"the data path's own leak audit (tx_leaked); HOSTS: arrivals at hosts (model/emulation);\n"
		"PKT DIFF: packets whose per-port transmissions differ; HOST D: (packet, host) arrival\n"
		"counts that differ.\n");
}

int kb_exp_emu_write_csv(struct kb_exp *x, const struct kb_exp_emu_result *res,
			 const char *dir)
{
	const struct kb_exp_emu_result *r;
	char path[4096];
	FILE *f;
	__u32 s;
	int err = 0;

	if (mkdir(dir, 0755) && errno != EEXIST)
		return kb_exp_set_error(x, -errno, "%s: %s", dir,
					strerror(errno));
	snprintf(path, sizeof(path), "%s/agreement.csv", dir);
	f = fopen(path, "we");
	if (!f)
		return kb_exp_set_error(x, -errno, "%s: %s", path,
					strerror(errno));
	char note[sizeof(res->why)], *c;

	fprintf(f, "scheme,bits,status,packets,skipped,model_tx,emu_tx,model_leak,emu_leak,emu_leak_counter,model_hosts,emu_hosts,model_leaked_hosts,emu_leaked_hosts,pkt_mismatch,host_mismatch,seconds,note\n");
	for (s = 0; s < KB_EXP_NSCHEMES; s++) {
		r = &res[s];
		if (r->status == -ENOENT)
			continue;
		snprintf(note, sizeof(note), "%s", r->why);
		for (c = note; *c; c++)
			if (*c == ',' || *c == '\n')
				*c = ';';
		fprintf(f, "%s,%llu,%s,%llu,%llu,%llu,%llu,%llu,%llu,%lld,%llu,%llu,%llu,%llu,%llu,%llu,%.3f,%s\n",
			kb_exp_scheme_name(s), (unsigned long long)r->bits,
			r->status == -EOPNOTSUPP ? "not-emulated" :
			r->status ? "failed" : "ran",
			(unsigned long long)r->packets,
			(unsigned long long)r->skipped,
			(unsigned long long)r->model_tx,
			(unsigned long long)r->emu_tx,
			(unsigned long long)r->model_leak,
			(unsigned long long)r->emu_leak,
			r->emu_leak_counter == ~0ULL ? -1LL :
			(long long)r->emu_leak_counter,
			(unsigned long long)r->model_hosts,
			(unsigned long long)r->emu_hosts,
			(unsigned long long)r->model_leaked_hosts,
			(unsigned long long)r->emu_leaked_hosts,
			(unsigned long long)r->pkt_mismatch,
			(unsigned long long)r->host_mismatch, r->seconds,
			note);
	}
	if (ferror(f))
		err = -EIO;
	if (fclose(f) && !err)
		err = -errno;
	if (err)
		return kb_exp_set_error(x, err, "%s: %s", path, strerror(-err));
	return 0;
}
