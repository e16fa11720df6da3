#!/bin/bash
# A short libFuzzer run of the verifier (tests/fuzz/fuzz_verifier.c) on random instruction
# streams: no crash, hang (60 s under the sanitizers, where a walk of the full 1,000,000
# instruction budget takes seconds), leak or sanitizer report in NB_FUZZ_TIME seconds (10 by default here;
# make fuzz runs it for longer).
set -u
FUZZ=${NB_FUZZ_DIR:-build/fuzz}/fuzz_verifier
if [ ! -x "$FUZZ" ]; then
	echo "SKIPPED: $FUZZ is not built (make fuzz-build; the plain make check builds it)"
	exit 77
fi
corpus=$(dirname "$FUZZ")/corpus/fuzz_verifier
log=$(dirname "$FUZZ")/fuzz_verifier.log
mkdir -p "$corpus"
if ! "$FUZZ" -max_total_time="${NB_FUZZ_TIME:-10}" -rss_limit_mb=2048 -timeout=60 \
	-artifact_prefix="$(dirname "$FUZZ")/" \
	-max_len=2049 "$corpus" >"$log" 2>&1; then
	tail -40 "$log"
	echo "FAIL: fuzz_verifier found a problem (full log in $log, crash input beside it in $(dirname "$FUZZ"))"
	exit 1
fi
echo "fuzz_verifier: $(grep -o 'Done [0-9]* runs' "$log" | awk '{print $2}') runs," \
	"$(ls "$corpus" | wc -l) corpus files, nothing found"
