#!/bin/bash
# netbpf prog run: verdicts, destinations and lengths per packet, the pcapng output read back
# (by libpcap through prog run itself, and by tcpdump where installed), --data-in, --repeat,
# --ctx-out, --map, --set, JSON, and the errors of bad command lines.
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

# tc: bpf_redirect(skb->ifindex + 1): out of if2.
out=$($NETBPF prog run $B/examples/tcbpf1.o sec redirect_xmit --pcap-in "$tmp/in.pcap" \
	--pcap-out "$tmp/tc.pcapng" 2>&1) || fail "tcbpf1 redirect_xmit: $out"
[ "$(echo "$out" | grep -Ec '^packet [12]: retval 7 TC_ACT_REDIRECT  len 60 -> 60  to if2  duration [0-9]+ ns$')" = 2 ] ||
	fail "tc summary: $out"
grep -aq if2 "$tmp/tc.pcapng" || fail "no interface if2 in the pcapng output"
# read back by libpcap: the output goes in again
out=$($NETBPF prog run $B/examples/tc_classifier.o --pcap-in "$tmp/tc.pcapng" 2>&1) ||
	fail "reading the pcapng back: $out"
[ "$(echo "$out" | grep -c '^packet [12]: .* len 60 -> 60')" = 2 ] || fail "read back: $out"
if command -v tcpdump >/dev/null; then
	n=$(tcpdump -nr "$tmp/tc.pcapng" 2>/dev/null | wc -l)
	[ "$n" = 2 ] || fail "tcpdump reads $n packets from the pcapng output"
fi

# bpf_clone_redirect: the original dropped, the copy out of if2 is in the output.
out=$($NETBPF prog run $B/examples/tcbpf1.o sec clone_redirect_xmit --pcap-in "$tmp/in.pcap" \
	--pcap-out "$tmp/clone.pcapng" 2>&1) || fail "clone_redirect_xmit: $out"
[ "$(echo "$out" | grep -Ec '^packet [12]: retval 2 TC_ACT_SHOT  len 60 -> 60  dropped  duration [0-9]+ ns  clones 1$')" = 2 ] ||
	fail "clone summary: $out"
out=$($NETBPF prog run $B/examples/tc_classifier.o --pcap-in "$tmp/clone.pcapng" 2>&1) ||
	fail "reading the clones back: $out"
[ "$(echo "$out" | grep -c '^packet [12]: .* len 60 -> 60')" = 2 ] || fail "clones read back: $out"

# XDP: a redirect to the ifindex set in .rodata, XDP_TX to lo, drops written nowhere.
out=$($NETBPF prog run $B/examples/xdp_redirect_ifindex.o --set target_ifindex=5 \
	--pcap-in "$tmp/in.pcap" --pcap-out "$tmp/x.pcapng" 2>&1) || fail "redirect_ifindex: $out"
echo "$out" | grep -q '^packet 2: retval 4 XDP_REDIRECT  len 60 -> 60  to if5 ' ||
	fail "xdp redirect summary: $out"
out=$($NETBPF prog run $B/examples/xdp_swap_mac_tx.o --pcap-in "$tmp/in.pcap" --repeat 50 \
	--ctx-out "$tmp/ctx.bin" 2>&1) || fail "swap_mac_tx: $out"
echo "$out" | grep -q '^packet 1: retval 3 XDP_TX  len 60 -> 60  to lo ' || fail "XDP_TX: $out"
[ "$(stat -c %s "$tmp/ctx.bin")" = 24 ] || fail "--ctx-out wrote $(stat -c %s "$tmp/ctx.bin") bytes"

# --data-in, JSON
printf '\x02\x00\x00\x00\x00\x02\x02\x00\x00\x00\x00\x01\x08\x06' > "$tmp/one.bin"
out=$($NETBPF -j prog run $B/examples/tc_classifier.o --data-in "$tmp/one.bin" 2>&1) ||
	fail "--data-in: $out"
echo "$out" | grep -q '"packets":\[{"packet":1,"retval":[0-9]*,.*"len_in":14,' || fail "json: $out"

# --map preloads (elf_hash's count adds to key 1's value)
printf '# a comment line, then one after the bytes\nkey 1 0 0 0 value 0x2a 0 0 0 0 0 0 0  # 42\n' > "$tmp/m.txt"
out=$($NETBPF prog run $B/tests/bpf/elf_hash.o --pcap-in "$tmp/in.pcap" --map "m=$tmp/m.txt" 2>&1) ||
	fail "--map: $out"
# --maps: what the packets left in the map (key 7: 100, then one more), text and JSON
out=$($NETBPF prog run $B/tests/bpf/elf_hash.o --pcap-in "$tmp/in.pcap" --map "m=$tmp/m.txt" \
	--maps 2>&1) || fail "--maps: $out"
echo "$out" | grep -q '^map [0-9]*: hash  name m$' &&
	echo "$out" | grep -q '^key: 07 00 00 00  value: 65 00 00 00 00 00 00 00$' &&
	echo "$out" | grep -q '^key: 01 00 00 00  value: 2a 00 00 00 00 00 00 00$' &&
	echo "$out" | grep -q '^Found 2 elements$' || fail "--maps: $out"
out=$($NETBPF -j prog run $B/tests/bpf/elf_hash.o --pcap-in "$tmp/in.pcap" --maps 2>&1) ||
	fail "-j --maps: $out"
echo "$out" | grep -q '"maps":\[{"id":[0-9]*,"name":"m","type":"hash","elements":\[{"key":\["0x07","0x00","0x00","0x00"\],"value":\["0x65",' ||
	fail "-j --maps: $out"
out=$($NETBPF prog run $B/tests/bpf/elf_hash.o --pcap-in "$tmp/in.pcap" --map "x=$tmp/m.txt" 2>&1)
[ $? -eq 1 ] || fail "unknown map: exit status: $out"
echo "$out" | grep -q 'has no map x' || fail "unknown map message: $out"
# an element whose sizes are not the map's: named, with both sizes, nothing run
printf 'key 1 0 0 0 value 1 0 0 0\n' > "$tmp/short.txt"
out=$($NETBPF prog run $B/tests/bpf/elf_hash.o --pcap-in "$tmp/in.pcap" --map "m=$tmp/short.txt" 2>&1)
[ $? -eq 1 ] || fail "--map element sizes: exit status: $out"
echo "$out" | grep -q -- '--map m: element 1 has a 4-byte key and a 4-byte value, the map takes 4 and 8' ||
	fail "--map element sizes message: $out"

# Errors
out=$($NETBPF prog run $B/examples/tc_classifier.o 2>&1)
[ $? -eq 2 ] || fail "no input: exit status"
echo "$out" | grep -q 'one of --data-in FILE and --pcap-in FILE is required' || fail "no input: $out"
out=$($NETBPF prog run $B/examples/tc_classifier.o --data-in "$tmp/one.bin" --repeat 0 2>&1)
[ $? -eq 2 ] || fail "--repeat 0: exit status"
echo "$out" | grep -q -- '--repeat "0"' || fail "--repeat 0: $out"
printf '\x01\x02' > "$tmp/short.bin"
out=$($NETBPF prog run $B/examples/tc_classifier.o --data-in "$tmp/short.bin" 2>&1)
[ $? -eq 1 ] || fail "short packet: exit status"
echo "$out" | grep -q 'packet 1 (2 bytes): the test run fails: Invalid argument' || fail "short: $out"
# Of several programs none is picked silently: the error lists them; sec or program chooses
out=$($NETBPF prog run $B/examples/tcbpf1.o --data-in "$tmp/one.bin" 2>&1)
[ $? -eq 1 ] || fail "several programs: exit status: $out"
echo "$out" | grep -q 'the object holds 5 programs, choose one with sec SECTION or program NAME: classifier/bpf_prog1, redirect_xmit/_redirect_xmit, ' ||
	fail "several programs: $out"
out=$($NETBPF prog run $B/examples/tcbpf1.o sec redirect_xmit --data-in "$tmp/one.bin" 2>&1) ||
	fail "sec redirect_xmit: $out"
echo "$out" | grep -q '^packet 1: retval 7 TC_ACT_REDIRECT ' || fail "sec redirect_xmit: $out"
out=$($NETBPF prog run $B/examples/tcbpf1.o program _clone_redirect_recv --data-in "$tmp/one.bin" \
	2>&1) || fail "program _clone_redirect_recv: $out"
echo "$out" | grep -q '^packet 1: retval 2 TC_ACT_SHOT ' || fail "program NAME: $out"
out=$($NETBPF prog run $B/examples/tcbpf1.o program nosuch --data-in "$tmp/one.bin" 2>&1)
[ $? -eq 1 ] && echo "$out" | grep -q 'no program nosuch in the object; there are: classifier/' ||
	fail "program nosuch: $out"
echo "prog run: ok"
