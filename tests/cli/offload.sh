#!/bin/bash
# Traffic between two network namespaces through netbpf, with the kernel's default offloads on
# (TSO super-frames, partial checksums, VLAN tags offloaded): for afpacket, afxdp (skb and driver
# mode) and tap ports, 50 MB of TCP each way (md5 compared, no checksum error counted by the
# receiving stacks), UDP datagrams whose checksums the sender left to the device, VLAN-tagged
# frames both ways, and a 9000-byte MTU path; then the counters netbpf
# kept against what the namespaces' interfaces counted. netbpf forwards with a tc program one way
# (tcbpf1.o redirect_xmit: bpf_redirect to the next ifindex) and mirred the other. Runs in
# network namespaces of its own; skipped without root.
. "$(dirname "$0")/lib.sh"

nb_in_own_netns "network namespaces, veth, tap, AF_XDP" "$@"
[ -e "$EX/tcbpf1.o" ] || skip "tcbpf1.o is not built"

A=nbofa$$
B=nbofb$$
cleanup() {
	[ -n "${pid:-}" ] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
	ip netns del $A 2>/dev/null
	ip netns del $B 2>/dev/null
}
nb_tmp
echo 1 > /proc/sys/net/ipv6/conf/default/disable_ipv6 2>/dev/null
python3 -c "import os; open('$tmp/data', 'wb').write(os.urandom(50 << 20))"
data_md5=$(python3 -c "import hashlib; print(hashlib.md5(open('$tmp/data','rb').read()).hexdigest())")

# inner NS CMD...: run in namespace NS
in_ns() { local ns=$1; shift; ip netns exec "$ns" "$@"; }

# The namespaces: nbofa with 10.9.0.1, nbofb with 10.9.0.2; their interfaces are $1 and $2
# (made by the caller), the MTU $3.
setup_ns() {
	local ifa=$1 ifb=$2 mtu=$3
	for ns in $A $B; do
		in_ns $ns sysctl -qw net.ipv6.conf.all.disable_ipv6=1 net.ipv6.conf.default.disable_ipv6=1
		in_ns $ns ip link set lo up
	done
	in_ns $A ip link set $ifa mtu $mtu up
	in_ns $B ip link set $ifb mtu $mtu up
	in_ns $A ip addr add 10.9.0.1/24 dev $ifa
	in_ns $B ip addr add 10.9.0.2/24 dev $ifb
}

# vlan FROM_NS FROM_IF TO_NS TO_IF: frames tagged VLAN 100 (the kernel takes the tag off into
# the skb on receive, so a port sees it offloaded: TP_STATUS_VLAN_VALID) arrive tagged.
vlan() {
	local from=$1 fif=$2 to=$3 tif=$4 mac
	mac=$(in_ns $to cat /sys/class/net/$tif/address)
	rm -f "$tmp/vready"
	in_ns $to python3 - "$tif" "$tmp/vready" > "$tmp/vrx" 2>&1 <<'PY' &
import socket, struct, sys
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(3))
s.bind((sys.argv[1], 0))
s.setsockopt(263, 8, 1)		# SOL_PACKET, PACKET_AUXDATA: the offloaded tag
open(sys.argv[2], "w").close()	# listening: the sender may start
s.settimeout(20)
seen = set()
def timeout(*args):
    raise SystemExit("%d of 200 tagged frames arrived" % len(seen))
import signal
signal.signal(signal.SIGALRM, timeout)
signal.alarm(20)
while len(seen) < 200:
    data, anc, _, addr = s.recvmsg(65536, socket.CMSG_SPACE(20))
    if addr[2] == socket.PACKET_OUTGOING or data[12:14] != b"\x88\xb5":
        continue
    tci = None
    for level, kind, val in anc:
        status, _, _, _, _, vtci, _ = struct.unpack("IIIHHHH", val[:20])
        if level == 263 and kind == 8 and status & 0x10:
            tci = vtci
    i = int.from_bytes(data[18:22], "little")
    assert tci is not None and tci & 0xfff == 100, ("no tag", i, tci)
    assert data[14:] == b"nbvl" + i.to_bytes(4, "little") * 40, ("bad frame", i)
    seen.add(i)
print(len(seen))
PY
	local rcv=$!
	for i in $(seq 600); do
		[ -e "$tmp/vready" ] && break
		sleep 0.05
	done
	in_ns $from python3 - "$fif" "$mac" <<'PY'
import socket, sys, time
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, 0)
s.bind((sys.argv[1], 0))
s.setsockopt(263, 20, 1)	# PACKET_QDISC_BYPASS: never a qdisc not yet made ready
dst, src = bytes.fromhex(sys.argv[2].replace(":", "")), s.getsockname()[4]
for i in range(200):
    s.send(dst + src + b"\x81\x00\x00\x64\x88\xb5" + b"nbvl" + i.to_bytes(4, "little") * 40)
    if i % 32 == 31:
        time.sleep(0.002)
PY
	wait $rcv || fail "vlan $from -> $to: $(cat "$tmp/vrx")"
}

# tcp FROM_NS TO_NS TO_ADDR BYTES: a TCP transfer of the data file's first BYTES; the md5 the
# receiver computed must be the sender's.
tcp() {
	local from=$1 to=$2 addr=$3 bytes=$4 want got
	want=$(python3 -c "import hashlib; print(hashlib.md5(open('$tmp/data','rb').read($bytes)).hexdigest())")
	in_ns $to python3 - "$addr" "$bytes" > "$tmp/rx" 2>&1 <<'PY' &
import hashlib, socket, sys
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind((sys.argv[1], 5201))
s.listen(1)
s.settimeout(60)
c, _ = s.accept()
c.settimeout(60)
h, n, want = hashlib.md5(), 0, int(sys.argv[2])
while n < want:
    b = c.recv(1 << 20)
    if not b:
        break
    h.update(b)
    n += len(b)
print(h.hexdigest(), n)
PY
	local srv=$!
	in_ns $from python3 - "$addr" "$bytes" "$tmp/data" <<'PY' || { kill $srv; fail "tcp $from -> $to: the sender failed"; }
import socket, sys, time
for i in range(200):
    try:
        c = socket.create_connection((sys.argv[1], 5201), timeout=60)
        break
    except ConnectionRefusedError:
        time.sleep(0.05)	# the receiver is not listening yet
with open(sys.argv[3], 'rb') as f:
    c.sendall(f.read(int(sys.argv[2])))
c.close()
PY
	wait $srv || fail "tcp $from -> $to: the receiver failed: $(cat "$tmp/rx")"
	got=$(cat "$tmp/rx")
	[ "$got" = "$want $bytes" ] || fail "tcp $from -> $to $addr: received \"$got\", sent \"$want $bytes\""
}

# udp FROM_NS TO_NS TO_ADDR COUNT SIZE: datagrams, each numbered, echoed back by the receiver;
# each arrives intact both ways (one lost to a full queue on a loaded machine is sent again).
udp() {
	local from=$1 to=$2 addr=$3 count=$4 size=$5
	in_ns $to python3 - "$addr" "$count" "$size" > "$tmp/urx" 2>&1 <<'PY' &
import socket, sys
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4 << 20)
s.bind((sys.argv[1], 5202))
s.settimeout(30)
count, size, seen = int(sys.argv[2]), int(sys.argv[3]), set()
while len(seen) < count:
    b, peer = s.recvfrom(65536)
    i = int.from_bytes(b[:4], 'little')
    assert len(b) == size and b == i.to_bytes(4, 'little') * (size // 4), ('bad', i, len(b))
    seen.add(i)
    s.sendto(b, peer)
print(len(seen))
PY
	local srv=$!
	in_ns $from python3 - "$addr" "$count" "$size" <<'PY' || { kill $srv; fail "udp $from -> $to"; }
import socket, sys, time
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.settimeout(0.5)
count, size = int(sys.argv[2]), int(sys.argv[3])
for i in range(count):
    b = i.to_bytes(4, 'little') * (size // 4)
    for tries in range(20):
        s.sendto(b, (sys.argv[1], 5202))
        try:
            while s.recv(65536) != b:
                pass
            break
        except (socket.timeout, ConnectionRefusedError):
            time.sleep(0.05)	# the receiver is not there yet, or the datagram was lost
    else:
        sys.exit("datagram %d never came back" % i)
PY
	wait $srv || fail "udp $from -> $to: $(cat "$tmp/urx")"
}

# No checksum was found bad by the namespaces' stacks.
csum_errors() {
	for ns in $A $B; do
		in_ns $ns python3 -c "
import sys
rows = [l.split() for l in open('/proc/net/snmp') if l.startswith(('Tcp:', 'Udp:'))]
bad = {r[0][:-1] + k: int(v) for (r, r2) in zip(rows[0::2], rows[1::2])
       for k, v in zip(r[1:], r2[1:]) if k == 'InCsumErrors'}
assert not any(bad.values()), bad
" || fail "$ns counted bad checksums"
	done
}

# netbpf's counters of device DEV in the run's JSON against interface IF of namespace NS (read
# into FILE while the run still held it: a tap goes with the run): what the interface sent,
# netbpf received, and what netbpf sent, the interface received. TX_HDR: bytes of each frame the
# interface's tx bytes leave out (a veth whose peer runs a driver-mode XDP program counts what it
# sends there after the peer's eth_type_trans took the 14-byte Ethernet header off).
counters() {
	local dev=$1 ns=$2 if=$3 file=$4 tx_hdr=${5:-0}
	python3 - "$tmp/run.json" "$file" "$dev" "$tx_hdr" <<'PY' ||
import json, sys
run, ifs, name = json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), sys.argv[3]
d = {x['name']: x for x in run['devices']}[name]
s = ifs[0]['stats64']
got = (d['rx_packets'], d['rx_bytes'], d['tx_packets'], d['tx_bytes'])
want = (s['tx']['packets'], s['tx']['bytes'] + int(sys.argv[4]) * s['tx']['packets'],
        s['rx']['packets'], s['rx']['bytes'])
assert got == want and not d['dropped'], (name, 'netbpf', got, 'interface', want, d['drops'])
PY
		fail "counters of $dev and $ns/$if differ"
}

# run KIND MTU WORDS: the whole set through ports of KIND
run_kind() {
	local kind=$1 mtu=$2 words=$3 ifa ifb
	ip netns add $A && ip netns add $B || fail "ip netns add"
	if [ $kind = tap ]; then
		ifa=nbt$$a
		ifb=nbt$$b
		p0="link add p0 type tap dev $ifa $words"
		p1="link add p1 type tap dev $ifb $words"
	else
		ifa=a0
		ifb=b0
		ip link add a0 type veth peer name a1 && ip link add b0 type veth peer name b1 ||
			fail "veth"
		ip link set a1 mtu $mtu up && ip link set b1 mtu $mtu up || fail "veth up"
		ip link set a0 netns $A && ip link set b0 netns $B || fail "veth to netns"
		p0="link add p0 type $kind dev a1 $words"
		p1="link add p1 type $kind dev b1 $words"
	fi
	cat > "$tmp/fwd.tc" <<EOF
$p0
$p1
link set dev p0 mtu $mtu
link set dev p1 mtu $mtu
tc qdisc add dev p0 clsact
tc qdisc add dev p1 clsact
tc filter add dev p0 ingress bpf da obj $EX/tcbpf1.o sec redirect_xmit
tc filter add dev p1 ingress matchall action mirred egress redirect dev p0
EOF
	$NETBPF -j run "$tmp/fwd.tc" --duration 600 > "$tmp/run.json" 2> "$tmp/run.err" &
	pid=$!
	if [ $kind = tap ]; then
		for i in $(seq 200); do
			ip link show $ifb >/dev/null 2>&1 && break
			kill -0 $pid 2>/dev/null || fail "$kind: netbpf ended: $(cat "$tmp/run.err")"
			sleep 0.05
		done
		ip link set $ifa netns $A && ip link set $ifb netns $B || fail "tap to netns"
	else
		for i in $(seq 200); do
			[ $kind != afxdp ] || ip link show b1 | grep -q prog/xdp && break
			kill -0 $pid 2>/dev/null || fail "$kind: netbpf ended: $(cat "$tmp/run.err")"
			sleep 0.05
		done
		sleep 0.2
	fi
	setup_ns $ifa $ifb $mtu
	# netbpf forwards once its sockets are open: however slow the machine, wait for that
	in_ns $A python3 - <<'PY' || fail "$kind: no ping crossed netbpf in 60 s: $(cat "$tmp/run.err")"
import socket, time
s = socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_ICMP)
s.settimeout(0.2)
echo = bytearray(b"\x08\x00\x00\x00\x12\x34\x00\x01" + b"nbping" * 4)
csum = sum(int.from_bytes(echo[i:i + 2], "big") for i in range(0, len(echo), 2))
while csum >> 16:
    csum = (csum & 0xffff) + (csum >> 16)
echo[2:4] = (~csum & 0xffff).to_bytes(2, "big")
deadline = time.time() + 60
while time.time() < deadline:
    s.sendto(echo, ("10.9.0.2", 0))
    try:
        while True:
            b = s.recv(1500)
            if b[20] == 0 and b[24:26] == b"\x12\x34":	# echo reply, our id
                raise SystemExit(0)
    except socket.timeout:
        pass
raise SystemExit(1)
PY
	if [ $mtu = 1500 ]; then
		tcp $A $B 10.9.0.2 $((50 << 20))
		tcp $B $A 10.9.0.1 $((50 << 20))
		udp $A $B 10.9.0.2 1000 1400
		vlan $A $ifa $B $ifb
		vlan $B $ifb $A $ifa
	else
		tcp $A $B 10.9.0.2 $((10 << 20))
		tcp $B $A 10.9.0.1 $((10 << 20))
		udp $A $B 10.9.0.2 300 8800
	fi
	csum_errors
	in_ns $A ip -j -s link show $ifa > "$tmp/a.json"
	in_ns $B ip -j -s link show $ifb > "$tmp/b.json"
	kill -INT $pid
	wait $pid || fail "$kind: netbpf run exited $?: $(cat "$tmp/run.err")"
	pid=
	local tx_hdr=0
	[ "$kind $words" != "afxdp mode drv" ] || tx_hdr=14
	counters p0 $A $ifa "$tmp/a.json" $tx_hdr
	counters p1 $B $ifb "$tmp/b.json" $tx_hdr
	# the veth pairs go now: a namespace is destroyed later, in the background, and the next
	# kind's pairs take the same names ("File exists")
	[ $kind = tap ] || { ip link del a1 && ip link del b1; } || fail "$kind: veth del"
	ip netns del $A
	ip netns del $B
	echo "  $kind${words:+ $words} mtu $mtu: 2 x $([ $mtu = 1500 ] && echo 50 || echo 10) MB TCP, UDP, $([ $mtu = 1500 ] && echo "VLAN, ")counters as the namespaces saw"
}

run_kind afpacket 1500 ""
run_kind afpacket 9000 ""
run_kind tap 1500 ""
run_kind tap 9000 ""
run_kind afxdp 1500 "mode skb"
run_kind afxdp 9000 "mode skb"
# driver mode: veth runs the XSK program in its NAPI (copy mode: veth has no zero-copy); the
# 9000-byte path needs netbpf's program to take frames in pieces (xdp.frags), or veth refuses it
run_kind afxdp 1500 "mode drv"
run_kind afxdp 9000 "mode drv"
echo "offload: TCP, UDP and VLAN with default offloads through afpacket, tap and afxdp (skb, drv)"
