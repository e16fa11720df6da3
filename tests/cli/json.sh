#!/bin/bash
# -j everywhere: every command form prints exactly one JSON document on stdout, whether it
# succeeds, succeeds without a word (bpftool's `null`), or fails ({"error": "..."}, as bpftool
# prints it, with the exit status of the failure). Each stdout is parsed whole by python3's json
# module, which refuses a second document or stray text.
. "$(dirname "$0")/lib.sh"
EX=$B/examples
command -v python3 >/dev/null || { echo "SKIPPED: python3 is missing"; exit 77; }
nb_tmp

forms=0
# STATUS CHECK FORM...: netbpf -j FORM exits STATUS and its stdout, one JSON document, passes
# CHECK (a python expression on d)
jcheck() {
	local want=$1 check=$2 rc
	shift 2
	$NETBPF -j "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ $rc -eq "$want" ] || fail "netbpf -j $*: exit status $rc, not $want: $(head -c 600 "$tmp/err")"
	python3 - "$tmp/out" "$check" <<'EOF' || fail "netbpf -j $*: $(head -c 600 "$tmp/out")"
import json, sys
text = open(sys.argv[1]).read()
d = json.loads(text)	# one document, nothing around it
assert text.endswith("\n") and text.count("\n") == 1, "not one line: %r" % text[:200]
assert eval(sys.argv[2]), d
EOF
	forms=$((forms + 1))
}

printf '\x02\x00\x00\x00\x00\x02\x02\x00\x00\x00\x00\x01\x08\x06' > "$tmp/one.bin"
printf 'b7 00 00 00 2a 00 00 00\n95 00 00 00 00 00 00 00\n' > "$tmp/prog.hex"
cat > "$tmp/s.tc" <<'EOF'
link add gen0 type gen count 10
link add s0 type sink
tc qdisc add dev gen0 clsact
tc filter add dev gen0 ingress pref 10 matchall action drop
tc -s filter show dev gen0 ingress
link show
sysctl net.ipv4.conf.gen0.forwarding
ip addr add 10.1.0.1/24 dev gen0
ip addr show
ip route show
ip route get 10.1.0.7
ip rule show
ip neigh show
tc actions list action gact
tc qdisc show
EOF

# object files
jcheck 0 'd["programs"][0]["name"] == "_redirect_xmit"' prog load $EX/tcbpf1.o sec redirect_xmit
jcheck 0 'len(d) == 5 and d[1]["verified_insns"] == 5' prog verify $EX/tcbpf1.o
jcheck 0 'len(d) == 5' prog verify -v $EX/tcbpf1.o
jcheck 0 'd[0]["name"] == "_redirect_xmit" and d[0]["insns"][-1]["disasm"] == "(95) exit"' \
	prog dump xlated $EX/tcbpf1.o sec redirect_xmit
jcheck 0 'len(d) == 5' prog dump xlated $EX/tcbpf1.o
jcheck 0 'd[0]["insns"][0]["pc"] == 0 and "native" in d[0]["insns"][0]' \
	prog dump jited $EX/tcbpf1.o sec redirect_xmit
jcheck 0 'd["packets"][0]["len_in"] == 14' prog run $EX/tc_classifier.o --data-in "$tmp/one.bin"
jcheck 0 'd["maps"][0]["name"] == "m"' prog run $B/tests/bpf/elf_hash.o --data-in "$tmp/one.bin" --maps
jcheck 0 'd[0]["name"] == "m"' map show $B/tests/bpf/elf_hash.o
jcheck 0 'd == []' map dump $B/tests/bpf/elf_hash.o name m
jcheck 0 'd == {"r0": 42}' vm run --hex "$tmp/prog.hex"
jcheck 0 'd == [{"pc": 0, "disasm": "r0 = 42"}, {"pc": 1, "disasm": "exit"}]' vm dis --hex "$tmp/prog.hex"

# the datapath: a run, a batch (one array of the show lines' documents), single words
jcheck 0 'd["seed"][0]["generated"] == 10 and d["all_delivered"]' run --packets 30
jcheck 0 'len(d["commands"]) == 10 and d["commands"][2] == {"net.ipv4.conf.gen0.forwarding": 0}' \
	run "$tmp/s.tc"
jcheck 0 'len(d) == 10 and d[0][0]["kind"] == "matchall" and d[5][0]["dev"] == "gen0"' \
	-batch "$tmp/s.tc"
jcheck 0 'd is None' link add g type gen
jcheck 0 'd == []' link show
jcheck 0 'd == []' tc qdisc show
jcheck 0 'd[0]["table"] == "local"' ip rule show
jcheck 0 'd == {"net.ipv4.conf.all.forwarding": 0}' sysctl net.ipv4.conf.all.forwarding
jcheck 0 'd["devices"] == []' stats
jcheck 0 'd == []' prog show
jcheck 0 'd == []' map show

# help, and errors: the error object, the status of the failure
jcheck 0 'd is None' tc filter help
jcheck 0 'd is None' prog run help
jcheck 1 '"Cannot find device \"x\"" in d["error"]' tc qdisc add dev x clsact
jcheck 1 '"unknown tc object" in d["error"]' tc foo
jcheck 2 '"\"--foo\" is unknown" in d["error"]' run --foo
jcheck 1 'd["error"].startswith("/nonexistent.o: cannot read")' prog load /nonexistent.o
jcheck 1 '"R1 offset is outside of the packet" in d["error"]' \
	prog verify $B/tests/bpf/verifier_c.o sec tc program bad_tc_no_bounds_check
jcheck 1 '"holds 5 programs" in d["error"]' prog run $EX/tcbpf1.o --data-in "$tmp/one.bin"
jcheck 1 '"Network is unreachable" in d["error"]' ip route get 1.2.3.4
jcheck 1 '"monitor watches a running daemon" in d["error"]' monitor
printf 'link add a type sink\ntc qdisc show\ntc foo\n' > "$tmp/bad.tc"
jcheck 1 '"bad.tc:3" in d["error"]' -batch "$tmp/bad.tc"
jcheck 1 '"bad.tc:3" in d["error"]' run "$tmp/bad.tc"

echo "json: $forms command forms, each one JSON document"
