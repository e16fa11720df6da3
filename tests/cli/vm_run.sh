#!/bin/bash
# netbpf vm run: the issue's own example, binary input, memory arguments, and every kind of bad
# input with its one-line error and exit status 1.
. "$(dirname "$0")/lib.sh"

out=$(printf 'b7 00 00 00 2a 00 00 00 95 00 00 00 00 00 00 00' | $NETBPF vm run --hex -) ||
	fail "hex run exited $?"
[ "$out" = "0x2a" ] || fail "expected 0x2a, got '$out'"

nb_tmp

# Binary input from a file: r0 = r2 (the memory length), exit.
printf '\xbf\x20\x00\x00\x00\x00\x00\x00\x95\x00\x00\x00\x00\x00\x00\x00' > "$tmp/len.bin"
out=$($NETBPF vm run --mem "01 02 03 04 05" "$tmp/len.bin") || fail "binary run exited $?"
[ "$out" = "0x5" ] || fail "expected r2 = 0x5, got '$out'"

# r0 = *(u32 *)(r1 + 0) with --mem-file.
printf '\x61\x10\x00\x00\x00\x00\x00\x00\x95\x00\x00\x00\x00\x00\x00\x00' > "$tmp/ld.bin"
printf '\x78\x56\x34\x12' > "$tmp/mem.bin"
out=$($NETBPF vm run --mem-file "$tmp/mem.bin" "$tmp/ld.bin") || fail "mem-file run exited $?"
[ "$out" = "0x12345678" ] || fail "expected 0x12345678, got '$out'"

# Bad input: message on stderr naming the problem, exit 1, nothing on stdout.
expect_error() {
	local what=$1 pattern=$2
	shift 2
	local err rc
	err=$("$@" 2>&1 >/dev/null)
	rc=$?
	[ $rc -eq 1 ] || fail "$what: exit status $rc, expected 1"
	echo "$err" | grep -q -- "$pattern" || fail "$what: '$err' lacks '$pattern'"
	[ "$(echo "$err" | wc -l)" -eq 1 ] || fail "$what: more than one line: '$err'"
}
printf 'b7 00 00 00 2a' > "$tmp/short.hex"
expect_error "size not a multiple of 8" "multiple of 8" $NETBPF vm run --hex "$tmp/short.hex"
: > "$tmp/empty"
expect_error "empty input" "empty" $NETBPF vm run "$tmp/empty"
printf '18 00 00 00 01 00 00 00' > "$tmp/lddw.hex"
expect_error "lddw without second half" "insn 0: invalid bpf_ld_imm64" \
	$NETBPF vm run --hex "$tmp/lddw.hex"
printf 'ff 00 00 00 00 00 00 00 95 00 00 00 00 00 00 00' > "$tmp/op.hex"
expect_error "unknown opcode" "insn 0: unknown opcode 0xff" $NETBPF vm run --hex "$tmp/op.hex"
printf 'b7 10 00 00 01 00 00 00 95 00 00 00 00 00 00 00' > "$tmp/rsv.hex"
expect_error "reserved field" "insn 0: BPF_ALU64 uses reserved fields" \
	$NETBPF vm run --hex "$tmp/rsv.hex"
printf '05 00 05 00 00 00 00 00 95 00 00 00 00 00 00 00' > "$tmp/jmp.hex"
expect_error "jump out of range" "insn 0: jump out of range from insn 0 to 6" \
	$NETBPF vm run --hex "$tmp/jmp.hex"
printf '05 00 01 00 00 00 00 00 18 00 00 00 01 00 00 00 00 00 00 00 00 00 00 00 95 00 00 00 00 00 00 00' > "$tmp/mid.hex"
expect_error "jump into lddw" "jump into the middle of ldimm64 insn 1" \
	$NETBPF vm run --hex "$tmp/mid.hex"
printf 'b7 00 00 00 00 00 00 00' > "$tmp/fall.hex"
expect_error "fall off the end" "insn 0: last insn is not an exit or jmp" \
	$NETBPF vm run --hex "$tmp/fall.hex"
printf 'zz 00' > "$tmp/bad.hex"
expect_error "bad hex" "invalid hex byte" $NETBPF vm run --hex "$tmp/bad.hex"
# An access outside the memory block stops the run with the instruction index.
printf '61 10 08 00 00 00 00 00 95 00 00 00 00 00 00 00' > "$tmp/oob.hex"
expect_error "out-of-bounds load" "insn 0: invalid memory access" \
	$NETBPF vm run --hex --mem "01 02 03 04" "$tmp/oob.hex"
# A loop without end hits the instruction limit.
printf '05 00 ff ff 00 00 00 00 95 00 00 00 00 00 00 00' > "$tmp/loop.hex"
expect_error "endless loop" "instruction limit" $NETBPF vm run --hex "$tmp/loop.hex"
echo "vm run: all cases behave"
