#!/bin/bash
# Every help form: `netbpf help`, `X help` and `X --help` of each command word, and `help` after
# each object and sub-object of tc and ip (tc filter help, ip -6 route help, ip link help) print
# that word's usage on stdout and exit 0; under -j stdout is bpftool's `null`. A wrong command
# line prints the usage on stderr with status 2, an unknown option is called unknown (not said to
# "need an argument"), and tc's own options work in a script line (tc -s filter show).
. "$(dirname "$0")/lib.sh"
nb_tmp

# FORM... WANT: the usage's first line holds WANT
check() {
	local want=${!#} out err rc
	set -- "${@:1:$#-1}"
	out=$($NETBPF "$@" 2>"$tmp/err")
	rc=$?
	err=$(cat "$tmp/err")
	[ $rc -eq 0 ] || fail "netbpf $*: exit status $rc: $err"
	[ -z "$err" ] || fail "netbpf $*: said on stderr: $err"
	echo "$out" | head -1 | grep -q "^Usage: .*$want" || fail "netbpf $*: no usage of $want: $out"
	out=$($NETBPF -j "$@" 2>/dev/null)
	rc=$?
	[ $rc -eq 0 ] && [ "$out" = null ] || fail "netbpf -j $*: status $rc, stdout \"$out\""
	forms=$((forms + 1))
}

forms=0
check help "netbpf \[OPTIONS\]"
check --help "netbpf \[OPTIONS\]"
for w in run daemon diff vm map prog monitor; do
	check $w help "$w"
	check $w --help "$w"
done
for p in load verify run; do
	check prog $p help "prog $p"
	check prog $p --help "prog $p"
done
check prog dump help "prog dump"
check prog dump xlated help "prog dump"
check prog show help "prog { show"
check vm run help "vm run"
check vm dis help "vm run"
check link help "link add"
check stats help "stats"
check sysctl help "sysctl"
check tc help "tc \[ OPTIONS \]"
check tc -s help "tc \[ OPTIONS \]"
check tc qdisc help "tc qdisc"
check tc filter help "tc filter"
check tc fil help "tc filter"
check tc -s filter help "tc filter"
check tc actions help "tc actions"
check ip help "ip \[ OPTIONS \]"
check ip link help "ip link add"
check ip addr help "ip address"
check ip -6 route help "ip route"
check ip r help "ip route"
check ip rule help "ip rule"
check ip neigh help "ip neigh"

# tc's kinds bring their own words: every classifier and action built is in help, as an
# alternative of KIND [OPTIONS] or ACTION (the kinds as the errors list them)
kinds=$($NETBPF tc filter add dev x ingress flower 2>&1 | sed -n 's/.*not built (\(.*\) are)/\1/p' |
	sed 's/, / /g; s/ or / /')
[ -n "$kinds" ] || fail "no classifier kinds listed"
for k in $kinds; do
	$NETBPF tc filter help | grep -Eq "^( {3}| \| )$k " || fail "tc filter help has no $k"
done
acts=$($NETBPF tc actions list action x 2>&1 | sed -n 's/.*expected \(.*\)/\1/p' |
	sed 's/, / /g; s/ or / /')
[ -n "$acts" ] || fail "no action kinds listed"
for k in $acts; do
	$NETBPF tc actions help | grep -Eq "^(ACTION := \{| {10}\|) $k " ||
		fail "tc actions help has no $k"
done

# ip link's own usage: the xdp words, which netbpf's link word does not take
$NETBPF ip link help | grep -q "ip link set \[dev\] DEV { xdp | xdpgeneric | xdpdrv }" ||
	fail "ip link help has no xdp line: $($NETBPF ip link help)"
$NETBPF link help | grep -q "xdpgeneric" && fail "link help names xdp, which link set does not take"
# -j with ip's own option
[ "$($NETBPF ip -j link help)" = null ] || fail "ip -j link help: $($NETBPF ip -j link help)"

# A wrong command line: the usage on stderr, status 2, nothing on stdout
for form in "run --foo" "daemon --foo" "prog verify --foo" "prog dump xlated --foo" \
	    "prog run x.o --foo" "diff x.o --foo" "vm run --foo"; do
	out=$($NETBPF $form 2>"$tmp/err")
	rc=$?
	[ $rc -eq 2 ] || fail "netbpf $form: exit status $rc, not 2"
	[ -z "$out" ] || fail "netbpf $form: said on stdout: $out"
	grep -q '"--foo" is unknown' "$tmp/err" || fail "netbpf $form: $(cat "$tmp/err")"
	grep -q "needs an argument" "$tmp/err" && fail "netbpf $form: $(cat "$tmp/err")"
done
for form in "run --duration" "prog run x.o --pcap-in" "diff x.o --pcap-in" "daemon --name"; do
	$NETBPF $form 2>"$tmp/err" >/dev/null
	rc=$?
	[ $rc -eq 2 ] && grep -q "needs an argument" "$tmp/err" ||
		fail "netbpf $form: status $rc: $(cat "$tmp/err")"
done
$NETBPF prog 2>"$tmp/err" >/dev/null
[ $? -eq 2 ] && grep -q "^Usage: netbpf prog load" "$tmp/err" || fail "prog alone: $(cat "$tmp/err")"

# tc's own options on a script line, and for that line only
cat > "$tmp/s.tc" <<'EOF'
link add gen0 type gen count 10
tc qdisc add dev gen0 clsact
tc filter add dev gen0 ingress pref 10 matchall action drop
tc -s filter show dev gen0 ingress
tc filter show dev gen0 ingress
EOF
out=$($NETBPF -batch "$tmp/s.tc" 2>&1) || fail "tc -s in a script: $out"
[ "$(echo "$out" | grep -c 'Sent 0 bytes 0 pkt')" = 1 ] ||
	fail "tc -s filter show: one line of counters wanted, then none: $out"
# netbpf run - reads the script from stdin
out=$($NETBPF -batch /dev/null 2>&1) || fail "empty script: $out"
out=$(printf 'link add g type gen count 5\nlink add s type sink\n' |
	$NETBPF run - 2>&1) || fail "run -: $out"
echo "$out" | grep -q "g" || fail "run -: $out"

echo "help: $forms forms, each in text and JSON"
