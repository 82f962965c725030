#!/bin/bash
# Install the Debian packages kbloom needs, only those that are missing.
# A second run downloads nothing and returns in well under a second.
set -euo pipefail

pkgs=(
	make gcc clang llvm lld libbpf-dev bpftool libelf-dev zlib1g-dev pkg-config
	linux-headers-amd64 linux-source-6.1 dwarves
	qemu-system-x86 busybox-static cpio kmod xz-utils
	rsync iproute2 xdp-tools libxdp-dev libbloom-dev libclang-rt-14-dev
	gnuplot-nox python3 man-db ethtool
	gcc-multilib debhelper dh-dkms
)

missing=()
for p in "${pkgs[@]}"; do
	st=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
	[ "$st" = "install ok installed" ] || missing+=("$p")
done
# gnuplot-qt satisfies the need for gnuplot-nox
if [[ " ${missing[*]} " == *" gnuplot-nox "* ]] && command -v gnuplot >/dev/null; then
	missing=("${missing[@]/gnuplot-nox/}")
	read -r -a missing <<<"${missing[*]}"
fi
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" != 0 ]; then
	echo "deps: missing packages: ${missing[*]} (run as root or install them)" >&2
	exit 1
fi
echo "deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
