#!/bin/bash
# Print the kernel release kbloom.ko is built for: the one of $KDIR when
# set (its include/generated/utsrelease.h: "6.1.0-57-amd64", where
# include/config/kernel.release of a Debian headers tree says the upstream
# "6.1.192"), else the one of the installed linux-headers-amd64 package.
set -euo pipefail

if [ -n "${KDIR:-}" ]; then
	uts=$KDIR/include/generated/utsrelease.h
	[ -r "$uts" ] || { echo "kver: $uts: not found (KDIR=$KDIR is not a prepared kernel tree)" >&2; exit 1; }
	rel=$(sed -n 's/^#define UTS_RELEASE "\(.*\)"$/\1/p' "$uts")
	[ -n "$rel" ] || { echo "kver: $uts: no UTS_RELEASE" >&2; exit 1; }
	echo "$rel"
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
