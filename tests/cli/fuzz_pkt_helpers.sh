#!/bin/bash
# A short libFuzzer run of the packet helpers on hostile frames (tests/fuzz/fuzz_pkt_helpers.c).
# NB_FUZZ_TIME seconds (20 by default); make fuzz runs it for longer (tests/fuzz/run.sh).
exec bash tests/fuzz/run.sh fuzz_pkt_helpers "${NB_FUZZ_TIME:-20}"
