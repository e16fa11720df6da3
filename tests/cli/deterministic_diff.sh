#!/bin/bash
# --deterministic SEED on diff: the kernel's side has its own clock and random numbers, netbpf's
# side replays byte for byte, and its first frame carries the clock's first step as prog run's.
. "$(dirname "$0")/lib.sh"
OBJ=$BUILD/tests/bpf/det_stamp.o
PCAP=$PWD/tests/data/packets.pcap
[ -e "$OBJ" ] || { echo "SKIPPED: det_stamp.o is not built"; exit 77; }
[ -e "$PCAP" ] || { echo "SKIPPED: tests/data/packets.pcap is missing"; exit 77; }
nb_tmp

for i in 1 2; do
	$NETBPF diff "$OBJ" --pcap-in "$PCAP" --deterministic 7 > "$tmp/k$i" 2>&1
	rc=$?
	skip_unless_bpf_permitted $rc "$(cat "$tmp/k$i")"
	[ $rc -eq 1 ] || fail "diff $i: exit $rc: $(cat "$tmp/k$i")"
	# a '*' marks a byte the kernel's side does not share: the kernel's clock decides those
	# marks, so netbpf's bytes are compared without them
	grep -E '^    netbpf|netbpf only' "$tmp/k$i" | tr '*' ' ' > "$tmp/n$i"
	[ -s "$tmp/n$i" ] || fail "diff $i shows no netbpf side: $(cat "$tmp/k$i")"
done
cmp -s "$tmp/n1" "$tmp/n2" ||
	fail "diff: netbpf's side differs: $(diff "$tmp/n1" "$tmp/n2" | head)"
# ... and it is prog run's: the first frame carries the first step of the clock, 1000 ns
grep -q '^    netbpf 0000: e8 03 00 00' "$tmp/n1" ||
	fail "diff: the first frame's time: $(head -3 "$tmp/n1")"

echo "deterministic diff: netbpf's side replays byte for byte"
