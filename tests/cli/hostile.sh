#!/bin/bash
# Hostile traffic through the command line: tests/data/hostile.pcap (tests/data/make_hostile.py:
# runts, jumbo frames, malformed and truncated headers of every layer) into `netbpf prog run`
# with every tc and XDP program of the examples, and into `netbpf run` through a pcap port whose
# device runs XDP and tc programs. No crash; prog run reports every packet, as a result or as
# the test run's refusal (and then exits 1); run accounts for every frame of the file.
# tests/unit/test_hostile.c does the same in-process with the programs of ../shared/corpus.
. "$(dirname "$0")/lib.sh"
PCAP=$PWD/tests/data/hostile.pcap
[ -e "$BUILD/examples/tcbpf1.o" ] || { echo "SKIPPED: the examples are not built"; exit 77; }
command -v python3 >/dev/null || { echo "SKIPPED: python3 is missing (scripts/install-deps.sh)"; exit 77; }
nb_tmp

# the file's frames: all, and those longer than a packet holds (NB_PKT_MAX_FRAME, 3520 bytes
# and 17 fragment pages), which ports skip
read -r frames big < <(python3 - "$PCAP" <<'EOF'
import struct, sys
d = open(sys.argv[1], "rb").read()
p, n, big = 24, 0, 0
while p < len(d):
    caplen = struct.unpack("<I", d[p + 8:p + 12])[0]
    n += 1
    big += caplen > 3520 + 17 * 4096
    p += 16 + caplen
print(n, big)
EOF
)
[ "$frames" -gt 50 ] || fail "hostile.pcap has $frames frames"

progs=0
for spec in "tcbpf1.o classifier" "tcbpf1.o redirect_xmit" "tcbpf1.o clone_redirect_xmit" \
	"tc_classifier.o" "tc_tail_call.o" "xdp_drop_proto.o" "xdp_ipip_encap.o" \
	"xdp_meta_mark.o xdp" "xdp_meta_mark.o tc" "xdp_redirect_ifindex.o" "xdp_swap_mac_tx.o" \
	"xdp_redirect_map.o" "xdp_broadcast.o"; do
	set -- $spec
	obj=$BUILD/examples/$1
	args=()
	[ $# -gt 1 ] && args=(sec "$2")
	$NETBPF prog run "$obj" "${args[@]}" --pcap-in "$PCAP" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ $rc -le 1 ] || fail "prog run $spec: exit status $rc: $(tail -3 "$tmp/err")"
	results=$(grep -c '^packet [0-9]*: retval' "$tmp/out")
	refused=$(grep -c 'the test run fails' "$tmp/err")
	[ $((results + refused)) -eq "$frames" ] ||
		fail "prog run $spec: $results results and $refused refusals for $frames frames"
	[ $refused -eq 0 ] || [ $rc -eq 1 ] || fail "prog run $spec: refusals but exit status 0"
	progs=$((progs + 1))
done

# netbpf run: the file through a pcap port, XDP then two tc classifiers on its device
cat >"$tmp/hostile.tc" <<EOF
link add in type pcap rx $PCAP
link add out type sink
ip link set dev in xdpgeneric obj $BUILD/examples/xdp_ipip_encap.o
tc qdisc add dev in clsact
tc filter add dev in ingress bpf da obj $BUILD/examples/tcbpf1.o sec classifier
tc filter add dev in ingress bpf da obj $BUILD/examples/tc_classifier.o
EOF
out=$($NETBPF -j run "$tmp/hostile.tc" --duration 2) || fail "run exited $?: $out"
echo "$out" | python3 -c "
import json, sys
d = json.load(sys.stdin)
dev = {x['name']: x for x in d['devices']}['in']
frames, big = $frames, $big
assert dev['rx_packets'] == frames - big, ('received', dev['rx_packets'], frames, big)
ended = dev['tx_packets'] + dev['host_packets'] + dev['consumed'] + dev['dropped']
assert ended == frames + dev['clones'], ('accounted', ended, dev)
assert dev['drops'].get('too_big', 0) >= big, dev
" || fail "run: not every frame accounted for: $out"
echo "hostile: $frames frames ($big beyond a packet) through $progs programs in prog run and" \
	"through XDP and tc in run, every one accounted for"
