#!/bin/bash
# Every command line of README.md's code blocks, run against the built netbpf, so that the
# README cannot go stale. A block is one of:
# - a synopsis: lines with placeholders (`[...]`, `{ a | b }`, `...`, NAME, OBJ): not run;
# - a script (lines of link, tc, ip, sysctl, bridge words): run as a script by `netbpf run`,
#   every line must be accepted;
# - shell lines (`netbpf ...`, `printf ... | netbpf ...`, `$ ...`, `sudo ...`, `make`, `cc`):
#   each run by bash in a directory where `build`, `examples` and `tests` are the repository's,
#   and what the README shows under a line is what it must print (stdout and stderr), with
#   `...` for any lines or any text and the parts no two runs share (times, random values, the
#   random bytes a diff marks) taken as any; a line exits 0 unless its comment says
#   `exit status N`;
# - C code: fragments of the API, compiled and run by tests/unit.
# Lines that need root (`sudo`, kernel interfaces) run in a network namespace of the test's own
# when root, and are skipped, with the reason, otherwise; the `netbpf daemon` example is
# tests/cli/readme_daemon.sh's; `make` targets and `netbpf bench` (minutes) are make's own.
. "$(dirname "$0")/lib.sh"
[ -e README.md ] && [ -e examples/seed-tc.tc ] ||
	{ echo "SKIPPED: not run from the repository's root"; exit 77; }
[ -e "$BUILD/examples/tcbpf1.o" ] && [ -e "$BUILD/tests/bpf/elf_iproute2.o" ] ||
	{ echo "SKIPPED: the example and test objects are not built"; exit 77; }
command -v python3 >/dev/null || { echo "SKIPPED: python3 is missing"; exit 77; }
README=${README:-README.md}
ns=
cleanup() {
	[ -n "$ns" ] && ip netns del "$ns" 2>/dev/null
}
nb_tmp
export NETBPF NETBPF_RUNDIR=$tmp/run
unset NETBPF_DAEMON

# The directory the examples run in: the repository's paths, and netbpf on PATH.
mkdir -p "$tmp/work/build" "$tmp/bin"
for f in "$BUILD"/*; do
	ln -s "$f" "$tmp/work/build/"
done
ln -s "$PWD/examples" "$tmp/work/examples"
ln -s "$PWD/tests" "$tmp/work/tests"
# netbpf's stdout line-buffered, as on a terminal: its lines and its stderr's in their order
printf '#!/bin/sh\nexec stdbuf -oL "%s" "$@"\n' "$NETBPF" > "$tmp/bin/netbpf"
chmod +x "$tmp/bin/netbpf"
ln -sf "$tmp/bin/netbpf" "$tmp/work/build/netbpf"
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0
export PATH=$tmp/bin:$PATH
# libnetbpf as `make install` would leave it, for the embedding example (make check stages it).
pc=$(find "$BUILD/stage" -name netbpf.pc 2>/dev/null | head -1)
if [ -n "$pc" ]; then
	export PKG_CONFIG_PATH=$(dirname "$pc") PKG_CONFIG_SYSROOT_DIR=$BUILD/stage
	export LD_LIBRARY_PATH=$(dirname "$(dirname "$pc")")
	export NB_STAGED=1
fi
# Root: a namespace for what acts on kernel interfaces.
if [ "$(id -u)" = 0 ] && ip netns add "nbreadme$$" 2>/dev/null; then
	ns=nbreadme$$
	ip -n $ns link set lo up
fi
export NB_NETNS=$ns

python3 - "$README" "$tmp/work" <<'PY'
import os, re, subprocess, sys

readme, work = sys.argv[1], sys.argv[2]
netns = os.environ.get("NB_NETNS", "")
root = os.geteuid() == 0

SHELL_WORDS = {"netbpf", "printf", "make", "clang", "cc", "sudo", "head"}
SCRIPT_WORDS = {"link", "tc", "ip", "sysctl", "bridge"}
COMMENT = re.compile(r"\s{2,}#(\s.*)?$")
PLACEHOLDER = re.compile(r"[\[{]|\.\.\.|(?<![$\w-])[A-Z][A-Z0-9_]+\b(?!=)")

def blocks(text):
    """(language, first line number, lines) of every fenced block."""
    out, cur = [], None
    for n, line in enumerate(text.split("\n"), 1):
        if line.startswith("```"):
            if cur is None:
                cur = (line[3:].strip(), n + 1, [])
            else:
                out.append(cur)
                cur = None
        elif cur is not None:
            cur[2].append(line)
    return out

def split_comment(s):
    """(text, comment): a comment is two spaces and '#' outside quotes, to the end."""
    quote = None
    for i, c in enumerate(s):
        if quote:
            quote = None if c == quote else quote
        elif c in "'\"":
            quote = c
        elif COMMENT.match(s, i) and (i == 0 or not s[i - 1].isspace()):
            return s[:i], s[i:]
    return s, ""

def unquoted(s):
    return re.sub(r"'[^']*'|\"[^\"]*\"", "''", s)

def synopsis(cmd):
    return bool(PLACEHOLDER.search(unquoted(cmd)))

def joined(lines):
    """Shell continuation lines joined; (line, text) pairs."""
    out, acc = [], None
    for i, line in enumerate(lines):
        if acc is not None:
            acc[1] = acc[1][:-1] + " " + line.strip()
        else:
            acc = [i, line]
        if not acc[1].endswith("\\"):
            out.append(tuple(acc))
            acc = None
    return out

failed, ran, skipped = [], 0, []

def fail(where, msg):
    failed.append(f"README.md:{where}: {msg}")
    print(f"FAIL: README.md:{where}: {msg}")

def skip(where, cmd, why):
    skipped.append(why)
    print(f"skip: README.md:{where}: {cmd}: {why}")

def line_regex(want):
    rx = re.escape(want.rstrip())
    rx = rx.replace(re.escape("..."), ".*")
    # what no two runs share: times, random values, bytes a diff marks as differing
    rx = re.sub(r"duration\\ \d+\\ ns", r"duration\\ \\d+\\ ns", rx)
    rx = re.sub(r"(?<![\w.])\d{6,}(?![\w.])", r"\\d+", rx)
    rx = re.sub(r"\\\*[0-9a-f]{2}", r"[* ][0-9a-f]{2}", rx)
    return rx

def output_matches(got, want):
    # blank lines are the block's layout: left out on both sides
    want = [split_comment(w)[0] for w in want if w.strip()]
    rx = ""
    for w in want:
        rx += r"(?:[^\n]*\n)*?" if w.strip() == "..." else line_regex(w) + r"[ \t]*\n"
    got = "".join(l.rstrip() + "\n" for l in got.split("\n") if l.strip())
    return re.fullmatch(rx, got) is not None

def run(where, cmd, want, status, in_netns=False):
    global ran
    shell = ["bash", "-c", "set -o pipefail; " + cmd]
    if in_netns:
        shell = ["ip", "netns", "exec", netns] + shell
    try:
        r = subprocess.run(shell, cwd=work, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           text=True, timeout=300)
    except subprocess.TimeoutExpired:
        return fail(where, f"'{cmd}' ran for more than 300 s")
    ran += 1
    if r.returncode != status:
        return fail(where, f"'{cmd}' exited {r.returncode}, the README says {status}:\n"
                    + r.stdout[-3000:])
    if want and not output_matches(r.stdout, want):
        return fail(where, f"'{cmd}' printed\n{r.stdout[-3000:]}--- the README shows:\n"
                    + "\n".join(want))
    print(f"ok: README.md:{where}: {cmd}")

def shell_block(start, lines):
    steps = []	# [line number, command, comment, expected lines]
    in_synopsis = False
    for i, line in joined(lines):
        where = start + i
        text = line[2:] if line.startswith("$ ") else line
        word = text.split()[0] if text.strip() else ""
        is_cmd = line.startswith("$ ") or not line[:1].isspace() and (
            word in SHELL_WORDS or word in SCRIPT_WORDS or word.startswith("./"))
        if not line.strip() or line.startswith("#"):
            in_synopsis = False
            continue
        if in_synopsis and line[0] in " \t" and not line.startswith("$ "):
            continue
        if is_cmd:
            cmd, comment = split_comment(text)
            cmd = cmd.strip()
            in_synopsis = synopsis(cmd)
            if not in_synopsis:
                steps.append([where, cmd, comment, []])
        elif steps and not in_synopsis:
            steps[-1][3].append(line)
        else:
            fail(where, f"a line that is neither a command nor what one prints: {line!r}")
    for where, cmd, comment, want in steps:
        m = re.search(r"exit status (\d+)", comment)
        status = int(m.group(1)) if m else 0
        first = cmd.split()[0]
        if first == "make":
            skip(where, cmd, "a make target, make's own")
        elif re.match(r"netbpf bench\b", cmd):
            skip(where, cmd, "a benchmark of minutes: make bench runs it")
        elif first == "sudo" and not root:
            skip(where, cmd, "needs root")
        elif first == "sudo" and not netns:
            skip(where, cmd, "cannot make a network namespace")
        elif first == "sudo":
            run(where, cmd[len("sudo "):], want, status)
        elif first == "ip":
            # the kernel's ip: interfaces of a namespace of the test's own, with what follows
            if not netns:
                return skip(where, cmd, "needs root and a network namespace")
            rest = [s for s in steps if s[0] >= where]
            script = "\n".join(s[1] for s in rest)
            return run(where, script, rest[-1][3], status, in_netns=True)
        elif "pkg-config" in cmd or cmd.startswith("./embed"):
            if not os.environ.get("NB_STAGED"):
                skip(where, cmd, "libnetbpf is not installed (make stage)")
            else:
                run(where, cmd, want, status)
        else:
            run(where, cmd, want, status)

def script_block(start, lines):
    script, needs_root = [], False
    in_synopsis = False
    for i, line in joined(lines):
        if not line.strip() or line.startswith("#"):
            continue
        if in_synopsis and line[0] in " \t":
            continue
        cmd = split_comment(line)[0].strip()
        in_synopsis = synopsis(cmd)
        if in_synopsis:
            continue
        if cmd.split()[0] not in SCRIPT_WORDS:
            return fail(start + i, f"a script block's line is no script word: {line!r}")
        if re.search(r"\btype (afpacket|tap|afxdp)\b", cmd):
            needs_root = True
        script.append(cmd)
    if not script:
        return print(f"synopsis: README.md:{start}")
    path = os.path.join(work, f"block{start}.tc")
    if needs_root and not netns:
        return skip(start, "a script", "its ports need root and a network namespace")
    setup = ""
    if needs_root:
        # the kernel interfaces it names, made in the test's namespace
        for ifname in sorted(set(re.findall(r"\btype afpacket dev (\S+)", "\n".join(script)))):
            setup += f"ip link add {ifname} type veth peer name {ifname}p && " \
                     f"ip link set {ifname} up && ip link set {ifname}p up && "
    with open(path, "w") as f:
        f.write("\n".join(script) + "\n")
    run(start, setup + f"netbpf run {path} --duration 0.2 >/dev/null", [], 0,
        in_netns=needs_root)

text = open(readme).read()
for lang, start, lines in blocks(text):
    body = [l for l in lines if l.strip()]
    if not body:
        continue
    if lang == "c":
        print(f"C: README.md:{start}: API fragments (tests/unit)")
        continue
    if any(l.startswith("$ netbpf daemon") for l in body):
        print(f"daemon: README.md:{start}: tests/cli/readme_daemon.sh runs it")
        continue
    # a block's kind is in its first words (indented lines continue a synopsis or are output)
    words = {l[2:].split()[0] if l.startswith("$ ") else l.split()[0] for l in body
             if not l.startswith("#") and not l[0].isspace()}
    if any(l.startswith("$ ") for l in body) or words & SHELL_WORDS \
            or any(w.startswith("./") for w in words):
        shell_block(start, lines)
    elif words <= SCRIPT_WORDS:
        script_block(start, lines)
    else:
        fail(start, "a block that holds no command (output belongs under the `$ command` "
             "that prints it)")

print(f"readme_examples: {ran} commands run, {len(skipped)} skipped, {len(failed)} failed")
if failed:
    sys.exit(1)
if not ran:
    sys.exit(77)
PY
rc=$?
[ $rc -eq 0 ] || exit $rc
echo "readme_examples: the README's examples run as written"
