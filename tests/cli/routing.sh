#!/bin/bash
# Routing as a user drives it: a script gives netbpf's devices addresses, routes, neighbours
# and forwarding switches in iproute2's words, `netbpf run` forwards a generator's traffic
# through examples/tc_router.o (bpf_fib_lookup + bpf_redirect_neigh), and the frames that
# leave are read back from the sinks' pcap files: MACs from the neighbour table, TTL one less.
# Then the show words (text and JSON), ip route get, and the errors with their exit statuses.
. "$(dirname "$0")/lib.sh"
[ -e "$EX/tc_router.o" ] || { echo "SKIPPED: $EX/tc_router.o is not built"; exit 77; }
command -v python3 >/dev/null || { echo "SKIPPED: python3 is missing (scripts/install-deps.sh)"; exit 77; }
nb_tmp


cat > "$tmp/router.tc" <<EOF
link add in0 type gen count 300 dst_min 10.20.0.1 dst_max 10.20.0.100 src 10.1.0.9 ttl 9
link add out1 type sink pcap $tmp/out1.pcap
link add out2 type sink pcap $tmp/out2.pcap
sysctl -q -w net.ipv4.conf.in0.forwarding=1
ip addr add 10.1.0.1/24 dev in0
ip addr add 10.2.0.1/24 dev out1
ip addr add 10.3.0.1/24 dev out2
ip neigh add 10.2.0.2 lladdr 02:00:00:00:02:02 dev out1
ip route add 10.20.0.0/24 via 10.2.0.2
ip route add 10.20.0.64/26 via 10.3.0.2
ip neigh add 10.3.0.2 lladdr 02:00:00:00:03:02 dev out2 nud stale
tc qdisc add dev in0 clsact
tc filter add dev in0 ingress bpf da obj tc_router.o sec tc
EOF
out=$($NETBPF -j run "$tmp/router.tc" 2>&1) || fail "run: $out"
# 100 destinations in turn, 3 rounds: .1-.63 to out1, .64-.100 to out2
echo "$out" | json '
devs = {x["name"]: x for x in d["devices"]}
assert devs["out1"]["tx_packets"] == 189, devs["out1"]
assert devs["out2"]["tx_packets"] == 111, devs["out2"]
assert devs["in0"]["tc_redirect"] == 300 and devs["in0"]["dropped"] == 0, devs["in0"]
' || fail "run summary: $out"
python3 - "$tmp" <<'PY' || fail "frames"
import struct, sys
def frames(path):
    data = open(path, "rb").read()
    off, out = 24, []
    while off < len(data):
        _, _, incl, _ = struct.unpack_from("<IIII", data, off)
        out.append(data[off + 16: off + 16 + incl])
        off += 16 + incl
    return out
for name, mac, lo, hi in (("out1", "020000000202", 1, 63), ("out2", "020000000302", 64, 100)):
    fs = frames(sys.argv[1] + "/" + name + ".pcap")
    for f in fs:
        assert f[0:6].hex() == mac, (name, f[0:6].hex())
        assert f[12:14] == b"\x08\x00"
        ip = f[14:34]
        assert ip[8] == 8, ("ttl", ip[8])
        s = sum(struct.unpack("!10H", ip))
        while s >> 16:
            s = (s & 0xffff) + (s >> 16)
        assert s == 0xffff, "ip checksum"
        assert lo <= ip[19] <= hi, ip[16:20]
PY

# The show words, in a script with the lines they show.
cat > "$tmp/show.tc" <<'EOF'
link add a index 2 type sink
ip addr add 192.0.2.1/24 dev a
ip -6 addr add 2001:db8::1/64 dev a
ip route add 198.51.100.0/24 via 192.0.2.254 metric 7
ip route add prohibit 203.0.113.0/24
ip -6 route add 2001:db8:1::/48 via 2001:db8::fe
ip neigh add 192.0.2.254 lladdr 02:00:00:00:00:fe dev a
ip rule add fwmark 0x5 lookup 9 prio 100
ip route show
ip -6 route show
ip neigh show
ip rule show
ip route get 198.51.100.7
EOF
out=$($NETBPF -batch "$tmp/show.tc") || fail "show: $out"
cat > "$tmp/want" <<'EOF'
192.0.2.0/24 dev a proto kernel scope link src 192.0.2.1 
198.51.100.0/24 via 192.0.2.254 dev a metric 7 
prohibit 203.0.113.0/24 
2001:db8::/64 dev a proto kernel metric 256 pref medium
2001:db8:1::/48 via 2001:db8::fe dev a metric 1024 pref medium
192.0.2.254 dev a lladdr 02:00:00:00:00:fe PERMANENT 
0:	from all lookup local
100:	from all fwmark 0x5 lookup 9
32766:	from all lookup main
32767:	from all lookup default
198.51.100.7 via 192.0.2.254 dev a src 192.0.2.1 
EOF
diff <(echo "$out") "$tmp/want" || fail "show output"
out=$($NETBPF -j -batch "$tmp/show.tc") || fail "json"
echo "$out" | json '
d = d[0]
assert d[1] == {"dst": "198.51.100.0/24", "gateway": "192.0.2.254", "dev": "a", "metric": 7,
                "flags": []}, d
' || fail "route json: $out"

# Errors: the word at fault, status 1; a missing word, status 2.
printf 'link add a type sink\nip route add 10.0.0.0/8 via 10.9.9.9\n' > "$tmp/bad.tc"
expect_err 1 "Nexthop has invalid gateway" $NETBPF -batch "$tmp/bad.tc"
expect_err 1 "bad.tc:2:" $NETBPF -batch "$tmp/bad.tc"
expect_err 1 'argument "10.0.0.1/99" is wrong' $NETBPF ip route add 10.0.0.1/99 dev a
expect_err 2 "needs a destination prefix" $NETBPF ip route add via 10.0.0.1
expect_err 1 "not supported by netbpf" $NETBPF ip route add 10.0.0.0/8 nexthop via 10.0.0.1
expect_err 1 'Cannot find device "nope"' $NETBPF ip neigh add 10.0.0.1 lladdr 02:00:00:00:00:01 dev nope
expect_err 1 "No such file or directory" $NETBPF sysctl net.ipv4.conf.nope.forwarding
out=$($NETBPF sysctl net.ipv4.ip_forward) || fail "sysctl: $out"
[ "$out" = "net.ipv4.ip_forward = 0" ] || fail "sysctl: $out"
echo "routing: run through tc_router, show words, errors: ok"
