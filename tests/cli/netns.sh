#!/bin/bash
# -n NAME runs netbpf in the network namespace NAME, as ip -n does: an afpacket port on an
# interface that exists only in the namespace opens with -n and not without, a script's frames
# leave through it (the namespace's veth peer counts them), a daemon started with -n serves
# its commands, and a namespace that does not exist is an error naming it.
. "$(dirname "$0")/lib.sh"
[ "$(id -u)" = 0 ] || { echo "SKIPPED: -n needs root (setns)"; exit 77; }
command -v ip >/dev/null || { echo "SKIPPED: ip (iproute2) is missing"; exit 77; }
ns=nbtest-netns-$$
ip netns add "$ns" 2>/dev/null || { echo "SKIPPED: cannot make a network namespace"; exit 77; }
dpid=
cleanup() {
	[ -n "$dpid" ] && kill -9 "$dpid" 2>/dev/null
	ip netns del "$ns"
}
nb_tmp
export NETBPF_RUNDIR=$tmp/run
# no IPv6 in the namespace: its neighbour discovery would add frames to what nbv1 counts
ip netns exec "$ns" sysctl -qw net.ipv6.conf.all.disable_ipv6=1 \
	net.ipv6.conf.default.disable_ipv6=1 || fail "sysctl in $ns"
ip -n "$ns" link add nbv0 type veth peer name nbv1 && ip -n "$ns" link set nbv0 up &&
	ip -n "$ns" link set nbv1 up || fail "veth in $ns"
ip link show nbv0 >/dev/null 2>&1 && fail "nbv0 exists outside $ns"

# without -n the interface is not there; with it the port opens
err=$($NETBPF link add p0 type afpacket dev nbv0 2>&1) && fail "afpacket outside $ns opened"
echo "$err" | grep -q 'dev "nbv0": no such interface' || fail "outside: $err"
$NETBPF -n "$ns" link add p0 type afpacket dev nbv0 || fail "afpacket in $ns"

# a script's generator sends 300 frames out of nbv0: nbv1 receives them
rx() { ip -n "$ns" -s -j link show nbv1 | sed -n 's/.*"rx":{"bytes":[0-9]*,"packets":\([0-9]*\).*/\1/p'; }
before=$(rx)
cat > "$tmp/out.tc" <<EOF2
link add g type gen count 300
link add p0 type afpacket dev nbv0
tc qdisc add dev g clsact
tc filter add dev g ingress matchall action mirred egress redirect dev p0
EOF2
out=$($NETBPF -n "$ns" run "$tmp/out.tc") || fail "run in $ns: $out"
[ $(($(rx) - before)) -eq 300 ] || fail "nbv1 received $(($(rx) - before)), not 300"

# a daemon in the namespace: its commands see the namespace's interfaces
$NETBPF -n "$ns" daemon --name nsd > "$tmp/d.out" 2> "$tmp/d.err" &
dpid=$!
for _ in $(seq 100); do
	$NETBPF -D nsd link show >/dev/null 2>&1 && break
	sleep 0.05
done
$NETBPF -D nsd link add p1 type afpacket dev nbv1 || fail "daemon in $ns: $(cat "$tmp/d.err")"
$NETBPF -D nsd link show dev p1 | grep -q "port afpacket dev nbv1" || fail "p1 in the daemon"
kill -TERM $dpid && wait $dpid || fail "daemon exit: $(cat "$tmp/d.err")"
dpid=

err=$($NETBPF -n nbtest-nonexistent link show 2>&1); rc=$?
[ $rc -eq 1 ] || fail "missing namespace exited $rc"
echo "$err" | grep -q 'Cannot open network namespace "nbtest-nonexistent": No such file or directory' ||
	fail "missing namespace: $err"
echo "netns: -n enters the namespace for commands, scripts and the daemon"
