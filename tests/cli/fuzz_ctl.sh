#!/bin/bash
# A short libFuzzer run of the command language: scripts, u32 keys, tc actions and ip words
# (tests/fuzz/fuzz_ctl.c).
# NB_FUZZ_TIME seconds (20 by default); make fuzz runs it for longer (tests/fuzz/run.sh).
exec bash tests/fuzz/run.sh fuzz_ctl "${NB_FUZZ_TIME:-20}"
