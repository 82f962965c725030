#!/bin/bash
# Get Debian's linux-image-KVER (the kernel of the qemu test guest) into
# build/cache/guest/KVER/ once, and print that directory.
#
#   mk/guest-kernel.sh KVER
#
# The layout is the one tests/vm/run uses (and fills the same way when it
# runs first): kernel/ (the package, dpkg -x, with modules.dep), vmlinux
# (the ELF inside vmlinuz, booted through qemu's PVH entry; it also holds
# the guest's .BTF section) and .complete.  apt-get download + dpkg -x: the
# host's /boot is untouched.  Takes build/cache/guest/.lock like the
# runner, unless GUEST_KERNEL_LOCKED=1 says the caller holds it.
set -euo pipefail

die() { echo "mk/guest-kernel.sh: $*" >&2; exit 1; }

kver=${1:?usage: mk/guest-kernel.sh KVER}
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cache=$root/build/cache/guest
kdir=$cache/$kver
kroot=$kdir/kernel

# The image package for $kver into $1: the one built with the installed
# headers first, then any version of it.
download_kernel() {
	local dl=$1 pkgver pkg
	pkgver=$(dpkg-query -W -f='${Version}' "linux-headers-$kver" 2>/dev/null || true)
	for pkg in ${pkgver:+"linux-image-$kver=$pkgver"} "linux-image-$kver" \
		${pkgver:+"linux-image-$kver-unsigned=$pkgver"} "linux-image-$kver-unsigned"; do
		if (cd "$dl" && apt-get download "$pkg") >>"$dl/apt.log" 2>&1; then
			return 0
		fi
	done
	return 1
}

# The ELF vmlinux in bzImage $1 into $2 (the method of the kernel's
# scripts/extract-vmlinux), kept when it has the PVH entry note.
extract_vmlinux() {
	local in=$1 out=$2 fmt pat off _
	command -v readelf >/dev/null || return 1
	for fmt in xz zstd gzip; do
		case $fmt in
		xz) pat=$'\xfd7zXZ' ;;
		zstd) pat=$'\x28\xb5\x2f\xfd' ;;
		gzip) pat=$'\x1f\x8b\x08' ;;
		esac
		command -v "$fmt" >/dev/null || continue
		while IFS=: read -r off _; do
			tail -c +$((off + 1)) "$in" | "$fmt" -dc >"$out.tmp" 2>/dev/null || true
			# XEN_ELFNOTE_PHYS32_ENTRY (18): the PVH entry point.
			if readelf -n "$out.tmp" 2>/dev/null | grep -q -E '\(0x00000012\)|PHYS32_ENTRY'; then
				mv "$out.tmp" "$out"
				return 0
			fi
		done < <(LC_ALL=C grep -a -b -o "$pat" "$in" | head -n 5)
	done
	rm -f "$out.tmp"
	return 1
}

fetch() {
	local moddir
	[ ! -e "$kdir/.complete" ] || return 0
	echo "  FETCH    linux-image-$kver into ${kdir#"$root"/} (once)" >&2
	rm -rf "$kdir"
	mkdir -p "$kdir/dl"
	if ! download_kernel "$kdir/dl"; then
		apt-get update >>"$kdir/dl/apt.log" 2>&1 || true
		if ! download_kernel "$kdir/dl"; then
			cat "$kdir/dl/apt.log" >&2
			rm -rf "$kdir"
			die "cannot download linux-image-$kver"
		fi
	fi
	dpkg -x "$kdir"/dl/*.deb "$kroot"
	rm -rf "$kdir/dl"
	[ -f "$kroot/boot/vmlinuz-$kver" ] || die "linux-image-$kver has no boot/vmlinuz-$kver"
	for moddir in "$kroot/lib/modules/$kver" "$kroot/usr/lib/modules/$kver" ""; do
		[ -z "$moddir" ] || [ -d "$moddir" ] && break
	done
	[ -n "$moddir" ] || die "linux-image-$kver has no modules directory"
	# The package leaves modules.dep to its postinst.
	[ -s "$moddir/modules.dep" ] || depmod -b "${moddir%/lib/modules/*}" "$kver"
	extract_vmlinux "$kroot/boot/vmlinuz-$kver" "$kdir/vmlinux" || true
	touch "$kdir/.complete"
}

mkdir -p "$cache"
if [ "${GUEST_KERNEL_LOCKED:-0}" != 1 ]; then
	exec 9>"$cache/.lock"
	flock 9
fi
fetch
echo "$kdir"
