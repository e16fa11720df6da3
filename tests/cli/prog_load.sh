#!/bin/bash
# netbpf prog load: the test objects' programs and maps, as text and JSON, --set and type words,
# and the errors of bad command lines and files.
. "$(dirname "$0")/lib.sh"
OBJ=$BUILD/tests/bpf

out=$($NETBPF prog load $OBJ/elf_hash.o 2>&1)
rc=$?
[ $rc -eq 0 ] || fail "prog load elf_hash.o exited $rc: $out"
echo "$out" | grep -Eq '^prog [0-9]+: socket_filter  name count  section socket  insns [0-9]+  (jited|interpreted)$' ||
	fail "no program line for count: $out"
echo "$out" | grep -Eq '^map [0-9]+: hash  name m  flags 0x0$' || fail "no map line for m: $out"
echo "$out" | grep -q $'^\tkey 4B  value 8B  max_entries 16$' || fail "no sizes of m: $out"

# iproute2 style: custom and tail-call sections take the type given.
out=$($NETBPF prog load $OBJ/elf_iproute2.o type tc) || fail "iproute2 object: $out"
for p in "cls_main  section classifier" "tail_zero  section 1/0" "tail_one  section 1/1" \
	 "xmit  section redirect_xmit"; do
	echo "$out" | grep -q "sched_cls  name $p  insns" || fail "no sched_cls $p: $out"
done
echo "$out" | grep -q "max_entries 4  pinned tc/globals/counters" || fail "counters not pinned: $out"
echo "$out" | grep -Eq '^map [0-9]+: prog_array  name jmp' || fail "no jmp: $out"
# tc's "sec": that section and the tail-call sections only.
out2=$($NETBPF prog load $OBJ/elf_iproute2.o --type tc) || fail "--type tc: $out2"
[ "$(echo "$out" | sed 's/prog [0-9]*:/prog N:/; s/map [0-9]*:/map N:/')" = \
  "$(echo "$out2" | sed 's/prog [0-9]*:/prog N:/; s/map [0-9]*:/map N:/')" ] ||
	fail "--type tc and type tc differ: $out2"
out=$($NETBPF prog load $OBJ/elf_iproute2.o type tc sec classifier) ||
	fail "sec classifier: $out"
[ "$(echo "$out" | grep -c '^prog ')" -eq 3 ] && ! echo "$out" | grep -q "name xmit" ||
	fail "sec classifier loaded other sections: $out"
# Without the verifier's proof, as for debugging the engines.
out=$($NETBPF --unsafe-no-verify prog load $OBJ/elf_iproute2.o type xdp) || fail "type xdp: $out"
[ "$(echo "$out" | grep -c '^prog .*: xdp  name')" -eq 4 ] || fail "type xdp not applied: $out"

# JSON, checked by a JSON parser where one is at hand.
out=$($NETBPF -j --unsafe-no-verify prog load $OBJ/elf_globals.o) || fail "-j: $out"
if command -v python3 >/dev/null; then
	echo "$out" | python3 -c '
import json, sys
d = json.load(sys.stdin)
progs = {p["name"]: p for p in d["programs"]}
assert set(progs) == {"prog_a", "prog_b", "prog_loop", "prog_str"}, progs
assert progs["prog_a"]["section"] == "socket" and progs["prog_a"]["type"] == "socket_filter"
assert progs["prog_b"]["insns"] == 28, progs["prog_b"]
maps = {m["name"]: m for m in d["maps"]}
assert maps[".rodata"]["flags"] == 0x480 and maps[".rodata"]["bytes_key"] == 4, maps
assert maps[".data"]["bytes_value"] == 24 and maps[".bss"]["max_entries"] == 1, maps
assert d["license"] == "GPL"
' || fail "JSON content: $out"
	$NETBPF -j -p --unsafe-no-verify prog load $OBJ/elf_hash.o | json pass ||
		fail "-j -p is not JSON"
fi
out=$($NETBPF -j -p --unsafe-no-verify prog load $OBJ/elf_hash.o)
echo "$out" | grep -q '^    "programs": \[$' || fail "-p does not indent: $out"

# --set reaches .rodata before load.
out=$($NETBPF map dump $OBJ/elf_globals.o name .rodata --set factor=0x10 --set offset_ro=-1) ||
	fail "--set: $out"
echo "$out" | grep -q '"factor": 16$' && echo "$out" | grep -q '"offset_ro": 18446744073709551615$' ||
	fail "--set values not in .rodata: $out"

expect_error() {
	local what=$1 want_rc=$2 pattern=$3
	shift 3
	local err rc
	err=$("$@" 2>&1 >/dev/null)
	rc=$?
	[ $rc -eq $want_rc ] || fail "$what: exit status $rc, expected $want_rc ($err)"
	echo "$err" | grep -q -- "$pattern" || fail "$what: '$err' lacks '$pattern'"
}
expect_error "missing file" 1 "nope.o: cannot read: No such file" \
	$NETBPF prog load /nonexistent/nope.o
expect_error "unknown variable" 1 "has no global variable nope" \
	$NETBPF prog load $OBJ/elf_globals.o --set nope=1
expect_error "value too wide" 1 "not a 4-byte integer" \
	$NETBPF prog load $OBJ/elf_globals.o --set factor=0x100000000
expect_error "bad type word" 2 'type "bogus" is unknown' \
	$NETBPF prog load $OBJ/elf_hash.o type bogus
expect_error "bad word" 2 'argument "bogus" is wrong' $NETBPF prog load $OBJ/elf_hash.o bogus x
expect_error "no such section" 1 "elf_hash.o: no program in section nope" \
	$NETBPF prog load $OBJ/elf_hash.o sec nope
expect_error "not ELF" 1 "not an ELF file" $NETBPF prog load /etc/hostname
# without a daemon (none can be found in an empty socket directory) the datapath is this
# process's: nothing is loaded in it
out=$(NETBPF_RUNDIR=/nonexistent $NETBPF prog show 2>&1) || fail "prog show exited $?: $out"
[ -z "$out" ] || fail "prog show without a daemon printed '$out'"
# An object that loads no program fails and says why: none at all, or only optional ones
if command -v clang >/dev/null; then
	nb_tmp
	lic='char LICENSE[] __attribute__((section("license"))) = "GPL";'
	printf 'int counter = 1;\n%s\n' "$lic" |
		clang -target bpf -O2 -c -x c - -o "$tmp/noprog.o" || fail "clang noprog.o"
	printf '__attribute__((section("?tc"), used)) int opt(void *c) { return 0; }\n%s\n' \
		"$lic" | clang -target bpf -O2 -c -x c - -o "$tmp/opt.o" || fail "clang opt.o"
	out=$($NETBPF prog load "$tmp/noprog.o" 2>&1)
	[ $? -eq 1 ] && [ "$out" = "netbpf: $tmp/noprog.o: no program: the object has no executable section" ] ||
		fail "no program: $out"
	out=$($NETBPF prog load "$tmp/opt.o" 2>&1)
	[ $? -eq 1 ] && echo "$out" | grep -q "no program loaded: each is in an optional section" ||
		fail "optional only: $out"
	out=$($NETBPF prog load "$tmp/opt.o" sec tc 2>&1) || fail "opt.o sec tc: $out"
	echo "$out" | grep -q "name opt  section tc" || fail "opt.o sec tc: $out"
fi
echo "prog load: all cases behave"
