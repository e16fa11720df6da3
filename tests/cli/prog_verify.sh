#!/bin/bash
# netbpf prog verify: every program of the examples and test objects verifies; a rejection
# names the instruction and the kernel's reason, -v adds the failing path and the register
# states, an acceptance with -v the processed instructions and states.
set -u
NETBPF=${NETBPF:-build/netbpf}
BUILD=${NB_BUILD:-build}
fail() { echo "FAIL: $*"; exit 1; }

# Every object of the project verifies, except verifier_c.o, which holds rejects on purpose, and
# the loader's elf_bad_*.o, which are malformed on purpose (tests/unit/test_elf_bad.c).
n=0
for o in "$BUILD"/examples/*.o "$BUILD"/tests/bpf/*.o; do
	[ -e "$o" ] || continue
	case "$o" in */verifier_c.o | */elf_bad_*.o) continue ;; esac
	out=$($NETBPF prog verify "$o" 2>&1) || fail "$o is rejected: $out"
	echo "$out" | grep -q ": verified$" || fail "$o: no program listed: $out"
	n=$((n + 1))
done
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

# Usage errors.
$NETBPF prog verify >/dev/null 2>&1; [ $? -eq 2 ] || fail "no usage error without OBJ"
$NETBPF prog verify "$obj" sec >/dev/null 2>&1; [ $? -eq 2 ] || fail "no usage error for sec"
out=$($NETBPF prog verify "$obj" sec no_such_prog 2>&1) && fail "missing section accepted"
echo "$out" | grep -q "no program in section no_such_prog" || fail "no message: $out"
echo "prog verify: $n objects verified, rejection and -v logs as expected"
