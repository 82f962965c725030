#!/bin/bash
# BTF for kbloom.ko: what the module build needs so that the guest kernel
# accepts its kfuncs (see DESIGN.md, "Module kfuncs for XDP").  Everything
# goes to the build cache; nothing of it is committed.
#
#   mk/btf.sh src OUT               extract from linux-source-6.1 what
#                                   resolve_btfids builds from (parts of
#                                   tools/, scripts/bpf_doc.py) and
#                                   scripts/extract-vmlinux into OUT
#   mk/btf.sh resolve-btfids SRC OUT
#                                   build tools/bpf/resolve_btfids of SRC,
#                                   the binary to OUT
#   mk/btf.sh base KVER SRC OUT     the BTF of kernel KVER into OUT: the
#                                   running kernel's /sys/kernel/btf/vmlinux
#                                   when it is KVER, else the .BTF section
#                                   of $KDIR/vmlinux (a build tree), else
#                                   the guest kernel's (Debian's
#                                   linux-image-KVER from
#                                   mk/guest-kernel.sh, the vmlinux in its
#                                   vmlinuz).  KBLOOM_BTF_FROM lists the
#                                   sources to try (default "running kdir
#                                   debian"; "none" tries none).  When none
#                                   gives BTF: an empty OUT, the reason in
#                                   OUT.why, status 0 (the module is then
#                                   built without kfuncs)
#   mk/btf.sh module IN BASE RESOLVE_BTFIDS OUT
#                                   IN (a kbloom.ko without BTF) with BTF
#                                   relative to BASE (pahole -J --btf_base,
#                                   with the options of $KDIR's
#                                   scripts/pahole-flags.sh) and its BTF ids
#                                   resolved (resolve_btfids -b; built first,
#                                   from $KBLOOM_BTF_SRC, when missing), into
#                                   OUT.  An empty BASE or "" (no BTF): IN as
#                                   is into OUT, and one warning line
#
# Every step fails loudly: no step leaves a partial output behind, and
# "module" checks that OUT has a .BTF section that names its kfuncs.
set -euo pipefail

me=mk/btf.sh
die() { echo "$me: $*" >&2; exit 1; }
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

need() {
	local t
	for t in "$@"; do
		command -v "$t" >/dev/null ||
			die "$t not found: cannot build kbloom.ko with BTF (make deps installs dwarves, binutils, ...)"
	done
}

cmd_src() {
	local out=$1 stamp tarball
	stamp=$out/.extracted
	tarball=$(ls /usr/src/linux-source-6.1.tar.* 2>/dev/null | head -n 1)
	[ -n "$tarball" ] || die "/usr/src/linux-source-6.1.tar.* missing (make deps)"
	[ -f "$stamp" ] && [ "$stamp" -nt "$tarball" ] && return 0
	echo "  EXTRACT  linux-source-6.1: tools/ for resolve_btfids (once)" >&2
	rm -rf "$out" "$out.tmp"
	mkdir -p "$out.tmp"
	# What resolve_btfids, libbpf and libsubcmd build from (5.8 MB; not
	# the selftests, perf, ...), libbpf's generator of bpf_helper_defs.h,
	# and extract-vmlinux.
	tar -xf "$tarball" -C "$out.tmp" --strip-components=1 \
		linux-source-6.1/tools/arch/x86 linux-source-6.1/tools/bpf \
		linux-source-6.1/tools/build linux-source-6.1/tools/include \
		linux-source-6.1/tools/lib linux-source-6.1/tools/scripts \
		linux-source-6.1/scripts/bpf_doc.py \
		linux-source-6.1/scripts/extract-vmlinux
	touch "$out.tmp/.extracted"
	mv "$out.tmp" "$out"
}

cmd_resolve_btfids() {
	local src=$1 out=$2 obj log
	need gcc make
	obj=$(dirname "$out")/resolve_btfids.obj
	log=$obj.log
	echo "  BUILD    resolve_btfids (linux-source-6.1, once)" >&2
	# 6.1's tools/lib/bpf build can race on its object directories in a
	# parallel make: on failure, build again serially.
	for jobs in "$(nproc)" 1; do
		rm -rf "$obj"
		mkdir -p "$obj"
		make -C "$src/tools/bpf/resolve_btfids" OUTPUT="$(realpath "$obj")/" \
			-j"$jobs" >"$log" 2>&1 && break
		if [ "$jobs" = 1 ]; then
			tail -n 30 "$log" >&2
			die "building resolve_btfids failed (log: $log)"
		fi
	done
	[ -x "$obj/resolve_btfids" ] || die "resolve_btfids not built (log: $log)"
	cp "$obj/resolve_btfids" "$out.tmp"
	mv "$out.tmp" "$out"
	rm -rf "$obj" "$log"
}

# Does the BTF source $1 take part (KBLOOM_BTF_FROM)?
from() {
	[[ " ${KBLOOM_BTF_FROM-running kdir debian} " == *" $1 "* ]]
}

# The target kernel's own BTF into $2 when it is at hand (running, or
# the vmlinux of the build tree $KDIR); Return: 0 when written.
own_base() {
	local kver=$1 out=$2
	if from running && [ "$(uname -r)" = "$kver" ] &&
	   [ -r /sys/kernel/btf/vmlinux ]; then
		echo "  BTF      base: /sys/kernel/btf/vmlinux (running $kver)" >&2
		cp /sys/kernel/btf/vmlinux "$out.tmp"
	elif from kdir && [ -n "${KDIR:-}" ] && [ -f "$KDIR/vmlinux" ] &&
	     readelf -S -W "$KDIR/vmlinux" | grep -q ' \.BTF '; then
		echo "  BTF      base: $KDIR/vmlinux" >&2
		objcopy -O binary --only-section=.BTF "$KDIR/vmlinux" "$out.tmp"
	else
		return 1
	fi
	[ -s "$out.tmp" ] || die "empty base BTF for $kver"
	mv "$out.tmp" "$out"
}

# No BTF for kernel $1: an empty $2, and why ($3) in $2.why.
no_base() {
	echo "no BTF of kernel $1: $3" >"$2.why"
	: >"$2"
}

# Debian's linux-image-KVER (mk/guest-kernel.sh), as the test guest uses:
# its directory on stdout, or status 1 with the reason in file $2.
debian_kernel() {
	from debian || { echo "not tried (KBLOOM_BTF_FROM)" >"$2"; return 1; }
	"$here/guest-kernel.sh" "$1" 2>"$2"
}

cmd_base() {
	local kver=$1 src=$2 out=$3 kdir elf tmp
	need objcopy readelf
	mkdir -p "$(dirname "$out")"
	rm -f "$out.why"
	own_base "$kver" "$out" && return 0
	if ! kdir=$(debian_kernel "$kver" "$out.err"); then
		no_base "$kver" "$out" "not running, no vmlinux with .BTF in KDIR=${KDIR:-(unset)}, Debian's linux-image-$kver: $(tail -n 1 "$out.err")"
		rm -f "$out.err"
		return 0
	fi
	rm -f "$out.err"
	tmp=$out.tmp
	# tests/vm/run boots the vmlinux inside vmlinuz: use it when it is
	# there, else decompress vmlinuz with the kernel's own script.
	elf=$kdir/vmlinux
	if [ ! -f "$elf" ]; then
		cmd_src "$src"
		elf=$tmp.elf
		"$src/scripts/extract-vmlinux" "$kdir/kernel/boot/vmlinuz-$kver" >"$elf" ||
			die "extract-vmlinux: no vmlinux in vmlinuz-$kver"
	fi
	if ! readelf -S -W "$elf" | grep -q ' \.BTF '; then
		rm -f "$tmp.elf"
		no_base "$kver" "$out" "linux-image-$kver has no .BTF section (CONFIG_DEBUG_INFO_BTF=n)"
		return 0
	fi
	objcopy -O binary --only-section=.BTF "$elf" "$tmp"
	rm -f "$tmp.elf"
	[ -s "$tmp" ] || die "empty .BTF section in the vmlinux of $kver"
	mv "$tmp" "$out"
}

# The pahole options of the kernel's own build (scripts/pahole-flags.sh of
# the headers tree $KDIR), so that module BTF is encoded as Kbuild would.
pahole_flags() {
	if [ -n "${KDIR:-}" ] && [ -x "$KDIR/scripts/pahole-flags.sh" ]; then
		PAHOLE=pahole "$KDIR/scripts/pahole-flags.sh"
	else
		echo "--btf_gen_floats -j"
	fi
}

# No BTF (an empty BASE, or none given): IN as OUT, and one warning line.
module_without_btf() {
	local in=$1 base=$2 out=$3 why="KBLOOM_BTF=no"
	[ -z "$base" ] || why=$(cat "$base.why" 2>/dev/null || echo "empty $base")
	echo "$me: warning: kbloom.ko built without kfuncs ($why); modinfo says kfuncs: no" >&2
	cp "$in" "$out.tmp"
	mv "$out.tmp" "$out"
}

cmd_module() {
	local in=$1 base=$2 resolve=$3 out=$4 tmp flags kfuncs
	if [ -z "$base" ] || [ ! -s "$base" ]; then
		module_without_btf "$in" "$base" "$out"
		return 0
	fi
	need pahole objcopy readelf bpftool
	if [ ! -x "$resolve" ]; then
		[ -n "${KBLOOM_BTF_SRC:-}" ] || die "no resolve_btfids at $resolve"
		cmd_src "$KBLOOM_BTF_SRC"
		cmd_resolve_btfids "$KBLOOM_BTF_SRC" "$resolve"
	fi
	tmp=$out.tmp
	cp "$in" "$tmp"
	trap 'rm -f "$tmp" "$tmp.ids"' EXIT
	flags=$(pahole_flags)
	# shellcheck disable=SC2086 # flags are words
	LLVM_OBJCOPY=objcopy pahole -J $flags --btf_base "$base" "$tmp" ||
		die "pahole -J failed on $in"
	readelf -S -W "$tmp" | grep -q ' \.BTF ' ||
		die "pahole wrote no .BTF section into $in (no DWARF? CONFIG_DEBUG_INFO)"
	"$resolve" -b "$base" "$tmp" || die "resolve_btfids failed on $in"
	# The kfuncs are in the module's BTF, and the kfunc set (the only
	# thing in .BTF_ids: u32 cnt, u32 flags, then cnt (id, flags) pairs)
	# names them by their ids, or the kernel would not register them.
	kfuncs=$(bpftool -B "$base" btf dump file "$tmp" 2>/dev/null |
		grep -c "^\[[0-9]*\] FUNC 'bpf_kbloom_" || true)
	[ "$kfuncs" -gt 0 ] || die "the BTF of $in has no bpf_kbloom_* kfunc"
	# objcopy writes a temporary file beside its output and renames it:
	# never give it /dev/stdout (as root it replaces the symlink with a
	# regular file, for every later program on the machine)
	objcopy -O binary --only-section=.BTF_ids "$tmp" "$tmp.ids"
	ids=$(od -An -v -tu4 "$tmp.ids" | xargs)
	rm -f "$tmp.ids"
	read -r -a w <<<"$ids"
	[ "${#w[@]}" -eq $((2 + 2 * ${w[0]:-0})) ] && [ "${w[0]}" -eq "$kfuncs" ] ||
		die "unexpected .BTF_ids in $in (${#w[@]} words: $ids)"
	for ((i = 2; i < ${#w[@]}; i += 2)); do
		[ "${w[i]}" -ne 0 ] || die "resolve_btfids left a kfunc id 0 in $in"
	done
	mv "$tmp" "$out"
	trap - EXIT
}

case ${1:-} in
src) shift; cmd_src "$@" ;;
resolve-btfids) shift; cmd_resolve_btfids "$@" ;;
base) shift; cmd_base "$@" ;;
module) shift; cmd_module "$@" ;;
*) die "usage: $me src|resolve-btfids|base|module ARGS (see the script)" ;;
esac
