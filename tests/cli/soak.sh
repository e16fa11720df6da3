#!/bin/bash
# make soak, shortened: nb-soak runs 2,000,000 frames through the seed's three tc set-ups and an
# XDP devmap redirect on two workers while the control plane replaces programs and rewrites the
# devmap entry, and ends with every frame accounted for (the full run is `make soak`: 10^9
# frames, resident memory judged too).
. "$(dirname "$0")/lib.sh"
NB_BUILD=$BUILD
SOAK=$NB_BUILD/nb-soak
[ -x "$SOAK" ] || { echo "SKIPPED: $SOAK is not built (make $SOAK)"; exit 77; }

out=$(NB_BUILD=$NB_BUILD timeout 300 "$SOAK" --packets 2000000 2>&1) || fail "exit $?: $out"
echo "$out" | grep -q '^soak: 2000000 frames in .* on 2 workers' || fail "frames made: $out"
echo "$out" | grep -q '^soak: passed$' || fail "verdict: $out"
line=$(echo "$out" | grep '^soak: in ') || fail "no accounting line: $out"
in=$(echo "$line" | sed -n 's/^soak: in \([0-9]*\) .*/\1/p')
outn=$(echo "$line" | sed -n 's/.* out \([0-9]*\) .*/\1/p')
# the seed's first set-up clones every frame it sends: more in than were made
[ -n "$in" ] && [ "$in" = "$outn" ] && [ "$in" -gt 2000000 ] || fail "accounting: $line"
echo "$line" | grep -q ', 0 buffers outstanding$' || fail "buffers: $line"

out=$("$SOAK" --frames 10 2>&1)
[ $? -eq 1 ] || fail "a wrong option: exit status"
echo "$out" | grep -q 'usage: nb-soak \[--packets N\] \[--workers N\]' || fail "usage: $out"
echo "soak: ok"
