#!/bin/bash
# Print the kernel release kbloom.ko is built for: the one of $KDIR when
# set, else the one of the installed linux-headers-amd64 package.
set -euo pipefail

if [ -n "${KDIR:-}" ]; then
	cat "$KDIR/include/config/kernel.release"
	exit 0
fi
dep=$(dpkg-query -W -f='${Depends}' linux-headers-amd64 2>/dev/null || true)
rel=$(sed -n 's/.*linux-headers-\([^ ,]*-amd64\).*/\1/p' <<<"$dep")
if [ -z "$rel" ]; then
	rel=$(ls -d /usr/src/linux-headers-*-amd64 2>/dev/null | sort -V | tail -n 1)
	rel=${rel#/usr/src/linux-headers-}
fi
[ -n "$rel" ] || { echo "kver: no linux-headers-amd64 installed" >&2; exit 1; }
echo "$rel"
