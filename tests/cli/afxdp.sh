#!/bin/bash
# The afxdp link type from the command line, in a network namespace of its own with a veth pair:
# link show in text and JSON (backend, interface, queues, mode), the one-line errors, and
# `netbpf run` forwarding frames a sender puts on veth0 back out of veth1 through an XDP program
# (xdp_swap_mac_tx.o, XDP_TX) on the afxdp device.
set -u
NETBPF=${NETBPF:-build/netbpf}
BUILD=${NB_BUILD:-build}
case $NETBPF in /*) ;; */*) NETBPF=$PWD/$NETBPF ;; esac
case $BUILD in /*) ;; *) BUILD=$PWD/$BUILD ;; esac
EX=$BUILD/examples
fail() { echo "FAIL: $*"; exit 1; }

if [ "${1:-}" != inner ]; then
	[ "$(id -u)" = 0 ] || { echo "SKIPPED: needs root (network namespace, veth, AF_XDP)"; exit 77; }
	[ -e "$EX/xdp_swap_mac_tx.o" ] || { echo "SKIPPED: xdp_swap_mac_tx.o is not built"; exit 77; }
	for c in unshare ip python3; do
		command -v $c >/dev/null || { echo "SKIPPED: $c is missing"; exit 77; }
	done
	unshare -n true 2>/dev/null || { echo "SKIPPED: cannot make a network namespace"; exit 77; }
	NETBPF=$NETBPF NB_BUILD=$BUILD exec unshare -n bash "$0" inner
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
json() { python3 -c "import json,sys; d=json.load(sys.stdin); $1"; }
echo 1 > /proc/sys/net/ipv6/conf/default/disable_ipv6 2>/dev/null
ip link add veth0 type veth peer name veth1 && ip link set veth0 up && ip link set veth1 up ||
	{ echo "SKIPPED: cannot make a veth pair"; exit 77; }

# link show: the backend, the interface, queues and mode; -j has the same line as "port"
printf 'link add x0 type afxdp dev veth1 mode skb copy\nlink show x0\n' > "$tmp/show.tc"
out=$($NETBPF -batch "$tmp/show.tc" 2>&1) || fail "show exited $?: $out"
echo "$out" | grep -q "port afxdp dev veth1 queues 1 mode skb copy, 0 received, 0 sent" ||
	fail "link show: $out"
out=$($NETBPF -j -batch "$tmp/show.tc" 2>&1) || fail "show -j exited $?: $out"
echo "$out" | json '
assert d[0]["ifname"] == "x0", d
assert d[0]["port"].startswith("afxdp dev veth1 queues 1 mode skb copy"), d
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
$NETBPF -j run "$tmp/fwd.tc" --duration 3 > "$tmp/run.json" 2> "$tmp/run.err" &
pid=$!
python3 - <<'PY' || { kill $pid; fail "frames did not come back: $(cat "$tmp/run.err")"; }
import socket, subprocess, time, sys
deadline = time.time() + 2.5
while b"prog/xdp" not in subprocess.run(["ip", "link", "show", "veth1"],
                                        capture_output=True).stdout:
    if time.time() > deadline:
        sys.exit("netbpf did not attach to veth1")
    time.sleep(0.05)
rx = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(0x88b5))
rx.bind(("veth0", 0x88b5))
rx.settimeout(2)
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
wait $pid || fail "run exited $?: $(cat "$tmp/run.err")"
json '
x = d["devices"][0]
assert x["name"] == "x0" and x["rx_packets"] == 100 and x["tx_packets"] == 100, x
' < "$tmp/run.json" || fail "run json: $(cat "$tmp/run.json")"
exit 0
