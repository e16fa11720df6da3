#!/bin/bash
# tc actions against the kernel's tc: the same mirred commands (add with and without index, bind
# by index from two filters, ls, get, del) in a network namespace with a veth pair and in netbpf
# on a pipe pair must print the same text line by line and the same JSON once parsed. Needs root;
# act_mirred is the one action this kernel may have built in.
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || { echo "SKIPPED: python3 is missing (scripts/install-deps.sh)"; exit 77; }
# The kernel's tc on the same mirred commands (the only action this kernel may have built in).
if [ "$(id -u)" != 0 ] || ! command -v tc >/dev/null || ! command -v unshare >/dev/null; then
	echo "SKIPPED: the kernel comparison needs root, tc and unshare"
	exit 77
fi
nb_tmp
cat > "$tmp/cmp.sh" <<'EOF'
tc actions add action mirred egress redirect dev v1 index 7
tc actions add action mirred egress mirror dev v1
tc actions add action mirred ingress mirror dev v1 pipe index 12
tc qdisc add dev v0 clsact
tc filter add dev v0 ingress pref 1 u32 match u32 0 0 action mirred index 7
tc filter add dev v0 ingress pref 2 u32 match u32 0 0 action mirred index 7
tc actions ls action mirred
tc actions get action mirred index 7
tc actions del action mirred index 12
tc actions ls action mirred
EOF
veth="ip link add v0 type veth peer name v1 && ip link set v0 up && ip link set v1 up"
kout=$(unshare -n bash -c "$veth && . $tmp/cmp.sh" 2>&1)
if echo "$kout" | grep -q "Failed to load TC action module\|Unknown device type\|Operation not permitted"; then
	echo "SKIPPED: the kernel has no act_mirred or veth: $(echo "$kout" | head -1)"
	exit 77
fi
kjson=$(unshare -n bash -c "$veth && tc() { command tc -j \"\$@\"; } && . $tmp/cmp.sh" 2>&1)
{ echo "link add v0 type pipe peer v1"; cat "$tmp/cmp.sh"; } > "$tmp/cmp.tc"
nout=$($NETBPF -batch "$tmp/cmp.tc" 2>&1) || fail "netbpf side: $nout"
njson=$($NETBPF -j -batch "$tmp/cmp.tc" 2>&1) || fail "netbpf side -j: $njson"
# the text line by line, the JSON parsed, document by document
echo "$kout" > "$tmp/k.txt"
echo "$nout" > "$tmp/n.txt"
diff -u "$tmp/k.txt" "$tmp/n.txt" || fail "text differs from the kernel's tc"
python3 - "$kjson" "$njson" <<'EOF' || fail "JSON differs from the kernel's tc"
import json, sys
k = [json.loads(l) for l in sys.argv[1].splitlines() if l.strip()]
n = json.loads(sys.argv[2])	# -batch: one array, a document per show line
assert len(k) == 3 and k == n, (k, n)
EOF
echo "tc actions: mirred text and JSON equal to the kernel's tc"
