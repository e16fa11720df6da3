#!/bin/bash
# Run one libFuzzer target of tests/fuzz for SECONDS on its growing corpus
# ($NB_FUZZ_DIR/corpus/TARGET), with the seeds, dictionary and limits it needs:
#
#   tests/fuzz/run.sh TARGET SECONDS
#
# make fuzz runs every target this way (FUZZ_TIME seconds each), tests/cli/fuzz_*.sh for about
# 20 s in make check. The last line says what was run and found: runs, coverage (libFuzzer's
# cov and ft), corpus files, and the target's own summary when it prints one. A finding
# (crash, sanitizer report, leak, timeout) fails with the tail of the log; the input that
# caused it is written to $NB_FUZZ_DIR (crash-*, leak-*, timeout-*): make it a corpus file and
# a regression test.
set -u
target=${1:?usage: run.sh TARGET SECONDS}
secs=${2:?usage: run.sh TARGET SECONDS}
FUZZ_DIR=${NB_FUZZ_DIR:-build/fuzz}
BUILD=${NB_BUILD:-build}
bin=$FUZZ_DIR/$target
if [ ! -x "$bin" ]; then
	echo "SKIPPED: $bin is not built (make fuzz-build; the plain make check builds it)"
	exit 77
fi
corpus=$FUZZ_DIR/corpus/$target
seeds=$FUZZ_DIR/seeds/$target
log=$FUZZ_DIR/$target.log
rm -rf "$seeds"
mkdir -p "$corpus" "$seeds"
opts=(-max_total_time="$secs" -rss_limit_mb=2048 -timeout=10)
dirs=("$corpus" "$seeds")

case $target in
fuzz_elf | fuzz_jit_diff)
	dirs+=("$BUILD/tests/bpf")
	;;
fuzz_verifier)
	opts+=(-timeout=60 -max_len=2049)	# a full-budget walk takes seconds under ASan
	;;
fuzz_soundness)
	opts+=(-timeout=30 -max_len=4096)
	;;
fuzz_control)
	opts+=(-max_len=4096)
	;;
fuzz_btf)
	# the .BTF and .BTF.ext of every test object, each behind the 4-byte length of its .BTF
	for o in "$BUILD"/tests/bpf/*.o; do
		b=$seeds/.btf e=$seeds/.ext
		rm -f "$b" "$e"
		llvm-objcopy --dump-section .BTF="$b" --dump-section .BTF.ext="$e" "$o" \
			"$seeds/.junk" 2>/dev/null || continue
		[ -f "$e" ] || : >"$e"
		n=$(stat -c %s "$b")
		printf "$(printf '\\x%02x\\x%02x\\x%02x\\x%02x' $((n & 255)) $((n >> 8 & 255)) \
			$((n >> 16 & 255)) $((n >> 24 & 255)))" >"$seeds/$(basename "$o")"
		cat "$b" "$e" >>"$seeds/$(basename "$o")"
	done
	rm -f "$seeds/.btf" "$seeds/.ext" "$seeds/.junk"
	;;
fuzz_pcap)
	cp tests/data/*.pcap "$seeds/"
	if [ -n "${NETBPF:-}" ] && [ -x "$NETBPF" ]; then
		"$NETBPF" prog run "$BUILD/examples/tcbpf1.o" sec redirect_xmit \
			--pcap-in tests/data/packets.pcap --pcap-out "$seeds/out.pcapng" >/dev/null 2>&1
	fi
	;;
fuzz_ctl)
	opts+=(-dict=tests/fuzz/fuzz_ctl.dict)
	for s in examples/*.tc; do
		{ printf '\0'; cat "$s"; } >"$seeds/$(basename "$s")"
	done
	printf '\1match ip src 10.0.0.1/32 match ip dport 80 0xffff flowid 1:1 action drop' \
		>"$seeds/u32"
	printf '\2action gact drop index 3' >"$seeds/actions"
	printf '\3xdpgeneric off' >"$seeds/ip"
	;;
fuzz_map_file)
	printf 'key 1 0 0 0 value 2 0 0 0 0 0 0 0\n# comment\n\nkey hex 01 00 00 00 value 0x2a 0 0 0\n' \
		>"$seeds/map"
	;;
esac

if ! "$bin" "${opts[@]}" -artifact_prefix="$FUZZ_DIR/" "${dirs[@]}" >"$log" 2>&1; then
	tail -60 "$log"
	echo "FAIL: $target found a problem (full log in $log, the input beside it in $FUZZ_DIR)"
	exit 1
fi
runs=$(grep -o 'Done [0-9]* runs' "$log" | awk '{print $2}')
cov=$(grep -o 'cov: [0-9]* ft: [0-9]*' "$log" | tail -1)
own=$(grep "^$target: " "$log" | tail -1)
echo "$target: ${runs:-0} runs in $secs s, ${cov:-cov: ?}, $(ls "$corpus" | wc -l) corpus files," \
	"nothing found${own:+; ${own#"$target: "}}"
