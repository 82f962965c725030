#!/bin/bash
# Extract from Debian's linux-source-6.1 what the build borrows from the
# kernel tree: the kselftest harness headers and checkpatch.pl.  Into
# $1 (the build cache); nothing of it is committed.
set -euo pipefail

out=$1
stamp=$out/.extracted
tarball=$(ls /usr/src/linux-source-6.1.tar.* 2>/dev/null | head -n 1)
[ -n "$tarball" ] || { echo "linux-source: /usr/src/linux-source-6.1.tar.* missing (make deps)" >&2; exit 1; }
[ -f "$stamp" ] && [ "$stamp" -nt "$tarball" ] && exit 0

rm -rf "$out"
mkdir -p "$out"
tar -xf "$tarball" -C "$out" --strip-components=1 --wildcards \
	'linux-source-6.1/tools/testing/selftests/kselftest*' \
	'linux-source-6.1/scripts/checkpatch.pl' \
	'linux-source-6.1/scripts/spelling.txt' \
	'linux-source-6.1/scripts/const_structs.checkpatch'
touch "$stamp"
