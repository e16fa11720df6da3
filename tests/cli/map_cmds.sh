#!/bin/bash
# netbpf map show|dump|lookup|update|delete on the test objects' maps: bpftool's words, text and
# JSON, and the errors of wrong maps, keys and values.
. "$(dirname "$0")/lib.sh"
OBJ=$BUILD/tests/bpf

out=$($NETBPF map show $OBJ/elf_iproute2.o 2>&1)
rc=$?
[ $rc -eq 0 ] || fail "map show exited $rc: $out"
[ "$(echo "$out" | grep -c '^map ')" -eq 3 ] || fail "expected 3 maps: $out"
echo "$out" | grep -Eq '^map [0-9]+: array  name counters  flags 0x0$' || fail "counters: $out"
echo "$out" | grep -q 'pinned tc/[0-9a-f]*/seen' || fail "seen not object-pinned: $out"

# show by name and by id; JSON of one map is an object.
out=$($NETBPF map show $OBJ/elf_legacy_libbpf.o name lru) || fail "show name: $out"
[ "$(echo "$out" | grep -c '^map ')" -eq 1 ] && echo "$out" | grep -q 'lru_hash  name lru' ||
	fail "show name lru: $out"
id=$(echo "$out" | sed -n 's/^map \([0-9]*\):.*/\1/p')
out=$($NETBPF -j map show $OBJ/elf_legacy_libbpf.o id "$id") || fail "show id: $out"
echo "$out" | grep -q '"name":"lru"' && echo "$out" | grep -q '"bytes_key":8' ||
	fail "JSON show id $id: $out"

# dump: every element of an array, bpftool's lines and count.
out=$($NETBPF map dump $OBJ/elf_legacy_libbpf.o name arr) || fail "dump arr: $out"
[ "$out" = "key: 00 00 00 00  value: 00 00 00 00
key: 01 00 00 00  value: 00 00 00 00
Found 2 elements" ] || fail "dump arr: $out"
out=$($NETBPF -j map dump $OBJ/elf_legacy_libbpf.o name arr) || fail "-j dump: $out"
[ "$out" = '[{"key":["0x00","0x00","0x00","0x00"],"value":["0x00","0x00","0x00","0x00"]},{"key":["0x01","0x00","0x00","0x00"],"value":["0x00","0x00","0x00","0x00"]}]' ] ||
	fail "-j dump arr: $out"
# a map with BTF dumps in its typed form, as bpftool's (no count after it)
out=$($NETBPF map dump $OBJ/elf_hash.o name m) || fail "dump empty: $out"
[ "$out" = "[]" ] || fail "empty hash: $out"
# .data holds its initial values: data_counter = 5, then table 1 2 3 4.
out=$($NETBPF map dump $OBJ/elf_globals.o name .data) || fail "dump .data: $out"
echo "$out" | grep -qx '                    "data_counter": 5' &&
	echo "$out" | grep -qx '                    "table": \[1,2,3,4' || fail ".data contents: $out"

# lookup / update / delete, decimal, 0x and hex bytes.
out=$($NETBPF map lookup $OBJ/elf_legacy_libbpf.o name arr key 1 0 0 0) || fail "lookup: $out"
[ "$out" = "key: 01 00 00 00  value: 00 00 00 00" ] || fail "lookup arr[1]: $out"
out=$($NETBPF map update $OBJ/elf_hash.o name m key 0x07 0 0 0 value hex 01 02 03 04 05 06 07 08 noexist) ||
	fail "update: $out"
[ -z "$out" ] || fail "update printed '$out'"
out=$($NETBPF -j map update $OBJ/elf_hash.o name m key hex 07 00 00 00 value 1 2 3 4 5 6 7 8 any) ||
	fail "-j update: $out"
[ "$out" = "null" ] || fail "-j update printed '$out'"

expect_error() {
	local what=$1 want_rc=$2 pattern=$3
	shift 3
	local err rc
	err=$("$@" 2>&1 >/dev/null)
	rc=$?
	[ $rc -eq $want_rc ] || fail "$what: exit status $rc, expected $want_rc ($err)"
	echo "$err" | grep -q -- "$pattern" || fail "$what: '$err' lacks '$pattern'"
}
expect_error "missing key" 1 "map m: key not found" \
	$NETBPF map lookup $OBJ/elf_hash.o name m key 7 0 0 0
expect_error "delete missing" 1 "map m: key not found" \
	$NETBPF map delete $OBJ/elf_hash.o name m key 7 0 0 0
expect_error "short key" 2 "map m: key has 3 bytes, the map's key size is 4" \
	$NETBPF map lookup $OBJ/elf_hash.o name m key 7 0 0
expect_error "long value" 2 "value has 9 bytes, the map's value size is 8" \
	$NETBPF map update $OBJ/elf_hash.o name m key 7 0 0 0 value 1 2 3 4 5 6 7 8 9
expect_error "byte too big" 2 'key byte "256" is wrong' \
	$NETBPF map lookup $OBJ/elf_hash.o name m key 256 0 0 0
expect_error "bad hex" 2 'key byte "zz" is wrong' \
	$NETBPF map lookup $OBJ/elf_hash.o name m key hex zz 0 0 0
expect_error "no such map" 1 "elf_hash.o has no map named nope" \
	$NETBPF map dump $OBJ/elf_hash.o name nope
expect_error "no such id" 1 "has no map with id 999" $NETBPF map dump $OBJ/elf_hash.o id 999
expect_error "which map" 2 'give "name NAME" or "id ID"' $NETBPF map dump $OBJ/elf_hash.o
expect_error "key needed" 2 '"key" is needed' $NETBPF map lookup $OBJ/elf_hash.o name m
expect_error "value needed" 2 '"value" is needed' \
	$NETBPF map update $OBJ/elf_hash.o name m key 1 0 0 0
expect_error "frozen .rodata" 1 "update failed: Operation not permitted" \
	$NETBPF map update $OBJ/elf_globals.o name .rodata key 0 0 0 0 value hex $(printf '00 %.0s' $(seq 23))
expect_error "unknown verb" 2 'command "frob" is unknown' $NETBPF map frob $OBJ/elf_hash.o
# Maps of sockets and cgroups: created empty; an update names an fd the kernel would look up
# (200: none open here, EBADF as from the kernel), and says what netbpf lacks.
msg="map socks: update failed: Bad file descriptor: netbpf has no sockets, so a map of them"
expect_error "sockmap update" 1 "$msg stays empty" \
	$NETBPF map update $OBJ/elf_absent_maps.o name socks key 0 0 0 0 value 200 0 0 0 0 0 0 0
expect_error "cgroup array update" 1 "netbpf has no cgroups" \
	$NETBPF map update $OBJ/elf_absent_maps.o name cgroups key 0 0 0 0 value 200 0 0 0
expect_error "sockmap lookup" 1 "map socks: key not found" \
	$NETBPF map lookup $OBJ/elf_absent_maps.o name socks key 0 0 0 0
echo "map commands: all cases behave"
