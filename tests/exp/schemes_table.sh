#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The table of docs/leakage.md, "Every scheme", from a run's summary.csv:
#
#   tests/exp/schemes_table.sh build/leakage/all-schemes/summary.csv
#
# One row per scheme: the leakage at each M of the default sweep, the lost
# deliveries over all M, the bytes per port, the probes per packet (at the
# smallest .. largest M) and the first-order false-positive rate at 32768
# bits, measured / predicted.
set -euo pipefail

awk -F, '
function fmt(v) {
	if (v == 0) return "0"
	if (v >= 0.01) return sprintf("%.3g", v)
	return sprintf("%.2e", v)
}
NR == 1 { next }
{
	s = $1
	if (!(s in seen)) { seen[s] = 1; order[++n] = s }
	if ($2 == 0) {
		inpkt[s] = 1; leak[s, 0] = $9; lost[s] += $27
		bpp[s] = $30; fp[s] = $13; pred[s] = $14
		next
	}
	leak[s, $2] = $9; lost[s] += $27
	if ($2 == 8192) { bpp[s] = $30; p0[s] = $31 }
	if ($2 == 131072) p1[s] = $31
	if ($2 == 32768) { fp[s] = $13; pred[s] = $14 }
}
END {
	print "| scheme | leakage at M = 8192 | 16384 | 32768 | 65536 | 131072 | lost deliveries | bytes per port | probes per packet (M = 8192 .. 131072) | FP rate at 32768, measured / predicted |"
	print "|---|---|---|---|---|---|---|---|---|---|"
	for (i = 1; i <= n; i++) {
		s = order[i]
		if (s in inpkt) {
			b = s == "exact" ? sprintf("%.0f (group tables)", bpp[s]) : sprintf("%.0f", bpp[s])
			r = s ~ /^lipsin/ ? sprintf("%.2e / %.2e", fp[s], pred[s]) : "0"
			printf "| %s | %s (any M) | | | | | %d | %s | — | %s |\n", s, fmt(leak[s, 0]), lost[s], b, r
			continue
		}
		b = bpp[s] == 1024 ? "M/8" : sprintf("M/8 + %d", bpp[s] - 1024)
		pr = (p0[s] - p1[s] < 0.5 && p1[s] - p0[s] < 0.5) ? sprintf("%.0f", p0[s]) : sprintf("%.0f .. %.0f", p0[s], p1[s])
		printf "| %s | %s | %s | %s | %s | %s | %d | %s | %s | %.2e / %.2e |\n", s, fmt(leak[s, 8192]), fmt(leak[s, 16384]), fmt(leak[s, 32768]), fmt(leak[s, 65536]), fmt(leak[s, 131072]), lost[s], b, pr, fp[s], pred[s]
	}
}' "$1"
