#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make demo, part 3: a real receiver.  A kbloom switch whose ports are
# members of a Linux bridge with multicast snooping; `kbloomctl mcast sync`
# mirrors the bridge's memberships into the port filters.  A receiver joins
# a group with a socket (IP_ADD_MEMBERSHIP), nothing is typed: its IGMP
# report teaches the bridge, sync teaches kbloom, and a UDP sender's
# datagrams reach it and no other host.
#
#   tests/demo-bridge.sh      (root; called by tests/demo.sh)
#
# Makes namespaces kbdemo-b*, pins /sys/fs/bpf/kbloom/kbdemo-br*; removes
# them on exit, on Ctrl-C and on failure.
cd "$(dirname "$0")/.." || exit 1
K=$PWD/build/kbloomctl
NS=kbdemo-b
SW=$NS-sw
HOSTS=(h0 h1 h2)
GROUP=239.5.0.1
sync_pid=
tmp=

step() { printf '\n--- %s\n' "$*"; }
say() { printf '    %s\n' "$*"; }
die() { echo "demo: $*" >&2; exit 1; }
run() { printf '$ %s\n' "$*"; "$@" || die "failed: $*"; }
kb() { printf '$ kbloomctl %s\n' "$*"; "$K" "$@" || die "failed: kbloomctl $*"; }

cleanup() {
	local h
	trap - EXIT INT TERM
	[ -n "$sync_pid" ] && kill "$sync_pid" 2>/dev/null && wait "$sync_pid" 2>/dev/null
	"$K" xdp detach kbdemo-br -exist >/dev/null 2>&1
	"$K" xdp detach kbdemo-br-pass -exist >/dev/null 2>&1
	for h in "${HOSTS[@]}"; do ip netns del "$NS-$h" 2>/dev/null; done
	ip netns del "$SW" 2>/dev/null
	[ -n "$tmp" ] && rm -rf "$tmp"
	return 0
}
trap cleanup EXIT
trap 'cleanup; exit 130' INT TERM

command -v ethtool >/dev/null || die "ethtool missing (make deps installs it)"
cleanup >/dev/null	# what an interrupted run left
trap cleanup EXIT
tmp=$(mktemp -d /tmp/kbloom-demo-br.XXXXXX) || die "mktemp failed"

step "3a. A bridge with multicast snooping; the switch's ports are its members"
run ip netns add "$SW"
run ip -n "$SW" link add br0 type bridge mcast_snooping 1 mcast_querier 0
i=0
for h in "${HOSTS[@]}"; do
	ip netns add "$NS-$h" || die "ip netns add $NS-$h failed"
	ip netns exec "$NS-$h" sysctl -qw net.ipv6.conf.all.disable_ipv6=1
	ip -n "$SW" link add "p$i" type veth peer name eth0 netns "$NS-$h" ||
		die "veth p$i failed"
	ip -n "$SW" link set "p$i" master br0 up || die "p$i: no bridge"
	ip -n "$NS-$h" addr add "10.9.0.$((i + 1))/24" dev eth0
	ip -n "$NS-$h" link set eth0 up
	ip -n "$NS-$h" link set lo up
	# veth hands XDP frames with the UDP checksum still to be filled in
	# (TX offload); a frame redirected by XDP loses that state and its
	# receiver drops it as corrupt.  Real NICs are not affected.
	ip netns exec "$NS-$h" ethtool -K eth0 tx off >/dev/null ||
		die "ethtool -K eth0 tx off failed in $NS-$h"
	i=$((i + 1))
done
run ip -n "$SW" link set br0 up
say "(and for each host i: ip netns add $NS-h\$i; ip -n $SW link add p\$i type"
say " veth peer name eth0 netns $NS-h\$i; ip -n $SW link set p\$i master br0 up;"
say " ip netns exec $NS-h\$i ethtool -K eth0 tx off   # veth only)"

step "3b. The kbloom switch on the bridge's ports, XDP_PASS on the host ends"
kb xdp attach mcast kbdemo-br dev p0 p1 p2 netns "$SW"
for h in "${HOSTS[@]}"; do
	"$K" xdp attach pass kbdemo-br-pass dev eth0 netns "$NS-$h" >/dev/null ||
		die "pass on $NS-$h failed"
done

step "3c. kbloomctl mcast sync: the bridge's multicast database into the filters"
printf '$ kbloomctl mcast sync kbdemo-br bridge br0 netns %s &\n' "$SW"
"$K" mcast sync kbdemo-br bridge br0 netns "$SW" >"$tmp/sync" 2>&1 &
sync_pid=$!
for _ in $(seq 50); do
	grep -q 'synced from bridge br0' "$tmp/sync" && break
	sleep 0.1
done
grep -q 'synced from bridge br0' "$tmp/sync" || die "sync did not start: $(cat "$tmp/sync")"
sed 's/^/    sync: /' "$tmp/sync"

step "3d. h1 joins $GROUP with a socket; h0 sends 20 UDP datagrams to it"
say "(python3: h1 IP_ADD_MEMBERSHIP and recv; h2 counts every frame to the"
say " group on its link; h0 a plain UDP socket, IP_MULTICAST_IF 10.9.0.1)"
python3 - "$NS" "$GROUP" "$tmp/sync" >"$tmp/app" <<'EOF' || die "the applications failed"
import ctypes, os, socket, struct, sys, time

ns, group, synclog = sys.argv[1], sys.argv[2], sys.argv[3]
libc = ctypes.CDLL(None, use_errno=True)
own = os.open("/proc/self/ns/net", os.O_RDONLY)

def inside(name, make):
    fd = os.open("/run/netns/" + name, os.O_RDONLY)
    if libc.setns(fd, 0x40000000):
        raise OSError(ctypes.get_errno(), "setns " + name)
    os.close(fd)
    try:
        return make()
    finally:
        libc.setns(own, 0x40000000)

def receiver():
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind(("0.0.0.0", 5000))
    mreq = socket.inet_aton(group) + socket.inet_aton("10.9.0.2")
    s.setsockopt(socket.IPPROTO_IP, socket.IP_ADD_MEMBERSHIP, mreq)
    s.settimeout(0.05)
    return s

def watcher():
    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(0x0800))
    s.bind(("eth0", 0))
    s.setblocking(False)
    return s

def sender():
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_IF,
                 socket.inet_aton("10.9.0.1"))
    return s

t0 = time.time()
rx = inside(ns + "-h1", receiver)
watch = inside(ns + "-h2", watcher)
tx = inside(ns + "-h0", sender)
learned = None
while time.time() - t0 < 5 and learned is None:
    if ("+ p1 " + group) in open(synclog).read():
        learned = time.time() - t0
    time.sleep(0.01)
print("learned", "%.2f" % learned if learned is not None else "never")
got, seen = 0, 0
for i in range(20):
    tx.sendto(b"kbloom demo %d" % i, (group, 5000))
    time.sleep(0.01)
    try:
        while True:
            data, _ = rx.recvfrom(100)
            got += data.startswith(b"kbloom demo")
    except socket.timeout:
        pass
time.sleep(0.2)
try:
    while True:
        f = watch.recv(2048)
        seen += f[30:34] == socket.inet_aton(group)
except BlockingIOError:
    pass
print("h1", got)
print("h2", seen)
EOF
learned=$(awk '/^learned/ {print $2}' "$tmp/app")
got=$(awk '/^h1/ {print $2}' "$tmp/app")
seen=$(awk '/^h2/ {print $2}' "$tmp/app")
sed 's/^/    sync: /' "$tmp/sync" | grep -v 'synced from' || true
say "kbloom learned h1's membership ${learned} s after the socket joined"
say "h1 (joined by socket) received $got of 20 datagrams; h2 (not a member) saw $seen frames of the group"
[ "$got" = 20 ] && [ "$seen" = 0 ] || die "the real receiver did not get exactly the group's traffic"

step "3e. What the bridge and kbloom know"
printf '$ bridge -n %s mdb show\n' "$SW"
bridge -n "$SW" mdb show | sed 's/^/    /'
kb mcast groups kbdemo-br
kb mcast stats kbdemo-br
