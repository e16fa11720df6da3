#!/bin/bash
# netbpf's link show, ip addr show, prog show and map show held to the kernel's ip and bpftool:
# the same devices (veth pairs in a namespace; netbpf's pipe pairs, its veth twins), one with an
# XDP program in the driver's mode, one in generic mode, one pair down, and the program's map,
# shown by both, compared line by line and as parsed JSON. Normalised, each for its reason:
#   - ifindexes, program and map ids, MAC addresses: each side numbers and draws its own;
#   - the carrier changes (ip -s -s's "transns", JSON "carrier_changes"): a veth counts its
#     carrier going up; netbpf's devices have no carrier;
#   - prog show's load time and BTF id: each side loads at its own time and numbers its own BTF;
#     a map's memlock, btf_id and "frozen": bpftool_compare.sh compares them (their figures and
#     how a map's BTF id is its program's); xlated and jited sizes: each side's JIT and fixups
#     are its own (compare_prog_show);
#   - netbpf's additions: the "port" line and object, "datapath", "verified_insns" (README).
# Root only (exit 77 otherwise). Differences are listed as "DIFF WHAT" lines; any fails the test.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/compare_lib.sh"
[ -e "$EX/xdp_drop_proto.o" ] || skip "$EX/xdp_drop_proto.o is not built"
compare_need_root
need bpftool
cleanup() { compare_cleanup; }
nb_tmp
ns=nbcmpip$$
compare_netns $ns
obj=$EX/xdp_drop_proto.o

# the kernel: v0 (XDP, driver mode) - v1, v2 - v3 down, v4 (XDP, generic) - v5
k() { ip -n $ns "$@"; }
for p in "v0 v1" "v2 v3" "v4 v5"; do
	set -- $p
	k link add $1 type veth peer name $2 || skip "cannot make a veth pair"
done
k link set dev v0 xdp obj $obj sec xdp || fail "the kernel refuses $obj"
k link set dev v4 xdpgeneric obj $obj sec xdp || fail "xdpgeneric"
# netbpf's devices are up once made: the kernel's come up, and v2 and v3 go down again
for d in v0 v1 v2 v3 v4 v5; do k link set $d up; done
for d in v2 v3; do k link set $d down; done
kid0=$(k -j link show v0 | json 'print(d[0]["xdp"]["prog"]["id"])')
kmap=$(bpftool -j prog show id "$kid0" | json 'print(d["map_ids"][0])')

# netbpf: the same, in a script per command (each runs in a datapath of its own)
cat > "$tmp/setup.tc" <<EOF
link add v0 type pipe peer v1
link add v2 type pipe peer v3
link add v4 type pipe peer v5
ip link set dev v0 xdp obj $obj sec xdp
ip link set dev v4 xdpgeneric obj $obj sec xdp
link set v2 down
link set v3 down
EOF
# netbpf's own lines after ip's (README): the port, -s's drops by reason and host deliveries
ours='^    (port|drops:|host) '

ifx='^[0-9]+: =>N: '
mac='link/ether [0-9a-f:]{17} brd=>link/ether MAC brd'
pid='(prog/xdp id |/id:)[0-9]+=>\1ID'
transns='^( +[0-9]+ +[0-9]+ +[0-9]+ +[0-9]+) +[0-9]+ $=>\1 T '
jdrop="drop:port drop:datapath drop:carrier_changes"
jzero="zero:ifindex zero:id"
jmac='sub:address:^[0-9a-f:]{17}$=>MAC'
for d in v0 v1 v2 v3 v4 v5; do
	for opts in "" "-s" "-s -s"; do
		k $opts link show dev $d > "$tmp/k" || fail "ip $opts link show dev $d"
		compare_nb ip $opts link show dev $d | grep -Ev "$ours" > "$tmp/n" ||
			fail "netbpf ip $opts link show dev $d"
		# ip -s -s's TX errors line ends with the carrier changes (transns)
		compare_text "ip $opts link show dev $d" "$tmp/k" "$tmp/n" "$ifx" "$mac" "$pid" \
			"$transns"
		k -j $opts link show dev $d > "$tmp/k" || fail "ip -j $opts link show dev $d"
		compare_nb ip -j $opts link show dev $d > "$tmp/n" || fail "netbpf ip -j $opts link show dev $d"
		compare_json "ip -j $opts link show dev $d" "$tmp/k" "$tmp/n" $jdrop $jzero "$jmac"
	done
	k addr show dev $d > "$tmp/k"
	compare_nb ip addr show dev $d > "$tmp/n"
	compare_text "ip addr show dev $d" "$tmp/k" "$tmp/n" "$ifx" "$mac" "$pid"
done

# bpftool: the program of v0 and its map
compare_prog_show "$kid0"
bpftool map show id "$kmap" > "$tmp/k"
compare_nb map show id 1 > "$tmp/n"
compare_text "map show id" "$tmp/k" "$tmp/n" '^[0-9]+: =>ID: ' '^\tbtf_id [0-9]+$=>' \
	'  memlock [0-9]+B=>'
bpftool -j map show id "$kmap" > "$tmp/k"
compare_nbj map show id 1 > "$tmp/n"
compare_json "map show id (JSON)" "$tmp/k" "$tmp/n" zero:id drop:bytes_memlock drop:btf_id \
	drop:frozen

compare_report "the kernel's ip and bpftool"
