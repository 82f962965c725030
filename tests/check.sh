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

# The core suite's install_test checks the Debian packages: build them.
make_deb() {
	local t0=$SECONDS
	if ! make --no-print-directory deb >build/deb.log 2>&1; then
		tail -n 20 build/deb.log
		echo "make deb failed (log: build/deb.log)"
	fi
	echo "# time make deb: $((SECONDS - t0)) s"
}

run_core() {
	make_deb
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
	run_kmod_guests
}

# The guest's suite in KBLOOM_VM_LANES guests (default 2) booted at once,
# each with its own kbloom.ko and a share of the programs (tests/vm/lanes
# balances them by their times): one guest ran one test at a time, the
# critical path of make check.  Each guest's log is printed whole, then
# the suite's totals over all of them.
run_kmod_guests() {
	local extra=() f i n=${KBLOOM_VM_LANES:-2} pids=() lists
	for f in /usr/sbin/bpftool /usr/sbin/ip /usr/bin/timeout; do
		[ -x "$f" ] && extra+=(--extra "$f")
	done
	# only what the suite runs: packing and unpacking cost guest time, and
	# the rest of build/ may be building beside it
	for f in build/kbloom.ko build/nobtf/kbloom.ko build/bpf \
		build/kbloomctl build/tests/kmod tests; do
		extra+=(--payload "$f")
	done
	mapfile -t lists < <(tests/vm/lanes "$n" build/tests/kmod)
	if ((${#lists[@]} == 0)); then
		echo "# kbloom-suite kmod: pass:0 fail:1 skip:0 (no programs in build/tests/kmod)"
		return 1
	fi
	for i in "${!lists[@]}"; do
		# shellcheck disable=SC2086 # a list of program names
		tests/vm/run -m "${extra[@]}" --timeout "${KBLOOM_VM_TIMEOUT:-1200}" -- \
			tests/run-suite kmod ${lists[$i]} >"$logs/kmod.guest$i.log" 2>&1 &
		pids+=($!)
	done
	for i in "${!pids[@]}"; do
		wait "${pids[$i]}"
		echo "## kmod guest $i: exit $?, $(wc -w <<<"${lists[$i]}") programs"
	done
	kmod_guest_totals "${#lists[@]}"
}

# Print the guests' logs (their suite lines renamed) and the suite's
# totals; a guest without its totals line counts as one failure.
kmod_guest_totals() {
	local i line p=0 f=0 k=0
	for ((i = 0; i < $1; i++)); do
		sed "s/^# kbloom-suite kmod:/# kbloom-suite kmod (guest $i):/" \
			"$logs/kmod.guest$i.log"
		line=$(grep -a '^# kbloom-suite kmod:' "$logs/kmod.guest$i.log" | tail -n 1)
		if [ -z "$line" ]; then
			echo "not ok kmod guest $i # no totals: the guest did not finish"
			f=$((f + 1))
			continue
		fi
		p=$((p + $(sed -n 's/.* pass:\([0-9]*\).*/\1/p' <<<"$line")))
		f=$((f + $(sed -n 's/.* fail:\([0-9]*\).*/\1/p' <<<"$line")))
		k=$((k + $(sed -n 's/.* skip:\([0-9]*\).*/\1/p' <<<"$line")))
	done
	echo "# kbloom-suite kmod: pass:$p fail:$f skip:$k"
	[ "$f" = 0 ]
}

run_style() {
	tests/checkpatch.sh
}

# The suites that do not share the host's network or BPF state (the
# guest's kmod suite, the style check) run in the background beside the
# others: on 2 cores the serial run left one idle most of the time.  They
# start at once: the guest's suite is the longest.  Each suite writes its
# own log; the logs are printed whole, in the order asked.
#
# KBLOOM_CHECK_BUILD: a command that builds what the foreground suites run
# (make check: the guest's programs are built, the rest is not); it runs
# once the background suites have started, and when it fails, so do they.
background() {
	case $1 in kmod | style) [ "${KBLOOM_CHECK_SERIAL:-0}" != 1 ] ;; *) false ;; esac
}

# Once the build is done, the core suite (make deb, then programs that
# touch no network or BPF state) runs in the background beside the bpf
# suite, which mostly waits for its frames: run one after the other, they
# left a core idle for four minutes.
late() {
	case $1 in core) [ "${KBLOOM_CHECK_SERIAL:-0}" != 1 ] ;; *) false ;; esac
}

declare -A bg_pid=()
start_background() {	# background | late
	local s
	for s in "${suites[@]}"; do
		"$1" "$s" || continue
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

# Run KBLOOM_CHECK_BUILD; on failure, count it as one failed test.
build_rest() {
	local t0=$SECONDS
	[ -n "${KBLOOM_CHECK_BUILD:-}" ] || return 0
	echo "## build: $KBLOOM_CHECK_BUILD"
	if ! $KBLOOM_CHECK_BUILD; then
		echo "## build failed: the foreground suites do not run"
		tot_fail=$((tot_fail + 1))
		return 1
	fi
	echo "## build: $((SECONDS - t0)) s"
}

suites=("$@")
for s in "$@"; do
	rm -f "$logs/$s.log"
done
start_background background
built=0
build_rest && built=1 && start_background late
for s in "$@"; do
	background "$s" || late "$s" && continue
	[ "$built" = 1 ] || continue
	t0=$SECONDS
	echo "## suite $s"
	"run_$s" 2>&1 | tee "$logs/$s.log"
	echo "## suite $s: $((SECONDS - t0)) s"
done
for s in "$@"; do
	[ -n "${bg_pid[$s]:-}" ] || continue
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
