#!/bin/bash
# link show as ip link show prints it: the flags, the xdp or xdpgeneric word and the prog/xdp
# line of a device with an XDP program, a pipe end named and flagged as a veth (NAME@PEER,
# NO-CARRIER and M-DOWN while its peer is down), -s and -s -s with ip's columns, -j with ip's
# "xdp" and "stats64", and netbpf's own "port" line and object (configuration and counters apart). The
# counters are read after traffic: a run's show lines print once the datapath has run.
# tests/cli/compare_ip.sh holds the same output to the kernel's ip.
. "$(dirname "$0")/lib.sh"
[ -e "$EX/xdp_drop_proto.o" ] || { echo "SKIPPED: $EX/xdp_drop_proto.o is not built"; exit 77; }
command -v python3 >/dev/null || { echo "SKIPPED: python3 is missing (scripts/install-deps.sh)"; exit 77; }
nb_tmp

cat > "$tmp/devs.tc" <<'EOF'
link add g0 type gen count 100 proto udp
link add a type pipe peer b
link add ip0 type ipip external
ip link set dev g0 xdp obj xdp_drop_proto.o
ip link set dev a xdpgeneric obj xdp_drop_proto.o
link set b down
EOF
tag=09ef0ef664577579	# the kernel's tag of xdp_drop_proto (test_prog_tag_kernel.c)

# text: ip's lines, then netbpf's port line
{ cat "$tmp/devs.tc"; echo "link show"; } > "$tmp/show.tc"
out=$($NETBPF -batch "$tmp/show.tc") || fail "link show: $out"
cat > "$tmp/want" <<EOF
1: g0: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1500 xdp qdisc noqueue state UP mode DEFAULT group default qlen 1000
    link/ether 02:6e:62:00:00:01 brd ff:ff:ff:ff:ff:ff
    prog/xdp id 1 name xdp_drop_proto tag $tag jited 
    port gen count 100, 0 received, 0 sent, 0 ring drops, 0 too big, 0 tx errors
2: a@b: <NO-CARRIER,BROADCAST,MULTICAST,UP,M-DOWN> mtu 1500 xdpgeneric qdisc noqueue state LOWERLAYERDOWN mode DEFAULT group default qlen 1000
    link/ether 02:6e:62:00:00:02 brd ff:ff:ff:ff:ff:ff
    prog/xdp id 2 name xdp_drop_proto tag $tag jited 
    port pipe peer b, 0 received, 0 sent, 0 ring drops, 0 too big, 0 tx errors
3: b@a: <BROADCAST,MULTICAST> mtu 1500 qdisc noqueue state DOWN mode DEFAULT group default qlen 1000
    link/ether 02:6e:62:00:00:03 brd ff:ff:ff:ff:ff:ff
    port pipe peer a, 0 received, 0 sent, 0 ring drops, 0 too big, 0 tx errors
4: ip0: <NOARP,UP,LOWER_UP> mtu 1480 qdisc noqueue state UNKNOWN mode DEFAULT group default qlen 1000
    link/ipip 0.0.0.0 brd 0.0.0.0
    port tunnel ipip external
EOF
diff "$tmp/want" <(echo "$out") || fail "link show"

# ip addr show names the program by id in the first line and has no mode
{ cat "$tmp/devs.tc"; echo "ip addr add 10.0.0.1/24 dev g0"; echo "ip addr show dev g0"; } \
	> "$tmp/addr.tc"
out=$($NETBPF -batch "$tmp/addr.tc") || fail "addr show: $out"
echo "$out" | head -1 | grep -qx "1: g0: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1500 xdp/id:1 qdisc \
noqueue state UP group default qlen 1000" || fail "addr show: $out"

# after traffic: the generator's 100 UDP frames, all dropped by the XDP program, and counted
{ cat "$tmp/devs.tc"; echo "ip -s -s link show g0"; } > "$tmp/run.tc"
out=$($NETBPF run "$tmp/run.tc") || fail "run: $out"
cat > "$tmp/want" <<EOF
1: g0: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1500 xdp qdisc noqueue state UP mode DEFAULT group default qlen 1000
    link/ether 02:6e:62:00:00:01 brd ff:ff:ff:ff:ff:ff
    prog/xdp id 1 name xdp_drop_proto tag $tag jited 
    port gen count 100, 100 received, 0 sent, 0 ring drops, 0 too big, 0 tx errors
    RX:  bytes packets errors dropped  missed   mcast           
          6000     100      0     100       0       0 
    RX errors:  length    crc   frame    fifo overrun
                     0      0       0       0       0 
    TX:  bytes packets errors dropped carrier collsns           
             0       0      0       0       0       0 
    TX errors: aborted   fifo  window heartbt transns
                     0      0       0       0       0 
    drops: xdp_drop 100
    host 0 consumed 0 clones 0
EOF
diff "$tmp/want" <(echo "$out" | sed -n '1,/^    host /p') || fail "link show -s -s after the run"
echo "$out" | sed -n '/^    host /,$p' | grep -q '^device .*ifindex' ||
	fail "no summary after the show lines: $out"
# the summary has the ports' own counters
want='^  g0 +100 received +0 sent +0 ring drops +0 too big +0 tx errors  gen count 100$'
echo "$out" | grep -A1 '^ports:$' | grep -Eq "$want" || fail "summary ports: $out"

# JSON: ip's keys, netbpf's "port" and "datapath" objects
out=$($NETBPF -j run "$tmp/run.tc") || fail "run -j: $out"
echo "$out" | json "
run = d
d = d['commands'][0][0]
assert d['ifname'] == 'g0' and d['flags'] == ['BROADCAST', 'MULTICAST', 'UP', 'LOWER_UP'], d
prog = {'id': 1, 'name': 'xdp_drop_proto', 'tag': '$tag', 'jited': 1}
assert d['xdp'] == {'mode': 1, 'prog': prog, 'attached': [{'mode': 1, 'prog': prog}]}, d
assert d['qdisc'] == 'noqueue' and d['operstate'] == 'UP' and d['txqlen'] == 1000, d
assert d['broadcast'] == 'ff:ff:ff:ff:ff:ff', d
rx = d['stats64']['rx']
assert rx['packets'] == 100 and rx['bytes'] == 6000 and rx['dropped'] == 100, rx
assert rx['length_errors'] == 0 and 'missed_errors' in rx, rx
assert d['stats64']['tx']['packets'] == 0 and 'carrier_changes' in d['stats64']['tx'], d
assert d['datapath']['drop_reasons'] == {'xdp_drop': 100}, d
p = d['port']
assert p['kind'] == 'gen' and p['description'] == 'gen count 100', p
assert p['stats'] == {'received': 100, 'sent': 0, 'ring_drops': 0, 'too_big': 0, 'tx_errors': 0}, p
assert p['queues'] == [p['stats']], p
s = run['ports'][0]
assert s['device'] == 'g0' and s['received'] == 100 and s['tx_errors'] == 0, s
" || fail "link show -j: $out"
{ cat "$tmp/devs.tc"; echo "link show"; } > "$tmp/show.tc"
out=$($NETBPF -j -batch "$tmp/show.tc") || fail "-j link show: $out"
echo "$out" | json "
n = {x['ifname']: x for x in d[0]}
assert n['a']['xdp']['mode'] == 2 and 'xdp' not in n['b'], n
# a pipe end is a veth: its peer's name, no carrier while the peer is down
assert n['a']['link'] == 'b' and n['a']['operstate'] == 'LOWERLAYERDOWN', n['a']
assert n['a']['flags'] == ['NO-CARRIER', 'BROADCAST', 'MULTICAST', 'UP', 'M-DOWN'], n['a']
assert n['b']['operstate'] == 'DOWN' and n['b']['flags'] == ['BROADCAST', 'MULTICAST'], n['b']
assert n['ip0']['operstate'] == 'UNKNOWN' and n['ip0']['flags'] == ['NOARP', 'UP', 'LOWER_UP'], n
assert n['ip0']['port'] == {'kind': 'tunnel', 'description': 'tunnel ipip external'}, n['ip0']
assert 'stats64' not in n['a'], n['a']
" || fail "-j link show: $out"
echo ok
