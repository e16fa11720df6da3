#!/bin/bash
# netbpf run: the built-in default (every packet of the seed's three set-ups delivered), the same
# in JSON, examples/seed-tc.tc, the end conditions (count, --packets, --duration), several
# workers, and the errors of scripts and options.
. "$(dirname "$0")/lib.sh"
SRC=$PWD
[ -e "$BUILD/examples/tcbpf1.o" ] || { echo "SKIPPED: tcbpf1.o is not built"; exit 77; }
command -v python3 >/dev/null || { echo "SKIPPED: python3 is missing (scripts/install-deps.sh)"; exit 77; }
nb_tmp

# The default, from another directory: the objects are found next to the binary.
out=$(cd / && $NETBPF run --packets 3000) || fail "default run exited $?: $out"
echo "$out" | grep -q "every packet delivered to its sink: yes" || fail "default: $out"
echo "$out" | grep -Eq "^u32 \+ act bpf clone_redirect_xmit drop +1000 +1000 +1000 +1000 " ||
	fail "clone row: $out"
echo "$out" | grep -Eq "^bpf da redirect_xmit classid 1 +1000 +1000 +1000 +0$" || fail "da row: $out"
echo "$out" | grep -Eq "^sink2 +4 +0 +0 +1000 +64000 " || fail "sink2 row: $out"
out=$(cd / && $NETBPF -j run --packets 3000) || fail "default -j exited $?: $out"
echo "$out" | json '
assert d["all_delivered"] is True, d
for s in d["seed"]:
    assert s["generated"] == s["redirected"] == s["delivered"] == 1000, s
dev = {x["name"]: x for x in d["devices"]}
assert dev["gen1"]["drops"] == {"tc_ingress": 1000}, dev["gen1"]
assert dev["sink1"]["tx_packets"] == 1000 and dev["sink1"]["ifindex"] == 2, dev["sink1"]
f = dev["gen1"]["filters"][0]
assert f["kind"] == "u32" and f["packets"] == 1000 and f["actions"][0]["drops"] == 1000, f
# cls_bpf keeps no counters of its own, as the kernel's: the device's tc_redirect counts
assert dev["gen3"]["filters"][0]["kind"] == "bpf" and "packets" not in dev["gen3"]["filters"][0]
assert dev["gen3"]["tc_redirect"] == 1000, dev["gen3"]
' || fail "default json: $out"

# examples/seed-tc.tc from the repository root, with its COUNT overridden.
out=$($NETBPF -j run "$SRC/examples/seed-tc.tc" --set COUNT=500 --workers 2) ||
	fail "seed-tc.tc exited $?: $out"
echo "$out" | json '
dev = {x["name"]: x for x in d["devices"]}
for i in (1, 2, 3):
    assert dev["gen%d" % i]["rx_packets"] == 500, dev
    assert dev["sink%d" % i]["tx_packets"] == 500, dev
' || fail "seed-tc.tc: $out"
# workers left to the scheduler (the default, --no-pin), or pinned to a CPU each with --pin
echo "$out" | json '
assert [w["cpu"] for w in d["workers"]] == [-1, -1], d["workers"]
' || fail "unpinned workers: $out"
out=$($NETBPF -j run "$SRC/examples/seed-tc.tc" --set COUNT=500 --workers 2 --pin) ||
	fail "--pin exited $?: $out"
echo "$out" | json '
dev = {x["name"]: x for x in d["devices"]}
assert all(dev["sink%d" % i]["tx_packets"] == 500 for i in (1, 2, 3)), dev
assert [w["cpu"] for w in d["workers"]] == sorted(set(w["cpu"] for w in d["workers"])), d
assert len(d["workers"]) == 2 and all(w["cpu"] >= 0 for w in d["workers"]), d["workers"]
' || fail "--pin: $out"
out=$($NETBPF -j run "$SRC/examples/seed-tc.tc" --set COUNT=500 --workers 2 --pin --no-pin) ||
	fail "--pin --no-pin exited $?: $out"
echo "$out" | json 'assert [w["cpu"] for w in d["workers"]] == [-1, -1], d["workers"]' ||
	fail "--no-pin after --pin: $out"

# A generator of two queues, its 64 flows dealt by RSS: each of two workers polls one, and
# together they make exactly the count (the queues share it: which makes how many depends on
# the scheduler), every frame delivered to the sink by XDP.
cat > "$tmp/queues.tc" <<EOF2
link add g type gen count 20000 flows 64 queues 2
link add s type sink
ip link set dev g xdp obj xdp_redirect_map.o
map update name tx_port key 1 0 0 0 value 2 0 0 0 0 0 0 0
EOF2
out=$($NETBPF -j run "$tmp/queues.tc" --workers 2) || fail "gen queues: $out"
echo "$out" | json '
dev = {x["name"]: x for x in d["devices"]}
assert dev["g"]["rx_packets"] == 20000 and dev["s"]["tx_packets"] == 20000, dev
w = d["workers"]
assert len(w) == 2 and all(x["queues"] == 1 and x["cpu_ns"] > 0 for x in w), w
assert sum(x["packets"] for x in w) == 20000, w
' || fail "gen queues: $out"
out=$($NETBPF -batch /dev/stdin 2>&1 <<<"link add g type gen queues 65"); [ $? -ne 0 ] ||
	fail "queues 65 accepted: $out"
echo "$out" | grep -q "queues 65" || fail "queues 65: $out"

# --packets ends an endless generator after exactly N; --duration after S seconds.
printf 'link add g type gen count 0\nlink add s type sink\n' > "$tmp/endless.tc"
out=$($NETBPF -j run "$tmp/endless.tc" --packets 1000) || fail "--packets: $out"
echo "$out" | json '
g = d["devices"][0]
assert g["rx_packets"] == 1000 and g["host_packets"] == g["rx_packets"], g
' || fail "--packets: $out"
# How many frames a loaded machine lets the generator make in 0.2 s is not asserted: only that
# the run lasts that long and loses none of those it made.
out=$($NETBPF -j run "$tmp/endless.tc" --duration 0.2) || fail "--duration: $out"
echo "$out" | json '
g = d["devices"][0]
assert d["duration_ms"] >= 200 and g["host_packets"] == g["rx_packets"], d
' || fail "--duration: $out"

# a pipe pair carries what the generator's redirect sends: every packet accounted for
cat > "$tmp/pipe.tc" <<EOF2
link add g type gen count 700 rate 100000000
link add a type pipe peer b
link add s type sink
tc qdisc add dev g clsact
tc filter add dev g ingress matchall action mirred egress redirect dev a
tc qdisc add dev b clsact
tc filter add dev b ingress matchall action mirred egress redirect dev s
EOF2
out=$($NETBPF -j run "$tmp/pipe.tc") || fail "pipe: $out"
echo "$out" | json '
dev = {x["name"]: x for x in d["devices"]}
assert dev["a"]["tx_packets"] == 700 and dev["b"]["rx_packets"] == 700, dev
assert dev["s"]["tx_packets"] == 700, dev
' || fail "pipe: $out"

# iproute2's tail calls: "bpf da obj tc_tail_call.o sec classifier" loads the "1/6" and "1/17"
# sections with the classifier, into the program array pinned in tc/globals that both filters
# share: TCP out of the next device (ifindex + 1), UDP dropped
cat > "$tmp/tail.tc" <<EOF2
link add t type gen count 300 proto tcp
link add s type sink
link add u type gen count 200 proto udp
tc qdisc add dev t clsact
tc filter add dev t ingress bpf da obj tc_tail_call.o sec classifier
tc qdisc add dev u clsact
tc filter add dev u ingress bpf da obj tc_tail_call.o sec classifier
EOF2
out=$($NETBPF -j run "$tmp/tail.tc") || fail "tail calls: $out"
echo "$out" | json '
dev = {x["name"]: x for x in d["devices"]}
assert dev["t"]["tc_redirect"] == 300 and dev["s"]["tx_packets"] == 300, dev
assert dev["u"]["drops"] == {"tc_ingress": 200}, dev["u"]
' || fail "tail calls: $out"

# a script fills the devmap of the XDP program it attached (map words in scripts); --maps
cat > "$tmp/devmap.tc" <<EOF2
link add g type gen count 1000
link add s type sink
ip link set dev g xdp obj xdp_redirect_map.o
map update name tx_port key 1 0 0 0 value 2 0 0 0 0 0 0 0
map lookup pinned tc/globals/nothing key 1 0 0 0
EOF2
out=$($NETBPF run "$tmp/devmap.tc" 2>&1); [ $? -eq 1 ] || fail "unpinned map: $out"
echo "$out" | grep -q "no map is pinned at tc/globals/nothing" || fail "unpinned: $out"
sed -i '$d' "$tmp/devmap.tc"
out=$($NETBPF -j run "$tmp/devmap.tc" --maps) || fail "devmap: $out"
echo "$out" | json '
dev = {x["name"]: x for x in d["devices"]}
assert dev["g"]["xdp_redirect"] == 1000 and dev["s"]["tx_packets"] == 1000, dev
m = d["maps"][0]
assert m["name"] == "tx_port" and m["type"] == "devmap", m
present = [e for e in m["elements"] if isinstance(e["value"], list)]
assert present == [{"key": ["0x01", "0x00", "0x00", "0x00"],
                    "value": ["0x02"] + ["0x00"] * 7}], m
# the empty slots as bpftool -j dumps a devmap: each with the lookup error
assert len(m["elements"]) == 64 and all(e["value"] == {"error": "No such file or directory"}
                                        for e in m["elements"] if e not in present), m
assert d["commands"] == [None], d["commands"]
' || fail "devmap: $out"
out=$($NETBPF run "$tmp/devmap.tc" --maps) || fail "devmap text: $out"
# as bpftool map dump prints a devmap: every slot, the empty ones <no entry>, then the count
block=$(echo "$out" | sed -n '/^map [0-9]*: devmap  name tx_port$/,/^Found/p')
echo "$block" | grep -qx 'key: 01 00 00 00  value: 02 00 00 00 00 00 00 00' &&
	echo "$block" | grep -qx 'key: 00 00 00 00  value: <no entry>' &&
	echo "$block" | grep -qx 'Found 1 element' || fail "--maps text: $out"

# errors: the script line, a missing script, bad options
printf 'link add g type gen\n\ntc filter add dev g ingress bogus\n' > "$tmp/bad.tc"
out=$($NETBPF run "$tmp/bad.tc" 2>&1); rc=$?
[ $rc -eq 1 ] || fail "bad script exited $rc"
echo "$out" | grep -q 'Error: argument "bogus" is wrong: unknown classifier' || fail "bad: $out"
echo "$out" | grep -q "bad.tc:3: in \"tc filter add dev g ingress bogus\"" || fail "line: $out"
out=$($NETBPF run "$tmp/none.tc" 2>&1); [ $? -eq 1 ] || fail "missing script"
echo "$out" | grep -q "cannot read script" || fail "missing: $out"
out=$($NETBPF run --duration 1 --packets 5 2>&1); [ $? -eq 2 ] || fail "both limits: $out"
out=$($NETBPF run --workers 0 2>&1); [ $? -eq 2 ] || fail "workers 0: $out"
echo "$out" | grep -q 'argument "0" is wrong' || fail "workers: $out"
echo "run: default, JSON, seed-tc.tc, end conditions, pipes and errors as expected"
