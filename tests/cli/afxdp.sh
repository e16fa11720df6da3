#!/bin/bash
# The afxdp link type from the command line, in a network namespace of its own with a veth pair:
# link show in text and JSON (backend, interface, queues, mode), the one-line errors, and
# `netbpf run` forwarding frames a sender puts on veth0 back out of veth1 through an XDP program
# (xdp_swap_mac_tx.o, XDP_TX) on the afxdp device.
. "$(dirname "$0")/lib.sh"

nb_in_own_netns "network namespace, veth, AF_XDP" "$@"
[ -e "$EX/xdp_swap_mac_tx.o" ] || skip "xdp_swap_mac_tx.o is not built"

nb_tmp
echo 1 > /proc/sys/net/ipv6/conf/default/disable_ipv6 2>/dev/null
ip link add veth0 type veth peer name veth1 && ip link set veth0 up && ip link set veth1 up ||
	{ echo "SKIPPED: cannot make a veth pair"; exit 77; }

# link show: the backend, the interface, queues and mode; -j has them as "port"
printf 'link add x0 type afxdp dev veth1 mode skb copy\nlink show x0\n' > "$tmp/show.tc"
out=$($NETBPF -batch "$tmp/show.tc" 2>&1) || fail "show exited $?: $out"
echo "$out" | grep -q "port afxdp dev veth1 queues 1 mode skb copy, 0 received, 0 sent" ||
	fail "link show: $out"
echo "$out" | grep -q "tx errors, 0 lent, 0 sent by descriptor$" || fail "link show lent: $out"
out=$($NETBPF -j -batch "$tmp/show.tc" 2>&1) || fail "show -j exited $?: $out"
echo "$out" | json '
d = d[0]
assert d[0]["ifname"] == "x0", d
assert d[0]["port"]["description"] == "afxdp dev veth1 queues 1 mode skb copy", d
assert d[0]["port"]["stats"]["received"] == 0, d
assert d[0]["port"]["stats"]["lent"] == 0 and d[0]["port"]["stats"]["by_descriptor"] == 0, d
assert d[0]["port"]["queues"][0]["lent"] == 0, d
' || fail "link show -j: $out"
ip link show veth1 | grep -q "prog/xdp" && fail "the XDP program stayed on veth1 after exit"

# errors: one line naming what is wrong, exit status 1
expect_err() {
	local msg=$1 out rc
	shift
	out=$("$@" 2>&1 >/dev/null)
	rc=$?
	[ $rc -eq 1 ] || fail "$* exited $rc, expected 1: $out"
	[ "$(echo "$out" | wc -l)" -eq 1 ] || fail "$*: more than one line: $out"
	echo "$out" | grep -qF -- "$msg" || fail "$*: expected \"$msg\" in: $out"
}
expect_err 'afxdp: no interface "nosuch0"' $NETBPF link add x0 type afxdp dev nosuch0
expect_err "queues 4 is wrong: veth1 has 1 queue" $NETBPF link add x0 type afxdp dev veth1 queues 4
expect_err 'mode "hw" is wrong' $NETBPF link add x0 type afxdp dev veth1 mode hw
expect_err "no zero-copy; try copy" $NETBPF link add x0 type afxdp dev veth1 zerocopy

# netbpf run forwards: 100 frames into veth0 come back with their MACs swapped
cat > "$tmp/fwd.tc" <<EOF2
link add x0 type afxdp dev veth1 mode skb
ip link set dev x0 xdp obj $EX/xdp_swap_mac_tx.o
EOF2
$NETBPF -j run "$tmp/fwd.tc" --duration 60 > "$tmp/run.json" 2> "$tmp/run.err" &
pid=$!
python3 - <<'PY' || { kill $pid; fail "frames did not come back: $(cat "$tmp/run.err")"; }
import socket, subprocess, time, sys
deadline = time.time() + 30
while b"prog/xdp" not in subprocess.run(["ip", "link", "show", "veth1"],
                                        capture_output=True).stdout:
    if time.time() > deadline:
        sys.exit("netbpf did not attach to veth1")
    time.sleep(0.05)
rx = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(0x88b5))
rx.bind(("veth0", 0x88b5))
rx.settimeout(20)
tx = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, 0)
tx.bind(("veth0", 0))
a, b = bytes.fromhex("020000000001"), bytes.fromhex("020000000002")
frames = [b + a + b"\x88\xb5" + i.to_bytes(4, "little") + bytes(46 + i) for i in range(100)]
for f in frames:
    tx.send(f)
got = 0
while got < 100:
    data, addr = rx.recvfrom(2048)
    if addr[2] == socket.PACKET_OUTGOING:
        continue
    i = int.from_bytes(data[14:18], "little")
    assert data == a + b + frames[i][12:], (i, data[:20])
    got += 1
PY
kill -INT $pid
wait $pid || fail "run exited $?: $(cat "$tmp/run.err")"
json '
x = d["devices"][0]
assert x["name"] == "x0" and x["rx_packets"] == 100 and x["tx_packets"] == 100, x
# no frame was copied: each became a packet in its UMEM frame and went back by descriptor
p = d["ports"][0]
assert p["device"] == "x0" and p["lent"] == 100 and p["by_descriptor"] == 100, p
' < "$tmp/run.json" || fail "run json: $(cat "$tmp/run.json")"

# two queues, two workers: each worker polls the port, 200 UDP flows spread over the queues by
# veth's native XDP come back (veth2 -> veth3 -> netbpf -> veth3 -> veth2)
ip link add veth2 numtxqueues 2 numrxqueues 2 type veth peer name veth3 numtxqueues 2 \
	numrxqueues 2 && ip link set veth2 up && ip link set veth3 up || fail "veth with 2 queues"
cat > "$tmp/fwd2.tc" <<EOF2
link add x1 type afxdp dev veth3 queues 2 mode drv copy
ip link set dev x1 xdp obj $EX/xdp_swap_mac_tx.o
EOF2
$NETBPF -j run "$tmp/fwd2.tc" --duration 60 --workers 2 > "$tmp/run2.json" 2> "$tmp/run2.err" &
pid=$!
python3 - <<'PY' || { kill $pid; fail "2 queues: frames lost: $(cat "$tmp/run2.err")"; }
import socket, struct, subprocess, time, sys
deadline = time.time() + 30
while b"prog/xdp" not in subprocess.run(["ip", "link", "show", "veth3"],
                                        capture_output=True).stdout:
    if time.time() > deadline:
        sys.exit("netbpf did not attach to veth3")
    time.sleep(0.05)
rx = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(0x0800))
rx.bind(("veth2", 0x0800))
rx.settimeout(20)
tx = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, 0)
tx.bind(("veth2", 0))
a, b = bytes.fromhex("020000000001"), bytes.fromhex("020000000002")
def frame(i):
    payload = b"nbxt" + i.to_bytes(4, "little") + bytes(30)
    udp = struct.pack("!HHHH", 1024 + i, 9, 8 + len(payload), 0) + payload
    ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(udp), 0, 0, 64, 17, 0,
                     bytes([10, 0, 0, 1]), bytes([10, 0, 0, 2]))
    return b + a + b"\x08\x00" + ip + udp
frames = [frame(i) for i in range(200)]
for f in frames:
    tx.send(f)
seen = set()
while len(seen) < 200:
    data, addr = rx.recvfrom(2048)
    if addr[2] == socket.PACKET_OUTGOING or data[42:46] != b"nbxt":
        continue
    i = int.from_bytes(data[46:50], "little")
    assert i not in seen and data == a + b + frames[i][12:], i
    seen.add(i)
PY
kill -INT $pid
wait $pid || fail "run with 2 workers exited $?: $(cat "$tmp/run2.err")"
json '
x = d["devices"][0]
assert x["name"] == "x1" and x["rx_packets"] == 200 and x["tx_packets"] == 200, x
' < "$tmp/run2.json" || fail "run 2 workers json: $(cat "$tmp/run2.json")"
echo "afxdp: errors, link show, forwarding with one and two queues as expected"
