#!/bin/bash
# Both directions of a flow on one worker: two namespaces joined through netbpf's afpacket ports
# with `queues 2` and `--workers 2`. The kernel deals flows to a fanout group's sockets by a
# symmetric hash, so a ping's requests and replies come in on queue k of their ports, and
# queue k of every port is worker k's: that worker forwards every echo request and every
# reply, even with a single-queue port added between the two (which takes the least busy
# worker and shifts nothing). With
# single-queue ports each direction has a worker of its own (the contrast, showing the check
# can fail). Runs in a network namespace of its own; skipped without root.
. "$(dirname "$0")/lib.sh"

nb_in_own_netns "network namespaces, veth, AF_PACKET" "$@"

A=nbfwa$$
B=nbfwb$$
PINGS=30
cleanup() {
	[ -n "${pid:-}" ] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
	ip netns del $A 2>/dev/null
	ip netns del $B 2>/dev/null
}
nb_tmp

# run_pings QUEUES [BETWEEN]: after the pings of this run, the frames each worker forwarded, in
# $tmp/workers (one line); BETWEEN: a single-queue port on a third veth is added between the two
run_pings() {
	local queues=$1 between=

	ip netns add $A && ip netns add $B || fail "ip netns add"
	ip link add a0 type veth peer name a1 && ip link add b0 type veth peer name b1 ||
		fail "veth"
	ip link set a1 up && ip link set b1 up || fail "veth up"
	if [ -n "${2:-}" ]; then
		ip link add c0 type veth peer name c1 && ip link set c0 up && ip link set c1 up ||
			fail "third veth"
		between="link add pc type afpacket dev c1"
	fi
	ip link set a0 netns $A && ip link set b0 netns $B || fail "veth to netns"
	for ns in $A $B; do
		ip netns exec $ns sysctl -qw net.ipv6.conf.all.disable_ipv6=1 \
			net.ipv6.conf.default.disable_ipv6=1 || fail "sysctl in $ns"
	done
	ip -n $A link set a0 up && ip -n $A addr add 10.9.0.1/24 dev a0 || fail "a0"
	ip -n $B link set b0 up && ip -n $B addr add 10.9.0.2/24 dev b0 || fail "b0"
	cat > "$tmp/fwd.tc" <<EOF
link add p0 type afpacket dev a1 queues $queues
$between
link add p1 type afpacket dev b1 queues $queues
tc qdisc add dev p0 clsact
tc qdisc add dev p1 clsact
tc filter add dev p0 ingress matchall action mirred egress redirect dev p1
tc filter add dev p1 ingress matchall action mirred egress redirect dev p0
EOF
	$NETBPF -j run "$tmp/fwd.tc" --workers 2 --duration 120 > "$tmp/run.json" \
		2> "$tmp/run.err" &
	pid=$!
	# once a reply came back netbpf forwards both ways; then PINGS more, each answered
	ip netns exec $A python3 - $PINGS <<'PY' || fail "queues $queues: pings: $(cat "$tmp/run.err")"
import socket, sys
s = socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_ICMP)
def echo(seq):
    e = bytearray(b"\x08\x00\x00\x00\x12\x34" + seq.to_bytes(2, "big") + b"nbflow" * 4)
    c = sum(int.from_bytes(e[i:i + 2], "big") for i in range(0, len(e), 2))
    while c >> 16:
        c = (c & 0xffff) + (c >> 16)
    e[2:4] = (~c & 0xffff).to_bytes(2, "big")
    return bytes(e)
def ping(seq, tries, wait):
    s.settimeout(wait)
    for _ in range(tries):
        s.sendto(echo(seq), ("10.9.0.2", 0))
        try:
            while True:
                b = s.recv(1500)
                if b[20] == 0 and b[24:28] == b"\x12\x34" + seq.to_bytes(2, "big"):
                    return True
        except socket.timeout:
            pass
    return False
if not ping(0, 300, 0.2):
    sys.exit("no reply in 60 s")
# a second to answer (a loaded machine), sent again at most twice: each try crosses both ways
for seq in range(1, int(sys.argv[1]) + 1):
    if not ping(seq, 3, 1.0):
        sys.exit("echo %d not answered" % seq)
PY
	kill -INT $pid
	wait $pid || fail "queues $queues: netbpf run exited $?: $(cat "$tmp/run.err")"
	pid=
	json 'print(" ".join(str(w["packets"]) for w in d["workers"]))' < "$tmp/run.json" \
		> "$tmp/workers" || fail "queues $queues: no workers in $(cat "$tmp/run.json")"
	ip link del a1 && ip link del b1 || fail "veth del"
	[ -z "$between" ] || ip link del c1 || fail "veth del"
	ip netns del $A
	ip netns del $B
}

# 2 queues: one worker forwarded the requests and the replies of the flow, at least 2 x PINGS
run_pings 2 between
read -r w0 w1 < "$tmp/workers"
[ -n "$w1" ] || fail "queues 2: not two workers: $w0"
most=$((w0 > w1 ? w0 : w1))
[ "$most" -ge $((2 * PINGS)) ] ||
	fail "queues 2: workers forwarded $w0 and $w1 frames: the flow's directions were split"
# 1 queue: the requests (p0's queue) and the replies (p1's) are on different workers
run_pings 1
read -r s0 s1 < "$tmp/workers"
[ -n "$s1" ] || fail "queues 1: not two workers: $s0"
[ "$s0" -ge "$PINGS" ] && [ "$s1" -ge "$PINGS" ] && [ "$s0" -lt $((2 * PINGS)) ] &&
	[ "$s1" -lt $((2 * PINGS)) ] ||
	fail "queues 1: workers forwarded $s0 and $s1 frames, not a direction each"
echo "flow_workers: queues 2, a single-queue port between:" \
	"one worker took a flow's both directions ($w0 + $w1 frames);" \
	"queues 1: a worker per direction ($s0 + $s1)"
