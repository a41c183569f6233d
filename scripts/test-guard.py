#!/usr/bin/env python3
"""Runs one `swift test` (or any command) and ends it when it hangs, leaving the evidence behind.

    scripts/test-guard.py NAME -- swift test --filter ...

A run hangs when it has printed Swift Testing's summary ("Test run with N tests ... after") and is still
alive AFTER_SUMMARY seconds later, or when it has printed nothing for QUIET seconds. Then every thread
stack of every process under it (the test binary above all) is printed with gdb, the processes are
killed, and the guard exits 1 naming the suite. Otherwise it exits with the command's own status.

A test binary whose tests have all run but whose process never exits would otherwise hold CI until its
90-minute limit, with no trace of why.

Environment: GSTPIPE_TEST_QUIET (seconds, default 600), GSTPIPE_TEST_AFTER_SUMMARY (seconds, default 60).
"""
import collections
import os
import re
import signal
import subprocess
import sys
import threading
import time

SUMMARY = re.compile(r"Test run with \d+ tests? .*(passed|failed).* after ")
# Swift Testing's lines for one test starting and ending (with its own name; parameterized ones print
# their cases after the "started" line and end once).
STARTED = re.compile(r'^\S+ Test "(.*)" started\.')
ENDED = re.compile(r'^\S+ Test "(.*)" (passed|failed|skipped)')


def descendants(root):
    """Every process below `root`, read from /proc (children before their own children)."""
    children = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
            children.setdefault(int(fields[1]), []).append(int(entry))
        except (OSError, IndexError, ValueError):
            continue
    found, queue = [], [root]
    while queue:
        pid = queue.pop(0)
        for child in children.get(pid, []):
            found.append(child)
            queue.append(child)
    return found


def command_line(pid):
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as file:
            return file.read().replace(b"\0", b" ").decode(errors="replace").strip()
    except OSError:
        return "?"


def thread_names(pid):
    names = []
    try:
        for task in sorted(os.listdir(f"/proc/{pid}/task"), key=int):
            with open(f"/proc/{pid}/task/{task}/comm") as comm:
                names.append(f"{task}:{comm.read().strip()}")
    except OSError:
        pass
    return names


def dump(pid):
    """Every thread's stack in `pid`, as gdb prints it (eu-stack when gdb is missing)."""
    print(f"test-guard: process {pid}: {command_line(pid)}", flush=True)
    print(f"test-guard: its threads: {' '.join(thread_names(pid))}", flush=True)
    for tool in (["gdb", "-p", str(pid), "-batch", "-nx", "-ex", "set pagination off",
                  "-ex", "thread apply all bt"], ["eu-stack", "-p", str(pid)]):
        try:
            result = subprocess.run(tool, capture_output=True, text=True, timeout=120)
        except (OSError, subprocess.TimeoutExpired) as error:
            print(f"test-guard: {tool[0]}: {error}", flush=True)
            continue
        print(result.stdout, flush=True)
        if result.returncode == 0:
            return
        print(result.stderr, flush=True)


def main():
    if "--" not in sys.argv or sys.argv.index("--") != 2:
        print("usage: test-guard.py NAME -- COMMAND [ARGUMENT...]", file=sys.stderr)
        return 2
    name, command = sys.argv[1], sys.argv[3:]
    quiet = float(os.environ.get("GSTPIPE_TEST_QUIET", "600"))
    after_summary = float(os.environ.get("GSTPIPE_TEST_AFTER_SUMMARY", "60"))
    # A session of its own, so that the whole tree can be killed at once.
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True)
    state = {"last": time.monotonic(), "summary": None, "running": collections.Counter()}

    def relay():
        for line in iter(process.stdout.readline, b""):
            sys.stdout.buffer.write(line)
            sys.stdout.buffer.flush()
            now = time.monotonic()
            state["last"] = now
            text = line.decode(errors="replace")
            if state["summary"] is None and SUMMARY.search(text):
                state["summary"] = now
            if started := STARTED.match(text):
                state["running"][started.group(1)] += 1
            elif ended := ENDED.match(text):
                state["running"][ended.group(1)] -= 1

    reader = threading.Thread(target=relay, daemon=True)
    reader.start()
    while process.poll() is None:
        time.sleep(1)
        now = time.monotonic()
        if state["summary"] is not None and now - state["summary"] > after_summary:
            why = f"printed its summary {after_summary:.0f} s ago and has not exited"
        elif now - state["last"] > quiet:
            why = f"printed nothing for {quiet:.0f} s"
        else:
            continue
        print(f"test-guard: {name} {why}", flush=True)
        # A test suspended on an await that nothing will resume holds no thread: no stack shows it, but
        # its "started" line has no end.
        unfinished = sorted(test for test, count in state["running"].items() if count > 0)
        print(f"test-guard: tests started and not ended: {unfinished or 'none'}", flush=True)
        print("test-guard: every thread of every process under it follows", flush=True)
        for pid in [process.pid] + descendants(process.pid):
            dump(pid)
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
        reader.join(timeout=5)
        print(f"test-guard: {name} hung ({why}) and was killed", flush=True)
        return 1
    reader.join(timeout=30)
    return process.returncode


if __name__ == "__main__":
    sys.exit(main())
