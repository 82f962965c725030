#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make demo: a narrated tour of kbloom, under two minutes.
#
#   1. kbloom.ko: a counting and a blocked filter made, filled, tested,
#      deleted from, saved, restored and inspected with kbloomctl
#      (tests/demo-module.sh).  Where this kernel cannot load modules (no
#      /proc/modules) it runs in the qemu guest (tests/vm/run -m), else on
#      this kernel with insmod.
#   2. The mcast XDP path: a 4-port multicast switch in network namespaces,
#      hosts joining groups, traffic, and per port the packets forwarded,
#      filtered and leaked next to the false-positive rate each port's
#      filter predicts (one port's filter is made tiny so that leaks show).
#   3. A real receiver (tests/demo-bridge.sh): the switch under a Linux
#      bridge with multicast snooping, kbloomctl mcast sync, a socket that
#      joins a group and receives a UDP sender's datagrams.
#
#   tests/demo.sh [module] [mcast] [bridge]    (default: all three)
#
# Needs root, the built tree (make all tests), python3 and iproute2.
# Everything it makes (namespaces kbdemo-*, the pins under
# /sys/fs/bpf/kbloom/kbdemo*, a temporary directory) is removed on exit,
# on Ctrl-C and on failure.
cd "$(dirname "$0")/.." || exit 1
root=$PWD
K=$root/build/kbloomctl
NS=kbdemo
SW=$NS-sw
HOSTS=(h0 h1 h2 h3)
tmp=
insmodded=
t0=$(date +%s.%N)

bold() { if [ -t 1 ]; then printf '\033[1m%s\033[0m\n' "$*"; else printf '%s\n' "$*"; fi; }
header() { printf '\n'; bold "=== $*"; }
step() { printf '\n--- %s\n' "$*"; }
say() { printf '    %s\n' "$*"; }
die() { echo "demo: $*" >&2; exit 1; }

# kb WANT ARGS...: show "kbloomctl ARGS", run it, which must exit WANT
kb() {
	local want=$1 rc
	shift
	printf '$ kbloomctl %s\n' "$*"
	"$K" "$@"
	rc=$?
	[ "$rc" = 0 ] || printf '(exit %d)\n' "$rc"
	[ "$rc" = "$want" ] || die "expected exit $want from: kbloomctl $*"
}

# sh CMD...: show a shell command, run it, which must succeed
sh_() {
	printf '$ %s\n' "$*"
	"$@" || die "failed: $*"
}

cleanup() {
	local h
	trap - EXIT INT TERM
	"$K" xdp detach $NS -exist >/dev/null 2>&1
	"$K" xdp detach $NS-pass -exist >/dev/null 2>&1
	for h in "${HOSTS[@]}"; do
		ip netns del "$NS-$h" 2>/dev/null
	done
	ip netns del "$SW" 2>/dev/null
	[ -n "$tmp" ] && rm -rf "$tmp"
	[ -n "$insmodded" ] && rmmod kbloom 2>/dev/null
	return 0
}
interrupted() {
	echo
	echo "demo: interrupted; cleaning up" >&2
	cleanup
	exit 130
}
trap cleanup EXIT
trap interrupted INT TERM

[ "$(id -u)" = 0 ] || die "run as root (XDP programs, namespaces, the module)"
[ -x "$K" ] || die "$K missing: make all tests"
command -v python3 >/dev/null || die "python3 missing (it sends the traffic)"
tmp=$(mktemp -d /tmp/kbloom-demo.XXXXXX) || die "mktemp failed"

bold "kbloom: Bloom filters in the Linux kernel and on the XDP fast path"
say "One filter definition (uapi/), three executors: kbloom.ko, libkbloom and"
say "XDP programs over BPF maps; kbloomctl drives all of them."

parts=" ${*:-module mcast bridge} "
for p in $parts; do
	case $p in module | mcast | bridge) ;; *) die "unknown part '$p' (allowed: module mcast bridge)" ;; esac
done

# --- part 1: the module ----------------------------------------------------------
part1=ok
if [[ $parts == *" module "* ]]; then
header "1. Named filters in kbloom.ko, with kbloomctl"
if [ -e /dev/kbloom ]; then
	say "(kbloom.ko is loaded on this kernel: using it)"
	tests/demo-module.sh || part1=failed
elif [ -e /proc/modules ] && insmod build/kbloom.ko 2>"$tmp/insmod.err"; then
	insmodded=1
	say "(this kernel loads modules: insmod build/kbloom.ko)"
	tests/demo-module.sh || part1=failed
else
	if [ -e /proc/modules ]; then
		say "(insmod failed here: $(head -n 1 "$tmp/insmod.err"); using the guest)"
	else
		say "(this kernel cannot load modules: no /proc/modules.  Booting Debian's"
		say " kernel in qemu with kbloom.ko loaded, about 20 s under TCG:"
		say " tests/vm/run -m -- tests/demo-module.sh)"
	fi
	# the guest's console: its own kernel messages are left out
	tests/vm/run -m --timeout 300 -- tests/demo-module.sh 2>&1 |
		grep -v -e '^KBLOOM-VM-' -e '^\[ *[0-9.]*\] ' -e '^vm: ' |
		sed -e 's/\r$//'
	[ "${PIPESTATUS[0]}" = 0 ] || part1=failed
fi
[ "$part1" = ok ] || echo "demo: part 1 (the module) failed; on to part 2" >&2
fi

# --- part 2: the mcast XDP path --------------------------------------------------
if [[ $parts == *" mcast "* ]]; then
header "2. A multicast switch on XDP: per-port Bloom filters of joined groups"
say "        h0 (source)   h1        h2        h3"
say "          |           |         |         |        hosts: one namespace each"
say "         p0          p1        p2        p3       switch ports, namespace $SW"
say "Ingress XDP broadcasts each multicast frame to the other ports (devmap,"
say "BPF_F_BROADCAST); a devmap egress program per port drops the frame unless"
say "the port's filter may hold its group.  A false positive is a leaked frame;"
say "the egress program counts it against the exact record of memberships."

step "2a. Namespaces and veth links (no IPv6: no MLD noise)"
# what an earlier run killed hard may have left
"$K" xdp detach $NS -exist >/dev/null 2>&1
"$K" xdp detach $NS-pass -exist >/dev/null 2>&1
ip netns del "$SW" 2>/dev/null
ip netns add "$SW" || die "ip netns add failed"
for i in 0 1 2 3; do
	h=$NS-${HOSTS[$i]}
	ip netns del "$h" 2>/dev/null
	ip netns add "$h" || die "ip netns add $h failed"
	for n in "$SW" "$h"; do
		ip netns exec "$n" sysctl -qw net.ipv6.conf.all.disable_ipv6=1 \
			net.ipv6.conf.default.disable_ipv6=1 || die "sysctl in $n failed"
	done
	ip -n "$SW" link add "p$i" type veth peer name eth0 netns "$h" ||
		die "veth p$i failed"
	ip -n "$SW" link set "p$i" up || die "link up p$i failed"
	ip -n "$h" link set eth0 up || die "link up eth0 in $h failed"
done
say "$ ip netns add $SW; ip netns add $NS-h0 ... $NS-h3"
say "$ ip -n $SW link add p0 type veth peer name eth0 netns $NS-h0   (and p1..p3)"

step "2b. Attach the mcast path to the switch ports"
say "(p1, p2: filters sized for 1024 groups at 0.01%, the default;"
say " p3: one 512-bit block, one hash, so that its leaks are visible)"
kb 0 xdp attach mcast $NS dev p0 p1 p2 mode native netns $SW
kb 0 xdp attach mcast $NS dev p3 mode native bits 512 hashes 1
say "(the host ends run XDP_PASS: a veth end receives redirected frames only"
say " when its peer runs an XDP program)"
for h in "${HOSTS[@]}"; do
	kb 0 xdp attach pass $NS-pass dev eth0 netns "$NS-$h"
done
kb 0 xdp status $NS
kb 0 xdp status $NS-pass

step "2c. Hosts join groups (h0 only sends)"
kb 0 mcast join $NS p1 239.1.0.1 239.1.0.2 239.1.0.3 239.1.0.4
kb 0 mcast join $NS p2 $(seq -f 239.1.0.%g 3 10)
say "(h3 joins 2 groups that h0 sends to and 30 that nobody sends to: 32"
say " groups in one 512-bit block)"
kb 0 mcast join $NS p3 239.1.0.11 239.1.0.12 $(seq -f 239.9.0.%g 1 30)
kb 0 mcast ports $NS

step "2d. Which of the 64 groups h0 will send to does each port's filter let through?"
say "(map test asks a port's pinned filter, /sys/fs/bpf/kbloom/$NS/filter_IFINDEX)"
mapfile -t groups < <(seq -f 239.1.0.%g 1 64)
for i in 1 2 3; do
	idx=$(ip -n "$SW" -o link show "p$i" | cut -d: -f1)
	n=$("$K" map test /sys/fs/bpf/kbloom/$NS/filter_"$idx" --key ipv4 "${groups[@]}" |
		grep -c 'possibly present')
	echo "$i $n" >>"$tmp/possible"
done
printf '$ kbloomctl map test /sys/fs/bpf/kbloom/%s/filter_%s --key ipv4 239.1.0.1 ... 239.1.0.64\n' \
	$NS "$idx"
"$K" map test /sys/fs/bpf/kbloom/$NS/filter_"$idx" --key ipv4 "${groups[@]}" |
	grep 'possibly present'
say "(p3 joined only .11 and .12 of these: the others above are false positives,"
say " predicted before a single packet is sent)"

step "2e. h0 sends 10 frames to each of the 64 groups 239.1.0.1 .. 239.1.0.64"
say "(python3, AF_PACKET in namespace $NS-h0; each host captures on its eth0)"
python3 - "$NS" 10 64 >"$tmp/traffic" <<'EOF' || die "traffic failed"
import ctypes, os, socket, struct, sys, time

ns, rounds, ngroups = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
libc = ctypes.CDLL(None, use_errno=True)
CLONE_NEWNET = 0x40000000
own = os.open("/proc/self/ns/net", os.O_RDONLY)

def enter(name):
    fd = os.open("/run/netns/" + name, os.O_RDONLY)
    if libc.setns(fd, CLONE_NEWNET):
        raise OSError(ctypes.get_errno(), "setns " + name)
    os.close(fd)

def sock(name):
    enter(name)
    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(3))
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1 << 22)
    s.bind(("eth0", 0))
    s.setblocking(False)
    libc.setns(own, CLONE_NEWNET)
    return s

def csum(b):
    s = sum(struct.unpack("!%dH" % (len(b) // 2), b))
    while s >> 16:
        s = (s & 0xffff) + (s >> 16)
    return ~s & 0xffff

def frame(g, seq):
    dst = bytes([239, 1, 0, g])
    payload = b"KBDEMO" + struct.pack("!HI", g, seq)
    udp = struct.pack("!HHHH", 40000, 5000, 8 + len(payload), 0) + payload
    ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(udp), seq & 0xffff,
                     0, 1, 17, 0, bytes([10, 0, 0, 1]), dst)
    ip = ip[:10] + struct.pack("!H", csum(ip)) + ip[12:]
    eth = bytes([1, 0, 0x5e, 1, 0, g]) + bytes([2, 0, 0, 0, 0, 1]) + b"\x08\x00"
    return eth + ip + udp

rx = {h: sock("%s-%s" % (ns, h)) for h in ("h1", "h2", "h3")}
tx = sock(ns + "-h0")
got = {h: {} for h in rx}

def drain(quiet):
    last = time.time()
    while time.time() - last < quiet:
        any_ = False
        for h, s in rx.items():
            while True:
                try:
                    data, addr = s.recvfrom(2048)
                except BlockingIOError:
                    break
                if addr[2] == socket.PACKET_OUTGOING or data[42:48] != b"KBDEMO":
                    continue
                g = struct.unpack("!H", data[48:50])[0]
                got[h][g] = got[h].get(g, 0) + 1
                any_ = True
        if any_:
            last = time.time()
        else:
            time.sleep(0.005)

sent = 0
for r in range(rounds):
    for g in range(1, ngroups + 1):
        tx.send(frame(g, r))
        sent += 1
    drain(0.002)
drain(0.3)
print("sent", sent)
for h in sorted(got):
    print(h, " ".join("%d:%d" % (g, n) for g, n in sorted(got[h].items())))
EOF
sent=$(awk '/^sent/ {print $2}' "$tmp/traffic")
say "(sent $sent frames)"

step "2f. Per-port counters of the switch"
kb 0 mcast stats $NS

step "2g. Forwarded, filtered and leaked per port, next to the predicted rate"
"$K" mcast stats $NS -j >"$tmp/stats.json" || die "mcast stats -j failed"
"$K" mcast groups $NS -j >"$tmp/groups.json" || die "mcast groups -j failed"
python3 - "$tmp/stats.json" "$tmp/groups.json" "$tmp/traffic" "$tmp/possible" \
	<<'EOF' || die "the table failed"
import json, sys

stats = {p["port"]: p for p in json.load(open(sys.argv[1]))}
groups = {p["port"]: p["groups"] for p in json.load(open(sys.argv[2]))}
rx = {}
for line in open(sys.argv[3]):
    w = line.split()
    if w and w[0] != "sent":
        rx[w[0]] = {int(a): int(b) for a, b in (x.split(":") for x in w[1:])}
possible = dict(line.split() for line in open(sys.argv[4]))
sent_to = {"239.1.0.%d" % g for g in range(1, 65)}

print("%-4s %-5s %6s %9s %8s %6s %9s %11s %13s" % (
    "PORT", "HOST", "JOINED", "FORWARDED", "FILTERED", "LEAKED",
    "RECEIVED", "FPR_NOW", "LEAK_RATE"))
for i in range(4):
    p, h = "p%d" % i, "h%d" % i
    s = stats[p]
    joined = len(set(groups.get(p, [])) & sent_to)
    recv = sum(rx.get(h, {}).values()) if i else 0
    non = s["tx_filtered"] + s["tx_leaked"]
    rate = "%.2f%%" % (100.0 * s["tx_leaked"] / non) if non else "-"
    fpr = s["fpr_now"] * 100
    print("%-4s %-5s %6s %9d %8d %6d %9s %10s%% %13s" % (
        p, h + ("*" if i == 0 else ""), joined if i else "-",
        s["tx_forwarded"], s["tx_filtered"], s["tx_leaked"],
        recv if i else "-", ("%.4f" % fpr) if fpr >= 1e-4 else
        "%.0e" % fpr if fpr else "<1e-10" if groups.get(p) else "0",
        rate))
print()
print("* h0 is the source: its port receives (RX %d), never sends back."
      % stats["p0"]["rx_packets"])
s3 = stats["p3"]
non3 = s3["tx_filtered"] + s3["tx_leaked"]
exp = s3["fpr_now"] * non3
print("p3: %d frames of groups it did not join; its filter (32 groups in 512"
      % non3)
print("    bits, k=1) predicts fpr %.2f%%, i.e. %.1f leaks expected; %d leaked"
      % (100 * s3["fpr_now"], exp, s3["tx_leaked"]))
print("    (= %s groups its filter answers 'possibly present' for, minus the 2"
      % possible.get("3", "?"))
print("    it joined, times 10 frames each).  p1 and p2, sized at 0.01%%: %d leaks."
      % (stats["p1"]["tx_leaked"] + stats["p2"]["tx_leaked"]))
print("Every host received exactly what its port forwarded: %s."
      % ("yes" if all(sum(rx.get("h%d" % i, {}).values()) ==
                      stats["p%d" % i]["tx_forwarded"] for i in (1, 2, 3))
         else "NO"))
EOF

step "2h. The tiny filter as bpftool sees it: typed 64-byte blocks (struct kbloom_block)"
idx=$(ip -n "$SW" -o link show p3 | cut -d: -f1)
if command -v bpftool >/dev/null; then
	printf '$ bpftool map dump pinned /sys/fs/bpf/kbloom/%s/filter_%s\n' $NS "$idx"
	bpftool map dump pinned /sys/fs/bpf/kbloom/$NS/filter_"$idx"
fi
kb 0 map stat /sys/fs/bpf/kbloom/$NS/filter_"$idx"

step "2i. Clean up: detach and unpin everything, delete the namespaces"
kb 0 xdp detach $NS
kb 0 xdp detach $NS-pass
for h in "${HOSTS[@]}"; do ip netns del "$NS-$h"; done
ip netns del "$SW"
say "$ ip netns del $SW $NS-h0 ... $NS-h3"
fi

if [[ $parts == *" bridge "* ]]; then
header "3. A real receiver: memberships learned from a snooping bridge"
tests/demo-bridge.sh || die "part 3 (the bridge) failed (see above)"
fi

[ "$part1" = ok ] || die "part 1 (the module) failed (see above)"
header "Done in $(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.0f", b - a }') s"
say "man -l doc/kbloomctl.8; kbloomctl COMMAND --help"
