#!/bin/bash
# README.md's two-shell example of `netbpf daemon`, run as written: the daemon of its first line
# in the background (shell 1), then each `$ netbpf ...` line of shell 2 in order, from the
# repository's root. What the README shows under a line is what the line must print: the same
# words, any numbers where it shows numbers, but a rate or counter the README shows as zero
# must be zero and one it shows non-zero must be non-zero (so the rates must move when it says
# they move); "..." stands for the rest of a line. `kill %1` stops the daemon, which must drain,
# exit 0 and remove its socket.
. "$(dirname "$0")/lib.sh"
[ -e README.md ] && [ -e examples/seed-tc.tc ] ||
	{ echo "SKIPPED: not run from the repository's root"; exit 77; }
[ -e "$BUILD/examples/tcbpf1.o" ] && [ -e "$BUILD/examples/xdp_redirect_map.o" ] ||
	{ echo "SKIPPED: the example objects are not built"; exit 77; }
command -v python3 >/dev/null || { echo "SKIPPED: python3 is missing"; exit 77; }
nb_tmp
export NETBPF NETBPF_RUNDIR=$tmp/run	# the example's "default" daemon is this test's own
unset NETBPF_DAEMON

python3 - README.md <<'PY'
import os, re, signal, subprocess, sys, time

netbpf, rundir = os.environ["NETBPF"], os.environ["NETBPF_RUNDIR"]
text = open(sys.argv[1]).read()
m = re.search(r"### A datapath you can drive: `netbpf daemon`\n\n```sh\n(.*?)\n```", text, re.S)
if not m:
    sys.exit("FAIL: README.md has no two-shell example under 'A datapath you can drive'")
comment = re.compile(r"\s{2,}#.*$")
steps = []	# [command, [expected lines]]
for line in m.group(1).splitlines():
    if line.startswith("$ "):
        steps.append([comment.sub("", line[2:]), []])
        if line.startswith("$ kill %1"):
            break
    elif steps and line.strip() and not line.startswith("#"):
        steps[-1][1].append(comment.sub("", line))
assert steps and steps[0][0].startswith("netbpf daemon ") and steps[-1][0] == "kill %1", steps

NUM = re.compile(r"(?<=[\s\[(])(\d+(?:\.\d+)?)(?=s\]|\s|$)")

def pattern(want):
    """A regex of an expected line: its numbers any numbers, '...' anything."""
    out, nums, pos = "", [], 0
    for n in NUM.finditer(want):
        out += re.escape(want[pos:n.start()]) + r"(\d+(?:\.\d+)?)"
        nums.append(float(n.group(1)))
        pos = n.end()
    out += re.escape(want[pos:])
    out = out.replace(re.escape("..."), ".*")
    out = re.sub(r"(\\ )+", r"\\s+", out)
    return re.compile(r"^\s*" + out.strip() + r"\s*$"), nums

def check(cmd, got, want):
    lines = got.rstrip("\n").split("\n") if got.strip() else []
    if len(lines) != len(want):
        sys.exit(f"FAIL: '{cmd}' printed {len(lines)} lines, the README shows {len(want)}:\n"
                 f"{got}--- README:\n" + "\n".join(want))
    for g, w in zip(lines, want):
        rx, nums = pattern(w)
        m = rx.match(g)
        if not m:
            sys.exit(f"FAIL: '{cmd}' printed\n  {g}\nthe README shows\n  {w}")
        for i, (shown, n) in enumerate(zip(nums, m.groups())):
            if (shown == 0) != (float(n) == 0):
                sys.exit(f"FAIL: '{cmd}': number {i + 1} is {n}, the README shows {shown} "
                         f"(zero must stay zero, non-zero non-zero):\n  {g}\n  {w}")

def netbpf_words(cmd):
    return re.sub(r"(^|;\s*|\|\s*)netbpf\b", lambda m: m.group(1) + '"$NETBPF"', cmd)

# shell 1
words = steps[0][0].split()[1:]
daemon = subprocess.Popen([netbpf] + words, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True)
sock = os.path.join(rundir, "default.sock")
for _ in range(400):
    if subprocess.run([netbpf, "-D", "default", "stats"], capture_output=True).returncode == 0:
        break
    if daemon.poll() is not None:
        sys.exit(f"FAIL: the daemon exited: {daemon.stderr.read()}")
    time.sleep(0.05)
else:
    daemon.kill()
    sys.exit("FAIL: the daemon does not answer")
time.sleep(2)	# as a reader would, a moment later: the daemon has sampled its rates
try:
    for cmd, want in steps[1:-1]:
        r = subprocess.run(["bash", "-c", netbpf_words(cmd)], capture_output=True, text=True)
        if r.returncode:
            sys.exit(f"FAIL: '{cmd}' exited {r.returncode}: {r.stderr}")
        if want:
            check(cmd, r.stdout, want)
        print(f"ok: {cmd}")
finally:
    if daemon.poll() is None:
        daemon.send_signal(signal.SIGTERM)
    out, err = daemon.communicate(timeout=60)
start = out.split("\n")[0]
check(steps[0][0], start.replace(sock, "/run/netbpf/default.sock") + "\n", steps[0][1])
if daemon.returncode != 0 or "stopped by SIGTERM" not in err or os.path.exists(sock):
    sys.exit(f"FAIL: kill %1: exit {daemon.returncode}, socket left: {os.path.exists(sock)}:"
             f" {err}")
if not re.search(r"^s9 +8 ", out, re.M):
    sys.exit(f"FAIL: kill %1: the summary lacks s9: {out}")
PY
rc=$?
[ $rc -eq 0 ] || exit 1
echo "readme_daemon: the README's two-shell example runs as written"
