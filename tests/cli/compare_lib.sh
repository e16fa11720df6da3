# Shared by the tests that hold netbpf's output to the kernel's own tools (compare_ip.sh; the tc
# comparison may use it too): a namespace of their own, and comparisons of text line by line and
# of JSON after parsing, each after normalisations the caller names and justifies.
#
#   compare_need_root                 exit 77 with the reason unless root with ip and netns
#   compare_netns NAME                make namespace NAME (IPv6 off: no router solicitations or
#                                     DAD frames move the counters); deleted when the shell exits
#   compare_text WHAT KFILE NFILE [REGEX=>REPLACEMENT]...
#   compare_json WHAT KFILE NFILE [drop:KEY | zero:KEY | sub:KEY:REGEX=>REPLACEMENT]...
#       compare the kernel's output (KFILE) with netbpf's (NFILE) after the rewrites, which apply
#       to both sides: REGEX (Python) on every text line (a line it empties is left out); for JSON, drop KEY or set KEY to 0
#       wherever it occurs, or rewrite KEY's string values. A difference prints "DIFF WHAT" and
#       the lines that differ, and adds one to $COMPARE_DIFFS; the status is 1.
COMPARE_DIFFS=0
COMPARE_NETNS=

compare_need_root() {
	[ "$(id -u)" -eq 0 ] || { echo "SKIPPED: needs root (network namespaces, the kernel's ip)"; exit 77; }
	command -v ip >/dev/null || { echo "SKIPPED: iproute2's ip is missing"; exit 77; }
	command -v python3 >/dev/null || { echo "SKIPPED: python3 is missing"; exit 77; }
}

compare_cleanup() {
	[ -n "$COMPARE_NETNS" ] && ip netns del "$COMPARE_NETNS" 2>/dev/null
	return 0
}

compare_netns() {
	COMPARE_NETNS=$1
	ip netns add "$1" 2>/dev/null || { echo "SKIPPED: cannot make a network namespace"; exit 77; }
	ip netns exec "$1" sysctl -qw net.ipv6.conf.all.disable_ipv6=1 \
		net.ipv6.conf.default.disable_ipv6=1 >/dev/null
}

compare_text() {
	local what=$1 k=$2 n=$3
	shift 3
	python3 - "$what" "$k" "$n" "$@" <<'EOF' || { COMPARE_DIFFS=$((COMPARE_DIFFS + 1)); return 1; }
import difflib, re, sys
what, kfile, nfile, rules = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
subs = [r.split('=>', 1) for r in rules]
def norm(path):
    out = []
    for line in open(path).read().splitlines():
        was = line
        for pat, rep in subs:
            line = re.sub(pat, rep, line)
        if line or not was:	# a line a rule empties is left out
            out.append(line)
    return out
k, n = norm(kfile), norm(nfile)
if k != n:
    print('DIFF %s' % what)
    for l in difflib.unified_diff(k, n, 'kernel', 'netbpf', lineterm='', n=0):
        print('    ' + l)
    sys.exit(1)
EOF
}

compare_json() {
	local what=$1 k=$2 n=$3
	shift 3
	python3 - "$what" "$k" "$n" "$@" <<'EOF' || { COMPARE_DIFFS=$((COMPARE_DIFFS + 1)); return 1; }
import json, re, sys
what, kfile, nfile, rules = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
def walk(x):
    if isinstance(x, list):
        return [walk(v) for v in x]
    if not isinstance(x, dict):
        return x
    out = {}
    for key, v in x.items():
        if 'drop:' + key in rules:
            continue
        if 'zero:' + key in rules:
            v = 0
        for r in rules:
            if r.startswith('sub:%s:' % key) and isinstance(v, str):
                pat, rep = r[len('sub:%s:' % key):].split('=>', 1)
                v = re.sub(pat, rep, v)
        out[key] = walk(v)
    return out
try:
    k = walk(json.load(open(kfile)))
    n = walk(json.load(open(nfile)))
except ValueError as e:
    print('DIFF %s: not JSON: %s' % (what, e))
    sys.exit(1)
if k != n:
    print('DIFF %s' % what)
    print('    kernel %s' % json.dumps(k, sort_keys=True))
    print('    netbpf %s' % json.dumps(n, sort_keys=True))
    sys.exit(1)
EOF
}
