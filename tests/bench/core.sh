#!/bin/bash
# make bench BENCH=core: build/bench/core (tests/bench/core.c, libkbloom
# against libbloom; writes build/bench-core.json), then, when the peer
# benchmark is there ($KBLOOM_PEERS, default ../shared/peers: kbloom's
# blocked filter against Impala's SimdBlockFilter and libbloom, kept
# outside the project), its "peer ..." lines on the same build.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1

[ -x build/bench/core ] || { echo "core bench: build/bench/core missing (make build/bench/core)" >&2; exit 1; }
build/bench/core
rc=$?
peers=${KBLOOM_PEERS:-../shared/peers}
if [ -x "$peers/run" ]; then
	echo "## peers ($peers/run . ${KBLOOM_PEERS_N:-10000000} ${KBLOOM_PEERS_REPS:-5})"
	"$peers/run" . "${KBLOOM_PEERS_N:-10000000}" "${KBLOOM_PEERS_REPS:-5}" || rc=1
else
	echo "## peers: $peers/run not found (KBLOOM_PEERS=dir to run it)"
fi
exit $rc
