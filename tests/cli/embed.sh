#!/bin/bash
# examples/embed/ built the way an embedder builds it: against `make install DESTDIR=...` (the
# staged install in $NB_BUILD/stage that make check makes), with `pkg-config --cflags --libs
# netbpf`, then run: a generator, a tc program from an object, a sink, a map read back. The same
# program linked with libnetbpf.a the ordinary way, and a C++ program through netbpf.h. The
# libraries export nothing but nb_ names.
. "$(dirname "$0")/lib.sh"
SRC=$(cd "$(dirname "$0")/../.." && pwd)
STAGE=$BUILD/stage

pc=$(find "$STAGE" -name netbpf.pc 2>/dev/null | head -1)
[ -n "$pc" ] || skip "no staged install in $STAGE (make stage; sanitizer builds have none)"
for c in pkg-config cc clang nm readelf; do
	command -v $c >/dev/null || skip "$c is missing"
done
export PKG_CONFIG_PATH=$(dirname "$pc") PKG_CONFIG_SYSROOT_DIR=$STAGE
pkg-config --exists netbpf || fail "pkg-config does not know netbpf"
libdir=$(dirname "$(dirname "$pc")")
nb_tmp

# The exported names: every defined dynamic symbol of the .so, every global of the .a, is nb_.
nm -D --defined-only "$libdir/libnetbpf.so" > "$tmp/dynsym" || fail "nm -D libnetbpf.so"
others=$(awk '$3 !~ /^nb_/' "$tmp/dynsym")
[ -z "$others" ] || fail "libnetbpf.so exports names without nb_: $(echo $others | head -c 400)"
[ "$(wc -l < "$tmp/dynsym")" -gt 100 ] || fail "libnetbpf.so exports almost nothing"
others=$(nm -g --defined-only "$libdir/libnetbpf.a" | awk 'NF == 3 && $3 !~ /^nb_/')
[ -z "$others" ] || fail "libnetbpf.a has globals without nb_: $(echo $others | head -c 400)"
readelf -d "$libdir/libnetbpf.so" | grep -q 'SONAME.*libnetbpf\.so\.[0-9]' ||
	fail "libnetbpf.so has no versioned soname"

# The BPF program, compiled as for the kernel.
clang -O2 -g -target bpf -I/usr/include/$(cc -dumpmachine) \
	-c "$SRC/examples/embed/count_redirect.bpf.c" -o "$tmp/count_redirect.bpf.o" ||
	fail "clang count_redirect.bpf.c"

# Against libnetbpf.so, as pkg-config says.
cc -std=gnu11 -Wall -Wextra -Werror -o "$tmp/embed" "$SRC/examples/embed/embed.c" \
	$(pkg-config --cflags --libs netbpf) || fail "cc embed.c against libnetbpf.so"
readelf -d "$tmp/embed" | grep -q 'NEEDED.*libnetbpf\.so' || fail "embed is not linked with libnetbpf.so"
out=$(LD_LIBRARY_PATH=$libdir "$tmp/embed" "$tmp/count_redirect.bpf.o" 1000 2>&1) ||
	fail "embed exited $?: $out"
[ "$out" = "counted 1000 packets 64000 bytes, sink sent 1000 packets" ] || fail "embed: $out"

# Against libnetbpf.a the ordinary way (no --whole-archive): every kind is there all the same.
# Its dependencies are shared (Debian has no static libsystemd, which libpcap's would need).
deps=$(pkg-config --print-requires-private netbpf)
cc -std=gnu11 -Wall -Wextra -Werror -o "$tmp/embed-static" "$SRC/examples/embed/embed.c" \
	$(pkg-config --cflags --libs-only-L netbpf) -l:libnetbpf.a $(pkg-config --libs $deps) \
	-lm -pthread || fail "cc embed.c against libnetbpf.a"
! readelf -d "$tmp/embed-static" | grep -q 'NEEDED.*libnetbpf' ||
	fail "embed-static needs libnetbpf.so"
out=$("$tmp/embed-static" "$tmp/count_redirect.bpf.o" 300 2>&1) ||
	fail "embed-static exited $?: $out"
[ "$out" = "counted 300 packets 19200 bytes, sink sent 300 packets" ] ||
	fail "embed-static: $out"

# netbpf.h from C++: the headers parse as C++ and declare C linkage.
if command -v c++ >/dev/null; then
	cat > "$tmp/cxx.cc" <<'CXX'
#include <netbpf/netbpf.h>
#include <cstdio>

int main()
{
	struct nb_log log = {};
	struct nb_dev *dev;
	int err = nb_dev_create("c++0", 0, &dev, &log);

	std::printf("%d %s\n", err, err ? nb_log_text(&log) : nb_dev_name(dev));
	nb_log_free(&log);
	return err != 0;
}
CXX
	c++ -Wall -Wextra -Werror -o "$tmp/cxx" "$tmp/cxx.cc" $(pkg-config --cflags --libs netbpf) ||
		fail "c++ against netbpf.h"
	out=$(LD_LIBRARY_PATH=$libdir "$tmp/cxx" 2>&1) || fail "c++ program exited $?: $out"
	[ "$out" = "0 c++0" ] || fail "c++ program: $out"
fi
echo "PASS: embed"
