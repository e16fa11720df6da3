#!/bin/bash
# netbpf daemon driven from other netbpf processes, as two shells would: a daemon started with a
# script, its filters, links, maps and programs read and changed by separate commands (text
# and -j, output identical to the same lines in a script), a filter replaced under traffic with
# every packet delivered, a devmap filled from outside so that XDP redirects start, rates, the
# default daemon and NETBPF_DAEMON, relative paths, and the errors: unknown device, wrong key
# size, no such daemon, a second daemon of one name, another user, malformed and stalled
# peers; a stale socket replaced; SIGTERM drains, prints the summary and removes the socket.
. "$(dirname "$0")/lib.sh"
fail() { echo "FAIL: $*"; [ -n "${tmp:-}" ] && tail -5 "$tmp"/*.err 2>/dev/null; exit 1; }
[ -e "$EX/tcbpf1.o" ] && [ -e "$EX/xdp_redirect_map.o" ] ||
	{ echo "SKIPPED: the example objects are not built"; exit 77; }
command -v python3 >/dev/null || { echo "SKIPPED: python3 is missing"; exit 77; }
pids=()
cleanup() {
	for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null; done
}
nb_tmp
# every daemon of this test lives in a socket directory of its own
export NETBPF_RUNDIR=$tmp/run
unset NETBPF_DAEMON
# the interpreter itself, not a version manager's shim: this test starts it often
PY=$(python3 -c 'import sys; print(sys.executable)')
json() { "$PY" -c "import json,sys; d=json.load(sys.stdin); $1"; }

# Start a daemon in the background; wait until it answers.
start_daemon() {
	local name=$1
	shift
	$NETBPF daemon --name "$name" "$@" > "$tmp/$name.out" 2> "$tmp/$name.err" &
	pids+=($!)
	eval "pid_$name=$!"
	local end=$((SECONDS + 20))

	while [ $SECONDS -lt $end ]; do
		$NETBPF -D "$name" stats >/dev/null 2>&1 && return 0
		kill -0 $! 2>/dev/null || fail "daemon $name died: $(cat "$tmp/$name.err")"
		sleep 0.05
	done
	fail "daemon $name does not answer"
}
# The -j stats of daemon $1 through python expression $2 (d: the document, dev: by name).
stats() {
	$NETBPF -j -D "$1" stats | json "dev = {x['name']: x for x in d['devices']}; $2"
}
# Wait (up to 10 s) until stats expression $2 of daemon $1 holds.
wait_for() {
	local end=$((SECONDS + 20))

	while [ $SECONDS -lt $end ]; do
		stats "$1" "assert $2" 2>/dev/null && return 0
		sleep 0.05
	done
	fail "daemon $1: never $2: $($NETBPF -D "$1" stats 2>&1)"
}

cat > "$tmp/setup.tc" <<EOF
# a finite generator whose tc ingress redirects to the next device, and an XDP devmap set-up
link add g0 type gen count 400000 rate 200000 size 64
link add s0 type sink
tc qdisc add dev g0 clsact
tc filter add dev g0 ingress pref 10 bpf da obj tcbpf1.o sec redirect_xmit
link add g1 type gen count 0 rate 50000
link add s1 type sink
ip link set dev g1 xdp obj xdp_redirect_map.o
EOF
start_daemon t --workers 2 --no-pin --bpf-stats "$tmp/setup.tc"
grep -q "listening on $tmp/run/t.sock" "$tmp/t.out" || fail "start line: $(cat "$tmp/t.out")"
[ "$(stat -c %a "$tmp/run/t.sock")" = 600 ] || fail "socket mode $(stat -c %a "$tmp/run/t.sock")"
[ "$(stat -c %a "$tmp/run")" = 700 ] || fail "directory mode $(stat -c %a "$tmp/run")"

# The same words print the same as in a script: tc filter show before anything changed.
printf '%s\n' "$(grep -v '^#' "$tmp/setup.tc")" "tc filter show dev g0 ingress" \
	"map show" > "$tmp/show.tc"
cp "$EX/tcbpf1.o" "$EX/xdp_redirect_map.o" "$tmp/"
want=$($NETBPF -batch "$tmp/show.tc") || fail "batch show: $want"
got=$({ $NETBPF -D t tc filter show dev g0 ingress; $NETBPF -D t map show; }) ||
	fail "daemon show: $got"
[ "$got" = "$want" ] || fail "daemon's show differs from the script's:
$got
--- script:
$want"
echo "$got" | grep -q "bpf chain 0 handle 0x1 tcbpf1.o:\[redirect_xmit\] direct-action" ||
	fail "filter show: $got"
got=$($NETBPF -j -D t tc filter show dev g0 ingress) || fail "-j filter show: $got"
want=$(printf '%s\n' "$(grep -v '^#' "$tmp/setup.tc")" "tc filter show dev g0 ingress" |
	$NETBPF -j -batch /dev/stdin) || fail "-j batch show: $want"
[ "[$got]" = "$want" ] || fail "-j show differs: $got / $want"

# A filter replaced 20 times while the generator runs: every packet reaches s0, none twice.
for i in $(seq 20); do
	$NETBPF -D t tc filter replace dev g0 ingress pref 10 handle 1 bpf da obj tcbpf1.o \
		sec redirect_xmit || fail "replace $i"
done
wait_for t "dev['g0']['rx_packets'] == 400000 and dev['s0']['tx_packets'] == 400000"
stats t "
g, s = dev['g0'], dev['s0']
assert g['dropped'] == 0 and s['dropped'] == 0 and g['host_packets'] == 0, (g, s)
# one filter, which keeps no counters of its own (the kernel's cls_bpf keeps none)
f = g['filters']
assert len(f) == 1 and 'packets' not in f[0], f
" || fail "accounting after replaces: $($NETBPF -D t stats)"
# --no-pin: the workers are left to the scheduler (cpu -1)
stats t "assert [w['cpu'] for w in d['workers']] == [-1, -1], d['workers']" ||
	fail "--no-pin: $($NETBPF -j -D t stats)"

# The devmap: empty, frames pass to the host; filled from here, they go out of s1.
ifg1=$(stats t "print(dev['g1']['ifindex'])")
ifs1=$(stats t "print(dev['s1']['ifindex'])")
wait_for t "dev['g1']['host_packets'] > 0"
stats t "assert dev['s1']['tx_packets'] == 0" || fail "s1 sent before the map was filled"
out=$($NETBPF -D t map update name tx_port key $ifg1 0 0 0 value $ifs1 0 0 0 0 0 0 0) ||
	fail "map update: $out"
[ -z "$out" ] || fail "map update printed '$out'"
wait_for t "dev['s1']['tx_packets'] > 1000"
out=$($NETBPF -D t map lookup name tx_port key $ifg1 0 0 0) || fail "lookup: $out"
[ "$out" = "key: $(printf %02x $ifg1) 00 00 00  value: $(printf %02x $ifs1) 00 00 00 00 00 00 00" ] ||
	fail "lookup printed '$out'"
out=$($NETBPF -j -D t map lookup name tx_port key $ifg1 0 0 0) || fail "-j lookup: $out"
echo "$out" | json "assert d['value'][0] == '0x%02x' % $ifs1, d" || fail "-j lookup: $out"
id=$($NETBPF -j -D t map show name tx_port | json "print(d['id'])") || fail "map show name"
out=$($NETBPF -D t map getnext id "$id") || fail "getnext: $out"
[ "$out" = "key:
None
next key:
00 00 00 00" ] || fail "getnext printed '$out'"
out=$($NETBPF -D t map dump id "$id") || fail "dump: $out"
echo "$out" | grep -q "^Found 1 element$" || fail "dump: $out"
# the program and its map as bpftool shows them, run statistics on (--bpf-stats)
out=$($NETBPF -D t prog show name xdp_redirect_map) || fail "prog show: $out"
	echo "$out" | grep -Eq "^[0-9]+: xdp  name xdp_redirect_ma  tag [0-9a-f]{16}  gpl run_time_ns [1-9][0-9]* run_cnt [1-9][0-9]*$" &&
	echo "$out" | grep -q "map_ids $id\$" || fail "prog show: $out"
$NETBPF -j -D t prog show | json "
assert sorted(p['type'] for p in d) == ['sched_cls', 'xdp'], d" || fail "-j prog show"
# delete the entry: frames pass to the host again
$NETBPF -D t map delete name tx_port key $ifg1 0 0 0 || fail "map delete"
sent=$(stats t "print(dev['s1']['tx_packets'])")
sleep 0.3
stats t "assert dev['s1']['tx_packets'] - $sent < 1000" || fail "s1 still sends"

# stats and monitor: the rates move
$NETBPF -D t stats | grep -Eq "^up [0-9.]+ s$" || fail "stats"
out=$($NETBPF -D t monitor count 2 interval 0.2) || fail "monitor: $out"
[ "$(echo "$out" | grep -Ec '^\[ *[0-9.]+s\] g0 rx .* g1 rx 0\.0[1-9] ')" -eq 2 ] ||
	fail "monitor rates: $out"
out=$($NETBPF -j -D t monitor count 1) || fail "-j monitor: $out"
echo "$out" | json "
r = {x['name']: x for x in d['devices']}
assert r['g1']['rx_pps'] > 5000 and r['g0']['rx_pps'] == 0 and d['interval_ms'] > 500, d
" || fail "-j monitor: $out"

# relative paths are the caller's; links come and go while the workers run
mkdir "$tmp/rel" && cp "$EX/tcbpf1.o" "$tmp/rel/x.o"
(cd "$tmp/rel" && $NETBPF -D t link add g2 type gen count 0 rate 100000 &&
	$NETBPF -D t link add s2 type sink &&
	$NETBPF -D t tc qdisc add dev g2 clsact &&
	$NETBPF -D t tc filter add dev g2 ingress bpf da obj x.o sec redirect_xmit) ||
	fail "adding g2 from $tmp/rel"
wait_for t "dev['s2']['tx_packets'] > 1000"
$NETBPF -D t link del g2 && $NETBPF -D t link del dev s2 || fail "link del"
$NETBPF -D t link show | grep -q g2 && fail "g2 still there"

# errors
expect_error() {
	local what=$1 want_rc=$2 pattern=$3
	shift 3
	local err rc
	err=$("$@" 2>&1 >/dev/null)
	rc=$?
	[ $rc -eq $want_rc ] || fail "$what: exit status $rc, expected $want_rc ($err)"
	echo "$err" | grep -q -- "$pattern" || fail "$what: '$err' lacks '$pattern'"
}
expect_error "unknown device" 1 'Cannot find device "nope"' $NETBPF -D t tc filter show dev nope
expect_error "key size" 2 "key has 3 bytes, the map's key size is 4" \
	$NETBPF -D t map lookup name tx_port key 1 0 0
expect_error "no map" 1 "no map named nope" $NETBPF -D t map dump name nope
expect_error "no daemon" 1 "no daemon listens on $tmp/run/nope.sock" $NETBPF -D nope link show
expect_error "bad name" 1 'daemon name ".x" is wrong' $NETBPF -D .x link show
expect_error "same name" 1 "a daemon listens on $tmp/run/t.sock already" \
	$NETBPF daemon --name t
# another user: uid 65534 with the right to open the socket file, so that the daemon's own
# check (SO_PEERCRED) is what refuses it
if [ "$(id -u)" = 0 ] && setpriv --reuid 65534 --regid 65534 --clear-groups \
	--inh-caps +dac_override --ambient-caps +dac_override true 2>/dev/null; then
	chmod 755 "$tmp" && chmod 711 "$tmp/run"
	expect_error "other user" 1 "permission denied: this daemon serves uid 0 and root, not uid 65534" \
		setpriv --reuid 65534 --regid 65534 --clear-groups --inh-caps +dac_override \
		--ambient-caps +dac_override $NETBPF -D t link show
	chmod 700 "$tmp/run"
else
	echo "(another user's connection not tried: needs root and setpriv with ambient caps)"
fi

# hostile peers: garbage gets an error reply; a stalled half request blocks nobody
"$PY" - "$tmp/run/t.sock" <<'PY' || fail "hostile peers"
import socket, struct, subprocess, sys, os, time
path = sys.argv[1]
def reply(s):
    hdr = b""
    while len(hdr) < 12:
        c = s.recv(12 - len(hdr))
        if not c:
            return None
        hdr += c
    magic, typ, zero, n = struct.unpack("=IHHI", hdr)
    body = b""
    while len(body) < n:
        body += s.recv(n - len(body))
    status, out_len, err_len = struct.unpack("=iII", body[:12])
    return status, body[12 + out_len:].decode()
s = socket.socket(socket.AF_UNIX); s.connect(path)
s.sendall(b"GET / HTTP/1.0\r\n\r\n")
st, err = reply(s)
assert st == 1 and "not a netbpf control message" in err, (st, err)
assert s.recv(1) == b"", "connection stays open after garbage"
# a header that promises 16 MiB
s = socket.socket(socket.AF_UNIX); s.connect(path)
s.sendall(struct.pack("=IHHI", 0x3163626e, 1, 0, 16 << 20))
st, err = reply(s)
assert st == 1 and "the limit is" in err, err
# counts that lie about the strings
s = socket.socket(socket.AF_UNIX); s.connect(path)
body = struct.pack("=III", 0, 0, 5) + b"/\0link\0"
s.sendall(struct.pack("=IHHI", 0x3163626e, 1, 0, len(body)) + body)
st, err = reply(s)
assert st == 1 and "expected 6" in err, err
# a stalled half request: others are served meanwhile
stall = socket.socket(socket.AF_UNIX); stall.connect(path)
stall.sendall(struct.pack("=IHHI", 0x3163626e, 1, 0, 100) + b"\0\0")
t = time.time()
r = subprocess.run([os.environ["NETBPF"], "-D", "t", "link", "show"], capture_output=True)
assert r.returncode == 0 and b"g0" in r.stdout and time.time() - t < 3, r
PY

# The default daemon, and NETBPF_DAEMON
start_daemon default
$NETBPF link add only_in_default type sink || fail "link add on the default daemon"
$NETBPF -D default link show | grep -q only_in_default || fail "default daemon"
NETBPF_DAEMON=t $NETBPF link show | grep -q only_in_default && fail "NETBPF_DAEMON ignored"
NETBPF_DAEMON=t $NETBPF link show | grep -q g1 || fail "NETBPF_DAEMON=t"

# a daemon killed hard leaves its socket; the next one of that name replaces it
start_daemon s
kill -9 "$pid_s"
wait "$pid_s" 2>/dev/null
[ -S "$tmp/run/s.sock" ] || fail "no stale socket to replace"
expect_error "dead daemon" 1 "its daemon has died" $NETBPF -D s link show
start_daemon s
$NETBPF -D s link show || fail "the new daemon s"

# SIGTERM: drained, summary, socket gone, exit 0
for d in s default t; do
	eval "p=\$pid_$d"
	kill -TERM "$p"
	wait "$p" || fail "daemon $d exited $?: $(tail -5 "$tmp/$d.err")"
	[ -e "$tmp/run/$d.sock" ] && fail "socket of $d left behind"
	grep -q "stopped by SIGTERM" "$tmp/$d.err" || fail "$d: $(cat "$tmp/$d.err")"
done
grep -Eq "^s0 +2 +0 +0 +400000 " "$tmp/t.out" || fail "t's summary: $(cat "$tmp/t.out")"
echo "daemon: commands from other processes, replace under traffic, map updates, errors, peers"
