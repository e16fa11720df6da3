#!/bin/bash
# netbpf link add ... type afpacket|tap dev IFNAME [queues N]: the words in a script, link show
# (text and JSON), a netbpf run whose generator leaves through an afpacket port on veth1 and
# arrives on veth0 (counted by the kernel), a tap made and removed, and the errors. Runs in a
# network namespace of its own (unshare -n); skipped without root.
. "$(dirname "$0")/lib.sh"
[ "$(id -u)" = 0 ] || skip "AF_PACKET and TAP ports need root"
command -v python3 >/dev/null || skip "python3 is missing (scripts/install-deps.sh)"
command -v ip >/dev/null || skip "ip (iproute2) is missing"
if [ -z "${NB_PORTS_IN_NETNS:-}" ]; then
	command -v unshare >/dev/null || skip "unshare (util-linux) is missing"
	unshare -n true 2>/dev/null || skip "cannot make a network namespace"
	NB_PORTS_IN_NETNS=1 exec unshare -n "$0" "$@"
fi
nb_tmp

# quiet interfaces: no IPv6 autoconfiguration frames besides ours
echo 1 > /proc/sys/net/ipv6/conf/default/disable_ipv6 2>/dev/null
ip link add veth0 type veth peer name veth1 || skip "the kernel makes no veth pair"
ip link set veth0 up && ip link set veth1 up || fail "veth up"

# link show names the backend and the interface, in text and JSON
printf 'link add p0 type afpacket dev veth1 queues 2\nlink add t0 type tap dev nbtap0\nlink show\n' \
	> "$tmp/show.tc"
out=$($NETBPF -batch "$tmp/show.tc") || fail "show.tc exited $?: $out"
echo "$out" | grep -q "port afpacket dev veth1 queues 2 tx ring" || fail "afpacket show: $out"
echo "$out" | grep -q "port tap dev nbtap0 queues 1" || fail "tap show: $out"
out=$($NETBPF -j -batch "$tmp/show.tc") || fail "show.tc -j exited $?: $out"
echo "$out" | json '
d = d[0]
dev = {x["ifname"]: x for x in d}
assert dev["p0"]["port"]["description"] == "afpacket dev veth1 queues 2 tx ring offload on", dev
assert len(dev["p0"]["port"]["queues"]) == 2 and "ring_drops" in dev["p0"]["port"]["stats"], dev
assert dev["t0"]["port"]["description"].startswith("tap dev nbtap0"), dev
' || fail "show -j: $out"
# the tap was made for the run and left with it
ip link show nbtap0 >/dev/null 2>&1 && fail "nbtap0 left behind"

# a generator's frames leave through the afpacket port on veth1 and arrive on veth0
before=$(ip -j -s link show veth0 | json 'print(d[0]["stats64"]["rx"]["packets"])')
cat > "$tmp/out.tc" <<'EOF'
link add p0 type afpacket dev veth1
link add g type gen count 500 size 128
tc qdisc add dev g clsact
tc filter add dev g ingress matchall action mirred egress redirect dev p0
EOF
out=$($NETBPF -j run "$tmp/out.tc") || fail "run out.tc exited $?: $out"
echo "$out" | json '
dev = {x["name"]: x for x in d["devices"]}
assert dev["g"]["rx_packets"] == 500, dev
assert dev["p0"]["tx_packets"] == 500 and dev["p0"]["tx_bytes"] == 500 * 128, dev
' || fail "run out.tc: $out"
after=$(ip -j -s link show veth0 | json 'print(d[0]["stats64"]["rx"]["packets"])')
[ $((after - before)) -eq 500 ] || fail "veth0 received $((after - before)) frames, not 500"

# two workers, two queues: both transmit on their own socket; the text summary names p0
sed -i 's/^link add p0 type afpacket dev veth1$/link add p0 type afpacket dev veth1 queues 2/' \
	"$tmp/out.tc"
grep -q "queues 2" "$tmp/out.tc" || fail "out.tc not rewritten"
out=$($NETBPF run "$tmp/out.tc" --workers 2) || fail "run --workers 2 exited $?: $out"
echo "$out" | grep -Eq "^ *p0 .* 500 " || fail "p0 not in the summary: $out"
final=$(ip -j -s link show veth0 | json 'print(d[0]["stats64"]["rx"]["packets"])')
[ $((final - after)) -eq 500 ] || fail "2 workers: veth0 received $((final - after)), not 500"

# errors name the port type and the interface
expect_err 1 'Error: type afpacket: dev "nosuch0": no such interface' \
	$NETBPF link add p type afpacket dev nosuch0
expect_err 1 'Error: type afpacket: "queues 0" is wrong' \
	$NETBPF link add p type afpacket dev veth1 queues 0
expect_err 1 'Error: type afpacket: needs "dev IFNAME"' $NETBPF link add p type afpacket
expect_err 1 'Error: type tap: dev veth0: exists and is not a tap' \
	$NETBPF link add t type tap dev veth0
expect_err 1 'Error: type tap: "mode x" is wrong' $NETBPF link add t type tap dev nbtap0 mode x
echo "ports: link show, run through afpacket into veth0, tap made and removed, errors"
