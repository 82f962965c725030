#!/bin/bash
# make bench BENCH=kmod: build/bench/kmod (tests/bench/kmod.c) in the qemu
# guest with kbloom.ko loaded: KBLOOM_IOCTL_TEST with batches of 1, 64 and
# 4096 keys vs libkbloom on the same keys.  Prints the guest's table and
# its "kmod ..." ratio lines; writes build/bench-kmod.json.
#
# The guest is qemu under TCG (tests/vm/README.md): every instruction is
# emulated, so the times are far above a real machine's; the ratios compare
# the two paths under the same emulation, in the same guest run.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1

for f in build/kbloom.ko build/bench/kmod; do
	[ -e "$f" ] || { echo "kmod bench: $f missing (make kmod build/bench/kmod)" >&2; exit 1; }
done
log=$(mktemp /tmp/kbloom-bench-kmod.XXXXXX)
trap 'rm -f "$log"' EXIT

tests/vm/run -m --timeout "${KBLOOM_VM_TIMEOUT:-600}" -- build/bench/kmod >"$log" 2>&1
rc=$?
tr -d '\r' <"$log" | grep -a -v -E '^\[ *[0-9]+\.[0-9]+\]|^KBLOOM-VM-|^KMOD-BENCH-JSON ' |
	sed -n '/^kmod: /,$p'
json=$(tr -d '\r' <"$log" | sed -n 's/^KMOD-BENCH-JSON //p' | tail -n 1)
if [ "$rc" != 0 ] || [ -z "$json" ]; then
	echo "kmod bench: the guest run failed (exit $rc); its console:" >&2
	tr -d '\r' <"$log" | tail -n 40 >&2
	exit 1
fi
python3 -c 'import json, sys; json.dump(json.loads(sys.argv[1]), open(sys.argv[2], "w"), indent=1, sort_keys=True)' \
	"$json" build/bench-kmod.json || exit 1
echo "kmod bench: figures in build/bench-kmod.json"
