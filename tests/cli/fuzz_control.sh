#!/bin/bash
# A short libFuzzer run of the daemon's control protocol (tests/fuzz/fuzz_control.c): raw
# streams, well-formed requests of random words, requests with a byte replaced, and replies as
# the client decodes them; no crash, hang, leak or sanitizer report, and the connection's output
# always whole replies. In make check the run is reproducible (a fixed seed, a fresh corpus)
# and lasts NB_FUZZ_TIME seconds (20 by default); make fuzz runs it for longer.
. "$(dirname "$0")/lib.sh"
FUZZ=${NB_FUZZ_DIR:-build/fuzz}/fuzz_control
if [ ! -x "$FUZZ" ]; then
	echo "SKIPPED: $FUZZ is not built (make fuzz-build; the plain make check builds it)"
	exit 77
fi
corpus=$(mktemp -d)
trap 'rm -rf "$corpus"' EXIT
log=$(dirname "$FUZZ")/fuzz_control.log
if ! "$FUZZ" -seed=1 -max_total_time="${NB_FUZZ_TIME:-20}" -rss_limit_mb=2048 -timeout=10 \
	-artifact_prefix="$(dirname "$FUZZ")/" -max_len=4096 "$corpus" >"$log" 2>&1; then
	tail -40 "$log"
	echo "FAIL: fuzz_control found a problem (log $log;" \
		"$(grep -o 'Test unit written to .*' "$log"))"
	exit 1
fi
echo "fuzz_control: $(grep -o 'Done [0-9]* runs' "$log" | awk '{print $2}') runs," \
	"$(ls "$corpus" | wc -l) corpus files, nothing found"
