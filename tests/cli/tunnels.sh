#!/bin/bash
# Tunnels as a user drives them: `netbpf run` sends a generator's frames through a VXLAN
# collect-metadata device whose egress program (examples/tc_vxlan.o, sec tc/encap) gives each
# one its tunnel key; the frames that leave the underlay device are read from its pcap and
# checked field by field, the inner frame byte for byte. A second run plays the far side: it
# reads that pcap (and one frame with a VNI the sender never used), decapsulates, and the
# ingress program (sec tc/decap) checks the key before a capture gets the inner frames, which
# must be the generator's. Then link show for every kind, and the errors.
. "$(dirname "$0")/lib.sh"
[ -e "$EX/tc_vxlan.o" ] || { echo "SKIPPED: $EX/tc_vxlan.o is not built"; exit 77; }
command -v python3 >/dev/null || { echo "SKIPPED: python3 is missing (scripts/install-deps.sh)"; exit 77; }
nb_tmp


# The near side: 10.20.0.* goes to the VTEP 10.2.1.100 on VNI 100, 10.20.1.* to .101 on 101.
cat > "$tmp/near.tc" <<EOF
link add in0 type gen count 300 dst_min 10.20.0.1 dst_max 10.20.1.44 src 10.1.0.9 tos 2
link add orig0 type sink pcap $tmp/orig.pcap
link add ve2 address 02:00:00:00:00:0a type sink pcap $tmp/wire.pcap
link add vx0 type vxlan external
ip addr add 10.2.1.1/24 dev ve2
ip neigh add 10.2.1.100 lladdr 02:00:00:00:00:0b dev ve2
ip neigh add 10.2.1.101 lladdr 02:00:00:00:00:0b dev ve2
tc qdisc add dev in0 clsact
tc filter add dev in0 ingress matchall action mirred egress mirror dev orig0 \\
	pipe action mirred egress redirect dev vx0
tc qdisc add dev vx0 clsact
tc filter add dev vx0 egress bpf da obj tc_vxlan.o sec tc/encap
EOF
out=$(cd "$EX" && $NETBPF -j run "$tmp/near.tc" 2>&1) || fail "near run: $out"
echo "$out" | json '
devs = {x["name"]: x for x in d["devices"]}
assert devs["vx0"]["tx_packets"] == 300 and devs["vx0"]["dropped"] == 0, devs["vx0"]
assert devs["ve2"]["tx_packets"] == 300, devs["ve2"]
assert devs["orig0"]["tx_packets"] == 300, devs["orig0"]
' || fail "near summary: $out"

cat > "$tmp/frames.py" <<'PY'
import struct
def frames(path):
    data = open(path, "rb").read()
    off, out = 24, []
    while off < len(data):
        _, _, incl, _ = struct.unpack_from("<IIII", data, off)
        out.append(data[off + 16: off + 16 + incl])
        off += 16 + incl
    return out
def csum(b):
    s = sum(struct.unpack("!%dH" % (len(b) // 2), b))
    while s >> 16:
        s = (s & 0xffff) + (s >> 16)
    return s
PY
python3 - "$tmp" <<'PY' || fail "wire frames"
import struct, sys
sys.path.insert(0, sys.argv[1])
from frames import frames, csum
tmp = sys.argv[1]
wire, orig = frames(tmp + "/wire.pcap"), frames(tmp + "/orig.pcap")
assert len(wire) == len(orig) == 300
for w, o in zip(wire, orig):
    x = o[14 + 18]                      # the inner destination's third byte: 0 or 1
    assert w[0:12].hex() == "02000000000b" "02000000000a", w[0:12].hex()
    assert w[12:14] == b"\x08\x00"
    ip = w[14:34]
    assert ip[0] == 0x45 and csum(ip) == 0xffff, ip.hex()
    assert ip[1] == 2, "outer TOS: the inner ECT(0)"
    assert struct.unpack("!H", ip[2:4])[0] == len(w) - 14
    assert ip[6] & 0x40 == 0, "no DF: the key did not ask"
    assert ip[8] == 64 and ip[9] == 17
    assert ip[12:16] == bytes([10, 2, 1, 1]) and ip[16:20] == bytes([10, 2, 1, 100 + x])
    sport, dport, ulen, ucsum = struct.unpack("!HHHH", w[34:42])
    assert 32768 <= sport < 61000 and dport == 4789 and ulen == len(w) - 34
    assert ucsum == 0, "BPF_F_ZERO_CSUM_TX"
    assert w[42:46] == b"\x08\x00\x00\x00", w[42:46].hex()
    assert int.from_bytes(w[46:49], "big") == 100 + x and w[49] == 0
    assert w[50:] == o, "the inner frame"
# the far side's input: the wire, and the first frame again with its VNI changed
bad = bytearray(wire[0]); bad[48] ^= 1
with open(tmp + "/wire_in.pcap", "wb") as f:
    f.write(open(tmp + "/wire.pcap", "rb").read()[:24])
    for w in wire + [bytes(bad)]:
        f.write(struct.pack("<IIII", 0, 0, len(w), len(w)) + w)
PY

cat > "$tmp/far.tc" <<EOF
link add ve2 address 02:00:00:00:00:0b type pcap rx $tmp/wire_in.pcap
link add vx0 type vxlan external
link add cap0 type sink pcap $tmp/inner.pcap
ip addr add 10.2.1.100/24 dev ve2
ip addr add 10.2.1.101/24 dev ve2
tc qdisc add dev vx0 clsact
tc filter add dev vx0 ingress pref 1 bpf da obj tc_vxlan.o sec tc/decap
tc filter add dev vx0 ingress pref 2 matchall action mirred egress redirect dev cap0
EOF
out=$(cd "$EX" && $NETBPF -j run "$tmp/far.tc" 2>&1) || fail "far run: $out"
echo "$out" | json '
devs = {x["name"]: x for x in d["devices"]}
assert devs["ve2"]["rx_packets"] == 301, devs["ve2"]
assert devs["vx0"]["rx_packets"] == 301, devs["vx0"]
assert devs["vx0"]["drops"] == {"tc_ingress": 1}, devs["vx0"]
assert devs["cap0"]["tx_packets"] == 300, devs["cap0"]
' || fail "far summary: $out"
python3 - "$tmp" <<'PY' || fail "decapsulated frames"
import sys
sys.path.insert(0, sys.argv[1])
from frames import frames
got, want = frames(sys.argv[1] + "/inner.pcap"), frames(sys.argv[1] + "/orig.pcap")
assert sorted(got) == sorted(want), "the generator's frames, byte for byte"
PY

# Every kind, as link show prints it.
cat > "$tmp/show.tc" <<'EOF'
link add vx0 type vxlan external dstport 8472 gbp
link add gn0 type geneve external
link add ip0 type ipip external
link add t6 type ip6tnl external mode ip6ip6
link add gre0 type gre external
link add g6 type ip6gre external
link add tap0 type gretap external
link add tap6 type ip6gretap external
link show
EOF
out=$($NETBPF -batch "$tmp/show.tc" | grep -v '^[0-9]') || fail "show: $out"
cat > "$tmp/want" <<'EOF'
    link/ether 02:6e:62:00:00:01 brd ff:ff:ff:ff:ff:ff
    port tunnel vxlan external dstport 8472 gbp
    link/ether 02:6e:62:00:00:02 brd ff:ff:ff:ff:ff:ff
    port tunnel geneve external dstport 6081
    link/ipip 0.0.0.0 brd 0.0.0.0
    port tunnel ipip external
    link/tunnel6 :: brd ::
    port tunnel ip6tnl mode ip6ip6 external
    link/gre 0.0.0.0 brd 0.0.0.0
    port tunnel gre external
    link/gre6 :: brd ::
    port tunnel ip6gre external
    link/ether 02:6e:62:00:00:07 brd ff:ff:ff:ff:ff:ff
    port tunnel gretap external
    link/ether 02:6e:62:00:00:08 brd ff:ff:ff:ff:ff:ff
    port tunnel ip6gretap external
EOF
diff <(echo "$out") "$tmp/want" || fail "link show"
out=$($NETBPF -batch "$tmp/show.tc" | grep -E '^[0-9]' | awk '{print $2, $5}' | tr '\n' ' ')
[ "$out" = "vx0: 1500 gn0: 1500 ip0: 1480 t6: 1452 gre0: 1476 g6: 1448 tap0: 1462 tap6: 1434 " ] ||
	fail "the kernel's MTUs: $out"
out=$($NETBPF -j -batch "$tmp/show.tc") || fail "json"
echo "$out" | json '
d = d[0]
t = {x["ifname"]: x for x in d}
assert t["ip0"]["link_type"] == "ipip" and t["ip0"]["address"] == "0.0.0.0", t["ip0"]
assert t["t6"]["link_type"] == "tunnel6" and t["t6"]["broadcast"] == "::", t["t6"]
assert t["vx0"]["link_type"] == "ether", t["vx0"]
' || fail "link show json: $out"

# Errors: the word at fault, status 1; what is missing, status 2.
expect_err 2 'collect-metadata tunnels only: add "external"' $NETBPF link add t type vxlan
expect_err 1 'argument "id" is wrong: netbpf'"'"'s vxlan devices take external, dstport and gbp' \
	$NETBPF link add t type vxlan id 5 external
expect_err 1 'argument "mode" is wrong: netbpf'"'"'s ipip devices take external' \
	$NETBPF link add t type ipip external mode ip6ip6
expect_err 1 'argument "99999" is wrong: dstport is a port number' \
	$NETBPF link add t type vxlan external dstport 99999
expect_err 1 'argument "gbp" is wrong: netbpf'"'"'s geneve devices take external and dstport' \
	$NETBPF link add t type geneve external gbp
expect_err 1 'argument "sit" is wrong' $NETBPF link add t type sit external
echo "tunnels: 300 frames encapsulated and decapsulated through vxlan, 8 kinds shown"
