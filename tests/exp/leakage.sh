#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Regenerate the data and plots of docs/leakage.md.
#
#   tests/exp/leakage.sh [model|emulate|all]     (default: all)
#
# model:   four model runs (20 to 70 s of CPU each on 2 threads):
#            fat-tree-16   k = 16 fat-tree, 10000 groups, 1..1024 receivers
#                          uniform: the acceptance run (timed);
#            zipf          the same fabric, group sizes Zipf s = 1.2;
#            leaf-spine    32 leaves x 8 spines x 32 hosts, 10000 groups;
#            all-schemes   the acceptance run with every scheme (schemes
#                          all: the survey variants' per-port schemes too),
#                          its leak_lost_vs_bits.png copied to
#                          docs/leakage-all-schemes.png (committed), the
#                          table of docs/leakage.md in schemes.md
#                          (tests/exp/schemes_table.sh);
#          each into build/leakage/<case>/ (CSV files, plots, plot_*.gp,
#          the table in table.txt, the time in time.txt), and the plots of
#          the acceptance run copied to docs/leakage-*.png (ignored by git:
#          this command makes them).
# emulate: the k = 4 fat-tree on XDP against the model (root), into
#          build/leakage/emulation/ (agreement.csv, table.txt).
set -euo pipefail
cd "$(dirname "$0")/../.."

what=${1:-all}
ctl=build/kbloomctl
out=build/leakage
make -s lib ctl >/dev/null
mkdir -p "$out" docs

model() {	# case args...
	local c=$1
	shift
	mkdir -p "$out/$c"
	/usr/bin/time -f '%e s wall, %U s user, %S s system, %P CPU' \
		-o "$out/$c/time.txt" \
		"$ctl" experiment "$@" out "$out/$c" | tee "$out/$c/table.txt"
	echo "# $c: $(cat "$out/$c/time.txt")"
}

if [ "$what" = model ] || [ "$what" = all ]; then
	model fat-tree-16 topo fat-tree:16 groups 10000 \
		sizes uniform:1:1024 seed 1 threads 2
	for p in leak_vs_bits leak_vs_size hdr_vs_size; do
		cp "$out/fat-tree-16/$p.png" "docs/leakage-${p//_/-}.png"
	done
	model zipf topo fat-tree:16 groups 10000 sizes zipf:1.2:1:1024 \
		seed 1 threads 2
	model leaf-spine topo leaf-spine:32:8:32 groups 10000 \
		sizes uniform:1:1024 seed 1 threads 2
	model all-schemes topo fat-tree:16 groups 10000 \
		sizes uniform:1:1024 seed 1 threads 2 schemes all
	cp "$out/all-schemes/leak_lost_vs_bits.png" \
		docs/leakage-all-schemes.png
	tests/exp/schemes_table.sh "$out/all-schemes/summary.csv" \
		> "$out/all-schemes/schemes.md"
fi
if [ "$what" = emulate ] || [ "$what" = all ]; then
	if [ "$(id -u)" != 0 ]; then
		echo "# emulation skipped: needs root (network namespaces, XDP)"
		exit 0
	fi
	mkdir -p "$out/emulation"
	# every scheme leaks with these: 2-probe filters, 1-bit link IDs
	"$ctl" experiment mode emulate topo fat-tree:4 groups 120 \
		sizes uniform:2:14 bits 512 hashes 2 lipsin-k 1 seed 1 \
		out "$out/emulation" | tee "$out/emulation/table.txt"
	# the defaults: 5-bit link IDs, per-port k chosen per port
	mkdir -p "$out/emulation-default"
	"$ctl" experiment mode emulate topo fat-tree:4 groups 120 \
		sizes uniform:2:14 bits 512 seed 1 \
		out "$out/emulation-default" |
		tee "$out/emulation-default/table.txt"
fi
