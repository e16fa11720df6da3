#!/bin/bash
# A short libFuzzer run of BTF and .BTF.ext as the object loader reads them
# (tests/fuzz/fuzz_btf.c).
# NB_FUZZ_TIME seconds (20 by default); make fuzz runs it for longer (tests/fuzz/run.sh).
exec bash tests/fuzz/run.sh fuzz_btf "${NB_FUZZ_TIME:-20}"
