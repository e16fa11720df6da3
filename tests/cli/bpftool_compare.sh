#!/bin/bash
# netbpf's bpftool words held to the kernel's bpftool on the same object: a program with a hash
# map of struct key and value (a string, a bitfield, an enum, an array, a union, a nested
# struct, a pointer), a per-CPU array, a device map (no BTF) and global data (.data, .rodata,
# .bss), loaded into the kernel by bpftool and into netbpf by a script, the same elements
# written into both; then prog show, map show (text and -j), map dump (text: BTF's typed form,
# bytes for the map without BTF; -j with BTF's "formatted" form) and map lookup's typed form,
# compared line by line and as parsed JSON (compare_lib.sh). Normalised, each for its reason:
#   - program, map and BTF ids, the order of map_ids: each side numbers and orders its own;
#     the load time: each side loads at its own time (compare_prog_show checks its order);
#   - a map's btf_id: each side's that of its program's BTF becomes PROG, so a map's must be
#     its program's (the object's one BTF object); xlated and jited sizes: each side's fixups
#     and JIT are its own (compare_prog_show);
#   - netbpf's addition to prog show's JSON, verified_insns (README).
# Then prog dump xlated (text, opcodes, linum, -j) of programs whose instructions both sides'
# fixups leave alike (below); map show's memlock (the kernel's map_mem_usage) of every common map
# type, with elements where the figure grows with them, and a program array's owner (its
# owner_prog_type line, and in -j); and prog show's memlock of programs of
# one page and of two, with and without the kernel's BTF (NETBPF_VMLINUX_BTF=). Not compared,
# left in the README's list: the xlated listings of programs whose fixups differ.
# Root, bpftool, clang and bpffs only (exit 77 otherwise). Differences print as "DIFF WHAT".
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/compare_lib.sh"
compare_need_root
for c in bpftool clang cc; do need $c; done
[ -d /sys/fs/bpf ] && mountpoint -q /sys/fs/bpf || skip "no bpffs at /sys/fs/bpf"
pin=/sys/fs/bpf/nbbtfcmp$$
cleanup() { rm -f "$pin" "${pin}_long"; }
nb_tmp

cat > "$tmp/btfcmp.c" <<'EOF'
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

enum color { RED, GREEN = 5, BLUE = -1 };

struct flow_key {
	char ifname[8];
	__u16 port;
	__u8 proto;
	__u8 flags : 3, prio : 5;
	__s32 delta;
};

struct flow_val {
	__u64 packets;
	enum color color;
	__u8 mac[6];
	_Bool seen;
	union {
		__u32 addr;
		__u8 octets[4];
	} u;
	struct { __u16 lo, hi; } range;
	void *ptr;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, struct flow_key);
	__type(value, struct flow_val);
	__uint(max_entries, 8);
} flows SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__type(key, __u32);
	__type(value, __s64);
	__uint(max_entries, 2);
} per_cpu SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_DEVMAP);
	__uint(key_size, 4);
	__uint(value_size, 4);
	__uint(max_entries, 4);
} ports SEC(".maps");

__u64 counter = 7;
volatile const char greeting[6] = "hello";
__s16 neg[3];

SEC("xdp")
int btfcmp(struct xdp_md *ctx)
{
	struct flow_key k = {};
	struct flow_val *v = bpf_map_lookup_elem(&flows, &k);
	__u32 zero = 0;
	__s64 *c = bpf_map_lookup_elem(&per_cpu, &zero);

	if (c)
		*c += greeting[0];
	counter += neg[1];
	if (v)
		v->packets++;
	return bpf_redirect_map(&ports, 0, XDP_PASS);
}

char _license[] SEC("license") = "GPL";
EOF
clang -O2 -g -Wall -Werror -target bpf -I/usr/include/$(cc -dumpmachine) -c "$tmp/btfcmp.c" \
	-o "$tmp/btfcmp.o" || fail "clang btfcmp.c"
obj=$tmp/btfcmp.o

# The elements both sides get: a flow (eth0, port 80, TCP, flags 3, prio 5, delta -2 -> 10
# packets, GREEN, a MAC, seen, 192.168.0.1, range 1-2), a per-CPU count, a negative in .bss.
updates=(
	"flows key hex 65 74 68 30 00 00 00 00 50 00 06 2b fe ff ff ff value hex 0a 00 00 00 00 00 00 00 05 00 00 00 02 00 00 00 00 01 01 00 c0 a8 00 01 01 00 02 00 00 00 00 00 00 00 00 00 00 00 00 00"
	"per_cpu key 1 0 0 0 value hex ff ff ff ff ff ff ff ff"
	".bss key 0 0 0 0 value hex 00 00 fe ff 00 00"
)

# the kernel
bpftool prog load "$obj" "$pin" type xdp || fail "bpftool cannot load $obj"
kprog=$(bpftool -j prog show pinned "$pin" | json 'print(d["id"])')
declare -A kmap
for id in $(bpftool -j prog show id "$kprog" | json 'print(*d["map_ids"])'); do
	name=$(bpftool -j map show id "$id" | json 'print(d["name"])')
	kmap[${name#btfcmp}]=$id
done
for u in "${updates[@]}"; do
	set -- $u
	m=$1
	shift
	bpftool map update id "${kmap[$m]}" "$@" || fail "bpftool map update $u"
done

# netbpf: the same, in a script per command
{
	echo "link add g0 type gen count 0"
	echo "ip link set dev g0 xdp obj $obj"
	for u in "${updates[@]}"; do echo "map update name $u"; done
} > "$tmp/setup.tc"
ids='^[0-9]+: =>ID: '

compare_prog_show "$kprog"

# A map's btf_id is its object's BTF, the one its program shows: each side's btf_id of its
# program becomes PROG (-1 in JSON), so another id, or none, differs.
prog_btf() {	# PROG_SHOW_JSON_FILE: the program's btf_id
	json 'print(d["btf_id"])' < "$1"
}
norm_btf() {	# FILE BTF_ID
	sed -Ei "s/(\"?btf_id\"?:? *)$2([^0-9]|\$)/\1-1\2/" "$1"
}
bpftool -j prog show id "$kprog" > "$tmp/k"
kbtf=$(prog_btf "$tmp/k")
compare_nbj prog show id 1 > "$tmp/n"
nbtf=$(prog_btf "$tmp/n")
[ "$kbtf" -gt 0 ] && [ "$nbtf" -gt 0 ] || fail "prog show: no btf_id ($kbtf, $nbtf)"

# global data as libbpf names it (btfcmp.data), found by its section's name (.data)
for m in flows per_cpu ports .data .rodata .bss; do
	bpftool map show id "${kmap[$m]}" > "$tmp/k"
	compare_nb map show name $m > "$tmp/n"
	norm_btf "$tmp/k" "$kbtf"
	norm_btf "$tmp/n" "$nbtf"
	compare_text "map show $m" "$tmp/k" "$tmp/n" "$ids"
	bpftool -j map show id "${kmap[$m]}" > "$tmp/k"
	compare_nbj map show name $m > "$tmp/n"
	norm_btf "$tmp/k" "$kbtf"
	norm_btf "$tmp/n" "$nbtf"
	compare_json "map show $m (JSON)" "$tmp/k" "$tmp/n" zero:id
	bpftool -j map dump id "${kmap[$m]}" > "$tmp/k"
	compare_nbj map dump name $m > "$tmp/n"
	compare_json "map dump $m (JSON)" "$tmp/k" "$tmp/n"
	# text: the typed form of a map with BTF (bare hex, a null pointer as "(nil)"), bytes and
	# a count of the map without
	bpftool map dump id "${kmap[$m]}" > "$tmp/k"
	compare_nb map dump name $m > "$tmp/n"
	compare_text "map dump $m" "$tmp/k" "$tmp/n"
done
set -- ${updates[0]}
bpftool map lookup id "${kmap[flows]}" "${@:2:18}" > "$tmp/k"
compare_nb map lookup name flows "${@:2:18}" > "$tmp/n"
compare_text "map lookup flows" "$tmp/k" "$tmp/n"
# An object whose name libbpf cuts to 8 characters and cleans of what the kernel refuses in a
# map name (btf-compare.x.o: btf_comp.data), and a section of static variables only (.bss). That
# one is not BPF_F_MMAPABLE in libbpf 1.1 and later (no skeleton reaches static variables), which
# Debian's tc and ip load with and netbpf follows (tests/kernel/test_elf_kernel.c holds it to
# libbpf), but Debian's bpftool 7.1 carries kernel 6.1's older libbpf, which makes every global
# data map mmapable: the flag of that one map is normalised, and its memlock, which counts an
# mmapable array's pages.
cat > "$tmp/static.c" <<'EOF'
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

static __u64 hits;
__u32 seen = 1;

SEC("xdp")
int statics(struct xdp_md *ctx)
{
	hits++;
	seen++;
	return hits ? XDP_PASS : XDP_DROP;
}

char _license[] SEC("license") = "GPL";
EOF
long=$tmp/btf-compare.x.o
clang -O2 -g -Wall -Werror -target bpf -I/usr/include/$(cc -dumpmachine) -c "$tmp/static.c" \
	-o "$long" || fail "clang static.c"
bpftool prog load "$long" "${pin}_long" type xdp || fail "bpftool cannot load $long"
lprog=$(bpftool -j prog show pinned "${pin}_long" | json 'print(d["id"])')
bpftool -j prog show id "$lprog" > "$tmp/k"
kbtf=$(prog_btf "$tmp/k")
printf '%s\n' "link add g1 type gen count 0" "ip link set dev g1 xdp obj $long" > "$tmp/long.tc"
lmaps=0
for id in $(bpftool -j prog show id "$lprog" | json 'print(*d["map_ids"])'); do
	bpftool map show id "$id" > "$tmp/k"
	name=$(sed -n 's/.*  name \([^ ]*\)  .*/\1/p' "$tmp/k")
	{ cat "$tmp/long.tc"; echo "map show name $name"; } > "$tmp/cmd.tc"
	$NETBPF -batch "$tmp/cmd.tc" > "$tmp/n"
	{ cat "$tmp/long.tc"; echo "prog show id 1"; } > "$tmp/cmd.tc"
	$NETBPF -j -batch "$tmp/cmd.tc" | json 'print(json.dumps(d[-1]))' > "$tmp/np"
	norm_btf "$tmp/k" "$kbtf"
	norm_btf "$tmp/n" "$(prog_btf "$tmp/np")"
	static_flags=()
	case $name in *.bss) static_flags=('flags 0x400$=>flags 0x0' '  memlock [0-9]+B$=>') ;; esac
	compare_text "map show $name" "$tmp/k" "$tmp/n" "$ids" "${static_flags[@]}"
	lmaps=$((lmaps + 1))
done
[ "$lmaps" -eq 2 ] || fail "$long: $lmaps maps, expected .data and .bss"
rm -f "${pin}_long"

# The typed form is not read from the bytes alone: a wrong field fails (the control).
compare_nbj map dump name flows |
	grep -q '"ifname": "eth0", "port": 80, "proto": 6, "flags": "0x3", "prio": "0x5", "delta": -2' ||
	fail "map dump flows: the key's typed form: $(compare_nbj map dump name flows)"

# prog dump xlated, of programs of tests/bpf and examples/ whose instructions the kernel's fixups
# and netbpf's leave alike (no context field whose layout differs, no map lookup or helper the
# kernel calls a function of its own for: README): loaded into the kernel by bpftool loadall,
# into netbpf by tc and ip in a script (prog dump xlated name N, the datapath's programs) or,
# for socket filters, which nothing attaches there, as an object (prog dump xlated OBJ).
# Normalised: map ids; a subprogram call's JIT symbol (bpftool's "call pc+5#bpf_prog_TAG_F":
# netbpf has no kernel symbols); a helper call's imm, the kernel function's address there, the
# helper's id in netbpf (bpf_skb_load_bytes#26), in the text and in opcodes' bytes (under -j
# the imm bytes of a listing with helper calls are left out).
xl=/sys/fs/bpf/nbxlated$$
cleanup() { rm -f "$pin" "${pin}_long"; rm -rf "$xl"; }
xlated_rules=('map\[id:[0-9]+\]=>map[id:M]' '(call pc[+-][0-9]+)#bpf_prog_[0-9a-f]+_.*=>\1'
	'(call [a-z_0-9]+)#-?[0-9]+$=>\1#IMM' '^       85 00 00 00 .. .. .. ..$=>       85 00 00 00 IMM')
xl_obj=
# A listing is never empty: two empty texts would compare equal, whatever netbpf printed. Its
# callers send stdout to a file: a failure is told on stderr.
kernel_xlated() {	# OBJ NAME [OPTIONS...]: the kernel's listing of OBJ's program NAME
	local obj=$1 name=$2 out
	shift 2
	if [ "$xl_obj" != "$obj" ]; then	# each object loaded once
		rm -rf "$xl"
		bpftool prog loadall "$obj" "$xl" >/dev/null 2>&1 || fail "bpftool loadall $obj" >&2
		xl_obj=$obj
	fi
	out=$(bpftool ${XLATED_J:+-j} prog dump xlated pinned "$xl/$name" "$@") && [ -n "$out" ] ||
		fail "bpftool prog dump xlated of $name in $obj ($*) lists nothing" >&2
	echo "$out"
}
live=(	# OBJ SETUP NAME: netbpf's side in a script
	"$B/tests/bpf/tunnel_key.o|tc qdisc add dev g0 clsact;tc filter add dev g0 ingress bpf da obj $B/tests/bpf/tunnel_key.o sec tc|tunnel_key_tc"
	"$B/examples/xdp_swap_mac_tx.o|ip link set dev g0 xdp obj $B/examples/xdp_swap_mac_tx.o sec xdp|xdp_swap_mac_tx"
	"$B/examples/xdp_meta_mark.o|ip link set dev g0 xdp obj $B/examples/xdp_meta_mark.o sec xdp|xdp_meta_tag"
)
for c in "${live[@]}"; do
	IFS='|' read -r obj words name <<< "$c"
	{ echo "link add g0 type gen count 0"; tr ';' '\n' <<< "$words"; } > "$tmp/setup.tc"
	for opts in "" opcodes linum; do
		kernel_xlated "$obj" "$name" $opts > "$tmp/k"
		compare_nb prog dump xlated name "$name" $opts > "$tmp/n"
		compare_text "prog dump xlated $name $opts" "$tmp/k" "$tmp/n" "${xlated_rules[@]}"
	done
	for opts in opcodes linum; do
		XLATED_J=1 kernel_xlated "$obj" "$name" $opts > "$tmp/k"
		compare_nbj prog dump xlated name "$name" $opts > "$tmp/n"
		compare_json "prog dump xlated $name $opts (JSON)" "$tmp/k" "$tmp/n" ordered \
			"sub:disasm:${xlated_rules[0]}" "sub:disasm:${xlated_rules[2]}" \
			$(grep -q ') call [a-z]' "$tmp/k" && echo drop:imm)
	done
done
for c in elf_globals.o:prog_str elf_self_tail.o:again elf_static_data.o:count_hits; do
	obj=$B/tests/bpf/${c%%:*} name=${c#*:}
	kernel_xlated "$obj" "$name" > "$tmp/k"
	$NETBPF prog dump xlated "$obj" | sed -n "/^$name:\$/,/^\$/p" | sed '1d;/^$/d' > "$tmp/n"
	compare_text "prog dump xlated $obj $name" "$tmp/k" "$tmp/n" "${xlated_rules[@]}"
	XLATED_J=1 kernel_xlated "$obj" "$name" > "$tmp/k"
	$NETBPF -j prog dump xlated "$obj" |
		json "print(json.dumps([p['insns'] for p in d if p['name'] == '$name'][0]))" > "$tmp/n"
	compare_json "prog dump xlated $obj $name (JSON)" "$tmp/k" "$tmp/n" ordered \
		"sub:disasm:${xlated_rules[0]}" "sub:disasm:${xlated_rules[1]}" \
		"sub:disasm:${xlated_rules[2]}"
done
rm -rf "$xl"

# map show's memlock, the kernel's map_mem_usage, for the common map types: each type's kernel
# struct and slots, a hash's buckets, spares and per-CPU values, and for the types that allocate
# as they go (hashes without preallocation, devmap_hash, LPM tries) the elements written.
cat > "$tmp/memlock.c" <<'EOF'
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define MAP(n, t, k, v, e, f)				\
	struct {					\
		__uint(type, t);			\
		__type(key, k);				\
		__type(value, v);			\
		__uint(max_entries, e);			\
		__uint(map_flags, f);			\
	} n SEC(".maps")
#define MAP_SIZED(n, t, k, v, e)			\
	struct {					\
		__uint(type, t);			\
		__uint(key_size, k);			\
		__uint(value_size, v);			\
		__uint(max_entries, e);			\
	} n SEC(".maps")

struct odd { char c[13]; };
struct key16 { __u64 a, b; };
struct val24 { __u64 a, b, c; };
struct lpm_key { __u32 prefixlen; __u8 addr[4]; };

MAP(m_array, BPF_MAP_TYPE_ARRAY, __u32, struct odd, 100, 0);
MAP(m_array_mmap, BPF_MAP_TYPE_ARRAY, __u32, __u64, 1000, BPF_F_MMAPABLE);
MAP(m_pcpu_array, BPF_MAP_TYPE_PERCPU_ARRAY, __u32, struct odd, 100, 0);
MAP(m_hash, BPF_MAP_TYPE_HASH, struct key16, struct val24, 100, 0);
MAP(m_hash_dyn, BPF_MAP_TYPE_HASH, __u32, __u64, 100, BPF_F_NO_PREALLOC);
MAP(m_pcpu_hash, BPF_MAP_TYPE_PERCPU_HASH, __u32, __u64, 100, 0);
MAP(m_pcpu_dyn, BPF_MAP_TYPE_PERCPU_HASH, __u32, __u64, 100, BPF_F_NO_PREALLOC);
MAP(m_lru, BPF_MAP_TYPE_LRU_HASH, __u32, __u64, 100, 0);
MAP(m_lru_pcpu, BPF_MAP_TYPE_LRU_PERCPU_HASH, __u32, __u64, 100, 0);
MAP(m_lpm, BPF_MAP_TYPE_LPM_TRIE, struct lpm_key, __u64, 100, BPF_F_NO_PREALLOC);
MAP_SIZED(m_prog_array, BPF_MAP_TYPE_PROG_ARRAY, 4, 4, 10);
MAP_SIZED(m_devmap, BPF_MAP_TYPE_DEVMAP, 4, 4, 64);
MAP_SIZED(m_devmap_hash, BPF_MAP_TYPE_DEVMAP_HASH, 4, 4, 10);
MAP_SIZED(m_cpumap, BPF_MAP_TYPE_CPUMAP, 4, 4, 4);
MAP_SIZED(m_queue, BPF_MAP_TYPE_QUEUE, 0, 8, 10);
struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 65536);
} m_ringbuf SEC(".maps");

/* every map used, so that a loader that creates only the program's maps creates them all */
#define USE(m) asm volatile("" :: "r"(&m))

SEC("xdp")
int memlock(struct xdp_md *ctx)
{
	USE(m_array); USE(m_array_mmap); USE(m_pcpu_array); USE(m_hash); USE(m_hash_dyn);
	USE(m_pcpu_hash); USE(m_pcpu_dyn); USE(m_lru); USE(m_lru_pcpu); USE(m_lpm);
	USE(m_prog_array); USE(m_devmap); USE(m_devmap_hash); USE(m_cpumap); USE(m_queue);
	USE(m_ringbuf);
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
EOF
clang -O2 -g -Wall -Werror -target bpf -I/usr/include/$(cc -dumpmachine) -c "$tmp/memlock.c" \
	-o "$tmp/memlock.o" || fail "clang memlock.c"
rm -rf "$xl"
bpftool prog loadall "$tmp/memlock.o" "$xl" pinmaps "$xl/maps" >/dev/null 2>&1 ||
	fail "bpftool loadall memlock.o"
bpftool -j prog show pinned "$xl/memlock" > "$tmp/k"
kbtf=$(prog_btf "$tmp/k")
memlock_updates=(
	"m_hash_dyn key 1 0 0 0 value 1 0 0 0 0 0 0 0"
	"m_hash_dyn key 2 0 0 0 value 2 0 0 0 0 0 0 0"
	"m_hash_dyn key 3 0 0 0 value 3 0 0 0 0 0 0 0"
	"m_pcpu_dyn key 1 0 0 0 value 1 0 0 0 0 0 0 0"
	"m_pcpu_dyn key 2 0 0 0 value 2 0 0 0 0 0 0 0"
	"m_lpm key 24 0 0 0 10 0 1 0 value 1 0 0 0 0 0 0 0"
	"m_lpm key 24 0 0 0 10 0 2 0 value 2 0 0 0 0 0 0 0"
	"m_devmap_hash key 1 0 0 0 value 1 0 0 0"
)
for u in "${memlock_updates[@]}"; do
	set -- $u
	m=$1
	shift
	bpftool map update pinned "$xl/maps/$m" "$@" || fail "bpftool map update $u"
done
{
	echo "link add g0 type gen count 0"
	echo "ip link set dev g0 xdp obj $tmp/memlock.o"
	for u in "${memlock_updates[@]}"; do echo "map update name $u"; done
} > "$tmp/setup.tc"
compare_nbj prog show id 1 > "$tmp/n"
nbtf=$(prog_btf "$tmp/n")
for m in m_array m_array_mmap m_pcpu_array m_hash m_hash_dyn m_pcpu_hash m_pcpu_dyn m_lru \
	 m_lru_pcpu m_lpm m_prog_array m_devmap m_devmap_hash m_cpumap m_queue m_ringbuf; do
	bpftool map show pinned "$xl/maps/$m" > "$tmp/k"
	compare_nb map show name $m > "$tmp/n"
	norm_btf "$tmp/k" "$kbtf"
	norm_btf "$tmp/n" "$nbtf"
	compare_text "map show $m (memlock)" "$tmp/k" "$tmp/n" "$ids"
done
# the owner the program claimed at load, in JSON (the text is above): type and JIT state
bpftool -j map show pinned "$xl/maps/m_prog_array" > "$tmp/k"
compare_nbj map show name m_prog_array > "$tmp/n"
grep -q '"owner_prog_type":"xdp","owner_jited":true' "$tmp/k" ||
	fail "bpftool shows no owner of m_prog_array: $(cat "$tmp/k")"
compare_json "map show m_prog_array (JSON)" "$tmp/k" "$tmp/n" zero:id
# the typed form of an empty map ("[]", no count) and of an array of a hundred structs
for m in m_hash m_array; do
	bpftool map dump pinned "$xl/maps/$m" > "$tmp/k"
	compare_nb map dump name $m > "$tmp/n"
	compare_text "map dump $m" "$tmp/k" "$tmp/n"
done
rm -rf "$xl"

# prog show's memlock: the pages of the kernel's struct bpf_prog and the instructions after it,
# the struct's size read from the kernel's BTF (without it, 6.18's). 500 instructions fill a
# page exactly and 501 take a second: a size off by 8 bytes either way differs in one of them.
cat > "$tmp/big.c" <<'EOF'
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

SEC("xdp")
int fills_page(struct xdp_md *ctx)
{
	asm volatile(".rept 498\n r0 = 0\n .endr" ::: "r0");
	return XDP_PASS;
}

SEC("xdp")
int spills_page(struct xdp_md *ctx)
{
	asm volatile(".rept 499\n r0 = 0\n .endr" ::: "r0");
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
EOF
clang -O2 -Wall -Werror -target bpf -I/usr/include/$(cc -dumpmachine) -c "$tmp/big.c" \
	-o "$tmp/big.o" || fail "clang big.c"
rm -rf "$xl"
bpftool prog loadall "$tmp/big.o" "$xl" >/dev/null 2>&1 || fail "bpftool loadall big.o"
for name in fills_page spills_page; do
	bpftool prog show pinned "$xl/$name" | grep -o 'xlated .*' > "$tmp/k"
	printf '%s\n' "link add g0 type gen count 0" \
		"ip link set dev g0 xdp obj $tmp/big.o sec xdp program $name" > "$tmp/setup.tc"
	compare_nb prog show name $name | grep -o 'xlated .*' > "$tmp/n"
	compare_text "prog show $name (memlock)" "$tmp/k" "$tmp/n" 'jited [0-9]+B=>jited NB'
	NETBPF_VMLINUX_BTF= compare_nb prog show name $name | grep -o 'xlated .*' > "$tmp/n"
	compare_text "prog show $name (memlock without kernel BTF)" "$tmp/k" "$tmp/n" \
		'jited [0-9]+B=>jited NB'
done
grep -q 'memlock 8192B' "$tmp/k" || fail "spills_page: not two pages: $(cat "$tmp/k")"
rm -rf "$xl"

compare_report "the kernel's bpftool"
