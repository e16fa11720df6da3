#!/bin/bash
# The layers of src/ hold (DESIGN.md, "Layers"): lowest first
#
#	common < bpf < pkt < io < net < ctl < kcompare < cli
#
# a file of one layer includes headers of its own layer and of the layers below it only, quoted
# ("net/dev.h") or public (<netbpf/dev.h>, owned by the layer that implements it), and its
# object file uses no symbol that an object of a higher layer defines: the symbols catch a call
# upwards that a forward declaration hides from the includes (a cycle such as io/pipe.c calling
# net/dev.c's nb_dev_set_port). Each check is first shown a small tree that breaks it, so that
# a check that refuses nothing fails here too.
. "$(dirname "$0")/lib.sh"
SRC=$(cd "$(dirname "$0")/../.." && pwd)
cd "$SRC" || exit 1

layers="common bpf pkt io net ctl kcompare cli"

# The layer that implements each public header; netbpf.h includes them all. A public header
# not named here fails the check: say where the new one belongs.
declare -A public_owner=(
	[log.h]=common [opts.h]=common
	[btf.h]=bpf [clock.h]=bpf [disasm.h]=bpf [epoch.h]=bpf [helpers.h]=bpf [map.h]=bpf
	[object.h]=bpf [percpu.h]=bpf [perf_event.h]=bpf [prog.h]=bpf [ringbuf.h]=bpf
	[trace.h]=bpf
	[pkt.h]=pkt
	[pcap.h]=io [port.h]=io
	[bridge.h]=net [datapath.h]=net [dev.h]=net [inet.h]=net [neigh.h]=net [route.h]=net
	[tc.h]=net [test_run.h]=net [tunnel.h]=net [worker.h]=net [xdp.h]=net [xsk.h]=net
	[netbpf.h]=cli
)

# "public_owner" as "HEADER LAYER" lines, for awk.
owners() {
	local h
	for h in "${!public_owner[@]}"; do
		echo "$h ${public_owner[$h]}"
	done
}

# The includes of every file under $1/src that name a layer above the file's: one line each,
# "FILE:LINE: includes HEADER (LAYER is above OWN)". Quoted headers outside the layers (the
# file's own directory, ../../bench) and system headers are not the layers' business.
include_violations() {
	(cd "$1" && find src -name '*.[ch]' | sort | xargs grep -nHE \
		'^[[:space:]]*#[[:space:]]*include[[:space:]]*("|<netbpf/)') |
	awk -v layers="$layers" -v owners="$(owners)" '
	BEGIN {
		n = split(layers, l, " ")
		for (i = 1; i <= n; i++)
			rank[l[i]] = i
		m = split(owners, o, "\n")
		for (i = 1; i <= m; i++) {
			split(o[i], f, " ")
			owner[f[1]] = f[2]
		}
	}
	{
		split($0, f, ":")
		file = f[1]; line = f[2]
		split(file, p, "/")
		own = p[2]
		if (!(own in rank)) {
			if (!(file in told))
				printf "%s: in no layer (src/%s is not one of: %s)\n", file, own, layers
			told[file] = 1
			next
		}
		h = $0
		sub(/^[^"<]*["<]/, "", h)
		sub(/[">].*$/, "", h)
		if (h ~ /^netbpf\//) {
			base = substr(h, 8)
			if (!(base in owner)) {
				printf "%s:%s: includes <%s>, a public header layers.sh does not place\n",
				       file, line, h
				next
			}
			hl = owner[base]
		} else {
			if (index(h, "/") == 0)
				next
			hl = substr(h, 1, index(h, "/") - 1)
		}
		if ((hl in rank) && rank[hl] > rank[own])
			printf "%s:%s: includes %s (%s is above %s)\n", file, line, h, hl, own
	}'
}

# The symbols that objects under $1/src use and an object of a higher layer defines, for the
# sources under $2/src: one line each, "SOURCE uses SYMBOL of LAYER (above OWN)". An object
# whose source is gone (a file that moved since the build directory was made) is left out.
symbol_violations() {
	local objs=$1/src o
	(cd "$objs" && find . -name '*.o' | sed 's|^\./||' | sort) | while read -r o; do
		[ -e "$2/src/${o%.o}.c" ] && echo "$o"
	done > "$tmp/objs"
	while read -r o; do
		nm --defined-only -g "$objs/$o" | awk -v l="${o%%/*}" 'NF == 3 {print $3, l}'
	done < "$tmp/objs" | LC_ALL=C sort -u > "$tmp/defs"
	while read -r o; do
		nm -u "$objs/$o" | awk -v o="$o" -v l="${o%%/*}" '{print $NF, o, l}'
	done < "$tmp/objs" | LC_ALL=C sort > "$tmp/uses"
	LC_ALL=C join "$tmp/uses" "$tmp/defs" | awk -v layers="$layers" '
	BEGIN {
		n = split(layers, l, " ")
		for (i = 1; i <= n; i++)
			rank[l[i]] = i
	}
	rank[$4] > rank[$3] {
		src = $2
		sub(/\.o$/, ".c", src)
		printf "src/%s uses %s of %s (above %s)\n", src, $1, $4, $3
	}' | LC_ALL=C sort -u
}

nb_tmp
need nm
need cc

# The checks on a tree that breaks each rule once: every break must be found.
mkdir -p "$tmp/t/src/io" "$tmp/t/src/net" "$tmp/t/src/pkt"
printf '#include "io/port.h"\n#include "net/dev.h"\n#include <netbpf/xdp.h>\n' > "$tmp/t/src/io/a.c"
printf '#include "pkt/pkt.h"\n#include <netbpf/port.h>\n#include "local.h"\n#include <net/if.h>\n' > "$tmp/t/src/net/b.c"
printf '#include <netbpf/new_one.h>\n' > "$tmp/t/src/pkt/c.h"
got=$(include_violations "$tmp/t")
grep -q 'src/io/a.c:2: includes net/dev.h (net is above io)' <<<"$got" ||
	fail "the include check lets io include net/dev.h: $got"
grep -q 'src/io/a.c:3: includes netbpf/xdp.h (net is above io)' <<<"$got" ||
	fail "the include check lets io include <netbpf/xdp.h>: $got"
grep -q 'src/pkt/c.h:1: includes <netbpf/new_one.h>, a public header' <<<"$got" ||
	fail "the include check lets an unplaced public header through: $got"
[ "$(wc -l <<<"$got")" -eq 3 ] || fail "the include check refuses what it should not: $got"

mkdir -p "$tmp/o/src/io" "$tmp/o/src/net" "$tmp/o/build/src/io" "$tmp/o/build/src/net"
echo 'void nb_up(void); void nb_down(void) { nb_up(); }' > "$tmp/o/src/io/down.c"
echo 'void nb_down(void); void nb_up(void) { nb_down(); }' > "$tmp/o/src/net/up.c"
cc -c -o "$tmp/o/build/src/io/down.o" "$tmp/o/src/io/down.c" &&
	cc -c -o "$tmp/o/build/src/net/up.o" "$tmp/o/src/net/up.c" ||
	fail "cc cannot build the check's own objects"
got=$(symbol_violations "$tmp/o/build" "$tmp/o")
[ "$got" = "src/io/down.c uses nb_up of net (above io)" ] ||
	fail "the symbol check does not find io calling up into net: $got"

# The tree itself.
bad=$(include_violations "$SRC")
[ -z "$bad" ] || fail "a file includes a header of a layer above its own ($layers):
$bad"
nfiles=$(find src -name '*.[ch]' | wc -l)

[ -d "$BUILD/src/io" ] && [ -d "$BUILD/src/net" ] ||
	skip "includes hold ($nfiles files); no objects in $BUILD/src to check the symbols of (make)"
bad=$(symbol_violations "$BUILD" "$SRC")
[ -z "$bad" ] || fail "an object uses a symbol of a layer above its own ($layers):
$bad"
nobjs=$(find "$BUILD/src" -name '*.o' | wc -l)
echo "layers hold: $layers; includes of $nfiles files, symbols of $nobjs objects in $BUILD/src"
