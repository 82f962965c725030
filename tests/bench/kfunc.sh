#!/bin/bash
# make bench BENCH=kfunc: build/bench/kfunc (tests/bench/kfunc.c) in the
# qemu guest with kbloom.ko loaded: kfunc lookup vs the map-backed blocked
# lookup vs BPF_MAP_TYPE_BLOOM_FILTER.  Prints the guest's table and its
# "kfunc ..." ratio lines; writes build/bench-kfunc.json.
#
# The guest is qemu under TCG (tests/vm/README.md): every instruction is
# emulated, so the times are far above a real machine's; the ratios compare
# code paths run under the same emulation.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1

for f in build/kbloom.ko build/bench/kfunc; do
	[ -e "$f" ] || { echo "kfunc bench: $f missing (make kmod build/bench/kfunc)" >&2; exit 1; }
done
log=$(mktemp /tmp/kbloom-bench-kfunc.XXXXXX)
trap 'rm -f "$log"' EXIT

# One vCPU (VM_SMP overrides): the benchmark is single-threaded, and with
# one vCPU qemu does not have to emulate atomics across vCPU threads, which
# made the refcount of the kfunc path swing by 2x between boots.
VM_SMP=${VM_SMP:-1} tests/vm/run -m --timeout "${KBLOOM_VM_TIMEOUT:-900}" -- \
	build/bench/kfunc >"$log" 2>&1
rc=$?
tr -d '\r' <"$log" | grep -a -v -E '^\[ *[0-9]+\.[0-9]+\]|^KBLOOM-VM-|^KFUNC-BENCH-JSON ' |
	sed -n '/^kfunc: /,$p'
json=$(tr -d '\r' <"$log" | sed -n 's/^KFUNC-BENCH-JSON //p' | tail -n 1)
if [ "$rc" != 0 ] || [ -z "$json" ]; then
	echo "kfunc bench: the guest run failed (exit $rc); its console:" >&2
	tr -d '\r' <"$log" | tail -n 40 >&2
	exit 1
fi
python3 -c 'import json, sys; json.dump(json.loads(sys.argv[1]), open(sys.argv[2], "w"), indent=1, sort_keys=True)' \
	"$json" build/bench-kfunc.json || exit 1
echo "kfunc bench: figures in build/bench-kfunc.json"
