# shellcheck shell=bash
# What every tests/cli script starts with, sourced as its first command:
#
#	. "$(dirname "$0")/lib.sh"
#
# so that each still runs alone: NETBPF=build/netbpf NB_BUILD=build bash tests/cli/X.sh. The
# runner skips *lib.sh (nb-test --scripts). It gives:
#   NETBPF     the command (default build/netbpf), absolute when it names a path
#   BUILD, B   the build directory (NB_BUILD, default build), absolute; EX its examples/
#   fail MSG   "FAIL: MSG", exit 1;  skip MSG   "SKIPPED: MSG", exit 77
#   need CMD [WHY]   skip unless CMD is installed
#   nb_in_own_netns WHY "$@"   the rest of the script in a network namespace of its own
#              (unshare -n, re-run with "inner" as $1); skipped without root (WHY: what needs
#              it), unshare, ip or python3, or a namespace
#   nb_tmp     a fresh directory in $tmp, removed at exit (after the script's cleanup function,
#              if it defines one)
#   json EXPR  python3 on the JSON document on stdin as d: json 'assert d["x"] == 1, d'
#   expect_err STATUS MSG CMD...   CMD exits with STATUS and says MSG on stderr, and no
#              sanitizer report (a leak on an error path keeps the exit status)
#   skip_unless_bpf_permitted STATUS OUT   after a netbpf diff that exited STATUS saying OUT:
#              skip when this process may not load BPF into the kernel (not root, no
#              CAP_BPF); the kernel refusing anything else is for the caller to fail on
set -u
NETBPF=${NETBPF:-build/netbpf}
BUILD=${NB_BUILD:-build}
case $NETBPF in /*) ;; */*) NETBPF=$PWD/$NETBPF ;; esac
case $BUILD in /*) ;; *) BUILD=$PWD/$BUILD ;; esac
B=$BUILD
EX=$BUILD/examples

fail() { echo "FAIL: $*"; exit 1; }
skip() { echo "SKIPPED: $*"; exit 77; }
need() { command -v "$1" >/dev/null || skip "$1 is missing${2:+ ($2)}"; }

nb_lib_exit() {
	if declare -F cleanup >/dev/null; then
		cleanup
	fi
	[ -z "${tmp:-}" ] || rm -rf "$tmp"
}

# Not made on sourcing: a script that re-executes itself (unshare) would leave one behind.
nb_tmp() {
	tmp=$(mktemp -d) || fail "mktemp"
	trap nb_lib_exit EXIT
}

nb_in_own_netns() {
	local why=$1 c
	shift
	[ "${1:-}" = inner ] && return 0
	[ "$(id -u)" = 0 ] || skip "needs root ($why)"
	for c in unshare ip python3; do
		need $c
	done
	unshare -n true 2>/dev/null || skip "cannot make a network namespace"
	NETBPF=$NETBPF NB_BUILD=$BUILD exec unshare -n bash "$0" inner
}

json() { python3 -c "import json,sys; d=json.load(sys.stdin); $1"; }

expect_err() {
	local want=$1 msg=$2 out rc
	shift 2
	out=$("$@" 2>&1 >/dev/null)
	rc=$?
	[ $rc -eq "$want" ] || fail "$* exited $rc, expected $want: $out"
	echo "$out" | grep -qF -- "$msg" || fail "$*: expected \"$msg\" in: $out"
	# a leak on an error path keeps the error's exit status: only its report tells
	case $out in *Sanitizer*) fail "$*: $out" ;; esac
}

skip_unless_bpf_permitted() {
	if [ "$1" -eq 2 ] && echo "$2" | grep -q "not permitted"; then
		skip "this process may not load BPF into the kernel: $2"
	fi
}
