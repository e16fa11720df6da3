#!/bin/bash
# bpf_timer through prog run and run: tests/bpf/timer.o arms four timers at the first of 10
# packets and its callbacks write their values; with --deterministic the clock moves 1 us per
# packet, so --maps shows exactly which fired and when: once, cancelled (1, then 0 once
# inactive), re-armed from its callback until the third time, and a callback cancelling its own
# timer (-EDEADLK). The timers due at a packet's
# time fire before it runs: a 5 us timer armed by packet 1 (at 1 us) sees 5 packets. netbpf run
# on a generator gives the same table: its worker fires them the same way. On the real clock,
# with the generator never stopping, the worker fires them between its rounds.
# tests/unit/test_timer.c runs the same object on the real clock.
. "$(dirname "$0")/lib.sh"
OBJ=$BUILD/tests/bpf/timer.o
[ -e "$OBJ" ] || { echo "SKIPPED: timer.o is not built"; exit 77; }
nb_tmp
export NETBPF_RUNDIR=$tmp/run

# 10 Ethernet frames of 60 bytes
python3 - "$tmp/in.pcap" <<'PY' || fail "cannot write the pcap"
import struct, sys
out = struct.pack("<IHHiIII", 0xa1b2c3d4, 2, 4, 0, 0, 65535, 1)
frame = bytes.fromhex("020000000001020000000002") + b"\x08\x00" + bytes(46)
for i in range(10):
    out += struct.pack("<IIII", i, 0, len(frame), len(frame)) + frame
open(sys.argv[1], "wb").write(out)
PY

# key: fired, at_packet, ret, ret2 from the JSON of --maps
values() {
	python3 -c '
import json, struct, sys
doc = json.load(sys.stdin)
m = [m for m in doc["maps"] if m["name"] == "timers"][0]
for e in m["elements"]:
    key = struct.unpack("<I", bytes(int(b, 16) for b in e["key"]))[0]
    val = bytes(int(b, 16) for b in e["value"])
    assert val[:16] == bytes(16), "the bpf_timer bytes show: %s" % val[:16].hex()
    print(key, *struct.unpack("<QQqq", val[16:48]))
'
}

want="0 1 5 0 0
1 0 0 1 0
2 3 6 0 0
3 1 1 -35 0"
check() {
	got=$(echo "$2" | values) || fail "$1 --maps: $2"
	[ "$got" = "$want" ] || fail "$1: got
$got
want
$want"
}
out=$($NETBPF -j prog run "$OBJ" --pcap-in "$tmp/in.pcap" --deterministic 1 --maps) ||
	fail "prog run: $out"
check "prog run" "$out"

# the same packets from a generator through tc on a datapath worker, which fires its timers
# between packets in the deterministic mode (the map is pinned: a user besides the object)
cat > "$tmp/t.tc" <<EOF2
link add g type gen count 10
tc qdisc add dev g clsact
tc filter add dev g ingress bpf da obj $OBJ sec tc
EOF2
out=$($NETBPF -j run "$tmp/t.tc" --deterministic 1 --maps) || fail "run: $out"
check "run" "$out"

# the real clock: which packet a timer meets depends on the speed, how often each fires does
# not (key 1's cancel, within the first burst, is left out)
sed -i 's/count 10/count 0/' "$tmp/t.tc"
out=$($NETBPF -j run "$tmp/t.tc" --duration 0.3 --maps) || fail "run --duration: $out"
got=$(echo "$out" | values | awk '$1 != 1 { print $1, $2, $4 }') || fail "run --duration --maps: $out"
[ "$got" = "0 1 0
2 3 0
3 1 -35" ] || fail "run --duration: got
$got"
echo "ok"
