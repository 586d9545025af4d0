#!/usr/bin/env python3
"""Where one click's time goes: the release demo clicked at rest, its stages timed by perf.

    scripts/click-stages.py [--headless] [--clicks N] [--demo PATH]

Starts the release demo (windowed under Xvfb, or --headless), clicks its checkbox N times (default
300), each 20 ms after the last answer, and records with `perf` the moments each click passes in
the app: uprobes on the functions that mark a stage's end (found in the binary's symbol table) and
the scheduler's wake-ups of the app's threads, on the CLOCK_MONOTONIC the driver reads too. Prints
each stage's median and p99 in microseconds and its share of the median click. docs/performance.md
("Where a click's time goes") says what each stage is and what bounds it.

Needs perf with uprobes (root, or perf_event_paranoid -1 and access to tracefs), xvfb-run for the
windowed demo, and the release demo (`cargo build --release --example demo --features automation`;
--demo names another build, such as one `scripts/bench.sh --compare REF` keeps in target/compare).
Prints only; asserts nothing.
"""

import argparse
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CLICK = "click role=checkbox name=Subscribe"
AT_REST_S = 0.020

# The probes, by the mangled symbol's pattern. Each marks where a stage ends.
PROBES = {
    "read_entry": r"24winit_automation_dropbox5queue10read_entry17h",
    "plan": r"Planner\$GT\$4plan17h",
    "take_input": r"RenderEnd\$GT\$10take_input17h",
    "published": r"RenderEnd14publish_locked17h",
    "verified": r"23winit_automation_acting12press_answer17h",
    "write": r"24winit_automation_dropbox7publish7publish17h",
}

# The stages, in order: the event that ends each (the click's write starts the first).
STAGES = [
    ("svc_wake", "the file's arrival: the client's write, inotify, the watch thread, the service thread woken"),
    ("read_entry", "the service's wake: the round, the listing, the entry read"),
    ("plan", "the entry parsed and taken, the plan begun"),
    ("app_woken", "the plan: aim, the press check, the order sent and the app woken"),
    ("take_input", "the order's wait for a frame: the event loop wakes and opens a frame"),
    ("published", "press and release: the frame with both as its input, until it is published"),
    ("verified", "verification: the app's press report read against the target"),
    ("write", "the answer formatted, until its file is written"),
    ("written", "the answer's write (response-<seq>.txt in place)"),
    ("read", "the client sees the file and reads it (here: a 0.1 ms poll)"),
]


def symbols(binary):
    out = subprocess.run(["nm", binary], check=True, capture_output=True, text=True).stdout
    found = {}
    for name, pattern in PROBES.items():
        for line in out.splitlines():
            parts = line.split()
            if len(parts) == 3 and re.search(pattern, parts[2]):
                found[name] = parts[2]
                break
        else:
            sys.exit(f"click-stages: no symbol like {pattern} in {binary} (a build of this tree?)")
    return found


def add_probes(binary):
    subprocess.run(["perf", "probe", "-q", "-d", "wa_click:*"], capture_output=True)
    for name, symbol in symbols(binary).items():
        specs = [(name, symbol)]
        if name == "write":
            specs.append(("written", symbol + "%return"))
        for event, spec in specs:
            r = subprocess.run(
                ["perf", "probe", "-q", "-x", binary, "--no-demangle", "-a", f"wa_click:{event}={spec}"],
                capture_output=True, text=True)
            if r.returncode != 0:
                sys.exit(f"click-stages: perf probe {event}: {r.stderr.strip()} (root, or perf_event_paranoid -1)")


class Demo:
    def __init__(self, binary, headless, temp):
        self.dir = os.path.join(temp, "box")
        os.mkdir(self.dir, 0o700)
        env = dict(os.environ, WGPU_BACKEND="vulkan")
        args = [binary, "--dir", self.dir]
        if headless:
            args += ["--headless", "--size", "800x600"]
            env.pop("DISPLAY", None)
            env.pop("WAYLAND_DISPLAY", None)
        else:
            args = ["xvfb-run", "-a", "-s", "-screen 0 1280x800x24"] + args
        self.proc = subprocess.Popen(args, env=env, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL, start_new_session=True)
        until = time.monotonic() + 60
        while not self.send("find role=checkbox name=Subscribe").startswith("ok"):
            if time.monotonic() > until:
                sys.exit("click-stages: the demo showed no checkbox in 60 s")
            time.sleep(0.05)
        self.send("settle")

    def send(self, line):
        """Writes a command as the client library does; returns its answer."""
        return self.send_timed(line)[0]

    def send_timed(self, line):
        """Writes a command; returns its answer, and the monotonic times (ns) just before its
        file is created and just after its answer is read."""
        deadline = int(time.time() * 1000) + 30_000
        # A fresh seq above every file of the queue, found before the clock starts.
        seqs = [int(m.group(1)) for m in map(re.compile(r"^\w+-(\d+)\.txt$").match,
                                             os.listdir(self.dir)) if m]
        seq = max(seqs, default=0) + 1
        start = time.clock_gettime_ns(time.CLOCK_MONOTONIC)
        while True:
            path = os.path.join(self.dir, f"command-{seq}.txt")
            try:
                fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            except FileExistsError:
                seq += 1
                continue
            if any(os.path.exists(os.path.join(self.dir, f"{k}-{seq}.txt"))
                   for k in ("response", "taken", "withdrawn")):
                os.close(fd)
                os.remove(path)
                seq += 1
                continue
            os.write(fd, f"{line} --deadline {deadline}\n".encode())
            os.close(fd)
            break
        answer = os.path.join(self.dir, f"response-{seq}.txt")
        until = time.monotonic() + 30
        while True:
            try:
                with open(answer) as f:
                    text = f.read()
                os.remove(answer)
                return text, start, time.clock_gettime_ns(time.CLOCK_MONOTONIC)
            except FileNotFoundError:
                if time.monotonic() > until:
                    sys.exit(f"click-stages: no answer to {line!r} in 30 s")
                time.sleep(0.0001)

    def threads(self):
        """The demo's pid and its threads' ids by name."""
        pid = int(subprocess.run(["pgrep", "-s", str(self.proc.pid), "-x", "demo"],
                                 capture_output=True, text=True).stdout.split()[0])
        names = {}
        for tid in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{tid}/comm") as f:
                names[int(tid)] = f.read().strip()
        return pid, names

    def stop(self):
        os.killpg(self.proc.pid, signal.SIGTERM)
        self.proc.wait()


EVENT = re.compile(r"^\s*(\S.*?)\s+(\d+)/(\d+)\s+\[\d+\]\s+([\d.]+):\s+(\S+):\s*(.*)$")


def read_events(data):
    out = subprocess.run(["perf", "script", "-i", data, "-F", "comm,pid,tid,cpu,time,event,trace"],
                         capture_output=True, text=True).stdout
    events = []
    for line in out.splitlines():
        m = EVENT.match(line)
        if not m:
            continue
        _, pid, tid, t, event, rest = m.groups()
        events.append((int(float(t) * 1e9), event.rstrip(":"), int(pid), int(tid), rest))
    events.sort()
    return events


def stages_of(clicks, events, app_pid, main_tid, svc_tid):
    """Each click's stage ends, from its write to its read: a list of durations in µs."""
    rows = []
    i = 0
    for start, end in clicks:
        while i < len(events) and events[i][0] < start:
            i += 1
        marks = {"start": start}
        want = [s for s, _ in STAGES if s != "read"]
        k = 0
        j = i
        while j < len(events) and events[j][0] <= end and k < len(want):
            t, event, pid, tid, rest = events[j]
            name = want[k]
            hit = False
            # A wake-up is logged by the thread that wakes another, or in the idle task of the
            # woken one's CPU (pid 0): the woken thread is the one to match.
            if name == "svc_wake":
                hit = event == "sched:sched_wakeup" and f" pid={svc_tid} " in f" {rest} "
            elif name == "app_woken":
                hit = event == "sched:sched_wakeup" and f" pid={main_tid} " in f" {rest} "
            else:
                # A return probe's event is named <name>__return.
                hit = event.split("__")[0] == f"wa_click:{name}" and pid == app_pid
            if hit:
                marks[name] = t
                k += 1
            j += 1
        if k < len(want):
            continue
        marks["read"] = end
        names = ["start"] + [s for s, _ in STAGES]
        rows.append([(marks[b] - marks[a]) / 1e3 for a, b in zip(names, names[1:])])
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--headless", action="store_true", help="the demo with no window")
    parser.add_argument("--clicks", type=int, default=300, help="clicks to time (default 300)")
    parser.add_argument("--demo", help="the demo binary (default: this tree's release demo)")
    args = parser.parse_args()
    binary = os.path.abspath(args.demo or os.path.join(ROOT, "target/release/examples/demo"))
    if not args.demo:
        subprocess.run(["cargo", "build", "--release", "--quiet", "--example", "demo",
                        "--features", "automation"], cwd=ROOT, check=True)
    add_probes(binary)
    with tempfile.TemporaryDirectory() as temp:
        demo = Demo(binary, args.headless, temp)
        try:
            app_pid, names = demo.threads()
            svc = [t for t, n in names.items() if n == "automation-svc"]
            if not svc:
                sys.exit("click-stages: the demo has no automation-svc thread")
            for _ in range(20):
                time.sleep(AT_REST_S)
                demo.send(CLICK)
            data = os.path.join(temp, "perf.data")
            perf = subprocess.Popen(
                ["perf", "record", "-q", "-k", "CLOCK_MONOTONIC", "-a", "-o", data,
                 "-e", "wa_click:*", "-e", "sched:sched_wakeup"],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            # perf opens its events after it starts: the clicks before that are not matched
            # (each click is matched only when every stage's event is found).
            time.sleep(1)
            clicks = []
            for _ in range(args.clicks):
                time.sleep(AT_REST_S)
                text, start, end = demo.send_timed(CLICK)
                if not text.startswith("ok"):
                    sys.exit(f"click-stages: the click was refused:\n{text}")
                clicks.append((start, end))
            perf.send_signal(signal.SIGINT)
            perf.wait()
            rows = stages_of(clicks, read_events(data), app_pid, app_pid, svc[0])
        finally:
            demo.stop()
            subprocess.run(["perf", "probe", "-q", "-d", "wa_click:*"], capture_output=True)
    if len(rows) < len(clicks) // 2:
        sys.exit(f"click-stages: only {len(rows)} of {len(clicks)} clicks had every stage's event")
    totals = sorted(sum(r) for r in rows)
    median_total = statistics.median(totals)
    kind = "headless" if args.headless else "windowed"
    print(f"{kind} demo {binary}: {len(rows)} of {len(clicks)} clicks matched; "
          f"whole click p50 {median_total:.0f} us, p99 {totals[int(0.99 * (len(totals) - 1))]:.0f} us")
    print("| stage | p50 (us) | p99 (us) | share of p50 |")
    print("|---|---|---|---|")
    for n, (_, what) in enumerate(STAGES):
        col = sorted(r[n] for r in rows)
        p50 = statistics.median(col)
        print(f"| {what} | {p50:.0f} | {col[int(0.99 * (len(col) - 1))]:.0f} | {100 * p50 / median_total:.0f}% |")


if __name__ == "__main__":
    main()
