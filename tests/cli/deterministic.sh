#!/bin/bash
# --deterministic SEED: the virtual clock (a step per received packet) and seeded random
# streams make two runs of the same script, or of the same program on the same pcap, write the
# same bytes: run's JSON summary with its maps and a sink's pcap file, prog run's output and
# pcapng (diff's netbpf side: deterministic_diff.sh); without it they differ. Also the daemon's,
# and the errors.
. "$(dirname "$0")/lib.sh"
OBJ=$BUILD/tests/bpf/det_stamp.o
PCAP=$PWD/tests/data/packets.pcap
[ -e "$OBJ" ] || { echo "SKIPPED: det_stamp.o is not built"; exit 77; }
[ -e "$PCAP" ] || { echo "SKIPPED: tests/data/packets.pcap is missing"; exit 77; }
dpid=
cleanup() {
	[ -n "$dpid" ] && kill -9 "$dpid" 2>/dev/null
}
nb_tmp
export NETBPF_RUNDIR=$tmp/run

# run: a generator through the stamping filter into a sink that writes a pcap file
script() {
	cat > "$tmp/$1.tc" <<EOF2
link add g type gen count 500 flows 50
link add s type sink pcap $tmp/$1.pcap
tc qdisc add dev g clsact
tc filter add dev g ingress bpf da obj $OBJ sec tc
EOF2
}
for i in 1 2 3; do script r$i; done
$NETBPF -j run "$tmp/r1.tc" --deterministic 42 --maps > "$tmp/r1.json" || fail "run 1"
$NETBPF -j run "$tmp/r2.tc" --deterministic 42 --maps > "$tmp/r2.json" || fail "run 2"
$NETBPF -j run "$tmp/r3.tc" --maps > "$tmp/r3.json" || fail "run 3"
cmp -s "$tmp/r1.pcap" "$tmp/r2.pcap" || fail "the two runs' pcap files differ"
grep -q '"tx_packets":500' "$tmp/r1.json" || fail "run: $(cat "$tmp/r1.json")"
# the JSON names its pcap file: the same apart from that name
sed "s/r1/rX/g" "$tmp/r1.json" > "$tmp/a" && sed "s/r2/rX/g" "$tmp/r2.json" > "$tmp/b"
cmp -s "$tmp/a" "$tmp/b" || fail "the two runs' JSON differs: $(diff "$tmp/a" "$tmp/b" | cut -c1-300)"
cmp -s "$tmp/r1.pcap" "$tmp/r3.pcap" && fail "a run without --deterministic wrote the same bytes"
# the clock moved a step (1 us) per packet: the 500th frame carries 500 us
python3 - "$tmp/r1.pcap" <<'PY' || fail "the virtual clock in the frames"
import struct, sys
data = open(sys.argv[1], "rb").read()
off, stamps = 24, []
while off < len(data):
    caplen = struct.unpack_from("<I", data, off + 8)[0]
    stamps.append(struct.unpack_from("<Q", data, off + 16)[0])
    off += 16 + caplen
assert len(stamps) == 500 and stamps == [1000 * (i + 1) for i in range(500)], stamps[:5]
PY

# prog run: the same program on the same pcap, twice (packets.pcap's first 20 frames, whole
# ones: its runts after them are for the tests of refused frames)
python3 - "$PCAP" "$tmp/in.pcap" <<'PY' || fail "cannot cut $PCAP"
import struct, sys
data = open(sys.argv[1], "rb").read()
off, out = 24, [data[:24]]
for _ in range(20):
    caplen = struct.unpack_from("<I", data, off + 8)[0]
    out.append(data[off:off + 16 + caplen])
    off += 16 + caplen
open(sys.argv[2], "wb").write(b"".join(out))
PY
PCAP=$tmp/in.pcap
for i in 1 2; do
	$NETBPF -j prog run "$OBJ" --pcap-in "$PCAP" --pcap-out "$tmp/p$i.pcapng" --maps \
		--deterministic 7 > "$tmp/p$i.json" || fail "prog run $i"
done
cmp -s "$tmp/p1.json" "$tmp/p2.json" || fail "prog run JSON differs"
cmp -s "$tmp/p1.pcapng" "$tmp/p2.pcapng" || fail "prog run pcapng differs"
$NETBPF -j prog run "$OBJ" --pcap-in "$PCAP" --maps --deterministic 8 > "$tmp/p3.json" ||
	fail "prog run seed 8"
cmp -s "$tmp/p1.json" "$tmp/p3.json" && fail "another seed gave the same run"

# a daemon: the same script, the same traffic, the same maps
for i in 1 2; do
	$NETBPF daemon --name det$i --deterministic 42 "$tmp/r$i.tc" > /dev/null 2>&1 &
	dpid=$!
	for _ in $(seq 200); do
		$NETBPF -D det$i map dump name seen > "$tmp/d$i" 2>/dev/null &&
			grep -q "Found" "$tmp/d$i" && $NETBPF -j -D det$i stats |
			grep -q '"tx_packets":500' && break
		sleep 0.05
	done
	$NETBPF -D det$i map dump name seen > "$tmp/d$i" || fail "daemon $i map dump"
	kill -TERM $dpid && wait $dpid || fail "daemon $i exit"
	dpid=
done
cmp -s "$tmp/d1" "$tmp/d2" || fail "the daemons' maps differ: $(diff "$tmp/d1" "$tmp/d2")"

# errors
out=$($NETBPF run "$tmp/r1.tc" --deterministic 1 --workers 2 2>&1); [ $? -eq 2 ] ||
	fail "2 workers: $out"
echo "$out" | grep -q "it excludes --workers N above 1" || fail "2 workers: $out"
out=$($NETBPF run "$tmp/r1.tc" --deterministic 1 --duration 1 2>&1); [ $? -eq 2 ] ||
	fail "duration: $out"
echo "$out" | grep -q "it excludes --duration" || fail "duration: $out"
out=$($NETBPF daemon --name det3 --deterministic 1 --workers 2 2>&1); [ $? -eq 2 ] ||
	fail "daemon, 2 workers: $out"
echo "$out" | grep -q "it excludes --workers N above 1" || fail "daemon, 2 workers: $out"
out=$($NETBPF prog run "$OBJ" --pcap-in "$PCAP" --deterministic x 2>&1); [ $? -eq 2 ] ||
	fail "bad seed: $out"
echo "$out" | grep -q 'argument "x" is wrong: --deterministic takes a seed' || fail "seed: $out"
echo "deterministic: runs, prog runs and daemons replay byte for byte"
