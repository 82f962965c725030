#!/bin/bash
# Run the named suites (core, bpf, kmod, style), print each suite's totals
# and end with one line "N passed, N failed[, N skipped]" over all of them.
# Exits non-zero on any failure.  A suite that cannot run here says why and
# counts as one skipped test, never as passed.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1

logs=build/logs
mkdir -p "$logs"
tot_pass=0 tot_fail=0 tot_skip=0
summary=()

cannot() {	# suite reason
	echo "# kbloom-suite $1: pass:0 fail:0 skip:1 (cannot run: $2)"
}

host_loads_modules() {
	[ -e /proc/modules ] && [ "$(uname -r)" = "$(mk/kver.sh)" ]
}

run_core() {
	tests/run-suite core
}

run_bpf() {
	if [ "$(id -u)" != 0 ]; then
		cannot bpf "needs root for BPF and network namespaces"
		return 0
	fi
	tests/run-suite bpf
}

run_kmod() {
	local extra=()
	if host_loads_modules && [ "${KBLOOM_VM:-0}" != 1 ]; then
		insmod build/kbloom.ko || { cannot kmod "insmod failed"; return 0; }
		tests/run-suite kmod
		local rc=$?
		rmmod kbloom
		return $rc
	fi
	if ! command -v qemu-system-x86_64 >/dev/null; then
		cannot kmod "no module support on this kernel and no qemu-system-x86_64"
		return 0
	fi
	for f in /usr/sbin/bpftool /usr/sbin/ip /usr/bin/timeout; do
		[ -x "$f" ] && extra+=(--extra "$f")
	done
	tests/vm/run -m "${extra[@]}" --timeout "${KBLOOM_VM_TIMEOUT:-1200}" -- \
		tests/run-suite kmod
}

run_style() {
	tests/checkpatch.sh
}

# The suites that do not share the host's network or BPF state (the
# guest's kmod suite, the style check) run in the background beside the
# others: on 2 cores the serial run left one idle most of the time.  They
# start once the core suite is done (its nobtf_test builds the module the
# guest's nobtf_test loads).  Each suite writes its own log; the logs are
# printed whole, in the order asked.
background() {
	case $1 in kmod | style) [ "${KBLOOM_CHECK_SERIAL:-0}" != 1 ] ;; *) false ;; esac
}

declare -A bg_pid=()
start_background() {
	local s
	for s in "${suites[@]}"; do
		background "$s" || continue
		echo "## suite $s: started in the background (log: $logs/$s.log)"
		"run_$s" >"$logs/$s.log" 2>&1 &
		bg_pid[$s]=$!
	done
}

add_totals() {	# suite
	local s=$1 line p f k
	line=$(grep -a '^# kbloom-suite '"$s"':' "$logs/$s.log" | tail -n 1)
	if [ -z "$line" ]; then
		line="# kbloom-suite $s: pass:0 fail:1 skip:0 (no totals: the suite did not finish)"
		echo "$line"
	fi
	p=$(sed -n 's/.* pass:\([0-9]*\).*/\1/p' <<<"$line")
	f=$(sed -n 's/.* fail:\([0-9]*\).*/\1/p' <<<"$line")
	k=$(sed -n 's/.* skip:\([0-9]*\).*/\1/p' <<<"$line")
	tot_pass=$((tot_pass + p))
	tot_fail=$((tot_fail + f))
	tot_skip=$((tot_skip + k))
	summary+=("$(printf '%-6s pass %5d  fail %3d  skip %3d' "$s" "$p" "$f" "$k")")
}

suites=("$@")
[[ " $* " == *" core "* ]] || start_background
for s in "$@"; do
	background "$s" && continue
	t0=$SECONDS
	echo "## suite $s"
	"run_$s" 2>&1 | tee "$logs/$s.log"
	echo "## suite $s: $((SECONDS - t0)) s"
	[ "$s" = core ] && start_background
done
for s in "$@"; do
	background "$s" || continue
	wait "${bg_pid[$s]}"
	echo "## suite $s (ran in the background, done at $SECONDS s)"
	cat "$logs/$s.log"
done
for s in "$@"; do
	add_totals "$s"
	grep -a '^not ok' "$logs/$s.log" | sed "s/^/# FAILED in $s: /"
done

echo "## totals"
printf '%s\n' "${summary[@]}"
if [ "$tot_skip" -gt 0 ]; then
	echo "$tot_pass passed, $tot_fail failed, $tot_skip skipped"
else
	echo "$tot_pass passed, $tot_fail failed"
fi
[ "$tot_fail" = 0 ]
