#!/bin/bash
# The style suite: checkpatch.pl --no-tree --strict (from linux-source-6.1)
# on every file of kmod/, uapi/ and bpf/; one TAP result per file.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1

cp=build/cache/linux-source/scripts/checkpatch.pl
if [ ! -f "$cp" ]; then
	echo "# kbloom-suite style: pass:0 fail:0 skip:1 (no checkpatch.pl: make deps)"
	exit 0
fi
files=$(ls kmod/*.[ch] uapi/*.h bpf/*.[ch] 2>/dev/null)
n=$(wc -w <<<"$files")
echo "TAP version 13"
echo "1..$n"
pass=0 fail=0 i=0
for f in $files; do
	i=$((i + 1))
	out=$(perl "$cp" --no-tree --strict --quiet --no-summary \
		--ignore SPDX_LICENSE_TAG,FILE_PATH_CHANGES -f "$f" 2>&1)
	if [ -z "$out" ]; then
		echo "ok $i checkpatch $f"
		pass=$((pass + 1))
	else
		sed 's/^/# /' <<<"$out"
		echo "not ok $i checkpatch $f"
		fail=$((fail + 1))
	fi
done
echo "# Totals: pass:$pass fail:$fail xfail:0 xpass:0 skip:0 error:0"
echo "# kbloom-suite style: pass:$pass fail:$fail skip:0"
[ "$fail" = 0 ]
