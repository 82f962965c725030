#!/bin/bash
# make fuzz: run each libFuzzer target (default: image_fuzz) for N seconds
# from its seed corpus of valid images; report executions and crashes.
#   tests/fuzz/run.sh DIR [SECONDS [TARGET...]]
set -uo pipefail
dir=$1 secs=${2:-60}
shift $(($# < 2 ? $# : 2))
targets=("${@:-image_fuzz}")
status=0
mkdir -p "$dir/crashes"
for t in "${targets[@]}"; do
	# image_fuzz keeps its corpus directory of before
	corpus=$dir/corpus
	[ "$t" = image_fuzz ] || corpus=$dir/corpus-$t
	mkdir -p "$corpus" "$dir/crashes/$t"
	"$dir/$t" -kbloom_seed_corpus="$corpus" >/dev/null 2>&1 || true
	log=$dir/$t.log
	"$dir/$t" -max_total_time="$secs" -print_final_stats=1 \
		-artifact_prefix="$dir/crashes/$t/" "$corpus" >"$log" 2>&1
	rc=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
	crashes=$(find "$dir/crashes/$t" -type f | wc -l)
	echo "fuzz: $t: ${execs:-?} executions in ${secs} s, $crashes crashes (log: $log)"
	{ [ "$rc" = 0 ] && [ "$crashes" = 0 ]; } || status=1
done
exit $status
