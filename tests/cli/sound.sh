#!/bin/bash
# make sound, shortened: nb-sound generates 4,000 programs from their seeds, verifies them and
# runs the accepted ones on both engines in two processes, and counts them (the full run is
# `make sound`: 10^7 programs under ASan). A process that dies running a program is an escape:
# --abort-at shows that one is caught, named by its seed, counted, and that the run goes on.
. "$(dirname "$0")/lib.sh"
NB_BUILD=$BUILD
SOUND=$NB_BUILD/nb-sound
[ -x "$SOUND" ] || { echo "SKIPPED: $SOUND is not built (make $SOUND)"; exit 77; }

summary='^nb-sound: 4000 programs (seeds 7..4006), [0-9]* accepted'
out=$(timeout 600 "$SOUND" --programs 4000 --seed 7 --jobs 2 2>&1) || fail "exit $?: $out"
echo "$out" | grep -q "$summary" || fail "summary: $out"
echo "$out" | grep -q ', 0 escapes, 0 mismatches, ' || fail "findings: $out"
accepted=$(echo "$out" | sed -n 's/.* \([0-9]*\) accepted (.*/\1/p')
# a generator that writes mostly rejects tests little
[ "$accepted" -ge 2000 ] || fail "only $accepted of 4000 accepted: $out"

out=$(timeout 600 "$SOUND" --programs 4000 --seed 7 --jobs 2 --abort-at 1000 2>&1)
[ $? -eq 1 ] || fail "an escape: exit status 0: $out"
echo "$out" | grep -q 'escape at seed 1007 (signal 6; nb-sound --seed 1007 --programs 1' ||
	fail "escape not named: $out"
echo "$out" | grep -q "$summary" || fail "the run did not go on after the escape: $out"
echo "$out" | grep -q ', 1 escapes, 0 mismatches, ' || fail "escape not counted: $out"

out=$("$SOUND" --jobs 0 2>&1)
[ $? -eq 2 ] || fail "--jobs 0: exit status"
echo "$out" | grep -q -- '--jobs takes 1 to 64' || fail "--jobs 0: $out"
echo "sound: ok"
