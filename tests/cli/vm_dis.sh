#!/bin/bash
# netbpf vm dis: hand-picked encodings with their exact text, hex and binary input, bad input,
# and a line-by-line comparison with llvm-objdump over a clang-compiled object wherever the two
# syntaxes agree (the differences are normalised first; see normalise_ours).
. "$(dirname "$0")/lib.sh"
NB_BUILD=$BUILD

nb_tmp

# One instruction per case: hex bytes and the expected text.
check_one() {
	local hex=$1 want=$2 got
	got=$(printf '%s' "$hex" | $NETBPF vm dis --hex -) || fail "vm dis '$hex' exited $?"
	got=${got#*: }
	[ "$got" = "$want" ] || fail "'$hex': expected '$want', got '$got'"
}
check_one '61 10 4c 00 00 00 00 00' 'r0 = *(u32 *)(r1 + 76)'
check_one '6b 1a f8 ff 00 00 00 00' '*(u16 *)(r10 - 8) = r1'
check_one '62 0a fc ff 07 00 00 00' '*(u32 *)(r10 - 4) = 7'
check_one '91 10 02 00 00 00 00 00' 'r0 = *(s8 *)(r1 + 2)'
check_one '2d 32 05 00 00 00 00 00' 'if r2 > r3 goto +5'
check_one 'c6 02 fd ff 07 00 00 00' 'if w2 s< 7 goto -3'
check_one '05 00 03 00 00 00 00 00' 'goto +3'
check_one '06 00 00 00 70 11 01 00' 'gotol +70000'
check_one 'bc 21 00 00 00 00 00 00' 'w1 = w2'
check_one 'bf 21 10 00 00 00 00 00' 'r1 = (s16)r2'
check_one '84 01 00 00 00 00 00 00' 'w1 = -w1'
check_one 'dc 01 00 00 10 00 00 00' 'r1 = be16 r1'
check_one 'd4 01 00 00 20 00 00 00' 'r1 = le32 r1'
check_one 'd7 01 00 00 40 00 00 00' 'r1 = bswap64 r1'
check_one '3f 21 01 00 00 00 00 00' 'r1 s/= r2'
check_one '97 01 01 00 03 00 00 00' 'r1 s%= 3'
check_one 'c7 01 00 00 03 00 00 00' 'r1 s>>= 3'
check_one '85 00 00 00 17 00 00 00' 'call bpf_redirect#23'
check_one '85 10 00 00 05 00 00 00' 'call pc+5'
check_one '95 00 00 00 00 00 00 00' 'exit'
check_one '18 01 00 00 34 12 00 00 00 00 00 00 00 00 00 00' 'r1 = 0x1234 ll'
check_one '18 11 00 00 03 00 00 00 00 00 00 00 00 00 00 00' 'r1 = map[id:3]'
check_one '18 21 00 00 03 00 00 00 00 00 00 00 10 00 00 00' 'r1 = map[id:3][0]+16'
check_one 'db 1a f8 ff 00 00 00 00' 'lock *(u64 *)(r10 - 8) += r1'
check_one 'db 1a f8 ff 01 00 00 00' 'r1 = atomic64_fetch_add((u64 *)(r10 - 8), r1)'
check_one 'db 32 00 00 f1 00 00 00' 'r0 = atomic64_cmpxchg((u64 *)(r2 + 0), r0, r3)'
check_one 'c3 1a f8 ff e1 00 00 00' 'w1 = atomic_xchg((u32 *)(r10 - 8), w1)'
check_one '30 00 00 00 0c 00 00 00' 'r0 = *(u8 *)skb[12]'
check_one '48 30 00 00 02 00 00 00' 'r0 = *(u16 *)skb[r3 + 2]'
check_one 'f5 00 00 00 00 00 00 00' 'tail_call'
check_one 'ff 00 00 00 00 00 00 00' 'invalid insn 0xff'

# A whole program, binary, with its indexes: ldimm64 takes two.
printf '\x18\x01\x00\x00\x2a\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x95\x00\x00\x00\x00\x00\x00\x00' \
	> "$tmp/prog.bin"
out=$($NETBPF vm dis "$tmp/prog.bin") || fail "binary dis exited $?"
[ "$out" = "$(printf '   0: r1 = 0x2a ll\n   2: exit')" ] || fail "binary dis printed '$out'"

# Bad input: one line on stderr, exit 1.
printf 'b7 00 00' > "$tmp/short.hex"
err=$($NETBPF vm dis --hex "$tmp/short.hex" 2>&1 >/dev/null)
[ $? -eq 1 ] || fail "short input: exit status not 1"
echo "$err" | grep -q "multiple of 8" || fail "short input: '$err'"

# llvm-objdump comparison.
obj=$NB_BUILD/tests/bpf/disasm_forms.o
find_tool() {
	local v
	for v in "" -19 -18 -17 -16 -15 -14; do
		command -v "$1$v" >/dev/null && { echo "$1$v"; return; }
	done
}
OBJDUMP=$(find_tool llvm-objdump)
OBJCOPY=$(find_tool llvm-objcopy)
if [ -z "$OBJDUMP" ] || [ -z "$OBJCOPY" ]; then
	echo "vm dis: own cases pass"
	echo "SKIPPED: llvm-objdump/llvm-objcopy not installed for the comparison"
	exit 77
fi
[ -f "$obj" ] || fail "$obj is not built"

# llvm-objdump lines as "index: text"; 32-bit atomics decode only with +alu32, whose loads and
# stores print with w registers, so it is used for the 32-bit atomics (opcode 0xc3) alone.
llvm_lines() {
	local sec=$1
	paste -d'\t' \
		<($OBJDUMP -d --section="$sec" "$obj" | grep -E '^ +[0-9]+:') \
		<($OBJDUMP -d --mattr=+alu32 --section="$sec" "$obj" | grep -E '^ +[0-9]+:') |
	while IFS=$'\t' read -r idx bytes text _ _ text32; do
		idx=${idx// /}
		text=${text% <*>}
		[[ $bytes == c3* ]] && text=$text32
		if [[ $text =~ ^(r[0-9]+)\ =\ (-?[0-9]+)\ ll$ ]]; then
			text=$(printf '%s = 0x%x ll' "${BASH_REMATCH[1]}" "${BASH_REMATCH[2]}")
		fi
		echo "$idx $text"
	done
}

# Our syntax where llvm 14's differs: helper names, "pc" in calls, atomics named like the
# kernel's, and the kernel's explicit "+ 0" in LD_IND.
normalise_ours() {
	sed -E -e 's/^ *([0-9]+): /\1: /' \
		-e 's/call [a-z_0-9]+#(-?[0-9]+)$/call \1/' -e 's/call pc\+?/call /' \
		-e 's/atomic64_fetch_/atomic_fetch_/' \
		-e 's/r0 = atomic64_cmpxchg\(\(u64 \*\)\((.*)\), r0, (r[0-9]+)\)$/r0 = cmpxchg_64(\1, r0, \2)/' \
		-e 's/w0 = atomic_cmpxchg\(\(u32 \*\)\((.*)\), w0, (w[0-9]+)\)$/w0 = cmpxchg32_32(\1, w0, \2)/' \
		-e 's/(r[0-9]+) = atomic64_xchg\(\(u64 \*\)\((.*)\), (r[0-9]+)\)$/\1 = xchg_64(\2, \3)/' \
		-e 's/(w[0-9]+) = atomic_xchg\(\(u32 \*\)\((.*)\), (w[0-9]+)\)$/\1 = xchg32_32(\2, \3)/' \
		-e 's/skb\[(r[0-9]+) \+ 0\]/skb[\1]/'
}

total=0
for sec in .text tc; do
	$OBJCOPY -O binary --only-section="$sec" "$obj" "$tmp/sec.bin" ||
		fail "$OBJCOPY $sec"
	$NETBPF vm dis "$tmp/sec.bin" | normalise_ours > "$tmp/ours" || fail "vm dis $sec"
	llvm_lines "$sec" > "$tmp/llvm"
	diff "$tmp/llvm" "$tmp/ours" > "$tmp/diff" ||
		fail "section $sec differs from llvm-objdump (< llvm, > netbpf):
$(cat "$tmp/diff")"
	total=$((total + $(wc -l < "$tmp/llvm")))
done
[ "$total" -ge 100 ] || fail "only $total instructions compared"
echo "vm dis: own cases pass, $total instructions match llvm-objdump"
