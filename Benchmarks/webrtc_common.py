"""What the WebRTC benchmarks share (webrtc-latency.py, webrtc-viewers.py): a network namespace of
their own with loopback alone, gstpipe serving a webrtc:// output in it, the machine's load, and a
process's CPU time and resident memory from /proc.

The namespace: each benchmark runs itself again under `unshare -n` (root, or a user namespace
allowed) and brings loopback up, so every packet stays on this machine, webrtcbin's ICE must work
on 127.0.0.1, and the ports it uses clash with nothing else running.
"""
import os
import subprocess
import sys
import time
import urllib.error
import urllib.request

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
GSTPIPE = os.environ.get("GSTPIPE", os.path.join(ROOT, ".build", "debug", "gstpipe"))
TICKS = os.sysconf("SC_CLK_TCK")


def enter_namespace():
    """Runs this script again in a new network namespace (first call), then brings loopback up."""
    if os.environ.get("GSTPIPE_BENCH_NAMESPACE") != "1":
        os.environ["GSTPIPE_BENCH_NAMESPACE"] = "1"
        try:
            os.execvp("unshare", ["unshare", "-n", sys.executable, *sys.argv])
        except OSError as error:
            sys.exit(f"cannot run unshare -n ({error}): run this benchmark as root, or where user namespaces work")
    subprocess.run(["ip", "link", "set", "lo", "up"], check=True)


def load():
    """The load average over the last minute, five and fifteen minutes, as `uptime` prints it."""
    with open("/proc/loadavg") as file:
        return " ".join(file.read().split()[:3])


def start_gstpipe(description, log):
    """Starts `gstpipe DESCRIPTION...` (a list of tokens), its notes into the file `log`."""
    if not os.access(GSTPIPE, os.X_OK):
        sys.exit(f"no gstpipe at {GSTPIPE}: run swift build (or swift build -c release and set GSTPIPE)")
    return subprocess.Popen([GSTPIPE, *description], stdout=log, stderr=subprocess.STDOUT)


def wait_for_server(url, process, seconds=60):
    """Waits until `url` answers (any HTTP status); exits if `process` ends first or it never does."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            sys.exit(f"the server ended with status {process.returncode} before it listened")
        try:
            urllib.request.urlopen(url, timeout=2).close()
            return
        except urllib.error.HTTPError:
            return
        except OSError:
            time.sleep(0.2)
    sys.exit(f"nothing answered at {url} in {seconds} s")


def stop(process, seconds=10):
    """Interrupts `process` (as Ctrl-C would) and waits for it; kills it if it does not end."""
    if process.poll() is None:
        process.send_signal(2)
        try:
            process.wait(seconds)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def cpu_seconds(pid):
    """CPU time (user + system) that process `pid` has used, in seconds, its threads included."""
    with open(f"/proc/{pid}/stat") as file:
        fields = file.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def resident_mb(pid):
    """Resident memory of process `pid` in MB (VmRSS)."""
    with open(f"/proc/{pid}/status") as file:
        for line in file:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def percentile(values, share):
    """The value below which `share` (0 to 1) of `values` lie (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * share))]
