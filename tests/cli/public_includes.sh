#!/bin/bash
# The netbpf command and the benches are built on the public API: they reach the library only
# through include/netbpf (<netbpf/...>), never through a header of its layers (src/bpf, src/pkt,
# src/io, src/net). src/cli includes besides only its own headers, the command layer (src/ctl)
# and the kernel comparison (src/kcompare). A quoted include that breaks this fails the test,
# with the file and line named.
. "$(dirname "$0")/lib.sh"
cd "$(dirname "$0")/../.." || exit 1

# Benches that measure the layers below the public API on purpose, each with its reason:
#   bench/jit.c     the two engines called directly on a memory block (prog->jited against
#                   nb_interp_run), without nb_prog_run's epoch section around them: the
#                   cost of the generated code alone.
#   bench/pkt_io.c  the packet layer's own costs (empty packets from the pool, clones) and the
#                   port backends' bursts called directly, with no device or datapath around.
exempt_bench="bench/jit.c bench/pkt_io.c"
# netbpf bench's kernel column is the benches' kernel baseline (linked into the command from
# bench/kernel_baseline.c): test-side code that drives the running kernel, not the library.
exempt_cli='src/cli/bench_kernel.c:.*"\.\./\.\./bench/kernel_baseline\.h"'

quoted='^[[:space:]]*#[[:space:]]*include[[:space:]]*"'
internal='"(\.\./)*(src/)?(bpf|pkt|io|net)/[^"]*"'

# the patterns themselves: what they must refuse is refused, what they must let through is not
grep -Eq "$internal" <<<'#include "net/dev.h"' || fail "the pattern lets \"net/dev.h\" through"
grep -Eq "$internal" <<<'#include "pkt/pkt.h"' || fail "the pattern lets \"pkt/pkt.h\" through"
grep -Eq "$internal" <<<'#include "../src/io/port.h"' || fail "the pattern lets ../src/io through"
grep -Eq "$internal" <<<'#include "bench.h"' && fail "the pattern refuses \"bench.h\""

[ -d src/cli ] && [ -d bench ] || fail "no src/cli or bench under $PWD"

# src/cli: only cli/, ctl/ and kcompare/ (src/common's internals included)
bad=$(grep -HnE "$quoted" src/cli/*.c src/cli/*.h |
	grep -Ev '#[[:space:]]*include[[:space:]]*"(cli|ctl|kcompare)/' |
	grep -Ev "$exempt_cli")
[ -z "$bad" ] || fail "src/cli reaches past the public API (include/netbpf) and src/ctl:
$bad"
n=$(cat src/cli/*.c src/cli/*.h | grep -c '#[[:space:]]*include[[:space:]]*<netbpf/')
[ "$n" -gt 0 ] || fail "src/cli includes no public header at all"

# bench/: no layer header, but in the files exempt above
bad=""
for f in bench/*.c bench/*.h; do
	hits=$(grep -HnE "$quoted" "$f" | grep -E "$internal")
	case " $exempt_bench " in
	*" $f "*)
		[ -n "$hits" ] || fail "$f is exempt but includes no internal header: drop it from the list"
		;;
	*)
		[ -z "$hits" ] || bad+="$hits"$'\n'
		;;
	esac
done
[ -z "$bad" ] || fail "a bench reaches past the public API (include/netbpf):
${bad%$'\n'}"
nb=$(cat bench/*.c bench/*.h | grep -c '#[[:space:]]*include[[:space:]]*<netbpf/')

# The tc header names no kind in its filter and action structs: a kind's options are its own
# struct behind kind_opts (opaque, as TCA_OPTIONS is to the kernel's cls_api and act_api), so a
# new classifier or action with options adds to no union here. A union in include/netbpf/tc.h
# outside comments fails.
code_unions() {
	python3 -c 'import re, sys
s = re.sub(r"/\*.*?\*/|//[^\n]*", "", sys.stdin.read(), flags=re.S)
print("\n".join(l.strip() for l in s.split("\n") if re.search(r"\bunion\b", l)))'
}
[ -n "$(code_unions <<<'struct a { union { int x; }; };')" ] ||
	fail "the union check lets a union through"
[ -z "$(code_unions <<<'/* a union of */ struct a { int x; };')" ] ||
	fail "the union check counts one in a comment"
u=$(code_unions <include/netbpf/tc.h)
[ -z "$u" ] || fail "include/netbpf/tc.h has a union: a kind's options go behind kind_opts:
$u"

echo "public includes: src/cli $n, bench/ $nb; none of src/bpf, src/pkt, src/io, src/net" \
	"(bench exemptions: $exempt_bench); no per-kind union in include/netbpf/tc.h"
