#!/bin/bash
# A short libFuzzer run of the JIT against the interpreter (tests/fuzz/fuzz_jit_diff.c): no
# mismatch, crash, leak or sanitizer report.
# NB_FUZZ_TIME seconds (20 by default); make fuzz runs it for longer (tests/fuzz/run.sh).
exec bash tests/fuzz/run.sh fuzz_jit_diff "${NB_FUZZ_TIME:-20}"
