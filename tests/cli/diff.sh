#!/bin/bash
# netbpf diff: packets of a pcap file through the running kernel and netbpf, text and JSON
# summaries, --map preloading, and the errors of bad command lines.
. "$(dirname "$0")/lib.sh"
nb_tmp

# A pcap file (little-endian, Ethernet) of two frames: IPv4 UDP and ARP, 60 bytes each.
hdr='\xd4\xc3\xb2\xa1\x02\x00\x04\x00\x00\x00\x00\x00\x00\x00\x00\x00\xff\xff\x00\x00\x01\x00\x00\x00'
rec='\x01\x00\x00\x00\x00\x00\x00\x00\x3c\x00\x00\x00\x3c\x00\x00\x00'
eth='\x02\x00\x00\x00\x00\x02\x02\x00\x00\x00\x00\x01'
ip='\x08\x00\x45\x00\x00\x2e\x12\x34\x40\x00\x40\x11\x00\x00\x0a\x00\x00\x01\x0a\x00\x00\x02'
udp='\x30\x39\x00\x35\x00\x1a\x00\x00'
pad18='\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00'
arp='\x08\x06\x00\x01\x08\x00\x06\x04\x00\x01\x02\x00\x00\x00\x00\x01\x0a\x00\x00\x01'
arp2='\x00\x00\x00\x00\x00\x00\x0a\x00\x00\x02'
printf "$hdr$rec$eth$ip$udp$pad18$rec$eth$arp$arp2$pad18" > "$tmp/in.pcap"

out=$($NETBPF diff $B/examples/xdp_drop_proto.o --pcap-in "$tmp/in.pcap" 2>&1)
rc=$?
skip_unless_bpf_permitted $rc "$out"
[ $rc -eq 0 ] || fail "diff xdp_drop_proto.o exited $rc: $out"
echo "$out" | grep -q '^packets 2  identical 2  different 0  maps 1  map differences 0$' ||
	fail "summary: $out"

out=$($NETBPF diff $B/examples/tc_classifier.o sec classifier --type tc \
	--pcap-in "$tmp/in.pcap" 2>&1) || fail "tc_classifier.o: $out"
echo "$out" | grep -q '^packets 2  identical 2' || fail "tc summary: $out"

# The README's examples on tests/data/packets.pcap.
out=$($NETBPF diff $B/examples/xdp_drop_proto.o --pcap-in tests/data/packets.pcap 2>&1) ||
	fail "README example: $out"
[ "$out" = "packets 31  identical 31  different 0  maps 1  map differences 0" ] ||
	fail "README example: $out"
out=$($NETBPF diff $B/examples/tcbpf1.o program _redirect_xmit --pcap-in tests/data/packets.pcap \
	2>&1) || fail "README example, program: $out"
[ "$out" = "packets 31  identical 31  different 0  maps 0  map differences 0" ] ||
	fail "README example, program: $out"

# An iproute2 object libbpf cannot open (struct bpf_elf_map in "maps", a tail call through the
# "1/0" section): the kernel side is loaded from netbpf's reading, its maps compared.
out=$($NETBPF diff $B/tests/bpf/elf_iproute2.o sec classifier --pcap-in "$tmp/in.pcap" 2>&1) ||
	fail "elf_iproute2.o sec classifier: $out"
echo "$out" | grep -q '^packets 2  identical 2  different 0  maps 2  map differences 0$' ||
	fail "elf_iproute2.o summary: $out"
echo "$out" | grep -q 'libbpf cannot open .*elf_iproute2.o: the kernel side is loaded as' ||
	fail "elf_iproute2.o note: $out"

# Choosing a program: by name alone, by section and name; several without a name is an error.
out=$($NETBPF diff $B/tests/bpf/elf_iproute2.o program xmit --pcap-in "$tmp/in.pcap" 2>&1) ||
	fail "program xmit: $out"
echo "$out" | grep -q '^packets 2  identical 2  different 0  maps 2' || fail "program xmit: $out"
out=$($NETBPF diff $B/tests/bpf/elf_all_maps.o sec socket program use_lpm \
	--pcap-in "$tmp/in.pcap" 2>&1) || fail "sec socket program use_lpm: $out"
echo "$out" | grep -q '^packets 2  identical 2  different 0  maps 9' || fail "use_lpm: $out"
# Only the chosen program (and the tail-call targets the object places) is loaded, on both
# sides: a sibling in its section that cannot load (a kfunc call) is no obstacle.
out=$($NETBPF diff $B/tests/bpf/elf_kfunc_sibling.o sec tc program plain \
	--pcap-in "$tmp/in.pcap" 2>&1) || fail "elf_kfunc_sibling.o program plain: $out"
echo "$out" | grep -q '^packets 2  identical 2  different 0' || fail "kfunc sibling: $out"
out=$($NETBPF diff $B/tests/bpf/elf_all_maps.o sec socket --pcap-in "$tmp/in.pcap" 2>&1)
[ $? -eq 1 ] || fail "several programs: exit status: $out"
echo "$out" | grep -q 'socket holds 7 programs, choose one with program NAME: socket/tail_t' ||
	fail "several programs message: $out"
out=$($NETBPF diff $B/tests/bpf/elf_iproute2.o --pcap-in "$tmp/in.pcap" 2>&1)
[ $? -eq 1 ] || fail "several sections: exit status: $out"
echo "$out" | grep -q 'the object holds 2 programs, .*: classifier/cls_main, redirect_xmit/xmit$' ||
	fail "several sections message: $out"
out=$($NETBPF diff $B/tests/bpf/elf_iproute2.o sec classifier program nope \
	--pcap-in "$tmp/in.pcap" 2>&1)
[ $? -eq 1 ] || fail "program nope: exit status: $out"
echo "$out" | grep -q 'no program nope in section classifier; there are: classifier/cls_main$' ||
	fail "program nope message: $out"

# XDP ctx_in naming ingress_ifindex 1: the kernel's loopback device, netbpf's stand-in for it.
# struct xdp_md: data 0, data_end 60, data_meta 0, ingress_ifindex $1, rx_queue 0, egress 0
xdp_md() { printf '\x00\x00\x00\x00\x3c\x00\x00\x00\x00\x00\x00\x00'; printf "\\x$1"
	   printf '\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00'; }
xdp_md 01 > "$tmp/ctx1.bin"
xdp_md 02 > "$tmp/ctx2.bin"
out=$($NETBPF diff $B/examples/xdp_drop_proto.o --pcap-in "$tmp/in.pcap" --ctx-in "$tmp/ctx1.bin" \
	2>&1) || fail "ingress_ifindex 1: $out"
echo "$out" | grep -q '^packets 2  identical 2  different 0' || fail "ingress_ifindex 1: $out"
# The kernel's test runs happen in a namespace of their own: a device at ifindex 2 where
# netbpf diff runs is not seen (the kernel would accept ingress_ifindex 2, netbpf refuses it).
if unshare -n sh -c 'ip link add nbd0 type veth peer name nbd1' 2>/dev/null; then
	out=$(unshare -n sh -c "ip link add nbd0 type veth peer name nbd1 && ip link set nbd0 up &&
		$NETBPF diff $B/examples/xdp_drop_proto.o --pcap-in $tmp/in.pcap \
		--ctx-in $tmp/ctx2.bin" 2>&1) || fail "ingress_ifindex 2 beside a veth: $out"
	echo "$out" | grep -q '^packets 2  identical 2  different 0' ||
		fail "ingress_ifindex 2 beside a veth: $out"
	echo "$out" | grep -q 'no network namespace' && fail "not in a namespace: $out"
else
	echo "no veth in a new network namespace: the namespace case is not run"
fi

# JSON, and a map preloaded on both sides then compared after the run.
printf '# key, value\nkey 1 0 0 0 value hex 2a 00 00 00 00 00 00 00\n\n' > "$tmp/m.txt"
out=$($NETBPF -j --interp diff $B/tests/bpf/elf_hash.o --pcap-in "$tmp/in.pcap" \
	--map "m=$tmp/m.txt" 2>&1) || fail "elf_hash.o with --map: $out"
echo "$out" | grep -q '"packets":2' || fail "json packets: $out"
echo "$out" | grep -q '"different":0' || fail "json different: $out"
echo "$out" | grep -q '"maps_compared":1' || fail "json maps_compared: $out"

# Differences of every kind: a random number as return value, packet bytes and map value.
out=$($NETBPF diff $B/tests/bpf/diff_random.o --pcap-in "$tmp/in.pcap" 2>&1)
[ $? -eq 1 ] || fail "diff_random.o: exit status: $out"
echo "$out" | grep -q '^packets 2  identical 0  different 2  maps 1  map differences 1$' ||
	fail "diff_random.o summary: $out"
echo "$out" | grep -Eq '^packet 2: retval: kernel [0-9]+, netbpf [0-9]+$' || fail "retval: $out"
echo "$out" | grep -q '^packet 1: data_out: kernel 60 bytes, netbpf 60 bytes$' ||
	fail "data_out: $out"
echo "$out" | grep -Eq '^    netbpf 0000:(\*| )[0-9a-f]{2}' || fail "hex diff: $out"
echo "$out" | grep -q '^map last: key 00 00 00 00: values differ$' || fail "map: $out"

# Errors: a map the object lacks, a bad map file, no --pcap-in, an unreadable pcap.
out=$($NETBPF diff $B/tests/bpf/elf_hash.o --pcap-in "$tmp/in.pcap" --map "nope=$tmp/m.txt" 2>&1)
[ $? -eq 1 ] || fail "unknown map: exit status: $out"
echo "$out" | grep -q 'has no map nope' || fail "unknown map message: $out"
printf 'key 1 2 value\n' > "$tmp/bad.txt"
out=$($NETBPF diff $B/tests/bpf/elf_hash.o --pcap-in "$tmp/in.pcap" --map "m=$tmp/bad.txt" 2>&1)
[ $? -eq 1 ] || fail "bad map file: exit status: $out"
echo "$out" | grep -q 'bad.txt:1: expected' || fail "bad map file message: $out"
out=$($NETBPF diff $B/examples/xdp_drop_proto.o 2>&1)
[ $? -eq 2 ] || fail "no --pcap-in: exit status: $out"
echo "$out" | grep -q -- '--pcap-in FILE is required' || fail "no --pcap-in message: $out"
out=$($NETBPF diff $B/examples/xdp_drop_proto.o --pcap-in "$tmp/none.pcap" 2>&1)
[ $? -eq 1 ] || fail "missing pcap: exit status: $out"
echo "$out" | grep -q 'none.pcap' || fail "missing pcap message: $out"
echo "diff: ok"
