#!/bin/bash
# make bench [BENCH=group]: run benchmark groups and merge their figures.
#
# A group NAME is tests/bench/NAME.sh when that script exists, else the
# program build/bench/NAME.  Each prints its ratio lines
# ("<group> <what> vs <baseline>: N.Nx") and writes build/bench-NAME.json;
# this script merges those into build/bench.json.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1

groups=("$@")
if [ ${#groups[@]} -eq 0 ] || [ -z "${groups[0]}" ]; then
	groups=()
	for g in core xdp kmod kfunc live loss; do
		if [ -x "tests/bench/$g.sh" ] || [ -x "build/bench/$g" ]; then
			groups+=("$g")
		fi
	done
fi

rc=0
for g in "${groups[@]}"; do
	echo "## bench $g"
	rm -f "build/bench-$g.json"
	if [ -x "tests/bench/$g.sh" ]; then
		"tests/bench/$g.sh" || rc=1
	elif [ -x "build/bench/$g" ]; then
		"build/bench/$g" || rc=1
	else
		echo "bench: no group '$g' (have: $(ls tests/bench/*.sh build/bench/ 2>/dev/null | xargs -n1 basename | sed 's/\.sh$//' | sort -u | xargs))" >&2
		rc=2
	fi
done

python3 - "${groups[@]}" <<'PY'
import json, os, sys
out = {}
if os.path.exists("build/bench.json"):
    try:
        out = json.load(open("build/bench.json"))
    except ValueError:
        out = {}
for g in sys.argv[1:]:
    p = "build/bench-%s.json" % g
    if os.path.exists(p):
        out[g] = json.load(open(p))
json.dump(out, open("build/bench.json", "w"), indent=1, sort_keys=True)
print("bench: figures in build/bench.json")
PY
exit $rc
