"""The Celery side of the gstpipe farm: one app, one task (a segment of a file through gstpipe).

A thin layer over gstpipe: Celery and Redis (Debian's python3-celery, python3-redis, redis-server)
queue, hand out and retry the work; gstpipe cuts, processes and encodes. `farm/worker` runs the
task, `farm/run` sends it.
"""

import ctypes
import os
import signal
import socket
import subprocess

from celery import Celery, bootsteps
from celery.signals import worker_process_init

QUEUE = "gstpipe"
TASK = "gstpipe.segment"
PR_SET_PDEATHSIG = 1


def make_app(broker, visibility_timeout):
    """The farm's Celery app on `broker` (a redis:// URL), its results kept there too.

    Acknowledged late and rejected when the worker is lost, one task at a time per pool process: a
    worker killed mid-segment leaves its task unacknowledged, and Redis hands it out again after
    `visibility_timeout` seconds (Celery's default, an hour, would stall a job; the coordinator also
    re-sends a segment whose worker is gone, since a segment is idempotent).
    """
    app = Celery("gstpipe_farm", broker=broker, backend=broker)
    app.conf.update(
        task_acks_late=True,
        task_reject_on_worker_lost=True,
        task_track_started=True,
        worker_prefetch_multiplier=1,
        task_default_queue=QUEUE,
        broker_transport_options={"visibility_timeout": visibility_timeout},
        result_backend_transport_options={"visibility_timeout": visibility_timeout},
        result_expires=24 * 3600,
        broker_connection_retry_on_startup=True,
        worker_hijack_root_logger=False,
    )
    app.task(name=TASK, bind=True)(run_segment)
    app.steps["worker"].add(PromptHandOut)
    return app


class PromptHandOut(bootsteps.StartStopStep):
    """Wakes the worker's event loop every 50 ms, so that it asks for the next segment as soon as it has one free.

    With late acknowledgement, the worker acknowledges a finished task in a callback its event loop runs after
    the step that asks Redis for more (BRPOP, once a task slot is free), then sleeps until its next timer
    (Celery's heartbeat, every 2 s): Redis's MONITOR showed each BRPOP 0.2 to 1.6 s after the acknowledgement
    before it, always on that 2 s beat, and a one-worker farm lost as much between its segments.
    """

    requires = {"celery.worker.components:Hub"}

    def start(self, worker):
        if worker.hub is not None:
            worker.hub.call_repeatedly(0.05, _nothing)


def _nothing():
    pass


def die_with_parent():
    """Asks the kernel to SIGKILL this process when its parent dies (prctl PR_SET_PDEATHSIG).

    In a pool process, the parent is the worker: a SIGKILLed worker takes its pool with it, so no
    orphan goes on running a segment the queue hands to someone else. In gstpipe (preexec_fn), the
    parent is the pool process.
    """
    libc = ctypes.CDLL("libc.so.6", use_errno=True)
    if libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_PDEATHSIG)")
    # The parent may have died before prctl: then nothing will send the signal.
    if os.getppid() == 1:
        os.kill(os.getpid(), signal.SIGKILL)


@worker_process_init.connect
def _pool_process_dies_with_worker(**_):
    die_with_parent()


def run_segment(task, gstpipe_args, segment):
    """Runs `gstpipe IN --start S --end E --no-audio ! DESC ! TEMP`, then renames TEMP to `segment`.

    `gstpipe_args` is the command line before the output (IN, the range, `!`, DESC, `!`). The
    temporary name is unique to this host and process, and the rename is atomic: a segment file that
    exists is whole, whoever wrote it; a killed run leaves only a temporary file behind. Returns the
    host, process and whether the segment was already there.
    """
    where = {"hostname": task.request.hostname or socket.gethostname(), "pid": os.getpid()}
    directory, name = os.path.split(segment)
    # Whole already, or its job joined and gone: a task Redis handed out again after its worker was lost.
    if os.path.exists(segment) or not os.path.isdir(directory):
        return dict(where, skipped=True)
    stem, extension = os.path.splitext(name)
    temporary = os.path.join(directory, f".{stem}.part-{socket.gethostname()}-{os.getpid()}{extension}")
    gstpipe = os.environ.get("GSTPIPE", "gstpipe")
    command = [gstpipe] + list(gstpipe_args) + [temporary]
    try:
        completed = subprocess.run(command, preexec_fn=die_with_parent, stdin=subprocess.DEVNULL,
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        if completed.returncode != 0:
            raise RuntimeError(f"gstpipe exited {completed.returncode} on {name}: {completed.stderr.strip()[-2000:]}")
        if not os.path.exists(temporary):
            raise RuntimeError(f"gstpipe exited 0 but wrote no {temporary}")
        os.replace(temporary, segment)
    finally:
        if os.path.exists(temporary):
            os.unlink(temporary)
    return dict(where, skipped=False)
