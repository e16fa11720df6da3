#!/bin/bash
# netbpf link, tc and ip words: every command form through -batch scripts and the command line,
# text and JSON output (parsed back with python3), the seed's lines verbatim, and the errors
# with the word at fault and their exit statuses (1 error, 2 usage).
. "$(dirname "$0")/lib.sh"
[ -e "$EX/tcbpf1.o" ] || { echo "SKIPPED: $EX/tcbpf1.o is not built"; exit 77; }
command -v python3 >/dev/null || { echo "SKIPPED: python3 is missing (scripts/install-deps.sh)"; exit 77; }
nb_tmp

# error: expect status $1 and a line containing $2 from the command after them

# The seed's lines verbatim: the object under its seed name, found next to the script.
ln -s "$EX/tcbpf1.o" "$tmp/tcbpf1_kern.o"
cat > "$tmp/seed.tc" <<'SEED'
link add eth0 type gen count 10
link add eth1 type sink
tc qdisc add dev $dev ingress
tc filter add dev $dev root pref 10 u32 match u32 0 0 flowid 1:2 action bpf run object-file tcbpf1_kern.o section clone_redirect_xmit drop
tc filter add dev $dev root pref 11 bpf run object-file tcbpf1_kern.o section redirect_xmit integ_act classid 1
tc filter show dev $dev ingress
SEED
out=$(cd / && $NETBPF -batch "$tmp/seed.tc" 2>&1) && fail "\$dev unset accepted: $out"
echo "$out" | grep -q 'variable "dev" is not set' || fail "unset variable: $out"
echo "$out" | grep -q "seed.tc:3:" || fail "no script line in the error: $out"
out=$(cd / && dev=eth0 $NETBPF -batch "$tmp/seed.tc") || fail "seed lines: $out"
echo "$out" | grep -qx "filter protocol all pref 10 u32 chain 0 " || fail "u32 head: $out"
echo "$out" | grep -qx "filter protocol all pref 10 u32 chain 0 fh 800: ht divisor 1 " ||
	fail "u32 table line: $out"
echo "$out" | grep -qx "filter protocol all pref 10 u32 chain 0 fh 800::800 order 2048 key ht 800 bkt 0 \*flowid 1:2 not_in_hw " ||
	fail "u32 line: $out"
echo "$out" | grep -Eqx "	action order 1: bpf tcbpf1_kern.o:\[clone_redirect_xmit\] id [0-9]+ name _clone_redirect tag [0-9a-f]{16} (jited )?default-action drop" ||
	fail "act bpf: $out"
echo "$out" | grep -Eqx "	 index 1 ref 1 bind 1" || fail "act bpf index: $out"
echo "$out" | grep -Eqx "filter protocol all pref 11 bpf chain 0 handle 0x1 flowid :1 tcbpf1_kern.o:\[redirect_xmit\] direct-action not_in_hw id [0-9]+ name _redirect_xmit tag 47082dbc0b657935 (jited )?" ||
	fail "bpf line: $out"

# The same through --set, and JSON parsed back.
out=$(cd / && dev=eth0 $NETBPF -j -batch "$tmp/seed.tc" 2>&1) || fail "json: $out"
echo "$out" | json '
d = d[-1]	# -batch: one array, a document per show line
f = [x for x in d if "options" in x]
assert len(f) == 3 and f[0]["options"] == {"fh": "800:", "ht_divisor": 1}, d
u, b = f[1:]
assert u["kind"] == "u32" and u["pref"] == 10 and u["options"]["flowid"] == "1:2", u
assert u["options"]["actions"][0]["kind"] == "bpf", u
assert u["options"]["actions"][0]["control_action"]["type"] == "drop", u
assert b["kind"] == "bpf" and b["options"]["direct-action"] is True, b
assert b["options"]["bpf_name"] == "tcbpf1_kern.o:[redirect_xmit]", b
assert b["options"]["prog"]["id"] > 0, b
# the tag the running kernel gives redirect_xmit (tests/kernel/test_prog_tag_kernel.c)
assert b["options"]["prog"]["tag"] == "47082dbc0b657935", b
' 2>&1 || fail "filter json: $out"
# the --set form; a script's NAME=VALUE line is overridden by --set
sed -i '1i dev=nosuch' "$tmp/seed.tc"
$NETBPF run "$tmp/seed.tc" --set dev=eth0 >/dev/null || fail "--set dev=eth0"

# Every link form, text and JSON.
cat > "$tmp/link.tc" <<EOF2
link add g0 type gen count 5 size 128 rate 1000000 flows 4 proto tcp vlan 7 src-mac 02:00:00:00:00:aa dst-mac 02:00:00:00:00:bb
link add g6 type gen count 3 ipv6 proto icmp
link add s0 type sink pcap $tmp/s0.pcap
link add a type pipe peer b
link add c index 40 mtu 3000 address 02:11:22:33:44:55 type pcap write $tmp/c.pcap
link set dev g0 mtu 2000 down
link set s0 address 02:aa:bb:cc:dd:ee
link del g6
link show
EOF2
out=$($NETBPF -batch "$tmp/link.tc") || fail "link forms: $out"
echo "$out" | grep -qx "1: g0: <BROADCAST,MULTICAST> mtu 2000 qdisc noqueue state DOWN mode DEFAULT \
group default qlen 1000" || fail "g0: $out"
echo "$out" | grep -A1 "link/ether 02:aa:bb:cc:dd:ee brd ff:ff:ff:ff:ff:ff" | grep -qx "    port sink.*" ||
	fail "s0 address: $out"
echo "$out" | grep -q "^40: c: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 3000 qdisc noqueue state UP" ||
	fail "c: $out"
echo "$out" | grep -q "g6" && fail "g6 not deleted: $out"
echo "$out" | grep -q "^4: a@b: " && echo "$out" | grep -q "^5: b@a: " || fail "pipe pair: $out"
out=$($NETBPF -j -s -batch "$tmp/link.tc") || fail "link json: $out"
echo "$out" | json '
d = d[-1]
n = {x["ifname"]: x for x in d}
assert set(n) == {"g0", "s0", "a", "b", "c"}, n
assert n["c"]["ifindex"] == 40 and n["c"]["mtu"] == 3000, n["c"]
assert n["g0"]["operstate"] == "DOWN" and n["s0"]["address"] == "02:aa:bb:cc:dd:ee", n
assert n["s0"]["stats64"]["rx"]["packets"] == 0, n["s0"]
assert n["g0"]["flags"] == ["BROADCAST", "MULTICAST"], n["g0"]
assert n["s0"]["port"]["kind"] == "sink" and n["s0"]["datapath"]["clones"] == 0, n["s0"]
' || fail "link json: $out"

# fw, a classifier in one file: marks to classes, show as f_fw.c prints it.
cat > "$tmp/fw.tc" <<EOF2
link add g0 type pipe peer g1
tc qdisc add dev g0 clsact
tc filter add dev g0 ingress pref 1 handle 5 fw classid 1:5
tc filter add dev g0 ingress pref 1 handle 0x10005 fw flowid 1:7 action mirred egress redirect dev g1
tc filter show dev g0 ingress
EOF2
out=$($NETBPF -batch "$tmp/fw.tc") || fail "fw: $out"
echo "$out" | grep -qx "filter protocol all pref 1 fw chain 0 handle 0x5 classid 1:5 " ||
	fail "fw line: $out"
echo "$out" | grep -qx "filter protocol all pref 1 fw chain 0 handle 0x10005 classid 1:7 " ||
	fail "fw line with actions: $out"
out=$($NETBPF -j -batch "$tmp/fw.tc") || fail "fw -j: $out"
echo "$out" | json '
f = [x for x in d[0] if "options" in x]
assert f[1]["options"] == {"handle": {"mark": "5", "mask": "ffffffff"}, "classid": "1:5"}, f
assert f[0]["options"]["actions"][0]["to_dev"] == "g1", f
' || fail "fw json: $out"
printf '%s\n' "link add g0 type gen" "tc qdisc add dev g0 clsact" \
	"tc filter add dev g0 ingress handle 5 fw indev g0" > "$tmp/err.tc"
expect_err 1 'Error: argument "indev" is wrong: fw indev is not built' $NETBPF -batch "$tmp/err.tc"
expect_err 1 'classifier not built (bpf, fw, matchall or u32 are)' $NETBPF tc filter add dev x ingress flower

# tc forms: clsact, both hooks, parent words, protocol, chain, handle, replace, change, del.
cat > "$tmp/tc.tc" <<EOF2
link add g0 type gen count 1
link add s0 type sink
tc qdisc add dev g0 clsact
tc filter add dev g0 ingress protocol ip pref 1 chain 0 handle 5 matchall classid 1:1 action pass
tc filter add dev g0 parent ffff:fff3 pref 2 u32 match ip src 10.0.0.0/8 match ip protocol 17 0xff match udp dst 9 0xffff match ip6 dst ::1/128 action mirred egress redirect dev s0
tc filter add dev g0 egress pref 3 u32 match u8 0x45 0xff at 0 match u16 0 0 at nexthdr+2 match tcp src 80 0xffff match ip icmp_type 8 0xff action gact goto chain 2
tc filter add dev g0 egress pref 4 bpf obj tcbpf1.o sec redirect_xmit flowid 1:3 action drop
tc filter replace dev g0 egress pref 4 handle 1 bpf da obj tcbpf1.o sec redirect_xmit
tc filter change dev g0 egress pref 4 handle 1 bpf da obj tcbpf1.o sec redirect_recv classid 2:0
tc filter del dev g0 egress pref 3
tc qdisc show dev g0
tc filter show dev g0 egress
tc actions show action mirred
EOF2
out=$(cd "$EX" && $NETBPF -s -batch "$tmp/tc.tc") || fail "tc forms: $out"
echo "$out" | grep -qx "qdisc clsact ffff: parent ffff:fff1 " || fail "qdisc show: $out"
echo "$out" | grep -q "pref 3" && fail "pref 3 not deleted: $out"
echo "$out" | grep -Eq "^filter protocol all pref 4 bpf chain 0 handle 0x1 flowid 2: tcbpf1.o:\[redirect_recv\] direct-action" ||
	fail "change: $out"
echo "$out" | grep -qx "	action order 0: mirred (Egress Redirect to device s0) stolen" || fail "actions: $out"
echo "$out" | grep -q "Sent 0 bytes 0 pkt (dropped 0, overlimits 0 requeues 0)" || fail "-s: $out"
out=$(cd "$EX" && $NETBPF -j -batch "$tmp/tc.tc") || fail "tc json: $out"
echo "$out" | json '
d = d[1]
f = [x for x in d if "options" in x and "ht_divisor" not in x["options"]]
assert [x["pref"] for x in f] == [2, 4], f
# a hook named in the command: tc prints no parent
assert f[0]["options"]["fh"] == "800::800" and "parent" not in f[0], f[0]
' || fail "tc json: $out"

# ip link set ... xdp: attach, refuse to replace without -force, replace with it, off.
cat > "$tmp/xdp.tc" <<EOF2
link add g0 type gen count 1
ip link set dev g0 xdp obj $EX/xdp_drop_proto.o
ip -force link set dev g0 xdpgeneric obj $EX/xdp_drop_proto.o sec xdp
ip link set dev g0 xdp off
ip link set dev g0 xdpdrv obj $EX/xdp_drop_proto.o
EOF2
$NETBPF -batch "$tmp/xdp.tc" || fail "xdp forms"
printf 'link add g0 type gen\nip link set dev g0 xdp obj %s\nip link set dev g0 xdp obj %s\n' \
	"$EX/xdp_drop_proto.o" "$EX/xdp_drop_proto.o" > "$tmp/xdp2.tc"
expect_err 1 "already attached" $NETBPF -batch "$tmp/xdp2.tc"
$NETBPF -force -batch "$tmp/xdp2.tc" || fail "-force replace"
# a verifier rejection prints the verifier log; program NAME picks one of a section
VC=$BUILD/tests/bpf/verifier_c.o
if [ -e "$VC" ]; then
	printf 'link add g0 type gen\nip link set dev g0 xdp obj %s sec xdp program bad_xdp_off_by_one\n' \
		"$VC" > "$tmp/bad.tc"
	expect_err 1 "invalid access to packet, off=14 size=1" $NETBPF -batch "$tmp/bad.tc"
	expect_err 1 'loading "bad_xdp_off_by_one" failed' $NETBPF -batch "$tmp/bad.tc"
	sed -i 's/program bad_xdp_off_by_one/program nope/' "$tmp/bad.tc"
	expect_err 1 'argument "nope" is wrong: no program of that name' $NETBPF -batch "$tmp/bad.tc"
fi

# max-entries NAME=N: the objects whose tool sizes a map before load (max_entries 0 in the file)
# load from scripts with the size given, and say what is missing without it.
TB=$BUILD/tests/bpf
cat > "$tmp/sized.tc" <<SIZED
link add g0 type gen count 10
link add s0 type sink
tc qdisc add dev g0 clsact
tc filter add dev g0 ingress bpf da obj $TB/elf_btf_parity.o sec tc max-entries sized_by_tool=4 action bpf obj $TB/elf_btf_parity.o sec tc max-entries sized_by_tool=2
ip link set dev s0 xdp obj $TB/elf_btf_parity.o sec xdp max-entries sized_by_tool=8
SIZED
out=$($NETBPF -batch "$tmp/sized.tc" 2>&1) || fail "max-entries words: $out"
sed -i 's/ max-entries sized_by_tool=8//' "$tmp/sized.tc"
expect_err 1 "map sized_by_tool: max_entries 0: the object leaves the size to its loader" \
	$NETBPF -batch "$tmp/sized.tc"
expect_err 1 "sized.tc:5:" $NETBPF -batch "$tmp/sized.tc"
sed -i 's/sized_by_tool=4/sized_by_tool=0/' "$tmp/sized.tc"
expect_err 1 'argument "sized_by_tool=0" is wrong: N must be a number of entries' \
	$NETBPF -batch "$tmp/sized.tc"

# Errors in iproute2's manner, on the command line (an empty datapath per process).
expect_err 1 'Error: argument "foo" is wrong: unknown classifier' $NETBPF tc filter add dev x ingress foo
expect_err 1 'Error: Cannot find device "x"' $NETBPF tc filter add dev x ingress bpf obj a.o
expect_err 1 'Error: argument "bogus" is wrong: unknown port type' $NETBPF link add g type bogus
expect_err 1 'Error: type afpacket: dev "nosuchif0": no such interface' $NETBPF link add g type afpacket dev nosuchif0
expect_err 2 'Error: link add g needs "type KIND"' $NETBPF link add g
expect_err 2 'Error: "count" needs an argument' $NETBPF link add g type gen count
expect_err 1 'Error: argument "zz" is wrong: illegal "match" value' $NETBPF tc filter add dev x ingress u32 match u32 zz 0
expect_err 1 'Error: argument "frob" is wrong: unknown action' $NETBPF tc filter add dev x ingress matchall action frob
expect_err 1 'Error: argument "offset" is wrong: u32 offset' $NETBPF tc filter add dev x ingress u32 match u32 0 0 offset at 0
expect_err 1 'Error: argument "3" is wrong: illegal "divisor"' $NETBPF tc filter add dev x ingress u32 divisor 3
expect_err 1 'Error: argument "1:2:3" is wrong: "link" must be a hash table' $NETBPF tc filter add dev x ingress u32 link 1:2:3
expect_err 1 'Error: argument "bogus" is wrong: unknown qdisc' $NETBPF tc qdisc add dev x bogus
expect_err 1 'Error: argument "frob" is wrong: unknown actions command' $NETBPF tc actions frob
expect_err 1 'Error: argument "nosuch" is wrong: unknown tc object' $NETBPF tc nosuch
expect_err 1 'Error: argument "1:2:3:4" is wrong: illegal "handle"' $NETBPF tc filter add dev x handle 1:2:3:4 u32
expect_err 2 'Error: tc filter needs "dev DEV"' $NETBPF tc filter add ingress matchall
printf 'link add g type gen\ntc qdisc add dev g clsact\ntc filter add dev g ingress bpf obj nosuch.o\n' > "$tmp/e.tc"
expect_err 1 "e.tc:3:" $NETBPF -batch "$tmp/e.tc"
expect_err 1 "nosuch.o" $NETBPF -batch "$tmp/e.tc"
printf 'link add g type gen\ntc filter add dev g ingress matchall action drop\n' > "$tmp/e2.tc"
expect_err 1 "e2.tc:2:" $NETBPF -batch "$tmp/e2.tc"
echo "link, tc and ip words: forms, text and JSON, seed lines and errors as expected"
