#!/bin/bash
# Limits under netbpf run: a packet pool capped with --pool-packets runs dry while a sink holds
# every packet, and each frame read after that is a nomem drop (no hang, no frame unaccounted
# for); --pool-packets and --workers out of range are usage errors that say so.
# tests/unit/test_limits.c checks the library's limits.
. "$(dirname "$0")/lib.sh"
PCAP=$PWD/tests/data/hostile.pcap
command -v python3 >/dev/null || { echo "SKIPPED: python3 is missing (scripts/install-deps.sh)"; exit 77; }
nb_tmp

cat >"$tmp/hold.tc" <<EOF2
link add in type pcap rx $PCAP loop 20
link add out type sink keep 1000000
tc qdisc add dev in clsact
tc filter add dev in ingress matchall action mirred egress redirect dev out
EOF2
out=$(timeout 120 $NETBPF -j run "$tmp/hold.tc" --pool-packets 256) || fail "run exited $?: $out"
echo "$out" | python3 -c "
import json, struct, sys
d = open('$PCAP', 'rb').read()
p, frames = 24, 0
while p < len(d):
    frames += 1
    p += 16 + struct.unpack('<I', d[p + 8:p + 12])[0]
frames *= 20
dev = {x['name']: x for x in json.load(sys.stdin)['devices']}
i, o = dev['in'], dev['out']
assert i['rx_packets'] <= 256 + 64 and o['tx_packets'] == i['rx_packets'], (i, o)
assert i['drops'].get('nomem', 0) > 0, i
assert i['rx_packets'] + i['drops']['nomem'] == frames, (frames, i)
" || fail "pool: $out"

out=$($NETBPF run "$tmp/hold.tc" --pool-packets 0 2>&1)
[ $? -eq 2 ] || fail "--pool-packets 0: exit status"
echo "$out" | grep -q 'argument "0" is wrong: --pool-packets takes a count' || fail "0: $out"
for w in 0 100000; do
	out=$($NETBPF run "$tmp/hold.tc" --workers $w 2>&1)
	[ $? -eq 2 ] || fail "--workers $w: exit status"
	echo "$out" | grep -q "argument \"$w\" is wrong: --workers takes 1 to" || fail "$w: $out"
done
echo "limits: a pool of 256 packets ran dry, every frame after it a nomem drop;" \
	"out-of-range --pool-packets and --workers refused"
