#!/bin/bash
# A short libFuzzer run of the JIT against the interpreter (tests/fuzz/fuzz_jit_diff.c): no
# mismatch, crash, leak or sanitizer report in NB_FUZZ_TIME seconds (20 by default; make fuzz
# runs it for longer).
set -u
FUZZ=${NB_FUZZ_DIR:-build/fuzz}/fuzz_jit_diff
OBJ=${NB_BUILD:-build}/tests/bpf
if [ ! -x "$FUZZ" ]; then
	echo "SKIPPED: $FUZZ is not built (make fuzz-build; the plain make check builds it)"
	exit 77
fi
corpus=$(dirname "$FUZZ")/corpus/fuzz_jit_diff
log=$(dirname "$FUZZ")/fuzz_jit_diff.log
mkdir -p "$corpus"
if ! "$FUZZ" -max_total_time="${NB_FUZZ_TIME:-20}" -rss_limit_mb=2048 -timeout=10 \
	-artifact_prefix="$(dirname "$FUZZ")/" \
	"$corpus" "$OBJ" >"$log" 2>&1; then
	tail -40 "$log"
	echo "FAIL: fuzz_jit_diff found a problem (full log in $log, crash input beside it in $(dirname "$FUZZ"))"
	exit 1
fi
echo "fuzz_jit_diff: $(grep -o 'Done [0-9]* runs' "$log" | awk '{print $2}') runs," \
	"$(ls "$corpus" | wc -l) corpus files, nothing found"
