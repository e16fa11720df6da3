#!/bin/bash
# netbpf diff on what older toolchains and careless programs give it: an object of an old clang
# (no BTF at all, iproute2's `maps` section of struct bpf_elf_map, which libbpf 1.x cannot
# open) is loaded into the kernel as iproute2 loads it and compared; a program the kernel's
# verifier refuses (loaded by netbpf with --unsafe-no-verify) is named with the verifier's last
# lines, on the libbpf path and on iproute2's, instead of a bare errno; a `maps` section netbpf
# cannot read is an error naming the file and the section.
. "$(dirname "$0")/lib.sh"
for c in clang cc llvm-readelf; do
	command -v $c >/dev/null || { echo "SKIPPED: $c is missing"; exit 77; }
done
nb_tmp

# An old clang's object: no -g, so no .BTF or .BTF.ext; the map in iproute2's `maps` section.
cat > "$tmp/old.c" <<'EOF'
#include <linux/bpf.h>
#include <linux/pkt_cls.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

#include "iproute2_compat.h"

struct bpf_elf_map __section("maps") lens = {
	.type = BPF_MAP_TYPE_ARRAY,
	.size_key = sizeof(__u32),
	.size_value = sizeof(__u64),
	.max_elem = 2,
};

__section("classifier")
int count_len(struct __sk_buff *skb)
{
	__u32 k = skb->protocol == bpf_htons(0x0800);
	__u64 *v = bpf_map_lookup_elem(&lens, &k);

	if (v)
		__sync_fetch_and_add(v, skb->len);
	return TC_ACT_OK;
}

#ifdef REFUSED
/* Reads byte 23 without checking the packet's length: the kernel's verifier refuses it. */
__section("refused")
int no_bounds_check(struct __sk_buff *skb)
{
	unsigned char *data = (void *)(long)skb->data;

	return data[23] == 17 ? TC_ACT_SHOT : TC_ACT_OK;
}
#endif

char _license[] __section("license") = "GPL";
EOF
cflags="-O2 -Wall -Werror -target bpf -I$PWD/examples -I/usr/include/$(cc -dumpmachine)"
clang $cflags -c "$tmp/old.c" -o "$tmp/old.o" || fail "clang old.c"
clang $cflags -DREFUSED -c "$tmp/old.c" -o "$tmp/refused.o" || fail "clang old.c -DREFUSED"
! llvm-readelf -S "$tmp/old.o" | grep -q '\.BTF' || fail "old.o has BTF: not an old clang's"

out=$($NETBPF diff "$tmp/old.o" --pcap-in tests/data/packets.pcap 2>&1)
rc=$?
skip_unless_bpf_permitted $rc "$out"
[ $rc -eq 0 ] || fail "old.o exited $rc: $out"
echo "$out" | grep -q "libbpf cannot open $tmp/old.o: the kernel side is loaded as iproute2" ||
	fail "old.o: no note of iproute2's way: $out"
echo "$out" | grep -q '^packets 31  identical 31  different 0  maps 1  map differences 0$' ||
	fail "old.o summary: $out"
# The map is compared for real: preloaded differently on one side only it differs. (--map loads
# both sides, so the same file on both gives no difference: checked here as the control.)
printf 'key 1 0 0 0 value 1 0 0 0 0 0 0 0\n' > "$tmp/lens.txt"
out=$($NETBPF diff "$tmp/old.o" --pcap-in tests/data/packets.pcap --map "lens=$tmp/lens.txt" 2>&1) ||
	fail "old.o --map: $out"
echo "$out" | grep -q 'maps 1  map differences 0$' || fail "old.o --map: $out"

# The kernel refuses a program netbpf was told not to verify: its name, its section, the
# file, and the verifier's reason, on iproute2's path (the legacy maps section) ...
out=$($NETBPF --unsafe-no-verify diff "$tmp/refused.o" sec refused --pcap-in tests/data/packets.pcap 2>&1)
rc=$?
[ $rc -eq 2 ] || fail "refused.o exited $rc, not 2: $out"
echo "$out" | grep -q 'cannot load program no_bounds_check (section refused) as sched_cls: Permission denied' ||
	fail "refused.o: the program is not named: $out"
echo "$out" | grep -q 'invalid access to packet' || fail "refused.o: no verifier log: $out"
echo "$out" | grep -q 'not permitted' && fail "refused.o: a refusal called a permission: $out"
# ... and on libbpf's (an object with BTF maps).
out=$($NETBPF --unsafe-no-verify diff $B/tests/bpf/verifier_c.o program bad_tc_no_bounds_check \
	--pcap-in tests/data/packets.pcap 2>&1)
rc=$?
[ $rc -eq 2 ] || fail "verifier_c.o exited $rc, not 2: $out"
echo "$out" | grep -q "cannot load program bad_tc_no_bounds_check (section tc) of $B/tests/bpf/verifier_c.o as sched_cls: Permission denied" ||
	fail "verifier_c.o: the program is not named: $out"
echo "$out" | grep -q 'R1 offset is outside of the packet' || fail "verifier_c.o: no verifier log: $out"
echo "$out" | grep -q '^netbpf:   processed [0-9]* insns' || fail "verifier_c.o: not the log's end: $out"
# The sibling the kernel refuses does not stop the chosen program (only it is loaded).
out=$($NETBPF --unsafe-no-verify diff "$tmp/refused.o" sec classifier \
	--pcap-in tests/data/packets.pcap 2>&1) || fail "refused.o sec classifier: $out"
echo "$out" | grep -q '^packets 31  identical 31  different 0  maps 1  map differences 0$' ||
	fail "refused.o sec classifier: $out"

# A `maps` section of entries no loader defines (12 bytes each): the file and the section.
cat > "$tmp/badmaps.c" <<'EOF'
#include <linux/bpf.h>

struct odd { unsigned int type, key, value; };
struct odd __attribute__((section("maps"), used)) m = { BPF_MAP_TYPE_ARRAY, 4, 8 };

__attribute__((section("classifier"), used))
int cls(struct __sk_buff *skb)
{
	return 0;
}

char _license[] __attribute__((section("license"), used)) = "GPL";
EOF
clang $cflags -c "$tmp/badmaps.c" -o "$tmp/badmaps.o" || fail "clang badmaps.c"
out=$($NETBPF diff "$tmp/badmaps.o" --pcap-in tests/data/packets.pcap 2>&1)
rc=$?
[ $rc -eq 1 ] || [ $rc -eq 2 ] || fail "badmaps.o exited $rc: $out"
echo "$out" | grep -q "$tmp/badmaps.o: section maps: " ||
	fail "badmaps.o: the file and the section are not named: $out"
echo "diff_legacy: ok"
