#!/bin/sh
# Installs netbpf's Debian build dependencies when some are missing; with "bench", also what
# make bench uses (gnuplot for netbpf bench's chart, libdpdk-dev for its DPDK peer), which
# make check never needs.
# As root it runs apt-get; otherwise it prints the exact command and fails.
set -eu

PKGS="clang llvm gcc make pkg-config libelf-dev zlib1g-dev libbpf-dev libpcap-dev libxdp-dev linux-libc-dev bpftool python3"
[ "${1:-}" = bench ] && PKGS="$PKGS gnuplot-nox libdpdk-dev"

missing=""
for p in $PKGS; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
		missing="$missing $p"
	fi
done
[ -z "$missing" ] && exit 0

cmd="apt-get install -y --no-install-recommends$missing"
if [ "$(id -u)" != 0 ]; then
	echo "netbpf: missing build dependencies:$missing" >&2
	echo "netbpf: run as root: apt-get update && $cmd" >&2
	exit 1
fi
echo "netbpf: installing build dependencies:$missing" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
$cmd
