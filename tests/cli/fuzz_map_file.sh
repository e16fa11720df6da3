#!/bin/bash
# A short libFuzzer run of the --map file format (tests/fuzz/fuzz_map_file.c).
# NB_FUZZ_TIME seconds (20 by default); make fuzz runs it for longer (tests/fuzz/run.sh).
exec bash tests/fuzz/run.sh fuzz_map_file "${NB_FUZZ_TIME:-20}"
