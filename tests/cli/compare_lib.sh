# Shared by the tests that hold netbpf's output to the kernel's own tools (compare_ip.sh,
# bpftool_compare.sh, tc_compare.sh), sourced after lib.sh (its skip, need, fail and json): a
# namespace of their own, netbpf's side run after a set-up script, and comparisons of text line
# by line and of JSON after parsing, each after normalisations the caller names and justifies.
#
#   compare_need_root                 exit 77 with the reason unless root with ip and netns
#   compare_netns NAME                make namespace NAME (IPv6 off: no router solicitations or
#                                     DAD frames move the counters)
#   compare_cleanup                   delete it: the caller's cleanup (lib.sh) calls this
#   compare_nb WORDS...               netbpf's output of WORDS after the set-up script
#                                     $tmp/setup.tc, in a datapath of their own (-batch)
#   compare_nbj WORDS...              the same under -j: WORDS' document alone (-batch prints
#                                     an array of the show lines' documents)
#   compare_text WHAT KFILE NFILE [REGEX=>REPLACEMENT]...
#   compare_json WHAT KFILE NFILE [drop:KEY | zero:KEY | sub:KEY:REGEX=>REPLACEMENT | ordered]...
#       compare the kernel's output (KFILE) with netbpf's (NFILE) after the rewrites, which apply
#       to both sides: REGEX (Python) on every text line (a line it empties is left out); for
#       JSON, drop KEY or set KEY to 0 wherever it occurs, or rewrite KEY's string values, and
#       with ordered, objects' members compare in order and with repeats (tc's u32 repeats
#       "match"), not as sets. A difference prints "DIFF WHAT" and the lines that differ, and
#       adds one to $COMPARE_DIFFS; the status is 1. Each comparison adds one to
#       $COMPARE_CHECKED.
#   compare_prog_show KID             bpftool prog show (text and -j) of the kernel's program KID
#                                     against netbpf's program 1: ids, the load time (after the
#                                     kernel's, before now), sizes and verified_insns aside
#   compare_report TOOLS              the count of comparisons and differences; fail if any
COMPARE_DIFFS=0
COMPARE_CHECKED=0
COMPARE_NETNS=

compare_need_root() {
	[ "$(id -u)" -eq 0 ] || skip "needs root (network namespaces, the kernel's ip)"
	need ip iproute2
	need python3
}

compare_cleanup() {
	[ -n "$COMPARE_NETNS" ] && ip netns del "$COMPARE_NETNS" 2>/dev/null
	return 0
}

compare_netns() {
	COMPARE_NETNS=$1
	ip netns add "$1" 2>/dev/null || skip "cannot make a network namespace"
	ip netns exec "$1" sysctl -qw net.ipv6.conf.all.disable_ipv6=1 \
		net.ipv6.conf.default.disable_ipv6=1 >/dev/null
}

compare_nb() {
	{ cat "$tmp/setup.tc"; echo "$*"; } > "$tmp/cmd.tc"
	$NETBPF -batch "$tmp/cmd.tc"
}

compare_nbj() {
	{ cat "$tmp/setup.tc"; echo "$*"; } > "$tmp/cmd.tc"
	$NETBPF -j -batch "$tmp/cmd.tc" | json 'print(json.dumps(d[-1]))'
}

compare_text() {
	local what=$1 k=$2 n=$3
	shift 3
	COMPARE_CHECKED=$((COMPARE_CHECKED + 1))
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
	COMPARE_CHECKED=$((COMPARE_CHECKED + 1))
	python3 - "$what" "$k" "$n" "$@" <<'EOF' || { COMPARE_DIFFS=$((COMPARE_DIFFS + 1)); return 1; }
import difflib, json, re, sys
what, kfile, nfile, rules = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
ordered = 'ordered' in rules
class Members(list):	# an object's members as read, in order, repeats kept
    def __eq__(self, other):	# not equal to an array of pairs
        return isinstance(other, Members) and list.__eq__(self, other)
    __hash__ = None
def walk(x):
    if isinstance(x, Members):
        out = []
        for key, v in x:
            if 'drop:' + key in rules:
                continue
            if 'zero:' + key in rules:
                v = 0
            for r in rules:
                if r.startswith('sub:%s:' % key) and isinstance(v, str):
                    pat, rep = r[len('sub:%s:' % key):].split('=>', 1)
                    v = re.sub(pat, rep, v)
            out.append((key, walk(v)))
        return Members(out) if ordered else dict(out)
    if isinstance(x, list):
        return [walk(v) for v in x]
    return x
def show(x, indent=''):	# indented, an object's members in their order (repeats too)
    inner = indent + ' '
    if isinstance(x, (Members, dict)):
        members = x if isinstance(x, Members) else sorted(x.items())
        items, ends = ['%s: %s' % (json.dumps(k), show(v, inner)) for k, v in members], '{}'
    elif isinstance(x, list):
        items, ends = [show(v, inner) for v in x], '[]'
    else:
        return json.dumps(x)
    if not items:
        return ends
    return ends[0] + '\n' + ',\n'.join(inner + i for i in items) + '\n' + indent + ends[1]
try:
    k = walk(json.load(open(kfile), object_pairs_hook=Members))
    n = walk(json.load(open(nfile), object_pairs_hook=Members))
except ValueError as e:
    print('DIFF %s: not JSON: %s' % (what, e))
    sys.exit(1)
if k != n:
    print('DIFF %s' % what)
    for l in difflib.unified_diff(show(k).splitlines(), show(n).splitlines(), 'kernel',
                                  'netbpf', lineterm='', n=3):
        print('    ' + l)
    sys.exit(1)
EOF
}

# Normalised: ids, the order of map_ids, btf_id (each side numbers and orders its own); the load
# time (each side's own, checked for order below); xlated and jited sizes (each side's
# fixups and JIT are its own); netbpf's addition, verified_insns (README).
compare_prog_show() {
	bpftool prog show id "$1" > "$tmp/k"
	compare_nb prog show id 1 > "$tmp/n"
	compare_text "prog show" "$tmp/k" "$tmp/n" '^[0-9]+: =>ID: ' \
		'^\tloaded_at [^ ]+  =>\tloaded_at TIME  ' '^\tbtf_id [0-9]+$=>\tbtf_id ID' \
		'xlated [0-9]+B  jited [0-9]+B=>xlated NB  jited NB' 'map_ids [0-9,]+=>map_ids IDS'
	bpftool -j prog show id "$1" > "$tmp/k"
	compare_nbj prog show id 1 > "$tmp/n"
	compare_json "prog show (JSON)" "$tmp/k" "$tmp/n" zero:id zero:map_ids zero:loaded_at \
		zero:btf_id drop:verified_insns zero:bytes_xlated zero:bytes_jited
	# netbpf loaded its program after the kernel's and before now (a second either way for
	# the rounding of each side's boot-time arithmetic)
	python3 - "$tmp/k" "$tmp/n" "$(date +%s)" <<'EOF' || fail "prog show: loaded_at is no load time"
import json, sys
k, n = (json.load(open(f))['loaded_at'] for f in sys.argv[1:3])
sys.exit(not k - 1 <= n <= int(sys.argv[3]) + 1)
EOF
}

compare_report() {
	echo "$COMPARE_CHECKED commands compared with $1: $COMPARE_DIFFS differ"
	[ "$COMPARE_DIFFS" -eq 0 ] || fail "$COMPARE_DIFFS of $COMPARE_CHECKED differ"
	echo ok
}
