#!/bin/bash
# Every word a daemon takes, from separate netbpf processes, prints exactly what the same line
# prints in a script (-batch), in text, in -j and with -s: link show/set/del, tc qdisc and filter
# add/replace/show/del, ip link set xdp and off, map show/list/lookup/getnext/dump/update/delete
# by id, name and pinned path, hex bytes, a batch update from a file named relative to the
# caller, prog show/list. Then what only a daemon shows: -force over an attached XDP program,
# per-CPU values one per worker, and errors through the daemon (value size, a bad line of a
# batch file, an unknown word, monitor and a named daemon when none runs).
. "$(dirname "$0")/lib.sh"
[ -e "$BUILD/tests/bpf/elf_iproute2.o" ] && [ -e "$BUILD/examples/xdp_drop_proto.o" ] ||
	{ echo "SKIPPED: the test objects are not built"; exit 77; }
pids=()
cleanup() {
	for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null; done
}
nb_tmp
export NETBPF_RUNDIR=$tmp/run
unset NETBPF_DAEMON

start_daemon() {
	local name=$1
	shift
	$NETBPF daemon --name "$name" "$@" > "$tmp/$name.out" 2> "$tmp/$name.err" &
	pids+=($!)
	eval "pid_$name=$!"
	local end=$((SECONDS + 20))

	while [ $SECONDS -lt $end ]; do
		$NETBPF -D "$name" link show >/dev/null 2>&1 && return 0
		kill -0 $! 2>/dev/null || fail "daemon $name died: $(cat "$tmp/$name.err")"
		sleep 0.05
	done
	fail "daemon $name does not answer"
}
stop_daemon() {
	eval "local p=\$pid_$1"
	kill -TERM "$p" && wait "$p" || fail "daemon $1 exited $?: $(cat "$tmp/$1.err")"
}

mkdir "$tmp/w"
cd "$tmp/w" || fail "cd"
cp "$BUILD/tests/bpf/elf_iproute2.o" "$BUILD/examples/xdp_drop_proto.o" .
printf 'key 1 0 0 0 value 1 0 0 0\nkey 2 0 0 0 value 2 0 0 0\nkey 3 0 0 0 value hex ff 00 00 00\n' \
	> seen.txt
printf 'link add a type sink\nlink add b type sink\n' > setup.tc
cat > words.tc <<'EOF'
link show
link show dev a
link set dev a down
link show dev a
link set dev a up
tc qdisc add dev a clsact
tc filter add dev a ingress pref 10 handle 1 bpf da obj elf_iproute2.o sec classifier
tc filter show dev a ingress
tc filter replace dev a ingress pref 10 handle 1 bpf da obj elf_iproute2.o sec classifier
tc filter show dev a ingress
ip link set dev b xdp obj xdp_drop_proto.o
ip link show dev b
map show pinned tc/globals/counters
map list
map show id 3
map update pinned tc/globals/counters key hex 01 00 00 00 value 7 0 0 0 0 0 0 0
map lookup pinned /sys/fs/bpf/tc/globals/counters key 1 0 0 0
map getnext pinned tc/globals/counters key 1 0 0 0
map getnext id 1
map dump pinned tc/globals/counters
map update name seen file seen.txt
map lookup name seen key 2 0 0 0
map update name seen key 3 0 0 0 value 9 0 0 0 exist
map delete name seen key 2 0 0 0
map delete name seen key 1 0 0 0
map dump name seen
prog list
prog show name cls_main
prog show id 7
ip link set dev b xdp off
tc filter del dev a ingress pref 10 handle 1 bpf
tc filter show dev a ingress
tc qdisc del dev a clsact
link del a
link show
EOF
cat setup.tc words.tc > all.tc

# The daemon's programs and the script's load in other processes: their load times may fall in
# other seconds, the rest of prog show must be the same.
no_load_time() { sed -E 's/"loaded_at":[0-9]+/"loaded_at":T/g; s/loaded_at [^ ]+/loaded_at T/g'; }

# text, -j and -s: a daemon per form, each line a netbpf process of its own
for form in text -j -s; do
	opt=
	[ $form = text ] || opt=$form
	want=$($NETBPF $opt -batch all.tc 2>&1) || fail "$form script: $want"
	name=w${form#-}
	start_daemon "$name" setup.tc
	got=$(while read -r line; do
		# shellcheck disable=SC2086 # the words of the line
		$NETBPF $opt -D "$name" $line 2>&1 || echo "exit $?: $line"
	done < words.tc)
	stop_daemon "$name"
	if [ $form = -j ]; then
		# -batch prints one array of the lines' documents, each command its own; a
		# command that prints nothing prints bpftool's null (map update does in both)
		got=$(echo "$got" | python3 -c 'import json, sys
d = [json.loads(l) for l in sys.stdin]
print(json.dumps([x for x in d if x is not None], separators=(",", ":")))')
		want=$(echo "$want" |
			json 'print(json.dumps([x for x in d if x is not None], separators=(",", ":")))')
	fi
	got=$(echo "$got" | no_load_time)
	want=$(echo "$want" | no_load_time)
	[ "$got" = "$want" ] || fail "$form: the daemon's output differs from the script's:
$(diff <(echo "$want") <(echo "$got") | head -20)"
	[ -n "$got" ] || fail "$form: no output"
done
# the comparison holds something: the forms print what they should
echo "$want" | grep -qx "Found 1 element" || fail "-s output: $want"
$NETBPF -j -batch all.tc | grep -q ',{"key":\["0x01","0x00","0x00","0x00"\],"next_key":\["0x02","0x00","0x00","0x00"\]}' ||
	fail "-j getnext"

# only a daemon: -force, per-CPU values per worker, errors
start_daemon f --workers 2 setup.tc
$NETBPF -D f ip link set dev b xdp obj xdp_drop_proto.o || fail "xdp attach"
id=$($NETBPF -j -D f prog show name xdp_drop_proto | sed -n 's/^\[\?{"id":\([0-9]*\),.*/\1/p')
[ -n "$id" ] || fail "prog show name xdp_drop_proto"
err=$($NETBPF -D f ip link set dev b xdp obj xdp_drop_proto.o 2>&1); rc=$?
[ $rc -eq 1 ] && echo "$err" | grep -q "XDP program already attached (replace it with -force)" ||
	fail "attach over attached without -force: $rc $err"
$NETBPF -D f -force ip link set dev b xdp obj xdp_drop_proto.o || fail "-force attach"
id2=$($NETBPF -j -D f prog show name xdp_drop_proto | sed -n 's/^\[\?{"id":\([0-9]*\),.*/\1/p')
[ -n "$id2" ] && [ "$id2" != "$id" ] || fail "-force: program $id2 replaces $id?"
out=$($NETBPF -D f map lookup name proto_count key 17 0 0 0) || fail "per-CPU lookup: $out"
# the typed form (the map has BTF), a value per worker
[ "$(echo "$out" | grep -c '^ *"value": 0$')" = 2 ] && echo "$out" | grep -q '"cpu": 1,$' ||
	fail "per-CPU values of 2 workers: $out"
$NETBPF -j -D f map lookup name proto_count key 17 0 0 0 | grep -q '"values":\[{"cpu":0,.*{"cpu":1,' ||
	fail "-j per-CPU lookup: $($NETBPF -j -D f map lookup name proto_count key 17 0 0 0)"

expect_error() {
	local what=$1 want_rc=$2 pattern=$3
	shift 3
	local err rc
	err=$("$@" 2>&1 >/dev/null)
	rc=$?
	[ $rc -eq $want_rc ] || fail "$what: exit status $rc, expected $want_rc ($err)"
	echo "$err" | grep -q -- "$pattern" || fail "$what: '$err' lacks '$pattern'"
}
expect_error "per-CPU value size" 2 "value has 1 bytes, the map's value size is 16" \
	$NETBPF -D f map update name proto_count key 1 0 0 0 value 1
v16='1 0 0 0 0 0 0 0 2 0 0 0 0 0 0 0'
printf 'key 1 0 0 0 value %s\nkey 1 0 0 value %s\n' "$v16" "$v16" > bad.txt
expect_error "batch file line" 2 "bad.txt: element 2" \
	$NETBPF -D f map update name proto_count file bad.txt
expect_error "no file" 1 "nope.txt" $NETBPF -D f map update name proto_count file nope.txt
expect_error "unknown word" 1 'argument "frob" is wrong: expected show' \
	$NETBPF -D f map frob name proto_count
expect_error "-j error" 1 'Cannot find device "nope"' $NETBPF -j -D f link show dev nope
stop_daemon f
expect_error "monitor, no daemon" 1 'monitor watches a running daemon: none is named' \
	$NETBPF monitor count 1
expect_error "stats, daemon gone" 1 "no daemon listens on $tmp/run/f.sock" $NETBPF -D f stats
expect_error "NETBPF_DAEMON gone" 1 "no daemon listens on $tmp/run/f.sock" \
	env NETBPF_DAEMON=f $NETBPF map show
echo "daemon words: every form through a daemon prints what the script prints; -force, per-CPU, errors"
