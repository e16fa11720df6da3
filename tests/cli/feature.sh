#!/bin/bash
# netbpf feature probe: the helpers each program type may call, in bpftool feature probe's text
# and JSON, with netbpf's own list of what Linux offers and netbpf lacks; bpftool's component
# words are taken, anything else is refused.
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || { echo "SKIPPED: python3 is missing"; exit 77; }

nb_tmp

$NETBPF feature probe >"$tmp/text" || fail "feature probe exited $?"
head -n1 "$tmp/text" | grep -qx 'Scanning eBPF helper functions...' || fail "no scanning line"
# the helpers listed under one heading, up to the next
section() { sed -n "/^$1\$/,/^[^	]/p" "$tmp/text" | sed -n 's/^	- //p'; }
section 'eBPF helpers supported for program type xdp:' >"$tmp/xdp"
grep -qx bpf_fib_lookup "$tmp/xdp" || fail "xdp lacks bpf_fib_lookup"
grep -qx bpf_redirect_map "$tmp/xdp" || fail "xdp lacks bpf_redirect_map"
grep -qx bpf_skb_load_bytes "$tmp/xdp" && fail "xdp lists bpf_skb_load_bytes (the kernel refuses it)"
section 'eBPF helpers supported for program type sched_cls:' >"$tmp/tc"
grep -qx bpf_skb_set_tunnel_key "$tmp/tc" || fail "sched_cls lacks bpf_skb_set_tunnel_key"
section 'eBPF helpers Linux offers program type sched_cls that netbpf lacks:' >"$tmp/tc_missing"
grep -qx bpf_kptr_xchg "$tmp/tc_missing" || fail "bpf_kptr_xchg is not listed as missing"
grep -qx bpf_sk_lookup_tcp "$tmp/tc" || fail "sched_cls lacks bpf_sk_lookup_tcp"
grep -qx bpf_timer_init "$tmp/tc" || fail "sched_cls lacks bpf_timer_init"
grep -qx bpf_skb_set_tunnel_key "$tmp/tc_missing" && fail "a helper both supported and missing"

# JSON: the same lists
$NETBPF -j feature probe kernel full >"$tmp/json" || fail "-j feature probe exited $?"
python3 - "$tmp/json" "$tmp/tc" <<'EOF' || fail "JSON differs from the text"
import json, sys
h = json.load(open(sys.argv[1]))["helpers"]
text = open(sys.argv[2]).read().split()
assert h["sched_cls_available_helpers"] == text, "sched_cls lists differ"
assert h["sched_act_available_helpers"] == text, "tc classifiers and actions differ"
for t in ("socket_filter", "sched_cls", "sched_act", "xdp"):
    a, m = h[t + "_available_helpers"], h[t + "_missing_helpers"]
    assert a and not set(a) & set(m), t
assert "bpf_redirect" not in h["socket_filter_available_helpers"]
EOF

# refusals
$NETBPF feature probe dev eth0 >/dev/null 2>"$tmp/err"; rc=$?
[ $rc = 2 ] || fail "feature probe dev: exit $rc"
grep -q 'argument "dev" is wrong' "$tmp/err" || fail "feature probe dev: $(cat "$tmp/err")"
$NETBPF feature list >/dev/null 2>"$tmp/err"; rc=$?
[ $rc = 2 ] || fail "feature list: exit $rc"
grep -q 'unknown command "list"' "$tmp/err" || fail "feature list: $(cat "$tmp/err")"
$NETBPF feature help | grep -q 'netbpf feature probe' || fail "feature help"
echo "ok: feature probe"
