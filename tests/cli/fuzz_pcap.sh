#!/bin/bash
# A short libFuzzer run of pcap and pcapng files as prog run and the pcap port read them
# (tests/fuzz/fuzz_pcap.c).
# NB_FUZZ_TIME seconds (20 by default); make fuzz runs it for longer (tests/fuzz/run.sh).
exec bash tests/fuzz/run.sh fuzz_pcap "${NB_FUZZ_TIME:-20}"
