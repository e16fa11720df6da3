#!/bin/bash
# The map and prog words in scripts, on the maps of the datapath the script builds: maps found
# by id, name and pinned path (tc/globals/NAME, with or without /sys/fs/bpf/), show, lookup,
# update (one element, and a file in one batch), getnext, dump and delete in bpftool's output,
# per-CPU values one per worker, prog show, and the errors of each.
. "$(dirname "$0")/lib.sh"
[ -e "$BUILD/tests/bpf/elf_iproute2.o" ] && [ -e "$BUILD/examples/xdp_drop_proto.o" ] ||
	{ echo "SKIPPED: the test objects are not built"; exit 77; }
nb_tmp
export NETBPF_RUNDIR=$tmp/run	# no daemon: the script's own datapath
cp "$BUILD/tests/bpf/elf_iproute2.o" "$tmp/"

printf 'key 1 0 0 0 value 1 0 0 0\nkey 2 0 0 0 value 2 0 0 0\n# a comment\nkey 3 0 0 0 value hex ff 00 00 00\n' \
	> "$tmp/seen.txt"
cat > "$tmp/maps.tc" <<EOF2
link add g type gen count 0
tc qdisc add dev g clsact
tc filter add dev g ingress bpf da obj elf_iproute2.o sec classifier
map show pinned tc/globals/counters
map update pinned tc/globals/counters key 2 0 0 0 value 5 0 0 0 0 0 0 0
map lookup pinned /sys/fs/bpf/tc/globals/counters key 2 0 0 0
map update name seen file seen.txt noexist
map dump name seen
map getnext name seen
map delete name seen key 2 0 0 0
map lookup name seen key hex 03 00 00 00
prog show name cls_main
EOF2
out=$($NETBPF -batch "$tmp/maps.tc") || fail "script: $out"
id=$(echo "$out" | sed -n 's/^\([0-9]*\): array  name counters  flags 0x0$/\1/p')
[ -n "$id" ] || fail "map show: $out"
# memlock is the running kernel's figure (bpftool_compare.sh holds it to the kernel's)
want="$id: array  name counters  flags 0x0
	key 4B  value 8B  max_entries 4  memlock NB
	pinned /sys/fs/bpf/tc/globals/counters
key: 02 00 00 00  value: 05 00 00 00 00 00 00 00"
[ "$(echo "$out" | head -4 | sed -E 's/  memlock [0-9]+B$/  memlock NB/')" = "$want" ] ||
	fail "show and lookup: $out"
# the batch wrote all three (in the hash's order, which its random seed decides)
for e in "01 00 00 00  value: 01" "02 00 00 00  value: 02" "03 00 00 00  value: ff"; do
	echo "$out" | grep -qx "key: $e 00 00 00" || fail "batch: no $e: $out"
done
echo "$out" | grep -qx "Found 3 elements" || fail "dump count: $out"
echo "$out" | grep -A3 -x "key:" | tr "\n" "|" |
	grep -Eq "^key:\|None\|next key:\|0[123] 00 00 00\|$" || fail "getnext: $out"
echo "$out" | grep -qx "key: 03 00 00 00  value: ff 00 00 00" || fail "hex lookup: $out"
echo "$out" | grep -Eq "^[0-9]+: sched_cls  name cls_main  tag [0-9a-f]{16}  gpl$" &&
	echo "$out" | grep -Eq "^	loaded_at [0-9T:+-]+  uid $(id -u)$" &&
	echo "$out" |
	grep -Eq "^	xlated [0-9]+B  (jited [0-9]+B|not jited)  memlock 4096B  map_ids [0-9,]+$" &&
	echo "$out" | grep -Eq "^	btf_id [0-9]+$" ||
	fail "prog show: $out"

# -j: bpftool's JSON
printf '%s\n' "link add g type gen count 0" "tc qdisc add dev g clsact" \
	"tc filter add dev g ingress bpf da obj elf_iproute2.o sec classifier" \
	"map getnext pinned tc/globals/counters" "map show name counters" > "$tmp/j.tc"
out=$($NETBPF -j -batch "$tmp/j.tc") || fail "-j script: $out"
echo "$out" | grep -q '^\[{"key":null,"next_key":\["0x00","0x00","0x00","0x00"\]},' ||
	fail "-j getnext: $out"
echo "$out" | grep -q '"name":"counters",.*"pinned":\["/sys/fs/bpf/tc/globals/counters"\]}\]$' ||
	fail "-j show: $out"

# per-CPU values, one per worker: the run's maps at the end
printf 'link add g type gen count 1000 proto udp\nip link set dev g xdp obj xdp_drop_proto.o\n' \
	> "$tmp/percpu.tc"
out=$($NETBPF run "$tmp/percpu.tc" --workers 2 --maps) || fail "per-CPU run: $out"
echo "$out" | grep -A3 -x "11 00 00 00" > "$tmp/udp" || fail "no UDP key: $out"
[ "$(grep -c '^value (CPU 0[01]): ' "$tmp/udp")" = 2 ] || fail "per-CPU lines: $out"
grep -q '^value (CPU 0[01]): e8 03 00 00 00 00 00 00$' "$tmp/udp" || fail "1000 on a CPU: $out"

# errors, each naming what is wrong
expect_error() {
	local what=$1 want_rc=$2 pattern=$3 line=$4
	local err rc
	printf '%s\n' "link add g type gen count 0" "tc qdisc add dev g clsact" \
		"tc filter add dev g ingress bpf da obj elf_iproute2.o sec classifier" \
		"$line" > "$tmp/err.tc"
	err=$($NETBPF -batch "$tmp/err.tc" 2>&1 >/dev/null)
	rc=$?
	[ $rc -eq $want_rc ] || fail "$what: exit status $rc, expected $want_rc ($err)"
	echo "$err" | grep -q -- "$pattern" || fail "$what: '$err' lacks '$pattern'"
	echo "$err" | grep -q "err.tc:4: in" || fail "$what: no script line in '$err'"
}
expect_error "no id" 1 "no map with id 999" "map dump id 999"
expect_error "bad id" 1 'argument "x" is wrong: a map id is a number' "map dump id x"
expect_error "no pin" 1 "no map is pinned at tc/globals/nope" "map dump pinned tc/globals/nope"
expect_error "which map" 2 "which map?" "map lookup key 1 0 0 0"
expect_error "key size" 2 "map counters: key has 2 bytes, the map's key size is 4" \
	"map lookup name counters key 1 0"
expect_error "value size" 2 "map counters: value has 1 bytes, the map's value size is 8" \
	"map update name counters key 1 0 0 0 value 1"
expect_error "byte" 1 'argument "300" is wrong: a key byte is 0..255' \
	"map lookup name counters key 300 0 0 0"
expect_error "out of range" 1 "map counters: update failed: Argument list too long" \
	"map update name counters key 9 0 0 0 value 1 0 0 0 0 0 0 0"
expect_error "noexist" 1 "map counters: the key exists (noexist)" \
	"map update name counters key 1 0 0 0 value 1 0 0 0 0 0 0 0 noexist"
printf 'key 1 0 0 0 value 1 0 0 0\nkey 1 0 value 1 0 0 0\n' > "$tmp/bad.txt"
expect_error "file element" 2 "bad.txt: element 2" "map update name seen file bad.txt"
expect_error "verb" 1 'argument "frob" is wrong: expected show' "map frob name seen"
expect_error "prog" 1 "no program with name nope" "prog show name nope"
expect_error "prog verb" 1 'argument "load" is wrong: expected show, list or dump' "prog load x.o"
echo "map words: scripts find, change and print maps and programs as bpftool does"
