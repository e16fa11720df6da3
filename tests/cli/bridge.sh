#!/bin/bash
# Bridges as a user drives them: `netbpf run` floods a generator's frames through a bridge to
# two sinks, then, with a static entry, forwards them to one; `netbpf -batch` shows the ports
# (link show, bridge link show) and the database (bridge fdb show, text and -j), adds and
# deletes entries, releases a port; then the errors of the words.
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || { echo "SKIPPED: python3 is missing (scripts/install-deps.sh)"; exit 77; }
nb_tmp

cat > "$tmp/br.tc" <<'END'
link add g type gen count 100 size 64
link add s1 type sink
link add s2 type sink
link add br0 address 02:00:00:00:00:0c type bridge
link set dev g master br0
link set dev s1 master br0
link set dev s2 master br0
link set dev s2 master br0
END
# the generator's destination (02:00:00:00:00:02) is unknown: both sinks get every frame
out=$($NETBPF -j run "$tmp/br.tc") || fail "run exited $?: $out"
echo "$out" | json '
s = {x["name"]: x for x in d["devices"]}
assert s["s1"]["tx_packets"] == 100 and s["s2"]["tx_packets"] == 100, s
assert s["br0"]["clones"] == 100, s["br0"]
' || fail "flood: $out"
# a static entry sends them to s2 only
echo "bridge fdb add 02:00:00:00:00:02 dev s2 master static" >> "$tmp/br.tc"
out=$($NETBPF -j run "$tmp/br.tc") || fail "run exited $?: $out"
echo "$out" | json '
s = {x["name"]: x for x in d["devices"]}
assert s["s1"]["tx_packets"] == 0 and s["s2"]["tx_packets"] == 100, s
assert s["br0"]["clones"] == 0, s["br0"]
' || fail "forward: $out"

cat "$tmp/br.tc" - > "$tmp/show.tc" <<'END'
link show dev s1
bridge link show
bridge fdb show
bridge fdb del 02:00:00:00:00:02 dev s2 master
bridge fdb add 02:00:00:00:00:07 dev br0 self
link set dev s2 nomaster
bridge -j fdb show br br0
END
out=$($NETBPF -batch "$tmp/show.tc") || fail "batch exited $?: $out"
# ip's line: a port names its bridge between the qdisc and the state
want='2: s1: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1500 qdisc noqueue master br0 state UP'
echo "$out" | grep -q "^$want mode DEFAULT group default qlen 1000$" || fail "link show: $out"
echo "$out" | grep -q "^2: s1: .* master br0 state forwarding priority 32 cost 100 $" ||
	fail "bridge link show: $out"
echo "$out" | grep -qx "02:00:00:00:00:02 dev s2 master br0 static" || fail "fdb static: $out"
echo "$out" | grep -qx "02:00:00:00:00:0c dev br0 master br0 permanent" || fail "fdb own: $out"
echo "$out" | tail -1 | json '
e = {x["mac"]: x for x in d}
assert e["02:00:00:00:00:07"] == {"mac": "02:00:00:00:00:07", "ifname": "br0", "flags": [],
                                  "master": "br0", "state": "permanent"}, e
assert "02:00:00:00:00:02" not in e, e
assert all(x["ifname"] != "s2" for x in d), d
assert len(d) == 4, d
' || fail "fdb json: $out"

expect_err() {
	local msg=$1 out
	shift
	out=$("$NETBPF" "$@" 2>&1 >/dev/null) && fail "$* succeeded"
	echo "$out" | grep -qF -- "$msg" || fail "$*: expected \"$msg\" in: $out"
}
printf 'link add s type sink\nlink add t type sink\nlink set dev s master t\n' > "$tmp/e1.tc"
expect_err 'argument "t" is wrong: is not a bridge' -batch "$tmp/e1.tc"
expect_err 'argument "stp_state" is wrong' link add br0 type bridge stp_state 1
expect_err 'ageing_time is a number' link add br0 type bridge ageing_time soon
printf 'link add br0 type bridge\nlink add s type sink\nbridge fdb add 02:00:00:00:00:01 dev s master\n' > "$tmp/e2.tc"
expect_err 's: not a bridge port' -batch "$tmp/e2.tc"
printf 'link add br0 type bridge\nip link set dev br0 xdp obj xdp_drop_proto.o\n' > "$tmp/e3.tc"
expect_err 'netbpf does not run XDP on a bridge device' -batch "$tmp/e3.tc"
expect_err 'argument "bogus" is wrong' bridge bogus
echo "bridge: flooding, forwarding, the words and their errors as expected"
