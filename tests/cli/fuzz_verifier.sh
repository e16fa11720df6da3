#!/bin/bash
# A short libFuzzer run of the verifier on random instruction streams (tests/fuzz/fuzz_verifier.c):
# every input a verdict with a reason, no crash, hang, leak or sanitizer report.
# NB_FUZZ_TIME seconds (20 by default); make fuzz runs it for longer (tests/fuzz/run.sh).
exec bash tests/fuzz/run.sh fuzz_verifier "${NB_FUZZ_TIME:-20}"
