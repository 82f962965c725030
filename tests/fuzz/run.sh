#!/bin/bash
# make fuzz: run the libFuzzer target over the image loader for N seconds
# from a seed corpus of valid images; report executions and crashes.
set -uo pipefail
dir=$1 secs=${2:-60}
corpus=$dir/corpus
mkdir -p "$corpus" "$dir/crashes"
"$dir/image_fuzz" -kbloom_seed_corpus="$corpus" >/dev/null 2>&1 || true
log=$dir/fuzz.log
"$dir/image_fuzz" -max_total_time="$secs" -print_final_stats=1 \
	-artifact_prefix="$dir/crashes/" "$corpus" >"$log" 2>&1
rc=$?
execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
crashes=$(find "$dir/crashes" -type f | wc -l)
echo "fuzz: image loader: ${execs:-?} executions in ${secs} s, $crashes crashes (log: $log)"
[ "$rc" = 0 ] && [ "$crashes" = 0 ]
