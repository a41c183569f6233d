"""One farm job as the coordinator sees it: its command line, its plan, its files, and the gstpipe
commands around the segments (the plan, the audio, the join)."""

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile

from kombu.utils.url import maybe_sanitize_url as maskurl

NS = 1_000_000_000


def usage_error(message):
    """Exits 2 with `message` and how to call farm/run."""
    print(f"farm/run: {message}\nusage: farm/run --broker redis://HOST:PORT/DB IN ! DESC ! OUT --segment-seconds N "
          "[--start T] [--end T] [--shared-dir D] [--workers-timeout S] [--gstpipe PATH]", file=sys.stderr)
    sys.exit(2)


def parse_arguments(arguments):
    """The options, and the pipeline (`IN ! DESC ! OUT`, the arguments that are no option) split at `!`."""
    parser = argparse.ArgumentParser(add_help=True)
    parser.add_argument("--broker", required=True)
    parser.add_argument("--segment-seconds", type=float, required=True)
    parser.add_argument("--start")
    parser.add_argument("--end")
    parser.add_argument("--shared-dir")
    parser.add_argument("--workers-timeout", type=float, default=60)
    parser.add_argument("--gstpipe")
    options, pipeline = parser.parse_known_args(arguments)
    if not options.broker.startswith("redis://"):
        usage_error(f"--broker {maskurl(options.broker)!r} is no redis:// URL")
    if options.segment_seconds <= 0:
        usage_error("--segment-seconds must be above 0")
    stages = [[]]
    for token in pipeline:
        if token == "!":
            stages.append([])
        else:
            stages[-1].append(token)
    if len(stages) < 2 or len(stages[0]) != 1 or len(stages[-1]) != 1 or any(not stage for stage in stages):
        usage_error(f"the pipeline {' '.join(pipeline)!r} is not IN ! DESC ! OUT (one input file, one output file)")
    options.input = os.path.abspath(stages[0][0])
    options.output = os.path.abspath(stages[-1][0])
    options.description = stages[1:-1]
    if not os.path.isfile(options.input):
        usage_error(f"no input file {options.input}")
    gstpipe = options.gstpipe or shutil.which("gstpipe")
    if gstpipe is None or not os.access(gstpipe, os.X_OK):
        usage_error(f"no gstpipe binary at {options.gstpipe or 'PATH'}: give --gstpipe PATH")
    options.gstpipe = os.path.realpath(gstpipe)
    return options


class Job:
    """The files and gstpipe commands of one run of farm/run."""

    def __init__(self, options):
        self.options = options
        self.made_shared_dir = options.shared_dir is None
        self.shared_dir = options.shared_dir or tempfile.mkdtemp(prefix="gstpipe-farm-")
        self.audio_process = None
        self.segment_deadline = 0.0
        self.frame_total = 0
        self.variable_rate = False

    def gstpipe(self, arguments, **kwargs):
        """Runs gstpipe with `arguments`, its output kept."""
        return subprocess.run([self.options.gstpipe] + arguments, stdin=subprocess.DEVNULL,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kwargs)

    def plan(self):
        """The segments of `gstpipe plan-segments --json`; also names the job's directory after them."""
        arguments = ["plan-segments", self.options.input, "--segment-seconds", f"{self.options.segment_seconds:g}"]
        arguments += self.range_arguments() + ["--json"]
        if shutil.which("ffprobe") is None:
            raise RuntimeError("ffprobe is not installed (apt-get install ffmpeg): farm/run reads the input's "
                               "tracks and counts the output's frames with it")
        planned = self.gstpipe(arguments)
        if planned.returncode != 0:
            raise RuntimeError(f"gstpipe plan-segments failed: {planned.stderr.strip()}")
        plan = json.loads(planned.stdout)
        # A variable rate: the segments start on frames, and join places each at its planned start.
        self.variable_rate = not plan.get("frameRate")
        segments = plan["segments"]
        if not segments:
            raise RuntimeError(f"gstpipe plan-segments found no frame to process in {self.options.input}")
        self.frame_total = sum(segment["frames"] for segment in segments)
        self.start, self.end = segments[0]["start"], segments[-1]["end"]
        # The same input, description and plan make the same job: a run again finds its whole segments.
        # The input's and gstpipe's size and time of change are in it too: an input written again
        # with the same length, or another gstpipe, must not reuse segments made from the old one.
        def identity(path):
            found = os.stat(shutil.which(path) or path)
            return [found.st_size, found.st_mtime_ns, found.st_ino]
        key = json.dumps([self.options.input, identity(self.options.input), identity(self.options.gstpipe),
                          self.options.description, self.extension(), plan])
        self.directory = os.path.join(self.shared_dir, "job-" + hashlib.sha1(key.encode()).hexdigest()[:16])
        os.makedirs(self.directory, exist_ok=True)
        longest = max(segment["endNs"] - segment["startNs"] for segment in segments) / NS
        # Generous: a loaded machine may run a segment at a tenth of real time; a deadline is a last resort.
        self.segment_deadline = max(120.0, 20 * longest)
        return segments

    def range_arguments(self):
        arguments = []
        if self.options.start is not None:
            arguments += ["--start", self.options.start]
        if self.options.end is not None:
            arguments += ["--end", self.options.end]
        return arguments

    def visibility_timeout(self, segments):
        """Seconds before Redis hands out again a task whose worker vanished: past a segment's deadline."""
        return int(self.segment_deadline + 60)

    def extension(self):
        return os.path.splitext(self.options.output)[1] or ".mkv"

    def segment_path(self, segment):
        return os.path.join(self.directory, f"segment-{segment['index']:05d}{self.extension()}")

    def description_arguments(self):
        """`! DESC !` as arguments, the stages between the input and the output."""
        arguments = ["!"]
        for stage in self.options.description:
            arguments += stage + ["!"]
        return arguments

    def segment_arguments(self, segment):
        """The gstpipe command line of one segment, its output file left out (the worker names it)."""
        return [self.options.input, "--start", segment["start"], "--end", segment["end"], "--no-audio"] \
            + self.description_arguments()

    def has_audio(self):
        """Whether the input has an audio track (ffprobe), which the coordinator then encodes once."""
        probe = subprocess.run(["ffprobe", "-v", "error", "-select_streams", "a", "-show_entries", "stream=index",
                                "-of", "csv=p=0", self.options.input], stdout=subprocess.PIPE, text=True)
        return probe.returncode == 0 and probe.stdout.strip() != ""

    def audio_path(self):
        # MP4 holds no Vorbis (a .mka's codec): AAC in .m4a for it, as gstpipe picks by extension.
        mp4 = self.extension().lower() in (".mp4", ".m4v", ".mov")
        return os.path.join(self.directory, "audio.m4a" if mp4 else "audio.mka")

    def start_audio(self):
        """Starts encoding the audio over the whole range (once, no clicks at the joins); None without audio."""
        if not self.has_audio() or os.path.exists(self.audio_path()):
            return None
        extension = os.path.splitext(self.audio_path())[1]
        self.audio_temporary = os.path.join(self.directory, f".audio.part-{os.getpid()}{extension}")
        self.audio_process = subprocess.Popen(
            [self.options.gstpipe, self.options.input, "--start", self.start, "--end", self.end, "--no-video",
             "!", self.audio_temporary], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
            text=True)
        return self.audio_process

    def stop_audio(self):
        if self.audio_process is not None and self.audio_process.poll() is None:
            self.audio_process.kill()
            self.audio_process.wait()
        # A job that stopped early (no worker, a failed segment) leaves no part of its audio in --shared-dir.
        if self.audio_process is not None and os.path.exists(self.audio_temporary):
            os.unlink(self.audio_temporary)

    def finish_audio(self):
        """Waits for the audio; renames it into place. False (the reason printed) when it failed."""
        _, errors = self.audio_process.communicate()
        if self.audio_process.returncode != 0:
            print(f"farm: encoding the audio failed: {errors.strip()}", file=sys.stderr)
            return False
        os.replace(self.audio_temporary, self.audio_path())
        return True

    def join(self, segments):
        """`gstpipe join OUT SEG... [--audio A]`, then checks OUT's frame count against the plan and removes
        the job's files. False (the reason printed) when OUT is not whole."""
        arguments = ["join", self.options.output] + [self.segment_path(segment) for segment in segments]
        if self.variable_rate:
            arguments += ["--starts", ",".join(segment["start"] for segment in segments)]
        # What the join must hold: the frames the segments hold, and the plan's count (a variable-rate
        # input's is counted from its frames' times).
        written = [count_frames(self.segment_path(segment)) for segment in segments]
        expected = None if None in written else sum(written)
        planned_known = all(segment["frames"] > 0 for segment in segments)
        if expected is not None and planned_known and expected != self.frame_total:
            print(f"farm: the segments hold {expected} frames, {self.frame_total} planned", file=sys.stderr)
            return False
        if os.path.exists(self.audio_path()):
            arguments += ["--audio", self.audio_path()]
        joined = self.gstpipe(arguments)
        if joined.returncode != 0:
            print(f"farm: gstpipe join failed: {joined.stderr.strip()}", file=sys.stderr)
            return False
        frames = count_frames(self.options.output)
        if frames is not None and frames != expected:
            print(f"farm: {self.options.output} holds {frames} frames, its segments {expected}", file=sys.stderr)
            os.unlink(self.options.output)
            return False
        shutil.rmtree(self.directory, ignore_errors=True)
        print(f"farm: {self.options.output}: {frames} frames", file=sys.stderr)
        return True


def count_frames(path):
    """The video packets in `path` (ffprobe, no decoding), None when ffprobe is missing."""
    if shutil.which("ffprobe") is None:
        return None
    probe = subprocess.run(["ffprobe", "-v", "error", "-select_streams", "v:0", "-count_packets", "-show_entries",
                            "stream=nb_read_packets", "-of", "csv=p=0", path], stdout=subprocess.PIPE, text=True)
    try:
        return int(probe.stdout.strip())
    except ValueError:
        return -1
