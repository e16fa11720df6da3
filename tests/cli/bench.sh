#!/bin/bash
# netbpf bench: the seed's tc and XDP tables, short: every set-up measured with one worker and
# two, every frame where the set-up sends it (the bridge row too), the kernel column (a rate or
# why not), the DPDK rows (or why not), the ratios, the results file, and the errors of its
# options; bench jit, the JIT per run beside the kernel's.
. "$(dirname "$0")/lib.sh"
[ -e "$BUILD/examples/tcbpf1.o" ] || { echo "SKIPPED: the example objects are not built"; exit 77; }
command -v python3 >/dev/null || { echo "SKIPPED: python3 is missing (scripts/install-deps.sh)"; exit 77; }
nb_tmp

out=$(cd / && $NETBPF -j bench --quick --window 0.1 --results "$tmp/results.md") ||
	fail "bench exited $?: $out"
echo "$out" | json '
s = {x["setup"]: x for x in d["setups"]}
assert len(s) == 10 and d["max_workers"] == 2, s.keys()
assert d["gen_mode"] == "copy", d["gen_mode"]
assert "missing" not in s["Linux bridge"] and s["Linux bridge"]["seed_mpps"] == [2.1, None], s
assert s["cls_bpf da + bpf_redirect"]["seed_mpps"] == [2.5, None], s
assert s["bpf_redirect, bulking"]["seed_mpps"] == [8.4, 15.9], s
for name, x in s.items():
    if "missing" in x:
        continue
    assert [r["workers"] for r in x["runs"]] == [1, 2], x
    for r in x["runs"]:
        assert r["ok"] is True and r["mpps"] > 0 and r["wall_mpps"] > 0, (name, r)
        assert len(r["mpps_rounds"]) == 1, r
    # the kernel column: a rate, or why not (not root, no BPF, a module the kernel lacks)
    k = x["kernel"]
    assert ("mpps" in k and k["mpps"] > 0) != ("missing" in k and len(k["missing"]) > 0), (name, k)
assert "bulk queues" in s["bpf_redirect, no bulking"]["kernel"]["missing"], s
r = {x["ratio"]: x for x in d["ratios"]}
assert r["XDP: bulking / no bulking (bpf_redirect)"]["goal"] == 1.5, r
assert r["XDP: bpf_redirect / bpf_redirect_map"]["value"] > 0, r
assert any(k.startswith("tc: workers / 1 worker") for k in r), r
' || fail "bench json: $out"
grep -q '^| cls_bpf da + bpf_redirect |    2.5 |' "$tmp/results.md" || fail "results: $(cat "$tmp/results.md")"
grep -q "^# netbpf bench results" "$tmp/results.md" || fail "results title"
grep -q "mode copy: each frame a copy of its flow's" "$tmp/results.md" || fail "results: no gen mode"
# the chart beside the results, or why not (gnuplot is installed for make bench, not make check)
if grep -q '^!\[netbpf bench: Mpps per set-up\](results.png)$' "$tmp/results.md"; then
	[ "$(head -c 8 "$tmp/results.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] ||
		fail "results.png is not a PNG"
else
	grep -q '^No chart: ' "$tmp/results.md" || fail "no chart line: $(cat "$tmp/results.md")"
fi
grep -q '^| cls_bpf da + bpf_redirect | [0-9.]* | ' "$tmp/results.md" || fail "results kernel: $(cat "$tmp/results.md")"

# one table, text: the seed's figure beside netbpf's
out=$($NETBPF bench --quick --window 0.05 --workers 1 --no-kernel tc) ||
	fail "bench tc exited $?: $out"
echo "$out" | grep -q "beside the running kernel" && fail "--no-kernel: $out"
echo "$out" | grep -Eq '^cls_bpf da \+ bpf_redirect +2\.5 [0-9]+\.[0-9]+ ' || fail "tc row: $out"
echo "$out" | grep -Eq '^Linux bridge +2\.1 [0-9]+\.[0-9]+ ' || fail "bridge row: $out"
echo "$out" | grep -q "bpf_redirect_map" && fail "xdp table printed: $out"
echo "$out" | grep -q "mode copy: each frame a copy" || fail "gen mode not stated: $out"

# --gen patch: the flow-patching generator, stated so, every frame still accounted for
out=$($NETBPF bench --quick --window 0.05 --workers 1 --gen patch xdp) ||
	fail "bench --gen patch exited $?: $out"
echo "$out" | grep -q "mode patch: each frame's flow and sequence fields written" ||
	fail "gen mode patch not stated: $out"
echo "$out" | grep -Eq '^bpf_redirect_map, bulking +- [0-9]+\.[0-9]+ ' || fail "xdp row: $out"

# the DPDK rows: the peer make bench builds, run in each round beside netbpf's XDP rows, with
# netbpf / DPDK; without the peer, why not; a peer that fails, its reason in the row
if [ -x "$BUILD/dpdk-peer" ] && [ -e "$BUILD/bench/dpdk/peer_prog.o" ]; then
	out=$($NETBPF -j bench --quick --window 0.1 --workers 1 --no-kernel xdp) ||
		fail "bench with the DPDK peer exited $?: $out"
	echo "$out" | json '
p = {x["setup"]: x for x in d["dpdk"]["setups"]}
assert len(p) == 3, p
for x in p.values():
    assert x["ok"] is True and x["mpps"] > 0 and x["wall_mpps"] > 0, x
e = p["io fwd + librte_bpf JIT: EtherType read"]
assert e["section"] == "peer/read_proto" and e["netbpf_setup"] == "bpf_redirect_map, bulking", e
assert e["goal"] == 1.2 and e["netbpf_over_dpdk"] > 0, e
assert "netbpf_over_dpdk" not in p["io fwd, no program"], p
' || fail "bench dpdk json: $out"
else
	echo "bench: no DPDK peer built (make bench builds it): its rows not measured here"
fi
out=$(NB_DPDK_PEER=$tmp/absent $NETBPF bench --quick --window 0.05 --workers 1 --no-kernel xdp) ||
	fail "bench without a peer exited $?: $out"
echo "$out" | grep -q "^netbpf beside DPDK: not measured: no DPDK peer at $tmp/absent (make bench builds it" ||
	fail "no peer: $out"
mkdir -p "$tmp/peer/bench/dpdk" && : > "$tmp/peer/bench/dpdk/peer_prog.o"
printf '#!/bin/sh\necho "EAL: chatter"\necho "dpdk-peer: the EAL does not start: no memory" >&2\nexit 1\n' \
	> "$tmp/peer/dpdk-peer" && chmod +x "$tmp/peer/dpdk-peer"
out=$(NB_DPDK_PEER=$tmp/peer/dpdk-peer $NETBPF -j bench --quick --window 0.05 --workers 1 --no-kernel xdp) ||
	fail "bench with a failing peer exited $?: $out"
echo "$out" | json '
p = d["dpdk"]["setups"]
assert len(p) == 3 and all(x["ok"] is False for x in p), p
assert p[0]["error"] == "the DPDK peer failed: dpdk-peer: the EAL does not start: no memory", p
' || fail "failing peer: $out"
out=$($NETBPF bench --quick --window 0.05 --workers 1 --no-kernel tc) || fail "bench tc: $out"
echo "$out" | grep -q "beside DPDK" && fail "DPDK rows without the XDP table: $out"

for bad in "--rounds 0" "--workers 9" "--window x" "--gen nowrite" "--no-dpdk=1" "bogus"; do
	out=$($NETBPF bench $bad 2>&1); [ $? -eq 2 ] || fail "bench $bad: exit $?: $out"
	echo "$out" | grep -q "is wrong" || fail "bench $bad: $out"
done
# bench jit: the JIT per run beside the kernel's JIT, each program on both sides, the same
# verdicts; without root or BPF, netbpf's side alone with the reason
out=$(cd / && $NETBPF -j bench jit --quick --repeat 2000) || fail "bench jit exited $?: $out"
echo "$out" | json '
p = {x["program"]: x for x in d["programs"]}
assert len(p) == 8 and d["repeat"] == 2000 and d["goal"] == 1.0, p.keys()
assert p["XDP_PASS"]["object"] == "pass.o" and p["TC_ACT_OK"]["section"] == "tc", p
for name, x in p.items():
    assert x["netbpf_ns"] > 0, x
    assert ("kernel_ns" in x) != ("missing" in x), x
    if "kernel_ns" in x:
        assert x["same_retval"] is True and x["netbpf_over_kernel"] > 0, x
        assert x["kernel_retval"] == x["netbpf_retval"], x
assert p["XDP_PASS"]["netbpf_retval"] == 2 and p["TC_ACT_OK"]["netbpf_retval"] == 0, p
assert p["tc parse, count per flow (hash)"]["netbpf_retval"] == 0, p
if "kernel_ns" in p["XDP_PASS"]:
    assert "netbpf_own_ns" in p["XDP parse, swap MACs, TX"], p
' || fail "bench jit json: $out"
out=$($NETBPF bench jit --quick --repeat 1000) || fail "bench jit text exited $?: $out"
echo "$out" | grep -Eq '^XDP_PASS \(pass.o xdp\) +([0-9.]+ \([0-9]+\)|-) +[0-9]+\.[0-9]+ \(' ||
	fail "bench jit row: $out"
echo "$out" | grep -q "^goal: netbpf / kernel <= 1.00" || fail "bench jit goal: $out"
for bad in "--rounds 0" "--repeat x" "--repeat -1" "bogus"; do
	expect_err 2 "is wrong" $NETBPF bench jit $bad
done

echo "bench: tables, checks, results file and errors as expected"
