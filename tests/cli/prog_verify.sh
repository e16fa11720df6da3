#!/bin/bash
# netbpf prog verify: every program of the examples and test objects verifies; a rejection
# names the instruction, its source line and the kernel's reason, -v adds the failing path and
# the register states, an acceptance with -v the processed instructions and states; a global
# function is verified on its own and its rejection says which.
. "$(dirname "$0")/lib.sh"

# Every object of the project verifies, except verifier_c.o, verifier_global.o,
# verifier_helpers.o, verifier_spin_lock.o, verifier_timer.o and verifier_dynptr.o, which hold
# rejects on purpose, and the loader's elf_bad_*.o, which are
# malformed on purpose (tests/unit/test_elf_bad.c). Three need what their users would give: elf_btf_parity.o a size
# for the map its tool sizes, elf_kfunc_sibling.o the choice of its program that calls no kfunc,
# elf_kprobe.o the choice of its XDP program.
n=0
for o in "$BUILD"/examples/*.o "$BUILD"/tests/bpf/*.o; do
	[ -e "$o" ] || continue
	args=()
	case "$o" in
	*/verifier_c.o | */verifier_global.o | */verifier_helpers.o | */verifier_spin_lock.o | \
	*/verifier_timer.o | */verifier_dynptr.o | */elf_bad_*.o) continue ;;
	*/elf_btf_parity.o) args=(--max-entries sized_by_tool=4) ;;
	*/elf_kfunc_sibling.o) args=(program plain) ;;
	*/elf_kprobe.o) args=(sec xdp) ;;
	esac
	out=$($NETBPF prog verify "$o" "${args[@]}" 2>&1) || fail "$o is rejected: $out"
	echo "$out" | grep -q ": verified$" || fail "$o: no program listed: $out"
	n=$((n + 1))
done

# What users of other loaders give, and what they are told.
tb=$BUILD/tests/bpf
out=$($NETBPF prog verify $tb/elf_btf_parity.o 2>&1) && fail "unsized map loaded: $out"
echo "$out" | grep -q "map sized_by_tool: max_entries 0: .*--max-entries sized_by_tool=N" ||
	fail "no hint for the unsized map: $out"
out=$($NETBPF prog verify $tb/elf_btf_parity.o --max-entries nosuch=4 2>&1) && fail "nosuch: $out"
echo "$out" | grep -q "max_entries nosuch=4: the object has no map nosuch" || fail "nosuch: $out"
$NETBPF prog verify $tb/elf_btf_parity.o --max-entries sized_by_tool=x >/dev/null 2>&1
[ $? -eq 2 ] || fail "--max-entries sized_by_tool=x is no usage error"
out=$($NETBPF prog verify $tb/elf_kfunc_sibling.o 2>&1) && fail "kfunc program verified: $out"
echo "$out" | grep -q "program calls_kfunc: .*calls kfunc bpf_rcu_read_lock" ||
	fail "the kfunc is not named: $out"
out=$($NETBPF prog verify $tb/elf_kfunc_sibling.o program reads_kconfig 2>&1) &&
	fail "__kconfig program verified: $out"
echo "$out" | grep -q "reads LINUX_KERNEL_VERSION, a __kconfig variable" || fail "kconfig: $out"
# A program type netbpf does not run says what it is.
out=$($NETBPF prog verify $tb/elf_kprobe.o 2>&1) && fail "kprobe verified: $out"
want="program on_nothing (section kprobe/do_nothing): a kprobe program (program type 2): "
want+="netbpf runs tc (sched_cls, sched_act), XDP and socket filter programs only"
echo "$out" | grep -qF "$want" || fail "kprobe refusal: $out"
out=$($NETBPF prog verify $tb/elf_kprobe.o sec kprobe/do_nothing type kprobe 2>&1) &&
	fail "type kprobe verified: $out"
echo "$out" | grep -q "a kprobe program (program type 2): netbpf runs tc" ||
	fail "type kprobe: $out"
# SEC("?tc"): left out of the whole object, verified when chosen.
out=$($NETBPF prog verify $tb/elf_optional.o 2>&1) || fail "elf_optional.o: $out"
[ "$(echo "$out" | grep -c ': verified$')" -eq 1 ] && echo "$out" | grep -q "^prog always " ||
	fail "optional program verified without being chosen: $out"
out=$($NETBPF prog verify $tb/elf_optional.o sec tc 2>&1) || fail "sec tc: $out"
echo "$out" | grep -q "^prog when_chosen  section tc " || fail "sec tc left out ?tc: $out"
out=$($NETBPF prog verify $tb/elf_optional.o program when_chosen 2>&1) || fail "program: $out"
[ "$(echo "$out" | grep -c ': verified$')" -eq 1 ] || fail "program when_chosen: $out"
[ "$n" -gt 0 ] || fail "no objects under $BUILD"

obj=$BUILD/tests/bpf/verifier_c.o
[ -e "$obj" ] || { echo "SKIPPED: $obj is not built"; exit 77; }

# A rejection: exit status 1, the instruction and the reason.
out=$($NETBPF prog verify "$obj" sec bad_tc_no_bounds_check 2>&1) && fail "bad program accepted"
echo "$out" | grep -q "^6: (71) r1 = \*(u8 \*)(r1 + 23)$" || fail "no instruction line: $out"
echo "$out" | grep -q "invalid access to packet, off=23 size=1, R1(id=0,off=23,r=14)" ||
	fail "no reason: $out"
echo "$out" | grep -q "path to the failure" && fail "path printed without -v: $out"

# -v: the failing path and the register states.
out=$($NETBPF prog verify "$obj" sec bad_tc_no_bounds_check -v 2>&1) && fail "accepted with -v"
echo "$out" | grep -q "path to the failure" || fail "no path with -v: $out"
echo "$out" | grep -q "R3=pkt(off=14,r=0)" || fail "no register state on the path: $out"
echo "$out" | grep -q "R1=pkt(r=14)" || fail "no state at the failure: $out"

# An acceptance with -v: statistics.
out=$($NETBPF prog verify "$BUILD/examples/tc_classifier.o" -v 2>&1) || fail "rejected: $out"
echo "$out" | grep -q "processed [0-9]* insns (limit 1000000) max_states_per_insn" ||
	fail "no statistics: $out"
echo "$out" | grep -q "^verification time [0-9]* usec$" || fail "no verification time: $out"

# struct bpf_map through a map pointer: checked against the kernel's BTF, refused without it.
mobj=$BUILD/tests/bpf/verifier_map_ptr.o
if [ -r /sys/kernel/btf/vmlinux ]; then
	out=$($NETBPF prog verify "$mobj" 2>&1) || fail "map struct read rejected: $out"
fi
out=$(NETBPF_VMLINUX_BTF= $NETBPF prog verify "$mobj" 2>&1) && fail "accepted without BTF: $out"
echo "$out" | grep -q "^map_ptr access not supported without CONFIG_DEBUG_INFO_BTF" ||
	fail "no reason without BTF: $out"
out=$(NETBPF_VMLINUX_BTF=/nonexistent $NETBPF prog verify "$mobj" 2>&1) &&
	fail "accepted without BTF: $out"
echo "$out" | grep -q "no kernel BTF: /nonexistent: No such file or directory" ||
	fail "the missing BTF file not named: $out"

# A global function is verified on its own: its rejection names it, the source line of the
# failing instruction comes first (the object is built with -g), -v shows lines on the path.
gobj=$BUILD/tests/bpf/verifier_global.o
out=$($NETBPF prog verify "$gobj" program bad_mem_arg_unchecked 2>&1) && fail "bad global accepted"
echo "$out" | grep -q "^Validating g_read() func#1\.\.\.$" || fail "no function named: $out"
echo "$out" | grep -q "^; return \*p; @ verifier_global\.c:[0-9]*$" || fail "no source line: $out"
echo "$out" | grep -q "^R1 invalid mem access 'mem_or_null'$" || fail "no reason: $out"
out=$($NETBPF prog verify "$gobj" program bad_nonnull_null 2>&1) && fail "NULL for nonnull accepted"
echo "$out" | grep -q "^Caller passes invalid args into func#1 ('g_read_nonnull')$" ||
	fail "no caller's reason: $out"
out=$($NETBPF prog verify "$gobj" program bad_stale_pkt_after_pull -v 2>&1) && fail "stale accepted"
echo "$out" | grep -q "^; g_pull(skb); @ verifier_global\.c:[0-9]*$" ||
	fail "no line on the path: $out"
out=$($NETBPF prog verify "$gobj" program ok_global_calls_global -v 2>&1) || fail "rejected: $out"
echo "$out" | grep -q "^Func#1 ('g_twice') is safe for any args that match its prototype$" ||
	fail "no verdict for the global function: $out"

# Usage errors.
$NETBPF prog verify >/dev/null 2>&1; [ $? -eq 2 ] || fail "no usage error without OBJ"
$NETBPF prog verify "$obj" sec >/dev/null 2>&1; [ $? -eq 2 ] || fail "no usage error for sec"
out=$($NETBPF prog verify "$obj" sec no_such_prog 2>&1) && fail "missing section accepted"
echo "$out" | grep -q "no program in section no_such_prog" || fail "no message: $out"
echo "prog verify: $n objects verified, rejection and -v logs as expected"
