#!/bin/bash
# debian/libkbloom1.symbols: the dpkg symbols file of libkbloom.so.MAJOR,
# from the version script mk/libsyms.sh writes (build/libkbloom.map).
#
#   mk/debsymbols.sh write MAP VERSION FILE
#       FILE made from MAP: each exported function, with the version that
#       FILE already gives it, else VERSION (the release that adds it)
#   mk/debsymbols.sh check MAP FILE
#       status 1, naming them, when MAP exports a function FILE lacks or
#       FILE lists one MAP no longer exports
#
# make deb runs "check" before dpkg-buildpackage, and dh_makeshlibs runs
# dpkg-gensymbols -c4 on the built library: a new exported function
# without an entry fails the package build.  "make deb-symbols" writes it.
set -euo pipefail

me=mk/debsymbols.sh
die() { echo "$me: $*" >&2; exit 1; }

# The version node and the global functions of version script $1.
map_node() { sed -n 's/^\([A-Za-z0-9_]*\) {$/\1/p' "$1" | head -n 1; }
map_syms() {
	sed -n '/^global:/,/^local:/{s/^[[:space:]]*\([A-Za-z_][A-Za-z0-9_]*\);$/\1/p}' "$1" |
		sort -u
}

# "NAME VERSION" of the functions of symbols file $1 (not the node).
file_syms() {
	sed -n 's/^ \([A-Za-z_][A-Za-z0-9_]*\)@\([A-Za-z0-9_]*\) \(.*\)$/\1 \2 \3/p' "$1" |
		awk '$1 != $2 { print $1, $3 }' | sort -u
}

cmd_write() {
	local map=$1 version=$2 out=$3 node nodever known
	node=$(map_node "$map")
	[ -n "$node" ] || die "$map: no version node"
	known=$( [ -f "$out" ] && file_syms "$out" || true)
	# the node keeps the release that made it, as the functions do
	nodever=$( [ -f "$out" ] && sed -n "s/^ $node@$node \(.*\)$/\1/p" "$out" || true)
	{
		echo "libkbloom.so.${node#KBLOOM_} libkbloom1 #MINVER#"
		echo "* Build-Depends-Package: libkbloom-dev"
		echo " $node@$node ${nodever:-$version}"
		# one awk over both lists (an awk per function took 22 s)
		map_syms "$map" | awk -v node="$node" -v def="$version" '
			NR == FNR { if ($1 != "") v[$1] = $2; next }
			{ print " " $1 "@" node " " ($1 in v ? v[$1] : def) }
		' <(printf '%s\n' "$known") -
	} >"$out.tmp"
	mv "$out.tmp" "$out"
}

cmd_check() {
	local map=$1 file=$2 new gone
	[ -f "$file" ] || die "$file missing (make deb-symbols)"
	new=$(comm -23 <(map_syms "$map") <(file_syms "$file" | cut -d' ' -f1))
	gone=$(comm -13 <(map_syms "$map") <(file_syms "$file" | cut -d' ' -f1))
	[ -z "$new" ] && [ -z "$gone" ] && return 0
	[ -z "$new" ] || echo "$me: exported, not in $file:" $new >&2
	[ -z "$gone" ] || echo "$me: in $file, no longer exported (an ABI break: SONAME):" $gone >&2
	die "$file does not match the library (make deb-symbols writes it)"
}

case ${1:-} in
write) shift; cmd_write "$@" ;;
check) shift; cmd_check "$@" ;;
*) die "usage: $me write MAP VERSION FILE | check MAP FILE" ;;
esac
