#!/bin/bash
# tc's output, netbpf against the kernel's: the same set-ups (u32 with hash tables, links, hashkey,
# sample; cls_bpf; mirred actions made by filters and standalone) run through the kernel's tc in
# a network namespace on a veth pair and through netbpf on a pipe pair, then "tc filter show"
# and "tc actions" output is compared: text line by line (plain and -s) and JSON once parsed
# (members kept in order and with repeats, as u32's "match"). This kernel builds u32, cls_bpf
# and act_mirred only; matchall, gact and act_bpf cannot be compared here (tests/cli/tc_actions.sh
# and the unit tests hold their forms).
#
# Normalised, because they cannot match: program ids (the kernel's count is system-wide) and the
# action ages ("installed/used/firstused N sec", "installed"/"last_used"/"first_used" in JSON):
# tc prints an age only once at least 10 ms (a USER_HZ tick) passed since the action was made or
# used, which depends on how fast each side ran the commands. Error messages are dropped: the
# commands that fail do so on both sides (the text after them shows it), in words of their own.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/compare_lib.sh"
OBJ=$EX/tc_classifier.o
compare_need_root
need tc
need unshare
[ -f "$OBJ" ] || fail "$OBJ is missing (make builds it)"
nb_tmp
veth="ip link add v0 type veth peer name v1 && ip link set v0 up && ip link set v1 up"
probe=$(unshare -n bash -c "$veth && tc qdisc add dev v0 clsact &&
	tc filter add dev v0 ingress u32 match u32 0 0 action mirred egress mirror dev v1 &&
	tc filter add dev v0 ingress bpf da obj $OBJ sec classifier" 2>&1) ||
	skip "this kernel lacks u32, cls_bpf, act_mirred or veth: $(echo "$probe" | head -1)"

# u32: the root tables of two prefs and both hooks (800:, 801:, ...), a table of 256 buckets
# linked from the root by the destination's last byte, nodes placed by ht and by sample, keys of
# every size and shorthand, handles and order, actions; then deletes (a node, the linking node,
# the table, a pref). A table still linked to cannot go: checked on its own after.
cat > "$tmp/u32.tc" <<'EOF'
tc qdisc add dev v0 clsact
tc filter add dev v0 ingress pref 10 protocol ip u32 match ip protocol 17 0xff match udp dst 53 0xffff flowid 1:1
tc filter add dev v0 ingress pref 10 protocol ip handle 800::20 u32 match ip src 10.1.0.0/16 match ip tos 0x10 0xff match u8 0x40 0xf0 at 0 classid 1:2 action mirred egress redirect dev v1
tc filter add dev v0 egress pref 5 protocol ip u32 match u32 0 0 action mirred egress mirror dev v1 pipe
tc filter add dev v0 ingress pref 20 protocol ip handle 1: u32 divisor 256
tc filter add dev v0 ingress pref 20 protocol ip u32 ht 1:6: match ip dst 10.0.0.6 flowid 1:6
tc filter add dev v0 ingress pref 20 protocol ip u32 ht 1: sample ip dst 10.0.0.7 match ip dst 10.0.0.7 flowid 1:7
tc filter add dev v0 ingress pref 20 protocol ip u32 ht 1: sample u32 0x0a000009 0xff at 16 match ip dst 10.0.0.9 match tcp src 1024 0xfc00 action mirred ingress mirror dev v1
tc filter add dev v0 ingress pref 10 protocol ip u32 ht 800:: order 5 match ip dst 10.0.0.0/8 hashkey mask 0x000000ff at 16 link 1:
tc filter add dev v0 ingress pref 30 protocol ipv6 u32 match ip6 dst fe80::1/64 match ip6 protocol 58 0xff match icmp type 128 0xff flowid 1:30
tc filter show dev v0 ingress
tc filter show dev v0 egress
tc -s filter show dev v0 ingress
tc filter del dev v0 ingress pref 20 protocol ip handle 1:6:800 u32
tc filter del dev v0 ingress pref 10 protocol ip handle 800::5 u32
tc filter del dev v0 ingress pref 20 protocol ip handle 1: u32
tc filter del dev v0 ingress pref 30
tc filter show dev v0 ingress
EOF

# cls_bpf: direct action, a classid, actions made with the filter and one bound by index.
cat > "$tmp/bpf.tc" <<EOF
tc actions add action mirred egress redirect dev v1 index 7
tc qdisc add dev v0 clsact
tc filter add dev v0 ingress pref 1 bpf da obj $OBJ sec classifier
tc filter add dev v0 ingress pref 2 protocol ip bpf obj $OBJ sec classifier classid 1:5 action mirred index 7 action mirred ingress mirror dev v1 pipe
tc filter add dev v0 egress bpf obj $OBJ flowid ffff:1 action mirred egress mirror dev v1
tc filter show dev v0 ingress
tc filter show dev v0 egress
tc -s filter show dev v0 ingress
tc actions ls action mirred
tc -s actions get action mirred index 7
EOF

# the normalisations of the head comment, and the error messages' lines left out
progid=' id [0-9]+ name => id X name '
ages=' (installed|used|firstused) [0-9]+ sec=>'
errors='^(RTNETLINK answers|Error|Command failed|We have an error|netbpf: ).*=>'
jages='drop:installed drop:last_used drop:first_used'

# The kernel releases a deleted u32 node's link to a table later, in RCU work: a delete of the
# table just after can meet EBUSY on a busy machine. Its deletes are retried for up to a second.
ktc='tc() { for i in 1 2 3 4 5 6 7 8 9 10; do command tc $J "$@" && return;
	[ "$2" = del ] || return; sleep 0.1; done; }'
for s in u32 bpf; do
	kout=$(unshare -n bash -c "$veth && J= && $ktc && . $tmp/$s.tc" 2>&1)
	kjson=$(unshare -n bash -c "$veth && J=-j && $ktc && . $tmp/$s.tc" 2>&1)
	{ echo "link add v0 type pipe peer v1"; cat "$tmp/$s.tc"; } > "$tmp/$s.nb"
	nout=$($NETBPF -batch "$tmp/$s.nb" 2>&1) || fail "$s: netbpf: $nout"
	njson=$($NETBPF -j -batch "$tmp/$s.nb" 2>&1) || fail "$s: netbpf -j: $njson"
	echo "$kout" > "$tmp/k"
	echo "$nout" > "$tmp/n"
	compare_text "$s" "$tmp/k" "$tmp/n" "$progid" "$ages" "$errors"
	# the kernel's tc prints a document a show, netbpf's -batch one array of them
	echo "$kjson" | grep -E '^[[:space:]]*[[{]' | { echo '['; paste -sd,; echo ']'; } > "$tmp/k"
	echo "$njson" | grep -E '^[[:space:]]*[[{]' > "$tmp/n"
	compare_json "$s (JSON)" "$tmp/k" "$tmp/n" ordered zero:id $jages
done

# A table a node links to stays (EBUSY), as a filter's root table does (EINVAL), on both sides.
cat > "$tmp/busy.tc" <<'EOF'
tc qdisc add dev v0 clsact
tc filter add dev v0 ingress pref 20 protocol ip handle 1: u32 divisor 16
tc filter add dev v0 ingress pref 20 protocol ip u32 match u32 0 0 link 1:
EOF
for h in 1: 800:; do
	unshare -n bash -c "$veth && . $tmp/busy.tc && ! tc filter del dev v0 ingress pref 20 \
		protocol ip handle $h u32 2>/dev/null" || fail "the kernel deleted table $h"
	{ echo "link add v0 type pipe peer v1"; cat "$tmp/busy.tc"
	  echo "tc filter del dev v0 ingress pref 20 protocol ip handle $h u32"; } > "$tmp/busy.nb"
	$NETBPF -batch "$tmp/busy.nb" >/dev/null 2>&1 && fail "netbpf deleted table $h"
done
compare_report "the kernel's tc"
