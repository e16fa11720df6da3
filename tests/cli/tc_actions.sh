#!/bin/bash
# tc actions: add, replace, change, get, del, list, flush, in text and JSON (parsed back); filters
# binding an action by index (ref and bind counts); deletion of a bound action refused; flush
# stopping at a bound action; the errors in iproute2's manner; shared counters of two filters in
# a run; netbpf -j run as one JSON document; the tc_redirect counter. tc_actions_kernel.sh
# compares the mirred forms with the kernel's tc.
. "$(dirname "$0")/lib.sh"
[ -e "$EX/tcbpf1.o" ] || { echo "SKIPPED: $EX/tcbpf1.o is not built"; exit 77; }
command -v python3 >/dev/null || { echo "SKIPPED: python3 is missing (scripts/install-deps.sh)"; exit 77; }
nb_tmp

# Every command form; the list and get output as tc prints it.
cat > "$tmp/forms.tc" <<EOF
link add g0 type gen count 1
link add s0 type sink
tc actions add action gact drop index 7
tc actions add action gact pass
tc actions add action mirred egress redirect dev s0 index 3 action bpf obj tcbpf1.o sec redirect_xmit
tc actions replace action gact pipe index 1
tc actions change action gact reclassify index 2
tc qdisc add dev g0 clsact
tc filter add dev g0 ingress pref 1 matchall action gact index 7
tc filter add dev g0 ingress pref 2 u32 match u32 0 0 action gact index 7 action mirred index 3
tc actions list action gact
tc actions get action gact index 7 action mirred index 3
tc actions ls action bpf
tc actions del action gact index 1 action gact index 2
tc actions flush action bpf
tc actions show action gact
tc actions ls action bpf
EOF
out=$(cd "$EX" && $NETBPF -batch "$tmp/forms.tc") || fail "forms: $out"
cat > "$tmp/want" <<'EOF'
total acts 3

	action order 0: gact action pipe
	 random type none pass val 0
	 index 1 ref 1 bind 0
	not_in_hw
	used_hw_stats disabled

	action order 1: gact action reclassify
	 random type none pass val 0
	 index 2 ref 1 bind 0
	not_in_hw
	used_hw_stats disabled

	action order 2: gact action drop
	 random type none pass val 0
	 index 7 ref 3 bind 2
	not_in_hw
	used_hw_stats disabled
total acts 0

	action order 1: gact action drop
	 random type none pass val 0
	 index 7 ref 3 bind 2
	not_in_hw
	used_hw_stats disabled

	action order 2: mirred (Egress Redirect to device s0) stolen
	index 3 ref 2 bind 1
	not_in_hw
	used_hw_stats disabled
total acts 1

EOF
printf "%s\n" "$out" | head -n "$(wc -l < "$tmp/want")" > "$tmp/got"
diff -u "$tmp/want" "$tmp/got" || fail "list/get text differs"
echo "$out" | grep -Eqx "	action order 0: bpf tcbpf1.o:\[redirect_xmit\] id [0-9]+ name _redirect_xmit tag 47082dbc0b657935 (jited )?default-action pipe" ||
	fail "bpf action: $out"
echo "$out" | grep -qx "	 index 1 ref 1 bind 0" || fail "bpf index (per kind, from 1): $out"
# after del and flush: gact 7 alone, no bpf
[ "$(echo "$out" | grep -c '^total acts 1$')" = 2 ] || fail "after del: $out"
[ "$(echo "$out" | tail -1)" = "total acts 0" ] || fail "after flush: $out"

out=$(cd "$EX" && $NETBPF -j -s -batch "$tmp/forms.tc") || fail "forms -j: $out"
echo "$out" | json '
d = d[0]
assert d[0] == {"total acts": 3}, d
a = d[1]["actions"]
assert [(x["order"], x["index"], x["control_action"]["type"]) for x in a] == \
    [(0, 1, "pipe"), (1, 2, "reclassify"), (2, 7, "drop")], a
assert (a[2]["ref"], a[2]["bind"]) == (3, 2), a[2]
assert a[2]["prob"] == {"random_type": "none", "control_action": {"type": "pass"}, "val": 0}
assert a[2]["stats"]["packets"] == 0 and a[2]["stats"]["requeues"] == 0, a[2]
assert a[2]["not_in_hw"] is True and a[2]["used_hw_stats"] == ["disabled"], a[2]
' || fail "list json: $out"
echo "$out" | json '
d = d[1]
assert d[0] == {"total acts": 0}, d
m = d[1]["actions"][1]
assert m["kind"] == "mirred" and m["mirred_action"] == "redirect", m
assert m["direction"] == "egress" and m["to_dev"] == "s0" and m["index"] == 3, m
assert m["control_action"] == {"type": "stolen"} and (m["ref"], m["bind"]) == (2, 1), m
' || fail "get json: $out"
echo "$out" | json '
d = d[2]
b = d[1]["actions"][0]
assert b["kind"] == "bpf" and b["bpf_name"] == "tcbpf1.o:[redirect_xmit]", b
assert b["prog"]["id"] > 0 and b["prog"]["tag"] == "47082dbc0b657935", b
assert b["prog"]["name"] == "_redirect_xmit" and b["prog"]["jited"] in (0, 1), b
assert b["control_action"] == {"type": "pipe"}, b
' || fail "bpf json: $out"

# The filter's view of the same shared action, text and JSON.
cat > "$tmp/filter.tc" <<EOF
link add g0 type gen count 1
tc actions add action gact drop index 7
tc qdisc add dev g0 clsact
tc filter add dev g0 ingress pref 1 matchall action gact index 7
tc filter add dev g0 ingress pref 2 bpf da obj tcbpf1.o sec redirect_xmit action bpf obj tcbpf1.o sec redirect_xmit index 4 action gact index 7
tc filter show dev g0 ingress
EOF
out=$(cd "$EX" && $NETBPF -batch "$tmp/filter.tc") || fail "filter: $out"
echo "$out" | grep -Eqx "filter protocol all pref 2 bpf chain 0 handle 0x1 tcbpf1.o:\[redirect_xmit\] direct-action not_in_hw id [0-9]+ name _redirect_xmit tag 47082dbc0b657935 (jited )?" ||
	fail "bpf filter line: $out"
echo "$out" | grep -qx "	 index 7 ref 3 bind 2" || fail "bound gact: $out"
echo "$out" | grep -qx "	 index 4 ref 1 bind 1" || fail "filter-made bpf action: $out"
out=$(cd "$EX" && $NETBPF -j -batch "$tmp/filter.tc") || fail "filter -j: $out"
echo "$out" | json '
assert len(d) == 1, d	# -batch: one array, a document per show line
d = d[0]
f = [x for x in d if "options" in x]
b = f[1]["options"]
assert b["handle"] == "0x1" and b["prog"]["tag"] == "47082dbc0b657935", b
act = b["actions"]
assert act[0]["kind"] == "bpf" and act[0]["prog"]["id"] not in (0, b["prog"]["id"]), act
assert act[0]["bpf_name"] == "tcbpf1.o:[redirect_xmit]" and act[0]["index"] == 4, act
assert (act[1]["index"], act[1]["ref"], act[1]["bind"]) == (7, 3, 2), act
' || fail "filter json: $out"

# Errors in iproute2's manner (the kernel's messages where it has them).
err_script() { printf '%s\n' "$@" > "$tmp/err.tc"; }
err_script "link add g0 type gen" "tc actions add action gact drop index 7" \
	"tc qdisc add dev g0 clsact" "tc filter add dev g0 ingress matchall action gact index 7" \
	"tc actions del action gact index 7"
expect_err 1 "Error: Failed to delete TC action." $NETBPF -batch "$tmp/err.tc"
err_script "tc actions add action gact drop index 7" "tc actions add action gact pass index 7"
expect_err 1 "Error: action gact index 7 exists" $NETBPF -batch "$tmp/err.tc"
expect_err 1 "Error: TC action with specified index not found." $NETBPF tc actions get action gact index 9
expect_err 1 "Error: TC action with specified index not found." $NETBPF tc actions del action mirred index 9
expect_err 2 "Error: no index specified action: gact" $NETBPF tc actions del action gact
expect_err 2 "Error: tc actions list action KIND" $NETBPF tc actions ls
expect_err 1 'Error: argument "nat" is wrong: unknown action' $NETBPF tc actions ls action nat
# an unknown kind after a printed action closes the JSON it began (LeakSanitizer's exit otherwise)
err_script "tc actions add action gact drop index 7" \
	"tc -j actions get action gact index 7 action nat index 1"
expect_err 1 'Error: argument "nat" is wrong: unknown action' $NETBPF -batch "$tmp/err.tc"
expect_err 1 'Error: argument "x" is wrong: Illegal "index"' $NETBPF tc actions get action gact index x
expect_err 1 'Error: argument "x" is wrong: Illegal "index"' $NETBPF tc actions add action gact drop index x
expect_err 1 "can't goto NULL chain" $NETBPF tc actions add action gact goto chain 1
err_script "link add g0 type gen" "tc actions add action gact drop index 7" \
	"tc actions add action gact pass index 9" "tc qdisc add dev g0 clsact" \
	"tc filter add dev g0 ingress matchall action gact index 9" "tc actions flush action gact" \
	"tc actions flush action gact"
expect_err 1 "an action is bound to a filter" $NETBPF -batch "$tmp/err.tc"
expect_err 1 "Warning: Unable to flush all TC actions." $NETBPF -batch "$tmp/err.tc"

# Two filters bound to one gact and one bpf action: shared counters in a run; one JSON document
# holding the show lines; tc redirects counted on the sending device.
cat > "$tmp/run.tc" <<EOF
link add g0 type gen count 300
link add g1 type gen count 200
link add s0 type sink
link add s1 type sink
tc actions add action gact drop index 7
tc qdisc add dev g0 clsact
tc qdisc add dev g1 clsact
tc filter add dev g0 ingress pref 1 matchall action gact index 7
tc filter add dev g1 ingress pref 1 u32 match u32 0 0 action gact pipe action gact index 7
tc actions ls action gact
tc filter show dev g1 ingress
EOF
out=$($NETBPF -j run "$tmp/run.tc") || fail "run: $out"
echo "$out" | json '
c = d["commands"]
assert len(c) == 2, c
assert c[0][0] == {"total acts": 2} and c[0][1]["actions"][1]["bind"] == 2, c[0]
assert c[1][1]["options"] == {"fh": "800:", "ht_divisor": 1}, c[1]
assert c[1][2]["options"]["actions"][1]["index"] == 7, c[1]
a = [x for x in d["actions"] if x["kind"] == "gact" and x["index"] == 7][0]
assert a["packets"] == 500 and a["drops"] == 500 and a["bind"] == 2, a
dev = {x["name"]: x for x in d["devices"]}
f0 = dev["g0"]["filters"][0]
assert f0["packets"] == 300 and f0["actions"][0]["packets"] == 500, f0
assert f0["actions"][0]["index"] == 7 and f0["actions"][0]["bind"] == 2, f0
assert dev["g1"]["drops"] == {"tc_ingress": 200}, dev["g1"]
' || fail "shared counters: $out"
out=$($NETBPF -j -p run "$tmp/run.tc") || fail "run -p: $out"
echo "$out" | json 'assert len(d["commands"]) == 2' || fail "run -j -p is not one document: $out"
out=$($NETBPF -s run "$tmp/run.tc") || fail "run text: $out"
echo "$out" | grep -Eq "^  gact   index 7 +drop +ref 3 +bind 2 +500 pkts" || fail "run actions: $out"

cat > "$tmp/redir.tc" <<EOF
link add g0 type gen count 100
link add g1 type gen count 50
link add s0 type sink
link add s1 type sink
tc qdisc add dev g0 clsact
tc qdisc add dev g1 clsact
tc filter add dev g0 ingress pref 1 matchall action mirred egress redirect dev s0
tc filter add dev g1 ingress pref 1 u32 match u32 0 0 action bpf obj tcbpf1.o sec clone_redirect_xmit drop
EOF
out=$(cd "$EX" && $NETBPF -j run "$tmp/redir.tc") || fail "redir run: $out"
echo "$out" | json '
dev = {x["name"]: x for x in d["devices"]}
assert dev["g0"]["tc_redirect"] == 100 and dev["g0"]["xdp_redirect"] == 0, dev["g0"]
assert dev["g1"]["tc_redirect"] == 50, dev["g1"]
# clone_redirect_xmit sends to the next ifindex (s0): both land there
assert dev["s0"]["tx_packets"] == 150 and dev["s0"]["tc_redirect"] == 0, dev["s0"]
' || fail "tc_redirect: $out"

echo "tc actions: forms, JSON, errors, shared counters as expected"
