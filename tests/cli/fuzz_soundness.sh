#!/bin/bash
# A short libFuzzer run of the verifier's soundness (tests/fuzz/fuzz_soundness.c): generated
# programs that the verifier accepts run unchecked under ASan and UBSan with everything around
# their memory poisoned, on the interpreter and the JIT; no sanitizer report, crash or engine
# difference in NB_FUZZ_TIME seconds (20 by default; make fuzz runs it for longer). The summary
# says how many programs were generated and accepted.
set -u
FUZZ=${NB_FUZZ_DIR:-build/fuzz}/fuzz_soundness
if [ ! -x "$FUZZ" ]; then
	echo "SKIPPED: $FUZZ is not built (make fuzz-build; the plain make check builds it)"
	exit 77
fi
corpus=$(dirname "$FUZZ")/corpus/fuzz_soundness
log=$(dirname "$FUZZ")/fuzz_soundness.log
mkdir -p "$corpus"
if ! "$FUZZ" -max_total_time="${NB_FUZZ_TIME:-20}" -rss_limit_mb=2048 -timeout=30 \
	-max_len=4096 -artifact_prefix="$(dirname "$FUZZ")/" "$corpus" >"$log" 2>&1; then
	tail -60 "$log"
	echo "FAIL: fuzz_soundness found a problem (full log in $log, crash input beside it in $(dirname "$FUZZ"))"
	exit 1
fi
summary=$(grep -o 'fuzz_soundness: [0-9]* programs, [0-9]* accepted ([0-9]*%)' "$log" | tail -1)
echo "fuzz_soundness: $(grep -o 'Done [0-9]* runs' "$log" | awk '{print $2}') runs," \
	"${summary#fuzz_soundness: }, $(ls "$corpus" | wc -l) corpus files, nothing found"
