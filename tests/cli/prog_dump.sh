#!/bin/bash
# netbpf prog dump: the xlated instructions of a verified example, and the JIT's machine code
# under each instruction (disassembled by llvm-mc when installed, hex otherwise); --interp
# leaves nothing to dump; bad words are refused.
. "$(dirname "$0")/lib.sh"
OBJ=$BUILD/examples/tc_classifier.o

[ "$(uname -m)" = x86_64 ] || { echo "SKIPPED: the JIT is x86-64 only"; exit 77; }
out=$($NETBPF prog dump xlated "$OBJ" 2>&1) || fail "dump xlated exited $?: $out"
echo "$out" | grep -q "^   0: (..) r[0-9] = " || fail "xlated lacks insn 0: $out"

# Lookups on a known map are written in line by the fixup, shown as bpftool shows them: a
# per-CPU array's index arithmetic with the worker index, a hash map's direct element lookup.
out=$($NETBPF prog dump xlated "$B/examples/xdp_drop_proto.o" 2>&1) || fail "percpu dump: $out"
echo "$out" | grep -q ") r1 = this_cpu" || fail "no in-line per-CPU lookup: $out"
echo "$out" | grep -q "(36) if w0 >= 0x100 goto pc+" || fail "no index bound check: $out"
echo "$out" | grep -q "call bpf_map_lookup_elem" && fail "the lookup stayed a helper call: $out"
out=$($NETBPF prog dump xlated "$B/tests/bpf/elf_hash.o" 2>&1) || fail "hash dump: $out"
echo "$out" | grep -q "(85) call __htab_map_lookup_elem_4#0$" || fail "no direct hash lookup: $out"
echo "$out" | grep -q "(85) call bpf_map_update_elem#2$" || fail "update is no helper call: $out"

out=$($NETBPF prog dump jited "$OBJ" sec classifier 2>&1) || fail "dump jited exited $?: $out"
echo "$out" | grep -q "bytes of x86-64 code" || fail "no code size: $out"
echo "$out" | grep -q "^;    0: " || fail "no BPF insn 0 header: $out"
# The entry saves the callee-saved registers the program uses: this one has no r6 (rbx, 53),
# so push rbp (55) comes first, then push r12 (41 54), the env.
entry=$(echo "$out" | sed -n '/<entry>/,/^;/p')
echo "$entry" | grep -q " 0: 55 " || fail "entry does not push rbp first: $out"
echo "$entry" | grep -q " 1: 41 54 " || fail "entry does not push r12: $out"
echo "$entry" | grep -q ": 53 " && fail "entry pushes rbx for a program without r6: $out"
if command -v llvm-mc >/dev/null; then
	echo "$out" | grep -q "retq" || fail "llvm-mc disassembly missing: $out"
fi

out=$($NETBPF --interp prog dump jited "$OBJ" 2>&1) || fail "--interp dump exited $?"
echo "$out" | grep -q "not JIT-compiled" || fail "--interp dump: $out"

err=$($NETBPF prog dump bogus "$OBJ" 2>&1 >/dev/null) && fail "bogus word accepted"
echo "$err" | grep -q 'argument "bogus" is wrong' || fail "bogus word: $err"
# sec S loads that section only, as prog load and tc do: the kprobe beside it is no matter
$NETBPF prog dump xlated "$B/tests/bpf/elf_kprobe.o" >/dev/null 2>&1 &&
	fail "elf_kprobe.o's kprobe program loaded"
out=$($NETBPF prog dump xlated "$B/tests/bpf/elf_kprobe.o" sec xdp 2>&1) ||
	fail "sec xdp of elf_kprobe.o: $out"
[ "$out" = "$(printf 'pass:\nint pass(struct xdp_md * ctx):\n; return XDP_PASS;\n   0: (b4) w0 = 2\n   1: (95) exit')" ] ||
	fail "sec xdp: $out"

# The datapath's programs, as bpftool names them (bpftool_compare.sh holds the listing to the
# kernel's): one, with its bytes, as JSON; several of one name each after its prog show line.
setup="link add g0 type gen count 0
ip link set dev g0 xdp obj $B/examples/xdp_meta_mark.o sec xdp"
out=$(printf '%s\nprog dump xlated name xdp_meta_tag opcodes\n' "$setup" | $NETBPF -batch - 2>&1) ||
	fail "live dump: $out"
echo "$out" | grep -q '^int xdp_meta_tag(struct xdp_md \* ctx):$' || fail "no prototype: $out"
echo "$out" | grep -q '^   0: (bf) r6 = r1$' || fail "no insn 0: $out"
echo "$out" | grep -q '^       bf 16 00 00 00 00 00 00$' || fail "no opcodes: $out"
echo "$out" | grep -q '^; if (bpf_xdp_adjust_meta' || fail "no source line: $out"
out=$(printf '%s\nprog dump xlated id 1 linum\n' "$setup" | $NETBPF -j -batch - 2>&1) ||
	fail "live dump -j: $out"
echo "$out" | json 'e = d[-1][0]; assert e["disasm"] == "(bf) r6 = r1" and e["line_num"] == 16 and e["proto"].startswith("int xdp_meta_tag"), e' ||
	fail "live dump -j: $out"
out=$(printf '%s\nlink add g1 type gen count 0\nip link set dev g1 xdp obj %s sec xdp\nprog dump xlated name xdp_meta_tag\n' \
	"$setup" "$B/examples/xdp_meta_mark.o" | $NETBPF -batch - 2>&1) || fail "two: $out"
[ "$(echo "$out" | grep -c '^[12]: xdp  name xdp_meta_tag  tag ')" = 2 ] || fail "two: $out"
err=$(printf '%s\nprog dump xlated name xdp_meta_tag visual\n' "$setup" | $NETBPF -batch - 2>&1) &&
	fail "visual accepted"
echo "$err" | grep -q 'argument "visual" is wrong: not supported' || fail "visual: $err"
err=$(printf '%s\nprog dump xlated id 9\n' "$setup" | $NETBPF -batch - 2>&1) && fail "id 9 found"
echo "$err" | grep -q 'no program with id 9' || fail "id 9: $err"
# by the tag prog show prints: the same listing as by name
tag=$(printf '%s\nprog show\n' "$setup" | $NETBPF -batch - | sed -n 's/.* tag \([0-9a-f]\{16\}\) .*/\1/p')
[ -n "$tag" ] || fail "prog show prints no tag"
by_name=$(printf '%s\nprog dump xlated name xdp_meta_tag\n' "$setup" | $NETBPF -batch - 2>&1)
out=$(printf '%s\nprog dump xlated tag %s\n' "$setup" "$tag" | $NETBPF -batch - 2>&1) ||
	fail "tag $tag: $out"
[ "$out" = "$by_name" ] && echo "$out" | grep -q '^   0: (bf) r6 = r1$' ||
	fail "tag $tag lists otherwise than name: $out"
err=$(printf '%s\nprog dump xlated tag 0123456789abcdef\n' "$setup" | $NETBPF -batch - 2>&1) &&
	fail "tag 0123456789abcdef found"
echo "$err" | grep -q 'no program with tag 0123456789abcdef' || fail "unknown tag: $err"
echo "prog dump: xlated and jited listings behave"
