#!/bin/bash
# --busy-poll: how long a worker polls its quiet queues before it sleeps in poll(). A pipe that
# carries nothing is the quiet queue: with 0 (and adaptive, the default, which has seen no
# traffic to adapt to) the worker sleeps at once and makes a round or two in 1.5 s; with a
# second it polls through the whole second (rounds by the million); with 200 ms it polls that
# long, then sleeps (its CPU time stays below what 1.5 s of polling would take).
. "$(dirname "$0")/lib.sh"
nb_tmp

echo "link add p0 type pipe peer p1" > "$tmp/quiet.tc"

# run_quiet ARGS...: the worker's "rounds cpu_ns" after 1.5 s on the quiet pipe
run_quiet() {
	$NETBPF -j run "$tmp/quiet.tc" --duration 1.5 "$@" > "$tmp/run.json" ||
		fail "run $*: $(cat "$tmp/run.json")"
	json 'w = d["workers"][0]; print(w["idle_rounds"], w["cpu_ns"])' < "$tmp/run.json" ||
		fail "run $*: no worker in $(cat "$tmp/run.json")"
}

read -r rounds cpu < <(run_quiet --busy-poll 0)
[ "$rounds" -le 10 ] || fail "--busy-poll 0: $rounds rounds on a quiet pipe, it did not sleep"
read -r rounds cpu < <(run_quiet)
[ "$rounds" -le 10 ] || fail "adaptive: $rounds rounds on a quiet pipe, it did not sleep"
read -r rounds cpu < <(run_quiet --busy-poll 1000000)
[ "$rounds" -ge 10000 ] || fail "--busy-poll 1000000: only $rounds rounds, it did not poll"
read -r rounds cpu < <(run_quiet --busy-poll 200000)
[ "$rounds" -ge 1000 ] || fail "--busy-poll 200000: only $rounds rounds, it did not poll"
[ "$cpu" -lt 700000000 ] ||
	fail "--busy-poll 200000: $cpu ns of CPU in 1.5 s, it polled on past 200 ms"

for cmd in run daemon; do
	expect_err 2 '"x" is wrong: --busy-poll takes adaptive or 0 to 1000000' \
		$NETBPF $cmd --busy-poll x
	expect_err 2 '"1000001" is wrong: --busy-poll takes' $NETBPF $cmd --busy-poll 1000001
	expect_err 2 '"-1" is wrong: --busy-poll takes' $NETBPF $cmd --busy-poll -1
	expect_err 2 '"--busy-poll" needs an argument' $NETBPF $cmd --busy-poll
done
echo "busy_poll: quiet pipe: 0 and adaptive sleep at once, 1 s and 200 ms poll that long"
