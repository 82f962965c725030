#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make demo, part 1: named filters of kbloom.ko with kbloomctl.
#
# Runs where kbloom.ko is loaded: in the qemu guest (tests/vm/run -m, from
# tests/demo.sh) or on a host whose kernel loads modules.  Every command is
# shown before its output; one that exits other than expected stops the demo.
cd "$(dirname "$0")/.." || exit 1
K=${KBLOOMCTL:-$PWD/build/kbloomctl}
tmp=$(mktemp -d /tmp/kbloom-demo.XXXXXX) || exit 1
cd "$tmp" || exit 1
trap 'cd /; rm -rf "$tmp"; "$K" destroy demo_users -exist; "$K" destroy demo_peers -exist' EXIT

step() { printf '\n--- %s\n' "$*"; }
say() { printf '    %s\n' "$*"; }

# kb WANT ARGS...: show and run "kbloomctl ARGS", which must exit WANT
kb() {
	local want=$1 rc
	shift
	printf '$ kbloomctl %s\n' "$*"
	"$K" "$@"
	rc=$?
	[ "$rc" = 0 ] || printf '(exit %d)\n' "$rc"
	if [ "$rc" != "$want" ]; then
		echo "demo: expected exit $want from: kbloomctl $*" >&2
		exit 1
	fi
}

"$K" destroy demo_users -exist >/dev/null 2>&1
"$K" destroy demo_peers -exist >/dev/null 2>&1

step "1a. Size a filter before making it: 100000 keys at 1% (creates nothing)"
kb 0 plan capacity 100000 fpr 1%

step "1b. Create a counting filter (deletes) and a blocked filter (one cache line per key)"
kb 0 create demo_users counting capacity 10000 fpr 0.1%
kb 0 create demo_peers blocked capacity 100000 fpr 1%
kb 0 list

step "1c. Add keys: strings as arguments, 5000 IPv4 addresses from a file"
kb 0 add demo_users alice bob carol
for i in $(seq 0 4999); do
	echo "10.$((i / 65536)).$((i / 256 % 256)).$((i % 256))"
done >peers.txt
say "(peers.txt: 10.0.0.0 .. 10.0.19.135, one per line)"
kb 0 add demo_peers --key ipv4 -f peers.txt

step "1d. Test: 'possibly present' or 'definitely absent'; exit 1 when a key is absent"
kb 1 test demo_users alice mallory
kb 1 test demo_peers --key ipv4 10.0.0.7 192.0.2.1

step "1e. Delete from the counting filter"
kb 0 del demo_users bob
kb 1 test demo_users bob
kb 1 del demo_users zoe
say "(zoe was never added: deleting her would corrupt other keys' counters, so del skips her)"

step "1f. Save to a file, destroy, restore: the same filter comes back"
kb 0 save demo_users -o users.img
say "($(stat -c %s users.img) bytes: a 128-byte header and the counters)"
kb 0 destroy demo_users
kb 0 restore -i users.img
kb 0 test demo_users alice carol

step "1g. Statistics: occupancy, n_est = -(m/k) ln(1 - occupancy), fpr now against the target"
kb 0 stat demo_users
kb 0 stat demo_peers

kb 0 destroy demo_users
kb 0 destroy demo_peers
