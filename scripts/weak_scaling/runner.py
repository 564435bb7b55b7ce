"""Running one point through nvx-run (or a stand-in given by --runner) under a time
limit, and turning what it printed and its exit status into a result."""
import os
import signal
import subprocess
import threading
import time

from . import parse

# nvx-run's own statuses: 124 when its --timeout expired, 3 when an application's result
# did not match the host reference, 2 for a refused request (output-format.md).
STATUS_TIMEOUT = 124
STATUS_MISMATCH = 3
# The driver's backstop, should the runner overstay its own --timeout.
BACKSTOP_GRACE_SECONDS = 15


class Stopped(Exception):
    """The driver was told to stop (SIGTERM, SIGHUP): raised from the signal handler."""

    def __init__(self, signum):
        super().__init__("signal %d" % signum)
        self.signum = signum


def raise_stopped(signum, _frame):
    raise Stopped(signum)


def command(runner, board, point, build, program, klass, timeout):
    cmd = [runner, "--board", board, "-np", str(point.ranks), "--map-by", point.mapping]
    if point.ppc:
        cmd += ["--ppc", str(point.ppc)]
    if build.kernel_opts:
        cmd += ["--kernel-opts", build.kernel_opts]
    if timeout:
        cmd += ["--timeout", str(timeout)]
    return cmd + [program, "--class", klass] + list(build.args)


class Launches:
    """The runs in progress of a sweep whose points run on several threads: a signal reaches
    only the main thread, which stops them all here; once closed, no run starts."""

    def __init__(self):
        self._lock = threading.Lock()
        self._procs = set()
        self._closed = False

    def start(self, cmd, env):
        """The started process, or None once the sweep is stopping."""
        with self._lock:
            if self._closed:
                return None
            proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                    universal_newlines=True, errors="replace", start_new_session=True, env=env)
            self._procs.add(proc)
            return proc

    def finished(self, proc):
        with self._lock:
            self._procs.discard(proc)

    def stop_all(self):
        with self._lock:
            self._closed = True
            procs = list(self._procs)
        for proc in procs:
            _stop_group(proc)

    @property
    def closed(self):
        return self._closed


def run_command(cmd, timeout, grace=BACKSTOP_GRACE_SECONDS, env=None, launches=None):
    """Runs cmd in its own session; past timeout + grace its whole process group (the
    runner and QEMU) is stopped. Returns (exit status or None if stopped, stdout, stderr,
    wall seconds), or None when launches was closed (the sweep is stopping)."""
    launches = launches or Launches()
    start = time.monotonic()
    proc = launches.start(cmd, env)
    if proc is None:
        return None
    limit = timeout + grace if timeout else None
    try:
        out, err = proc.communicate(timeout=limit)
        status = proc.returncode
    except subprocess.TimeoutExpired:
        _stop_group(proc)
        out, err = proc.communicate()
        status = None
    except (KeyboardInterrupt, Stopped):
        # The run has its own session, so neither the terminal's Ctrl-C nor a signal to
        # the driver reached it: it must not outlive the driver.
        _stop_group(proc)
        raise
    finally:
        launches.finished(proc)
    return status, out, err, time.monotonic() - start


def _stop_group(proc):
    for sig, wait in ((signal.SIGTERM, 5), (signal.SIGKILL, None)):
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            return
        try:
            proc.wait(timeout=wait)
            return
        except subprocess.TimeoutExpired:
            continue


def classify(point, build, klass, clusters, status, stdout):
    """(status word, parsed summary or None, result line, a2a rows). Status words:
    ok, timeout, mismatch (wrong result), failed, no-summary (no capbench line),
    wrong-summary (the line describes another run or placement), incomplete (A2A without its lines)."""
    summary = parse.find_capbench(stdout)
    a2a_rows = parse.parse_a2a_lines(stdout) if point.app == "a2a" else []
    result = parse.a2a_result_line(a2a_rows) if point.app == "a2a" else parse.find_result_line(stdout, point.app)
    if status is None or status == STATUS_TIMEOUT:
        word = "timeout"
    elif status == STATUS_MISMATCH or (summary is not None and summary["verified"] != "yes"):
        word = "mismatch"
    elif status != 0:
        word = "failed"
    elif summary is None:
        word = "no-summary"
    elif (summary["app"], summary["build"], summary["ranks"], summary["clusters"], summary["class"]) != (
            point.app, build.base, point.ranks, clusters, klass):
        word = "wrong-summary"
    elif point.app == "a2a" and (not a2a_rows or any(r["verified"] != "yes" for r in a2a_rows)):
        word = "incomplete"
    else:
        word = "ok"
    return word, summary, result, a2a_rows


def write_log(path, cmd, status, stdout, stderr):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write("$ %s\n" % " ".join(cmd))
        f.write("exit status: %s\n" % ("stopped after the time limit" if status is None else status))
        f.write("--- stdout ---\n%s" % stdout)
        f.write("--- stderr ---\n%s" % stderr)
