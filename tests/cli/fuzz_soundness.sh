#!/bin/bash
# A short libFuzzer run of the verifier's soundness (tests/fuzz/fuzz_soundness.c): accepted
# programs run unchecked under ASan with their memory's surroundings poisoned, on both engines; the
# summary counts generated and accepted programs.
# NB_FUZZ_TIME seconds (20 by default); make fuzz runs it for longer (tests/fuzz/run.sh).
exec bash tests/fuzz/run.sh fuzz_soundness "${NB_FUZZ_TIME:-20}"
