#!/bin/bash
# A short libFuzzer run of the object loader (tests/fuzz/fuzz_elf.c), seeded with the test
# objects: no crash, leak or sanitizer report. In make check the run is reproducible: a fixed
# seed, a fixed number of runs (NB_FUZZ_RUNS) and a fresh corpus, so that CI never fails on a
# finding that a developer's run did not see. make fuzz runs the target for longer on its
# growing corpus.
. "$(dirname "$0")/lib.sh"
FUZZ=${NB_FUZZ_DIR:-build/fuzz}/fuzz_elf
OBJ=$BUILD/tests/bpf
if [ ! -x "$FUZZ" ]; then
	echo "SKIPPED: $FUZZ is not built (make fuzz-build; the plain make check builds it)"
	exit 77
fi
corpus=$(mktemp -d)
trap 'rm -rf "$corpus"' EXIT
log=$(dirname "$FUZZ")/fuzz_elf.log
if ! "$FUZZ" -seed=1 -runs="${NB_FUZZ_RUNS:-20000}" -rss_limit_mb=2048 -timeout=10 \
	-artifact_prefix="$(dirname "$FUZZ")/" "$corpus" "$OBJ" >"$log" 2>&1; then
	tail -40 "$log"
	echo "FAIL: fuzz_elf found a problem (log $log;" \
		"$(grep -o 'Test unit written to .*' "$log"))"
	exit 1
fi
echo "fuzz_elf: $(grep -o 'Done [0-9]* runs' "$log" | awk '{print $2}') runs," \
	"$(ls "$corpus" | wc -l) corpus files, nothing found"
